/*  =========================================================================
    fresh_start_test - the README's commands on a machine that never ran them

    A stranger's first hour starts with `make check` and `make run` on a
    fresh Debian machine, where nothing our earlier runs leave behind
    exists: no /run/netns, no runc state, no bridge, no nft table, an empty
    state directory. This test makes that machine for itself: it enters a
    mount namespace with an empty /run and a network namespace of its own
    (where the fixed ports of the config files are free and no bridge or
    nft table exists), then:

      - runs agent_net_test there (it once failed the first time, creating a
        namespace before anything had made /run/netns);
      - types `make run` at a terminal (a pty of its own) on an empty state
        directory inside a build tree, and the moment it prints "Backplane
        is running" creates a virtual folder and a session (both once failed
        for a few seconds after the banner), and finds /healthz ready and
        the agent's NAT table in place;
      - presses Ctrl-C on that terminal and expects make itself to exit 0
        (make, given SIGINT, ended by it: run-local takes the terminal),
        every service stopped, no sanitizer report in any log;
      - runs make over a build tree that holds that state, with the image
        trees a Python session unpacks (directories named *.d: they once
        broke every make after the first Python session);
      - types `make run` a second time on the same state: ready again, the
        session left running is still there, a new one runs, and after
        every session is destroyed Ctrl-C exits 0 and leaves no NAT table
        and no bridge.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "gateway_client.h"
#include "harness.h"
#include "t.h"

#define BANNER_MS 120000 //  run-local builds nothing; services start in seconds
#define STOP_MS   30000

static char *s_dir;
static char s_state[PATH_MAX], s_log[PATH_MAX];
static pid_t s_make = -1;     //  `make run`, the leader of the terminal's session
static int s_terminal = -1;   //  the master side of its terminal
static client_platform_t s_p; //  only api and super are used: make run starts it

//  Whether path's contents contain needle.
static bool
s_file_has(const char *path, const char *needle)
{
    FILE *file = fopen(path, "r");
    if (!file)
        return false;
    char line[4096];
    bool found = false;
    while (!found && fgets(line, sizeof line, file))
        found = strstr(line, needle) != NULL;
    fclose(file);
    return found;
}

//  The last lines run-local printed, as TAP comments.
static void
s_show_log(int lines)
{
    char command[PATH_MAX + 64];
    snprintf(command, sizeof command, "tail -n %d %s | sed 's/^/# /'", lines, s_log);
    harness_shell(command);
}

//  The test binaries sit beside the service binaries: BINDIR/../test.
static void
s_test_binary(const char *name, char *out, size_t size)
{
    snprintf(out, size, "%s/../test/%s", harness_bindir(), name);
}

static void
test_agent_net_on_an_empty_run(void)
{
    struct stat st;
    T_ASSERT(stat("/run/netns", &st) != 0 && errno == ENOENT);
    char program[PATH_MAX], command[PATH_MAX * 2];
    s_test_binary("agent_net_test", program, sizeof program);
    snprintf(command, sizeof command, "%s >%s/agent_net_test.log 2>&1", program, s_dir);
    int status = harness_shell(command);
    if (status != 0) {
        snprintf(command, sizeof command, "grep -E '^(not ok|# )' %s/agent_net_test.log",
                 s_dir);
        harness_shell(command);
    }
    T_EQ_INT(status, 0);
}

//  The build tree of the sanitized binaries (BINDIR/..), and the make
//  arguments that keep `make` to it, as make check built it.
static void
s_make_args(char *out, size_t size)
{
    char build[PATH_MAX];
    snprintf(build, sizeof build, "%s", harness_bindir());
    char *slash = strrchr(build, '/');
    if (slash)
        *slash = '\0';
    const char *sanitize = getenv("BACKPLANE_SANITIZE");
    snprintf(out, size, "BUILD=%s SANITIZE=%s", build, sanitize ? sanitize : "");
}

//  Types `make run` at a terminal of its own: a new session whose
//  controlling terminal is a pty, make in its foreground process group, as
//  a shell at a terminal runs it. The state directory is BUILD/run of a
//  build tree of this test's (the layout make run's default has), the
//  images are the busybox one the harness built; make's own output and
//  run-local's go to s_log, so that nothing waits on the terminal.
static pid_t
s_start_make_run(void)
{
    s_terminal = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (s_terminal < 0 || grantpt(s_terminal) != 0 || unlockpt(s_terminal) != 0) {
        printf("# no pty: %s\n", strerror(errno));
        return -1;
    }
    char slave[PATH_MAX];
    if (ptsname_r(s_terminal, slave, sizeof slave) != 0)
        return -1;
    char args[PATH_MAX + 64], images[PATH_MAX];
    s_make_args(args, sizeof args);
    snprintf(images, sizeof images, "%s/images", s_dir);
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    setsid();
    int tty = open(slave, O_RDWR); //  becomes the controlling terminal
    int log = open(s_log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (tty < 0 || log < 0)
        _exit(127);
    dup2(tty, STDIN_FILENO);
    dup2(log, STDOUT_FILENO);
    dup2(log, STDERR_FILENO);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    //  The stranger's make, not the one make check runs this test under.
    unsetenv("MAKEFLAGS");
    unsetenv("MFLAGS");
    unsetenv("MAKELEVEL");
    unsetenv("BACKPLANE_API"); //  the default address, as a stranger has it
    setenv("BACKPLANE_STATE", s_state, 1);
    setenv("BACKPLANE_IMAGES", images, 1);
    char command[PATH_MAX * 3];
    snprintf(command, sizeof command,
             "exec make --no-print-directory %s IMAGES_DIR=%s RUN_IMAGES=busybox run",
             args, images);
    execl("/bin/sh", "sh", "-c", command, (char *) NULL);
    _exit(127);
}

//  Waits for make to end; -1 when it did not in time (then it is killed).
static int
s_wait_make(int timeout_ms)
{
    int status = -1, waited = 0;
    while (waitpid(s_make, &status, WNOHANG) == 0 && waited < timeout_ms) {
        harness_pause_ms(50);
        waited += 50;
    }
    if (waited >= timeout_ms) {
        printf("# make run did not end in %d ms\n", timeout_ms);
        kill(-s_make, SIGKILL);
        waitpid(s_make, &status, 0);
        status = -1;
    }
    s_make = -1;
    close(s_terminal);
    s_terminal = -1;
    return status;
}

//  `make run` up to its banner: true once it printed "Backplane is
//  running." (the nth time in s_log), with no warning before it.
static bool
s_make_run_until_banner(int nth)
{
    s_make = s_start_make_run();
    if (s_make <= 0)
        return false;
    char command[PATH_MAX + 64];
    snprintf(command, sizeof command,
             "test $(grep -c 'Backplane is running[.]' %s) -ge %d", s_log, nth);
    for (int waited = 0; waited < BANNER_MS; waited += 50) {
        if (harness_shell(command) == 0)
            return !s_file_has(s_log, "warning");
        if (waitpid(s_make, NULL, WNOHANG) == s_make) {
            s_make = -1;
            s_show_log(30);
            printf("# make run ended before its banner\n");
            return false;
        }
        harness_pause_ms(50);
    }
    s_show_log(30);
    return false;
}

//  What a person does at the terminal to stop it: Ctrl-C. make itself must
//  exit 0 once every service stopped cleanly.
static void
s_ctrl_c_stops_cleanly(void)
{
    T_ASSERT(s_make > 0);
    T_EQ_INT(write(s_terminal, "\003", 1), 1);
    int status = s_wait_make(STOP_MS);
    s_show_log(3);
    T_ASSERT(status != -1);
    if (WIFSIGNALED(status))
        printf("# make ended by signal %d\n", WTERMSIG(status));
    T_ASSERT(WIFEXITED(status));
    T_EQ_INT(WEXITSTATUS(status), 0);
    T_ASSERT(s_file_has(s_log, "stopped (state kept in"));
    T_ASSERT(!s_file_has(s_log, "Error"));
    //  Nothing of the platform runs on, and no service log has a report.
    char command[PATH_MAX * 2];
    snprintf(command, sizeof command, "pgrep -f 'node[.]state_dir=%s/' >/dev/null",
             s_state);
    T_ASSERT(harness_shell(command) != 0);
    snprintf(command, sizeof command,
             "! grep -l -E 'Sanitizer|runtime error|level=error' %s/logs/*.log", s_state);
    T_EQ_INT(harness_shell(command), 0);
}

//  Creates session name (busybox) and expects it RUNNING in the answer.
static void
s_create_session(const char *name)
{
    char request[256];
    snprintf(request, sizeof request,
             "{\"name\": \"%s\", \"image\": \"busybox\", \"config\":"
             " {\"resources\": {\"cpu\": 1, \"mem\": \"128m\"}}}",
             name);
    char *body = NULL;
    int status =
        client_signed(&s_p, &s_p.super, "POST", "/session", request, NULL, &body, NULL);
    if (status != 201)
        printf("# POST /session %s: %d %s\n", name, status, body ? body : "");
    T_EQ_INT(status, 201);
    T_CONTAINS(body, "\"status\":\"RUNNING\"");
    free(body);
}

//  Destroys session name and waits until it has ended (its container gone).
static void
s_destroy_session(const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "/session/%s", name);
    T_EQ_INT(client_signed(&s_p, &s_p.super, "DELETE", path, NULL, NULL, NULL, NULL),
             200);
    bool ended = false;
    for (int tries = 0; tries < 300 && !ended; tries++) {
        char *body = NULL;
        int status =
            client_signed(&s_p, &s_p.super, "GET", path, NULL, NULL, &body, NULL);
        ended = status == 404 || (body && strstr(body, "TERMINATED"));
        free(body);
        if (!ended)
            harness_pause_ms(100);
    }
    T_ASSERT(ended);
}

static void
test_make_run_is_ready_when_it_says_so(void)
{
    T_ASSERT(snprintf(s_state, sizeof s_state, "%s/build/run", s_dir) <
             (int) sizeof s_state);
    snprintf(s_log, sizeof s_log, "%s/make-run.log", s_dir);
    //  A fresh machine: no table of ours in this network yet.
    T_ASSERT(harness_shell("nft list tables | grep -q backplane_") != 0);
    T_ASSERT(s_make_run_until_banner(1));

    //  The very next requests, as a person would type them after the banner.
    snprintf(s_p.api, sizeof s_p.api, "127.0.0.1:8081");
    char env[PATH_MAX + 32];
    snprintf(env, sizeof env, "%s/gateway/admin.env", s_state);
    T_ASSERT(client_read_admin_env(env, &s_p.super));
    char *body = NULL;
    int status = client_signed(&s_p, &s_p.super, "POST", "/folders",
                               "{\"name\": \"first\", \"host\": \"local:volume1\"}", NULL,
                               &body, NULL);
    if (status != 201)
        printf("# POST /folders: %d %s\n", status, body ? body : "");
    free(body);
    T_EQ_INT(status, 201);
    s_create_session("first");
    status = harness_http(s_p.api, "GET", "/healthz", NULL, &body, 5000);
    T_EQ_INT(status, 200);
    T_CONTAINS(body, "\"ready\":true");
    free(body);
    //  Kernels reach beyond the host: the agent's own NAT table is there.
    T_EQ_INT(harness_shell("nft list table ip backplane_bp0 >/dev/null"), 0);
    char command[PATH_MAX + 64];
    snprintf(command, sizeof command, "grep -q 'nat=yes' %s/logs/agent.log", s_state);
    T_EQ_INT(harness_shell(command), 0);
}

static void
test_ctrl_c_stops_cleanly(void)
{
    //  The session "first" still runs: a stop must not need it gone.
    s_ctrl_c_stops_cleanly();
}

static void
test_make_after_a_session(void)
{
    //  The state of that run is BUILD/run of this test's build tree, with
    //  the busybox image unpacked by the agent. A Python session's Debian
    //  tree adds directories (and files) named *.d: put them in each
    //  unpacked root file system, as it would.
    char command[PATH_MAX * 3];
    snprintf(command, sizeof command,
             "roots=$(find %s -type d -name rootfs) && test -n \"$roots\" &&"
             " for r in $roots; do mkdir -p $r/etc/rc2.d $r/etc/apt/apt.conf.d &&"
             " echo 'not a makefile: (' >$r/etc/x.d || exit 1; done",
             s_state);
    T_EQ_INT(harness_shell(command), 0);
    snprintf(command, sizeof command,
             "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n -s BUILD=%s/build all"
             " >%s/make.log 2>&1",
             s_dir, s_dir);
    int status = harness_shell(command);
    if (status != 0) {
        snprintf(command, sizeof command, "tail -n 5 %s/make.log | sed 's/^/# /'", s_dir);
        harness_shell(command);
    }
    T_EQ_INT(status, 0);
}

static void
test_second_make_run(void)
{
    T_ASSERT(s_make_run_until_banner(2));
    char *body = NULL;
    T_EQ_INT(harness_http(s_p.api, "GET", "/healthz", NULL, &body, 5000), 200);
    T_CONTAINS(body, "\"ready\":true");
    free(body);
    //  The session the first run left is still there and running.
    body = NULL;
    int status =
        client_signed(&s_p, &s_p.super, "GET", "/session/first", NULL, NULL, &body, NULL);
    if (status != 200)
        printf("# GET /session/first: %d %s\n", status, body ? body : "");
    T_EQ_INT(status, 200);
    T_CONTAINS(body, "RUNNING");
    free(body);
    s_create_session("second");
    s_destroy_session("first");
    s_destroy_session("second");
    s_ctrl_c_stops_cleanly();
    //  With no kernel left, the stopped agent left no NAT table and no bridge.
    T_ASSERT(harness_shell("nft list tables | grep -q backplane_") != 0);
    T_ASSERT(harness_shell("ip link show bp0 >/dev/null 2>&1") != 0);
}

//  An empty /run, as a fresh machine has, for everything this process
//  starts from here on.
static int
s_enter_empty_run(void)
{
    if (unshare(CLONE_NEWNS) != 0 ||
        mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
        mount("tmpfs", "/run", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755") != 0) {
        printf("# cannot make an empty /run: %s\n", strerror(errno));
        return -1;
    }
    return 0;
}

//  A network of its own: no bridge of ours, and the fixed ports of the
//  config files free whatever runs on this machine. (agent_net_test stays in
//  the machine's network: it reads /sys/class/net, which shows the network
//  of whoever mounted /sys.)
static int
s_enter_own_network(void)
{
    if (unshare(CLONE_NEWNET) != 0) {
        printf("# cannot make a network namespace: %s\n", strerror(errno));
        return -1;
    }
    return harness_shell("ip link set lo up");
}

int
main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (!harness_can_run_containers()) {
        printf("1..0 # SKIP needs root, runc, umoci and tini\n");
        return 0;
    }
    s_dir = harness_tmpdir("fresh");
    if (!s_dir || harness_busybox_images(s_dir) != 0 || s_enter_empty_run() != 0) {
        printf("1..0 # SKIP cannot set up a fresh machine\n");
        return 0;
    }
    T_RUN(test_agent_net_on_an_empty_run);
    if (s_enter_own_network() != 0)
        return 1;
    T_RUN(test_make_run_is_ready_when_it_says_so);
    T_RUN(test_ctrl_c_stops_cleanly);
    T_RUN(test_make_after_a_session);
    T_RUN(test_second_make_run);
    if (s_make > 0) {
        kill(-s_make, SIGKILL);
        waitpid(s_make, NULL, 0);
    }
    //  What a failed run left: its containers, then its mounts.
    char command[PATH_MAX * 2 + 128];
    snprintf(command, sizeof command,
             "for c in $(runc --root %s/agent/runc list -q 2>/dev/null); do"
             " runc --root %s/agent/runc delete --force $c; done",
             s_state, s_state);
    harness_shell(command);
    //  and its mounts (the overlay root) before the directory can go
    snprintf(command, sizeof command,
             "awk '$2 ~ \"^%s/\" {print $2}' /proc/self/mounts | sort -r |"
             " xargs -r -n 1 umount -l",
             s_dir);
    harness_shell(command);
    if (t_failures || getenv("BACKPLANE_KEEP"))
        printf("# kept %s\n", s_dir);
    else
        harness_rmdir(s_dir);
    free(s_dir);
    return T_DONE();
}
