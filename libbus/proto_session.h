//  GENERATED FROM proto/session.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_session - compute sessions between the gateway and the scheduler

    Structs and codecs of the session domain. Included by proto.h: include
    bus.h, not this file. proto.h documents the functions every struct type T
    has (init, clear, check, write, writer for requests, encode, read, decode,
    print).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef PROTO_SESSION_H_INCLUDED
#define PROTO_SESSION_H_INCLUDED

//  Topics (events) and method names (RPC).
#define PROTO_SESSION_ACTIVITY  "session.activity"
#define PROTO_SESSION_LIFECYCLE "session.lifecycle"
#define PROTO_SESSION_CREATE    "session.create"
#define PROTO_SESSION_DESTROY   "session.destroy"
#define PROTO_SESSION_GET       "session.get"
#define PROTO_SESSION_RENAME    "session.rename"
#define PROTO_SESSION_RESTART   "session.restart"
#define PROTO_SESSION_LIST      "session.list"

//  ---------------------------------------------------------------------------
//  session.info, a nested value: one session as the scheduler has it

typedef struct {
    //  The session (a UUID) (required, at most 64 bytes)
    const char *session_id;
    //  Its name, unique among its owner's live sessions (required, at most 64 bytes)
    const char *name;
    //  The owner's keypair (at most 64 bytes)
    const char *access_key;
    //  The owner (at most 64 bytes)
    const char *user_uuid;
    //  The owner's domain (at most 64 bytes)
    const char *domain_name;
    //  Its project (at most 64 bytes)
    const char *group_id;
    //  Its resource group (at most 64 bytes)
    const char *scaling_group;
    //  INTERACTIVE, BATCH or INFERENCE (at most 16 bytes)
    const char *type;
    //  Backend.AI's session status (reference §6) (required, at most 24 bytes)
    const char *status;
    //  The reason of the last change (at most 256 bytes)
    const char *status_info;
    //  JSON object: details such as exit codes and errors (at most 65536 bytes)
    const char *status_data;
    //  The canonical image reference (at most 512 bytes)
    const char *image;
    //  The image's architecture (at most 32 bytes)
    const char *architecture;
    //  The user's tag (at most 256 bytes)
    const char *tag;
    //  The main kernel (at most 64 bytes)
    const char *kernel_id;
    //  The main kernel's agent (empty while PENDING) (at most 128 bytes)
    const char *agent_id;
    //  That agent's RPC endpoint, where kernel.execute goes (at most 256 bytes)
    const char *agent_addr;
    //  The main kernel's container (at most 128 bytes)
    const char *container_id;
    //  The main kernel's address (at most 64 bytes)
    const char *kernel_host;
    //  What it asked for, slot -> decimal string (at most 64 pairs, string to string, in
    //  wire order)
    const proto_kv_t *requested_slots;
    size_t requested_slots_count;
    //  What its allocation rows hold now (at most 64 pairs, string to string, in wire
    //  order)
    const proto_kv_t *occupied_slots;
    size_t occupied_slots_count;
    //  The main kernel's exit code once it ended
    int64_t exit_code;
    //  When it was created (microseconds since the epoch)
    int64_t created_at;
    //  When its status last changed (microseconds since the epoch)
    int64_t status_changed;
    //  When it ended (0 while it lives) (microseconds since the epoch)
    int64_t terminated_at;
    //  JSON array of the ports the user serves on (config.preopen_ports); "[]" or absent
    //  when none (at most 256 bytes)
    const char *preopen_ports;
    //  UNDEFINED, SUCCESS or FAILURE (a batch session's task) (at most 16 bytes)
    const char *result;
    //  Single-node or multi-node (at most 16 bytes)
    const char *cluster_mode;
    //  How many kernels it has
    uint64_t cluster_size;
    //  JSON array of its statuses as they came, oldest first: {status, at (µs), info (the
    //  reason)}; the last 64 (at most 32768 bytes)
    const char *status_history;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_session_info_t;

#define PROTO_SESSION_INFO_SESSION_ID_MAX      64
#define PROTO_SESSION_INFO_NAME_MAX            64
#define PROTO_SESSION_INFO_ACCESS_KEY_MAX      64
#define PROTO_SESSION_INFO_USER_UUID_MAX       64
#define PROTO_SESSION_INFO_DOMAIN_NAME_MAX     64
#define PROTO_SESSION_INFO_GROUP_ID_MAX        64
#define PROTO_SESSION_INFO_SCALING_GROUP_MAX   64
#define PROTO_SESSION_INFO_TYPE_MAX            16
#define PROTO_SESSION_INFO_STATUS_MAX          24
#define PROTO_SESSION_INFO_STATUS_INFO_MAX     256
#define PROTO_SESSION_INFO_STATUS_DATA_MAX     65536
#define PROTO_SESSION_INFO_IMAGE_MAX           512
#define PROTO_SESSION_INFO_ARCHITECTURE_MAX    32
#define PROTO_SESSION_INFO_TAG_MAX             256
#define PROTO_SESSION_INFO_KERNEL_ID_MAX       64
#define PROTO_SESSION_INFO_AGENT_ID_MAX        128
#define PROTO_SESSION_INFO_AGENT_ADDR_MAX      256
#define PROTO_SESSION_INFO_CONTAINER_ID_MAX    128
#define PROTO_SESSION_INFO_KERNEL_HOST_MAX     64
#define PROTO_SESSION_INFO_REQUESTED_SLOTS_MAX 64
#define PROTO_SESSION_INFO_OCCUPIED_SLOTS_MAX  64
#define PROTO_SESSION_INFO_PREOPEN_PORTS_MAX   256
#define PROTO_SESSION_INFO_RESULT_MAX          16
#define PROTO_SESSION_INFO_CLUSTER_MODE_MAX    16
#define PROTO_SESSION_INFO_STATUS_HISTORY_MAX  32768

void proto_session_info_init(proto_session_info_t *self);
void proto_session_info_clear(proto_session_info_t *self);
PROTO_MUST_USE int proto_session_info_check(const proto_session_info_t *self,
                                            bus_error_t *err);
PROTO_MUST_USE int proto_session_info_write(const proto_session_info_t *self,
                                            bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_session_info_encode(const proto_session_info_t *self);
int proto_session_info_read(proto_session_info_t *self,
                            const bus_value_t *map,
                            bus_error_t *err);
int proto_session_info_decode(proto_session_info_t *self,
                              const void *data,
                              size_t size,
                              bus_error_t *err);
char *proto_session_info_print(const proto_session_info_t *self);

//  ---------------------------------------------------------------------------
//  session.mount, a nested value: a virtual folder to mount into the session's kernels,
//  as the gateway resolved it (kernel.create's mount)

typedef struct {
    //  The folder's name (required, at most 64 bytes)
    const char *name;
    //  The folder's id (session.list's mounting finds sessions by it) (at most 64 bytes)
    const char *id;
    //  Its storage host and volume (host:volume) (at most 256 bytes)
    const char *host;
    //  The folder on the agents' hosts: an absolute path (required, at most 4096 bytes)
    const char *host_path;
    //  Where it appears in the container: an absolute path (required, at most 4096 bytes)
    const char *kernel_path;
    //  Rw, ro or wd (required, at most 8 bytes)
    const char *permission;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_session_mount_t;

#define PROTO_SESSION_MOUNT_NAME_MAX        64
#define PROTO_SESSION_MOUNT_ID_MAX          64
#define PROTO_SESSION_MOUNT_HOST_MAX        256
#define PROTO_SESSION_MOUNT_HOST_PATH_MAX   4096
#define PROTO_SESSION_MOUNT_KERNEL_PATH_MAX 4096
#define PROTO_SESSION_MOUNT_PERMISSION_MAX  8

void proto_session_mount_init(proto_session_mount_t *self);
void proto_session_mount_clear(proto_session_mount_t *self);
PROTO_MUST_USE int proto_session_mount_check(const proto_session_mount_t *self,
                                             bus_error_t *err);
PROTO_MUST_USE int proto_session_mount_write(const proto_session_mount_t *self,
                                             bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_session_mount_encode(const proto_session_mount_t *self);
int proto_session_mount_read(proto_session_mount_t *self,
                             const bus_value_t *map,
                             bus_error_t *err);
int proto_session_mount_decode(proto_session_mount_t *self,
                               const void *data,
                               size_t size,
                               bus_error_t *err);
char *proto_session_mount_print(const proto_session_mount_t *self);

//  ---------------------------------------------------------------------------
//  session.dotfile, a nested value: one of the owner's dotfiles, as the gateway resolved
//  them (kernel.create's dotfile)

typedef struct {
    //  Relative to /home/work (required, at most 1024 bytes)
    const char *path;
    //  Three octal digits (required, at most 3 bytes)
    const char *permission;
    //  Its text (required, at most 65536 bytes)
    const char *data;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_session_dotfile_t;

#define PROTO_SESSION_DOTFILE_PATH_MAX       1024
#define PROTO_SESSION_DOTFILE_PERMISSION_MAX 3
#define PROTO_SESSION_DOTFILE_DATA_MAX       65536

void proto_session_dotfile_init(proto_session_dotfile_t *self);
void proto_session_dotfile_clear(proto_session_dotfile_t *self);
PROTO_MUST_USE int proto_session_dotfile_check(const proto_session_dotfile_t *self,
                                               bus_error_t *err);
PROTO_MUST_USE int proto_session_dotfile_write(const proto_session_dotfile_t *self,
                                               bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_session_dotfile_encode(const proto_session_dotfile_t *self);
int proto_session_dotfile_read(proto_session_dotfile_t *self,
                               const bus_value_t *map,
                               bus_error_t *err);
int proto_session_dotfile_decode(proto_session_dotfile_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err);
char *proto_session_dotfile_print(const proto_session_dotfile_t *self);

//  ---------------------------------------------------------------------------
//  session.scope_limits, a nested value: the limits of one of the owner's scopes, from
//  the resource policies as the gateway resolved them (scheduler.md, Quotas); a count of
//  -1 is no limit

typedef struct {
    //  Keypair, user, project or domain (required, at most 16 bytes)
    const char *scope;
    //  Slot -> amount (a decimal string, with a unit for mem, or Infinity) the scope may
    //  hold at once (at most 64 pairs, string to string, in wire order)
    const proto_kv_t *total_resource_slots;
    size_t total_resource_slots_count;
    //  Slots total_resource_slots leaves out are limited to 0 (default_for_unspecified
    //  LIMITED); false: unlimited
    bool limited;
    //  Sessions running at once (-1..INT64_MAX, default -1)
    int64_t max_concurrent_sessions;
    //  A cluster's kernels (-1..INT64_MAX, default -1)
    int64_t max_containers_per_session;
    //  Sessions waiting at once (-1..INT64_MAX, default -1)
    int64_t max_pending_session_count;
    //  Slot -> amount the waiting sessions may ask for together; absent: no limit (at
    //  most 64 pairs, string to string, in wire order)
    const proto_kv_t *max_pending_session_resource_slots;
    size_t max_pending_session_resource_slots_count;
    //  Seconds a session may stay idle before it is ended (0: no limit)
    uint64_t idle_timeout;
    //  Seconds a session may live (0: no limit)
    uint64_t max_session_lifetime;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_session_scope_limits_t;

#define PROTO_SESSION_SCOPE_LIMITS_SCOPE_MAX                              16
#define PROTO_SESSION_SCOPE_LIMITS_TOTAL_RESOURCE_SLOTS_MAX               64
#define PROTO_SESSION_SCOPE_LIMITS_MAX_PENDING_SESSION_RESOURCE_SLOTS_MAX 64

void proto_session_scope_limits_init(proto_session_scope_limits_t *self);
void proto_session_scope_limits_clear(proto_session_scope_limits_t *self);
PROTO_MUST_USE int proto_session_scope_limits_check(const proto_session_scope_limits_t *self,
                                                    bus_error_t *err);
PROTO_MUST_USE int proto_session_scope_limits_write(const proto_session_scope_limits_t *self,
                                                    bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_session_scope_limits_encode(const proto_session_scope_limits_t *self);
int proto_session_scope_limits_read(proto_session_scope_limits_t *self,
                                    const bus_value_t *map,
                                    bus_error_t *err);
int proto_session_scope_limits_decode(proto_session_scope_limits_t *self,
                                      const void *data,
                                      size_t size,
                                      bus_error_t *err);
char *proto_session_scope_limits_print(const proto_session_scope_limits_t *self);

//  ---------------------------------------------------------------------------
//  session.activity, event (broadcast): a user used a running session (an execution,
//  terminal input, files, apps), at most once a second per session; the scheduler's idle
//  timeout counts from the last

typedef struct {
    //  The session (required, at most 64 bytes)
    const char *session_id;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_session_activity_t;

#define PROTO_SESSION_ACTIVITY_SESSION_ID_MAX 64

void proto_session_activity_init(proto_session_activity_t *self);
void proto_session_activity_clear(proto_session_activity_t *self);
PROTO_MUST_USE int proto_session_activity_check(const proto_session_activity_t *self,
                                                bus_error_t *err);
PROTO_MUST_USE int proto_session_activity_write(const proto_session_activity_t *self,
                                                bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_session_activity_encode(const proto_session_activity_t *self);
int proto_session_activity_read(proto_session_activity_t *self,
                                const bus_value_t *map,
                                bus_error_t *err);
int proto_session_activity_decode(proto_session_activity_t *self,
                                  const void *data,
                                  size_t size,
                                  bus_error_t *err);
char *proto_session_activity_print(const proto_session_activity_t *self);

//  ---------------------------------------------------------------------------
//  session.lifecycle, event (broadcast, durable): a step in a session's or kernel's life,
//  named as Backend.AI names it (session_enqueued, kernel_started, session_terminated,
//  session_success...)

typedef struct {
    //  The Backend.AI event name (reference §5) (required, at most 32 bytes)
    const char *event;
    //  The session (required, at most 64 bytes)
    const char *session_id;
    //  Its name (at most 64 bytes)
    const char *session_name;
    //  The owner's keypair (at most 64 bytes)
    const char *access_key;
    //  The owner's domain (who may see it) (at most 64 bytes)
    const char *domain_name;
    //  Its project (at most 64 bytes)
    const char *group_id;
    //  The session's status after this step (at most 24 bytes)
    const char *status;
    //  Kernel events: the kernel (at most 64 bytes)
    const char *kernel_id;
    //  Kernel events: main or sub (at most 16 bytes)
    const char *cluster_role;
    //  Kernel events: its index
    uint64_t cluster_idx;
    //  Why (user-requested, self-terminated, failed-to-start...) (at most 64 bytes)
    const char *reason;
    //  Batch results and kernel ends: the exit code
    int64_t exit_code;
    //  Whether exit_code is set (it is null otherwise)
    bool has_exit_code;
    //  When it happened (microseconds since the epoch)
    int64_t at;
    //  The owner (accounting: usage per user) (at most 64 bytes)
    const char *user_uuid;
    //  Its resource group (accounting) (at most 64 bytes)
    const char *scaling_group;
    //  The canonical image reference (accounting) (at most 512 bytes)
    const char *image;
    //  Kernel events: the kernel's agent (empty before it is placed) (at most 128 bytes)
    const char *agent_id;
    //  Kernel events: what the kernel holds, slot -> decimal string (accounting:
    //  allocation-time) (at most 64 pairs, string to string, in wire order)
    const proto_kv_t *slots;
    size_t slots_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_session_lifecycle_t;

#define PROTO_SESSION_LIFECYCLE_EVENT_MAX         32
#define PROTO_SESSION_LIFECYCLE_SESSION_ID_MAX    64
#define PROTO_SESSION_LIFECYCLE_SESSION_NAME_MAX  64
#define PROTO_SESSION_LIFECYCLE_ACCESS_KEY_MAX    64
#define PROTO_SESSION_LIFECYCLE_DOMAIN_NAME_MAX   64
#define PROTO_SESSION_LIFECYCLE_GROUP_ID_MAX      64
#define PROTO_SESSION_LIFECYCLE_STATUS_MAX        24
#define PROTO_SESSION_LIFECYCLE_KERNEL_ID_MAX     64
#define PROTO_SESSION_LIFECYCLE_CLUSTER_ROLE_MAX  16
#define PROTO_SESSION_LIFECYCLE_REASON_MAX        64
#define PROTO_SESSION_LIFECYCLE_USER_UUID_MAX     64
#define PROTO_SESSION_LIFECYCLE_SCALING_GROUP_MAX 64
#define PROTO_SESSION_LIFECYCLE_IMAGE_MAX         512
#define PROTO_SESSION_LIFECYCLE_AGENT_ID_MAX      128
#define PROTO_SESSION_LIFECYCLE_SLOTS_MAX         64

void proto_session_lifecycle_init(proto_session_lifecycle_t *self);
void proto_session_lifecycle_clear(proto_session_lifecycle_t *self);
PROTO_MUST_USE int proto_session_lifecycle_check(const proto_session_lifecycle_t *self,
                                                 bus_error_t *err);
PROTO_MUST_USE int proto_session_lifecycle_write(const proto_session_lifecycle_t *self,
                                                 bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_session_lifecycle_encode(const proto_session_lifecycle_t *self);
int proto_session_lifecycle_read(proto_session_lifecycle_t *self,
                                 const bus_value_t *map,
                                 bus_error_t *err);
int proto_session_lifecycle_decode(proto_session_lifecycle_t *self,
                                   const void *data,
                                   size_t size,
                                   bus_error_t *err);
char *proto_session_lifecycle_print(const proto_session_lifecycle_t *self);

//  ---------------------------------------------------------------------------
//  session.create request (idempotent): enqueue a session (PENDING) with its kernels; the
//  same session_id again answers what exists

typedef struct {
    //  The new session's id, chosen by the gateway (required, at most 64 bytes)
    const char *session_id;
    //  Its main kernel's id (required, at most 64 bytes)
    const char *kernel_id;
    //  Its name (required, at most 64 bytes)
    const char *name;
    //  The owner's keypair (required, at most 64 bytes)
    const char *access_key;
    //  The owner (required, at most 64 bytes)
    const char *user_uuid;
    //  The owner's domain (required, at most 64 bytes)
    const char *domain_name;
    //  The project (required, at most 64 bytes)
    const char *group_id;
    //  The resource group (required, at most 64 bytes)
    const char *scaling_group;
    //  INTERACTIVE, BATCH or INFERENCE (a model service's replica) (at most 16 bytes,
    //  default "INTERACTIVE")
    const char *type;
    //  The canonical reference, resolved by the gateway (required, at most 512 bytes)
    const char *image;
    //  The image's architecture (at most 32 bytes, default "x86_64")
    const char *architecture;
    //  What the kernel asks for, slot -> decimal string (at most 64 pairs, string to
    //  string, in wire order)
    const proto_kv_t *slots;
    size_t slots_count;
    //  The user's environment variables (at most 1024 pairs, string to string, in wire
    //  order)
    const proto_kv_t *environ;
    size_t environ_count;
    //  Resource_opts.shmem in bytes (0: the default)
    uint64_t shmem_bytes;
    //  The batch command, or what runs once at start (at most 65536 bytes)
    const char *startup_command;
    //  The user's tag (at most 256 bytes)
    const char *tag;
    //  JSON array of ports (1025..65534) the user will serve on, checked by the gateway
    //  (at most 256 bytes)
    const char *preopen_ports;
    //  A shell script run once as the user in /home/work when the kernel starts (at most
    //  65536 bytes)
    const char *bootstrap_script;
    //  0..100: the priority policy places higher first (at most 100, default 10)
    uint64_t priority;
    //  Single-node or multi-node (at most 16 bytes, default "single-node")
    const char *cluster_mode;
    //  How many kernels, placed all or none (at most 64, default 1)
    uint64_t cluster_size;
    //  Batch: not scheduled before this (0: now) (microseconds since the epoch)
    int64_t starts_at;
    //  The ids or names of the owner's sessions that must end with success first (at most
    //  64 items)
    const char *const *dependencies;
    size_t dependencies_count;
    //  Batch: seconds it may run before it is ended (0: no limit)
    uint64_t batch_timeout;
    //  The owner's limits as the gateway resolved them, one item per scope (keypair,
    //  user, project, domain) (at most 4 items)
    const proto_session_scope_limits_t *limits;
    size_t limits_count;
    //  The virtual folders to mount, resolved by the gateway (kernel.create's mounts) (at
    //  most 64 items)
    const proto_session_mount_t *mounts;
    size_t mounts_count;
    //  The owner's dotfiles, the keypair's over the project's over the domain's, resolved
    //  by the gateway (kernel.create's dotfiles) (at most 300 items)
    const proto_session_dotfile_t *dotfiles;
    size_t dotfiles_count;
    //  INFERENCE: JSON of the model service its kernel starts and health-checks
    //  (kernel.create's model_service), from the endpoint's model definition; absent:
    //  none (at most 65536 bytes)
    const char *model_service;
    //  A spread group (the replicas of one model service, by its endpoint id): placed on
    //  the agents holding the fewest sessions of the group; absent: none (at most 64
    //  bytes)
    const char *spread;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_session_create_req_t;

#define PROTO_SESSION_CREATE_REQ_SESSION_ID_MAX       64
#define PROTO_SESSION_CREATE_REQ_KERNEL_ID_MAX        64
#define PROTO_SESSION_CREATE_REQ_NAME_MAX             64
#define PROTO_SESSION_CREATE_REQ_ACCESS_KEY_MAX       64
#define PROTO_SESSION_CREATE_REQ_USER_UUID_MAX        64
#define PROTO_SESSION_CREATE_REQ_DOMAIN_NAME_MAX      64
#define PROTO_SESSION_CREATE_REQ_GROUP_ID_MAX         64
#define PROTO_SESSION_CREATE_REQ_SCALING_GROUP_MAX    64
#define PROTO_SESSION_CREATE_REQ_TYPE_MAX             16
#define PROTO_SESSION_CREATE_REQ_IMAGE_MAX            512
#define PROTO_SESSION_CREATE_REQ_ARCHITECTURE_MAX     32
#define PROTO_SESSION_CREATE_REQ_SLOTS_MAX            64
#define PROTO_SESSION_CREATE_REQ_ENVIRON_MAX          1024
#define PROTO_SESSION_CREATE_REQ_STARTUP_COMMAND_MAX  65536
#define PROTO_SESSION_CREATE_REQ_TAG_MAX              256
#define PROTO_SESSION_CREATE_REQ_PREOPEN_PORTS_MAX    256
#define PROTO_SESSION_CREATE_REQ_BOOTSTRAP_SCRIPT_MAX 65536
#define PROTO_SESSION_CREATE_REQ_CLUSTER_MODE_MAX     16
#define PROTO_SESSION_CREATE_REQ_DEPENDENCIES_MAX     64
#define PROTO_SESSION_CREATE_REQ_LIMITS_MAX           4
#define PROTO_SESSION_CREATE_REQ_MOUNTS_MAX           64
#define PROTO_SESSION_CREATE_REQ_DOTFILES_MAX         300
#define PROTO_SESSION_CREATE_REQ_MODEL_SERVICE_MAX    65536
#define PROTO_SESSION_CREATE_REQ_SPREAD_MAX           64

void proto_session_create_req_init(proto_session_create_req_t *self);
void proto_session_create_req_clear(proto_session_create_req_t *self);
PROTO_MUST_USE int proto_session_create_req_check(const proto_session_create_req_t *self,
                                                  bus_error_t *err);
PROTO_MUST_USE int proto_session_create_req_write(const proto_session_create_req_t *self,
                                                  bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *
proto_session_create_req_writer(const proto_session_create_req_t *self, bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_session_create_req_encode(const proto_session_create_req_t *self);
int proto_session_create_req_read(proto_session_create_req_t *self,
                                  const bus_value_t *map,
                                  bus_error_t *err);
int proto_session_create_req_decode(proto_session_create_req_t *self,
                                    const void *data,
                                    size_t size,
                                    bus_error_t *err);
char *proto_session_create_req_print(const proto_session_create_req_t *self);

//  ---------------------------------------------------------------------------
//  session.create reply (idempotent): enqueue a session (PENDING) with its kernels; the
//  same session_id again answers what exists

typedef struct {
    //  The session as stored (required)
    proto_session_info_t session;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_session_create_rep_t;

void proto_session_create_rep_init(proto_session_create_rep_t *self);
void proto_session_create_rep_clear(proto_session_create_rep_t *self);
PROTO_MUST_USE int proto_session_create_rep_check(const proto_session_create_rep_t *self,
                                                  bus_error_t *err);
PROTO_MUST_USE int proto_session_create_rep_write(const proto_session_create_rep_t *self,
                                                  bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_session_create_rep_encode(const proto_session_create_rep_t *self);
int proto_session_create_rep_read(proto_session_create_rep_t *self,
                                  const bus_value_t *map,
                                  bus_error_t *err);
int proto_session_create_rep_decode(proto_session_create_rep_t *self,
                                    const void *data,
                                    size_t size,
                                    bus_error_t *err);
char *proto_session_create_rep_print(const proto_session_create_rep_t *self);

//  ---------------------------------------------------------------------------
//  session.destroy request (idempotent): terminate a session: TERMINATING, its kernels
//  destroyed, then TERMINATED; a PENDING one is CANCELLED

typedef struct {
    //  The session (required, at most 64 bytes)
    const char *session_id;
    //  Do not wait for a graceful exit
    bool forced;
    //  Why, as status_info shows it (at most 64 bytes, default "user-requested")
    const char *reason;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_session_destroy_req_t;

#define PROTO_SESSION_DESTROY_REQ_SESSION_ID_MAX 64
#define PROTO_SESSION_DESTROY_REQ_REASON_MAX     64

void proto_session_destroy_req_init(proto_session_destroy_req_t *self);
void proto_session_destroy_req_clear(proto_session_destroy_req_t *self);
PROTO_MUST_USE int proto_session_destroy_req_check(const proto_session_destroy_req_t *self,
                                                   bus_error_t *err);
PROTO_MUST_USE int proto_session_destroy_req_write(const proto_session_destroy_req_t *self,
                                                   bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_session_destroy_req_writer(const proto_session_destroy_req_t *self,
                                                              bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_session_destroy_req_encode(const proto_session_destroy_req_t *self);
int proto_session_destroy_req_read(proto_session_destroy_req_t *self,
                                   const bus_value_t *map,
                                   bus_error_t *err);
int proto_session_destroy_req_decode(proto_session_destroy_req_t *self,
                                     const void *data,
                                     size_t size,
                                     bus_error_t *err);
char *proto_session_destroy_req_print(const proto_session_destroy_req_t *self);

//  ---------------------------------------------------------------------------
//  session.destroy reply (idempotent): terminate a session: TERMINATING, its kernels
//  destroyed, then TERMINATED; a PENDING one is CANCELLED

typedef struct {
    //  The session after the request (required)
    proto_session_info_t session;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_session_destroy_rep_t;

void proto_session_destroy_rep_init(proto_session_destroy_rep_t *self);
void proto_session_destroy_rep_clear(proto_session_destroy_rep_t *self);
PROTO_MUST_USE int proto_session_destroy_rep_check(const proto_session_destroy_rep_t *self,
                                                   bus_error_t *err);
PROTO_MUST_USE int proto_session_destroy_rep_write(const proto_session_destroy_rep_t *self,
                                                   bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_session_destroy_rep_encode(const proto_session_destroy_rep_t *self);
int proto_session_destroy_rep_read(proto_session_destroy_rep_t *self,
                                   const bus_value_t *map,
                                   bus_error_t *err);
int proto_session_destroy_rep_decode(proto_session_destroy_rep_t *self,
                                     const void *data,
                                     size_t size,
                                     bus_error_t *err);
char *proto_session_destroy_rep_print(const proto_session_destroy_rep_t *self);

//  ---------------------------------------------------------------------------
//  session.get request (idempotent): one session by id, or by its owner's keypair and
//  name (the live one first)

typedef struct {
    //  The session (at most 64 bytes)
    const char *session_id;
    //  With name: the owner (at most 64 bytes)
    const char *access_key;
    //  With access_key: the session's name (at most 64 bytes)
    const char *name;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_session_get_req_t;

#define PROTO_SESSION_GET_REQ_SESSION_ID_MAX 64
#define PROTO_SESSION_GET_REQ_ACCESS_KEY_MAX 64
#define PROTO_SESSION_GET_REQ_NAME_MAX       64

void proto_session_get_req_init(proto_session_get_req_t *self);
void proto_session_get_req_clear(proto_session_get_req_t *self);
PROTO_MUST_USE int proto_session_get_req_check(const proto_session_get_req_t *self,
                                               bus_error_t *err);
PROTO_MUST_USE int proto_session_get_req_write(const proto_session_get_req_t *self,
                                               bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *
proto_session_get_req_writer(const proto_session_get_req_t *self, bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_session_get_req_encode(const proto_session_get_req_t *self);
int proto_session_get_req_read(proto_session_get_req_t *self,
                               const bus_value_t *map,
                               bus_error_t *err);
int proto_session_get_req_decode(proto_session_get_req_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err);
char *proto_session_get_req_print(const proto_session_get_req_t *self);

//  ---------------------------------------------------------------------------
//  session.get reply (idempotent): one session by id, or by its owner's keypair and name
//  (the live one first)

typedef struct {
    //  The session (required)
    proto_session_info_t session;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_session_get_rep_t;

void proto_session_get_rep_init(proto_session_get_rep_t *self);
void proto_session_get_rep_clear(proto_session_get_rep_t *self);
PROTO_MUST_USE int proto_session_get_rep_check(const proto_session_get_rep_t *self,
                                               bus_error_t *err);
PROTO_MUST_USE int proto_session_get_rep_write(const proto_session_get_rep_t *self,
                                               bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_session_get_rep_encode(const proto_session_get_rep_t *self);
int proto_session_get_rep_read(proto_session_get_rep_t *self,
                               const bus_value_t *map,
                               bus_error_t *err);
int proto_session_get_rep_decode(proto_session_get_rep_t *self,
                                 const void *data,
                                 size_t size,
                                 bus_error_t *err);
char *proto_session_get_rep_print(const proto_session_get_rep_t *self);

//  ---------------------------------------------------------------------------
//  session.rename request (idempotent): give a RUNNING session a new name, unique among
//  its owner's live sessions

typedef struct {
    //  The session (required, at most 64 bytes)
    const char *session_id;
    //  The new name (the gateway checks its form) (required, at most 64 bytes)
    const char *name;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_session_rename_req_t;

#define PROTO_SESSION_RENAME_REQ_SESSION_ID_MAX 64
#define PROTO_SESSION_RENAME_REQ_NAME_MAX       64

void proto_session_rename_req_init(proto_session_rename_req_t *self);
void proto_session_rename_req_clear(proto_session_rename_req_t *self);
PROTO_MUST_USE int proto_session_rename_req_check(const proto_session_rename_req_t *self,
                                                  bus_error_t *err);
PROTO_MUST_USE int proto_session_rename_req_write(const proto_session_rename_req_t *self,
                                                  bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *
proto_session_rename_req_writer(const proto_session_rename_req_t *self, bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_session_rename_req_encode(const proto_session_rename_req_t *self);
int proto_session_rename_req_read(proto_session_rename_req_t *self,
                                  const bus_value_t *map,
                                  bus_error_t *err);
int proto_session_rename_req_decode(proto_session_rename_req_t *self,
                                    const void *data,
                                    size_t size,
                                    bus_error_t *err);
char *proto_session_rename_req_print(const proto_session_rename_req_t *self);

//  ---------------------------------------------------------------------------
//  session.rename reply (idempotent): give a RUNNING session a new name, unique among its
//  owner's live sessions

typedef struct {
    //  The session renamed (required)
    proto_session_info_t session;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_session_rename_rep_t;

void proto_session_rename_rep_init(proto_session_rename_rep_t *self);
void proto_session_rename_rep_clear(proto_session_rename_rep_t *self);
PROTO_MUST_USE int proto_session_rename_rep_check(const proto_session_rename_rep_t *self,
                                                  bus_error_t *err);
PROTO_MUST_USE int proto_session_rename_rep_write(const proto_session_rename_rep_t *self,
                                                  bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_session_rename_rep_encode(const proto_session_rename_rep_t *self);
int proto_session_rename_rep_read(proto_session_rename_rep_t *self,
                                  const bus_value_t *map,
                                  bus_error_t *err);
int proto_session_rename_rep_decode(proto_session_rename_rep_t *self,
                                    const void *data,
                                    size_t size,
                                    bus_error_t *err);
char *proto_session_rename_rep_print(const proto_session_rename_rep_t *self);

//  ---------------------------------------------------------------------------
//  session.restart request (not idempotent): restart a RUNNING session's kernel in place
//  (RESTARTING, then RUNNING again); its files in /home/work stay, its processes do not;
//  answered once the kernel runs again; CONFLICT when the session is not RUNNING

typedef struct {
    //  The session (required, at most 64 bytes)
    const char *session_id;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_session_restart_req_t;

#define PROTO_SESSION_RESTART_REQ_SESSION_ID_MAX 64

void proto_session_restart_req_init(proto_session_restart_req_t *self);
void proto_session_restart_req_clear(proto_session_restart_req_t *self);
PROTO_MUST_USE int proto_session_restart_req_check(const proto_session_restart_req_t *self,
                                                   bus_error_t *err);
PROTO_MUST_USE int proto_session_restart_req_write(const proto_session_restart_req_t *self,
                                                   bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *proto_session_restart_req_writer(const proto_session_restart_req_t *self,
                                                              bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_session_restart_req_encode(const proto_session_restart_req_t *self);
int proto_session_restart_req_read(proto_session_restart_req_t *self,
                                   const bus_value_t *map,
                                   bus_error_t *err);
int proto_session_restart_req_decode(proto_session_restart_req_t *self,
                                     const void *data,
                                     size_t size,
                                     bus_error_t *err);
char *proto_session_restart_req_print(const proto_session_restart_req_t *self);

//  ---------------------------------------------------------------------------
//  session.restart reply (not idempotent): restart a RUNNING session's kernel in place
//  (RESTARTING, then RUNNING again); its files in /home/work stay, its processes do not;
//  answered once the kernel runs again; CONFLICT when the session is not RUNNING

typedef struct {
    //  The session after the restart (required)
    proto_session_info_t session;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_session_restart_rep_t;

void proto_session_restart_rep_init(proto_session_restart_rep_t *self);
void proto_session_restart_rep_clear(proto_session_restart_rep_t *self);
PROTO_MUST_USE int proto_session_restart_rep_check(const proto_session_restart_rep_t *self,
                                                   bus_error_t *err);
PROTO_MUST_USE int proto_session_restart_rep_write(const proto_session_restart_rep_t *self,
                                                   bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_session_restart_rep_encode(const proto_session_restart_rep_t *self);
int proto_session_restart_rep_read(proto_session_restart_rep_t *self,
                                   const bus_value_t *map,
                                   bus_error_t *err);
int proto_session_restart_rep_decode(proto_session_restart_rep_t *self,
                                     const void *data,
                                     size_t size,
                                     bus_error_t *err);
char *proto_session_restart_rep_print(const proto_session_restart_rep_t *self);

//  ---------------------------------------------------------------------------
//  session.list request (idempotent): sessions by owner, project, domain, status and a
//  condition, newest first or in the order asked, one page and the count of all

typedef struct {
    //  Only this keypair's (at most 64 bytes)
    const char *access_key;
    //  Only this domain's (at most 64 bytes)
    const char *domain_name;
    //  Only this project's (at most 64 bytes)
    const char *group_id;
    //  Only these statuses, comma-separated (at most 512 bytes)
    const char *statuses;
    //  At most this many (at most 10000, default 100)
    uint64_t limit;
    //  Skip this many
    uint64_t offset;
    //  Only sessions that mount this virtual folder (its id, 32 hex digits) (at most 64
    //  bytes)
    const char *mounted_folder;
    //  Only sessions this condition holds for: a JSON term over the info's text fields
    //  (bus_where.h: ["and", t, ...], ["=", "name", "x"], ["like", ...]...); the SQL it
    //  becomes binds every value (at most 65536 bytes)
    const char *where;
    //  Comma list of info fields, each with an optional - for descending (nulls first
    //  then, last ascending); ties keep the newest first (at most 1024 bytes)
    const char *order;
    //  With after_id, in the default order only: the sessions after this one (created
    //  before it, or at the same time with a larger id), a cursor that new sessions do
    //  not shift (microseconds since the epoch)
    int64_t after_created_at;
    //  The session the cursor is at (see after_created_at) (at most 64 bytes)
    const char *after_id;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_session_list_req_t;

#define PROTO_SESSION_LIST_REQ_ACCESS_KEY_MAX     64
#define PROTO_SESSION_LIST_REQ_DOMAIN_NAME_MAX    64
#define PROTO_SESSION_LIST_REQ_GROUP_ID_MAX       64
#define PROTO_SESSION_LIST_REQ_STATUSES_MAX       512
#define PROTO_SESSION_LIST_REQ_MOUNTED_FOLDER_MAX 64
#define PROTO_SESSION_LIST_REQ_WHERE_MAX          65536
#define PROTO_SESSION_LIST_REQ_ORDER_MAX          1024
#define PROTO_SESSION_LIST_REQ_AFTER_ID_MAX       64

void proto_session_list_req_init(proto_session_list_req_t *self);
void proto_session_list_req_clear(proto_session_list_req_t *self);
PROTO_MUST_USE int proto_session_list_req_check(const proto_session_list_req_t *self,
                                                bus_error_t *err);
PROTO_MUST_USE int proto_session_list_req_write(const proto_session_list_req_t *self,
                                                bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *
proto_session_list_req_writer(const proto_session_list_req_t *self, bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_session_list_req_encode(const proto_session_list_req_t *self);
int proto_session_list_req_read(proto_session_list_req_t *self,
                                const bus_value_t *map,
                                bus_error_t *err);
int proto_session_list_req_decode(proto_session_list_req_t *self,
                                  const void *data,
                                  size_t size,
                                  bus_error_t *err);
char *proto_session_list_req_print(const proto_session_list_req_t *self);

//  ---------------------------------------------------------------------------
//  session.list reply (idempotent): sessions by owner, project, domain, status and a
//  condition, newest first or in the order asked, one page and the count of all

typedef struct {
    //  The page (at most 10000 items)
    const proto_session_info_t *sessions;
    size_t sessions_count;
    //  How many match in all
    uint64_t total_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_session_list_rep_t;

#define PROTO_SESSION_LIST_REP_SESSIONS_MAX 10000

void proto_session_list_rep_init(proto_session_list_rep_t *self);
void proto_session_list_rep_clear(proto_session_list_rep_t *self);
PROTO_MUST_USE int proto_session_list_rep_check(const proto_session_list_rep_t *self,
                                                bus_error_t *err);
PROTO_MUST_USE int proto_session_list_rep_write(const proto_session_list_rep_t *self,
                                                bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_session_list_rep_encode(const proto_session_list_rep_t *self);
int proto_session_list_rep_read(proto_session_list_rep_t *self,
                                const bus_value_t *map,
                                bus_error_t *err);
int proto_session_list_rep_decode(proto_session_list_rep_t *self,
                                  const void *data,
                                  size_t size,
                                  bus_error_t *err);
char *proto_session_list_rep_print(const proto_session_list_rep_t *self);

#endif
