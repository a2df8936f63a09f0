/*  =========================================================================
    agent_accel_driver - the NVIDIA driver's user space, for GPU containers

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include "agent_accel_driver.h"
#include <ctype.h>
#include <glob.h>
#include <limits.h>
#include <sys/stat.h>

#define S_DIRS_MAX  64 //  library directories looked in
#define S_FILES_MAX 64 //  files bound into a container
#define S_DEPTH_MAX 4  //  nested includes of ld.so.conf followed

//  The libraries of the capabilities "compute" and "utility", as the
//  container toolkit lists them: each is lib<name>.so.<driver version>; a
//  soname (".1") is the name programs link or dlopen; bare: also bound as
//  lib<name>.so, which some programs dlopen (numba's libcuda.so).
typedef struct {
    const char *name;   //  "libcuda"
    const char *soname; //  "1", NULL when the file has only its versioned name
    bool required;      //  no driver without it
    bool bare;          //  also as lib<name>.so
} s_library_t;

static const s_library_t s_libraries[] = {
    {"libcuda", "1", true, true},
    {"libnvidia-ml", "1", true, false},
    {"libnvidia-ptxjitcompiler", "1", false, false},
    {"libnvidia-nvvm", "4", false, false},
    {"libnvidia-gpucomp", NULL, false, false},
    {"libcudadebugger", "1", false, false},
    {"libnvidia-cfg", "1", false, false},
    {"libnvidia-allocator", "1", false, false},
    {"libnvidia-opencl", "1", false, false},
    {"libnvidia-pkcs11-openssl3", NULL, false, false},
    {NULL, NULL, false, false},
};

//  nvidia-smi (utility), the MPS client and server (compute).
static const char *const s_binaries[] = {
    "nvidia-smi",
    "nvidia-debugdump",
    "nvidia-persistenced",
    "nvidia-cuda-mps-control",
    "nvidia-cuda-mps-server",
    NULL,
};

//  Where the dynamic linker looks after ld.so.conf's directories.
static const char *const s_default_lib_dirs[] = {
    "/lib/x86_64-linux-gnu",
    "/usr/lib/x86_64-linux-gnu",
    "/lib64",
    "/usr/lib64",
    "/lib",
    "/usr/lib",
    "/usr/local/nvidia/lib64",
    "/usr/local/nvidia/lib",
    NULL,
};

static const char *const s_bin_dirs[] = {
    "/usr/bin", "/usr/local/nvidia/bin", "/usr/local/bin", "/usr/sbin", "/bin", "/sbin",
    NULL,
};

struct _agent_accel_driver_t {
    char root[PATH_MAX]; //  "" for "/": every host path is root + a path
    char version[AGENT_ACCEL_DRIVER_VERSION_MAX];
    char *dirs[S_DIRS_MAX]; //  library directories, without root
    size_t dir_count;
    agent_accel_driver_file_t files[S_FILES_MAX];
    size_t file_count;
    bool found;
};

//  ---------------------------------------------------------------------------
//  The library directories: ld.so.conf's, then the defaults.

static void
s_add_dir(agent_accel_driver_t *self, const char *dir, size_t length)
{
    while (length > 1 && dir[length - 1] == '/')
        length--;
    if (length == 0 || *dir != '/' || length >= PATH_MAX || self->dir_count == S_DIRS_MAX)
        return;
    for (size_t i = 0; i < self->dir_count; i++)
        if (strlen(self->dirs[i]) == length && memcmp(self->dirs[i], dir, length) == 0)
            return;
    char *copy = strndup(dir, length);
    if (copy)
        self->dirs[self->dir_count++] = copy;
}

static void s_read_conf(agent_accel_driver_t *self, const char *path, int depth);

//  "include PATTERN": each file the pattern matches, relative patterns from
//  the directory of the file that names them (as ldconfig reads them).
static void
s_include(agent_accel_driver_t *self, const char *from, const char *pattern, int depth)
{
    char full[PATH_MAX];
    if (*pattern == '/')
        snprintf(full, sizeof full, "%s%s", self->root, pattern);
    else {
        const char *slash = strrchr(from, '/');
        int length = slash ? (int) (slash - from) : 0;
        snprintf(full, sizeof full, "%.*s/%s", length, from, pattern);
    }
    glob_t found;
    if (glob(full, 0, NULL, &found) != 0)
        return;
    for (size_t i = 0; i < found.gl_pathc; i++)
        s_read_conf(self, found.gl_pathv[i], depth + 1);
    globfree(&found);
}

//  One ld.so.conf (a host path): a directory per line or several separated
//  by blanks, ':' or ','; "#" comments; "include" lines; "hwcap" lines
//  (old glibc) ignored. Unreadable files and odd lines are skipped: this is
//  the host's own file, and a directory too many only costs a lookup.
static void
s_read_conf(agent_accel_driver_t *self, const char *path, int depth)
{
    if (depth > S_DEPTH_MAX)
        return;
    FILE *file = fopen(path, "r");
    if (!file)
        return;
    char line[PATH_MAX];
    while (fgets(line, sizeof line, file)) {
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *cursor = line;
        while (isspace((unsigned char) *cursor))
            cursor++;
        if (strncmp(cursor, "include", 7) == 0 && isspace((unsigned char) cursor[7])) {
            char *pattern = cursor + 8;
            while (isspace((unsigned char) *pattern))
                pattern++;
            pattern[strcspn(pattern, " \t\r\n")] = '\0';
            if (*pattern)
                s_include(self, path, pattern, depth);
            continue;
        }
        if (strncmp(cursor, "hwcap", 5) == 0)
            continue;
        while (*cursor) {
            size_t length = strcspn(cursor, " \t\r\n:,");
            s_add_dir(self, cursor, length);
            cursor += length;
            cursor += strspn(cursor, " \t\r\n:,");
        }
    }
    fclose(file);
}

//  ---------------------------------------------------------------------------
//  Finding files.

//  The host path of root + dir + "/" + name into out when it is a regular
//  file (following links); false otherwise.
static bool
s_file_in(const agent_accel_driver_t *self,
          const char *dir,
          const char *name,
          char *out,
          size_t size)
{
    struct stat st;
    int n = snprintf(out, size, "%s%s/%s", self->root, dir, name);
    return n > 0 && (size_t) n < size && stat(out, &st) == 0 && S_ISREG(st.st_mode);
}

//  The first library directory holding name, its host path into out.
static bool
s_find_library(const agent_accel_driver_t *self, const char *name, char *out, size_t size)
{
    for (size_t i = 0; i < self->dir_count; i++)
        if (s_file_in(self, self->dirs[i], name, out, size))
            return true;
    return false;
}

//  The version from the name libcuda.so.1 points to: "libcuda.so.580.159.04"
//  gives "580.159.04" (a link's target, or, where libcuda.so.1 is the file
//  itself, the one libcuda.so.<digits...> beside it).
static bool
s_version_from_libcuda(agent_accel_driver_t *self)
{
    static const char prefix[] = "libcuda.so.";
    char path[PATH_MAX], target[PATH_MAX];
    for (size_t i = 0; i < self->dir_count; i++) {
        //  A path too long for PATH_MAX names no file that could be opened.
        if (snprintf(path, sizeof path, "%s%s/libcuda.so.1", self->root, self->dirs[i]) >=
            (int) sizeof path)
            continue;
        ssize_t n = readlink(path, target, sizeof target - 1);
        const char *base = NULL;
        if (n > 0) {
            target[n] = '\0';
            const char *slash = strrchr(target, '/');
            base = slash ? slash + 1 : target;
        } else {
            char pattern[PATH_MAX];
            glob_t found = {0};
            if (snprintf(pattern, sizeof pattern, "%s%s/libcuda.so.[0-9]*.*", self->root,
                         self->dirs[i]) < (int) sizeof pattern &&
                glob(pattern, 0, NULL, &found) == 0 && found.gl_pathc > 0) {
                const char *slash = strrchr(found.gl_pathv[0], '/');
                snprintf(target, sizeof target, "%s", slash + 1);
                base = target;
            }
            globfree(&found);
        }
        if (base && strncmp(base, prefix, sizeof prefix - 1) == 0 &&
            isdigit((unsigned char) base[sizeof prefix - 1]) &&
            strcmp(base + sizeof prefix - 1, "1") != 0) {
            snprintf(self->version, sizeof self->version, "%s", base + sizeof prefix - 1);
            return true;
        }
    }
    return false;
}

static bool
s_add_file(agent_accel_driver_t *self, const char *host_path, const char *kernel_path)
{
    if (self->file_count == S_FILES_MAX)
        return false;
    agent_accel_driver_file_t *file = &self->files[self->file_count];
    file->host_path = strdup(host_path);
    file->kernel_path = strdup(kernel_path);
    if (!file->host_path || !file->kernel_path) {
        free(file->host_path);
        free(file->kernel_path);
        return false;
    }
    self->file_count++;
    return true;
}

//  The libraries of the version, each under its names. False when a
//  required one is missing.
static bool
s_find_libraries(agent_accel_driver_t *self)
{
    for (const s_library_t *lib = s_libraries; lib->name; lib++) {
        char name[NAME_MAX + 1], host[PATH_MAX], kernel[PATH_MAX];
        snprintf(name, sizeof name, "%s.so.%s", lib->name, self->version);
        if (!s_find_library(self, name, host, sizeof host)) {
            if (lib->required) {
                bus_log_warning("cuda: driver library missing, no driver files for GPU"
                                " containers name=%s version=%s",
                                name, self->version);
                return false;
            }
            bus_log_info("cuda: driver library absent name=%s", name);
            continue;
        }
        snprintf(kernel, sizeof kernel, AGENT_ACCEL_DRIVER_LIB "/%s", name);
        bool ok = s_add_file(self, host, kernel);
        if (lib->soname) {
            snprintf(kernel, sizeof kernel, AGENT_ACCEL_DRIVER_LIB "/%s.so.%s", lib->name,
                     lib->soname);
            ok = ok && s_add_file(self, host, kernel);
        }
        if (lib->bare) {
            snprintf(kernel, sizeof kernel, AGENT_ACCEL_DRIVER_LIB "/%s.so", lib->name);
            ok = ok && s_add_file(self, host, kernel);
        }
        if (!ok)
            return false;
    }
    return true;
}

//  True when path is an ELF file, not a script.
static bool
s_is_elf(const char *path)
{
    char magic[4] = "";
    FILE *file = fopen(path, "rb");
    bool elf = file && fread(magic, 1, sizeof magic, file) == sizeof magic &&
               memcmp(magic, "\177ELF", 4) == 0;
    if (file)
        fclose(file);
    return elf;
}

//  Each binary: the first executable ELF file in the directories, else the
//  first executable. A wrapper script that looks for "the real" binary in
//  PATH (a machine with a GPU had /usr/bin/nvidia-smi so, before the
//  driver's own in /usr/local/nvidia/bin) finds nothing in a container.
static void
s_find_binaries(agent_accel_driver_t *self)
{
    for (size_t b = 0; s_binaries[b]; b++) {
        char host[PATH_MAX], kernel[PATH_MAX], first[PATH_MAX] = "";
        bool found = false;
        for (size_t d = 0; !found && s_bin_dirs[d]; d++) {
            if (!s_file_in(self, s_bin_dirs[d], s_binaries[b], host, sizeof host) ||
                access(host, X_OK) != 0)
                continue;
            if (!*first)
                snprintf(first, sizeof first, "%s", host);
            found = s_is_elf(host);
        }
        if (!found && *first) {
            snprintf(host, sizeof host, "%s", first);
            found = true;
        }
        if (!found) {
            bus_log_info("cuda: driver binary absent name=%s", s_binaries[b]);
            continue;
        }
        snprintf(kernel, sizeof kernel, AGENT_ACCEL_DRIVER_BIN "/%s", s_binaries[b]);
        if (!s_add_file(self, host, kernel))
            return;
    }
}

static void
s_clear_files(agent_accel_driver_t *self)
{
    for (size_t i = 0; i < self->file_count; i++) {
        free(self->files[i].host_path);
        free(self->files[i].kernel_path);
    }
    self->file_count = 0;
}

//  ---------------------------------------------------------------------------

agent_accel_driver_t *
agent_accel_driver_new(const char *root, const char *version)
{
    agent_accel_driver_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    //  "/" and "" are the host itself; any other root loses its trailing '/'.
    snprintf(self->root, sizeof self->root, "%s", root ? root : "");
    size_t length = strlen(self->root);
    while (length > 0 && self->root[length - 1] == '/')
        self->root[--length] = '\0';
    char conf[PATH_MAX];
    if (snprintf(conf, sizeof conf, "%s/etc/ld.so.conf", self->root) < (int) sizeof conf)
        s_read_conf(self, conf, 0);
    for (size_t i = 0; s_default_lib_dirs[i]; i++)
        s_add_dir(self, s_default_lib_dirs[i], strlen(s_default_lib_dirs[i]));

    if (version && *version)
        snprintf(self->version, sizeof self->version, "%s", version);
    else if (!s_version_from_libcuda(self)) {
        bus_log_notice("cuda: no driver library libcuda.so.1, no driver files for GPU"
                       " containers root=%s",
                       *self->root ? self->root : "/");
        return self;
    }
    if (!s_find_libraries(self)) {
        s_clear_files(self);
        return self;
    }
    s_find_binaries(self);
    self->found = true;
    bus_log_notice("cuda: driver files for GPU containers version=%s files=%zu root=%s",
                   self->version, self->file_count, *self->root ? self->root : "/");
    return self;
}

void
agent_accel_driver_destroy(agent_accel_driver_t **self_p)
{
    assert(self_p);
    agent_accel_driver_t *self = *self_p;
    if (!self)
        return;
    s_clear_files(self);
    for (size_t i = 0; i < self->dir_count; i++)
        free(self->dirs[i]);
    free(self);
    *self_p = NULL;
}

bool
agent_accel_driver_found(const agent_accel_driver_t *self)
{
    return self && self->found;
}

const char *
agent_accel_driver_version(const agent_accel_driver_t *self)
{
    assert(self);
    return self->found ? self->version : "";
}

size_t
agent_accel_driver_count(const agent_accel_driver_t *self)
{
    assert(self);
    return self->file_count;
}

const agent_accel_driver_file_t *
agent_accel_driver_file(const agent_accel_driver_t *self, size_t i)
{
    assert(self);
    return i < self->file_count ? &self->files[i] : NULL;
}

const char *
agent_accel_driver_binary(const agent_accel_driver_t *self, const char *name)
{
    assert(self && name);
    char kernel[PATH_MAX];
    snprintf(kernel, sizeof kernel, AGENT_ACCEL_DRIVER_BIN "/%s", name);
    for (size_t i = 0; i < self->file_count; i++)
        if (streq(self->files[i].kernel_path, kernel))
            return self->files[i].host_path;
    return NULL;
}

char **
agent_accel_driver_environ(const agent_accel_driver_t *self,
                           const char *path,
                           const char *library_path)
{
    assert(self);
    if (!self->found)
        return NULL;
    const char *default_path = strchr(AGENT_KERNEL_PATH_ENV, '=') + 1;
    char **env = calloc(4, sizeof *env);
    if (!env)
        return NULL;
    env[0] =
        library_path && *library_path
            ? zsys_sprintf("LD_LIBRARY_PATH=" AGENT_ACCEL_DRIVER_LIB ":%s", library_path)
            : strdup("LD_LIBRARY_PATH=" AGENT_ACCEL_DRIVER_LIB);
    env[1] = zsys_sprintf("PATH=%s:" AGENT_ACCEL_DRIVER_BIN,
                          path && *path ? path : default_path);
    env[2] = strdup("NVIDIA_DRIVER_CAPABILITIES=compute,utility");
    if (!env[0] || !env[1] || !env[2])
        agent_accel_strv_destroy(&env);
    return env;
}
