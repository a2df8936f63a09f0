/*  =========================================================================
    acct_record - one kernel's usage record and its arithmetic

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "acct_classes.h"

#define US_PER_S  1e6
#define NS_PER_MS 1e6

void
acct_record_init(acct_record_t *self, const char *kernel_id, int64_t at)
{
    assert(self && kernel_id);
    memset(self, 0, sizeof *self);
    snprintf(self->kernel_id, sizeof self->kernel_id, "%s", kernel_id);
    snprintf(self->status, sizeof self->status, "PENDING");
    snprintf(self->slots, sizeof self->slots, "{}");
    self->created_at = at;
    self->ended_at = ACCT_OPEN;
}

//  What a cumulative counter added since last: a counter that went down
//  restarted from zero (the container was restarted in place).
static uint64_t
s_delta(uint64_t now, uint64_t last)
{
    return now >= last ? now - last : now;
}

bool
acct_record_sample(acct_record_t *self,
                   const acct_sample_t *sample,
                   bool final,
                   acct_delta_t *delta)
{
    assert(self && sample && delta);
    memset(delta, 0, sizeof *delta);
    if (self->final)
        return false; //  the final counters are in: nothing moves any more
    if (!final && sample->at <= self->last.at)
        return false; //  out of order, or the same sample again
    if (!final && self->ended_at != ACCT_OPEN && sample->at > self->ended_at)
        return false; //  after the end
    //  The interval this sample closes: from the last sample, else from the
    //  start, else it is the first and covers nothing.
    int64_t since = self->last.at      ? self->last.at
                    : self->started_at ? self->started_at
                                       : sample->at;
    int64_t dt_us = sample->at > since ? sample->at - since : 0;
    delta->at = sample->at > self->last.at ? sample->at : self->last.at;
    if (final) {
        //  The final read is taken after the last sample: a counter lower
        //  than the last seen is a late read, not a restart.
        delta->cpu_ns = sample->cpu_used_ns > self->last.cpu_used_ns
                            ? sample->cpu_used_ns - self->last.cpu_used_ns
                            : 0;
        delta->io_read = sample->io_read_bytes > self->last.io_read_bytes
                             ? sample->io_read_bytes - self->last.io_read_bytes
                             : 0;
        delta->io_write = sample->io_write_bytes > self->last.io_write_bytes
                              ? sample->io_write_bytes - self->last.io_write_bytes
                              : 0;
        delta->net_rx = sample->net_rx_bytes > self->last.net_rx_bytes
                            ? sample->net_rx_bytes - self->last.net_rx_bytes
                            : 0;
        delta->net_tx = sample->net_tx_bytes > self->last.net_tx_bytes
                            ? sample->net_tx_bytes - self->last.net_tx_bytes
                            : 0;
        //  The memory in use until the end is the last one seen.
        delta->mem_byte_s = (double) self->last.mem_bytes * (double) dt_us / US_PER_S;
    } else {
        delta->cpu_ns = s_delta(sample->cpu_used_ns, self->last.cpu_used_ns);
        delta->io_read = s_delta(sample->io_read_bytes, self->last.io_read_bytes);
        delta->io_write = s_delta(sample->io_write_bytes, self->last.io_write_bytes);
        delta->net_rx = s_delta(sample->net_rx_bytes, self->last.net_rx_bytes);
        delta->net_tx = s_delta(sample->net_tx_bytes, self->last.net_tx_bytes);
        delta->mem_byte_s = (double) sample->mem_bytes * (double) dt_us / US_PER_S;
    }
    self->cpu_ns += delta->cpu_ns;
    self->io_read += delta->io_read;
    self->io_write += delta->io_write;
    self->net_rx += delta->net_rx;
    self->net_tx += delta->net_tx;
    self->mem_byte_s += delta->mem_byte_s;
    self->samples++;
    if (dt_us > 0) {
        //  ns per µs is msec per second: 1000 for a fully busy core.
        self->cpu_util = (double) delta->cpu_ns / (double) dt_us;
        if (self->cpu_util > self->cpu_util_max)
            self->cpu_util_max = self->cpu_util;
        double dt_s = (double) dt_us / US_PER_S;
        self->io_read_rate = (double) delta->io_read / dt_s;
        self->io_write_rate = (double) delta->io_write / dt_s;
        self->net_rx_rate = (double) delta->net_rx / dt_s;
        self->net_tx_rate = (double) delta->net_tx / dt_s;
        //  The GPU use now held since the last sample (or the start).
        if (!final)
            self->cuda_util_s += (double) sample->cuda_util_pct * dt_s;
    }
    if (!final && sample->cuda_mem_bytes > self->cuda_mem_max)
        self->cuda_mem_max = sample->cuda_mem_bytes;
    if (!final && (double) sample->cuda_util_pct > self->cuda_util_max)
        self->cuda_util_max = (double) sample->cuda_util_pct;
    uint64_t peak = sample->mem_peak_bytes > sample->mem_bytes ? sample->mem_peak_bytes
                                                               : sample->mem_bytes;
    if (peak > self->mem_peak_bytes)
        self->mem_peak_bytes = peak;
    acct_sample_t last = *sample;
    last.at = delta->at;
    if (final) {
        //  Keep the live figures of the last sample where the final read
        //  has none (memory in use, its limit, the processes).
        last.mem_bytes = self->last.mem_bytes;
        last.mem_limit_bytes = self->last.mem_limit_bytes;
        last.pids = 0;
        last.cuda_devices = self->last.cuda_devices;
        last.cuda_mem_bytes = self->last.cuda_mem_bytes;
        last.cuda_mem_total_bytes = self->last.cuda_mem_total_bytes;
        last.cuda_util_pct = self->last.cuda_util_pct;
        if (last.cpu_used_ns < self->last.cpu_used_ns)
            last.cpu_used_ns = self->last.cpu_used_ns;
    }
    self->last = last;
    self->final = final;
    return true;
}

//  Whether name ends with suffix.
static bool
s_ends_with(const char *name, const char *suffix)
{
    size_t n = strlen(name), s = strlen(suffix);
    return n >= s && strcmp(name + n - s, suffix) == 0;
}

int
acct_record_set_slots(acct_record_t *self, const proto_kv_t *slots, size_t count)
{
    assert(self);
    json_t *object = json_object();
    if (!object)
        return -1;
    double cpu = 0, mem = 0, device = 0, share = 0;
    for (size_t i = 0; i < count; i++) {
        const char *name = slots[i].key, *value = slots[i].value;
        if (!name || !value)
            continue;
        json_object_set_new(object, name, json_string(value));
        char *end = NULL;
        double amount = strtod(value, &end);
        if (end == value || !isfinite(amount) || amount < 0)
            continue; //  "Infinity" or junk holds nothing countable
        if (strcmp(name, "cpu") == 0)
            cpu += amount;
        else if (strcmp(name, "mem") == 0)
            mem += amount;
        else if (s_ends_with(name, ".device") || s_ends_with(name, ".devices"))
            device += amount;
        else if (s_ends_with(name, ".shares"))
            share += amount;
    }
    char *text = json_dumps(object, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(object);
    if (!text || strlen(text) >= sizeof self->slots) {
        free(text);
        return -1;
    }
    snprintf(self->slots, sizeof self->slots, "%s", text);
    free(text);
    self->cpu = cpu;
    self->mem = mem;
    self->accel_device = device;
    self->accel_share = share;
    return 0;
}

//  The record's life as [start, end), a running one up to now. False when
//  it never started.
static bool
s_life(const acct_record_t *self, int64_t now, int64_t *start, int64_t *end)
{
    if (self->started_at <= 0)
        return false;
    *start = self->started_at;
    *end = self->ended_at == ACCT_OPEN ? now : self->ended_at;
    return *end > *start;
}

double
acct_record_held_s(const acct_record_t *self, int64_t from, int64_t to, int64_t now)
{
    assert(self);
    int64_t start, end;
    if (!s_life(self, now, &start, &end))
        return 0;
    int64_t a = start > from ? start : from, b = end < to ? end : to;
    return b > a ? (double) (b - a) / US_PER_S : 0;
}

bool
acct_record_inside(const acct_record_t *self, int64_t from, int64_t to, int64_t now)
{
    assert(self);
    int64_t start, end;
    if (!s_life(self, now, &start, &end))
        return self->created_at >= from && self->created_at < to;
    //  Samples may come a little after the end the scheduler saw: the last
    //  sample's time counts as part of the life.
    if (self->last.at > end)
        end = self->last.at;
    return start >= from && end <= to;
}

//  A metric value as Backend.AI writes it: a decimal string with at most
//  three places, no trailing zeros, no exponent.
static json_t *
s_decimal(double value)
{
    char text[64];
    snprintf(text, sizeof text, "%.3f", value);
    char *dot = strchr(text, '.');
    if (dot) {
        char *end = text + strlen(text) - 1;
        while (end > dot && *end == '0')
            *end-- = '\0';
        if (end == dot)
            *end = '\0';
    }
    if (strcmp(text, "-0") == 0)
        snprintf(text, sizeof text, "0");
    return json_string(text);
}

//  One metric object: current, capacity (<= 0: null), pct, unit_hint.
static json_t *
s_metric(double current, double capacity, const char *unit)
{
    char pct[32];
    snprintf(pct, sizeof pct, "%.2f",
             capacity > 0 && isfinite(capacity) ? current / capacity * 100.0 : 0.0);
    json_t *metric = json_object();
    json_object_set_new(metric, "current", s_decimal(current));
    json_object_set_new(metric, "capacity",
                        capacity > 0 ? s_decimal(capacity) : json_null());
    json_object_set_new(metric, "pct", json_string(pct));
    json_object_set_new(metric, "unit_hint", json_string(unit));
    return metric;
}

char *
acct_record_stat_json(const acct_record_t *self)
{
    assert(self);
    if (self->samples == 0)
        return NULL;
    json_t *stat = json_object();
    json_t *cpu_util = s_metric(self->cpu_util, 1000, "percent");
    double life_s = self->started_at > 0 && self->last.at > self->started_at
                        ? (double) (self->last.at - self->started_at) / US_PER_S
                        : 0;
    json_object_set_new(cpu_util, "stats.avg",
                        s_decimal(life_s > 0 ? (double) self->cpu_ns / NS_PER_MS / life_s
                                             : self->cpu_util));
    json_object_set_new(cpu_util, "stats.max", s_decimal(self->cpu_util_max));
    json_object_set_new(stat, "cpu_util", cpu_util);
    json_object_set_new(stat, "cpu_used",
                        s_metric((double) self->cpu_ns / NS_PER_MS, 0, "msec"));
    json_t *mem = s_metric((double) self->last.mem_bytes,
                           (double) self->last.mem_limit_bytes, "bytes");
    json_object_set_new(mem, "stats.max", s_decimal((double) self->mem_peak_bytes));
    json_object_set_new(stat, "mem", mem);
    //  As Backend.AI's intrinsic plugin: block I/O is the cumulative bytes
    //  with their rate, the network its rate alone (bps, bytes per second).
    json_t *io_read = s_metric((double) self->io_read, 0, "bytes");
    json_object_set_new(io_read, "stats.rate", s_decimal(self->io_read_rate));
    json_object_set_new(stat, "io_read", io_read);
    json_t *io_write = s_metric((double) self->io_write, 0, "bytes");
    json_object_set_new(io_write, "stats.rate", s_decimal(self->io_write_rate));
    json_object_set_new(stat, "io_write", io_write);
    json_object_set_new(stat, "net_rx", s_metric(self->net_rx_rate, 0, "bps"));
    json_object_set_new(stat, "net_tx", s_metric(self->net_tx_rate, 0, "bps"));
    if (self->last.cuda_devices > 0) {
        json_t *cuda_mem = s_metric((double) self->last.cuda_mem_bytes,
                                    (double) self->last.cuda_mem_total_bytes, "bytes");
        json_object_set_new(cuda_mem, "stats.max",
                            s_decimal((double) self->cuda_mem_max));
        json_object_set_new(stat, "cuda_mem", cuda_mem);
        json_t *cuda_util = s_metric((double) self->last.cuda_util_pct,
                                     100.0 * (double) self->last.cuda_devices, "percent");
        json_object_set_new(cuda_util, "stats.avg",
                            s_decimal(life_s > 0 ? self->cuda_util_s / life_s
                                                 : (double) self->last.cuda_util_pct));
        json_object_set_new(cuda_util, "stats.max", s_decimal(self->cuda_util_max));
        json_object_set_new(stat, "cuda_util", cuda_util);
    }
    char *text = json_dumps(stat, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(stat);
    return text;
}
