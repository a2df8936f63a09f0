//  GENERATED FROM proto/kernel.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_kernel - the containers of sessions, between the scheduler and the
    agents

    Structs and codecs of the kernel domain. Included by proto.h: include
    bus.h, not this file. proto.h documents the functions every struct type T
    has (init, clear, check, write, writer for requests, encode, read, decode,
    print).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef PROTO_KERNEL_H_INCLUDED
#define PROTO_KERNEL_H_INCLUDED

//  Topics (events) and method names (RPC).
#define PROTO_KERNEL_STARTED         "kernel.started"
#define PROTO_KERNEL_TERMINATED      "kernel.terminated"
#define PROTO_KERNEL_APP_STARTED     "kernel.app_started"
#define PROTO_KERNEL_APP_FAILED      "kernel.app_failed"
#define PROTO_KERNEL_MODEL_STATUS    "kernel.model_status"
#define PROTO_KERNEL_STATS           "kernel.stats"
#define PROTO_KERNEL_CREATE          "kernel.create"
#define PROTO_KERNEL_HOSTS           "kernel.hosts"
#define PROTO_KERNEL_DESTROY         "kernel.destroy"
#define PROTO_KERNEL_RESTART         "kernel.restart"
#define PROTO_KERNEL_EXECUTE         "kernel.execute"
#define PROTO_KERNEL_INTERRUPT       "kernel.interrupt"
#define PROTO_KERNEL_LOGS            "kernel.logs"
#define PROTO_KERNEL_LIST            "kernel.list"
#define PROTO_KERNEL_UPLOAD          "kernel.upload"
#define PROTO_KERNEL_DOWNLOAD        "kernel.download"
#define PROTO_KERNEL_DOWNLOAD_SINGLE "kernel.download_single"
#define PROTO_KERNEL_LIST_FILES      "kernel.list_files"
#define PROTO_KERNEL_PTY_WRITE       "kernel.pty_write"
#define PROTO_KERNEL_PTY_READ        "kernel.pty_read"
#define PROTO_KERNEL_START_SERVICE   "kernel.start_service"

//  ---------------------------------------------------------------------------
//  kernel.port, a nested value: a service port an image declares
//  (ai.backend.service-ports)

