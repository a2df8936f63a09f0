/*  =========================================================================
    storage_test - the storage-proxy alone, over its RPC methods and its HTTP
    endpoint: volumes with their host names, folders created, listed page by
    page, renamed, moved, deleted, cloned, their usage and quotas; a
    resumable upload interrupted half way and resumed ends byte-identical;
    a wrong offset is a 409; the chunk that would cross a quota is refused
    whole, and a folder a scan finds over quota refuses uploads until it
    shrinks; expired, forged and misdirected tokens and path traversal
    are refused; downloads with ranges. Tokens are signed here with the
    storage-proxy's own bus_token and a secret file, as the gateway will.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bus_token.h"
#include "bus.h"
#include "harness.h"
#include "t.h"

#define READY_MS    20000
#define CALL_MS     10000
#define WAIT_MS     10000
#define SECRET      "0123456789abcdef0123456789abcdef"
#define F1          "5e0d2c6a-8f1b-4d7e-9a3c-1b2c3d4e5f60" //  a UUID, as the gateway has it
#define F1_HEX      "5e0d2c6a8f1b4d7e9a3c1b2c3d4e5f60"
#define F2          "aa000000000000000000000000000002"
#define F3          "bb000000000000000000000000000003"
#define F4          "cc000000000000000000000000000004"
#define NOWHERE     "dd000000000000000000000000000005"
#define MIB         (1024 * 1024)
#define UPLOAD_SIZE (3 * MIB + 12345)
#define LIST_COUNT  2500

static char *s_dir;
static harness_proc_t s_sp;
static char s_rpc[160];
static int s_port;
static char s_url[200];
static bus_rpc_client_t *s_client;
static uint8_t *s_data; //  the bytes uploaded

//  ---------------------------------------------------------------------------
//  RPC

//  Calls method with the body in writer (consumed); the reply into
//  *reply_p when given. The status; the detail in err.
static int
s_call(const char *method, bus_writer_t *writer, zchunk_t **reply_p, bus_error_t *err)
{
    int rc =
        writer ? bus_rpc_client_call_sync(s_client, method, bus_writer_data(writer),
                                          bus_writer_size(writer), CALL_MS, reply_p, err)
               : BUS_STATUS_INTERNAL;
    bus_writer_destroy(&writer);
    return rc;
}

static bus_writer_t *
s_writer(void)
{
    return bus_writer_new();
}

static int
s_create(const char *volume, const char *id, uint64_t quota, proto_storage_folder_t *out)
{
    proto_storage_folder_create_req_t in;
    proto_storage_folder_create_req_init(&in);
    in.volume = volume;
    in.id = id;
    in.quota_bytes = quota;
    bus_writer_t *w = s_writer();
    if (proto_storage_folder_create_req_write(&in, w) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
    zchunk_t *reply = NULL;
    bus_error_t err = {0};
    int rc = s_call(PROTO_STORAGE_FOLDER_CREATE, w, &reply, &err);
    if (rc == BUS_OK && out) {
        proto_storage_folder_create_rep_t rep;
        rc = proto_storage_folder_create_rep_decode(&rep, zchunk_data(reply),
                                                    zchunk_size(reply), &err);
        if (rc == BUS_OK) {
            *out = rep.folder;
            memset(&rep.folder, 0, sizeof rep.folder);
            out->owned_ = rep.owned_; //  the strings are in rep's arena
            rep.owned_ = NULL;
        }
        proto_storage_folder_create_rep_clear(&rep);
    }
    zchunk_destroy(&reply);
    return rc;
}

//  storage.folder.usage (rescan or not) into out (caller clears it).
static int
s_usage(const char *id, bool rescan, proto_storage_folder_t *out)
{
    proto_storage_folder_usage_req_t in;
    proto_storage_folder_usage_req_init(&in);
    in.id = id;
    in.rescan = rescan;
    bus_writer_t *w = s_writer();
    if (proto_storage_folder_usage_req_write(&in, w) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
    zchunk_t *reply = NULL;
    bus_error_t err = {0};
    int rc = s_call(PROTO_STORAGE_FOLDER_USAGE, w, &reply, &err);
    proto_storage_folder_init(out);
    if (rc == BUS_OK) {
        proto_storage_folder_usage_rep_t rep;
        rc = proto_storage_folder_usage_rep_decode(&rep, zchunk_data(reply),
                                                   zchunk_size(reply), &err);
        if (rc == BUS_OK) {
            *out = rep.folder;
            memset(&rep.folder, 0, sizeof rep.folder);
            out->owned_ = rep.owned_; //  the strings are in rep's arena
            rep.owned_ = NULL;
        }
        proto_storage_folder_usage_rep_clear(&rep);
    }
    zchunk_destroy(&reply);
    return rc;
}

static int
s_quota(const char *id, uint64_t quota)
{
    proto_storage_folder_quota_req_t in;
    proto_storage_folder_quota_req_init(&in);
    in.id = id;
    in.quota_bytes = quota;
    bus_writer_t *w = s_writer();
    if (proto_storage_folder_quota_req_write(&in, w) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
    bus_error_t err = {0};
    return s_call(PROTO_STORAGE_FOLDER_QUOTA, w, NULL, &err);
}

//  storage.files.mkdir of one path: the call's status, then the path's.
static int
s_mkdir(const char *id, const char *path, bool parents, bool exist_ok, int *path_status)
{
    const char *paths[] = {path};
    proto_storage_files_mkdir_req_t in;
    proto_storage_files_mkdir_req_init(&in);
    in.id = id;
    in.paths = paths;
    in.paths_count = 1;
    in.parents = parents;
    in.exist_ok = exist_ok;
    bus_writer_t *w = s_writer();
    if (proto_storage_files_mkdir_req_write(&in, w) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
    zchunk_t *reply = NULL;
    bus_error_t err = {0};
    int rc = s_call(PROTO_STORAGE_FILES_MKDIR, w, &reply, &err);
    *path_status = -1;
    if (rc == BUS_OK) {
        proto_storage_files_mkdir_rep_t rep;
        if (proto_storage_files_mkdir_rep_decode(&rep, zchunk_data(reply),
                                                 zchunk_size(reply), &err) == BUS_OK &&
            rep.results_count == 1)
            *path_status = (int) rep.results[0].status;
        proto_storage_files_mkdir_rep_clear(&rep);
    }
    zchunk_destroy(&reply);
    return rc;
}

//  One page of storage.files.list into rep (caller clears it).
static int
s_list(const char *id,
       const char *path,
       const char *cursor,
       uint64_t limit,
       proto_storage_files_list_rep_t *rep,
       bus_error_t *err)
{
    proto_storage_files_list_req_t in;
    proto_storage_files_list_req_init(&in);
    in.id = id;
    in.path = path;
    in.cursor = cursor;
    in.limit = limit;
    bus_writer_t *w = s_writer();
    if (proto_storage_files_list_req_write(&in, w) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
    zchunk_t *reply = NULL;
    int rc = s_call(PROTO_STORAGE_FILES_LIST, w, &reply, err);
    proto_storage_files_list_rep_init(rep);
    if (rc == BUS_OK)
        rc = proto_storage_files_list_rep_decode(rep, zchunk_data(reply),
                                                 zchunk_size(reply), err);
    zchunk_destroy(&reply);
    return rc;
}

static int
s_rename(const char *id, const char *path, const char *new_name)
{
    proto_storage_files_rename_req_t in;
    proto_storage_files_rename_req_init(&in);
    in.id = id;
    in.path = path;
    in.new_name = new_name;
    bus_writer_t *w = s_writer();
    if (proto_storage_files_rename_req_write(&in, w) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
    bus_error_t err = {0};
    return s_call(PROTO_STORAGE_FILES_RENAME, w, NULL, &err);
}

static int
s_move(const char *id, const char *src, const char *dst)
{
    proto_storage_files_move_req_t in;
    proto_storage_files_move_req_init(&in);
    in.id = id;
    in.src = src;
    in.dst = dst;
    bus_writer_t *w = s_writer();
    if (proto_storage_files_move_req_write(&in, w) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
    bus_error_t err = {0};
    return s_call(PROTO_STORAGE_FILES_MOVE, w, NULL, &err);
}

static int
s_delete(const char *id, const char *path, bool recursive)
{
    const char *paths[] = {path};
    proto_storage_files_delete_req_t in;
    proto_storage_files_delete_req_init(&in);
    in.id = id;
    in.paths = paths;
    in.paths_count = 1;
    in.recursive = recursive;
    bus_writer_t *w = s_writer();
    if (proto_storage_files_delete_req_write(&in, w) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
    bus_error_t err = {0};
    return s_call(PROTO_STORAGE_FILES_DELETE, w, NULL, &err);
}

//  The host path of a folder (storage.folder.mount_path), into out.
static int
s_mount_path(const char *id, char *out, size_t size)
{
    proto_storage_folder_mount_path_req_t in;
    proto_storage_folder_mount_path_req_init(&in);
    in.id = id;
    bus_writer_t *w = s_writer();
    if (proto_storage_folder_mount_path_req_write(&in, w) != 0)
        return BUS_STATUS_INVALID; //  refused by the schema: the caller sees a failure
    zchunk_t *reply = NULL;
    bus_error_t err = {0};
    int rc = s_call(PROTO_STORAGE_FOLDER_MOUNT_PATH, w, &reply, &err);
    if (rc == BUS_OK) {
        proto_storage_folder_mount_path_rep_t rep;
        rc = proto_storage_folder_mount_path_rep_decode(&rep, zchunk_data(reply),
                                                        zchunk_size(reply), &err);
        if (rc == BUS_OK)
            snprintf(out, size, "%s", rep.path);
        proto_storage_folder_mount_path_rep_clear(&rep);
    }
    zchunk_destroy(&reply);
    return rc;
}

//  ---------------------------------------------------------------------------
//  Files on the host, hashes

static void
s_sha256(const void *data, size_t len, char hex[65])
{
    unsigned char md[32];
    unsigned int md_len = 0;
    EVP_Digest(data, len, md, &md_len, EVP_sha256(), NULL);
    for (unsigned i = 0; i < 32; i++)
        sprintf(hex + 2 * i, "%02x", md[i]);
}

//  Reads a whole host file; caller frees. NULL when missing.
static uint8_t *
s_slurp(const char *path, size_t *len_p)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = malloc(len > 0 ? (size_t) len : 1);
    size_t got = data ? fread(data, 1, (size_t) len, f) : 0;
    fclose(f);
    *len_p = got;
    return data;
}

static bool
s_write_host(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(data, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

static bool
s_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

//  ---------------------------------------------------------------------------
//  HTTP: a small client that sends exact bytes and can stop half way

typedef struct {
    int status;
    char headers[8192];
    uint8_t *body;
    size_t body_len;
} resp_t;

static void
s_resp_clear(resp_t *resp)
{
    free(resp->body);
    memset(resp, 0, sizeof *resp);
}

static int
s_connect(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET,
                               .sin_port = htons((uint16_t) s_port)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && connect(fd, (struct sockaddr *) &addr, sizeof addr) != 0) {
        close(fd);
        fd = -1;
    }
    struct timeval tv = {5, 0};
    if (fd >= 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    return fd;
}

static bool
s_send_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n <= 0)
            return false;
        p += n;
        len -= (size_t) n;
    }
    return true;
}

//  The value of a response header (case-insensitive name), into out.
static bool
s_header(const resp_t *resp, const char *name, char *out, size_t size)
{
    size_t n = strlen(name);
    for (const char *line = strstr(resp->headers, "\r\n"); line;
         line = strstr(line, "\r\n")) {
        line += 2;
        if (strncasecmp(line, name, n) == 0 && line[n] == ':') {
            const char *v = line + n + 1;
            while (*v == ' ')
                v++;
            size_t len = strcspn(v, "\r\n");
            if (len >= size)
                len = size - 1;
            memcpy(out, v, len);
            out[len] = '\0';
            return true;
        }
    }
    return false;
}

static uint64_t
s_header_u64(const resp_t *resp, const char *name)
{
    char value[64];
    return s_header(resp, name, value, sizeof value) ? strtoull(value, NULL, 10)
                                                     : UINT64_MAX;
}

//  Sends one request; with send_len < len only that much of the body goes
//  out and the connection is closed (an interrupted upload; status 0).
//  extra: "Name: value\r\n" lines. Returns the status, or -1.
static int
s_http(const char *method,
       const char *target,
       const char *extra,
       const void *body,
       size_t len,
       size_t send_len,
       resp_t *resp)
{
    memset(resp, 0, sizeof *resp);
    int fd = s_connect();
    if (fd < 0)
        return -1;
    char head[16384];
    int n = snprintf(head, sizeof head,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n%s"
                     "%s\r\n",
                     method, target, s_port, extra ? extra : "", "");
    if (body || strcmp(method, "PATCH") == 0 || strcmp(method, "POST") == 0)
        n = snprintf(head, sizeof head,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n%s"
                     "Content-Length: %zu\r\n\r\n",
                     method, target, s_port, extra ? extra : "", len);
    bool ok = n > 0 && (size_t) n < sizeof head && s_send_all(fd, head, (size_t) n) &&
              (send_len == 0 || s_send_all(fd, body, send_len));
    if (!ok || send_len < len) {
        close(fd);
        return ok ? 0 : -1;
    }
    //  Read everything until the server closes (Connection: close).
    size_t cap = 65536, used = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (used == cap) {
            char *grown = realloc(buf, cap * 2);
            if (!grown)
                break;
            buf = grown;
            cap *= 2;
        }
        ssize_t got = recv(fd, buf + used, cap - used, 0);
        if (got <= 0)
            break;
        used += (size_t) got;
    }
    close(fd);
    if (!buf)
        return -1;
    char *end = memmem(buf, used, "\r\n\r\n", 4);
    if (!end || sscanf(buf, "HTTP/1.1 %d", &resp->status) != 1) {
        free(buf);
        return -1;
    }
    size_t head_len = (size_t) (end - buf) + 2;
    if (head_len >= sizeof resp->headers)
        head_len = sizeof resp->headers - 1;
    memcpy(resp->headers, buf, head_len);
    resp->headers[head_len] = '\0';
    size_t body_at = (size_t) (end - buf) + 4;
    resp->body_len = used - body_at;
    resp->body = malloc(resp->body_len + 1);
    if (resp->body) {
        memcpy(resp->body, buf + body_at, resp->body_len);
        resp->body[resp->body_len] = '\0';
    }
    free(buf);
    return resp->status;
}

//  A token for op on folder id and path, valid for ttl seconds (negative:
//  expired), signed with secret. Caller frees.
static char *
s_token_with(const char *secret,
             bus_token_op_t op,
             const char *volume,
             const char *id,
             const char *path,
             uint64_t size,
             int ttl,
             const char *nonce)
{
    bus_token_claims_t claims;
    memset(&claims, 0, sizeof claims);
    claims.op = op;
    snprintf(claims.volume, sizeof claims.volume, "%s", volume);
    snprintf(claims.folder, sizeof claims.folder, "%s", id);
    snprintf(claims.path, sizeof claims.path, "%s", path);
    snprintf(claims.nonce, sizeof claims.nonce, "%s", nonce ? nonce : "");
    claims.size = size;
    claims.expires = (int64_t) time(NULL) + ttl;
    return bus_token_sign(secret, strlen(secret), &claims, NULL);
}

static char *
s_token(bus_token_op_t op, const char *id, const char *path, uint64_t size)
{
    return s_token_with(SECRET, op, "vol1", id, path, size, 300, NULL);
}

static void
s_target(char *out, size_t size, const char *what, const char *token)
{
    if (snprintf(out, size, "/%s?token=%s", what, token) >= (int) size)
        out[0] = '\0';
}

//  PATCHes len bytes of data at offset with token.
static int
s_patch(const char *token, uint64_t offset, const void *data, size_t len, resp_t *resp)
{
    char target[9000], extra[256];
    s_target(target, sizeof target, "upload", token);
    snprintf(extra, sizeof extra,
             "Tus-Resumable: 1.0.0\r\nUpload-Offset: %" PRIu64
             "\r\nContent-Type: application/offset+octet-stream\r\n",
             offset);
    return s_http("PATCH", target, extra, data, len, len, resp);
}

static uint64_t
s_head_offset(const char *token, int *status)
{
    char target[9000];
    s_target(target, sizeof target, "upload", token);
    resp_t resp;
    *status = s_http("HEAD", target, "Tus-Resumable: 1.0.0\r\n", NULL, 0, 0, &resp);
    uint64_t offset = s_header_u64(&resp, "Upload-Offset");
    s_resp_clear(&resp);
    return offset;
}

static const char *
s_problem_type(const resp_t *resp)
{
    static char type[256];
    type[0] = '\0';
    const char *p = resp->body ? strstr((const char *) resp->body, "\"type\":\"") : NULL;
    if (p)
        snprintf(type, sizeof type, "%.*s", (int) strcspn(p + 8, "\""), p + 8);
    return type;
}

//  ---------------------------------------------------------------------------
//  Tests

static bool s_sp_start(const char *const *extra);

static void
test_start(void)
{
    s_dir = harness_tmpdir("storage");
    T_ASSERT(s_dir);
    char path[600], secret_file[600];
    snprintf(path, sizeof path, "%s/vol1", s_dir);
    T_ASSERT(mkdir(path, 0755) == 0);
    snprintf(path, sizeof path, "%s/vol2", s_dir);
    T_ASSERT(mkdir(path, 0755) == 0);
    snprintf(secret_file, sizeof secret_file, "%s/storage.secret", s_dir);
    T_ASSERT(s_write_host(secret_file, SECRET "\n", strlen(SECRET) + 1));
    chmod(secret_file, 0600);
    T_ASSERT(s_sp_start(NULL));
    s_data = malloc(UPLOAD_SIZE);
    T_ASSERT(s_data);
    uint64_t x = 88172645463325252ull; //  xorshift: bytes with no pattern
    for (size_t i = 0; i < UPLOAD_SIZE; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        s_data[i] = (uint8_t) x;
    }
}

//  Starts the storage-proxy on the test's volumes and state with the
//  options extra adds ("--set", "k=v" pairs, NULL-ended), and connects to
//  its RPC; s_url is what it advertises.
static bool
s_sp_start(const char *const *extra)
{
    char state[600], volumes[1400], secret_opt[700], secret_file[600];
    snprintf(secret_file, sizeof secret_file, "%s/storage.secret", s_dir);
    snprintf(state, sizeof state, "node.state_dir=%s/sp", s_dir);
    snprintf(volumes, sizeof volumes,
             "storage.volumes=vol1=local:%s/vol1, vol2=local:%s/vol2", s_dir, s_dir);
    snprintf(secret_opt, sizeof secret_opt, "http.token_secret_file=%s", secret_file);
    const char *args[] = {"--set", state,
                          "--set", volumes,
                          "--set", secret_opt,
                          "--set", "storage.proxy_name=local",
                          "--set", "storage.scan_ms=200",
                          "--set", "http.listen=127.0.0.1:0",
                          "--set", "http.max_chunk_bytes=4m",
                          "--set", "bus.hub.host=true",
                          "--set", "bus.hub.publish=tcp://127.0.0.1:*",
                          "--set", "bus.hub.subscribe=tcp://127.0.0.1:*",
                          "--set", "bus.hub.registry=tcp://127.0.0.1:*",
                          "--set", "log.level=info",
                          NULL};
    const char *all[64];
    size_t n = 0;
    for (size_t i = 0; args[i]; i++)
        all[n++] = args[i];
    for (size_t i = 0; extra && extra[i] && n < 63; i++)
        all[n++] = extra[i];
    all[n] = NULL;
    char line[HARNESS_LINE_MAX];
    if (harness_start(&s_sp, s_dir, "storage-proxy", "storage-proxy", all) != 0 ||
        !harness_wait_line(&s_sp, "ready ", READY_MS, line, sizeof line) ||
        !harness_field(line, "url", s_url, sizeof s_url) ||
        !harness_field(line, "rpc", s_rpc, sizeof s_rpc))
        return false;
    const char *colon = strrchr(s_url, ':');
    s_port = colon ? atoi(colon + 1) : 0;
    s_client = bus_rpc_client_new(s_rpc, "test/storage", NULL);
    return s_port > 0 && s_client;
}

static void
test_volumes(void)
{
    bus_writer_t *w = s_writer();
    proto_storage_volumes_req_t in;
    proto_storage_volumes_req_init(&in);
    T_EQ_INT(proto_storage_volumes_req_write(&in, w), 0);
    zchunk_t *reply = NULL;
    bus_error_t err = {0};
    T_EQ_INT(s_call(PROTO_STORAGE_VOLUMES, w, &reply, &err), BUS_OK);
    proto_storage_volumes_rep_t rep;
    T_EQ_INT(proto_storage_volumes_rep_decode(&rep, zchunk_data(reply),
                                              zchunk_size(reply), &err),
             BUS_OK);
    zchunk_destroy(&reply);
    T_EQ_STR(rep.proxy, "local");
    T_EQ_STR(rep.url, s_url);
    T_EQ_INT(rep.volumes_count, 2);
    T_EQ_STR(rep.volumes[0].name, "vol1");
    T_EQ_STR(rep.volumes[0].host, "local:vol1");
    T_EQ_STR(rep.volumes[1].host, "local:vol2");
    T_EQ_STR(rep.volumes[0].backend, "local");
    T_ASSERT(rep.volumes[0].capacity_bytes > 0);
    T_ASSERT(rep.volumes[0].capabilities_count == 2);
    proto_storage_volumes_rep_clear(&rep);
    //  The HTTP side answers its status document.
    resp_t resp;
    T_EQ_INT(s_http("GET", "/", NULL, NULL, 0, 0, &resp), 200);
    T_CONTAINS((const char *) resp.body, "\"client-facing\"");
    s_resp_clear(&resp);
    T_EQ_INT(s_http("GET", "/nowhere", NULL, NULL, 0, 0, &resp), 404);
    T_CONTAINS(s_problem_type(&resp), "/probs/url-not-found");
    s_resp_clear(&resp);
}

static void
test_folders(void)
{
    proto_storage_folder_t folder;
    T_EQ_INT(s_create("vol1", F1, 0, &folder), BUS_OK);
    T_EQ_STR(folder.id, F1_HEX);
    T_EQ_STR(folder.host, "local:vol1");
    T_EQ_STR(folder.state, "ready");
    proto_storage_folder_clear(&folder);
    T_EQ_INT(s_create("vol1", F1_HEX, 0, NULL), BUS_STATUS_CONFLICT);
    T_EQ_INT(s_create("vol1", "not-a-uuid", 0, NULL), BUS_STATUS_INVALID);
    T_EQ_INT(s_create("vol1", "../../etc", 0, NULL), BUS_STATUS_INVALID);
    T_EQ_INT(s_create("nowhere", NOWHERE, 0, NULL), BUS_STATUS_NOT_FOUND);
    T_EQ_INT(s_create("vol1", F4, 0, NULL), BUS_OK);
    char path[600], expected[700];
    T_EQ_INT(s_mount_path(F1, path, sizeof path), BUS_OK);
    snprintf(expected, sizeof expected, "%s/vol1/5e/" F1_HEX, s_dir);
    T_EQ_STR(path, expected);
    struct stat st;
    T_ASSERT(stat(path, &st) == 0 && S_ISDIR(st.st_mode));
    T_EQ_INT(s_mount_path(NOWHERE, path, sizeof path), BUS_STATUS_NOT_FOUND);
}

static void
test_files(void)
{
    int status;
    T_EQ_INT(s_mkdir(F1, "docs", false, false, &status), BUS_OK);
    T_EQ_INT(status, 0);
    T_EQ_INT(s_mkdir(F1, "docs", false, false, &status), BUS_OK);
    T_EQ_INT(status, BUS_STATUS_CONFLICT);
    T_EQ_INT(s_mkdir(F1, "docs", false, true, &status), BUS_OK);
    T_EQ_INT(status, 0);
    T_EQ_INT(s_mkdir(F1, "a/b/c", false, false, &status), BUS_OK);
    T_EQ_INT(status, BUS_STATUS_NOT_FOUND);
    T_EQ_INT(s_mkdir(F1, "a/b/c", true, false, &status), BUS_OK);
    T_EQ_INT(status, 0);
    T_EQ_INT(s_mkdir(F1, "../escape", true, false, &status), BUS_OK);
    T_EQ_INT(status, BUS_STATUS_INVALID);
    T_EQ_INT(s_mkdir(NOWHERE, "x", true, false, &status), BUS_STATUS_NOT_FOUND);
    //  A big directory, made on the host, read page by page.
    char root[600], path[800];
    T_EQ_INT(s_mount_path(F1, root, sizeof root), BUS_OK);
    T_EQ_INT(s_mkdir(F1, "many", false, false, &status), BUS_OK);
    for (int i = 0; i < LIST_COUNT; i++) {
        snprintf(path, sizeof path, "%s/many/f%05d", root, i);
        T_ASSERT(s_write_host(path, "x", 1));
    }
    //  Settled long ago, so the listing is kept for the next pages.
    snprintf(path, sizeof path, "%s/many", root);
    struct timespec old[2] = {{1000000000, 0}, {1000000000, 0}};
    T_ASSERT(utimensat(AT_FDCWD, path, old, 0) == 0);
    char cursor[300] = "";
    int seen = 0, pages = 0;
    bool more = true;
    while (more) {
        proto_storage_files_list_rep_t rep;
        bus_error_t err = {0};
        T_EQ_INT(s_list(F1, "many", cursor, 1000, &rep, &err), BUS_OK);
        T_EQ_INT(rep.total, LIST_COUNT + (pages > 0));
        for (size_t i = 0; i < rep.entries_count; i++) {
            char name[16];
            snprintf(name, sizeof name, seen < LIST_COUNT ? "f%05d" : "zzz", seen);
            seen++;
            T_EQ_STR(rep.entries[i].name, name);
            T_EQ_STR(rep.entries[i].type, "FILE");
            T_EQ_INT(rep.entries[i].size, 1);
        }
        //  A file made between pages shows on a later one.
        snprintf(path, sizeof path, "%s/many/zzz", root);
        if (pages == 0)
            T_ASSERT(s_write_host(path, "z", 1));
        more = rep.more;
        if (more)
            snprintf(cursor, sizeof cursor, "%s", rep.cursor);
        proto_storage_files_list_rep_clear(&rep);
        pages++;
        T_ASSERT(pages <= 3);
    }
    T_EQ_INT(seen, LIST_COUNT + 1);
    T_EQ_INT(pages, 3);
    //  The root: directories and files, and a symlink out, shown as a link.
    snprintf(path, sizeof path, "%s/notes.txt", root);
    T_ASSERT(s_write_host(path, "hello", 5));
    snprintf(path, sizeof path, "%s/out", root);
    T_ASSERT(symlink("/etc", path) == 0);
    proto_storage_files_list_rep_t rep;
    bus_error_t err = {0};
    T_EQ_INT(s_list(F1, "", NULL, 0, &rep, &err), BUS_OK);
    T_EQ_INT(rep.total, 5); //  a docs many notes.txt out
    T_EQ_STR(rep.entries[0].name, "a");
    T_EQ_STR(rep.entries[0].type, "DIRECTORY");
    T_EQ_STR(rep.entries[4].name, "out");
    T_EQ_STR(rep.entries[4].type, "SYMLINK");
    proto_storage_files_list_rep_clear(&rep);
    //  Through the symlink, or up and out: refused.
    T_EQ_INT(s_list(F1, "out", NULL, 0, &rep, &err), BUS_STATUS_FORBIDDEN);
    proto_storage_files_list_rep_clear(&rep);
    T_EQ_INT(s_list(F1, "../..", NULL, 0, &rep, &err), BUS_STATUS_INVALID);
    proto_storage_files_list_rep_clear(&rep);
    T_EQ_INT(s_list(F1, "/etc", NULL, 0, &rep, &err), BUS_STATUS_INVALID);
    proto_storage_files_list_rep_clear(&rep);
    T_EQ_INT(s_mkdir(F1, "out/pwned", false, false, &status), BUS_OK);
    T_ASSERT(status != 0);
    T_ASSERT(!s_exists("/etc/pwned"));
    //  Rename within a directory, move across, conflicts.
    T_EQ_INT(s_rename(F1, "notes.txt", "readme.txt"), BUS_OK);
    snprintf(path, sizeof path, "%s/readme.txt", root);
    T_ASSERT(s_exists(path));
    T_EQ_INT(s_rename(F1, "readme.txt", "docs"), BUS_STATUS_CONFLICT);
    T_EQ_INT(s_rename(F1, "readme.txt", "../x"), BUS_STATUS_INVALID);
    T_EQ_INT(s_move(F1, "readme.txt", "a/b/readme.txt"), BUS_OK);
    snprintf(path, sizeof path, "%s/a/b/readme.txt", root);
    T_ASSERT(s_exists(path));
    T_EQ_INT(s_move(F1, "a/b/readme.txt", "../../readme.txt"), BUS_STATUS_INVALID);
    T_EQ_INT(s_move(F1, "nothing", "x"), BUS_STATUS_NOT_FOUND);
    //  Delete: a non-empty directory needs recursive; the symlink goes, not /etc.
    T_EQ_INT(s_delete(F1, "many", false), BUS_STATUS_CONFLICT);
    T_EQ_INT(s_delete(F1, "many", true), BUS_OK);
    T_EQ_INT(s_delete(F1, "out", false), BUS_OK);
    T_ASSERT(s_exists("/etc/passwd"));
    T_EQ_INT(s_delete(F1, "../../etc", true), BUS_STATUS_INVALID);
    T_EQ_INT(s_list(F1, "", NULL, 0, &rep, &err), BUS_OK);
    T_EQ_INT(rep.total, 2); //  a docs
    proto_storage_files_list_rep_clear(&rep);
}

static void
test_upload_resumed(void)
{
    char *token = s_token(BUS_TOKEN_UPLOAD, F1, "data/big.bin", UPLOAD_SIZE);
    T_ASSERT(token);
    char root[600], target_path[800];
    T_EQ_INT(s_mount_path(F1, root, sizeof root), BUS_OK);
    snprintf(target_path, sizeof target_path, "%s/data/big.bin", root);
    int status;
    T_EQ_INT(s_head_offset(token, &status), 0);
    T_EQ_INT(status, 200);
    resp_t resp;
    T_EQ_INT(s_patch(token, 0, s_data, MIB, &resp), 204);
    T_EQ_INT(s_header_u64(&resp, "Upload-Offset"), MIB);
    s_resp_clear(&resp);
    T_ASSERT(!s_exists(target_path)); //  a partial upload is never the file
    //  The next chunk breaks off half way: what arrived stays, as tus has it.
    char target[9000], extra[256];
    s_target(target, sizeof target, "upload", token);
    snprintf(extra, sizeof extra,
             "Tus-Resumable: 1.0.0\r\nUpload-Offset: %d\r\nContent-Type: "
             "application/offset+octet-stream\r\n",
             MIB);
    T_EQ_INT(s_http("PATCH", target, extra, s_data + MIB, MIB, MIB / 2, &resp), 0);
    //  HEAD tells where to resume (once the server has seen the hang-up).
    uint64_t offset = 0;
    for (int i = 0; i < 50; i++) {
        offset = s_head_offset(token, &status);
        if (status == 200)
            break;
        harness_pause_ms(20);
    }
    T_EQ_INT(status, 200);
    T_ASSERT(offset >= MIB && offset <= MIB + MIB / 2);
    T_ASSERT(!s_exists(target_path));
    //  A chunk at the wrong offset: 409 with the right one.
    T_EQ_INT(s_patch(token, 0, s_data, 1000, &resp), 409);
    T_EQ_INT(s_header_u64(&resp, "Upload-Offset"), offset);
    T_CONTAINS(s_problem_type(&resp), "upload-offset-mismatch");
    s_resp_clear(&resp);
    //  A chunk past the announced size, and the wrong content type.
    T_EQ_INT(s_patch(token, offset, s_data, UPLOAD_SIZE, &resp), 400);
    s_resp_clear(&resp);
    T_EQ_INT(s_http("PATCH", target, "Upload-Offset: 1048576\r\n", "x", 1, 1, &resp),
             415);
    s_resp_clear(&resp);
    //  The rest, in chunks.
    while (offset < UPLOAD_SIZE) {
        size_t len = UPLOAD_SIZE - offset < MIB ? UPLOAD_SIZE - offset : MIB;
        T_EQ_INT(s_patch(token, offset, s_data + offset, len, &resp), 204);
        T_EQ_INT(s_header_u64(&resp, "Upload-Offset"), offset + len);
        s_resp_clear(&resp);
        offset += len;
    }
    size_t len = 0;
    uint8_t *copy = s_slurp(target_path, &len);
    T_ASSERT(copy);
    T_EQ_INT(len, UPLOAD_SIZE);
    char want[65], got[65];
    s_sha256(s_data, UPLOAD_SIZE, want);
    s_sha256(copy, len, got);
    free(copy);
    T_EQ_STR(got, want);
    //  Asked again once complete (a lost 204): the whole size.
    T_EQ_INT(s_head_offset(token, &status), UPLOAD_SIZE);
    T_EQ_INT(status, 200);
    //  Usage: the file, the 5 bytes of a/b/readme.txt, no partial upload left.
    proto_storage_folder_t folder;
    T_EQ_INT(s_usage(F1, true, &folder), BUS_OK);
    T_EQ_INT(folder.usage_bytes, UPLOAD_SIZE + 5);
    proto_storage_folder_clear(&folder);
    free(token);
    //  An empty file: created by the tus creation step alone.
    token = s_token(BUS_TOKEN_UPLOAD, F1, "data/empty", 0);
    s_target(target, sizeof target, "upload", token);
    T_EQ_INT(s_http("POST", target, "Tus-Resumable: 1.0.0\r\nUpload-Length: 0\r\n", NULL,
                    0, 0, &resp),
             201);
    s_resp_clear(&resp);
    snprintf(target_path, sizeof target_path, "%s/data/empty", root);
    T_ASSERT(s_exists(target_path));
    free(token);
}

static void
test_quota(void)
{
    T_EQ_INT(s_quota(F4, MIB + MIB / 2), BUS_OK);
    char *token = s_token(BUS_TOKEN_UPLOAD, F4, "two.bin", 2 * MIB);
    resp_t resp;
    T_EQ_INT(s_patch(token, 0, s_data, MIB, &resp), 204);
    s_resp_clear(&resp);
    //  The chunk that would cross the quota: refused whole.
    T_EQ_INT(s_patch(token, MIB, s_data + MIB, MIB, &resp), 412);
    T_CONTAINS(s_problem_type(&resp), "/probs/quota-exceeded");
    T_CONTAINS((const char *) resp.body, "quota");
    s_resp_clear(&resp);
    int status;
    T_EQ_INT(s_head_offset(token, &status), MIB);
    char root[600], path[800];
    T_EQ_INT(s_mount_path(F4, root, sizeof root), BUS_OK);
    snprintf(path, sizeof path, "%s/.backplane-uploads", root);
    proto_storage_folder_t folder;
    T_EQ_INT(s_usage(F4, true, &folder), BUS_OK);
    T_EQ_INT(folder.usage_bytes, MIB); //  the staging file holds the first chunk only
    T_ASSERT(!folder.over_quota);
    proto_storage_folder_clear(&folder);
    free(token);
    //  A container writes past the quota behind our back: the scan flags it.
    snprintf(path, sizeof path, "%s/written-by-a-container", root);
    T_ASSERT(s_write_host(path, s_data, MIB));
    bool flagged = false;
    for (int i = 0; i < WAIT_MS / 50 && !flagged; i++) {
        T_EQ_INT(s_usage(F4, false, &folder), BUS_OK);
        flagged = folder.over_quota;
        proto_storage_folder_clear(&folder);
        if (!flagged)
            harness_pause_ms(50);
    }
    T_ASSERT(flagged);
    token = s_token(BUS_TOKEN_UPLOAD, F4, "tiny", 1);
    T_EQ_INT(s_patch(token, 0, "x", 1, &resp), 412);
    T_CONTAINS((const char *) resp.body, "until files are deleted");
    s_resp_clear(&resp);
    //  It shrinks: uploads are taken again.
    T_EQ_INT(s_delete(F4, "written-by-a-container", false), BUS_OK);
    bool cleared = false;
    for (int i = 0; i < WAIT_MS / 50 && !cleared; i++) {
        T_EQ_INT(s_usage(F4, false, &folder), BUS_OK);
        cleared = !folder.over_quota;
        proto_storage_folder_clear(&folder);
        if (!cleared)
            harness_pause_ms(50);
    }
    T_ASSERT(cleared);
    T_EQ_INT(s_patch(token, 0, "x", 1, &resp), 204);
    s_resp_clear(&resp);
    free(token);
    //  No quota: anything goes.
    T_EQ_INT(s_quota(F4, 0), BUS_OK);
}

static void
test_tokens(void)
{
    resp_t resp;
    char target[9000];
    //  No token, a malformed one.
    T_EQ_INT(s_http("GET", "/download", NULL, NULL, 0, 0, &resp), 400);
    T_CONTAINS(s_problem_type(&resp), "invalid-auth-params");
    s_resp_clear(&resp);
    T_EQ_INT(s_http("GET", "/download?token=abc", NULL, NULL, 0, 0, &resp), 400);
    s_resp_clear(&resp);
    //  Expired.
    char *token =
        s_token_with(SECRET, BUS_TOKEN_DOWNLOAD, "vol1", F1, "data/big.bin", 0, -5, NULL);
    s_target(target, sizeof target, "download", token);
    T_EQ_INT(s_http("GET", target, NULL, NULL, 0, 0, &resp), 403);
    T_CONTAINS((const char *) resp.body, "expired");
    s_resp_clear(&resp);
    free(token);
    //  Signed with another secret.
    token = s_token_with("another secret of 32 bytes......", BUS_TOKEN_DOWNLOAD, "vol1",
                         F1, "data/big.bin", 0, 300, NULL);
    s_target(target, sizeof target, "download", token);
    T_EQ_INT(s_http("GET", target, NULL, NULL, 0, 0, &resp), 403);
    s_resp_clear(&resp);
    free(token);
    //  A valid token whose claims are swapped for another folder's: bad signature.
    token = s_token(BUS_TOKEN_DOWNLOAD, F1, "data/big.bin", 0);
    char *other = s_token(BUS_TOKEN_DOWNLOAD, F4, "data/big.bin", 0);
    char forged[9000];
    snprintf(forged, sizeof forged, "%.*s%s", (int) strcspn(other, "."), other,
             strchr(token, '.'));
    s_target(target, sizeof target, "download", forged);
    T_EQ_INT(s_http("GET", target, NULL, NULL, 0, 0, &resp), 403);
    T_CONTAINS((const char *) resp.body, "signature");
    s_resp_clear(&resp);
    free(other);
    //  A download token is no upload token.
    T_EQ_INT(s_patch(token, 0, "x", 1, &resp), 403);
    s_resp_clear(&resp);
    free(token);
    //  A folder this proxy does not have, or on another volume.
    token = s_token(BUS_TOKEN_DOWNLOAD, NOWHERE, "x", 0);
    s_target(target, sizeof target, "download", token);
    T_EQ_INT(s_http("GET", target, NULL, NULL, 0, 0, &resp), 404);
    T_CONTAINS(s_problem_type(&resp), "object-not-found");
    s_resp_clear(&resp);
    free(token);
    token = s_token_with(SECRET, BUS_TOKEN_DOWNLOAD, "vol2", F1, "data/big.bin", 0, 300,
                         NULL);
    s_target(target, sizeof target, "download", token);
    T_EQ_INT(s_http("GET", target, NULL, NULL, 0, 0, &resp), 404);
    s_resp_clear(&resp);
    free(token);
    //  Traversal in the token's path: refused, whatever the operation.
    const char *bad[] = {"../../../etc/passwd", "/etc/passwd", "data/../../x", "a\001b"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        token = s_token(BUS_TOKEN_DOWNLOAD, F1, bad[i], 0);
        T_ASSERT(token);
        s_target(target, sizeof target, "download", token);
        T_EQ_INT(s_http("GET", target, NULL, NULL, 0, 0, &resp), 400);
        s_resp_clear(&resp);
        free(token);
        token = s_token(BUS_TOKEN_UPLOAD, F1, bad[i], 10);
        T_EQ_INT(s_patch(token, 0, "0123456789", 10, &resp), 400);
        s_resp_clear(&resp);
        free(token);
    }
    T_ASSERT(!s_exists("/x"));
    //  A symlink planted in the folder, pointing out: not followed.
    char root[600], path[800];
    T_EQ_INT(s_mount_path(F1, root, sizeof root), BUS_OK);
    snprintf(path, sizeof path, "%s/passwd", root);
    T_ASSERT(symlink("/etc/passwd", path) == 0);
    token = s_token(BUS_TOKEN_DOWNLOAD, F1, "passwd", 0);
    s_target(target, sizeof target, "download", token);
    T_ASSERT(s_http("GET", target, NULL, NULL, 0, 0, &resp) >= 400);
    T_ASSERT(!resp.body || !strstr((const char *) resp.body, "root:"));
    s_resp_clear(&resp);
    free(token);
    //  An upload through a symlink to a directory outside: refused.
    char outside[700];
    snprintf(outside, sizeof outside, "%s/outside", s_dir);
    T_ASSERT(mkdir(outside, 0755) == 0);
    snprintf(path, sizeof path, "%s/elsewhere", root);
    T_ASSERT(symlink(outside, path) == 0);
    token = s_token(BUS_TOKEN_UPLOAD, F1, "elsewhere/pwned", 3);
    T_ASSERT(s_patch(token, 0, "own", 3, &resp) >= 400);
    s_resp_clear(&resp);
    free(token);
    snprintf(path, sizeof path, "%s/pwned", outside);
    T_ASSERT(!s_exists(path));
}

static void
test_download_ranges(void)
{
    char *token = s_token(BUS_TOKEN_DOWNLOAD, F1, "data/big.bin", 0);
    char target[9000];
    s_target(target, sizeof target, "download", token);
    resp_t resp;
    T_EQ_INT(s_http("GET", target, NULL, NULL, 0, 0, &resp), 200);
    T_EQ_INT(s_header_u64(&resp, "Content-Length"), UPLOAD_SIZE);
    T_EQ_INT(resp.body_len, UPLOAD_SIZE);
    char want[65], got[65];
    s_sha256(s_data, UPLOAD_SIZE, want);
    s_sha256(resp.body, resp.body_len, got);
    T_EQ_STR(got, want);
    char value[256];
    T_ASSERT(s_header(&resp, "Content-Disposition", value, sizeof value));
    T_CONTAINS(value, "filename=\"big.bin\"");
    T_ASSERT(s_header(&resp, "Last-Modified", value, sizeof value));
    char modified[256];
    snprintf(modified, sizeof modified, "%s", value);
    s_resp_clear(&resp);
    //  First bytes, the middle, the end (suffix), a range running past the end.
    struct {
        const char *range;
        uint64_t start, len;
    } cases[] = {
        {"bytes=0-99", 0, 100},
        {"bytes=1000000-1999999", 1000000, 1000000},
        {"bytes=-500", UPLOAD_SIZE - 500, 500},
        {"bytes=3145728-", 3145728, UPLOAD_SIZE - 3145728},
        {"bytes=3145728-99999999", 3145728, UPLOAD_SIZE - 3145728},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char extra[128], expect[128];
        snprintf(extra, sizeof extra, "Range: %s\r\n", cases[i].range);
        T_EQ_INT(s_http("GET", target, extra, NULL, 0, 0, &resp), 206);
        T_EQ_INT(resp.body_len, cases[i].len);
        T_EQ_INT(s_header_u64(&resp, "Content-Length"), cases[i].len);
        T_ASSERT(memcmp(resp.body, s_data + cases[i].start, cases[i].len) == 0);
        snprintf(expect, sizeof expect, "bytes %" PRIu64 "-%" PRIu64 "/%d",
                 cases[i].start, cases[i].start + cases[i].len - 1, UPLOAD_SIZE);
        T_ASSERT(s_header(&resp, "Content-Range", value, sizeof value));
        T_EQ_STR(value, expect);
        s_resp_clear(&resp);
    }
    //  Resuming as the client does: Range with If-Range of the Last-Modified.
    char extra[512];
    snprintf(extra, sizeof extra, "Range: bytes=100-\r\nIf-Range: %s\r\n", modified);
    T_EQ_INT(s_http("GET", target, extra, NULL, 0, 0, &resp), 206);
    T_EQ_INT(resp.body_len, UPLOAD_SIZE - 100);
    s_resp_clear(&resp);
    snprintf(extra, sizeof extra,
             "Range: bytes=100-\r\nIf-Range: Thu, 01 Jan 1970 00:00:00 GMT\r\n");
    T_EQ_INT(s_http("GET", target, extra, NULL, 0, 0, &resp), 200);
    T_EQ_INT(resp.body_len, UPLOAD_SIZE);
    s_resp_clear(&resp);
    //  Out of range.
    snprintf(extra, sizeof extra, "Range: bytes=%d-\r\n", UPLOAD_SIZE);
    T_EQ_INT(s_http("GET", target, extra, NULL, 0, 0, &resp), 416);
    T_ASSERT(s_header(&resp, "Content-Range", value, sizeof value));
    char expect[64];
    snprintf(expect, sizeof expect, "bytes */%d", UPLOAD_SIZE);
    T_EQ_STR(value, expect);
    s_resp_clear(&resp);
    //  HEAD: the length, no body.
    T_EQ_INT(s_http("HEAD", target, NULL, NULL, 0, 0, &resp), 200);
    T_EQ_INT(s_header_u64(&resp, "Content-Length"), UPLOAD_SIZE);
    T_EQ_INT(resp.body_len, 0);
    s_resp_clear(&resp);
    free(token);
    //  A directory, a missing file.
    token = s_token(BUS_TOKEN_DOWNLOAD, F1, "data", 0);
    s_target(target, sizeof target, "download", token);
    T_EQ_INT(s_http("GET", target, NULL, NULL, 0, 0, &resp), 400);
    T_CONTAINS((const char *) resp.body, "is a directory");
    s_resp_clear(&resp);
    free(token);
    token = s_token(BUS_TOKEN_DOWNLOAD, F1, "data/none", 0);
    s_target(target, sizeof target, "download", token);
    T_EQ_INT(s_http("GET", target, NULL, NULL, 0, 0, &resp), 404);
    s_resp_clear(&resp);
    free(token);
}

