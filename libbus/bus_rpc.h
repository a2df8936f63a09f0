/*  =========================================================================
    bus_rpc - request/reply over DEALER/ROUTER with call ids and deadlines

    A request is two frames, [header][body]; a reply is [header][body]. The
    request header is a msgpack map {v, m: method, c: call id, dl: deadline
    (wall-clock µs), src, corr}; the reply header {v, c, st: status, dt:
    detail}. Bodies are the method's schema (proto/<domain>.yaml), opaque here.

    The client is asynchronous: a call registers a callback and returns; the
    owner's loop feeds the socket to bus_rpc_client_dispatch and calls
    bus_rpc_client_tick, which fails calls past their deadline with
    BUS_STATUS_TIMEOUT. A reply that comes later is dropped by its call id.
    Methods the schema marks idempotent are sent again, with the same call
    id, when an attempt goes unanswered for a share of the deadline; others
    are sent once. REQ/REP is never used: after a timeout a REQ socket is
    stuck until it is closed.

    The server dispatches each request by method through a table. A handler
    answers at once by returning a status (and filling the reply writer), or
    detaches the request and answers later with bus_rpc_server_reply. A
    request whose deadline passed before it arrived (it sat in a queue while
    the server was down) is dropped unanswered.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_RPC_H_INCLUDED
#define BUS_RPC_H_INCLUDED

#include "bus_codec.h"
#include "bus_socket.h"
#include "bus_status.h"

#define BUS_RPC_VERSION            1
#define BUS_RPC_METHOD_MAX         64
#define BUS_RPC_ATTEMPTS           3 //  tries of an idempotent method within its deadline
#define BUS_RPC_DEADLINE_GRACE_MS  1000 //  clock skew a server tolerates on dl
#define BUS_RPC_IDENTITY_MAX       256
#define BUS_RPC_DISPATCH_MAX       1024 //  messages one dispatch call handles at most
#define BUS_RPC_DISPATCH_BUDGET_MS 50   //  or for at most this long (slow handlers)

//  ---------------------------------------------------------------------------
//  Client

typedef struct _bus_rpc_client_t bus_rpc_client_t;

//  A reply as the callback sees it. Everything is borrowed for the duration
//  of the callback.
typedef struct {
    int status;         //  BUS_OK or a bus_status_t
    const char *detail; //  "" when none
    const void *body;
    size_t body_size;
    uint64_t call_id;
    int64_t server_ts; //  the server's wall clock when it answered (µs; 0: none)
} bus_reply_t;

typedef void(bus_reply_fn)(void *arg, const bus_reply_t *reply);

//  Connects to a server's endpoint. src ("service/node") goes into every
//  request for the server's logs. curve may be NULL. Caller owns return value.
bus_rpc_client_t *
bus_rpc_client_new(const char *endpoint, const char *src, const bus_curve_t *curve);

//  Destroys the client. Pending calls complete first, with
//  BUS_STATUS_UNAVAILABLE, so every callback runs exactly once and its
//  owner can release what it holds; a callback must not make new calls on
//  this client.
void bus_rpc_client_destroy(bus_rpc_client_t **self_p);

const char *bus_rpc_client_endpoint(bus_rpc_client_t *self);

//  The socket, for the owner's poller. Borrowed.
zsock_t *bus_rpc_client_sock(bus_rpc_client_t *self);

//  Sends a call. body is copied. fn runs exactly once, from dispatch or
//  tick, unless the call is cancelled or the client destroyed. Returns the
//  call id (> 0), or 0 when the request could not be queued (the server's
//  queue is full): then fn never runs.
uint64_t bus_rpc_client_call(bus_rpc_client_t *self,
                             const char *method,
                             const void *body,
                             size_t body_size,
                             int timeout_ms,
                             bus_reply_fn *fn,
                             void *arg);

//  Forgets a pending call; its callback will not run. For a caller that went away.
void bus_rpc_client_cancel(bus_rpc_client_t *self, uint64_t call_id);

//  Reads the replies waiting on the socket, at most BUS_RPC_DISPATCH_MAX,
//  and runs their callbacks (a callback that calls again can keep the
//  socket busy for ever: the bound lets the owner's loop breathe). Returns
//  the number handled; call again while the socket stays readable.
int bus_rpc_client_dispatch(bus_rpc_client_t *self);

//  Fails calls whose deadline passed (BUS_STATUS_TIMEOUT) and resends
//  idempotent calls whose attempt timed out. Call at least as often as
//  bus_rpc_client_next_timeout_ms asks.
void bus_rpc_client_tick(bus_rpc_client_t *self);

//  Milliseconds until the next deadline or retry (-1: nothing pending).
int bus_rpc_client_next_timeout_ms(bus_rpc_client_t *self);

size_t bus_rpc_client_pending(bus_rpc_client_t *self);

//  Blocking call for tools and tests: waits for this call's reply (other
//  pending calls are served meanwhile). Returns the status; on BUS_OK and
//  when reply_p is given, *reply_p is the body (caller owns it); detail goes
//  into err.
int bus_rpc_client_call_sync(bus_rpc_client_t *self,
                             const char *method,
                             const void *body,
                             size_t body_size,
                             int timeout_ms,
                             zchunk_t **reply_p,
                             bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Server

typedef struct _bus_rpc_server_t bus_rpc_server_t;
typedef struct _bus_rpc_request_t bus_rpc_request_t;

//  A method handler. Returns BUS_OK with the reply body written into reply
//  (nothing written means an empty body), or an error status with err's
//  detail, or BUS_STATUS_PENDING_ after bus_rpc_request_detach to answer
//  later. req, body and reply are borrowed.
typedef int(bus_rpc_handler_fn)(void *arg,
                                bus_rpc_request_t *req,
                                const void *body,
                                size_t body_size,
                                bus_writer_t *reply,
                                bus_error_t *err);

//  A typed handler as a table holds it: the generated proto_<method>_fn
//  (libbus/proto_serve.h) converted to the one generic function pointer
//  type, and converted back by the method's adapter before the call (C
//  allows the round trip; calling through the wrong type would not be).
typedef void(bus_typed_fn)(void);

//  A generated adapter (proto_<method>_serve): decodes body into the
//  method's request struct, calls fn with it and an initialised reply
//  struct, encodes the reply when fn answered BUS_OK, and frees both.
typedef int(bus_typed_adapter_fn)(bus_typed_fn *fn,
                                  void *arg,
                                  bus_rpc_request_t *req,
                                  const void *body,
                                  size_t body_size,
                                  bus_writer_t *reply,
                                  bus_error_t *err);

//  Binds a ROUTER to endpoint. Caller owns return value.
bus_rpc_server_t *bus_rpc_server_new(const char *endpoint, const bus_curve_t *curve);

//  Destroys the server; detached requests still held must be destroyed by
//  their holders with bus_rpc_request_destroy.
void bus_rpc_server_destroy(bus_rpc_server_t **self_p);

//  The endpoint actually bound (the port resolved). Borrowed.
const char *bus_rpc_server_endpoint(bus_rpc_server_t *self);

zsock_t *bus_rpc_server_sock(bus_rpc_server_t *self);

//  Registers a handler for method (replacing any). 0 or -1.
int bus_rpc_server_handle(bus_rpc_server_t *self,
                          const char *method,
                          bus_rpc_handler_fn *fn,
                          void *arg);

//  Registers a typed handler for method (replacing any): each request is
//  handed to adapter with typed and arg (bus_node_serve's table rows, and
//  the registry's, made by proto_<method>_method). 0 or -1.
int bus_rpc_server_handle_typed(bus_rpc_server_t *self,
                                const char *method,
                                bus_typed_fn *typed,
                                bus_typed_adapter_fn *adapter,
                                void *arg);

//  Serves the requests waiting on the socket, at most BUS_RPC_DISPATCH_MAX,
//  and none more once BUS_RPC_DISPATCH_BUDGET_MS have passed: a burst of
//  requests, or one slow handler, must not keep the caller's timers, its
//  heartbeats among them, from running. Returns how many; call again while
//  the socket stays readable.
int bus_rpc_server_dispatch(bus_rpc_server_t *self);

//  Answers a detached request and destroys it. body may be NULL.
int bus_rpc_server_reply(bus_rpc_server_t *self,
                         bus_rpc_request_t **req_p,
                         int status,
                         const char *detail,
                         const void *body,
                         size_t body_size);

//  Inside a handler: returns an owned copy of req to answer later. The
//  handler then returns BUS_STATUS_PENDING_.
bus_rpc_request_t *bus_rpc_request_detach(bus_rpc_request_t *req);

void bus_rpc_request_destroy(bus_rpc_request_t **req_p);

const char *bus_rpc_request_method(const bus_rpc_request_t *req);
const char *bus_rpc_request_src(const bus_rpc_request_t *req);
const char *bus_rpc_request_corr(const bus_rpc_request_t *req);

//  Milliseconds left before the caller gives up (0 when already past).
int bus_rpc_request_remaining_ms(const bus_rpc_request_t *req);

#endif
