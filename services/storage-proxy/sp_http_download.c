/*  =========================================================================
    sp_http_download - the download route of the storage-proxy's HTTP
    endpoint

    The token names a file of a folder. It is opened through sp_fs (so the
    path is confined beneath the folder's root and only a regular file is
    opened), stat'ed once for its size, Last-Modified and ETag (size and
    mtime in nanoseconds), and its bytes go out with sendfile after the
    answer's head (sp_http_conn_send_file). A Range is honoured when there
    is no If-Range or it names the file as it is now.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"
#include <sys/stat.h> //  fstat: a download's size and mtime

//  Content-Disposition for the file's name, as aiohttp's FileResponse
//  writes it: an ASCII fallback and the UTF-8 name percent-encoded.
static void
s_disposition(sp_http_conn_t *conn, const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    size_t len = strlen(name);
    char *ascii = malloc(len + 1);
    char *encoded = malloc(len * 3 + 1);
    if (ascii && encoded) {
        size_t e = 0;
        for (size_t i = 0; i < len; i++) {
            unsigned char ch = (unsigned char) name[i];
            ascii[i] =
                ch < 0x20 || ch >= 0x7f || ch == '"' || ch == '\\' ? '_' : (char) ch;
            if (isalnum(ch) || strchr("!#$&+-.^_`|~", ch))
                encoded[e++] = (char) ch;
            else
                e += (size_t) snprintf(encoded + e, 4, "%%%02X", ch);
        }
        ascii[len] = '\0';
        encoded[e] = '\0';
        //  A name too long for the header block gets the fallback alone.
        if (len * 4 + 64 < SP_HTTP_EXTRA_MAX / 2)
            sp_http_conn_add(
                conn,
                "Content-Disposition: attachment; filename=\"%s\"; filename*=UTF-8''%s",
                ascii, encoded);
        else
            sp_http_conn_add(conn, "Content-Disposition: attachment");
    }
    free(ascii);
    free(encoded);
}

//  Opens the regular file claims name in folder for reading, with st
//  filled. The descriptor, or -1 with err.
static int
s_open(sp_http_t *http,
       const sp_folder_t *folder,
       const bus_token_claims_t *claims,
       struct stat *st,
       bus_error_t *err)
{
    sp_fs_info_t info;
    uint64_t size = 0;
    int fd = -1;
    sp_fs_t *fs = sp_folders_open(sp_http_folders(http), folder, err);
    if (fs && sp_fs_stat(fs, claims->path, strlen(claims->path), &info, err) == 0) {
        if (info.type == SP_FS_DIR)
            bus_error_set(err, BUS_STATUS_INVALID,
                          "%s is a directory: only files can be downloaded (archives "
                          "of directories are not supported)",
                          *claims->path ? claims->path : ".");
        else
            fd = sp_fs_open_read(fs, claims->path, strlen(claims->path), &size, err);
    }
    sp_fs_destroy(&fs);
    if (fd >= 0 && fstat(fd, st) != 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "stat: %s", strerror(errno));
        close(fd);
        fd = -1;
    }
    return fd;
}

void
sp_http_download_route(sp_http_t *http, sp_http_conn_t *conn, struct evkeyvalq *query)
{
    assert(http && conn && query);
    const char *method = sp_http_conn_request(conn)->method;
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
        sp_http_conn_add(conn, "Allow: GET, HEAD");
        sp_http_conn_problem(conn, 405, "method-not-allowed", "HTTP Method Not Allowed.",
                             NULL);
        return;
    }
    bus_token_claims_t claims;
    sp_folder_t folder;
    if (!sp_http_authorize(http, conn, query, BUS_TOKEN_DOWNLOAD, &claims, &folder))
        return;
    bus_error_t err = {0};
    struct stat st;
    int fd = s_open(http, &folder, &claims, &st, &err);
    if (fd < 0) {
        if (err.status == BUS_STATUS_NOT_FOUND)
            sp_http_conn_problem(conn, 404, "object-not-found", "No such file.",
                                 err.detail);
        else
            sp_http_conn_problem_for(conn, &err);
        return;
    }
    uint64_t size = (uint64_t) st.st_size; //  what is there now
    char modified[64], etag[64];
    struct tm tm;
    gmtime_r(&st.st_mtime, &tm);
    strftime(modified, sizeof modified, "%a, %d %b %Y %H:%M:%S GMT", &tm);
    snprintf(etag, sizeof etag, "\"%" PRIx64 "-%" PRIx64 "\"", size,
             (uint64_t) st.st_mtim.tv_sec * 1000000000u + (uint64_t) st.st_mtim.tv_nsec);
    uint64_t start = 0, len = size;
    const char *if_range = sp_http_conn_header(conn, "If-Range");
    sp_http_range_t range = SP_HTTP_RANGE_NONE;
    if (!if_range || strcmp(if_range, modified) == 0 || strcmp(if_range, etag) == 0)
        range = sp_http_range(sp_http_conn_header(conn, "Range"), size, &start, &len);
    if (range == SP_HTTP_RANGE_UNSATISFIABLE) {
        close(fd);
        sp_http_conn_add(conn, "Content-Range: bytes */%" PRIu64, size);
        sp_http_conn_problem(conn, 416, "range-not-satisfiable", "Range Not Satisfiable.",
                             "the range starts past the end of the file");
        return;
    }
    sp_http_conn_add(conn, "Accept-Ranges: bytes");
    sp_http_conn_add(conn, "Last-Modified: %s", modified);
    sp_http_conn_add(conn, "ETag: %s", etag);
    s_disposition(conn, claims.path);
    if (range == SP_HTTP_RANGE_ONE)
        sp_http_conn_add(conn, "Content-Range: bytes %" PRIu64 "-%" PRIu64 "/%" PRIu64,
                         start, start + len - 1, size);
    sp_http_conn_send_file(conn, fd, start, len);
    int status = range == SP_HTTP_RANGE_ONE ? 206 : 200;
    sp_http_conn_answer(conn, status, "application/octet-stream", NULL, len);
    bus_log_info("download folder=%s bytes=%" PRIu64 " status=%d", folder.id, len,
                 status);
}
