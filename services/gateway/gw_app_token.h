/*  =========================================================================
    gw_app_token - POST /session/{s}/start-service: an app token for the
    wsproxy, as Backend.AI's web UI asks for one (v2 app proxy)

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_APP_TOKEN_H_INCLUDED
#define GW_APP_TOKEN_H_INCLUDED

#include "gw_request.h"

//  The wsproxy a resource group's apps open through: its wsproxy_addr, or
//  the gateway's apps.wsproxy_addr when it names none. NULL when there is
//  neither (then Backend.AI's clients use the v1 proxy). Borrowed from
//  group or the config.
const char *gw_app_token_wsproxy(gw_request_t *r, json_t *group);

void gw_app_token_handle(gw_request_t *r);

#endif
