/*  =========================================================================
    sched_model - what one scheduling pass sees, as plain arrays (pure)

    A pass starts from a snapshot the database gives (sched_db_snapshot): the
    ALIVE, schedulable agents of one resource group with their capacity and
    what their allocation rows hold, the group's pending sessions in the
    window the pass considers, and what each owner and quota scope holds
    now. Amounts are vectors indexed by slot: slot i of every vector is the
    slot named slot_names[i] of the snapshot, in integer units (bytes, or
    thousandths of a count: see bus_slots), so the decisions never touch a
    string or a float. The policy code (sched_pass, sched_quota) reads and
    updates these arrays and does no I/O; what it decided is written back
    in one transaction.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_MODEL_H_INCLUDED
#define SCHED_MODEL_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SCHED_SLOTS_MAX     24 //  slot kinds one resource group may have
#define SCHED_CLUSTER_MAX   64 //  kernels one session may have
#define SCHED_SLOT_NAME_MAX 64

//  One named amount, as a request arrives (the database's rows); the pass
//  works on vectors instead.
typedef struct {
    char slot[SCHED_SLOT_NAME_MAX];
    int64_t amount;
} sched_amount_t;

//  An amount per slot, indexed like the snapshot's slot names.
typedef struct {
    int64_t v[SCHED_SLOTS_MAX];
} sched_vec_t;

//  How a resource group orders its pending sessions (scheduler).
typedef enum {
    SCHED_POLICY_FIFO,     //  oldest first
    SCHED_POLICY_LIFO,     //  newest first
    SCHED_POLICY_DRF,      //  the owner with the smallest dominant share first
    SCHED_POLICY_PRIORITY, //  highest priority first, raised by waiting (aging)
} sched_policy_kind_t;

//  Which of the agents that fit takes a kernel (scheduler_opts.agent_selector).
typedef enum {
    SCHED_SELECT_CONCENTRATED, //  the one left fullest: pack
    SCHED_SELECT_DISPERSED,    //  the one left emptiest: spread
    SCHED_SELECT_ROUNDROBIN,   //  the next in id order after the last one chosen
} sched_selector_t;

//  A resource group's scheduling rules.
typedef struct {
    sched_policy_kind_t policy;
    sched_selector_t selector;
    //  priority policy: a waiting session gains one priority point per
    //  aging_us waited (0: no aging). Effective priority is not capped, so
    //  a low-priority session eventually outranks any newer one.
    int64_t aging_us;
    //  head-of-line rule: a session that could not be placed is passed over
    //  (those behind it may run) in up to skip_passes passes; after that it
    //  reserves agents (see sched_pass.h). scheduler_opts.num_retries_to_skip.
    uint32_t skip_passes;
} sched_rules_t;

#define SCHED_PAIRS_MAX (SCHED_SLOTS_MAX / 2)

//  An accelerator an agent offers both as whole devices and as shares of
//  them ("<p>.device" and "<p>.shares", accelerators.cuda_mode both), over
//  the same devices: slot indexes of the two.
typedef struct {
    uint8_t device;
    uint8_t shares;
} sched_pair_t;

//  An agent in the snapshot: ALIVE, schedulable, of the group.
typedef struct {
    const char *id;       //  borrowed
    sched_vec_t capacity; //  what it has
    sched_vec_t occupied; //  SUM of its allocation rows; the pass adds what it places
    uint32_t kernels;     //  kernels holding slots on it; the pass adds what it places
    bool reserved;        //  set by the pass: held for a session passed over too often
    //  The most one kernel can be given of slot s now, where bit s of
    //  placeable_mask is set (the agent's heartbeat placeable_slots: how its
    //  devices are split, which totals do not show); no bound elsewhere.
    sched_vec_t placeable;
    uint32_t placeable_mask;
    //  Its accelerators offered both ways: devices held whole hold no
    //  shares, and a device with shares in use cannot be taken whole.
    sched_pair_t pairs[SCHED_PAIRS_MAX];
    uint8_t pair_count;
} sched_agent_t;

//  Who a session counts against: an index into the snapshot's owners
//  (DRF's unit: the keypair) and its quota scopes (sched_quota).
typedef struct {
    const char *access_key; //  borrowed
    sched_vec_t occupied;   //  what its kernels hold now; the pass adds what it places
} sched_owner_t;

//  Why a pending session did not run in this pass.
typedef enum {
    SCHED_OUTCOME_NONE,     //  not looked at (the pass stopped before it)
    SCHED_OUTCOME_PLACED,   //  placed: agents[] says where each kernel goes
    SCHED_OUTCOME_NO_ROOM,  //  no agent (set) has room now
    SCHED_OUTCOME_QUOTA,    //  a quota predicate failed (sched_quota says which)
    SCHED_OUTCOME_RESERVED, //  would fit only on agents held for an older session
} sched_outcome_t;

//  A pending session. The pass fills outcome, agents and skipped.
typedef struct {
    const char *session_id; //  borrowed
    size_t owner;           //  index into the owners
    size_t scopes[4];   //  indexes into the quota scopes: keypair, user, project, domain
    int64_t created_us; //  when it was enqueued
    int priority;       //  0..100, 10 by default
    uint32_t skipped;   //  passes it could not be placed in so far (in and out)
    uint32_t kernel_count; //  1, or the cluster size
    bool multi_node;       //  cluster_mode multi-node: each kernel on its own agent
    uint32_t spread;     //  1 + its spread group (replicas of one model service); 0: none
    sched_vec_t request; //  what each kernel asks for
    //  out:
    sched_outcome_t outcome;
    uint32_t agents[SCHED_CLUSTER_MAX]; //  PLACED: agent index of kernel k
} sched_pending_t;

#endif
