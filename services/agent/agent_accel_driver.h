/*  =========================================================================
    agent_accel_driver - the NVIDIA driver's user space, for GPU containers

    A container's CUDA program needs the host driver's own libraries
    (libcuda.so.1 must match the kernel module exactly, so no image can
    bring it), and nvidia-smi and the MPS client need their binaries. As the
    NVIDIA container toolkit does, the agent finds these files on the host
    once, at start, and binds them read-only into every kernel that holds
    GPU slots, and only into those:

    - libraries under AGENT_ACCEL_DRIVER_LIB in the container, each under
      its soname, its versioned file name and, for those programs dlopen
      by a bare name, libX.so (a bind of the file itself under each name:
      no symlink to write into the image, no ldconfig to run in it);
    - binaries under AGENT_ACCEL_DRIVER_BIN;
    - LD_LIBRARY_PATH and PATH extended to find them, and
      NVIDIA_DRIVER_CAPABILITIES=compute,utility (what is mounted: the
      capabilities Backend.AI's CUDA plugin exposes).

    Where the files are: the library directories the host's dynamic linker
    searches (those ld.so.conf lists, its includes followed, then the
    system's defaults and /usr/local/nvidia/lib64), all under root ("/" on
    a host; a fake driver tree in tests). The driver's version (from NVML,
    else the suffix of the file libcuda.so.1 names) picks
    lib<name>.so.<version>, so that a stale copy of another version (CUDA's
    forward-compatibility libcuda, an old install) is never mounted; a
    library of the version that is missing is left out with a notice,
    except libcuda and libnvidia-ml, without which the driver is unusable
    (then nothing is mounted and one warning says why).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_ACCEL_DRIVER_H_INCLUDED
#define AGENT_ACCEL_DRIVER_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>

//  Where the files go in the container (NVIDIA's CUDA images look there).
#define AGENT_ACCEL_DRIVER_LIB         "/usr/local/nvidia/lib64"
#define AGENT_ACCEL_DRIVER_BIN         "/usr/local/nvidia/bin"
#define AGENT_ACCEL_DRIVER_VERSION_MAX 64 //  "580.159.04", with its NUL

//  One file to bind read-only: host_path (absolute, root included) at
//  kernel_path.
typedef struct {
    char *host_path;
    char *kernel_path;
} agent_accel_driver_file_t;

typedef struct _agent_accel_driver_t agent_accel_driver_t;

//  Finds the driver's files under root (NULL: "/") for version (NULL or "":
//  from libcuda.so.1's file name). Never NULL but when out of memory; a
//  driver that was not found has no files (agent_accel_driver_found).
//  Logs what it found, once. Caller owns return value.
agent_accel_driver_t *agent_accel_driver_new(const char *root, const char *version);

void agent_accel_driver_destroy(agent_accel_driver_t **self_p);

//  True when the driver was found: its files go into GPU containers.
bool agent_accel_driver_found(const agent_accel_driver_t *self);

//  The driver's version ("" when not found). Borrowed.
const char *agent_accel_driver_version(const agent_accel_driver_t *self);

//  The files to bind, in a stable order (libraries, then binaries).
size_t agent_accel_driver_count(const agent_accel_driver_t *self);
const agent_accel_driver_file_t *agent_accel_driver_file(const agent_accel_driver_t *self,
                                                         size_t i);

//  The host path of one of the driver's binaries (by base name, e.g.
//  "nvidia-cuda-mps-control"), NULL when it was not found. Borrowed.
const char *agent_accel_driver_binary(const agent_accel_driver_t *self, const char *name);

//  The container's variables for the files: LD_LIBRARY_PATH with
//  AGENT_ACCEL_DRIVER_LIB before library_path (the value the container would
//  have otherwise, NULL: none), PATH with AGENT_ACCEL_DRIVER_BIN after path
//  (NULL: AGENT_KERNEL_PATH_ENV's), NVIDIA_DRIVER_CAPABILITIES. "KEY=value",
//  NULL-terminated; NULL when out of memory or when the driver was not
//  found. Caller owns return value (agent_accel_strv_destroy).
char **agent_accel_driver_environ(const agent_accel_driver_t *self,
                                  const char *path,
                                  const char *library_path);

#endif
