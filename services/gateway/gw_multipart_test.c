/*  =========================================================================
    gw_multipart_test - unit tests for gw_multipart

    The exact bytes the official client's aiohttp sends for an upload of
    several files (3.8: percent-encoded filename; 3.7: filename* as well),
    quoted and odd boundaries, preamble, padding and epilogue, parts with
    no headers or no body, folded headers, binary payloads full of CR, LF
    and near-delimiters, writer to parser round trips for multipart/mixed
    download replies and form-data, and every kind of bad Content-Type and
    body, which must be refused with BUS_STATUS_INVALID and a clear detail.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include "t.h"

#define S_BOUNDARY "6a1fb3c9d1d24c2b9a3e0b3f5b1f2a70"
#define S_CTYPE    "multipart/form-data; boundary=" S_BOUNDARY

//  Parses a string literal body (may hold NULs).
#define S_PARSE(ctype, literal, parts_p, count_p, err_p)                                 \
    gw_multipart_parse((ctype), (const uint8_t *) (literal), sizeof(literal) - 1,        \
                       (parts_p), (count_p), (err_p))

static bool
s_data_is(const gw_multipart_part_t *part, const char *text)
{
    return part->size == strlen(text) && memcmp(part->data, text, part->size) == 0;
}

//  Expects a refusal whose detail holds needle.
static const char *
s_refused(const char *ctype, const uint8_t *body, size_t size, const char *needle)
{
    gw_multipart_part_t *parts = (gw_multipart_part_t *) &parts; //  must become NULL
    size_t count = 99;
    bus_error_t err = {0};
    int rc = gw_multipart_parse(ctype, body, size, &parts, &count, &err);
    if (rc != -1)
        return "accepted";
    if (parts != NULL || count != 0)
        return "left parts";
    if (err.status != BUS_STATUS_INVALID)
        return "not INVALID";
    if (!strstr(err.detail, needle)) {
        fprintf(stderr, "# detail: %s\n", err.detail);
        return "other detail";
    }
    return "refused";
}

#define S_REFUSED(ctype, literal, needle)                                                \
    s_refused((ctype), (const uint8_t *) (literal), sizeof(literal) - 1, (needle))

//  What aiohttp 3.8 (the client's pin) sends for session.upload of three
//  files: a uuid4().hex boundary, Content-Type then Content-Disposition
//  with a percent-encoded filename, then Content-Length; close delimiter
//  with CRLF.
static void
test_aiohttp_upload(void)
{
    const char body[] =
        "--" S_BOUNDARY "\r\n"
        "Content-Type: application/octet-stream\r\n"
        "Content-Disposition: form-data; name=\"src\"; filename=\"hello.py\"\r\n"
        "Content-Length: 22\r\n"
        "\r\n"
        "print('hello world')\r\n"
        "\r\n"
        "--" S_BOUNDARY "\r\n"
        "Content-Type: application/octet-stream\r\n"
        "Content-Disposition: form-data; name=\"src\"; filename=\"data%2Finput.csv\"\r\n"
        "Content-Length: 8\r\n"
        "\r\n"
        "a,b\r\n1,2"
        "\r\n"
        "--" S_BOUNDARY "\r\n"
        "Content-Type: application/octet-stream\r\n"
        "Content-Disposition: form-data; name=\"src\"; "
        "filename=\"%EB%8D%B0%EC%9D%B4%ED%84%B0%2Fmy%20file.txt\"\r\n"
        "Content-Length: 0\r\n"
        "\r\n"
        "\r\n"
        "--" S_BOUNDARY "--\r\n";
    gw_multipart_part_t *parts = NULL;
    size_t count = 0;
    bus_error_t err = {0};
    T_EQ_INT(S_PARSE(S_CTYPE, body, &parts, &count, &err), 0);
    T_EQ_INT(count, 3);
    for (size_t i = 0; i < count; i++) {
        T_EQ_STR(parts[i].name, "src");
        T_EQ_STR(parts[i].content_type, "application/octet-stream");
        T_ASSERT(!parts[i].filename_ext);
        T_ASSERT(parts[i].data >= (const uint8_t *) body &&
                 parts[i].data + parts[i].size <= (const uint8_t *) body + sizeof body);
    }
    T_EQ_STR(parts[0].filename, "hello.py");
    T_ASSERT(s_data_is(&parts[0], "print('hello world')\r\n"));
    T_EQ_STR(parts[1].filename, "data%2Finput.csv");
    T_ASSERT(s_data_is(&parts[1], "a,b\r\n1,2"));
    T_EQ_INT(parts[2].size, 0);
    char *path = gw_multipart_percent_decode(parts[1].filename);
    T_EQ_STR(path, "data/input.csv");
    free(path);
    path = gw_multipart_percent_decode(parts[2].filename);
    T_EQ_STR(path, "\xeb\x8d\xb0\xec\x9d\xb4\xed\x84\xb0/my file.txt");
    free(path);
    gw_multipart_parts_destroy(&parts, count);
    T_ASSERT(parts == NULL);
    gw_multipart_parts_destroy(&parts, count); //  idempotent
}

//  aiohttp 3.0 to 3.7 add filename*=utf-8''..., which wins over filename.
static void
test_filename_star(void)
{
    const char body[] =
        "--" S_BOUNDARY "\r\n"
        "Content-Type: application/octet-stream\r\n"
        "Content-Disposition: form-data; name=\"src\"; filename=\"a%2Fb.txt\"; "
        "filename*=utf-8''a%2Fb.txt\r\n"
        "Content-Length: 2\r\n"
        "\r\n"
        "hi\r\n"
        "--" S_BOUNDARY "\r\n"
        "Content-Disposition: form-data; NAME*=UTF-8''s%72c; "
        "Filename*=iso-8859-1'fr'caf%E9.txt\r\n"
        "\r\n"
        "x\r\n"
        "--" S_BOUNDARY "--";
    gw_multipart_part_t *parts = NULL;
    size_t count = 0;
    bus_error_t err = {0};
    T_EQ_INT(S_PARSE(S_CTYPE, body, &parts, &count, &err), 0);
    T_EQ_INT(count, 2);
    T_EQ_STR(parts[0].filename, "a/b.txt");
    T_ASSERT(parts[0].filename_ext);
    T_EQ_STR(parts[1].name, "src");
    T_EQ_STR(parts[1].filename, "caf\xc3\xa9.txt");
    T_ASSERT(parts[1].content_type == NULL);
    T_ASSERT(s_data_is(&parts[1], "x"));
    gw_multipart_parts_destroy(&parts, count);
}

//  Quoted boundary with bchars that need quoting, case-insensitive type and
//  parameter names, another parameter, preamble, padding and epilogue.
static void
test_quoted_boundary(void)
{
    const char *ctype =
        " Multipart/Form-Data ; charset=utf-8;BOUNDARY = \"a'(b)+_,-./:=? z\" ;";
    const char body[] =
        "This is the preamble.\r\n--not a delimiter\r\n"
        "--a'(b)+_,-./:=? z \t\r\n"
        "content-disposition:form-data;name=plain;filename=\"q\\\"uo\\\\te\"\r\n"
        "X-Other: ignored\r\n"
        "\r\n"
        "one\r\n"
        "--a'(b)+_,-./:=? z--epilogue \r\n--a'(b)+_,-./:=? z\r\n";
    gw_multipart_part_t *parts = NULL;
    size_t count = 0;
    bus_error_t err = {0};
    T_EQ_INT(S_PARSE(ctype, body, &parts, &count, &err), 0);
    T_EQ_INT(count, 1);
    T_EQ_STR(parts[0].name, "plain");
    T_EQ_STR(parts[0].filename, "q\"uo\\te");
    T_ASSERT(s_data_is(&parts[0], "one"));
    gw_multipart_parts_destroy(&parts, count);

    //  Curl's and browsers' unquoted boundaries, and one of 70 characters.
    T_EQ_INT(
        S_PARSE("multipart/form-data; boundary=------------------------d74496d66958873e",
                "--------------------------d74496d66958873e\r\n\r\nx\r\n"
                "--------------------------d74496d66958873e--\r\n",
                &parts, &count, &err),
        0);
    T_EQ_INT(count, 1);
    gw_multipart_parts_destroy(&parts, count);
    char ctype70[128], body70[256];
    char b70[71];
    memset(b70, 'b', 70);
    b70[70] = '\0';
    snprintf(ctype70, sizeof ctype70, "multipart/mixed; boundary=%s", b70);
    int length = snprintf(body70, sizeof body70, "--%s\r\n\r\nz\r\n--%s--", b70, b70);
    T_EQ_INT(gw_multipart_parse(ctype70, (const uint8_t *) body70, (size_t) length,
                                &parts, &count, &err),
             0);
    T_EQ_INT(count, 1);
    T_ASSERT(s_data_is(&parts[0], "z"));
    gw_multipart_parts_destroy(&parts, count);
}

//  Parts with no headers, with an empty body, with headers and no body at
//  all (RFC 2046 allows it), a folded header, and a body with no part.
static void
test_empty_parts(void)
{
    const char body[] = "--" S_BOUNDARY "\r\n"
                        "\r\n"
                        "--" S_BOUNDARY "\r\n"
                        "\r\n"
                        "no headers\r\n"
                        "--" S_BOUNDARY "\r\n"
                        "Content-Disposition: form-data;\r\n"
                        " name=\"folded\";\r\n"
                        "\tfilename=\"f.txt\"\r\n"
                        "Content-Type:   text/plain;  charset=utf-8  \r\n"
                        "\r\n"
                        "\r\n"
                        "--" S_BOUNDARY "\r\n"
                        "Content-Disposition: form-data; name=\"nobody\"\r\n"
                        "\r\n"
                        "--" S_BOUNDARY "--\r\n";
    gw_multipart_part_t *parts = NULL;
    size_t count = 0;
    bus_error_t err = {0};
    T_EQ_INT(S_PARSE(S_CTYPE, body, &parts, &count, &err), 0);
    T_EQ_INT(count, 4);
    T_ASSERT(parts[0].name == NULL && parts[0].filename == NULL && parts[0].size == 0);
    T_ASSERT(parts[1].name == NULL && s_data_is(&parts[1], "no headers"));
    T_EQ_STR(parts[2].name, "folded");
    T_EQ_STR(parts[2].filename, "f.txt");
    T_EQ_STR(parts[2].content_type, "text/plain;  charset=utf-8");
    T_EQ_INT(parts[2].size, 0);
    T_EQ_STR(parts[3].name, "nobody");
    T_EQ_INT(parts[3].size, 0);
    gw_multipart_parts_destroy(&parts, count);

    T_EQ_INT(S_PARSE(S_CTYPE, "--" S_BOUNDARY "--\r\n", &parts, &count, &err), 0);
    T_EQ_INT(count, 0);
    T_ASSERT(parts == NULL);
}

//  Every byte value, CR and LF everywhere, and near-delimiters: a shorter
//  or altered boundary after CRLF, and the full one without the CRLF.
static void
test_binary_payload(void)
{
    uint8_t payload[600];
    size_t n = 0;
    for (int i = 0; i < 256; i++)
        payload[n++] = (uint8_t) i;
    const char *tricky[] = {"\r\n--" S_BOUNDARY,
                            "\r\n--6a1fb3c9d1d24c2b9a3e0b3f5b1f2a7",
                            "\r\n--6a1fb3c9d1d24c2b9a3e0b3f5b1f2a71",
                            "\n--" S_BOUNDARY,
                            "\r--" S_BOUNDARY "--",
                            "x--" S_BOUNDARY "\r\n",
                            "\r\n\r\n\r\r\n\n-",
                            "\r\n-"};
    //  The first one is the delimiter itself: keep it out of the payload.
    for (size_t i = 1; i < sizeof tricky / sizeof *tricky; i++) {
        memcpy(payload + n, tricky[i], strlen(tricky[i]));
        n += strlen(tricky[i]);
    }
    uint8_t body[1024];
    size_t size = 0;
    const char *head = "--" S_BOUNDARY "\r\nContent-Type: application/x-tar\r\n\r\n";
    memcpy(body + size, head, strlen(head));
    size += strlen(head);
    memcpy(body + size, payload, n);
    size += n;
    const char *tail = "\r\n--" S_BOUNDARY "--\r\n";
    memcpy(body + size, tail, strlen(tail));
    size += strlen(tail);

    gw_multipart_part_t *parts = NULL;
    size_t count = 0;
    bus_error_t err = {0};
    T_EQ_INT(gw_multipart_parse(S_CTYPE, body, size, &parts, &count, &err), 0);
    T_EQ_INT(count, 1);
    T_EQ_INT(parts[0].size, n);
    T_ASSERT(memcmp(parts[0].data, payload, n) == 0);
    gw_multipart_parts_destroy(&parts, count);

    //  With the real delimiter inside, the part ends there and what follows
    //  is not a delimiter line: refused.
    memcpy(body + strlen(head) + 10, "\r\n--" S_BOUNDARY "X", 4 + strlen(S_BOUNDARY) + 1);
    T_EQ_STR(s_refused(S_CTYPE, body, size, "followed by other bytes"), "refused");
}

//  The boundary of a writer's Content-Type.
static const char *
s_boundary_of(const gw_multipart_writer_t *writer)
{
    const char *ctype = gw_multipart_writer_content_type(writer);
    const char *at = strstr(ctype, "boundary=");
    return at ? at + strlen("boundary=") : "";
}

//  A download reply as the client reads it: multipart/mixed, one tar per
//  part with Content-Encoding: identity and Content-Length.
static void
test_roundtrip_mixed(void)
{
    gw_multipart_writer_t *writer = gw_multipart_writer_new("mixed");
    T_ASSERT(writer);
    const char *ctype = gw_multipart_writer_content_type(writer);
    T_ASSERT(strncmp(ctype, "multipart/mixed; boundary=", 26) == 0);
    const char *boundary = s_boundary_of(writer);
    T_EQ_INT(strlen(boundary), 32);
    T_EQ_INT(strspn(boundary, "0123456789abcdef"), 32);

    uint8_t tar[1024];
    for (size_t i = 0; i < sizeof tar; i++)
        tar[i] = (uint8_t) ((i * 7) ^ (i >> 3));
    memcpy(tar + 100, "\r\n--", 4);
    memcpy(tar + 104, boundary, 31); //  all but the last digit
    tar[135] = '\r';
    T_EQ_INT(gw_multipart_writer_add(writer, NULL, "a.tar", "application/x-tar", tar,
                                     sizeof tar),
             0);
    T_EQ_INT(gw_multipart_writer_add(writer, NULL, NULL, NULL, NULL, 0), 0);
    T_EQ_INT(gw_multipart_writer_add(writer, NULL, "\xed\x95\x9c \"q\".tar", NULL,
                                     (const uint8_t *) "\r\n", 2),
             0);
    uint8_t *body = NULL;
    size_t size = 0;
    T_EQ_INT(gw_multipart_writer_finish(writer, &body, &size), 0);
    T_ASSERT(body && size > sizeof tar);
    T_EQ_INT(gw_multipart_writer_finish(writer, &body, &size), -1);
    T_EQ_INT(gw_multipart_writer_add(writer, NULL, NULL, NULL, NULL, 0), -1);

    //  The first part's header, byte for byte as aiohttp lays it out.
    char expect[512];
    int length = snprintf(expect, sizeof expect,
                          "--%s\r\nContent-Type: application/x-tar\r\n"
                          "Content-Disposition: attachment; filename=\"a.tar\"\r\n"
                          "Content-Encoding: identity\r\nContent-Length: 1024\r\n\r\n",
                          boundary);
    T_ASSERT(memcmp(body, expect, (size_t) length) == 0);
    char close[64];
    length = snprintf(close, sizeof close, "\r\n--%s--\r\n", boundary);
    T_ASSERT(memcmp(body + size - (size_t) length, close, (size_t) length) == 0);
    T_ASSERT(memmem(body, size, "filename*=utf-8''%ED%95%9C%20%22q%22.tar", 40));

    gw_multipart_part_t *parts = NULL;
    size_t count = 0;
    bus_error_t err = {0};
    T_EQ_INT(gw_multipart_parse(ctype, body, size, &parts, &count, &err), 0);
    T_EQ_INT(count, 3);
    T_EQ_STR(parts[0].filename, "a.tar");
    T_EQ_STR(parts[0].content_type, "application/x-tar");
    T_EQ_INT(parts[0].size, sizeof tar);
    T_ASSERT(memcmp(parts[0].data, tar, sizeof tar) == 0);
    T_ASSERT(parts[1].filename == NULL && parts[1].size == 0);
    T_EQ_STR(parts[1].content_type, "application/octet-stream");
    T_EQ_STR(parts[2].filename, "\xed\x95\x9c \"q\".tar");
    T_ASSERT(parts[2].filename_ext);
    T_ASSERT(s_data_is(&parts[2], "\r\n"));
    gw_multipart_parts_destroy(&parts, count);
    free(body);
    gw_multipart_writer_destroy(&writer);
    T_ASSERT(writer == NULL);
    gw_multipart_writer_destroy(&writer);
}

//  A form-data upload built by the writer, as the client would send it.
static void
test_roundtrip_form_data(void)
{
    gw_multipart_writer_t *writer = gw_multipart_writer_new("form-data");
    T_ASSERT(writer);
    T_EQ_INT(gw_multipart_writer_add(writer, "src", "dir/back\\slash \"q\".txt", NULL,
                                     (const uint8_t *) "abc", 3),
             0);
    T_EQ_INT(gw_multipart_writer_add(writer, "note", NULL, "text/plain", NULL, 0), 0);
    uint8_t *body = NULL;
    size_t size = 0;
    T_EQ_INT(gw_multipart_writer_finish(writer, &body, &size), 0);
    T_ASSERT(!memmem(body, size, "Content-Encoding", 16));
    T_ASSERT(memmem(body, size,
                    "Content-Disposition: form-data; name=\"src\"; filename=", 52));
    gw_multipart_part_t *parts = NULL;
    size_t count = 0;
    bus_error_t err = {0};
    T_EQ_INT(gw_multipart_parse(gw_multipart_writer_content_type(writer), body, size,
                                &parts, &count, &err),
             0);
    T_EQ_INT(count, 2);
    T_EQ_STR(parts[0].name, "src");
    T_EQ_STR(parts[0].filename, "dir/back\\slash \"q\".txt");
    T_ASSERT(!parts[0].filename_ext);
    T_ASSERT(s_data_is(&parts[0], "abc"));
    T_EQ_STR(parts[1].name, "note");
    T_ASSERT(parts[1].filename == NULL);
    T_EQ_STR(parts[1].content_type, "text/plain");
    gw_multipart_parts_destroy(&parts, count);
    free(body);
    gw_multipart_writer_destroy(&writer);
}

static void
test_writer_refuses(void)
{
    T_ASSERT(gw_multipart_writer_new("") == NULL);
    T_ASSERT(gw_multipart_writer_new("mixed; x=y") == NULL);
    T_ASSERT(gw_multipart_writer_new("a-subtype-longer-than-thirty-two-chars") == NULL);
    gw_multipart_writer_t *writer = gw_multipart_writer_new("mixed");
    T_ASSERT(writer);
    T_EQ_INT(gw_multipart_writer_add(writer, NULL, "a\r\nb", NULL, NULL, 0), -1);
    T_EQ_INT(gw_multipart_writer_add(writer, NULL, "x", "text/plain\r\nX: y", NULL, 0),
             -1);
    T_EQ_INT(gw_multipart_writer_add(writer, "\x7f", NULL, NULL, NULL, 0), -1);
    char data[128];
    int length = snprintf(data, sizeof data, "abc\r\n--%s\r\n", s_boundary_of(writer));
    T_EQ_INT(gw_multipart_writer_add(writer, NULL, NULL, NULL, (const uint8_t *) data,
                                     (size_t) length),
             -1);
    length = snprintf(data, sizeof data, "--%s", s_boundary_of(writer));
    T_EQ_INT(gw_multipart_writer_add(writer, NULL, NULL, NULL, (const uint8_t *) data,
                                     (size_t) length),
             -1);
    //  Nothing refused was written: the body is only the close delimiter.
    uint8_t *body = NULL;
    size_t size = 0;
    T_EQ_INT(gw_multipart_writer_finish(writer, &body, &size), 0);
    T_EQ_INT(size, 2 + 32 + 4);
    free(body);
    gw_multipart_writer_destroy(&writer);
}

static void
test_bad_content_type(void)
{
    const char body[] = "--b\r\n\r\nx\r\n--b--\r\n";
    T_EQ_STR(S_REFUSED(NULL, body, "without Content-Type"), "refused");
    T_EQ_STR(S_REFUSED("application/json", body, "not multipart"), "refused");
    T_EQ_STR(S_REFUSED("multipart/", body, "not multipart"), "refused");
    T_EQ_STR(S_REFUSED("multipartx/form-data; boundary=b", body, "not multipart"),
             "refused");
    T_EQ_STR(S_REFUSED("multipart/form data; boundary=b", body, "subtype"), "refused");
    T_EQ_STR(S_REFUSED("multipart/form-data", body, "no boundary"), "refused");
    T_EQ_STR(S_REFUSED("multipart/form-data; boundary*=utf-8''b", body, "no boundary"),
             "refused");
    T_EQ_STR(S_REFUSED("multipart/form-data; boundary=\"\"", body, "1 to 70"), "refused");
    T_EQ_STR(S_REFUSED("multipart/form-data; boundary=", body, "bad parameter value"),
             "refused");
    char ctype[160];
    snprintf(ctype, sizeof ctype, "multipart/form-data; boundary=%071d", 0);
    T_EQ_STR(S_REFUSED(ctype, body, "not 71"), "refused");
    T_EQ_STR(S_REFUSED("multipart/form-data; boundary=\"a\\\"b\"", body, "bad character"),
             "refused");
    T_EQ_STR(S_REFUSED("multipart/form-data; boundary=\"a\tb\"", body, "bad character"),
             "refused");
    T_EQ_STR(
        S_REFUSED("multipart/form-data; boundary=\"ab \"", body, "ends with a space"),
        "refused");
    T_EQ_STR(S_REFUSED("multipart/form-data; boundary=\"ab", body, "unterminated"),
             "refused");
    T_EQ_STR(S_REFUSED("multipart/form-data; boundary=b; Boundary=c", body, "duplicate"),
             "refused");
    T_EQ_STR(S_REFUSED("multipart/form-data; boundary=b x", body, "junk"), "refused");
    T_EQ_STR(S_REFUSED("multipart/form-data; boundary", body, "without a value"),
             "refused");
    T_EQ_STR(S_REFUSED("multipart/form-data; =b", body, "bad parameter name"), "refused");
    T_EQ_STR(
        S_REFUSED("multipart/form-data; a=1; b=2; c=3; d=4; e=5; f=6; g=7; h=8; i=9; "
                  "j=10; k=11; l=12; m=13; n=14; o=15; p=16; q=17",
                  body, "too many parameters"),
        "refused");
}

static void
test_bad_body(void)
{
    const char *ct = "multipart/form-data; boundary=b";
    T_EQ_STR(S_REFUSED(ct, "", "no delimiter"), "refused");
    T_EQ_STR(s_refused(ct, NULL, 0, "no delimiter"), "refused");
    T_EQ_STR(S_REFUSED(ct, "just text\r\n-b\r\n", "no delimiter"), "refused");
    //  Truncated anywhere: in the data, in the headers, at the delimiter.
    T_EQ_STR(S_REFUSED(ct, "--b\r\n\r\nsome da", "before the final delimiter"),
             "refused");
    T_EQ_STR(S_REFUSED(ct, "--b\r\nContent-Type: te", "before the final delimiter"),
             "refused");
    T_EQ_STR(S_REFUSED(ct, "--b\r\n\r\nx\r\n--b", "before the final delimiter"),
             "refused");
    T_EQ_STR(S_REFUSED(ct, "--b\r\n\r\nx\r\n--b-", "before the final delimiter"),
             "refused");
    T_EQ_STR(S_REFUSED(ct, "--b\r\n\r\nx\r\n--b\r", "before the final delimiter"),
             "refused");
    T_EQ_STR(S_REFUSED(ct, "--b\r\n\r\nx\r\n--b\r\n", "before the final delimiter"),
             "refused");
    T_EQ_STR(S_REFUSED(ct, "--b", "before the final delimiter"), "refused");
    //  Bare LF line ends are not CRLF.
    T_EQ_STR(S_REFUSED(ct, "--b\n\nx\n--b--\n", "followed by other bytes"), "refused");
    //  Headers that never end with an empty line.
    T_EQ_STR(S_REFUSED(ct, "--b\r\nContent-Type: text/plain\r\n--b--", "empty line"),
             "refused");
    T_EQ_STR(S_REFUSED(ct, "--b\r\nX: 1\r\nY: 2\r\nbody without a blank line\r\n--b--",
                       "empty line"),
             "refused");
    //  Malformed header lines.
    T_EQ_STR(
        S_REFUSED(ct, "--b\r\nno colon here\r\n\r\nx\r\n--b--", "malformed header line"),
        "refused");
    T_EQ_STR(S_REFUSED(ct, "--b\r\nX : 1\r\n\r\nx\r\n--b--", "malformed header line"),
             "refused");
    T_EQ_STR(S_REFUSED(ct, "--b\r\n folded: first\r\n\r\nx\r\n--b--", "continuation"),
             "refused");
    T_EQ_STR(S_REFUSED(ct, "--b\r\nX: a\nb\r\n\r\nx\r\n--b--", "control character"),
             "refused");
    T_EQ_STR(S_REFUSED(ct, "--b\r\nX: a\0b\r\n\r\nx\r\n--b--", "control character"),
             "refused");
    T_EQ_STR(S_REFUSED(ct, "--b\r\nX: a\rb\r\n\r\nx\r\n--b--", "control character"),
             "refused");
    T_EQ_STR(
        S_REFUSED(ct, "--b\r\nContent-Type: a\bb\r\n\r\nx\r\n--b--", "control character"),
        "refused");
    T_EQ_STR(S_REFUSED(ct,
                       "--b\r\nContent-Disposition: form-data\r\n"
                       "content-disposition: form-data\r\n\r\nx\r\n--b--",
                       "duplicate Content-Disposition"),
             "refused");
    T_EQ_STR(S_REFUSED(ct, "--b\r\nContent-Type: a\r\nCONTENT-TYPE: b\r\n\r\nx\r\n--b--",
                       "duplicate Content-Type"),
             "refused");
    //  Bad Content-Disposition values, each naming the part.
    T_EQ_STR(S_REFUSED(ct,
                       "--b\r\n\r\nok\r\n--b\r\nContent-Disposition: form-data; "
                       "name=\"src\r\n\r\nx\r\n--b--",
                       "part 2: unterminated"),
             "refused");
    T_EQ_STR(S_REFUSED(ct, "--b\r\nContent-Disposition: ; name=a\r\n\r\nx\r\n--b--",
                       "bad Content-Disposition type"),
             "refused");
    T_EQ_STR(S_REFUSED(ct, "--b\r\nContent-Disposition: form data\r\n\r\nx\r\n--b--",
                       "bad Content-Disposition type"),
             "refused");
    T_EQ_STR(S_REFUSED(
                 ct, "--b\r\nContent-Disposition: form-data; name=a; name=b\r\n\r\n--b--",
                 "duplicate parameter"),
             "refused");
    T_EQ_STR(
        S_REFUSED(ct,
                  "--b\r\nContent-Disposition: form-data; filename=\"\xff.txt\"\r\n\r\n"
                  "x\r\n--b--",
                  "not valid UTF-8"),
        "refused");
    T_EQ_STR(
        S_REFUSED(ct,
                  "--b\r\nContent-Disposition: form-data; filename*=koi8-r''x\r\n\r\n"
                  "x\r\n--b--",
                  "unsupported charset"),
        "refused");
    T_EQ_STR(
        S_REFUSED(ct,
                  "--b\r\nContent-Disposition: form-data; filename*=utf-8''a%2\r\n\r\n"
                  "x\r\n--b--",
                  "bad percent escape"),
        "refused");
    T_EQ_STR(
        S_REFUSED(ct,
                  "--b\r\nContent-Disposition: form-data; filename*=utf-8''a%00\r\n\r\n"
                  "x\r\n--b--",
                  "NUL byte"),
        "refused");
    T_EQ_STR(
        S_REFUSED(ct,
                  "--b\r\nContent-Disposition: form-data; filename*=utf-8''%C0%AF\r\n\r\n"
                  "x\r\n--b--",
                  "not valid UTF-8"),
        "refused");
    T_EQ_STR(
        S_REFUSED(ct,
                  "--b\r\nContent-Disposition: form-data; filename*=us-ascii''%E9\r\n\r\n"
                  "x\r\n--b--",
                  "non-ASCII"),
        "refused");
    T_EQ_STR(S_REFUSED(ct,
                       "--b\r\nContent-Disposition: form-data; filename*=a.txt\r\n\r\n"
                       "x\r\n--b--",
                       "charset'language'"),
             "refused");
    //  A delimiter line followed by other bytes: the boundary in the data.
    T_EQ_STR(S_REFUSED(ct, "--b\r\n\r\nx\r\n--bad idea\r\n--b--", "line 2 is followed"),
             "refused");
}

//  Headers of 8192 bytes pass, 8193 do not; 64 parts pass, 65 do not.
static void
test_limits(void)
{
    const char *ct = "multipart/form-data; boundary=b";
    size_t room = GW_MULTIPART_MAX_HEADER * 2 + 64 * 16;
    char *body = malloc(room);
    T_ASSERT(body);
    for (int extra = 0; extra < 2; extra++) {
        //  "X: " + filler + CRLF = GW_MULTIPART_MAX_HEADER + extra bytes.
        size_t filler = GW_MULTIPART_MAX_HEADER - 5 + (size_t) extra;
        size_t n = (size_t) sprintf(body, "--b\r\nX: ");
        memset(body + n, 'h', filler);
        n += filler;
        n += (size_t) sprintf(body + n, "\r\n\r\ndata\r\n--b--");
        gw_multipart_part_t *parts = NULL;
        size_t count = 0;
        bus_error_t err = {0};
        int rc = gw_multipart_parse(ct, (const uint8_t *) body, n, &parts, &count, &err);
        if (extra == 0) {
            T_EQ_INT(rc, 0);
            T_ASSERT(s_data_is(&parts[0], "data"));
            gw_multipart_parts_destroy(&parts, count);
        } else
            T_EQ_STR(s_refused(ct, (const uint8_t *) body, n, "longer than 8192"),
                     "refused");
    }
    //  Headers too long and never ending: refused without scanning on.
    size_t n = (size_t) sprintf(body, "--b\r\nX: ");
    memset(body + n, 'h', GW_MULTIPART_MAX_HEADER + 100);
    n += GW_MULTIPART_MAX_HEADER + 100;
    n += (size_t) sprintf(body + n, "\r\n--b--");
    T_EQ_STR(s_refused(ct, (const uint8_t *) body, n, "longer than 8192"), "refused");

    for (int parts_wanted = GW_MULTIPART_MAX_PARTS;
         parts_wanted <= GW_MULTIPART_MAX_PARTS + 1; parts_wanted++) {
        n = 0;
        for (int i = 0; i < parts_wanted; i++)
            n += (size_t) sprintf(body + n, "--b\r\n\r\n%d\r\n", i);
        n += (size_t) sprintf(body + n, "--b--\r\n");
        gw_multipart_part_t *parts = NULL;
        size_t count = 0;
        bus_error_t err = {0};
        int rc = gw_multipart_parse(ct, (const uint8_t *) body, n, &parts, &count, &err);
        if (parts_wanted == GW_MULTIPART_MAX_PARTS) {
            T_EQ_INT(rc, 0);
            T_EQ_INT(count, GW_MULTIPART_MAX_PARTS);
            T_ASSERT(s_data_is(&parts[63], "63"));
            gw_multipart_parts_destroy(&parts, count);
        } else
            T_EQ_STR(s_refused(ct, (const uint8_t *) body, n, "more than 64 parts"),
                     "refused");
    }
    free(body);
}

static void
test_percent_decode(void)
{
    char *s = gw_multipart_percent_decode("a%2Fb%2fc.txt");
    T_EQ_STR(s, "a/b/c.txt");
    free(s);
    s = gw_multipart_percent_decode("");
    T_EQ_STR(s, "");
    free(s);
    s = gw_multipart_percent_decode("100%25 %ED%95%9C");
    T_EQ_STR(s, "100% \xed\x95\x9c");
    free(s);
    T_ASSERT(gw_multipart_percent_decode("%") == NULL);
    T_ASSERT(gw_multipart_percent_decode("a%4") == NULL);
    T_ASSERT(gw_multipart_percent_decode("%zz") == NULL);
    T_ASSERT(gw_multipart_percent_decode("a%00b") == NULL);
    T_ASSERT(gw_multipart_percent_decode("%ff") == NULL);
    T_ASSERT(gw_multipart_percent_decode("%ED%A0%80") == NULL); //  a surrogate
}

int
main(void)
{
    T_RUN(test_aiohttp_upload);
    T_RUN(test_filename_star);
    T_RUN(test_quoted_boundary);
    T_RUN(test_empty_parts);
    T_RUN(test_binary_payload);
    T_RUN(test_roundtrip_mixed);
    T_RUN(test_roundtrip_form_data);
    T_RUN(test_writer_refuses);
    T_RUN(test_bad_content_type);
    T_RUN(test_bad_body);
    T_RUN(test_limits);
    T_RUN(test_percent_decode);
    return T_DONE();
}
