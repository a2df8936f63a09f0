/*  =========================================================================
    sched_db_snapshot - what one scheduling pass reads from the database

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

#define ARENA_CHUNK      65536
#define DEFAULT_SKIPS    3 //  passes a session may be passed over before it starves
#define LIFO_OLDEST_PART 4 //  LIFO: a quarter of the window goes to the oldest

//  A session whose dependencies all ended with success (or has none).
#define SNAPSHOT_READY                                                                   \
    "(dependencies = '[]' OR NOT EXISTS (SELECT 1 FROM json_each(sessions.dependencies)" \
    " d LEFT JOIN sessions x ON x.id = d.value WHERE x.id IS NULL OR"                    \
    " x.status <> 'TERMINATED' OR x.result <> 'SUCCESS'))"

//  A chunk of the string arena; strings never move once kept.
typedef struct arena_s {
    struct arena_s *next;
    size_t used, size;
    char data[];
} arena_t;

typedef struct {
    arena_t *head;
    zhashx_t *scopes; //  "<kind>\n<key>" -> scope index + 1
    zhashx_t *owners; //  access key -> owner index + 1
    size_t scopes_max;
    const char **limits; //  per scope: its limits text, parsed once all slots are known
} strings_t;

static const char *
s_keep(sched_db_snapshot_t *self, const char *text)
{
    strings_t *strings = self->strings;
    size_t length = strlen(text) + 1;
    arena_t *chunk = strings->head;
    if (!chunk || chunk->size - chunk->used < length) {
        size_t size = length > ARENA_CHUNK ? length : ARENA_CHUNK;
        chunk = malloc(sizeof *chunk + size);
        if (!chunk)
            return "";
        chunk->next = strings->head;
        chunk->used = 0;
        chunk->size = size;
        strings->head = chunk;
    }
    char *kept = chunk->data + chunk->used;
    memcpy(kept, text, length);
    chunk->used += length;
    return kept;
}

static const char *
s_text(sqlite3_stmt *stmt, int column)
{
    const char *text = (const char *) sqlite3_column_text(stmt, column);
    return text ? text : "";
}

int
sched_db_snapshot_slot(const sched_db_snapshot_t *self, const char *name)
{
    for (size_t i = 0; i < self->slot_count; i++)
        if (strcmp(self->slot_names[i], name) == 0)
            return (int) i;
    return -1;
}

//  The slot's index, added when new; -1 when the vectors are full.
static int
s_slot(sched_db_snapshot_t *self, const char *name)
{
    int index = sched_db_snapshot_slot(self, name);
    if (index >= 0 || self->slot_count == SCHED_SLOTS_MAX)
        return index;
    self->slot_names[self->slot_count] = s_keep(self, name);
    return (int) self->slot_count++;
}

void
sched_db_snapshot_rules(bus_db_t *db,
                        const char *group,
                        sched_rules_t *rules,
                        int64_t *pending_timeout_us)
{
    *rules =
        (sched_rules_t){SCHED_POLICY_FIFO, SCHED_SELECT_CONCENTRATED, 0, DEFAULT_SKIPS};
    *pending_timeout_us = 0;
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT scheduler, opts FROM sgroups WHERE name = ?1");
    if (!stmt)
        return;
    sqlite3_bind_text(stmt, 1, group, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(stmt) == SQLITE_ROW) {
        const char *policy = s_text(stmt, 0);
        rules->policy = strcmp(policy, "lifo") == 0       ? SCHED_POLICY_LIFO
                        : strcmp(policy, "drf") == 0      ? SCHED_POLICY_DRF
                        : strcmp(policy, "priority") == 0 ? SCHED_POLICY_PRIORITY
                                                          : SCHED_POLICY_FIFO;
        json_t *opts = json_loads(s_text(stmt, 1), 0, NULL);
        const char *selector = json_string_value(json_object_get(opts, "agent_selector"));
        if (selector && strcmp(selector, "dispersed") == 0)
            rules->selector = SCHED_SELECT_DISPERSED;
        else if (selector && strcmp(selector, "roundrobin") == 0)
            rules->selector = SCHED_SELECT_ROUNDROBIN;
        json_t *skips = json_object_get(opts, "num_retries_to_skip");
        if (json_is_integer(skips) && json_integer_value(skips) >= 0)
            rules->skip_passes = (uint32_t) json_integer_value(skips);
        //  Seconds, as Backend.AI's scheduler_opts spell durations.
        json_t *aging = json_object_get(opts, "aging_sec");
        if (json_is_number(aging) && json_number_value(aging) > 0)
            rules->aging_us = (int64_t) (json_number_value(aging) * 1e6);
        json_t *timeout = json_object_get(opts, "pending_timeout");
        if (json_is_number(timeout) && json_number_value(timeout) > 0)
            *pending_timeout_us = (int64_t) (json_number_value(timeout) * 1e6);
        json_decref(opts);
    }
    sqlite3_reset(stmt);
}

//  One amount of a limits object member: INT64_MAX for none or "Infinity".
static int64_t
s_limit_amount(const char *slot, json_t *value)
{
    bus_slots_unit_t unit = bus_slots_unit(slot);
    bus_slots_value_t parsed;
    bus_error_t err = {0};
    if (bus_slots_parse_value(unit == BUS_SLOTS_UNKNOWN ? BUS_SLOTS_COUNT : unit, slot,
                              value, &parsed, &err) != BUS_OK ||
        parsed.infinite)
        return SCHED_UNLIMITED;
    return parsed.amount;
}

//  A slot map of limits into vector: listed slots as given, the others
//  unlimited or zero.
static void
s_limit_vector(const sched_db_snapshot_t *self,
               json_t *map,
               bool limited,
               sched_vec_t *out)
{
    for (size_t i = 0; i < self->slot_count; i++) {
        json_t *value = json_object_get(map, self->slot_names[i]);
        out->v[i] = value && !json_is_null(value)
                        ? s_limit_amount(self->slot_names[i], value)
                        : (limited ? 0 : SCHED_UNLIMITED);
    }
}

static int64_t
s_limit_count(json_t *value)
{
    return json_is_integer(value) && json_integer_value(value) >= 0
               ? (int64_t) json_integer_value(value)
               : SCHED_UNLIMITED;
}

void
sched_db_snapshot_parse_limits(const sched_db_snapshot_t *self,
                               const char *text,
                               sched_scope_t *scope)
{
    json_t *limits = text ? json_loads(text, 0, NULL) : NULL;
    const char *unspecified = json_string_value(json_object_get(limits, "unspecified"));
    bool limited = unspecified && strcmp(unspecified, "limited") == 0;
    json_t *total = json_object_get(limits, "total_resource_slots");
    s_limit_vector(self, json_is_object(total) ? total : NULL,
                   limited && json_is_object(total), &scope->limit);
    scope->max_concurrent_sessions =
        s_limit_count(json_object_get(limits, "max_concurrent_sessions"));
    scope->max_containers_per_session =
        s_limit_count(json_object_get(limits, "max_containers_per_session"));
    scope->max_pending_count =
        s_limit_count(json_object_get(limits, "max_pending_session_count"));
    json_t *pending = json_object_get(limits, "max_pending_session_resource_slots");
    s_limit_vector(self, json_is_object(pending) ? pending : NULL, false,
                   &scope->max_pending_slots);
    json_decref(limits);
}

//  Each agent's accelerators offered both whole and as shares: a slot
//  "<p>.device" and a slot "<p>.shares" it has capacity of.
static void
s_pairs(sched_db_snapshot_t *self)
{
    static const char device[] = ".device";
    for (size_t d = 0; d < self->slot_count; d++) {
        const char *name = self->slot_names[d];
        size_t length = strlen(name);
        if (length <= sizeof device - 1 ||
            strcmp(name + length - (sizeof device - 1), device) != 0)
            continue;
        char shares_name[SCHED_SLOT_NAME_MAX + 8];
        snprintf(shares_name, sizeof shares_name, "%.*s.shares",
                 (int) (length - (sizeof device - 1)), name);
        int shares = sched_db_snapshot_slot(self, shares_name);
        for (size_t a = 0; shares >= 0 && a < self->agent_count; a++) {
            sched_agent_t *agent = &self->agents[a];
            if (agent->capacity.v[d] > 0 && agent->capacity.v[shares] > 0 &&
                agent->pair_count < SCHED_PAIRS_MAX)
                agent->pairs[agent->pair_count++] =
                    (sched_pair_t){(uint8_t) d, (uint8_t) shares};
        }
    }
}

//  The agents of the group with their capacity, then their occupancy, what
//  they can place and their paired slots.
static int
s_load_agents(sched_db_snapshot_t *self, bus_db_t *db)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "SELECT count(*) FROM agents WHERE status = 'ALIVE' AND schedulable = 1"
            " AND scaling_group = ?1 AND architecture = ?2 AND last_seen >= ?3");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, self->group, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, self->architecture, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 3, self->heard_since_us);
    size_t max =
        sqlite3_step(stmt) == SQLITE_ROW ? (size_t) sqlite3_column_int64(stmt, 0) : 0;
    sqlite3_reset(stmt);
    self->agents = calloc(max ? max : 1, sizeof *self->agents);
    if (!self->agents)
        return -1;
    //  Capacity rows in agent order; an agent without any is not placeable
    //  and does not appear.
    stmt = bus_db_stmt(
        db, "SELECT a.id, c.slot, c.amount FROM agents a"
            " JOIN agent_capacity c ON c.agent_id = a.id"
            " WHERE a.status = 'ALIVE' AND a.schedulable = 1 AND a.scaling_group = ?1"
            " AND a.architecture = ?2 AND a.last_seen >= ?3 ORDER BY a.id");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, self->group, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, self->architecture, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 3, self->heard_since_us);
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        const char *id = s_text(stmt, 0);
        sched_agent_t *agent =
            self->agent_count ? &self->agents[self->agent_count - 1] : NULL;
        if (!agent || strcmp(agent->id, id) != 0) {
            if (self->agent_count == max)
                break; //  one registered between the two statements
            agent = &self->agents[self->agent_count++];
            agent->id = s_keep(self, id);
        }
        int slot = s_slot(self, s_text(stmt, 1));
        if (slot >= 0)
            agent->capacity.v[slot] = sqlite3_column_int64(stmt, 2);
    }
    sqlite3_reset(stmt);
    stmt = bus_db_stmt(
        db, "SELECT o.agent_id, o.slot, o.amount FROM agent_occupancy o"
            " JOIN agents a ON a.id = o.agent_id"
            " WHERE a.status = 'ALIVE' AND a.schedulable = 1 AND a.scaling_group = ?1"
            " AND a.architecture = ?2 AND a.last_seen >= ?3 AND o.amount <> 0 ORDER BY "
            "o.agent_id");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, self->group, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, self->architecture, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 3, self->heard_since_us);
    size_t cursor = 0;
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        const char *id = s_text(stmt, 0);
        while (cursor < self->agent_count && strcmp(self->agents[cursor].id, id) < 0)
            cursor++;
        if (cursor == self->agent_count || strcmp(self->agents[cursor].id, id) != 0)
            continue;
        int slot = s_slot(self, s_text(stmt, 1));
        if (slot >= 0)
            self->agents[cursor].occupied.v[slot] = sqlite3_column_int64(stmt, 2);
    }
    sqlite3_reset(stmt);
    //  What one kernel can be given now where the agent said so.
    stmt = bus_db_stmt(
        db, "SELECT p.agent_id, p.slot, p.amount FROM agent_placeable p"
            " JOIN agents a ON a.id = p.agent_id"
            " WHERE a.status = 'ALIVE' AND a.schedulable = 1 AND a.scaling_group = ?1"
            " AND a.architecture = ?2 AND a.last_seen >= ?3 ORDER BY p.agent_id");
    if (!stmt)
        return -1;
    sqlite3_bind_text(stmt, 1, self->group, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, self->architecture, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 3, self->heard_since_us);
    cursor = 0;
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        const char *id = s_text(stmt, 0);
        while (cursor < self->agent_count && strcmp(self->agents[cursor].id, id) < 0)
            cursor++;
        if (cursor == self->agent_count || strcmp(self->agents[cursor].id, id) != 0)
            continue;
        int slot = s_slot(self, s_text(stmt, 1));
        if (slot >= 0) {
            self->agents[cursor].placeable.v[slot] = sqlite3_column_int64(stmt, 2);
            self->agents[cursor].placeable_mask |= 1u << slot;
        }
    }
    sqlite3_reset(stmt);
    s_pairs(self);
    return 0;
}

//  A vector of (slot, amount) rows for kind/key in scope_usage.
static void
s_usage(sched_db_snapshot_t *self,
        bus_db_t *db,
        const char *kind,
        const char *key,
        sched_vec_t *out)
{
    sqlite3_stmt *stmt = bus_db_stmt(
        db, "SELECT slot, amount FROM scope_usage WHERE kind = ?1 AND key = ?2");
    if (!stmt)
        return;
    sqlite3_bind_text(stmt, 1, kind, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, key, -1, SQLITE_STATIC);
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        int slot = sched_db_snapshot_slot(self, s_text(stmt, 0));
        if (slot >= 0)
            out->v[slot] = sqlite3_column_int64(stmt, 1);
    }
    sqlite3_reset(stmt);
}

static const char *const s_scope_kinds[] = {"keypair", "user", "project", "domain"};

//  The index of the scope kind/key, loaded on first use; SIZE_MAX when
//  memory runs out.
static size_t
s_scope(sched_db_snapshot_t *self, bus_db_t *db, sched_scope_kind_t kind, const char *key)
{
    strings_t *strings = self->strings;
    char name[160];
    snprintf(name, sizeof name, "%d\n%s", (int) kind, key);
    size_t found = (size_t) (uintptr_t) zhashx_lookup(strings->scopes, name);
    if (found)
        return found - 1;
    if (self->scope_count == strings->scopes_max) {
        size_t max = strings->scopes_max ? strings->scopes_max * 2 : 64;
        sched_scope_t *scopes = realloc(self->scopes, max * sizeof *scopes);
        if (scopes)
            self->scopes = scopes;
        const char **limits_texts = realloc(strings->limits, max * sizeof *limits_texts);
        if (limits_texts)
            strings->limits = limits_texts;
        if (!scopes || !limits_texts)
            return SIZE_MAX;
        strings->scopes_max = max;
    }
    size_t index = self->scope_count++;
    sched_scope_t *scope = &self->scopes[index];
    memset(scope, 0, sizeof *scope);
    scope->kind = kind;
    scope->key = s_keep(self, key);
    const char *kind_name = s_scope_kinds[kind];
    sqlite3_stmt *stmt =
        bus_db_stmt(db, "SELECT limits FROM scope_limits WHERE kind = ?1 AND key = ?2");
    const char *limits = NULL;
    if (stmt) {
        sqlite3_bind_text(stmt, 1, kind_name, -1, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 2, key, -1, SQLITE_STATIC);
        if (sqlite3_step(stmt) == SQLITE_ROW)
            limits = s_keep(self, s_text(stmt, 0));
    }
    if (stmt)
        sqlite3_reset(stmt);
    strings->limits[index] = limits;
    s_usage(self, db, kind_name, key, &scope->occupied);
    if (kind == SCHED_SCOPE_KEYPAIR) {
        s_usage(self, db, "pending", key, &scope->pending_slots);
        stmt = bus_db_stmt(
            db, "SELECT concurrent, pending FROM keypair_counts WHERE access_key = ?1");
        if (stmt) {
            sqlite3_bind_text(stmt, 1, key, -1, SQLITE_STATIC);
            if (sqlite3_step(stmt) == SQLITE_ROW) {
                scope->concurrent = sqlite3_column_int64(stmt, 0);
                scope->pending_count = sqlite3_column_int64(stmt, 1);
            }
            sqlite3_reset(stmt);
        }
    }
    zhashx_insert(strings->scopes, name, (void *) (uintptr_t) (index + 1));
    return index;
}

static size_t
s_owner(sched_db_snapshot_t *self, const char *access_key, const sched_scope_t *keypair)
{
    strings_t *strings = self->strings;
    size_t found = (size_t) (uintptr_t) zhashx_lookup(strings->owners, access_key);
    if (found)
        return found - 1;
    size_t index = self->owner_count++;
    self->owners[index].access_key = keypair->key;
    self->owners[index].occupied = keypair->occupied;
    zhashx_insert(strings->owners, access_key, (void *) (uintptr_t) (index + 1));
    return index;
}

//  The window of pending sessions, each with its main kernel's request.
//  Puts p in the spread group key (a new one the first time). 0 or -1.
static int
s_spread_group(sched_db_snapshot_t *self, const char *key, sched_pending_t *p)
{
    size_t g = 0;
    while (g < self->spread_groups && strcmp(self->spread_keys[g], key) != 0)
        g++;
    if (g == self->spread_groups) {
        const char **keys =
            realloc(self->spread_keys, (self->spread_groups + 1) * sizeof *keys);
        if (!keys)
            return -1;
        self->spread_keys = keys;
        if (!(keys[g] = s_keep(self, key)))
            return -1;
        self->spread_groups++;
    }
    p->spread = (uint32_t) g + 1;
    return 0;
}

//  Per spread group of the window, how many of its sessions hold slots on
//  each agent. 0 or -1.
static int
s_load_spread(sched_db_snapshot_t *self, bus_db_t *db)
{
    if (self->spread_groups == 0 || self->agent_count == 0)
        return 0;
    self->spread_counts =
        calloc(self->spread_groups * self->agent_count, sizeof *self->spread_counts);
    sqlite3_stmt *stmt =
        self->spread_counts
            ? bus_db_stmt(db, "SELECT a.agent_id, count(DISTINCT k.session_id)"
                              " FROM sessions s"
                              " JOIN kernels k ON k.session_id = s.id"
                              " JOIN allocations a ON a.kernel_id = k.id"
                              " WHERE s.spread = ?1 GROUP BY a.agent_id")
            : NULL;
    if (!stmt)
        return -1;
    for (size_t g = 0; g < self->spread_groups; g++) {
        sqlite3_bind_text(stmt, 1, self->spread_keys[g], -1, SQLITE_STATIC);
        while (sqlite3_step(stmt) == SQLITE_ROW) {
            const char *agent = s_text(stmt, 0);
            for (size_t a = 0; a < self->agent_count; a++)
                if (strcmp(self->agents[a].id, agent) == 0)
                    self->spread_counts[g * self->agent_count + a] =
                        (uint32_t) sqlite3_column_int64(stmt, 1);
        }
        sqlite3_reset(stmt);
    }
    return 0;
}

static int
s_load_pending(sched_db_snapshot_t *self, bus_db_t *db, int64_t now_us, size_t window)
{
    self->pending = calloc(window ? window : 1, sizeof *self->pending);
    self->extra = calloc(window ? window : 1, sizeof *self->extra);
    self->owners = calloc(window ? window : 1, sizeof *self->owners);
    if (!self->pending || !self->extra || !self->owners)
        return -1;
    //  One row per requested slot (a session asking for nothing has one
    //  row with a NULL slot), sessions in window order.
    bool lifo = self->rules.policy == SCHED_POLICY_LIFO;
    sqlite3_stmt *stmt = bus_db_stmt(
        db,
        "WITH chosen AS ("
        "  SELECT id FROM (SELECT id FROM sessions WHERE status = 'PENDING'"
        "   AND scaling_group = ?1 AND architecture = ?2 AND starts_at <= ?3"
        "   AND " SNAPSHOT_READY " ORDER BY created_at, id LIMIT ?4)"
        "  UNION SELECT id FROM (SELECT id FROM sessions WHERE status = 'PENDING'"
        "   AND scaling_group = ?1 AND architecture = ?2 AND starts_at <= ?3"
        "   AND " SNAPSHOT_READY " ORDER BY created_at DESC, id DESC LIMIT ?5))"
        " SELECT s.id, s.access_key, s.user_uuid, s.group_id, s.domain_name,"
        "  s.created_at, s.priority, s.skipped, s.retries, s.tried_at, s.cluster_size,"
        "  s.cluster_mode, r.slot, r.amount, k.id, s.spread"
        " FROM chosen c JOIN sessions s ON s.id = c.id"
        " JOIN kernels k ON k.session_id = s.id AND k.cluster_idx = 1"
        " LEFT JOIN kernel_requests r ON r.kernel_id = k.id"
        " ORDER BY s.created_at, s.id");
    if (!stmt)
        return -1;
    size_t oldest = lifo ? window / LIFO_OLDEST_PART : window;
    sqlite3_bind_text(stmt, 1, self->group, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, self->architecture, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 3, now_us);
    sqlite3_bind_int64(stmt, 4, (int64_t) oldest);
    sqlite3_bind_int64(stmt, 5, (int64_t) (window - oldest));
    sched_pending_t *p = NULL;
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        const char *id = s_text(stmt, 0);
        if (!p || strcmp(p->session_id, id) != 0) {
            if (self->pending_count == window)
                break;
            size_t index = self->pending_count++;
            p = &self->pending[index];
            sched_pending_extra_t *extra = &self->extra[index];
            p->session_id = s_keep(self, id);
            const char *keys[4] = {s_text(stmt, 1), s_text(stmt, 2), s_text(stmt, 3),
                                   s_text(stmt, 4)};
            for (int kind = 0; kind < 4; kind++) {
                p->scopes[kind] =
                    s_scope(self, db, (sched_scope_kind_t) kind, keys[kind]);
                if (p->scopes[kind] == SIZE_MAX) {
                    sqlite3_reset(stmt);
                    return -1;
                }
            }
            p->owner = s_owner(self, keys[0], &self->scopes[p->scopes[0]]);
            p->created_us = sqlite3_column_int64(stmt, 5);
            p->priority = sqlite3_column_int(stmt, 6);
            p->skipped = (uint32_t) sqlite3_column_int64(stmt, 7);
            extra->retries = (uint32_t) sqlite3_column_int64(stmt, 8);
            extra->tried_at = sqlite3_column_int64(stmt, 9);
            snprintf(extra->group_id, sizeof extra->group_id, "%s", keys[2]);
            int64_t size = sqlite3_column_int64(stmt, 10);
            p->kernel_count = (uint32_t) (size < 1                   ? 1
                                          : size > SCHED_CLUSTER_MAX ? SCHED_CLUSTER_MAX
                                                                     : size);
            p->multi_node = strcmp(s_text(stmt, 11), "multi-node") == 0;
            snprintf(extra->kernel_id, sizeof extra->kernel_id, "%s", s_text(stmt, 14));
            if (*s_text(stmt, 15) && s_spread_group(self, s_text(stmt, 15), p) != 0) {
                sqlite3_reset(stmt);
                return -1;
            }
        }
        if (sqlite3_column_type(stmt, 12) != SQLITE_NULL) {
            int slot = s_slot(self, s_text(stmt, 12));
            if (slot >= 0)
                p->request.v[slot] = sqlite3_column_int64(stmt, 13);
            else //  more slot kinds than a vector holds: it cannot be placed
                p->kernel_count = SCHED_CLUSTER_MAX + 1;
        }
    }
    sqlite3_reset(stmt);
    //  Limits now that every slot has its index; only a keypair has the
    //  count limits.
    strings_t *strings = self->strings;
    for (size_t i = 0; i < self->scope_count; i++) {
        sched_scope_t *scope = &self->scopes[i];
        sched_db_snapshot_parse_limits(self, strings->limits[i], scope);
        if (scope->kind != SCHED_SCOPE_KEYPAIR) {
            scope->max_concurrent_sessions = SCHED_UNLIMITED;
            scope->max_containers_per_session = SCHED_UNLIMITED;
            scope->max_pending_count = SCHED_UNLIMITED;
        }
    }
    return 0;
}

sched_db_snapshot_t *
sched_db_snapshot_load(bus_db_t *db,
                       const char *group,
                       const char *architecture,
                       int64_t now_us,
                       int64_t heard_since_us,
                       size_t window)
{
    sched_db_snapshot_t *self = calloc(1, sizeof *self);
    strings_t *strings = calloc(1, sizeof *strings);
    if (!self || !strings) {
        free(self);
        free(strings);
        return NULL;
    }
    self->strings = strings;
    strings->scopes = zhashx_new();
    strings->owners = zhashx_new();
    snprintf(self->group, sizeof self->group, "%s", group);
    snprintf(self->architecture, sizeof self->architecture, "%s", architecture);
    self->heard_since_us = heard_since_us;
    sched_db_snapshot_rules(db, group, &self->rules, &self->pending_timeout_us);
    //  Agents first: their slots come first in the vectors. Slots that
    //  only a request names are added after (no agent has them: such a
    //  request fits nowhere). Scopes read usage for the slots known then,
    //  which are all a placement can change.
    if (!strings->scopes || !strings->owners || s_load_agents(self, db) != 0 ||
        s_load_pending(self, db, now_us, window) != 0 || s_load_spread(self, db) != 0)
        sched_db_snapshot_destroy(&self);
    return self;
}

void
sched_db_snapshot_destroy(sched_db_snapshot_t **self_p)
{
    assert(self_p);
    sched_db_snapshot_t *self = *self_p;
    if (!self)
        return;
    strings_t *strings = self->strings;
    if (strings) {
        while (strings->head) {
            arena_t *next = strings->head->next;
            free(strings->head);
            strings->head = next;
        }
        zhashx_destroy(&strings->scopes);
        zhashx_destroy(&strings->owners);
        free(strings->limits);
        free(strings);
    }
    free(self->agents);
    free(self->owners);
    free(self->scopes);
    free(self->pending);
    free(self->extra);
    free(self->spread_keys);
    free(self->spread_counts);
    free(self);
    *self_p = NULL;
}
