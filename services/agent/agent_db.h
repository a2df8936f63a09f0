/*  =========================================================================
    agent_db - the agent's own database: the kernels it runs

    Two tables. kernels: a row per kernel this agent started and has not
    ended, written in the same transaction as the kernel's durable
    kernel.started and deleted in the one of its kernel.terminated (the
    caller opens it with bus_node_begin, so that the events commit with
    the rows). A restarted agent reads it to adopt what still runs; the
    heartbeat sums the slots its rows were given. ended_logs: the end of
    the container log of each kernel that ended (agent.ended_log_max_bytes
    at most), written in kernel.terminated's transaction, so that
    kernel.logs answers after the container is gone and after a restart;
    the heartbeat expires rows older than agent.ended_log_retention_s. Every statement of
   the agent lives here, prepared once (bus_db_stmt caches them).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_DB_H_INCLUDED
#define AGENT_DB_H_INCLUDED

#include "bus.h"

//  The agent's schema (bus_service_t.migrations); bump the count with every
//  migration appended in agent_db.c (a static assertion checks).
#define AGENT_DB_MIGRATION_COUNT 4

extern const bus_db_migration_t agent_db_migrations[];

//  One row of kernels. Strings are borrowed: the caller's when writing, the
//  statement's (valid during the callback) when reading.
typedef struct {
    const char *id;
    const char *session_id;
    const char *image;         //  the reference kernel.create named
    const char *digest;        //  its manifest digest (the unpack cache's key)
    const char *ip;            //  "" when none
    const char *session_type;  //  "interactive", "batch"...
    int64_t created_at;        //  wall-clock µs, kernel.started's
    const char *slots;         //  kernel.create's slots, a JSON object of decimals
    const char *accel;         //  its accelerators' allocation, stored form
    const char *model_service; //  an inference kernel's (kernel.create's), NULL: none
} agent_db_kernel_t;

//  Called for each row read; row is borrowed and the statement is still
//  being stepped, so fn must not use the database.
typedef void(agent_db_kernel_fn)(const agent_db_kernel_t *row, void *arg);

//  Called for each slot of each row: name and its amount as stored (text).
typedef void(agent_db_slot_fn)(const char *name, const char *amount, void *arg);

//  ---------------------------------------------------------------------------
//  Writes kernel's row (replacing one of that id). 0, or -1 logged.
int agent_db_kernel_insert(bus_db_t *db, const agent_db_kernel_t *kernel);

//  Deletes kernel_id's row. 0 (also when there was none), or -1 logged.
int agent_db_kernel_delete(bus_db_t *db, const char *kernel_id);

//  ---------------------------------------------------------------------------
//  Keeps the end of an ended kernel's container log (log borrowed; NULL or
//  size 0: an empty log), replacing one of that id. 0, or -1 logged.
int agent_db_ended_log_insert(bus_db_t *db,
                              const char *kernel_id,
                              const char *session_id,
                              int64_t ended_at,
                              const uint8_t *log,
                              size_t size);

//  ---------------------------------------------------------------------------
//  An ended kernel's kept log, at most its last max bytes, in *log_p (fresh,
//  NUL-free allocation of *size_p + 1 bytes; the caller frees it). 0 found,
//  1 not kept (none was, or it expired), -1 on failure (logged).
int agent_db_ended_log_get(
    bus_db_t *db, const char *kernel_id, size_t max, uint8_t **log_p, size_t *size_p);

//  ---------------------------------------------------------------------------
//  Deletes the kept logs of kernels that ended before (wall µs). Returns the
//  rows deleted, or -1 logged.
int64_t agent_db_ended_logs_expire(bus_db_t *db, int64_t before);

//  ---------------------------------------------------------------------------
//  True when the table has a row.
bool agent_db_kernels_any(bus_db_t *db);

//  How many rows the table has.
uint64_t agent_db_kernels_count(bus_db_t *db);

//  Calls fn for every row (id, session_id, digest, ip and accel filled; the
//  rest NULL or 0). 0, or -1 logged when the table cannot be read.
int agent_db_kernels_each(bus_db_t *db, agent_db_kernel_fn *fn, void *arg);

//  Calls fn for every text amount in every row's slots.
void agent_db_slots_each(bus_db_t *db, agent_db_slot_fn *fn, void *arg);

#endif
