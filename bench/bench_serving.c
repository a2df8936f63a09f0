/*  =========================================================================
    bench_serving - a model service's endpoint on the wsproxy against its
    replicas addressed directly

    Starts the wsproxy (hosting its own hub) and BENCH_REPLICAS (3) model
    servers (bench/tiny_model.py: a word bigram model behind the OpenAI
    chat API, one process each, keep-alive), serves them as one endpoint
    (wsproxy.endpoint.set, as the gateway does once they are healthy) and
    signs an endpoint token, as POST /services/{id}/token does. Then, in the
    same run and alternating so that drift on a shared machine hits both
    alike:
      - throughput: BENCH_CONNS (6) keep-alive connections, each sending
        chat completions one after the other for BENCH_ROUND_S (2) seconds,
        straight to the replicas (connection i to replica i mod R), all to
        the endpoint's URL with the token (the wsproxy picks a replica per
        request), or through a bare splice relay (bench_relay.h: a
        connection to replica i mod R each, nothing parsed: what a second
        loopback TCP hop costs here, the floor of any proxy);
        BENCH_ROUNDS (3) rounds of each, which goes first turned every
        round; requests/s summed over the rounds;
      - latency: BENCH_TRIPS (1000) completions on one connection per
        path, the three taken turn about (p50, p99).
    The wsproxy's CPU time per request through it is printed beside: what
    the proxy costs whatever the model.
    Last line: serving: ratio=X added_p50_us=Y (ratio: requests/s through
    the endpoint over requests/s direct; added: the p50 through less the
    p50 direct).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

#include "bus.h"
#include "bus_apptoken.h"
#include "integration/harness.h"
#include "integration/wsp_echo.h"
#include "bench_relay.h"
#include "bench_wsp.h"

#define BENCH_REPLICAS  3
#define BENCH_CONNS     6
#define BENCH_ROUND_S   2.0
#define BENCH_ROUNDS    3
#define BENCH_TRIPS     1000
#define BENCH_READY_MS  20000 //  for a replica to answer /health
#define BENCH_STOP_MS   10000
#define BENCH_CALL_MS   10000
#define BENCH_ENDPOINT  "5e1f0c3a-9b2d-4e7f-8a61-0c2d4e6f8a10"
#define BENCH_USER      "bench-user"
#define BENCH_HEAD_SIZE 16384
#define BENCH_BODY_MAX  65536
#define BENCH_PATHS     3 //  direct, through the endpoint, through the bare relay
//  The model server, from the tree's root (BENCH_MODEL_PY: elsewhere).
#define BENCH_MODEL "bench/tiny_model.py"

enum { DIRECT, THROUGH, RELAY };
static const char *const s_path_names[BENCH_PATHS] = {"direct", "through the endpoint",
                                                      "through the bare relay"};

static char *s_dir;
static harness_proc_t s_wsp;
static pid_t s_replicas[BENCH_REPLICAS];
static int s_replica_ports[BENCH_REPLICAS];
static int s_endpoint_port;
static bench_relay_t s_relay;
static char s_auth[1024]; //  "Authorization: BackendAI <token>\r\n"
static char s_rpc[160];
static const char *s_model = BENCH_MODEL;

static void
s_stop_replicas(void)
{
    for (int i = 0; i < BENCH_REPLICAS; i++)
        if (s_replicas[i] > 0) {
            kill(s_replicas[i], SIGTERM);
            waitpid(s_replicas[i], NULL, 0);
            s_replicas[i] = 0;
        }
}

static void
s_die(const char *why)
{
    fprintf(stderr, "bench_serving: %s\n", why);
    s_stop_replicas();
    bench_relay_stop(&s_relay);
    if (s_wsp.pid > 0)
        harness_stop(&s_wsp, BENCH_STOP_MS);
    exit(1);
}

static double
s_now(void)
{
    return (double) bus_clock_mono_us() / 1e6;
}

static int
s_cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

//  ---------------------------------------------------------------------------
//  One keep-alive connection of a client

typedef struct {
    int fd;
    wsp_echo_reader_t reader;
    bool auth; //  sends the endpoint token
} conn_t;

static void
s_conn_open(conn_t *conn, int port, bool auth)
{
    memset(conn, 0, sizeof *conn);
    conn->fd = wsp_echo_connect(port);
    if (conn->fd < 0)
        s_die("cannot connect");
    conn->reader.fd = conn->fd;
    conn->auth = auth;
}

//  One chat completion; false when it was not answered 200 in full.
static bool
s_complete(conn_t *conn, int turn)
{
    char body[256], request[2048], head[BENCH_HEAD_SIZE], length[32];
    int body_len =
        snprintf(body, sizeof body,
                 "{\"model\":\"tiny-bigram\",\"max_tokens\":16,\"messages\":"
                 "[{\"role\":\"user\",\"content\":\"tell me about the program %d\"}]}",
                 turn % 100);
    int n = snprintf(request, sizeof request,
                     "POST /v1/chat/completions HTTP/1.1\r\nHost: bench\r\n"
                     "Content-Type: application/json\r\nContent-Length: %d\r\n%s\r\n%s",
                     body_len, conn->auth ? s_auth : "", body);
    if (wsp_echo_write(conn->fd, request, (size_t) n) != 0 ||
        wsp_echo_read_head(&conn->reader, head, sizeof head) != 0 ||
        strncmp(head, "HTTP/1.1 200", 12) != 0 ||
        !wsp_echo_header(head, "Content-Length", length, sizeof length))
        return false;
    long size = atol(length);
    return size > 0 && size <= BENCH_BODY_MAX &&
           wsp_echo_read_exact(&conn->reader, NULL, (size_t) size) == 0;
}

//  ---------------------------------------------------------------------------
//  Throughput: BENCH_CONNS threads, each with its connection, until the
//  round's end

typedef struct {
    conn_t conn;
    double until;
    uint64_t done;
    bool failed;
} worker_t;

static void *
s_worker(void *arg)
{
    worker_t *worker = arg;
    for (int turn = 0; s_now() < worker->until; turn++) {
        if (!s_complete(&worker->conn, turn)) {
            worker->failed = true;
            break;
        }
        worker->done++;
    }
    return NULL;
}

//  Requests answered in one round on one path, and seconds taken.
static uint64_t
s_round(int path, double *seconds)
{
    static worker_t workers[BENCH_CONNS];
    pthread_t threads[BENCH_CONNS];
    for (int i = 0; i < BENCH_CONNS; i++)
        s_conn_open(&workers[i].conn,
                    path == THROUGH ? s_endpoint_port
                    : path == RELAY ? s_relay.port
                                    : s_replica_ports[i % BENCH_REPLICAS],
                    path == THROUGH);
    double start = s_now();
    uint64_t done = 0;
    for (int i = 0; i < BENCH_CONNS; i++) {
        workers[i].until = start + BENCH_ROUND_S;
        workers[i].done = 0;
        workers[i].failed = false;
        if (pthread_create(&threads[i], NULL, s_worker, &workers[i]) != 0)
            s_die("cannot start a client thread");
    }
    bool failed = false;
    for (int i = 0; i < BENCH_CONNS; i++) {
        pthread_join(threads[i], NULL);
        done += workers[i].done;
        failed = failed || workers[i].failed;
        close(workers[i].conn.fd);
    }
    *seconds = s_now() - start;
    if (failed) {
        fprintf(stderr, "bench_serving: a request %s failed\n", s_path_names[path]);
        s_die("a request failed");
    }
    return done;
}

//  ---------------------------------------------------------------------------
//  Set-up

//  A process's CPU time so far (user + system), in seconds; 0 for pid 0
//  (this process: getrusage's, its client threads' included).
static double
s_cpu_of(pid_t pid)
{
    if (pid == 0) {
        struct rusage usage;
        getrusage(RUSAGE_SELF, &usage);
        return (double) usage.ru_utime.tv_sec + (double) usage.ru_utime.tv_usec / 1e6 +
               (double) usage.ru_stime.tv_sec + (double) usage.ru_stime.tv_usec / 1e6;
    }
    char path[64], line[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int) pid);
    FILE *file = fopen(path, "r");
    if (!file)
        return 0;
    size_t n = fread(line, 1, sizeof line - 1, file);
    fclose(file);
    line[n] = '\0';
    //  After the command's closing parenthesis: fields 3.. (utime is 14,
    //  stime 15).
    char *p = strrchr(line, ')');
    unsigned long utime = 0, stime = 0;
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime,
                     &stime) != 2)
        return 0;
    return (double) (utime + stime) / (double) sysconf(_SC_CLK_TCK);
}

//  Who spent the CPU of a path: the clients (this process), the replicas,
//  the wsproxy and the bare relay.
enum { CPU_CLIENTS, CPU_REPLICAS, CPU_WSPROXY, CPU_RELAY, CPU_KINDS };
static const char *const s_cpu_names[CPU_KINDS] = {"clients", "replicas", "wsproxy",
                                                   "relay"};

static void
s_cpu_sample(double sample[CPU_KINDS])
{
    sample[CPU_CLIENTS] = s_cpu_of(0);
    sample[CPU_REPLICAS] = 0;
    for (int i = 0; i < BENCH_REPLICAS; i++)
        sample[CPU_REPLICAS] += s_cpu_of(s_replicas[i]);
    sample[CPU_WSPROXY] = s_cpu_of(s_wsp.pid);
    sample[CPU_RELAY] = s_cpu_of(s_relay.pid);
}

//  One model server on a free port; waits until /health answers.
static void
s_replica_start(int i)
{
    int port = harness_free_port();
    char port_text[16], log_path[700];
    snprintf(port_text, sizeof port_text, "%d", port);
    snprintf(log_path, sizeof log_path, "%s/replica-%d.log", s_dir, i);
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        s_die("cannot start a replica");
    if (pid == 0) {
        FILE *log = freopen(log_path, "w", stderr);
        (void) log;
        execlp("python3", "python3", s_model, port_text, (char *) NULL);
        _exit(127);
    }
    s_replicas[i] = pid;
    s_replica_ports[i] = port;
    char hostport[32];
    snprintf(hostport, sizeof hostport, "127.0.0.1:%d", port);
    for (int waited = 0; waited < BENCH_READY_MS; waited += 50) {
        if (harness_http(hostport, "GET", "/health", NULL, NULL, 1000) == 200)
            return;
        harness_pause_ms(50);
    }
    s_die("a replica did not answer /health (python3 and bench/tiny_model.py?)");
}

//  wsproxy.endpoint.set with every replica at traffic ratio 1.
static void
s_endpoint_set(void)
{
    proto_wsproxy_target_t targets[BENCH_REPLICAS];
    char ids[BENCH_REPLICAS][32];
    for (int i = 0; i < BENCH_REPLICAS; i++) {
        proto_wsproxy_target_init(&targets[i]);
        snprintf(ids[i], sizeof ids[i], "route-%d", i);
        targets[i].route_id = ids[i];
        targets[i].host = "127.0.0.1";
        targets[i].port = (uint64_t) s_replica_ports[i];
        targets[i].traffic_ratio = 1;
    }
    proto_wsproxy_endpoint_set_req_t in;
    proto_wsproxy_endpoint_set_req_init(&in);
    in.endpoint_id = BENCH_ENDPOINT;
    in.name = "bench-svc";
    in.targets = targets;
    in.targets_count = BENCH_REPLICAS;
    bus_error_t err = {0};
    bus_writer_t *writer = proto_wsproxy_endpoint_set_req_writer(&in, &err);
    bus_rpc_client_t *client = bus_rpc_client_new(s_rpc, "bench/serving", NULL);
    zchunk_t *reply = NULL;
    int rc = writer && client
                 ? bus_rpc_client_call_sync(
                       client, PROTO_WSPROXY_ENDPOINT_SET, bus_writer_data(writer),
                       bus_writer_size(writer), BENCH_CALL_MS, &reply, &err)
                 : BUS_STATUS_INTERNAL;
    bus_writer_destroy(&writer);
    bus_rpc_client_destroy(&client);
    proto_wsproxy_endpoint_set_rep_t out;
    if (rc != BUS_OK || proto_wsproxy_endpoint_set_rep_decode(
                            &out, zchunk_data(reply), zchunk_size(reply), &err) != BUS_OK)
        s_die("wsproxy.endpoint.set failed");
    s_endpoint_port = (int) out.port;
    proto_wsproxy_endpoint_set_rep_clear(&out);
    zchunk_destroy(&reply);
    bus_apptoken_endpoint_t claims;
    memset(&claims, 0, sizeof claims);
    snprintf(claims.endpoint_id, sizeof claims.endpoint_id, BENCH_ENDPOINT);
    snprintf(claims.user_uuid, sizeof claims.user_uuid, BENCH_USER);
    claims.expires = (int64_t) time(NULL) + 3600;
    char *token = bus_apptoken_endpoint_sign(BENCH_WSP_SECRET, strlen(BENCH_WSP_SECRET),
                                             &claims, &err);
    if (!token)
        s_die("cannot sign the endpoint token");
    snprintf(s_auth, sizeof s_auth, "Authorization: BackendAI %s\r\n", token);
    free(token);
}

//  The wsproxy with its own hub, the replicas, the endpoint and its token.
static void
s_setup(void)
{
    s_dir = harness_tmpdir("bench-serving");
    if (!s_dir)
        s_die("no temporary directory");
    char line[HARNESS_LINE_MAX];
    if (bench_wsp_start(&s_wsp, s_dir, line, sizeof line) != 0 ||
        !harness_field(line, "rpc", s_rpc, sizeof s_rpc))
        s_die("the wsproxy did not start");
    for (int i = 0; i < BENCH_REPLICAS; i++) {
        s_replica_start(i);
        s_relay.targets[i] = s_replica_ports[i];
    }
    s_relay.target_count = BENCH_REPLICAS;
    if (bench_relay_start(&s_relay) != 0)
        s_die("the bare relay did not start");
    s_endpoint_set();
}

int
main(void)
{
    signal(SIGPIPE, SIG_IGN);
    if (getenv("BENCH_MODEL_PY") && *getenv("BENCH_MODEL_PY"))
        s_model = getenv("BENCH_MODEL_PY");
    s_setup();
    printf("serving bench: %d replicas of %s, %d keep-alive connections for %.0f s, %d "
           "rounds a path; %d completions on one connection a path; machine shared, "
           "ratios from the same run\n",
           BENCH_REPLICAS, s_model, BENCH_CONNS, BENCH_ROUND_S, BENCH_ROUNDS,
           BENCH_TRIPS);
    //  A warm-up of every path (connections, the model's first answers).
    double ignored;
    for (int k = 0; k < BENCH_PATHS; k++)
        s_round(k, &ignored);
    uint64_t requests[BENCH_PATHS] = {0};
    double seconds[BENCH_PATHS] = {0};
    double cpu[BENCH_PATHS][CPU_KINDS] = {{0}};
    for (int round = 0; round < BENCH_ROUNDS; round++) {
        double rate[BENCH_PATHS];
        for (int j = 0; j < BENCH_PATHS; j++) {
            int k = (round + j) % BENCH_PATHS;
            double before[CPU_KINDS], after[CPU_KINDS], taken;
            s_cpu_sample(before);
            uint64_t done = s_round(k, &taken);
            s_cpu_sample(after);
            for (int c = 0; c < CPU_KINDS; c++)
                cpu[k][c] += after[c] - before[c];
            requests[k] += done;
            seconds[k] += taken;
            rate[k] = (double) done / taken;
        }
        printf("  round %d: direct %.0f requests/s, through the endpoint %.0f, through "
               "the bare relay %.0f\n",
               round + 1, rate[DIRECT], rate[THROUGH], rate[RELAY]);
    }
    //  Latency, one connection a path, turn about.
    static double trips[BENCH_PATHS][BENCH_TRIPS];
    conn_t conns[BENCH_PATHS];
    s_conn_open(&conns[DIRECT], s_replica_ports[0], false);
    s_conn_open(&conns[THROUGH], s_endpoint_port, true);
    s_conn_open(&conns[RELAY], s_relay.port, false);
    for (int i = 0; i < BENCH_TRIPS; i++)
        for (int j = 0; j < BENCH_PATHS; j++) {
            int k = (i + j) % BENCH_PATHS;
            double start = s_now();
            if (!s_complete(&conns[k], i))
                s_die("a request of the latency run failed");
            trips[k][i] = (s_now() - start) * 1e6;
        }
    double p50[BENCH_PATHS], p99[BENCH_PATHS], rate[BENCH_PATHS];
    for (int k = 0; k < BENCH_PATHS; k++) {
        close(conns[k].fd);
        qsort(trips[k], BENCH_TRIPS, sizeof trips[k][0], s_cmp_double);
        p50[k] = trips[k][BENCH_TRIPS / 2];
        p99[k] = trips[k][BENCH_TRIPS * 99 / 100];
        rate[k] = (double) requests[k] / seconds[k];
        printf("%s: %.0f requests/s, p50 %.0f us p99 %.0f us\n", s_path_names[k], rate[k],
               p50[k], p99[k]);
    }
    for (int k = 0; k < BENCH_PATHS; k++) {
        printf("cpu per request %s:", s_path_names[k]);
        for (int c = 0; c < CPU_KINDS; c++)
            if (cpu[k][c] > 0)
                printf(" %s %.1f us", s_cpu_names[c],
                       requests[k] ? cpu[k][c] * 1e6 / (double) requests[k] : 0.0);
        printf("\n");
    }
    printf("wsproxy cpu: %.1f us per request through it\n",
           requests[THROUGH]
               ? cpu[THROUGH][CPU_WSPROXY] * 1e6 / (double) requests[THROUGH]
               : 0.0);
    printf("reference: a bare splice relay over the same replicas: relay_ratio=%.2f "
           "relay_added_p50_us=%.0f\n",
           rate[RELAY] / rate[DIRECT], p50[RELAY] - p50[DIRECT]);
    bench_relay_stop(&s_relay);
    s_stop_replicas();
    int status = harness_stop(&s_wsp, BENCH_STOP_MS);
    if (getenv("BENCH_KEEP"))
        fprintf(stderr, "bench_serving: directory kept: %s\n", s_dir);
    else
        harness_rmdir(s_dir);
    free(s_dir);
    printf("serving: ratio=%.2f added_p50_us=%.0f\n", rate[THROUGH] / rate[DIRECT],
           p50[THROUGH] - p50[DIRECT]);
    return status == 0 ? 0 : 1;
}
