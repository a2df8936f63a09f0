/*  =========================================================================
    sched_commit - the group commit: session.creates and kernel.create
    answers recorded many to a transaction

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

//  What a turn of the loop leaves to record: a session.create (req) or an
//  agent's answer to a call (call). See sched_commit_flush.
typedef struct _work_t work_t;
struct _work_t {
    work_t *next;
    bus_rpc_request_t *req; //  session.create: the request, answered once committed
    sched_call_t *call;     //  an answer: the call answered
    sched_commit_record_fn *record;
    void *arg;
    void *body; //  the request's or the answer's body
    size_t size;
    int status; //  the answer's status; then the create's
    char detail[BUS_ERROR_DETAIL_MAX];
    bus_writer_t *reply; //  session.create: its answer
};

struct _sched_commit_t {
    bus_node_t *node;
    bus_db_t *db;
    sched_lifecycle_t *lifecycle;
    sched_commit_flushed_fn *flushed;
    void *arg;
    work_t *work; //  queued, oldest first
    work_t *work_tail;
    struct event *flush; //  records them once the loop turn is served
};

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
s_on_flush(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    sched_commit_flush(arg);
}

sched_commit_t *
sched_commit_new(bus_node_t *node,
                 sched_lifecycle_t *lifecycle,
                 sched_commit_flushed_fn *flushed,
                 void *arg)
{
    assert(node && lifecycle && flushed);
    sched_commit_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->node = node;
    self->db = bus_node_db(node);
    self->lifecycle = lifecycle;
    self->flushed = flushed;
    self->arg = arg;
    self->flush = event_new(bus_node_base(node), -1, 0, s_on_flush, self);
    if (!self->flush)
        sched_commit_destroy(&self);
    return self;
}

void
sched_commit_destroy(sched_commit_t **self_p)
{
    assert(self_p);
    sched_commit_t *self = *self_p;
    if (self) {
        while (self->work) {
            work_t *work = self->work;
            self->work = work->next;
            sched_calls_done(&work->call);
            s_work_destroy(&work);
        }
        if (self->flush)
            event_free(self->flush);
        free(self);
        *self_p = NULL;
    }
}

static void
s_queue(sched_commit_t *self, work_t *work)
{
    if (self->work_tail)
        self->work_tail->next = work;
    else
        self->work = work;
    self->work_tail = work;
    //  Once the node has served what this turn of the loop brought.
    event_active(self->flush, 0, 0);
}

int
sched_commit_create(sched_commit_t *self,
                    bus_rpc_request_t *req,
                    const void *body,
                    size_t size,
                    bus_error_t *err)
{
    assert(self);
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

void
sched_commit_answer(sched_commit_t *self,
                    sched_call_t *call,
                    const bus_reply_t *reply,
                    sched_commit_record_fn *record,
                    void *arg)
{
    assert(self && call && record);
    work_t *work = calloc(1, sizeof *work);
    if (work) {
        work->call = call;
        work->record = record;
        work->arg = arg;
        work->status = reply->status;
        snprintf(work->detail, sizeof work->detail, "%s",
                 reply->detail ? reply->detail : "");
        work->body = reply->body_size ? malloc(reply->body_size) : NULL;
        work->size = work->body ? reply->body_size : 0;
        if (work->body)
            memcpy(work->body, reply->body, reply->body_size);
        if (reply->body_size && !work->body)
            work->status = BUS_STATUS_INTERNAL;
        s_queue(self, work);
        return;
    }
    record(arg, call, reply);
    sched_calls_done(&call);
}

//  ---------------------------------------------------------------------------
//  Recording a session.create

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

//  Refuses a session that would take the owner's keypair over its limits
//  on pending sessions (max_pending_session_count and
//  max_pending_session_resource_slots), as Backend.AI refuses it at
//  submission.
static int
s_admit_pending(sched_commit_t *self, const sched_session_spec_t *spec, bus_error_t *err)
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
    sched_db_ledger_pending(self->db, spec->access_key, &slots, &scope);
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
s_create_one(sched_commit_t *self,
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
        rc = sched_rpc_session_reply(self->db, in.session_id, reply, err);
        proto_session_create_req_clear(&in);
        return rc;
    }
    sched_amount_t request[SCHED_COMMIT_SLOTS_MAX];
    rc = s_amounts(in.slots, in.slots_count, request, SCHED_COMMIT_SLOTS_MAX, err);
    json_t *environ = json_object();
    for (size_t i = 0; i < in.environ_count; i++)
        json_object_set_new(environ, in.environ[i].key, json_string(in.environ[i].value));
    char *environ_text = json_dumps(environ, JSON_COMPACT);
    char opts[64];
    snprintf(opts, sizeof opts, "{\"shmem\": %" PRIu64 "}", in.shmem_bytes);
    //  The typed lists as the JSON the sessions table keeps (sched_wire).
    char *limits = NULL, *mounts = NULL, *dotfiles = NULL, *dependencies = NULL;
    if (rc == BUS_OK)
        rc = sched_wire_limits(in.limits, in.limits_count, &limits, err);
    if (rc == BUS_OK)
        rc = sched_wire_mounts(in.mounts, in.mounts_count, &mounts, err);
    if (rc == BUS_OK)
        rc = sched_wire_dotfiles(in.dotfiles, in.dotfiles_count, &dotfiles, err);
    if (rc == BUS_OK)
        rc = sched_wire_strings(in.dependencies, in.dependencies_count, &dependencies,
                                err);
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
                                 .dependencies = dependencies,
                                 .batch_timeout_s = (int64_t) in.batch_timeout,
                                 .limits = limits,
                                 .mounts = mounts,
                                 .dotfiles = dotfiles,
                                 .model_service = in.model_service,
                                 .tag = in.tag,
                                 .spread = in.spread};
    if (rc == BUS_OK)
        rc = s_admit_pending(self, &spec, err);
    int64_t now_us = bus_clock_wall_us();
    if (rc == BUS_OK && bus_node_begin(self->node) != 0)
        rc = bus_error_set(err, BUS_STATUS_UNAVAILABLE, "database busy");
    else if (rc == BUS_OK) {
        rc = sched_db_sessions_insert(self->db, &spec, now_us, err);
        if (rc == BUS_OK) {
            //  What the event tells is what was just inserted: no re-read.
            sched_lifecycle_enqueued(self->lifecycle, &spec);
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
    free(limits);
    free(mounts);
    free(dotfiles);
    free(dependencies);
    proto_session_create_req_clear(&in);
    return rc;
}

//  ---------------------------------------------------------------------------
//  The flush

void
sched_commit_flush(sched_commit_t *self)
{
    assert(self);
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
            bus_reply_t reply = {
                work->status, work->detail, work->body, work->size, 0, 0};
            work->record(work->arg, work->call, &reply);
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
            sched_calls_done(&work->call); //  uncommitted: the reconciliation repairs it
        s_work_destroy(&work);
    }
    self->flushed(self->arg, created);
}
