//  GENERATED FROM proto/wsproxy.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_wsproxy - app routes of the wsproxy, closed when their session ends

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
#define PROTO_WSPROXY_CLOSE "wsproxy.close"

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

#endif
