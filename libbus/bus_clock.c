/*  =========================================================================
    bus_clock - monotonic and wall clocks, with an injectable wall source

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

static bus_clock_fn *s_wall_source;

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
    return (int64_t) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void
bus_clock_set_wall_source(bus_clock_fn *fn)
{
    s_wall_source = fn;
}
