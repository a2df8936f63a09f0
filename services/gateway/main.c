/*  =========================================================================
    main - backplane-gateway: the Backend.AI-compatible HTTP API

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

int
main(int argc, char **argv)
{
    return bus_main(&gw_service, argc, argv);
}
