/*  =========================================================================
    harness - start the real service binaries for integration tests

    Each test gets its own temporary directory; each process writes stdout
    and stderr to a log file there. Readiness is a line in that log (a
    service prints "ready service=... rpc=..."), waited for with a timeout:
    never a fixed sleep. Processes stop with SIGTERM; a clean exit is status
    0 and no sanitizer report in the log.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef HARNESS_H_INCLUDED
#define HARNESS_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define HARNESS_LINE_MAX 1024

typedef struct {
    pid_t pid;
    char name[64];
    char log_path[512];
    int exit_status; //  after harness_stop: the exit code, or 128 + signal
} harness_proc_t;

//  Sleeps ms milliseconds (for polling loops with a deadline, never as a
//  wait for readiness).
void harness_pause_ms(int ms);

//  Runs command with /bin/sh; its exit status, or -1 when it did not exit.
int harness_shell(const char *command);

//  The number command (run with /bin/sh) prints first, or -1 when it
//  prints none; not for numbers that may be negative.
int harness_shell_int(const char *command);

//  The pid runc knows for container id (a kernel's id) under the runc
//  root directory root (an agent's <state>/runc), or -1.
int harness_runc_pid(const char *root, const char *id);

//  A loopback TCP port free now, for a service that must come back on the
//  same port after a restart. -1 when none could be found.
int harness_free_port(void);

//  A /24 for an agent's kernels ("10.240.N.0/24") that no other test
//  process holds and no route of this host uses: two tests that gave their
//  agents one subnet at the same time (the suite runs two at once) routed
//  each other's kernels' traffic. The claim is an flock on
//  HARNESS_SUBNET_DIR/N, held until the process exits. NULL when all 256
//  are taken. The string is static.
#define HARNESS_SUBNET_DIR "/tmp/.backplane-subnets"
const char *harness_subnet(void);

//  The address of host number host in such a subnet ("10.240.N.<host>"),
//  into out; host 0 gives the prefix with no number ("10.240.N.").
void harness_subnet_host(const char *cidr, int host, char *out, size_t size);

//  The end of a test that ran the scheduler and an agent: stops both
//  (SIGTERM; a clean exit and no sanitizer report expected), deletes the
//  test's bridge (NULL: none), and removes dir unless something failed or
//  BACKPLANE_KEEP is set (then prints its path). Frees dir. True when both
//  stopped cleanly.
bool harness_teardown(harness_proc_t *scheduler,
                      harness_proc_t *agent,
                      const char *bridge,
                      char *dir,
                      bool failed);

//  A fresh directory /tmp/backplane-<name>-XXXXXX. Caller frees the string.
char *harness_tmpdir(const char *name);

//  Removes a directory tree made by harness_tmpdir.
void harness_rmdir(const char *dir);

//  What a platform's agents still hold outside their files, ended: the
//  containers in each <dir>/*/runc, the namespaces of their kernels and
//  spares, the mounts beneath dir, and agents' NAT tables whose bridge is
//  gone (any run's; not the published ports' tables). Containers outlive agents by
//  design, so a failed test (whose directory is kept to be read) or an agent stopped with
//  a destroy in flight left them running, and their mounts stopped the directory's
//  removal half way. harness_teardown and client_platform_end call it before keeping or
//  removing the directory. Nothing is done when BACKPLANE_KEEP is set (everything kept as
//  it was).
void harness_sweep(const char *dir);

//  The directory of the service binaries: $BACKPLANE_BINDIR or build/bin.
const char *harness_bindir(void);

#define HARNESS_HTTP_ANY "127.0.0.1:0" //  bus.http_listen of every service started

//  Starts backplane-<service> with args (NULL-terminated, may be NULL),
//  logging into <dir>/<name>.log. Its /healthz and /metrics listen on any
//  free port (HARNESS_HTTP_ANY; its ready line has http=host:port), not on
//  the service's fixed default, unless args set bus.http_listen. Returns 0
//  or -1.
int harness_start(harness_proc_t *proc,
                  const char *dir,
                  const char *name,
                  const char *service,
                  const char *const *args);

//  Waits up to timeout_ms for a log line starting with prefix; copies it to
//  line. False on timeout or when the process exited first.
bool harness_wait_line(
    harness_proc_t *proc, const char *prefix, int timeout_ms, char *line, size_t size);

//  Sends SIGTERM and waits up to timeout_ms (then SIGKILL). Returns the
//  exit status (see exit_status).
int harness_stop(harness_proc_t *proc, int timeout_ms);

