/*  =========================================================================
    acct_classes.h - private header of the accounting: its modules and libbus

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef ACCT_CLASSES_H_INCLUDED
#define ACCT_CLASSES_H_INCLUDED

#include "bus_classes.h"
#include <math.h>
#include "acct_config.h"
#include "acct_db.h"
#include "acct_ingest.h"
#include "acct_query.h"
#include "acct_report.h"
#include "acct_rpc.h"
#include "acct_record.h"
#include "acct_server.h"

#endif
