/*  =========================================================================
    sp_server - the storage-proxy as bus_main runs it

    Owns volumes, virtual folders and their data: the volumes of its
    configuration (sp_volumes), its table of folders with their quotas and
    usage (sp_folders), the storage.* methods the gateway calls (sp_rpc) and
    the client-facing HTTP endpoint for uploads and downloads (sp_http),
    its lines of /metrics (sp_metrics), the downloads of storage.files.fetch
    (sp_fetch, each on a job thread of its own), besides what every node does. Its schema
   and SQL are sp_db's.

    Timers (besides the node's cron, listed in bus_node.h: heartbeat,
    peer list, catch-up of missed durable events, outbox):
      - the folder cron, every storage.scan_ms and once at start
        (sp_folders s_on_timer): starts a usage scan of every ready folder
        on a job thread unless the last one still runs (each folder's
        upload staging files unwritten for storage.staging_ttl_s are
        removed first, then its usage and over-quota flag are rewritten),
        and forgets finished uploads SP_FOLDERS_UPLOAD_GRACE_S after their
        token expired;
      - the stall timeout of each HTTP connection, SP_HTTP_STALL_S
        (sp_http_conn): a connection that neither reads nor writes for
        that long is closed (an upload cut short keeps what arrived).
    Not timers: the trash of every volume is emptied once at start (a
    job); a directory listing kept for paging (sp_rpc) is dropped when
    asked for after SP_RPC_LIST_CACHE_MS; a folder whose files were
    deleted is rescanned at once (sp_folders_changed).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"

typedef struct {
    sp_volumes_t *volumes;
    sp_folders_t *folders;
    sp_http_t *http;
    sp_fetch_t *fetch;
    sp_rpc_t *rpc;
    sp_metrics_t *metrics;
} sp_state_t;

static void
s_fini(void **state_p)
{
    sp_state_t *state = *state_p;
    if (state) {
        sp_metrics_destroy(&state->metrics);
        sp_http_destroy(&state->http);
        //  Fetches stop before the folders they report to.
        sp_fetch_destroy(&state->fetch);
        //  Folders before the methods: pending clones answer through sp_rpc.
        sp_folders_destroy(&state->folders);
        sp_rpc_destroy(&state->rpc);
        sp_volumes_destroy(&state->volumes);
        free(state);
        *state_p = NULL;
    }
}

//  Gives what is made in folders to storage.owner_uid:owner_gid. Only root
//  can give files away; without it ownership stays as created, and the log
//  says so.
static void
s_set_owner(sp_folders_t *folders, const sp_config_t *config)
{
    uid_t uid = config->owner_uid < 0 ? (uid_t) -1 : (uid_t) config->owner_uid;
    gid_t gid = config->owner_gid < 0 ? (gid_t) -1 : (gid_t) config->owner_gid;
    bool mine = (uid == (uid_t) -1 || uid == geteuid()) &&
                (gid == (gid_t) -1 || gid == getegid());
    if (geteuid() != 0 && !mine) {
        bus_log_warning("not root: files made in folders keep the storage-proxy's "
                        "owner owner_uid=%d owner_gid=%d",
                        config->owner_uid, config->owner_gid);
        uid = (uid_t) -1;
        gid = (gid_t) -1;
    } else
        bus_log_notice("files made in folders belong to owner_uid=%d owner_gid=%d",
                       config->owner_uid, config->owner_gid);
    sp_folders_set_owner(folders, uid, gid);
}

static void *
s_init(bus_node_t *node, const void *config_, bus_error_t *err)
{
    const sp_config_t *config = config_;
    sp_state_t *state = calloc(1, sizeof *state);
    if (!state) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    const char *proxy = config->proxy_name && *config->proxy_name ? config->proxy_name
                                                                  : bus_node_name(node);
    state->volumes = sp_volumes_new(config->volumes, config->node.state_dir, proxy, err);
    if (state->volumes)
        state->folders = sp_folders_new(node, state->volumes, config->scan_ms,
                                        config->staging_ttl_s, err);
    if (state->folders)
        s_set_owner(state->folders, config);
    if (state->folders && config->http_listen && *config->http_listen)
        state->http = sp_http_new(node, state->folders, config, err);
    bool http_ok = state->http || !(config->http_listen && *config->http_listen);
    if (state->folders && http_ok)
        state->fetch = sp_fetch_new(node, state->folders, config, err);
    if (state->fetch)
        state->rpc = sp_rpc_new(node, state->folders, state->fetch,
                                state->http ? sp_http_url(state->http) : "", err);
    if (state->rpc)
        state->metrics = sp_metrics_new(node, state->volumes);
    if (!state->metrics) {
        if (state->rpc)
            bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        void *dead = state;
        s_fini(&dead);
        return NULL;
    }
    for (size_t i = 0; i < sp_volumes_count(state->volumes); i++) {
        const sp_volume_t *volume = sp_volumes_at(state->volumes, i);
        bus_log_notice("volume host=%s backend=%s path=%s fs=%s", volume->host,
                       volume->backend, volume->path, volume->fs_type);
    }
    if (state->http) {
        bus_log_notice("client api listening url=%s", sp_http_url(state->http));
        //  on the ready line, which scripts and tests look for
        bus_node_set_url(node, sp_http_url(state->http));
    }
    return state;
}

const bus_service_t sp_service = {
    .name = "storage-proxy",
    .summary = "Owns volumes, virtual folders and their data",
    .options = sp_config_options,
    .config_size = sizeof(sp_config_t),
    .node_config_offset = offsetof(sp_config_t, node),
    .migrations = sp_db_migrations,
    .migration_count = SP_DB_MIGRATION_COUNT,
    .init = s_init,
    .fini = s_fini,
};
