/*  =========================================================================
    gw_admin - what the admin operations share

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

const char *
gw_admin_status_message(int status)
{
    switch (status) {
        case BUS_STATUS_FORBIDDEN:
            return "Insufficient privilege";
        case BUS_STATUS_NOT_FOUND:
            return "Object not found";
        case BUS_STATUS_INVALID:
            return "Invalid input";
        case BUS_STATUS_CONFLICT:
            return "Conflict";
        default:
            return "Internal error";
    }
}
