/*  =========================================================================
    gw_fleet_test - a group's agents are kept for their time, no longer

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include "t.h"

static void
test_kept_then_forgotten(void)
{
    gw_fleet_t *fleet = gw_fleet_new(50);
    T_ASSERT(fleet);
    T_ASSERT(!gw_fleet_get(fleet, "default"));
    json_t *agents = json_pack("[{s:s}]", "id", "a1");
    gw_fleet_put(fleet, "default", agents);
    json_decref(agents);
    json_t *kept = gw_fleet_get(fleet, "default");
    T_ASSERT(json_is_array(kept) && json_array_size(kept) == 1);
    T_ASSERT(!gw_fleet_get(fleet, "other"));
    T_ASSERT(!gw_fleet_get(fleet, NULL));
    //  an error object (the call failed) is not a list of agents
    json_t *error = json_pack("{s:s}", "error", "timeout");
    gw_fleet_put(fleet, "other", error);
    json_decref(error);
    T_ASSERT(!gw_fleet_get(fleet, "other"));
    //  a newer list replaces the older
    agents = json_pack("[{s:s}, {s:s}]", "id", "a1", "id", "a2");
    gw_fleet_put(fleet, "default", agents);
    json_decref(agents);
    T_EQ_INT((int) json_array_size(gw_fleet_get(fleet, "default")), 2);
    zclock_sleep(60);
    T_ASSERT(!gw_fleet_get(fleet, "default"));
    gw_fleet_destroy(&fleet);
    gw_fleet_destroy(&fleet);
}

//  Past GW_FLEET_GROUPS_MAX groups the oldest goes.
static void
test_bounded(void)
{
    gw_fleet_t *fleet = gw_fleet_new(60000);
    json_t *agents = json_array();
    char group[32];
    for (int i = 0; i <= GW_FLEET_GROUPS_MAX; i++) {
        snprintf(group, sizeof group, "g%d", i);
        gw_fleet_put(fleet, group, agents);
        zclock_sleep(i == 0 ? 2 : 0); //  g0 is the oldest
    }
    json_decref(agents);
    T_ASSERT(!gw_fleet_get(fleet, "g0"));
    snprintf(group, sizeof group, "g%d", GW_FLEET_GROUPS_MAX);
    T_ASSERT(gw_fleet_get(fleet, group));
    T_ASSERT(gw_fleet_get(fleet, "g1"));
    gw_fleet_destroy(&fleet);
}

int
main(void)
{
    T_RUN(test_kept_then_forgotten);
    T_RUN(test_bounded);
    return T_DONE();
}
