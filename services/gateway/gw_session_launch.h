/*  =========================================================================
    gw_session_launch - the steps every new session takes, up to
    session.create

    POST /session (gw_session_create) and a model service's replicas
    (gw_endpoint_reconcile) create sessions the same way, through here:
        mounts     the folders of config.mounts and the owner's automount
                   folders, and the extra ones the caller resolved (a
                   model folder at /models), each with its host path
                   (gw_vfolder_mounts)
        spec       the body, checked (gw_session_spec)
        resolve    the image against the domain's registries, the resource
                   group the project may use, the limits the scheduler
                   holds the session to, the slots against the image's
                   minimums, the shared memory
        encode     session.create, written once
        agents     scheduler.agents: when the resource group has live agents
                   and none could ever hold the session, say so now rather
                   than leave it PENDING for ever
        create     session.create (skipped by a dry run)
    Every step is a callback: nothing here blocks the loop. What follows
    the create (waiting for the session to run, answering HTTP) is the
    caller's.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_SESSION_LAUNCH_H_INCLUDED
#define GW_SESSION_LAUNCH_H_INCLUDED

#include "gw_request.h"
#include "gw_session_spec.h"

//  What to launch: a POST /session body as its owner sends it, and what a
//  model service's replica adds to it.
typedef struct {
    const gw_identity_t *who; //  the owner (copied)
    json_t *params;           //  the create body (a reference is taken)
    //  Folders mounted besides config.mounts, each {name, id, host,
    //  kernel_path, permission} of a folder the caller checked (a
    //  reference is taken); NULL: none.
    json_t *extra_mounts;
    const char *type;          //  the session type, when not the body's (INFERENCE)
    const char *model_service; //  kernel.create's model_service (copied); NULL: none
    const char *spread; //  session.create's spread group (copied): a replica's endpoint
    bool dry_run;       //  every check, then stop before session.create
} gw_session_launch_t;

//  How it went, one of:
//      slug        refused with this problem (detail says why)
//      status      a failure of another service (bus status, detail)
//      reply       the scheduler's answer to session.create (its status may
//                  be a failure, CONFLICT for a name taken)
//      none        a dry run that passed every check
//  spec is the body as read (NULL when it was refused before it was read);
//  session_id the id the session was (or would be) created with.
typedef struct {
    const char *slug;
    int status;
    const char *detail;
    const bus_reply_t *reply;
    const gw_session_spec_t *spec;
    const char *session_id;
} gw_session_launched_t;

//  Called once with the outcome; everything in it is borrowed for the call.
typedef void(gw_session_launched_fn)(void *arg, const gw_session_launched_t *result);

//  Launches in's session on gw; fn runs once, never before this returns
//  when a step has to ask another service, possibly at once when a check
//  fails.
void gw_session_launch(gw_server_t *gw,
                       const gw_session_launch_t *in,
                       gw_session_launched_fn *fn,
                       void *arg);

#endif
