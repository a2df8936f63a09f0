/*  =========================================================================
    sched_pass_test - the scheduling pass's rules, one at a time

    Orders (FIFO, LIFO, priority with aging, DRF converging over passes),
    the head-of-line rule simulated over several passes with sessions
    starting and ending between them, the selectors, gang placement of
    cluster sessions, the exact fitting edges, quota hooks and max_placed,
    then a speed figure over 1,000 agents and 10,000 pending sessions
    (printed, not asserted).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"
#include "t.h"
#include <time.h> //  clock_gettime for the speed figure

enum { CPU, MEM, GPU, SLOTS };

#define GIB   ((int64_t) 1 << 30)
#define S_SEC ((int64_t) 1000000)

static sched_rules_t s_rules = {SCHED_POLICY_FIFO, SCHED_SELECT_CONCENTRATED, 0, 2};

static void
s_agent(sched_agent_t *agent, const char *id, int64_t cpu, int64_t mem)
{
    memset(agent, 0, sizeof *agent);
    agent->id = id;
    agent->capacity.v[CPU] = cpu;
    agent->capacity.v[MEM] = mem;
}

static void
s_pending(sched_pending_t *p, const char *id, int64_t created, int64_t cpu, int64_t mem)
{
    memset(p, 0, sizeof *p);
    p->session_id = id;
    p->created_us = created;
    p->priority = 10;
    p->kernel_count = 1;
    p->request.v[CPU] = cpu;
    p->request.v[MEM] = mem;
}

//  A pass with rules over agents and pending (no owners, no hooks).
static sched_pass_t
s_pass(const sched_rules_t *rules,
       sched_agent_t *agents,
       size_t agent_count,
       sched_pending_t *pending,
       size_t pending_count)
{
    sched_pass_t pass = {.rules = rules,
                         .slot_count = SLOTS,
                         .agents = agents,
                         .agent_count = agent_count,
                         .pending = pending,
                         .pending_count = pending_count,
                         .now_us = 1000 * S_SEC};
    return pass;
}

static size_t
s_run(const sched_rules_t *rules,
      sched_agent_t *agents,
      size_t agent_count,
      sched_pending_t *pending,
      size_t pending_count)
{
    sched_pass_t pass = s_pass(rules, agents, agent_count, pending, pending_count);
    return sched_pass_run(&pass);
}

static void
test_fits_edges(void)
{
    sched_agent_t agent;
    s_agent(&agent, "a", 4000, 8 * GIB);
    agent.occupied.v[CPU] = 1000;
    sched_vec_t request = {{0}};
    //  Exact fit, then one unit over.
    request.v[CPU] = 3000;
    T_ASSERT(sched_pass_fits(&agent, &request, 1, SLOTS));
    request.v[CPU] = 3001;
    T_ASSERT(!sched_pass_fits(&agent, &request, 1, SLOTS));
    //  count kernels together: 3 x 1000 fits, 3 x 1001 does not.
    request.v[CPU] = 1000;
    T_ASSERT(sched_pass_fits(&agent, &request, 3, SLOTS));
    request.v[CPU] = 1001;
    T_ASSERT(!sched_pass_fits(&agent, &request, 3, SLOTS));
    T_ASSERT(!sched_pass_fits(&agent, &request, 0, SLOTS));
    T_ASSERT(!sched_pass_fits(&agent, &request, SCHED_CLUSTER_MAX + 1, SLOTS));
    //  A slot the agent lacks fits only a zero request.
    request.v[CPU] = 0;
    request.v[GPU] = 1;
    T_ASSERT(!sched_pass_fits(&agent, &request, 1, SLOTS));
    request.v[GPU] = 0;
    T_ASSERT(sched_pass_fits(&agent, &request, 1, SLOTS));
    //  The agent shrank: occupied > capacity; nothing fits that slot, the
    //  others still work.
    agent.occupied.v[CPU] = 5000;
    request.v[CPU] = 1;
    T_ASSERT(!sched_pass_fits(&agent, &request, 1, SLOTS));
    request.v[CPU] = 0;
    request.v[MEM] = 8 * GIB;
    T_ASSERT(sched_pass_fits(&agent, &request, 1, SLOTS));
    //  A total that overflows int64 fits nowhere.
    agent.capacity.v[MEM] = INT64_MAX;
    request.v[MEM] = INT64_MAX / 2 + 1;
    T_ASSERT(sched_pass_fits(&agent, &request, 1, SLOTS));
    T_ASSERT(!sched_pass_fits(&agent, &request, 2, SLOTS));

    //  The same edges through a pass.
    sched_agent_t agents[1];
    s_agent(&agents[0], "a", 4000, 8 * GIB);
    agents[0].occupied.v[CPU] = 1000;
    sched_pending_t pending[4];
    s_pending(&pending[0], "over", 1, 3001, 0);
    s_pending(&pending[1], "gpu", 2, 0, 0);
    pending[1].request.v[GPU] = 250;
    s_pending(&pending[2], "exact", 3, 3000, 8 * GIB);
    s_pending(&pending[3], "nothing", 4, 0, 0);
    T_EQ_INT(s_run(&s_rules, agents, 1, pending, 4), 2);
    T_EQ_INT(pending[0].outcome, SCHED_OUTCOME_NO_ROOM);
    T_EQ_INT(pending[0].skipped, 1);
    T_EQ_INT(pending[1].outcome, SCHED_OUTCOME_NO_ROOM);
    T_EQ_INT(pending[2].outcome, SCHED_OUTCOME_PLACED);
    T_EQ_INT(pending[2].agents[0], 0);
    T_EQ_INT(pending[3].outcome, SCHED_OUTCOME_PLACED);
    T_EQ_INT(agents[0].occupied.v[CPU], 4000);
    T_EQ_INT(agents[0].occupied.v[MEM], 8 * GIB);
    T_EQ_INT(agents[0].kernels, 2);
}

//  One agent with room for two of four sessions; created times out of array
//  order, two of them equal (the session id decides).
static void
s_order_fixture(sched_agent_t *agent, sched_pending_t *pending)
{
    s_agent(agent, "a", 2000, GIB);
    s_pending(&pending[0], "c", 30, 1000, 0);
    s_pending(&pending[1], "a", 10, 1000, 0);
    s_pending(&pending[2], "d", 40, 1000, 0);
    s_pending(&pending[3], "b", 10, 1000, 0);
}

//  Accelerator slots for the tests below: whole devices and shares of the
//  same devices, as an agent in cuda_mode both offers them.
enum { DEV = GPU, SHR = SLOTS, ACCEL_SLOTS };

//  An agent of devices GPUs offered both ways, per_device shares each.
static void
s_both(sched_agent_t *agent, const char *id, int64_t devices, int64_t per_device)
{
    s_agent(agent, id, 8000, 8 * GIB);
    agent->capacity.v[DEV] = devices * 1000;
    agent->capacity.v[SHR] = devices * per_device;
    agent->pairs[0] = (sched_pair_t){DEV, SHR};
    agent->pair_count = 1;
}

static size_t
s_run_accel(sched_agent_t *agents,
            size_t agent_count,
            sched_pending_t *pending,
            size_t pending_count)
{
    sched_pass_t pass = s_pass(&s_rules, agents, agent_count, pending, pending_count);
    pass.slot_count = ACCEL_SLOTS;
    return sched_pass_run(&pass);
}

//  What explain says of p: its first short slot, asked and free.
static size_t
s_explain(sched_agent_t *agents,
          size_t agent_count,
          const sched_pending_t *p,
          sched_short_t *first)
{
    sched_pass_t pass = s_pass(&s_rules, agents, agent_count, NULL, 0);
    pass.slot_count = ACCEL_SLOTS;
    sched_short_t shorts[4];
    size_t count = sched_pass_explain(&pass, p, shorts, 4);
    if (count)
        *first = shorts[0];
    return count;
}

//  D3: one GPU offered whole and as shares. Taken whole, it has no shares
//  to give (the agent would refuse them); the shares session waits, says
//  which slot is short, and runs once the device is given back.
static void
test_pair_whole_blocks_shares(void)
{
    sched_agent_t agents[1];
    s_both(&agents[0], "a", 1, 1000);
    sched_pending_t pending[2];
    s_pending(&pending[0], "whole", 1, 1000, GIB);
    pending[0].request.v[DEV] = 1000;
    s_pending(&pending[1], "half", 2, 1000, GIB);
    pending[1].request.v[SHR] = 500;
    T_EQ_INT(s_run_accel(agents, 1, pending, 2), 1);
    T_EQ_INT(pending[0].outcome, SCHED_OUTCOME_PLACED);
    T_EQ_INT(pending[1].outcome, SCHED_OUTCOME_NO_ROOM);
    sched_short_t first = {0};
    T_EQ_INT(s_explain(agents, 1, &pending[1], &first), 1);
    T_EQ_INT(first.slot, SHR);
    T_EQ_INT(first.asked, 500);
    T_EQ_INT(first.free, 0);
    //  The whole device ends: the shares fit.
    agents[0].occupied.v[DEV] = 0;
    agents[0].occupied.v[CPU] = agents[0].occupied.v[MEM] = 0;
    T_EQ_INT(s_run_accel(agents, 1, &pending[1], 1), 1);
    T_EQ_INT(pending[1].outcome, SCHED_OUTCOME_PLACED);
    //  Now half of it is shares: it cannot be taken whole, and explain
    //  says no device is free.
    s_pending(&pending[0], "whole-again", 3, 1000, GIB);
    pending[0].request.v[DEV] = 1000;
    T_EQ_INT(s_run_accel(agents, 1, pending, 1), 0);
    T_EQ_INT(s_explain(agents, 1, &pending[0], &first), 1);
    T_EQ_INT(first.slot, DEV);
    T_EQ_INT(first.free, 0);
    //  The other half still fits as shares, one thousandth more does not.
    s_pending(&pending[0], "rest", 4, 0, 0);
    pending[0].request.v[SHR] = 501;
    T_EQ_INT(s_run_accel(agents, 1, pending, 1), 0);
    pending[0].request.v[SHR] = 500;
    T_EQ_INT(s_run_accel(agents, 1, pending, 1), 1);
}

//  Shares in use keep ceil(shares / per device) devices from being taken
//  whole; whole devices keep all their shares; a kernel asking both packs
//  them together. Two shares per device here.
static void
test_pair_arithmetic(void)
{
    sched_agent_t agent;
    s_both(&agent, "a", 2, 2000);
    sched_vec_t request = {{0}};
    //  1.2 shares in use: one device holds them, one is free.
    agent.occupied.v[SHR] = 1200;
    request.v[DEV] = 1000;
    T_ASSERT(sched_pass_fits(&agent, &request, 1, ACCEL_SLOTS));
    request.v[DEV] = 2000;
    T_ASSERT(!sched_pass_fits(&agent, &request, 1, ACCEL_SLOTS));
    //  2.5 shares in use: both devices touched, none whole.
    agent.occupied.v[SHR] = 2500;
    request.v[DEV] = 1000;
    T_ASSERT(!sched_pass_fits(&agent, &request, 1, ACCEL_SLOTS));
    //  One device whole: the other's two shares are all there is.
    agent.occupied.v[SHR] = 0;
    agent.occupied.v[DEV] = 1000;
    request.v[DEV] = 0;
    request.v[SHR] = 2000;
    T_ASSERT(sched_pass_fits(&agent, &request, 1, ACCEL_SLOTS));
    request.v[SHR] = 2001;
    T_ASSERT(!sched_pass_fits(&agent, &request, 1, ACCEL_SLOTS));
    //  Both in one kernel on an empty agent: a device and a device's worth
    //  of shares fit; a device and a little more do not.
    agent.occupied.v[DEV] = 0;
    request.v[DEV] = 1000;
    request.v[SHR] = 2000;
    T_ASSERT(sched_pass_fits(&agent, &request, 1, ACCEL_SLOTS));
    request.v[SHR] = 2001;
    T_ASSERT(!sched_pass_fits(&agent, &request, 1, ACCEL_SLOTS));
    //  Two kernels of a single-node cluster, 1.5 shares each: 3 shares
    //  pack into two devices; with one more each, not.
    request.v[DEV] = 0;
    request.v[SHR] = 1500;
    T_ASSERT(sched_pass_fits(&agent, &request, 2, ACCEL_SLOTS));
    request.v[SHR] = 2001;
    T_ASSERT(!sched_pass_fits(&agent, &request, 2, ACCEL_SLOTS));
    //  Without the pair the totals alone decide (an agent in one mode).
    agent.pair_count = 0;
    agent.occupied.v[SHR] = 2500;
    request.v[SHR] = 0;
    request.v[DEV] = 1000;
    T_ASSERT(sched_pass_fits(&agent, &request, 1, ACCEL_SLOTS));
}

//  What an agent said it can place bounds each kernel (fragmentation the
//  totals hide); a slot it said nothing of is unbounded.
static void
test_placeable_bound(void)
{
    sched_agent_t agents[2];
    s_agent(&agents[0], "a", 8000, 8 * GIB);
    agents[0].capacity.v[SHR] = 2000;
    agents[0].occupied.v[SHR] = 1000; //  0.5 free on each of two devices
    agents[0].placeable.v[SHR] = 500;
    agents[0].placeable_mask = 1u << SHR;
    sched_pending_t pending[2];
    s_pending(&pending[0], "big", 1, 0, 0);
    pending[0].request.v[SHR] = 600;
    s_pending(&pending[1], "small", 2, 0, 0);
    pending[1].request.v[SHR] = 500;
    T_EQ_INT(s_run_accel(agents, 1, pending, 2), 1);
    T_EQ_INT(pending[0].outcome, SCHED_OUTCOME_NO_ROOM);
    T_EQ_INT(pending[1].outcome, SCHED_OUTCOME_PLACED);
    sched_short_t first = {0};
    T_EQ_INT(s_explain(agents, 1, &pending[0], &first), 1);
    T_EQ_INT(first.slot, SHR);
    T_EQ_INT(first.asked, 600);
    T_EQ_INT(first.free, 500);
    //  The best agent is the one closest: a second with 0.55 placeable.
    s_agent(&agents[1], "b", 8000, 8 * GIB);
    agents[1].capacity.v[SHR] = 2000;
    agents[1].occupied.v[SHR] = 1450;
    T_EQ_INT(s_explain(agents, 2, &pending[0], &first), 1);
    T_EQ_INT(first.free, 550);
    //  Unbounded: the totals decide; and an agent with room explains nothing.
    agents[0].placeable_mask = 0;
    agents[0].occupied.v[SHR] = 1000;
    T_EQ_INT(s_explain(agents, 2, &pending[0], &first), 0);
    T_EQ_INT(s_run_accel(agents, 2, pending, 1), 1);
    //  No agent at all: nothing to explain.
    T_EQ_INT(s_explain(agents, 0, &pending[0], &first), 0);
}

static void
test_fifo(void)
{
    sched_agent_t agent;
    sched_pending_t pending[4];
    s_order_fixture(&agent, pending);
    T_EQ_INT(s_run(&s_rules, &agent, 1, pending, 4), 2);
    T_EQ_INT(pending[1].outcome, SCHED_OUTCOME_PLACED); //  a (10)
    T_EQ_INT(pending[3].outcome, SCHED_OUTCOME_PLACED); //  b (10)
    T_EQ_INT(pending[0].outcome, SCHED_OUTCOME_NO_ROOM);
    T_EQ_INT(pending[2].outcome, SCHED_OUTCOME_NO_ROOM);
    //  The order, seen one placement at a time.
    const char *order[4] = {"a", "b", "c", "d"};
    for (size_t n = 1; n <= 4; n++) {
        s_order_fixture(&agent, pending);
        agent.capacity.v[CPU] = 10000;
        sched_pass_t pass = s_pass(&s_rules, &agent, 1, pending, 4);
        pass.max_placed = n;
        T_EQ_INT(sched_pass_run(&pass), n);
        for (size_t i = 0; i < 4; i++)
            if (strcmp(pending[i].session_id, order[n - 1]) == 0)
                T_EQ_INT(pending[i].outcome, SCHED_OUTCOME_PLACED);
    }
}

static void
test_lifo(void)
{
    sched_rules_t rules = s_rules;
    rules.policy = SCHED_POLICY_LIFO;
    sched_agent_t agent;
    sched_pending_t pending[4];
    s_order_fixture(&agent, pending);
    T_EQ_INT(s_run(&rules, &agent, 1, pending, 4), 2);
    T_EQ_INT(pending[2].outcome, SCHED_OUTCOME_PLACED); //  d (40)
    T_EQ_INT(pending[0].outcome, SCHED_OUTCOME_PLACED); //  c (30)
    T_EQ_INT(pending[1].outcome, SCHED_OUTCOME_NO_ROOM);
    T_EQ_INT(pending[3].outcome, SCHED_OUTCOME_NO_ROOM);
    //  Ties reversed too: b before a.
    s_order_fixture(&agent, pending);
    agent.capacity.v[CPU] = 3000;
    T_EQ_INT(s_run(&rules, &agent, 1, pending, 4), 3);
    T_EQ_INT(pending[3].outcome, SCHED_OUTCOME_PLACED);
    T_EQ_INT(pending[1].outcome, SCHED_OUTCOME_NO_ROOM);
}

//  Which of an old priority-10 and a new priority-50 session runs at now.
static const char *
s_priority_winner(int64_t aging_us, int64_t now, int old_priority)
{
    sched_rules_t rules = s_rules;
    rules.policy = SCHED_POLICY_PRIORITY;
    rules.aging_us = aging_us;
    sched_agent_t agent;
    s_agent(&agent, "a", 1000, GIB);
    sched_pending_t pending[2];
    s_pending(&pending[0], "new", now - 1, 1000, 0);
    pending[0].priority = 50;
    s_pending(&pending[1], "old", 0, 1000, 0);
    pending[1].priority = old_priority;
    sched_pass_t pass = s_pass(&rules, &agent, 1, pending, 2);
    pass.now_us = now;
    if (sched_pass_run(&pass) != 1)
        return "none";
    return pending[0].outcome == SCHED_OUTCOME_PLACED ? "new" : "old";
}

static void
test_priority_aging(void)
{
    //  Without aging the higher priority always wins.
    T_EQ_STR(s_priority_winner(0, 1000 * S_SEC, 10), "new");
    //  One point per second: after 30 s the old one is at 40, after 41 s
    //  at 51 and ahead of the new one's 50; at exactly 50 the older wins.
    T_EQ_STR(s_priority_winner(S_SEC, 30 * S_SEC, 10), "new");
    T_EQ_STR(s_priority_winner(S_SEC, 41 * S_SEC, 10), "old");
    T_EQ_STR(s_priority_winner(S_SEC, 40 * S_SEC + S_SEC / 2, 10), "old");
    T_EQ_STR(s_priority_winner(S_SEC, 39 * S_SEC + S_SEC / 2, 10), "new");
    //  Whole steps only: 39.5 s is 39 points.
    T_EQ_STR(s_priority_winner(S_SEC, 39 * S_SEC + S_SEC / 2, 11), "old");
}

static int64_t s_drf_total[SLOTS] = {10000, 100000, 0};

//  Owner o's dominant share in thousandths.
static int64_t
s_permille(const sched_owner_t *owner)
{
    int64_t best = 0;
    for (size_t s = 0; s < SLOTS; s++)
        if (s_drf_total[s] && owner->occupied.v[s] * 1000 / s_drf_total[s] > best)
            best = owner->occupied.v[s] * 1000 / s_drf_total[s];
    return best;
}

//  Keeps the sessions not placed at the front; returns how many.
static size_t
s_compact(sched_pending_t *pending, size_t count)
{
    size_t kept = 0;
    for (size_t i = 0; i < count; i++)
        if (pending[i].outcome != SCHED_OUTCOME_PLACED)
            pending[kept++] = pending[i];
    return kept;
}

static void
test_drf(void)
{
    sched_rules_t rules = s_rules;
    rules.policy = SCHED_POLICY_DRF;
    //  Two agents: cpu 10 + mem 100,000 units in all.
    sched_agent_t agents[2];
    s_agent(&agents[0], "a", 6000, 50000);
    s_agent(&agents[1], "b", 4000, 50000);
    //  A is cpu-heavy (0.1 cpu, 0.01 mem a session) and already holds 0.2
    //  of the cpu; B is mem-heavy (0.01 cpu, 0.05 mem).
    sched_owner_t owners[2] = {{"A", {{2000}}}, {"B", {{0}}}};
    agents[0].occupied.v[CPU] = 2000;
    sched_pending_t pending[20];
    static const char *ids[20] = {"a0", "a1", "a2", "a3", "a4", "a5", "a6",
                                  "a7", "a8", "a9", "b0", "b1", "b2", "b3",
                                  "b4", "b5", "b6", "b7", "b8", "b9"};
    for (size_t i = 0; i < 10; i++) {
        s_pending(&pending[2 * i], ids[10 + i], 100 + (int64_t) i, 100, 5000);
        pending[2 * i].owner = 1;
        s_pending(&pending[2 * i + 1], ids[i], (int64_t) i, 1000, 1000);
        pending[2 * i + 1].owner = 0;
    }
    sched_pass_t pass = s_pass(&rules, agents, 2, pending, 20);
    pass.owners = owners;
    pass.owner_count = 2;
    //  B catches up first (four sessions to 0.2), then they alternate:
    //  seven placements leave both at 0.3.
    pass.max_placed = 7;
    T_EQ_INT(sched_pass_run(&pass), 7);
    T_EQ_INT(s_permille(&owners[0]), 300);
    T_EQ_INT(s_permille(&owners[1]), 300);
    T_EQ_INT(owners[1].occupied.v[MEM], 30000);
    size_t a_placed = 0;
    for (size_t i = 0; i < 20; i++)
        if (pending[i].outcome == SCHED_OUTCOME_PLACED && pending[i].owner == 0) {
            T_EQ_STR(pending[i].session_id, "a0"); //  oldest of A
            a_placed++;
        }
    T_EQ_INT(a_placed, 1);
    //  The next pass goes on from there: 0.5 each after six more.
    pass.pending_count = s_compact(pending, 20);
    pass.max_placed = 6;
    T_EQ_INT(sched_pass_run(&pass), 6);
    T_EQ_INT(s_permille(&owners[0]), 500);
    T_EQ_INT(s_permille(&owners[1]), 500);
    //  With no limit, each step keeps the shares within one session of
    //  each other until the agents run out: A's cpu binds first.
    pass.pending_count = s_compact(pending, pass.pending_count);
    pass.max_placed = 0;
    sched_pass_run(&pass);
    T_EQ_INT(owners[0].occupied.v[CPU] + owners[1].occupied.v[CPU] <= 10000, 1);
    T_EQ_INT(owners[1].occupied.v[MEM], 50000); //  B: all ten
    T_EQ_INT(agents[0].occupied.v[CPU] + agents[1].occupied.v[CPU],
             owners[0].occupied.v[CPU] + owners[1].occupied.v[CPU]);
}

//  The head-of-line simulation: one agent of 4 cpu, a large session (4 cpu)
//  at the head, two small ones (1 cpu, running two passes each) arriving
//  every pass so that the agent never empties by itself.
typedef struct {
    sched_pending_t p;
    int state; //  0 waiting, 1 running, 2 done
    int ends;  //  the pass before which it ends
} s_job_t;

//  Runs passes 1..passes; returns the pass in which the large one was
//  placed (0: never). reserved_seen: a pass where the agent was reserved
//  and a small session got RESERVED.
static int
s_hol(uint32_t skip_passes, int passes, bool *reserved_seen)
{
    static char names[64][8];
    sched_rules_t rules = s_rules;
    rules.skip_passes = skip_passes;
    sched_agent_t agent;
    s_agent(&agent, "a", 4000, GIB);
    s_job_t jobs[64];
    size_t job_count = 0;
    //  Three running from before: ending before passes 2, 2 and 3.
    int background[3] = {2, 2, 3};
    for (size_t i = 0; i < 3; i++) {
        s_pending(&jobs[job_count].p, "bg", 0, 1000, 0);
        jobs[job_count].state = 1;
        jobs[job_count++].ends = background[i];
    }
    agent.occupied.v[CPU] = 3000;
    agent.kernels = 3;
    s_pending(&jobs[job_count].p, "big", 1, 4000, 0);
    jobs[job_count++].state = 0;
    size_t big = job_count - 1;
    *reserved_seen = false;
    for (int pass_no = 1; pass_no <= passes; pass_no++) {
        for (size_t i = 0; i < job_count; i++)
            if (jobs[i].state == 1 && jobs[i].ends == pass_no) {
                jobs[i].state = 2;
                agent.occupied.v[CPU] -= jobs[i].p.request.v[CPU];
                agent.kernels--;
            }
        for (int k = 0; k < 2 && job_count < 64; k++) {
            snprintf(names[job_count], sizeof names[0], "s%zu", job_count);
            s_pending(&jobs[job_count].p, names[job_count], 10 * pass_no + k, 1000, 0);
            jobs[job_count++].state = 0;
        }
        sched_pending_t window[64];
        size_t from[64], count = 0;
        for (size_t i = 0; i < job_count; i++)
            if (jobs[i].state == 0) {
                from[count] = i;
                window[count++] = jobs[i].p;
            }
        s_run(&rules, &agent, 1, window, count);
        bool any_reserved = false;
        for (size_t w = 0; w < count; w++) {
            s_job_t *job = &jobs[from[w]];
            job->p = window[w];
            if (window[w].outcome == SCHED_OUTCOME_RESERVED)
                any_reserved = true;
            if (window[w].outcome == SCHED_OUTCOME_PLACED) {
                job->state = 1;
                job->ends = pass_no + 2;
                if (from[w] == big) {
                    if (job->p.skipped != 0)
                        return -1;
                    return pass_no;
                }
            }
        }
        if (any_reserved && agent.reserved)
            *reserved_seen = true;
        if (agent.occupied.v[CPU] > agent.capacity.v[CPU])
            return -1;
    }
    return 0;
}

static void
test_head_of_line(void)
{
    bool reserved_seen;
    //  Passed over for ever: the small ones keep the agent busy and the
    //  large one never runs. That is why the rule exists.
    T_EQ_INT(s_hol(UINT32_MAX, 20, &reserved_seen), 0);
    T_ASSERT(!reserved_seen);
    //  skip_passes 2: skipped in passes 1-3 while small ones run (skipped
    //  reaches 3 > 2), starving in pass 4: it reserves the agent, the
    //  small ones that would fit get RESERVED, the agent drains, and it
    //  runs in pass 5.
    T_EQ_INT(s_hol(2, 20, &reserved_seen), 5);
    T_ASSERT(reserved_seen);
    //  skip_passes 0: starving after its first miss.
    T_EQ_INT(s_hol(0, 20, &reserved_seen), 3);
}

static void
test_starving_first(void)
{
    //  Under LIFO too, the starving sessions come first, the most skipped
    //  first, before any policy order.
    sched_rules_t rules = s_rules;
    rules.policy = SCHED_POLICY_LIFO;
    sched_agent_t agents[2];
    s_agent(&agents[0], "a", 2000, GIB);
    s_agent(&agents[1], "b", 1000, GIB);
    sched_pending_t pending[4];
    s_pending(&pending[0], "new", 50, 1000, 0);
    s_pending(&pending[1], "starving5", 20, 2000, 0);
    pending[1].skipped = 5;
    s_pending(&pending[2], "starving7", 30, 2000, 0);
    pending[2].skipped = 7;
    s_pending(&pending[3], "older", 10, 1000, 0);
    T_EQ_INT(s_run(&rules, agents, 2, pending, 4), 2);
    T_EQ_INT(pending[2].outcome, SCHED_OUTCOME_PLACED);
    T_EQ_INT(pending[2].skipped, 0);
    T_EQ_INT(pending[2].agents[0], 0);
    //  starving5 has no room: a, the only agent that could ever hold it,
    //  is full with starving7; b is too small: nothing reserved.
    T_EQ_INT(pending[1].outcome, SCHED_OUTCOME_NO_ROOM);
    T_EQ_INT(pending[1].skipped, 6);
    T_ASSERT(!agents[1].reserved);
    T_EQ_INT(pending[0].outcome, SCHED_OUTCOME_PLACED);
    T_EQ_INT(pending[0].agents[0], 1);
    T_EQ_INT(pending[3].outcome, SCHED_OUTCOME_NO_ROOM);

    //  The reservation goes to the agent with the smallest shortfall.
    s_agent(&agents[0], "a", 4000, GIB);
    s_agent(&agents[1], "b", 4000, GIB);
    agents[0].occupied.v[CPU] = 3000; //  short 2000 of 4000
    agents[1].occupied.v[CPU] = 2000; //  short 1000
    s_pending(&pending[0], "big", 1, 3000, 0);
    pending[0].skipped = 3;
    s_pending(&pending[1], "small", 2, 1000, 0);
    s_pending(&pending[2], "small2", 3, 1000, 0);
    T_EQ_INT(s_run(&s_rules, agents, 2, pending, 3), 1);
    T_EQ_INT(pending[0].outcome, SCHED_OUTCOME_NO_ROOM);
    T_ASSERT(agents[1].reserved);
    T_ASSERT(!agents[0].reserved);
    T_EQ_INT(pending[1].outcome, SCHED_OUTCOME_PLACED);
    T_EQ_INT(pending[1].agents[0], 0);
    //  small2 would fit only on b, held: RESERVED, not counted as skipped.
    T_EQ_INT(pending[2].outcome, SCHED_OUTCOME_RESERVED);
    T_EQ_INT(pending[2].skipped, 0);
    //  Reservations are recomputed each pass: none when none starves.
    pending[0].skipped = 0;
    s_run(&s_rules, agents, 2, pending, 1);
    T_ASSERT(!agents[1].reserved);
}

static void
test_cannot_ever_fit(void)
{
    //  A session no agent could hold even empty (or marked unplaceable by
    //  the snapshot) starves without reserving anything.
    sched_agent_t agent;
    s_agent(&agent, "a", 4000, GIB);
    sched_pending_t pending[3];
    s_pending(&pending[0], "huge", 1, 8000, 0);
    pending[0].skipped = 10;
    s_pending(&pending[1], "marked", 2, 1, 0);
    pending[1].skipped = 10;
    pending[1].kernel_count = SCHED_CLUSTER_MAX + 1;
    s_pending(&pending[2], "small", 3, 1000, 0);
    T_EQ_INT(s_run(&s_rules, &agent, 1, pending, 3), 1);
    T_EQ_INT(pending[0].outcome, SCHED_OUTCOME_NO_ROOM);
    T_EQ_INT(pending[0].skipped, 11);
    T_EQ_INT(pending[1].outcome, SCHED_OUTCOME_NO_ROOM);
    T_ASSERT(!agent.reserved);
    T_EQ_INT(pending[2].outcome, SCHED_OUTCOME_PLACED);
}

//  Three agents of 4 cpu holding 1, 3 and 0 cpu.
static void
s_selector_fixture(sched_agent_t *agents)
{
    s_agent(&agents[0], "a", 4000, GIB);
    s_agent(&agents[1], "b", 4000, GIB);
    s_agent(&agents[2], "c", 4000, GIB);
    agents[0].occupied.v[CPU] = 1000;
    agents[1].occupied.v[CPU] = 3000;
    //  Slots not requested do not count: c's memory is nearly full.
    agents[2].occupied.v[MEM] = GIB - 1;
}

static uint32_t
s_select_one(sched_selector_t selector, sched_agent_t *agents, uint32_t *cursor)
{
    sched_rules_t rules = s_rules;
    rules.selector = selector;
    sched_pending_t p;
    s_pending(&p, "p", 1, 1000, 0);
    sched_pass_t pass = s_pass(&rules, agents, 3, &p, 1);
    pass.rr_cursor = cursor;
    if (sched_pass_run(&pass) != 1)
        return 99;
    return p.agents[0];
}

static void
test_selectors(void)
{
    sched_agent_t agents[3];
    s_selector_fixture(agents);
    T_EQ_INT(s_select_one(SCHED_SELECT_CONCENTRATED, agents, NULL), 1);
    T_EQ_INT(agents[1].occupied.v[CPU], 4000);
    s_selector_fixture(agents);
    T_EQ_INT(s_select_one(SCHED_SELECT_DISPERSED, agents, NULL), 2);
    //  Ties: the lower index.
    for (size_t a = 0; a < 3; a++)
        s_agent(&agents[a], "x", 4000, GIB);
    T_EQ_INT(s_select_one(SCHED_SELECT_CONCENTRATED, agents, NULL), 0);
    for (size_t a = 0; a < 3; a++)
        s_agent(&agents[a], "x", 4000, GIB);
    T_EQ_INT(s_select_one(SCHED_SELECT_DISPERSED, agents, NULL), 0);
    //  Fullness is relative: 2 of 8 cpu is emptier than 1 of 2.
    s_agent(&agents[0], "a", 2000, GIB);
    s_agent(&agents[1], "b", 8000, GIB);
    s_agent(&agents[2], "c", 2000, GIB);
    agents[0].occupied.v[CPU] = 1000;
    agents[1].occupied.v[CPU] = 2000;
    agents[2].occupied.v[CPU] = 1500;
    T_EQ_INT(s_select_one(SCHED_SELECT_DISPERSED, agents, NULL), 1);

    //  Round-robin: from the cursor, wrapping, skipping what does not fit.
    s_selector_fixture(agents);
    uint32_t cursor = 1;
    T_EQ_INT(s_select_one(SCHED_SELECT_ROUNDROBIN, agents, &cursor), 1);
    T_EQ_INT(cursor, 2);
    T_EQ_INT(s_select_one(SCHED_SELECT_ROUNDROBIN, agents, &cursor), 2);
    T_EQ_INT(cursor, 3);
    T_EQ_INT(s_select_one(SCHED_SELECT_ROUNDROBIN, agents, &cursor), 0);
    T_EQ_INT(cursor, 1);
    //  b is full now: from 1 the next that fits is c.
    T_EQ_INT(s_select_one(SCHED_SELECT_ROUNDROBIN, agents, &cursor), 2);
    //  A cursor kept from a larger group wraps.
    cursor = 7;
    T_EQ_INT(s_select_one(SCHED_SELECT_ROUNDROBIN, agents, &cursor), 2);
    //  Several in one pass go around.
    for (size_t a = 0; a < 3; a++)
        s_agent(&agents[a], "x", 4000, GIB);
    sched_rules_t rules = s_rules;
    rules.selector = SCHED_SELECT_ROUNDROBIN;
    sched_pending_t pending[4];
    for (size_t i = 0; i < 4; i++)
        s_pending(&pending[i], "p", (int64_t) i, 1000, 0);
    cursor = 2;
    sched_pass_t pass = s_pass(&rules, agents, 3, pending, 4);
    pass.rr_cursor = &cursor;
    T_EQ_INT(sched_pass_run(&pass), 4);
    T_EQ_INT(pending[0].agents[0], 2);
    T_EQ_INT(pending[1].agents[0], 0);
    T_EQ_INT(pending[2].agents[0], 1);
    T_EQ_INT(pending[3].agents[0], 2);
    T_EQ_INT(cursor, 3);
    //  Packing several: fill one agent before the next.
    for (size_t a = 0; a < 3; a++)
        s_agent(&agents[a], "x", 4000, GIB);
    for (size_t i = 0; i < 4; i++)
        s_pending(&pending[i], "p", (int64_t) i, 1500, 0);
    T_EQ_INT(s_run(&s_rules, agents, 3, pending, 4), 4);
    T_EQ_INT(pending[0].agents[0], 0);
    T_EQ_INT(pending[1].agents[0], 0);
    T_EQ_INT(pending[2].agents[0], 1);
    T_EQ_INT(pending[3].agents[0], 1);
}

static void
test_gang_single_node(void)
{
    sched_agent_t agents[2];
    s_agent(&agents[0], "a", 4000, GIB);
    s_agent(&agents[1], "b", 4000, GIB);
    agents[0].occupied.v[CPU] = 2000;
    agents[1].occupied.v[CPU] = 1000;
    sched_pending_t p;
    s_pending(&p, "gang", 1, 1000, GIB / 4);
    p.kernel_count = 3;
    T_EQ_INT(s_run(&s_rules, agents, 2, &p, 1), 1);
    for (size_t k = 0; k < 3; k++)
        T_EQ_INT(p.agents[k], 1);
    T_EQ_INT(agents[1].occupied.v[CPU], 4000);
    T_EQ_INT(agents[1].occupied.v[MEM], 3 * (GIB / 4));
    T_EQ_INT(agents[1].kernels, 3);
    //  2.5 cpu free on each: 3 cpu in all is there, not on one agent.
    s_agent(&agents[0], "a", 4000, GIB);
    s_agent(&agents[1], "b", 4000, GIB);
    agents[0].occupied.v[CPU] = 1500;
    agents[1].occupied.v[CPU] = 1500;
    T_EQ_INT(s_run(&s_rules, agents, 2, &p, 1), 0);
    T_EQ_INT(p.outcome, SCHED_OUTCOME_NO_ROOM);
    T_EQ_INT(agents[0].occupied.v[CPU] + agents[1].occupied.v[CPU], 3000);
}

static void
test_gang_multi_node(void)
{
    sched_rules_t rules = s_rules;
    rules.selector = SCHED_SELECT_ROUNDROBIN;
    sched_agent_t agents[3];
    for (size_t a = 0; a < 3; a++)
        s_agent(&agents[a], "x", 4000, GIB);
    agents[2].occupied.v[CPU] = 3500;
    sched_pending_t pending[2];
    s_pending(&pending[0], "gang", 1, 1000, 0);
    pending[0].kernel_count = 3;
    pending[0].multi_node = true;
    //  Two agents fit, the third does not: nothing is placed, nothing moved.
    uint32_t cursor = 0;
    sched_pass_t pass = s_pass(&rules, agents, 3, pending, 1);
    pass.rr_cursor = &cursor;
    T_EQ_INT(sched_pass_run(&pass), 0);
    T_EQ_INT(pending[0].outcome, SCHED_OUTCOME_NO_ROOM);
    T_EQ_INT(cursor, 0);
    T_EQ_INT(agents[0].occupied.v[CPU], 0);
    T_EQ_INT(agents[1].occupied.v[CPU], 0);
    T_EQ_INT(agents[0].kernels + agents[1].kernels + agents[2].kernels, 0);
    //  Room on the third: one kernel on each, one after the other.
    agents[2].occupied.v[CPU] = 3000;
    cursor = 1;
    T_EQ_INT(sched_pass_run(&pass), 1);
    T_EQ_INT(pending[0].agents[0], 1);
    T_EQ_INT(pending[0].agents[1], 2);
    T_EQ_INT(pending[0].agents[2], 0);
    T_EQ_INT(cursor, 1);
    for (size_t a = 0; a < 3; a++)
        T_EQ_INT(agents[a].kernels, 1);
    T_EQ_INT(agents[2].occupied.v[CPU], 4000);
    //  Even when one agent could hold them all, each kernel has its own.
    for (size_t a = 0; a < 3; a++)
        s_agent(&agents[a], "x", 4000, GIB);
    agents[0].capacity.v[CPU] = 64000;
    agents[2].occupied.v[CPU] = 500;
    s_pending(&pending[0], "pack", 1, 1000, 0);
    pending[0].kernel_count = 2;
    pending[0].multi_node = true;
    T_EQ_INT(s_run(&s_rules, agents, 3, pending, 1), 1);
    //  Packing: the two left fullest, c (1.5/4) then b (1/4), not a (1/64).
    T_EQ_INT(pending[0].agents[0], 2);
    T_EQ_INT(pending[0].agents[1], 1);
    //  Too few agents in the group at all.
    pending[0].kernel_count = 4;
    T_EQ_INT(s_run(&s_rules, agents, 3, pending, 1), 0);
    T_EQ_INT(pending[0].outcome, SCHED_OUTCOME_NO_ROOM);
    //  Enough only with a reserved agent: RESERVED.
    for (size_t a = 0; a < 3; a++)
        s_agent(&agents[a], "x", 4000, GIB);
    s_pending(&pending[0], "starving", 1, 8000, 0);
    pending[0].skipped = 9;
    s_pending(&pending[1], "gang", 2, 1000, 0);
    pending[1].kernel_count = 3;
    pending[1].multi_node = true;
    agents[0].capacity.v[CPU] = 16000;
    agents[0].occupied.v[CPU] = 9000;
    T_EQ_INT(s_run(&s_rules, agents, 3, pending, 2), 0);
    T_ASSERT(agents[0].reserved);
    T_EQ_INT(pending[1].outcome, SCHED_OUTCOME_RESERVED);
}

static int s_charged;

static bool
s_admit(void *arg, const sched_pending_t *p)
{
    (void) arg;
    return strcmp(p->session_id, "over-quota") != 0;
}

static void
s_charge(void *arg, const sched_pending_t *p)
{
    *(int *) arg += 1;
    (void) p;
}

static void
test_quota(void)
{
    sched_agent_t agent;
    s_agent(&agent, "a", 4000, GIB);
    sched_pending_t pending[3];
    s_pending(&pending[0], "over-quota", 1, 1000, 0);
    pending[0].skipped = 9; //  starving, but refused before it could reserve
    s_pending(&pending[1], "ok", 2, 1000, 0);
    s_pending(&pending[2], "ok2", 3, 1000, 0);
    s_charged = 0;
    sched_pass_t pass = s_pass(&s_rules, &agent, 1, pending, 3);
    pass.admit = s_admit;
    pass.charge = s_charge;
    pass.arg = &s_charged;
    T_EQ_INT(sched_pass_run(&pass), 2);
    T_EQ_INT(pending[0].outcome, SCHED_OUTCOME_QUOTA);
    T_EQ_INT(pending[0].skipped, 9);
    T_ASSERT(!agent.reserved);
    T_EQ_INT(pending[1].outcome, SCHED_OUTCOME_PLACED);
    T_EQ_INT(pending[2].outcome, SCHED_OUTCOME_PLACED);
    T_EQ_INT(s_charged, 2);
    T_EQ_INT(agent.occupied.v[CPU], 2000);
}

static void
test_max_placed(void)
{
    sched_agent_t agent;
    s_agent(&agent, "a", 64000, GIB);
    sched_pending_t pending[5];
    static const char *ids[5] = {"e", "d", "c", "b", "a"};
    for (size_t i = 0; i < 5; i++) {
        s_pending(&pending[i], ids[i], 10 - (int64_t) i, 1000, 0);
        pending[i].skipped = 1;
    }
    sched_pass_t pass = s_pass(&s_rules, &agent, 1, pending, 5);
    pass.max_placed = 2;
    T_EQ_INT(sched_pass_run(&pass), 2);
    T_EQ_INT(pending[4].outcome, SCHED_OUTCOME_PLACED);
    T_EQ_INT(pending[3].outcome, SCHED_OUTCOME_PLACED);
    for (size_t i = 0; i < 3; i++) {
        T_EQ_INT(pending[i].outcome, SCHED_OUTCOME_NONE);
        T_EQ_INT(pending[i].skipped, 1);
    }
    T_EQ_INT(agent.kernels, 2);
}

static void
test_failed_requests_remembered(void)
{
    //  After one request found no room, larger ones are answered alike
    //  (same outcomes as a scan), and smaller or different ones still scan.
    sched_agent_t agents[2];
    s_agent(&agents[0], "a", 4000, 4 * GIB);
    s_agent(&agents[1], "b", 4000, 4 * GIB);
    agents[0].occupied.v[CPU] = 3000;
    agents[1].occupied.v[CPU] = 2500;
    sched_pending_t pending[6];
    s_pending(&pending[0], "two", 1, 2000, GIB);
    s_pending(&pending[1], "three", 2, 3000, GIB);
    s_pending(&pending[2], "two-more-mem", 3, 2000, 2 * GIB);
    s_pending(&pending[3], "one", 4, 1000, 4 * GIB);
    s_pending(&pending[4], "mem-only", 5, 0, 3 * GIB);
    s_pending(&pending[5], "two-again", 6, 2000, GIB);
    pending[5].kernel_count = 2;
    T_EQ_INT(s_run(&s_rules, agents, 2, pending, 6), 2);
    T_EQ_INT(pending[0].outcome, SCHED_OUTCOME_NO_ROOM);
    T_EQ_INT(pending[1].outcome, SCHED_OUTCOME_NO_ROOM);
    T_EQ_INT(pending[2].outcome, SCHED_OUTCOME_NO_ROOM);
    T_EQ_INT(pending[3].outcome, SCHED_OUTCOME_PLACED);
    T_EQ_INT(pending[3].agents[0], 0);
    T_EQ_INT(pending[4].outcome, SCHED_OUTCOME_PLACED);
    T_EQ_INT(pending[4].agents[0], 1);
    T_EQ_INT(pending[5].outcome, SCHED_OUTCOME_NO_ROOM);
    for (size_t i = 0; i < 3; i++)
        T_EQ_INT(pending[i].skipped, 1);
    //  Behind a reservation: RESERVED for every small one, remembered or not.
    s_agent(&agents[0], "a", 4000, 4 * GIB);
    s_agent(&agents[1], "b", 4000, 4 * GIB);
    agents[0].occupied.v[CPU] = 4000;
    agents[1].occupied.v[CPU] = 1000;
    s_pending(&pending[0], "starving", 1, 4000, 0);
    pending[0].skipped = 5;
    for (size_t i = 1; i < 4; i++)
        s_pending(&pending[i], "small", (int64_t) i + 1, 1000 + (int64_t) i, 0);
    T_EQ_INT(s_run(&s_rules, agents, 2, pending, 4), 0);
    T_ASSERT(agents[1].reserved);
    for (size_t i = 1; i < 4; i++)
        T_EQ_INT(pending[i].outcome, SCHED_OUTCOME_RESERVED);
    //  ... unless it does not fit the reserved agent either.
    s_agent(&agents[0], "a", 4000, 4 * GIB);
    s_agent(&agents[1], "b", 4000, 4 * GIB);
    agents[0].occupied.v[CPU] = 4000;
    agents[1].occupied.v[CPU] = 1000;
    s_pending(&pending[1], "small", 2, 1000, 0);
    s_pending(&pending[2], "large", 3, 3500, 0);
    pending[0].skipped = 5;
    T_EQ_INT(s_run(&s_rules, agents, 2, pending, 3), 0);
    T_EQ_INT(pending[1].outcome, SCHED_OUTCOME_RESERVED);
    T_EQ_INT(pending[2].outcome, SCHED_OUTCOME_NO_ROOM);
}

//  A deterministic generator for the speed check.
static uint64_t s_seed = 88172645463325252ull;

static uint32_t
s_random(uint32_t n)
{
    s_seed ^= s_seed << 13;
    s_seed ^= s_seed >> 7;
    s_seed ^= s_seed << 17;
    return (uint32_t) (s_seed % n);
}

static double
s_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec * 1e3 + (double) ts.tv_nsec / 1e6;
}

#define SPEED_AGENTS  1000
#define SPEED_PENDING 10000
#define SPEED_OWNERS  100

//  One pass over a fresh snapshot; prints its time and what it placed.
static size_t
s_speed(sched_policy_kind_t policy, sched_selector_t selector, const char *label)
{
    static char names[SPEED_PENDING][16];
    sched_agent_t *agents = calloc(SPEED_AGENTS, sizeof *agents);
    sched_pending_t *pending = calloc(SPEED_PENDING, sizeof *pending);
    sched_owner_t *owners = calloc(SPEED_OWNERS, sizeof *owners);
    if (!agents || !pending || !owners) {
        free(agents);
        free(pending);
        free(owners);
        return 0;
    }
    s_seed = 88172645463325252ull;
    for (size_t a = 0; a < SPEED_AGENTS; a++) {
        s_agent(&agents[a], "agent", 16000, 64 * GIB);
        if (a % 4 == 0)
            agents[a].capacity.v[GPU] = 4000;
        agents[a].occupied.v[CPU] = 1000 * s_random(4);
    }
    for (size_t i = 0; i < SPEED_PENDING; i++) {
        snprintf(names[i], sizeof names[i], "s%05zu", i);
        s_pending(&pending[i], names[i], (int64_t) s_random(1000000),
                  1000 + 500 * s_random(7), GIB * (1 + s_random(8)));
        pending[i].owner = s_random(SPEED_OWNERS);
        pending[i].priority = (int) s_random(100);
        if (s_random(10) == 0)
            pending[i].request.v[GPU] = 250 * (1 + s_random(4));
        if (s_random(20) == 0) {
            pending[i].kernel_count = 2;
            pending[i].multi_node = s_random(2);
        }
        if (s_random(50) == 0)
            pending[i].skipped = 5;
    }
    sched_rules_t rules = {policy, selector, S_SEC, 3};
    uint32_t cursor = 0;
    sched_pass_t pass = {.rules = &rules,
                         .slot_count = SLOTS,
                         .agents = agents,
                         .agent_count = SPEED_AGENTS,
                         .owners = owners,
                         .owner_count = SPEED_OWNERS,
                         .pending = pending,
                         .pending_count = SPEED_PENDING,
                         .now_us = 2000000,
                         .rr_cursor = &cursor};
    double start = s_now_ms();
    size_t placed = sched_pass_run(&pass);
    double ms = s_now_ms() - start;
    printf("# pass over %d agents, %d pending: %.1f ms (%s, %zu placed)\n", SPEED_AGENTS,
           SPEED_PENDING, ms, label, placed);
    //  Never oversubscribed.
    for (size_t a = 0; a < SPEED_AGENTS; a++)
        for (size_t s = 0; s < SLOTS; s++)
            if (agents[a].occupied.v[s] > agents[a].capacity.v[s])
                placed = 0;
    free(agents);
    free(pending);
    free(owners);
    return placed;
}

static void
test_speed(void)
{
    T_ASSERT(s_speed(SCHED_POLICY_FIFO, SCHED_SELECT_CONCENTRATED, "fifo, pack") > 0);
    T_ASSERT(s_speed(SCHED_POLICY_PRIORITY, SCHED_SELECT_DISPERSED, "priority, spread") >
             0);
    T_ASSERT(s_speed(SCHED_POLICY_DRF, SCHED_SELECT_ROUNDROBIN, "drf, round-robin") > 0);
}

//  Replicas of one model service (a spread group) go to the agents holding
//  the fewest of them, whatever the selector; the selector decides among
//  those, and they pile up only where nothing else fits.
static void
test_spread(void)
{
    sched_selector_t selectors[] = {SCHED_SELECT_CONCENTRATED, SCHED_SELECT_DISPERSED,
                                    SCHED_SELECT_ROUNDROBIN};
    for (size_t sel = 0; sel < 3; sel++) {
        sched_rules_t rules = s_rules;
        rules.selector = selectors[sel];
        sched_agent_t agents[3];
        for (size_t a = 0; a < 3; a++)
            s_agent(&agents[a], "x", 8000, GIB);
        agents[0].occupied.v[CPU] = 4000; //  packing would pick a
        //  group 1 already has a replica on a; group 2 has none
        uint32_t counts[2 * 3] = {1, 0, 0, 0, 0, 0};
        sched_pending_t pending[5];
        for (size_t i = 0; i < 5; i++)
            s_pending(&pending[i], "r", (int64_t) i, 1000, 0);
        pending[0].spread = pending[1].spread = pending[2].spread = 1;
        pending[3].spread = 2;
        uint32_t cursor = 0;
        sched_pass_t pass = s_pass(&rules, agents, 3, pending, 5);
        pass.rr_cursor = &cursor;
        pass.spread_counts = counts;
        pass.spread_groups = 2;
        T_EQ_INT(sched_pass_run(&pass), 5);
        //  b and c first (a holds one), then a again once each holds one
        T_ASSERT(pending[0].agents[0] != 0 && pending[1].agents[0] != 0);
        T_ASSERT(pending[0].agents[0] != pending[1].agents[0]);
        T_EQ_INT(counts[0] + counts[1] + counts[2], 4);
        T_ASSERT(counts[0] == 1 + (pending[2].agents[0] == 0));
        T_ASSERT(counts[1] >= 1 && counts[2] >= 1 && counts[1] <= 2 && counts[2] <= 2);
        T_EQ_INT(counts[3] + counts[4] + counts[5], 1); //  group 2: its own count
    }
    //  An agent with no room is no choice, even holding none of the group.
    sched_agent_t agents[2];
    s_agent(&agents[0], "a", 4000, GIB);
    s_agent(&agents[1], "b", 4000, GIB);
    agents[1].occupied.v[CPU] = 4000;
    uint32_t counts[2] = {3, 0};
    sched_pending_t p;
    s_pending(&p, "r", 1, 1000, 0);
    p.spread = 1;
    sched_pass_t pass = s_pass(&s_rules, agents, 2, &p, 1);
    pass.spread_counts = counts;
    pass.spread_groups = 1;
    T_EQ_INT(sched_pass_run(&pass), 1);
    T_EQ_INT(p.agents[0], 0);
    T_EQ_INT(counts[0], 4);
}

int
main(void)
{
    T_RUN(test_fits_edges);
    T_RUN(test_pair_whole_blocks_shares);
    T_RUN(test_pair_arithmetic);
    T_RUN(test_placeable_bound);
    T_RUN(test_fifo);
    T_RUN(test_lifo);
    T_RUN(test_priority_aging);
    T_RUN(test_drf);
    T_RUN(test_head_of_line);
    T_RUN(test_starving_first);
    T_RUN(test_cannot_ever_fit);
    T_RUN(test_selectors);
    T_RUN(test_spread);
    T_RUN(test_gang_single_node);
    T_RUN(test_gang_multi_node);
    T_RUN(test_quota);
    T_RUN(test_max_placed);
    T_RUN(test_failed_requests_remembered);
    T_RUN(test_speed);
    return T_DONE();
}
