/*  =========================================================================
    gw_session_create - POST /session: create a session and wait for it

    A create is a sequence of steps, each a function below in the order it
    runs:
        spec       the body, checked (gw_session_spec)
        resolve    the image against the domain's registries, the resource
                   group the project may use, the limits the scheduler
                   holds the session to, the slots against the image's
                   minimums, the shared memory
        encode     session.create, written once
        agents     scheduler.agents: when the resource group has live agents
                   and none could ever hold the session, say so now rather
                   than leave it PENDING for ever
        create     session.create (a name taken with reuseIfExists: the
                   owner's live session of that name is the answer)
        wait       until the session runs, ends, or maxWaitSeconds pass:
                   each of its session_* lifecycle events (gw_events) makes
                   the gateway ask session.get at once, and so does a timer
                   every S_POLL_MS in case an event is late; enqueueOnly
                   answers at once with PENDING
    Every step is a callback: nothing here blocks the loop, and a client
    that goes away stops the wait. The folders to mount are resolved before
    the first step (gw_vfolder_mounts).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define S_POLL_MS       1000 //  a safety net: lifecycle events wake the wait
#define S_REFERENCE_MAX 600  //  registry/project/name:tag

//  One create on its way through the scheduler.
typedef struct _gw_create_t create_t;
struct _gw_create_t {
    create_t *prev, *next; //  the gateway's waiting creates, while it waits
    bool linked;
    gw_request_t *r;
    gw_server_t *gw;
    gw_session_spec_t spec;
    char session_id[GW_UUID_SIZE];
    //  resolve: what the spec names, as this caller may use it
    json_t *image;             //  the catalogue's image
    json_t *usable;            //  the resource groups the project may use
    const char *scaling_group; //  one of usable, borrowed
    char project_id[GW_UUID_SIZE];
    char *limits;  //  JSON text for the scheduler
    json_t *slots; //  slot -> decimal string
    int64_t shmem;
    //  encode: session.create, until the agents' capacities are checked
    bus_writer_t *request;
    //  create and wait
    bool created;
    int64_t deadline_ms; //  when to stop waiting (0: never, -1: answer at once)
    struct event *timer;
    gw_events_listener_t *listener;
    bool polling;    //  a session.get in flight
    bool poll_again; //  an event came meanwhile: ask again at once
    //  What the answer needs besides the status, from session.create's
    //  reply, so that the event that settles the session answers at once.
    char *name, *image_ref, *preopen_ports;
};

static void
s_create_destroy(create_t **self_p)
{
    create_t *self = *self_p;
    if (!self)
        return;
    if (self->linked) {
        create_t **head = gw_server_creates(self->gw);
        if (self->prev)
            self->prev->next = self->next;
        else
            *head = self->next;
        if (self->next)
            self->next->prev = self->prev;
    }
    if (self->timer)
        event_free(self->timer);
    if (self->listener)
        gw_events_unlisten(gw_server_events(self->gw), &self->listener);
    gw_session_spec_clear(&self->spec);
    json_decref(self->image);
    json_decref(self->usable);
    free(self->limits);
    json_decref(self->slots);
    bus_writer_destroy(&self->request);
    free(self->name);
    free(self->image_ref);
    free(self->preopen_ports);
    free(self);
    *self_p = NULL;
}

static void s_poll(evutil_socket_t fd, short what, void *arg);

static create_t *
s_create_new(gw_request_t *r)
{
    create_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->r = r;
    self->gw = r->gw;
    if (gw_uuid_new(self->session_id) != 0)
        s_create_destroy(&self);
    return self;
}

//  Answers a failure of a step and frees self: a check that failed is the
//  caller's (400 invalid-api-params), anything else the status's problem.
static void
s_refuse(create_t *self, const bus_error_t *err)
{
    if (err->status == BUS_STATUS_INVALID)
        gw_reply_problem(self->r, "invalid-api-params", err->detail);
    else
        gw_reply_status(self->r, err->status, err->detail);
    s_create_destroy(&self);
}

//  Answers a failure of a call and frees self.
static void
s_fail(create_t *self, int status, const char *detail)
{
    gw_reply_status(self->r, status,
                    detail && *detail ? detail : "the scheduler did not answer");
    s_create_destroy(&self);
}

//  Sends a call for self; answers and frees self when it could not leave,
//  with err when its request could not be written (writer NULL).
static void
s_send(create_t *self,
       const char *method,
       bus_writer_t *writer,
       const bus_error_t *err,
       bus_reply_fn *fn)
{
    if (!writer)
        s_fail(self, err->status, err->detail);
    else if (!gw_session_call(self->r, gw_session_scheduler(self->r), method, writer, 0,
                              fn, self))
        s_fail(self, BUS_STATUS_UNAVAILABLE, "the scheduler is not reachable");
}

//  ---------------------------------------------------------------------------
//  resolve

//  The resource group asked for, if the project may use it; else the first
//  one it may use.
static int
s_resolve_scaling_group(create_t *self, bus_error_t *err)
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
s_resolve_limits(create_t *self, bus_error_t *err)
{
    json_t *object = gw_limits_of(gw_request_ctx(self->r), self->project_id, err);
    self->limits = object ? json_dumps(object, JSON_COMPACT) : NULL;
    json_decref(object);
    return self->limits  ? BUS_OK
           : err->status ? err->status
                         : bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
}

//  The slots the session asks for: the client's, with the image's minimums
//  for cpu and mem when it gave none, and never under them.
static int
s_resolve_slots(create_t *self, bus_error_t *err)
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
s_resolve_shmem(create_t *self, bus_error_t *err)
{
    json_t *shmem = json_object_get(self->spec.opts, "shmem");
    if (shmem && bus_slots_parse_bytes("shmem", shmem, &self->shmem, err) != BUS_OK)
        return BUS_STATUS_INVALID;
    return BUS_OK;
}

//  Everything the spec names, as the caller may use it.
static int
s_resolve(create_t *self, bus_error_t *err)
{
    gw_request_t *r = self->r;
    const char *domain = gw_identity_is_superadmin(&r->who) ? NULL : r->who.domain;
    int rc = gw_image_resolve(gw_request_ctx(r)->db, domain, self->spec.image,
                              self->spec.arch, &self->image, err);
    if (rc == BUS_OK)
        rc = gw_sgroup_usable(gw_request_ctx(r),
                              self->spec.group ? self->spec.group : "default",
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

//  session.create for what was resolved (mounts: kernel.create's JSON, NULL
//  for none), into self->request.
static int
s_encode(create_t *self, const char *mounts, bus_error_t *err)
{
    const gw_session_spec_t *spec = &self->spec;
    gw_request_t *r = self->r;
    char kernel_id[GW_UUID_SIZE];
    gw_uuid_new(kernel_id);
    proto_kv_t slot_pairs[PROTO_SESSION_CREATE_REQ_SLOTS_MAX];
    proto_kv_t env_pairs[PROTO_SESSION_CREATE_REQ_ENVIRON_MAX];
    proto_session_create_req_t in;
    proto_session_create_req_init(&in);
    in.session_id = self->session_id;
    in.kernel_id = kernel_id;
    in.name = spec->name;
    in.access_key = r->who.access_key;
    in.user_uuid = r->who.user_uuid;
    in.domain_name = r->who.domain;
    in.group_id = self->project_id;
    in.scaling_group = self->scaling_group;
    in.type = spec->batch ? "BATCH" : "INTERACTIVE";
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
    in.limits = self->limits;
    in.starts_at = spec->starts_at;
    in.dependencies = spec->dependencies;
    in.mounts = mounts;
    char *dotfiles = NULL;
    int rc = gw_dotfile_resolve(gw_server_db(r->gw), r->who.access_key, self->project_id,
                                r->who.domain, mounts, &dotfiles, err);
    if (rc != BUS_OK)
        return rc;
    in.dotfiles = dotfiles;
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
    free(dotfiles);
    return self->request ? BUS_OK : err->status;
}

//  ---------------------------------------------------------------------------
//  agents, then create

static void s_on_agents(void *arg, const bus_reply_t *reply);

//  Asks for the resource group's live agents.
static void
s_ask_agents(create_t *self)
{
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
    create_t *self, json_t *agents, size_t needed, char *detail, size_t size)
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

//  The resource group's live agents: with none, agents may yet come and the
//  session waits; with some of which none fits, the create is refused.
static void
s_on_agents(void *arg, const bus_reply_t *reply)
{
    create_t *self = arg;
    json_t *agents = gw_agent_from_reply(reply);
    //  A cluster in one node needs an agent for all its kernels; across
    //  nodes, as many agents as it has kernels.
    uint32_t cluster_size = (uint32_t) self->spec.cluster_size;
    size_t needed = self->spec.multi_node ? cluster_size : 1, able = 0;
    size_t index;
    json_t *agent;
    json_array_foreach(agents, index, agent) able +=
        s_agent_fits(agent, self->slots, self->spec.multi_node ? 1 : cluster_size);
    bool fits = !json_is_array(agents) || json_array_size(agents) == 0 || able >= needed;
    if (!fits) {
        char detail[512];
        s_no_agent_detail(self, agents, needed, detail, sizeof detail);
        json_decref(agents);
        gw_reply_problem(self->r, "invalid-api-params", detail);
        s_create_destroy(&self);
        return;
    }
    json_decref(agents);
    bus_writer_t *writer = self->request; //  written by the resolve step
    bus_error_t err = {BUS_STATUS_INTERNAL, "the create request was not written"};
    self->request = NULL;
    s_send(self, PROTO_SESSION_CREATE, writer, &err, s_on_created);
}

//  ---------------------------------------------------------------------------
//  wait

static const char *const s_settled[] = {"RUNNING", "TERMINATED", "CANCELLED", "ERROR",
                                        NULL};

static bool
s_is_settled(const char *status)
{
    for (size_t i = 0; status && s_settled[i]; i++)
        if (strcmp(status, s_settled[i]) == 0)
            return true;
    return false;
}

//  The creation answer (reference §3.2); frees self.
static void
s_reply_created(create_t *self,
                const char *session_id,
                const char *name,
                const char *image,
                const char *preopen_ports,
                const char *status)
{
    gw_reply_json(
        self->r, 201,
        json_pack("{s:s, s:s, s:s, s:o, s:b}", "sessionId", session_id, "sessionName",
                  name, "status", status, "servicePorts",
                  gw_apps_of_session(gw_request_ctx(self->r)->db, image, preopen_ports),
                  "created", self->created));
    s_create_destroy(&self);
}

static void
s_on_polled(void *arg, const bus_reply_t *reply)
{
    create_t *self = arg;
    self->polling = false;
    proto_session_info_t info;
    proto_session_info_init(&info);
    bus_error_t err = {0};
    if (gw_session_info_decode(reply, &info, &err) != BUS_OK) {
        proto_session_info_clear(&info);
        s_fail(self, err.status, err.detail);
        return;
    }
    bool timed_out = self->deadline_ms > 0 && bus_clock_mono_ms() >= self->deadline_ms;
    bool settled = s_is_settled(info.status);
    if (settled || !self->r->req || timed_out || self->deadline_ms < 0)
        s_reply_created(self, info.session_id, info.name, info.image, info.preopen_ports,
                        timed_out && !settled ? "TIMEOUT" : info.status);
    else {
        struct timeval tv = {self->poll_again ? 0 : S_POLL_MS / 1000,
                             self->poll_again ? 0 : (S_POLL_MS % 1000) * 1000};
        evtimer_add(self->timer, &tv);
    }
    proto_session_info_clear(&info);
}

//  Asks the scheduler how the session is now (a look already in flight is
//  asked again when it comes back).
static void
s_poll(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    create_t *self = arg;
    if (self->polling) {
        self->poll_again = true;
        return;
    }
    proto_session_get_req_t in;
    proto_session_get_req_init(&in);
    in.session_id = self->session_id;
    bus_error_t err;
    bus_writer_t *writer = proto_session_get_req_writer(&in, &err);
    self->polling = true;
    self->poll_again = false;
    s_send(self, PROTO_SESSION_GET, writer, &err, s_on_polled);
}

//  A step of the awaited session's life. One that settles it (RUNNING, or an
//  end) is the answer, unless a look is in flight; any other makes the wait
//  look now rather than at the next poll.
static void
s_on_lifecycle(const proto_session_lifecycle_t *event, void *arg)
{
    create_t *self = arg;
    if (strcmp(event->session_id, self->session_id) != 0 ||
        strncmp(event->event, "session_", 8) != 0)
        return;
    if (s_is_settled(event->status) && !self->polling && self->name && self->image_ref) {
        s_reply_created(self, self->session_id, self->name, self->image_ref,
                        self->preopen_ports, event->status);
        return;
    }
    struct timeval now = {0, 0};
    evtimer_add(self->timer, &now);
}

//  Waits for the session created (info) to settle.
static void
s_wait(create_t *self, const proto_session_info_t *info)
{
    self->name = info->name ? strdup(info->name) : NULL;
    self->image_ref = info->image ? strdup(info->image) : NULL;
    self->preopen_ports = info->preopen_ports ? strdup(info->preopen_ports) : NULL;
    self->listener = gw_events_listen(gw_server_events(self->gw), s_on_lifecycle, self);
    struct timeval tv = {S_POLL_MS / 1000, (S_POLL_MS % 1000) * 1000};
    evtimer_add(self->timer, &tv);
    //  Known to the gateway from here on, so that a stop answers it.
    create_t **head = gw_server_creates(self->gw);
    self->next = *head;
    if (self->next)
        self->next->prev = self;
    *head = self;
    self->linked = true;
}

//  The name is taken and the client said reuseIfExists: the owner's live
//  session of that name answers, as it is now.
static void
s_reuse(create_t *self)
{
    json_t *params = self->r->params;
    proto_session_get_req_t in;
    proto_session_get_req_init(&in);
    in.access_key = self->r->who.access_key;
    in.name = json_string_value(json_object_get(params, "name"))
                  ? json_string_value(json_object_get(params, "name"))
                  : json_string_value(json_object_get(params, "clientSessionToken"));
    self->deadline_ms = -1; //  answer at once
    bus_error_t err;
    bus_writer_t *writer = proto_session_get_req_writer(&in, &err);
    s_send(self, PROTO_SESSION_GET, writer, &err, s_on_polled);
}

static void
s_on_created(void *arg, const bus_reply_t *reply)
{
    create_t *self = arg;
    proto_session_info_t info;
    proto_session_info_init(&info);
    bus_error_t err = {0};
    if (gw_session_info_decode(reply, &info, &err) != BUS_OK) {
        proto_session_info_clear(&info);
        if (err.status == BUS_STATUS_CONFLICT && self->spec.reuse) {
            s_reuse(self);
            return;
        }
        if (err.status == BUS_STATUS_CONFLICT)
            gw_reply_problem(self->r, "session-already-exists", err.detail);
        else
            gw_reply_status(self->r, err.status, err.detail);
        s_create_destroy(&self);
        return;
    }
    self->created = true;
    if (self->deadline_ms < 0) //  enqueueOnly
        s_reply_created(self, info.session_id, info.name, info.image, info.preopen_ports,
                        info.status);
    else
        s_wait(self, &info);
    proto_session_info_clear(&info);
}

//  ---------------------------------------------------------------------------
//  The steps, in order

//  Creates the session once its folders are resolved (mounts: kernel.create's
//  JSON, NULL for none).
static void
s_create(gw_request_t *r, const char *mounts)
{
    create_t *self = s_create_new(r);
    if (!self) {
        gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
        return;
    }
    bus_error_t err = {0};
    if (gw_session_spec_parse(r->params, &self->spec, &err) != BUS_OK) {
        gw_reply_problem(r, "invalid-api-params", err.detail);
        s_create_destroy(&self);
        return;
    }
    if (s_resolve(self, &err) != BUS_OK || s_encode(self, mounts, &err) != BUS_OK) {
        s_refuse(self, &err);
        return;
    }
    self->timer = evtimer_new(bus_node_base(gw_server_node(r->gw)), s_poll, self);
    if (self->spec.enqueue_only)
        self->deadline_ms = -1;
    else if (self->spec.max_wait_s > 0)
        self->deadline_ms = bus_clock_mono_ms() + self->spec.max_wait_s * 1000;
    s_ask_agents(self);
}

static void
s_on_mounts(void *arg, const char *mounts, const char *slug, const char *detail)
{
    gw_request_t *r = arg;
    if (slug)
        gw_reply_problem(r, slug, detail);
    else
        s_create(r, mounts);
}

void
gw_session_handle_create(gw_request_t *r)
{
    gw_vfolder_mounts_resolve(r, json_object_get(r->params, "config"), s_on_mounts, r);
}

size_t
gw_session_create_close_all(gw_server_t *gw)
{
    size_t answered = 0;
    //  A create whose session.get is out is answered by that reply, which
    //  the node's stop completes; the others wait only on a timer and events
    //  that will not come.
    create_t *self = *gw_server_creates(gw);
    while (self) {
        create_t *next = self->next;
        if (!self->polling) {
            gw_reply_problem(self->r, "service-unavailable", "the gateway is stopping");
            s_create_destroy(&self);
            answered++;
        }
        self = next;
    }
    return answered;
}
