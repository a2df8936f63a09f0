/*  =========================================================================
    agent_hosts - a kernel's /etc/hosts: <state_dir>/hosts/<kernel_id>

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <fcntl.h>     //  open flags
#include <dirent.h>    //  opendir: the sweep
#include <arpa/inet.h> //  inet_pton: the addresses kernel.hosts names

#define S_HEAD "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n"

//  ---------------------------------------------------------------------------
//  The file's path.

char *
agent_hosts_path(const char *state_dir, const char *kernel_id)
{
    assert(state_dir && kernel_id);
    return zsys_sprintf("%s/" AGENT_HOSTS_DIR "/%s", state_dir, kernel_id);
}

//  ---------------------------------------------------------------------------
//  Whether a name may go into the file.

bool
agent_hosts_name_valid(const char *name)
{
    size_t len = name ? strlen(name) : 0;
    if (len == 0 || len > AGENT_BUNDLE_HOSTNAME_MAX || *name == '-' || *name == '.')
        return false;
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char) *p) && *p != '-' && *p != '.')
            return false;
    return true;
}

//  ---------------------------------------------------------------------------
//  A kernel's first file.

int
agent_hosts_create(const char *state_dir,
                   const char *kernel_id,
                   const char *ip,
                   const char *hostname,
                   bus_error_t *err)
{
    assert(state_dir && kernel_id && ip && hostname);
    char *dir = zsys_sprintf("%s/" AGENT_HOSTS_DIR, state_dir);
    char *path = agent_hosts_path(state_dir, kernel_id);
    char *text = zsys_sprintf(S_HEAD "%s\t%s\n", *ip ? ip : AGENT_HOSTS_SELF, hostname);
    int rc = BUS_OK;
    if (!dir || !path || !text)
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    else if (bus_mkdirs_mode(dir, 0700) != 0)
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "cannot make %s: %s", dir,
                           strerror(errno));
    else if (agent_fs_replace(path, text, strlen(text)) != 0)
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "cannot write %s: %s", path,
                           strerror(errno));
    zstr_free(&dir);
    zstr_free(&path);
    zstr_free(&text);
    return rc;
}

//  ---------------------------------------------------------------------------
//  The text from kernel.hosts.

int
agent_hosts_text(const char *hostname,
                 const char *ip,
                 const char *json,
                 char **text_p,
                 bus_error_t *err)
{
    assert(hostname && ip && text_p);
    *text_p = NULL;
    json_t *map = json ? json_loads(json, 0, NULL) : NULL;
    size_t count = json_is_object(map) ? json_object_size(map) : 0;
    if (!json_is_object(map) || count > AGENT_HOSTS_MAX) {
        json_decref(map);
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "hosts is not a JSON object of at most %d names",
                             AGENT_HOSTS_MAX);
    }
    size_t line_max = INET6_ADDRSTRLEN + AGENT_BUNDLE_HOSTNAME_MAX + 2;
    size_t size = sizeof S_HEAD + (count + 1) * line_max;
    char *text = malloc(size);
    if (!text) {
        json_decref(map);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    size_t len = (size_t) snprintf(text, size, "%s", S_HEAD);
    bool own = !*hostname;
    int rc = BUS_OK;
    const char *name;
    json_t *value;
    json_object_foreach(map, name, value)
    {
        const char *address = json_string_value(value);
        unsigned char bytes[sizeof(struct in6_addr)];
        if (!agent_hosts_name_valid(name) || !address ||
            (inet_pton(AF_INET, address, bytes) != 1 &&
             inet_pton(AF_INET6, address, bytes) != 1)) {
            rc =
                bus_error_set(err, BUS_STATUS_INVALID, "bad hosts entry \"%.64s\"", name);
            break;
        }
        len += (size_t) snprintf(text + len, size - len, "%s\t%s\n", address, name);
        own = own || strcmp(name, hostname) == 0;
    }
    if (rc == BUS_OK && !own)
        snprintf(text + len, size - len, "%s\t%s\n", *ip ? ip : AGENT_HOSTS_SELF,
                 hostname);
    json_decref(map);
    if (rc == BUS_OK)
        *text_p = text;
    else
        free(text);
    return rc;
}

//  ---------------------------------------------------------------------------
//  Rewrite a kernel's file in place.

int
agent_hosts_rewrite(const char *state_dir,
                    const char *kernel_id,
                    const char *text,
                    bus_error_t *err)
{
    assert(state_dir && kernel_id && text);
    char *path = agent_hosts_path(state_dir, kernel_id);
    if (!path)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    size_t len = strlen(text);
    bool ok = fd >= 0 && pwrite(fd, text, len, 0) == (ssize_t) len &&
              ftruncate(fd, (off_t) len) == 0;
    int rc = ok ? BUS_OK
                : bus_error_set(err, BUS_STATUS_INTERNAL, "cannot rewrite %s: %s", path,
                                strerror(errno));
    if (fd >= 0)
        close(fd);
    zstr_free(&path);
    return rc;
}

//  ---------------------------------------------------------------------------
//  Remove a kernel's file.

void
agent_hosts_remove(const char *state_dir, const char *kernel_id)
{
    assert(state_dir && kernel_id);
    char *path = agent_hosts_path(state_dir, kernel_id);
    if (path && unlink(path) != 0 && errno != ENOENT)
        bus_log_warning("cannot remove %s: %s", path, strerror(errno));
    zstr_free(&path);
}

//  ---------------------------------------------------------------------------
//  Remove the files of kernels that are gone.

void
agent_hosts_sweep(const char *state_dir, zhashx_t *keep)
{
    assert(state_dir && keep);
    char *dir_path = zsys_sprintf("%s/" AGENT_HOSTS_DIR, state_dir);
    DIR *dir = dir_path ? opendir(dir_path) : NULL;
    struct dirent *entry;
    while (dir && (entry = readdir(dir)))
        if (*entry->d_name != '.' && !zhashx_lookup(keep, entry->d_name))
            agent_hosts_remove(state_dir, entry->d_name);
    if (dir)
        closedir(dir);
    zstr_free(&dir_path);
}
