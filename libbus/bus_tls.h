/*  =========================================================================
    bus_tls - TLS for the services' own HTTP listeners

    The gateway serves HTTPS through libevent's bufferevents; the
    storage-proxy and the wsproxy drive their sockets themselves
    (non-blocking, with sendfile and splice where the bytes are plain).
    This module gives all three one server context (certificate chain and
    key from PEM files, TLS 1.2 at least, checked at start with file names
    in the error) and, for the hand-driven sockets, recv and send that
    work the same over TLS: a connection with an SSL object reads and
    writes through it, one without reads and writes the socket.

    Over TLS a read may need the socket to be writable (a renegotiation or
    the handshake's reply) and a write readable; so both calls say, when
    they would block, which readiness to wait for. TLS also keeps bytes
    it has decrypted but not handed out (SSL_pending): a reader that
    stops before EAGAIN must look at bus_tls_pending before it waits.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_TLS_H_INCLUDED
#define BUS_TLS_H_INCLUDED

#include <openssl/ssl.h>
#include <sys/types.h>
#include "bus.h"

//  A server context from a PEM certificate chain and its PEM private key
//  (option names the config keys, for the error: "http.tls_cert"). NULL
//  with err INVALID naming both files and OpenSSL's reason. Partial
//  writes are allowed, as send's callers expect. A write that would block
//  must be asked again with the same bytes (at least as many), though
//  they may lie at another address.
SSL_CTX *bus_tls_server_new(const char *cert_file,
                            const char *key_file,
                            const char *option,
                            bus_error_t *err);

//  A server-side TLS session on the accepted socket fd (non-blocking); the
//  handshake runs inside the first reads and writes. NULL when out of
//  memory.
SSL *bus_tls_accept(SSL_CTX *ctx, int fd);

//  Ends the session (one close_notify, never waiting for the peer's) and
//  frees it. Idempotent, NULLs the pointer; the socket stays the caller's.
void bus_tls_close(SSL **ssl_p);

//  recv(fd, buf, len) through ssl (NULL: the socket itself): > 0 bytes
//  read, 0 at the peer's end, -1 with errno: EAGAIN with *wait EV_READ or
//  EV_WRITE (what to wait for before calling again), EPROTO for a TLS
//  failure (a bad handshake, a forged record), or recv's own.
ssize_t bus_tls_recv(SSL *ssl, int fd, void *buf, size_t len, short *wait);

//  send(fd, buf, len, MSG_NOSIGNAL) through ssl (NULL: the socket itself):
//  > 0 bytes written, -1 with errno as bus_tls_recv (EPIPE when the peer
//  has gone).
ssize_t bus_tls_send(SSL *ssl, int fd, const void *buf, size_t len, short *wait);

//  Bytes ssl holds decrypted and not yet read (0 for NULL).
size_t bus_tls_pending(SSL *ssl);

#endif