//  A page of another origin (the web UI) uploads and downloads here: every
//  answer lets it read the result and the tus headers, and the preflight a
//  browser sends before a PATCH or HEAD with tus headers is answered
//  without a token.
static void
test_cors(void)
{
    char *token = s_token(BUS_TOKEN_UPLOAD, F1, "data/cors.bin", 4);
    char target[9000], value[512];
    s_target(target, sizeof target, "upload", token);
    resp_t resp;
    T_EQ_INT(s_http("OPTIONS", target,
                    "Origin: http://127.0.0.1:8090\r\n"
                    "Access-Control-Request-Method: PATCH\r\n"
                    "Access-Control-Request-Headers: tus-resumable,upload-offset,"
                    "content-type\r\n"
                    "Access-Control-Request-Private-Network: true\r\n",
                    NULL, 0, 0, &resp),
             204);
    T_ASSERT(s_header(&resp, "Access-Control-Allow-Origin", value, sizeof value));
    T_EQ_STR(value, "*");
    T_ASSERT(s_header(&resp, "Access-Control-Allow-Methods", value, sizeof value));
    T_CONTAINS(value, "PATCH");
    T_ASSERT(s_header(&resp, "Access-Control-Allow-Headers", value, sizeof value));
    T_CONTAINS(value, "Upload-Offset");
    T_CONTAINS(value, "Tus-Resumable");
    T_CONTAINS(value, "Content-Type");
    T_ASSERT(
        s_header(&resp, "Access-Control-Allow-Private-Network", value, sizeof value));
    s_resp_clear(&resp);
    //  The PATCH's answer: its offset readable by the page.
    T_EQ_INT(s_patch(token, 0, "cors", 4, &resp), 204);
    T_ASSERT(s_header(&resp, "Access-Control-Allow-Origin", value, sizeof value));
    T_ASSERT(s_header(&resp, "Access-Control-Expose-Headers", value, sizeof value));
    T_CONTAINS(value, "Upload-Offset");
    s_resp_clear(&resp);
    //  A refusal too, so the page reads why.
    T_EQ_INT(s_patch(token, 1, "x", 1, &resp), 409);
    T_ASSERT(s_header(&resp, "Access-Control-Allow-Origin", value, sizeof value));
    s_resp_clear(&resp);
    free(token);
    //  The download route's preflight, and an unknown path's 404 still a 404.
    token = s_token(BUS_TOKEN_DOWNLOAD, F1, "data/cors.bin", 0);
    s_target(target, sizeof target, "download", token);
    T_EQ_INT(s_http("OPTIONS", target, "Access-Control-Request-Method: GET\r\n", NULL, 0,
                    0, &resp),
             204);
    s_resp_clear(&resp);
    T_EQ_INT(s_http("GET", target, NULL, NULL, 0, 0, &resp), 200);
    T_ASSERT(s_header(&resp, "Access-Control-Expose-Headers", value, sizeof value));
    T_CONTAINS(value, "Content-Disposition");
    s_resp_clear(&resp);
    free(token);
    T_EQ_INT(s_http("OPTIONS", "/nowhere", "Access-Control-Request-Method: GET\r\n", NULL,
                    0, 0, &resp),
             404);
    s_resp_clear(&resp);
}

