/*  =========================================================================
    sched_status_test - names, the transition table, session status rules

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"
#include "t.h"

static void
test_names_round_trip(void)
{
    for (int i = 0; i < SCHED_SESSION_STATUS_COUNT; i++)
        T_EQ_INT(sched_session_status_from_str(sched_session_status_str(i)), i);
    for (int i = 0; i < SCHED_KERNEL_STATUS_COUNT; i++)
        T_EQ_INT(sched_kernel_status_from_str(sched_kernel_status_str(i)), i);
    T_EQ_INT(sched_session_status_from_str("running"), -1);
    T_EQ_INT(sched_session_status_from_str(NULL), -1);
    T_ASSERT(sched_session_status_str(-1) == NULL);
    T_ASSERT(sched_kernel_status_str(SCHED_KERNEL_STATUS_COUNT) == NULL);
    T_EQ_STR(sched_session_status_str(SCHED_SESSION_RUNNING_DEGRADED),
             "RUNNING_DEGRADED");
}

static void
test_transitions_follow_backend_ai(void)
{
    //  The life of a normal session.
    T_ASSERT(sched_session_transition_ok(SCHED_SESSION_PENDING, SCHED_SESSION_SCHEDULED));
    T_ASSERT(
        sched_session_transition_ok(SCHED_SESSION_SCHEDULED, SCHED_SESSION_PREPARING));
    T_ASSERT(sched_session_transition_ok(SCHED_SESSION_PREPARING, SCHED_SESSION_RUNNING));
    T_ASSERT(
        sched_session_transition_ok(SCHED_SESSION_RUNNING, SCHED_SESSION_TERMINATING));
    T_ASSERT(
        sched_session_transition_ok(SCHED_SESSION_TERMINATING, SCHED_SESSION_TERMINATED));
    //  Cancelled before it ran; an error always ends terminated.
    T_ASSERT(sched_session_transition_ok(SCHED_SESSION_PENDING, SCHED_SESSION_CANCELLED));
    T_ASSERT(sched_session_transition_ok(SCHED_SESSION_ERROR, SCHED_SESSION_TERMINATED));
    //  Refused: backwards, out of final states, skipping to RUNNING from PENDING.
    T_ASSERT(!sched_session_transition_ok(SCHED_SESSION_RUNNING, SCHED_SESSION_PENDING));
    T_ASSERT(
        !sched_session_transition_ok(SCHED_SESSION_TERMINATED, SCHED_SESSION_RUNNING));
    T_ASSERT(
        !sched_session_transition_ok(SCHED_SESSION_CANCELLED, SCHED_SESSION_TERMINATED));
    T_ASSERT(!sched_session_transition_ok(SCHED_SESSION_PENDING, SCHED_SESSION_RUNNING));
    T_ASSERT(
        !sched_session_transition_ok(SCHED_SESSION_RUNNING, SCHED_SESSION_CANCELLED));
    T_ASSERT(!sched_session_transition_ok(SCHED_SESSION_ERROR, SCHED_SESSION_RUNNING));
    T_ASSERT(!sched_session_transition_ok(SCHED_SESSION_RUNNING, SCHED_SESSION_RUNNING));
    //  Dead ones go nowhere.
    for (int to = 0; to < SCHED_SESSION_STATUS_COUNT; to++) {
        T_ASSERT(!sched_session_transition_ok(SCHED_SESSION_TERMINATED, to));
        T_ASSERT(!sched_session_transition_ok(SCHED_SESSION_CANCELLED, to));
    }
    T_ASSERT(
        !sched_session_transition_ok(SCHED_SESSION_STATUS_COUNT, SCHED_SESSION_RUNNING));
}

static void
test_kernel_mapping_and_session_status(void)
{
    T_EQ_INT(sched_kernel_to_session(SCHED_KERNEL_BUILDING), SCHED_SESSION_PREPARING);
    T_EQ_INT(sched_kernel_to_session(SCHED_KERNEL_RESIZING), SCHED_SESSION_RUNNING);
    T_EQ_INT(sched_kernel_to_session(SCHED_KERNEL_SUSPENDED), SCHED_SESSION_ERROR);
    T_EQ_INT(sched_kernel_to_session(SCHED_KERNEL_PULLING), SCHED_SESSION_PULLING);
    //  The main kernel leads...
    sched_kernel_status_t one[] = {SCHED_KERNEL_PREPARING, SCHED_KERNEL_RUNNING};
    T_EQ_INT(sched_session_status_of(one, 2, 0), SCHED_SESSION_PREPARING);
    //  ...but RUNNING waits for every sibling.
    sched_kernel_status_t two[] = {SCHED_KERNEL_RUNNING, SCHED_KERNEL_PREPARING};
    T_EQ_INT(sched_session_status_of(two, 2, 0), SCHED_SESSION_PREPARING);
    sched_kernel_status_t three[] = {SCHED_KERNEL_RUNNING, SCHED_KERNEL_RUNNING};
    T_EQ_INT(sched_session_status_of(three, 2, 1), SCHED_SESSION_RUNNING);
    //  TERMINATED waits too: the session is still terminating.
    sched_kernel_status_t four[] = {SCHED_KERNEL_TERMINATED, SCHED_KERNEL_TERMINATING};
    T_EQ_INT(sched_session_status_of(four, 2, 0), SCHED_SESSION_TERMINATING);
    sched_kernel_status_t five[] = {SCHED_KERNEL_TERMINATED};
    T_EQ_INT(sched_session_status_of(five, 1, 0), SCHED_SESSION_TERMINATED);
    T_ASSERT(sched_session_is_dead(SCHED_SESSION_CANCELLED));
    T_ASSERT(!sched_session_is_dead(SCHED_SESSION_ERROR));
    T_ASSERT(sched_kernel_occupies(SCHED_KERNEL_SCHEDULED));
    T_ASSERT(sched_kernel_occupies(SCHED_KERNEL_TERMINATING));
    T_ASSERT(!sched_kernel_occupies(SCHED_KERNEL_PENDING));
    T_ASSERT(!sched_kernel_occupies(SCHED_KERNEL_TERMINATED));
}

//  The statuses a kernel.create answer may move a kernel from.
static void
test_kernel_creating(void)
{
    const int creating[] = {SCHED_KERNEL_SCHEDULED, SCHED_KERNEL_PREPARING,
                            SCHED_KERNEL_BUILDING, SCHED_KERNEL_PULLING};
    for (size_t i = 0; i < sizeof creating / sizeof creating[0]; i++) {
        T_ASSERT(sched_kernel_is_creating(creating[i]));
        T_ASSERT(SCHED_KERNEL_CREATING & (1u << creating[i]));
    }
    const int others[] = {-1,
                          SCHED_KERNEL_PENDING,
                          SCHED_KERNEL_RUNNING,
                          SCHED_KERNEL_RESTARTING,
                          SCHED_KERNEL_TERMINATING,
                          SCHED_KERNEL_TERMINATED,
                          SCHED_KERNEL_CANCELLED,
                          SCHED_KERNEL_STATUS_COUNT};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        T_ASSERT(!sched_kernel_is_creating(others[i]));
}

int
main(void)
{
    T_RUN(test_names_round_trip);
    T_RUN(test_transitions_follow_backend_ai);
    T_RUN(test_kernel_mapping_and_session_status);
    T_RUN(test_kernel_creating);
    return T_DONE();
}
