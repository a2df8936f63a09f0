/*  =========================================================================
    fresh_start_test - the README's commands on a machine that never ran them

    A stranger's first hour starts with `make check` and `make run` on a
    fresh Debian machine, where nothing our earlier runs leave behind
    exists: no /run/netns, no runc state, no bridge, an empty state
    directory. This test makes that machine for itself: it enters a mount
    namespace with an empty /run and a network namespace of its own (where
    the fixed ports of the config files are free and no bridge exists), then:

      - runs agent_net_test there (it once failed the first time, creating a
        namespace before anything had made /run/netns);
      - runs make with a state directory inside the build tree whose image
        trees hold directories named *.d (they once broke every make after
        the first Python session);
      - starts deploy/run-local, exactly as `make run` does, on an empty state
        directory, and the moment it prints "Backplane is running" creates a
        virtual folder and a session (both once failed for a few seconds
        after the banner), and finds /healthz ready;
      - stops it with Ctrl-C (SIGINT to its whole process group, as a terminal
        sends it) and expects exit status 0, every service stopped, no
        sanitizer report in any log and no container left.

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
#include <unistd.h>

#include "gateway_client.h"
#include "harness.h"
#include "t.h"

#define BANNER_MS 120000 //  run-local builds nothing; services start in seconds
#define STOP_MS   30000

static char *s_dir;
static char s_state[PATH_MAX], s_log[PATH_MAX];
static pid_t s_run_local = -1; //  also its process group
static client_platform_t s_p;  //  only api and super are used: run-local starts it

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

static void
test_make_ignores_state_in_the_build_tree(void)
{
    //  What the agent leaves under build/run after a Python session: an
    //  unpacked Debian tree, with directories (and a file) named *.d.
    char command[PATH_MAX * 3];
    snprintf(command, sizeof command,
             "mkdir -p %s/build/run/agent/images/python/rootfs/etc/rc2.d"
             " %s/build/run/agent/images/python/rootfs/etc/apt/apt.conf.d &&"
             " echo 'not a makefile: (' >%s/build/run/agent/images/python/rootfs/x.d",
             s_dir, s_dir, s_dir);
    T_EQ_INT(harness_shell(command), 0);
    snprintf(command, sizeof command,
             "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n -s BUILD=%s/build all"
             " >%s/make.log 2>&1",
             s_dir, s_dir);
    int status = harness_shell(command);
    if (status != 0) {
        snprintf(command, sizeof command, "tail -n 5 %s/make.log", s_dir);
        harness_shell(command);
    }
    T_EQ_INT(status, 0);
}

//  Starts deploy/run-local as `make run` does, in a process group of its
//  own with SIGINT at its default (as a shell at a terminal leaves it).
static pid_t
s_start_run_local(void)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    setpgid(0, 0);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int log = open(s_log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (log < 0)
        _exit(127);
    dup2(log, STDOUT_FILENO);
    dup2(log, STDERR_FILENO);
    char images[PATH_MAX];
    snprintf(images, sizeof images, "%s/images", s_dir);
    setenv("BACKPLANE_STATE", s_state, 1);
    setenv("BACKPLANE_IMAGES", images, 1);
    unsetenv("BACKPLANE_API"); //  the default address, as a stranger has it
    execl("deploy/run-local", "deploy/run-local", harness_bindir(), (char *) NULL);
    _exit(127);
}

static void
test_make_run_is_ready_when_it_says_so(void)
{
    T_ASSERT(snprintf(s_state, sizeof s_state, "%s/state", s_dir) < (int) sizeof s_state);
    snprintf(s_log, sizeof s_log, "%s/run-local.log", s_dir);
    s_run_local = s_start_run_local();
    T_ASSERT(s_run_local > 0);
    bool banner = false;
    for (int waited = 0; !banner && waited < BANNER_MS; waited += 20) {
        banner = s_file_has(s_log, "Backplane is running.");
        if (!banner && waitpid(s_run_local, NULL, WNOHANG) == s_run_local) {
            s_run_local = -1;
            s_show_log(30);
            T_FAIL_("run-local ended before its banner");
        }
        if (!banner)
            harness_pause_ms(20);
    }
    T_ASSERT(banner);
    T_ASSERT(!s_file_has(s_log, "warning"));

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
    status = client_signed(&s_p, &s_p.super, "POST", "/session",
                           "{\"name\": \"first\", \"image\": \"busybox\", \"config\":"
                           " {\"resources\": {\"cpu\": 1, \"mem\": \"128m\"}}}",
                           NULL, &body, NULL);
    if (status != 201)
        printf("# POST /session: %d %s\n", status, body ? body : "");
    if (status != 201)
        free(body);
    T_EQ_INT(status, 201);
    T_CONTAINS(body, "\"status\":\"RUNNING\"");
    free(body);
    status = harness_http(s_p.api, "GET", "/healthz", NULL, &body, 5000);
    T_EQ_INT(status, 200);
    T_CONTAINS(body, "\"ready\":true");
    free(body);
}

static void
test_ctrl_c_stops_cleanly(void)
{
    T_ASSERT(s_run_local > 0);
    //  The session "first" still runs: a stop must not need it gone.
    T_EQ_INT(kill(-s_run_local, SIGINT), 0);
    int status = -1, waited = 0;
    while (waitpid(s_run_local, &status, WNOHANG) == 0 && waited < STOP_MS) {
        harness_pause_ms(50);
        waited += 50;
    }
    if (waited >= STOP_MS) {
        kill(-s_run_local, SIGKILL);
        waitpid(s_run_local, &status, 0);
    }
    s_run_local = -1;
    s_show_log(3);
    T_ASSERT(WIFEXITED(status));
    T_EQ_INT(WEXITSTATUS(status), 0);
    T_ASSERT(s_file_has(s_log, "stopped (state kept in"));
    //  Nothing of the platform runs on, and no service log has a report.
    char command[PATH_MAX * 2];
    snprintf(command, sizeof command, "pgrep -f 'node[.]state_dir=%s/' >/dev/null",
             s_state);
    T_ASSERT(harness_shell(command) != 0);
    snprintf(command, sizeof command,
             "! grep -l -E 'Sanitizer|runtime error|level=error' %s/logs/*.log", s_state);
    T_EQ_INT(harness_shell(command), 0);
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
    T_RUN(test_make_ignores_state_in_the_build_tree);
    if (s_enter_own_network() != 0)
        return 1;
    T_RUN(test_make_run_is_ready_when_it_says_so);
    T_RUN(test_ctrl_c_stops_cleanly);
    if (s_run_local > 0) {
        kill(-s_run_local, SIGKILL);
        waitpid(s_run_local, NULL, 0);
    }
    //  The session left running at the stop stays, as `make run` keeps it
    //  for the next start; this test has no next start, so it goes here.
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
