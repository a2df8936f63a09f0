//  GENERATED FROM proto/service.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_service - service lifecycle announcements and the health probe every
    service answers

    Structs and codecs of the service domain. Included by proto.h: include
    bus.h, not this file. proto.h documents the functions every struct type T
    has (init, clear, check, write, writer for requests, encode, read, decode,
    print).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef PROTO_SERVICE_H_INCLUDED
#define PROTO_SERVICE_H_INCLUDED

//  Topics (events) and method names (RPC).
#define PROTO_SERVICE_STARTED  "service.started"
#define PROTO_SERVICE_STOPPING "service.stopping"
#define PROTO_SERVICE_EXPIRED  "service.expired"
#define PROTO_SERVICE_HEALTH   "service.health"

//  ---------------------------------------------------------------------------
//  service.started, event (broadcast): a service process is up and serving

typedef struct {
    //  Service name, e.g. scheduler (required, at most 64 bytes)
    const char *service;
    //  Node the process runs on (required, at most 128 bytes)
    const char *node;
    //  Backplane version of the process (at most 64 bytes)
    const char *version;
    //  Process id
    uint64_t pid;
    //  Endpoint of its RPC server (at most 256 bytes)
    const char *rpc_endpoint;
    //  Endpoint of its HTTP server (at most 256 bytes)
    const char *http_endpoint;
    //  When the process started (microseconds since the epoch)
    int64_t started_at;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_service_started_t;

#define PROTO_SERVICE_STARTED_SERVICE_MAX       64
#define PROTO_SERVICE_STARTED_NODE_MAX          128
#define PROTO_SERVICE_STARTED_VERSION_MAX       64
#define PROTO_SERVICE_STARTED_RPC_ENDPOINT_MAX  256
#define PROTO_SERVICE_STARTED_HTTP_ENDPOINT_MAX 256

void proto_service_started_init(proto_service_started_t *self);
void proto_service_started_clear(proto_service_started_t *self);
PROTO_MUST_USE int proto_service_started_check(const proto_service_started_t *self,
                                               bus_error_t *err);
PROTO_MUST_USE int proto_service_started_write(const proto_service_started_t *self,
                                               bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_service_started_encode(const proto_service_started_t *self);
int proto_service_started_read(proto_service_started_t *self,
                               const bus_value_t *map,
                               bus_error_t *err);
int proto_service_started_decode(proto_service_started_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err);
char *proto_service_started_print(const proto_service_started_t *self);

//  ---------------------------------------------------------------------------
//  service.stopping, event (broadcast): a service process is shutting down cleanly

typedef struct {
    //  Service name (required, at most 64 bytes)
    const char *service;
    //  Node the process ran on (required, at most 128 bytes)
    const char *node;
    //  Why it stops, for the operator (at most 256 bytes)
    const char *reason;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_service_stopping_t;

#define PROTO_SERVICE_STOPPING_SERVICE_MAX 64
#define PROTO_SERVICE_STOPPING_NODE_MAX    128
#define PROTO_SERVICE_STOPPING_REASON_MAX  256

void proto_service_stopping_init(proto_service_stopping_t *self);
void proto_service_stopping_clear(proto_service_stopping_t *self);
PROTO_MUST_USE int proto_service_stopping_check(const proto_service_stopping_t *self,
                                                bus_error_t *err);
PROTO_MUST_USE int proto_service_stopping_write(const proto_service_stopping_t *self,
                                                bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_service_stopping_encode(const proto_service_stopping_t *self);
int proto_service_stopping_read(proto_service_stopping_t *self,
                                const bus_value_t *map,
                                bus_error_t *err);
int proto_service_stopping_decode(proto_service_stopping_t *self,
                                  const void *data,
                                  size_t size,
                                  bus_error_t *err);
char *proto_service_stopping_print(const proto_service_stopping_t *self);

//  ---------------------------------------------------------------------------
//  service.expired, event (broadcast): the registry stopped hearing from a service and
//  dropped it

typedef struct {
    //  Service name (required, at most 64 bytes)
    const char *service;
    //  Node it ran on (required, at most 128 bytes)
    const char *node;
    //  Time of its last heartbeat (microseconds since the epoch)
    int64_t last_seen;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_service_expired_t;

#define PROTO_SERVICE_EXPIRED_SERVICE_MAX 64
#define PROTO_SERVICE_EXPIRED_NODE_MAX    128

void proto_service_expired_init(proto_service_expired_t *self);
void proto_service_expired_clear(proto_service_expired_t *self);
PROTO_MUST_USE int proto_service_expired_check(const proto_service_expired_t *self,
                                               bus_error_t *err);
PROTO_MUST_USE int proto_service_expired_write(const proto_service_expired_t *self,
                                               bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_service_expired_encode(const proto_service_expired_t *self);
int proto_service_expired_read(proto_service_expired_t *self,
                               const bus_value_t *map,
                               bus_error_t *err);
int proto_service_expired_decode(proto_service_expired_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err);
char *proto_service_expired_print(const proto_service_expired_t *self);

//  ---------------------------------------------------------------------------
//  service.health request (idempotent): liveness and readiness of one service process

typedef struct {
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_service_health_req_t;

void proto_service_health_req_init(proto_service_health_req_t *self);
void proto_service_health_req_clear(proto_service_health_req_t *self);
PROTO_MUST_USE int proto_service_health_req_check(const proto_service_health_req_t *self,
                                                  bus_error_t *err);
PROTO_MUST_USE int proto_service_health_req_write(const proto_service_health_req_t *self,
                                                  bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *
proto_service_health_req_writer(const proto_service_health_req_t *self, bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_service_health_req_encode(const proto_service_health_req_t *self);
int proto_service_health_req_read(proto_service_health_req_t *self,
                                  const bus_value_t *map,
                                  bus_error_t *err);
int proto_service_health_req_decode(proto_service_health_req_t *self,
                                    const void *data,
                                    size_t size,
                                    bus_error_t *err);
char *proto_service_health_req_print(const proto_service_health_req_t *self);

//  ---------------------------------------------------------------------------
//  service.health reply (idempotent): liveness and readiness of one service process

typedef struct {
    //  Service name (required, at most 64 bytes)
    const char *service;
    //  Node the process runs on (required, at most 128 bytes)
    const char *node;
    //  Backplane version of the process (at most 64 bytes)
    const char *version;
    //  Process id
    uint64_t pid;
    //  Milliseconds since the process started
    uint64_t uptime_ms;
    //  Its database answers
    bool db_ok;
    //  Ok or degraded (at most 32 bytes)
    const char *state;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_service_health_rep_t;

#define PROTO_SERVICE_HEALTH_REP_SERVICE_MAX 64
#define PROTO_SERVICE_HEALTH_REP_NODE_MAX    128
#define PROTO_SERVICE_HEALTH_REP_VERSION_MAX 64
#define PROTO_SERVICE_HEALTH_REP_STATE_MAX   32

void proto_service_health_rep_init(proto_service_health_rep_t *self);
void proto_service_health_rep_clear(proto_service_health_rep_t *self);
PROTO_MUST_USE int proto_service_health_rep_check(const proto_service_health_rep_t *self,
                                                  bus_error_t *err);
PROTO_MUST_USE int proto_service_health_rep_write(const proto_service_health_rep_t *self,
                                                  bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_service_health_rep_encode(const proto_service_health_rep_t *self);
int proto_service_health_rep_read(proto_service_health_rep_t *self,
                                  const bus_value_t *map,
                                  bus_error_t *err);
int proto_service_health_rep_decode(proto_service_health_rep_t *self,
                                    const void *data,
                                    size_t size,
                                    bus_error_t *err);
char *proto_service_health_rep_print(const proto_service_health_rep_t *self);

#endif
