/*  =========================================================================
    bus_tls - TLS for the services' own HTTP listeners

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include <openssl/err.h>
#include <sys/socket.h>
#include "bus_tls.h"

SSL_CTX *
bus_tls_server_new(const char *cert_file,
                   const char *key_file,
                   const char *option,
                   bus_error_t *err)
{
    assert(cert_file && option);
    ERR_clear_error();
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    if (ctx && SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION) == 1 &&
        SSL_CTX_use_certificate_chain_file(ctx, cert_file) == 1 &&
        SSL_CTX_use_PrivateKey_file(ctx, key_file ? key_file : "", SSL_FILETYPE_PEM) ==
            1 &&
        SSL_CTX_check_private_key(ctx) == 1) {
        SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE |
                                  SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
        return ctx;
    }
    char reason[256];
    unsigned long code = ERR_get_error();
    if (code)
        ERR_error_string_n(code, reason, sizeof reason);
    else
        snprintf(reason, sizeof reason, "out of memory");
    const char *key_option = strrchr(option, '_');
    bus_error_set(err, BUS_STATUS_INVALID, "%s %s / %.*s_key %s: %s", option, cert_file,
                  key_option ? (int) (key_option - option) : (int) strlen(option), option,
                  key_file ? key_file : "", reason);
    ERR_clear_error();
    SSL_CTX_free(ctx);
    return NULL;
}

SSL *
bus_tls_accept(SSL_CTX *ctx, int fd)
{
    assert(ctx);
    SSL *ssl = SSL_new(ctx);
    if (!ssl)
        return NULL;
    if (SSL_set_fd(ssl, fd) != 1) {
        SSL_free(ssl);
        return NULL;
    }
    SSL_set_accept_state(ssl);
    return ssl;
}

void
bus_tls_close(SSL **ssl_p)
{
    assert(ssl_p);
    if (!*ssl_p)
        return;
    //  One close_notify, best effort: the socket is non-blocking and the
    //  peer's answer is not waited for.
    if (SSL_is_init_finished(*ssl_p))
        SSL_shutdown(*ssl_p);
    SSL_free(*ssl_p);
    *ssl_p = NULL;
    ERR_clear_error();
}

//  errno and *wait for an SSL call that returned rc; -1 always.
static ssize_t
s_failed(SSL *ssl, int rc, short *wait)
{
    int reason = SSL_get_error(ssl, rc);
    int saved = errno;
    ERR_clear_error();
    switch (reason) {
        case SSL_ERROR_WANT_READ:
            *wait = EV_READ;
            errno = EAGAIN;
            break;
        case SSL_ERROR_WANT_WRITE:
            *wait = EV_WRITE;
            errno = EAGAIN;
            break;
        case SSL_ERROR_SYSCALL:
            //  The socket's own error; none set means the peer went without
            //  a close_notify.
            errno = saved ? saved : EPIPE;
            break;
        default:
            errno = EPROTO;
            break;
    }
    return -1;
}

ssize_t
bus_tls_recv(SSL *ssl, int fd, void *buf, size_t len, short *wait)
{
    assert(wait);
    *wait = EV_READ;
    if (!ssl)
        return recv(fd, buf, len, 0);
    if (len == 0)
        return 0;
    int want = len > INT_MAX ? INT_MAX : (int) len;
    errno = 0;
    ERR_clear_error(); //  SSL_get_error reads the thread's queue first
    int rc = SSL_read(ssl, buf, want);
    if (rc > 0)
        return rc;
    if (SSL_get_error(ssl, rc) == SSL_ERROR_ZERO_RETURN) {
        ERR_clear_error();
        return 0; //  the peer's close_notify
    }
    return s_failed(ssl, rc, wait);
}

ssize_t
bus_tls_send(SSL *ssl, int fd, const void *buf, size_t len, short *wait)
{
    assert(wait);
    *wait = EV_WRITE;
    if (!ssl)
        return send(fd, buf, len, MSG_NOSIGNAL);
    if (len == 0)
        return 0;
    int want = len > INT_MAX ? INT_MAX : (int) len;
    errno = 0;
    ERR_clear_error();
    int rc = SSL_write(ssl, buf, want);
    return rc > 0 ? rc : s_failed(ssl, rc, wait);
}

size_t
bus_tls_pending(SSL *ssl)
{
    return ssl ? (size_t) SSL_pending(ssl) : 0;
}
