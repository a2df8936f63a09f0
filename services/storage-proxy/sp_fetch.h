/*  =========================================================================
    sp_fetch - downloads into folders (storage.files.fetch), off the loop

    Import & Run: a notebook's or a repository archive's URL is fetched by
    the storage-proxy straight into a folder. Each fetch is a job
    (sp_jobs): its thread resolves the host, connects, speaks HTTP/1.1
    (TLS through OpenSSL for https, the certificate checked against the
    system's authorities or fetch.ca_file and the host name) and streams
    the body into a staging file beside the folder (sp_fs_stage_open:
    never inside it, where a container would see a partial file), which is
    renamed onto the path asked only once complete. With unzip, the
    archive is read by sp_zip, every entry checked before any is made,
    and each file extracted into a staging file and renamed into place
    through sp_fs, as an upload is: nothing is reached outside the folder
    whatever the archive or the folder holds; a failure removes what was
    made.

    Limits (config/storage-proxy.yaml, fetch.*): the bytes of one download
    (and never more than the folder's quota leaves), the time of the
    whole fetch redirects included, the redirects followed (each new URL
    parsed and checked again), the entries and unpacked bytes of an
    archive. Hosts that resolve to loopback, private, link-local,
    multicast or reserved addresses are refused unless
    fetch.allow_private: otherwise anyone allowed to write a folder could
    make the storage-proxy reach the services beside it. The address
    checked is the one connected to (no second lookup).

    The loop keeps the jobs (running, and finished for fetch.keep_s);
    storage.files.fetch_status reads their progress, which the thread
    publishes in atomic counters, the one thing both sides touch while the
    job runs (like sp_jobs' stopping flag).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SP_FETCH_H_INCLUDED
#define SP_FETCH_H_INCLUDED

#include "bus.h"
#include "sp_config.h"
#include "sp_folders.h"

#define SP_FETCH_JOB_LEN     32  //  hex digits of a job id
#define SP_FETCH_RUNNING_MAX 8   //  fetches at once; more are UNAVAILABLE
#define SP_FETCH_JOBS_MAX    256 //  kept, running and finished
#define SP_FETCH_POLL_MS     500 //  how often a blocked thread looks at the time
#define SP_FETCH_BUFFER      (64 << 10)
#define SP_FETCH_AGENT       "backplane-storage-proxy"

typedef struct _sp_fetch_t sp_fetch_t;

//  Where a fetch stands; the strings are borrowed from the registry and
//  valid until its next call.
typedef struct {
    const char *state; //  connecting, downloading, unpacking, done, failed
    uint64_t bytes;
    uint64_t total;
    uint64_t entries;
    uint64_t entries_total;
    uint64_t skipped;
    int status;         //  failed: the bus status
    const char *detail; //  failed: why; done: what was made
    const char *url;    //  where the bytes came from (after redirects)
} sp_fetch_status_t;

//  ---------------------------------------------------------------------------
//  The fetch registry of node's loop, writing into folders (borrowed; it
//  outlives the registry), with config's fetch.* limits (copied). Caller
//  owns return value, or NULL with err.
sp_fetch_t *sp_fetch_new(bus_node_t *node,
                         sp_folders_t *folders,
                         const sp_config_t *config,
                         bus_error_t *err);

//  Stops the running fetches (their threads give up within
//  SP_FETCH_POLL_MS, their staging files removed) and forgets every job.
//  Idempotent, NULLs the pointer.
void sp_fetch_destroy(sp_fetch_t **self_p);

//  ---------------------------------------------------------------------------
//  Starts fetching url into path of folder id (volume checked when given);
//  with unzip path becomes a directory of the archive's entries, less
//  their one top directory with strip_top; with git url is a repository
//  cloned over smart HTTP and path a directory of ref's tree (ref NULL or
//  "": the remote HEAD). Writes the job's id into job.
//  BUS_OK, or a status with err: INVALID (URL, path), NOT_FOUND (folder),
//  CONFLICT (path exists, folder not ready), FORBIDDEN (over quota),
//  UNAVAILABLE (too many fetches).
int sp_fetch_start(sp_fetch_t *self,
                   const char *id,
                   const char *volume,
                   const char *url,
                   const char *path,
                   bool unzip,
                   bool strip_top,
                   bool git,
                   const char *ref,
                   char job[SP_FETCH_JOB_LEN + 1],
                   bus_error_t *err);

//  Where job stands into *out. BUS_OK, or NOT_FOUND (unknown or forgotten).
int sp_fetch_status(sp_fetch_t *self,
                    const char *job,
                    sp_fetch_status_t *out,
                    bus_error_t *err);

//  Whether an address (a sockaddr of family AF_INET or AF_INET6) is one
//  fetch.allow_private must allow: loopback, private, link-local, shared,
//  multicast, reserved or unspecified. Exposed for the unit test.
bool sp_fetch_addr_private(const void *sockaddr);

#endif
