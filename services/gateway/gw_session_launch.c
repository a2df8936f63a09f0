/*  =========================================================================
    gw_session_launch - the steps every new session takes, up to
    session.create (the list is in the header)

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define S_REFERENCE_MAX 600 //  registry/project/name:tag

//  One launch on its way to the scheduler.
typedef struct {
    gw_server_t *gw;
    gw_identity_t who;
    gw_ctx_t ctx; //  who's, for the checks that read the database
    json_t *params;
    json_t *extra_mounts;
    const char *type;    //  a literal, or NULL
    char *model_service; //  owned, or NULL
    char *spread;        //  owned, or NULL
    bool dry_run;
    gw_session_launched_fn *fn;
    void *arg;
    bool spec_read; //  spec holds the body
    gw_session_spec_t spec;
    char session_id[GW_UUID_SIZE];
    //  resolve: what the spec names, as the owner may use it
    json_t *image;             //  the catalogue's image
    json_t *usable;            //  the resource groups the project may use
    const char *scaling_group; //  one of usable, borrowed
    char project_id[GW_UUID_SIZE];
    json_t *limits; //  gw_limits_of's object, for the scheduler
    json_t *slots;  //  slot -> decimal string
    int64_t shmem;
    //  encode: session.create, until the agents' capacities are checked
    bus_writer_t *request;
} launch_t;

static void
s_launch_destroy(launch_t **self_p)
{
    launch_t *self = *self_p;
    if (!self)
        return;
    gw_session_spec_clear(&self->spec);
    json_decref(self->params);
    json_decref(self->extra_mounts);
    free(self->model_service);
    free(self->spread);
    json_decref(self->image);
    json_decref(self->usable);
    json_decref(self->limits);
    json_decref(self->slots);
    bus_writer_destroy(&self->request);
    free(self);
    *self_p = NULL;
}

//  Tells the caller how it went (reply, or a status and detail) and frees
//  self.
static void
s_finish(launch_t *self, const bus_reply_t *reply, int status, const char *detail)
{
    gw_session_launched_t result = {.status = status,
                                    .detail = detail,
                                    .reply = reply,
                                    .spec = self->spec_read ? &self->spec : NULL,
                                    .session_id = self->session_id};
    self->fn(self->arg, &result);
    s_launch_destroy(&self);
}

//  Refused with a problem of the API.
static void
s_refused(launch_t *self, const char *slug, const char *detail)
{
    gw_session_launched_t result = {.slug = slug,
                                    .detail = detail,
                                    .spec = self->spec_read ? &self->spec : NULL,
                                    .session_id = self->session_id};
    self->fn(self->arg, &result);
    s_launch_destroy(&self);
}

//  A step that failed: a check that failed is the caller's (400
//  invalid-api-params), anything else the status's problem.
static void
s_refuse(launch_t *self, const bus_error_t *err)
{
    if (err->status == BUS_STATUS_INVALID)
        s_refused(self, "invalid-api-params", err->detail);
    else
        s_finish(self, NULL, err->status, err->detail);
}

//  Sends a call for self; finishes self when it could not leave, with err
//  when its request could not be written (writer NULL).
static void
s_send(launch_t *self,
       const char *method,
       bus_writer_t *writer,
       const bus_error_t *err,
       bus_reply_fn *fn)
{
    bus_node_t *node = gw_server_node(self->gw);
    const char *scheduler = bus_node_find(node, "scheduler");
    if (!writer)
        s_finish(self, NULL, err->status, err->detail);
    else if (!scheduler || bus_node_call(node, scheduler, method, bus_writer_data(writer),
                                         bus_writer_size(writer), 0, fn, self) == 0)
        s_finish(self, NULL, BUS_STATUS_UNAVAILABLE, "the scheduler is not reachable");
    bus_writer_destroy(&writer);
}

//  ---------------------------------------------------------------------------
//  resolve

//  The resource group asked for, if the project may use it; else the first
//  one it may use.
static int
s_resolve_scaling_group(launch_t *self, bus_error_t *err)
{
    const char *asked = self->spec.scaling_group;
    const char *chosen = NULL;
    for (size_t i = 0; !chosen && i < json_array_size(self->usable); i++) {
        const char *item = json_string_value(json_array_get(self->usable, i));
        if (!asked || strcmp(item, asked) == 0)
            chosen = item;
    }
    if (!chosen)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "no resource group for this project%s%s", asked ? ": " : "",
                             asked ? asked : "");
    self->scaling_group = chosen;
    return BUS_OK;
}

static int
s_resolve_limits(launch_t *self, bus_error_t *err)
{
    self->limits = gw_limits_of(&self->ctx, self->project_id, err);
    return self->limits ? BUS_OK : err->status;
}

//  The slots the session asks for: the client's, with the image's minimums
//  for cpu and mem when it gave none, and never under them.
static int
s_resolve_slots(launch_t *self, bus_error_t *err)
{
    //  The minimums come from the labels; the catalogue gives them as a list.
    json_t *labels = json_object();
    size_t index;
    json_t *pair;
    json_array_foreach(json_object_get(self->image, "labels"), index, pair)
        json_object_set(labels, json_string_value(json_object_get(pair, "key")),
                        json_object_get(pair, "value"));
    json_t *slots = NULL;
    int rc = BUS_OK;
    if (self->spec.resources)
        rc = bus_slots_parse(self->spec.resources, &slots, err);
    if (rc == BUS_OK && !slots)
        slots = json_object();
    json_t *limits = rc == BUS_OK ? gw_image_resources(labels) : NULL;
    const char *name;
    json_t *limit;
    json_object_foreach(limits, name, limit)
    {
        const char *min = json_string_value(json_object_get(limit, "min"));
        bus_slots_unit_t unit = bus_slots_unit(name);
        if (!min || unit == BUS_SLOTS_UNKNOWN)
            continue;
        json_t *have = json_object_get(slots, name);
        if (!have) {
            json_object_set_new(slots, name, json_string(min));
            continue;
        }
        bus_slots_value_t want, floor;
        json_t *min_text = json_string(min);
        bool ok = bus_slots_parse_value(unit, name, have, &want, err) == BUS_OK &&
                  bus_slots_parse_value(unit, name, min_text, &floor, err) == BUS_OK;
        json_decref(min_text);
        if (ok && !want.infinite && want.amount < floor.amount) {
            bus_error_set(err, BUS_STATUS_INVALID,
                          "Your resource request is smaller than the minimum required by "
                          "the image: %s %s < %s",
                          name, json_string_value(have), min);
            ok = false;
        }
        if (!ok) {
            json_decref(slots);
            slots = NULL;
            break;
        }
    }
    //  A whole-device slot (cuda.device) takes whole devices: a fraction
    //  of one could never be given.
    json_t *asked;
    json_object_foreach(slots, name, asked)
    {
        bus_slots_value_t want;
        if (!bus_slots_whole(name) ||
            bus_slots_parse_value(BUS_SLOTS_COUNT, name, asked, &want, err) != BUS_OK ||
            want.infinite || want.amount % BUS_SLOTS_COUNT_SCALE == 0)
            continue;
        bus_error_set(err, BUS_STATUS_INVALID,
                      "%s is a number of whole devices, not %s (fractions of a device are"
                      " asked as shares, e.g. cuda.shares)",
                      name, json_string_value(asked));
        json_decref(slots);
        slots = NULL;
        break;
    }
    json_decref(limits);
    json_decref(labels);
    self->slots = slots;
    return slots ? BUS_OK : err->status ? err->status : BUS_STATUS_INVALID;
}

static int
s_resolve_shmem(launch_t *self, bus_error_t *err)
{
    json_t *shmem = json_object_get(self->spec.opts, "shmem");
    if (shmem && bus_slots_parse_bytes("shmem", shmem, &self->shmem, err) != BUS_OK)
        return BUS_STATUS_INVALID;
    return BUS_OK;
}

//  Everything the spec names, as the caller may use it.
static int
s_resolve(launch_t *self, bus_error_t *err)
{
    const char *domain = gw_identity_is_superadmin(&self->who) ? NULL : self->who.domain;
    int rc = gw_image_resolve(self->ctx.db, domain, self->spec.image, self->spec.arch,
                              &self->image, err);
    if (rc == BUS_OK)
        rc = gw_sgroup_usable(&self->ctx, self->spec.group ? self->spec.group : "default",
                              self->project_id, &self->usable, err);
    if (rc == BUS_OK)
        rc = s_resolve_scaling_group(self, err);
    if (rc == BUS_OK)
        rc = s_resolve_limits(self, err);
    if (rc == BUS_OK)
        rc = s_resolve_slots(self, err);
    if (rc == BUS_OK)
        rc = s_resolve_shmem(self, err);
    return rc;
}

//  ---------------------------------------------------------------------------
//  encode

//  session.create's records of strings, as bus_jsonlist moves them.
static const bus_jsonlist_field_t s_mount_fields[] = {
    {"name", offsetof(proto_session_mount_t, name)},
    {"id", offsetof(proto_session_mount_t, id)},
    {"host", offsetof(proto_session_mount_t, host)},
    {"host_path", offsetof(proto_session_mount_t, host_path)},
    {"kernel_path", offsetof(proto_session_mount_t, kernel_path)},
    {"permission", offsetof(proto_session_mount_t, permission)},
    {NULL, 0}};
static const bus_jsonlist_field_t s_dotfile_fields[] = {
    {"path", offsetof(proto_session_dotfile_t, path)},
    {"permission", offsetof(proto_session_dotfile_t, permission)},
    {"data", offsetof(proto_session_dotfile_t, data)},
    {NULL, 0}};

//  A JSON array of strings (the spec's dependencies) as a list in the
//  message's arena. -1 when out of memory.
static int
s_encode_strings(const char *text, const char *const **out, size_t *count, void **arena)
{
    json_t *list = text ? json_loads(text, 0, NULL) : NULL;
    size_t size = json_is_array(list) ? json_array_size(list) : 0;
    const char **items = size ? proto_arena_alloc(arena, size * sizeof *items) : NULL;
    *count = 0;
    for (size_t i = 0; items && i < size; i++) {
        const char *item = json_string_value(json_array_get(list, i));
        if (item && !(items[(*count)++] = proto_arena_strdup(arena, item)))
            items = NULL;
    }
    *out = items;
    json_decref(list);
    return size && !items ? -1 : 0;
}

//  session.create for what was resolved (mounts: the resolved folders' JSON
//  array, NULL for none), into self->request.
static int
s_encode(launch_t *self, const char *mounts, bus_error_t *err)
{
    const gw_session_spec_t *spec = &self->spec;
    char kernel_id[GW_UUID_SIZE];
    gw_uuid_new(kernel_id);
    proto_kv_t slot_pairs[PROTO_SESSION_CREATE_REQ_SLOTS_MAX];
    proto_kv_t env_pairs[PROTO_SESSION_CREATE_REQ_ENVIRON_MAX];
    proto_session_create_req_t in;
    proto_session_create_req_init(&in);
    in.session_id = self->session_id;
    in.kernel_id = kernel_id;
    in.name = spec->name;
    in.access_key = self->who.access_key;
    in.user_uuid = self->who.user_uuid;
    in.domain_name = self->who.domain;
    in.group_id = self->project_id;
    in.scaling_group = self->scaling_group;
    in.type = self->type ? self->type : spec->batch ? "BATCH" : "INTERACTIVE";
    in.model_service = self->model_service;
    in.spread = self->spread;
    const char *key;
    json_t *value;
    json_object_foreach(self->slots, key, value)
    {
        if (in.slots_count < PROTO_SESSION_CREATE_REQ_SLOTS_MAX)
            slot_pairs[in.slots_count++] = (proto_kv_t){key, json_string_value(value)};
    }
    in.slots = slot_pairs;
    //  gw_session_spec_parse refused more than the schema's limit.
    json_object_foreach(spec->environ, key, value)
    {
        if (json_is_string(value) &&
            in.environ_count < PROTO_SESSION_CREATE_REQ_ENVIRON_MAX)
            env_pairs[in.environ_count++] = (proto_kv_t){key, json_string_value(value)};
    }
    in.environ = env_pairs;
    in.shmem_bytes = (uint64_t) self->shmem;
    in.startup_command = spec->startup;
    in.tag = spec->tag;
    in.preopen_ports = spec->preopen;
    in.bootstrap_script = spec->bootstrap;
    in.cluster_size = spec->cluster_size;
    in.cluster_mode = spec->multi_node ? "multi-node" : "single-node";
    in.priority = spec->priority;
    in.batch_timeout = spec->batch_timeout_s;
    proto_session_scope_limits_t scopes[GW_LIMITS_SCOPES];
    int scope_count = gw_limits_to_scopes(self->limits, scopes, &in.owned_);
    in.limits = scopes;
    in.limits_count = scope_count > 0 ? (size_t) scope_count : 0;
    in.starts_at = spec->starts_at;
    json_t *folders = mounts ? json_loads(mounts, 0, NULL) : NULL;
    in.mounts = bus_jsonlist_read(folders, sizeof *in.mounts, s_mount_fields, &in.owned_,
                                  &in.mounts_count);
    bool missing = json_array_size(folders) != in.mounts_count;
    json_decref(folders);
    if (scope_count < 0 || missing ||
        s_encode_strings(spec->dependencies, &in.dependencies, &in.dependencies_count,
                         &in.owned_) != 0) {
        proto_session_create_req_clear(&in);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    json_t *dotfiles = NULL;
    int rc = gw_dotfile_resolve(self->ctx.db, self->who.access_key, self->project_id,
                                self->who.domain, mounts, &dotfiles, err);
    in.dotfiles = rc == BUS_OK
                      ? bus_jsonlist_read(dotfiles, sizeof *in.dotfiles, s_dotfile_fields,
                                          &in.owned_, &in.dotfiles_count)
                      : NULL;
    if (rc == BUS_OK && json_array_size(dotfiles) != in.dotfiles_count)
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    json_decref(dotfiles);
    if (rc != BUS_OK) {
        proto_session_create_req_clear(&in);
        return rc;
    }
    in.architecture = json_string_value(json_object_get(self->image, "architecture"));
    //  The canonical reference the agents know: registry/project/name:tag.
    char reference[S_REFERENCE_MAX];
    snprintf(reference, sizeof reference, "%s/%s:%s",
             json_string_value(json_object_get(self->image, "registry")),
             json_string_value(json_object_get(self->image, "name")),
             json_string_value(json_object_get(self->image, "tag")));
    in.image = reference;
    //  A value over the schema's limits is the caller's mistake: INVALID, 400.
    self->request = proto_session_create_req_writer(&in, err);
    proto_session_create_req_clear(&in);
    return self->request ? BUS_OK : err->status;
}

//  ---------------------------------------------------------------------------
//  agents, then create

static void s_on_agents(void *arg, const bus_reply_t *reply);

static bool s_fits(launch_t *self, json_t *agents);
static void s_create(launch_t *self);

//  Asks for the resource group's live agents, unless the list kept from a
//  moment ago says yes (gw_fleet: a no is only said on a fresh list).
static void
s_ask_agents(launch_t *self)
{
    json_t *kept = self->dry_run
                       ? NULL
                       : gw_fleet_get(gw_server_fleet(self->gw), self->scaling_group);
    if (kept && json_array_size(kept) > 0 && s_fits(self, kept)) {
        s_create(self);
        return;
    }
    proto_scheduler_agents_req_t agents;
    proto_scheduler_agents_req_init(&agents);
    agents.scaling_group = self->scaling_group;
    agents.status = "ALIVE";
    bus_error_t err;
    bus_writer_t *writer = proto_scheduler_agents_req_writer(&agents, &err);
    s_send(self, PROTO_SCHEDULER_AGENTS, writer, &err, s_on_agents);
}

//  The amount of slot name in a slot map (JSON strings); 0 when absent or
//  malformed, INT64_MAX when unlimited.
static int64_t
s_amount_of(json_t *map, const char *name)
{
    json_t *text = json_object_get(map, name);
    bus_slots_value_t value;
    bus_error_t ignored;
    if (!text || bus_slots_parse_value(bus_slots_unit(name), name, text, &value,
                                       &ignored) != BUS_OK)
        return 0;
    return value.infinite ? INT64_MAX : value.amount;
}

//  Whether an agent that offers both "<p>.device" and "<p>.shares" (the
//  same devices, whole or as shares: accelerators.cuda_mode both) could
//  ever give kernels each what slots asks of the two together.
static bool
s_pair_fits(json_t *capacity, json_t *slots, uint32_t kernels)
{
    static const char suffix[] = ".device";
    const char *name;
    json_t *value;
    json_object_foreach(slots, name, value)
    {
        size_t length = strlen(name);
        if (!bus_slots_whole(name) || length >= 64)
            continue;
        char shares[80];
        snprintf(shares, sizeof shares, "%.*s.shares", (int) (length - strlen(suffix)),
                 name);
        int64_t devices = s_amount_of(capacity, name) / BUS_SLOTS_COUNT_SCALE;
        int64_t offered = s_amount_of(capacity, shares);
        int64_t device = s_amount_of(slots, name), share = s_amount_of(slots, shares);
        if (devices <= 0 || offered <= 0 || offered == INT64_MAX || share == 0 ||
            device == INT64_MAX || share == INT64_MAX || offered / devices == 0)
            continue;
        __int128 whole = (__int128) kernels *
                         ((device + BUS_SLOTS_COUNT_SCALE - 1) / BUS_SLOTS_COUNT_SCALE);
        __int128 asked = (__int128) kernels * share, per = offered / devices;
        if (whole + (asked + per - 1) / per > devices)
            return false;
    }
    return true;
}

//  Whether one agent's capacity (its available_slots) covers every slot
//  asked for.
static bool
s_agent_fits(json_t *agent, json_t *slots, uint32_t kernels)
{
    json_t *capacity =
        json_loads(json_string_value(json_object_get(agent, "available_slots")), 0, NULL);
    bool fits = json_is_object(capacity);
    const char *name;
    json_t *want_text;
    json_object_foreach(slots, name, want_text)
    {
        bus_slots_unit_t unit = bus_slots_unit(name);
        bus_slots_value_t want, have;
        bus_error_t ignored;
        json_t *offered = json_object_get(capacity, name);
        if (!fits)
            break;
        if (bus_slots_parse_value(unit, name, want_text, &want, &ignored) != BUS_OK ||
            want.amount == 0)
            continue;
        fits = offered &&
               bus_slots_parse_value(unit, name, offered, &have, &ignored) == BUS_OK &&
               (have.infinite || have.amount / kernels >= want.amount);
    }
    fits = fits && s_pair_fits(capacity, slots, kernels);
    json_decref(capacity);
    return fits;
}

//  The first slot asked for more of than any agent of agents has (for
//  each of kernels), named with the most one has, into detail; false when
//  every slot alone fits some agent.
static bool
s_slot_detail(json_t *agents, json_t *slots, uint32_t kernels, char *detail, size_t size)
{
    const char *name;
    json_t *want_text;
    json_object_foreach(slots, name, want_text)
    {
        bus_slots_unit_t unit = bus_slots_unit(name);
        bus_slots_value_t want;
        bus_error_t ignored;
        if (bus_slots_parse_value(unit, name, want_text, &want, &ignored) != BUS_OK ||
            want.amount == 0 || want.infinite)
            continue;
        int64_t most = -1;
        size_t index;
        json_t *agent;
        json_array_foreach(agents, index, agent)
        {
            json_t *capacity = json_loads(
                json_string_value(json_object_get(agent, "available_slots")), 0, NULL);
            if (json_object_get(capacity, name)) {
                int64_t have = s_amount_of(capacity, name);
                have = have == INT64_MAX ? have : have / kernels;
                most = have > most ? have : most;
            }
            json_decref(capacity);
        }
        if (most >= want.amount)
            continue;
        if (most < 0)
            snprintf(detail, size, "%s: no agent of the resource group has it", name);
        else {
            char have[BUS_SLOTS_VALUE_MAX];
            bus_slots_format_value(unit, &(bus_slots_value_t){false, most}, have);
            snprintf(detail, size,
                     "%s: asked %s%s, no agent of the resource group has more than %s",
                     name, json_string_value(want_text), kernels > 1 ? " per kernel" : "",
                     have);
        }
        return true;
    }
    return false;
}

//  Why no agent of the group could ever hold the session, into detail.
static void
s_no_agent_detail(
    launch_t *self, json_t *agents, size_t needed, char *detail, size_t size)
{
    uint32_t cluster_size = (uint32_t) self->spec.cluster_size;
    if (s_slot_detail(agents, self->slots, self->spec.multi_node ? 1 : cluster_size,
                      detail, size))
        return;
    char *asked = json_dumps(self->slots, JSON_COMPACT | JSON_SORT_KEYS);
    if (needed > 1 || cluster_size > 1)
        snprintf(detail, size,
                 "the resource group has no %zu agent%s that can ever offer %s to "
                 "each of %u kernels (see the agents' available_slots)",
                 needed, needed == 1 ? "" : "s", asked ? asked : "the slots asked for",
                 cluster_size);
    else
        snprintf(detail, size,
                 "no agent of the resource group can ever offer %s (see the agents' "
                 "available_slots)",
                 asked ? asked : "the slots asked for");
    free(asked);
}

static void s_on_created(void *arg, const bus_reply_t *reply);

//  Whether the agents (gw_agent_from_reply's) could ever hold the session:
//  with none, agents may yet come and the session waits.
static bool
s_fits(launch_t *self, json_t *agents)
{
    //  A cluster in one node needs an agent for all its kernels; across
    //  nodes, as many agents as it has kernels.
    uint32_t cluster_size = (uint32_t) self->spec.cluster_size;
    size_t needed = self->spec.multi_node ? cluster_size : 1, able = 0;
    size_t index;
    json_t *agent;
    json_array_foreach(agents, index, agent) able +=
        s_agent_fits(agent, self->slots, self->spec.multi_node ? 1 : cluster_size);
    return !json_is_array(agents) || json_array_size(agents) == 0 || able >= needed;
}

//  The resource group's live agents: with none, agents may yet come and the
//  session waits; with some of which none fits, the create is refused.
static void
s_on_agents(void *arg, const bus_reply_t *reply)
{
    launch_t *self = arg;
    json_t *agents = gw_agent_from_reply(reply);
    gw_fleet_put(gw_server_fleet(self->gw), self->scaling_group, agents);
    if (!s_fits(self, agents)) {
        uint32_t cluster_size = (uint32_t) self->spec.cluster_size;
        char detail[512];
        s_no_agent_detail(self, agents, self->spec.multi_node ? cluster_size : 1, detail,
                          sizeof detail);
        json_decref(agents);
        s_refused(self, "invalid-api-params", detail);
        return;
    }
    json_decref(agents);
    if (self->dry_run)
        s_finish(self, NULL, BUS_OK, NULL);
    else
        s_create(self);
}

//  Sends session.create, written by the resolve step.
static void
s_create(launch_t *self)
{
    bus_writer_t *writer = self->request;
    bus_error_t err = {BUS_STATUS_INTERNAL, "the create request was not written"};
    self->request = NULL;
    s_send(self, PROTO_SESSION_CREATE, writer, &err, s_on_created);
}

//  ---------------------------------------------------------------------------
//  create

static void
s_on_created(void *arg, const bus_reply_t *reply)
{
    launch_t *self = arg;
    s_finish(self, reply, reply->status, reply->detail);
}

//  ---------------------------------------------------------------------------
//  The steps, in order

//  Once the folders are resolved (mounts: kernel.create's JSON, NULL for
//  none), the rest.
static void
s_on_mounts(void *arg, const char *mounts, const char *slug, const char *detail)
{
    launch_t *self = arg;
    if (slug) {
        s_refused(self, slug, detail);
        return;
    }
    bus_error_t err = {0};
    int rc = gw_session_spec_parse(self->params, &self->spec, &err);
    self->spec_read = true;
    if (rc != BUS_OK) {
        s_refused(self, "invalid-api-params", err.detail);
        return;
    }
    if (s_resolve(self, &err) != BUS_OK || s_encode(self, mounts, &err) != BUS_OK) {
        s_refuse(self, &err);
        return;
    }
    s_ask_agents(self);
}

void
gw_session_launch(gw_server_t *gw,
                  const gw_session_launch_t *in,
                  gw_session_launched_fn *fn,
                  void *arg)
{
    launch_t *self = calloc(1, sizeof *self);
    if (!self || gw_uuid_new(self->session_id) != 0) {
        free(self);
        gw_session_launched_t result = {.status = BUS_STATUS_INTERNAL,
                                        .detail = "out of memory"};
        fn(arg, &result);
        return;
    }
    self->gw = gw;
    self->who = *in->who;
    self->ctx = (gw_ctx_t){.db = gw_server_db(gw),
                           .node = gw_server_node(gw),
                           .config = gw_server_config(gw),
                           .identities = gw_server_identities(gw),
                           .who = &self->who};
    self->params = json_incref(in->params);
    self->extra_mounts = json_incref(in->extra_mounts);
    self->type = in->type;
    self->model_service = in->model_service ? strdup(in->model_service) : NULL;
    self->spread = in->spread ? strdup(in->spread) : NULL;
    self->dry_run = in->dry_run;
    self->fn = fn;
    self->arg = arg;
    gw_vfolder_mounts_resolve(gw, &self->ctx, json_object_get(in->params, "config"),
                              in->extra_mounts, s_on_mounts, self);
}
