/*  =========================================================================
    sched_lifecycle - kernel and session moves, and the session.lifecycle
    events that tell them

    Every step of a session is a durable session.lifecycle event named as
    Backend.AI names it (reference §5), emitted in the transaction that
    makes the step: a kernel move (sched_db_kernels) emits its kernel's
    event (kernel_preparing, kernel_started, kernel_terminating,
    kernel_terminated, kernel_cancelled) and, when the session's status
    follows, the session's (session_started, session_terminating,
    session_terminated, session_cancelled); a new session emits
    session_enqueued, a pass's placements session_scheduled and
    kernel_preparing. A restart has no event until session_started, and
    no kernel event then. Each event carries the session's owner and
    status, and a kernel's place in its cluster as Backend.AI numbers it.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_LIFECYCLE_H_INCLUDED
#define SCHED_LIFECYCLE_H_INCLUDED

#include "bus.h"
#include "sched_db_sessions.h"
#include "sched_dispatch.h"

typedef struct _sched_lifecycle_t sched_lifecycle_t;

//  Emits on node (borrowed). NULL when out of memory.
sched_lifecycle_t *sched_lifecycle_new(bus_node_t *node);
void sched_lifecycle_destroy(sched_lifecycle_t **self_p);

//  Emits event inside the caller's transaction with what move says of the
//  session (its status: status) and of kernel_id (NULL for a session's
//  event); reason and exit_code optional.
void sched_lifecycle_emit_move(sched_lifecycle_t *self,
                               const char *event,
                               const sched_move_t *move,
                               sched_session_status_t status,
                               const char *kernel_id,
                               const char *reason,
                               const int64_t *exit_code);

//  The same for the events that no kernel move tells (session_success,
//  session_failure): the session's owner and status and the kernel's place
//  are read with one statement. Nothing for an unknown session.
void sched_lifecycle_emit(sched_lifecycle_t *self,
                          const char *event,
                          const char *session_id,
                          const char *kernel_id,
                          const char *reason,
                          const int64_t *exit_code);

//  Moves kernel_id (and with it its session) to status, only from the
//  statuses in from_mask (SCHED_KERNEL_FROM_ANY: all), and emits what
//  Backend.AI tells of it, inside the caller's transaction. A kernel
//  already in status changes nothing but its event is emitted again; one
//  elsewhere, or unknown when from_mask is not every status, is left
//  alone quietly. container_id and kernel_host, when given, are written
//  with the move. *out (when given) says what was found. Returns
//  sched_db_kernels_move_from's status (a refusal is logged).
int sched_lifecycle_move_from(sched_lifecycle_t *self,
                              unsigned from_mask,
                              const char *kernel_id,
                              sched_kernel_status_t status,
                              const char *reason,
                              const char *status_data,
                              const int64_t *exit_code,
                              const char *container_id,
                              const char *kernel_host,
                              sched_move_t *out);

//  sched_lifecycle_move_from from any status, with no container.
int sched_lifecycle_move(sched_lifecycle_t *self,
                         const char *kernel_id,
                         sched_kernel_status_t status,
                         const char *reason,
                         const char *status_data,
                         const int64_t *exit_code);

//  A new session stored PENDING from spec: session_enqueued, from the spec
//  (nothing is read back).
void sched_lifecycle_enqueued(sched_lifecycle_t *self, const sched_session_spec_t *spec);

//  What a pass placed (the kernels and their sessions written PREPARING):
//  the events of both steps, session_scheduled (SCHEDULED) then each
//  kernel's kernel_preparing (PREPARING, the main kernel leading).
void sched_lifecycle_placed(sched_lifecycle_t *self,
                            const sched_assignment_t *placed,
                            size_t count);

#endif
