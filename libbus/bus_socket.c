/*  =========================================================================
    bus_socket - socket factory: options, bind/connect, CurveZMQ

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

#include <pthread.h>

#include <dirent.h>   //  opendir: the authorized-keys directory
#include <sys/stat.h> //  umask, chmod: a new certificate's modes

static zactor_t *s_auth;

//  ---------------------------------------------------------------------------
//  The ZAP handler (ZeroMQ RFC 27). libzmq asks it, over
//  inproc://zeromq.zap.01, whether a client may finish its CURVE handshake
//  with a server socket of this process (zsock_set_zap_domain). It accepts
//  the keys of the public certificates in the authorized-keys directory,
//  read again at each request: connections are few and long-lived, and a key
//  added to or removed from the directory then counts from the next
//  connection, without a restart (key rotation). Every refusal is a warning
//  with the client's address and key, so an operator sees who knocked. It
//  replaces czmq's zauth, which decides the same from the same directory but
//  says nothing of a refusal in our log format (its VERBOSE mode writes
//  czmq's own lines, for every connection).

//  Whether cert's "address" metadata (comma-separated) names host.
static bool
s_cert_names(zcert_t *cert, const char *host)
{
    const char *list = zcert_meta(cert, "address");
    size_t length = strlen(host);
    while (list && *list) {
        while (*list == ' ' || *list == ',')
            list++;
        size_t item = strcspn(list, ", ");
        if (item == length && strncmp(list, host, length) == 0)
            return true;
        list += item;
    }
    return false;
}

//  A public certificate in dir with the Z85 key (key given) or whose
//  addresses name host (host given): whether one is, its key into found
//  (41 bytes) when not NULL.
static bool
s_find_cert(const char *dir, const char *key, const char *host, char *found_key)
{
    DIR *entries = opendir(dir);
    if (!entries) {
        bus_log_error("cannot read the authorized keys dir=%s reason=\"%s\"", dir,
                      strerror(errno));
        return false;
    }
    bool found = false;
    struct dirent *entry;
    while (!found && (entry = readdir(entries))) {
        const char *name = entry->d_name;
        size_t len = strlen(name);
        //  Hidden files and secret certificates are no authorization.
        if (name[0] == '.' || (len > 7 && strcmp(name + len - 7, "_secret") == 0))
            continue;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, name);
        zcert_t *cert = zcert_load(path);
        found = cert && (key ? strcmp(zcert_public_txt(cert), key) == 0
                             : s_cert_names(cert, host));
        if (found && found_key)
            snprintf(found_key, 41, "%s", zcert_public_txt(cert));
        zcert_destroy(&cert);
    }
    closedir(entries);
    return found;
}

//  Whether a public certificate in dir has the Z85 key.
static bool
s_key_authorized(const char *dir, const char *key)
{
    return s_find_cert(dir, key, NULL, NULL);
}

//  Answers one ZAP request: 200 for an authorized CURVE key (any key when
//  dir is NULL), 400 otherwise.
static void
s_zap_answer(zsock_t *handler, zmsg_t *request, const char *dir)
{
    char *version = zmsg_popstr(request);
    char *sequence = zmsg_popstr(request);
    char *domain = zmsg_popstr(request);
    char *address = zmsg_popstr(request);
    char *identity = zmsg_popstr(request);
    char *mechanism = zmsg_popstr(request);
    zframe_t *credential = zmsg_pop(request);
    char key[41] = "";
    bool curve = mechanism && streq(mechanism, "CURVE") && credential &&
                 zframe_size(credential) == 32;
    if (curve)
        zmq_z85_encode(key, zframe_data(credential), 32);
    const char *refused = !version || !streq(version, "1.0")   ? "not ZAP 1.0"
                          : !curve                             ? "not CURVE"
                          : dir && !s_key_authorized(dir, key) ? "unknown key"
                                                               : NULL;
    if (refused)
        bus_log_warning("bus peer refused address=%s mechanism=%s public_key=%s"
                        " reason=\"%s\"",
                        address && *address ? address : "-", mechanism ? mechanism : "-",
                        *key ? key : "-", refused);
    else
        bus_log_debug("bus peer admitted address=%s public_key=%s",
                      address && *address ? address : "-", key);
    zmsg_t *reply = zmsg_new();
    zmsg_addstr(reply, "1.0");
    zmsg_addstr(reply, sequence ? sequence : "");
    zmsg_addstr(reply, refused ? "400" : "200");
    zmsg_addstr(reply, refused ? refused : "OK");
    zmsg_addstr(reply, "");      //  user id
    zmsg_addmem(reply, NULL, 0); //  metadata
    zmsg_send(&reply, handler);
    zframe_destroy(&credential);
    zstr_free(&version);
    zstr_free(&sequence);
    zstr_free(&domain);
    zstr_free(&address);
    zstr_free(&identity);
    zstr_free(&mechanism);
    zmsg_destroy(&request);
}

typedef struct {
    zsock_t *handler; //  bound to inproc://zeromq.zap.01
    char *dir;        //  NULL: admit any key
} zap_args_t;

//  The handler's thread: requests until the pipe says $TERM (the only
//  command it gets). It owns args, made and bound by
//  bus_socket_security_start, so a failed bind is an error of the start.
static void
s_zap_actor(zsock_t *pipe, void *args_)
{
    zap_args_t *args = args_;
    zsock_signal(pipe, 0);
    zmq_pollitem_t items[] = {{zsock_resolve(pipe), 0, ZMQ_POLLIN, 0},
                              {zsock_resolve(args->handler), 0, ZMQ_POLLIN, 0}};
    while (true) {
        if (zmq_poll(items, 2, -1) < 0) {
            if (zmq_errno() == EINTR)
                continue;
            break;
        }
        if (items[0].revents & ZMQ_POLLIN)
            break;
        if (items[1].revents & ZMQ_POLLIN) {
            zmsg_t *request = zmsg_recv(args->handler);
            if (request)
                s_zap_answer(args->handler, request, args->dir);
        }
    }
    zsock_destroy(&args->handler);
    zstr_free(&args->dir);
    free(args);
}

int
bus_socket_security_start(const bus_curve_t *curve)
{
    if (!curve || !curve->enabled || s_auth)
        return 0;
    zap_args_t *args = calloc(1, sizeof *args);
    if (!args)
        return -1;
    args->dir = curve->authorized_keys && *curve->authorized_keys
                    ? strdup(curve->authorized_keys)
                    : NULL;
    args->handler = zsock_new(ZMQ_REP);
    if (!args->handler || zsock_bind(args->handler, "inproc://zeromq.zap.01") != 0) {
        bus_log_error("cannot bind the ZAP handler reason=\"%s\"",
                      zmq_strerror(zmq_errno()));
        zsock_destroy(&args->handler);
        zstr_free(&args->dir);
        free(args);
        return -1;
    }
    //  czmq's thread, not ours: it inherits the mask it is started with
    //  (bus_thread.h says why it must not take the process's signals).
    sigset_t saved;
    pthread_sigmask(SIG_SETMASK, NULL, &saved);
    bus_thread_block_signals();
    s_auth = zactor_new(s_zap_actor, args);
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    if (!s_auth) {
        zsock_destroy(&args->handler);
        zstr_free(&args->dir);
        free(args);
        return -1;
    }
    return 0;
}

void
bus_socket_security_stop(void)
{
    zactor_destroy(&s_auth);
}

int
bus_socket_make_cert(const char *path, char *public_key, size_t size)
{
    return bus_socket_make_host_cert(path, NULL, public_key, size);
}

int
bus_socket_make_host_cert(const char *path,
                          const char *address,
                          char *public_key,
                          size_t size)
{
    zcert_t *cert = zcert_new();
    if (!cert)
        return -1;
    if (address && *address)
        zcert_set_meta(cert, "address", "%s", address);
    //  The secret file readable by its owner only, from its creation.
    mode_t saved = umask(077);
    int rc = zcert_save(cert, path);
    umask(saved);
    if (rc == 0)
        rc = chmod(path, 0644); //  the public half is meant to be copied
    if (rc == 0 && public_key)
        snprintf(public_key, size, "%s", zcert_public_txt(cert));
    zcert_destroy(&cert);
    return rc == 0 ? 0 : -1;
}

static void
s_common_options(zsock_t *socket)
{
    zsock_set_linger(socket, BUS_SOCKET_LINGER_MS);
    zsock_set_sndhwm(socket, BUS_SOCKET_HWM);
    zsock_set_rcvhwm(socket, BUS_SOCKET_HWM);
    zsock_set_heartbeat_ivl(socket, BUS_SOCKET_PING_MS);
    zsock_set_heartbeat_timeout(socket, BUS_SOCKET_DEAD_MS);
    zsock_set_heartbeat_ttl(socket, BUS_SOCKET_DEAD_MS);
    zsock_set_connect_timeout(socket, BUS_SOCKET_CONNECT_MS);
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

int
bus_socket_server_key(const bus_curve_t *curve, const char *endpoint, char *key)
{
    assert(curve && endpoint && key);
    *key = '\0';
    if (strncmp(endpoint, "inproc://", 9) == 0) {
        //  The hub's twins in this process: our own server certificate.
        zcert_t *cert = curve->server_cert && *curve->server_cert
                            ? zcert_load(curve->server_cert)
                            : NULL;
        if (cert)
            snprintf(key, 41, "%s", zcert_public_txt(cert));
        zcert_destroy(&cert);
    } else {
        char host[256] = "", port[16];
        if (bus_addr_endpoint_split(endpoint, host, sizeof host, port, sizeof port) ==
                0 &&
            curve->authorized_keys && *curve->authorized_keys)
            s_find_cert(curve->authorized_keys, NULL, host, key);
    }
    if (!*key && curve->server_public && *curve->server_public)
        snprintf(key, 41, "%s", curve->server_public);
    if (!*key) {
        bus_log_error("no curve server key endpoint=%s reason=\"no certificate in %s"
                      " has its address, and no bus.curve.server_public\"",
                      endpoint, curve->authorized_keys ? curve->authorized_keys : "");
        return -1;
    }
    return 0;
}

zsock_t *
bus_socket_connect(int type, const char *endpoint, const bus_curve_t *curve)
{
    zsock_t *socket = zsock_new(type);
    if (!socket)
        return NULL;
    s_common_options(socket);
    if (curve && curve->enabled) {
        char key[41];
        if (s_apply_cert(socket, curve->client_cert) != 0 ||
            bus_socket_server_key(curve, endpoint, key) != 0)
            goto fail;
        zsock_set_curve_serverkey(socket, key);
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
