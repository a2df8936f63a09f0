/*  =========================================================================
    gateway_client - a platform to test the gateway against, and a client
    that signs requests as the official Backend.AI client does

    client_platform_start starts the scheduler (hosting the hub and the
    registry on ephemeral ports), accounting (optional) and the gateway as
    real processes, waits for their ready lines and reads the first
    superadmin's keypair from admin.env. client_signed sends one request
    signed with gw_auth_signature (the gateway's own implementation of
    reference §1.2, itself checked against the official client's vectors).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GATEWAY_CLIENT_H_INCLUDED
#define GATEWAY_CLIENT_H_INCLUDED

#include <jansson.h>
#include <stdbool.h>

#include "harness.h"

#define CLIENT_READY_MS 20000
#define CLIENT_STOP_MS  10000
#define CLIENT_HTTP_MS  10000

typedef struct {
    char access_key[32];
    char secret_key[64];
} client_keypair_t;

typedef struct {
    char *dir; //  the platform's temp dir (owned)
    harness_proc_t scheduler, gateway, accounting;
    bool with_accounting;
    char api[64];          //  host:port of the gateway
    char web[64];          //  host:port of its web listener (root: <dir>/webui)
    char hub_publish[128]; //  the bus, for tests that join it themselves
    char hub_subscribe[128];
    char registry[128];
    char scheduler_rpc[160]; //  the scheduler's RPC endpoint
    client_keypair_t super;  //  the first superadmin
    //  More gateway options ("key=value", NULL-terminated, at most
    //  CLIENT_GATEWAY_SETS_MAX; borrowed, for restarts too): set by
    //  client_platform_start_ex.
    const char *const *gateway_sets;
} client_platform_t;

//  Per-request tweaks for tests of the signature checks.
typedef struct {
    const char *version;       //  default v6.20220315
    int date_offset_s;         //  clock skew to simulate
    const char *sign_path;     //  sign another target than the one sent (tampering)
    const char *secret;        //  sign with another secret
    const char *authorization; //  send this Authorization instead
    const char *cookie;        //  send this Cookie header
    const char *content_type;  //  the body's type (default application/json)
    int timeout_ms;            //  how long to wait for the answer (0: CLIENT_HTTP_MS)
} client_sign_opts_t;

//  Starts the platform in a fresh temp dir named after name. 0 or -1.
int
client_platform_start(client_platform_t *self, const char *name, bool with_accounting);

//  The same, with more scheduler options (KEY=VALUE, NULL-terminated; at
//  most CLIENT_SCHEDULER_SETS_MAX).
#define CLIENT_SCHEDULER_SETS_MAX 12
#define CLIENT_GATEWAY_SETS_MAX   8
int client_platform_start_with(client_platform_t *self,
                               const char *name,
                               bool with_accounting,
                               const char *const *scheduler_sets);

//  The same, with more gateway options too (KEY=VALUE, NULL-terminated; at
//  most CLIENT_GATEWAY_SETS_MAX; borrowed: they must outlive the platform).
int client_platform_start_ex(client_platform_t *self,
                             const char *name,
                             bool with_accounting,
                             const char *const *scheduler_sets,
                             const char *const *gateway_sets);

//  Stops the gateway (SIGTERM; false unless it exits 0 without a sanitizer
//  report) and starts it again on the same state, as name (its log
//  <dir>/<name>.log); api holds its new address. False when either fails.
bool client_gateway_restart(client_platform_t *self, const char *name);

//  Makes a user of domain with role (a member of the domain's "default"
//  project, when it has one) as the superadmin; its keypair in kp. True when
//  the keypair could be read back.
bool client_person(const client_platform_t *self,
                   const char *email,
                   const char *domain,
                   const char *role,
                   client_keypair_t *kp);

//  Reads the first superadmin's keypair from an admin.env the gateway wrote.
bool client_read_admin_env(const char *path, client_keypair_t *kp);

//  SIGTERM to every process: true when all exited 0 without a sanitizer report.
bool client_platform_stop(client_platform_t *self);

//  Kills whatever still runs and removes the temp dir unless keep (then its
//  path is printed for the failure's investigation). Frees dir.
void client_platform_end(client_platform_t *self, bool keep);

//  One request as kp (NULL: unsigned, e.g. a browser with opts->cookie).
//  Returns the HTTP status; body and headers go to body_p / headers_p when
//  given (caller frees).
int client_signed(const client_platform_t *self,
                  const client_keypair_t *kp,
                  const char *method,
                  const char *path,
                  const char *body,
                  const client_sign_opts_t *opts,
                  char **body_p,
                  char **headers_p);

//  The same for a body that may hold NULs (a download's archives): its size
//  in *size_p when given.
int client_signed_bytes(const client_platform_t *self,
                        const client_keypair_t *kp,
                        const char *method,
                        const char *path,
                        const char *body,
                        const client_sign_opts_t *opts,
                        char **body_p,
                        size_t *size_p,
                        char **headers_p);

//  Runs a GraphQL document as kp (variables stolen, may be NULL); the
//  parsed response, or NULL when the status is not 200. Caller decrefs.
json_t *client_gql(const client_platform_t *self,
                   const client_keypair_t *kp,
                   const char *query,
                   json_t *variables);

//  True when the mutation field's result says ok (else prints its msg).
bool client_mutation_ok(json_t *response, const char *field);

//  Starts an agent named name on the platform's bus that runs real runc
//  containers: the busybox image (copied from build/images, or built) in
//  its images dir, its own bridge and subnet (cidr), 2 cpus and 2g, stats
//  every half second. Waits until the gateway's catalogue lists busybox.
//  True when it runs.
bool client_agent_start(client_platform_t *self,
                        harness_proc_t *agent,
                        const char *name,
                        const char *bridge,
                        const char *cidr);

//  The same with more of the agent's options ("key=value", NULL-terminated,
//  at most ten).
bool client_agent_start_with(client_platform_t *self,
                             harness_proc_t *agent,
                             const char *name,
                             const char *bridge,
                             const char *cidr,
                             const char *const *sets);

//  Starts a storage-proxy on the platform's bus: proxy "local" with the
//  volume "volume1" in the platform's dir (host local:volume1, the
//  gateway's default), its client HTTP endpoint on an ephemeral port (its
//  "host:port" goes to hostport), the secret the gateway signs with, usage
//  scans every 200 ms. True when it runs and the gateway knows its volume.
bool client_storage_start(client_platform_t *self,
                          harness_proc_t *proxy,
                          char *hostport,
                          size_t size);
//  The same, with more storage-proxy options (KEY=VALUE, NULL-terminated,
//  at most CLIENT_STORAGE_SETS_MAX).
#define CLIENT_STORAGE_SETS_MAX 8
bool client_storage_start_with(client_platform_t *self,
                               harness_proc_t *proxy,
                               char *hostport,
                               size_t size,
                               const char *const *sets);

//  Moves the images under images_dir/images (as harness_debian_image puts
//  them) into the platform's, starts an agent named name on its own bridge
//  and subnet with 2 cpus and 2g, and waits until the gateway's catalogue
//  lists library/<image>. True when it does.
bool client_image_agent_start(client_platform_t *self,
                              harness_proc_t *agent,
                              const char *name,
                              const char *bridge,
                              const char *images_dir,
                              const char *image);

//  Waits until the gateway's catalogue lists library/<image> (the agents
//  announce theirs), at most CLIENT_READY_MS. True when it does.
bool client_image_listed(const client_platform_t *self, const char *image);

//  POST /session with body (which must ask "enqueueOnly": true: unpacking a
//  big image takes longer than one request may), then waits until the
//  session name runs, at most two minutes. Its id into session_id (64
//  bytes) when given. True when it runs; an end on the way is printed.
bool client_session_running(const client_platform_t *self,
                            const client_keypair_t *kp,
                            const char *body,
                            const char *name,
                            char *session_id);

//  Starts a wsproxy on the platform's bus that checks app tokens with the
//  gateway's secret, on four app ports; its API's host:port into api.
bool client_wsproxy_start(client_platform_t *self,
                          harness_proc_t *wsproxy,
                          char *api,
                          size_t size);

//  Opens app of a session as Backend.AI's web UI does (v2): POST
//  /session/{session}/start-service for a token (its wsproxy_addr must be
//  wsproxy_addr), the wsproxy's /v2/proxy/{token}/{session_id}/add for a
//  URL, that URL once for the permit cookie. The app's host:port and the
//  cookie ("name=value") come back. False (with a line on stderr) when a
//  step fails.
bool client_app_via_wsproxy(const client_platform_t *self,
                            const client_keypair_t *kp,
                            const char *session,
                            const char *session_id,
                            const char *app,
                            const char *wsproxy_addr,
                            char *hostport,
                            size_t hostport_size,
                            char *cookie,
                            size_t cookie_size);

//  The first keypair of email, read as the superadmin. True when found.
bool
client_keypair_of(const client_platform_t *self, const char *email, client_keypair_t *kp);

//  Opens a long-lived signed GET (an event stream, or a WebSocket upgrade
//  when extra holds its headers; kp NULL: unsigned, to self->api, which a
//  test may point at the web listener): sends it and reads the response
//  head into head. Returns the socket (caller closes) with *status set, or -1.
int client_stream_open(const client_platform_t *self,
                       const client_keypair_t *kp,
                       const char *path,
                       const char *const *extra,
                       int *status,
                       char *head,
                       size_t head_size);

//  The same with the WebSocket handshake; the socket when the answer is
//  101 with the right Sec-WebSocket-Accept, else -1 (*status says what came).
int client_ws_open(const client_platform_t *self,
                   const client_keypair_t *kp,
                   const char *path,
                   int *status);

//  The same with more request headers (NULL-terminated, at most 11): a
//  browser's Cookie and Origin, with kp NULL.
int client_ws_open_ex(const client_platform_t *self,
                      const client_keypair_t *kp,
                      const char *path,
                      const char *const *extra,
                      int *status);

//  Sends one masked frame (as a client must). 0 or -1.
int client_ws_send(int fd, int opcode, const void *data, size_t size);

//  Sends raw bytes (for frames a test breaks on purpose). 0 or -1.
int client_ws_send_raw(int fd, const void *data, size_t size);

//  Reads one server frame: returns its opcode, with the payload in *data_p
//  (NUL-terminated, caller frees) and its size in *size_p; -1 on timeout or
//  when the connection ended.
int client_ws_recv(int fd, char **data_p, size_t *size_p, int timeout_ms);

//  A local end of an app tunnel, as `backend.ai app` runs one: a listener on
//  127.0.0.1 (an ephemeral port) where each accepted connection gets a
//  WebSocket to path (signed as kp), e.g. /stream/session/S/tcpproxy?app=A,
//  and bytes go both ways in BINARY frames (PINGs answered) until either
//  side ends or CLIENT_TUNNEL_IDLE_MS pass without a byte. Its threads use
//  self and kp, which must outlive it.
#define CLIENT_TUNNEL_IDLE_MS 60000
typedef struct client_tunnel_s client_tunnel_t;

//  Starts listening; the tunnel, or NULL. Caller destroys.
client_tunnel_t *client_tunnel_new(const client_platform_t *self,
                                   const client_keypair_t *kp,
                                   const char *path);

//  The local port to connect to.
int client_tunnel_port(const client_tunnel_t *self);

//  Stops accepting (connections already open go on until either side ends)
//  and frees it. Safe on NULL; clears the pointer.
void client_tunnel_destroy(client_tunnel_t **self_p);

//  Reads a stream until what was read contains needle or timeout_ms pass.
//  Returns everything read (caller frees); NULL when needle never came.
char *client_read_until(int fd, const char *needle, int timeout_ms);

#endif
