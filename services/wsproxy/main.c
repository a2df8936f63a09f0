/*  =========================================================================
    main - backplane-wsproxy: the HTTP and WebSocket proxy to service ports in sessions

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "wsp_classes.h"

int
main(int argc, char **argv)
{
    return bus_main(&wsp_service, argc, argv);
}
