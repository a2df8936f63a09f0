/*  =========================================================================
    platform_test - the six real services on ephemeral loopback ports

    Starts the scheduler (hosting the hub and the registry) and the other
    five services as real processes, checks the gateway's version document
    and /healthz, the problem+json answers for unknown paths and methods,
    the expiry of a killed peer and its return, and a clean SIGTERM exit of
    every process with no sanitizer report.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "t.h"

#define READY_MS 20000
#define STOP_MS  10000

static const char *s_services[] = {"gateway", "storage-proxy", "wsproxy", "accounting",
                                   "agent"};
#define SERVICE_COUNT (sizeof s_services / sizeof s_services[0])

static char *s_dir;
static harness_proc_t s_scheduler;
static harness_proc_t s_procs[SERVICE_COUNT];
static harness_endpoints_t s_sched; //  the scheduler, which hosts the bus
static char s_api[64];

static int
s_start_service(harness_proc_t *proc, const char *service)
{
    char state[512], pub[160], sub[160], reg[160];
    snprintf(state, sizeof state, "node.state_dir=%s/%s", s_dir, service);
    snprintf(pub, sizeof pub, "bus.hub.publish=%s", s_sched.hub_publish);
    snprintf(sub, sizeof sub, "bus.hub.subscribe=%s", s_sched.hub_subscribe);
    snprintf(reg, sizeof reg, "bus.hub.registry=%s", s_sched.registry);
    const char *args[] = {"--set", state,
                          "--set", pub,
                          "--set", sub,
                          "--set", reg,
                          "--set", "bus.heartbeat_ms=100",
                          "--set", "node.name=it",
                          "--set", "api.listen=127.0.0.1:0",
                          "--set", "web.listen=127.0.0.1:0",
                          NULL};
    //  Each listens on an ephemeral port through its own option (the others
    //  would refuse it): the gateway's API, the storage-proxy's client HTTP,
    //  the wsproxy's /v2 API.
    if (strcmp(service, "storage-proxy") == 0)
        args[13] = "http.listen=127.0.0.1:0";
    else if (strcmp(service, "wsproxy") == 0)
        args[13] = "wsproxy.listen=127.0.0.1:0";
    if (strcmp(service, "gateway") != 0)
        args[14] = NULL; //  web.listen is the gateway's alone
    if (strcmp(service, "gateway") != 0 && strcmp(service, "storage-proxy") != 0 &&
        strcmp(service, "wsproxy") != 0)
        args[12] = NULL;
    return harness_start(proc, s_dir, service, service, args);
}

static bool
s_healthz_until(int want_status, const char *needle, int timeout_ms, char **body_p)
{
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (true) {
        char *body = NULL;
        int status = harness_http(s_api, "GET", "/healthz", NULL, &body, 2000);
        if (status == want_status && (!needle || (body && strstr(body, needle)))) {
            if (body_p)
                *body_p = body;
            else
                free(body);
            return true;
        }
        free(body);
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 >
            timeout_ms)
            return false;
        //  Registration is driven by heartbeats: ask again shortly.
        struct timespec pause = {0, 20 * 1000000L};
        nanosleep(&pause, NULL);
    }
}

static void
test_start_all(void)
{
    s_dir = harness_tmpdir("platform");
    T_ASSERT(s_dir);
    const char *sets[] = {"bus.peer_expiry_ms=600", "node.name=it", NULL};
    T_EQ_INT(
        harness_scheduler_start(&s_scheduler, s_dir, "scheduler", NULL, sets, &s_sched),
        0);
    char line[HARNESS_LINE_MAX];
    T_ASSERT(strstr(s_sched.hub_publish, "*") == NULL);

    for (size_t i = 0; i < SERVICE_COUNT; i++)
        T_ASSERT(s_start_service(&s_procs[i], s_services[i]) == 0);
    for (size_t i = 0; i < SERVICE_COUNT; i++)
        T_ASSERT(harness_wait_line(&s_procs[i], "ready ", READY_MS, line, sizeof line));
    T_ASSERT(harness_wait_line(&s_procs[0], "ready ", READY_MS, line, sizeof line));
    char url[128];
    T_ASSERT(harness_field(line, "url", url, sizeof url));
    T_ASSERT(strncmp(url, "http://", 7) == 0);
    snprintf(s_api, sizeof s_api, "%.*s", (int) strcspn(url + 7, "/"), url + 7);
}

static void
test_version_document(void)
{
    char *body = NULL;
    int status = harness_http(s_api, "GET", "/", NULL, &body, 5000);
    T_EQ_INT(status, 200);
    T_CONTAINS(body, "\"version\":\"v6.20220315\"");
    T_CONTAINS(body, "\"manager\":");
    free(body);
}

static void
test_healthz_lists_every_service_up(void)
{
    char *body = NULL;
    T_ASSERT(s_healthz_until(200, NULL, READY_MS, &body));
    T_CONTAINS(body, "\"status\":\"ok\"");
    const char *all[] = {"gateway",       "scheduler", "agent",
                         "storage-proxy", "wsproxy",   "accounting"};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        char needle[64];
        snprintf(needle, sizeof needle, "\"service\":\"%s\"", all[i]);
        T_CONTAINS(body, needle);
    }
    T_ASSERT(strstr(body, "\"status\":\"down\"") == NULL);
    T_CONTAINS(body, "\"missing\":[]");
    free(body);
}

static void
test_unknown_path_and_method_are_problems(void)
{
    char *body = NULL;
    T_EQ_INT(harness_http(s_api, "GET", "/no/such/path", NULL, &body, 5000), 404);
    T_CONTAINS(body, "https://api.backend.ai/probs/url-not-found");
    free(body);
    body = NULL;
    T_EQ_INT(harness_http(s_api, "DELETE", "/", NULL, &body, 5000), 405);
    T_CONTAINS(body, "method-not-allowed");
    free(body);
}

static void
test_killed_peer_expires_and_returns(void)
{
    //  wsproxy is s_procs[2]: kill it without a goodbye.
    harness_kill(&s_procs[2]);
    char *body = NULL;
    T_ASSERT(s_healthz_until(503, "\"missing\":[\"wsproxy\"]", READY_MS, &body));
    T_CONTAINS(body, "\"status\":\"degraded\"");
    free(body);
    T_ASSERT(s_start_service(&s_procs[2], "wsproxy") == 0);
    T_ASSERT(harness_wait_line(&s_procs[2], "ready ", READY_MS, NULL, 0));
    T_ASSERT(s_healthz_until(200, NULL, READY_MS, NULL));
}

static void
test_sigterm_exits_cleanly(void)
{
    for (size_t i = 0; i < SERVICE_COUNT; i++) {
        int status = harness_stop(&s_procs[i], STOP_MS);
        if (status != 0 || harness_log_has_report(&s_procs[i]))
            fprintf(stderr, "# %s exit=%d log=%s\n", s_procs[i].name, status,
                    s_procs[i].log_path);
        T_EQ_INT(status, 0);
        T_ASSERT(!harness_log_has_report(&s_procs[i]));
    }
    T_EQ_INT(harness_stop(&s_scheduler, STOP_MS), 0);
    T_ASSERT(!harness_log_has_report(&s_scheduler));
}

int
main(void)
{
    T_RUN(test_start_all);
    T_RUN(test_version_document);
    T_RUN(test_healthz_lists_every_service_up);
    T_RUN(test_unknown_path_and_method_are_problems);
    T_RUN(test_killed_peer_expires_and_returns);
    T_RUN(test_sigterm_exits_cleanly);
    //  Whatever failed, leave no process or file behind.
    for (size_t i = 0; i < SERVICE_COUNT; i++)
        harness_kill(&s_procs[i]);
    harness_kill(&s_scheduler);
    if (!t_failures)
        harness_rmdir(s_dir);
    else
        fprintf(stderr, "# logs kept in %s\n", s_dir);
    free(s_dir);
    return T_DONE();
}
