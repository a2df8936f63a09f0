/*  =========================================================================
    gpu_test - NVIDIA GPUs end to end, on a machine that has one

    With a GPU (test/gpu/run, which counts its checks) it uses the host's
    driver; without one (make check) a fake driver tree: the fake NVML
    (test/fake-nvml), the fake libcuda and the fake nvidia-smi and
    nvidia-cuda-mps-control (test/fake-driver), laid out as a driver
    installation, so that everything of Backplane's runs as with a GPU and
    only the driver is pretend (the fake libcuda honours MPS limits in an
    MPS client, as CUDA does: with a fake, that check shows the plumbing,
    not the enforcement). One agent with the cuda plugin in mode "both",
    MPS on, its network off (nothing here needs one), and the gpu-probe
    image: busybox with a CUDA driver API program and glibc, nothing of
    CUDA.

    - D1: a whole-GPU session runs a kernel JIT-compiled from PTX and
      allocates memory, and nvidia-smi works in it: the driver's files were
      bound in, and nothing else.
    - D3 and D5: while that session holds the GPU, a request for half of it
      stays PENDING (never placed on the taken GPU to fail), its reason
      naming cuda.shares; it runs once the whole one ends.
    - D4: cuda.device 0.5 is refused at the gateway with the slot named.
    - D2: two halves, each an MPS client of the GPU's control daemon:
      allocating over its pinned-memory limit fails, under it succeeds.
    - Stats: a session's GPU memory in use shows in its live_stat.
    - The daemon is gone after the last half ends.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gateway_client.h"
#include "t.h"

#define IMAGE "local.backplane/library/gpu-probe:latest"
#define NAME  "agent-gpu"

static client_platform_t s_p;
static harness_proc_t s_agent;
static long s_memory_mib;   //  the GPU's, as the probe saw it
static bool s_fake;         //  no GPU here: the fake driver tree
static char s_nvml[600];    //  the fake NVML's file, when s_fake
static char s_top[512];     //  the checkout, where the tests run
static char s_bindir[1100]; //  the binaries' directory, absolute

#define FAKE_VERSION "555.42.0"
#define FAKE_LIBDIR  "usr/lib/x86_64-linux-gnu"

static json_t *
s_request(const char *method, const char *path, const char *body, int *status)
{
    char *text = NULL;
    *status = client_signed(&s_p, &s_p.super, method, path, body, NULL, &text, NULL);
    json_t *parsed = text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;
    if (!parsed && text)
        parsed = json_string(text);
    free(text);
    return parsed;
}

//  POST /session with resources; the status, the answer's text into out.
static int
s_create(const char *name, const char *resources, bool enqueue, char *out, size_t size)
{
    char body[1024];
    snprintf(body, sizeof body,
             "{\"name\": \"%s\", \"image\": \"" IMAGE "\", \"type\": \"interactive\","
             " \"enqueueOnly\": %s, \"config\": {\"resources\": %s}}",
             name, enqueue ? "true" : "false", resources);
    int status;
    json_t *r = s_request("POST", "/session", body, &status);
    char *text = r ? json_dumps(r, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
    if (out)
        snprintf(out, size, "%s", text ? text : "");
    if (status >= 400)
        fprintf(stderr, "# create %s: %d %s\n", name, status, text ? text : "");
    free(text);
    json_decref(r);
    return status;
}

static void
s_free(char **text_p)
{
    free(*text_p);
    *text_p = NULL;
}

//  The GraphQL compute_session_list rows of the session name with fields.
static json_t *
s_rows(const char *name, const char *fields)
{
    char query[512];
    snprintf(query, sizeof query,
             "{ compute_session_list(limit: 5, offset: 0, filter: \"name == \\\"%s\\\"\")"
             " { items { name %s } } }",
             name, fields);
    return client_gql(&s_p, &s_p.super, query, NULL);
}

//  GET /session/{name} and its GraphQL row, as text (caller frees); NULL
//  when the session is not found.
static char *
s_info(const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "/session/%s", name);
    int status;
    json_t *r = s_request("GET", path, NULL, &status);
    char *text = status == 200 && r ? json_dumps(r, JSON_COMPACT) : NULL;
    json_decref(r);
    if (!text)
        return NULL;
    json_t *rows = s_rows(name, "status status_info status_data");
    char *more = rows ? json_dumps(rows, JSON_COMPACT) : NULL;
    json_decref(rows);
    size_t size = strlen(text) + (more ? strlen(more) : 0) + 2;
    char *both = malloc(size);
    if (both)
        snprintf(both, size, "%s %s", text, more ? more : "");
    free(text);
    free(more);
    return both;
}

static bool
s_wait(const char *name, const char *status, int timeout_ms)
{
    char want[64];
    snprintf(want, sizeof want, "\"status\":\"%s\"", status);
    char *text = NULL;
    for (int waited = 0; waited <= timeout_ms; waited += 250) {
        s_free(&text);
        text = s_info(name);
        if (text && strstr(text, want)) {
            s_free(&text);
            return true;
        }
        harness_pause_ms(250);
    }
    fprintf(stderr, "# %s never became %s: %s\n", name, status, text ? text : "(gone)");
    s_free(&text);
    return false;
}

static void
s_destroy(const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "/session/%s?forced=true", name);
    int status;
    json_decref(s_request("DELETE", path, NULL, &status));
}

//  Runs code (sh) in the session; its stdout into out. The HTTP status.
static int
s_run(const char *name, const char *code, char *out, size_t size)
{
    char path[128];
    snprintf(path, sizeof path, "/session/%s", name);
    json_t *body = json_pack("{s:s, s:s}", "mode", "query", "code", code);
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    int status;
    json_t *r = s_request("POST", path, text, &status);
    free(text);
    *out = '\0';
    json_t *console = json_object_get(json_object_get(r, "result"), "console");
    size_t index;
    json_t *item;
    json_array_foreach(console, index, item)
    {
        const char *text_ = json_string_value(json_array_get(item, 1));
        if (text_)
            strncat(out, text_, size - strlen(out) - 1);
    }
    printf("# %s$ %s\n", name, code);
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
        printf("#   %s\n", line);
        line[strlen(line)] = '\n'; //  strtok's cut undone: out stays whole
    }
    json_decref(r);
    return status;
}

//  The pid of a process whose command line holds command ("a b c"), 0 when
//  none.
static int
s_pid_of(const char *command)
{
    DIR *proc = opendir("/proc");
    struct dirent *entry;
    int pid = 0;
    while (proc && !pid && (entry = readdir(proc))) {
        if (!isdigit((unsigned char) entry->d_name[0]))
            continue;
        char path[300], line[512] = "";
        snprintf(path, sizeof path, "/proc/%s/cmdline", entry->d_name);
        FILE *file = fopen(path, "r");
        if (!file)
            continue;
        size_t n = fread(line, 1, sizeof line - 1, file);
        fclose(file);
        for (size_t i = 0; i < n; i++)
            if (!line[i])
                line[i] = ' ';
        if (strstr(line, command))
            pid = atoi(entry->d_name);
    }
    if (proc)
        closedir(proc);
    return pid;
}

//  True when a process runs nvidia-cuda-mps-control (the real one, or the
//  fake script under its shell).
static bool
s_mps_daemon_runs(void)
{
    return s_pid_of("nvidia-cuda-mps-control -f") > 0;
}

//  The fake NVML says pid uses 2 GiB and 30% of GPU 0 (once).
static int
s_fake_nvml_proc(int pid)
{
    static int told;
    if (told == pid)
        return 0;
    FILE *file = fopen(s_nvml, "a");
    if (!file)
        return -1;
    fprintf(file, "proc 0 %d 2147483648 30\n", pid);
    fclose(file);
    told = pid;
    return 0;
}

//  ---------------------------------------------------------------------------

static void
test_start(void)
{
    const char *sets[] = {"sessions.pass_ms=200", NULL};
    T_ASSERT(client_platform_start_with(&s_p, "gpu", true, sets) == 0);
    char command[4096];
    snprintf(command, sizeof command,
             "mkdir -p %s/images && if [ -f build/images/gpu-probe/index.json ]; then"
             " cp -a build/images/gpu-probe %s/images/; else"
             " deploy/images/build gpu-probe %s/images/gpu-probe >/dev/null; fi",
             s_p.dir, s_p.dir, s_p.dir);
    T_EQ_INT(harness_shell(command), 0);
    char root[600], library[700];
    snprintf(root, sizeof root, "accelerators.cuda_driver_root=%s",
             s_fake ? s_p.dir : "/");
    snprintf(library, sizeof library, "accelerators.cuda_nvml_library=%s",
             "libnvidia-ml.so.1");
    if (s_fake) {
        //  The fake driver, laid out as an installation under the test's dir.
        snprintf(command, sizeof command,
                 "set -e; cd %s; mkdir -p " FAKE_LIBDIR " usr/bin;"
                 " cp %s/build/fake-driver/libcuda.so " FAKE_LIBDIR
                 "/libcuda.so." FAKE_VERSION ";"
                 " ln -s libcuda.so." FAKE_VERSION " " FAKE_LIBDIR "/libcuda.so.1;"
                 " cp %s/../lib/fake-nvml/libnvidia-ml.so.1 " FAKE_LIBDIR
                 "/libnvidia-ml.so." FAKE_VERSION ";"
                 " ln -s libnvidia-ml.so." FAKE_VERSION " " FAKE_LIBDIR
                 "/libnvidia-ml.so.1;"
                 " cp %s/test/fake-driver/nvidia-smi "
                 "%s/test/fake-driver/nvidia-cuda-mps-control"
                 " usr/bin/",
                 s_p.dir, s_top, s_bindir, s_top, s_top);
        T_EQ_INT(harness_shell(command), 0);
        snprintf(s_nvml, sizeof s_nvml, "%s/nvml.txt", s_p.dir);
        FILE *file = fopen(s_nvml, "w");
        T_ASSERT(file);
        if (file) {
            fprintf(file, "driver " FAKE_VERSION "\n"
                          "gpu GPU-fa4e0000-0000-4000-8000-000000000000 -1 17179869184"
                          " 0 0 Backplane Fake GPU\n");
            fclose(file);
        }
        setenv("BACKPLANE_FAKE_NVML", s_nvml, 1);
        snprintf(library, sizeof library,
                 "accelerators.cuda_nvml_library=%s/" FAKE_LIBDIR "/libnvidia-ml.so.1",
                 s_p.dir);
    }
    const char *extra[] = {"agent.slots.cpu=4",
                           "agent.slots.mem=8g",
                           "agent.network.mode=none",
                           "accelerators.cuda=true",
                           "accelerators.cuda_mode=both",
                           "accelerators.cuda_mps=true",
                           "agent.stats_ms=1000",
                           root,
                           library,
                           NULL};
    harness_bus_t bus = {s_p.hub_publish, s_p.hub_subscribe, s_p.registry};
    T_EQ_INT(harness_agent_start(&s_agent, s_p.dir, NAME, &bus, extra, NULL, 0), 0);
    T_ASSERT(harness_log_has(&s_agent, "GPUs offered"));
    T_ASSERT(harness_log_has(&s_agent, "driver files for GPU containers"));
    T_ASSERT(client_image_listed(&s_p, "gpu-probe"));
}

//  D1: the driver's files work in a container that has nothing of CUDA.
static void
test_whole_gpu_runs_cuda(void)
{
    T_EQ_INT(s_create("gpu-whole", "{\"cpu\": 1, \"mem\": \"1g\", \"cuda.device\": 1}",
                      false, NULL, 0),
             201);
    char out[8192];
    T_EQ_INT(s_run("gpu-whole",
                   "echo LD=$LD_LIBRARY_PATH; echo PATH=$PATH;"
                   " ls /usr/local/nvidia/lib64 /usr/local/nvidia/bin; gpu-probe --jit"
                   " --alloc 1024; echo probe=$?; nvidia-smi -L; echo smi=$?",
                   out, sizeof out),
             200);
    const char *memory = strstr(out, "memory_mib=");
    s_memory_mib = memory ? atol(memory + 11) : 0;
    T_ASSERT(s_memory_mib > 0);
    T_CONTAINS(out, "libcuda.so.1");
    //  The driver's directories before and after the image's own.
    T_CONTAINS(out, "LD=/usr/local/nvidia/lib64:/opt/gpu-probe/lib\n");
    T_CONTAINS(out, ":/bin:/usr/local/nvidia/bin\n");
    T_CONTAINS(out, "jit=ok");
    T_CONTAINS(out, "alloc=ok");
    T_CONTAINS(out, "probe=0");
    T_CONTAINS(out, "smi=0");
}

//  D4: a fraction of a whole-device slot is the caller's mistake.
static void
test_fraction_of_device_refused(void)
{
    char out[2048];
    T_EQ_INT(s_create("gpu-bad", "{\"cpu\": 1, \"mem\": \"1g\", \"cuda.device\": 0.5}",
                      false, out, sizeof out),
             400);
    T_CONTAINS(out, "cuda.device");
}

//  D3 and D5: the whole GPU is taken, so half of it waits, and says why.
static void
test_half_waits_for_whole(void)
{
    T_EQ_INT(s_create("gpu-half-a",
                      "{\"cpu\": 1, \"mem\": \"1g\", \"cuda.shares\": \"0.5\"}", true,
                      NULL, 0),
             201);
    harness_pause_ms(3000);
    char *text = s_info("gpu-half-a");
    T_ASSERT(text);
    printf("# waiting: %s\n", text ? text : "");
    T_CONTAINS(text, "\"status\":\"PENDING\"");
    //  The scheduler's message names the slot (not only the request).
    const char *msg = text ? strstr(text, "\"msg\":\"") : NULL;
    T_ASSERT(msg);
    if (msg) {
        char said[512];
        snprintf(said, sizeof said, "%s", msg);
        said[strcspn(said + 7, "\"") + 7] = '\0';
        T_CONTAINS(said, "cuda.shares");
    }
    s_free(&text);
    s_destroy("gpu-whole");
    T_ASSERT(s_wait("gpu-half-a", "RUNNING", 60000));
}

//  D2: MPS enforces each half's memory limit.
static void
test_halves_are_limited(void)
{
    T_EQ_INT(s_create("gpu-half-b",
                      "{\"cpu\": 1, \"mem\": \"1g\", \"cuda.shares\": \"0.5\"}", false,
                      NULL, 0),
             201);
    T_ASSERT(s_mps_daemon_runs());
    long limit = s_memory_mib / 2;
    const char *names[] = {"gpu-half-a", "gpu-half-b"};
    for (int i = 0; i < 2; i++) {
        char code[256], out[4096];
        snprintf(code, sizeof code,
                 "echo $CUDA_MPS_PIPE_DIRECTORY $CUDA_MPS_PINNED_DEVICE_MEM_LIMIT;"
                 " gpu-probe --alloc %ld; gpu-probe --alloc %ld",
                 limit + 2048, limit - 4096);
        T_EQ_INT(s_run(names[i], code, out, sizeof out), 200);
        T_CONTAINS(out, "mps_pipe=/tmp/nvidia-mps");
        char want[64];
        snprintf(want, sizeof want, "alloc=failed mib=%ld", limit + 2048);
        T_CONTAINS(out, want);
        snprintf(want, sizeof want, "alloc=ok mib=%ld", limit - 4096);
        T_CONTAINS(out, want);
    }
}

//  A kernel's GPU memory shows in its live figures: the process of a
//  session holding the GPU whole, or an MPS client of a half.
static void
s_stats(const char *name)
{
    char out[1024];
    T_EQ_INT(s_run(name,
                   "(gpu-probe --alloc 2048 --hold 20 >/dev/null 2>&1 &) ; echo started",
                   out, sizeof out),
             200);
    bool seen = false;
    char *text = NULL;
    for (int tries = 0; tries < 60 && !seen; tries++) {
        harness_pause_ms(500);
        int pid = s_fake ? s_pid_of("gpu-probe --alloc 2048 --hold") : 0;
        if (pid > 0 && s_fake_nvml_proc(pid) != 0)
            break;
        json_t *rows = s_rows(name, "containers { live_stat }");
        json_t *items = json_object_get(
            json_object_get(json_object_get(rows, "data"), "compute_session_list"),
            "items");
        json_t *containers = json_object_get(json_array_get(items, 0), "containers");
        const char *live = json_string_value(
            json_object_get(json_array_get(containers, 0), "live_stat"));
        s_free(&text);
        text = live ? strdup(live) : (rows ? json_dumps(rows, JSON_COMPACT) : NULL);
        json_decref(rows);
        json_t *stat = live && text ? json_loads(text, 0, NULL) : NULL; //  rows is gone
        //  Its 2 GiB, now or at the peak (the process may be gone by the next
        //  sample); what the context alone takes is not enough.
        json_t *mem = json_object_get(stat, "cuda_mem");
        const char *current = json_string_value(json_object_get(mem, "current"));
        const char *peak = json_string_value(json_object_get(mem, "stats.max"));
        double want = 2048.0 * 1024 * 1024;
        seen = (current && atof(current) >= want) || (peak && atof(peak) >= want);
        json_decref(stat);
    }
    if (!seen)
        fprintf(stderr, "# live_stat: %s\n", text ? text : "(none)");
    else
        printf("# live_stat: %s\n", text);
    s_free(&text);
    T_ASSERT(seen);
}

static void
test_stats_whole(void)
{
    s_stats("gpu-whole");
}

static void
test_stats_half(void)
{
    s_stats("gpu-half-a");
}

static void
test_end(void)
{
    //  Every session a test may have left (one that failed half-way too):
    //  ended before the agent stops, so no container outlives the test.
    const char *names[] = {"gpu-whole", "gpu-half-a", "gpu-half-b"};
    for (size_t i = 0; i < 3; i++)
        s_destroy(names[i]);
    for (size_t i = 0; i < 3; i++)
        for (int tries = 0; tries < 150; tries++) {
            char *text = s_info(names[i]);
            bool ended = !text || strstr(text, "\"status\":\"TERMINATED\"") ||
                         strstr(text, "\"status\":\"CANCELLED\"");
            free(text);
            if (ended)
                break;
            harness_pause_ms(200);
        }
    bool gone = false;
    for (int tries = 0; tries < 100 && !gone; tries++) {
        harness_pause_ms(200);
        gone = !s_mps_daemon_runs();
    }
    T_ASSERT(gone);
    T_EQ_INT(harness_stop(&s_agent, 15000), 0);
    T_ASSERT(client_platform_stop(&s_p));
}

int
main(void)
{
    if (!getcwd(s_top, sizeof s_top))
        return 1;
    s_fake = access("/dev/nvidiactl", F_OK) != 0 ||
             system("nvidia-smi -L >/dev/null 2>&1") != 0;
    const char *bindir = harness_bindir();
    snprintf(s_bindir, sizeof s_bindir, "%s%s%s", *bindir == '/' ? "" : s_top,
             *bindir == '/' ? "" : "/", bindir);
    char fake_nvml[1200];
    snprintf(fake_nvml, sizeof fake_nvml, "%s/../lib/fake-nvml/libnvidia-ml.so.1",
             s_bindir);
    if (s_fake && (access(fake_nvml, R_OK) != 0 ||
                   access("build/fake-driver/libcuda.so", R_OK) != 0)) {
        printf("1..0 # SKIP no NVIDIA GPU here, and no fake driver built (make"
               " build/fake-driver/libcuda.so fake-nvml)\n");
        return 0;
    }
    printf("# %s\n", s_fake ? "no GPU here: the fake driver tree" : "the host's GPU");
    if (!harness_can_run_containers()) {
        printf("1..0 # SKIP needs root, runc, umoci and /usr/bin/tini-static\n");
        return 0;
    }
    T_RUN(test_start);
    T_RUN(test_whole_gpu_runs_cuda);
    T_RUN(test_stats_whole);
    T_RUN(test_fraction_of_device_refused);
    T_RUN(test_half_waits_for_whole);
    T_RUN(test_halves_are_limited);
    T_RUN(test_stats_half);
    T_RUN(test_end);
    client_platform_end(&s_p, t_failures > 0);
    return T_DONE();
}
