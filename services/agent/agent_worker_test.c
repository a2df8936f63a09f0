/*  =========================================================================
    agent_worker_test - jobs off the loop: order, threads, cancellation

    Each job's run function must run on the worker's thread and its done
    function on the loop's, in the order the jobs were submitted; a done
    function may submit more; stopping the worker waits for the job that
    runs, cancels the ones queued (and those their done functions queue);
    idle says when no job is out. A child the worker's thread runs keeps its
    exit status while the loop reaps (agent_runc_reap waits on known pids).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <pthread.h>  //  pthread_self: which thread ran what
#include <sys/wait.h> //  the child the job waits for
#include "t.h"

#define JOBS 8

typedef struct {
    int index;
    int *order; //  done appends index here
    int *done_count;
    pthread_t run_thread;
    pthread_t done_thread;
    void *context; //  what run was given
    bool ran;
    bool called;
    int sleep_ms;  //  run sleeps this long
    bool resubmit; //  done submits one more job
    agent_worker_t *worker;
    int child_status; //  the exit status of the child run forks and waits for
    bool fork_child;
    bool show_mask; //  run captures a tool's blocked signals in mask
    char mask[64];
} s_job_t;

static s_job_t s_extra; //  what a resubmitting done submits

static void
s_run(void *job_p, void *context)
{
    s_job_t *job = job_p;
    job->run_thread = pthread_self();
    job->context = context;
    if (job->sleep_ms)
        zclock_sleep(job->sleep_ms);
    if (job->fork_child) {
        //  Waited for as agent_runc waits for a kernel to go: a look every
        //  10 ms, so that its exit sits there for the loop to take.
        pid_t pid = fork();
        if (pid == 0) {
            usleep(300 * 1000);
            _exit(7);
        }
        int wstatus = 0;
        pid_t waited = 0;
        for (int i = 0; i < 500 && waited == 0; i++) {
            waited = waitpid(pid, &wstatus, WNOHANG);
            if (waited == 0)
                zclock_sleep(10);
        }
        job->child_status =
            waited == pid && WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
    }
    if (job->show_mask) {
        const char *argv[] = {"sh", "-c", "grep SigBlk /proc/self/status", NULL};
        int out = -1;
        job->child_status = agent_command_run(argv, -1, &out, NULL);
        agent_command_tail(out, job->mask, sizeof job->mask);
        if (out >= 0)
            close(out);
    }
}

static void
s_done(void *job_p, bool ran)
{
    s_job_t *job = job_p;
    job->done_thread = pthread_self();
    job->ran = ran;
    job->called = true;
    if (job->order)
        job->order[(*job->done_count)++] = job->index;
    if (job->resubmit) {
        memset(&s_extra, 0, sizeof s_extra);
        s_extra.index = 99;
        s_extra.order = job->order;
        s_extra.done_count = job->done_count;
        agent_worker_submit(job->worker, s_run, s_done, &s_extra);
    }
}

//  Runs the loop until count dones were called (5 s at most).
static void
s_loop_until(struct event_base *base, int *done_count, int count)
{
    int64_t deadline = zclock_mono() + 5000;
    while (*done_count < count && zclock_mono() < deadline)
        event_base_loop(base, EVLOOP_ONCE | EVLOOP_NONBLOCK), zclock_sleep(1);
}

static void
test_order_and_threads(void)
{
    struct event_base *base = event_base_new();
    int context = 42;
    agent_worker_t *worker = agent_worker_new(base, &context);
    T_ASSERT(worker);
    T_ASSERT(agent_worker_idle(worker));
    static s_job_t jobs[JOBS];
    int order[JOBS + 1], done_count = 0;
    for (int i = 0; i < JOBS; i++) {
        jobs[i] = (s_job_t){.index = i, .order = order, .done_count = &done_count};
        jobs[i].sleep_ms = i == 0 ? 50 : 0;
        T_EQ_INT(agent_worker_submit(worker, s_run, s_done, &jobs[i]), 0);
    }
    T_ASSERT(!agent_worker_idle(worker));
    T_EQ_INT(agent_worker_pending(worker), JOBS);
    s_loop_until(base, &done_count, JOBS);
    T_EQ_INT(done_count, JOBS);
    T_ASSERT(agent_worker_idle(worker));
    for (int i = 0; i < JOBS; i++) {
        T_EQ_INT(order[i], i);
        T_ASSERT(jobs[i].ran);
        T_ASSERT(jobs[i].context == &context);
        T_ASSERT(!pthread_equal(jobs[i].run_thread, pthread_self()));
        T_ASSERT(pthread_equal(jobs[i].done_thread, pthread_self()));
    }
    agent_worker_destroy(&worker);
    T_ASSERT(!worker);
    agent_worker_destroy(&worker);
    event_base_free(base);
}

static void
test_stop_cancels_the_queue(void)
{
    struct event_base *base = event_base_new();
    agent_worker_t *worker = agent_worker_new(base, NULL);
    T_ASSERT(worker);
    static s_job_t jobs[3];
    int order[8], done_count = 0;
    for (int i = 0; i < 3; i++)
        jobs[i] = (s_job_t){
            .index = i, .order = order, .done_count = &done_count, .worker = worker};
    jobs[0].sleep_ms = 200;  //  still running when the worker stops
    jobs[0].resubmit = true; //  and its done queues one more
    for (int i = 0; i < 3; i++)
        T_EQ_INT(agent_worker_submit(worker, s_run, s_done, &jobs[i]), 0);
    zclock_sleep(20); //  the first has begun
    agent_worker_destroy(&worker);
    T_EQ_INT(done_count, 4);
    T_ASSERT(jobs[0].called && jobs[0].ran);
    T_ASSERT(jobs[1].called && !jobs[1].ran);
    T_ASSERT(jobs[2].called && !jobs[2].ran);
    T_ASSERT(s_extra.called && !s_extra.ran);
    T_EQ_INT(order[0], 0);
    T_EQ_INT(order[3], 99);
    event_base_free(base);
}

//  The loop reaps its kernels while a job's child runs: the child's status
//  stays the job's.
static void
test_child_status_kept(void)
{
    char dir[] = "/tmp/agent_worker_test.XXXXXX";
    T_ASSERT(mkdtemp(dir));
    agent_runc_t *runc = agent_runc_new(NULL, dir);
    T_ASSERT(runc);
    struct event_base *base = event_base_new();
    agent_worker_t *worker = agent_worker_new(base, NULL);
    static s_job_t job;
    int done_count = 0, order[1];
    job = (s_job_t){.order = order, .done_count = &done_count, .fork_child = true};
    T_EQ_INT(agent_worker_submit(worker, s_run, s_done, &job), 0);
    int64_t deadline = zclock_mono() + 5000;
    while (done_count < 1 && zclock_mono() < deadline) {
        agent_runc_reap(runc, NULL, NULL); //  the loop's reaping, as the agent does
        event_base_loop(base, EVLOOP_ONCE | EVLOOP_NONBLOCK);
        zclock_sleep(1);
    }
    T_EQ_INT(done_count, 1);
    T_EQ_INT(job.child_status, 7);
    agent_worker_destroy(&worker);
    event_base_free(base);
    agent_runc_destroy(&runc);
    char command[128];
    snprintf(command, sizeof command, "rm -rf %s", dir);
    T_EQ_INT(system(command), 0);
}

static volatile sig_atomic_t s_usr1;

static void
s_on_usr1(int signal)
{
    (void) signal;
    s_usr1++;
}

//  A signal for the process goes to a thread that does not block it; with
//  the loop's thread blocking it here, the worker's is the only candidate
//  (ZeroMQ's own threads block all). The worker must not take it (a
//  ZeroMQ receive never restarts: its thread used to end), so every job
//  runs, the signal waits for the loop, and the tools a job starts begin
//  with no signal blocked.
static void
test_signals_stay_with_the_loop(void)
{
    struct sigaction action = {.sa_handler = s_on_usr1, .sa_flags = SA_RESTART};
    sigemptyset(&action.sa_mask);
    T_EQ_INT(sigaction(SIGUSR1, &action, NULL), 0);
    //  The worker starts from a thread that blocks nothing, as the agent's.
    struct event_base *base = event_base_new();
    agent_worker_t *worker = agent_worker_new(base, NULL);
    T_ASSERT(worker);
    sigset_t usr1, saved;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    T_EQ_INT(pthread_sigmask(SIG_BLOCK, &usr1, &saved), 0);
    static s_job_t jobs[JOBS];
    int order[JOBS], done_count = 0;
    int64_t deadline = zclock_mono() + 10000;
    for (int i = 0; i < JOBS && zclock_mono() < deadline; i++) {
        jobs[i] = (s_job_t){.index = i, .order = order, .done_count = &done_count};
        jobs[i].sleep_ms = i % 2 ? 20 : 0;
        jobs[i].show_mask = i == JOBS - 1;
        T_EQ_INT(agent_worker_submit(worker, s_run, s_done, &jobs[i]), 0);
        //  Signals while the job runs and while the thread waits for the next.
        while (done_count <= i && zclock_mono() < deadline) {
            kill(getpid(), SIGUSR1);
            event_base_loop(base, EVLOOP_ONCE | EVLOOP_NONBLOCK);
            zclock_sleep(1);
        }
        for (int k = 0; k < 5; k++) {
            kill(getpid(), SIGUSR1);
            zclock_sleep(2);
        }
    }
    T_EQ_INT(done_count, JOBS);
    for (int i = 0; i < JOBS; i++)
        T_ASSERT(jobs[i].ran);
    T_EQ_INT(jobs[JOBS - 1].child_status, 0);
    T_CONTAINS(jobs[JOBS - 1].mask, "SigBlk:\t0000000000000000");
    T_EQ_INT(s_usr1, 0);
    sigset_t pending;
    T_EQ_INT(sigpending(&pending), 0);
    T_ASSERT(sigismember(&pending, SIGUSR1)); //  nobody took it
    agent_worker_destroy(&worker);
    event_base_free(base);
    T_EQ_INT(pthread_sigmask(SIG_SETMASK, &saved, NULL), 0);
    T_EQ_INT(s_usr1, 1); //  the loop's thread gets it, once
    signal(SIGUSR1, SIG_DFL);
}

int
main(void)
{
    zsys_init();
    T_RUN(test_order_and_threads);
    T_RUN(test_stop_cancels_the_queue);
    T_RUN(test_child_status_kept);
    T_RUN(test_signals_stay_with_the_loop);
    return T_DONE();
}
