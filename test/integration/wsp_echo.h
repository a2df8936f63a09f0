/*  =========================================================================
    wsp_echo.h - a small HTTP and WebSocket app and its client, for the
    wsproxy's test and bench (header-only: static inline functions)

    The app listens on a loopback port of its own, one thread per
    connection (blocking sockets, keep-alive), and answers:
      GET /big?n=N      N bytes of wsp_echo_byte(i), with Content-Length
      GET /fast?n=N     N bytes of a block written again and again (benches)
      GET /chunked      WSP_ECHO_CHUNKS chunks of wsp_echo_byte(i), sizes
                        1, 2, 3, ... bytes times WSP_ECHO_CHUNK_STEP
      GET /chunked?n=N&size=S  N bytes of wsp_echo_byte(i), chunked, in
                        chunks of S bytes (the last one shorter)
      GET /headers      "host=<Host>\ncookie=<Cookie>\nauthorization=<Authorization>\n"
      POST /upload      "<bytes received>" (Content-Length or chunked)
      GET /ws           a WebSocket (RFC 6455) echoing every message
    The client side: connect, write, read one answer (Content-Length,
    chunked or until close), the WebSocket handshake and masked frames.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef WSP_ECHO_H_INCLUDED
#define WSP_ECHO_H_INCLUDED

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#define WSP_ECHO_CHUNKS     60
#define WSP_ECHO_CHUNK_STEP 997
#define WSP_ECHO_HEAD_MAX   16384
#define WSP_ECHO_WS_GUID    "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

static inline uint8_t
wsp_echo_byte(uint64_t i)
{
    return (uint8_t) ((i * 2654435761u) >> 13);
}

//  A buffered reader over a blocking socket.
typedef struct {
    int fd;
    char buf[65536];
    size_t pos, len;
} wsp_echo_reader_t;

static inline int
wsp_echo_fill(wsp_echo_reader_t *r)
{
    if (r->pos < r->len)
        return 0;
    ssize_t n = read(r->fd, r->buf, sizeof r->buf);
    if (n <= 0)
        return -1;
    r->pos = 0;
    r->len = (size_t) n;
    return 0;
}

//  Reads up to and with the blank line into head (NUL-terminated). -1 at EOF.
static inline int
wsp_echo_read_head(wsp_echo_reader_t *r, char *head, size_t size)
{
    size_t used = 0;
    while (used + 1 < size) {
        if (wsp_echo_fill(r) != 0)
            return -1;
        head[used++] = r->buf[r->pos++];
        if (used >= 4 && memcmp(head + used - 4, "\r\n\r\n", 4) == 0) {
            head[used] = '\0';
            return 0;
        }
    }
    return -1;
}

//  Reads exactly n bytes into out (NULL: discards). 0 or -1.
static inline int
wsp_echo_read_exact(wsp_echo_reader_t *r, void *out, size_t n)
{
    while (n > 0) {
        if (wsp_echo_fill(r) != 0)
            return -1;
        size_t take = r->len - r->pos < n ? r->len - r->pos : n;
        if (out) {
            memcpy(out, r->buf + r->pos, take);
            out = (char *) out + take;
        }
        r->pos += take;
        n -= take;
    }
    return 0;
}

static inline int
wsp_echo_read_line(wsp_echo_reader_t *r, char *line, size_t size)
{
    size_t used = 0;
    while (used + 1 < size) {
        if (wsp_echo_fill(r) != 0)
            return -1;
        char c = r->buf[r->pos++];
        if (c == '\n') {
            if (used && line[used - 1] == '\r')
                used--;
            line[used] = '\0';
            return 0;
        }
        line[used++] = c;
    }
    return -1;
}

static inline int
wsp_echo_write(int fd, const void *data, size_t n)
{
    const char *p = data;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t) w;
    }
    return 0;
}

//  The value of header name in head (copied into out), or false.
static inline bool
wsp_echo_header(const char *head, const char *name, char *out, size_t size)
{
    size_t len = strlen(name);
    const char *p = strstr(head, "\r\n");
    while (p && p[2] != '\r') {
        p += 2;
        if (strncasecmp(p, name, len) == 0 && p[len] == ':') {
            const char *v = p + len + 1;
            while (*v == ' ')
                v++;
            const char *end = strstr(v, "\r\n");
            size_t n = end ? (size_t) (end - v) : strlen(v);
            if (n >= size)
                n = size - 1;
            memcpy(out, v, n);
            out[n] = '\0';
            return true;
        }
        p = strstr(p, "\r\n");
    }
    return false;
}

//  Reads a chunked body; calls fn per data piece (may be NULL). Total
//  bytes, or -1.
typedef void(wsp_echo_data_fn)(void *arg, const char *data, size_t n);

static inline long long
wsp_echo_read_chunked(wsp_echo_reader_t *r, wsp_echo_data_fn *fn, void *arg)
{
    long long total = 0;
    char line[256];
    static char data[65536];
    for (;;) {
        if (wsp_echo_read_line(r, line, sizeof line) != 0)
            return -1;
        unsigned long long size = strtoull(line, NULL, 16);
        if (size == 0) {
            do {
                if (wsp_echo_read_line(r, line, sizeof line) != 0)
                    return -1;
            } while (line[0]);
            return total;
        }
        while (size > 0) {
            size_t take = size < sizeof data ? (size_t) size : sizeof data;
            if (wsp_echo_read_exact(r, data, take) != 0)
                return -1;
            if (fn)
                fn(arg, data, take);
            total += (long long) take;
            size -= take;
        }
        if (wsp_echo_read_line(r, line, sizeof line) != 0 || line[0])
            return -1;
    }
}

//  ---------------------------------------------------------------------------
//  WebSocket frames

//  The Sec-WebSocket-Accept of key.
static inline void
wsp_echo_ws_accept(const char *key, char out[64])
{
    char text[256];
    snprintf(text, sizeof text, "%s%s", key, WSP_ECHO_WS_GUID);
    unsigned char digest[SHA_DIGEST_LENGTH];
    SHA1((const unsigned char *) text, strlen(text), digest);
    EVP_EncodeBlock((unsigned char *) out, digest, SHA_DIGEST_LENGTH);
}

//  Writes one frame (masked when mask) of opcode. 0 or -1.
static inline int
wsp_echo_ws_send(int fd, int opcode, const void *data, size_t n, bool mask)
{
    unsigned char head[14];
    size_t h = 0;
    head[h++] = (unsigned char) (0x80 | opcode);
    unsigned char bit = mask ? 0x80 : 0;
    if (n < 126)
        head[h++] = (unsigned char) (bit | n);
    else if (n < 65536) {
        head[h++] = bit | 126;
        head[h++] = (unsigned char) (n >> 8);
        head[h++] = (unsigned char) n;
    } else {
        head[h++] = bit | 127;
        for (int i = 7; i >= 0; i--)
            head[h++] = (unsigned char) ((uint64_t) n >> (8 * i));
    }
    unsigned char key[4] = {0x12, 0x34, 0x56, 0x78};
    if (mask) {
        memcpy(head + h, key, 4);
        h += 4;
    }
    unsigned char *frame = malloc(h + n);
    if (!frame)
        return -1;
    memcpy(frame, head, h);
    for (size_t i = 0; i < n; i++)
        frame[h + i] = mask ? ((const unsigned char *) data)[i] ^ key[i & 3]
                            : ((const unsigned char *) data)[i];
    int rc = wsp_echo_write(fd, frame, h + n);
    free(frame);
    return rc;
}

//  Reads one frame: its opcode and payload (unmasked; caller frees). -1.
static inline int
wsp_echo_ws_recv(wsp_echo_reader_t *r, int *opcode, unsigned char **data, size_t *n)
{
    unsigned char h[2];
    if (wsp_echo_read_exact(r, h, 2) != 0)
        return -1;
    *opcode = h[0] & 0x0f;
    uint64_t len = h[1] & 0x7f;
    if (len == 126) {
        unsigned char e[2];
        if (wsp_echo_read_exact(r, e, 2) != 0)
            return -1;
        len = (uint64_t) e[0] << 8 | e[1];
    } else if (len == 127) {
        unsigned char e[8];
        if (wsp_echo_read_exact(r, e, 8) != 0)
            return -1;
        len = 0;
        for (int i = 0; i < 8; i++)
            len = len << 8 | e[i];
    }
    unsigned char key[4] = {0};
    bool masked = h[1] & 0x80;
    if (masked && wsp_echo_read_exact(r, key, 4) != 0)
        return -1;
    if (len > (64u << 20))
        return -1;
    *data = malloc(len + 1);
    if (!*data || wsp_echo_read_exact(r, *data, len) != 0) {
        free(*data);
        *data = NULL;
        return -1;
    }
    for (uint64_t i = 0; masked && i < len; i++)
        (*data)[i] ^= key[i & 3];
    *n = len;
    return 0;
}

//  ---------------------------------------------------------------------------
//  The app

typedef struct {
    int listener;
    int port;
    pthread_t thread;
    int accepted; //  connections accepted so far (atomic)
} wsp_echo_t;

static inline void
wsp_echo_serve_ws(wsp_echo_reader_t *r, const char *head)
{
    char key[128], accept[64], answer[512];
    if (!wsp_echo_header(head, "Sec-WebSocket-Key", key, sizeof key))
        return;
    wsp_echo_ws_accept(key, accept);
    char protocol[64] = "";
    char protocol_line[128] = "";
    if (wsp_echo_header(head, "Sec-WebSocket-Protocol", protocol, sizeof protocol))
        snprintf(protocol_line, sizeof protocol_line, "Sec-WebSocket-Protocol: %s\r\n",
                 protocol);
    int n = snprintf(answer, sizeof answer,
                     "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n%s\r\n",
                     accept, protocol_line);
    if (wsp_echo_write(r->fd, answer, (size_t) n) != 0)
        return;
    for (;;) {
        int opcode = 0;
        unsigned char *data = NULL;
        size_t len = 0;
        if (wsp_echo_ws_recv(r, &opcode, &data, &len) != 0)
            return;
        int rc = wsp_echo_ws_send(r->fd, opcode == 9 ? 10 : opcode, data, len, false);
        free(data);
        if (rc != 0 || opcode == 8)
            return;
    }
}

static inline void
wsp_echo_count(void *arg, const char *data, size_t n)
{
    (void) data;
    *(long long *) arg += (long long) n;
}

static inline void *
wsp_echo_conn(void *arg)
{
    int fd = (int) (intptr_t) arg;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    wsp_echo_reader_t *r = calloc(1, sizeof *r);
    char *head = malloc(WSP_ECHO_HEAD_MAX);
    char *block = calloc(1, 1 << 16);
    r->fd = fd;
    while (r && head && block && wsp_echo_read_head(r, head, WSP_ECHO_HEAD_MAX) == 0) {
        char method[16] = "", path[1024] = "", value[1024];
        sscanf(head, "%15s %1023s", method, path);
        bool close_after = wsp_echo_header(head, "Connection", value, sizeof value) &&
                           strcasecmp(value, "close") == 0;
        char answer[4096];
        int n;
        if (strcmp(path, "/ws") == 0) {
            wsp_echo_serve_ws(r, head);
            break;
        } else if (strncmp(path, "/big?n=", 7) == 0) {
            unsigned long long size = strtoull(path + 7, NULL, 10);
            n = snprintf(answer, sizeof answer,
                         "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                         "Content-Length: %llu\r\n\r\n",
                         size);
            if (wsp_echo_write(fd, answer, (size_t) n) != 0)
                break;
            unsigned long long sent = 0;
            bool ok = true;
            while (ok && sent < size) {
                size_t take =
                    size - sent < (1 << 16) ? (size_t) (size - sent) : (1 << 16);
                for (size_t i = 0; i < take; i++)
                    block[i] = (char) wsp_echo_byte(sent + i);
                ok = wsp_echo_write(fd, block, take) == 0;
                sent += take;
            }
            if (!ok)
                break;
        } else if (strncmp(path, "/fast?n=", 8) == 0) {
            unsigned long long size = strtoull(path + 8, NULL, 10);
            n = snprintf(answer, sizeof answer,
                         "HTTP/1.1 200 OK\r\nContent-Length: %llu\r\n\r\n", size);
            if (wsp_echo_write(fd, answer, (size_t) n) != 0)
                break;
            unsigned long long sent = 0;
            bool ok = true;
            while (ok && sent < size) {
                size_t take =
                    size - sent < (1 << 16) ? (size_t) (size - sent) : (1 << 16);
                ok = wsp_echo_write(fd, block, take) == 0;
                sent += take;
            }
            if (!ok)
                break;
        } else if (strcmp(path, "/chunked") == 0) {
            n = snprintf(answer, sizeof answer,
                         "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
            bool ok = wsp_echo_write(fd, answer, (size_t) n) == 0;
            uint64_t at = 0;
            for (int c = 1; ok && c <= WSP_ECHO_CHUNKS; c++) {
                size_t size = (size_t) c * WSP_ECHO_CHUNK_STEP;
                char *chunk = malloc(size);
                for (size_t i = 0; chunk && i < size; i++)
                    chunk[i] = (char) wsp_echo_byte(at + i);
                n = snprintf(answer, sizeof answer, "%zx\r\n", size);
                ok = chunk && wsp_echo_write(fd, answer, (size_t) n) == 0 &&
                     wsp_echo_write(fd, chunk, size) == 0 &&
                     wsp_echo_write(fd, "\r\n", 2) == 0;
                free(chunk);
                at += size;
            }
            if (!ok || wsp_echo_write(fd, "0\r\n\r\n", 5) != 0)
                break;
        } else if (strncmp(path, "/chunked?", 9) == 0) {
            unsigned long long size = 0, step = 0;
            if (sscanf(path, "/chunked?n=%llu&size=%llu", &size, &step) != 2 || !step)
                break;
            n = snprintf(answer, sizeof answer,
                         "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
            bool ok = wsp_echo_write(fd, answer, (size_t) n) == 0;
            unsigned long long at = 0;
            while (ok && at < size) {
                unsigned long long end = at + step < size ? at + step : size;
                n = snprintf(answer, sizeof answer, "%llx\r\n", end - at);
                ok = wsp_echo_write(fd, answer, (size_t) n) == 0;
                while (ok && at < end) {
                    size_t take = end - at < (1 << 16) ? (size_t) (end - at) : (1 << 16);
                    for (size_t i = 0; i < take; i++)
                        block[i] = (char) wsp_echo_byte(at + i);
                    ok = wsp_echo_write(fd, block, take) == 0;
                    at += take;
                }
                ok = ok && wsp_echo_write(fd, "\r\n", 2) == 0;
            }
            if (!ok || wsp_echo_write(fd, "0\r\n\r\n", 5) != 0)
                break;
        } else if (strcmp(path, "/headers") == 0) {
            char host[256] = "", cookie[1024] = "", authorization[1024] = "", body[2600];
            wsp_echo_header(head, "Host", host, sizeof host);
            wsp_echo_header(head, "Cookie", cookie, sizeof cookie);
            wsp_echo_header(head, "Authorization", authorization, sizeof authorization);
            int len =
                snprintf(body, sizeof body, "host=%s\ncookie=%s\nauthorization=%s\n",
                         host, cookie, authorization);
            n = snprintf(answer, sizeof answer,
                         "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
                         "Content-Length: %d\r\n\r\n%s",
                         len, body);
            if (wsp_echo_write(fd, answer, (size_t) n) != 0)
                break;
        } else if (strcmp(path, "/upload") == 0) {
            long long total = 0;
            if (wsp_echo_header(head, "Transfer-Encoding", value, sizeof value))
                total = wsp_echo_read_chunked(r, wsp_echo_count, &(long long){0});
            else if (wsp_echo_header(head, "Content-Length", value, sizeof value)) {
                total = strtoll(value, NULL, 10);
                if (wsp_echo_read_exact(r, NULL, (size_t) total) != 0)
                    total = -1;
            }
            if (total < 0)
                break;
            char body[32];
            int len = snprintf(body, sizeof body, "%lld", total);
            n = snprintf(answer, sizeof answer,
                         "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len, body);
            if (wsp_echo_write(fd, answer, (size_t) n) != 0)
                break;
        } else {
            n = snprintf(answer, sizeof answer,
                         "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
            if (wsp_echo_write(fd, answer, (size_t) n) != 0)
                break;
        }
        if (close_after)
            break;
    }
    free(block);
    free(head);
    free(r);
    close(fd);
    return NULL;
}

static inline void *
wsp_echo_accept(void *arg)
{
    wsp_echo_t *self = arg;
    for (;;) {
        int fd = accept(self->listener, NULL, NULL);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            return NULL; //  the listener was shut down
        }
        __atomic_add_fetch(&self->accepted, 1, __ATOMIC_RELAXED);
        pthread_t thread;
        if (pthread_create(&thread, NULL, wsp_echo_conn, (void *) (intptr_t) fd) != 0)
            close(fd);
        else
            pthread_detach(thread);
    }
}

//  Starts the app on a loopback port. 0 or -1.
static inline int
wsp_echo_start(wsp_echo_t *self)
{
    self->listener = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (self->listener < 0 || bind(self->listener, (struct sockaddr *) &addr, len) != 0 ||
        listen(self->listener, 128) != 0 ||
        getsockname(self->listener, (struct sockaddr *) &addr, &len) != 0)
        return -1;
    self->port = ntohs(addr.sin_port);
    return pthread_create(&self->thread, NULL, wsp_echo_accept, self) == 0 ? 0 : -1;
}

//  Stops accepting (connections being served end with their clients).
static inline void
wsp_echo_stop(wsp_echo_t *self)
{
    shutdown(self->listener, SHUT_RDWR);
    pthread_join(self->thread, NULL);
    close(self->listener);
}

//  ---------------------------------------------------------------------------
//  The client

//  A blocking connection to 127.0.0.1:port, or -1.
static inline int
wsp_echo_connect(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t) port)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, (struct sockaddr *) &addr, sizeof addr) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct timeval timeout = {30, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    return fd;
}

//  One answer read from r: its status, head (copied into head) and body
//  (into *body_p when given, caller frees; else counted) by its framing.
//  Returns the status or -1; *body_len the body's bytes.
static inline int
wsp_echo_answer(
    wsp_echo_reader_t *r, char *head, size_t head_size, char **body_p, size_t *body_len)
{
    if (wsp_echo_read_head(r, head, head_size) != 0)
        return -1;
    int status = -1;
    if (sscanf(head, "HTTP/1.%*d %d", &status) != 1)
        return -1;
    char value[64];
    size_t cap = 65536, used = 0;
    char *body = body_p ? malloc(cap) : NULL;
    if (wsp_echo_header(head, "Transfer-Encoding", value, sizeof value)) {
        char line[256];
        for (;;) {
            if (wsp_echo_read_line(r, line, sizeof line) != 0)
                goto fail;
            size_t size = (size_t) strtoull(line, NULL, 16);
            if (size == 0) {
                do
                    if (wsp_echo_read_line(r, line, sizeof line) != 0)
                        goto fail;
                while (line[0]);
                break;
            }
            if (body_p && used + size + 1 > cap) {
                while (used + size + 1 > cap)
                    cap *= 2;
                char *bigger = realloc(body, cap);
                if (!bigger)
                    goto fail;
                body = bigger;
            }
            if (wsp_echo_read_exact(r, body_p ? body + used : NULL, size) != 0 ||
                wsp_echo_read_line(r, line, sizeof line) != 0 || line[0])
                goto fail;
            used += size;
        }
    } else if (wsp_echo_header(head, "Content-Length", value, sizeof value)) {
        size_t size = (size_t) strtoull(value, NULL, 10);
        if (body_p && size + 1 > cap) {
            cap = size + 1;
            char *bigger = realloc(body, cap);
            if (!bigger)
                goto fail;
            body = bigger;
        }
        if (wsp_echo_read_exact(r, body_p ? body : NULL, size) != 0)
            goto fail;
        used = size;
    }
    if (body_p) {
        body[used] = '\0';
        *body_p = body;
    }
    if (body_len)
        *body_len = used;
    return status;
fail:
    free(body);
    return -1;
}

//  One request on a new connection (text is the whole request). Returns
//  the status or -1, with the head and body as wsp_echo_answer.
static inline int
wsp_echo_request(int port,
                 const char *text,
                 char *head,
                 size_t head_size,
                 char **body_p,
                 size_t *body_len)
{
    int fd = wsp_echo_connect(port);
    if (fd < 0)
        return -1;
    wsp_echo_reader_t *r = calloc(1, sizeof *r);
    int status = -1;
    if (r && wsp_echo_write(fd, text, strlen(text)) == 0) {
        r->fd = fd;
        status = wsp_echo_answer(r, head, head_size, body_p, body_len);
    }
    free(r);
    close(fd);
    return status;
}

#endif
