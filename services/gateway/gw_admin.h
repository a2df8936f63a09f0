/*  =========================================================================
    gw_admin - the administrative operations behind GraphQL and REST

    One function per operation on domains, projects (groups), users,
    keypairs, resource policies, resource groups, images and presets. Each
    checks the caller's rights (gw_identity) and returns a bus status with
    a detail (see gw_store.h); on success *out is the JSON result (caller
    owns it): an object, an array of objects, or NULL for deletions. The
    GraphQL layer (gw_gql) and the REST layer (gw_rest) only translate.

    Rights, as the seeds say: a user acts on their own things, a domain
    admin within their domain, a superadmin everywhere; a monitor reads its
    domain. Anything else is BUS_STATUS_FORBIDDEN.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_ADMIN_H_INCLUDED
#define GW_ADMIN_H_INCLUDED

#include "gw_request.h"

typedef int(gw_admin_list_fn)(gw_ctx_t *ctx,
                              json_t *args,
                              json_t **out,
                              bus_error_t *err);

//  Domains (superadmin writes; admins and monitors read their own).
int gw_domain_list(gw_ctx_t *ctx, json_t *args, json_t **out, bus_error_t *err);
int gw_domain_get(gw_ctx_t *ctx, const char *name, json_t **out, bus_error_t *err);
int gw_domain_create(
    gw_ctx_t *ctx, const char *name, json_t *props, json_t **out, bus_error_t *err);
int gw_domain_modify(
    gw_ctx_t *ctx, const char *name, json_t *props, json_t **out, bus_error_t *err);
int gw_domain_delete(gw_ctx_t *ctx, const char *name, bool purge, bus_error_t *err);

//  Projects, Backend.AI's "groups" (domain admins write in their domain;
//  users read the projects they belong to).
int gw_group_list(gw_ctx_t *ctx, json_t *args, json_t **out, bus_error_t *err);
int gw_group_get(gw_ctx_t *ctx, const char *id, json_t **out, bus_error_t *err);
int gw_group_create(
    gw_ctx_t *ctx, const char *name, json_t *props, json_t **out, bus_error_t *err);
int gw_group_modify(
    gw_ctx_t *ctx, const char *id, json_t *props, json_t **out, bus_error_t *err);
int gw_group_delete(gw_ctx_t *ctx, const char *id, bool purge, bus_error_t *err);
//  The id of the project group names: its id, or its name in domain (an id
//  preferred). For routes that take either; who may use it is the
//  caller's to check. BUS_OK, NOT_FOUND, INTERNAL.
int gw_group_resolve(bus_db_t *db,
                     const char *group,
                     const char *domain,
                     char id[GW_UUID_SIZE],
                     bus_error_t *err);
//  Project id's name, NULL when none (or id NULL or ""): for showing, no check
//  of who asks. Caller owns return value.
char *gw_group_name(bus_db_t *db, const char *id);

//  Users (domain admins in their domain; a user reads and updates itself).
int gw_user_list(gw_ctx_t *ctx, json_t *args, json_t **out, bus_error_t *err);
//  The same list for gw_gql_page_table (user_list pages in SQL).
extern const struct gw_gql_table gw_user_table;
int gw_user_get(gw_ctx_t *ctx, const char *email, json_t **out, bus_error_t *err);
int gw_user_get_by_uuid(gw_ctx_t *ctx, const char *uuid, json_t **out, bus_error_t *err);
int gw_user_create(
    gw_ctx_t *ctx, const char *email, json_t *props, json_t **out, bus_error_t *err);
int gw_user_modify(
    gw_ctx_t *ctx, const char *email, json_t *props, json_t **out, bus_error_t *err);
int gw_user_delete(gw_ctx_t *ctx, const char *email, bool purge, bus_error_t *err);
//  User uuid's {email, full_name}, NULL when none (or uuid NULL or ""):
//  for showing who a record is of, no check of who asks. Caller owns
//  return value.
json_t *gw_user_contact(bus_db_t *db, const char *uuid);
//  User uuid's email alone, NULL when none. Caller owns return value.
char *gw_user_email(bus_db_t *db, const char *uuid);

//  Keypairs (domain admins for users of their domain; a user its own).
int gw_keypair_list(gw_ctx_t *ctx, json_t *args, json_t **out, bus_error_t *err);
//  The same list for gw_gql_page_table (keypair_list pages in SQL).
extern const struct gw_gql_table gw_keypair_table;
int gw_keypair_get(gw_ctx_t *ctx, const char *access_key, json_t **out, bus_error_t *err);
int gw_keypair_create(
    gw_ctx_t *ctx, const char *email, json_t *props, json_t **out, bus_error_t *err);
int gw_keypair_modify(
    gw_ctx_t *ctx, const char *access_key, json_t *props, json_t **out, bus_error_t *err);
int gw_keypair_delete(gw_ctx_t *ctx, const char *access_key, bus_error_t *err);
//  Keypair access_key made requests more calls, the last at last_used (ISO
//  8601): its num_queries and last_used, for gw_accesslog's batch (inside
//  its transaction). 0, or -1 on a database error.
int gw_keypair_count_use(bus_db_t *db,
                         const char *access_key,
                         uint64_t requests,
                         const char *last_used);

//  Resource policies: kind is "keypair", "user" or "project" (superadmin
//  writes; everyone reads).
int gw_policy_list(gw_ctx_t *ctx, const char *kind, json_t **out, bus_error_t *err);
int gw_policy_get(
    gw_ctx_t *ctx, const char *kind, const char *name, json_t **out, bus_error_t *err);
int gw_policy_create(gw_ctx_t *ctx,
                     const char *kind,
                     const char *name,
                     json_t *props,
                     json_t **out,
                     bus_error_t *err);
int gw_policy_modify(gw_ctx_t *ctx,
                     const char *kind,
                     const char *name,
                     json_t *props,
                     json_t **out,
                     bus_error_t *err);
int gw_policy_delete(gw_ctx_t *ctx, const char *kind, const char *name, bus_error_t *err);

//  Maps a status to the GraphQL/REST error message prefix.
const char *gw_admin_status_message(int status);

//  ---------------------------------------------------------------------------
//  Images (gw_image.c, reference §11): the catalogue agents report with
//  durable image.catalog events, aliases, and the registries a domain
//  allows. A domain's allowed_docker_registries is a JSON list of registry
//  host names; as in Backend.AI, an empty list allows none, so users of
//  that domain see and resolve no image (superadmins list and read every
//  image; resolution for a domain always checks the list).

#include "gw_gql.h"

#define GW_IMAGE_REF_MAX          512 //  a canonical reference, NUL included
#define GW_IMAGE_REGISTRY_MAX     256
#define GW_IMAGE_TAG_MAX          129 //  Docker's 128 characters, NUL included
#define GW_IMAGE_ARCH_MAX         32
#define GW_IMAGE_ALIAS_MAX        256
#define GW_IMAGE_DEFAULT_REGISTRY "index.docker.io"
#define GW_IMAGE_DEFAULT_TAG      "latest"
#define GW_IMAGE_DEFAULT_ARCH     "x86_64"
#define GW_IMAGE_NOT_FOUND        "Unknown image or alias, or the registry is not allowed"

//  A parsed image reference: registry, project (first path component, ""
//  when the path has one), path ("stable/python"), tag, and the canonical
//  "registry/path:tag" the catalogue is keyed by.
typedef struct {
    char registry[GW_IMAGE_REGISTRY_MAX];
    char project[GW_IMAGE_REF_MAX];
    char path[GW_IMAGE_REF_MAX];
    char tag[GW_IMAGE_TAG_MAX];
    char canonical[GW_IMAGE_REF_MAX];
} gw_image_ref_t;

//  Parses a reference as Backend.AI's ImageRef does: no registry means
//  index.docker.io (a first component is a registry when it has a dot or a
//  colon or is "localhost"), a single name on Docker Hub gets "library/",
//  no tag means "latest". 0, or -1 when text is malformed. Pure.
int gw_image_ref_parse(const char *text, gw_image_ref_t *out);

//  The canonical architecture name: amd64, x64, x86-64 -> x86_64; arm64 ->
//  aarch64; another lower-case name ([a-z0-9_]) as is. NULL means the
//  default. 0, or -1 when malformed. Pure.
int gw_image_arch(const char *name, char out[GW_IMAGE_ARCH_MAX]);

//  True when registry is in allowed (a JSON array of strings). Pure.
bool gw_image_registry_allowed(const json_t *allowed, const char *registry);

//  The resource limits of an image from its labels (a JSON object of
//  strings): {slot: {"min": "<decimal>", "max": "<decimal>" or null}} from
//  ai.backend.resource.min.<slot> and .max.<slot>, with cpu min 1 and mem
//  min 1g when absent. Caller owns return value. Pure.
json_t *gw_image_resources(const json_t *labels);

//  COMPUTE, INFERENCE or SYSTEM, from the label ai.backend.role. Pure.
const char *gw_image_type(const json_t *labels);

//  The pure core of resolution. lookup returns the catalogue's image (a
//  JSON object with a "registry" member; caller owns it) for a canonical
//  reference and architecture, or NULL; alias returns an alias's target
//  reference (caller frees), or NULL. name is tried as a reference first,
//  then as an alias; allowed NULL skips the registry check. BUS_OK with
//  *image (caller owns it), NOT_FOUND (GW_IMAGE_NOT_FOUND) or INVALID.
typedef json_t *(gw_image_lookup_fn) (void *arg, const char *reference, const char *arch);
typedef char *(gw_image_alias_fn) (void *arg, const char *alias);
int gw_image_resolve_with(gw_image_lookup_fn *lookup,
                          gw_image_alias_fn *alias,
                          void *arg,
                          const json_t *allowed,
                          const char *name,
                          const char *arch,
                          json_t **image,
                          bus_error_t *err);

//  Resolves a name or alias to the catalogue's image for architecture (NULL:
//  the default) as a session in domain may use it; domain NULL skips the
//  registry check. *image is the GraphQL Image object (caller owns it).
int gw_image_resolve(bus_db_t *db,
                     const char *domain,
                     const char *name,
                     const char *arch,
                     json_t **image,
                     bus_error_t *err);

//  The image's own command (Entrypoint then Cmd, a JSON array of strings,
//  empty when it has none) by canonical reference and architecture; NULL
//  when no agent reported it. Caller owns return value.
json_t *gw_image_command(bus_db_t *db, const char *reference, const char *arch);

//  Applies one agent's image.catalog: upserts the images it lists and
//  makes the agent's installed entries exactly those it lists as installed.
//  Malformed entries are skipped (logged). 0, or -1 on a database error.
int gw_image_apply_catalog(bus_db_t *db, const proto_image_catalog_t *catalog);

//  The registries of the images agents reported ([{registry}], sorted,
//  each once), NULL on a database error. Caller owns return value.
json_t *gw_image_registries(bus_db_t *db);

//  Follows the node's "image" domain of durable events. 0 or -1.
int gw_image_init(bus_node_t *node);

//  The admin operations: everyone reads (users only images whose registry
//  their domain allows); a superadmin aliases, dealiases and forgets. An
//  alias names a canonical reference in every architecture; arch NULL lets
//  the target exist in any (the official 22.03 CLI never sends --arch).
int gw_image_list(gw_ctx_t *ctx, json_t *args, json_t **out, bus_error_t *err);
int gw_image_get(gw_ctx_t *ctx,
                 const char *reference,
                 const char *arch,
                 json_t **out,
                 bus_error_t *err);
int gw_image_alias(gw_ctx_t *ctx,
                   const char *alias,
                   const char *target,
                   const char *arch,
                   bus_error_t *err);
//  The operator's alias (offline, before any agent reported): target need
//  not be in the catalogue yet, and an existing alias is repointed, so
//  deploy scripts can set it on every start.
int gw_image_alias_preset(bus_db_t *db,
                          const char *alias,
                          const char *target,
                          bus_error_t *err);
int gw_image_dealias(gw_ctx_t *ctx, const char *alias, bus_error_t *err);
int
gw_image_forget(gw_ctx_t *ctx, const char *reference, const char *arch, bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Resource groups, Backend.AI's "scaling groups" (gw_sgroup.c): superadmin
//  writes and associations; a domain admin or monitor reads the groups of
//  its domain, a user those it may use. kind is "domain", "user_group" or
//  "keypair"; target a domain name, project id or access key.

#include "gw_gql.h"

int gw_sgroup_list(gw_ctx_t *ctx, json_t *args, json_t **out, bus_error_t *err);
int gw_sgroup_get(gw_ctx_t *ctx, const char *name, json_t **out, bus_error_t *err);
//  The groups associated with target (args: optional is_active).
int gw_sgroup_list_for(gw_ctx_t *ctx,
                       const char *kind,
                       const char *target,
                       json_t *args,
                       json_t **out,
                       bus_error_t *err);
int gw_sgroup_create(
    gw_ctx_t *ctx, const char *name, json_t *props, json_t **out, bus_error_t *err);
int gw_sgroup_modify(
    gw_ctx_t *ctx, const char *name, json_t *props, json_t **out, bus_error_t *err);
int gw_sgroup_delete(gw_ctx_t *ctx, const char *name, bus_error_t *err);
//  Associates sgroup with target, or dissociates it (sgroup NULL: every
//  group of target).
int gw_sgroup_associate(gw_ctx_t *ctx,
                        const char *kind,
                        const char *sgroup,
                        const char *target,
                        bool associate,
                        bus_error_t *err);
//  The active resource groups the caller may use through project group (id,
//  or name in the caller's domain): those of the domain, the project and the
//  keypair. Fills project_id and *names (a JSON array of names, caller owns
//  it). NOT_FOUND when the caller may not use the project.
int gw_sgroup_usable(gw_ctx_t *ctx,
                     const char *group,
                     char project_id[GW_UUID_SIZE],
                     json_t **names,
                     bus_error_t *err);
//  GET /scaling-groups?group=; GET /scaling-groups/{scaling_group}/wsproxy-version.
void gw_sgroup_handle_list(gw_request_t *r);
void gw_sgroup_handle_wsproxy_version(gw_request_t *r);

//  Resource presets (gw_preset.c): superadmin writes, everyone reads.
//  scaling_group NULL lists all; otherwise that group's and the global ones.
int
gw_preset_list(gw_ctx_t *ctx, const char *scaling_group, json_t **out, bus_error_t *err);
int gw_preset_get(gw_ctx_t *ctx, const char *name, json_t **out, bus_error_t *err);
int gw_preset_create(
    gw_ctx_t *ctx, const char *name, json_t *props, json_t **out, bus_error_t *err);
int gw_preset_modify(
    gw_ctx_t *ctx, const char *name, json_t *props, json_t **out, bus_error_t *err);
int gw_preset_delete(gw_ctx_t *ctx, const char *name, bus_error_t *err);
//  GET /resource/presets[?scaling_group=].
void gw_preset_handle_list(gw_request_t *r);
//  POST /resource/check-presets (gw_check_presets.c): limits, usage and
//  what remains for the caller, and which presets fit now.
void gw_check_presets_handle(gw_request_t *r);

#endif
