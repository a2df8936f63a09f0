/*  =========================================================================
    agent_stats - read a kernel's cgroup counters (v1, hybrid or v2)

    The layout is told by the memory controller's own directory: present on
    v1 and hybrid hosts (whose unified mount holds no controller files we
    want), absent on a pure v2 host. Counters are small text files that
    report no size, so each is read to EOF into a fixed buffer. The I/O
    texts are parsed by pure functions (agent_stats_test feeds them
    malformed input).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <fcntl.h>         //  open flags
#include <sys/stat.h>      //  stat: which cgroup layout
#include <sys/sysmacros.h> //  major, minor

#define VALUE_MAX 4096
//  io.stat and blkio files have a line per device (and five on v1): room
//  for some hundreds of devices; a longer text is cut at a line's end.
#define IO_TEXT_MAX  65536
#define NET_TEXT_MAX (1 << 20) //  /proc/net/dev: ~130 bytes an interface
#define DEV_DIR      "/sys/dev/block"

//  Read dir/file into buffer; false when it cannot be read.
static bool
s_read(const char *dir, const char *file, char *buffer, size_t size)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    size_t done = 0;
    while (done + 1 < size) {
        ssize_t n = read(fd, buffer + done, size - 1 - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += (size_t) n;
    }
    close(fd);
    buffer[done] = '\0';
    return true;
}

//  A file holding one number ("max" and unreadable files give 0).
static uint64_t
s_number(const char *dir, const char *file)
{
    char buffer[64];
    if (!s_read(dir, file, buffer, sizeof buffer) || !isdigit((unsigned char) buffer[0]))
        return 0;
    return strtoull(buffer, NULL, 10);
}

//  The value of "key N" in a flat keyed file (memory.events, cpu.stat, ...).
static uint64_t
s_keyed(const char *dir, const char *file, const char *key)
{
    char buffer[VALUE_MAX];
    if (!s_read(dir, file, buffer, sizeof buffer))
        return 0;
    size_t len = strlen(key);
    for (char *line = buffer; line && *line; line = strchr(line, '\n')) {
        if (*line == '\n')
            line++;
        if (strncmp(line, key, len) == 0 && line[len] == ' ')
            return strtoull(line + len + 1, NULL, 10);
    }
    return 0;
}

//  a + b, or UINT64_MAX when that would wrap.
static uint64_t
s_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

//  A decimal number of [p, end) into value: digits only, no sign, no
//  overflow. False otherwise.
static bool
s_decimal(const char *p, const char *end, uint64_t *value)
{
    if (p >= end)
        return false;
    uint64_t v = 0;
    for (; p < end; p++) {
        if (*p < '0' || *p > '9')
            return false;
        unsigned digit = (unsigned) (*p - '0');
        if (v > (UINT64_MAX - digit) / 10)
            return false;
        v = v * 10 + digit;
    }
    *value = v;
    return true;
}

//  Whether [p, end) is MAJ:MIN.
static bool
s_device(const char *p, const char *end)
{
    const char *colon = memchr(p, ':', (size_t) (end - p));
    uint64_t number;
    return colon && s_decimal(p, colon, &number) && s_decimal(colon + 1, end, &number);
}

//  The next space-separated token of the line [*p, end) into [*token,
//  *token_end). False at the line's end.
static bool
s_token(const char **p, const char *end, const char **token, const char **token_end)
{
    while (*p < end && (**p == ' ' || **p == '\t'))
        (*p)++;
    if (*p >= end)
        return false;
    *token = *p;
    while (*p < end && **p != ' ' && **p != '\t')
        (*p)++;
    *token_end = *p;
    return true;
}

//  ---------------------------------------------------------------------------
//  Sum an io.stat text.

int
agent_stats_parse_io_stat(const char *text, uint64_t *read, uint64_t *write)
{
    assert(text && read && write);
    *read = *write = 0;
    int lines = 0;
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        if (!end)
            end = line + strlen(line);
        const char *p = line, *token, *token_end;
        uint64_t r = 0, w = 0;
        bool ok = s_token(&p, end, &token, &token_end) && s_device(token, token_end);
        while (ok && s_token(&p, end, &token, &token_end)) {
            const char *eq = memchr(token, '=', (size_t) (token_end - token));
            if (!eq)
                continue;
            size_t key = (size_t) (eq - token);
            if (key == 6 && memcmp(token, "rbytes", 6) == 0)
                ok = s_decimal(eq + 1, token_end, &r);
            else if (key == 6 && memcmp(token, "wbytes", 6) == 0)
                ok = s_decimal(eq + 1, token_end, &w);
        }
        if (ok) {
            *read = s_add(*read, r);
            *write = s_add(*write, w);
            lines++;
        }
        line = *end ? end + 1 : end;
    }
    return lines;
}

//  ---------------------------------------------------------------------------
//  Sum a v1 blkio.throttle.io_service_bytes text.

int
agent_stats_parse_blkio(const char *text, uint64_t *read, uint64_t *write)
{
    assert(text && read && write);
    *read = *write = 0;
    int rows = 0;
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        if (!end)
            end = line + strlen(line);
        const char *p = line, *dev, *dev_end, *op, *op_end, *num, *num_end, *extra,
                   *extra_end;
        uint64_t value;
        if (s_token(&p, end, &dev, &dev_end) && s_device(dev, dev_end) &&
            s_token(&p, end, &op, &op_end) && s_token(&p, end, &num, &num_end) &&
            !s_token(&p, end, &extra, &extra_end) && s_decimal(num, num_end, &value)) {
            size_t len = (size_t) (op_end - op);
            if (len == 4 && memcmp(op, "Read", 4) == 0) {
                *read = s_add(*read, value);
                rows++;
            } else if (len == 5 && memcmp(op, "Write", 5) == 0) {
                *write = s_add(*write, value);
                rows++;
            }
        }
        line = *end ? end + 1 : end;
    }
    return rows;
}

//  The bytes a kernel read and wrote, from the cgroup directory dir.
static void
s_io(const char *dir, bool v1, agent_stats_t *stats)
{
    char *text = malloc(IO_TEXT_MAX);
    if (!text)
        return;
    if (v1 && s_read(dir, "blkio.throttle.io_service_bytes_recursive", text, IO_TEXT_MAX))
        agent_stats_parse_blkio(text, &stats->io_read_bytes, &stats->io_write_bytes);
    else if (!v1 && s_read(dir, "io.stat", text, IO_TEXT_MAX))
        agent_stats_parse_io_stat(text, &stats->io_read_bytes, &stats->io_write_bytes);
    free(text);
}

//  ---------------------------------------------------------------------------
//  One interface's byte counters in a /proc/net/dev text.

int
agent_stats_parse_net_dev(const char *text,
                          const char *ifname,
                          uint64_t *rx,
                          uint64_t *tx)
{
    assert(text && ifname && rx && tx);
    size_t name_len = strlen(ifname);
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        if (!end)
            end = line + strlen(line);
        const char *p = line;
        while (p < end && *p == ' ')
            p++;
        const char *colon = memchr(p, ':', (size_t) (end - p));
        if (colon && (size_t) (colon - p) == name_len &&
            memcmp(p, ifname, name_len) == 0) {
            //  Receive: bytes packets errs drop fifo frame compressed
            //  multicast; then transmit: bytes ...
            const char *cursor = colon + 1, *token, *token_end;
            uint64_t values[9];
            int count = 0;
            while (count < 9 && s_token(&cursor, end, &token, &token_end) &&
                   s_decimal(token, token_end, &values[count]))
                count++;
            if (count < 9)
                return -1;
            *rx = values[0];
            *tx = values[8];
            return 0;
        }
        line = *end ? end + 1 : end;
    }
    return -1;
}

//  The bytes of the kernel's eth0, from its host-side veth: what the host
//  side received (rx) the container sent (tx), and the other way round.
//  From /proc/net/dev, which shows the interfaces of the network namespace
//  the agent runs in, not /sys/class/net, which shows those of the namespace
//  that mounted /sys: an agent started in a namespace of its own without a
//  /sys of its own (nsenter --net, systemd's NetworkNamespacePath=, a
//  testbed host) read nothing there, and every kernel's traffic was 0.
static void
s_net(const char *kernel_id, agent_stats_t *stats)
{
    char veth[AGENT_NET_IFNAME_MAX + 1];
    agent_net_veth_name(kernel_id, veth);
    char *text = malloc(NET_TEXT_MAX);
    uint64_t rx = 0, tx = 0;
    if (text && s_read("/proc/net", "dev", text, NET_TEXT_MAX) &&
        agent_stats_parse_net_dev(text, veth, &rx, &tx) == 0) {
        stats->net_tx_bytes = rx;
        stats->net_rx_bytes = tx;
    }
    free(text);
}

static bool
s_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

//  ---------------------------------------------------------------------------
//  Fill stats for kernel_id.

int
agent_stats_read(const char *kernel_id, agent_stats_t *stats)
{
    assert(kernel_id);
    assert(stats);
    memset(stats, 0, sizeof *stats);
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, AGENT_STATS_CGROUP_ROOT "/memory");
    if (s_is_dir(dir)) {
        //  v1 or hybrid
        snprintf(dir, sizeof dir,
                 AGENT_STATS_CGROUP_ROOT "/memory/" AGENT_BUNDLE_CGROUP_PARENT "/%s",
                 kernel_id);
        if (!s_is_dir(dir))
            return BUS_STATUS_NOT_FOUND;
        stats->memory_bytes = s_number(dir, "memory.usage_in_bytes");
        stats->memory_max_bytes = s_number(dir, "memory.max_usage_in_bytes");
        stats->memory_limit_bytes = s_number(dir, "memory.limit_in_bytes");
        stats->memory_failcnt = s_number(dir, "memory.failcnt");
        stats->oom_kills = s_keyed(dir, "memory.oom_control", "oom_kill");
        //  v1 reports "no limit" as a huge page-rounded number.
        if (stats->memory_limit_bytes >= (uint64_t) INT64_MAX / 2)
            stats->memory_limit_bytes = 0;
        snprintf(dir, sizeof dir,
                 AGENT_STATS_CGROUP_ROOT "/cpuacct/" AGENT_BUNDLE_CGROUP_PARENT "/%s",
                 kernel_id);
        stats->cpu_used_ns = s_number(dir, "cpuacct.usage");
        snprintf(dir, sizeof dir,
                 AGENT_STATS_CGROUP_ROOT "/pids/" AGENT_BUNDLE_CGROUP_PARENT "/%s",
                 kernel_id);
        stats->pids = s_number(dir, "pids.current");
        snprintf(dir, sizeof dir,
                 AGENT_STATS_CGROUP_ROOT "/blkio/" AGENT_BUNDLE_CGROUP_PARENT "/%s",
                 kernel_id);
        s_io(dir, true, stats);
        s_net(kernel_id, stats);
        return BUS_OK;
    }
    //  pure v2
    snprintf(dir, sizeof dir,
             AGENT_STATS_CGROUP_ROOT "/" AGENT_BUNDLE_CGROUP_PARENT "/%s", kernel_id);
    if (!s_is_dir(dir))
        return BUS_STATUS_NOT_FOUND;
    stats->memory_bytes = s_number(dir, "memory.current");
    stats->memory_max_bytes = s_number(dir, "memory.peak");
    stats->memory_limit_bytes = s_number(dir, "memory.max");
    stats->oom_kills = s_keyed(dir, "memory.events", "oom_kill");
    stats->cpu_used_ns = s_keyed(dir, "cpu.stat", "usage_usec") * 1000;
    stats->pids = s_number(dir, "pids.current");
    s_io(dir, false, stats);
    s_net(kernel_id, stats);
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  GPU figures.

struct _agent_stats_gpus_t {
    const agent_accel_plugin_t *plugin; //  the CUDA plugin
    size_t position;                    //  its position in the allocator
    size_t count;                       //  processes read
    agent_accel_gpu_process_t processes[AGENT_ACCEL_PROCESSES_MAX];
    char *cgroups[AGENT_ACCEL_PROCESSES_MAX]; //  each one's text; NULL: gone
};

void
agent_stats_cgroup_path(const char *kernel_id, char *path, size_t size)
{
    assert(kernel_id && path);
    snprintf(path, size, "/" AGENT_BUNDLE_CGROUP_PARENT "/%s", kernel_id);
}

bool
agent_stats_cgroup_within(const char *text, const char *path)
{
    assert(text && path);
    size_t len = strlen(path);
    while (len > 1 && path[len - 1] == '/')
        len--;
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        if (!end)
            end = line + strlen(line);
        //  ID:CONTROLLERS:PATH; the path may hold ':' itself.
        const char *a = memchr(line, ':', (size_t) (end - line));
        const char *b = a ? memchr(a + 1, ':', (size_t) (end - a - 1)) : NULL;
        if (b && b + 1 < end && b[1] == '/') {
            const char *p = b + 1;
            size_t n = (size_t) (end - p);
            if (n >= len && memcmp(p, path, len) == 0 &&
                (n == len || p[len] == '/' || len == 1))
                return true;
        }
        line = *end ? end + 1 : end;
    }
    return false;
}

agent_stats_gpus_t *
agent_stats_gpus_new(const agent_accel_t *accel)
{
    assert(accel);
    const agent_accel_plugin_t *plugin = agent_accel_cuda_plugin(accel);
    if (!plugin)
        return NULL;
    agent_stats_gpus_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->plugin = plugin;
    while (agent_accel_plugin(accel, self->position) != plugin)
        self->position++;
    self->count =
        agent_accel_cuda_processes(plugin, self->processes, AGENT_ACCEL_PROCESSES_MAX);
    char dir[64];
    for (size_t i = 0; i < self->count; i++) {
        //  A pid seen on several GPUs is read once.
        for (size_t j = 0; j < i && !self->cgroups[i]; j++)
            if (self->processes[j].pid == self->processes[i].pid && self->cgroups[j])
                self->cgroups[i] = strdup(self->cgroups[j]);
        if (self->cgroups[i])
            continue;
        snprintf(dir, sizeof dir, "/proc/%" PRIu32, self->processes[i].pid);
        char *text = malloc(AGENT_STATS_CGROUP_TEXT_MAX);
        if (text && s_read(dir, "cgroup", text, AGENT_STATS_CGROUP_TEXT_MAX))
            self->cgroups[i] = text;
        else
            free(text); //  gone since NVML listed it
    }
    return self;
}

void
agent_stats_gpus_destroy(agent_stats_gpus_t **self_p)
{
    assert(self_p);
    agent_stats_gpus_t *self = *self_p;
    if (self) {
        for (size_t i = 0; i < self->count; i++)
            free(self->cgroups[i]);
        free(self);
        *self_p = NULL;
    }
}

void
agent_stats_gpus_kernel(const agent_stats_gpus_t *self,
                        const agent_accel_alloc_t *alloc,
                        const char *cgroup_path,
                        agent_stats_gpu_t *out)
{
    assert(self && cgroup_path && out);
    memset(out, 0, sizeof *out);
    bool held[AGENT_ACCEL_DEVICES_MAX] = {false};
    for (size_t i = 0; alloc && i < alloc->count; i++) {
        const agent_accel_part_t *part = &alloc->parts[i];
        if (part->plugin != self->position || part->amount <= 0 ||
            part->device >= agent_accel_plugin_device_count(self->plugin) ||
            held[part->device])
            continue;
        held[part->device] = true;
        out->devices++;
        int64_t memory =
            agent_accel_plugin_device(self->plugin, part->device)->memory_bytes;
        out->mem_total_bytes = s_add(out->mem_total_bytes, (uint64_t) memory);
    }
    for (size_t i = 0; out->devices && i < self->count; i++) {
        const agent_accel_gpu_process_t *process = &self->processes[i];
        if (process->device >= AGENT_ACCEL_DEVICES_MAX || !held[process->device] ||
            !self->cgroups[i] ||
            !agent_stats_cgroup_within(self->cgroups[i], cgroup_path))
            continue;
        out->mem_bytes = s_add(out->mem_bytes, process->mem_bytes);
        out->util_pct += process->sm_util_pct;
    }
}

//  ---------------------------------------------------------------------------
//  Whether the controllers are in cgroup v1.

bool
agent_stats_cgroup_v1(void)
{
    return s_is_dir(AGENT_STATS_CGROUP_ROOT "/memory");
}

//  ---------------------------------------------------------------------------
//  The whole disk under path.

int
agent_stats_disk(const char *path, int64_t *major_p, int64_t *minor_p)
{
    assert(path && major_p && minor_p);
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    //  A partition's directory sits in its disk's: ".." is the disk.
    char dir[64], partition[64], text[64];
    snprintf(dir, sizeof dir, DEV_DIR "/%u:%u", major(st.st_dev), minor(st.st_dev));
    snprintf(partition, sizeof partition, DEV_DIR "/%u:%u/partition", major(st.st_dev),
             minor(st.st_dev));
    if (!s_is_dir(dir))
        return -1; //  no block device (tmpfs, overlay, a network file system)
    if (access(partition, F_OK) == 0)
        snprintf(dir, sizeof dir, DEV_DIR "/%u:%u/..", major(st.st_dev),
                 minor(st.st_dev));
    unsigned maj, min;
    if (!s_read(dir, "dev", text, sizeof text) || sscanf(text, "%u:%u", &maj, &min) != 2)
        return -1;
    *major_p = maj;
    *minor_p = min;
    return 0;
}
