/*  =========================================================================
    gw_identity - who is calling: a keypair, its user, role and domain

    Loaded from the database for every authenticated request (one indexed
    join), and handed to handlers, which decide what the caller may do with
    the helpers below: a user acts on their own things, a domain admin
    within their domain, a superadmin everywhere.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_IDENTITY_H_INCLUDED
#define GW_IDENTITY_H_INCLUDED

#include "bus.h"
#include "gw_secret.h"

#define GW_NAME_MAX  64 //  domain, policy and role names
#define GW_EMAIL_MAX 256

typedef enum {
    GW_ROLE_MONITOR, //  reads everything in its domain, changes nothing
    GW_ROLE_USER,
    GW_ROLE_ADMIN, //  domain admin
    GW_ROLE_SUPERADMIN
} gw_role_t;

typedef struct {
    char access_key[GW_ACCESS_KEY_SIZE];
    char secret_key[GW_SECRET_KEY_SIZE]; //  for signature checks only; never logged
    bool keypair_active;
    bool keypair_admin;
    int rate_limit;
    char keypair_policy[GW_NAME_MAX];
    char user_uuid[GW_UUID_SIZE];
    char email[GW_EMAIL_MAX];
    char domain[GW_NAME_MAX];
    gw_role_t role;
    bool user_active;
} gw_identity_t;

//  Loads the identity behind access_key. BUS_OK, BUS_STATUS_NOT_FOUND, or
//  BUS_STATUS_INTERNAL.
int gw_identity_load(bus_db_t *db, const char *access_key, gw_identity_t *out);

//  "superadmin" ... "monitor" to a role; -1 when unknown.
int gw_role_from_str(const char *name);
const char *gw_role_str(gw_role_t role);

//  Permission questions handlers ask.
bool gw_identity_is_superadmin(const gw_identity_t *who);
//  Administers domain: a superadmin, or an admin of that very domain.
bool gw_identity_admins_domain(const gw_identity_t *who, const char *domain);
//  May read things of domain: the above, plus a monitor of that domain.
bool gw_identity_reads_domain(const gw_identity_t *who, const char *domain);

//  ---------------------------------------------------------------------------
//  A short-lived cache of identities and their derived signing keys, so a
//  signed request costs no database read and one HMAC instead of three.
//  Entries live at most ttl_ms, and any change to users or keypairs made
//  through this gateway clears the cache at once; the TTL bounds how long a
//  change made elsewhere (the offline admin command) takes to be seen.

#define GW_IDENTITY_CACHE_MAX 10000 //  entries; past this the cache starts over

typedef struct _gw_identity_cache_t gw_identity_cache_t;

gw_identity_cache_t *gw_identity_cache_new(int ttl_ms);
void gw_identity_cache_destroy(gw_identity_cache_t **self_p);

//  The identity behind access_key, and the signing key for (hash_name,
//  date_key, host) in key (GW_AUTH_DIGEST_MAX bytes; *key_len 0 when it
//  cannot be derived). Returns as gw_identity_load does.
int gw_identity_cache_get(gw_identity_cache_t *self,
                          bus_db_t *db,
                          const char *access_key,
                          const char *hash_name,
                          const char *date_key,
                          const char *host,
                          gw_identity_t *who,
                          unsigned char *key,
                          size_t *key_len);

//  Forgets everything: users or keypairs changed.
void gw_identity_cache_clear(gw_identity_cache_t *self);

#endif
