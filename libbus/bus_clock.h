/*  =========================================================================
    bus_clock - the two clocks: monotonic milliseconds for timeouts and
    wall-clock microseconds for event timestamps. Tests may inject a fake
    wall clock (skew, expiry) with bus_clock_set_wall_source.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_CLOCK_H_INCLUDED
#define BUS_CLOCK_H_INCLUDED

#include <stdint.h>

//  Monotonic time in milliseconds: for deadlines and timers only.
int64_t bus_clock_mono_ms(void);
//  The same in microseconds, for timing the steps of one operation.
int64_t bus_clock_mono_us(void);

//  Wall-clock time in microseconds since the epoch: for timestamps.
int64_t bus_clock_wall_us(void);

//  Replace the wall clock (NULL restores the real one). Tests only.
typedef int64_t(bus_clock_fn)(void);
void bus_clock_set_wall_source(bus_clock_fn *fn);

#endif
