/*  =========================================================================
    agent_model - an inference kernel's model service: started, then
    health-checked from the host

    A probe is one non-blocking socket on the loop: connect, and with a
    health check, write one HTTP/1.0 GET and read up to the status line.
    The connect, the write and the read share one deadline (max_wait_time),
    so a service that accepts and never answers fails the probe too.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <sys/socket.h>

#define S_RUNNER_MS    5000 //  for the runner's answer to SERVICE
#define S_REPEAT       10   //  probes between repeats of an unchanged state
#define S_PATH_MAX     1024
#define S_NAME_MAX     256
#define S_DETAIL_MAX   1024
#define S_SERVICE_NAME "model" //  the runner's name for it: one per kernel

struct _agent_model_t {
    agent_kernels_t *kernels;
    char kernel_id[65];
    char session_id[65];
    char name[S_NAME_MAX];
    char host[AGENT_NET_IP_MAX];
    int port;
    bool http;             //  a health check: GET path, else a connect
    char path[S_PATH_MAX]; //  the health check's path
    int expected;          //  its status code
    int max_retries;       //  failures in a row tolerated
    int interval_ms;       //  max_wait_time: between probes, and one probe's most
    int failures;          //  in a row
    int state;             //  -1 not yet known, 0 unhealthy, 1 healthy
    int since_published;   //  probes since the last kernel.model_status
    char detail[S_DETAIL_MAX];
    //  The probe in flight.
    int fd;
    bool sent;
    char reply[64];
    size_t reply_len;
    int64_t deadline_ms;
    struct event *io;
    struct event *timer;
};

//  The runner's answer comes to a copy of the kernel's id, never to the
//  model: the kernel (and its model) may be gone by then.
typedef struct {
    agent_kernels_t *kernels;
    char kernel_id[65];
} s_started_t;

//  ---------------------------------------------------------------------------
//  The definition

//  The parsed definition, or NULL with err.
static json_t *
s_parse(const char *text, bus_error_t *err)
{
    json_error_t jerr;
    json_t *def = text ? json_loads(text, 0, &jerr) : NULL;
    json_t *argv = json_object_get(def, "start_command");
    json_t *check = json_object_get(def, "health_check");
    json_int_t port = json_integer_value(json_object_get(def, "port"));
    const char *name = json_string_value(json_object_get(def, "name"));
    const char *path = json_string_value(json_object_get(def, "model_path"));
    const char *health = json_string_value(json_object_get(check, "path"));
    bool ok = json_is_object(def) && name && *name && strlen(name) < S_NAME_MAX && path &&
              path[0] == '/' && strlen(path) < S_PATH_MAX && json_is_array(argv) &&
              json_array_size(argv) > 0 && port >= 1 && port <= 65535 &&
              (!check || (json_is_object(check) && health && health[0] == '/' &&
                          strlen(health) < S_PATH_MAX));
    size_t index;
    json_t *word;
    json_array_foreach(argv, index, word) ok = ok && json_is_string(word);
    if (!ok) {
        json_decref(def);
        bus_error_set(err, BUS_STATUS_INVALID,
                      "model_service: want {name, model_path (absolute), start_command "
                      "[strings], port 1..65535, health_check {path (absolute)}?}");
        return NULL;
    }
    return def;
}

int
agent_model_check(const char *text, bus_error_t *err)
{
    json_t *def = s_parse(text, err);
    json_decref(def);
    return def ? BUS_OK : err->status;
}

char *
agent_model_resolve(const char *text, const proto_image_info_t *image, bus_error_t *err)
{
    json_t *def = text ? json_loads(text, 0, NULL) : NULL;
    if (!json_is_true(json_object_get(def, "image_command"))) {
        json_decref(def);
        char *copy = text ? strdup(text) : NULL;
        if (!copy)
            bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return copy;
    }
    if (!image->command_count) {
        json_decref(def);
        bus_error_set(err, BUS_STATUS_INVALID,
                      "the image %s has no command of its own (neither ENTRYPOINT nor"
                      " CMD), which its model service's runtime variant runs",
                      image->reference);
        return NULL;
    }
    json_t *argv = json_array();
    for (size_t i = 0; argv && i < image->command_count; i++)
        json_array_append_new(argv, json_string(image->command[i]));
    json_object_set_new(def, "start_command", argv);
    json_object_del(def, "image_command");
    char *resolved = json_dumps(def, JSON_COMPACT);
    json_decref(def);
    if (!resolved)
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    return resolved;
}

//  Appends text to buffer as one single-quoted shell word.
static void
s_quote(struct evbuffer *buffer, const char *text)
{
    evbuffer_add(buffer, "'", 1);
    for (const char *c = text; *c; c++)
        if (*c == '\'')
            evbuffer_add(buffer, "'\\''", 4);
        else
            evbuffer_add(buffer, c, 1);
    evbuffer_add(buffer, "'", 1);
}

//  The runner's /bin/sh line: the model's variables exported, its
//  directory entered, its command exec'd. Caller frees it.
static char *
s_script(json_t *def)
{
    struct evbuffer *buffer = evbuffer_new();
    if (!buffer)
        return NULL;
    const char *path = json_string_value(json_object_get(def, "model_path"));
    evbuffer_add_printf(buffer, "export BACKEND_MODEL_NAME=");
    s_quote(buffer, json_string_value(json_object_get(def, "name")));
    evbuffer_add_printf(buffer, " BACKEND_MODEL_PATH=");
    s_quote(buffer, path);
    evbuffer_add_printf(buffer, "; cd ");
    s_quote(buffer, path);
    evbuffer_add_printf(buffer, " && exec");
    size_t index;
    json_t *word;
    json_array_foreach(json_object_get(def, "start_command"), index, word)
    {
        evbuffer_add(buffer, " ", 1);
        s_quote(buffer, json_string_value(word));
    }
    size_t size = evbuffer_get_length(buffer);
    char *script = malloc(size + 1);
    if (script) {
        evbuffer_remove(buffer, script, size);
        script[size] = '\0';
    }
    evbuffer_free(buffer);
    return script;
}

//  ---------------------------------------------------------------------------
//  kernel.model_status

static void
s_publish(agent_model_t *self)
{
    proto_kernel_model_status_t event;
    proto_kernel_model_status_init(&event);
    event.kernel_id = self->kernel_id;
    event.session_id = self->session_id;
    event.model = self->name;
    event.healthy = self->state == 1;
    event.detail = self->state == 1 ? NULL : self->detail;
    bus_writer_t *writer = bus_writer_new();
    if (writer && proto_kernel_model_status_write(&event, writer) == 0)
        bus_node_publish(self->kernels->node, PROTO_KERNEL_MODEL_STATUS,
                         bus_writer_data(writer), bus_writer_size(writer));
    bus_writer_destroy(&writer);
    self->since_published = 0;
}

//  The state after one probe (detail: why it failed, NULL when it passed).
static void
s_settle(agent_model_t *self, const char *detail)
{
    int was = self->state;
    if (!detail) {
        self->failures = 0;
        self->state = 1;
    } else {
        snprintf(self->detail, sizeof self->detail, "%s", detail);
        if (++self->failures > self->max_retries)
            self->state = 0;
    }
    if (self->state != was)
        bus_log_notice("model service %s kernel=%s model=%s detail=\"%s\"",
                       self->state ? "healthy" : "unhealthy", self->kernel_id, self->name,
                       self->state ? "" : self->detail);
    if (self->state != was || (self->state >= 0 && ++self->since_published >= S_REPEAT))
        s_publish(self);
}

//  ---------------------------------------------------------------------------
//  Probes

static void s_probe(evutil_socket_t fd, short what, void *arg);

static void
s_close_probe(agent_model_t *self)
{
    if (self->io)
        event_free(self->io);
    self->io = NULL;
    if (self->fd >= 0)
        close(self->fd);
    self->fd = -1;
}

//  Ends the probe in flight with detail (NULL: it passed) and waits for the
//  next.
static void
s_done(agent_model_t *self, const char *detail)
{
    s_close_probe(self);
    s_settle(self, detail);
    struct timeval tv = {self->interval_ms / 1000, (self->interval_ms % 1000) * 1000};
    evtimer_add(self->timer, &tv);
}

//  The status line read so far, judged once it is whole.
static void
s_judge(agent_model_t *self)
{
    int code = 0;
    char detail[S_DETAIL_MAX];
    if (sscanf(self->reply, "HTTP/%*d.%*d %d", &code) != 1) {
        s_done(self, "the health check's answer is not HTTP");
        return;
    }
    if (code == self->expected) {
        s_done(self, NULL);
        return;
    }
    snprintf(detail, sizeof detail, "GET %.900s answered %d, not %d", self->path, code,
             self->expected);
    s_done(self, detail);
}

static void
s_on_io(evutil_socket_t fd, short what, void *arg)
{
    agent_model_t *self = arg;
    char detail[S_DETAIL_MAX];
    if (what & EV_TIMEOUT) {
        snprintf(detail, sizeof detail, "port %d: no answer in %d ms", self->port,
                 self->interval_ms);
        s_done(self, detail);
        return;
    }
    if (!self->sent) {
        int error = 0;
        socklen_t len = sizeof error;
        if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &len) != 0 || error != 0) {
            snprintf(detail, sizeof detail, "port %d: %s", self->port,
                     strerror(error ? error : errno));
            s_done(self, detail);
            return;
        }
        if (!self->http) {
            s_done(self, NULL); //  it accepts: that is the whole check
            return;
        }
        char request[S_PATH_MAX + 128];
        int size = snprintf(request, sizeof request,
                            "GET %s HTTP/1.0\r\nHost: %s:%d\r\nUser-Agent: "
                            "backplane-agent\r\n\r\n",
                            self->path, self->host, self->port);
        //  A request this small fits a fresh socket's buffer at once.
        if (send(fd, request, (size_t) size, MSG_NOSIGNAL) != size) {
            snprintf(detail, sizeof detail, "port %d: cannot send the health check",
                     self->port);
            s_done(self, detail);
            return;
        }
        self->sent = true;
    } else {
        ssize_t n = recv(fd, self->reply + self->reply_len,
                         sizeof self->reply - 1 - self->reply_len, 0);
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
            n = -2;
        if (n == -1 || (n == 0 && self->reply_len == 0)) {
            snprintf(detail, sizeof detail, "port %d: the connection closed unanswered",
                     self->port);
            s_done(self, detail);
            return;
        }
        if (n > 0)
            self->reply_len += (size_t) n;
        self->reply[self->reply_len] = '\0';
        if (n == 0 || strchr(self->reply, '\n') ||
            self->reply_len == sizeof self->reply - 1) {
            s_judge(self);
            return;
        }
    }
    int64_t left = self->deadline_ms - bus_clock_mono_ms();
    struct timeval tv = {left > 0 ? left / 1000 : 0, left > 0 ? (left % 1000) * 1000 : 0};
    event_free(self->io);
    self->io = event_new(bus_node_base(self->kernels->node), fd, EV_READ, s_on_io, self);
    if (!self->io || event_add(self->io, &tv) != 0)
        s_done(self, "cannot wait for the health check");
}

//  One probe, on the timer.
static void
s_probe(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    agent_model_t *self = arg;
    struct sockaddr_storage addr;
    socklen_t addr_len = 0;
    self->sent = false;
    self->reply_len = 0;
    self->reply[0] = '\0';
    self->deadline_ms = bus_clock_mono_ms() + self->interval_ms;
    if (bus_addr_numeric(self->host, (uint16_t) self->port, &addr, &addr_len) != 0) {
        s_done(self, "the kernel has no address");
        return;
    }
    self->fd = socket(addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int rc = self->fd >= 0 ? connect(self->fd, (struct sockaddr *) &addr, addr_len) : -1;
    if (rc != 0 && (self->fd < 0 || errno != EINPROGRESS)) {
        char detail[S_DETAIL_MAX];
        snprintf(detail, sizeof detail, "port %d: %s", self->port, strerror(errno));
        s_done(self, detail);
        return;
    }
    self->io =
        event_new(bus_node_base(self->kernels->node), self->fd, EV_WRITE, s_on_io, self);
    struct timeval tv = {self->interval_ms / 1000, (self->interval_ms % 1000) * 1000};
    if (!self->io || event_add(self->io, &tv) != 0)
        s_done(self, "cannot wait for the model's port");
}

//  ---------------------------------------------------------------------------
//  Start

static void
s_on_started(const char *reply, const bus_error_t *err, void *arg)
{
    s_started_t *started = arg;
    //  A runner client that went away (its kernel ending) says nothing more.
    agent_kernel_t *kernel =
        reply ? zhashx_lookup(started->kernels->kernels, started->kernel_id) : NULL;
    agent_model_t *self = kernel ? kernel->model : NULL;
    if (self) {
        bool ran = strcmp(reply, "started") == 0 || strcmp(reply, "running") == 0;
        if (ran) {
            struct timeval now = {0, 0};
            evtimer_add(self->timer, &now);
        } else {
            char detail[S_DETAIL_MAX];
            snprintf(detail, sizeof detail, "the model service did not start: %s", reply);
            self->failures = self->max_retries;
            s_settle(self, detail);
        }
    } else if (!reply)
        bus_log_info("model service start unanswered kernel=%s detail=\"%s\"",
                     started->kernel_id, err ? err->detail : "");
    free(started);
}

agent_model_t *
agent_model_start(agent_kernels_t *kernels, agent_kernel_t *kernel, const char *text)
{
    bus_error_t err = {0};
    json_t *def = s_parse(text, &err);
    agent_model_t *self = calloc(1, sizeof *self);
    s_started_t *started = calloc(1, sizeof *started);
    char *script = def ? s_script(def) : NULL;
    if (self) {
        self->kernels = kernels;
        self->fd = -1;
        self->state = -1;
        snprintf(self->kernel_id, sizeof self->kernel_id, "%s", kernel->id);
        snprintf(self->session_id, sizeof self->session_id, "%s",
                 kernel->session_id ? kernel->session_id : "");
        snprintf(self->host, sizeof self->host, "%s", kernel->ip);
        self->timer = evtimer_new(bus_node_base(kernels->node), s_probe, self);
    }
    if (!self || !started || !self->timer || (def && !script)) {
        free(script);
        free(started);
        json_decref(def);
        agent_model_destroy(&self);
        return NULL;
    }
    if (!def) {
        //  Refused before the kernel was made; said here for completeness.
        snprintf(self->detail, sizeof self->detail, "%s", err.detail);
        self->state = 0;
        s_publish(self);
        free(started);
        return self;
    }
    json_t *check = json_object_get(def, "health_check");
    snprintf(self->name, sizeof self->name, "%s",
             json_string_value(json_object_get(def, "name")));
    self->port = (int) json_integer_value(json_object_get(def, "port"));
    self->http = check != NULL;
    snprintf(self->path, sizeof self->path, "%s",
             check ? json_string_value(json_object_get(check, "path")) : "");
    json_t *value = json_object_get(check, "expected_status_code");
    self->expected = value ? (int) json_integer_value(value) : 200;
    value = json_object_get(check, "max_retries");
    self->max_retries = value ? (int) json_integer_value(value) : 10;
    value = json_object_get(check, "max_wait_time");
    double wait_s = value ? json_number_value(value) : 5.0;
    self->interval_ms = wait_s >= 0.1 && wait_s <= 3600 ? (int) (wait_s * 1000) : 5000;
    started->kernels = kernels;
    snprintf(started->kernel_id, sizeof started->kernel_id, "%s", kernel->id);
    bus_log_info("model service starting kernel=%s model=%s port=%d check=%s",
                 self->kernel_id, self->name, self->port,
                 self->http ? self->path : "(port)");
    agent_runner_client_service(kernel->runner, S_SERVICE_NAME, script, S_RUNNER_MS,
                                s_on_started, started);
    free(script);
    json_decref(def);
    return self;
}

void
agent_model_destroy(agent_model_t **self_p)
{
    agent_model_t *self = *self_p;
    if (!self)
        return;
    s_close_probe(self);
    if (self->timer)
        event_free(self->timer);
    free(self);
    *self_p = NULL;
}
