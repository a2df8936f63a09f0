/*  =========================================================================
    sp_fetch_test - the pure half of storage.files.fetch: URLs and their
    refusals, redirects' Location, response heads, chunked bodies, the
    addresses fetch.allow_private guards, and sp_zip on good and hostile
    archives (the archives made by test/zipw.h)

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"
#include <arpa/inet.h>
#include <sys/mman.h> //  memfd_create: an archive in memory
#include "t.h"
#include "zipw.h"

static int
s_parse(const char *url, sp_fetch_url_t *u, bus_error_t *err)
{
    return sp_fetch_url_parse(url, strlen(url), u, err);
}

static void
test_url(void)
{
    sp_fetch_url_t u;
    bus_error_t err = {0};
    T_EQ_INT(s_parse("https://raw.githubusercontent.com/a/b/main/x.ipynb", &u, &err), 0);
    T_ASSERT(u.tls);
    T_EQ_INT(u.port, 443);
    T_EQ_STR(u.host, "raw.githubusercontent.com");
    T_EQ_STR(u.target, "/a/b/main/x.ipynb");
    T_EQ_INT(s_parse("HTTP://Example.COM:8080?q=1#frag", &u, &err), 0);
    T_ASSERT(!u.tls);
    T_EQ_INT(u.port, 8080);
    T_EQ_STR(u.host, "example.com");
    T_EQ_STR(u.target, "/?q=1");
    T_EQ_INT(s_parse("http://[::1]:81/x", &u, &err), 0);
    T_ASSERT(u.ipv6);
    T_EQ_STR(u.host, "::1");
    char text[SP_FETCH_URL_MAX + 1];
    T_EQ_INT(sp_fetch_url_format(&u, text, sizeof text), 0);
    T_EQ_STR(text, "http://[::1]:81/x");
    const char *refused[] = {"ftp://example.com/x",
                             "file:///etc/passwd",
                             "http://user:pw@example.com/",
                             "http://@example.com/",
                             "http:///x",
                             "http://exa mple.com/",
                             "http://example.com:0/",
                             "http://example.com:65536/",
                             "http://example.com:/",
                             "http://ex%41mple.com/",
                             "javascript:alert(1)",
                             "http://[::1/",
                             "//example.com/x",
                             "http://example.com/\x01",
                             "gopher://x/",
                             ""};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        err = (bus_error_t){0};
        T_EQ_INT(s_parse(refused[i], &u, &err), -1);
        T_EQ_INT(err.status, BUS_STATUS_INVALID);
    }
    T_EQ_INT(s_parse("ftp://example.com/x", &u, &err), -1);
    T_CONTAINS(err.detail, "http");
    T_EQ_INT(s_parse("http://u:p@example.com/", &u, &err), -1);
    T_CONTAINS(err.detail, "user information");
}

static void
test_resolve(void)
{
    sp_fetch_url_t u;
    bus_error_t err = {0};
    char out[SP_FETCH_URL_MAX + 1];
    T_EQ_INT(s_parse("http://h:8/a/b/c?x=1", &u, &err), 0);
    T_EQ_INT(sp_fetch_url_resolve(&u, "/d", 2, out, &err), 0);
    T_EQ_STR(out, "http://h:8/d");
    T_EQ_INT(sp_fetch_url_resolve(&u, "d/e", 3, out, &err), 0);
    T_EQ_STR(out, "http://h:8/a/b/d/e");
    T_EQ_INT(sp_fetch_url_resolve(&u, "?y", 2, out, &err), 0);
    T_EQ_STR(out, "http://h:8/a/b/c?y");
    T_EQ_INT(sp_fetch_url_resolve(&u, "//other/x", 9, out, &err), 0);
    T_EQ_STR(out, "http://other/x");
    T_EQ_INT(sp_fetch_url_resolve(&u, "ftp://x/y", 9, out, &err), 0);
    T_EQ_STR(out, "ftp://x/y"); //  and the parse of it refuses it
    T_EQ_INT(s_parse(out, &u, &err), -1);
    T_EQ_INT(sp_fetch_url_resolve(&u, "", 0, out, &err), -1);
}

static void
test_head(void)
{
    sp_fetch_head_t h;
    bus_error_t err = {0};
    const char *ok =
        "HTTP/1.1 302 Found\r\nLocation: /next\r\nContent-Length: 0\r\n\r\nX";
    T_EQ_INT(sp_fetch_head_parse(ok, strlen(ok), &h, &err), (long) strlen(ok) - 1);
    T_EQ_INT(h.status, 302);
    T_EQ_STR(h.location, "/next");
    T_EQ_INT(h.content_length, 0);
    const char *chunked = "HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n"
                          "content-length: 5\r\n\r\n";
    T_ASSERT(sp_fetch_head_parse(chunked, strlen(chunked), &h, &err) > 0);
    T_ASSERT(h.chunked);
    T_EQ_INT(h.content_length, -1);
    T_EQ_INT(sp_fetch_head_parse("HTTP/1.1 200 OK\r\n", 17, &h, &err), 0);
    const char *bad[] = {
        "HTTP/2 200 OK\r\n\r\n",
        "HTTP/1.1 20 OK\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
        "HTTP/1.1 200 OK\r\n folded\r\n\r\n",
        "HTTP/1.1 200 OK\r\nX: a\rb\r\n\r\n"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        T_EQ_INT(sp_fetch_head_parse(bad[i], strlen(bad[i]), &h, &err), -1);
    char *huge = malloc(SP_FETCH_HEAD_MAX + 10);
    memset(huge, 'a', SP_FETCH_HEAD_MAX + 10);
    T_EQ_INT(sp_fetch_head_parse(huge, SP_FETCH_HEAD_MAX + 10, &h, &err), -1);
    free(huge);
}

//  Decodes body whole, fed in pieces of step bytes; the data into out.
static int
s_chunked(const char *body, size_t step, char *out, size_t *out_len)
{
    sp_fetch_chunked_t c = {0};
    size_t len = strlen(body), at = 0;
    *out_len = 0;
    while (at < len) {
        size_t piece = len - at < step ? len - at : step, used = 0, dlen;
        const uint8_t *data;
        size_t off = 0;
        while (off < piece) {
            int rc = sp_fetch_chunked_step(&c, (const uint8_t *) body + at + off,
                                           piece - off, &used, &data, &dlen);
            if (rc < 0)
                return -1;
            if (dlen)
                memcpy(out + *out_len, data, dlen);
            *out_len += dlen;
            off += used;
            if (rc == 1)
                return 1;
        }
        at += piece;
    }
    return 0;
}

static void
test_chunked(void)
{
    char out[256];
    size_t n;
    const char *body =
        "5\r\nhello\r\n1;ext=1\r\n \r\nA\r\n0123456789\r\n0\r\nX-T: 1\r\n\r\n";
    for (size_t step = 1; step < 8; step++) {
        T_EQ_INT(s_chunked(body, step, out, &n), 1);
        T_EQ_INT(n, 16);
        T_ASSERT(memcmp(out, "hello 0123456789", 16) == 0);
    }
    T_EQ_INT(s_chunked("5\r\nhelloX\r\n", 100, out, &n), -1);
    T_EQ_INT(s_chunked("\r\n", 100, out, &n), -1);
    T_EQ_INT(s_chunked("fffffffffffffffff\r\n", 100, out, &n), -1);
    T_EQ_INT(s_chunked("3\r\nab", 100, out, &n), 0); //  more needed
}

static bool
s_private(const char *text)
{
    struct sockaddr_storage ss = {0};
    if (strchr(text, ':')) {
        struct sockaddr_in6 *a = (struct sockaddr_in6 *) &ss;
        a->sin6_family = AF_INET6;
        inet_pton(AF_INET6, text, &a->sin6_addr);
    } else {
        struct sockaddr_in *a = (struct sockaddr_in *) &ss;
        a->sin_family = AF_INET;
        inet_pton(AF_INET, text, &a->sin_addr);
    }
    return sp_fetch_addr_private(&ss);
}

static void
test_addresses(void)
{
    const char *private[] = {"127.0.0.1",       "10.1.2.3",    "172.16.0.1",
                             "172.31.255.255",  "192.168.1.1", "169.254.169.254",
                             "0.0.0.0",         "100.64.0.1",  "224.0.0.1",
                             "255.255.255.255", "::1",         "::",
                             "fe80::1",         "fd00::1",     "::ffff:127.0.0.1",
                             "ff02::1"};
    const char *public[] = {"140.82.112.3", "8.8.8.8", "172.32.0.1", "2606:4700::1111",
                            "::ffff:8.8.8.8"};
    for (size_t i = 0; i < sizeof private / sizeof *private; i++)
        T_ASSERT(s_private(private[i]));
    for (size_t i = 0; i < sizeof public / sizeof *public; i++)
        T_ASSERT(!s_private(public[i]));
}

//  An archive of entries in a memfd; *zip_p opened with limits, or NULL.
static int
s_zip(const zipw_entry_t *entries,
      size_t count,
      uint64_t max_entries,
      uint64_t max_bytes,
      sp_zip_t **zip_p,
      bus_error_t *err)
{
    size_t size;
    uint8_t *data = zipw_build(entries, count, &size);
    int fd = memfd_create("zip", MFD_CLOEXEC);
    if (fd < 0 || write(fd, data, size) != (ssize_t) size)
        abort();
    free(data);
    sp_zip_limits_t limits = {max_entries, max_bytes};
    *zip_p = sp_zip_open(fd, size, &limits, err);
    return fd;
}

static void
test_zip(void)
{
    static const char text[] = "print('hello')\nprint('hello')\nprint('hello')\n";
    zipw_entry_t good[] = {
        {"repo-main/", NULL, 0, 0, 040755},
        {"repo-main/a/b/c.py", text, sizeof text - 1, 8, 0100755},
        {"repo-main/./README", "hi", 2, 0, 0},
        {"repo-main/link", "../../etc", 9, 0, 0120777},
    };
    bus_error_t err = {0};
    sp_zip_t *zip = NULL;
    int fd = s_zip(good, 4, 100, 1 << 20, &zip, &err);
    T_ASSERT(zip != NULL);
    T_EQ_INT(sp_zip_count(zip), 4);
    T_ASSERT(sp_zip_at(zip, 0)->dir);
    T_EQ_STR(sp_zip_at(zip, 0)->name, "repo-main");
    T_EQ_STR(sp_zip_at(zip, 2)->name, "repo-main/README");
    T_EQ_INT(sp_zip_at(zip, 1)->mode, 0755);
    T_ASSERT(sp_zip_at(zip, 3)->symlink);
    int out = memfd_create("out", MFD_CLOEXEC);
    T_EQ_INT(sp_zip_extract(zip, 1, out, &err), 0);
    char back[128] = {0};
    T_EQ_INT(pread(out, back, sizeof back, 0), (ssize_t) sizeof text - 1);
    T_EQ_STR(back, text);
    close(out);
    sp_zip_destroy(&zip);
    sp_zip_destroy(&zip); //  twice is harmless
    close(fd);
    //  Limits: entries and declared bytes.
    fd = s_zip(good, 4, 3, 1 << 20, &zip, &err);
    T_ASSERT(!zip);
    T_CONTAINS(err.detail, "more than 3");
    close(fd);
    fd = s_zip(good, 4, 100, 10, &zip, &err);
    T_ASSERT(!zip);
    T_CONTAINS(err.detail, "more than 10 bytes");
    close(fd);
    //  Hostile names.
    const char *names[] = {
        "../evil", "a/../../evil", "/etc/passwd", "a\\b", "a//b", "dir/\x01x", ""};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        zipw_entry_t bad[] = {{"ok.txt", "x", 1, 0, 0}, {names[i], "x", 1, 0, 0}};
        err = (bus_error_t){0};
        fd = s_zip(bad, 2, 100, 1 << 20, &zip, &err);
        T_ASSERT(!zip);
        T_EQ_INT(err.status, BUS_STATUS_INVALID);
        close(fd);
    }
    zipw_entry_t dup[] = {{"a/b", "x", 1, 0, 0}, {"a/./b", "y", 1, 0, 0}};
    fd = s_zip(dup, 2, 100, 1 << 20, &zip, &err);
    T_ASSERT(!zip);
    T_CONTAINS(err.detail, "twice");
    close(fd);
    //  Not an archive, and a truncated one.
    size_t size;
    uint8_t *data = zipw_build(good, 4, &size);
    fd = memfd_create("zip", MFD_CLOEXEC);
    T_EQ_INT(write(fd, data, size - 5), (ssize_t) size - 5);
    sp_zip_limits_t limits = {100, 1 << 20};
    zip = sp_zip_open(fd, size - 5, &limits, &err);
    T_ASSERT(!zip);
    close(fd);
    //  A flipped byte in the deflated data: refused when read, never more.
    data[30 + strlen("repo-main/") + 30 + strlen("repo-main/a/b/c.py") + 3] ^= 0x55;
    fd = memfd_create("zip", MFD_CLOEXEC);
    T_EQ_INT(write(fd, data, size), (ssize_t) size);
    zip = sp_zip_open(fd, size, &limits, &err);
    T_ASSERT(zip != NULL);
    T_EQ_INT(sp_zip_extract(zip, 1, -1, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    sp_zip_destroy(&zip);
    close(fd);
    free(data);
}

int
main(void)
{
    T_RUN(test_url);
    T_RUN(test_resolve);
    T_RUN(test_head);
    T_RUN(test_chunked);
    T_RUN(test_addresses);
    T_RUN(test_zip);
    return T_DONE();
}
