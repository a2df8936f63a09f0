/*  =========================================================================
    gw_template_row - the session_templates table: every statement on it

    Session templates' rows, each read with its owner's email and its
    project's name. Who may read or change a template is the routes'
    (gw_template_api.c); the document in a row is gw_template's (checked
    and normalized before it is written here).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define TEMPLATE_COLUMNS                                                                 \
    "t.id, t.created_at, t.domain_name, t.group_id, t.user_uuid, t.type, t.name,"        \
    " t.template, u.email AS user_email, g.name AS group_name"
#define TEMPLATE_FROM                                                                    \
    " FROM session_templates t LEFT JOIN users u ON u.uuid = t.user_uuid"                \
    " LEFT JOIN groups g ON g.id = t.group_id"

json_t *
gw_template_row_find(bus_db_t *db, const char *id, const char *user_uuid, bool *failed)
{
    const char *params[] = {id, user_uuid, NULL};
    return gw_store_one(
        db,
        "SELECT " TEMPLATE_COLUMNS ", EXISTS (SELECT 1 FROM association_groups_users a"
        " WHERE a.group_id = t.group_id AND a.user_id = ?2) AS member" TEMPLATE_FROM
        " WHERE t.id = ?1 AND t.is_active AND t.type = 'task'",
        params, NULL, failed);
}

json_t *
gw_template_row_list(bus_db_t *db,
                     const char *user_uuid,
                     const char *domain,
                     const char *group_id,
                     bool all,
                     bool domain_admin)
{
    const char *params[] = {user_uuid,
                            domain,
                            group_id ? group_id : "",
                            all ? "1" : "0",
                            domain_admin ? "1" : "0",
                            NULL};
    return gw_store_rows(
        db,
        "SELECT " TEMPLATE_COLUMNS TEMPLATE_FROM
        " WHERE t.is_active AND t.type = 'task' AND (?3 = '' OR t.group_id = ?3) AND"
        " (?4 = '1' OR t.user_uuid = ?1 OR (?5 = '1' AND g.domain_name = ?2) OR"
        " t.group_id IN (SELECT group_id FROM association_groups_users WHERE user_id = "
        "?1))"
        " ORDER BY t.created_at, t.id",
        params, NULL);
}

int
gw_template_row_insert(bus_db_t *db, const gw_template_row_t *row, bus_error_t *err)
{
    sqlite3_stmt *stmt = bus_db_stmt(db, "INSERT INTO session_templates (id, created_at,"
                                         " domain_name, group_id, user_uuid, type, name,"
                                         " template) VALUES (?1, ?2, ?3, ?4, ?5, 'task',"
                                         " ?6, ?7)");
    if (!stmt)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    const char *values[] = {row->id,       row->created_at, row->domain_name,
                            row->group_id, row->user_uuid,  row->name,
                            row->text};
    for (int i = 0; i < 7; i++)
        sqlite3_bind_text(stmt, i + 1, values[i], -1, SQLITE_STATIC);
    int rc = gw_store_step(db, stmt, err);
    sqlite3_clear_bindings(stmt);
    return rc;
}

//  Runs sql on template id (?1), with text and name as ?2 and ?3 when text.
static int
s_row_write(bus_db_t *db,
            const char *sql,
            const char *id,
            const char *text,
            const char *name,
            bus_error_t *err)
{
    sqlite3_stmt *stmt = bus_db_stmt(db, sql);
    if (!stmt)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    sqlite3_bind_text(stmt, 1, id, -1, SQLITE_TRANSIENT);
    if (text) {
        sqlite3_bind_text(stmt, 2, text, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 3, name, -1, SQLITE_STATIC);
    }
    int rc = gw_store_step(db, stmt, err);
    sqlite3_clear_bindings(stmt);
    return rc;
}

int
gw_template_row_update(
    bus_db_t *db, const char *id, const char *text, const char *name, bus_error_t *err)
{
    assert(text);
    return s_row_write(
        db, "UPDATE session_templates SET template = ?2, name = ?3 WHERE id = ?1", id,
        text, name, err);
}

int
gw_template_row_deactivate(bus_db_t *db, const char *id, bus_error_t *err)
{
    return s_row_write(db, "UPDATE session_templates SET is_active = 0 WHERE id = ?1", id,
                       NULL, NULL, err);
}
