/*  =========================================================================
    sched_quota_test - Backend.AI's quota predicates at their edges, charge
    bookkeeping, pending admission and the status_data JSON

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "sched_model.h"
#include "sched_quota.h"
#include "t.h"

#define GIB (INT64_C(1) << 30)

enum { CPU, MEM, SHARES, FOO, SLOTS };

static const char *const s_slot_names[SLOTS] = {"cpu", "mem", "cuda.shares", "foo.bar"};

//  Four scopes with nothing limited and nothing held, and a session of
//  one kernel (1 cpu, 1 GiB) that counts against them.
typedef struct {
    sched_scope_t scopes[4];
    sched_quota_t quota;
    sched_pending_t p;
    sched_verdict_t v;
} fixture_t;

static void
s_unlimited(sched_vec_t *vec)
{
    for (size_t i = 0; i < SCHED_SLOTS_MAX; i++)
        vec->v[i] = SCHED_UNLIMITED;
}

static void
s_fixture(fixture_t *f)
{
    memset(f, 0, sizeof *f);
    static const char *keys[4] = {"AKIAEXAMPLE", "user-uuid", "project-id", "default"};
    for (int k = 0; k < 4; k++) {
        sched_scope_t *s = &f->scopes[k];
        s->kind = (sched_scope_kind_t) k;
        s->key = keys[k];
        s_unlimited(&s->limit);
        s_unlimited(&s->max_pending_slots);
        s->max_concurrent_sessions = SCHED_UNLIMITED;
        s->max_containers_per_session = SCHED_UNLIMITED;
        s->max_pending_count = SCHED_UNLIMITED;
    }
    f->quota = (sched_quota_t){f->scopes, 4, s_slot_names, SLOTS};
    f->p.session_id = "sess-1";
    for (size_t k = 0; k < 4; k++)
        f->p.scopes[k] = k;
    f->p.kernel_count = 1;
    f->p.request.v[CPU] = 1000;
    f->p.request.v[MEM] = GIB;
}

static const sched_predicate_t *
s_find(const sched_predicate_t *list, size_t count, const char *name)
{
    for (size_t i = 0; i < count; i++)
        if (strcmp(list[i].name, name) == 0)
            return &list[i];
    return NULL;
}

static const char *
s_failed_msg(const sched_verdict_t *v, const char *name)
{
    const sched_predicate_t *pred = s_find(v->failed, v->failed_count, name);
    return pred ? pred->msg : NULL;
}

static void
test_all_pass_unlimited(void)
{
    fixture_t f;
    s_fixture(&f);
    //  Huge amounts against unlimited scopes.
    f.p.request.v[MEM] = INT64_MAX;
    f.p.kernel_count = SCHED_CLUSTER_MAX;
    f.scopes[0].occupied.v[MEM] = INT64_MAX;
    f.scopes[0].concurrent = 1000000;
    T_ASSERT(sched_quota_check(&f.quota, &f.p, &f.v));
    T_EQ_INT(f.v.failed_count, 0);
    T_EQ_INT(f.v.passed_count, 6);
    T_EQ_STR(f.v.passed[0].name, "concurrency");
    T_EQ_STR(f.v.passed[1].name, "keypair_resource_limit");
    T_EQ_STR(f.v.passed[2].name, "user_resource_limit");
    T_EQ_STR(f.v.passed[3].name, "user_group_resource_limit");
    T_EQ_STR(f.v.passed[4].name, "domain_resource_limit");
    T_EQ_STR(f.v.passed[5].name, "max_containers_per_session");
    T_EQ_STR(f.v.passed[0].msg, "");
    T_ASSERT(sched_quota_check(&f.quota, &f.p, NULL));
}

static void
test_concurrency_edge(void)
{
    fixture_t f;
    s_fixture(&f);
    f.scopes[0].max_concurrent_sessions = 3;
    f.scopes[0].concurrent = 2;
    T_ASSERT(sched_quota_check(&f.quota, &f.p, &f.v));
    f.scopes[0].concurrent = 3;
    T_ASSERT(!sched_quota_check(&f.quota, &f.p, &f.v));
    T_EQ_INT(f.v.failed_count, 1);
    T_EQ_STR(f.v.failed[0].name, "concurrency");
    T_EQ_STR(f.v.failed[0].msg, "You cannot run more than 3 concurrent sessions");
    T_EQ_INT(f.v.passed_count, 5);
    T_ASSERT(!sched_quota_check(&f.quota, &f.p, NULL));
    //  A limit of 0 is no limit, as in Backend.AI's counter script.
    f.scopes[0].max_concurrent_sessions = 0;
    T_ASSERT(sched_quota_check(&f.quota, &f.p, &f.v));
}

//  Each resource-limit predicate at its edge: the limit reached exactly
//  passes, one unit over fails with the scope's message.
static void
test_resource_limit_edges(void)
{
    static const struct {
        int scope;
        const char *name;
        const char *msg;
    } cases[] = {
        {SCHED_SCOPE_KEYPAIR, "keypair_resource_limit",
         "Your keypair resource quota is exceeded. (cpu=4)"},
        {SCHED_SCOPE_USER, "user_resource_limit",
         "Your main-keypair resource quota is exceeded. (cpu=4)"},
        {SCHED_SCOPE_PROJECT, "user_group_resource_limit",
         "Your group resource quota is exceeded. (cpu=4)"},
        {SCHED_SCOPE_DOMAIN, "domain_resource_limit",
         "Your domain resource quota is exceeded. (cpu=4)"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        fixture_t f;
        s_fixture(&f);
        sched_scope_t *s = &f.scopes[cases[c].scope];
        s->limit.v[CPU] = 4000;
        s->occupied.v[CPU] = 2500;
        f.p.request.v[CPU] = 1500;
        T_ASSERT(sched_quota_check(&f.quota, &f.p, &f.v));
        T_ASSERT(s_find(f.v.passed, f.v.passed_count, cases[c].name));
        f.p.request.v[CPU] = 1501;
        T_ASSERT(!sched_quota_check(&f.quota, &f.p, &f.v));
        T_EQ_INT(f.v.failed_count, 1);
        T_EQ_STR(f.v.failed[0].name, cases[c].name);
        T_EQ_STR(f.v.failed[0].msg, cases[c].msg);
        T_ASSERT(!sched_quota_check(&f.quota, &f.p, NULL));
    }
}

//  Bytes and fractional counts at their edges, and how they print.
static void
test_units_in_messages(void)
{
    fixture_t f;
    s_fixture(&f);
    sched_scope_t *kp = &f.scopes[SCHED_SCOPE_KEYPAIR];
    kp->limit.v[MEM] = 4 * GIB;
    kp->occupied.v[MEM] = 3 * GIB;
    kp->limit.v[SHARES] = 1500;
    kp->occupied.v[SHARES] = 1250;
    kp->limit.v[FOO] = 2250; //  unknown slot: a count
    f.p.request.v[SHARES] = 250;
    f.p.request.v[FOO] = 2250;
    T_ASSERT(sched_quota_check(&f.quota, &f.p, &f.v));
    f.p.request.v[MEM] = GIB + 1;
    f.p.request.v[SHARES] = 251;
    f.p.request.v[FOO] = 2251;
    T_ASSERT(!sched_quota_check(&f.quota, &f.p, &f.v));
    T_EQ_STR(s_failed_msg(&f.v, "keypair_resource_limit"),
             "Your keypair resource quota is exceeded. "
             "(mem=4294967296 cuda.shares=1.5 foo.bar=2.25)");
}

//  A session's total is its request times kernel_count; the containers
//  limit is on kernel_count itself.
static void
test_cluster_total_and_containers(void)
{
    fixture_t f;
    s_fixture(&f);
    f.scopes[SCHED_SCOPE_PROJECT].limit.v[CPU] = 3000;
    f.scopes[SCHED_SCOPE_KEYPAIR].max_containers_per_session = 3;
    f.p.kernel_count = 3;
    T_ASSERT(sched_quota_check(&f.quota, &f.p, &f.v));
    T_ASSERT(s_find(f.v.passed, f.v.passed_count, "max_containers_per_session"));
    f.p.kernel_count = 4;
    T_ASSERT(!sched_quota_check(&f.quota, &f.p, &f.v));
    T_EQ_INT(f.v.failed_count, 2);
    T_EQ_STR(f.v.failed[0].name, "user_group_resource_limit");
    T_EQ_STR(f.v.failed[0].msg, "Your group resource quota is exceeded. (cpu=3)");
    T_EQ_STR(f.v.failed[1].name, "max_containers_per_session");
    T_EQ_STR(f.v.failed[1].msg, "You cannot create session with more than 3 containers.");
    sched_vec_t total;
    sched_quota_total(&f.p, SLOTS, &total);
    T_EQ_INT(total.v[CPU], 4000);
    T_EQ_INT(total.v[MEM], 4 * GIB);
    T_EQ_INT(total.v[SHARES], 0);
}

static void
test_several_fail_all_listed(void)
{
    fixture_t f;
    s_fixture(&f);
    sched_scope_t *kp = &f.scopes[SCHED_SCOPE_KEYPAIR];
    kp->max_concurrent_sessions = 1;
    kp->concurrent = 1;
    kp->max_containers_per_session = 1;
    kp->limit.v[CPU] = 1000;
    kp->limit.v[MEM] = GIB;
    kp->limit.v[SHARES] = 1000; //  not asked for: not listed
    kp->occupied.v[CPU] = 500;
    kp->occupied.v[MEM] = 1;
    f.scopes[SCHED_SCOPE_DOMAIN].limit.v[MEM] = 2 * GIB;
    f.scopes[SCHED_SCOPE_DOMAIN].occupied.v[MEM] = 1;
    f.p.kernel_count = 2;
    T_ASSERT(!sched_quota_check(&f.quota, &f.p, &f.v));
    T_EQ_INT(f.v.failed_count, 4);
    T_EQ_INT(f.v.passed_count, 2);
    T_EQ_STR(f.v.failed[0].name, "concurrency");
    T_EQ_STR(f.v.failed[1].name, "keypair_resource_limit");
    T_EQ_STR(f.v.failed[1].msg,
             "Your keypair resource quota is exceeded. (cpu=1 mem=1073741824)");
    T_EQ_STR(f.v.failed[2].name, "domain_resource_limit");
    T_EQ_STR(f.v.failed[2].msg,
             "Your domain resource quota is exceeded. (mem=2147483648)");
    T_EQ_STR(f.v.failed[3].name, "max_containers_per_session");
    T_EQ_STR(f.v.passed[0].name, "user_resource_limit");
    T_EQ_STR(f.v.passed[1].name, "user_group_resource_limit");
}

//  A slot already over its limit (the limit was lowered) fails even when
//  the session does not ask for it, as Backend.AI's whole-vector compare.
static void
test_over_limit_slot_not_asked(void)
{
    fixture_t f;
    s_fixture(&f);
    sched_scope_t *user = &f.scopes[SCHED_SCOPE_USER];
    user->limit.v[SHARES] = 500;
    user->occupied.v[SHARES] = 500;
    T_ASSERT(sched_quota_check(&f.quota, &f.p, &f.v));
    user->occupied.v[SHARES] = 501;
    T_ASSERT(!sched_quota_check(&f.quota, &f.p, &f.v));
    T_EQ_STR(s_failed_msg(&f.v, "user_resource_limit"),
             "Your main-keypair resource quota is exceeded. (cuda.shares=0.5)");
}

//  Sums and products that would wrap an int64 are refused, not wrapped.
static void
test_no_overflow(void)
{
    fixture_t f;
    s_fixture(&f);
    sched_scope_t *kp = &f.scopes[SCHED_SCOPE_KEYPAIR];
    kp->limit.v[MEM] = INT64_MAX - 1;
    kp->occupied.v[MEM] = INT64_MAX - 1;
    f.p.request.v[MEM] = 1;
    T_ASSERT(!sched_quota_check(&f.quota, &f.p, NULL));
    kp->occupied.v[MEM] = 0;
    f.p.request.v[MEM] = INT64_MAX;
    f.p.kernel_count = SCHED_CLUSTER_MAX;
    T_ASSERT(!sched_quota_check(&f.quota, &f.p, &f.v));
    T_EQ_STR(s_failed_msg(&f.v, "keypair_resource_limit"),
             "Your keypair resource quota is exceeded. (mem=9223372036854775806)");
    sched_vec_t total;
    sched_quota_total(&f.p, SLOTS, &total);
    T_EQ_INT(total.v[MEM], INT64_MAX);
    //  Charging saturates too.
    sched_quota_charge(&f.quota, &f.p);
    T_EQ_INT(kp->occupied.v[MEM], INT64_MAX);
}

//  A message too long for its buffer is cut, still a C string.
static void
test_long_message_cut(void)
{
    fixture_t f;
    s_fixture(&f);
    static char names[SCHED_SLOTS_MAX][40];
    const char *list[SCHED_SLOTS_MAX];
    for (int i = 0; i < SCHED_SLOTS_MAX; i++) {
        snprintf(names[i], sizeof names[i], "vendor.accelerator-%02d.shares", i);
        list[i] = names[i];
        f.scopes[SCHED_SCOPE_DOMAIN].limit.v[i] = 0;
        f.p.request.v[i] = 1;
    }
    f.quota.slot_names = list;
    f.quota.slot_count = SCHED_SLOTS_MAX;
    T_ASSERT(!sched_quota_check(&f.quota, &f.p, &f.v));
    const char *msg = s_failed_msg(&f.v, "domain_resource_limit");
    T_ASSERT(msg);
    T_EQ_INT(strlen(msg), SCHED_PREDICATE_MSG_MAX - 1);
    T_CONTAINS(msg,
               "Your domain resource quota is exceeded. (vendor.accelerator-00.shares=0");
}

static void
test_charge(void)
{
    fixture_t f;
    s_fixture(&f);
    sched_scope_t *kp = &f.scopes[SCHED_SCOPE_KEYPAIR];
    kp->limit.v[CPU] = 4000;
    kp->max_concurrent_sessions = 2;
    kp->concurrent = 1;
    kp->pending_count = 2;
    kp->pending_slots.v[CPU] = 3000;
    kp->pending_slots.v[MEM] = GIB; //  less than this session: floors at 0
    f.p.kernel_count = 2;
    T_ASSERT(sched_quota_check(&f.quota, &f.p, &f.v));
    sched_quota_charge(&f.quota, &f.p);
    for (int k = 0; k < 4; k++) {
        T_EQ_INT(f.scopes[k].occupied.v[CPU], 2000);
        T_EQ_INT(f.scopes[k].occupied.v[MEM], 2 * GIB);
    }
    T_EQ_INT(kp->concurrent, 2);
    T_EQ_INT(kp->pending_count, 1);
    T_EQ_INT(kp->pending_slots.v[CPU], 1000);
    T_EQ_INT(kp->pending_slots.v[MEM], 0);
    T_EQ_INT(f.scopes[SCHED_SCOPE_USER].concurrent, 0);
    //  Now the keypair is at its concurrency limit.
    T_ASSERT(!sched_quota_check(&f.quota, &f.p, &f.v));
    T_EQ_STR(f.v.failed[0].name, "concurrency");
    //  Two roles naming the same scope are charged once; counters stop at 0.
    fixture_t g;
    s_fixture(&g);
    g.p.scopes[SCHED_SCOPE_USER] = 0;
    sched_quota_charge(&g.quota, &g.p);
    T_EQ_INT(g.scopes[0].occupied.v[CPU], 1000);
    T_EQ_INT(g.scopes[1].occupied.v[CPU], 0);
    T_EQ_INT(g.scopes[0].pending_count, 0);
}

//  The hooks sched_pass calls, with the quota as their argument.
static void
test_hooks(void)
{
    fixture_t f;
    s_fixture(&f);
    f.scopes[SCHED_SCOPE_DOMAIN].limit.v[CPU] = 2000;
    T_ASSERT(sched_quota_admit_hook(&f.quota, &f.p));
    sched_quota_charge_hook(&f.quota, &f.p);
    T_ASSERT(sched_quota_admit_hook(&f.quota, &f.p));
    sched_quota_charge_hook(&f.quota, &f.p);
    T_ASSERT(!sched_quota_admit_hook(&f.quota, &f.p));
    T_EQ_INT(f.scopes[SCHED_SCOPE_DOMAIN].occupied.v[CPU], 2000);
}

static void
test_admit_pending(void)
{
    fixture_t f;
    s_fixture(&f);
    sched_scope_t *kp = &f.scopes[SCHED_SCOPE_KEYPAIR];
    sched_vec_t total;
    sched_quota_total(&f.p, SLOTS, &total);
    bus_error_t err = {0};
    //  Unlimited.
    kp->pending_count = 1000;
    kp->pending_slots.v[CPU] = INT64_MAX;
    T_EQ_INT(sched_quota_admit_pending(kp, &total, SLOTS, s_slot_names, &err), BUS_OK);
    //  Count: the third of at most three is fine, a fourth is not.
    kp->pending_slots.v[CPU] = 0;
    kp->max_pending_count = 3;
    kp->pending_count = 2;
    T_EQ_INT(sched_quota_admit_pending(kp, &total, SLOTS, s_slot_names, &err), BUS_OK);
    kp->pending_count = 3;
    T_EQ_INT(sched_quota_admit_pending(kp, &total, SLOTS, s_slot_names, &err),
             BUS_STATUS_QUOTA);
    T_EQ_INT(err.status, BUS_STATUS_QUOTA);
    T_EQ_STR(err.detail, "You cannot create more than 3 pending session(s).");
    T_EQ_INT(sched_quota_admit_pending(kp, &total, SLOTS, s_slot_names, NULL),
             BUS_STATUS_QUOTA);
    //  Slots: reaching the limit is fine, one unit over is not.
    kp->pending_count = 0;
    kp->max_pending_slots.v[CPU] = 4000;
    kp->max_pending_slots.v[MEM] = 4 * GIB;
    kp->pending_slots.v[CPU] = 3000;
    kp->pending_slots.v[MEM] = 3 * GIB;
    T_EQ_INT(sched_quota_admit_pending(kp, &total, SLOTS, s_slot_names, &err), BUS_OK);
    kp->pending_slots.v[MEM] = 3 * GIB + 1;
    T_EQ_INT(sched_quota_admit_pending(kp, &total, SLOTS, s_slot_names, &err),
             BUS_STATUS_QUOTA);
    T_EQ_STR(err.detail, "Your pending session quota is exceeded. (mem=4294967297)");
    //  Both at once: both said.
    kp->pending_count = 3;
    kp->pending_slots.v[CPU] = 3500;
    T_EQ_INT(sched_quota_admit_pending(kp, &total, SLOTS, s_slot_names, &err),
             BUS_STATUS_QUOTA);
    T_EQ_STR(err.detail, "You cannot create more than 3 pending session(s). Your pending "
                         "session quota is exceeded. (cpu=4.5 mem=4294967297)");
}

static void
test_status_data_shape(void)
{
    fixture_t f;
    s_fixture(&f);
    f.scopes[SCHED_SCOPE_KEYPAIR].max_concurrent_sessions = 1;
    f.scopes[SCHED_SCOPE_KEYPAIR].concurrent = 1;
    f.scopes[SCHED_SCOPE_DOMAIN].limit.v[CPU] = 0;
    T_ASSERT(!sched_quota_check(&f.quota, &f.p, &f.v));
    char *text = sched_quota_status_data(&f.v, "quota", 3, INT64_C(1714566896789012));
    T_ASSERT(text);
    json_error_t jerr;
    json_t *root = json_loads(text, 0, &jerr);
    free(text);
    T_ASSERT(root);
    T_EQ_INT(json_object_size(root), 1);
    json_t *s = json_object_get(root, "scheduler");
    T_ASSERT(json_is_object(s));
    T_EQ_INT(json_object_size(s), 5);
    T_EQ_INT(json_integer_value(json_object_get(s, "retries")), 3);
    T_EQ_STR(json_string_value(json_object_get(s, "last_try")),
             "2024-05-01T12:34:56.789012+00:00");
    T_EQ_STR(json_string_value(json_object_get(s, "msg")), "quota");
    json_t *failed = json_object_get(s, "failed_predicates");
    json_t *passed = json_object_get(s, "passed_predicates");
    T_EQ_INT(json_array_size(failed), 2);
    T_EQ_INT(json_array_size(passed), 4);
    json_t *first = json_array_get(failed, 0);
    T_EQ_INT(json_object_size(first), 2);
    T_EQ_STR(json_string_value(json_object_get(first, "name")), "concurrency");
    T_EQ_STR(json_string_value(json_object_get(first, "msg")),
             "You cannot run more than 1 concurrent sessions");
    T_EQ_STR(json_string_value(json_object_get(json_array_get(failed, 1), "msg")),
             "Your domain resource quota is exceeded. (cpu=0)");
    json_t *pass0 = json_array_get(passed, 0);
    T_EQ_INT(json_object_size(pass0), 1);
    T_EQ_STR(json_string_value(json_object_get(pass0, "name")), "keypair_resource_limit");
    json_decref(root);

    //  No msg: no "msg" key; an empty verdict: empty lists; whole seconds
    //  and times before 1970 still print six digits.
    sched_verdict_t empty = {0};
    text = sched_quota_status_data(&empty, NULL, 0, -1);
    T_ASSERT(text);
    T_EQ_STR(text, "{\"scheduler\":{\"retries\":0,\"last_try\":\"1969-12-31T23:59:59."
                   "999999+00:00\",\"failed_predicates\":[],\"passed_predicates\":[]}}");
    free(text);
    text = sched_quota_status_data(&empty, NULL, 0, 0);
    T_CONTAINS(text, "\"last_try\":\"1970-01-01T00:00:00.000000+00:00\"");
    free(text);

    //  Bytes that are not UTF-8 are replaced, not dropped.
    sched_verdict_t odd = {0};
    snprintf(odd.failed[0].name, sizeof odd.failed[0].name, "concurrency");
    snprintf(odd.failed[0].msg, sizeof odd.failed[0].msg, "slot \xff\xfe");
    odd.failed_count = 1;
    text = sched_quota_status_data(&odd, "bad \xc3", 1, 0);
    T_ASSERT(text);
    T_CONTAINS(text, "\"msg\":\"bad ?\"");
    T_CONTAINS(text, "\"msg\":\"slot ??\"");
    free(text);
}

int
main(void)
{
    T_RUN(test_all_pass_unlimited);
    T_RUN(test_concurrency_edge);
    T_RUN(test_resource_limit_edges);
    T_RUN(test_units_in_messages);
    T_RUN(test_cluster_total_and_containers);
    T_RUN(test_several_fail_all_listed);
    T_RUN(test_over_limit_slot_not_asked);
    T_RUN(test_no_overflow);
    T_RUN(test_long_message_cut);
    T_RUN(test_charge);
    T_RUN(test_hooks);
    T_RUN(test_admit_pending);
    T_RUN(test_status_data_shape);
    return T_DONE();
}
