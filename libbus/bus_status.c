/*  =========================================================================
    bus_status - names of the status codes, and the bus_error_t helper

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

static const char *s_names[] = {
    [BUS_OK] = "ok",
    [BUS_STATUS_INVALID] = "invalid",
    [BUS_STATUS_NOT_FOUND] = "not-found",
    [BUS_STATUS_CONFLICT] = "conflict",
    [BUS_STATUS_TIMEOUT] = "timeout",
    [BUS_STATUS_UNAVAILABLE] = "unavailable",
    [BUS_STATUS_PROTOCOL] = "protocol",
    [BUS_STATUS_INTERNAL] = "internal",
    [BUS_STATUS_REREGISTER] = "reregister",
    [BUS_STATUS_FORBIDDEN] = "forbidden",
    [BUS_STATUS_QUOTA] = "quota",
};

const char *
bus_status_str(int status)
{
    if (status >= 0 && status <= BUS_STATUS_MAX && s_names[status])
        return s_names[status];
    return "unknown";
}

int
bus_status_from_str(const char *name)
{
    for (int i = 0; name && i <= BUS_STATUS_MAX; i++)
        if (s_names[i] && strcmp(s_names[i], name) == 0)
            return i;
    return -1;
}

int
bus_error_set(bus_error_t *err, int status, const char *fmt, ...)
{
    if (err) {
        err->status = status;
        va_list args;
        va_start(args, fmt);
        vsnprintf(err->detail, sizeof err->detail, fmt, args);
        va_end(args);
    }
    return status;
}

int
bus_error_fail(bus_error_t *err, int status, const char *fmt, ...)
{
    if (err) {
        char detail[BUS_ERROR_DETAIL_MAX];
        va_list args;
        va_start(args, fmt);
        vsnprintf(detail, sizeof detail, fmt, args);
        va_end(args);
        err->status = status;
        memcpy(err->detail, detail, sizeof detail);
    }
    return -1;
}
