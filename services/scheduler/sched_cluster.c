/*  =========================================================================
    sched_cluster - a cluster session's hostnames, and kernel.hosts once
    every kernel of it has an address

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

#define HOSTS_TIMEOUT_MS 10000 //  kernel.hosts only writes a file
#define SENT_MAX         256   //  sessions whose last map is remembered

//  The map last sent per session, as a hash of its text: the agents'
//  kernel.create replies may bring every address before the kernel.started
//  events do, and then each of those finds the map complete. The same map
//  goes out once; a changed one (a kernel created again, elsewhere) again.
static struct {
    char session_id[SCHED_ID_MAX];
    uint64_t hash;
} s_sent[SENT_MAX];
static size_t s_sent_next;

//  True when text is new for session_id (and remembered from now on).
static bool
s_sent_new(const char *session_id, const char *text)
{
    uint64_t hash = 14695981039346656037ULL; //  FNV-1a
    for (const char *p = text; *p; p++) {
        hash ^= (unsigned char) *p;
        hash *= 1099511628211ULL;
    }
    size_t slot = s_sent_next;
    for (size_t i = 0; i < SENT_MAX; i++)
        if (strcmp(s_sent[i].session_id, session_id) == 0) {
            if (s_sent[i].hash == hash)
                return false;
            slot = i;
            break;
        }
    if (slot == s_sent_next)
        s_sent_next = (s_sent_next + 1) % SENT_MAX;
    snprintf(s_sent[slot].session_id, sizeof s_sent[slot].session_id, "%s", session_id);
    s_sent[slot].hash = hash;
    return true;
}

//  One kernel of the session, in cluster_idx order.
typedef struct {
    char id[SCHED_ID_MAX];
    char role[32];
    char hostname[64];
    char host[64];  //  its address ("" until it has one)
    char addr[256]; //  its agent's endpoint ("" unless ALIVE)
    bool ended;     //  TERMINATING, TERMINATED or CANCELLED
} s_member_t;

//  The session's kernels into members (at most SCHED_CLUSTER_MAX), each
//  named by its role and its index within the role. Returns the count, or
//  -1 when the database failed.
static int
s_members(bus_db_t *db, const char *session_id, s_member_t *members)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        db,
        "SELECT k.id, k.cluster_role, coalesce(k.kernel_host, ''),"
        " coalesce(a.addr, ''),"
        " k.status IN ('TERMINATING', 'TERMINATED', 'CANCELLED')"
        " FROM kernels k LEFT JOIN agents a ON a.id = k.agent_id AND a.status = 'ALIVE'"
        " WHERE k.session_id = ?1 ORDER BY k.cluster_idx, k.id");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, session_id, -1, SQLITE_TRANSIENT);
    int count = 0;
    while (count < SCHED_CLUSTER_MAX && sqlite3_step(stmt) == SQLITE_ROW) {
        s_member_t *member = &members[count];
        const char *role = (const char *) sqlite3_column_text(stmt, 1);
        role = role && *role ? role : "main";
        //  Backend.AI's cluster_hostname: the role and its count so far.
        snprintf(member->role, sizeof member->role, "%s", role);
        int index = 1;
        for (int i = 0; i < count; i++)
            index += strcmp(members[i].role, member->role) == 0;
        snprintf(member->id, sizeof member->id, "%s",
                 (const char *) sqlite3_column_text(stmt, 0));
        snprintf(member->hostname, sizeof member->hostname, "%s%d", member->role, index);
        snprintf(member->host, sizeof member->host, "%s",
                 (const char *) sqlite3_column_text(stmt, 2));
        snprintf(member->addr, sizeof member->addr, "%s",
                 (const char *) sqlite3_column_text(stmt, 3));
        member->ended = sqlite3_column_int(stmt, 4) != 0;
        count++;
    }
    sqlite3_reset(stmt);
    return count;
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
    s_member_t *members = calloc(SCHED_CLUSTER_MAX, sizeof *members);
    int count = members ? s_members(db, session_id, members) : -1;
    int rc = count < 0 ? BUS_STATUS_INTERNAL : count == 0 ? BUS_STATUS_NOT_FOUND : BUS_OK;
    size_t len = 0;
    for (int i = 0; rc == BUS_OK && i < count; i++) {
        int n =
            snprintf(out + len, size - len, "%s%s", i ? "," : "", members[i].hostname);
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
sched_cluster_started(bus_node_t *node, const char *session_id)
{
    assert(node);
    if (!session_id)
        return;
    bus_db_t *db = bus_node_db(node);
    int64_t size = 0;
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT cluster_size FROM sessions WHERE id = ?1");
    if (stmt) {
        sqlite3_bind_text(stmt, 1, session_id, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(stmt) == SQLITE_ROW)
            size = sqlite3_column_int64(stmt, 0);
        sqlite3_reset(stmt);
    }
    if (size <= 1)
        return;
    s_member_t *members = calloc(SCHED_CLUSTER_MAX, sizeof *members);
    int count = members ? s_members(db, session_id, members) : -1;
    //  Not yet (an address missing), or too late (a kernel ended).
    bool ready = count == size;
    for (int i = 0; ready && i < count; i++)
        ready = *members[i].host && !members[i].ended;
    json_t *hosts = ready ? json_object() : NULL;
    for (int i = 0; hosts && i < count; i++)
        json_object_set_new(hosts, members[i].hostname, json_string(members[i].host));
    char *text = hosts ? json_dumps(hosts, JSON_COMPACT) : NULL;
    bus_writer_t *writer = text && s_sent_new(session_id, text) ? bus_writer_new() : NULL;
    for (int i = 0; writer && i < count; i++) {
        proto_kernel_hosts_req_t req;
        proto_kernel_hosts_req_init(&req);
        req.kernel_id = members[i].id; //  borrowed: not cleared
        req.hosts = text;
        bus_writer_reset(writer);
        bool sent = *members[i].addr && proto_kernel_hosts_req_write(&req, writer) == 0 &&
                    bus_node_call(node, members[i].addr, PROTO_KERNEL_HOSTS,
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
