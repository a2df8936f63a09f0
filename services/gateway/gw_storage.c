/*  =========================================================================
    gw_storage - the storage-proxies the gateway knows, and calls to them

    A rebuild asks every storage-proxy in the registry's peer list for
    storage.volumes at once and fills a new directory as answers come; when
    the last one answered (a call that times out answers too), the new
    directory replaces the old and every waiter runs. Requests that arrive
    during a rebuild wait for it rather than start another.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

typedef struct {
    gw_storage_ready_fn *fn;
    void *arg;
} waiter_t;

//  One proxy of the directory.
typedef struct {
    char name[128];
    char endpoint[256];
    char url[512];
    json_t *volumes; //  [{"name", "host", "backend", ...}]
} proxy_t;

struct _gw_storage_t {
    bus_node_t *node;
    proxy_t *proxies; //  the directory in use
    size_t proxy_count;
    json_t *volumes; //  gw_storage_volumes' view of it
    int64_t built_ms;
    //  The rebuild in flight.
    proxy_t *next;
    size_t next_count, pending;
    uint64_t *calls; //  call ids, to cancel them on destroy
    char (*call_endpoints)[256];
    waiter_t *waiters;
    size_t waiter_count;
};

static void
s_proxies_free(proxy_t *proxies, size_t count)
{
    for (size_t i = 0; i < count; i++)
        json_decref(proxies[i].volumes);
    free(proxies);
}

gw_storage_t *
gw_storage_new(bus_node_t *node)
{
    gw_storage_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->node = node;
    self->volumes = json_array();
    return self;
}

void
gw_storage_destroy(gw_storage_t **self_p)
{
    assert(self_p);
    gw_storage_t *self = *self_p;
    if (!self)
        return;
    for (size_t i = 0; i < self->next_count; i++)
        if (self->calls[i])
            bus_node_cancel(self->node, self->call_endpoints[i], self->calls[i]);
    s_proxies_free(self->proxies, self->proxy_count);
    s_proxies_free(self->next, self->next_count);
    free(self->calls);
    free(self->call_endpoints);
    free(self->waiters);
    json_decref(self->volumes);
    free(self);
    *self_p = NULL;
}

//  The new directory is complete: it replaces the old, the waiters run.
static void
s_built(gw_storage_t *self)
{
    s_proxies_free(self->proxies, self->proxy_count);
    self->proxies = self->next;
    self->proxy_count = self->next_count;
    self->next = NULL;
    self->next_count = 0;
    free(self->calls);
    free(self->call_endpoints);
    self->calls = NULL;
    self->call_endpoints = NULL;
    self->built_ms = bus_clock_mono_ms();
    json_array_clear(self->volumes);
    for (size_t i = 0; i < self->proxy_count; i++) {
        size_t index;
        json_t *volume;
        json_array_foreach(self->proxies[i].volumes, index, volume)
            json_array_append(self->volumes, volume);
    }
    //  A waiter may start a new wait: take the list first.
    waiter_t *waiters = self->waiters;
    size_t count = self->waiter_count;
    self->waiters = NULL;
    self->waiter_count = 0;
    for (size_t i = 0; i < count; i++)
        waiters[i].fn(waiters[i].arg);
    free(waiters);
}

//  Fills proxy from its storage.volumes answer; a failure leaves it empty.
static void
s_fill(proxy_t *proxy, const bus_reply_t *reply)
{
    proto_storage_volumes_rep_t rep;
    bus_error_t err = {0};
    if (reply->status == BUS_OK &&
        proto_storage_volumes_rep_decode(&rep, reply->body, reply->body_size, &err) ==
            BUS_OK) {
        snprintf(proxy->name, sizeof proxy->name, "%s", rep.proxy);
        snprintf(proxy->url, sizeof proxy->url, "%s", rep.url ? rep.url : "");
        for (size_t i = 0; i < rep.volumes_count; i++) {
            const proto_storage_volume_t *v = &rep.volumes[i];
            json_t *caps = json_array();
            for (size_t c = 0; c < v->capabilities_count; c++)
                json_array_append_new(caps, json_string(v->capabilities[c]));
            json_array_append_new(
                proxy->volumes,
                json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:{s:I, s:I}}", "name",
                          v->name, "host", v->host, "backend", v->backend, "proxy",
                          rep.proxy, "path", v->path ? v->path : "", "fs_type",
                          v->fs_type ? v->fs_type : "", "capabilities", caps, "usage",
                          "capacity_bytes", (json_int_t) v->capacity_bytes, "used_bytes",
                          (json_int_t) v->used_bytes));
        }
        proto_storage_volumes_rep_clear(&rep);
    } else
        bus_log_warning("storage-proxy %s did not list its volumes: %s", proxy->endpoint,
                        reply->status != BUS_OK ? reply->detail : err.detail);
}

//  The call context: the directory being built and the proxy's place in it.
typedef struct {
    gw_storage_t *self;
    size_t index;
} call_t;

static void
s_on_reply(void *arg, const bus_reply_t *reply)
{
    call_t *call = arg;
    gw_storage_t *self = call->self;
    self->calls[call->index] = 0;
    s_fill(&self->next[call->index], reply);
    free(call);
    if (--self->pending == 0)
        s_built(self);
}

//  Starts a rebuild: one storage.volumes call per storage-proxy peer.
static void
s_rebuild(gw_storage_t *self)
{
    const proto_registry_peers_rep_t *peers = bus_node_peers(self->node);
    size_t count = 0;
    for (size_t i = 0; peers && i < peers->peers_count; i++)
        count += strcmp(peers->peers[i].service, "storage-proxy") == 0 &&
                 peers->peers[i].rpc_endpoint && *peers->peers[i].rpc_endpoint;
    self->next = calloc(count ? count : 1, sizeof *self->next);
    self->calls = calloc(count ? count : 1, sizeof *self->calls);
    self->call_endpoints = calloc(count ? count : 1, sizeof *self->call_endpoints);
    self->next_count = 0;
    self->pending =
        1; //  held until every call is sent, so none completes the build early
    bus_writer_t *writer = bus_writer_new();
    proto_storage_volumes_req_t none;
    proto_storage_volumes_req_init(&none);
    bool ready = self->next && self->calls && self->call_endpoints && writer &&
                 proto_storage_volumes_req_write(&none, writer) == 0;
    for (size_t i = 0; ready && peers && i < peers->peers_count; i++) {
        const proto_registry_peer_t *peer = &peers->peers[i];
        if (strcmp(peer->service, "storage-proxy") != 0 || !peer->rpc_endpoint ||
            !*peer->rpc_endpoint)
            continue;
        size_t index = self->next_count++;
        proxy_t *proxy = &self->next[index];
        snprintf(proxy->endpoint, sizeof proxy->endpoint, "%s", peer->rpc_endpoint);
        snprintf(self->call_endpoints[index], sizeof self->call_endpoints[index], "%s",
                 peer->rpc_endpoint);
        proxy->volumes = json_array();
        call_t *call = calloc(1, sizeof *call);
        if (!call)
            continue;
        *call = (call_t){self, index};
        self->pending++;
        self->calls[index] =
            bus_node_call(self->node, peer->rpc_endpoint, PROTO_STORAGE_VOLUMES,
                          bus_writer_data(writer), bus_writer_size(writer),
                          GW_STORAGE_CALL_MS, s_on_reply, call);
        if (!self->calls[index]) {
            self->pending--;
            free(call);
        }
    }
    bus_writer_destroy(&writer);
    if (--self->pending == 0)
        s_built(self);
}

//  The directory's entry for a storage-proxy's RPC endpoint, or NULL.
static const proxy_t *
s_proxy_at(const gw_storage_t *self, const char *endpoint)
{
    for (size_t i = 0; i < self->proxy_count; i++)
        if (strcmp(self->proxies[i].endpoint, endpoint) == 0)
            return &self->proxies[i];
    return NULL;
}

//  Whether the registry lists a storage-proxy the directory never asked:
//  one that registered after the build. Such a directory is rebuilt at
//  once, whatever its age, or a folder on the new proxy's volumes would be
//  "not found" until the TTL ran out. A proxy that was asked and did not
//  answer does not count, so a dead one does not make every call wait.
static bool
s_has_new_proxy(const gw_storage_t *self)
{
    const proto_registry_peers_rep_t *peers = bus_node_peers(self->node);
    for (size_t i = 0; peers && i < peers->peers_count; i++) {
        const proto_registry_peer_t *peer = &peers->peers[i];
        if (strcmp(peer->service, "storage-proxy") == 0 && peer->rpc_endpoint &&
            *peer->rpc_endpoint && !s_proxy_at(self, peer->rpc_endpoint))
            return true;
    }
    return false;
}

bool
gw_storage_complete(gw_storage_t *self)
{
    assert(self);
    const proto_registry_peers_rep_t *peers = bus_node_peers(self->node);
    size_t asked = 0;
    for (size_t i = 0; peers && i < peers->peers_count; i++) {
        const proto_registry_peer_t *peer = &peers->peers[i];
        if (strcmp(peer->service, "storage-proxy") != 0 || !peer->rpc_endpoint ||
            !*peer->rpc_endpoint)
            continue;
        const proxy_t *proxy = s_proxy_at(self, peer->rpc_endpoint);
        if (!proxy || !*proxy->name)
            return false; //  not asked yet, or it did not answer
        asked++;
    }
    return asked > 0 && json_array_size(self->volumes) > 0;
}

void
gw_storage_ready(gw_storage_t *self, gw_storage_ready_fn *fn, void *arg)
{
    bool building = self->pending > 0;
    if (!building && self->built_ms &&
        bus_clock_mono_ms() - self->built_ms < GW_STORAGE_TTL_MS &&
        !s_has_new_proxy(self)) {
        fn(arg);
        return;
    }
    if (self->waiter_count >= GW_STORAGE_WAITERS_MAX) {
        fn(arg); //  the old directory will do for this one
        return;
    }
    waiter_t *grown = realloc(self->waiters, (self->waiter_count + 1) * sizeof *grown);
    if (!grown) {
        fn(arg);
        return;
    }
    self->waiters = grown;
    self->waiters[self->waiter_count++] = (waiter_t){fn, arg};
    if (!building)
        s_rebuild(self);
}

const char *
gw_storage_find(gw_storage_t *self,
                const char *host,
                const char **volume,
                const char **url)
{
    const char *colon = host ? strrchr(host, ':') : NULL;
    if (!colon)
        return NULL;
    size_t proxy_len = (size_t) (colon - host);
    for (size_t i = 0; i < self->proxy_count; i++) {
        proxy_t *proxy = &self->proxies[i];
        if (strlen(proxy->name) != proxy_len ||
            strncmp(proxy->name, host, proxy_len) != 0)
            continue;
        size_t index;
        json_t *v;
        json_array_foreach(proxy->volumes, index, v)
        {
            const char *name = json_string_value(json_object_get(v, "name"));
            if (name && strcmp(name, colon + 1) == 0) {
                if (volume)
                    *volume = name;
                if (url)
                    *url = proxy->url;
                return proxy->endpoint;
            }
        }
    }
    return NULL;
}

json_t *
gw_storage_volumes(gw_storage_t *self)
{
    return self->volumes;
}

const char *
gw_storage_volume_of(const char *host)
{
    const char *colon = strrchr(host, ':');
    return colon ? colon + 1 : host;
}

//  A call waiting for the directory.
typedef struct {
    gw_storage_t *self;
    char host[GW_STORAGE_HOST_MAX];
    const char *method; //  a PROTO_* constant
    bus_writer_t *body;
    bus_reply_fn *done;
    void *arg;
    bool retried;
} pending_call_t;

static void
s_send(void *arg)
{
    pending_call_t *call = arg;
    gw_storage_t *self = call->self;
    const char *endpoint = gw_storage_find(self, call->host, NULL, NULL);
    //  A host nobody serves may belong to a storage-proxy that came since
    //  the directory was built: build it again once, unless it is brand new.
    if (!endpoint && !call->retried &&
        bus_clock_mono_ms() - self->built_ms >= GW_STORAGE_RETRY_MS) {
        call->retried = true;
        self->built_ms = 0;
        gw_storage_ready(self, s_send, call);
        return;
    }
    char detail[GW_STORAGE_HOST_MAX + 64];
    bus_reply_t failed = {BUS_STATUS_NOT_FOUND, detail, NULL, 0, 0, 0};
    snprintf(detail, sizeof detail, "no storage-proxy serves the host %s", call->host);
    if (endpoint &&
        bus_node_call(call->self->node, endpoint, call->method,
                      bus_writer_data(call->body), bus_writer_size(call->body),
                      GW_STORAGE_CALL_MS, call->done, call->arg) != 0)
        failed.status = BUS_OK;
    else if (endpoint) {
        failed.status = BUS_STATUS_UNAVAILABLE;
        snprintf(detail, sizeof detail, "the storage-proxy of %s is not reachable",
                 call->host);
    }
    if (failed.status != BUS_OK)
        call->done(call->arg, &failed);
    bus_writer_destroy(&call->body);
    free(call);
}

void
gw_storage_call(gw_storage_t *self,
                const char *host,
                const char *method,
                bus_writer_t *body,
                const bus_error_t *err,
                bus_reply_fn *done,
                void *arg)
{
    if (!body) {
        bus_reply_t failed = {BUS_STATUS_INTERNAL, "out of memory", NULL, 0, 0, 0};
        if (err && err->status != BUS_OK) {
            failed.status = err->status;
            failed.detail = err->detail;
        }
        done(arg, &failed);
        return;
    }
    pending_call_t *call = calloc(1, sizeof *call);
    if (!call) {
        bus_writer_destroy(&body);
        bus_reply_t failed = {BUS_STATUS_INTERNAL, "out of memory", NULL, 0, 0, 0};
        done(arg, &failed);
        return;
    }
    *call = (pending_call_t){self, "", method, body, done, arg, false};
    snprintf(call->host, sizeof call->host, "%s", host ? host : "");
    gw_storage_ready(self, s_send, call);
}
