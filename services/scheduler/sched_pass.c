/*  =========================================================================
    sched_pass - one scheduling pass: order, admit, fit, select, reserve

    The pass sorts the window once into keys (starving sessions first, then
    the policy order; DRF instead keeps each owner's sessions oldest first
    and a min-heap of owners by dominant share), then visits each session
    once: admit hook, fitting and selection over the agents, commit or
    rollback, and for a starving session that found no room, reservation.
    Each session's requested slots are gathered once into a compact shape
    so the inner loop over agents touches only those slots. Failed shapes
    are cached: occupancy and reservations only grow within a pass, so a
    request that dominates one that failed fails too.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

//  A session's request as the agents see it: the slots it asks for, and
//  what one agent must have free of each.
typedef struct {
    uint8_t slot[SCHED_SLOTS_MAX]; //  requested slot indexes
    int64_t need[SCHED_SLOTS_MAX]; //  per agent, need[j] of slot[j]
    int64_t each[SCHED_SLOTS_MAX]; //  per kernel, each[j] of slot[j]
    size_t n;
    uint32_t agents_needed; //  distinct agents: kernel_count when multi-node, else 1
    uint32_t per_agent;     //  kernels per agent: 1 when multi-node, else kernel_count
    bool impossible;        //  fits nowhere (bad kernel_count, or the total overflows)
} s_shape_t;

//  A shape that failed in this pass, and how.
typedef struct {
    s_shape_t shape;
    sched_outcome_t outcome; //  NO_ROOM: too few agents fit at all; RESERVED: too
                             //  few unreserved agents fit
} s_miss_t;

//  A sort key: ascending k1, k2, id, index (LIFO: all descending).
typedef struct {
    int64_t k1;
    int64_t k2;
    const char *id;
    uint32_t idx;
} s_key_t;

typedef struct {
    int64_t num;
    int64_t den;
} s_frac_t;

//  DRF: an owner's dominant share and its sessions keys[next..end).
typedef struct {
    s_frac_t share;
    uint32_t next;
    uint32_t end;
} s_drf_owner_t;

typedef struct {
    double score;
    uint32_t agent;
} s_candidate_t;

typedef struct {
    sched_pass_t *pass;
    size_t slots;
    double *inv;    //  agent_count * slots: 1 / capacity, 0 when none
    uint32_t *mark; //  per agent: == stamp when chosen for the current session
    uint32_t stamp;
    uint32_t *reserved; //  reserved agents
    size_t reserved_count;
    s_candidate_t *cand; //  per agent: reservation candidates
    s_drf_owner_t *drf;  //  per owner (DRF)
    uint32_t *heap;      //  owners by s_drf_before (DRF)
    uint32_t rr;         //  round-robin cursor
    uint32_t *spread;    //  the current session's group's counts per agent, or NULL
    s_miss_t miss[SCHED_PASS_MISS_CACHE];
    size_t miss_count;
    size_t miss_next;
    size_t placed;
} s_run_t;

static int
s_strcmp(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "");
}

static int
s_key_cmp(const void *va, const void *vb)
{
    const s_key_t *a = va, *b = vb;
    if (a->k1 != b->k1)
        return a->k1 < b->k1 ? -1 : 1;
    if (a->k2 != b->k2)
        return a->k2 < b->k2 ? -1 : 1;
    int c = s_strcmp(a->id, b->id);
    if (c)
        return c;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int
s_key_cmp_desc(const void *va, const void *vb)
{
    return s_key_cmp(vb, va);
}

static int
s_candidate_cmp(const void *va, const void *vb)
{
    const s_candidate_t *a = va, *b = vb;
    if (a->score != b->score)
        return a->score < b->score ? -1 : 1;
    return a->agent < b->agent ? -1 : a->agent > b->agent;
}

static int64_t
s_clamp(__int128 x)
{
    return x > INT64_MAX ? INT64_MAX : x < -INT64_MAX ? -INT64_MAX : (int64_t) x;
}

static int64_t
s_add_sat(int64_t a, int64_t b)
{
    return s_clamp((__int128) a + b);
}

//  a / b < c / d, for a, c >= 0 and b, d > 0.
static bool
s_frac_less(s_frac_t a, s_frac_t b)
{
    return (__int128) a.num * b.den < (__int128) b.num * a.den;
}

static int64_t
s_ceil_div(int64_t a, int64_t b)
{
    return a <= 0 ? 0 : a / b + (a % b != 0);
}

//  A pair's devices, shares per device, devices held whole and shares in
//  use on agent (bus_slots_pair); false when the two slots are not tied.
static bool
s_pair_state(const sched_agent_t *agent, const sched_pair_t *pair, bus_slots_pair_t *out)
{
    return bus_slots_pair(
        agent->capacity.v[pair->device], agent->capacity.v[pair->shares],
        agent->occupied.v[pair->device], agent->occupied.v[pair->shares], out);
}

//  Whether a pair's devices hold want_device more whole devices (in
//  thousandths) and want_shares more shares: the devices held whole, those
//  taken now and those the shares need at the least (packed) must not
//  exceed the devices there are.
static bool
s_pair_fits(const sched_agent_t *agent,
            const sched_pair_t *pair,
            int64_t want_device,
            int64_t want_shares)
{
    bus_slots_pair_t state;
    if (!s_pair_state(agent, pair, &state))
        return true;
    __int128 devices =
        (__int128) state.whole + s_ceil_div(want_device, BUS_SLOTS_COUNT_SCALE);
    __int128 shares = (__int128) state.shares + want_shares;
    return devices + (shares + state.per - 1) / state.per <= state.devices;
}

//  Whether agent has need[j] free of every slot[j], its paired slots'
//  devices hold them together, and no kernel asks more than it can place.
static inline bool
s_fits(const sched_agent_t *agent, const s_shape_t *shape)
{
    for (size_t j = 0; j < shape->n; j++) {
        size_t s = shape->slot[j];
        int64_t capacity = agent->capacity.v[s];
        int64_t occupied = agent->occupied.v[s] < 0 ? 0 : agent->occupied.v[s];
        //  need > 0, so no room at all fits nothing; cap > occupied >= 0
        //  cannot overflow.
        if (capacity <= occupied || shape->need[j] > capacity - occupied)
            return false;
        if ((agent->placeable_mask & (1u << s)) && shape->each[j] > agent->placeable.v[s])
            return false;
    }
    for (uint8_t i = 0; i < agent->pair_count; i++) {
        const sched_pair_t *pair = &agent->pairs[i];
        int64_t device = 0, shares = 0;
        for (size_t j = 0; j < shape->n; j++) {
            if (shape->slot[j] == pair->device)
                device = shape->need[j];
            else if (shape->slot[j] == pair->shares)
                shares = shape->need[j];
        }
        if ((device || shares) && !s_pair_fits(agent, pair, device, shares))
            return false;
    }
    return true;
}

//  Fills shape from request, count kernels, multi-node or not.
static void
s_shape(s_shape_t *shape,
        const sched_vec_t *request,
        uint32_t count,
        bool multi_node,
        size_t slots)
{
    shape->n = 0;
    shape->impossible = count < 1 || count > SCHED_CLUSTER_MAX;
    if (shape->impossible)
        count = 1;
    shape->agents_needed = multi_node ? count : 1;
    shape->per_agent = multi_node ? 1 : count;
    for (size_t s = 0; s < slots; s++) {
        int64_t r = request->v[s];
        if (r <= 0)
            continue;
        if (r > INT64_MAX / (int64_t) shape->per_agent)
            shape->impossible = true;
        shape->slot[shape->n] = (uint8_t) s;
        shape->each[shape->n] = r;
        shape->need[shape->n++] = shape->impossible ? r : r * shape->per_agent;
    }
}

//  How full agent is after taking shape, over the requested slots.
static inline double
s_fullness(const s_run_t *run, uint32_t a, const s_shape_t *shape)
{
    const sched_agent_t *agent = &run->pass->agents[a];
    const double *inv = run->inv + (size_t) a * run->slots;
    double sum = 0;
    for (size_t j = 0; j < shape->n; j++) {
        size_t s = shape->slot[j];
        int64_t occupied = agent->occupied.v[s] < 0 ? 0 : agent->occupied.v[s];
        sum += (double) (occupied + shape->need[j]) * inv[s];
    }
    return sum;
}

//  The fewest sessions of the current spread group on an agent that could
//  take a kernel of shape now (0 without a group).
static uint32_t
s_spread_least(const s_run_t *run, const s_shape_t *shape)
{
    uint32_t least = UINT32_MAX;
    for (size_t a = 0; run->spread && a < run->pass->agent_count; a++) {
        const sched_agent_t *agent = &run->pass->agents[a];
        if (!agent->reserved && run->mark[a] != run->stamp && run->spread[a] < least &&
            s_fits(agent, shape))
            least = run->spread[a];
    }
    return run->spread ? least : 0;
}

//  The selector's agent for one kernel of shape, among the unreserved ones
//  not yet chosen for this session (and, in a spread group, holding the
//  fewest of its sessions); -1 when none fits.
static int64_t
s_select(s_run_t *run, const s_shape_t *shape)
{
    sched_pass_t *pass = run->pass;
    size_t count = pass->agent_count;
    if (count == 0)
        return -1;
    uint32_t least = s_spread_least(run, shape);
    if (pass->rules->selector == SCHED_SELECT_ROUNDROBIN) {
        size_t a = run->rr % count;
        for (size_t i = 0; i < count; i++, a = a + 1 == count ? 0 : a + 1) {
            const sched_agent_t *agent = &pass->agents[a];
            if (!agent->reserved && run->mark[a] != run->stamp &&
                (!run->spread || run->spread[a] == least) && s_fits(agent, shape))
                return (int64_t) a;
        }
        return -1;
    }
    bool pack = pass->rules->selector == SCHED_SELECT_CONCENTRATED;
    int64_t best = -1;
    double best_score = 0;
    for (size_t a = 0; a < count; a++) {
        const sched_agent_t *agent = &pass->agents[a];
        if (agent->reserved || run->mark[a] == run->stamp ||
            (run->spread && run->spread[a] != least) || !s_fits(agent, shape))
            continue;
        double score = s_fullness(run, (uint32_t) a, shape);
        if (best < 0 || (pack ? score > best_score : score < best_score)) {
            best = (int64_t) a;
            best_score = score;
        }
    }
    return best;
}

//  Chooses an agent for each of shape's agents_needed, all distinct. Returns
//  how many it found: agents_needed on success (cursor moved), fewer on
//  failure (cursor as it was), which is then how many unreserved agents
//  fit.
static uint32_t
s_choose(s_run_t *run, const s_shape_t *shape, uint32_t *chosen)
{
    uint32_t saved = run->rr;
    run->stamp++;
    uint32_t k = 0;
    for (; k < shape->agents_needed; k++) {
        int64_t a = s_select(run, shape);
        if (a < 0) {
            run->rr = saved;
            return k;
        }
        run->mark[a] = run->stamp;
        chosen[k] = (uint32_t) a;
        run->rr = (uint32_t) (a + 1);
    }
    return k;
}

//  Records a placement on the chosen agents.
static void
s_commit(s_run_t *run, sched_pending_t *p, const s_shape_t *shape, const uint32_t *chosen)
{
    sched_pass_t *pass = run->pass;
    for (uint32_t k = 0; k < shape->agents_needed; k++) {
        sched_agent_t *agent = &pass->agents[chosen[k]];
        for (size_t j = 0; j < shape->n; j++)
            agent->occupied.v[shape->slot[j]] += shape->need[j];
        agent->kernels += shape->per_agent;
        if (run->spread)
            run->spread[chosen[k]]++;
    }
    for (uint32_t k = 0; k < p->kernel_count; k++)
        p->agents[k] = chosen[shape->agents_needed > 1 ? k : 0];
    if (pass->owner_count) {
        sched_owner_t *owner = &pass->owners[p->owner];
        for (size_t s = 0; s < run->slots; s++)
            if (p->request.v[s] > 0)
                owner->occupied.v[s] =
                    s_add_sat(owner->occupied.v[s],
                              s_clamp((__int128) p->request.v[s] * p->kernel_count));
    }
    p->outcome = SCHED_OUTCOME_PLACED;
    p->skipped = 0;
    run->placed++;
    if (pass->charge)
        pass->charge(pass->arg, p);
}

//  After found unreserved agents were not enough: RESERVED when the
//  reserved ones would make up the difference, else NO_ROOM.
static sched_outcome_t
s_classify(const s_run_t *run, const s_shape_t *shape, uint32_t found)
{
    for (size_t i = 0; i < run->reserved_count && found < shape->agents_needed; i++)
        if (s_fits(&run->pass->agents[run->reserved[i]], shape))
            found++;
    return found >= shape->agents_needed ? SCHED_OUTCOME_RESERVED : SCHED_OUTCOME_NO_ROOM;
}

//  Whether shape asks at least as much as miss did, of every slot, on at
//  least as many agents.
static bool
s_dominates(const s_shape_t *shape, const s_shape_t *miss)
{
    if (shape->agents_needed < miss->agents_needed)
        return false;
    size_t j = 0;
    for (size_t m = 0; m < miss->n; m++) {
        while (j < shape->n && shape->slot[j] < miss->slot[m])
            j++;
        if (j == shape->n || shape->slot[j] != miss->slot[m] ||
            shape->need[j] < miss->need[m] || shape->each[j] < miss->each[m])
            return false;
    }
    return true;
}

//  The outcome a failed shape shape dominates says, or NONE when the
//  cache cannot tell.
static sched_outcome_t
s_miss_lookup(const s_run_t *run, const s_shape_t *shape)
{
    for (size_t i = 0; i < run->miss_count; i++) {
        const s_miss_t *miss = &run->miss[i];
        if (!s_dominates(shape, &miss->shape))
            continue;
        if (miss->outcome == SCHED_OUTCOME_NO_ROOM)
            return SCHED_OUTCOME_NO_ROOM;
        if (shape->agents_needed == 1) //  no unreserved agent fits it
            return s_classify(run, shape, 0);
    }
    return SCHED_OUTCOME_NONE;
}

static void
s_miss_add(s_run_t *run, const s_shape_t *shape, sched_outcome_t outcome)
{
    s_miss_t *miss = &run->miss[run->miss_next];
    miss->shape = *shape;
    miss->outcome = outcome;
    run->miss_next = (run->miss_next + 1) % SCHED_PASS_MISS_CACHE;
    if (run->miss_count < SCHED_PASS_MISS_CACHE)
        run->miss_count++;
}

static void
s_reserve_agent(s_run_t *run, uint32_t a)
{
    run->pass->agents[a].reserved = true;
    run->reserved[run->reserved_count++] = a;
}

//  A starving session found no room: holds the unreserved agents closest
//  to fitting it (see the header).
static void
s_reserve(s_run_t *run, const s_shape_t *shape)
{
    sched_pass_t *pass = run->pass;
    if (shape->impossible)
        return;
    size_t count = 0;
    for (size_t a = 0; a < pass->agent_count; a++) {
        const sched_agent_t *agent = &pass->agents[a];
        if (agent->reserved)
            continue;
        double shortfall = 0;
        bool eligible = true;
        for (size_t j = 0; j < shape->n && eligible; j++) {
            size_t s = shape->slot[j];
            int64_t capacity = agent->capacity.v[s];
            int64_t occupied = agent->occupied.v[s] < 0 ? 0 : agent->occupied.v[s];
            int64_t room = capacity > occupied ? capacity - occupied : 0;
            eligible = shape->need[j] <= capacity;
            if (eligible && shape->need[j] > room)
                shortfall += (double) (shape->need[j] - room) / (double) capacity;
        }
        if (eligible)
            run->cand[count++] = (s_candidate_t){shortfall, (uint32_t) a};
    }
    if (count < shape->agents_needed)
        return;
    if (shape->agents_needed == 1) {
        size_t best = 0;
        for (size_t i = 1; i < count; i++)
            if (run->cand[i].score < run->cand[best].score)
                best = i;
        s_reserve_agent(run, run->cand[best].agent);
        return;
    }
    qsort(run->cand, count, sizeof *run->cand, s_candidate_cmp);
    for (uint32_t k = 0; k < shape->agents_needed; k++)
        s_reserve_agent(run, run->cand[k].agent);
}

//  Admits, fits and places (or not) one pending session.
static void
s_visit(s_run_t *run, uint32_t i, bool starving)
{
    sched_pass_t *pass = run->pass;
    sched_pending_t *p = &pass->pending[i];
    if (pass->admit && !pass->admit(pass->arg, p)) {
        p->outcome = SCHED_OUTCOME_QUOTA;
        return;
    }
    s_shape_t shape;
    s_shape(&shape, &p->request, p->kernel_count, p->multi_node, run->slots);
    run->spread = p->spread && p->spread <= pass->spread_groups && pass->spread_counts
                      ? pass->spread_counts + (size_t) (p->spread - 1) * pass->agent_count
                      : NULL;
    sched_outcome_t outcome = SCHED_OUTCOME_NO_ROOM;
    if (!shape.impossible) {
        outcome = s_miss_lookup(run, &shape);
        if (outcome == SCHED_OUTCOME_NONE) {
            uint32_t chosen[SCHED_CLUSTER_MAX];
            uint32_t found = s_choose(run, &shape, chosen);
            if (found == shape.agents_needed) {
                s_commit(run, p, &shape, chosen);
                return;
            }
            outcome = s_classify(run, &shape, found);
            s_miss_add(run, &shape, outcome);
        }
    }
    p->outcome = outcome;
    if (outcome == SCHED_OUTCOME_NO_ROOM) {
        if (p->skipped < UINT32_MAX)
            p->skipped++;
        if (starving)
            s_reserve(run, &shape);
    }
}

static bool
s_full(const s_run_t *run)
{
    return run->pass->max_placed && run->placed >= run->pass->max_placed;
}

//  An owner's dominant share over totals.
static s_frac_t
s_share(const sched_owner_t *owner, const int64_t *totals, size_t slots)
{
    s_frac_t best = {0, 1};
    for (size_t s = 0; s < slots; s++) {
        if (totals[s] <= 0)
            continue;
        s_frac_t share = {owner->occupied.v[s] < 0 ? 0 : owner->occupied.v[s], totals[s]};
        if (s_frac_less(best, share))
            best = share;
    }
    return best;
}

//  Heap order: smaller share first, then the older next session (keys are
//  {owner, created_us, session_id}), then the lower owner index.
static bool
s_drf_before(const s_drf_owner_t *a, const s_drf_owner_t *b, const s_key_t *keys)
{
    if (s_frac_less(a->share, b->share))
        return true;
    if (s_frac_less(b->share, a->share))
        return false;
    const s_key_t *x = &keys[a->next], *y = &keys[b->next];
    if (x->k2 != y->k2)
        return x->k2 < y->k2;
    int c = s_strcmp(x->id, y->id);
    return c ? c < 0 : x->k1 < y->k1;
}

static void
s_sift_down(uint32_t *heap,
            size_t count,
            size_t i,
            const s_drf_owner_t *owners,
            const s_key_t *keys)
{
    for (;;) {
        size_t least = i, l = 2 * i + 1, r = l + 1;
        if (l < count && s_drf_before(&owners[heap[l]], &owners[heap[least]], keys))
            least = l;
        if (r < count && s_drf_before(&owners[heap[r]], &owners[heap[least]], keys))
            least = r;
        if (least == i)
            return;
        uint32_t t = heap[i];
        heap[i] = heap[least];
        heap[least] = t;
        i = least;
    }
}

//  DRF over keys[0..count), sorted by owner then age.
static void
s_run_drf(s_run_t *run, const s_key_t *keys, size_t count)
{
    sched_pass_t *pass = run->pass;
    int64_t totals[SCHED_SLOTS_MAX] = {0};
    for (size_t a = 0; a < pass->agent_count; a++)
        for (size_t s = 0; s < run->slots; s++)
            if (pass->agents[a].capacity.v[s] > 0)
                totals[s] = s_add_sat(totals[s], pass->agents[a].capacity.v[s]);
    s_drf_owner_t *owners = run->drf;
    uint32_t *heap = run->heap;
    size_t heap_count = 0;
    for (size_t i = 0; i < count;) {
        size_t o = (size_t) keys[i].k1, end = i;
        while (end < count && (size_t) keys[end].k1 == o)
            end++;
        owners[o] = (s_drf_owner_t){s_share(&pass->owners[o], totals, run->slots),
                                    (uint32_t) i, (uint32_t) end};
        heap[heap_count++] = (uint32_t) o;
        i = end;
    }
    for (size_t i = heap_count / 2; i-- > 0;)
        s_sift_down(heap, heap_count, i, owners, keys);
    while (heap_count && !s_full(run)) {
        s_drf_owner_t *owner = &owners[heap[0]];
        uint32_t i = keys[owner->next++].idx;
        s_visit(run, i, false);
        if (pass->pending[i].outcome == SCHED_OUTCOME_PLACED)
            owner->share = s_share(&pass->owners[heap[0]], totals, run->slots);
        //  The key only grows (a larger share, a younger next session).
        if (owner->next == owner->end)
            heap[0] = heap[--heap_count];
        s_sift_down(heap, heap_count, 0, owners, keys);
    }
}

//  The policy's key for p.
static s_key_t
s_policy_key(const sched_pass_t *pass, const sched_pending_t *p, uint32_t idx)
{
    s_key_t key = {p->created_us, 0, p->session_id, idx};
    switch (pass->rules->policy) {
        case SCHED_POLICY_DRF:
            key.k1 = (int64_t) p->owner;
            key.k2 = p->created_us;
            break;
        case SCHED_POLICY_PRIORITY: {
            __int128 waited = (__int128) pass->now_us - p->created_us;
            __int128 effective = p->priority;
            if (pass->rules->aging_us > 0 && waited > 0)
                effective += waited / pass->rules->aging_us;
            key.k1 = -s_clamp(effective);
            key.k2 = p->created_us;
            break;
        }
        default: //  FIFO, and LIFO sorted the other way
            break;
    }
    return key;
}

static void
s_run_free(s_run_t **run_p)
{
    s_run_t *run = *run_p;
    if (run) {
        free(run->inv);
        free(run->mark);
        free(run->reserved);
        free(run->cand);
        free(run->drf);
        free(run->heap);
        free(run);
        *run_p = NULL;
    }
}

size_t
sched_pass_run(sched_pass_t *pass)
{
    assert(pass && pass->rules);
    assert(pass->slot_count <= SCHED_SLOTS_MAX);
    assert(pass->agent_count < UINT32_MAX && pass->pending_count < UINT32_MAX);
    for (size_t i = 0; i < pass->pending_count; i++) {
        pass->pending[i].outcome = SCHED_OUTCOME_NONE;
        assert(pass->owner_count == 0 || pass->pending[i].owner < pass->owner_count);
    }
    assert(pass->rules->policy != SCHED_POLICY_DRF || pass->pending_count == 0 ||
           pass->owner_count > 0);
    size_t agents = pass->agent_count ? pass->agent_count : 1;
    size_t slots = pass->slot_count ? pass->slot_count : 1;
    size_t owners = pass->owner_count ? pass->owner_count : 1;
    s_run_t *run = calloc(1, sizeof *run);
    s_key_t *keys =
        malloc((pass->pending_count ? pass->pending_count : 1) * sizeof *keys);
    if (!run || !keys)
        goto fail;
    run->pass = pass;
    run->slots = pass->slot_count;
    run->inv = malloc(agents * slots * sizeof *run->inv);
    run->mark = calloc(agents, sizeof *run->mark);
    run->reserved = malloc(agents * sizeof *run->reserved);
    run->cand = malloc(agents * sizeof *run->cand);
    run->drf = malloc(owners * sizeof *run->drf);
    run->heap = malloc(owners * sizeof *run->heap);
    if (!run->inv || !run->mark || !run->reserved || !run->cand || !run->drf ||
        !run->heap)
        goto fail;
    run->rr = pass->rr_cursor ? *pass->rr_cursor : 0;
    for (size_t a = 0; a < pass->agent_count; a++) {
        pass->agents[a].reserved = false;
        for (size_t s = 0; s < pass->slot_count; s++) {
            int64_t capacity = pass->agents[a].capacity.v[s];
            run->inv[a * pass->slot_count + s] =
                capacity > 0 ? 1.0 / (double) capacity : 0;
        }
    }
    //  Starving sessions first: keys[0..starving), most skipped first.
    size_t starving = 0;
    for (size_t i = 0; i < pass->pending_count; i++) {
        const sched_pending_t *p = &pass->pending[i];
        if (p->skipped > pass->rules->skip_passes)
            keys[starving++] = (s_key_t){-(int64_t) p->skipped, p->created_us,
                                         p->session_id, (uint32_t) i};
    }
    qsort(keys, starving, sizeof *keys, s_key_cmp);
    size_t rest = starving;
    for (size_t i = 0; i < pass->pending_count; i++) {
        const sched_pending_t *p = &pass->pending[i];
        if (p->skipped <= pass->rules->skip_passes)
            keys[rest++] = s_policy_key(pass, p, (uint32_t) i);
    }
    qsort(keys + starving, rest - starving, sizeof *keys,
          pass->rules->policy == SCHED_POLICY_LIFO ? s_key_cmp_desc : s_key_cmp);
    for (size_t i = 0; i < starving && !s_full(run); i++)
        s_visit(run, keys[i].idx, true);
    if (pass->rules->policy == SCHED_POLICY_DRF)
        s_run_drf(run, keys + starving, rest - starving);
    else
        for (size_t i = starving; i < rest && !s_full(run); i++)
            s_visit(run, keys[i].idx, false);
    if (pass->rr_cursor)
        *pass->rr_cursor = run->rr;
    size_t placed = run->placed;
    s_run_free(&run);
    free(keys);
    return placed;

fail:
    s_run_free(&run);
    free(keys);
    return 0;
}

bool
sched_pass_fits(const sched_agent_t *agent,
                const sched_vec_t *request,
                uint32_t count,
                size_t slot_count)
{
    assert(agent && request && slot_count <= SCHED_SLOTS_MAX);
    s_shape_t shape;
    s_shape(&shape, request, count, false, slot_count);
    return !shape.impossible && s_fits(agent, &shape);
}

//  What agent has free of slot s for one more kernel: its room, less what
//  the other slot of a pair holds of the same devices, and no more than it
//  can place now.
static int64_t
s_room(const sched_agent_t *agent, size_t s)
{
    int64_t capacity = agent->capacity.v[s];
    int64_t occupied = agent->occupied.v[s] < 0 ? 0 : agent->occupied.v[s];
    int64_t room = capacity > occupied ? capacity - occupied : 0;
    for (uint8_t i = 0; i < agent->pair_count; i++) {
        const sched_pair_t *pair = &agent->pairs[i];
        bus_slots_pair_t state;
        if ((pair->device != s && pair->shares != s) ||
            !s_pair_state(agent, pair, &state))
            continue;
        int64_t tied = pair->device == s ? bus_slots_pair_device_room(&state)
                                         : bus_slots_pair_shares_room(&state);
        if (tied < room)
            room = tied;
    }
    if ((agent->placeable_mask & (1u << s)) && agent->placeable.v[s] < room)
        room = agent->placeable.v[s] < 0 ? 0 : agent->placeable.v[s];
    return room;
}

size_t
sched_pass_explain(const sched_pass_t *pass,
                   const sched_pending_t *p,
                   sched_short_t *out,
                   size_t max)
{
    assert(pass && p && (out || max == 0));
    s_shape_t shape;
    s_shape(&shape, &p->request, p->kernel_count, p->multi_node, pass->slot_count);
    if (shape.impossible || shape.n == 0)
        return 0;
    int64_t best = -1;
    size_t best_short = 0;
    double best_gap = 0;
    for (size_t a = 0; a < pass->agent_count; a++) {
        const sched_agent_t *agent = &pass->agents[a];
        size_t short_count = 0;
        double gap = 0;
        for (size_t j = 0; j < shape.n; j++) {
            size_t s = shape.slot[j];
            int64_t room = s_room(agent, s);
            if (shape.need[j] > room) {
                short_count++;
                gap += agent->capacity.v[s] > 0 ? (double) (shape.need[j] - room) /
                                                      (double) agent->capacity.v[s]
                                                : 1e9;
            }
        }
        if (best < 0 || short_count < best_short ||
            (short_count == best_short && gap < best_gap)) {
            best = (int64_t) a;
            best_short = short_count;
            best_gap = gap;
        }
    }
    if (best < 0 || best_short == 0)
        return 0;
    const sched_agent_t *agent = &pass->agents[best];
    size_t count = 0;
    for (size_t j = 0; j < shape.n && count < max; j++) {
        int64_t room = s_room(agent, shape.slot[j]);
        if (shape.need[j] > room)
            out[count++] = (sched_short_t){shape.slot[j], shape.need[j], room};
    }
    return count;
}
