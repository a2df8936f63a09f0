/*  =========================================================================
    gw_endpoint_gql - GraphQL endpoint, endpoint_list and routing_list, as
    Backend.AI 24.03's web UI asks them (reference part 2 §C.7)

    Statuses in upper case, as its GraphQL says them (the tables keep them
    lower case); an endpoint's status derived as Backend.AI derives it.
    Who sees an endpoint: its session owner, an admin of its domain, a
    superadmin, as for the REST routes; a list holds only those.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

//  text in upper case, into a new JSON string (null for NULL).
static json_t *
s_upper(const char *text)
{
    if (!text)
        return json_null();
    char out[64];
    size_t i = 0;
    for (; text[i] && i < sizeof out - 1; i++)
        out[i] = (char) toupper((unsigned char) text[i]);
    out[i] = '\0';
    return json_string(out);
}

//  A route as GraphQL's Routing.
static json_t *
s_routing(json_t *row)
{
    const char *error_data = json_string_value(json_object_get(row, "error_data"));
    json_t *node = json_pack(
        "{s:O, s:O, s:O, s:O?, s:o, s:O, s:o, s:s?}", "id", json_object_get(row, "id"),
        "routing_id", json_object_get(row, "id"), "endpoint",
        json_object_get(row, "endpoint"), "session", json_object_get(row, "session"),
        "status", s_upper(json_string_value(json_object_get(row, "status"))),
        "traffic_ratio", json_object_get(row, "traffic_ratio"), "created_at",
        gw_gql_time(json_integer_value(json_object_get(row, "created_at"))), "error_data",
        error_data);
    json_t *data = error_data ? json_loads(error_data, 0, NULL) : NULL;
    json_object_set_new(node, "error", data ? data : json_null());
    return node;
}

//  Backend.AI's derived Endpoint.status.
static const char *
s_status(json_t *endpoint, json_t *routes)
{
    const char *stage = json_string_value(json_object_get(endpoint, "lifecycle_stage"));
    if (stage && strcmp(stage, "destroyed") == 0)
        return "DESTROYED";
    if (stage && strcmp(stage, "destroying") == 0)
        return "DESTROYING";
    if (json_array_size(routes) == 0)
        return "READY";
    if (json_integer_value(json_object_get(endpoint, "retries")) >
        GW_ENDPOINT_RETRIES_MAX)
        return "UNHEALTHY";
    size_t healthy = 0, unhealthy = 0, index;
    json_t *route;
    json_array_foreach(routes, index, route)
    {
        const char *status = json_string_value(json_object_get(route, "status"));
        healthy += strcmp(status, "healthy") == 0;
        unhealthy += strcmp(status, "unhealthy") == 0;
    }
    return healthy == json_array_size(routes) ? "HEALTHY"
           : unhealthy > 0                    ? "DEGRADED"
                                              : "PROVISIONING";
}

//  The endpoint's extra folders as VirtualFolderNodes {row_id, id, name}
//  (a folder gone since is left out).
static json_t *
s_extra_mounts(bus_db_t *db, json_t *row)
{
    json_t *nodes = json_array();
    json_t *extra =
        json_loads(json_string_value(json_object_get(row, "extra_mounts")), 0, NULL);
    size_t index;
    json_t *entry;
    json_array_foreach(extra, index, entry)
    {
        const char *id = json_string_value(json_object_get(entry, "id"));
        char *name = gw_vfolder_name(db, id);
        if (name)
            json_array_append_new(nodes,
                                  json_pack("{s:s, s:o, s:s}", "row_id", id, "id",
                                            gw_gql_global_id("VirtualFolderNode", id),
                                            "name", name));
        free(name);
    }
    json_decref(extra);
    return nodes;
}

//  An endpoint as GraphQL's Endpoint.
static json_t *
s_endpoint(bus_db_t *db, json_t *row)
{
    const char *id = json_string_value(json_object_get(row, "id"));
    json_t *rows = gw_route_list(db, id);
    json_t *routings = json_array(), *errors = json_array();
    size_t index;
    json_t *route;
    json_array_foreach(rows, index, route)
    {
        json_t *node = s_routing(route);
        if (strcmp(json_string_value(json_object_get(route, "status")),
                   "failed_to_start") == 0)
            json_array_append_new(errors,
                                  json_pack("{s:O, s:O}", "session_id",
                                            json_object_get(node, "session"), "errors",
                                            json_object_get(node, "error")));
        json_array_append_new(routings, node);
    }
    json_t *params =
        json_loads(json_string_value(json_object_get(row, "session_params")), 0, NULL);
    json_t *config = json_object_get(params, "config");
    json_t *resources = json_object_get(config, "resources");
    json_t *env = json_object_get(config, "environ");
    json_t *opts = json_object_get(config, "resource_opts");
    char *resources_text = resources ? json_dumps(resources, JSON_COMPACT) : NULL;
    char *environ_text = env ? json_dumps(env, JSON_COMPACT) : NULL;
    char *opts_text = opts ? json_dumps(opts, JSON_COMPACT) : NULL;
    const char *dest = json_string_value(json_object_get(row, "model_mount_destination"));
    json_t *extra_mounts = s_extra_mounts(db, row);
    const gw_model_variant_t *variant = gw_model_def_variant_find(
        json_string_value(json_object_get(row, "runtime_variant")));
    if (!variant)
        variant = gw_model_def_variant_find("custom");
    json_t *node = json_pack(
        "{s:s, s:s, s:O, s:O, s:O, s:O, s:O, s:O?, s:O, s:O?, s:s, s:s, s:O, s:O, s:O,"
        " s:O, s:{s:s, s:s}, s:o, s:o, s:O, s:s, s:o, s:o, s:o, s:s?, s:s?, s:s?,"
        " s:O?, s:O?, s:o}",
        "id", id, "endpoint_id", id, "name", json_object_get(row, "name"), "image",
        json_object_get(row, "image"), "domain", json_object_get(row, "domain"),
        "project", json_object_get(row, "project"), "resource_group",
        json_object_get(row, "resource_group"), "url", json_object_get(row, "url"),
        "model", json_object_get(row, "model"), "model_definition_path",
        json_object_get(row, "model_definition_path"), "model_mount_destination", dest,
        "model_mount_destiation", dest, "desired_session_count",
        json_object_get(row, "desired_session_count"), "open_to_public",
        json_object_get(row, "open_to_public"), "session_owner",
        json_object_get(row, "session_owner"), "created_user",
        json_object_get(row, "created_user"), "runtime_variant", "name", variant->name,
        "human_readable_name", variant->human_readable_name, "created_at",
        gw_gql_time(json_integer_value(json_object_get(row, "created_at"))),
        "destroyed_at",
        gw_gql_time(json_integer_value(json_object_get(row, "destroyed_at"))), "retries",
        json_object_get(row, "retries"), "status", s_status(row, rows), "lifecycle_stage",
        s_upper(json_string_value(json_object_get(row, "lifecycle_stage"))), "routings",
        routings, "errors", errors, "resource_slots", resources_text, "environ",
        environ_text, "resource_opts", opts_text, "cluster_mode",
        json_object_get(params, "cluster_mode"), "cluster_size",
        json_object_get(params, "cluster_size"), "extra_mounts", extra_mounts);
    free(resources_text);
    free(environ_text);
    free(opts_text);
    json_decref(params);
    json_decref(rows);
    return node;
}

static json_t *
q_endpoint(gw_request_t *r, json_t *args, bus_error_t *err)
{
    (void) err;
    const char *id = gw_gql_arg(args, "endpoint_id");
    bus_db_t *db = gw_server_db(r->gw);
    json_t *row = id ? gw_endpoint_get(db, id) : NULL;
    json_t *node =
        row && gw_endpoint_may(&r->who, row) ? s_endpoint(db, row) : json_null();
    json_decref(row);
    return node;
}

static json_t *
q_endpoint_list(gw_request_t *r, json_t *args, bus_error_t *err)
{
    bus_db_t *db = gw_server_db(r->gw);
    json_t *rows = gw_endpoint_all(db);
    if (!rows)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot read the endpoints"), NULL;
    const char *project = gw_gql_arg(args, "project");
    const char *domain = gw_gql_arg(args, "domain_name");
    const char *user = gw_gql_arg(args, "user_uuid");
    json_t *all = json_array();
    size_t index;
    json_t *row;
    json_array_foreach(rows, index, row)
    {
        if (!gw_endpoint_may(&r->who, row) ||
            (project &&
             strcmp(project, json_string_value(json_object_get(row, "project")))) ||
            (domain &&
             strcmp(domain, json_string_value(json_object_get(row, "domain")))) ||
            (user &&
             strcmp(user, json_string_value(json_object_get(row, "session_owner")))))
            continue;
        json_array_append_new(all, s_endpoint(db, row));
    }
    json_decref(rows);
    return gw_gql_page(all, args, err);
}

static json_t *
q_routing_list(gw_request_t *r, json_t *args, bus_error_t *err)
{
    const char *id = gw_gql_arg(args, "endpoint_id");
    bus_db_t *db = gw_server_db(r->gw);
    json_t *endpoint = id ? gw_endpoint_get(db, id) : NULL;
    if (!endpoint || !gw_endpoint_may(&r->who, endpoint)) {
        json_decref(endpoint);
        bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such endpoint");
        return NULL;
    }
    json_decref(endpoint);
    json_t *rows = gw_route_list(db, id);
    json_t *all = json_array();
    size_t index;
    json_t *row;
    json_array_foreach(rows, index, row) json_array_append_new(all, s_routing(row));
    json_decref(rows);
    return gw_gql_page(all, args, err);
}

//  A kept token as GraphQL's EndpointToken.
static json_t *
s_token(json_t *row)
{
    return json_pack(
        "{s:O, s:O, s:O, s:O, s:O, s:O, s:o, s:o}", "id", json_object_get(row, "token"),
        "token", json_object_get(row, "token"), "endpoint_id",
        json_object_get(row, "endpoint"), "domain", json_object_get(row, "domain"),
        "project", json_object_get(row, "project"), "session_owner",
        json_object_get(row, "session_owner"), "created_at",
        gw_gql_time(json_integer_value(json_object_get(row, "created_at"))),
        "valid_until",
        gw_gql_time(json_integer_value(json_object_get(row, "valid_until")) * 1000000));
}

//  The tokens of rows (kept tokens) whose endpoint the caller may see.
static json_t *
s_tokens(gw_request_t *r, json_t *rows)
{
    bus_db_t *db = gw_server_db(r->gw);
    json_t *all = json_array();
    size_t index;
    json_t *row;
    json_array_foreach(rows, index, row)
    {
        json_t *endpoint =
            gw_endpoint_get(db, json_string_value(json_object_get(row, "endpoint")));
        if (endpoint && gw_endpoint_may(&r->who, endpoint))
            json_array_append_new(all, s_token(row));
        json_decref(endpoint);
    }
    return all;
}

static json_t *
q_endpoint_token_list(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *rows =
        gw_endpoint_tokens(gw_server_db(r->gw), gw_gql_arg(args, "endpoint_id"), NULL);
    if (!rows)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot read the tokens"), NULL;
    json_t *all = s_tokens(r, rows);
    json_decref(rows);
    return gw_gql_page(all, args, err);
}

static json_t *
q_endpoint_token(gw_request_t *r, json_t *args, bus_error_t *err)
{
    (void) err;
    const char *token = gw_gql_arg(args, "token");
    json_t *rows = token ? gw_endpoint_tokens(gw_server_db(r->gw), NULL, token) : NULL;
    json_t *all = rows ? s_tokens(r, rows) : NULL;
    json_t *node =
        json_array_size(all) ? json_incref(json_array_get(all, 0)) : json_null();
    json_decref(all);
    json_decref(rows);
    return node;
}

//  modify_endpoint(endpoint_id, props): Backend.AI's change of a service;
//  a change of what its replicas run rolls out as a new generation
//  (gw_endpoint_reconcile). Answers {ok, msg, endpoint}.
static json_t *
m_modify_endpoint(gw_request_t *r, json_t *args, bus_error_t *err)
{
    const char *id = gw_gql_arg(args, "endpoint_id");
    bus_db_t *db = gw_server_db(r->gw);
    json_t *row = id ? gw_endpoint_get(db, id) : NULL;
    int rc = BUS_OK;
    if (!row || !gw_endpoint_may(&r->who, row))
        rc = bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such service");
    else
        rc = gw_endpoint_modify(db, id, json_object_get(args, "props"), err);
    json_decref(row);
    json_t *endpoint = NULL;
    if (rc == BUS_OK) {
        gw_endpoint_reconcile_kick(gw_server_endpoints(r->gw));
        row = gw_endpoint_get(db, id);
        endpoint = row ? s_endpoint(db, row) : NULL;
        json_decref(row);
    }
    return gw_gql_mutation(rc, "endpoint", endpoint, err);
}

const gw_gql_root_t gw_endpoint_gql[] = {
    {"query", "endpoint", q_endpoint},
    {"query", "endpoint_list", q_endpoint_list},
    {"query", "routing_list", q_routing_list},
    {"query", "endpoint_token_list", q_endpoint_token_list},
    {"query", "endpoint_token", q_endpoint_token},
    {"mutation", "modify_endpoint", m_modify_endpoint},
    {NULL, NULL, NULL},
};
