/*  =========================================================================
    gw_wsconn - one WebSocket connection, taken over from an HTTP request

    After the 101, evhttp still counts the connection as one of its own with
    a request awaiting a reply, but nothing of it runs any more: the
    bufferevent's callbacks, timeouts and the request are ours. The
    connection is freed through evhttp_connection_free, which also frees
    that request and removes the connection from the server's list.

    States: OPEN (messages flow both ways), CLOSING (our close frame is out;
    waiting for the client's, at most GW_WSCONN_CLOSE_MS), DONE (nothing
    more to read; freed as soon as the output has drained). Freeing only
    happens at the end of one of this module's own libevent callbacks, so
    an owner may close from inside on_message without pulling the floor
    from under the reader.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include <event2/bufferevent.h> //  the upgraded connection is read and written directly

#define READ_CHUNK 16384

typedef enum { WS_OPEN, WS_CLOSING, WS_DONE } ws_state_t;

struct _gw_wsconn_t {
    gw_server_t *gw;
    struct evhttp_connection *evcon;
    struct bufferevent *bev;
    gw_ws_reader_t *reader;
    gw_wsconn_handlers_t handlers;
    void *arg;
    bool owner_gone;  //  the owner closed, or heard on_gone: no more calls
    bool drop_output; //  the socket failed: free without waiting to drain
    bool paused;      //  the owner stopped reading (gw_wsconn_pause)
    ws_state_t state;
    struct event *timer;      //  pings while OPEN, the close deadline while CLOSING
    int64_t heard_ms;         //  when the client last sent anything
    char path[GW_PATH_MAX];   //  for the log
    gw_wsconn_t *prev, *next; //  the gateway's connections
};

//  Splits a header on commas and says whether one element is token.
static bool
s_header_has(const char *value, const char *token)
{
    size_t len = strlen(token);
    for (const char *p = value; p && *p;) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        const char *end = p;
        while (*end && *end != ',')
            end++;
        const char *last = end;
        while (last > p && (last[-1] == ' ' || last[-1] == '\t'))
            last--;
        if ((size_t) (last - p) == len && strncasecmp(p, token, len) == 0)
            return true;
        p = end;
    }
    return false;
}

bool
gw_wsconn_requested(gw_request_t *r)
{
    char accept[GW_WS_ACCEPT_SIZE];
    const char *version = gw_request_header(r, "Sec-WebSocket-Version");
    return r->req && evhttp_request_get_command(r->req) == EVHTTP_REQ_GET &&
           s_header_has(gw_request_header(r, "Upgrade"), "websocket") &&
           s_header_has(gw_request_header(r, "Connection"), "upgrade") && version &&
           strcmp(version, "13") == 0 &&
           gw_ws_accept_key(gw_request_header(r, "Sec-WebSocket-Key"), accept);
}

static void
s_unlink(gw_wsconn_t *self)
{
    if (self->prev)
        self->prev->next = self->next;
    else if ((*gw_server_websockets(self->gw)) == self)
        (*gw_server_websockets(self->gw)) = self->next;
    if (self->next)
        self->next->prev = self->prev;
    self->prev = self->next = NULL;
}

static void
s_free(gw_wsconn_t *self)
{
    bus_log_debug("websocket freed path=%s", self->path);
    s_unlink(self);
    if (self->timer)
        event_free(self->timer);
    gw_ws_reader_destroy(&self->reader);
    //  Frees the bufferevent (closing the socket) and evhttp's request.
    evhttp_connection_free(self->evcon);
    free(self);
}

//  The end of each of our callbacks: free when nothing more is to come.
static void
s_settle(gw_wsconn_t *self)
{
    if (self->state == WS_DONE &&
        (self->drop_output ||
         evbuffer_get_length(bufferevent_get_output(self->bev)) == 0))
        s_free(self);
}

//  Tells the owner, once, that the connection is gone.
static void
s_tell_gone(gw_wsconn_t *self)
{
    if (self->owner_gone)
        return;
    self->owner_gone = true;
    if (self->handlers.on_gone)
        self->handlers.on_gone(self, self->arg);
}

static void
s_write_frame(gw_wsconn_t *self, gw_ws_opcode_t opcode, const void *data, size_t size)
{
    uint8_t header[GW_WS_HEADER_MAX];
    struct evbuffer *out = bufferevent_get_output(self->bev);
    //  A client that does not read what it asked for is dropped before the
    //  gateway holds more than GW_WSCONN_OUTPUT_MAX for it.
    if (evbuffer_get_length(out) + size > GW_WSCONN_OUTPUT_MAX) {
        bus_log_info("websocket client too slow path=%s", self->path);
        self->state = WS_DONE;
        self->drop_output = true;
        return;
    }
    evbuffer_add(out, header, gw_ws_frame_header(header, opcode, size));
    if (size)
        evbuffer_add(out, data, size);
}

//  Sends our close frame and waits for the client's (or the deadline).
static void
s_start_close(gw_wsconn_t *self, int code, const char *reason)
{
    if (self->state != WS_OPEN)
        return;
    uint8_t payload[GW_WS_CONTROL_MAX];
    s_write_frame(self, GW_WS_CLOSE, payload, gw_ws_close_payload(payload, code, reason));
    self->state = WS_CLOSING;
    struct timeval deadline = {GW_WSCONN_CLOSE_MS / 1000,
                               (GW_WSCONN_CLOSE_MS % 1000) * 1000};
    event_del(self->timer);
    event_add(self->timer, &deadline);
}

static bool
s_on_frame(void *arg, gw_ws_opcode_t opcode, const uint8_t *data, size_t size)
{
    gw_wsconn_t *self = arg;
    switch (opcode) {
        case GW_WS_PING:
            if (self->state == WS_OPEN)
                s_write_frame(self, GW_WS_PONG, data, size);
            return true;
        case GW_WS_PONG:
            return true;
        case GW_WS_CLOSE:
            //  Answer an opening close with the same code; ours is answered.
            if (self->state == WS_OPEN)
                s_write_frame(self, GW_WS_CLOSE, data, size >= 2 ? 2 : 0);
            self->state = WS_DONE;
            s_tell_gone(self);
            return false;
        default:
            if (self->state == WS_OPEN && !self->owner_gone && self->handlers.on_message)
                self->handlers.on_message(self, opcode, data, size, self->arg);
            return true;
    }
}

static void
s_on_read(struct bufferevent *bev, void *arg)
{
    gw_wsconn_t *self = arg;
    struct evbuffer *in = bufferevent_get_input(bev);
    uint8_t chunk[READ_CHUNK];
    self->heard_ms = bus_clock_mono_ms();
    while (self->state != WS_DONE && evbuffer_get_length(in) > 0) {
        int size = evbuffer_remove(in, chunk, sizeof chunk);
        if (size <= 0)
            break;
        int refused =
            gw_ws_reader_feed(self->reader, chunk, (size_t) size, s_on_frame, self);
        if (refused) {
            bus_log_info("websocket refused path=%s close_code=%d", self->path, refused);
            s_tell_gone(self);
            s_start_close(self, refused, "protocol error");
            self->state = WS_DONE;
        }
    }
    if (self->state == WS_DONE)
        evbuffer_drain(in, evbuffer_get_length(in));
    s_settle(self);
}

static void
s_on_write(struct bufferevent *bev, void *arg)
{
    (void) bev;
    gw_wsconn_t *self = arg;
    if (self->state == WS_OPEN && !self->owner_gone && self->handlers.on_drained)
        self->handlers.on_drained(self, self->arg);
    s_settle(self);
}

static void
s_on_event(struct bufferevent *bev, short what, void *arg)
{
    (void) bev;
    gw_wsconn_t *self = arg;
    bus_log_debug("websocket ended path=%s eof=%d error=%d", self->path,
                  !!(what & BEV_EVENT_EOF), !!(what & BEV_EVENT_ERROR));
    self->state = WS_DONE;
    self->drop_output = true;
    s_tell_gone(self);
    s_settle(self);
}

//  OPEN: ping, or give up on a silent client. CLOSING: the client never
//  answered our close.
static void
s_on_timer(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    gw_wsconn_t *self = arg;
    if (self->state == WS_OPEN &&
        (self->paused || bus_clock_mono_ms() - self->heard_ms < GW_WSCONN_IDLE_MS)) {
        s_write_frame(self, GW_WS_PING, NULL, 0);
        return;
    }
    if (self->state == WS_OPEN)
        bus_log_info("websocket silent path=%s", self->path);
    self->state = WS_DONE;
    self->drop_output = true;
    s_tell_gone(self);
    s_settle(self);
}

gw_wsconn_t *
gw_wsconn_accept(gw_request_t *r, const gw_wsconn_handlers_t *handlers, void *arg)
{
    if (!gw_wsconn_requested(r)) {
        gw_reply_problem(r, "generic-bad-request", "this route speaks WebSocket only");
        return NULL;
    }
    char accept[GW_WS_ACCEPT_SIZE];
    gw_ws_accept_key(gw_request_header(r, "Sec-WebSocket-Key"), accept);
    gw_wsconn_t *self = calloc(1, sizeof *self);
    if (self)
        self->reader = gw_ws_reader_new(handlers->max_message ? handlers->max_message
                                                              : GW_WSCONN_MAX_MESSAGE);
    if (!self || !self->reader) {
        if (self)
            free(self);
        gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->gw = r->gw;
    self->handlers = *handlers;
    self->arg = arg;
    self->heard_ms = bus_clock_mono_ms();
    snprintf(self->path, sizeof self->path, "%s", r->path);
    struct evhttp_request *req = gw_request_take_over(r, 101);
    self->evcon = evhttp_request_get_connection(req);
    self->bev = evhttp_connection_get_bufferevent(self->evcon);
    self->timer =
        event_new(bufferevent_get_base(self->bev), -1, EV_PERSIST, s_on_timer, self);
    if (!self->timer) {
        gw_ws_reader_destroy(&self->reader);
        evhttp_connection_free(self->evcon);
        free(self);
        return NULL;
    }
    evbuffer_add_printf(bufferevent_get_output(self->bev),
                        "HTTP/1.1 101 Switching Protocols\r\n"
                        "Upgrade: websocket\r\n"
                        "Connection: Upgrade\r\n"
                        "Sec-WebSocket-Accept: %s\r\n"
                        "Server: BackendAI\r\n\r\n",
                        accept);
    bufferevent_set_timeouts(self->bev, NULL, NULL);
    bufferevent_setwatermark(self->bev, EV_WRITE, GW_WSCONN_DRAINED, 0);
    bufferevent_setcb(self->bev, s_on_read, s_on_write, s_on_event, self);
    bufferevent_enable(self->bev, EV_READ | EV_WRITE);
    struct timeval ping = {GW_WSCONN_PING_MS / 1000, (GW_WSCONN_PING_MS % 1000) * 1000};
    event_add(self->timer, &ping);
    self->next = (*gw_server_websockets(self->gw));
    if (self->next)
        self->next->prev = self;
    (*gw_server_websockets(self->gw)) = self;
    bus_log_info("websocket open path=%s", self->path);
    return self;
}

int
gw_wsconn_send(gw_wsconn_t *self, gw_ws_opcode_t opcode, const void *data, size_t size)
{
    if (self->state != WS_OPEN)
        return -1;
    s_write_frame(self, opcode, data, size);
    //  Dropped for being too slow: the ping timer ends it and tells the owner.
    return self->state == WS_OPEN ? 0 : -1;
}

size_t
gw_wsconn_pending(gw_wsconn_t *self)
{
    return evbuffer_get_length(bufferevent_get_output(self->bev));
}

void
gw_wsconn_pause(gw_wsconn_t *self, bool paused)
{
    if (self->state != WS_OPEN || paused == self->paused)
        return;
    if (paused) {
        bufferevent_disable(self->bev, EV_READ);
        self->paused = true;
    } else {
        self->paused = false;
        self->heard_ms = bus_clock_mono_ms(); //  the silence was ours
        bufferevent_enable(self->bev, EV_READ);
    }
}

int
gw_wsconn_send_json(gw_wsconn_t *self, json_t *document)
{
    char *text = document ? json_dumps(document, JSON_COMPACT) : NULL;
    json_decref(document);
    int rc = text ? gw_wsconn_send(self, GW_WS_TEXT, text, strlen(text)) : -1;
    free(text);
    return rc;
}

void
gw_wsconn_close(gw_wsconn_t *self, int code, const char *reason)
{
    self->owner_gone = true;
    s_start_close(self, code, reason);
}

void
gw_wsconn_close_all(gw_server_t *gw)
{
    while ((*gw_server_websockets(gw))) {
        gw_wsconn_t *self = (*gw_server_websockets(gw));
        s_tell_gone(self);
        s_start_close(self, GW_WS_CLOSE_GOING_AWAY, "server-restarting");
        s_free(self);
    }
}
