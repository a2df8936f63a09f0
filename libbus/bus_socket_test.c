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

//  Whether the log file holds needle.
static bool
s_logged(FILE *log, const char *needle)
{
    fflush(log);
    rewind(log);
    char line[1024];
    bool found = false;
    while (!found && fgets(line, sizeof line, log))
        found = strstr(line, needle) != NULL;
    fseek(log, 0, SEEK_END);
    return found;
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

    //  Key pairs as `backplane-<service> --make-cert` writes them: the secret
    //  half readable by its owner only.
    char server_key[64], client_key[64], rogue_key[64];
    T_EQ_INT(bus_socket_make_cert(server_path, server_key, sizeof server_key), 0);
    T_EQ_INT(bus_socket_make_cert(client_path, client_key, sizeof client_key), 0);
    T_EQ_INT(bus_socket_make_cert(rogue_path, rogue_key, sizeof rogue_key), 0);
    T_EQ_INT(strlen(client_key), 40);
    char secret_path[160];
    snprintf(secret_path, sizeof secret_path, "%s_secret", client_path);
    struct stat st;
    T_EQ_INT(stat(secret_path, &st), 0);
    T_EQ_INT(st.st_mode & 0777, 0600);
    T_EQ_INT(stat(client_path, &st), 0);
    T_EQ_INT(st.st_mode & 0777, 0644);
    zcert_t *client_cert = zcert_load(client_path);
    T_ASSERT(client_cert);
    T_EQ_STR(zcert_public_txt(client_cert), client_key);
    snprintf(public_path, sizeof public_path, "%s/client.cert", keys);
    T_EQ_INT(zcert_save_public(client_cert, public_path), 0);
    zcert_destroy(&client_cert);

    //  The log, to find the refusals in.
    FILE *log = tmpfile();
    T_ASSERT(log);
    bus_log_set_stream(log);
    bus_log_set_level(BUS_LOG_WARNING);

    bus_curve_t curve = {true, server_path, client_path, server_key, keys};
    T_EQ_INT(bus_socket_security_start(&curve), 0);
    bus_rpc_server_t *server = bus_rpc_server_new("tcp://127.0.0.1:*", &curve);
    T_ASSERT(server);
    bus_rpc_server_handle(server, PROTO_TEST_ECHO, s_echo, NULL);

    T_EQ_INT(s_call(server, &curve, 3000), BUS_OK);
    T_ASSERT(!s_logged(log, "bus peer refused"));
    bus_curve_t rogue = curve;
    rogue.client_cert = rogue_path;
    T_EQ_INT(s_call(server, &rogue, 300), BUS_STATUS_TIMEOUT);
    //  Refused, and said so: who, with which key.
    char needle[128];
    snprintf(needle, sizeof needle, "address=127.0.0.1 mechanism=CURVE public_key=%s",
             rogue_key);
    T_ASSERT(s_logged(log, needle));
    T_ASSERT(s_logged(log, "reason=\"unknown key\""));
    T_EQ_INT(s_call(server, NULL, 300), BUS_STATUS_TIMEOUT);
    //  The server is still fine for the right client.
    T_EQ_INT(s_call(server, &curve, 3000), BUS_OK);

    //  Rotation without a restart: the rogue's key put into the directory is
    //  admitted from its next connection; the old client's key taken out is
    //  refused from its next one.
    snprintf(public_path, sizeof public_path, "%s/rogue.cert", keys);
    zcert_t *rogue_cert = zcert_load(rogue_path);
    T_ASSERT(rogue_cert);
    T_EQ_INT(zcert_save_public(rogue_cert, public_path), 0);
    zcert_destroy(&rogue_cert);
    T_EQ_INT(s_call(server, &rogue, 3000), BUS_OK);
    snprintf(public_path, sizeof public_path, "%s/client.cert", keys);
    T_EQ_INT(unlink(public_path), 0);
    T_EQ_INT(s_call(server, &curve, 300), BUS_STATUS_TIMEOUT);
    snprintf(needle, sizeof needle, "public_key=%s", client_key);
    T_ASSERT(s_logged(log, needle));

    bus_rpc_server_destroy(&server);
    bus_socket_security_stop();
    bus_log_set_stream(NULL);
    fclose(log);
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    T_EQ_INT(system(cmd), 0);
}

