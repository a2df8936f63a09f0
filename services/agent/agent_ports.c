/*  =========================================================================
    agent_ports - apps' ports published on the agent's host

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <arpa/inet.h> //  inet_pton
#include <pthread.h>
#include <sys/socket.h> //  the bind check of a free port

#define S_FILE        "ports.json"
#define S_TABLE       "backplane_ports_"
#define S_OUTPUT_TAIL 200

typedef struct {
    char kernel[65];
    char ip[AGENT_NET_IP_MAX];
    int port;
    int host_port;
} s_mapping_t;

struct _agent_ports_t {
    pthread_mutex_t lock;
    char *path; //  <state_dir>/ports.json
    char *script_path;
    char host[AGENT_NET_IP_MAX];
    char table[64];
    char nft[PATH_MAX];
    int low, high;
    s_mapping_t *mappings;
    size_t count, capacity;
};

static int
s_save(agent_ports_t *self, bus_error_t *err)
{
    json_t *list = json_array();
    for (size_t i = 0; list && i < self->count; i++) {
        s_mapping_t *m = &self->mappings[i];
        json_array_append_new(list, json_pack("{s:s, s:s, s:i, s:i}", "kernel", m->kernel,
                                              "ip", m->ip, "port", m->port, "host_port",
                                              m->host_port));
    }
    char *text = list ? json_dumps(list, JSON_INDENT(1)) : NULL;
    json_decref(list);
    int rc = text && agent_fs_replace(self->path, text, strlen(text)) == 0
                 ? BUS_OK
                 : bus_error_set(err, BUS_STATUS_INTERNAL, "cannot write %s: %s",
                                 self->path, strerror(errno));
    free(text);
    return rc;
}

//  Rewrites the table from the mappings in one nft transaction: created if
//  missing, deleted, then made anew (none left when there is no mapping).
static int
s_apply(agent_ports_t *self, bus_error_t *err)
{
    struct evbuffer *script = evbuffer_new();
    if (!script)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    evbuffer_add_printf(script, "table ip %s {}\ndelete table ip %s\n", self->table,
                        self->table);
    if (self->count) {
        evbuffer_add_printf(script, "table ip %s {\n", self->table);
        static const char *const hooks[] = {"prerouting", "output"};
        for (size_t h = 0; h < 2; h++) {
            evbuffer_add_printf(script,
                                " chain %s {\n  type nat hook %s priority -100; policy "
                                "accept;\n",
                                hooks[h], hooks[h]);
            for (size_t i = 0; i < self->count; i++)
                evbuffer_add_printf(script, "  ip daddr %s tcp dport %d dnat to %s:%d\n",
                                    self->host, self->mappings[i].host_port,
                                    self->mappings[i].ip, self->mappings[i].port);
            evbuffer_add_printf(script, " }\n");
        }
        evbuffer_add_printf(script, "}\n");
    }
    size_t length = evbuffer_get_length(script);
    int rc = agent_fs_replace(self->script_path, evbuffer_pullup(script, -1), length);
    evbuffer_free(script);
    if (rc != 0)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot write %s: %s",
                             self->script_path, strerror(errno));
    const char *argv[] = {self->nft, "-f", self->script_path, NULL};
    int out = -1;
    int status = agent_command_run(argv, -1, &out, NULL);
    char output[S_OUTPUT_TAIL + 1];
    agent_command_tail(out, output, sizeof output);
    if (out >= 0)
        close(out);
    for (char *p = output; *p; p++)
        if (*p == '\n')
            *p = ' ';
    return status == 0
               ? BUS_OK
               : bus_error_set(err, BUS_STATUS_INTERNAL, "nft -f %s failed (%d): %s",
                               self->script_path, status, output);
}

//  Whether host_port is free: no mapping has it, and nothing on the host
//  listens on it at the published address (DNAT would hide it).
static bool
s_free(agent_ports_t *self, int host_port)
{
    for (size_t i = 0; i < self->count; i++)
        if (self->mappings[i].host_port == host_port)
            return false;
    struct sockaddr_in addr = {.sin_family = AF_INET,
                               .sin_port = htons((uint16_t) host_port)};
    inet_pton(AF_INET, self->host, &addr.sin_addr);
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    bool free_port = fd >= 0 && bind(fd, (struct sockaddr *) &addr, sizeof addr) == 0;
    if (fd >= 0)
        close(fd);
    return free_port;
}

static int
s_add(agent_ports_t *self, const s_mapping_t *mapping)
{
    if (self->count == self->capacity) {
        size_t capacity = self->capacity ? self->capacity * 2 : 16;
        s_mapping_t *grown = realloc(self->mappings, capacity * sizeof *grown);
        if (!grown)
            return -1;
        self->mappings = grown;
        self->capacity = capacity;
    }
    self->mappings[self->count++] = *mapping;
    return 0;
}

//  The mappings kept, each checked; a malformed entry is dropped with a
//  warning (its rule goes with the rewrite).
static void
s_load(agent_ports_t *self)
{
    json_t *list = json_load_file(self->path, 0, NULL);
    size_t i;
    json_t *item;
    json_array_foreach(list, i, item)
    {
        const char *kernel = json_string_value(json_object_get(item, "kernel"));
        const char *ip = json_string_value(json_object_get(item, "ip"));
        json_int_t port = json_integer_value(json_object_get(item, "port"));
        json_int_t host_port = json_integer_value(json_object_get(item, "host_port"));
        struct in_addr probe;
        s_mapping_t m = {.port = (int) port, .host_port = (int) host_port};
        if (!kernel || !agent_bundle_id_valid(kernel) ||
            strlen(kernel) >= sizeof m.kernel || !ip ||
            inet_pton(AF_INET, ip, &probe) != 1 || port < 1 || port > 65535 ||
            host_port < self->low || host_port > self->high) {
            bus_log_warning("published port dropped: malformed entry %zu in %s", i,
                            self->path);
            continue;
        }
        snprintf(m.kernel, sizeof m.kernel, "%s", kernel);
        snprintf(m.ip, sizeof m.ip, "%s", ip);
        if (self->count < AGENT_PORTS_MAX)
            s_add(self, &m);
    }
    json_decref(list);
}

//  ---------------------------------------------------------------------------

bool
agent_ports_endpoint_remote(const char *endpoint)
{
    assert(endpoint);
    char host[256], port[32];
    if (bus_addr_endpoint_split(endpoint, host, sizeof host, port, sizeof port) != 0)
        snprintf(host, sizeof host, "%s", endpoint); //  a host alone
    //  A wildcard, an interface or a name: reached from elsewhere.
    return !bus_addr_host_loopback(host);
}

agent_ports_t *
agent_ports_new(const char *state_dir,
                const char *bridge,
                const char *host,
                const char *range,
                const char *nft,
                bus_error_t *err)
{
    assert(state_dir && bridge && host && range && nft);
    struct in_addr probe;
    int low = 0, high = 0, used = 0;
    if (inet_pton(AF_INET, host, &probe) != 1 || strlen(host) >= AGENT_NET_IP_MAX) {
        bus_error_set(err, BUS_STATUS_INVALID,
                      "agent.publish.host %s is not an IPv4 address", host);
        return NULL;
    }
    if (sscanf(range, "%d-%d%n", &low, &high, &used) != 2 || range[used] || low < 1024 ||
        high > 65535 || low > high || high - low + 1 > AGENT_PORTS_MAX) {
        bus_error_set(
            err, BUS_STATUS_INVALID,
            "agent.publish.ports %s is not LOW-HIGH within 1024..65535 (at most "
            "%d ports)",
            range, AGENT_PORTS_MAX);
        return NULL;
    }
    agent_ports_t *self = calloc(1, sizeof *self);
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&self->lock, NULL);
    self->path = zsys_sprintf("%s/" S_FILE, state_dir);
    self->script_path = zsys_sprintf("%s/ports.nft", state_dir);
    snprintf(self->host, sizeof self->host, "%s", host);
    snprintf(self->nft, sizeof self->nft, "%s", nft);
    snprintf(self->table, sizeof self->table, S_TABLE "%s", bridge);
    for (char *p = self->table; *p; p++)
        if (!isalnum((unsigned char) *p) && *p != '_')
            *p = '_';
    self->low = low;
    self->high = high;
    if (!self->path || !self->script_path) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        agent_ports_destroy(&self);
        return NULL;
    }
    s_load(self);
    if (s_apply(self, err) != BUS_OK) {
        agent_ports_destroy(&self);
        return NULL;
    }
    bus_log_info("ports published host=%s range=%d-%d kept=%zu", self->host, low, high,
                 self->count);
    return self;
}

void
agent_ports_destroy(agent_ports_t **self_p)
{
    assert(self_p);
    agent_ports_t *self = *self_p;
    if (!self)
        return;
    pthread_mutex_destroy(&self->lock);
    zstr_free(&self->path);
    zstr_free(&self->script_path);
    free(self->mappings);
    free(self);
    *self_p = NULL;
}

const char *
agent_ports_host(agent_ports_t *self)
{
    assert(self);
    return self->host;
}

int
agent_ports_publish(agent_ports_t *self,
                    const char *kernel_id,
                    const char *ip,
                    int port,
                    int *host_port,
                    bus_error_t *err)
{
    assert(self && host_port);
    struct in_addr probe;
    if (!kernel_id || !agent_bundle_id_valid(kernel_id) || strlen(kernel_id) > 64 ||
        !ip || inet_pton(AF_INET, ip, &probe) != 1 || port < 1 || port > 65535)
        return bus_error_set(err, BUS_STATUS_INVALID, "nothing to publish");
    pthread_mutex_lock(&self->lock);
    int rc = BUS_OK;
    *host_port = 0;
    for (size_t i = 0; i < self->count && !*host_port; i++) {
        s_mapping_t *m = &self->mappings[i];
        if (strcmp(m->kernel, kernel_id) == 0 && m->port == port &&
            strcmp(m->ip, ip) == 0)
            *host_port = m->host_port;
    }
    if (!*host_port) {
        int chosen = 0;
        for (int candidate = self->low; candidate <= self->high && !chosen; candidate++)
            if (s_free(self, candidate))
                chosen = candidate;
        s_mapping_t m = {.port = port, .host_port = chosen};
        snprintf(m.kernel, sizeof m.kernel, "%s", kernel_id);
        snprintf(m.ip, sizeof m.ip, "%s", ip);
        if (!chosen)
            rc = bus_error_set(err, BUS_STATUS_UNAVAILABLE,
                               "no port of agent.publish.ports (%d-%d) is free",
                               self->low, self->high);
        else if (s_add(self, &m) != 0)
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        else if ((rc = s_apply(self, err)) != BUS_OK ||
                 (rc = s_save(self, err)) != BUS_OK) {
            self->count--; //  nothing is published
            bus_error_t ignored = {0};
            s_apply(self, &ignored);
        } else {
            *host_port = chosen;
            bus_log_info("port published kernel=%s target=%s:%d address=%s:%d", kernel_id,
                         ip, port, self->host, chosen);
        }
    }
    pthread_mutex_unlock(&self->lock);
    return rc;
}

size_t
agent_ports_release(agent_ports_t *self, const char *kernel_id)
{
    assert(self && kernel_id);
    pthread_mutex_lock(&self->lock);
    size_t kept = 0, before = self->count;
    for (size_t i = 0; i < self->count; i++)
        if (strcmp(self->mappings[i].kernel, kernel_id) != 0)
            self->mappings[kept++] = self->mappings[i];
    self->count = kept;
    size_t gone = before - kept;
    bus_error_t err = {0};
    if (gone && (s_apply(self, &err) != BUS_OK || s_save(self, &err) != BUS_OK))
        bus_log_error("published ports not released kernel=%s detail=\"%s\"", kernel_id,
                      err.detail);
    else if (gone)
        bus_log_info("ports released kernel=%s count=%zu", kernel_id, gone);
    pthread_mutex_unlock(&self->lock);
    return gone;
}

void
agent_ports_teardown(agent_ports_t *self)
{
    assert(self);
    pthread_mutex_lock(&self->lock);
    self->count = 0;
    bus_error_t err = {0};
    if (s_apply(self, &err) != BUS_OK || s_save(self, &err) != BUS_OK)
        bus_log_warning("published ports not removed detail=\"%s\"", err.detail);
    pthread_mutex_unlock(&self->lock);
}
