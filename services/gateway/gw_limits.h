/*  =========================================================================
    gw_limits - the limits a new session is held to, for the scheduler

    The gateway owns resource policies, projects and domains; the scheduler
    enforces their limits when it places a session (sched_quota). Each
    session.create carries the owner's limits as resolved here, and the
    scheduler keeps the latest per scope:

      keypair  the keypair's resource policy: total_resource_slots with
               default_for_unspecified, max_concurrent_sessions,
               max_containers_per_session, max_pending_session_count and
               _resource_slots, idle_timeout, max_session_lifetime;
      user     the policy of the user's main keypair (its first), whose
               total_resource_slots bound all the user's keypairs together,
               as Backend.AI's user_resource_limit does;
      project  the project's total_resource_slots;
      domain   the domain's total_resource_slots.

    A slot a map does not list is unlimited, except for a keypair (or user)
    policy whose default_for_unspecified is LIMITED: then it is zero.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_LIMITS_H_INCLUDED
#define GW_LIMITS_H_INCLUDED

#include "gw_http.h"

//  The limits of r's caller for a session in project_id, as the JSON object
//  above (caller decrefs), or NULL with err. /resource/check-presets reads
//  the same object, so it answers with the limits the scheduler enforces.
json_t *gw_limits_of(gw_ctx_t *ctx, const char *project_id, bus_error_t *err);

//  The same object as session.create's typed limits: one item of out (room
//  for GW_LIMITS_SCOPES) per scope it has, in the order above; the maps
//  and the amounts written as text live in *arena (the message's owned_,
//  freed by its clear). Returns how many items it filled; -1 when out of
//  memory.
#define GW_LIMITS_SCOPES 4
int gw_limits_to_scopes(json_t *limits, proto_session_scope_limits_t *out, void **arena);

#endif