//  Each host its own key pair, its servers presenting it: a client finds the
//  key of the server it connects to by the endpoint's host among the
//  certificates' addresses. The hub's host is 127.0.0.1 here, an agent's
//  127.0.0.2: the agent's client reaches the hub, and a server on the hub's
//  address presenting the agent's secret (an agent host posing as the hub)
//  is never answered by it: the handshake fails on the client's side.
static void
test_server_key_by_address(void)
{
    char dir[64] = "/tmp/backplane-curve-XXXXXX";
    T_ASSERT(mkdtemp(dir));
    char keys[128], hub_path[128], agent_path[128], hub_secret[160], agent_secret[160];
    snprintf(keys, sizeof keys, "%s/authorized", dir);
    T_EQ_INT(mkdir(keys, 0700), 0);
    snprintf(hub_path, sizeof hub_path, "%s/control.cert", dir);
    snprintf(agent_path, sizeof agent_path, "%s/agent1.cert", dir);
    snprintf(hub_secret, sizeof hub_secret, "%s_secret", hub_path);
    snprintf(agent_secret, sizeof agent_secret, "%s_secret", agent_path);
    char hub_key[64], agent_key[64];
    T_EQ_INT(bus_socket_make_host_cert(hub_path, "control.example, 127.0.0.1", hub_key,
                                       sizeof hub_key),
             0);
    T_EQ_INT(
        bus_socket_make_host_cert(agent_path, "127.0.0.2", agent_key, sizeof agent_key),
        0);
    //  The public halves, as every host's authorized-keys directory has them.
    const char *publics[][2] = {{hub_path, "control.cert"}, {agent_path, "agent1.cert"}};
    for (int i = 0; i < 2; i++) {
        zcert_t *cert = zcert_load(publics[i][0]);
        T_ASSERT(cert);
        char path[192];
        snprintf(path, sizeof path, "%s/%s", keys, publics[i][1]);
        T_EQ_INT(zcert_save_public(cert, path), 0);
        zcert_destroy(&cert);
    }
    FILE *log = tmpfile();
    T_ASSERT(log);
    bus_log_set_stream(log);
    bus_log_set_level(BUS_LOG_WARNING);

    bus_curve_t hub = {true, hub_secret, hub_secret, "", keys};
    bus_curve_t agent = {true, agent_secret, agent_secret, "", keys};
    char key[41];
    T_EQ_INT(bus_socket_server_key(&agent, "tcp://127.0.0.1:6101", key), 0);
    T_EQ_STR(key, hub_key);
    T_EQ_INT(bus_socket_server_key(&agent, "tcp://control.example:6101", key), 0);
    T_EQ_STR(key, hub_key);
    T_EQ_INT(bus_socket_server_key(&hub, "tcp://127.0.0.2:40000", key), 0);
    T_EQ_STR(key, agent_key);
    T_EQ_INT(bus_socket_server_key(&agent, "inproc://bus-hub", key), 0);
    T_EQ_STR(key, agent_key);
    //  A host no certificate names: no key, unless server_public gives one.
    T_EQ_INT(bus_socket_server_key(&agent, "tcp://127.0.0.3:1", key), -1);
    T_ASSERT(s_logged(log, "no curve server key"));
    T_ASSERT(s_logged(log, "tcp://127.0.0.3:1"));
    bus_curve_t fallback = agent;
    fallback.server_public = hub_key;
    T_EQ_INT(bus_socket_server_key(&fallback, "tcp://127.0.0.3:1", key), 0);
    T_EQ_STR(key, hub_key);

    T_EQ_INT(bus_socket_security_start(&hub), 0);
    //  The real hub: the agent's client reaches it.
    bus_rpc_server_t *server = bus_rpc_server_new("tcp://127.0.0.1:*", &hub);
    T_ASSERT(server);
    bus_rpc_server_handle(server, PROTO_TEST_ECHO, s_echo, NULL);
    T_EQ_INT(s_call(server, &agent, 3000), BUS_OK);
    bus_rpc_server_destroy(&server);
    //  An impostor on the hub's address with the agent's secret: the
    //  agent's (or any) client expects the hub's key, and gets no answer.
    bus_rpc_server_t *impostor = bus_rpc_server_new("tcp://127.0.0.1:*", &agent);
    T_ASSERT(impostor);
    bus_rpc_server_handle(impostor, PROTO_TEST_ECHO, s_echo, NULL);
    T_EQ_INT(s_call(impostor, &agent, 500), BUS_STATUS_TIMEOUT);
    T_EQ_INT(s_call(impostor, &hub, 500), BUS_STATUS_TIMEOUT);
    //  Its own clients with the hub's key given outright fare no better.
    fallback = agent;
    fallback.server_public = hub_key;
    fallback.authorized_keys = "";
    T_EQ_INT(s_call(impostor, &fallback, 500), BUS_STATUS_TIMEOUT);
    bus_rpc_server_destroy(&impostor);

    bus_socket_security_stop();
    bus_log_set_stream(NULL);
    fclose(log);
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    T_EQ_INT(system(cmd), 0);
}

int
main(void)
{
    bus_log_init("bus_socket_test", NULL, BUS_LOG_ERROR);
    T_RUN(test_curve_authenticates_clients);
    T_RUN(test_server_key_by_address);
    return T_DONE();
}
