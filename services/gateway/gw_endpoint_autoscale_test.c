/*  =========================================================================
    gw_endpoint_autoscale_test - autoscaling rules' checks, comparisons and
    the replicas a step moves to, without I/O

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

int
main(void)
{
    T_RUN(test_holds);
    T_RUN(test_target);
    T_RUN(test_check);
    return T_DONE();
}
