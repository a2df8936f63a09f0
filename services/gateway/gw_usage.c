/*  =========================================================================
    gw_usage - usage and statistics, answered from the accounting service

    GET /resource/usage/month and /resource/usage/period (superadmins: the
    per-project list the official client prints, every key of it present,
    times as Python's str() writes them) ask accounting.usage for the
    window; GET /resource/stats/user/month (anyone, their own kernels) asks
    accounting.stats_user, and GET /resource/stats/admin/month
    (superadmins, every kernel) accounting.stats_all, for the 2,880 bins of
    15 minutes, written as Backend.AI's {value, unit_hint} objects. The
    names the records do not carry (a project's, a user's email and full
    name) come from the gateway's own tables.
    POST /resource/recalculate-usage (superadmins) does what Backend.AI's
    does for its counters and more: the scheduler recounts its ledger's
    aggregates from the allocation rows (scheduler.recalculate: each
    agent's occupied slots, each keypair's slots and concurrent sessions),
    then accounting rebuilds its hourly and daily roll-ups from the raw
    samples (accounting.recalculate). It answers {} as Backend.AI does once
    both are done; without an accounting service the scheduler's part
    alone.

    Windows are UTC. A month is YYYYMM; a period is start_date and end_date
    as YYYYMMDD with the end day included, at most 100 days (accounting
    refuses more).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define S_DAY_US      (86400LL * 1000000LL)
#define S_PERIOD_DAYS 100 //  Backend.AI's limit on usage/period
#define S_GROUPS_MAX  PROTO_ACCOUNTING_USAGE_REQ_GROUP_IDS_MAX
#define S_TIMEOUT_MS  10000
//  A rebuild of the roll-ups reads a week of raw samples.
#define S_RECALCULATE_MS 60000

//  The accounting service's endpoint, or NULL (answered 503).
static const char *
s_accounting(gw_request_t *r)
{
    const char *endpoint = bus_node_find(gw_server_node(r->gw), "accounting");
    if (!endpoint)
        gw_reply_status(r, BUS_STATUS_UNAVAILABLE,
                        "the accounting service is not reachable");
    return endpoint;
}

//  Sends method with what writer holds (rc: how its encoding went) to the
//  service at endpoint, fn answering r; answers r itself when it cannot be
//  sent. Destroys writer.
static void
s_send_to(gw_request_t *r,
          const char *endpoint,
          const char *method,
          bus_writer_t *writer,
          int rc,
          int timeout_ms,
          bus_reply_fn *fn)
{
    if (rc != 0)
        gw_reply_status(r, BUS_STATUS_INVALID, "the request cannot be encoded");
    else if (!bus_node_call(gw_server_node(r->gw), endpoint, method,
                            bus_writer_data(writer), bus_writer_size(writer), timeout_ms,
                            fn, r))
        gw_reply_status(r, BUS_STATUS_UNAVAILABLE, "the service is not reachable");
    bus_writer_destroy(&writer);
}

static void
s_send(gw_request_t *r,
       const char *accounting,
       const char *method,
       bus_writer_t *writer,
       int rc,
       bus_reply_fn *fn)
{
    s_send_to(r, accounting, method, writer, rc, S_TIMEOUT_MS, fn);
}

void
gw_usage_ask(
    gw_request_t *r, const char *method, bus_writer_t *writer, int rc, bus_reply_fn *fn)
{
    const char *accounting = s_accounting(r);
    if (accounting)
        s_send(r, accounting, method, writer, rc, fn);
    else
        bus_writer_destroy(&writer);
}

static bool
s_superadmin(gw_request_t *r)
{
    if (gw_identity_is_superadmin(&r->who))
        return true;
    gw_reply_problem(r, "generic-forbidden", "Only a superadmin may read usage.");
    return false;
}

//  Microseconds of 00:00 UTC of the day, or -1 when the date is not one.
static int64_t
s_day_us(int year, int month, int day)
{
    if (year < 1970 || year > 9999 || month < 1 || month > 12 || day < 1 || day > 31)
        return -1;
    struct tm tm = {.tm_year = year - 1900, .tm_mon = month - 1, .tm_mday = day};
    time_t t = timegm(&tm);
    //  timegm normalizes 31 February to March: such a date is not one.
    if (t == (time_t) -1 || tm.tm_mday != day || tm.tm_mon != month - 1)
        return -1;
    return (int64_t) t * 1000000LL;
}

//  Reads digits digits of text as a number; -1 when they are not all digits.
static int
s_digits(const char *text, int digits)
{
    int value = 0;
    for (int i = 0; i < digits; i++) {
        if (text[i] < '0' || text[i] > '9')
            return -1;
        value = value * 10 + (text[i] - '0');
    }
    return value;
}

//  "YYYYMM" (Backend.AI's regex is ^\d{6}: more may follow) as [from, to).
static bool
s_month(const char *text, int64_t *from, int64_t *to)
{
    if (!text || strlen(text) < 6)
        return false;
    int year = s_digits(text, 4), month = s_digits(text + 4, 2);
    if (year < 0 || month < 0)
        return false;
    *from = s_day_us(year, month, 1);
    *to = month == 12 ? s_day_us(year + 1, 1, 1) : s_day_us(year, month + 1, 1);
    return *from >= 0 && *to > *from;
}

//  "YYYYMMDD" as the microseconds of its 00:00 UTC, or -1.
static int64_t
s_date(const char *text)
{
    if (!text || strlen(text) != 8)
        return -1;
    int year = s_digits(text, 4), month = s_digits(text + 4, 2),
        day = s_digits(text + 6, 2);
    return year < 0 || month < 0 || day < 0 ? -1 : s_day_us(year, month, day);
}

//  Python's str() of an aware UTC datetime: "2026-10-05 12:34:56.123456+00:00",
//  no fraction when it is zero; the official client prints it as is.
static json_t *
s_py_time(int64_t us)
{
    char text[40];
    gw_time_iso(us, text); //  2026-10-05T12:34:56.123456+00:00
    text[10] = ' ';
    if (us % 1000000 == 0)
        memmove(text + 19, text + 26, strlen(text + 26) + 1); //  drop ".000000"
    return json_string(text);
}

//  Python's str() of a timedelta: "1 day, 2:03:04.500000", "0:00:08.070000".
static json_t *
s_py_timedelta(int64_t us)
{
    if (us < 0)
        us = 0;
    int64_t days = us / S_DAY_US, rest = us % S_DAY_US;
    int64_t hours = rest / 3600000000LL, minutes = rest / 60000000LL % 60;
    int64_t seconds = rest / 1000000 % 60, micros = rest % 1000000;
    char text[96], head[32] = "", fraction[16] = "";
    if (days)
        snprintf(head, sizeof head, "%" PRId64 " day%s, ", days, days == 1 ? "" : "s");
    if (micros)
        snprintf(fraction, sizeof fraction, ".%06" PRId64, micros);
    snprintf(text, sizeof text, "%s%" PRId64 ":%02" PRId64 ":%02" PRId64 "%s", head,
             hours, minutes, seconds, fraction);
    return json_string(text);
}

//  A slot's amount as a JSON number (the decimal strings of the records).
static json_t *
s_slot_number(const proto_accounting_kernel_t *kernel, const char *slot)
{
    for (size_t i = 0; i < kernel->slots_count; i++)
        if (strcmp(kernel->slots[i].key, slot) == 0) {
            double value = strtod(kernel->slots[i].value, NULL);
            return value == (double) (json_int_t) value ? json_integer((json_int_t) value)
                                                        : json_real(value);
        }
    return json_integer(0);
}

//  The accelerator slots a kernel held (device types), and their sum.
static json_t *
s_device_types(const proto_accounting_kernel_t *kernel, double *amount)
{
    json_t *types = json_array();
    for (size_t i = 0; i < kernel->slots_count; i++) {
        const char *slot = kernel->slots[i].key;
        if (strcmp(slot, "cpu") == 0 || strcmp(slot, "mem") == 0)
            continue;
        const char *dot = strchr(slot, '.');
        json_array_append_new(types, dot ? json_stringn(slot, (size_t) (dot - slot))
                                         : json_string(slot));
        if (amount)
            *amount += strtod(kernel->slots[i].value, NULL);
    }
    return types;
}

//  One kernel as Backend.AI's c_info: every key the official client prints.
static json_t *
s_c_info(gw_request_t *r, const proto_accounting_kernel_t *kernel, const char *group_name)
{
    const proto_accounting_figures_t *used = &kernel->usage;
    json_t *user = gw_user_contact(gw_server_db(r->gw), kernel->user_uuid);
    const char *email = json_string_value(json_object_get(user, "email"));
    const char *full_name = json_string_value(json_object_get(user, "full_name"));
    double gpu = 0;
    json_t *devices = s_device_types(kernel, &gpu);
    bool started = kernel->started_at > 0;
    int64_t end = kernel->ended_at ? kernel->ended_at : bus_clock_wall_us();
    int64_t used_us = started ? end - kernel->started_at : 0;
    json_t *info = json_object();
    json_object_set_new(info, "id", json_string(kernel->kernel_id));
    json_object_set_new(info, "session_id",
                        json_string(kernel->session_id ? kernel->session_id : ""));
    json_object_set_new(info, "container_id",
                        json_string(kernel->container_id ? kernel->container_id : ""));
    json_object_set_new(info, "domain_name",
                        json_string(kernel->domain_name ? kernel->domain_name : ""));
    json_object_set_new(info, "group_id",
                        json_string(kernel->group_id ? kernel->group_id : ""));
    json_object_set_new(info, "group_name", json_string(group_name ? group_name : ""));
    json_object_set_new(info, "name",
                        json_string(kernel->session_name ? kernel->session_name : ""));
    json_object_set_new(info, "access_key",
                        json_string(kernel->access_key ? kernel->access_key : ""));
    json_object_set_new(info, "email", email ? json_string(email) : json_null());
    json_object_set_new(info, "full_name",
                        full_name ? json_string(full_name) : json_null());
    json_object_set_new(info, "agent",
                        json_string(kernel->agent_id ? kernel->agent_id : ""));
    json_object_set_new(info, "cpu_allocated", s_slot_number(kernel, "cpu"));
    json_object_set_new(info, "cpu_used",
                        json_integer((json_int_t) (used->cpu_used_s * 1000)));
    json_object_set_new(info, "mem_allocated", s_slot_number(kernel, "mem"));
    json_object_set_new(info, "mem_used",
                        json_integer((json_int_t) used->mem_peak_bytes));
    json_object_set_new(info, "shared_memory", json_integer(0));
    json_object_set_new(info, "disk_allocated", json_integer(0));
    json_object_set_new(info, "disk_used", json_integer(0));
    json_object_set_new(info, "io_read", json_integer((json_int_t) used->io_read_bytes));
    json_object_set_new(info, "io_write",
                        json_integer((json_int_t) used->io_write_bytes));
    json_object_set_new(info, "used_time",
                        started ? s_py_timedelta(used_us) : json_null());
    json_object_set_new(info, "used_days",
                        started ? json_integer((json_int_t) (used_us / S_DAY_US))
                                : json_null());
    json_object_set_new(info, "device_type", devices);
    json_object_set_new(info, "smp", json_integer(1));
    json_object_set_new(info, "gpu_mem_allocated", json_integer(0));
    json_object_set_new(info, "gpu_allocated", json_real(gpu));
    json_object_set_new(info, "nfs", json_array());
    json_object_set_new(info, "image_id", json_string(""));
    json_object_set_new(info, "image_name",
                        json_string(kernel->image ? kernel->image : ""));
    json_object_set_new(info, "created_at", s_py_time(kernel->created_at));
    json_object_set_new(info, "terminated_at",
                        kernel->ended_at ? s_py_time(kernel->ended_at)
                                         : json_string("None"));
    json_object_set_new(info, "status",
                        json_string(kernel->status ? kernel->status : ""));
    json_object_set_new(info, "status_info",
                        json_string(kernel->status_info ? kernel->status_info : ""));
    json_object_set_new(info, "status_changed",
                        kernel->ended_at ? s_py_time(kernel->ended_at) : json_null());
    json_object_set_new(info, "status_history", json_object());
    json_object_set_new(info, "cluster_mode", json_string("single-node"));
    json_decref(user);
    return info;
}

//  One project's usage as Backend.AI's per-project object.
static json_t *
s_project(gw_request_t *r, const proto_accounting_group_t *group)
{
    char *name = gw_group_name(gw_server_db(r->gw), group->group_id);
    const proto_accounting_figures_t *used = &group->usage;
    json_t *infos = json_array(), *types = json_array();
    for (size_t i = 0; i < group->kernels_count; i++) {
        json_t *info = s_c_info(r, &group->kernels[i], name);
        size_t index;
        json_t *type;
        json_array_foreach(json_object_get(info, "device_type"), index, type)
        {
            bool known = false;
            size_t k;
            json_t *seen;
            json_array_foreach(types, k, seen) known |= json_equal(seen, type);
            if (!known)
                json_array_append(types, type);
        }
        json_array_append_new(infos, info);
    }
    json_t *out = json_object();
    json_object_set_new(out, "domain_name",
                        json_string(group->domain_name ? group->domain_name : ""));
    json_object_set_new(out, "g_id", json_string(group->group_id ? group->group_id : ""));
    json_object_set_new(out, "g_name", json_string(name ? name : ""));
    json_object_set_new(out, "g_cpu_allocated", json_real(group->cpu_allocated));
    json_object_set_new(out, "g_cpu_used",
                        json_integer((json_int_t) (used->cpu_used_s * 1000)));
    json_object_set_new(out, "g_mem_allocated",
                        json_integer((json_int_t) group->mem_allocated));
    json_object_set_new(out, "g_mem_used",
                        json_integer((json_int_t) used->mem_peak_bytes));
    json_object_set_new(out, "g_shared_memory", json_integer(0));
    json_object_set_new(out, "g_disk_allocated", json_integer(0));
    json_object_set_new(out, "g_disk_used", json_integer(0));
    json_object_set_new(out, "g_io_read", json_integer((json_int_t) used->io_read_bytes));
    json_object_set_new(out, "g_io_write",
                        json_integer((json_int_t) used->io_write_bytes));
    json_object_set_new(out, "g_device_type", types);
    json_object_set_new(out, "g_smp", json_real(group->cpu_allocated)); //  cores, as smp
    json_object_set_new(out, "g_gpu_mem_allocated", json_integer(0));
    json_object_set_new(out, "g_gpu_allocated", json_real(group->accel_allocated));
    json_object_set_new(out, "c_infos", infos);
    free(name);
    return out;
}

bool
gw_usage_decode(gw_request_t *r,
                const bus_reply_t *reply,
                proto_accounting_usage_rep_t *rep)
{
    if (reply->status != BUS_OK) {
        gw_reply_status(r, reply->status, reply->detail);
        return false;
    }
    bus_error_t err = {0};
    if (proto_accounting_usage_rep_decode(rep, reply->body, reply->body_size, &err) !=
        BUS_OK) {
        gw_reply_status(r, BUS_STATUS_PROTOCOL, err.detail);
        return false;
    }
    return true;
}

static void
s_on_usage(void *arg, const bus_reply_t *reply)
{
    gw_request_t *r = arg;
    proto_accounting_usage_rep_t rep;
    if (!gw_usage_decode(r, reply, &rep))
        return; //  answered
    json_t *out = json_array();
    for (size_t i = 0; i < rep.groups_count; i++)
        json_array_append_new(out, s_project(r, &rep.groups[i]));
    proto_accounting_usage_rep_clear(&rep);
    gw_reply_json(r, 200, out);
}

//  The projects asked for: a JSON list (what the official client sends), a
//  comma-separated string (a query), one id, or null for all of them.
static bool
s_group_ids(gw_request_t *r, const char *key, const char *alias, json_t **out)
{
    json_t *value = json_object_get(r->params, key);
    if (!value && alias)
        value = json_object_get(r->params, alias);
    *out = json_array();
    if (!value || json_is_null(value))
        return true;
    if (json_is_string(value)) {
        char *copy = strdup(json_string_value(value));
        char *save = NULL;
        for (char *id = copy ? strtok_r(copy, ",", &save) : NULL; id;
             id = strtok_r(NULL, ",", &save))
            if (*id)
                json_array_append_new(*out, json_string(id));
        free(copy);
    } else if (json_is_array(value)) {
        size_t index;
        json_t *id;
        json_array_foreach(value, index, id)
        {
            if (!json_is_string(id)) {
                gw_reply_problem(r, "invalid-api-params",
                                 "group_ids must be project ids");
                json_decref(*out);
                return false;
            }
            json_array_append(*out, id);
        }
    } else {
        gw_reply_problem(r, "invalid-api-params",
                         "group_ids must be a list of project ids");
        json_decref(*out);
        return false;
    }
    if (json_array_size(*out) > S_GROUPS_MAX) {
        gw_reply_problem(r, "invalid-api-params", "at most 100 projects at a time");
        json_decref(*out);
        return false;
    }
    return true;
}

//  Asks accounting.usage for [from, to) of the projects in ids (owned).
static void
s_ask_usage(gw_request_t *r, json_t *ids, int64_t from, int64_t to)
{
    const char *accounting = s_accounting(r);
    if (!accounting) {
        json_decref(ids);
        return;
    }
    size_t count = json_array_size(ids);
    const char **group_ids = count ? calloc(count, sizeof *group_ids) : NULL;
    proto_accounting_usage_req_t req;
    proto_accounting_usage_req_init(&req);
    for (size_t i = 0; i < count && group_ids; i++)
        group_ids[i] = json_string_value(json_array_get(ids, i));
    req.group_ids = group_ids;
    req.group_ids_count = group_ids ? count : 0;
    req.from = from;
    req.to = to; //  group_by: project, the default
    bus_writer_t *writer = bus_writer_new();
    int rc = writer ? proto_accounting_usage_req_write(&req, writer) : -1;
    proto_accounting_usage_req_clear(&req);
    free(group_ids);
    json_decref(ids);
    s_send(r, accounting, PROTO_ACCOUNTING_USAGE, writer, rc, s_on_usage);
}

void
gw_usage_handle_month(gw_request_t *r)
{
    if (!s_superadmin(r))
        return;
    const char *month = NULL;
    char detail[128] = "";
    int64_t from, to;
    if (!gw_params_str(r->params, "month", &month, detail, sizeof detail)) {
        gw_reply_problem(r, "invalid-api-params", detail);
        return;
    }
    if (!s_month(month, &from, &to)) {
        gw_reply_problem(r, "invalid-api-params", "month must be YYYYMM");
        return;
    }
    json_t *ids;
    if (s_group_ids(r, "group_ids", NULL, &ids))
        s_ask_usage(r, ids, from, to);
}

void
gw_usage_handle_period(gw_request_t *r)
{
    if (!s_superadmin(r))
        return;
    const char *start = NULL, *end = NULL;
    char detail[128] = "";
    if (!gw_params_str(r->params, "start_date", &start, detail, sizeof detail) ||
        !gw_params_str(r->params, "end_date", &end, detail, sizeof detail)) {
        gw_reply_problem(r, "invalid-api-params", detail);
        return;
    }
    int64_t from = s_date(start), last = s_date(end);
    if (from < 0 || last < 0) {
        gw_reply_problem(r, "invalid-api-params",
                         "start_date and end_date must be YYYYMMDD");
        return;
    }
    if (last <= from) {
        gw_reply_problem(r, "invalid-api-params", "end_date must be after start_date");
        return;
    }
    if ((last - from) / S_DAY_US >= S_PERIOD_DAYS) {
        gw_reply_problem(r, "invalid-api-params", "the period may not exceed 100 days");
        return;
    }
    json_t *ids;
    if (s_group_ids(r, "project_id", "group_id", &ids))
        s_ask_usage(r, ids, from, last + S_DAY_US);
}

//  {value, unit_hint}
static json_t *
s_measure(json_t *value, const char *unit)
{
    return json_pack("{s:o, s:s}", "value", value, "unit_hint", unit);
}

//  Backend.AI's entries for bins (reference §B.3).
static json_t *
s_bins_json(const proto_accounting_bin_t *bins, size_t count)
{
    json_t *out = json_array();
    for (size_t i = 0; i < count; i++) {
        const proto_accounting_bin_t *bin = &bins[i];
        json_t *entry = json_object();
        json_object_set_new(entry, "date", json_real((double) bin->date / 1e6));
        json_object_set_new(
            entry, "num_sessions",
            s_measure(json_integer((json_int_t) bin->num_sessions), "count"));
        json_object_set_new(
            entry, "cpu_allocated",
            s_measure(json_integer((json_int_t) bin->cpu_allocated), "count"));
        json_object_set_new(
            entry, "mem_allocated",
            s_measure(json_integer((json_int_t) bin->mem_allocated), "bytes"));
        json_object_set_new(entry, "gpu_allocated",
                            s_measure(json_real(bin->gpu_allocated), "count"));
        json_object_set_new(
            entry, "io_read_bytes",
            s_measure(json_integer((json_int_t) bin->io_read_bytes), "bytes"));
        json_object_set_new(
            entry, "io_write_bytes",
            s_measure(json_integer((json_int_t) bin->io_write_bytes), "bytes"));
        json_object_set_new(entry, "disk_used", s_measure(json_integer(0), "bytes"));
        json_array_append_new(out, entry);
    }
    return out;
}

static void
s_on_stats(void *arg, const bus_reply_t *reply)
{
    gw_request_t *r = arg;
    if (reply->status != BUS_OK) {
        gw_reply_status(r, reply->status, reply->detail);
        return;
    }
    proto_accounting_stats_user_rep_t rep;
    bus_error_t err = {0};
    if (proto_accounting_stats_user_rep_decode(&rep, reply->body, reply->body_size,
                                               &err) != BUS_OK) {
        gw_reply_status(r, BUS_STATUS_PROTOCOL, err.detail);
        return;
    }
    json_t *out = s_bins_json(rep.bins, rep.bins_count);
    proto_accounting_stats_user_rep_clear(&rep);
    gw_reply_json(r, 200, out);
}

static void
s_on_stats_all(void *arg, const bus_reply_t *reply)
{
    gw_request_t *r = arg;
    if (reply->status != BUS_OK) {
        gw_reply_status(r, reply->status, reply->detail);
        return;
    }
    proto_accounting_stats_all_rep_t rep;
    bus_error_t err = {0};
    if (proto_accounting_stats_all_rep_decode(&rep, reply->body, reply->body_size,
                                              &err) != BUS_OK) {
        gw_reply_status(r, BUS_STATUS_PROTOCOL, err.detail);
        return;
    }
    json_t *out = s_bins_json(rep.bins, rep.bins_count);
    proto_accounting_stats_all_rep_clear(&rep);
    gw_reply_json(r, 200, out);
}

void
gw_usage_handle_user_stats(gw_request_t *r)
{
    const char *accounting = s_accounting(r);
    if (!accounting)
        return;
    proto_accounting_stats_user_req_t req;
    proto_accounting_stats_user_req_init(&req);
    req.user_uuid = r->who.user_uuid;
    bus_writer_t *writer = bus_writer_new();
    int rc = writer ? proto_accounting_stats_user_req_write(&req, writer) : -1;
    proto_accounting_stats_user_req_clear(&req);
    s_send(r, accounting, PROTO_ACCOUNTING_STATS_USER, writer, rc, s_on_stats);
}

void
gw_usage_handle_admin_stats(gw_request_t *r)
{
    if (!s_superadmin(r))
        return;
    proto_accounting_stats_all_req_t req;
    proto_accounting_stats_all_req_init(&req); //  to: now
    bus_writer_t *writer = bus_writer_new();
    int rc = writer ? proto_accounting_stats_all_req_write(&req, writer) : -1;
    proto_accounting_stats_all_req_clear(&req);
    gw_usage_ask(r, PROTO_ACCOUNTING_STATS_ALL, writer, rc, s_on_stats_all);
}

//  ---------------------------------------------------------------------------
//  POST /resource/recalculate-usage: the scheduler's recount, then
//  accounting's rebuild, one after the other.

static void
s_on_rebuilt(void *arg, const bus_reply_t *reply)
{
    gw_request_t *r = arg;
    if (reply->status != BUS_OK) {
        gw_reply_status(r, reply->status, reply->detail);
        return;
    }
    proto_accounting_recalculate_rep_t rep;
    bus_error_t err = {0};
    if (proto_accounting_recalculate_rep_decode(&rep, reply->body, reply->body_size,
                                                &err) != BUS_OK) {
        gw_reply_status(r, BUS_STATUS_PROTOCOL, err.detail);
        return;
    }
    bus_log_info("usage recalculated: roll-ups hourly=%" PRIu64 " daily=%" PRIu64
                 " kernels=%" PRIu64 " mismatched=%" PRIu64 " by=%s",
                 rep.hourly, rep.daily, rep.kernels, rep.mismatched, r->who.access_key);
    proto_accounting_recalculate_rep_clear(&rep);
    gw_reply_json(r, 200, json_object());
}

static void
s_on_recounted(void *arg, const bus_reply_t *reply)
{
    gw_request_t *r = arg;
    if (reply->status != BUS_OK) {
        gw_reply_status(r, reply->status, reply->detail);
        return;
    }
    proto_scheduler_recalculate_rep_t rep;
    bus_error_t err = {0};
    if (proto_scheduler_recalculate_rep_decode(&rep, reply->body, reply->body_size,
                                               &err) != BUS_OK) {
        gw_reply_status(r, BUS_STATUS_PROTOCOL, err.detail);
        return;
    }
    bus_log_info("usage recalculated: ledger fixed=%" PRIu64 " violations=%" PRIu64
                 " by=%s",
                 rep.fixed, rep.violations, r->who.access_key);
    proto_scheduler_recalculate_rep_clear(&rep);
    const char *accounting = bus_node_find(gw_server_node(r->gw), "accounting");
    if (!accounting) {
        bus_log_notice("usage recalculated without an accounting service");
        gw_reply_json(r, 200, json_object());
        return;
    }
    proto_accounting_recalculate_req_t req;
    proto_accounting_recalculate_req_init(&req);
    bus_writer_t *writer = bus_writer_new();
    int rc = writer ? proto_accounting_recalculate_req_write(&req, writer) : -1;
    proto_accounting_recalculate_req_clear(&req);
    s_send_to(r, accounting, PROTO_ACCOUNTING_RECALCULATE, writer, rc, S_RECALCULATE_MS,
              s_on_rebuilt);
}

void
gw_usage_handle_recalculate(gw_request_t *r)
{
    if (!gw_identity_is_superadmin(&r->who)) {
        gw_reply_problem(r, "generic-forbidden",
                         "Only a superadmin may recalculate usage.");
        return;
    }
    const char *scheduler = bus_node_find(gw_server_node(r->gw), "scheduler");
    if (!scheduler) {
        gw_reply_status(r, BUS_STATUS_UNAVAILABLE, "the scheduler is not reachable");
        return;
    }
    proto_scheduler_recalculate_req_t req;
    proto_scheduler_recalculate_req_init(&req);
    bus_writer_t *writer = bus_writer_new();
    int rc = writer ? proto_scheduler_recalculate_req_write(&req, writer) : -1;
    proto_scheduler_recalculate_req_clear(&req);
    s_send_to(r, scheduler, PROTO_SCHEDULER_RECALCULATE, writer, rc, S_RECALCULATE_MS,
              s_on_recounted);
}
