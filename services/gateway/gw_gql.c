/*  =========================================================================
    gw_gql - GraphQL execution: root-field tables, prefetch, projection, pages

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

static const char *
s_arg(json_t *args, const char *name)
{
    return json_string_value(json_object_get(args, name));
}

const char *
gw_gql_arg(json_t *args, const char *name)
{
    return s_arg(args, name);
}

json_t *
gw_gql_global_id(const char *type, const char *id)
{
    char plain[256];
    int len = snprintf(plain, sizeof plain, "%s:%s", type, id ? id : "");
    if (len < 0 || (size_t) len >= sizeof plain)
        return json_null();
    unsigned char encoded[4 * sizeof plain / 3 + 4];
    EVP_EncodeBlock(encoded, (const unsigned char *) plain, len);
    return json_string((const char *) encoded);
}

json_t *
gw_gql_time(int64_t us)
{
    if (us <= 0)
        return json_null();
    char text[40];
    gw_time_iso(us, text);
    return json_string(text);
}

static void
s_hosts_listed(json_t *object)
{
    json_t *kept = json_object_get(object, "allowed_vfolder_hosts");
    if (!json_is_string(kept))
        return;
    json_t *doc = json_loads(json_string_value(kept), JSON_DECODE_ANY, NULL);
    json_t *names = json_array();
    if (json_is_array(doc)) {
        size_t index;
        json_t *name;
        json_array_foreach(doc, index, name) if (json_is_string(name))
            json_array_append(names, name);
    } else if (json_is_object(doc)) {
        const char *host;
        json_t *perms;
        json_object_foreach(doc, host, perms)
            json_array_append_new(names, json_string(host));
    }
    json_decref(doc);
    json_object_set(object, "allowed_vfolder_host_permissions", kept);
    json_object_set_new(object, "allowed_vfolder_hosts", names);
}

json_t *
gw_gql_hosts_listed(json_t *node)
{
    if (json_is_object(node))
        s_hosts_listed(node);
    size_t index;
    json_t *item;
    json_array_foreach(node, index, item) if (json_is_object(item)) s_hosts_listed(item);
    return node;
}

json_t *
gw_gql_slots(const proto_kv_t *kv, size_t count)
{
    json_t *map = json_object();
    for (size_t i = 0; i < count; i++)
        json_object_set_new(map, kv[i].key, json_string(kv[i].value ? kv[i].value : ""));
    char *text = json_dumps(map, JSON_COMPACT);
    json_decref(map);
    json_t *out = json_string(text ? text : "{}");
    free(text);
    return out;
}

bool
gw_gql_in_list(const char *list, const char *item)
{
    size_t len = strlen(item);
    for (const char *p = list; *p;) {
        size_t word = strcspn(p, ",");
        if (word == len && strncmp(p, item, len) == 0)
            return true;
        p += word + (p[word] == ',');
    }
    return false;
}

json_t *
gw_gql_page(json_t *all, json_t *args, bus_error_t *err)
{
    json_int_t limit = json_integer_value(json_object_get(args, "limit"));
    json_int_t offset = json_integer_value(json_object_get(args, "offset"));
    if (limit <= 0 || limit > GW_GQL_PAGE_MAX || offset < 0) {
        json_decref(all);
        bus_error_set(err, BUS_STATUS_INVALID, "limit must be 1..%d and offset >= 0",
                      GW_GQL_PAGE_MAX);
        return NULL;
    }
    //  filter, then order, as Backend.AI applies them before the page. The
    //  names allowed are the keys that any item has: the resolvers leave out
    //  or null some keys per item, so the first item alone could refuse a
    //  real field. An empty list allows any name (NULL): it has no fields
    //  to check against and nothing to filter, and refusing a correct name
    //  only because nothing is listed yet would break the client.
    const char *filter_text = s_arg(args, "filter");
    const char *order_text = s_arg(args, "order");
    if (filter_text || order_text) {
        json_t *keys = json_object();
        size_t count = json_array_size(all);
        for (size_t i = 0; i < count; i++)
            json_object_update_missing(keys, json_array_get(all, i));
        const char **fields = calloc(json_object_size(keys) + 1, sizeof *fields);
        size_t n = 0;
        const char *key;
        json_t *value;
        json_object_foreach(keys, key, value)
        {
            if (fields)
                fields[n++] = key;
        }
        const char *const *allowed = count > 0 ? (const char *const *) fields : NULL;
        char message[256];
        int rc = 0;
        if (!fields)
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        if (rc == 0 && filter_text) {
            gw_minilang_filter_t *filter =
                gw_minilang_filter_parse(filter_text, allowed, message, sizeof message);
            if (filter) {
                json_t *kept = json_array();
                for (size_t i = 0; i < count; i++)
                    if (gw_minilang_filter_match(filter, json_array_get(all, i)))
                        json_array_append(kept, json_array_get(all, i));
                gw_minilang_filter_destroy(&filter);
                json_decref(all);
                all = kept;
            } else
                rc = bus_error_set(err, BUS_STATUS_INVALID, "%s", message);
        }
        if (rc == 0 && order_text &&
            gw_minilang_order(all, order_text, allowed, message, sizeof message) != 0)
            rc = bus_error_set(err, BUS_STATUS_INVALID, "%s", message);
        free(fields);
        json_decref(keys);
        if (rc != 0) {
            json_decref(all);
            return NULL;
        }
    }
    json_t *items = json_array();
    size_t total = json_array_size(all);
    for (size_t i = (size_t) offset; i < total && i < (size_t) (offset + limit); i++)
        json_array_append(items, json_array_get(all, i));
    json_decref(all);
    return json_pack("{s:o, s:I}", "items", items, "total_count", (json_int_t) total);
}

//  The names of the fields an item of the table has: the row query's
//  columns, then the extra ones. Caller frees the array (the names are
//  the statement's until it is finalized, and the table's).
static const char **
s_table_fields(const gw_gql_table_t *table, sqlite3_stmt *stmt)
{
    int columns = sqlite3_column_count(stmt);
    size_t extra = 0;
    while (table->extra && table->extra[extra])
        extra++;
    const char **names = calloc((size_t) columns + extra + 1, sizeof *names);
    for (int i = 0; names && i < columns; i++)
        names[i] = sqlite3_column_name(stmt, i);
    for (size_t i = 0; names && i < extra; i++)
        names[(size_t) columns + i] = table->extra[i];
    return names;
}

int
gw_gql_page_table(gw_request_t *r,
                  json_t *args,
                  const gw_gql_table_t *table,
                  json_t **out,
                  bus_error_t *err)
{
    sqlite3 *db = bus_db_handle(gw_server_db(r->gw));
    int result = -1; //  0 answered, 1 for gw_gql_page, -1 err
    bus_where_t *where = bus_where_new(table->columns, table->order);
    sqlite3_stmt *probe = NULL, *count = NULL, *rows = NULL;
    const char **fields = NULL;
    gw_minilang_column_t *pushable = NULL;
    gw_minilang_filter_t *filter = NULL;
    char *term = NULL, *tail = NULL;
    char order[1024] = "", message[256];
    if (!where) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        goto done;
    }
    if (table->scope(gw_request_ctx(r), args, where, err) != BUS_OK)
        goto done;
    json_int_t limit = json_integer_value(json_object_get(args, "limit"));
    json_int_t offset = json_integer_value(json_object_get(args, "offset"));
    if (limit <= 0 || limit > GW_GQL_PAGE_MAX || offset < 0) {
        bus_error_set(err, BUS_STATUS_INVALID, "limit must be 1..%d and offset >= 0",
                      GW_GQL_PAGE_MAX);
        goto done;
    }
    //  The fields an item has: the row query's columns (a statement never
    //  stepped names them), then the extra ones.
    size_t ncolumns = 0;
    while (table->columns[ncolumns].field)
        ncolumns++;
    pushable = calloc(ncolumns + 1, sizeof *pushable);
    for (size_t i = 0; pushable && i < ncolumns; i++)
        pushable[i] = (gw_minilang_column_t){
            table->columns[i].field, table->columns[i].field, table->columns[i].text};
    probe = bus_where_prepare(where, db, table->select, "");
    fields = probe ? s_table_fields(table, probe) : NULL;
    if (!pushable || !fields) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
        goto done;
    }
    const char *filter_text = json_string_value(json_object_get(args, "filter"));
    if (filter_text) {
        filter = gw_minilang_filter_parse(filter_text, fields, message, sizeof message);
        if (!filter) {
            bus_error_set(err, BUS_STATUS_INVALID, "%s", message);
            goto done;
        }
        bool complete = false;
        json_t *terms = gw_minilang_filter_pushdown(filter, pushable, &complete);
        term = complete ? json_dumps(terms, JSON_COMPACT) : NULL;
        json_decref(terms);
        if (!term) {
            result = 1;
            goto done;
        }
    }
    const char *order_text = json_string_value(json_object_get(args, "order"));
    if (order_text) {
        int pushed = gw_minilang_order_pushdown(order_text, fields, pushable, order,
                                                sizeof order, message, sizeof message);
        if (pushed < 0)
            bus_error_set(err, BUS_STATUS_INVALID, "%s", message);
        else if (pushed > 0)
            result = 1;
        if (pushed != 0)
            goto done;
    }
    //  What the gateway pushes, its builder takes: a refusal is a bug here.
    if ((term && bus_where_term(where, term, err) != BUS_OK) ||
        bus_where_order(where, order, err) != BUS_OK) {
        err->status = BUS_STATUS_INTERNAL;
        goto done;
    }
    int params = bus_where_param_count(where);
    if (asprintf(&tail, "%s LIMIT ?%d OFFSET ?%d", bus_where_order_sql(where), params + 1,
                 params + 2) < 0)
        tail = NULL;
    count = bus_where_prepare(where, db, table->count, "");
    rows = tail ? bus_where_prepare(where, db, table->select, tail) : NULL;
    if (!count || !rows) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
        goto done;
    }
    json_int_t total =
        sqlite3_step(count) == SQLITE_ROW ? sqlite3_column_int64(count, 0) : 0;
    sqlite3_bind_int64(rows, params + 1, limit);
    sqlite3_bind_int64(rows, params + 2, offset);
    json_t *items = json_array();
    while (sqlite3_step(rows) == SQLITE_ROW) {
        json_t *row = gw_store_row(rows, table->booleans);
        if (table->shape)
            table->shape(gw_request_ctx(r), row);
        json_array_append_new(items, row);
    }
    *out = json_pack("{s:o, s:I}", "items", items, "total_count", total);
    result = 0;
done:
    sqlite3_finalize(rows);
    sqlite3_finalize(count);
    free(fields); //  names borrowed from probe, finalized next
    sqlite3_finalize(probe);
    free(pushable);
    gw_minilang_filter_destroy(&filter);
    free(term);
    free(tail);
    bus_where_destroy(&where);
    return result;
}

//  A single object, or JSON null when it does not exist.
static json_t *
s_single(int rc, json_t *out, bus_error_t *err)
{
    if (rc == BUS_OK)
        return out;
    if (rc == BUS_STATUS_NOT_FOUND)
        return json_null();
    (void) err;
    return NULL;
}

//  Backend.AI's mutation result: {ok, msg, <item>: object or null}.
static json_t *
s_mutation(int rc, const char *item_key, json_t *item, bus_error_t *err)
{
    json_t *result = json_pack("{s:b, s:s}", "ok", rc == BUS_OK, "msg",
                               rc == BUS_OK ? "success" : err->detail);
    if (item_key)
        json_object_set_new(result, item_key, rc == BUS_OK && item ? item : json_null());
    else
        json_decref(item);
    return result;
}

json_t *
gw_gql_single(int rc, json_t *out)
{
    return s_single(rc, out, NULL);
}

json_t *
gw_gql_mutation(int rc, const char *item_key, json_t *item, bus_error_t *err)
{
    return s_mutation(rc, item_key, item, err);
}

//  Every resource module's root fields (see gw_gql_root_t).
static const gw_gql_root_t *const s_tables[] = {
    gw_agent_gql,        gw_compute_session_gql, gw_gql_admin_roots,   gw_image_gql,
    gw_sgroup_gql_roots, gw_preset_gql_roots,    gw_vfolder_gql,       gw_volumes_gql,
    gw_endpoint_gql,     gw_model_card_gql,      gw_endpoint_rule_gql, NULL,
};

//  ---------------------------------------------------------------------------
//  Execution

typedef struct {
    gw_request_t *r;
    const gw_gql_operation_t *op;
    json_t *variables;
    json_t *errors;
} gql_exec_t;

static void
s_error(gql_exec_t *x, const char *message, const gw_gql_field_t *field, json_t *path)
{
    json_t *error = json_pack("{s:s}", "message", message);
    if (field)
        json_object_set_new(
            error, "locations",
            json_pack("[{s:i, s:i}]", "line", field->line, "column", field->column));
    if (path)
        json_object_set(error, "path", path);
    json_array_append_new(x->errors, error);
}

//  The fields of value that selection asks for, recursively. Borrows value.
static json_t *
s_project(gql_exec_t *x, json_t *value, const gw_gql_selection_t *selection, json_t *path)
{
    if (!selection || json_is_null(value) || !value)
        return json_incref(value ? value : json_null());
    if (json_is_array(value)) {
        json_t *items = json_array();
        size_t index;
        json_t *item;
        json_array_foreach(value, index, item)
            json_array_append_new(items, s_project(x, item, selection, path));
        return items;
    }
    if (!json_is_object(value))
        return json_incref(value); //  a selection on a leaf: nothing to pick
    json_t *out = json_object();
    for (size_t i = 0; i < selection->count; i++) {
        const gw_gql_field_t *field = &selection->fields[i];
        gw_gql_error_t gerr = {0};
        int included = gw_gql_field_included(field, x->op, x->variables, &gerr);
        if (included < 0) {
            s_error(x, gerr.message, field, path);
            continue;
        }
        if (!included)
            continue;
        if (strcmp(field->name, "__typename") == 0) {
            json_object_set_new(out, field->key, json_string("Object"));
            continue;
        }
        json_t *child = json_object_get(value, field->name);
        json_object_set_new(out, field->key, s_project(x, child, field->selection, path));
    }
    return out;
}

//  A field's arguments with the variables substituted, as its resolver
//  gets them; NULL with gerr. Caller owns the result.
static json_t *
s_field_args(const gw_gql_field_t *field,
             const gw_gql_operation_t *op,
             json_t *variables,
             gw_gql_error_t *gerr)
{
    json_t *args = json_object();
    for (size_t a = 0; args && a < field->argument_count; a++) {
        json_t *value =
            gw_gql_value_json(&field->arguments[a].value, op, variables, gerr);
        if (!value) {
            json_decref(args);
            return NULL;
        }
        json_object_set_new(args, field->arguments[a].name, value);
    }
    return args;
}

//  The resolver of the root field name of an operation of kind, or NULL.
static const gw_gql_root_t *
s_root(const char *kind, const char *name)
{
    for (size_t t = 0; s_tables[t]; t++)
        for (const gw_gql_root_t *candidate = s_tables[t]; candidate->name; candidate++)
            if (strcmp(candidate->kind, kind) == 0 && strcmp(candidate->name, name) == 0)
                return candidate;
    return NULL;
}

//  The value of a root field resolved before the document ran (borrowed),
//  or NULL: the same field, under the same key, with the same arguments.
static json_t *
s_resolved(gw_request_t *r, const gw_gql_field_t *field, json_t *args)
{
    json_t *entry = json_object_get(r->prefetch_resolved, field->key);
    const char *name = json_string_value(json_object_get(entry, "name"));
    if (!name || strcmp(name, field->name) != 0 ||
        !json_equal(json_object_get(entry, "args"), args))
        return NULL;
    return json_object_get(entry, "value");
}

//  Executes the operation: {"data": {...}} with x->errors filled.
static json_t *
s_execute(gql_exec_t *x)
{
    json_t *data = json_object();
    const gw_gql_selection_t *roots = &x->op->selection;
    for (size_t i = 0; i < roots->count; i++) {
        const gw_gql_field_t *field = &roots->fields[i];
        json_t *path = json_pack("[s]", field->key);
        gw_gql_error_t gerr = {0};
        int included = gw_gql_field_included(field, x->op, x->variables, &gerr);
        if (included <= 0) {
            if (included < 0)
                s_error(x, gerr.message, field, path);
            json_decref(path);
            continue;
        }
        const gw_gql_root_t *root = s_root(x->op->kind, field->name);
        if (strcmp(field->name, "__typename") == 0) {
            json_object_set_new(data, field->key,
                                json_string(strcmp(x->op->kind, "mutation") == 0
                                                ? "Mutations"
                                                : "Queries"));
            json_decref(path);
            continue;
        }
        if (!root) {
            char message[256];
            snprintf(message, sizeof message, "Cannot query field \"%s\" on type \"%s\".",
                     field->name,
                     strcmp(x->op->kind, "mutation") == 0 ? "Mutations" : "Queries");
            s_error(x, message, field, NULL);
            json_object_set_new(data, field->key, json_null());
            json_decref(path);
            continue;
        }
        json_t *args = s_field_args(field, x->op, x->variables, &gerr);
        if (!args)
            s_error(x, gerr.message, field, path);
        json_t *value = NULL;
        if (args) {
            bus_error_t err = {0};
            json_t *resolved = s_resolved(x->r, field, args);
            value = resolved ? json_incref(resolved) : root->fn(x->r, args, &err);
            if (!value) {
                char message[BUS_ERROR_DETAIL_MAX + 64];
                snprintf(message, sizeof message, "%s: %s",
                         gw_admin_status_message(err.status), err.detail);
                s_error(x, message, field, path);
            }
        }
        json_object_set_new(data, field->key,
                            value ? s_project(x, value, field->selection, path)
                                  : json_null());
        json_decref(value);
        json_decref(args);
        json_decref(path);
    }
    return data;
}

//  The operation's name, as s_run reads it.
static const char *
s_operation_name(gw_request_t *r)
{
    const char *name = json_string_value(json_object_get(r->params, "operation_name"));
    return name ? name : json_string_value(json_object_get(r->params, "operationName"));
}

//  Parses and runs the request's document. Returns data (NULL when nothing
//  could run) and fills errors.
static json_t *
s_run(gw_request_t *r, json_t *errors)
{
    gql_exec_t x = {.r = r, .errors = errors};
    const char *query = json_string_value(json_object_get(r->params, "query"));
    json_t *variables = json_object_get(r->params, "variables");
    const char *operation = s_operation_name(r);
    if (!query) {
        s_error(&x, "Must provide query string.", NULL, NULL);
        return NULL;
    }
    if (variables && !json_is_object(variables) && !json_is_null(variables)) {
        s_error(&x, "Variables must be an object.", NULL, NULL);
        return NULL;
    }
    gw_gql_error_t gerr = {0};
    gw_gql_doc_t *doc = gw_gql_parse(query, strlen(query), &gerr);
    json_t *data = NULL;
    if (!doc)
        json_array_append_new(errors, json_pack("{s:s, s:[{s:i, s:i}]}", "message",
                                                gerr.message, "locations", "line",
                                                gerr.line, "column", gerr.column));
    else if (!(x.op = gw_gql_doc_operation(doc, operation, &gerr)))
        s_error(&x, gerr.message, NULL, NULL);
    else if (strcmp(x.op->kind, "subscription") == 0)
        s_error(&x, "Subscriptions are not supported.", NULL, NULL);
    else if (strcmp(x.op->kind, "mutation") == 0 && gw_manager_frozen(r->gw))
        //  Backend.AI's GQLMutationUnfrozenRequiredMiddleware.
        s_error(&x, "The server is frozen due to maintenance. (server-frozen)", NULL,
                NULL);
    else if (!(x.variables = gw_gql_operation_coerce_variables(x.op, variables, &gerr)))
        s_error(&x, gerr.message, NULL, NULL);
    else {
        bus_log_info("graphql operation=%s name=%s", x.op->kind,
                     x.op->selection.count ? x.op->selection.fields[0].name : "-");
        data = s_execute(&x);
    }
    json_decref(x.variables);
    gw_gql_doc_destroy(&doc);
    return data;
}

static void
s_finish(gw_request_t *r)
{
    json_t *errors = json_array();
    json_t *data = s_run(r, errors);
    json_t *body = json_pack("{s:o}", "data", data ? data : json_null());
    if (json_array_size(errors))
        json_object_set_new(body, "errors", errors);
    else
        json_decref(errors);
    gw_reply_json(r, 200, body);
}

static void
s_finish_legacy(gw_request_t *r)
{
    json_t *errors = json_array();
    json_t *data = s_run(r, errors);
    if (json_array_size(errors) == 0) {
        json_decref(errors);
        gw_reply_json(r, 200, data ? data : json_object());
        return;
    }
    //  The legacy route answers 400 graphql-error with the messages in data.
    json_decref(data);
    json_t *messages = json_array();
    size_t index;
    json_t *error;
    json_array_foreach(errors, index, error)
        json_array_append(messages, json_object_get(error, "message"));
    json_decref(errors);
    gw_reply_problem_data(r, "graphql-error", NULL, messages);
}

//  ---------------------------------------------------------------------------
//  Prefetch: root fields whose data lives in another service are fetched
//  over the bus before the (synchronous) execution, which then reads them
//  from r->prefetch.

typedef struct {
    gw_request_t *r;
    bool legacy;
    bool agents;      //  root fields read the scheduler's agents
    bool keypairs;    //  keypair fields (resolved already) ask for concurrency_used
    json_t *sessions; //  [{name, args}] of the compute_session fields to fetch
    bool cards;       //  model_card(s) fields: the store's folders are read
    json_t *card_ids; //  the folders model_card fields name; NULL: all (model_cards)
    bool readmes;     //  a model_card(s) field selects readme or readme_filetype
} gql_prefetch_t;

//  Whether name is selected anywhere under field (fragments are inlined by
//  the parser; a field under a directive counts, which at worst asks for
//  what the execution then leaves out).
static bool
s_selects(const gw_gql_field_t *field, const char *name)
{
    for (size_t i = 0; field->selection && i < field->selection->count; i++) {
        const gw_gql_field_t *child = &field->selection->fields[i];
        if (strcmp(child->name, name) == 0 || s_selects(child, name))
            return true;
    }
    return false;
}
//  Resolves a root field of a query now, to r->prefetch_resolved, so that
//  what another service adds can be written into its value before the
//  execution takes it. A field that is left out or whose resolver fails is
//  left to the execution, which reports it. Whether it was resolved.
static bool
s_resolve_early(gw_request_t *r,
                const gw_gql_field_t *field,
                const gw_gql_operation_t *op,
                json_t *variables)
{
    gw_gql_error_t gerr = {0};
    const gw_gql_root_t *root = s_root(op->kind, field->name);
    if (!root || gw_gql_field_included(field, op, variables, &gerr) <= 0)
        return false;
    json_t *args = s_field_args(field, op, variables, &gerr);
    bus_error_t err = {0};
    json_t *value = args ? root->fn(r, args, &err) : NULL;
    if (!value) {
        json_decref(args);
        return false;
    }
    if (!json_is_object(r->prefetch_resolved)) {
        json_decref(r->prefetch_resolved);
        r->prefetch_resolved = json_object();
    }
    json_object_set_new(
        r->prefetch_resolved, field->key,
        json_pack("{s:s, s:o, s:o}", "name", field->name, "args", args, "value", value));
    return true;
}

//  Whether the operation asks for root fields that live in the scheduler
//  (one parse; the execution parses again, which is cheap next to a call):
//  the agents, and each compute_session field with its arguments as the
//  execution will pass them (a field whose arguments do not resolve is
//  left to the execution, which reports it).
static void
s_wants(gw_request_t *r,
        bool *agents,
        bool *volumes,
        bool *keypairs,
        json_t *sessions,
        gql_prefetch_t *prefetch)
{
    *agents = false;
    *volumes = false;
    *keypairs = false;
    const char *query = json_string_value(json_object_get(r->params, "query"));
    if (!query)
        return;
    gw_gql_error_t gerr = {0};
    gw_gql_doc_t *doc = gw_gql_parse(query, strlen(query), &gerr);
    const gw_gql_operation_t *op =
        doc ? gw_gql_doc_operation(doc, s_operation_name(r), &gerr) : NULL;
    json_t *variables = op ? gw_gql_operation_coerce_variables(
                                 op, json_object_get(r->params, "variables"), &gerr)
                           : NULL;
    for (size_t i = 0; variables && i < op->selection.count; i++) {
        const gw_gql_field_t *field = &op->selection.fields[i];
        *agents |= gw_agent_is_root(field->name);
        *volumes |= gw_volumes_is_root(field->name);
        if (strcmp(op->kind, "query") == 0 && gw_model_card_is_root(field->name)) {
            //  model_cards reads the whole store; model_card only its folder.
            json_t *args = s_field_args(field, op, variables, &gerr);
            if (!prefetch->cards)
                prefetch->card_ids = json_array();
            prefetch->cards = true;
            //  A README is up to 256 KiB a folder: read only when shown.
            prefetch->readmes |=
                s_selects(field, "readme") || s_selects(field, "readme_filetype");
            if (strcmp(field->name, "model_cards") == 0) {
                json_decref(prefetch->card_ids);
                prefetch->card_ids = NULL;
            } else if (prefetch->card_ids && json_is_string(json_object_get(args, "id")))
                json_array_append(prefetch->card_ids, json_object_get(args, "id"));
            json_decref(args);
        }
        if (strcmp(op->kind, "query") == 0 && gw_concurrency_is_root(field->name) &&
            s_selects(field, "concurrency_used"))
            *keypairs |= s_resolve_early(r, field, op, variables);
        if (!gw_compute_session_is_root(field->name) || strcmp(op->kind, "query") != 0)
            continue;
        json_t *args = s_field_args(field, op, variables, &gerr);
        //  live_stat and last_stat cost a call to accounting: only when asked.
        bool stats = s_selects(field, "live_stat") || s_selects(field, "last_stat");
        if (args)
            json_array_append_new(sessions,
                                  json_pack("{s:s, s:o, s:b}", "name", field->name,
                                            "args", args, "stats", stats));
    }
    json_decref(variables);
    gw_gql_doc_destroy(&doc);
}

//  Executes the document once everything is fetched; frees prefetch.
static void
s_finish_prefetched(void *arg)
{
    gql_prefetch_t *prefetch = arg;
    gw_request_t *r = prefetch->r;
    bool legacy = prefetch->legacy;
    free(prefetch);
    if (legacy)
        s_finish_legacy(r);
    else
        s_finish(r);
}

//  Fetches the keypairs' concurrency_used if the document selects it,
//  then executes it.
static void
s_fetch_concurrency(void *arg)
{
    gql_prefetch_t *prefetch = arg;
    if (prefetch->keypairs)
        gw_concurrency_fill(prefetch->r, prefetch->r->prefetch_resolved,
                            s_finish_prefetched, prefetch);
    else
        s_finish_prefetched(prefetch);
}

//  Reads the model store's folders if the document wants them, then runs it.
static void
s_fetch_cards(void *arg)
{
    gql_prefetch_t *prefetch = arg;
    if (!prefetch->cards) {
        s_fetch_concurrency(prefetch);
        return;
    }
    prefetch->cards = false;
    json_t *ids = prefetch->card_ids;
    prefetch->card_ids = NULL;
    gw_model_card_fetch(prefetch->r, ids, prefetch->readmes, s_fetch_concurrency,
                        prefetch);
    json_decref(ids);
}

//  Fetches the sessions if the document wants them, then the rest.
static void
s_fetch_sessions(gql_prefetch_t *prefetch)
{
    json_t *sessions = prefetch->sessions;
    prefetch->sessions = NULL;
    if (json_array_size(sessions))
        gw_compute_session_fetch(prefetch->r, sessions, s_fetch_cards, prefetch);
    else {
        json_decref(sessions);
        s_fetch_cards(prefetch);
    }
}

static void
s_on_agents(void *arg, const bus_reply_t *reply)
{
    gql_prefetch_t *prefetch = arg;
    prefetch->r->prefetch = gw_agent_from_reply(reply);
    gw_stats_agents_fill(gw_server_stats(prefetch->r->gw), prefetch->r->prefetch);
    s_fetch_sessions(prefetch);
}

static void s_fetch_agents(void *arg);

//  Waits for the storage directory if storage volumes are asked for, then
//  fetches from the scheduler what the document needs.
static void
s_handle(gw_request_t *r, bool legacy)
{
    gql_prefetch_t *prefetch = calloc(1, sizeof *prefetch);
    json_t *sessions = json_array();
    if (!prefetch || !sessions) {
        free(prefetch);
        json_decref(sessions);
        gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
        return;
    }
    prefetch->r = r;
    prefetch->legacy = legacy;
    prefetch->sessions = sessions;
    bool volumes;
    s_wants(r, &prefetch->agents, &volumes, &prefetch->keypairs, sessions, prefetch);
    //  The store's folders are read from their storage-proxies.
    if (volumes || prefetch->cards)
        gw_storage_ready(gw_server_storage(r->gw), s_fetch_agents, prefetch);
    else
        s_fetch_agents(prefetch);
}

//  Fetches the agents if the document wants them, then the sessions.
static void
s_fetch_agents(void *arg)
{
    gql_prefetch_t *prefetch = arg;
    gw_request_t *r = prefetch->r;
    bool agents = prefetch->agents;
    const char *scheduler = bus_node_find(gw_server_node(r->gw), "scheduler");
    static const uint8_t empty_map = 0x80; //  scheduler.agents with no filter
    if (scheduler && agents &&
        bus_node_call(gw_server_node(r->gw), scheduler, PROTO_SCHEDULER_AGENTS,
                      &empty_map, 1, 0, s_on_agents, prefetch))
        return;
    s_fetch_sessions(prefetch);
}

void
gw_gql_handle(gw_request_t *r)
{
    s_handle(r, false);
}

void
gw_gql_handle_legacy(gw_request_t *r)
{
    s_handle(r, true);
}
