/*  =========================================================================
    agent_kernel_pty - the terminal methods of kernel.* on the agent's loop

    A terminal (s_term_t, in a hash by kernel id) is made by the first write
    or read of a kernel and installs its PTY handler on the kernel's runner
    client. Its output is a ring of AGENT_KERNEL_PTY_KEEP bytes and a 64-bit
    count of every byte since the terminal opened: the byte at offset o sits
    at o % AGENT_KERNEL_PTY_KEEP while o >= total - kept. A read that has to
    wait is detached from the RPC server and parked on the terminal with a
    timer; new output, the shell's end, or the timer answers it, whichever
    comes first. The shell's end reaches the handler as a call without data
    (the runner reports it as FINISHED of the terminal's run). The kernels'
    runner hook tells when the runner client goes (the kernel ends or
    restarts): the waiting reads answer closed and the terminal is dropped
    before the client is freed, so no handler outlives its client and no
    terminal keeps a stale client.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"

typedef struct _s_term_t s_term_t;

//  A pty_read waiting for output.
typedef struct _s_reader_t {
    struct _s_reader_t *next;
    s_term_t *term;
    bus_rpc_request_t *req;
    struct event *timer;
    uint64_t offset;
} s_reader_t;

struct _s_term_t {
    agent_kernel_pty_t *owner;
    char *kernel_id;
    agent_runner_client_t *runner; //  the client the handler is installed on
    bool open;                     //  PTY_OPEN sent, and the shell did not end
    bool closed;                   //  the shell ended; a write opens a new one
    unsigned rows, cols;           //  the size asked for last
    uint8_t *ring;                 //  AGENT_KERNEL_PTY_KEEP bytes, made on output
    uint64_t total;                //  bytes since the terminal opened
    s_reader_t *readers;           //  newest first
    size_t nreaders;
};

struct _agent_kernel_pty_t {
    bus_node_t *node;
    agent_kernels_t *kernels;
    zhashx_t *terms; //  kernel id -> s_term_t
};

//  Offset of the oldest byte the ring holds.
static uint64_t
s_oldest(const s_term_t *term)
{
    return term->total > AGENT_KERNEL_PTY_KEEP ? term->total - AGENT_KERNEL_PTY_KEEP : 0;
}

//  Fills out with the output from offset on (from the oldest kept byte when
//  offset is older; none when it is past the end). closed when the shell
//  ended, or gone (the terminal is being dropped). 0, or -1 out of memory.
static int
s_fill(const s_term_t *term, uint64_t offset, bool gone, proto_kernel_pty_read_rep_t *out)
{
    proto_kernel_pty_read_rep_init(out);
    uint64_t from = offset < s_oldest(term) ? s_oldest(term) : offset;
    if (from > term->total)
        from = term->total;
    uint64_t size = term->total - from;
    if (size > AGENT_KERNEL_PTY_READ_MAX)
        size = AGENT_KERNEL_PTY_READ_MAX;
    if (size > 0) {
        uint8_t *data = proto_arena_alloc(&out->owned_, (size_t) size);
        if (!data)
            return -1;
        out->data = data;
        size_t done = 0;
        while (done < size) {
            size_t at = (size_t) ((from + done) % AGENT_KERNEL_PTY_KEEP);
            size_t chunk = AGENT_KERNEL_PTY_KEEP - at;
            if (chunk > size - done)
                chunk = (size_t) size - done;
            memcpy(data + done, term->ring + at, chunk);
            done += chunk;
        }
        out->data_size = (size_t) size;
    }
    out->offset = from + size;
    out->closed = gone || (term->closed && out->offset == term->total);
    return 0;
}

//  Answers a detached read with what the terminal holds for it. *req_p is
//  consumed.
static void
s_answer(agent_kernel_pty_t *self,
         const s_term_t *term,
         bus_rpc_request_t **req_p,
         uint64_t offset,
         bool gone)
{
    proto_kernel_pty_read_rep_t out;
    proto_kernel_pty_read_rep_init(&out); //  cleared below whatever happens
    bus_writer_t *writer = bus_writer_new();
    if (writer && s_fill(term, offset, gone, &out) == 0 &&
        proto_kernel_pty_read_rep_write(&out, writer) == 0)
        bus_node_reply(self->node, req_p, BUS_OK, NULL, bus_writer_data(writer),
                       bus_writer_size(writer));
    else
        bus_node_reply(self->node, req_p, BUS_STATUS_INTERNAL, "out of memory", NULL, 0);
    proto_kernel_pty_read_rep_clear(&out);
    bus_writer_destroy(&writer);
}

//  Takes reader off its terminal and frees it, answering its request with
//  status (BUS_OK: the terminal's output, closed when gone).
static void
s_reader_finish(s_reader_t *reader, int status, bool gone)
{
    s_term_t *term = reader->term;
    for (s_reader_t **at = &term->readers; *at; at = &(*at)->next)
        if (*at == reader) {
            *at = reader->next;
            term->nreaders--;
            break;
        }
    event_free(reader->timer);
    if (status == BUS_OK)
        s_answer(term->owner, term, &reader->req, reader->offset, gone);
    else
        bus_node_reply(term->owner->node, &reader->req, status, "agent stopping", NULL,
                       0);
    free(reader);
}

static void
s_on_reader_timer(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    s_reader_finish(arg, BUS_OK, false);
}

//  Answers every waiting read of term.
static void
s_answer_all(s_term_t *term, int status, bool gone)
{
    while (term->readers)
        s_reader_finish(term->readers, status, gone);
}

//  Appends output to the ring.
static int
s_append(s_term_t *term, const uint8_t *data, size_t size)
{
    if (!term->ring && !(term->ring = malloc(AGENT_KERNEL_PTY_KEEP)))
        return -1;
    if (size > AGENT_KERNEL_PTY_KEEP) {
        //  Only the last bytes stay; the others are counted.
        term->total += size - AGENT_KERNEL_PTY_KEEP;
        data += size - AGENT_KERNEL_PTY_KEEP;
        size = AGENT_KERNEL_PTY_KEEP;
    }
    while (size > 0) {
        size_t at = (size_t) (term->total % AGENT_KERNEL_PTY_KEEP);
        size_t chunk = AGENT_KERNEL_PTY_KEEP - at;
        if (chunk > size)
            chunk = size;
        memcpy(term->ring + at, data, chunk);
        term->total += chunk;
        data += chunk;
        size -= chunk;
    }
    return 0;
}

//  The runner's PTY handler: output, or (data NULL) the shell's end.
static void
s_on_output(const uint8_t *data, size_t size, void *arg)
{
    s_term_t *term = arg;
    if (!data) {
        bus_log_info("kernel terminal closed kernel=%s bytes=%" PRIu64, term->kernel_id,
                     term->total);
        term->open = false;
        term->closed = true;
    } else if (size == 0)
        return;
    else if (s_append(term, data, size) != 0) {
        bus_log_error("kernel terminal output dropped kernel=%s bytes=%zu: out of memory",
                      term->kernel_id, size);
        return;
    }
    s_answer_all(term, BUS_OK, false);
}

static void
s_term_destroy(s_term_t **term_p)
{
    s_term_t *term = *term_p;
    if (!term)
        return;
    s_answer_all(term, BUS_STATUS_UNAVAILABLE, false); //  none but at the end
    free(term->kernel_id);
    free(term->ring);
    free(term);
    *term_p = NULL;
}

static void
s_term_destructor(void **item_p)
{
    s_term_destroy((s_term_t **) item_p);
}

//  Forgets kernel_id's terminal: its reads answer closed. When the runner
//  still lives, its handler is taken off.
static void
s_term_drop(agent_kernel_pty_t *self, s_term_t *term, bool runner_alive)
{
    if (runner_alive)
        agent_runner_client_set_pty_handler(term->runner, NULL, NULL);
    s_answer_all(term, BUS_OK, true);
    bus_log_info("kernel terminal dropped kernel=%s", term->kernel_id);
    zhashx_delete(self->terms, term->kernel_id); //  frees term
}

//  The terminal of a kernel whose runner client is runner, made when needed.
//  NULL when out of memory.
static s_term_t *
s_term_get(agent_kernel_pty_t *self, const char *kernel_id, agent_runner_client_t *runner)
{
    s_term_t *term = zhashx_lookup(self->terms, kernel_id);
    if (term && term->runner != runner) {
        //  The hook always reports a client going; this is only a safety net,
        //  and the old client may be freed: it is not touched.
        bus_log_warning("kernel terminal of an old runner kernel=%s", kernel_id);
        s_term_drop(self, term, false);
        term = NULL;
    }
    if (term)
        return term;
    term = calloc(1, sizeof *term);
    if (!term || !(term->kernel_id = strdup(kernel_id))) {
        free(term);
        return NULL;
    }
    term->owner = self;
    term->runner = runner;
    if (zhashx_insert(self->terms, kernel_id, term) != 0) {
        s_term_destroy(&term);
        return NULL;
    }
    agent_runner_client_set_pty_handler(runner, s_on_output, term);
    return term;
}

//  The kernels' runner hook: a client came (a fresh one never has a
//  terminal) or goes (its terminal goes with it).
static void
s_on_runner(const char *kernel_id, agent_runner_client_t *runner, void *arg)
{
    agent_kernel_pty_t *self = arg;
    s_term_t *term = zhashx_lookup(self->terms, kernel_id);
    if (!term)
        return;
    if (!runner)
        s_term_drop(self, term, true); //  still alive while the hook runs
    else if (term->runner != runner)
        s_term_drop(self, term, false);
}

//  Sends a "<rows> <cols>" frame of kind for term.
static int
s_send_size(s_term_t *term, uint8_t kind, bus_error_t *err)
{
    char size[32];
    int n = snprintf(size, sizeof size, "%u %u",
                     term->rows ? term->rows : AGENT_KERNEL_PTY_ROWS,
                     term->cols ? term->cols : AGENT_KERNEL_PTY_COLS);
    return agent_runner_client_pty_send(term->runner, kind, size, (size_t) n, err);
}

//  ---------------------------------------------------------------------------
//  kernel.pty_write
int
agent_kernel_pty_on_write(void *arg,
                          const proto_kernel_pty_write_req_t *in,
                          proto_kernel_pty_write_rep_t *out,
                          bus_rpc_request_t *req,
                          bus_error_t *err)
{
    (void) out, (void) req;
    agent_kernel_pty_t *self = arg;
    int rc = BUS_OK;
    agent_runner_client_t *runner = agent_kernels_runner(self->kernels, in->kernel_id);
    s_term_t *term = runner ? s_term_get(self, in->kernel_id, runner) : NULL;
    if (!runner)
        rc = bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such kernel");
    else if (!term)
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    if (rc == BUS_OK) {
        bool resize = in->rows || in->cols;
        if (in->rows)
            term->rows = (unsigned) in->rows;
        if (in->cols)
            term->cols = (unsigned) in->cols;
        if (!term->open) {
            if (term->closed) {
                //  A new terminal: counted from 0 again (no read waits on a
                //  closed one).
                term->closed = false;
                term->total = 0;
            }
            if (s_send_size(term, AGENT_RUNNER_PTY_OPEN, err) != 0)
                rc = err->status;
            else {
                term->open = true;
                bus_log_info("kernel terminal opened kernel=%s rows=%u cols=%u",
                             term->kernel_id, term->rows, term->cols);
            }
        } else if (resize && s_send_size(term, AGENT_RUNNER_PTY_RESIZE, err) != 0)
            rc = err->status;
    }
    if (rc == BUS_OK && in->data_size > 0 &&
        agent_runner_client_pty_send(term->runner, AGENT_RUNNER_PTY_DATA, in->data,
                                     in->data_size, err) != 0)
        rc = err->status;
    return rc;
}

//  ---------------------------------------------------------------------------
//  kernel.pty_read
int
agent_kernel_pty_on_read(void *arg,
                         const proto_kernel_pty_read_req_t *in,
                         proto_kernel_pty_read_rep_t *out,
                         bus_rpc_request_t *req,
                         bus_error_t *err)
{
    agent_kernel_pty_t *self = arg;
    int rc = BUS_OK;
    agent_runner_client_t *runner = agent_kernels_runner(self->kernels, in->kernel_id);
    s_term_t *term = runner ? s_term_get(self, in->kernel_id, runner) : NULL;
    //  Answered before the caller's attempt times out and it sends again.
    int64_t left =
        bus_rpc_request_remaining_ms(req) / BUS_RPC_ATTEMPTS - AGENT_KERNEL_PTY_MARGIN_MS;
    int wait_ms = (int) (left < 0                        ? 0
                         : in->wait_ms > (uint64_t) left ? left
                                                         : (int64_t) in->wait_ms);
    if (!runner)
        rc = bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such kernel");
    else if (!term)
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    else if (in->offset != term->total || term->closed || wait_ms <= 0) {
        if (s_fill(term, in->offset, false, out) != 0)
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    } else {
        if (term->nreaders >= AGENT_KERNEL_PTY_READERS_MAX) {
            s_reader_t *oldest = term->readers;
            while (oldest->next)
                oldest = oldest->next;
            s_reader_finish(oldest, BUS_OK, false);
        }
        s_reader_t *reader = calloc(1, sizeof *reader);
        if (reader)
            reader->timer =
                evtimer_new(bus_node_base(self->node), s_on_reader_timer, reader);
        if (!reader || !reader->timer) {
            free(reader);
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        } else {
            reader->term = term;
            reader->offset = in->offset;
            reader->req = bus_rpc_request_detach(req);
            reader->next = term->readers;
            term->readers = reader;
            term->nreaders++;
            struct timeval tv = {wait_ms / 1000, (wait_ms % 1000) * 1000};
            evtimer_add(reader->timer, &tv);
            rc = BUS_STATUS_PENDING_;
        }
    }
    return rc;
}

//  ---------------------------------------------------------------------------
//  The terminal methods' object.

agent_kernel_pty_t *
agent_kernel_pty_new(bus_node_t *node, agent_kernels_t *kernels, bus_error_t *err)
{
    assert(node);
    assert(kernels);
    agent_kernel_pty_t *self = calloc(1, sizeof *self);
    if (self)
        self->terms = zhashx_new();
    if (!self || !self->terms) {
        free(self);
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->node = node;
    self->kernels = kernels;
    zhashx_set_destructor(self->terms, s_term_destructor);
    agent_kernels_set_runner_hook(kernels, s_on_runner, self);
    return self;
}

//  ---------------------------------------------------------------------------
//  Free it.

void
agent_kernel_pty_destroy(agent_kernel_pty_t **self_p)
{
    assert(self_p);
    agent_kernel_pty_t *self = *self_p;
    if (!self)
        return;
    *self_p = NULL;
    agent_kernels_set_runner_hook(self->kernels, NULL, NULL);
    for (s_term_t *term = zhashx_first(self->terms); term;
         term = zhashx_next(self->terms))
        if (agent_kernels_runner(self->kernels, term->kernel_id) == term->runner)
            agent_runner_client_set_pty_handler(term->runner, NULL, NULL);
    zhashx_destroy(&self->terms); //  waiting reads: UNAVAILABLE
    free(self);
}
