/*  =========================================================================
    gw_service_api - /services: model services (Backend.AI 24.03's REST
    routes, reference part 2 §C.2)

    POST /services goes: the body read (s_read_body), the model folder
    found as the owner reaches it, its definition read from its
    storage-proxy (model_definition_path, else model-definition.yaml, else
    .yml) and checked, a dry run of the replica's session
    (gw_session_launch), then the endpoint's row; the reconciliation makes
    its replicas from there.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include "bus_apptoken.h"

#define S_MOUNT_DEFAULT "/models"
#define S_DRY_ROUTE     "00000000-0000-0000-0000-000000000000" //  a route id's length

static const char *const k_name[] = {"name", "service_name", "clientSessionToken", NULL};
static const char *const k_count[] = {"desired_session_count", "desiredSessionCount",
                                      "replicas", NULL};
static const char *const k_image[] = {"image", "lang", NULL};
static const char *const k_arch[] = {"arch", "architecture", NULL};
static const char *const k_group[] = {"group", "groupName", "group_name", NULL};
static const char *const k_cluster_size[] = {"cluster_size", "clusterSize", NULL};
static const char *const k_cluster_mode[] = {"cluster_mode", "clusterMode", NULL};
static const char *const k_startup[] = {"startup_command", "startupCommand", NULL};
static const char *const k_bootstrap[] = {"bootstrap_script", "bootstrapScript", NULL};
static const char *const k_mount_dest[] = {"model_mount_destination",
                                           "modelMountDestination", NULL};
static const char *const k_def_path[] = {"model_definition_path", "modelDefinitionPath",
                                         NULL};
static const char *const k_sgroup[] = {"scaling_group", "scalingGroup", NULL};
static const char *const k_opts[] = {"resource_opts", "resourceOpts", NULL};

//  ---------------------------------------------------------------------------
//  One endpoint, as the caller may see it

//  The endpoint of the {service_id} path parameter, when the caller may act
//  on it; else answers 404 or 403 and returns NULL. Caller owns it.
static json_t *
s_endpoint(gw_request_t *r)
{
    const char *id = gw_request_path_param(r, "service_id");
    json_t *endpoint = id ? gw_endpoint_get(gw_server_db(r->gw), id) : NULL;
    const char *stage = json_string_value(json_object_get(endpoint, "lifecycle_stage"));
    if (!endpoint || !stage || strcmp(stage, "destroyed") == 0) {
        gw_reply_problem(r, "object-not-found", "service not found");
        json_decref(endpoint);
        return NULL;
    }
    if (!gw_endpoint_may(&r->who, endpoint)) {
        gw_reply_problem(
            r, "generic-forbidden",
            "only the service's owner or an admin of its domain may do this");
        json_decref(endpoint);
        return NULL;
    }
    return endpoint;
}

//  ---------------------------------------------------------------------------
//  GET /services, GET /services/_/runtimes, GET /services/{id}

void
gw_service_handle_list(gw_request_t *r)
{
    const char *name = json_string_value(json_object_get(r->params, "name"));
    json_t *list = gw_endpoint_list(gw_server_db(r->gw), r->who.user_uuid, name);
    if (!list)
        gw_reply_problem(r, "internal-server-error", "cannot read the services");
    else
        gw_reply_json(r, 200, list);
}

void
gw_service_handle_runtimes(gw_request_t *r)
{
    json_t *list = json_array();
    for (size_t i = 0; i < gw_model_variant_count; i++)
        json_array_append_new(list,
                              json_pack("{s:s, s:s}", "name", gw_model_variants[i].name,
                                        "human_readable_name",
                                        gw_model_variants[i].human_readable_name));
    gw_reply_json(r, 200, json_pack("{s:o}", "runtimes", list));
}

void
gw_service_handle_info(gw_request_t *r)
{
    json_t *endpoint = s_endpoint(r);
    if (endpoint)
        gw_reply_json(r, 200, gw_endpoint_view(gw_server_db(r->gw), endpoint));
    json_decref(endpoint);
}

//  ---------------------------------------------------------------------------
//  POST /services

typedef struct {
    gw_request_t *r;
    json_t *row;    //  the endpoints row, filled on the way
    json_t *params; //  POST /session parameters of every replica
    json_t *mounts; //  the model folder at its destination
    const char *host;
    char folder_id[GW_VFOLDER_ID_SIZE];
    char folder_host[256];
    char def_path[1024];
    bool def_asked; //  model_definition_path given: no second name tried
    bool trial;     //  POST /services/_/try: one session, a background task
    const gw_model_variant_t *variant;
} s_create_t;

static void
s_create_destroy(s_create_t **self_p)
{
    s_create_t *self = *self_p;
    if (!self)
        return;
    json_decref(self->row);
    json_decref(self->params);
    json_decref(self->mounts);
    free(self);
    *self_p = NULL;
}

//  Answers the problem and frees self.
static void
s_refuse(s_create_t *self, const char *slug, const char *detail)
{
    gw_reply_problem(self->r, slug, detail);
    s_create_destroy(&self);
}

//  A name Backend.AI takes: 4-24 ASCII characters of ^\w[\w.-]*\w$.
static bool
s_name_valid(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    if (n < GW_ENDPOINT_NAME_MIN || n > GW_ENDPOINT_NAME_MAX)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char) name[i];
        bool word = isascii(c) && (isalnum(c) || c == '_');
        if (!word && ((c != '.' && c != '-') || i == 0 || i == n - 1))
            return false;
    }
    return true;
}

//  The integer of value (a number, or a string of digits as forms send it);
//  false when it is neither.
static bool
s_integer(json_t *value, int64_t *out)
{
    if (json_is_integer(value)) {
        *out = json_integer_value(value);
        return true;
    }
    const char *text = json_string_value(value);
    char *end;
    if (!text || !*text)
        return false;
    errno = 0;
    long long n = strtoll(text, &end, 10);
    if (errno != 0 || *end != '\0')
        return false;
    *out = n;
    return true;
}

//  The body into self->row and self->params; false after answering.
static bool
s_read_body(s_create_t *self)
{
    gw_request_t *r = self->r;
    json_t *body = r->params;
    json_t *config = json_object_get(body, "config");
    const char *name = json_string_value(gw_session_param(body, k_name));
    const char *image = json_string_value(gw_session_param(body, k_image));
    json_t *variant_value = json_object_get(body, "runtime_variant");
    const char *variant = json_string_value(variant_value);
    self->variant = gw_model_def_variant_find(variant ? variant : "custom");
    const char *model = json_string_value(json_object_get(config, "model"));
    json_t *dest_value = gw_session_param(config, k_mount_dest);
    const char *dest = dest_value ? json_string_value(dest_value) : S_MOUNT_DEFAULT;
    json_t *def_value = gw_session_param(config, k_def_path);
    const char *def_path = json_string_value(def_value);
    json_t *sgroup = gw_session_param(config, k_sgroup);
    int64_t count = 0,
            most = gw_endpoint_replicas_max(gw_server_db(r->gw), r->who.user_uuid);
    char detail[512];
    const char *problem = NULL;
    if (!s_name_valid(name))
        problem = "name: 4 to 24 ASCII letters, digits, '_', '.' or '-', starting and "
                  "ending with a letter, a digit or '_'";
    else if (!s_integer(gw_session_param(body, k_count), &count) || count < 0 ||
             count > most) {
        snprintf(detail, sizeof detail,
                 "desired_session_count: an integer from 0 to %lld (your resource "
                 "policy's max_session_count_per_model_session)",
                 (long long) most);
        problem = detail;
    } else if (!image || !*image)
        problem = "image: required";
    else if ((variant_value && !json_is_null(variant_value) && !variant) ||
             !self->variant)
        problem = "runtime_variant: custom, vllm, nim or cmd (GET /services/_/runtimes)";
    else if (!self->variant->any_mount && dest && strcmp(dest, S_MOUNT_DEFAULT) != 0)
        problem = "config.model_mount_destination: must be /models unless the "
                  "runtime_variant is custom or cmd";
    else if (!json_is_object(config))
        problem = "config: required";
    else if (!model || !*model)
        problem = "config.model: the model folder's id or name, required";
    else if (!json_is_string(sgroup) || !*json_string_value(sgroup))
        problem = "config.scaling_group: required";
    else if (!gw_endpoint_path_valid(dest, false))
        problem = "config.model_mount_destination: an absolute path, not /home, /proc,"
                  " /dev, /sys, /etc/hosts or /opt/backplane, nor beneath or above them";
    else if (def_value && !json_is_null(def_value) &&
             (!def_path || !*def_path || def_path[0] == '/' || strlen(def_path) > 1000 ||
              strstr(def_path, "..")))
        problem = "config.model_definition_path: a path inside the model folder";
    if (problem) {
        gw_reply_problem(r, "invalid-api-params", problem);
        return false;
    }
    //  Every replica's session as POST /session would be asked for it.
    json_t *session_config = json_pack("{s:O}", "scaling_group", sgroup);
    const char *const keys[] = {"resources", "environ", NULL};
    for (size_t i = 0; keys[i]; i++)
        if (json_object_get(config, keys[i]))
            json_object_set(session_config, keys[i], json_object_get(config, keys[i]));
    if (gw_session_param(config, k_opts))
        json_object_set(session_config, "resource_opts",
                        gw_session_param(config, k_opts));
    self->params = json_pack("{s:s, s:o}", "image", image, "config", session_config);
    struct {
        const char *const *keys;
        const char *as;
    } copies[] = {{k_arch, "architecture"},         {k_group, "group"},
                  {k_cluster_size, "cluster_size"}, {k_cluster_mode, "cluster_mode"},
                  {k_startup, "startup_command"},   {k_bootstrap, "bootstrap_script"}};
    for (size_t i = 0; i < sizeof copies / sizeof copies[0]; i++)
        if (gw_session_param(body, copies[i].keys))
            json_object_set(self->params, copies[i].as,
                            gw_session_param(body, copies[i].keys));
    if (json_is_string(json_object_get(body, "tag")))
        json_object_set(self->params, "tag", json_object_get(body, "tag"));
    char id[GW_UUID_SIZE];
    gw_uuid_new(id);
    json_t *open = json_object_get(body, "open_to_public");
    self->row = json_pack(
        "{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:I, s:b, s:I}", "id", id,
        "name", name, "created_user",
        *r->caller.access_key ? r->caller.user_uuid : r->who.user_uuid, "session_owner",
        r->who.user_uuid, "owner_access_key", r->who.access_key, "domain", r->who.domain,
        "resource_group", json_string_value(sgroup), "image", image,
        "model_mount_destination", dest, "runtime_variant", self->variant->name,
        "desired_session_count", (json_int_t) count, "open_to_public", json_is_true(open),
        "created_at", (json_int_t) bus_clock_wall_us());
    if (def_path)
        json_object_set_new(self->row, "model_definition_path", json_string(def_path));
    snprintf(self->def_path, sizeof self->def_path, "%s",
             def_path ? def_path : "model-definition.yaml");
    self->def_asked = def_path != NULL;
    if (!self->row || !self->params) {
        gw_reply_problem(r, "internal-server-error", "out of memory");
        return false;
    }
    return true;
}

//  config.extra_mounts, as the owner reaches them, into the row; then every
//  folder a replica mounts into self->mounts. False after answering.
static bool
s_find_extra(s_create_t *self)
{
    gw_request_t *r = self->r;
    int status = BUS_STATUS_INVALID;
    char detail[512];
    const char *dest =
        json_string_value(json_object_get(self->row, "model_mount_destination"));
    json_t *extra = gw_endpoint_extra_parse(
        gw_request_ctx(r),
        json_object_get(json_object_get(r->params, "config"), "extra_mounts"), dest,
        &status, detail, sizeof detail);
    char *text = extra ? json_dumps(extra, JSON_COMPACT) : NULL;
    json_decref(extra);
    if (text) {
        json_object_set_new(self->row, "extra_mounts", json_string(text));
        self->mounts =
            gw_endpoint_mounts(gw_request_ctx(r), self->row, detail, sizeof detail);
        status = BUS_STATUS_INVALID;
    }
    free(text);
    if (self->mounts)
        return true;
    gw_reply_problem(r,
                     status == BUS_STATUS_NOT_FOUND   ? "object-not-found"
                     : status == BUS_STATUS_FORBIDDEN ? "insufficient-privilege"
                     : status == BUS_STATUS_INTERNAL  ? "internal-server-error"
                                                      : "invalid-api-params",
                     detail);
    return false;
}

//  The model folder, as the owner reaches it; false after answering.
static bool
s_find_folder(s_create_t *self)
{
    gw_request_t *r = self->r;
    const char *model =
        json_string_value(json_object_get(json_object_get(r->params, "config"), "model"));
    gw_vfolder_t folder;
    bus_error_t err = {0};
    if (gw_vfolder_find(gw_request_ctx(r), model, "ready", &folder, &err) != BUS_OK) {
        char detail[512];
        snprintf(detail, sizeof detail, "Cannot find model folder: %s", model);
        gw_reply_problem(r,
                         err.status == BUS_STATUS_NOT_FOUND ? "object-not-found"
                                                            : "internal-server-error",
                         detail);
        return false;
    }
    const char *mode = json_string_value(json_object_get(folder.row, "usage_mode"));
    bool model_folder = mode && strcmp(mode, "model") == 0;
    //  Mounted in every replica: the host must allow it, as for POST /session.
    bool allowed = folder.admin || gw_vfolder_host_allows(gw_request_ctx(r), folder.host,
                                                          NULL, "mount-in-session");
    if (!model_folder)
        gw_reply_problem(r, "invalid-api-params",
                         "Selected VFolder is not a model folder");
    else if (!allowed) {
        char detail[512];
        snprintf(detail, sizeof detail, "you may not mount folders of the host %s",
                 folder.host);
        gw_reply_problem(r, "insufficient-privilege", detail);
        model_folder = false;
    } else {
        snprintf(self->folder_id, sizeof self->folder_id, "%s", folder.id);
        snprintf(self->folder_host, sizeof self->folder_host, "%s", folder.host);
        json_object_set_new(self->row, "model", json_string(folder.id));
    }
    gw_vfolder_clear(&folder);
    return model_folder && s_find_extra(self);
}

static void s_read_definition(s_create_t *self);
static void s_with_service(s_create_t *self, json_t *service);
static void s_start_trial(s_create_t *self, const char *model_service);

//  The dry run passed: the endpoint is kept, and its replicas come.
static void
s_on_checked(void *arg, const gw_session_launched_t *result)
{
    s_create_t *self = arg;
    gw_request_t *r = self->r;
    if (result->slug) {
        s_refuse(self, result->slug, result->detail);
        return;
    }
    if (result->status != BUS_OK) {
        gw_reply_status(r, result->status, result->detail);
        s_create_destroy(&self);
        return;
    }
    //  The project, as the dry run resolved it.
    char project_id[GW_UUID_SIZE] = "";
    json_t *usable = NULL;
    bus_error_t err = {0};
    const char *group = json_string_value(json_object_get(self->params, "group"));
    if (gw_sgroup_usable(gw_request_ctx(r), group ? group : "default", project_id,
                         &usable, &err) != BUS_OK) {
        json_decref(usable);
        gw_reply_status(r, err.status, err.detail);
        s_create_destroy(&self);
        return;
    }
    json_decref(usable);
    char *params = json_dumps(self->params, JSON_COMPACT);
    json_object_set_new(self->row, "project", json_string(project_id));
    json_object_set_new(self->row, "session_params", json_string(params ? params : "{}"));
    free(params);
    bus_db_t *db = gw_server_db(r->gw);
    if (gw_endpoint_insert(db, self->row, &err) != BUS_OK) {
        s_refuse(self,
                 err.status == BUS_STATUS_CONFLICT ? "invalid-api-params"
                                                   : "internal-server-error",
                 err.detail);
        return;
    }
    bus_log_notice("endpoint created endpoint=%s name=%s replicas=%lld",
                   json_string_value(json_object_get(self->row, "id")),
                   json_string_value(json_object_get(self->row, "name")),
                   (long long) json_integer_value(
                       json_object_get(self->row, "desired_session_count")));
    gw_endpoint_reconcile_kick(gw_server_endpoints(r->gw));
    json_t *endpoint =
        gw_endpoint_get(db, json_string_value(json_object_get(self->row, "id")));
    gw_reply_json(r, 200, gw_endpoint_view(db, endpoint));
    json_decref(endpoint);
    s_create_destroy(&self);
}

static void
s_on_definition(void *arg, const bus_reply_t *reply)
{
    s_create_t *self = arg;
    char detail[1024];
    if (reply->status == BUS_STATUS_NOT_FOUND && !self->def_asked &&
        strcmp(self->def_path, "model-definition.yaml") == 0) {
        snprintf(self->def_path, sizeof self->def_path, "model-definition.yml");
        s_read_definition(self);
        return;
    }
    if (reply->status != BUS_OK) {
        snprintf(detail, sizeof detail, "%s%.800s: %.100s",
                 self->def_asked ? "" : "model-definition.yaml or .yml, ", self->def_path,
                 reply->status == BUS_STATUS_NOT_FOUND ? "not found in the model folder"
                                                       : reply->detail);
        s_refuse(self, "invalid-api-params", detail);
        return;
    }
    proto_storage_files_read_rep_t rep;
    bus_error_t err = {0};
    if (proto_storage_files_read_rep_decode(&rep, reply->body, reply->body_size, &err) !=
        BUS_OK) {
        s_refuse(self, "internal-server-error", err.detail);
        return;
    }
    json_t *service = gw_model_def_parse(self->def_path, (const char *) rep.data,
                                         rep.data_size, detail, sizeof detail);
    proto_storage_files_read_rep_clear(&rep);
    if (!service) {
        s_refuse(self, "invalid-api-params", detail);
        return;
    }
    s_with_service(self, service);
}

//  The model service every replica runs is known (read from the folder's
//  definition, or a runtime variant's): the trial starts, or the dry run.
static void
s_with_service(s_create_t *self, json_t *service)
{
    char *text = json_dumps(service, JSON_COMPACT);
    json_decref(service);
    json_object_set_new(self->row, "model_service", json_string(text ? text : "{}"));
    if (self->trial) {
        s_start_trial(self, text ? text : "{}");
        free(text);
        return;
    }
    //  A replica's session, checked as it will be made, but not made.
    json_t *params = json_deep_copy(self->params);
    char name[GW_SESSION_NAME_MAX + 1];
    snprintf(name, sizeof name, "%s-" S_DRY_ROUTE,
             json_string_value(json_object_get(self->row, "name")));
    json_object_set_new(params, "name", json_string(name));
    gw_session_launch_t in = {.who = &self->r->who,
                              .params = params,
                              .extra_mounts = self->mounts,
                              .type = "INFERENCE",
                              .model_service = text,
                              .dry_run = true};
    gw_session_launch(self->r->gw, &in, s_on_checked, self);
    json_decref(params);
    free(text);
}

//  POST /services/_/try: the definition passed; its trial session starts
//  and the answer is the task that reports on it (gw_endpoint_try).
static void
s_start_trial(s_create_t *self, const char *model_service)
{
    gw_request_t *r = self->r;
    char task_id[GW_BGTASK_ID_SIZE];
    bus_error_t err = {0};
    if (gw_endpoint_try_start(gw_endpoint_reconcile_tries(gw_server_endpoints(r->gw)),
                              &r->who, self->params, self->mounts, model_service, task_id,
                              &err) != BUS_OK)
        gw_reply_status(r, err.status, err.detail);
    else
        gw_reply_json(r, 200, json_pack("{s:s}", "task_id", task_id));
    s_create_destroy(&self);
}

//  Asks the folder's storage-proxy for the definition at self->def_path.
static void
s_read_definition(s_create_t *self)
{
    proto_storage_files_read_req_t in;
    proto_storage_files_read_req_init(&in);
    in.id = self->folder_id;
    in.volume = gw_storage_volume_of(self->folder_host);
    in.path = self->def_path;
    in.max = GW_MODEL_DEF_MAX_BYTES;
    bus_error_t err = {0};
    bus_writer_t *writer = proto_storage_files_read_req_writer(&in, &err);
    gw_storage_call(gw_server_storage(self->r->gw), self->folder_host,
                    PROTO_STORAGE_FILES_READ, writer, &err, s_on_definition, self);
}

//  A runtime variant's service (vllm, nim, cmd): no definition file, the
//  image's own command. An image the catalogue knows to have none is
//  refused here; one it has not heard of is left to the dry run.
static void
s_variant_service(s_create_t *self)
{
    gw_request_t *r = self->r;
    const char *image = json_string_value(json_object_get(self->params, "image"));
    const char *arch = json_string_value(json_object_get(self->params, "architecture"));
    json_t *found = NULL;
    bus_error_t err = {0};
    json_t *command = NULL;
    if (gw_image_resolve(gw_server_db(r->gw), r->who.domain, image, arch, &found, &err) ==
        BUS_OK)
        command = gw_image_command(
            gw_server_db(r->gw), json_string_value(json_object_get(found, "reference")),
            json_string_value(json_object_get(found, "architecture")));
    bool none = command && json_array_size(command) == 0;
    json_decref(command);
    json_decref(found);
    if (none) {
        char detail[800];
        snprintf(detail, sizeof detail,
                 "image %.512s has no command of its own (neither ENTRYPOINT nor CMD),"
                 " which the %s runtime variant runs: use the custom variant with a"
                 " model definition",
                 image, self->variant->name);
        s_refuse(self, "invalid-api-params", detail);
        return;
    }
    s_with_service(self, gw_model_def_variant(
                             self->variant, json_string_value(json_object_get(
                                                self->row, "model_mount_destination"))));
}

//  POST /services and POST /services/_/try: the same body, checked alike.
static void
s_create_or_try(gw_request_t *r, bool trial)
{
    s_create_t *self = calloc(1, sizeof *self);
    if (!self) {
        gw_reply_problem(r, "internal-server-error", "out of memory");
        return;
    }
    self->r = r;
    self->trial = trial;
    //  Each answers the request when it refuses.
    if (!s_read_body(self) || !s_find_folder(self)) {
        s_create_destroy(&self);
        return;
    }
    if (self->variant->model_name)
        s_variant_service(self);
    else
        s_read_definition(self);
}

void
gw_service_handle_create(gw_request_t *r)
{
    s_create_or_try(r, false);
}

void
gw_service_handle_try(gw_request_t *r)
{
    s_create_or_try(r, true);
}

//  ---------------------------------------------------------------------------
//  Changes

void
gw_service_handle_delete(gw_request_t *r)
{
    json_t *endpoint = s_endpoint(r);
    if (!endpoint)
        return;
    bus_error_t err = {0};
    if (gw_endpoint_destroy(gw_server_db(r->gw),
                            json_string_value(json_object_get(endpoint, "id")),
                            &err) != BUS_OK)
        gw_reply_problem(r, "object-not-found", err.detail);
    else {
        gw_endpoint_reconcile_kick(gw_server_endpoints(r->gw));
        gw_reply_json(r, 200, json_pack("{s:b}", "success", 1));
    }
    json_decref(endpoint);
}

void
gw_service_handle_scale(gw_request_t *r)
{
    json_t *endpoint = s_endpoint(r);
    if (!endpoint)
        return;
    bus_db_t *db = gw_server_db(r->gw);
    const char *id = json_string_value(json_object_get(endpoint, "id"));
    const char *owner = json_string_value(json_object_get(endpoint, "session_owner"));
    int64_t to = 0, most = gw_endpoint_replicas_max(db, owner);
    bus_error_t err = {0};
    if (!s_integer(json_object_get(r->params, "to"), &to) || to < 0 || to > most) {
        char detail[256];
        snprintf(detail, sizeof detail,
                 "to: an integer from 0 to %lld (the owner's resource policy's "
                 "max_session_count_per_model_session)",
                 (long long) most);
        gw_reply_problem(r, "invalid-api-params", detail);
    } else if (gw_endpoint_set_desired(db, id, to, &err) != BUS_OK)
        gw_reply_problem(r, "invalid-api-params", "the service is being destroyed");
    else {
        json_t *routes = gw_route_list(db, id);
        gw_endpoint_reconcile_kick(gw_server_endpoints(r->gw));
        gw_reply_json(r, 200,
                      json_pack("{s:I, s:I}", "current_route_count",
                                (json_int_t) json_array_size(routes), "target_count",
                                (json_int_t) to));
        json_decref(routes);
    }
    json_decref(endpoint);
}

//  The route of the {route_id} path parameter, of endpoint; else answers
//  404 and returns NULL. Caller owns it.
static json_t *
s_route(gw_request_t *r, json_t *endpoint)
{
    const char *id = gw_request_path_param(r, "route_id");
    json_t *route = id ? gw_route_get(gw_server_db(r->gw), id) : NULL;
    const char *of = json_string_value(json_object_get(route, "endpoint"));
    if (!route || !of ||
        strcmp(of, json_string_value(json_object_get(endpoint, "id"))) != 0) {
        gw_reply_problem(r, "object-not-found", "route not found");
        json_decref(route);
        return NULL;
    }
    return route;
}

void
gw_service_handle_route_update(gw_request_t *r)
{
    json_t *endpoint = s_endpoint(r);
    json_t *route = endpoint ? s_route(r, endpoint) : NULL;
    //  r is answered and gone when either refused: read it only after.
    json_t *ratio = route ? json_object_get(r->params, "traffic_ratio") : NULL;
    bus_error_t err = {0};
    if (!route)
        ;
    else if (!json_is_number(ratio) || json_number_value(ratio) < 0)
        gw_reply_problem(r, "invalid-api-params", "traffic_ratio: a number >= 0");
    else if (gw_route_set_ratio(gw_server_db(r->gw),
                                json_string_value(json_object_get(route, "id")),
                                json_number_value(ratio), &err) != BUS_OK)
        gw_reply_problem(r, "object-not-found", err.detail);
    else
        gw_reply_json(r, 200, json_pack("{s:b}", "success", 1));
    json_decref(route);
    json_decref(endpoint);
}

void
gw_service_handle_route_delete(gw_request_t *r)
{
    json_t *endpoint = s_endpoint(r);
    json_t *route = endpoint ? s_route(r, endpoint) : NULL;
    if (route) {
        const char *status = json_string_value(json_object_get(route, "status"));
        const char *session = json_string_value(json_object_get(route, "session"));
        bus_db_t *db = gw_server_db(r->gw);
        bus_error_t err = {0};
        int64_t desired =
            json_integer_value(json_object_get(endpoint, "desired_session_count"));
        if (strcmp(status, "provisioning") == 0 || !session)
            gw_reply_problem(r, "invalid-api-params",
                             "the route is still provisioning: delete it once it serves");
        else if (strcmp(status, "terminating") == 0 ||
                 strcmp(status, "failed_to_start") == 0)
            gw_reply_problem(r, "invalid-api-params", "the route is not serving");
        else {
            //  One replica less, and this one the one that goes.
            gw_endpoint_set_desired(db,
                                    json_string_value(json_object_get(endpoint, "id")),
                                    desired > 0 ? desired - 1 : 0, &err);
            gw_endpoint_reconcile_terminate(
                gw_server_endpoints(r->gw),
                json_string_value(json_object_get(route, "id")), session);
            gw_reply_json(r, 200, json_pack("{s:b}", "success", 1));
        }
    }
    json_decref(route);
    json_decref(endpoint);
}

void
gw_service_handle_errors(gw_request_t *r)
{
    json_t *endpoint = s_endpoint(r);
    if (!endpoint)
        return;
    json_t *routes = gw_route_list(gw_server_db(r->gw),
                                   json_string_value(json_object_get(endpoint, "id")));
    json_t *errors = json_array();
    size_t index;
    json_t *route;
    json_array_foreach(routes, index, route)
    {
        if (strcmp(json_string_value(json_object_get(route, "status")),
                   "failed_to_start"))
            continue;
        json_t *data =
            json_loads(json_string_value(json_object_get(route, "error_data")), 0, NULL);
        json_array_append_new(errors, json_pack("{s:O?, s:o}", "session_id",
                                                json_object_get(route, "session"),
                                                "error", data ? data : json_object()));
    }
    gw_reply_json(r, 200,
                  json_pack("{s:o, s:O?}", "errors", errors, "retries",
                            json_object_get(endpoint, "retries")));
    json_decref(routes);
    json_decref(endpoint);
}

void
gw_service_handle_errors_clear(gw_request_t *r)
{
    json_t *endpoint = s_endpoint(r);
    if (!endpoint)
        return;
    gw_endpoint_clear_errors(gw_server_db(r->gw),
                             json_string_value(json_object_get(endpoint, "id")));
    gw_endpoint_reconcile_kick(gw_server_endpoints(r->gw));
    gw_reply_bytes(r, 204, "application/json", "", 0);
    json_decref(endpoint);
}

//  ---------------------------------------------------------------------------
//  POST /services/{id}/token

//  A duration as the client sends it ("30m", "1h", "2d", "1w", "90s" or
//  bare seconds) in seconds; -1 when it is none of those.
static int64_t
s_duration(const char *text)
{
    char *end = NULL;
    errno = 0;
    long long n = text ? strtoll(text, &end, 10) : -1;
    if (!text || end == text || errno || n <= 0)
        return -1;
    int64_t unit = 0;
    if (*end == '\0' || strcmp(end, "s") == 0)
        unit = 1;
    else if (strcmp(end, "m") == 0)
        unit = 60;
    else if (strcmp(end, "h") == 0)
        unit = 3600;
    else if (strcmp(end, "d") == 0)
        unit = 86400;
    else if (strcmp(end, "w") == 0)
        unit = 604800;
    if (!unit || n > INT64_MAX / unit / 2)
        return -1;
    return (int64_t) n * unit;
}

//  A token the endpoint's URL admits (Authorization: BackendAI <token>),
//  valid for duration or until valid_until (unix seconds), signed for its
//  session owner with the secret the wsproxy checks it with.
void
gw_service_handle_token(gw_request_t *r)
{
    json_t *endpoint = s_endpoint(r);
    if (!endpoint)
        return;
    int64_t now = (int64_t) time(NULL), until = -1, seconds = 0;
    json_t *duration = json_object_get(r->params, "duration");
    json_t *valid_until = json_object_get(r->params, "valid_until");
    if (json_is_string(duration) &&
        (seconds = s_duration(json_string_value(duration))) > 0)
        until = now + seconds;
    else if (json_is_integer(duration) && json_integer_value(duration) > 0 &&
             json_integer_value(duration) <= INT64_MAX / 2 - now)
        until = now + json_integer_value(duration);
    else if (!duration && s_integer(valid_until, &until) && until <= now)
        until = 0; //  in the past
    size_t secret_len = 0;
    const uint8_t *secret = gw_server_apps_secret(r->gw, &secret_len);
    if (until == 0)
        gw_reply_problem(r, "invalid-api-params", "valid_until: a time in the future");
    else if (until < 0)
        gw_reply_problem(r, "invalid-api-params",
                         "duration (30m, 1h, 2d, 1w or seconds) or valid_until (unix "
                         "seconds) is required");
    else if (!secret)
        gw_reply_problem(r, "service-unavailable",
                         "no apps.token_secret_file: endpoint tokens cannot be signed");
    else {
        bus_apptoken_endpoint_t claims = {0};
        snprintf(claims.endpoint_id, sizeof claims.endpoint_id, "%s",
                 json_string_value(json_object_get(endpoint, "id")));
        snprintf(claims.user_uuid, sizeof claims.user_uuid, "%s",
                 json_string_value(json_object_get(endpoint, "session_owner")));
        claims.expires = until;
        bus_error_t err = {0};
        char *token = bus_apptoken_endpoint_sign(secret, secret_len, &claims, &err);
        if (token && gw_endpoint_token_insert(gw_server_db(r->gw), endpoint, token, until,
                                              &err) != BUS_OK) {
            free(token);
            token = NULL;
        }
        if (token) {
            bus_log_info("endpoint token issued endpoint=%s user=%s until=%lld",
                         claims.endpoint_id, r->who.user_uuid, (long long) until);
            gw_reply_json(r, 200, json_pack("{s:s}", "token", token));
        } else
            gw_reply_problem(r, "internal-server-error", err.detail);
        free(token);
    }
    json_decref(endpoint);
}

//  ---------------------------------------------------------------------------
//  POST /services/{id}/sync

//  Pushes the endpoint's healthy routes to the wsproxy again at the next
//  pass, changed or not (Backend.AI's "sync").
void
gw_service_handle_sync(gw_request_t *r)
{
    json_t *endpoint = s_endpoint(r);
    if (!endpoint)
        return;
    gw_endpoint_reconcile_sync(gw_server_endpoints(r->gw),
                               json_string_value(json_object_get(endpoint, "id")));
    gw_reply_json(r, 200, json_pack("{s:b}", "success", 1));
    json_decref(endpoint);
}
