/*  =========================================================================
    sched_lifecycle - sessions on the bus: the session.* methods, the
    scheduling passes, the calls to agents and the kernel events back

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

#define SOON_US          2000   //  during a burst, a pass this long after a create
#define OVERDUE_US       100000 //  a pass due this long ago runs from the flush
#define RECONCILE_PASSES 10     //  a reconciliation every this many timed passes
#define AGENTS_MAX       1024   //  agents looked at per reconciliation
#define UNSETTLED_MAX    256    //  kernels repaired per agent and reconciliation
#define LIST_TIMEOUT_MS  5000   //  how long a reconciliation waits for kernel.list

typedef struct _call_ctx_t call_ctx_t;
typedef struct _work_t work_t;

struct _sched_lifecycle_t {
    call_ctx_t *calls; //  kernel.* calls in flight, cancelled at destroy
    work_t *work;      //  session.creates and kernel.create answers to record
    work_t *work_tail;
    struct event *flush;  //  records them, one transaction for all
    bus_writer_t *writer; //  events being emitted
    bus_node_t *node;
    bus_db_t *db;
    struct event *timer; //  the periodic pass
    struct event *soon;  //  a pass right after a create
    int64_t soon_us;     //  when it is due (monotonic), while pending
    int64_t pass_us;     //  when the last pass ran (monotonic)
    int create_timeout_ms;
    int64_t reconcile_us; //  period of the reconciliation, and the age it repairs
    unsigned ticks;       //  timed passes so far
    sched_dispatch_t *dispatch;
    int64_t grace_us; //  a LOST agent's kernels end after this
    sched_reclaim_t *reclaim;
};

static void s_flush(sched_lifecycle_t *self);

//  ---------------------------------------------------------------------------
//  Events

//  Emits session.lifecycle inside the caller's transaction, with what
//  move says of the session (its status: status) and of kernel_id (NULL
//  for a session event).
static void
s_emit_move(sched_lifecycle_t *self,
            const char *event,
            const sched_move_t *move,
            sched_session_status_t status,
            const char *kernel_id,
            const char *reason,
            const int64_t *exit_code)
{
    proto_session_lifecycle_t step;
    proto_session_lifecycle_init(&step);
    step.event = (char *) event;
    step.session_id = (char *) move->session_id;
    step.session_name = (char *) move->name;
    step.access_key = (char *) move->access_key;
    step.domain_name = (char *) move->domain_name;
    step.group_id = (char *) move->group_id;
    step.status = (char *) sched_session_status_str(status);
    step.kernel_id = (char *) kernel_id;
    if (kernel_id && *move->cluster_role) {
        //  Backend.AI numbers a kernel within its role (main1, sub1, sub2);
        //  the kernels table numbers them across the session (1, 2, 3).
        step.cluster_role = (char *) move->cluster_role;
        int64_t index = move->cluster_idx;
        step.cluster_idx =
            (uint64_t) (strcmp(step.cluster_role, "sub") == 0 && index > 1 ? index - 1
                                                                           : index);
    }
    step.reason = (char *) reason;
    step.has_exit_code = exit_code != NULL;
    step.exit_code = exit_code ? *exit_code : 0;
    step.at = bus_clock_wall_us();
    bus_writer_reset(self->writer);
    if (proto_session_lifecycle_write(&step, self->writer) == 0)
        bus_node_emit(self->node, PROTO_SESSION_LIFECYCLE, bus_writer_data(self->writer),
                      bus_writer_size(self->writer));
}

//  Emits session.lifecycle for session_id inside the caller's transaction:
//  the event carries the session's owner and status and the kernel's place
//  in its cluster, read with one statement (for the events that no kernel
//  transition tells: s_move builds its own from what it read).
static void
s_emit(sched_lifecycle_t *self,
       const char *event,
       const char *session_id,
       const char *kernel_id,
       const char *reason,
       const int64_t *exit_code)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        self->db, "SELECT s.name, s.access_key, s.domain_name, s.group_id, s.status,"
                  " k.cluster_role, k.cluster_idx FROM sessions s"
                  " LEFT JOIN kernels k ON k.id = ?2 AND k.session_id = s.id"
                  " WHERE s.id = ?1");
    if (!stmt)
        return;
    sqlite3_bind_text(stmt, 1, session_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, kernel_id ? kernel_id : "", -1, SQLITE_STATIC);
    if (sqlite3_step(stmt) != SQLITE_ROW) {
        sqlite3_reset(stmt);
        return;
    }
    sched_move_t move;
    memset(&move, 0, sizeof move);
    const char *texts[] = {session_id, (const char *) sqlite3_column_text(stmt, 0),
                           (const char *) sqlite3_column_text(stmt, 1),
                           (const char *) sqlite3_column_text(stmt, 2),
                           (const char *) sqlite3_column_text(stmt, 3)};
    char *fields[] = {move.session_id, move.name, move.access_key, move.domain_name,
                      move.group_id};
    size_t sizes[] = {sizeof move.session_id, sizeof move.name, sizeof move.access_key,
                      sizeof move.domain_name, sizeof move.group_id};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        snprintf(fields[i], sizes[i], "%s", texts[i] ? texts[i] : "");
    int status =
        sched_session_status_from_str((const char *) sqlite3_column_text(stmt, 4));
    if (kernel_id && sqlite3_column_type(stmt, 5) != SQLITE_NULL) {
        snprintf(move.cluster_role, sizeof move.cluster_role, "%s",
                 (const char *) sqlite3_column_text(stmt, 5));
        move.cluster_idx = sqlite3_column_int64(stmt, 6);
    }
    sqlite3_reset(stmt);
    if (status >= 0)
        s_emit_move(self, event, &move, (sched_session_status_t) status, kernel_id,
                    reason, exit_code);
}

//  The owner of session_id, as events carry it, into *move (its kernel
//  members cleared). BUS_OK or NOT_FOUND.
static int
s_session_of(sched_lifecycle_t *self, const char *session_id, sched_move_t *move)
{
    memset(move, 0, sizeof *move);
    sqlite3_stmt *stmt =
        bus_db_stmt(self->db, "SELECT name, access_key, domain_name, group_id"
                              " FROM sessions WHERE id = ?1");
    if (!stmt)
        return BUS_STATUS_INTERNAL;
    sqlite3_bind_text(stmt, 1, session_id, -1, SQLITE_STATIC);
    int rc = BUS_STATUS_NOT_FOUND;
    if (sqlite3_step(stmt) == SQLITE_ROW) {
        rc = BUS_OK;
        const char *texts[] = {session_id, (const char *) sqlite3_column_text(stmt, 0),
                               (const char *) sqlite3_column_text(stmt, 1),
                               (const char *) sqlite3_column_text(stmt, 2),
                               (const char *) sqlite3_column_text(stmt, 3)};
        char *fields[] = {move->session_id, move->name, move->access_key,
                          move->domain_name, move->group_id};
        size_t sizes[] = {sizeof move->session_id, sizeof move->name,
                          sizeof move->access_key, sizeof move->domain_name,
                          sizeof move->group_id};
        for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
            snprintf(fields[i], sizes[i], "%s", texts[i] ? texts[i] : "");
    }
    sqlite3_reset(stmt);
    return rc;
}

//  Moves a kernel (and with it its session) and emits what Backend.AI
//  tells of it, from what the move read. A kernel already in status
//  changes nothing but its event is emitted again.
//  Only from the statuses in from_mask (see sched_db_sessions_kernel_move_from):
//  a kernel elsewhere, or unknown when from_mask is not every status, is
//  left alone, quietly; *out (when given) says what was found.
static int
s_move_from(sched_lifecycle_t *self,
            unsigned from_mask,
            const char *kernel_id,
            sched_kernel_status_t status,
            const char *reason,
            const char *status_data,
            const int64_t *exit_code,
            const char *container_id,
            const char *kernel_host,
            sched_move_t *out)
{
    sched_move_t local;
    sched_move_t *found = out ? out : &local;
    bus_error_t err = {0};
    int rc = sched_db_sessions_kernel_move_from(
        self->db, kernel_id, from_mask, status, reason, status_data, container_id,
        kernel_host, bus_clock_wall_us(), found, &err);
    if (rc != BUS_OK) {
        if (rc != BUS_STATUS_NOT_FOUND || from_mask == SCHED_KERNEL_FROM_ANY)
            bus_log_warning("kernel status refused kernel=%s to=%s detail=\"%s\"",
                            kernel_id, sched_kernel_status_str(status), err.detail);
        return rc;
    }
    if (!(from_mask & (1u << found->kernel_from)))
        return BUS_OK;
    const sched_move_t move = *found;
    static const char *kernel_events[SCHED_KERNEL_STATUS_COUNT] = {
        [SCHED_KERNEL_PREPARING] = "kernel_preparing",
        [SCHED_KERNEL_RUNNING] = "kernel_started",
        [SCHED_KERNEL_TERMINATING] = "kernel_terminating",
        [SCHED_KERNEL_TERMINATED] = "kernel_terminated",
        [SCHED_KERNEL_CANCELLED] = "kernel_cancelled",
    };
    //  A restart has no kernel event in Backend.AI: it ends with
    //  session_started alone.
    bool restarted =
        status == SCHED_KERNEL_RUNNING && move.kernel_from == SCHED_KERNEL_RESTARTING;
    if (kernel_events[status] && !restarted)
        s_emit_move(self, kernel_events[status], &move, move.session_to, kernel_id,
                    reason, exit_code);
    if (move.session_to == move.session_from)
        return BUS_OK;
    static const char *session_events[SCHED_SESSION_STATUS_COUNT] = {
        [SCHED_SESSION_RUNNING] = "session_started",
        [SCHED_SESSION_TERMINATING] = "session_terminating",
        [SCHED_SESSION_TERMINATED] = "session_terminated",
        [SCHED_SESSION_CANCELLED] = "session_cancelled",
    };
    if (session_events[move.session_to])
        s_emit_move(self, session_events[move.session_to], &move, move.session_to, NULL,
                    reason, exit_code);
    return BUS_OK;
}

static int
s_move(sched_lifecycle_t *self,
       const char *session_id,
       const char *kernel_id,
       sched_kernel_status_t status,
       const char *reason,
       const char *status_data,
       const int64_t *exit_code)
{
    (void) session_id; //  the kernel's own session, as the database says
    return s_move_from(self, SCHED_KERNEL_FROM_ANY, kernel_id, status, reason,
                       status_data, exit_code, NULL, NULL, NULL);
}

//  The kernel statuses of a kernel.create still under way, as a mask.
#define CREATING_MASK                                                                    \
    ((1u << SCHED_KERNEL_SCHEDULED) | (1u << SCHED_KERNEL_PREPARING) |                   \
     (1u << SCHED_KERNEL_BUILDING) | (1u << SCHED_KERNEL_PULLING))

//  ---------------------------------------------------------------------------
//  Placement and kernel.create

//  A kernel.* call in flight. Linked into self->calls so that destroy can
//  cancel it: its callback must never run after self is gone.
struct _call_ctx_t {
    sched_lifecycle_t *self;
    char session_id[SCHED_ID_MAX];
    char kernel_id[SCHED_ID_MAX];
    char agent_id[128]; //  kernel.list: the agent asked
    char endpoint[256];
    int64_t agent_started;  //  the started_at of the agent process it went to
    bool list;              //  a kernel.list of the reconciliation
    int64_t sent_us;        //  kernel.list: when it was asked
    int timeout_ms;         //  0: create_timeout_ms
    bus_rpc_request_t *req; //  kernel.restart: the session.restart to answer
    uint64_t call_id;
    call_ctx_t *next, *prev;
};

//  What a turn of the loop leaves to record: a session.create (req) or
//  the answer to a kernel.create (ctx). See s_flush.
struct _work_t {
    work_t *next;
    bus_rpc_request_t *req; //  session.create: the request, answered once committed
    call_ctx_t *ctx;        //  kernel.create: the call answered
    void *body;             //  the request's or the answer's body
    size_t size;
    int status; //  the answer's status; then the create's
    char detail[BUS_ERROR_DETAIL_MAX];
    bus_writer_t *reply; //  session.create: its answer
};

static call_ctx_t *
s_call_new(sched_lifecycle_t *self, const char *session_id, const char *kernel_id)
{
    call_ctx_t *ctx = calloc(1, sizeof *ctx);
    if (ctx) {
        ctx->self = self;
        snprintf(ctx->session_id, sizeof ctx->session_id, "%s", session_id);
        snprintf(ctx->kernel_id, sizeof ctx->kernel_id, "%s", kernel_id);
    }
    return ctx;
}

//  Where the agent of a kernel (kernel_id), or the agent agent_id, answers
//  now and when its process started, as its heartbeats say. False when
//  neither is known.
static bool
s_agent_now(sched_lifecycle_t *self,
            const char *kernel_id,
            const char *agent_id,
            char addr[256],
            int64_t *started_at)
{
    bool by_kernel = kernel_id && *kernel_id;
    sqlite3_stmt *stmt = bus_db_stmt(
        self->db, by_kernel ? "SELECT a.addr, a.started_at FROM kernels k"
                              " JOIN agents a ON a.id = k.agent_id WHERE k.id = ?1"
                            : "SELECT addr, started_at FROM agents WHERE id = ?1");
    bool found = false;
    if (stmt) {
        sqlite3_bind_text(stmt, 1, by_kernel ? kernel_id : agent_id, -1,
                          SQLITE_TRANSIENT);
        if (sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_text(stmt, 0)) {
            found = true;
            snprintf(addr, 256, "%s", (const char *) sqlite3_column_text(stmt, 0));
            *started_at = sqlite3_column_int64(stmt, 1);
        }
        sqlite3_reset(stmt);
    }
    return found;
}

//  Sends the call; false (ctx untouched) when it could not leave.
static bool
s_call_send(call_ctx_t *ctx,
            const char *endpoint,
            const char *method,
            bus_writer_t *writer,
            bus_reply_fn *fn)
{
    sched_lifecycle_t *self = ctx->self;
    snprintf(ctx->endpoint, sizeof ctx->endpoint, "%s", endpoint);
    char addr[256];
    if (!s_agent_now(self, ctx->kernel_id, ctx->agent_id, addr, &ctx->agent_started))
        ctx->agent_started = 0;
    ctx->call_id = bus_node_call(
        self->node, endpoint, method, bus_writer_data(writer), bus_writer_size(writer),
        ctx->timeout_ms > 0 ? ctx->timeout_ms : self->create_timeout_ms, fn, ctx);
    if (!ctx->call_id)
        return false;
    ctx->next = self->calls;
    if (self->calls)
        self->calls->prev = ctx;
    self->calls = ctx;
    return true;
}

//  Unlinks and frees a call whose callback ran (or never will).
static void
s_call_done(call_ctx_t *ctx)
{
    if (ctx->call_id) {
        if (ctx->prev)
            ctx->prev->next = ctx->next;
        else if (ctx->self->calls == ctx)
            ctx->self->calls = ctx->next;
        if (ctx->next)
            ctx->next->prev = ctx->prev;
    }
    bus_rpc_request_destroy(&ctx->req); //  unanswered: the caller times out
    free(ctx);
}

//  Whether the call went to the agent process that answers for its kernel
//  now. An agent that restarted may have come back on another port, or on
//  the same one (a fixed rpc_bind, a port the system gave again): either
//  way what its previous process was asked died with it, and calls still
//  waiting for that will only time out (or be retried after a third of
//  their deadline, agents.create_timeout_ms): they must not hold the kernel
//  back from the reconciliation.
static bool
s_agent_current(sched_lifecycle_t *self, const call_ctx_t *ctx)
{
    char addr[256];
    int64_t started_at;
    if (!s_agent_now(self, ctx->kernel_id, ctx->agent_id, addr, &started_at))
        return true; //  unknown: trust the call
    return strcmp(addr, ctx->endpoint) == 0 && started_at == ctx->agent_started;
}

//  True while a kernel.* call about kernel_id is in flight to its agent's
//  current process: its answer, not the reconciliation, moves the kernel.
static bool
s_in_flight(sched_lifecycle_t *self, const char *kernel_id)
{
    for (call_ctx_t *ctx = self->calls; ctx; ctx = ctx->next)
        if (!ctx->list && strcmp(ctx->kernel_id, kernel_id) == 0 &&
            s_agent_current(self, ctx))
            return true;
    return false;
}

//  The kernel statuses of a kernel.create still under way.
static bool
s_creating(int status)
{
    return status == SCHED_KERNEL_SCHEDULED || status == SCHED_KERNEL_PREPARING ||
           status == SCHED_KERNEL_BUILDING || status == SCHED_KERNEL_PULLING;
}

//  The agent's answer to kernel.create, recorded (inside the flush's
//  transaction, under a savepoint of its own).
static void
s_created(call_ctx_t *ctx, const bus_reply_t *reply)
{
    sched_lifecycle_t *self = ctx->self;
    proto_kernel_create_rep_t rep;
    proto_kernel_create_rep_init(&rep);
    bus_error_t err = {0};
    int rc = reply->status;
    if (rc == BUS_OK)
        rc = proto_kernel_create_rep_decode(&rep, reply->body, reply->body_size, &err);
    const char *why = reply->status != BUS_OK ? reply->detail : err.detail;
    //  A success moves the kernel only from where a create leaves it, read
    //  by the move itself; a failure needs to know where it is first.
    int current =
        rc == BUS_OK ? -1 : sched_db_sessions_kernel_current(self->db, ctx->kernel_id);
    if (bus_node_begin(self->node) == 0) {
        if (rc == BUS_OK) {
            //  The agent answers once the container runs and kernel.started
            //  is on its way: RUNNING now, with where it runs, whichever of
            //  the two comes first (the other changes nothing), so a lost
            //  event leaves nothing behind.
            const char *container = rep.container_id ? rep.container_id : "";
            const char *host = rep.kernel_host ? rep.kernel_host : "";
            sched_move_t move;
            bool moved =
                s_move_from(self, CREATING_MASK, ctx->kernel_id, SCHED_KERNEL_RUNNING,
                            NULL, NULL, NULL, container, host, &move) == BUS_OK &&
                s_creating((int) move.kernel_from);
            sqlite3_stmt *stmt =
                moved ? NULL
                      : bus_db_stmt(self->db, "UPDATE kernels SET container_id = ?2,"
                                              " kernel_host = ?3 WHERE id = ?1"
                                              " AND (container_id IS NOT ?2"
                                              " OR kernel_host IS NOT ?3)");
            if (stmt) {
                sqlite3_bind_text(stmt, 1, ctx->kernel_id, -1, SQLITE_TRANSIENT);
                sqlite3_bind_text(stmt, 2, container, -1, SQLITE_TRANSIENT);
                sqlite3_bind_text(stmt, 3, host, -1, SQLITE_TRANSIENT);
                sqlite3_step(stmt);
                sqlite3_reset(stmt);
            }
        } else if (!s_creating(current)) {
            //  It moved on meanwhile (destroyed, or its end arrived first).
            bus_log_info("kernel create failed after it moved on session=%s kernel=%s"
                         " status=%s detail=\"%s\"",
                         ctx->session_id, ctx->kernel_id,
                         sched_kernel_status_str(current), why);
        } else if (!s_agent_current(self, ctx)) {
            //  Sent to the agent's process before it restarted: the
            //  reconciliation sends the create to the one that runs now.
            bus_log_info("kernel create to an old agent address failed session=%s"
                         " kernel=%s endpoint=%s detail=\"%s\"",
                         ctx->session_id, ctx->kernel_id, ctx->endpoint, why);
        } else if (reply->status == BUS_STATUS_UNAVAILABLE && why &&
                   strstr(why, "changed hands")) {
            //  Answered by another agent that took the address over (the
            //  one meant restarted elsewhere): the agent meant never saw
            //  it, and the reconciliation sends it where that one is now.
            bus_log_info("kernel create reached another agent session=%s kernel=%s"
                         " endpoint=%s detail=\"%s\"",
                         ctx->session_id, ctx->kernel_id, ctx->endpoint, why);
        } else if (reply->status == BUS_STATUS_CONFLICT && why &&
                   strstr(why, "already ended")) {
            //  A create sent again for a kernel that ran and ended there (a
            //  batch task, say): its durable kernel.terminated, on its way,
            //  ends it with its result; cancelling would lose that.
            bus_log_info("kernel already ended on its agent session=%s kernel=%s",
                         ctx->session_id, ctx->kernel_id);
        } else {
            //  Nothing runs: the kernel and its session are cancelled and
            //  the slots go back, with the agent's reason kept.
            json_t *data = json_pack("{s:s}", "error", why && *why ? why : "no reason");
            char *text = json_dumps(data, JSON_COMPACT);
            s_move(self, ctx->session_id, ctx->kernel_id, SCHED_KERNEL_CANCELLED,
                   "failed-to-start", text, NULL);
            free(text);
            json_decref(data);
            bus_log_warning("kernel not created session=%s kernel=%s detail=\"%s\"",
                            ctx->session_id, ctx->kernel_id, why);
        }
        bus_node_commit(self->node);
    }
    proto_kernel_create_rep_clear(&rep);
}

static void s_queue(sched_lifecycle_t *self, work_t *work);

//  kernel.create answered: the answer is recorded with the others of this
//  turn of the loop (s_flush). The call stays in self->calls meanwhile, so
//  the reconciliation leaves its kernel to it.
static void
s_on_created(void *arg, const bus_reply_t *reply)
{
    call_ctx_t *ctx = arg;
    work_t *work = calloc(1, sizeof *work);
    if (work) {
        work->ctx = ctx;
        work->status = reply->status;
        snprintf(work->detail, sizeof work->detail, "%s",
                 reply->detail ? reply->detail : "");
        work->body = reply->body_size ? malloc(reply->body_size) : NULL;
        work->size = work->body ? reply->body_size : 0;
        if (work->body)
            memcpy(work->body, reply->body, reply->body_size);
        if (reply->body_size && !work->body)
            work->status = BUS_STATUS_INTERNAL;
        s_queue(ctx->self, work);
        return;
    }
    s_created(ctx, reply);
    s_call_done(ctx);
}

//  A JSON object text (stored environ) as a map; caller frees with
//  proto_free_map.
static proto_kv_t *
s_json_map(const char *text, size_t *count)
{
    json_t *object = text ? json_loads(text, 0, NULL) : NULL;
    size_t size = json_is_object(object) ? json_object_size(object) : 0;
    proto_kv_t *map = calloc(size ? size : 1, sizeof *map);
    *count = 0;
    const char *key;
    json_t *value;
    if (map && size)
        json_object_foreach(object, key, value)
        {
            if (!json_is_string(value))
                continue;
            map[*count].key = strdup(key);
            map[*count].value = strdup(json_string_value(value));
            (*count)++;
        }
    json_decref(object);
    return map;
}

//  Asks the agent of a placement to create the kernel. The request is
//  read with one statement (and the cluster's names with one more for a
//  cluster).
static void
s_create_kernel(sched_lifecycle_t *self, const sched_assignment_t *placed)
{
    char addr[256] = "", mode[16] = "", hosts[4096] = "";
    char *texts[12] = {NULL};
    uint64_t shmem = 0, size = 1;
    bool found = false;
    sqlite3_stmt *stmt = bus_db_stmt(
        self->db,
        "SELECT coalesce(a.addr, ''), s.environ, coalesce(s.startup_command, ''),"
        " coalesce(json_extract(s.resource_opts, '$.shmem'), 0),"
        " s.bootstrap_script, s.cluster_mode, s.cluster_size,"
        " s.mounts, s.name, s.type, s.image, s.architecture, s.access_key,"
        " s.user_uuid, s.domain_name, s.group_id"
        " FROM sessions s LEFT JOIN agents a ON a.id = ?2 WHERE s.id = ?1");
    if (stmt) {
        sqlite3_bind_text(stmt, 1, placed->session_id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(stmt, 2, placed->agent_id, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(stmt) == SQLITE_ROW) {
            found = true;
            snprintf(addr, sizeof addr, "%s",
                     (const char *) sqlite3_column_text(stmt, 0));
            //  environ, startup_command, bootstrap_script, mounts, name, type,
            //  image, architecture, access_key, user_uuid, domain_name, group_id
            static const int columns[12] = {1, 2, 4, 7, 8, 9, 10, 11, 12, 13, 14, 15};
            for (int c = 0; c < 12; c++) {
                const unsigned char *text = sqlite3_column_text(stmt, columns[c]);
                texts[c] = text ? strdup((const char *) text) : NULL;
            }
            shmem = (uint64_t) sqlite3_column_int64(stmt, 3);
            snprintf(mode, sizeof mode, "%s",
                     (const char *) sqlite3_column_text(stmt, 5));
            size = (uint64_t) sqlite3_column_int64(stmt, 6);
        }
        sqlite3_reset(stmt);
    }
    //  Every kernel's name (main1,sub1...): its hostname and its environment.
    if (found && size <= 1)
        snprintf(hosts, sizeof hosts, "%s1",
                 *placed->cluster_role ? placed->cluster_role : "main");
    else if (found)
        sched_cluster_hosts(self->db, placed->session_id, hosts, sizeof hosts);
    proto_kv_t *slots = NULL;
    size_t slots_count = 0;
    stmt = found ? bus_db_stmt(self->db, "SELECT slot, amount FROM kernel_requests"
                                         " WHERE kernel_id = ?1")
                 : NULL;
    if (stmt) {
        sqlite3_bind_text(stmt, 1, placed->kernel_id, -1, SQLITE_TRANSIENT);
        sched_db_slot_map(stmt, &slots, &slots_count);
    }
    char *environ = texts[0], *command = texts[1], *bootstrap = texts[2];
    char *mounts = texts[3];
    if (!found || !texts[4] || !texts[5] || !texts[6]) {
        for (int c = 0; c < 12; c++)
            free(texts[c]);
        proto_free_map(slots, slots_count);
        return;
    }
    proto_kernel_create_req_t req;
    proto_kernel_create_req_init(&req);
    //  init's default strings are owned; everything set below is borrowed.
    char *defaults[] = {req.session_type, req.cluster_role, req.architecture};
    req.kernel_id = (char *) placed->kernel_id;
    req.session_id = (char *) placed->session_id;
    req.session_name = texts[4];
    req.agent_id = (char *) placed->agent_id;
    req.session_type = strcmp(texts[5], "BATCH") == 0 ? "batch" : "interactive";
    req.cluster_role = (char *) placed->cluster_role;
    req.cluster_idx = placed->cluster_idx;
    req.cluster_size = size ? size : 1;
    req.cluster_mode = *mode ? mode : NULL;
    req.cluster_hosts = *hosts ? hosts : NULL;
    req.image = texts[6];
    req.architecture = texts[7];
    req.slots = slots;
    req.slots_count = slots_count;
    req.shmem_bytes = shmem;
    req.environ = s_json_map(environ, &req.environ_count);
    req.startup_command = command && *command ? command : NULL;
    req.access_key = texts[8];
    req.user_uuid = texts[9];
    req.domain_name = texts[10];
    req.group_id = texts[11];
    req.bootstrap_script = bootstrap && *bootstrap ? bootstrap : NULL;
    req.mounts = mounts && strcmp(mounts, "[]") != 0 ? mounts : NULL;
    bus_writer_t *writer = bus_writer_new();
    call_ctx_t *ctx = s_call_new(self, placed->session_id, placed->kernel_id);
    bool sent = writer && ctx && *addr &&
                proto_kernel_create_req_write(&req, writer) == 0 &&
                s_call_send(ctx, addr, PROTO_KERNEL_CREATE, writer, s_on_created);
    if (!sent && ctx) {
        //  The call never left: answer it as the agent's failure would be.
        bus_reply_t failed = {BUS_STATUS_UNAVAILABLE, "the agent is not reachable", NULL,
                              0, 0};
        s_on_created(ctx, &failed);
    }
    bus_writer_destroy(&writer);
    proto_free_map(req.environ, req.environ_count);
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
        free(defaults[i]);
    for (int c = 0; c < 12; c++)
        free(texts[c]);
    proto_free_map(slots, slots_count);
}

//  Asks for a pass, unless one is asked for already: at the next turn of
//  the loop when none ran in the last SOON_US (the scheduler was idle: a
//  lone create waits for nothing), else SOON_US from now, so that the
//  creates of a burst are placed by one pass rather than one pass each (a
//  pass reads every agent of the group).
static void
s_soon(sched_lifecycle_t *self)
{
    if (!event_pending(self->soon, EV_TIMEOUT, NULL)) {
        int64_t now = bus_clock_mono_us();
        int64_t due = now - self->pass_us >= SOON_US ? now : now + SOON_US;
        struct timeval soon = {0, (suseconds_t) (due - now)};
        event_add(self->soon, &soon);
        self->soon_us = due;
    }
}

//  One pass: placements recorded with their events in one transaction,
//  then the agents asked.
static void
s_pass(sched_lifecycle_t *self)
{
    self->pass_us = bus_clock_mono_us();
    s_flush(self);
    if (bus_node_begin(self->node) != 0)
        return;
    size_t count = 0;
    sched_assignment_t *placed =
        sched_dispatch_run(self->dispatch, bus_clock_wall_us(), &count);
    //  The pass wrote the kernels and their sessions PREPARING (what
    //  SCHEDULED then PREPARING in this transaction would have left): the
    //  events of both steps, session_scheduled (SCHEDULED) then each
    //  kernel's kernel_preparing (PREPARING, the main kernel leading).
    sched_move_t move;
    memset(&move, 0, sizeof move);
    for (size_t i = 0; i < count; i++) {
        if (placed[i].first && s_session_of(self, placed[i].session_id, &move) == BUS_OK)
            s_emit_move(self, "session_scheduled", &move, SCHED_SESSION_SCHEDULED, NULL,
                        NULL, NULL);
        if (strcmp(move.session_id, placed[i].session_id) != 0)
            continue; //  not found: nothing to tell
        snprintf(move.cluster_role, sizeof move.cluster_role, "%s",
                 placed[i].cluster_role);
        move.cluster_idx = placed[i].cluster_idx;
        s_emit_move(self, "kernel_preparing", &move, SCHED_SESSION_PREPARING,
                    placed[i].kernel_id, NULL, NULL);
    }
    //  A whole window placed: more may wait behind it, and need not wait
    //  for the period.
    if (sched_dispatch_more(self->dispatch))
        s_soon(self);
    if (bus_node_commit(self->node) == 0 && count) {
        //  One read transaction for all the requests, not one per statement.
        bool read = bus_node_begin(self->node) == 0;
        for (size_t i = 0; i < count; i++)
            s_create_kernel(self, &placed[i]);
        if (read)
            bus_node_commit(self->node);
    }
    free(placed);
}

static void s_reconcile(sched_lifecycle_t *self);

static void
s_on_soon(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    s_pass(arg);
}

static void
s_on_timer(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    sched_lifecycle_t *self = arg;
    s_pass(self);
    if (++self->ticks % RECONCILE_PASSES == 0)
        s_reconcile(self);
}

//  ---------------------------------------------------------------------------
//  Kernel events from the agents (durable, applied exactly once)

static int
s_apply(void *arg, bus_node_t *node, const bus_event_t *event)
{
    (void) node;
    sched_lifecycle_t *self = arg;
    bus_error_t err = {0};
    if (strcmp(event->topic, PROTO_KERNEL_STARTED) == 0) {
        proto_kernel_started_t started;
        proto_kernel_started_init(&started);
        if (proto_kernel_started_decode(&started, event->body, event->body_size, &err) ==
            BUS_OK) {
            //  What kernel.create's reply says, for when that reply was lost,
            //  written with the move when the kernel moves; the kernel, its
            //  session's size and the move, read at once.
            const char *container = started.container_id && *started.container_id
                                        ? started.container_id
                                        : NULL;
            const char *host =
                started.kernel_host && *started.kernel_host ? started.kernel_host : NULL;
            sched_move_t move;
            int rc =
                s_move_from(self, CREATING_MASK, started.kernel_id, SCHED_KERNEL_RUNNING,
                            NULL, NULL, NULL, container, host, &move);
            sqlite3_stmt *stmt =
                rc == BUS_OK && s_creating((int) move.kernel_from)
                    ? NULL
                    : bus_db_stmt(
                          self->db,
                          "UPDATE kernels SET container_id = coalesce(?2,"
                          " container_id), kernel_host = coalesce(?3, kernel_host)"
                          " WHERE id = ?1"
                          " AND (container_id IS NOT coalesce(?2, container_id)"
                          " OR kernel_host IS NOT coalesce(?3, kernel_host))");
            if (stmt) {
                sqlite3_bind_text(stmt, 1, started.kernel_id, -1, SQLITE_TRANSIENT);
                if (container)
                    sqlite3_bind_text(stmt, 2, container, -1, SQLITE_TRANSIENT);
                else
                    sqlite3_bind_null(stmt, 2);
                if (host)
                    sqlite3_bind_text(stmt, 3, host, -1, SQLITE_TRANSIENT);
                else
                    sqlite3_bind_null(stmt, 3);
                sqlite3_step(stmt);
                sqlite3_reset(stmt);
            }
            if (rc != BUS_OK || move.cluster_size > 1)
                sched_cluster_started(node, started.session_id);
        }
        proto_kernel_started_clear(&started);
    } else if (strcmp(event->topic, PROTO_KERNEL_TERMINATED) == 0) {
        proto_kernel_terminated_t ended;
        proto_kernel_terminated_init(&ended);
        int current = -1;
        if (proto_kernel_terminated_decode(&ended, event->body, event->body_size, &err) ==
            BUS_OK)
            current = sched_db_sessions_kernel_current(self->db, ended.kernel_id);
        if (current == SCHED_KERNEL_CANCELLED)
            //  An orphan the reconciliation removed: its session is over.
            bus_log_info("cancelled kernel ended kernel=%s reason=%s", ended.kernel_id,
                         ended.reason ? ended.reason : "");
        else if (current >= 0) {
            sqlite3_stmt *stmt =
                bus_db_stmt(self->db, "UPDATE kernels SET exit_code = ?2 WHERE id = ?1");
            if (stmt) {
                sqlite3_bind_text(stmt, 1, ended.kernel_id, -1, SQLITE_TRANSIENT);
                sqlite3_bind_int64(stmt, 2, ended.exit_code);
                sqlite3_step(stmt);
                sqlite3_reset(stmt);
            }
            json_t *data =
                json_pack("{s:{s:I, s:b}}", "kernel", "exit_code",
                          (json_int_t) ended.exit_code, "oom_killed", ended.oom_killed);
            if (ended.detail && *ended.detail)
                json_object_set_new(data, "error", json_string(ended.detail));
            char *text = json_dumps(data, JSON_COMPACT);
            const char *reason = ended.oom_killed ? "oom-killed" : ended.reason;
            int type_batch = 0;
            stmt = bus_db_stmt(self->db,
                               "SELECT type = 'BATCH' FROM sessions WHERE id = ?1");
            if (stmt) {
                sqlite3_bind_text(stmt, 1, ended.session_id, -1, SQLITE_TRANSIENT);
                if (sqlite3_step(stmt) == SQLITE_ROW)
                    type_batch = sqlite3_column_int(stmt, 0);
                sqlite3_reset(stmt);
            }
            //  Batch sessions end with their task's result (reference §5),
            //  which the sessions that depend on them wait for.
            stmt = type_batch ? bus_db_stmt(self->db, "UPDATE sessions SET result = ?2"
                                                      " WHERE id = ?1")
                              : NULL;
            if (stmt) {
                sqlite3_bind_text(stmt, 1, ended.session_id, -1, SQLITE_TRANSIENT);
                sqlite3_bind_text(stmt, 2, ended.exit_code == 0 ? "SUCCESS" : "FAILURE",
                                  -1, SQLITE_STATIC);
                sqlite3_step(stmt);
                sqlite3_reset(stmt);
            }
            s_move(self, ended.session_id, ended.kernel_id, SCHED_KERNEL_TERMINATED,
                   reason, text, &ended.exit_code);
            if (type_batch)
                s_emit(self, ended.exit_code == 0 ? "session_success" : "session_failure",
                       ended.session_id, NULL, reason, &ended.exit_code);
            free(text);
            json_decref(data);
        }
        proto_kernel_terminated_clear(&ended);
    }
    if (*err.detail)
        bus_log_error("kernel event malformed; skipped topic=%s detail=\"%s\"",
                      event->topic, err.detail);
    return 0;
}

//  ---------------------------------------------------------------------------
//  session.* methods

//  Slot map (decimal strings) to integer amounts; INVALID on a bad one.
static int
s_amounts(const proto_kv_t *slots,
          size_t count,
          sched_amount_t *out,
          size_t max,
          bus_error_t *err)
{
    if (count > max)
        return bus_error_set(err, BUS_STATUS_INVALID, "too many slots");
    for (size_t i = 0; i < count; i++) {
        bus_slots_unit_t unit = bus_slots_unit(slots[i].key);
        if (unit == BUS_SLOTS_UNKNOWN)
            return bus_error_set(err, BUS_STATUS_INVALID, "Unknown slot type: %s",
                                 slots[i].key);
        json_t *text = json_string(slots[i].value);
        bus_slots_value_t value;
        int rc = bus_slots_parse_value(unit, slots[i].key, text, &value, err);
        json_decref(text);
        if (rc != BUS_OK)
            return rc;
        if (value.infinite)
            return bus_error_set(err, BUS_STATUS_INVALID, "%s cannot be unlimited",
                                 slots[i].key);
        snprintf(out[i].slot, sizeof out[i].slot, "%s", slots[i].key);
        out[i].amount = value.amount;
    }
    return BUS_OK;
}

//  Writes the session's info as a reply with one member, "session".
static int
s_reply_session(sched_lifecycle_t *self,
                const char *session_id,
                bus_writer_t *reply,
                bus_error_t *err)
{
    proto_session_create_rep_t rep; //  every session.* reply has this shape
    proto_session_create_rep_init(&rep);
    int rc = sched_db_sessions_get(self->db, session_id, &rep.session);
    if (rc == BUS_OK && proto_session_create_rep_write(&rep, reply) != 0)
        rc = BUS_STATUS_INTERNAL;
    proto_session_create_rep_clear(&rep);
    if (rc != BUS_OK)
        bus_error_set(err, rc,
                      rc == BUS_STATUS_NOT_FOUND ? "no such session %s"
                                                 : "cannot read session %s",
                      session_id);
    return rc;
}

//  Refuses a session that would take the owner's keypair over its limits
//  on pending sessions (max_pending_session_count and
//  max_pending_session_resource_slots), as Backend.AI refuses it at
//  submission.
static int
s_admit_pending(sched_lifecycle_t *self,
                const sched_session_spec_t *spec,
                bus_error_t *err)
{
    json_t *limits = spec->limits ? json_loads(spec->limits, 0, NULL) : NULL;
    json_t *keypair = json_object_get(limits, "keypair");
    if (!json_is_object(keypair)) {
        json_decref(limits);
        return BUS_OK;
    }
    //  The slots of the request are the only ones that can go over.
    sched_db_snapshot_t slots = {0};
    sched_vec_t total = {0};
    uint32_t size = spec->cluster_size ? spec->cluster_size : 1;
    for (size_t i = 0; i < spec->request_count && i < SCHED_SLOTS_MAX; i++) {
        slots.slot_names[slots.slot_count] = spec->request[i].slot;
        total.v[slots.slot_count++] = spec->request[i].amount * size;
    }
    char *text = json_dumps(keypair, JSON_COMPACT);
    sched_scope_t scope = {0};
    sched_db_snapshot_parse_limits(&slots, text, &scope);
    free(text);
    json_decref(limits);
    sqlite3_stmt *stmt =
        bus_db_stmt(self->db, "SELECT pending FROM keypair_counts WHERE access_key = ?1");
    if (stmt) {
        sqlite3_bind_text(stmt, 1, spec->access_key, -1, SQLITE_STATIC);
        if (sqlite3_step(stmt) == SQLITE_ROW)
            scope.pending_count = sqlite3_column_int64(stmt, 0);
        sqlite3_reset(stmt);
    }
    stmt = bus_db_stmt(self->db, "SELECT slot, amount FROM scope_usage"
                                 " WHERE kind = 'pending' AND key = ?1");
    if (stmt) {
        sqlite3_bind_text(stmt, 1, spec->access_key, -1, SQLITE_STATIC);
        while (sqlite3_step(stmt) == SQLITE_ROW) {
            int slot =
                sched_db_snapshot_slot(&slots, (const char *) sqlite3_column_text(stmt, 0));
            if (slot >= 0)
                scope.pending_slots.v[slot] = sqlite3_column_int64(stmt, 1);
        }
        sqlite3_reset(stmt);
    }
    //  Backend.AI refuses a cluster larger than the policy allows at once.
    if (scope.max_containers_per_session != SCHED_UNLIMITED &&
        (int64_t) size > scope.max_containers_per_session)
        return bus_error_set(err, BUS_STATUS_QUOTA,
                             "You cannot create session with more than %" PRId64
                             " containers.",
                             scope.max_containers_per_session);
    return sched_quota_admit_pending(&scope, &total, slots.slot_count, slots.slot_names,
                                     err);
}

//  Records one session.create (inside the flush's transaction, under a
//  savepoint of its own) and writes its answer into reply.
static int
s_create_one(sched_lifecycle_t *self,
             const void *body,
             size_t size,
             bus_writer_t *reply,
             bus_error_t *err)
{
    proto_session_create_req_t in;
    int rc = proto_session_create_req_decode(&in, body, size, err);
    if (rc != BUS_OK)
        return rc;
    //  The same id again (a retry): answer what exists.
    if (sched_db_sessions_status(self->db, in.session_id) >= 0) {
        rc = s_reply_session(self, in.session_id, reply, err);
        proto_session_create_req_clear(&in);
        return rc;
    }
    sched_amount_t request[64];
    rc = s_amounts(in.slots, in.slots_count, request, 64, err);
    json_t *environ = json_object();
    for (size_t i = 0; i < in.environ_count; i++)
        json_object_set_new(environ, in.environ[i].key, json_string(in.environ[i].value));
    char *environ_text = json_dumps(environ, JSON_COMPACT);
    char opts[64];
    snprintf(opts, sizeof opts, "{\"shmem\": %" PRIu64 "}", in.shmem_bytes);
    sched_session_spec_t spec = {.session_id = in.session_id,
                                 .kernel_id = in.kernel_id,
                                 .name = in.name,
                                 .access_key = in.access_key,
                                 .user_uuid = in.user_uuid,
                                 .domain_name = in.domain_name,
                                 .group_id = in.group_id,
                                 .scaling_group = in.scaling_group,
                                 .type = in.type,
                                 .image = in.image,
                                 .architecture = in.architecture,
                                 .environ = environ_text,
                                 .resource_opts = opts,
                                 .startup_command = in.startup_command,
                                 .preopen_ports = in.preopen_ports,
                                 .bootstrap_script = in.bootstrap_script,
                                 .request = request,
                                 .request_count = in.slots_count,
                                 .priority = (int) in.priority,
                                 .cluster_mode = in.cluster_mode,
                                 .cluster_size = (uint32_t) in.cluster_size,
                                 .starts_at_us = in.starts_at,
                                 .dependencies = in.dependencies,
                                 .batch_timeout_s = (int64_t) in.batch_timeout,
                                 .limits = in.limits,
                                 .mounts = in.mounts,
                                 .tag = in.tag};
    if (rc == BUS_OK)
        rc = s_admit_pending(self, &spec, err);
    int64_t now_us = bus_clock_wall_us();
    if (rc == BUS_OK && bus_node_begin(self->node) != 0)
        rc = bus_error_set(err, BUS_STATUS_UNAVAILABLE, "database busy");
    else if (rc == BUS_OK) {
        rc = sched_db_sessions_insert(self->db, &spec, now_us, err);
        if (rc == BUS_OK) {
            //  What the event tells is what was just inserted: no re-read.
            sched_move_t move;
            memset(&move, 0, sizeof move);
            snprintf(move.session_id, sizeof move.session_id, "%s", spec.session_id);
            snprintf(move.name, sizeof move.name, "%s", spec.name);
            snprintf(move.access_key, sizeof move.access_key, "%s", spec.access_key);
            snprintf(move.domain_name, sizeof move.domain_name, "%s", spec.domain_name);
            snprintf(move.group_id, sizeof move.group_id, "%s", spec.group_id);
            s_emit_move(self, "session_enqueued", &move, SCHED_SESSION_PENDING, NULL,
                        NULL, NULL);
            if (bus_node_commit(self->node) != 0)
                rc = bus_error_set(err, BUS_STATUS_UNAVAILABLE, "cannot commit");
        } else
            bus_node_rollback(self->node);
    }
    //  The answer, from the request and what the insert stored.
    if (rc == BUS_OK) {
        proto_session_create_rep_t rep;
        proto_session_create_rep_init(&rep);
        if (sched_db_sessions_info_of(&spec, now_us, &rep.session) != BUS_OK ||
            proto_session_create_rep_write(&rep, reply) != 0)
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "cannot write session %s",
                               in.session_id);
        proto_session_create_rep_clear(&rep);
    }
    free(environ_text);
    json_decref(environ);
    proto_session_create_req_clear(&in);
    return rc;
}

static void
s_work_destroy(work_t **work_p)
{
    work_t *work = *work_p;
    if (work) {
        bus_rpc_request_destroy(&work->req);
        bus_writer_destroy(&work->reply);
        free(work->body);
        free(work);
        *work_p = NULL;
    }
}

static void
s_queue(sched_lifecycle_t *self, work_t *work)
{
    if (self->work_tail)
        self->work_tail->next = work;
    else
        self->work = work;
    self->work_tail = work;
    //  Once the node has served what this turn of the loop brought.
    event_active(self->flush, 0, 0);
}

//  Group commit: records every session.create and kernel.create answer
//  queued since the last flush in one transaction, each under a savepoint
//  of its own (one that fails is undone alone), then answers the creates.
//  A session.create is answered only once its session is committed, so an
//  answer still means the session is stored. Called from its own event,
//  and first thing by whatever reads or changes sessions, so that the
//  order of requests holds; never inside a transaction (the answers would
//  go out before the commit).
static void
s_flush(sched_lifecycle_t *self)
{
    if (!self->work || bus_db_in_transaction(self->db))
        return;
    work_t *list = self->work;
    self->work = self->work_tail = NULL;
    //  Database busy (another process writing): each one in a transaction
    //  of its own, as the code under the savepoints does by itself.
    bool group = bus_node_begin(self->node) == 0;
    bool created = false;
    for (work_t *work = list; work; work = work->next) {
        bool unit = group && bus_db_savepoint(self->db) == 0;
        bus_error_t err = {0};
        if (work->req) {
            work->reply = bus_writer_new();
            work->status =
                work->reply
                    ? s_create_one(self, work->body, work->size, work->reply, &err)
                    : bus_error_set(&err, BUS_STATUS_INTERNAL, "out of memory");
            snprintf(work->detail, sizeof work->detail, "%s", err.detail);
        } else {
            bus_reply_t reply = {work->status, work->detail, work->body, work->size, 0};
            s_created(work->ctx, &reply);
        }
        if (unit && bus_db_release(self->db) != 0 && work->req &&
            work->status == BUS_OK) {
            work->status = BUS_STATUS_UNAVAILABLE;
            snprintf(work->detail, sizeof work->detail, "cannot store the session");
        }
        if (group && !unit && work->req && work->status == BUS_OK) {
            work->status = BUS_STATUS_UNAVAILABLE;
            snprintf(work->detail, sizeof work->detail, "database error");
        }
    }
    bool committed = !group || bus_node_commit(self->node) == 0;
    if (!committed)
        bus_log_error("cannot commit the sessions created and kernels answered");
    while (list) {
        work_t *work = list;
        list = work->next;
        if (work->req) {
            if (work->status == BUS_OK && committed) {
                created = true;
                bus_node_reply(self->node, &work->req, BUS_OK, NULL,
                               bus_writer_data(work->reply),
                               bus_writer_size(work->reply));
            } else
                bus_node_reply(self->node, &work->req,
                               committed ? work->status : BUS_STATUS_UNAVAILABLE,
                               committed ? work->detail : "cannot commit", NULL, 0);
        } else
            s_call_done(work->ctx); //  uncommitted: the reconciliation repairs it
        s_work_destroy(&work);
    }
    //  Place them without waiting a period, but after the creates that
    //  arrive with them: one pass for a burst, not one per session (a pass
    //  reads every agent of the group).
    if (created)
        s_soon(self);
    //  A loop kept busy by a stream of requests runs no timer (libevent
    //  serves what is active first): a pass overdue that long runs here.
    else if (event_pending(self->soon, EV_TIMEOUT, NULL) &&
             bus_clock_mono_us() - self->soon_us > OVERDUE_US) {
        event_del(self->soon);
        s_pass(self);
    }
}

static void
s_on_flush(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    s_flush(arg);
}

//  session.create: queued, recorded and answered by s_flush with the
//  others of this turn of the loop.
static int
s_create(void *arg,
         bus_rpc_request_t *req,
         const void *body,
         size_t size,
         bus_writer_t *reply,
         bus_error_t *err)
{
    (void) reply;
    sched_lifecycle_t *self = arg;
    work_t *work = calloc(1, sizeof *work);
    if (work) {
        work->body = malloc(size ? size : 1);
        if (work->body) {
            memcpy(work->body, body, size);
            work->size = size;
            work->req = bus_rpc_request_detach(req);
        }
    }
    if (!work || !work->req) {
        s_work_destroy(&work);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    s_queue(self, work);
    return BUS_STATUS_PENDING_;
}

static void
s_on_destroyed(void *arg, const bus_reply_t *reply)
{
    call_ctx_t *ctx = arg;
    //  The agent's kernel.terminated ends it; but an agent that does not
    //  know the kernel any more will never say so.
    if (reply->status == BUS_STATUS_NOT_FOUND &&
        sched_db_sessions_kernel_current(ctx->self->db, ctx->kernel_id) ==
            SCHED_KERNEL_TERMINATING &&
        bus_node_begin(ctx->self->node) == 0) {
        s_move(ctx->self, ctx->session_id, ctx->kernel_id, SCHED_KERNEL_TERMINATED,
               "already-terminated", NULL, NULL);
        bus_node_commit(ctx->self->node);
    } else if (reply->status != BUS_OK)
        bus_log_warning("kernel destroy failed kernel=%s status=%d detail=\"%s\"",
                        ctx->kernel_id, reply->status, reply->detail);
    s_call_done(ctx);
}

//  Asks the agent at addr to destroy a kernel; grace_ms < 0 takes the
//  request's default.
static void
s_destroy_kernel(sched_lifecycle_t *self,
                 const char *session_id,
                 const char *kernel_id,
                 const char *addr,
                 const char *reason,
                 int grace_ms)
{
    proto_kernel_destroy_req_t kill;
    proto_kernel_destroy_req_init(&kill);
    kill.kernel_id = (char *) kernel_id;
    char *defaults = kill.reason; //  init's default; the reason below is borrowed
    kill.reason = (char *) reason;
    if (grace_ms >= 0)
        kill.grace_ms = (uint64_t) grace_ms;
    bus_writer_t *writer = bus_writer_new();
    call_ctx_t *ctx = s_call_new(self, session_id, kernel_id);
    if (!(writer && ctx && proto_kernel_destroy_req_write(&kill, writer) == 0 &&
          s_call_send(ctx, addr, PROTO_KERNEL_DESTROY, writer, s_on_destroyed)))
        free(ctx);
    bus_writer_destroy(&writer);
    free(defaults);
}

//  Ends every kernel of session_id for reason: a PENDING session is
//  cancelled; a kernel whose agent is not reachable (LOST), or every kernel
//  when forced, ends now (a kernel still running on a LOST agent is the
//  reconciliation's to clean); the others become TERMINATING and their
//  agents are asked to destroy them (forced: without a grace period).
//  NOT_FOUND for an unknown session; an ended one is left as it is.
static int
s_end_session(sched_lifecycle_t *self,
              const char *session_id,
              const char *reason,
              bool forced)
{
    int status = sched_db_sessions_status(self->db, session_id);
    if (status < 0)
        return BUS_STATUS_NOT_FOUND;
    if (sched_session_is_dead(status))
        return BUS_OK;
    typedef struct {
        char id[SCHED_ID_MAX];
        char addr[256];
    } kernel_t;
    kernel_t kernels[SCHED_CLUSTER_MAX];
    size_t count = 0;
    sqlite3_stmt *stmt = bus_db_stmt(
        self->db,
        "SELECT k.id, coalesce(a.addr, '') FROM kernels k"
        " LEFT JOIN agents a ON a.id = k.agent_id AND a.status = 'ALIVE'"
        " WHERE k.session_id = ?1 AND k.status NOT IN ('TERMINATED', 'CANCELLED')"
        " ORDER BY k.cluster_idx");
    if (!stmt)
        return BUS_STATUS_INTERNAL;
    sqlite3_bind_text(stmt, 1, session_id, -1, SQLITE_STATIC);
    while (count < SCHED_CLUSTER_MAX && sqlite3_step(stmt) == SQLITE_ROW) {
        snprintf(kernels[count].id, sizeof kernels[count].id, "%s",
                 (const char *) sqlite3_column_text(stmt, 0));
        snprintf(kernels[count].addr, sizeof kernels[count].addr, "%s",
                 (const char *) sqlite3_column_text(stmt, 1));
        count++;
    }
    sqlite3_reset(stmt);
    if (bus_node_begin(self->node) != 0)
        return BUS_STATUS_UNAVAILABLE;
    bool ask[SCHED_CLUSTER_MAX] = {false};
    for (size_t i = 0; i < count; i++) {
        if (status == SCHED_SESSION_PENDING)
            s_move(self, session_id, kernels[i].id, SCHED_KERNEL_CANCELLED, reason, NULL,
                   NULL);
        else if (!*kernels[i].addr || forced)
            s_move(self, session_id, kernels[i].id, SCHED_KERNEL_TERMINATED,
                   *kernels[i].addr ? reason : "agent-lost", NULL, NULL);
        else {
            s_move(self, session_id, kernels[i].id, SCHED_KERNEL_TERMINATING, reason,
                   NULL, NULL);
            ask[i] = true;
        }
        ask[i] =
            ask[i] || (forced && *kernels[i].addr && status != SCHED_SESSION_PENDING);
    }
    bus_node_commit(self->node);
    for (size_t i = 0; i < count; i++)
        if (ask[i])
            s_destroy_kernel(self, session_id, kernels[i].id, kernels[i].addr, reason,
                             forced ? 0 : -1);
    return BUS_OK;
}

static void
s_reclaim_end(void *arg, const char *session_id, const char *reason)
{
    s_flush(arg);
    if (s_end_session(arg, session_id, reason, false) != BUS_OK)
        bus_log_warning("cannot end session=%s reason=%s", session_id, reason);
}

static int
s_destroy(void *arg,
          bus_rpc_request_t *req,
          const void *body,
          size_t size,
          bus_writer_t *reply,
          bus_error_t *err)
{
    (void) req;
    sched_lifecycle_t *self = arg;
    s_flush(self); //  the creates before it first
    proto_session_destroy_req_t in;
    int rc = proto_session_destroy_req_decode(&in, body, size, err);
    if (rc != BUS_OK)
        return rc;
    rc = s_end_session(self, in.session_id, in.reason, in.forced);
    if (rc == BUS_OK)
        rc = s_reply_session(self, in.session_id, reply, err);
    else
        bus_error_set(err, rc,
                      rc == BUS_STATUS_NOT_FOUND ? "no such session %s"
                                                 : "cannot end session %s",
                      in.session_id);
    proto_session_destroy_req_clear(&in);
    return rc;
}

//  Answers a session.restart with the session as it is now, or the error.
static void
s_restart_answer(call_ctx_t *ctx, int status, const char *detail)
{
    sched_lifecycle_t *self = ctx->self;
    if (!ctx->req)
        return;
    bus_writer_t *writer = status == BUS_OK ? bus_writer_new() : NULL;
    bus_error_t err = {0};
    if (writer)
        status = s_reply_session(self, ctx->session_id, writer, &err);
    else if (status == BUS_OK)
        status = bus_error_set(&err, BUS_STATUS_INTERNAL, "out of memory");
    if (status == BUS_OK)
        bus_node_reply(self->node, &ctx->req, BUS_OK, NULL, bus_writer_data(writer),
                       bus_writer_size(writer));
    else
        bus_node_reply(self->node, &ctx->req, status, *err.detail ? err.detail : detail,
                       NULL, 0);
    bus_writer_destroy(&writer);
}

//  The agent's answer to kernel.restart. Success: RUNNING again (with
//  session_started, as Backend.AI). A failure leaves the kernel RESTARTING
//  for what settles it: the agent ends a kernel it could not run again
//  (kernel.terminated, failed-to-start), and the reconciliation asks an
//  agent that did not answer; only an agent that does not know the kernel
//  ends it here.
static void
s_on_restarted(void *arg, const bus_reply_t *reply)
{
    call_ctx_t *ctx = arg;
    sched_lifecycle_t *self = ctx->self;
    int current = sched_db_sessions_kernel_current(self->db, ctx->kernel_id);
    if (current == SCHED_KERNEL_RESTARTING && bus_node_begin(self->node) == 0) {
        //  RUNNING again, saying so: "restarting" was the step, not the state
        if (reply->status == BUS_OK)
            s_move(self, ctx->session_id, ctx->kernel_id, SCHED_KERNEL_RUNNING,
                   "restarted", NULL, NULL);
        else if (reply->status == BUS_STATUS_NOT_FOUND) {
            json_t *data = json_pack("{s:s}", "error", reply->detail);
            char *text = data ? json_dumps(data, JSON_COMPACT) : NULL;
            s_move(self, ctx->session_id, ctx->kernel_id, SCHED_KERNEL_TERMINATED,
                   "failed-to-start", text, NULL);
            free(text);
            json_decref(data);
        }
        bus_node_commit(self->node);
    }
    if (reply->status == BUS_OK)
        bus_log_info("session restarted session=%s kernel=%s", ctx->session_id,
                     ctx->kernel_id);
    else
        bus_log_warning("session restart failed session=%s kernel=%s status=%d"
                        " detail=\"%s\"",
                        ctx->session_id, ctx->kernel_id, reply->status, reply->detail);
    s_restart_answer(ctx, reply->status, reply->detail);
    s_call_done(ctx);
}

static int
s_restart(void *arg,
          bus_rpc_request_t *req,
          const void *body,
          size_t size,
          bus_writer_t *reply,
          bus_error_t *err)
{
    (void) reply;
    sched_lifecycle_t *self = arg;
    s_flush(self); //  the creates before it first
    proto_session_restart_req_t in;
    int rc = proto_session_restart_req_decode(&in, body, size, err);
    if (rc != BUS_OK)
        return rc;
    proto_session_info_t info;
    proto_session_info_init(&info);
    char addr[256] = "", command[65536] = "";
    rc = sched_db_sessions_get(self->db, in.session_id, &info);
    if (rc != BUS_OK)
        rc = bus_error_set(err, rc, "no such session %s", in.session_id);
    else if (sched_session_status_from_str(info.status) != SCHED_SESSION_RUNNING ||
             !info.kernel_id ||
             sched_db_sessions_kernel_current(self->db, info.kernel_id) !=
                 SCHED_KERNEL_RUNNING)
        rc = bus_error_set(err, BUS_STATUS_CONFLICT,
                           "session %s is %s: only a RUNNING session restarts",
                           in.session_id, info.status);
    if (rc == BUS_OK) {
        sqlite3_stmt *stmt = bus_db_stmt(
            self->db, "SELECT a.addr, CASE WHEN s.type = 'BATCH' THEN"
                      " coalesce(s.startup_command, '') ELSE '' END"
                      " FROM sessions s, agents a WHERE s.id = ?1 AND a.id = ?2"
                      " AND a.status = 'ALIVE'");
        if (stmt) {
            sqlite3_bind_text(stmt, 1, in.session_id, -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(stmt, 2, info.agent_id ? info.agent_id : "", -1,
                              SQLITE_TRANSIENT);
            if (sqlite3_step(stmt) == SQLITE_ROW) {
                snprintf(addr, sizeof addr, "%s",
                         (const char *) sqlite3_column_text(stmt, 0));
                snprintf(command, sizeof command, "%s",
                         (const char *) sqlite3_column_text(stmt, 1));
            }
            sqlite3_reset(stmt);
        }
        if (!*addr)
            rc = bus_error_set(err, BUS_STATUS_UNAVAILABLE,
                               "the agent of session %s is not reachable", in.session_id);
    }
    //  RESTARTING with no event (Backend.AI has none for it), then the agent.
    if (rc == BUS_OK) {
        if (bus_node_begin(self->node) != 0)
            rc = bus_error_set(err, BUS_STATUS_UNAVAILABLE, "database busy");
        else if (s_move(self, in.session_id, info.kernel_id, SCHED_KERNEL_RESTARTING,
                        "restarting", NULL, NULL) != BUS_OK) {
            bus_node_rollback(self->node);
            rc = bus_error_set(err, BUS_STATUS_CONFLICT, "session %s cannot restart",
                               in.session_id);
        } else if (bus_node_commit(self->node) != 0)
            rc = bus_error_set(err, BUS_STATUS_UNAVAILABLE, "cannot commit");
    }
    if (rc == BUS_OK) {
        proto_kernel_restart_req_t call;
        proto_kernel_restart_req_init(&call);
        call.kernel_id = info.kernel_id;
        call.startup_command = *command ? command : NULL;
        bus_writer_t *writer = bus_writer_new();
        call_ctx_t *ctx = s_call_new(self, in.session_id, info.kernel_id);
        if (ctx) {
            //  The answer must reach the caller before it gives up.
            int left = bus_rpc_request_remaining_ms(req) - 250;
            ctx->timeout_ms = left < self->create_timeout_ms ? (left > 0 ? left : 1)
                                                             : self->create_timeout_ms;
            ctx->req = bus_rpc_request_detach(req);
        }
        bool sent = writer && ctx && proto_kernel_restart_req_write(&call, writer) == 0 &&
                    s_call_send(ctx, addr, PROTO_KERNEL_RESTART, writer, s_on_restarted);
        //  From here the detached request is answered by s_on_restarted.
        rc = ctx ? BUS_STATUS_PENDING_
                 : bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        if (!sent && ctx) {
            bus_reply_t failed = {BUS_STATUS_UNAVAILABLE, "the agent is not reachable",
                                  NULL, 0, 0};
            s_on_restarted(ctx, &failed);
        }
        bus_writer_destroy(&writer);
    }
    proto_session_info_clear(&info);
    proto_session_restart_req_clear(&in);
    return rc;
}

static int
s_get(void *arg,
      bus_rpc_request_t *req,
      const void *body,
      size_t size,
      bus_writer_t *reply,
      bus_error_t *err)
{
    (void) req;
    sched_lifecycle_t *self = arg;
    s_flush(self); //  the creates before it first
    proto_session_get_req_t in;
    int rc = proto_session_get_req_decode(&in, body, size, err);
    if (rc != BUS_OK)
        return rc;
    char id[SCHED_ID_MAX] = "";
    if (in.session_id)
        snprintf(id, sizeof id, "%s", in.session_id);
    else if (in.access_key && in.name) {
        //  By name: the live session first, else the latest that ended.
        sqlite3_stmt *stmt = bus_db_stmt(
            self->db, "SELECT id FROM sessions WHERE access_key = ?1 AND name = ?2"
                      " ORDER BY status IN ('TERMINATED', 'CANCELLED'), created_at DESC"
                      " LIMIT 1");
        if (stmt) {
            sqlite3_bind_text(stmt, 1, in.access_key, -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(stmt, 2, in.name, -1, SQLITE_TRANSIENT);
            if (sqlite3_step(stmt) == SQLITE_ROW)
                snprintf(id, sizeof id, "%s",
                         (const char *) sqlite3_column_text(stmt, 0));
            sqlite3_reset(stmt);
        }
    }
    rc = *id ? s_reply_session(self, id, reply, err)
             : bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such session");
    proto_session_get_req_clear(&in);
    return rc;
}

static int
s_rename(void *arg,
         bus_rpc_request_t *req,
         const void *body,
         size_t size,
         bus_writer_t *reply,
         bus_error_t *err)
{
    (void) req;
    sched_lifecycle_t *self = arg;
    s_flush(self); //  the creates before it first
    proto_session_rename_req_t in;
    int rc = proto_session_rename_req_decode(&in, body, size, err);
    if (rc != BUS_OK)
        return rc;
    rc = sched_db_sessions_rename(self->db, in.session_id, in.name, err);
    if (rc == BUS_OK) {
        bus_log_info("session renamed session=%s name=%s", in.session_id, in.name);
        rc = s_reply_session(self, in.session_id, reply, err);
    }
    proto_session_rename_req_clear(&in);
    return rc;
}

static int
s_list(void *arg,
       bus_rpc_request_t *req,
       const void *body,
       size_t size,
       bus_writer_t *reply,
       bus_error_t *err)
{
    (void) req;
    sched_lifecycle_t *self = arg;
    s_flush(self); //  the creates before it first
    proto_session_list_req_t in;
    int rc = proto_session_list_req_decode(&in, body, size, err);
    if (rc != BUS_OK)
        return rc;
    sched_session_filter_t filter = {
        .access_key = in.access_key,
        .domain_name = in.domain_name,
        .group_id = in.group_id,
        .statuses = in.statuses,
        .limit = in.limit,
        .offset = in.offset,
        .mounted_folder = in.mounted_folder,
        .where = in.where,
        .order = in.order,
        .after_created_at = in.after_created_at,
        .after_id = in.after_id,
    };
    proto_session_list_rep_t out;
    proto_session_list_rep_init(&out);
    size_t total = 0;
    rc = sched_db_list_sessions(self->db, &filter, &out.sessions, &out.sessions_count,
                             &total, err);
    out.total_count = total;
    if (rc == BUS_OK && proto_session_list_rep_write(&out, reply) != 0)
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "cannot list sessions");
    proto_session_list_rep_clear(&out);
    proto_session_list_req_clear(&in);
    return rc;
}

//  ---------------------------------------------------------------------------
//  Reconciliation: what a lost message left behind
//
//  Every RECONCILE_PASSES timed passes, each kernel that has waited a whole
//  period in a transitional status with no call about it in flight here is
//  settled from what its agent says it runs (kernel.list), and kernels the
//  agent runs for sessions that are over are destroyed. The first one after
//  a start picks up what the previous process left (its calls died with
//  it); waiting a period first lets the bus sync bring the durable events
//  that settle most of it the ordinary way.

static void
s_log_repair(const char *agent_id,
             const sched_unsettled_t *row,
             const char *to,
             const char *why)
{
    bus_log_notice("kernel reconciled session=%s kernel=%s agent=%s from=%s to=%s"
                   " why=\"%s\"",
                   row->session_id, row->kernel_id, agent_id,
                   sched_kernel_status_str(row->status), to, why);
}

//  An agent that is LOST (or cannot be reached): its kernels being created
//  are cancelled, those being destroyed end.
static void
s_settle_unreachable(sched_lifecycle_t *self, const char *agent_id, int64_t before_us)
{
    sched_unsettled_t *rows = calloc(UNSETTLED_MAX, sizeof *rows);
    size_t count = rows ? sched_db_sessions_unsettled(self->db, agent_id, before_us, rows,
                                                   UNSETTLED_MAX)
                        : 0;
    for (size_t i = 0; i < count; i++) {
        const sched_unsettled_t *row = &rows[i];
        if (s_in_flight(self, row->kernel_id) || bus_node_begin(self->node) != 0)
            continue;
        if (s_creating(row->status)) {
            char why[192];
            snprintf(why, sizeof why, "agent %s is lost", agent_id);
            json_t *data = json_pack("{s:s}", "error", why);
            char *text = data ? json_dumps(data, JSON_COMPACT) : NULL;
            s_log_repair(agent_id, row, "CANCELLED", why);
            s_move(self, row->session_id, row->kernel_id, SCHED_KERNEL_CANCELLED,
                   "failed-to-start", text, NULL);
            free(text);
            json_decref(data);
        } else {
            s_log_repair(agent_id, row, "TERMINATED", "its agent is lost");
            s_move(self, row->session_id, row->kernel_id, SCHED_KERNEL_TERMINATED,
                   "agent-termination", NULL, NULL);
        }
        bus_node_commit(self->node);
    }
    free(rows);
}

//  An agent LOST past the grace period: every kernel it still holds slots
//  for ends with agent-termination, one transaction each.
static void
s_end_lost(sched_lifecycle_t *self, const char *agent_id)
{
    sched_unsettled_t *rows = calloc(UNSETTLED_MAX, sizeof *rows);
    sqlite3_stmt *stmt =
        rows ? bus_db_stmt(self->db, "SELECT id, session_id FROM kernels"
                                     " WHERE agent_id = ?1 AND status NOT IN"
                                     " ('PENDING', 'TERMINATED', 'CANCELLED') LIMIT ?2")
             : NULL;
    size_t count = 0;
    if (stmt) {
        sqlite3_bind_text(stmt, 1, agent_id, -1, SQLITE_STATIC);
        sqlite3_bind_int(stmt, 2, UNSETTLED_MAX);
        while (count < UNSETTLED_MAX && sqlite3_step(stmt) == SQLITE_ROW) {
            snprintf(rows[count].kernel_id, sizeof rows[count].kernel_id, "%s",
                     (const char *) sqlite3_column_text(stmt, 0));
            snprintf(rows[count].session_id, sizeof rows[count].session_id, "%s",
                     (const char *) sqlite3_column_text(stmt, 1));
            count++;
        }
        sqlite3_reset(stmt);
    }
    for (size_t i = 0; i < count; i++) {
        if (s_in_flight(self, rows[i].kernel_id) || bus_node_begin(self->node) != 0)
            continue;
        bus_log_warning("kernel ended kernel=%s session=%s reason=agent-termination"
                        " agent=%s (lost longer than the grace period)",
                        rows[i].kernel_id, rows[i].session_id, agent_id);
        s_move(self, rows[i].session_id, rows[i].kernel_id, SCHED_KERNEL_TERMINATED,
               "agent-termination", NULL, NULL);
        bus_node_commit(self->node);
    }
    free(rows);
}

static bool
s_listed(const proto_kernel_list_rep_t *rep, const char *kernel_id)
{
    for (size_t i = 0; i < rep->kernels_count; i++)
        if (rep->kernels[i].kernel_id &&
            strcmp(rep->kernels[i].kernel_id, kernel_id) == 0)
            return true;
    return false;
}

//  An agent's kernel.list: settles its unsettled kernels from it and
//  destroys the kernels it runs for sessions that are over.
static void
s_on_listed(void *arg, const bus_reply_t *reply)
{
    call_ctx_t *ctx = arg;
    sched_lifecycle_t *self = ctx->self;
    proto_kernel_list_rep_t rep;
    proto_kernel_list_rep_init(&rep);
    bus_error_t err = {0};
    int rc = reply->status;
    if (rc == BUS_OK)
        rc = proto_kernel_list_rep_decode(&rep, reply->body, reply->body_size, &err);
    sched_unsettled_t *rows = rc == BUS_OK ? calloc(UNSETTLED_MAX, sizeof *rows) : NULL;
    if (rc != BUS_OK)
        bus_log_warning("reconciliation cannot list kernels agent=%s status=%d"
                        " detail=\"%s\"",
                        ctx->agent_id, rc,
                        reply->status != BUS_OK ? reply->detail : err.detail);
    //  Only kernels that were waiting when the list was asked: the list says
    //  nothing about a create sent after it.
    int64_t before = bus_clock_wall_us() - self->reconcile_us;
    if (before > ctx->sent_us)
        before = ctx->sent_us;
    size_t count = rows ? sched_db_sessions_unsettled(self->db, ctx->agent_id, before, rows,
                                                   UNSETTLED_MAX)
                        : 0;
    for (size_t i = 0; i < count; i++) {
        const sched_unsettled_t *row = &rows[i];
        if (s_in_flight(self, row->kernel_id))
            continue;
        bool runs = s_listed(&rep, row->kernel_id);
        if (s_creating(row->status) && runs) {
            //  As if its kernel.started had arrived.
            s_log_repair(ctx->agent_id, row, "RUNNING", "its agent runs it");
            if (bus_node_begin(self->node) == 0) {
                s_move(self, row->session_id, row->kernel_id, SCHED_KERNEL_RUNNING, NULL,
                       NULL, NULL);
                bus_node_commit(self->node);
            }
        } else if (s_creating(row->status)) {
            //  kernel.create was lost (or never sent): once more; the agent
            //  answers a kernel id it has with what it has, and a failure
            //  cancels the session as the first attempt's would.
            s_log_repair(ctx->agent_id, row, sched_kernel_status_str(row->status),
                         "its agent does not have it: kernel.create sent again");
            sched_assignment_t again = {.cluster_role = "main", .cluster_idx = 1};
            snprintf(again.kernel_id, sizeof again.kernel_id, "%s", row->kernel_id);
            snprintf(again.session_id, sizeof again.session_id, "%s", row->session_id);
            snprintf(again.agent_id, sizeof again.agent_id, "%s", ctx->agent_id);
            sqlite3_stmt *stmt = bus_db_stmt(
                self->db, "SELECT cluster_role, cluster_idx FROM kernels WHERE id = ?1");
            if (stmt) {
                sqlite3_bind_text(stmt, 1, row->kernel_id, -1, SQLITE_STATIC);
                if (sqlite3_step(stmt) == SQLITE_ROW) {
                    snprintf(again.cluster_role, sizeof again.cluster_role, "%s",
                             (const char *) sqlite3_column_text(stmt, 0));
                    again.cluster_idx = (uint32_t) sqlite3_column_int(stmt, 1);
                }
                sqlite3_reset(stmt);
            }
            s_create_kernel(self, &again);
        } else if (row->status == SCHED_KERNEL_RESTARTING) {
            //  kernel.restart's answer was lost: the agent runs it again, or
            //  it could not and its kernel.terminated was lost too.
            s_log_repair(ctx->agent_id, row, runs ? "RUNNING" : "TERMINATED",
                         runs ? "its agent runs it" : "its agent does not have it");
            if (bus_node_begin(self->node) == 0) {
                if (runs)
                    s_move(self, row->session_id, row->kernel_id, SCHED_KERNEL_RUNNING,
                           NULL, NULL, NULL);
                else
                    s_move(self, row->session_id, row->kernel_id, SCHED_KERNEL_TERMINATED,
                           "failed-to-start",
                           "{\"error\": \"the kernel did not come back from a restart\"}",
                           NULL);
                bus_node_commit(self->node);
            }
        } else if (runs) {
            s_log_repair(ctx->agent_id, row, sched_kernel_status_str(row->status),
                         "its agent still runs it: kernel.destroy sent again");
            s_destroy_kernel(self, row->session_id, row->kernel_id, ctx->endpoint,
                             *row->status_info ? row->status_info : "user-requested", -1);
        } else {
            //  Destroyed, and its kernel.terminated lost.
            s_log_repair(ctx->agent_id, row, "TERMINATED", "its agent does not have it");
            if (bus_node_begin(self->node) == 0) {
                s_move(self, row->session_id, row->kernel_id, SCHED_KERNEL_TERMINATED,
                       *row->status_info ? row->status_info : "already-terminated", NULL,
                       NULL);
                bus_node_commit(self->node);
            }
        }
    }
    //  Orphans: a kernel whose session is over (cancelled after a create that
    //  timed out, say) must not keep running. Kernels this scheduler never
    //  heard of are left alone.
    for (size_t i = 0; rc == BUS_OK && i < rep.kernels_count; i++) {
        const char *kernel_id = rep.kernels[i].kernel_id;
        int status = kernel_id ? sched_db_sessions_kernel_current(self->db, kernel_id) : -1;
        if ((status != SCHED_KERNEL_TERMINATED && status != SCHED_KERNEL_CANCELLED) ||
            s_in_flight(self, kernel_id))
            continue;
        bus_log_notice("orphan kernel destroyed kernel=%s session=%s agent=%s status=%s",
                       kernel_id,
                       rep.kernels[i].session_id ? rep.kernels[i].session_id : "",
                       ctx->agent_id, sched_kernel_status_str(status));
        s_destroy_kernel(self, rep.kernels[i].session_id ? rep.kernels[i].session_id : "",
                         kernel_id, ctx->endpoint, "force-terminated", 0);
    }
    free(rows);
    proto_kernel_list_rep_clear(&rep);
    s_call_done(ctx);
}

//  Asks an ALIVE agent what it runs, unless a list is in flight already.
static void
s_list_agent(sched_lifecycle_t *self, const char *agent_id, const char *addr)
{
    //  One list at a time per agent, unless the one out went to its process
    //  before a restart.
    for (call_ctx_t *ctx = self->calls; ctx; ctx = ctx->next)
        if (ctx->list && strcmp(ctx->agent_id, agent_id) == 0 &&
            strcmp(ctx->endpoint, addr) == 0 && s_agent_current(self, ctx))
            return;
    proto_kernel_list_req_t req;
    proto_kernel_list_req_init(&req);
    req.agent_id = (char *) agent_id; //  borrowed: not cleared below
    bus_writer_t *writer = bus_writer_new();
    call_ctx_t *ctx = s_call_new(self, "", "");
    if (ctx) {
        ctx->list = true;
        ctx->timeout_ms = LIST_TIMEOUT_MS; //  a list is quick, or the agent is gone
        ctx->sent_us = bus_clock_wall_us();
        snprintf(ctx->agent_id, sizeof ctx->agent_id, "%s", agent_id);
    }
    if (!(writer && ctx && proto_kernel_list_req_write(&req, writer) == 0 &&
          s_call_send(ctx, addr, PROTO_KERNEL_LIST, writer, s_on_listed))) {
        bus_log_warning("reconciliation cannot ask agent=%s", agent_id);
        free(ctx);
    }
    bus_writer_destroy(&writer);
}

static void
s_reconcile(sched_lifecycle_t *self)
{
    typedef struct {
        char id[128];
        char addr[256];
        bool alive;
        int64_t lost_at; //  0 unless LOST
    } agent_t;
    agent_t *agents = calloc(AGENTS_MAX, sizeof *agents);
    sqlite3_stmt *stmt = agents
                             ? bus_db_stmt(self->db, "SELECT id, addr, status = 'ALIVE',"
                                                     " coalesce(lost_at, 0)"
                                                     " FROM agents ORDER BY id")
                             : NULL;
    size_t count = 0;
    while (stmt && count < AGENTS_MAX && sqlite3_step(stmt) == SQLITE_ROW) {
        agent_t *agent = &agents[count++];
        snprintf(agent->id, sizeof agent->id, "%s",
                 (const char *) sqlite3_column_text(stmt, 0));
        snprintf(agent->addr, sizeof agent->addr, "%s",
                 (const char *) sqlite3_column_text(stmt, 1));
        agent->alive = sqlite3_column_int(stmt, 2) != 0;
        agent->lost_at = sqlite3_column_int64(stmt, 3);
    }
    if (stmt)
        sqlite3_reset(stmt);
    int64_t now = bus_clock_wall_us(), before = now - self->reconcile_us;
    for (size_t i = 0; i < count; i++)
        if (agents[i].alive && *agents[i].addr)
            s_list_agent(self, agents[i].id, agents[i].addr);
        else {
            s_settle_unreachable(self, agents[i].id, before);
            if (agents[i].lost_at && agents[i].lost_at < now - self->grace_us)
                s_end_lost(self, agents[i].id);
        }
    free(agents);
}

//  ---------------------------------------------------------------------------

sched_lifecycle_t *
sched_lifecycle_new(
    bus_node_t *node, int pass_ms, int create_timeout_ms, int grace_ms, int reclaim_ms)
{
    sched_lifecycle_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->node = node;
    self->db = bus_node_db(node);
    self->create_timeout_ms = create_timeout_ms;
    self->grace_us = (int64_t) grace_ms * 1000;
    self->reconcile_us = (int64_t) pass_ms * RECONCILE_PASSES * 1000;
    struct timeval tv = {pass_ms / 1000, (pass_ms % 1000) * 1000};
    self->timer = event_new(bus_node_base(node), -1, EV_PERSIST, s_on_timer, self);
    self->soon = event_new(bus_node_base(node), -1, 0, s_on_soon, self);
    self->flush = event_new(bus_node_base(node), -1, 0, s_on_flush, self);
    self->writer = bus_writer_new();
    self->dispatch =
        sched_dispatch_new(self->db, (int64_t) pass_ms * 1000, SCHED_DISPATCH_WINDOW);
    if (self->dispatch)
        sched_dispatch_set_preparing(self->dispatch, true);
    self->reclaim = sched_reclaim_new(node, reclaim_ms, s_reclaim_end, self);
    if (!self->timer || !self->soon || !self->flush || !self->writer || !self->dispatch ||
        !self->reclaim || event_add(self->timer, &tv) != 0 ||
        bus_node_handle(node, PROTO_SESSION_CREATE, s_create, self) != 0 ||
        bus_node_handle(node, PROTO_SESSION_DESTROY, s_destroy, self) != 0 ||
        bus_node_handle(node, PROTO_SESSION_GET, s_get, self) != 0 ||
        bus_node_handle(node, PROTO_SESSION_LIST, s_list, self) != 0 ||
        bus_node_handle(node, PROTO_SESSION_RENAME, s_rename, self) != 0 ||
        bus_node_handle(node, PROTO_SESSION_RESTART, s_restart, self) != 0 ||
        bus_node_follow(node, "kernel", s_apply, self) != 0) {
        sched_lifecycle_destroy(&self);
        return NULL;
    }
    return self;
}

void
sched_lifecycle_destroy(sched_lifecycle_t **self_p)
{
    assert(self_p);
    sched_lifecycle_t *self = *self_p;
    if (self) {
        //  Unrecorded: the creates go unanswered (their callers time out or
        //  retry), the kernels are repaired by the next reconciliation.
        while (self->work) {
            work_t *work = self->work;
            self->work = work->next;
            if (work->ctx && !work->ctx->call_id)
                s_call_done(work->ctx); //  never sent, so not in self->calls
            s_work_destroy(&work);
        }
        while (self->calls) {
            call_ctx_t *ctx = self->calls;
            bus_node_cancel(self->node, ctx->endpoint, ctx->call_id);
            s_call_done(ctx);
        }
        if (self->timer)
            event_free(self->timer);
        if (self->soon)
            event_free(self->soon);
        if (self->flush)
            event_free(self->flush);
        bus_writer_destroy(&self->writer);
        sched_dispatch_destroy(&self->dispatch);
        sched_reclaim_destroy(&self->reclaim);
        free(self);
        *self_p = NULL;
    }
}
