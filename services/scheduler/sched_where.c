/*  =========================================================================
    sched_where - a session.list condition and order as SQL over sessions

    Builds the WHERE and ORDER BY of sched_sessions_list from session.list's
    fields: a growing SQL text made only of this file's fixed pieces and
    numbered parameters, and the values those parameters bind. The JSON
    term is checked as it is translated, so malformed input (a wrong type, an
    unknown field or operator, nesting past SCHED_WHERE_DEPTH_MAX) ends in
    INVALID before any statement is prepared.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

typedef struct {
    bool is_text;
    char *text; //  owned
    size_t length;
    int64_t integer;
} s_param_t;

struct _sched_where_t {
    char *sql; //  " WHERE 1 AND ..."
    size_t sql_length, sql_capacity;
    char *order; //  " ORDER BY ..."
    s_param_t *params;
    size_t param_count;
};

//  The info's fields as columns of "sessions s". Text fields may appear
//  in terms and orders; time fields only in orders.
//  Only the nullable ones say where nulls go in an order (SQLite cannot
//  walk an index for NULLS LAST).
static const struct {
    const char *field;
    const char *column;
    bool text;
    bool nullable;
} s_fields[] = {
    {"session_id", "s.id", true, false},
    {"name", "s.name", true, false},
    {"access_key", "s.access_key", true, false},
    {"user_uuid", "s.user_uuid", true, false},
    {"domain_name", "s.domain_name", true, false},
    {"group_id", "s.group_id", true, false},
    {"scaling_group", "s.scaling_group", true, false},
    {"type", "s.type", true, false},
    {"status", "s.status", true, false},
    {"status_info", "s.status_info", true, true},
    {"image", "s.image", true, false},
    {"architecture", "s.architecture", true, false},
    {"tag", "s.tag", true, true},
    {"result", "s.result", true, false},
    {"cluster_mode", "s.cluster_mode", true, false},
    //  created_at and status_changed are the scheduler's clock when written,
    //  never 0; terminated_at is NULL until the session ends.
    {"created_at", "s.created_at", false, false},
    {"status_changed", "s.status_changed", false, false},
    {"terminated_at", "(CASE WHEN s.terminated_at > 0 THEN s.terminated_at END)", false,
     true},
};

#define S_FIELD_COUNT   (sizeof s_fields / sizeof s_fields[0])
#define S_DEFAULT_ORDER " ORDER BY s.created_at DESC, s.id"
#define S_ORDER_KEY_MAX 96 //  bytes of one key's SQL: the longest column and its words

static const struct {
    const char *name;
    const char *sql;
} s_compare_ops[] = {
    {"=", " = "},   {"<>", " <> "}, {"<", " < "},
    {"<=", " <= "}, {">", " > "},   {">=", " >= "},
};

//  ---------------------------------------------------------------------------
//  Text and parameters

static int
s_append(sched_where_t *self, const char *text)
{
    size_t n = strlen(text);
    if (self->sql_length + n + 1 > self->sql_capacity) {
        size_t capacity = self->sql_capacity ? self->sql_capacity : 256;
        while (capacity < self->sql_length + n + 1)
            capacity *= 2;
        char *sql = realloc(self->sql, capacity);
        if (!sql)
            return -1;
        self->sql = sql;
        self->sql_capacity = capacity;
    }
    memcpy(self->sql + self->sql_length, text, n + 1);
    self->sql_length += n;
    return 0;
}

//  Appends "?N" for a new parameter. 0 or -1 (out of memory, too many).
static int
s_param(sched_where_t *self, bool is_text, const char *text, size_t length, int64_t value)
{
    if (self->param_count >= SCHED_WHERE_PARAMS_MAX)
        return -1;
    s_param_t *params =
        realloc(self->params, (self->param_count + 1) * sizeof *self->params);
    if (!params)
        return -1;
    self->params = params;
    s_param_t *p = &params[self->param_count];
    memset(p, 0, sizeof *p);
    p->is_text = is_text;
    p->integer = value;
    if (is_text) {
        p->text = malloc(length + 1);
        if (!p->text)
            return -1;
        memcpy(p->text, text, length);
        p->text[length] = '\0';
        p->length = length;
    }
    self->param_count++;
    char number[24];
    snprintf(number, sizeof number, "?%zu", self->param_count);
    return s_append(self, number);
}

static int
s_param_text(sched_where_t *self, const char *text, size_t length)
{
    return s_param(self, true, text, length, 0);
}

//  ---------------------------------------------------------------------------
//  Public

sched_where_t *
sched_where_new(void)
{
    sched_where_t *self = calloc(1, sizeof *self);
    if (self && s_append(self, " WHERE 1") != 0)
        sched_where_destroy(&self);
    return self;
}

void
sched_where_destroy(sched_where_t **self_p)
{
    assert(self_p);
    sched_where_t *self = *self_p;
    if (!self)
        return;
    for (size_t i = 0; i < self->param_count; i++)
        free(self->params[i].text);
    free(self->params);
    free(self->sql);
    free(self->order);
    free(self);
    *self_p = NULL;
}

int
sched_where_equal(sched_where_t *self, const char *column, const char *value)
{
    assert(self && column);
    if (!value)
        return 0;
    if (s_append(self, " AND ") != 0 || s_append(self, column) != 0 ||
        s_append(self, " = ") != 0)
        return -1;
    return s_param_text(self, value, strlen(value));
}

int
sched_where_statuses(sched_where_t *self, const char *statuses)
{
    assert(self);
    if (!statuses || !*statuses)
        return 0;
    //  An IN list the planner walks in the status index, one word each.
    bool first = true;
    for (const char *p = statuses; *p;) {
        size_t word = strcspn(p, ",");
        if (word > 0) {
            if (s_append(self, first ? " AND s.status IN (" : ", ") != 0 ||
                s_param_text(self, p, word) != 0)
                return -1;
            first = false;
        }
        p += word + (p[word] == ',');
    }
    //  Only commas: no status is empty, so nothing matches.
    return s_append(self, first ? " AND 0" : ")");
}

int
sched_where_mounting(sched_where_t *self, const char *folder_id)
{
    assert(self);
    if (!folder_id || !*folder_id)
        return 0;
    return s_append(self, " AND EXISTS (SELECT 1 FROM json_each(s.mounts) m"
                          " WHERE json_extract(m.value, '$.id') = ") != 0 ||
                   s_param_text(self, folder_id, strlen(folder_id)) != 0 ||
                   s_append(self, ")") != 0
               ? -1
               : 0;
}

int
sched_where_after(sched_where_t *self, int64_t created_at_us, const char *id)
{
    assert(self && id);
    return s_append(self, " AND (s.created_at < ") != 0 ||
                   s_param(self, false, NULL, 0, created_at_us) != 0 ||
                   s_append(self, " OR (s.created_at = ") != 0 ||
                   s_param(self, false, NULL, 0, created_at_us) != 0 ||
                   s_append(self, " AND s.id > ") != 0 ||
                   s_param_text(self, id, strlen(id)) != 0 || s_append(self, "))") != 0
               ? -1
               : 0;
}

//  The row of a field name, or -1.
static int
s_field(const char *field, bool text_only)
{
    for (size_t i = 0; field && i < S_FIELD_COUNT; i++)
        if (strcmp(s_fields[i].field, field) == 0)
            return text_only && !s_fields[i].text ? -1 : (int) i;
    return -1;
}

//  The column of a text field, or NULL.
static const char *
s_column(const char *field)
{
    int row = s_field(field, true);
    return row < 0 ? NULL : s_fields[row].column;
}

//  One term into SQL, or INVALID with err.
static int
s_term(sched_where_t *self, const json_t *term, int depth, bus_error_t *err)
{
    if (depth > SCHED_WHERE_DEPTH_MAX)
        return bus_error_set(err, BUS_STATUS_INVALID, "where: nested deeper than %d",
                             SCHED_WHERE_DEPTH_MAX);
    const char *op = json_string_value(json_array_get(term, 0));
    size_t size = json_array_size(term);
    if (!json_is_array(term) || !op)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "where: a term is an array that starts with its operator");
    int rc = 0;
    if (strcmp(op, "and") == 0 || strcmp(op, "or") == 0) {
        if (size < 2)
            return bus_error_set(err, BUS_STATUS_INVALID, "where: %s needs a term", op);
        rc = s_append(self, "(");
        for (size_t i = 1; rc == 0 && i < size; i++) {
            if (i > 1)
                rc = s_append(self, *op == 'a' ? " AND " : " OR ");
            if (rc == 0) {
                int status = s_term(self, json_array_get(term, i), depth + 1, err);
                if (status != BUS_OK)
                    return status;
            }
        }
        rc = rc ? rc : s_append(self, ")");
    } else if (strcmp(op, "not") == 0) {
        if (size != 2)
            return bus_error_set(err, BUS_STATUS_INVALID, "where: not takes one term");
        if (s_append(self, "(NOT ") != 0)
            rc = -1;
        else {
            int status = s_term(self, json_array_get(term, 1), depth + 1, err);
            if (status != BUS_OK)
                return status;
            rc = s_append(self, ")");
        }
    } else if (strcmp(op, "true") == 0 || strcmp(op, "false") == 0 ||
               strcmp(op, "unknown") == 0) {
        if (size != 1)
            return bus_error_set(err, BUS_STATUS_INVALID, "where: %s takes nothing", op);
        rc = s_append(self, *op == 't' ? "1" : *op == 'f' ? "0" : "NULL");
    } else {
        //  Operators on a field.
        const char *field = json_string_value(json_array_get(term, 1));
        const char *column = s_column(field);
        if (!column)
            return bus_error_set(err, BUS_STATUS_INVALID, "where: %s: no such text field",
                                 field ? field : "(not a string)");
        const json_t *value = json_array_get(term, 2);
        if (strcmp(op, "isnull") == 0 || strcmp(op, "notnull") == 0) {
            if (size != 2)
                return bus_error_set(err, BUS_STATUS_INVALID, "where: %s takes a field",
                                     op);
            rc = s_append(self, "(") || s_append(self, column) ||
                 s_append(self, op[0] == 'i' ? " IS NULL)" : " IS NOT NULL)");
        } else if (strcmp(op, "in") == 0) {
            if (size != 3 || json_array_size(value) == 0)
                return bus_error_set(err, BUS_STATUS_INVALID,
                                     "where: in takes a field and a non-empty list");
            rc = s_append(self, "(") || s_append(self, column) || s_append(self, " IN (");
            for (size_t i = 0; rc == 0 && i < json_array_size(value); i++) {
                const json_t *item = json_array_get(value, i);
                if (i > 0)
                    rc = s_append(self, ", ");
                if (json_is_null(item))
                    rc = rc ? rc : s_append(self, "NULL");
                else if (json_is_string(item))
                    rc = rc ? rc
                            : s_param_text(self, json_string_value(item),
                                           json_string_length(item));
                else
                    return bus_error_set(err, BUS_STATUS_INVALID,
                                         "where: in lists strings and null");
            }
            rc = rc ? rc : s_append(self, "))");
        } else {
            const char *sql = NULL;
            for (size_t i = 0; i < sizeof s_compare_ops / sizeof s_compare_ops[0]; i++)
                if (strcmp(op, s_compare_ops[i].name) == 0)
                    sql = s_compare_ops[i].sql;
            bool like = strcmp(op, "like") == 0, glob = strcmp(op, "glob") == 0;
            if (!sql && !like && !glob)
                return bus_error_set(err, BUS_STATUS_INVALID,
                                     "where: unknown operator %s", op);
            if (size != 3 || !json_is_string(value))
                return bus_error_set(err, BUS_STATUS_INVALID,
                                     "where: %s takes a field and a string", op);
            size_t length = json_string_length(value);
            if ((like || glob) && length > SCHED_WHERE_PATTERN_MAX)
                return bus_error_set(err, BUS_STATUS_INVALID,
                                     "where: a pattern longer than %d bytes",
                                     SCHED_WHERE_PATTERN_MAX);
            rc = s_append(self, "(") || s_append(self, column) ||
                 s_append(self, like   ? " LIKE "
                                : glob ? " GLOB "
                                       : sql) ||
                 s_param_text(self, json_string_value(value), length) ||
                 s_append(self, like ? " ESCAPE '\\')" : ")");
        }
    }
    return rc == 0 ? BUS_OK
                   : bus_error_set(err, BUS_STATUS_INVALID,
                                   "where: more than %d values, or out of memory",
                                   SCHED_WHERE_PARAMS_MAX);
}

int
sched_where_term(sched_where_t *self, const char *json_text, bus_error_t *err)
{
    assert(self);
    if (!json_text || !*json_text)
        return BUS_OK;
    json_error_t jerr;
    json_t *term = json_loads(json_text, 0, &jerr);
    if (!term)
        return bus_error_set(err, BUS_STATUS_INVALID, "where: not JSON: %s", jerr.text);
    int rc = s_append(self, " AND ") == 0
                 ? s_term(self, term, 1, err)
                 : bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    json_decref(term);
    return rc;
}

int
sched_where_order(sched_where_t *self, const char *text, bus_error_t *err)
{
    assert(self);
    free(self->order);
    self->order = NULL;
    if (!text || !*text)
        return BUS_OK;
    size_t capacity = sizeof S_DEFAULT_ORDER + SCHED_WHERE_ORDER_MAX * S_ORDER_KEY_MAX;
    char *order = malloc(capacity);
    if (!order)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    size_t used = (size_t) snprintf(order, capacity, " ORDER BY ");
    int keys = 0;
    for (const char *p = text;; p++) {
        size_t word = strcspn(p, ",");
        size_t skip = word > 0 && *p == '-' ? 1 : 0;
        char field[64] = "";
        if (word - skip < sizeof field)
            memcpy(field, p + skip, word - skip);
        int row = s_field(field, false);
        if (row < 0 || ++keys > SCHED_WHERE_ORDER_MAX) {
            free(order);
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 row >= 0 ? "order: more than %d keys"
                                          : "order: a key is a field, - for descending",
                                 SCHED_WHERE_ORDER_MAX);
        }
        const char *nulls = !s_fields[row].nullable ? ""
                            : skip                  ? " NULLS FIRST"
                                                    : " NULLS LAST";
        used += (size_t) snprintf(order + used, capacity - used, "%s%s%s, ",
                                  s_fields[row].column, skip ? " DESC" : "", nulls);
        p += word;
        if (*p != ',')
            break;
    }
    //  The default order after the keys keeps ties as they were listed.
    snprintf(order + used, capacity - used, "%s", S_DEFAULT_ORDER + strlen(" ORDER BY "));
    self->order = order;
    return BUS_OK;
}

const char *
sched_where_sql(const sched_where_t *self)
{
    assert(self);
    return self->sql;
}

const char *
sched_where_order_sql(const sched_where_t *self)
{
    assert(self);
    return self->order ? self->order : S_DEFAULT_ORDER;
}

int
sched_where_param_count(const sched_where_t *self)
{
    assert(self);
    return (int) self->param_count;
}

void
sched_where_bind(const sched_where_t *self, sqlite3_stmt *stmt)
{
    assert(self && stmt);
    for (size_t i = 0; i < self->param_count; i++) {
        const s_param_t *p = &self->params[i];
        if (p->is_text)
            sqlite3_bind_text(stmt, (int) i + 1, p->text, (int) p->length,
                              SQLITE_TRANSIENT);
        else
            sqlite3_bind_int64(stmt, (int) i + 1, p->integer);
    }
}
