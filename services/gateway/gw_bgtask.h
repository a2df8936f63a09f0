/*  =========================================================================
    gw_bgtask - background tasks and who watches them

    Backend.AI's background tasks (common/bgtask.py): an operation that
    answers at once with a task id (GraphQL rescan_images) and reports its
    progress and its end on GET /events/background-task?task_id= as
    Server-Sent Events: bgtask_updated {task_id, message, current_progress,
    total_progress} while it runs, then one of bgtask_done or bgtask_failed,
    each followed by server_close {}. A stream opened on a running task gets
    its last update at once; on a finished one, its end and server_close.

    The tasks live in the gateway's memory, on the loop: a finished task is
    kept GW_BGTASK_KEEP_S (Backend.AI keeps its results 24 h in Redis) and
    at most GW_BGTASKS_MAX tasks are kept (the oldest finished go first); a
    gateway restart forgets them all, and their ids then answer 404.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_BGTASK_H_INCLUDED
#define GW_BGTASK_H_INCLUDED

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include "bus.h"

#define GW_BGTASK_KEEP_S       (24 * 3600)
#define GW_BGTASKS_MAX         1024
#define GW_BGTASK_ID_SIZE      37
#define GW_BGTASK_WATCHERS_MAX 64 //  streams on one task

typedef struct _gw_bgtasks_t gw_bgtasks_t;

//  A watcher gets each event: its name and its data (borrowed). last is
//  true for the end; the task forgets the watcher right after.
typedef void(gw_bgtask_watch_fn)(void *arg, const char *event, json_t *data, bool last);

//  When the registry is destroyed with the task still running, drop(job)
//  lets its owner cancel what is in flight and free job.
typedef void(gw_bgtask_drop_fn)(void *job);

gw_bgtasks_t *gw_bgtasks_new(void);

//  Destroys every task; running ones have their drop called. Idempotent.
void gw_bgtasks_destroy(gw_bgtasks_t **self_p);

//  Starts a task: its fresh id is written to id. drop and job may be NULL.
//  0, or -1 when every kept task is running and none can make room.
int gw_bgtasks_start(gw_bgtasks_t *self,
                     gw_bgtask_drop_fn *drop,
                     void *job,
                     char id[GW_BGTASK_ID_SIZE]);

//  Progress of a running task (bgtask_updated to its watchers).
void gw_bgtasks_update(gw_bgtasks_t *self,
                       const char *id,
                       int64_t current,
                       int64_t total,
                       const char *message);

//  Ends a running task: bgtask_done when ok, else bgtask_failed, then
//  server_close; its drop is forgotten (the job is its owner's again).
void gw_bgtasks_finish(gw_bgtasks_t *self, const char *id, bool ok, const char *message);

//  True when the registry has the task (running or kept).
bool gw_bgtasks_has(gw_bgtasks_t *self, const char *id);

//  Watches a task. The events already due (the last update, or the end)
//  reach fn before this returns; for a finished task fn sees last and the
//  watch is over at once. BUS_OK, BUS_STATUS_NOT_FOUND (no such task) or
//  BUS_STATUS_UNAVAILABLE (too many watchers; fn never runs).
int
gw_bgtasks_watch(gw_bgtasks_t *self, const char *id, gw_bgtask_watch_fn *fn, void *arg);

//  Stops watching (a stream whose client left). Harmless when not watching.
void gw_bgtasks_unwatch(gw_bgtasks_t *self, const char *id, void *arg);

#endif
