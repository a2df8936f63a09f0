/*  =========================================================================
    sched_status - status names, the transition table, session status rules

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

static const char *s_session_names[SCHED_SESSION_STATUS_COUNT] = {
    "PENDING",    "SCHEDULED",  "PULLING",          "PREPARING",
    "RUNNING",    "RESTARTING", "RUNNING_DEGRADED", "TERMINATING",
    "TERMINATED", "ERROR",      "CANCELLED",
};

static const char *s_kernel_names[SCHED_KERNEL_STATUS_COUNT] = {
    "PENDING",    "SCHEDULED",  "PREPARING", "BUILDING",  "PULLING",
    "RUNNING",    "RESTARTING", "RESIZING",  "SUSPENDED", "TERMINATING",
    "TERMINATED", "ERROR",      "CANCELLED",
};

#define BIT(status) (1u << (status))

//  Backend.AI's SESSION_STATUS_TRANSITION_MAP: the statuses each may move to.
static const unsigned s_next[SCHED_SESSION_STATUS_COUNT] = {
    [SCHED_SESSION_PENDING] = BIT(SCHED_SESSION_SCHEDULED) |
                              BIT(SCHED_SESSION_TERMINATING) |
                              BIT(SCHED_SESSION_TERMINATED) | BIT(SCHED_SESSION_ERROR) |
                              BIT(SCHED_SESSION_CANCELLED),
    [SCHED_SESSION_SCHEDULED] = BIT(SCHED_SESSION_PULLING) |
                                BIT(SCHED_SESSION_PREPARING) |
                                BIT(SCHED_SESSION_TERMINATED) | BIT(SCHED_SESSION_ERROR) |
                                BIT(SCHED_SESSION_CANCELLED),
    [SCHED_SESSION_PULLING] = BIT(SCHED_SESSION_PREPARING) | BIT(SCHED_SESSION_RUNNING) |
                              BIT(SCHED_SESSION_RUNNING_DEGRADED) |
                              BIT(SCHED_SESSION_TERMINATED) | BIT(SCHED_SESSION_ERROR) |
                              BIT(SCHED_SESSION_CANCELLED),
    [SCHED_SESSION_PREPARING] = BIT(SCHED_SESSION_PULLING) | BIT(SCHED_SESSION_RUNNING) |
                                BIT(SCHED_SESSION_RUNNING_DEGRADED) |
                                BIT(SCHED_SESSION_TERMINATING) |
                                BIT(SCHED_SESSION_TERMINATED) | BIT(SCHED_SESSION_ERROR) |
                                BIT(SCHED_SESSION_CANCELLED),
    [SCHED_SESSION_RUNNING] = BIT(SCHED_SESSION_RESTARTING) |
                              BIT(SCHED_SESSION_RUNNING_DEGRADED) |
                              BIT(SCHED_SESSION_TERMINATING) |
                              BIT(SCHED_SESSION_TERMINATED) | BIT(SCHED_SESSION_ERROR),
    [SCHED_SESSION_RESTARTING] = BIT(SCHED_SESSION_RUNNING) |
                                 BIT(SCHED_SESSION_RUNNING_DEGRADED) |
                                 BIT(SCHED_SESSION_TERMINATING) |
                                 BIT(SCHED_SESSION_TERMINATED) | BIT(SCHED_SESSION_ERROR),
    [SCHED_SESSION_RUNNING_DEGRADED] =
        BIT(SCHED_SESSION_RUNNING) | BIT(SCHED_SESSION_TERMINATING) |
        BIT(SCHED_SESSION_TERMINATED) | BIT(SCHED_SESSION_ERROR),
    [SCHED_SESSION_TERMINATING] =
        BIT(SCHED_SESSION_TERMINATED) | BIT(SCHED_SESSION_ERROR),
    [SCHED_SESSION_ERROR] = BIT(SCHED_SESSION_TERMINATED),
    [SCHED_SESSION_TERMINATED] = 0,
    [SCHED_SESSION_CANCELLED] = 0,
};

static int
s_find(const char *const *names, int count, const char *name)
{
    for (int i = 0; name && i < count; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

const char *
sched_session_status_str(int status)
{
    return status >= 0 && status < SCHED_SESSION_STATUS_COUNT ? s_session_names[status]
                                                              : NULL;
}

const char *
sched_kernel_status_str(int status)
{
    return status >= 0 && status < SCHED_KERNEL_STATUS_COUNT ? s_kernel_names[status]
                                                             : NULL;
}

int
sched_session_status_from_str(const char *name)
{
    return s_find(s_session_names, SCHED_SESSION_STATUS_COUNT, name);
}

int
sched_kernel_status_from_str(const char *name)
{
    return s_find(s_kernel_names, SCHED_KERNEL_STATUS_COUNT, name);
}

bool
sched_session_transition_ok(sched_session_status_t from, sched_session_status_t to)
{
    if (from >= SCHED_SESSION_STATUS_COUNT || to >= SCHED_SESSION_STATUS_COUNT)
        return false;
    return (s_next[from] & BIT(to)) != 0;
}

sched_session_status_t
sched_kernel_to_session(sched_kernel_status_t status)
{
    switch (status) {
        case SCHED_KERNEL_BUILDING:
            return SCHED_SESSION_PREPARING;
        case SCHED_KERNEL_RESIZING:
            return SCHED_SESSION_RUNNING;
        case SCHED_KERNEL_SUSPENDED:
            return SCHED_SESSION_ERROR;
        default: {
            int same = sched_session_status_from_str(sched_kernel_status_str(status));
            return same < 0 ? SCHED_SESSION_ERROR : (sched_session_status_t) same;
        }
    }
}

sched_session_status_t
sched_session_status_of(const sched_kernel_status_t *kernels, size_t count, size_t main)
{
    assert(count > 0 && main < count);
    sched_session_status_t leader = sched_kernel_to_session(kernels[main]);
    if (leader != SCHED_SESSION_RUNNING && leader != SCHED_SESSION_TERMINATED)
        return leader;
    //  RUNNING and TERMINATED wait for every sibling: the session stays where
    //  the slowest sibling is.
    for (size_t i = 0; i < count; i++) {
        sched_session_status_t sibling = sched_kernel_to_session(kernels[i]);
        if (sibling != leader)
            return leader == SCHED_SESSION_RUNNING ? sibling : SCHED_SESSION_TERMINATING;
    }
    return leader;
}

bool
sched_session_is_dead(sched_session_status_t status)
{
    return status == SCHED_SESSION_TERMINATED || status == SCHED_SESSION_CANCELLED;
}

bool
sched_kernel_occupies(sched_kernel_status_t status)
{
    return status != SCHED_KERNEL_PENDING && status != SCHED_KERNEL_TERMINATED &&
           status != SCHED_KERNEL_CANCELLED;
}

bool
sched_kernel_is_creating(int status)
{
    return status >= 0 && status < SCHED_KERNEL_STATUS_COUNT &&
           (SCHED_KERNEL_CREATING & (1u << status)) != 0;
}
