/*  =========================================================================
    sched_place_test - first fit over capacity minus the ledger

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"
#include "t.h"

#define GIB (INT64_C(1) << 30)

static void
test_first_fit(void)
{
    sched_amount_t small_cap[] = {{"cpu", 2000}, {"mem", 4 * GIB}};
    sched_amount_t small_used[] = {{"cpu", 1500}, {"mem", 1 * GIB}};
    sched_amount_t big_cap[] = {{"cpu", 8000}, {"mem", 32 * GIB}, {"cuda.device", 2000}};
    sched_candidate_t agents[] = {
        {"small", small_cap, 2, small_used, 2},
        {"big", big_cap, 3, NULL, 0},
    };
    //  Half a CPU and a GiB fit on the small agent.
    sched_amount_t half[] = {{"cpu", 500}, {"mem", GIB}};
    T_EQ_INT(sched_place_first_fit(agents, 2, half, 2), 0);
    //  One CPU does not fit there any more: the big one takes it.
    sched_amount_t one[] = {{"cpu", 1000}, {"mem", GIB}};
    T_EQ_INT(sched_place_first_fit(agents, 2, one, 2), 1);
    //  A GPU only where there is one; zero requests fit anywhere.
    sched_amount_t gpu[] = {{"cpu", 100}, {"cuda.device", 1000}};
    T_EQ_INT(sched_place_first_fit(agents, 2, gpu, 2), 1);
    sched_amount_t zero_gpu[] = {{"cpu", 100}, {"cuda.device", 0}};
    T_EQ_INT(sched_place_first_fit(agents, 2, zero_gpu, 2), 0);
    //  Nothing fits.
    sched_amount_t huge[] = {{"mem", 64 * GIB}};
    T_EQ_INT(sched_place_first_fit(agents, 2, huge, 1), -1);
    T_EQ_INT(sched_place_first_fit(agents, 0, half, 2), -1);
    //  An over-committed agent (ledger above capacity) takes nothing.
    sched_amount_t over_used[] = {{"cpu", 3000}};
    sched_candidate_t over[] = {{"over", small_cap, 2, over_used, 1}};
    T_EQ_INT(sched_place_first_fit(over, 1, half, 1), -1);
    //  Extremes do not overflow.
    sched_amount_t max_cap[] = {{"mem", INT64_MAX}};
    sched_amount_t max_used[] = {{"mem", INT64_MAX - 1}};
    sched_candidate_t edge[] = {{"edge", max_cap, 1, max_used, 1}};
    sched_amount_t two_bytes[] = {{"mem", 2}};
    T_EQ_INT(sched_place_first_fit(edge, 1, two_bytes, 1), -1);
    sched_amount_t one_byte[] = {{"mem", 1}};
    T_EQ_INT(sched_place_first_fit(edge, 1, one_byte, 1), 0);
}

int
main(void)
{
    T_RUN(test_first_fit);
    return T_DONE();
}