//  SIGKILL, no goodbye: a crash.
void harness_kill(harness_proc_t *proc);

//  True when the process's log holds a sanitizer or leak report.
bool harness_log_has_report(harness_proc_t *proc);

//  True when a line of the process's log holds needle.
bool harness_log_has(const harness_proc_t *proc, const char *needle);

//  Whether this machine can run real containers: root, runc, umoci and
//  /usr/bin/tini-static. Container tests skip when it cannot.
bool harness_can_run_containers(void);

//  Puts the busybox OCI image into <dir>/images/busybox: a copy of
//  build/images/busybox when it was built, else built with
//  deploy/images/build (seconds). 0 or -1.
int harness_busybox_images(const char *dir);

//  Puts the Debian 12 python OCI image into <dir>/images/python: a copy of
//  build/images/python, built there first (as `make image-python` does:
//  about a minute cold, from Debian's archive) when absent. 0 or -1 (no
//  network, no mmdebstrap: the caller skips).
int harness_python_images(const char *dir);

//  The same for any image deploy/images/build makes from Debian's archive
//  (python, jupyter: the latter about a minute and a half cold). 0 or -1.
int harness_debian_image(const char *dir, const char *name);

//  Where a service finds the bus: the scheduler's hub and registry.
typedef struct {
    const char *hub_publish;
    const char *hub_subscribe;
    const char *registry;
} harness_bus_t;

//  Where a scheduler started by harness_scheduler_start answers, as its
//  ready line says: its RPC endpoint and the hub and registry it hosts.
#define HARNESS_ENDPOINT_MAX 128
#define HARNESS_READY_MS     20000 //  how long a service may take to be ready

typedef struct {
    char rpc[HARNESS_ENDPOINT_MAX];
    char hub_publish[HARNESS_ENDPOINT_MAX];
    char hub_subscribe[HARNESS_ENDPOINT_MAX];
    char registry[HARNESS_ENDPOINT_MAX];
} harness_endpoints_t;

//  Starts the scheduler as name (its log <dir>/<name>.log), with its
//  state in <dir>/scheduler, hosting the hub and the registry on free
//  loopback ports, or on bus's when given (a scheduler started again where
//  the services know it), and heartbeats every 100 ms; then the extra
//  "--set" pairs (KEY=VALUE, NULL-terminated, may be NULL), which override
//  these. Waits HARNESS_READY_MS for its ready line and fills *out (may be
//  NULL) with its endpoints. 0, or -1 (the log tells why).
int harness_scheduler_start(harness_proc_t *proc,
                            const char *dir,
                            const char *name,
                            const harness_bus_t *bus,
                            const char *const *extra,
                            harness_endpoints_t *out);

//  The bus of a started scheduler, for the services that join it
//  (borrowed from endpoints).
harness_bus_t harness_endpoints_bus(const harness_endpoints_t *endpoints);

//  Starts an agent named name that runs real containers: state in
//  <dir>/<name>, images from <dir>/images, the runner next to the binaries,
//  heartbeats every 100 ms, plus the extra "--set" pairs (NULL-terminated,
//  may be NULL). Waits for its ready line, copied into line when given.
//  0 or -1.
int harness_agent_start(harness_proc_t *agent,
                        const char *dir,
                        const char *name,
                        const harness_bus_t *bus,
                        const char *const *extra,
                        char *line,
                        size_t size);

//  Copies the value of key=value from a logfmt-style line. False if absent.
bool harness_field(const char *line, const char *key, char *out, size_t size);

//  One HTTP/1.1 request over loopback. Returns the status code (or -1) and,
//  when body_p is given, the response body (caller frees).
int harness_http(const char *hostport,
                 const char *method,
                 const char *path,
                 const char *body,
                 char **body_p,
                 int timeout_ms);

//  The same with extra request headers ("Name: value" strings, NULL-
//  terminated; may be NULL) and a content type (NULL sends none). The
//  response headers go to headers_p when given (caller frees).
int harness_http_ex(const char *hostport,
                    const char *method,
                    const char *path,
                    const char *const *headers,
                    const char *content_type,
                    const char *body,
                    char **body_p,
                    char **headers_p,
                    int timeout_ms);

//  The same, for a body that may hold NULs (an archive): its size in
//  *size_p when given (the body is NUL-terminated besides).
int harness_http_bytes(const char *hostport,
                       const char *method,
                       const char *path,
                       const char *const *headers,
                       const char *content_type,
                       const char *body,
                       char **body_p,
                       size_t *size_p,
                       char **headers_p,
                       int timeout_ms);

#endif
