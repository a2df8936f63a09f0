/*  =========================================================================
    gw_endpoint_rule - model services' autoscaling rules, as the gateway
    keeps them, and their GraphQL

    Backend.AI's EndpointAutoScalingRule (manager 24.09/25.1): a metric of
    an endpoint (metric_source KERNEL or INFERENCE_FRAMEWORK, metric_name)
    compared with a threshold (a decimal, kept as its text) by a comparator
    (LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL);
    when it holds, the replicas wanted move by step_size (signed, never 0)
    within [min_replicas, max_replicas], at most once per cooldown_seconds
    (gw_endpoint_autoscale evaluates them). The metrics Backplane has:
    KERNEL cpu_util (percent of one core, averaged over the replicas) and
    INFERENCE_FRAMEWORK requests_per_second (requests on the endpoint's
    URL, counted by the wsproxy). Who may see and change a rule: whoever
    may its endpoint (gw_endpoint_may). Rules go with their endpoint.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_ENDPOINT_RULE_H_INCLUDED
#define GW_ENDPOINT_RULE_H_INCLUDED

#include "bus.h"
#include "gw_gql.h"

#define GW_ENDPOINT_RULE_METRIC_CPU    "cpu_util"
#define GW_ENDPOINT_RULE_METRIC_RPS    "requests_per_second"
#define GW_ENDPOINT_RULE_COOLDOWN_MAX  86400 //  a day
#define GW_ENDPOINT_RULE_THRESHOLD_MAX 64    //  characters of the decimal
#define GW_ENDPOINT_RULE_PER_ENDPOINT  32    //  rules one endpoint may have
#define GW_ENDPOINT_RULE_NODE_TYPE     "EndpointAutoScalingRuleNode" //  Relay type of a rule
#define GW_ENDPOINT_NODE_TYPE          "Endpoint" //  an endpoint's, when given as one

//  Checks props (GraphQL's EndpointAutoScalingRuleInput, or with partial
//  true ModifyEndpointAutoScalingRuleInput, whose fields may be absent)
//  against the rule they make once applied over current (a rule's row, or
//  NULL), and writes that rule's columns into *row (caller owns it).
//  BUS_OK, or INVALID naming the field.
int gw_endpoint_rule_check(
    json_t *props, bool partial, json_t *current, json_t **row, bus_error_t *err);

//  A new rule of endpoint_id with row's columns; its id into id. BUS_OK,
//  INVALID (too many rules), INTERNAL.
int gw_endpoint_rule_insert(bus_db_t *db,
                            const char *endpoint_id,
                            json_t *row,
                            char id[GW_UUID_SIZE],
                            bus_error_t *err);

//  The rule id (a UUID), or NULL. Caller owns it.
json_t *gw_endpoint_rule_get(bus_db_t *db, const char *id);

//  The rules of endpoint_id, oldest first. NULL on a database error.
json_t *gw_endpoint_rule_list(bus_db_t *db, const char *endpoint_id);

//  Writes row's columns over rule id. BUS_OK, NOT_FOUND, INTERNAL.
int gw_endpoint_rule_update(bus_db_t *db, const char *id, json_t *row, bus_error_t *err);

//  Deletes rule id. BUS_OK or NOT_FOUND.
int gw_endpoint_rule_delete(bus_db_t *db, const char *id, bus_error_t *err);

//  Records that rule id moved its endpoint's replicas at at_us.
void gw_endpoint_rule_triggered(bus_db_t *db, const char *id, int64_t at_us);

//  GraphQL: endpoint_auto_scaling_rule_node(s), create_, modify_ and
//  delete_endpoint_auto_scaling_rule_node (gw_endpoint_rule.c).
extern const gw_gql_root_t gw_endpoint_rule_gql[];

#endif