typedef struct {
    //  The app, e.g. jupyter (required, at most 64 bytes)
    const char *name;
    //  Http, tcp, pty or preopen (at most 16 bytes)
    const char *protocol;
    //  The port inside the container (at most 65535)
    uint64_t container_port;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_port_t;

#define PROTO_KERNEL_PORT_NAME_MAX     64
#define PROTO_KERNEL_PORT_PROTOCOL_MAX 16

void proto_kernel_port_init(proto_kernel_port_t *self);
void proto_kernel_port_clear(proto_kernel_port_t *self);
PROTO_MUST_USE int proto_kernel_port_check(const proto_kernel_port_t *self,
                                           bus_error_t *err);
PROTO_MUST_USE int proto_kernel_port_write(const proto_kernel_port_t *self,
                                           bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_kernel_port_encode(const proto_kernel_port_t *self);
int proto_kernel_port_read(proto_kernel_port_t *self,
                           const bus_value_t *map,
                           bus_error_t *err);
int proto_kernel_port_decode(proto_kernel_port_t *self,
                             const void *data,
                             size_t size,
                             bus_error_t *err);
char *proto_kernel_port_print(const proto_kernel_port_t *self);

//  ---------------------------------------------------------------------------
//  kernel.state, a nested value: one kernel as the agent has it now

typedef struct {
    //  The kernel (required, at most 64 bytes)
    const char *kernel_id;
    //  Its session (at most 64 bytes)
    const char *session_id;
    //  Running, exited or creating (required, at most 16 bytes)
    const char *status;
    //  The exit code when exited
    int64_t exit_code;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_state_t;

#define PROTO_KERNEL_STATE_KERNEL_ID_MAX  64
#define PROTO_KERNEL_STATE_SESSION_ID_MAX 64
#define PROTO_KERNEL_STATE_STATUS_MAX     16

void proto_kernel_state_init(proto_kernel_state_t *self);
void proto_kernel_state_clear(proto_kernel_state_t *self);
PROTO_MUST_USE int proto_kernel_state_check(const proto_kernel_state_t *self,
                                            bus_error_t *err);
PROTO_MUST_USE int proto_kernel_state_write(const proto_kernel_state_t *self,
                                            bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_kernel_state_encode(const proto_kernel_state_t *self);
int proto_kernel_state_read(proto_kernel_state_t *self,
                            const bus_value_t *map,
                            bus_error_t *err);
int proto_kernel_state_decode(proto_kernel_state_t *self,
                              const void *data,
                              size_t size,
                              bus_error_t *err);
char *proto_kernel_state_print(const proto_kernel_state_t *self);

//  ---------------------------------------------------------------------------
//  kernel.mount, a nested value: a virtual folder bind-mounted into a kernel, as the
//  gateway resolved it

typedef struct {
    //  The folder's name, for messages (required, at most 64 bytes)
    const char *name;
    //  The folder's id (at most 64 bytes)
    const char *id;
    //  Its storage host and volume (host:volume) (at most 256 bytes)
    const char *host;
    //  The folder on the agent's host: an absolute path (required, at most 4096 bytes)
    const char *host_path;
    //  Where it appears in the container: an absolute path (required, at most 4096 bytes)
    const char *kernel_path;
    //  Rw, ro (mounted read-only) or wd (required, at most 8 bytes)
    const char *permission;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_mount_t;

#define PROTO_KERNEL_MOUNT_NAME_MAX        64
#define PROTO_KERNEL_MOUNT_ID_MAX          64
#define PROTO_KERNEL_MOUNT_HOST_MAX        256
#define PROTO_KERNEL_MOUNT_HOST_PATH_MAX   4096
#define PROTO_KERNEL_MOUNT_KERNEL_PATH_MAX 4096
#define PROTO_KERNEL_MOUNT_PERMISSION_MAX  8

void proto_kernel_mount_init(proto_kernel_mount_t *self);
void proto_kernel_mount_clear(proto_kernel_mount_t *self);
PROTO_MUST_USE int proto_kernel_mount_check(const proto_kernel_mount_t *self,
                                            bus_error_t *err);
PROTO_MUST_USE int proto_kernel_mount_write(const proto_kernel_mount_t *self,
                                            bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_kernel_mount_encode(const proto_kernel_mount_t *self);
int proto_kernel_mount_read(proto_kernel_mount_t *self,
                            const bus_value_t *map,
                            bus_error_t *err);
int proto_kernel_mount_decode(proto_kernel_mount_t *self,
                              const void *data,
                              size_t size,
                              bus_error_t *err);
char *proto_kernel_mount_print(const proto_kernel_mount_t *self);

//  ---------------------------------------------------------------------------
//  kernel.dotfile, a nested value: a file written into the kernel's home before the
//  runner starts, owned by the kernel's user

typedef struct {
    //  Relative to /home/work (required, at most 1024 bytes)
    const char *path;
    //  Three octal digits, e.g. 644 (required, at most 3 bytes)
    const char *permission;
    //  Its text (required, at most 65536 bytes)
    const char *data;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_dotfile_t;

#define PROTO_KERNEL_DOTFILE_PATH_MAX       1024
#define PROTO_KERNEL_DOTFILE_PERMISSION_MAX 3
#define PROTO_KERNEL_DOTFILE_DATA_MAX       65536

void proto_kernel_dotfile_init(proto_kernel_dotfile_t *self);
void proto_kernel_dotfile_clear(proto_kernel_dotfile_t *self);
PROTO_MUST_USE int proto_kernel_dotfile_check(const proto_kernel_dotfile_t *self,
                                              bus_error_t *err);
PROTO_MUST_USE int proto_kernel_dotfile_write(const proto_kernel_dotfile_t *self,
                                              bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_kernel_dotfile_encode(const proto_kernel_dotfile_t *self);
int proto_kernel_dotfile_read(proto_kernel_dotfile_t *self,
                              const bus_value_t *map,
                              bus_error_t *err);
int proto_kernel_dotfile_decode(proto_kernel_dotfile_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err);
char *proto_kernel_dotfile_print(const proto_kernel_dotfile_t *self);

//  ---------------------------------------------------------------------------
//  kernel.file, a nested value: a file in a kernel's home (/home/work): uploaded, or
//  downloaded as a tar archive

typedef struct {
    //  Relative to /home/work (or absolute beneath it) (required, at most 4096 bytes)
    const char *path;
    //  Its bytes (download: a tar archive of the path) (at most 16777216 bytes)
    const uint8_t *data;
    size_t data_size;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_file_t;

#define PROTO_KERNEL_FILE_PATH_MAX 4096
#define PROTO_KERNEL_FILE_DATA_MAX 16777216

void proto_kernel_file_init(proto_kernel_file_t *self);
void proto_kernel_file_clear(proto_kernel_file_t *self);
PROTO_MUST_USE int proto_kernel_file_check(const proto_kernel_file_t *self,
                                           bus_error_t *err);
PROTO_MUST_USE int proto_kernel_file_write(const proto_kernel_file_t *self,
                                           bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_kernel_file_encode(const proto_kernel_file_t *self);
int proto_kernel_file_read(proto_kernel_file_t *self,
                           const bus_value_t *map,
                           bus_error_t *err);
int proto_kernel_file_decode(proto_kernel_file_t *self,
                             const void *data,
                             size_t size,
                             bus_error_t *err);
char *proto_kernel_file_print(const proto_kernel_file_t *self);

//  ---------------------------------------------------------------------------
//  kernel.started, event (broadcast, durable): a kernel's container runs

typedef struct {
    //  The kernel (required, at most 64 bytes)
    const char *kernel_id;
    //  Its session (required, at most 64 bytes)
    const char *session_id;
    //  The agent it runs on (required, at most 128 bytes)
    const char *agent_id;
    //  The runtime's container id (at most 128 bytes)
    const char *container_id;
    //  The container's address (at most 64 bytes)
    const char *kernel_host;
    //  When it started (microseconds since the epoch)
    int64_t at;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_started_t;

#define PROTO_KERNEL_STARTED_KERNEL_ID_MAX    64
#define PROTO_KERNEL_STARTED_SESSION_ID_MAX   64
#define PROTO_KERNEL_STARTED_AGENT_ID_MAX     128
#define PROTO_KERNEL_STARTED_CONTAINER_ID_MAX 128
#define PROTO_KERNEL_STARTED_KERNEL_HOST_MAX  64

void proto_kernel_started_init(proto_kernel_started_t *self);
void proto_kernel_started_clear(proto_kernel_started_t *self);
PROTO_MUST_USE int proto_kernel_started_check(const proto_kernel_started_t *self,
                                              bus_error_t *err);
PROTO_MUST_USE int proto_kernel_started_write(const proto_kernel_started_t *self,
                                              bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_kernel_started_encode(const proto_kernel_started_t *self);
int proto_kernel_started_read(proto_kernel_started_t *self,
                              const bus_value_t *map,
                              bus_error_t *err);
int proto_kernel_started_decode(proto_kernel_started_t *self,
                                const void *data,
                                size_t size,
                                bus_error_t *err);
char *proto_kernel_started_print(const proto_kernel_started_t *self);

//  ---------------------------------------------------------------------------
//  kernel.terminated, event (broadcast, durable): a kernel's container is gone, and why

typedef struct {
    //  The kernel (required, at most 64 bytes)
    const char *kernel_id;
    //  Its session (required, at most 64 bytes)
    const char *session_id;
    //  The agent it ran on (required, at most 128 bytes)
    const char *agent_id;
    //  Its exit code; 128+n after signal n
    int64_t exit_code;
    //  User-requested, self-terminated, oom-killed, failed-to-start, lost-on-restart (at
    //  most 64 bytes)
    const char *reason;
    //  What went wrong, for status_data (at most 4096 bytes)
    const char *detail;
    //  The memory limit killed a process of it
    bool oom_killed;
    //  When it ended (microseconds since the epoch)
    int64_t at;
    //  The final counters below are set (its cgroup was read before it went)
    bool has_stats;
    //  Final: CPU time used since start
    uint64_t cpu_used_ns;
    //  Final: the most memory it used
    uint64_t mem_peak_bytes;
    //  Final: bytes read from block devices
    uint64_t io_read_bytes;
    //  Final: bytes written to block devices
    uint64_t io_write_bytes;
    //  Final: bytes received on its network interface
    uint64_t net_rx_bytes;
    //  Final: bytes sent on its network interface
    uint64_t net_tx_bytes;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_terminated_t;

#define PROTO_KERNEL_TERMINATED_KERNEL_ID_MAX  64
#define PROTO_KERNEL_TERMINATED_SESSION_ID_MAX 64
#define PROTO_KERNEL_TERMINATED_AGENT_ID_MAX   128
#define PROTO_KERNEL_TERMINATED_REASON_MAX     64
#define PROTO_KERNEL_TERMINATED_DETAIL_MAX     4096

void proto_kernel_terminated_init(proto_kernel_terminated_t *self);
void proto_kernel_terminated_clear(proto_kernel_terminated_t *self);
PROTO_MUST_USE int proto_kernel_terminated_check(const proto_kernel_terminated_t *self,
                                                 bus_error_t *err);
PROTO_MUST_USE int proto_kernel_terminated_write(const proto_kernel_terminated_t *self,
                                                 bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_kernel_terminated_encode(const proto_kernel_terminated_t *self);
int proto_kernel_terminated_read(proto_kernel_terminated_t *self,
                                 const bus_value_t *map,
                                 bus_error_t *err);
int proto_kernel_terminated_decode(proto_kernel_terminated_t *self,
                                   const void *data,
                                   size_t size,
                                   bus_error_t *err);
char *proto_kernel_terminated_print(const proto_kernel_terminated_t *self);

//  ---------------------------------------------------------------------------
//  kernel.app_started, event (broadcast): an app of a kernel was opened
//  (kernel.start_service): started, or found running, and its port accepting

typedef struct {
    //  The kernel (required, at most 64 bytes)
    const char *kernel_id;
    //  Its session (at most 64 bytes)
    const char *session_id;
    //  The app (required, at most 64 bytes)
    const char *app;
    //  Started, or running when it already ran (required, at most 16 bytes)
    const char *status;
    //  The address proxies connect to (at most 64 bytes)
    const char *host;
    //  The port proxies connect to (at most 65535)
    uint64_t port;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_app_started_t;

#define PROTO_KERNEL_APP_STARTED_KERNEL_ID_MAX  64
#define PROTO_KERNEL_APP_STARTED_SESSION_ID_MAX 64
#define PROTO_KERNEL_APP_STARTED_APP_MAX        64
#define PROTO_KERNEL_APP_STARTED_STATUS_MAX     16
#define PROTO_KERNEL_APP_STARTED_HOST_MAX       64

void proto_kernel_app_started_init(proto_kernel_app_started_t *self);
void proto_kernel_app_started_clear(proto_kernel_app_started_t *self);
PROTO_MUST_USE int proto_kernel_app_started_check(const proto_kernel_app_started_t *self,
                                                  bus_error_t *err);
PROTO_MUST_USE int proto_kernel_app_started_write(const proto_kernel_app_started_t *self,
                                                  bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_kernel_app_started_encode(const proto_kernel_app_started_t *self);
int proto_kernel_app_started_read(proto_kernel_app_started_t *self,
                                  const bus_value_t *map,
                                  bus_error_t *err);
int proto_kernel_app_started_decode(proto_kernel_app_started_t *self,
                                    const void *data,
                                    size_t size,
                                    bus_error_t *err);
char *proto_kernel_app_started_print(const proto_kernel_app_started_t *self);

//  ---------------------------------------------------------------------------
//  kernel.app_failed, event (broadcast): an app of a kernel could not be opened: its
//  definition, its start, or its port

typedef struct {
    //  The kernel (required, at most 64 bytes)
    const char *kernel_id;
    //  Its session (at most 64 bytes)
    const char *session_id;
    //  The app (required, at most 64 bytes)
    const char *app;
    //  Why, with the end of the kernel's log (at most 4096 bytes)
    const char *detail;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_app_failed_t;

#define PROTO_KERNEL_APP_FAILED_KERNEL_ID_MAX  64
#define PROTO_KERNEL_APP_FAILED_SESSION_ID_MAX 64
#define PROTO_KERNEL_APP_FAILED_APP_MAX        64
#define PROTO_KERNEL_APP_FAILED_DETAIL_MAX     4096

void proto_kernel_app_failed_init(proto_kernel_app_failed_t *self);
void proto_kernel_app_failed_clear(proto_kernel_app_failed_t *self);
PROTO_MUST_USE int proto_kernel_app_failed_check(const proto_kernel_app_failed_t *self,
                                                 bus_error_t *err);
PROTO_MUST_USE int proto_kernel_app_failed_write(const proto_kernel_app_failed_t *self,
                                                 bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_kernel_app_failed_encode(const proto_kernel_app_failed_t *self);
int proto_kernel_app_failed_read(proto_kernel_app_failed_t *self,
                                 const bus_value_t *map,
                                 bus_error_t *err);
int proto_kernel_app_failed_decode(proto_kernel_app_failed_t *self,
                                   const void *data,
                                   size_t size,
                                   bus_error_t *err);
char *proto_kernel_app_failed_print(const proto_kernel_app_failed_t *self);

//  ---------------------------------------------------------------------------
//  kernel.model_status, event (broadcast): an inference kernel's model service changed
//  health (its health check passed or failed more than max_retries times, or its port
//  accepted when it has none), and once after each start

typedef struct {
    //  The kernel (required, at most 64 bytes)
    const char *kernel_id;
    //  Its session (at most 64 bytes)
    const char *session_id;
    //  The model's name (at most 256 bytes)
    const char *model;
    //  The health check passes
    bool healthy;
    //  Why it is not healthy (at most 1024 bytes)
    const char *detail;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_model_status_t;

#define PROTO_KERNEL_MODEL_STATUS_KERNEL_ID_MAX  64
#define PROTO_KERNEL_MODEL_STATUS_SESSION_ID_MAX 64
#define PROTO_KERNEL_MODEL_STATUS_MODEL_MAX      256
#define PROTO_KERNEL_MODEL_STATUS_DETAIL_MAX     1024

void proto_kernel_model_status_init(proto_kernel_model_status_t *self);
void proto_kernel_model_status_clear(proto_kernel_model_status_t *self);
PROTO_MUST_USE int proto_kernel_model_status_check(const proto_kernel_model_status_t *self,
                                                   bus_error_t *err);
PROTO_MUST_USE int proto_kernel_model_status_write(const proto_kernel_model_status_t *self,
                                                   bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_kernel_model_status_encode(const proto_kernel_model_status_t *self);
int proto_kernel_model_status_read(proto_kernel_model_status_t *self,
                                   const bus_value_t *map,
                                   bus_error_t *err);
int proto_kernel_model_status_decode(proto_kernel_model_status_t *self,
                                     const void *data,
                                     size_t size,
                                     bus_error_t *err);
char *proto_kernel_model_status_print(const proto_kernel_model_status_t *self);

//  ---------------------------------------------------------------------------
//  kernel.stats, event (broadcast): a running kernel's resource use, from its cgroup
//  (every stats period)

typedef struct {
    //  The kernel (required, at most 64 bytes)
    const char *kernel_id;
    //  Its agent (at most 128 bytes)
    const char *agent_id;
    //  CPU time used since start
    uint64_t cpu_used_ns;
    //  Memory in use now
    uint64_t mem_bytes;
    //  The most memory it used
    uint64_t mem_peak_bytes;
    //  Its memory limit
    uint64_t mem_limit_bytes;
    //  Processes and threads now
    uint64_t pids;
    //  Bytes read from block devices
    uint64_t io_read_bytes;
    //  Bytes written to block devices
    uint64_t io_write_bytes;
    //  Bytes received on its network interface since start
    uint64_t net_rx_bytes;
    //  Bytes sent on its network interface since start
    uint64_t net_tx_bytes;
    //  GPUs of the cuda plugin it holds (0: none, and the cuda figures below are 0)
    uint64_t cuda_devices;
    //  GPU memory its processes use now, summed over its GPUs (NVML's compute processes
    //  whose cgroup is the kernel's)
    uint64_t cuda_mem_bytes;
    //  The memory of the GPUs it holds
    uint64_t cuda_mem_total_bytes;
    //  Its processes' SM use in NVML's latest samples, percent summed over its GPUs (100
    //  per fully busy GPU)
    uint64_t cuda_util_pct;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_stats_t;

#define PROTO_KERNEL_STATS_KERNEL_ID_MAX 64
#define PROTO_KERNEL_STATS_AGENT_ID_MAX  128

void proto_kernel_stats_init(proto_kernel_stats_t *self);
void proto_kernel_stats_clear(proto_kernel_stats_t *self);
PROTO_MUST_USE int proto_kernel_stats_check(const proto_kernel_stats_t *self,
                                            bus_error_t *err);
PROTO_MUST_USE int proto_kernel_stats_write(const proto_kernel_stats_t *self,
                                            bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_kernel_stats_encode(const proto_kernel_stats_t *self);
int proto_kernel_stats_read(proto_kernel_stats_t *self,
                            const bus_value_t *map,
                            bus_error_t *err);
int proto_kernel_stats_decode(proto_kernel_stats_t *self,
                              const void *data,
                              size_t size,
                              bus_error_t *err);
char *proto_kernel_stats_print(const proto_kernel_stats_t *self);

//  ---------------------------------------------------------------------------
//  kernel.create request (idempotent): start a kernel's container; creating a kernel id
//  that exists answers what it has

typedef struct {
    //  The kernel (letters, digits, '-', '_', '.') (required, at most 64 bytes)
    const char *kernel_id;
    //  Its session (required, at most 64 bytes)
    const char *session_id;
    //  The session's name, the container's hostname (at most 64 bytes)
    const char *session_name;
    //  The agent meant (fake agents of a fleet share one endpoint); empty: whoever
    //  answers (at most 128 bytes)
    const char *agent_id;
    //  Interactive, batch or inference (at most 16 bytes, default "interactive")
    const char *session_type;
    //  Main or sub (at most 16 bytes, default "main")
    const char *cluster_role;
    //  Its index in the session (default 1)
    uint64_t cluster_idx;
    //  How many kernels its session has (BACKENDAI_CLUSTER_SIZE) (at most 64, default 1)
    uint64_t cluster_size;
    //  Single-node or multi-node (absent: single-node) (at most 16 bytes)
    const char *cluster_mode;
    //  The hostnames of the session's kernels in cluster_idx order, comma-separated
    //  (main1,sub1,sub2...); a cluster kernel's own is its hostname (at most 4096 bytes)
    const char *cluster_hosts;
    //  The canonical image reference (required, at most 512 bytes)
    const char *image;
    //  The image's architecture (at most 32 bytes, default "x86_64")
    const char *architecture;
    //  What it was allocated, slot -> decimal string (at most 64 pairs, string to string,
    //  in wire order)
    const proto_kv_t *slots;
    size_t slots_count;
    //  /dev/shm size (resource_opts.shmem); 0: the default
    uint64_t shmem_bytes;
    //  The user's environment variables (at most 1024 pairs, string to string, in wire
    //  order)
    const proto_kv_t *environ;
    size_t environ_count;
    //  Batch: the command to run; interactive: run once at start (at most 65536 bytes)
    const char *startup_command;
    //  The owner's keypair (BACKENDAI_ACCESS_KEY) (at most 64 bytes)
    const char *access_key;
    //  The owner (BACKENDAI_USER_UUID) (at most 64 bytes)
    const char *user_uuid;
    //  The owner's domain (at most 64 bytes)
    const char *domain_name;
    //  The session's project (at most 64 bytes)
    const char *group_id;
    //  A shell script run once (as the user, in /home/work) after the runner answers and
    //  before kernel.started; its failure does not stop the kernel (at most 65536 bytes)
    const char *bootstrap_script;
    //  The virtual folders to bind-mount: host_path appears at kernel_path, read-only
    //  when permission is ro (at most 64 items)
    const proto_kernel_mount_t *mounts;
    size_t mounts_count;
    //  The owner's dotfiles, the keypair's over the project's over the domain's (each
    //  path once) (at most 300 items)
    const proto_kernel_dotfile_t *dotfiles;
    size_t dotfiles_count;
    //  Inference: JSON {name, model_path, start_command: [argv], port, health_check:
    //  {path, max_retries, max_wait_time, expected_status_code} or absent}: the agent
    //  starts the command in model_path once the runner answers and publishes
    //  kernel.model_status from its health checks; absent: none (at most 65536 bytes)
    const char *model_service;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_create_req_t;

#define PROTO_KERNEL_CREATE_REQ_KERNEL_ID_MAX        64
#define PROTO_KERNEL_CREATE_REQ_SESSION_ID_MAX       64
#define PROTO_KERNEL_CREATE_REQ_SESSION_NAME_MAX     64
#define PROTO_KERNEL_CREATE_REQ_AGENT_ID_MAX         128
#define PROTO_KERNEL_CREATE_REQ_SESSION_TYPE_MAX     16
#define PROTO_KERNEL_CREATE_REQ_CLUSTER_ROLE_MAX     16
#define PROTO_KERNEL_CREATE_REQ_CLUSTER_MODE_MAX     16
#define PROTO_KERNEL_CREATE_REQ_CLUSTER_HOSTS_MAX    4096
#define PROTO_KERNEL_CREATE_REQ_IMAGE_MAX            512
#define PROTO_KERNEL_CREATE_REQ_ARCHITECTURE_MAX     32
#define PROTO_KERNEL_CREATE_REQ_SLOTS_MAX            64
#define PROTO_KERNEL_CREATE_REQ_ENVIRON_MAX          1024
#define PROTO_KERNEL_CREATE_REQ_STARTUP_COMMAND_MAX  65536
#define PROTO_KERNEL_CREATE_REQ_ACCESS_KEY_MAX       64
#define PROTO_KERNEL_CREATE_REQ_USER_UUID_MAX        64
#define PROTO_KERNEL_CREATE_REQ_DOMAIN_NAME_MAX      64
#define PROTO_KERNEL_CREATE_REQ_GROUP_ID_MAX         64
#define PROTO_KERNEL_CREATE_REQ_BOOTSTRAP_SCRIPT_MAX 65536
#define PROTO_KERNEL_CREATE_REQ_MOUNTS_MAX           64
#define PROTO_KERNEL_CREATE_REQ_DOTFILES_MAX         300
#define PROTO_KERNEL_CREATE_REQ_MODEL_SERVICE_MAX    65536

void proto_kernel_create_req_init(proto_kernel_create_req_t *self);
void proto_kernel_create_req_clear(proto_kernel_create_req_t *self);
PROTO_MUST_USE int proto_kernel_create_req_check(const proto_kernel_create_req_t *self,
                                                 bus_error_t *err);
PROTO_MUST_USE int proto_kernel_create_req_write(const proto_kernel_create_req_t *self,
                                                 bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *
proto_kernel_create_req_writer(const proto_kernel_create_req_t *self, bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_kernel_create_req_encode(const proto_kernel_create_req_t *self);
int proto_kernel_create_req_read(proto_kernel_create_req_t *self,
                                 const bus_value_t *map,
                                 bus_error_t *err);
int proto_kernel_create_req_decode(proto_kernel_create_req_t *self,
                                   const void *data,
                                   size_t size,
                                   bus_error_t *err);
char *proto_kernel_create_req_print(const proto_kernel_create_req_t *self);

//  ---------------------------------------------------------------------------
//  kernel.create reply (idempotent): start a kernel's container; creating a kernel id
//  that exists answers what it has

typedef struct {
    //  The kernel (required, at most 64 bytes)
    const char *kernel_id;
    //  The runtime's container id (at most 128 bytes)
    const char *container_id;
    //  The container's address (at most 64 bytes)
    const char *kernel_host;
    //  The apps it can start (at most 64 items)
    const proto_kernel_port_t *service_ports;
    size_t service_ports_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_create_rep_t;

#define PROTO_KERNEL_CREATE_REP_KERNEL_ID_MAX     64
#define PROTO_KERNEL_CREATE_REP_CONTAINER_ID_MAX  128
#define PROTO_KERNEL_CREATE_REP_KERNEL_HOST_MAX   64
#define PROTO_KERNEL_CREATE_REP_SERVICE_PORTS_MAX 64

void proto_kernel_create_rep_init(proto_kernel_create_rep_t *self);
void proto_kernel_create_rep_clear(proto_kernel_create_rep_t *self);
PROTO_MUST_USE int proto_kernel_create_rep_check(const proto_kernel_create_rep_t *self,
                                                 bus_error_t *err);
PROTO_MUST_USE int proto_kernel_create_rep_write(const proto_kernel_create_rep_t *self,
                                                 bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_kernel_create_rep_encode(const proto_kernel_create_rep_t *self);
int proto_kernel_create_rep_read(proto_kernel_create_rep_t *self,
                                 const bus_value_t *map,
                                 bus_error_t *err);
int proto_kernel_create_rep_decode(proto_kernel_create_rep_t *self,
                                   const void *data,
                                   size_t size,
                                   bus_error_t *err);
char *proto_kernel_create_rep_print(const proto_kernel_create_rep_t *self);

//  ---------------------------------------------------------------------------
//  kernel.hosts request (idempotent): rewrite a kernel's /etc/hosts: localhost, then each
//  hostname of its cluster with its address

typedef struct {
    //  The kernel (required, at most 64 bytes)
    const char *kernel_id;
    //  JSON object: hostname -> IPv4 address (required, at most 65536 bytes)
    const char *hosts;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_hosts_req_t;

#define PROTO_KERNEL_HOSTS_REQ_KERNEL_ID_MAX 64
#define PROTO_KERNEL_HOSTS_REQ_HOSTS_MAX     65536

void proto_kernel_hosts_req_init(proto_kernel_hosts_req_t *self);
void proto_kernel_hosts_req_clear(proto_kernel_hosts_req_t *self);
PROTO_MUST_USE int proto_kernel_hosts_req_check(const proto_kernel_hosts_req_t *self,
                                                bus_error_t *err);
PROTO_MUST_USE int proto_kernel_hosts_req_write(const proto_kernel_hosts_req_t *self,
                                                bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *
proto_kernel_hosts_req_writer(const proto_kernel_hosts_req_t *self, bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_kernel_hosts_req_encode(const proto_kernel_hosts_req_t *self);
int proto_kernel_hosts_req_read(proto_kernel_hosts_req_t *self,
                                const bus_value_t *map,
                                bus_error_t *err);
int proto_kernel_hosts_req_decode(proto_kernel_hosts_req_t *self,
                                  const void *data,
                                  size_t size,
                                  bus_error_t *err);
char *proto_kernel_hosts_req_print(const proto_kernel_hosts_req_t *self);

//  ---------------------------------------------------------------------------
//  kernel.hosts reply (idempotent): rewrite a kernel's /etc/hosts: localhost, then each
//  hostname of its cluster with its address

typedef struct {
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_hosts_rep_t;

void proto_kernel_hosts_rep_init(proto_kernel_hosts_rep_t *self);
void proto_kernel_hosts_rep_clear(proto_kernel_hosts_rep_t *self);
PROTO_MUST_USE int proto_kernel_hosts_rep_check(const proto_kernel_hosts_rep_t *self,
                                                bus_error_t *err);
PROTO_MUST_USE int proto_kernel_hosts_rep_write(const proto_kernel_hosts_rep_t *self,
                                                bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_kernel_hosts_rep_encode(const proto_kernel_hosts_rep_t *self);
int proto_kernel_hosts_rep_read(proto_kernel_hosts_rep_t *self,
                                const bus_value_t *map,
                                bus_error_t *err);
int proto_kernel_hosts_rep_decode(proto_kernel_hosts_rep_t *self,
                                  const void *data,
                                  size_t size,
                                  bus_error_t *err);
char *proto_kernel_hosts_rep_print(const proto_kernel_hosts_rep_t *self);

//  ---------------------------------------------------------------------------
//  kernel.destroy request (idempotent): stop a kernel (TERM, then KILL after grace_ms)
//  and remove what it left

typedef struct {
    //  The kernel (required, at most 64 bytes)
    const char *kernel_id;
    //  Why, as status_info shows it (at most 64 bytes, default "user-requested")
    const char *reason;
    //  How long it may take to exit after TERM (default 5000)
    uint64_t grace_ms;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_destroy_req_t;

#define PROTO_KERNEL_DESTROY_REQ_KERNEL_ID_MAX 64
#define PROTO_KERNEL_DESTROY_REQ_REASON_MAX    64

void proto_kernel_destroy_req_init(proto_kernel_destroy_req_t *self);
void proto_kernel_destroy_req_clear(proto_kernel_destroy_req_t *self);
PROTO_MUST_USE int proto_kernel_destroy_req_check(const proto_kernel_destroy_req_t *self,
                                                  bus_error_t *err);
PROTO_MUST_USE int proto_kernel_destroy_req_write(const proto_kernel_destroy_req_t *self,
                                                  bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *
proto_kernel_destroy_req_writer(const proto_kernel_destroy_req_t *self, bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_kernel_destroy_req_encode(const proto_kernel_destroy_req_t *self);
int proto_kernel_destroy_req_read(proto_kernel_destroy_req_t *self,
                                  const bus_value_t *map,
                                  bus_error_t *err);
int proto_kernel_destroy_req_decode(proto_kernel_destroy_req_t *self,
                                    const void *data,
                                    size_t size,
                                    bus_error_t *err);
char *proto_kernel_destroy_req_print(const proto_kernel_destroy_req_t *self);

//  ---------------------------------------------------------------------------
//  kernel.destroy reply (idempotent): stop a kernel (TERM, then KILL after grace_ms) and
//  remove what it left

typedef struct {
    //  Its exit code (137 when killed)
    int64_t exit_code;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_destroy_rep_t;

void proto_kernel_destroy_rep_init(proto_kernel_destroy_rep_t *self);
void proto_kernel_destroy_rep_clear(proto_kernel_destroy_rep_t *self);
PROTO_MUST_USE int proto_kernel_destroy_rep_check(const proto_kernel_destroy_rep_t *self,
                                                  bus_error_t *err);
PROTO_MUST_USE int proto_kernel_destroy_rep_write(const proto_kernel_destroy_rep_t *self,
                                                  bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_kernel_destroy_rep_encode(const proto_kernel_destroy_rep_t *self);
int proto_kernel_destroy_rep_read(proto_kernel_destroy_rep_t *self,
                                  const bus_value_t *map,
                                  bus_error_t *err);
int proto_kernel_destroy_rep_decode(proto_kernel_destroy_rep_t *self,
                                    const void *data,
                                    size_t size,
                                    bus_error_t *err);
char *proto_kernel_destroy_rep_print(const proto_kernel_destroy_rep_t *self);

//  ---------------------------------------------------------------------------
//  kernel.restart request (not idempotent): restart a kernel's container in place: stop
//  it (TERM, then KILL after grace_ms) and run it again from the same bundle; the files
//  in its home (the overlay) and its address stay, its processes do not; no
//  kernel.started or kernel.terminated unless it cannot run again (then
//  kernel.terminated, failed-to-start)

typedef struct {
    //  The kernel (required, at most 64 bytes)
    const char *kernel_id;
    //  How long it may take to exit after TERM (default 5000)
    uint64_t grace_ms;
    //  Batch: the task to run again once it runs (Backend.AI re-runs a batch session's
    //  command after a restart) (at most 65536 bytes)
    const char *startup_command;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_restart_req_t;

#define PROTO_KERNEL_RESTART_REQ_KERNEL_ID_MAX       64
#define PROTO_KERNEL_RESTART_REQ_STARTUP_COMMAND_MAX 65536

void proto_kernel_restart_req_init(proto_kernel_restart_req_t *self);
void proto_kernel_restart_req_clear(proto_kernel_restart_req_t *self);
PROTO_MUST_USE int proto_kernel_restart_req_check(const proto_kernel_restart_req_t *self,
                                                  bus_error_t *err);
PROTO_MUST_USE int proto_kernel_restart_req_write(const proto_kernel_restart_req_t *self,
                                                  bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *
proto_kernel_restart_req_writer(const proto_kernel_restart_req_t *self, bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_kernel_restart_req_encode(const proto_kernel_restart_req_t *self);
int proto_kernel_restart_req_read(proto_kernel_restart_req_t *self,
                                  const bus_value_t *map,
                                  bus_error_t *err);
int proto_kernel_restart_req_decode(proto_kernel_restart_req_t *self,
                                    const void *data,
                                    size_t size,
                                    bus_error_t *err);
char *proto_kernel_restart_req_print(const proto_kernel_restart_req_t *self);

//  ---------------------------------------------------------------------------
//  kernel.restart reply (not idempotent): restart a kernel's container in place: stop it
//  (TERM, then KILL after grace_ms) and run it again from the same bundle; the files in
//  its home (the overlay) and its address stay, its processes do not; no kernel.started
//  or kernel.terminated unless it cannot run again (then kernel.terminated,
//  failed-to-start)

typedef struct {
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_restart_rep_t;

void proto_kernel_restart_rep_init(proto_kernel_restart_rep_t *self);
void proto_kernel_restart_rep_clear(proto_kernel_restart_rep_t *self);
PROTO_MUST_USE int proto_kernel_restart_rep_check(const proto_kernel_restart_rep_t *self,
                                                  bus_error_t *err);
PROTO_MUST_USE int proto_kernel_restart_rep_write(const proto_kernel_restart_rep_t *self,
                                                  bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_kernel_restart_rep_encode(const proto_kernel_restart_rep_t *self);
int proto_kernel_restart_rep_read(proto_kernel_restart_rep_t *self,
                                  const bus_value_t *map,
                                  bus_error_t *err);
int proto_kernel_restart_rep_decode(proto_kernel_restart_rep_t *self,
                                    const void *data,
                                    size_t size,
                                    bus_error_t *err);
char *proto_kernel_restart_rep_print(const proto_kernel_restart_rep_t *self);

//  ---------------------------------------------------------------------------
//  kernel.execute request (not idempotent): run code in a kernel, or collect the output
//  of a run (reference §3.4); the reply is Backend.AI's result object

typedef struct {
    //  The kernel (required, at most 64 bytes)
    const char *kernel_id;
    //  The client's run id (required, at most 64 bytes)
    const char *run_id;
    //  Query, batch, continue, input or complete (required, at most 16 bytes)
    const char *mode;
    //  The code (query), the input line (input) (at most 16777216 bytes)
    const char *code;
    //  JSON options: batch build/exec/clean commands (at most 65536 bytes)
    const char *options;
    //  The longest the reply waits for the run to finish (default 10000)
    uint64_t wait_ms;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_execute_req_t;

#define PROTO_KERNEL_EXECUTE_REQ_KERNEL_ID_MAX 64
#define PROTO_KERNEL_EXECUTE_REQ_RUN_ID_MAX    64
#define PROTO_KERNEL_EXECUTE_REQ_MODE_MAX      16
#define PROTO_KERNEL_EXECUTE_REQ_CODE_MAX      16777216
#define PROTO_KERNEL_EXECUTE_REQ_OPTIONS_MAX   65536

void proto_kernel_execute_req_init(proto_kernel_execute_req_t *self);
void proto_kernel_execute_req_clear(proto_kernel_execute_req_t *self);
PROTO_MUST_USE int proto_kernel_execute_req_check(const proto_kernel_execute_req_t *self,
                                                  bus_error_t *err);
PROTO_MUST_USE int proto_kernel_execute_req_write(const proto_kernel_execute_req_t *self,
                                                  bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *
proto_kernel_execute_req_writer(const proto_kernel_execute_req_t *self, bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_kernel_execute_req_encode(const proto_kernel_execute_req_t *self);
int proto_kernel_execute_req_read(proto_kernel_execute_req_t *self,
                                  const bus_value_t *map,
                                  bus_error_t *err);
int proto_kernel_execute_req_decode(proto_kernel_execute_req_t *self,
                                    const void *data,
                                    size_t size,
                                    bus_error_t *err);
char *proto_kernel_execute_req_print(const proto_kernel_execute_req_t *self);

//  ---------------------------------------------------------------------------
//  kernel.execute reply (not idempotent): run code in a kernel, or collect the output of
//  a run (reference §3.4); the reply is Backend.AI's result object

typedef struct {
    //  The §3.4 result as JSON: status, console, exitCode, options (required, at most
    //  33554432 bytes)
    const char *result;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_execute_rep_t;

#define PROTO_KERNEL_EXECUTE_REP_RESULT_MAX 33554432

void proto_kernel_execute_rep_init(proto_kernel_execute_rep_t *self);
void proto_kernel_execute_rep_clear(proto_kernel_execute_rep_t *self);
PROTO_MUST_USE int proto_kernel_execute_rep_check(const proto_kernel_execute_rep_t *self,
                                                  bus_error_t *err);
PROTO_MUST_USE int proto_kernel_execute_rep_write(const proto_kernel_execute_rep_t *self,
                                                  bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_kernel_execute_rep_encode(const proto_kernel_execute_rep_t *self);
int proto_kernel_execute_rep_read(proto_kernel_execute_rep_t *self,
                                  const bus_value_t *map,
                                  bus_error_t *err);
int proto_kernel_execute_rep_decode(proto_kernel_execute_rep_t *self,
                                    const void *data,
                                    size_t size,
                                    bus_error_t *err);
char *proto_kernel_execute_rep_print(const proto_kernel_execute_rep_t *self);

//  ---------------------------------------------------------------------------
//  kernel.interrupt request (idempotent): send SIGINT to the code a kernel runs now
//  (force: SIGKILL to its whole process group, for code that ignores SIGINT)

typedef struct {
    //  The kernel (required, at most 64 bytes)
    const char *kernel_id;
    //  Kill rather than interrupt
    bool force;
    //  Only if this run is the one going (empty: whatever runs) (at most 64 bytes)
    const char *run_id;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_interrupt_req_t;

#define PROTO_KERNEL_INTERRUPT_REQ_KERNEL_ID_MAX 64
#define PROTO_KERNEL_INTERRUPT_REQ_RUN_ID_MAX    64

void proto_kernel_interrupt_req_init(proto_kernel_interrupt_req_t *self);
void proto_kernel_interrupt_req_clear(proto_kernel_interrupt_req_t *self);
PROTO_MUST_USE int proto_kernel_interrupt_req_check(const proto_kernel_interrupt_req_t *self,
                                                    bus_error_t *err);
PROTO_MUST_USE int proto_kernel_interrupt_req_write(const proto_kernel_interrupt_req_t *self,
                                                    bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_kernel_interrupt_req_writer(const proto_kernel_interrupt_req_t *self,
                                                               bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_kernel_interrupt_req_encode(const proto_kernel_interrupt_req_t *self);
int proto_kernel_interrupt_req_read(proto_kernel_interrupt_req_t *self,
                                    const bus_value_t *map,
                                    bus_error_t *err);
int proto_kernel_interrupt_req_decode(proto_kernel_interrupt_req_t *self,
                                      const void *data,
                                      size_t size,
                                      bus_error_t *err);
char *proto_kernel_interrupt_req_print(const proto_kernel_interrupt_req_t *self);

//  ---------------------------------------------------------------------------
//  kernel.interrupt reply (idempotent): send SIGINT to the code a kernel runs now (force:
//  SIGKILL to its whole process group, for code that ignores SIGINT)

typedef struct {
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_interrupt_rep_t;

void proto_kernel_interrupt_rep_init(proto_kernel_interrupt_rep_t *self);
void proto_kernel_interrupt_rep_clear(proto_kernel_interrupt_rep_t *self);
PROTO_MUST_USE int proto_kernel_interrupt_rep_check(const proto_kernel_interrupt_rep_t *self,
                                                    bus_error_t *err);
PROTO_MUST_USE int proto_kernel_interrupt_rep_write(const proto_kernel_interrupt_rep_t *self,
                                                    bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_kernel_interrupt_rep_encode(const proto_kernel_interrupt_rep_t *self);
int proto_kernel_interrupt_rep_read(proto_kernel_interrupt_rep_t *self,
                                    const bus_value_t *map,
                                    bus_error_t *err);
int proto_kernel_interrupt_rep_decode(proto_kernel_interrupt_rep_t *self,
                                      const void *data,
                                      size_t size,
                                      bus_error_t *err);
char *proto_kernel_interrupt_rep_print(const proto_kernel_interrupt_rep_t *self);

//  ---------------------------------------------------------------------------
//  kernel.logs request (idempotent): the container's output (the end of it when it is
//  long)

typedef struct {
    //  The kernel (required, at most 64 bytes)
    const char *kernel_id;
    //  At most this much, from the end (default 1048576)
    uint64_t max_bytes;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_logs_req_t;

#define PROTO_KERNEL_LOGS_REQ_KERNEL_ID_MAX 64

void proto_kernel_logs_req_init(proto_kernel_logs_req_t *self);
void proto_kernel_logs_req_clear(proto_kernel_logs_req_t *self);
PROTO_MUST_USE int proto_kernel_logs_req_check(const proto_kernel_logs_req_t *self,
                                               bus_error_t *err);
PROTO_MUST_USE int proto_kernel_logs_req_write(const proto_kernel_logs_req_t *self,
                                               bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *
proto_kernel_logs_req_writer(const proto_kernel_logs_req_t *self, bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_kernel_logs_req_encode(const proto_kernel_logs_req_t *self);
int proto_kernel_logs_req_read(proto_kernel_logs_req_t *self,
                               const bus_value_t *map,
                               bus_error_t *err);
int proto_kernel_logs_req_decode(proto_kernel_logs_req_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err);
char *proto_kernel_logs_req_print(const proto_kernel_logs_req_t *self);

//  ---------------------------------------------------------------------------
//  kernel.logs reply (idempotent): the container's output (the end of it when it is long)

typedef struct {
    //  The bytes of container.log (at most 16777216 bytes)
    const uint8_t *logs;
    size_t logs_size;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_logs_rep_t;

#define PROTO_KERNEL_LOGS_REP_LOGS_MAX 16777216

void proto_kernel_logs_rep_init(proto_kernel_logs_rep_t *self);
void proto_kernel_logs_rep_clear(proto_kernel_logs_rep_t *self);
PROTO_MUST_USE int proto_kernel_logs_rep_check(const proto_kernel_logs_rep_t *self,
                                               bus_error_t *err);
PROTO_MUST_USE int proto_kernel_logs_rep_write(const proto_kernel_logs_rep_t *self,
                                               bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_kernel_logs_rep_encode(const proto_kernel_logs_rep_t *self);
int proto_kernel_logs_rep_read(proto_kernel_logs_rep_t *self,
                               const bus_value_t *map,
                               bus_error_t *err);
int proto_kernel_logs_rep_decode(proto_kernel_logs_rep_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err);
char *proto_kernel_logs_rep_print(const proto_kernel_logs_rep_t *self);

//  ---------------------------------------------------------------------------
//  kernel.list request (idempotent): every kernel the agent has, for the scheduler's
//  reconciliation

typedef struct {
    //  The agent meant (fake agents of a fleet share one endpoint); empty: whoever
    //  answers (at most 128 bytes)
    const char *agent_id;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_list_req_t;

#define PROTO_KERNEL_LIST_REQ_AGENT_ID_MAX 128

void proto_kernel_list_req_init(proto_kernel_list_req_t *self);
void proto_kernel_list_req_clear(proto_kernel_list_req_t *self);
PROTO_MUST_USE int proto_kernel_list_req_check(const proto_kernel_list_req_t *self,
                                               bus_error_t *err);
PROTO_MUST_USE int proto_kernel_list_req_write(const proto_kernel_list_req_t *self,
                                               bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *
proto_kernel_list_req_writer(const proto_kernel_list_req_t *self, bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_kernel_list_req_encode(const proto_kernel_list_req_t *self);
int proto_kernel_list_req_read(proto_kernel_list_req_t *self,
                               const bus_value_t *map,
                               bus_error_t *err);
int proto_kernel_list_req_decode(proto_kernel_list_req_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err);
char *proto_kernel_list_req_print(const proto_kernel_list_req_t *self);

//  ---------------------------------------------------------------------------
//  kernel.list reply (idempotent): every kernel the agent has, for the scheduler's
//  reconciliation

typedef struct {
    //  The kernels (at most 100000 items)
    const proto_kernel_state_t *kernels;
    size_t kernels_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_list_rep_t;

#define PROTO_KERNEL_LIST_REP_KERNELS_MAX 100000

void proto_kernel_list_rep_init(proto_kernel_list_rep_t *self);
void proto_kernel_list_rep_clear(proto_kernel_list_rep_t *self);
PROTO_MUST_USE int proto_kernel_list_rep_check(const proto_kernel_list_rep_t *self,
                                               bus_error_t *err);
PROTO_MUST_USE int proto_kernel_list_rep_write(const proto_kernel_list_rep_t *self,
                                               bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_kernel_list_rep_encode(const proto_kernel_list_rep_t *self);
int proto_kernel_list_rep_read(proto_kernel_list_rep_t *self,
                               const bus_value_t *map,
                               bus_error_t *err);
int proto_kernel_list_rep_decode(proto_kernel_list_rep_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err);
char *proto_kernel_list_rep_print(const proto_kernel_list_rep_t *self);

//  ---------------------------------------------------------------------------
//  kernel.upload request (idempotent): write files into a kernel's home, creating parent
//  directories, owned by the kernel's user; each file appears whole or not at all

typedef struct {
    //  The kernel (required, at most 64 bytes)
    const char *kernel_id;
    //  The files (Backend.AI: at most 20, each under 1 MiB) (at most 20 items)
    const proto_kernel_file_t *files;
    size_t files_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_upload_req_t;

#define PROTO_KERNEL_UPLOAD_REQ_KERNEL_ID_MAX 64
#define PROTO_KERNEL_UPLOAD_REQ_FILES_MAX     20

void proto_kernel_upload_req_init(proto_kernel_upload_req_t *self);
void proto_kernel_upload_req_clear(proto_kernel_upload_req_t *self);
PROTO_MUST_USE int proto_kernel_upload_req_check(const proto_kernel_upload_req_t *self,
                                                 bus_error_t *err);
PROTO_MUST_USE int proto_kernel_upload_req_write(const proto_kernel_upload_req_t *self,
                                                 bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *
proto_kernel_upload_req_writer(const proto_kernel_upload_req_t *self, bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_kernel_upload_req_encode(const proto_kernel_upload_req_t *self);
int proto_kernel_upload_req_read(proto_kernel_upload_req_t *self,
                                 const bus_value_t *map,
                                 bus_error_t *err);
int proto_kernel_upload_req_decode(proto_kernel_upload_req_t *self,
                                   const void *data,
                                   size_t size,
                                   bus_error_t *err);
char *proto_kernel_upload_req_print(const proto_kernel_upload_req_t *self);

//  ---------------------------------------------------------------------------
//  kernel.upload reply (idempotent): write files into a kernel's home, creating parent
//  directories, owned by the kernel's user; each file appears whole or not at all

typedef struct {
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_upload_rep_t;

void proto_kernel_upload_rep_init(proto_kernel_upload_rep_t *self);
void proto_kernel_upload_rep_clear(proto_kernel_upload_rep_t *self);
PROTO_MUST_USE int proto_kernel_upload_rep_check(const proto_kernel_upload_rep_t *self,
                                                 bus_error_t *err);
PROTO_MUST_USE int proto_kernel_upload_rep_write(const proto_kernel_upload_rep_t *self,
                                                 bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_kernel_upload_rep_encode(const proto_kernel_upload_rep_t *self);
int proto_kernel_upload_rep_read(proto_kernel_upload_rep_t *self,
                                 const bus_value_t *map,
                                 bus_error_t *err);
int proto_kernel_upload_rep_decode(proto_kernel_upload_rep_t *self,
                                   const void *data,
                                   size_t size,
                                   bus_error_t *err);
char *proto_kernel_upload_rep_print(const proto_kernel_upload_rep_t *self);

//  ---------------------------------------------------------------------------
//  kernel.download request (idempotent): files or directories of a kernel's home, each as
//  a tar archive

typedef struct {
    //  The kernel (required, at most 64 bytes)
    const char *kernel_id;
    //  What to fetch (Backend.AI: at most 5) (at most 5 items)
    const char *const *paths;
    size_t paths_count;
    //  The largest archive per path (default 16777216)
    uint64_t max_bytes;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_download_req_t;

#define PROTO_KERNEL_DOWNLOAD_REQ_KERNEL_ID_MAX 64
#define PROTO_KERNEL_DOWNLOAD_REQ_PATHS_MAX     5

void proto_kernel_download_req_init(proto_kernel_download_req_t *self);
void proto_kernel_download_req_clear(proto_kernel_download_req_t *self);
PROTO_MUST_USE int proto_kernel_download_req_check(const proto_kernel_download_req_t *self,
                                                   bus_error_t *err);
PROTO_MUST_USE int proto_kernel_download_req_write(const proto_kernel_download_req_t *self,
                                                   bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_kernel_download_req_writer(const proto_kernel_download_req_t *self,
                                                              bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_kernel_download_req_encode(const proto_kernel_download_req_t *self);
int proto_kernel_download_req_read(proto_kernel_download_req_t *self,
                                   const bus_value_t *map,
                                   bus_error_t *err);
int proto_kernel_download_req_decode(proto_kernel_download_req_t *self,
                                     const void *data,
                                     size_t size,
                                     bus_error_t *err);
char *proto_kernel_download_req_print(const proto_kernel_download_req_t *self);

//  ---------------------------------------------------------------------------
//  kernel.download reply (idempotent): files or directories of a kernel's home, each as a
//  tar archive

typedef struct {
    //  One archive per path, in order (at most 5 items)
    const proto_kernel_file_t *files;
    size_t files_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_download_rep_t;

#define PROTO_KERNEL_DOWNLOAD_REP_FILES_MAX 5

void proto_kernel_download_rep_init(proto_kernel_download_rep_t *self);
void proto_kernel_download_rep_clear(proto_kernel_download_rep_t *self);
PROTO_MUST_USE int proto_kernel_download_rep_check(const proto_kernel_download_rep_t *self,
                                                   bus_error_t *err);
PROTO_MUST_USE int proto_kernel_download_rep_write(const proto_kernel_download_rep_t *self,
                                                   bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_kernel_download_rep_encode(const proto_kernel_download_rep_t *self);
int proto_kernel_download_rep_read(proto_kernel_download_rep_t *self,
                                   const bus_value_t *map,
                                   bus_error_t *err);
int proto_kernel_download_rep_decode(proto_kernel_download_rep_t *self,
                                     const void *data,
                                     size_t size,
                                     bus_error_t *err);
char *proto_kernel_download_rep_print(const proto_kernel_download_rep_t *self);

//  ---------------------------------------------------------------------------
//  kernel.download_single request (idempotent): one regular file of a kernel's home, its
//  bytes as they are

typedef struct {
    //  The kernel (required, at most 64 bytes)
    const char *kernel_id;
    //  The file (required, at most 4096 bytes)
    const char *path;
    //  Refused when larger (default 16777216)
    uint64_t max_bytes;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_download_single_req_t;

#define PROTO_KERNEL_DOWNLOAD_SINGLE_REQ_KERNEL_ID_MAX 64
#define PROTO_KERNEL_DOWNLOAD_SINGLE_REQ_PATH_MAX      4096

void proto_kernel_download_single_req_init(proto_kernel_download_single_req_t *self);
void proto_kernel_download_single_req_clear(proto_kernel_download_single_req_t *self);
PROTO_MUST_USE int proto_kernel_download_single_req_check(const proto_kernel_download_single_req_t *self,
                                                          bus_error_t *err);
PROTO_MUST_USE int proto_kernel_download_single_req_write(const proto_kernel_download_single_req_t *self,
                                                          bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_kernel_download_single_req_writer(const proto_kernel_download_single_req_t *self,
                                                                     bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_kernel_download_single_req_encode(const proto_kernel_download_single_req_t *self);
int proto_kernel_download_single_req_read(proto_kernel_download_single_req_t *self,
                                          const bus_value_t *map,
                                          bus_error_t *err);
int proto_kernel_download_single_req_decode(proto_kernel_download_single_req_t *self,
                                            const void *data,
                                            size_t size,
                                            bus_error_t *err);
char *
proto_kernel_download_single_req_print(const proto_kernel_download_single_req_t *self);

//  ---------------------------------------------------------------------------
//  kernel.download_single reply (idempotent): one regular file of a kernel's home, its
//  bytes as they are

typedef struct {
    //  The file's bytes (at most 16777216 bytes)
    const uint8_t *data;
    size_t data_size;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_download_single_rep_t;

#define PROTO_KERNEL_DOWNLOAD_SINGLE_REP_DATA_MAX 16777216

void proto_kernel_download_single_rep_init(proto_kernel_download_single_rep_t *self);
void proto_kernel_download_single_rep_clear(proto_kernel_download_single_rep_t *self);
PROTO_MUST_USE int proto_kernel_download_single_rep_check(const proto_kernel_download_single_rep_t *self,
                                                          bus_error_t *err);
PROTO_MUST_USE int proto_kernel_download_single_rep_write(const proto_kernel_download_single_rep_t *self,
                                                          bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_kernel_download_single_rep_encode(const proto_kernel_download_single_rep_t *self);
int proto_kernel_download_single_rep_read(proto_kernel_download_single_rep_t *self,
                                          const bus_value_t *map,
                                          bus_error_t *err);
int proto_kernel_download_single_rep_decode(proto_kernel_download_single_rep_t *self,
                                            const void *data,
                                            size_t size,
                                            bus_error_t *err);
char *
proto_kernel_download_single_rep_print(const proto_kernel_download_single_rep_t *self);

//  ---------------------------------------------------------------------------
//  kernel.list_files request (idempotent): a directory of a kernel's home, as
//  Backend.AI's /files answers it

typedef struct {
    //  The kernel (required, at most 64 bytes)
    const char *kernel_id;
    //  The directory (at most 4096 bytes, default ".")
    const char *path;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_list_files_req_t;

#define PROTO_KERNEL_LIST_FILES_REQ_KERNEL_ID_MAX 64
#define PROTO_KERNEL_LIST_FILES_REQ_PATH_MAX      4096

void proto_kernel_list_files_req_init(proto_kernel_list_files_req_t *self);
void proto_kernel_list_files_req_clear(proto_kernel_list_files_req_t *self);
PROTO_MUST_USE int proto_kernel_list_files_req_check(const proto_kernel_list_files_req_t *self,
                                                     bus_error_t *err);
PROTO_MUST_USE int proto_kernel_list_files_req_write(const proto_kernel_list_files_req_t *self,
                                                     bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_kernel_list_files_req_writer(const proto_kernel_list_files_req_t *self,
                                                                bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_kernel_list_files_req_encode(const proto_kernel_list_files_req_t *self);
int proto_kernel_list_files_req_read(proto_kernel_list_files_req_t *self,
                                     const bus_value_t *map,
                                     bus_error_t *err);
int proto_kernel_list_files_req_decode(proto_kernel_list_files_req_t *self,
                                       const void *data,
                                       size_t size,
                                       bus_error_t *err);
char *proto_kernel_list_files_req_print(const proto_kernel_list_files_req_t *self);

//  ---------------------------------------------------------------------------
//  kernel.list_files reply (idempotent): a directory of a kernel's home, as Backend.AI's
//  /files answers it

typedef struct {
    //  JSON array of {mode, size, ctime, mtime, atime, filename} (required, at most
    //  16777216 bytes)
    const char *files;
    //  The directory's path in the container (at most 4096 bytes)
    const char *abspath;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_list_files_rep_t;

#define PROTO_KERNEL_LIST_FILES_REP_FILES_MAX   16777216
#define PROTO_KERNEL_LIST_FILES_REP_ABSPATH_MAX 4096

void proto_kernel_list_files_rep_init(proto_kernel_list_files_rep_t *self);
void proto_kernel_list_files_rep_clear(proto_kernel_list_files_rep_t *self);
PROTO_MUST_USE int proto_kernel_list_files_rep_check(const proto_kernel_list_files_rep_t *self,
                                                     bus_error_t *err);
PROTO_MUST_USE int proto_kernel_list_files_rep_write(const proto_kernel_list_files_rep_t *self,
                                                     bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_kernel_list_files_rep_encode(const proto_kernel_list_files_rep_t *self);
int proto_kernel_list_files_rep_read(proto_kernel_list_files_rep_t *self,
                                     const bus_value_t *map,
                                     bus_error_t *err);
int proto_kernel_list_files_rep_decode(proto_kernel_list_files_rep_t *self,
                                       const void *data,
                                       size_t size,
                                       bus_error_t *err);
char *proto_kernel_list_files_rep_print(const proto_kernel_list_files_rep_t *self);

//  ---------------------------------------------------------------------------
//  kernel.pty_write request (not idempotent): keystrokes for a kernel's terminal (a shell
//  on a pseudo-terminal in the container), opening it first when it is not open; rows and
//  cols, when set, resize it

typedef struct {
    //  The kernel (required, at most 64 bytes)
    const char *kernel_id;
    //  Bytes typed (may be empty) (at most 65536 bytes)
    const uint8_t *data;
    size_t data_size;
    //  The terminal's rows (0: unchanged) (at most 1000)
    uint64_t rows;
    //  The terminal's columns (0: unchanged) (at most 1000)
    uint64_t cols;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_pty_write_req_t;

#define PROTO_KERNEL_PTY_WRITE_REQ_KERNEL_ID_MAX 64
#define PROTO_KERNEL_PTY_WRITE_REQ_DATA_MAX      65536

void proto_kernel_pty_write_req_init(proto_kernel_pty_write_req_t *self);
void proto_kernel_pty_write_req_clear(proto_kernel_pty_write_req_t *self);
PROTO_MUST_USE int proto_kernel_pty_write_req_check(const proto_kernel_pty_write_req_t *self,
                                                    bus_error_t *err);
PROTO_MUST_USE int proto_kernel_pty_write_req_write(const proto_kernel_pty_write_req_t *self,
                                                    bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_kernel_pty_write_req_writer(const proto_kernel_pty_write_req_t *self,
                                                               bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_kernel_pty_write_req_encode(const proto_kernel_pty_write_req_t *self);
int proto_kernel_pty_write_req_read(proto_kernel_pty_write_req_t *self,
                                    const bus_value_t *map,
                                    bus_error_t *err);
int proto_kernel_pty_write_req_decode(proto_kernel_pty_write_req_t *self,
                                      const void *data,
                                      size_t size,
                                      bus_error_t *err);
char *proto_kernel_pty_write_req_print(const proto_kernel_pty_write_req_t *self);

//  ---------------------------------------------------------------------------
//  kernel.pty_write reply (not idempotent): keystrokes for a kernel's terminal (a shell
//  on a pseudo-terminal in the container), opening it first when it is not open; rows and
//  cols, when set, resize it

typedef struct {
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_pty_write_rep_t;

void proto_kernel_pty_write_rep_init(proto_kernel_pty_write_rep_t *self);
void proto_kernel_pty_write_rep_clear(proto_kernel_pty_write_rep_t *self);
PROTO_MUST_USE int proto_kernel_pty_write_rep_check(const proto_kernel_pty_write_rep_t *self,
                                                    bus_error_t *err);
PROTO_MUST_USE int proto_kernel_pty_write_rep_write(const proto_kernel_pty_write_rep_t *self,
                                                    bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_kernel_pty_write_rep_encode(const proto_kernel_pty_write_rep_t *self);
int proto_kernel_pty_write_rep_read(proto_kernel_pty_write_rep_t *self,
                                    const bus_value_t *map,
                                    bus_error_t *err);
int proto_kernel_pty_write_rep_decode(proto_kernel_pty_write_rep_t *self,
                                      const void *data,
                                      size_t size,
                                      bus_error_t *err);
char *proto_kernel_pty_write_rep_print(const proto_kernel_pty_write_rep_t *self);

//  ---------------------------------------------------------------------------
//  kernel.pty_read request (idempotent): the terminal's output after offset (bytes
//  counted since it opened): answers as soon as there is some, or after wait_ms with none

typedef struct {
    //  The kernel (required, at most 64 bytes)
    const char *kernel_id;
    //  How much of the output the reader has
    uint64_t offset;
    //  The longest to wait for output (at most 60000, default 20000)
    uint64_t wait_ms;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_pty_read_req_t;

#define PROTO_KERNEL_PTY_READ_REQ_KERNEL_ID_MAX 64

void proto_kernel_pty_read_req_init(proto_kernel_pty_read_req_t *self);
void proto_kernel_pty_read_req_clear(proto_kernel_pty_read_req_t *self);
PROTO_MUST_USE int proto_kernel_pty_read_req_check(const proto_kernel_pty_read_req_t *self,
                                                   bus_error_t *err);
PROTO_MUST_USE int proto_kernel_pty_read_req_write(const proto_kernel_pty_read_req_t *self,
                                                   bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_kernel_pty_read_req_writer(const proto_kernel_pty_read_req_t *self,
                                                              bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_kernel_pty_read_req_encode(const proto_kernel_pty_read_req_t *self);
int proto_kernel_pty_read_req_read(proto_kernel_pty_read_req_t *self,
                                   const bus_value_t *map,
                                   bus_error_t *err);
int proto_kernel_pty_read_req_decode(proto_kernel_pty_read_req_t *self,
                                     const void *data,
                                     size_t size,
                                     bus_error_t *err);
char *proto_kernel_pty_read_req_print(const proto_kernel_pty_read_req_t *self);

//  ---------------------------------------------------------------------------
//  kernel.pty_read reply (idempotent): the terminal's output after offset (bytes counted
//  since it opened): answers as soon as there is some, or after wait_ms with none

typedef struct {
    //  Output from offset on (from the oldest kept, when offset is older) (at most
    //  1048576 bytes)
    const uint8_t *data;
    size_t data_size;
    //  The offset after data: the next read's
    uint64_t offset;
    //  The terminal has ended (its shell exited, or the kernel did)
    bool closed;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_pty_read_rep_t;

#define PROTO_KERNEL_PTY_READ_REP_DATA_MAX 1048576

void proto_kernel_pty_read_rep_init(proto_kernel_pty_read_rep_t *self);
void proto_kernel_pty_read_rep_clear(proto_kernel_pty_read_rep_t *self);
PROTO_MUST_USE int proto_kernel_pty_read_rep_check(const proto_kernel_pty_read_rep_t *self,
                                                   bus_error_t *err);
PROTO_MUST_USE int proto_kernel_pty_read_rep_write(const proto_kernel_pty_read_rep_t *self,
                                                   bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_kernel_pty_read_rep_encode(const proto_kernel_pty_read_rep_t *self);
int proto_kernel_pty_read_rep_read(proto_kernel_pty_read_rep_t *self,
                                   const bus_value_t *map,
                                   bus_error_t *err);
int proto_kernel_pty_read_rep_decode(proto_kernel_pty_read_rep_t *self,
                                     const void *data,
                                     size_t size,
                                     bus_error_t *err);
char *proto_kernel_pty_read_rep_print(const proto_kernel_pty_read_rep_t *self);

//  ---------------------------------------------------------------------------
//  kernel.start_service request (idempotent): start an app of a running kernel (a service
//  port: Jupyter, a service definition's command) unless it runs, and answer once its
//  port accepts connections, with the address a proxy connects to

typedef struct {
    //  The kernel (required, at most 64 bytes)
    const char *kernel_id;
    //  The app, as the image's service ports name it (required, at most 64 bytes)
    const char *name;
    //  Http, tcp or preopen (preopen: the user starts it; nothing is spawned) (at most 16
    //  bytes, default "http")
    const char *protocol;
    //  The app's container ports, comma-separated; the first is the one waited for, each
    //  is {ports[i]} of a service definition (required, at most 512 bytes)
    const char *ports;
    //  The image's ai.backend.runtime-path, {runtime_path} of a service definition (at
    //  most 1024 bytes)
    const char *runtime_path;
    //  JSON object of the user's arguments, option -> null, string or [string]; only
    //  those the service definition allows (at most 65536 bytes)
    const char *arguments;
    //  JSON object of the user's environment variables; only those the service definition
    //  allows (at most 65536 bytes)
    const char *envs;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_start_service_req_t;

#define PROTO_KERNEL_START_SERVICE_REQ_KERNEL_ID_MAX    64
#define PROTO_KERNEL_START_SERVICE_REQ_NAME_MAX         64
#define PROTO_KERNEL_START_SERVICE_REQ_PROTOCOL_MAX     16
#define PROTO_KERNEL_START_SERVICE_REQ_PORTS_MAX        512
#define PROTO_KERNEL_START_SERVICE_REQ_RUNTIME_PATH_MAX 1024
#define PROTO_KERNEL_START_SERVICE_REQ_ARGUMENTS_MAX    65536
#define PROTO_KERNEL_START_SERVICE_REQ_ENVS_MAX         65536

void proto_kernel_start_service_req_init(proto_kernel_start_service_req_t *self);
void proto_kernel_start_service_req_clear(proto_kernel_start_service_req_t *self);
PROTO_MUST_USE int proto_kernel_start_service_req_check(const proto_kernel_start_service_req_t *self,
                                                        bus_error_t *err);
PROTO_MUST_USE int proto_kernel_start_service_req_write(const proto_kernel_start_service_req_t *self,
                                                        bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_kernel_start_service_req_writer(const proto_kernel_start_service_req_t *self,
                                                                   bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_kernel_start_service_req_encode(const proto_kernel_start_service_req_t *self);
int proto_kernel_start_service_req_read(proto_kernel_start_service_req_t *self,
                                        const bus_value_t *map,
                                        bus_error_t *err);
int proto_kernel_start_service_req_decode(proto_kernel_start_service_req_t *self,
                                          const void *data,
                                          size_t size,
                                          bus_error_t *err);
char *proto_kernel_start_service_req_print(const proto_kernel_start_service_req_t *self);

//  ---------------------------------------------------------------------------
//  kernel.start_service reply (idempotent): start an app of a running kernel (a service
//  port: Jupyter, a service definition's command) unless it runs, and answer once its
//  port accepts connections, with the address a proxy connects to

typedef struct {
    //  Started, or running when it already ran (required, at most 16 bytes)
    const char *status;
    //  The address to connect to (required, at most 64 bytes)
    const char *host;
    //  The port to connect to (required, at most 65535)
    uint64_t port;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_kernel_start_service_rep_t;

#define PROTO_KERNEL_START_SERVICE_REP_STATUS_MAX 16
#define PROTO_KERNEL_START_SERVICE_REP_HOST_MAX   64

void proto_kernel_start_service_rep_init(proto_kernel_start_service_rep_t *self);
void proto_kernel_start_service_rep_clear(proto_kernel_start_service_rep_t *self);
PROTO_MUST_USE int proto_kernel_start_service_rep_check(const proto_kernel_start_service_rep_t *self,
                                                        bus_error_t *err);
PROTO_MUST_USE int proto_kernel_start_service_rep_write(const proto_kernel_start_service_rep_t *self,
                                                        bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_kernel_start_service_rep_encode(const proto_kernel_start_service_rep_t *self);
int proto_kernel_start_service_rep_read(proto_kernel_start_service_rep_t *self,
                                        const bus_value_t *map,
                                        bus_error_t *err);
int proto_kernel_start_service_rep_decode(proto_kernel_start_service_rep_t *self,
                                          const void *data,
                                          size_t size,
                                          bus_error_t *err);
char *proto_kernel_start_service_rep_print(const proto_kernel_start_service_rep_t *self);

#endif
