/*  =========================================================================
    gw_store - rows to JSON, typed binding, constraint errors

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

static bool
s_is_boolean(const char *name, const char *const *booleans)
{
    for (int i = 0; booleans && booleans[i]; i++)
        if (strcmp(booleans[i], name) == 0)
            return true;
    return false;
}

json_t *
gw_store_row(sqlite3_stmt *stmt, const char *const *booleans)
{
    json_t *row = json_object();
    int columns = sqlite3_column_count(stmt);
    for (int i = 0; i < columns; i++) {
        const char *name = sqlite3_column_name(stmt, i);
        json_t *value;
        switch (sqlite3_column_type(stmt, i)) {
            case SQLITE_INTEGER:
                value = s_is_boolean(name, booleans)
                            ? json_boolean(sqlite3_column_int64(stmt, i) != 0)
                            : json_integer(sqlite3_column_int64(stmt, i));
                break;
            case SQLITE_FLOAT:
                value = json_real(sqlite3_column_double(stmt, i));
                break;
            case SQLITE_TEXT:
                value = json_stringn((const char *) sqlite3_column_text(stmt, i),
                                     (size_t) sqlite3_column_bytes(stmt, i));
                break;
            default:
                value = json_null();
                break;
        }
        json_object_set_new(row, name, value ? value : json_null());
    }
    return row;
}

static sqlite3_stmt *
s_prepare(bus_db_t *db, const char *sql, const char *const *params)
{
    sqlite3_stmt *stmt = bus_db_stmt(db, sql);
    for (int i = 0; stmt && params && params[i]; i++)
        sqlite3_bind_text(stmt, i + 1, params[i], -1, SQLITE_TRANSIENT);
    return stmt;
}

json_t *
gw_store_rows(bus_db_t *db,
              const char *sql,
              const char *const *params,
              const char *const *booleans)
{
    sqlite3_stmt *stmt = s_prepare(db, sql, params);
    if (!stmt)
        return NULL;
    json_t *rows = json_array();
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
        json_array_append_new(rows, gw_store_row(stmt, booleans));
    sqlite3_reset(stmt);
    if (rc != SQLITE_DONE) {
        bus_log_error("query failed reason=\"%s\"", sqlite3_errmsg(bus_db_handle(db)));
        json_decref(rows);
        return NULL;
    }
    return rows;
}

json_t *
gw_store_rows_of(sqlite3_stmt *stmt, const char *const *booleans)
{
    json_t *rows = json_array();
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
        json_array_append_new(rows, gw_store_row(stmt, booleans));
    if (rc != SQLITE_DONE) {
        bus_log_error("query failed reason=\"%s\"",
                      sqlite3_errmsg(sqlite3_db_handle(stmt)));
        json_decref(rows);
        rows = NULL;
    }
    sqlite3_finalize(stmt);
    return rows;
}

json_t *
gw_store_one(bus_db_t *db,
             const char *sql,
             const char *const *params,
             const char *const *booleans,
             bool *failed)
{
    *failed = false;
    sqlite3_stmt *stmt = s_prepare(db, sql, params);
    if (!stmt) {
        *failed = true;
        return NULL;
    }
    json_t *row = NULL;
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW)
        row = gw_store_row(stmt, booleans);
    else if (rc != SQLITE_DONE)
        *failed = true;
    sqlite3_reset(stmt);
    return row;
}

void
gw_store_bind(sqlite3_stmt *stmt, int index, json_t *value)
{
    if (!value || json_is_null(value))
        sqlite3_bind_null(stmt, index);
    else if (json_is_string(value))
        sqlite3_bind_text(stmt, index, json_string_value(value), -1, SQLITE_TRANSIENT);
    else if (json_is_boolean(value))
        sqlite3_bind_int(stmt, index, json_is_true(value));
    else if (json_is_integer(value))
        sqlite3_bind_int64(stmt, index, json_integer_value(value));
    else if (json_is_real(value))
        sqlite3_bind_double(stmt, index, json_real_value(value));
    else {
        char *text = json_dumps(value, JSON_COMPACT);
        sqlite3_bind_text(stmt, index, text ? text : "null", -1, SQLITE_TRANSIENT);
        free(text);
    }
}

int
gw_store_step(bus_db_t *db, sqlite3_stmt *stmt, bus_error_t *err)
{
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    if (rc == SQLITE_DONE)
        return BUS_OK;
    if ((rc & 0xff) == SQLITE_CONSTRAINT)
        return bus_error_set(err, BUS_STATUS_CONFLICT, "integrity error: %s",
                             sqlite3_errmsg(bus_db_handle(db)));
    bus_log_error("write failed reason=\"%s\"", sqlite3_errmsg(bus_db_handle(db)));
    return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
}

int
gw_store_json_text(json_t *value, const char *field, char **out, bus_error_t *err)
{
    json_t *parsed = NULL;
    if (json_is_string(value)) {
        parsed = json_loads(json_string_value(value), JSON_DECODE_ANY, NULL);
        if (!parsed)
            return bus_error_set(err, BUS_STATUS_INVALID, "%s: not a JSON document",
                                 field);
        value = parsed;
    }
    *out = json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY);
    json_decref(parsed);
    return *out ? BUS_OK : bus_error_set(err, BUS_STATUS_INVALID, "%s: not JSON", field);
}

int
gw_store_slots_text(json_t *value, const char *field, char **out, bus_error_t *err)
{
    *out = NULL;
    //  An empty JSONString is "no limits", as {} is.
    if (json_is_string(value) && !*json_string_value(value)) {
        *out = strdup("{}");
        return *out ? BUS_OK : bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    json_t *slots = NULL;
    bus_error_t why = {0};
    if (bus_slots_parse(value, &slots, &why) != BUS_OK)
        return bus_error_set(err, BUS_STATUS_INVALID, "%s: %s", field, why.detail);
    *out = json_dumps(slots, JSON_COMPACT);
    json_decref(slots);
    return *out ? BUS_OK : bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
}

//  Whether name can be a volume host ("proxy:volume", or a bare name).
static bool
s_host_name_ok(const char *name, size_t len)
{
    if (len == 0 || len > 192)
        return false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char) name[i];
        if (c <= 0x20 || c == 0x7f || c == '"' || c == '\\')
            return false;
    }
    return true;
}

//  Adds the host names in text to hosts: a JSON list (or one as Python
//  writes it: the 22.03 client's command line sends its default, ['local'],
//  so), or names separated by commas, as a person types them. 0 or -1.
static int
s_hosts_add(json_t *hosts, const char *text)
{
    while (*text == ' ')
        text++;
    if (*text == '[') {
        json_t *list = json_loads(text, 0, NULL);
        if (!list && !strchr(text, '"')) {
            char *quoted = strdup(text);
            for (char *q = quoted; q && *q; q++)
                if (*q == '\'')
                    *q = '"';
            list = quoted ? json_loads(quoted, 0, NULL) : NULL;
            free(quoted);
        }
        int rc = json_is_array(list) ? 0 : -1;
        size_t index;
        json_t *item;
        json_array_foreach(list, index, item)
        {
            if (rc == 0 && json_is_string(item) &&
                s_host_name_ok(json_string_value(item), json_string_length(item)))
                json_array_append(hosts, item);
            else
                rc = -1;
        }
        json_decref(list);
        return rc;
    }
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, ",");
        const char *name = p;
        size_t len = n;
        while (len && name[0] == ' ')
            name++, len--;
        while (len && name[len - 1] == ' ')
            len--;
        if (len && !s_host_name_ok(name, len))
            return -1;
        if (len)
            json_array_append_new(hosts, json_stringn(name, len));
        p += n + (p[n] == ',');
    }
    return 0;
}

int
gw_store_hosts_text(json_t *value, const char *field, char **out, bus_error_t *err)
{
    *out = NULL;
    json_t *parsed = NULL, *hosts = NULL;
    int rc = BUS_OK;
    const char *text = json_string_value(value);
    while (text && *text == ' ')
        text++;
    if (text && *text == '{') {
        parsed = json_loads(text, 0, NULL);
        if (!parsed)
            return bus_error_set(err, BUS_STATUS_INVALID, "%s: not a JSON document",
                                 field);
        value = parsed;
    }
    if (json_is_object(value)) {
        const char *host;
        json_t *perms;
        json_object_foreach(value, host, perms)
        {
            bool ok = s_host_name_ok(host, strlen(host)) && json_is_array(perms);
            size_t index;
            json_t *perm;
            json_array_foreach(perms, index, perm) ok = ok && json_is_string(perm);
            if (!ok)
                rc = bus_error_set(err, BUS_STATUS_INVALID,
                                   "%s: {host: [permission, ...]} expected", field);
        }
    } else if (json_is_string(value) || json_is_array(value)) {
        //  a list of names, each of which may itself be a list or names
        //  separated by commas (GraphQL makes a string a list of one)
        hosts = json_array();
        if (json_is_string(value))
            rc = s_hosts_add(hosts, json_string_value(value));
        size_t index;
        json_t *item;
        json_array_foreach(value, index, item) if (rc == 0) rc =
            json_is_string(item) ? s_hosts_add(hosts, json_string_value(item)) : -1;
        if (rc != 0)
            rc =
                bus_error_set(err, BUS_STATUS_INVALID, "%s: a list of host names", field);
        value = hosts;
    } else
        rc =
            bus_error_set(err, BUS_STATUS_INVALID,
                          "%s: a list of host names or {host: [permission, ...]}", field);
    if (rc == BUS_OK && !(*out = json_dumps(value, JSON_COMPACT)))
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    json_decref(parsed);
    json_decref(hosts);
    return rc;
}

//  Checks one property against its declared type.
static int
s_check_field(const gw_field_t *field, json_t *value, bus_error_t *err)
{
    bool ok = json_is_null(value);
    switch (field->type) {
        case GW_FIELD_TEXT:
            ok = ok || json_is_string(value);
            break;
        case GW_FIELD_INT:
            ok = ok || json_is_integer(value);
            break;
        case GW_FIELD_BOOL:
            ok = json_is_boolean(value);
            break;
        case GW_FIELD_JSON:
        case GW_FIELD_SLOTS:
        case GW_FIELD_HOSTS:
            ok = true;
            break;
    }
    return ok ? BUS_OK
              : bus_error_set(err, BUS_STATUS_INVALID, "%s: wrong type", field->name);
}

static const gw_field_t *
s_find_field(const gw_field_t *fields, const char *name)
{
    for (const gw_field_t *f = fields; f->name; f++)
        if (strcmp(f->name, name) == 0)
            return f;
    return NULL;
}

int
gw_store_write(bus_db_t *db,
               const char *table,
               const char *key_column,
               const char *key,
               const gw_field_t *fields,
               json_t *props,
               json_t *fixed,
               bool insert,
               bus_error_t *err)
{
    if (props && !json_is_object(props))
        return bus_error_set(err, BUS_STATUS_INVALID, "props: expected an object");
    //  Collect (column, value) pairs: validated props, then fixed columns.
    const char *columns[64];
    json_t *values[64];
    int count = 0;
    const char *name;
    json_t *value;
    json_object_foreach(props, name, value)
    {
        //  GraphQL clients send null for every input they leave unset.
        if (json_is_null(value))
            continue;
        const gw_field_t *field = s_find_field(fields, name);
        if (!field)
            return bus_error_set(err, BUS_STATUS_INVALID, "unknown field '%.64s'", name);
        int rc = s_check_field(field, value, err);
        if (rc != BUS_OK)
            return rc;
        if (count == 60)
            return bus_error_set(err, BUS_STATUS_INVALID, "too many fields");
        columns[count] = field->name; //  the table's spelling, not the client's
        values[count] = value;
        count++;
    }
    json_object_foreach(fixed, name, value)
    {
        if (count == 63)
            break;
        columns[count] = name;
        values[count] = value;
        count++;
    }
    if (!insert && count == 0)
        return BUS_OK;
    char sql[4096];
    size_t pos;
    if (insert) {
        pos = (size_t) snprintf(sql, sizeof sql, "INSERT INTO %s (%s", table, key_column);
        for (int i = 0; i < count; i++)
            pos += (size_t) snprintf(sql + pos, sizeof sql - pos, ", %s", columns[i]);
        pos += (size_t) snprintf(sql + pos, sizeof sql - pos, ") VALUES (?1");
        for (int i = 0; i < count; i++)
            pos += (size_t) snprintf(sql + pos, sizeof sql - pos, ", ?%d", i + 2);
        snprintf(sql + pos, sizeof sql - pos, ")");
    } else {
        pos = (size_t) snprintf(sql, sizeof sql, "UPDATE %s SET ", table);
        for (int i = 0; i < count; i++)
            pos += (size_t) snprintf(sql + pos, sizeof sql - pos, "%s%s = ?%d",
                                     i ? ", " : "", columns[i], i + 2);
        snprintf(sql + pos, sizeof sql - pos, " WHERE %s = ?1", key_column);
    }
    //  The shape of the statement depends on which fields came: prepare it
    //  for this call rather than fill the cache with every combination.
    sqlite3_stmt *stmt = NULL;
    if (sqlite3_prepare_v2(bus_db_handle(db), sql, -1, &stmt, NULL) != SQLITE_OK) {
        bus_log_error("cannot prepare write table=%s reason=\"%s\"", table,
                      sqlite3_errmsg(bus_db_handle(db)));
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    }
    sqlite3_bind_text(stmt, 1, key, -1, SQLITE_TRANSIENT);
    int rc = BUS_OK;
    for (int i = 0; i < count && rc == BUS_OK; i++) {
        const gw_field_t *field = s_find_field(fields, columns[i]);
        if (field &&
            (field->type == GW_FIELD_JSON || field->type == GW_FIELD_SLOTS ||
             field->type == GW_FIELD_HOSTS) &&
            !json_is_null(values[i])) {
            char *text = NULL;
            rc = field->type == GW_FIELD_SLOTS
                     ? gw_store_slots_text(values[i], field->name, &text, err)
                 : field->type == GW_FIELD_HOSTS
                     ? gw_store_hosts_text(values[i], field->name, &text, err)
                     : gw_store_json_text(values[i], field->name, &text, err);
            if (rc == BUS_OK)
                sqlite3_bind_text(stmt, i + 2, text, -1, SQLITE_TRANSIENT);
            free(text);
        } else
            gw_store_bind(stmt, i + 2, values[i]);
    }
    if (rc == BUS_OK) {
        int step = sqlite3_step(stmt);
        if (step == SQLITE_DONE)
            rc = !insert && sqlite3_changes(bus_db_handle(db)) == 0
                     ? bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such %s", key_column)
                     : BUS_OK;
        else if ((step & 0xff) == SQLITE_CONSTRAINT)
            rc = bus_error_set(err, BUS_STATUS_CONFLICT, "integrity error: %s",
                               sqlite3_errmsg(bus_db_handle(db)));
        else
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    }
    sqlite3_finalize(stmt);
    return rc;
}

int
gw_store_delete(bus_db_t *db,
                const char *table,
                const char *key_column,
                const char *key,
                const char *not_found,
                bus_error_t *err)
{
    char sql[256];
    snprintf(sql, sizeof sql, "DELETE FROM %s WHERE %s = ?1", table, key_column);
    sqlite3_stmt *stmt = bus_db_stmt(db, sql);
    if (!stmt)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    sqlite3_bind_text(stmt, 1, key ? key : "", -1, SQLITE_TRANSIENT);
    int rc = gw_store_step(db, stmt, err);
    if (rc == BUS_OK && sqlite3_changes(bus_db_handle(db)) == 0)
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "%s", not_found);
    return rc;
}

char *
gw_store_text(bus_db_t *db, const char *sql, const char *key)
{
    sqlite3_stmt *stmt = key && *key ? bus_db_stmt(db, sql) : NULL;
    if (!stmt)
        return NULL;
    sqlite3_bind_text(stmt, 1, key, -1, SQLITE_TRANSIENT);
    const char *text = sqlite3_step(stmt) == SQLITE_ROW
                           ? (const char *) sqlite3_column_text(stmt, 0)
                           : NULL;
    char *out = text ? strdup(text) : NULL;
    sqlite3_reset(stmt);
    return out;
}
