/*  =========================================================================
    agent_stats - read a kernel's cgroup counters (v1, hybrid or v2)

    The layout is told by the memory controller's own directory: present on
    v1 and hybrid hosts (whose unified mount holds no controller files we
    want), absent on a pure v2 host. Counters are small text files that
    report no size, so each is read to EOF into a fixed buffer.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <fcntl.h>    //  open flags
#include <sys/stat.h> //  stat: which cgroup layout

#define VALUE_MAX 4096

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
    return BUS_OK;
}
