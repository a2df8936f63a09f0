/*  =========================================================================
    bus_figures - arithmetic on accounting's usage figures

    Accounting sums kernels' figures into groups, and the gateway sums
    groups into totals: both add proto_accounting_figures_t the same way,
    amounts summed and the memory peak kept as the largest.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_FIGURES_H_INCLUDED
#define BUS_FIGURES_H_INCLUDED

#include "proto_accounting.h"

//  Adds from to to: every amount summed, mem_peak_bytes the larger.
void bus_figures_add(proto_accounting_figures_t *to,
                     const proto_accounting_figures_t *from);

#endif
