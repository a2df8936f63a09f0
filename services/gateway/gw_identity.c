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
