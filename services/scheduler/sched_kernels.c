/*  =========================================================================
    sched_kernels - kernel.create and kernel.destroy to the agents, and
    what their answers record

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

#define HOSTS_MAX 4096 //  a cluster's hostnames, comma-separated

struct _sched_kernels_t {
    bus_node_t *node;
    bus_db_t *db;
    sched_lifecycle_t *lifecycle;
    sched_calls_t *calls;
    sched_commit_t *commit;
    int64_t heard_since_us; //  trusts an agent's "not found" once heard since
};

sched_kernels_t *
sched_kernels_new(bus_node_t *node,
                  sched_lifecycle_t *lifecycle,
                  sched_calls_t *calls,
                  sched_commit_t *commit)
{
    assert(node && lifecycle && calls && commit);
    sched_kernels_t *self = calloc(1, sizeof *self);
    if (self) {
        self->node = node;
        self->db = bus_node_db(node);
        self->lifecycle = lifecycle;
        self->calls = calls;
        self->commit = commit;
    }
    return self;
}

void
sched_kernels_destroy(sched_kernels_t **self_p)
{
    assert(self_p);
    free(*self_p);
    *self_p = NULL;
}

//  ---------------------------------------------------------------------------
//  kernel.create

//  The slot an agent's refusal for want of room names ("cuda.shares does
//  not fit: ..."), into slot; "" when it names none.
static void
s_refused_slot(const char *why, char *slot, size_t size)
{
    const char *end = why ? strstr(why, " " BUS_SLOTS_NO_FIT) : NULL;
    const char *start = end;
    while (start && start > why && start[-1] != ' ' && start[-1] != ':')
        start--;
    size_t length = end ? (size_t) (end - start) : 0;
    snprintf(slot, size, "%.*s", (int) (length < size ? length : 0), start ? start : "");
}

//  The agent refused the one kernel of a session for want of room (the
//  scheduler's figures said it fit, the agent's devices did not: a
//  heartbeat had not caught up yet): the session goes back in the queue
//  rather than failing, and the agent is known to have less of that slot
//  to give (agent_placeable lowered) until a heartbeat says something else
//  (sched_agents writes only heartbeats that changed: a kernel started or
//  ended there), so the next pass does not send it there again on the same
//  figures, and does once they changed. False when the kernel is not one
//  to put back (a cluster's: its siblings may run already; it is
//  cancelled as before).
static bool
s_requeue(sched_kernels_t *self, const sched_call_t *call, const char *why)
{
    char agent_id[SCHED_CALLS_AGENT_MAX], slot[SCHED_SLOT_NAME_MAX];
    snprintf(agent_id, sizeof agent_id, "%s", call->agent_id);
    s_refused_slot(why, slot, sizeof slot);
    char msg[512];
    snprintf(msg, sizeof msg, "Agent %s had no room: %s", agent_id, why);
    int64_t now = bus_clock_wall_us();
    //  Lower what the agent can place before the kernel's request goes
    //  with its allocation rows; nothing is lowered when the kernel is not
    //  put back (the savepoint undoes it).
    if (!*agent_id ||
        sched_db_agents_refused(self->db, agent_id, call->kernel_id, slot) != 0 ||
        sched_db_kernels_requeue(self->db, call->kernel_id, msg, now) != BUS_OK)
        return false;
    sched_lifecycle_emit(self->lifecycle, "session_enqueued", call->session_id, NULL,
                         "no-available-instances", NULL);
    bus_log_notice("kernel refused for want of room, session back in the queue"
                   " session=%s kernel=%s agent=%s detail=\"%s\"",
                   call->session_id, call->kernel_id, agent_id, why);
    return true;
}

//  The agent's answer to kernel.create, recorded (inside the flush's
//  transaction, under a savepoint of its own).
static void
s_created(void *arg, sched_call_t *call, const bus_reply_t *reply)
{
    sched_kernels_t *self = arg;
    proto_kernel_create_rep_t rep;
    proto_kernel_create_rep_init(&rep);
    bus_error_t err = {0};
    int rc = reply->status;
    if (rc == BUS_OK)
        rc = proto_kernel_create_rep_decode(&rep, reply->body, reply->body_size, &err);
    const char *why = reply->status != BUS_OK ? reply->detail : err.detail;
    //  A success moves the kernel only from where a create leaves it, read
    //  by the move itself; a failure needs to know where it is first.
    int current = rc == BUS_OK ? -1 : sched_db_kernels_current(self->db, call->kernel_id);
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
                sched_lifecycle_move_from(self->lifecycle, SCHED_KERNEL_CREATING,
                                          call->kernel_id, SCHED_KERNEL_RUNNING, NULL,
                                          NULL, NULL, container, host, &move) == BUS_OK &&
                sched_kernel_is_creating((int) move.kernel_from);
            if (!moved)
                sched_db_kernels_set_container(self->db, call->kernel_id, container,
                                               host);
        } else if (!sched_kernel_is_creating(current)) {
            //  It moved on meanwhile (destroyed, or its end arrived first).
            bus_log_info("kernel create failed after it moved on session=%s kernel=%s"
                         " status=%s detail=\"%s\"",
                         call->session_id, call->kernel_id,
                         sched_kernel_status_str(current), why);
        } else if (!sched_calls_current(self->calls, call)) {
            //  Sent to the agent's process before it restarted: the
            //  reconciliation sends the create to the one that runs now.
            bus_log_info("kernel create to an old agent address failed session=%s"
                         " kernel=%s endpoint=%s detail=\"%s\"",
                         call->session_id, call->kernel_id, call->endpoint, why);
        } else if (reply->status == BUS_STATUS_UNAVAILABLE && why &&
                   strstr(why, "changed hands")) {
            //  Answered by another agent that took the address over (the
            //  one meant restarted elsewhere): the agent meant never saw
            //  it, and the reconciliation sends it where that one is now.
            bus_log_info("kernel create reached another agent session=%s kernel=%s"
                         " endpoint=%s detail=\"%s\"",
                         call->session_id, call->kernel_id, call->endpoint, why);
        } else if (reply->status == BUS_STATUS_CONFLICT && why &&
                   strstr(why, "already ended")) {
            //  A create sent again for a kernel that ran and ended there (a
            //  batch task, say): its durable kernel.terminated, on its way,
            //  ends it with its result; cancelling would lose that.
            bus_log_info("kernel already ended on its agent session=%s kernel=%s",
                         call->session_id, call->kernel_id);
        } else if (reply->status == BUS_STATUS_CONFLICT && why &&
                   strstr(why, BUS_SLOTS_NO_FIT) && s_requeue(self, call, why)) {
            //  Back in the queue (above).
        } else {
            //  Nothing runs: the kernel and its session are cancelled and
            //  the slots go back, with the agent's reason kept.
            json_t *data = json_pack("{s:s}", "error", why && *why ? why : "no reason");
            char *text = json_dumps(data, JSON_COMPACT);
            sched_lifecycle_move(self->lifecycle, call->kernel_id, SCHED_KERNEL_CANCELLED,
                                 "failed-to-start", text, NULL);
            free(text);
            json_decref(data);
            bus_log_warning("kernel not created session=%s kernel=%s detail=\"%s\"",
                            call->session_id, call->kernel_id, why);
        }
        bus_node_commit(self->node);
    }
    proto_kernel_create_rep_clear(&rep);
}

//  kernel.create answered: the answer is recorded with the others of this
//  turn of the loop (sched_commit). The call stays in flight meanwhile, so
//  the reconciliation leaves its kernel to it.
static void
s_on_created(void *arg, sched_call_t *call, const bus_reply_t *reply)
{
    sched_kernels_t *self = arg;
    sched_commit_answer(self->commit, call, reply, s_created, self);
}

//  A JSON object text (stored environ) as a map in the arena *owned of the
//  message it goes into (its clear frees it).
static const proto_kv_t *
s_json_map(const char *text, void **owned, size_t *count)
{
    json_t *object = text ? json_loads(text, 0, NULL) : NULL;
    size_t size = json_is_object(object) ? json_object_size(object) : 0;
    proto_kv_t *map = size ? proto_arena_alloc(owned, size * sizeof *map) : NULL;
    *count = 0;
    const char *key;
    json_t *value;
    if (map)
        json_object_foreach(object, key, value)
        {
            if (!json_is_string(value))
                continue;
            map[*count].key = proto_arena_strdup(owned, key);
            map[*count].value = proto_arena_strdup(owned, json_string_value(value));
            if (map[*count].key && map[*count].value)
                (*count)++;
        }
    json_decref(object);
    return map;
}

void
sched_kernels_create(sched_kernels_t *self, const sched_assignment_t *placed)
{
    assert(self);
    char hosts[HOSTS_MAX] = "";
    sched_db_create_t session;
    bool found = sched_db_sessions_create_request(self->db, placed->session_id,
                                                  placed->agent_id, &session);
    uint64_t size = found ? session.cluster_size : 1;
    //  Every kernel's name (main1,sub1...): its hostname and its environment.
    if (found && size <= 1)
        snprintf(hosts, sizeof hosts, "%s1",
                 *placed->cluster_role ? placed->cluster_role : "main");
    else if (found)
        sched_cluster_hosts(self->db, placed->session_id, hosts, sizeof hosts);
    if (!found || !session.name || !session.type || !session.image) {
        sched_db_create_clear(&session);
        return;
    }
    //  Everything below is borrowed, but the slot and environ maps, which go
    //  into req's arena: the clear at the end frees them.
    proto_kernel_create_req_t req;
    proto_kernel_create_req_init(&req);
    sched_db_kernels_requests(self->db, placed->kernel_id, &req.owned_, &req.slots,
                              &req.slots_count);
    req.kernel_id = placed->kernel_id;
    req.session_id = placed->session_id;
    req.session_name = session.name;
    req.agent_id = placed->agent_id;
    req.session_type = strcmp(session.type, "BATCH") == 0       ? "batch"
                       : strcmp(session.type, "INFERENCE") == 0 ? "inference"
                                                                : "interactive";
    req.cluster_role = placed->cluster_role;
    req.cluster_idx = placed->cluster_idx;
    req.cluster_size = size ? size : 1;
    req.cluster_mode = *session.cluster_mode ? session.cluster_mode : NULL;
    req.cluster_hosts = *hosts ? hosts : NULL;
    req.image = session.image;
    req.architecture = session.architecture;
    req.shmem_bytes = session.shmem_bytes;
    req.environ = s_json_map(session.environ, &req.owned_, &req.environ_count);
    req.startup_command = session.startup_command && *session.startup_command
                              ? session.startup_command
                              : NULL;
    req.access_key = session.access_key;
    req.user_uuid = session.user_uuid;
    req.domain_name = session.domain_name;
    req.group_id = session.group_id;
    req.bootstrap_script = session.bootstrap_script && *session.bootstrap_script
                               ? session.bootstrap_script
                               : NULL;
    bool mounts_ok = false, dotfiles_ok = false;
    req.mounts = sched_wire_kernel_mounts(session.mounts, &req.owned_, &req.mounts_count,
                                          &mounts_ok);
    req.dotfiles = sched_wire_kernel_dotfiles(session.dotfiles, &req.owned_,
                                              &req.dotfiles_count, &dotfiles_ok);
    req.model_service =
        session.model_service && *session.model_service ? session.model_service : NULL;
    bus_writer_t *writer = bus_writer_new();
    sched_call_t *call =
        sched_calls_prepare(self->calls, placed->session_id, placed->kernel_id);
    if (call)
        snprintf(call->agent_id, sizeof call->agent_id, "%s", placed->agent_id);
    //  A session's folders or dotfiles that cannot be read are no reason to
    //  start it without them.
    bool sent = mounts_ok && dotfiles_ok && writer && call && *session.addr &&
                proto_kernel_create_req_write(&req, writer) == 0 &&
                sched_calls_send(self->calls, call, session.addr, PROTO_KERNEL_CREATE,
                                 writer, s_on_created, self);
    if (!sent && call) {
        //  The call never left: answer it as the agent's failure would be.
        bus_reply_t failed = {
            BUS_STATUS_UNAVAILABLE, "the agent is not reachable", NULL, 0, 0, 0};
        s_on_created(self, call, &failed);
    }
    bus_writer_destroy(&writer);
    proto_kernel_create_req_clear(&req);
    sched_db_create_clear(&session);
}

//  ---------------------------------------------------------------------------
//  kernel.destroy

static void
s_on_destroyed(void *arg, sched_call_t *call, const bus_reply_t *reply)
{
    sched_kernels_t *self = arg;
    //  The agent's kernel.terminated ends it; but an agent that does not
    //  know the kernel any more will never say so. Only the agent itself
    //  may say so: an address not confirmed by a heartbeat to this process
    //  (an earlier run's, or one the agent has since left) may be another
    //  service's now, whose "unknown method" is no news of the kernel. Such
    //  a kernel stays TERMINATING for the reconciliation, which asks the
    //  agent where it listens once it is heard from.
    bool not_found = reply->status == BUS_STATUS_NOT_FOUND;
    if (not_found && !sched_db_agents_confirmed(self->db, call->kernel_id, call->endpoint,
                                                self->heard_since_us))
        bus_log_notice("kernel destroy answered not found by an address its agent has not"
                       " confirmed; left to the reconciliation kernel=%s addr=%s",
                       call->kernel_id, call->endpoint);
    else if (not_found &&
             sched_db_kernels_current(self->db, call->kernel_id) ==
                 SCHED_KERNEL_TERMINATING &&
             bus_node_begin(self->node) == 0) {
        sched_lifecycle_move(self->lifecycle, call->kernel_id, SCHED_KERNEL_TERMINATED,
                             "already-terminated", NULL, NULL);
        bus_node_commit(self->node);
    } else if (reply->status != BUS_OK)
        bus_log_warning("kernel destroy failed kernel=%s status=%d detail=\"%s\"",
                        call->kernel_id, reply->status, reply->detail);
    sched_calls_done(&call);
}

void
sched_kernels_terminate(sched_kernels_t *self,
                        const char *session_id,
                        const char *kernel_id,
                        const char *addr,
                        const char *reason,
                        int grace_ms)
{
    assert(self);
    proto_kernel_destroy_req_t kill;
    proto_kernel_destroy_req_init(&kill);
    kill.kernel_id = kernel_id;
    kill.reason = reason;
    if (grace_ms >= 0)
        kill.grace_ms = (uint64_t) grace_ms;
    bus_writer_t *writer = bus_writer_new();
    sched_call_t *call = sched_calls_prepare(self->calls, session_id, kernel_id);
    if (!(writer && call && proto_kernel_destroy_req_write(&kill, writer) == 0 &&
          sched_calls_send(self->calls, call, addr, PROTO_KERNEL_DESTROY, writer,
                           s_on_destroyed, self)))
        sched_calls_done(&call);
    bus_writer_destroy(&writer);
}

void
sched_kernels_set_heard_since(sched_kernels_t *self, int64_t since_us)
{
    assert(self);
    self->heard_since_us = since_us;
}

int
sched_kernels_end_session(sched_kernels_t *self,
                          const char *session_id,
                          const char *reason,
                          bool forced)
{
    assert(self);
    int status = sched_db_sessions_status(self->db, session_id);
    if (status < 0)
        return BUS_STATUS_NOT_FOUND;
    if (sched_session_is_dead(status))
        return BUS_OK;
    sched_db_kernel_t kernels[SCHED_CLUSTER_MAX];
    int found = sched_db_kernels_live(self->db, session_id, kernels, SCHED_CLUSTER_MAX);
    if (found < 0)
        return BUS_STATUS_INTERNAL;
    size_t count = (size_t) found;
    if (bus_node_begin(self->node) != 0)
        return BUS_STATUS_UNAVAILABLE;
    bool ask[SCHED_CLUSTER_MAX] = {false};
    for (size_t i = 0; i < count; i++) {
        if (status == SCHED_SESSION_PENDING)
            sched_lifecycle_move(self->lifecycle, kernels[i].id, SCHED_KERNEL_CANCELLED,
                                 reason, NULL, NULL);
        else if (!*kernels[i].addr || forced)
            sched_lifecycle_move(self->lifecycle, kernels[i].id, SCHED_KERNEL_TERMINATED,
                                 *kernels[i].addr ? reason : "agent-lost", NULL, NULL);
        else {
            sched_lifecycle_move(self->lifecycle, kernels[i].id, SCHED_KERNEL_TERMINATING,
                                 reason, NULL, NULL);
            ask[i] = true;
        }
        ask[i] =
            ask[i] || (forced && *kernels[i].addr && status != SCHED_SESSION_PENDING);
    }
    bus_node_commit(self->node);
    for (size_t i = 0; i < count; i++)
        if (ask[i])
            sched_kernels_terminate(self, session_id, kernels[i].id, kernels[i].addr,
                                    reason, forced ? 0 : -1);
    return BUS_OK;
}
