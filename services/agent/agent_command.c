/*  =========================================================================
    agent_command - running the tools the agent drives (runc, umoci, ip)

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <fcntl.h>    //  open flags
#include <spawn.h>    //  posix_spawnp
#include <sys/mman.h> //  memfd_create: captured output
#include <sys/wait.h> //  waitpid

extern char **environ;

static void
s_close(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

//  A child's signals: nothing blocked, and those the agent ignores or
//  catches (SIGPIPE, the loop's) at their defaults. An error number.
static int
s_child_signals(posix_spawnattr_t *attr)
{
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    sigaddset(&defaults, SIGHUP);
    sigaddset(&defaults, SIGCHLD);
    int rc = posix_spawnattr_setsigmask(attr, &none);
    if (rc == 0)
        rc = posix_spawnattr_setsigdefault(attr, &defaults);
    if (rc == 0)
        rc = posix_spawnattr_setflags(attr,
                                      POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    return rc;
}

int
agent_command_run(const char *const *argv, int out_fd, int *out_p, int *err_p)
{
    int out_mem = -1, err_mem = -1;
    if (out_fd < 0) {
        out_mem = memfd_create("agent-out", MFD_CLOEXEC);
        if (err_p)
            err_mem = memfd_create("agent-err", MFD_CLOEXEC);
        if (out_mem < 0 || (err_p && err_mem < 0)) {
            s_close(&out_mem);
            s_close(&err_mem);
            return -1;
        }
    }
    int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    //  posix_spawn, not fork: it shares the agent's memory until exec
    //  (CLONE_VFORK) instead of copying its page tables, whose copy-on-write
    //  faults and TLB shootdowns across the agent's threads every runc call
    //  used to pay. The child gets stdin on the null device, stdout and
    //  stderr as asked, and no other descriptor.
    int out = out_fd >= 0 ? out_fd : out_mem;
    int err = out_fd >= 0 ? out_fd : err_mem >= 0 ? err_mem : out_mem;
    posix_spawn_file_actions_t actions;
    int rc = null_fd < 0 ? errno : posix_spawn_file_actions_init(&actions);
    bool ready = rc == 0;
    if (rc == 0)
        rc = posix_spawn_file_actions_adddup2(&actions, null_fd, 0);
    if (rc == 0)
        rc = posix_spawn_file_actions_adddup2(&actions, out, 1);
    if (rc == 0)
        rc = posix_spawn_file_actions_adddup2(&actions, err, 2);
    if (rc == 0)
        rc = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    //  It runs on the worker thread, which blocks every signal
    //  (bus_thread.h): the tool starts with none blocked and the agent's
    //  ignored ones back to their defaults, or runc could not be stopped.
    posix_spawnattr_t attr;
    bool attr_ready = rc == 0 && posix_spawnattr_init(&attr) == 0;
    if (rc == 0)
        rc = attr_ready ? s_child_signals(&attr) : ENOMEM;
    int saved = rc; //  why nothing was started
    pid_t pid = -1;
    if (rc == 0) {
        rc = posix_spawnp(&pid, argv[0], &actions, &attr, (char *const *) argv, environ);
        //  A tool that could not be exec'd reads as before: -1 with ENOENT.
        saved = rc == EAGAIN || rc == ENOMEM ? rc : ENOENT;
    }
    if (ready)
        posix_spawn_file_actions_destroy(&actions);
    if (attr_ready)
        posix_spawnattr_destroy(&attr);
    int status = -1;
    if (rc == 0 && pid > 0) {
        int wstatus;
        pid_t waited;
        while ((waited = waitpid(pid, &wstatus, 0)) < 0 && errno == EINTR)
            ;
        if (waited == pid)
            status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
        saved = waited == pid ? ENOENT : errno;
        if (status == 127)
            status = -1; //  exec failed (or the tool says it could not run)
    }
    if (null_fd >= 0)
        close(null_fd);
    if (out_p)
        *out_p = out_mem;
    else
        s_close(&out_mem);
    if (err_p)
        *err_p = err_mem;
    if (status < 0)
        errno = saved;
    return status;
}

size_t
agent_command_tail(int fd, char *buf, size_t size)
{
    buf[0] = '\0';
    off_t length = fd >= 0 ? lseek(fd, 0, SEEK_END) : -1;
    if (length <= 0 || size < 2)
        return 0;
    off_t from = length > (off_t) (size - 1) ? length - (off_t) (size - 1) : 0;
    ssize_t n = pread(fd, buf, size - 1, from);
    size_t len = n > 0 ? (size_t) n : 0;
    buf[len] = '\0';
    while (len && isspace((unsigned char) buf[len - 1]))
        buf[--len] = '\0';
    return len;
}
