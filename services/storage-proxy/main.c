/*  =========================================================================
    main - backplane-storage-proxy: volumes, virtual folders and their data

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"

int
main(int argc, char **argv)
{
    return bus_main(&sp_service, argc, argv);
}
