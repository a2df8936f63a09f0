/*  =========================================================================
    gw_bgtask - background tasks and who watches them

    A small registry on the loop: tasks in an array (at most
    GW_BGTASKS_MAX, looked up by id), each with its last event and its
    watchers. See gw_bgtask.h.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

typedef struct {
    gw_bgtask_watch_fn *fn;
    void *arg;
} watcher_t;

typedef struct {
    char id[GW_BGTASK_ID_SIZE];
    bool finished;
    int64_t finished_ms; //  monotonic
    gw_bgtask_drop_fn *drop;
    void *job;
    char *event; //  the last event's name, NULL before the first
    json_t *data;
    watcher_t watchers[GW_BGTASK_WATCHERS_MAX];
    size_t watcher_count;
} task_t;

struct _gw_bgtasks_t {
    task_t *tasks[GW_BGTASKS_MAX];
    size_t count;
};

static void
s_task_free(task_t *task)
{
    if (task->drop && !task->finished)
        task->drop(task->job);
    free(task->event);
    json_decref(task->data);
    free(task);
}

gw_bgtasks_t *
gw_bgtasks_new(void)
{
    return calloc(1, sizeof(gw_bgtasks_t));
}

void
gw_bgtasks_destroy(gw_bgtasks_t **self_p)
{
    assert(self_p);
    gw_bgtasks_t *self = *self_p;
    if (!self)
        return;
    for (size_t i = 0; i < self->count; i++)
        s_task_free(self->tasks[i]);
    free(self);
    *self_p = NULL;
}

static task_t *
s_find(gw_bgtasks_t *self, const char *id)
{
    for (size_t i = 0; id && i < self->count; i++)
        if (strcmp(self->tasks[i]->id, id) == 0)
            return self->tasks[i];
    return NULL;
}

static void
s_remove(gw_bgtasks_t *self, size_t index)
{
    s_task_free(self->tasks[index]);
    memmove(&self->tasks[index], &self->tasks[index + 1],
            (self->count - index - 1) * sizeof self->tasks[0]);
    self->count--;
}

//  Forgets finished tasks older than GW_BGTASK_KEEP_S; when full, the
//  oldest finished one (nobody watches a finished task).
static void
s_expire(gw_bgtasks_t *self)
{
    int64_t now = bus_clock_mono_ms();
    for (size_t i = self->count; i-- > 0;)
        if (self->tasks[i]->finished &&
            now - self->tasks[i]->finished_ms > (int64_t) GW_BGTASK_KEEP_S * 1000)
            s_remove(self, i);
    if (self->count < GW_BGTASKS_MAX)
        return;
    size_t oldest = self->count;
    for (size_t i = 0; i < self->count; i++)
        if (self->tasks[i]->finished &&
            (oldest == self->count ||
             self->tasks[i]->finished_ms < self->tasks[oldest]->finished_ms))
            oldest = i;
    if (oldest < self->count)
        s_remove(self, oldest);
}

int
gw_bgtasks_start(gw_bgtasks_t *self,
                 gw_bgtask_drop_fn *drop,
                 void *job,
                 char id[GW_BGTASK_ID_SIZE])
{
    assert(self && id);
    s_expire(self);
    task_t *task = self->count < GW_BGTASKS_MAX ? calloc(1, sizeof *task) : NULL;
    if (!task)
        return -1;
    gw_uuid_new(task->id);
    task->drop = drop;
    task->job = job;
    self->tasks[self->count++] = task;
    snprintf(id, GW_BGTASK_ID_SIZE, "%s", task->id);
    return 0;
}

//  Keeps event as the task's last and tells every watcher (data stolen).
static void
s_tell(task_t *task, const char *event, json_t *data, bool last)
{
    free(task->event);
    json_decref(task->data);
    task->event = strdup(event);
    task->data = data;
    //  A watcher may unwatch from its callback: go over a copy.
    watcher_t watchers[GW_BGTASK_WATCHERS_MAX];
    size_t count = task->watcher_count;
    memcpy(watchers, task->watchers, count * sizeof watchers[0]);
    if (last)
        task->watcher_count = 0;
    for (size_t i = 0; i < count; i++)
        watchers[i].fn(watchers[i].arg, event, data, last);
}

void
gw_bgtasks_update(gw_bgtasks_t *self,
                  const char *id,
                  int64_t current,
                  int64_t total,
                  const char *message)
{
    assert(self);
    task_t *task = s_find(self, id);
    if (!task || task->finished)
        return;
    s_tell(task, "bgtask_updated",
           json_pack("{s:s, s:s, s:I, s:I}", "task_id", task->id, "message",
                     message ? message : "", "current_progress", (json_int_t) current,
                     "total_progress", (json_int_t) total),
           false);
}

void
gw_bgtasks_finish(gw_bgtasks_t *self, const char *id, bool ok, const char *message)
{
    assert(self);
    task_t *task = s_find(self, id);
    if (!task || task->finished)
        return;
    task->finished = true;
    task->finished_ms = bus_clock_mono_ms();
    task->drop = NULL;
    task->job = NULL;
    json_t *progress = json_object_get(task->data, "current_progress");
    json_t *total = json_object_get(task->data, "total_progress");
    json_t *data =
        json_pack("{s:s, s:s, s:s, s:I, s:I}", "task_id", task->id, "message",
                  message ? message : "", "status", ok ? "done" : "failed",
                  "current_progress", (json_int_t) json_integer_value(progress),
                  "total_progress", (json_int_t) json_integer_value(total));
    s_tell(task, ok ? "bgtask_done" : "bgtask_failed", data, true);
}

bool
gw_bgtasks_has(gw_bgtasks_t *self, const char *id)
{
    assert(self);
    return s_find(self, id) != NULL;
}

int
gw_bgtasks_watch(gw_bgtasks_t *self, const char *id, gw_bgtask_watch_fn *fn, void *arg)
{
    assert(self && fn);
    task_t *task = s_find(self, id);
    if (!task)
        return BUS_STATUS_NOT_FOUND;
    if (task->finished) {
        fn(arg, task->event, task->data, true);
        return BUS_OK;
    }
    if (task->watcher_count >= GW_BGTASK_WATCHERS_MAX)
        return BUS_STATUS_UNAVAILABLE;
    task->watchers[task->watcher_count++] = (watcher_t){fn, arg};
    if (task->event)
        fn(arg, task->event, task->data, false);
    return BUS_OK;
}

void
gw_bgtasks_unwatch(gw_bgtasks_t *self, const char *id, void *arg)
{
    assert(self);
    task_t *task = s_find(self, id);
    for (size_t i = 0; task && i < task->watcher_count; i++)
        if (task->watchers[i].arg == arg) {
            task->watchers[i] = task->watchers[--task->watcher_count];
            return;
        }
}
