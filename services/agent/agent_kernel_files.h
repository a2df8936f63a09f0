/*  =========================================================================
    agent_kernel_files - the file methods of kernel.*: upload, download,
    download_single, list_files

    Serves Backend.AI's session file routes for the kernels this agent runs:
    files written into a kernel's /home/work (owned by the kernel's user,
    1000:1000), files or directories read back as tar archives, one file's
    bytes, and a directory listing as Backend.AI's /files answers it. The
    agent reaches /home/work from the host, through the kernel's merged
    overlay root (agent_kernels_home), not through the container: nothing
    runs inside the kernel, and a busy runner does not delay a download.
    That is safe because every lookup goes through agent_files, which
    confines it beneath home with openat2 (RESOLVE_BENEATH): a ".." or a
    symlink the container planted cannot lead the agent, which runs as
    root, anywhere else on the host.

    Known limit: a storage folder bind-mounted inside the container under
    /home/work is not visible in the host's view of the overlay root. A
    download or listing of such a path sees what lies below the mount (the
    overlay's own, usually empty, directory), and an upload there lands in
    the overlay below it, hidden from the container while the folder is
    mounted.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_KERNEL_FILES_H_INCLUDED
#define AGENT_KERNEL_FILES_H_INCLUDED

#include "bus.h"
#include "agent_kernels.h"

//  The largest file or archive one reply carries (the proto's data maximum);
//  a larger max_bytes asked for is lowered to it.
#define AGENT_KERNEL_FILES_MAX_BYTES 16777216

typedef struct _agent_kernel_files_t agent_kernel_files_t;

//  ---------------------------------------------------------------------------
//  The object that serves kernel.upload, kernel.download,
//  kernel.download_single and kernel.list_files for the kernels of kernels,
//  which is borrowed and must outlive it. Returns NULL with err filled.
agent_kernel_files_t *
agent_kernel_files_new(bus_node_t *node, agent_kernels_t *kernels, bus_error_t *err);

//  ---------------------------------------------------------------------------
//  Frees it. Idempotent; NULLs the caller's pointer.
void agent_kernel_files_destroy(agent_kernel_files_t **self_p);

//  ---------------------------------------------------------------------------
//  The methods' typed handlers, for the agent's table of methods (agent_server.c);
//  arg is the object.
proto_kernel_upload_fn agent_kernel_files_on_upload;
proto_kernel_download_fn agent_kernel_files_on_download;
proto_kernel_download_single_fn agent_kernel_files_on_download_single;
proto_kernel_list_files_fn agent_kernel_files_on_list_files;

#endif
