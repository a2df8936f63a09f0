/*  =========================================================================
    fuzz_envelope - libFuzzer target for the event envelope decoder

    The input is cut into the three frames of an event: the first byte is
    the topic's length, the second the header's, then come the topic, the
    header and, as the body, whatever is left (lengths are clipped to what
    remains). Each frame is copied into a buffer of exactly its size, so
    the sanitizers catch a read past any one of them. The frames go through
    bus_event_parse, and the header alone through bus_header_decode. What
    decodes must hold NUL-terminated strings within their buffers, and must
    survive a round trip: encode the header again, decode it, compare.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_GARBAGE 0xA5 //  fills outputs, so a missing terminator shows

//  A heap copy of exactly size bytes (1 when size is 0, never read).
static uint8_t *
s_frame(const uint8_t *data, size_t size)
{
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        abort();
    if (size)
        memcpy(copy, data, size);
    return copy;
}

//  A NUL within size, and nothing but the string before it.
static bool
s_terminated(const char *text, size_t size)
{
    return memchr(text, 0, size) != NULL;
}

//  Checks what a successful decode produced, then its round trip.
static void
s_check_header(const bus_header_t *header, bus_reader_t *reader)
{
    if (!s_terminated(header->src, sizeof header->src) ||
        !s_terminated(header->corr, sizeof header->corr))
        abort();
    if (header->version == 0 || header->version > BUS_ENVELOPE_VERSION)
        abort();

    bus_writer_t *writer = bus_writer_new();
    if (!writer)
        abort();
    bus_header_write(header, writer);
    if (bus_writer_size(writer) > BUS_HEADER_MAX)
        abort();
    bus_header_t again;
    memset(&again, FUZZ_GARBAGE, sizeof again);
    bus_error_t err;
    if (bus_header_decode(&again, reader, bus_writer_data(writer),
                          bus_writer_size(writer), &err) != BUS_OK)
        abort();
    //  The writer leaves out ep when seq is 0 (an ephemeral event).
    uint64_t epoch = header->seq ? header->epoch : 0;
    if (again.version != header->version || again.ts != header->ts ||
        again.seq != header->seq || again.epoch != epoch ||
        memcmp(again.id, header->id, BUS_EVENT_ID_SIZE) != 0 ||
        strcmp(again.src, header->src) != 0 || strcmp(again.corr, header->corr) != 0)
        abort();
    bus_writer_destroy(&writer);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    //  One reader for the whole run, as the receive path keeps one.
    static bus_reader_t *reader;
    if (!reader && !(reader = bus_reader_new()))
        abort();
    if (size < 2)
        return 0;
    size_t topic_size = data[0], header_size = data[1];
    data += 2;
    size -= 2;
    if (topic_size > size)
        topic_size = size;
    if (header_size > size - topic_size)
        header_size = size - topic_size;
    size_t body_size = size - topic_size - header_size;
    uint8_t *topic = s_frame(data, topic_size);
    uint8_t *header = s_frame(data + topic_size, header_size);
    uint8_t *body = s_frame(data + topic_size + header_size, body_size);

    bus_event_t event;
    memset(&event, FUZZ_GARBAGE, sizeof event);
    bus_error_t err;
    memset(&err, 0, sizeof err);
    int parsed = bus_event_parse(&event, reader, (const char *) topic, topic_size, header,
                                 header_size, body, body_size, &err);
    if (parsed == BUS_OK) {
        if (!s_terminated(event.topic, sizeof event.topic) ||
            strlen(event.topic) != topic_size ||
            memcmp(event.topic, topic, topic_size) != 0)
            abort();
        if (event.body != body || event.body_size != body_size)
            abort();
        s_check_header(&event.header, reader);
    } else if (parsed != BUS_STATUS_PROTOCOL || err.status != parsed ||
               err.detail[0] == 0 || !s_terminated(err.detail, sizeof err.detail))
        abort();

    //  The header on its own, as replay and the outbox read it.
    bus_header_t alone;
    memset(&alone, FUZZ_GARBAGE, sizeof alone);
    memset(&err, 0, sizeof err);
    int rc = bus_header_decode(&alone, reader, header, header_size, &err);
    if (rc == BUS_OK)
        s_check_header(&alone, reader);
    else if (rc != BUS_STATUS_PROTOCOL || err.detail[0] == 0)
        abort();
    //  A whole event decodes only if its header does, to the same values.
    if (parsed == BUS_OK &&
        (rc != BUS_OK || memcmp(&alone, &event.header, sizeof alone) != 0))
        abort();

    free(topic);
    free(header);
    free(body);
    return 0;
}
