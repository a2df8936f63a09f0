/*  =========================================================================
    agent_runner_client_test - the agent's runner client against the real
    backplane-runner on a Unix socket in a temporary directory

    The runner is $BACKPLANE_BINDIR/backplane-runner or ../bin/backplane-runner
    next to this test. Python cases use /usr/bin/python3, shell cases /bin/sh,
    on the host; no container. Every case drives the client from a libevent
    loop, as the agent does, and checks each callback fires exactly once.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
//  fork/kill/waitpid for the runner, its socket file, and a raw connection to it.
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include "t.h"

//  How long any one answer may take.
#define S_TIMEOUT_MS 10000
#define S_PYTHON     "/usr/bin/python3"

static char s_runner_path[PATH_MAX];
static struct event_base *s_base;

typedef struct {
    pid_t pid;
    char dir[64];
    char socket[100]; //  fits sun_path
} s_runner_t;

//  One collect or status answer.
typedef struct {
    int count;
    json_t *result;
    bool failed;
    bus_error_t err;
    char reply[64];
} s_answer_t;

static int
s_start(s_runner_t *r, const char *type, const char *runtime)
{
    snprintf(r->dir, sizeof r->dir, "/tmp/agent_runner_client_test.XXXXXX");
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
    for (int tries = 0; tries < 500; tries++) {
        struct stat st;
        if (stat(r->socket, &st) == 0)
            return 0;
        usleep(10000);
    }
    return -1;
}

static void
s_stop(s_runner_t *r)
{
    if (r->pid > 0) {
        kill(r->pid, SIGTERM);
        waitpid(r->pid, NULL, 0);
        r->pid = 0;
    }
    char command[160];
    snprintf(command, sizeof command, "rm -rf %s", r->dir);
    if (system(command) != 0)
        fprintf(stderr, "# cannot remove %s\n", r->dir);
}

static void
s_answer_clear(s_answer_t *a)
{
    json_decref(a->result);
    memset(a, 0, sizeof *a);
}

static void
s_on_collect(json_t *result, const bus_error_t *err, void *arg)
{
    s_answer_t *a = arg;
    a->count++;
    if (result)
        a->result = json_incref(result);
    if (err) {
        a->failed = true;
        a->err = *err;
    }
}

static void
s_on_status(const char *reply, const bus_error_t *err, void *arg)
{
    s_answer_t *a = arg;
    a->count++;
    if (reply)
        snprintf(a->reply, sizeof a->reply, "%s", reply);
    if (err) {
        a->failed = true;
        a->err = *err;
    }
}

//  Runs the loop until a has an answer or the timeout. Returns 0 or -1.
static int
s_wait(s_answer_t *a)
{
    int64_t deadline = zclock_mono() + S_TIMEOUT_MS;
    while (a->count == 0 && zclock_mono() < deadline) {
        struct timeval tick = {0, 20000};
        event_base_loopexit(s_base, &tick);
        event_base_dispatch(s_base);
    }
    return a->count > 0 ? 0 : -1;
}

//  Collects run_id into a (cleared first) and waits for the answer.
static int
s_collect(agent_runner_client_t *c, const char *run_id, int wait_ms, s_answer_t *a)
{
    s_answer_clear(a);
    agent_runner_client_collect(c, run_id, wait_ms, s_on_collect, a);
    if (a->count != 0)
        return -1; //  must not be called from inside collect
    return s_wait(a);
}

//  Runs the loop for ms milliseconds.
static void
s_spin(int ms)
{
    struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
    event_base_loopexit(s_base, &tv);
    event_base_dispatch(s_base);
}

static const char *
s_status(s_answer_t *a)
{
    return a->result ? json_string_value(json_object_get(a->result, "status")) : NULL;
}

static int
s_exit_code(s_answer_t *a)
{
    json_t *code = a->result ? json_object_get(a->result, "exitCode") : NULL;
    return json_is_integer(code) ? (int) json_integer_value(code) : -999;
}

//  The console as compact JSON, in a static buffer.
static const char *
s_console(s_answer_t *a)
{
    static char text[256];
    char *dump = a->result ? json_dumps(json_object_get(a->result, "console"),
                                        JSON_COMPACT | JSON_ENSURE_ASCII)
                           : NULL;
    snprintf(text, sizeof text, "%s", dump ? dump : "(none)");
    free(dump);
    return text;
}

//  Appends the text of every console item of stream to out.
static void
s_gather(s_answer_t *a, const char *stream, char *out, size_t size)
{
    json_t *console = a->result ? json_object_get(a->result, "console") : NULL;
    size_t i;
    json_t *item;
    json_array_foreach(console, i, item)
    {
        if (strcmp(json_string_value(json_array_get(item, 0)), stream) == 0)
            strncat(out, json_string_value(json_array_get(item, 1)),
                    size - strlen(out) - 1);
    }
}

static s_runner_t s_py;
static s_runner_t s_sh;
static agent_runner_client_t *s_pyc;
static agent_runner_client_t *s_shc;

static int
s_exec(agent_runner_client_t *c, const char *run_id, const char *code)
{
    bus_error_t err = {0};
    int rc = agent_runner_client_exec(c, run_id, code, strlen(code), &err);
    if (rc != 0)
        fprintf(stderr, "# exec %s: %s\n", run_id, err.detail);
    return rc;
}

static void
test_python_print(void)
{
    T_EQ_INT(s_start(&s_py, "python", S_PYTHON), 0);
    bus_error_t err;
    s_pyc = agent_runner_client_new(s_base, s_py.socket, &err);
    T_ASSERT(s_pyc);
    T_ASSERT(!agent_runner_client_connected(s_pyc));
    T_EQ_INT(s_exec(s_pyc, "r1", "print(6*7)"), 0);
    s_answer_t a = {0};
    T_EQ_INT(s_collect(s_pyc, "r1", 5000, &a), 0);
    T_EQ_INT(a.count, 1);
    T_ASSERT(!a.failed);
    T_EQ_STR(s_status(&a), "finished");
    T_EQ_INT(s_exit_code(&a), 0);
    T_EQ_STR(s_console(&a), "[[\"stdout\",\"42\\n\"]]");
    T_EQ_STR(json_string_value(json_object_get(a.result, "runId")), "r1");
    T_ASSERT(json_is_array(json_object_get(a.result, "files")));
    T_ASSERT(json_is_object(json_object_get(a.result, "options")));
    //  A finished run is forgotten.
    T_EQ_INT(s_collect(s_pyc, "r1", 100, &a), 0);
    T_ASSERT(a.failed);
    T_EQ_INT(a.err.status, BUS_STATUS_NOT_FOUND);
    s_answer_clear(&a);
}

static void
test_python_state(void)
{
    s_answer_t a = {0};
    T_EQ_INT(s_exec(s_pyc, "r2", "x = 6"), 0);
    T_EQ_INT(s_collect(s_pyc, "r2", 5000, &a), 0);
    T_EQ_STR(s_status(&a), "finished");
    T_EQ_STR(s_console(&a), "[]");
    T_EQ_INT(s_exec(s_pyc, "r3", "print(x*7)\nraise ValueError('boom')"), 0);
    T_EQ_INT(s_collect(s_pyc, "r3", 5000, &a), 0);
    T_EQ_INT(s_exit_code(&a), 1);
    char out[4096] = "", errs[4096] = "";
    s_gather(&a, "stdout", out, sizeof out);
    s_gather(&a, "stderr", errs, sizeof errs);
    T_EQ_STR(out, "42\n");
    T_CONTAINS(errs, "ValueError: boom");
    s_answer_clear(&a);
}

static void
test_python_continued(void)
{
    T_EQ_INT(s_exec(s_pyc, "r4",
                    "import time\n"
                    "for i in range(4):\n"
                    "    print(i, flush=True)\n"
                    "    time.sleep(0.25)\n"),
             0);
    //  A second run while this one goes is refused here, before the runner.
    bus_error_t err = {0};
    T_EQ_INT(agent_runner_client_exec(s_pyc, "r5", "print(1)", 8, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_CONFLICT);
    s_answer_t a = {0};
    char out[256] = "";
    int continued = 0;
    for (int i = 0; i < 100; i++) {
        T_EQ_INT(s_collect(s_pyc, "r4", 150, &a), 0);
        T_ASSERT(!a.failed);
        s_gather(&a, "stdout", out, sizeof out);
        if (strcmp(s_status(&a), "finished") == 0)
            break;
        T_EQ_STR(s_status(&a), "continued");
        T_ASSERT(json_is_null(json_object_get(a.result, "exitCode")));
        continued++;
    }
    T_EQ_STR(s_status(&a), "finished");
    T_EQ_INT(s_exit_code(&a), 0);
    T_ASSERT(continued >= 2);
    T_EQ_STR(out, "0\n1\n2\n3\n");
    s_answer_clear(&a);
}

static void
test_python_input(void)
{
    s_answer_t a = {0};
    bus_error_t err;
    T_EQ_INT(s_exec(s_pyc, "r6", "name = input('name? ')\nprint('got', name)"), 0);
    T_EQ_INT(s_collect(s_pyc, "r6", 5000, &a), 0);
    T_EQ_STR(s_status(&a), "waiting-input");
    T_ASSERT(json_is_false(
        json_object_get(json_object_get(a.result, "options"), "is_password")));
    T_EQ_STR(s_console(&a), "[[\"stdout\",\"name? \"]]");
    T_EQ_INT(agent_runner_client_input(s_pyc, "r6", "abc", &err), 0);
    T_EQ_INT(s_collect(s_pyc, "r6", 5000, &a), 0);
    T_EQ_STR(s_status(&a), "finished");
    T_EQ_STR(s_console(&a), "[[\"stdout\",\"got abc\\n\"]]");

    T_EQ_INT(s_exec(s_pyc, "r7", "import getpass\nprint(len(getpass.getpass()))"), 0);
    T_EQ_INT(s_collect(s_pyc, "r7", 5000, &a), 0);
    T_EQ_STR(s_status(&a), "waiting-input");
    T_ASSERT(json_is_true(
        json_object_get(json_object_get(a.result, "options"), "is_password")));
    T_EQ_INT(agent_runner_client_input(s_pyc, "r7", "secret\n", &err), 0);
    T_EQ_INT(s_collect(s_pyc, "r7", 5000, &a), 0);
    T_EQ_STR(s_status(&a), "finished");
    T_EQ_STR(s_console(&a), "[[\"stdout\",\"6\\n\"]]");
    T_EQ_INT(agent_runner_client_input(s_pyc, "r7", "late", &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_NOT_FOUND);
    s_answer_clear(&a);
}

static void
test_python_interrupt(void)
{
    s_answer_t a = {0};
    bus_error_t err;
    T_EQ_INT(s_exec(s_pyc, "r8", "print('spin', flush=True)\nwhile True: pass"), 0);
    char out[256] = "", errs[4096] = "";
    for (int i = 0; i < 50 && !strstr(out, "spin"); i++) {
        T_EQ_INT(s_collect(s_pyc, "r8", 100, &a), 0);
        T_EQ_STR(s_status(&a), "continued");
        s_gather(&a, "stdout", out, sizeof out);
    }
    T_EQ_STR(out, "spin\n");
    T_EQ_INT(agent_runner_client_interrupt(s_pyc, "r8", &err), 0);
    T_EQ_INT(s_collect(s_pyc, "r8", 5000, &a), 0);
    T_EQ_STR(s_status(&a), "finished");
    T_EQ_INT(s_exit_code(&a), 1);
    s_gather(&a, "stderr", errs, sizeof errs);
    T_CONTAINS(errs, "KeyboardInterrupt");
    //  The interpreter kept its state.
    T_EQ_INT(s_exec(s_pyc, "r9", "print(x)"), 0);
    T_EQ_INT(s_collect(s_pyc, "r9", 5000, &a), 0);
    T_EQ_STR(s_console(&a), "[[\"stdout\",\"6\\n\"]]");
    s_answer_clear(&a);
}

static void
test_python_truncated(void)
{
    s_answer_t a = {0};
    T_EQ_INT(s_exec(s_pyc, "r10", "import sys\nsys.stdout.write('x' * (9 << 20))"), 0);
    T_EQ_INT(s_collect(s_pyc, "r10", S_TIMEOUT_MS, &a), 0);
    T_EQ_STR(s_status(&a), "finished");
    T_ASSERT(
        json_is_true(json_object_get(json_object_get(a.result, "options"), "truncated")));
    json_t *console = json_object_get(a.result, "console");
    T_EQ_INT(json_array_size(console), 2);
    T_EQ_INT(json_string_length(json_array_get(json_array_get(console, 0), 1)),
             AGENT_RUNNER_CLIENT_OUTPUT_MAX);
    T_CONTAINS(json_string_value(json_array_get(json_array_get(console, 1), 1)),
               "[output truncated: 1048576 bytes dropped]");
    s_answer_clear(&a);
}

static void
test_python_utf8_split(void)
{
    //  A character cut between two collects comes out whole in the second.
    s_answer_t a = {0};
    T_EQ_INT(s_exec(s_pyc, "r14",
                    "import sys, time\n"
                    "sys.stdout.buffer.write(b'a\\xc3'); sys.stdout.flush()\n"
                    "time.sleep(0.4)\n"
                    "sys.stdout.buffer.write(b'\\xa9\\n'); sys.stdout.flush()\n"),
             0);
    T_EQ_INT(s_collect(s_pyc, "r14", 200, &a), 0);
    T_EQ_STR(s_status(&a), "continued");
    T_EQ_STR(s_console(&a), "[[\"stdout\",\"a\"]]");
    T_EQ_INT(s_collect(s_pyc, "r14", 5000, &a), 0);
    T_EQ_STR(s_status(&a), "finished");
    T_EQ_STR(s_console(&a), "[[\"stdout\",\"\\u00E9\\n\"]]");
    s_answer_clear(&a);
}

static void
test_python_reconnect(void)
{
    //  Another connection takes the runner over; the client takes it back and
    //  gets the run's output, which the runner kept.
    s_answer_t a = {0};
    T_EQ_INT(s_exec(s_pyc, "r15", "import time\ntime.sleep(0.3)\nprint('after')"), 0);
    s_spin(50);
    T_ASSERT(agent_runner_client_connected(s_pyc));
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", s_py.socket);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    T_ASSERT(fd >= 0);
    T_EQ_INT(connect(fd, (struct sockaddr *) &addr, sizeof addr), 0);
    T_EQ_INT(s_collect(s_pyc, "r15", 5000, &a), 0);
    close(fd);
    T_EQ_STR(s_status(&a), "finished");
    T_EQ_STR(s_console(&a), "[[\"stdout\",\"after\\n\"]]");
    s_answer_clear(&a);
}

static void
test_runner_busy(void)
{
    //  An agent that restarted meets a run of its predecessor.
    T_EQ_INT(s_exec(s_pyc, "r11", "import time\ntime.sleep(0.5)"), 0);
    s_spin(50);
    agent_runner_client_destroy(&s_pyc);
    T_ASSERT(!s_pyc);
    agent_runner_client_destroy(&s_pyc);
    bus_error_t err;
    s_pyc = agent_runner_client_new(s_base, s_py.socket, &err);
    T_ASSERT(s_pyc);
    s_answer_t a = {0};
    agent_runner_client_status(s_pyc, 5000, s_on_status, &a);
    T_EQ_INT(s_wait(&a), 0);
    T_CONTAINS(a.reply, "busy ");
    s_answer_clear(&a);
    T_EQ_INT(s_exec(s_pyc, "r12", "print('no')"), 0);
    T_EQ_INT(s_collect(s_pyc, "r12", 5000, &a), 0);
    T_ASSERT(a.failed);
    T_EQ_INT(a.err.status, BUS_STATUS_CONFLICT);
    T_CONTAINS(a.err.detail, "busy");
    //  Once the old run ends, the runner takes runs again.
    for (int i = 0; i < 100 && strcmp(a.reply, "idle") != 0; i++) {
        s_answer_clear(&a);
        agent_runner_client_status(s_pyc, 5000, s_on_status, &a);
        T_EQ_INT(s_wait(&a), 0);
        if (strcmp(a.reply, "idle") != 0)
            s_spin(50);
    }
    T_EQ_STR(a.reply, "idle");
    T_EQ_INT(s_exec(s_pyc, "r12", "print(x+1)"), 0);
    T_EQ_INT(s_collect(s_pyc, "r12", 5000, &a), 0);
    T_EQ_STR(s_console(&a), "[[\"stdout\",\"7\\n\"]]");
    s_answer_clear(&a);
}

static void
test_python_shutdown(void)
{
    bus_error_t err;
    T_EQ_INT(agent_runner_client_shutdown(s_pyc, &err), 0);
    s_spin(100);
    int status = 0;
    T_EQ_INT(waitpid(s_py.pid, &status, 0), s_py.pid);
    s_py.pid = 0;
    T_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    s_spin(50);
    T_ASSERT(!agent_runner_client_connected(s_pyc));
    T_EQ_INT(agent_runner_client_exec(s_pyc, "r13", "1", 1, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_UNAVAILABLE);
    s_answer_t a = {0};
    agent_runner_client_status(s_pyc, 5000, s_on_status, &a);
    T_EQ_INT(a.count, 0);
    T_EQ_INT(s_wait(&a), 0);
    T_EQ_INT(a.err.status, BUS_STATUS_UNAVAILABLE);
    agent_runner_client_destroy(&s_pyc);
}

static void
test_sh_streams(void)
{
    T_EQ_INT(s_start(&s_sh, "sh", "/bin/sh"), 0);
    bus_error_t err;
    s_shc = agent_runner_client_new(s_base, s_sh.socket, &err);
    T_ASSERT(s_shc);
    T_EQ_INT(s_exec(s_shc, "s1",
                    "echo a; echo b; sleep 0.1; echo c >&2; sleep 0.1; echo d;"
                    " printf 'e\\377f'; exit 3"),
             0);
    s_answer_t a = {0};
    T_EQ_INT(s_collect(s_shc, "s1", 5000, &a), 0);
    T_EQ_STR(s_status(&a), "finished");
    T_EQ_INT(s_exit_code(&a), 3);
    T_EQ_STR(s_console(&a), "[[\"stdout\",\"a\\nb\\n\"],[\"stderr\",\"c\\n\"],"
                            "[\"stdout\",\"d\\ne\\uFFFDf\"]]");
    s_answer_clear(&a);
}

static void
test_sh_batch(void)
{
    bus_error_t err;
    s_answer_t a = {0};
    T_EQ_INT(agent_runner_client_batch(s_shc, "b1", "echo clean", "echo build; exit 2",
                                       "echo exec", &err),
             0);
    T_EQ_INT(s_collect(s_shc, "b1", 5000, &a), 0);
    T_EQ_STR(s_status(&a), "finished");
    T_EQ_INT(s_exit_code(&a), 2);
    T_EQ_STR(s_console(&a), "[[\"stdout\",\"clean\\nbuild\\n\"]]");
    T_EQ_INT(agent_runner_client_batch(s_shc, "b2", NULL, "echo ok > f", "cat f", &err),
             0);
    T_EQ_INT(s_collect(s_shc, "b2", 5000, &a), 0);
    T_EQ_INT(s_exit_code(&a), 0);
    T_EQ_STR(s_console(&a), "[[\"stdout\",\"ok\\n\"]]");
    s_answer_clear(&a);
}

static void
test_sh_interrupt(void)
{
    bus_error_t err;
    s_answer_t a = {0};
    T_EQ_INT(s_exec(s_shc, "s2", "while :; do sleep 0.05; done"), 0);
    T_EQ_INT(s_collect(s_shc, "s2", 100, &a), 0);
    T_EQ_STR(s_status(&a), "continued");
    T_EQ_INT(agent_runner_client_interrupt(s_shc, "s2", &err), 0);
    T_EQ_INT(s_collect(s_shc, "s2", 5000, &a), 0);
    T_EQ_STR(s_status(&a), "finished");
    T_EQ_INT(s_exit_code(&a), 128 + SIGINT);
    s_answer_clear(&a);
}

static void
test_destroy_pending(void)
{
    s_answer_t a = {0}, b = {0};
    T_EQ_INT(s_exec(s_shc, "s3", "sleep 1"), 0);
    agent_runner_client_collect(s_shc, "s3", S_TIMEOUT_MS, s_on_collect, &a);
    s_spin(20);
    T_EQ_INT(a.count, 0);
    agent_runner_client_status(s_shc, S_TIMEOUT_MS, s_on_status, &b);
    agent_runner_client_destroy(&s_shc);
    T_EQ_INT(a.count, 1);
    T_EQ_INT(a.err.status, BUS_STATUS_UNAVAILABLE);
    T_EQ_INT(b.count, 1);
    T_EQ_INT(b.err.status, BUS_STATUS_UNAVAILABLE);
    s_spin(20);
    T_EQ_INT(a.count, 1);
    T_EQ_INT(b.count, 1);
    s_answer_clear(&a);
    s_answer_clear(&b);
}

static void
s_on_kill(evutil_socket_t fd, short what, void *arg)
{
    (void) fd, (void) what;
    kill(*(pid_t *) arg, SIGKILL);
}

static void
test_runner_killed(void)
{
    bus_error_t err;
    s_shc = agent_runner_client_new(s_base, s_sh.socket, &err);
    T_ASSERT(s_shc);
    s_answer_t a = {0}, b = {0};
    //  The runner may still be busy with s3 from the previous case.
    for (int i = 0; i < 100; i++) {
        s_answer_clear(&b);
        agent_runner_client_status(s_shc, 5000, s_on_status, &b);
        T_EQ_INT(s_wait(&b), 0);
        if (strcmp(b.reply, "idle") == 0)
            break;
        s_spin(50);
    }
    T_EQ_STR(b.reply, "idle");
    T_EQ_INT(s_exec(s_shc, "s4", "echo started; sleep 2"), 0);
    struct timeval later = {0, 300000};
    event_base_once(s_base, -1, EV_TIMEOUT, s_on_kill, &s_sh.pid, &later);
    int64_t start = zclock_mono();
    agent_runner_client_collect(s_shc, "s4", S_TIMEOUT_MS, s_on_collect, &a);
    T_EQ_INT(s_wait(&a), 0);
    T_ASSERT(zclock_mono() - start < 3000);
    T_EQ_INT(a.count, 1);
    T_ASSERT(a.failed);
    T_EQ_INT(a.err.status, BUS_STATUS_UNAVAILABLE);
    waitpid(s_sh.pid, NULL, 0);
    s_sh.pid = 0;
    //  Later calls fail at once.
    T_EQ_INT(agent_runner_client_exec(s_shc, "s5", "true", 4, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_UNAVAILABLE);
    T_EQ_INT(s_collect(s_shc, "s4", 1000, &a), 0);
    T_EQ_INT(a.err.status, BUS_STATUS_NOT_FOUND);
    agent_runner_client_destroy(&s_shc);
    s_answer_clear(&a);
    s_answer_clear(&b);
}

static void
test_bad_calls(void)
{
    bus_error_t err;
    char long_path[200];
    memset(long_path, 'a', sizeof long_path - 1);
    long_path[sizeof long_path - 1] = '\0';
    T_ASSERT(!agent_runner_client_new(s_base, long_path, &err));
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    agent_runner_client_t *c =
        agent_runner_client_new(s_base, "/nonexistent/runner.sock", &err);
    T_ASSERT(c);
    T_EQ_INT(agent_runner_client_exec(c, "", "1", 1, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_EQ_INT(agent_runner_client_exec(c, "x", "1", 1, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_UNAVAILABLE);
    s_answer_t a = {0};
    T_EQ_INT(s_collect(c, "x", 1000, &a), 0);
    T_EQ_INT(a.err.status, BUS_STATUS_NOT_FOUND);
    T_EQ_INT(agent_runner_client_interrupt(c, "x", &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_NOT_FOUND);
    agent_runner_client_destroy(&c);
    s_answer_clear(&a);
}

int
main(int argc, char **argv)
{
    (void) argc;
    t_binary_path(s_runner_path, sizeof s_runner_path, argv[0], "runner");
    signal(SIGPIPE, SIG_IGN);
    s_base = event_base_new();
    T_RUN(test_python_print);
    T_RUN(test_python_state);
    T_RUN(test_python_continued);
    T_RUN(test_python_input);
    T_RUN(test_python_interrupt);
    T_RUN(test_python_truncated);
    T_RUN(test_python_utf8_split);
    T_RUN(test_python_reconnect);
    T_RUN(test_runner_busy);
    T_RUN(test_python_shutdown);
    T_RUN(test_sh_streams);
    T_RUN(test_sh_batch);
    T_RUN(test_sh_interrupt);
    T_RUN(test_destroy_pending);
    T_RUN(test_runner_killed);
    T_RUN(test_bad_calls);
    agent_runner_client_destroy(&s_pyc);
    agent_runner_client_destroy(&s_shc);
    s_stop(&s_py);
    s_stop(&s_sh);
    event_base_free(s_base);
    return T_DONE();
}