static void
test_clone(void)
{
    //  storage.folder.clone: to the same volume and to the other one.
    const char *targets[][2] = {{F2, ""}, {F3, "vol2"}};
    for (size_t t = 0; t < 2; t++) {
        proto_storage_folder_clone_req_t in;
        proto_storage_folder_clone_req_init(&in);
        in.id = F1;
        in.target_id = targets[t][0];
        in.target_volume = targets[t][1];
        bus_writer_t *w = s_writer();
        T_EQ_INT(proto_storage_folder_clone_req_write(&in, w), 0);
        zchunk_t *reply = NULL;
        bus_error_t err = {0};
        T_EQ_INT(s_call(PROTO_STORAGE_FOLDER_CLONE, w, &reply, &err), BUS_OK);
        proto_storage_folder_clone_rep_t rep;
        T_EQ_INT(proto_storage_folder_clone_rep_decode(&rep, zchunk_data(reply),
                                                       zchunk_size(reply), &err),
                 BUS_OK);
        zchunk_destroy(&reply);
        T_EQ_STR(rep.folder.state, "ready");
        T_EQ_STR(rep.folder.volume, t ? "vol2" : "vol1");
        T_EQ_INT(rep.folder.usage_bytes, UPLOAD_SIZE + 5);
        proto_storage_folder_clone_rep_clear(&rep);
        char root[600], path[800];
        T_EQ_INT(s_mount_path(targets[t][0], root, sizeof root), BUS_OK);
        snprintf(path, sizeof path, "%s/data/big.bin", root);
        size_t len = 0;
        uint8_t *copy = s_slurp(path, &len);
        T_ASSERT(copy);
        T_EQ_INT(len, UPLOAD_SIZE);
        T_ASSERT(memcmp(copy, s_data, len) == 0);
        free(copy);
        //  The planted symlink is copied as a link; staging files are not copied.
        snprintf(path, sizeof path, "%s/passwd", root);
        struct stat st;
        T_ASSERT(lstat(path, &st) == 0 && S_ISLNK(st.st_mode));
        snprintf(path, sizeof path, "%s/.backplane-uploads", root);
        T_ASSERT(!s_exists(path));
    }
    //  Cloning onto an existing id, or from nowhere.
    proto_storage_folder_clone_req_t in;
    proto_storage_folder_clone_req_init(&in);
    in.id = F1;
    in.target_id = F2;
    bus_writer_t *w = s_writer();
    T_EQ_INT(proto_storage_folder_clone_req_write(&in, w), 0);
    bus_error_t err = {0};
    T_EQ_INT(s_call(PROTO_STORAGE_FOLDER_CLONE, w, NULL, &err), BUS_STATUS_CONFLICT);
    in.id = NOWHERE;
    in.target_id = "ee000000000000000000000000000006";
    w = s_writer();
    T_EQ_INT(proto_storage_folder_clone_req_write(&in, w), 0);
    T_EQ_INT(s_call(PROTO_STORAGE_FOLDER_CLONE, w, NULL, &err), BUS_STATUS_NOT_FOUND);
}

