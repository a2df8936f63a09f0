/*  =========================================================================
    sp_jobs - long file-system work off the event loop

    Each job is a joinable thread. When its work returns, the thread writes
    the job's address (one pointer, well under PIPE_BUF, so the write is
    atomic) to a pipe; the loop reads it, joins the thread and runs done.
    The list of jobs is the loop's alone; the only state threads read is
    the stopping flag, an atomic.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"
#include <fcntl.h>     //  pipe2 flags
#include <pthread.h>   //  one thread per job
#include <stdatomic.h> //  the stopping flag threads read

typedef struct _job_t job_t;
struct _job_t {
    sp_jobs_t *jobs;
    pthread_t thread;
    sp_jobs_work_fn *work;
    sp_jobs_done_fn *done;
    void *arg;
    job_t *next;
};

struct _sp_jobs_t {
    int pipe[2]; //  [0] read by the loop, [1] written by threads
    struct event *event;
    job_t *running;
    size_t count;
    atomic_bool stopping;
};

static void *
s_thread(void *arg)
{
    bus_thread_block_signals();
    job_t *job = arg;
    job->work(job->arg, job->jobs);
    ssize_t n;
    do
        n = write(job->jobs->pipe[1], &job, sizeof job);
    while (n < 0 && errno == EINTR);
    return NULL;
}

//  Unlinks job, joins its thread, runs done and frees it.
static void
s_finish(sp_jobs_t *self, job_t *job, bool cancelled)
{
    for (job_t **p = &self->running; *p; p = &(*p)->next)
        if (*p == job) {
            *p = job->next;
            self->count--;
            break;
        }
    pthread_join(job->thread, NULL);
    job->done(job->arg, cancelled);
    free(job);
}

static void
s_on_ready(evutil_socket_t fd, short what, void *arg)
{
    (void) what;
    sp_jobs_t *self = arg;
    job_t *job;
    while (read(fd, &job, sizeof job) == (ssize_t) sizeof job)
        s_finish(self, job, false);
}

//  ---------------------------------------------------------------------------

sp_jobs_t *
sp_jobs_new(struct event_base *base)
{
    assert(base);
    sp_jobs_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    atomic_init(&self->stopping, false);
    self->pipe[0] = self->pipe[1] = -1;
    if (pipe2(self->pipe, O_CLOEXEC) != 0 ||
        fcntl(self->pipe[0], F_SETFL, O_NONBLOCK) != 0) {
        sp_jobs_destroy(&self);
        return NULL;
    }
    self->event = event_new(base, self->pipe[0], EV_READ | EV_PERSIST, s_on_ready, self);
    if (!self->event || event_add(self->event, NULL) != 0) {
        sp_jobs_destroy(&self);
        return NULL;
    }
    return self;
}

void
sp_jobs_destroy(sp_jobs_t **self_p)
{
    assert(self_p);
    sp_jobs_t *self = *self_p;
    if (!self)
        return;
    atomic_store(&self->stopping, true);
    while (self->running)
        s_finish(self, self->running, true);
    if (self->event)
        event_free(self->event);
    for (int i = 0; i < 2; i++)
        if (self->pipe[i] >= 0)
            close(self->pipe[i]);
    free(self);
    *self_p = NULL;
}

//  ---------------------------------------------------------------------------

int
sp_jobs_start(sp_jobs_t *self, sp_jobs_work_fn *work, sp_jobs_done_fn *done, void *arg)
{
    assert(self && work && done);
    if (atomic_load(&self->stopping))
        return -1;
    job_t *job = calloc(1, sizeof *job);
    if (!job)
        return -1;
    job->jobs = self;
    job->work = work;
    job->done = done;
    job->arg = arg;
    if (pthread_create(&job->thread, NULL, s_thread, job) != 0) {
        free(job);
        return -1;
    }
    job->next = self->running;
    self->running = job;
    self->count++;
    return 0;
}

bool
sp_jobs_stopping(sp_jobs_t *self)
{
    assert(self);
    return atomic_load(&self->stopping);
}

size_t
sp_jobs_running(sp_jobs_t *self)
{
    assert(self);
    return self->count;
}
