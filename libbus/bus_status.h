/*  =========================================================================
    bus_status - the status codes every RPC reply and internal call uses

    Replies carry a status and an optional detail string in the header map, so
    a caller never parses free text. The gateway maps each status to an HTTP
    status and a problem+json slug.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_STATUS_H_INCLUDED
#define BUS_STATUS_H_INCLUDED

//  The numeric values travel on the wire: never renumber, only append.
typedef enum {
    BUS_OK = 0,
    BUS_STATUS_INVALID = 1,     //  well-formed request that breaks a rule
    BUS_STATUS_NOT_FOUND = 2,   //  the named thing does not exist
    BUS_STATUS_CONFLICT = 3,    //  state does not allow it (exists, busy, ...)
    BUS_STATUS_TIMEOUT = 4,     //  no answer before the deadline
    BUS_STATUS_UNAVAILABLE = 5, //  peer down, queue full, shutting down
    BUS_STATUS_PROTOCOL = 6,    //  malformed frame or msgpack
    BUS_STATUS_INTERNAL = 7,    //  a bug or an I/O failure on our side
    BUS_STATUS_REREGISTER = 8,  //  the registry does not know the peer: register again
    BUS_STATUS_FORBIDDEN = 9,   //  the caller may not do this
    BUS_STATUS_QUOTA = 10,      //  the caller's resource limits do not allow it
    BUS_STATUS_PENDING_ = 100 //  internal: a handler will reply later (never on the wire)
} bus_status_t;

#define BUS_STATUS_MAX 10

//  Stable lower-case name ("ok", "timeout", ...); "unknown" for other values.
const char *bus_status_str(int status);

//  Inverse of bus_status_str; -1 for an unknown name.
int bus_status_from_str(const char *name);

//  A detail message that travels with a failing status. Fixed size, so it
//  can live on the stack and be filled without allocation.
#define BUS_ERROR_DETAIL_MAX 256
typedef struct {
    int status;
    char detail[BUS_ERROR_DETAIL_MAX];
} bus_error_t;

//  Set status and a printf-style detail on err (err may be NULL). Returns status.
int bus_error_set(bus_error_t *err, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

//  Sets err as bus_error_set does and returns -1, for the functions that
//  answer 0 or -1 with err. The detail is formatted aside first, so that
//  an argument may be err->detail itself (a reason wrapped in another).
int bus_error_fail(bus_error_t *err, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
