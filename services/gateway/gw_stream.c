/*  =========================================================================
    gw_stream - the /stream/session/{s}/... WebSocket routes

    One execute stream is a small state machine:
        AWAIT_REQUEST   the WebSocket is open; the first message is awaited
        EXECUTING       a kernel.execute is on its way to the agent
        AWAIT_INPUT     the run asked for input; the next message is it
    Each kernel.execute answer goes to the client as it is; "continued",
    "clean-finished" and "build-finished" are followed by a "continue"
    call, "waiting-input" by AWAIT_INPUT, anything else ends the stream.
    A client that goes away mid-run leaves nothing running: the run is
    interrupted (SIGINT), killed GW_STREAM_KILL_MS later if it is still
    there, and the stream is freed when the call in flight returns.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define EXEC_CALL_TIMEOUT_MS (GW_STREAM_FLUSH_MS + 10000)

typedef enum { AWAIT_REQUEST, EXECUTING, AWAIT_INPUT } stream_state_t;

typedef struct {
    gw_server_t *gw;
    gw_wsconn_t *ws; //  NULL once the client is gone
    stream_state_t state;
    gw_session_kernel_t at; //  the session's kernel and its agent
    char run_id[GW_UUID_SIZE];
    char mode[16];
    char *options; //  the batch options as JSON text, for the first call only
} exec_stream_t;

static void
s_stream_free(exec_stream_t *self)
{
    free(self->options);
    free(self);
}

//  Tells the client what went wrong and closes (reference §4: errors arrive
//  as {"status":"error","msg":...}).
static void
s_fail(exec_stream_t *self, const char *message)
{
    if (!self->ws)
        return;
    gw_wsconn_send_json(self->ws,
                        json_pack("{s:s, s:s}", "status", "error", "msg", message));
    gw_wsconn_close(self->ws, GW_WS_CLOSE_NORMAL, NULL);
    self->ws = NULL;
}

static void s_on_executed(void *arg, const bus_reply_t *reply);

//  Asks the agent for the run's next result.
static void
s_execute(exec_stream_t *self, const char *mode, const char *code, size_t code_size)
{
    proto_kernel_execute_req_t in;
    proto_kernel_execute_req_init(&in);
    in.kernel_id = self->at.kernel_id;
    in.run_id = self->run_id;
    in.mode = mode;
    char *text = strndup(code ? code : "", code ? code_size : 0);
    in.code = text;
    in.options = self->options;
    in.wait_ms = GW_STREAM_FLUSH_MS;
    bus_error_t err;
    bus_writer_t *writer = text ? proto_kernel_execute_req_writer(&in, &err) : NULL;
    free(text);
    free(self->options);
    self->options = NULL;
    if (!writer) {
        self->state = AWAIT_REQUEST;
        s_fail(self, text ? err.detail : "out of memory");
        return;
    }
    self->state = EXECUTING;
    bool sent =
        bus_node_call(gw_server_node(self->gw), self->at.agent_addr, PROTO_KERNEL_EXECUTE,
                      bus_writer_data(writer), bus_writer_size(writer),
                      EXEC_CALL_TIMEOUT_MS, s_on_executed, self) != 0;
    bus_writer_destroy(&writer);
    if (!sent) {
        self->state = AWAIT_REQUEST;
        s_fail(self, "the session's agent is not reachable");
    }
}

//  Frees the stream once the client is gone and no call is out.
static void
s_settle(exec_stream_t *self)
{
    if (!self->ws && self->state != EXECUTING)
        s_stream_free(self);
}

static void
s_on_executed(void *arg, const bus_reply_t *reply)
{
    exec_stream_t *self = arg;
    self->state = AWAIT_REQUEST;
    if (!self->ws) { //  the client left while the call was out
        s_stream_free(self);
        return;
    }
    proto_kernel_execute_rep_t rep;
    bus_error_t err = {0};
    json_t *result = NULL;
    if (reply->status != BUS_OK)
        bus_error_set(&err, reply->status, "%s", reply->detail);
    else if (proto_kernel_execute_rep_decode(&rep, reply->body, reply->body_size, &err) ==
             BUS_OK) {
        result = json_loads(rep.result, 0, NULL);
        proto_kernel_execute_rep_clear(&rep);
    }
    const char *status = json_string_value(json_object_get(result, "status"));
    if (!status) {
        json_decref(result);
        s_fail(self, err.detail[0] ? err.detail : "the agent's answer was not a result");
        s_stream_free(self);
        return;
    }
    bool go_on = strcmp(status, "continued") == 0 ||
                 strcmp(status, "clean-finished") == 0 ||
                 strcmp(status, "build-finished") == 0;
    bool wait_input = strcmp(status, "waiting-input") == 0;
    gw_wsconn_send_json(self->ws, json_incref(result));
    json_decref(result);
    if (go_on)
        s_execute(self, "continue", "", 0);
    else if (wait_input)
        self->state = AWAIT_INPUT;
    else {
        gw_wsconn_close(self->ws, GW_WS_CLOSE_NORMAL, NULL);
        self->ws = NULL;
        self->state = AWAIT_REQUEST;
    }
    s_settle(self);
}

//  The first message: {"code", "mode", "options"}.
static void
s_start(exec_stream_t *self, const uint8_t *data, size_t size)
{
    json_t *request = json_loadb((const char *) data, size, 0, NULL);
    const char *mode = json_string_value(json_object_get(request, "mode"));
    const char *code = json_string_value(json_object_get(request, "code"));
    json_t *options = json_object_get(request, "options");
    if (!mode)
        mode = "query";
    if (!json_is_object(request) ||
        (strcmp(mode, "query") != 0 && strcmp(mode, "batch") != 0)) {
        json_decref(request);
        s_fail(
            self,
            "the first message must be {\"code\", \"mode\": query|batch, \"options\"}");
        return;
    }
    snprintf(self->mode, sizeof self->mode, "%s", mode);
    if (json_is_object(options) && json_object_size(options))
        self->options = json_dumps(options, JSON_COMPACT);
    gw_uuid_new(self->run_id);
    bus_log_info("stream execute session=%s run=%s mode=%s", self->at.session_id,
                 self->run_id, self->mode);
    char *code_text = strdup(code ? code : "");
    json_decref(request);
    if (!code_text) {
        s_fail(self, "out of memory");
        return;
    }
    s_execute(self, self->mode, code_text, strlen(code_text));
    free(code_text);
}

static void
s_on_message(
    gw_wsconn_t *ws, gw_ws_opcode_t opcode, const uint8_t *data, size_t size, void *arg)
{
    (void) ws;
    exec_stream_t *self = arg;
    gw_activity_touch(gw_server_activity(self->gw), self->at.session_id);
    if (self->state == AWAIT_REQUEST)
        s_start(self, data, size);
    else if (self->state == AWAIT_INPUT && opcode == GW_WS_TEXT)
        s_execute(self, "input", (const char *) data, size);
    else
        bus_log_debug("stream execute ignored a message session=%s state=%d",
                      self->at.session_id, (int) self->state);
    s_settle(self);
}

static void
s_on_interrupted(void *arg, const bus_reply_t *reply)
{
    (void) arg;
    (void) reply;
}

//  Sends kernel.interrupt for the stream's kernel, forced or not.
static void
s_interrupt(gw_server_t *gw,
            const char *agent_addr,
            const char *kernel_id,
            const char *run_id,
            bool force)
{
    proto_kernel_interrupt_req_t in;
    proto_kernel_interrupt_req_init(&in);
    in.kernel_id = kernel_id;
    in.run_id = run_id;
    in.force = force;
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_kernel_interrupt_req_write(&in, writer) == 0)
        bus_node_call(gw_server_node(gw), agent_addr, PROTO_KERNEL_INTERRUPT,
                      bus_writer_data(writer), bus_writer_size(writer), 0,
                      s_on_interrupted, NULL);
    bus_writer_destroy(&writer);
}

//  What is left of a stream whose client left mid-run: the run to stop.
//  The gateway lists them, so that its shutdown frees the ones still
//  waiting.
struct _gw_orphan_run_t {
    gw_server_t *gw;
    struct event *timer;
    char kernel_id[GW_UUID_SIZE];
    char run_id[GW_UUID_SIZE];
    char agent_addr[256];
    struct _gw_orphan_run_t *prev, *next;
};
typedef struct _gw_orphan_run_t orphan_run_t;

static void
s_orphan_free(orphan_run_t *orphan)
{
    if (orphan->prev)
        orphan->prev->next = orphan->next;
    else if ((*gw_server_orphan_runs(orphan->gw)) == orphan)
        (*gw_server_orphan_runs(orphan->gw)) = orphan->next;
    if (orphan->next)
        orphan->next->prev = orphan->prev;
    if (orphan->timer)
        event_free(orphan->timer);
    free(orphan);
}

//  GW_STREAM_KILL_MS after the interrupt: a run that ignored SIGINT (or
//  went on regardless) is killed, so the kernel is free for the next. The
//  run id makes it a no-op when that run has finished meanwhile, whatever
//  runs now.
static void
s_on_kill_timer(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    orphan_run_t *orphan = arg;
    s_interrupt(orphan->gw, orphan->agent_addr, orphan->kernel_id, orphan->run_id, true);
    s_orphan_free(orphan);
}

static void
s_on_gone(gw_wsconn_t *ws, void *arg)
{
    (void) ws;
    exec_stream_t *self = arg;
    self->ws = NULL;
    if (self->state == AWAIT_REQUEST) {
        s_stream_free(self);
        return;
    }
    //  A run is under way: stop it, so that the kernel is free for the next.
    bus_log_info("stream execute client gone session=%s run=%s", self->at.session_id,
                 self->run_id);
    s_interrupt(self->gw, self->at.agent_addr, self->at.kernel_id, self->run_id, false);
    orphan_run_t *orphan = calloc(1, sizeof *orphan);
    if (orphan) {
        orphan->gw = self->gw;
        snprintf(orphan->kernel_id, sizeof orphan->kernel_id, "%s", self->at.kernel_id);
        snprintf(orphan->run_id, sizeof orphan->run_id, "%s", self->run_id);
        snprintf(orphan->agent_addr, sizeof orphan->agent_addr, "%s",
                 self->at.agent_addr);
        struct timeval later = {GW_STREAM_KILL_MS / 1000,
                                (GW_STREAM_KILL_MS % 1000) * 1000};
        orphan->timer =
            evtimer_new(bus_node_base(gw_server_node(self->gw)), s_on_kill_timer, orphan);
        orphan->next = (*gw_server_orphan_runs(self->gw));
        if (orphan->next)
            orphan->next->prev = orphan;
        (*gw_server_orphan_runs(self->gw)) = orphan;
        if (!orphan->timer || evtimer_add(orphan->timer, &later) != 0)
            s_orphan_free(orphan);
    }
    s_settle(self); //  else the call in flight frees it
}

static void
s_on_session(gw_request_t *r, proto_session_info_t *info, void *arg)
{
    (void) arg;
    gw_session_kernel_t at;
    if (!gw_session_kernel(r, info, &at))
        return;
    exec_stream_t *self = calloc(1, sizeof *self);
    if (!self) {
        gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
        return;
    }
    self->gw = r->gw;
    self->at = at;
    static const gw_wsconn_handlers_t handlers = {.on_message = s_on_message,
                                                  .on_gone = s_on_gone};
    self->ws = gw_wsconn_accept(r, &handlers, self);
    if (!self->ws)
        s_stream_free(self);
}

void
gw_stream_handle_execute(gw_request_t *r)
{
    //  Refuse a plain GET before asking anyone anything.
    if (!gw_wsconn_requested(r)) {
        gw_reply_problem(r, "generic-bad-request", "this route speaks WebSocket only");
        return;
    }
    gw_session_find(r, s_on_session, NULL);
}

void
gw_stream_close_all(gw_server_t *gw)
{
    while ((*gw_server_orphan_runs(gw)))
        s_orphan_free((*gw_server_orphan_runs(gw)));
}
