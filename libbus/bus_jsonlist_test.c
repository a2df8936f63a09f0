/*  =========================================================================
    bus_jsonlist_test - string records between JSON and generated structs

    A list of kernel.create mounts read from JSON (missing and non-string
    members left NULL, unknown ones ignored, anything but an array of
    objects giving none) and written back (only the members that are set);
    a round trip through the generated encoder and decoder keeps every
    string.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "t.h"

static const bus_jsonlist_field_t s_fields[] = {
    {"name", offsetof(proto_kernel_mount_t, name)},
    {"id", offsetof(proto_kernel_mount_t, id)},
    {"host", offsetof(proto_kernel_mount_t, host)},
    {"host_path", offsetof(proto_kernel_mount_t, host_path)},
    {"kernel_path", offsetof(proto_kernel_mount_t, kernel_path)},
    {"permission", offsetof(proto_kernel_mount_t, permission)},
    {NULL, 0}};

static void
test_read(void)
{
    json_t *list = json_loads(
        "[{\"name\": \"data\", \"host_path\": \"/srv/a\", \"kernel_path\": "
        "\"/home/work/data\","
        " \"permission\": \"rw\", \"extra\": 1},"
        " {\"name\": \"m\", \"id\": 7, \"host\": null, \"host_path\": \"/srv/b\","
        " \"kernel_path\": \"/m\", \"permission\": \"ro\"}]",
        0, NULL);
    T_ASSERT(list);
    void *arena = NULL;
    size_t count = 0;
    proto_kernel_mount_t *items =
        bus_jsonlist_read(list, sizeof *items, s_fields, &arena, &count);
    json_decref(list); //  the records hold copies
    T_ASSERT(items);
    T_EQ_INT(count, 2);
    T_EQ_STR(items[0].name, "data");
    T_EQ_STR(items[0].kernel_path, "/home/work/data");
    T_ASSERT(!items[0].id && !items[0].host);
    T_EQ_STR(items[1].permission, "ro");
    T_ASSERT(!items[1].id);   //  7 is no string
    T_ASSERT(!items[1].host); //  nor is null

    //  Through the wire and back.
    proto_kernel_create_req_t req;
    proto_kernel_create_req_init(&req);
    req.kernel_id = "k";
    req.session_id = "s";
    req.image = "i";
    req.mounts = items;
    req.mounts_count = count;
    zframe_t *frame = proto_kernel_create_req_encode(&req);
    T_ASSERT(frame);
    proto_kernel_create_req_t in;
    bus_error_t err = {0};
    T_EQ_INT(
        proto_kernel_create_req_decode(&in, zframe_data(frame), zframe_size(frame), &err),
        BUS_OK);
    zframe_destroy(&frame);
    json_t *back =
        bus_jsonlist_write(in.mounts, in.mounts_count, sizeof *in.mounts, s_fields);
    proto_kernel_create_req_clear(&in);
    char *text = json_dumps(back, JSON_COMPACT | JSON_SORT_KEYS);
    T_EQ_STR(text, "[{\"host_path\":\"/srv/a\",\"kernel_path\":\"/home/work/data\","
                   "\"name\":\"data\",\"permission\":\"rw\"},{\"host_path\":\"/srv/b\","
                   "\"kernel_path\":\"/m\",\"name\":\"m\",\"permission\":\"ro\"}]");
    free(text);
    json_decref(back);
    proto_arena_free(&arena);
}

static void
test_none(void)
{
    const char *texts[] = {"[]", "{}", "\"x\"", "null"};
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        json_t *value = json_loads(texts[i], JSON_DECODE_ANY, NULL);
        void *arena = NULL;
        size_t count = 5;
        T_ASSERT(!bus_jsonlist_read(value, sizeof(proto_kernel_mount_t), s_fields, &arena,
                                    &count));
        T_EQ_INT(count, 0);
        T_ASSERT(!arena);
        json_decref(value);
    }
    size_t count = 5;
    void *arena = NULL;
    T_ASSERT(
        !bus_jsonlist_read(NULL, sizeof(proto_kernel_mount_t), s_fields, &arena, &count));
    //  An item that is no object: a record with nothing set.
    json_t *odd = json_loads("[1]", 0, NULL);
    proto_kernel_mount_t *items =
        bus_jsonlist_read(odd, sizeof *items, s_fields, &arena, &count);
    T_EQ_INT(count, 1);
    T_ASSERT(items && !items[0].name);
    json_decref(odd);
    proto_arena_free(&arena);
    json_t *empty = bus_jsonlist_write(NULL, 0, sizeof(proto_kernel_mount_t), s_fields);
    T_ASSERT(json_is_array(empty) && json_array_size(empty) == 0);
    json_decref(empty);
}

int
main(void)
{
    T_RUN(test_read);
    T_RUN(test_none);
    return T_DONE();
}
