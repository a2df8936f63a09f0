/*  =========================================================================
    bus_metrics - writing Prometheus text: samples, escaped labels, histograms

    The format is Prometheus's text exposition format 0.0.4: a label value
    is a double-quoted string in which backslash, double quote and newline
    are escaped; a help text escapes backslash and newline.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include <math.h> //  isnan, isinf, floor for sample values

const double bus_metrics_seconds_buckets[BUS_METRICS_SECONDS_BUCKETS] = {
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
    0.05,   0.1,     0.25,   0.5,   1,      2.5,   10};

int
bus_metrics_label(char *labels, size_t size, const char *key, const char *value)
{
    assert(labels && size && key);
    size_t used = strlen(labels);
    size_t at = used;
    //  Written in place; given back when it does not fit.
    const char *lead = used ? "," : "";
    int n = snprintf(labels + at, size - at, "%s%s=\"", lead, key);
    if (n < 0 || (size_t) n >= size - at)
        goto full;
    at += (size_t) n;
    for (const char *p = value ? value : ""; *p; p++) {
        const char *escaped = NULL;
        if (*p == '\\')
            escaped = "\\\\";
        else if (*p == '"')
            escaped = "\\\"";
        else if (*p == '\n')
            escaped = "\\n";
        size_t len = escaped ? 2 : 1;
        if (at + len >= size)
            goto full;
        if (escaped)
            memcpy(labels + at, escaped, 2);
        else
            labels[at] = *p;
        at += len;
    }
    if (at + 1 >= size)
        goto full;
    labels[at++] = '"';
    labels[at] = 0;
    return 0;
full:
    labels[used] = 0;
    return -1;
}

void
bus_metrics_family(struct evbuffer *out,
                   const char *name,
                   const char *type,
                   const char *help)
{
    assert(out && name && type && help);
    evbuffer_add_printf(out, "# HELP %s ", name);
    for (const char *p = help; *p; p++) {
        if (*p == '\\')
            evbuffer_add(out, "\\\\", 2);
        else if (*p == '\n')
            evbuffer_add(out, "\\n", 2);
        else
            evbuffer_add(out, p, 1);
    }
    evbuffer_add_printf(out, "\n# TYPE %s %s\n", name, type);
}

//  A sample value as the format writes it.
static void
s_write_value(struct evbuffer *out, double value)
{
    if (isnan(value))
        evbuffer_add_printf(out, "NaN\n");
    else if (isinf(value))
        evbuffer_add_printf(out, "%s\n", value > 0 ? "+Inf" : "-Inf");
    else if (value == floor(value) && fabs(value) < 1e15)
        evbuffer_add_printf(out, "%.0f\n", value);
    else
        evbuffer_add_printf(out, "%.9g\n", value);
}

void
bus_metrics_sample(struct evbuffer *out,
                   const char *name,
                   const char *labels,
                   double value)
{
    assert(out && name);
    if (labels && *labels)
        evbuffer_add_printf(out, "%s{%s} ", name, labels);
    else
        evbuffer_add_printf(out, "%s ", name);
    s_write_value(out, value);
}

void
bus_metrics_hist_init(bus_metrics_hist_t *self, const double *bounds, size_t bound_count)
{
    assert(self && bounds && bound_count <= BUS_METRICS_BUCKETS_MAX);
    memset(self, 0, sizeof *self);
    self->bounds = bounds;
    self->bound_count = bound_count;
}

void
bus_metrics_hist_observe(bus_metrics_hist_t *self, double value)
{
    assert(self);
    size_t i = 0;
    while (i < self->bound_count && value > self->bounds[i])
        i++;
    self->counts[i]++;
    self->count++;
    self->sum += value;
}

void
bus_metrics_hist_write(const bus_metrics_hist_t *self,
                       struct evbuffer *out,
                       const char *name,
                       const char *labels)
{
    assert(self && out && name);
    const char *sep = labels && *labels ? "," : "";
    const char *set = labels ? labels : "";
    uint64_t cumulative = 0;
    for (size_t i = 0; i <= self->bound_count; i++) {
        cumulative += self->counts[i];
        if (i < self->bound_count)
            evbuffer_add_printf(out, "%s_bucket{%s%sle=\"%g\"} %" PRIu64 "\n", name, set,
                                sep, self->bounds[i], cumulative);
        else
            evbuffer_add_printf(out, "%s_bucket{%s%sle=\"+Inf\"} %" PRIu64 "\n", name,
                                set, sep, cumulative);
    }
    char sample[BUS_METRICS_LABELS_MAX];
    snprintf(sample, sizeof sample, "%s_sum", name);
    bus_metrics_sample(out, sample, set, self->sum);
    snprintf(sample, sizeof sample, "%s_count", name);
    bus_metrics_sample(out, sample, set, (double) self->count);
}
