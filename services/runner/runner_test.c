/*  =========================================================================
    runner_test - starts the real backplane-runner on a socket in a temporary
    directory and drives it through the frame protocol, as the agent would

    The runner is $BACKPLANE_BINDIR/backplane-runner (make check sets it) or
    ../bin/backplane-runner next to this test. Python cases use
    /usr/bin/python3 and the sh cases /bin/sh on the host; no container. Also
    covers the frame helpers and the byte queue in process.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "runner_classes.h"
#include "t.h"

//  How long a test waits for any one answer.
#define S_TIMEOUT_MS 5000
#define S_PYTHON     "/usr/bin/python3"

static char s_runner_path[PATH_MAX];

typedef struct {
    pid_t pid;
    char dir[64];
    char socket[128];
    int fd;
} s_runner_t;

//  What came back for one run.
typedef struct {
    runner_buf_t out;
    runner_buf_t err;
    runner_buf_t pty;
    bool finished;
    int code;
    bool waiting;
    uint8_t password;
    bool closed;
    char reply[64]; //  STATUS or SERVICE_RESULT text
} s_result_t;

static int
s_connect(const char *path)
{
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path);
    for (int tries = 0; tries < 200; tries++) {
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd >= 0 && connect(fd, (struct sockaddr *) &addr, sizeof addr) == 0)
            return fd;
        if (fd >= 0)
            close(fd);
        usleep(10000);
    }
    return -1;
}

//  Starts a runner of the given type and connects to it. Returns 0 or -1.
static int
s_start(s_runner_t *r, const char *type, const char *runtime)
{
    snprintf(r->dir, sizeof r->dir, "/tmp/runner_test.XXXXXX");
    if (!mkdtemp(r->dir))
        return -1;
    snprintf(r->socket, sizeof r->socket, "%s/runner.sock", r->dir);
    r->pid = fork();
    if (r->pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (!getenv("RUNNER_TEST_VERBOSE"))
            dup2(null, STDERR_FILENO);
        execl(s_runner_path, s_runner_path, "--socket", r->socket, "--runtime", runtime,
              "--type", type, "--workdir", r->dir, (char *) NULL);
        _exit(127);
    }
    r->fd = s_connect(r->socket);
    return r->pid > 0 && r->fd >= 0 ? 0 : -1;
}

static void
s_stop(s_runner_t *r)
{
    if (r->fd >= 0)
        close(r->fd);
    r->fd = -1;
    if (r->pid > 0) {
        kill(r->pid, SIGTERM);
        waitpid(r->pid, NULL, 0);
        r->pid = 0;
    }
    char command[128];
    snprintf(command, sizeof command, "rm -rf %s", r->dir);
    if (system(command) != 0)
        fprintf(stderr, "# cannot remove %s\n", r->dir);
}

static int
s_send(int fd, uint8_t kind, uint32_t run_id, const void *payload, size_t size)
{
    uint8_t header[AGENT_RUNNER_HEADER_SIZE];
    agent_runner_header_encode(header, kind, run_id, size);
    if (write(fd, header, sizeof header) != (ssize_t) sizeof header)
        return -1;
    const uint8_t *at = payload;
    while (size > 0) {
        ssize_t n = write(fd, at, size);
        if (n <= 0)
            return -1;
        at += n;
        size -= (size_t) n;
    }
    return 0;
}

static int
s_send_text(int fd, uint8_t kind, uint32_t run_id, const char *text)
{
    return s_send(fd, kind, run_id, text, strlen(text));
}

static void
s_result_init(s_result_t *res)
{
    memset(res, 0, sizeof *res);
}

static void
s_result_clear(s_result_t *res)
{
    runner_buf_clear(&res->out);
    runner_buf_clear(&res->err);
    runner_buf_clear(&res->pty);
}

//  The bytes of a buffer as a string (a NUL is appended to the queue).
static const char *
s_str(runner_buf_t *buf)
{
    runner_buf_append(buf, "", 1);
    buf->end--; //  keep the NUL out of the size
    return (const char *) runner_buf_data(buf);
}

//  Reads frames into res until FINISHED for run_id, WAITING_INPUT, a reply
//  (STATUS/SERVICE_RESULT) when want_reply, stdout or terminal output containing
//  until, the
//  connection closes, or the timeout. Returns 0, or -1 on timeout.
static int s_poll_ms = S_TIMEOUT_MS; //  how long s_collect waits for more

static int
s_collect(int fd, uint32_t run_id, s_result_t *res, bool want_reply, const char *until)
{
    static runner_buf_t in;
    for (;;) {
        agent_runner_frame_t frame;
        long used;
        while ((used = agent_runner_frame_decode(runner_buf_data(&in),
                                                 runner_buf_size(&in), &frame)) > 0) {
            bool done = false;
            if (frame.kind == AGENT_RUNNER_STDOUT && frame.run_id == run_id) {
                runner_buf_append(&res->out, frame.payload, frame.size);
                done = until && strstr(s_str(&res->out), until);
            } else if (frame.kind == AGENT_RUNNER_STDERR && frame.run_id == run_id)
                runner_buf_append(&res->err, frame.payload, frame.size);
            else if (frame.kind == AGENT_RUNNER_PTY_OUT && frame.run_id == run_id) {
                runner_buf_append(&res->pty, frame.payload, frame.size);
                done = until && strstr(s_str(&res->pty), until);
            } else if (frame.kind == AGENT_RUNNER_WAITING_INPUT &&
                       frame.run_id == run_id) {
                res->waiting = true;
                res->password = frame.size ? frame.payload[0] : 0;
                done = true;
            } else if (frame.kind == AGENT_RUNNER_FINISHED && frame.run_id == run_id) {
                int32_t code;
                res->finished = agent_runner_finished_decode(&frame, &code) == 0;
                res->code = code;
                done = true;
            } else if (frame.kind == AGENT_RUNNER_STATUS_REPLY ||
                       frame.kind == AGENT_RUNNER_SERVICE_RESULT) {
                size_t n = frame.size < sizeof res->reply - 1 ? frame.size
                                                              : sizeof res->reply - 1;
                memcpy(res->reply, frame.payload, n);
                res->reply[n] = '\0';
                done = want_reply;
            }
            runner_buf_consume(&in, (size_t) used);
            if (done)
                return 0;
        }
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, s_poll_ms) <= 0) {
            if (s_poll_ms == S_TIMEOUT_MS) //  a short wait keeps what it has
                runner_buf_clear(&in);
            return -1;
        }
        uint8_t chunk[65536];
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n <= 0) {
            res->closed = true;
            runner_buf_clear(&in);
            return 0;
        }
        runner_buf_append(&in, chunk, (size_t) n);
    }
}

//  Runs code and waits for its end.
static int
s_exec(s_runner_t *r, uint32_t run_id, const char *code, s_result_t *res)
{
    s_result_init(res);
    if (s_send_text(r->fd, AGENT_RUNNER_EXEC, run_id, code) != 0)
        return -1;
    return s_collect(r->fd, run_id, res, false, NULL);
}

static s_runner_t s_py = {.fd = -1};
static s_runner_t s_sh = {.fd = -1};

static void
test_proto_frames(void)
{
    uint8_t buf[64];
    size_t n = agent_runner_frame_encode(buf, AGENT_RUNNER_EXEC, 0x01020304, "hi", 2);
    T_EQ_INT(n, 11);
    agent_runner_frame_t frame;
    T_EQ_INT(agent_runner_frame_decode(buf, n - 1, &frame), AGENT_RUNNER_NEED_MORE);
    T_EQ_INT(agent_runner_frame_decode(buf, 3, &frame), AGENT_RUNNER_NEED_MORE);
    T_EQ_INT(agent_runner_frame_decode(buf, n, &frame), 11);
    T_EQ_INT(frame.kind, AGENT_RUNNER_EXEC);
    T_EQ_INT(frame.run_id, 0x01020304);
    T_EQ_INT(frame.size, 2);
    T_ASSERT(memcmp(frame.payload, "hi", 2) == 0);
    uint8_t bad[9] = {0, 0, 0, 4};
    T_EQ_INT(agent_runner_frame_decode(bad, 9, &frame), AGENT_RUNNER_MALFORMED);
    uint8_t huge[4] = {0xff, 0xff, 0xff, 0xff};
    T_EQ_INT(agent_runner_frame_decode(huge, 4, &frame), AGENT_RUNNER_MALFORMED);
    T_ASSERT(agent_runner_kind_valid(AGENT_RUNNER_SHUTDOWN, true));
    T_ASSERT(!agent_runner_kind_valid(AGENT_RUNNER_STDOUT, true));
    T_ASSERT(agent_runner_kind_valid(AGENT_RUNNER_STATUS_REPLY, false));
    T_EQ_STR(agent_runner_kind_name(AGENT_RUNNER_FINISHED), "FINISHED");
    T_EQ_STR(agent_runner_kind_name(200), "UNKNOWN");
    n = agent_runner_frame_encode(buf, AGENT_RUNNER_FINISHED, 1, "\xff\xff\xff\xfe", 4);
    T_EQ_INT(agent_runner_frame_decode(buf, n, &frame), 13);
    int32_t code = 0;
    T_EQ_INT(agent_runner_finished_decode(&frame, &code), 0);
    T_EQ_INT(code, AGENT_RUNNER_EXIT_BUSY);
}

static void
test_buf(void)
{
    runner_buf_t buf;
    runner_buf_init(&buf);
    char chunk[1000];
    memset(chunk, 'a', sizeof chunk);
    for (int i = 0; i < 100; i++)
        T_EQ_INT(runner_buf_append(&buf, chunk, sizeof chunk), 0);
    T_EQ_INT(runner_buf_size(&buf), 100000);
    runner_buf_consume(&buf, 99999);
    T_EQ_INT(runner_buf_size(&buf), 1);
    T_EQ_INT(runner_buf_append(&buf, "b", 1), 0);
    T_ASSERT(memcmp(runner_buf_data(&buf), "ab", 2) == 0);
    runner_buf_consume(&buf, 2);
    T_EQ_INT(runner_buf_size(&buf), 0);
    runner_buf_clear(&buf);
    runner_buf_clear(&buf);
}

static void
test_python_print(void)
{
    T_EQ_INT(s_start(&s_py, "python", S_PYTHON), 0);
    s_result_t res;
    T_EQ_INT(s_exec(&s_py, 1, "print(6*7)", &res), 0);
    T_ASSERT(res.finished);
    T_EQ_INT(res.code, 0);
    T_EQ_STR(s_str(&res.out), "42\n");
    T_EQ_INT(runner_buf_size(&res.err), 0);
    s_result_clear(&res);
}

static void
test_python_state(void)
{
    s_result_t res;
    T_EQ_INT(s_exec(&s_py, 2, "x = 6", &res), 0);
    T_EQ_INT(res.code, 0);
    T_EQ_INT(s_exec(&s_py, 3, "print(x*7)", &res), 0);
    T_EQ_INT(res.code, 0);
    T_EQ_STR(s_str(&res.out), "42\n");
    s_result_clear(&res);
}

static void
test_python_exception(void)
{
    s_result_t res;
    T_EQ_INT(s_exec(&s_py, 4, "def f():\n    return 1/0\nf()", &res), 0);
    T_EQ_INT(res.code, 1);
    T_CONTAINS(s_str(&res.err), "Traceback (most recent call last)");
    T_CONTAINS(s_str(&res.err), "ZeroDivisionError");
    T_ASSERT(!strstr(s_str(&res.err), "<string>")); //  no driver frame
    s_result_clear(&res);
    T_EQ_INT(s_exec(&s_py, 5, "print('after', x)", &res), 0);
    T_EQ_INT(res.code, 0);
    T_EQ_STR(s_str(&res.out), "after 6\n");
    s_result_clear(&res);
    T_EQ_INT(s_exec(&s_py, 6, "print(", &res), 0);
    T_EQ_INT(res.code, 1);
    T_CONTAINS(s_str(&res.err), "SyntaxError");
    s_result_clear(&res);
}

static void
test_python_input(void)
{
    s_result_t res;
    T_EQ_INT(s_exec(&s_py, 7, "name = input('name? ')\nprint('got', name)", &res), 0);
    T_ASSERT(res.waiting);
    T_EQ_INT(res.password, 0);
    T_EQ_STR(s_str(&res.out), "name? ");
    s_result_clear(&res);
    s_result_init(&res);
    T_EQ_INT(s_send_text(s_py.fd, AGENT_RUNNER_INPUT, 7, "abc\n"), 0);
    T_EQ_INT(s_collect(s_py.fd, 7, &res, false, NULL), 0);
    T_ASSERT(res.finished);
    T_EQ_INT(res.code, 0);
    T_EQ_STR(s_str(&res.out), "got abc\n");
    s_result_clear(&res);

    T_EQ_INT(s_exec(&s_py, 8, "import getpass\nprint(len(getpass.getpass()))", &res), 0);
    T_ASSERT(res.waiting);
    T_EQ_INT(res.password, 1);
    s_result_clear(&res);
    s_result_init(&res);
    T_EQ_INT(s_send_text(s_py.fd, AGENT_RUNNER_INPUT, 8, "secret"), 0);
    T_EQ_INT(s_collect(s_py.fd, 8, &res, false, NULL), 0);
    T_EQ_INT(res.code, 0);
    T_EQ_STR(s_str(&res.out), "6\n");
    s_result_clear(&res);
}

static void
test_python_interrupt(void)
{
    s_result_t res;
    s_result_init(&res);
    T_EQ_INT(
        s_send_text(s_py.fd, AGENT_RUNNER_EXEC, 9, "print('spin')\nwhile True: pass"), 0);
    T_EQ_INT(s_collect(s_py.fd, 9, &res, false, "spin\n"), 0);
    T_EQ_INT(s_send(s_py.fd, AGENT_RUNNER_INTERRUPT, 9, NULL, 0), 0);
    T_EQ_INT(s_collect(s_py.fd, 9, &res, false, NULL), 0);
    T_ASSERT(res.finished);
    T_EQ_INT(res.code, 1);
    T_EQ_STR(s_str(&res.out), "spin\n");
    T_CONTAINS(s_str(&res.err), "KeyboardInterrupt");
    s_result_clear(&res);
    //  The interpreter survived with its state.
    T_EQ_INT(s_exec(&s_py, 10, "print(x)", &res), 0);
    T_EQ_INT(res.code, 0);
    T_EQ_STR(s_str(&res.out), "6\n");
    s_result_clear(&res);
    //  An interrupt while idle changes nothing.
    T_EQ_INT(s_send(s_py.fd, AGENT_RUNNER_INTERRUPT, 11, NULL, 0), 0);
    T_EQ_INT(s_exec(&s_py, 12, "print(x+1)", &res), 0);
    T_EQ_STR(s_str(&res.out), "7\n");
    s_result_clear(&res);
}

static void
test_python_exit(void)
{
    s_result_t res;
    T_EQ_INT(s_exec(&s_py, 13, "import sys\nprint('bye')\nsys.exit(3)", &res), 0);
    T_ASSERT(res.finished);
    T_EQ_INT(res.code, 3);
    T_EQ_STR(s_str(&res.out), "bye\n");
    s_result_clear(&res);
    T_EQ_INT(s_exec(&s_py, 14, "print('x' in globals())", &res), 0);
    T_EQ_INT(res.code, 0);
    T_EQ_STR(s_str(&res.out), "False\n");
    s_result_clear(&res);
    T_EQ_INT(s_exec(&s_py, 15, "x = 6", &res), 0);
    s_result_clear(&res);
}

static void
test_python_kill(void)
{
    //  Code deaf to SIGINT: KILL ends the interpreter, the next run gets a
    //  fresh one.
    s_result_t res;
    s_result_init(&res);
    T_EQ_INT(s_send_text(s_py.fd, AGENT_RUNNER_EXEC, 17,
                         "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                         "print('deaf')\nwhile True: pass"),
             0);
    T_EQ_INT(s_collect(s_py.fd, 17, &res, false, "deaf\n"), 0);
    T_EQ_INT(
        s_send_text(s_py.fd, AGENT_RUNNER_INTERRUPT, 17, AGENT_RUNNER_INTERRUPT_KILL), 0);
    T_EQ_INT(s_collect(s_py.fd, 17, &res, false, NULL), 0);
    T_ASSERT(res.finished);
    T_EQ_INT(res.code, RUNNER_EXIT_SIGNAL_BASE + SIGKILL);
    s_result_clear(&res);
    T_EQ_INT(s_exec(&s_py, 18, "print('x' in globals())", &res), 0);
    T_EQ_INT(res.code, 0);
    T_EQ_STR(s_str(&res.out), "False\n");
    s_result_clear(&res);
    T_EQ_INT(s_exec(&s_py, 19, "x = 6", &res), 0);
    s_result_clear(&res);
}

static void
test_python_large_output(void)
{
    s_result_t res;
    T_EQ_INT(s_exec(&s_py, 16,
                    "import sys\n"
                    "for i in range(1 << 14):\n"
                    "    sys.stdout.write('%063d\\n' % i)\n",
                    &res),
             0);
    T_EQ_INT(res.code, 0);
    T_EQ_INT(runner_buf_size(&res.out), 1 << 20);
    const char *out = s_str(&res.out);
    bool in_order = true;
    for (int i = 0; i < 1 << 14 && in_order; i++) {
        char line[65];
        snprintf(line, sizeof line, "%063d\n", i);
        in_order = memcmp(out + i * 64, line, 64) == 0;
    }
    T_ASSERT(in_order);
    s_result_clear(&res);
}

static void
test_python_busy(void)
{
    s_result_t res, busy;
    s_result_init(&res);
    s_result_init(&busy);
    T_EQ_INT(s_send_text(s_py.fd, AGENT_RUNNER_EXEC, 20, "import time\ntime.sleep(0.3)"),
             0);
    T_EQ_INT(s_send_text(s_py.fd, AGENT_RUNNER_EXEC, 21, "print('no')"), 0);
    T_EQ_INT(s_collect(s_py.fd, 21, &busy, false, NULL), 0);
    T_EQ_INT(busy.code, AGENT_RUNNER_EXIT_BUSY);
    T_EQ_STR(s_str(&busy.err), "busy");
    T_EQ_INT(s_send(s_py.fd, AGENT_RUNNER_STATUS, 22, NULL, 0), 0);
    T_EQ_INT(s_collect(s_py.fd, 22, &busy, true, NULL), 0);
    T_EQ_STR(busy.reply, "busy 20");
    T_EQ_INT(s_send(s_py.fd, AGENT_RUNNER_BATCH, 23, "\0\0true", 6), 0);
    T_EQ_INT(s_collect(s_py.fd, 23, &busy, false, NULL), 0);
    T_EQ_INT(busy.code, AGENT_RUNNER_EXIT_BUSY);
    T_EQ_INT(s_collect(s_py.fd, 20, &res, false, NULL), 0);
    T_EQ_INT(res.code, 0);
    T_EQ_INT(s_send(s_py.fd, AGENT_RUNNER_STATUS, 24, NULL, 0), 0);
    T_EQ_INT(s_collect(s_py.fd, 24, &busy, true, NULL), 0);
    T_EQ_STR(busy.reply, "idle");
    s_result_clear(&res);
    s_result_clear(&busy);
}

static void
test_python_reconnect(void)
{
    //  State survives the agent going away, and a run's output waits for it.
    s_result_t res;
    s_result_init(&res);
    T_EQ_INT(s_send_text(s_py.fd, AGENT_RUNNER_EXEC, 30,
                         "import time\ntime.sleep(0.2)\nprint('while away', x)"),
             0);
    close(s_py.fd);
    s_py.fd = s_connect(s_py.socket);
    T_ASSERT(s_py.fd >= 0);
    T_EQ_INT(s_collect(s_py.fd, 30, &res, false, NULL), 0);
    T_EQ_INT(res.code, 0);
    T_EQ_STR(s_str(&res.out), "while away 6\n");
    s_result_clear(&res);
}

//  Each malformed input closes the connection; the runner keeps serving.
static void
test_malformed_frames(void)
{
    static const uint8_t oversized[] = {0xff, 0xff, 0xff, 0xff, 1, 0, 0, 0, 1};
    static const uint8_t short_length[] = {0, 0, 0, 2, 1, 0};
    static const uint8_t unknown_kind[] = {0, 0, 0, 5, 42, 0, 0, 0, 1};
    static const uint8_t agent_kind[] = {0, 0, 0, 5, AGENT_RUNNER_STDOUT, 0, 0, 0, 1};
    const uint8_t *bad[] = {oversized, short_length, unknown_kind, agent_kind};
    size_t sizes[] = {sizeof oversized, sizeof short_length, sizeof unknown_kind,
                      sizeof agent_kind};
    for (size_t i = 0; i < 4; i++) {
        T_EQ_INT(write(s_py.fd, bad[i], sizes[i]), (ssize_t) sizes[i]);
        s_result_t res;
        s_result_init(&res);
        T_EQ_INT(s_collect(s_py.fd, 0, &res, false, NULL), 0);
        T_ASSERT(res.closed);
        close(s_py.fd);
        s_py.fd = s_connect(s_py.socket);
        T_ASSERT(s_py.fd >= 0);
    }
    //  A truncated frame, then the agent goes away.
    static const uint8_t truncated[] = {0, 0, 0, 100, 1, 0, 0, 0, 1, 'p'};
    T_EQ_INT(write(s_py.fd, truncated, sizeof truncated), (ssize_t) sizeof truncated);
    close(s_py.fd);
    s_py.fd = s_connect(s_py.socket);
    T_ASSERT(s_py.fd >= 0);
    s_result_t res;
    T_EQ_INT(s_exec(&s_py, 40, "print('still', x)", &res), 0);
    T_EQ_INT(res.code, 0);
    T_EQ_STR(s_str(&res.out), "still 6\n");
    s_result_clear(&res);
}

static void
test_shutdown(void)
{
    T_EQ_INT(s_send(s_py.fd, AGENT_RUNNER_SHUTDOWN, 50, NULL, 0), 0);
    int status = 0;
    T_EQ_INT(waitpid(s_py.pid, &status, 0), s_py.pid);
    s_py.pid = 0;
    T_ASSERT(WIFEXITED(status));
    T_EQ_INT(WEXITSTATUS(status), 0);
    T_EQ_INT(access(s_py.socket, F_OK), -1);
}

static void
test_sh_exec(void)
{
    T_EQ_INT(s_start(&s_sh, "sh", "/bin/sh"), 0);
    s_result_t res;
    T_EQ_INT(s_exec(&s_sh, 1, "echo hi; echo oops >&2; exit 4", &res), 0);
    T_ASSERT(res.finished);
    T_EQ_INT(res.code, 4);
    T_EQ_STR(s_str(&res.out), "hi\n");
    T_EQ_STR(s_str(&res.err), "oops\n");
    s_result_clear(&res);
    //  Runs in the workdir.
    T_EQ_INT(s_exec(&s_sh, 2, "pwd", &res), 0);
    T_CONTAINS(s_str(&res.out), s_sh.dir);
    s_result_clear(&res);
}

//  Interrupts run_id until it finishes, as a person presses Ctrl-C again: a
//  shell that the SIGINT reaches before it has started its foreground child
//  (the machine busy) waits for that child to end before it exits. 0 once
//  the run finished, -1 if it did not within S_TIMEOUT_MS.
static int
s_interrupt_until_finished(int fd, uint32_t run_id, s_result_t *res)
{
    int rc = -1;
    for (int waited = 0; rc != 0 && waited < S_TIMEOUT_MS; waited += 250) {
        if (s_send(fd, AGENT_RUNNER_INTERRUPT, run_id, NULL, 0) != 0)
            break;
        s_poll_ms = 250;
        rc = s_collect(fd, run_id, res, false, NULL);
        s_poll_ms = S_TIMEOUT_MS;
    }
    return rc;
}

static void
test_sh_interrupt(void)
{
    s_result_t res;
    s_result_init(&res);
    T_EQ_INT(s_send_text(s_sh.fd, AGENT_RUNNER_EXEC, 3, "echo start; sleep 5; echo late"),
             0);
    T_EQ_INT(s_collect(s_sh.fd, 3, &res, false, "start\n"), 0);
    T_EQ_INT(s_interrupt_until_finished(s_sh.fd, 3, &res), 0);
    T_ASSERT(res.finished);
    T_EQ_INT(res.code, RUNNER_EXIT_SIGNAL_BASE + SIGINT);
    T_EQ_STR(s_str(&res.out), "start\n");
    s_result_clear(&res);
}

static void
test_sh_kill(void)
{
    //  SIGINT ignored by the shell and its sleep: KILL takes the whole group.
    s_result_t res;
    s_result_init(&res);
    T_EQ_INT(s_send_text(s_sh.fd, AGENT_RUNNER_EXEC, 6,
                         "trap '' INT; echo start; sleep 30; echo late"),
             0);
    T_EQ_INT(s_collect(s_sh.fd, 6, &res, false, "start\n"), 0);
    T_EQ_INT(s_send(s_sh.fd, AGENT_RUNNER_INTERRUPT, 6, NULL, 0), 0);
    T_EQ_INT(s_send_text(s_sh.fd, AGENT_RUNNER_INTERRUPT, 6, AGENT_RUNNER_INTERRUPT_KILL),
             0);
    T_EQ_INT(s_collect(s_sh.fd, 6, &res, false, NULL), 0);
    T_ASSERT(res.finished);
    T_EQ_INT(res.code, RUNNER_EXIT_SIGNAL_BASE + SIGKILL);
    T_EQ_STR(s_str(&res.out), "start\n");
    s_result_clear(&res);
    //  The next run goes.
    T_EQ_INT(s_exec(&s_sh, 7, "echo next", &res), 0);
    T_EQ_INT(res.code, 0);
    T_EQ_STR(s_str(&res.out), "next\n");
    s_result_clear(&res);
}

static void
test_sh_batch(void)
{
    static const char failing[] = "echo clean\0echo build; exit 2\0echo exec";
    s_result_t res;
    s_result_init(&res);
    T_EQ_INT(s_send(s_sh.fd, AGENT_RUNNER_BATCH, 4, failing, sizeof failing - 1), 0);
    T_EQ_INT(s_collect(s_sh.fd, 4, &res, false, NULL), 0);
    T_EQ_INT(res.code, 2);
    T_EQ_STR(s_str(&res.out), "clean\nbuild\n");
    s_result_clear(&res);
    static const char passing[] = "\0echo build > built\0cat built; pwd";
    s_result_init(&res);
    T_EQ_INT(s_send(s_sh.fd, AGENT_RUNNER_BATCH, 5, passing, sizeof passing - 1), 0);
    T_EQ_INT(s_collect(s_sh.fd, 5, &res, false, NULL), 0);
    T_EQ_INT(res.code, 0);
    T_CONTAINS(s_str(&res.out), "build\n");
    T_CONTAINS(s_str(&res.out), s_sh.dir);
    s_result_clear(&res);
}

static void
test_pty(void)
{
    s_result_t res;
    s_result_init(&res);
    T_EQ_INT(s_send_text(s_sh.fd, AGENT_RUNNER_PTY_OPEN, 60, "24 80"), 0);
    T_EQ_INT(s_send_text(s_sh.fd, AGENT_RUNNER_PTY_RESIZE, 60, "30 100"), 0);
    T_EQ_INT(s_send_text(s_sh.fd, AGENT_RUNNER_PTY_DATA, 60, "echo pty-$((40+2))\n"), 0);
    T_EQ_INT(s_collect(s_sh.fd, 60, &res, false, "pty-42"), 0);
    T_CONTAINS(s_str(&res.pty), "pty-42");
    T_EQ_INT(s_send_text(s_sh.fd, AGENT_RUNNER_PTY_DATA, 60, "stty size; exit 5\n"), 0);
    T_EQ_INT(s_collect(s_sh.fd, 60, &res, false, NULL), 0);
    T_ASSERT(res.finished);
    T_EQ_INT(res.code, 5);
    T_CONTAINS(s_str(&res.pty), "30 100");
    s_result_clear(&res);
}

static void
test_service(void)
{
    s_result_t res;
    s_result_init(&res);
    static const char request[] = "web\0sleep 30";
    T_EQ_INT(s_send(s_sh.fd, AGENT_RUNNER_SERVICE, 70, request, sizeof request - 1), 0);
    T_EQ_INT(s_collect(s_sh.fd, 70, &res, true, NULL), 0);
    T_EQ_STR(res.reply, "started");
    s_result_clear(&res);
    s_result_init(&res);
    //  Asked again while it runs: nothing new is started.
    T_EQ_INT(s_send(s_sh.fd, AGENT_RUNNER_SERVICE, 72, request, sizeof request - 1), 0);
    T_EQ_INT(s_collect(s_sh.fd, 72, &res, true, NULL), 0);
    T_EQ_STR(res.reply, "running");
    s_result_clear(&res);
    s_result_init(&res);
    T_EQ_INT(s_send(s_sh.fd, AGENT_RUNNER_SERVICE, 71, "web", 3), 0);
    T_EQ_INT(s_collect(s_sh.fd, 71, &res, true, NULL), 0);
    T_CONTAINS(res.reply, "invalid");
    s_result_clear(&res);
}

static void
test_other_type(void)
{
    s_runner_t other = {.fd = -1};
    T_EQ_INT(s_start(&other, "file", "/bin/sh"), 0);
    s_result_t res;
    T_EQ_INT(s_exec(&other, 1, "echo file-$((1+1)) \"$0\"", &res), 0);
    T_EQ_INT(res.code, 0);
    T_CONTAINS(s_str(&res.out), "file-2");
    T_CONTAINS(s_str(&res.out), ".backplane-code-");
    s_result_clear(&res);
    s_stop(&other);
}

int
main(int argc, char **argv)
{
    (void) argc;
    t_binary_path(s_runner_path, sizeof s_runner_path, argv[0], "runner");
    signal(SIGPIPE, SIG_IGN);
    T_RUN(test_proto_frames);
    T_RUN(test_buf);
    T_RUN(test_python_print);
    T_RUN(test_python_state);
    T_RUN(test_python_exception);
    T_RUN(test_python_input);
    T_RUN(test_python_interrupt);
    T_RUN(test_python_exit);
    T_RUN(test_python_kill);
    T_RUN(test_python_large_output);
    T_RUN(test_python_busy);
    T_RUN(test_python_reconnect);
    T_RUN(test_malformed_frames);
    T_RUN(test_shutdown);
    T_RUN(test_sh_exec);
    T_RUN(test_sh_interrupt);
    T_RUN(test_sh_kill);
    T_RUN(test_sh_batch);
    T_RUN(test_pty);
    T_RUN(test_service);
    T_RUN(test_other_type);
    s_stop(&s_py);
    s_stop(&s_sh);
    return T_DONE();
}
