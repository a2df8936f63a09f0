/*  =========================================================================
    ttyd_test - backplane-ttyd: its pure parts, then the real binary

    The pure parts: SHA-1 and the handshake key against RFC 3174 and RFC
    6455's example, frames (fragments joined, control frames between them,
    every protocol error with its close code, a partial frame left for
    later, back-pressure stopping the reader), ttyd's messages and their
    JSON, request heads. Then backplane-ttyd itself (from BACKPLANE_BINDIR
    or next to this test), on an ephemeral port, driven over loopback as a
    browser would: the page and xterm.js, the upgrade with "tty", the hello
    and `echo $((6*7))` answered with 42, the title and preferences, a
    resize seen by stty, two clients with two shells, a client that
    vanishes (its shell is hung up), a shell that exits (close 1000), a
    slow reader whose shell is held back, broken frames (1002, the server
    lives on), and SIGTERM (exit 0).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "ttyd_classes.h"
#include <libgen.h>
#include "t.h"

#define S_WAIT_MS 10000

//  ---------------------------------------------------------------------------
//  Pure parts

static void
test_sha1(void)
{
    uint8_t digest[20];
    char hex[41];
    ttyd_sha1("abc", 3, digest);
    for (int i = 0; i < 20; i++)
        snprintf(hex + 2 * i, 3, "%02x", digest[i]);
    T_EQ_STR(hex, "a9993e364706816aba3e25717850c26c9cd0d89d");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    ttyd_sha1(two, strlen(two), digest);
    for (int i = 0; i < 20; i++)
        snprintf(hex + 2 * i, 3, "%02x", digest[i]);
    T_EQ_STR(hex, "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
    char b64[16];
    ttyd_base64((const uint8_t *) "ab", 2, b64);
    T_EQ_STR(b64, "YWI=");
    char accept[32];
    //  RFC 6455 section 1.3's example.
    T_EQ_INT(ttyd_ws_accept("dGhlIHNhbXBsZSBub25jZQ==", accept), 0);
    T_EQ_STR(accept, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    T_EQ_INT(ttyd_ws_accept("short", accept), -1);
    T_EQ_INT(ttyd_ws_accept("dGhlIHNhbXBsZSBub25jZQ!=", accept), -1);
    T_EQ_INT(ttyd_ws_accept(NULL, accept), -1);
}

//  A masked client frame into out; its length.
static size_t
s_frame(uint8_t *out, int first_byte, const void *payload, size_t size)
{
    static const uint8_t mask[4] = {0x12, 0x34, 0x56, 0x78};
    size_t n = 0;
    out[n++] = (uint8_t) first_byte;
    if (size < 126)
        out[n++] = (uint8_t) (0x80 | size);
    else if (size <= 0xFFFF) {
        out[n++] = 0x80 | 126;
        out[n++] = (uint8_t) (size >> 8);
        out[n++] = (uint8_t) size;
    } else {
        out[n++] = 0x80 | 127;
        for (int i = 7; i >= 0; i--)
            out[n++] = (uint8_t) ((uint64_t) size >> (8 * i));
    }
    memcpy(out + n, mask, 4);
    n += 4;
    for (size_t i = 0; i < size; i++)
        out[n + i] = ((const uint8_t *) payload)[i] ^ mask[i & 3];
    return n + size;
}

typedef struct {
    int opcodes[8];
    char texts[8][64];
    int count;
    int stop_after; //  return 1 after this many
} s_seen_t;

static int
s_on(void *arg, int opcode, const uint8_t *data, size_t size)
{
    s_seen_t *seen = arg;
    if (seen->count < 8) {
        seen->opcodes[seen->count] = opcode;
        snprintf(seen->texts[seen->count], 64, "%.*s", (int) size, data);
    }
    seen->count++;
    return seen->stop_after && seen->count >= seen->stop_after ? 1 : 0;
}

static void
test_frames(void)
{
    uint8_t wire[512];
    size_t n = 0;
    n += s_frame(wire + n, 0x02, "0hel", 4); //  BINARY, not final
    n += s_frame(wire + n, 0x89, "p", 1);    //  a PING between the fragments
    n += s_frame(wire + n, 0x80, "lo", 2);   //  the last CONTINUATION
    n += s_frame(wire + n, 0x81, "3", 1);    //  a whole TEXT
    ttyd_ws_reader_t reader;
    ttyd_ws_reader_init(&reader);
    s_seen_t seen = {0};
    int code = 0;
    //  Byte by byte first: a partial frame is left for later, never misread.
    size_t used = 0;
    for (size_t end = 1; end <= n; end++) {
        long got =
            ttyd_ws_reader_feed(&reader, wire + used, end - used, s_on, &seen, &code);
        T_ASSERT(got >= 0);
        used += (size_t) got;
    }
    T_EQ_INT(used, n);
    T_EQ_INT(seen.count, 3);
    T_EQ_INT(seen.opcodes[0], TTYD_WS_PING);
    T_EQ_STR(seen.texts[0], "p");
    T_EQ_INT(seen.opcodes[1], TTYD_WS_BINARY);
    T_EQ_STR(seen.texts[1], "0hello");
    T_EQ_INT(seen.opcodes[2], TTYD_WS_TEXT);
    ttyd_ws_reader_clear(&reader);

    //  Back-pressure: the callback's 1 leaves the rest unread.
    n = s_frame(wire, 0x82, "01", 2);
    size_t first = n;
    n += s_frame(wire + n, 0x82, "02", 2);
    ttyd_ws_reader_init(&reader);
    s_seen_t stop = {.stop_after = 1};
    T_EQ_INT(ttyd_ws_reader_feed(&reader, wire, n, s_on, &stop, &code), (long) first);
    T_EQ_INT(stop.count, 1);
    ttyd_ws_reader_clear(&reader);

    //  Server frames: the three length forms.
    uint8_t header[10];
    T_EQ_INT(ttyd_ws_header(header, TTYD_WS_BINARY, 5), 2);
    T_EQ_INT(header[0], 0x82);
    T_EQ_INT(header[1], 5);
    T_EQ_INT(ttyd_ws_header(header, TTYD_WS_BINARY, 300), 4);
    T_EQ_INT(header[1], 126);
    T_EQ_INT(header[2] << 8 | header[3], 300);
    T_EQ_INT(ttyd_ws_header(header, TTYD_WS_CLOSE, 70000), 10);
    T_EQ_INT(header[1], 127);
    T_EQ_INT(header[7] << 16 | header[8] << 8 | header[9], 70000);
}

//  Feeds wire to a fresh reader: the close code of its failure, 0 if none.
static int
s_broken(const uint8_t *wire, size_t n)
{
    uint8_t copy[256];
    memcpy(copy, wire, n);
    ttyd_ws_reader_t reader;
    ttyd_ws_reader_init(&reader);
    s_seen_t seen = {0};
    int code = 0;
    long got = ttyd_ws_reader_feed(&reader, copy, n, s_on, &seen, &code);
    ttyd_ws_reader_clear(&reader);
    return got < 0 ? code : 0;
}

static void
test_broken_frames(void)
{
    uint8_t wire[256];
    //  Unmasked.
    const uint8_t unmasked[] = {0x82, 0x01, '0'};
    T_EQ_INT(s_broken(unmasked, sizeof unmasked), TTYD_WS_CLOSE_PROTOCOL);
    //  A reserved bit, an unknown opcode, a fragmented or long control frame.
    T_EQ_INT(s_broken(wire, s_frame(wire, 0xC2, "0", 1)), TTYD_WS_CLOSE_PROTOCOL);
    T_EQ_INT(s_broken(wire, s_frame(wire, 0x83, "0", 1)), TTYD_WS_CLOSE_PROTOCOL);
    T_EQ_INT(s_broken(wire, s_frame(wire, 0x8B, "0", 1)), TTYD_WS_CLOSE_PROTOCOL);
    T_EQ_INT(s_broken(wire, s_frame(wire, 0x09, "0", 1)), TTYD_WS_CLOSE_PROTOCOL);
    char long_ping[126];
    memset(long_ping, 'x', sizeof long_ping);
    T_EQ_INT(s_broken(wire, s_frame(wire, 0x89, long_ping, sizeof long_ping)),
             TTYD_WS_CLOSE_PROTOCOL);
    //  A continuation of nothing; a new message inside a fragmented one.
    T_EQ_INT(s_broken(wire, s_frame(wire, 0x80, "0", 1)), TTYD_WS_CLOSE_PROTOCOL);
    size_t n = s_frame(wire, 0x02, "0", 1);
    n += s_frame(wire + n, 0x82, "0", 1);
    T_EQ_INT(s_broken(wire, n), TTYD_WS_CLOSE_PROTOCOL);
    //  Too big, known from the header alone; a 64-bit length with its top bit.
    const uint8_t big[] = {0x82, 0xFF, 0, 0, 0, 0, 0, 0x10, 0, 0};
    T_EQ_INT(s_broken(big, sizeof big), TTYD_WS_CLOSE_TOO_BIG);
    const uint8_t top[] = {0x82, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 1};
    T_EQ_INT(s_broken(top, sizeof top), TTYD_WS_CLOSE_PROTOCOL);
    //  Fragments that together pass the maximum.
    ttyd_ws_reader_t reader;
    ttyd_ws_reader_init(&reader);
    size_t chunk = TTYD_MESSAGE_MAX / 2 + 1;
    uint8_t *payload = calloc(1, chunk);
    uint8_t *frames = malloc(2 * (chunk + TTYD_WS_HEADER_MAX));
    T_ASSERT(payload && frames);
    n = s_frame(frames, 0x02, payload, chunk);
    n += s_frame(frames + n, 0x00, payload, chunk);
    s_seen_t seen = {0};
    int code = 0;
    T_EQ_INT(ttyd_ws_reader_feed(&reader, frames, n, s_on, &seen, &code), -1);
    T_EQ_INT(code, TTYD_WS_CLOSE_TOO_BIG);
    T_EQ_INT(seen.count, 0);
    ttyd_ws_reader_clear(&reader);
    free(payload);
    free(frames);
}

static void
test_messages(void)
{
    ttyd_msg_t msg;
    const char *hello = "{\"AuthToken\":\"\",\"columns\":132,\"rows\":43}";
    ttyd_msg_parse((const uint8_t *) hello, strlen(hello), &msg);
    T_EQ_INT(msg.type, TTYD_MSG_HELLO);
    T_EQ_INT(msg.columns, 132);
    T_EQ_INT(msg.rows, 43);
    ttyd_msg_parse((const uint8_t *) "0ls\r", 4, &msg);
    T_EQ_INT(msg.type, TTYD_MSG_INPUT);
    T_EQ_INT(msg.size, 3);
    T_ASSERT(memcmp(msg.data, "ls\r", 3) == 0);
    const char *resize =
        "1 { \"rows\" : 50, \"x\": [1, {\"columns\": 9}], \"columns\": 200 } ";
    ttyd_msg_parse((const uint8_t *) resize, strlen(resize), &msg);
    T_EQ_INT(msg.type, TTYD_MSG_RESIZE);
    T_EQ_INT(msg.columns, 200); //  the nested "columns" is not the top level's
    T_EQ_INT(msg.rows, 50);
    ttyd_msg_parse((const uint8_t *) "2", 1, &msg);
    T_EQ_INT(msg.type, TTYD_MSG_PAUSE);
    ttyd_msg_parse((const uint8_t *) "3", 1, &msg);
    T_EQ_INT(msg.type, TTYD_MSG_RESUME);
    ttyd_msg_parse((const uint8_t *) "9x", 2, &msg);
    T_EQ_INT(msg.type, TTYD_MSG_UNKNOWN);
    ttyd_msg_parse((const uint8_t *) "", 0, &msg);
    T_EQ_INT(msg.type, TTYD_MSG_UNKNOWN);
    //  Sizes it cannot use stay 0; JSON it cannot read is refused.
    const char *odd[] = {
        "{\"columns\": -3, \"rows\": 1.5}", "{\"columns\": 70000, \"rows\": 1e2}",
        "{\"columns\": \"80\", \"rows\": null}", "{\"columns\": 0, \"rows\": true}"};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
        unsigned c = 0, r = 0;
        T_EQ_INT(ttyd_msg_json_size(odd[i], strlen(odd[i]), &c, &r), 0);
        T_EQ_INT(c, 0);
        T_EQ_INT(r, 0);
    }
    const char *bad[] = {"",
                         "[1]",
                         "{",
                         "{\"columns\" 1}",
                         "{\"a\":1,}",
                         "{\"a\":1} x",
                         "{\"a\":tru}",
                         "{\"a\":\"\x01\"}",
                         "{\"a\":-}",
                         "{\"a\":\"\\q\"}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        unsigned c = 0, r = 0;
        T_EQ_INT(ttyd_msg_json_size(bad[i], strlen(bad[i]), &c, &r), -1);
    }
    //  Nesting is bounded.
    char deep[200];
    memset(deep, '[', sizeof deep);
    deep[0] = '{';
    memcpy(deep + 1, "\"a\":", 4);
    unsigned c = 0, r = 0;
    T_EQ_INT(ttyd_msg_json_size(deep, sizeof deep, &c, &r), -1);
    //  A broken hello still starts the terminal, at the default size.
    ttyd_msg_parse((const uint8_t *) "{oops", 5, &msg);
    T_EQ_INT(msg.type, TTYD_MSG_HELLO);
    T_EQ_INT(msg.columns, 0);
}

static void
test_http_head(void)
{
    ttyd_http_request_t req;
    const char *upgrade = "GET /ws?x=1 HTTP/1.1\r\nHost: a\r\nUpgrade: WebSocket\r\n"
                          "Connection: keep-alive, Upgrade\r\n"
                          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                          "Sec-WebSocket-Version: 13\r\n"
                          "Sec-WebSocket-Protocol: chat, tty\r\n\r\n";
    T_EQ_INT(ttyd_http_parse(upgrade, strlen(upgrade), &req), 0);
    T_EQ_STR(req.method, "GET");
    T_EQ_STR(req.path, "/ws");
    T_EQ_STR(req.ws_key, "dGhlIHNhbXBsZSBub25jZQ==");
    T_ASSERT(req.upgrade && req.version_13 && req.protocols && req.protocol_tty);
    const char *plain = "HEAD / HTTP/1.0\r\nSec-WebSocket-Protocol: TTY\r\n\r\n";
    T_EQ_INT(ttyd_http_parse(plain, strlen(plain), &req), 0);
    T_EQ_STR(req.method, "HEAD");
    T_EQ_STR(req.path, "/");
    T_ASSERT(!req.upgrade && req.protocols && !req.protocol_tty); //  case matters here
    const char *bad[] = {"GET / HTTP/1.1",
                         "GET /\r\n\r\n",
                         "GET x HTTP/1.1\r\n\r\n",
                         "GET / HTTP/2.0\r\n\r\n",
                         "GET / HTTP/1.1\r\nNoColon\r\n\r\n",
                         " / HTTP/1.1\r\n\r\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        T_EQ_INT(ttyd_http_parse(bad[i], strlen(bad[i]), &req), -1);
}

static void
test_page(void)
{
    const ttyd_asset_t *page = ttyd_page_find("/");
    T_ASSERT(page);
    T_CONTAINS((const char *) page->data, "new WebSocket(url.href, ['tty'])");
    T_ASSERT(ttyd_page_find("/index.html") == page);
    T_CONTAINS((const char *) ttyd_page_find("/token")->data, "\"token\"");
    T_ASSERT(!ttyd_page_find("/nothing"));
    if (!ttyd_page_has_xterm())
        T_SKIP("built without xterm.js (npm was unavailable)");
    T_CONTAINS((const char *) page->data, "<script src=\"xterm.js\">");
    const ttyd_asset_t *js = ttyd_page_find("/xterm.js");
    T_ASSERT(js && js->size > 100000);
    T_CONTAINS((const char *) js->data, "MIT");
    T_ASSERT(ttyd_page_find("/xterm.css") && ttyd_page_find("/xterm-addon-fit.js"));
}

//  ---------------------------------------------------------------------------
//  The binary

static pid_t s_pid;
static int s_port;
static FILE *s_log;

static void
test_start(void)
{
    char bin[PATH_MAX + 64];
    const char *dir = getenv("BACKPLANE_BINDIR");
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    T_ASSERT(n > 0);
    self[n] = '\0';
    //  The one built with this test's flags (sanitizers included) when it is
    //  there, else the static one the containers get.
    snprintf(bin, sizeof bin, "%s/backplane-ttyd", dirname(self));
    if (access(bin, X_OK) != 0)
        snprintf(bin, sizeof bin, "%s/backplane-ttyd",
                 dir ? dir : strcat(self, "/../bin"));
    int err[2];
    T_ASSERT(pipe(err) == 0);
    s_pid = fork();
    T_ASSERT(s_pid >= 0);
    if (s_pid == 0) {
        dup2(err[1], STDERR_FILENO);
        close(err[0]);
        //  sh -i everywhere, so that the test knows its prompt: none.
        setenv("PS1", "", 1);
        execl(bin, bin, "--bind", "127.0.0.1", "--port", "0", "--", "/bin/sh", "-i",
              (char *) NULL);
        _exit(127);
    }
    close(err[1]);
    s_log = fdopen(err[0], "r");
    char line[512];
    while (!s_port && fgets(line, sizeof line, s_log)) {
        fputs(line, stderr);
        char *at = strstr(line, "listening port=");
        if (at)
            s_port = atoi(at + strlen("listening port="));
    }
    T_ASSERT(s_port > 0);
    //  Its log goes on to ours, without blocking it.
    fcntl(err[0], F_SETFL, O_NONBLOCK);
}

static int
s_connect(void)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET,
                               .sin_port = htons((uint16_t) s_port)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, (struct sockaddr *) &addr, sizeof addr) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    struct timeval tv = {S_WAIT_MS / 1000, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    return fd;
}

static int
s_send_all(int fd, const void *data, size_t size)
{
    const uint8_t *p = data;
    while (size) {
        ssize_t n = send(fd, p, size, MSG_NOSIGNAL);
        if (n <= 0)
            return -1;
        p += n;
        size -= (size_t) n;
    }
    return 0;
}

//  A whole HTTP answer to request (the server closes after it); caller frees.
static char *
s_http(const char *request, size_t *size_p)
{
    int fd = s_connect();
    if (fd < 0 || s_send_all(fd, request, strlen(request)) != 0) {
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    size_t cap = 1 << 20, used = 0;
    char *text = malloc(cap + 1);
    ssize_t n;
    while (text && used < cap && (n = recv(fd, text + used, cap - used, 0)) > 0)
        used += (size_t) n;
    close(fd);
    if (text)
        text[used] = '\0';
    if (size_p)
        *size_p = used;
    return text;
}

//  Opens the terminal WebSocket: the socket, or -1. head gets the answer.
static int
s_ws_open(const char *protocol_line, char *head, size_t head_size)
{
    int fd = s_connect();
    char request[512];
    snprintf(request, sizeof request,
             "GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n"
             "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
             "Sec-WebSocket-Version: 13\r\n%s\r\n",
             protocol_line);
    if (fd < 0 || s_send_all(fd, request, strlen(request)) != 0)
        return -1;
    size_t used = 0;
    //  Byte by byte up to the blank line, so no frame is read with the head.
    while (used + 1 < head_size && recv(fd, head + used, 1, 0) == 1) {
        used++;
        head[used] = '\0';
        if (used >= 4 && memcmp(head + used - 4, "\r\n\r\n", 4) == 0)
            return fd;
    }
    close(fd);
    return -1;
}

static int
s_ws_send(int fd, int first_byte, const void *data, size_t size)
{
    uint8_t *wire = malloc(size + TTYD_WS_HEADER_MAX);
    int rc = wire ? s_send_all(fd, wire, s_frame(wire, first_byte, data, size)) : -1;
    free(wire);
    return rc;
}

static int
s_recv_exact(int fd, void *data, size_t size)
{
    uint8_t *p = data;
    while (size) {
        ssize_t n = recv(fd, p, size, 0);
        if (n <= 0)
            return -1;
        p += n;
        size -= (size_t) n;
    }
    return 0;
}

//  One server frame: its opcode (payload in *data_p, NUL-terminated, caller
//  frees), or -1.
static int
s_ws_recv(int fd, char **data_p, size_t *size_p)
{
    uint8_t h[10];
    *data_p = NULL;
    if (s_recv_exact(fd, h, 2) != 0 || (h[1] & 0x80))
        return -1;
    uint64_t size = h[1] & 0x7F;
    if (size == 126) {
        if (s_recv_exact(fd, h + 2, 2) != 0)
            return -1;
        size = (uint64_t) h[2] << 8 | h[3];
    } else if (size == 127) {
        if (s_recv_exact(fd, h + 2, 8) != 0)
            return -1;
        size = 0;
        for (int i = 2; i < 10; i++)
            size = size << 8 | h[i];
    }
    char *data = malloc(size + 1);
    if (!data || s_recv_exact(fd, data, size) != 0) {
        free(data);
        return -1;
    }
    data[size] = '\0';
    *data_p = data;
    *size_p = size;
    return h[0] & 0x0F;
}

//  Reads output messages until their text holds needle. The output (caller
//  frees), or NULL when the socket ended first.
static char *
s_until(int fd, const char *needle)
{
    size_t cap = 1 << 20, used = 0;
    char *text = calloc(1, cap + 1);
    while (text) {
        char *data;
        size_t size;
        int opcode = s_ws_recv(fd, &data, &size);
        if (opcode == TTYD_WS_BINARY && size > 0 && data[0] == '0' &&
            used + size - 1 > cap && size - 1 <= cap / 2) {
            //  Full: keep the last kilobyte, where a needle may begin.
            memmove(text, text + used - 1024, 1024);
            used = 1024;
        }
        if (opcode == TTYD_WS_BINARY && size > 0 && data[0] == '0' &&
            used + size - 1 <= cap) {
            memcpy(text + used, data + 1, size - 1);
            used += size - 1;
            text[used] = '\0';
        }
        free(data);
        if (strstr(text, needle))
            return text;
        if (opcode < 0 || opcode == TTYD_WS_CLOSE) {
            fprintf(stderr, "# no \"%s\" in \"%s\"\n", needle, text);
            break;
        }
    }
    free(text);
    return NULL;
}

//  Opens a terminal of columns x rows: the socket, or -1.
static int
s_terminal(unsigned columns, unsigned rows)
{
    char head[1024];
    int fd = s_ws_open("Sec-WebSocket-Protocol: tty\r\n", head, sizeof head);
    if (fd < 0)
        return -1;
    char hello[128];
    snprintf(hello, sizeof hello, "{\"AuthToken\": \"\", \"columns\": %u, \"rows\": %u}",
             columns, rows);
    if (s_ws_send(fd, 0x82, hello, strlen(hello)) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static int
s_type(int fd, const char *line)
{
    char text[512];
    snprintf(text, sizeof text, "0%s", line);
    return s_ws_send(fd, 0x82, text, strlen(text));
}

static void
test_page_served(void)
{
    size_t size = 0;
    char *page = s_http("GET / HTTP/1.1\r\nHost: x\r\n\r\n", &size);
    T_ASSERT(page);
    T_CONTAINS(page, "HTTP/1.1 200 OK");
    T_CONTAINS(page, "Content-Type: text/html");
    T_CONTAINS(page, "['tty']");
    free(page);
    page = s_http("GET /nothing HTTP/1.1\r\n\r\n", NULL);
    T_CONTAINS(page, "HTTP/1.1 404");
    free(page);
    page = s_http("POST / HTTP/1.1\r\n\r\n", NULL);
    T_CONTAINS(page, "HTTP/1.1 405");
    free(page);
    page = s_http("garbage\r\n\r\n", NULL);
    T_CONTAINS(page, "HTTP/1.1 400");
    free(page);
    //  A WebSocket that offers only other protocols is refused.
    char head[1024];
    int fd = s_ws_open("Sec-WebSocket-Protocol: chat\r\n", head, sizeof head);
    T_ASSERT(fd >= 0);
    T_CONTAINS(head, "HTTP/1.1 400");
    close(fd);
    if (!ttyd_page_has_xterm())
        T_SKIP("built without xterm.js (npm was unavailable)");
    page = s_http("GET /xterm.js HTTP/1.1\r\n\r\n", &size);
    T_CONTAINS(page, "HTTP/1.1 200 OK");
    T_CONTAINS(page, "application/javascript");
    T_ASSERT(size > 100000); //  the whole of xterm.js came
    free(page);
}

static void
test_terminal(void)
{
    char head[1024];
    int fd = s_ws_open("Sec-WebSocket-Protocol: tty\r\n", head, sizeof head);
    T_ASSERT(fd >= 0);
    T_CONTAINS(head, "HTTP/1.1 101");
    T_CONTAINS(head, "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    T_CONTAINS(head, "Sec-WebSocket-Protocol: tty");
    const char *hello = "{\"AuthToken\": \"\", \"columns\": 100, \"rows\": 30}";
    T_EQ_INT(s_ws_send(fd, 0x82, hello, strlen(hello)), 0);
    //  The title, then the preferences.
    char *data;
    size_t size;
    T_EQ_INT(s_ws_recv(fd, &data, &size), TTYD_WS_BINARY);
    T_ASSERT(data[0] == '1');
    T_CONTAINS(data, "/bin/sh (");
    free(data);
    T_EQ_INT(s_ws_recv(fd, &data, &size), TTYD_WS_BINARY);
    T_EQ_STR(data, "2{}");
    free(data);
    T_EQ_INT(s_type(fd, "echo $((6*7))\r"), 0);
    char *out = s_until(fd, "42\r\n");
    T_ASSERT(out);
    free(out);
    //  The size of the hello, then a resize, as stty sees them.
    T_EQ_INT(s_type(fd, "stty size\r"), 0);
    out = s_until(fd, "30 100");
    T_ASSERT(out);
    free(out);
    const char *resize = "1{\"columns\": 132, \"rows\": 43}";
    T_EQ_INT(s_ws_send(fd, 0x82, resize, strlen(resize)), 0);
    T_EQ_INT(s_type(fd, "stty size\r"), 0);
    out = s_until(fd, "43 132");
    T_ASSERT(out);
    free(out);
    //  A ping between, answered with its payload.
    T_EQ_INT(s_ws_send(fd, 0x89, "hi", 2), 0);
    int opcode;
    while ((opcode = s_ws_recv(fd, &data, &size)) == TTYD_WS_BINARY)
        free(data);
    T_EQ_INT(opcode, TTYD_WS_PONG);
    T_EQ_STR(data, "hi");
    free(data);
    //  The shell exits: the WebSocket closes with 1000.
    T_EQ_INT(s_type(fd, "exit\r"), 0);
    while ((opcode = s_ws_recv(fd, &data, &size)) == TTYD_WS_BINARY)
        free(data);
    T_EQ_INT(opcode, TTYD_WS_CLOSE);
    T_EQ_INT((uint8_t) data[0] << 8 | (uint8_t) data[1], 1000);
    free(data);
    close(fd);
}

static void
test_two_clients(void)
{
    int a = s_terminal(80, 24), b = s_terminal(80, 24);
    T_ASSERT(a >= 0 && b >= 0);
    //  Each its own shell: a variable set in one is not in the other.
    T_EQ_INT(s_type(a, "X=from-a; echo pid-$$\r"), 0);
    char *out_a = s_until(a, "pid-");
    T_ASSERT(out_a);
    T_EQ_INT(s_type(b, "echo \"x=[$X]\" pid-$$\r"), 0);
    char *out_b = s_until(b, "x=[]");
    T_ASSERT(out_b);
    free(out_b);
    T_EQ_INT(s_type(a, "echo \"x=[$X]\"\r"), 0);
    char *again = s_until(a, "x=[from-a]");
    T_ASSERT(again);
    free(again);
    free(out_a);
    close(a);
    close(b);
}

//  A client that vanishes: its shell is hung up (and reaped), the server
//  goes on.
static void
test_vanishing_client(void)
{
    int fd = s_terminal(80, 24);
    T_ASSERT(fd >= 0);
    T_EQ_INT(s_type(fd, "echo shell-$$-\"\"pid\r"), 0);
    char *out = s_until(fd, "-pid\r\n");
    T_ASSERT(out);
    char *at = strstr(out, "\nshell-");
    int pid = at ? atoi(at + strlen("\nshell-")) : 0;
    free(out);
    T_ASSERT(pid > 0);
    T_EQ_INT(kill(pid, 0), 0);
    //  Half a frame, then gone.
    T_EQ_INT(s_send_all(fd, "\x82\x85", 2), 0);
    close(fd);
    bool gone = false;
    for (int i = 0; i < 100 && !gone; i++) {
        gone = kill(pid, 0) != 0 && errno == ESRCH;
        if (!gone)
            usleep(50000);
    }
    T_ASSERT(gone);
    int again = s_terminal(80, 24);
    T_ASSERT(again >= 0);
    T_EQ_INT(s_type(again, "echo alive-$((1+1))\r"), 0);
    out = s_until(again, "alive-2");
    T_ASSERT(out);
    free(out);
    close(again);
}

//  A client that does not read: its shell's output is held back, the
//  server's memory is not what grows; reading again gets everything.
//  The server's resident memory in kB, or -1.
static long
s_rss_kb(void)
{
    char status[64];
    snprintf(status, sizeof status, "/proc/%d/status", (int) s_pid);
    FILE *file = fopen(status, "r");
    long rss_kb = -1;
    char line[256];
    while (file && fgets(line, sizeof line, file))
        if (strncmp(line, "VmRSS:", 6) == 0)
            rss_kb = atol(line + 6);
    if (file)
        fclose(file);
    return rss_kb;
}

static void
test_slow_reader(void)
{
    int fd = s_terminal(80, 24);
    T_ASSERT(fd >= 0);
    long before_kb = s_rss_kb();
    //  About 8 MB of output, far beyond every queue.
    T_EQ_INT(
        s_type(fd,
               "i=0; while [ $i -lt 80000 ]; do echo "
               "0123456789012345678901234567890123456789012345678901234567890123"
               "456789012345678901234567890123; i=$((i+1)); done; echo done-$((i))\r"),
        0);
    sleep(2);
    long rss_kb = s_rss_kb();
    fprintf(stderr,
            "# backplane-ttyd RSS with a stalled client: %ld kB (%ld kB before)\n",
            rss_kb, before_kb);
    T_ASSERT(before_kb > 0 && rss_kb > 0 && rss_kb - before_kb < 4096);
    char *out = s_until(fd, "done-80000");
    T_ASSERT(out);
    free(out);
    close(fd);
}

//  Broken frames close that connection with 1002; the server serves on.
static void
test_broken_client(void)
{
    int fd = s_terminal(80, 24);
    T_ASSERT(fd >= 0);
    const uint8_t unmasked[] = {0x82, 0x02, '0', 'x'};
    T_EQ_INT(s_send_all(fd, unmasked, sizeof unmasked), 0);
    char *data;
    size_t size;
    int opcode;
    while ((opcode = s_ws_recv(fd, &data, &size)) == TTYD_WS_BINARY)
        free(data);
    T_EQ_INT(opcode, TTYD_WS_CLOSE);
    T_EQ_INT((uint8_t) data[0] << 8 | (uint8_t) data[1], TTYD_WS_CLOSE_PROTOCOL);
    free(data);
    close(fd);
    //  Messages before the hello and unknown commands are ignored.
    char head[1024];
    fd = s_ws_open("", head, sizeof head);
    T_ASSERT(fd >= 0);
    T_ASSERT(!strstr(head, "Sec-WebSocket-Protocol"));
    T_EQ_INT(s_type(fd, "echo early\r"), 0);
    T_EQ_INT(s_ws_send(fd, 0x82, "9what", 5), 0);
    T_EQ_INT(s_ws_send(fd, 0x82, "{}", 2), 0);
    T_EQ_INT(s_type(fd, "echo late-$((2+3))\r"), 0);
    char *out = s_until(fd, "late-5");
    T_ASSERT(out);
    T_ASSERT(!strstr(out, "early"));
    free(out);
    //  A close from the client is answered with its code.
    T_EQ_INT(s_ws_send(fd, 0x88, "\x03\xe9", 2), 0);
    while ((opcode = s_ws_recv(fd, &data, &size)) == TTYD_WS_BINARY)
        free(data);
    T_EQ_INT(opcode, TTYD_WS_CLOSE);
    T_EQ_INT((uint8_t) data[0] << 8 | (uint8_t) data[1], 1001);
    free(data);
    close(fd);
}

static void
test_stop(void)
{
    T_ASSERT(s_pid > 0);
    int fd = s_terminal(80, 24); //  a terminal open at the end is hung up
    T_ASSERT(fd >= 0);
    T_EQ_INT(kill(s_pid, SIGTERM), 0);
    int status = 0;
    T_EQ_INT(waitpid(s_pid, &status, 0), s_pid);
    s_pid = 0;
    T_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(fd);
    char line[512];
    while (s_log && fgets(line, sizeof line, s_log))
        fputs(line, stderr);
}

int
main(void)
{
    T_RUN(test_sha1);
    T_RUN(test_frames);
    T_RUN(test_broken_frames);
    T_RUN(test_messages);
    T_RUN(test_http_head);
    T_RUN(test_page);
    if (access("/bin/sh", X_OK) != 0) {
        printf("# no /bin/sh: the binary is not run\n");
        return T_DONE();
    }
    T_RUN(test_start);
    if (s_port > 0) {
        T_RUN(test_page_served);
        T_RUN(test_terminal);
        T_RUN(test_two_clients);
        T_RUN(test_vanishing_client);
        T_RUN(test_slow_reader);
        T_RUN(test_broken_client);
        T_RUN(test_stop);
    }
    if (s_pid > 0) {
        kill(s_pid, SIGKILL);
        waitpid(s_pid, NULL, 0);
    }
    if (s_log)
        fclose(s_log);
    return T_DONE();
}
