/*  =========================================================================
    gw_routes - the route table: method, path pattern, who may call, handler

    Backend.AI's paths (reference §0-2, §8-11); a path known with another
    method answers 405, an unknown path 404, both as problem+json.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define GET     (EVHTTP_REQ_GET | EVHTTP_REQ_HEAD)
#define POST    EVHTTP_REQ_POST
#define GETPOST (GET | POST)
#define ITEM    (GET | EVHTTP_REQ_PATCH | EVHTTP_REQ_DELETE)

//  GET / : the version document the official client probes (reference §0).
static void
s_version(gw_request_t *r)
{
    gw_reply_json(r, 200,
                  json_pack("{s:s, s:s, s:s}", "version", GW_API_VERSION, "manager",
                            GW_MANAGER_VERSION, "backplane", BACKPLANE_VERSION));
}

const gw_route_t gw_routes[] = {
    {GET, "/", GW_AUTH_NONE, s_version},
    {GET, "/healthz", GW_AUTH_NONE, gw_health_handle},
    //  Maintenance (gw_manager) and configuration (gw_etcd).
    {GETPOST, "/manager/announcement", GW_AUTH_REQUIRED, gw_manager_handle_announcement},
    {GET | EVHTTP_REQ_PUT, "/manager/status", GW_AUTH_REQUIRED, gw_manager_handle_status},
    {POST, "/manager/scheduler/operation", GW_AUTH_REQUIRED,
     gw_manager_handle_scheduler_operation},
    {GET, "/config/resource-slots", GW_AUTH_REQUIRED, gw_etcd_handle_resource_slots},
    {GET, "/config/resource-slots/details", GW_AUTH_REQUIRED,
     gw_etcd_handle_resource_slot_details},
    {GET, "/config/vfolder-types", GW_AUTH_REQUIRED, gw_etcd_handle_vfolder_types},
    {GET, "/config/docker-registries", GW_AUTH_REQUIRED,
     gw_etcd_handle_docker_registries},
    //  Browser sessions (the webserver's routes, served here directly).
    {POST, "/server/login", GW_AUTH_NONE, gw_login_login},
    {POST, "/server/logout", GW_AUTH_NONE, gw_login_logout},
    {GETPOST, "/server/login-check", GW_AUTH_NONE, gw_login_check},
    //  /auth
    {GETPOST, "/auth", GW_AUTH_REQUIRED, gw_login_echo},
    {GETPOST, "/auth/test", GW_AUTH_REQUIRED, gw_login_echo},
    {POST, "/auth/authorize", GW_AUTH_NONE, gw_login_authorize},
    {GET, "/auth/role", GW_AUTH_REQUIRED, gw_login_role},
    {POST, "/auth/update-password", GW_AUTH_REQUIRED, gw_login_update_password},
    //  Backplane's own REST admin API (docs/openapi.yaml).
    {GETPOST, "/admin/v1/domains", GW_AUTH_REQUIRED, gw_rest_domains},
    {ITEM, "/admin/v1/domains/{key}", GW_AUTH_REQUIRED, gw_rest_domain},
    {GETPOST, "/admin/v1/projects", GW_AUTH_REQUIRED, gw_rest_projects},
    {ITEM, "/admin/v1/projects/{key}", GW_AUTH_REQUIRED, gw_rest_project},
    {GETPOST, "/admin/v1/users", GW_AUTH_REQUIRED, gw_rest_users},
    {ITEM, "/admin/v1/users/{key}", GW_AUTH_REQUIRED, gw_rest_user},
    {GETPOST, "/admin/v1/keypairs", GW_AUTH_REQUIRED, gw_rest_keypairs},
    {ITEM, "/admin/v1/keypairs/{key}", GW_AUTH_REQUIRED, gw_rest_keypair},
    {GETPOST, "/admin/v1/resource-policies/{kind}", GW_AUTH_REQUIRED, gw_rest_policies},
    {ITEM, "/admin/v1/resource-policies/{kind}/{key}", GW_AUTH_REQUIRED, gw_rest_policy},
    {GET, "/admin/v1/usage", GW_AUTH_REQUIRED, gw_usage_admin_handle},
    //  The admin API the official CLI uses.
    {POST, "/admin/gql", GW_AUTH_REQUIRED, gw_gql_handle},
    {POST, "/admin/graphql", GW_AUTH_REQUIRED, gw_gql_handle_legacy},
    //  Resource groups and presets (reference §8).
    {GET, "/scaling-groups", GW_AUTH_REQUIRED, gw_sgroup_handle_list},
    {GET, "/scaling-groups/{scaling_group}/wsproxy-version", GW_AUTH_REQUIRED,
     gw_sgroup_handle_wsproxy_version},
    {GET, "/resource/presets", GW_AUTH_REQUIRED, gw_preset_handle_list},
    {POST, "/resource/check-presets", GW_AUTH_REQUIRED, gw_check_presets_handle},
    {GET, "/resource/usage/month", GW_AUTH_REQUIRED, gw_usage_handle_month},
    {GET, "/resource/usage/period", GW_AUTH_REQUIRED, gw_usage_handle_period},
    {GET, "/resource/stats/user/month", GW_AUTH_REQUIRED, gw_usage_handle_user_stats},
    {GET, "/resource/stats/admin/month", GW_AUTH_REQUIRED, gw_usage_handle_admin_stats},
    {POST, "/resource/recalculate-usage", GW_AUTH_REQUIRED, gw_usage_handle_recalculate},
    //  Session templates (reference §8: /template/session).
    {POST, "/template/session", GW_AUTH_OWNER, gw_template_handle_create},
    {GET, "/template/session", GW_AUTH_REQUIRED, gw_template_handle_list},
    {GET, "/template/session/{template_id}", GW_AUTH_OWNER, gw_template_handle_get},
    {EVHTTP_REQ_PUT, "/template/session/{template_id}", GW_AUTH_OWNER,
     gw_template_handle_update},
    {EVHTTP_REQ_DELETE, "/template/session/{template_id}", GW_AUTH_OWNER,
     gw_template_handle_delete},
    //  Dotfiles (gw_dotfile, reference §8): a keypair's, a project's, a domain's.
    {GET | POST | EVHTTP_REQ_PATCH | EVHTTP_REQ_DELETE, "/user-config/dotfiles",
     GW_AUTH_OWNER, gw_dotfile_handle_user},
    {GET | POST | EVHTTP_REQ_PATCH | EVHTTP_REQ_DELETE, "/group-config/dotfiles",
     GW_AUTH_REQUIRED, gw_dotfile_handle_group},
    {GET | POST | EVHTTP_REQ_PATCH | EVHTTP_REQ_DELETE, "/domain-config/dotfiles",
     GW_AUTH_REQUIRED, gw_dotfile_handle_domain},
    //  Error logs (gw_errorlog, reference part 2 §B.6).
    {POST, "/logs/error", GW_AUTH_REQUIRED, gw_errorlog_handle_create},
    {GET, "/logs/error", GW_AUTH_REQUIRED, gw_errorlog_handle_list},
    {POST, "/logs/error/{log_id}/clear", GW_AUTH_REQUIRED, gw_errorlog_handle_clear},
    //  Compute sessions (reference §3).
    //  Model services (reference part 2 §C.2; gw_service_api).
    {GET, "/services", GW_AUTH_REQUIRED, gw_service_handle_list},
    {POST, "/services", GW_AUTH_OWNER, gw_service_handle_create},
    {GET, "/services/_/runtimes", GW_AUTH_REQUIRED, gw_service_handle_runtimes},
    {POST, "/services/_/try", GW_AUTH_OWNER, gw_service_handle_try},
    {GET, "/services/{service_id}", GW_AUTH_REQUIRED, gw_service_handle_info},
    {EVHTTP_REQ_DELETE, "/services/{service_id}", GW_AUTH_REQUIRED,
     gw_service_handle_delete},
    {POST, "/services/{service_id}/scale", GW_AUTH_REQUIRED, gw_service_handle_scale},
    {POST, "/services/{service_id}/token", GW_AUTH_REQUIRED, gw_service_handle_token},
    {POST, "/services/{service_id}/sync", GW_AUTH_REQUIRED, gw_service_handle_sync},
    {EVHTTP_REQ_PUT, "/services/{service_id}/routings/{route_id}", GW_AUTH_REQUIRED,
     gw_service_handle_route_update},
    {EVHTTP_REQ_DELETE, "/services/{service_id}/routings/{route_id}", GW_AUTH_REQUIRED,
     gw_service_handle_route_delete},
    {GET, "/services/{service_id}/errors", GW_AUTH_REQUIRED, gw_service_handle_errors},
    {POST, "/services/{service_id}/errors/clear", GW_AUTH_REQUIRED,
     gw_service_handle_errors_clear},
    {POST, "/session", GW_AUTH_OWNER, gw_session_handle_create},
    {POST, "/session/_/create", GW_AUTH_OWNER, gw_session_handle_create},
    {POST, "/session/_/create-from-template", GW_AUTH_OWNER,
     gw_template_handle_create_session},
    {GET, "/session/{session}", GW_AUTH_OWNER, gw_session_handle_info},
    {EVHTTP_REQ_DELETE, "/session/{session}", GW_AUTH_OWNER, gw_session_handle_destroy},
    {EVHTTP_REQ_PATCH, "/session/{session}", GW_AUTH_OWNER, gw_session_handle_restart},
    {POST, "/session/{session}", GW_AUTH_OWNER, gw_session_handle_execute},
    {GET, "/session/{session}/logs", GW_AUTH_OWNER, gw_session_handle_logs},
    {POST, "/session/{session}/interrupt", GW_AUTH_OWNER, gw_session_handle_interrupt},
    {POST, "/session/{session}/rename", GW_AUTH_OWNER, gw_session_handle_rename},
    {POST, "/session/{session}/start-service", GW_AUTH_OWNER, gw_app_token_handle},
    {POST, "/session/{session}/upload", GW_AUTH_OWNER, gw_session_files_handle_upload},
    {GETPOST, "/session/{session}/download", GW_AUTH_OWNER,
     gw_session_files_handle_download},
    {GETPOST, "/session/{session}/download_single", GW_AUTH_OWNER,
     gw_session_files_handle_download_single},
    {GET, "/session/{session}/files", GW_AUTH_OWNER, gw_session_files_handle_list},
    //  Virtual folders (reference §7): the fixed paths before {name}.
    {POST, "/folders", GW_AUTH_REQUIRED, gw_vfolder_handle_create},
    {GET, "/folders", GW_AUTH_REQUIRED, gw_vfolder_handle_list},
    {EVHTTP_REQ_DELETE, "/folders", GW_AUTH_REQUIRED, gw_vfolder_handle_delete_id},
    {GET, "/folders/_/id", GW_AUTH_REQUIRED, gw_vfolder_handle_id},
    {GET, "/folders/_/hosts", GW_AUTH_REQUIRED, gw_vfolder_handle_hosts},
    {GET, "/folders/_/all-hosts", GW_AUTH_REQUIRED, gw_vfolder_handle_all_hosts},
    {GET, "/folders/_/all_hosts", GW_AUTH_REQUIRED, gw_vfolder_handle_all_hosts},
    {GET, "/folders/_/allowed-types", GW_AUTH_REQUIRED, gw_vfolder_handle_allowed_types},
    {GET, "/folders/_/allowed_types", GW_AUTH_REQUIRED, gw_vfolder_handle_allowed_types},
    {GETPOST, "/folders/_/quota", GW_AUTH_REQUIRED, gw_vfolder_handle_quota},
    {GET, "/folders/_/usage", GW_AUTH_REQUIRED, gw_vfolder_handle_usage},
    {GET, "/folders/_/perf-metric", GW_AUTH_REQUIRED, gw_volumes_handle_perf_metric},
    {GET, "/folders/_/fstab", GW_AUTH_REQUIRED, gw_volumes_handle_fstab},
    {GET, "/folders/_/mounts", GW_AUTH_REQUIRED, gw_volumes_handle_mounts},
    {GET, "/folders/_/used-bytes", GW_AUTH_REQUIRED, gw_vfolder_handle_usage},
    {GETPOST, "/folders/_/shared", GW_AUTH_REQUIRED, gw_vfolder_handle_shared},
    {POST, "/folders/purge", GW_AUTH_REQUIRED, gw_vfolder_handle_purge},
    {POST, "/folders/delete-from-trash-bin", GW_AUTH_REQUIRED, gw_vfolder_handle_purge},
    {POST, "/folders/restore-from-trash-bin", GW_AUTH_REQUIRED,
     gw_vfolder_handle_restore},
    {GET, "/folders/invitations/list", GW_AUTH_REQUIRED, gw_vfolder_handle_invitations},
    {GET, "/folders/invitations/list-sent", GW_AUTH_REQUIRED,
     gw_vfolder_handle_invitations_sent},
    {GET, "/folders/invitations/list_sent", GW_AUTH_REQUIRED,
     gw_vfolder_handle_invitations_sent},
    {POST, "/folders/invitations/accept", GW_AUTH_REQUIRED, gw_vfolder_handle_accept},
    {POST | EVHTTP_REQ_DELETE, "/folders/invitations/delete", GW_AUTH_REQUIRED,
     gw_vfolder_handle_reject},
    {POST, "/folders/invitations/update/{inv_id}", GW_AUTH_REQUIRED,
     gw_vfolder_handle_update_invitation},
    {GET, "/folders/{name}", GW_AUTH_REQUIRED, gw_vfolder_handle_info},
    {EVHTTP_REQ_DELETE, "/folders/{name}", GW_AUTH_REQUIRED, gw_vfolder_handle_delete},
    {POST, "/folders/{name}/rename", GW_AUTH_REQUIRED, gw_vfolder_handle_rename},
    {POST, "/folders/{name}/update-options", GW_AUTH_REQUIRED,
     gw_vfolder_handle_update_options},
    {POST, "/folders/{name}/clone", GW_AUTH_REQUIRED, gw_vfolder_handle_clone},
    {POST, "/folders/{name}/import", GW_AUTH_REQUIRED, gw_vfolder_handle_import},
    {GET, "/folders/{name}/files", GW_AUTH_REQUIRED, gw_vfolder_handle_files},
    {POST, "/folders/{name}/mkdir", GW_AUTH_REQUIRED, gw_vfolder_handle_mkdir},
    {POST, "/folders/{name}/rename-file", GW_AUTH_REQUIRED,
     gw_vfolder_handle_rename_file},
    {POST, "/folders/{name}/rename_file", GW_AUTH_REQUIRED,
     gw_vfolder_handle_rename_file},
    {POST, "/folders/{name}/move-file", GW_AUTH_REQUIRED, gw_vfolder_handle_move_file},
    {POST | EVHTTP_REQ_DELETE, "/folders/{name}/delete-files", GW_AUTH_REQUIRED,
     gw_vfolder_handle_delete_files},
    {EVHTTP_REQ_DELETE, "/folders/{name}/delete_files", GW_AUTH_REQUIRED,
     gw_vfolder_handle_delete_files},
    {POST, "/folders/{name}/request-upload", GW_AUTH_REQUIRED,
     gw_vfolder_handle_request_upload},
    {POST, "/folders/{name}/request-download", GW_AUTH_REQUIRED,
     gw_vfolder_handle_request_download},
    {POST, "/folders/{name}/invite", GW_AUTH_REQUIRED, gw_vfolder_handle_invite},
    {POST, "/folders/{name}/share", GW_AUTH_REQUIRED, gw_vfolder_handle_share},
    {POST | EVHTTP_REQ_DELETE, "/folders/{name}/unshare", GW_AUTH_REQUIRED,
     gw_vfolder_handle_unshare},
    {POST, "/folders/{name}/leave", GW_AUTH_REQUIRED, gw_vfolder_handle_leave},
    //  Streams (reference §4): WebSocket.
    {GET, "/stream/session/{session}/execute", GW_AUTH_OWNER, gw_stream_handle_execute},
    {GET, "/stream/session/{session}/pty", GW_AUTH_OWNER, gw_pty_handle},
    {GET, "/stream/session/{session}/apps", GW_AUTH_OWNER, gw_apps_handle},
    {GET, "/stream/session/{session}/tcpproxy", GW_AUTH_OWNER, gw_app_tunnel_handle},
    {GET, "/stream/session/{session}/httpproxy", GW_AUTH_OWNER, gw_app_tunnel_handle},
    //  Event streams (reference §5): Server-Sent Events.
    {GET, "/events/session", GW_AUTH_REQUIRED, gw_sse_handle_session},
    {GET, "/events/background-task", GW_AUTH_REQUIRED, gw_sse_handle_background_task},
    {0, NULL, 0, NULL},
};

//  The web listener's own routes (gw_web); /func/X goes to the table above.
const gw_route_t gw_web_routes[] = {
    {POST, "/server/login", GW_AUTH_NONE, gw_login_login},
    {POST, "/server/logout", GW_AUTH_NONE, gw_login_logout},
    {GETPOST, "/server/login-check", GW_AUTH_NONE, gw_login_check},
    {POST, "/server/token-login", GW_AUTH_NONE, gw_login_token_login},
    {GET, "/config.toml", GW_AUTH_NONE, gw_web_handle_config_toml},
    {0, NULL, 0, NULL},
};

int64_t
gw_routes_max_body(const gw_route_t *route, int64_t default_limit)
{
    if (route->handler == gw_session_files_handle_upload &&
        default_limit < GW_HTTP_UPLOAD_MAX)
        return GW_HTTP_UPLOAD_MAX;
    return default_limit;
}
