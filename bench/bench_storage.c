/*  =========================================================================
    bench_storage - uploads and downloads through the storage-proxy's HTTP
    endpoint against the same copy over a raw loopback TCP connection, and
    a listing of 100,000 files

    Starts the real storage-proxy (hosting its own hub; state and volume in
    a fresh directory under $BENCH_DIR, default /tmp, removed at the end),
    makes a folder over RPC and a BENCH_MB MiB (1024) source file with no
    pattern. Then, in the same run:
      upload    the file PATCHed in 16 MiB chunks (the official client's
                chunk size) at Upload-Offset over one keep-alive connection,
                each chunk read from the source file, until the last 204
                (the storage-proxy's final fsync and rename included);
      raw up    the same file read in 16 MiB chunks and sent over a plain
                loopback TCP connection to a process that writes what each
                read brings (up to 4 MiB) to a file on the same volume and
                fsyncs it: the copy without HTTP, tokens, quota checks or
                staging;
      download  GET /download of the uploaded file, read to the end;
      raw down  the same file sent with sendfile over a plain loopback TCP
                connection and read to the end.
    Each is run BENCH_ROUNDS times (5), alternating, and the best of each
    counts (the machines are shared). It also prints the plain socket
    throughput (memory to memory) for reference. Then it makes 100,000
    files in one directory of the folder, leaves it alone for 2.5 s (a
    directory changed within 2 s is not kept for paging, see sp_rpc) and
    lists it through storage.files.list, all pages of the default size
    (1000), and with one page of 100,000. Last line:
        storage: upload_ratio=X download_ratio=Y list_100k_ms=Z
    (ratios are storage-proxy over raw; Z is the paginated listing).
    BENCH_KEEP=1 keeps the directory. The binary comes from
    $BACKPLANE_BINDIR (else build/bin).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include <arpa/inet.h>    //  htons: the raw sockets
#include <fcntl.h>        //  open flags
#include <ftw.h>          //  nftw: removing the bench directory
#include <netinet/in.h>   //  sockaddr_in
#include <sys/sendfile.h> //  the raw download
#include <sys/socket.h>   //  the raw sockets and the HTTP client
#include <sys/wait.h>     //  waitpid: the raw server process
#include <sys/stat.h>     //  mkdir
#include "bus_token.h"
#include "integration/harness.h"

#define BENCH_MB_DEFAULT 1024
#define BENCH_ROUNDS     5
#define BENCH_SETTLE_MS  2500 //  a directory changed this recently is not kept (sp_rpc)
#define BENCH_CHUNK      (16 << 20) //  the official client's DEFAULT_CHUNK_SIZE
#define BENCH_IO         (4 << 20)  //  bytes per recv of the readers
#define BENCH_LIST_FILES 100000
#define BENCH_READY_MS   20000
#define BENCH_CALL_MS    120000
#define BENCH_STOP_MS    10000
#define BENCH_SECRET     "bench-secret-0123456789abcdef0123"
#define BENCH_FOLDER     "be000000000000000000000000000001"
#define BENCH_MIB        (1024.0 * 1024.0)

static char *s_dir;
static harness_proc_t s_sp;
static bus_rpc_client_t *s_client;
static int s_port;
static uint64_t s_size;
static char s_source[600];
static char s_folder_root[800];

static double
s_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static void
s_die(const char *what)
{
    fprintf(stderr, "bench_storage: %s\n", what);
    if (s_sp.pid > 0)
        harness_stop(&s_sp, BENCH_STOP_MS);
    if (s_dir) {
        fprintf(stderr, "bench_storage: directory kept: %s\n", s_dir);
    }
    exit(1);
}

static int
s_remove(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void) st;
    (void) flag;
    (void) ftw;
    return remove(path);
}

//  ---------------------------------------------------------------------------
//  Sockets

static int
s_connect(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t) port)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && connect(fd, (struct sockaddr *) &addr, sizeof addr) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

//  A listening socket on a free loopback port; *port_p gets it.
static int
s_listen(int *port_p)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (fd < 0 || bind(fd, (struct sockaddr *) &addr, sizeof addr) != 0 ||
        listen(fd, 4) != 0 || getsockname(fd, (struct sockaddr *) &addr, &len) != 0)
        return -1;
    *port_p = ntohs(addr.sin_port);
    return fd;
}

static bool
s_send_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        len -= (size_t) n;
    }
    return true;
}

static bool
s_write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        len -= (size_t) n;
    }
    return true;
}

static bool
s_pread_all(int fd, void *data, size_t len, uint64_t offset)
{
    char *p = data;
    while (len) {
        ssize_t n = pread(fd, p, len, (off_t) offset);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        len -= (size_t) n;
        offset += (uint64_t) n;
    }
    return true;
}

//  ---------------------------------------------------------------------------
//  HTTP client: one keep-alive connection, responses with Content-Length

typedef struct {
    int fd;
    char buf[65536]; //  bytes read past the last response's head
    size_t have;
} http_t;

//  Reads a response head; *status_p, *length_p (Content-Length, 0 when
//  none), and the Upload-Offset when present. False on a broken connection.
static bool
s_read_head(http_t *http, int *status_p, uint64_t *length_p, uint64_t *offset_p)
{
    while (true) {
        char *end = memmem(http->buf, http->have, "\r\n\r\n", 4);
        if (end) {
            *end = '\0';
            if (sscanf(http->buf, "HTTP/1.1 %d", status_p) != 1)
                return false;
            *length_p = 0;
            for (char *line = strstr(http->buf, "\r\n"); line;
                 line = strstr(line + 2, "\r\n")) {
                if (strncasecmp(line + 2, "Content-Length:", 15) == 0)
                    *length_p = strtoull(line + 17, NULL, 10);
                else if (offset_p && strncasecmp(line + 2, "Upload-Offset:", 14) == 0)
                    *offset_p = strtoull(line + 16, NULL, 10);
            }
            size_t used = (size_t) (end - http->buf) + 4;
            memmove(http->buf, http->buf + used, http->have - used);
            http->have -= used;
            return true;
        }
        if (http->have == sizeof http->buf)
            return false;
        ssize_t n =
            recv(http->fd, http->buf + http->have, sizeof http->buf - http->have, 0);
        if (n <= 0)
            return false;
        http->have += (size_t) n;
    }
}

//  Reads and drops length bytes of body into sink (BENCH_IO bytes).
static bool
s_read_body(http_t *http, uint64_t length, char *sink)
{
    uint64_t taken = http->have < length ? http->have : length;
    memmove(http->buf, http->buf + taken, http->have - taken);
    http->have -= taken;
    length -= taken;
    while (length) {
        ssize_t n = recv(http->fd, sink, length < BENCH_IO ? length : BENCH_IO, 0);
        if (n <= 0)
            return false;
        length -= (uint64_t) n;
    }
    return true;
}

//  ---------------------------------------------------------------------------
//  The four transfers: each returns its seconds, or a negative number

static char *
s_token(bus_token_op_t op, const char *path, uint64_t size)
{
    bus_token_claims_t claims;
    memset(&claims, 0, sizeof claims);
    claims.op = op;
    snprintf(claims.volume, sizeof claims.volume, "bench");
    snprintf(claims.folder, sizeof claims.folder, BENCH_FOLDER);
    snprintf(claims.path, sizeof claims.path, "%s", path);
    claims.size = size;
    claims.expires = (int64_t) time(NULL) + 3600;
    return bus_token_sign(BENCH_SECRET, strlen(BENCH_SECRET), &claims, NULL);
}

static double
s_upload(const char *path, char *chunk)
{
    char *token = s_token(BUS_TOKEN_UPLOAD, path, s_size);
    int src = open(s_source, O_RDONLY | O_CLOEXEC);
    http_t *http = calloc(1, sizeof *http);
    if (!token || src < 0 || !http)
        return -1;
    double started = s_now();
    http->fd = s_connect(s_port);
    uint64_t offset = 0;
    bool ok = http->fd >= 0;
    while (ok && offset < s_size) {
        size_t len =
            s_size - offset < BENCH_CHUNK ? (size_t) (s_size - offset) : BENCH_CHUNK;
        char head[9000];
        int n = snprintf(head, sizeof head,
                         "PATCH /upload?token=%s HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         "Tus-Resumable: 1.0.0\r\nUpload-Offset: %" PRIu64 "\r\n"
                         "Content-Type: application/offset+octet-stream\r\n"
                         "Content-Length: %zu\r\n\r\n",
                         token, offset, len);
        int status = 0;
        uint64_t length = 0, next = 0;
        ok = n > 0 && (size_t) n < sizeof head && s_pread_all(src, chunk, len, offset) &&
             s_send_all(http->fd, head, (size_t) n) && s_send_all(http->fd, chunk, len) &&
             s_read_head(http, &status, &length, &next) &&
             s_read_body(http, length, chunk);
        if (ok && (status != 204 || next != offset + len)) {
            fprintf(stderr, "bench_storage: PATCH at %" PRIu64 " answered %d\n", offset,
                    status);
            ok = false;
        }
        offset += len;
    }
    double seconds = s_now() - started;
    if (http->fd >= 0)
        close(http->fd);
    close(src);
    free(http);
    free(token);
    return ok ? seconds : -1;
}

static double
s_download(const char *path, char *sink)
{
    char *token = s_token(BUS_TOKEN_DOWNLOAD, path, 0);
    http_t *http = calloc(1, sizeof *http);
    if (!token || !http)
        return -1;
    double started = s_now();
    http->fd = s_connect(s_port);
    char head[9000];
    int n = snprintf(head, sizeof head,
                     "GET /download?token=%s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", token);
    int status = 0;
    uint64_t length = 0;
    bool ok = http->fd >= 0 && n > 0 && (size_t) n < sizeof head &&
              s_send_all(http->fd, head, (size_t) n) &&
              s_read_head(http, &status, &length, NULL) && status == 200 &&
              length == s_size && s_read_body(http, length, sink);
    double seconds = s_now() - started;
    if (http->fd >= 0)
        close(http->fd);
    free(http);
    free(token);
    return ok ? seconds : -1;
}

//  The raw side: a process that accepts one connection and receives into a
//  new file (fsynced), discards, or sends a file with sendfile.
typedef enum { RAW_TO_FILE, RAW_DISCARD, RAW_SENDFILE } raw_mode_t;

typedef struct {
    int listener;
    raw_mode_t mode;
    char path[800];
    uint64_t size;
    bool ok;
} raw_t;

static void *
s_raw_server(void *arg)
{
    raw_t *raw = arg;
    int fd = accept(raw->listener, NULL, NULL);
    char *buf = raw->mode == RAW_SENDFILE ? NULL : malloc(BENCH_CHUNK);
    int file = -1;
    if (raw->mode == RAW_TO_FILE)
        file = open(raw->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    else if (raw->mode == RAW_SENDFILE)
        file = open(raw->path, O_RDONLY | O_CLOEXEC);
    bool ok = fd >= 0 && (raw->mode == RAW_SENDFILE ? file >= 0 : buf != NULL) &&
              (raw->mode != RAW_TO_FILE || file >= 0);
    uint64_t moved = 0;
    if (ok && raw->mode == RAW_SENDFILE) {
        off_t offset = 0;
        while (ok && moved < raw->size) {
            ssize_t n = sendfile(fd, file, &offset, raw->size - moved);
            ok = n > 0;
            moved += n > 0 ? (uint64_t) n : 0;
        }
    } else {
        //  As a plain server would: write out what each read brings.
        while (ok && moved < raw->size) {
            size_t want =
                raw->size - moved < BENCH_IO ? (size_t) (raw->size - moved) : BENCH_IO;
            ssize_t n = recv(fd, buf, want, 0);
            ok = n > 0;
            if (ok && raw->mode == RAW_TO_FILE)
                ok = s_write_all(file, buf, (size_t) n);
            moved += n > 0 ? (uint64_t) n : 0;
        }
        if (ok && raw->mode == RAW_TO_FILE)
            ok = fsync(file) == 0;
        if (ok)
            ok = s_send_all(fd, "k", 1); //  done: the sender stops its clock
    }
    raw->ok = ok;
    free(buf);
    if (file >= 0)
        close(file);
    if (fd >= 0)
        close(fd);
    return NULL;
}

//  Sends the source file (read in chunks) or receives into sink.
static double
s_raw(raw_mode_t mode, const char *path, char *chunk)
{
    raw_t raw = {.mode = mode, .size = s_size};
    snprintf(raw.path, sizeof raw.path, "%s", path);
    int port;
    raw.listener = s_listen(&port);
    //  The server is a process of its own, as the storage-proxy is.
    pid_t pid = raw.listener < 0 ? -1 : fork();
    if (pid == 0) {
        s_raw_server(&raw);
        _exit(raw.ok ? 0 : 1);
    }
    if (pid < 0)
        return -1;
    double started = s_now();
    int fd = s_connect(port);
    bool ok = fd >= 0;
    if (mode == RAW_SENDFILE) {
        uint64_t got = 0;
        while (ok && got < s_size) {
            ssize_t n = recv(fd, chunk, BENCH_IO, 0);
            ok = n > 0;
            got += n > 0 ? (uint64_t) n : 0;
        }
    } else {
        int src = mode == RAW_TO_FILE ? open(s_source, O_RDONLY | O_CLOEXEC) : -1;
        ok = ok && (mode != RAW_TO_FILE || src >= 0);
        for (uint64_t offset = 0; ok && offset < s_size;) {
            size_t len =
                s_size - offset < BENCH_CHUNK ? (size_t) (s_size - offset) : BENCH_CHUNK;
            ok = (src < 0 || s_pread_all(src, chunk, len, offset)) &&
                 s_send_all(fd, chunk, len);
            offset += len;
        }
        char ack;
        ok = ok && recv(fd, &ack, 1, 0) == 1;
        if (src >= 0)
            close(src);
    }
    double seconds = s_now() - started;
    if (fd >= 0)
        close(fd);
    int status = -1;
    waitpid(pid, &status, 0);
    close(raw.listener);
    return ok && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? seconds : -1;
}

//  ---------------------------------------------------------------------------
//  Set-up and the listing

static int
s_call(const char *method, bus_writer_t *writer, zchunk_t **reply_p)
{
    bus_error_t err = {0};
    int rc = writer ? bus_rpc_client_call_sync(s_client, method, bus_writer_data(writer),
                                               bus_writer_size(writer), BENCH_CALL_MS,
                                               reply_p, &err)
                    : BUS_STATUS_INTERNAL;
    if (rc != BUS_OK)
        fprintf(stderr, "bench_storage: %s: %s\n", method, err.detail);
    bus_writer_destroy(&writer);
    return rc;
}

static void
s_start(void)
{
    const char *base = getenv("BENCH_DIR");
    if (!base || !*base)
        base = "/tmp";
    char template[600];
    snprintf(template, sizeof template, "%s/backplane-bench-storage-XXXXXX", base);
    s_dir = strdup(template);
    if (!s_dir || !mkdtemp(s_dir))
        s_die("cannot make the bench directory");
    char volume[700], secret[700];
    snprintf(volume, sizeof volume, "%s/volume", s_dir);
    snprintf(secret, sizeof secret, "%s/secret", s_dir);
    FILE *f = fopen(secret, "w");
    if (mkdir(volume, 0755) != 0 || !f || fputs(BENCH_SECRET, f) < 0 || fclose(f) != 0)
        s_die("cannot make the volume or the secret");
    char state[700], volumes[800], secret_opt[800];
    snprintf(state, sizeof state, "node.state_dir=%s/state", s_dir);
    snprintf(volumes, sizeof volumes, "storage.volumes=bench=local:%s", volume);
    snprintf(secret_opt, sizeof secret_opt, "http.token_secret_file=%s", secret);
    const char *args[] = {"--set", state,
                          "--set", volumes,
                          "--set", secret_opt,
                          "--set", "http.listen=127.0.0.1:0",
                          "--set", "storage.scan_ms=600000",
                          "--set", "bus.hub.host=true",
                          "--set", "bus.hub.publish=tcp://127.0.0.1:*",
                          "--set", "bus.hub.subscribe=tcp://127.0.0.1:*",
                          "--set", "bus.hub.registry=tcp://127.0.0.1:*",
                          "--set", "bus.rpc_timeout_ms=120000",
                          NULL};
    char line[HARNESS_LINE_MAX], url[256], rpc[256];
    if (harness_start(&s_sp, s_dir, "storage-proxy", "storage-proxy", args) != 0 ||
        !harness_wait_line(&s_sp, "ready ", BENCH_READY_MS, line, sizeof line) ||
        !harness_field(line, "url", url, sizeof url) ||
        !harness_field(line, "rpc", rpc, sizeof rpc))
        s_die("the storage-proxy did not start");
    s_port = atoi(strrchr(url, ':') + 1);
    s_client = bus_rpc_client_new(rpc, "bench/storage", NULL);
    proto_storage_folder_create_req_t in;
    proto_storage_folder_create_req_init(&in);
    in.volume = "bench";
    in.id = BENCH_FOLDER;
    bus_writer_t *writer = bus_writer_new();
    if (proto_storage_folder_create_req_write(&in, writer) != 0)
        s_die("cannot write the create request");
    if (!s_client || s_call(PROTO_STORAGE_FOLDER_CREATE, writer, NULL) != BUS_OK)
        s_die("cannot create the folder");
    snprintf(s_folder_root, sizeof s_folder_root, "%s/%.2s/%s", volume, BENCH_FOLDER,
             BENCH_FOLDER);
}

//  The source file: s_size bytes of xorshift output.
static void
s_make_source(char *chunk)
{
    snprintf(s_source, sizeof s_source, "%s/source.bin", s_dir);
    int fd = open(s_source, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        s_die("cannot make the source file");
    uint64_t x = 88172645463325252ull;
    for (uint64_t done = 0; done < s_size;) {
        size_t len = s_size - done < BENCH_CHUNK ? (size_t) (s_size - done) : BENCH_CHUNK;
        uint64_t *words = (uint64_t *) chunk;
        for (size_t i = 0; i < len / 8; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            words[i] = x;
        }
        if (!s_write_all(fd, chunk, len))
            s_die("cannot write the source file");
        done += len;
    }
    fsync(fd);
    close(fd);
}

//  Lists "many" page by page with limit; the milliseconds, or -1.
static double
s_list(uint64_t limit, uint64_t *entries_p)
{
    char cursor[300] = "";
    uint64_t entries = 0;
    bool more = true;
    double started = s_now();
    while (more) {
        proto_storage_files_list_req_t in;
        proto_storage_files_list_req_init(&in);
        in.id = BENCH_FOLDER;
        in.path = "many";
        in.cursor = cursor;
        in.limit = limit;
        bus_writer_t *writer = bus_writer_new();
        if (proto_storage_files_list_req_write(&in, writer) != 0)
            s_die("cannot write the list request");
        zchunk_t *reply = NULL;
        if (s_call(PROTO_STORAGE_FILES_LIST, writer, &reply) != BUS_OK)
            return -1;
        proto_storage_files_list_rep_t rep;
        bus_error_t err = {0};
        int rc = proto_storage_files_list_rep_decode(&rep, zchunk_data(reply),
                                                     zchunk_size(reply), &err);
        zchunk_destroy(&reply);
        if (rc != BUS_OK)
            return -1;
        entries += rep.entries_count;
        more = rep.more;
        if (more)
            snprintf(cursor, sizeof cursor, "%s", rep.cursor ? rep.cursor : "");
        proto_storage_files_list_rep_clear(&rep);
    }
    *entries_p = entries;
    return (s_now() - started) * 1000;
}

static double
s_best(double a, double b)
{
    return a < 0 ? b : b < 0 ? a : a < b ? a : b;
}

static double
s_rate(double seconds)
{
    return seconds > 0 ? (double) s_size / BENCH_MIB / seconds : 0;
}

int
main(void)
{
    const char *mb = getenv("BENCH_MB");
    s_size = (uint64_t) (mb && *mb ? atoll(mb) : BENCH_MB_DEFAULT) << 20;
    char *chunk = malloc(BENCH_CHUNK);
    if (!chunk || s_size == 0)
        s_die("bad BENCH_MB or no memory");
    s_start();
    s_make_source(chunk);
    printf("storage bench: %" PRIu64 " MiB file, %d rounds, 16 MiB chunks, volume %s\n",
           s_size >> 20, BENCH_ROUNDS, s_dir);
    double up = -1, raw_up = -1, down = -1, raw_down = -1, socket = -1;
    for (int round = 0; round < BENCH_ROUNDS; round++) {
        char name[64], raw_copy[900];
        snprintf(name, sizeof name, "upload-%d.bin", round);
        snprintf(raw_copy, sizeof raw_copy, "%s/raw-copy-%d.bin", s_folder_root, round);
        double u = s_upload(name, chunk);
        double r = s_raw(RAW_TO_FILE, raw_copy, chunk);
        double d = s_download(name, chunk);
        char path[900];
        snprintf(path, sizeof path, "%s/%s", s_folder_root, name);
        double rd = s_raw(RAW_SENDFILE, path, chunk);
        double m = s_raw(RAW_DISCARD, "", chunk);
        if (u < 0 || r < 0 || d < 0 || rd < 0 || m < 0)
            s_die("a transfer failed");
        printf("  round %d: upload %.0f MiB/s, raw %.0f; download %.0f MiB/s, raw %.0f; "
               "socket %.0f\n",
               round + 1, s_rate(u), s_rate(r), s_rate(d), s_rate(rd), s_rate(m));
        fflush(stdout);
        up = s_best(up, u);
        raw_up = s_best(raw_up, r);
        down = s_best(down, d);
        raw_down = s_best(raw_down, rd);
        socket = s_best(socket, m);
        unlink(path); //  keep the volume from filling
        unlink(raw_copy);
    }
    double upload_ratio = s_rate(up) / s_rate(raw_up);
    double download_ratio = s_rate(down) / s_rate(raw_down);
    printf(
        "upload:   storage-proxy %.0f MiB/s, raw TCP to a file %.0f MiB/s, ratio %.2f\n",
        s_rate(up), s_rate(raw_up), upload_ratio);
    printf(
        "download: storage-proxy %.0f MiB/s, raw TCP sendfile %.0f MiB/s, ratio %.2f\n",
        s_rate(down), s_rate(raw_down), download_ratio);
    printf("plain loopback socket, memory to memory: %.0f MiB/s\n", s_rate(socket));
    //  100,000 files in one directory, made on the host.
    char dir[900];
    snprintf(dir, sizeof dir, "%s/many", s_folder_root);
    if (mkdir(dir, 0755) != 0)
        s_die("cannot make the listing directory");
    int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    for (int i = 0; dirfd >= 0 && i < BENCH_LIST_FILES; i++) {
        char name[32];
        snprintf(name, sizeof name, "file-%06d.dat", i);
        int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0)
            s_die("cannot make the listing files");
        close(fd);
    }
    if (dirfd >= 0)
        close(dirfd);
    harness_pause_ms(BENCH_SETTLE_MS); //  a directory nobody is writing to
    uint64_t entries = 0, entries_one = 0;
    double list_ms = s_list(0, &entries);
    double one_ms = s_list(BENCH_LIST_FILES, &entries_one);
    if (list_ms < 0 || one_ms < 0 || entries != BENCH_LIST_FILES ||
        entries_one != BENCH_LIST_FILES)
        s_die("the listing failed");
    printf("list of %d files: %.0f ms in pages of 1000, %.0f ms in one page\n",
           BENCH_LIST_FILES, list_ms, one_ms);
    bus_rpc_client_destroy(&s_client);
    int status = harness_stop(&s_sp, BENCH_STOP_MS);
    if (getenv("BENCH_KEEP"))
        fprintf(stderr, "bench_storage: directory kept: %s\n", s_dir);
    else
        nftw(s_dir, s_remove, 16, FTW_DEPTH | FTW_PHYS);
    free(s_dir);
    free(chunk);
    printf("storage: upload_ratio=%.2f download_ratio=%.2f list_100k_ms=%.0f\n",
           upload_ratio, download_ratio, list_ms);
    return status == 0 ? 0 : 1;
}
