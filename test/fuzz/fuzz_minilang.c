/*  =========================================================================
    fuzz_minilang - libFuzzer target for the gateway's filter/order minilang

    The input, cut at its first NUL byte as the GraphQL string argument
    would be, is parsed as a filter twice: with a fixed list of field names
    and with any name allowed. A failure must leave a message that starts
    with Backend.AI's prefix, fits the buffer and is valid UTF-8 (it goes
    into a JSON reply); a filter is matched against a few items with
    strings, numbers, booleans, nulls, arrays and missing keys, and must
    give the same answer twice. The same text is then used as an order on
    those items, which must stay the same items, only permuted. Any broken
    promise aborts, so the fuzzer reports it like a crash.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "../../services/gateway/gw_minilang.h"

static const char *const s_fields[] = {"name", "age", "tags", "note", "on", "x", NULL};

static void
s_check(bool condition)
{
    if (!condition)
        abort();
}

static void
s_check_error(const char *error, const char *prefix)
{
    s_check(strncmp(error, prefix, strlen(prefix)) == 0);
    s_check(strlen(error) < 256);
    json_t *message = json_string(error);
    s_check(message != NULL);
    json_decref(message);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > GW_MINILANG_MAX_TEXT + 16)
        return 0;
    char *text = malloc(size + 1);
    s_check(text != NULL);
    memcpy(text, data, size);
    text[size] = '\0';
    json_t *items = json_loads(
        "[{\"name\":\"alice\",\"age\":30,\"tags\":[\"a\",1,null],\"note\":null,\"on\":"
        "true},"
        "{\"name\":\"B%_\\\\\\\"\",\"age\":2.5,\"tags\":[],\"on\":false,\"x\":{}},"
        "{\"name\":\"caf\\u00e9\",\"age\":-7,\"note\":\"2024-01-01T00:00:00Z\"},{}]",
        0, NULL);
    s_check(items != NULL);
    for (int pass = 0; pass < 2; pass++) {
        char error[256];
        memset(error, 'z', sizeof error);
        gw_minilang_filter_t *f = gw_minilang_filter_parse(
            text, pass == 0 ? s_fields : NULL, error, sizeof error);
        if (!f) {
            s_check_error(error, "Query filter parsing error: ");
            continue;
        }
        for (size_t i = 0; i < json_array_size(items); i++) {
            json_t *item = json_array_get(items, i);
            s_check(gw_minilang_filter_match(f, item) ==
                    gw_minilang_filter_match(f, item));
        }
        gw_minilang_filter_destroy(&f);
        s_check(f == NULL);
    }
    json_t *copy = json_copy(items);
    char error[256];
    if (gw_minilang_order(items, text, s_fields, error, sizeof error) == 0) {
        s_check(json_array_size(items) == json_array_size(copy));
        for (size_t i = 0; i < json_array_size(copy); i++) {
            bool found = false;
            for (size_t j = 0; j < json_array_size(items) && !found; j++)
                found = json_array_get(items, j) == json_array_get(copy, i) ||
                        json_equal(json_array_get(items, j), json_array_get(copy, i));
            s_check(found);
        }
    } else {
        s_check_error(error, "Query ordering parsing error: ");
        s_check(json_equal(items, copy));
    }
    json_decref(copy);
    json_decref(items);
    free(text);
    return 0;
}
