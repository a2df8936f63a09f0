/*  =========================================================================
    gw_ratelimit_test - the rolling window counts exactly

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include "t.h"

static void
test_limit_within_window_then_recovery(void)
{
    gw_ratelimit_t *limiter = gw_ratelimit_new(900);
    int remaining;
    for (int i = 0; i < 5; i++) {
        T_ASSERT(gw_ratelimit_take(limiter, "AK1", 5, 1000 + i, &remaining));
        T_EQ_INT(remaining, 4 - i);
    }
    T_ASSERT(!gw_ratelimit_take(limiter, "AK1", 5, 2000, &remaining));
    T_EQ_INT(remaining, 0);
    //  Another keypair has its own window.
    T_ASSERT(gw_ratelimit_take(limiter, "AK2", 5, 2000, &remaining));
    //  Just before the first request leaves the window: still refused.
    T_ASSERT(!gw_ratelimit_take(limiter, "AK1", 5, 1000 + 900000 - 1, &remaining));
    //  Once it has left, exactly one slot is free.
    T_ASSERT(gw_ratelimit_take(limiter, "AK1", 5, 1000 + 900000, &remaining));
    T_EQ_INT(remaining, 0);
    T_ASSERT(!gw_ratelimit_take(limiter, "AK1", 5, 1000 + 900000, &remaining));
    //  Unlimited keypairs are never refused.
    for (int i = 0; i < 100; i++)
        T_ASSERT(gw_ratelimit_take(limiter, "AK3", 0, 5000, &remaining));
    //  A changed limit starts a new window.
    T_ASSERT(gw_ratelimit_take(limiter, "AK1", 10, 1000 + 900001, &remaining));
    T_EQ_INT(remaining, 9);
    gw_ratelimit_destroy(&limiter);
    gw_ratelimit_destroy(&limiter);
}

int
main(void)
{
    T_RUN(test_limit_within_window_then_recovery);
    return T_DONE();
}
