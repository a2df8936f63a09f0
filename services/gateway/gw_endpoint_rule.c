/*  =========================================================================
    gw_endpoint_rule - model services' autoscaling rules, as the gateway
    keeps them, and their GraphQL (what they are is in the header)

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include <math.h> //  isfinite: a threshold

#define S_REPLICAS_MAX 1000 //  a bound beyond any resource policy's
#define S_STEP_MAX     1000

static const char *const s_sources[] = {"KERNEL", "INFERENCE_FRAMEWORK", NULL};
static const char *const s_comparators[] = {
    "LESS_THAN", "LESS_THAN_OR_EQUAL", "GREATER_THAN", "GREATER_THAN_OR_EQUAL", NULL};

static bool
s_one_of(const char *text, const char *const *list)
{
    for (size_t i = 0; text && list[i]; i++)
        if (strcmp(text, list[i]) == 0)
            return true;
    return false;
}

//  An enum field of props: present, one of list (as graphql-core says
//  otherwise). BUS_OK with the value set into row, or INVALID.
static int
s_enum_field(json_t *props,
             const char *field,
             const char *type,
             const char *const *list,
             bool partial,
             json_t *row,
             bus_error_t *err)
{
    json_t *value = json_object_get(props, field);
    if (!value && partial)
        return BUS_OK;
    const char *text = json_string_value(value);
    if (!text)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "%s: Expected non-nullable type '%s!'", field, type);
    if (!s_one_of(text, list))
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "%s: Value '%.64s' does not exist in '%s' enum.", field,
                             text, type);
    json_object_set(row, field, value);
    return BUS_OK;
}

//  An integer field of props within [low, high]; nullable ones may be null
//  (kept as null). BUS_OK with it set into row, or INVALID.
static int
s_int_field(json_t *props,
            const char *field,
            int64_t low,
            int64_t high,
            bool nullable,
            bool partial,
            json_t *row,
            bus_error_t *err)
{
    json_t *value = json_object_get(props, field);
    if (!value && (partial || nullable)) {
        if (!partial)
            json_object_set_new(row, field, json_null());
        return BUS_OK;
    }
    if (json_is_null(value) && nullable) {
        json_object_set_new(row, field, json_null());
        return BUS_OK;
    }
    if (!json_is_integer(value) || json_integer_value(value) < low ||
        json_integer_value(value) > high)
        return bus_error_set(err, BUS_STATUS_INVALID, "%s: an integer from %lld to %lld",
                             field, (long long) low, (long long) high);
    json_object_set(row, field, value);
    return BUS_OK;
}

//  Whether text is a finite decimal number (Backend.AI's Decimal(text)).
static bool
s_decimal(const char *text)
{
    if (!text || !*text || strlen(text) > GW_ENDPOINT_RULE_THRESHOLD_MAX ||
        isspace((unsigned char) *text))
        return false;
    char *end = NULL;
    errno = 0;
    double value = strtod(text, &end);
    //  strtod also reads hex, inf and nan, which are no decimals
    return end && *end == '\0' && errno == 0 && isfinite(value) && !strpbrk(text, "xXnN");
}

int
gw_endpoint_rule_check(
    json_t *props, bool partial, json_t *current, json_t **row_p, bus_error_t *err)
{
    assert(row_p);
    *row_p = NULL;
    if (!json_is_object(props))
        return bus_error_set(err, BUS_STATUS_INVALID, "props: an object");
    json_t *row = current ? json_deep_copy(current) : json_object();
    if (!row)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    int rc = s_enum_field(props, "metric_source", "AutoScalingMetricSource", s_sources,
                          partial, row, err);
    if (rc == BUS_OK)
        rc = s_enum_field(props, "comparator", "AutoScalingMetricComparator",
                          s_comparators, partial, row, err);
    json_t *name = json_object_get(props, "metric_name");
    if (rc == BUS_OK && (name || !partial)) {
        if (!json_string_length(name))
            rc = bus_error_set(err, BUS_STATUS_INVALID, "metric_name: a name");
        else
            json_object_set(row, "metric_name", name);
    }
    json_t *threshold = json_object_get(props, "threshold");
    if (rc == BUS_OK && (threshold || !partial)) {
        if (!s_decimal(json_string_value(threshold))) {
            char *text = threshold ? json_dumps(threshold, JSON_ENCODE_ANY) : NULL;
            rc = bus_error_set(err, BUS_STATUS_INVALID,
                               "threshold: Cannot convert %.64s to Decimal",
                               text ? text : "null");
            free(text);
        } else
            json_object_set(row, "threshold", threshold);
    }
    if (rc == BUS_OK)
        rc = s_int_field(props, "step_size", -S_STEP_MAX, S_STEP_MAX, false, partial, row,
                         err);
    if (rc == BUS_OK && json_integer_value(json_object_get(row, "step_size")) == 0)
        rc = bus_error_set(err, BUS_STATUS_INVALID,
                           "step_size: not 0 (positive scales out, negative in)");
    if (rc == BUS_OK)
        rc = s_int_field(props, "cooldown_seconds", 0, GW_ENDPOINT_RULE_COOLDOWN_MAX,
                         false, partial, row, err);
    if (rc == BUS_OK)
        rc = s_int_field(props, "min_replicas", 0, S_REPLICAS_MAX, true, partial, row,
                         err);
    if (rc == BUS_OK)
        rc = s_int_field(props, "max_replicas", 0, S_REPLICAS_MAX, true, partial, row,
                         err);
    json_t *low = json_object_get(row, "min_replicas");
    json_t *high = json_object_get(row, "max_replicas");
    if (rc == BUS_OK && json_is_integer(low) && json_is_integer(high) &&
        json_integer_value(low) > json_integer_value(high))
        rc = bus_error_set(err, BUS_STATUS_INVALID,
                           "min_replicas (%lld) is greater than max_replicas (%lld)",
                           (long long) json_integer_value(low),
                           (long long) json_integer_value(high));
    //  The metrics Backplane measures: a rule on another would never fire.
    const char *source = json_string_value(json_object_get(row, "metric_source"));
    const char *metric = json_string_value(json_object_get(row, "metric_name"));
    if (rc == BUS_OK && source && metric &&
        strcmp(metric, strcmp(source, "KERNEL") == 0 ? GW_ENDPOINT_RULE_METRIC_CPU
                                                     : GW_ENDPOINT_RULE_METRIC_RPS) != 0)
        rc = bus_error_set(
            err, BUS_STATUS_INVALID,
            "metric_name: %s has no metric %.64s (KERNEL: " GW_ENDPOINT_RULE_METRIC_CPU
            "; INFERENCE_FRAMEWORK: " GW_ENDPOINT_RULE_METRIC_RPS ")",
            source, metric);
    if (rc != BUS_OK) {
        json_decref(row);
        return rc;
    }
    *row_p = row;
    return BUS_OK;
}

//  The columns a check fills, in the order of the statements' parameters
//  from ?2 on.
static const char *const s_columns[] = {
    "metric_source",    "metric_name",  "threshold",    "comparator", "step_size",
    "cooldown_seconds", "min_replicas", "max_replicas", NULL};

int
gw_endpoint_rule_insert(bus_db_t *db,
                        const char *endpoint_id,
                        json_t *row,
                        char id[GW_UUID_SIZE],
                        bus_error_t *err)
{
    json_t *rules = gw_endpoint_rule_list(db, endpoint_id);
    size_t count = json_array_size(rules);
    json_decref(rules);
    if (!rules)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot read the rules");
    if (count >= GW_ENDPOINT_RULE_PER_ENDPOINT)
        return bus_error_set(err, BUS_STATUS_INVALID, "an endpoint has at most %d rules",
                             GW_ENDPOINT_RULE_PER_ENDPOINT);
    gw_uuid_new(id);
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "INSERT INTO endpoint_auto_scaling_rules (id, metric_source, metric_name,"
            " threshold, comparator, step_size, cooldown_seconds, min_replicas,"
            " max_replicas, endpoint, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8,"
            " ?9, ?10, ?11)");
    if (!stmt)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot write the rule");
    sqlite3_bind_text(stmt, 1, id, -1, SQLITE_TRANSIENT);
    for (int i = 0; s_columns[i]; i++)
        gw_store_bind(stmt, i + 2, json_object_get(row, s_columns[i]));
    sqlite3_bind_text(stmt, 10, endpoint_id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(stmt, 11, bus_clock_wall_us());
    return gw_store_step(db, stmt, err);
}

json_t *
gw_endpoint_rule_get(bus_db_t *db, const char *id)
{
    bool failed;
    return gw_store_one(db, "SELECT * FROM endpoint_auto_scaling_rules WHERE id = ?1",
                        (const char *const[]){id, NULL}, NULL, &failed);
}

json_t *
gw_endpoint_rule_list(bus_db_t *db, const char *endpoint_id)
{
    return gw_store_rows(db,
                         "SELECT * FROM endpoint_auto_scaling_rules WHERE endpoint = ?1"
                         " ORDER BY created_at, id",
                         (const char *const[]){endpoint_id, NULL}, NULL);
}

int
gw_endpoint_rule_update(bus_db_t *db, const char *id, json_t *row, bus_error_t *err)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "UPDATE endpoint_auto_scaling_rules SET metric_source = ?2,"
            " metric_name = ?3, threshold = ?4, comparator = ?5, step_size = ?6,"
            " cooldown_seconds = ?7, min_replicas = ?8, max_replicas = ?9 WHERE id = ?1");
    if (!stmt)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot write the rule");
    sqlite3_bind_text(stmt, 1, id, -1, SQLITE_TRANSIENT);
    for (int i = 0; s_columns[i]; i++)
        gw_store_bind(stmt, i + 2, json_object_get(row, s_columns[i]));
    int rc = gw_store_step(db, stmt, err);
    if (rc == BUS_OK && sqlite3_changes(bus_db_handle(db)) == 0)
        rc = bus_error_set(err, BUS_STATUS_NOT_FOUND,
                           "Endpoint Autoscaling Rule not found");
    return rc;
}

int
gw_endpoint_rule_delete(bus_db_t *db, const char *id, bus_error_t *err)
{
    json_t *rows =
        gw_store_rows(db, "DELETE FROM endpoint_auto_scaling_rules WHERE id = ?1",
                      (const char *const[]){id, NULL}, NULL);
    int changed = rows ? sqlite3_changes(bus_db_handle(db)) : 0;
    json_decref(rows);
    return changed > 0 ? BUS_OK
                       : bus_error_set(err, BUS_STATUS_NOT_FOUND,
                                       "Endpoint Autoscaling Rule not found");
}

void
gw_endpoint_rule_triggered(bus_db_t *db, const char *id, int64_t at_us)
{
    char at[24];
    snprintf(at, sizeof at, "%lld", (long long) at_us);
    json_decref(gw_store_rows(db,
                              "UPDATE endpoint_auto_scaling_rules SET last_triggered_at ="
                              " CAST(?2 AS INTEGER) WHERE id = ?1",
                              (const char *const[]){id, at, NULL}, NULL));
}

//  ---------------------------------------------------------------------------
//  GraphQL

//  Whether text is a UUID as the rows keep them: 8-4-4-4-12 hex digits.
static bool
s_is_uuid(const char *text)
{
    for (size_t i = 0; i < GW_UUID_SIZE - 1; i++) {
        bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? text[i] != '-' : !isxdigit((unsigned char) text[i]))
            return false;
    }
    return text[GW_UUID_SIZE - 1] == '\0';
}

//  The UUID an argument names, given bare or as a Relay global id of type
//  ("<type>:<uuid>" in base64, nothing after), into out in lower case;
//  false when it names none.
static bool
s_id_arg(const char *arg, const char *type, char out[GW_UUID_SIZE])
{
    size_t len = arg ? strlen(arg) : 0;
    const char *uuid = arg;
    unsigned char plain[160];
    if (len != GW_UUID_SIZE - 1) {
        if (len == 0 || len > 200 || len % 4 != 0)
            return false;
        int n = EVP_DecodeBlock(plain, (const unsigned char *) arg, (int) len);
        if (n <= 0)
            return false;
        //  EVP_DecodeBlock counts the padding as bytes (NULs): drop them.
        for (size_t pad = len; pad > len - 2 && arg[pad - 1] == '='; pad--)
            n--;
        plain[n] = '\0';
        size_t type_len = strlen(type);
        if ((size_t) n != type_len + 1 + GW_UUID_SIZE - 1 ||
            memcmp(plain, type, type_len) != 0 || plain[type_len] != ':')
            return false;
        uuid = (const char *) plain + type_len + 1;
    }
    if (!s_is_uuid(uuid))
        return false;
    for (size_t i = 0; i < GW_UUID_SIZE; i++)
        out[i] = (char) tolower((unsigned char) uuid[i]);
    return true;
}

//  A rule as GraphQL's EndpointAutoScalingRuleNode.
static json_t *
s_node(json_t *row)
{
    const char *id = json_string_value(json_object_get(row, "id"));
    json_t *triggered = json_object_get(row, "last_triggered_at");
    return json_pack("{s:o, s:s, s:O, s:O, s:O, s:O, s:O, s:O, s:O, s:O, s:o, s:o, s:O}",
                     "id", gw_gql_global_id(GW_ENDPOINT_RULE_NODE_TYPE, id), "row_id", id,
                     "metric_source", json_object_get(row, "metric_source"),
                     "metric_name", json_object_get(row, "metric_name"), "threshold",
                     json_object_get(row, "threshold"), "comparator",
                     json_object_get(row, "comparator"), "step_size",
                     json_object_get(row, "step_size"), "cooldown_seconds",
                     json_object_get(row, "cooldown_seconds"), "min_replicas",
                     json_object_get(row, "min_replicas"), "max_replicas",
                     json_object_get(row, "max_replicas"), "created_at",
                     gw_gql_time(json_integer_value(json_object_get(row, "created_at"))),
                     "last_triggered_at",
                     json_is_integer(triggered)
                         ? gw_gql_time(json_integer_value(triggered))
                         : json_null(),
                     "endpoint", json_object_get(row, "endpoint"));
}

//  The endpoint an argument names, when the caller may act on it; else
//  NULL with err (NOT_FOUND, or FORBIDDEN as Backend.AI's owner check).
//  Caller owns it.
static json_t *
s_endpoint(gw_request_t *r, const char *arg, bus_error_t *err)
{
    char id[GW_UUID_SIZE];
    json_t *endpoint = s_id_arg(arg, GW_ENDPOINT_NODE_TYPE, id)
                           ? gw_endpoint_get(gw_server_db(r->gw), id)
                           : NULL;
    const char *stage = json_string_value(json_object_get(endpoint, "lifecycle_stage"));
    if (!endpoint || !stage || strcmp(stage, "destroyed") == 0) {
        json_decref(endpoint);
        bus_error_set(err, BUS_STATUS_NOT_FOUND, "Endpoint not found");
        return NULL;
    }
    if (!gw_endpoint_may(&r->who, endpoint)) {
        json_decref(endpoint);
        bus_error_set(err, BUS_STATUS_FORBIDDEN, "Forbidden operation");
        return NULL;
    }
    return endpoint;
}

//  The rule an argument names, when the caller may act on its endpoint;
//  else NULL with err. Caller owns it.
static json_t *
s_rule(gw_request_t *r, const char *arg, bus_error_t *err)
{
    char id[GW_UUID_SIZE];
    json_t *rule = s_id_arg(arg, GW_ENDPOINT_RULE_NODE_TYPE, id)
                       ? gw_endpoint_rule_get(gw_server_db(r->gw), id)
                       : NULL;
    if (!rule) {
        bus_error_set(err, BUS_STATUS_NOT_FOUND, "Endpoint Autoscaling Rule not found");
        return NULL;
    }
    json_t *endpoint =
        s_endpoint(r, json_string_value(json_object_get(rule, "endpoint")), err);
    if (!endpoint) {
        json_decref(rule);
        return NULL;
    }
    json_decref(endpoint);
    return rule;
}

static json_t *
q_rule_node(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *rule = s_rule(r, gw_gql_arg(args, "id"), err);
    json_t *node = rule ? s_node(rule) : NULL;
    json_decref(rule);
    return node;
}

//  endpoint_auto_scaling_rule_nodes(endpoint, offset, first, ...): a Relay
//  connection {count, edges {cursor node}, pageInfo} of the endpoint's
//  rules, oldest first; offset and first cut a page (filter and order are
//  not read: an endpoint has few rules).
static json_t *
q_rule_nodes(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *endpoint = s_endpoint(r, gw_gql_arg(args, "endpoint"), err);
    if (!endpoint)
        return NULL;
    json_t *rows = gw_endpoint_rule_list(
        gw_server_db(r->gw), json_string_value(json_object_get(endpoint, "id")));
    json_decref(endpoint);
    if (!rows)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot read the rules"), NULL;
    json_t *offset_arg = json_object_get(args, "offset");
    json_t *first_arg = json_object_get(args, "first");
    size_t total = json_array_size(rows);
    size_t offset = json_is_integer(offset_arg) && json_integer_value(offset_arg) > 0
                        ? (size_t) json_integer_value(offset_arg)
                        : 0;
    size_t end = json_is_integer(first_arg) && json_integer_value(first_arg) >= 0 &&
                         offset + (size_t) json_integer_value(first_arg) < total
                     ? offset + (size_t) json_integer_value(first_arg)
                     : total;
    json_t *edges = json_array();
    for (size_t i = offset; i < end; i++) {
        json_t *node = s_node(json_array_get(rows, i));
        json_array_append_new(
            edges,
            json_pack("{s:O, s:o}", "cursor", json_object_get(node, "id"), "node", node));
    }
    json_t *first = json_array_get(edges, 0);
    json_t *last = json_array_get(edges, json_array_size(edges) - 1);
    json_t *connection = json_pack("{s:I, s:o, s:{s:b, s:b, s:O?, s:O?}}", "count",
                                   (json_int_t) total, "edges", edges, "pageInfo",
                                   "hasNextPage", end<total, "hasPreviousPage", offset> 0,
                                   "startCursor", json_object_get(first, "cursor"),
                                   "endCursor", json_object_get(last, "cursor"));
    json_decref(rows);
    return connection;
}

//  Backend.AI's mutation payload: {ok, msg, rule}.
static json_t *
s_payload(const char *msg, json_t *rule_row)
{
    json_t *payload = json_pack("{s:b, s:s}", "ok", 1, "msg", msg);
    if (rule_row)
        json_object_set_new(payload, "rule", s_node(rule_row));
    return payload;
}

static json_t *
m_create_rule(gw_request_t *r, json_t *args, bus_error_t *err)
{
    bus_db_t *db = gw_server_db(r->gw);
    json_t *endpoint = s_endpoint(r, gw_gql_arg(args, "endpoint"), err);
    const char *stage = json_string_value(json_object_get(endpoint, "lifecycle_stage"));
    if (endpoint && strcmp(stage, "created") != 0) {
        bus_error_set(err, BUS_STATUS_NOT_FOUND, "Endpoint not found (it is ending)");
        json_decref(endpoint);
        return NULL;
    }
    json_t *row = NULL, *rule = NULL;
    char id[GW_UUID_SIZE] = "";
    if (endpoint &&
        gw_endpoint_rule_check(json_object_get(args, "props"), false, NULL, &row, err) ==
            BUS_OK &&
        gw_endpoint_rule_insert(db, json_string_value(json_object_get(endpoint, "id")),
                                row, id, err) == BUS_OK)
        rule = gw_endpoint_rule_get(db, id);
    json_t *payload = NULL;
    if (rule) {
        bus_log_info("autoscaling rule created rule=%s endpoint=%s metric=%s/%s "
                     "comparator=%s threshold=%s step=%lld",
                     id, json_string_value(json_object_get(endpoint, "id")),
                     json_string_value(json_object_get(rule, "metric_source")),
                     json_string_value(json_object_get(rule, "metric_name")),
                     json_string_value(json_object_get(rule, "comparator")),
                     json_string_value(json_object_get(rule, "threshold")),
                     (long long) json_integer_value(json_object_get(rule, "step_size")));
        payload = s_payload("Auto scaling rule created", rule);
    }
    json_decref(rule);
    json_decref(row);
    json_decref(endpoint);
    return payload;
}

static json_t *
m_modify_rule(gw_request_t *r, json_t *args, bus_error_t *err)
{
    bus_db_t *db = gw_server_db(r->gw);
    json_t *rule = s_rule(r, gw_gql_arg(args, "id"), err);
    json_t *row = NULL, *changed = NULL;
    const char *id = json_string_value(json_object_get(rule, "id"));
    if (rule &&
        gw_endpoint_rule_check(json_object_get(args, "props"), true, rule, &row, err) ==
            BUS_OK &&
        gw_endpoint_rule_update(db, id, row, err) == BUS_OK)
        changed = gw_endpoint_rule_get(db, id);
    json_t *payload = changed ? s_payload("Auto scaling rule updated", changed) : NULL;
    if (changed)
        bus_log_info("autoscaling rule modified rule=%s", id);
    json_decref(changed);
    json_decref(row);
    json_decref(rule);
    return payload;
}

static json_t *
m_delete_rule(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_t *rule = s_rule(r, gw_gql_arg(args, "id"), err);
    const char *id = json_string_value(json_object_get(rule, "id"));
    json_t *payload = NULL;
    if (rule && gw_endpoint_rule_delete(gw_server_db(r->gw), id, err) == BUS_OK) {
        bus_log_info("autoscaling rule deleted rule=%s", id);
        payload = s_payload("Auto scaling rule deleted", NULL);
    }
    json_decref(rule);
    return payload;
}

const gw_gql_root_t gw_endpoint_rule_gql[] = {
    {"query", "endpoint_auto_scaling_rule_node", q_rule_node},
    {"query", "endpoint_auto_scaling_rule_nodes", q_rule_nodes},
    {"mutation", "create_endpoint_auto_scaling_rule_node", m_create_rule},
    {"mutation", "modify_endpoint_auto_scaling_rule_node", m_modify_rule},
    {"mutation", "delete_endpoint_auto_scaling_rule_node", m_delete_rule},
    {NULL, NULL, NULL},
};
