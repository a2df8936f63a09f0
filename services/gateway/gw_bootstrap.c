/*  =========================================================================
    gw_bootstrap - first-start objects and the credentials file

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include <fcntl.h> //  open with O_EXCL and mode 0600 for the credentials

#define PASSWORD_CHARS 20

void
gw_time_iso(int64_t us, char out[40])
{
    time_t seconds = (time_t) (us / 1000000);
    struct tm tm;
    gmtime_r(&seconds, &tm);
    size_t n = strftime(out, 40, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out + n, 40 - n, ".%06d+00:00", (int) (us % 1000000));
}

void
gw_now_iso(char out[40])
{
    gw_time_iso(bus_clock_wall_us(), out);
}

static int
s_exec(bus_db_t *db, const char *sql, const char *const *params)
{
    sqlite3_stmt *stmt = bus_db_stmt(db, sql);
    if (!stmt)
        return -1;
    for (int i = 0; params && params[i]; i++)
        sqlite3_bind_text(stmt, i + 1, params[i], -1, SQLITE_STATIC);
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    return rc == SQLITE_DONE ? 0 : -1;
}

static int
s_write_credentials(const char *path,
                    const char *endpoint,
                    const char *email,
                    const char *password,
                    const char *access_key,
                    const char *secret_key)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    FILE *file = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!file) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    fprintf(file,
            "# Backplane: the first superadmin, created on first start.\n"
            "# Keep this file secret. Use it with the official client:  . %s\n"
            "export BACKEND_ENDPOINT=%s\n"
            "export BACKEND_ENDPOINT_TYPE=api\n"
            "export BACKEND_ACCESS_KEY=%s\n"
            "export BACKEND_SECRET_KEY=%s\n"
            "BACKPLANE_ADMIN_EMAIL=%s\n"
            "BACKPLANE_ADMIN_PASSWORD=%s\n",
            path, endpoint, access_key, secret_key, email, password);
    return fclose(file) == 0 ? 0 : -1;
}

//  The model store's project (type and name "model-store") in the default
//  domain, made when that domain has none, on every start: Backend.AI's
//  installers and its migration add it to existing installations too.
//  Administrators put model folders there; every user of the domain sees
//  them as cards and may read them (gw_vfolder's S_REACH), without being
//  made a member (which would put the store among their projects).
static int
s_ensure_model_store(bus_db_t *db, const gw_config_t *config, bus_error_t *err)
{
    sqlite3_stmt *probe =
        bus_db_stmt(db, "SELECT (SELECT count(*) FROM domains WHERE name = ?1),"
                        " (SELECT count(*) FROM groups WHERE domain_name = ?1"
                        " AND (type = '" GW_MODEL_STORE_PROJECT
                        "' OR name = '" GW_MODEL_STORE_PROJECT "'))");
    if (!probe)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot read the projects");
    sqlite3_bind_text(probe, 1, config->default_domain, -1, SQLITE_STATIC);
    int64_t domains = 0, stores = 0;
    if (sqlite3_step(probe) == SQLITE_ROW) {
        domains = sqlite3_column_int64(probe, 0);
        stores = sqlite3_column_int64(probe, 1);
    }
    sqlite3_reset(probe);
    //  No default domain (renamed by its administrator): nowhere to put
    //  it. A project of that name that is not the store is left alone.
    if (domains == 0 || stores > 0)
        return 0;
    char id[GW_UUID_SIZE], now[40];
    if (gw_uuid_new(id) != 0)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "no randomness for a project id");
    gw_now_iso(now);
    const char *params[] = {id, config->default_domain, now, NULL};
    if (s_exec(db,
               "INSERT INTO groups (id, name, description, domain_name, created_at,"
               " modified_at, type) VALUES (?1, '" GW_MODEL_STORE_PROJECT
               "', 'The model store: model folders every user may see and clone',"
               " ?2, ?3, ?3, '" GW_MODEL_STORE_PROJECT "')",
               params) != 0)
        return bus_error_set(err, BUS_STATUS_INTERNAL,
                             "cannot create the model-store project");
    bus_log_notice("created the model store project=%s domain=%s", id,
                   config->default_domain);
    return 0;
}

int
gw_bootstrap(bus_db_t *db,
             const gw_config_t *config,
             const char *endpoint,
             bus_error_t *err)
{
    sqlite3_stmt *count = bus_db_stmt(db, "SELECT count(*) FROM users");
    if (!count || sqlite3_step(count) != SQLITE_ROW) {
        if (count)
            sqlite3_reset(count);
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot read the users table");
        return -1;
    }
    int64_t users = sqlite3_column_int64(count, 0);
    sqlite3_reset(count);
    if (users > 0)
        return s_ensure_model_store(db, config, err);

    char now[40], project_id[GW_UUID_SIZE], user_id[GW_UUID_SIZE];
    char access_key[GW_ACCESS_KEY_SIZE], secret_key[GW_SECRET_KEY_SIZE];
    char password[PASSWORD_CHARS + 1], hash[GW_PASSWORD_HASH_MAX];
    gw_now_iso(now);
    //  The password only needs to be random; an access-key body is a fine source.
    char seed[GW_SECRET_KEY_SIZE];
    if (gw_uuid_new(project_id) || gw_uuid_new(user_id) ||
        gw_access_key_new(access_key) || gw_secret_key_new(secret_key) ||
        gw_secret_key_new(seed)) {
        bus_error_set(err, BUS_STATUS_INTERNAL,
                      "no randomness for the first credentials");
        return -1;
    }
    snprintf(password, sizeof password, "%.*s", PASSWORD_CHARS, seed);
    if (gw_password_hash(password, config->password_iterations, hash, sizeof hash) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot hash the first password");
        return -1;
    }
    const char *domain = config->default_domain, *project = config->default_project;
    const char *email = config->admin_email;
    char username[GW_EMAIL_MAX];
    snprintf(username, sizeof username, "%.*s", (int) strcspn(email, "@"), email);

    bus_db_begin(db);
    const char *now_p[] = {now, NULL};
    int rc = 0;
    rc |= s_exec(db,
                 "INSERT INTO keypair_resource_policies (name, created_at, "
                 "max_concurrent_sessions,"
                 " max_containers_per_session) VALUES ('default', ?1, 30, 1)",
                 now_p);
    rc |= s_exec(
        db,
        "INSERT INTO user_resource_policies (name, created_at) VALUES ('default', ?1)",
        now_p);
    rc |= s_exec(
        db,
        "INSERT INTO project_resource_policies (name, created_at) VALUES ('default', ?1)",
        now_p);
    //  The default domain may run the images the agents build and hold
    //  themselves (local.backplane, agent_images); any other registry is an
    //  administrator's choice. Its users may keep folders on the default
    //  host, with every host permission Backend.AI knows.
    json_t *hosts = json_object();
    if (*config->vfolder_default_host)
        json_object_set_new(hosts, config->vfolder_default_host,
                            json_pack("[s, s, s, s, s, s, s, s]", "create-vfolder",
                                      "modify-vfolder", "delete-vfolder",
                                      "mount-in-session", "upload-file", "download-file",
                                      "invite-others", "set-user-specific-permission"));
    char *hosts_text = json_dumps(hosts, JSON_COMPACT);
    json_decref(hosts);
    const char *domain_p[] = {domain, now, hosts_text ? hosts_text : "{}", NULL};
    rc |=
        s_exec(db,
               "INSERT INTO domains (name, description, allowed_docker_registries,"
               " allowed_vfolder_hosts, created_at, modified_at)"
               " VALUES (?1, 'The default domain', '[\"local.backplane\"]', ?3, ?2, ?2)",
               domain_p);
    free(hosts_text);
    const char *project_p[] = {project_id, project, domain, now, NULL};
    rc |= s_exec(
        db,
        "INSERT INTO groups (id, name, description, domain_name, created_at, modified_at)"
        " VALUES (?1, ?2, 'The default project', ?3, ?4, ?4)",
        project_p);
    rc |= s_exec(db,
                 "INSERT INTO scaling_groups (name, description, created_at)"
                 " VALUES ('default', 'The default resource group', ?1)",
                 now_p);
    const char *sgroup_p[] = {domain, NULL};
    rc |= s_exec(
        db,
        "INSERT INTO sgroups_for_domains (scaling_group, domain) VALUES ('default', ?1)",
        sgroup_p);
    const char *user_p[] = {user_id, username, email, hash, domain, now, NULL};
    rc |= s_exec(db,
                 "INSERT INTO users (uuid, username, email, password, domain_name, role,"
                 " full_name, created_at, modified_at)"
                 " VALUES (?1, ?2, ?3, ?4, ?5, 'superadmin', 'Administrator', ?6, ?6)",
                 user_p);
    const char *member_p[] = {project_id, user_id, NULL};
    rc |= s_exec(
        db, "INSERT INTO association_groups_users (group_id, user_id) VALUES (?1, ?2)",
        member_p);
    const char *keypair_p[] = {access_key, secret_key, user_id, now, NULL};
    rc |= s_exec(
        db,
        "INSERT INTO keypairs (access_key, secret_key, user_id, is_admin, created_at,"
        " modified_at) VALUES (?1, ?2, ?3, 1, ?4, ?4)",
        keypair_p);
    if (rc != 0) {
        bus_db_rollback(db);
        bus_error_set(err, BUS_STATUS_INTERNAL,
                      "cannot create the first domain and superadmin");
        return -1;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/admin.env", config->node.state_dir);
    if (s_write_credentials(path, endpoint, email, password, access_key, secret_key) !=
        0) {
        bus_db_rollback(db);
        bus_error_set(err, BUS_STATUS_UNAVAILABLE, "cannot write %s: %s", path,
                      strerror(errno));
        return -1;
    }
    if (bus_db_commit(db) != 0) {
        unlink(path);
        bus_error_set(err, BUS_STATUS_INTERNAL, "cannot commit the first superadmin");
        return -1;
    }
    OPENSSL_cleanse(password, sizeof password);
    bus_log_notice(
        "first start: created domain, project and superadmin domain=%s project=%s "
        "email=%s access_key=%s file=%s",
        domain, project, email, access_key, path);
    printf("bootstrap superadmin email=%s access_key=%s credentials=%s\n", email,
           access_key, path);
    fflush(stdout);
    return s_ensure_model_store(db, config, err);
}
