//  GENERATED FROM proto/wsproxy.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_wsproxy - app routes of the wsproxy, closed when their session ends,
    and the model services' endpoints

    Structs and codecs of the wsproxy domain. Included by proto.h: include
    bus.h, not this file. proto.h documents the functions every struct type T
    has (init, clear, check, write, writer for requests, encode, read, decode,
    print).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef PROTO_WSPROXY_H_INCLUDED
#define PROTO_WSPROXY_H_INCLUDED

//  Topics (events) and method names (RPC).
#define PROTO_WSPROXY_CLOSE             "wsproxy.close"
#define PROTO_WSPROXY_ENDPOINT_SET      "wsproxy.endpoint.set"
#define PROTO_WSPROXY_ENDPOINT_REMOVE   "wsproxy.endpoint.remove"
#define PROTO_WSPROXY_ENDPOINT_REQUESTS "wsproxy.endpoint.requests"

//  ---------------------------------------------------------------------------
//  wsproxy.target, a nested value: one replica of a model service, where its inference
//  port is reached

typedef struct {
    //  The replica's route (Backend.AI's routing id) (required, at most 64 bytes)
    const char *route_id;
    //  Its inference session (at most 64 bytes)
    const char *session_id;
    //  Where the agent publishes the model's port (required, at most 255 bytes)
    const char *host;
    //  The published port (required, at most 65535)
    uint64_t port;
    //  Its share of the requests against the others' (0: none) (default 1.0)
    double traffic_ratio;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_wsproxy_target_t;

#define PROTO_WSPROXY_TARGET_ROUTE_ID_MAX   64
#define PROTO_WSPROXY_TARGET_SESSION_ID_MAX 64
#define PROTO_WSPROXY_TARGET_HOST_MAX       255

void proto_wsproxy_target_init(proto_wsproxy_target_t *self);
void proto_wsproxy_target_clear(proto_wsproxy_target_t *self);
PROTO_MUST_USE int proto_wsproxy_target_check(const proto_wsproxy_target_t *self,
                                              bus_error_t *err);
PROTO_MUST_USE int proto_wsproxy_target_write(const proto_wsproxy_target_t *self,
                                              bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_wsproxy_target_encode(const proto_wsproxy_target_t *self);
int proto_wsproxy_target_read(proto_wsproxy_target_t *self,
                              const bus_value_t *map,
                              bus_error_t *err);
int proto_wsproxy_target_decode(proto_wsproxy_target_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err);
char *proto_wsproxy_target_print(const proto_wsproxy_target_t *self);

//  ---------------------------------------------------------------------------
//  wsproxy.endpoint_requests, a nested value: how many requests one endpoint was asked,
//  for the gateway's autoscaling rules

typedef struct {
    //  The endpoint (required, at most 64 bytes)
    const char *endpoint_id;
    //  It is served here
    bool found;
    //  Requests admitted on its URL since this wsproxy started serving it (a rate is the
    //  difference of two readings; a smaller one means the wsproxy restarted)
    uint64_t requests;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_wsproxy_endpoint_requests_t;

#define PROTO_WSPROXY_ENDPOINT_REQUESTS_ENDPOINT_ID_MAX 64

void proto_wsproxy_endpoint_requests_init(proto_wsproxy_endpoint_requests_t *self);
void proto_wsproxy_endpoint_requests_clear(proto_wsproxy_endpoint_requests_t *self);
PROTO_MUST_USE int proto_wsproxy_endpoint_requests_check(const proto_wsproxy_endpoint_requests_t *self,
                                                         bus_error_t *err);
PROTO_MUST_USE int proto_wsproxy_endpoint_requests_write(const proto_wsproxy_endpoint_requests_t *self,
                                                         bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_wsproxy_endpoint_requests_encode(const proto_wsproxy_endpoint_requests_t *self);
int proto_wsproxy_endpoint_requests_read(proto_wsproxy_endpoint_requests_t *self,
                                         const bus_value_t *map,
                                         bus_error_t *err);
int proto_wsproxy_endpoint_requests_decode(proto_wsproxy_endpoint_requests_t *self,
                                           const void *data,
                                           size_t size,
                                           bus_error_t *err);
char *
proto_wsproxy_endpoint_requests_print(const proto_wsproxy_endpoint_requests_t *self);

//  ---------------------------------------------------------------------------
//  wsproxy.close request (idempotent): closes every route of a session (all apps, all
//  users) and their open connections at once, frees their ports and forgets them; a
//  session with no route is not an error

typedef struct {
    //  The session (required, at most 64 bytes)
    const char *session_id;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_wsproxy_close_req_t;

#define PROTO_WSPROXY_CLOSE_REQ_SESSION_ID_MAX 64

void proto_wsproxy_close_req_init(proto_wsproxy_close_req_t *self);
void proto_wsproxy_close_req_clear(proto_wsproxy_close_req_t *self);
PROTO_MUST_USE int proto_wsproxy_close_req_check(const proto_wsproxy_close_req_t *self,
                                                 bus_error_t *err);
PROTO_MUST_USE int proto_wsproxy_close_req_write(const proto_wsproxy_close_req_t *self,
                                                 bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *
proto_wsproxy_close_req_writer(const proto_wsproxy_close_req_t *self, bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_wsproxy_close_req_encode(const proto_wsproxy_close_req_t *self);
int proto_wsproxy_close_req_read(proto_wsproxy_close_req_t *self,
                                 const bus_value_t *map,
                                 bus_error_t *err);
int proto_wsproxy_close_req_decode(proto_wsproxy_close_req_t *self,
                                   const void *data,
                                   size_t size,
                                   bus_error_t *err);
char *proto_wsproxy_close_req_print(const proto_wsproxy_close_req_t *self);

//  ---------------------------------------------------------------------------
//  wsproxy.close reply (idempotent): closes every route of a session (all apps, all
//  users) and their open connections at once, frees their ports and forgets them; a
//  session with no route is not an error

typedef struct {
    //  Routes closed
    uint64_t routes;
    //  Open connections closed with them
    uint64_t connections;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_wsproxy_close_rep_t;

void proto_wsproxy_close_rep_init(proto_wsproxy_close_rep_t *self);
void proto_wsproxy_close_rep_clear(proto_wsproxy_close_rep_t *self);
PROTO_MUST_USE int proto_wsproxy_close_rep_check(const proto_wsproxy_close_rep_t *self,
                                                 bus_error_t *err);
PROTO_MUST_USE int proto_wsproxy_close_rep_write(const proto_wsproxy_close_rep_t *self,
                                                 bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_wsproxy_close_rep_encode(const proto_wsproxy_close_rep_t *self);
int proto_wsproxy_close_rep_read(proto_wsproxy_close_rep_t *self,
                                 const bus_value_t *map,
                                 bus_error_t *err);
int proto_wsproxy_close_rep_decode(proto_wsproxy_close_rep_t *self,
                                   const void *data,
                                   size_t size,
                                   bus_error_t *err);
char *proto_wsproxy_close_rep_print(const proto_wsproxy_close_rep_t *self);

//  ---------------------------------------------------------------------------
//  wsproxy.endpoint.set request (idempotent): serves a model service's endpoint on a port
//  of its own (the same one for as long as it exists, across restarts) balancing requests
//  over its healthy replicas, which replace the ones set before; the caller sends the
//  whole healthy set on every change

typedef struct {
    //  The endpoint (required, at most 64 bytes)
    const char *endpoint_id;
    //  Its name, for logs and metrics (at most 64 bytes)
    const char *name;
    //  No token needed (else Authorization: BackendAI|Bearer <token> the gateway signed
    //  for it)
    bool open_to_public;
    //  The healthy replicas (none: requests get 503 until some are set) (at most 256
    //  items)
    const proto_wsproxy_target_t *targets;
    size_t targets_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_wsproxy_endpoint_set_req_t;

#define PROTO_WSPROXY_ENDPOINT_SET_REQ_ENDPOINT_ID_MAX 64
#define PROTO_WSPROXY_ENDPOINT_SET_REQ_NAME_MAX        64
#define PROTO_WSPROXY_ENDPOINT_SET_REQ_TARGETS_MAX     256

void proto_wsproxy_endpoint_set_req_init(proto_wsproxy_endpoint_set_req_t *self);
void proto_wsproxy_endpoint_set_req_clear(proto_wsproxy_endpoint_set_req_t *self);
PROTO_MUST_USE int proto_wsproxy_endpoint_set_req_check(const proto_wsproxy_endpoint_set_req_t *self,
                                                        bus_error_t *err);
PROTO_MUST_USE int proto_wsproxy_endpoint_set_req_write(const proto_wsproxy_endpoint_set_req_t *self,
                                                        bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_wsproxy_endpoint_set_req_writer(const proto_wsproxy_endpoint_set_req_t *self,
                                                                   bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_wsproxy_endpoint_set_req_encode(const proto_wsproxy_endpoint_set_req_t *self);
int proto_wsproxy_endpoint_set_req_read(proto_wsproxy_endpoint_set_req_t *self,
                                        const bus_value_t *map,
                                        bus_error_t *err);
int proto_wsproxy_endpoint_set_req_decode(proto_wsproxy_endpoint_set_req_t *self,
                                          const void *data,
                                          size_t size,
                                          bus_error_t *err);
char *proto_wsproxy_endpoint_set_req_print(const proto_wsproxy_endpoint_set_req_t *self);

//  ---------------------------------------------------------------------------
//  wsproxy.endpoint.set reply (idempotent): serves a model service's endpoint on a port
//  of its own (the same one for as long as it exists, across restarts) balancing requests
//  over its healthy replicas, which replace the ones set before; the caller sends the
//  whole healthy set on every change

typedef struct {
    //  The endpoint's URL, http://<advertised host>:<port> (required, at most 512 bytes)
    const char *url;
    //  Its port
    uint64_t port;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_wsproxy_endpoint_set_rep_t;

#define PROTO_WSPROXY_ENDPOINT_SET_REP_URL_MAX 512

void proto_wsproxy_endpoint_set_rep_init(proto_wsproxy_endpoint_set_rep_t *self);
void proto_wsproxy_endpoint_set_rep_clear(proto_wsproxy_endpoint_set_rep_t *self);
PROTO_MUST_USE int proto_wsproxy_endpoint_set_rep_check(const proto_wsproxy_endpoint_set_rep_t *self,
                                                        bus_error_t *err);
PROTO_MUST_USE int proto_wsproxy_endpoint_set_rep_write(const proto_wsproxy_endpoint_set_rep_t *self,
                                                        bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_wsproxy_endpoint_set_rep_encode(const proto_wsproxy_endpoint_set_rep_t *self);
int proto_wsproxy_endpoint_set_rep_read(proto_wsproxy_endpoint_set_rep_t *self,
                                        const bus_value_t *map,
                                        bus_error_t *err);
int proto_wsproxy_endpoint_set_rep_decode(proto_wsproxy_endpoint_set_rep_t *self,
                                          const void *data,
                                          size_t size,
                                          bus_error_t *err);
char *proto_wsproxy_endpoint_set_rep_print(const proto_wsproxy_endpoint_set_rep_t *self);

//  ---------------------------------------------------------------------------
//  wsproxy.endpoint.remove request (idempotent): stops serving an endpoint: its port
//  closes with its connections and is free again; an unknown endpoint is not an error

typedef struct {
    //  The endpoint (required, at most 64 bytes)
    const char *endpoint_id;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_wsproxy_endpoint_remove_req_t;

#define PROTO_WSPROXY_ENDPOINT_REMOVE_REQ_ENDPOINT_ID_MAX 64

void proto_wsproxy_endpoint_remove_req_init(proto_wsproxy_endpoint_remove_req_t *self);
void proto_wsproxy_endpoint_remove_req_clear(proto_wsproxy_endpoint_remove_req_t *self);
PROTO_MUST_USE int proto_wsproxy_endpoint_remove_req_check(const proto_wsproxy_endpoint_remove_req_t *self,
                                                           bus_error_t *err);
PROTO_MUST_USE int proto_wsproxy_endpoint_remove_req_write(const proto_wsproxy_endpoint_remove_req_t *self,
                                                           bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_wsproxy_endpoint_remove_req_writer(const proto_wsproxy_endpoint_remove_req_t *self,
                                                                      bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_wsproxy_endpoint_remove_req_encode(const proto_wsproxy_endpoint_remove_req_t *self);
int proto_wsproxy_endpoint_remove_req_read(proto_wsproxy_endpoint_remove_req_t *self,
                                           const bus_value_t *map,
                                           bus_error_t *err);
int proto_wsproxy_endpoint_remove_req_decode(proto_wsproxy_endpoint_remove_req_t *self,
                                             const void *data,
                                             size_t size,
                                             bus_error_t *err);
char *
proto_wsproxy_endpoint_remove_req_print(const proto_wsproxy_endpoint_remove_req_t *self);

//  ---------------------------------------------------------------------------
//  wsproxy.endpoint.remove reply (idempotent): stops serving an endpoint: its port closes
//  with its connections and is free again; an unknown endpoint is not an error

typedef struct {
    //  It was served
    bool removed;
    //  Open connections closed with it
    uint64_t connections;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_wsproxy_endpoint_remove_rep_t;

void proto_wsproxy_endpoint_remove_rep_init(proto_wsproxy_endpoint_remove_rep_t *self);
void proto_wsproxy_endpoint_remove_rep_clear(proto_wsproxy_endpoint_remove_rep_t *self);
PROTO_MUST_USE int proto_wsproxy_endpoint_remove_rep_check(const proto_wsproxy_endpoint_remove_rep_t *self,
                                                           bus_error_t *err);
PROTO_MUST_USE int proto_wsproxy_endpoint_remove_rep_write(const proto_wsproxy_endpoint_remove_rep_t *self,
                                                           bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_wsproxy_endpoint_remove_rep_encode(const proto_wsproxy_endpoint_remove_rep_t *self);
int proto_wsproxy_endpoint_remove_rep_read(proto_wsproxy_endpoint_remove_rep_t *self,
                                           const bus_value_t *map,
                                           bus_error_t *err);
int proto_wsproxy_endpoint_remove_rep_decode(proto_wsproxy_endpoint_remove_rep_t *self,
                                             const void *data,
                                             size_t size,
                                             bus_error_t *err);
char *
proto_wsproxy_endpoint_remove_rep_print(const proto_wsproxy_endpoint_remove_rep_t *self);

//  ---------------------------------------------------------------------------
//  wsproxy.endpoint.requests request (idempotent): the request counters of endpoints,
//  read by the gateway now and then to turn into requests per second for autoscaling; an
//  unknown endpoint answers found false

typedef struct {
    //  The endpoints (at most 1000 items)
    const char *const *endpoint_ids;
    size_t endpoint_ids_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_wsproxy_endpoint_requests_req_t;

#define PROTO_WSPROXY_ENDPOINT_REQUESTS_REQ_ENDPOINT_IDS_MAX 1000

void
proto_wsproxy_endpoint_requests_req_init(proto_wsproxy_endpoint_requests_req_t *self);
void
proto_wsproxy_endpoint_requests_req_clear(proto_wsproxy_endpoint_requests_req_t *self);
PROTO_MUST_USE int proto_wsproxy_endpoint_requests_req_check(const proto_wsproxy_endpoint_requests_req_t *self,
                                                             bus_error_t *err);
PROTO_MUST_USE int proto_wsproxy_endpoint_requests_req_write(const proto_wsproxy_endpoint_requests_req_t *self,
                                                             bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_wsproxy_endpoint_requests_req_writer(const proto_wsproxy_endpoint_requests_req_t *self,
                                                                        bus_error_t *err);
PROTO_MUST_USE zframe_t *proto_wsproxy_endpoint_requests_req_encode(const proto_wsproxy_endpoint_requests_req_t *self);
int proto_wsproxy_endpoint_requests_req_read(proto_wsproxy_endpoint_requests_req_t *self,
                                             const bus_value_t *map,
                                             bus_error_t *err);
int proto_wsproxy_endpoint_requests_req_decode(proto_wsproxy_endpoint_requests_req_t *self,
                                               const void *data,
                                               size_t size,
                                               bus_error_t *err);
char *proto_wsproxy_endpoint_requests_req_print(const proto_wsproxy_endpoint_requests_req_t *self);

//  ---------------------------------------------------------------------------
//  wsproxy.endpoint.requests reply (idempotent): the request counters of endpoints, read
//  by the gateway now and then to turn into requests per second for autoscaling; an
//  unknown endpoint answers found false

typedef struct {
    //  One per endpoint asked, in order (at most 1000 items)
    const proto_wsproxy_endpoint_requests_t *endpoints;
    size_t endpoints_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_wsproxy_endpoint_requests_rep_t;

#define PROTO_WSPROXY_ENDPOINT_REQUESTS_REP_ENDPOINTS_MAX 1000

void
proto_wsproxy_endpoint_requests_rep_init(proto_wsproxy_endpoint_requests_rep_t *self);
void
proto_wsproxy_endpoint_requests_rep_clear(proto_wsproxy_endpoint_requests_rep_t *self);
PROTO_MUST_USE int proto_wsproxy_endpoint_requests_rep_check(const proto_wsproxy_endpoint_requests_rep_t *self,
                                                             bus_error_t *err);
PROTO_MUST_USE int proto_wsproxy_endpoint_requests_rep_write(const proto_wsproxy_endpoint_requests_rep_t *self,
                                                             bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_wsproxy_endpoint_requests_rep_encode(const proto_wsproxy_endpoint_requests_rep_t *self);
int proto_wsproxy_endpoint_requests_rep_read(proto_wsproxy_endpoint_requests_rep_t *self,
                                             const bus_value_t *map,
                                             bus_error_t *err);
int proto_wsproxy_endpoint_requests_rep_decode(proto_wsproxy_endpoint_requests_rep_t *self,
                                               const void *data,
                                               size_t size,
                                               bus_error_t *err);
char *proto_wsproxy_endpoint_requests_rep_print(const proto_wsproxy_endpoint_requests_rep_t *self);

#endif
