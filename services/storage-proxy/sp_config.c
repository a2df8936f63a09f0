/*  =========================================================================
    sp_config - the option table of the storage-proxy

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"

const bus_config_option_t sp_config_options[] = {
    BUS_NODE_CONFIG_ROWS(sp_config_t, node, "false", BUS_NODE_HTTP_STORAGE_PROXY),
    {"storage.proxy_name", BUS_CFG_STRING, offsetof(sp_config_t, proxy_name), "local", 0,
     63, NULL,
     "this storage-proxy's name, the first half of folder hosts (<proxy>:<volume>), "
     "unique among storage-proxies; empty = node.name"},
    {"storage.volumes", BUS_CFG_STRING, offsetof(sp_config_t, volumes),
     SP_CONFIG_VOLUMES_DEFAULT, 1, 65535, NULL,
     "volumes as NAME=local:PATH[,NAME=local:PATH...]: PATH absolute (must exist) or "
     "relative to node.state_dir (created); the first is the default"},
    {"storage.owner_uid", BUS_CFG_INT, offsetof(sp_config_t, owner_uid),
     SP_CONFIG_OWNER_DEFAULT, SP_CONFIG_OWNER_KEEP, SP_CONFIG_OWNER_MAX, NULL,
     "owner of what the storage-proxy makes in folders (folder roots, directories, "
     "uploaded files, clones): the user containers run as; -1 = as created, as "
     "everything is when the storage-proxy is not root"},
    {"storage.owner_gid", BUS_CFG_INT, offsetof(sp_config_t, owner_gid),
     SP_CONFIG_OWNER_DEFAULT, SP_CONFIG_OWNER_KEEP, SP_CONFIG_OWNER_MAX, NULL,
     "group of what the storage-proxy makes in folders; -1 = as created"},
    {"storage.scan_ms", BUS_CFG_INT, offsetof(sp_config_t, scan_ms),
     SP_CONFIG_SCAN_MS_DEFAULT, 100, 86400000, NULL,
     "how often every folder's usage is scanned; folders found over quota refuse "
     "uploads until they shrink"},
    {"storage.staging_ttl_s", BUS_CFG_INT, offsetof(sp_config_t, staging_ttl_s),
     SP_CONFIG_STAGING_TTL_DEFAULT, SP_CONFIG_STAGING_TTL_MIN, SP_CONFIG_STAGING_TTL_MAX,
     NULL,
     "seconds an unfinished upload's staging file may go unwritten before the usage "
     "scan removes it (freeing its bytes; the client must start that upload again)"},
    {"http.listen", BUS_CFG_STRING, offsetof(sp_config_t, http_listen),
     SP_CONFIG_HTTP_LISTEN, 0, 255, NULL,
     "host:port of the client-facing /upload and /download (port 0 = any free port); "
     "empty = off"},
    {"http.advertise", BUS_CFG_STRING, offsetof(sp_config_t, http_advertise), "", 0, 255,
     NULL,
     "the URL clients are sent to for uploads and downloads "
     "(http://host:port, or https:// with http.tls_cert); empty = as bound"},
    {"http.tls_cert", BUS_CFG_STRING, offsetof(sp_config_t, http_tls_cert), "", 0, 4095,
     NULL,
     "PEM certificate chain: /upload and /download served over HTTPS (TLS 1.2 or "
     "later) and advertised as https://, for clients on other hosts; empty = plain "
     "HTTP"},
    {"http.tls_key", BUS_CFG_STRING, offsetof(sp_config_t, http_tls_key), "", 0, 4095,
     NULL, "PEM private key of http.tls_cert"},
    {"http.token_secret_file", BUS_CFG_STRING, offsetof(sp_config_t, token_secret_file),
     "", 0, 4095, NULL,
     "file holding the secret shared with the gateway that signs upload and download "
     "tokens (umask 077; head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \\n' > FILE); "
     "empty = tokens refused"},
    {"http.max_chunk_bytes", BUS_CFG_BYTES, offsetof(sp_config_t, max_chunk_bytes),
     SP_CONFIG_CHUNK_DEFAULT, SP_CONFIG_CHUNK_MIN, SP_CONFIG_CHUNK_MAX, NULL,
     "largest upload chunk (request body) taken; the official client sends 16 MiB"},
    {"fetch.max_bytes", BUS_CFG_BYTES, offsetof(sp_config_t, fetch_max_bytes),
     SP_CONFIG_FETCH_MAX_BYTES, 1024, 1LL << 40, NULL,
     "largest download of storage.files.fetch (Import & Run); a folder's quota may "
     "allow less"},
    {"fetch.timeout_s", BUS_CFG_INT, offsetof(sp_config_t, fetch_timeout_s),
     SP_CONFIG_FETCH_TIMEOUT_S, 1, 86400, NULL,
     "longest a fetch may take, connecting, redirects and unpacking included"},
    {"fetch.max_redirects", BUS_CFG_INT, offsetof(sp_config_t, fetch_max_redirects),
     SP_CONFIG_FETCH_REDIRECTS, 0, 20, NULL,
     "redirects a fetch follows, each new URL checked again"},
    {"fetch.zip_max_entries", BUS_CFG_INT, offsetof(sp_config_t, fetch_zip_max_entries),
     SP_CONFIG_FETCH_ZIP_ENTRIES, 1, SP_ZIP_ENTRIES_MAX, NULL,
     "most entries of an archive a fetch unpacks"},
    {"fetch.zip_max_bytes", BUS_CFG_BYTES, offsetof(sp_config_t, fetch_zip_max_bytes),
     SP_CONFIG_FETCH_ZIP_BYTES, 1024, 1LL << 42, NULL,
     "most bytes an archive's entries may hold once unpacked"},
    {"fetch.allow_private", BUS_CFG_BOOL, offsetof(sp_config_t, fetch_allow_private),
     "false", 0, 0, NULL,
     "fetch from hosts on loopback, private, link-local or reserved addresses (a "
     "LAN's own Git server); false keeps the storage-proxy from being a way into the "
     "services beside it"},
    {"fetch.ca_file", BUS_CFG_STRING, offsetof(sp_config_t, fetch_ca_file), "", 0, 4095,
     NULL, "PEM file of the authorities https fetches trust; empty = the system's"},
    {"fetch.keep_s", BUS_CFG_INT, offsetof(sp_config_t, fetch_keep_s),
     SP_CONFIG_FETCH_KEEP_S, 10, 86400, NULL,
     "seconds a finished fetch's outcome is kept for storage.files.fetch_status"},
    BUS_CONFIG_END,
};
