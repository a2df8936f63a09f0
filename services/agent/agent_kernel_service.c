/*  =========================================================================
    agent_kernel_service - kernel.start_service: an app of a running kernel

    The app's command comes from the image's service definition
    (/etc/backend.ai/service-defs/<name>.json, read from the host through
    the kernel's overlay root, confined beneath it) or the built-in one
    (agent_service_def). The runner starts it unless it runs (SERVICE);
    then the agent connects to the app's first port on the kernel's
    address, from the host, as the proxies will, every S_RETRY_MS until it
    accepts or S_WAIT_MS pass; the answer is that address. A preopen port,
    or a definition with noop, starts nothing: the user runs the server,
    and the answer comes at once. Nothing blocks the loop: the connects are
    non-blocking, and each step looks the kernel up again, so a kernel that
    ends meanwhile fails the request instead of leaving it dangling.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <fcntl.h>      //  open flags
#include <sys/socket.h> //  the port probes

#define S_WAIT_MS          10000 //  for the port to accept (Backend.AI's agent waits 10 s)
#define S_RUNNER_MS        5000  //  for the runner's answer to SERVICE
#define S_RETRY_MS         100   //  between connects
#define S_CONNECT_MS       500   //  one connect
#define S_LOG_QUOTE        2048  //  the app's output quoted in a failure
#define S_SERVICE_DEFS_DIR "etc/backend.ai/service-defs/"

typedef struct {
    agent_kernels_t *self;
    bus_rpc_request_t *req;
    char kernel_id[65];
    char session_id[65];
    char name[AGENT_SERVICE_NAME_MAX + 1];
    char host[AGENT_NET_IP_MAX];
    int port;
    const char *status; //  "started" or "running"
    int64_t deadline_ms;
    int fd; //  the connect in flight, or -1
    struct event *event;
} s_start_t;

static void
s_free(s_start_t *start)
{
    if (start->event)
        event_free(start->event);
    if (start->fd >= 0)
        close(start->fd);
    bus_rpc_request_destroy(&start->req);
    free(start);
}

static void s_fail(s_start_t *start, int status, const char *detail);

static void
s_answer(s_start_t *start)
{
    //  Published on the host, when the agent publishes: what proxies on
    //  other hosts reach.
    agent_ports_t *ports = agent_containers_ports(start->self->containers);
    if (ports) {
        int host_port = 0;
        bus_error_t err = {0};
        if (agent_ports_publish(ports, start->kernel_id, start->host, start->port,
                                &host_port, &err) != BUS_OK) {
            s_fail(start, err.status, err.detail);
            return;
        }
        snprintf(start->host, sizeof start->host, "%s", agent_ports_host(ports));
        start->port = host_port;
    }
    proto_kernel_start_service_rep_t out;
    proto_kernel_start_service_rep_init(&out);
    out.status = start->status;
    out.host = start->host;
    out.port = (uint64_t) start->port;
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_kernel_start_service_rep_write(&out, writer) == 0)
        bus_node_reply(start->self->node, &start->req, BUS_OK, NULL,
                       bus_writer_data(writer), bus_writer_size(writer));
    else
        bus_node_reply(start->self->node, &start->req, BUS_STATUS_INTERNAL,
                       "cannot encode the reply", NULL, 0);
    bus_writer_destroy(&writer);
    bus_log_info("kernel service open kernel=%s app=%s status=%s address=%s:%d",
                 start->kernel_id, start->name, start->status, start->host, start->port);
    proto_kernel_app_started_t event;
    proto_kernel_app_started_init(&event);
    event.kernel_id = start->kernel_id;
    event.session_id = start->session_id;
    event.app = start->name;
    event.status = start->status;
    event.host = start->host;
    event.port = (uint64_t) start->port;
    writer = bus_writer_new();
    if (writer && proto_kernel_app_started_write(&event, writer) == 0)
        bus_node_publish(start->self->node, PROTO_KERNEL_APP_STARTED,
                         bus_writer_data(writer), bus_writer_size(writer));
    bus_writer_destroy(&writer);
    s_free(start);
}

//  kernel.app_failed, for whoever watches (detail cut to the event's most).
static void
s_publish_failed(agent_kernels_t *self,
                 const char *kernel_id,
                 const char *session_id,
                 const char *app,
                 const char *detail)
{
    char cut[4001];
    snprintf(cut, sizeof cut, "%s", detail ? detail : "");
    proto_kernel_app_failed_t event;
    proto_kernel_app_failed_init(&event);
    event.kernel_id = kernel_id;
    event.session_id = session_id;
    event.app = app;
    event.detail = cut;
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_kernel_app_failed_write(&event, writer) == 0)
        bus_node_publish(self->node, PROTO_KERNEL_APP_FAILED, bus_writer_data(writer),
                         bus_writer_size(writer));
    bus_writer_destroy(&writer);
}

//  Fails the request with detail and the end of the kernel's log.
static void
s_fail(s_start_t *start, int status, const char *detail)
{
    size_t size = 0;
    uint8_t *log =
        agent_container_log_tail(start->self->runc, start->kernel_id, S_LOG_QUOTE, &size);
    char *text = zsys_sprintf("%s%s%.*s", detail, log && size ? "; its output: " : "",
                              (int) size, log ? (const char *) log : "");
    free(log);
    bus_log_warning("kernel service failed kernel=%s app=%s detail=\"%s\"",
                    start->kernel_id, start->name, detail);
    bus_node_reply(start->self->node, &start->req, status, text ? text : detail, NULL, 0);
    s_publish_failed(start->self, start->kernel_id, start->session_id, start->name,
                     text ? text : detail);
    zstr_free(&text);
    s_free(start);
}

//  The kernel, when it still runs.
static agent_kernel_t *
s_kernel(s_start_t *start)
{
    agent_kernel_t *kernel = zhashx_lookup(start->self->kernels, start->kernel_id);
    return kernel && kernel->state == AGENT_KERNEL_RUNNING ? kernel : NULL;
}

static void s_try(s_start_t *start);

static void
s_on_event(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    s_start_t *start = arg;
    event_free(start->event);
    start->event = NULL;
    if (start->fd >= 0) {
        int error = 0;
        socklen_t len = sizeof error;
        bool open = (what & EV_WRITE) &&
                    getsockopt(start->fd, SOL_SOCKET, SO_ERROR, &error, &len) == 0 &&
                    error == 0;
        close(start->fd);
        start->fd = -1;
        if (open) {
            s_answer(start);
            return;
        }
    }
    s_try(start);
}

//  Waits for fd to be writable (the connect's end) or ms to pass.
static void
s_wait(s_start_t *start, int fd, int ms)
{
    struct event_base *base = bus_node_base(start->self->node);
    start->event = event_new(base, fd, fd >= 0 ? EV_WRITE : 0, s_on_event, start);
    struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
    if (!start->event || event_add(start->event, &tv) != 0)
        s_fail(start, BUS_STATUS_INTERNAL, "cannot wait for the app's port");
}

//  One connect to the app's port, or the failure when time is up.
static void
s_try(s_start_t *start)
{
    if (!s_kernel(start)) {
        s_fail(start, BUS_STATUS_UNAVAILABLE, "the kernel ended");
        return;
    }
    int64_t left = start->deadline_ms - bus_clock_mono_ms();
    if (left <= 0) {
        char detail[160];
        snprintf(detail, sizeof detail,
                 "opening the service port timed out: %s did not accept connections on "
                 "port %d",
                 start->name, start->port);
        s_fail(start, BUS_STATUS_INTERNAL, detail);
        return;
    }
    struct sockaddr_storage addr;
    socklen_t addr_len = 0;
    if (bus_addr_numeric(start->host, (uint16_t) start->port, &addr, &addr_len) != 0) {
        s_fail(start, BUS_STATUS_INTERNAL, "the kernel has no address");
        return;
    }
    start->fd = socket(addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int rc =
        start->fd >= 0 ? connect(start->fd, (struct sockaddr *) &addr, addr_len) : -1;
    if (rc == 0) {
        close(start->fd);
        start->fd = -1;
        s_answer(start);
    } else if (start->fd >= 0 && errno == EINPROGRESS)
        s_wait(start, start->fd, left < S_CONNECT_MS ? (int) left : S_CONNECT_MS);
    else {
        if (start->fd >= 0)
            close(start->fd);
        start->fd = -1;
        s_wait(start, -1, S_RETRY_MS); //  refused: not listening yet
    }
}

static void
s_on_runner(const char *reply, const bus_error_t *err, void *arg)
{
    s_start_t *start = arg;
    if (!reply)
        s_fail(start, err->status, err->detail);
    else if (strcmp(reply, "started") == 0 || strcmp(reply, "running") == 0) {
        start->status = strcmp(reply, "started") == 0 ? "started" : "running";
        s_try(start);
    } else
        s_fail(start, BUS_STATUS_INTERNAL, reply);
}

//  The image's definition of name, read beneath the kernel's root (a
//  regular file only: a FIFO planted there must not block the loop), else
//  the built-in one. *text_p NULL when there is neither.
static int
s_definition(agent_kernels_t *self,
             agent_kernel_t *kernel,
             const char *name,
             char **text_p,
             size_t *size_p,
             bus_error_t *err)
{
    *text_p = NULL;
    *size_p = 0;
    char *rootfs = agent_runc_kernel_path(self->runc, kernel->id, "bundle/rootfs");
    int rootfd = rootfs ? open(rootfs, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    zstr_free(&rootfs);
    if (rootfd < 0)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "the kernel's root is not there");
    char rel[128];
    snprintf(rel, sizeof rel, S_SERVICE_DEFS_DIR "%s.json", name);
    int fd = bus_beneath_open(rootfd, rel, O_RDONLY | O_NONBLOCK, 0, BUS_BENEATH_IN);
    close(rootfd);
    int rc = BUS_OK;
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
        st.st_size <= AGENT_SERVICE_DEF_MAX) {
        char *text = malloc((size_t) st.st_size + 1);
        ssize_t n = text ? read(fd, text, (size_t) st.st_size) : -1;
        if (n >= 0) {
            text[n] = '\0';
            *text_p = text;
            *size_p = (size_t) n;
        } else {
            free(text);
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "cannot read %s", rel);
        }
    } else if (fd >= 0)
        rc = bus_error_set(err, BUS_STATUS_INVALID,
                           "/%s is not a regular file of at most %d bytes", rel,
                           AGENT_SERVICE_DEF_MAX);
    else if (agent_service_def_builtin(name)) {
        *text_p = strdup(agent_service_def_builtin(name));
        *size_p = *text_p ? strlen(*text_p) : 0;
    }
    if (fd >= 0)
        close(fd);
    return rc;
}

//  The shell script for the app, or *noop_p. BUS_OK or err.
static int
s_script(agent_kernels_t *self,
         agent_kernel_t *kernel,
         const proto_kernel_start_service_req_t *in,
         const int *ports,
         size_t nports,
         char **script_p,
         bool *noop_p,
         bus_error_t *err)
{
    char *text = NULL;
    size_t size = 0;
    int rc = s_definition(self, kernel, in->name, &text, &size, err);
    if (rc == BUS_OK && !text)
        rc =
            bus_error_set(err, BUS_STATUS_NOT_FOUND, "unsupported service: %s", in->name);
    //  Backend.AI's clients send the JSON text "null" for none. (Parsed
    //  before any test: jansson's json_is_* macros name their argument twice.)
    json_t *arguments = in->arguments && *in->arguments
                            ? json_loads(in->arguments, JSON_DECODE_ANY, NULL)
                            : NULL;
    json_t *envs =
        in->envs && *in->envs ? json_loads(in->envs, JSON_DECODE_ANY, NULL) : NULL;
    if (rc == BUS_OK && in->arguments && *in->arguments && !json_is_null(arguments) &&
        !json_is_object(arguments))
        rc = bus_error_set(err, BUS_STATUS_INVALID, "arguments are not a JSON object");
    if (rc == BUS_OK && in->envs && *in->envs && !json_is_null(envs) &&
        !json_is_object(envs))
        rc = bus_error_set(err, BUS_STATUS_INVALID, "envs are not a JSON object");
    agent_service_vars_t vars = {
        .runtime_path = in->runtime_path,
        .ports = ports,
        .nports = nports,
        .arguments = json_is_object(arguments) ? arguments : NULL,
        .envs = json_is_object(envs) ? envs : NULL,
    };
    if (rc == BUS_OK)
        rc = agent_service_def_render(text, size, &vars, script_p, noop_p, err);
    json_decref(arguments);
    json_decref(envs);
    free(text);
    return rc;
}

//  ---------------------------------------------------------------------------
int
agent_kernel_service_on_start(void *arg,
                              const proto_kernel_start_service_req_t *in,
                              proto_kernel_start_service_rep_t *out,
                              bus_rpc_request_t *req,
                              bus_error_t *err)
{
    (void) out; //  answered once the app accepts (s_answer)
    agent_kernels_t *self = arg;
    int rc = BUS_OK;
    agent_kernel_t *kernel = zhashx_lookup(self->kernels, in->kernel_id);
    int ports[AGENT_SERVICE_PORTS_MAX];
    int nports = agent_service_ports_parse(in->ports, ports, AGENT_SERVICE_PORTS_MAX);
    bool preopen = strcmp(in->protocol, "preopen") == 0;
    char *script = NULL;
    bool noop = preopen;
    if (!kernel || kernel->state != AGENT_KERNEL_RUNNING || !kernel->runner)
        rc = bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such kernel");
    else if (!agent_service_name_valid(in->name))
        rc = bus_error_set(err, BUS_STATUS_INVALID, "invalid service name");
    else if (nports < 1)
        rc = bus_error_set(err, BUS_STATUS_INVALID, "invalid ports \"%.64s\"", in->ports);
    else if (strcmp(in->protocol, "http") != 0 && strcmp(in->protocol, "tcp") != 0 &&
             !preopen)
        rc = bus_error_set(err, BUS_STATUS_INVALID, "protocol %.16s cannot be started",
                           in->protocol);
    else if (!preopen)
        rc = s_script(self, kernel, in, ports, (size_t) nports, &script, &noop, err);
    s_start_t *start = rc == BUS_OK ? calloc(1, sizeof *start) : NULL;
    if (rc == BUS_OK && !start)
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    if (rc == BUS_OK) {
        start->self = self;
        start->fd = -1;
        start->port = ports[0];
        start->status = "started";
        snprintf(start->kernel_id, sizeof start->kernel_id, "%s", kernel->id);
        snprintf(start->session_id, sizeof start->session_id, "%s",
                 kernel->session_id ? kernel->session_id : "");
        snprintf(start->name, sizeof start->name, "%s", in->name);
        snprintf(start->host, sizeof start->host, "%s", kernel->ip);
        int wait_ms = bus_rpc_request_remaining_ms(req) - 250;
        start->deadline_ms =
            bus_clock_mono_ms() + (wait_ms < S_WAIT_MS ? wait_ms : S_WAIT_MS);
        start->req = bus_rpc_request_detach(req);
        rc = BUS_STATUS_PENDING_;
        if (noop)
            s_answer(start); //  nothing to start or to wait for
        else
            agent_runner_client_service(kernel->runner, in->name, script, S_RUNNER_MS,
                                        s_on_runner, start);
    }
    //  A known app of a running kernel that cannot be opened is news too.
    if (rc != BUS_OK && rc != BUS_STATUS_PENDING_ && kernel && !start &&
        kernel->state == AGENT_KERNEL_RUNNING && agent_service_name_valid(in->name))
        s_publish_failed(self, kernel->id, kernel->session_id, in->name, err->detail);
    free(script);
    return rc;
}
