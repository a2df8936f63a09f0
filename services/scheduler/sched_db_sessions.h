/*  =========================================================================
    sched_db_sessions - sessions and kernels in the scheduler's database

    The writes of the session lifecycle, each one transaction: a new
    session with its kernel and what the kernel asks for (PENDING); a
    scheduling pass that places pending sessions and writes their
    allocation rows with the SCHEDULED transition; kernel transitions, which
    recompute the session's status from its kernels (sched_status) and
    delete the allocation rows when a kernel ends. A transition the state
    machine forbids is refused, not stored. The bus and the agents sit on
    top of this; nothing here does I/O beyond the database.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_DB_SESSIONS_H_INCLUDED
#define SCHED_DB_SESSIONS_H_INCLUDED

#include "bus.h"
#include "sched_model.h"
#include "sched_status.h"

#define SCHED_ID_MAX   64
#define SCHED_NAME_MAX 256 //  a session's or a domain's name, as events carry it

//  A new session: its main kernel is kernel_id (cluster_role main, index
//  1); a cluster's other kernels (sub, 2..cluster_size) get fresh UUIDs.
//  Strings are borrowed; NULL optional ones take the schema's defaults.
typedef struct {
    const char *session_id;
    const char *kernel_id;
    const char *name;
    const char *access_key;
    const char *user_uuid;
    const char *domain_name;
    const char *group_id;
    const char *scaling_group;
    const char *type; //  INTERACTIVE or BATCH
    const char *image;
    const char *architecture;
    const char *environ;       //  JSON object text
    const char *resource_opts; //  JSON object text
    const char *startup_command;
    const char *preopen_ports;     //  JSON array text; NULL: none
    const char *bootstrap_script;  //  NULL: none
    const sched_amount_t *request; //  what each kernel asks for
    size_t request_count;
    int priority;             //  0..100; the schema's 10 when the caller gives 10
    const char *cluster_mode; //  single-node (NULL) or multi-node
    uint32_t cluster_size;    //  kernels: 0 or 1 for one; the main is kernel_id
    int64_t starts_at_us;     //  not placed before (0: now)
    const char *dependencies; //  JSON array of session ids; NULL: none
    int64_t batch_timeout_s;  //  0: none
    const char *limits;       //  JSON: the owner's limits (sched_db_snapshot); NULL: none
    const char *mounts;       //  JSON array, passed to kernel.create; NULL: none
    const char *tag;          //  the user's tag; NULL: none
} sched_session_spec_t;

//  Inserts the session, its kernel and its requests as PENDING at now_us.
//  CONFLICT when the owner already has a live session of that name (or the
//  ids exist); INVALID for a malformed spec.
int sched_db_sessions_insert(bus_db_t *db,
                             const sched_session_spec_t *spec,
                             int64_t now_us,
                             bus_error_t *err);

//  Renames a RUNNING session. NOT_FOUND for an unknown id, CONFLICT when
//  it does not run or its owner has another live session of that name.
int sched_db_sessions_rename(bus_db_t *db,
                             const char *session_id,
                             const char *name,
                             bus_error_t *err);

//  Moves a kernel to status (status_info and status_data, a JSON object
//  text, optional), recomputes its session's status, and deletes the
//  kernel's allocation rows when it no longer occupies them. NOT_FOUND for
//  an unknown kernel, INVALID for a transition the state machine forbids;
//  the same status again is BUS_OK and changes nothing.
int sched_db_sessions_kernel_status(bus_db_t *db,
                                    const char *kernel_id,
                                    sched_kernel_status_t status,
                                    const char *status_info,
                                    const char *status_data,
                                    int64_t now_us,
                                    bus_error_t *err);

//  What a kernel transition (sched_db_sessions_kernel_move) found and did,
//  for the events that tell it: the kernel's status before, its session's
//  status before and after, and the session's owner and the kernel's place
//  in its cluster as the events carry them.
typedef struct {
    sched_kernel_status_t kernel_from;
    sched_session_status_t session_from;
    sched_session_status_t session_to; //  session_from when it did not move
    char session_id[SCHED_ID_MAX];
    char name[SCHED_NAME_MAX];
    char access_key[SCHED_ID_MAX];
    char domain_name[SCHED_NAME_MAX];
    char group_id[SCHED_ID_MAX];
    char cluster_role[8];
    int64_t cluster_idx;
    int64_t cluster_size; //  the session's kernels
} sched_move_t;

//  sched_db_sessions_kernel_status, saying in *out (when given) what it found
//  and changed; on BUS_OK with kernel_from == status nothing changed. Reads
//  the kernel and its session once, and its siblings only for a cluster.
int sched_db_sessions_kernel_move(bus_db_t *db,
                                  const char *kernel_id,
                                  sched_kernel_status_t status,
                                  const char *status_info,
                                  const char *status_data,
                                  int64_t now_us,
                                  sched_move_t *out,
                                  bus_error_t *err);

//  sched_db_sessions_kernel_move, only from the kernel statuses in from_mask
//  (bit 1 << status; SCHED_KERNEL_FROM_ANY for all): a kernel in another
//  status is left as it is (BUS_OK, kernel_from says where it is), so a
//  caller that would move it only from some statuses reads it once. The
//  kernel's container_id and kernel_host, when not NULL, are written with
//  the move (in the same row update); not when it does not move.
#define SCHED_KERNEL_FROM_ANY (~0u)
int sched_db_sessions_kernel_move_from(bus_db_t *db,
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

//  The session's status, or -1 when there is no such session.
int sched_db_sessions_status(bus_db_t *db, const char *session_id);

//  A kernel's status, or -1 when there is no such kernel.
int sched_db_sessions_kernel_current(bus_db_t *db, const char *kernel_id);

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
size_t sched_db_sessions_unsettled(bus_db_t *db,
                                   const char *agent_id,
                                   int64_t before_us,
                                   sched_unsettled_t *out,
                                   size_t max);

//  Fills out (initialized by the caller, cleared with
//  proto_session_info_clear) with session_id's session and its main kernel.
//  BUS_OK or NOT_FOUND.
int
sched_db_sessions_get(bus_db_t *db, const char *session_id, proto_session_info_t *out);

//  Fills out (initialized by the caller, cleared with
//  proto_session_info_clear) with what sched_db_sessions_get reads of a
//  session that sched_db_sessions_insert has just stored from spec at now_us,
//  without reading it: the answer to the session.create that stored it.
//  BUS_OK, or INTERNAL when out of memory.
int sched_db_sessions_info_of(const sched_session_spec_t *spec,
                              int64_t now_us,
                              proto_session_info_t *out);

#endif
