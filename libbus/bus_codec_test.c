/*  =========================================================================
    bus_codec_test - writer/reader round trips and hostile msgpack

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "t.h"

static void
test_round_trip(void)
{
    bus_writer_t *w = bus_writer_new();
    bus_writer_map(w, 8);
    bus_writer_str(w, "s");
    bus_writer_str(w, "hello");
    bus_writer_str(w, "neg");
    bus_writer_int(w, -300000);
    bus_writer_str(w, "big");
    bus_writer_uint(w, UINT64_MAX);
    bus_writer_str(w, "d");
    bus_writer_double(w, 2.5);
    bus_writer_str(w, "b");
    bus_writer_bool(w, true);
    bus_writer_str(w, "bin");
    bus_writer_bin(w, "\0\1\2", 3);
    bus_writer_str(w, "arr");
    bus_writer_array(w, 2);
    bus_writer_nil(w);
    bus_writer_int(w, 7);
    bus_writer_str(w, "small");
    bus_writer_int(w, -5);

    bus_reader_t *r = bus_reader_new();
    const bus_value_t *root = bus_reader_parse(r, bus_writer_data(w), bus_writer_size(w));
    T_ASSERT(root);
    T_EQ_INT(bus_value_type(root), BUS_VALUE_MAP);
    T_EQ_INT(bus_value_count(root), 8);
    char *s = bus_value_dup_str(bus_value_map_find(root, "s"));
    T_EQ_STR(s, "hello");
    free(s);
    int64_t i;
    T_ASSERT(bus_value_get_int(bus_value_map_find(root, "neg"), &i));
    T_EQ_INT(i, -300000);
    T_ASSERT(bus_value_get_int(bus_value_map_find(root, "small"), &i));
    T_EQ_INT(i, -5);
    uint64_t u;
    T_ASSERT(bus_value_get_uint(bus_value_map_find(root, "big"), &u));
    T_ASSERT(u == UINT64_MAX);
    T_ASSERT(!bus_value_get_int(bus_value_map_find(root, "big"), &i));
    double d;
    T_ASSERT(bus_value_get_double(bus_value_map_find(root, "d"), &d));
    T_ASSERT(d == 2.5);
    bool b;
    T_ASSERT(bus_value_get_bool(bus_value_map_find(root, "b"), &b) && b);
    const void *bin;
    size_t len;
    T_ASSERT(bus_value_get_bin(bus_value_map_find(root, "bin"), &bin, &len));
    T_EQ_INT(len, 3);
    T_ASSERT(memcmp(bin, "\0\1\2", 3) == 0);
    const bus_value_t *arr = bus_value_map_find(root, "arr");
    T_EQ_INT(bus_value_count(arr), 2);
    T_EQ_INT(bus_value_type(bus_value_array_at(arr, 0)), BUS_VALUE_NIL);
    T_ASSERT(bus_value_get_int(bus_value_array_at(arr, 1), &i) && i == 7);
    T_ASSERT(bus_value_array_at(arr, 2) == NULL);
    T_ASSERT(bus_value_map_find(root, "missing") == NULL);
    bus_reader_destroy(&r);
    bus_writer_destroy(&w);
    T_ASSERT(r == NULL && w == NULL);
    bus_writer_destroy(&w);
}

static void
test_rejects_hostile_input(void)
{
    bus_reader_t *r = bus_reader_new();
    //  array32 claiming 4 billion items in five bytes
    T_ASSERT(!bus_reader_parse(r, "\xdd\xff\xff\xff\xff", 5));
    //  map32 claiming 2^31 pairs
    T_ASSERT(!bus_reader_parse(r, "\xdf\x80\x00\x00\x00\x01", 6));
    //  str32 longer than the buffer
    T_ASSERT(!bus_reader_parse(r,
                               "\xdb\x00\x00\x10\x00"
                               "abc",
                               8));
    //  truncated uint64
    T_ASSERT(!bus_reader_parse(r, "\xcf\x01\x02", 3));
    //  trailing bytes after one item
    T_ASSERT(!bus_reader_parse(r, "\x01\x02", 2));
    //  the reserved tag
    T_ASSERT(!bus_reader_parse(r, "\xc1", 1));
    //  empty input
    T_ASSERT(!bus_reader_parse(r, "", 0));
    //  nesting deeper than the limit: 40 nested one-item arrays
    uint8_t deep[41];
    memset(deep, 0x91, 40);
    deep[40] = 0x01;
    T_ASSERT(!bus_reader_parse(r, deep, sizeof deep));
    //  within the limit it parses
    T_ASSERT(bus_reader_parse(r, deep + 40 - 10, 11));
    //  a string with a NUL byte is not handed out as a C string
    const bus_value_t *v = bus_reader_parse(r,
                                            "\xa3"
                                            "a\0b",
                                            4);
    T_ASSERT(v);
    T_ASSERT(bus_value_dup_str(v) == NULL);
    //  wrong-type getters say no
    int64_t i;
    T_ASSERT(!bus_value_get_int(v, &i));
    T_EQ_INT(bus_value_count(v), 0);
    bus_reader_destroy(&r);
}

static void
test_ext_and_float32(void)
{
    bus_reader_t *r = bus_reader_new();
    //  fixext1 then float32 1.5 inside an array
    const uint8_t buf[] = {0x92, 0xd4, 0x01, 0x7f, 0xca, 0x3f, 0xc0, 0x00, 0x00};
    const bus_value_t *v = bus_reader_parse(r, buf, sizeof buf);
    T_ASSERT(v);
    T_EQ_INT(bus_value_type(bus_value_array_at(v, 0)), BUS_VALUE_EXT);
    double d;
    T_ASSERT(bus_value_get_double(bus_value_array_at(v, 1), &d) && d == 1.5);
    bus_reader_destroy(&r);
}

int
main(void)
{
    T_RUN(test_round_trip);
    T_RUN(test_rejects_hostile_input);
    T_RUN(test_ext_and_float32);
    return T_DONE();
}
