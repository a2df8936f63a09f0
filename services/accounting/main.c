/*  =========================================================================
    main - backplane-accounting: usage records, statistics and the access and audit log

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "acct_classes.h"

int
main(int argc, char **argv)
{
    return bus_main(&acct_service, argc, argv);
}
