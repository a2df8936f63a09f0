/*  =========================================================================
    gpu_stats_test - GPU figures from NVML through the whole platform, with
    the fake NVML library on a machine without a GPU

    An agent runs with accelerators.cuda: true (no mock) and its NVML
    library set to the fake one ($BACKPLANE_BINDIR/../lib/fake-nvml/
    libnvidia-ml.so.1), whose file ($BACKPLANE_FAKE_NVML, inherited by the
    agent) lists one GPU with driver 550.54.15. The agent logs the driver
    and offers cuda.device=1; a busybox session asking cuda.device gets it
    from the cuda plugin (CUDA_VISIBLE_DEVICES is the GPU's UUID; the GPU
    has no device node here, so none is given). The test then writes the
    session's container init pid into the fake file as a compute process
    using 123456789 bytes and 42% SM, and waits for its kernel's live_stat
    (GraphQL, from accounting) to say cuda_mem 123456789 of the GPU's
    memory and cuda_util 42; the agents' live_stat carries the GPU's own
    figures. DELETE /session answers them in its stats, the last_stat keeps
    them, and the agent stops cleanly (NVML shut down). Needs root, runc,
    umoci and tini.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "accel_client.h"
#include "t.h"

#define IMAGE   "local.backplane/library/busybox:latest"
#define AGENT   "agent-gpu"
#define UUID    "GPU-0badcafe-1111-2222-3333-444444444444"
#define DRIVER  "550.54.15"
#define GPU_MEM "85899345920" //  80 GiB
#define USED    "123456789"
#define FAKE    "/../lib/fake-nvml/libnvidia-ml.so.1"

static client_platform_t s_p;
static harness_proc_t s_agent;
static char s_bridge[16];
static char s_file[600];
static char s_session_id[64];

//  Writes the fake NVML's file: the GPU, with a process line when pid > 0.
static bool
s_fake(int pid)
{
    FILE *file = fopen(s_file, "w");
    if (!file)
        return false;
    fprintf(file, "driver " DRIVER "\n");
    fprintf(file, "gpu " UUID " 0 " GPU_MEM " 2000000000 37 NVIDIA H100 80GB HBM3\n");
    if (pid > 0)
        fprintf(file, "proc 0 %d " USED " 42\n", pid);
    return fclose(file) == 0;
}

//  The first line of the agent's log holding text, into line; false if none.
static bool
s_log_line(const char *text, char *line, size_t size)
{
    FILE *file = fopen(s_agent.log_path, "r");
    bool found = false;
    while (file && !found && fgets(line, (int) size, file))
        found = strstr(line, text) != NULL;
    if (file)
        fclose(file);
    return found;
}

//  The session's container's stat (live_stat or last_stat) text parsed, or
//  NULL while there is none.
static json_t *
s_container_stat(const char *status, const char *key)
{
    char query[256];
    snprintf(query, sizeof query,
             "{ compute_session_list(limit: 20, offset: 0, status: \"%s\")"
             " { items { name containers { live_stat last_stat } } } }",
             status);
    json_t *gql = client_gql(&s_p, &s_p.super, query, NULL);
    json_t *items = json_object_get(
        json_object_get(json_object_get(gql, "data"), "compute_session_list"), "items");
    json_t *stat = NULL, *item;
    size_t index;
    json_array_foreach(items, index, item)
    {
        const char *name = json_string_value(json_object_get(item, "name"));
        json_t *container = json_array_get(json_object_get(item, "containers"), 0);
        const char *text = json_string_value(json_object_get(container, key));
        if (name && strcmp(name, "gpu-1") == 0 && text)
            stat = json_loads(text, 0, NULL);
    }
    json_decref(gql);
    return stat;
}

//  metric's field of stat as text ("" when absent).
static const char *
s_field(json_t *stat, const char *metric, const char *field)
{
    const char *text =
        json_string_value(json_object_get(json_object_get(stat, metric), field));
    return text ? text : "";
}

static void
test_start(void)
{
    T_EQ_INT(client_platform_start(&s_p, "gpu_stats", true), 0);
    snprintf(s_bridge, sizeof s_bridge, "bpg%d", (int) (getpid() % 100000));
    snprintf(s_file, sizeof s_file, "%s/fake-nvml.txt", s_p.dir);
    T_ASSERT(s_fake(0));
    setenv("BACKPLANE_FAKE_NVML", s_file, 1); //  the agent inherits it
    char library[600];
    snprintf(library, sizeof library, "accelerators.cuda_nvml_library=%s" FAKE,
             harness_bindir());
    const char *cidr = harness_subnet();
    T_ASSERT(cidr);
    const char *sets[] = {"accelerators.cuda=true",
                          "accelerators.mock=", "accelerators.cuda_mode=device", library,
                          NULL};
    T_ASSERT(client_agent_start_with(&s_p, &s_agent, AGENT, s_bridge, cidr, sets));
    char line[HARNESS_LINE_MAX];
    T_ASSERT(s_log_line("cuda: NVML open", line, sizeof line));
    T_CONTAINS(line, "driver=" DRIVER);
    T_ASSERT(s_log_line("plugin=cuda", line, sizeof line));
    T_CONTAINS(line, UUID);
    T_ASSERT(s_log_line("\"agent slots\" cuda.device=1", line, sizeof line));
}

//  A session with the GPU: the cuda plugin gives it by UUID.
static void
test_session_gets_the_gpu(void)
{
    const char *body = "{\"name\": \"gpu-1\", \"image\": \"" IMAGE "\","
                       " \"type\": \"interactive\", \"enqueueOnly\": true,"
                       " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"64m\","
                       " \"cuda.device\": 1}}}";
    T_ASSERT(client_session_running(&s_p, &s_p.super, body, "gpu-1", s_session_id));
    int status;
    json_t *r = accel_request(
        &s_p, "POST", "/session/gpu-1",
        "{\"mode\": \"query\", \"code\": \"echo V=$CUDA_VISIBLE_DEVICES\"}", &status);
    char *text = r ? json_dumps(r, JSON_COMPACT) : NULL;
    json_decref(r);
    T_EQ_INT(status, 200);
    T_CONTAINS(text, "V=" UUID);
    free(text);
}

//  The container's init uses GPU memory (the fake says so): its kernel's
//  live_stat says cuda_mem and cuda_util; the agent's live_stat the GPU's.
static void
test_live_stat_has_cuda(void)
{
    char line[HARNESS_LINE_MAX], pid[16] = "";
    T_ASSERT(s_log_line("\"kernel started\"", line, sizeof line) ||
             s_log_line("kernel started", line, sizeof line));
    T_ASSERT(harness_field(line, "pid", pid, sizeof pid));
    fprintf(stderr, "# the container's init pid=%s\n", pid);
    T_ASSERT(atoi(pid) > 1);
    T_ASSERT(s_fake(atoi(pid)));
    json_t *stat = NULL;
    for (int tries = 0; tries < 200; tries++) {
        json_decref(stat);
        stat = s_container_stat("RUNNING", "live_stat");
        if (stat && strcmp(s_field(stat, "cuda_mem", "current"), USED) == 0)
            break;
        harness_pause_ms(100);
    }
    char *text = stat ? json_dumps(stat, JSON_COMPACT) : NULL;
    fprintf(stderr, "# live_stat %s\n", text ? text : "(none)");
    free(text);
    T_EQ_STR(s_field(stat, "cuda_mem", "current"), USED);
    T_EQ_STR(s_field(stat, "cuda_mem", "capacity"), GPU_MEM);
    T_EQ_STR(s_field(stat, "cuda_mem", "unit_hint"), "bytes");
    T_EQ_STR(s_field(stat, "cuda_util", "current"), "42");
    T_EQ_STR(s_field(stat, "cuda_util", "capacity"), "100");
    T_EQ_STR(s_field(stat, "cuda_util", "unit_hint"), "percent");
    T_EQ_STR(s_field(stat, "cuda_util", "stats.max"), "42");
    json_decref(stat);

    json_t *gql = client_gql(&s_p, &s_p.super, "{ agents { id live_stat } }", NULL);
    json_t *agent =
        json_array_get(json_object_get(json_object_get(gql, "data"), "agents"), 0);
    json_t *live =
        json_loads(json_string_value(json_object_get(agent, "live_stat")), 0, NULL);
    json_t *node = json_object_get(live, "node");
    T_EQ_STR(s_field(node, "cuda_util", "current"), "37");
    T_EQ_STR(s_field(node, "cuda_mem", "current"), "2000000000");
    T_EQ_STR(s_field(node, "cuda_mem", "capacity"), GPU_MEM);
    json_t *devices = json_object_get(json_object_get(live, "devices"), "cuda_mem");
    T_EQ_STR(s_field(devices, "0", "current"), "2000000000");
    json_decref(live);
    json_decref(gql);
}

//  Its end: DELETE's stats and the last_stat keep the GPU figures.
static void
test_end_keeps_them(void)
{
    int status;
    json_t *r = accel_request(&s_p, "DELETE", "/session/gpu-1", NULL, &status);
    T_EQ_INT(status, 200);
    json_t *stats = json_object_get(r, "stats");
    T_EQ_STR(s_field(stats, "cuda_mem", "current"), USED);
    T_EQ_STR(s_field(stats, "cuda_util", "current"), "42");
    json_decref(r);
    json_t *stat = NULL;
    for (int tries = 0; tries < 200 && !stat; tries++) {
        stat = s_container_stat("TERMINATED", "last_stat");
        if (!stat)
            harness_pause_ms(100);
    }
    T_EQ_STR(s_field(stat, "cuda_mem", "current"), USED);
    T_EQ_STR(s_field(stat, "cuda_mem", "stats.max"), USED);
    json_decref(stat);
}

static void
test_stop(void)
{
    T_EQ_INT(harness_stop(&s_agent, 10000), 0);
    T_ASSERT(!harness_log_has_report(&s_agent));
    char command[128];
    snprintf(command, sizeof command, "ip link del %s 2>/dev/null", s_bridge);
    (void) harness_shell(command);
    T_ASSERT(client_platform_stop(&s_p));
}

int
main(void)
{
    if (!harness_can_run_containers()) {
        printf("1..0 # SKIP needs root, runc, umoci and /usr/bin/tini-static\n");
        return 0;
    }
    T_RUN(test_start);
    T_RUN(test_session_gets_the_gpu);
    T_RUN(test_live_stat_has_cuda);
    T_RUN(test_end_keeps_them);
    T_RUN(test_stop);
    client_platform_end(&s_p, t_failures > 0);
    return T_DONE();
}
