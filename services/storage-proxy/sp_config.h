/*  =========================================================================
    sp_config - the storage-proxy's options: config/storage-proxy.yaml

    Volumes are one option, storage.volumes: comma-separated entries
    NAME=BACKEND:PATH (the config file holds scalars only). NAME is the
    volume's name (letters, digits, '.', '_', '-'), BACKEND is "local" (a
    directory on this host), PATH its directory: absolute, or relative to
    node.state_dir. A relative one is created at start; an absolute one must
    exist (an operator's mount point, which a missing mount must not turn
    into a directory on the root file system). The first volume is the
    default. Folder hosts are "<storage.proxy_name>:<NAME>".

    The token secret (http.token_secret_file) is shared with the gateway,
    which signs the upload and download tokens this service checks. It is
    the file's content less trailing white space, at least 16 bytes; make
    one with
        umask 077; head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' \
            > /etc/backplane/storage.secret
    and point both services at it. Without one, /upload and /download
    refuse every token (503).

    Everything the storage-proxy makes in a folder (the folder's root, the
    directories of storage.files.mkdir and of uploads, uploaded files,
    clones) is given to storage.owner_uid:storage.owner_gid, the user
    containers run as (1000:1000), so a kernel that mounts the folder can
    write there; -1 leaves that id as created (the storage-proxy's own). A
    storage-proxy that does not run as root cannot give files away: it
    says so at start and leaves ownership as created.

    An upload a client never finishes leaves its staging file, which
    counts in the folder's usage; the usage scan removes one nobody wrote
    for storage.staging_ttl_s seconds (never one an upload is writing). A
    client that comes back later starts that upload again from byte 0.

    storage.files.fetch (Import & Run) downloads http(s) URLs into
    folders: fetch.* bound its size, time, redirects and archives, and
    keep it off loopback and private addresses unless allowed (sp_fetch).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SP_CONFIG_H_INCLUDED
#define SP_CONFIG_H_INCLUDED

#include "bus.h"

//  Defaults and limits of the options.
#define SP_CONFIG_VOLUMES_DEFAULT "volume1=local:vfolders/volume1"
#define SP_CONFIG_SCAN_MS_DEFAULT "60000"
#define SP_CONFIG_HTTP_LISTEN     "127.0.0.1:6021" //  Backend.AI's client_api port
#define SP_CONFIG_CHUNK_DEFAULT   "64m"            //  the official client sends 16 MiB
#define SP_CONFIG_CHUNK_MIN       (1LL << 20)
#define SP_CONFIG_CHUNK_MAX       (1LL << 30)
#define SP_CONFIG_OWNER_DEFAULT   "1000" //  the containers' user and group
#define SP_CONFIG_OWNER_KEEP      (-1)   //  leave the id as created
#define SP_CONFIG_OWNER_MAX       2147483647

//  storage.staging_ttl_s: how long an upload's staging file may go unwritten.
#define SP_CONFIG_STAGING_TTL_DEFAULT "86400" //  a day
#define SP_CONFIG_STAGING_TTL_MIN     60
#define SP_CONFIG_STAGING_TTL_MAX     31536000 //  a year

//  fetch.*: storage.files.fetch (sp_fetch).
#define SP_CONFIG_FETCH_MAX_BYTES   "1g"
#define SP_CONFIG_FETCH_TIMEOUT_S   "600" //  10 minutes, redirects included
#define SP_CONFIG_FETCH_REDIRECTS   "5"
#define SP_CONFIG_FETCH_ZIP_ENTRIES "50000"
#define SP_CONFIG_FETCH_ZIP_BYTES   "4g"
#define SP_CONFIG_FETCH_KEEP_S      "600"

typedef struct {
    bus_node_config_t node;
    char *proxy_name;        //  first half of host names; "" = the node's name
    char *volumes;           //  NAME=BACKEND:PATH[,...]
    int owner_uid;           //  owner of what is made in folders; -1: as created
    int owner_gid;           //  its group; -1: as created
    int scan_ms;             //  period of the usage scan of every folder
    int staging_ttl_s;       //  a staging file unwritten this long is removed
    char *http_listen;       //  host:port of /upload and /download; "" = off
    char *http_advertise;    //  the URL clients are sent to; "" = as bound
    char *token_secret_file; //  the secret shared with the gateway; "" = none
    char *http_tls_cert;     //  PEM chain: /upload and /download over HTTPS; "" = HTTP
    char *http_tls_key;      //  its PEM private key
    int64_t max_chunk_bytes; //  largest request body (one upload chunk)
    int64_t fetch_max_bytes; //  largest download
    int fetch_timeout_s;     //  longest fetch, start to end
    int fetch_max_redirects; //  redirects followed
    int fetch_zip_max_entries;
    int64_t fetch_zip_max_bytes; //  an archive's unpacked bytes
    bool fetch_allow_private;    //  hosts on loopback, private, link-local addresses
    char *fetch_ca_file;         //  authorities for https; "" = the system's
    int fetch_keep_s;            //  a finished fetch's status is kept this long
} sp_config_t;

extern const bus_config_option_t sp_config_options[];

#endif
