/*  =========================================================================
    gw_app_tunnel - GET /stream/session/{s}/tcpproxy and /httpproxy

    The official client's `backend.ai app` tunnel (reference part 2, §A.3):
    one WebSocket carries one TCP connection to an app of the session, as
    raw bytes in BINARY frames both ways (TEXT frames are dropped). The app
    is started first (gw_app), so a start that fails is an HTTP 500 and no
    upgrade; then the upgrade, then the connection to the address the agent
    answered. A refused connection closes the WebSocket with 1013, another
    failure with 1011, the app's end of the stream with 1001; the client's
    close closes the connection. Both HTTP and TCP apps pass the same way:
    the tunnel does no HTTP of its own.

    Back-pressure, so that memory stays bounded whoever is slow: above
    S_HIGH bytes queued towards the app, the client's messages are not read
    (gw_wsconn_pause) until the app's socket has drained to S_LOW; above
    S_HIGH queued towards the client, the app's socket is not read until
    the WebSocket drains (on_drained).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include <event2/bufferevent.h> //  the connection to the app

#define S_HIGH        (4 * 1024 * 1024)  //  queued bytes at which a side stops reading
#define S_LOW         (256 * 1024)       //  and at which it goes on
#define S_READ_CHUNK  (256 * 1024)       //  one BINARY frame at most (Backend.AI's)
#define S_MESSAGE_MAX (16 * 1024 * 1024) //  the official client's chunk

typedef struct {
    gw_server_t *gw;
    gw_app_t *app;
    gw_wsconn_t *ws;          //  NULL once the client side is gone
    struct bufferevent *tcp;  //  the app; NULL until connected and once closed
    uint64_t to_app, to_user; //  bytes, for the log
    bool app_ended;           //  the app closed; what it sent is still going out
} s_tunnel_t;

static void
s_finish(s_tunnel_t *self, int code, const char *reason)
{
    if (self->ws)
        gw_wsconn_close(self->ws, code, reason);
    self->ws = NULL;
    if (self->tcp)
        bufferevent_free(self->tcp);
    self->tcp = NULL;
    bus_log_info("app tunnel closed session=%s app=%s to_app=%" PRIu64 " to_user=%" PRIu64
                 " reason=\"%s\"",
                 self->app->at.session_id, self->app->name, self->to_app, self->to_user,
                 reason ? reason : "client");
    free(self->app);
    free(self);
}

//  ---------------------------------------------------------------------------
//  The app's side

static void
s_on_tcp_read(struct bufferevent *bev, void *arg)
{
    s_tunnel_t *self = arg;
    struct evbuffer *in = bufferevent_get_input(bev);
    while (self->ws && evbuffer_get_length(in) > 0 &&
           gw_wsconn_pending(self->ws) < S_HIGH) {
        size_t size = evbuffer_get_length(in);
        if (size > S_READ_CHUNK)
            size = S_READ_CHUNK;
        const uint8_t *data = evbuffer_pullup(in, (ssize_t) size);
        if (gw_wsconn_send(self->ws, GW_WS_BINARY, data, size) != 0) {
            evbuffer_drain(in, evbuffer_get_length(in));
            return; //  the client is going: on_gone ends the tunnel
        }
        self->to_user += size;
        evbuffer_drain(in, size);
    }
    if (self->ws && gw_wsconn_pending(self->ws) >= S_HIGH)
        bufferevent_disable(bev, EV_READ); //  until the client drains
    else if (self->app_ended && evbuffer_get_length(in) == 0)
        s_finish(self, GW_WS_CLOSE_GOING_AWAY, "the app closed the connection");
}

//  What was queued for the app fell to S_LOW: read the client again.
static void
s_on_tcp_drained(struct bufferevent *bev, void *arg)
{
    (void) bev;
    s_tunnel_t *self = arg;
    if (self->ws)
        gw_wsconn_pause(self->ws, false);
}

static void
s_on_tcp_event(struct bufferevent *bev, short what, void *arg)
{
    s_tunnel_t *self = arg;
    if (what & BEV_EVENT_CONNECTED) {
        bus_log_info("app tunnel open session=%s app=%s address=%s:%d",
                     self->app->at.session_id, self->app->name, self->app->host,
                     self->app->host_port);
        return;
    }
    if (what & BEV_EVENT_EOF) {
        //  What the app sent before its end still goes out, then the close.
        self->app_ended = true;
        bufferevent_disable(bev, EV_READ);
        s_on_tcp_read(bev, self);
        return;
    }
    int error = EVUTIL_SOCKET_ERROR();
    bool refused = self->to_user == 0 && self->to_app == 0 && error == ECONNREFUSED;
    s_finish(self, refused ? GW_WS_CLOSE_TRY_AGAIN : GW_WS_CLOSE_INTERNAL,
             refused ? "the app refused the connection" : "the app's connection failed");
}

//  ---------------------------------------------------------------------------
//  The client's side

static void
s_on_message(
    gw_wsconn_t *ws, gw_ws_opcode_t opcode, const uint8_t *data, size_t size, void *arg)
{
    (void) ws;
    s_tunnel_t *self = arg;
    if (opcode != GW_WS_BINARY || !self->tcp || size == 0)
        return; //  Backend.AI drops TEXT frames
    gw_activity_touch(gw_server_activity(self->gw), self->app->at.session_id);
    struct evbuffer *out = bufferevent_get_output(self->tcp);
    evbuffer_add(out, data, size);
    self->to_app += size;
    if (evbuffer_get_length(out) >= S_HIGH)
        gw_wsconn_pause(self->ws, true); //  until the app drains
}

static void
s_on_drained(gw_wsconn_t *ws, void *arg)
{
    (void) ws;
    s_tunnel_t *self = arg;
    if (self->tcp && !(bufferevent_get_enabled(self->tcp) & EV_READ)) {
        if (!self->app_ended)
            bufferevent_enable(self->tcp, EV_READ);
        s_on_tcp_read(self->tcp, self); //  what waited in its input
    }
}

static void
s_on_gone(gw_wsconn_t *ws, void *arg)
{
    (void) ws;
    s_tunnel_t *self = arg;
    self->ws = NULL;
    s_finish(self, 0, NULL);
}

//  ---------------------------------------------------------------------------

static void
s_on_started(gw_request_t *r, gw_app_t *app, bool started, void *arg)
{
    (void) arg;
    if (!started) {
        free(app);
        return; //  answered
    }
    s_tunnel_t *self = calloc(1, sizeof *self);
    if (!self) {
        free(app);
        gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
        return;
    }
    self->gw = r->gw;
    self->app = app;
    const gw_wsconn_handlers_t handlers = {.on_message = s_on_message,
                                           .on_gone = s_on_gone,
                                           .on_drained = s_on_drained,
                                           .max_message = S_MESSAGE_MAX};
    struct event_base *base = bus_node_base(gw_server_node(r->gw));
    self->ws = gw_wsconn_accept(r, &handlers, self);
    if (!self->ws) {
        free(app);
        free(self);
        return; //  answered
    }
    struct sockaddr_storage addr;
    socklen_t addr_len = 0;
    self->tcp = bufferevent_socket_new(base, -1, BEV_OPT_CLOSE_ON_FREE);
    if (!self->tcp ||
        bus_addr_numeric(app->host, (uint16_t) app->host_port, &addr, &addr_len) != 0) {
        s_finish(self, GW_WS_CLOSE_INTERNAL, "the app has no address");
        return;
    }
    bufferevent_setcb(self->tcp, s_on_tcp_read, s_on_tcp_drained, s_on_tcp_event, self);
    bufferevent_setwatermark(self->tcp, EV_WRITE, S_LOW, 0);
    bufferevent_enable(self->tcp, EV_READ | EV_WRITE);
    if (bufferevent_socket_connect(self->tcp, (struct sockaddr *) &addr,
                                   (int) addr_len) != 0)
        s_finish(self,
                 errno == ECONNREFUSED ? GW_WS_CLOSE_TRY_AGAIN : GW_WS_CLOSE_INTERNAL,
                 "cannot connect to the app");
}

static void
s_on_session(gw_request_t *r, proto_session_info_t *info, void *arg)
{
    (void) arg;
    gw_app_t *app = malloc(sizeof *app);
    if (!app) {
        gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
        return;
    }
    if (!gw_app_resolve(r, info, app)) {
        free(app);
        return; //  answered
    }
    //  Only a WebSocket starts the app.
    if (!gw_wsconn_requested(r)) {
        free(app);
        gw_reply_problem(r, "generic-bad-request", "this route speaks WebSocket only");
        return;
    }
    gw_app_start(r, app, s_on_started, NULL);
}

void
gw_app_tunnel_handle(gw_request_t *r)
{
    gw_session_find(r, s_on_session, NULL);
}
