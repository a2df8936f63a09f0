/*  =========================================================================
    fuzz_mounts - libFuzzer target for a kernel's folder mounts
    (kernel.create's decoder, then agent_mounts_from_list)

    kernel.create's mounts are folders the gateway resolved from a user's
    POST /session (folder names, mount_map paths), and the agent turns each
    into a bind mount made as root. The fuzz input is a kernel.create
    request body (msgpack); what decodes goes to agent_mounts_from_list. A
    failure must be INVALID with a message. A success must keep every
    promise of agent_mounts.h: at most AGENT_MOUNTS_MAX entries, absolute
    paths without a "." or ".." component, an empty one or a trailing '/',
    no control character, and every entry passing agent_mounts_check
    again. Copying twice gives the same answer. Any broken promise aborts,
    so the fuzzer reports it like a crash.

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
    proto_kernel_create_req_t in;
    bus_error_t decode_err = {0};
    if (proto_kernel_create_req_decode(&in, data, size, &decode_err) != BUS_OK) {
        s_check(*decode_err.detail);
        return 0;
    }
    agent_mounts_t *mounts = NULL, *again = NULL;
    bus_error_t err = {0}, err_again = {0};
    int rc = agent_mounts_from_list(in.mounts, in.mounts_count, &mounts, &err);
    int rc_again = agent_mounts_from_list(in.mounts, in.mounts_count, &again, &err_again);
    s_check(rc == rc_again);
    if (rc != BUS_OK) {
        s_check(rc == BUS_STATUS_INVALID && *err.detail && !mounts);
        s_check(strcmp(err.detail, err_again.detail) == 0);
    } else {
        s_check(mounts && again && mounts->count == again->count);
        s_check(mounts->count <= AGENT_MOUNTS_MAX && mounts->count == in.mounts_count);
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
    proto_kernel_create_req_clear(&in);
    return 0;
}
