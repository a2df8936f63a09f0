/*  =========================================================================
    sp_http_conn - one connection of the storage-proxy's HTTP endpoint

    What a route sees of a request and how it answers. A route either
    answers once (sp_http_conn_answer, sp_http_conn_problem, with headers
    added before by sp_http_conn_add and maybe a file to send after them)
    or hands the request's body to a sink (sp_http_conn_read_body), whose
    done function then answers. The connection reads the rest, writes the
    answer and serves the next request; the routes never touch the socket.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SP_HTTP_CONN_H_INCLUDED
#define SP_HTTP_CONN_H_INCLUDED

#include "bus.h"
#include "sp_http_head.h"

typedef struct _sp_http_conn_t sp_http_conn_t;
typedef struct _sp_http_t sp_http_t;
struct event_base;

//  Where a request's body goes (an upload): arg is the route's, given to
//  sp_http_conn_read_body.
typedef struct {
    //  Takes n more bytes of the body. 0, or -1 with err: the rest of the
    //  body is then read and dropped, and done runs with err.
    int (*write)(void *arg, const void *data, size_t n, bus_error_t *err);
    //  The body ended (err->status BUS_OK), broke off with an error of
    //  write's, or the route gave up: prepares the answer on conn. The
    //  connection is done with arg.
    void (*done)(void *arg, sp_http_conn_t *conn, const bus_error_t *err);
    //  The connection closed before done ran (the client left mid-body,
    //  or the server stops). The connection is done with arg.
    void (*abort)(void *arg);
} sp_http_body_t;

//  ---------------------------------------------------------------------------
//  A connection of http on fd (a non-blocking accepted socket) watched on
//  base. Takes fd on success; on failure (NULL) the caller still owns it.
sp_http_conn_t *
sp_http_conn_new(sp_http_t *http, struct event_base *base, int fd, SSL_CTX *tls);

//  Closes the socket and frees what the request held (a body sink is
//  aborted). Idempotent, NULLs the pointer. The server calls it; a
//  connection that ends by itself asks the server (sp_http_drop).
void sp_http_conn_destroy(sp_http_conn_t **self_p);

//  Starts reading requests. handle is the server's name for the
//  connection, given back in sp_http_drop when it ends.
void sp_http_conn_start(sp_http_conn_t *self, void *handle);

//  ---------------------------------------------------------------------------
//  The request being served. Borrowed, good until it is answered.
const sp_http_request_t *sp_http_conn_request(sp_http_conn_t *self);

//  The value of request header name, or NULL.
const char *sp_http_conn_header(sp_http_conn_t *self, const char *name);

//  Parses a decimal request header. False when absent or bad.
bool sp_http_conn_header_u64(sp_http_conn_t *self, const char *name, uint64_t *value);

//  The request body's bytes not read yet (all of them, while routing).
uint64_t sp_http_conn_body_left(sp_http_conn_t *self);

//  ---------------------------------------------------------------------------
//  Adds a header line to the answer being prepared (dropped if the answer's
//  SP_HTTP_EXTRA_MAX bytes of extra headers are full).
void sp_http_conn_add(sp_http_conn_t *self, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

//  Prepares the answer: status, content type (NULL: none), the headers
//  added so far, and body (len bytes; a HEAD gets the length only). A file
//  given with sp_http_conn_send_file follows it. Sent once the request's
//  body is read (or dropped).
void sp_http_conn_answer(
    sp_http_conn_t *self, int status, const char *type, const char *body, uint64_t len);

//  Answers problem+json: status, Backend.AI's slug and title, and detail
//  (may be NULL). Logs the request's path, never its query (the token).
void sp_http_conn_problem(sp_http_conn_t *self,
                          int status,
                          const char *slug,
                          const char *title,
                          const char *detail);

//  Answers the problem for an error of sp_fs, sp_upload or sp_folders.
void sp_http_conn_problem_for(sp_http_conn_t *self, const bus_error_t *err);

//  The answer's body is len bytes of file fd from offset (sendfile). Takes
//  fd. Call before sp_http_conn_answer, with its len.
void sp_http_conn_send_file(sp_http_conn_t *self, int fd, uint64_t offset, uint64_t len);

//  Streams the request's body (sp_http_conn_body_left bytes, > 0) into
//  body, after answering an "Expect: 100-continue". 0, or -1 with err
//  (out of memory): nothing is read then, and the caller answers.
int sp_http_conn_read_body(sp_http_conn_t *self,
                           const sp_http_body_t *body,
                           void *arg,
                           bus_error_t *err);

#endif
