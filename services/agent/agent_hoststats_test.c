/*  =========================================================================
    agent_hoststats_test - the host's CPU and memory figures

    The parsers on /proc texts written out (a kernel without MemAvailable
    included), and two real readings of this machine: plausible figures,
    busy time never beyond the interval.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include "t.h"

static void
test_parse_cpu(void)
{
    const char *text = "cpu  100 1 50 900 10 2 3 4 0 0\n"
                       "cpu0 60 1 20 400 5 1 2 3 0 0\n"
                       "cpu1 40 0 30 500 5 1 1 1 0 0\n"
                       "intr 12345 0 0\n"
                       "ctxt 999\n";
    uint64_t busy[4] = {0};
    T_EQ_INT(agent_hoststats_parse_cpu(text, busy, 4), 2);
    T_EQ_INT(busy[0], 60 + 1 + 20 + 1 + 2 + 3); //  idle and iowait left out
    T_EQ_INT(busy[1], 40 + 0 + 30 + 1 + 1 + 1);
    T_EQ_INT(agent_hoststats_parse_cpu(text, busy, 1), 1);
    T_EQ_INT(agent_hoststats_parse_cpu("intr 1\n", busy, 4), -1);
}

static void
test_parse_mem(void)
{
    uint64_t used = 0, total = 0;
    T_EQ_INT(agent_hoststats_parse_mem("MemTotal:       1000 kB\n"
                                       "MemFree:         100 kB\n"
                                       "MemAvailable:    600 kB\n",
                                       &used, &total),
             0);
    T_EQ_INT(total, 1000 * 1024);
    T_EQ_INT(used, 400 * 1024);
    //  An old kernel: free + buffers + cached.
    T_EQ_INT(agent_hoststats_parse_mem("MemTotal: 1000 kB\nMemFree: 100 kB\n"
                                       "Buffers: 50 kB\nCached: 250 kB\n",
                                       &used, &total),
             0);
    T_EQ_INT(used, 600 * 1024);
    T_EQ_INT(agent_hoststats_parse_mem("MemFree: 100 kB\n", &used, &total), -1);
}

static void
test_take(void)
{
    agent_hoststats_t *stats = agent_hoststats_new();
    T_ASSERT(stats);
    agent_hoststats_sample_t sample;
    int64_t start = zclock_mono();
    T_EQ_INT(agent_hoststats_take(stats, start, &sample), 0);
    T_EQ_INT(sample.interval_ms, 0);
    T_ASSERT(sample.cores >= 1);
    T_ASSERT(sample.mem_total_bytes > 0);
    T_ASSERT(sample.mem_used_bytes > 0 && sample.mem_used_bytes < sample.mem_total_bytes);
    //  Keep one CPU busy for a while.
    volatile uint64_t spin = 0;
    while (zclock_mono() - start < 300)
        spin++;
    int64_t now = zclock_mono();
    T_EQ_INT(agent_hoststats_take(stats, now, &sample), 0);
    T_EQ_INT(sample.interval_ms, (uint64_t) (now - start));
    uint64_t busy = 0;
    for (size_t i = 0; i < sample.cores; i++) {
        T_ASSERT(sample.busy_ms[i] <= sample.interval_ms);
        busy += sample.busy_ms[i];
    }
    T_ASSERT(busy > 0);
    agent_hoststats_destroy(&stats);
    agent_hoststats_destroy(&stats);
    T_ASSERT(!stats);
}

int
main(void)
{
    T_RUN(test_parse_cpu);
    T_RUN(test_parse_mem);
    T_RUN(test_take);
    return T_DONE();
}
