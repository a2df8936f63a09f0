/*  =========================================================================
    bus_thread - what every thread a service starts does first

    A service's loop takes its signals through libevent, which needs them
    delivered to the loop's thread. The kernel gives a process-directed
    signal to any thread that does not block it, and prefers another thread
    when the main one already has one pending (SIGINT to a process group,
    then the SIGCHLD of a child the same SIGINT killed). A helper thread
    that takes it sees EINTR in a blocking call it did not expect to fail:
    a ZeroMQ poll or receive, which is never restarted. So every thread
    we start blocks the asynchronous signals; the synchronous ones (a fault
    in that thread) stay deliverable.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_THREAD_H_INCLUDED
#define BUS_THREAD_H_INCLUDED

#include <signal.h>

//  Block the asynchronous signals in the calling thread; the first call of
//  a thread's function. Threads it starts inherit the mask, and so do
//  the programs it starts with posix_spawn unless told otherwise
//  (POSIX_SPAWN_SETSIGMASK): a tool with SIGTERM blocked cannot be stopped.
void bus_thread_block_signals(void);

#endif
