/*  =========================================================================
    gw_websocket_test - unit tests for gw_websocket

    The handshake answer of RFC 6455 §1.3 and refused keys; server frame
    headers at every length boundary; close payloads cut at a character
    boundary; the UTF-8 check. The reader is fed masked client frames made
    here, whole, byte by byte and in odd chunks: single-frame and fragmented
    messages with control frames in between, close frames, and every
    violation it must refuse with its close code, including sizes it must
    refuse from the header alone. After a refusal the reader must keep
    answering the same code.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include "t.h"

#define FIN  0x80
#define RSV1 0x40
#define RSV2 0x20
#define RSV3 0x10

//  ---- client frames ------------------------------------------------------

//  Writes a masked client frame header announcing size bytes; width 0 takes
//  the minimal length encoding, 1, 2 or 8 force 7-bit, 16-bit or 64-bit
//  lengths. Returns the header's length; the mask is at out[length - 4].
static size_t
s_client_header(uint8_t *out, uint8_t first, uint64_t size, int width, bool masked)
{
    if (width == 0)
        width = size < 126 ? 1 : size <= 0xFFFF ? 2 : 8;
    size_t length = 0;
    out[length++] = first;
    uint8_t mask_bit = masked ? 0x80 : 0;
    if (width == 1)
        out[length++] = (uint8_t) (mask_bit | size);
    else if (width == 2) {
        out[length++] = mask_bit | 126;
        out[length++] = (uint8_t) (size >> 8);
        out[length++] = (uint8_t) size;
    } else {
        out[length++] = mask_bit | 127;
        for (int i = 0; i < 8; i++)
            out[length++] = (uint8_t) (size >> (56 - 8 * i));
    }
    if (masked) {
        static uint8_t seed = 0x37;
        for (int i = 0; i < 4; i++)
            out[length++] = seed = (uint8_t) (seed * 73 + 41);
    }
    return length;
}

//  Writes a whole client frame (header, then payload masked) into out;
//  returns its length. out must hold GW_WS_HEADER_MAX + size bytes.
static size_t
s_frame_as(uint8_t *out, uint8_t first, const void *payload, size_t size, int width)
{
    size_t length = s_client_header(out, first, size, width, true);
    const uint8_t *mask = out + length - 4;
    const uint8_t *bytes = payload;
    for (size_t i = 0; i < size; i++)
        out[length + i] = bytes[i] ^ mask[i & 3];
    return length + size;
}

static size_t
s_frame(uint8_t *out, uint8_t first, const void *payload, size_t size)
{
    return s_frame_as(out, first, payload, size, 0);
}

//  A frame whose payload is a C string.
static size_t
s_frame_str(uint8_t *out, uint8_t first, const char *text)
{
    return s_frame(out, first, text, strlen(text));
}

//  ---- what the reader delivers --------------------------------------------

typedef struct {
    char log[2048]; //  "text:Hello|ping:|close:1000 bye|binary(3)|"
    int count;
    int stop_after; //  the callback returns false on this message (1-based); 0 never
    uint8_t *last;  //  a copy of the last message's bytes
    size_t last_size;
    gw_ws_opcode_t last_opcode;
} sink_t;

static bool
s_collect(void *arg, gw_ws_opcode_t opcode, const uint8_t *data, size_t size)
{
    sink_t *sink = arg;
    sink->count++;
    free(sink->last);
    sink->last = malloc(size ? size : 1);
    if (sink->last && size)
        memcpy(sink->last, data, size);
    sink->last_size = size;
    sink->last_opcode = opcode;
    size_t used = strlen(sink->log);
    char *end = sink->log + used;
    size_t room = sizeof sink->log - used;
    if (opcode == GW_WS_TEXT || opcode == GW_WS_PING || opcode == GW_WS_PONG) {
        const char *name = opcode == GW_WS_TEXT   ? "text"
                           : opcode == GW_WS_PING ? "ping"
                                                  : "pong";
        if (size <= 64)
            snprintf(end, room, "%s:%.*s|", name, (int) size, (const char *) data);
        else
            snprintf(end, room, "%s(%zu)|", name, size);
    } else if (opcode == GW_WS_CLOSE) {
        if (size >= 2)
            snprintf(end, room, "close:%d %.*s|", data[0] << 8 | data[1], (int) size - 2,
                     (const char *) data + 2);
        else
            snprintf(end, room, "close:|");
    } else
        snprintf(end, room, "binary(%zu)|", size);
    return sink->count != sink->stop_after;
}

static void
s_sink_clear(sink_t *sink)
{
    free(sink->last);
    memset(sink, 0, sizeof *sink);
}

//  Feeds stream[0..size) to a fresh reader in one call; returns the code and
//  fills sink. Checks that a refused reader keeps refusing with that code.
static int
s_read_all(const uint8_t *stream, size_t size, size_t max_message, sink_t *sink)
{
    gw_ws_reader_t *reader = gw_ws_reader_new(max_message);
    if (!reader)
        return -1;
    int rc = gw_ws_reader_feed(reader, stream, size, s_collect, sink);
    if (rc != 0) {
        int count = sink->count;
        uint8_t ping[GW_WS_HEADER_MAX + 1];
        size_t length = s_frame_str(ping, FIN | GW_WS_PING, "x");
        if (gw_ws_reader_feed(reader, ping, length, s_collect, sink) != rc ||
            gw_ws_reader_feed(reader, NULL, 0, s_collect, sink) != rc ||
            gw_ws_reader_feed(reader, stream, size, s_collect, sink) != rc ||
            sink->count != count)
            rc = -2;
    }
    gw_ws_reader_destroy(&reader);
    return rc;
}

//  The same in chunks of the sizes in steps (repeated); 0 means one byte.
static int
s_read_chunked(const uint8_t *stream,
               size_t size,
               size_t max_message,
               const size_t *steps,
               size_t step_count,
               sink_t *sink)
{
    gw_ws_reader_t *reader = gw_ws_reader_new(max_message);
    if (!reader)
        return -1;
    int rc = 0;
    size_t at = 0, step = 0;
    while (at < size && rc == 0) {
        size_t chunk = steps[step++ % step_count];
        if (chunk == 0)
            chunk = 1;
        if (chunk > size - at)
            chunk = size - at;
        rc = gw_ws_reader_feed(reader, stream + at, chunk, s_collect, sink);
        at += chunk;
    }
    gw_ws_reader_destroy(&reader);
    return rc;
}

//  ---- handshake and server frames -----------------------------------------

static void
test_accept_key(void)
{
    char accept[GW_WS_ACCEPT_SIZE];
    T_ASSERT(gw_ws_accept_key("dGhlIHNhbXBsZSBub25jZQ==", accept));
    T_EQ_STR(accept, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    T_EQ_INT(strlen(accept), GW_WS_ACCEPT_SIZE - 1);
    //  Another 16-byte key: all zero bytes.
    T_ASSERT(gw_ws_accept_key("AAAAAAAAAAAAAAAAAAAAAA==", accept));
    T_EQ_INT(strlen(accept), 28);

    const char *bad[] = {
        "",
        "dGhlIHNhbXBsZSBub25jZQ=",   //  23 characters
        "dGhlIHNhbXBsZSBub25jZQ===", //  25
        "dGhlIHNhbXBsZSBub25jZQ",    //  no padding
        "dGhlIHNhbXBsZSBub25jZQAA",  //  24, but 18 bytes, not 16
        "dGhlIHNhbXBsZSBub25jZ===",  //  '=' too early
        "dGhlIHNhbXBsZSBub25j*Q==",  //  not base64
        "dGhlIHNhbXBsZSBub25j Q==",
        "dGhlIHNhbXBsZSBub25jZQ==\r\n",
        " dGhlIHNhbXBsZSBub25jZQ==",
        "dGhlIHNhbXBsZSBub25jZQ=x",
        "dGhlIHNhbXBsZSBub25jZQ\xc3\xa9",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (gw_ws_accept_key(bad[i], accept))
            T_FAIL_("key %zu \"%s\" accepted", i, bad[i]);
    }
    T_ASSERT(!gw_ws_accept_key(NULL, accept));
}

static void
test_frame_header(void)
{
    uint8_t out[GW_WS_HEADER_MAX];
    T_EQ_INT(gw_ws_frame_header(out, GW_WS_TEXT, 0), 2);
    T_ASSERT(out[0] == 0x81 && out[1] == 0);
    T_EQ_INT(gw_ws_frame_header(out, GW_WS_BINARY, 125), 2);
    T_ASSERT(out[0] == 0x82 && out[1] == 125);
    T_EQ_INT(gw_ws_frame_header(out, GW_WS_TEXT, 126), 4);
    T_ASSERT(out[1] == 126 && out[2] == 0 && out[3] == 126);
    T_EQ_INT(gw_ws_frame_header(out, GW_WS_TEXT, 65535), 4);
    T_ASSERT(out[1] == 126 && out[2] == 0xFF && out[3] == 0xFF);
    T_EQ_INT(gw_ws_frame_header(out, GW_WS_BINARY, 65536), 10);
    const uint8_t big[] = {0x82, 127, 0, 0, 0, 0, 0, 1, 0, 0};
    T_ASSERT(memcmp(out, big, sizeof big) == 0);
    T_EQ_INT(gw_ws_frame_header(out, GW_WS_BINARY, 0x0123456789ABCDEFull), 10);
    const uint8_t huge[] = {0x82, 127, 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF};
    T_ASSERT(memcmp(out, huge, sizeof huge) == 0);
    T_EQ_INT(gw_ws_frame_header(out, GW_WS_CLOSE, 2), 2);
    T_ASSERT(out[0] == 0x88 && out[1] == 2);
    T_EQ_INT(gw_ws_frame_header(out, GW_WS_PING, 0), 2);
    T_EQ_INT(out[0], 0x89);
    T_EQ_INT(gw_ws_frame_header(out, GW_WS_PONG, 1), 2);
    T_EQ_INT(out[0], 0x8A);
}

static void
test_close_payload(void)
{
    uint8_t out[GW_WS_CONTROL_MAX];
    T_EQ_INT(gw_ws_close_payload(out, GW_WS_CLOSE_NORMAL, "bye"), 5);
    T_ASSERT(out[0] == 0x03 && out[1] == 0xE8 && memcmp(out + 2, "bye", 3) == 0);
    T_EQ_INT(gw_ws_close_payload(out, GW_WS_CLOSE_TOO_BIG, NULL), 2);
    T_ASSERT(out[0] == 0x03 && out[1] == 0xF1);
    T_EQ_INT(gw_ws_close_payload(out, 4000, ""), 2);
    T_ASSERT(out[0] == 0x0F && out[1] == 0xA0);

    char reason[300];
    memset(reason, 'a', 200);
    reason[200] = '\0';
    T_EQ_INT(gw_ws_close_payload(out, GW_WS_CLOSE_NORMAL, reason), GW_WS_CONTROL_MAX);
    //  122 ASCII then a 2-byte character across the 123-byte limit: dropped whole.
    memset(reason, 'a', 122);
    strcpy(reason + 122, "\xc3\xa9zz");
    size_t size = gw_ws_close_payload(out, GW_WS_CLOSE_NORMAL, reason);
    T_EQ_INT(size, 2 + 122);
    T_ASSERT(gw_ws_utf8_valid(out + 2, size - 2));
    //  A 4-byte character that would fit to the byte stays.
    memset(reason, 'a', 119);
    strcpy(reason + 119, "\xf0\x9f\x98\x80zz");
    size = gw_ws_close_payload(out, GW_WS_CLOSE_NORMAL, reason);
    T_EQ_INT(size, GW_WS_CONTROL_MAX);
    T_ASSERT(gw_ws_utf8_valid(out + 2, size - 2));
    //  ... and one byte later it goes.
    memset(reason, 'a', 120);
    strcpy(reason + 120, "\xf0\x9f\x98\x80zz");
    size = gw_ws_close_payload(out, GW_WS_CLOSE_NORMAL, reason);
    T_EQ_INT(size, 2 + 120);
    T_ASSERT(gw_ws_utf8_valid(out + 2, size - 2));
}

static void
test_utf8(void)
{
    const char *good[] = {"",
                          "plain ascii",
                          "caf\xc3\xa9",
                          "\xe2\x82\xac",
                          "\xf0\x9f\x98\x80",
                          "\xef\xbf\xbf",
                          "\xf4\x8f\xbf\xbf",
                          "\xed\x9f\xbf",
                          "\xee\x80\x80"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        if (!gw_ws_utf8_valid((const uint8_t *) good[i], strlen(good[i])))
            T_FAIL_("good %zu refused", i);
    }
    const char *bad[] = {
        "\x80",             //  a lone continuation
        "\xbf",             //
        "\xc0\x80",         //  overlong NUL
        "\xc1\xbf",         //  overlong
        "\xe0\x80\x80",     //  overlong
        "\xe0\x9f\xbf",     //  overlong
        "\xf0\x80\x80\x80", //  overlong
        "\xf0\x8f\xbf\xbf", //  overlong
        "\xed\xa0\x80",     //  surrogate D800
        "\xed\xbf\xbf",     //  surrogate DFFF
        "\xf4\x90\x80\x80", //  above 10FFFF
        "\xf5\x80\x80\x80", //
        "\xf8\x88\x80\x80\x80",
        "\xfe",
        "\xff",
        "\xc3",         //  cut short
        "\xe2\x82",     //
        "\xf0\x9f\x98", //
        "a\xc3(",       //  a continuation missing
        "\xe2(\xac",    //
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (gw_ws_utf8_valid((const uint8_t *) bad[i], strlen(bad[i])))
            T_FAIL_("bad %zu accepted", i);
    }
    //  A NUL byte is a valid character.
    T_ASSERT(gw_ws_utf8_valid((const uint8_t *) "a\0b", 3));
}

//  ---- the reader ----------------------------------------------------------

static void
test_reader_rfc_example(void)
{
    //  RFC 6455 §5.7: a single-frame masked text message "Hello".
    const uint8_t hello[] = {0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d,
                             0x7f, 0x9f, 0x4d, 0x51, 0x58};
    sink_t sink = {0};
    T_EQ_INT(s_read_all(hello, sizeof hello, 1024, &sink), 0);
    T_EQ_STR(sink.log, "text:Hello|");
    T_EQ_INT(sink.count, 1);
    //  A fragmented unmasked text message is refused: clients mask.
    const uint8_t unmasked[] = {0x01, 0x03, 0x48, 0x65, 0x6c};
    s_sink_clear(&sink);
    T_EQ_INT(s_read_all(unmasked, sizeof unmasked, 1024, &sink), GW_WS_CLOSE_PROTOCOL);
    T_EQ_INT(sink.count, 0);
    s_sink_clear(&sink);
}

static void
test_reader_text(void)
{
    uint8_t stream[512];
    size_t size = s_frame_str(stream, FIN | GW_WS_TEXT, "caf\xc3\xa9 \xf0\x9f\x98\x80");
    sink_t sink = {0};
    T_EQ_INT(s_read_all(stream, size, 1024, &sink), 0);
    T_EQ_STR(sink.log, "text:caf\xc3\xa9 \xf0\x9f\x98\x80|");
    T_EQ_INT(sink.last_opcode, GW_WS_TEXT);
    //  An empty text message.
    s_sink_clear(&sink);
    size = s_frame_str(stream, FIN | GW_WS_TEXT, "");
    T_EQ_INT(s_read_all(stream, size, 1024, &sink), 0);
    T_EQ_STR(sink.log, "text:|");
    T_EQ_INT(sink.last_size, 0);
    //  Several messages in one feed, in order.
    s_sink_clear(&sink);
    size = s_frame_str(stream, FIN | GW_WS_TEXT, "one");
    size += s_frame_str(stream + size, FIN | GW_WS_TEXT, "two");
    size += s_frame_str(stream + size, FIN | GW_WS_PONG, "p");
    size += s_frame_str(stream + size, FIN | GW_WS_TEXT, "three");
    T_EQ_INT(s_read_all(stream, size, 1024, &sink), 0);
    T_EQ_STR(sink.log, "text:one|text:two|pong:p|text:three|");
    s_sink_clear(&sink);
}

//  A stream with one of everything, for feeding in pieces.
static size_t
s_mixed_stream(uint8_t *stream, uint8_t *binary, size_t binary_size)
{
    for (size_t i = 0; i < binary_size; i++)
        binary[i] = (uint8_t) (i * 7 + 3);
    size_t size = s_frame_str(stream, FIN | GW_WS_TEXT, "Hello");
    size += s_frame(stream + size, FIN | GW_WS_BINARY, binary, binary_size);
    size += s_frame_str(stream + size, GW_WS_TEXT, "frag");
    size += s_frame_str(stream + size, FIN | GW_WS_PING, "are you there");
    size += s_frame_str(stream + size, GW_WS_CONTINUATION, "ment\xc3");
    size += s_frame_str(stream + size, FIN | GW_WS_CONTINUATION, "\xa9");
    size += s_frame(stream + size, FIN | GW_WS_PONG, "", 0);
    size += s_frame(stream + size, FIN | GW_WS_BINARY, binary, 126);
    size += s_frame(stream + size, FIN | GW_WS_CLOSE, "\x03\xe8", 2);
    return size;
}

#define MIXED_LOG                                                                        \
    "text:Hello|binary(300)|ping:are you there|text:fragment\xc3\xa9|pong:|binary(126)|" \
    "close:1000 |"

static void
test_reader_byte_by_byte(void)
{
    uint8_t stream[1024], binary[300];
    size_t size = s_mixed_stream(stream, binary, sizeof binary);
    sink_t whole = {0};
    T_EQ_INT(s_read_all(stream, size, 4096, &whole), 0);
    T_EQ_STR(whole.log, MIXED_LOG);

    const size_t one[] = {1};
    sink_t bytes = {0};
    T_EQ_INT(s_read_chunked(stream, size, 4096, one, 1, &bytes), 0);
    T_EQ_STR(bytes.log, MIXED_LOG);

    const size_t odd[] = {3, 1, 7, 2, 64, 5, 13, 200, 1, 11};
    sink_t chunks = {0};
    T_EQ_INT(s_read_chunked(stream, size, 4096, odd, 10, &chunks), 0);
    T_EQ_STR(chunks.log, MIXED_LOG);
    s_sink_clear(&whole);
    s_sink_clear(&bytes);
    s_sink_clear(&chunks);

    //  Every split of the stream in two gives the same messages.
    for (size_t cut = 0; cut <= size; cut++) {
        gw_ws_reader_t *reader = gw_ws_reader_new(4096);
        T_ASSERT(reader);
        sink_t sink = {0};
        int rc = gw_ws_reader_feed(reader, stream, cut, s_collect, &sink);
        if (rc == 0)
            rc = gw_ws_reader_feed(reader, stream + cut, size - cut, s_collect, &sink);
        gw_ws_reader_destroy(&reader);
        bool same = rc == 0 && strcmp(sink.log, MIXED_LOG) == 0;
        s_sink_clear(&sink);
        if (!same)
            T_FAIL_("split at %zu: rc %d", cut, rc);
    }
}

static void
test_reader_fragmented(void)
{
    //  A text message in three fragments with a ping between: the ping comes
    //  first, then the whole text; a character split across fragments is fine.
    uint8_t stream[512];
    size_t size = s_frame_str(stream, GW_WS_TEXT, "Hel");
    size += s_frame_str(stream + size, FIN | GW_WS_PING, "ping!");
    size += s_frame_str(stream + size, GW_WS_CONTINUATION, "lo w\xc3");
    size += s_frame_str(stream + size, FIN | GW_WS_CONTINUATION, "\xb6rld");
    sink_t sink = {0};
    T_EQ_INT(s_read_all(stream, size, 1024, &sink), 0);
    T_EQ_STR(sink.log, "ping:ping!|text:Hello w\xc3\xb6rld|");
    T_EQ_INT(sink.last_opcode, GW_WS_TEXT);
    T_EQ_INT(sink.last_size, 12);

    //  Empty fragments, and a binary message right after.
    s_sink_clear(&sink);
    size = s_frame_str(stream, GW_WS_TEXT, "");
    size += s_frame_str(stream + size, GW_WS_CONTINUATION, "");
    size += s_frame_str(stream + size, FIN | GW_WS_CONTINUATION, "");
    size += s_frame(stream + size, GW_WS_BINARY, "\0\1", 2);
    size += s_frame(stream + size, FIN | GW_WS_CLOSE, "", 0);
    size += s_frame(stream + size, FIN | GW_WS_CONTINUATION, "\2", 1);
    T_EQ_INT(s_read_all(stream, size, 1024, &sink), 0);
    T_EQ_STR(sink.log, "text:|close:|binary(3)|");
    T_EQ_INT(sink.last_opcode, GW_WS_BINARY);
    T_ASSERT(sink.last_size == 3 && memcmp(sink.last, "\0\1\2", 3) == 0);
    s_sink_clear(&sink);
}

static void
test_reader_binary(void)
{
    //  Each length encoding: 7-bit, 16-bit and 64-bit, with every byte value.
    size_t sizes[] = {0, 1, 125, 126, 65535, 65536, 70000};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        uint8_t *payload = malloc(n + 1);
        uint8_t *stream = malloc(n + GW_WS_HEADER_MAX);
        T_ASSERT(payload && stream);
        for (size_t i = 0; i < n; i++)
            payload[i] = (uint8_t) (i ^ (i >> 8));
        size_t size = s_frame(stream, FIN | GW_WS_BINARY, payload, n);
        sink_t sink = {0};
        int rc = s_read_all(stream, size, 1 << 20, &sink);
        bool ok = rc == 0 && sink.count == 1 && sink.last_opcode == GW_WS_BINARY &&
                  sink.last_size == n && (n == 0 || memcmp(sink.last, payload, n) == 0);
        //  The same in 1000-byte pieces.
        s_sink_clear(&sink);
        const size_t step[] = {1000};
        rc = s_read_chunked(stream, size, 1 << 20, step, 1, &sink);
        ok = ok && rc == 0 && sink.count == 1 && sink.last_size == n &&
             (n == 0 || memcmp(sink.last, payload, n) == 0);
        s_sink_clear(&sink);
        free(payload);
        free(stream);
        if (!ok)
            T_FAIL_("binary of %zu bytes", n);
    }
    //  A message of exactly max_message bytes passes, in one frame or several.
    uint8_t payload[100], stream[200];
    memset(payload, 'x', sizeof payload);
    size_t size = s_frame(stream, FIN | GW_WS_BINARY, payload, 100);
    sink_t sink = {0};
    T_EQ_INT(s_read_all(stream, size, 100, &sink), 0);
    T_EQ_STR(sink.log, "binary(100)|");
    s_sink_clear(&sink);
    size = s_frame(stream, GW_WS_BINARY, payload, 60);
    size += s_frame(stream + size, FIN | GW_WS_CONTINUATION, payload, 40);
    T_EQ_INT(s_read_all(stream, size, 100, &sink), 0);
    T_EQ_STR(sink.log, "binary(100)|");
    s_sink_clear(&sink);
}

static void
test_reader_close(void)
{
    uint8_t stream[256];
    sink_t sink = {0};
    size_t size = s_frame(stream, FIN | GW_WS_CLOSE,
                          "\x03\xe8"
                          "bye",
                          5);
    T_EQ_INT(s_read_all(stream, size, 1024, &sink), 0);
    T_EQ_STR(sink.log, "close:1000 bye|");
    T_EQ_INT(sink.last_opcode, GW_WS_CLOSE);
    T_EQ_INT(sink.last_size, 5);

    //  The codes a peer may send.
    const int allowed[] = {1000, 1001, 1002, 1003, 1007, 1008, 1009,
                           1010, 1011, 3000, 3999, 4000, 4999};
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++) {
        uint8_t code[2] = {(uint8_t) (allowed[i] >> 8), (uint8_t) allowed[i]};
        size = s_frame(stream, FIN | GW_WS_CLOSE, code, 2);
        s_sink_clear(&sink);
        if (s_read_all(stream, size, 1024, &sink) != 0 || sink.count != 1)
            T_FAIL_("close code %d refused", allowed[i]);
    }
    //  Reserved, never-sent or out of range codes.
    const int refused[] = {0,    999,  1004, 1005, 1006, 1012,
                           1015, 1016, 2000, 2999, 5000, 65535};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        uint8_t code[2] = {(uint8_t) (refused[i] >> 8), (uint8_t) refused[i]};
        size = s_frame(stream, FIN | GW_WS_CLOSE, code, 2);
        s_sink_clear(&sink);
        if (s_read_all(stream, size, 1024, &sink) != GW_WS_CLOSE_PROTOCOL ||
            sink.count != 0)
            T_FAIL_("close code %d accepted", refused[i]);
    }
    //  One byte of payload; a reason that is not UTF-8; a 125-byte one is fine.
    s_sink_clear(&sink);
    size = s_frame(stream, FIN | GW_WS_CLOSE, "\x03", 1);
    T_EQ_INT(s_read_all(stream, size, 1024, &sink), GW_WS_CLOSE_PROTOCOL);
    //  ... even when the next byte would make it 1000.
    stream[size++] = 0xE8;
    T_EQ_INT(s_read_all(stream, size, 1024, &sink), GW_WS_CLOSE_PROTOCOL);
    T_EQ_INT(sink.count, 0);
    size = s_frame(stream, FIN | GW_WS_CLOSE, "\x03\xe8\xc3(", 4);
    T_EQ_INT(s_read_all(stream, size, 1024, &sink), GW_WS_CLOSE_PROTOCOL);
    T_EQ_INT(sink.count, 0);
    uint8_t full[GW_WS_CONTROL_MAX];
    size_t full_size = gw_ws_close_payload(full, 4001,
                                           "a much longer reason "
                                           "a much longer reason "
                                           "a much longer reason "
                                           "a much longer reason "
                                           "a much longer reason "
                                           "a much longer reason ");
    T_EQ_INT(full_size, GW_WS_CONTROL_MAX);
    size = s_frame(stream, FIN | GW_WS_CLOSE, full, full_size);
    T_EQ_INT(s_read_all(stream, size, 1024, &sink), 0);
    T_EQ_INT(sink.count, 1);
    T_EQ_INT(sink.last_size, GW_WS_CONTROL_MAX);
    s_sink_clear(&sink);
}

//  Feeds stream to a fresh reader whole, then byte by byte: both must end
//  with code (0: all accepted) after delivering count messages, and a
//  refused reader must keep refusing.
static bool
s_refused(const uint8_t *stream, size_t size, size_t max_message, int code, int count)
{
    sink_t sink = {0};
    int rc = s_read_all(stream, size, max_message, &sink);
    bool ok = rc == code && sink.count == count;
    s_sink_clear(&sink);
    const size_t one[] = {1};
    rc = s_read_chunked(stream, size, max_message, one, 1, &sink);
    ok = ok && rc == code && sink.count == count;
    s_sink_clear(&sink);
    return ok;
}

#define T_REFUSED(stream, size, max, code, count)                                        \
    do {                                                                                 \
        if (!s_refused(stream, size, max, code, count))                                  \
            T_FAIL_("not refused with %d: %s", code, #stream);                           \
    } while (0)

static void
test_reader_refusals(void)
{
    uint8_t s[512];
    size_t n;

    //  A frame the client did not mask.
    n = s_client_header(s, FIN | GW_WS_TEXT, 2, 0, false);
    memcpy(s + n, "hi", 2);
    T_REFUSED(s, n + 2, 1024, GW_WS_CLOSE_PROTOCOL, 0);
    //  The same after a good message: that one still arrives.
    n = s_frame_str(s, FIN | GW_WS_TEXT, "ok");
    n += s_client_header(s + n, FIN | GW_WS_BINARY, 0, 0, false);
    T_REFUSED(s, n, 1024, GW_WS_CLOSE_PROTOCOL, 1);

    //  Reserved bits, on data and control frames.
    const uint8_t reserved[] = {RSV1, RSV2, RSV3, RSV1 | RSV2 | RSV3};
    for (size_t i = 0; i < sizeof reserved; i++) {
        n = s_frame_str(s, FIN | reserved[i] | GW_WS_TEXT, "x");
        T_REFUSED(s, n, 1024, GW_WS_CLOSE_PROTOCOL, 0);
        n = s_frame_str(s, FIN | reserved[i] | GW_WS_PING, "");
        T_REFUSED(s, n, 1024, GW_WS_CLOSE_PROTOCOL, 0);
    }
    //  Unknown opcodes.
    const uint8_t unknown[] = {3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF};
    for (size_t i = 0; i < sizeof unknown; i++) {
        n = s_frame_str(s, FIN | unknown[i], "x");
        T_REFUSED(s, n, 1024, GW_WS_CLOSE_PROTOCOL, 0);
    }
    //  Fragmented control frames.
    n = s_frame_str(s, GW_WS_PING, "x");
    T_REFUSED(s, n, 1024, GW_WS_CLOSE_PROTOCOL, 0);
    n = s_frame(s, GW_WS_CLOSE, "\x03\xe8", 2);
    T_REFUSED(s, n, 1024, GW_WS_CLOSE_PROTOCOL, 0);
    n = s_frame_str(s, GW_WS_PONG, "");
    T_REFUSED(s, n, 1024, GW_WS_CLOSE_PROTOCOL, 0);
    //  Control frames over 125 bytes, from the header alone.
    uint8_t big[200];
    memset(big, 'p', sizeof big);
    n = s_frame(s, FIN | GW_WS_PING, big, 126);
    T_REFUSED(s, n, 1024, GW_WS_CLOSE_PROTOCOL, 0);
    n = s_client_header(s, FIN | GW_WS_PONG, 126, 2, true);
    T_REFUSED(s, n, 1024, GW_WS_CLOSE_PROTOCOL, 0);
    n = s_client_header(s, FIN | GW_WS_CLOSE, 1 << 20, 8, true);
    T_REFUSED(s, n, 1024, GW_WS_CLOSE_PROTOCOL, 0);
    //  ... while 125 passes.
    n = s_frame(s, FIN | GW_WS_PING, big, 125);
    T_REFUSED(s, n, 1024, 0, 1);
    //  Lengths not in their minimal encoding.
    n = s_frame_as(s, FIN | GW_WS_TEXT, "hello", 5, 2);
    T_REFUSED(s, n, 1024, GW_WS_CLOSE_PROTOCOL, 0);
    n = s_frame_as(s, FIN | GW_WS_TEXT, big, 125, 2);
    T_REFUSED(s, n, 1024, GW_WS_CLOSE_PROTOCOL, 0);
    n = s_frame_as(s, FIN | GW_WS_TEXT, "hello", 5, 8);
    T_REFUSED(s, n, 1024, GW_WS_CLOSE_PROTOCOL, 0);
    n = s_frame_as(s, FIN | GW_WS_TEXT, big, 200, 8);
    T_REFUSED(s, n, 1024, GW_WS_CLOSE_PROTOCOL, 0);
    n = s_client_header(s, FIN | GW_WS_BINARY, 65535, 8, true);
    T_REFUSED(s, n, 1 << 20, GW_WS_CLOSE_PROTOCOL, 0);
    n = s_frame_as(s, FIN | GW_WS_PING, "", 0, 2);
    T_REFUSED(s, n, 1024, GW_WS_CLOSE_PROTOCOL, 0);
    //  ... while 126 in 16 bits passes.
    n = s_frame_as(s, FIN | GW_WS_TEXT, big, 126, 2);
    T_REFUSED(s, n, 1024, 0, 1);
    //  A continuation with no message started, and after one ended.
    n = s_frame_str(s, FIN | GW_WS_CONTINUATION, "x");
    T_REFUSED(s, n, 1024, GW_WS_CLOSE_PROTOCOL, 0);
    n = s_frame_str(s, GW_WS_CONTINUATION, "x");
    T_REFUSED(s, n, 1024, GW_WS_CLOSE_PROTOCOL, 0);
    n = s_frame_str(s, GW_WS_TEXT, "a");
    n += s_frame_str(s + n, FIN | GW_WS_CONTINUATION, "b");
    n += s_frame_str(s + n, FIN | GW_WS_CONTINUATION, "c");
    T_REFUSED(s, n, 1024, GW_WS_CLOSE_PROTOCOL, 1);
    //  A new message while one is fragmented, finished or not.
    n = s_frame_str(s, GW_WS_TEXT, "a");
    n += s_frame_str(s + n, FIN | GW_WS_TEXT, "b");
    T_REFUSED(s, n, 1024, GW_WS_CLOSE_PROTOCOL, 0);
    n = s_frame_str(s, GW_WS_BINARY, "a");
    n += s_frame_str(s + n, GW_WS_BINARY, "b");
    T_REFUSED(s, n, 1024, GW_WS_CLOSE_PROTOCOL, 0);
    n = s_frame_str(s, GW_WS_TEXT, "a");
    n += s_frame_str(s + n, FIN | GW_WS_PING, "still fine");
    n += s_frame_str(s + n, FIN | GW_WS_BINARY, "b");
    T_REFUSED(s, n, 1024, GW_WS_CLOSE_PROTOCOL, 1);
    //  Text that is not UTF-8: in one frame, across fragments, or cut short
    //  at the end of the last fragment.
    n = s_frame_str(s, FIN | GW_WS_TEXT, "caf\xe9");
    T_REFUSED(s, n, 1024, GW_WS_CLOSE_BAD_DATA, 0);
    n = s_frame_str(s, FIN | GW_WS_TEXT, "\xed\xa0\x80");
    T_REFUSED(s, n, 1024, GW_WS_CLOSE_BAD_DATA, 0);
    n = s_frame_str(s, GW_WS_TEXT, "ok \xc3");
    n += s_frame_str(s + n, FIN | GW_WS_CONTINUATION, "(");
    T_REFUSED(s, n, 1024, GW_WS_CLOSE_BAD_DATA, 0);
    n = s_frame_str(s, GW_WS_TEXT, "ok");
    n += s_frame_str(s + n, FIN | GW_WS_CONTINUATION, " \xe2\x82");
    T_REFUSED(s, n, 1024, GW_WS_CLOSE_BAD_DATA, 0);
    //  ... binary messages may hold anything.
    n = s_frame_str(s, FIN | GW_WS_BINARY, "caf\xe9");
    T_REFUSED(s, n, 1024, 0, 1);
    //  A ping's payload is not text either.
    n = s_frame_str(s, FIN | GW_WS_PING, "\xff");
    T_REFUSED(s, n, 1024, 0, 1);
}

static void
test_reader_too_big(void)
{
    uint8_t s[512], payload[300];
    memset(payload, 'z', sizeof payload);
    size_t n;
    //  One byte over, in one frame.
    n = s_frame(s, FIN | GW_WS_TEXT, payload, 101);
    T_REFUSED(s, n, 100, GW_WS_CLOSE_TOO_BIG, 0);
    //  The announced size alone, before any payload.
    n = s_client_header(s, FIN | GW_WS_BINARY, 101, 0, true);
    T_REFUSED(s, n, 100, GW_WS_CLOSE_TOO_BIG, 0);
    n = s_client_header(s, FIN | GW_WS_BINARY, 1 << 30, 0, true);
    T_REFUSED(s, n, 4096, GW_WS_CLOSE_TOO_BIG, 0);
    n = s_client_header(s, GW_WS_TEXT, 0x7FFFFFFFFFFFFFFFull, 8, true);
    T_REFUSED(s, n, 4096, GW_WS_CLOSE_TOO_BIG, 0);
    //  Over fragments: the second fragment's header tips it over.
    n = s_frame(s, GW_WS_TEXT, payload, 60);
    n += s_client_header(s + n, FIN | GW_WS_CONTINUATION, 41, 0, true);
    T_REFUSED(s, n, 100, GW_WS_CLOSE_TOO_BIG, 0);
    //  A feed that holds only the header answers at once.
    gw_ws_reader_t *reader = gw_ws_reader_new(100);
    T_ASSERT(reader);
    sink_t sink = {0};
    n = s_client_header(s, FIN | GW_WS_BINARY, 1000, 0, true);
    T_EQ_INT(gw_ws_reader_feed(reader, s, n, s_collect, &sink), GW_WS_CLOSE_TOO_BIG);
    T_EQ_INT(gw_ws_reader_feed(reader, payload, 100, s_collect, &sink),
             GW_WS_CLOSE_TOO_BIG);
    gw_ws_reader_destroy(&reader);
    T_EQ_INT(sink.count, 0);
    //  Control frames do not count against max_message, even when it is tiny.
    n = s_frame_str(s, FIN | GW_WS_PING, "longer than ten bytes");
    T_REFUSED(s, n, 10, 0, 1);
    //  2^63 and more cannot be a length at all.
    n = s_client_header(s, FIN | GW_WS_BINARY, 0x8000000000000000ull, 8, true);
    T_REFUSED(s, n, 4096, GW_WS_CLOSE_PROTOCOL, 0);
    n = s_client_header(s, FIN | GW_WS_BINARY, UINT64_MAX, 8, true);
    T_REFUSED(s, n, 4096, GW_WS_CLOSE_PROTOCOL, 0);
    n = s_client_header(s, FIN | GW_WS_BINARY, 0x8000000000000000ull, 8, true);
    T_REFUSED(s, n, SIZE_MAX, GW_WS_CLOSE_PROTOCOL, 0);
}

static void
test_reader_stop(void)
{
    uint8_t s[512];
    size_t n = s_frame_str(s, FIN | GW_WS_TEXT, "one");
    n += s_frame_str(s + n, FIN | GW_WS_PING, "two");
    n += s_frame_str(s + n, FIN | GW_WS_TEXT, "three");
    //  Stopping on the second message drops the third.
    gw_ws_reader_t *reader = gw_ws_reader_new(1024);
    T_ASSERT(reader);
    sink_t sink = {0};
    sink.stop_after = 2;
    T_EQ_INT(gw_ws_reader_feed(reader, s, n, s_collect, &sink), 0);
    T_EQ_STR(sink.log, "text:one|ping:two|");
    T_EQ_INT(sink.count, 2);
    //  The dropped bytes do not come back on the next feed.
    n = s_frame_str(s, FIN | GW_WS_TEXT, "four");
    T_EQ_INT(gw_ws_reader_feed(reader, s, n, s_collect, &sink), 0);
    T_EQ_STR(sink.log, "text:one|ping:two|text:four|");
    gw_ws_reader_destroy(&reader);
    gw_ws_reader_destroy(&reader);
    T_ASSERT(reader == NULL);
    s_sink_clear(&sink);

    //  Stopping at the end of a fragmented message, and on the first message.
    n = s_frame_str(s, GW_WS_BINARY, "a");
    n += s_frame_str(s + n, FIN | GW_WS_CONTINUATION, "b");
    n += s_frame_str(s + n, FIN | GW_WS_TEXT, "never");
    reader = gw_ws_reader_new(1024);
    T_ASSERT(reader);
    sink.stop_after = 1;
    T_EQ_INT(gw_ws_reader_feed(reader, s, n, s_collect, &sink), 0);
    T_EQ_STR(sink.log, "binary(2)|");
    gw_ws_reader_destroy(&reader);
    s_sink_clear(&sink);
}

static void
test_reader_empty_feeds(void)
{
    gw_ws_reader_t *reader = gw_ws_reader_new(1024);
    T_ASSERT(reader);
    sink_t sink = {0};
    T_EQ_INT(gw_ws_reader_feed(reader, NULL, 0, s_collect, &sink), 0);
    uint8_t s[64];
    size_t n = s_frame_str(s, FIN | GW_WS_TEXT, "hi");
    T_EQ_INT(gw_ws_reader_feed(reader, s, 1, s_collect, &sink), 0);
    T_EQ_INT(gw_ws_reader_feed(reader, NULL, 0, s_collect, &sink), 0);
    T_EQ_INT(sink.count, 0);
    T_EQ_INT(gw_ws_reader_feed(reader, s + 1, n - 1, s_collect, &sink), 0);
    T_EQ_STR(sink.log, "text:hi|");
    gw_ws_reader_destroy(&reader);
    s_sink_clear(&sink);
}

int
main(void)
{
    T_RUN(test_accept_key);
    T_RUN(test_frame_header);
    T_RUN(test_close_payload);
    T_RUN(test_utf8);
    T_RUN(test_reader_rfc_example);
    T_RUN(test_reader_text);
    T_RUN(test_reader_byte_by_byte);
    T_RUN(test_reader_fragmented);
    T_RUN(test_reader_binary);
    T_RUN(test_reader_close);
    T_RUN(test_reader_refusals);
    T_RUN(test_reader_too_big);
    T_RUN(test_reader_stop);
    T_RUN(test_reader_empty_feeds);
    return T_DONE();
}
