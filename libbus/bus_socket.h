/*  =========================================================================
    bus_socket - creating the bus's ZeroMQ sockets, with optional CurveZMQ

    Every socket of the bus is made here, so security and socket options are
    decided in one place. On loopback the bus runs in plain TCP. Between
    hosts, CurveZMQ encrypts and authenticates: every bus server (the hub,
    the registry, each RPC server) presents the cluster's server certificate,
    and a client connects with its own certificate, which the server accepts
    only if its public key is in the authorized-keys directory (a ZAP
    handler of our own, which logs every refusal).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_SOCKET_H_INCLUDED
#define BUS_SOCKET_H_INCLUDED

#include <czmq.h>

#define BUS_SOCKET_HWM       100000 //  messages queued per peer before sends fail
#define BUS_SOCKET_LINGER_MS 0      //  never block on close for unsent messages
//  A connection that carried nothing back for BUS_SOCKET_DEAD_MS (ZMTP PINGs
//  every BUS_SOCKET_PING_MS) is closed and connected afresh, a connect that
//  takes longer than BUS_SOCKET_CONNECT_MS tried again: after a partition,
//  TCP alone would resend what it holds only at its next exponential
//  backoff, up to as long again as the partition lasted, and a connect's
//  SYN likewise; the peers would stay apart long after the link is back.
#define BUS_SOCKET_PING_MS    1000
#define BUS_SOCKET_DEAD_MS    4000
#define BUS_SOCKET_CONNECT_MS 2000

//  Each host its own key pair: its servers present it, its clients too. A
//  client finds the key of the server it connects to by the endpoint's host
//  among the "address" metadata of the public certificates in
//  authorized_keys (`--make-cert FILE --cert-address A`), the directory
//  every host already gets every host's public certificate in; so no host
//  holds a secret that serves as another's. server_public, when set, is the
//  key of a server whose host no certificate names (one server key for the
//  whole cluster, the older setup); an inproc endpoint is this process's
//  own server, server_cert.
typedef struct {
    bool enabled;
    const char *server_cert;     //  secret certificate servers present (zcert file)
    const char *client_cert;     //  this node's secret certificate, used as a client
    const char *server_public;   //  Z85 key of servers no certificate names ("" none)
    const char *authorized_keys; //  directory of the hosts' public certificates
} bus_curve_t;

//  Starts the authenticator when curve is enabled: it admits the clients
//  whose public certificates are in curve->authorized_keys (any client when
//  that is empty), reading the directory again at each connection, and logs
//  a warning "bus peer refused" with the address and key of every other.
//  Call once per process before making sockets; harmless when disabled.
//  0 or -1.
int bus_socket_security_start(const bus_curve_t *curve);

//  Stops the authenticator.
void bus_socket_security_stop(void);

//  Writes a new CurveZMQ key pair as czmq certificates: path, the public one
//  (mode 0644: for the authorized-keys directories of other hosts) and
//  path_secret (mode 0600: a bus.curve.*_cert). The public key (Z85, 40
//  characters) into public_key when given. 0 or -1 (errno).
int bus_socket_make_cert(const char *path, char *public_key, size_t size);

//  The same, with address (NULL for none): the host's addresses or names as
//  its servers' endpoints give them, comma-separated, as the certificate's
//  "address" metadata, by which clients find the key of a server.
int bus_socket_make_host_cert(const char *path,
                              const char *address,
                              char *public_key,
                              size_t size);

//  The Z85 public key (40 characters) clients expect of the server at
//  endpoint, into key (41 bytes), as bus_curve_t says: 0, or -1 (logged)
//  when none is known.
int bus_socket_server_key(const bus_curve_t *curve, const char *endpoint, char *key);

//  A socket of type (ZMQ_ROUTER, ...) bound to endpoint ("tcp://127.0.0.1:*"
//  picks a free port: ask zsock_endpoint or bus_socket_endpoint). curve may
//  be NULL. Returns NULL and logs on failure. Caller owns return value.
zsock_t *bus_socket_bind(int type, const char *endpoint, const bus_curve_t *curve);

//  A socket of type connected to endpoint, as a client. Caller owns return value.
zsock_t *bus_socket_connect(int type, const char *endpoint, const bus_curve_t *curve);

//  The endpoint a bound socket really listens on (the port resolved), in
//  out. "tcp://0.0.0.0:5000" stays as bound; a wildcard host is kept.
void bus_socket_endpoint(zsock_t *socket, char *out, size_t out_size);

#endif
