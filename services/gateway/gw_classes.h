/*  =========================================================================
    gw_classes.h - private header of the gateway: its modules and libbus

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_CLASSES_H_INCLUDED
#define GW_CLASSES_H_INCLUDED

#include "bus_classes.h"
#include <openssl/crypto.h>
#include "gw_config.h"
#include "gw_db.h"
#include "gw_secret.h"
#include "gw_auth.h"
#include "gw_identity.h"
#include "gw_ctx.h"
#include "gw_bootstrap.h"
#include "gw_ratelimit.h"
#include "gw_params.h"
#include "gw_store.h"
#include "gw_request.h"
#include "gw_websocket.h"
#include "gw_multipart.h"
#include "gw_wsconn.h"
#include "gw_stream.h"
#include "gw_pty.h"
#include "gw_events.h"
#include "gw_sse.h"
#include "gw_stats.h"
#include "gw_accesslog.h"
#include "gw_admin.h"
#include "gw_graphql.h"
#include "gw_gql.h"
#include "gw_minilang.h"
#include "gw_session.h"
#include "gw_session_files.h"
#include "gw_template.h"
#include "gw_apps.h"
#include "gw_compute_session.h"
#include "gw_agent.h"
#include "gw_rest.h"
#include "gw_problem.h"
#include "gw_http.h"
#include "gw_login.h"
#include "gw_limits.h"
#include "gw_when.h"
#include "gw_activity.h"
#include "bus_token.h"
#include "gw_storage.h"
#include "gw_vfolder.h"
#include "gw_vfolder_api.h"
#include "gw_vfolder_mounts.h"
#include "gw_routes.h"
#include "gw_health.h"
#include "gw_manager.h"
#include "gw_etcd.h"
#include "gw_usage.h"
#include "gw_usage_admin.h"
#include "gw_live_stat.h"
#include "gw_server.h"
#include "gw_admin_cli.h"

#endif
