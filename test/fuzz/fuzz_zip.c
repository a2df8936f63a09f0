/*  =========================================================================
    fuzz_zip - libFuzzer target for what storage.files.fetch reads from
    the internet: archives (sp_zip) and the HTTP client's input
    (sp_fetch_http: response heads, chunked bodies, URLs and redirects)

    The input is an archive, whole: sp_zip_open reads it from a memfd with
    small limits, and every entry is extracted to nowhere (-1: checked,
    not written). The promises, beyond not crashing: an opened archive has
    at most the entries allowed; every name is a normalised relative path
    (no leading '/', no "..", no empty component, no backslash); an entry
    extracted is exactly its declared size (the reader refuses otherwise).
    The same bytes are then a response head, a chunked body (its data
    never longer than its input), a URL and a Location resolved against a
    fixed URL: each parsed or refused, and a URL parsed is http or https
    with a host and a target starting with '/'. Any broken promise aborts.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include <sys/mman.h> //  memfd_create
#include "../../services/storage-proxy/sp_fs.h"
#include "../../services/storage-proxy/sp_zip.h"
#include "../../services/storage-proxy/sp_fetch_http.h"

#define FUZZ_ZIP_ENTRIES 64
#define FUZZ_ZIP_BYTES   (1 << 20)

static void
s_check(bool condition)
{
    if (!condition)
        abort();
}

static void
s_archive(const uint8_t *data, size_t size)
{
    int fd = memfd_create("fuzz_zip", MFD_CLOEXEC);
    if (fd < 0)
        return;
    if (sp_fs_write_all(fd, data, size, NULL) != 0) {
        close(fd);
        return;
    }
    sp_zip_limits_t limits = {FUZZ_ZIP_ENTRIES, FUZZ_ZIP_BYTES};
    bus_error_t err = {0};
    sp_zip_t *zip = sp_zip_open(fd, size, &limits, &err);
    if (zip) {
        s_check(sp_zip_count(zip) <= FUZZ_ZIP_ENTRIES);
        for (size_t i = 0; i < sp_zip_count(zip); i++) {
            const sp_zip_entry_t *e = sp_zip_at(zip, i);
            s_check(e->name && *e->name && e->name[0] != '/' && !strstr(e->name, "//") &&
                    !strchr(e->name, '\\'));
            s_check(strcmp(e->name, "..") != 0 && strncmp(e->name, "../", 3) != 0 &&
                    !strstr(e->name, "/../") &&
                    (strlen(e->name) < 3 ||
                     strcmp(e->name + strlen(e->name) - 3, "/..") != 0));
            s_check(e->usize <= FUZZ_ZIP_BYTES);
            sp_zip_extract(zip, i, -1, &err);
        }
        sp_zip_destroy(&zip);
    } else
        s_check(err.status != BUS_OK);
    close(fd);
}

static void
s_http(const uint8_t *data, size_t size)
{
    sp_fetch_head_t head;
    bus_error_t err = {0};
    long n = sp_fetch_head_parse((const char *) data, size, &head, &err);
    s_check(n <= (long) size);
    if (n > 0)
        s_check(head.status >= 100 && head.status <= 599);
    sp_fetch_chunked_t chunked = {0};
    size_t at = 0, out = 0;
    while (at < size) {
        size_t used = 0, dlen = 0;
        const uint8_t *d = NULL;
        int rc = sp_fetch_chunked_step(&chunked, data + at, size - at, &used, &d, &dlen);
        if (rc < 0)
            break;
        s_check(used <= size - at &&
                (!dlen || (d >= data + at && d + dlen <= data + at + used)));
        out += dlen;
        at += used;
        if (rc == 1 || used == 0)
            break;
    }
    s_check(out <= size);
    char text[SP_FETCH_URL_MAX + 1];
    sp_fetch_url_t url, base;
    if (sp_fetch_url_parse((const char *) data, size, &url, &err) == 0) {
        s_check(url.host[0] && url.target[0] == '/' && url.port > 0);
        s_check(sp_fetch_url_format(&url, text, sizeof text) == 0 ||
                strlen(url.target) > SP_FETCH_URL_MAX - 16);
    }
    s_check(sp_fetch_url_parse("http://example.com:8080/a/b?c", 29, &base, &err) == 0);
    if (sp_fetch_url_resolve(&base, (const char *) data, size, text, &err) == 0)
        s_check(strlen(text) <= SP_FETCH_URL_MAX);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    s_archive(data, size);
    s_http(data, size);
    return 0;
}
