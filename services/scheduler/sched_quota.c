/*  =========================================================================
    sched_quota - quota scopes and Backend.AI's scheduling predicates (pure)

    The predicates are a table run in order; each one decides, and formats
    its message only when a verdict is wanted, so the hot path of a pass
    (the admit hook, thousands of sessions) never touches a string. Sums
    and products of amounts are taken in 128 bits, so a hostile policy or
    request (INT64_MAX slots, 64 kernels) is refused, not wrapped. Messages
    follow manager/scheduler/predicates.py: the resource-limit ones list,
    for each slot that would go over, the scope's limit; the pending-slots
    one lists what the pending sessions would hold, as Backend.AI shows its
    pending occupancy.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "sched_model.h"
#include "sched_quota.h"

typedef __int128 wide_t; //  exact sums and products of int64 amounts

#define S_USEC_PER_SEC 1000000

typedef struct predicate_s predicate_t;

//  A predicate: true when p passes. msg is NULL when no verdict is wanted;
//  otherwise a failing predicate writes its message there.
typedef bool(predicate_fn)(const sched_quota_t *q,
                           const sched_pending_t *p,
                           const predicate_t *self,
                           char *msg);

struct predicate_s {
    const char *name;
    predicate_fn *fn;
    sched_scope_kind_t scope; //  the scope it reads
    const char *whose;        //  resource limits: the word in the message
};

//  Appends to a message buffer of size bytes holding *len; truncates.
static void s_append(char *buf, size_t size, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
s_append(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
    if (*len + 1 >= size)
        return;
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(buf + *len, size - *len, fmt, args);
    va_end(args);
    if (n < 0)
        return;
    size_t room = size - 1 - *len;
    *len += (size_t) n < room ? (size_t) n : room;
}

static int64_t
s_saturate(wide_t x)
{
    if (x > INT64_MAX)
        return INT64_MAX;
    if (x < INT64_MIN)
        return INT64_MIN;
    return (int64_t) x;
}

static const char *
s_slot_name(const char *const *slot_names, size_t i)
{
    return slot_names && slot_names[i] ? slot_names[i] : "?";
}

//  "name=amount" in the slot's unit; a slot bus_slots does not know is a count.
static void
s_append_amount(char *buf, size_t size, size_t *len, const char *name, int64_t amount)
{
    bus_slots_unit_t unit = bus_slots_unit(name);
    if (unit == BUS_SLOTS_UNKNOWN)
        unit = BUS_SLOTS_COUNT;
    bus_slots_value_t value = {.infinite = false, .amount = amount};
    char text[BUS_SLOTS_VALUE_MAX];
    bus_slots_format_value(unit, &value, text);
    s_append(buf, size, len, "%s=%s", name, text);
}

static const sched_scope_t *
s_scope(const sched_quota_t *q, const sched_pending_t *p, sched_scope_kind_t kind)
{
    assert(p->scopes[kind] < q->scope_count);
    return &q->scopes[p->scopes[kind]];
}

static bool
s_concurrency(const sched_quota_t *q,
              const sched_pending_t *p,
              const predicate_t *self,
              char *msg)
{
    const sched_scope_t *keypair = s_scope(q, p, self->scope);
    int64_t max = keypair->max_concurrent_sessions;
    //  Backend.AI's counter script treats a limit <= 0 as no limit.
    if (max == SCHED_UNLIMITED || max <= 0 || keypair->concurrent < max)
        return true;
    if (msg)
        snprintf(msg, SCHED_PREDICATE_MSG_MAX,
                 "You cannot run more than %" PRId64 " concurrent sessions", max);
    return false;
}

static bool
s_resource_limit(const sched_quota_t *q,
                 const sched_pending_t *p,
                 const predicate_t *self,
                 char *msg)
{
    const sched_scope_t *scope = s_scope(q, p, self->scope);
    bool passed = true;
    size_t len = 0;
    for (size_t i = 0; i < q->slot_count; i++) {
        int64_t limit = scope->limit.v[i];
        if (limit == SCHED_UNLIMITED)
            continue;
        wide_t want =
            (wide_t) scope->occupied.v[i] + (wide_t) p->request.v[i] * p->kernel_count;
        if (want <= limit)
            continue;
        if (!msg)
            return false;
        if (passed)
            s_append(msg, SCHED_PREDICATE_MSG_MAX, &len,
                     "Your %s resource quota is exceeded. (", self->whose);
        else
            s_append(msg, SCHED_PREDICATE_MSG_MAX, &len, " ");
        s_append_amount(msg, SCHED_PREDICATE_MSG_MAX, &len, s_slot_name(q->slot_names, i),
                        limit);
        passed = false;
    }
    if (!passed)
        s_append(msg, SCHED_PREDICATE_MSG_MAX, &len, ")");
    return passed;
}

static bool
s_max_containers(const sched_quota_t *q,
                 const sched_pending_t *p,
                 const predicate_t *self,
                 char *msg)
{
    const sched_scope_t *keypair = s_scope(q, p, self->scope);
    int64_t max = keypair->max_containers_per_session;
    if (max == SCHED_UNLIMITED || (int64_t) p->kernel_count <= max)
        return true;
    if (msg)
        snprintf(msg, SCHED_PREDICATE_MSG_MAX,
                 "You cannot create session with more than %" PRId64 " containers.", max);
    return false;
}

//  Backend.AI's dispatcher order; max_containers_per_session, which
//  Backend.AI checks when the session is created, comes last.
static const predicate_t s_predicates[] = {
    {SCHED_PRED_CONCURRENCY, s_concurrency, SCHED_SCOPE_KEYPAIR, NULL},
    {SCHED_PRED_KEYPAIR_LIMIT, s_resource_limit, SCHED_SCOPE_KEYPAIR, "keypair"},
    {SCHED_PRED_USER_LIMIT, s_resource_limit, SCHED_SCOPE_USER, "main-keypair"},
    {SCHED_PRED_PROJECT_LIMIT, s_resource_limit, SCHED_SCOPE_PROJECT, "group"},
    {SCHED_PRED_DOMAIN_LIMIT, s_resource_limit, SCHED_SCOPE_DOMAIN, "domain"},
    {SCHED_PRED_MAX_CONTAINERS, s_max_containers, SCHED_SCOPE_KEYPAIR, NULL},
};

#define S_PREDICATE_COUNT (sizeof s_predicates / sizeof s_predicates[0])
_Static_assert(S_PREDICATE_COUNT <= SCHED_PREDICATE_MAX,
               "a verdict holds every predicate");

void
sched_quota_total(const sched_pending_t *p, size_t slot_count, sched_vec_t *total)
{
    assert(p && total && slot_count <= SCHED_SLOTS_MAX);
    memset(total, 0, sizeof *total);
    for (size_t i = 0; i < slot_count; i++)
        total->v[i] = s_saturate((wide_t) p->request.v[i] * p->kernel_count);
}

bool
sched_quota_check(const sched_quota_t *q, const sched_pending_t *p, sched_verdict_t *v)
{
    assert(q && p && q->slot_count <= SCHED_SLOTS_MAX);
    if (v)
        v->passed_count = v->failed_count = 0;
    bool passed = true;
    for (size_t k = 0; k < S_PREDICATE_COUNT; k++) {
        const predicate_t *pred = &s_predicates[k];
        if (!v) {
            if (!pred->fn(q, p, pred, NULL))
                return false;
            continue;
        }
        char msg[SCHED_PREDICATE_MSG_MAX] = "";
        bool ok = pred->fn(q, p, pred, msg);
        sched_predicate_t *out =
            ok ? &v->passed[v->passed_count++] : &v->failed[v->failed_count++];
        snprintf(out->name, sizeof out->name, "%s", pred->name);
        snprintf(out->msg, sizeof out->msg, "%s", ok ? "" : msg);
        passed &= ok;
    }
    return passed;
}

void
sched_quota_charge(sched_quota_t *q, const sched_pending_t *p)
{
    assert(q && p && q->slot_count <= SCHED_SLOTS_MAX);
    sched_vec_t total;
    sched_quota_total(p, q->slot_count, &total);
    for (size_t k = 0; k < 4; k++) {
        bool seen = false;
        for (size_t j = 0; j < k; j++)
            seen |= p->scopes[j] == p->scopes[k];
        if (seen)
            continue;
        assert(p->scopes[k] < q->scope_count);
        sched_scope_t *scope = &q->scopes[p->scopes[k]];
        for (size_t i = 0; i < q->slot_count; i++)
            scope->occupied.v[i] = s_saturate((wide_t) scope->occupied.v[i] + total.v[i]);
    }
    sched_scope_t *keypair = &q->scopes[p->scopes[SCHED_SCOPE_KEYPAIR]];
    if (keypair->concurrent < INT64_MAX)
        keypair->concurrent++;
    if (keypair->pending_count > 0)
        keypair->pending_count--;
    for (size_t i = 0; i < q->slot_count; i++) {
        int64_t left = s_saturate((wide_t) keypair->pending_slots.v[i] - total.v[i]);
        keypair->pending_slots.v[i] = left > 0 ? left : 0;
    }
}

bool
sched_quota_admit_hook(void *arg, const sched_pending_t *p)
{
    return sched_quota_check((const sched_quota_t *) arg, p, NULL);
}

void
sched_quota_charge_hook(void *arg, const sched_pending_t *p)
{
    sched_quota_charge((sched_quota_t *) arg, p);
}

int
sched_quota_admit_pending(const sched_scope_t *keypair,
                          const sched_vec_t *total,
                          size_t slot_count,
                          const char *const *slot_names,
                          bus_error_t *err)
{
    assert(keypair && total && slot_count <= SCHED_SLOTS_MAX);
    char msg[BUS_ERROR_DETAIL_MAX] = "";
    size_t len = 0;
    int64_t max_count = keypair->max_pending_count;
    if (max_count != SCHED_UNLIMITED && (wide_t) keypair->pending_count + 1 > max_count)
        s_append(msg, sizeof msg, &len,
                 "You cannot create more than %" PRId64 " pending session(s).",
                 max_count);
    bool slots_passed = true;
    for (size_t i = 0; i < slot_count; i++) {
        int64_t limit = keypair->max_pending_slots.v[i];
        if (limit == SCHED_UNLIMITED)
            continue;
        wide_t want = (wide_t) keypair->pending_slots.v[i] + total->v[i];
        if (want <= limit)
            continue;
        if (slots_passed)
            s_append(msg, sizeof msg, &len, "%sYour pending session quota is exceeded. (",
                     len ? " " : "");
        else
            s_append(msg, sizeof msg, &len, " ");
        s_append_amount(msg, sizeof msg, &len, s_slot_name(slot_names, i),
                        s_saturate(want));
        slots_passed = false;
    }
    if (!slots_passed)
        s_append(msg, sizeof msg, &len, ")");
    if (len == 0)
        return BUS_OK;
    return bus_error_set(err, BUS_STATUS_QUOTA, "%s", msg);
}

//  A JSON string of at most max bytes of text; bytes that do not make
//  UTF-8 (a name from outside, a message cut inside a character) become '?'.
static json_t *
s_json_text(const char *text, size_t max)
{
    size_t size = strnlen(text, max);
    json_t *string = json_stringn(text, size);
    if (string)
        return string;
    char *copy = malloc(size + 1);
    if (!copy)
        return NULL;
    for (size_t i = 0; i < size; i++)
        copy[i] = (unsigned char) text[i] < 0x80 ? text[i] : '?';
    copy[size] = '\0';
    string = json_stringn(copy, size);
    free(copy);
    return string;
}

//  Python's isoformat of a UTC datetime, always with microseconds, as the
//  rest of the platform writes timestamps: 2024-05-01T12:34:56.789012+00:00.
static void
s_iso8601(int64_t us, char *out)
{
    int64_t seconds = us / S_USEC_PER_SEC;
    int64_t fraction = us % S_USEC_PER_SEC;
    if (fraction < 0) {
        fraction += S_USEC_PER_SEC;
        seconds--;
    }
    time_t t = (time_t) seconds;
    struct tm tm;
    if (!gmtime_r(&t, &tm)) {
        t = 0;
        fraction = 0;
        gmtime_r(&t, &tm);
    }
    size_t n = strftime(out, SCHED_QUOTA_TIMESTAMP_MAX, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out + n, SCHED_QUOTA_TIMESTAMP_MAX - n, ".%06d+00:00", (int) fraction);
}

//  Appends {"name": ...} or {"name": ..., "msg": ...} to list; -1 when out of memory.
static int
s_append_predicate(json_t *list, const sched_predicate_t *pred, bool with_msg)
{
    json_t *item = json_object();
    if (!item || json_array_append_new(list, item) != 0)
        return -1;
    if (json_object_set_new(item, "name", s_json_text(pred->name, sizeof pred->name)) !=
        0)
        return -1;
    if (with_msg &&
        json_object_set_new(item, "msg", s_json_text(pred->msg, sizeof pred->msg)) != 0)
        return -1;
    return 0;
}

char *
sched_quota_status_data(const sched_verdict_t *v,
                        const char *msg,
                        uint32_t retries,
                        int64_t now_us)
{
    assert(v);
    char last_try[SCHED_QUOTA_TIMESTAMP_MAX];
    s_iso8601(now_us, last_try);
    char *text = NULL;
    json_t *root = json_object();
    json_t *scheduler = json_object();
    json_t *failed = json_array();
    json_t *passed = json_array();
    if (!root || !scheduler || !failed || !passed)
        goto fail;
    if (json_object_set(root, "scheduler", scheduler) != 0 ||
        json_object_set_new(scheduler, "retries", json_integer(retries)) != 0 ||
        json_object_set_new(scheduler, "last_try", json_string(last_try)) != 0)
        goto fail;
    if (msg && json_object_set_new(scheduler, "msg", s_json_text(msg, SIZE_MAX)) != 0)
        goto fail;
    if (json_object_set(scheduler, "failed_predicates", failed) != 0 ||
        json_object_set(scheduler, "passed_predicates", passed) != 0)
        goto fail;
    size_t failed_count =
        v->failed_count < SCHED_PREDICATE_MAX ? v->failed_count : SCHED_PREDICATE_MAX;
    size_t passed_count =
        v->passed_count < SCHED_PREDICATE_MAX ? v->passed_count : SCHED_PREDICATE_MAX;
    for (size_t i = 0; i < failed_count; i++)
        if (s_append_predicate(failed, &v->failed[i], true) != 0)
            goto fail;
    for (size_t i = 0; i < passed_count; i++)
        if (s_append_predicate(passed, &v->passed[i], false) != 0)
            goto fail;
    text = json_dumps(root, JSON_COMPACT);
fail:
    json_decref(passed);
    json_decref(failed);
    json_decref(scheduler);
    json_decref(root);
    return text;
}
