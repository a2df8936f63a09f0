/*  =========================================================================
    agent_kernel_files - the file methods of kernel.* on the agent's loop

    Each handler decodes its request, asks agent_kernels for the running
    kernel's home on the host (NOT_FOUND when there is none) and hands the
    client's paths to agent_files, whose statuses and details are answered
    as they are. Upload checks every path before it writes anything, so a
    request with one bad name writes nothing; a failure while writing (a
    symlink out of home, a full disk) stops at that file, and the files
    before it stay written, each one whole. The handlers run on the loop and
    block it for as long as the file system takes, at most the size limits
    of the proto (16 MiB a file or archive).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"

struct _agent_kernel_files_t {
    bus_node_t *node;
    agent_kernels_t *kernels;
};

//  A max_bytes from the wire, lowered to what a reply can carry.
static size_t
s_max_bytes(uint64_t max_bytes)
{
    return max_bytes > AGENT_KERNEL_FILES_MAX_BYTES ? AGENT_KERNEL_FILES_MAX_BYTES
                                                    : (size_t) max_bytes;
}

//  ---------------------------------------------------------------------------
//  kernel.upload
int
agent_kernel_files_on_upload(void *arg,
                             const proto_kernel_upload_req_t *in,
                             proto_kernel_upload_rep_t *out,
                             bus_rpc_request_t *req,
                             bus_error_t *err)
{
    (void) out, (void) req;
    agent_kernel_files_t *self = arg;
    char home[PATH_MAX];
    char name[PATH_MAX];
    int rc = agent_kernels_home(self->kernels, in->kernel_id, home, sizeof home, err);
    //  Every name first: one bad path refuses the whole request.
    for (size_t i = 0; rc == BUS_OK && i < in->files_count; i++) {
        if (agent_files_normalize(in->files[i].path, name, err) != 0)
            rc = err->status;
        else if (!*name)
            rc = bus_error_set(err, BUS_STATUS_INVALID, "no file name in path");
    }
    for (size_t i = 0; rc == BUS_OK && i < in->files_count; i++) {
        const proto_kernel_file_t *file = &in->files[i];
        if (agent_files_write(home, file->path, file->data, file->data_size,
                              AGENT_KERNEL_UID, AGENT_KERNEL_GID, err) != 0)
            rc = err->status;
    }
    if (rc == BUS_OK)
        bus_log_info("kernel files uploaded kernel=%s count=%zu", in->kernel_id,
                     in->files_count);
    return rc;
}

//  ---------------------------------------------------------------------------
//  kernel.download
int
agent_kernel_files_on_download(void *arg,
                               const proto_kernel_download_req_t *in,
                               proto_kernel_download_rep_t *out,
                               bus_rpc_request_t *req,
                               bus_error_t *err)
{
    (void) req;
    agent_kernel_files_t *self = arg;
    char home[PATH_MAX];
    int rc = agent_kernels_home(self->kernels, in->kernel_id, home, sizeof home, err);
    //  The list and every archive go into out's arena; in's paths are borrowed.
    proto_kernel_file_t *files = NULL;
    if (rc == BUS_OK && in->paths_count > 0) {
        files = proto_arena_alloc(&out->owned_, in->paths_count * sizeof *files);
        out->files = files;
        if (!files)
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    size_t max = s_max_bytes(in->max_bytes);
    for (size_t i = 0; rc == BUS_OK && i < in->paths_count; i++) {
        proto_kernel_file_t *file = &files[out->files_count++];
        proto_kernel_file_init(file);
        file->path = in->paths[i];
        uint8_t *data = NULL;
        if (agent_files_tar(home, in->paths[i], max, &data, &file->data_size, err) != 0)
            rc = err->status;
        else if (proto_arena_adopt(&out->owned_, data) != 0) {
            free(data);
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        } else
            file->data = data;
    }
    return rc;
}

//  ---------------------------------------------------------------------------
//  kernel.download_single
int
agent_kernel_files_on_download_single(void *arg,
                                      const proto_kernel_download_single_req_t *in,
                                      proto_kernel_download_single_rep_t *out,
                                      bus_rpc_request_t *req,
                                      bus_error_t *err)
{
    (void) req;
    agent_kernel_files_t *self = arg;
    char home[PATH_MAX];
    int rc = agent_kernels_home(self->kernels, in->kernel_id, home, sizeof home, err);
    uint8_t *data = NULL;
    if (rc == BUS_OK && agent_files_read(home, in->path, s_max_bytes(in->max_bytes),
                                         &data, &out->data_size, err) != 0)
        rc = err->status;
    out->data = data;
    if (proto_arena_adopt(&out->owned_, data) != 0) {
        free(data);
        out->data = NULL;
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    return rc;
}

//  ---------------------------------------------------------------------------
//  kernel.list_files
int
agent_kernel_files_on_list_files(void *arg,
                                 const proto_kernel_list_files_req_t *in,
                                 proto_kernel_list_files_rep_t *out,
                                 bus_rpc_request_t *req,
                                 bus_error_t *err)
{
    (void) req;
    agent_kernel_files_t *self = arg;
    const char *path = in->path && *in->path ? in->path : ".";
    char home[PATH_MAX];
    char name[PATH_MAX];
    int rc = agent_kernels_home(self->kernels, in->kernel_id, home, sizeof home, err);
    if (rc == BUS_OK && agent_files_normalize(path, name, err) != 0)
        rc = err->status;
    char *files = NULL;
    if (rc == BUS_OK && agent_files_list(home, path, &files, err) != 0)
        rc = err->status;
    if (rc != BUS_OK)
        return rc;
    char abspath[PATH_MAX + sizeof AGENT_FILES_HOME];
    snprintf(abspath, sizeof abspath, "%s%s%s", AGENT_FILES_HOME, *name ? "/" : "", name);
    out->abspath = proto_arena_strdup(&out->owned_, abspath);
    if (!out->abspath || proto_arena_adopt(&out->owned_, files) != 0) {
        free(files);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    out->files = files;
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  The file methods' object.

agent_kernel_files_t *
agent_kernel_files_new(bus_node_t *node, agent_kernels_t *kernels, bus_error_t *err)
{
    assert(node);
    assert(kernels);
    agent_kernel_files_t *self = calloc(1, sizeof *self);
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->node = node;
    self->kernels = kernels;
    return self;
}

//  ---------------------------------------------------------------------------
//  Free it.

void
agent_kernel_files_destroy(agent_kernel_files_t **self_p)
{
    assert(self_p);
    agent_kernel_files_t *self = *self_p;
    if (!self)
        return;
    *self_p = NULL;
    free(self);
}
