/*  =========================================================================
    agent_kernel_pty - the terminal methods of kernel.*: pty_write, pty_read

    Serves a terminal per kernel: a shell on a pseudo-terminal that the
    kernel's runner starts on the first kernel.pty_write (PTY_OPEN), then
    feeds with keystrokes (PTY_DATA) and resizes (PTY_RESIZE). What the shell
    prints (PTY_OUT) is kept per kernel, the last AGENT_KERNEL_PTY_KEEP
    bytes, counted from the terminal's opening, so several viewers can read
    it each at their own offset. kernel.pty_read answers as soon as there is
    output past the reader's offset, else after its wait_ms with none (a
    long poll: the gateway keeps one read out per viewer). A read older than
    what is kept gets the oldest kept byte on; a read past the end (a reader
    from an earlier terminal) gets the current end at once. When the shell
    exits, reads answer closed, and the next write opens a new terminal
    (counted from 0 again); when the kernel ends or restarts, waiting reads
    answer closed and the terminal is forgotten.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_KERNEL_PTY_H_INCLUDED
#define AGENT_KERNEL_PTY_H_INCLUDED

#include "bus.h"
#include "agent_kernels.h"

//  Terminal output kept per kernel; a reader further behind loses the rest.
#define AGENT_KERNEL_PTY_KEEP (256u * 1024)
//  The most output one pty_read answers (the proto's data maximum).
#define AGENT_KERNEL_PTY_READ_MAX (1024u * 1024)
//  Reads waiting per kernel; one more answers the oldest at once (empty).
#define AGENT_KERNEL_PTY_READERS_MAX 64
//  Size of a terminal opened by a write that gives none.
#define AGENT_KERNEL_PTY_ROWS 24
#define AGENT_KERNEL_PTY_COLS 80
//  A read's wait ends this long before the caller's attempt would time out
//  (pty_read is idempotent: the client sends it again after a third of its
//  deadline).
#define AGENT_KERNEL_PTY_MARGIN_MS 100

typedef struct _agent_kernel_pty_t agent_kernel_pty_t;

//  ---------------------------------------------------------------------------
//  The object that serves kernel.pty_write and kernel.pty_read for the
//  kernels of kernels, which is borrowed and must outlive it (it sets
//  kernels' runner hook, to learn when a kernel's runner goes). Returns NULL
//  with err filled.
agent_kernel_pty_t *
agent_kernel_pty_new(bus_node_t *node, agent_kernels_t *kernels, bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Frees it: waiting reads answer BUS_STATUS_UNAVAILABLE (the shells live on
//  in their kernels). Idempotent; NULLs the caller's pointer.
void agent_kernel_pty_destroy(agent_kernel_pty_t **self_p);

//  ---------------------------------------------------------------------------
//  The methods' typed handlers, for the agent's table of methods (agent_server.c);
//  arg is the object.
proto_kernel_pty_write_fn agent_kernel_pty_on_write;
proto_kernel_pty_read_fn agent_kernel_pty_on_read;

#endif
