/*  =========================================================================
    bus_figures - arithmetic on accounting's usage figures

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

void
bus_figures_add(proto_accounting_figures_t *to, const proto_accounting_figures_t *from)
{
    assert(to && from);
    to->held_s += from->held_s;
    to->cpu_held_s += from->cpu_held_s;
    to->mem_held_byte_s += from->mem_held_byte_s;
    to->accel_device_s += from->accel_device_s;
    to->accel_share_s += from->accel_share_s;
    to->cpu_used_s += from->cpu_used_s;
    to->mem_used_byte_s += from->mem_used_byte_s;
    if (from->mem_peak_bytes > to->mem_peak_bytes)
        to->mem_peak_bytes = from->mem_peak_bytes;
    to->io_read_bytes += from->io_read_bytes;
    to->io_write_bytes += from->io_write_bytes;
    to->net_rx_bytes += from->net_rx_bytes;
    to->net_tx_bytes += from->net_tx_bytes;
}
