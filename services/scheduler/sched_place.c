/*  =========================================================================
    sched_place - first-fit placement over capacities and the ledger

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

int64_t
sched_amount_of(const sched_amount_t *amounts, size_t count, const char *slot)
{
    for (size_t i = 0; i < count; i++)
        if (strcmp(amounts[i].slot, slot) == 0)
            return amounts[i].amount;
    return 0;
}

//  True when every requested slot fits in what candidate has left.
static bool
s_fits(const sched_candidate_t *candidate, const sched_amount_t *request, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        if (request[i].amount <= 0)
            continue;
        int64_t capacity = sched_amount_of(candidate->capacity, candidate->capacity_count,
                                           request[i].slot);
        int64_t occupied = sched_amount_of(candidate->occupied, candidate->occupied_count,
                                           request[i].slot);
        //  Written so that neither side can overflow: amounts are non-negative.
        if (occupied > capacity || request[i].amount > capacity - occupied)
            return false;
    }
    return true;
}

int
sched_place_first_fit(const sched_candidate_t *candidates,
                      size_t count,
                      const sched_amount_t *request,
                      size_t request_count)
{
    for (size_t i = 0; i < count; i++)
        if (s_fits(&candidates[i], request, request_count))
            return (int) i;
    return -1;
}
