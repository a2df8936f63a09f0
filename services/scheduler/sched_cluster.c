/*  =========================================================================
    sched_cluster - a cluster session's hostnames, and kernel.hosts once
    every kernel of it has an address

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

#define HOSTS_TIMEOUT_MS 10000 //  kernel.hosts only writes a file

struct _sched_cluster_t {
    bus_node_t *node;
    //  The map last sent per session, as a hash of its text: the agents'
    //  kernel.create replies may bring every address before the
    //  kernel.started events do, and then each of those finds the map
    //  complete. The same map goes out once; a changed one (a kernel
    //  created again, elsewhere) again.
    struct {
        char session_id[SCHED_ID_MAX];
        uint64_t hash;
    } sent[SCHED_CLUSTER_SENT_MAX];
    size_t sent_next;
};

sched_cluster_t *
sched_cluster_new(bus_node_t *node)
{
    assert(node);
    sched_cluster_t *self = calloc(1, sizeof *self);
    if (self)
        self->node = node;
    return self;
}

void
sched_cluster_destroy(sched_cluster_t **self_p)
{
    assert(self_p);
    free(*self_p);
    *self_p = NULL;
}

//  True when text is new for session_id (and remembered from now on).
static bool
s_sent_new(sched_cluster_t *self, const char *session_id, const char *text)
{
    uint64_t hash = 14695981039346656037ULL; //  FNV-1a
    for (const char *p = text; *p; p++) {
        hash ^= (unsigned char) *p;
        hash *= 1099511628211ULL;
    }
    size_t slot = self->sent_next;
    for (size_t i = 0; i < SCHED_CLUSTER_SENT_MAX; i++)
        if (strcmp(self->sent[i].session_id, session_id) == 0) {
            if (self->sent[i].hash == hash)
                return false;
            slot = i;
            break;
        }
    if (slot == self->sent_next)
        self->sent_next = (self->sent_next + 1) % SCHED_CLUSTER_SENT_MAX;
    snprintf(self->sent[slot].session_id, sizeof self->sent[slot].session_id, "%s",
             session_id);
    self->sent[slot].hash = hash;
    return true;
}

//  The session's kernels into members (at most SCHED_CLUSTER_MAX), each
//  named by its role and its index within the role (Backend.AI's
//  cluster_hostname: the role and its count so far). Returns the count,
//  or -1 when the database failed.
static int
s_members(bus_db_t *db, const char *session_id, sched_db_member_t *members)
{
    int count = sched_db_kernels_members(db, session_id, members, SCHED_CLUSTER_MAX);
    for (int i = 0; i < count; i++) {
        sched_db_member_t *member = &members[i];
        if (!*member->role)
            snprintf(member->role, sizeof member->role, "main");
    }
    return count;
}

//  The hostname of members[i]: its role and its index within the role.
static void
s_hostname(const sched_db_member_t *members, int i, char *out, size_t size)
{
    int index = 1;
    for (int j = 0; j < i; j++)
        index += strcmp(members[j].role, members[i].role) == 0;
    snprintf(out, size, "%s%d", members[i].role, index);
}

//  ---------------------------------------------------------------------------
//  The hostnames of a session's kernels, comma-separated.

int
sched_cluster_hosts(bus_db_t *db, const char *session_id, char *out, size_t size)
{
    assert(db);
    assert(session_id);
    assert(out && size > 0);
    *out = '\0';
    sched_db_member_t *members = calloc(SCHED_CLUSTER_MAX, sizeof *members);
    int count = members ? s_members(db, session_id, members) : -1;
    int rc = count < 0 ? BUS_STATUS_INTERNAL : count == 0 ? BUS_STATUS_NOT_FOUND : BUS_OK;
    size_t len = 0;
    for (int i = 0; rc == BUS_OK && i < count; i++) {
        char hostname[64];
        s_hostname(members, i, hostname, sizeof hostname);
        int n = snprintf(out + len, size - len, "%s%s", i ? "," : "", hostname);
        if (n < 0 || (size_t) n >= size - len)
            rc = BUS_STATUS_INTERNAL;
        else
            len += (size_t) n;
    }
    if (rc != BUS_OK)
        *out = '\0';
    free(members);
    return rc;
}

//  ---------------------------------------------------------------------------
//  kernel.hosts to every kernel of a cluster that has all its addresses.

static void
s_on_hosts(void *arg, const bus_reply_t *reply)
{
    (void) arg;
    if (reply->status != BUS_OK)
        bus_log_warning("kernel.hosts failed status=%d detail=\"%s\"", reply->status,
                        reply->detail ? reply->detail : "");
}

void
sched_cluster_started(sched_cluster_t *self, const char *session_id)
{
    assert(self);
    if (!session_id)
        return;
    bus_db_t *db = bus_node_db(self->node);
    int64_t size = sched_db_sessions_cluster_size(db, session_id);
    if (size <= 1)
        return;
    sched_db_member_t *members = calloc(SCHED_CLUSTER_MAX, sizeof *members);
    int count = members ? s_members(db, session_id, members) : -1;
    //  Not yet (an address missing), or too late (a kernel ended).
    bool ready = count == size;
    for (int i = 0; ready && i < count; i++)
        ready = *members[i].host && !members[i].ended;
    json_t *hosts = ready ? json_object() : NULL;
    for (int i = 0; hosts && i < count; i++) {
        char hostname[64];
        s_hostname(members, i, hostname, sizeof hostname);
        json_object_set_new(hosts, hostname, json_string(members[i].host));
    }
    char *text = hosts ? json_dumps(hosts, JSON_COMPACT) : NULL;
    bus_writer_t *writer =
        text && s_sent_new(self, session_id, text) ? bus_writer_new() : NULL;
    for (int i = 0; writer && i < count; i++) {
        proto_kernel_hosts_req_t req;
        proto_kernel_hosts_req_init(&req);
        req.kernel_id = members[i].id;
        req.hosts = text;
        bus_writer_reset(writer);
        bool sent = *members[i].addr && proto_kernel_hosts_req_write(&req, writer) == 0 &&
                    bus_node_call(self->node, members[i].addr, PROTO_KERNEL_HOSTS,
                                  bus_writer_data(writer), bus_writer_size(writer),
                                  HOSTS_TIMEOUT_MS, s_on_hosts, NULL) != 0;
        if (!sent)
            bus_log_warning("kernel.hosts not sent session=%s kernel=%s agent=%s",
                            session_id, members[i].id,
                            *members[i].addr ? members[i].addr : "(not alive)");
    }
    if (writer)
        bus_log_info("cluster hosts sent session=%s kernels=%d hosts=%s", session_id,
                     count, text);
    bus_writer_destroy(&writer);
    free(text);
    json_decref(hosts);
    free(members);
}
