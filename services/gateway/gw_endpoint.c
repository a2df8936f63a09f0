/*  =========================================================================
    gw_endpoint - model services (Backend.AI's endpoints) and their routes,
    as the gateway keeps them

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

static const char *const s_booleans[] = {"open_to_public", NULL};

//  Runs a write with text parameters; the rows it changed.
static int
s_write(bus_db_t *db, const char *sql, const char *const *params)
{
    json_t *rows = gw_store_rows(db, sql, params, NULL);
    int changed = rows ? sqlite3_changes(bus_db_handle(db)) : -1;
    json_decref(rows);
    return changed;
}

int
gw_endpoint_insert(bus_db_t *db, json_t *row, bus_error_t *err)
{
    static const char *const columns[] = {"id",
                                          "name",
                                          "created_user",
                                          "session_owner",
                                          "owner_access_key",
                                          "domain",
                                          "project",
                                          "resource_group",
                                          "image",
                                          "model",
                                          "model_definition_path",
                                          "model_mount_destination",
                                          "model_service",
                                          "runtime_variant",
                                          "desired_session_count",
                                          "session_params",
                                          "open_to_public",
                                          "created_at",
                                          "extra_mounts"};
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "INSERT INTO endpoints (id, name, created_user, session_owner,"
            " owner_access_key, domain, project, resource_group, image, model,"
            " model_definition_path, model_mount_destination, model_service,"
            " runtime_variant, desired_session_count, session_params, open_to_public,"
            " created_at, extra_mounts) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
            " ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, coalesce(?19, '[]'))");
    if (!stmt)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot write the endpoint");
    for (size_t i = 0; i < sizeof columns / sizeof columns[0]; i++)
        gw_store_bind(stmt, (int) i + 1, json_object_get(row, columns[i]));
    int rc = gw_store_step(db, stmt, err);
    if (rc == BUS_STATUS_CONFLICT)
        bus_error_set(err, BUS_STATUS_CONFLICT,
                      "Cannot create multiple services with same name");
    return rc;
}

json_t *
gw_endpoint_get(bus_db_t *db, const char *id)
{
    bool failed;
    return gw_store_one(db, "SELECT * FROM endpoints WHERE id = ?1",
                        (const char *const[]){id, NULL}, s_booleans, &failed);
}

bool
gw_endpoint_may(const gw_identity_t *who, json_t *endpoint)
{
    const char *owner = json_string_value(json_object_get(endpoint, "session_owner"));
    const char *domain = json_string_value(json_object_get(endpoint, "domain"));
    return (owner && strcmp(owner, who->user_uuid) == 0) ||
           (domain && gw_identity_admins_domain(who, domain));
}

//  A folder id (32 hex digits) as a UUID with its dashes; "" and false for
//  anything else.
static bool
s_dashed(const char *hex, char out[GW_UUID_SIZE])
{
    out[0] = '\0';
    if (!hex || strlen(hex) != 32)
        return false;
    snprintf(out, GW_UUID_SIZE, "%.8s-%.4s-%.4s-%.4s-%.12s", hex, hex + 8, hex + 12,
             hex + 16, hex + 20);
    return true;
}

json_t *
gw_endpoint_view(bus_db_t *db, json_t *endpoint)
{
    const char *id = json_string_value(json_object_get(endpoint, "id"));
    json_t *routes = gw_store_rows(
        db,
        "SELECT id AS route_id, session AS session_id, traffic_ratio FROM routings"
        " WHERE endpoint = ?1 AND status = 'healthy' ORDER BY created_at, id",
        (const char *const[]){id, NULL}, NULL);
    //  Backend.AI's model_id is the folder's UUID.
    char model_id[GW_UUID_SIZE];
    s_dashed(json_string_value(json_object_get(endpoint, "model")), model_id);
    //  Its extra folders' UUIDs, as model_id is.
    json_t *extra_ids = json_array();
    json_t *extra =
        json_loads(json_string_value(json_object_get(endpoint, "extra_mounts")), 0, NULL);
    size_t index;
    json_t *entry;
    json_array_foreach(extra, index, entry)
    {
        char uuid[GW_UUID_SIZE];
        if (s_dashed(json_string_value(json_object_get(entry, "id")), uuid))
            json_array_append_new(extra_ids, json_string(uuid));
    }
    json_decref(extra);
    return json_pack("{s:s, s:s, s:o, s:O?, s:O?, s:O?, s:o, s:O?, s:O?, s:O?}",
                     "endpoint_id", id, "model_id", model_id, "extra_mounts", extra_ids,
                     "name", json_object_get(endpoint, "name"), "desired_session_count",
                     json_object_get(endpoint, "desired_session_count"),
                     "model_definition_path",
                     json_object_get(endpoint, "model_definition_path"), "active_routes",
                     routes ? routes : json_array(), "service_endpoint",
                     json_object_get(endpoint, "url"), "is_public",
                     json_object_get(endpoint, "open_to_public"), "runtime_variant",
                     json_object_get(endpoint, "runtime_variant"));
}

json_t *
gw_endpoint_list(bus_db_t *db, const char *user_uuid, const char *name)
{
    return gw_store_rows(
        db,
        "SELECT e.id, e.name, e.desired_session_count, (SELECT count(*) FROM routings r"
        "  WHERE r.endpoint = e.id AND r.status = 'healthy') AS active_route_count,"
        " e.url AS service_endpoint, e.open_to_public AS is_public FROM endpoints e"
        " WHERE e.session_owner = ?1 AND e.lifecycle_stage = 'created'"
        " AND (?2 IS NULL OR e.name = ?2) ORDER BY e.created_at, e.id",
        (const char *const[]){user_uuid, name, NULL},
        (const char *const[]){"is_public", NULL});
}

json_t *
gw_endpoint_live(bus_db_t *db)
{
    return gw_store_rows(db,
                         "SELECT * FROM endpoints WHERE lifecycle_stage IN"
                         " ('created', 'destroying') ORDER BY created_at, id",
                         (const char *const[]){NULL}, s_booleans);
}

int
gw_endpoint_set_desired(bus_db_t *db, const char *id, int64_t count, bus_error_t *err)
{
    char text[24];
    snprintf(text, sizeof text, "%lld", (long long) count);
    int changed =
        s_write(db,
                "UPDATE endpoints SET desired_session_count = CAST(?2 AS INTEGER)"
                " WHERE id = ?1 AND lifecycle_stage = 'created'",
                (const char *const[]){id, text, NULL});
    return changed > 0 ? BUS_OK
                       : bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such live service");
}

int
gw_endpoint_destroy(bus_db_t *db, const char *id, bus_error_t *err)
{
    char now[24];
    snprintf(now, sizeof now, "%lld", (long long) bus_clock_wall_us());
    int changed = s_write(
        db,
        "UPDATE endpoints SET desired_session_count = 0, lifecycle_stage ="
        " CASE WHEN EXISTS (SELECT 1 FROM routings WHERE endpoint = ?1"
        "  AND status <> 'failed_to_start') THEN 'destroying' ELSE 'destroyed' END,"
        " destroyed_at = CASE WHEN EXISTS (SELECT 1 FROM routings WHERE endpoint = ?1"
        "  AND status <> 'failed_to_start') THEN NULL ELSE CAST(?2 AS INTEGER) END"
        " WHERE id = ?1 AND lifecycle_stage <> 'destroyed'",
        (const char *const[]){id, now, NULL});
    return changed > 0 ? BUS_OK
                       : bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such live service");
}

void
gw_endpoint_destroyed(bus_db_t *db, const char *id)
{
    char now[24];
    snprintf(now, sizeof now, "%lld", (long long) bus_clock_wall_us());
    s_write(db,
            "UPDATE endpoints SET lifecycle_stage = 'destroyed',"
            " destroyed_at = CAST(?2 AS INTEGER) WHERE id = ?1",
            (const char *const[]){id, now, NULL});
    //  What is left are failed starts, whose sessions never ran.
    s_write(db, "DELETE FROM routings WHERE endpoint = ?1",
            (const char *const[]){id, NULL});
    //  Its autoscaling rules go with it (the row stays, as Backend.AI's).
    s_write(db, "DELETE FROM endpoint_auto_scaling_rules WHERE endpoint = ?1",
            (const char *const[]){id, NULL});
}

int
gw_endpoint_modify(bus_db_t *db, const char *id, json_t *props, bus_error_t *err)
{
    json_t *endpoint = gw_endpoint_get(db, id);
    const char *stage = json_string_value(json_object_get(endpoint, "lifecycle_stage"));
    if (!endpoint || !stage || strcmp(stage, "created") != 0) {
        json_decref(endpoint);
        return bus_error_set(err, BUS_STATUS_NOT_FOUND,
                             "no such service, or it is ending");
    }
    json_t *params = json_loads(
        json_string_value(json_object_get(endpoint, "session_params")), 0, NULL);
    if (!json_is_object(params))
        params = json_object();
    json_t *config = json_object_get(params, "config");
    if (!json_is_object(config)) {
        config = json_object();
        json_object_set_new(params, "config", config);
    }
    //  What the replicas run: a change of any is a new generation.
    bool rolled = false;
    int rc = BUS_OK;
    json_t *image = json_object_get(props, "image");
    json_t *slots = json_object_get(props, "resource_slots");
    json_t *env = json_object_get(props, "environ");
    json_t *parsed_slots = json_is_string(slots)
                               ? json_loads(json_string_value(slots), 0, NULL)
                               : json_incref(slots);
    json_t *parsed_env = json_is_string(env) ? json_loads(json_string_value(env), 0, NULL)
                                             : json_incref(env);
    if (image && (!json_is_string(image) || !*json_string_value(image)))
        rc = bus_error_set(err, BUS_STATUS_INVALID, "image: an image reference");
    else if (slots && !json_is_object(parsed_slots))
        rc = bus_error_set(err, BUS_STATUS_INVALID, "resource_slots: a JSON object");
    else if (env && !json_is_object(parsed_env))
        rc = bus_error_set(err, BUS_STATUS_INVALID, "environ: a JSON object");
    if (rc == BUS_OK && image && !json_equal(image, json_object_get(endpoint, "image"))) {
        json_object_set(params, "image", image);
        rolled = true;
    }
    if (rc == BUS_OK && slots &&
        !json_equal(parsed_slots, json_object_get(config, "resources"))) {
        json_object_set(config, "resources", parsed_slots);
        rolled = true;
    }
    if (rc == BUS_OK && env &&
        !json_equal(parsed_env, json_object_get(config, "environ"))) {
        json_object_set(config, "environ", parsed_env);
        rolled = true;
    }
    json_decref(parsed_slots);
    json_decref(parsed_env);
    json_t *count = json_object_get(props, "desired_session_count");
    json_t *open = json_object_get(props, "open_to_public");
    if (rc == BUS_OK && count &&
        (!json_is_integer(count) || json_integer_value(count) < 0 ||
         json_integer_value(count) >
             gw_endpoint_replicas_max(
                 db, json_string_value(json_object_get(endpoint, "session_owner")))))
        rc = bus_error_set(err, BUS_STATUS_INVALID,
                           "desired_session_count: an integer from 0 to the owner's "
                           "max_session_count_per_model_session");
    if (rc == BUS_OK && open && !json_is_boolean(open))
        rc = bus_error_set(err, BUS_STATUS_INVALID, "open_to_public: true or false");
    char *text = rc == BUS_OK ? json_dumps(params, JSON_COMPACT) : NULL;
    if (rc == BUS_OK && !text)
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    if (rc == BUS_OK) {
        char desired[24], generation[24];
        snprintf(desired, sizeof desired, "%lld",
                 (long long) (count ? json_integer_value(count)
                                    : json_integer_value(json_object_get(
                                          endpoint, "desired_session_count"))));
        snprintf(generation, sizeof generation, "%lld",
                 (long long) json_integer_value(json_object_get(endpoint, "generation")) +
                     (rolled ? 1 : 0));
        const char *image_now = json_string_value(json_object_get(params, "image"));
        const char *write[] = {
            id,
            text,
            image_now ? image_now : json_string_value(json_object_get(endpoint, "image")),
            desired,
            open ? (json_is_true(open) ? "1" : "0")
                 : (json_integer_value(json_object_get(endpoint, "open_to_public")) ||
                            json_is_true(json_object_get(endpoint, "open_to_public"))
                        ? "1"
                        : "0"),
            generation,
            NULL};
        if (s_write(db,
                    "UPDATE endpoints SET session_params = ?2, image = ?3,"
                    " desired_session_count = CAST(?4 AS INTEGER),"
                    " open_to_public = CAST(?5 AS INTEGER),"
                    " generation = CAST(?6 AS INTEGER), retries = 0 WHERE id = ?1",
                    write) < 0)
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "cannot write the service");
        else
            bus_log_notice("endpoint modified endpoint=%s generation=%s rolled=%s", id,
                           generation, rolled ? "yes" : "no");
    }
    free(text);
    json_decref(params);
    json_decref(endpoint);
    return rc;
}

void
gw_endpoint_set_url(bus_db_t *db, const char *id, const char *url)
{
    s_write(db, "UPDATE endpoints SET url = ?2 WHERE id = ?1",
            (const char *const[]){id, url, NULL});
}

void
gw_endpoint_retries(bus_db_t *db, const char *id, int n)
{
    char text[16];
    snprintf(text, sizeof text, "%d", n);
    s_write(db,
            "UPDATE endpoints SET retries = CASE WHEN CAST(?2 AS INTEGER) = 0 THEN 0"
            " ELSE retries + CAST(?2 AS INTEGER) END WHERE id = ?1",
            (const char *const[]){id, text, NULL});
}

void
gw_endpoint_clear_errors(bus_db_t *db, const char *id)
{
    s_write(db, "DELETE FROM routings WHERE endpoint = ?1 AND status = 'failed_to_start'",
            (const char *const[]){id, NULL});
    gw_endpoint_retries(db, id, 0);
}

int
gw_endpoint_token_insert(bus_db_t *db,
                         json_t *endpoint,
                         const char *token,
                         int64_t valid_until,
                         bus_error_t *err)
{
    char until[24], now[24];
    snprintf(until, sizeof until, "%lld", (long long) valid_until);
    snprintf(now, sizeof now, "%lld", (long long) bus_clock_wall_us());
    const char *params[] = {token,
                            json_string_value(json_object_get(endpoint, "id")),
                            json_string_value(json_object_get(endpoint, "session_owner")),
                            json_string_value(json_object_get(endpoint, "domain")),
                            json_string_value(json_object_get(endpoint, "project")),
                            now,
                            until,
                            NULL};
    return s_write(db,
                   "INSERT INTO endpoint_tokens (token, endpoint, session_owner, domain,"
                   " project, created_at, valid_until) VALUES (?1, ?2, ?3, ?4, ?5,"
                   " CAST(?6 AS INTEGER), CAST(?7 AS INTEGER))",
                   params) >= 0
               ? BUS_OK
               : bus_error_set(err, BUS_STATUS_INTERNAL, "cannot keep the token");
}

json_t *
gw_endpoint_tokens(bus_db_t *db, const char *endpoint_id, const char *token)
{
    if (token)
        return gw_store_rows(db, "SELECT * FROM endpoint_tokens WHERE token = ?1",
                             (const char *const[]){token, NULL}, NULL);
    if (endpoint_id)
        return gw_store_rows(db,
                             "SELECT * FROM endpoint_tokens WHERE endpoint = ?1"
                             " ORDER BY created_at, token",
                             (const char *const[]){endpoint_id, NULL}, NULL);
    return gw_store_rows(db, "SELECT * FROM endpoint_tokens ORDER BY created_at, token",
                         (const char *const[]){NULL}, NULL);
}

//  ---------------------------------------------------------------------------
//  Routes

json_t *
gw_route_list(bus_db_t *db, const char *endpoint_id)
{
    return gw_store_rows(db,
                         "SELECT * FROM routings WHERE endpoint = ?1"
                         " ORDER BY created_at, id",
                         (const char *const[]){endpoint_id, NULL}, NULL);
}

json_t *
gw_route_get(bus_db_t *db, const char *id)
{
    bool failed;
    return gw_store_one(db, "SELECT * FROM routings WHERE id = ?1",
                        (const char *const[]){id, NULL}, NULL, &failed);
}

json_t *
gw_route_of_session(bus_db_t *db, const char *session_id)
{
    bool failed;
    return gw_store_one(db, "SELECT * FROM routings WHERE session = ?1",
                        (const char *const[]){session_id, NULL}, NULL, &failed);
}

int
gw_route_insert(bus_db_t *db, json_t *endpoint, const char *id, bus_error_t *err)
{
    char now[24], generation[24];
    snprintf(now, sizeof now, "%lld", (long long) bus_clock_wall_us());
    snprintf(generation, sizeof generation, "%lld",
             (long long) json_integer_value(json_object_get(endpoint, "generation")));
    const char *params[] = {id,
                            json_string_value(json_object_get(endpoint, "id")),
                            json_string_value(json_object_get(endpoint, "session_owner")),
                            json_string_value(json_object_get(endpoint, "domain")),
                            json_string_value(json_object_get(endpoint, "project")),
                            now,
                            generation,
                            NULL};
    int changed = s_write(db,
                          "INSERT INTO routings (id, endpoint, session_owner, domain,"
                          " project, created_at, generation) VALUES (?1, ?2, ?3, ?4, ?5,"
                          " CAST(?6 AS INTEGER), CAST(?7 AS INTEGER))",
                          params);
    return changed > 0
               ? BUS_OK
               : bus_error_set(err, BUS_STATUS_INTERNAL, "cannot write the route");
}

void
gw_route_set_session(bus_db_t *db, const char *id, const char *session_id)
{
    s_write(db, "UPDATE routings SET session = ?2 WHERE id = ?1",
            (const char *const[]){id, session_id, NULL});
}

void
gw_route_set_status(bus_db_t *db,
                    const char *id,
                    const char *status,
                    const char *error_data)
{
    s_write(db,
            "UPDATE routings SET status = ?2, error_data = coalesce(?3, error_data)"
            " WHERE id = ?1",
            (const char *const[]){id, status, error_data, NULL});
}

int
gw_route_set_ratio(bus_db_t *db, const char *id, double ratio, bus_error_t *err)
{
    char text[32];
    snprintf(text, sizeof text, "%.17g", ratio);
    int changed = s_write(db,
                          "UPDATE routings SET traffic_ratio = CAST(?2 AS REAL)"
                          " WHERE id = ?1",
                          (const char *const[]){id, text, NULL});
    return changed > 0 ? BUS_OK
                       : bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such route");
}

void
gw_route_delete(bus_db_t *db, const char *id)
{
    s_write(db, "DELETE FROM routings WHERE id = ?1", (const char *const[]){id, NULL});
}

int64_t
gw_endpoint_replicas_max(bus_db_t *db, const char *user_uuid)
{
    bool failed;
    json_t *row = gw_store_one(
        db,
        "SELECT p.max_session_count_per_model_session AS most FROM users u"
        " JOIN user_resource_policies p ON p.name = u.resource_policy WHERE u.uuid = ?1",
        (const char *const[]){user_uuid, NULL}, NULL, &failed);
    int64_t most = row ? json_integer_value(json_object_get(row, "most")) : 10;
    json_decref(row);
    return most;
}

json_t *
gw_endpoint_all(bus_db_t *db)
{
    return gw_store_rows(db, "SELECT * FROM endpoints ORDER BY created_at, id",
                         (const char *const[]){NULL}, s_booleans);
}

json_t *
gw_endpoint_service_port(bus_db_t *db, const char *session_id)
{
    bool failed;
    json_t *row = gw_store_one(db,
                               "SELECT e.model_service FROM routings r JOIN endpoints e"
                               " ON e.id = r.endpoint WHERE r.session = ?1",
                               (const char *const[]){session_id, NULL}, NULL, &failed);
    json_t *service =
        row ? json_loads(json_string_value(json_object_get(row, "model_service")), 0,
                         NULL)
            : NULL;
    json_decref(row);
    const char *model = json_string_value(json_object_get(service, "name"));
    json_int_t port = json_integer_value(json_object_get(service, "port"));
    json_t *entry = NULL;
    if (model && port > 0) {
        char name[300];
        snprintf(name, sizeof name, "%s-%lld", model, (long long) port);
        entry = json_pack("{s:s, s:s, s:[I], s:b}", "name", name, "protocol", "preopen",
                          "ports", port, "is_inference", 1);
    }
    json_decref(service);
    return entry;
}
