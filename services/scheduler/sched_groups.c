/*  =========================================================================
    sched_groups - the resource groups' scheduling rules, from the gateway

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

static int
s_apply(void *arg, bus_node_t *node, const bus_event_t *event)
{
    (void) arg;
    if (strcmp(event->topic, PROTO_POLICY_SCALING_GROUP) != 0)
        return 0; //  keypair/user/project policies reach the scheduler with each session
    proto_policy_scaling_group_t group;
    proto_policy_scaling_group_init(&group);
    bus_error_t err = {0};
    if (proto_policy_scaling_group_decode(&group, event->body, event->body_size, &err) !=
        BUS_OK) {
        //  A malformed event cannot become well-formed by waiting: log, skip.
        bus_log_warning("policy.scaling_group dropped: %s", err.detail);
        return 0;
    }
    int rc = sched_db_sgroups_apply(bus_node_db(node), group.name, group.deleted,
                                    group.scheduler, group.scheduler_opts);
    if (rc == 0)
        bus_log_info("resource group %s %s", group.name,
                     group.deleted ? "deleted" : "rules updated");
    proto_policy_scaling_group_clear(&group);
    return rc;
}

int
sched_groups_follow(bus_node_t *node)
{
    return bus_node_follow(node, "policy", s_apply, NULL);
}
