/*  =========================================================================
    gw_ratelimit - the per-keypair request rate limit

    A rolling window, as Backend.AI counts it: a keypair may make at most
    its rate_limit requests in any window of auth.rate_window_s seconds
    (15 minutes by default). Each keypair keeps the arrival times of its
    last rate_limit requests in a ring; a request is refused when the oldest
    of them is still inside the window. Exact, O(1) per request, and memory
    proportional to the limit of the keypairs actually calling.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_RATELIMIT_H_INCLUDED
#define GW_RATELIMIT_H_INCLUDED

#include <stdbool.h>
#include <stdint.h>

#define GW_RATELIMIT_MAX_LIMIT 1000000 //  larger limits are treated as this

typedef struct _gw_ratelimit_t gw_ratelimit_t;

gw_ratelimit_t *gw_ratelimit_new(int window_s);

void gw_ratelimit_destroy(gw_ratelimit_t **self_p);

//  Counts one request of access_key at now_ms (monotonic) against limit
//  (<= 0: unlimited). True when allowed; *remaining is what is left in the
//  window afterwards.
bool gw_ratelimit_take(gw_ratelimit_t *self,
                       const char *access_key,
                       int limit,
                       int64_t now_ms,
                       int *remaining);

//  True when access_key has used its whole limit in the window at now_ms;
//  counts nothing.
bool gw_ratelimit_exhausted(gw_ratelimit_t *self,
                            const char *access_key,
                            int limit,
                            int64_t now_ms);

int gw_ratelimit_window_s(gw_ratelimit_t *self);

#endif
