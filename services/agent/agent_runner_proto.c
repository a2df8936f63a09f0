/*  =========================================================================
    agent_runner_proto - frame encode and decode for the agent <-> runner socket

    Pure functions over byte buffers, shared by the agent (linked into libagent)
    and the static kernel runner. The decoder reads only the bytes it is given and
    rejects a declared length below the 5 bytes of kind and run id, or a payload
    above AGENT_RUNNER_PAYLOAD_MAX, before the payload has arrived, so a receiver
    never buffers more than one maximal frame. This file includes only its own
    header: the runner links libc alone, so bus_classes.h (czmq) is out of reach.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_runner_proto.h"

//  Bytes of kind and run id that the length counts besides the payload.
#define S_LENGTH_OVERHEAD 5

long
agent_runner_frame_decode(const uint8_t *buf, size_t len, agent_runner_frame_t *frame)
{
    if (len < 4)
        return AGENT_RUNNER_NEED_MORE;
    uint32_t length = agent_runner_get_u32(buf);
    if (length < S_LENGTH_OVERHEAD ||
        length - S_LENGTH_OVERHEAD > AGENT_RUNNER_PAYLOAD_MAX)
        return AGENT_RUNNER_MALFORMED;
    size_t total = 4 + (size_t) length;
    if (len < total)
        return AGENT_RUNNER_NEED_MORE;
    if (frame) {
        frame->kind = buf[4];
        frame->run_id = agent_runner_get_u32(buf + 5);
        frame->payload = buf + AGENT_RUNNER_HEADER_SIZE;
        frame->size = length - S_LENGTH_OVERHEAD;
    }
    return (long) total;
}

void
agent_runner_header_encode(uint8_t out[AGENT_RUNNER_HEADER_SIZE],
                           uint8_t kind,
                           uint32_t run_id,
                           size_t size)
{
    agent_runner_put_u32(out, (uint32_t) (size + S_LENGTH_OVERHEAD));
    out[4] = kind;
    agent_runner_put_u32(out + 5, run_id);
}

size_t
agent_runner_frame_encode(
    uint8_t *out, uint8_t kind, uint32_t run_id, const void *payload, size_t size)
{
    agent_runner_header_encode(out, kind, run_id, size);
    const uint8_t *bytes = payload;
    for (size_t i = 0; i < size; i++)
        out[AGENT_RUNNER_HEADER_SIZE + i] = bytes[i];
    return AGENT_RUNNER_HEADER_SIZE + size;
}

bool
agent_runner_kind_valid(uint8_t kind, bool to_runner)
{
    if (to_runner)
        return kind >= AGENT_RUNNER_EXEC && kind <= AGENT_RUNNER_SHUTDOWN;
    return kind >= AGENT_RUNNER_STDOUT && kind <= AGENT_RUNNER_STATUS_REPLY;
}

const char *
agent_runner_kind_name(uint8_t kind)
{
    static const char *to_runner[] = {"EXEC",     "BATCH",    "INPUT",      "INTERRUPT",
                                      "PTY_OPEN", "PTY_DATA", "PTY_RESIZE", "SERVICE",
                                      "STATUS",   "SHUTDOWN"};
    static const char *to_agent[] = {"STDOUT",   "STDERR",  "WAITING_INPUT",
                                     "FINISHED", "PTY_OUT", "SERVICE_RESULT",
                                     "STATUS"};
    if (agent_runner_kind_valid(kind, true))
        return to_runner[kind - AGENT_RUNNER_EXEC];
    if (agent_runner_kind_valid(kind, false))
        return to_agent[kind - AGENT_RUNNER_STDOUT];
    return "UNKNOWN";
}

void
agent_runner_put_u32(uint8_t out[4], uint32_t value)
{
    out[0] = (uint8_t) (value >> 24);
    out[1] = (uint8_t) (value >> 16);
    out[2] = (uint8_t) (value >> 8);
    out[3] = (uint8_t) value;
}

uint32_t
agent_runner_get_u32(const uint8_t in[4])
{
    return (uint32_t) in[0] << 24 | (uint32_t) in[1] << 16 | (uint32_t) in[2] << 8 |
           (uint32_t) in[3];
}

int
agent_runner_finished_decode(const agent_runner_frame_t *frame, int32_t *code)
{
    if (!frame || frame->size != 4)
        return -1;
    *code = (int32_t) agent_runner_get_u32(frame->payload);
    return 0;
}
