/*  =========================================================================
    gw_session_create - POST /session: create a session and wait for it

    The steps up to session.create are gw_session_launch's, which a model
    service's replicas take too. Then, here:
        reuse      a name taken with reuseIfExists: the owner's live
                   session of that name is the answer
        wait       until the session runs, ends, or maxWaitSeconds pass:
                   each of its session_* lifecycle events (gw_events) makes
                   the gateway ask session.get at once, and so does a timer
                   every S_POLL_MS in case an event is late; enqueueOnly
                   answers at once with PENDING
    Every step is a callback: nothing here blocks the loop, and a client
    that goes away stops the wait.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define S_POLL_MS 1000 //  a safety net: lifecycle events wake the wait

//  One create waiting for its session.
typedef struct _gw_create_t create_t;
struct _gw_create_t {
    create_t *prev, *next; //  the gateway's waiting creates, while it waits
    bool linked;
    gw_request_t *r;
    gw_server_t *gw;
    char session_id[GW_UUID_SIZE];
    bool reuse; //  reuseIfExists
    bool created;
    int64_t deadline_ms; //  when to stop waiting (0: never, -1: answer at once)
    struct event *timer;
    gw_events_listener_t *listener;
    bool polling;    //  a session.get in flight
    bool poll_again; //  an event came meanwhile: ask again at once
    //  What the answer needs besides the status, from session.create's
    //  reply, so that the event that settles the session answers at once.
    char *name, *image_ref, *preopen_ports;
};

static void
s_create_destroy(create_t **self_p)
{
    create_t *self = *self_p;
    if (!self)
        return;
    if (self->linked) {
        create_t **head = gw_server_creates(self->gw);
        if (self->prev)
            self->prev->next = self->next;
        else
            *head = self->next;
        if (self->next)
            self->next->prev = self->prev;
    }
    if (self->timer)
        event_free(self->timer);
    if (self->listener)
        gw_events_unlisten(gw_server_events(self->gw), &self->listener);
    free(self->name);
    free(self->image_ref);
    free(self->preopen_ports);
    free(self);
    *self_p = NULL;
}

//  Answers a failure of a call and frees self.
static void
s_fail(create_t *self, int status, const char *detail)
{
    gw_reply_status(self->r, status,
                    detail && *detail ? detail : "the scheduler did not answer");
    s_create_destroy(&self);
}

//  Sends a call for self; answers and frees self when it could not leave,
//  with err when its request could not be written (writer NULL).
static void
s_send(create_t *self,
       const char *method,
       bus_writer_t *writer,
       const bus_error_t *err,
       bus_reply_fn *fn)
{
    if (!writer)
        s_fail(self, err->status, err->detail);
    else if (!gw_session_call(self->r, gw_session_scheduler(self->r), method, writer, 0,
                              fn, self))
        s_fail(self, BUS_STATUS_UNAVAILABLE, "the scheduler is not reachable");
}

//  ---------------------------------------------------------------------------
//  wait

static const char *const s_settled[] = {"RUNNING", "TERMINATED", "CANCELLED", "ERROR",
                                        NULL};

static bool
s_is_settled(const char *status)
{
    for (size_t i = 0; status && s_settled[i]; i++)
        if (strcmp(status, s_settled[i]) == 0)
            return true;
    return false;
}

//  The creation answer (reference §3.2); frees self.
static void
s_reply_created(create_t *self,
                const char *session_id,
                const char *name,
                const char *image,
                const char *preopen_ports,
                const char *status)
{
    gw_reply_json(self->r, 201,
                  json_pack("{s:s, s:s, s:s, s:o, s:b}", "sessionId", session_id,
                            "sessionName", name, "status", status, "servicePorts",
                            gw_apps_of_session(gw_request_ctx(self->r)->db, session_id,
                                               image, preopen_ports),
                            "created", self->created));
    s_create_destroy(&self);
}

static void
s_on_polled(void *arg, const bus_reply_t *reply)
{
    create_t *self = arg;
    self->polling = false;
    proto_session_info_t info;
    proto_session_info_init(&info);
    bus_error_t err = {0};
    if (gw_session_info_decode(reply, &info, &err) != BUS_OK) {
        proto_session_info_clear(&info);
        s_fail(self, err.status, err.detail);
        return;
    }
    bool timed_out = self->deadline_ms > 0 && bus_clock_mono_ms() >= self->deadline_ms;
    bool settled = s_is_settled(info.status);
    if (settled || !self->r->req || timed_out || self->deadline_ms < 0)
        s_reply_created(self, info.session_id, info.name, info.image, info.preopen_ports,
                        timed_out && !settled ? "TIMEOUT" : info.status);
    else {
        struct timeval tv = {self->poll_again ? 0 : S_POLL_MS / 1000,
                             self->poll_again ? 0 : (S_POLL_MS % 1000) * 1000};
        evtimer_add(self->timer, &tv);
    }
    proto_session_info_clear(&info);
}

//  Asks the scheduler how the session is now (a look already in flight is
//  asked again when it comes back).
static void
s_poll(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    create_t *self = arg;
    if (self->polling) {
        self->poll_again = true;
        return;
    }
    proto_session_get_req_t in;
    proto_session_get_req_init(&in);
    in.session_id = self->session_id;
    bus_error_t err;
    bus_writer_t *writer = proto_session_get_req_writer(&in, &err);
    self->polling = true;
    self->poll_again = false;
    s_send(self, PROTO_SESSION_GET, writer, &err, s_on_polled);
}

//  A step of the awaited session's life. One that settles it (RUNNING, or an
//  end) is the answer, unless a look is in flight, which it then asks again
//  at once. Steps on the way (enqueued, scheduled) ask nothing: two looks a
//  create only took CPU from the create they waited for, and the timer's
//  look covers an event that never comes.
static void
s_on_lifecycle(const proto_session_lifecycle_t *event, void *arg)
{
    create_t *self = arg;
    if (strcmp(event->session_id, self->session_id) != 0 ||
        strncmp(event->event, "session_", 8) != 0 || !s_is_settled(event->status))
        return;
    if (!self->polling && self->name && self->image_ref) {
        s_reply_created(self, self->session_id, self->name, self->image_ref,
                        self->preopen_ports, event->status);
        return;
    }
    struct timeval now = {0, 0};
    evtimer_add(self->timer, &now);
}

//  Waits for the session created (info) to settle.
static void
s_wait(create_t *self, const proto_session_info_t *info)
{
    self->name = info->name ? strdup(info->name) : NULL;
    self->image_ref = info->image ? strdup(info->image) : NULL;
    self->preopen_ports = info->preopen_ports ? strdup(info->preopen_ports) : NULL;
    self->listener = gw_events_listen(gw_server_events(self->gw), s_on_lifecycle, self);
    struct timeval tv = {S_POLL_MS / 1000, (S_POLL_MS % 1000) * 1000};
    evtimer_add(self->timer, &tv);
    //  Known to the gateway from here on, so that a stop answers it.
    create_t **head = gw_server_creates(self->gw);
    self->next = *head;
    if (self->next)
        self->next->prev = self;
    *head = self;
    self->linked = true;
}

//  The name is taken and the client said reuseIfExists: the owner's live
//  session of that name answers, as it is now.
static void
s_reuse(create_t *self)
{
    json_t *params = self->r->params;
    proto_session_get_req_t in;
    proto_session_get_req_init(&in);
    in.access_key = self->r->who.access_key;
    in.name = json_string_value(json_object_get(params, "name"))
                  ? json_string_value(json_object_get(params, "name"))
                  : json_string_value(json_object_get(params, "clientSessionToken"));
    self->deadline_ms = -1; //  answer at once
    bus_error_t err;
    bus_writer_t *writer = proto_session_get_req_writer(&in, &err);
    s_send(self, PROTO_SESSION_GET, writer, &err, s_on_polled);
}

static void
s_on_created(create_t *self, const bus_reply_t *reply)
{
    proto_session_info_t info;
    proto_session_info_init(&info);
    bus_error_t err = {0};
    if (gw_session_info_decode(reply, &info, &err) != BUS_OK) {
        proto_session_info_clear(&info);
        if (err.status == BUS_STATUS_CONFLICT && self->reuse) {
            s_reuse(self);
            return;
        }
        if (err.status == BUS_STATUS_CONFLICT)
            gw_reply_problem(self->r, "session-already-exists", err.detail);
        else
            gw_reply_status(self->r, err.status, err.detail);
        s_create_destroy(&self);
        return;
    }
    self->created = true;
    if (self->deadline_ms < 0) //  enqueueOnly
        s_reply_created(self, info.session_id, info.name, info.image, info.preopen_ports,
                        info.status);
    else
        s_wait(self, &info);
    proto_session_info_clear(&info);
}

//  ---------------------------------------------------------------------------
//  The launch's outcome

static void
s_on_launched(void *arg, const gw_session_launched_t *result)
{
    gw_request_t *r = arg;
    if (result->slug) {
        gw_reply_problem(r, result->slug, result->detail);
        return;
    }
    if (!result->reply) {
        gw_reply_status(r, result->status,
                        result->detail && *result->detail
                            ? result->detail
                            : "the scheduler did not answer");
        return;
    }
    create_t *self = calloc(1, sizeof *self);
    if (!self) {
        gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
        return;
    }
    self->r = r;
    self->gw = r->gw;
    snprintf(self->session_id, sizeof self->session_id, "%s", result->session_id);
    self->reuse = result->spec->reuse;
    self->timer = evtimer_new(bus_node_base(gw_server_node(r->gw)), s_poll, self);
    if (result->spec->enqueue_only)
        self->deadline_ms = -1;
    else if (result->spec->max_wait_s > 0)
        self->deadline_ms = bus_clock_mono_ms() + result->spec->max_wait_s * 1000;
    if (!self->timer) {
        s_fail(self, BUS_STATUS_INTERNAL, "out of memory");
        return;
    }
    s_on_created(self, result->reply);
}

void
gw_session_handle_create(gw_request_t *r)
{
    gw_session_launch_t in = {.who = &r->who, .params = r->params};
    gw_session_launch(r->gw, &in, s_on_launched, r);
}

size_t
gw_session_create_close_all(gw_server_t *gw)
{
    size_t answered = 0;
    //  A create whose session.get is out is answered by that reply, which
    //  the node's stop completes; the others wait only on a timer and events
    //  that will not come.
    create_t *self = *gw_server_creates(gw);
    while (self) {
        create_t *next = self->next;
        if (!self->polling) {
            gw_reply_problem(self->r, "service-unavailable", "the gateway is stopping");
            s_create_destroy(&self);
            answered++;
        }
        self = next;
    }
    return answered;
}
