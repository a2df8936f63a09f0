/*  =========================================================================
    runner_spawn - starts the runner's children: code runs, the interpreter,
    the terminal shell and service-port apps

    The child moves the wanted descriptors above the low numbers first and then
    onto 0..n-1, so that sources and targets may overlap; everything else the
    runner holds is close-on-exec. The child leads its own process group (or, for
    the terminal, its own session), resets the signals the runner handles,
    enters the workdir and, when the runner was started as root with --user,
    drops to that uid and gid before exec. The runner itself keeps root so that
    it can signal every child and own the socket.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "runner_classes.h"

//  Descriptors are parked at or above this number while they are rearranged.
#define S_PARK_FD 16

//  Writes a message to the child's stderr (no stdio after fork).
static void
s_child_fail(const char *what, const char *arg)
{
    dprintf(STDERR_FILENO, "backplane-runner: %s %s: %s\n", what, arg, strerror(errno));
}

static void
s_child(const runner_t *r, const runner_spawn_t *spec)
{
    int signals[] = {SIGCHLD, SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGQUIT};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++)
        signal(signals[i], SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);

    int fds[RUNNER_SPAWN_FDS];
    int nfds = spec->nfds;
    if (spec->tty >= 0) {
        if (setsid() < 0)
            _exit(RUNNER_EXIT_SPAWN);
        for (int i = 0; i < 3; i++)
            fds[i] = spec->tty;
        nfds = 3;
    } else {
        setpgid(0, 0);
        for (int i = 0; i < nfds; i++)
            fds[i] = spec->fds[i];
    }
    for (int i = 0; i < nfds; i++) {
        if (fds[i] < 0 && i < 3)
            fds[i] = open("/dev/null", O_RDWR | O_CLOEXEC);
        if (fds[i] >= 0)
            fds[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, S_PARK_FD);
    }
    for (int i = 0; i < nfds; i++)
        if (fds[i] >= 0)
            dup2(fds[i], i);
    if (spec->tty >= 0) {
        ioctl(STDIN_FILENO, TIOCSCTTY, 0);
        if (!getenv("TERM"))
            setenv("TERM", "xterm", 1);
    }
    if (chdir(r->workdir) != 0)
        s_child_fail("chdir", r->workdir);
    if (r->drop) {
        if (setgroups(1, &r->gid) != 0 || setgid(r->gid) != 0 || setuid(r->uid) != 0) {
            s_child_fail("drop privileges to", "user");
            _exit(RUNNER_EXIT_SPAWN);
        }
        setenv("HOME", r->workdir, 1);
    }
    execvp(spec->argv[0], (char *const *) spec->argv);
    s_child_fail("exec", spec->argv[0]);
    _exit(RUNNER_EXIT_SPAWN);
}

pid_t
runner_spawn(const runner_t *r, const runner_spawn_t *spec)
{
    assert(r && spec && spec->argv && spec->argv[0]);
    assert(spec->nfds <= RUNNER_SPAWN_FDS);
    pid_t pid = fork();
    if (pid == 0)
        s_child(r, spec);
    if (pid > 0 && spec->tty < 0)
        setpgid(pid,
                pid); //  also here, so that a signal right after fork finds the group
    return pid;
}

int
runner_exit_code(int status)
{
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return RUNNER_EXIT_SIGNAL_BASE + WTERMSIG(status);
    return 1;
}

int
runner_set_nonblock(int fd)
{
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0)
        return -1;
    return fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

void
runner_close(int *fd_p)
{
    assert(fd_p);
    if (*fd_p >= 0)
        close(*fd_p);
    *fd_p = -1;
}
