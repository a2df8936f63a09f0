/*  =========================================================================
    sched_place - choosing an agent for a kernel (pure)

    The decision only: given each candidate agent's capacity and what its
    allocation rows already hold, and the slots a kernel asks for, which
    agent takes it. First fit for now, in the order given (the caller sorts
    by the policy); the full policies and selectors come with the
    scheduling issue. No I/O, so every rule is a unit test.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_PLACE_H_INCLUDED
#define SCHED_PLACE_H_INCLUDED

#include <stddef.h>
#include <stdint.h>

#define SCHED_SLOT_NAME_MAX 64

//  One slot amount (integer units: bytes, or thousandths of a count).
typedef struct {
    char slot[SCHED_SLOT_NAME_MAX];
    int64_t amount;
} sched_amount_t;

typedef struct {
    const char *agent_id;
    const sched_amount_t *capacity; //  what the agent has
    size_t capacity_count;
    const sched_amount_t *occupied; //  SUM of its allocation rows, by slot
    size_t occupied_count;
} sched_candidate_t;

//  The index of the first candidate on which every requested slot fits
//  (capacity - occupied >= request; a slot the agent does not have fits
//  only a zero request), or -1 when none does.
int sched_place_first_fit(const sched_candidate_t *candidates,
                          size_t count,
                          const sched_amount_t *request,
                          size_t request_count);

//  The amount of slot in a list (0 when absent).
int64_t sched_amount_of(const sched_amount_t *amounts, size_t count, const char *slot);

#endif
