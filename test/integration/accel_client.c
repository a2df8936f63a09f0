/*  =========================================================================
    accel_client - what the accelerator tests (accel_test, accel_both_test,
    gpu_test, gpu_stats_test) do over the gateway and to the scheduler:
    sessions of the busybox image asking slots, what their containers see
    of their devices, the scheduler's ledger check and its per-agent rows

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel_client.h"

#define IMAGE "local.backplane/library/busybox:latest"

json_t *
accel_request(const client_platform_t *p,
              const char *method,
              const char *path,
              const char *body,
              int *status)
{
    char *text = NULL;
    *status = client_signed(p, &p->super, method, path, body, NULL, &text, NULL);
    json_t *parsed = text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;
    free(text);
    return parsed;
}

//  POST /session of an interactive session asking resources (a JSON
//  object's text), with environ (JSON object text, "" for none); waits
//  until it runs unless enqueue. Returns the HTTP status.
int
accel_create(const client_platform_t *p,
             const char *name,
             const char *resources,
             const char *environ,
             bool enqueue)
{
    char body[1024];
    snprintf(body, sizeof body,
             "{\"name\": \"%s\", \"image\": \"" IMAGE "\", \"type\": \"interactive\","
             " \"enqueueOnly\": %s, \"config\": {\"resources\": %s%s%s}}",
             name, enqueue ? "true" : "false", resources,
             *environ ? ", \"environ\": " : "", environ);
    int status;
    json_t *r = accel_request(p, "POST", "/session", body, &status);
    if (status >= 400) {
        char *text = r ? json_dumps(r, JSON_COMPACT) : NULL;
        fprintf(stderr, "# create %s: %d %s\n", name, status, text ? text : "");
        free(text);
    }
    json_decref(r);
    return status;
}

//  GET /session/{name} as text (caller frees), NULL when it is not found
//  (never created, or ended).
char *
accel_info(const client_platform_t *p, const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "/session/%s", name);
    int status;
    json_t *r = accel_request(p, "GET", path, NULL, &status);
    char *text = status == 200 && r ? json_dumps(r, JSON_COMPACT) : NULL;
    json_decref(r);
    return text;
}

//  Waits up to timeout_ms for the session's status; status NULL waits
//  until it has ended (TERMINATED or CANCELLED, or no longer found).
bool
accel_wait(const client_platform_t *p,
           const char *name,
           const char *status,
           int timeout_ms)
{
    char want[64] = "";
    if (status)
        snprintf(want, sizeof want, "\"status\":\"%s\"", status);
    char *text = NULL;
    for (int waited = 0; waited <= timeout_ms; waited += 100) {
        free(text);
        text = accel_info(p, name);
        bool ended = !text || strstr(text, "\"status\":\"TERMINATED\"") ||
                     strstr(text, "\"status\":\"CANCELLED\"");
        if (status ? text && strstr(text, want) : ended) {
            free(text);
            return true;
        }
        harness_pause_ms(100);
    }
    fprintf(stderr, "# %s never became %s: %s\n", name, status ? status : "ended",
            text ? text : "(gone)");
    free(text);
    return false;
}

void
accel_destroy(const client_platform_t *p, const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "/session/%s", name);
    int status;
    json_decref(accel_request(p, "DELETE", path, NULL, &status));
}

//  What the session's container sees: "V=<CUDA_VISIBLE_DEVICES>
//  M=<BACKPLANE_MOCK_CUDA_VISIBLE_DEVICES> T=<..._THREAD_PERCENTAGE>
//  L=<..._PINNED_DEVICE_MEM_LIMIT>" into out; false when the run failed.
bool
accel_env(const client_platform_t *p, const char *name, char *out, size_t size)
{
    char path[128];
    snprintf(path, sizeof path, "/session/%s", name);
    int status;
    json_t *r =
        accel_request(p, "POST", path,
                      "{\"mode\": \"query\", \"code\": \"echo V=$CUDA_VISIBLE_DEVICES"
                      " M=$BACKPLANE_MOCK_CUDA_VISIBLE_DEVICES"
                      " T=$BACKPLANE_MOCK_CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"
                      " L=$BACKPLANE_MOCK_CUDA_MPS_PINNED_DEVICE_MEM_LIMIT\"}",
                      &status);
    json_t *result = json_object_get(r, "result");
    json_t *console = json_object_get(result, "console");
    *out = '\0';
    size_t index;
    json_t *item;
    json_array_foreach(console, index, item)
    {
        const char *kind = json_string_value(json_array_get(item, 0));
        const char *text = json_string_value(json_array_get(item, 1));
        if (kind && text && strcmp(kind, "stdout") == 0)
            strncat(out, text, size - strlen(out) - 1);
    }
    out[strcspn(out, "\n")] = '\0';
    bool ok = status == 200 && strncmp(out, "V=", 2) == 0;
    if (!ok) {
        char *text = r ? json_dumps(r, JSON_COMPACT) : NULL;
        fprintf(stderr, "# env of %s: %d %s\n", name, status, text ? text : "");
        free(text);
    }
    json_decref(r);
    return ok;
}

//  The device a session's container sees (its CUDA_VISIBLE_DEVICES), -1
//  when none or several.
int
accel_device(const client_platform_t *p, const char *name)
{
    char env[256];
    if (!accel_env(p, name, env, sizeof env))
        return -1;
    if (env[2] >= '0' && env[2] <= '9' && env[3] == ' ')
        return env[2] - '0';
    fprintf(stderr, "# %s sees %s\n", name, env);
    return -1;
}

//  The scheduler's offline invariant check: true when it finds nothing,
//  tried for a few seconds (heartbeats catch up with the last end).
bool
accel_ledger_holds(const client_platform_t *p)
{
    char command[1024], path[600], out[4096] = "";
    snprintf(command, sizeof command,
             "%s/backplane-scheduler --set node.state_dir=%s/scheduler check-ledger"
             " > %s/ledger.txt 2>&1",
             harness_bindir(), p->dir, p->dir);
    snprintf(path, sizeof path, "%s/ledger.txt", p->dir);
    int rc = -1;
    for (int tries = 0; tries < 20 && rc != 0; tries++) {
        if (tries)
            harness_pause_ms(250);
        rc = harness_shell(command);
    }
    FILE *file = fopen(path, "r");
    if (file) {
        size_t got = fread(out, 1, sizeof out - 1, file);
        out[got] = 0;
        fclose(file);
    }
    if (rc != 0 || !strstr(out, "0 violations"))
        fprintf(stderr, "# check-ledger %d: %s", rc, out);
    return rc == 0 && strstr(out, "0 violations");
}

//  What the scheduler recorded from agent's heartbeats for slot in table,
//  read with the sqlite3 shell; -2 without that shell, -1 when there is no
//  row.
long long
accel_row(const client_platform_t *p,
          const char *table,
          const char *agent,
          const char *slot)
{
    if (harness_shell("command -v sqlite3 > /dev/null") != 0)
        return -2;
    char command[1024], path[600], out[64] = "";
    snprintf(path, sizeof path, "%s/reported.txt", p->dir);
    snprintf(command, sizeof command,
             "sqlite3 %s/scheduler/scheduler.db \"SELECT amount FROM %s"
             " WHERE agent_id = '%s' AND slot = '%s'\" > %s 2>&1",
             p->dir, table, agent, slot, path);
    if (harness_shell(command) != 0)
        return -1;
    FILE *file = fopen(path, "r");
    size_t got = file ? fread(out, 1, sizeof out - 1, file) : 0;
    out[got] = 0;
    if (file)
        fclose(file);
    return *out ? atoll(out) : -1;
}

//  What the scheduler keeps in table (agent_reported: what the agent's
//  kernels hold; agent_placeable: what one kernel could be given) for slot
//  once it says want, or what it says after timeout_ms: heartbeats come
//  every bus.heartbeat_ms, so a report trails the ledger by up to one of
//  them. -2 without the sqlite3 shell.
long long
accel_row_soon(const client_platform_t *p,
               const char *table,
               const char *agent,
               const char *slot,
               long long want,
               int timeout_ms)
{
    long long reported = accel_row(p, table, agent, slot);
    for (int waited = 0; reported != want && reported != -2 && waited < timeout_ms;
         waited += 100) {
        harness_pause_ms(100);
        reported = accel_row(p, table, agent, slot);
    }
    return reported;
}

bool
accel_agent_up(const client_platform_t *p,
               harness_proc_t *agent,
               const char *name,
               const char *bridge_name,
               const char **cidr_p,
               const char *mock)
{
    char bridge[64], cidr[64], mocked[160];
    snprintf(bridge, sizeof bridge, "agent.network.bridge=%s", bridge_name);
    if (!*cidr_p)
        *cidr_p = harness_subnet();
    snprintf(cidr, sizeof cidr, "agent.network.cidr=%s", *cidr_p ? *cidr_p : "");
    snprintf(mocked, sizeof mocked, "accelerators.mock=%s", mock);
    const char *extra[] = {
        "agent.slots.cpu=8",       "agent.slots.mem=2g",  bridge, cidr, mocked,
        "accelerators.cuda=false", "agent.stats_ms=1000", NULL};
    harness_bus_t bus = {p->hub_publish, p->hub_subscribe, p->registry};
    if (harness_agent_start(agent, p->dir, name, &bus, extra, NULL, 0) != 0)
        return false;
    //  Ready is not yet ALIVE: an agent that said goodbye (a restart) is
    //  TERMINATED until its first heartbeat, and sessions asking its slots
    //  are refused until then.
    for (int waited = 0; waited < 20000; waited += 100) {
        json_t *r = client_gql(p, &p->super,
                               "query($id: String!) { agent(agent_id: $id) { status } }",
                               json_pack("{s:s}", "id", name));
        const char *status = json_string_value(json_object_get(
            json_object_get(json_object_get(r, "data"), "agent"), "status"));
        bool alive = status && strcmp(status, "ALIVE") == 0;
        json_decref(r);
        if (alive)
            return true;
        harness_pause_ms(100);
    }
    return false;
}
