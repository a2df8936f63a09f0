/*  =========================================================================
    gw_store - SQL rows as JSON for the admin resources

    The resource modules (gw_domain, gw_group, gw_user, gw_keypair, ...)
    answer GraphQL and REST with JSON objects whose keys are the column
    names, which are Backend.AI's field names. Columns listed as booleans
    become true/false; columns holding JSON (resource slots, lists) stay
    text, which is what GraphQL's JSONString fields carry.

    Every operation returns a bus status (BUS_OK, BUS_STATUS_FORBIDDEN,
    BUS_STATUS_NOT_FOUND, BUS_STATUS_CONFLICT, BUS_STATUS_INVALID,
    BUS_STATUS_INTERNAL) with a detail in a bus_error_t; the GraphQL and
    REST layers turn those into their own error forms.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_STORE_H_INCLUDED
#define GW_STORE_H_INCLUDED

#include "bus.h"

//  The current row of stmt as an object. Caller owns return value.
json_t *gw_store_row(sqlite3_stmt *stmt, const char *const *booleans);

//  Every row of a statement the caller prepared and bound (one not cached:
//  it is finalized here, also on failure). NULL on a database error.
json_t *gw_store_rows_of(sqlite3_stmt *stmt, const char *const *booleans);

//  Runs sql with text parameters (NULL-terminated list; a NULL entry in
//  the middle is not possible, use gw_store_bind for typed values) and
//  returns every row. NULL on a database error.
json_t *gw_store_rows(bus_db_t *db,
                      const char *sql,
                      const char *const *params,
                      const char *const *booleans);

//  The first row, or NULL when there is none (or on error, *failed set).
json_t *gw_store_one(bus_db_t *db,
                     const char *sql,
                     const char *const *params,
                     const char *const *booleans,
                     bool *failed);

//  The first column of the first row of sql run with key as ?1, as text;
//  NULL when there is none, key is NULL or "", or on a database error:
//  a name looked up for showing. Caller owns return value.
char *gw_store_text(bus_db_t *db, const char *sql, const char *key);

//  Binds a JSON value to parameter index: strings, integers, reals,
//  booleans (as 0/1), null; objects and arrays as their JSON text.
void gw_store_bind(sqlite3_stmt *stmt, int index, json_t *value);

//  Runs a prepared write. BUS_OK, CONFLICT (constraint), or INTERNAL,
//  with err filled.
int gw_store_step(bus_db_t *db, sqlite3_stmt *stmt, bus_error_t *err);

//  Validates that value (a JSON object, or a JSON string holding one, as
//  Backend.AI's clients send JSONString inputs) is a resource-slot map or
//  another JSON document, and writes its text to out (caller frees).
//  BUS_OK or BUS_STATUS_INVALID.
int gw_store_json_text(json_t *value, const char *field, char **out, bus_error_t *err);

//  The same for a GW_FIELD_SLOTS or GW_FIELD_HOSTS value: its normalized
//  text (caller frees), or BUS_STATUS_INVALID naming the field.
int gw_store_slots_text(json_t *value, const char *field, char **out, bus_error_t *err);
int gw_store_hosts_text(json_t *value, const char *field, char **out, bus_error_t *err);

//  A column a client may set: its name (also the JSON key) and type.
typedef enum {
    GW_FIELD_TEXT,
    GW_FIELD_INT,
    GW_FIELD_BOOL,
    GW_FIELD_JSON,
    //  A resource-slot map as a person types it ({"mem": "8g"}): stored in
    //  Backend.AI's form (bytes, decimal strings) by bus_slots_parse, or
    //  refused.
    GW_FIELD_SLOTS,
    //  allowed_vfolder_hosts: an object {host: [permissions]}, a list of host
    //  names (the v6.20220315 schema's form), or one string of names
    //  separated by commas ("" for none); lists and names are stored as a
    //  list, which grants the hosts' every permission.
    GW_FIELD_HOSTS
} gw_field_type_t;
typedef struct {
    const char *name;
    gw_field_type_t type;
} gw_field_t;

//  Writes the keys of props that appear in fields (a table ending with a
//  NULL name) into table: an UPDATE of the row whose key_column is key, or
//  (insert) an INSERT with key and the fixed columns in fixed (an object,
//  may be NULL) as well. Unknown keys in props are refused, wrong types too.
//  Column names come only from fields and fixed, never from the client.
//  BUS_OK, NOT_FOUND (update of no row), CONFLICT, INVALID or INTERNAL.
int gw_store_write(bus_db_t *db,
                   const char *table,
                   const char *key_column,
                   const char *key,
                   const gw_field_t *fields,
                   json_t *props,
                   json_t *fixed,
                   bool insert,
                   bus_error_t *err);

//  Deletes the row of table whose key_column is key. BUS_OK, NOT_FOUND (with
//  not_found as the detail), CONFLICT (still referenced) or INTERNAL. Table
//  and column names are the caller's constants, never input.
int gw_store_delete(bus_db_t *db,
                    const char *table,
                    const char *key_column,
                    const char *key,
                    const char *not_found,
                    bus_error_t *err);

#endif
