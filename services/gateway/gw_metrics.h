/*  =========================================================================
    gw_metrics - the gateway's lines of GET /metrics: requests by route

    Every request the gateway answers is counted by its method, its route
    (the pattern of the route table, "/session/{session_name}", never the
    path itself, so the number of series stays bounded; "unmatched" for a
    path no route has) and its status, and its latency goes into a
    histogram per method and route. Fed from the end of each request
    (gw_request, where the access log is written too).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_METRICS_H_INCLUDED
#define GW_METRICS_H_INCLUDED

#include "bus.h"

#define GW_METRICS_STATUSES_MAX 24 //  distinct statuses counted per route; more: "other"
#define GW_METRICS_UNMATCHED    "unmatched"

typedef struct _gw_metrics_t gw_metrics_t;

//  Adds the gateway's lines to node's /metrics (bus_node_set_metrics).
//  node is borrowed and must outlive the object. NULL on failure.
gw_metrics_t *gw_metrics_new(bus_node_t *node);

//  Takes the lines off the node's /metrics and frees the object.
void gw_metrics_destroy(gw_metrics_t **self_p);

//  Counts one request answered with status after seconds. route is the
//  route's pattern (a static string of the route table; NULL when no
//  route matched). self NULL: nothing (the offline admin command).
void gw_metrics_request(gw_metrics_t *self,
                        const char *method,
                        const char *route,
                        int status,
                        double seconds);

#endif
