/*  =========================================================================
    gw_when - when a batch session may start (starts_at), as users write it

    Backend.AI accepts an absolute time in ISO 8601 or a delay from now:
      2026-11-21T18:30:00Z, 2026-11-21T18:30:00.5+09:00, 2026-11-21 18:30:00
        (no zone: UTC)
      1h, 30m, 45s, 2d, 1d12h, 1h30m15s  (days, hours, minutes, seconds,
        each a whole number, in that order; an optional leading +)
    Pure; every malformed text is an error naming what was expected.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_WHEN_H_INCLUDED
#define GW_WHEN_H_INCLUDED

#include <stdint.h>
#include "bus_status.h"

//  Parses text (at most 64 bytes) into *at_us, microseconds since the
//  epoch, relative ones from now_us. BUS_OK or INVALID with err.
int gw_when_parse(const char *text, int64_t now_us, int64_t *at_us, bus_error_t *err);

#endif
