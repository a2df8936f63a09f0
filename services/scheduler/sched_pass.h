/*  =========================================================================
    sched_pass - one scheduling pass over a resource group (pure)

    Given a snapshot of one resource group (sched_model.h: its agents with
    capacity and occupancy, the owners DRF weighs, a window of pending
    sessions), a pass decides which sessions run now and on which agents.
    It does no I/O and keeps no state: what it decided is written into the
    arrays it was given, and the caller stores it in one transaction. The
    rules, in the order a pass applies them:

    Order. Every pass first takes the *starving* sessions (below), the most
    skipped first (ties: oldest, then session id), then the others in the
    group's policy order:
      - FIFO: oldest created_us first (ties: session id).
      - LIFO: the exact reverse of FIFO: newest first.
      - PRIORITY: highest effective priority first, where effective
        priority = priority + (now_us - created_us) / aging_us, in whole
        steps (aging_us 0: no aging; a creation time in the future counts
        as no wait). It is not capped, so an old low-priority session
        eventually outranks any newer one. Ties: oldest first.
      - DRF (dominant resource fairness): repeatedly the next session of
        the owner (keypair) whose dominant share is the smallest. An
        owner's dominant share is the largest, over the slots, of what the
        owner occupies divided by what all the snapshot's agents have of
        that slot (slots nobody has are ignored); it is compared exactly,
        as integer fractions. Ties: the owner whose next session is the
        oldest. An owner's sessions are taken oldest first, and each one
        placed raises its share before the next choice.

    Quota. Each session is first offered to the admit hook (the quota
    predicates, sched_quota). Refused: outcome QUOTA, skipped unchanged,
    the pass goes on. Placed: the charge hook records it.

    Fitting. A kernel fits on an agent when, for every slot it requests
    (request > 0), capacity - occupied >= request, exactly, in integers.
    A slot the agent lacks (capacity 0) fits only a zero request; when
    occupied exceeds capacity (the agent shrank) nothing more fits that
    slot. Slots a session does not request are never looked at. Two more
    rules for accelerators, both about how an agent's devices are split:
      - Where the agent offers the same devices both whole and as shares
        (a pair, "<p>.device" and "<p>.shares", both with capacity; per
        device shares = capacity(shares) / devices): a device is given
        either whole or as shares, never both, so the devices held whole
        (W, what occupies the device slot), plus those taken now, plus the
        fewest devices the shares in use and asked for can be packed in,
        ceil((S + asked) / per device), must not exceed the devices there
        are. A device held whole takes all its shares away and shares in
        use keep at least ceil(S / per device) devices from being taken
        whole.
      - Where the agent said what one kernel can be given of a slot now
        (placeable: its heartbeat, from the per-device allocator; lowered
        when it refused a kernel for want of room), no kernel asks more.
        Fragmentation (two devices half used hold no 0.6 share, two
        devices with a share each hold no whole device) is seen there, as
        the totals cannot show it. The figure is the agent's last word
        and trails what a pass placed since: an agent that then refuses a
        kernel sends its session back to the queue (sched_kernels).

    Selectors, among the agents that fit and are not reserved:
      - CONCENTRATED (pack): the one left fullest after placement;
      - DISPERSED (spread): the one left emptiest after placement;
        "full" is the sum, over the slots the session requests, of
        occupied / capacity (ranked in double precision; equal scores go
        to the lower agent index, agents being sorted by id);
      - ROUNDROBIN: the first that fits at index >= *rr_cursor, wrapping
        around; then *rr_cursor = chosen + 1. The caller keeps the cursor
        between passes (NULL: start at 0 each pass).

    Spreading. A session of a spread group (the replicas of one model
    service) goes, among the agents that fit, to one holding the fewest
    sessions of its group (spread_counts, which the pass raises as it
    places); the selector decides among those. So replicas land on
    different agents while there are agents with room, whatever the
    selector, and pile up only where nothing else fits.

    Clusters (kernel_count > 1). Single-node: all kernels on one agent, so
    request * kernel_count must fit there. Multi-node: kernel_count
    distinct agents, chosen one after the other by the selector; all or
    nothing: if one kernel finds no agent, none is placed and the
    round-robin cursor is left as it was. A kernel_count of 0 or above
    SCHED_CLUSTER_MAX (the snapshot's mark for "cannot be placed") fits
    nowhere.

    Head-of-line blocking and starvation. A session that does not fit
    (NO_ROOM) gets skipped += 1 and the pass goes on, so smaller sessions
    behind a large one still run. Once skipped > rules.skip_passes the
    session is *starving*: it comes first in every pass, and if it still
    does not fit it *reserves* the agents closest to fitting it: the one
    agent (multi-node: the kernel_count agents) with the smallest
    shortfall, the sum over its requested slots of what is missing
    divided by the agent's capacity. Only agents that could hold it when
    empty are candidates, so a session that can never fit reserves
    nothing; a multi-node session reserves only when it finds enough
    candidates. Nothing else in the pass is placed on a reserved agent: a
    session that would fit only there gets RESERVED, which does not count
    as skipped. As running sessions end, the reserved agents drain until
    the starving session fits; then skipped is 0 again. Reservations are
    not stored: each pass clears every agent's reserved flag and
    recomputes them from skipped.

    Cost. Sorting the window is O(n log n) (DRF: a heap over owners). Each
    session looks at every agent once (a multi-node one once per kernel).
    Requests that already failed in this pass are remembered (occupancy
    only grows within a pass), so a session asking for at least as much
    as one that found no room is answered without a scan.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_PASS_H_INCLUDED
#define SCHED_PASS_H_INCLUDED

#include "sched_model.h"

//  Requests that found no room, remembered for the rest of a pass.
#define SCHED_PASS_MISS_CACHE 16

//  One pass's input and hooks. Every array is borrowed; the pass writes the
//  fields sched_model.h marks as its own (outcomes, occupancy, reserved).
typedef struct {
    const sched_rules_t *rules;
    size_t slot_count;     //  slots in use in every vector
    sched_agent_t *agents; //  sorted by id by the caller
    size_t agent_count;
    sched_owner_t *owners; //  DRF's owners (keypairs); may be none unless DRF
    size_t owner_count;
    sched_pending_t *pending; //  the window of pending sessions, any order
    size_t pending_count;
    int64_t now_us;
    uint32_t *rr_cursor; //  round-robin: kept by the caller between passes (may be NULL)
    //  quota hooks (sched_quota via the caller), either may be NULL: admit
    //  says whether every quota predicate passes for p now; charge records
    //  that p was placed.
    bool (*admit)(void *arg, const sched_pending_t *p);
    void (*charge)(void *arg, const sched_pending_t *p);
    void *arg;
    size_t max_placed; //  stop after this many placements (0: no limit)
    //  spread groups: spread_counts[g * agent_count + a] sessions of group g
    //  on agent a (pending spread g + 1); the pass adds what it places. NULL
    //  with no group.
    uint32_t *spread_counts;
    size_t spread_groups;
} sched_pass_t;

//  Runs the pass: returns how many sessions were placed. Fills every
//  pending's outcome (NONE for those not reached after max_placed), agents
//  and skipped; adds what it placed to the agents' occupied and kernels and
//  to the owners' occupied; sets the agents' reserved flags; moves
//  *rr_cursor. If its scratch memory cannot be allocated it changes
//  nothing, leaves every outcome NONE and returns 0.
size_t sched_pass_run(sched_pass_t *pass);

//  A slot short on the agent closest to fitting a session.
typedef struct {
    size_t slot;   //  index into the vectors
    int64_t asked; //  what the session needs of it on one agent
    int64_t free;  //  what that agent has for it now (pairs and placeable counted)
} sched_short_t;

//  Why p (left PENDING by the pass) fits no agent, for its reason: the
//  slots short on the agent with the fewest short slots (ties: the
//  smallest shortfall relative to capacity, then the lowest index), at
//  most max into out. Returns how many; 0 when there is no agent, or one
//  has room for it (it waits for something else: a reservation, the other
//  agents of a multi-node cluster), or its request cannot be placed at
//  all. Reads the agents as the pass left them.
size_t sched_pass_explain(const sched_pass_t *pass,
                          const sched_pending_t *p,
                          sched_short_t *out,
                          size_t max);

//  Whether count kernels of request fit together on agent now, by the
//  pass's fitting rule (reservations aside): what /resource/check-presets
//  asks, so that it agrees with the scheduler.
bool sched_pass_fits(const sched_agent_t *agent,
                     const sched_vec_t *request,
                     uint32_t count,
                     size_t slot_count);

#endif
