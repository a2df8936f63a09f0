/*  =========================================================================
    agent_spec - what a kernel.create asks for, as a container

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"

//  Variables of ours besides the user's and the accelerators': room for them.
#define S_OWN_VARS 24

//  A slot's decimal amount, 0 when absent or malformed.
static double
s_slot(const proto_kernel_create_req_t *in, const char *slot)
{
    for (size_t i = 0; i < in->slots_count; i++)
        if (strcmp(in->slots[i].key, slot) == 0 && in->slots[i].value) {
            char *end;
            errno = 0;
            double value = strtod(in->slots[i].value, &end);
            if (errno || end == in->slots[i].value || *end || value < 0)
                return 0;
            return value;
        }
    return 0;
}

static const char *
s_label(const agent_image_t *image, const char *key)
{
    for (size_t i = 0; i < image->info.labels_count; i++)
        if (strcmp(image->info.labels[i].key, key) == 0)
            return image->info.labels[i].value;
    return NULL;
}

typedef struct {
    char role[24];
    unsigned count;
} s_role_count_t;

static int
s_role_cmp(const void *a, const void *b)
{
    return strcmp(((const s_role_count_t *) a)->role, ((const s_role_count_t *) b)->role);
}

//  The role a cluster hostname names: itself without its trailing digits.
static void
s_host_role(const char *host, size_t len, char *role, size_t size)
{
    while (len > 0 && isdigit((unsigned char) host[len - 1]))
        len--;
    snprintf(role, size, "%.*s", (int) len, host);
}

//  Fills cluster from kernel.create's cluster fields: cluster_idx is the
//  kernel's 1-based place in cluster_hosts (main1,sub1,sub2...). Without
//  cluster_hosts (a caller that sends none) the hostname is the role and
//  cluster_idx. INVALID when the hostname is not one.
static int
s_cluster(const proto_kernel_create_req_t *in,
          agent_spec_cluster_t *cluster,
          bus_error_t *err)
{
    memset(cluster, 0, sizeof *cluster);
    const char *role = in->cluster_role && *in->cluster_role ? in->cluster_role : "main";
    uint64_t idx = in->cluster_idx ? in->cluster_idx : 1;
    cluster->size = in->cluster_size ? in->cluster_size : 1;
    cluster->local_rank = idx - 1;
    cluster->role_idx = idx;
    snprintf(cluster->hostname, sizeof cluster->hostname, "%.24s%" PRIu64, role, idx);
    s_role_count_t roles[AGENT_SPEC_ROLES_MAX];
    size_t role_count = 0;
    const char *hosts = in->cluster_hosts ? in->cluster_hosts : "";
    uint64_t place = 1;
    for (const char *p = hosts; *p; place++) {
        size_t len = strcspn(p, ",");
        if (place == idx && len > AGENT_BUNDLE_HOSTNAME_MAX)
            cluster->hostname[0] = '\0'; //  too long: refused below
        else if (place == idx)
            snprintf(cluster->hostname, sizeof cluster->hostname, "%.*s", (int) len, p);
        char name[24];
        s_host_role(p, len < sizeof name ? len : sizeof name - 1, name, sizeof name);
        size_t i = 0;
        while (i < role_count && strcmp(roles[i].role, name) != 0)
            i++;
        if (i == role_count && role_count < AGENT_SPEC_ROLES_MAX) {
            snprintf(roles[role_count].role, sizeof roles[role_count].role, "%s", name);
            roles[role_count++].count = 0;
        }
        if (i < role_count)
            roles[i].count++;
        p += p[len] ? len + 1 : len;
    }
    //  Its index among its role's kernels is the number its hostname ends in.
    size_t role_len = strlen(role);
    const char *digits = cluster->hostname + role_len;
    if (strncmp(cluster->hostname, role, role_len) == 0 &&
        isdigit((unsigned char) *digits))
        cluster->role_idx = strtoull(digits, NULL, 10);
    if (role_count == 0) {
        snprintf(roles[0].role, sizeof roles[0].role, "%s", role);
        roles[role_count++].count = 1;
    }
    qsort(roles, role_count, sizeof roles[0], s_role_cmp);
    size_t len = 0;
    for (size_t i = 0; i < role_count && len < sizeof cluster->replicas; i++)
        len += (size_t) snprintf(cluster->replicas + len, sizeof cluster->replicas - len,
                                 "%s%s:%u", i ? "," : "", roles[i].role, roles[i].count);
    if (!agent_hosts_name_valid(cluster->hostname))
        return bus_error_set(err, BUS_STATUS_INVALID, "invalid cluster hostname \"%s\"",
                             cluster->hostname);
    return BUS_OK;
}

//  True when key is one the agent decides: a name of accel ("KEY=value"
//  items) or one of the CUDA variables, which only an allocation sets.
static bool
s_accel_name(char *const *accel, const char *key)
{
    if (strcmp(key, AGENT_ACCEL_ENV_VISIBLE) == 0 ||
        strcmp(key, AGENT_ACCEL_ENV_THREADS) == 0 ||
        strcmp(key, AGENT_ACCEL_ENV_MEMORY) == 0)
        return true;
    size_t length = strlen(key);
    for (size_t i = 0; accel && accel[i]; i++)
        if (strncmp(accel[i], key, length) == 0 && accel[i][length] == '=')
            return true;
    return false;
}

static void
s_free_strv(char **items)
{
    for (size_t i = 0; items && items[i]; i++)
        free(items[i]);
    free(items);
}

//  The value in's environ gives key, NULL when it sets none.
static const char *
s_user_value(const proto_kernel_create_req_t *in, const char *key)
{
    for (size_t i = 0; i < in->environ_count; i++)
        if (in->environ[i].key && strcmp(in->environ[i].key, key) == 0)
            return in->environ[i].value;
    return NULL;
}

//  The container's environment: the image's, the user's (which override
//  the image's), then ours, then the accelerators' (accel, NULL-terminated
//  "KEY=value"; ours win).
static char **
s_environ(const proto_kernel_create_req_t *in,
          char *const *image_env,
          const char *reference,
          const agent_spec_cluster_t *cluster,
          char *const *accel)
{
    size_t accel_count = 0, image_count = 0;
    while (accel && accel[accel_count])
        accel_count++;
    while (image_env && image_env[image_count])
        image_count++;
    size_t max = image_count + in->environ_count + S_OWN_VARS + accel_count, count = 0;
    char **env = calloc(max + 1, sizeof *env);
    if (!env)
        return NULL;
    for (size_t i = 0; i < image_count; i++) {
        char key[256];
        snprintf(key, sizeof key, "%.*s", (int) strcspn(image_env[i], "="), image_env[i]);
        if (s_user_value(in, key) || strncmp(key, "BACKENDAI_", 10) == 0 ||
            strcmp(key, "HOME") == 0 || s_accel_name(accel, key))
            continue;
        env[count++] = strdup(image_env[i]);
    }
    for (size_t i = 0; i < in->environ_count; i++) {
        const char *key = in->environ[i].key;
        if (!*key || strchr(key, '=') || strncmp(key, "BACKENDAI_", 10) == 0 ||
            strcmp(key, "HOME") == 0 || s_accel_name(accel, key))
            continue;
        env[count++] = zsys_sprintf("%s=%s", key, in->environ[i].value);
    }
    env[count++] = zsys_sprintf("BACKENDAI_SESSION_ID=%s", in->session_id);
    env[count++] = zsys_sprintf("BACKENDAI_SESSION_NAME=%s",
                                in->session_name ? in->session_name : "");
    env[count++] = zsys_sprintf("BACKENDAI_KERNEL_ID=%s", in->kernel_id);
    env[count++] = zsys_sprintf("BACKENDAI_KERNEL_IMAGE=%s", reference);
    env[count++] = zsys_sprintf("BACKENDAI_CLUSTER_ROLE=%s",
                                in->cluster_role ? in->cluster_role : "main");
    env[count++] = zsys_sprintf("BACKENDAI_CLUSTER_IDX=%" PRIu64, cluster->role_idx);
    env[count++] =
        zsys_sprintf("BACKENDAI_CLUSTER_LOCAL_RANK=%" PRIu64, cluster->local_rank);
    env[count++] = zsys_sprintf("BACKENDAI_CLUSTER_HOST=%s", cluster->hostname);
    env[count++] = zsys_sprintf("BACKENDAI_CLUSTER_SIZE=%" PRIu64, cluster->size);
    env[count++] = zsys_sprintf(
        "BACKENDAI_CLUSTER_HOSTS=%s",
        in->cluster_hosts && *in->cluster_hosts ? in->cluster_hosts : cluster->hostname);
    env[count++] = zsys_sprintf("BACKENDAI_CLUSTER_REPLICAS=%s", cluster->replicas);
    env[count++] = zsys_sprintf("BACKENDAI_CLUSTER_MODE=%s",
                                in->cluster_mode && *in->cluster_mode ? in->cluster_mode
                                                                      : "single-node");
    env[count++] = zsys_sprintf("BACKENDAI_SESSION_TYPE=%s",
                                in->session_type ? in->session_type : "interactive");
    env[count++] =
        zsys_sprintf("BACKENDAI_ACCESS_KEY=%s", in->access_key ? in->access_key : "");
    env[count++] =
        zsys_sprintf("BACKENDAI_USER_UUID=%s", in->user_uuid ? in->user_uuid : "");
    env[count++] =
        zsys_sprintf("BACKENDAI_DOMAIN_NAME=%s", in->domain_name ? in->domain_name : "");
    env[count++] =
        zsys_sprintf("BACKENDAI_GROUP_ID=%s", in->group_id ? in->group_id : "");
    env[count++] = zsys_sprintf("HOME=%s", AGENT_KERNEL_HOME);
    bool lang = false;
    for (size_t i = 0; i < count; i++)
        lang = lang || (env[i] && strncmp(env[i], "LANG=", 5) == 0);
    if (!lang)
        env[count++] = strdup("LANG=C.UTF-8");
    for (size_t i = 0; i < accel_count; i++)
        env[count++] = strdup(accel[i]);
    for (size_t i = 0; i < count; i++)
        if (!env[i]) {
            for (size_t j = 0; j < count; j++)
                free(env[j]);
            free(env);
            return NULL;
        }
    return env;
}

//  The device nodes (NULL-terminated host paths) that exist, into devices
//  (room for all of them; paths borrowed from nodes). Returns the count.
static size_t
s_device_nodes(char *const *nodes, agent_bundle_device_t *devices)
{
    size_t count = 0;
    for (size_t i = 0; nodes && nodes[i]; i++) {
        bus_error_t step;
        int rc = agent_bundle_device(nodes[i], &devices[count], &step);
        if (rc == BUS_OK)
            count++;
        else if (rc == BUS_STATUS_NOT_FOUND)
            bus_log_info("accelerator device node absent path=%s", nodes[i]);
        else
            bus_log_warning("accelerator device node left out detail=\"%s\"",
                            step.detail);
    }
    return count;
}

//  A copy of text, NULL for NULL; *ok turns false when out of memory.
static char *
s_dup(const char *text, bool *ok)
{
    char *copy = text ? strdup(text) : NULL;
    *ok = *ok && (copy || !text);
    return copy;
}

//  ---------------------------------------------------------------------------
//  The spec of a kernel.create.

//  Adds the disk under path to kernel's io_disks, once.
static void
s_io_disk(agent_kernel_spec_t *kernel, const char *path)
{
    agent_bundle_disk_t disk;
    if (!path || agent_stats_disk(path, &disk.major, &disk.minor) != 0)
        return;
    for (size_t i = 0; i < kernel->io_disk_count; i++)
        if (kernel->io_disks[i].major == disk.major &&
            kernel->io_disks[i].minor == disk.minor)
            return;
    if (kernel->io_disk_count < AGENT_BUNDLE_IO_DISKS_MAX)
        kernel->io_disks[kernel->io_disk_count++] = disk;
}

agent_spec_t *
agent_spec_new(const proto_kernel_create_req_t *in,
               const agent_image_t *image,
               const agent_config_t *config,
               bus_error_t *err)
{
    assert(in && image && config);
    const char *runtime_path = s_label(image, "ai.backend.runtime-path");
    const char *runtime_type = s_label(image, "ai.backend.runtime-type");
    if (!runtime_type || !*runtime_type) {
        bus_error_set(err, BUS_STATUS_INVALID,
                      "image %s has no ai.backend.runtime-type label", in->image);
        return NULL;
    }
    agent_spec_t *self = calloc(1, sizeof *self);
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    if (s_cluster(in, &self->cluster, err) != BUS_OK) {
        agent_spec_destroy(&self);
        return NULL;
    }
    //  Its folders are checked before anything of it is made.
    int rc = agent_mounts_from_list(in->mounts, in->mounts_count, &self->mounts, err);
    if (rc == BUS_OK)
        rc = agent_mounts_check_hosts(self->mounts, err);
    if (rc == BUS_OK)
        rc = agent_dotfiles_from_list(in->dotfiles, in->dotfiles_count, &self->dotfiles,
                                      err);
    if (rc != BUS_OK) {
        bus_log_warning("kernel create refused kernel=%s detail=\"%s\"", in->kernel_id,
                        err->detail);
        agent_spec_destroy(&self);
        return NULL;
    }
    bool ok = true;
    self->layout = s_dup(image->layout, &ok);
    self->tag = s_dup(image->tag, &ok);
    self->digest = s_dup(image->info.digest, &ok);
    self->reference = s_dup(image->info.reference, &ok);
    self->runtime_path = s_dup(runtime_path && *runtime_path ? runtime_path : NULL, &ok);
    self->runtime_type = s_dup(runtime_type, &ok);
    self->bootstrap = s_dup(
        in->bootstrap_script && *in->bootstrap_script ? in->bootstrap_script : NULL, &ok);
    self->image_env = calloc(image->env_count + 1, sizeof *self->image_env);
    ok = ok && self->image_env;
    for (size_t i = 0; ok && i < image->env_count; i++)
        ok = (self->image_env[i] =
                  zsys_sprintf("%s=%s", image->env[i].key, image->env[i].value)) != NULL;
    if (!ok) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        agent_spec_destroy(&self);
        return NULL;
    }
    //  A cluster's kernels are named main1, sub1...; a lone kernel keeps its id.
    snprintf(self->hostname, sizeof self->hostname, "%s",
             self->cluster.size > 1 ? self->cluster.hostname : in->kernel_id);
    size_t argc = 0;
    self->args[argc++] = AGENT_KERNEL_TINI_PATH;
    self->args[argc++] = "-s";
    self->args[argc++] = "--";
    self->args[argc++] = AGENT_KERNEL_RUNNER_PATH;
    self->args[argc++] = "--socket";
    self->args[argc++] = AGENT_KERNEL_RUN_DIR "/runner.sock";
    if (self->runtime_path) {
        self->args[argc++] = "--runtime";
        self->args[argc++] = self->runtime_path;
    }
    self->args[argc++] = "--type";
    self->args[argc++] = self->runtime_type;
    self->args[argc] = NULL;
    double mem = s_slot(in, "mem");
    self->kernel = (agent_kernel_spec_t){
        .args = self->args,
        .cpu_count = s_slot(in, "cpu"),
        .memory_bytes = mem >= 1 && mem < 9.2e18 ? (int64_t) mem : 0,
        .pids_max = config->pids_max,
        .shm_bytes = in->shmem_bytes < INT64_MAX ? (int64_t) in->shmem_bytes : 0,
        .hostname = self->hostname,
        .mounts = self->mounts->items,
        .mount_count = self->mounts->count,
        .dotfiles = self->dotfiles,
    };
    if (agent_stats_cgroup_v1()) {
        //  The disks its writes go to: the state dir's (its writable layer
        //  with hostdir scratch) and its folders'.
        s_io_disk(&self->kernel, config->node.state_dir);
        for (size_t i = 0; i < self->mounts->count; i++)
            s_io_disk(&self->kernel, self->mounts->items[i].host_path);
    }
    self->image = (agent_container_image_t){self->layout, self->tag, self->digest};
    return self;
}

//  ---------------------------------------------------------------------------
//  Free the spec.

void
agent_spec_destroy(agent_spec_t **self_p)
{
    assert(self_p);
    agent_spec_t *self = *self_p;
    if (!self)
        return;
    free(self->layout);
    free(self->tag);
    free(self->digest);
    free(self->reference);
    free(self->runtime_path);
    free(self->runtime_type);
    free(self->bootstrap);
    s_free_strv(self->env);
    s_free_strv(self->nodes);
    s_free_strv(self->image_env);
    free(self->devices);
    for (size_t i = 0; i < self->bind_count; i++) {
        free((char *) self->binds[i].host_path);
        free((char *) self->binds[i].kernel_path);
    }
    free(self->binds);
    agent_mounts_destroy(&self->mounts);
    agent_dotfiles_destroy(&self->dotfiles);
    free(self);
    *self_p = NULL;
}

//  ---------------------------------------------------------------------------
//  The accelerators' binds, the environment and the device nodes.

const char *
agent_spec_base_value(const agent_spec_t *self,
                      const proto_kernel_create_req_t *in,
                      const char *name)
{
    assert(self && in && name);
    const char *value = s_user_value(in, name);
    if (value)
        return value;
    size_t length = strlen(name);
    for (size_t i = 0; self->image_env && self->image_env[i]; i++)
        if (strncmp(self->image_env[i], name, length) == 0 &&
            self->image_env[i][length] == '=')
            return self->image_env[i] + length + 1;
    return NULL;
}

int
agent_spec_add_bind(agent_spec_t *self,
                    const char *host_path,
                    const char *kernel_path,
                    bool readonly,
                    bus_error_t *err)
{
    assert(self && host_path && kernel_path);
    agent_bundle_bind_t *binds =
        realloc(self->binds, (self->bind_count + 1) * sizeof *self->binds);
    if (!binds)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    self->binds = binds;
    agent_bundle_bind_t *bind = &binds[self->bind_count];
    *bind = (agent_bundle_bind_t){strdup(host_path), strdup(kernel_path), readonly};
    if (!bind->host_path || !bind->kernel_path) {
        free((char *) bind->host_path);
        free((char *) bind->kernel_path);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    self->bind_count++;
    self->kernel.binds = self->binds;
    self->kernel.bind_count = self->bind_count;
    return BUS_OK;
}

int
agent_spec_set_accel(agent_spec_t *self,
                     const proto_kernel_create_req_t *in,
                     char *const *accel,
                     char *const *nodes,
                     bus_error_t *err)
{
    assert(self && in);
    size_t node_count = 0;
    while (nodes && nodes[node_count])
        node_count++;
    s_free_strv(self->env);
    s_free_strv(self->nodes);
    free(self->devices);
    self->env = s_environ(in, self->image_env, self->reference, &self->cluster, accel);
    self->nodes = calloc(node_count + 1, sizeof *self->nodes);
    self->devices = calloc(node_count + 1, sizeof *self->devices);
    bool ok = self->env && self->nodes && self->devices;
    for (size_t i = 0; ok && i < node_count; i++)
        ok = (self->nodes[i] = strdup(nodes[i])) != NULL;
    if (!ok)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    self->kernel.env = (const char *const *) self->env;
    self->kernel.devices = self->devices;
    self->kernel.device_count = s_device_nodes(self->nodes, self->devices);
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  The slots as a row keeps them.

char *
agent_spec_slots_json(const proto_kernel_create_req_t *in)
{
    assert(in);
    json_t *map = json_object();
    for (size_t i = 0; map && i < in->slots_count; i++)
        if (in->slots[i].key && in->slots[i].value)
            json_object_set_new(map, in->slots[i].key, json_string(in->slots[i].value));
    char *text = map ? json_dumps(map, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_decref(map);
    return text;
}
