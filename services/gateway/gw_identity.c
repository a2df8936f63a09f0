/*  =========================================================================
    gw_identity - loading the caller's identity and the permission rules

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

static const char *s_roles[] = {
    [GW_ROLE_MONITOR] = "monitor",
    [GW_ROLE_USER] = "user",
    [GW_ROLE_ADMIN] = "admin",
    [GW_ROLE_SUPERADMIN] = "superadmin",
};

int
gw_role_from_str(const char *name)
{
    for (int i = 0; name && i <= GW_ROLE_SUPERADMIN; i++)
        if (strcmp(s_roles[i], name) == 0)
            return i;
    return -1;
}

const char *
gw_role_str(gw_role_t role)
{
    return role <= GW_ROLE_SUPERADMIN ? s_roles[role] : "user";
}

static void
s_copy(char *out, size_t size, sqlite3_stmt *stmt, int column)
{
    const char *text = (const char *) sqlite3_column_text(stmt, column);
    snprintf(out, size, "%s", text ? text : "");
}

int
gw_identity_load(bus_db_t *db, const char *access_key, gw_identity_t *out)
{
    memset(out, 0, sizeof *out);
    sqlite3_stmt *stmt = bus_db_stmt(
        db,
        "SELECT k.access_key, k.secret_key, k.is_active, k.is_admin, k.rate_limit,"
        " k.resource_policy, u.uuid, u.email, u.domain_name, u.role, u.status"
        " FROM keypairs k JOIN users u ON u.uuid = k.user_id WHERE k.access_key = ?1");
    if (!stmt)
        return BUS_STATUS_INTERNAL;
    sqlite3_bind_text(stmt, 1, access_key, -1, SQLITE_STATIC);
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
        s_copy(out->access_key, sizeof out->access_key, stmt, 0);
        s_copy(out->secret_key, sizeof out->secret_key, stmt, 1);
        out->keypair_active = sqlite3_column_int(stmt, 2) != 0;
        out->keypair_admin = sqlite3_column_int(stmt, 3) != 0;
        out->rate_limit = sqlite3_column_int(stmt, 4);
        s_copy(out->keypair_policy, sizeof out->keypair_policy, stmt, 5);
        s_copy(out->user_uuid, sizeof out->user_uuid, stmt, 6);
        s_copy(out->email, sizeof out->email, stmt, 7);
        s_copy(out->domain, sizeof out->domain, stmt, 8);
        int role = gw_role_from_str((const char *) sqlite3_column_text(stmt, 9));
        out->role = role < 0 ? GW_ROLE_USER : (gw_role_t) role;
        const char *status = (const char *) sqlite3_column_text(stmt, 10);
        out->user_active = status && strcmp(status, "active") == 0;
    }
    sqlite3_reset(stmt);
    if (rc == SQLITE_ROW)
        return BUS_OK;
    return rc == SQLITE_DONE ? BUS_STATUS_NOT_FOUND : BUS_STATUS_INTERNAL;
}

bool
gw_identity_is_superadmin(const gw_identity_t *who)
{
    return who->role == GW_ROLE_SUPERADMIN;
}

bool
gw_identity_admins_domain(const gw_identity_t *who, const char *domain)
{
    return who->role == GW_ROLE_SUPERADMIN ||
           (who->role == GW_ROLE_ADMIN && domain && strcmp(who->domain, domain) == 0);
}

bool
gw_identity_reads_domain(const gw_identity_t *who, const char *domain)
{
    return gw_identity_admins_domain(who, domain) ||
           (who->role == GW_ROLE_MONITOR && domain && strcmp(who->domain, domain) == 0);
}

//  ---------------------------------------------------------------------------
//  The cache

typedef struct {
    gw_identity_t who;
    int64_t loaded_ms;
    char hash_name[GW_AUTH_HASH_NAME_SIZE];
    char date_key[GW_AUTH_DATE_KEY_SIZE];
    char host[256];
    unsigned char key[GW_AUTH_DIGEST_MAX];
    size_t key_len;
} identity_entry_t;

struct _gw_identity_cache_t {
    zhashx_t *entries; //  access key -> identity_entry_t
    int ttl_ms;
};

static void
s_entry_destroy(void **item_p)
{
    identity_entry_t *entry = *item_p;
    if (entry) {
        OPENSSL_cleanse(entry, sizeof *entry);
        free(entry);
        *item_p = NULL;
    }
}

gw_identity_cache_t *
gw_identity_cache_new(int ttl_ms)
{
    gw_identity_cache_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->entries = zhashx_new();
    if (!self->entries) {
        free(self);
        return NULL;
    }
    zhashx_set_destructor(self->entries, s_entry_destroy);
    self->ttl_ms = ttl_ms;
    return self;
}

void
gw_identity_cache_destroy(gw_identity_cache_t **self_p)
{
    assert(self_p);
    if (*self_p) {
        zhashx_destroy(&(*self_p)->entries);
        free(*self_p);
        *self_p = NULL;
    }
}

void
gw_identity_cache_clear(gw_identity_cache_t *self)
{
    if (self)
        zhashx_purge(self->entries);
}

int
gw_identity_cache_get(gw_identity_cache_t *self,
                      bus_db_t *db,
                      const char *access_key,
                      const char *hash_name,
                      const char *date_key,
                      const char *host,
                      gw_identity_t *who,
                      unsigned char *key,
                      size_t *key_len)
{
    int64_t now = bus_clock_mono_ms();
    identity_entry_t *entry = zhashx_lookup(self->entries, access_key);
    if (entry && now - entry->loaded_ms > self->ttl_ms) {
        zhashx_delete(self->entries, access_key);
        entry = NULL;
    }
    if (!entry) {
        gw_identity_t loaded;
        int rc = gw_identity_load(db, access_key, &loaded);
        if (rc != BUS_OK)
            return rc;
        if (zhashx_size(self->entries) >= GW_IDENTITY_CACHE_MAX)
            zhashx_purge(self->entries);
        entry = calloc(1, sizeof *entry);
        if (!entry) {
            *who = loaded;
            *key_len = 0;
            return BUS_OK;
        }
        entry->who = loaded;
        entry->loaded_ms = now;
        OPENSSL_cleanse(&loaded, sizeof loaded);
        zhashx_insert(self->entries, access_key, entry);
    }
    //  The signing key changes with the day and the host the client used.
    if (strcmp(entry->hash_name, hash_name) != 0 ||
        strcmp(entry->date_key, date_key) != 0 || strcmp(entry->host, host) != 0 ||
        entry->key_len == 0) {
        entry->key_len = 0;
        if (gw_auth_signing_key(hash_name, entry->who.secret_key, date_key, host,
                                entry->key, sizeof entry->key, &entry->key_len) == 0) {
            snprintf(entry->hash_name, sizeof entry->hash_name, "%s", hash_name);
            snprintf(entry->date_key, sizeof entry->date_key, "%s", date_key);
            snprintf(entry->host, sizeof entry->host, "%s", host);
        } else
            entry->key_len = 0;
    }
    *who = entry->who;
    memcpy(key, entry->key, entry->key_len);
    *key_len = entry->key_len;
    return BUS_OK;
}
