/*  =========================================================================
    gw_limits_test - the owner's limits as session.create's typed scopes

    gw_limits_of's object (the shape /resource/check-presets also reads)
    becomes one scope_limits per scope, in order: amounts that a policy's
    JSON holds as numbers are sent as decimal text, null members of a slot
    map are left out, a count that is null or negative is -1 (no limit),
    LIMITED marks the scope limited; the result passes session.create's
    schema check.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include "t.h"

//  The value of key in pairs, or NULL.
static const char *
s_value(const proto_kv_t *pairs, size_t count, const char *key)
{
    for (size_t i = 0; i < count; i++)
        if (strcmp(pairs[i].key, key) == 0)
            return pairs[i].value;
    return NULL;
}

static void
test_scopes(void)
{
    json_t *limits = json_loads(
        "{\"keypair\": {\"total_resource_slots\": {\"cpu\": 4, \"mem\": \"8g\","
        " \"cuda.shares\": 0.5, \"x\": null}, \"unspecified\": \"limited\","
        " \"max_concurrent_sessions\": 3, \"max_containers_per_session\": null,"
        " \"max_pending_session_count\": -2, \"max_pending_session_resource_slots\": "
        "null,"
        " \"idle_timeout\": 600, \"max_session_lifetime\": null},"
        " \"user\": {\"total_resource_slots\": {}, \"unspecified\": \"unlimited\"},"
        " \"domain\": {\"total_resource_slots\": {\"cpu\": \"Infinity\"}}}",
        0, NULL);
    T_ASSERT(limits);
    proto_session_scope_limits_t scopes[GW_LIMITS_SCOPES];
    void *arena = NULL;
    T_EQ_INT(gw_limits_to_scopes(limits, scopes, &arena), 3);
    json_decref(limits); //  nothing is borrowed from it

    T_EQ_STR(scopes[0].scope, "keypair");
    T_ASSERT(scopes[0].limited);
    T_EQ_INT(scopes[0].total_resource_slots_count, 3);
    const proto_kv_t *total = scopes[0].total_resource_slots;
    T_EQ_STR(s_value(total, 3, "cpu"), "4");
    T_EQ_STR(s_value(total, 3, "mem"), "8g");
    T_EQ_STR(s_value(total, 3, "cuda.shares"), "0.5");
    T_EQ_INT(scopes[0].max_concurrent_sessions, 3);
    T_EQ_INT(scopes[0].max_containers_per_session, -1);
    T_EQ_INT(scopes[0].max_pending_session_count, -1);
    T_EQ_INT(scopes[0].max_pending_session_resource_slots_count, 0);
    T_EQ_INT(scopes[0].idle_timeout, 600);
    T_EQ_INT(scopes[0].max_session_lifetime, 0);

    T_EQ_STR(scopes[1].scope, "user");
    T_ASSERT(!scopes[1].limited);
    T_EQ_INT(scopes[1].total_resource_slots_count, 0);
    T_EQ_INT(scopes[1].max_concurrent_sessions, -1);

    T_EQ_STR(scopes[2].scope, "domain");
    T_EQ_STR(s_value(scopes[2].total_resource_slots, 1, "cpu"), "Infinity");

    //  What session.create's schema says of them holds.
    proto_session_create_req_t req;
    proto_session_create_req_init(&req);
    req.session_id = req.kernel_id = req.name = req.access_key = "x";
    req.user_uuid = req.domain_name = req.group_id = req.scaling_group = "x";
    req.image = "busybox";
    req.limits = scopes;
    req.limits_count = 3;
    bus_error_t err = {0};
    T_EQ_INT(proto_session_create_req_check(&req, &err), BUS_OK);
    proto_arena_free(&arena);

    //  No object: no scope.
    T_EQ_INT(gw_limits_to_scopes(NULL, scopes, &arena), 0);
    T_ASSERT(!arena);
}

int
main(void)
{
    T_RUN(test_scopes);
    return T_DONE();
}
