/*  =========================================================================
    sched_db_kernels - kernels in the scheduler's database

    A kernel transition is checked against the state machine, written with
    the status its session takes from its kernels (sched_status), and
    deletes the kernel's allocation rows once it no longer occupies them;
    each is one transaction (or one savepoint of a group commit). Besides
    the transitions: what the calls to agents read of a kernel (what
    kernel.create asks for, where a kernel runs), what the reconciliation
    and the reclamation look for, and what an agent's answer or event
    writes beside a move (where the container runs, its exit code).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_DB_KERNELS_H_INCLUDED
#define SCHED_DB_KERNELS_H_INCLUDED

#include "bus.h"
#include "sched_db_sessions.h"

//  Moves a kernel to status (status_info and status_data, a JSON object
//  text, optional), recomputes its session's status, and deletes the
//  kernel's allocation rows when it no longer occupies them. NOT_FOUND for
//  an unknown kernel, INVALID for a transition the state machine forbids;
//  the same status again is BUS_OK and changes nothing.
int sched_db_kernels_status(bus_db_t *db,
                            const char *kernel_id,
                            sched_kernel_status_t status,
                            const char *status_info,
                            const char *status_data,
                            int64_t now_us,
                            bus_error_t *err);

//  sched_db_kernels_status, saying in *out (when given) what it found
//  and changed; on BUS_OK with kernel_from == status nothing changed. Reads
//  the kernel and its session once, and its siblings only for a cluster.
int sched_db_kernels_move(bus_db_t *db,
                          const char *kernel_id,
                          sched_kernel_status_t status,
                          const char *status_info,
                          const char *status_data,
                          int64_t now_us,
                          sched_move_t *out,
                          bus_error_t *err);

//  sched_db_kernels_move, only from the kernel statuses in from_mask
//  (bit 1 << status; SCHED_KERNEL_FROM_ANY for all): a kernel in another
//  status is left as it is (BUS_OK, kernel_from says where it is), so a
//  caller that would move it only from some statuses reads it once. The
//  kernel's container_id and kernel_host, when not NULL, are written with
//  the move (in the same row update); not when it does not move.
#define SCHED_KERNEL_FROM_ANY (~0u)
int sched_db_kernels_move_from(bus_db_t *db,
                               const char *kernel_id,
                               unsigned from_mask,
                               sched_kernel_status_t status,
                               const char *status_info,
                               const char *status_data,
                               const char *container_id,
                               const char *kernel_host,
                               int64_t now_us,
                               sched_move_t *out,
                               bus_error_t *err);

//  Puts kernel_id, being created (SCHED_KERNEL_CREATING) as the one kernel
//  of its session, back in the queue with its session, because its agent
//  refused it for want of room: both PENDING again, the kernel on no agent,
//  its allocation rows deleted; the session's status_info
//  no-available-instances and status_data.scheduler.msg msg, its try
//  counted at now_us (so a pass's own reason replaces it only a retry
//  later). Inside the caller's transaction. BUS_OK; BUS_STATUS_NOT_FOUND
//  when it is no such kernel (of a cluster, or no longer being created),
//  nothing changed then; INTERNAL.
int sched_db_kernels_requeue(bus_db_t *db,
                             const char *kernel_id,
                             const char *msg,
                             int64_t now_us);

//  A kernel's status, or -1 when there is no such kernel.
int sched_db_kernels_current(bus_db_t *db, const char *kernel_id);

//  A kernel in a transitional status (being created, restarted or
//  destroyed), as the reconciliation sees it.
typedef struct {
    char kernel_id[SCHED_ID_MAX];
    char session_id[SCHED_ID_MAX];
    char status_info[64]; //  its reason so far; "" when none
    sched_kernel_status_t status;
    int64_t since_us; //  when it entered that status
} sched_unsettled_t;

//  The kernels placed on agent_id that have been SCHEDULED, PREPARING,
//  BUILDING, PULLING, RESTARTING or TERMINATING since before before_us,
//  longest first:
//  fills out with at most max of them and returns how many. A kernel in
//  such a status is waiting for its agent; one that waits too long was
//  probably left behind by a lost message.
size_t sched_db_kernels_unsettled(bus_db_t *db,
                                  const char *agent_id,
                                  int64_t before_us,
                                  sched_unsettled_t *out,
                                  size_t max);

//  A kernel as a call to its agent needs it; each query fills the members
//  it names.
typedef struct {
    char id[SCHED_ID_MAX];
    char session_id[SCHED_ID_MAX];
    char cluster_role[8];
    uint32_t cluster_idx;
    char addr[256]; //  its agent's endpoint while the agent is ALIVE, else ""
} sched_db_kernel_t;

//  The kernels of session_id that have not ended (id, addr), in cluster
//  order: at most max into out. Returns how many, -1 on a database error.
int sched_db_kernels_live(bus_db_t *db,
                          const char *session_id,
                          sched_db_kernel_t *out,
                          size_t max);

//  The kernels placed on agent_id that still hold slots (id, session_id):
//  at most max into out. Returns how many.
size_t sched_db_kernels_holding(bus_db_t *db,
                                const char *agent_id,
                                sched_db_kernel_t *out,
                                size_t max);

//  The kernels of session_id (id, cluster_role, cluster_idx) in cluster
//  order: at most max into out. Returns how many, -1 on a database error.
int sched_db_kernels_of_session(bus_db_t *db,
                                const char *session_id,
                                sched_db_kernel_t *out,
                                size_t max);

//  The place of kernel_id in its cluster into kernel (cluster_role,
//  cluster_idx); left as it is when there is no such kernel.
void
sched_db_kernels_place(bus_db_t *db, const char *kernel_id, sched_db_kernel_t *kernel);

//  The agent kernel_id was placed on into out ("" when none yet). Returns
//  0, -1 when there is no such kernel.
int sched_db_kernels_agent(bus_db_t *db, const char *kernel_id, char *out, size_t size);

//  One kernel of a cluster session as its hostnames are made of it.
typedef struct {
    char id[SCHED_ID_MAX];
    char role[32];  //  cluster_role; "" read as main
    char host[64];  //  its address ("" until it has one)
    char addr[256]; //  its agent's endpoint ("" unless ALIVE)
    bool ended;     //  TERMINATING, TERMINATED or CANCELLED
} sched_db_member_t;

//  The kernels of session_id in cluster_idx order: at most max into out.
//  Returns how many, -1 on a database error.
int sched_db_kernels_members(bus_db_t *db,
                             const char *session_id,
                             sched_db_member_t *out,
                             size_t max);

//  What kernel_id asks for, as a slot map in the arena *owned of the message
//  it goes into (its clear frees it). Nothing for an unknown kernel.
void sched_db_kernels_requests(bus_db_t *db,
                               const char *kernel_id,
                               void **owned,
                               const proto_kv_t **map,
                               size_t *count);

//  The session of kernel_id and the cpu it asks for (thousandths), for the
//  reclamation's utilization checks. False for an unknown kernel.
bool sched_db_kernels_use(bus_db_t *db,
                          const char *kernel_id,
                          char *session_id,
                          size_t size,
                          int64_t *cpus_milli);

//  Writes where kernel_id runs as the agent's answer says it (both values
//  as given, "" included), unless that is what the row says already.
void sched_db_kernels_set_container(bus_db_t *db,
                                    const char *kernel_id,
                                    const char *container_id,
                                    const char *kernel_host);

//  The same from an event that may leave either out: NULL keeps the row's.
void sched_db_kernels_merge_container(bus_db_t *db,
                                      const char *kernel_id,
                                      const char *container_id,
                                      const char *kernel_host);

//  Records the exit code of kernel_id.
void sched_db_kernels_set_exit_code(bus_db_t *db, const char *kernel_id, int64_t code);

#endif
