/*  =========================================================================
    fuzz_multipart - libFuzzer target for the gateway's multipart parser

    The input's first line (up to LF, a CR before it dropped, cut at a NUL
    as a header value would be) is the request's Content-Type; the rest is
    the body, copied into a buffer of exactly its size so that a read past
    either end is caught. A refusal must be BUS_STATUS_INVALID with a
    detail and no parts left behind. An accepted body must give at most
    GW_MULTIPART_MAX_PARTS parts whose data lies inside the body and whose
    names and filenames are valid UTF-8; the parts are then written again
    as form-data and parsed back, and must come back the same. Any broken
    promise aborts, so the fuzzer reports it like a crash.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "../../services/gateway/gw_multipart.h"

#define S_MAX_INPUT (1024 * 1024)

static void
s_check(bool condition)
{
    if (!condition)
        abort();
}

static bool
s_same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

//  Writes the parts again and parses the result; true if it all matches.
//  Parts the writer refuses (control characters) skip the check.
static void
s_roundtrip(const gw_multipart_part_t *parts, size_t count)
{
    gw_multipart_writer_t *writer = gw_multipart_writer_new("form-data");
    s_check(writer != NULL);
    for (size_t i = 0; i < count; i++)
        if (gw_multipart_writer_add(writer, parts[i].name, parts[i].filename,
                                    parts[i].content_type, parts[i].data,
                                    parts[i].size) != 0) {
            gw_multipart_writer_destroy(&writer);
            return;
        }
    uint8_t *body = NULL;
    size_t size = 0;
    s_check(gw_multipart_writer_finish(writer, &body, &size) == 0);
    gw_multipart_part_t *again = NULL;
    size_t again_count = 0;
    bus_error_t err;
    s_check(gw_multipart_parse(gw_multipart_writer_content_type(writer), body, size,
                               &again, &again_count, &err) == 0);
    s_check(again_count == count);
    for (size_t i = 0; i < count; i++) {
        s_check(s_same(again[i].name, parts[i].name));
        s_check(s_same(again[i].filename, parts[i].filename));
        s_check(!parts[i].content_type ||
                s_same(again[i].content_type, parts[i].content_type));
        s_check(again[i].size == parts[i].size);
        s_check(parts[i].size == 0 ||
                memcmp(again[i].data, parts[i].data, parts[i].size) == 0);
    }
    gw_multipart_parts_destroy(&again, again_count);
    free(body);
    gw_multipart_writer_destroy(&writer);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > S_MAX_INPUT)
        return 0;
    const uint8_t *newline = memchr(data, '\n', size);
    size_t line = newline ? (size_t) (newline - data) : size;
    size_t rest = newline ? size - line - 1 : 0;
    char *content_type = malloc(line + 1);
    s_check(content_type != NULL);
    memcpy(content_type, data, line);
    content_type[line] = '\0';
    if (line && content_type[line - 1] == '\r')
        content_type[line - 1] = '\0';
    uint8_t *body = rest ? malloc(rest) : NULL;
    s_check(rest == 0 || body != NULL);
    if (rest)
        memcpy(body, newline + 1, rest);

    gw_multipart_part_t *parts = NULL;
    size_t count = 0;
    bus_error_t err;
    memset(&err, 0, sizeof err);
    if (gw_multipart_parse(content_type, body, rest, &parts, &count, &err) != 0) {
        s_check(err.status == BUS_STATUS_INVALID || err.status == BUS_STATUS_INTERNAL);
        s_check(err.detail[0] != '\0');
        s_check(strlen(err.detail) < sizeof err.detail);
        s_check(parts == NULL && count == 0);
    } else {
        s_check(count <= GW_MULTIPART_MAX_PARTS);
        s_check((count == 0) == (parts == NULL));
        for (size_t i = 0; i < count; i++) {
            const gw_multipart_part_t *part = &parts[i];
            s_check(part->size == 0 ||
                    (part->data >= body && part->size <= rest &&
                     (size_t) (part->data - body) <= rest - part->size));
            json_t *text = json_string(part->name ? part->name : "");
            s_check(text != NULL); //  jansson accepts only valid UTF-8
            json_decref(text);
            text = json_string(part->filename ? part->filename : "");
            s_check(text != NULL);
            json_decref(text);
            if (part->filename) {
                char *decoded = gw_multipart_percent_decode(part->filename);
                s_check(!decoded || strlen(decoded) <= strlen(part->filename));
                free(decoded);
            }
        }
        s_roundtrip(parts, count);
        gw_multipart_parts_destroy(&parts, count);
        s_check(parts == NULL);
    }
    free(body);
    free(content_type);
    return 0;
}
