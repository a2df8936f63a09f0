/*  =========================================================================
    fuzz_graphql - libFuzzer target for the gateway's GraphQL parser

    Parses the input as a document for POST /admin/gql. A failure must come
    with a message that is valid UTF-8 (it goes into a JSON reply) and a
    place that is either none (0:0) or a line and column both at least 1. A
    document gives its operation (the only one, else one of a few names the
    corpus uses), whose variables are coerced from a small fixed object;
    then every argument and condition of every field at every level becomes
    JSON, with the raw and with the coerced variables, and the nesting must
    stay within GW_GQL_MAX_DEPTH. Any broken promise aborts, so the fuzzer
    reports it like a crash.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "../../services/gateway/gw_graphql.h"

//  Names tried when the document has more than one operation.
static const char *s_names[] = {"Q", "A", "B", "M", NULL};

static void
s_check(bool condition)
{
    if (!condition)
        abort();
}

//  A failing call left a usable error behind.
static void
s_check_error(const gw_gql_error_t *err)
{
    s_check(err->message[0] != '\0');
    s_check(strlen(err->message) < GW_GQL_ERROR_MAX);
    json_t *message = json_string(err->message);
    s_check(message != NULL);
    json_decref(message);
    s_check((err->line == 0 && err->column == 0) || (err->line >= 1 && err->column >= 1));
}

//  value as JSON, or a clean error.
static void
s_try_value(const gw_gql_value_t *value, const gw_gql_operation_t *op, json_t *variables)
{
    gw_gql_error_t err;
    json_t *json = gw_gql_value_json(value, op, variables, &err);
    if (json)
        s_check(err.message[0] == '\0');
    else
        s_check_error(&err);
    json_decref(json);
}

static void
s_walk(const gw_gql_selection_t *selection,
       const gw_gql_operation_t *op,
       json_t *raw,
       json_t *coerced,
       int depth)
{
    s_check(depth <= GW_GQL_MAX_DEPTH);
    for (size_t i = 0; i < selection->count; i++) {
        const gw_gql_field_t *field = &selection->fields[i];
        s_check(field->name && field->key);
        s_check(strcmp(field->key, field->alias ? field->alias : field->name) == 0);
        for (size_t a = 0; a < field->argument_count; a++) {
            s_try_value(&field->arguments[a].value, op, raw);
            s_try_value(&field->arguments[a].value, op, coerced);
            gw_gql_error_t err;
            json_t *json =
                gw_gql_field_argument(field, field->arguments[a].name, op, raw, &err);
            if (!json && err.message[0])
                s_check_error(&err);
            json_decref(json);
        }
        gw_gql_error_t err;
        int included = gw_gql_field_included(field, op, raw, &err);
        s_check(included >= -1 && included <= 1);
        if (included < 0)
            s_check_error(&err);
        if (field->selection)
            s_walk(field->selection, op, raw, coerced, depth + 1);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gw_gql_error_t err;
    gw_gql_doc_t *doc = gw_gql_parse((const char *) data, size, &err);
    if (!doc) {
        s_check_error(&err);
        return 0;
    }
    s_check(err.message[0] == '\0');
    const gw_gql_operation_t *op = gw_gql_doc_operation(doc, NULL, &err);
    for (size_t i = 0; !op && s_names[i]; i++)
        op = gw_gql_doc_operation(doc, s_names[i], &err);
    if (op) {
        json_t *raw =
            json_pack("{s:i,s:i,s:i,s:s,s:s,s:[ss],s:b,s:b,s:{s:s},s:n,s:f}", "x", 1,
                      "limit", 10, "offset", 0, "name", "a", "id", "u1", "ids", "a", "b",
                      "flag", 1, "on", 0, "input", "k", "v", "n", "f", 1.5);
        s_check(raw != NULL);
        json_t *coerced = gw_gql_operation_coerce_variables(op, raw, &err);
        if (!coerced)
            s_check_error(&err);
        s_walk(&op->selection, op, raw, coerced, 1);
        json_decref(coerced);
        json_decref(raw);
    } else
        s_check_error(&err);
    gw_gql_doc_destroy(&doc);
    s_check(doc == NULL);
    return 0;
}
