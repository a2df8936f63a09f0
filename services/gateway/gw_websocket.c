/*  =========================================================================
    gw_websocket - the WebSocket wire format (RFC 6455), without the socket

    The reader keeps the bytes of at most one unfinished frame plus the
    fragments of at most one unfinished message; both are bounded by
    max_message, checked from the frame header before the payload arrives,
    so a client that announces 2^63 bytes is refused at once.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include <openssl/evp.h> //  SHA-1 and base64 of the handshake

//  RFC 6455 §1.3: the GUID every server appends to the client's key.
#define HANDSHAKE_GUID "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
#define KEY_SIZE       24 //  base64 of 16 bytes

struct _gw_ws_reader_t {
    size_t max_message;
    uint8_t *input; //  bytes of the frame in progress
    size_t input_size;
    size_t input_capacity;
    uint8_t *message; //  fragments of the message in progress
    size_t message_size;
    size_t message_capacity;
    gw_ws_opcode_t message_opcode; //  TEXT or BINARY while fragments come; else 0
    int failed;                    //  the close code once the client broke the protocol
};

bool
gw_ws_accept_key(const char *key, char accept[GW_WS_ACCEPT_SIZE])
{
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    if (!key || strlen(key) != KEY_SIZE || strcmp(key + KEY_SIZE - 2, "==") != 0)
        return false;
    for (size_t i = 0; i < KEY_SIZE - 2; i++)
        if (!strchr(alphabet, key[i]))
            return false;
    char joined[KEY_SIZE + sizeof HANDSHAKE_GUID];
    snprintf(joined, sizeof joined, "%s%s", key, HANDSHAKE_GUID);
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int digest_size = 0;
    if (EVP_Digest(joined, strlen(joined), digest, &digest_size, EVP_sha1(), NULL) != 1)
        return false;
    EVP_EncodeBlock((unsigned char *) accept, digest, (int) digest_size);
    return true;
}

size_t
gw_ws_frame_header(uint8_t out[GW_WS_HEADER_MAX], gw_ws_opcode_t opcode, uint64_t size)
{
    out[0] = (uint8_t) (0x80 | opcode); //  FIN: we never fragment
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
        out[2 + i] = (uint8_t) (size >> (56 - 8 * i));
    return 10;
}

size_t
gw_ws_close_payload(uint8_t out[GW_WS_CONTROL_MAX], int code, const char *reason)
{
    out[0] = (uint8_t) (code >> 8);
    out[1] = (uint8_t) code;
    size_t size = reason ? strlen(reason) : 0;
    if (size > GW_WS_CONTROL_MAX - 2)
        size = GW_WS_CONTROL_MAX - 2;
    //  Cut at a character boundary: the reason must stay UTF-8.
    while (size > 0 && (((uint8_t) reason[size]) & 0xC0) == 0x80)
        size--;
    if (size)
        memcpy(out + 2, reason, size);
    return 2 + size;
}

bool
gw_ws_utf8_valid(const uint8_t *data, size_t size)
{
    size_t i = 0;
    while (i < size) {
        uint8_t c = data[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t more;
        uint32_t point, least;
        if ((c & 0xE0) == 0xC0) {
            more = 1, point = c & 0x1F, least = 0x80;
        } else if ((c & 0xF0) == 0xE0) {
            more = 2, point = c & 0x0F, least = 0x800;
        } else if ((c & 0xF8) == 0xF0) {
            more = 3, point = c & 0x07, least = 0x10000;
        } else
            return false;
        if (size - i <= more)
            return false;
        for (size_t k = 1; k <= more; k++) {
            if ((data[i + k] & 0xC0) != 0x80)
                return false;
            point = (point << 6) | (data[i + k] & 0x3F);
        }
        if (point < least || point > 0x10FFFF || (point >= 0xD800 && point <= 0xDFFF))
            return false;
        i += more + 1;
    }
    return true;
}

gw_ws_reader_t *
gw_ws_reader_new(size_t max_message)
{
    gw_ws_reader_t *self = calloc(1, sizeof *self);
    if (self)
        self->max_message = max_message;
    return self;
}

void
gw_ws_reader_destroy(gw_ws_reader_t **self_p)
{
    gw_ws_reader_t *self = *self_p;
    if (!self)
        return;
    free(self->input);
    free(self->message);
    free(self);
    *self_p = NULL;
}

//  Makes room for size more bytes in *buffer; false when out of memory.
static bool
s_reserve(uint8_t **buffer, size_t *capacity, size_t used, size_t size)
{
    if (used + size <= *capacity)
        return true;
    size_t wanted = *capacity ? *capacity : 256;
    while (wanted < used + size)
        wanted *= 2;
    uint8_t *grown = realloc(*buffer, wanted);
    if (!grown)
        return false;
    *buffer = grown;
    *capacity = wanted;
    return true;
}

//  A close frame's payload: empty, or a code a peer may send and a UTF-8
//  reason (RFC 6455 §5.5.1, §7.4).
static bool
s_close_payload_valid(const uint8_t *payload, size_t size)
{
    if (size == 0)
        return true;
    if (size == 1)
        return false;
    int code = payload[0] << 8 | payload[1];
    bool allowed = (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1011) ||
                   (code >= 3000 && code <= 4999);
    return allowed && gw_ws_utf8_valid(payload + 2, size - 2);
}

//  One frame from input[0..size): its length (header and payload) when it
//  is all there, 0 when more bytes are needed, or -close_code.
static int64_t
s_frame(gw_ws_reader_t *self,
        uint8_t *input,
        size_t size,
        gw_ws_message_fn *fn,
        void *arg,
        bool *stop)
{
    if (size < 2)
        return 0;
    bool fin = input[0] & 0x80;
    gw_ws_opcode_t opcode = input[0] & 0x0F;
    if (input[0] & 0x70) //  reserved bits: no extension was negotiated
        return -GW_WS_CLOSE_PROTOCOL;
    if (opcode != GW_WS_CONTINUATION && opcode != GW_WS_TEXT && opcode != GW_WS_BINARY &&
        opcode != GW_WS_CLOSE && opcode != GW_WS_PING && opcode != GW_WS_PONG)
        return -GW_WS_CLOSE_PROTOCOL;
    if (!(input[1] & 0x80)) //  §5.1: a client masks every frame
        return -GW_WS_CLOSE_PROTOCOL;
    size_t header = 2 + 4;
    uint64_t payload_size = input[1] & 0x7F;
    if (payload_size == 126)
        header += 2;
    else if (payload_size == 127)
        header += 8;
    if (size < header)
        return 0;
    if (payload_size == 126) {
        payload_size = (uint64_t) input[2] << 8 | input[3];
        if (payload_size < 126) //  §5.2: the minimal length encoding
            return -GW_WS_CLOSE_PROTOCOL;
    } else if (payload_size == 127) {
        payload_size = 0;
        for (int i = 0; i < 8; i++)
            payload_size = payload_size << 8 | input[2 + i];
        if (payload_size >> 63 || payload_size <= 0xFFFF)
            return -GW_WS_CLOSE_PROTOCOL;
    }
    bool control = opcode >= GW_WS_CLOSE;
    if (control && (!fin || payload_size > GW_WS_CONTROL_MAX))
        return -GW_WS_CLOSE_PROTOCOL;
    if (!control) {
        bool continuing = opcode == GW_WS_CONTINUATION;
        if (continuing != (self->message_opcode != 0))
            return -GW_WS_CLOSE_PROTOCOL;
        if (payload_size > self->max_message - self->message_size)
            return -GW_WS_CLOSE_TOO_BIG;
    }
    if (size - header < payload_size)
        return 0;

    uint8_t *payload = input + header;
    const uint8_t *mask = input + header - 4;
    for (size_t i = 0; i < payload_size; i++)
        payload[i] ^= mask[i & 3];
    int64_t length = (int64_t) (header + payload_size);
    if (control) {
        if (opcode == GW_WS_CLOSE && !s_close_payload_valid(payload, payload_size))
            return -GW_WS_CLOSE_PROTOCOL;
        *stop = !fn(arg, opcode, payload, payload_size);
        return length;
    }
    if (fin && opcode != GW_WS_CONTINUATION) { //  a whole message in one frame
        if (opcode == GW_WS_TEXT && !gw_ws_utf8_valid(payload, payload_size))
            return -GW_WS_CLOSE_BAD_DATA;
        *stop = !fn(arg, opcode, payload, payload_size);
        return length;
    }
    if (opcode != GW_WS_CONTINUATION)
        self->message_opcode = opcode;
    if (!s_reserve(&self->message, &self->message_capacity, self->message_size,
                   payload_size))
        return -GW_WS_CLOSE_INTERNAL;
    if (payload_size)
        memcpy(self->message + self->message_size, payload, payload_size);
    self->message_size += payload_size;
    if (fin) {
        gw_ws_opcode_t whole = self->message_opcode;
        size_t whole_size = self->message_size;
        self->message_opcode = 0;
        self->message_size = 0;
        if (whole == GW_WS_TEXT && !gw_ws_utf8_valid(self->message, whole_size))
            return -GW_WS_CLOSE_BAD_DATA;
        *stop = !fn(arg, whole, self->message, whole_size);
    }
    return length;
}

int
gw_ws_reader_feed(gw_ws_reader_t *self,
                  const uint8_t *data,
                  size_t size,
                  gw_ws_message_fn *fn,
                  void *arg)
{
    if (self->failed)
        return self->failed;
    if (!s_reserve(&self->input, &self->input_capacity, self->input_size, size))
        return self->failed = GW_WS_CLOSE_INTERNAL;
    if (size)
        memcpy(self->input + self->input_size, data, size);
    self->input_size += size;
    if (self->input_size == 0)
        return 0;
    size_t used = 0;
    bool stop = false;
    while (!stop) {
        int64_t length =
            s_frame(self, self->input + used, self->input_size - used, fn, arg, &stop);
        if (length < 0) {
            self->input_size = 0;
            return self->failed = (int) -length;
        }
        if (length == 0)
            break;
        used += (size_t) length;
    }
    if (stop)
        used = self->input_size;
    if (used) {
        memmove(self->input, self->input + used, self->input_size - used);
        self->input_size -= used;
    }
    return 0;
}
