/*  =========================================================================
    gw_usage_admin - GET /admin/v1/usage, Backplane's usage summaries

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define S_DAY_US (86400LL * 1000000LL)

//  The groupings this route offers (accounting's names; sessions are what
//  /resource/usage lists) and the record that names each key.
static const struct {
    const char *group_by;
    char *(*name_of)(bus_db_t *db, const char *key); //  NULL: the key is its own name
} s_groupings[] = {
    {"domain", NULL},        {"project", gw_group_name},
    {"user", gw_user_email}, {"resource_group", NULL},
    {"image", NULL},
};

//  The figures of a row, in the CSV's column order after the key columns.
static const char *const s_figures[] = {
    "held_s",        "cpu_held_s",     "mem_held_byte_s", "accel_device_s",
    "accel_share_s", "cpu_used_s",     "mem_used_byte_s", "mem_peak_bytes",
    "io_read_bytes", "io_write_bytes", "net_rx_bytes",    "net_tx_bytes",
};

//  What the reply needs once accounting answers: kept in the request's
//  params under hidden keys, so nothing outlives the request.
#define S_GROUPING "\x1fgrouping"

//  "YYYY-MM-DD" or "YYYYMMDD" as the microseconds of its 00:00 UTC, or -1.
static int64_t
s_day(const char *text)
{
    int v[3] = {0, 0, 0}, widths[3] = {4, 2, 2};
    const char *p = text ? text : "";
    bool dashes = strlen(p) == 10;
    for (int i = 0; i < 3; i++) {
        if (i > 0 && dashes && *p++ != '-')
            return -1;
        for (int d = 0; d < widths[i]; d++, p++) {
            if (*p < '0' || *p > '9')
                return -1;
            v[i] = v[i] * 10 + (*p - '0');
        }
    }
    if (*p || v[0] < 1970 || v[0] > 9999 || v[1] < 1 || v[1] > 12 || v[2] < 1 ||
        v[2] > 31)
        return -1;
    struct tm tm = {.tm_year = v[0] - 1900, .tm_mon = v[1] - 1, .tm_mday = v[2]};
    time_t t = timegm(&tm);
    //  timegm carries 31 February into March: not a day.
    if (t == (time_t) -1 || tm.tm_mday != v[2] || tm.tm_mon != v[1] - 1)
        return -1;
    return (int64_t) t * 1000000LL;
}

static json_t *
s_time(int64_t us)
{
    char text[40];
    gw_time_iso(us, text);
    return json_string(text);
}

//  A figure as JSON: byte counts are integers, the rest seconds (reals).
static void
s_set_figures(json_t *row, const proto_accounting_figures_t *f)
{
    json_object_set_new(row, "held_s", json_real(f->held_s));
    json_object_set_new(row, "cpu_held_s", json_real(f->cpu_held_s));
    json_object_set_new(row, "mem_held_byte_s", json_real(f->mem_held_byte_s));
    json_object_set_new(row, "accel_device_s", json_real(f->accel_device_s));
    json_object_set_new(row, "accel_share_s", json_real(f->accel_share_s));
    json_object_set_new(row, "cpu_used_s", json_real(f->cpu_used_s));
    json_object_set_new(row, "mem_used_byte_s", json_real(f->mem_used_byte_s));
    json_object_set_new(row, "mem_peak_bytes",
                        json_integer((json_int_t) f->mem_peak_bytes));
    json_object_set_new(row, "io_read_bytes",
                        json_integer((json_int_t) f->io_read_bytes));
    json_object_set_new(row, "io_write_bytes",
                        json_integer((json_int_t) f->io_write_bytes));
    json_object_set_new(row, "net_rx_bytes", json_integer((json_int_t) f->net_rx_bytes));
    json_object_set_new(row, "net_tx_bytes", json_integer((json_int_t) f->net_tx_bytes));
}

//  One CSV field (RFC 4180): quoted when it holds a comma, a quote or a
//  line break, its quotes doubled.
static void
s_csv_field(zchunk_t *out, json_t *value)
{
    char number[64] = "";
    const char *text = number;
    if (json_is_string(value))
        text = json_string_value(value);
    else if (json_is_integer(value))
        snprintf(number, sizeof number, "%" JSON_INTEGER_FORMAT,
                 json_integer_value(value));
    else if (json_is_real(value))
        snprintf(number, sizeof number, "%.17g", json_real_value(value));
    if (!strpbrk(text, ",\"\r\n")) {
        zchunk_extend(out, text, strlen(text));
        return;
    }
    zchunk_extend(out, "\"", 1);
    for (const char *p = text; *p; p++) {
        if (*p == '"')
            zchunk_extend(out, "\"", 1);
        zchunk_extend(out, p, 1);
    }
    zchunk_extend(out, "\"", 1);
}

//  The CSV columns: the key columns, then the figures.
static const char *const s_key_columns[] = {"key", "name", "domain_name", "kernels",
                                            "sessions"};

//  rows as CSV, a header row first. Caller destroys the result.
static zchunk_t *
s_csv(json_t *rows)
{
    zchunk_t *out = zchunk_new(NULL, 4096);
    size_t keys = sizeof s_key_columns / sizeof s_key_columns[0];
    size_t figures = sizeof s_figures / sizeof s_figures[0];
    for (size_t c = 0; c < keys + figures; c++) {
        const char *column = c < keys ? s_key_columns[c] : s_figures[c - keys];
        zchunk_extend(out, c ? "," : "", c ? 1 : 0);
        zchunk_extend(out, column, strlen(column));
    }
    zchunk_extend(out, "\r\n", 2);
    size_t index;
    json_t *row;
    json_array_foreach(rows, index, row)
    {
        for (size_t c = 0; c < keys + figures; c++) {
            const char *column = c < keys ? s_key_columns[c] : s_figures[c - keys];
            zchunk_extend(out, c ? "," : "", c ? 1 : 0);
            s_csv_field(out, json_object_get(row, column));
        }
        zchunk_extend(out, "\r\n", 2);
    }
    return out;
}

//  The key of a group under the grouping at index (s_groupings).
static const char *
s_key(const proto_accounting_group_t *g, size_t grouping)
{
    const char *name = s_groupings[grouping].group_by;
    const char *key = strcmp(name, "domain") == 0    ? g->domain_name
                      : strcmp(name, "project") == 0 ? g->group_id
                      : strcmp(name, "user") == 0    ? g->user_uuid
                      : strcmp(name, "image") == 0   ? g->image
                                                     : g->scaling_group;
    return key ? key : "";
}

//  What the gateway's tables call key (a project's name, a user's email),
//  or the key itself.
static json_t *
s_name(gw_request_t *r, size_t grouping, const char *key)
{
    if (!s_groupings[grouping].name_of || !*key)
        return json_string(key);
    char *name = s_groupings[grouping].name_of(gw_server_db(r->gw), key);
    json_t *out = json_string(name ? name : key);
    free(name);
    return out;
}

static void
s_on_usage(void *arg, const bus_reply_t *reply)
{
    gw_request_t *r = arg;
    proto_accounting_usage_rep_t rep;
    if (!gw_usage_decode(r, reply, &rep))
        return; //  answered
    size_t grouping = (size_t) json_integer_value(json_object_get(r->params, S_GROUPING));
    json_t *rows = json_array();
    proto_accounting_figures_t total;
    proto_accounting_figures_init(&total);
    uint64_t kernels = 0, sessions = 0;
    for (size_t i = 0; i < rep.groups_count; i++) {
        const proto_accounting_group_t *g = &rep.groups[i];
        const char *key = s_key(g, grouping);
        json_t *row = json_object();
        json_object_set_new(row, "key", json_string(key));
        json_object_set_new(row, "name", s_name(r, grouping, key));
        json_object_set_new(row, "domain_name",
                            json_string(g->domain_name ? g->domain_name : ""));
        json_object_set_new(row, "kernels", json_integer((json_int_t) g->kernel_count));
        json_object_set_new(row, "sessions", json_integer((json_int_t) g->session_count));
        s_set_figures(row, &g->usage);
        json_array_append_new(rows, row);
        bus_figures_add(&total, &g->usage);
        kernels += g->kernel_count;
        sessions += g->session_count;
    }
    int64_t from = rep.from, to = rep.to;
    proto_accounting_usage_rep_clear(&rep);
    const char *format = json_string_value(json_object_get(r->params, "format"));
    if (format && strcmp(format, "csv") == 0) {
        zchunk_t *csv = s_csv(rows);
        json_decref(rows);
        gw_reply_bytes(r, 200, "text/csv; charset=utf-8", zchunk_data(csv),
                       zchunk_size(csv));
        zchunk_destroy(&csv);
        return;
    }
    json_t *sum = json_object();
    json_object_set_new(sum, "kernels", json_integer((json_int_t) kernels));
    json_object_set_new(sum, "sessions", json_integer((json_int_t) sessions));
    s_set_figures(sum, &total);
    json_t *domain = json_object_get(r->params, "domain");
    json_t *out = json_object();
    json_object_set_new(out, "group_by", json_string(s_groupings[grouping].group_by));
    json_object_set_new(out, "start", s_time(from));
    json_object_set_new(out, "end", s_time(to));
    json_object_set_new(out, "domain", domain ? json_copy(domain) : json_null());
    json_object_set_new(out, "groups", rows);
    json_object_set_new(out, "total", sum);
    gw_reply_json(r, 200, out);
}

void
gw_usage_admin_handle(gw_request_t *r)
{
    bool super = gw_identity_is_superadmin(&r->who);
    if (!super && r->who.role != GW_ROLE_ADMIN) {
        gw_reply_problem(r, "generic-forbidden",
                         "Only a superadmin or a domain admin may read usage.");
        return;
    }
    const char *group_by = "project", *start = NULL, *end = NULL, *format = "json",
               *domain = NULL;
    char detail[128] = "";
    if (!gw_params_str(r->params, "group_by", &group_by, detail, sizeof detail) ||
        !gw_params_str(r->params, "start", &start, detail, sizeof detail) ||
        !gw_params_str(r->params, "end", &end, detail, sizeof detail) ||
        !gw_params_str(r->params, "format", &format, detail, sizeof detail) ||
        !gw_params_str(r->params, "domain", &domain, detail, sizeof detail)) {
        gw_reply_problem(r, "invalid-api-params", detail);
        return;
    }
    size_t grouping = 0, count = sizeof s_groupings / sizeof s_groupings[0];
    while (grouping < count && strcmp(s_groupings[grouping].group_by, group_by) != 0)
        grouping++;
    if (grouping == count) {
        gw_reply_problem(r, "invalid-api-params",
                         "group_by must be domain, project, user, resource_group or "
                         "image");
        return;
    }
    if (strcmp(format, "json") != 0 && strcmp(format, "csv") != 0) {
        gw_reply_problem(r, "invalid-api-params", "format must be json or csv");
        return;
    }
    int64_t from = s_day(start), last = s_day(end);
    if (from < 0 || last < 0) {
        gw_reply_problem(r, "invalid-api-params",
                         "start and end must be days, YYYY-MM-DD (UTC)");
        return;
    }
    if (last < from) {
        gw_reply_problem(r, "invalid-api-params", "end must not be before start");
        return;
    }
    if ((last - from) / S_DAY_US + 1 > GW_USAGE_ADMIN_DAYS_MAX) {
        gw_reply_problem(r, "invalid-api-params", "the period may not exceed 366 days");
        return;
    }
    //  A domain admin reads their own domain, whatever was asked.
    if (domain && !*domain)
        domain = NULL;
    if (!super && domain && strcmp(domain, r->who.domain) != 0) {
        gw_reply_problem(r, "generic-forbidden",
                         "A domain admin may read only their own domain's usage.");
        return;
    }
    if (!super && !domain) {
        json_object_set_new(r->params, "domain", json_string(r->who.domain));
        domain = r->who.domain;
    }
    json_object_set_new(r->params, S_GROUPING, json_integer((json_int_t) grouping));
    json_object_set_new(r->params, "format", json_string(format));
    proto_accounting_usage_req_t req;
    proto_accounting_usage_req_init(&req);
    req.group_by = group_by;
    req.from = from;
    req.to = (int64_t) (last + S_DAY_US);
    req.domain_name = domain;
    req.with_kernels = false;
    bus_writer_t *writer = bus_writer_new();
    int rc = writer ? proto_accounting_usage_req_write(&req, writer) : -1;
    bus_log_info("usage summary group_by=%s from=%" PRId64 " to=%" PRId64
                 " domain=%s by=%s",
                 group_by, from, req.to, domain ? domain : "*", r->who.access_key);
    proto_accounting_usage_req_clear(&req);
    gw_usage_ask(r, PROTO_ACCOUNTING_USAGE, writer, rc, s_on_usage);
}
