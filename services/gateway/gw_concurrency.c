/*  =========================================================================
    gw_concurrency - concurrency_used of the keypairs in GraphQL, from the
    scheduler

    The keypairs of every field are gathered by access key (one keypair
    may be in several fields), then asked for in chunks, one call after
    the other, each chunk's answer written into its keypairs at once.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define S_CHUNK PROTO_SCHEDULER_CONCURRENCY_REQ_ACCESS_KEYS_MAX

typedef struct {
    gw_request_t *r;
    json_t *keypairs;  //  access key -> [keypair objects]
    const char **keys; //  the access keys, borrowed from keypairs
    size_t count;
    size_t next; //  first key of the next call
    gw_concurrency_done_fn *done;
    void *arg;
} fill_t;

static const char *const s_roots[] = {"keypair", "keypairs", "keypair_list", NULL};

bool
gw_concurrency_is_root(const char *name)
{
    for (size_t i = 0; s_roots[i]; i++)
        if (strcmp(s_roots[i], name) == 0)
            return true;
    return false;
}

static void
s_add(json_t *keypairs, json_t *keypair)
{
    const char *key = json_string_value(json_object_get(keypair, "access_key"));
    if (!key || !*key)
        return;
    //  Null until the count comes.
    json_object_set_new(keypair, "concurrency_used", json_null());
    json_t *list = json_object_get(keypairs, key);
    if (!list)
        json_object_set_new(keypairs, key, list = json_array());
    json_array_append(list, keypair);
}

static void
s_finish(fill_t *fill)
{
    gw_concurrency_done_fn *done = fill->done;
    void *arg = fill->arg;
    json_decref(fill->keypairs);
    free(fill->keys);
    free(fill);
    done(arg);
}

static bool s_send(fill_t *fill);

static void
s_on_counts(void *arg, const bus_reply_t *reply)
{
    fill_t *fill = arg;
    proto_scheduler_concurrency_rep_t rep;
    bus_error_t err = {0};
    if (reply->status == BUS_OK &&
        proto_scheduler_concurrency_rep_decode(&rep, reply->body, reply->body_size,
                                               &err) == BUS_OK) {
        for (size_t i = 0; i < rep.keypairs_count; i++) {
            size_t index;
            json_t *keypair;
            json_array_foreach(
                json_object_get(fill->keypairs, rep.keypairs[i].access_key), index,
                keypair)
            {
                json_object_set_new(
                    keypair, "concurrency_used",
                    json_integer((json_int_t) rep.keypairs[i].concurrency_used));
            }
        }
        proto_scheduler_concurrency_rep_clear(&rep);
    } else
        bus_log_info("no concurrency counts for the keypairs status=%s detail=\"%s\"",
                     bus_status_str(reply->status),
                     reply->status == BUS_OK ? err.detail : reply->detail);
    //  A client that went away needs no more counts.
    if (reply->status != BUS_OK || !fill->r->req || !s_send(fill))
        s_finish(fill);
}

//  Asks for the next chunk of keys; false when there is none or it could
//  not be sent.
static bool
s_send(fill_t *fill)
{
    if (fill->next >= fill->count)
        return false;
    bus_node_t *node = gw_server_node(fill->r->gw);
    const char *scheduler = node ? bus_node_find(node, "scheduler") : NULL;
    if (!scheduler)
        return false;
    size_t n = fill->count - fill->next;
    if (n > S_CHUNK)
        n = S_CHUNK;
    proto_scheduler_concurrency_req_t req;
    proto_scheduler_concurrency_req_init(&req);
    req.access_keys = fill->keys + fill->next;
    req.access_keys_count = n;
    fill->next += n;
    bus_writer_t *writer = bus_writer_new();
    bool sent = writer && proto_scheduler_concurrency_req_write(&req, writer) == 0 &&
                bus_node_call(node, scheduler, PROTO_SCHEDULER_CONCURRENCY,
                              bus_writer_data(writer), bus_writer_size(writer),
                              GW_CONCURRENCY_TIMEOUT_MS, s_on_counts, fill);
    bus_writer_destroy(&writer);
    return sent;
}

void
gw_concurrency_fill(gw_request_t *r,
                    json_t *resolved,
                    gw_concurrency_done_fn *done,
                    void *arg)
{
    fill_t *fill = calloc(1, sizeof *fill);
    json_t *keypairs = json_object();
    if (!fill || !keypairs) {
        free(fill);
        json_decref(keypairs);
        done(arg);
        return;
    }
    fill->r = r;
    fill->keypairs = keypairs;
    fill->done = done;
    fill->arg = arg;
    const char *key;
    json_t *entry;
    json_object_foreach(resolved, key, entry)
    {
        const char *name = json_string_value(json_object_get(entry, "name"));
        if (!name || !gw_concurrency_is_root(name))
            continue;
        json_t *value = json_object_get(entry, "value");
        json_t *items = json_object_get(value, "items"); //  keypair_list
        if (!json_is_array(items) && json_is_array(value))
            items = value; //  keypairs
        if (json_is_array(items)) {
            size_t index;
            json_t *keypair;
            json_array_foreach(items, index, keypair) s_add(keypairs, keypair);
        } else if (json_is_object(value))
            s_add(keypairs, value); //  keypair
    }
    fill->count = json_object_size(keypairs);
    fill->keys = calloc(fill->count ? fill->count : 1, sizeof *fill->keys);
    if (fill->keys) {
        json_t *list;
        json_object_foreach(keypairs, key, list) fill->keys[fill->next++] = key;
        fill->next = 0;
    }
    if (!fill->keys || !r->req || !s_send(fill))
        s_finish(fill);
}
