/*  =========================================================================
    agent_runner_client - the agent's side of the kernel runner's socket

    A bufferevent over a non-blocking Unix socket, opened when something must
    be sent. Frames from the runner are cut from the input buffer and go to
    the run named by their wire id (a u32 the client picks; the caller names
    runs by their Backend.AI runId). Each run keeps its output as console
    items (consecutive bytes of one stream merged), up to
    AGENT_RUNNER_CLIENT_OUTPUT_MAX, and its end (FINISHED) or its prompt
    (WAITING_INPUT). A collect or status request is a waiter with its own
    timer: the timer fires at the wait budget, or is made active at once when
    the answer is there, so the caller's callback always runs from its own
    loop callback and may call the client (even destroy it). When the
    connection drops while runs are going, the client reconnects (the runner
    re-sends what it queued); when that fails the runs are lost and their
    waiters fail with BUS_STATUS_UNAVAILABLE. The console text is made valid
    UTF-8 for JSON: a character cut by a collect is held back for the next
    one, invalid bytes become U+FFFD.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
//  bufferevent and the Unix socket address are not in bus_classes.h.
#include <event2/bufferevent.h>
#include <sys/socket.h>
#include <sys/un.h>

//  Console item kind of a "output dropped" marker (not a frame kind).
#define S_ITEM_DROPPED 0
#define S_REPLACEMENT  "\xef\xbf\xbd"
//  Sets err and evaluates to -1.
#define S_FAIL(err, ...) (bus_error_set((err), __VA_ARGS__), -1)

typedef struct {
    uint8_t kind; //  AGENT_RUNNER_STDOUT, _STDERR or S_ITEM_DROPPED
    char *data;
    size_t size;
    size_t cap;
    size_t dropped; //  S_ITEM_DROPPED: bytes dropped there
} s_item_t;

typedef struct _s_waiter_t s_waiter_t;

typedef struct _s_run_t {
    struct _s_run_t *next;
    char *name;
    uint32_t wire_id;
    s_item_t *items;
    size_t nitems;
    size_t items_cap;
    size_t buffered; //  output bytes held in items
    bool truncated;  //  output was dropped since the last collect
    bool finished;
    int32_t exit_code;
    bool waiting;
    bool password;
    bool lost; //  the runner went away before the run finished
    bus_error_t lost_err;
    s_waiter_t *collect; //  the pending collect, if any
} s_run_t;

struct _s_waiter_t {
    s_waiter_t *next;
    agent_runner_client_t *client;
    struct event *timer;
    s_run_t *run;       //  collect: the run it waits on (NULL: answered by err)
    bool is_status;     //  a request answered by one text frame (status, service)
    uint8_t reply_kind; //  status: the kind of frame that answers it
    const char *what;   //  status: the request, for a timeout's message
    uint32_t wire_id;   //  status: the request's id
    agent_runner_collect_fn *collect_fn;
    agent_runner_status_fn *status_fn;
    void *arg;
    bool has_err;
    bus_error_t err;
    char *reply; //  status: the runner's reply
};

struct _agent_runner_client_t {
    struct event_base *base;
    char *socket_path;
    struct bufferevent *bev; //  NULL while not connected
    int reconnects;          //  in a row, without a frame received
    uint32_t next_wire_id;
    s_run_t *runs;
    size_t nruns;
    s_waiter_t *waiters;
    agent_runner_pty_fn *pty_fn;
    void *pty_arg;
    agent_runner_finished_fn *finished_fn;
    void *finished_arg;
};

typedef struct {
    char *data;
    size_t size;
    size_t cap;
} s_text_t;

static int
s_text_append(s_text_t *t, const void *data, size_t size)
{
    if (t->size + size + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 256;
        while (cap < t->size + size + 1)
            cap *= 2;
        char *grown = realloc(t->data, cap);
        if (!grown)
            return -1;
        t->data = grown;
        t->cap = cap;
    }
    if (size)
        memcpy(t->data + t->size, data, size);
    t->size += size;
    t->data[t->size] = '\0';
    return 0;
}

//  Length of the UTF-8 sequence at p (n bytes left): > 0 when valid, 0 when it
//  is valid so far but cut by the end, -1 when invalid. Strict like jansson:
//  no overlong forms, no surrogates, nothing above U+10FFFF.
static int
s_utf8_seq(const uint8_t *p, size_t n)
{
    uint8_t b = p[0];
    int len;
    uint8_t lo = 0x80, hi = 0xbf;
    if (b < 0x80)
        return 1;
    if (b >= 0xc2 && b <= 0xdf)
        len = 2;
    else if (b >= 0xe0 && b <= 0xef) {
        len = 3;
        if (b == 0xe0)
            lo = 0xa0;
        else if (b == 0xed)
            hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
        len = 4;
        if (b == 0xf0)
            lo = 0x90;
        else if (b == 0xf4)
            hi = 0x8f;
    } else
        return -1;
    for (int i = 1; i < len; i++) {
        if ((size_t) i >= n)
            return 0;
        uint8_t c = p[i];
        if (i == 1 ? (c < lo || c > hi) : (c < 0x80 || c > 0xbf))
            return -1;
    }
    return len;
}

//  Appends data to t as valid UTF-8. With hold, a sequence cut by the end is
//  left out. Returns the bytes of data used, or (size_t) -1 when out of memory.
static size_t
s_utf8_append(s_text_t *t, const char *data, size_t size, bool hold)
{
    const uint8_t *p = (const uint8_t *) data;
    size_t at = 0;
    while (at < size) {
        size_t run = at;
        int len;
        while (run < size && (len = s_utf8_seq(p + run, size - run)) > 0)
            run += (size_t) len;
        if (s_text_append(t, p + at, run - at) != 0)
            return (size_t) -1;
        at = run;
        if (at == size)
            break;
        if (s_utf8_seq(p + at, size - at) == 0 && hold)
            return at;
        if (s_text_append(t, S_REPLACEMENT, sizeof S_REPLACEMENT - 1) != 0)
            return (size_t) -1;
        at++;
    }
    return at;
}

static void
s_item_clear(s_item_t *item)
{
    free(item->data);
    memset(item, 0, sizeof *item);
}

static s_item_t *
s_run_new_item(s_run_t *run, uint8_t kind)
{
    if (run->nitems == run->items_cap) {
        size_t cap = run->items_cap ? run->items_cap * 2 : 8;
        s_item_t *grown = realloc(run->items, cap * sizeof *grown);
        if (!grown)
            return NULL;
        run->items = grown;
        run->items_cap = cap;
    }
    s_item_t *item = &run->items[run->nitems++];
    memset(item, 0, sizeof *item);
    item->kind = kind;
    return item;
}

//  Appends output of kind to the run, merging with the last item of the same
//  stream, dropping what goes beyond the cap.
static void
s_run_output(s_run_t *run, uint8_t kind, const uint8_t *data, size_t size)
{
    size_t room = AGENT_RUNNER_CLIENT_OUTPUT_MAX - run->buffered;
    size_t take = size < room ? size : room;
    s_item_t *last = run->nitems ? &run->items[run->nitems - 1] : NULL;
    if (take > 0) {
        if (!last || last->kind != kind)
            last = s_run_new_item(run, kind);
        if (last && last->size + take > last->cap) {
            size_t cap = last->cap ? last->cap : 1024;
            while (cap < last->size + take)
                cap *= 2;
            char *grown = realloc(last->data, cap);
            if (grown) {
                last->data = grown;
                last->cap = cap;
            }
        }
        if (!last || last->size + take > last->cap)
            take = 0; //  out of memory: counted as dropped below
        else {
            memcpy(last->data + last->size, data, take);
            last->size += take;
            run->buffered += take;
        }
    }
    if (take < size) {
        last = run->nitems ? &run->items[run->nitems - 1] : NULL;
        if (!last || last->kind != S_ITEM_DROPPED)
            last = s_run_new_item(run, S_ITEM_DROPPED);
        if (last)
            last->dropped += size - take;
        run->truncated = true;
    }
}

static void
s_run_destroy(s_run_t **run_p)
{
    s_run_t *run = *run_p;
    if (!run)
        return;
    for (size_t i = 0; i < run->nitems; i++)
        s_item_clear(&run->items[i]);
    free(run->items);
    free(run->name);
    free(run);
    *run_p = NULL;
}

static s_run_t *
s_run_find(agent_runner_client_t *self, const char *name)
{
    for (s_run_t *run = self->runs; run; run = run->next)
        if (strcmp(run->name, name) == 0)
            return run;
    return NULL;
}

static s_run_t *
s_run_by_wire(agent_runner_client_t *self, uint32_t wire_id)
{
    for (s_run_t *run = self->runs; run; run = run->next)
        if (run->wire_id == wire_id)
            return run;
    return NULL;
}

static void
s_run_remove(agent_runner_client_t *self, s_run_t *run)
{
    for (s_run_t **at = &self->runs; *at; at = &(*at)->next)
        if (*at == run) {
            *at = run->next;
            self->nruns--;
            break;
        }
    s_run_destroy(&run);
}

static bool
s_run_going(const s_run_t *run)
{
    return !run->finished && !run->lost;
}

static uint32_t
s_next_wire_id(agent_runner_client_t *self)
{
    uint32_t id = self->next_wire_id++;
    if (id == 0)
        id = self->next_wire_id++;
    return id;
}

//  The console handed out by a collect: the run's items, rendered and merged,
//  then dropped (but for a held-back cut character). NULL when out of memory.
static json_t *
s_render_console(s_run_t *run)
{
    json_t *console = json_array();
    s_text_t text = {0};
    uint8_t text_kind = 0;
    char *held = NULL;
    size_t held_size = 0;
    bool ok = console != NULL;
    for (size_t i = 0; ok && i < run->nitems; i++) {
        s_item_t *item = &run->items[i];
        uint8_t kind = item->kind == S_ITEM_DROPPED ? AGENT_RUNNER_STDERR : item->kind;
        if (text.size > 0 && kind != text_kind) {
            json_t *pair =
                json_pack("[ss%]", text_kind == AGENT_RUNNER_STDOUT ? "stdout" : "stderr",
                          text.data, text.size);
            ok = pair && json_array_append_new(console, pair) == 0;
            text.size = 0;
        }
        text_kind = kind;
        if (!ok)
            break;
        if (item->kind == S_ITEM_DROPPED) {
            char note[96];
            int n = snprintf(note, sizeof note,
                             "\n[output truncated: %zu bytes dropped]\n", item->dropped);
            ok = s_text_append(&text, note, (size_t) n) == 0;
            continue;
        }
        bool hold = i + 1 == run->nitems && !run->finished;
        size_t used = s_utf8_append(&text, item->data, item->size, hold);
        ok = used != (size_t) -1;
        if (ok && used < item->size) {
            held_size = item->size - used;
            held = malloc(held_size);
            ok = held != NULL;
            if (ok)
                memcpy(held, item->data + used, held_size);
        }
    }
    if (ok && text.size > 0) {
        json_t *pair =
            json_pack("[ss%]", text_kind == AGENT_RUNNER_STDOUT ? "stdout" : "stderr",
                      text.data, text.size);
        ok = pair && json_array_append_new(console, pair) == 0;
    }
    free(text.data);
    if (!ok) {
        free(held);
        json_decref(console);
        return NULL;
    }
    uint8_t held_kind = run->nitems ? run->items[run->nitems - 1].kind : 0;
    for (size_t i = 0; i < run->nitems; i++)
        s_item_clear(&run->items[i]);
    run->nitems = 0;
    run->buffered = 0;
    if (held) {
        s_run_output(run, held_kind, (const uint8_t *) held, held_size);
        free(held);
    }
    return console;
}

//  The §3.4 result of a run as it stands. NULL when out of memory.
static json_t *
s_render_result(s_run_t *run)
{
    json_t *console = s_render_console(run);
    if (!console)
        return NULL;
    const char *status = run->finished  ? "finished"
                         : run->waiting ? "waiting-input"
                                        : "continued";
    json_t *options = json_object();
    if (options && run->waiting && !run->finished)
        json_object_set_new(options, "is_password", json_boolean(run->password));
    if (options && run->truncated)
        json_object_set_new(options, "truncated", json_true());
    run->truncated = false;
    return json_pack("{s:s, s:s, s:o, s:o*, s:[], s:o}", "runId", run->name, "status",
                     status, "exitCode",
                     run->finished ? json_integer(run->exit_code) : json_null(),
                     "options", options, "files", "console", console);
}

static void
s_waiter_unlink(agent_runner_client_t *self, s_waiter_t *w)
{
    for (s_waiter_t **at = &self->waiters; *at; at = &(*at)->next)
        if (*at == w) {
            *at = w->next;
            break;
        }
    if (w->run && w->run->collect == w)
        w->run->collect = NULL;
}

//  Answers w and frees it; the callback is called last, with nothing of w or
//  of the client's state left on the stack.
static void
s_waiter_fire(s_waiter_t *w)
{
    agent_runner_client_t *self = w->client;
    s_waiter_unlink(self, w);
    event_free(w->timer);
    bus_error_t err = w->err;
    bool failed = w->has_err;
    void *arg = w->arg;
    if (w->is_status) {
        agent_runner_status_fn *fn = w->status_fn;
        char *reply = w->reply;
        if (!reply && !failed) {
            bus_error_set(&err, BUS_STATUS_TIMEOUT, "runner %s: no reply", w->what);
            failed = true;
        }
        free(w);
        fn(failed ? NULL : reply, failed ? &err : NULL, arg);
        free(reply);
        return;
    }
    agent_runner_collect_fn *fn = w->collect_fn;
    s_run_t *run = w->run;
    free(w);
    json_t *result = NULL;
    if (!failed && run->lost) {
        err = run->lost_err;
        failed = true;
        s_run_remove(self, run);
    } else if (!failed && run->finished && run->exit_code == AGENT_RUNNER_EXIT_BUSY) {
        bus_error_set(&err, BUS_STATUS_CONFLICT,
                      "runner busy: run %s refused while another run is going",
                      run->name);
        failed = true;
        s_run_remove(self, run);
    } else if (!failed) {
        result = s_render_result(run);
        if (!result) {
            bus_error_set(&err, BUS_STATUS_INTERNAL, "out of memory");
            failed = true;
        } else if (run->finished)
            s_run_remove(self, run);
    }
    fn(result, failed ? &err : NULL, arg);
    json_decref(result);
}

static void
s_on_waiter_timer(evutil_socket_t fd, short what, void *arg)
{
    (void) fd, (void) what;
    s_waiter_fire((s_waiter_t *) arg);
}

//  Makes w fire on the next loop round.
static void
s_waiter_wake(s_waiter_t *w)
{
    event_active(w->timer, EV_TIMEOUT, 1);
}

static s_waiter_t *
s_waiter_new(agent_runner_client_t *self, void *arg)
{
    s_waiter_t *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->client = self;
    w->arg = arg;
    w->timer = evtimer_new(self->base, s_on_waiter_timer, w);
    if (!w->timer) {
        free(w);
        return NULL;
    }
    w->next = self->waiters;
    self->waiters = w;
    return w;
}

static void
s_waiter_fail(s_waiter_t *w, int status, const char *detail)
{
    w->has_err = true;
    bus_error_set(&w->err, status, "%s", detail);
    s_waiter_wake(w);
}

static void s_on_read(struct bufferevent *bev, void *arg);
static void s_on_event(struct bufferevent *bev, short events, void *arg);

static int
s_connect(agent_runner_client_t *self, bus_error_t *err)
{
    if (self->bev)
        return 0;
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", self->socket_path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *) &addr, sizeof addr) != 0) {
        int saved = errno;
        if (fd >= 0)
            close(fd);
        bus_error_set(err, BUS_STATUS_UNAVAILABLE, "runner %s: %s", self->socket_path,
                      strerror(saved));
        return -1;
    }
    self->bev = bufferevent_socket_new(self->base, fd, BEV_OPT_CLOSE_ON_FREE);
    if (!self->bev) {
        close(fd);
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot make a bufferevent");
        return -1;
    }
    bufferevent_setcb(self->bev, s_on_read, NULL, s_on_event, self);
    bufferevent_enable(self->bev, EV_READ);
    bus_log_debug("runner connected socket=%s", self->socket_path);
    return 0;
}

//  The connection is gone: reconnect while runs are going, else they are lost.
static void
s_on_drop(agent_runner_client_t *self, const char *reason)
{
    bus_log_info("runner connection closed socket=%s reason=\"%s\"", self->socket_path,
                 reason);
    bufferevent_free(self->bev);
    self->bev = NULL;
    for (s_waiter_t *w = self->waiters; w; w = w->next)
        if (w->is_status && !w->reply && !w->has_err)
            s_waiter_fail(w, BUS_STATUS_UNAVAILABLE, "runner connection closed");
    bool going = false;
    for (s_run_t *run = self->runs; run; run = run->next)
        going = going || s_run_going(run);
    if (!going)
        return;
    bus_error_t err;
    if (self->reconnects < AGENT_RUNNER_CLIENT_RECONNECTS) {
        self->reconnects++;
        if (s_connect(self, &err) == 0)
            return;
    } else
        bus_error_set(&err, BUS_STATUS_UNAVAILABLE, "runner %s keeps closing: %s",
                      self->socket_path, reason);
    bus_log_warning("runner gone socket=%s detail=\"%s\"", self->socket_path, err.detail);
    for (s_run_t *run = self->runs; run; run = run->next)
        if (s_run_going(run)) {
            run->lost = true;
            run->lost_err = err;
            if (run->collect)
                s_waiter_wake(run->collect);
        }
}

//  Handles one frame from the runner. Returns -1 when it broke the connection.
static int
s_on_frame(agent_runner_client_t *self, const agent_runner_frame_t *frame)
{
    s_run_t *run = NULL;
    //  The terminal's shell ended: FINISHED for run 0, which no run has.
    if (frame->kind == AGENT_RUNNER_FINISHED && frame->run_id == 0) {
        if (self->pty_fn)
            self->pty_fn(NULL, 0, self->pty_arg);
        return 0;
    }
    switch (frame->kind) {
        case AGENT_RUNNER_STDOUT:
        case AGENT_RUNNER_STDERR:
        case AGENT_RUNNER_WAITING_INPUT:
        case AGENT_RUNNER_FINISHED:
            run = s_run_by_wire(self, frame->run_id);
            if (!run || run->finished) {
                bus_log_debug("runner frame for no run kind=%s run=%" PRIu32,
                              agent_runner_kind_name(frame->kind), frame->run_id);
                return 0;
            }
            break;
        default:
            break;
    }
    switch (frame->kind) {
        case AGENT_RUNNER_STDOUT:
        case AGENT_RUNNER_STDERR:
            s_run_output(run, frame->kind, frame->payload, frame->size);
            return 0;
        case AGENT_RUNNER_WAITING_INPUT:
            run->waiting = true;
            run->password = frame->size > 0 && frame->payload[0] == 1;
            if (run->collect)
                s_waiter_wake(run->collect);
            return 0;
        case AGENT_RUNNER_FINISHED:
            if (agent_runner_finished_decode(frame, &run->exit_code) != 0)
                break;
            run->finished = true;
            run->waiting = false;
            run->lost = false;
            if (self->finished_fn)
                self->finished_fn(run->name, run->exit_code, self->finished_arg);
            if (run->collect)
                s_waiter_wake(run->collect);
            return 0;
        case AGENT_RUNNER_PTY_OUT:
            if (self->pty_fn)
                self->pty_fn(frame->payload, frame->size, self->pty_arg);
            return 0;
        case AGENT_RUNNER_STATUS_REPLY:
        case AGENT_RUNNER_SERVICE_RESULT:
            for (s_waiter_t *w = self->waiters; w; w = w->next)
                if (w->is_status && w->reply_kind == frame->kind &&
                    w->wire_id == frame->run_id && !w->reply && !w->has_err) {
                    w->reply = strndup((const char *) frame->payload, frame->size);
                    if (!w->reply)
                        s_waiter_fail(w, BUS_STATUS_INTERNAL, "out of memory");
                    else
                        s_waiter_wake(w);
                }
            return 0;
        default:
            break;
    }
    bus_log_warning("runner protocol error kind=%u run=%" PRIu32 " size=%zu", frame->kind,
                    frame->run_id, frame->size);
    s_on_drop(self, "protocol error");
    return -1;
}

//  Handles every whole frame in the input. Returns -1 when the connection was
//  dropped meanwhile (self->bev may be a new one then), else 0.
static int
s_process(agent_runner_client_t *self)
{
    struct evbuffer *in = bufferevent_get_input(self->bev);
    for (;;) {
        size_t len = evbuffer_get_length(in);
        if (len < 4)
            return 0;
        uint32_t length = agent_runner_get_u32(evbuffer_pullup(in, 4));
        if (length < 5 || length - 5 > AGENT_RUNNER_PAYLOAD_MAX) {
            bus_log_warning("runner frame length out of range length=%" PRIu32, length);
            s_on_drop(self, "protocol error");
            return -1;
        }
        size_t total = 4 + (size_t) length;
        if (len < total)
            return 0;
        agent_runner_frame_t frame;
        const uint8_t *buf = evbuffer_pullup(in, (ev_ssize_t) total);
        if (!buf || agent_runner_frame_decode(buf, total, &frame) != (long) total) {
            s_on_drop(self, "cannot read a frame");
            return -1;
        }
        self->reconnects = 0;
        if (s_on_frame(self, &frame) != 0)
            return -1;
        evbuffer_drain(in, total);
    }
}

static void
s_on_read(struct bufferevent *bev, void *arg)
{
    (void) bev;
    s_process((agent_runner_client_t *) arg);
}

static void
s_on_event(struct bufferevent *bev, short events, void *arg)
{
    (void) bev;
    agent_runner_client_t *self = arg;
    if (!(events & (BEV_EVENT_EOF | BEV_EVENT_ERROR)))
        return;
    int saved = EVUTIL_SOCKET_ERROR();
    if (s_process(self) == 0)
        s_on_drop(self, (events & BEV_EVENT_EOF) ? "closed by the runner"
                                                 : evutil_socket_error_to_string(saved));
}

//  Queues one frame, connecting first when needed.
static int
s_send(agent_runner_client_t *self,
       uint8_t kind,
       uint32_t wire_id,
       const void *payload,
       size_t size,
       bus_error_t *err)
{
    if (size > AGENT_RUNNER_PAYLOAD_MAX)
        return S_FAIL(err, BUS_STATUS_INVALID, "payload of %zu bytes is too big", size);
    if (s_connect(self, err) != 0)
        return -1;
    uint8_t header[AGENT_RUNNER_HEADER_SIZE];
    agent_runner_header_encode(header, kind, wire_id, size);
    if (bufferevent_write(self->bev, header, sizeof header) != 0 ||
        (size && bufferevent_write(self->bev, payload, size) != 0)) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot queue a frame");
        return -1;
    }
    return 0;
}

//  Checks that run_id can name a new run and makes room for it.
static int
s_run_prepare(agent_runner_client_t *self, const char *run_id, bus_error_t *err)
{
    if (!run_id || !*run_id || strlen(run_id) > AGENT_RUNNER_CLIENT_RUN_ID_MAX)
        return S_FAIL(err, BUS_STATUS_INVALID, "bad runId");
    for (s_run_t *run = self->runs; run; run = run->next)
        if (s_run_going(run))
            return S_FAIL(err, BUS_STATUS_CONFLICT, "run %s is still going", run->name);
    s_run_t *same = s_run_find(self, run_id);
    if (same && same->collect)
        return S_FAIL(err, BUS_STATUS_CONFLICT, "run %s is being collected", run_id);
    if (same)
        s_run_remove(self, same);
    while (self->nruns >= AGENT_RUNNER_CLIENT_RUNS_MAX) {
        s_run_t *oldest = NULL;
        for (s_run_t *run = self->runs; run; run = run->next)
            if (!run->collect)
                oldest = run; //  the list is newest first
        if (!oldest)
            return S_FAIL(err, BUS_STATUS_CONFLICT, "too many runs");
        s_run_remove(self, oldest);
    }
    return 0;
}

static int
s_start(agent_runner_client_t *self,
        const char *run_id,
        uint8_t kind,
        const void *payload,
        size_t size,
        bus_error_t *err)
{
    if (s_run_prepare(self, run_id, err) != 0)
        return -1;
    s_run_t *run = calloc(1, sizeof *run);
    if (run)
        run->name = strdup(run_id);
    if (!run || !run->name) {
        free(run);
        return S_FAIL(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    run->wire_id = s_next_wire_id(self);
    if (s_send(self, kind, run->wire_id, payload, size, err) != 0) {
        s_run_destroy(&run);
        return -1;
    }
    run->next = self->runs;
    self->runs = run;
    self->nruns++;
    bus_log_debug("runner run started run=%s wire=%" PRIu32 " kind=%s", run->name,
                  run->wire_id, agent_runner_kind_name(kind));
    return 0;
}

//  ---------------------------------------------------------------------------
//  Create a client for the runner listening on socket_path.

agent_runner_client_t *
agent_runner_client_new(struct event_base *base,
                        const char *socket_path,
                        bus_error_t *err)
{
    assert(base);
    assert(socket_path);
    if (strlen(socket_path) >= sizeof(((struct sockaddr_un *) 0)->sun_path)) {
        bus_error_set(err, BUS_STATUS_INVALID, "runner socket path too long: %s",
                      socket_path);
        return NULL;
    }
    agent_runner_client_t *self = calloc(1, sizeof *self);
    if (self)
        self->socket_path = strdup(socket_path);
    if (!self || !self->socket_path) {
        free(self);
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->base = base;
    //  Distinct from an earlier agent's ids, whose output the runner may still hold.
    self->next_wire_id = (uint32_t) time(NULL) ^ ((uint32_t) getpid() << 16);
    return self;
}

//  ---------------------------------------------------------------------------
//  Destroy the client, failing what is pending.

void
agent_runner_client_destroy(agent_runner_client_t **self_p)
{
    assert(self_p);
    agent_runner_client_t *self = *self_p;
    if (!self)
        return;
    *self_p = NULL;
    while (self->waiters) {
        s_waiter_t *w = self->waiters;
        w->has_err = true;
        bus_error_set(&w->err, BUS_STATUS_UNAVAILABLE, "runner client destroyed");
        if (w->run) {
            w->run->collect = NULL;
            w->run = NULL;
        }
        //  Without a run, a collect answers with its error only.
        s_waiter_fire(w);
    }
    while (self->runs) {
        s_run_t *run = self->runs;
        self->runs = run->next;
        s_run_destroy(&run);
    }
    if (self->bev)
        bufferevent_free(self->bev);
    free(self->socket_path);
    free(self);
}

//  ---------------------------------------------------------------------------
//  Start a query-mode run.

int
agent_runner_client_exec(agent_runner_client_t *self,
                         const char *run_id,
                         const char *code,
                         size_t size,
                         bus_error_t *err)
{
    assert(self);
    assert(code || size == 0);
    return s_start(self, run_id, AGENT_RUNNER_EXEC, code, size, err);
}

//  ---------------------------------------------------------------------------
//  Start a batch run.

int
agent_runner_client_batch(agent_runner_client_t *self,
                          const char *run_id,
                          const char *clean,
                          const char *build,
                          const char *exec,
                          bus_error_t *err)
{
    assert(self);
    const char *steps[] = {clean ? clean : "", build ? build : "", exec ? exec : ""};
    s_text_t payload = {0};
    for (int i = 0; i < 3; i++)
        if (s_text_append(&payload, steps[i], strlen(steps[i]) + (i < 2 ? 1 : 0)) != 0) {
            free(payload.data);
            return S_FAIL(err, BUS_STATUS_INTERNAL, "out of memory");
        }
    int rc = s_start(self, run_id, AGENT_RUNNER_BATCH, payload.data, payload.size, err);
    free(payload.data);
    return rc;
}

//  ---------------------------------------------------------------------------
//  Send a line of user input.

int
agent_runner_client_input(agent_runner_client_t *self,
                          const char *run_id,
                          const char *text,
                          bus_error_t *err)
{
    assert(self);
    assert(text);
    s_run_t *run = run_id ? s_run_find(self, run_id) : NULL;
    if (!run || !s_run_going(run))
        return S_FAIL(err, BUS_STATUS_NOT_FOUND, "no run %s is going",
                      run_id ? run_id : "(null)");
    if (s_send(self, AGENT_RUNNER_INPUT, run->wire_id, text, strlen(text), err) != 0)
        return -1;
    run->waiting = false;
    return 0;
}

//  ---------------------------------------------------------------------------
//  Interrupt a run.

int
agent_runner_client_interrupt(agent_runner_client_t *self,
                              const char *run_id,
                              bus_error_t *err)
{
    assert(self);
    s_run_t *run = run_id ? s_run_find(self, run_id) : NULL;
    if (!run || !s_run_going(run))
        return S_FAIL(err, BUS_STATUS_NOT_FOUND, "no run %s is going",
                      run_id ? run_id : "(null)");
    return s_send(self, AGENT_RUNNER_INTERRUPT, run->wire_id, NULL, 0, err);
}

//  ---------------------------------------------------------------------------
//  Kill a run.

int
agent_runner_client_kill(agent_runner_client_t *self,
                         const char *run_id,
                         bus_error_t *err)
{
    assert(self);
    s_run_t *run = run_id ? s_run_find(self, run_id) : NULL;
    if (!run || !s_run_going(run))
        return S_FAIL(err, BUS_STATUS_NOT_FOUND, "no run %s is going",
                      run_id ? run_id : "(null)");
    return s_send(self, AGENT_RUNNER_INTERRUPT, run->wire_id, AGENT_RUNNER_INTERRUPT_KILL,
                  strlen(AGENT_RUNNER_INTERRUPT_KILL), err);
}

//  ---------------------------------------------------------------------------
//  Ask for a run's result.

void
agent_runner_client_collect(agent_runner_client_t *self,
                            const char *run_id,
                            int wait_ms,
                            agent_runner_collect_fn *fn,
                            void *arg)
{
    assert(self);
    assert(fn);
    s_waiter_t *w = s_waiter_new(self, arg);
    if (!w) {
        bus_error_t err;
        bus_error_set(&err, BUS_STATUS_INTERNAL, "out of memory");
        bus_log_error("runner collect: out of memory run=%s", run_id ? run_id : "");
        fn(NULL, &err, arg); //  cannot defer without memory
        return;
    }
    w->collect_fn = fn;
    s_run_t *run = run_id ? s_run_find(self, run_id) : NULL;
    if (!run)
        s_waiter_fail(w, BUS_STATUS_NOT_FOUND, "no such run");
    else if (run->collect)
        s_waiter_fail(w, BUS_STATUS_CONFLICT, "another collect of the run is pending");
    else {
        w->run = run;
        run->collect = w;
        if (!s_run_going(run) || run->waiting || wait_ms <= 0)
            s_waiter_wake(w);
        else {
            struct timeval tv = {wait_ms / 1000, (wait_ms % 1000) * 1000};
            evtimer_add(w->timer, &tv);
        }
    }
}

//  Sends a request answered by one text frame of reply_kind; fn fires with
//  the text, or an error.
static void
s_request(agent_runner_client_t *self,
          uint8_t kind,
          uint8_t reply_kind,
          const char *what,
          const void *payload,
          size_t size,
          int timeout_ms,
          agent_runner_status_fn *fn,
          void *arg)
{
    s_waiter_t *w = s_waiter_new(self, arg);
    if (!w) {
        bus_error_t err;
        bus_error_set(&err, BUS_STATUS_INTERNAL, "out of memory");
        fn(NULL, &err, arg);
        return;
    }
    w->is_status = true;
    w->reply_kind = reply_kind;
    w->what = what;
    w->status_fn = fn;
    w->wire_id = s_next_wire_id(self);
    bus_error_t err;
    if (s_send(self, kind, w->wire_id, payload, size, &err) != 0)
        s_waiter_fail(w, err.status, err.detail);
    else {
        struct timeval tv = {timeout_ms / 1000, (timeout_ms % 1000) * 1000};
        evtimer_add(w->timer, &tv);
    }
}

//  ---------------------------------------------------------------------------
//  Ask the runner whether it is busy.

void
agent_runner_client_status(agent_runner_client_t *self,
                           int timeout_ms,
                           agent_runner_status_fn *fn,
                           void *arg)
{
    assert(self);
    assert(fn);
    s_request(self, AGENT_RUNNER_STATUS, AGENT_RUNNER_STATUS_REPLY, "status", NULL, 0,
              timeout_ms, fn, arg);
}

//  ---------------------------------------------------------------------------
//  Start a service-port app.

void
agent_runner_client_service(agent_runner_client_t *self,
                            const char *name,
                            const char *command,
                            int timeout_ms,
                            agent_runner_status_fn *fn,
                            void *arg)
{
    assert(self);
    assert(name && command);
    assert(fn);
    size_t name_size = strlen(name), command_size = strlen(command);
    char *payload = malloc(name_size + 1 + command_size);
    if (!payload) {
        bus_error_t err;
        bus_error_set(&err, BUS_STATUS_INTERNAL, "out of memory");
        fn(NULL, &err, arg);
        return;
    }
    memcpy(payload, name, name_size + 1);
    memcpy(payload + name_size + 1, command, command_size);
    s_request(self, AGENT_RUNNER_SERVICE, AGENT_RUNNER_SERVICE_RESULT, "service", payload,
              name_size + 1 + command_size, timeout_ms, fn, arg);
    free(payload);
}

//  ---------------------------------------------------------------------------
//  Tell the runner to exit.

int
agent_runner_client_shutdown(agent_runner_client_t *self, bus_error_t *err)
{
    assert(self);
    return s_send(self, AGENT_RUNNER_SHUTDOWN, s_next_wire_id(self), NULL, 0, err);
}

//  ---------------------------------------------------------------------------
//  Run ends.

void
agent_runner_client_set_finished_handler(agent_runner_client_t *self,
                                         agent_runner_finished_fn *fn,
                                         void *arg)
{
    assert(self);
    self->finished_fn = fn;
    self->finished_arg = arg;
}

//  ---------------------------------------------------------------------------
//  Terminal passthrough.

void
agent_runner_client_set_pty_handler(agent_runner_client_t *self,
                                    agent_runner_pty_fn *fn,
                                    void *arg)
{
    assert(self);
    self->pty_fn = fn;
    self->pty_arg = arg;
}

//  ---------------------------------------------------------------------------
//  Send a PTY frame.

int
agent_runner_client_pty_send(agent_runner_client_t *self,
                             uint8_t kind,
                             const void *data,
                             size_t size,
                             bus_error_t *err)
{
    assert(self);
    assert(kind == AGENT_RUNNER_PTY_OPEN || kind == AGENT_RUNNER_PTY_DATA ||
           kind == AGENT_RUNNER_PTY_RESIZE);
    return s_send(self, kind, 0, data, size, err);
}

//  ---------------------------------------------------------------------------
//  True while connected.

bool
agent_runner_client_connected(agent_runner_client_t *self)
{
    assert(self);
    return self->bev != NULL;
}
