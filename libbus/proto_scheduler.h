//  GENERATED FROM proto/scheduler.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_scheduler - questions other services ask the scheduler

    Structs and codecs of the scheduler domain. Included by proto.h: include
    bus.h, not this file. proto.h documents the functions every struct type T
    has (init, clear, check, write, writer for requests, encode, read, decode,
    print).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef PROTO_SCHEDULER_H_INCLUDED
#define PROTO_SCHEDULER_H_INCLUDED

//  Topics (events) and method names (RPC).
#define PROTO_SCHEDULER_AGENTS      "scheduler.agents"
#define PROTO_SCHEDULER_USAGE       "scheduler.usage"
#define PROTO_SCHEDULER_INVARIANT   "scheduler.invariant"
#define PROTO_SCHEDULER_RECALCULATE "scheduler.recalculate"
#define PROTO_SCHEDULER_SCHEDULABLE "scheduler.schedulable"
#define PROTO_SCHEDULER_CONCURRENCY "scheduler.concurrency"

//  ---------------------------------------------------------------------------
//  scheduler.agent, a nested value: one agent as the scheduler's registry knows it

typedef struct {
    //  The agent's id (required, at most 128 bytes)
    const char *id;
    //  ALIVE, LOST or TERMINATED (required, at most 16 bytes)
    const char *status;
    //  Where it runs (at most 64 bytes)
    const char *region;
    //  Its resource group (at most 64 bytes)
    const char *scaling_group;
    //  Its RPC endpoint (at most 256 bytes)
    const char *addr;
    //  Its CPU architecture (at most 32 bytes)
    const char *architecture;
    //  Its Backplane version (at most 64 bytes)
    const char *version;
    //  Whether new kernels may go there
    bool schedulable;
    //  First heartbeat seen (microseconds since the epoch)
    int64_t first_contact;
    //  Latest heartbeat seen (microseconds since the epoch)
    int64_t last_seen;
    //  When it was declared LOST (0 when alive) (microseconds since the epoch)
    int64_t lost_at;
    //  Capacity, slot -> decimal string (at most 64 pairs, string to string, in wire
    //  order)
    const proto_kv_t *available_slots;
    size_t available_slots_count;
    //  Sum of its allocations, slot -> decimal string (at most 64 pairs, string to
    //  string, in wire order)
    const proto_kv_t *occupied_slots;
    size_t occupied_slots_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_scheduler_agent_t;

#define PROTO_SCHEDULER_AGENT_ID_MAX              128
#define PROTO_SCHEDULER_AGENT_STATUS_MAX          16
#define PROTO_SCHEDULER_AGENT_REGION_MAX          64
#define PROTO_SCHEDULER_AGENT_SCALING_GROUP_MAX   64
#define PROTO_SCHEDULER_AGENT_ADDR_MAX            256
#define PROTO_SCHEDULER_AGENT_ARCHITECTURE_MAX    32
#define PROTO_SCHEDULER_AGENT_VERSION_MAX         64
#define PROTO_SCHEDULER_AGENT_AVAILABLE_SLOTS_MAX 64
#define PROTO_SCHEDULER_AGENT_OCCUPIED_SLOTS_MAX  64

void proto_scheduler_agent_init(proto_scheduler_agent_t *self);
void proto_scheduler_agent_clear(proto_scheduler_agent_t *self);
PROTO_MUST_USE int proto_scheduler_agent_check(const proto_scheduler_agent_t *self,
                                               bus_error_t *err);
PROTO_MUST_USE int proto_scheduler_agent_write(const proto_scheduler_agent_t *self,
                                               bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_scheduler_agent_encode(const proto_scheduler_agent_t *self);
int proto_scheduler_agent_read(proto_scheduler_agent_t *self,
                               const bus_value_t *map,
                               bus_error_t *err);
int proto_scheduler_agent_decode(proto_scheduler_agent_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err);
char *proto_scheduler_agent_print(const proto_scheduler_agent_t *self);

//  ---------------------------------------------------------------------------
//  scheduler.usage, a nested value: the slots held in one resource group

typedef struct {
    //  The resource group (required, at most 64 bytes)
    const char *scaling_group;
    //  Slot -> decimal string (at most 64 pairs, string to string, in wire order)
    const proto_kv_t *slots;
    size_t slots_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_scheduler_usage_t;

#define PROTO_SCHEDULER_USAGE_SCALING_GROUP_MAX 64
#define PROTO_SCHEDULER_USAGE_SLOTS_MAX         64

void proto_scheduler_usage_init(proto_scheduler_usage_t *self);
void proto_scheduler_usage_clear(proto_scheduler_usage_t *self);
PROTO_MUST_USE int proto_scheduler_usage_check(const proto_scheduler_usage_t *self,
                                               bus_error_t *err);
PROTO_MUST_USE int proto_scheduler_usage_write(const proto_scheduler_usage_t *self,
                                               bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_scheduler_usage_encode(const proto_scheduler_usage_t *self);
int proto_scheduler_usage_read(proto_scheduler_usage_t *self,
                               const bus_value_t *map,
                               bus_error_t *err);
int proto_scheduler_usage_decode(proto_scheduler_usage_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err);
char *proto_scheduler_usage_print(const proto_scheduler_usage_t *self);

//  ---------------------------------------------------------------------------
//  scheduler.agent_ref, a nested value: an agent named in a request

typedef struct {
    //  The agent's id (required, at most 128 bytes)
    const char *id;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_scheduler_agent_ref_t;

#define PROTO_SCHEDULER_AGENT_REF_ID_MAX 128

void proto_scheduler_agent_ref_init(proto_scheduler_agent_ref_t *self);
void proto_scheduler_agent_ref_clear(proto_scheduler_agent_ref_t *self);
PROTO_MUST_USE int proto_scheduler_agent_ref_check(const proto_scheduler_agent_ref_t *self,
                                                   bus_error_t *err);
PROTO_MUST_USE int proto_scheduler_agent_ref_write(const proto_scheduler_agent_ref_t *self,
                                                   bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_scheduler_agent_ref_encode(const proto_scheduler_agent_ref_t *self);
int proto_scheduler_agent_ref_read(proto_scheduler_agent_ref_t *self,
                                   const bus_value_t *map,
                                   bus_error_t *err);
int proto_scheduler_agent_ref_decode(proto_scheduler_agent_ref_t *self,
                                     const void *data,
                                     size_t size,
                                     bus_error_t *err);
char *proto_scheduler_agent_ref_print(const proto_scheduler_agent_ref_t *self);

//  ---------------------------------------------------------------------------
//  scheduler.keypair_concurrency, a nested value: one keypair's sessions that hold slots
//  now

typedef struct {
    //  The keypair (required, at most 64 bytes)
    const char *access_key;
    //  Its sessions in any status but PENDING, TERMINATED, CANCELLED and ERROR
    //  (Backend.AI's concurrency_used)
    uint64_t concurrency_used;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_scheduler_keypair_concurrency_t;

#define PROTO_SCHEDULER_KEYPAIR_CONCURRENCY_ACCESS_KEY_MAX 64

void
proto_scheduler_keypair_concurrency_init(proto_scheduler_keypair_concurrency_t *self);
void
proto_scheduler_keypair_concurrency_clear(proto_scheduler_keypair_concurrency_t *self);
PROTO_MUST_USE int proto_scheduler_keypair_concurrency_check(const proto_scheduler_keypair_concurrency_t *self,
                                                             bus_error_t *err);
PROTO_MUST_USE int proto_scheduler_keypair_concurrency_write(const proto_scheduler_keypair_concurrency_t *self,
                                                             bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_scheduler_keypair_concurrency_encode(const proto_scheduler_keypair_concurrency_t *self);
int proto_scheduler_keypair_concurrency_read(proto_scheduler_keypair_concurrency_t *self,
                                             const bus_value_t *map,
                                             bus_error_t *err);
int proto_scheduler_keypair_concurrency_decode(proto_scheduler_keypair_concurrency_t *self,
                                               const void *data,
                                               size_t size,
                                               bus_error_t *err);
char *proto_scheduler_keypair_concurrency_print(const proto_scheduler_keypair_concurrency_t *self);

//  ---------------------------------------------------------------------------
//  scheduler.agents request (idempotent): the agents in the registry, optionally of one
//  resource group or status

typedef struct {
    //  Only this resource group (at most 64 bytes)
    const char *scaling_group;
    //  Only these statuses, comma-separated (at most 64 bytes)
    const char *status;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_scheduler_agents_req_t;

#define PROTO_SCHEDULER_AGENTS_REQ_SCALING_GROUP_MAX 64
#define PROTO_SCHEDULER_AGENTS_REQ_STATUS_MAX        64

void proto_scheduler_agents_req_init(proto_scheduler_agents_req_t *self);
void proto_scheduler_agents_req_clear(proto_scheduler_agents_req_t *self);
PROTO_MUST_USE int proto_scheduler_agents_req_check(const proto_scheduler_agents_req_t *self,
                                                    bus_error_t *err);
PROTO_MUST_USE int proto_scheduler_agents_req_write(const proto_scheduler_agents_req_t *self,
                                                    bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_scheduler_agents_req_writer(const proto_scheduler_agents_req_t *self,
                                                               bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_scheduler_agents_req_encode(const proto_scheduler_agents_req_t *self);
int proto_scheduler_agents_req_read(proto_scheduler_agents_req_t *self,
                                    const bus_value_t *map,
                                    bus_error_t *err);
int proto_scheduler_agents_req_decode(proto_scheduler_agents_req_t *self,
                                      const void *data,
                                      size_t size,
                                      bus_error_t *err);
char *proto_scheduler_agents_req_print(const proto_scheduler_agents_req_t *self);

//  ---------------------------------------------------------------------------
//  scheduler.agents reply (idempotent): the agents in the registry, optionally of one
//  resource group or status

typedef struct {
    //  The agents (at most 10000 items)
    const proto_scheduler_agent_t *agents;
    size_t agents_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_scheduler_agents_rep_t;

#define PROTO_SCHEDULER_AGENTS_REP_AGENTS_MAX 10000

void proto_scheduler_agents_rep_init(proto_scheduler_agents_rep_t *self);
void proto_scheduler_agents_rep_clear(proto_scheduler_agents_rep_t *self);
PROTO_MUST_USE int proto_scheduler_agents_rep_check(const proto_scheduler_agents_rep_t *self,
                                                    bus_error_t *err);
PROTO_MUST_USE int proto_scheduler_agents_rep_write(const proto_scheduler_agents_rep_t *self,
                                                    bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_scheduler_agents_rep_encode(const proto_scheduler_agents_rep_t *self);
int proto_scheduler_agents_rep_read(proto_scheduler_agents_rep_t *self,
                                    const bus_value_t *map,
                                    bus_error_t *err);
int proto_scheduler_agents_rep_decode(proto_scheduler_agents_rep_t *self,
                                      const void *data,
                                      size_t size,
                                      bus_error_t *err);
char *proto_scheduler_agents_rep_print(const proto_scheduler_agents_rep_t *self);

//  ---------------------------------------------------------------------------
//  scheduler.usage request (idempotent): what one keypair, its project and its domain
//  hold now: the sums of their kernels' allocation rows

typedef struct {
    //  The keypair (required, at most 64 bytes)
    const char *access_key;
    //  Its project (empty: not asked) (at most 64 bytes)
    const char *group_id;
    //  Its domain (empty: not asked) (at most 64 bytes)
    const char *domain_name;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_scheduler_usage_req_t;

#define PROTO_SCHEDULER_USAGE_REQ_ACCESS_KEY_MAX  64
#define PROTO_SCHEDULER_USAGE_REQ_GROUP_ID_MAX    64
#define PROTO_SCHEDULER_USAGE_REQ_DOMAIN_NAME_MAX 64

void proto_scheduler_usage_req_init(proto_scheduler_usage_req_t *self);
void proto_scheduler_usage_req_clear(proto_scheduler_usage_req_t *self);
PROTO_MUST_USE int proto_scheduler_usage_req_check(const proto_scheduler_usage_req_t *self,
                                                   bus_error_t *err);
PROTO_MUST_USE int proto_scheduler_usage_req_write(const proto_scheduler_usage_req_t *self,
                                                   bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_scheduler_usage_req_writer(const proto_scheduler_usage_req_t *self,
                                                              bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_scheduler_usage_req_encode(const proto_scheduler_usage_req_t *self);
int proto_scheduler_usage_req_read(proto_scheduler_usage_req_t *self,
                                   const bus_value_t *map,
                                   bus_error_t *err);
int proto_scheduler_usage_req_decode(proto_scheduler_usage_req_t *self,
                                     const void *data,
                                     size_t size,
                                     bus_error_t *err);
char *proto_scheduler_usage_req_print(const proto_scheduler_usage_req_t *self);

//  ---------------------------------------------------------------------------
//  scheduler.usage reply (idempotent): what one keypair, its project and its domain hold
//  now: the sums of their kernels' allocation rows

typedef struct {
    //  Slot -> decimal string, every session of the keypair (at most 64 pairs, string to
    //  string, in wire order)
    const proto_kv_t *keypair;
    size_t keypair_count;
    //  Slot -> decimal string, every session of the project (at most 64 pairs, string to
    //  string, in wire order)
    const proto_kv_t *group;
    size_t group_count;
    //  Slot -> decimal string, every session of the domain (at most 64 pairs, string to
    //  string, in wire order)
    const proto_kv_t *domain;
    size_t domain_count;
    //  The keypair's holdings per resource group (at most 1024 items)
    const proto_scheduler_usage_t *keypair_by_scaling_group;
    size_t keypair_by_scaling_group_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_scheduler_usage_rep_t;

#define PROTO_SCHEDULER_USAGE_REP_KEYPAIR_MAX                  64
#define PROTO_SCHEDULER_USAGE_REP_GROUP_MAX                    64
#define PROTO_SCHEDULER_USAGE_REP_DOMAIN_MAX                   64
#define PROTO_SCHEDULER_USAGE_REP_KEYPAIR_BY_SCALING_GROUP_MAX 1024

void proto_scheduler_usage_rep_init(proto_scheduler_usage_rep_t *self);
void proto_scheduler_usage_rep_clear(proto_scheduler_usage_rep_t *self);
PROTO_MUST_USE int proto_scheduler_usage_rep_check(const proto_scheduler_usage_rep_t *self,
                                                   bus_error_t *err);
PROTO_MUST_USE int proto_scheduler_usage_rep_write(const proto_scheduler_usage_rep_t *self,
                                                   bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_scheduler_usage_rep_encode(const proto_scheduler_usage_rep_t *self);
int proto_scheduler_usage_rep_read(proto_scheduler_usage_rep_t *self,
                                   const bus_value_t *map,
                                   bus_error_t *err);
int proto_scheduler_usage_rep_decode(proto_scheduler_usage_rep_t *self,
                                     const void *data,
                                     size_t size,
                                     bus_error_t *err);
char *proto_scheduler_usage_rep_print(const proto_scheduler_usage_rep_t *self);

//  ---------------------------------------------------------------------------
//  scheduler.invariant request (idempotent): checks the allocation ledger against its
//  aggregates, the capacities and what agents report (sched_invariant)

typedef struct {
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_scheduler_invariant_req_t;

void proto_scheduler_invariant_req_init(proto_scheduler_invariant_req_t *self);
void proto_scheduler_invariant_req_clear(proto_scheduler_invariant_req_t *self);
PROTO_MUST_USE int proto_scheduler_invariant_req_check(const proto_scheduler_invariant_req_t *self,
                                                       bus_error_t *err);
PROTO_MUST_USE int proto_scheduler_invariant_req_write(const proto_scheduler_invariant_req_t *self,
                                                       bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_scheduler_invariant_req_writer(const proto_scheduler_invariant_req_t *self,
                                                                  bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_scheduler_invariant_req_encode(const proto_scheduler_invariant_req_t *self);
int proto_scheduler_invariant_req_read(proto_scheduler_invariant_req_t *self,
                                       const bus_value_t *map,
                                       bus_error_t *err);
int proto_scheduler_invariant_req_decode(proto_scheduler_invariant_req_t *self,
                                         const void *data,
                                         size_t size,
                                         bus_error_t *err);
char *proto_scheduler_invariant_req_print(const proto_scheduler_invariant_req_t *self);

//  ---------------------------------------------------------------------------
//  scheduler.invariant reply (idempotent): checks the allocation ledger against its
//  aggregates, the capacities and what agents report (sched_invariant)

typedef struct {
    //  How many promises do not hold (0: all do)
    uint64_t violations;
    //  JSON array, one line of text per violation (at most 1048576 bytes)
    const char *report;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_scheduler_invariant_rep_t;

#define PROTO_SCHEDULER_INVARIANT_REP_REPORT_MAX 1048576

void proto_scheduler_invariant_rep_init(proto_scheduler_invariant_rep_t *self);
void proto_scheduler_invariant_rep_clear(proto_scheduler_invariant_rep_t *self);
PROTO_MUST_USE int proto_scheduler_invariant_rep_check(const proto_scheduler_invariant_rep_t *self,
                                                       bus_error_t *err);
PROTO_MUST_USE int proto_scheduler_invariant_rep_write(const proto_scheduler_invariant_rep_t *self,
                                                       bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_scheduler_invariant_rep_encode(const proto_scheduler_invariant_rep_t *self);
int proto_scheduler_invariant_rep_read(proto_scheduler_invariant_rep_t *self,
                                       const bus_value_t *map,
                                       bus_error_t *err);
int proto_scheduler_invariant_rep_decode(proto_scheduler_invariant_rep_t *self,
                                         const void *data,
                                         size_t size,
                                         bus_error_t *err);
char *proto_scheduler_invariant_rep_print(const proto_scheduler_invariant_rep_t *self);

//  ---------------------------------------------------------------------------
//  scheduler.recalculate request (idempotent): recounts the aggregates the triggers keep
//  (each agent's occupancy, each keypair's, user's, project's and domain's slots in use
//  and pending, each keypair's concurrent and pending sessions) from the allocation rows
//  and the sessions, in one transaction (Backend.AI's recalculate-usage)

typedef struct {
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_scheduler_recalculate_req_t;

void proto_scheduler_recalculate_req_init(proto_scheduler_recalculate_req_t *self);
void proto_scheduler_recalculate_req_clear(proto_scheduler_recalculate_req_t *self);
PROTO_MUST_USE int proto_scheduler_recalculate_req_check(const proto_scheduler_recalculate_req_t *self,
                                                         bus_error_t *err);
PROTO_MUST_USE int proto_scheduler_recalculate_req_write(const proto_scheduler_recalculate_req_t *self,
                                                         bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_scheduler_recalculate_req_writer(const proto_scheduler_recalculate_req_t *self,
                                                                    bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_scheduler_recalculate_req_encode(const proto_scheduler_recalculate_req_t *self);
int proto_scheduler_recalculate_req_read(proto_scheduler_recalculate_req_t *self,
                                         const bus_value_t *map,
                                         bus_error_t *err);
int proto_scheduler_recalculate_req_decode(proto_scheduler_recalculate_req_t *self,
                                           const void *data,
                                           size_t size,
                                           bus_error_t *err);
char *
proto_scheduler_recalculate_req_print(const proto_scheduler_recalculate_req_t *self);

//  ---------------------------------------------------------------------------
//  scheduler.recalculate reply (idempotent): recounts the aggregates the triggers keep
//  (each agent's occupancy, each keypair's, user's, project's and domain's slots in use
//  and pending, each keypair's concurrent and pending sessions) from the allocation rows
//  and the sessions, in one transaction (Backend.AI's recalculate-usage)

typedef struct {
    //  Violations of the ledger's promises before the recount that it removed
    uint64_t fixed;
    //  Violations left after it (capacity and agent reports, which a recount cannot
    //  change)
    uint64_t violations;
    //  JSON array, one line of text per violation left (at most 1048576 bytes)
    const char *report;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_scheduler_recalculate_rep_t;

#define PROTO_SCHEDULER_RECALCULATE_REP_REPORT_MAX 1048576

void proto_scheduler_recalculate_rep_init(proto_scheduler_recalculate_rep_t *self);
void proto_scheduler_recalculate_rep_clear(proto_scheduler_recalculate_rep_t *self);
PROTO_MUST_USE int proto_scheduler_recalculate_rep_check(const proto_scheduler_recalculate_rep_t *self,
                                                         bus_error_t *err);
PROTO_MUST_USE int proto_scheduler_recalculate_rep_write(const proto_scheduler_recalculate_rep_t *self,
                                                         bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_scheduler_recalculate_rep_encode(const proto_scheduler_recalculate_rep_t *self);
int proto_scheduler_recalculate_rep_read(proto_scheduler_recalculate_rep_t *self,
                                         const bus_value_t *map,
                                         bus_error_t *err);
int proto_scheduler_recalculate_rep_decode(proto_scheduler_recalculate_rep_t *self,
                                           const void *data,
                                           size_t size,
                                           bus_error_t *err);
char *
proto_scheduler_recalculate_rep_print(const proto_scheduler_recalculate_rep_t *self);

//  ---------------------------------------------------------------------------
//  scheduler.schedulable request (idempotent): includes agents in scheduling or excludes
//  them (Backend.AI's include-agents and exclude-agents scheduler operations): all of
//  them or, when one is unknown, none

typedef struct {
    //  The agents (at most 10000 items)
    const proto_scheduler_agent_ref_t *agents;
    size_t agents_count;
    //  True: new sessions may go there again; false: none may
    bool schedulable;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_scheduler_schedulable_req_t;

#define PROTO_SCHEDULER_SCHEDULABLE_REQ_AGENTS_MAX 10000

void proto_scheduler_schedulable_req_init(proto_scheduler_schedulable_req_t *self);
void proto_scheduler_schedulable_req_clear(proto_scheduler_schedulable_req_t *self);
PROTO_MUST_USE int proto_scheduler_schedulable_req_check(const proto_scheduler_schedulable_req_t *self,
                                                         bus_error_t *err);
PROTO_MUST_USE int proto_scheduler_schedulable_req_write(const proto_scheduler_schedulable_req_t *self,
                                                         bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_scheduler_schedulable_req_writer(const proto_scheduler_schedulable_req_t *self,
                                                                    bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_scheduler_schedulable_req_encode(const proto_scheduler_schedulable_req_t *self);
int proto_scheduler_schedulable_req_read(proto_scheduler_schedulable_req_t *self,
                                         const bus_value_t *map,
                                         bus_error_t *err);
int proto_scheduler_schedulable_req_decode(proto_scheduler_schedulable_req_t *self,
                                           const void *data,
                                           size_t size,
                                           bus_error_t *err);
char *
proto_scheduler_schedulable_req_print(const proto_scheduler_schedulable_req_t *self);

//  ---------------------------------------------------------------------------
//  scheduler.schedulable reply (idempotent): includes agents in scheduling or excludes
//  them (Backend.AI's include-agents and exclude-agents scheduler operations): all of
//  them or, when one is unknown, none

typedef struct {
    //  How many agents were changed
    uint64_t changed;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_scheduler_schedulable_rep_t;

void proto_scheduler_schedulable_rep_init(proto_scheduler_schedulable_rep_t *self);
void proto_scheduler_schedulable_rep_clear(proto_scheduler_schedulable_rep_t *self);
PROTO_MUST_USE int proto_scheduler_schedulable_rep_check(const proto_scheduler_schedulable_rep_t *self,
                                                         bus_error_t *err);
PROTO_MUST_USE int proto_scheduler_schedulable_rep_write(const proto_scheduler_schedulable_rep_t *self,
                                                         bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_scheduler_schedulable_rep_encode(const proto_scheduler_schedulable_rep_t *self);
int proto_scheduler_schedulable_rep_read(proto_scheduler_schedulable_rep_t *self,
                                         const bus_value_t *map,
                                         bus_error_t *err);
int proto_scheduler_schedulable_rep_decode(proto_scheduler_schedulable_rep_t *self,
                                           const void *data,
                                           size_t size,
                                           bus_error_t *err);
char *
proto_scheduler_schedulable_rep_print(const proto_scheduler_schedulable_rep_t *self);

//  ---------------------------------------------------------------------------
//  scheduler.concurrency request (idempotent): each keypair's concurrency_used (the
//  GraphQL keypair field), read from the counts the triggers keep (keypair_counts) by
//  key: one indexed query, no scan; a keypair without sessions answers 0

typedef struct {
    //  The keypairs (at most 1000 items)
    const char *const *access_keys;
    size_t access_keys_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_scheduler_concurrency_req_t;

#define PROTO_SCHEDULER_CONCURRENCY_REQ_ACCESS_KEYS_MAX 1000

void proto_scheduler_concurrency_req_init(proto_scheduler_concurrency_req_t *self);
void proto_scheduler_concurrency_req_clear(proto_scheduler_concurrency_req_t *self);
PROTO_MUST_USE int proto_scheduler_concurrency_req_check(const proto_scheduler_concurrency_req_t *self,
                                                         bus_error_t *err);
PROTO_MUST_USE int proto_scheduler_concurrency_req_write(const proto_scheduler_concurrency_req_t *self,
                                                         bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_scheduler_concurrency_req_writer(const proto_scheduler_concurrency_req_t *self,
                                                                    bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_scheduler_concurrency_req_encode(const proto_scheduler_concurrency_req_t *self);
int proto_scheduler_concurrency_req_read(proto_scheduler_concurrency_req_t *self,
                                         const bus_value_t *map,
                                         bus_error_t *err);
int proto_scheduler_concurrency_req_decode(proto_scheduler_concurrency_req_t *self,
                                           const void *data,
                                           size_t size,
                                           bus_error_t *err);
char *
proto_scheduler_concurrency_req_print(const proto_scheduler_concurrency_req_t *self);

//  ---------------------------------------------------------------------------
//  scheduler.concurrency reply (idempotent): each keypair's concurrency_used (the GraphQL
//  keypair field), read from the counts the triggers keep (keypair_counts) by key: one
//  indexed query, no scan; a keypair without sessions answers 0

typedef struct {
    //  One per access key asked, in no particular order (at most 1000 items)
    const proto_scheduler_keypair_concurrency_t *keypairs;
    size_t keypairs_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_scheduler_concurrency_rep_t;

#define PROTO_SCHEDULER_CONCURRENCY_REP_KEYPAIRS_MAX 1000

void proto_scheduler_concurrency_rep_init(proto_scheduler_concurrency_rep_t *self);
void proto_scheduler_concurrency_rep_clear(proto_scheduler_concurrency_rep_t *self);
PROTO_MUST_USE int proto_scheduler_concurrency_rep_check(const proto_scheduler_concurrency_rep_t *self,
                                                         bus_error_t *err);
PROTO_MUST_USE int proto_scheduler_concurrency_rep_write(const proto_scheduler_concurrency_rep_t *self,
                                                         bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_scheduler_concurrency_rep_encode(const proto_scheduler_concurrency_rep_t *self);
int proto_scheduler_concurrency_rep_read(proto_scheduler_concurrency_rep_t *self,
                                         const bus_value_t *map,
                                         bus_error_t *err);
int proto_scheduler_concurrency_rep_decode(proto_scheduler_concurrency_rep_t *self,
                                           const void *data,
                                           size_t size,
                                           bus_error_t *err);
char *
proto_scheduler_concurrency_rep_print(const proto_scheduler_concurrency_rep_t *self);

#endif
