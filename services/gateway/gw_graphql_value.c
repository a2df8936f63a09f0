/*  =========================================================================
    gw_graphql_value - GraphQL variables and values as JSON

    Coercion of the request's variables to the operation's variable types
    (built-in scalars only), and argument values with variables substituted,
    as JSON for the resolvers.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include "gw_graphql_private.h"

//  ---------------------------------------------------------------------------
//  Variables and values as JSON

//  A JSON value as graphql-js inspects it in messages, cut to fit.
static const char *
s_inspect(const json_t *value, char *out)
{
    char *dump = json_dumps(value, JSON_ENCODE_ANY | JSON_COMPACT | JSON_ENSURE_ASCII |
                                       JSON_SORT_KEYS);
    if (!dump)
        return strcpy(out, "?");
    gw_graphql_excerpt(dump, strlen(dump), out);
    free(dump);
    return out;
}

//  value as a GraphQL built-in scalar of type name, or an incref'd value
//  for other named types. NULL with reason when it cannot be coerced.
static json_t *
s_coerce_scalar(const char *name, json_t *value, char *reason, size_t size)
{
    char shown[GW_GRAPHQL_SHOWN_SIZE];
    if (strcmp(name, "Int") == 0) {
        double number = json_number_value(value);
        //  Beyond 2^53 every double is integral; below, the cast is exact.
        bool integral = json_is_integer(value) ||
                        (json_is_real(value) &&
                         (number >= GW_GRAPHQL_EXACT || number <= -GW_GRAPHQL_EXACT ||
                          number == (double) (int64_t) number));
        if (!integral)
            snprintf(reason, size, "Int cannot represent non-integer value: %s",
                     s_inspect(value, shown));
        else if (json_is_integer(value) ? json_integer_value(value) < INT32_MIN ||
                                              json_integer_value(value) > INT32_MAX
                                        : number < INT32_MIN || number > INT32_MAX)
            snprintf(reason, size,
                     "Int cannot represent non 32-bit signed integer value: %s",
                     s_inspect(value, shown));
        else
            return json_integer(json_is_integer(value) ? json_integer_value(value)
                                                       : (json_int_t) number);
        return NULL;
    }
    if (strcmp(name, "Float") == 0) {
        if (json_is_number(value))
            return json_real(json_number_value(value));
        snprintf(reason, size, "Float cannot represent non numeric value: %s",
                 s_inspect(value, shown));
        return NULL;
    }
    if (strcmp(name, "String") == 0 || strcmp(name, "Boolean") == 0) {
        bool is_string = name[0] == 'S';
        if (is_string ? json_is_string(value) : json_is_boolean(value))
            return json_incref(value);
        snprintf(reason, size, "%s cannot represent a non %s value: %s", name,
                 is_string ? "string" : "boolean", s_inspect(value, shown));
        return NULL;
    }
    if (strcmp(name, "ID") == 0) {
        if (json_is_string(value))
            return json_incref(value);
        if (json_is_integer(value)) {
            char digits[32];
            snprintf(digits, sizeof digits, "%" JSON_INTEGER_FORMAT,
                     json_integer_value(value));
            return json_string(digits);
        }
        snprintf(reason, size, "ID cannot represent value: %s", s_inspect(value, shown));
        return NULL;
    }
    if (strcmp(name, "JSONString") == 0) {
        json_t *parsed = NULL;
        if (json_is_string(value))
            parsed = json_loadb(json_string_value(value), json_string_length(value),
                                JSON_DECODE_ANY, NULL);
        if (parsed) {
            json_decref(parsed);
            return json_incref(value);
        }
        snprintf(reason, size, "JSONString cannot represent value: %s",
                 s_inspect(value, shown));
        return NULL;
    }
    return json_incref(value);
}

//  value (not NULL) coerced to type; path names where it sits, for
//  messages. NULL with *invalid and reason on a mismatch. Recursion
//  follows the type, at most GW_GQL_MAX_DEPTH lists deep.
static json_t *
s_coerce(const gw_gql_type_t *type,
         json_t *value,
         char *path,
         json_t **invalid,
         char *reason,
         size_t size)
{
    if (json_is_null(value)) {
        if (!type->non_null)
            return json_null();
        snprintf(reason, size, "Expected non-nullable type \"%s\" not to be null.",
                 type->text);
        *invalid = value;
        return NULL;
    }
    if (!type->item) {
        json_t *coerced = s_coerce_scalar(type->name, value, reason, size);
        if (!coerced && !reason[0])
            snprintf(reason, size, "Out of memory.");
        if (!coerced)
            *invalid = value;
        return coerced;
    }
    json_t *list = json_array();
    if (!list) {
        snprintf(reason, size, "Out of memory.");
        *invalid = value;
        return NULL;
    }
    size_t len = strlen(path), count = json_is_array(value) ? json_array_size(value) : 1;
    for (size_t i = 0; i < count; i++) {
        json_t *item = json_is_array(value) ? json_array_get(value, i) : value;
        if (json_is_array(value))
            snprintf(path + len, GW_GRAPHQL_PATH_MAX - len, "[%zu]", i);
        json_t *coerced = s_coerce(type->item, item, path, invalid, reason, size);
        if (!coerced || json_array_append_new(list, coerced) != 0) {
            if (coerced && !reason[0]) {
                snprintf(reason, size, "Out of memory.");
                *invalid = value;
            }
            json_decref(list);
            return NULL;
        }
    }
    path[len] = '\0';
    return list;
}

static json_t *s_value_json(const gw_gql_value_t *value,
                            const gw_graphql_operation_t *op,
                            json_t *variables,
                            gw_gql_error_t *err,
                            bool *absent);

json_t *
gw_gql_operation_coerce_variables(const gw_gql_operation_t *op,
                                  json_t *variables,
                                  gw_gql_error_t *err)
{
    assert(op);
    gw_graphql_error_clear(err);
    if (variables && !json_is_object(variables)) {
        gw_graphql_error_set(
            err, 0, 0,
            "Variables must be provided as an Object where each property is a "
            "variable value.");
        return NULL;
    }
    json_t *coerced = json_object();
    if (!coerced) {
        gw_graphql_error_set(err, 0, 0, "Out of memory.");
        return NULL;
    }
    for (size_t i = 0; i < op->variable_count; i++) {
        const gw_gql_variable_t *variable = &op->variables[i];
        json_t *value = variables ? json_object_get(variables, variable->name) : NULL;
        json_t *fallback = NULL, *invalid = NULL, *result;
        char path[GW_GRAPHQL_PATH_MAX], reason[GW_GQL_ERROR_MAX] = "",
                                        shown[GW_GRAPHQL_SHOWN_SIZE];
        snprintf(path, sizeof path, "%s", variable->name);
        size_t root_len = strlen(path);
        if (!value && !variable->default_value) {
            if (variable->type->non_null) {
                gw_graphql_error_set(
                    err, variable->line, variable->column,
                    "Variable \"$%s\" of required type \"%s\" was not provided.",
                    variable->name, variable->type->text);
                goto fail;
            }
            continue;
        }
        if (!value) {
            bool absent = false;
            fallback = s_value_json(variable->default_value, NULL, NULL, err, &absent);
            if (!fallback)
                goto fail;
            result =
                s_coerce(variable->type, fallback, path, &invalid, reason, sizeof reason);
            if (!result) {
                gw_graphql_error_set(err, variable->line, variable->column,
                                     "Variable \"$%s\" has invalid default value %s; %s",
                                     variable->name, s_inspect(fallback, shown), reason);
                json_decref(fallback);
                goto fail;
            }
            json_decref(fallback);
        } else if (json_is_null(value) && variable->type->non_null) {
            gw_graphql_error_set(
                err, variable->line, variable->column,
                "Variable \"$%s\" of non-null type \"%s\" must not be null.",
                variable->name, variable->type->text);
            goto fail;
        } else if (!(result = s_coerce(variable->type, value, path, &invalid, reason,
                                       sizeof reason))) {
            char at[GW_GRAPHQL_PATH_MAX + 8] = "";
            if (strlen(path) > root_len)
                snprintf(at, sizeof at, " at \"%s\"", path);
            gw_graphql_error_set(err, variable->line, variable->column,
                                 "Variable \"$%s\" got invalid value %s%s; %s",
                                 variable->name,
                                 s_inspect(invalid ? invalid : value, shown), at, reason);
            goto fail;
        }
        if (json_object_set_new(coerced, variable->name, result) != 0) {
            gw_graphql_error_set(err, 0, 0, "Out of memory.");
            goto fail;
        }
    }
    return coerced;
fail:
    json_decref(coerced);
    return NULL;
}

static json_t *
s_value_json(const gw_gql_value_t *value,
             const gw_graphql_operation_t *op,
             json_t *variables,
             gw_gql_error_t *err,
             bool *absent)
{
    json_t *json = NULL;
    *absent = false;
    switch (value->kind) {
        case GW_GQL_VARIABLE: {
            const gw_gql_variable_t *variable =
                op ? gw_graphql_find_variable(op, value->text, NULL) : NULL;
            if (!variable) {
                gw_graphql_error_set(err, value->line, value->column,
                                     "Variable \"$%s\" is not defined.", value->text);
                return NULL;
            }
            json_t *given = json_is_object(variables)
                                ? json_object_get(variables, variable->name)
                                : NULL;
            if (given)
                return json_incref(given);
            if (variable->default_value)
                return s_value_json(variable->default_value, NULL, NULL, err, absent);
            if (variable->type->non_null) {
                gw_graphql_error_set(
                    err, value->line, value->column,
                    "Variable \"$%s\" of required type \"%s\" was not provided.",
                    variable->name, variable->type->text);
                return NULL;
            }
            *absent = true;
            json = json_null();
            break;
        }
        case GW_GQL_INT:
            json = json_integer((json_int_t) value->integer);
            break;
        case GW_GQL_FLOAT:
            json = json_real(value->number);
            break;
        case GW_GQL_STRING:
            json = json_stringn(value->text, value->length);
            break;
        case GW_GQL_BOOLEAN:
            json = json_boolean(value->boolean);
            break;
        case GW_GQL_NULL:
            json = json_null();
            break;
        case GW_GQL_ENUM:
            json = json_string(value->text);
            break;
        case GW_GQL_LIST:
            json = json_array();
            for (size_t i = 0; json && i < value->count; i++) {
                bool missing;
                json_t *item =
                    s_value_json(&value->items[i], op, variables, err, &missing);
                if (!item) {
                    json_decref(json);
                    return NULL;
                }
                if (json_array_append_new(json, item) != 0) {
                    json_decref(json);
                    json = NULL;
                }
            }
            break;
        case GW_GQL_OBJECT:
            json = json_object();
            for (size_t i = 0; json && i < value->count; i++) {
                bool missing;
                const gw_gql_argument_t *field = &value->fields[i];
                json_t *item = s_value_json(&field->value, op, variables, err, &missing);
                if (!item) {
                    json_decref(json);
                    return NULL;
                }
                if (missing)
                    json_decref(item);
                else if (json_object_set_new(json, field->name, item) != 0) {
                    json_decref(json);
                    json = NULL;
                }
            }
            break;
    }
    if (!json)
        gw_graphql_error_set(err, value->line, value->column, "Out of memory.");
    return json;
}

json_t *
gw_gql_value_json(const gw_gql_value_t *value,
                  const gw_gql_operation_t *op,
                  json_t *variables,
                  gw_gql_error_t *err)
{
    assert(value);
    gw_graphql_error_clear(err);
    bool absent;
    return s_value_json(value, (const gw_graphql_operation_t *) op, variables, err,
                        &absent);
}

json_t *
gw_gql_field_argument(const gw_gql_field_t *field,
                      const char *name,
                      const gw_gql_operation_t *op,
                      json_t *variables,
                      gw_gql_error_t *err)
{
    assert(field);
    assert(name);
    gw_graphql_error_clear(err);
    for (size_t i = 0; i < field->argument_count; i++)
        if (strcmp(field->arguments[i].name, name) == 0) {
            bool absent;
            json_t *json = s_value_json(&field->arguments[i].value,
                                        (const gw_graphql_operation_t *) op, variables,
                                        err, &absent);
            if (absent) {
                json_decref(json);
                return NULL;
            }
            return json;
        }
    return NULL;
}

int
gw_gql_field_included(const gw_gql_field_t *field,
                      const gw_gql_operation_t *op,
                      json_t *variables,
                      gw_gql_error_t *err)
{
    assert(field);
    gw_graphql_error_clear(err);
    int included = 1;
    for (size_t i = 0; i < field->directive_count && included == 1; i++) {
        const gw_gql_directive_t *directive = &field->directives[i];
        bool absent;
        json_t *json =
            s_value_json(directive->condition, (const gw_graphql_operation_t *) op,
                         variables, err, &absent);
        if (!json)
            return -1;
        if (!json_is_boolean(json)) {
            char shown[GW_GRAPHQL_SHOWN_SIZE];
            gw_graphql_error_set(
                err, directive->line, directive->column,
                "Argument \"if\" of directive \"@%s\" must be a Boolean, found %s.",
                directive->name, s_inspect(json, shown));
            included = -1;
        } else if (json_is_true(json) != (strcmp(directive->name, "include") == 0))
            included = 0;
        json_decref(json);
    }
    return included;
}
