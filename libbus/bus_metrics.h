/*  =========================================================================
    bus_metrics - writing Prometheus text: samples, escaped labels, histograms

    Every service's /metrics body (bus_node_set_metrics) is Prometheus's text
    format 0.0.4. This module writes its pieces the same way everywhere: a
    family's # HELP and # TYPE lines, one sample with its label set, and a
    histogram's cumulative _bucket{le=...} lines ending with le="+Inf", then
    _sum and _count. Label values are escaped here (backslash, double quote,
    newline), so a resource group or a volume name cannot break the format.
    Pure code over an evbuffer; no state of its own.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_METRICS_H_INCLUDED
#define BUS_METRICS_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct evbuffer;

#define BUS_METRICS_BUCKETS_MAX 16  //  finite bucket bounds of a histogram at most
#define BUS_METRICS_LABELS_MAX  512 //  a label set, as written between the braces

//  Bucket bounds in seconds for request and pass durations: 100 µs to 10 s.
extern const double bus_metrics_seconds_buckets[];
#define BUS_METRICS_SECONDS_BUCKETS 15

//  A histogram of observations (seconds, usually). bounds are ascending
//  and borrowed (a static table); counts[i] holds the observations that
//  fell in bucket i alone (not cumulative), counts[bound_count] those above
//  the last bound.
typedef struct {
    const double *bounds;
    size_t bound_count;
    uint64_t counts[BUS_METRICS_BUCKETS_MAX + 1];
    uint64_t count;
    double sum;
} bus_metrics_hist_t;

//  ---------------------------------------------------------------------------
//  Appends key="value" to the label set in labels (size bytes, NUL-
//  terminated, "" for none), with a comma when it is not empty and value
//  escaped. 0, or -1 when it does not fit (labels is then unchanged).
int bus_metrics_label(char *labels, size_t size, const char *key, const char *value);

//  ---------------------------------------------------------------------------
//  Writes a family's "# HELP name help" and "# TYPE name type" lines; type
//  is "counter", "gauge" or "histogram". Once per family, before its samples.
void bus_metrics_family(struct evbuffer *out,
                        const char *name,
                        const char *type,
                        const char *help);

//  ---------------------------------------------------------------------------
//  Writes one sample: "name{labels} value" (no braces when labels is NULL
//  or ""). labels must come from bus_metrics_label. Whole numbers are
//  written without a fraction; infinities as +Inf and -Inf, NaN as NaN.
void bus_metrics_sample(struct evbuffer *out,
                        const char *name,
                        const char *labels,
                        double value);

//  ---------------------------------------------------------------------------
//  Starts an empty histogram over bounds (bound_count of them, at most
//  BUS_METRICS_BUCKETS_MAX, ascending).
void
bus_metrics_hist_init(bus_metrics_hist_t *self, const double *bounds, size_t bound_count);

//  Counts one observation.
void bus_metrics_hist_observe(bus_metrics_hist_t *self, double value);

//  Writes the histogram's samples (not its family lines): name_bucket with
//  labels plus le, cumulative, the last one le="+Inf" equal to name_count,
//  then name_sum and name_count.
void bus_metrics_hist_write(const bus_metrics_hist_t *self,
                            struct evbuffer *out,
                            const char *name,
                            const char *labels);

#endif
