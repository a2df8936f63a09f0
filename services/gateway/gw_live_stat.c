/*  =========================================================================
    gw_live_stat - live_stat and last_stat of the sessions' containers in
    GraphQL, from the accounting service

    Backend.AI's containers carry two JSON strings of the metric object
    (reference B.1): live_stat while the kernel runs, last_stat once the
    figures are final. accounting.live answers both from its last sample of
    each kernel (the stat text, and whether the kernel still runs), so a
    page of sessions costs one call, made once every list and single
    session of the document has been read.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define S_TIMEOUT_MS 2000 //  a list waits this long for figures at most

typedef struct {
    json_t *containers; //  kernel id -> [container objects]
    gw_live_stat_done_fn *done;
    void *arg;
} live_t;

static void
s_add(json_t *containers, json_t *session)
{
    size_t index;
    json_t *container;
    json_array_foreach(json_object_get(session, "containers"), index, container)
    {
        const char *id = json_string_value(json_object_get(container, "id"));
        if (!id || !*id)
            continue;
        //  Null until the figures come: a kernel accounting does not know.
        json_object_set_new(container, "live_stat", json_null());
        json_object_set_new(container, "last_stat", json_null());
        json_t *list = json_object_get(containers, id);
        if (!list)
            json_object_set_new(containers, id, list = json_array());
        json_array_append(list, container);
    }
}

static void
s_finish(live_t *live)
{
    gw_live_stat_done_fn *done = live->done;
    void *arg = live->arg;
    json_decref(live->containers);
    free(live);
    done(arg);
}

static void
s_on_live(void *arg, const bus_reply_t *reply)
{
    live_t *live = arg;
    proto_accounting_live_rep_t rep;
    bus_error_t err = {0};
    if (reply->status == BUS_OK &&
        proto_accounting_live_rep_decode(&rep, reply->body, reply->body_size, &err) ==
            BUS_OK) {
        for (size_t i = 0; i < rep.kernels_count; i++) {
            const proto_accounting_live_t *kernel = &rep.kernels[i];
            if (!kernel->found || !kernel->stat)
                continue;
            size_t index;
            json_t *container;
            json_array_foreach(json_object_get(live->containers, kernel->kernel_id),
                               index, container)
            {
                json_object_set_new(container, "last_stat", json_string(kernel->stat));
                json_object_set_new(container, "live_stat",
                                    kernel->live ? json_string(kernel->stat)
                                                 : json_null());
            }
        }
        proto_accounting_live_rep_clear(&rep);
    } else
        bus_log_info("no live figures for the sessions status=%s detail=\"%s\"",
                     bus_status_str(reply->status),
                     reply->status == BUS_OK ? err.detail : reply->detail);
    s_finish(live);
}

void
gw_live_stat_fill(gw_request_t *r,
                  json_t *prefetch,
                  gw_live_stat_done_fn *done,
                  void *arg)
{
    live_t *live = calloc(1, sizeof *live);
    json_t *containers = json_object();
    if (!live || !containers) {
        free(live);
        json_decref(containers);
        done(arg);
        return;
    }
    live->containers = containers;
    live->done = done;
    live->arg = arg;
    const char *key;
    json_t *entry;
    json_object_foreach(prefetch, key, entry)
    {
        json_t *value = json_object_get(entry, "value");
        json_t *items = json_object_get(value, "items");
        if (json_is_array(items)) {
            size_t index;
            json_t *session;
            json_array_foreach(items, index, session) s_add(containers, session);
        } else if (json_is_object(value))
            s_add(containers, value);
    }
    size_t count = json_object_size(containers);
    bus_node_t *node = gw_server_node(r->gw);
    const char *accounting = node ? bus_node_find(node, "accounting") : NULL;
    if (!count || count > PROTO_ACCOUNTING_LIVE_REQ_KERNEL_IDS_MAX || !accounting ||
        !r->req) {
        s_finish(live);
        return;
    }
    const char **ids = calloc(count, sizeof *ids);
    size_t n = 0;
    json_t *list;
    json_object_foreach(containers, key, list) if (ids) ids[n++] = key;
    proto_accounting_live_req_t req;
    proto_accounting_live_req_init(&req);
    req.kernel_ids = ids;
    req.kernel_ids_count = ids ? n : 0;
    bus_writer_t *writer = bus_writer_new();
    int rc = ids && writer ? proto_accounting_live_req_write(&req, writer) : -1;
    proto_accounting_live_req_clear(&req);
    free(ids);
    if (rc != 0 ||
        !bus_node_call(node, accounting, PROTO_ACCOUNTING_LIVE, bus_writer_data(writer),
                       bus_writer_size(writer), S_TIMEOUT_MS, s_on_live, live))
        s_finish(live);
    bus_writer_destroy(&writer);
}
