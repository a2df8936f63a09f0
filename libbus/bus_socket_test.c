/*  =========================================================================
    bus_socket_test - CurveZMQ between hosts: an authorized client is
    served, an unknown key or a plain-text client is not

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "t.h"
#include <sys/stat.h> //  mkdir for the authorized-keys directory

static int
s_echo(void *arg,
       bus_rpc_request_t *req,
       const void *body,
       size_t size,
       bus_writer_t *reply,
       bus_error_t *err)
{
    (void) arg;
    (void) req;
    (void) err;
    bus_writer_bin(reply, body, size);
    return BUS_OK;
}

typedef struct {
    int status;
    bool done;
} call_result_t;

static void
s_result(void *arg, const bus_reply_t *reply)
{
    call_result_t *result = arg;
    result->status = reply->status;
    result->done = true;
}

//  Runs a call on a fresh client while serving the server in the same loop.
static int
s_call(bus_rpc_server_t *server, const bus_curve_t *curve, int timeout_ms)
{
    bus_rpc_client_t *client =
        bus_rpc_client_new(bus_rpc_server_endpoint(server), "t/1", curve);
    if (!client)
        return -1;
    call_result_t result = {-1, false};
    uint64_t id = bus_rpc_client_call(client, PROTO_TEST_ECHO, "\x80", 1, timeout_ms,
                                      s_result, &result);
    zmq_pollitem_t items[] = {
        {zsock_resolve(bus_rpc_server_sock(server)), 0, ZMQ_POLLIN, 0},
        {zsock_resolve(bus_rpc_client_sock(client)), 0, ZMQ_POLLIN, 0}};
    while (id && !result.done) {
        zmq_poll(items, 2, 10);
        bus_rpc_server_dispatch(server);
        bus_rpc_client_dispatch(client);
        bus_rpc_client_tick(client);
    }
    bus_rpc_client_destroy(&client);
    return result.status;
}

static void
test_curve_authenticates_clients(void)
{
    char dir[64] = "/tmp/backplane-curve-XXXXXX";
    T_ASSERT(mkdtemp(dir));
    char keys[128], server_path[128], client_path[128], rogue_path[128], public_path[160];
    snprintf(keys, sizeof keys, "%s/authorized", dir);
    T_EQ_INT(mkdir(keys, 0700), 0);
    snprintf(server_path, sizeof server_path, "%s/server.cert", dir);
    snprintf(client_path, sizeof client_path, "%s/client.cert", dir);
    snprintf(rogue_path, sizeof rogue_path, "%s/rogue.cert", dir);

    zcert_t *server_cert = zcert_new();
    zcert_t *client_cert = zcert_new();
    zcert_t *rogue_cert = zcert_new();
    T_EQ_INT(zcert_save(server_cert, server_path), 0);
    T_EQ_INT(zcert_save(client_cert, client_path), 0);
    T_EQ_INT(zcert_save(rogue_cert, rogue_path), 0);
    snprintf(public_path, sizeof public_path, "%s/client.cert", keys);
    T_EQ_INT(zcert_save_public(client_cert, public_path), 0);

    bus_curve_t curve = {true, server_path, client_path, zcert_public_txt(server_cert),
                         keys};
    T_EQ_INT(bus_socket_security_start(&curve), 0);
    bus_rpc_server_t *server = bus_rpc_server_new("tcp://127.0.0.1:*", &curve);
    T_ASSERT(server);
    bus_rpc_server_handle(server, PROTO_TEST_ECHO, s_echo, NULL);

    T_EQ_INT(s_call(server, &curve, 3000), BUS_OK);
    bus_curve_t rogue = curve;
    rogue.client_cert = rogue_path;
    T_EQ_INT(s_call(server, &rogue, 300), BUS_STATUS_TIMEOUT);
    T_EQ_INT(s_call(server, NULL, 300), BUS_STATUS_TIMEOUT);
    //  The server is still fine for the right client.
    T_EQ_INT(s_call(server, &curve, 3000), BUS_OK);

    bus_rpc_server_destroy(&server);
    bus_socket_security_stop();
    zcert_destroy(&server_cert);
    zcert_destroy(&client_cert);
    zcert_destroy(&rogue_cert);
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    T_EQ_INT(system(cmd), 0);
}

int
main(void)
{
    bus_log_init("bus_socket_test", NULL, BUS_LOG_ERROR);
    T_RUN(test_curve_authenticates_clients);
    return T_DONE();
}
