/*  =========================================================================
    gw_image - the image catalogue: agents' reports, aliases, resolution

    Agents announce the images they hold with durable image.catalog events
    (proto/image.yaml), each the agent's full set; the gateway follows the
    "image" domain and keeps one row per (canonical reference,
    architecture) with the agents that have it installed. A name given by
    a client resolves first as a reference (reference §11: no registry
    means index.docker.io, Docker Hub single names get "library/", no tag
    means "latest"), then as an alias, and the image's registry must be in
    the domain's allowed_docker_registries. Parsing, the label rules and
    resolution are pure functions (gw_image_ref); the catalogue's table,
    the admin operations and the GraphQL root fields sit on top of them
    here.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

#define IMAGE_COLUMNS                                                                    \
    "SELECT id, name, registry, project, image, tag, architecture, digest, size_bytes,"  \
    " labels, resources, type, installed_agents FROM images"

#define LABEL_FEATURES "ai.backend.features"
#define LABEL_ACCEL    "ai.backend.accelerators"

//  ---------------------------------------------------------------------------
//  The catalogue in the database

typedef struct {
    bus_db_t *db;
    bool show_agents; //  installed_agents for superadmins only, as Backend.AI
} image_ctx_t;

static json_t *
s_column_json(sqlite3_stmt *stmt, int column, json_t *fallback)
{
    const char *text = (const char *) sqlite3_column_text(stmt, column);
    json_t *value = text ? json_loads(text, 0, NULL) : NULL;
    if (value) {
        json_decref(fallback);
        return value;
    }
    return fallback;
}

static json_t *
s_aliases(bus_db_t *db, const char *reference)
{
    json_t *aliases = json_array();
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "SELECT alias FROM image_aliases WHERE image = ?1 ORDER BY alias");
    if (!stmt)
        return aliases;
    sqlite3_bind_text(stmt, 1, reference, -1, SQLITE_TRANSIENT);
    while (sqlite3_step(stmt) == SQLITE_ROW)
        json_array_append_new(aliases,
                              json_string((const char *) sqlite3_column_text(stmt, 0)));
    sqlite3_reset(stmt);
    return aliases;
}

//  The GraphQL Image object of the current row of an IMAGE_COLUMNS query.
static json_t *
s_image_json(const image_ctx_t *ctx, sqlite3_stmt *stmt)
{
#define TEXT(i) ((const char *) sqlite3_column_text(stmt, (i)) ?: "")
    json_t *labels = s_column_json(stmt, 9, json_object());
    json_t *resources = s_column_json(stmt, 10, json_object());
    json_t *agents = s_column_json(stmt, 12, json_array());
    if (!json_is_object(labels) || !json_is_object(resources) || !json_is_array(agents)) {
        bus_log_error("image row has malformed JSON name=%s", TEXT(1));
        json_decref(labels);
        json_decref(resources);
        json_decref(agents);
        labels = json_object();
        resources = json_object();
        agents = json_array();
    }
    json_t *label_list = json_array();
    const char *key;
    json_t *value;
    json_object_foreach(labels, key, value)
    {
        json_array_append_new(label_list,
                              json_pack("{s:s, s:O}", "key", key, "value", value));
    }
    json_t *limits = json_array();
    json_object_foreach(resources, key, value)
    {
        json_t *max = json_object_get(value, "max");
        json_t *min = json_object_get(value, "min");
        json_array_append_new(
            limits,
            json_pack("{s:s, s:O, s:o}", "key", key, "min", min ? min : json_null(),
                      "max",
                      json_is_string(max) ? json_incref(max) : json_string("Infinity")));
    }
    json_t *accelerators = json_array();
    const char *accel = json_string_value(json_object_get(labels, LABEL_ACCEL));
    for (const char *p = accel; p && *p;) {
        size_t n = strcspn(p, ",");
        if (n)
            json_array_append_new(accelerators, json_stringn(p, n));
        p += n + (p[n] == ',');
    }
    bool installed = json_array_size(agents) > 0;
    json_t *image =
        json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:I, s:o, s:o, "
                  "s:o, s:b, s:o, "
                  "s:s, s:o, s:O}",
                  "id", TEXT(0), "reference", TEXT(1), "registry", TEXT(2), "project",
                  TEXT(3), "name", TEXT(4), "humanized_name", TEXT(4), "tag", TEXT(5),
                  "architecture", TEXT(6), "digest", TEXT(7), "hash", TEXT(7),
                  "size_bytes", (json_int_t) sqlite3_column_int64(stmt, 8), "aliases",
                  s_aliases(ctx->db, TEXT(1)), "labels", label_list, "resource_limits",
                  limits, "installed", installed, "installed_agents",
                  ctx->show_agents ? json_incref(agents) : json_array(), "type", TEXT(11),
                  "supported_accelerators", accelerators, "is_local", json_false());
    json_decref(labels);
    json_decref(resources);
    json_decref(agents);
    return image;
#undef TEXT
}

//  gw_image_lookup_fn over the database.
static json_t *
s_lookup(void *arg, const char *reference, const char *arch)
{
    const image_ctx_t *ctx = arg;
    sqlite3_stmt *stmt =
        bus_db_stmt(ctx->db, IMAGE_COLUMNS " WHERE name = ?1 AND architecture = ?2");
    if (!stmt)
        return NULL;
    sqlite3_bind_text(stmt, 1, reference, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(stmt, 2, arch, -1, SQLITE_TRANSIENT);
    json_t *image = NULL;
    if (sqlite3_step(stmt) == SQLITE_ROW)
        image = s_image_json(ctx, stmt);
    sqlite3_reset(stmt);
    return image;
}

//  gw_image_alias_fn over the database.
static char *
s_alias_target(void *arg, const char *alias)
{
    const image_ctx_t *ctx = arg;
    sqlite3_stmt *stmt =
        bus_db_stmt(ctx->db, "SELECT image FROM image_aliases WHERE alias = ?1");
    if (!stmt)
        return NULL;
    sqlite3_bind_text(stmt, 1, alias, -1, SQLITE_TRANSIENT);
    char *target = NULL;
    if (sqlite3_step(stmt) == SQLITE_ROW)
        target = strdup((const char *) sqlite3_column_text(stmt, 0));
    sqlite3_reset(stmt);
    return target;
}

//  The domain's allowed registries (caller owns it); an unknown domain or
//  a malformed column allows none.
static json_t *
s_allowed(bus_db_t *db, const char *domain)
{
    json_t *allowed = NULL;
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT allowed_docker_registries FROM domains WHERE name = ?1");
    if (stmt) {
        sqlite3_bind_text(stmt, 1, domain, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(stmt) == SQLITE_ROW) {
            const char *text = (const char *) sqlite3_column_text(stmt, 0);
            allowed = text ? json_loads(text, 0, NULL) : NULL;
        }
        sqlite3_reset(stmt);
    }
    if (!json_is_array(allowed)) {
        json_decref(allowed);
        allowed = json_array();
    }
    return allowed;
}

int
gw_image_resolve(bus_db_t *db,
                 const char *domain,
                 const char *name,
                 const char *arch,
                 json_t **image,
                 bus_error_t *err)
{
    assert(db && image);
    image_ctx_t ctx = {db, false};
    json_t *allowed = domain ? s_allowed(db, domain) : NULL;
    int rc = gw_image_resolve_with(s_lookup, s_alias_target, &ctx, allowed, name, arch,
                                   image, err);
    json_decref(allowed);
    return rc;
}

json_t *
gw_image_command(bus_db_t *db, const char *reference, const char *arch)
{
    assert(db && reference && arch);
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "SELECT command FROM images WHERE name = ?1 AND architecture = ?2");
    json_t *command = NULL;
    if (stmt) {
        sqlite3_bind_text(stmt, 1, reference, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(stmt, 2, arch, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_text(stmt, 0))
            command = json_loads((const char *) sqlite3_column_text(stmt, 0), 0, NULL);
        sqlite3_reset(stmt);
    }
    if (command && !json_is_array(command))
        json_decref(command), command = NULL;
    return command;
}

//  ---------------------------------------------------------------------------
//  Agents' reports

static int
s_step(sqlite3_stmt *stmt)
{
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

//  Upserts one reported image; the agent is already out of every list. A
//  report without labels, digest or size keeps what is known (they belong
//  to the image, not to the agent).
static int
s_upsert(bus_db_t *db, const char *agent, const proto_image_info_t *info)
{
    gw_image_ref_t ref;
    char arch[GW_IMAGE_ARCH_MAX];
    if (gw_image_ref_parse(info->reference, &ref) != 0 ||
        gw_image_arch(info->architecture, arch) != 0) {
        bus_log_warning(
            "image report entry skipped agent=%s reference=\"%s\" arch=\"%s\"", agent,
            info->reference, info->architecture);
        return 0;
    }
    json_t *labels = json_object();
    for (size_t i = 0; i < info->labels_count; i++)
        json_object_set_new(labels, info->labels[i].key,
                            json_string(info->labels[i].value));
    json_t *resources = gw_image_resources(labels);
    char *labels_text = json_dumps(labels, JSON_COMPACT);
    json_t *command = json_array();
    for (size_t i = 0; i < info->command_count; i++)
        json_array_append_new(command, json_string(info->command[i]));
    char *command_text = json_dumps(command, JSON_COMPACT);
    json_decref(command);
    char *resources_text = json_dumps(resources, JSON_COMPACT);
    char id[GW_UUID_SIZE], now[40];
    gw_uuid_new(id);
    gw_now_iso(now);
    sqlite3_stmt *stmt = bus_db_stmt(
        db,
        "INSERT INTO images (id, name, registry, project, image, tag, architecture,"
        " digest, size_bytes, labels, resources, type, created_at, installed_agents,"
        " command)"
        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,"
        "  CASE WHEN ?15 THEN json_array(?14) ELSE '[]' END,"
        "  CASE WHEN ?8 <> '' THEN ?17 END)"
        " ON CONFLICT (name, architecture) DO UPDATE SET"
        "  command = CASE WHEN excluded.digest <> '' THEN excluded.command"
        "   ELSE images.command END,"
        "  digest = CASE WHEN excluded.digest <> '' THEN excluded.digest"
        "   ELSE images.digest END,"
        "  size_bytes = CASE WHEN excluded.size_bytes > 0 THEN excluded.size_bytes"
        "   ELSE images.size_bytes END,"
        "  labels = CASE WHEN ?16 THEN excluded.labels ELSE images.labels END,"
        "  resources = CASE WHEN ?16 THEN excluded.resources ELSE images.resources END,"
        "  type = CASE WHEN ?16 THEN excluded.type ELSE images.type END,"
        "  installed_agents = CASE WHEN ?15 AND NOT EXISTS (SELECT 1 FROM"
        "   json_each(images.installed_agents) WHERE value = ?14)"
        "   THEN json_insert(images.installed_agents, '$[#]', ?14)"
        "   ELSE images.installed_agents END");
    int rc = -1;
    if (stmt && labels_text && resources_text && command_text) {
        sqlite3_bind_text(stmt, 1, id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(stmt, 2, ref.canonical, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(stmt, 3, ref.registry, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(stmt, 4, ref.project, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(stmt, 5, ref.path, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(stmt, 6, ref.tag, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(stmt, 7, arch, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(stmt, 8, info->digest ? info->digest : "", -1,
                          SQLITE_TRANSIENT);
        sqlite3_bind_int64(stmt, 9,
                           info->size_bytes > INT64_MAX ? INT64_MAX
                                                        : (int64_t) info->size_bytes);
        sqlite3_bind_text(stmt, 10, labels_text, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(stmt, 11, resources_text, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(stmt, 12, gw_image_type(labels), -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(stmt, 13, now, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(stmt, 14, agent, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(stmt, 15, info->installed ? 1 : 0);
        sqlite3_bind_int(stmt, 16, info->labels_count > 0);
        sqlite3_bind_text(stmt, 17, command_text, -1, SQLITE_TRANSIENT);
        rc = s_step(stmt);
        if (rc != 0)
            bus_log_error("image upsert failed name=%s reason=\"%s\"", ref.canonical,
                          sqlite3_errmsg(bus_db_handle(db)));
    }
    free(labels_text);
    free(resources_text);
    free(command_text);
    json_decref(labels);
    json_decref(resources);
    return rc;
}

int
gw_image_apply_catalog(bus_db_t *db, const proto_image_catalog_t *catalog)
{
    assert(db && catalog);
    const char *agent = catalog->agent_id;
    sqlite3_stmt *forget = bus_db_stmt(
        db, "UPDATE images SET installed_agents = (SELECT json_group_array(value) FROM"
            " json_each(images.installed_agents) WHERE value <> ?1)"
            " WHERE EXISTS (SELECT 1 FROM json_each(images.installed_agents)"
            " WHERE value = ?1)");
    if (!forget)
        return -1;
    sqlite3_bind_text(forget, 1, agent, -1, SQLITE_TRANSIENT);
    if (s_step(forget) != 0)
        return -1;
    for (size_t i = 0; i < catalog->images_count; i++)
        if (s_upsert(db, agent, &catalog->images[i]) != 0)
            return -1;
    bus_log_info("image catalog applied agent=%s images=%zu", agent,
                 catalog->images_count);
    return 0;
}

//  Applies image.catalog events; runs inside the inbox transaction.
static int
s_apply(void *arg, bus_node_t *node, const bus_event_t *event)
{
    (void) arg;
    if (strcmp(event->topic, PROTO_IMAGE_CATALOG) != 0)
        return 0; //  other image events are not ours
    proto_image_catalog_t catalog;
    bus_error_t err = {0};
    if (proto_image_catalog_decode(&catalog, event->body, event->body_size, &err) !=
        BUS_OK) {
        //  It can never apply; skip it rather than stall the stream.
        bus_log_error("image catalog malformed; skipped src=%s seq=%" PRIu64
                      " reason=\"%s\"",
                      event->header.src, event->header.seq, err.detail);
        return 0;
    }
    int rc = gw_image_apply_catalog(bus_node_db(node), &catalog);
    proto_image_catalog_clear(&catalog);
    return rc;
}

int
gw_image_init(bus_node_t *node)
{
    assert(node);
    return bus_node_follow(node, "image", s_apply, NULL);
}

//  ---------------------------------------------------------------------------
//  Admin operations

static bool
s_is_operation(json_t *image)
{
    size_t index;
    json_t *label;
    json_array_foreach(json_object_get(image, "labels"), index, label)
    {
        if (strcmp(json_string_value(json_object_get(label, "key")), LABEL_FEATURES) != 0)
            continue;
        const char *p = json_string_value(json_object_get(label, "value"));
        while (p && *p) {
            size_t n = strcspn(p, " ");
            if (n == 9 && strncmp(p, "operation", 9) == 0)
                return true;
            p += n + (p[n] == ' ');
        }
    }
    return false;
}

int
gw_image_list(gw_ctx_t *ctx, json_t *args, json_t **out, bus_error_t *err)
{
    bus_db_t *db = ctx->db;
    bool super = gw_identity_is_superadmin(ctx->who);
    image_ctx_t look = {db, super};
    json_t *allowed = super ? NULL : s_allowed(db, ctx->who->domain);
    json_t *installed = json_object_get(args, "is_installed");
    json_t *operation = json_object_get(args, "is_operation");
    sqlite3_stmt *stmt = bus_db_stmt(db, IMAGE_COLUMNS " ORDER BY name, architecture");
    if (!stmt) {
        json_decref(allowed);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    }
    json_t *rows = json_array();
    while (sqlite3_step(stmt) == SQLITE_ROW)
        json_array_append_new(rows, s_image_json(&look, stmt));
    sqlite3_reset(stmt);
    *out = json_array();
    size_t index;
    json_t *image;
    json_array_foreach(rows, index, image)
    {
        if (allowed &&
            !gw_image_registry_allowed(
                allowed, json_string_value(json_object_get(image, "registry"))))
            continue;
        if (json_is_boolean(installed) &&
            json_is_true(installed) != json_is_true(json_object_get(image, "installed")))
            continue;
        if (json_is_boolean(operation) &&
            json_is_true(operation) != s_is_operation(image))
            continue;
        json_array_append(*out, image);
    }
    json_decref(rows);
    json_decref(allowed);
    return BUS_OK;
}

int
gw_image_get(gw_ctx_t *ctx,
             const char *reference,
             const char *arch,
             json_t **out,
             bus_error_t *err)
{
    bool super = gw_identity_is_superadmin(ctx->who);
    image_ctx_t look = {ctx->db, super};
    json_t *allowed = super ? NULL : s_allowed(ctx->db, ctx->who->domain);
    int rc = gw_image_resolve_with(s_lookup, s_alias_target, &look, allowed, reference,
                                   arch, out, err);
    json_decref(allowed);
    return rc;
}

//  Checks an alias and its target; fills ref with the canonical target.
static int
s_alias_check(const char *alias,
              const char *target,
              gw_image_ref_t *ref,
              bus_error_t *err)
{
    size_t n = alias ? strlen(alias) : 0;
    if (n == 0 || n >= GW_IMAGE_ALIAS_MAX || strpbrk(alias, " \t\r\n"))
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "an alias is 1-%d characters, without spaces",
                             GW_IMAGE_ALIAS_MAX - 1);
    if (!target || gw_image_ref_parse(target, ref) != 0)
        return bus_error_set(err, BUS_STATUS_INVALID, "malformed image reference");
    return BUS_OK;
}

int
gw_image_alias(gw_ctx_t *ctx,
               const char *alias,
               const char *target,
               const char *arch,
               bus_error_t *err)
{
    if (!gw_identity_is_superadmin(ctx->who))
        return bus_error_set(err, BUS_STATUS_FORBIDDEN,
                             "only a superadmin aliases images");
    gw_image_ref_t ref;
    char architecture[GW_IMAGE_ARCH_MAX];
    int rc = s_alias_check(alias, target, &ref, err);
    if (rc != BUS_OK)
        return rc;
    if (arch && gw_image_arch(arch, architecture) != 0)
        return bus_error_set(err, BUS_STATUS_INVALID, "malformed architecture");
    //  An alias names a reference in every architecture; the target must
    //  exist in the one given, or in any when none is (the 22.03 CLI's
    //  --arch never reaches the server: its query leaves the variable out).
    sqlite3_stmt *stmt = bus_db_stmt(
        ctx->db,
        "SELECT 1 FROM images WHERE name = ?1 AND (?2 IS NULL OR architecture = ?2)");
    if (!stmt)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    sqlite3_bind_text(stmt, 1, ref.canonical, -1, SQLITE_TRANSIENT);
    if (arch)
        sqlite3_bind_text(stmt, 2, architecture, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(stmt, 2);
    bool exists = sqlite3_step(stmt) == SQLITE_ROW;
    sqlite3_reset(stmt);
    if (!exists)
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "No such image: %s%s%s%s",
                             ref.canonical, arch ? " (" : "", arch ? architecture : "",
                             arch ? ")" : "");
    stmt =
        bus_db_stmt(ctx->db, "INSERT INTO image_aliases (alias, image) VALUES (?1, ?2)");
    if (!stmt)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    sqlite3_bind_text(stmt, 1, alias, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(stmt, 2, ref.canonical, -1, SQLITE_TRANSIENT);
    rc = gw_store_step(ctx->db, stmt, err);
    if (rc == BUS_STATUS_CONFLICT)
        bus_error_set(err, rc, "the alias %s already exists", alias);
    if (rc == BUS_OK)
        bus_log_notice("image alias created alias=%s image=%s by=%s", alias,
                       ref.canonical, ctx->who->email);
    return rc;
}

int
gw_image_alias_preset(bus_db_t *db,
                      const char *alias,
                      const char *target,
                      bus_error_t *err)
{
    gw_image_ref_t ref;
    int rc = s_alias_check(alias, target, &ref, err);
    if (rc != BUS_OK)
        return rc;
    sqlite3_stmt *stmt = bus_db_stmt(db, "INSERT INTO image_aliases (alias, image)"
                                         " VALUES (?1, ?2) ON CONFLICT (alias)"
                                         " DO UPDATE SET image = excluded.image");
    if (!stmt)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    sqlite3_bind_text(stmt, 1, alias, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(stmt, 2, ref.canonical, -1, SQLITE_TRANSIENT);
    rc = gw_store_step(db, stmt, err);
    if (rc == BUS_OK)
        bus_log_notice("image alias set alias=%s image=%s by=operator", alias,
                       ref.canonical);
    return rc;
}

int
gw_image_dealias(gw_ctx_t *ctx, const char *alias, bus_error_t *err)
{
    if (!gw_identity_is_superadmin(ctx->who))
        return bus_error_set(err, BUS_STATUS_FORBIDDEN,
                             "only a superadmin dealiases images");
    sqlite3_stmt *stmt =
        bus_db_stmt(ctx->db, "DELETE FROM image_aliases WHERE alias = ?1");
    if (!stmt)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    sqlite3_bind_text(stmt, 1, alias ? alias : "", -1, SQLITE_TRANSIENT);
    int rc = gw_store_step(ctx->db, stmt, err);
    if (rc == BUS_OK && sqlite3_changes(bus_db_handle(ctx->db)) == 0)
        rc = bus_error_set(err, BUS_STATUS_NOT_FOUND, "No such alias.");
    if (rc == BUS_OK)
        bus_log_notice("image alias removed alias=%s by=%s", alias, ctx->who->email);
    return rc;
}

int
gw_image_forget(gw_ctx_t *ctx, const char *reference, const char *arch, bus_error_t *err)
{
    if (!gw_identity_is_superadmin(ctx->who))
        return bus_error_set(err, BUS_STATUS_FORBIDDEN,
                             "only a superadmin forgets images");
    gw_image_ref_t ref;
    char architecture[GW_IMAGE_ARCH_MAX];
    if (!reference || gw_image_ref_parse(reference, &ref) != 0)
        return bus_error_set(err, BUS_STATUS_INVALID, "malformed image reference");
    if (gw_image_arch(arch, architecture) != 0)
        return bus_error_set(err, BUS_STATUS_INVALID, "malformed architecture");
    bus_db_t *db = ctx->db;
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "DELETE FROM images WHERE name = ?1 AND architecture = ?2");
    if (!stmt)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "database error");
    sqlite3_bind_text(stmt, 1, ref.canonical, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(stmt, 2, architecture, -1, SQLITE_TRANSIENT);
    int rc = gw_store_step(db, stmt, err);
    if (rc == BUS_OK && sqlite3_changes(bus_db_handle(db)) == 0)
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "No such image.");
    if (rc != BUS_OK)
        return rc;
    //  Aliases name a reference of any architecture: drop them with the last.
    stmt = bus_db_stmt(db, "DELETE FROM image_aliases WHERE image = ?1 AND NOT EXISTS"
                           " (SELECT 1 FROM images WHERE name = ?1)");
    if (stmt) {
        sqlite3_bind_text(stmt, 1, ref.canonical, -1, SQLITE_TRANSIENT);
        gw_store_step(db, stmt, err);
    }
    bus_log_notice("image forgotten name=%s arch=%s by=%s", ref.canonical, architecture,
                   ctx->who->email);
    return BUS_OK;
}

json_t *
gw_image_registries(bus_db_t *db)
{
    return gw_store_rows(db, "SELECT DISTINCT registry FROM images ORDER BY registry",
                         NULL, NULL);
}