static void
test_purge(void)
{
    char root[600];
    T_EQ_INT(s_mount_path(F2, root, sizeof root), BUS_OK);
    char *token = s_token(BUS_TOKEN_DOWNLOAD, F2, "data/big.bin", 0);
    proto_storage_folder_delete_req_t in;
    proto_storage_folder_delete_req_init(&in);
    in.id = F2;
    in.volume = "vol2"; //  the wrong volume first
    bus_writer_t *w = s_writer();
    T_EQ_INT(proto_storage_folder_delete_req_write(&in, w), 0);
    bus_error_t err = {0};
    T_EQ_INT(s_call(PROTO_STORAGE_FOLDER_DELETE, w, NULL, &err), BUS_STATUS_NOT_FOUND);
    in.volume = "vol1";
    w = s_writer();
    T_EQ_INT(proto_storage_folder_delete_req_write(&in, w), 0);
    T_EQ_INT(s_call(PROTO_STORAGE_FOLDER_DELETE, w, NULL, &err), BUS_OK);
    T_ASSERT(!s_exists(root));
    proto_storage_files_list_rep_t rep;
    T_EQ_INT(s_list(F2, "", NULL, 0, &rep, &err), BUS_STATUS_NOT_FOUND);
    proto_storage_files_list_rep_clear(&rep);
    //  Its tokens stop working at once.
    char target[9000];
    resp_t resp;
    s_target(target, sizeof target, "download", token);
    T_EQ_INT(s_http("GET", target, NULL, NULL, 0, 0, &resp), 404);
    s_resp_clear(&resp);
    free(token);
    //  The trash empties.
    char trash[700];
    snprintf(trash, sizeof trash, "%s/vol1/.trash", s_dir);
    bool empty = false;
    for (int i = 0; i < WAIT_MS / 50 && !empty; i++) {
        char command[800];
        snprintf(command, sizeof command, "test -z \"$(ls -A %s)\"", trash);
        empty = harness_shell(command) == 0;
        if (!empty)
            harness_pause_ms(50);
    }
    T_ASSERT(empty);
}

