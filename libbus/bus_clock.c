/*  =========================================================================
    bus_clock - monotonic and wall clocks, with an injectable wall source

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

static bus_clock_fn *s_wall_source;
static int64_t s_bus_offset_us; //  atomic: set by the loop, read by any thread
static int64_t s_skew_us;       //  BUS_CLOCK_SKEW_ENV, in µs
static int s_skew_read;         //  atomic: s_skew_us is set

//  The test-only skew, read once (a race reads the same value twice).
static int64_t
s_skew(void)
{
    if (__atomic_load_n(&s_skew_read, __ATOMIC_ACQUIRE))
        return s_skew_us;
    const char *text = getenv(BUS_CLOCK_SKEW_ENV);
    int64_t skew = text && *text ? (int64_t) strtoll(text, NULL, 10) * 1000000 : 0;
    s_skew_us = skew;
    __atomic_store_n(&s_skew_read, 1, __ATOMIC_RELEASE);
    return skew;
}

int64_t
bus_clock_mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t
bus_clock_mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t
bus_clock_wall_us(void)
{
    if (s_wall_source)
        return s_wall_source();
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t) ts.tv_sec * 1000000 + ts.tv_nsec / 1000 + s_skew();
}

int64_t
bus_clock_bus_us(void)
{
    return bus_clock_wall_us() + __atomic_load_n(&s_bus_offset_us, __ATOMIC_RELAXED);
}

int64_t
bus_clock_bus_offset_us(void)
{
    return __atomic_load_n(&s_bus_offset_us, __ATOMIC_RELAXED);
}

void
bus_clock_set_bus_offset_us(int64_t offset_us)
{
    __atomic_store_n(&s_bus_offset_us, offset_us, __ATOMIC_RELAXED);
}

void
bus_clock_set_wall_source(bus_clock_fn *fn)
{
    s_wall_source = fn;
}
