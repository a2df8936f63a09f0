/*  =========================================================================
    sp_http_head - the request head and Range header of the storage-proxy's
    HTTP endpoint, parsed

    Pure functions over bytes a client sent: no connection, no loop. They
    are apart from the server (sp_http) so that fuzz_http_head can drive
    them with anything.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SP_HTTP_HEAD_H_INCLUDED
#define SP_HTTP_HEAD_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SP_HTTP_HEADERS_MAX 64 //  headers of one request

typedef struct {
    const char *name;
    const char *value;
} sp_http_header_t;

//  A parsed request head. target and the headers point into the head that
//  was parsed (which the parse cuts into strings) and are good while it
//  is; method and path are copies, for the answer and the log.
typedef struct {
    char method[16];
    char path[256]; //  the target up to "?", cut to fit
    char *target;
    bool http10;
    sp_http_header_t headers[SP_HTTP_HEADERS_MAX];
    size_t header_count;
    int64_t content_length; //  -1: none
    bool chunked;           //  a Transfer-Encoding other than identity
    bool close;             //  the client asked to close after this request
} sp_http_request_t;

//  Parses head[0, size): a request line and headers, ending with the blank
//  line's CRLF CRLF (size counts it; head[size] must be readable and is
//  NUL, as the server keeps it). Writes NULs into head. False when
//  malformed: no CRLF-terminated request line, a method of 16 bytes or
//  more, a version other than HTTP/1.0 and 1.1, a header line without a
//  name and a colon, more than SP_HTTP_HEADERS_MAX headers, a
//  Content-Length that is not a non-negative decimal.
bool sp_http_head_parse(char *head, size_t size, sp_http_request_t *req);

//  The value of header name (any case), or NULL.
const char *sp_http_head_header(const sp_http_request_t *req, const char *name);

typedef enum {
    SP_HTTP_RANGE_NONE,         //  no Range, or one to ignore: send the whole file
    SP_HTTP_RANGE_ONE,          //  *start_p, *len_p: the part to send
    SP_HTTP_RANGE_UNSATISFIABLE //  416
} sp_http_range_t;

//  Reads one "bytes=a-b", "bytes=a-" or "bytes=-n" (header may be NULL)
//  against a file of size bytes. A header that is malformed or asks for
//  several ranges is ignored (the whole file is sent), as RFC 9110 allows.
sp_http_range_t
sp_http_range(const char *header, uint64_t size, uint64_t *start_p, uint64_t *len_p);

#endif
