/*  =========================================================================
    fuzz_websocket - libFuzzer target for the gateway's WebSocket frame reader

    The first input byte n picks how the rest is cut into feeds: chunks of
    pseudo-random sizes from 1 to n (0 counts as 1, byte by byte). The rest
    is a client's byte stream, read with a max_message of 4096. The stream
    is read twice, whole and in those chunks, and both readings must deliver
    the same messages and end with the same code: how bytes arrive must not
    change what they mean. Every message must keep the reader's promises
    (data messages at most max_message bytes, text valid UTF-8, control
    frames at most 125 bytes, a close payload empty or a code and a reason),
    a refusal must be a close code the reader may answer with, and a
    refused reader must keep refusing. A third reading stops from the
    callback and must see exactly the messages up to the stop. Any broken
    promise aborts, so the fuzzer reports it like a crash.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "../../services/gateway/gw_websocket.h"

#define MAX_MESSAGE 4096

typedef struct {
    size_t count;
    uint64_t hash; //  FNV-1a over every message's opcode, size and bytes
    size_t stop_after;
} tally_t;

static void
s_check(bool condition)
{
    if (!condition)
        abort();
}

static uint64_t
s_hash(uint64_t hash, const uint8_t *data, size_t size)
{
    for (size_t i = 0; i < size; i++)
        hash = (hash ^ data[i]) * 0x100000001B3ull;
    return hash;
}

static bool
s_message(void *arg, gw_ws_opcode_t opcode, const uint8_t *data, size_t size)
{
    tally_t *tally = arg;
    s_check(size == 0 || data != NULL);
    switch (opcode) {
        case GW_WS_TEXT:
            s_check(gw_ws_utf8_valid(data, size));
            s_check(size <= MAX_MESSAGE);
            break;
        case GW_WS_BINARY:
            s_check(size <= MAX_MESSAGE);
            break;
        case GW_WS_CLOSE:
            s_check(size != 1 && size <= GW_WS_CONTROL_MAX);
            if (size >= 2)
                s_check(gw_ws_utf8_valid(data + 2, size - 2));
            break;
        case GW_WS_PING:
        case GW_WS_PONG:
            s_check(size <= GW_WS_CONTROL_MAX);
            break;
        default:
            abort();
    }
    //  Touch every byte, so that the sanitizers see a bad pointer or size.
    uint8_t head[9] = {(uint8_t) opcode};
    for (int i = 0; i < 8; i++)
        head[1 + i] = (uint8_t) (size >> (8 * i));
    tally->hash = s_hash(s_hash(tally->hash, head, sizeof head), data, size);
    tally->count++;
    return tally->count != tally->stop_after;
}

//  Reads stream with a fresh reader in feeds of the sizes seed picks;
//  returns the reader's last code.
static int
s_read(const uint8_t *stream, size_t size, uint8_t seed, tally_t *tally)
{
    gw_ws_reader_t *reader = gw_ws_reader_new(MAX_MESSAGE);
    s_check(reader != NULL);
    tally->hash = 0xCBF29CE484222325ull;
    int rc = 0;
    uint32_t state = seed;
    size_t at = 0;
    do {
        size_t chunk = size - at;
        if (seed) {
            state = state * 1103515245u + 12345u;
            size_t most = (state >> 16) % seed + 1;
            if (chunk > most)
                chunk = most;
        }
        rc = gw_ws_reader_feed(reader, stream + at, chunk, s_message, tally);
        at += chunk;
        //  A caller whose callback said stop closes the connection.
        if (tally->stop_after && tally->count >= tally->stop_after)
            break;
    } while (at < size && rc == 0);
    if (rc != 0) {
        s_check(rc == GW_WS_CLOSE_PROTOCOL || rc == GW_WS_CLOSE_BAD_DATA ||
                rc == GW_WS_CLOSE_TOO_BIG || rc == GW_WS_CLOSE_INTERNAL);
        size_t count = tally->count;
        s_check(gw_ws_reader_feed(reader, stream, size, s_message, tally) == rc);
        s_check(gw_ws_reader_feed(reader, NULL, 0, s_message, tally) == rc);
        s_check(tally->count == count);
    }
    gw_ws_reader_destroy(&reader);
    s_check(reader == NULL);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    uint8_t seed = data[0];
    //  The reader unmasks in its own copy; keep the input as it came.
    const uint8_t *stream = data + 1;
    size_t stream_size = size - 1;

    tally_t whole = {0}, chunked = {0};
    int whole_rc = s_read(stream, stream_size, 0, &whole);
    int chunked_rc = s_read(stream, stream_size, seed ? seed : 1, &chunked);
    s_check(whole_rc == chunked_rc);
    s_check(whole.count == chunked.count);
    s_check(whole.hash == chunked.hash);

    //  Stopping early delivers exactly the messages up to the stop, no error.
    if (whole.count > 0) {
        tally_t stopped = {0};
        stopped.stop_after = seed % whole.count + 1;
        s_check(s_read(stream, stream_size, seed, &stopped) == 0);
        s_check(stopped.count == stopped.stop_after);
    }
    return 0;
}
