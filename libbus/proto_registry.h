//  GENERATED FROM proto/registry.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_registry - presence of services - register, heartbeat, unregister
    and list peers

    Structs and codecs of the registry domain. Included by proto.h: include
    bus.h, not this file. proto.h documents the functions every struct type T
    has (init, clear, check, write, writer for requests, encode, read, decode,
    print).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef PROTO_REGISTRY_H_INCLUDED
#define PROTO_REGISTRY_H_INCLUDED

//  Topics (events) and method names (RPC).
#define PROTO_REGISTRY_REGISTER   "registry.register"
#define PROTO_REGISTRY_HEARTBEAT  "registry.heartbeat"
#define PROTO_REGISTRY_UNREGISTER "registry.unregister"
#define PROTO_REGISTRY_PEERS      "registry.peers"

//  ---------------------------------------------------------------------------
//  registry.peer, a nested value: one registered service process, as the registry sees it

typedef struct {
    //  Service name (required, at most 64 bytes)
    const char *service;
    //  Node the process runs on (required, at most 128 bytes)
    const char *node;
    //  Endpoint of its RPC server (at most 256 bytes)
    const char *rpc_endpoint;
    //  Endpoint of its HTTP server (at most 256 bytes)
    const char *http_endpoint;
    //  Backplane version of the process (at most 64 bytes)
    const char *version;
    //  Process id
    uint64_t pid;
    //  When the process started (microseconds since the epoch)
    int64_t started_at;
    //  Epoch of its event outbox
    uint64_t durable_epoch;
    //  Last sequence number in its outbox
    uint64_t durable_head;
    //  Milliseconds since its last heartbeat
    uint64_t age_ms;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_registry_peer_t;

#define PROTO_REGISTRY_PEER_SERVICE_MAX       64
#define PROTO_REGISTRY_PEER_NODE_MAX          128
#define PROTO_REGISTRY_PEER_RPC_ENDPOINT_MAX  256
#define PROTO_REGISTRY_PEER_HTTP_ENDPOINT_MAX 256
#define PROTO_REGISTRY_PEER_VERSION_MAX       64

void proto_registry_peer_init(proto_registry_peer_t *self);
void proto_registry_peer_clear(proto_registry_peer_t *self);
PROTO_MUST_USE int proto_registry_peer_check(const proto_registry_peer_t *self,
                                             bus_error_t *err);
PROTO_MUST_USE int proto_registry_peer_write(const proto_registry_peer_t *self,
                                             bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_registry_peer_encode(const proto_registry_peer_t *self);
int proto_registry_peer_read(proto_registry_peer_t *self,
                             const bus_value_t *map,
                             bus_error_t *err);
int proto_registry_peer_decode(proto_registry_peer_t *self,
                               const void *data,
                               size_t size,
                               bus_error_t *err);
char *proto_registry_peer_print(const proto_registry_peer_t *self);

//  ---------------------------------------------------------------------------
//  registry.register request (idempotent): announce a service process; the reply says how
//  often to heartbeat

typedef struct {
    //  Service name (required, at most 64 bytes)
    const char *service;
    //  Node the process runs on (required, at most 128 bytes)
    const char *node;
    //  Endpoint of its RPC server (at most 256 bytes)
    const char *rpc_endpoint;
    //  Endpoint of its HTTP server (at most 256 bytes)
    const char *http_endpoint;
    //  Backplane version of the process (at most 64 bytes)
    const char *version;
    //  Process id
    uint64_t pid;
    //  When the process started (microseconds since the epoch)
    int64_t started_at;
    //  Epoch of its event outbox
    uint64_t durable_epoch;
    //  Last sequence number in its outbox
    uint64_t durable_head;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_registry_register_req_t;

#define PROTO_REGISTRY_REGISTER_REQ_SERVICE_MAX       64
#define PROTO_REGISTRY_REGISTER_REQ_NODE_MAX          128
#define PROTO_REGISTRY_REGISTER_REQ_RPC_ENDPOINT_MAX  256
#define PROTO_REGISTRY_REGISTER_REQ_HTTP_ENDPOINT_MAX 256
#define PROTO_REGISTRY_REGISTER_REQ_VERSION_MAX       64

void proto_registry_register_req_init(proto_registry_register_req_t *self);
void proto_registry_register_req_clear(proto_registry_register_req_t *self);
PROTO_MUST_USE int proto_registry_register_req_check(const proto_registry_register_req_t *self,
                                                     bus_error_t *err);
PROTO_MUST_USE int proto_registry_register_req_write(const proto_registry_register_req_t *self,
                                                     bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_registry_register_req_writer(const proto_registry_register_req_t *self,
                                                                bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_registry_register_req_encode(const proto_registry_register_req_t *self);
int proto_registry_register_req_read(proto_registry_register_req_t *self,
                                     const bus_value_t *map,
                                     bus_error_t *err);
int proto_registry_register_req_decode(proto_registry_register_req_t *self,
                                       const void *data,
                                       size_t size,
                                       bus_error_t *err);
char *proto_registry_register_req_print(const proto_registry_register_req_t *self);

//  ---------------------------------------------------------------------------
//  registry.register reply (idempotent): announce a service process; the reply says how
//  often to heartbeat

typedef struct {
    //  Send a heartbeat this often
    uint64_t heartbeat_ms;
    //  Silence this long expires the peer
    uint64_t expiry_ms;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_registry_register_rep_t;

void proto_registry_register_rep_init(proto_registry_register_rep_t *self);
void proto_registry_register_rep_clear(proto_registry_register_rep_t *self);
PROTO_MUST_USE int proto_registry_register_rep_check(const proto_registry_register_rep_t *self,
                                                     bus_error_t *err);
PROTO_MUST_USE int proto_registry_register_rep_write(const proto_registry_register_rep_t *self,
                                                     bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_registry_register_rep_encode(const proto_registry_register_rep_t *self);
int proto_registry_register_rep_read(proto_registry_register_rep_t *self,
                                     const bus_value_t *map,
                                     bus_error_t *err);
int proto_registry_register_rep_decode(proto_registry_register_rep_t *self,
                                       const void *data,
                                       size_t size,
                                       bus_error_t *err);
char *proto_registry_register_rep_print(const proto_registry_register_rep_t *self);

//  ---------------------------------------------------------------------------
//  registry.heartbeat request (idempotent): keep a registration alive; REREGISTER if the
//  registry forgot it

typedef struct {
    //  Service name (required, at most 64 bytes)
    const char *service;
    //  Node the process runs on (required, at most 128 bytes)
    const char *node;
    //  Epoch of its event outbox
    uint64_t durable_epoch;
    //  Last sequence number in its outbox
    uint64_t durable_head;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_registry_heartbeat_req_t;

#define PROTO_REGISTRY_HEARTBEAT_REQ_SERVICE_MAX 64
#define PROTO_REGISTRY_HEARTBEAT_REQ_NODE_MAX    128

void proto_registry_heartbeat_req_init(proto_registry_heartbeat_req_t *self);
void proto_registry_heartbeat_req_clear(proto_registry_heartbeat_req_t *self);
PROTO_MUST_USE int proto_registry_heartbeat_req_check(const proto_registry_heartbeat_req_t *self,
                                                      bus_error_t *err);
PROTO_MUST_USE int proto_registry_heartbeat_req_write(const proto_registry_heartbeat_req_t *self,
                                                      bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_registry_heartbeat_req_writer(const proto_registry_heartbeat_req_t *self,
                                                                 bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_registry_heartbeat_req_encode(const proto_registry_heartbeat_req_t *self);
int proto_registry_heartbeat_req_read(proto_registry_heartbeat_req_t *self,
                                      const bus_value_t *map,
                                      bus_error_t *err);
int proto_registry_heartbeat_req_decode(proto_registry_heartbeat_req_t *self,
                                        const void *data,
                                        size_t size,
                                        bus_error_t *err);
char *proto_registry_heartbeat_req_print(const proto_registry_heartbeat_req_t *self);

//  ---------------------------------------------------------------------------
//  registry.heartbeat reply (idempotent): keep a registration alive; REREGISTER if the
//  registry forgot it

typedef struct {
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_registry_heartbeat_rep_t;

void proto_registry_heartbeat_rep_init(proto_registry_heartbeat_rep_t *self);
void proto_registry_heartbeat_rep_clear(proto_registry_heartbeat_rep_t *self);
PROTO_MUST_USE int proto_registry_heartbeat_rep_check(const proto_registry_heartbeat_rep_t *self,
                                                      bus_error_t *err);
PROTO_MUST_USE int proto_registry_heartbeat_rep_write(const proto_registry_heartbeat_rep_t *self,
                                                      bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_registry_heartbeat_rep_encode(const proto_registry_heartbeat_rep_t *self);
int proto_registry_heartbeat_rep_read(proto_registry_heartbeat_rep_t *self,
                                      const bus_value_t *map,
                                      bus_error_t *err);
int proto_registry_heartbeat_rep_decode(proto_registry_heartbeat_rep_t *self,
                                        const void *data,
                                        size_t size,
                                        bus_error_t *err);
char *proto_registry_heartbeat_rep_print(const proto_registry_heartbeat_rep_t *self);

//  ---------------------------------------------------------------------------
//  registry.unregister request (idempotent): a clean goodbye, so peers need not wait for
//  the expiry

typedef struct {
    //  Service name (required, at most 64 bytes)
    const char *service;
    //  Node the process runs on (required, at most 128 bytes)
    const char *node;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_registry_unregister_req_t;

#define PROTO_REGISTRY_UNREGISTER_REQ_SERVICE_MAX 64
#define PROTO_REGISTRY_UNREGISTER_REQ_NODE_MAX    128

void proto_registry_unregister_req_init(proto_registry_unregister_req_t *self);
void proto_registry_unregister_req_clear(proto_registry_unregister_req_t *self);
PROTO_MUST_USE int proto_registry_unregister_req_check(const proto_registry_unregister_req_t *self,
                                                       bus_error_t *err);
PROTO_MUST_USE int proto_registry_unregister_req_write(const proto_registry_unregister_req_t *self,
                                                       bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_registry_unregister_req_writer(const proto_registry_unregister_req_t *self,
                                                                  bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_registry_unregister_req_encode(const proto_registry_unregister_req_t *self);
int proto_registry_unregister_req_read(proto_registry_unregister_req_t *self,
                                       const bus_value_t *map,
                                       bus_error_t *err);
int proto_registry_unregister_req_decode(proto_registry_unregister_req_t *self,
                                         const void *data,
                                         size_t size,
                                         bus_error_t *err);
char *proto_registry_unregister_req_print(const proto_registry_unregister_req_t *self);

//  ---------------------------------------------------------------------------
//  registry.unregister reply (idempotent): a clean goodbye, so peers need not wait for
//  the expiry

typedef struct {
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_registry_unregister_rep_t;

void proto_registry_unregister_rep_init(proto_registry_unregister_rep_t *self);
void proto_registry_unregister_rep_clear(proto_registry_unregister_rep_t *self);
PROTO_MUST_USE int proto_registry_unregister_rep_check(const proto_registry_unregister_rep_t *self,
                                                       bus_error_t *err);
PROTO_MUST_USE int proto_registry_unregister_rep_write(const proto_registry_unregister_rep_t *self,
                                                       bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_registry_unregister_rep_encode(const proto_registry_unregister_rep_t *self);
int proto_registry_unregister_rep_read(proto_registry_unregister_rep_t *self,
                                       const bus_value_t *map,
                                       bus_error_t *err);
int proto_registry_unregister_rep_decode(proto_registry_unregister_rep_t *self,
                                         const void *data,
                                         size_t size,
                                         bus_error_t *err);
char *proto_registry_unregister_rep_print(const proto_registry_unregister_rep_t *self);

//  ---------------------------------------------------------------------------
//  registry.peers request (idempotent): the live peers, optionally of one service

typedef struct {
    //  Only peers of this service (at most 64 bytes)
    const char *service;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_registry_peers_req_t;

#define PROTO_REGISTRY_PEERS_REQ_SERVICE_MAX 64

void proto_registry_peers_req_init(proto_registry_peers_req_t *self);
void proto_registry_peers_req_clear(proto_registry_peers_req_t *self);
PROTO_MUST_USE int proto_registry_peers_req_check(const proto_registry_peers_req_t *self,
                                                  bus_error_t *err);
PROTO_MUST_USE int proto_registry_peers_req_write(const proto_registry_peers_req_t *self,
                                                  bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *
proto_registry_peers_req_writer(const proto_registry_peers_req_t *self, bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_registry_peers_req_encode(const proto_registry_peers_req_t *self);
int proto_registry_peers_req_read(proto_registry_peers_req_t *self,
                                  const bus_value_t *map,
                                  bus_error_t *err);
int proto_registry_peers_req_decode(proto_registry_peers_req_t *self,
                                    const void *data,
                                    size_t size,
                                    bus_error_t *err);
char *proto_registry_peers_req_print(const proto_registry_peers_req_t *self);

//  ---------------------------------------------------------------------------
//  registry.peers reply (idempotent): the live peers, optionally of one service

typedef struct {
    //  Live peers (at most 4096 items)
    const proto_registry_peer_t *peers;
    size_t peers_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_registry_peers_rep_t;

#define PROTO_REGISTRY_PEERS_REP_PEERS_MAX 4096

void proto_registry_peers_rep_init(proto_registry_peers_rep_t *self);
void proto_registry_peers_rep_clear(proto_registry_peers_rep_t *self);
PROTO_MUST_USE int proto_registry_peers_rep_check(const proto_registry_peers_rep_t *self,
                                                  bus_error_t *err);
PROTO_MUST_USE int proto_registry_peers_rep_write(const proto_registry_peers_rep_t *self,
                                                  bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_registry_peers_rep_encode(const proto_registry_peers_rep_t *self);
int proto_registry_peers_rep_read(proto_registry_peers_rep_t *self,
                                  const bus_value_t *map,
                                  bus_error_t *err);
int proto_registry_peers_rep_decode(proto_registry_peers_rep_t *self,
                                    const void *data,
                                    size_t size,
                                    bus_error_t *err);
char *proto_registry_peers_rep_print(const proto_registry_peers_rep_t *self);

#endif
