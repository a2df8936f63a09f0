/*  =========================================================================
    gw_endpoint_try - trial runs of a model service (POST /services/_/try)

    Backend.AI's way to check a model definition before keeping a service
    (reference part 2 §C.2, §C.7): the body of POST /services, checked the
    same way, starts one throw-away INFERENCE session named
    model-eval-<random> and answers a background task at once. The task's
    bgtask_updated messages are JSON texts, in this order:
        {"event": "session_enqueued", "session_id"}
        {"event": "session_started", "session_id"}
        {"event": "model_service_status", "session_id", "is_healthy"}
        {"event": "session_terminated", "session_id"}
    (or "session_cancelled" when the session never ran). The first health
    report ends the trial: the session is destroyed, and the task ends once
    it has: bgtask_done when the model was healthy, else bgtask_failed. A
    trial that has not heard of its model after GW_ENDPOINT_TRY_MS ends
    its session and fails.

    The events come through gw_endpoint_reconcile, which follows sessions
    and kernel.model_status for the routes already, and owns this.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_ENDPOINT_TRY_H_INCLUDED
#define GW_ENDPOINT_TRY_H_INCLUDED

#include "bus.h"
#include "gw_bgtask.h"
#include "gw_identity.h"

#define GW_ENDPOINT_TRY_MS     (10 * 60 * 1000) //  a trial's longest wait for its model
#define GW_ENDPOINT_TRY_END_MS (2 * 60 * 1000)  //  and for its session's end after

typedef struct _gw_endpoint_tries_t gw_endpoint_tries_t;
typedef struct _gw_server_t gw_server_t;

//  NULL when out of memory.
gw_endpoint_tries_t *gw_endpoint_tries_new(gw_server_t *gw);

//  Trials still running are forgotten (their sessions end by the idle
//  rules, or by hand). Safe on NULL.
void gw_endpoint_tries_destroy(gw_endpoint_tries_t **self_p);

//  Starts a trial of who's service: a session made of params (POST
//  /session's body), mounts (the model folder) and model_service (the
//  definition's service, JSON). Writes the task's id. BUS_OK, or
//  UNAVAILABLE when no task can be kept now.
int gw_endpoint_try_start(gw_endpoint_tries_t *self,
                          const gw_identity_t *who,
                          json_t *params,
                          json_t *mounts,
                          const char *model_service,
                          char task_id[GW_BGTASK_ID_SIZE],
                          bus_error_t *err);

//  A session changed (session.lifecycle): a trial's moves on.
void gw_endpoint_tries_lifecycle(gw_endpoint_tries_t *self,
                                 const char *session_id,
                                 const char *status);

//  A kernel's model service reported its health (kernel.model_status).
void gw_endpoint_tries_model_status(gw_endpoint_tries_t *self,
                                    const char *session_id,
                                    bool healthy,
                                    const char *detail);

#endif
