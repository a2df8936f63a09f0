/*  =========================================================================
    bus_classes.h - private header of libbus: every system and dependency
    include lives here, so each libbus .c file includes only this one.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_CLASSES_H_INCLUDED
#define BUS_CLASSES_H_INCLUDED

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/types.h>

#include <czmq.h>
#include <sqlite3.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <jansson.h>

#include "bus.h"
#include "bus_jsonlist.h"

#endif
