/*  =========================================================================
    ttyd_ws - WebSocket frames (RFC 6455): the client's, decoded and joined
    into messages; the server's, framed; the handshake's accept key

    A client frame must be masked, use no reserved bit (no extension is
    negotiated) and a known opcode; a control frame is final and at most 125
    bytes; a continuation needs a message to continue; a message is at most
    TTYD_MESSAGE_MAX bytes, which is known from a frame's header, before its
    payload is waited for. Anything else ends the connection with the close
    code RFC 6455 names. TEXT and BINARY are treated alike (ttyd's client
    sends BINARY), so a TEXT payload is not checked for UTF-8. Pure: no I/O.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "ttyd_classes.h"

#define S_GUID "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

void
ttyd_ws_reader_init(ttyd_ws_reader_t *self)
{
    assert(self);
    self->opcode = 0;
    ttyd_buf_init(&self->message, TTYD_MESSAGE_MAX);
}

void
ttyd_ws_reader_clear(ttyd_ws_reader_t *self)
{
    assert(self);
    self->opcode = 0;
    ttyd_buf_clear(&self->message);
}

//  One frame at data: its length (> 0), 0 when incomplete, -1 when broken
//  (*close_code set). The payload is unmasked in place.
static long
s_frame(uint8_t *data,
        size_t size,
        int *fin_p,
        int *opcode_p,
        uint8_t **payload_p,
        size_t *length_p,
        int *close_code)
{
    if (size < 2)
        return 0;
    int fin = data[0] >> 7;
    int opcode = data[0] & 0x0F;
    bool masked = data[1] >> 7;
    uint64_t length = data[1] & 0x7F;
    size_t header = 2;
    if ((data[0] & 0x70) || !masked) {
        *close_code = TTYD_WS_CLOSE_PROTOCOL;
        return -1;
    }
    bool control = opcode >= TTYD_WS_CLOSE;
    if ((opcode > TTYD_WS_BINARY && opcode < TTYD_WS_CLOSE) || opcode > TTYD_WS_PONG ||
        (control && (!fin || length > TTYD_WS_CONTROL_MAX))) {
        *close_code = TTYD_WS_CLOSE_PROTOCOL;
        return -1;
    }
    if (length == 126) {
        if (size < 4)
            return 0;
        length = (uint64_t) data[2] << 8 | data[3];
        header = 4;
    } else if (length == 127) {
        if (size < 10)
            return 0;
        if (data[2] & 0x80) { //  the most significant bit must be 0
            *close_code = TTYD_WS_CLOSE_PROTOCOL;
            return -1;
        }
        length = 0;
        for (int i = 2; i < 10; i++)
            length = length << 8 | data[i];
        header = 10;
    }
    if (length > TTYD_MESSAGE_MAX) {
        *close_code = TTYD_WS_CLOSE_TOO_BIG;
        return -1;
    }
    if (size < header + 4 + length)
        return 0;
    const uint8_t *mask = data + header;
    uint8_t *payload = data + header + 4;
    for (size_t i = 0; i < length; i++)
        payload[i] ^= mask[i & 3];
    *fin_p = fin;
    *opcode_p = opcode;
    *payload_p = payload;
    *length_p = (size_t) length;
    return (long) (header + 4 + length);
}

long
ttyd_ws_reader_feed(ttyd_ws_reader_t *self,
                    uint8_t *data,
                    size_t size,
                    ttyd_ws_on_message_t *on_message,
                    void *arg,
                    int *close_code)
{
    assert(self && on_message && close_code);
    size_t used = 0;
    while (used < size) {
        int fin = 0, opcode = 0;
        uint8_t *payload = NULL;
        size_t length = 0;
        long n = s_frame(data + used, size - used, &fin, &opcode, &payload, &length,
                         close_code);
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        used += (size_t) n;
        int rc = 0;
        if (opcode >= TTYD_WS_CLOSE)
            rc = on_message(arg, opcode, payload, length);
        else if (opcode == TTYD_WS_CONTINUATION) {
            if (!self->opcode) {
                *close_code = TTYD_WS_CLOSE_PROTOCOL;
                return -1;
            }
            if (ttyd_buf_append(&self->message, payload, length) != 0) {
                *close_code = TTYD_WS_CLOSE_TOO_BIG;
                return -1;
            }
            if (fin) {
                rc = on_message(arg, self->opcode, ttyd_buf_data(&self->message),
                                ttyd_buf_size(&self->message));
                ttyd_ws_reader_clear(self);
                ttyd_buf_init(&self->message, TTYD_MESSAGE_MAX);
            }
        } else {
            if (self->opcode) { //  a new message inside a fragmented one
                *close_code = TTYD_WS_CLOSE_PROTOCOL;
                return -1;
            }
            if (fin)
                rc = on_message(arg, opcode, payload, length);
            else {
                self->opcode = opcode;
                if (ttyd_buf_append(&self->message, payload, length) != 0) {
                    *close_code = TTYD_WS_CLOSE_TOO_BIG;
                    return -1;
                }
            }
        }
        if (rc < 0) {
            *close_code = TTYD_WS_CLOSE_ERROR;
            return -1;
        }
        if (rc > 0)
            break;
    }
    return (long) used;
}

size_t
ttyd_ws_header(uint8_t *out, int opcode, size_t size)
{
    out[0] = (uint8_t) (0x80 | (opcode & 0x0F));
    if (size < 126) {
        out[1] = (uint8_t) size;
        return 2;
    }
    if (size <= 0xFFFF) {
        out[1] = 126;
        out[2] = (uint8_t) (size >> 8);
        out[3] = (uint8_t) size;
        return 4;
    }
    out[1] = 127;
    for (int i = 0; i < 8; i++)
        out[2 + i] = (uint8_t) ((uint64_t) size >> (8 * (7 - i)));
    return 10;
}

int
ttyd_ws_accept(const char *key, char *out)
{
    //  A key is 16 random bytes in base64: 22 characters and "==".
    size_t len = key ? strlen(key) : 0;
    if (len != 24 || key[22] != '=' || key[23] != '=')
        return -1;
    for (size_t i = 0; i < 22; i++)
        if (!isalnum((unsigned char) key[i]) && key[i] != '+' && key[i] != '/')
            return -1;
    char text[24 + sizeof S_GUID];
    memcpy(text, key, 24);
    memcpy(text + 24, S_GUID, sizeof S_GUID);
    uint8_t digest[20];
    ttyd_sha1(text, strlen(text), digest);
    ttyd_base64(digest, sizeof digest, out);
    return 0;
}
