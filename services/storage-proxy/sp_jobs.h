/*  =========================================================================
    sp_jobs - long file-system work off the event loop

    Cloning a folder, scanning usage and removing a purged folder's tree
    take as long as the tree is big; on the loop they would stall every
    request. A job runs its work function on a thread of its own, then its
    done function on the loop. Nothing is shared while it runs: the job's
    argument belongs to the thread from start until work returns, and to the
    loop again when done runs (the hand-back is a message on a pipe the loop
    watches). Work must not touch the database, the node or the log.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SP_JOBS_H_INCLUDED
#define SP_JOBS_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>

struct event_base;
typedef struct _sp_jobs_t sp_jobs_t;

//  Runs on the job's own thread. It should look at sp_jobs_stopping now and
//  then, and give up early when it says so.
typedef void(sp_jobs_work_fn)(void *arg, sp_jobs_t *jobs);
//  Runs on the loop after work returned; cancelled when the jobs are being
//  destroyed (the service is stopping). It owns arg again and frees it.
typedef void(sp_jobs_done_fn)(void *arg, bool cancelled);

//  ---------------------------------------------------------------------------
//  Watches for finished jobs on base. Caller owns return value, or NULL.
sp_jobs_t *sp_jobs_new(struct event_base *base);

//  Asks running jobs to stop, waits for them, runs every done function
//  left with cancelled set. Idempotent, NULLs the pointer.
void sp_jobs_destroy(sp_jobs_t **self_p);

//  ---------------------------------------------------------------------------
//  Starts work (arg handed over) on a new thread; done follows on the loop.
//  0, or -1 when no thread could start (arg stays the caller's).
int
sp_jobs_start(sp_jobs_t *self, sp_jobs_work_fn *work, sp_jobs_done_fn *done, void *arg);

//  True once destroy began: work should return soon. Any thread.
bool sp_jobs_stopping(sp_jobs_t *self);

//  Jobs started and not yet done.
size_t sp_jobs_running(sp_jobs_t *self);

#endif
