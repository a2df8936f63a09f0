/*  =========================================================================
    gw_template_api - the routes of session templates: /template/session
    and /session/_/create-from-template

    The templates live in the gateway's session_templates table, with their
    owner, project and domain (its statements: gw_template_row_*, in
    gw_template_row.c); who may read or change one is decided here
    (Backend.AI's rules, see gw_template.h). The documents themselves are
    gw_template's: parsed and checked on the way in, written as YAML or
    JSON on the way out, merged with a create's overrides before
    gw_session_handle_create runs them.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

//  ---------------------------------------------------------------------------
//  The table

//  The template id from the path: Backend.AI's 32 hex digits, or the same
//  uuid with dashes. false when it cannot be one.
static bool
s_template_id(const char *text, char out[33])
{
    size_t n = 0;
    for (; text && *text; text++) {
        if (*text == '-')
            continue;
        if (!isxdigit((unsigned char) *text) || n >= 32)
            return false;
        out[n++] = (char) tolower((unsigned char) *text);
    }
    out[n] = 0;
    return n == 32;
}

//  The active task template id, if who may read it (its owner, a member of
//  its project, an admin of its domain, a superadmin). Replies (404) and
//  returns NULL otherwise. Caller owns return value.
static json_t *
s_load(gw_request_t *r, const char *id_text, bool *may_write)
{
    char id[33];
    bool failed = false;
    json_t *row =
        s_template_id(id_text, id)
            ? gw_template_row_find(gw_server_db(r->gw), id, r->who.user_uuid, &failed)
            : NULL;
    if (failed) {
        gw_reply_problem(r, "internal-server-error", "database error");
        return NULL;
    }
    const char *owner = json_string_value(json_object_get(row, "user_uuid"));
    const char *domain = json_string_value(json_object_get(row, "domain_name"));
    bool owns = owner && strcmp(owner, r->who.user_uuid) == 0;
    bool admin = domain && gw_identity_admins_domain(&r->who, domain);
    bool member = json_integer_value(json_object_get(row, "member")) != 0;
    if (!row || !(owns || admin || member)) {
        json_decref(row);
        gw_reply_problem(r, "task-template-not-found", "Task template not found.");
        return NULL;
    }
    if (may_write)
        *may_write = owns || admin;
    return row;
}

//  The payload member, parsed and checked. Replies and returns NULL on bad
//  input. Caller owns return value.
static json_t *
s_payload(gw_request_t *r)
{
    char detail[256] = "";
    json_t *payload = json_object_get(r->params, "payload");
    if (!json_is_string(payload)) {
        gw_reply_problem(r, "invalid-api-params", "payload: a string is required");
        return NULL;
    }
    json_t *document = gw_template_parse(
        json_string_value(payload), json_string_length(payload), detail, sizeof detail);
    json_t *checked =
        document ? gw_template_check(document, detail, sizeof detail) : NULL;
    json_decref(document);
    if (!checked)
        gw_reply_problem(r, "invalid-api-params", detail);
    return checked;
}

static const char *
s_first_string(json_t *params, const char *const *keys)
{
    for (; *keys; keys++) {
        const char *value = json_string_value(json_object_get(params, *keys));
        if (value)
            return value;
    }
    return NULL;
}

void
gw_template_handle_create(gw_request_t *r)
{
    static const char *const k_group[] = {"group", "groupName", "group_name", NULL};
    static const char *const k_domain[] = {"domain", "domainName", "domain_name", NULL};
    const char *domain = s_first_string(r->params, k_domain);
    if (domain && strcmp(domain, r->who.domain) != 0) {
        gw_reply_problem(r, "generic-forbidden",
                         "A template belongs to its owner's domain.");
        return;
    }
    const char *group = s_first_string(r->params, k_group);
    bus_error_t err = {0};
    char project_id[GW_UUID_SIZE];
    json_t *names = NULL;
    if (gw_sgroup_usable(gw_request_ctx(r), group ? group : "default", project_id, &names,
                         &err) != BUS_OK) {
        gw_reply_problem(r,
                         err.status == BUS_STATUS_NOT_FOUND ? "invalid-api-params"
                                                            : "internal-server-error",
                         err.detail);
        return;
    }
    json_decref(names);
    json_t *tpl = s_payload(r);
    if (!tpl)
        return;
    char uuid[GW_UUID_SIZE], id[33], now[40];
    gw_uuid_new(uuid);
    s_template_id(uuid, id);
    gw_now_iso(now);
    char *text = json_dumps(tpl, JSON_COMPACT);
    gw_template_row_t row = {
        .id = id,
        .created_at = now,
        .domain_name = r->who.domain,
        .group_id = project_id,
        .user_uuid = r->who.user_uuid,
        .name =
            json_string_value(json_object_get(json_object_get(tpl, "metadata"), "name")),
        .text = text,
    };
    int rc = text ? gw_template_row_insert(gw_server_db(r->gw), &row, &err)
                  : BUS_STATUS_INTERNAL;
    free(text);
    json_decref(tpl);
    if (rc != BUS_OK) {
        gw_reply_problem(r, "internal-server-error", "database error");
        return;
    }
    bus_log_info("session template created id=%s user=%s", id, r->who.user_uuid);
    gw_reply_json(r, 200, json_pack("{s:s, s:s}", "id", id, "user", r->who.user_uuid));
}

static json_t *
s_entry(gw_request_t *r, json_t *row, bool is_owner)
{
    json_t *tpl =
        json_loads(json_string_value(json_object_get(row, "template")), 0, NULL);
    return json_pack(
        "{s:O, s:O, s:O, s:b, s:O, s:O, s:O, s:O, s:s, s:O, s:o}", "name",
        json_object_get(row, "name"), "id", json_object_get(row, "id"), "created_at",
        json_object_get(row, "created_at"), "is_owner", is_owner, "user",
        json_object_get(row, "user_uuid"), "group", json_object_get(row, "group_id"),
        "user_email", json_object_get(row, "user_email"), "group_name",
        json_object_get(row, "group_name"), "domain_name", r->who.domain, "type",
        json_object_get(row, "type"), "template", tpl ? tpl : json_null());
}

void
gw_template_handle_list(gw_request_t *r)
{
    json_t *all = json_object_get(r->params, "all");
    bool list_all =
        json_is_true(all) ||
        (json_is_string(all) && (strcasecmp(json_string_value(all), "true") == 0 ||
                                 strcmp(json_string_value(all), "1") == 0));
    static const char *const k_group[] = {"group_id", "groupId", NULL};
    const char *group = s_first_string(r->params, k_group);
    bool super = gw_identity_is_superadmin(&r->who);
    //  Everything (a superadmin's ?all=true); else the caller's own and, as
    //  Backend.AI's query_accessible_session_templates, those of its projects
    //  (of every project of its domain for a domain admin).
    json_t *rows =
        gw_template_row_list(gw_server_db(r->gw), r->who.user_uuid, r->who.domain, group,
                             super && list_all, r->who.role == GW_ROLE_ADMIN);
    if (!rows) {
        gw_reply_problem(r, "internal-server-error", "database error");
        return;
    }
    json_t *list = json_array();
    size_t index;
    json_t *row;
    json_array_foreach(rows, index, row)
    {
        const char *owner = json_string_value(json_object_get(row, "user_uuid"));
        bool is_owner = (owner && strcmp(owner, r->who.user_uuid) == 0) ||
                        r->who.role == GW_ROLE_ADMIN;
        json_array_append_new(list, s_entry(r, row, is_owner));
    }
    json_decref(rows);
    gw_reply_json(r, 200, list);
}

void
gw_template_handle_get(gw_request_t *r)
{
    const char *format = json_string_value(json_object_get(r->params, "format"));
    if (format && strcmp(format, "yaml") != 0 && strcmp(format, "json") != 0) {
        gw_reply_problem(r, "invalid-api-params",
                         "format should be \"yaml\" or \"json\"");
        return;
    }
    json_t *row = s_load(r, gw_request_path_param(r, "template_id"), NULL);
    if (!row)
        return;
    json_t *tpl =
        json_loads(json_string_value(json_object_get(row, "template")), 0, NULL);
    json_decref(row);
    if (!tpl) {
        bus_log_error("session template unreadable id=%s",
                      gw_request_path_param(r, "template_id"));
        gw_reply_problem(r, "internal-server-error", "the stored template is unreadable");
        return;
    }
    if (format && strcmp(format, "yaml") == 0) {
        char *text = gw_template_yaml(tpl);
        json_decref(tpl);
        if (!text)
            gw_reply_problem(r, "internal-server-error", "out of memory");
        else
            gw_reply_bytes(r, 200, "text/yaml; charset=utf-8", text, strlen(text));
        free(text);
        return;
    }
    gw_reply_json(r, 200, tpl);
}

//  Ends a write on a template: its text and name replaced, or (text NULL)
//  the template deactivated, and the reply.
static void
s_write(gw_request_t *r, const char *text, const char *name)
{
    bool may_write = false;
    json_t *row = s_load(r, gw_request_path_param(r, "template_id"), &may_write);
    if (!row)
        return;
    if (!may_write) {
        json_decref(row);
        gw_reply_problem(r, "generic-forbidden",
                         "Only the template's owner or an administrator may change it.");
        return;
    }
    bus_error_t err = {0};
    const char *id = json_string_value(json_object_get(row, "id"));
    int rc = text ? gw_template_row_update(gw_server_db(r->gw), id, text, name, &err)
                  : gw_template_row_deactivate(gw_server_db(r->gw), id, &err);
    bus_log_info("session template %s id=%s by=%s", text ? "updated" : "deleted",
                 json_string_value(json_object_get(row, "id")), r->who.access_key);
    json_decref(row);
    if (rc != BUS_OK)
        gw_reply_problem(r, "internal-server-error", "database error");
    else
        gw_reply_json(r, 200, json_pack("{s:b}", "success", 1));
}

void
gw_template_handle_update(gw_request_t *r)
{
    json_t *tpl = s_payload(r);
    if (!tpl)
        return;
    char *text = json_dumps(tpl, JSON_COMPACT);
    if (!text)
        gw_reply_problem(r, "internal-server-error", "out of memory");
    else
        s_write(
            r, text,
            json_string_value(json_object_get(json_object_get(tpl, "metadata"), "name")));
    free(text);
    json_decref(tpl);
}

void
gw_template_handle_delete(gw_request_t *r)
{
    s_write(r, NULL, NULL);
}

void
gw_template_handle_create_session(gw_request_t *r)
{
    json_t *id = json_object_get(r->params, "template_id");
    if (!json_is_string(id)) {
        gw_reply_problem(r, "invalid-api-params", "template_id: a string is required");
        return;
    }
    json_t *row = s_load(r, json_string_value(id), NULL);
    if (!row)
        return;
    json_t *tpl =
        json_loads(json_string_value(json_object_get(row, "template")), 0, NULL);
    if (!tpl) {
        json_decref(row);
        gw_reply_problem(r, "internal-server-error", "the stored template is unreadable");
        return;
    }
    json_t *merged = gw_template_merge(
        tpl, json_string_value(json_object_get(row, "group_name")), r->params);
    json_decref(tpl);
    json_decref(row);
    json_decref(r->params);
    r->params = merged;
    gw_session_handle_create(r);
}
