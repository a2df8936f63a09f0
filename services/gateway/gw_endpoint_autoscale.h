/*  =========================================================================
    gw_endpoint_autoscale - model services' autoscaling rules evaluated on
    their metrics, averaged over a window

    Backend.AI's autoscaler (manager 24.09/25.1): every
    serving.autoscale_period_ms, each rule (gw_endpoint_rule) of an
    endpoint in lifecycle created compares its metric, averaged over the
    last serving.autoscale_window_s (60 s), with its threshold; when the
    comparison holds and cooldown_seconds have passed since the rule last
    triggered, the replicas wanted move by step_size, bounded by
    [min_replicas, max_replicas] (and the owner's policy's most), the
    rule's last_triggered_at is kept, and the change takes the path of
    POST /services/{id}/scale: the desired count written, the
    reconciliation kicked. At most one rule moves an endpoint per
    evaluation. Each decision is logged.

    The metrics:
        - INFERENCE_FRAMEWORK requests_per_second: the wsproxy counts the
          requests admitted on each endpoint's URL; each period the gateway
          reads the counters (wsproxy.endpoint.requests) and the rate is the
          difference across the window over its time;
        - KERNEL cpu_util: the agents' kernel.stats (cpu_used_ns, every
          agent.stats_ms) of the replicas' kernels, each pair of samples a
          utilisation in percent of one core (Backend.AI's cpu_util); a
          kernel's figure is the mean of its samples in the window, the
          endpoint's the mean over its kernels. Which kernel is a route's
          the reconciliation learns from its session.get (the main kernel).
    A metric without samples enough in the window (no wsproxy, no URL yet,
    a replica still starting) has no value, and its rules wait.

    Owned by gw_endpoint_reconcile, which it kicks after a change.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_ENDPOINT_AUTOSCALE_H_INCLUDED
#define GW_ENDPOINT_AUTOSCALE_H_INCLUDED

#include "bus.h"

#define GW_ENDPOINT_AUTOSCALE_SAMPLES_MAX 256 //  kept per kernel or endpoint

typedef struct _gw_endpoint_autoscale_t gw_endpoint_autoscale_t;
typedef struct _gw_server_t gw_server_t;

//  Called after a rule changed an endpoint's replicas wanted.
typedef void(gw_endpoint_autoscale_scaled_fn)(void *arg);

//  Starts the evaluation timer and follows kernel.stats. NULL on failure.
gw_endpoint_autoscale_t *gw_endpoint_autoscale_new(
    gw_server_t *gw, gw_endpoint_autoscale_scaled_fn *scaled, void *arg);

//  Calls in flight find it gone. Safe on NULL.
void gw_endpoint_autoscale_destroy(gw_endpoint_autoscale_t **self_p);

//  kernel_id is the main kernel of a route's session of endpoint_id: its
//  kernel.stats count toward the endpoint's cpu_util.
void gw_endpoint_autoscale_kernel(gw_endpoint_autoscale_t *self,
                                  const char *endpoint_id,
                                  const char *kernel_id);

//  Pure parts, for the tests.

//  Whether value compared with threshold by comparator (GraphQL's name)
//  holds; false for an unknown comparator.
bool gw_endpoint_autoscale_holds(const char *comparator, double value, double threshold);

//  The replicas a rule of step moves desired to, within [low, high]
//  (low < 0: no lower bound but 0; high < 0: none but policy_max, which
//  bounds always). Returns desired when it cannot move that way.
int64_t gw_endpoint_autoscale_target(
    int64_t desired, int64_t step, int64_t low, int64_t high, int64_t policy_max);

#endif
