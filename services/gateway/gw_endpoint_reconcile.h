/*  =========================================================================
    gw_endpoint_reconcile - model services' replicas made to match what is
    wanted, and their routes' status kept

    Backend.AI's scheduler loop for endpoints (reference part 2 §C.4), run
    by the gateway, which resolves everything a replica's session needs
    (image, model folder and its permission, limits, project, resource
    group) and creates it through the same steps as POST /session
    (gw_session_launch). Each pass, for every endpoint created or
    destroying:
        - too many routes: the surplus sessions are destroyed, UNHEALTHY
          ones first, never a route still PROVISIONING or TERMINATING (but
          a destroying endpoint's provisioning routes go too);
        - too few, and no more than GW_ENDPOINT_RETRIES_MAX failed starts
          in a row: new PROVISIONING routes, each an INFERENCE session
          named "{endpoint}-{route}" owned by the endpoint's owner, with
          the model folder read-only at model_mount_destination and the
          model service from its definition;
        - as many healthy as wanted: the failed starts are forgotten;
        - destroying with no route left: destroyed.
    Routes follow their sessions: session.lifecycle (gw_events) moves them
    at once (cancelled: FAILED_TO_START and a retry counted; terminating:
    TERMINATING; terminated: the route is deleted), the agents'
    kernel.model_status makes them HEALTHY or UNHEALTHY, and every
    S_SYNC_MS each route's session is asked for (session.get) in case an
    event was missed. A route whose create was lost (the gateway stopped
    meanwhile) fails after S_LOST_MS.

    Timers: one, every S_PERIOD_MS (2 s), and at once when kicked (a
    change through the API, an event, an autoscaling rule that moved the
    replicas wanted: gw_endpoint_autoscale, which it owns and tells the
    main kernel of each route's session).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_ENDPOINT_RECONCILE_H_INCLUDED
#define GW_ENDPOINT_RECONCILE_H_INCLUDED

typedef struct _gw_endpoint_reconcile_t gw_endpoint_reconcile_t;
typedef struct _gw_server_t gw_server_t;
typedef struct _gw_events_t gw_events_t;
typedef struct _gw_endpoint_tries_t gw_endpoint_tries_t;

//  Starts following the events and the timer. NULL on failure.
gw_endpoint_reconcile_t *gw_endpoint_reconcile_new(gw_server_t *gw, gw_events_t *events);

//  Stops; launches in flight are forgotten (their routes fail after
//  S_LOST_MS on the next start). Safe on NULL.
void gw_endpoint_reconcile_destroy(gw_endpoint_reconcile_t **self_p);

//  Runs a pass on the next turn of the loop.
void gw_endpoint_reconcile_kick(gw_endpoint_reconcile_t *self);

//  The trial runs (POST /services/_/try), which follow the same events.
gw_endpoint_tries_t *gw_endpoint_reconcile_tries(gw_endpoint_reconcile_t *self);

//  Pushes endpoint_id's healthy routes to the wsproxy at the next pass,
//  changed or not (POST /services/{id}/sync).
void gw_endpoint_reconcile_sync(gw_endpoint_reconcile_t *self, const char *endpoint_id);

//  Destroys session_id (a route's): the route is TERMINATING until its
//  kernel has ended.
void gw_endpoint_reconcile_terminate(gw_endpoint_reconcile_t *self,
                                     const char *route_id,
                                     const char *session_id);

#endif
