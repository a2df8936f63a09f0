/*  =========================================================================
    bus_thread - what every thread a service starts does first

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

#include <pthread.h>

void
bus_thread_block_signals(void)
{
    sigset_t mask;
    sigfillset(&mask);
    //  Raised by the thread's own fault: blocking them would turn a crash
    //  report into a hang or an undefined state.
    sigdelset(&mask, SIGSEGV);
    sigdelset(&mask, SIGBUS);
    sigdelset(&mask, SIGFPE);
    sigdelset(&mask, SIGILL);
    sigdelset(&mask, SIGTRAP);
    sigdelset(&mask, SIGABRT);
    pthread_sigmask(SIG_BLOCK, &mask, NULL);
}
