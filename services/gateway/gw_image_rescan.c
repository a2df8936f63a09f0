/*  =========================================================================
    gw_image_rescan - GraphQL rescan_images as a background task

    One job per rescan, on the loop: the calls it made (one per agent
    endpoint), how many answered, and the failures' names. The task owns
    nothing of the job; the job is freed when its last call answers, or by
    the registry's drop when the gateway stops with calls in flight (they
    are cancelled first, so no callback runs after). See gw_image_rescan.h.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define S_FAILED_MAX 512 //  bytes of the failure message

typedef struct {
    char endpoint[256];
    char agent[128];
    uint64_t call; //  0 once answered
} call_t;

typedef struct {
    gw_server_t *gw;
    char task_id[GW_BGTASK_ID_SIZE];
    call_t *calls;
    size_t count;
    size_t answered;
    size_t failed;
    char failures[S_FAILED_MAX];
} job_t;

static void
s_job_free(job_t *job)
{
    free(job->calls);
    free(job);
}

//  The registry drops a running task (the gateway stops).
static void
s_drop(void *arg)
{
    job_t *job = arg;
    bus_node_t *node = gw_server_node(job->gw);
    for (size_t i = 0; node && i < job->count; i++)
        if (job->calls[i].call)
            bus_node_cancel(node, job->calls[i].endpoint, job->calls[i].call);
    s_job_free(job);
}

//  An agent's answer: its images into the catalogue, the progress told.
static void
s_on_reply(void *arg, const bus_reply_t *reply)
{
    job_t *job = arg;
    call_t *call = NULL;
    for (size_t i = 0; i < job->count && !call; i++)
        if (job->calls[i].call && job->calls[i].call == reply->call_id)
            call = &job->calls[i];
    if (!call)
        return;
    call->call = 0;
    job->answered++;
    bus_error_t err = {0};
    proto_image_rescan_rep_t rep;
    proto_image_rescan_rep_init(&rep);
    int rc =
        reply->status != BUS_OK
            ? bus_error_set(&err, reply->status, "%s", reply->detail)
            : proto_image_rescan_rep_decode(&rep, reply->body, reply->body_size, &err);
    char message[320];
    if (rc == BUS_OK) {
        proto_image_catalog_t catalog;
        proto_image_catalog_init(&catalog);
        catalog.agent_id = rep.agent_id;
        catalog.images = rep.images;
        catalog.images_count = rep.images_count;
        bus_node_t *node = gw_server_node(job->gw);
        if (bus_node_begin(node) != 0)
            rc = bus_error_set(&err, BUS_STATUS_UNAVAILABLE, "database busy");
        else if (gw_image_apply_catalog(gw_server_db(job->gw), &catalog) != 0) {
            bus_node_rollback(node);
            rc = bus_error_set(&err, BUS_STATUS_INTERNAL, "database error");
        } else if (bus_node_commit(node) != 0)
            rc = bus_error_set(&err, BUS_STATUS_INTERNAL, "cannot commit");
        snprintf(message, sizeof message, "agent %.128s: %zu images", rep.agent_id,
                 rep.images_count);
    }
    proto_image_rescan_rep_clear(&rep);
    if (rc != BUS_OK) {
        job->failed++;
        size_t used = strlen(job->failures);
        snprintf(job->failures + used, sizeof job->failures - used, "%s%s (%s)",
                 used ? ", " : "", call->agent, err.detail);
        snprintf(message, sizeof message, "agent %.128s: %.160s", call->agent,
                 err.detail);
        bus_log_warning("image rescan failed agent=%s detail=\"%s\"", call->agent,
                        err.detail);
    }
    gw_bgtasks_t *tasks = gw_server_bgtasks(job->gw);
    gw_bgtasks_update(tasks, job->task_id, (int64_t) job->answered, (int64_t) job->count,
                      message);
    if (job->answered < job->count)
        return;
    char done[S_FAILED_MAX + 64];
    if (job->failed)
        snprintf(done, sizeof done, "%zu of %zu agents did not rescan: %s", job->failed,
                 job->count, job->failures);
    else
        snprintf(done, sizeof done, "rescanned %zu agents", job->count);
    bus_log_info("image rescan done task=%s agents=%zu failed=%zu", job->task_id,
                 job->count, job->failed);
    gw_bgtasks_finish(tasks, job->task_id, job->failed == 0, done);
    s_job_free(job);
}

int
gw_image_rescan_start(gw_request_t *r,
                      const char *registry,
                      char task_id[GW_BGTASK_ID_SIZE],
                      bus_error_t *err)
{
    (void) registry;
    if (!gw_identity_is_superadmin(&r->who))
        return bus_error_set(err, BUS_STATUS_FORBIDDEN,
                             "only superadmins may rescan images");
    bus_node_t *node = gw_server_node(r->gw);
    const proto_registry_peers_rep_t *peers = node ? bus_node_peers(node) : NULL;
    job_t *job = calloc(1, sizeof *job);
    size_t max = peers ? peers->peers_count : 0;
    if (job && max)
        job->calls = calloc(max, sizeof *job->calls);
    if (!job || (max && !job->calls)) {
        free(job);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    job->gw = r->gw;
    //  Every agent endpoint once (a fake fleet shares one).
    for (size_t i = 0; i < max && job->count < GW_IMAGE_RESCAN_AGENTS_MAX; i++) {
        const proto_registry_peer_t *peer = &peers->peers[i];
        if (strcmp(peer->service, "agent") != 0 || !peer->rpc_endpoint ||
            !*peer->rpc_endpoint)
            continue;
        bool seen = false;
        for (size_t j = 0; j < job->count && !seen; j++)
            seen = strcmp(job->calls[j].endpoint, peer->rpc_endpoint) == 0;
        if (seen)
            continue;
        call_t *call = &job->calls[job->count++];
        snprintf(call->endpoint, sizeof call->endpoint, "%s", peer->rpc_endpoint);
        snprintf(call->agent, sizeof call->agent, "%s", peer->node);
    }
    gw_bgtasks_t *tasks = gw_server_bgtasks(r->gw);
    if (gw_bgtasks_start(tasks, s_drop, job, job->task_id) != 0) {
        s_job_free(job);
        return bus_error_set(err, BUS_STATUS_UNAVAILABLE, "too many background tasks");
    }
    snprintf(task_id, GW_BGTASK_ID_SIZE, "%s", job->task_id);
    bus_log_info("image rescan started task=%s agents=%zu by=%s", job->task_id,
                 job->count, r->who.access_key);
    if (job->count == 0) {
        gw_bgtasks_finish(tasks, job->task_id, true, "no agent to rescan");
        s_job_free(job);
        return BUS_OK;
    }
    //  All calls first, then the sends: an answer cannot come before the
    //  loop runs again, but a send that fails answers at once below.
    size_t count = job->count;
    for (size_t i = 0; i < count; i++) {
        proto_image_rescan_req_t in;
        proto_image_rescan_req_init(&in);
        in.agent_id = job->calls[i].agent;
        bus_writer_t *writer = bus_writer_new();
        if (writer && proto_image_rescan_req_write(&in, writer) == 0)
            job->calls[i].call = bus_node_call(
                node, job->calls[i].endpoint, PROTO_IMAGE_RESCAN, bus_writer_data(writer),
                bus_writer_size(writer), 0, s_on_reply, job);
        bus_writer_destroy(&writer);
    }
    //  The calls that could not leave answer now, as a failure; the last
    //  answer frees the job, so nothing of it is read after.
    size_t unsent = 0;
    for (size_t i = 0; i < count; i++)
        unsent += job->calls[i].call == 0;
    for (size_t i = 0; i < count && unsent; i++)
        if (job->calls[i].call == 0) {
            job->calls[i].call = UINT64_MAX - i; //  a placeholder id to answer
            bus_reply_t failed = {BUS_STATUS_UNAVAILABLE,
                                  "the agent is not reachable",
                                  NULL,
                                  0,
                                  job->calls[i].call,
                                  0};
            unsent--;
            s_on_reply(job, &failed);
        }
    return BUS_OK;
}
