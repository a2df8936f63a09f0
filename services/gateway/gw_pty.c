/*  =========================================================================
    gw_pty - GET /stream/session/{s}/pty: a terminal in the session

    One terminal stream keeps one kernel.pty_read always out (the agent
    answers as soon as there is output past the stream's offset, or after
    GW_PTY_POLL_MS with nothing), and sends keystrokes and resizes as they
    come. The stream is freed when the client is gone and no call of it is
    out any more.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include <openssl/evp.h> //  base64 of the terminal's bytes

#define PTY_CALL_TIMEOUT_MS    (GW_PTY_POLL_MS + 10000)
#define PTY_WRITE_MAX          65536 //  decoded bytes of one stdin message
#define PTY_RESTART_TIMEOUT_MS 30000

typedef struct {
    gw_server_t *gw;
    gw_wsconn_t *ws;        //  NULL once the client is gone
    int calls;              //  kernel.* calls out
    uint64_t offset;        //  how much of the terminal's output the client has
    gw_session_kernel_t at; //  the session's kernel and its agent
} pty_stream_t;

static void
s_settle(pty_stream_t *self)
{
    if (!self->ws && self->calls == 0)
        free(self);
}

static void
s_error(pty_stream_t *self, const char *message)
{
    if (self->ws)
        gw_wsconn_send_json(self->ws,
                            json_pack("{s:s, s:s}", "type", "error", "data", message));
}

//  Sends a kernel.* call for this stream; false when it could not leave.
static bool
s_call(pty_stream_t *self,
       const char *method,
       bus_writer_t *writer,
       int timeout_ms,
       bus_reply_fn *fn)
{
    bool sent =
        writer && bus_node_call(gw_server_node(self->gw), self->at.agent_addr, method,
                                bus_writer_data(writer), bus_writer_size(writer),
                                timeout_ms, fn, self) != 0;
    bus_writer_destroy(&writer);
    if (sent)
        self->calls++;
    return sent;
}

static void s_read(pty_stream_t *self);

static void
s_on_read(void *arg, const bus_reply_t *reply)
{
    pty_stream_t *self = arg;
    self->calls--;
    if (!self->ws) {
        s_settle(self);
        return;
    }
    proto_kernel_pty_read_rep_t rep;
    bus_error_t err = {0};
    if (reply->status == BUS_STATUS_TIMEOUT) {
        s_read(self); //  a slow agent: ask again
        s_settle(self);
        return;
    }
    if (reply->status != BUS_OK ||
        proto_kernel_pty_read_rep_decode(&rep, reply->body, reply->body_size, &err) !=
            BUS_OK) {
        s_error(self, reply->status != BUS_OK ? reply->detail : err.detail);
        gw_wsconn_close(self->ws, GW_WS_CLOSE_INTERNAL, "terminal lost");
        self->ws = NULL;
        s_settle(self);
        return;
    }
    if (rep.data_size) {
        char *text = malloc(4 * ((rep.data_size + 2) / 3) + 1);
        if (text) {
            EVP_EncodeBlock((unsigned char *) text, rep.data, (int) rep.data_size);
            gw_wsconn_send_json(self->ws,
                                json_pack("{s:s, s:s}", "type", "out", "data", text));
            free(text);
        }
    }
    self->offset = rep.offset;
    bool closed = rep.closed;
    proto_kernel_pty_read_rep_clear(&rep);
    if (closed) {
        s_error(self, "the terminal has ended");
        gw_wsconn_close(self->ws, GW_WS_CLOSE_NORMAL, NULL);
        self->ws = NULL;
        s_settle(self);
        return;
    }
    s_read(self);
    s_settle(self);
}

static void
s_read(pty_stream_t *self)
{
    proto_kernel_pty_read_req_t in;
    proto_kernel_pty_read_req_init(&in);
    in.kernel_id = self->at.kernel_id;
    in.offset = self->offset;
    in.wait_ms = GW_PTY_POLL_MS;
    bus_error_t err;
    bus_writer_t *writer = proto_kernel_pty_read_req_writer(&in, &err);
    bool written = writer != NULL;
    if (!s_call(self, PROTO_KERNEL_PTY_READ, writer, PTY_CALL_TIMEOUT_MS, s_on_read)) {
        s_error(self, written ? "the session's agent is not reachable" : err.detail);
        gw_wsconn_close(self->ws, GW_WS_CLOSE_INTERNAL, "agent unreachable");
        self->ws = NULL;
    }
}

static void
s_on_written(void *arg, const bus_reply_t *reply)
{
    pty_stream_t *self = arg;
    self->calls--;
    if (self->ws && reply->status != BUS_OK)
        s_error(self, reply->detail);
    s_settle(self);
}

//  Keystrokes (possibly none: the first write opens the terminal) and, when
//  rows and cols are set, the terminal's size.
static void
s_write(
    pty_stream_t *self, const uint8_t *data, size_t size, unsigned rows, unsigned cols)
{
    if (size)
        gw_activity_touch(gw_server_activity(self->gw), self->at.session_id);
    proto_kernel_pty_write_req_t in;
    proto_kernel_pty_write_req_init(&in);
    in.kernel_id = self->at.kernel_id;
    in.data = (const uint8_t *) data;
    in.data_size = size;
    in.rows = rows;
    in.cols = cols;
    bus_error_t err;
    bus_writer_t *writer = proto_kernel_pty_write_req_writer(&in, &err);
    bool written = writer != NULL;
    if (!s_call(self, PROTO_KERNEL_PTY_WRITE, writer, 0, s_on_written))
        s_error(self, written ? "the session's agent is not reachable" : err.detail);
}

static void
s_on_message(
    gw_wsconn_t *ws, gw_ws_opcode_t opcode, const uint8_t *data, size_t size, void *arg)
{
    (void) ws;
    (void) opcode;
    pty_stream_t *self = arg;
    json_t *message = json_loadb((const char *) data, size, 0, NULL);
    const char *type = json_string_value(json_object_get(message, "type"));
    if (!type)
        s_error(self, "messages are JSON objects with a type");
    else if (strcmp(type, "stdin") == 0) {
        const char *chars = json_string_value(json_object_get(message, "chars"));
        size_t length = chars ? strlen(chars) : 0;
        uint8_t *bytes =
            length <= PTY_WRITE_MAX * 4 / 3 + 4 ? malloc(length / 4 * 3 + 3) : NULL;
        int decoded =
            bytes && length % 4 == 0
                ? EVP_DecodeBlock(bytes, (const unsigned char *) chars, (int) length)
                : -1;
        if (decoded < 0)
            s_error(self, "stdin chars must be base64, at most 64 KiB");
        else {
            //  EVP_DecodeBlock counts the padding as bytes.
            size_t real = (size_t) decoded;
            for (size_t i = length; i > 0 && chars[i - 1] == '=' && real > 0; i--)
                real--;
            s_write(self, bytes, real, 0, 0);
        }
        free(bytes);
    } else if (strcmp(type, "resize") == 0) {
        json_int_t rows = json_integer_value(json_object_get(message, "rows"));
        json_int_t cols = json_integer_value(json_object_get(message, "cols"));
        if (rows < 1 || rows > 1000 || cols < 1 || cols > 1000)
            s_error(self, "resize needs rows and cols between 1 and 1000");
        else
            s_write(self, NULL, 0, (unsigned) rows, (unsigned) cols);
    } else if (strcmp(type, "restart") == 0) {
        //  The whole session restarts; this terminal ends with it.
        proto_session_restart_req_t in;
        proto_session_restart_req_init(&in);
        in.session_id = self->at.session_id;
        bus_writer_t *writer = bus_writer_new();
        const char *scheduler = bus_node_find(gw_server_node(self->gw), "scheduler");
        bool sent =
            writer && scheduler && proto_session_restart_req_write(&in, writer) == 0 &&
            bus_node_call(gw_server_node(self->gw), scheduler, PROTO_SESSION_RESTART,
                          bus_writer_data(writer), bus_writer_size(writer),
                          PTY_RESTART_TIMEOUT_MS, s_on_written, self) != 0;
        bus_writer_destroy(&writer);
        if (sent)
            self->calls++;
        else
            s_error(self, "the scheduler is not reachable");
    } else if (strcmp(type, "ping") == 0)
        gw_wsconn_send_json(self->ws, json_pack("{s:s}", "type", "pong"));
    else
        s_error(self, "unknown message type");
    json_decref(message);
}

static void
s_on_gone(gw_wsconn_t *ws, void *arg)
{
    (void) ws;
    pty_stream_t *self = arg;
    self->ws = NULL;
    s_settle(self);
}

static void
s_on_session(gw_request_t *r, proto_session_info_t *info, void *arg)
{
    (void) arg;
    gw_session_kernel_t at;
    if (!gw_session_kernel(r, info, &at))
        return;
    pty_stream_t *self = calloc(1, sizeof *self);
    if (!self) {
        gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
        return;
    }
    self->gw = r->gw;
    self->at = at;
    static const gw_wsconn_handlers_t handlers = {.on_message = s_on_message,
                                                  .on_gone = s_on_gone};
    self->ws = gw_wsconn_accept(r, &handlers, self);
    if (!self->ws) {
        free(self);
        return;
    }
    bus_log_info("terminal open session=%s", self->at.session_id);
    s_write(self, NULL, 0, GW_PTY_ROWS, GW_PTY_COLS);
    s_read(self);
    s_settle(self);
}

void
gw_pty_handle(gw_request_t *r)
{
    if (!gw_wsconn_requested(r)) {
        gw_reply_problem(r, "generic-bad-request", "this route speaks WebSocket only");
        return;
    }
    gw_session_find(r, s_on_session, NULL);
}
