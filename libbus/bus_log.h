/*  =========================================================================
    bus_log - one logfmt line per event, with service, node, level and the
    correlation id of the request being served; secrets are masked.

    A call reads like prose followed by fields:
        bus_log_info ("kernel started kernel=%s agent=%s", kid, agent);
    and writes
        ts=2026-11-21T13:08:00.123Z level=info service=agent node=n1 corr=42
        msg="kernel started" kernel=... agent=...
    The value of any field whose name mentions a secret (secret, password,
    signature, token, authorization, credential, cookie) is written as
    [redacted], whatever the caller passed: the last line of defence.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_LOG_H_INCLUDED
#define BUS_LOG_H_INCLUDED

#include <stdio.h>

typedef enum {
    BUS_LOG_ERROR = 0,   //  needs an operator
    BUS_LOG_WARNING = 1, //  degraded or retried
    BUS_LOG_NOTICE = 2,  //  lifecycle: start, stop, config loaded
    BUS_LOG_INFO = 3,    //  per-request summary
    BUS_LOG_DEBUG = 4    //  verbose
} bus_log_level_t;

extern int bus_log_level_;

//  Names the process in every line. Call once from main; node may be NULL.
void bus_log_init(const char *service, const char *node, int level);

//  Change the level at run time (-v, config reload).
void bus_log_set_level(int level);

//  "error".."debug" to a level; -1 when unknown.
int bus_log_level_from_str(const char *name);

//  Send lines to another stream (tests capture them); NULL means stderr.
void bus_log_set_stream(FILE *stream);

//  The correlation id stamped on this thread's lines until changed; NULL clears.
void bus_log_set_corr(const char *corr);

//  The correlation id currently set on this thread ("" when none). RPC
//  clients copy it into outgoing requests, so a trace follows a request.
const char *bus_log_corr(void);

//  Format and write one line at level. Use the macros below instead.
void bus_log_write(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

//  Mask, in place, the values of secret-named fields in a logfmt fragment.
//  Returns the number of values masked. Exposed for tests.
int bus_log_redact(char *line, size_t size);

#define BUS_LOG_AT_(lvl, ...)                                                            \
    do {                                                                                 \
        if ((lvl) <= bus_log_level_)                                                     \
            bus_log_write((lvl), __VA_ARGS__);                                           \
    } while (0)
#define bus_log_error(...)   BUS_LOG_AT_(BUS_LOG_ERROR, __VA_ARGS__)
#define bus_log_warning(...) BUS_LOG_AT_(BUS_LOG_WARNING, __VA_ARGS__)
#define bus_log_notice(...)  BUS_LOG_AT_(BUS_LOG_NOTICE, __VA_ARGS__)
#define bus_log_info(...)    BUS_LOG_AT_(BUS_LOG_INFO, __VA_ARGS__)
#define bus_log_debug(...)   BUS_LOG_AT_(BUS_LOG_DEBUG, __VA_ARGS__)

#endif
