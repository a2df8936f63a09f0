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
          utilisation in percent of one core (Backend.AI's cpu_util) over
          the agent's timestamps (the interval between its two readings,
          which its clock measures well whatever its offset); a kernel's
          figure is the mean of its samples received in the window, the
          endpoint's the mean over its kernels. Which kernel is a route's
          the reconciliation learns from its session.get (the main kernel).
    The window is tested on the gateway's monotonic clock (when a reading
    came), never against a timestamp of another host: an agent whose
    clock is off by minutes counts the same. A metric without samples
    enough in the window (no wsproxy, no URL yet, a replica still
    starting) has no value, and its rules wait.

    Each metric keeps GW_ENDPOINT_AUTOSCALE_SAMPLES_MAX slots whatever
    the window, the period or agent.stats_ms: a slot spans at least
    window / (GW_ENDPOINT_AUTOSCALE_SAMPLES_MAX - 2), and readings closer
    than that share one (a counter's last reading, the sum and count of
    utilisations), so the ring always holds the whole window, at a
    resolution of window / 254 (236 ms for 60 s).

    Owned by gw_endpoint_reconcile, which it kicks after a change.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_ENDPOINT_AUTOSCALE_H_INCLUDED
#define GW_ENDPOINT_AUTOSCALE_H_INCLUDED

#include "bus.h"

#define GW_ENDPOINT_AUTOSCALE_SAMPLES_MAX 256 //  slots kept per kernel or endpoint

//  One slot of a ring: the readings that came within its span.
typedef struct {
    int64_t start_ms; //  monotonic: when its first reading came
    int64_t at_ms;    //  monotonic: when its last reading came
    double value;     //  a counter's last reading; utilisations: their sum
    uint32_t count;   //  readings in it
} gw_endpoint_autoscale_slot_t;

//  A metric's readings across the window, oldest first from head.
typedef struct {
    gw_endpoint_autoscale_slot_t items[GW_ENDPOINT_AUTOSCALE_SAMPLES_MAX];
    size_t head, count;
    int64_t slot_ms; //  a slot's least span, from the window
} gw_endpoint_autoscale_ring_t;

//  A kernel's CPU: its last counter reading, stamped by its agent, and
//  the utilisations each pair of readings gave.
typedef struct {
    bool has_last;
    uint64_t last_cpu_ns;
    int64_t last_agent_ms; //  the agent's clock: for the interval only
    gw_endpoint_autoscale_ring_t cpu;
} gw_endpoint_autoscale_cpu_t;

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

//  Empties ring for a window of window_ms.
void gw_endpoint_autoscale_ring_init(gw_endpoint_autoscale_ring_t *ring,
                                     int64_t window_ms);

//  A counter's reading value received at now_ms (monotonic). A smaller
//  one than the last means the counter started again: the ring does too.
void gw_endpoint_autoscale_counter_add(gw_endpoint_autoscale_ring_t *ring,
                                       int64_t now_ms,
                                       double value);

//  The counter's rate per second across the window ending at now_ms:
//  its newest reading against its oldest received in the window. False
//  without two readings apart in it.
bool gw_endpoint_autoscale_rate(const gw_endpoint_autoscale_ring_t *ring,
                                int64_t now_ms,
                                int64_t window_ms,
                                double *out);

//  A kernel.stats of a kernel: cpu_ns used by then, at agent_ms on its
//  agent's wall clock, received at now_ms (the gateway's monotonic clock).
void gw_endpoint_autoscale_cpu_add(gw_endpoint_autoscale_cpu_t *cpu,
                                   int64_t agent_ms,
                                   uint64_t cpu_ns,
                                   int64_t now_ms);

//  The mean utilisation (percent of one core) of the samples received in
//  the window ending at now_ms; false when none was.
bool gw_endpoint_autoscale_cpu_mean(const gw_endpoint_autoscale_cpu_t *cpu,
                                    int64_t now_ms,
                                    int64_t window_ms,
                                    double *out);

#endif
