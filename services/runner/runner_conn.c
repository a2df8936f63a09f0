/*  =========================================================================
    runner_conn - the agent's connection: frames in, frames out

    One agent connection at a time; a new one replaces the old (an agent that
    restarted finds the runner, its interpreter state and any queued output
    still there). Incoming bytes collect until a whole frame is there, then a
    table indexed by kind dispatches it. A declared length below 5 or above
    the maximum, or a kind the agent may not send, is logged and closes the
    connection; the runner goes on listening. Outgoing frames queue in one
    buffer written when the socket is writable; when a connection breaks in
    the middle of a frame, the rest of that frame is dropped so that the next
    connection starts on a frame boundary.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "runner_classes.h"

typedef void(s_handler_fn)(runner_t *r, const agent_runner_frame_t *frame);

static void
s_on_shutdown(runner_t *r, const agent_runner_frame_t *frame)
{
    (void) frame;
    runner_log("notice", "shutdown requested by the agent");
    r->quit = true;
}

//  Agent -> runner kinds, indexed by kind.
static s_handler_fn *s_handlers[] = {
    [AGENT_RUNNER_EXEC] = runner_exec_on_exec,
    [AGENT_RUNNER_BATCH] = runner_exec_on_batch,
    [AGENT_RUNNER_INPUT] = runner_exec_on_input,
    [AGENT_RUNNER_INTERRUPT] = runner_exec_on_interrupt,
    [AGENT_RUNNER_PTY_OPEN] = runner_pty_on_open,
    [AGENT_RUNNER_PTY_DATA] = runner_pty_on_data,
    [AGENT_RUNNER_PTY_RESIZE] = runner_pty_on_resize,
    [AGENT_RUNNER_SERVICE] = runner_service_on_start,
    [AGENT_RUNNER_STATUS] = runner_exec_on_status,
    [AGENT_RUNNER_SHUTDOWN] = s_on_shutdown,
};

//  Advances the frame bookkeeping over n bytes just written from the front.
static void
s_advance(runner_t *r, size_t n)
{
    const uint8_t *at = runner_buf_data(&r->out);
    while (n > 0) {
        if (r->out_frame_left == 0)
            r->out_frame_left = 4 + (size_t) agent_runner_get_u32(at);
        size_t take = n < r->out_frame_left ? n : r->out_frame_left;
        r->out_frame_left -= take;
        n -= take;
        at += take;
    }
}

static void
s_write(runner_t *r)
{
    while (r->conn_fd >= 0 && runner_buf_size(&r->out) > 0) {
        ssize_t n = send(r->conn_fd, runner_buf_data(&r->out), runner_buf_size(&r->out),
                         MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n <= 0) {
            runner_conn_close(r, strerror(errno));
            return;
        }
        s_advance(r, (size_t) n);
        runner_buf_consume(&r->out, (size_t) n);
    }
}

//  Dispatches every whole frame in r->in.
static void
s_dispatch(runner_t *r)
{
    while (r->conn_fd >= 0) {
        agent_runner_frame_t frame;
        long used = agent_runner_frame_decode(runner_buf_data(&r->in),
                                              runner_buf_size(&r->in), &frame);
        if (used == AGENT_RUNNER_NEED_MORE)
            return;
        if (used == AGENT_RUNNER_MALFORMED) {
            runner_log("warning", "malformed frame: length %" PRIu32 " out of range",
                       agent_runner_get_u32(runner_buf_data(&r->in)));
            runner_conn_close(r, "protocol error");
            return;
        }
        if (!agent_runner_kind_valid(frame.kind, true)) {
            runner_log("warning", "unknown frame kind %u run=%" PRIu32, frame.kind,
                       frame.run_id);
            runner_conn_close(r, "protocol error");
            return;
        }
        s_handlers[frame.kind](r, &frame);
        if (r->conn_fd < 0)
            return;
        runner_buf_consume(&r->in, (size_t) used);
    }
}

//  Reads and dispatches one chunk. Returns true when the connection may have more.
static bool
s_read(runner_t *r)
{
    static uint8_t chunk[RUNNER_READ_CHUNK];
    ssize_t n = read(r->conn_fd, chunk, sizeof chunk);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return false;
    if (n <= 0) {
        runner_conn_close(r, n == 0 ? "closed by the agent" : strerror(errno));
        return false;
    }
    if (runner_buf_append(&r->in, chunk, (size_t) n) != 0) {
        runner_conn_close(r, "out of memory");
        return false;
    }
    s_dispatch(r);
    return r->conn_fd >= 0;
}

void
runner_conn_accept(runner_t *r)
{
    int fd = accept4(r->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0) {
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
            runner_log("warning", "accept: %s", strerror(errno));
        return;
    }
    //  What the old connection sent before it went away still counts.
    while (r->conn_fd >= 0 && s_read(r))
        ;
    if (r->conn_fd >= 0)
        runner_conn_close(r, "replaced by a new connection");
    r->conn_fd = fd;
    runner_log("info", "agent connected queued=%zu dropped=%zu", runner_buf_size(&r->out),
               r->dropped);
    r->dropped = 0;
    //  The old connection may have taken the prompt with it.
    if (r->busy && r->waiting_input)
        runner_send(r, AGENT_RUNNER_WAITING_INPUT, r->run_id, &r->input_password, 1);
}

void
runner_conn_on_io(runner_t *r, short revents)
{
    if (revents & POLLOUT)
        s_write(r);
    if (r->conn_fd >= 0 && (revents & (POLLIN | POLLHUP | POLLERR)))
        s_read(r);
}

void
runner_conn_close(runner_t *r, const char *reason)
{
    if (r->conn_fd < 0)
        return;
    runner_log("info", "agent connection closed: %s", reason);
    runner_close(&r->conn_fd);
    runner_buf_clear(&r->in);
    if (r->out_frame_left > 0) {
        runner_buf_consume(&r->out, r->out_frame_left);
        r->out_frame_left = 0;
    }
}

void
runner_send(runner_t *r, uint8_t kind, uint32_t run_id, const void *data, size_t size)
{
    assert(size <= AGENT_RUNNER_PAYLOAD_MAX);
    bool output = kind == AGENT_RUNNER_STDOUT || kind == AGENT_RUNNER_STDERR ||
                  kind == AGENT_RUNNER_PTY_OUT;
    if (output && r->conn_fd < 0 && runner_buf_size(&r->out) >= RUNNER_OUT_DETACHED_MAX) {
        if (r->dropped == 0)
            runner_log("warning", "no agent connected: dropping output run=%" PRIu32,
                       run_id);
        r->dropped += size;
        return;
    }
    uint8_t header[AGENT_RUNNER_HEADER_SIZE];
    agent_runner_header_encode(header, kind, run_id, size);
    if (runner_buf_reserve(&r->out, sizeof header + size) != 0) {
        runner_log("error", "out of memory: %s frame dropped",
                   agent_runner_kind_name(kind));
        return;
    }
    runner_buf_append(&r->out, header, sizeof header);
    runner_buf_append(&r->out, data, size);
    s_write(r);
}

bool
runner_output_allowed(const runner_t *r)
{
    return r->conn_fd < 0 || runner_buf_size(&r->out) < RUNNER_OUT_HIGH;
}

size_t
runner_pipe_read(runner_t *r, int *fd_p, uint8_t kind, uint32_t run_id, bool forward)
{
    static uint8_t chunk[RUNNER_READ_CHUNK];
    if (*fd_p < 0)
        return 0;
    ssize_t n = read(*fd_p, chunk, sizeof chunk);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return 0;
    if (n <= 0) {
        runner_close(fd_p); //  end of file, or EIO from a terminal whose shell left
        return 0;
    }
    if (forward)
        runner_send(r, kind, run_id, chunk, (size_t) n);
    //  A batch task's output also goes to the container's own output
    //  (container.log), which GET /session/{id}/logs answers, also after
    //  the session ended. Best effort: a full log loses the copy only.
    if (forward && r->batch &&
        (kind == AGENT_RUNNER_STDOUT || kind == AGENT_RUNNER_STDERR)) {
        ssize_t written =
            write(kind == AGENT_RUNNER_STDERR ? STDERR_FILENO : STDOUT_FILENO, chunk,
                  (size_t) n);
        (void) written;
    }
    return (size_t) n;
}

void
runner_pipe_drain(runner_t *r, int *fd_p, uint8_t kind, uint32_t run_id, bool forward)
{
    size_t total = 0, n;
    while (total < RUNNER_DRAIN_MAX &&
           (n = runner_pipe_read(r, fd_p, kind, run_id, forward)))
        total += n;
}
