/*  =========================================================================
    gw_ctx - what an administrative operation runs with

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

int
gw_ctx_require_node(const gw_ctx_t *ctx, bus_error_t *err)
{
    assert(ctx);
    if (ctx->node)
        return BUS_OK;
    return bus_error_set(err, BUS_STATUS_UNAVAILABLE,
                         "this change is announced on the bus: make it through the "
                         "running gateway");
}
