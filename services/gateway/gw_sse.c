/*  =========================================================================
    gw_sse - the event streams: GET /events/session, /events/background-task

    A stream is a chunked reply that never ends by itself: the request is
    logged when the stream starts and the reply stays open until the client
    goes away (evhttp's close callback, which runs as evhttp frees the
    connection) or the gateway stops.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

typedef enum { SCOPE_ALL, SCOPE_SESSION, SCOPE_KERNEL } scope_t;

struct _gw_sse_t {
    gw_server_t *gw;
    struct evhttp_request *req;
    gw_events_listener_t *listener;
    struct event *ping;
    //  What the caller sees: everything, a domain, or one keypair's.
    bool everything;
    char domain[GW_NAME_MAX + 1];
    char access_key[64];
    //  What the caller asked for; empty or "*" means any.
    char session_id[GW_UUID_SIZE];
    char session_name[72];
    char group_id[GW_UUID_SIZE];
    scope_t scope;
    char task_id[GW_BGTASK_ID_SIZE]; //  a background task's stream: the task
    struct _gw_sse_t *prev, *next;   //  the gateway's streams
};
typedef struct _gw_sse_t sse_t;

static void
s_free(sse_t *self)
{
    if (self->prev)
        self->prev->next = self->next;
    else
        (*gw_server_event_streams(self->gw)) = self->next;
    if (self->next)
        self->next->prev = self->prev;
    gw_events_unlisten(gw_server_events(self->gw), &self->listener);
    if (*self->task_id)
        gw_bgtasks_unwatch(gw_server_bgtasks(self->gw), self->task_id, self);
    if (self->ping)
        event_free(self->ping);
    free(self);
}

//  evhttp is freeing the connection: the client went away. When it did
//  so mid-reply, evhttp has already detached the unfinished request from
//  the connection (its connection is NULL) and left it to us to free.
static void
s_on_close(struct evhttp_connection *evcon, void *arg)
{
    (void) evcon;
    sse_t *self = arg;
    bus_log_debug("event stream closed by the client");
    if (evhttp_request_get_connection(self->req) == NULL)
        evhttp_request_free(self->req);
    s_free(self);
}

static void
s_write(sse_t *self, const char *text, size_t size)
{
    struct evbuffer *chunk = evbuffer_new();
    if (!chunk)
        return;
    evbuffer_add(chunk, text, size);
    evhttp_send_reply_chunk(self->req, chunk);
    evbuffer_free(chunk);
}

static void
s_on_ping(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    static const char ping[] = ": ping\r\n\r\n";
    s_write(arg, ping, sizeof ping - 1);
}

static bool
s_any(const char *value)
{
    return !*value || strcmp(value, "*") == 0;
}

static bool
s_wanted(const sse_t *self, const proto_session_lifecycle_t *event)
{
    const char *key = event->access_key ? event->access_key : "";
    const char *domain = event->domain_name ? event->domain_name : "";
    if (!self->everything && *self->domain && strcmp(self->domain, domain) != 0)
        return false;
    if (*self->access_key && strcmp(self->access_key, key) != 0)
        return false;
    if (*self->session_id)
        return strcmp(self->session_id, event->session_id) == 0;
    if (!s_any(self->session_name) &&
        (!event->session_name || strcmp(self->session_name, event->session_name) != 0))
        return false;
    if (!s_any(self->group_id) &&
        (!event->group_id || strcmp(self->group_id, event->group_id) != 0))
        return false;
    bool kernel = strncmp(event->event, "kernel_", 7) == 0;
    return self->scope == SCOPE_ALL || (self->scope == SCOPE_KERNEL) == kernel;
}

//  The event as Backend.AI's session event data (reference §5).
static json_t *
s_event_data(const proto_session_lifecycle_t *event)
{
    json_t *data = json_pack("{s:s?, s:s?, s:s?, s:s}", "reason",
                             event->reason && *event->reason ? event->reason : NULL,
                             "sessionName", event->session_name, "ownerAccessKey",
                             event->access_key, "sessionId", event->session_id);
    if (!data)
        return NULL;
    json_object_set_new(data, "exitCode",
                        event->has_exit_code ? json_integer(event->exit_code)
                                             : json_null());
    if (strncmp(event->event, "kernel_", 7) == 0) {
        json_object_set_new(data, "kernelId",
                            json_string(event->kernel_id ? event->kernel_id : ""));
        json_object_set_new(data, "clusterRole",
                            json_string(event->cluster_role && *event->cluster_role
                                            ? event->cluster_role
                                            : "main"));
        json_object_set_new(data, "clusterIdx",
                            json_integer((json_int_t) event->cluster_idx));
    }
    return data;
}

static void
s_on_event(const proto_session_lifecycle_t *event, void *arg)
{
    sse_t *self = arg;
    if (!s_wanted(self, event))
        return;
    json_t *data = s_event_data(event);
    char *text = data ? json_dumps(data, JSON_COMPACT) : NULL;
    json_decref(data);
    if (!text)
        return;
    struct evbuffer *chunk = evbuffer_new();
    if (chunk) {
        evbuffer_add_printf(chunk, "event: %s\r\ndata: %s\r\n\r\n", event->event, text);
        evhttp_send_reply_chunk(self->req, chunk);
        evbuffer_free(chunk);
    }
    free(text);
}

static const char *
s_param(gw_request_t *r, const char *const *names)
{
    for (; *names; names++) {
        const char *value = json_string_value(json_object_get(r->params, *names));
        if (value)
            return value;
    }
    return "";
}

//  A project (id, or name in the caller's domain) to its id; false when
//  there is none.
static bool
s_group_id(gw_request_t *r, const char *group, char id[GW_UUID_SIZE])
{
    bus_error_t err;
    return gw_group_resolve(gw_server_db(r->gw), group, r->who.domain, id, &err) ==
           BUS_OK;
}

void
gw_sse_handle_session(gw_request_t *r)
{
    static const char *const k_id[] = {"sessionId", "session_id", NULL};
    static const char *const k_name[] = {"sessionName", "name", "session_name", NULL};
    static const char *const k_owner[] = {"ownerAccessKey", "owner_access_key", NULL};
    static const char *const k_group[] = {"group", "groupName", "group_name", NULL};
    static const char *const k_scope[] = {"scope", NULL};
    const char *session_id = s_param(r, k_id), *name = s_param(r, k_name);
    const char *owner = s_param(r, k_owner), *group = s_param(r, k_group);
    const char *scope = s_param(r, k_scope);
    if (strlen(session_id) >= GW_UUID_SIZE || strlen(name) > 64 ||
        (*scope && strcmp(scope, "*") != 0 && strcmp(scope, "session") != 0 &&
         strcmp(scope, "kernel") != 0)) {
        gw_reply_problem(r, "invalid-api-params",
                         "sessionId is a UUID, a name at most 64 characters, scope *, "
                         "session or kernel");
        return;
    }
    bool admin = gw_identity_admins_domain(&r->who, r->who.domain);
    if (*owner && strcmp(owner, r->who.access_key) != 0 && !admin) {
        gw_reply_problem(r, "generic-forbidden",
                         "only administrators see other keypairs' sessions");
        return;
    }
    sse_t *self = calloc(1, sizeof *self);
    if (!self) {
        gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
        return;
    }
    self->gw = r->gw;
    self->everything = gw_identity_is_superadmin(&r->who);
    snprintf(self->domain, sizeof self->domain, "%s", r->who.domain);
    snprintf(self->access_key, sizeof self->access_key, "%s",
             *owner  ? owner
             : admin ? ""
                     : r->who.access_key);
    snprintf(self->session_id, sizeof self->session_id, "%s", session_id);
    snprintf(self->session_name, sizeof self->session_name, "%s", name);
    self->scope = strcmp(scope, "session") == 0  ? SCOPE_SESSION
                  : strcmp(scope, "kernel") == 0 ? SCOPE_KERNEL
                                                 : SCOPE_ALL;
    if (!s_any(group) && !s_group_id(r, group, self->group_id)) {
        free(self);
        gw_reply_problem(r, "object-not-found", "No such project.");
        return;
    }
    self->ping =
        event_new(bus_node_base(gw_server_node(r->gw)), -1, EV_PERSIST, s_on_ping, self);
    self->listener =
        self->ping ? gw_events_listen(gw_server_events(r->gw), s_on_event, self) : NULL;
    if (!self->listener) {
        if (self->ping)
            event_free(self->ping);
        free(self);
        gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
        return;
    }
    struct timeval every = {GW_SSE_PING_MS / 1000, (GW_SSE_PING_MS % 1000) * 1000};
    event_add(self->ping, &every);
    self->next = (*gw_server_event_streams(r->gw));
    if (self->next)
        self->next->prev = self;
    (*gw_server_event_streams(r->gw)) = self;

    struct evhttp_request *req = gw_request_take_over(r, 200);
    self->req = req;
    struct evkeyvalq *headers = evhttp_request_get_output_headers(req);
    evhttp_add_header(headers, "Server", "BackendAI");
    evhttp_add_header(headers, "Content-Type", "text/event-stream");
    evhttp_add_header(headers, "Cache-Control", "no-cache");
    evhttp_connection_set_closecb(evhttp_request_get_connection(req), s_on_close, self);
    evhttp_send_reply_start(req, 200, "OK");
    //  A first comment, so the client sees the stream open at once.
    static const char hello[] = ": stream open\r\n\r\n";
    s_write(self, hello, sizeof hello - 1);
}

//  A background task's event; after the last, server_close and the end of
//  the reply (Backend.AI's push_bgtask_events).
static void
s_on_task(void *arg, const char *event, json_t *data, bool last)
{
    sse_t *self = arg;
    char *text = json_dumps(data, JSON_COMPACT);
    struct evbuffer *chunk = evbuffer_new();
    if (chunk && text) {
        evbuffer_add_printf(chunk, "event: %s\r\ndata: %s\r\n", event, text);
        if (!last)
            evbuffer_add_printf(chunk, "retry: %d\r\n", GW_SSE_BGTASK_RETRY_MS);
        evbuffer_add_printf(chunk, "\r\n");
        if (last)
            evbuffer_add_printf(chunk, "event: server_close\r\ndata: {}\r\n\r\n");
        evhttp_send_reply_chunk(self->req, chunk);
    }
    if (chunk)
        evbuffer_free(chunk);
    free(text);
    if (last) {
        *self->task_id = 0; //  the task forgot its watchers
        evhttp_connection_set_closecb(evhttp_request_get_connection(self->req), NULL,
                                      NULL);
        evhttp_send_reply_end(self->req);
        s_free(self);
    }
}

void
gw_sse_handle_background_task(gw_request_t *r)
{
    static const char *const k_task[] = {"task_id", "taskId", NULL};
    const char *task = s_param(r, k_task);
    if (!*task || strlen(task) >= GW_BGTASK_ID_SIZE) {
        gw_reply_problem(r, "invalid-api-params", "task_id: a task id is required");
        return;
    }
    gw_bgtasks_t *tasks = gw_server_bgtasks(r->gw);
    if (!gw_bgtasks_has(tasks, task)) {
        gw_reply_problem(r, "object-not-found", "No such background task.");
        return;
    }
    sse_t *self = calloc(1, sizeof *self);
    if (self)
        self->ping = event_new(bus_node_base(gw_server_node(r->gw)), -1, EV_PERSIST,
                               s_on_ping, self);
    if (!self || !self->ping) {
        free(self);
        gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
        return;
    }
    self->gw = r->gw;
    snprintf(self->task_id, sizeof self->task_id, "%s", task);
    struct timeval every = {GW_SSE_PING_MS / 1000, (GW_SSE_PING_MS % 1000) * 1000};
    event_add(self->ping, &every);
    self->next = (*gw_server_event_streams(r->gw));
    if (self->next)
        self->next->prev = self;
    (*gw_server_event_streams(r->gw)) = self;
    struct evhttp_request *req = gw_request_take_over(r, 200);
    self->req = req;
    struct evkeyvalq *headers = evhttp_request_get_output_headers(req);
    evhttp_add_header(headers, "Server", "BackendAI");
    evhttp_add_header(headers, "Content-Type", "text/event-stream");
    evhttp_add_header(headers, "Cache-Control", "no-cache");
    evhttp_connection_set_closecb(evhttp_request_get_connection(req), s_on_close, self);
    evhttp_send_reply_start(req, 200, "OK");
    //  Checked above, on this loop: the task is there. Whatever is due now
    //  (its last update, or its end, which also ends this stream) is sent.
    if (gw_bgtasks_watch(tasks, self->task_id, s_on_task, self) != BUS_OK) {
        *self->task_id = 0;
        evhttp_connection_set_closecb(evhttp_request_get_connection(req), NULL, NULL);
        evhttp_send_reply_end(req);
        s_free(self);
    }
}

void
gw_sse_close_all(gw_server_t *gw)
{
    while ((*gw_server_event_streams(gw))) {
        sse_t *self = (*gw_server_event_streams(gw));
        evhttp_connection_set_closecb(evhttp_request_get_connection(self->req), NULL,
                                      NULL);
        evhttp_send_reply_end(self->req);
        s_free(self);
    }
}
