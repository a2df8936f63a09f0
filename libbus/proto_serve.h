//  GENERATED FROM proto/*.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_serve - a typed handler for every RPC method

    For each method M: proto_M_fn, the handler a service writes, which gets
    the request decoded and checked (in) and the reply initialised (out), and
    holds only its logic; proto_M_serve, the adapter that decodes, calls it
    and encodes; and proto_M_method(handler), the row of a service's table of
    methods for bus_node_serve.

    A handler returns BUS_OK with out filled (it is then checked against the
    schema and encoded), an error status with err set, or BUS_STATUS_PENDING_
    after bus_rpc_request_detach(req) to answer later. out is encoded after
    the handler has returned: what it points to must outlive the call (the
    service's own state, in, string literals), or be copied into out->owned_
    with proto_arena_strdup and its kin, which the adapter frees with out.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef PROTO_SERVE_H_INCLUDED
#define PROTO_SERVE_H_INCLUDED

//  ---------------------------------------------------------------------------
//  accounting.usage: what kernels whose life overlaps [from, to) held and used within it,
//  grouped by project, user, session, domain, resource group or image (at most 100
//  projects; with kernels 101 days and 20000 kernels, without them 367 days and 200000
//  kernels)

typedef int (proto_accounting_usage_fn)(void *arg,
                                        const proto_accounting_usage_req_t *in,
                                        proto_accounting_usage_rep_t *out,
                                        bus_rpc_request_t *req,
                                        bus_error_t *err);
int proto_accounting_usage_serve(bus_typed_fn *fn,
                                 void *arg,
                                 bus_rpc_request_t *req,
                                 const void *body,
                                 size_t body_size,
                                 bus_writer_t *reply,
                                 bus_error_t *err);
static inline bus_node_method_t
proto_accounting_usage_method(proto_accounting_usage_fn *fn)
{
    return (bus_node_method_t){PROTO_ACCOUNTING_USAGE, NULL, (bus_typed_fn *) fn,
                               proto_accounting_usage_serve};
}

//  ---------------------------------------------------------------------------
//  accounting.stats_user: a user's (or keypair's) kernels over the 30 days before `to` in
//  2880 15-minute bins, oldest first, always all of them

typedef int (proto_accounting_stats_user_fn)(void *arg,
                                             const proto_accounting_stats_user_req_t *in,
                                             proto_accounting_stats_user_rep_t *out,
                                             bus_rpc_request_t *req,
                                             bus_error_t *err);
int proto_accounting_stats_user_serve(bus_typed_fn *fn,
                                      void *arg,
                                      bus_rpc_request_t *req,
                                      const void *body,
                                      size_t body_size,
                                      bus_writer_t *reply,
                                      bus_error_t *err);
static inline bus_node_method_t
proto_accounting_stats_user_method(proto_accounting_stats_user_fn *fn)
{
    return (bus_node_method_t){PROTO_ACCOUNTING_STATS_USER, NULL, (bus_typed_fn *) fn,
                               proto_accounting_stats_user_serve};
}

//  ---------------------------------------------------------------------------
//  accounting.stats_all: every kernel over the 30 days before `to` in 2880 15-minute
//  bins, oldest first, always all of them (the administrators' view; at most 200000
//  kernels)

typedef int (proto_accounting_stats_all_fn)(void *arg,
                                            const proto_accounting_stats_all_req_t *in,
                                            proto_accounting_stats_all_rep_t *out,
                                            bus_rpc_request_t *req,
                                            bus_error_t *err);
int proto_accounting_stats_all_serve(bus_typed_fn *fn,
                                     void *arg,
                                     bus_rpc_request_t *req,
                                     const void *body,
                                     size_t body_size,
                                     bus_writer_t *reply,
                                     bus_error_t *err);
static inline bus_node_method_t
proto_accounting_stats_all_method(proto_accounting_stats_all_fn *fn)
{
    return (bus_node_method_t){PROTO_ACCOUNTING_STATS_ALL, NULL, (bus_typed_fn *) fn,
                               proto_accounting_stats_all_serve};
}

//  ---------------------------------------------------------------------------
//  accounting.recalculate: rebuilds the roll-ups from the raw samples: rolls up what is
//  pending, rewrites the hourly buckets from `horizon` on (raw samples before it have
//  expired, so older buckets are the only record and stay) and the daily buckets from the
//  day of `horizon` on from the hourly ones and the records' owners, then checks each
//  rewritten kernel's buckets against its record's totals

typedef int (proto_accounting_recalculate_fn)(void *arg,
                                              const proto_accounting_recalculate_req_t *in,
                                              proto_accounting_recalculate_rep_t *out,
                                              bus_rpc_request_t *req,
                                              bus_error_t *err);
int proto_accounting_recalculate_serve(bus_typed_fn *fn,
                                       void *arg,
                                       bus_rpc_request_t *req,
                                       const void *body,
                                       size_t body_size,
                                       bus_writer_t *reply,
                                       bus_error_t *err);
static inline bus_node_method_t
proto_accounting_recalculate_method(proto_accounting_recalculate_fn *fn)
{
    return (bus_node_method_t){PROTO_ACCOUNTING_RECALCULATE, NULL, (bus_typed_fn *) fn,
                               proto_accounting_recalculate_serve};
}

//  ---------------------------------------------------------------------------
//  accounting.live: the last figures of some kernels (at most 1000), in the order asked

typedef int (proto_accounting_live_fn)(void *arg,
                                       const proto_accounting_live_req_t *in,
                                       proto_accounting_live_rep_t *out,
                                       bus_rpc_request_t *req,
                                       bus_error_t *err);
int proto_accounting_live_serve(bus_typed_fn *fn,
                                void *arg,
                                bus_rpc_request_t *req,
                                const void *body,
                                size_t body_size,
                                bus_writer_t *reply,
                                bus_error_t *err);
static inline bus_node_method_t
proto_accounting_live_method(proto_accounting_live_fn *fn)
{
    return (bus_node_method_t){PROTO_ACCOUNTING_LIVE, NULL, (bus_typed_fn *) fn,
                               proto_accounting_live_serve};
}

//  ---------------------------------------------------------------------------
//  bus.replay: durable events of one domain from a sequence number on, for a subscriber
//  that saw a gap or is catching up

typedef int (proto_bus_replay_fn)(void *arg,
                                  const proto_bus_replay_req_t *in,
                                  proto_bus_replay_rep_t *out,
                                  bus_rpc_request_t *req,
                                  bus_error_t *err);
int proto_bus_replay_serve(bus_typed_fn *fn,
                           void *arg,
                           bus_rpc_request_t *req,
                           const void *body,
                           size_t body_size,
                           bus_writer_t *reply,
                           bus_error_t *err);
static inline bus_node_method_t
proto_bus_replay_method(proto_bus_replay_fn *fn)
{
    return (bus_node_method_t){PROTO_BUS_REPLAY, NULL, (bus_typed_fn *) fn,
                               proto_bus_replay_serve};
}

//  ---------------------------------------------------------------------------
//  image.rescan: rescan the agent's image store now and answer what it holds (announcing
//  a changed image.catalog as the rescan timer does)

typedef int (proto_image_rescan_fn)(void *arg,
                                    const proto_image_rescan_req_t *in,
                                    proto_image_rescan_rep_t *out,
                                    bus_rpc_request_t *req,
                                    bus_error_t *err);
int proto_image_rescan_serve(bus_typed_fn *fn,
                             void *arg,
                             bus_rpc_request_t *req,
                             const void *body,
                             size_t body_size,
                             bus_writer_t *reply,
                             bus_error_t *err);
static inline bus_node_method_t
proto_image_rescan_method(proto_image_rescan_fn *fn)
{
    return (bus_node_method_t){PROTO_IMAGE_RESCAN, NULL, (bus_typed_fn *) fn,
                               proto_image_rescan_serve};
}

//  ---------------------------------------------------------------------------
//  kernel.create: start a kernel's container; creating a kernel id that exists answers
//  what it has

typedef int (proto_kernel_create_fn)(void *arg,
                                     const proto_kernel_create_req_t *in,
                                     proto_kernel_create_rep_t *out,
                                     bus_rpc_request_t *req,
                                     bus_error_t *err);
int proto_kernel_create_serve(bus_typed_fn *fn,
                              void *arg,
                              bus_rpc_request_t *req,
                              const void *body,
                              size_t body_size,
                              bus_writer_t *reply,
                              bus_error_t *err);
static inline bus_node_method_t
proto_kernel_create_method(proto_kernel_create_fn *fn)
{
    return (bus_node_method_t){PROTO_KERNEL_CREATE, NULL, (bus_typed_fn *) fn,
                               proto_kernel_create_serve};
}

//  ---------------------------------------------------------------------------
//  kernel.hosts: rewrite a kernel's /etc/hosts: localhost, then each hostname of its
//  cluster with its address

typedef int (proto_kernel_hosts_fn)(void *arg,
                                    const proto_kernel_hosts_req_t *in,
                                    proto_kernel_hosts_rep_t *out,
                                    bus_rpc_request_t *req,
                                    bus_error_t *err);
int proto_kernel_hosts_serve(bus_typed_fn *fn,
                             void *arg,
                             bus_rpc_request_t *req,
                             const void *body,
                             size_t body_size,
                             bus_writer_t *reply,
                             bus_error_t *err);
static inline bus_node_method_t
proto_kernel_hosts_method(proto_kernel_hosts_fn *fn)
{
    return (bus_node_method_t){PROTO_KERNEL_HOSTS, NULL, (bus_typed_fn *) fn,
                               proto_kernel_hosts_serve};
}

//  ---------------------------------------------------------------------------
//  kernel.destroy: stop a kernel (TERM, then KILL after grace_ms) and remove what it left

typedef int (proto_kernel_destroy_fn)(void *arg,
                                      const proto_kernel_destroy_req_t *in,
                                      proto_kernel_destroy_rep_t *out,
                                      bus_rpc_request_t *req,
                                      bus_error_t *err);
int proto_kernel_destroy_serve(bus_typed_fn *fn,
                               void *arg,
                               bus_rpc_request_t *req,
                               const void *body,
                               size_t body_size,
                               bus_writer_t *reply,
                               bus_error_t *err);
static inline bus_node_method_t
proto_kernel_destroy_method(proto_kernel_destroy_fn *fn)
{
    return (bus_node_method_t){PROTO_KERNEL_DESTROY, NULL, (bus_typed_fn *) fn,
                               proto_kernel_destroy_serve};
}

//  ---------------------------------------------------------------------------
//  kernel.restart: restart a kernel's container in place: stop it (TERM, then KILL after
//  grace_ms) and run it again from the same bundle; the files in its home (the overlay)
//  and its address stay, its processes do not; no kernel.started or kernel.terminated
//  unless it cannot run again (then kernel.terminated, failed-to-start)

typedef int (proto_kernel_restart_fn)(void *arg,
                                      const proto_kernel_restart_req_t *in,
                                      proto_kernel_restart_rep_t *out,
                                      bus_rpc_request_t *req,
                                      bus_error_t *err);
int proto_kernel_restart_serve(bus_typed_fn *fn,
                               void *arg,
                               bus_rpc_request_t *req,
                               const void *body,
                               size_t body_size,
                               bus_writer_t *reply,
                               bus_error_t *err);
static inline bus_node_method_t
proto_kernel_restart_method(proto_kernel_restart_fn *fn)
{
    return (bus_node_method_t){PROTO_KERNEL_RESTART, NULL, (bus_typed_fn *) fn,
                               proto_kernel_restart_serve};
}

//  ---------------------------------------------------------------------------
//  kernel.execute: run code in a kernel, or collect the output of a run (reference §3.4);
//  the reply is Backend.AI's result object

typedef int (proto_kernel_execute_fn)(void *arg,
                                      const proto_kernel_execute_req_t *in,
                                      proto_kernel_execute_rep_t *out,
                                      bus_rpc_request_t *req,
                                      bus_error_t *err);
int proto_kernel_execute_serve(bus_typed_fn *fn,
                               void *arg,
                               bus_rpc_request_t *req,
                               const void *body,
                               size_t body_size,
                               bus_writer_t *reply,
                               bus_error_t *err);
static inline bus_node_method_t
proto_kernel_execute_method(proto_kernel_execute_fn *fn)
{
    return (bus_node_method_t){PROTO_KERNEL_EXECUTE, NULL, (bus_typed_fn *) fn,
                               proto_kernel_execute_serve};
}

//  ---------------------------------------------------------------------------
//  kernel.interrupt: send SIGINT to the code a kernel runs now (force: SIGKILL to its
//  whole process group, for code that ignores SIGINT)

typedef int (proto_kernel_interrupt_fn)(void *arg,
                                        const proto_kernel_interrupt_req_t *in,
                                        proto_kernel_interrupt_rep_t *out,
                                        bus_rpc_request_t *req,
                                        bus_error_t *err);
int proto_kernel_interrupt_serve(bus_typed_fn *fn,
                                 void *arg,
                                 bus_rpc_request_t *req,
                                 const void *body,
                                 size_t body_size,
                                 bus_writer_t *reply,
                                 bus_error_t *err);
static inline bus_node_method_t
proto_kernel_interrupt_method(proto_kernel_interrupt_fn *fn)
{
    return (bus_node_method_t){PROTO_KERNEL_INTERRUPT, NULL, (bus_typed_fn *) fn,
                               proto_kernel_interrupt_serve};
}

//  ---------------------------------------------------------------------------
//  kernel.logs: the container's output (the end of it when it is long)

typedef int (proto_kernel_logs_fn)(void *arg,
                                   const proto_kernel_logs_req_t *in,
                                   proto_kernel_logs_rep_t *out,
                                   bus_rpc_request_t *req,
                                   bus_error_t *err);
int proto_kernel_logs_serve(bus_typed_fn *fn,
                            void *arg,
                            bus_rpc_request_t *req,
                            const void *body,
                            size_t body_size,
                            bus_writer_t *reply,
                            bus_error_t *err);
static inline bus_node_method_t
proto_kernel_logs_method(proto_kernel_logs_fn *fn)
{
    return (bus_node_method_t){PROTO_KERNEL_LOGS, NULL, (bus_typed_fn *) fn,
                               proto_kernel_logs_serve};
}

//  ---------------------------------------------------------------------------
//  kernel.list: every kernel the agent has, for the scheduler's reconciliation

typedef int (proto_kernel_list_fn)(void *arg,
                                   const proto_kernel_list_req_t *in,
                                   proto_kernel_list_rep_t *out,
                                   bus_rpc_request_t *req,
                                   bus_error_t *err);
int proto_kernel_list_serve(bus_typed_fn *fn,
                            void *arg,
                            bus_rpc_request_t *req,
                            const void *body,
                            size_t body_size,
                            bus_writer_t *reply,
                            bus_error_t *err);
static inline bus_node_method_t
proto_kernel_list_method(proto_kernel_list_fn *fn)
{
    return (bus_node_method_t){PROTO_KERNEL_LIST, NULL, (bus_typed_fn *) fn,
                               proto_kernel_list_serve};
}

//  ---------------------------------------------------------------------------
//  kernel.upload: write files into a kernel's home, creating parent directories, owned by
//  the kernel's user; each file appears whole or not at all

typedef int (proto_kernel_upload_fn)(void *arg,
                                     const proto_kernel_upload_req_t *in,
                                     proto_kernel_upload_rep_t *out,
                                     bus_rpc_request_t *req,
                                     bus_error_t *err);
int proto_kernel_upload_serve(bus_typed_fn *fn,
                              void *arg,
                              bus_rpc_request_t *req,
                              const void *body,
                              size_t body_size,
                              bus_writer_t *reply,
                              bus_error_t *err);
static inline bus_node_method_t
proto_kernel_upload_method(proto_kernel_upload_fn *fn)
{
    return (bus_node_method_t){PROTO_KERNEL_UPLOAD, NULL, (bus_typed_fn *) fn,
                               proto_kernel_upload_serve};
}

//  ---------------------------------------------------------------------------
//  kernel.download: files or directories of a kernel's home, each as a tar archive

typedef int (proto_kernel_download_fn)(void *arg,
                                       const proto_kernel_download_req_t *in,
                                       proto_kernel_download_rep_t *out,
                                       bus_rpc_request_t *req,
                                       bus_error_t *err);
int proto_kernel_download_serve(bus_typed_fn *fn,
                                void *arg,
                                bus_rpc_request_t *req,
                                const void *body,
                                size_t body_size,
                                bus_writer_t *reply,
                                bus_error_t *err);
static inline bus_node_method_t
proto_kernel_download_method(proto_kernel_download_fn *fn)
{
    return (bus_node_method_t){PROTO_KERNEL_DOWNLOAD, NULL, (bus_typed_fn *) fn,
                               proto_kernel_download_serve};
}

//  ---------------------------------------------------------------------------
//  kernel.download_single: one regular file of a kernel's home, its bytes as they are

typedef int (proto_kernel_download_single_fn)(void *arg,
                                              const proto_kernel_download_single_req_t *in,
                                              proto_kernel_download_single_rep_t *out,
                                              bus_rpc_request_t *req,
                                              bus_error_t *err);
int proto_kernel_download_single_serve(bus_typed_fn *fn,
                                       void *arg,
                                       bus_rpc_request_t *req,
                                       const void *body,
                                       size_t body_size,
                                       bus_writer_t *reply,
                                       bus_error_t *err);
static inline bus_node_method_t
proto_kernel_download_single_method(proto_kernel_download_single_fn *fn)
{
    return (bus_node_method_t){PROTO_KERNEL_DOWNLOAD_SINGLE, NULL, (bus_typed_fn *) fn,
                               proto_kernel_download_single_serve};
}

//  ---------------------------------------------------------------------------
//  kernel.list_files: a directory of a kernel's home, as Backend.AI's /files answers it

typedef int (proto_kernel_list_files_fn)(void *arg,
                                         const proto_kernel_list_files_req_t *in,
                                         proto_kernel_list_files_rep_t *out,
                                         bus_rpc_request_t *req,
                                         bus_error_t *err);
int proto_kernel_list_files_serve(bus_typed_fn *fn,
                                  void *arg,
                                  bus_rpc_request_t *req,
                                  const void *body,
                                  size_t body_size,
                                  bus_writer_t *reply,
                                  bus_error_t *err);
static inline bus_node_method_t
proto_kernel_list_files_method(proto_kernel_list_files_fn *fn)
{
    return (bus_node_method_t){PROTO_KERNEL_LIST_FILES, NULL, (bus_typed_fn *) fn,
                               proto_kernel_list_files_serve};
}

//  ---------------------------------------------------------------------------
//  kernel.pty_write: keystrokes for a kernel's terminal (a shell on a pseudo-terminal in
//  the container), opening it first when it is not open; rows and cols, when set, resize
//  it

typedef int (proto_kernel_pty_write_fn)(void *arg,
                                        const proto_kernel_pty_write_req_t *in,
                                        proto_kernel_pty_write_rep_t *out,
                                        bus_rpc_request_t *req,
                                        bus_error_t *err);
int proto_kernel_pty_write_serve(bus_typed_fn *fn,
                                 void *arg,
                                 bus_rpc_request_t *req,
                                 const void *body,
                                 size_t body_size,
                                 bus_writer_t *reply,
                                 bus_error_t *err);
static inline bus_node_method_t
proto_kernel_pty_write_method(proto_kernel_pty_write_fn *fn)
{
    return (bus_node_method_t){PROTO_KERNEL_PTY_WRITE, NULL, (bus_typed_fn *) fn,
                               proto_kernel_pty_write_serve};
}

//  ---------------------------------------------------------------------------
//  kernel.pty_read: the terminal's output after offset (bytes counted since it opened):
//  answers as soon as there is some, or after wait_ms with none

typedef int (proto_kernel_pty_read_fn)(void *arg,
                                       const proto_kernel_pty_read_req_t *in,
                                       proto_kernel_pty_read_rep_t *out,
                                       bus_rpc_request_t *req,
                                       bus_error_t *err);
int proto_kernel_pty_read_serve(bus_typed_fn *fn,
                                void *arg,
                                bus_rpc_request_t *req,
                                const void *body,
                                size_t body_size,
                                bus_writer_t *reply,
                                bus_error_t *err);
static inline bus_node_method_t
proto_kernel_pty_read_method(proto_kernel_pty_read_fn *fn)
{
    return (bus_node_method_t){PROTO_KERNEL_PTY_READ, NULL, (bus_typed_fn *) fn,
                               proto_kernel_pty_read_serve};
}

//  ---------------------------------------------------------------------------
//  kernel.start_service: start an app of a running kernel (a service port: Jupyter, a
//  service definition's command) unless it runs, and answer once its port accepts
//  connections, with the address a proxy connects to

typedef int (proto_kernel_start_service_fn)(void *arg,
                                            const proto_kernel_start_service_req_t *in,
                                            proto_kernel_start_service_rep_t *out,
                                            bus_rpc_request_t *req,
                                            bus_error_t *err);
int proto_kernel_start_service_serve(bus_typed_fn *fn,
                                     void *arg,
                                     bus_rpc_request_t *req,
                                     const void *body,
                                     size_t body_size,
                                     bus_writer_t *reply,
                                     bus_error_t *err);
static inline bus_node_method_t
proto_kernel_start_service_method(proto_kernel_start_service_fn *fn)
{
    return (bus_node_method_t){PROTO_KERNEL_START_SERVICE, NULL, (bus_typed_fn *) fn,
                               proto_kernel_start_service_serve};
}

//  ---------------------------------------------------------------------------
//  registry.register: announce a service process; the reply says how often to heartbeat

typedef int (proto_registry_register_fn)(void *arg,
                                         const proto_registry_register_req_t *in,
                                         proto_registry_register_rep_t *out,
                                         bus_rpc_request_t *req,
                                         bus_error_t *err);
int proto_registry_register_serve(bus_typed_fn *fn,
                                  void *arg,
                                  bus_rpc_request_t *req,
                                  const void *body,
                                  size_t body_size,
                                  bus_writer_t *reply,
                                  bus_error_t *err);
static inline bus_node_method_t
proto_registry_register_method(proto_registry_register_fn *fn)
{
    return (bus_node_method_t){PROTO_REGISTRY_REGISTER, NULL, (bus_typed_fn *) fn,
                               proto_registry_register_serve};
}

//  ---------------------------------------------------------------------------
//  registry.heartbeat: keep a registration alive; REREGISTER if the registry forgot it

typedef int (proto_registry_heartbeat_fn)(void *arg,
                                          const proto_registry_heartbeat_req_t *in,
                                          proto_registry_heartbeat_rep_t *out,
                                          bus_rpc_request_t *req,
                                          bus_error_t *err);
int proto_registry_heartbeat_serve(bus_typed_fn *fn,
                                   void *arg,
                                   bus_rpc_request_t *req,
                                   const void *body,
                                   size_t body_size,
                                   bus_writer_t *reply,
                                   bus_error_t *err);
static inline bus_node_method_t
proto_registry_heartbeat_method(proto_registry_heartbeat_fn *fn)
{
    return (bus_node_method_t){PROTO_REGISTRY_HEARTBEAT, NULL, (bus_typed_fn *) fn,
                               proto_registry_heartbeat_serve};
}

//  ---------------------------------------------------------------------------
//  registry.unregister: a clean goodbye, so peers need not wait for the expiry

typedef int (proto_registry_unregister_fn)(void *arg,
                                           const proto_registry_unregister_req_t *in,
                                           proto_registry_unregister_rep_t *out,
                                           bus_rpc_request_t *req,
                                           bus_error_t *err);
int proto_registry_unregister_serve(bus_typed_fn *fn,
                                    void *arg,
                                    bus_rpc_request_t *req,
                                    const void *body,
                                    size_t body_size,
                                    bus_writer_t *reply,
                                    bus_error_t *err);
static inline bus_node_method_t
proto_registry_unregister_method(proto_registry_unregister_fn *fn)
{
    return (bus_node_method_t){PROTO_REGISTRY_UNREGISTER, NULL, (bus_typed_fn *) fn,
                               proto_registry_unregister_serve};
}

//  ---------------------------------------------------------------------------
//  registry.peers: the live peers, optionally of one service

typedef int (proto_registry_peers_fn)(void *arg,
                                      const proto_registry_peers_req_t *in,
                                      proto_registry_peers_rep_t *out,
                                      bus_rpc_request_t *req,
                                      bus_error_t *err);
int proto_registry_peers_serve(bus_typed_fn *fn,
                               void *arg,
                               bus_rpc_request_t *req,
                               const void *body,
                               size_t body_size,
                               bus_writer_t *reply,
                               bus_error_t *err);
static inline bus_node_method_t
proto_registry_peers_method(proto_registry_peers_fn *fn)
{
    return (bus_node_method_t){PROTO_REGISTRY_PEERS, NULL, (bus_typed_fn *) fn,
                               proto_registry_peers_serve};
}

//  ---------------------------------------------------------------------------
//  scheduler.agents: the agents in the registry, optionally of one resource group or
//  status

typedef int (proto_scheduler_agents_fn)(void *arg,
                                        const proto_scheduler_agents_req_t *in,
                                        proto_scheduler_agents_rep_t *out,
                                        bus_rpc_request_t *req,
                                        bus_error_t *err);
int proto_scheduler_agents_serve(bus_typed_fn *fn,
                                 void *arg,
                                 bus_rpc_request_t *req,
                                 const void *body,
                                 size_t body_size,
                                 bus_writer_t *reply,
                                 bus_error_t *err);
static inline bus_node_method_t
proto_scheduler_agents_method(proto_scheduler_agents_fn *fn)
{
    return (bus_node_method_t){PROTO_SCHEDULER_AGENTS, NULL, (bus_typed_fn *) fn,
                               proto_scheduler_agents_serve};
}

//  ---------------------------------------------------------------------------
//  scheduler.usage: what one keypair, its project and its domain hold now: the sums of
//  their kernels' allocation rows

typedef int (proto_scheduler_usage_fn)(void *arg,
                                       const proto_scheduler_usage_req_t *in,
                                       proto_scheduler_usage_rep_t *out,
                                       bus_rpc_request_t *req,
                                       bus_error_t *err);
int proto_scheduler_usage_serve(bus_typed_fn *fn,
                                void *arg,
                                bus_rpc_request_t *req,
                                const void *body,
                                size_t body_size,
                                bus_writer_t *reply,
                                bus_error_t *err);
static inline bus_node_method_t
proto_scheduler_usage_method(proto_scheduler_usage_fn *fn)
{
    return (bus_node_method_t){PROTO_SCHEDULER_USAGE, NULL, (bus_typed_fn *) fn,
                               proto_scheduler_usage_serve};
}

//  ---------------------------------------------------------------------------
//  scheduler.invariant: checks the allocation ledger against its aggregates, the
//  capacities and what agents report (sched_invariant)

typedef int (proto_scheduler_invariant_fn)(void *arg,
                                           const proto_scheduler_invariant_req_t *in,
                                           proto_scheduler_invariant_rep_t *out,
                                           bus_rpc_request_t *req,
                                           bus_error_t *err);
int proto_scheduler_invariant_serve(bus_typed_fn *fn,
                                    void *arg,
                                    bus_rpc_request_t *req,
                                    const void *body,
                                    size_t body_size,
                                    bus_writer_t *reply,
                                    bus_error_t *err);
static inline bus_node_method_t
proto_scheduler_invariant_method(proto_scheduler_invariant_fn *fn)
{
    return (bus_node_method_t){PROTO_SCHEDULER_INVARIANT, NULL, (bus_typed_fn *) fn,
                               proto_scheduler_invariant_serve};
}

//  ---------------------------------------------------------------------------
//  scheduler.recalculate: recounts the aggregates the triggers keep (each agent's
//  occupancy, each keypair's, user's, project's and domain's slots in use and pending,
//  each keypair's concurrent and pending sessions) from the allocation rows and the
//  sessions, in one transaction (Backend.AI's recalculate-usage)

typedef int (proto_scheduler_recalculate_fn)(void *arg,
                                             const proto_scheduler_recalculate_req_t *in,
                                             proto_scheduler_recalculate_rep_t *out,
                                             bus_rpc_request_t *req,
                                             bus_error_t *err);
int proto_scheduler_recalculate_serve(bus_typed_fn *fn,
                                      void *arg,
                                      bus_rpc_request_t *req,
                                      const void *body,
                                      size_t body_size,
                                      bus_writer_t *reply,
                                      bus_error_t *err);
static inline bus_node_method_t
proto_scheduler_recalculate_method(proto_scheduler_recalculate_fn *fn)
{
    return (bus_node_method_t){PROTO_SCHEDULER_RECALCULATE, NULL, (bus_typed_fn *) fn,
                               proto_scheduler_recalculate_serve};
}

//  ---------------------------------------------------------------------------
//  scheduler.schedulable: includes agents in scheduling or excludes them (Backend.AI's
//  include-agents and exclude-agents scheduler operations): all of them or, when one is
//  unknown, none

typedef int (proto_scheduler_schedulable_fn)(void *arg,
                                             const proto_scheduler_schedulable_req_t *in,
                                             proto_scheduler_schedulable_rep_t *out,
                                             bus_rpc_request_t *req,
                                             bus_error_t *err);
int proto_scheduler_schedulable_serve(bus_typed_fn *fn,
                                      void *arg,
                                      bus_rpc_request_t *req,
                                      const void *body,
                                      size_t body_size,
                                      bus_writer_t *reply,
                                      bus_error_t *err);
static inline bus_node_method_t
proto_scheduler_schedulable_method(proto_scheduler_schedulable_fn *fn)
{
    return (bus_node_method_t){PROTO_SCHEDULER_SCHEDULABLE, NULL, (bus_typed_fn *) fn,
                               proto_scheduler_schedulable_serve};
}

//  ---------------------------------------------------------------------------
//  scheduler.concurrency: each keypair's concurrency_used (the GraphQL keypair field),
//  read from the counts the triggers keep (keypair_counts) by key: one indexed query, no
//  scan; a keypair without sessions answers 0

typedef int (proto_scheduler_concurrency_fn)(void *arg,
                                             const proto_scheduler_concurrency_req_t *in,
                                             proto_scheduler_concurrency_rep_t *out,
                                             bus_rpc_request_t *req,
                                             bus_error_t *err);
int proto_scheduler_concurrency_serve(bus_typed_fn *fn,
                                      void *arg,
                                      bus_rpc_request_t *req,
                                      const void *body,
                                      size_t body_size,
                                      bus_writer_t *reply,
                                      bus_error_t *err);
static inline bus_node_method_t
proto_scheduler_concurrency_method(proto_scheduler_concurrency_fn *fn)
{
    return (bus_node_method_t){PROTO_SCHEDULER_CONCURRENCY, NULL, (bus_typed_fn *) fn,
                               proto_scheduler_concurrency_serve};
}

//  ---------------------------------------------------------------------------
//  service.health: liveness and readiness of one service process

typedef int (proto_service_health_fn)(void *arg,
                                      const proto_service_health_req_t *in,
                                      proto_service_health_rep_t *out,
                                      bus_rpc_request_t *req,
                                      bus_error_t *err);
int proto_service_health_serve(bus_typed_fn *fn,
                               void *arg,
                               bus_rpc_request_t *req,
                               const void *body,
                               size_t body_size,
                               bus_writer_t *reply,
                               bus_error_t *err);
static inline bus_node_method_t
proto_service_health_method(proto_service_health_fn *fn)
{
    return (bus_node_method_t){PROTO_SERVICE_HEALTH, NULL, (bus_typed_fn *) fn,
                               proto_service_health_serve};
}

//  ---------------------------------------------------------------------------
//  session.create: enqueue a session (PENDING) with its kernels; the same session_id
//  again answers what exists

typedef int (proto_session_create_fn)(void *arg,
                                      const proto_session_create_req_t *in,
                                      proto_session_create_rep_t *out,
                                      bus_rpc_request_t *req,
                                      bus_error_t *err);
int proto_session_create_serve(bus_typed_fn *fn,
                               void *arg,
                               bus_rpc_request_t *req,
                               const void *body,
                               size_t body_size,
                               bus_writer_t *reply,
                               bus_error_t *err);
static inline bus_node_method_t
proto_session_create_method(proto_session_create_fn *fn)
{
    return (bus_node_method_t){PROTO_SESSION_CREATE, NULL, (bus_typed_fn *) fn,
                               proto_session_create_serve};
}

//  ---------------------------------------------------------------------------
//  session.destroy: terminate a session: TERMINATING, its kernels destroyed, then
//  TERMINATED; a PENDING one is CANCELLED

typedef int (proto_session_destroy_fn)(void *arg,
                                       const proto_session_destroy_req_t *in,
                                       proto_session_destroy_rep_t *out,
                                       bus_rpc_request_t *req,
                                       bus_error_t *err);
int proto_session_destroy_serve(bus_typed_fn *fn,
                                void *arg,
                                bus_rpc_request_t *req,
                                const void *body,
                                size_t body_size,
                                bus_writer_t *reply,
                                bus_error_t *err);
static inline bus_node_method_t
proto_session_destroy_method(proto_session_destroy_fn *fn)
{
    return (bus_node_method_t){PROTO_SESSION_DESTROY, NULL, (bus_typed_fn *) fn,
                               proto_session_destroy_serve};
}

//  ---------------------------------------------------------------------------
//  session.get: one session by id, or by its owner's keypair and name (the live one
//  first)

typedef int (proto_session_get_fn)(void *arg,
                                   const proto_session_get_req_t *in,
                                   proto_session_get_rep_t *out,
                                   bus_rpc_request_t *req,
                                   bus_error_t *err);
int proto_session_get_serve(bus_typed_fn *fn,
                            void *arg,
                            bus_rpc_request_t *req,
                            const void *body,
                            size_t body_size,
                            bus_writer_t *reply,
                            bus_error_t *err);
static inline bus_node_method_t
proto_session_get_method(proto_session_get_fn *fn)
{
    return (bus_node_method_t){PROTO_SESSION_GET, NULL, (bus_typed_fn *) fn,
                               proto_session_get_serve};
}

//  ---------------------------------------------------------------------------
//  session.rename: give a RUNNING session a new name, unique among its owner's live
//  sessions

typedef int (proto_session_rename_fn)(void *arg,
                                      const proto_session_rename_req_t *in,
                                      proto_session_rename_rep_t *out,
                                      bus_rpc_request_t *req,
                                      bus_error_t *err);
int proto_session_rename_serve(bus_typed_fn *fn,
                               void *arg,
                               bus_rpc_request_t *req,
                               const void *body,
                               size_t body_size,
                               bus_writer_t *reply,
                               bus_error_t *err);
static inline bus_node_method_t
proto_session_rename_method(proto_session_rename_fn *fn)
{
    return (bus_node_method_t){PROTO_SESSION_RENAME, NULL, (bus_typed_fn *) fn,
                               proto_session_rename_serve};
}

//  ---------------------------------------------------------------------------
//  session.restart: restart a RUNNING session's kernel in place (RESTARTING, then RUNNING
//  again); its files in /home/work stay, its processes do not; answered once the kernel
//  runs again; CONFLICT when the session is not RUNNING

typedef int (proto_session_restart_fn)(void *arg,
                                       const proto_session_restart_req_t *in,
                                       proto_session_restart_rep_t *out,
                                       bus_rpc_request_t *req,
                                       bus_error_t *err);
int proto_session_restart_serve(bus_typed_fn *fn,
                                void *arg,
                                bus_rpc_request_t *req,
                                const void *body,
                                size_t body_size,
                                bus_writer_t *reply,
                                bus_error_t *err);
static inline bus_node_method_t
proto_session_restart_method(proto_session_restart_fn *fn)
{
    return (bus_node_method_t){PROTO_SESSION_RESTART, NULL, (bus_typed_fn *) fn,
                               proto_session_restart_serve};
}

//  ---------------------------------------------------------------------------
//  session.list: sessions by owner, project, domain, status and a condition, newest first
//  or in the order asked, one page and the count of all

typedef int (proto_session_list_fn)(void *arg,
                                    const proto_session_list_req_t *in,
                                    proto_session_list_rep_t *out,
                                    bus_rpc_request_t *req,
                                    bus_error_t *err);
int proto_session_list_serve(bus_typed_fn *fn,
                             void *arg,
                             bus_rpc_request_t *req,
                             const void *body,
                             size_t body_size,
                             bus_writer_t *reply,
                             bus_error_t *err);
static inline bus_node_method_t
proto_session_list_method(proto_session_list_fn *fn)
{
    return (bus_node_method_t){PROTO_SESSION_LIST, NULL, (bus_typed_fn *) fn,
                               proto_session_list_serve};
}

//  ---------------------------------------------------------------------------
//  storage.volumes: this storage-proxy's volumes with their host names and usage, and the
//  URL clients upload to and download from

typedef int (proto_storage_volumes_fn)(void *arg,
                                       const proto_storage_volumes_req_t *in,
                                       proto_storage_volumes_rep_t *out,
                                       bus_rpc_request_t *req,
                                       bus_error_t *err);
int proto_storage_volumes_serve(bus_typed_fn *fn,
                                void *arg,
                                bus_rpc_request_t *req,
                                const void *body,
                                size_t body_size,
                                bus_writer_t *reply,
                                bus_error_t *err);
static inline bus_node_method_t
proto_storage_volumes_method(proto_storage_volumes_fn *fn)
{
    return (bus_node_method_t){PROTO_STORAGE_VOLUMES, NULL, (bus_typed_fn *) fn,
                               proto_storage_volumes_serve};
}

//  ---------------------------------------------------------------------------
//  storage.folder.create: makes an empty folder on a volume; an id that exists is a
//  conflict

typedef int (proto_storage_folder_create_fn)(void *arg,
                                             const proto_storage_folder_create_req_t *in,
                                             proto_storage_folder_create_rep_t *out,
                                             bus_rpc_request_t *req,
                                             bus_error_t *err);
int proto_storage_folder_create_serve(bus_typed_fn *fn,
                                      void *arg,
                                      bus_rpc_request_t *req,
                                      const void *body,
                                      size_t body_size,
                                      bus_writer_t *reply,
                                      bus_error_t *err);
static inline bus_node_method_t
proto_storage_folder_create_method(proto_storage_folder_create_fn *fn)
{
    return (bus_node_method_t){PROTO_STORAGE_FOLDER_CREATE, NULL, (bus_typed_fn *) fn,
                               proto_storage_folder_create_serve};
}

//  ---------------------------------------------------------------------------
//  storage.folder.delete: purges a folder: it is gone at once, its files are removed in
//  the background

typedef int (proto_storage_folder_delete_fn)(void *arg,
                                             const proto_storage_folder_delete_req_t *in,
                                             proto_storage_folder_delete_rep_t *out,
                                             bus_rpc_request_t *req,
                                             bus_error_t *err);
int proto_storage_folder_delete_serve(bus_typed_fn *fn,
                                      void *arg,
                                      bus_rpc_request_t *req,
                                      const void *body,
                                      size_t body_size,
                                      bus_writer_t *reply,
                                      bus_error_t *err);
static inline bus_node_method_t
proto_storage_folder_delete_method(proto_storage_folder_delete_fn *fn)
{
    return (bus_node_method_t){PROTO_STORAGE_FOLDER_DELETE, NULL, (bus_typed_fn *) fn,
                               proto_storage_folder_delete_serve};
}

//  ---------------------------------------------------------------------------
//  storage.folder.clone: copies a folder's tree (files, directories, symlinks as links;
//  not partial uploads) to a new folder; answers once the copy is done, the new folder
//  reading cloning meanwhile

typedef int (proto_storage_folder_clone_fn)(void *arg,
                                            const proto_storage_folder_clone_req_t *in,
                                            proto_storage_folder_clone_rep_t *out,
                                            bus_rpc_request_t *req,
                                            bus_error_t *err);
int proto_storage_folder_clone_serve(bus_typed_fn *fn,
                                     void *arg,
                                     bus_rpc_request_t *req,
                                     const void *body,
                                     size_t body_size,
                                     bus_writer_t *reply,
                                     bus_error_t *err);
static inline bus_node_method_t
proto_storage_folder_clone_method(proto_storage_folder_clone_fn *fn)
{
    return (bus_node_method_t){PROTO_STORAGE_FOLDER_CLONE, NULL, (bus_typed_fn *) fn,
                               proto_storage_folder_clone_serve};
}

//  ---------------------------------------------------------------------------
//  storage.folder.usage: a folder's usage and state; rescan scans it now and answers when
//  done

typedef int (proto_storage_folder_usage_fn)(void *arg,
                                            const proto_storage_folder_usage_req_t *in,
                                            proto_storage_folder_usage_rep_t *out,
                                            bus_rpc_request_t *req,
                                            bus_error_t *err);
int proto_storage_folder_usage_serve(bus_typed_fn *fn,
                                     void *arg,
                                     bus_rpc_request_t *req,
                                     const void *body,
                                     size_t body_size,
                                     bus_writer_t *reply,
                                     bus_error_t *err);
static inline bus_node_method_t
proto_storage_folder_usage_method(proto_storage_folder_usage_fn *fn)
{
    return (bus_node_method_t){PROTO_STORAGE_FOLDER_USAGE, NULL, (bus_typed_fn *) fn,
                               proto_storage_folder_usage_serve};
}

//  ---------------------------------------------------------------------------
//  storage.folder.quota: sets a folder's quota (0: none); whether it is now over quota
//  follows from its last known usage

typedef int (proto_storage_folder_quota_fn)(void *arg,
                                            const proto_storage_folder_quota_req_t *in,
                                            proto_storage_folder_quota_rep_t *out,
                                            bus_rpc_request_t *req,
                                            bus_error_t *err);
int proto_storage_folder_quota_serve(bus_typed_fn *fn,
                                     void *arg,
                                     bus_rpc_request_t *req,
                                     const void *body,
                                     size_t body_size,
                                     bus_writer_t *reply,
                                     bus_error_t *err);
static inline bus_node_method_t
proto_storage_folder_quota_method(proto_storage_folder_quota_fn *fn)
{
    return (bus_node_method_t){PROTO_STORAGE_FOLDER_QUOTA, NULL, (bus_typed_fn *) fn,
                               proto_storage_folder_quota_serve};
}

//  ---------------------------------------------------------------------------
//  storage.folder.mount_path: the directory on the storage host that an agent bind-mounts
//  for a session

typedef int (proto_storage_folder_mount_path_fn)(void *arg,
                                                 const proto_storage_folder_mount_path_req_t *in,
                                                 proto_storage_folder_mount_path_rep_t *out,
                                                 bus_rpc_request_t *req,
                                                 bus_error_t *err);
int proto_storage_folder_mount_path_serve(bus_typed_fn *fn,
                                          void *arg,
                                          bus_rpc_request_t *req,
                                          const void *body,
                                          size_t body_size,
                                          bus_writer_t *reply,
                                          bus_error_t *err);
static inline bus_node_method_t
proto_storage_folder_mount_path_method(proto_storage_folder_mount_path_fn *fn)
{
    return (bus_node_method_t){PROTO_STORAGE_FOLDER_MOUNT_PATH, NULL, (bus_typed_fn *) fn,
                               proto_storage_folder_mount_path_serve};
}

//  ---------------------------------------------------------------------------
//  storage.files.list: one page of a directory, sorted by name; ask again with cursor set
//  to the reply's cursor while more is true

typedef int (proto_storage_files_list_fn)(void *arg,
                                          const proto_storage_files_list_req_t *in,
                                          proto_storage_files_list_rep_t *out,
                                          bus_rpc_request_t *req,
                                          bus_error_t *err);
int proto_storage_files_list_serve(bus_typed_fn *fn,
                                   void *arg,
                                   bus_rpc_request_t *req,
                                   const void *body,
                                   size_t body_size,
                                   bus_writer_t *reply,
                                   bus_error_t *err);
static inline bus_node_method_t
proto_storage_files_list_method(proto_storage_files_list_fn *fn)
{
    return (bus_node_method_t){PROTO_STORAGE_FILES_LIST, NULL, (bus_typed_fn *) fn,
                               proto_storage_files_list_serve};
}

//  ---------------------------------------------------------------------------
//  storage.files.read: the bytes of one small regular file of a folder (a model's
//  definition); INVALID when it is larger than max

typedef int (proto_storage_files_read_fn)(void *arg,
                                          const proto_storage_files_read_req_t *in,
                                          proto_storage_files_read_rep_t *out,
                                          bus_rpc_request_t *req,
                                          bus_error_t *err);
int proto_storage_files_read_serve(bus_typed_fn *fn,
                                   void *arg,
                                   bus_rpc_request_t *req,
                                   const void *body,
                                   size_t body_size,
                                   bus_writer_t *reply,
                                   bus_error_t *err);
static inline bus_node_method_t
proto_storage_files_read_method(proto_storage_files_read_fn *fn)
{
    return (bus_node_method_t){PROTO_STORAGE_FILES_READ, NULL, (bus_typed_fn *) fn,
                               proto_storage_files_read_serve};
}

//  ---------------------------------------------------------------------------
//  storage.files.mkdir: makes directories; answers each path's outcome (the request fails
//  only when the folder does)

typedef int (proto_storage_files_mkdir_fn)(void *arg,
                                           const proto_storage_files_mkdir_req_t *in,
                                           proto_storage_files_mkdir_rep_t *out,
                                           bus_rpc_request_t *req,
                                           bus_error_t *err);
int proto_storage_files_mkdir_serve(bus_typed_fn *fn,
                                    void *arg,
                                    bus_rpc_request_t *req,
                                    const void *body,
                                    size_t body_size,
                                    bus_writer_t *reply,
                                    bus_error_t *err);
static inline bus_node_method_t
proto_storage_files_mkdir_method(proto_storage_files_mkdir_fn *fn)
{
    return (bus_node_method_t){PROTO_STORAGE_FILES_MKDIR, NULL, (bus_typed_fn *) fn,
                               proto_storage_files_mkdir_serve};
}

//  ---------------------------------------------------------------------------
//  storage.files.rename: renames an entry within its directory; an existing new name is a
//  conflict

typedef int (proto_storage_files_rename_fn)(void *arg,
                                            const proto_storage_files_rename_req_t *in,
                                            proto_storage_files_rename_rep_t *out,
                                            bus_rpc_request_t *req,
                                            bus_error_t *err);
int proto_storage_files_rename_serve(bus_typed_fn *fn,
                                     void *arg,
                                     bus_rpc_request_t *req,
                                     const void *body,
                                     size_t body_size,
                                     bus_writer_t *reply,
                                     bus_error_t *err);
static inline bus_node_method_t
proto_storage_files_rename_method(proto_storage_files_rename_fn *fn)
{
    return (bus_node_method_t){PROTO_STORAGE_FILES_RENAME, NULL, (bus_typed_fn *) fn,
                               proto_storage_files_rename_serve};
}

//  ---------------------------------------------------------------------------
//  storage.files.move: moves an entry anywhere in the folder; a dst that is a directory
//  (it may end with /) receives the entry under its name; an existing destination is a
//  conflict

typedef int (proto_storage_files_move_fn)(void *arg,
                                          const proto_storage_files_move_req_t *in,
                                          proto_storage_files_move_rep_t *out,
                                          bus_rpc_request_t *req,
                                          bus_error_t *err);
int proto_storage_files_move_serve(bus_typed_fn *fn,
                                   void *arg,
                                   bus_rpc_request_t *req,
                                   const void *body,
                                   size_t body_size,
                                   bus_writer_t *reply,
                                   bus_error_t *err);
static inline bus_node_method_t
proto_storage_files_move_method(proto_storage_files_move_fn *fn)
{
    return (bus_node_method_t){PROTO_STORAGE_FILES_MOVE, NULL, (bus_typed_fn *) fn,
                               proto_storage_files_move_serve};
}

//  ---------------------------------------------------------------------------
//  storage.files.delete: deletes entries in order, stopping at the first that fails
//  (those before it stay deleted); a directory needs recursive unless empty

typedef int (proto_storage_files_delete_fn)(void *arg,
                                            const proto_storage_files_delete_req_t *in,
                                            proto_storage_files_delete_rep_t *out,
                                            bus_rpc_request_t *req,
                                            bus_error_t *err);
int proto_storage_files_delete_serve(bus_typed_fn *fn,
                                     void *arg,
                                     bus_rpc_request_t *req,
                                     const void *body,
                                     size_t body_size,
                                     bus_writer_t *reply,
                                     bus_error_t *err);
static inline bus_node_method_t
proto_storage_files_delete_method(proto_storage_files_delete_fn *fn)
{
    return (bus_node_method_t){PROTO_STORAGE_FILES_DELETE, NULL, (bus_typed_fn *) fn,
                               proto_storage_files_delete_serve};
}

//  ---------------------------------------------------------------------------
//  storage.files.fetch: downloads an http(s) URL into a folder on a job of its own and
//  answers at once with the job's id (storage.files.fetch_status follows it); the bytes
//  go to a staging file beside the folder and are renamed into path only once complete,
//  or, with unzip, path becomes a new directory holding the archive's entries, or, with
//  git, a new directory holding the tip of a repository cloned over git's smart HTTP,
//  every one confined beneath the folder as any write is. Refused (invalid): another
//  scheme than http or https, user information in the URL, a hostile path; conflict:
//  something at path already; unavailable: too many fetches running

typedef int (proto_storage_files_fetch_fn)(void *arg,
                                           const proto_storage_files_fetch_req_t *in,
                                           proto_storage_files_fetch_rep_t *out,
                                           bus_rpc_request_t *req,
                                           bus_error_t *err);
int proto_storage_files_fetch_serve(bus_typed_fn *fn,
                                    void *arg,
                                    bus_rpc_request_t *req,
                                    const void *body,
                                    size_t body_size,
                                    bus_writer_t *reply,
                                    bus_error_t *err);
static inline bus_node_method_t
proto_storage_files_fetch_method(proto_storage_files_fetch_fn *fn)
{
    return (bus_node_method_t){PROTO_STORAGE_FILES_FETCH, NULL, (bus_typed_fn *) fn,
                               proto_storage_files_fetch_serve};
}

//  ---------------------------------------------------------------------------
//  storage.files.fetch_status: where a fetch stands; a finished one is answered for
//  fetch.keep_s seconds after it ended

typedef int (proto_storage_files_fetch_status_fn)(void *arg,
                                                  const proto_storage_files_fetch_status_req_t *in,
                                                  proto_storage_files_fetch_status_rep_t *out,
                                                  bus_rpc_request_t *req,
                                                  bus_error_t *err);
int proto_storage_files_fetch_status_serve(bus_typed_fn *fn,
                                           void *arg,
                                           bus_rpc_request_t *req,
                                           const void *body,
                                           size_t body_size,
                                           bus_writer_t *reply,
                                           bus_error_t *err);
static inline bus_node_method_t
proto_storage_files_fetch_status_method(proto_storage_files_fetch_status_fn *fn)
{
    return (bus_node_method_t){PROTO_STORAGE_FILES_FETCH_STATUS, NULL,
                               (bus_typed_fn *) fn,
                               proto_storage_files_fetch_status_serve};
}

//  ---------------------------------------------------------------------------
//  test.echo: replies with what it was sent

typedef int (proto_test_echo_fn)(void *arg,
                                 const proto_test_echo_req_t *in,
                                 proto_test_echo_rep_t *out,
                                 bus_rpc_request_t *req,
                                 bus_error_t *err);
int proto_test_echo_serve(bus_typed_fn *fn,
                          void *arg,
                          bus_rpc_request_t *req,
                          const void *body,
                          size_t body_size,
                          bus_writer_t *reply,
                          bus_error_t *err);
static inline bus_node_method_t
proto_test_echo_method(proto_test_echo_fn *fn)
{
    return (bus_node_method_t){PROTO_TEST_ECHO, NULL, (bus_typed_fn *) fn,
                               proto_test_echo_serve};
}

//  ---------------------------------------------------------------------------
//  test.slow: replies after a delay, to test timeouts

typedef int (proto_test_slow_fn)(void *arg,
                                 const proto_test_slow_req_t *in,
                                 proto_test_slow_rep_t *out,
                                 bus_rpc_request_t *req,
                                 bus_error_t *err);
int proto_test_slow_serve(bus_typed_fn *fn,
                          void *arg,
                          bus_rpc_request_t *req,
                          const void *body,
                          size_t body_size,
                          bus_writer_t *reply,
                          bus_error_t *err);
static inline bus_node_method_t
proto_test_slow_method(proto_test_slow_fn *fn)
{
    return (bus_node_method_t){PROTO_TEST_SLOW, NULL, (bus_typed_fn *) fn,
                               proto_test_slow_serve};
}

//  ---------------------------------------------------------------------------
//  wsproxy.close: closes every route of a session (all apps, all users) and their open
//  connections at once, frees their ports and forgets them; a session with no route is
//  not an error

typedef int (proto_wsproxy_close_fn)(void *arg,
                                     const proto_wsproxy_close_req_t *in,
                                     proto_wsproxy_close_rep_t *out,
                                     bus_rpc_request_t *req,
                                     bus_error_t *err);
int proto_wsproxy_close_serve(bus_typed_fn *fn,
                              void *arg,
                              bus_rpc_request_t *req,
                              const void *body,
                              size_t body_size,
                              bus_writer_t *reply,
                              bus_error_t *err);
static inline bus_node_method_t
proto_wsproxy_close_method(proto_wsproxy_close_fn *fn)
{
    return (bus_node_method_t){PROTO_WSPROXY_CLOSE, NULL, (bus_typed_fn *) fn,
                               proto_wsproxy_close_serve};
}

//  ---------------------------------------------------------------------------
//  wsproxy.endpoint.set: serves a model service's endpoint on a port of its own (the same
//  one for as long as it exists, across restarts) balancing requests over its healthy
//  replicas, which replace the ones set before; the caller sends the whole healthy set on
//  every change

typedef int (proto_wsproxy_endpoint_set_fn)(void *arg,
                                            const proto_wsproxy_endpoint_set_req_t *in,
                                            proto_wsproxy_endpoint_set_rep_t *out,
                                            bus_rpc_request_t *req,
                                            bus_error_t *err);
int proto_wsproxy_endpoint_set_serve(bus_typed_fn *fn,
                                     void *arg,
                                     bus_rpc_request_t *req,
                                     const void *body,
                                     size_t body_size,
                                     bus_writer_t *reply,
                                     bus_error_t *err);
static inline bus_node_method_t
proto_wsproxy_endpoint_set_method(proto_wsproxy_endpoint_set_fn *fn)
{
    return (bus_node_method_t){PROTO_WSPROXY_ENDPOINT_SET, NULL, (bus_typed_fn *) fn,
                               proto_wsproxy_endpoint_set_serve};
}

//  ---------------------------------------------------------------------------
//  wsproxy.endpoint.remove: stops serving an endpoint: its port closes with its
//  connections and is free again; an unknown endpoint is not an error

typedef int (proto_wsproxy_endpoint_remove_fn)(void *arg,
                                               const proto_wsproxy_endpoint_remove_req_t *in,
                                               proto_wsproxy_endpoint_remove_rep_t *out,
                                               bus_rpc_request_t *req,
                                               bus_error_t *err);
int proto_wsproxy_endpoint_remove_serve(bus_typed_fn *fn,
                                        void *arg,
                                        bus_rpc_request_t *req,
                                        const void *body,
                                        size_t body_size,
                                        bus_writer_t *reply,
                                        bus_error_t *err);
static inline bus_node_method_t
proto_wsproxy_endpoint_remove_method(proto_wsproxy_endpoint_remove_fn *fn)
{
    return (bus_node_method_t){PROTO_WSPROXY_ENDPOINT_REMOVE, NULL, (bus_typed_fn *) fn,
                               proto_wsproxy_endpoint_remove_serve};
}

//  ---------------------------------------------------------------------------
//  wsproxy.endpoint.requests: the request counters of endpoints, read by the gateway now
//  and then to turn into requests per second for autoscaling; an unknown endpoint answers
//  found false

typedef int (proto_wsproxy_endpoint_requests_fn)(void *arg,
                                                 const proto_wsproxy_endpoint_requests_req_t *in,
                                                 proto_wsproxy_endpoint_requests_rep_t *out,
                                                 bus_rpc_request_t *req,
                                                 bus_error_t *err);
int proto_wsproxy_endpoint_requests_serve(bus_typed_fn *fn,
                                          void *arg,
                                          bus_rpc_request_t *req,
                                          const void *body,
                                          size_t body_size,
                                          bus_writer_t *reply,
                                          bus_error_t *err);
static inline bus_node_method_t
proto_wsproxy_endpoint_requests_method(proto_wsproxy_endpoint_requests_fn *fn)
{
    return (bus_node_method_t){PROTO_WSPROXY_ENDPOINT_REQUESTS, NULL, (bus_typed_fn *) fn,
                               proto_wsproxy_endpoint_requests_serve};
}

#endif
