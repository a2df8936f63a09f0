/*  =========================================================================
    gw_session - the /session routes: create, info, destroy, execute

    The gateway checks what the client sent (name rules, image resolution
    against the domain's registries, resource group and slots against the
    image's minimums), then asks the scheduler over the bus (session.* in
    proto/session.yaml). POST /session waits for the session to run, to
    end, or for maxWaitSeconds: each of its session_* lifecycle events
    (gw_events) makes the gateway ask session.get at once, and so does a
    timer every WAIT_POLL_MS in case an event is late; enqueueOnly answers
    at once with PENDING. Execute goes to
    the session's agent directly (kernel.execute), which answers with
    Backend.AI's result object (reference §3.4). Every step is a callback:
    nothing here blocks the loop, and a client that goes away stops the wait.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define WAIT_POLL_MS       1000 //  a safety net: lifecycle events wake the wait
#define EXEC_WAIT_MS       5000
#define EXEC_TIMEOUT       (EXEC_WAIT_MS + 10000)
#define RESTART_TIMEOUT_MS 30000 //  the grace period, and the new container's start
#define SESSION_NAME_MIN   4
#define SESSION_NAME_MAX   64

//  One request's way through the scheduler and the agent.
typedef struct {
    gw_request_t *r;
    struct event *timer;
    int64_t deadline_ms; //  POST /session: when to stop waiting (0: never)
    bool created;
    bool reuse; //  reuseIfExists: a live session of that name is the answer
    char session_id[GW_UUID_SIZE];
    char kernel_id[GW_UUID_SIZE]; //  DELETE: whose last statistics to answer with
    enum {
        OP_CREATE,
        OP_INFO,
        OP_DESTROY,
        OP_RENAME,
        OP_RESTART,
        OP_EXECUTE,
        OP_LOGS,
        OP_INTERRUPT,
        OP_FIND
    } op;
    gw_session_found_fn *found; //  OP_FIND: who gets the session
    void *found_arg;
    //  POST /session's wait: a session.get in flight, and whether an event
    //  came meanwhile (then ask again at once).
    gw_server_t *gw;
    gw_events_listener_t *listener;
    bool polling;
    bool poll_again;
    //  POST /session: what the creation answer needs besides the status,
    //  from session.create's reply, so that the event that settles the
    //  session answers at once
    char *name, *image, *preopen_ports;
    //  POST /session before session.create: the request, encoded, and the
    //  slots it asks for, until the agents' capacities are checked.
    bus_writer_t *create;
    json_t *slots;
    uint32_t cluster_size; //  kernels, each asking for slots
    bool multi_node;       //  each on an agent of its own
} op_t;

static void
s_op_free(op_t *op)
{
    if (op->timer)
        event_free(op->timer);
    if (op->listener)
        gw_events_unlisten(op->gw, &op->listener);
    bus_writer_destroy(&op->create);
    json_decref(op->slots);
    free(op->name);
    free(op->image);
    free(op->preopen_ports);
    free(op);
}

//  Replies with err's status and frees op.
static void
s_fail(op_t *op, int status, const char *detail)
{
    gw_reply_status(op->r, status,
                    detail && *detail ? detail : "the scheduler did not answer");
    s_op_free(op);
}

//  Sends a session.* or kernel.* call; false when it could not leave.
static bool
s_call(op_t *op,
       const char *endpoint,
       const char *method,
       bus_writer_t *writer,
       int timeout_ms,
       bus_reply_fn *fn)
{
    bool sent = endpoint &&
                bus_node_call(op->r->gw->node, endpoint, method, bus_writer_data(writer),
                              bus_writer_size(writer), timeout_ms, fn, op) != 0;
    bus_writer_destroy(&writer);
    return sent;
}

static const char *
s_scheduler(gw_request_t *r)
{
    return bus_node_find(r->gw->node, "scheduler");
}

//  Decodes a session reply into info; BUS_OK or the failure.
static int
s_decode(const bus_reply_t *reply, proto_session_info_t *info, bus_error_t *err)
{
    if (reply->status != BUS_OK)
        return bus_error_set(err, reply->status, "%s", reply->detail);
    proto_session_create_rep_t rep;
    int rc = proto_session_create_rep_decode(&rep, reply->body, reply->body_size, err);
    if (rc == BUS_OK) {
        *info = rep.session;
        memset(&rep.session, 0, sizeof rep.session);
        proto_session_create_rep_clear(&rep);
    }
    return rc;
}

//  True when the caller may act on the session: its owner, an admin of its
//  domain, or a superadmin.
static bool
s_may_use(gw_request_t *r, const proto_session_info_t *info)
{
    return (info->access_key && strcmp(info->access_key, r->who.access_key) == 0) ||
           gw_identity_admins_domain(&r->who, info->domain_name ? info->domain_name : "");
}

static bool
s_status_is(const proto_session_info_t *info, const char *const *statuses)
{
    for (; *statuses; statuses++)
        if (info->status && strcmp(info->status, *statuses) == 0)
            return true;
    return false;
}

//  ---------------------------------------------------------------------------
//  POST /session

#define PREOPEN_MAX 16

//  A port as a client sends it: a number, or a decimal string (the 22.03
//  client's --preopen sends "8080"). -1 for anything else.
static json_int_t
s_port_value(json_t *item)
{
    if (json_is_integer(item))
        return json_integer_value(item);
    const char *text = json_string_value(item);
    if (!text || !*text || strlen(text) > 5 || text[strspn(text, "0123456789")])
        return -1;
    return (json_int_t) strtol(text, NULL, 10);
}

//  config.preopen_ports as a JSON array text into text: ints 1025..65534,
//  not the runner's own ports (2000-2003, 2200, 7681), at most PREOPEN_MAX,
//  no duplicates; null or absent is none. INVALID with err otherwise.
static int
s_preopen_ports(json_t *ports, char *text, size_t size, bus_error_t *err)
{
    snprintf(text, size, "[]");
    if (!ports || json_is_null(ports))
        return BUS_OK;
    if (!json_is_array(ports) || json_array_size(ports) > PREOPEN_MAX)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "preopen_ports: a list of at most %d ports", PREOPEN_MAX);
    size_t used = 0;
    for (size_t i = 0; i < json_array_size(ports); i++) {
        json_int_t port = s_port_value(json_array_get(ports, i));
        bool reserved = (port >= 2000 && port <= 2003) || port == 2200 || port == 7681;
        if (port < 1025 || port > 65534 || reserved)
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "preopen_ports: ports are 1025..65534, not 2000-2003, "
                                 "2200 or 7681");
        for (size_t j = 0; j < i; j++)
            if (s_port_value(json_array_get(ports, j)) == port)
                return bus_error_set(
                    err, BUS_STATUS_INVALID,
                    "preopen_ports: port %" JSON_INTEGER_FORMAT " is listed twice", port);
        used += (size_t) snprintf(text + used, size - used, "%s%" JSON_INTEGER_FORMAT,
                                  i ? "," : "[", port);
    }
    if (json_array_size(ports) > 0)
        snprintf(text + used, size - used, "]");
    return BUS_OK;
}

static void s_on_polled(void *arg, const bus_reply_t *reply);

static void
s_poll(evutil_socket_t fd, short what, void *arg)
{
    (void) fd;
    (void) what;
    op_t *op = arg;
    if (op->polling) {
        op->poll_again = true;
        return;
    }
    proto_session_get_req_t in;
    proto_session_get_req_init(&in);
    in.session_id = op->session_id;
    bus_writer_t *writer = bus_writer_new();
    proto_session_get_req_write(&in, writer);
    op->polling = true;
    op->poll_again = false;
    if (!s_call(op, s_scheduler(op->r), PROTO_SESSION_GET, writer, 0, s_on_polled))
        s_fail(op, BUS_STATUS_UNAVAILABLE, "the scheduler is not reachable");
}

static const char *const s_settled[] = {"RUNNING", "TERMINATED", "CANCELLED", "ERROR",
                                        NULL};

//  The creation answer (reference §3.2).
static void
s_reply_created(op_t *op,
                const char *session_id,
                const char *name,
                const char *image,
                const char *preopen_ports,
                const char *status)
{
    gw_reply_json(op->r, 201,
                  json_pack("{s:s, s:s, s:s, s:o, s:b}", "sessionId", session_id,
                            "sessionName", name, "status", status, "servicePorts",
                            gw_apps_of_session(op->gw, image, preopen_ports), "created",
                            op->created));
    s_op_free(op);
}

//  A step of the awaited session's life. One that settles it (RUNNING, or an
//  end) is the answer, unless a look is in flight; any other makes the wait
//  look now rather than at the next poll.
static void
s_on_lifecycle(const proto_session_lifecycle_t *event, void *arg)
{
    op_t *op = arg;
    if (strcmp(event->session_id, op->session_id) != 0 ||
        strncmp(event->event, "session_", 8) != 0)
        return;
    bool settled = false;
    for (size_t i = 0; event->status && s_settled[i]; i++)
        settled = settled || strcmp(event->status, s_settled[i]) == 0;
    if (settled && !op->polling && op->name && op->image) {
        s_reply_created(op, op->session_id, op->name, op->image, op->preopen_ports,
                        event->status);
        return;
    }
    struct timeval now = {0, 0};
    evtimer_add(op->timer, &now);
}

static void
s_on_polled(void *arg, const bus_reply_t *reply)
{
    op_t *op = arg;
    op->polling = false;
    proto_session_info_t info;
    proto_session_info_init(&info);
    bus_error_t err = {0};
    if (s_decode(reply, &info, &err) != BUS_OK) {
        proto_session_info_clear(&info);
        s_fail(op, err.status, err.detail);
        return;
    }
    bool timed_out = op->deadline_ms > 0 && bus_clock_mono_ms() >= op->deadline_ms;
    if (s_status_is(&info, s_settled) || !op->r->req || timed_out || op->deadline_ms < 0)
        s_reply_created(op, info.session_id, info.name, info.image, info.preopen_ports,
                        timed_out && !s_status_is(&info, s_settled) ? "TIMEOUT"
                                                                    : info.status);
    else {
        struct timeval tv = {op->poll_again ? 0 : WAIT_POLL_MS / 1000,
                             op->poll_again ? 0 : (WAIT_POLL_MS % 1000) * 1000};
        evtimer_add(op->timer, &tv);
    }
    proto_session_info_clear(&info);
}

static void
s_on_created(void *arg, const bus_reply_t *reply)
{
    op_t *op = arg;
    proto_session_info_t info;
    proto_session_info_init(&info);
    bus_error_t err = {0};
    if (s_decode(reply, &info, &err) != BUS_OK) {
        proto_session_info_clear(&info);
        if (err.status == BUS_STATUS_CONFLICT && op->reuse) {
            //  The owner's live session of that name answers, as it is now.
            proto_session_get_req_t in;
            proto_session_get_req_init(&in);
            in.access_key = op->r->who.access_key;
            in.name =
                json_string_value(json_object_get(op->r->params, "name"))
                    ? (char *) json_string_value(json_object_get(op->r->params, "name"))
                    : (char *) json_string_value(
                          json_object_get(op->r->params, "clientSessionToken"));
            op->deadline_ms = -1; //  answer at once
            bus_writer_t *writer = bus_writer_new();
            proto_session_get_req_write(&in, writer);
            if (!s_call(op, s_scheduler(op->r), PROTO_SESSION_GET, writer, 0,
                        s_on_polled))
                s_fail(op, BUS_STATUS_UNAVAILABLE, "the scheduler is not reachable");
            return;
        }
        if (err.status == BUS_STATUS_CONFLICT)
            gw_reply_problem(op->r, "session-already-exists", err.detail);
        else
            gw_reply_status(op->r, err.status, err.detail);
        s_op_free(op);
        return;
    }
    op->created = true;
    if (op->deadline_ms < 0) //  enqueueOnly
        s_reply_created(op, info.session_id, info.name, info.image, info.preopen_ports,
                        info.status);
    else {
        op->name = info.name ? strdup(info.name) : NULL;
        op->image = info.image ? strdup(info.image) : NULL;
        op->preopen_ports = info.preopen_ports ? strdup(info.preopen_ports) : NULL;
        op->listener = gw_events_listen(op->gw, s_on_lifecycle, op);
        struct timeval tv = {WAIT_POLL_MS / 1000, (WAIT_POLL_MS % 1000) * 1000};
        evtimer_add(op->timer, &tv);
    }
    proto_session_info_clear(&info);
}

//  The first of keys present in object (aliases, as §3.1 lists them).
static json_t *
s_param(json_t *object, const char *const *keys)
{
    for (; *keys; keys++) {
        json_t *value = json_object_get(object, *keys);
        if (value && !json_is_null(value))
            return value;
    }
    return NULL;
}

static bool
s_valid_name(const char *name)
{
    size_t n = strlen(name);
    if (n < SESSION_NAME_MIN || n > SESSION_NAME_MAX)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char) name[i];
        bool word = isalnum(c) || c == '_';
        if (!word && ((i == 0 || i == n - 1) || (c != '.' && c != '-')))
            return false;
    }
    return true;
}

//  The slots the session asks for: the client's, with the image's minimums
//  for cpu and mem when it gave none, and never under them. NULL with err.
static json_t *
s_slots(json_t *resources, const json_t *labels, bus_error_t *err)
{
    json_t *slots = NULL;
    if (resources && bus_slots_parse(resources, &slots, err) != BUS_OK)
        return NULL;
    if (!slots)
        slots = json_object();
    json_t *limits = gw_image_resources(labels);
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
            json_decref(limits);
            return NULL;
        }
    }
    json_decref(limits);
    return slots;
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
    json_decref(capacity);
    return fits;
}

//  The resource group's live agents: when there are some and none could
//  ever hold the session, say so now rather than leave it PENDING for ever
//  (with none, agents may yet come: it waits).
static void
s_on_agents(void *arg, const bus_reply_t *reply)
{
    op_t *op = arg;
    json_t *agents = gw_agent_from_reply(reply);
    //  A cluster in one node needs an agent for all its kernels; across
    //  nodes, as many agents as it has kernels.
    size_t needed = op->multi_node ? op->cluster_size : 1, able = 0;
    size_t index;
    json_t *agent;
    json_array_foreach(agents, index, agent) able +=
        s_agent_fits(agent, op->slots, op->multi_node ? 1 : op->cluster_size);
    bool fits = !json_is_array(agents) || json_array_size(agents) == 0 || able >= needed;
    if (!fits) {
        char *asked = json_dumps(op->slots, JSON_COMPACT | JSON_SORT_KEYS);
        char detail[512];
        if (needed > 1 || op->cluster_size > 1)
            snprintf(detail, sizeof detail,
                     "the resource group has no %zu agent%s that can ever offer %s to "
                     "each of %u kernels (see the agents' available_slots)",
                     needed, needed == 1 ? "" : "s",
                     asked ? asked : "the slots asked for", op->cluster_size);
        else
            snprintf(detail, sizeof detail,
                     "no agent of the resource group can ever offer %s (see the agents' "
                     "available_slots)",
                     asked ? asked : "the slots asked for");
        free(asked);
        json_decref(agents);
        gw_reply_problem(op->r, "invalid-api-params", detail);
        s_op_free(op);
        return;
    }
    json_decref(agents);
    bus_writer_t *writer = op->create;
    op->create = NULL;
    if (!s_call(op, s_scheduler(op->r), PROTO_SESSION_CREATE, writer, 0, s_on_created))
        s_fail(op, BUS_STATUS_UNAVAILABLE, "the scheduler is not reachable");
}

//  How a new session asks to be scheduled, from the create body.
typedef struct {
    uint64_t cluster_size;
    bool multi_node;
    uint64_t priority;
    uint64_t batch_timeout_s;
} scheduling_t;

//  Reads clusterSize (1..64), clusterMode, priority (0..100, default 10)
//  and batch_timeout (whole seconds); null or absent members take the
//  defaults. BUS_OK or INVALID with the member named.
static int
s_scheduling(json_t *size,
             json_t *mode,
             json_t *priority,
             json_t *batch_timeout,
             scheduling_t *out,
             bus_error_t *err)
{
    *out = (scheduling_t){1, false, 10, 0};
    if (size && !json_is_null(size)) {
        if (!json_is_integer(size) || json_integer_value(size) < 1 ||
            json_integer_value(size) > 64)
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "cluster_size: an integer from 1 to 64");
        out->cluster_size = (uint64_t) json_integer_value(size);
    }
    const char *mode_name = json_string_value(mode);
    if (mode && !json_is_null(mode) &&
        (!mode_name ||
         (strcmp(mode_name, "single-node") != 0 && strcmp(mode_name, "multi-node") != 0)))
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "cluster_mode: single-node or multi-node");
    out->multi_node = mode_name && strcmp(mode_name, "multi-node") == 0;
    if (priority && !json_is_null(priority)) {
        if (!json_is_integer(priority) || json_integer_value(priority) < 0 ||
            json_integer_value(priority) > 100)
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "priority: an integer from 0 to 100");
        out->priority = (uint64_t) json_integer_value(priority);
    }
    if (batch_timeout && !json_is_null(batch_timeout)) {
        if (!json_is_integer(batch_timeout) || json_integer_value(batch_timeout) < 0)
            return bus_error_set(err, BUS_STATUS_INVALID,
                                 "batch_timeout: a whole number of seconds");
        out->batch_timeout_s = (uint64_t) json_integer_value(batch_timeout);
    }
    return BUS_OK;
}

//  dependencies: null, or an array of at most 64 session ids or names of
//  the caller's sessions, which the scheduler resolves. *text is the JSON
//  array (caller frees) or NULL for none.
static int
s_dependencies(json_t *value, char **text, bus_error_t *err)
{
    *text = NULL;
    if (!value || json_is_null(value) ||
        (json_is_array(value) && json_array_size(value) == 0))
        return BUS_OK;
    bool valid = json_is_array(value) && json_array_size(value) <= 64;
    size_t index;
    json_t *item;
    json_array_foreach(value, index, item) valid =
        valid && json_is_string(item) && json_string_length(item) >= 1 &&
        json_string_length(item) <= 64 &&
        strlen(json_string_value(item)) == json_string_length(item);
    if (!valid)
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "dependencies: a list of at most 64 session ids or names");
    *text = json_dumps(value, JSON_COMPACT);
    return *text ? BUS_OK : bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
}

//  Creates the session once its folders are resolved (mounts: kernel.create's
//  JSON, NULL for none).
static void
s_create(gw_request_t *r, const char *mounts)
{
    static const char *const k_name[] = {"name", "session_name", "clientSessionToken",
                                         NULL};
    static const char *const k_image[] = {"image", "lang", NULL};
    static const char *const k_arch[] = {"arch", "architecture", NULL};
    static const char *const k_type[] = {"type", "sessionType", NULL};
    static const char *const k_group[] = {"group", "groupName", "group_name", NULL};
    static const char *const k_sgroup[] = {"scaling_group", "scalingGroup", NULL};
    static const char *const k_opts[] = {"resource_opts", "resourceOpts", NULL};
    static const char *const k_startup[] = {"startupCommand", "startup_command", NULL};
    static const char *const k_preopen[] = {"preopen_ports", "preopenPorts", NULL};
    static const char *const k_bootstrap[] = {"bootstrap_script", "bootstrapScript",
                                              NULL};
    static const char *const k_cluster_size[] = {"cluster_size", "clusterSize", NULL};
    static const char *const k_cluster_mode[] = {"cluster_mode", "clusterMode", NULL};
    static const char *const k_batch_timeout[] = {"batch_timeout", "batchTimeout", NULL};
    static const char *const k_starts_at[] = {"starts_at", "startsAt", NULL};
    json_t *params = r->params, *config = json_object_get(params, "config");
    const char *name = json_string_value(s_param(params, k_name));
    const char *image_name = json_string_value(s_param(params, k_image));
    const char *arch = json_string_value(s_param(params, k_arch));
    const char *type = json_string_value(s_param(params, k_type));
    const char *group = json_string_value(s_param(params, k_group));
    const char *sgroup = json_string_value(s_param(config, k_sgroup));
    const char *startup = json_string_value(s_param(params, k_startup));
    if (!name || !s_valid_name(name)) {
        gw_reply_problem(r, "invalid-api-params",
                         "name: 4-64 letters, digits, '_', '.', '-', starting and ending "
                         "with a letter, digit or '_'");
        return;
    }
    if (!image_name) {
        gw_reply_problem(r, "invalid-api-params", "image is required");
        return;
    }
    bool batch = type && strcasecmp(type, "batch") == 0;
    if (type && !batch && strcasecmp(type, "interactive") != 0) {
        gw_reply_problem(r, "invalid-api-params", "type: interactive or batch");
        return;
    }
    if (batch && (!startup || !*startup)) {
        gw_reply_problem(r, "invalid-api-params",
                         "a batch session needs a startupCommand");
        return;
    }
    bus_error_t err = {0};
    //  16 ports of at most 5 digits, commas and brackets.
    char preopen[PREOPEN_MAX * 6 + 8];
    if (s_preopen_ports(s_param(config, k_preopen), preopen, sizeof preopen, &err) !=
        BUS_OK) {
        gw_reply_problem(r, "invalid-api-params", err.detail);
        return;
    }
    json_t *bootstrap = s_param(params, k_bootstrap);
    if (bootstrap && !json_is_null(bootstrap) &&
        (!json_is_string(bootstrap) || json_string_length(bootstrap) > 65536 ||
         strlen(json_string_value(bootstrap)) != json_string_length(bootstrap))) {
        gw_reply_problem(r, "invalid-api-params",
                         "bootstrap_script: a string of at most 64 KiB");
        return;
    }
    scheduling_t scheduling;
    if (s_scheduling(s_param(params, k_cluster_size), s_param(params, k_cluster_mode),
                     json_object_get(params, "priority"),
                     s_param(params, k_batch_timeout), &scheduling, &err) != BUS_OK) {
        gw_reply_problem(r, "invalid-api-params", err.detail);
        return;
    }
    int64_t starts_at = 0;
    json_t *when = s_param(params, k_starts_at);
    if (when && !json_is_null(when) &&
        gw_when_parse(json_string_value(when), bus_clock_wall_us(), &starts_at, &err) !=
            BUS_OK) {
        gw_reply_problem(r, "invalid-api-params", err.detail);
        return;
    }
    char *dependencies = NULL;
    if (s_dependencies(json_object_get(params, "dependencies"), &dependencies, &err) !=
        BUS_OK) {
        gw_reply_problem(r, "invalid-api-params", err.detail);
        return;
    }
    json_t *image = NULL, *usable = NULL, *slots = NULL;
    char *limits = NULL;
    char project_id[GW_UUID_SIZE];
    int rc =
        gw_image_resolve(r->gw, gw_identity_is_superadmin(&r->who) ? NULL : r->who.domain,
                         image_name, arch, &image, &err);
    if (rc == BUS_OK)
        rc = gw_sgroup_usable(r, group ? group : "default", project_id, &usable, &err);
    if (rc == BUS_OK) {
        //  The one asked for, if the project may use it; else the first usable.
        const char *chosen = NULL;
        for (size_t i = 0; !chosen && i < json_array_size(usable); i++) {
            const char *item = json_string_value(json_array_get(usable, i));
            if (!sgroup || strcmp(item, sgroup) == 0)
                chosen = item;
        }
        if (!chosen)
            rc = bus_error_set(&err, BUS_STATUS_INVALID,
                               "no resource group for this project%s%s",
                               sgroup ? ": " : "", sgroup ? sgroup : "");
        sgroup = chosen;
    }
    if (rc == BUS_OK) {
        json_t *object = gw_limits_of(r, project_id, &err);
        limits = object ? json_dumps(object, JSON_COMPACT) : NULL;
        json_decref(object);
        rc = limits       ? BUS_OK
             : err.status ? err.status
                          : bus_error_set(&err, BUS_STATUS_INTERNAL, "out of memory");
    }
    if (rc == BUS_OK) {
        //  The minimums come from the labels; the catalogue gives them as a list.
        json_t *labels = json_object();
        size_t index;
        json_t *pair;
        json_array_foreach(json_object_get(image, "labels"), index, pair)
            json_object_set(labels, json_string_value(json_object_get(pair, "key")),
                            json_object_get(pair, "value"));
        slots = s_slots(json_object_get(config, "resources"), labels, &err);
        json_decref(labels);
        if (!slots)
            rc = err.status ? err.status : BUS_STATUS_INVALID;
    }
    int64_t shmem = 0;
    json_t *opts = s_param(config, k_opts);
    if (rc == BUS_OK && json_object_get(opts, "shmem") &&
        bus_slots_parse_bytes("shmem", json_object_get(opts, "shmem"), &shmem, &err) !=
            BUS_OK)
        rc = BUS_STATUS_INVALID;
    op_t *op = rc == BUS_OK ? calloc(1, sizeof *op) : NULL;
    if (rc == BUS_OK && (!op || gw_uuid_new(op->session_id) != 0))
        rc = bus_error_set(&err, BUS_STATUS_INTERNAL, "out of memory");
    if (rc != BUS_OK) {
        if (rc == BUS_STATUS_INVALID)
            gw_reply_problem(r, "invalid-api-params", err.detail);
        else
            gw_reply_status(r, rc, err.detail);
        free(op);
        free(limits);
        free(dependencies);
        json_decref(image);
        json_decref(usable);
        json_decref(slots);
        return;
    }
    op->r = r;
    op->op = OP_CREATE;
    op->reuse = !json_is_false(json_object_get(params, "reuseIfExists"));
    op->gw = r->gw;
    op->timer = evtimer_new(bus_node_base(r->gw->node), s_poll, op);
    json_t *max_wait = json_object_get(params, "maxWaitSeconds");
    if (json_is_true(json_object_get(params, "enqueueOnly")))
        op->deadline_ms = -1;
    else if (json_integer_value(max_wait) > 0)
        op->deadline_ms = bus_clock_mono_ms() + json_integer_value(max_wait) * 1000;
    char kernel_id[GW_UUID_SIZE];
    gw_uuid_new(kernel_id);
    proto_kv_t slot_pairs[64], env_pairs[256];
    proto_session_create_req_t in;
    proto_session_create_req_init(&in);
    char *defaults[] = {in.type, in.architecture, in.cluster_mode};
    in.session_id = op->session_id;
    in.kernel_id = kernel_id;
    in.name = (char *) name;
    in.access_key = r->who.access_key;
    in.user_uuid = r->who.user_uuid;
    in.domain_name = r->who.domain;
    in.group_id = project_id;
    in.scaling_group = (char *) sgroup;
    in.type = batch ? "BATCH" : "INTERACTIVE";
    in.image = (char *) json_string_value(json_object_get(image, "name"));
    in.architecture = (char *) json_string_value(json_object_get(image, "architecture"));
    const char *key;
    json_t *value;
    json_object_foreach(slots, key, value)
    {
        if (in.slots_count < 64)
            slot_pairs[in.slots_count++] =
                (proto_kv_t){(char *) key, (char *) json_string_value(value)};
    }
    in.slots = slot_pairs;
    json_object_foreach(json_object_get(config, "environ"), key, value)
    {
        if (json_is_string(value) && in.environ_count < 256)
            env_pairs[in.environ_count++] =
                (proto_kv_t){(char *) key, (char *) json_string_value(value)};
    }
    in.environ = env_pairs;
    in.shmem_bytes = (uint64_t) shmem;
    in.startup_command = (char *) startup;
    in.tag = (char *) json_string_value(json_object_get(params, "tag"));
    in.preopen_ports = preopen;
    const char *script = json_string_value(bootstrap);
    in.bootstrap_script = script && *script ? (char *) script : NULL;
    in.cluster_size = scheduling.cluster_size;
    in.cluster_mode = scheduling.multi_node ? "multi-node" : "single-node";
    in.priority = scheduling.priority;
    in.batch_timeout = scheduling.batch_timeout_s;
    in.limits = limits;
    in.starts_at = starts_at;
    in.dependencies = dependencies;
    in.mounts = (char *) mounts;
    //  The canonical reference the agents know: registry/project/name:tag.
    char reference[600];
    snprintf(reference, sizeof reference, "%s/%s:%s",
             json_string_value(json_object_get(image, "registry")), in.image,
             json_string_value(json_object_get(image, "tag")));
    in.image = reference;
    op->create = bus_writer_new();
    bool written = op->create && proto_session_create_req_write(&in, op->create) == 0;
    proto_scheduler_agents_req_t agents;
    proto_scheduler_agents_req_init(&agents);
    agents.scaling_group = (char *) sgroup;
    agents.status = "ALIVE";
    bus_writer_t *writer = bus_writer_new();
    written = written && writer && proto_scheduler_agents_req_write(&agents, writer) == 0;
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
        free(defaults[i]);
    free(limits);
    free(dependencies);
    json_decref(image);
    json_decref(usable);
    op->slots = slots;
    op->cluster_size = (uint32_t) scheduling.cluster_size;
    op->multi_node = scheduling.multi_node;
    if (!written) {
        bus_writer_destroy(&writer);
        s_fail(op, BUS_STATUS_INTERNAL, "out of memory");
    } else if (!s_call(op, s_scheduler(r), PROTO_SCHEDULER_AGENTS, writer, 0,
                       s_on_agents))
        s_fail(op, BUS_STATUS_UNAVAILABLE, "the scheduler is not reachable");
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

//  ---------------------------------------------------------------------------
//  /session/{s}: find the session, then act

static void s_act(op_t *op, proto_session_info_t *info);

static void
s_on_found(void *arg, const bus_reply_t *reply)
{
    op_t *op = arg;
    proto_session_info_t info;
    proto_session_info_init(&info);
    bus_error_t err = {0};
    if (s_decode(reply, &info, &err) != BUS_OK || !s_may_use(op->r, &info)) {
        proto_session_info_clear(&info);
        s_fail(op,
               err.status && err.status != BUS_STATUS_NOT_FOUND ? err.status
                                                                : BUS_STATUS_NOT_FOUND,
               "No matching session found.");
        return;
    }
    s_act(op, &info);
    proto_session_info_clear(&info);
}

//  Looks the path's session up (by the caller's name, or by id).
static void
s_find(gw_request_t *r, int kind, gw_session_found_fn *found, void *found_arg)
{
    const char *ref = gw_request_path_param(r, "session");
    op_t *op = calloc(1, sizeof *op);
    if (!op || !ref) {
        free(op);
        gw_reply_status(r, BUS_STATUS_INTERNAL, "out of memory");
        return;
    }
    op->r = r;
    op->gw = r->gw;
    op->op = kind;
    op->found = found;
    op->found_arg = found_arg;
    proto_session_get_req_t in;
    proto_session_get_req_init(&in);
    bool uuid = strlen(ref) == 36 && ref[8] == '-' && ref[13] == '-' && ref[18] == '-' &&
                ref[23] == '-';
    if (uuid)
        in.session_id = (char *) ref;
    else {
        in.access_key = r->who.access_key;
        in.name = (char *) ref;
    }
    bus_writer_t *writer = bus_writer_new();
    proto_session_get_req_write(&in, writer);
    if (!s_call(op, s_scheduler(r), PROTO_SESSION_GET, writer, 0, s_on_found))
        s_fail(op, BUS_STATUS_UNAVAILABLE, "the scheduler is not reachable");
}

static void
s_on_destroyed(void *arg, const bus_reply_t *reply)
{
    op_t *op = arg;
    if (reply->status != BUS_OK)
        s_fail(op, reply->status, reply->detail);
    else {
        //  Backend.AI answers with the session's last statistics.
        gw_reply_json(op->r, 200,
                      json_pack("{s:o}", "stats", gw_stats_last(op->gw, op->kernel_id)));
        s_op_free(op);
    }
}

//  The answer of a call that changes something and answers 204: rename,
//  restart, interrupt. A CONFLICT (a name taken, a session not running) is
//  the caller's mistake, as Backend.AI reports it for each.
static void
s_on_changed(void *arg, const bus_reply_t *reply)
{
    op_t *op = arg;
    if (reply->status == BUS_STATUS_CONFLICT && op->op != OP_INTERRUPT)
        gw_reply_problem(
            op->r, op->op == OP_RENAME ? "invalid-api-params" : "generic-bad-request",
            reply->detail);
    else if (reply->status != BUS_OK)
        gw_reply_status(op->r, reply->status, reply->detail);
    else
        gw_reply_json(op->r, 204, NULL);
    s_op_free(op);
}

static void
s_on_executed(void *arg, const bus_reply_t *reply)
{
    op_t *op = arg;
    proto_kernel_execute_rep_t rep;
    bus_error_t err = {0};
    if (reply->status != BUS_OK) {
        s_fail(op, reply->status, reply->detail);
        return;
    }
    if (proto_kernel_execute_rep_decode(&rep, reply->body, reply->body_size, &err) !=
        BUS_OK) {
        s_fail(op, BUS_STATUS_PROTOCOL, err.detail);
        return;
    }
    json_t *result = json_loads(rep.result, 0, NULL);
    proto_kernel_execute_rep_clear(&rep);
    gw_reply_json(op->r, 200,
                  json_pack("{s:o}", "result", result ? result : json_object()));
    s_op_free(op);
}

static void
s_on_logs(void *arg, const bus_reply_t *reply)
{
    op_t *op = arg;
    proto_kernel_logs_rep_t rep;
    bus_error_t err = {0};
    if (reply->status != BUS_OK) {
        s_fail(op, reply->status, reply->detail);
        return;
    }
    if (proto_kernel_logs_rep_decode(&rep, reply->body, reply->body_size, &err) !=
        BUS_OK) {
        s_fail(op, BUS_STATUS_PROTOCOL, err.detail);
        return;
    }
    //  JSON strings are UTF-8: a log that is not (binary output, or a tail
    //  cut inside a character) keeps its ASCII and marks the rest '?'.
    json_t *logs = json_stringn((const char *) rep.logs, rep.logs_size);
    if (!logs) {
        for (size_t i = 0; i < rep.logs_size; i++)
            if (rep.logs[i] >= 0x80 || rep.logs[i] == 0)
                rep.logs[i] = '?';
        logs = json_stringn((const char *) rep.logs, rep.logs_size);
    }
    proto_kernel_logs_rep_clear(&rep);
    if (!logs) {
        s_fail(op, BUS_STATUS_INTERNAL, "out of memory");
        return;
    }
    gw_reply_json(op->r, 200, json_pack("{s:{s:o}}", "result", "logs", logs));
    s_op_free(op);
}

//  Backend.AI's session info (reference §3.3), the fields the client prints.
static json_t *
s_info_json(const proto_session_info_t *info)
{
    json_t *requested = json_object(), *occupied = json_object();
    for (size_t i = 0; i < info->requested_slots_count; i++)
        json_object_set_new(requested, info->requested_slots[i].key,
                            json_string(info->requested_slots[i].value));
    for (size_t i = 0; i < info->occupied_slots_count; i++)
        json_object_set_new(occupied, info->occupied_slots[i].key,
                            json_string(info->occupied_slots[i].value));
    char *requested_text = json_dumps(requested, JSON_COMPACT);
    char *occupied_text = json_dumps(occupied, JSON_COMPACT);
    json_t *data = info->status_data ? json_loads(info->status_data, 0, NULL) : NULL;
    int64_t age_ms = (bus_clock_wall_us() - info->created_at) / 1000;
    json_t *out = json_pack(
        "{s:s?, s:s?, s:s?, s:s?, s:s?, s:s?, s:s?, s:s, s:s, s:s?, s:s, s:s?, s:o, s:I,"
        " s:I}",
        "domainName", info->domain_name, "groupId", info->group_id, "userId",
        info->user_uuid, "lang", info->image, "image", info->image, "architecture",
        info->architecture, "containerId", info->container_id, "occupiedSlots",
        occupied_text ? occupied_text : "{}", "requestedSlots",
        requested_text ? requested_text : "{}", "tag", info->tag, "status", info->status,
        "statusInfo", info->status_info, "statusData", data ? data : json_object(), "age",
        (json_int_t) age_ms, "numQueriesExecuted", (json_int_t) 0);
    free(requested_text);
    free(occupied_text);
    json_decref(requested);
    json_decref(occupied);
    return out;
}

static void
s_act(op_t *op, proto_session_info_t *info)
{
    gw_request_t *r = op->r;
    if (op->op == OP_FIND) {
        op->found(r, info, op->found_arg);
        s_op_free(op);
        return;
    }
    if (op->op == OP_INFO) {
        gw_reply_json(r, 200, s_info_json(info));
        s_op_free(op);
        return;
    }
    if (op->op == OP_DESTROY) {
        proto_session_destroy_req_t in;
        proto_session_destroy_req_init(&in);
        char *reason = in.reason;
        in.session_id = info->session_id;
        snprintf(op->kernel_id, sizeof op->kernel_id, "%s",
                 info->kernel_id ? info->kernel_id : "");
        in.forced = json_is_true(json_object_get(r->params, "forced")) ||
                    json_is_string(json_object_get(r->params, "forced"));
        bus_writer_t *writer = bus_writer_new();
        proto_session_destroy_req_write(&in, writer);
        free(reason);
        if (!s_call(op, s_scheduler(r), PROTO_SESSION_DESTROY, writer, 0, s_on_destroyed))
            s_fail(op, BUS_STATUS_UNAVAILABLE, "the scheduler is not reachable");
        return;
    }
    if (op->op == OP_RENAME) {
        static const char *const k_name[] = {"name", "session_name", "clientSessionToken",
                                             NULL};
        const char *name = json_string_value(s_param(r->params, k_name));
        if (!name || !s_valid_name(name)) {
            gw_reply_problem(r, "invalid-api-params",
                             "name: 4-64 letters, digits, '_', '.' or '-', starting and "
                             "ending with a letter, digit or '_'");
            s_op_free(op);
            return;
        }
        proto_session_rename_req_t in;
        proto_session_rename_req_init(&in);
        in.session_id = info->session_id;
        in.name = (char *) name;
        bus_writer_t *writer = bus_writer_new();
        proto_session_rename_req_write(&in, writer);
        if (!s_call(op, s_scheduler(r), PROTO_SESSION_RENAME, writer, 0, s_on_changed))
            s_fail(op, BUS_STATUS_UNAVAILABLE, "the scheduler is not reachable");
        return;
    }
    if (op->op == OP_RESTART) {
        //  The answer comes once the kernel runs again (or could not).
        proto_session_restart_req_t in;
        proto_session_restart_req_init(&in);
        in.session_id = info->session_id;
        bus_writer_t *writer = bus_writer_new();
        proto_session_restart_req_write(&in, writer);
        if (!s_call(op, s_scheduler(r), PROTO_SESSION_RESTART, writer, RESTART_TIMEOUT_MS,
                    s_on_changed))
            s_fail(op, BUS_STATUS_UNAVAILABLE, "the scheduler is not reachable");
        return;
    }
    //  The rest happens on the session's agent, while it runs.
    gw_session_kernel_t at;
    if (!gw_session_kernel(r, info, &at)) {
        s_op_free(op);
        return;
    }
    if (op->op == OP_LOGS || op->op == OP_INTERRUPT) {
        bus_writer_t *writer = bus_writer_new();
        if (op->op == OP_LOGS) {
            proto_kernel_logs_req_t in;
            proto_kernel_logs_req_init(&in);
            in.kernel_id = at.kernel_id;
            proto_kernel_logs_req_write(&in, writer);
        } else {
            proto_kernel_interrupt_req_t in;
            proto_kernel_interrupt_req_init(&in);
            in.kernel_id = at.kernel_id;
            proto_kernel_interrupt_req_write(&in, writer);
        }
        if (!s_call(op, at.agent_addr,
                    op->op == OP_LOGS ? PROTO_KERNEL_LOGS : PROTO_KERNEL_INTERRUPT,
                    writer, 0, op->op == OP_LOGS ? s_on_logs : s_on_changed))
            s_fail(op, BUS_STATUS_UNAVAILABLE, "the agent is not reachable");
        return;
    }
    const char *mode = json_string_value(json_object_get(r->params, "mode"));
    json_t *run_id = json_object_get(r->params, "runId");
    const char *code = json_string_value(json_object_get(r->params, "code"));
    json_t *options = json_object_get(r->params, "options");
    char generated[GW_UUID_SIZE];
    if (!json_is_string(run_id))
        gw_uuid_new(generated);
    if (!mode) {
        gw_reply_problem(r, "invalid-api-params", "mode is required");
        s_op_free(op);
        return;
    }
    proto_kernel_execute_req_t in;
    proto_kernel_execute_req_init(&in);
    in.kernel_id = at.kernel_id;
    in.run_id = (char *) (json_is_string(run_id) ? json_string_value(run_id) : generated);
    in.mode = (char *) mode;
    in.code = (char *) (code ? code : "");
    char *options_text =
        json_is_object(options) ? json_dumps(options, JSON_COMPACT) : NULL;
    in.options = options_text;
    in.wait_ms = EXEC_WAIT_MS;
    bus_writer_t *writer = bus_writer_new();
    proto_kernel_execute_req_write(&in, writer);
    free(options_text);
    if (!s_call(op, at.agent_addr, PROTO_KERNEL_EXECUTE, writer, EXEC_TIMEOUT,
                s_on_executed))
        s_fail(op, BUS_STATUS_UNAVAILABLE, "the agent is not reachable");
}

void
gw_session_handle_info(gw_request_t *r)
{
    s_find(r, OP_INFO, NULL, NULL);
}

void
gw_session_handle_destroy(gw_request_t *r)
{
    s_find(r, OP_DESTROY, NULL, NULL);
}

void
gw_session_handle_rename(gw_request_t *r)
{
    s_find(r, OP_RENAME, NULL, NULL);
}

void
gw_session_handle_restart(gw_request_t *r)
{
    s_find(r, OP_RESTART, NULL, NULL);
}

void
gw_session_handle_execute(gw_request_t *r)
{
    s_find(r, OP_EXECUTE, NULL, NULL);
}

void
gw_session_handle_logs(gw_request_t *r)
{
    s_find(r, OP_LOGS, NULL, NULL);
}

void
gw_session_handle_interrupt(gw_request_t *r)
{
    s_find(r, OP_INTERRUPT, NULL, NULL);
}

void
gw_session_find(gw_request_t *r, gw_session_found_fn *found, void *arg)
{
    s_find(r, OP_FIND, found, arg);
}

bool
gw_session_kernel(gw_request_t *r,
                  const proto_session_info_t *info,
                  gw_session_kernel_t *kernel)
{
    if (!info->status || strcmp(info->status, "RUNNING") != 0 || !info->agent_addr ||
        !info->kernel_id) {
        gw_reply_problem(r, "generic-bad-request", "the session is not running");
        return false;
    }
    gw_activity_touch(r->gw->activity, info->session_id);
    snprintf(kernel->session_id, sizeof kernel->session_id, "%s", info->session_id);
    snprintf(kernel->kernel_id, sizeof kernel->kernel_id, "%s", info->kernel_id);
    snprintf(kernel->agent_addr, sizeof kernel->agent_addr, "%s", info->agent_addr);
    return true;
}
