/*  =========================================================================
    gw_db - the gateway's schema, as numbered migrations

    Names follow Backend.AI's models (domains, groups for projects, users,
    keypairs, keypair_resource_policies, scaling_groups, ...) so that a
    reader who knows Backend.AI finds their way, and so GraphQL fields map
    onto columns one to one. JSON columns hold resource slots and lists as
    text; timestamps are ISO 8601 text in UTC.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

const bus_db_migration_t gw_db_migrations[] = {
    {"identity: domains, projects, users, keypairs, resource policies",
     "CREATE TABLE keypair_resource_policies ("
     "  name TEXT PRIMARY KEY,"
     "  created_at TEXT NOT NULL,"
     "  default_for_unspecified TEXT NOT NULL DEFAULT 'UNLIMITED'"
     "    CHECK (default_for_unspecified IN ('LIMITED', 'UNLIMITED')),"
     "  total_resource_slots TEXT NOT NULL DEFAULT '{}',"
     "  max_session_lifetime INTEGER NOT NULL DEFAULT 0,"
     "  max_concurrent_sessions INTEGER NOT NULL DEFAULT 30,"
     "  max_pending_session_count INTEGER,"
     "  max_containers_per_session INTEGER NOT NULL DEFAULT 1,"
     "  idle_timeout INTEGER NOT NULL DEFAULT 0,"
     "  max_vfolder_count INTEGER NOT NULL DEFAULT 0,"
     "  max_vfolder_size INTEGER NOT NULL DEFAULT 0,"
     "  allowed_vfolder_hosts TEXT NOT NULL DEFAULT '{}');"
     "CREATE TABLE user_resource_policies ("
     "  name TEXT PRIMARY KEY,"
     "  created_at TEXT NOT NULL,"
     "  max_vfolder_count INTEGER NOT NULL DEFAULT 0,"
     "  max_quota_scope_size INTEGER NOT NULL DEFAULT -1,"
     "  max_session_count_per_model_session INTEGER NOT NULL DEFAULT 10,"
     "  max_customized_image_count INTEGER NOT NULL DEFAULT 3);"
     "CREATE TABLE project_resource_policies ("
     "  name TEXT PRIMARY KEY,"
     "  created_at TEXT NOT NULL,"
     "  max_vfolder_count INTEGER NOT NULL DEFAULT 0,"
     "  max_quota_scope_size INTEGER NOT NULL DEFAULT -1,"
     "  max_network_count INTEGER NOT NULL DEFAULT 3);"
     "CREATE TABLE domains ("
     "  name TEXT PRIMARY KEY,"
     "  description TEXT NOT NULL DEFAULT '',"
     "  is_active INTEGER NOT NULL DEFAULT 1,"
     "  created_at TEXT NOT NULL,"
     "  modified_at TEXT NOT NULL,"
     "  total_resource_slots TEXT NOT NULL DEFAULT '{}',"
     "  allowed_vfolder_hosts TEXT NOT NULL DEFAULT '{}',"
     "  allowed_docker_registries TEXT NOT NULL DEFAULT '[]',"
     "  integration_id TEXT);"
     "CREATE TABLE groups ("
     "  id TEXT PRIMARY KEY,"
     "  name TEXT NOT NULL,"
     "  description TEXT NOT NULL DEFAULT '',"
     "  is_active INTEGER NOT NULL DEFAULT 1,"
     "  created_at TEXT NOT NULL,"
     "  modified_at TEXT NOT NULL,"
     "  domain_name TEXT NOT NULL REFERENCES domains (name) ON UPDATE CASCADE,"
     "  total_resource_slots TEXT NOT NULL DEFAULT '{}',"
     "  allowed_vfolder_hosts TEXT NOT NULL DEFAULT '{}',"
     "  integration_id TEXT,"
     "  resource_policy TEXT NOT NULL DEFAULT 'default'"
     "    REFERENCES project_resource_policies (name),"
     "  type TEXT NOT NULL DEFAULT 'general',"
     "  UNIQUE (domain_name, name));"
     "CREATE TABLE users ("
     "  uuid TEXT PRIMARY KEY,"
     "  username TEXT NOT NULL UNIQUE,"
     "  email TEXT NOT NULL UNIQUE,"
     "  password TEXT NOT NULL,"
     "  need_password_change INTEGER NOT NULL DEFAULT 0,"
     "  full_name TEXT NOT NULL DEFAULT '',"
     "  description TEXT NOT NULL DEFAULT '',"
     "  status TEXT NOT NULL DEFAULT 'active'"
     "    CHECK (status IN ('active', 'inactive', 'deleted', 'before-verification')),"
     "  status_info TEXT,"
     "  created_at TEXT NOT NULL,"
     "  modified_at TEXT NOT NULL,"
     "  domain_name TEXT NOT NULL REFERENCES domains (name) ON UPDATE CASCADE,"
     "  role TEXT NOT NULL DEFAULT 'user'"
     "    CHECK (role IN ('superadmin', 'admin', 'user', 'monitor')),"
     "  resource_policy TEXT NOT NULL DEFAULT 'default' REFERENCES "
     "user_resource_policies (name),"
     "  allowed_client_ip TEXT,"
     "  sudo_session_enabled INTEGER NOT NULL DEFAULT 0);"
     "CREATE TABLE association_groups_users ("
     "  group_id TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,"
     "  user_id TEXT NOT NULL REFERENCES users (uuid) ON DELETE CASCADE,"
     "  PRIMARY KEY (group_id, user_id));"
     "CREATE INDEX association_groups_users_user ON association_groups_users (user_id);"
     "CREATE TABLE keypairs ("
     "  access_key TEXT PRIMARY KEY,"
     "  secret_key TEXT NOT NULL,"
     "  user_id TEXT NOT NULL REFERENCES users (uuid) ON DELETE CASCADE,"
     "  is_active INTEGER NOT NULL DEFAULT 1,"
     "  is_admin INTEGER NOT NULL DEFAULT 0,"
     "  created_at TEXT NOT NULL,"
     "  modified_at TEXT NOT NULL,"
     "  last_used TEXT,"
     "  rate_limit INTEGER NOT NULL DEFAULT 1000,"
     "  num_queries INTEGER NOT NULL DEFAULT 0,"
     "  resource_policy TEXT NOT NULL DEFAULT 'default'"
     "    REFERENCES keypair_resource_policies (name),"
     "  ssh_public_key TEXT,"
     "  ssh_private_key TEXT);"
     "CREATE INDEX keypairs_user ON keypairs (user_id);"},
    {"resource groups and who may use them",
     "CREATE TABLE scaling_groups ("
     "  name TEXT PRIMARY KEY,"
     "  description TEXT NOT NULL DEFAULT '',"
     "  is_active INTEGER NOT NULL DEFAULT 1,"
     "  is_public INTEGER NOT NULL DEFAULT 1,"
     "  created_at TEXT NOT NULL,"
     "  wsproxy_addr TEXT,"
     "  wsproxy_api_token TEXT,"
     "  driver TEXT NOT NULL DEFAULT 'static',"
     "  driver_opts TEXT NOT NULL DEFAULT '{}',"
     "  scheduler TEXT NOT NULL DEFAULT 'fifo',"
     "  scheduler_opts TEXT NOT NULL DEFAULT '{}',"
     "  use_host_network INTEGER NOT NULL DEFAULT 0);"
     "CREATE TABLE sgroups_for_domains ("
     "  scaling_group TEXT NOT NULL REFERENCES scaling_groups (name) ON DELETE CASCADE,"
     "  domain TEXT NOT NULL REFERENCES domains (name) ON DELETE CASCADE,"
     "  PRIMARY KEY (scaling_group, domain));"
     "CREATE TABLE sgroups_for_groups ("
     "  scaling_group TEXT NOT NULL REFERENCES scaling_groups (name) ON DELETE CASCADE,"
     "  group_id TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,"
     "  PRIMARY KEY (scaling_group, group_id));"
     "CREATE TABLE sgroups_for_keypairs ("
     "  scaling_group TEXT NOT NULL REFERENCES scaling_groups (name) ON DELETE CASCADE,"
     "  access_key TEXT NOT NULL REFERENCES keypairs (access_key) ON DELETE CASCADE,"
     "  PRIMARY KEY (scaling_group, access_key));"},
    {"images, aliases and resource presets",
     "CREATE TABLE images ("
     "  id TEXT PRIMARY KEY,"
     "  name TEXT NOT NULL,"
     "  registry TEXT NOT NULL,"
     "  project TEXT NOT NULL DEFAULT '',"
     "  image TEXT NOT NULL,"
     "  tag TEXT NOT NULL,"
     "  architecture TEXT NOT NULL DEFAULT 'x86_64',"
     "  digest TEXT NOT NULL DEFAULT '',"
     "  size_bytes INTEGER NOT NULL DEFAULT 0,"
     "  labels TEXT NOT NULL DEFAULT '{}',"
     "  resources TEXT NOT NULL DEFAULT '{}',"
     "  type TEXT NOT NULL DEFAULT 'COMPUTE',"
     "  created_at TEXT NOT NULL,"
     "  installed_agents TEXT NOT NULL DEFAULT '[]',"
     "  UNIQUE (name, architecture));"
     "CREATE TABLE image_aliases ("
     "  alias TEXT PRIMARY KEY,"
     "  image TEXT NOT NULL);"
     "CREATE TABLE resource_presets ("
     "  name TEXT PRIMARY KEY,"
     "  resource_slots TEXT NOT NULL,"
     "  shared_memory INTEGER,"
     "  scaling_group_name TEXT REFERENCES scaling_groups (name) ON DELETE CASCADE);"},
    {"browser login sessions",
     "CREATE TABLE login_sessions ("
     "  token_hash TEXT PRIMARY KEY,"
     "  access_key TEXT NOT NULL REFERENCES keypairs (access_key) ON DELETE CASCADE,"
     "  created_at INTEGER NOT NULL,"
     "  expires_at INTEGER NOT NULL);"},
    {"the limit on what a keypair's pending sessions ask for",
     "ALTER TABLE keypair_resource_policies"
     " ADD COLUMN max_pending_session_resource_slots TEXT;"},
    //  Virtual folders: who owns them and who else may reach them. The bytes
    //  are the storage-proxy's; a folder's id is its name there.
    {"virtual folders, their sharing and invitations",
     "CREATE TABLE vfolders ("
     "  id TEXT PRIMARY KEY,"
     "  name TEXT NOT NULL,"
     "  host TEXT NOT NULL,"
     "  domain_name TEXT NOT NULL,"
     "  usage_mode TEXT NOT NULL DEFAULT 'general'"
     "    CHECK (usage_mode IN ('general', 'model', 'data')),"
     "  permission TEXT NOT NULL DEFAULT 'rw' CHECK (permission IN ('ro', 'rw', 'wd')),"
     "  ownership_type TEXT NOT NULL CHECK (ownership_type IN ('user', 'group')),"
     "  user_uuid TEXT REFERENCES users (uuid) ON DELETE CASCADE,"
     "  group_id TEXT REFERENCES groups (id) ON DELETE CASCADE,"
     "  creator TEXT NOT NULL,"
     "  cloneable INTEGER NOT NULL DEFAULT 0,"
     "  status TEXT NOT NULL DEFAULT 'ready',"
     "  max_size INTEGER NOT NULL DEFAULT 0,"
     "  created_at TEXT NOT NULL,"
     "  last_used TEXT,"
     "  status_changed TEXT,"
     "  CHECK ((ownership_type = 'user') = (user_uuid IS NOT NULL)),"
     "  CHECK ((ownership_type = 'group') = (group_id IS NOT NULL)));"
     "CREATE INDEX vfolders_user ON vfolders (user_uuid);"
     "CREATE INDEX vfolders_group ON vfolders (group_id);"
     "CREATE UNIQUE INDEX vfolders_owner_name ON vfolders"
     " (coalesce(user_uuid, group_id), name) WHERE status IN ('ready', 'cloning');"
     "CREATE TABLE vfolder_permissions ("
     "  vfolder_id TEXT NOT NULL REFERENCES vfolders (id) ON DELETE CASCADE,"
     "  user_uuid TEXT NOT NULL REFERENCES users (uuid) ON DELETE CASCADE,"
     "  permission TEXT NOT NULL CHECK (permission IN ('ro', 'rw', 'wd')),"
     "  PRIMARY KEY (vfolder_id, user_uuid)) WITHOUT ROWID;"
     "CREATE INDEX vfolder_permissions_user ON vfolder_permissions (user_uuid);"
     "CREATE TABLE vfolder_invitations ("
     "  id TEXT PRIMARY KEY,"
     "  vfolder_id TEXT NOT NULL REFERENCES vfolders (id) ON DELETE CASCADE,"
     "  inviter TEXT NOT NULL,"
     "  invitee TEXT NOT NULL,"
     "  permission TEXT NOT NULL CHECK (permission IN ('ro', 'rw', 'wd')),"
     "  state TEXT NOT NULL DEFAULT 'pending'"
     "    CHECK (state IN ('pending', 'accepted', 'rejected', 'canceled')),"
     "  created_at TEXT NOT NULL,"
     "  modified_at TEXT NOT NULL);"
     "CREATE INDEX vfolder_invitations_invitee ON vfolder_invitations (invitee, state);"},
    //  Maintenance (gw_manager): "status" (running or frozen) and
    //  "announcement" (absent when there is none), kept across restarts.
    {"the manager's status and announcement", "CREATE TABLE manager_settings ("
                                              "  key TEXT PRIMARY KEY,"
                                              "  value TEXT NOT NULL) WITHOUT ROWID;"},
    //  Session templates (Backend.AI's session_templates): owned by a user,
    //  scoped to a project of its domain; a delete only clears is_active.
    {"session templates",
     "CREATE TABLE session_templates ("
     "  id TEXT PRIMARY KEY,"
     "  created_at TEXT NOT NULL,"
     "  is_active INTEGER NOT NULL DEFAULT 1,"
     "  domain_name TEXT NOT NULL REFERENCES domains (name) ON UPDATE CASCADE,"
     "  group_id TEXT REFERENCES groups (id) ON DELETE SET NULL,"
     "  user_uuid TEXT NOT NULL REFERENCES users (uuid) ON DELETE CASCADE,"
     "  type TEXT NOT NULL DEFAULT 'task' CHECK (type IN ('task', 'cluster')),"
     "  name TEXT,"
     "  template TEXT NOT NULL);"
     "CREATE INDEX session_templates_user ON session_templates (user_uuid);"
     "CREATE INDEX session_templates_group ON session_templates (group_id);"},
    //  Error logs (Backend.AI's error_logs, gw_errorlog): what clients post
    //  and the gateway's own 5xx answers to a known user; created_at in
    //  wall µs, expired after logs.error_retention_days.
    {"error logs",
     "CREATE TABLE error_logs ("
     "  id TEXT PRIMARY KEY,"
     "  created_at INTEGER NOT NULL,"
     "  severity TEXT NOT NULL"
     "    CHECK (severity IN ('critical', 'error', 'warning', 'info', 'debug')),"
     "  source TEXT NOT NULL,"
     "  user_uuid TEXT REFERENCES users (uuid) ON DELETE SET NULL,"
     "  is_read INTEGER NOT NULL DEFAULT 0,"
     "  is_cleared INTEGER NOT NULL DEFAULT 0,"
     "  message TEXT NOT NULL,"
     "  context_lang TEXT NOT NULL,"
     "  context_env TEXT NOT NULL,"
     "  request_url TEXT,"
     "  request_status INTEGER,"
     "  traceback TEXT);"
     "CREATE INDEX error_logs_time ON error_logs (created_at);"
     "CREATE INDEX error_logs_user ON error_logs (user_uuid, created_at);"},
    //  Dotfiles (gw_dotfile; Backend.AI keeps them as msgpack in keypairs,
    //  groups and domains): the owner is an access key, a project id or a
    //  domain name after scope, so the triggers do what foreign keys would.
    {"dotfiles of keypairs, projects and domains",
     "CREATE TABLE dotfiles ("
     "  scope TEXT NOT NULL CHECK (scope IN ('keypair', 'group', 'domain')),"
     "  owner TEXT NOT NULL,"
     "  path TEXT NOT NULL,"
     "  permission TEXT NOT NULL,"
     "  data TEXT NOT NULL,"
     "  PRIMARY KEY (scope, owner, path));"
     "CREATE TRIGGER dotfiles_keypair_gone AFTER DELETE ON keypairs BEGIN"
     "  DELETE FROM dotfiles WHERE scope = 'keypair' AND owner = OLD.access_key;"
     " END;"
     "CREATE TRIGGER dotfiles_group_gone AFTER DELETE ON groups BEGIN"
     "  DELETE FROM dotfiles WHERE scope = 'group' AND owner = OLD.id;"
     " END;"
     "CREATE TRIGGER dotfiles_domain_gone AFTER DELETE ON domains BEGIN"
     "  DELETE FROM dotfiles WHERE scope = 'domain' AND owner = OLD.name;"
     " END;"
     "CREATE TRIGGER dotfiles_domain_renamed AFTER UPDATE OF name ON domains BEGIN"
     "  UPDATE dotfiles SET owner = NEW.name WHERE scope = 'domain' AND owner = OLD.name;"
     " END;"},
    //  Login sessions end with what they stand for: a new password (the
    //  one who changed it through /auth/update-password keeps theirs,
    //  gw_login), a user or keypair no longer active.
    {"login sessions end on password change and deactivation",
     "CREATE INDEX login_sessions_access_key ON login_sessions (access_key);"
     "CREATE TRIGGER login_sessions_password AFTER UPDATE OF password ON users"
     " WHEN NEW.password IS NOT OLD.password BEGIN"
     "  DELETE FROM login_sessions WHERE access_key IN"
     "    (SELECT access_key FROM keypairs WHERE user_id = NEW.uuid);"
     " END;"
     "CREATE TRIGGER login_sessions_user_inactive AFTER UPDATE OF status ON users"
     " WHEN NEW.status != 'active' BEGIN"
     "  DELETE FROM login_sessions WHERE access_key IN"
     "    (SELECT access_key FROM keypairs WHERE user_id = NEW.uuid);"
     " END;"
     "CREATE TRIGGER login_sessions_keypair_inactive AFTER UPDATE OF is_active ON "
     "keypairs"
     " WHEN NEW.is_active = 0 BEGIN"
     "  DELETE FROM login_sessions WHERE access_key = NEW.access_key;"
     " END;"},
    //  Model services (Backend.AI's endpoints) and their replicas (routes:
    //  one INFERENCE session each), as Backend.AI 24.03 keeps them, values
    //  lowercase as its columns hold them. session_params is the POST
    //  /session body every replica is created with (gw_endpoint_reconcile);
    //  model_service what its kernel starts, read from the model folder's
    //  definition when the endpoint was created. A name is unique among the
    //  endpoints not destroyed.
    {"model services and their routes",
     "CREATE TABLE endpoints ("
     "  id TEXT PRIMARY KEY,"
     "  name TEXT NOT NULL,"
     "  created_user TEXT NOT NULL,"
     "  session_owner TEXT NOT NULL,"
     "  owner_access_key TEXT NOT NULL,"
     "  domain TEXT NOT NULL,"
     "  project TEXT NOT NULL,"
     "  resource_group TEXT NOT NULL,"
     "  image TEXT NOT NULL,"
     "  model TEXT NOT NULL,"
     "  model_definition_path TEXT,"
     "  model_mount_destination TEXT NOT NULL DEFAULT '/models',"
     "  model_service TEXT NOT NULL,"
     "  runtime_variant TEXT NOT NULL DEFAULT 'custom',"
     "  desired_session_count INTEGER NOT NULL CHECK (desired_session_count >= 0),"
     "  session_params TEXT NOT NULL,"
     "  open_to_public INTEGER NOT NULL DEFAULT 0,"
     "  url TEXT,"
     "  retries INTEGER NOT NULL DEFAULT 0,"
     "  lifecycle_stage TEXT NOT NULL DEFAULT 'created'"
     "    CHECK (lifecycle_stage IN ('created', 'destroying', 'destroyed')),"
     "  created_at INTEGER NOT NULL,"
     "  destroyed_at INTEGER);"
     "CREATE UNIQUE INDEX endpoints_live_name ON endpoints (name)"
     " WHERE lifecycle_stage <> 'destroyed';"
     "CREATE INDEX endpoints_owner ON endpoints (session_owner, lifecycle_stage);"
     "CREATE TABLE routings ("
     "  id TEXT PRIMARY KEY,"
     "  endpoint TEXT NOT NULL REFERENCES endpoints (id) ON DELETE CASCADE,"
     "  session TEXT,"
     "  session_owner TEXT NOT NULL,"
     "  domain TEXT NOT NULL,"
     "  project TEXT NOT NULL,"
     "  status TEXT NOT NULL DEFAULT 'provisioning' CHECK (status IN ('provisioning',"
     "    'healthy', 'unhealthy', 'terminating', 'failed_to_start')),"
     "  traffic_ratio REAL NOT NULL DEFAULT 1.0,"
     "  error_data TEXT,"
     "  created_at INTEGER NOT NULL);"
     "CREATE INDEX routings_endpoint ON routings (endpoint, status);"
     "CREATE INDEX routings_session ON routings (session);"},
    //  The tokens issued for model services' URLs (POST /services/{id}/token),
    //  as Backend.AI keeps them for GraphQL's endpoint_token_list: whole,
    //  since the owner may look one up again until it expires.
    {"endpoint tokens",
     "CREATE TABLE endpoint_tokens ("
     "  token TEXT PRIMARY KEY,"
     "  endpoint TEXT NOT NULL REFERENCES endpoints (id) ON DELETE CASCADE,"
     "  session_owner TEXT NOT NULL,"
     "  domain TEXT NOT NULL,"
     "  project TEXT NOT NULL,"
     "  created_at INTEGER NOT NULL,"
     "  valid_until INTEGER NOT NULL);"
     "CREATE INDEX endpoint_tokens_endpoint ON endpoint_tokens (endpoint, created_at);"},
    //  A model service changed in what its replicas run (modify_endpoint)
    //  starts a new generation: routes of an older one are replaced by new
    //  ones, which are healthy before the old go (gw_endpoint_reconcile).
    {"endpoint generations",
     "ALTER TABLE endpoints ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE routings ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;"},
    //  Autoscaling rules of model services (Backend.AI's
    //  endpoint_auto_scaling_rules): a metric compared with a threshold (its
    //  decimal text, as Backend.AI keeps a Numeric), the replicas wanted
    //  moved by step_size within [min_replicas, max_replicas] at most once
    //  per cooldown_seconds. The enums as GraphQL names them. They go with
    //  their endpoint.
    {"endpoint autoscaling rules",
     "CREATE TABLE endpoint_auto_scaling_rules ("
     "  id TEXT PRIMARY KEY,"
     "  endpoint TEXT NOT NULL REFERENCES endpoints (id) ON DELETE CASCADE,"
     "  metric_source TEXT NOT NULL"
     "    CHECK (metric_source IN ('KERNEL', 'INFERENCE_FRAMEWORK')),"
     "  metric_name TEXT NOT NULL,"
     "  threshold TEXT NOT NULL,"
     "  comparator TEXT NOT NULL CHECK (comparator IN ('LESS_THAN',"
     "    'LESS_THAN_OR_EQUAL', 'GREATER_THAN', 'GREATER_THAN_OR_EQUAL')),"
     "  step_size INTEGER NOT NULL CHECK (step_size <> 0),"
     "  cooldown_seconds INTEGER NOT NULL CHECK (cooldown_seconds >= 0),"
     "  min_replicas INTEGER,"
     "  max_replicas INTEGER,"
     "  created_at INTEGER NOT NULL,"
     "  last_triggered_at INTEGER);"
     "CREATE INDEX endpoint_auto_scaling_rules_endpoint"
     " ON endpoint_auto_scaling_rules (endpoint, created_at);"},
    //  The extra folders every replica of an endpoint mounts besides the
    //  model (POST /services config.extra_mounts), as a JSON array of {id,
    //  mount_destination, permission} (gw_endpoint_mounts).
    {"endpoint extra mounts",
     "ALTER TABLE endpoints ADD COLUMN extra_mounts TEXT NOT NULL DEFAULT '[]';"},
    //  An image's own command (its Entrypoint then its Cmd, as the agents
    //  report it): a JSON array, empty when it has none, NULL when no agent
    //  said yet. The vllm, nim and cmd runtime variants of a model service
    //  run it, and cannot serve an image without one.
    {"image commands", "ALTER TABLE images ADD COLUMN command TEXT;"},
};

_Static_assert(sizeof gw_db_migrations / sizeof gw_db_migrations[0] ==
                   GW_DB_MIGRATION_COUNT,
               "GW_DB_MIGRATION_COUNT must match the migration list");
