/*  =========================================================================
    sched_db_sessions - sessions in the scheduler's database

    The session store: a new session is inserted PENDING in one
    transaction (or one savepoint of a group commit) with its kernels (a
    cluster's sub kernels get UUIDs of their own, cluster_role sub,
    cluster_idx 2..n), what each asks for, and the owner's limits as the
    gateway resolved them, kept per scope (the latest submission's in
    force); its name is unique among the owner's live sessions. A rename,
    the reads of a session as session.get answers it, and what the other
    modules read or write of a session: the owner its events carry, what
    kernel.create asks an agent for, a pass's failed tries, a batch
    session's result, and the sessions the reclamation ends. Kernel
    transitions, which move the session's status with its kernels, are
    sched_db_kernels'; the allocation rows a placement writes are
    sched_db_ledger's. Nothing here does I/O beyond the database.

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
    const char *dotfiles;     //  JSON array, passed to kernel.create; NULL: none
    const char *model_service; //  INFERENCE: JSON, passed to kernel.create; NULL: none
    const char *tag;           //  the user's tag; NULL: none
    const char *spread;        //  its spread group (sched_pass.h); NULL: none
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

//  The session's status, or -1 when there is no such session.
int sched_db_sessions_status(bus_db_t *db, const char *session_id);

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

//  What a kernel transition (sched_db_kernels_move) found and did,
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

//  The owner of session_id as events carry it, into move (its other
//  members cleared). BUS_OK, NOT_FOUND or INTERNAL.
int sched_db_sessions_owner(bus_db_t *db, const char *session_id, sched_move_t *move);

//  What accounting needs of kernel_id beyond its owner (session.lifecycle's
//  user_uuid, scaling_group, image, agent_id and slots): step's fields are
//  set to copies in its arena, which proto_session_lifecycle_clear frees.
//  Nothing is set for an unknown kernel.
void sched_db_sessions_kernel_facts(bus_db_t *db,
                                    const char *kernel_id,
                                    proto_session_lifecycle_t *step);

//  The same with the session's status and, when kernel_id is one of its
//  kernels, that kernel's place in the cluster (cluster_role, cluster_idx):
//  what an event that no kernel transition tells carries. Returns the
//  session's status, -1 when there is no such session.
int sched_db_sessions_event_of(bus_db_t *db,
                               const char *session_id,
                               const char *kernel_id,
                               sched_move_t *move);

//  What kernel.create asks an agent for, read at once from the session
//  (and where the agent answers): the strings are owned (free with
//  sched_db_create_clear), NULL for a NULL column.
typedef struct {
    char addr[256]; //  the agent's endpoint; "" when the agent is unknown
    char cluster_mode[16];
    uint64_t cluster_size;
    uint64_t shmem_bytes; //  resource_opts.shmem
    char *environ;        //  JSON object text
    char *startup_command;
    char *bootstrap_script;
    char *mounts;        //  JSON array text
    char *dotfiles;      //  JSON array text, NULL: none
    char *model_service; //  JSON object text, NULL: none
    char *name;
    char *type;
    char *image;
    char *architecture;
    char *access_key;
    char *user_uuid;
    char *domain_name;
    char *group_id;
} sched_db_create_t;

//  Fills out for session_id placed on agent_id. False when there is no
//  such session (out then holds nothing to free).
bool sched_db_sessions_create_request(bus_db_t *db,
                                      const char *session_id,
                                      const char *agent_id,
                                      sched_db_create_t *out);

//  Frees what sched_db_sessions_create_request read. Idempotent.
void sched_db_create_clear(sched_db_create_t *self);

//  The session of access_key named name: the live one first, else the
//  latest that ended; its id into id (size bytes). False when none.
bool sched_db_sessions_find(
    bus_db_t *db, const char *access_key, const char *name, char *id, size_t size);

//  Whether session_id is a BATCH session (false also when unknown).
bool sched_db_sessions_is_batch(bus_db_t *db, const char *session_id);

//  Records a batch session's result: SUCCESS, or FAILURE.
void sched_db_sessions_set_result(bus_db_t *db, const char *session_id, bool success);

//  The number of kernels of session_id (cluster_size); 0 when unknown.
int64_t sched_db_sessions_cluster_size(bus_db_t *db, const char *session_id);

//  Where a RUNNING session restarts: the endpoint of agent_id when it is
//  ALIVE into addr, and a batch session's startup command (else "") into
//  command. False when the agent is not ALIVE or the session is unknown.
bool sched_db_sessions_restart_target(bus_db_t *db,
                                      const char *session_id,
                                      const char *agent_id,
                                      char *addr,
                                      size_t addr_size,
                                      char *command,
                                      size_t command_size);

//  Records a failed try of a PENDING session by a pass at now_us: its
//  retries, its head-of-line counter (skipped), status_info and, when
//  given, status_data. False on a database error.
bool sched_db_sessions_tried(bus_db_t *db,
                             const char *session_id,
                             int64_t retries,
                             int64_t skipped,
                             int64_t now_us,
                             const char *status_info,
                             const char *status_data);

//  Calls fn with each PENDING session one of whose dependencies ended
//  without success (it can never start), until fn returns false.
void sched_db_sessions_failed_dependencies(bus_db_t *db, sched_db_id_fn *fn, void *arg);

//  A RUNNING session some reclamation rule may apply to.
typedef struct {
    const char *id; //  borrowed: valid during the call only
    bool batch;
    int64_t created_at;
    int64_t running_since; //  status_changed
    int64_t batch_timeout; //  seconds; 0: none
    int64_t idle_timeout;  //  the keypair policy's, seconds; 0: none
    int64_t lifetime;      //  max_session_lifetime, seconds; 0: none
    const char *scaling_group;
} sched_db_running_t;

//  Return false to stop.
typedef bool(sched_db_running_fn)(void *arg, const sched_db_running_t *row);

//  Calls fn with each RUNNING session that has a batch_timeout, a keypair
//  policy with idle_timeout or max_session_lifetime, or a resource group
//  with a utilization rule (sched_db_sgroups_utilization).
void sched_db_sessions_reclaimable(bus_db_t *db, sched_db_running_fn *fn, void *arg);

#endif