//  curl's HTTP status for options (and the URL), the body written to
//  output (NULL: dropped), or -1 when curl failed.
static int
s_curl(const char *output, const char *options)
{
    char command[12000], out[64] = "";
    snprintf(command, sizeof command, "curl -sS -m 20 -o %s -w '%%{http_code}' %s",
             output ? output : "/dev/null", options);
    FILE *pipe = popen(command, "r");
    if (!pipe)
        return -1;
    if (!fgets(out, sizeof out, pipe))
        out[0] = '\0';
    int rc = pclose(pipe);
    return rc == 0 ? atoi(out) : -1;
}

//  The storage-proxy again, with http.tls_cert: a bad certificate stops
//  it with both file names; the good one serves /upload and /download
//  over HTTPS (a tus PATCH through curl, with its Expect: 100-continue, and
//  a whole and a ranged download of 3 MB, the file's bytes read and
//  encrypted instead of sendfile) and advertises https://; a plaintext
//  request gets no answer and the listener goes on serving.
static void
test_tls(void)
{
    T_EQ_INT(harness_stop(&s_sp, 10000), 0);
    bus_rpc_client_destroy(&s_client);
    char cert[600], key[600], command[2000];
    snprintf(cert, sizeof cert, "%s/tls.crt", s_dir);
    snprintf(key, sizeof key, "%s/tls.key", s_dir);
    snprintf(command, sizeof command,
             "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1"
             " -addext subjectAltName=IP:127.0.0.1 -keyout %s -out %s 2>/dev/null",
             key, cert);
    T_EQ_INT(harness_shell(command), 0);
    char cert_opt[700], key_opt[700];
    snprintf(key_opt, sizeof key_opt, "http.tls_key=%s", key);

    //  A certificate that is not there: no start, and a message naming it.
    snprintf(cert_opt, sizeof cert_opt, "http.tls_cert=%s/missing.crt", s_dir);
    const char *bad[] = {"--set", cert_opt, "--set", key_opt, NULL};
    T_ASSERT(!s_sp_start(bad));
    bool said = false;
    for (int i = 0; i < 100 && !said; i++) {
        said = harness_log_has(&s_sp, "missing.crt / http.tls_key");
        if (!said)
            harness_pause_ms(50);
    }
    T_ASSERT(said);
    harness_stop(&s_sp, 5000);
    bus_rpc_client_destroy(&s_client);

    snprintf(cert_opt, sizeof cert_opt, "http.tls_cert=%s", cert);
    const char *good[] = {"--set", cert_opt, "--set", key_opt, NULL};
    T_ASSERT(s_sp_start(good));
    T_ASSERT(strncmp(s_url, "https://127.0.0.1:", 18) == 0);

    //  An upload of 2 MB and 7 bytes in one PATCH (curl asks 100-continue).
    size_t size = 2 * MIB + 7;
    char body[700], options[10000];
    snprintf(body, sizeof body, "%s/tls-upload.bin", s_dir);
    T_ASSERT(s_write_host(body, s_data, size));
    char *token = s_token(BUS_TOKEN_UPLOAD, F1, "data/tls.bin", size);
    T_ASSERT(token);
    snprintf(options, sizeof options,
             "--cacert %s -X PATCH -H 'Tus-Resumable: 1.0.0' -H 'Upload-Offset: 0'"
             " -H 'Content-Type: application/offset+octet-stream' --data-binary @%s"
             " '%s/upload?token=%s'",
             cert, body, s_url, token);
    T_EQ_INT(s_curl(NULL, options), 204);
    free(token);
    char root[600], path[800];
    T_EQ_INT(s_mount_path(F1, root, sizeof root), BUS_OK);
    snprintf(path, sizeof path, "%s/data/tls.bin", root);
    size_t len = 0;
    uint8_t *copy = s_slurp(path, &len);
    T_ASSERT(copy);
    T_EQ_INT(len, size);
    T_ASSERT(memcmp(copy, s_data, size) == 0);
    free(copy);

    //  The 3 MB file, whole and from an offset, over TLS.
    token = s_token(BUS_TOKEN_DOWNLOAD, F1, "data/big.bin", 0);
    char out[700];
    snprintf(out, sizeof out, "%s/tls-download.bin", s_dir);
    snprintf(options, sizeof options, "--cacert %s '%s/download?token=%s'", cert, s_url,
             token);
    T_EQ_INT(s_curl(out, options), 200);
    copy = s_slurp(out, &len);
    T_ASSERT(copy);
    T_EQ_INT(len, UPLOAD_SIZE);
    char want[65], got[65];
    s_sha256(s_data, UPLOAD_SIZE, want);
    s_sha256(copy, len, got);
    T_EQ_STR(got, want);
    free(copy);
    snprintf(options, sizeof options,
             "--cacert %s -H 'Range: bytes=1000001-' '%s/download?token=%s'", cert, s_url,
             token);
    T_EQ_INT(s_curl(out, options), 206);
    copy = s_slurp(out, &len);
    T_ASSERT(copy);
    T_EQ_INT(len, UPLOAD_SIZE - 1000001);
    T_ASSERT(memcmp(copy, s_data + 1000001, len) == 0);
    free(copy);
    free(token);

    //  Plain HTTP to the TLS port: no answer; the listener still serves.
    snprintf(options, sizeof options, "http://127.0.0.1:%d/", s_port);
    T_EQ_INT(s_curl(NULL, options), -1);
    snprintf(options, sizeof options, "--cacert %s %s/", cert, s_url);
    T_EQ_INT(s_curl(NULL, options), 200);
    //  Without the certificate trusted, curl refuses the server.
    snprintf(options, sizeof options, "%s/", s_url);
    T_EQ_INT(s_curl(NULL, options), -1);
}

int
main(void)
{
    T_RUN(test_start);
    T_RUN(test_volumes);
    T_RUN(test_folders);
    T_RUN(test_files);
    T_RUN(test_upload_resumed);
    T_RUN(test_quota);
    T_RUN(test_tokens);
    T_RUN(test_download_ranges);
    T_RUN(test_clone);
    T_RUN(test_cors); //  after the clone, which counts F1's bytes
    T_RUN(test_purge);
    T_RUN(test_tls);
    bus_rpc_client_destroy(&s_client);
    free(s_data);
    bool clean = s_sp.pid <= 0 ||
                 (harness_stop(&s_sp, 10000) == 0 && !harness_log_has_report(&s_sp));
    if (!clean)
        fprintf(stderr, "# the storage-proxy did not stop cleanly (log: %s)\n",
                s_sp.log_path);
    if (s_dir) {
        if (t_failures == 0 && clean && !getenv("BACKPLANE_KEEP"))
            harness_rmdir(s_dir);
        else
            fprintf(stderr, "# state kept in %s\n", s_dir);
        free(s_dir);
    }
    return clean ? T_DONE() : 1;
}
