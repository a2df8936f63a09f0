/*  =========================================================================
    gw_params - JSON body or query string into one JSON object

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include <strings.h>   //  strcasecmp
#include <sys/queue.h> //  TAILQ_INIT for evhttp_parse_query_str

//  Depth of nested arrays and objects, without recursion.
static bool
s_too_deep(const char *text, size_t size)
{
    int depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < size; i++) {
        char c = text[i];
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = false;
        } else if (c == '"')
            in_string = true;
        else if (c == '[' || c == '{') {
            if (++depth > GW_PARAMS_MAX_DEPTH)
                return true;
        } else if (c == ']' || c == '}')
            depth--;
    }
    return false;
}

static json_t *
s_query(struct evhttp_request *req)
{
    json_t *params = json_object();
    const char *query = evhttp_uri_get_query(evhttp_request_get_evhttp_uri(req));
    struct evkeyvalq pairs;
    TAILQ_INIT(&pairs);
    if (query && evhttp_parse_query_str(query, &pairs) == 0) {
        for (struct evkeyval *kv = pairs.tqh_first; kv; kv = kv->next.tqe_next) {
            json_t *value = json_string(kv->value);
            //  Invalid UTF-8 cannot become a JSON string: leave it out.
            if (value)
                json_object_set_new(params, kv->key, value);
        }
    }
    evhttp_clear_headers(&pairs);
    return params;
}

json_t *
gw_params_parse(struct evhttp_request *req, char *detail, size_t size)
{
    struct evbuffer *input = evhttp_request_get_input_buffer(req);
    size_t length = input ? evbuffer_get_length(input) : 0;
    //  A multipart body carries files, for the handler to read; its
    //  parameters are in the query string.
    const char *type =
        evhttp_find_header(evhttp_request_get_input_headers(req), "Content-Type");
    if (length == 0 || (type && strncasecmp(type, "multipart/", 10) == 0))
        return s_query(req);
    const char *text = (const char *) evbuffer_pullup(input, (ev_ssize_t) length);
    if (!text || s_too_deep(text, length)) {
        snprintf(detail, size, "Malformed body: nested too deeply");
        return NULL;
    }
    json_error_t error;
    json_t *params = json_loadb(text, length, JSON_REJECT_DUPLICATES, &error);
    if (!params || !json_is_object(params)) {
        if (params)
            snprintf(detail, size, "Malformed body: expected a JSON object");
        else
            snprintf(detail, size, "Malformed body: %s at line %d column %d", error.text,
                     error.line, error.column);
        json_decref(params);
        return NULL;
    }
    return params;
}

bool
gw_params_str(
    json_t *params, const char *key, const char **out, char *detail, size_t size)
{
    json_t *value = json_object_get(params, key);
    if (!value || json_is_null(value))
        return true;
    if (!json_is_string(value)) {
        snprintf(detail, size, "%s: expected a string", key);
        return false;
    }
    *out = json_string_value(value);
    return true;
}

bool
gw_params_int(json_t *params, const char *key, int64_t *out, char *detail, size_t size)
{
    json_t *value = json_object_get(params, key);
    if (!value || json_is_null(value))
        return true;
    if (json_is_integer(value)) {
        *out = json_integer_value(value);
        return true;
    }
    if (json_is_string(value)) {
        //  Query-string values arrive as text.
        const char *text = json_string_value(value);
        char *end = NULL;
        errno = 0;
        long long parsed = strtoll(text, &end, 10);
        if (*text && end && !*end && errno == 0) {
            *out = parsed;
            return true;
        }
    }
    snprintf(detail, size, "%s: expected an integer", key);
    return false;
}

bool
gw_params_bool(json_t *params, const char *key, bool *out, char *detail, size_t size)
{
    json_t *value = json_object_get(params, key);
    if (!value || json_is_null(value))
        return true;
    if (json_is_boolean(value)) {
        *out = json_is_true(value);
        return true;
    }
    if (json_is_string(value)) {
        const char *text = json_string_value(value);
        static const char *yes[] = {"true", "1", "yes", "on"},
                          *no[] = {"false", "0", "no", "off"};
        for (size_t i = 0; i < 4; i++) {
            if (strcasecmp(text, yes[i]) == 0 || strcasecmp(text, no[i]) == 0) {
                *out = strcasecmp(text, yes[i]) == 0;
                return true;
            }
        }
    }
    snprintf(detail, size, "%s: expected a boolean", key);
    return false;
}
