/*  =========================================================================
    bus_metrics_test - Prometheus text: label escaping, samples, histograms

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "t.h"
#include <math.h> //  INFINITY

//  What out holds, as a string; the buffer is emptied. Caller frees.
static char *
s_drain(struct evbuffer *out)
{
    size_t len = evbuffer_get_length(out);
    char *text = calloc(1, len + 1);
    if (text)
        evbuffer_remove(out, text, len);
    return text;
}

static void
test_label_escaping(void)
{
    char labels[BUS_METRICS_LABELS_MAX] = "";
    T_EQ_INT(bus_metrics_label(labels, sizeof labels, "group", "plain"), 0);
    T_EQ_STR(labels, "group=\"plain\"");
    //  Backslash, double quote and newline are escaped; nothing else is.
    T_EQ_INT(bus_metrics_label(labels, sizeof labels, "v", "a\\b\"c\nd{e}=,"), 0);
    T_EQ_STR(labels, "group=\"plain\",v=\"a\\\\b\\\"c\\nd{e}=,\"");
    //  An empty or missing value is an empty string.
    char empty[32] = "";
    T_EQ_INT(bus_metrics_label(empty, sizeof empty, "k", NULL), 0);
    T_EQ_STR(empty, "k=\"\"");
}

static void
test_label_that_does_not_fit(void)
{
    char labels[16] = "";
    T_EQ_INT(bus_metrics_label(labels, sizeof labels, "a", "b"), 0);
    T_EQ_STR(labels, "a=\"b\"");
    //  Too long: refused, and what was there stays as it was.
    T_EQ_INT(bus_metrics_label(labels, sizeof labels, "key", "0123456789"), -1);
    T_EQ_STR(labels, "a=\"b\"");
    //  The escape itself must fit too (a quote needs two bytes).
    char tight[8] = "";
    T_EQ_INT(bus_metrics_label(tight, sizeof tight, "k", "\"\""), -1);
    T_EQ_STR(tight, "");
    T_EQ_INT(bus_metrics_label(tight, sizeof tight, "k", "\""), 0);
    T_EQ_STR(tight, "k=\"\\\"\"");
}

static void
test_samples_and_families(void)
{
    struct evbuffer *out = evbuffer_new();
    T_ASSERT(out);
    bus_metrics_family(out, "backplane_x_total", "counter", "a\\b\nc");
    bus_metrics_sample(out, "backplane_x_total", "", 42);
    bus_metrics_sample(out, "backplane_y", "a=\"1\"", 0.25);
    bus_metrics_sample(out, "backplane_y", NULL, INFINITY);
    bus_metrics_sample(out, "backplane_y", NULL, -INFINITY);
    bus_metrics_sample(out, "backplane_y", NULL, 12345678901.0);
    char *text = s_drain(out);
    T_ASSERT(text);
    T_EQ_STR(text, "# HELP backplane_x_total a\\\\b\\nc\n"
                   "# TYPE backplane_x_total counter\n"
                   "backplane_x_total 42\n"
                   "backplane_y{a=\"1\"} 0.25\n"
                   "backplane_y +Inf\n"
                   "backplane_y -Inf\n"
                   "backplane_y 12345678901\n");
    free(text);
    evbuffer_free(out);
}

static void
test_histogram_is_cumulative(void)
{
    static const double bounds[] = {0.1, 1, 10};
    bus_metrics_hist_t hist;
    bus_metrics_hist_init(&hist, bounds, 3);
    //  On a bound counts in that bucket (le is "less than or equal").
    const double seen[] = {0.05, 0.1, 0.5, 1, 5, 50, 50};
    for (size_t i = 0; i < sizeof seen / sizeof seen[0]; i++)
        bus_metrics_hist_observe(&hist, seen[i]);
    T_EQ_INT(hist.count, 7);
    struct evbuffer *out = evbuffer_new();
    T_ASSERT(out);
    bus_metrics_hist_write(&hist, out, "backplane_d_seconds", "route=\"/x\"");
    char *text = s_drain(out);
    T_ASSERT(text);
    T_EQ_STR(text, "backplane_d_seconds_bucket{route=\"/x\",le=\"0.1\"} 2\n"
                   "backplane_d_seconds_bucket{route=\"/x\",le=\"1\"} 4\n"
                   "backplane_d_seconds_bucket{route=\"/x\",le=\"10\"} 5\n"
                   "backplane_d_seconds_bucket{route=\"/x\",le=\"+Inf\"} 7\n"
                   "backplane_d_seconds_sum{route=\"/x\"} 106.65\n"
                   "backplane_d_seconds_count{route=\"/x\"} 7\n");
    free(text);
    //  Without labels, le is the only one.
    bus_metrics_hist_init(&hist, bus_metrics_seconds_buckets,
                          BUS_METRICS_SECONDS_BUCKETS);
    bus_metrics_hist_write(&hist, out, "h", NULL);
    text = s_drain(out);
    T_ASSERT(text);
    T_CONTAINS(text, "h_bucket{le=\"0.001\"} 0\n");
    T_CONTAINS(text, "h_bucket{le=\"+Inf\"} 0\nh_sum 0\nh_count 0\n");
    free(text);
    evbuffer_free(out);
}

int
main(void)
{
    T_RUN(test_label_escaping);
    T_RUN(test_label_that_does_not_fit);
    T_RUN(test_samples_and_families);
    T_RUN(test_histogram_is_cumulative);
    return T_DONE();
}
