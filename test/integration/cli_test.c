/*  =========================================================================
    cli_test - the command line every service shares: --check-config with
    good and bad files, --set, --print-config, bad usage, and a start-up
    that fails cleanly when its port is taken

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "t.h"

#define EXIT_MS 10000

static char *s_dir;

//  Runs backplane-<service> with args to completion; returns its exit status
//  and leaves its output in <dir>/<name>.log.
static int
s_run(const char *name,
      const char *service,
      const char *const *args,
      harness_proc_t *proc)
{
    if (harness_start(proc, s_dir, name, service, args) != 0)
        return -1;
    //  A line that never comes: this waits for the process to exit.
    harness_wait_line(proc, "\x01never", EXIT_MS, NULL, 0);
    return harness_stop(proc, EXIT_MS);
}

static bool
s_log_contains(const harness_proc_t *proc, const char *needle)
{
    FILE *log = fopen(proc->log_path, "r");
    char line[HARNESS_LINE_MAX];
    bool found = false;
    while (log && !found && fgets(line, sizeof line, log))
        found = strstr(line, needle) != NULL;
    if (log)
        fclose(log);
    return found;
}

static char *
s_write(const char *name, const char *text)
{
    char *path = malloc(512);
    snprintf(path, 512, "%s/%s", s_dir, name);
    FILE *file = fopen(path, "w");
    fputs(text, file);
    fclose(file);
    return path;
}

static void
test_check_config_accepts_the_shipped_files(void)
{
    const char *services[] = {"gateway",       "scheduler", "agent",
                              "storage-proxy", "wsproxy",   "accounting"};
    for (size_t i = 0; i < 6; i++) {
        char path[128];
        snprintf(path, sizeof path, "config/%s.yaml", services[i]);
        const char *args[] = {"--check-config", "--config", path, NULL};
        harness_proc_t proc;
        T_EQ_INT(s_run("check", services[i], args, &proc), 0);
        T_ASSERT(s_log_contains(&proc, "configuration OK"));
    }
}

static void
test_bad_config_names_file_line_and_reason(void)
{
    char *path = s_write("bad.yaml", "bus:\n  heartbeat_ms: 100\n  hartbeat_ms: 5\n");
    const char *args[] = {"--check-config", "--config", path, NULL};
    harness_proc_t proc;
    T_EQ_INT(s_run("bad", "scheduler", args, &proc), 1);
    char needle[600];
    snprintf(needle, sizeof needle, "%s:3:3: unknown option 'bus.hartbeat_ms'", path);
    T_ASSERT(s_log_contains(&proc, needle));
    free(path);

    path = s_write("range.yaml", "bus:\n  heartbeat_ms: 7\n");
    const char *range_args[] = {"--check-config", "--config", path, NULL};
    T_EQ_INT(s_run("range", "agent", range_args, &proc), 1);
    T_ASSERT(s_log_contains(&proc, "range.yaml:2:17:"));
    T_ASSERT(s_log_contains(&proc, "out of range"));
    free(path);

    path = s_write("broken.yaml", "bus: [unclosed\n");
    const char *broken_args[] = {"--check-config", "--config", path, NULL};
    T_EQ_INT(s_run("broken", "wsproxy", broken_args, &proc), 1);
    T_ASSERT(s_log_contains(&proc, "broken.yaml:"));
    free(path);

    const char *missing_args[] = {"--check-config", "--config", "/nonexistent.yaml",
                                  NULL};
    T_EQ_INT(s_run("missing", "accounting", missing_args, &proc), 1);
    T_ASSERT(s_log_contains(&proc, "/nonexistent.yaml"));
}

static void
test_set_overrides_and_is_checked(void)
{
    const char *good[] = {"--check-config", "--set", "log.level=debug", NULL};
    harness_proc_t proc;
    T_EQ_INT(s_run("set", "gateway", good, &proc), 0);
    const char *bad[] = {"--check-config", "--set", "log.level=loud", NULL};
    T_EQ_INT(s_run("setbad", "gateway", bad, &proc), 1);
    T_ASSERT(s_log_contains(&proc, "log.level"));
    const char *shape[] = {"--set", "nonsense", NULL};
    T_EQ_INT(s_run("setshape", "gateway", shape, &proc), 1);
    T_ASSERT(s_log_contains(&proc, "expected KEY=VALUE"));
}

static void
test_usage_errors_and_version(void)
{
    const char *unknown[] = {"--frobnicate", NULL};
    harness_proc_t proc;
    T_EQ_INT(s_run("usage", "storage-proxy", unknown, &proc), 2);
    T_ASSERT(s_log_contains(&proc, "usage: backplane-storage-proxy"));
    const char *version[] = {"--version", NULL};
    T_EQ_INT(s_run("version", "storage-proxy", version, &proc), 0);
    T_ASSERT(s_log_contains(&proc, "backplane-storage-proxy "));
    const char *print[] = {"--print-config", NULL};
    T_EQ_INT(s_run("print", "scheduler", print, &proc), 0);
    T_ASSERT(s_log_contains(&proc, "  host: true"));
}

static void
test_gateway_admin_command(void)
{
    char state[512];
    snprintf(state, sizeof state, "node.state_dir=%s/gw-admin", s_dir);
    const char *create[] = {
        "--set", state,         "--set",          "auth.password_iterations=1000",
        "admin", "create-user", "op@example.com", "--role",
        "admin", "--password",  "pw-op-1",        NULL};
    harness_proc_t proc;
    T_EQ_INT(s_run("gw-create", "gateway", create, &proc), 0);
    T_ASSERT(
        s_log_contains(&proc, "created user=op@example.com role=admin domain=default"));
    T_ASSERT(s_log_contains(&proc, "access_key=AKIA"));
    //  The first start's superadmin was made on the way.
    T_ASSERT(s_log_contains(&proc, "bootstrap superadmin"));
    const char *list[] = {"--set", state, "admin", "list-users", NULL};
    T_EQ_INT(s_run("gw-list", "gateway", list, &proc), 0);
    T_ASSERT(s_log_contains(&proc, "op@example.com role=admin"));
    //  The same user twice is refused, with the reason.
    T_EQ_INT(s_run("gw-again", "gateway", create, &proc), 1);
    T_ASSERT(s_log_contains(&proc, "UNIQUE constraint failed: users.email"));
    //  Image aliases set offline: before any agent reported the image, and
    //  again to repoint; a malformed reference is refused with the reason.
    const char *alias[] = {"--set",       state, "admin",
                           "alias-image", "py",  "local.backplane/library/python:latest",
                           NULL};
    T_EQ_INT(s_run("gw-alias", "gateway", alias, &proc), 0);
    T_ASSERT(s_log_contains(&proc, "alias py -> local.backplane/library/python:latest"));
    alias[5] = "local.backplane/library/python:3.11";
    T_EQ_INT(s_run("gw-realias", "gateway", alias, &proc), 0);
    T_ASSERT(s_log_contains(&proc, "image=local.backplane/library/python:3.11"));
    alias[5] = "UPPER/Case::";
    T_EQ_INT(s_run("gw-badalias", "gateway", alias, &proc), 1);
    T_ASSERT(s_log_contains(&proc, "malformed image reference"));
    const char *bad[] = {"--set", state, "admin", "frobnicate", "x", NULL};
    T_EQ_INT(s_run("gw-bad", "gateway", bad, &proc), 2);
    T_ASSERT(s_log_contains(&proc, "usage: backplane-gateway"));
}

//  Runs a shell command, returns its first output line in out.
static int
s_shell(const char *command, char *out, size_t size)
{
    FILE *pipe = popen(command, "r");
    if (!pipe)
        return -1;
    if (!fgets(out, (int) size, pipe))
        *out = 0;
    return pclose(pipe);
}

static void
test_gateway_serves_https(void)
{
    char cert[512], key[512], command[2048], line[HARNESS_LINE_MAX];
    snprintf(cert, sizeof cert, "%s/tls.crt", s_dir);
    snprintf(key, sizeof key, "%s/tls.key", s_dir);
    snprintf(command, sizeof command,
             "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1"
             " -keyout %s -out %s 2>&1",
             key, cert);
    T_EQ_INT(s_shell(command, line, sizeof line), 0);
    char state[512], tls_cert[600], tls_key[600];
    snprintf(state, sizeof state, "node.state_dir=%s/gw-tls", s_dir);
    snprintf(tls_cert, sizeof tls_cert, "api.tls_cert=%s", cert);
    snprintf(tls_key, sizeof tls_key, "api.tls_key=%s", key);
    const char *args[] = {
        "--set", state,         "--set", "api.listen=127.0.0.1:0",
        "--set", "web.listen=", "--set", tls_cert,
        "--set", tls_key,       "--set", "bus.hub.registry=tcp://127.0.0.1:1",
        NULL};
    harness_proc_t gateway;
    T_ASSERT(harness_start(&gateway, s_dir, "gw-tls", "gateway", args) == 0);
    T_ASSERT(harness_wait_line(&gateway, "ready ", EXIT_MS, line, sizeof line));
    char url[128];
    T_ASSERT(harness_field(line, "url", url, sizeof url));
    T_ASSERT(strncmp(url, "https://", 8) == 0);
    snprintf(command, sizeof command, "curl -sk %s", url);
    T_EQ_INT(s_shell(command, line, sizeof line), 0);
    T_CONTAINS(line, "\"version\":\"v6.20220315\"");
    //  Plain HTTP on the TLS port gets nowhere.
    snprintf(command, sizeof command, "curl -s -m 3 http://%s", url + 8);
    s_shell(command, line, sizeof line);
    T_ASSERT(strstr(line, "v6.20220315") == NULL);
    T_EQ_INT(harness_stop(&gateway, EXIT_MS), 0);
    T_ASSERT(!harness_log_has_report(&gateway));
    //  A key that does not match is a start-up error naming the files.
    const char *bad[] = {"--set", state,         "--set", "api.listen=127.0.0.1:0",
                         "--set", tls_cert,      "--set", "api.tls_key=/nonexistent.key",
                         "--set", "web.listen=", NULL};
    harness_proc_t broken;
    T_EQ_INT(s_run("gw-tls-bad", "gateway", bad, &broken), 1);
    T_ASSERT(s_log_contains(&broken, "api.tls_key /nonexistent.key"));
}

static void
test_taken_port_fails_cleanly(void)
{
    //  Two schedulers cannot both host the hub on the same ports.
    char state[512];
    snprintf(state, sizeof state, "node.state_dir=%s/first", s_dir);
    const char *first_args[] = {"--set", state,
                                "--set", "bus.hub.publish=tcp://127.0.0.1:*",
                                "--set", "bus.hub.subscribe=tcp://127.0.0.1:*",
                                "--set", "bus.hub.registry=tcp://127.0.0.1:*",
                                NULL};
    harness_proc_t first;
    T_ASSERT(harness_start(&first, s_dir, "first", "scheduler", first_args) == 0);
    char line[HARNESS_LINE_MAX], registry[128], taken[160];
    T_ASSERT(harness_wait_line(&first, "ready ", EXIT_MS, line, sizeof line));
    T_ASSERT(harness_field(line, "registry", registry, sizeof registry));
    snprintf(taken, sizeof taken, "bus.hub.registry=%s", registry);
    snprintf(state, sizeof state, "node.state_dir=%s/second", s_dir);
    const char *second_args[] = {"--set", state,
                                 "--set", "bus.hub.publish=tcp://127.0.0.1:*",
                                 "--set", "bus.hub.subscribe=tcp://127.0.0.1:*",
                                 "--set", taken,
                                 NULL};
    harness_proc_t second;
    T_EQ_INT(s_run("second", "scheduler", second_args, &second), 1);
    T_ASSERT(s_log_contains(&second, "cannot bind"));
    T_ASSERT(!harness_log_has_report(&second));
    T_EQ_INT(harness_stop(&first, EXIT_MS), 0);
}

int
main(void)
{
    s_dir = harness_tmpdir("cli");
    T_RUN(test_check_config_accepts_the_shipped_files);
    T_RUN(test_bad_config_names_file_line_and_reason);
    T_RUN(test_set_overrides_and_is_checked);
    T_RUN(test_usage_errors_and_version);
    T_RUN(test_gateway_admin_command);
    T_RUN(test_gateway_serves_https);
    T_RUN(test_taken_port_fails_cleanly);
    if (!t_failures)
        harness_rmdir(s_dir);
    else
        fprintf(stderr, "# logs kept in %s\n", s_dir);
    free(s_dir);
    return T_DONE();
}
