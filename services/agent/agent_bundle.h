/*  =========================================================================
    agent_bundle - the kernel spec and the OCI runtime config.json made from it

    A kernel spec says what one compute kernel's container is: its image rootfs
    (already unpacked), its process, its resource limits and the host binaries
    to bind in. agent_bundle turns a spec into the OCI runtime config that runc
    reads (runtime-spec 1.0.2): uid 1000 in /home/work, a default capability
    bounding set with nothing effective, no new privileges, NOFILE clamped to
    the agent's own hard limit (the runtime cannot raise it without
    CAP_SYS_RESOURCE), an absolute cgroupsPath /backplane/<kernel_id>, new
    pid/ipc/uts/mount/network namespaces (the network one is the kernel's
    agent_net namespace when the spec names one, a fresh loopback-only one
    otherwise, or none at all with host_network), runc spec's default
    masked and read-only paths, and, when the spec names one, a host file
    bound read-only at /etc/hosts (the agent rewrites it in place for a
    cluster session's hostnames). Host device nodes the spec lists (a
    kernel's accelerators) are created at the same path in the container
    (linux.devices) and allowed in its device cgroup after a deny-all rule
    (runc appends its default devices: null, zero, tty...). The virtual
    folders the spec lists (agent_mounts, checked again here) are bound
    last, each rbind, nosuid, nodev and ro or rw, so they land inside
    /home/work of the overlay root; runc makes a missing mount point there
    (an empty directory owned by root in the kernel's upper dir).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_BUNDLE_H_INCLUDED
#define AGENT_BUNDLE_H_INCLUDED

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>
#include "bus.h"
#include "agent_mounts.h"
#include "agent_dotfiles.h"

//  Inside the container (see the issue 4 contract).
#define AGENT_KERNEL_UID         1000
#define AGENT_KERNEL_GID         1000
#define AGENT_KERNEL_HOME        "/home/work"
#define AGENT_KERNEL_BIN_DIR     "/opt/backplane/bin"
#define AGENT_KERNEL_RUN_DIR     "/opt/backplane/run"
#define AGENT_KERNEL_RUNNER_PATH AGENT_KERNEL_BIN_DIR "/backplane-runner"
#define AGENT_KERNEL_TINI_PATH   AGENT_KERNEL_BIN_DIR "/tini"
#define AGENT_KERNEL_TTYD_PATH   AGENT_KERNEL_BIN_DIR "/backplane-ttyd"
#define AGENT_KERNEL_PATH_ENV                                                            \
    "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

//  The parent of every kernel's cgroup in each hierarchy: /backplane/<kernel_id>.
#define AGENT_BUNDLE_CGROUP_PARENT "backplane"
//  Defaults and limits for the config.
#define AGENT_BUNDLE_CPU_PERIOD_US 100000
#define AGENT_BUNDLE_SHM_DEFAULT   (64LL * 1024 * 1024)
#define AGENT_BUNDLE_DEV_SIZE      "size=65536k"
#define AGENT_BUNDLE_NOFILE        65536
#define AGENT_BUNDLE_KERNEL_ID_MAX 64
#define AGENT_BUNDLE_HOSTNAME_MAX  63

//  A host device node given to a container, at the same path inside.
typedef struct {
    const char *path; //  absolute, borrowed
    char type;        //  'c' (character) or 'b' (block)
    int64_t major;
    int64_t minor;
    uint32_t mode; //  permission bits, e.g. 0666
} agent_bundle_device_t;

//  A host file or directory bound into a container by the agent itself
//  (the GPU driver's files, an MPS daemon's directories), not a folder.
typedef struct {
    const char *host_path;   //  absolute, borrowed
    const char *kernel_path; //  absolute, no ".."; "/dev/shm" replaces its tmpfs
    bool readonly;
} agent_bundle_bind_t;

//  A disk (major, minor) whose v1 I/O counters a no-op throttle rule of
//  AGENT_STATS_BLKIO_RATE switches on (agent_stats).
#define AGENT_BUNDLE_IO_DISKS_MAX 8
typedef struct {
    int64_t major;
    int64_t minor;
} agent_bundle_disk_t;

//  What one kernel's container is. All strings are borrowed from the caller.
//  Zero or NULL means "none" or "the default" for every optional field.
typedef struct {
    const char *kernel_id;    //  required: [A-Za-z0-9_.-], 1..64, no leading '.'
    const char *image_rootfs; //  required: host dir of the unpacked image rootfs
    const char *const *args;  //  required: NULL-terminated argv inside the container
    const char *const *env;   //  optional: NULL-terminated "KEY=value" list
    const char *cwd;          //  optional: default AGENT_KERNEL_HOME
    const char *hostname;     //  optional: default the kernel id (cut to 63 chars)
    double cpu_count;         //  CPU quota in CPUs (1.5 = 150 ms per 100 ms); 0: none
    const char *cpuset;       //  "0-1,3" or NULL for any CPU
    int64_t memory_bytes;     //  memory limit, swap included (no swap); 0: none
    int64_t pids_max;         //  at most this many tasks; 0: none
    int64_t shm_bytes;        //  size of /dev/shm; 0: AGENT_BUNDLE_SHM_DEFAULT
    const char *runner_path;  //  optional host path, bound at AGENT_KERNEL_RUNNER_PATH
    const char *tini_path;    //  optional host path, bound at AGENT_KERNEL_TINI_PATH
    const char *ttyd_path;    //  optional host path, bound at AGENT_KERNEL_TTYD_PATH
    const char *netns_path;   //  optional: join this network namespace (agent_net)
    const char *hosts_path;   //  optional host file, bound read-only at /etc/hosts
    bool host_network;        //  no network namespace: share the host's network
    const agent_bundle_device_t *devices; //  optional: device_count host nodes
    size_t device_count;
    const agent_mount_t *mounts; //  optional: mount_count folders to bind (agent_mounts)
    size_t mount_count;
    const agent_bundle_bind_t *binds; //  optional: bind_count host paths of the agent's
    size_t bind_count;
    //  optional: files written into its home before the runner starts
    const agent_dotfiles_t *dotfiles;
    //  cgroup v1 hosts: the disks its I/O goes to, each given a no-op rule
    agent_bundle_disk_t io_disks[AGENT_BUNDLE_IO_DISKS_MAX];
    size_t io_disk_count;
} agent_kernel_spec_t;

//  ---------------------------------------------------------------------------
//  True when id is safe as a kernel id: it names host directories, a cgroup
//  and the runc container, so it comes from the outside and is checked.
bool agent_bundle_id_valid(const char *id);

//  ---------------------------------------------------------------------------
//  Fills device from the host node at path (borrowed into device->path).
//  BUS_OK, BUS_STATUS_NOT_FOUND when there is none, BUS_STATUS_INVALID when
//  path is not absolute or not a character or block device.
int
agent_bundle_device(const char *path, agent_bundle_device_t *device, bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Build the config.json document for spec. rootfs is the host path of the
//  container's root (the overlay mount), run_dir the host dir bound read-write
//  at AGENT_KERNEL_RUN_DIR. Returns NULL and fills err (BUS_STATUS_INVALID) when
//  the spec breaks a rule. Caller owns return value.
json_t *agent_bundle_config(const agent_kernel_spec_t *spec,
                            const char *rootfs,
                            const char *run_dir,
                            bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Write bundle_dir/config.json for spec (see agent_bundle_config). Returns 0,
//  or a bus_status_t with err filled.
int agent_bundle_write(const agent_kernel_spec_t *spec,
                       const char *bundle_dir,
                       const char *rootfs,
                       const char *run_dir,
                       bus_error_t *err);

#endif
