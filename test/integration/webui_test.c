/*  =========================================================================
    webui_test - Backplane's own web UI in a real browser, against the real
    platform: Debian's Chromium, headless, driven by playwright-core (npm,
    pinned by webui/package-lock.json) through test/browser/run.mjs.

    This program builds the platform the browser tests use: the scheduler,
    gateway (its web listener serving the built UI), accounting, a
    storage-proxy, a wsproxy and an agent with real runc containers, and
    three people who log in with passwords (a superadmin, a user and a
    second user). It then runs the browser tests, which print their own TAP
    lines (one per test, each saving a screenshot under
    $(BUILD)/browser-shots), and ends every session they left before the
    agent stops. The agent has the busybox image and, when it can be built
    (from Debian's archive, cached in build/images), the jupyter image, for
    the app launcher's test. Skipped without root and runc, or without node,
    Chromium, the npm libraries or the built UI.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gateway_client.h"

#define PASSWORD       "pw-123456" //  what client_person gives everyone
#define PLAYWRIGHT_DIR "build/npm-webui/node_modules/playwright-core"

static client_platform_t s_p;
static harness_proc_t s_agent, s_storage, s_wsproxy;
static char s_bridge[16];
static char s_top[PATH_MAX];     //  the checkout, where the tests run
static char s_ui[PATH_MAX + 64]; //  the built UI, absolute
static char s_chromium[PATH_MAX];
static bool s_jupyter; //  the agent has the jupyter image

//  Why the browser tests cannot run here, or NULL when they can.
static const char *
s_missing(void)
{
    if (!harness_can_run_containers())
        return "needs root, runc, umoci and /usr/bin/tini-static";
    if (system("command -v node >/dev/null 2>&1") != 0)
        return "no node (deploy/install-deps installs nodejs)";
    const char *chromium = getenv("BACKPLANE_CHROMIUM");
    snprintf(s_chromium, sizeof s_chromium, "%s",
             chromium && *chromium ? chromium : "/usr/bin/chromium");
    if (access(s_chromium, X_OK) != 0)
        return "no Chromium (deploy/install-deps installs chromium)";
    if (access(PLAYWRIGHT_DIR "/package.json", R_OK) != 0)
        return "no playwright-core (make webui installs the UI's npm libraries)";
    const char *bindir = harness_bindir();
    snprintf(s_ui, sizeof s_ui, "%s%s%s/../share/backplane/webui",
             *bindir == '/' ? "" : s_top, *bindir == '/' ? "" : "/", bindir);
    char index[sizeof s_ui + 16];
    snprintf(index, sizeof index, "%s/index.html", s_ui);
    if (access(index, R_OK) != 0)
        return "the web UI is not built (make webui)";
    return NULL;
}

static bool
s_person(const char *email, const char *role)
{
    client_keypair_t kp;
    if (client_person(&s_p, email, "default", role, &kp))
        return true;
    fprintf(stderr, "# could not make %s (%s)\n", email, role);
    return false;
}

//  The platform the browser tests use. True when all of it runs.
static bool
s_start(char *storage, size_t storage_size, char *wsproxy, size_t wsproxy_size)
{
    if (client_platform_start(&s_p, "webui", true) != 0)
        return false;
    //  The gateway serves <dir>/webui: the built UI, by a link.
    char root[600];
    snprintf(root, sizeof root, "%s/webui", s_p.dir);
    if (symlink(s_ui, root) != 0) {
        fprintf(stderr, "# symlink %s: %s\n", root, strerror(errno));
        return false;
    }
    snprintf(s_bridge, sizeof s_bridge, "bpu%d", (int) (getpid() % 100000));
    //  Into the agent's images directory before it starts (busybox joins it).
    s_jupyter = harness_debian_image(s_p.dir, "jupyter") == 0;
    if (!s_jupyter)
        printf(
            "# no jupyter image (deploy/images/build jupyter failed): its test skips\n");
    //  import.test.mjs fetches from a loopback server of its own.
    static const char *const storage_sets[] = {"fetch.allow_private=true", NULL};
    if (!client_storage_start_with(&s_p, &s_storage, storage, storage_size,
                                   storage_sets) ||
        !client_agent_start(&s_p, &s_agent, "agent-ui", s_bridge, harness_subnet()) ||
        !client_wsproxy_start(&s_p, &s_wsproxy, wsproxy, wsproxy_size))
        return false;
    char addr[200];
    snprintf(addr, sizeof addr, "http://%s", wsproxy);
    json_t *response = client_gql(
        &s_p, &s_p.super,
        "mutation($name: String!, $input: ModifyScalingGroupInput!) {"
        " modify_scaling_group(name: $name, props: $input) { ok msg } }",
        json_pack("{s:s, s:{s:s}}", "name", "default", "input", "wsproxy_addr", addr));
    bool ok = client_mutation_ok(response, "modify_scaling_group");
    json_decref(response);
    if (s_jupyter && !client_image_listed(&s_p, "jupyter"))
        return false;
    return ok && s_person("ui-super@example.com", "superadmin") &&
           s_person("ui-user@example.com", "user") &&
           s_person("ui-other@example.com", "user");
}

//  Runs the browser tests; their exit status (0 when every test passed).
static int
s_browse(const char *storage, const char *wsproxy)
{
    const char *bindir = harness_bindir();
    char shots[PATH_MAX + 64];
    snprintf(shots, sizeof shots, "%s%s%s/../browser-shots", *bindir == '/' ? "" : s_top,
             *bindir == '/' ? "" : "/", bindir);
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        char web[96];
        snprintf(web, sizeof web, "http://%s", s_p.web);
        setenv("BACKPLANE_WEB", web, 1);
        setenv("BACKPLANE_STORAGE", storage, 1);
        setenv("BACKPLANE_WSPROXY", wsproxy, 1);
        setenv("BACKPLANE_SUPER", "ui-super@example.com", 1);
        setenv("BACKPLANE_USER", "ui-user@example.com", 1);
        setenv("BACKPLANE_OTHER", "ui-other@example.com", 1);
        setenv("BACKPLANE_PASSWORD", PASSWORD, 1);
        setenv("BACKPLANE_SHOTS", shots, 1);
        setenv("BACKPLANE_UI", s_ui, 1);
        setenv("BACKPLANE_CHROMIUM", s_chromium, 1);
        setenv("BACKPLANE_JUPYTER", s_jupyter ? "1" : "", 1);
        char playwright[PATH_MAX + 64];
        snprintf(playwright, sizeof playwright, "%s/" PLAYWRIGHT_DIR, s_top);
        setenv("PLAYWRIGHT_CORE", playwright, 1);
        execlp("node", "node", "test/browser/run.mjs", (char *) NULL);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

//  Ends every session the tests left (as the superadmin, for everyone) and
//  waits until none lives, so no container outlives the test. True when
//  none is left.
static bool
s_end_sessions(void)
{
    static const char query[] =
        "query { compute_session_list(limit: 1000, offset: 0, status:"
        " \"PENDING,SCHEDULED,PREPARING,PULLING,PREPARED,CREATING,RUNNING,RESTARTING,"
        "TERMINATING\") { total_count items { id access_key status } } }";
    for (int round = 0; round < 150; round++) {
        json_t *r = client_gql(&s_p, &s_p.super, query, NULL);
        json_t *list = json_object_get(
            json_object_get(json_object_get(r, "data"), "compute_session_list"), "items");
        if (!r || !json_is_array(list)) {
            json_decref(r);
            return false;
        }
        size_t count = json_array_size(list), index;
        json_t *s;
        json_array_foreach(list, index, s)
        {
            if (round % 25 != 0 || strcmp(json_string_value(json_object_get(s, "status")),
                                          "TERMINATING") == 0)
                continue;
            char path[256];
            snprintf(path, sizeof path, "/session/%s?owner_access_key=%s&forced=true",
                     json_string_value(json_object_get(s, "id")),
                     json_string_value(json_object_get(s, "access_key")));
            client_signed(&s_p, &s_p.super, "DELETE", path, NULL, NULL, NULL, NULL);
        }
        json_decref(r);
        if (count == 0)
            return true;
        harness_pause_ms(200);
    }
    return false;
}

int
main(void)
{
    if (!getcwd(s_top, sizeof s_top))
        return 1;
    const char *why = s_missing();
    if (why) {
        printf("1..0 # SKIP %s\n", why);
        return 0;
    }
    char storage[128] = "", wsproxy[128] = "";
    bool started = s_start(storage, sizeof storage, wsproxy, sizeof wsproxy);
    int rc = 1;
    if (started)
        rc = s_browse(storage, wsproxy);
    else
        printf("not ok 1 - the platform for the browser tests started\n1..1\n");
    bool ended = !started || s_end_sessions();
    if (!ended)
        printf("# sessions were left running after the browser tests\n");
    int agent = s_agent.pid > 0 ? harness_stop(&s_agent, CLIENT_STOP_MS) : 0;
    int others = (s_wsproxy.pid > 0 ? harness_stop(&s_wsproxy, CLIENT_STOP_MS) : 0) |
                 (s_storage.pid > 0 ? harness_stop(&s_storage, CLIENT_STOP_MS) : 0);
    bool clean = client_platform_stop(&s_p) && agent == 0 && others == 0 &&
                 !harness_log_has_report(&s_agent);
    if (!clean)
        printf("# a service did not stop cleanly (agent %d)\n", agent);
    char command[64];
    snprintf(command, sizeof command, "ip link del %s 2>/dev/null", s_bridge);
    if (system(command) == 0)
        printf("# the agent left its bridge %s\n", s_bridge);
    client_platform_end(&s_p, rc != 0 || !clean);
    return rc == 0 && ended && clean ? 0 : 1;
}
