/*  =========================================================================
    ttyd_pty - a shell on a new pseudo-terminal, one per terminal client

    The child leads a new session with the terminal as its controlling tty
    and stdin, stdout and stderr, gets the signal defaults back, and runs
    the shell with the environment backplane-ttyd was given (the runner
    starts it as the kernel's user in /home/work, with the container's
    environment and HOME), plus TERM and SHELL. Every descriptor the server
    holds is close-on-exec, so the shell inherits none of them.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "ttyd_classes.h"

const char *
ttyd_pty_shell(void)
{
    static const char *const shells[] = TTYD_SHELLS;
    for (size_t i = 0; i < sizeof shells / sizeof shells[0]; i++)
        if (access(shells[i], X_OK) == 0)
            return shells[i];
    return NULL;
}

static struct winsize
s_size(unsigned columns, unsigned rows)
{
    struct winsize size = {.ws_col = TTYD_COLS_DEFAULT, .ws_row = TTYD_ROWS_DEFAULT};
    if (columns > 0 && columns <= USHRT_MAX)
        size.ws_col = (unsigned short) columns;
    if (rows > 0 && rows <= USHRT_MAX)
        size.ws_row = (unsigned short) rows;
    return size;
}

int
ttyd_pty_resize(int master, unsigned columns, unsigned rows)
{
    struct winsize size = s_size(columns, rows);
    return ioctl(master, TIOCSWINSZ, &size);
}

//  In the child after fork: no stdio, only async-signal-safe calls until exec.
static void
s_child(const char *const *argv, int slave)
{
    int signals[] = {SIGCHLD, SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGQUIT};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++)
        signal(signals[i], SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (setsid() < 0 || ioctl(slave, TIOCSCTTY, 0) != 0)
        _exit(127);
    for (int fd = 0; fd < 3; fd++)
        if (dup2(slave, fd) < 0)
            _exit(127);
    if (slave > 2)
        close(slave);
    setenv("TERM", TTYD_TERM, 1);
    setenv("SHELL", argv[0], 1);
    execv(argv[0], (char *const *) argv);
    dprintf(STDERR_FILENO, "backplane-ttyd: cannot run %s: %s\r\n", argv[0],
            strerror(errno));
    _exit(127);
}

pid_t
ttyd_pty_spawn(const char *const *argv, unsigned columns, unsigned rows, int *master_p)
{
    assert(argv && argv[0] && master_p);
    *master_p = -1;
    int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    char name[128];
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0 ||
        ptsname_r(master, name, sizeof name) != 0) {
        int saved = errno;
        if (master >= 0)
            close(master);
        errno = saved;
        return -1;
    }
    int slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (slave < 0) {
        int saved = errno;
        close(master);
        errno = saved;
        return -1;
    }
    struct winsize size = s_size(columns, rows);
    ioctl(slave, TIOCSWINSZ, &size);
    pid_t pid = fork();
    if (pid == 0)
        s_child(argv, slave);
    int saved = errno;
    close(slave);
    if (pid < 0) {
        close(master);
        errno = saved;
        return -1;
    }
    int flags = fcntl(master, F_GETFL);
    if (flags >= 0)
        fcntl(master, F_SETFL, flags | O_NONBLOCK);
    *master_p = master;
    return pid;
}
