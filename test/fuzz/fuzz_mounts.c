/*  =========================================================================
    fuzz_mounts - libFuzzer target for a kernel's folder mounts
    (agent_mounts_parse)

    kernel.create's mounts field is JSON the gateway builds from a user's
    POST /session (folder names, mount_map paths), and the agent turns each
    entry into a bind mount made as root. The fuzz input, cut at its first
    NUL byte, is parsed; a failure must be INVALID with a message. A success
    must keep every promise of agent_mounts.h: at most AGENT_MOUNTS_MAX
    entries, absolute paths without a "." or ".." component, an empty one or
    a trailing '/', no control character, and every entry passing
    agent_mounts_check again. Parsing twice gives the same answer. Any
    broken promise aborts, so the fuzzer reports it like a crash.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "../../services/agent/agent_mounts.h"

static void
s_check(bool condition)
{
    if (!condition)
        abort();
}

//  A path agent_mounts promises: absolute, clean, printable.
static void
s_check_path(const char *path)
{
    s_check(path && path[0] == '/');
    size_t len = strlen(path);
    s_check(len < PATH_MAX);
    s_check(len == 1 || path[len - 1] != '/');
    s_check(!strstr(path, "//") && !strstr(path, "/./") && !strstr(path, "/../"));
    s_check(!(len >= 2 && strcmp(path + len - 2, "/.") == 0));
    s_check(!(len >= 3 && strcmp(path + len - 3, "/..") == 0));
    for (const char *c = path; *c; c++)
        s_check((unsigned char) *c >= 0x20 && *c != 0x7f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    agent_mounts_t *mounts = NULL, *again = NULL;
    bus_error_t err = {0}, err_again = {0};
    int rc = agent_mounts_parse(text, &mounts, &err);
    int rc_again = agent_mounts_parse(text, &again, &err_again);
    s_check(rc == rc_again);
    if (rc != BUS_OK) {
        s_check(rc == BUS_STATUS_INVALID && *err.detail && !mounts);
        s_check(strcmp(err.detail, err_again.detail) == 0);
    } else {
        s_check(mounts && again && mounts->count == again->count);
        s_check(mounts->count <= AGENT_MOUNTS_MAX);
        for (size_t i = 0; i < mounts->count; i++) {
            s_check_path(mounts->items[i].host_path);
            s_check_path(mounts->items[i].kernel_path);
            s_check(strcmp(mounts->items[i].kernel_path, "/") != 0);
        }
        bus_error_t recheck = {0};
        s_check(agent_mounts_check(mounts->items, mounts->count, &recheck) == BUS_OK);
    }
    agent_mounts_destroy(&mounts);
    agent_mounts_destroy(&again);
    free(text);
    return 0;
}
