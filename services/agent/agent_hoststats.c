/*  =========================================================================
    agent_hoststats - the host's CPU and memory use, for agent.stats

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"

//  /proc/stat holds a line per CPU; /proc/meminfo some 60 short lines.
#define READ_MAX (1024 * 1024)

struct _agent_hoststats_t {
    int64_t last_ms;   //  the previous reading's time; -1: none yet
    size_t cores;      //  CPUs in last
    uint64_t *last;    //  busy ticks per CPU at the previous reading
    uint64_t *now;     //  this reading's
    uint64_t *busy_ms; //  the sample's, per CPU
    long ticks_per_s;  //  USER_HZ
};

agent_hoststats_t *
agent_hoststats_new(void)
{
    agent_hoststats_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->last_ms = -1;
    self->last = calloc(AGENT_HOSTSTATS_CORES_MAX, sizeof *self->last);
    self->now = calloc(AGENT_HOSTSTATS_CORES_MAX, sizeof *self->now);
    self->busy_ms = calloc(AGENT_HOSTSTATS_CORES_MAX, sizeof *self->busy_ms);
    self->ticks_per_s = sysconf(_SC_CLK_TCK);
    if (self->ticks_per_s <= 0)
        self->ticks_per_s = 100;
    if (!self->last || !self->now || !self->busy_ms)
        agent_hoststats_destroy(&self);
    return self;
}

void
agent_hoststats_destroy(agent_hoststats_t **self_p)
{
    assert(self_p);
    agent_hoststats_t *self = *self_p;
    if (!self)
        return;
    free(self->last);
    free(self->now);
    free(self->busy_ms);
    free(self);
    *self_p = NULL;
}

//  A small /proc file, NUL-terminated, in a fresh buffer; NULL when unread.
static char *
s_read(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    size_t size = 0, room = 8192;
    char *text = malloc(room);
    while (text) {
        if (size + 1 >= room) {
            char *more = room < READ_MAX ? realloc(text, room * 2) : NULL;
            if (!more) {
                free(text);
                text = NULL;
                break;
            }
            text = more;
            room *= 2;
        }
        ssize_t n = read(fd, text + size, room - size - 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        size += (size_t) n;
    }
    close(fd);
    if (text)
        text[size] = '\0';
    return text;
}

int
agent_hoststats_take(agent_hoststats_t *self,
                     int64_t now_ms,
                     agent_hoststats_sample_t *out)
{
    assert(self && out);
    memset(out, 0, sizeof *out);
    char *stat = s_read(AGENT_HOSTSTATS_PROC_STAT);
    char *meminfo = s_read(AGENT_HOSTSTATS_MEMINFO);
    int cores =
        stat ? agent_hoststats_parse_cpu(stat, self->now, AGENT_HOSTSTATS_CORES_MAX) : -1;
    int rc = cores > 0 && meminfo &&
                     agent_hoststats_parse_mem(meminfo, &out->mem_used_bytes,
                                               &out->mem_total_bytes) == 0
                 ? 0
                 : -1;
    free(stat);
    free(meminfo);
    if (rc != 0)
        return -1;
    //  A CPU that came or went since: start over from this reading.
    bool comparable =
        self->last_ms >= 0 && (size_t) cores == self->cores && now_ms > self->last_ms;
    uint64_t interval = comparable ? (uint64_t) (now_ms - self->last_ms) : 0;
    for (size_t i = 0; i < (size_t) cores; i++) {
        uint64_t ticks = comparable && self->now[i] >= self->last[i]
                             ? self->now[i] - self->last[i]
                             : 0;
        uint64_t ms = ticks * 1000 / (uint64_t) self->ticks_per_s;
        //  Ticks are counted in whole jiffies: never more than the interval.
        self->busy_ms[i] = ms > interval ? interval : ms;
        self->last[i] = self->now[i];
    }
    self->cores = (size_t) cores;
    self->last_ms = now_ms;
    out->interval_ms = interval;
    out->cores = (size_t) cores;
    out->busy_ms = self->busy_ms;
    return 0;
}

int
agent_hoststats_parse_cpu(const char *text, uint64_t *busy, size_t max)
{
    assert(text && busy);
    size_t count = 0;
    for (const char *line = text; line && *line; line = strchr(line, '\n')) {
        if (*line == '\n')
            line++;
        //  "cpuN user nice system idle iowait irq softirq steal ..."; the
        //  first line ("cpu " with a space) is the total.
        if (strncmp(line, "cpu", 3) != 0 || !isdigit((unsigned char) line[3]))
            continue;
        const char *p = line + 3;
        while (isdigit((unsigned char) *p))
            p++;
        unsigned long long v[8] = {0};
        int n = sscanf(p, " %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
                       &v[3], &v[4], &v[5], &v[6], &v[7]);
        if (n < 4)
            continue;
        if (count < max)
            busy[count++] = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
    }
    return count > 0 ? (int) count : -1;
}

//  The value of a meminfo field in bytes ("Name:   123 kB"); -1 when absent.
static int64_t
s_meminfo(const char *text, const char *name)
{
    size_t len = strlen(name);
    for (const char *line = text; line && *line; line = strchr(line, '\n')) {
        if (*line == '\n')
            line++;
        if (strncmp(line, name, len) == 0 && line[len] == ':') {
            unsigned long long kb = 0;
            if (sscanf(line + len + 1, " %llu", &kb) != 1)
                return -1;
            return (int64_t) kb * 1024;
        }
    }
    return -1;
}

int
agent_hoststats_parse_mem(const char *text, uint64_t *used, uint64_t *total)
{
    assert(text && used && total);
    int64_t mem_total = s_meminfo(text, "MemTotal");
    if (mem_total <= 0)
        return -1;
    int64_t available = s_meminfo(text, "MemAvailable");
    if (available < 0) {
        int64_t mem_free = s_meminfo(text, "MemFree");
        int64_t buffers = s_meminfo(text, "Buffers");
        int64_t cached = s_meminfo(text, "Cached");
        available = (mem_free > 0 ? mem_free : 0) + (buffers > 0 ? buffers : 0) +
                    (cached > 0 ? cached : 0);
    }
    if (available > mem_total)
        available = mem_total;
    *total = (uint64_t) mem_total;
    *used = (uint64_t) (mem_total - available);
    return 0;
}
