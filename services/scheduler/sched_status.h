/*  =========================================================================
    sched_status - session and kernel statuses, and which changes are legal

    Backend.AI's state machines (reference §6): the names on the wire, the
    transitions a session may make, how a kernel's status maps onto its
    session's, and how a session's status follows its kernels (the main
    kernel leads, except that RUNNING and TERMINATED wait for every
    sibling). Pure functions: the scheduler's database code asks these
    before it writes a transition, so an illegal one is refused rather than
    stored.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_STATUS_H_INCLUDED
#define SCHED_STATUS_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    SCHED_SESSION_PENDING,
    SCHED_SESSION_SCHEDULED,
    SCHED_SESSION_PULLING,
    SCHED_SESSION_PREPARING,
    SCHED_SESSION_RUNNING,
    SCHED_SESSION_RESTARTING,
    SCHED_SESSION_RUNNING_DEGRADED,
    SCHED_SESSION_TERMINATING,
    SCHED_SESSION_TERMINATED,
    SCHED_SESSION_ERROR,
    SCHED_SESSION_CANCELLED,
    SCHED_SESSION_STATUS_COUNT
} sched_session_status_t;

typedef enum {
    SCHED_KERNEL_PENDING,
    SCHED_KERNEL_SCHEDULED,
    SCHED_KERNEL_PREPARING,
    SCHED_KERNEL_BUILDING,
    SCHED_KERNEL_PULLING,
    SCHED_KERNEL_RUNNING,
    SCHED_KERNEL_RESTARTING,
    SCHED_KERNEL_RESIZING,
    SCHED_KERNEL_SUSPENDED,
    SCHED_KERNEL_TERMINATING,
    SCHED_KERNEL_TERMINATED,
    SCHED_KERNEL_ERROR,
    SCHED_KERNEL_CANCELLED,
    SCHED_KERNEL_STATUS_COUNT
} sched_kernel_status_t;

//  The wire names ("PENDING", ...); NULL for a value out of range.
const char *sched_session_status_str(int status);
const char *sched_kernel_status_str(int status);

//  Parses a wire name; -1 when unknown (case-sensitive, as Backend.AI's).
int sched_session_status_from_str(const char *name);
int sched_kernel_status_from_str(const char *name);

//  True when a session may go from one status to the other. Staying in the
//  same status is not a transition (false).
bool sched_session_transition_ok(sched_session_status_t from, sched_session_status_t to);

//  The session status a kernel status stands for (BUILDING -> PREPARING,
//  RESIZING -> RUNNING, SUSPENDED -> ERROR, others by name).
sched_session_status_t sched_kernel_to_session(sched_kernel_status_t status);

//  The session's status from its kernels' statuses; main is the index of
//  the main kernel. The main kernel leads, except that the session is
//  RUNNING or TERMINATED only when every kernel is. count must be > 0.
sched_session_status_t
sched_session_status_of(const sched_kernel_status_t *kernels, size_t count, size_t main);

//  TERMINATED and CANCELLED: nothing will happen to the session any more.
bool sched_session_is_dead(sched_session_status_t status);

//  Whether a kernel in this status holds resources on its agent: every
//  status except PENDING, TERMINATED and CANCELLED.
bool sched_kernel_occupies(sched_kernel_status_t status);

//  The kernel statuses of a kernel.create still under way (SCHEDULED,
//  PREPARING, BUILDING, PULLING), as a mask of 1 << status, the form
//  sched_db_kernels_move_from takes.
#define SCHED_KERNEL_CREATING                                                            \
    ((1u << SCHED_KERNEL_SCHEDULED) | (1u << SCHED_KERNEL_PREPARING) |                   \
     (1u << SCHED_KERNEL_BUILDING) | (1u << SCHED_KERNEL_PULLING))

//  Whether a kernel in status waits for its kernel.create (a status in
//  SCHED_KERNEL_CREATING); false for -1, an unknown kernel.
bool sched_kernel_is_creating(int status);

#endif
