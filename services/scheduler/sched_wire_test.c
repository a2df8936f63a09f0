/*  =========================================================================
    sched_wire_test - session.create's typed values into the scheduler's
    JSON, and the stored mounts back into kernel.create

    The limits of each scope go through sched_wire_limits and are read back
    by sched_db_snapshot_parse_limits, the reader the placement uses: every
    field lands on its limit, -1 and an absent map on "no limit", a slot
    left out of a LIMITED policy on zero. An unknown or repeated scope is
    INVALID. Mounts keep their id (session.list's mounting filter reads it)
    and come back as kernel.create's list; a stored member that is no
    string is sent absent, for the agent to refuse.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"
#include "t.h"

//  The scope scope of text, as the placement reads it, for slots cpu, mem.
static void
s_read_scope(const char *text, const char *scope, sched_scope_t *out)
{
    json_t *limits = json_loads(text, 0, NULL);
    T_ASSERT(json_is_object(json_object_get(limits, scope)));
    char *one = json_dumps(json_object_get(limits, scope), JSON_COMPACT);
    sched_db_snapshot_t slots = {0};
    slots.slot_names[0] = "cpu";
    slots.slot_names[1] = "mem";
    slots.slot_count = 2;
    *out = (sched_scope_t){0};
    sched_db_snapshot_parse_limits(&slots, one, out);
    free(one);
    json_decref(limits);
}

static void
test_limits(void)
{
    proto_kv_t total[] = {{"cpu", "4"}, {"mem", "8g"}};
    proto_kv_t pending[] = {{"cpu", "2"}};
    proto_kv_t domain_total[] = {{"mem", "Infinity"}};
    proto_session_scope_limits_t items[3];
    for (size_t i = 0; i < 3; i++)
        proto_session_scope_limits_init(&items[i]);
    items[0].scope = "keypair";
    items[0].total_resource_slots = total;
    items[0].total_resource_slots_count = 2;
    items[0].max_concurrent_sessions = 3;
    items[0].max_containers_per_session = 2;
    items[0].max_pending_session_count = 5;
    items[0].max_pending_session_resource_slots = pending;
    items[0].max_pending_session_resource_slots_count = 1;
    items[0].idle_timeout = 600;
    items[0].max_session_lifetime = 3600;
    items[1].scope = "user";
    items[1].limited = true;
    items[1].total_resource_slots = pending; //  cpu 2, mem left out
    items[1].total_resource_slots_count = 1;
    items[2].scope = "domain";
    items[2].total_resource_slots = domain_total;
    items[2].total_resource_slots_count = 1;
    char *text = NULL;
    bus_error_t err = {0};
    T_EQ_INT(sched_wire_limits(items, 3, &text, &err), BUS_OK);
    T_ASSERT(text);

    sched_scope_t keypair;
    s_read_scope(text, "keypair", &keypair);
    T_EQ_INT(keypair.limit.v[0], 4000); //  milli-cores
    T_EQ_INT(keypair.limit.v[1], 8LL << 30);
    T_EQ_INT(keypair.max_concurrent_sessions, 3);
    T_EQ_INT(keypair.max_containers_per_session, 2);
    T_EQ_INT(keypair.max_pending_count, 5);
    T_EQ_INT(keypair.max_pending_slots.v[0], 2000);
    T_EQ_INT(keypair.max_pending_slots.v[1], SCHED_UNLIMITED);

    //  LIMITED: a slot the map leaves out is zero; the counts not given are none.
    sched_scope_t user;
    s_read_scope(text, "user", &user);
    T_EQ_INT(user.limit.v[0], 2000);
    T_EQ_INT(user.limit.v[1], 0);
    T_EQ_INT(user.max_concurrent_sessions, SCHED_UNLIMITED);
    T_EQ_INT(user.max_pending_count, SCHED_UNLIMITED);
    T_EQ_INT(user.max_pending_slots.v[0], SCHED_UNLIMITED);

    sched_scope_t domain;
    s_read_scope(text, "domain", &domain);
    T_EQ_INT(domain.limit.v[0], SCHED_UNLIMITED);
    T_EQ_INT(domain.limit.v[1], SCHED_UNLIMITED);

    //  The timers' SQL reads these two with json_extract.
    json_t *limits = json_loads(text, 0, NULL);
    json_t *scope = json_object_get(limits, "keypair");
    T_EQ_INT(json_integer_value(json_object_get(scope, "idle_timeout")), 600);
    T_EQ_INT(json_integer_value(json_object_get(scope, "max_session_lifetime")), 3600);
    T_ASSERT(!json_object_get(limits, "project"));
    json_decref(limits);
    free(text);

    //  None: no text, nothing stored.
    text = (char *) 1;
    T_EQ_INT(sched_wire_limits(NULL, 0, &text, &err), BUS_OK);
    T_ASSERT(!text);
}

static void
test_limits_refused(void)
{
    proto_session_scope_limits_t items[2];
    proto_session_scope_limits_init(&items[0]);
    proto_session_scope_limits_init(&items[1]);
    items[0].scope = "keypair";
    items[1].scope = "cluster";
    char *text = NULL;
    bus_error_t err = {0};
    T_EQ_INT(sched_wire_limits(items, 2, &text, &err), BUS_STATUS_INVALID);
    T_ASSERT(strstr(err.detail, "unknown scope \"cluster\""));
    T_ASSERT(!text);
    items[1].scope = "keypair";
    T_EQ_INT(sched_wire_limits(items, 2, &text, &err), BUS_STATUS_INVALID);
    T_ASSERT(strstr(err.detail, "scope keypair given twice"));
    T_ASSERT(!text);
}

static void
test_mounts(void)
{
    proto_session_mount_t items[2];
    proto_session_mount_init(&items[0]);
    proto_session_mount_init(&items[1]);
    items[0] = (proto_session_mount_t){.name = "data",
                                       .id = "0123456789abcdef0123456789abcdef",
                                       .host = "local:volume1",
                                       .host_path = "/srv/vf/01/data",
                                       .kernel_path = "/home/work/data",
                                       .permission = "rw"};
    items[1] = (proto_session_mount_t){.name = "models",
                                       .host_path = "/srv/vf/02/models",
                                       .kernel_path = "/data/models",
                                       .permission = "ro"};
    char *text = NULL;
    bus_error_t err = {0};
    T_EQ_INT(sched_wire_mounts(items, 2, &text, &err), BUS_OK);
    json_t *list = json_loads(text, 0, NULL);
    T_EQ_INT(json_array_size(list), 2);
    T_EQ_STR(json_string_value(json_object_get(json_array_get(list, 0), "id")),
             "0123456789abcdef0123456789abcdef");
    T_ASSERT(!json_object_get(json_array_get(list, 1), "id"));
    json_decref(list);

    //  Back as kernel.create's list, through its encoder and decoder.
    proto_kernel_create_req_t req;
    proto_kernel_create_req_init(&req);
    req.kernel_id = "k1";
    req.session_id = "s1";
    req.image = "busybox";
    bool ok = false;
    req.mounts = sched_wire_kernel_mounts(text, &req.owned_, &req.mounts_count, &ok);
    free(text);
    T_ASSERT(ok);
    T_EQ_INT(req.mounts_count, 2);
    zframe_t *frame = proto_kernel_create_req_encode(&req);
    proto_kernel_create_req_clear(&req);
    T_ASSERT(frame);
    proto_kernel_create_req_t in;
    T_EQ_INT(
        proto_kernel_create_req_decode(&in, zframe_data(frame), zframe_size(frame), &err),
        BUS_OK);
    zframe_destroy(&frame);
    T_EQ_INT(in.mounts_count, 2);
    T_EQ_STR(in.mounts[0].name, "data");
    T_EQ_STR(in.mounts[0].host, "local:volume1");
    T_EQ_STR(in.mounts[0].host_path, "/srv/vf/01/data");
    T_EQ_STR(in.mounts[0].kernel_path, "/home/work/data");
    T_EQ_STR(in.mounts[1].permission, "ro");
    T_ASSERT(!in.mounts[1].id);
    proto_kernel_create_req_clear(&in);

    //  A stored member that is no string goes absent, and the encoder
    //  refuses what the schema requires.
    proto_kernel_create_req_init(&req);
    req.kernel_id = "k1";
    req.session_id = "s1";
    req.image = "busybox";
    req.mounts = sched_wire_kernel_mounts(
        "[{\"name\": \"x\", \"host_path\": 7, \"kernel_path\": \"/home/work/x\","
        " \"permission\": \"ro\"}]",
        &req.owned_, &req.mounts_count, &ok);
    T_EQ_INT(req.mounts_count, 1);
    T_ASSERT(!req.mounts[0].host_path);
    T_EQ_INT(proto_kernel_create_req_check(&req, &err), BUS_STATUS_INVALID);
    T_ASSERT(strstr(err.detail, "host_path"));
    proto_kernel_create_req_clear(&req);

    //  None stored: none sent. Something stored that is no list: not ok,
    //  and the create is not sent without its folders.
    const char *none[] = {NULL, "", "[]", "{}", "not json"};
    for (size_t i = 0; i < sizeof none / sizeof *none; i++) {
        void *arena = NULL;
        size_t count = 9;
        T_ASSERT(!sched_wire_kernel_mounts(none[i], &arena, &count, &ok));
        T_EQ_INT(count, 0);
        T_EQ_INT(ok, i < 3);
        proto_arena_free(&arena);
    }
}

static void
test_dotfiles(void)
{
    bool ok = false;
    proto_session_dotfile_t items[2] = {
        {.path = ".bashrc", .permission = "644", .data = "alias ll='ls -l'\n"},
        {.path = ".config/x.json", .permission = "600", .data = "{\"a\": 1}"}};
    char *text = NULL;
    bus_error_t err = {0};
    T_EQ_INT(sched_wire_dotfiles(items, 2, &text, &err), BUS_OK);
    T_ASSERT(text);
    proto_kernel_create_req_t req;
    proto_kernel_create_req_init(&req);
    req.kernel_id = "k1";
    req.session_id = "s1";
    req.image = "busybox";
    req.dotfiles =
        sched_wire_kernel_dotfiles(text, &req.owned_, &req.dotfiles_count, &ok);
    free(text);
    T_EQ_INT(req.dotfiles_count, 2);
    zframe_t *frame = proto_kernel_create_req_encode(&req);
    proto_kernel_create_req_clear(&req);
    T_ASSERT(frame);
    proto_kernel_create_req_t in;
    T_EQ_INT(
        proto_kernel_create_req_decode(&in, zframe_data(frame), zframe_size(frame), &err),
        BUS_OK);
    zframe_destroy(&frame);
    T_EQ_INT(in.dotfiles_count, 2);
    T_EQ_STR(in.dotfiles[0].path, ".bashrc");
    T_EQ_STR(in.dotfiles[0].data, "alias ll='ls -l'\n");
    T_EQ_STR(in.dotfiles[1].permission, "600");
    T_EQ_STR(in.dotfiles[1].data, "{\"a\": 1}");
    proto_kernel_create_req_clear(&in);
    T_EQ_INT(sched_wire_dotfiles(NULL, 0, &text, &err), BUS_OK);
    T_ASSERT(!text);
}

static void
test_strings(void)
{
    const char *ids[] = {"a1", "the \"other\""};
    char *text = NULL;
    bus_error_t err = {0};
    T_EQ_INT(sched_wire_strings(ids, 2, &text, &err), BUS_OK);
    T_EQ_STR(text, "[\"a1\",\"the \\\"other\\\"\"]");
    free(text);
    T_EQ_INT(sched_wire_strings(NULL, 0, &text, &err), BUS_OK);
    T_ASSERT(!text);
}

int
main(void)
{
    T_RUN(test_limits);
    T_RUN(test_limits_refused);
    T_RUN(test_mounts);
    T_RUN(test_dotfiles);
    T_RUN(test_strings);
    return T_DONE();
}
