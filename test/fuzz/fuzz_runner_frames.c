/*  =========================================================================
    fuzz_runner_frames - libFuzzer target for the agent <-> runner frame
    decoder (services/agent/agent_runner_proto.c)

    The input is a byte stream as the runner reads it from the agent's socket,
    copied into a buffer of exactly its size. It is decoded frame after frame,
    as the runner does, and each call is also made on every shorter prefix of
    the rest, which must ask for more rather than decode or fail differently.
    A decoded frame must lie inside the buffer, its payload must not exceed the
    maximum, and encoding it again must give the same bytes. Any broken promise
    aborts, so the fuzzer reports it like a crash.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "../../services/agent/agent_runner_proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

//  Prefixes checked per frame (all of them when the frame is shorter).
#define FUZZ_PREFIXES 64

static void
s_check(bool condition)
{
    if (!condition)
        abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *copy = malloc(size ? size : 1);
    s_check(copy != NULL);
    if (size)
        memcpy(copy, data, size);
    size_t at = 0;
    while (at <= size) {
        agent_runner_frame_t frame;
        long used = agent_runner_frame_decode(copy + at, size - at, &frame);
        size_t limit = used > 0 ? (size_t) used : size - at;
        for (size_t n = 0; n < limit && n < FUZZ_PREFIXES; n++) {
            long shorter = agent_runner_frame_decode(copy + at, n, NULL);
            s_check(
                shorter == AGENT_RUNNER_NEED_MORE ||
                (shorter == AGENT_RUNNER_MALFORMED && used == AGENT_RUNNER_MALFORMED));
        }
        if (used <= 0)
            break;
        s_check((size_t) used <= size - at);
        s_check(frame.size <= AGENT_RUNNER_PAYLOAD_MAX);
        s_check(frame.payload == copy + at + AGENT_RUNNER_HEADER_SIZE);
        s_check(AGENT_RUNNER_HEADER_SIZE + frame.size == (size_t) used);
        (void) agent_runner_kind_name(frame.kind);
        int32_t code;
        s_check(agent_runner_finished_decode(&frame, &code) ==
                (frame.size == 4 ? 0 : -1));
        uint8_t *again = malloc((size_t) used);
        s_check(again != NULL);
        s_check(agent_runner_frame_encode(again, frame.kind, frame.run_id, frame.payload,
                                          frame.size) == (size_t) used);
        s_check(memcmp(again, copy + at, (size_t) used) == 0);
        free(again);
        at += (size_t) used;
    }
    free(copy);
    return 0;
}
