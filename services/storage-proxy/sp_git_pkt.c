/*  =========================================================================
    sp_git_pkt - pkt-lines, advertisements, upload-pack requests and answers

    The demultiplexer is a state machine over bytes as they come off the
    connection, so a pkt-line may be cut anywhere between two reads: the
    length header is gathered in header[], a text line (shallow, NAK, ERR,
    progress, error) in line[], and a side-band data line's payload is
    handed out in place, never copied.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"

enum { S_PRELUDE, S_SIDEBAND, S_RAW, S_END };
#define S_BAND_ERR 256 //  an "ERR " line where a side-band byte was due

//  The value of four hexadecimal digits, or -1.
static long
s_hex4(const uint8_t *p)
{
    long value = 0;
    for (int i = 0; i < 4; i++) {
        int d = bus_hex_digit(p[i]);
        if (d < 0)
            return -1;
        value = value << 4 | d;
    }
    return value;
}

int
sp_git_sha_parse(const uint8_t *hex, uint8_t sha[SP_GIT_SHA_LEN])
{
    for (int i = 0; i < SP_GIT_SHA_LEN; i++) {
        int hi = bus_hex_digit(hex[2 * i]), lo = bus_hex_digit(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        sha[i] = (uint8_t) (hi << 4 | lo);
    }
    return 0;
}

void
sp_git_sha_format(const uint8_t sha[SP_GIT_SHA_LEN], char out[SP_GIT_HEX_LEN + 1])
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < SP_GIT_SHA_LEN; i++) {
        out[2 * i] = digits[sha[i] >> 4];
        out[2 * i + 1] = digits[sha[i] & 15];
    }
    out[SP_GIT_HEX_LEN] = '\0';
}

//  Copies text (len bytes) into a detail-safe string: printable ASCII, the
//  rest as '?', at most size - 1 bytes, without a trailing newline.
static void
s_printable(const uint8_t *text, size_t len, char *out, size_t size)
{
    while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
        len--;
    size_t n = 0;
    for (; n < len && n + 1 < size; n++)
        out[n] = text[n] >= 0x20 && text[n] < 0x7f ? (char) text[n] : '?';
    out[n] = 0;
}

//  ---------------------------------------------------------------------------

long
sp_git_pkt_parse(const uint8_t *buf, size_t len, sp_git_pkt_t *out, bus_error_t *err)
{
    assert(buf || len == 0);
    assert(out);
    if (len < 4)
        return 0;
    long n = s_hex4(buf);
    if (n < 0)
        return bus_error_fail(err, BUS_STATUS_INVALID, "a malformed pkt-line length");
    if (n == 0) {
        *out = (sp_git_pkt_t){SP_GIT_PKT_FLUSH, buf, 0};
        return 4;
    }
    if (n < 4)
        return bus_error_fail(
            err, BUS_STATUS_INVALID,
            "a pkt-line of protocol version 2 (only 0 and 1 are spoken)");
    if (n > SP_GIT_PKT_MAX)
        return bus_error_fail(err, BUS_STATUS_INVALID, "a pkt-line longer than %d bytes",
                              SP_GIT_PKT_MAX);
    if ((size_t) n > len)
        return 0;
    *out = (sp_git_pkt_t){SP_GIT_PKT_DATA, buf + 4, (size_t) n - 4};
    return n;
}

int
sp_git_pkt_append(char *out, size_t size, size_t *at, const char *data, size_t len)
{
    assert(out && at);
    if (!data) {
        if (*at + 4 > size)
            return -1;
        memcpy(out + *at, "0000", 4);
        *at += 4;
        return 0;
    }
    if (len + 4 > SP_GIT_PKT_MAX || *at + len + 4 > size)
        return -1;
    char header[5];
    snprintf(header, sizeof header, "%04zx", len + 4);
    memcpy(out + *at, header, 4);
    memcpy(out + *at + 4, data, len);
    *at += len + 4;
    return 0;
}

bool
sp_git_caps_has(const char *caps, const char *cap)
{
    assert(caps && cap);
    size_t n = strlen(cap);
    for (const char *p = caps; *p;) {
        size_t word = strcspn(p, " ");
        if (word >= n && strncmp(p, cap, n) == 0 && (word == n || p[n] == '='))
            return true;
        p += word;
        while (*p == ' ')
            p++;
    }
    return false;
}

bool
sp_git_ref_ok(const char *name)
{
    assert(name);
    size_t len = strlen(name);
    if (len == 0 || len > SP_GIT_REF_MAX || name[0] == '-' || strstr(name, ".."))
        return false;
    for (size_t i = 0; i < len; i++)
        if ((unsigned char) name[i] <= 0x20 || (unsigned char) name[i] >= 0x7f)
            return false;
    return true;
}

//  ---------------------------------------------------------------------------

//  How well name answers wanted: 3 exact, 2 refs/heads/<wanted>, 1
//  refs/tags/<wanted> (peeled: *peeled_p), 0 not at all.
static int
s_match(const char *wanted, const char *name, size_t len, bool *peeled_p)
{
    *peeled_p = false;
    size_t wlen = strlen(wanted);
    if (len == wlen && memcmp(name, wanted, len) == 0)
        return 3;
    if (len == 11 + wlen && memcmp(name, "refs/heads/", 11) == 0 &&
        memcmp(name + 11, wanted, wlen) == 0)
        return 2;
    if (len >= 10 + wlen && memcmp(name, "refs/tags/", 10) == 0 &&
        memcmp(name + 10, wanted, wlen) == 0) {
        if (len == 10 + wlen)
            return 1;
        if (len == 13 + wlen && memcmp(name + 10 + wlen, "^{}", 3) == 0) {
            *peeled_p = true;
            return 1;
        }
    }
    return 0;
}

//  The branch caps' symref=HEAD:<ref> names, into out (size bytes); "" when
//  none.
static void
s_head_symref(const char *caps, char *out, size_t size)
{
    out[0] = 0;
    const char *p = strstr(caps, "symref=HEAD:");
    if (p && (p == caps || p[-1] == ' ')) {
        p += 12;
        size_t n = strcspn(p, " ");
        if (n && n < size) {
            memcpy(out, p, n);
            out[n] = 0;
        }
    }
}

int
sp_git_refs_parse(const uint8_t *buf,
                  size_t len,
                  const char *wanted,
                  sp_git_refs_t *out,
                  bus_error_t *err)
{
    assert(buf || len == 0);
    assert(out);
    memset(out, 0, sizeof *out);
    bool head = !wanted || !*wanted || strcmp(wanted, "HEAD") == 0;
    sp_git_pkt_t pkt;
    size_t at = 0;
    long n = sp_git_pkt_parse(buf, len, &pkt, NULL);
    static const char service[] = "# service=" SP_GIT_SERVICE;
    if (n <= 0 || pkt.kind != SP_GIT_PKT_DATA || pkt.len < sizeof service - 1 ||
        memcmp(pkt.data, service, sizeof service - 1) != 0 ||
        (pkt.len > sizeof service - 1 &&
         (pkt.len != sizeof service || pkt.data[pkt.len - 1] != '\n')))
        return bus_error_fail(
            err, BUS_STATUS_INVALID,
            "not a git smart-HTTP server (no git-upload-pack advertisement)");
    at = (size_t) n;
    //  A flush after the service line (git's own servers send one).
    n = sp_git_pkt_parse(buf + at, len - at, &pkt, NULL);
    if (n > 0 && pkt.kind == SP_GIT_PKT_FLUSH)
        at += (size_t) n;
    int best = 0;
    bool best_peeled = false;
    uint8_t head_sha[SP_GIT_SHA_LEN];
    bool have_head = false;
    for (bool first = true;; first = false) {
        n = sp_git_pkt_parse(buf + at, len - at, &pkt, err);
        if (n < 0)
            return -1;
        if (n == 0)
            return bus_error_fail(err, BUS_STATUS_INVALID,
                                  "the advertisement of refs is cut short");
        at += (size_t) n;
        if (pkt.kind == SP_GIT_PKT_FLUSH)
            break;
        const uint8_t *p = pkt.data;
        size_t plen = pkt.len;
        if (plen && p[plen - 1] == '\n')
            plen--;
        if (plen >= 8 && memcmp(p, "shallow ", 8) == 0)
            continue;
        if (plen >= 4 && memcmp(p, "ERR ", 4) == 0) {
            char text[256];
            s_printable(p + 4, plen - 4, text, sizeof text);
            return bus_error_fail(err, BUS_STATUS_UNAVAILABLE,
                                  "the git server refused: %s", text);
        }
        uint8_t sha[SP_GIT_SHA_LEN];
        if (plen < SP_GIT_HEX_LEN + 2 || p[SP_GIT_HEX_LEN] != ' ' ||
            sp_git_sha_parse(p, sha))
            return bus_error_fail(err, BUS_STATUS_INVALID,
                                  "a malformed ref in the advertisement");
        const char *name = (const char *) p + SP_GIT_HEX_LEN + 1;
        size_t name_len = plen - SP_GIT_HEX_LEN - 1;
        const uint8_t *nul = memchr(name, 0, name_len);
        if (nul) {
            if (first) {
                size_t caps_len = name_len - (size_t) ((const char *) nul - name) - 1;
                s_printable(nul + 1, caps_len, out->caps,
                            caps_len + 1 < sizeof out->caps ? caps_len + 1
                                                            : sizeof out->caps);
            }
            name_len = (size_t) ((const char *) nul - name);
        }
        if (name_len == 0)
            return bus_error_fail(err, BUS_STATUS_INVALID, "a ref without a name");
        if (first && name_len == 15 && memcmp(name, "capabilities^{}", 15) == 0)
            continue; //  an empty repository
        out->refs++;
        if (name_len == 4 && memcmp(name, "HEAD", 4) == 0) {
            memcpy(head_sha, sha, sizeof head_sha);
            have_head = true;
            continue;
        }
        if (head) {
            //  HEAD's branch, when the server does not say symref: the
            //  first branch at HEAD's commit.
            if (have_head && !out->ref[0] && name_len <= SP_GIT_REF_MAX &&
                name_len > 11 && memcmp(name, "refs/heads/", 11) == 0 &&
                memcmp(sha, head_sha, sizeof sha) == 0) {
                memcpy(out->ref, name, name_len);
                out->ref[name_len] = 0;
            }
            continue;
        }
        bool peeled;
        int score = s_match(wanted, name, name_len, &peeled);
        if (score == 0 || score < best || (score == best && (best_peeled || !peeled)))
            continue;
        best = score;
        best_peeled = peeled;
        memcpy(out->want, sha, sizeof sha);
        size_t shown = peeled ? name_len - 3 : name_len;
        if (shown > SP_GIT_REF_MAX)
            shown = SP_GIT_REF_MAX;
        memcpy(out->ref, name, shown);
        out->ref[shown] = 0;
        out->found = true;
    }
    if (head && have_head) {
        memcpy(out->want, head_sha, sizeof head_sha);
        out->found = true;
        char symref[SP_GIT_REF_MAX + 1];
        s_head_symref(out->caps, symref, sizeof symref);
        if (*symref)
            snprintf(out->ref, sizeof out->ref, "%s", symref);
        else if (!out->ref[0])
            snprintf(out->ref, sizeof out->ref, "HEAD");
    }
    return 0;
}

long
sp_git_request_format(const sp_git_refs_t *refs, char *out, size_t size, bool *sideband_p)
{
    assert(refs && out && sideband_p);
    const char *caps = refs->caps;
    const char *band = sp_git_caps_has(caps, "side-band-64k") ? " side-band-64k"
                       : sp_git_caps_has(caps, "side-band")   ? " side-band"
                                                              : "";
    bool shallow = sp_git_caps_has(caps, "shallow");
    char hex[SP_GIT_HEX_LEN + 1];
    sp_git_sha_format(refs->want, hex);
    char line[256];
    int n = snprintf(line, sizeof line, "want %s%s%s%s%s\n", hex, band,
                     sp_git_caps_has(caps, "ofs-delta") ? " ofs-delta" : "",
                     shallow ? " shallow" : "",
                     sp_git_caps_has(caps, "agent") ? " agent=" SP_GIT_AGENT : "");
    size_t at = 0;
    if (n < 0 || (size_t) n >= sizeof line ||
        sp_git_pkt_append(out, size, &at, line, (size_t) n) != 0)
        return -1;
    if (shallow && sp_git_pkt_append(out, size, &at, "deepen 1\n", 9) != 0)
        return -1;
    if (sp_git_pkt_append(out, size, &at, NULL, 0) != 0 ||
        sp_git_pkt_append(out, size, &at, "done\n", 5) != 0)
        return -1;
    *sideband_p = *band != 0;
    return (long) at;
}

//  ---------------------------------------------------------------------------

void
sp_git_demux_init(sp_git_demux_t *self, bool sideband)
{
    assert(self);
    memset(self, 0, sizeof *self);
    self->state = S_PRELUDE;
    self->sideband = sideband;
    self->band = -1;
}

//  A whole text line of the prelude (before the pack): shallow lines, then
//  NAK. 0 or -1.
static int
s_prelude_line(sp_git_demux_t *self, bus_error_t *err)
{
    const uint8_t *p = (const uint8_t *) self->line;
    size_t len = self->line_len;
    if (len && p[len - 1] == '\n')
        len--;
    if ((len == 48 && memcmp(p, "shallow ", 8) == 0) ||
        (len == 50 && memcmp(p, "unshallow ", 10) == 0)) {
        self->shallow++;
        return 0;
    }
    if (len == 3 && memcmp(p, "NAK", 3) == 0) {
        self->state = self->sideband ? S_SIDEBAND : S_RAW;
        return 0;
    }
    if (len >= 4 && memcmp(p, "ERR ", 4) == 0) {
        char text[256];
        s_printable(p + 4, len - 4, text, sizeof text);
        return bus_error_fail(err, BUS_STATUS_UNAVAILABLE, "the git server refused: %s",
                              text);
    }
    char text[64];
    s_printable(p, len, text, sizeof text);
    return bus_error_fail(err, BUS_STATUS_INVALID,
                          "an unexpected line from the git server: %s", text);
}

int
sp_git_demux_step(sp_git_demux_t *self,
                  const uint8_t *in,
                  size_t len,
                  size_t *used_p,
                  const uint8_t **data_p,
                  size_t *data_len_p,
                  bus_error_t *err)
{
    assert(self && (in || len == 0) && used_p && data_p && data_len_p);
    *used_p = 0;
    *data_p = NULL;
    *data_len_p = 0;
    size_t at = 0;
    while (at < len) {
        if (self->state == S_END)
            return bus_error_fail(err, BUS_STATUS_INVALID,
                                  "bytes after the git server's end");
        if (self->state == S_RAW) {
            *data_p = in + at;
            *data_len_p = len - at;
            *used_p = len;
            return 0;
        }
        if (self->left == 0 && self->band < 0) {
            //  A pkt-line's length.
            while (self->header_have < 4 && at < len)
                self->header[self->header_have++] = in[at++];
            if (self->header_have < 4)
                break;
            self->header_have = 0;
            long n = s_hex4(self->header);
            if (n < 0 || (n > 0 && n < 4) || n > SP_GIT_PKT_MAX)
                return bus_error_fail(err, BUS_STATUS_INVALID,
                                      "the git server's answer is not in pkt-lines");
            if (n == 0) {
                if (self->state == S_SIDEBAND) {
                    self->state = S_END;
                    *used_p = at;
                    return 1;
                }
                continue; //  the end of the shallow lines
            }
            if (n == 4)
                continue; //  an empty line
            self->left = (size_t) n - 4;
            self->line_len = 0;
            //  S_RAW returned above: a side-band line waits for its band
            //  byte, a prelude line is text, gathered like progress.
            self->band = self->state == S_SIDEBAND ? 0 : 2;
            continue;
        }
        if (self->band == 0) {
            //  The side-band's first byte.
            self->band = in[at++];
            self->left--;
            if (self->band == 'E') { //  "ERR ..." in place of a band: gathered
                self->line[0] = 'E';
                self->line_len = 1;
                self->band = S_BAND_ERR;
            } else if (self->band < 1 || self->band > 3)
                return bus_error_fail(err, BUS_STATUS_INVALID,
                                      "side-band %d from the git server", self->band);
        } else if (self->band == 1) {
            size_t take = len - at < self->left ? len - at : self->left;
            self->left -= take;
            *data_p = in + at;
            *data_len_p = take;
            at += take;
            if (self->left == 0)
                self->band = -1;
            *used_p = at;
            return 0;
        } else {
            size_t take = len - at < self->left ? len - at : self->left;
            for (size_t i = 0; i < take; i++)
                if (self->line_len < sizeof self->line)
                    self->line[self->line_len++] = (char) in[at + i];
            at += take;
            self->left -= take;
        }
        if (self->left == 0 && self->band > 1) {
            int band = self->band;
            self->band = -1;
            if (self->state == S_PRELUDE) {
                if (s_prelude_line(self, err) != 0)
                    return -1;
            } else if (band == S_BAND_ERR) {
                char text[256];
                if (self->line_len < 4 || memcmp(self->line, "ERR ", 4) != 0)
                    return bus_error_fail(err, BUS_STATUS_INVALID,
                                          "side-band %d from the git server", 'E');
                s_printable((const uint8_t *) self->line + 4, self->line_len - 4, text,
                            sizeof text);
                return bus_error_fail(err, BUS_STATUS_UNAVAILABLE,
                                      "the git server refused: %s", text);
            } else if (band == 3) {
                char text[256];
                s_printable((const uint8_t *) self->line, self->line_len, text,
                            sizeof text);
                return bus_error_fail(err, BUS_STATUS_UNAVAILABLE,
                                      "the git server failed: %s", text);
            }
        } else if (self->left == 0 && self->band == 1) {
            self->band = -1; //  a data line with only its band byte
        }
    }
    *used_p = at;
    return 0;
}

bool
sp_git_demux_complete(const sp_git_demux_t *self)
{
    assert(self);
    return self->state == S_END || self->state == S_RAW ||
           (self->state == S_SIDEBAND && self->left == 0 && self->band < 0 &&
            self->header_have == 0);
}
