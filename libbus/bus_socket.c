/*  =========================================================================
    bus_socket - socket factory: options, bind/connect, CurveZMQ

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

#include <pthread.h>

static zactor_t *s_auth;

int
bus_socket_security_start(const bus_curve_t *curve)
{
    if (!curve || !curve->enabled || s_auth)
        return 0;
    //  czmq's thread, not ours: it inherits the mask it is started with
    //  (bus_thread.h says why it must not take the process's signals).
    sigset_t saved;
    pthread_sigmask(SIG_SETMASK, NULL, &saved);
    bus_thread_block_signals();
    s_auth = zactor_new(zauth, NULL);
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    if (!s_auth)
        return -1;
    const char *dir = curve->authorized_keys && *curve->authorized_keys
                          ? curve->authorized_keys
                          : CURVE_ALLOW_ANY;
    zstr_sendx(s_auth, "CURVE", dir, NULL);
    zsock_wait(s_auth);
    return 0;
}

void
bus_socket_security_stop(void)
{
    zactor_destroy(&s_auth);
}

static void
s_common_options(zsock_t *socket)
{
    zsock_set_linger(socket, BUS_SOCKET_LINGER_MS);
    zsock_set_sndhwm(socket, BUS_SOCKET_HWM);
    zsock_set_rcvhwm(socket, BUS_SOCKET_HWM);
}

static int
s_apply_cert(zsock_t *socket, const char *path)
{
    zcert_t *cert = path && *path ? zcert_load(path) : NULL;
    if (!cert) {
        bus_log_error("cannot load curve certificate path=%s", path ? path : "(none)");
        return -1;
    }
    zcert_apply(cert, socket);
    zcert_destroy(&cert);
    return 0;
}

zsock_t *
bus_socket_bind(int type, const char *endpoint, const bus_curve_t *curve)
{
    zsock_t *socket = zsock_new(type);
    if (!socket)
        return NULL;
    s_common_options(socket);
    if (curve && curve->enabled) {
        if (s_apply_cert(socket, curve->server_cert) != 0)
            goto fail;
        zsock_set_curve_server(socket, 1);
        zsock_set_zap_domain(socket, "backplane");
    }
    if (zsock_bind(socket, "%s", endpoint) < 0) {
        bus_log_error("cannot bind endpoint=%s reason=\"%s\"", endpoint,
                      zmq_strerror(zmq_errno()));
        goto fail;
    }
    return socket;
fail:
    zsock_destroy(&socket);
    return NULL;
}

zsock_t *
bus_socket_connect(int type, const char *endpoint, const bus_curve_t *curve)
{
    zsock_t *socket = zsock_new(type);
    if (!socket)
        return NULL;
    s_common_options(socket);
    if (curve && curve->enabled) {
        if (s_apply_cert(socket, curve->client_cert) != 0)
            goto fail;
        zsock_set_curve_serverkey(socket, curve->server_public);
    }
    if (zsock_connect(socket, "%s", endpoint) < 0) {
        bus_log_error("cannot connect endpoint=%s reason=\"%s\"", endpoint,
                      zmq_strerror(zmq_errno()));
        goto fail;
    }
    return socket;
fail:
    zsock_destroy(&socket);
    return NULL;
}

void
bus_socket_endpoint(zsock_t *socket, char *out, size_t out_size)
{
    char *last = zsock_last_endpoint(socket);
    snprintf(out, out_size, "%s", last ? last : "");
    zstr_free(&last);
}
