//  GENERATED FROM proto/*.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_serve - the adapters of the typed handlers

    One per method, as proto_serve.h describes them.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

//  A reply that could not be written: checked is what its check said. One
//  its handler filled against the schema is the service's fault, not its
//  caller's, so it is logged and answered as internal.
static int
s_bad_reply(int checked, bus_error_t *err)
{
    if (checked == BUS_OK)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    bus_log_error("reply refused by its schema: %s", err->detail);
    err->status = BUS_STATUS_INTERNAL;
    return BUS_STATUS_INTERNAL;
}

int
proto_accounting_usage_serve(bus_typed_fn *fn,
                             void *arg,
                             bus_rpc_request_t *req,
                             const void *body,
                             size_t body_size,
                             bus_writer_t *reply,
                             bus_error_t *err)
{
    proto_accounting_usage_req_t in;
    int rc = proto_accounting_usage_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_accounting_usage_rep_t out;
    proto_accounting_usage_rep_init(&out);
    rc = ((proto_accounting_usage_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_accounting_usage_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_accounting_usage_rep_check(&out, err), err);
    proto_accounting_usage_rep_clear(&out);
    proto_accounting_usage_req_clear(&in);
    return rc;
}

int
proto_accounting_stats_user_serve(bus_typed_fn *fn,
                                  void *arg,
                                  bus_rpc_request_t *req,
                                  const void *body,
                                  size_t body_size,
                                  bus_writer_t *reply,
                                  bus_error_t *err)
{
    proto_accounting_stats_user_req_t in;
    int rc = proto_accounting_stats_user_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_accounting_stats_user_rep_t out;
    proto_accounting_stats_user_rep_init(&out);
    rc = ((proto_accounting_stats_user_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_accounting_stats_user_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_accounting_stats_user_rep_check(&out, err), err);
    proto_accounting_stats_user_rep_clear(&out);
    proto_accounting_stats_user_req_clear(&in);
    return rc;
}

int
proto_accounting_stats_all_serve(bus_typed_fn *fn,
                                 void *arg,
                                 bus_rpc_request_t *req,
                                 const void *body,
                                 size_t body_size,
                                 bus_writer_t *reply,
                                 bus_error_t *err)
{
    proto_accounting_stats_all_req_t in;
    int rc = proto_accounting_stats_all_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_accounting_stats_all_rep_t out;
    proto_accounting_stats_all_rep_init(&out);
    rc = ((proto_accounting_stats_all_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_accounting_stats_all_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_accounting_stats_all_rep_check(&out, err), err);
    proto_accounting_stats_all_rep_clear(&out);
    proto_accounting_stats_all_req_clear(&in);
    return rc;
}

int
proto_accounting_recalculate_serve(bus_typed_fn *fn,
                                   void *arg,
                                   bus_rpc_request_t *req,
                                   const void *body,
                                   size_t body_size,
                                   bus_writer_t *reply,
                                   bus_error_t *err)
{
    proto_accounting_recalculate_req_t in;
    int rc = proto_accounting_recalculate_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_accounting_recalculate_rep_t out;
    proto_accounting_recalculate_rep_init(&out);
    rc = ((proto_accounting_recalculate_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_accounting_recalculate_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_accounting_recalculate_rep_check(&out, err), err);
    proto_accounting_recalculate_rep_clear(&out);
    proto_accounting_recalculate_req_clear(&in);
    return rc;
}

int
proto_accounting_live_serve(bus_typed_fn *fn,
                            void *arg,
                            bus_rpc_request_t *req,
                            const void *body,
                            size_t body_size,
                            bus_writer_t *reply,
                            bus_error_t *err)
{
    proto_accounting_live_req_t in;
    int rc = proto_accounting_live_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_accounting_live_rep_t out;
    proto_accounting_live_rep_init(&out);
    rc = ((proto_accounting_live_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_accounting_live_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_accounting_live_rep_check(&out, err), err);
    proto_accounting_live_rep_clear(&out);
    proto_accounting_live_req_clear(&in);
    return rc;
}

int
proto_bus_replay_serve(bus_typed_fn *fn,
                       void *arg,
                       bus_rpc_request_t *req,
                       const void *body,
                       size_t body_size,
                       bus_writer_t *reply,
                       bus_error_t *err)
{
    proto_bus_replay_req_t in;
    int rc = proto_bus_replay_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_bus_replay_rep_t out;
    proto_bus_replay_rep_init(&out);
    rc = ((proto_bus_replay_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_bus_replay_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_bus_replay_rep_check(&out, err), err);
    proto_bus_replay_rep_clear(&out);
    proto_bus_replay_req_clear(&in);
    return rc;
}

int
proto_image_rescan_serve(bus_typed_fn *fn,
                         void *arg,
                         bus_rpc_request_t *req,
                         const void *body,
                         size_t body_size,
                         bus_writer_t *reply,
                         bus_error_t *err)
{
    proto_image_rescan_req_t in;
    int rc = proto_image_rescan_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_image_rescan_rep_t out;
    proto_image_rescan_rep_init(&out);
    rc = ((proto_image_rescan_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_image_rescan_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_image_rescan_rep_check(&out, err), err);
    proto_image_rescan_rep_clear(&out);
    proto_image_rescan_req_clear(&in);
    return rc;
}

int
proto_kernel_create_serve(bus_typed_fn *fn,
                          void *arg,
                          bus_rpc_request_t *req,
                          const void *body,
                          size_t body_size,
                          bus_writer_t *reply,
                          bus_error_t *err)
{
    proto_kernel_create_req_t in;
    int rc = proto_kernel_create_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_kernel_create_rep_t out;
    proto_kernel_create_rep_init(&out);
    rc = ((proto_kernel_create_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_kernel_create_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_kernel_create_rep_check(&out, err), err);
    proto_kernel_create_rep_clear(&out);
    proto_kernel_create_req_clear(&in);
    return rc;
}

int
proto_kernel_hosts_serve(bus_typed_fn *fn,
                         void *arg,
                         bus_rpc_request_t *req,
                         const void *body,
                         size_t body_size,
                         bus_writer_t *reply,
                         bus_error_t *err)
{
    proto_kernel_hosts_req_t in;
    int rc = proto_kernel_hosts_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_kernel_hosts_rep_t out;
    proto_kernel_hosts_rep_init(&out);
    rc = ((proto_kernel_hosts_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_kernel_hosts_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_kernel_hosts_rep_check(&out, err), err);
    proto_kernel_hosts_rep_clear(&out);
    proto_kernel_hosts_req_clear(&in);
    return rc;
}

int
proto_kernel_destroy_serve(bus_typed_fn *fn,
                           void *arg,
                           bus_rpc_request_t *req,
                           const void *body,
                           size_t body_size,
                           bus_writer_t *reply,
                           bus_error_t *err)
{
    proto_kernel_destroy_req_t in;
    int rc = proto_kernel_destroy_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_kernel_destroy_rep_t out;
    proto_kernel_destroy_rep_init(&out);
    rc = ((proto_kernel_destroy_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_kernel_destroy_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_kernel_destroy_rep_check(&out, err), err);
    proto_kernel_destroy_rep_clear(&out);
    proto_kernel_destroy_req_clear(&in);
    return rc;
}

int
proto_kernel_restart_serve(bus_typed_fn *fn,
                           void *arg,
                           bus_rpc_request_t *req,
                           const void *body,
                           size_t body_size,
                           bus_writer_t *reply,
                           bus_error_t *err)
{
    proto_kernel_restart_req_t in;
    int rc = proto_kernel_restart_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_kernel_restart_rep_t out;
    proto_kernel_restart_rep_init(&out);
    rc = ((proto_kernel_restart_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_kernel_restart_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_kernel_restart_rep_check(&out, err), err);
    proto_kernel_restart_rep_clear(&out);
    proto_kernel_restart_req_clear(&in);
    return rc;
}

int
proto_kernel_execute_serve(bus_typed_fn *fn,
                           void *arg,
                           bus_rpc_request_t *req,
                           const void *body,
                           size_t body_size,
                           bus_writer_t *reply,
                           bus_error_t *err)
{
    proto_kernel_execute_req_t in;
    int rc = proto_kernel_execute_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_kernel_execute_rep_t out;
    proto_kernel_execute_rep_init(&out);
    rc = ((proto_kernel_execute_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_kernel_execute_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_kernel_execute_rep_check(&out, err), err);
    proto_kernel_execute_rep_clear(&out);
    proto_kernel_execute_req_clear(&in);
    return rc;
}

int
proto_kernel_interrupt_serve(bus_typed_fn *fn,
                             void *arg,
                             bus_rpc_request_t *req,
                             const void *body,
                             size_t body_size,
                             bus_writer_t *reply,
                             bus_error_t *err)
{
    proto_kernel_interrupt_req_t in;
    int rc = proto_kernel_interrupt_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_kernel_interrupt_rep_t out;
    proto_kernel_interrupt_rep_init(&out);
    rc = ((proto_kernel_interrupt_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_kernel_interrupt_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_kernel_interrupt_rep_check(&out, err), err);
    proto_kernel_interrupt_rep_clear(&out);
    proto_kernel_interrupt_req_clear(&in);
    return rc;
}

int
proto_kernel_logs_serve(bus_typed_fn *fn,
                        void *arg,
                        bus_rpc_request_t *req,
                        const void *body,
                        size_t body_size,
                        bus_writer_t *reply,
                        bus_error_t *err)
{
    proto_kernel_logs_req_t in;
    int rc = proto_kernel_logs_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_kernel_logs_rep_t out;
    proto_kernel_logs_rep_init(&out);
    rc = ((proto_kernel_logs_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_kernel_logs_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_kernel_logs_rep_check(&out, err), err);
    proto_kernel_logs_rep_clear(&out);
    proto_kernel_logs_req_clear(&in);
    return rc;
}

int
proto_kernel_list_serve(bus_typed_fn *fn,
                        void *arg,
                        bus_rpc_request_t *req,
                        const void *body,
                        size_t body_size,
                        bus_writer_t *reply,
                        bus_error_t *err)
{
    proto_kernel_list_req_t in;
    int rc = proto_kernel_list_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_kernel_list_rep_t out;
    proto_kernel_list_rep_init(&out);
    rc = ((proto_kernel_list_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_kernel_list_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_kernel_list_rep_check(&out, err), err);
    proto_kernel_list_rep_clear(&out);
    proto_kernel_list_req_clear(&in);
    return rc;
}

int
proto_kernel_upload_serve(bus_typed_fn *fn,
                          void *arg,
                          bus_rpc_request_t *req,
                          const void *body,
                          size_t body_size,
                          bus_writer_t *reply,
                          bus_error_t *err)
{
    proto_kernel_upload_req_t in;
    int rc = proto_kernel_upload_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_kernel_upload_rep_t out;
    proto_kernel_upload_rep_init(&out);
    rc = ((proto_kernel_upload_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_kernel_upload_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_kernel_upload_rep_check(&out, err), err);
    proto_kernel_upload_rep_clear(&out);
    proto_kernel_upload_req_clear(&in);
    return rc;
}

int
proto_kernel_download_serve(bus_typed_fn *fn,
                            void *arg,
                            bus_rpc_request_t *req,
                            const void *body,
                            size_t body_size,
                            bus_writer_t *reply,
                            bus_error_t *err)
{
    proto_kernel_download_req_t in;
    int rc = proto_kernel_download_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_kernel_download_rep_t out;
    proto_kernel_download_rep_init(&out);
    rc = ((proto_kernel_download_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_kernel_download_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_kernel_download_rep_check(&out, err), err);
    proto_kernel_download_rep_clear(&out);
    proto_kernel_download_req_clear(&in);
    return rc;
}

int
proto_kernel_download_single_serve(bus_typed_fn *fn,
                                   void *arg,
                                   bus_rpc_request_t *req,
                                   const void *body,
                                   size_t body_size,
                                   bus_writer_t *reply,
                                   bus_error_t *err)
{
    proto_kernel_download_single_req_t in;
    int rc = proto_kernel_download_single_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_kernel_download_single_rep_t out;
    proto_kernel_download_single_rep_init(&out);
    rc = ((proto_kernel_download_single_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_kernel_download_single_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_kernel_download_single_rep_check(&out, err), err);
    proto_kernel_download_single_rep_clear(&out);
    proto_kernel_download_single_req_clear(&in);
    return rc;
}

int
proto_kernel_list_files_serve(bus_typed_fn *fn,
                              void *arg,
                              bus_rpc_request_t *req,
                              const void *body,
                              size_t body_size,
                              bus_writer_t *reply,
                              bus_error_t *err)
{
    proto_kernel_list_files_req_t in;
    int rc = proto_kernel_list_files_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_kernel_list_files_rep_t out;
    proto_kernel_list_files_rep_init(&out);
    rc = ((proto_kernel_list_files_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_kernel_list_files_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_kernel_list_files_rep_check(&out, err), err);
    proto_kernel_list_files_rep_clear(&out);
    proto_kernel_list_files_req_clear(&in);
    return rc;
}

int
proto_kernel_pty_write_serve(bus_typed_fn *fn,
                             void *arg,
                             bus_rpc_request_t *req,
                             const void *body,
                             size_t body_size,
                             bus_writer_t *reply,
                             bus_error_t *err)
{
    proto_kernel_pty_write_req_t in;
    int rc = proto_kernel_pty_write_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_kernel_pty_write_rep_t out;
    proto_kernel_pty_write_rep_init(&out);
    rc = ((proto_kernel_pty_write_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_kernel_pty_write_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_kernel_pty_write_rep_check(&out, err), err);
    proto_kernel_pty_write_rep_clear(&out);
    proto_kernel_pty_write_req_clear(&in);
    return rc;
}

int
proto_kernel_pty_read_serve(bus_typed_fn *fn,
                            void *arg,
                            bus_rpc_request_t *req,
                            const void *body,
                            size_t body_size,
                            bus_writer_t *reply,
                            bus_error_t *err)
{
    proto_kernel_pty_read_req_t in;
    int rc = proto_kernel_pty_read_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_kernel_pty_read_rep_t out;
    proto_kernel_pty_read_rep_init(&out);
    rc = ((proto_kernel_pty_read_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_kernel_pty_read_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_kernel_pty_read_rep_check(&out, err), err);
    proto_kernel_pty_read_rep_clear(&out);
    proto_kernel_pty_read_req_clear(&in);
    return rc;
}

int
proto_kernel_start_service_serve(bus_typed_fn *fn,
                                 void *arg,
                                 bus_rpc_request_t *req,
                                 const void *body,
                                 size_t body_size,
                                 bus_writer_t *reply,
                                 bus_error_t *err)
{
    proto_kernel_start_service_req_t in;
    int rc = proto_kernel_start_service_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_kernel_start_service_rep_t out;
    proto_kernel_start_service_rep_init(&out);
    rc = ((proto_kernel_start_service_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_kernel_start_service_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_kernel_start_service_rep_check(&out, err), err);
    proto_kernel_start_service_rep_clear(&out);
    proto_kernel_start_service_req_clear(&in);
    return rc;
}

int
proto_registry_register_serve(bus_typed_fn *fn,
                              void *arg,
                              bus_rpc_request_t *req,
                              const void *body,
                              size_t body_size,
                              bus_writer_t *reply,
                              bus_error_t *err)
{
    proto_registry_register_req_t in;
    int rc = proto_registry_register_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_registry_register_rep_t out;
    proto_registry_register_rep_init(&out);
    rc = ((proto_registry_register_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_registry_register_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_registry_register_rep_check(&out, err), err);
    proto_registry_register_rep_clear(&out);
    proto_registry_register_req_clear(&in);
    return rc;
}

int
proto_registry_heartbeat_serve(bus_typed_fn *fn,
                               void *arg,
                               bus_rpc_request_t *req,
                               const void *body,
                               size_t body_size,
                               bus_writer_t *reply,
                               bus_error_t *err)
{
    proto_registry_heartbeat_req_t in;
    int rc = proto_registry_heartbeat_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_registry_heartbeat_rep_t out;
    proto_registry_heartbeat_rep_init(&out);
    rc = ((proto_registry_heartbeat_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_registry_heartbeat_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_registry_heartbeat_rep_check(&out, err), err);
    proto_registry_heartbeat_rep_clear(&out);
    proto_registry_heartbeat_req_clear(&in);
    return rc;
}

int
proto_registry_unregister_serve(bus_typed_fn *fn,
                                void *arg,
                                bus_rpc_request_t *req,
                                const void *body,
                                size_t body_size,
                                bus_writer_t *reply,
                                bus_error_t *err)
{
    proto_registry_unregister_req_t in;
    int rc = proto_registry_unregister_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_registry_unregister_rep_t out;
    proto_registry_unregister_rep_init(&out);
    rc = ((proto_registry_unregister_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_registry_unregister_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_registry_unregister_rep_check(&out, err), err);
    proto_registry_unregister_rep_clear(&out);
    proto_registry_unregister_req_clear(&in);
    return rc;
}

int
proto_registry_peers_serve(bus_typed_fn *fn,
                           void *arg,
                           bus_rpc_request_t *req,
                           const void *body,
                           size_t body_size,
                           bus_writer_t *reply,
                           bus_error_t *err)
{
    proto_registry_peers_req_t in;
    int rc = proto_registry_peers_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_registry_peers_rep_t out;
    proto_registry_peers_rep_init(&out);
    rc = ((proto_registry_peers_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_registry_peers_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_registry_peers_rep_check(&out, err), err);
    proto_registry_peers_rep_clear(&out);
    proto_registry_peers_req_clear(&in);
    return rc;
}

int
proto_scheduler_agents_serve(bus_typed_fn *fn,
                             void *arg,
                             bus_rpc_request_t *req,
                             const void *body,
                             size_t body_size,
                             bus_writer_t *reply,
                             bus_error_t *err)
{
    proto_scheduler_agents_req_t in;
    int rc = proto_scheduler_agents_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_scheduler_agents_rep_t out;
    proto_scheduler_agents_rep_init(&out);
    rc = ((proto_scheduler_agents_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_scheduler_agents_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_scheduler_agents_rep_check(&out, err), err);
    proto_scheduler_agents_rep_clear(&out);
    proto_scheduler_agents_req_clear(&in);
    return rc;
}

int
proto_scheduler_usage_serve(bus_typed_fn *fn,
                            void *arg,
                            bus_rpc_request_t *req,
                            const void *body,
                            size_t body_size,
                            bus_writer_t *reply,
                            bus_error_t *err)
{
    proto_scheduler_usage_req_t in;
    int rc = proto_scheduler_usage_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_scheduler_usage_rep_t out;
    proto_scheduler_usage_rep_init(&out);
    rc = ((proto_scheduler_usage_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_scheduler_usage_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_scheduler_usage_rep_check(&out, err), err);
    proto_scheduler_usage_rep_clear(&out);
    proto_scheduler_usage_req_clear(&in);
    return rc;
}

int
proto_scheduler_invariant_serve(bus_typed_fn *fn,
                                void *arg,
                                bus_rpc_request_t *req,
                                const void *body,
                                size_t body_size,
                                bus_writer_t *reply,
                                bus_error_t *err)
{
    proto_scheduler_invariant_req_t in;
    int rc = proto_scheduler_invariant_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_scheduler_invariant_rep_t out;
    proto_scheduler_invariant_rep_init(&out);
    rc = ((proto_scheduler_invariant_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_scheduler_invariant_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_scheduler_invariant_rep_check(&out, err), err);
    proto_scheduler_invariant_rep_clear(&out);
    proto_scheduler_invariant_req_clear(&in);
    return rc;
}

int
proto_scheduler_recalculate_serve(bus_typed_fn *fn,
                                  void *arg,
                                  bus_rpc_request_t *req,
                                  const void *body,
                                  size_t body_size,
                                  bus_writer_t *reply,
                                  bus_error_t *err)
{
    proto_scheduler_recalculate_req_t in;
    int rc = proto_scheduler_recalculate_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_scheduler_recalculate_rep_t out;
    proto_scheduler_recalculate_rep_init(&out);
    rc = ((proto_scheduler_recalculate_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_scheduler_recalculate_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_scheduler_recalculate_rep_check(&out, err), err);
    proto_scheduler_recalculate_rep_clear(&out);
    proto_scheduler_recalculate_req_clear(&in);
    return rc;
}

int
proto_scheduler_schedulable_serve(bus_typed_fn *fn,
                                  void *arg,
                                  bus_rpc_request_t *req,
                                  const void *body,
                                  size_t body_size,
                                  bus_writer_t *reply,
                                  bus_error_t *err)
{
    proto_scheduler_schedulable_req_t in;
    int rc = proto_scheduler_schedulable_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_scheduler_schedulable_rep_t out;
    proto_scheduler_schedulable_rep_init(&out);
    rc = ((proto_scheduler_schedulable_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_scheduler_schedulable_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_scheduler_schedulable_rep_check(&out, err), err);
    proto_scheduler_schedulable_rep_clear(&out);
    proto_scheduler_schedulable_req_clear(&in);
    return rc;
}

int
proto_scheduler_concurrency_serve(bus_typed_fn *fn,
                                  void *arg,
                                  bus_rpc_request_t *req,
                                  const void *body,
                                  size_t body_size,
                                  bus_writer_t *reply,
                                  bus_error_t *err)
{
    proto_scheduler_concurrency_req_t in;
    int rc = proto_scheduler_concurrency_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_scheduler_concurrency_rep_t out;
    proto_scheduler_concurrency_rep_init(&out);
    rc = ((proto_scheduler_concurrency_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_scheduler_concurrency_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_scheduler_concurrency_rep_check(&out, err), err);
    proto_scheduler_concurrency_rep_clear(&out);
    proto_scheduler_concurrency_req_clear(&in);
    return rc;
}

int
proto_service_health_serve(bus_typed_fn *fn,
                           void *arg,
                           bus_rpc_request_t *req,
                           const void *body,
                           size_t body_size,
                           bus_writer_t *reply,
                           bus_error_t *err)
{
    proto_service_health_req_t in;
    int rc = proto_service_health_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_service_health_rep_t out;
    proto_service_health_rep_init(&out);
    rc = ((proto_service_health_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_service_health_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_service_health_rep_check(&out, err), err);
    proto_service_health_rep_clear(&out);
    proto_service_health_req_clear(&in);
    return rc;
}

int
proto_session_create_serve(bus_typed_fn *fn,
                           void *arg,
                           bus_rpc_request_t *req,
                           const void *body,
                           size_t body_size,
                           bus_writer_t *reply,
                           bus_error_t *err)
{
    proto_session_create_req_t in;
    int rc = proto_session_create_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_session_create_rep_t out;
    proto_session_create_rep_init(&out);
    rc = ((proto_session_create_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_session_create_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_session_create_rep_check(&out, err), err);
    proto_session_create_rep_clear(&out);
    proto_session_create_req_clear(&in);
    return rc;
}

int
proto_session_destroy_serve(bus_typed_fn *fn,
                            void *arg,
                            bus_rpc_request_t *req,
                            const void *body,
                            size_t body_size,
                            bus_writer_t *reply,
                            bus_error_t *err)
{
    proto_session_destroy_req_t in;
    int rc = proto_session_destroy_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_session_destroy_rep_t out;
    proto_session_destroy_rep_init(&out);
    rc = ((proto_session_destroy_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_session_destroy_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_session_destroy_rep_check(&out, err), err);
    proto_session_destroy_rep_clear(&out);
    proto_session_destroy_req_clear(&in);
    return rc;
}

int
proto_session_get_serve(bus_typed_fn *fn,
                        void *arg,
                        bus_rpc_request_t *req,
                        const void *body,
                        size_t body_size,
                        bus_writer_t *reply,
                        bus_error_t *err)
{
    proto_session_get_req_t in;
    int rc = proto_session_get_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_session_get_rep_t out;
    proto_session_get_rep_init(&out);
    rc = ((proto_session_get_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_session_get_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_session_get_rep_check(&out, err), err);
    proto_session_get_rep_clear(&out);
    proto_session_get_req_clear(&in);
    return rc;
}

int
proto_session_rename_serve(bus_typed_fn *fn,
                           void *arg,
                           bus_rpc_request_t *req,
                           const void *body,
                           size_t body_size,
                           bus_writer_t *reply,
                           bus_error_t *err)
{
    proto_session_rename_req_t in;
    int rc = proto_session_rename_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_session_rename_rep_t out;
    proto_session_rename_rep_init(&out);
    rc = ((proto_session_rename_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_session_rename_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_session_rename_rep_check(&out, err), err);
    proto_session_rename_rep_clear(&out);
    proto_session_rename_req_clear(&in);
    return rc;
}

int
proto_session_restart_serve(bus_typed_fn *fn,
                            void *arg,
                            bus_rpc_request_t *req,
                            const void *body,
                            size_t body_size,
                            bus_writer_t *reply,
                            bus_error_t *err)
{
    proto_session_restart_req_t in;
    int rc = proto_session_restart_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_session_restart_rep_t out;
    proto_session_restart_rep_init(&out);
    rc = ((proto_session_restart_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_session_restart_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_session_restart_rep_check(&out, err), err);
    proto_session_restart_rep_clear(&out);
    proto_session_restart_req_clear(&in);
    return rc;
}

int
proto_session_list_serve(bus_typed_fn *fn,
                         void *arg,
                         bus_rpc_request_t *req,
                         const void *body,
                         size_t body_size,
                         bus_writer_t *reply,
                         bus_error_t *err)
{
    proto_session_list_req_t in;
    int rc = proto_session_list_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_session_list_rep_t out;
    proto_session_list_rep_init(&out);
    rc = ((proto_session_list_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_session_list_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_session_list_rep_check(&out, err), err);
    proto_session_list_rep_clear(&out);
    proto_session_list_req_clear(&in);
    return rc;
}

int
proto_storage_volumes_serve(bus_typed_fn *fn,
                            void *arg,
                            bus_rpc_request_t *req,
                            const void *body,
                            size_t body_size,
                            bus_writer_t *reply,
                            bus_error_t *err)
{
    proto_storage_volumes_req_t in;
    int rc = proto_storage_volumes_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_storage_volumes_rep_t out;
    proto_storage_volumes_rep_init(&out);
    rc = ((proto_storage_volumes_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_storage_volumes_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_storage_volumes_rep_check(&out, err), err);
    proto_storage_volumes_rep_clear(&out);
    proto_storage_volumes_req_clear(&in);
    return rc;
}

int
proto_storage_folder_create_serve(bus_typed_fn *fn,
                                  void *arg,
                                  bus_rpc_request_t *req,
                                  const void *body,
                                  size_t body_size,
                                  bus_writer_t *reply,
                                  bus_error_t *err)
{
    proto_storage_folder_create_req_t in;
    int rc = proto_storage_folder_create_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_storage_folder_create_rep_t out;
    proto_storage_folder_create_rep_init(&out);
    rc = ((proto_storage_folder_create_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_storage_folder_create_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_storage_folder_create_rep_check(&out, err), err);
    proto_storage_folder_create_rep_clear(&out);
    proto_storage_folder_create_req_clear(&in);
    return rc;
}

int
proto_storage_folder_delete_serve(bus_typed_fn *fn,
                                  void *arg,
                                  bus_rpc_request_t *req,
                                  const void *body,
                                  size_t body_size,
                                  bus_writer_t *reply,
                                  bus_error_t *err)
{
    proto_storage_folder_delete_req_t in;
    int rc = proto_storage_folder_delete_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_storage_folder_delete_rep_t out;
    proto_storage_folder_delete_rep_init(&out);
    rc = ((proto_storage_folder_delete_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_storage_folder_delete_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_storage_folder_delete_rep_check(&out, err), err);
    proto_storage_folder_delete_rep_clear(&out);
    proto_storage_folder_delete_req_clear(&in);
    return rc;
}

int
proto_storage_folder_clone_serve(bus_typed_fn *fn,
                                 void *arg,
                                 bus_rpc_request_t *req,
                                 const void *body,
                                 size_t body_size,
                                 bus_writer_t *reply,
                                 bus_error_t *err)
{
    proto_storage_folder_clone_req_t in;
    int rc = proto_storage_folder_clone_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_storage_folder_clone_rep_t out;
    proto_storage_folder_clone_rep_init(&out);
    rc = ((proto_storage_folder_clone_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_storage_folder_clone_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_storage_folder_clone_rep_check(&out, err), err);
    proto_storage_folder_clone_rep_clear(&out);
    proto_storage_folder_clone_req_clear(&in);
    return rc;
}

int
proto_storage_folder_usage_serve(bus_typed_fn *fn,
                                 void *arg,
                                 bus_rpc_request_t *req,
                                 const void *body,
                                 size_t body_size,
                                 bus_writer_t *reply,
                                 bus_error_t *err)
{
    proto_storage_folder_usage_req_t in;
    int rc = proto_storage_folder_usage_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_storage_folder_usage_rep_t out;
    proto_storage_folder_usage_rep_init(&out);
    rc = ((proto_storage_folder_usage_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_storage_folder_usage_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_storage_folder_usage_rep_check(&out, err), err);
    proto_storage_folder_usage_rep_clear(&out);
    proto_storage_folder_usage_req_clear(&in);
    return rc;
}

int
proto_storage_folder_quota_serve(bus_typed_fn *fn,
                                 void *arg,
                                 bus_rpc_request_t *req,
                                 const void *body,
                                 size_t body_size,
                                 bus_writer_t *reply,
                                 bus_error_t *err)
{
    proto_storage_folder_quota_req_t in;
    int rc = proto_storage_folder_quota_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_storage_folder_quota_rep_t out;
    proto_storage_folder_quota_rep_init(&out);
    rc = ((proto_storage_folder_quota_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_storage_folder_quota_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_storage_folder_quota_rep_check(&out, err), err);
    proto_storage_folder_quota_rep_clear(&out);
    proto_storage_folder_quota_req_clear(&in);
    return rc;
}

int
proto_storage_folder_mount_path_serve(bus_typed_fn *fn,
                                      void *arg,
                                      bus_rpc_request_t *req,
                                      const void *body,
                                      size_t body_size,
                                      bus_writer_t *reply,
                                      bus_error_t *err)
{
    proto_storage_folder_mount_path_req_t in;
    int rc = proto_storage_folder_mount_path_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_storage_folder_mount_path_rep_t out;
    proto_storage_folder_mount_path_rep_init(&out);
    rc = ((proto_storage_folder_mount_path_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_storage_folder_mount_path_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_storage_folder_mount_path_rep_check(&out, err), err);
    proto_storage_folder_mount_path_rep_clear(&out);
    proto_storage_folder_mount_path_req_clear(&in);
    return rc;
}

int
proto_storage_files_list_serve(bus_typed_fn *fn,
                               void *arg,
                               bus_rpc_request_t *req,
                               const void *body,
                               size_t body_size,
                               bus_writer_t *reply,
                               bus_error_t *err)
{
    proto_storage_files_list_req_t in;
    int rc = proto_storage_files_list_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_storage_files_list_rep_t out;
    proto_storage_files_list_rep_init(&out);
    rc = ((proto_storage_files_list_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_storage_files_list_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_storage_files_list_rep_check(&out, err), err);
    proto_storage_files_list_rep_clear(&out);
    proto_storage_files_list_req_clear(&in);
    return rc;
}

int
proto_storage_files_read_serve(bus_typed_fn *fn,
                               void *arg,
                               bus_rpc_request_t *req,
                               const void *body,
                               size_t body_size,
                               bus_writer_t *reply,
                               bus_error_t *err)
{
    proto_storage_files_read_req_t in;
    int rc = proto_storage_files_read_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_storage_files_read_rep_t out;
    proto_storage_files_read_rep_init(&out);
    rc = ((proto_storage_files_read_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_storage_files_read_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_storage_files_read_rep_check(&out, err), err);
    proto_storage_files_read_rep_clear(&out);
    proto_storage_files_read_req_clear(&in);
    return rc;
}

int
proto_storage_files_mkdir_serve(bus_typed_fn *fn,
                                void *arg,
                                bus_rpc_request_t *req,
                                const void *body,
                                size_t body_size,
                                bus_writer_t *reply,
                                bus_error_t *err)
{
    proto_storage_files_mkdir_req_t in;
    int rc = proto_storage_files_mkdir_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_storage_files_mkdir_rep_t out;
    proto_storage_files_mkdir_rep_init(&out);
    rc = ((proto_storage_files_mkdir_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_storage_files_mkdir_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_storage_files_mkdir_rep_check(&out, err), err);
    proto_storage_files_mkdir_rep_clear(&out);
    proto_storage_files_mkdir_req_clear(&in);
    return rc;
}

int
proto_storage_files_rename_serve(bus_typed_fn *fn,
                                 void *arg,
                                 bus_rpc_request_t *req,
                                 const void *body,
                                 size_t body_size,
                                 bus_writer_t *reply,
                                 bus_error_t *err)
{
    proto_storage_files_rename_req_t in;
    int rc = proto_storage_files_rename_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_storage_files_rename_rep_t out;
    proto_storage_files_rename_rep_init(&out);
    rc = ((proto_storage_files_rename_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_storage_files_rename_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_storage_files_rename_rep_check(&out, err), err);
    proto_storage_files_rename_rep_clear(&out);
    proto_storage_files_rename_req_clear(&in);
    return rc;
}

int
proto_storage_files_move_serve(bus_typed_fn *fn,
                               void *arg,
                               bus_rpc_request_t *req,
                               const void *body,
                               size_t body_size,
                               bus_writer_t *reply,
                               bus_error_t *err)
{
    proto_storage_files_move_req_t in;
    int rc = proto_storage_files_move_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_storage_files_move_rep_t out;
    proto_storage_files_move_rep_init(&out);
    rc = ((proto_storage_files_move_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_storage_files_move_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_storage_files_move_rep_check(&out, err), err);
    proto_storage_files_move_rep_clear(&out);
    proto_storage_files_move_req_clear(&in);
    return rc;
}

int
proto_storage_files_delete_serve(bus_typed_fn *fn,
                                 void *arg,
                                 bus_rpc_request_t *req,
                                 const void *body,
                                 size_t body_size,
                                 bus_writer_t *reply,
                                 bus_error_t *err)
{
    proto_storage_files_delete_req_t in;
    int rc = proto_storage_files_delete_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_storage_files_delete_rep_t out;
    proto_storage_files_delete_rep_init(&out);
    rc = ((proto_storage_files_delete_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_storage_files_delete_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_storage_files_delete_rep_check(&out, err), err);
    proto_storage_files_delete_rep_clear(&out);
    proto_storage_files_delete_req_clear(&in);
    return rc;
}

int
proto_storage_files_fetch_serve(bus_typed_fn *fn,
                                void *arg,
                                bus_rpc_request_t *req,
                                const void *body,
                                size_t body_size,
                                bus_writer_t *reply,
                                bus_error_t *err)
{
    proto_storage_files_fetch_req_t in;
    int rc = proto_storage_files_fetch_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_storage_files_fetch_rep_t out;
    proto_storage_files_fetch_rep_init(&out);
    rc = ((proto_storage_files_fetch_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_storage_files_fetch_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_storage_files_fetch_rep_check(&out, err), err);
    proto_storage_files_fetch_rep_clear(&out);
    proto_storage_files_fetch_req_clear(&in);
    return rc;
}

int
proto_storage_files_fetch_status_serve(bus_typed_fn *fn,
                                       void *arg,
                                       bus_rpc_request_t *req,
                                       const void *body,
                                       size_t body_size,
                                       bus_writer_t *reply,
                                       bus_error_t *err)
{
    proto_storage_files_fetch_status_req_t in;
    int rc = proto_storage_files_fetch_status_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_storage_files_fetch_status_rep_t out;
    proto_storage_files_fetch_status_rep_init(&out);
    rc = ((proto_storage_files_fetch_status_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_storage_files_fetch_status_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_storage_files_fetch_status_rep_check(&out, err), err);
    proto_storage_files_fetch_status_rep_clear(&out);
    proto_storage_files_fetch_status_req_clear(&in);
    return rc;
}

int
proto_test_echo_serve(bus_typed_fn *fn,
                      void *arg,
                      bus_rpc_request_t *req,
                      const void *body,
                      size_t body_size,
                      bus_writer_t *reply,
                      bus_error_t *err)
{
    proto_test_echo_req_t in;
    int rc = proto_test_echo_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_test_echo_rep_t out;
    proto_test_echo_rep_init(&out);
    rc = ((proto_test_echo_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_test_echo_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_test_echo_rep_check(&out, err), err);
    proto_test_echo_rep_clear(&out);
    proto_test_echo_req_clear(&in);
    return rc;
}

int
proto_test_slow_serve(bus_typed_fn *fn,
                      void *arg,
                      bus_rpc_request_t *req,
                      const void *body,
                      size_t body_size,
                      bus_writer_t *reply,
                      bus_error_t *err)
{
    proto_test_slow_req_t in;
    int rc = proto_test_slow_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_test_slow_rep_t out;
    proto_test_slow_rep_init(&out);
    rc = ((proto_test_slow_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_test_slow_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_test_slow_rep_check(&out, err), err);
    proto_test_slow_rep_clear(&out);
    proto_test_slow_req_clear(&in);
    return rc;
}

int
proto_wsproxy_close_serve(bus_typed_fn *fn,
                          void *arg,
                          bus_rpc_request_t *req,
                          const void *body,
                          size_t body_size,
                          bus_writer_t *reply,
                          bus_error_t *err)
{
    proto_wsproxy_close_req_t in;
    int rc = proto_wsproxy_close_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_wsproxy_close_rep_t out;
    proto_wsproxy_close_rep_init(&out);
    rc = ((proto_wsproxy_close_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_wsproxy_close_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_wsproxy_close_rep_check(&out, err), err);
    proto_wsproxy_close_rep_clear(&out);
    proto_wsproxy_close_req_clear(&in);
    return rc;
}

int
proto_wsproxy_endpoint_set_serve(bus_typed_fn *fn,
                                 void *arg,
                                 bus_rpc_request_t *req,
                                 const void *body,
                                 size_t body_size,
                                 bus_writer_t *reply,
                                 bus_error_t *err)
{
    proto_wsproxy_endpoint_set_req_t in;
    int rc = proto_wsproxy_endpoint_set_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_wsproxy_endpoint_set_rep_t out;
    proto_wsproxy_endpoint_set_rep_init(&out);
    rc = ((proto_wsproxy_endpoint_set_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_wsproxy_endpoint_set_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_wsproxy_endpoint_set_rep_check(&out, err), err);
    proto_wsproxy_endpoint_set_rep_clear(&out);
    proto_wsproxy_endpoint_set_req_clear(&in);
    return rc;
}

int
proto_wsproxy_endpoint_remove_serve(bus_typed_fn *fn,
                                    void *arg,
                                    bus_rpc_request_t *req,
                                    const void *body,
                                    size_t body_size,
                                    bus_writer_t *reply,
                                    bus_error_t *err)
{
    proto_wsproxy_endpoint_remove_req_t in;
    int rc = proto_wsproxy_endpoint_remove_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_wsproxy_endpoint_remove_rep_t out;
    proto_wsproxy_endpoint_remove_rep_init(&out);
    rc = ((proto_wsproxy_endpoint_remove_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_wsproxy_endpoint_remove_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_wsproxy_endpoint_remove_rep_check(&out, err), err);
    proto_wsproxy_endpoint_remove_rep_clear(&out);
    proto_wsproxy_endpoint_remove_req_clear(&in);
    return rc;
}

int
proto_wsproxy_endpoint_requests_serve(bus_typed_fn *fn,
                                      void *arg,
                                      bus_rpc_request_t *req,
                                      const void *body,
                                      size_t body_size,
                                      bus_writer_t *reply,
                                      bus_error_t *err)
{
    proto_wsproxy_endpoint_requests_req_t in;
    int rc = proto_wsproxy_endpoint_requests_req_decode(&in, body, body_size, err);
    if (rc != BUS_OK)
        return rc;
    proto_wsproxy_endpoint_requests_rep_t out;
    proto_wsproxy_endpoint_requests_rep_init(&out);
    rc = ((proto_wsproxy_endpoint_requests_fn *) fn)(arg, &in, &out, req, err);
    if (rc == BUS_OK && proto_wsproxy_endpoint_requests_rep_write(&out, reply) != 0)
        rc = s_bad_reply(proto_wsproxy_endpoint_requests_rep_check(&out, err), err);
    proto_wsproxy_endpoint_requests_rep_clear(&out);
    proto_wsproxy_endpoint_requests_req_clear(&in);
    return rc;
}
