/*  =========================================================================
    gw_compute_session - compute_session and compute_session_list in the
    GraphQL admin API, from the scheduler

    The scheduler owns sessions. Before the document runs, gw_gql hands
    this module the arguments of each of these root fields, and each is
    answered with session.list calls whose answers wait in
    r->prefetch_sessions for the resolvers (which run synchronously).

    A list is planned from its arguments: who may see what (a superadmin
    all, a domain admin its domain's, anyone else its own keypair's), the
    status, access_key and group_id arguments, domain_name for a superadmin
    (it narrows a list that has not been narrowed to one domain), the top-level
    conjuncts of the filter that SQL answers as the minilang does
    (gw_minilang_filter_pushdown over s_columns) and the order when each of
    its keys has a column. When the whole filter and the order go to the
    scheduler, one call answers the page and the exact total_count. When
    not, the gateway reads every session that the pushed part leaves (in
    chunks, with a cursor that new sessions do not shift), keeps those the
    whole filter matches, sorts them with the minilang and pages them: the
    answer Backend.AI's semantics give, at the cost of the reading, which
    is bounded by GW_SESSIONS_SCAN_MAX. Either way only the rows of a page
    are turned into JSON with what the gateway adds (project names, user
    emails, service ports).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

//  The ComputeSession fields that are the session info's text fields (the
//  same value, or null for a NULL column) and the times, which sort as the
//  ISO 8601 strings they are shown as.
static const gw_minilang_column_t s_columns[] = {
    {"id", "session_id", true},
    {"session_id", "session_id", true},
    {"name", "name", true},
    {"type", "type", true},
    {"image", "image", true},
    {"domain_name", "domain_name", true},
    {"group_id", "group_id", true},
    {"user_id", "user_uuid", true},
    {"access_key", "access_key", true},
    {"status", "status", true},
    {"status_info", "status_info", true},
    {"scaling_group", "scaling_group", true},
    {"result", "result", true},
    {"cluster_mode", "cluster_mode", true},
    {"created_at", "created_at", false},
    {"status_changed", "status_changed", false},
    {"terminated_at", "terminated_at", false},
    {NULL, NULL, false},
};

//  text (taken and freed) as a JSON string, "" for NULL.
static json_t *
s_shown(char *text)
{
    json_t *out = json_string(text ? text : "");
    free(text);
    return out;
}

//  The scheduler's history of a session ([{status, at (µs), info}], oldest
//  first) as two JSON strings into session: status_history as Backend.AI
//  22.09+ answers it (each status's last time, ISO 8601), and
//  status_transitions, every move in order with its reason.
static void
s_status_history(json_t *session, const char *history)
{
    json_t *list = history ? json_loads(history, 0, NULL) : NULL;
    json_t *last = json_object(), *moves = json_array();
    size_t index;
    json_t *move;
    json_array_foreach(list, index, move)
    {
        const char *status = json_string_value(json_object_get(move, "status"));
        if (!status)
            continue;
        json_t *at = gw_gql_time(json_integer_value(json_object_get(move, "at")));
        json_object_set(last, status, at);
        const char *info = json_string_value(json_object_get(move, "info"));
        json_array_append_new(moves, json_pack("{s:s, s:O, s:s}", "status", status, "at",
                                               at, "status_info", info ? info : ""));
        json_decref(at);
    }
    json_decref(list);
    char *text = json_dumps(last, JSON_COMPACT);
    json_object_set_new(session, "status_history", json_string(text ? text : "{}"));
    free(text);
    text = json_dumps(moves, JSON_COMPACT);
    json_object_set_new(session, "status_transitions", json_string(text ? text : "[]"));
    free(text);
    json_decref(last);
    json_decref(moves);
}

//  One session as a ComputeSession object. Caller owns it.
static json_t *
s_session(gw_request_t *r, const proto_session_info_t *s)
{
    bus_db_t *db = gw_server_db(r->gw);
    //  registry/project/name:tag → the catalogue's registry, name and tag.
    const char *image = s->image ? s->image : "";
    const char *slash = strchr(image, '/');
    char registry[256] = "";
    if (slash)
        snprintf(registry, sizeof registry, "%.*s", (int) (slash - image), image);
    json_t *occupied = gw_gql_slots(s->occupied_slots, s->occupied_slots_count);
    json_t *apps = gw_apps_of_session(gw_request_ctx(r)->db, s->session_id, s->image,
                                      s->preopen_ports);
    char *service_ports = json_dumps(apps, JSON_COMPACT);
    json_decref(apps);
    json_t *status_data = json_string(s->status_data ? s->status_data : "{}");
    json_t *container = json_pack(
        "{s:s?, s:s?, s:s, s:s, s:s, s:s?, s:s?, s:s, s:s?, s:s?, s:s?, s:O, s:O, "
        "s:s?,"
        " s:I, s:o}",
        "id", s->kernel_id, "session_id", s->session_id, "role", "main", "cluster_role",
        "main", "cluster_hostname", "main1", "agent", s->agent_id, "image", s->image,
        "registry", registry, "status", s->status, "status_info", s->status_info,
        "container_id", s->container_id, "status_data", status_data, "occupied_slots",
        occupied, "kernel_host", s->kernel_host, "cluster_idx", (json_int_t) 1,
        "status_changed", gw_gql_time(s->status_changed));
    json_t *session = json_pack(
        "{s:s?, s:s?, s:s?, s:s?, s:s?, s:s, s:s?, s:s?, s:s?, s:s?, s:s?, s:s?, s:s?,"
        " s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:s, s:s, s:s, s:I, s:s, s:[], s:[o],"
        " s:[], s:s?, s:s?}",
        "id", s->session_id, "session_id", s->session_id, "name", s->name, "type",
        s->type, "image", s->image, "registry", registry, "tag", s->tag, "domain_name",
        s->domain_name, "group_id", s->group_id, "user_id", s->user_uuid, "access_key",
        s->access_key, "status", s->status, "status_info", s->status_info, "status_data",
        status_data, "status_changed", gw_gql_time(s->status_changed), "created_at",
        gw_gql_time(s->created_at), "terminated_at", gw_gql_time(s->terminated_at),
        "occupied_slots", occupied, "group_name", s_shown(gw_group_name(db, s->group_id)),
        "user_email", s_shown(gw_user_email(db, s->user_uuid)), "result",
        s->result ? s->result : "UNDEFINED", "cluster_mode",
        s->cluster_mode ? s->cluster_mode : "single-node", "service_ports",
        service_ports ? service_ports : "[]", "cluster_size",
        (json_int_t) (s->cluster_size ? s->cluster_size : 1), "resource_opts", "{}",
        "mounts", "containers", container, "dependencies", "scaling_group",
        s->scaling_group, "agent", s->agent_id);
    free(service_ports);
    if (session) {
        s_status_history(session, s->status_history);
        //  What it asked for: a PENDING session occupies nothing yet (the
        //  pending queue shows it), nor an ended one (Backend.AI's newer
        //  ComputeSession has it).
        json_object_set_new(session, "requested_slots",
                            gw_gql_slots(s->requested_slots, s->requested_slots_count));
    }
    return session;
}

bool
gw_compute_session_is_root(const char *name)
{
    for (const gw_gql_root_t *root = gw_compute_session_gql; root->name; root++)
        if (strcmp(root->name, name) == 0)
            return true;
    return false;
}

//  Where a field's answer waits: its name and its arguments. Caller frees.
static char *
s_key(const char *name, json_t *args)
{
    char *text = json_dumps(args, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    char *key = NULL;
    if (text && asprintf(&key, "%s %s", name, text) < 0)
        key = NULL;
    free(text);
    return key;
}

//  ---------------------------------------------------------------------------
//  Fetching

typedef struct {
    gw_request_t *r;
    json_t *fields; //  [{name, args}], owned
    size_t next;    //  the next one to plan
    gw_compute_session_done_fn *done;
    void *arg;
    json_t *sample;     //  a session with every field (null values), owned
    const char **names; //  its keys, NULL-terminated: what filter and order may name
    //  The field being fetched.
    char *key;
    bool single; //  compute_session: the first item, or null
    bool scan;   //  read every session the request narrows to
    proto_session_list_req_t req;
    char *where;                  //  req.where, owned
    char order[1024];             //  req.order
    char after_id[64];            //  req.after_id
    const char *statuses;         //  to match in memory (too long to send), borrowed
    gw_minilang_filter_t *filter; //  to match in memory, or NULL
    const char *order_text;       //  to sort by in memory, borrowed, or NULL
    json_int_t limit, offset;
    json_t *kept; //  scan: the matches so far
    size_t read;  //  scan: sessions read
} fetch_t;

static void s_fetch_next(fetch_t *f);

//  Stores a field's answer (value stolen) or its error.
static void
s_store(fetch_t *f, json_t *value, int status, const char *error)
{
    json_t *entry = value ? json_pack("{s:o}", "value", value)
                          : json_pack("{s:i, s:s}", "status", status, "error", error);
    if (f->key && entry)
        json_object_set_new(f->r->prefetch_sessions, f->key, entry);
    else
        json_decref(entry);
}

//  Forgets the field being fetched.
static void
s_field_end(fetch_t *f)
{
    free(f->key);
    f->key = NULL;
    free(f->where);
    f->where = NULL;
    gw_minilang_filter_destroy(&f->filter);
    json_decref(f->kept);
    f->kept = NULL;
    memset(&f->req, 0, sizeof f->req); //  every string in it is borrowed
}

static const char *
s_scoped(const char *scope, const char *arg, bool *empty)
{
    if (scope && arg && strcmp(scope, arg) != 0)
        *empty = true; //  the argument asks for what the caller may not see
    //  Stored values are at most PROTO's 64 bytes: a longer one matches none.
    const char *value = arg ? arg : scope;
    if (value && strlen(value) > 64)
        *empty = true;
    return value;
}

//  Plans the field: fills the request, or stores the answer at once (an
//  error, nothing to ask). True when a call is to be made.
static bool
s_plan(fetch_t *f, const char *name, json_t *args)
{
    gw_request_t *r = f->r;
    proto_session_list_req_init(&f->req);
    f->scan = false;
    f->single = strcmp(name, "compute_session") == 0;
    f->statuses = NULL;
    f->order_text = NULL;
    f->read = 0;
    f->after_id[0] = '\0';
    bool empty = false;
    const char *scope_key = NULL, *scope_domain = NULL;
    if (!gw_identity_is_superadmin(&r->who)) {
        if (gw_identity_admins_domain(&r->who, r->who.domain))
            scope_domain = r->who.domain;
        else
            scope_key = r->who.access_key;
    }
    if (f->single) {
        const char *id = gw_gql_arg(args, "id");
        if (!id) {
            s_store(f, json_null(), 0, NULL);
            return false;
        }
        f->req.access_key = s_scoped(scope_key, NULL, &empty);
        f->req.domain_name = s_scoped(scope_domain, NULL, &empty);
        json_t *term = json_pack("[s, s, s]", "=", "session_id", id);
        f->where = term ? json_dumps(term, JSON_COMPACT) : NULL;
        json_decref(term);
        f->req.where = f->where;
        f->req.limit = 1;
        if (!f->where || strlen(f->where) > 65536) {
            s_store(f, json_null(), 0, NULL);
            return false;
        }
        return true;
    }
    //  The checks and messages of gw_gql_page, in its order.
    f->limit = json_integer_value(json_object_get(args, "limit"));
    f->offset = json_integer_value(json_object_get(args, "offset"));
    if (f->limit <= 0 || f->limit > GW_GQL_PAGE_MAX || f->offset < 0) {
        char message[128];
        snprintf(message, sizeof message, "limit must be 1..%d and offset >= 0",
                 GW_GQL_PAGE_MAX);
        s_store(f, NULL, BUS_STATUS_INVALID, message);
        return false;
    }
    char message[256];
    const char *filter_text = gw_gql_arg(args, "filter");
    bool complete = true;
    if (filter_text) {
        f->filter =
            gw_minilang_filter_parse(filter_text, f->names, message, sizeof message);
        if (!f->filter) {
            s_store(f, NULL, BUS_STATUS_INVALID, message);
            return false;
        }
        json_t *pushed = gw_minilang_filter_pushdown(f->filter, s_columns, &complete);
        f->where = pushed ? json_dumps(pushed, JSON_COMPACT) : NULL;
        json_decref(pushed);
        if (f->where && strlen(f->where) > 65536) {
            free(f->where);
            f->where = NULL;
            complete = false;
        }
        if (complete)
            gw_minilang_filter_destroy(&f->filter);
        f->req.where = f->where;
    }
    const char *order_text = gw_gql_arg(args, "order");
    if (order_text) {
        int rc = gw_minilang_order_pushdown(order_text, f->names, s_columns, f->order,
                                            sizeof f->order, message, sizeof message);
        if (rc < 0) {
            s_store(f, NULL, BUS_STATUS_INVALID, message);
            return false;
        }
        if (rc > 0)
            f->order_text = order_text;
        else if (*f->order)
            f->req.order = f->order;
    }
    const char *status = gw_gql_arg(args, "status");
    if (status && *status) {
        if (strlen(status) <= 512)
            f->req.statuses = status;
        else
            f->statuses = status;
    }
    f->req.access_key = s_scoped(scope_key, gw_gql_arg(args, "access_key"), &empty);
    //  domain_name narrows a superadmin's list; anyone else's is already
    //  one domain's (a domain admin's own, as Backend.AI overrides it).
    f->req.domain_name = s_scoped(
        scope_domain,
        gw_identity_is_superadmin(&r->who) ? gw_gql_arg(args, "domain_name") : NULL,
        &empty);
    f->req.group_id = s_scoped(NULL, gw_gql_arg(args, "group_id"), &empty);
    if (empty) {
        s_store(f, json_pack("{s:[], s:I}", "items", "total_count", (json_int_t) 0), 0,
                NULL);
        return false;
    }
    f->scan = f->filter || f->statuses || f->order_text;
    if (f->scan) {
        //  Every session the request narrows to, newest first, by cursor;
        //  sorted here.
        f->order_text = order_text;
        f->req.order = NULL;
        f->req.limit = GW_SESSIONS_CHUNK;
        f->kept = json_array();
    } else {
        f->req.limit = (uint64_t) f->limit;
        f->req.offset = (uint64_t) f->offset;
    }
    return true;
}

static void s_on_reply(void *arg, const bus_reply_t *reply);

//  Sends the planned call; false when it could not leave (answer stored).
static bool
s_send(fetch_t *f)
{
    gw_request_t *r = f->r;
    //  The filters came from the document: over the schema's limits they
    //  are the caller's mistake, said as such.
    bus_error_t err = {0};
    bus_writer_t *writer = proto_session_list_req_writer(&f->req, &err);
    if (!writer) {
        s_store(f, NULL, err.status, err.detail);
        return false;
    }
    const char *scheduler = bus_node_find(gw_server_node(r->gw), "scheduler");
    uint64_t sent = scheduler ? bus_node_call(gw_server_node(r->gw), scheduler,
                                              PROTO_SESSION_LIST, bus_writer_data(writer),
                                              bus_writer_size(writer), 0, s_on_reply, f)
                              : 0;
    bus_writer_destroy(&writer);
    if (!sent)
        s_store(f, NULL, BUS_STATUS_UNAVAILABLE,
                scheduler ? "the call could not be sent" : "not reachable");
    return sent != 0;
}

//  A scan's reply: keeps the matches; true when there is more to read.
static bool
s_scan(fetch_t *f, const proto_session_list_rep_t *rep)
{
    if (f->read == 0 && rep->total_count > GW_SESSIONS_SCAN_MAX) {
        char message[256];
        snprintf(message, sizeof message,
                 "the filter or order needs %" PRIu64 " sessions read one by one, more "
                 "than %d: narrow it with status, access_key, group_id or a filter on "
                 "the sessions' own text fields",
                 rep->total_count, GW_SESSIONS_SCAN_MAX);
        s_store(f, NULL, BUS_STATUS_INVALID, message);
        return false;
    }
    for (size_t i = 0; i < rep->sessions_count; i++) {
        const proto_session_info_t *s = &rep->sessions[i];
        if (f->statuses && !gw_gql_in_list(f->statuses, s->status))
            continue;
        json_t *session = s_session(f->r, s);
        if (!f->filter || gw_minilang_filter_match(f->filter, session))
            json_array_append(f->kept, session);
        json_decref(session);
    }
    f->read += rep->sessions_count;
    if (rep->sessions_count == f->req.limit && rep->sessions_count > 0 &&
        f->read < GW_SESSIONS_SCAN_MAX) {
        const proto_session_info_t *last = &rep->sessions[rep->sessions_count - 1];
        snprintf(f->after_id, sizeof f->after_id, "%s", last->session_id);
        f->req.after_id = f->after_id;
        f->req.after_created_at = last->created_at;
        return true;
    }
    //  Everything read: sort what was kept, then the page.
    char message[256];
    if (f->order_text && gw_minilang_order(f->kept, f->order_text, f->names, message,
                                           sizeof message) != 0) {
        s_store(f, NULL, BUS_STATUS_INVALID, message);
        return false;
    }
    json_t *items = json_array();
    size_t total = json_array_size(f->kept);
    size_t end = (size_t) f->offset + (size_t) f->limit; //  offset < 2^63
    for (size_t i = (size_t) f->offset; i < total && i < end; i++)
        json_array_append(items, json_array_get(f->kept, i));
    s_store(f, json_pack("{s:o, s:I}", "items", items, "total_count", (json_int_t) total),
            0, NULL);
    return false;
}

static void
s_on_reply(void *arg, const bus_reply_t *reply)
{
    fetch_t *f = arg;
    proto_session_list_rep_t rep;
    bus_error_t err = {0};
    bool more = false;
    if (reply->status != BUS_OK) {
        //  The scheduler's own refusal of a request this module wrote.
        s_store(f, NULL,
                reply->status == BUS_STATUS_INVALID ? BUS_STATUS_INTERNAL
                                                    : BUS_STATUS_UNAVAILABLE,
                *reply->detail ? reply->detail : "no answer");
    } else if (proto_session_list_rep_decode(&rep, reply->body, reply->body_size, &err) !=
               BUS_OK)
        s_store(f, NULL, BUS_STATUS_UNAVAILABLE, err.detail);
    else {
        if (f->scan)
            more = s_scan(f, &rep);
        else if (f->single)
            s_store(f,
                    rep.sessions_count ? s_session(f->r, &rep.sessions[0]) : json_null(),
                    0, NULL);
        else {
            json_t *items = json_array();
            for (size_t i = 0; i < rep.sessions_count; i++)
                json_array_append_new(items, s_session(f->r, &rep.sessions[i]));
            s_store(f,
                    json_pack("{s:o, s:I}", "items", items, "total_count",
                              (json_int_t) rep.total_count),
                    0, NULL);
        }
        proto_session_list_rep_clear(&rep);
    }
    //  A client that went away needs no more reading.
    if (more && f->r->req && s_send(f))
        return;
    s_field_end(f);
    s_fetch_next(f);
}

//  Plans and sends the next field's first call; when none is left, ends
//  the fetch and runs done.
static void
s_fetch_next(fetch_t *f)
{
    while (f->next < json_array_size(f->fields)) {
        json_t *field = json_array_get(f->fields, f->next++);
        const char *name = json_string_value(json_object_get(field, "name"));
        json_t *args = json_object_get(field, "args");
        f->key = name ? s_key(name, args) : NULL;
        if (f->key && f->r->req && !json_object_get(f->r->prefetch_sessions, f->key) &&
            s_plan(f, name, args) && s_send(f))
            return;
        s_field_end(f);
    }
    gw_compute_session_done_fn *done = f->done;
    void *arg = f->arg;
    gw_request_t *r = f->r;
    bool stats = false;
    size_t index;
    json_t *field;
    json_array_foreach(f->fields, index, field)
    {
        stats |= json_is_true(json_object_get(field, "stats"));
    }
    json_decref(f->fields);
    json_decref(f->sample);
    free(f->names);
    free(f);
    //  The containers' live_stat and last_stat, for every field at once,
    //  when one of them asks for them.
    if (stats)
        gw_live_stat_fill(r, r->prefetch_sessions, done, arg);
    else
        done(arg);
}

void
gw_compute_session_fetch(gw_request_t *r,
                         json_t *fields,
                         gw_compute_session_done_fn *done,
                         void *arg)
{
    fetch_t *f = calloc(1, sizeof *f);
    if (!json_is_object(r->prefetch_sessions)) {
        json_decref(r->prefetch_sessions);
        r->prefetch_sessions = json_object();
    }
    //  The names a filter or order may use: the fields every session has.
    proto_session_info_t empty;
    proto_session_info_init(&empty);
    json_t *sample = f ? s_session(r, &empty) : NULL;
    const char **names =
        sample ? calloc(json_object_size(sample) + 1, sizeof *names) : NULL;
    if (!names) {
        free(f);
        json_decref(sample);
        json_decref(fields);
        done(arg); //  the resolvers find no answers: "not reachable"
        return;
    }
    size_t n = 0;
    const char *key;
    json_t *value;
    json_object_foreach(sample, key, value) names[n++] = key;
    f->r = r;
    f->fields = fields;
    f->done = done;
    f->arg = arg;
    f->sample = sample;
    f->names = names;
    s_fetch_next(f);
}

//  ---------------------------------------------------------------------------
//  Resolvers: the answers fetched before the document ran

static json_t *
s_answer(gw_request_t *r, const char *name, json_t *args, bus_error_t *err)
{
    char *key = s_key(name, args);
    json_t *entry = key ? json_object_get(r->prefetch_sessions, key) : NULL;
    free(key);
    json_t *value = json_object_get(entry, "value");
    if (value)
        return json_incref(value);
    const char *why = json_string_value(json_object_get(entry, "error"));
    int status = (int) json_integer_value(json_object_get(entry, "status"));
    if (status && status != BUS_STATUS_UNAVAILABLE)
        bus_error_set(err, status, "%s", why ? why : "");
    else
        bus_error_set(err, BUS_STATUS_UNAVAILABLE, "the scheduler did not answer: %s",
                      why ? why : "not reachable");
    return NULL;
}

static json_t *
q_compute_session(gw_request_t *r, json_t *args, bus_error_t *err)
{
    return s_answer(r, "compute_session", args, err);
}

static json_t *
q_compute_session_list(gw_request_t *r, json_t *args, bus_error_t *err)
{
    return s_answer(r, "compute_session_list", args, err);
}

const gw_gql_root_t gw_compute_session_gql[] = {
    {"query", "compute_session", q_compute_session},
    {"query", "compute_session_list", q_compute_session_list},
    {NULL, NULL, NULL},
};
