/*  =========================================================================
    gw_volumes - storage_volume_list, storage_volume, and the perf-metric,
    fstab and mounts routes, from the storage directory

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

//  Backend.AI's StorageVolume for one entry of the storage directory.
static json_t *
s_volume(json_t *entry)
{
    json_t *usage = json_object_get(entry, "usage");
    json_t *metric =
        json_pack("{s:I, s:I, s:I, s:I, s:I, s:I}", "iops_read", (json_int_t) -1,
                  "iops_write", (json_int_t) -1, "io_bytes_read", (json_int_t) -1,
                  "io_bytes_write", (json_int_t) -1, "io_usec_read", (json_int_t) -1,
                  "io_usec_write", (json_int_t) -1);
    json_t *hardware = json_pack("{s:s, s:s}", "status", "healthy", "status_info", "");
    const char *fs_type = json_string_value(json_object_get(entry, "fs_type"));
    if (fs_type && *fs_type)
        json_object_set_new(hardware, "fs_type", json_string(fs_type));
    char *usage_text = json_dumps(usage ? usage : json_object(), JSON_COMPACT);
    char *metric_text = json_dumps(metric, JSON_COMPACT);
    char *hardware_text = json_dumps(hardware, JSON_COMPACT);
    json_decref(metric);
    json_decref(hardware);
    const char *path = json_string_value(json_object_get(entry, "path"));
    json_t *caps = json_object_get(entry, "capabilities");
    json_t *volume = json_pack(
        "{s:O, s:O, s:s, s:s, s:O, s:s, s:s, s:s}", "id", json_object_get(entry, "host"),
        "backend", json_object_get(entry, "backend"), "path", path ? path : "",
        "fsprefix", ".", "capabilities", caps ? caps : json_array(), "hardware_metadata",
        hardware_text ? hardware_text : "{}", "performance_metric",
        metric_text ? metric_text : "{}", "usage", usage_text ? usage_text : "{}");
    free(usage_text);
    free(metric_text);
    free(hardware_text);
    return volume;
}

//  Every volume as a StorageVolume, or NULL with err for anyone but a
//  superadmin.
static json_t *
s_volumes(gw_request_t *r, bus_error_t *err)
{
    if (!gw_identity_is_superadmin(&r->who)) {
        bus_error_set(err, BUS_STATUS_FORBIDDEN,
                      "only a superadmin lists storage volumes");
        return NULL;
    }
    json_t *all = json_array();
    size_t index;
    json_t *entry;
    json_array_foreach(gw_storage_volumes(gw_server_storage(r->gw)), index, entry)
    {
        json_array_append_new(all, s_volume(entry));
    }
    return all;
}

static json_t *
q_storage_volume_list(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *all = s_volumes(r, err);
    return all ? gw_gql_page(all, args, err) : NULL;
}

static json_t *
q_storage_volume(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *all = s_volumes(r, err);
    if (!all)
        return NULL;
    const char *id = gw_gql_arg(args, "id");
    json_t *found = json_null();
    size_t index;
    json_t *volume;
    json_array_foreach(all, index, volume)
    {
        if (id && strcmp(json_string_value(json_object_get(volume, "id")), id) == 0) {
            found = json_incref(volume);
            break;
        }
    }
    json_decref(all);
    return found;
}

const gw_gql_root_t gw_volumes_gql[] = {
    {"query", "storage_volume_list", q_storage_volume_list},
    {"query", "storage_volume", q_storage_volume},
    {NULL, NULL, NULL},
};

bool
gw_volumes_is_root(const char *name)
{
    for (const gw_gql_root_t *root = gw_volumes_gql; root->name; root++)
        if (strcmp(root->name, name) == 0)
            return true;
    return false;
}

//  ---------------------------------------------------------------------------
//  REST routes

static bool
s_superadmin(gw_request_t *r)
{
    if (gw_identity_is_superadmin(&r->who))
        return true;
    gw_reply_problem(r, "insufficient-privilege", "superadmins only");
    return false;
}

static void
s_perf_metric_ready(void *arg)
{
    gw_request_t *r = arg;
    const char *host = NULL;
    char detail[128] = "folder_host is required";
    if (!gw_params_str(r->params, "folder_host", &host, detail, sizeof detail) || !host ||
        !*host) {
        gw_reply_problem(r, "invalid-api-params", detail);
        return;
    }
    json_t *found = NULL;
    size_t index;
    json_t *entry;
    json_array_foreach(gw_storage_volumes(gw_server_storage(r->gw)), index, entry)
    {
        if (strcmp(json_string_value(json_object_get(entry, "host")), host) == 0)
            found = entry;
    }
    if (!found) {
        gw_reply_problem(r, "object-not-found", "no such folder host");
        return;
    }
    json_t *volume = s_volume(found);
    json_t *metric = json_loads(
        json_string_value(json_object_get(volume, "performance_metric")), 0, NULL);
    json_decref(volume);
    gw_reply_json(r, 200, json_pack("{s:o}", "metric", metric ? metric : json_object()));
}

void
gw_volumes_handle_perf_metric(gw_request_t *r)
{
    if (s_superadmin(r))
        gw_storage_ready(gw_server_storage(r->gw), s_perf_metric_ready, r);
}

void
gw_volumes_handle_fstab(gw_request_t *r)
{
    if (!s_superadmin(r))
        return;
    const char *agent = NULL;
    char detail[128];
    if (!gw_params_str(r->params, "agent_id", &agent, detail, sizeof detail)) {
        gw_reply_problem(r, "invalid-api-params", detail);
        return;
    }
    if (agent && *agent) {
        gw_reply_problem(r, "not-implemented",
                         "an agent's fstab is read through the agent watcher, which "
                         "Backplane does not have");
        return;
    }
    //  Bounded read: what a person would read, not a way to pull a big file.
    char *content = calloc(1, GW_VOLUMES_FSTAB_MAX + 1);
    FILE *file = content ? fopen(GW_VOLUMES_FSTAB_PATH, "re") : NULL;
    size_t size = file ? fread(content, 1, GW_VOLUMES_FSTAB_MAX, file) : 0;
    if (file)
        fclose(file);
    if (!content) {
        gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
        return;
    }
    content[size] = '\0';
    gw_reply_json(r, 200,
                  json_pack("{s:s%, s:s, s:s}", "content", content, size, "node",
                            "manager", "node_id", "manager"));
    free(content);
}

static void
s_mounts_ready(void *arg)
{
    gw_request_t *r = arg;
    json_t *paths = json_array();
    json_t *pairs = json_array();
    size_t index;
    json_t *entry;
    json_array_foreach(gw_storage_volumes(gw_server_storage(r->gw)), index, entry)
    {
        const char *path = json_string_value(json_object_get(entry, "path"));
        json_array_append_new(paths, json_string(path ? path : ""));
        json_array_append_new(
            pairs, json_pack("[O, s]", json_object_get(entry, "host"), path ? path : ""));
    }
    gw_reply_json(r, 200,
                  json_pack("{s:{s:b, s:o, s:s}, s:{s:b, s:o, s:s}, s:{}}", "manager",
                            "success", true, "mounts", paths, "message", "(legacy)",
                            "storage-proxy", "success", true, "mounts", pairs, "message",
                            "", "agents"));
}

void
gw_volumes_handle_mounts(gw_request_t *r)
{
    if (s_superadmin(r))
        gw_storage_ready(gw_server_storage(r->gw), s_mounts_ready, r);
}
