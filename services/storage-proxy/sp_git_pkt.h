/*  =========================================================================
    sp_git_pkt - the pure half of git's smart HTTP protocol (version 0/1,
    git-upload-pack): pkt-lines, the refs a server advertises, the request
    that asks for one commit, and the demultiplexing of the answer

    Import & Run clones a repository a user names, so every byte a server
    answers is input from outside: nothing here does I/O, each function
    takes bytes and answers what they mean or that they are refused, and
    fuzz_git drives them (with sp_git_pack) in make check.

    A pkt-line is four hexadecimal digits giving its length (the four
    included) and that many bytes less four; "0000" is a flush. The
    advertisement (GET <repo>/info/refs?service=git-upload-pack) is
    "# service=git-upload-pack", a flush, then "<sha> <ref>" lines (the
    first carrying the server's capabilities after a NUL) and a flush. The
    request (POST <repo>/git-upload-pack) wants one commit, with deepen 1
    when the server offers shallow: an import wants the tip, not the
    history. The answer is shallow lines and a flush (with deepen), a NAK,
    then the pack: with side-band(-64k) in pkt-lines whose first byte is a
    band (1 the pack, 2 progress, 3 a fatal error), else raw to the end.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SP_GIT_PKT_H_INCLUDED
#define SP_GIT_PKT_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "bus_status.h"

#define SP_GIT_SHA_LEN            20    //  SHA-1, the only object format spoken
#define SP_GIT_HEX_LEN            40    //  its hexadecimal form
#define SP_GIT_PKT_MAX            65520 //  a pkt-line's longest length, its header included
#define SP_GIT_CAPS_MAX           1023 //  capabilities kept from the first ref line
#define SP_GIT_REF_MAX            255  //  longest ref name asked for or shown
#define SP_GIT_LINE_MAX           1024 //  a protocol or side-band text line kept (longer: cut)
#define SP_GIT_REFS_MAX           (8u << 20) //  the advertisement read into memory
#define SP_GIT_AGENT              "backplane-storage-proxy"
#define SP_GIT_SERVICE            "git-upload-pack"
#define SP_GIT_ADVERTISEMENT_TYPE "application/x-git-upload-pack-advertisement"
#define SP_GIT_REQUEST_TYPE       "application/x-git-upload-pack-request"
#define SP_GIT_RESULT_TYPE        "application/x-git-upload-pack-result"

//  An object name: 40 hexadecimal digits (either case) at hex into sha. 0,
//  or -1 for a digit that is not one.
int sp_git_sha_parse(const uint8_t *hex, uint8_t sha[SP_GIT_SHA_LEN]);

//  An object name in the lower-case hexadecimal git writes, into out.
void sp_git_sha_format(const uint8_t sha[SP_GIT_SHA_LEN], char out[SP_GIT_HEX_LEN + 1]);

typedef enum {
    SP_GIT_PKT_DATA = 0,
    SP_GIT_PKT_FLUSH = 1, //  "0000"
} sp_git_pkt_kind_t;

typedef struct {
    sp_git_pkt_kind_t kind;
    const uint8_t *data; //  the payload, inside the buffer parsed
    size_t len;
} sp_git_pkt_t;

//  What an advertisement says, for the ref asked.
typedef struct {
    char caps[SP_GIT_CAPS_MAX + 1]; //  the server's capabilities, space separated
    size_t refs;                    //  refs advertised (HEAD and peeled tags included)
    bool found;                     //  the ref asked for was advertised
    uint8_t want[SP_GIT_SHA_LEN];   //  its commit (a tag's peeled commit when said)
    char ref[SP_GIT_REF_MAX + 1];   //  its full name; HEAD's branch when known
} sp_git_refs_t;

//  The state of an answer's demultiplexing (sp_git_demux_init).
typedef struct {
    int state;
    bool sideband;     //  the request asked for side-band(-64k)
    uint8_t header[4]; //  a pkt-line's length being read
    size_t header_have;
    size_t left;                //  payload bytes left in the pkt-line
    int band;                   //  its band, -1 before its first byte
    char line[SP_GIT_LINE_MAX]; //  a text line being read (cut when longer)
    size_t line_len;
    uint64_t shallow; //  shallow lines seen
} sp_git_demux_t;

//  ---------------------------------------------------------------------------
//  Parses the pkt-line at the start of buf (len bytes) into out: the bytes
//  it takes, 0 when more bytes are needed, -1 when malformed (err says
//  why; "0001" and "0002" of protocol v2 are refused, it is not spoken).
long
sp_git_pkt_parse(const uint8_t *buf, size_t len, sp_git_pkt_t *out, bus_error_t *err);

//  Appends data (len bytes) as one pkt-line to out (at *at, size bytes),
//  or a flush when data is NULL. 0, or -1 when it does not fit.
int sp_git_pkt_append(char *out, size_t size, size_t *at, const char *data, size_t len);

//  Whether caps (space separated) holds cap, alone or as "cap=value".
bool sp_git_caps_has(const char *caps, const char *cap);

//  Whether name may be asked for: 1 to SP_GIT_REF_MAX printable ASCII
//  bytes, no space, no "..", no ASCII control, not starting with '-'.
bool sp_git_ref_ok(const char *name);

//  ---------------------------------------------------------------------------
//  Parses an advertisement (len bytes) and looks for wanted: NULL or ""
//  for the remote HEAD, else a full name ("refs/heads/x") or a short one
//  tried as refs/heads/<wanted>, then refs/tags/<wanted> (a tag's peeled
//  commit is wanted when advertised). 0 with out->found telling whether
//  it is there, or -1 with BUS_STATUS_INVALID: "not a git smart-HTTP
//  server" when the first line is not the service's, else what is
//  malformed.
int sp_git_refs_parse(const uint8_t *buf,
                      size_t len,
                      const char *wanted,
                      sp_git_refs_t *out,
                      bus_error_t *err);

//  Writes the upload-pack request for refs->want into out (size bytes):
//  side-band-64k (or side-band) and ofs-delta when offered, and shallow
//  with deepen 1 when offered; *sideband_p tells whether side-band was
//  asked (sp_git_demux_init needs it). The length, or -1 when it does not
//  fit.
long sp_git_request_format(const sp_git_refs_t *refs,
                           char *out,
                           size_t size,
                           bool *sideband_p);

//  ---------------------------------------------------------------------------
//  Starts demultiplexing an answer to a request that asked side-band or not.
void sp_git_demux_init(sp_git_demux_t *self, bool sideband);

//  Reads the next part of the answer from in (len bytes): *used_p bytes
//  taken, the pack's bytes among them in *data_p, *data_len_p (0 when
//  none this step). 1 once the side-band's closing flush came, 0 to go
//  on, -1 with err: malformed, "ERR" from the server, or band 3 (err's
//  detail is the server's text, BUS_STATUS_UNAVAILABLE).
int sp_git_demux_step(sp_git_demux_t *self,
                      const uint8_t *in,
                      size_t len,
                      size_t *used_p,
                      const uint8_t **data_p,
                      size_t *data_len_p,
                      bus_error_t *err);

//  Whether the answer may end here (the connection closed): the pack has
//  begun and no pkt-line is cut.
bool sp_git_demux_complete(const sp_git_demux_t *self);

#endif
