//  GENERATED FROM proto/gateway.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_gateway - events published by the HTTP gateway

    Structs and codecs of the gateway domain. Included by proto.h: include
    bus.h, not this file. proto.h documents the functions every struct type T
    has (init, clear, check, write, writer for requests, encode, read, decode,
    print).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef PROTO_GATEWAY_H_INCLUDED
#define PROTO_GATEWAY_H_INCLUDED

//  Topics (events) and method names (RPC).
#define PROTO_GATEWAY_ACCESS "gateway.access"

//  ---------------------------------------------------------------------------
//  gateway.access, event (broadcast, durable): one HTTP request served by the gateway
//  (the access log)

typedef struct {
    //  The id the gateway gave the request (required, at most 64 bytes)
    const char *request_id;
    //  When the request arrived (required, microseconds since the epoch)
    int64_t ts;
    //  The caller's keypair; empty when unauthenticated (at most 64 bytes)
    const char *access_key;
    //  The caller's user UUID; empty when unauthenticated (at most 64 bytes)
    const char *user_id;
    //  The caller's domain (at most 64 bytes)
    const char *domain_name;
    //  HTTP method (required, at most 16 bytes)
    const char *method;
    //  Request target without the query string (required, at most 2048 bytes)
    const char *path;
    //  HTTP status answered (required, at most 999)
    uint64_t status;
    //  Time from arrival to the reply
    uint64_t latency_us;
    //  Client IP address (at most 64 bytes)
    const char *client_addr;
    //  Problem slug of an error reply, e.g. auth-failed (at most 64 bytes)
    const char *error_type;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_gateway_access_t;

#define PROTO_GATEWAY_ACCESS_REQUEST_ID_MAX  64
#define PROTO_GATEWAY_ACCESS_ACCESS_KEY_MAX  64
#define PROTO_GATEWAY_ACCESS_USER_ID_MAX     64
#define PROTO_GATEWAY_ACCESS_DOMAIN_NAME_MAX 64
#define PROTO_GATEWAY_ACCESS_METHOD_MAX      16
#define PROTO_GATEWAY_ACCESS_PATH_MAX        2048
#define PROTO_GATEWAY_ACCESS_CLIENT_ADDR_MAX 64
#define PROTO_GATEWAY_ACCESS_ERROR_TYPE_MAX  64

void proto_gateway_access_init(proto_gateway_access_t *self);
void proto_gateway_access_clear(proto_gateway_access_t *self);
PROTO_MUST_USE int proto_gateway_access_check(const proto_gateway_access_t *self,
                                              bus_error_t *err);
PROTO_MUST_USE int proto_gateway_access_write(const proto_gateway_access_t *self,
                                              bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_gateway_access_encode(const proto_gateway_access_t *self);
int proto_gateway_access_read(proto_gateway_access_t *self,
                              const bus_value_t *map,
                              bus_error_t *err);
int proto_gateway_access_decode(proto_gateway_access_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err);
char *proto_gateway_access_print(const proto_gateway_access_t *self);

#endif
