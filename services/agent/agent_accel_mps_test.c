/*  =========================================================================
    agent_accel_mps_test - supervising MPS control daemons, with a fake
    nvidia-cuda-mps-control

    The fake (test/fake-driver/nvidia-cuda-mps-control) is a shell script that behaves as
   the real one does where the agent can see it: with -f it stays in the foreground, makes
   the "control" socket's file in CUDA_MPS_PIPE_DIRECTORY and records what it was given
   (its GPU, the files of its /dev/shm); without -f it is the client and reads commands,
   "quit" ending the daemon. Checked: one daemon per GPU whatever the holders, its own
   /dev/shm being the directory the holders get, quit after the last holder, a restart
   when it dies with holders, adoption by a new supervisor and the sweep of one nobody
   holds, a daemon that cannot start refused with its reason, and the start as a step
   apart from acquire (what the agent runs on its worker). Needs root (the daemon's mount
   namespace).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include "agent_accel_mps.h"
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "t.h"

static char s_tmp[] = "/tmp/agent_accel_mps_test.XXXXXX";
static char s_control[256], s_state[256], s_shm[256];

static void
s_write(const char *path, const char *text, mode_t mode)
{
    FILE *file = fopen(path, "w");
    assert(file);
    fputs(text, file);
    fclose(file);
    chmod(path, mode);
}

static char *
s_read(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    char *path = zsys_vprintf(format, args);
    va_end(args);
    zfile_t *file = zfile_new(NULL, path);
    char *text = NULL;
    if (file && zfile_input(file) == 0) {
        zchunk_t *chunk = zfile_read(file, 4096, 0);
        text = chunk ? strndup((char *) zchunk_data(chunk), zchunk_size(chunk)) : NULL;
        zchunk_destroy(&chunk);
    }
    zfile_destroy(&file);
    zstr_free(&path);
    return text;
}

//  Acquires as the agent does: the start it is given run (where the agent's
//  worker would) and given back. The status of both.
static int
s_acquire(agent_accel_mps_t *mps,
          const char *kernel_id,
          uint32_t index,
          const char *uuid,
          agent_accel_mps_binds_t *binds,
          bus_error_t *err)
{
    agent_accel_mps_start_t *start = NULL;
    int rc = agent_accel_mps_acquire(mps, kernel_id, index, uuid, binds, &start, err);
    if (rc == BUS_OK && start)
        rc = agent_accel_mps_start_run(start, err);
    agent_accel_mps_start_done(&start);
    return rc;
}

//  The supervisor's step as the agent's timer takes it, a restart run.
static void
s_step(agent_accel_mps_t *mps)
{
    agent_accel_mps_start_t *restart = agent_accel_mps_supervise(mps);
    bus_error_t err;
    if (restart)
        agent_accel_mps_start_run(restart, &err);
    agent_accel_mps_start_done(&restart);
}

//  Runs the supervisor's step until GPU index's daemon is pid (0: none),
//  for up to 8 s.
static bool
s_settles(agent_accel_mps_t *mps, uint32_t index, int pid)
{
    for (int i = 0; i < 800; i++) {
        s_step(mps);
        int now = agent_accel_mps_pid(mps, index);
        if (pid ? now == pid : now == 0)
            return true;
        usleep(10000);
    }
    return false;
}

static bool
s_gone(int pid)
{
    for (int i = 0; i < 800; i++) {
        int status;
        waitpid(pid, &status, WNOHANG); //  ours when adopted by a second supervisor
        if (kill(pid, 0) != 0)
            return true;
        usleep(10000);
    }
    return false;
}

static void
test_one_daemon_per_gpu(void)
{
    agent_accel_mps_t *mps = agent_accel_mps_new(s_control, s_state, s_shm, "a");
    T_ASSERT(mps);
    //  The holders' /dev/shm is the daemon's own: a file put there first is
    //  what the daemon lists in its /dev/shm.
    char marker[PATH_MAX];
    snprintf(marker, sizeof marker, "%s/backplane-mps-a-0", s_shm);
    T_EQ_INT(mkdir(marker, 01777), 0);
    snprintf(marker, sizeof marker, "%s/backplane-mps-a-0/cuda.shm.marker", s_shm);
    s_write(marker, "", 0644);

    agent_accel_mps_binds_t binds;
    bus_error_t err;
    T_EQ_INT(s_acquire(mps, "k1", 0, "GPU-aaaa", &binds, &err), BUS_OK);
    int pid = agent_accel_mps_pid(mps, 0);
    T_ASSERT(pid > 0);
    char want[PATH_MAX];
    snprintf(want, sizeof want, "%s/0/pipe", s_state);
    T_EQ_STR(binds.pipe_dir, want);
    snprintf(want, sizeof want, "%s/backplane-mps-a-0", s_shm);
    T_EQ_STR(binds.shm_dir, want);
    //  The MPS server, which runs as the kernels' user, writes in both.
    struct stat st;
    T_EQ_INT(stat(binds.pipe_dir, &st), 0);
    T_EQ_INT(st.st_uid, 1000);
    snprintf(want, sizeof want, "%s/0/log", s_state);
    T_EQ_INT(stat(want, &st), 0);
    T_EQ_INT(st.st_uid, 1000);
    snprintf(want, sizeof want, "%s/backplane-mps-a-0", s_shm);
    char *visible = s_read("%s/0/log/visible", s_state);
    T_EQ_STR(visible, "GPU-aaaa\n");
    free(visible);
    char *shm = s_read("%s/0/log/shm", s_state);
    T_ASSERT(shm);
    T_CONTAINS(shm, "cuda.shm.marker");
    free(shm);
    char *pid_text = s_read("%s/0/pid", s_state);
    T_ASSERT(pid_text && atoi(pid_text) == pid);
    free(pid_text);

    //  A second holder, and the first again: the same daemon.
    T_EQ_INT(s_acquire(mps, "k2", 0, "GPU-aaaa", &binds, &err), BUS_OK);
    T_EQ_INT(s_acquire(mps, "k1", 0, "GPU-aaaa", &binds, &err), BUS_OK);
    T_EQ_INT(agent_accel_mps_pid(mps, 0), pid);
    //  Another GPU, its own daemon.
    T_EQ_INT(s_acquire(mps, "k3", 1, "GPU-bbbb", &binds, &err), BUS_OK);
    int other = agent_accel_mps_pid(mps, 1);
    T_ASSERT(other > 0 && other != pid);

    //  Held until the last holder goes; then it quits.
    agent_accel_mps_release(mps, "k1");
    s_step(mps);
    T_EQ_INT(agent_accel_mps_pid(mps, 0), pid);
    agent_accel_mps_release(mps, "k2");
    agent_accel_mps_release(mps, "k2"); //  twice is harmless
    T_ASSERT(s_settles(mps, 0, 0));
    T_ASSERT(s_gone(pid));
    T_ASSERT(access(want, F_OK) != 0); //  its /dev/shm directory went too
    snprintf(want, sizeof want, "%s/0/pid", s_state);
    T_ASSERT(access(want, F_OK) != 0);
    T_EQ_INT(agent_accel_mps_pid(mps, 1), other);

    agent_accel_mps_stop_all(mps);
    T_ASSERT(s_gone(other));
    agent_accel_mps_destroy(&mps);
    T_ASSERT(!mps);
}

static void
test_restart_when_it_dies(void)
{
    agent_accel_mps_t *mps = agent_accel_mps_new(s_control, s_state, s_shm, "b");
    agent_accel_mps_binds_t binds;
    bus_error_t err;
    T_EQ_INT(s_acquire(mps, "k1", 0, "GPU-aaaa", &binds, &err), BUS_OK);
    int pid = agent_accel_mps_pid(mps, 0);
    T_EQ_INT(kill(pid, SIGKILL), 0);
    int again = 0;
    for (int i = 0; i < 500 && (again == 0 || again == pid); i++) {
        s_step(mps);
        again = agent_accel_mps_pid(mps, 0);
        usleep(10000);
    }
    T_ASSERT(again > 0 && again != pid);
    agent_accel_mps_stop_all(mps);
    T_ASSERT(s_gone(again));
    agent_accel_mps_destroy(&mps);
}

static void
test_adopt_and_sweep(void)
{
    //  A supervisor goes (the agent restarts): the daemon stays.
    agent_accel_mps_t *mps = agent_accel_mps_new(s_control, s_state, s_shm, "c");
    agent_accel_mps_binds_t binds;
    bus_error_t err;
    T_EQ_INT(s_acquire(mps, "k1", 0, "GPU-aaaa", &binds, &err), BUS_OK);
    T_EQ_INT(s_acquire(mps, "k2", 1, "GPU-bbbb", &binds, &err), BUS_OK);
    int held = agent_accel_mps_pid(mps, 0);
    int orphan = agent_accel_mps_pid(mps, 1);
    agent_accel_mps_destroy(&mps);
    T_EQ_INT(kill(held, 0), 0);
    T_EQ_INT(kill(orphan, 0), 0);

    //  The next adopts GPU 0's for its adopted holder and sweeps GPU 1's.
    mps = agent_accel_mps_new(s_control, s_state, s_shm, "c");
    T_EQ_INT(s_acquire(mps, "k1", 0, "GPU-aaaa", &binds, &err), BUS_OK);
    T_EQ_INT(agent_accel_mps_pid(mps, 0), held);
    agent_accel_mps_sweep(mps);
    T_ASSERT(s_gone(orphan));
    T_ASSERT(s_settles(mps, 1, 0));
    T_EQ_INT(agent_accel_mps_pid(mps, 0), held);
    agent_accel_mps_release(mps, "k1");
    T_ASSERT(s_settles(mps, 0, 0));
    T_ASSERT(s_gone(held));
    agent_accel_mps_destroy(&mps);
}

static void
test_refusals(void)
{
    agent_accel_mps_binds_t binds;
    bus_error_t err;
    agent_accel_mps_t *none = agent_accel_mps_new(NULL, s_state, s_shm, "d");
    T_EQ_INT(s_acquire(none, "k1", 0, "GPU-aaaa", &binds, &err), BUS_STATUS_UNAVAILABLE);
    T_CONTAINS(err.detail, "no nvidia-cuda-mps-control");
    agent_accel_mps_destroy(&none);

    char broken[PATH_MAX];
    snprintf(broken, sizeof broken, "%s/broken/nvidia-cuda-mps-control", s_tmp);
    zsys_dir_create("%s/broken", s_tmp);
    s_write(broken, "#!/bin/sh\necho no GPU here >&2\nexit 3\n", 0755);
    agent_accel_mps_t *mps = agent_accel_mps_new(broken, s_state, s_shm, "d");
    T_EQ_INT(s_acquire(mps, "k1", 0, "GPU-aaaa", &binds, &err), BUS_STATUS_UNAVAILABLE);
    T_CONTAINS(err.detail, "exited at start");
    char *log = s_read("%s/0/log/control.out", s_state);
    T_ASSERT(log);
    T_CONTAINS(log, "no GPU here");
    free(log);
    T_EQ_INT(agent_accel_mps_pid(mps, 0), 0);
    agent_accel_mps_release(mps, "k1");
    agent_accel_mps_destroy(&mps);
}

//  acquire starts nothing itself: the start it hands back does, where it is
//  run; a second holder meanwhile waits for that daemon, and one that
//  comes while the daemon quits gets a fresh one, the old one gone first.
static void
test_start_is_a_step(void)
{
    agent_accel_mps_t *mps = agent_accel_mps_new(s_control, s_state, s_shm, "e");
    agent_accel_mps_binds_t binds;
    bus_error_t err;
    agent_accel_mps_start_t *first = NULL, *second = NULL;
    T_EQ_INT(agent_accel_mps_acquire(mps, "k1", 0, "GPU-aaaa", &binds, &first, &err),
             BUS_OK);
    T_ASSERT(first);
    T_EQ_INT(agent_accel_mps_pid(mps, 0), 0); //  not started yet
    T_EQ_INT(agent_accel_mps_acquire(mps, "k2", 0, "GPU-aaaa", &binds, &second, &err),
             BUS_OK);
    T_ASSERT(second);
    agent_accel_mps_start_t *none = agent_accel_mps_supervise(mps);
    T_ASSERT(!none); //  a starting daemon is its start's, not the supervisor's
    T_EQ_INT(agent_accel_mps_pid(mps, 0), 0);
    T_EQ_INT(agent_accel_mps_start_run(first, &err), BUS_OK);
    agent_accel_mps_start_done(&first);
    T_ASSERT(!first);
    int pid = agent_accel_mps_pid(mps, 0);
    T_ASSERT(pid > 0);
    T_EQ_INT(agent_accel_mps_start_run(second, &err), BUS_OK);
    agent_accel_mps_start_done(&second);
    T_EQ_INT(agent_accel_mps_pid(mps, 0), pid);
    //  Already running: nothing to start.
    T_EQ_INT(agent_accel_mps_acquire(mps, "k2", 0, "GPU-aaaa", &binds, &second, &err),
             BUS_OK);
    T_ASSERT(!second);

    //  Both go; the step tells it to quit; a new holder comes at once.
    agent_accel_mps_release(mps, "k1");
    agent_accel_mps_release(mps, "k2");
    s_step(mps);
    T_EQ_INT(s_acquire(mps, "k3", 0, "GPU-aaaa", &binds, &err), BUS_OK);
    int fresh = agent_accel_mps_pid(mps, 0);
    T_ASSERT(fresh > 0 && fresh != pid);
    T_ASSERT(s_gone(pid));
    agent_accel_mps_release(mps, "k3");
    T_ASSERT(s_settles(mps, 0, 0));
    T_ASSERT(s_gone(fresh));
    agent_accel_mps_destroy(&mps);
}

int
main(void)
{
    bus_log_set_level(BUS_LOG_ERROR);
    signal(SIGPIPE, SIG_IGN); //  as every service does (bus_node)
    if (geteuid() != 0) {
        printf("1..0 # SKIP not root (the MPS daemon's mount namespace)\n");
        return 0;
    }
    if (!mkdtemp(s_tmp)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(s_control, sizeof s_control, "%s/nvidia-cuda-mps-control", s_tmp);
    snprintf(s_state, sizeof s_state, "%s/state", s_tmp);
    snprintf(s_shm, sizeof s_shm, "%s/shm", s_tmp);
    //  The fake the other tests use too (run from the checkout's top).
    char command[600];
    snprintf(command, sizeof command, "cp test/fake-driver/nvidia-cuda-mps-control %s",
             s_control);
    if (system(command) != 0) {
        fprintf(stderr, "# cannot copy the fake control\n");
        return 1;
    }
    zsys_dir_create("%s", s_shm);
    T_RUN(test_one_daemon_per_gpu);
    T_RUN(test_restart_when_it_dies);
    T_RUN(test_adopt_and_sweep);
    T_RUN(test_refusals);
    T_RUN(test_start_is_a_step);
    agent_fs_remove_tree(s_tmp);
    return T_DONE();
}
