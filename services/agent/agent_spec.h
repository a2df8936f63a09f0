/*  =========================================================================
    agent_spec - what a kernel.create asks for, as a container

    Turns a kernel.create request and its image into everything the
    container is made of: its argv (tini, then the runner with the image's
    runtime labels), its limits (cpu quota, memory, pids, /dev/shm), the
    folders bound into it (agent_mounts, checked before anything else of the
    kernel is made), its hostname and environment. A kernel of a cluster
    session (cluster_size > 1) is named as Backend.AI names it, its role and
    its index within the role (main1, sub1, sub2), which is its container's
    hostname; every kernel gets Backend.AI's BACKENDAI_CLUSTER_* variables.
    Its accelerators' variables come last and win (the user's own values of
    those names are dropped), and their device nodes that exist on the host
    are bound in.

    A spec owns copies of everything (the request and the image, which a
    rescan may free, go away before the worker uses it), so it can travel
    to the worker's thread with the create job.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_SPEC_H_INCLUDED
#define AGENT_SPEC_H_INCLUDED

#include "bus.h"
#include "agent_config.h"
#include "agent_bundle.h"
#include "agent_images.h"
#include "agent_mounts.h"
#include "agent_container.h"

//  Room for argv inside the container.
#define AGENT_SPEC_ARGS_MAX 12
//  Distinct roles a cluster's hostnames may name.
#define AGENT_SPEC_ROLES_MAX 64

//  What a kernel is in its session, as Backend.AI tells a container
//  (manager registry.py and sokovan launcher.py): its 0-based index in the
//  whole session, its 1-based index among its role's kernels, its hostname
//  (role + index: main1, sub1, sub2), and how many kernels each role has
//  ("main:1,sub:2", roles in name order).
typedef struct {
    uint64_t size;       //  kernels in the session
    uint64_t local_rank; //  cluster_idx - 1
    uint64_t role_idx;   //  its index among its role's kernels
    char hostname[AGENT_BUNDLE_HOSTNAME_MAX + 1];
    char replicas[AGENT_SPEC_ROLES_MAX * 24];
} agent_spec_cluster_t;

//  A kernel's container. kernel and image borrow from the other fields.
typedef struct {
    agent_kernel_spec_t kernel;    //  for agent_containers_setup
    agent_container_image_t image; //  the same
    char *layout;
    char *tag;
    char *digest;
    char *reference;
    char *runtime_path; //  label ai.backend.runtime-path, NULL when none
    char *runtime_type; //  label ai.backend.runtime-type
    const char *args[AGENT_SPEC_ARGS_MAX];
    char **env;   //  NULL-terminated "KEY=value", once agent_spec_set_accel ran
    char **nodes; //  the accelerators' device nodes (host paths), the same
    agent_bundle_device_t *devices; //  those that exist, borrowing their paths
    char **image_env;               //  the image's Env, "KEY=value", NULL-terminated
    agent_bundle_bind_t *binds;     //  the accelerators' host paths (owned strings)
    size_t bind_count;
    agent_mounts_t *mounts;
    agent_dotfiles_t *dotfiles; //  kernel.create's dotfiles, checked (count 0: none)
    char *bootstrap;            //  kernel.create's bootstrap_script, NULL when none
    char hostname[AGENT_BUNDLE_HOSTNAME_MAX + 1];
    agent_spec_cluster_t cluster;
} agent_spec_t;

//  ---------------------------------------------------------------------------
//  The spec of in's kernel of image (both borrowed for the call): argv,
//  limits (config's pids_max), hostname, cluster, mounts (their host
//  directories looked at). NULL with err: INVALID for an image without a
//  runtime type, a bad cluster hostname or mounts, NOT_FOUND for a folder
//  whose directory is missing, INTERNAL when out of memory.
agent_spec_t *agent_spec_new(const proto_kernel_create_req_t *in,
                             const agent_image_t *image,
                             const agent_config_t *config,
                             bus_error_t *err);

//  Frees the spec. Idempotent.
void agent_spec_destroy(agent_spec_t **self_p);

//  The value of name the container would have before ours and the
//  accelerators': the user's (in's environ), else the image's; NULL when
//  neither sets it. Borrowed.
const char *agent_spec_base_value(const agent_spec_t *self,
                                  const proto_kernel_create_req_t *in,
                                  const char *name);

//  Binds host_path (a GPU driver file, an MPS directory) at kernel_path,
//  copied. BUS_OK, or INTERNAL when out of memory.
int agent_spec_add_bind(agent_spec_t *self,
                        const char *host_path,
                        const char *kernel_path,
                        bool readonly,
                        bus_error_t *err);

//  Adds the environment (the user's, ours, then accel: NULL-terminated
//  "KEY=value", may be NULL) and the device nodes of nodes (NULL-terminated
//  host paths, may be NULL) that exist. BUS_OK, or INTERNAL when out of
//  memory.
int agent_spec_set_accel(agent_spec_t *self,
                         const proto_kernel_create_req_t *in,
                         char *const *accel,
                         char *const *nodes,
                         bus_error_t *err);

//  kernel.create's slots as the kernel's row keeps them: a JSON object of
//  the decimal strings. NULL when out of memory; caller owns return value.
char *agent_spec_slots_json(const proto_kernel_create_req_t *in);

#endif
