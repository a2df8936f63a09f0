/*  =========================================================================
    runner_main - backplane-runner: the kernel runner inside every container

    backplane-runner --socket PATH --runtime PATH --type TYPE [--user UID[:GID]]
    [--workdir DIR]. Runs under tini as the container's main process, listens
    on a Unix socket for the agent and runs code on its behalf (see
    agent_runner_proto.h for the frames). Setup, then one poll loop whose
    table lists every descriptor the runner watches and its handler; SIGCHLD
    and SIGTERM arrive through a self-pipe and are handled in the loop. The
    runner exits 0 on SHUTDOWN or SIGTERM, killing what it started.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "runner_classes.h"

//  Exit status for bad usage.
#define S_EXIT_USAGE 2
//  Descriptors the loop can watch at most.
#define S_WATCH_MAX 12

//  Signal number -> self-pipe byte, written by the handler.
static int s_signal_pipe = -1;

typedef void(s_watch_fn)(runner_t *r, int *fd_p, short revents);

typedef struct {
    int *fd_p;
    short events;
    s_watch_fn *fn;
} s_watch_t;

static void
s_on_signal_handler(int sig)
{
    int saved = errno;
    uint8_t byte = (uint8_t) sig;
    if (write(s_signal_pipe, &byte, 1) < 0) {
        //  The pipe is full: a wakeup is already pending.
    }
    errno = saved;
}

static void
s_usage(void)
{
    fprintf(stderr, "usage: backplane-runner --socket PATH --runtime PATH --type TYPE\n"
                    "                        [--user UID[:GID]] [--workdir DIR]\n");
}

static int
s_parse_args(runner_t *r, int argc, char **argv)
{
    static const struct option options[] = {{"socket", required_argument, NULL, 's'},
                                            {"runtime", required_argument, NULL, 'r'},
                                            {"type", required_argument, NULL, 't'},
                                            {"user", required_argument, NULL, 'u'},
                                            {"workdir", required_argument, NULL, 'w'},
                                            {"help", no_argument, NULL, 'h'},
                                            {NULL, 0, NULL, 0}};
    const char *user = NULL;
    int opt;
    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
        switch (opt) {
            case 's':
                r->socket_path = optarg;
                break;
            case 'r':
                r->runtime = optarg;
                break;
            case 't':
                r->type = optarg;
                break;
            case 'u':
                user = optarg;
                break;
            case 'w':
                r->workdir = optarg;
                break;
            default:
                return -1;
        }
    }
    if (optind != argc || !r->socket_path || !r->runtime || !r->type)
        return -1;
    if (strlen(r->socket_path) >= sizeof(((struct sockaddr_un *) 0)->sun_path)) {
        fprintf(stderr, "backplane-runner: socket path too long\n");
        return -1;
    }
    if (user) {
        //  Numeric only: a static binary cannot use NSS to look names up.
        char *end;
        unsigned long uid = strtoul(user, &end, 10), gid = uid;
        if (*end == ':')
            gid = strtoul(end + 1, &end, 10);
        if (end == user || *end != '\0' || uid > INT_MAX || gid > INT_MAX) {
            fprintf(stderr, "backplane-runner: --user wants UID[:GID], got %s\n", user);
            return -1;
        }
        r->uid = (uid_t) uid;
        r->gid = (gid_t) gid;
        r->drop = geteuid() == 0 && (r->uid != 0 || r->gid != 0);
        if (geteuid() != 0)
            fprintf(stderr, "backplane-runner: not root, --user %s ignored\n", user);
    }
    return 0;
}

static int
s_setup_signals(runner_t *r)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0)
        return -1;
    r->signal_fd = fds[0];
    s_signal_pipe = fds[1];
    signal(SIGPIPE, SIG_IGN);
    struct sigaction action = {.sa_handler = s_on_signal_handler, .sa_flags = SA_RESTART};
    sigemptyset(&action.sa_mask);
    int signals[] = {SIGCHLD, SIGTERM, SIGINT, SIGHUP};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++)
        if (sigaction(signals[i], &action, NULL) != 0)
            return -1;
    return 0;
}

//  The agent takes the socket's path appearing as the sign that the runner
//  listens, so the socket is bound and listening under a temporary name
//  first and then renamed into place: a connect never meets a bound socket
//  that does not listen yet.
static int
s_listen(runner_t *r)
{
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    int length = snprintf(addr.sun_path, sizeof addr.sun_path, "%s.new", r->socket_path);
    if (length < 0 || (size_t) length >= sizeof addr.sun_path) {
        runner_log("error", "socket path %s is too long", r->socket_path);
        return -1;
    }
    unlink(addr.sun_path);
    unlink(r->socket_path); //  a stale socket from an earlier runner
    r->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (r->listen_fd < 0 ||
        bind(r->listen_fd, (struct sockaddr *) &addr, sizeof addr) != 0 ||
        chmod(addr.sun_path, RUNNER_SOCKET_MODE) != 0 ||
        listen(r->listen_fd, RUNNER_LISTEN_BACKLOG) != 0 ||
        rename(addr.sun_path, r->socket_path) != 0) {
        runner_log("error", "listen on %s: %s", r->socket_path, strerror(errno));
        return -1;
    }
    return 0;
}

//  Reaps every child that ended and hands it to its owner.
static void
s_on_signal(runner_t *r, int *fd_p, short revents)
{
    (void) revents;
    uint8_t signals[64];
    ssize_t n;
    while ((n = read(*fd_p, signals, sizeof signals)) > 0)
        for (ssize_t i = 0; i < n; i++)
            if (signals[i] != SIGCHLD) {
                runner_log("notice", "signal %d: exiting", signals[i]);
                r->quit = true;
            }
    //  As the container's init the runner also reaps the orphans of every
    //  process that daemonized or died before its children: counted, not
    //  logged one by one, because a fork bomb leaves hundreds of thousands
    //  and a line each would cost the reaper the CPU it lacks then most.
    int status;
    pid_t pid;
    long orphans = 0;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
        if (!runner_exec_reaped(r, pid, status) && !runner_pty_reaped(r, pid, status) &&
            !runner_service_reaped(r, pid, status))
            orphans++;
    if (orphans > 0)
        runner_log("info", "reaped orphans count=%ld", orphans);
}

static void
s_on_accept(runner_t *r, int *fd_p, short revents)
{
    (void) fd_p, (void) revents;
    runner_conn_accept(r);
}

static void
s_on_conn(runner_t *r, int *fd_p, short revents)
{
    (void) fd_p;
    runner_conn_on_io(r, revents);
}

static void
s_on_stdout(runner_t *r, int *fd_p, short revents)
{
    (void) revents;
    runner_exec_on_output(r, fd_p, AGENT_RUNNER_STDOUT);
}

static void
s_on_stderr(runner_t *r, int *fd_p, short revents)
{
    (void) revents;
    runner_exec_on_output(r, fd_p, AGENT_RUNNER_STDERR);
}

static void
s_on_ctl(runner_t *r, int *fd_p, short revents)
{
    (void) fd_p, (void) revents;
    runner_exec_on_ctl(r);
}

static void
s_on_cmd(runner_t *r, int *fd_p, short revents)
{
    (void) fd_p, (void) revents;
    runner_exec_on_cmd(r);
}

static void
s_on_pty(runner_t *r, int *fd_p, short revents)
{
    (void) fd_p;
    runner_pty_on_io(r, revents);
}

//  The loop's table: what is watched depends on the state (output only while the
//  agent keeps up, writes only when something waits).
static int
s_build_watches(runner_t *r, s_watch_t *w)
{
    bool output = runner_output_allowed(r);
    bool conn_out = runner_buf_size(&r->out) > 0;
    int n = 0;
    w[n++] = (s_watch_t){&r->signal_fd, POLLIN, s_on_signal};
    w[n++] =
        (s_watch_t){&r->conn_fd, (short) (POLLIN | (conn_out ? POLLOUT : 0)), s_on_conn};
    w[n++] = (s_watch_t){&r->listen_fd, POLLIN, s_on_accept};
    w[n++] = (s_watch_t){&r->py_ctl, POLLIN, s_on_ctl};
    if (runner_buf_size(&r->py_cmdbuf) > 0)
        w[n++] = (s_watch_t){&r->py_cmd, POLLOUT, s_on_cmd};
    if (output) {
        w[n++] = (s_watch_t){&r->py_out, POLLIN, s_on_stdout};
        w[n++] = (s_watch_t){&r->py_err, POLLIN, s_on_stderr};
        w[n++] = (s_watch_t){&r->child_out, POLLIN, s_on_stdout};
        w[n++] = (s_watch_t){&r->child_err, POLLIN, s_on_stderr};
    }
    short pty =
        (short) ((output ? POLLIN : 0) | (runner_buf_size(&r->pty_in) ? POLLOUT : 0));
    if (pty)
        w[n++] = (s_watch_t){&r->pty_fd, pty, s_on_pty};
    assert(n <= S_WATCH_MAX);
    return n;
}

static void
s_loop(runner_t *r)
{
    while (!r->quit) {
        s_watch_t watches[S_WATCH_MAX];
        struct pollfd fds[S_WATCH_MAX];
        int n = s_build_watches(r, watches);
        for (int i = 0; i < n; i++)
            fds[i] = (struct pollfd){.fd = *watches[i].fd_p, .events = watches[i].events};
        if (poll(fds, (nfds_t) n, -1) < 0) {
            if (errno != EINTR)
                runner_log("error", "poll: %s", strerror(errno));
            continue;
        }
        for (int i = 0; i < n && !r->quit; i++)
            //  A handler earlier in this round may have closed this descriptor.
            if (fds[i].fd >= 0 && fds[i].revents && *watches[i].fd_p == fds[i].fd)
                watches[i].fn(r, watches[i].fd_p, fds[i].revents);
    }
}

//  Sends what is queued for the agent, waiting a little for the socket.
static void
s_flush(runner_t *r)
{
    for (int tries = 0; r->conn_fd >= 0 && runner_buf_size(&r->out) > 0 && tries < 10;
         tries++) {
        struct pollfd fd = {.fd = r->conn_fd, .events = POLLOUT};
        if (poll(&fd, 1, 100) > 0)
            runner_conn_on_io(r, POLLOUT);
    }
}

int
main(int argc, char **argv)
{
    runner_t runner = {.workdir = RUNNER_DEFAULT_WORKDIR,
                       .signal_fd = -1,
                       .listen_fd = -1,
                       .conn_fd = -1,
                       .pty_fd = -1};
    runner_t *r = &runner;
    runner_buf_init(&r->in);
    runner_buf_init(&r->out);
    runner_buf_init(&r->pty_in);
    runner_exec_init(r);
    if (s_parse_args(r, argc, argv) != 0) {
        s_usage();
        return S_EXIT_USAGE;
    }
    setvbuf(stderr, NULL, _IOLBF, 0);
    if (s_setup_signals(r) != 0)
        return 1;
    //  Before the socket appears: the kernel counts as started once it does.
    runner_sshkey_prepare(r);
    if (s_listen(r) != 0)
        return 1;
    struct stat st;
    if (stat(r->workdir, &st) != 0 || !S_ISDIR(st.st_mode))
        runner_log("warning", "workdir %s is not a directory", r->workdir);
    runner_log("notice", "listening socket=%s type=%s runtime=%s workdir=%s%s",
               r->socket_path, r->type, r->runtime, r->workdir,
               r->drop ? " drop=yes" : "");
    if (strcmp(r->type, "python") == 0 && runner_exec_python_start(r) != 0)
        runner_log("warning", "cannot start the interpreter: %s", strerror(errno));

    s_loop(r);

    s_flush(r);
    runner_exec_stop(r);
    runner_pty_stop(r);
    runner_service_stop(r);
    runner_conn_close(r, "runner exiting");
    runner_close(&r->listen_fd);
    unlink(r->socket_path);
    runner_buf_clear(&r->in);
    runner_buf_clear(&r->out);
    runner_log("notice", "exiting");
    return 0;
}
