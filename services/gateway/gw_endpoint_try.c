/*  =========================================================================
    gw_endpoint_try - trial runs of a model service (how, in the header)

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

typedef enum { TRY_LAUNCHING, TRY_WAITING, TRY_ENDING, TRY_DONE } try_state_t;

//  One trial. Owned by the registry (by task id) while it runs.
typedef struct {
    gw_endpoint_tries_t *tries;
    char task_id[GW_BGTASK_ID_SIZE];
    char session_id[GW_UUID_SIZE]; //  "" until the scheduler took it
    try_state_t state;
    bool started;   //  session_started was said
    bool healthy;   //  the model answered its health check
    bool cancelled; //  the session never ran
    struct event *timer;
} try_t;

//  What a launch in flight holds: its answer may come after the registry
//  is gone (the node fails the calls left when it is destroyed, after the
//  gateway's state), and then finds tries NULL.
typedef struct {
    gw_endpoint_tries_t *tries;
    int refs;
} s_link_t;

struct _gw_endpoint_tries_t {
    s_link_t *link;
    gw_server_t *gw;
    zhashx_t *tries; //  task id -> try_t
};

static void
s_try_free(void **item)
{
    try_t *trial = *item;
    if (trial) {
        if (trial->timer)
            event_free(trial->timer);
        free(trial);
        *item = NULL;
    }
}

static gw_bgtasks_t *
s_tasks(try_t *trial)
{
    return gw_server_bgtasks(trial->tries->gw);
}

//  A bgtask_updated message: {"event", "session_id"} and healthy when >= 0.
static void
s_say(try_t *trial, const char *event, int healthy)
{
    json_t *message =
        json_pack("{s:s, s:s}", "event", event, "session_id", trial->session_id);
    if (healthy >= 0)
        json_object_set_new(message, "is_healthy", json_boolean(healthy));
    char *text = message ? json_dumps(message, JSON_COMPACT) : NULL;
    json_decref(message);
    if (text)
        gw_bgtasks_update(s_tasks(trial), trial->task_id, 0, 0, text);
    free(text);
}

//  The trial is over: its task ends, and it is forgotten.
static void
s_end(try_t *trial, bool ok, const char *message)
{
    gw_endpoint_tries_t *tries = trial->tries;
    bus_log_info("model service trial over task=%s session=%s healthy=%s", trial->task_id,
                 trial->session_id, trial->healthy ? "yes" : "no");
    gw_bgtasks_finish(s_tasks(trial), trial->task_id, ok, message);
    zhashx_delete(tries->tries, trial->task_id); //  frees trial
}

//  A session.destroy on its way: the trial by its task id, as it may be
//  over (or the registry gone) when the answer comes.
typedef struct {
    s_link_t *link;
    char task_id[GW_BGTASK_ID_SIZE];
} s_ref_t;

static s_ref_t *
s_ref_new(s_link_t *link, const char *task_id)
{
    s_ref_t *ref = calloc(1, sizeof *ref);
    if (ref) {
        ref->link = link;
        link->refs++;
        snprintf(ref->task_id, sizeof ref->task_id, "%s", task_id ? task_id : "");
    }
    return ref;
}

//  The trial ref names, or NULL; frees ref.
static try_t *
s_ref_take(s_ref_t *ref)
{
    gw_endpoint_tries_t *tries = ref->link->tries;
    try_t *trial =
        tries && *ref->task_id ? zhashx_lookup(tries->tries, ref->task_id) : NULL;
    if (--ref->link->refs == 0)
        free(ref->link);
    free(ref);
    return trial;
}

static void
s_on_destroyed(void *arg, const bus_reply_t *reply)
{
    try_t *trial = s_ref_take(arg);
    if (reply->status == BUS_OK || reply->status == BUS_STATUS_NOT_FOUND)
        return; //  its end comes as session_terminated
    bus_log_warning("model service trial not ended detail=\"%s\"", reply->detail);
    if (trial)
        s_end(trial, false, "the trial's session could not be ended");
}

//  Destroys session_id for the trial of task_id ("" for none left). False
//  when it could not be asked.
static bool
s_destroy(gw_server_t *gw, s_link_t *link, const char *task_id, const char *session_id)
{
    bus_node_t *node = gw_server_node(gw);
    const char *scheduler = bus_node_find(node, "scheduler");
    proto_session_destroy_req_t in;
    proto_session_destroy_req_init(&in);
    in.session_id = session_id;
    in.reason = "user-requested";
    bus_error_t err;
    bus_writer_t *writer = proto_session_destroy_req_writer(&in, &err);
    s_ref_t *ref = writer ? s_ref_new(link, task_id) : NULL;
    bool sent =
        ref && scheduler &&
        bus_node_call(node, scheduler, PROTO_SESSION_DESTROY, bus_writer_data(writer),
                      bus_writer_size(writer), 0, s_on_destroyed, ref) != 0;
    if (!sent && ref)
        s_ref_take(ref);
    bus_writer_destroy(&writer);
    return sent;
}

//  Ends the trial's session; the task ends when it has (session_terminated),
//  or when that has not come in GW_ENDPOINT_TRY_END_MS.
static void
s_destroy_session(try_t *trial)
{
    trial->state = TRY_ENDING;
    struct timeval tv = {GW_ENDPOINT_TRY_END_MS / 1000, 0};
    evtimer_add(trial->timer, &tv);
    if (!s_destroy(trial->tries->gw, trial->tries->link, trial->task_id,
                   trial->session_id))
        s_end(trial, false,
              "the trial's session could not be ended: the scheduler is not reachable");
}

static void
s_on_timeout(evutil_socket_t fd, short what, void *arg)
{
    (void) fd, (void) what;
    try_t *trial = arg;
    bus_log_warning("model service trial timed out task=%s session=%s", trial->task_id,
                    trial->session_id);
    if (*trial->session_id && trial->state == TRY_WAITING)
        s_destroy_session(trial);
    else
        s_end(trial, false,
              trial->state == TRY_ENDING ? "the trial's session did not end in time"
                                         : "the model did not report its health in time");
}

//  What gw_session_launch calls back with: the trial by its task id, as
//  the registry may have dropped it meanwhile, or be gone (link).
typedef struct {
    s_link_t *link;
    char task_id[GW_BGTASK_ID_SIZE];
} launch_t;

static void
s_on_launch(void *arg, const gw_session_launched_t *result)
{
    launch_t *launch = arg;
    gw_endpoint_tries_t *tries = launch->link->tries;
    try_t *trial = tries ? zhashx_lookup(tries->tries, launch->task_id) : NULL;
    //  Made after its trial gave up: it goes at once.
    if (!trial && tries && result->session_id && !result->slug &&
        result->status == BUS_OK && result->reply && result->reply->status == BUS_OK)
        s_destroy(tries->gw, launch->link, "", result->session_id);
    if (--launch->link->refs == 0)
        free(launch->link);
    free(launch);
    if (!trial)
        return;
    char detail[512] = "";
    if (result->slug)
        snprintf(detail, sizeof detail, "%s: %s", result->slug,
                 result->detail ? result->detail : "");
    else if (result->status != BUS_OK)
        snprintf(detail, sizeof detail, "%s", result->detail ? result->detail : "");
    else if (result->reply && result->reply->status != BUS_OK)
        snprintf(detail, sizeof detail, "%s", result->reply->detail);
    if (*detail || !result->session_id) {
        s_end(trial, false, *detail ? detail : "the trial's session was not made");
        return;
    }
    snprintf(trial->session_id, sizeof trial->session_id, "%s", result->session_id);
    trial->state = TRY_WAITING;
    s_say(trial, "session_enqueued", -1);
}

int
gw_endpoint_try_start(gw_endpoint_tries_t *self,
                      const gw_identity_t *who,
                      json_t *params,
                      json_t *mounts,
                      const char *model_service,
                      char task_id[GW_BGTASK_ID_SIZE],
                      bus_error_t *err)
{
    assert(self && who && params && model_service);
    try_t *trial = calloc(1, sizeof *trial);
    launch_t *launch = calloc(1, sizeof *launch);
    json_t *copy = json_deep_copy(params);
    if (trial)
        trial->timer =
            evtimer_new(bus_node_base(gw_server_node(self->gw)), s_on_timeout, trial);
    if (!trial || !launch || !copy || !trial->timer ||
        gw_bgtasks_start(gw_server_bgtasks(self->gw), NULL, NULL, trial->task_id) != 0) {
        if (trial && trial->timer)
            event_free(trial->timer);
        free(trial);
        free(launch);
        json_decref(copy);
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE,
                             "no background task can be kept");
    }
    trial->tries = self;
    trial->state = TRY_LAUNCHING;
    zhashx_insert(self->tries, trial->task_id, trial);
    struct timeval tv = {GW_ENDPOINT_TRY_MS / 1000, 0};
    evtimer_add(trial->timer, &tv);
    snprintf(task_id, GW_BGTASK_ID_SIZE, "%s", trial->task_id);
    //  model-eval-<8 hex>, as Backend.AI names its trial sessions.
    char uuid[GW_UUID_SIZE], name[32];
    gw_uuid_new(uuid);
    snprintf(name, sizeof name, "model-eval-%.8s", uuid);
    json_object_set_new(copy, "name", json_string(name));
    launch->link = self->link;
    self->link->refs++;
    snprintf(launch->task_id, sizeof launch->task_id, "%s", trial->task_id);
    gw_session_launch_t in = {.who = who,
                              .params = copy,
                              .extra_mounts = mounts,
                              .type = "INFERENCE",
                              .model_service = model_service};
    bus_log_info("model service trial task=%s session_name=%s", trial->task_id, name);
    gw_session_launch(self->gw, &in, s_on_launch, launch);
    json_decref(copy);
    return BUS_OK;
}

//  The trial of session_id, or NULL.
static try_t *
s_find(gw_endpoint_tries_t *self, const char *session_id)
{
    if (!self || !session_id || !*session_id)
        return NULL;
    for (try_t *trial = zhashx_first(self->tries); trial;
         trial = zhashx_next(self->tries))
        if (strcmp(trial->session_id, session_id) == 0)
            return trial;
    return NULL;
}

void
gw_endpoint_tries_lifecycle(gw_endpoint_tries_t *self,
                            const char *session_id,
                            const char *status)
{
    try_t *trial = s_find(self, session_id);
    if (!trial || !status)
        return;
    if (strcmp(status, "RUNNING") == 0 && !trial->started) {
        trial->started = true;
        s_say(trial, "session_started", -1);
    } else if (strcmp(status, "CANCELLED") == 0 || strcmp(status, "ERROR") == 0) {
        trial->cancelled = true;
        s_say(trial, "session_cancelled", -1);
        s_end(trial, false, "the trial's session could not start");
    } else if (strcmp(status, "TERMINATED") == 0) {
        s_say(trial, "session_terminated", -1);
        s_end(trial, trial->healthy,
              trial->healthy ? "the model service answered its health check"
                             : "the model service did not answer its health check");
    }
}

void
gw_endpoint_tries_model_status(gw_endpoint_tries_t *self,
                               const char *session_id,
                               bool healthy,
                               const char *detail)
{
    try_t *trial = s_find(self, session_id);
    if (!trial || trial->state != TRY_WAITING)
        return;
    (void) detail;
    trial->healthy = healthy;
    s_say(trial, "model_service_status", healthy);
    s_destroy_session(trial); //  one report settles it
}

gw_endpoint_tries_t *
gw_endpoint_tries_new(gw_server_t *gw)
{
    gw_endpoint_tries_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->gw = gw;
    self->tries = zhashx_new();
    self->link = calloc(1, sizeof *self->link);
    if (!self->tries || !self->link) {
        zhashx_destroy(&self->tries);
        free(self->link);
        free(self);
        return NULL;
    }
    self->link->tries = self;
    self->link->refs = 1;
    zhashx_set_destructor(self->tries, s_try_free);
    return self;
}

void
gw_endpoint_tries_destroy(gw_endpoint_tries_t **self_p)
{
    gw_endpoint_tries_t *self = *self_p;
    if (!self)
        return;
    zhashx_destroy(&self->tries);
    self->link->tries = NULL;
    if (--self->link->refs == 0)
        free(self->link);
    free(self);
    *self_p = NULL;
}
