/*  =========================================================================
    wsp_classes.h - private header of the wsproxy: its modules and libbus

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef WSP_CLASSES_H_INCLUDED
#define WSP_CLASSES_H_INCLUDED

#include "bus_classes.h"
#include "bus_apptoken.h"
#include "bus_token.h"
#include "bus_tls.h"
#include "wsp_config.h"
#include "wsp_server.h"
#include "wsp_http.h"
#include "wsp_db.h"
#include "wsp_routes.h"
#include "wsp_conn.h"
#include "wsp_api.h"
#include "wsp_rpc.h"

#endif
