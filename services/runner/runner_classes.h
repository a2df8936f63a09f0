/*  =========================================================================
    runner_classes.h - private header of the kernel runner: every system
    include and the runner's own modules

    The runner is a static binary linked with libc alone, so unlike the services
    it does not include bus_classes.h (czmq, sqlite, ...); the only shared code is
    the frame protocol in services/agent/agent_runner_proto.h.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef RUNNER_CLASSES_H_INCLUDED
#define RUNNER_CLASSES_H_INCLUDED

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "../agent/agent_runner_proto.h"
#include "runner_buf.h"
#include "runner.h"

#endif
