/*  =========================================================================
    sched_db_checkpoint - WAL checkpoints on a thread of their own

    A busy scheduler appends a WAL frame for every page it changes, and
    whoever checkpoints copies those pages into the database file (and
    syncs it). Done by the connection that writes, after the commit that
    crosses wal_autocheckpoint, that copy stalls the loop that places
    sessions. This actor keeps a connection of its own to the same file
    and runs a PASSIVE checkpoint every SCHED_DB_CHECKPOINT_MS: it never
    blocks the writer nor waits for it, and copies only frames every reader
    is past. The writer's own autocheckpoint stays as the bound on the
    WAL's size: it then finds little or nothing left to copy.

    Nothing is shared with the loop but the file: SQLite's locks order the
    two connections, as they would two processes. What is durable is what
    it was (WAL, synchronous = NORMAL); a checkpoint moves committed pages,
    it commits nothing.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_DB_CHECKPOINT_H_INCLUDED
#define SCHED_DB_CHECKPOINT_H_INCLUDED

#include "bus.h"

#define SCHED_DB_CHECKPOINT_MS 200 //  between two checkpoints

typedef struct _sched_db_checkpoint_t sched_db_checkpoint_t;

//  Starts checkpointing the database that db has open, in a thread with
//  its own connection. NULL (logged) when it cannot start, and for an
//  in-memory database, which has no WAL: the writer then checkpoints
//  alone, as it always could. Caller owns the return value.
sched_db_checkpoint_t *sched_db_checkpoint_new(bus_db_t *db);

//  Stops the thread (after the checkpoint under way, if any) and closes
//  its connection. Idempotent; NULLs *self_p.
void sched_db_checkpoint_destroy(sched_db_checkpoint_t **self_p);

#endif
