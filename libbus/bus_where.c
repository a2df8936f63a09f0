/*  =========================================================================
    bus_where - a list's condition and order as SQL, every value bound

    A growing SQL text made only of the caller's fixed pieces, the column
    table's and this file's, and numbered parameters, with the values those
    parameters bind. The JSON term is checked as it is translated, so
    malformed input (a wrong type, an unknown field or operator, nesting
    past BUS_WHERE_DEPTH_MAX) ends in INVALID before any statement is
    prepared.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

typedef struct {
    bool is_text;
    char *text; //  owned
    size_t length;
    int64_t integer;
} s_param_t;

struct _bus_where_t {
    const bus_where_column_t *columns;
    const char *default_order;
    char *sql; //  " WHERE 1 AND ..."
    size_t sql_length, sql_capacity;
    char *order;       //  " ORDER BY ..."
    char *default_sql; //  " ORDER BY " default_order
    s_param_t *params;
    size_t param_count;
};

#define S_ORDER_KEY_MAX 160 //  bytes of one key's SQL: a column and its words

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
s_append(bus_where_t *self, const char *text)
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
s_param(bus_where_t *self, bool is_text, const char *text, size_t length, int64_t value)
{
    if (self->param_count >= BUS_WHERE_PARAMS_MAX)
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
s_param_text(bus_where_t *self, const char *text, size_t length)
{
    return s_param(self, true, text, length, 0);
}

//  ---------------------------------------------------------------------------
//  Public

bus_where_t *
bus_where_new(const bus_where_column_t *columns, const char *default_order)
{
    assert(columns && default_order);
    bus_where_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->columns = columns;
    self->default_order = default_order;
    if (s_append(self, " WHERE 1") != 0 ||
        asprintf(&self->default_sql, " ORDER BY %s", default_order) < 0) {
        self->default_sql = NULL;
        bus_where_destroy(&self);
    }
    return self;
}

void
bus_where_destroy(bus_where_t **self_p)
{
    assert(self_p);
    bus_where_t *self = *self_p;
    if (!self)
        return;
    for (size_t i = 0; i < self->param_count; i++)
        free(self->params[i].text);
    free(self->params);
    free(self->sql);
    free(self->order);
    free(self->default_sql);
    free(self);
    *self_p = NULL;
}

int
bus_where_append(bus_where_t *self, const char *sql)
{
    assert(self && sql);
    return s_append(self, sql);
}

int
bus_where_param_text(bus_where_t *self, const char *text, size_t length)
{
    assert(self && text);
    return s_param_text(self, text, length);
}

int
bus_where_param_int(bus_where_t *self, int64_t value)
{
    assert(self);
    return s_param(self, false, NULL, 0, value);
}

int
bus_where_equal(bus_where_t *self, const char *column, const char *value)
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
bus_where_in_words(bus_where_t *self, const char *column, const char *words)
{
    assert(self && column);
    if (!words || !*words)
        return 0;
    //  An IN list the planner walks in an index, one word each.
    bool first = true;
    for (const char *p = words; *p;) {
        size_t word = strcspn(p, ",");
        if (word > 0) {
            if ((first && (s_append(self, " AND ") != 0 || s_append(self, column) != 0 ||
                           s_append(self, " IN (") != 0)) ||
                (!first && s_append(self, ", ") != 0) || s_param_text(self, p, word) != 0)
                return -1;
            first = false;
        }
        p += word + (p[word] == ',');
    }
    //  Only commas: no stored value is empty here, so nothing matches.
    return s_append(self, first ? " AND 0" : ")");
}

//  The row of a field name in the table, or NULL.
static const bus_where_column_t *
s_field(const bus_where_t *self, const char *field, bool text_only)
{
    for (const bus_where_column_t *c = self->columns; field && c->field; c++)
        if (strcmp(c->field, field) == 0)
            return text_only && !c->text ? NULL : c;
    return NULL;
}

//  The column of a text field, or NULL.
static const char *
s_column(const bus_where_t *self, const char *field)
{
    const bus_where_column_t *c = s_field(self, field, true);
    return c ? c->column : NULL;
}

//  One term into SQL, or INVALID with err.
static int
s_term(bus_where_t *self, const json_t *term, int depth, bus_error_t *err)
{
    if (depth > BUS_WHERE_DEPTH_MAX)
        return bus_error_set(err, BUS_STATUS_INVALID, "where: nested deeper than %d",
                             BUS_WHERE_DEPTH_MAX);
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
        const char *column = s_column(self, field);
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
            if ((like || glob) && length > BUS_WHERE_PATTERN_MAX)
                return bus_error_set(err, BUS_STATUS_INVALID,
                                     "where: a pattern longer than %d bytes",
                                     BUS_WHERE_PATTERN_MAX);
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
                                   BUS_WHERE_PARAMS_MAX);
}

int
bus_where_term(bus_where_t *self, const char *json_text, bus_error_t *err)
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
bus_where_order(bus_where_t *self, const char *text, bus_error_t *err)
{
    assert(self);
    free(self->order);
    self->order = NULL;
    if (!text || !*text)
        return BUS_OK;
    size_t capacity = strlen(self->default_sql) + BUS_WHERE_ORDER_MAX * S_ORDER_KEY_MAX;
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
        const bus_where_column_t *c = s_field(self, field, false);
        if (!c || ++keys > BUS_WHERE_ORDER_MAX) {
            free(order);
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 c ? "order: more than %d keys"
                                   : "order: a key is a field, - for descending",
                                 BUS_WHERE_ORDER_MAX);
        }
        assert(strlen(c->column) + 32 < S_ORDER_KEY_MAX); //  the caller's table
        const char *nulls = !c->nullable ? "" : skip ? " NULLS FIRST" : " NULLS LAST";
        used += (size_t) snprintf(order + used, capacity - used, "%s%s%s, ", c->column,
                                  skip ? " DESC" : "", nulls);
        p += word;
        if (*p != ',')
            break;
    }
    //  The default order after the keys keeps ties as they were listed.
    snprintf(order + used, capacity - used, "%s", self->default_order);
    self->order = order;
    return BUS_OK;
}

const char *
bus_where_sql(const bus_where_t *self)
{
    assert(self);
    return self->sql;
}

const char *
bus_where_order_sql(const bus_where_t *self)
{
    assert(self);
    return self->order ? self->order : self->default_sql;
}

int
bus_where_param_count(const bus_where_t *self)
{
    assert(self);
    return (int) self->param_count;
}

void
bus_where_bind(const bus_where_t *self, sqlite3_stmt *stmt)
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

sqlite3_stmt *
bus_where_prepare(const bus_where_t *self,
                  sqlite3 *db,
                  const char *head,
                  const char *tail)
{
    assert(self && db && head && tail);
    char *sql = NULL;
    sqlite3_stmt *stmt = NULL;
    if (asprintf(&sql, "%s%s%s", head, self->sql, tail) < 0)
        return NULL;
    if (sqlite3_prepare_v3(db, sql, -1, 0, &stmt, NULL) != SQLITE_OK) {
        bus_log_error("sqlite prepare failed statement=list error=\"%s\"",
                      sqlite3_errmsg(db));
        sqlite3_finalize(stmt);
        stmt = NULL;
    }
    free(sql);
    if (stmt)
        bus_where_bind(self, stmt);
    return stmt;
}
