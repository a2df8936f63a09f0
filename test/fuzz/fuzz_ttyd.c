/*  =========================================================================
    fuzz_ttyd - libFuzzer target for backplane-ttyd's decoders: WebSocket
    frames (services/ttyd/ttyd_ws.c), ttyd's messages and their JSON
    (ttyd_msg.c) and HTTP request heads (ttyd_http.c)

    The input is a byte stream as backplane-ttyd reads it from a client. It
    is parsed as a request head, then fed to a frame reader twice: whole,
    and in pieces whose sizes come from the input's first byte, keeping what
    a call left unread as the server does. Both ways must see the same
    messages and end the same way; every message is parsed as ttyd's, and a
    size it gives must be 0 or 1..65535. Any broken promise aborts.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "../../services/ttyd/ttyd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MESSAGES_MAX 4096

static void
s_check(bool condition)
{
    if (!condition)
        abort();
}

typedef struct {
    uint32_t hashes[FUZZ_MESSAGES_MAX];
    size_t count;
} s_seen_t;

static int
s_on(void *arg, int opcode, const uint8_t *data, size_t size)
{
    s_seen_t *seen = arg;
    s_check(size <= TTYD_MESSAGE_MAX);
    s_check(opcode == TTYD_WS_TEXT || opcode == TTYD_WS_BINARY ||
            opcode >= TTYD_WS_CLOSE);
    s_check(opcode < TTYD_WS_CLOSE || size <= TTYD_WS_CONTROL_MAX);
    uint32_t hash = 2166136261u ^ (uint32_t) opcode;
    for (size_t i = 0; i < size; i++)
        hash = (hash ^ data[i]) * 16777619u;
    if (seen->count < FUZZ_MESSAGES_MAX)
        seen->hashes[seen->count] = hash;
    seen->count++;
    ttyd_msg_t msg;
    ttyd_msg_parse(data, size, &msg);
    s_check(msg.columns <= 65535 && msg.rows <= 65535);
    s_check(msg.type != TTYD_MSG_INPUT || (msg.data == data + 1 && msg.size == size - 1));
    return 0;
}

//  Feeds copy (size bytes) in pieces of piece bytes (0: all at once); the
//  result of the last call (-1 on a protocol error, else what was used).
static long
s_feed(const uint8_t *data, size_t size, size_t piece, s_seen_t *seen, int *code)
{
    uint8_t *copy = malloc(size ? size : 1);
    s_check(copy != NULL);
    if (size)
        memcpy(copy, data, size);
    ttyd_ws_reader_t reader;
    ttyd_ws_reader_init(&reader);
    size_t start = 0, end = 0;
    long rc = 0;
    while (end < size || (piece == 0 && end == 0)) {
        end = piece == 0 || size - end < piece ? size : end + piece;
        rc = ttyd_ws_reader_feed(&reader, copy + start, end - start, s_on, seen, code);
        if (rc < 0)
            break;
        s_check((size_t) rc <= end - start);
        start += (size_t) rc;
        if (size == 0)
            break;
    }
    ttyd_ws_reader_clear(&reader);
    free(copy);
    return rc < 0 ? -1 : (long) start;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    //  A request head: whatever it is, the fields stay terminated.
    char *head = malloc(size ? size : 1);
    s_check(head != NULL);
    if (size)
        memcpy(head, data, size);
    ttyd_http_request_t req;
    if (ttyd_http_parse(head, size, &req) == 0) {
        s_check(memchr(req.method, '\0', sizeof req.method) != NULL);
        s_check(req.path[0] == '/' && memchr(req.path, '\0', sizeof req.path) != NULL);
        s_check(memchr(req.ws_key, '\0', sizeof req.ws_key) != NULL);
        char accept[32];
        if (ttyd_ws_accept(req.ws_key, accept) == 0)
            s_check(strlen(accept) == 28);
    }
    free(head);
    //  The JSON scanner on the whole input.
    unsigned columns = 0, rows = 0;
    if (ttyd_msg_json_size((const char *) data, size, &columns, &rows) == 0)
        s_check(columns <= 65535 && rows <= 65535);

    //  Frames: whole, then in pieces; the same messages, the same end.
    s_seen_t *whole = calloc(1, sizeof *whole);
    s_seen_t *pieces = calloc(1, sizeof *pieces);
    s_check(whole && pieces);
    int code_whole = 0, code_pieces = 0;
    long used_whole = s_feed(data, size, 0, whole, &code_whole);
    size_t piece = size ? (size_t) data[0] % 7 + 1 : 1;
    long used_pieces = s_feed(data, size, piece, pieces, &code_pieces);
    s_check(used_whole == used_pieces);
    s_check(code_whole == code_pieces);
    s_check(whole->count == pieces->count);
    size_t n = whole->count < FUZZ_MESSAGES_MAX ? whole->count : FUZZ_MESSAGES_MAX;
    s_check(memcmp(whole->hashes, pieces->hashes, n * sizeof whole->hashes[0]) == 0);
    free(whole);
    free(pieces);
    return 0;
}
