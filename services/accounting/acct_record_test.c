/*  =========================================================================
    acct_record_test - the record arithmetic: deltas, out-of-order and late
    samples, counter restarts, final counters, allocation-time in a window,
    the metric object

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "acct_classes.h"
#include "t.h"

#define S 1000000LL //  µs per second

static acct_sample_t
s_sample(int64_t at, uint64_t cpu_ns, uint64_t mem, uint64_t io_read)
{
    return (acct_sample_t){.at = at,
                           .cpu_used_ns = cpu_ns,
                           .mem_bytes = mem,
                           .mem_peak_bytes = mem,
                           .mem_limit_bytes = 1000,
                           .io_read_bytes = io_read};
}

static void
test_deltas_add_up(void)
{
    acct_record_t r;
    acct_record_init(&r, "k1", 100 * S);
    r.started_at = 100 * S;
    acct_delta_t d;
    acct_sample_t a = s_sample(105 * S, 5000000000ULL, 100, 10);
    T_ASSERT(acct_record_sample(&r, &a, false, &d));
    T_EQ_INT(d.cpu_ns, 5000000000ULL);
    T_ASSERT(fabs(d.mem_byte_s - 500.0) < 1e-9); //  100 bytes for 5 s
    T_ASSERT(fabs(r.cpu_util - 1000.0) < 1e-9);  //  one busy core
    acct_sample_t b = s_sample(110 * S, 7500000000ULL, 200, 30);
    T_ASSERT(acct_record_sample(&r, &b, false, &d));
    T_EQ_INT(d.cpu_ns, 2500000000ULL);
    T_EQ_INT(d.io_read, 20);
    T_EQ_INT(r.cpu_ns, 7500000000ULL);
    T_EQ_INT(r.io_read, 30);
    T_ASSERT(fabs(r.mem_byte_s - 1500.0) < 1e-9);
    T_EQ_INT(r.mem_peak_bytes, 200);
    T_EQ_INT(r.samples, 2);
}

static void
test_out_of_order_and_repeated_samples_are_skipped(void)
{
    acct_record_t r;
    acct_record_init(&r, "k1", 0);
    r.started_at = 100 * S;
    acct_delta_t d;
    acct_sample_t late = s_sample(110 * S, 9000000000ULL, 100, 0);
    acct_sample_t early = s_sample(105 * S, 4000000000ULL, 100, 0);
    T_ASSERT(acct_record_sample(&r, &late, false, &d));
    T_ASSERT(!acct_record_sample(&r, &early, false, &d)); //  older: skipped
    T_ASSERT(!acct_record_sample(&r, &late, false, &d));  //  the same again
    T_EQ_INT(r.cpu_ns, 9000000000ULL);                    //  never backwards
    T_EQ_INT(r.samples, 1);
}

static void
test_counter_restart_counts_from_zero(void)
{
    acct_record_t r;
    acct_record_init(&r, "k1", 0);
    r.started_at = 100 * S;
    acct_delta_t d;
    acct_sample_t a = s_sample(105 * S, 8000000000ULL, 100, 0);
    acct_sample_t b = s_sample(110 * S, 1000000000ULL, 100, 0); //  restarted in place
    T_ASSERT(acct_record_sample(&r, &a, false, &d));
    T_ASSERT(acct_record_sample(&r, &b, false, &d));
    T_EQ_INT(d.cpu_ns, 1000000000ULL);
    T_EQ_INT(r.cpu_ns, 9000000000ULL);
}

static void
test_final_counters_close_the_record(void)
{
    acct_record_t r;
    acct_record_init(&r, "k1", 0);
    r.started_at = 100 * S;
    acct_delta_t d;
    acct_sample_t a = s_sample(105 * S, 5000000000ULL, 100, 0);
    T_ASSERT(acct_record_sample(&r, &a, false, &d));
    //  The final read, even if its time is not newer, adds what is new.
    acct_sample_t final = s_sample(105 * S, 6000000000ULL, 0, 0);
    T_ASSERT(acct_record_sample(&r, &final, true, &d));
    T_EQ_INT(d.cpu_ns, 1000000000ULL);
    T_ASSERT(r.final);
    //  Nothing moves after it, a sample from before or after.
    acct_sample_t after = s_sample(200 * S, 9000000000ULL, 100, 0);
    T_ASSERT(!acct_record_sample(&r, &after, false, &d));
    T_ASSERT(!acct_record_sample(&r, &final, true, &d));
    T_EQ_INT(r.cpu_ns, 6000000000ULL);
    T_EQ_INT(r.last.mem_bytes, 100); //  the live figure of the last sample stays
}

static void
test_sample_after_the_end_is_skipped(void)
{
    acct_record_t r;
    acct_record_init(&r, "k1", 0);
    r.started_at = 100 * S;
    r.ended_at = 150 * S;
    acct_delta_t d;
    acct_sample_t after = s_sample(151 * S, 1, 1, 1);
    T_ASSERT(!acct_record_sample(&r, &after, false, &d));
    acct_sample_t before = s_sample(149 * S, 1, 1, 1);
    T_ASSERT(acct_record_sample(&r, &before, false, &d));
}

static void
test_held_in_a_window(void)
{
    acct_record_t r;
    acct_record_init(&r, "k1", 0);
    proto_kv_t slots[] = {{"cpu", "2"},
                          {"mem", "1073741824"},
                          {"cuda.device", "1"},
                          {"cuda.shares", "0.5"}};
    T_EQ_INT(acct_record_set_slots(&r, slots, 4), 0);
    T_ASSERT(r.cpu == 2 && r.mem == 1073741824.0 && r.accel_device == 1 &&
             r.accel_share == 0.5);
    T_CONTAINS(r.slots, "\"cuda.shares\":\"0.5\"");
    T_ASSERT(acct_record_held_s(&r, 0, 1000 * S, 500 * S) == 0); //  never started
    r.started_at = 100 * S;
    //  Running: up to now, clipped to the window.
    T_ASSERT(acct_record_held_s(&r, 0, 1000 * S, 160 * S) == 60);
    T_ASSERT(acct_record_held_s(&r, 120 * S, 1000 * S, 160 * S) == 40);
    r.ended_at = 200 * S;
    T_ASSERT(acct_record_held_s(&r, 0, 150 * S, 999 * S) == 50);
    T_ASSERT(acct_record_held_s(&r, 200 * S, 300 * S, 999 * S) == 0);
    T_ASSERT(acct_record_inside(&r, 100 * S, 200 * S, 999 * S));
    T_ASSERT(!acct_record_inside(&r, 101 * S, 300 * S, 999 * S));
}

static void
test_metric_object(void)
{
    acct_record_t r;
    acct_record_init(&r, "k1", 0);
    T_ASSERT(acct_record_stat_json(&r) == NULL); //  no sample: null in GraphQL
    r.started_at = 100 * S;
    acct_delta_t d;
    acct_sample_t a = s_sample(110 * S, 5000000000ULL, 250, 7);
    T_ASSERT(acct_record_sample(&r, &a, false, &d));
    char *json = acct_record_stat_json(&r);
    T_ASSERT(json);
    T_CONTAINS(json, "\"cpu_util\":{\"capacity\":\"1000\",\"current\":\"500\",\"pct\":"
                     "\"50.00\",\"stats.avg\":\"500\",\"stats.max\":\"500\","
                     "\"unit_hint\":\"percent\"}");
    T_CONTAINS(json,
               "\"cpu_used\":{\"capacity\":null,\"current\":\"5000\",\"pct\":\"0.00\"");
    T_CONTAINS(json,
               "\"mem\":{\"capacity\":\"1000\",\"current\":\"250\",\"pct\":\"25.00\"");
    T_CONTAINS(json, "\"io_read\":{\"capacity\":null,\"current\":\"7\",\"pct\":"
                     "\"0.00\",\"stats.rate\":\"0.7\",\"unit_hint\":\"bytes\"}");
    free(json);
    //  The network as Backend.AI shows it: bytes per second of the last
    //  interval, in bps; the block I/O cumulative with its rate.
    acct_sample_t b = s_sample(112 * S, 6000000000ULL, 250, 7);
    b.io_write_bytes = 4000;
    b.net_rx_bytes = 3000;
    b.net_tx_bytes = 500;
    T_ASSERT(acct_record_sample(&r, &b, false, &d));
    json = acct_record_stat_json(&r);
    T_ASSERT(json);
    T_CONTAINS(json, "\"io_write\":{\"capacity\":null,\"current\":\"4000\",\"pct\":"
                     "\"0.00\",\"stats.rate\":\"2000\",\"unit_hint\":\"bytes\"}");
    T_CONTAINS(json, "\"io_read\":{\"capacity\":null,\"current\":\"7\",\"pct\":"
                     "\"0.00\",\"stats.rate\":\"0\"");
    T_CONTAINS(json, "\"net_rx\":{\"capacity\":null,\"current\":\"1500\",\"pct\":"
                     "\"0.00\",\"unit_hint\":\"bps\"}");
    T_CONTAINS(json, "\"net_tx\":{\"capacity\":null,\"current\":\"250\"");
    free(json);
}

//  GPU figures: absent without GPUs; with them cuda_mem against the GPUs'
//  memory and cuda_util against 100 per GPU, their maxima and the average
//  over the life; the final counters keep the last ones.
static void
test_cuda_metrics(void)
{
    acct_record_t r;
    acct_record_init(&r, "k1", 0);
    r.started_at = 100 * S;
    acct_delta_t d;
    acct_sample_t a = s_sample(110 * S, 1000, 10, 0);
    T_ASSERT(acct_record_sample(&r, &a, false, &d));
    char *json = acct_record_stat_json(&r);
    T_ASSERT(json && !strstr(json, "cuda"));
    free(json);
    acct_sample_t b = s_sample(120 * S, 2000, 10, 0);
    b.cuda_devices = 2;
    b.cuda_mem_bytes = 3000;
    b.cuda_mem_total_bytes = 8000;
    b.cuda_util_pct = 150;
    T_ASSERT(acct_record_sample(&r, &b, false, &d));
    acct_sample_t c = s_sample(140 * S, 3000, 10, 0);
    c.cuda_devices = 2;
    c.cuda_mem_bytes = 1000;
    c.cuda_mem_total_bytes = 8000;
    c.cuda_util_pct = 50;
    T_ASSERT(acct_record_sample(&r, &c, false, &d));
    json = acct_record_stat_json(&r);
    T_ASSERT(json);
    T_CONTAINS(json, "\"cuda_mem\":{\"capacity\":\"8000\",\"current\":\"1000\",\"pct\":"
                     "\"12.50\",\"stats.max\":\"3000\",\"unit_hint\":\"bytes\"}");
    //  150% for 10 s and 50% for 20 s over 40 s of life: 62.5 on average.
    T_CONTAINS(json, "\"cuda_util\":{\"capacity\":\"200\",\"current\":\"50\",\"pct\":"
                     "\"25.00\",\"stats.avg\":\"62.5\",\"stats.max\":\"150\","
                     "\"unit_hint\":\"percent\"}");
    free(json);
    acct_sample_t end = {.at = 150 * S, .cpu_used_ns = 3000};
    T_ASSERT(acct_record_sample(&r, &end, true, &d));
    json = acct_record_stat_json(&r);
    T_CONTAINS(json, "\"cuda_mem\":{\"capacity\":\"8000\",\"current\":\"1000\"");
    free(json);
}

int
main(void)
{
    T_RUN(test_deltas_add_up);
    T_RUN(test_out_of_order_and_repeated_samples_are_skipped);
    T_RUN(test_counter_restart_counts_from_zero);
    T_RUN(test_final_counters_close_the_record);
    T_RUN(test_sample_after_the_end_is_skipped);
    T_RUN(test_held_in_a_window);
    T_RUN(test_metric_object);
    T_RUN(test_cuda_metrics);
    return T_DONE();
}
