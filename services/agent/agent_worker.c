/*  =========================================================================
    agent_worker - a thread that runs the agent's slow jobs off its loop

    The pipe carries pointers: "RUN" + task to the thread, "DONE" + the
    same task back. At most one task is out at a time (running), so the
    thread never has more than one message to read and the loop never more
    than one to take back.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"

//  A job with what to do with it, and the correlation id of the request
//  that made it, for the thread's log lines.
typedef struct {
    agent_worker_run_fn *run;
    agent_worker_done_fn *done;
    void *job;
    char *corr;
} s_task_t;

struct _agent_worker_t {
    zactor_t *actor;
    zsock_t *pipe;      //  the actor's end on the loop (borrowed)
    struct event *wake; //  the pipe is readable
    zlistx_t *queue;    //  s_task_t, not sent yet
    s_task_t *running;  //  sent, its done not called yet
    bool stopping;
    bool lost; //  the thread ended: nothing more runs
};

//  The thread: runs each task it is sent, sends it back, until $TERM.
static void
s_actor(zsock_t *pipe, void *context)
{
    bus_thread_block_signals();
    zsock_signal(pipe, 0);
    while (true) {
        char *command = NULL;
        void *task_p = NULL;
        if (zsock_recv(pipe, "sp", &command, &task_p) != 0) {
            if (errno == EINTR)
                continue; //  a signal, not a command
            break;        //  the context is gone
        }
        bool run = command && strcmp(command, "RUN") == 0 && task_p;
        zstr_free(&command);
        if (!run)
            break; //  $TERM
        s_task_t *task = task_p;
        bus_log_set_corr(task->corr);
        task->run(task->job, context);
        bus_log_set_corr(NULL);
        if (zsock_send(pipe, "sp", "DONE", task) != 0)
            break;
    }
}

//  Calls task's done and frees it.
static void
s_finish(s_task_t *task, bool ran)
{
    agent_worker_done_fn *done = task->done;
    void *job = task->job;
    free(task->corr);
    free(task);
    done(job, ran);
}

//  Takes one message off the pipe (blocking when none is there yet): the
//  running task's answer, whose done it calls, or the signal czmq's shim
//  sends when the thread has ended, after which the task sent is never run
//  and is cancelled. -1 when the pipe failed.
static int
s_take(agent_worker_t *self)
{
    char *command = NULL;
    void *task_p = NULL;
    if (zsock_recv(self->pipe, "sp", &command, &task_p) != 0)
        return errno == EINTR ? 0 : -1;
    bool answer = command && strcmp(command, "DONE") == 0 && task_p;
    zstr_free(&command);
    if (!answer) {
        bus_log_error("agent worker thread ended: its jobs are cancelled");
        self->lost = true;
        s_task_t *task = self->running;
        self->running = NULL;
        if (task)
            s_finish(task, false);
        return 0;
    }
    if (task_p != self->running) {
        bus_log_error("agent worker answered a job it was not given");
        return 0; //  cannot be: only one task is out
    }
    self->running = NULL;
    s_finish(task_p, true);
    return 0;
}

//  Sends the next queued task when the thread is idle.
static void
s_send_next(agent_worker_t *self)
{
    if (self->running || self->stopping)
        return;
    s_task_t *task = zlistx_detach(self->queue, NULL);
    if (!task)
        return;
    if (self->lost || zsock_send(self->pipe, "sp", "RUN", task) != 0) {
        bus_log_error("agent worker gone: a job is cancelled");
        s_finish(task, false);
        return;
    }
    self->running = task;
    //  The pipe's descriptor is edge-triggered, and a send may take the
    //  edge of an answer already there: look again.
    if (zsock_events(self->pipe) & ZMQ_POLLIN)
        event_active(self->wake, EV_READ, 0);
}

static void
s_on_wake(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    agent_worker_t *self = arg;
    while (!self->stopping && !self->lost && (zsock_events(self->pipe) & ZMQ_POLLIN)) {
        s_take(self);
        s_send_next(self);
    }
    while (self->lost && !self->stopping && !self->running && zlistx_size(self->queue))
        s_send_next(self); //  cancels each
}

//  ---------------------------------------------------------------------------
//  Start the thread.

agent_worker_t *
agent_worker_new(struct event_base *base, void *context)
{
    assert(base);
    agent_worker_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->queue = zlistx_new();
    self->actor = self->queue ? zactor_new(s_actor, context) : NULL;
    self->pipe = self->actor ? zactor_sock(self->actor) : NULL;
    self->wake = self->pipe ? event_new(base, zsock_fd(self->pipe), EV_READ | EV_PERSIST,
                                        s_on_wake, self)
                            : NULL;
    if (!self->wake || event_add(self->wake, NULL) != 0) {
        agent_worker_destroy(&self);
        return NULL;
    }
    return self;
}

//  ---------------------------------------------------------------------------
//  Stop the worker.

void
agent_worker_destroy(agent_worker_t **self_p)
{
    assert(self_p);
    agent_worker_t *self = *self_p;
    if (!self)
        return;
    //  *self_p stays set until the end: the done functions called below may
    //  submit more, which are cancelled in turn.
    self->stopping = true;
    if (self->wake)
        event_free(self->wake);
    self->wake = NULL;
    //  The job running ends as it would have; its done may queue more.
    while (self->running)
        if (s_take(self) != 0) {
            bus_log_error("agent worker gone with a job: its done is not called");
            self->running = NULL;
        }
    //  What has not begun is cancelled, with what the done functions queue.
    s_task_t *task;
    while (self->queue && (task = zlistx_detach(self->queue, NULL)))
        s_finish(task, false);
    zactor_destroy(&self->actor);
    zlistx_destroy(&self->queue);
    free(self);
    *self_p = NULL;
}

//  ---------------------------------------------------------------------------
//  Queue a job.

int
agent_worker_submit(agent_worker_t *self,
                    agent_worker_run_fn *run,
                    agent_worker_done_fn *done,
                    void *job)
{
    assert(self);
    assert(run && done);
    s_task_t *task = calloc(1, sizeof *task);
    const char *corr = bus_log_corr();
    if (task)
        task->corr = strdup(corr ? corr : "");
    if (!task || !task->corr || !zlistx_add_end(self->queue, task)) {
        if (task)
            free(task->corr);
        free(task);
        return -1;
    }
    task->run = run;
    task->done = done;
    task->job = job;
    s_send_next(self);
    return 0;
}

//  ---------------------------------------------------------------------------
//  Whether nothing is queued or running.

bool
agent_worker_idle(agent_worker_t *self)
{
    assert(self);
    return !self->running && zlistx_size(self->queue) == 0;
}

//  ---------------------------------------------------------------------------
//  How many jobs are queued or running.

size_t
agent_worker_pending(agent_worker_t *self)
{
    assert(self);
    return zlistx_size(self->queue) + (self->running ? 1 : 0);
}
