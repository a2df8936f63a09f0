/*  =========================================================================
    runner_pty - a shell on a pseudo-terminal: PTY_OPEN, PTY_DATA, PTY_RESIZE

    PTY_OPEN starts bash -i (or sh -i when there is no bash) as the user on a
    new pseudo-terminal, in its own session with the terminal as controlling
    tty; what it prints comes back as PTY_OUT frames with the PTY_OPEN's run id,
    and its exit as FINISHED with that id. One terminal at a time: a PTY_OPEN
    while the shell lives re-attaches to it (takes the new run id and size), so
    an agent that reconnects finds the same shell. The terminal is independent
    of EXEC and BATCH runs.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "runner_classes.h"

//  Reads "<rows> <cols>"; anything else gives the default size.
static struct winsize
s_parse_size(const agent_runner_frame_t *frame)
{
    struct winsize size = {.ws_row = RUNNER_PTY_ROWS, .ws_col = RUNNER_PTY_COLS};
    char text[32];
    size_t n = frame->size < sizeof text - 1 ? frame->size : sizeof text - 1;
    memcpy(text, frame->payload, n);
    text[n] = '\0';
    unsigned rows, cols;
    if (sscanf(text, "%u %u", &rows, &cols) == 2 && rows > 0 && rows <= USHRT_MAX &&
        cols > 0 && cols <= USHRT_MAX) {
        size.ws_row = (unsigned short) rows;
        size.ws_col = (unsigned short) cols;
    }
    return size;
}

static void
s_fail(runner_t *r, uint32_t run_id, const char *what)
{
    char text[256];
    snprintf(text, sizeof text, "backplane-runner: %s: %s\r\n", what, strerror(errno));
    runner_log("error", "pty run=%" PRIu32 " %s: %s", run_id, what, strerror(errno));
    runner_send(r, AGENT_RUNNER_PTY_OUT, run_id, text, strlen(text));
    uint8_t code[4];
    agent_runner_put_u32(code, RUNNER_EXIT_SPAWN);
    runner_send(r, AGENT_RUNNER_FINISHED, run_id, code, sizeof code);
}

void
runner_pty_on_open(runner_t *r, const agent_runner_frame_t *frame)
{
    struct winsize size = s_parse_size(frame);
    if (r->pty_pid > 0) {
        runner_log("info", "pty re-attached run=%" PRIu32, frame->run_id);
        r->pty_run_id = frame->run_id;
        ioctl(r->pty_fd, TIOCSWINSZ, &size);
        return;
    }
    int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    char name[128];
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0 ||
        ptsname_r(master, name, sizeof name) != 0) {
        s_fail(r, frame->run_id, "cannot open a pseudo-terminal");
        runner_close(&master);
        return;
    }
    int slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (slave < 0) {
        s_fail(r, frame->run_id, "cannot open the terminal");
        runner_close(&master);
        return;
    }
    ioctl(slave, TIOCSWINSZ, &size);
    if (r->drop && fchown(slave, r->uid, r->gid) != 0)
        runner_log("warning", "pty: chown %s: %s", name, strerror(errno));
    const char *shell = access(RUNNER_BASH, X_OK) == 0 ? RUNNER_BASH : RUNNER_SHELL;
    const char *argv[] = {shell, "-i", NULL};
    runner_spawn_t spec = {.argv = argv, .nfds = 0, .tty = slave};
    pid_t pid = runner_spawn(r, &spec);
    runner_close(&slave);
    if (pid < 0) {
        s_fail(r, frame->run_id, "cannot start the shell");
        runner_close(&master);
        return;
    }
    runner_set_nonblock(master);
    r->pty_fd = master;
    r->pty_pid = pid;
    r->pty_run_id = frame->run_id;
    runner_log("info", "pty opened run=%" PRIu32 " shell=%s pid=%d", frame->run_id, shell,
               (int) pid);
}

void
runner_pty_on_data(runner_t *r, const agent_runner_frame_t *frame)
{
    if (r->pty_fd < 0) {
        runner_log("info", "pty data ignored run=%" PRIu32 ": no terminal",
                   frame->run_id);
        return;
    }
    if (runner_buf_size(&r->pty_in) + frame->size > RUNNER_PTY_IN_MAX ||
        runner_buf_append(&r->pty_in, frame->payload, frame->size) != 0)
        runner_log("warning", "pty input dropped: %zu bytes", frame->size);
}

void
runner_pty_on_resize(runner_t *r, const agent_runner_frame_t *frame)
{
    if (r->pty_fd < 0)
        return;
    struct winsize size = s_parse_size(frame);
    if (ioctl(r->pty_fd, TIOCSWINSZ, &size) != 0)
        runner_log("warning", "pty resize: %s", strerror(errno));
}

void
runner_pty_on_io(runner_t *r, short revents)
{
    while ((revents & POLLOUT) && runner_buf_size(&r->pty_in) > 0) {
        ssize_t n =
            write(r->pty_fd, runner_buf_data(&r->pty_in), runner_buf_size(&r->pty_in));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK)
                runner_buf_clear(&r->pty_in); //  the shell is gone
            break;
        }
        runner_buf_consume(&r->pty_in, (size_t) n);
    }
    if (revents & (POLLIN | POLLHUP | POLLERR))
        runner_pipe_read(r, &r->pty_fd, AGENT_RUNNER_PTY_OUT, r->pty_run_id, true);
}

bool
runner_pty_reaped(runner_t *r, pid_t pid, int status)
{
    if (pid != r->pty_pid)
        return false;
    int code = runner_exit_code(status);
    runner_pipe_drain(r, &r->pty_fd, AGENT_RUNNER_PTY_OUT, r->pty_run_id, true);
    runner_close(&r->pty_fd);
    runner_buf_clear(&r->pty_in);
    r->pty_pid = 0;
    runner_log("info", "pty closed run=%" PRIu32 " exit=%d", r->pty_run_id, code);
    uint8_t payload[4];
    agent_runner_put_u32(payload, (uint32_t) code);
    runner_send(r, AGENT_RUNNER_FINISHED, r->pty_run_id, payload, sizeof payload);
    return true;
}

void
runner_pty_stop(runner_t *r)
{
    if (r->pty_pid > 0)
        kill(-r->pty_pid, SIGKILL);
    runner_close(&r->pty_fd);
    runner_buf_clear(&r->pty_in);
}
