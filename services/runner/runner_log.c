/*  =========================================================================
    runner_log - the runner's log lines, on stderr (the container log)

    One line per event: UTC time, program and pid, level, then the message in
    logfmt style. stderr is line-buffered, so lines from the runner and from
    the service-port apps writing to the same log do not interleave.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "runner_classes.h"

void
runner_log(const char *level, const char *format, ...)
{
    char when[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    fprintf(stderr, "%s backplane-runner[%d] %s: ", when, (int) getpid(), level);
    va_list args;
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    fputc('\n', stderr);
}
