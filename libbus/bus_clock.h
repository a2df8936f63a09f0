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

//  The bus's time: the wall clock corrected by the offset to the
//  registry's host that bus_node measures from the registry's replies
//  (0 until then, and on the registry's own host). Deadlines of RPC
//  requests and events' timestamps are in bus time, so that a host whose
//  clock is off neither drops every request as expired nor accepts stale
//  ones.
int64_t bus_clock_bus_us(void);

//  The offset bus time adds to the wall clock (µs), and its setter: the
//  registry's clock minus ours (bus_node_presence).
int64_t bus_clock_bus_offset_us(void);
void bus_clock_set_bus_offset_us(int64_t offset_us);

//  TEST ONLY: BACKPLANE_TEST_CLOCK_SKEW_S=<seconds> in a process's
//  environment moves its wall clock that far (negative: back), read at the
//  first call, as a host whose clock is off (deploy/testbed's hosts share
//  the machine's clock). Never set it on a real host.
#define BUS_CLOCK_SKEW_ENV "BACKPLANE_TEST_CLOCK_SKEW_S"

//  Replace the wall clock (NULL restores the real one). Tests only.
typedef int64_t(bus_clock_fn)(void);
void bus_clock_set_wall_source(bus_clock_fn *fn);

#endif
