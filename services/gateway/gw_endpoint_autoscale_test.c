/*  =========================================================================
    gw_endpoint_autoscale_test - autoscaling rules' checks, comparisons,
    the replicas a step moves to, and the metrics' windows (an agent's
    clock far off ours; more readings than the ring has slots), without I/O

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include "t.h"

#define NO_BOUND -1
#define POLICY   10

static void
test_holds(void)
{
    T_ASSERT(gw_endpoint_autoscale_holds("GREATER_THAN", 6, 5));
    T_ASSERT(!gw_endpoint_autoscale_holds("GREATER_THAN", 5, 5));
    T_ASSERT(gw_endpoint_autoscale_holds("GREATER_THAN_OR_EQUAL", 5, 5));
    T_ASSERT(gw_endpoint_autoscale_holds("LESS_THAN", 0, 1));
    T_ASSERT(!gw_endpoint_autoscale_holds("LESS_THAN", 1, 1));
    T_ASSERT(gw_endpoint_autoscale_holds("LESS_THAN_OR_EQUAL", 1, 1));
    T_ASSERT(!gw_endpoint_autoscale_holds("BIGGER", 9, 1));
    T_ASSERT(!gw_endpoint_autoscale_holds(NULL, 9, 1));
}

static void
test_target(void)
{
    //  A step within the bounds; clamped at them; not moved past them.
    T_EQ_INT(gw_endpoint_autoscale_target(1, 1, 1, 3, POLICY), 2);
    T_EQ_INT(gw_endpoint_autoscale_target(2, 5, 1, 3, POLICY), 3);
    T_EQ_INT(gw_endpoint_autoscale_target(3, 1, 1, 3, POLICY), 3);
    T_EQ_INT(gw_endpoint_autoscale_target(3, -1, 1, 3, POLICY), 2);
    T_EQ_INT(gw_endpoint_autoscale_target(2, -5, 1, 3, POLICY), 1);
    T_EQ_INT(gw_endpoint_autoscale_target(1, -1, 1, 3, POLICY), 1);
    //  No bounds: 0 and the policy's most.
    T_EQ_INT(gw_endpoint_autoscale_target(1, -3, NO_BOUND, NO_BOUND, POLICY), 0);
    T_EQ_INT(gw_endpoint_autoscale_target(9, 4, NO_BOUND, NO_BOUND, POLICY), POLICY);
    T_EQ_INT(gw_endpoint_autoscale_target(2, 4, NO_BOUND, 50, POLICY), 6);
    T_EQ_INT(gw_endpoint_autoscale_target(8, 4, NO_BOUND, 50, POLICY), POLICY);
    //  A count set beyond a bound by hand is not moved the other way.
    T_EQ_INT(gw_endpoint_autoscale_target(5, 1, 1, 3, POLICY), 5);
    T_EQ_INT(gw_endpoint_autoscale_target(0, -1, 1, 3, POLICY), 0);
}

//  gw_endpoint_rule_check of props (JSON text); its status, and the
//  detail in *detail.
static int
s_check(const char *props, bool partial, json_t *current, json_t **row_p, char *detail)
{
    json_t *in = json_loads(props, 0, NULL);
    json_t *row = NULL;
    bus_error_t err = {0};
    int rc = gw_endpoint_rule_check(in, partial, current, &row, &err);
    snprintf(detail, BUS_ERROR_DETAIL_MAX, "%s", err.detail);
    if (row_p)
        *row_p = row;
    else
        json_decref(row);
    json_decref(in);
    return rc;
}

#define GOOD                                                                             \
    "\"metric_source\": \"KERNEL\", \"metric_name\": \"cpu_util\", \"threshold\": "      \
    "\"50.5\", \"comparator\": \"GREATER_THAN\", \"step_size\": 1, "                     \
    "\"cooldown_seconds\": 60"

static void
test_check(void)
{
    char detail[BUS_ERROR_DETAIL_MAX];
    json_t *row = NULL;
    T_EQ_INT(s_check("{" GOOD "}", false, NULL, &row, detail), BUS_OK);
    T_EQ_STR(json_string_value(json_object_get(row, "threshold")), "50.5");
    T_ASSERT(json_is_null(json_object_get(row, "min_replicas")));
    struct {
        const char *props;
        const char *says;
    } bad[] = {
        {"{" GOOD ", \"metric_source\": \"GPU\"}", "AutoScalingMetricSource"},
        {"{" GOOD ", \"comparator\": \"BIGGER\"}", "AutoScalingMetricComparator"},
        {"{" GOOD ", \"step_size\": 0}", "step_size"},
        {"{" GOOD ", \"threshold\": \"1e\"}", "Decimal"},
        {"{" GOOD ", \"threshold\": \"nan\"}", "Decimal"},
        {"{" GOOD ", \"threshold\": \"0x10\"}", "Decimal"},
        {"{" GOOD ", \"threshold\": 5}", "Decimal"},
        {"{" GOOD ", \"cooldown_seconds\": -1}", "cooldown_seconds"},
        {"{" GOOD ", \"min_replicas\": 3, \"max_replicas\": 2}", "greater than"},
        {"{" GOOD ", \"metric_name\": \"requests_per_second\"}", "metric_name"},
        {"{" GOOD ", \"max_replicas\": \"2\"}", "max_replicas"},
        {"{\"metric_source\": \"KERNEL\"}", "comparator"},
        {"[]", "props"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        T_EQ_INT(s_check(bad[i].props, false, NULL, NULL, detail), BUS_STATUS_INVALID);
        T_CONTAINS(detail, bad[i].says);
    }
    //  A change is checked against the rule it makes.
    json_object_set_new(row, "max_replicas", json_integer(2));
    T_EQ_INT(s_check("{\"min_replicas\": 3}", true, row, NULL, detail),
             BUS_STATUS_INVALID);
    T_CONTAINS(detail, "greater than");
    json_t *changed = NULL;
    T_EQ_INT(s_check("{\"min_replicas\": 1, \"max_replicas\": null}", true, row, &changed,
                     detail),
             BUS_OK);
    T_EQ_INT(json_integer_value(json_object_get(changed, "min_replicas")), 1);
    T_ASSERT(json_is_null(json_object_get(changed, "max_replicas")));
    T_EQ_STR(json_string_value(json_object_get(changed, "metric_name")), "cpu_util");
    T_EQ_INT(s_check("{\"step_size\": null}", true, row, NULL, detail),
             BUS_STATUS_INVALID);
    json_decref(changed);
    json_decref(row);
}

#define WINDOW_MS 60000
#define HOUR_MS   3600000LL
#define NOW_MS    1000000 //  the gateway's monotonic clock, at some point

//  Readings every 5 s of a kernel using half a core, stamped by an agent
//  whose clock is skew_ms off the gateway's (the gateway's monotonic clock
//  is unrelated to any wall clock anyway).
static void
s_half_core(gw_endpoint_autoscale_cpu_t *cpu, int64_t skew_ms, int64_t from_ms, int n)
{
    static const int64_t wall_ms = 1700000000000LL; //  the gateway's wall clock then
    for (int i = 0; i < n; i++) {
        int64_t at = from_ms + i * 5000;
        gw_endpoint_autoscale_cpu_add(cpu, wall_ms + at + skew_ms,
                                      (uint64_t) (at - from_ms) * 500000, at);
    }
}

static void
test_cpu_skew(void)
{
    const int64_t skews[] = {0, HOUR_MS, -HOUR_MS, 10 * WINDOW_MS, -10 * WINDOW_MS};
    for (size_t i = 0; i < sizeof skews / sizeof skews[0]; i++) {
        gw_endpoint_autoscale_cpu_t cpu = {0};
        gw_endpoint_autoscale_ring_init(&cpu.cpu, WINDOW_MS);
        //  A minute of readings ending now: 50 %, whatever the agent's clock.
        s_half_core(&cpu, skews[i], NOW_MS - WINDOW_MS + 5000, 12);
        double mean = 0;
        T_ASSERT(gw_endpoint_autoscale_cpu_mean(&cpu, NOW_MS, WINDOW_MS, &mean));
        T_ASSERT(mean > 49.9 && mean < 50.1);
        //  Two windows later, with no reading since, nothing is left in it
        //  (an agent ahead of us does not keep old samples in forever).
        T_ASSERT(!gw_endpoint_autoscale_cpu_mean(&cpu, NOW_MS + 2 * WINDOW_MS, WINDOW_MS,
                                                 &mean));
    }
    //  An agent whose clock steps back gives no sample for that pair, and
    //  the next pair counts again.
    gw_endpoint_autoscale_cpu_t cpu = {0};
    gw_endpoint_autoscale_ring_init(&cpu.cpu, WINDOW_MS);
    gw_endpoint_autoscale_cpu_add(&cpu, 10000, 0, NOW_MS);
    gw_endpoint_autoscale_cpu_add(&cpu, 5000, 1000000000, NOW_MS + 5000);
    double mean = 0;
    T_ASSERT(!gw_endpoint_autoscale_cpu_mean(&cpu, NOW_MS + 5000, WINDOW_MS, &mean));
    gw_endpoint_autoscale_cpu_add(&cpu, 6000, 2000000000, NOW_MS + 6000);
    T_ASSERT(gw_endpoint_autoscale_cpu_mean(&cpu, NOW_MS + 6000, WINDOW_MS, &mean));
    T_ASSERT(mean > 99.9 && mean < 100.1);
}

//  More readings in a window than the ring has slots: the whole window
//  still counts (an hour's window, readings every 100 ms).
static void
test_window_longer_than_ring(void)
{
    const int64_t window = HOUR_MS, step = 100;
    gw_endpoint_autoscale_cpu_t cpu = {0};
    gw_endpoint_autoscale_ring_init(&cpu.cpu, window);
    gw_endpoint_autoscale_ring_t requests;
    gw_endpoint_autoscale_ring_init(&requests, window);
    //  A full core for the first half of the hour, idle for the second;
    //  10 requests a second throughout.
    uint64_t used = 0;
    int64_t start = NOW_MS;
    for (int64_t t = 0; t <= window; t += step) {
        if (t > 0 && t <= window / 2)
            used += (uint64_t) step * 1000000;
        gw_endpoint_autoscale_cpu_add(&cpu, t, used, start + t);
        gw_endpoint_autoscale_counter_add(&requests, start + t, (double) t / 100);
    }
    double mean = 0, rate = 0;
    T_ASSERT(gw_endpoint_autoscale_cpu_mean(&cpu, start + window, window, &mean));
    T_ASSERT(mean > 49 && mean < 51);
    T_ASSERT(gw_endpoint_autoscale_rate(&requests, start + window, window, &rate));
    T_ASSERT(rate > 9.99 && rate < 10.01);
    //  The rate spans (nearly) the whole window, not the last 256 readings.
    const gw_endpoint_autoscale_slot_t *oldest = &requests.items[requests.head];
    T_ASSERT(oldest->at_ms <= start + requests.slot_ms);
    //  A restarted counter starts the readings anew.
    gw_endpoint_autoscale_counter_add(&requests, start + window + step, 1);
    T_ASSERT(
        !gw_endpoint_autoscale_rate(&requests, start + window + step, window, &rate));
}

int
main(void)
{
    T_RUN(test_holds);
    T_RUN(test_target);
    T_RUN(test_check);
    T_RUN(test_cpu_skew);
    T_RUN(test_window_longer_than_ring);
    return T_DONE();
}
