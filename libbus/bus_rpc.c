/*  =========================================================================
    bus_rpc - DEALER client with deadlines and retries, ROUTER server with a
    method table

    Pending calls live in a hash keyed by call id. The tick scans them for
    deadlines: calls in flight number in the hundreds at most per client, and
    a scan is cheaper than keeping a second ordered index in step.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

#define RPC_HEADER_MAX 512

typedef struct {
    uint64_t call_id;
    char method[BUS_RPC_METHOD_MAX];
    char corr[BUS_CORR_MAX];
    uint8_t *body; //  kept for resends (idempotent only), in the call's own block
    size_t body_size;
    int64_t deadline_wall_us;
    int64_t deadline_ms;         //  monotonic: the caller's deadline
    int64_t attempt_deadline_ms; //  monotonic: when to resend
    int attempts_left;
    bus_reply_fn *fn;
    void *arg;
} rpc_call_t;

//  ---------------------------------------------------------------------------
//  The pending-call table: open addressing on the call id, linear probing,
//  deletion by backward shift. Every call and every reply touches it, and
//  a general hash with an allocation per entry was a measurable share of a
//  round trip.

#define CALL_TABLE_MIN 64 //  slots at first; always a power of two

typedef struct {
    rpc_call_t **slots;
    size_t capacity;
    size_t count;
} call_table_t;

static size_t
s_slot_of(uint64_t call_id, size_t capacity)
{
    return (size_t) ((call_id * 0x9e3779b97f4a7c15ULL) >> 17) & (capacity - 1);
}

static int
s_table_grow(call_table_t *table)
{
    size_t capacity = table->capacity ? table->capacity * 2 : CALL_TABLE_MIN;
    rpc_call_t **slots = calloc(capacity, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < table->capacity; i++) {
        rpc_call_t *call = table->slots[i];
        if (!call)
            continue;
        size_t slot = s_slot_of(call->call_id, capacity);
        while (slots[slot])
            slot = (slot + 1) & (capacity - 1);
        slots[slot] = call;
    }
    free(table->slots);
    table->slots = slots;
    table->capacity = capacity;
    return 0;
}

static int
s_table_put(call_table_t *table, rpc_call_t *call)
{
    //  Keep the table at most half full, so probes stay short.
    if ((table->count + 1) * 2 > table->capacity && s_table_grow(table) != 0)
        return -1;
    size_t slot = s_slot_of(call->call_id, table->capacity);
    while (table->slots[slot])
        slot = (slot + 1) & (table->capacity - 1);
    table->slots[slot] = call;
    table->count++;
    return 0;
}

static rpc_call_t *
s_table_get(const call_table_t *table, uint64_t call_id)
{
    if (table->count == 0)
        return NULL;
    size_t mask = table->capacity - 1;
    for (size_t slot = s_slot_of(call_id, table->capacity); table->slots[slot];
         slot = (slot + 1) & mask)
        if (table->slots[slot]->call_id == call_id)
            return table->slots[slot];
    return NULL;
}

static void
s_table_remove(call_table_t *table, uint64_t call_id)
{
    if (table->count == 0)
        return;
    size_t mask = table->capacity - 1;
    size_t slot = s_slot_of(call_id, table->capacity);
    while (table->slots[slot] && table->slots[slot]->call_id != call_id)
        slot = (slot + 1) & mask;
    if (!table->slots[slot])
        return;
    table->slots[slot] = NULL;
    table->count--;
    //  Move later members of the run back, so no lookup stops early at the hole.
    for (size_t next = (slot + 1) & mask; table->slots[next]; next = (next + 1) & mask) {
        size_t home = s_slot_of(table->slots[next]->call_id, table->capacity);
        //  next may move to the hole when its home is not between hole and next.
        bool between =
            slot <= next ? (slot < home && home <= next) : (slot < home || home <= next);
        if (!between) {
            table->slots[slot] = table->slots[next];
            table->slots[next] = NULL;
            slot = next;
        }
    }
}

static void
s_complete(bus_rpc_client_t *self, rpc_call_t *call, const bus_reply_t *reply);

struct _bus_rpc_client_t {
    zsock_t *socket;
    void *handle;
    char *endpoint;
    char *src;
    uint64_t next_call_id;
    call_table_t calls;                         //  call id -> rpc_call_t
    char idempotent_method[BUS_RPC_METHOD_MAX]; //  the last method looked up,
    bool idempotent;                            //  and whether it may be retried
    int64_t next_due_ms; //  monotonic: no deadline or retry falls earlier
    bus_writer_t *writer;
    bus_reader_t *reader;
    zmq_msg_t frames[2];
};

//  When call next needs the tick: its retry, or its deadline after the last try.
static int64_t
s_call_due(const rpc_call_t *call)
{
    return call->attempts_left > 0 ? call->attempt_deadline_ms : call->deadline_ms;
}

//  Copies the first len bytes of text (up to a NUL among them) into out,
//  truncated to fit: snprintf's "%.*s" without parsing a format string on
//  every call and every request.
static void
s_copy_text(char *out, size_t out_size, const char *text, size_t len)
{
    const char *nul = memchr(text, 0, len);
    if (nul)
        len = (size_t) (nul - text);
    if (len >= out_size)
        len = out_size - 1;
    memcpy(out, text, len);
    out[len] = 0;
}

static void
s_call_destroy(void **item_p)
{
    rpc_call_t *call = *item_p;
    if (call) {
        free(call);
        *item_p = NULL;
    }
}

bus_rpc_client_t *
bus_rpc_client_new(const char *endpoint, const char *src, const bus_curve_t *curve)
{
    assert(endpoint);
    bus_rpc_client_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->socket = bus_socket_connect(ZMQ_DEALER, endpoint, curve);
    self->endpoint = strdup(endpoint);
    self->src = strdup(src ? src : "");
    self->writer = bus_writer_new();
    self->reader = bus_reader_new();
    if (!self->socket || !self->endpoint || !self->src || !self->writer ||
        !self->reader) {
        bus_rpc_client_destroy(&self);
        return NULL;
    }
    self->handle = zsock_resolve(self->socket);
    for (int i = 0; i < 2; i++)
        zmq_msg_init(&self->frames[i]);
    //  Start call ids at a random point, so a restarted client's ids do not
    //  collide with late replies meant for its previous incarnation.
    uint8_t seed[BUS_EVENT_ID_SIZE];
    bus_event_id_new(seed);
    self->next_call_id = ((uint64_t) (seed[0] ^ seed[15]) << 40) | 1;
    return self;
}

void
bus_rpc_client_destroy(bus_rpc_client_t **self_p)
{
    assert(self_p);
    bus_rpc_client_t *self = *self_p;
    if (self) {
        zsock_destroy(&self->socket);
        //  Complete what is pending, one call at a time: a callback may
        //  cancel others, which empties their slots.
        for (size_t i = 0; i < self->calls.capacity; i++) {
            rpc_call_t *call = self->calls.slots[i];
            if (!call)
                continue;
            bus_reply_t reply = {.status = BUS_STATUS_UNAVAILABLE,
                                 .detail = "the client was closed",
                                 .call_id = call->call_id};
            s_complete(self, call, &reply);
            i = (size_t) -1; //  slots moved: scan again from the start
        }
        free(self->calls.slots);
        bus_writer_destroy(&self->writer);
        bus_reader_destroy(&self->reader);
        for (int i = 0; i < 2; i++)
            zmq_msg_close(&self->frames[i]);
        free(self->endpoint);
        free(self->src);
        free(self);
        *self_p = NULL;
    }
}

const char *
bus_rpc_client_endpoint(bus_rpc_client_t *self)
{
    return self->endpoint;
}

zsock_t *
bus_rpc_client_sock(bus_rpc_client_t *self)
{
    return self->socket;
}

static int
s_client_send(bus_rpc_client_t *self,
              rpc_call_t *call,
              const void *body,
              size_t body_size)
{
    bus_writer_t *w = self->writer;
    bus_writer_reset(w);
    bool has_corr = call->corr[0] != 0;
    bus_writer_map(w, 5 + (has_corr ? 1 : 0));
    bus_writer_str(w, "v");
    bus_writer_uint(w, BUS_RPC_VERSION);
    bus_writer_str(w, "m");
    bus_writer_str(w, call->method);
    bus_writer_str(w, "c");
    bus_writer_uint(w, call->call_id);
    bus_writer_str(w, "dl");
    bus_writer_int(w, call->deadline_wall_us);
    bus_writer_str(w, "src");
    bus_writer_str(w, self->src);
    if (has_corr) {
        bus_writer_str(w, "corr");
        bus_writer_str(w, call->corr);
    }
    if (zmq_send(self->handle, bus_writer_data(w), bus_writer_size(w),
                 ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0)
        return -1;
    //  The first frame was accepted, so the second cannot block.
    return zmq_send(self->handle, body_size ? body : "", body_size, ZMQ_DONTWAIT) < 0 ? -1
                                                                                      : 0;
}

uint64_t
bus_rpc_client_call(bus_rpc_client_t *self,
                    const char *method,
                    const void *body,
                    size_t body_size,
                    int timeout_ms,
                    bus_reply_fn *fn,
                    void *arg)
{
    assert(self && method && fn);
    size_t method_len = strlen(method);
    if (method_len >= BUS_RPC_METHOD_MAX || timeout_ms <= 0)
        return 0;
    //  Callers repeat the same method: remember the schema's answer for it.
    if (strcmp(self->idempotent_method, method) != 0) {
        memcpy(self->idempotent_method, method, method_len + 1);
        self->idempotent = proto_method_idempotent(method);
    }
    int attempts_left = self->idempotent ? BUS_RPC_ATTEMPTS - 1 : 0;
    //  The body kept for resends lives right after the call: one allocation.
    size_t kept = attempts_left ? body_size : 0;
    rpc_call_t *call = calloc(1, sizeof *call + kept);
    if (!call)
        return 0;
    call->call_id = self->next_call_id++;
    memcpy(call->method, method, method_len + 1);
    const char *corr = bus_log_corr();
    s_copy_text(call->corr, sizeof call->corr, corr, strlen(corr));
    int64_t now = bus_clock_mono_ms();
    call->deadline_ms = now + timeout_ms;
    call->deadline_wall_us = bus_clock_bus_us() + (int64_t) timeout_ms * 1000;
    call->attempts_left = attempts_left;
    int attempt_ms = call->attempts_left ? timeout_ms / BUS_RPC_ATTEMPTS : timeout_ms;
    call->attempt_deadline_ms = now + (attempt_ms > 0 ? attempt_ms : 1);
    call->fn = fn;
    call->arg = arg;
    if (kept) {
        call->body = (uint8_t *) (call + 1);
        memcpy(call->body, body, kept);
        call->body_size = kept;
    }
    if (s_client_send(self, call, body, body_size) != 0) {
        bus_log_warning("rpc send failed method=%s endpoint=%s reason=\"%s\"", method,
                        self->endpoint, zmq_strerror(zmq_errno()));
        s_call_destroy((void **) &call);
        return 0;
    }
    if (s_table_put(&self->calls, call) != 0) {
        //  Sent but untracked: its reply will be dropped as late.
        s_call_destroy((void **) &call);
        return 0;
    }
    if (s_call_due(call) < self->next_due_ms)
        self->next_due_ms = s_call_due(call);
    return call->call_id;
}

void
bus_rpc_client_cancel(bus_rpc_client_t *self, uint64_t call_id)
{
    rpc_call_t *call = s_table_get(&self->calls, call_id);
    if (call) {
        s_table_remove(&self->calls, call_id);
        s_call_destroy((void **) &call);
    }
}

//  Runs the callback of call and forgets the call.
static void
s_complete(bus_rpc_client_t *self, rpc_call_t *call, const bus_reply_t *reply)
{
    //  Take the call out of the table before the callback runs, so the
    //  callback may issue new calls or cancel others freely.
    s_table_remove(&self->calls, call->call_id);
    call->fn(call->arg, reply);
    s_call_destroy((void **) &call);
}

int
bus_rpc_client_dispatch(bus_rpc_client_t *self)
{
    int handled = 0;
    for (int reads = 0; reads < BUS_RPC_DISPATCH_MAX; reads++) {
        if (zmq_msg_recv(&self->frames[0], self->handle, ZMQ_DONTWAIT) < 0)
            break;
        bool ok = zmq_msg_more(&self->frames[0]);
        if (ok && zmq_msg_recv(&self->frames[1], self->handle, 0) < 0)
            ok = false;
        //  Swallow every extra frame of a malformed reply, not just the
        //  first: a leftover pair would be read as a reply of its own.
        if (ok && zmq_msg_more(&self->frames[1])) {
            ok = false;
            while (zmq_msg_more(&self->frames[1]) &&
                   zmq_msg_recv(&self->frames[1], self->handle, 0) >= 0)
                ;
        }
        if (!ok) {
            bus_log_warning("rpc reply malformed endpoint=%s", self->endpoint);
            continue;
        }
        const bus_value_t *header = bus_reader_parse(
            self->reader, zmq_msg_data(&self->frames[0]), zmq_msg_size(&self->frames[0]));
        uint64_t call_id = 0, status = BUS_STATUS_PROTOCOL;
        if (!header || !bus_value_get_uint(bus_value_map_find(header, "c"), &call_id) ||
            !bus_value_get_uint(bus_value_map_find(header, "st"), &status)) {
            bus_log_warning("rpc reply header malformed endpoint=%s", self->endpoint);
            continue;
        }
        rpc_call_t *call = s_table_get(&self->calls, call_id);
        if (!call) {
            bus_log_debug("rpc late reply dropped call=%" PRIu64, call_id);
            continue;
        }
        char detail[BUS_ERROR_DETAIL_MAX] = "";
        const char *text;
        size_t len;
        if (bus_value_get_str(bus_value_map_find(header, "dt"), &text, &len))
            snprintf(detail, sizeof detail, "%.*s", (int) len, text);
        int64_t server_ts = 0;
        if (!bus_value_get_int(bus_value_map_find(header, "ts"), &server_ts))
            server_ts = 0;
        bus_reply_t reply = {
            .status = status <= BUS_STATUS_MAX ? (int) status : BUS_STATUS_PROTOCOL,
            .detail = detail,
            .body = zmq_msg_data(&self->frames[1]),
            .body_size = zmq_msg_size(&self->frames[1]),
            .call_id = call_id,
            .server_ts = server_ts,
        };
        s_complete(self, call, &reply);
        handled++;
    }
    return handled;
}

void
bus_rpc_client_tick(bus_rpc_client_t *self)
{
    int64_t now = bus_clock_mono_ms();
    //  Ticks come far more often than deadlines: skip the scan until the
    //  earliest due time seen (calls completed since only make it early).
    if (now < self->next_due_ms)
        return;
    int64_t next_due = INT64_MAX;
    zlistx_t *expired = NULL;
    for (size_t i = 0; i < self->calls.capacity; i++) {
        rpc_call_t *call = self->calls.slots[i];
        if (!call)
            continue;
        if (now >= call->deadline_ms) {
            if (!expired)
                expired = zlistx_new();
            zlistx_add_end(expired, (void *) (uintptr_t) call->call_id);
        } else if (call->attempts_left > 0 && now >= call->attempt_deadline_ms) {
            call->attempts_left--;
            int64_t left = call->deadline_ms - now;
            call->attempt_deadline_ms = now + left / (call->attempts_left + 1);
            bus_log_debug("rpc retry method=%s call=%" PRIu64, call->method,
                          call->call_id);
            if (s_client_send(self, call, call->body, call->body_size) != 0)
                bus_log_warning("rpc resend failed method=%s", call->method);
        }
        if (now < call->deadline_ms && s_call_due(call) < next_due)
            next_due = s_call_due(call);
    }
    //  Before the callbacks, which may make new calls that come due sooner.
    self->next_due_ms = next_due;
    if (expired) {
        //  The list holds call ids, not calls: a callback may cancel another
        //  expired call, which frees it, so each is looked up again first.
        for (void *id = zlistx_first(expired); id; id = zlistx_next(expired)) {
            rpc_call_t *call = s_table_get(&self->calls, (uint64_t) (uintptr_t) id);
            if (!call)
                continue;
            char detail[BUS_ERROR_DETAIL_MAX];
            snprintf(detail, sizeof detail, "no reply from %s to %s within the deadline",
                     self->endpoint, call->method);
            bus_reply_t reply = {
                .status = BUS_STATUS_TIMEOUT, .detail = detail, .call_id = call->call_id};
            s_complete(self, call, &reply);
        }
        zlistx_destroy(&expired);
    }
}

int
bus_rpc_client_next_timeout_ms(bus_rpc_client_t *self)
{
    int64_t now = bus_clock_mono_ms(), next = -1;
    for (size_t i = 0; i < self->calls.capacity; i++) {
        rpc_call_t *call = self->calls.slots[i];
        if (!call)
            continue;
        int64_t due =
            call->attempts_left > 0 ? call->attempt_deadline_ms : call->deadline_ms;
        if (next < 0 || due < next)
            next = due;
    }
    if (next < 0)
        return -1;
    return next <= now ? 0 : (int) (next - now);
}

size_t
bus_rpc_client_pending(bus_rpc_client_t *self)
{
    return self->calls.count;
}

typedef struct {
    bool done;
    int status;
    zchunk_t *body;
    char detail[BUS_ERROR_DETAIL_MAX];
} sync_result_t;

static void
s_sync_reply(void *arg, const bus_reply_t *reply)
{
    sync_result_t *result = arg;
    result->done = true;
    result->status = reply->status;
    snprintf(result->detail, sizeof result->detail, "%s", reply->detail);
    if (reply->status == BUS_OK)
        result->body = zchunk_new(reply->body, reply->body_size);
}

int
bus_rpc_client_call_sync(bus_rpc_client_t *self,
                         const char *method,
                         const void *body,
                         size_t body_size,
                         int timeout_ms,
                         zchunk_t **reply_p,
                         bus_error_t *err)
{
    sync_result_t result = {0};
    if (!bus_rpc_client_call(self, method, body, body_size, timeout_ms, s_sync_reply,
                             &result))
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE, "cannot queue %s to %s", method,
                             self->endpoint);
    zmq_pollitem_t item = {self->handle, 0, ZMQ_POLLIN, 0};
    while (!result.done) {
        int wait = bus_rpc_client_next_timeout_ms(self);
        if (zmq_poll(&item, 1, wait) < 0 && zmq_errno() != EINTR)
            break;
        bus_rpc_client_dispatch(self);
        bus_rpc_client_tick(self);
    }
    if (!result.done) {
        //  The poll itself failed (the context is shutting down).
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE, "interrupted");
    }
    if (result.status != BUS_OK)
        bus_error_set(err, result.status, "%s", result.detail);
    if (reply_p)
        *reply_p = result.body;
    else
        zchunk_destroy(&result.body);
    return result.status;
}

//  ---------------------------------------------------------------------------
//  Server

typedef struct {
    bus_rpc_handler_fn *fn;        //  raw, or NULL
    bus_typed_fn *typed;           //  typed, or NULL
    bus_typed_adapter_fn *adapter; //  with typed: the method's adapter
    void *arg;
} rpc_handler_t;

struct _bus_rpc_request_t {
    uint8_t identity[BUS_RPC_IDENTITY_MAX];
    size_t identity_size;
    uint64_t call_id;
    int64_t deadline_wall_us;
    char method[BUS_RPC_METHOD_MAX];
    char src[BUS_SRC_MAX];
    char corr[BUS_CORR_MAX];
};

static void
s_handler_destroy(void **item_p)
{
    free(*item_p);
    *item_p = NULL;
}

struct _bus_rpc_server_t {
    zsock_t *socket;
    void *handle;
    char endpoint[256];
    zhashx_t *handlers; //  method -> rpc_handler_t
    //  The handler found last, and its method: a server mostly serves one
    //  method in a row, and comparing the name is cheaper than hashing it.
    rpc_handler_t *last_handler;
    char last_method[BUS_RPC_METHOD_MAX];
    bus_writer_t *reply;
    bus_writer_t *header;
    bus_reader_t *reader;
    zmq_msg_t frames[3];
};

bus_rpc_server_t *
bus_rpc_server_new(const char *endpoint, const bus_curve_t *curve)
{
    bus_rpc_server_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->socket = bus_socket_bind(ZMQ_ROUTER, endpoint, curve);
    self->handlers = zhashx_new();
    self->reply = bus_writer_new();
    self->header = bus_writer_new();
    self->reader = bus_reader_new();
    for (int i = 0; i < 3; i++)
        zmq_msg_init(&self->frames[i]);
    if (!self->socket || !self->handlers || !self->reply || !self->header ||
        !self->reader) {
        bus_rpc_server_destroy(&self);
        return NULL;
    }
    self->handle = zsock_resolve(self->socket);
    zhashx_set_destructor(self->handlers, s_handler_destroy);
    bus_socket_endpoint(self->socket, self->endpoint, sizeof self->endpoint);
    return self;
}

void
bus_rpc_server_destroy(bus_rpc_server_t **self_p)
{
    assert(self_p);
    bus_rpc_server_t *self = *self_p;
    if (self) {
        zsock_destroy(&self->socket);
        zhashx_destroy(&self->handlers);
        bus_writer_destroy(&self->reply);
        bus_writer_destroy(&self->header);
        bus_reader_destroy(&self->reader);
        for (int i = 0; i < 3; i++)
            zmq_msg_close(&self->frames[i]);
        free(self);
        *self_p = NULL;
    }
}

const char *
bus_rpc_server_endpoint(bus_rpc_server_t *self)
{
    return self->endpoint;
}

zsock_t *
bus_rpc_server_sock(bus_rpc_server_t *self)
{
    return self->socket;
}

//  Registers handler (a copy) for method, replacing any. 0 or -1.
static int
s_server_add(bus_rpc_server_t *self, const char *method, rpc_handler_t handler)
{
    rpc_handler_t *copy = malloc(sizeof *copy);
    if (!copy)
        return -1;
    *copy = handler;
    self->last_handler = NULL; //  the update may free the one remembered
    zhashx_update(self->handlers, method, copy);
    return 0;
}

int
bus_rpc_server_handle(bus_rpc_server_t *self,
                      const char *method,
                      bus_rpc_handler_fn *fn,
                      void *arg)
{
    return s_server_add(self, method, (rpc_handler_t){.fn = fn, .arg = arg});
}

int
bus_rpc_server_handle_typed(bus_rpc_server_t *self,
                            const char *method,
                            bus_typed_fn *typed,
                            bus_typed_adapter_fn *adapter,
                            void *arg)
{
    assert(typed && adapter);
    return s_server_add(self, method,
                        (rpc_handler_t){.typed = typed, .adapter = adapter, .arg = arg});
}

static int
s_server_send(bus_rpc_server_t *self,
              const bus_rpc_request_t *req,
              int status,
              const char *detail,
              const void *body,
              size_t body_size)
{
    bus_writer_t *w = self->header;
    bus_writer_reset(w);
    bool has_detail = detail && *detail;
    bus_writer_map(w, 4 + (has_detail ? 1 : 0));
    bus_writer_str(w, "v");
    bus_writer_uint(w, BUS_RPC_VERSION);
    bus_writer_str(w, "c");
    bus_writer_uint(w, req->call_id);
    bus_writer_str(w, "ts"); //  the wall clock: the registry's is the bus's
    bus_writer_int(w, bus_clock_wall_us());
    bus_writer_str(w, "st");
    bus_writer_uint(w, (uint64_t) status);
    if (has_detail) {
        bus_writer_str(w, "dt");
        bus_writer_str(w, detail);
    }
    //  A client that went away makes the ROUTER drop the reply silently.
    if (zmq_send(self->handle, req->identity, req->identity_size,
                 ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0 ||
        zmq_send(self->handle, bus_writer_data(w), bus_writer_size(w), ZMQ_SNDMORE) < 0 ||
        zmq_send(self->handle, body_size ? body : "", body_size, 0) < 0) {
        bus_log_warning("rpc reply not sent method=%s reason=\"%s\"", req->method,
                        zmq_strerror(zmq_errno()));
        return -1;
    }
    return 0;
}

//  Fills req from the request header. Returns BUS_OK or a status with err.
static int
s_parse_request(bus_rpc_server_t *self, bus_rpc_request_t *req, bus_error_t *err)
{
    const bus_value_t *map = bus_reader_parse(
        self->reader, zmq_msg_data(&self->frames[1]), zmq_msg_size(&self->frames[1]));
    if (!map || bus_value_type(map) != BUS_VALUE_MAP)
        return bus_error_set(err, BUS_STATUS_PROTOCOL,
                             "request header is not a msgpack map");
    if (!bus_value_get_uint(bus_value_map_find(map, "c"), &req->call_id) ||
        req->call_id == 0)
        return bus_error_set(err, BUS_STATUS_PROTOCOL, "request header lacks a call id");
    uint64_t version = 0;
    if (!bus_value_get_uint(bus_value_map_find(map, "v"), &version) || version == 0 ||
        version > BUS_RPC_VERSION)
        return bus_error_set(err, BUS_STATUS_PROTOCOL, "request version not supported");
    const char *text;
    size_t len;
    if (!bus_value_get_str(bus_value_map_find(map, "m"), &text, &len) || len == 0 ||
        len >= sizeof req->method || memchr(text, 0, len))
        return bus_error_set(err, BUS_STATUS_PROTOCOL, "request lacks a valid method");
    memcpy(req->method, text, len);
    req->method[len] = 0;
    const bus_value_t *dl = bus_value_map_find(map, "dl");
    if (dl && !bus_value_get_int(dl, &req->deadline_wall_us))
        return bus_error_set(err, BUS_STATUS_PROTOCOL,
                             "request deadline is not an integer");
    if (bus_value_get_str(bus_value_map_find(map, "src"), &text, &len) &&
        len < sizeof req->src)
        s_copy_text(req->src, sizeof req->src, text, len);
    if (bus_value_get_str(bus_value_map_find(map, "corr"), &text, &len) &&
        len < sizeof req->corr)
        s_copy_text(req->corr, sizeof req->corr, text, len);
    return BUS_OK;
}

static void
s_serve_one(bus_rpc_server_t *self)
{
    //  Fields are set one by one rather than the whole request and error
    //  cleared: those are most of a kilobyte, cleared for every request.
    bus_rpc_request_t req;
    size_t id_size = zmq_msg_size(&self->frames[0]);
    if (id_size > sizeof req.identity)
        return;
    memcpy(req.identity, zmq_msg_data(&self->frames[0]), id_size);
    req.identity_size = id_size;
    req.call_id = 0;
    req.deadline_wall_us = 0;
    req.method[0] = req.src[0] = req.corr[0] = 0;

    bus_error_t err;
    err.status = BUS_OK;
    err.detail[0] = 0;
    int status = s_parse_request(self, &req, &err);
    if (status != BUS_OK) {
        bus_log_warning("rpc request rejected reason=\"%s\"", err.detail);
        if (req.call_id)
            s_server_send(self, &req, status, err.detail, NULL, 0);
        return;
    }
    int64_t late_us = req.deadline_wall_us ? bus_clock_bus_us() - req.deadline_wall_us -
                                                 BUS_RPC_DEADLINE_GRACE_MS * 1000
                                           : 0;
    if (late_us > 0) {
        //  Not executed, but answered: a caller still waiting is one whose
        //  clock is behind ours (the answer's ts lets bus_node correct its
        //  bus time when we are the registry); any other dropped the call.
        bus_log_info(
            "rpc request expired before it arrived method=%s src=%s late_ms=%" PRId64,
            req.method, req.src, late_us / 1000);
        s_server_send(self, &req, BUS_STATUS_TIMEOUT,
                      "the deadline passed before the request arrived (or the clocks"
                      " differ)",
                      NULL, 0);
        return;
    }
    rpc_handler_t *handler = self->last_handler;
    if (!handler || strcmp(req.method, self->last_method) != 0) {
        handler = zhashx_lookup(self->handlers, req.method);
        self->last_handler = handler;
        memcpy(self->last_method, req.method, strlen(req.method) + 1);
    }
    //  Setting the thread's correlation id is a formatted copy: skip it
    //  when the id is empty and none is set (requests that carry no trace).
    if (req.corr[0] || bus_log_corr()[0])
        bus_log_set_corr(req.corr);
    if (!handler) {
        s_server_send(self, &req, BUS_STATUS_NOT_FOUND, "unknown method", NULL, 0);
        bus_log_info("rpc unknown method method=%s src=%s", req.method, req.src);
        if (bus_log_corr()[0])
            bus_log_set_corr(NULL);
        return;
    }
    bus_writer_reset(self->reply);
    const void *body = zmq_msg_data(&self->frames[2]);
    size_t body_size = zmq_msg_size(&self->frames[2]);
    status = handler->typed
                 ? handler->adapter(handler->typed, handler->arg, &req, body, body_size,
                                    self->reply, &err)
                 : handler->fn(handler->arg, &req, body, body_size, self->reply, &err);
    if (status != BUS_STATUS_PENDING_) {
        if (status == BUS_OK)
            s_server_send(self, &req, BUS_OK, NULL, bus_writer_data(self->reply),
                          bus_writer_size(self->reply));
        else
            s_server_send(self, &req, status,
                          err.detail[0] ? err.detail : bus_status_str(status), NULL, 0);
    }
    if (bus_log_corr()[0])
        bus_log_set_corr(NULL);
}

int
bus_rpc_server_dispatch(bus_rpc_server_t *self)
{
    int served = 0;
    int64_t until = bus_clock_mono_ms() + BUS_RPC_DISPATCH_BUDGET_MS;
    for (int reads = 0; reads < BUS_RPC_DISPATCH_MAX; reads++) {
        if (served > 0 && bus_clock_mono_ms() >= until)
            break;
        if (zmq_msg_recv(&self->frames[0], self->handle, ZMQ_DONTWAIT) < 0)
            break;
        int parts = 1;
        bool more = zmq_msg_more(&self->frames[0]);
        while (more) {
            zmq_msg_t *frame = &self->frames[parts < 3 ? parts : 2];
            if (zmq_msg_recv(frame, self->handle, 0) < 0)
                break;
            more = zmq_msg_more(frame);
            parts++;
        }
        if (parts != 3) {
            bus_log_warning("rpc request malformed frames=%d", parts);
            continue;
        }
        s_serve_one(self);
        served++;
    }
    return served;
}

int
bus_rpc_server_reply(bus_rpc_server_t *self,
                     bus_rpc_request_t **req_p,
                     int status,
                     const char *detail,
                     const void *body,
                     size_t body_size)
{
    assert(req_p && *req_p);
    int rc = s_server_send(self, *req_p, status, detail, body, body_size);
    bus_rpc_request_destroy(req_p);
    return rc;
}

bus_rpc_request_t *
bus_rpc_request_detach(bus_rpc_request_t *req)
{
    bus_rpc_request_t *copy = malloc(sizeof *copy);
    if (copy)
        memcpy(copy, req, sizeof *copy);
    return copy;
}

void
bus_rpc_request_destroy(bus_rpc_request_t **req_p)
{
    assert(req_p);
    free(*req_p);
    *req_p = NULL;
}

const char *
bus_rpc_request_method(const bus_rpc_request_t *req)
{
    return req->method;
}

const char *
bus_rpc_request_src(const bus_rpc_request_t *req)
{
    return req->src;
}

const char *
bus_rpc_request_corr(const bus_rpc_request_t *req)
{
    return req->corr;
}

int
bus_rpc_request_remaining_ms(const bus_rpc_request_t *req)
{
    if (!req->deadline_wall_us)
        return INT_MAX;
    int64_t left = (req->deadline_wall_us - bus_clock_bus_us()) / 1000;
    return left <= 0 ? 0 : left > INT_MAX ? INT_MAX : (int) left;
}
