/*  =========================================================================
    bus_slots_test - resource slot parsing and formatting

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "t.h"

//  Parses text as unit and formats it; "ERR" on failure. Borrowed buffer.
static const char *
s_norm(bus_slots_unit_t unit, const char *text)
{
    static char out[BUS_SLOTS_VALUE_MAX];
    json_t *input = json_string(text);
    bus_slots_value_t value;
    bus_error_t err = {0};
    int rc = bus_slots_parse_value(unit, "x", input, &value, &err);
    json_decref(input);
    if (rc != BUS_OK)
        return "ERR";
    bus_slots_format_value(unit, &value, out);
    return out;
}

static const char *
s_bytes(const char *text)
{
    return s_norm(BUS_SLOTS_BYTES, text);
}

static const char *
s_count(const char *text)
{
    return s_norm(BUS_SLOTS_COUNT, text);
}

//  bus_slots_parse on a JSON text; the normalized map as compact JSON with
//  sorted keys, or "ERR: <detail>". Caller frees.
static char *
s_map(const char *json)
{
    json_t *input = json_loads(json, JSON_DECODE_ANY, NULL);
    json_t *out = NULL;
    bus_error_t err = {0};
    int rc = bus_slots_parse(input, &out, &err);
    json_decref(input);
    if (rc != BUS_OK) {
        char *text = NULL;
        if (asprintf(&text, "ERR: %s", err.detail) < 0)
            return NULL;
        return text;
    }
    char *text = json_dumps(out, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(out);
    return text;
}

static void
test_known_types(void)
{
    T_EQ_INT(bus_slots_unit("cpu"), BUS_SLOTS_COUNT);
    T_EQ_INT(bus_slots_unit("mem"), BUS_SLOTS_BYTES);
    T_EQ_INT(bus_slots_unit("cuda.device"), BUS_SLOTS_COUNT);
    T_EQ_INT(bus_slots_unit("cuda.shares"), BUS_SLOTS_COUNT);
    T_EQ_INT(bus_slots_unit("rocm.device"), BUS_SLOTS_COUNT);
    T_EQ_INT(bus_slots_unit("tpu.device"), BUS_SLOTS_COUNT);
    T_EQ_INT(bus_slots_unit("gpu"), BUS_SLOTS_UNKNOWN);
    T_EQ_INT(bus_slots_unit(""), BUS_SLOTS_UNKNOWN);
    T_EQ_INT(bus_slots_unit(NULL), BUS_SLOTS_UNKNOWN);
    json_t *known = bus_slots_known();
    T_EQ_INT(json_object_size(known), 14);
    T_EQ_STR(json_string_value(json_object_get(known, "mem")), "bytes");
    T_EQ_STR(json_string_value(json_object_get(known, "cpu")), "count");
    json_decref(known);
    //  Whole devices: the known "<x>.device" slots, nothing else.
    T_ASSERT(bus_slots_whole("cuda.device"));
    T_ASSERT(bus_slots_whole("hyperaccel-lpu.device"));
    T_ASSERT(!bus_slots_whole("cuda.shares"));
    T_ASSERT(!bus_slots_whole("cpu"));
    T_ASSERT(!bus_slots_whole("mem"));
    T_ASSERT(!bus_slots_whole("x.device"));
    T_ASSERT(!bus_slots_whole(".device"));
    T_ASSERT(!bus_slots_whole(NULL));
}

static void
test_bytes_suffixes(void)
{
    T_EQ_STR(s_bytes("0"), "0");
    T_EQ_STR(s_bytes("1024"), "1024");
    T_EQ_STR(s_bytes("1k"), "1024");
    T_EQ_STR(s_bytes("1K"), "1024");
    T_EQ_STR(s_bytes("1m"), "1048576");
    T_EQ_STR(s_bytes("1g"), "1073741824");
    T_EQ_STR(s_bytes("4g"), "4294967296");
    T_EQ_STR(s_bytes("1t"), "1099511627776");
    T_EQ_STR(s_bytes("1p"), "1125899906842624");
    T_EQ_STR(s_bytes("1e"), "1152921504606846976");
    T_EQ_STR(s_bytes("7e"), "8070450532247928832");
    T_EQ_STR(s_bytes("1gb"), "1073741824");
    T_EQ_STR(s_bytes("1GiB"), "1073741824");
    T_EQ_STR(s_bytes("1gbytes"), "1073741824");
    T_EQ_STR(s_bytes("1GiBytes"), "1073741824");
    T_EQ_STR(s_bytes("512MiB"), "536870912");
    T_EQ_STR(s_bytes("1024b"), "1024");
    T_EQ_STR(s_bytes("1024bytes"), "1024");
    T_EQ_STR(s_bytes("1_024"), "1024");
    T_EQ_STR(s_bytes("1_0_2_4_k"), "1048576");
    T_EQ_STR(s_bytes("  2g  "), "2147483648");
    T_EQ_STR(s_bytes("+1k"), "1024");
    //  Fractions with a suffix, truncated to whole bytes.
    T_EQ_STR(s_bytes("1.5g"), "1610612736");
    T_EQ_STR(s_bytes("0.5k"), "512");
    T_EQ_STR(s_bytes("0.1k"), "102");
    T_EQ_STR(s_bytes(".5m"), "524288");
    T_EQ_STR(s_bytes("2.k"), "2048");
    T_EQ_STR(s_bytes("0.000000000000000001e"), "1");
    //  Unlimited.
    T_EQ_STR(s_bytes("inf"), "Infinity");
    T_EQ_STR(s_bytes("Infinity"), "Infinity");
    T_EQ_STR(s_bytes("INFINITE"), "Infinity");
}

static void
test_bytes_malformed(void)
{
    const char *bad[] = {
        "",
        "   ",
        "k",
        "g1",
        "1x",
        "1kk",
        "1.5",
        "1.5b",
        "1..5k",
        "1.2.3k",
        "1 g",
        "1ib",
        "1024ib",
        "-1",
        "-1g",
        "-inf",
        "1z",
        "1y",
        "abc",
        "0x10",
        "1e3",
        "nan",
        "1kibb",
        "1.k.",
        "8e",
        "16e",
        "99999999999999999999",
        "9223372036854775808",
        "1.0000000000000000001k",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (strcmp(s_bytes(bad[i]), "ERR") != 0)
            fprintf(stderr, "# accepted '%s' as %s\n", bad[i], s_bytes(bad[i]));
        T_EQ_STR(s_bytes(bad[i]), "ERR");
    }
    T_EQ_STR(s_bytes("9223372036854775807"), "9223372036854775807");
    //  Messages name the slot and the reason.
    bus_slots_value_t value;
    bus_error_t err = {0};
    json_t *input = json_string("-5g");
    T_EQ_INT(bus_slots_parse_value(BUS_SLOTS_BYTES, "mem", input, &value, &err),
             BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "mem");
    T_CONTAINS(err.detail, "negative");
    json_decref(input);
    //  Embedded NUL and overlong text.
    input = json_stringn("1\0g", 3);
    T_EQ_INT(bus_slots_parse_value(BUS_SLOTS_BYTES, "mem", input, &value, &err),
             BUS_STATUS_INVALID);
    json_decref(input);
    char long_text[200];
    memset(long_text, '1', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    input = json_string(long_text);
    T_EQ_INT(bus_slots_parse_value(BUS_SLOTS_BYTES, "mem", input, &value, &err),
             BUS_STATUS_INVALID);
    json_decref(input);
    //  Not a string or number.
    input = json_true();
    T_EQ_INT(bus_slots_parse_value(BUS_SLOTS_COUNT, "cpu", input, &value, &err),
             BUS_STATUS_INVALID);
    json_decref(input);
    input = json_pack("[i]", 1);
    T_EQ_INT(bus_slots_parse_value(BUS_SLOTS_BYTES, "mem", input, &value, &err),
             BUS_STATUS_INVALID);
    json_decref(input);
}

static void
test_counts(void)
{
    T_EQ_STR(s_count("0"), "0");
    T_EQ_STR(s_count("2"), "2");
    T_EQ_STR(s_count("2.000"), "2");
    T_EQ_STR(s_count("0.5"), "0.5");
    T_EQ_STR(s_count(".25"), "0.25");
    T_EQ_STR(s_count("5."), "5");
    T_EQ_STR(s_count("007"), "7");
    T_EQ_STR(s_count("1.1234"), "1.123");
    T_EQ_STR(s_count("0.0004"), "0");
    T_EQ_STR(s_count("0.0006"), "0.001");
    //  Half to even, as Decimal.quantize.
    T_EQ_STR(s_count("1.0005"), "1");
    T_EQ_STR(s_count("1.0015"), "1.002");
    T_EQ_STR(s_count("1.00050001"), "1.001");
    T_EQ_STR(s_count("0.0005"), "0");
    T_EQ_STR(s_count("0.0025"), "0.002");
    //  Exponents and separators.
    T_EQ_STR(s_count("1e3"), "1000");
    T_EQ_STR(s_count("1E-3"), "0.001");
    T_EQ_STR(s_count("25e-1"), "2.5");
    T_EQ_STR(s_count("1_000"), "1000");
    T_EQ_STR(s_count("+3"), "3");
    T_EQ_STR(s_count("-0"), "0");
    T_EQ_STR(s_count("inf"), "Infinity");
    T_EQ_STR(s_count("Infinity"), "Infinity");
    T_EQ_STR(s_count("9223372036854775.807"), "9223372036854775.807");
    const char *bad[] = {"",
                         ".",
                         "-1",
                         "-0.5",
                         "-inf",
                         "1k",
                         "1g",
                         "e3",
                         "1e",
                         "1e+",
                         "1e999",
                         "nan",
                         "1.2.3",
                         "0x1",
                         "1 2",
                         "one",
                         "9223372036854776",
                         "1e20"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (strcmp(s_count(bad[i]), "ERR") != 0)
            fprintf(stderr, "# accepted '%s' as %s\n", bad[i], s_count(bad[i]));
        T_EQ_STR(s_count(bad[i]), "ERR");
    }
}

static void
test_numbers(void)
{
    bus_slots_value_t value;
    bus_error_t err = {0};
    char out[BUS_SLOTS_VALUE_MAX];
    json_t *input = json_integer(2);
    T_EQ_INT(bus_slots_parse_value(BUS_SLOTS_COUNT, "cpu", input, &value, &err), BUS_OK);
    bus_slots_format_value(BUS_SLOTS_COUNT, &value, out);
    T_EQ_STR(out, "2");
    json_decref(input);
    input = json_real(0.5);
    T_EQ_INT(bus_slots_parse_value(BUS_SLOTS_COUNT, "cuda.shares", input, &value, &err),
             BUS_OK);
    bus_slots_format_value(BUS_SLOTS_COUNT, &value, out);
    T_EQ_STR(out, "0.5");
    json_decref(input);
    input = json_real(0.1);
    T_EQ_INT(bus_slots_parse_value(BUS_SLOTS_COUNT, "cpu", input, &value, &err), BUS_OK);
    bus_slots_format_value(BUS_SLOTS_COUNT, &value, out);
    T_EQ_STR(out, "0.1");
    json_decref(input);
    input = json_integer(-1);
    T_EQ_INT(bus_slots_parse_value(BUS_SLOTS_COUNT, "cpu", input, &value, &err),
             BUS_STATUS_INVALID);
    json_decref(input);
    input = json_integer(4294967296);
    T_EQ_INT(bus_slots_parse_value(BUS_SLOTS_BYTES, "mem", input, &value, &err), BUS_OK);
    bus_slots_format_value(BUS_SLOTS_BYTES, &value, out);
    T_EQ_STR(out, "4294967296");
    json_decref(input);
    input = json_real(1073741824.0);
    T_EQ_INT(bus_slots_parse_value(BUS_SLOTS_BYTES, "mem", input, &value, &err), BUS_OK);
    T_EQ_INT(value.amount, 1073741824);
    json_decref(input);
    input = json_real(1.5);
    T_EQ_INT(bus_slots_parse_value(BUS_SLOTS_BYTES, "mem", input, &value, &err),
             BUS_STATUS_INVALID);
    json_decref(input);
    input = json_real(-2.0);
    T_EQ_INT(bus_slots_parse_value(BUS_SLOTS_BYTES, "mem", input, &value, &err),
             BUS_STATUS_INVALID);
    json_decref(input);
    input = json_real(1e30);
    T_EQ_INT(bus_slots_parse_value(BUS_SLOTS_BYTES, "mem", input, &value, &err),
             BUS_STATUS_INVALID);
    json_decref(input);
}

static void
test_maps(void)
{
    char *text = s_map("{\"cpu\": 2, \"mem\": \"1g\"}");
    T_EQ_STR(text, "{\"cpu\":\"2\",\"mem\":\"1073741824\"}");
    free(text);
    //  A JSONString input, zero amounts and nulls dropped.
    text = s_map("\"{\\\"cpu\\\": \\\"0.5\\\", \\\"cuda.device\\\": 0, \\\"mem\\\": null,"
                 " \\\"cuda.shares\\\": \\\"0.000\\\"}\"");
    T_EQ_STR(text, "{\"cpu\":\"0.5\"}");
    free(text);
    text = s_map("{\"mem\": \"inf\", \"tpu.device\": \"1\", \"rocm.device\": 3}");
    T_EQ_STR(text, "{\"mem\":\"Infinity\",\"rocm.device\":\"3\",\"tpu.device\":\"1\"}");
    free(text);
    text = s_map("{}");
    T_EQ_STR(text, "{}");
    free(text);
    text = s_map("\"{}\"");
    T_EQ_STR(text, "{}");
    free(text);
    //  Errors.
    text = s_map("{\"cpu\": 1, \"gpu\": 1}");
    T_EQ_STR(text, "ERR: Unknown slot type: gpu");
    free(text);
    text = s_map("{\"cpu\": -1}");
    T_CONTAINS(text, "ERR: ");
    T_CONTAINS(text, "negative");
    free(text);
    text = s_map("{\"mem\": \"lots\"}");
    T_CONTAINS(text, "ERR: Cannot convert the slot mem");
    free(text);
    text = s_map("[1, 2]");
    T_CONTAINS(text, "ERR: resource slots must be a JSON object");
    free(text);
    text = s_map("\"not json\"");
    T_CONTAINS(text, "ERR: ");
    free(text);
    text = s_map("\"[]\"");
    T_CONTAINS(text, "ERR: ");
    free(text);
    text = s_map("42");
    T_CONTAINS(text, "ERR: ");
    free(text);
    text = s_map("{\"cpu\": {\"a\": 1}}");
    T_CONTAINS(text, "ERR: ");
    free(text);
    json_t *out = (json_t *) 1;
    bus_error_t err = {0};
    T_EQ_INT(bus_slots_parse(NULL, &out, &err), BUS_STATUS_INVALID);
    T_ASSERT(out == NULL);
}

static void
test_single_bytes(void)
{
    int64_t bytes = 0;
    bus_error_t err = {0};
    json_t *input = json_string("64m");
    T_EQ_INT(bus_slots_parse_bytes("shared_memory", input, &bytes, &err), BUS_OK);
    T_EQ_INT(bytes, 67108864);
    json_decref(input);
    input = json_integer(1024);
    T_EQ_INT(bus_slots_parse_bytes("shared_memory", input, &bytes, &err), BUS_OK);
    T_EQ_INT(bytes, 1024);
    json_decref(input);
    input = json_string("inf");
    T_EQ_INT(bus_slots_parse_bytes("shared_memory", input, &bytes, &err),
             BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "shared_memory");
    json_decref(input);
    input = json_string("-1");
    T_EQ_INT(bus_slots_parse_bytes("shared_memory", input, &bytes, &err),
             BUS_STATUS_INVALID);
    json_decref(input);
    //  Formatting boundaries.
    char out[BUS_SLOTS_VALUE_MAX];
    bus_slots_value_t value = {false, INT64_MAX};
    bus_slots_format_value(BUS_SLOTS_BYTES, &value, out);
    T_EQ_STR(out, "9223372036854775807");
    bus_slots_format_value(BUS_SLOTS_COUNT, &value, out);
    T_EQ_STR(out, "9223372036854775.807");
    value.amount = 10;
    bus_slots_format_value(BUS_SLOTS_COUNT, &value, out);
    T_EQ_STR(out, "0.01");
    value.infinite = true;
    bus_slots_format_value(BUS_SLOTS_COUNT, &value, out);
    T_EQ_STR(out, "Infinity");
}

//  Two GPUs offered whole and as shares (1.0 each): each GPU counted once.
static void
test_pair(void)
{
    bus_slots_pair_t pair;
    //  Capacities that make no whole devices tie nothing.
    T_ASSERT(!bus_slots_pair(1500, 2000, 0, 0, &pair));
    T_ASSERT(!bus_slots_pair(0, 2000, 0, 0, &pair));
    T_ASSERT(!bus_slots_pair(2000, 0, 0, 0, &pair));
    //  Free: both GPUs either way.
    T_ASSERT(bus_slots_pair(2000, 2000, 0, 0, &pair));
    T_EQ_INT(pair.devices, 2);
    T_EQ_INT(pair.per, 1000);
    T_EQ_INT(bus_slots_pair_device_room(&pair), 2000);
    T_EQ_INT(bus_slots_pair_shares_room(&pair), 2000);
    //  One GPU whole and 0.6 shared: no GPU whole left, 0.4 of a share.
    T_ASSERT(bus_slots_pair(2000, 2000, 1000, 600, &pair));
    T_EQ_INT(bus_slots_pair_device_room(&pair), 0);
    T_EQ_INT(bus_slots_pair_shares_room(&pair), 400);
    //  Shares only: 1.2 keeps two GPUs from being taken whole.
    T_ASSERT(bus_slots_pair(2000, 2000, 0, 1200, &pair));
    T_EQ_INT(bus_slots_pair_device_room(&pair), 0);
    T_EQ_INT(bus_slots_pair_shares_room(&pair), 800);
    //  Over-held (a ledger behind the agent): never below zero.
    T_ASSERT(bus_slots_pair(2000, 2000, 2000, 500, &pair));
    T_EQ_INT(bus_slots_pair_device_room(&pair), 0);
    T_EQ_INT(bus_slots_pair_shares_room(&pair), 0);
}

int
main(void)
{
    T_RUN(test_known_types);
    T_RUN(test_bytes_suffixes);
    T_RUN(test_bytes_malformed);
    T_RUN(test_counts);
    T_RUN(test_numbers);
    T_RUN(test_maps);
    T_RUN(test_single_bytes);
    T_RUN(test_pair);
    return T_DONE();
}
