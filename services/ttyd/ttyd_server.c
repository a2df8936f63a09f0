/*  =========================================================================
    ttyd_server - the one poll loop: the listening socket, the connections
    and their shells

    A connection starts in HTTP: its request head (at most TTYD_HEAD_MAX
    bytes, within TTYD_HEAD_MS) gets one answer and the connection closes,
    unless it is a WebSocket upgrade at /ws, which is answered 101 (with
    "tty" when the client offered it) and goes on as a terminal. The first
    message starts the shell on a PTY of the size it names; the title and
    the preferences follow, then the shell's output as '0' messages.

    Back-pressure, both ways: the PTY is read only while less than
    TTYD_OUT_HIGH bytes wait for the client (and the client has not paused),
    and the socket only while less than TTYD_PTY_IN_MAX bytes wait for the
    shell and less than TTYD_OUT_HIGH for the client. So a client that stops
    reading stops its shell's output, one that floods waits for its shell,
    and no queue passes its max. A client that goes away (EOF, reset, a
    close frame, a broken frame) has its shell hung up (SIGHUP to its
    process group, the PTY closed). A shell that ends closes its WebSocket
    with 1000 once its last output is sent. Children are reaped through a
    self-pipe written by the SIGCHLD handler; SIGTERM and SIGINT end the loop.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "ttyd_classes.h"

typedef enum {
    S_HTTP,    //  reading the request head
    S_REPLY,   //  writing an HTTP answer, then closing
    S_WS,      //  a terminal
    S_CLOSING, //  a close frame is queued: flush it, then close
} s_state_t;

typedef struct {
    int fd;
    s_state_t state;
    int64_t deadline_ms; //  for the head, an answer, a close to be sent; 0: none
    ttyd_buf_t in;       //  from the socket
    ttyd_buf_t out;      //  to the socket
    const uint8_t *body; //  S_REPLY: the rest of a static body, after out
    size_t body_left;
    ttyd_ws_reader_t reader;
    //  The terminal.
    int master; //  -1 before the first message and after the end
    pid_t pid;  //  the shell, until it is reaped
    bool started, paused, exited;
    ttyd_buf_t pty_in;         //  to the shell
    int sock_index, pty_index; //  in this round's pollfd array, or -1
} s_conn_t;

struct ttyd_server_t {
    int listen_fd;
    int port;
    const char *const *argv;
    char title[TTYD_TITLE_MAX];
    s_conn_t *conns[TTYD_CLIENTS_MAX];
};

//  The SIGCHLD/SIGTERM self-pipe and the stop flag: process-wide, as signals are.
static int s_signal_pipe[2] = {-1, -1};
static volatile sig_atomic_t s_stop;

void
ttyd_log(const char *level, const char *format, ...)
{
    char text[512];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    fprintf(stderr, "backplane-ttyd: %s %s\n", level, text);
}

static int64_t
s_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
s_on_signal(int signo)
{
    int saved = errno;
    if (signo != SIGCHLD)
        s_stop = 1;
    if (s_signal_pipe[1] >= 0) {
        char byte = 0;
        ssize_t n = write(s_signal_pipe[1], &byte, 1);
        (void) n; //  full: a wake-up is already pending
    }
    errno = saved;
}

//  ---------------------------------------------------------------------------
//  Connections

static void
s_conn_hangup(s_conn_t *conn)
{
    if (conn->pid > 0)
        kill(-conn->pid, SIGHUP); //  its session's process group (setsid: pgid == pid)
    if (conn->master >= 0)
        close(conn->master);
    conn->master = -1;
    conn->pid = 0;
}

static void
s_conn_destroy(s_conn_t **conn_p)
{
    s_conn_t *conn = *conn_p;
    if (!conn)
        return;
    s_conn_hangup(conn);
    if (conn->fd >= 0)
        close(conn->fd);
    ttyd_buf_clear(&conn->in);
    ttyd_buf_clear(&conn->out);
    ttyd_buf_clear(&conn->pty_in);
    ttyd_ws_reader_clear(&conn->reader);
    free(conn);
    *conn_p = NULL;
}

static s_conn_t *
s_conn_new(int fd)
{
    s_conn_t *conn = calloc(1, sizeof *conn);
    if (!conn)
        return NULL;
    conn->fd = fd;
    conn->state = S_HTTP;
    conn->deadline_ms = s_now_ms() + TTYD_HEAD_MS;
    conn->master = -1;
    ttyd_buf_init(&conn->in, TTYD_HEAD_MAX);
    ttyd_buf_init(&conn->out, TTYD_OUT_MAX);
    ttyd_buf_init(&conn->pty_in, TTYD_PTY_IN_MAX + TTYD_MESSAGE_MAX);
    ttyd_ws_reader_init(&conn->reader);
    return conn;
}

//  Queues one server frame; -1 when the queue is full (cannot happen: the
//  loop stops producing at TTYD_OUT_HIGH, and TTYD_OUT_MAX leaves room).
static int
s_send_frame(s_conn_t *conn, int opcode, char command, const void *data, size_t size)
{
    uint8_t header[10];
    size_t total = size + (command ? 1 : 0);
    size_t n = ttyd_ws_header(header, opcode, total);
    uint8_t *at = ttyd_buf_reserve(&conn->out, n + total);
    if (!at) {
        ttyd_log("error", "output queue full fd=%d", conn->fd);
        return -1;
    }
    memcpy(at, header, n);
    if (command)
        at[n] = (uint8_t) command;
    if (size)
        memcpy(at + n + (command ? 1 : 0), data, size);
    ttyd_buf_commit(&conn->out, n + total);
    return 0;
}

//  Queues a close frame with code and stops the terminal.
static void
s_close(s_conn_t *conn, int code)
{
    if (conn->state == S_WS) {
        uint8_t payload[2] = {(uint8_t) (code >> 8), (uint8_t) code};
        s_send_frame(conn, TTYD_WS_CLOSE, 0, payload, sizeof payload);
    }
    conn->state = S_CLOSING;
    conn->deadline_ms = s_now_ms() + TTYD_CLOSING_MS;
    s_conn_hangup(conn);
}

static void
s_reply(
    s_conn_t *conn, int status, const char *reason, const ttyd_asset_t *asset, bool head)
{
    char text[512];
    const char *type = asset ? asset->content_type : "text/plain; charset=utf-8";
    size_t size = asset ? asset->size : strlen(reason) + 1;
    int n = snprintf(text, sizeof text,
                     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
                     "Cache-Control: no-cache\r\nConnection: close\r\n\r\n",
                     status, reason, type, size);
    if (n > 0 && (size_t) n < sizeof text)
        ttyd_buf_append(&conn->out, text, (size_t) n);
    if (!head && asset) {
        conn->body = asset->data;
        conn->body_left = asset->size;
    } else if (!head) {
        ttyd_buf_append(&conn->out, reason, strlen(reason));
        ttyd_buf_append(&conn->out, "\n", 1);
    }
    conn->state = S_REPLY;
    conn->deadline_ms = s_now_ms() + TTYD_REPLY_MS;
}

//  The request head in conn->in is whole: answer it.
static void
s_on_request(ttyd_server_t *self, s_conn_t *conn, size_t head_size)
{
    (void) self;
    ttyd_http_request_t req;
    if (ttyd_http_parse((const char *) ttyd_buf_data(&conn->in), head_size, &req) != 0) {
        s_reply(conn, 400, "Bad Request", NULL, false);
        return;
    }
    bool head = strcmp(req.method, "HEAD") == 0;
    if (strcmp(req.method, "GET") != 0 && !head) {
        s_reply(conn, 405, "Method Not Allowed", NULL, false);
        return;
    }
    if (strcmp(req.path, "/ws") != 0) {
        const ttyd_asset_t *asset = ttyd_page_find(req.path);
        if (asset)
            s_reply(conn, 200, "OK", asset, head);
        else
            s_reply(conn, 404, "Not Found", NULL, head);
        return;
    }
    char accept[32];
    if (!req.upgrade || !req.version_13 || ttyd_ws_accept(req.ws_key, accept) != 0 ||
        (req.protocols && !req.protocol_tty)) {
        s_reply(conn, 400, "Bad Request", NULL, head);
        return;
    }
    char text[256];
    int n = snprintf(text, sizeof text,
                     "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n%s\r\n",
                     accept, req.protocol_tty ? "Sec-WebSocket-Protocol: tty\r\n" : "");
    ttyd_buf_append(&conn->out, text, (size_t) n);
    ttyd_buf_consume(&conn->in, head_size);
    //  From here the input queue holds frames: room for the largest one.
    ttyd_buf_t frames;
    ttyd_buf_init(&frames, TTYD_MESSAGE_MAX + TTYD_WS_HEADER_MAX);
    ttyd_buf_append(&frames, ttyd_buf_data(&conn->in), ttyd_buf_size(&conn->in));
    ttyd_buf_clear(&conn->in);
    conn->in = frames;
    conn->state = S_WS;
    conn->deadline_ms = 0;
    int one = 1;
    setsockopt(conn->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

//  The first message: the shell starts, on a terminal of the size it names.
static int
s_start(ttyd_server_t *self, s_conn_t *conn, const ttyd_msg_t *msg)
{
    conn->pid = ttyd_pty_spawn(self->argv, msg->columns, msg->rows, &conn->master);
    if (conn->pid < 0) {
        char text[256];
        int n = snprintf(text, sizeof text, "backplane-ttyd: cannot start %s: %s\r\n",
                         self->argv[0], strerror(errno));
        ttyd_log("error", "cannot start %s: %s", self->argv[0], strerror(errno));
        conn->pid = 0;
        s_send_frame(conn, TTYD_WS_BINARY, '0', text, (size_t) n);
        s_close(conn, TTYD_WS_CLOSE_ERROR);
        return 1;
    }
    conn->started = true;
    ttyd_log("info", "terminal started fd=%d pid=%d size=%ux%u", conn->fd,
             (int) conn->pid, msg->columns ? msg->columns : TTYD_COLS_DEFAULT,
             msg->rows ? msg->rows : TTYD_ROWS_DEFAULT);
    if (s_send_frame(conn, TTYD_WS_BINARY, '1', self->title, strlen(self->title)) != 0 ||
        s_send_frame(conn, TTYD_WS_BINARY, '2', TTYD_PREFERENCES,
                     strlen(TTYD_PREFERENCES)) != 0)
        return -1;
    return 0;
}

//  One message or control frame from the client (ttyd_ws_on_message_t).
static int
s_on_message(void *arg, int opcode, const uint8_t *data, size_t size)
{
    s_conn_t *conn = ((void **) arg)[1];
    ttyd_server_t *self = ((void **) arg)[0];
    if (conn->state != S_WS)
        return 1;
    if (opcode == TTYD_WS_CLOSE) {
        int code = size >= 2 ? data[0] << 8 | data[1] : TTYD_WS_CLOSE_NORMAL;
        if (size == 1 || code < 1000 || code >= 5000 || code == 1005 || code == 1006)
            code = TTYD_WS_CLOSE_PROTOCOL;
        s_close(conn, code);
        return 1;
    }
    if (opcode == TTYD_WS_PING)
        return s_send_frame(conn, TTYD_WS_PONG, 0, data, size) == 0 ? 0 : -1;
    if (opcode == TTYD_WS_PONG)
        return 0;
    ttyd_msg_t msg;
    ttyd_msg_parse(data, size, &msg);
    switch (msg.type) {
        case TTYD_MSG_HELLO:
            if (!conn->started) {
                int rc = s_start(self, conn, &msg);
                if (rc != 0)
                    return rc;
            }
            break;
        case TTYD_MSG_INPUT:
            if (conn->master >= 0 &&
                ttyd_buf_append(&conn->pty_in, msg.data, msg.size) != 0)
                return -1;
            break;
        case TTYD_MSG_RESIZE:
            if (conn->master >= 0 && msg.columns && msg.rows)
                ttyd_pty_resize(conn->master, msg.columns, msg.rows);
            break;
        case TTYD_MSG_PAUSE:
            conn->paused = true;
            break;
        case TTYD_MSG_RESUME:
            conn->paused = false;
            break;
        case TTYD_MSG_UNKNOWN:
            break;
    }
    //  Back-pressure: the rest waits while the shell or the client lags.
    return ttyd_buf_size(&conn->pty_in) >= TTYD_PTY_IN_MAX ||
                   ttyd_buf_size(&conn->out) >= TTYD_OUT_HIGH
               ? 1
               : 0;
}

//  Works through what conn->in holds.
static void
s_process(ttyd_server_t *self, s_conn_t *conn)
{
    if (conn->state == S_HTTP) {
        const uint8_t *data = ttyd_buf_data(&conn->in);
        size_t size = ttyd_buf_size(&conn->in);
        const uint8_t *blank = NULL;
        for (size_t i = 3; data && i < size && !blank; i++)
            if (memcmp(data + i - 3, "\r\n\r\n", 4) == 0)
                blank = data + i + 1;
        if (blank)
            s_on_request(self, conn, (size_t) (blank - data));
        else if (ttyd_buf_room(&conn->in) == 0)
            s_reply(conn, 431, "Request Header Fields Too Large", NULL, false);
    }
    if (conn->state == S_WS && ttyd_buf_size(&conn->in) > 0 &&
        ttyd_buf_size(&conn->pty_in) < TTYD_PTY_IN_MAX &&
        ttyd_buf_size(&conn->out) < TTYD_OUT_HIGH) {
        void *pair[2] = {self, conn};
        int code = 0;
        long used =
            ttyd_ws_reader_feed(&conn->reader, ttyd_buf_data(&conn->in),
                                ttyd_buf_size(&conn->in), s_on_message, pair, &code);
        if (used < 0) {
            ttyd_log("info", "client broke the protocol fd=%d code=%d", conn->fd, code);
            s_close(conn, code);
        } else
            ttyd_buf_consume(&conn->in, (size_t) used);
    }
}

//  Reads the PTY into output messages while the client keeps up. At the
//  end of the shell's output (EIO once every holder of the terminal is
//  gone, or nothing left once the shell was reaped) the WebSocket closes.
static void
s_read_pty(s_conn_t *conn)
{
    while (conn->master >= 0 && ttyd_buf_size(&conn->out) < TTYD_OUT_HIGH &&
           !conn->paused) {
        uint8_t chunk[TTYD_PTY_CHUNK];
        ssize_t n = read(conn->master, chunk, sizeof chunk);
        if (n > 0) {
            if (s_send_frame(conn, TTYD_WS_BINARY, '0', chunk, (size_t) n) != 0) {
                s_close(conn, TTYD_WS_CLOSE_ERROR);
                return;
            }
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN && !conn->exited)
            return;
        ttyd_log("info", "terminal ended fd=%d", conn->fd);
        s_close(conn, TTYD_WS_CLOSE_NORMAL);
        return;
    }
}

static void
s_write_pty(s_conn_t *conn)
{
    while (conn->master >= 0 && ttyd_buf_size(&conn->pty_in) > 0) {
        ssize_t n = write(conn->master, ttyd_buf_data(&conn->pty_in),
                          ttyd_buf_size(&conn->pty_in));
        if (n > 0)
            ttyd_buf_consume(&conn->pty_in, (size_t) n);
        else if (n < 0 && errno == EINTR)
            continue;
        else
            return; //  EAGAIN: later; EIO: the read side sees the end
    }
}

//  Reads the socket. False when the client is gone.
static bool
s_read_socket(s_conn_t *conn)
{
    size_t room = ttyd_buf_room(&conn->in);
    if (room == 0)
        return true;
    uint8_t *at = ttyd_buf_reserve(&conn->in, room < 65536 ? room : 65536);
    if (!at)
        return false;
    ssize_t n = read(conn->fd, at, room < 65536 ? room : 65536);
    if (n > 0) {
        ttyd_buf_commit(&conn->in, (size_t) n);
        return true;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return true;
    if (conn->started)
        ttyd_log("info", "client went away fd=%d", conn->fd);
    return false;
}

//  Writes the socket. False when the connection is over (done or broken).
static bool
s_write_socket(s_conn_t *conn)
{
    while (ttyd_buf_size(&conn->out) > 0 || conn->body_left > 0) {
        bool queued = ttyd_buf_size(&conn->out) > 0;
        const void *data = queued ? ttyd_buf_data(&conn->out) : conn->body;
        size_t size = queued ? ttyd_buf_size(&conn->out) : conn->body_left;
        ssize_t n = send(conn->fd, data, size, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return true;
        if (n <= 0)
            return false;
        if (queued)
            ttyd_buf_consume(&conn->out, (size_t) n);
        else {
            conn->body += n;
            conn->body_left -= (size_t) n;
        }
    }
    return conn->state != S_REPLY && conn->state != S_CLOSING;
}

//  ---------------------------------------------------------------------------
//  The loop

static void
s_accept(ttyd_server_t *self)
{
    for (;;) {
        int slot = -1;
        for (int i = 0; i < TTYD_CLIENTS_MAX && slot < 0; i++)
            if (!self->conns[i])
                slot = i;
        int fd = accept4(self->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return;
        if (slot < 0) {
            ttyd_log("warning", "too many clients (%d): one refused", TTYD_CLIENTS_MAX);
            close(fd);
            return;
        }
        self->conns[slot] = s_conn_new(fd);
        if (!self->conns[slot])
            close(fd);
        else
            self->conns[slot]->sock_index = self->conns[slot]->pty_index = -1;
    }
}

static void
s_reap(ttyd_server_t *self)
{
    char drain[64];
    while (read(s_signal_pipe[0], drain, sizeof drain) > 0)
        ;
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
        for (int i = 0; i < TTYD_CLIENTS_MAX; i++) {
            s_conn_t *conn = self->conns[i];
            if (conn && conn->pid == pid) {
                conn->pid = 0;
                conn->exited = true; //  what it printed last is still read
                ttyd_log("info", "shell exited fd=%d pid=%d status=%d", conn->fd,
                         (int) pid, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
            }
        }
}

//  One connection after poll: its events, then whatever they made possible.
//  False when it is over.
static bool
s_serve(ttyd_server_t *self, s_conn_t *conn, const struct pollfd *fds, int64_t now)
{
    short sock = conn->sock_index >= 0 ? fds[conn->sock_index].revents : 0;
    short pty = conn->pty_index >= 0 ? fds[conn->pty_index].revents : 0;
    if (conn->deadline_ms && now >= conn->deadline_ms)
        return false;
    if ((sock & POLLIN) || (sock & (POLLHUP | POLLERR))) {
        if (conn->state == S_HTTP || conn->state == S_WS) {
            if (!s_read_socket(conn))
                return false;
        } else if (sock & (POLLHUP | POLLERR))
            return false;
    }
    s_process(self, conn);
    if (pty & POLLOUT)
        s_write_pty(conn);
    if ((pty & (POLLIN | POLLHUP | POLLERR)) || conn->exited)
        s_read_pty(conn);
    //  What the output made room for, and what input arrived meanwhile.
    if (conn->state == S_WS && ttyd_buf_size(&conn->pty_in) > 0)
        s_write_pty(conn);
    s_process(self, conn);
    if (ttyd_buf_size(&conn->out) > 0 || conn->body_left > 0 || conn->state == S_REPLY ||
        conn->state == S_CLOSING)
        return s_write_socket(conn);
    return true;
}

ttyd_server_t *
ttyd_server_new(const char *address, int port, const char *const *argv)
{
    assert(argv && argv[0]);
    ttyd_server_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->argv = argv;
    self->listen_fd = -1;
    char host[128] = "localhost";
    gethostname(host, sizeof host - 1);
    snprintf(self->title, sizeof self->title, "%s (%s)", argv[0], host);
    struct sockaddr_storage addr = {0};
    socklen_t len = 0;
    struct sockaddr_in *v4 = (struct sockaddr_in *) &addr;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *) &addr;
    int family = AF_INET6;
    if (!address) {
        v6->sin6_family = AF_INET6;
        v6->sin6_addr = in6addr_any;
        v6->sin6_port = htons((uint16_t) port);
        len = sizeof *v6;
    } else if (inet_pton(AF_INET, address, &v4->sin_addr) == 1) {
        family = v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t) port);
        len = sizeof *v4;
    } else if (inet_pton(AF_INET6, address, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((uint16_t) port);
        len = sizeof *v6;
    } else {
        ttyd_log("error", "not an IP address: %s", address);
        free(self);
        return NULL;
    }
    self->listen_fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (self->listen_fd < 0 && !address) {
        //  No IPv6 in this network namespace: every IPv4 address then.
        memset(&addr, 0, sizeof addr);
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t) port);
        len = sizeof *v4;
        family = AF_INET;
        self->listen_fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    }
    int one = 1, zero = 0;
    if (self->listen_fd >= 0) {
        setsockopt(self->listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (family == AF_INET6 && !address)
            setsockopt(self->listen_fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);
    }
    struct sockaddr_storage bound;
    socklen_t bound_len = sizeof bound;
    if (self->listen_fd < 0 ||
        bind(self->listen_fd, (struct sockaddr *) &addr, len) != 0 ||
        listen(self->listen_fd, SOMAXCONN) != 0 ||
        getsockname(self->listen_fd, (struct sockaddr *) &bound, &bound_len) != 0) {
        ttyd_log("error", "cannot listen on %s port %d: %s", address ? address : "*",
                 port, strerror(errno));
        ttyd_server_destroy(&self);
        return NULL;
    }
    self->port =
        ntohs(bound.ss_family == AF_INET ? ((struct sockaddr_in *) &bound)->sin_port
                                         : ((struct sockaddr_in6 *) &bound)->sin6_port);
    return self;
}

void
ttyd_server_destroy(ttyd_server_t **self_p)
{
    ttyd_server_t *self = *self_p;
    if (!self)
        return;
    for (int i = 0; i < TTYD_CLIENTS_MAX; i++)
        s_conn_destroy(&self->conns[i]);
    if (self->listen_fd >= 0)
        close(self->listen_fd);
    free(self);
    *self_p = NULL;
}

int
ttyd_server_port(ttyd_server_t *self)
{
    return self->port;
}

int
ttyd_server_run(ttyd_server_t *self)
{
    if (pipe2(s_signal_pipe, O_NONBLOCK | O_CLOEXEC) != 0)
        return -1;
    struct sigaction action = {.sa_handler = s_on_signal, .sa_flags = SA_RESTART};
    sigemptyset(&action.sa_mask);
    sigaction(SIGCHLD, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);
    signal(SIGPIPE, SIG_IGN);
    struct pollfd fds[2 + 2 * TTYD_CLIENTS_MAX];
    while (!s_stop) {
        int nfds = 0;
        fds[nfds++] = (struct pollfd){.fd = s_signal_pipe[0], .events = POLLIN};
        int listen_index = nfds;
        fds[nfds++] = (struct pollfd){.fd = self->listen_fd, .events = POLLIN};
        int64_t now = s_now_ms();
        int timeout = -1;
        for (int i = 0; i < TTYD_CLIENTS_MAX; i++) {
            s_conn_t *conn = self->conns[i];
            if (!conn)
                continue;
            bool out_ok = ttyd_buf_size(&conn->out) < TTYD_OUT_HIGH;
            short events = 0;
            if (conn->state == S_HTTP ||
                (conn->state == S_WS && out_ok &&
                 ttyd_buf_size(&conn->pty_in) < TTYD_PTY_IN_MAX &&
                 ttyd_buf_room(&conn->in) > 0))
                events |= POLLIN;
            if (ttyd_buf_size(&conn->out) > 0 || conn->body_left > 0)
                events |= POLLOUT;
            conn->sock_index = nfds;
            fds[nfds++] = (struct pollfd){.fd = conn->fd, .events = events};
            conn->pty_index = -1;
            if (conn->master >= 0) {
                short pty = 0;
                if (conn->state == S_WS && out_ok && !conn->paused)
                    pty |= POLLIN;
                if (ttyd_buf_size(&conn->pty_in) > 0)
                    pty |= POLLOUT;
                conn->pty_index = nfds;
                fds[nfds++] = (struct pollfd){.fd = conn->master, .events = pty};
            }
            if (conn->deadline_ms) {
                int64_t left = conn->deadline_ms - now;
                int ms = left < 0 ? 0 : (int) left;
                timeout = timeout < 0 || ms < timeout ? ms : timeout;
            }
            if (conn->exited && conn->master >= 0 && out_ok && !conn->paused)
                timeout = 0; //  the rest of a reaped shell's output
        }
        int rc = poll(fds, (nfds_t) nfds, timeout);
        if (rc < 0 && errno != EINTR) {
            ttyd_log("error", "poll: %s", strerror(errno));
            break;
        }
        if (rc < 0)
            continue;
        if (fds[0].revents & POLLIN)
            s_reap(self);
        now = s_now_ms();
        for (int i = 0; i < TTYD_CLIENTS_MAX; i++)
            if (self->conns[i] && !s_serve(self, self->conns[i], fds, now))
                s_conn_destroy(&self->conns[i]);
        if (fds[listen_index].revents & POLLIN)
            s_accept(self);
    }
    ttyd_log("notice", "stopping: every terminal is hung up");
    for (int i = 0; i < TTYD_CLIENTS_MAX; i++)
        s_conn_destroy(&self->conns[i]);
    s_reap(self);
    close(s_signal_pipe[0]);
    close(s_signal_pipe[1]);
    s_signal_pipe[0] = s_signal_pipe[1] = -1;
    return 0;
}
