/*  =========================================================================
    runner_exec - query-mode and batch runs: EXEC, BATCH, INPUT, INTERRUPT,
    STATUS

    For type python one interpreter lives as long as the runner: RUNTIME -u -c
    s_driver, with code blocks and input lines written to its fd 3 and input
    requests and completion markers read from its fd 4 (messages of a kind byte
    and a big-endian u32: 'C' n code, 'I' n line; 'W' password, 'D' status).
    stdout and stderr are pipes read all the time and sent as they come; before
    a marker is acted on they are drained, so every byte the code wrote comes
    before WAITING_INPUT or FINISHED. If the interpreter exits (sys.exit, a
    crash) the run finishes with its exit code and the next EXEC starts a fresh
    one. Types sh, bash and shell run RUNTIME -c CODE per EXEC; other types
    RUNTIME FILE with the code in a temporary file in the workdir. BATCH runs
    its non-empty steps with /bin/sh -c one after the other ("*" standing
    for the runtime's default, s_default_step). Every child leads
    its own process group, which INTERRUPT sends SIGINT to, or SIGKILL with
    the payload "KILL" (code that ignores SIGINT): for the interpreter that
    ends it, the run finishes with 137 and the next EXEC starts a fresh one.
    Only the interpreter reads input: other runs have /dev/null as stdin.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "runner_classes.h"

//  Bytes of a driver message header: kind, u32.
#define S_MSG_HEADER 5
#define S_BUSY_TEXT  "busy"
#define S_CODE_FILE  "/.backplane-code-XXXXXX"

//  The Python driver, run as `python3 -u -c s_driver`. SIGINT is ignored except
//  while user code runs, so an interrupt that arrives between runs cannot break
//  the message stream. The traceback leaves out the driver's own frame.
//  SystemExit is not caught: the interpreter exits with its code.
static const char s_driver[] =
    "import os, sys, struct, signal, builtins, traceback\n"
    "CMD, CTL = 3, 4\n"
    "os.set_inheritable(CMD, False)\n"
    "os.set_inheritable(CTL, False)\n"
    "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
    "sys.argv = ['']\n"
    "def read_exact(n):\n"
    "    data = b''\n"
    "    while len(data) < n:\n"
    "        chunk = os.read(CMD, n - len(data))\n"
    "        if not chunk:\n"
    "            os._exit(0)\n" //  the runner is gone
    "        data += chunk\n"
    "    return data\n"
    "def read_msg():\n"
    "    kind, n = struct.unpack('>cI', read_exact(5))\n"
    "    return read_exact(n)\n"
    "def send(kind, value):\n"
    "    os.write(CTL, struct.pack('>cI', kind, value))\n"
    "def ask(prompt, password):\n"
    "    sys.stdout.write(str(prompt))\n"
    "    sys.stdout.flush()\n"
    "    send(b'W', password)\n"
    "    return read_msg().decode('utf-8', 'replace')\n"
    "builtins.input = lambda prompt='': ask(prompt, 0)\n"
    "import getpass\n"
    "getpass.getpass = lambda prompt='Password: ', stream=None: ask(prompt, 1)\n"
    "user = {'__name__': '__main__', '__builtins__': builtins}\n"
    "def run(code):\n"
    "    status = 1\n"
    "    try:\n"
    "        try:\n"
    "            signal.signal(signal.SIGINT, signal.default_int_handler)\n"
    "            exec(compile(code, '<code>', 'exec'), user)\n"
    "            status = 0\n"
    "        finally:\n"
    "            signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
    "    except SystemExit:\n"
    "        raise\n"
    "    except BaseException as e:\n"
    "        tb = e.__traceback__\n"
    "        traceback.print_exception(type(e), e, tb.tb_next if tb else None)\n"
    "    sys.stdout.flush()\n"
    "    sys.stderr.flush()\n"
    "    return status\n"
    "while True:\n"
    "    send(b'D', run(read_msg()))\n";

static bool
s_is_python(const runner_t *r)
{
    return strcmp(r->type, "python") == 0;
}

static bool
s_is_shell(const runner_t *r)
{
    return strcmp(r->type, "sh") == 0 || strcmp(r->type, "bash") == 0 ||
           strcmp(r->type, "shell") == 0;
}

static void
s_close_pipes(int *fds, size_t n)
{
    for (size_t i = 0; i < n; i++)
        runner_close(&fds[i]);
}

static void
s_send_text(runner_t *r, uint8_t kind, uint32_t run_id, const char *text)
{
    runner_send(r, kind, run_id, text, strlen(text));
}

static void
s_send_finished(runner_t *r, uint32_t run_id, int code)
{
    uint8_t payload[4];
    agent_runner_put_u32(payload, (uint32_t) (int32_t) code);
    runner_send(r, AGENT_RUNNER_FINISHED, run_id, payload, sizeof payload);
}

//  Ends the current run with FINISHED and frees what it held.
static void
s_finish(runner_t *r, int code)
{
    runner_log("info", "run finished run=%" PRIu32 " exit=%d", r->run_id, code);
    s_send_finished(r, r->run_id, code);
    r->busy = r->in_python = r->waiting_input = r->batch = false;
    for (int i = 0; i < RUNNER_BATCH_STEPS; i++) {
        free(r->steps[i]);
        r->steps[i] = NULL;
    }
    if (r->code_file) {
        unlink(r->code_file);
        free(r->code_file);
        r->code_file = NULL;
    }
}

//  A run that could not start: the reason on STDERR, then FINISHED 127.
static void
s_fail(runner_t *r, const char *what)
{
    char text[256];
    snprintf(text, sizeof text, "backplane-runner: %s: %s\n", what, strerror(errno));
    runner_log("error", "run=%" PRIu32 " %s: %s", r->run_id, what, strerror(errno));
    s_send_text(r, AGENT_RUNNER_STDERR, r->run_id, text);
    s_finish(r, RUNNER_EXIT_SPAWN);
}

//  Starts argv as the run's child with piped stdout and stderr.
static int
s_start_child(runner_t *r, const char *const *argv)
{
    int out[2] = {-1, -1}, err[2] = {-1, -1};
    if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
        int pipes[] = {out[0], out[1], err[0], err[1]};
        s_close_pipes(pipes, 4);
        return -1;
    }
    runner_spawn_t spec = {
        .argv = argv, .fds = {-1, out[1], err[1]}, .nfds = 3, .tty = -1};
    pid_t pid = runner_spawn(r, &spec);
    runner_close(&out[1]);
    runner_close(&err[1]);
    if (pid < 0) {
        runner_close(&out[0]);
        runner_close(&err[0]);
        return -1;
    }
    runner_set_nonblock(out[0]);
    runner_set_nonblock(err[0]);
    r->child_pid = pid;
    r->child_out = out[0];
    r->child_err = err[0];
    return 0;
}

//  Queues a driver message: kind, u32 size, then the bytes.
static int
s_driver_send(runner_t *r, char kind, const void *data, size_t size)
{
    uint8_t header[S_MSG_HEADER] = {(uint8_t) kind};
    agent_runner_put_u32(header + 1, (uint32_t) size);
    if (runner_buf_reserve(&r->py_cmdbuf, sizeof header + size) != 0)
        return -1;
    runner_buf_append(&r->py_cmdbuf, header, sizeof header);
    runner_buf_append(&r->py_cmdbuf, data, size);
    return 0;
}

static void
s_exec_python(runner_t *r, const agent_runner_frame_t *frame)
{
    if (r->py_pid <= 0 && runner_exec_python_start(r) != 0) {
        s_fail(r, "cannot start the interpreter");
        return;
    }
    if (s_driver_send(r, 'C', frame->payload, frame->size) != 0) {
        s_fail(r, "cannot queue the code");
        return;
    }
    r->in_python = true;
}

static void
s_exec_shell(runner_t *r, const agent_runner_frame_t *frame)
{
    char *code = strndup((const char *) frame->payload, frame->size);
    if (!code) {
        s_fail(r, "cannot copy the code");
        return;
    }
    const char *argv[] = {r->runtime, "-c", code, NULL};
    int rc = s_start_child(r, argv);
    free(code);
    if (rc != 0)
        s_fail(r, "cannot start the shell");
}

static void
s_exec_file(runner_t *r, const agent_runner_frame_t *frame)
{
    size_t size = strlen(r->workdir) + sizeof S_CODE_FILE;
    r->code_file = malloc(size);
    if (!r->code_file) {
        s_fail(r, "cannot name the code file");
        return;
    }
    snprintf(r->code_file, size, "%s%s", r->workdir, S_CODE_FILE);
    int fd = mkstemp(r->code_file);
    if (fd < 0) {
        free(r->code_file);
        r->code_file = NULL;
        s_fail(r, "cannot create the code file");
        return;
    }
    bool ok = true;
    for (size_t done = 0; ok && done < frame->size;) {
        ssize_t n = write(fd, frame->payload + done, frame->size - done);
        ok = n > 0;
        done += ok ? (size_t) n : 0;
    }
    if (ok && r->drop)
        ok = fchown(fd, r->uid, r->gid) == 0;
    close(fd);
    const char *argv[] = {r->runtime, r->code_file, NULL};
    if (!ok)
        s_fail(r, "cannot write the code file");
    else if (s_start_child(r, argv) != 0)
        s_fail(r, "cannot start the runtime");
}

//  A batch step given as "*" asks for the runtime's default, as Backend.AI's
//  kernels have it: no clean; for Python a build from setup.py or
//  requirements.txt when the workdir has one, and main.py to execute; for
//  shells main.sh. Returns the command (an empty one skips the step) in
//  buf, or NULL when there is no default to run.
static const char *
s_default_step(const runner_t *r, int step, char *buf, size_t size)
{
    static const int clean = 0, build = 1;
    bool python = strcmp(r->type, "python") == 0;
    buf[0] = '\0';
    if (step == clean)
        return buf;
    if (step == build) {
        //  The steps run in the workdir; the runner itself does not.
        char setup[PATH_MAX], requirements[PATH_MAX];
        snprintf(setup, sizeof setup, "%s/setup.py", r->workdir);
        snprintf(requirements, sizeof requirements, "%s/requirements.txt", r->workdir);
        if (python && access(setup, R_OK) == 0)
            snprintf(buf, size, "'%s' setup.py develop --user", r->runtime);
        else if (python && access(requirements, R_OK) == 0)
            snprintf(buf, size, "'%s' -m pip install --user -r requirements.txt",
                     r->runtime);
        return buf;
    }
    if (python)
        snprintf(buf, size, "exec '%s' main.py", r->runtime);
    else if (s_is_shell(r))
        snprintf(buf, size, "exec '%s' main.sh", r->runtime);
    else
        return NULL;
    return buf;
}

//  Starts the next non-empty batch step, or finishes with last_code.
static void
s_batch_next(runner_t *r, int last_code)
{
    while (++r->step < RUNNER_BATCH_STEPS) {
        char heuristic[PATH_MAX + 64];
        const char *command = r->steps[r->step];
        if (strcmp(command, "*") == 0)
            command = s_default_step(r, r->step, heuristic, sizeof heuristic);
        if (!command) {
            errno = ENOENT;
            s_fail(r, "no default command for this runtime; give one");
            return;
        }
        if (command[0] == '\0')
            continue;
        runner_log("info", "batch step %d run=%" PRIu32, r->step, r->run_id);
        const char *argv[] = {RUNNER_SHELL, "-c", command, NULL};
        if (s_start_child(r, argv) != 0)
            s_fail(r, "cannot start the batch step");
        return;
    }
    s_finish(r, last_code);
}

//  Refuses a run while another one is going on. Returns true when refused.
static bool
s_refuse_busy(runner_t *r, const agent_runner_frame_t *frame)
{
    if (!r->busy)
        return false;
    runner_log("info", "%s refused run=%" PRIu32 ": busy with run=%" PRIu32,
               agent_runner_kind_name(frame->kind), frame->run_id, r->run_id);
    s_send_text(r, AGENT_RUNNER_STDERR, frame->run_id, S_BUSY_TEXT);
    s_send_finished(r, frame->run_id, AGENT_RUNNER_EXIT_BUSY);
    return true;
}

void
runner_exec_init(runner_t *r)
{
    r->child_out = r->child_err = -1;
    r->py_out = r->py_err = r->py_cmd = r->py_ctl = -1;
    runner_buf_init(&r->py_cmdbuf);
    runner_buf_init(&r->py_ctlbuf);
}

int
runner_exec_python_start(runner_t *r)
{
    int cmd[2] = {-1, -1}, ctl[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
    if (pipe2(cmd, O_CLOEXEC) != 0 || pipe2(ctl, O_CLOEXEC) != 0 ||
        pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
        int pipes[] = {cmd[0], cmd[1], ctl[0], ctl[1], out[0], out[1], err[0], err[1]};
        s_close_pipes(pipes, 8);
        return -1;
    }
    const char *argv[] = {r->runtime, "-u", "-c", s_driver, NULL};
    runner_spawn_t spec = {
        .argv = argv, .fds = {-1, out[1], err[1], cmd[0], ctl[1]}, .nfds = 5, .tty = -1};
    pid_t pid = runner_spawn(r, &spec);
    int child_ends[] = {out[1], err[1], cmd[0], ctl[1]};
    s_close_pipes(child_ends, 4);
    if (pid < 0) {
        int parent_ends[] = {out[0], err[0], cmd[1], ctl[0]};
        s_close_pipes(parent_ends, 4);
        return -1;
    }
    r->py_pid = pid;
    r->py_out = out[0];
    r->py_err = err[0];
    r->py_cmd = cmd[1];
    r->py_ctl = ctl[0];
    runner_set_nonblock(r->py_out);
    runner_set_nonblock(r->py_err);
    runner_set_nonblock(r->py_cmd);
    runner_set_nonblock(r->py_ctl);
    runner_buf_clear(&r->py_cmdbuf);
    runner_buf_clear(&r->py_ctlbuf);
    runner_log("notice", "interpreter started pid=%d runtime=%s", (int) pid, r->runtime);
    return 0;
}

void
runner_exec_on_exec(runner_t *r, const agent_runner_frame_t *frame)
{
    if (s_refuse_busy(r, frame))
        return;
    r->busy = true;
    r->run_id = frame->run_id;
    runner_log("info", "exec run=%" PRIu32 " bytes=%zu", frame->run_id, frame->size);
    if (s_is_python(r))
        s_exec_python(r, frame);
    else if (s_is_shell(r))
        s_exec_shell(r, frame);
    else
        s_exec_file(r, frame);
}

void
runner_exec_on_batch(runner_t *r, const agent_runner_frame_t *frame)
{
    if (s_refuse_busy(r, frame))
        return;
    r->busy = r->batch = true;
    r->run_id = frame->run_id;
    r->step = -1;
    //  Three NUL-separated fields; missing ones are empty, extra ones ignored.
    const char *at = (const char *) frame->payload, *end = at + frame->size;
    for (int i = 0; i < RUNNER_BATCH_STEPS; i++) {
        const char *nul = at < end ? memchr(at, '\0', (size_t) (end - at)) : NULL;
        size_t len = at < end ? (size_t) ((nul ? nul : end) - at) : 0;
        r->steps[i] = strndup(at < end ? at : "", len);
        if (!r->steps[i]) {
            s_fail(r, "cannot copy the batch");
            return;
        }
        at = nul ? nul + 1 : end;
    }
    runner_log("info", "batch run=%" PRIu32, frame->run_id);
    s_batch_next(r, 0);
}

void
runner_exec_on_input(runner_t *r, const agent_runner_frame_t *frame)
{
    if (!r->busy || !r->waiting_input) {
        runner_log("info", "input ignored run=%" PRIu32 ": no run waits for input",
                   frame->run_id);
        return;
    }
    //  input() returns the line without its end.
    size_t size = frame->size;
    if (size > 0 && frame->payload[size - 1] == '\n')
        size--;
    if (size > 0 && frame->payload[size - 1] == '\r')
        size--;
    if (s_driver_send(r, 'I', frame->payload, size) != 0) {
        runner_log("error", "input dropped run=%" PRIu32 ": out of memory", r->run_id);
        return;
    }
    r->waiting_input = false;
}

void
runner_exec_on_interrupt(runner_t *r, const agent_runner_frame_t *frame)
{
    pid_t group = r->in_python ? r->py_pid : r->child_pid;
    if (!r->busy || group <= 0 || frame->run_id != r->run_id) {
        //  A late one (for a run that ended) must not hit the next run.
        runner_log("info", "interrupt ignored run=%" PRIu32 ": it does not run",
                   frame->run_id);
        return;
    }
    size_t kill_size = strlen(AGENT_RUNNER_INTERRUPT_KILL);
    bool force = frame->size == kill_size &&
                 memcmp(frame->payload, AGENT_RUNNER_INTERRUPT_KILL, kill_size) == 0;
    runner_log("info", "%s run=%" PRIu32 " group=%d", force ? "kill" : "interrupt",
               r->run_id, (int) group);
    //  Its exit (reaped) finishes the run.
    kill(-group, force ? SIGKILL : SIGINT);
}

void
runner_exec_on_status(runner_t *r, const agent_runner_frame_t *frame)
{
    char text[32] = "idle";
    if (r->busy)
        snprintf(text, sizeof text, "busy %" PRIu32, r->run_id);
    s_send_text(r, AGENT_RUNNER_STATUS_REPLY, frame->run_id, text);
}

void
runner_exec_on_output(runner_t *r, int *fd_p, uint8_t kind)
{
    //  The interpreter's output between runs (a thread still printing) is dropped.
    runner_pipe_read(r, fd_p, kind, r->run_id, r->busy);
}

void
runner_exec_on_ctl(runner_t *r)
{
    uint8_t chunk[RUNNER_READ_CHUNK / 16];
    ssize_t n = read(r->py_ctl, chunk, sizeof chunk);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return;
    if (n <= 0 || runner_buf_append(&r->py_ctlbuf, chunk, (size_t) n) != 0) {
        runner_close(&r->py_ctl); //  the interpreter is ending; its exit finishes the run
        return;
    }
    while (runner_buf_size(&r->py_ctlbuf) >= S_MSG_HEADER) {
        const uint8_t *msg = runner_buf_data(&r->py_ctlbuf);
        char kind = (char) msg[0];
        uint32_t value = agent_runner_get_u32(msg + 1);
        runner_buf_consume(&r->py_ctlbuf, S_MSG_HEADER);
        bool ours = r->busy && r->in_python;
        runner_pipe_drain(r, &r->py_out, AGENT_RUNNER_STDOUT, r->run_id, ours);
        runner_pipe_drain(r, &r->py_err, AGENT_RUNNER_STDERR, r->run_id, ours);
        if (!ours)
            runner_log("warning", "driver message '%c' outside a run", kind);
        else if (kind == 'W') {
            r->waiting_input = true;
            r->input_password = value ? 1 : 0;
            runner_send(r, AGENT_RUNNER_WAITING_INPUT, r->run_id, &r->input_password, 1);
        } else if (kind == 'D')
            s_finish(r, (int) (int32_t) value);
        else
            runner_log("error", "unknown driver message '%c'", kind);
    }
}

void
runner_exec_on_cmd(runner_t *r)
{
    while (runner_buf_size(&r->py_cmdbuf) > 0) {
        ssize_t n = write(r->py_cmd, runner_buf_data(&r->py_cmdbuf),
                          runner_buf_size(&r->py_cmdbuf));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n <= 0) {
            //  The interpreter is gone; its exit status finishes the run.
            runner_buf_clear(&r->py_cmdbuf);
            runner_close(&r->py_cmd);
            return;
        }
        runner_buf_consume(&r->py_cmdbuf, (size_t) n);
    }
}

bool
runner_exec_reaped(runner_t *r, pid_t pid, int status)
{
    int code = runner_exit_code(status);
    if (pid == r->py_pid) {
        bool ours = r->busy && r->in_python;
        runner_pipe_drain(r, &r->py_out, AGENT_RUNNER_STDOUT, r->run_id, ours);
        runner_pipe_drain(r, &r->py_err, AGENT_RUNNER_STDERR, r->run_id, ours);
        int fds[] = {r->py_out, r->py_err, r->py_cmd, r->py_ctl};
        s_close_pipes(fds, 4);
        r->py_out = r->py_err = r->py_cmd = r->py_ctl = -1;
        runner_buf_clear(&r->py_cmdbuf);
        runner_buf_clear(&r->py_ctlbuf);
        r->py_pid = 0;
        runner_log("notice", "interpreter exited pid=%d exit=%d", (int) pid, code);
        if (ours)
            s_finish(r, code);
        return true;
    }
    if (pid == r->child_pid) {
        runner_pipe_drain(r, &r->child_out, AGENT_RUNNER_STDOUT, r->run_id, true);
        runner_pipe_drain(r, &r->child_err, AGENT_RUNNER_STDERR, r->run_id, true);
        runner_close(&r->child_out);
        runner_close(&r->child_err);
        r->child_pid = 0;
        if (r->busy && r->batch && code == 0)
            s_batch_next(r, code);
        else if (r->busy)
            s_finish(r, code);
        return true;
    }
    return false;
}

void
runner_exec_stop(runner_t *r)
{
    if (r->py_pid > 0)
        kill(-r->py_pid, SIGKILL);
    if (r->child_pid > 0)
        kill(-r->child_pid, SIGKILL);
    int fds[] = {r->py_out, r->py_err, r->py_cmd, r->py_ctl, r->child_out, r->child_err};
    s_close_pipes(fds, 6);
    r->py_out = r->py_err = r->py_cmd = r->py_ctl = r->child_out = r->child_err = -1;
    runner_buf_clear(&r->py_cmdbuf);
    runner_buf_clear(&r->py_ctlbuf);
    for (int i = 0; i < RUNNER_BATCH_STEPS; i++) {
        free(r->steps[i]);
        r->steps[i] = NULL;
    }
    if (r->code_file) {
        unlink(r->code_file);
        free(r->code_file);
        r->code_file = NULL;
    }
}
