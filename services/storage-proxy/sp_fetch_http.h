/*  =========================================================================
    sp_fetch_http - the pure half of the storage-proxy's HTTP client: URLs,
    redirects' Location, a response's head and chunked bodies

    storage.files.fetch downloads what a user names, so the URL and every
    byte the server answers are input from outside: nothing here does I/O,
    each function takes bytes and answers what they mean or that they are
    refused, and fuzz_fetch drives them (with sp_zip) in make check.

    A URL is http or https, with a host (a name, an IPv4 address or an IPv6
    one in brackets) and an optional port, no user information ("u:p@"),
    only printable ASCII (anything else must be percent-encoded) and at most
    SP_FETCH_URL_MAX bytes; the fragment is dropped. A redirect's Location
    is resolved against the URL it answered (absolute, scheme-relative,
    absolute-path or relative) into a new URL, which is parsed, and so
    checked, again.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SP_FETCH_HTTP_H_INCLUDED
#define SP_FETCH_HTTP_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "bus_status.h"

#define SP_FETCH_URL_MAX   2048
#define SP_FETCH_HOST_MAX  253   //  a DNS name's longest text form
#define SP_FETCH_HEAD_MAX  16384 //  a response head longer than this is refused
#define SP_FETCH_CHUNK_EXT 1024  //  longest chunk-size line or trailer line
#define SP_FETCH_TYPE_MAX  127   //  a Content-Type's media type kept (longer: cut)

typedef struct {
    bool tls;                          //  https
    char host[SP_FETCH_HOST_MAX + 1];  //  lower case, without brackets
    bool ipv6;                         //  written in brackets
    uint16_t port;                     //  80 or 443 when not written
    char target[SP_FETCH_URL_MAX + 1]; //  path and query, starting with '/'
} sp_fetch_url_t;

//  What a response's head says.
typedef struct {
    int status;                          //  100..599
    int64_t content_length;              //  -1: not said
    bool chunked;                        //  Transfer-Encoding: chunked
    bool location_too_long;              //  a Location over SP_FETCH_URL_MAX bytes
    char location[SP_FETCH_URL_MAX + 1]; //  "" when none
    //  Content-Type's media type, lower case, without its parameters ("" when
    //  none): the git client tells a smart-HTTP server by it.
    char content_type[SP_FETCH_TYPE_MAX + 1];
} sp_fetch_head_t;

//  The state of a chunked body's decoding (zero it to start).
typedef struct {
    int state;
    uint64_t left; //  data bytes left in the chunk
    size_t line;   //  bytes of the current size or trailer line
    bool digits;   //  the size line had a hex digit
} sp_fetch_chunked_t;

//  ---------------------------------------------------------------------------
//  Parses url (len bytes) into out. 0, or -1 with BUS_STATUS_INVALID and a
//  detail a person can act on ("only http and https URLs are fetched").
int
sp_fetch_url_parse(const char *url, size_t len, sp_fetch_url_t *out, bus_error_t *err);

//  Writes base as a URL (scheme, host, port when not the default, target)
//  into out (size bytes). 0, or -1 when it does not fit.
int sp_fetch_url_format(const sp_fetch_url_t *base, char *out, size_t size);

//  Resolves location (a redirect's, len bytes) against base into out, a
//  URL to parse again. 0, or -1 with BUS_STATUS_INVALID.
int sp_fetch_url_resolve(const sp_fetch_url_t *base,
                         const char *location,
                         size_t len,
                         char out[SP_FETCH_URL_MAX + 1],
                         bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Parses a response head at the start of buf (len bytes, CRLF line ends):
//  the head's length including its empty line when complete, 0 when more
//  bytes are needed (and len < SP_FETCH_HEAD_MAX), -1 when malformed or too
//  long (err says why).
long
sp_fetch_head_parse(const char *buf, size_t len, sp_fetch_head_t *head, bus_error_t *err);

//  Decodes the next part of a chunked body from in (len bytes): *used_p
//  bytes consumed, and the chunk data among them in *data_p, *data_len_p
//  (0 when none this step). 1 once the last chunk and its trailers ended,
//  0 to go on (call again with the rest, or with more), -1 when malformed.
int sp_fetch_chunked_step(sp_fetch_chunked_t *self,
                          const uint8_t *in,
                          size_t len,
                          size_t *used_p,
                          const uint8_t **data_p,
                          size_t *data_len_p);

#endif
