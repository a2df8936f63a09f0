/*  =========================================================================
    main - backplane-scheduler: sessions, the pending queue, agents and the allocation
   ledger

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

int
main(int argc, char **argv)
{
    return bus_main(&sched_service, argc, argv);
}
