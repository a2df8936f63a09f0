/*  =========================================================================
    gw_vfolder_import - POST /folders/{name}/import as a background task

    One job per import, on the loop: the folder's host, the storage-proxy's
    fetch id, the task's id, a timer and the one status call in flight. The
    job is freed when the task ends, or by the registry's drop when the
    gateway stops (the timer and the call are cancelled first, so nothing
    of it runs after). See gw_vfolder_import.h.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

typedef struct {
    gw_server_t *gw;
    char host[GW_STORAGE_HOST_MAX + 1];
    char folder[GW_VFOLDER_ID_SIZE];
    char fetch[PROTO_STORAGE_FILES_FETCH_REP_JOB_MAX + 1];
    char task_id[GW_BGTASK_ID_SIZE];
    char by[64]; //  the caller's access key, for the log
    struct event *timer;
    char endpoint[256]; //  of the status call in flight
    uint64_t call;      //  0: none in flight
    int misses;
} job_t;

//  The request, until the storage-proxy answered the start.
typedef struct {
    gw_request_t *r;
    gw_vfolder_t folder;
} start_t;

static void
s_job_free(job_t *job)
{
    if (job->timer)
        event_free(job->timer);
    free(job);
}

//  The registry drops a running task (the gateway stops).
static void
s_drop(void *arg)
{
    job_t *job = arg;
    bus_node_t *node = gw_server_node(job->gw);
    if (node && job->call)
        bus_node_cancel(node, job->endpoint, job->call);
    s_job_free(job);
}

static void
s_finish(job_t *job, bool ok, const char *message)
{
    bus_log_info("folder import %s task=%s folder=%s by=%s detail=\"%s\"",
                 ok ? "done" : "failed", job->task_id, job->folder, job->by, message);
    gw_bgtasks_finish(gw_server_bgtasks(job->gw), job->task_id, ok, message);
    s_job_free(job);
}

static void
s_schedule(job_t *job)
{
    struct timeval tv = {0, GW_IMPORT_POLL_MS * 1000};
    evtimer_add(job->timer, &tv);
}

//  An unanswered ask: tried again, up to GW_IMPORT_MISSES in a row.
static void
s_missed(job_t *job, const char *why)
{
    if (++job->misses >= GW_IMPORT_MISSES) {
        char message[320];
        snprintf(message, sizeof message, "the storage-proxy stopped answering: %.256s",
                 why);
        s_finish(job, false, message);
        return;
    }
    s_schedule(job);
}

static void
s_on_status(void *arg, const bus_reply_t *reply)
{
    job_t *job = arg;
    job->call = 0;
    if (reply->status == BUS_STATUS_NOT_FOUND) {
        s_finish(job, false,
                 "the storage-proxy no longer knows this import (restarted?)");
        return;
    }
    if (reply->status != BUS_OK) {
        s_missed(job, reply->detail ? reply->detail : bus_status_str(reply->status));
        return;
    }
    proto_storage_files_fetch_status_rep_t rep;
    proto_storage_files_fetch_status_rep_init(&rep);
    bus_error_t err = {0};
    if (proto_storage_files_fetch_status_rep_decode(&rep, reply->body, reply->body_size,
                                                    &err) != BUS_OK) {
        proto_storage_files_fetch_status_rep_clear(&rep);
        s_missed(job, err.detail);
        return;
    }
    job->misses = 0;
    const char *state = rep.state;
    bool done = strcmp(state, "done") == 0;
    if (done || strcmp(state, "failed") == 0) {
        char message[600];
        snprintf(message, sizeof message, "%s", rep.detail ? rep.detail : state);
        proto_storage_files_fetch_status_rep_clear(&rep); //  state is gone too
        s_finish(job, done, message);
        return;
    }
    bool unpacking = strcmp(state, "unpacking") == 0;
    gw_bgtasks_update(gw_server_bgtasks(job->gw), job->task_id,
                      (int64_t) (unpacking ? rep.entries : rep.bytes),
                      (int64_t) (unpacking ? rep.entries_total : rep.total), state);
    proto_storage_files_fetch_status_rep_clear(&rep);
    s_schedule(job);
}

//  The timer: ask the folder's storage-proxy where the fetch stands.
static void
s_on_timer(evutil_socket_t fd, short what, void *arg)
{
    (void) fd, (void) what;
    job_t *job = arg;
    const char *endpoint =
        gw_storage_find(gw_server_storage(job->gw), job->host, NULL, NULL);
    if (!endpoint) {
        s_missed(job, "no storage-proxy serves the folder's host");
        return;
    }
    proto_storage_files_fetch_status_req_t in;
    proto_storage_files_fetch_status_req_init(&in);
    in.job = job->fetch;
    bus_error_t err = {0};
    bus_writer_t *writer = proto_storage_files_fetch_status_req_writer(&in, &err);
    snprintf(job->endpoint, sizeof job->endpoint, "%s", endpoint);
    job->call = writer ? bus_node_call(gw_server_node(job->gw), job->endpoint,
                                       PROTO_STORAGE_FILES_FETCH_STATUS,
                                       bus_writer_data(writer), bus_writer_size(writer),
                                       GW_STORAGE_CALL_MS, s_on_status, job)
                       : 0;
    bus_writer_destroy(&writer);
    if (!job->call)
        s_missed(job, writer ? "the call could not be sent" : err.detail);
}

//  The storage-proxy's answer to the start: the task, or the refusal.
static void
s_on_started(void *arg, const bus_reply_t *reply)
{
    start_t *start = arg;
    gw_request_t *r = start->r;
    proto_storage_files_fetch_rep_t rep;
    proto_storage_files_fetch_rep_init(&rep);
    bus_error_t err = {0};
    job_t *job = NULL;
    if (reply->status != BUS_OK) {
        if (reply->status == BUS_STATUS_CONFLICT || reply->status == BUS_STATUS_NOT_FOUND)
            gw_reply_problem(r, "vfolder-operation-failed", reply->detail);
        else if (reply->status == BUS_STATUS_FORBIDDEN)
            gw_reply_problem(r, "quota-exceeded", reply->detail);
        else
            gw_reply_status(r, reply->status, reply->detail);
        goto done;
    }
    if (proto_storage_files_fetch_rep_decode(&rep, reply->body, reply->body_size, &err) !=
        BUS_OK) {
        gw_reply_status(r, BUS_STATUS_INTERNAL, err.detail);
        goto done;
    }
    job = calloc(1, sizeof *job);
    if (job)
        job->timer = evtimer_new(bus_node_base(gw_server_node(r->gw)), s_on_timer, job);
    if (!job || !job->timer) {
        if (job)
            s_job_free(job);
        gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
        goto done;
    }
    job->gw = r->gw;
    snprintf(job->host, sizeof job->host, "%s", start->folder.host);
    snprintf(job->folder, sizeof job->folder, "%s", start->folder.id);
    snprintf(job->fetch, sizeof job->fetch, "%s", rep.job);
    snprintf(job->by, sizeof job->by, "%s", r->who.access_key);
    if (gw_bgtasks_start(gw_server_bgtasks(r->gw), s_drop, job, job->task_id) != 0) {
        //  The fetch goes on unwatched; its outcome shows in the folder.
        s_job_free(job);
        gw_reply_status(r, BUS_STATUS_UNAVAILABLE, "too many background tasks");
        goto done;
    }
    bus_log_info("folder import started task=%s folder=%s fetch=%s by=%s", job->task_id,
                 job->folder, job->fetch, job->by);
    gw_bgtasks_update(gw_server_bgtasks(r->gw), job->task_id, 0, 0, "connecting");
    s_schedule(job);
    gw_reply_json(r, 202, json_pack("{s:s}", "task_id", job->task_id));
done:
    proto_storage_files_fetch_rep_clear(&rep);
    gw_vfolder_clear(&start->folder);
    free(start);
}

//  The last segment of url's path (before any '?' or '#'), into out; ""
//  when the URL has no path or its last segment is empty, "." or "..".
//  A repository cloned with git (git) leaves out a trailing '/' and ".git".
static void
s_default_name(const char *url, bool git, char *out, size_t size)
{
    out[0] = 0;
    const char *scheme = strstr(url, "://");
    const char *path = scheme ? strchr(scheme + 3, '/') : NULL;
    if (!path)
        return;
    size_t end = (size_t) (path - url) + strcspn(path, "?#");
    while (git && url + end > path + 1 && url[end - 1] == '/')
        end--;
    if (git && url + end - 4 > path && strncmp(url + end - 4, ".git", 4) == 0)
        end -= 4;
    size_t begin = end;
    while (url + begin > path && url[begin - 1] != '/')
        begin--;
    size_t len = end - begin;
    if (len == 0 || len >= size || (len == 1 && url[begin] == '.') ||
        (len == 2 && url[begin] == '.' && url[begin + 1] == '.'))
        return;
    memcpy(out, url + begin, len);
    out[len] = 0;
}

void
gw_vfolder_handle_import(gw_request_t *r)
{
    json_t *params = r->params;
    const char *url = json_string_value(json_object_get(params, "url"));
    json_t *path_json = json_object_get(params, "path");
    json_t *unzip = json_object_get(params, "unzip");
    json_t *strip = json_object_get(params, "strip_top");
    json_t *git = json_object_get(params, "git");
    json_t *ref = json_object_get(params, "ref");
    if (!url || !*url) {
        gw_reply_problem(r, "invalid-api-params", "url: an http:// or https:// URL");
        return;
    }
    if ((path_json && !json_is_string(path_json) && !json_is_null(path_json)) ||
        (unzip && !json_is_boolean(unzip)) || (strip && !json_is_boolean(strip))) {
        gw_reply_problem(r, "invalid-api-params",
                         "path: a string; unzip and strip_top: true or false");
        return;
    }
    if ((git && !json_is_boolean(git)) ||
        (ref && !json_is_string(ref) && !json_is_null(ref))) {
        gw_reply_problem(r, "invalid-api-params",
                         "git: true or false; ref: a branch or tag name");
        return;
    }
    const char *ref_name = json_string_value(ref);
    if (ref_name && *ref_name && !json_is_true(git)) {
        gw_reply_problem(r, "invalid-api-params", "ref: only with git: true");
        return;
    }
    if (json_is_true(git) && json_is_true(unzip)) {
        gw_reply_problem(r, "invalid-api-params", "git and unzip: one or the other");
        return;
    }
    if (ref_name && strlen(ref_name) > GW_IMPORT_REF_MAX) {
        char detail[64];
        snprintf(detail, sizeof detail, "ref: at most %d bytes", GW_IMPORT_REF_MAX);
        gw_reply_problem(r, "invalid-api-params", detail);
        return;
    }
    char path[GW_IMPORT_PATH_MAX + 1];
    const char *given = json_string_value(path_json);
    if (given && *given)
        snprintf(path, sizeof path, "%s", given);
    else
        s_default_name(url, json_is_true(git), path, sizeof path);
    if (!*path) {
        gw_reply_problem(r, "invalid-api-params",
                         "path: the URL names no file; say where it goes");
        return;
    }
    start_t *start = calloc(1, sizeof *start);
    if (!start) {
        gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
        return;
    }
    start->r = r;
    if (!gw_vfolder_reach(r, gw_request_path_param(r, "name"), "ready", GW_VFOLDER_RW,
                          false, &start->folder)) {
        free(start);
        return;
    }
    if (!gw_vfolder_host_allows(gw_request_ctx(r), start->folder.host, NULL,
                                "upload-file")) {
        gw_reply_problem(r, "insufficient-privilege",
                         "you may not upload files to this folder's host");
        gw_vfolder_clear(&start->folder);
        free(start);
        return;
    }
    proto_storage_files_fetch_req_t in;
    proto_storage_files_fetch_req_init(&in);
    in.id = start->folder.id;
    in.volume = gw_storage_volume_of(start->folder.host);
    in.url = url;
    in.path = path;
    in.unzip = json_is_true(unzip);
    in.strip_top = json_is_true(strip);
    in.git = json_is_true(git);
    in.ref = ref_name && *ref_name ? ref_name : NULL;
    bus_error_t err = {0};
    bus_writer_t *writer = proto_storage_files_fetch_req_writer(&in, &err);
    gw_storage_call(gw_server_storage(r->gw), start->folder.host,
                    PROTO_STORAGE_FILES_FETCH, writer, &err, s_on_started, start);
}
