/*  =========================================================================
    bus_tls_test - the listeners' TLS: context errors, a handshake and
    bytes both ways over non-blocking sockets, the peer's end, a peer
    that speaks plaintext, and the plain path

    A self-signed certificate is made with the openssl command; both ends
    run in this thread on a socketpair, each call answering EAGAIN with
    what it waits for, the way the services' loops drive them.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include <fcntl.h>
#include <sys/socket.h>
#include "bus_tls.h"
#include "t.h"

static char s_dir[] = "/tmp/bus_tls_test.XXXXXX";
static char s_cert[600], s_key[600];

static void
s_nonblocking(int fd)
{
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

static void
test_context_errors(void)
{
    bus_error_t err = {0};
    T_ASSERT(!bus_tls_server_new("/nonexistent.crt", "/nonexistent.key", "http.tls_cert",
                                 &err));
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_ASSERT(strstr(err.detail, "http.tls_cert /nonexistent.crt / http.tls_key "
                                "/nonexistent.key: "));
    //  a key that is not the certificate's
    char other[700], command[1600];
    snprintf(other, sizeof other, "%s/other.key", s_dir);
    snprintf(command, sizeof command,
             "openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out %s "
             "2>/dev/null",
             other);
    T_EQ_INT(system(command), 0);
    T_ASSERT(!bus_tls_server_new(s_cert, other, "http.tls_cert", &err));
    T_ASSERT(strstr(err.detail, other));
    SSL_CTX *ctx = bus_tls_server_new(s_cert, s_key, "http.tls_cert", &err);
    T_ASSERT(ctx);
    SSL_CTX_free(ctx);
}

//  Moves bytes between a client and a server session until the client has
//  sent all of out and the server read it into in; false if stuck.
static bool
s_pump(SSL *client, int cfd, SSL *server, int sfd, const char *out, size_t size, char *in)
{
    size_t sent = 0, got = 0;
    for (int round = 0; round < 100000 && got < size; round++) {
        short wait;
        if (sent < size) {
            ssize_t n = bus_tls_send(client, cfd, out + sent, size - sent, &wait);
            if (n > 0)
                sent += (size_t) n;
            else if (errno != EAGAIN)
                return false;
        }
        ssize_t n = bus_tls_recv(server, sfd, in + got, size - got, &wait);
        if (n > 0)
            got += (size_t) n;
        else if (n == 0 || errno != EAGAIN)
            return false;
    }
    return got == size && memcmp(out, in, size) == 0;
}

static void
test_round_trip(void)
{
    bus_error_t err = {0};
    SSL_CTX *server_ctx = bus_tls_server_new(s_cert, s_key, "http.tls_cert", &err);
    SSL_CTX *client_ctx = SSL_CTX_new(TLS_client_method());
    T_ASSERT(server_ctx && client_ctx);
    //  the client trusts the certificate and checks the name in it
    T_EQ_INT(SSL_CTX_load_verify_locations(client_ctx, s_cert, NULL), 1);
    SSL_CTX_set_verify(client_ctx, SSL_VERIFY_PEER, NULL);
    int fds[2];
    T_EQ_INT(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    s_nonblocking(fds[0]);
    s_nonblocking(fds[1]);
    SSL *client = SSL_new(client_ctx);
    T_ASSERT(client && SSL_set_fd(client, fds[0]) == 1);
    SSL_set_connect_state(client);
    T_EQ_INT(SSL_set1_host(client, "127.0.0.1"), 1);
    SSL *server = bus_tls_accept(server_ctx, fds[1]);
    T_ASSERT(server);

    //  Nothing to read yet: EAGAIN, waiting on a readable socket.
    char in[300000];
    short wait = 0;
    T_EQ_INT(bus_tls_recv(server, fds[1], in, sizeof in, &wait), -1);
    T_EQ_INT(errno, EAGAIN);
    T_EQ_INT(wait, EV_READ);

    //  300 KB each way, more than a socket buffer and many records.
    static char out[300000];
    for (size_t i = 0; i < sizeof out; i++)
        out[i] = (char) (i * 7 + 3);
    T_ASSERT(s_pump(client, fds[0], server, fds[1], out, sizeof out, in));
    T_ASSERT(s_pump(server, fds[1], client, fds[0], out, sizeof out, in));
    T_EQ_INT(bus_tls_pending(server), 0);
    T_EQ_INT(bus_tls_pending(NULL), 0);

    //  The client's close_notify is the end: 0, as recv says.
    SSL_shutdown(client);
    T_EQ_INT(bus_tls_recv(server, fds[1], in, sizeof in, &wait), 0);
    bus_tls_close(&server);
    T_ASSERT(!server);
    bus_tls_close(&server);
    SSL_free(client);
    close(fds[0]);
    close(fds[1]);
    SSL_CTX_free(client_ctx);
    SSL_CTX_free(server_ctx);
}

//  A peer that speaks plain HTTP to a TLS listener is a protocol error,
//  not a hang or a crash.
static void
test_plaintext_peer(void)
{
    bus_error_t err = {0};
    SSL_CTX *ctx = bus_tls_server_new(s_cert, s_key, "http.tls_cert", &err);
    T_ASSERT(ctx);
    int fds[2];
    T_EQ_INT(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    s_nonblocking(fds[1]);
    SSL *server = bus_tls_accept(ctx, fds[1]);
    const char request[] = "GET /download HTTP/1.1\r\nHost: x\r\n\r\n";
    T_EQ_INT(write(fds[0], request, sizeof request - 1), (ssize_t) sizeof request - 1);
    char in[256];
    short wait;
    ssize_t n = bus_tls_recv(server, fds[1], in, sizeof in, &wait);
    T_EQ_INT(n, -1);
    T_EQ_INT(errno, EPROTO);
    bus_tls_close(&server);
    //  and one that goes away in the handshake
    SSL *again = bus_tls_accept(ctx, fds[1]);
    close(fds[0]);
    n = bus_tls_recv(again, fds[1], in, sizeof in, &wait);
    T_ASSERT(n == 0 || (n == -1 && errno != EAGAIN));
    bus_tls_close(&again);
    close(fds[1]);
    SSL_CTX_free(ctx);
}

//  Without a session the calls are recv and send.
static void
test_plain(void)
{
    int fds[2];
    T_EQ_INT(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    s_nonblocking(fds[1]);
    short wait;
    T_EQ_INT(bus_tls_send(NULL, fds[0], "abc", 3, &wait), 3);
    T_EQ_INT(wait, EV_WRITE);
    char in[8];
    T_EQ_INT(bus_tls_recv(NULL, fds[1], in, sizeof in, &wait), 3);
    T_ASSERT(memcmp(in, "abc", 3) == 0);
    T_EQ_INT(bus_tls_recv(NULL, fds[1], in, sizeof in, &wait), -1);
    T_EQ_INT(errno, EAGAIN);
    T_EQ_INT(wait, EV_READ);
    close(fds[0]);
    T_EQ_INT(bus_tls_recv(NULL, fds[1], in, sizeof in, &wait), 0);
    close(fds[1]);
}

int
main(void)
{
    if (!mkdtemp(s_dir))
        return 1;
    snprintf(s_cert, sizeof s_cert, "%s/tls.crt", s_dir);
    snprintf(s_key, sizeof s_key, "%s/tls.key", s_dir);
    char command[1600];
    snprintf(command, sizeof command,
             "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1"
             " -addext subjectAltName=IP:127.0.0.1 -keyout %s -out %s 2>/dev/null",
             s_key, s_cert);
    if (system(command) != 0) {
        fprintf(stderr, "# openssl could not make a certificate\n");
        return 1;
    }
    T_RUN(test_context_errors);
    T_RUN(test_round_trip);
    T_RUN(test_plaintext_peer);
    T_RUN(test_plain);
    snprintf(command, sizeof command, "rm -rf %s", s_dir);
    if (system(command) != 0)
        fprintf(stderr, "# cannot remove %s\n", s_dir);
    return T_DONE();
}
