/*  =========================================================================
    gw_multipart - MIME multipart bodies: upload parsing, download building

    POST /session/{s}/upload carries multipart/form-data (RFC 7578, framed
    as RFC 2046 says): the official client sends one part per file, field
    name "src", the relative path as filename, Content-Type
    application/octet-stream. gw_multipart_parse splits such a body into
    parts whose data points into the body without copying; names and
    filenames are decoded copies. Any multipart type is accepted, as
    aiohttp's reader does. A delimiter is CRLF "--" boundary; the body
    must end with the close delimiter, so a truncated upload is refused.

    POST /session/{s}/download answers multipart/mixed, one part per file,
    each a tar archive with Content-Encoding: identity; the writer builds
    such a body with a random boundary, and Content-Length per part so
    that aiohttp's MultipartReader reads each part by length.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_MULTIPART_H_INCLUDED
#define GW_MULTIPART_H_INCLUDED

#define GW_MULTIPART_MAX_PARTS    64   //  parts in one body, more is refused
#define GW_MULTIPART_MAX_HEADER   8192 //  header bytes of one part
#define GW_MULTIPART_MAX_BOUNDARY 70   //  RFC 2046 section 5.1.1
#define GW_MULTIPART_MAX_PARAMS   16   //  parameters in one header value

//  One body part. Strings are NUL-terminated copies owned by the parts
//  array; data points into the parsed body and lives as long as it does.
typedef struct {
    char *name;         //  Content-Disposition name (name* preferred), or NULL
    char *filename;     //  filename* decoded when present, else filename, or NULL
    bool filename_ext;  //  filename came from filename* (already percent-decoded)
    char *content_type; //  the part's Content-Type value as sent, or NULL when absent
    const uint8_t *data;
    size_t size;
} gw_multipart_part_t;

typedef struct _gw_multipart_writer_t gw_multipart_writer_t;

//  Splits body, whose request Content-Type header value is content_type,
//  into its parts. On success returns 0 with a fresh array in *parts_p
//  (NULL when the body has no part; caller owns it, free it with
//  gw_multipart_parts_destroy) and its length in *count_p. On bad input
//  returns -1 with BUS_STATUS_INVALID and a detail in err, and leaves
//  *parts_p NULL and *count_p 0. Names and filenames must be valid UTF-8.
//  The filename is what aiohttp's reader reports; note that aiohttp 3.8
//  clients percent-encode a plain filename ("a%2Fb.txt"), see
//  gw_multipart_percent_decode. Filenames are not cleaned: a caller that
//  writes files must refuse absolute paths and ".." itself.
int gw_multipart_parse(const char *content_type,
                       const uint8_t *body,
                       size_t size,
                       gw_multipart_part_t **parts_p,
                       size_t *count_p,
                       bus_error_t *err);

//  Frees a parts array from gw_multipart_parse and NULLs the pointer;
//  idempotent.
void gw_multipart_parts_destroy(gw_multipart_part_t **parts_p, size_t count);

//  Percent-decodes text ("a%2Fb.txt" -> "a/b.txt"), for the filenames that
//  aiohttp 3.8 sends percent-encoded in a plain filename parameter. Returns
//  a fresh string (caller owns it), or NULL when an escape is malformed or
//  the result holds a NUL byte or is not valid UTF-8.
char *gw_multipart_percent_decode(const char *text);

//  Creates a writer for multipart/<subtype> ("mixed" for download replies,
//  "form-data" to build uploads) with a random 32-hex-digit boundary.
//  Returns NULL when subtype is not a token or randomness is unavailable.
gw_multipart_writer_t *gw_multipart_writer_new(const char *subtype);

//  Destroys the writer and NULLs the pointer; idempotent.
void gw_multipart_writer_destroy(gw_multipart_writer_t **self_p);

//  The Content-Type header value for the body, with its boundary; borrowed,
//  valid while the writer lives.
const char *gw_multipart_writer_content_type(const gw_multipart_writer_t *self);

//  Appends a part holding a copy of data. name (form-data only) and
//  filename go into Content-Disposition and may be NULL; a non-ASCII
//  filename is also given as filename*=utf-8''...; content_type NULL means
//  application/octet-stream. Parts of a subtype other than form-data also
//  get Content-Encoding: identity. Returns 0, or -1 when a string holds a
//  control character, the data holds the delimiter, the writer is finished,
//  or memory runs out.
int gw_multipart_writer_add(gw_multipart_writer_t *self,
                            const char *name,
                            const char *filename,
                            const char *content_type,
                            const uint8_t *data,
                            size_t size);

//  Appends the close delimiter and hands over the body: *body_p is fresh
//  (caller owns it, free()), *size_p its length. The writer accepts no more
//  parts. Returns 0, or -1 when finished already or out of memory.
int
gw_multipart_writer_finish(gw_multipart_writer_t *self, uint8_t **body_p, size_t *size_p);

#endif
