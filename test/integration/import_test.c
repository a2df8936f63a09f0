/*  =========================================================================
    import_test - Import & Run: POST /folders/{name}/import against a real
    gateway and storage-proxy, fetching from a loopback HTTP server of the
    test's own

    The server (a thread here) serves a notebook with a length and one
    chunked behind a redirect, a repository archive with nested
    directories, an executable and a symbolic link, and the hostile cases:
    archives with "../evil", an absolute path and a duplicate, a file
    that is not an archive, a download over the cap (with a length, and
    streamed without one), a redirect loop, a redirect to ftp://, a 404
    and a server that never answers (past fetch.timeout_s); a notebook over
    HTTPS from a server whose certificate it trusts (fetch.ca_file), and
    one it does not refused. Each import is
    a background task followed on /events/background-task: the good ones
    end in bgtask_done with the files in the folder, the bad ones in
    bgtask_failed saying why. URLs of other schemes, with user
    information, and hostile paths are refused at once (400); someone who
    cannot write the folder cannot import into it. Nothing is ever written
    outside the folder, no staging file is left, no failed import leaves
    a partial directory, and the storage-proxy stops cleanly.

    Git: a bare repository served by `git http-backend` (CGI, run by a
    small python3 server the test writes) is cloned with "git": true: the
    remote HEAD by default into the repository's name, a branch asked by
    "ref", with the files' contents, exec bits, a link inside and a
    submodule left out; a URL with no repository (404), a server that is
    not a smart-HTTP one and an unknown branch fail saying why and leave
    nothing; wrong types are refused at once.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <arpa/inet.h>
#include <ftw.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gateway_client.h"
#include "t.h"
#include "zipw.h"

#define TASK_MS 20000 //  a background task ends within this

static client_platform_t s_p;
static harness_proc_t s_sp;
static char s_storage[128];
static client_keypair_t s_alice, s_bob;
static char s_folder_dir[1024]; //  the folder "imports" on the volume
static int s_listener = -1;
static int s_port;
static pthread_t s_thread;
//  HTTPS: `openssl s_server -WWW` serving s_tls_dir/www, with a certificate
//  the storage-proxy trusts (fetch.ca_file) and one it does not.
static char s_tls_dir[] = "/tmp/backplane-import-tls-XXXXXX";

static const char s_notebook[] =
    "{\"cells\": [{\"cell_type\": \"code\", \"source\": [\"print('hello')\"]}],"
    " \"metadata\": {}, \"nbformat\": 4, \"nbformat_minor\": 5}\n";

//  Archives the server answers, made once.
typedef struct {
    uint8_t *data;
    size_t size;
} blob_t;
static blob_t s_repo, s_dotdot, s_absolute, s_duplicate;

//  ---------------------------------------------------------------------------
//  The loopback server: one request per connection, answered by path.

static void
s_send(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n <= 0)
            return;
        p += n;
        len -= (size_t) n;
    }
}

static void
s_answer(int fd, const char *status, const char *headers, const void *body, size_t len)
{
    char head[1024];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 %s\r\n%sContent-Length: %zu\r\nConnection: close\r\n\r\n",
                     status, headers, len);
    s_send(fd, head, (size_t) n);
    s_send(fd, body, len);
}

static void
s_serve(int fd, const char *path)
{
    char location[256];
    if (strcmp(path, "/nb/hello.ipynb") == 0)
        s_answer(fd, "200 OK", "", s_notebook, strlen(s_notebook));
    else if (strcmp(path, "/redirect") == 0)
        s_answer(fd, "302 Found", "Location: chunked.ipynb\r\n", "", 0);
    else if (strcmp(path, "/chunked.ipynb") == 0) {
        const char *head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
        s_send(fd, head, strlen(head));
        size_t half = strlen(s_notebook) / 2;
        char chunk[64];
        int n = snprintf(chunk, sizeof chunk, "%zx\r\n", half);
        s_send(fd, chunk, (size_t) n);
        s_send(fd, s_notebook, half);
        n = snprintf(chunk, sizeof chunk, "\r\n%zx;ext=1\r\n", strlen(s_notebook) - half);
        s_send(fd, chunk, (size_t) n);
        s_send(fd, s_notebook + half, strlen(s_notebook) - half);
        s_send(fd, "\r\n0\r\n\r\n", 7);
    } else if (strcmp(path, "/repo.zip") == 0)
        s_answer(fd, "200 OK", "", s_repo.data, s_repo.size);
    else if (strcmp(path, "/dotdot.zip") == 0)
        s_answer(fd, "200 OK", "", s_dotdot.data, s_dotdot.size);
    else if (strcmp(path, "/absolute.zip") == 0)
        s_answer(fd, "200 OK", "", s_absolute.data, s_absolute.size);
    else if (strcmp(path, "/duplicate.zip") == 0)
        s_answer(fd, "200 OK", "", s_duplicate.data, s_duplicate.size);
    else if (strcmp(path, "/not-a.zip") == 0)
        s_answer(fd, "200 OK", "", s_notebook, strlen(s_notebook));
    else if (strcmp(path, "/big") == 0) {
        //  Says 2 MiB, over the test's 1 MiB cap: refused before the body.
        const char *head = "HTTP/1.1 200 OK\r\nContent-Length: 2097152\r\n\r\n";
        s_send(fd, head, strlen(head));
    } else if (strcmp(path, "/endless") == 0) {
        //  No length: streamed until the cap stops it.
        const char *head = "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n";
        s_send(fd, head, strlen(head));
        static char block[65536];
        memset(block, 'x', sizeof block);
        for (int i = 0; i < 64; i++)
            s_send(fd, block, sizeof block);
    } else if (strcmp(path, "/loop") == 0)
        s_answer(fd, "302 Found", "Location: /loop\r\n", "", 0);
    else if (strcmp(path, "/to-ftp") == 0)
        s_answer(fd, "301 Moved", "Location: ftp://127.0.0.1/x\r\n", "", 0);
    else if (strcmp(path, "/to-userinfo") == 0) {
        snprintf(location, sizeof location, "Location: http://a:b@127.0.0.1:%d/x\r\n",
                 s_port);
        s_answer(fd, "307 Temporary", location, "", 0);
    } else if (strcmp(path, "/dumb.git/info/refs?service=git-upload-pack") == 0) {
        static const char refs[] =
            "1111111111111111111111111111111111111111\trefs/heads/main\n";
        s_answer(fd, "200 OK", "Content-Type: text/plain\r\n", refs, sizeof refs - 1);
    } else if (strcmp(path, "/silent") == 0)
        sleep(5); //  past fetch.timeout_s: the fetch gives up first
    else
        s_answer(fd, "404 Not Found", "", "no\n", 3);
}

static void *
s_server(void *arg)
{
    (void) arg;
    for (;;) {
        int fd = accept(s_listener, NULL, NULL);
        if (fd < 0)
            return NULL; //  the listener was shut down
        char buf[4096];
        size_t have = 0;
        while (have < sizeof buf - 1 && !memmem(buf, have, "\r\n\r\n", 4)) {
            ssize_t n = recv(fd, buf + have, sizeof buf - 1 - have, 0);
            if (n <= 0)
                break;
            have += (size_t) n;
        }
        buf[have] = 0;
        char path[1024] = "";
        sscanf(buf, "GET %1023s HTTP/1.1", path);
        s_serve(fd, path);
        close(fd);
    }
}

static bool
s_server_start(void)
{
    s_listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (s_listener < 0 || bind(s_listener, (struct sockaddr *) &addr, sizeof addr) != 0 ||
        listen(s_listener, 16) != 0 ||
        getsockname(s_listener, (struct sockaddr *) &addr, &len) != 0)
        return false;
    s_port = ntohs(addr.sin_port);
    return pthread_create(&s_thread, NULL, s_server, NULL) == 0;
}

//  ---------------------------------------------------------------------------
//  Helpers

static int
s_as(const client_keypair_t *kp,
     const char *method,
     const char *path,
     const char *body,
     json_t **json_p)
{
    char *text = NULL;
    int status = client_signed(&s_p, kp, method, path, body, NULL, &text, NULL);
    if (json_p)
        *json_p = text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;
    free(text);
    return status;
}

//  POSTs body to /folders/imports/import and follows its task: 1 when it
//  ended done, 0 when it failed, the status when the import was refused at
//  once (-status when the task's events could not be read); the task's
//  last message, or the refusal's, into message.
static int
s_import_body(const char *body, char *message, size_t size)
{
    char route[128];
    json_t *answer = NULL;
    int status = s_as(&s_alice, "POST", "/folders/imports/import", body, &answer);
    const char *task = json_string_value(json_object_get(answer, "task_id"));
    if (status != 202 || !task) {
        const char *detail = json_string_value(json_object_get(answer, "msg"));
        if (!detail)
            detail = json_string_value(json_object_get(answer, "detail"));
        snprintf(message, size, "%d %s", status, detail ? detail : "");
        json_decref(answer);
        return status;
    }
    snprintf(route, sizeof route, "/events/background-task?task_id=%s", task);
    json_decref(answer);
    client_sign_opts_t opts = {.timeout_ms = TASK_MS};
    char *text = NULL;
    status = client_signed(&s_p, &s_alice, "GET", route, NULL, &opts, &text, NULL);
    const char *end = text ? strstr(text, "event: bgtask_done\r\ndata: ") : NULL;
    bool done = end != NULL;
    if (!end && text)
        end = strstr(text, "event: bgtask_failed\r\ndata: ");
    json_t *data =
        end ? json_loads(strstr(end, "data: ") + 6, JSON_DISABLE_EOF_CHECK, NULL) : NULL;
    const char *m = json_string_value(json_object_get(data, "message"));
    snprintf(message, size, "%s", m ? m : (text ? text : "no answer"));
    json_decref(data);
    free(text);
    return status != 200 ? -status : done ? 1 : 0;
}

//  Imports url (a path of the loopback server when it starts with '/')
//  into path of "imports" and follows its task: true when it ended done,
//  and its last message into message.
static int
s_import(
    const char *url, const char *path, bool unzip, bool strip, char *message, size_t size)
{
    char full[512], body[1024];
    if (url[0] == '/')
        snprintf(full, sizeof full, "http://127.0.0.1:%d%s", s_port, url);
    else
        snprintf(full, sizeof full, "%s", url);
    snprintf(body, sizeof body,
             "{\"url\": \"%s\", \"path\": \"%s\", \"unzip\": %s, \"strip_top\": %s}",
             full, path, unzip ? "true" : "false", strip ? "true" : "false");
    return s_import_body(body, message, size);
}

//  ---------------------------------------------------------------------------
//  Git: a bare repository served by git http-backend through a python3 server

static char s_git_dir[] = "/tmp/backplane-import-git-XXXXXX";
static int s_git_port, s_git_pid;
static FILE *s_git_pipe;

//  The CGI server: runs git http-backend for each request with the
//  environment the CGI spec and git ask for, and answers its output.
static const char s_git_server[] =
    "import http.server, os, subprocess, sys\n"
    "root = sys.argv[1]\n"
    "class H(http.server.BaseHTTPRequestHandler):\n"
    "    def run(self):\n"
    "        path, _, query = self.path.partition('?')\n"
    "        n = int(self.headers.get('Content-Length') or 0)\n"
    "        body = self.rfile.read(n) if n else b''\n"
    "        env = dict(os.environ, GIT_PROJECT_ROOT=root, GIT_HTTP_EXPORT_ALL='1',\n"
    "                   PATH_INFO=path, QUERY_STRING=query, "
    "REQUEST_METHOD=self.command,\n"
    "                   CONTENT_TYPE=self.headers.get('Content-Type', ''),\n"
    "                   CONTENT_LENGTH=str(len(body)), REMOTE_ADDR='127.0.0.1',\n"
    "                   GATEWAY_INTERFACE='CGI/1.1', SERVER_PROTOCOL='HTTP/1.1')\n"
    "        out = subprocess.run(['git', 'http-backend'], input=body, env=env,\n"
    "                             capture_output=True).stdout\n"
    "        at = out.find(b'\\r\\n\\r\\n')\n"
    "        head, rest = (out[:at], out[at + 4:]) if at >= 0 else out.split(b'\\n\\n', "
    "1)\n"
    "        status, headers = 200, []\n"
    "        for line in head.replace(b'\\r', b'').split(b'\\n'):\n"
    "            k, _, v = line.decode().partition(':')\n"
    "            if k.lower() == 'status':\n"
    "                status = int(v.split()[0])\n"
    "            elif k:\n"
    "                headers.append((k, v.strip()))\n"
    "        self.send_response(status)\n"
    "        for k, v in headers:\n"
    "            self.send_header(k, v)\n"
    "        self.send_header('Content-Length', str(len(rest)))\n"
    "        self.send_header('Connection', 'close')\n"
    "        self.end_headers()\n"
    "        self.wfile.write(rest)\n"
    "    do_GET = do_POST = run\n"
    "    def log_message(self, *args):\n"
    "        pass\n"
    "server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), H)\n"
    "print(server.server_address[1], os.getpid(), flush=True)\n"
    "server.serve_forever()\n";

//  The repository: main (the HEAD) with an executable, a module in a
//  subdirectory, a link inside and a submodule; dev with one more file.
static bool
s_git_start(void)
{
    if (!mkdtemp(s_git_dir))
        return false;
    char command[4096];
    snprintf(
        command, sizeof command,
        "cd %s && export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null "
        "GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t "
        "GIT_COMMITTER_EMAIL=t@example.com && git init -q -b main work && cd work && "
        "printf '#!/bin/sh\\necho hello\\n' > run.sh && chmod 755 run.sh && "
        "mkdir -p src/pkg && printf 'import sys\\n' > src/pkg/mod.py && "
        "printf '# gitdemo\\n' > README.md && ln -s src/pkg/mod.py mod-link && "
        "git add -A && git update-index --add --cacheinfo "
        "160000,1111111111111111111111111111111111111111,vendor/sub && "
        "git commit -qm one && git checkout -qb dev && printf dev > dev.txt && "
        "git add dev.txt && git commit -qm two && git checkout -q main && "
        "git clone -q --bare . ../gitdemo.git && cd .. && git init -q -b main big && "
        "cd big && for d in 0 1 2 3 4 5 6 7 8 9; do mkdir d$d && for f in $(seq 1 100); "
        "do echo $d $f > d$d/f$f.txt; done; done && git add -A && git commit -qm big && "
        "git clone -q --bare . ../bigdemo.git",
        s_git_dir);
    if (harness_shell(command) != 0)
        return false;
    char script[1200];
    snprintf(script, sizeof script, "%s/server.py", s_git_dir);
    FILE *f = fopen(script, "w");
    if (!f)
        return false;
    fputs(s_git_server, f);
    fclose(f);
    snprintf(command, sizeof command, "exec python3 -u %s %s", script, s_git_dir);
    s_git_pipe = popen(command, "r");
    char line[64] = "";
    if (!s_git_pipe || !fgets(line, sizeof line, s_git_pipe))
        return false;
    return sscanf(line, "%d %d", &s_git_port, &s_git_pid) == 2 && s_git_port > 0;
}

static void
s_git_stop(void)
{
    if (s_git_pid > 0)
        kill(s_git_pid, SIGTERM);
    if (s_git_pipe)
        pclose(s_git_pipe);
    char command[600];
    snprintf(command, sizeof command, "rm -rf %s", s_git_dir);
    if (s_git_dir[strlen(s_git_dir) - 1] != 'X' && harness_shell(command) != 0)
        fprintf(stderr, "# cannot remove %s\n", s_git_dir);
}

static int64_t
s_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

//  Imports url with git (path and ref left out when NULL) and follows its
//  task, as s_import does.
static int
s_import_git(
    const char *url, const char *path, const char *ref, char *message, size_t size)
{
    char body[1024], extra[256] = "";
    if (path)
        snprintf(extra, sizeof extra, ", \"path\": \"%s\"", path);
    if (ref)
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra), ", \"ref\": \"%s\"",
                 ref);
    snprintf(body, sizeof body, "{\"url\": \"%s\", \"git\": true%s}", url, extra);
    return s_import_body(body, message, size);
}

static bool
s_read_file(const char *rel, char *out, size_t size)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", s_folder_dir, rel);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    size_t n = fread(out, 1, size - 1, f);
    out[n] = 0;
    fclose(f);
    return true;
}

static bool
s_exists(const char *rel)
{
    char path[2048];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", s_folder_dir, rel);
    return lstat(path, &st) == 0;
}

//  What nftw found in the platform's directory: files named "evil" and
//  fetch staging files.
static int s_evil, s_staged;

static int
s_walk(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void) st, (void) type;
    const char *name = path + ftw->base;
    s_evil += strcmp(name, "evil") == 0 || strcmp(name, "evil.txt") == 0;
    s_staged += strncmp(name, "fetch-", 6) == 0;
    return 0;
}

static void
s_scan(void)
{
    s_evil = s_staged = 0;
    nftw(s_p.dir, s_walk, 32, FTW_PHYS);
    nftw("/tmp/evil", s_walk, 4, FTW_PHYS);
}

//  ---------------------------------------------------------------------------
//  Tests

static void
test_start(void)
{
    static const char script[] = "#!/bin/sh\necho hello\n";
    static const char text[] = "import sys\nprint(sys.argv)\n";
    zipw_entry_t repo[] = {
        {"demo-main/", NULL, 0, 0, 040755},
        {"demo-main/README.md", "# demo\n", 7, 8, 0100644},
        {"demo-main/src/pkg/mod.py", text, sizeof text - 1, 8, 0100644},
        {"demo-main/run.sh", script, sizeof script - 1, 0, 0100755},
        {"demo-main/notebooks/", NULL, 0, 0, 040755},
        {"demo-main/link", "../../../../etc/passwd", 22, 0, 0120777},
    };
    s_repo.data = zipw_build(repo, 6, &s_repo.size);
    zipw_entry_t dotdot[] = {{"fine.txt", "x", 1, 0, 0}, {"../evil", "evil", 4, 0, 0}};
    s_dotdot.data = zipw_build(dotdot, 2, &s_dotdot.size);
    zipw_entry_t absolute[] = {{"fine.txt", "x", 1, 0, 0},
                               {"/tmp/evil/evil.txt", "evil", 4, 8, 0}};
    s_absolute.data = zipw_build(absolute, 2, &s_absolute.size);
    zipw_entry_t duplicate[] = {{"a.txt", "1", 1, 0, 0}, {"./a.txt", "2", 1, 0, 0}};
    s_duplicate.data = zipw_build(duplicate, 2, &s_duplicate.size);
    T_ASSERT(s_server_start());
    T_ASSERT(mkdtemp(s_tls_dir));
    char command[2048];
    snprintf(command, sizeof command,
             "cd %s && mkdir www && for c in trusted other; do openssl req -x509"
             " -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1"
             " -addext subjectAltName=IP:127.0.0.1 -keyout $c.key -out $c.crt"
             " 2>/dev/null || exit 1; done",
             s_tls_dir);
    T_EQ_INT(harness_shell(command), 0);
    char notebook[600];
    snprintf(notebook, sizeof notebook, "%s/www/tls.ipynb", s_tls_dir);
    FILE *file = fopen(notebook, "w");
    T_ASSERT(file && fputs(s_notebook, file) >= 0);
    if (file)
        fclose(file);
    T_ASSERT(client_platform_start(&s_p, "import", false) == 0);
    char ca[600];
    snprintf(ca, sizeof ca, "fetch.ca_file=%s/trusted.crt", s_tls_dir);
    const char *const sets[] = {"fetch.allow_private=true",
                                "fetch.max_bytes=1m",
                                "fetch.timeout_s=3",
                                "fetch.max_redirects=3",
                                ca,
                                NULL};
    T_ASSERT(client_storage_start_with(&s_p, &s_sp, s_storage, sizeof s_storage, sets));
    T_ASSERT(client_person(&s_p, "alice@example.com", "default", "user", &s_alice));
    T_ASSERT(client_person(&s_p, "bob@example.com", "default", "user", &s_bob));
    json_t *made = NULL;
    T_EQ_INT(s_as(&s_alice, "POST", "/folders", "{\"name\": \"imports\"}", &made), 201);
    char hex[64] = "";
    const char *id = json_string_value(json_object_get(made, "id"));
    for (size_t i = 0, n = 0; id && id[i] && n < 32; i++)
        if (id[i] != '-')
            hex[n++] = id[i];
    json_decref(made);
    T_EQ_INT(strlen(hex), 32);
    snprintf(s_folder_dir, sizeof s_folder_dir, "%s/vfolders/%.2s/%s", s_p.dir, hex, hex);
    struct stat st;
    T_ASSERT(stat(s_folder_dir, &st) == 0 && S_ISDIR(st.st_mode));
}

static void
test_notebook(void)
{
    char message[512], data[1024];
    T_EQ_INT(
        s_import("/nb/hello.ipynb", "hello.ipynb", false, false, message, sizeof message),
        1);
    T_CONTAINS(message, "hello.ipynb");
    T_ASSERT(s_read_file("hello.ipynb", data, sizeof data));
    T_EQ_STR(data, s_notebook);
    //  Chunked, behind a relative redirect, into directories made on the way.
    T_EQ_INT(
        s_import("/redirect", "deep/er/nb2.ipynb", false, false, message, sizeof message),
        1);
    T_ASSERT(s_read_file("deep/er/nb2.ipynb", data, sizeof data));
    T_EQ_STR(data, s_notebook);
    //  What exists is not replaced.
    T_EQ_INT(
        s_import("/nb/hello.ipynb", "hello.ipynb", false, false, message, sizeof message),
        400);
    T_CONTAINS(message, "already exists");
    //  Without a path, the URL's last segment names the file.
    char body[256];
    snprintf(body, sizeof body, "{\"url\": \"http://127.0.0.1:%d/nb/hello.ipynb?x=1\"}",
             s_port);
    T_EQ_INT(s_as(&s_alice, "POST", "/folders/imports/import", body, NULL), 400);
}

static void
test_repository(void)
{
    char message[512], data[256];
    T_EQ_INT(s_import("/repo.zip", "demo", true, true, message, sizeof message), 1);
    T_CONTAINS(message, "entries unpacked, 1 symbolic links left out");
    T_ASSERT(s_read_file("demo/README.md", data, sizeof data));
    T_EQ_STR(data, "# demo\n");
    T_ASSERT(s_read_file("demo/src/pkg/mod.py", data, sizeof data));
    T_EQ_STR(data, "import sys\nprint(sys.argv)\n");
    T_ASSERT(s_exists("demo/notebooks"));
    T_ASSERT(!s_exists("demo/link"));
    T_ASSERT(!s_exists("demo/demo-main"));
    char path[2048];
    struct stat st;
    snprintf(path, sizeof path, "%s/demo/run.sh", s_folder_dir);
    T_ASSERT(stat(path, &st) == 0 && (st.st_mode & 0111));
    //  Without strip_top the archive's own top directory stays.
    T_EQ_INT(s_import("/repo.zip", "demo2", true, false, message, sizeof message), 1);
    T_ASSERT(s_exists("demo2/demo-main/README.md"));
}

static void
test_refused_at_once(void)
{
    char message[512];
    const struct {
        const char *url, *path, *says;
    } cases[] = {
        {"ftp://127.0.0.1/x", "x", "only http"},
        {"file:///etc/passwd", "x", "only http"},
        {"http://user:pw@127.0.0.1/x", "x", "user information"},
        {"/nb/hello.ipynb", "../escape.ipynb", ".."},
        {"/nb/hello.ipynb", "/abs.ipynb", "absolute"},
        {"/nb/hello.ipynb", "a//b", "empty"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        T_EQ_INT(
            s_import(cases[i].url, cases[i].path, false, false, message, sizeof message),
            400);
        T_CONTAINS(message, cases[i].says);
    }
    //  Bob reaches no folder of Alice's; nor may anyone import without a URL.
    char body[256];
    snprintf(body, sizeof body, "{\"url\": \"http://127.0.0.1:%d/nb/hello.ipynb\"}",
             s_port);
    T_EQ_INT(s_as(&s_bob, "POST", "/folders/imports/import", body, NULL), 404);
    T_EQ_INT(s_as(&s_alice, "POST", "/folders/imports/import", "{}", NULL), 400);
    T_EQ_INT(s_as(&s_alice, "POST", "/folders/imports/import",
                  "{\"url\": \"http://x/\", \"unzip\": \"yes\"}", NULL),
             400);
}

static void
test_failed_tasks(void)
{
    char message[512];
    const struct {
        const char *url, *path;
        bool unzip;
        const char *says;
    } cases[] = {
        {"/dotdot.zip", "bad1", true, "refused archive"},
        {"/absolute.zip", "bad2", true, "refused archive"},
        {"/duplicate.zip", "bad3", true, "twice"},
        {"/not-a.zip", "bad4", true, "not a zip archive"},
        {"/big", "big.bin", false, "more than 1048576"},
        {"/endless", "endless.bin", false, "larger than 1048576"},
        {"/loop", "loop.bin", false, "more than 3 redirects"},
        {"/to-ftp", "ftp.bin", false, "refused URL"},
        {"/to-userinfo", "userinfo.bin", false, "user information"},
        {"/missing", "missing.bin", false, "answered 404"},
        {"/silent", "silent.bin", false, "longer than 3 s"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int rc = s_import(cases[i].url, cases[i].path, cases[i].unzip, false, message,
                          sizeof message);
        if (rc != 0 || !strstr(message, cases[i].says))
            fprintf(stderr, "# %s: rc=%d message=%s\n", cases[i].url, rc, message);
        T_EQ_INT(rc, 0);
        T_CONTAINS(message, cases[i].says);
        T_ASSERT(!s_exists(cases[i].path));
    }
    //  Nothing escaped, nothing staged is left.
    s_scan();
    T_EQ_INT(s_evil, 0);
    T_EQ_INT(s_staged, 0);
    //  Still serving.
    T_EQ_INT(
        s_import("/nb/hello.ipynb", "again.ipynb", false, false, message, sizeof message),
        1);
}

//  An HTTPS server for the test (openssl s_server -WWW with cert.crt and
//  cert.key of s_tls_dir, serving its www/): its port, or 0; its pid into
//  *pid.
static int
s_https_start(const char *cert, int *pid)
{
    int port = harness_free_port();
    char command[2048], line[64] = "";
    snprintf(command, sizeof command,
             "cd %s/www && { openssl s_server -quiet -WWW -accept 127.0.0.1:%d -cert"
             " ../%s.crt -key ../%s.key >/dev/null 2>&1 </dev/null & echo $!; }",
             s_tls_dir, port, cert, cert);
    FILE *pipe = popen(command, "r");
    if (!pipe || !fgets(line, sizeof line, pipe)) {
        if (pipe)
            pclose(pipe);
        return 0;
    }
    pclose(pipe);
    *pid = atoi(line);
    //  Up once it takes a connection.
    for (int tries = 0; tries < 100; tries++) {
        int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        struct sockaddr_in addr = {.sin_family = AF_INET,
                                   .sin_port = htons((uint16_t) port)};
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        bool up = fd >= 0 && connect(fd, (struct sockaddr *) &addr, sizeof addr) == 0;
        if (fd >= 0)
            close(fd);
        if (up)
            return port;
        harness_pause_ms(50);
    }
    return 0;
}

//  A notebook fetched over HTTPS from a server whose certificate the
//  storage-proxy trusts (fetch.ca_file), and refused, saying why, from one
//  whose certificate it does not.
static void
test_https(void)
{
    int trusted_pid = 0, other_pid = 0;
    int trusted = s_https_start("trusted", &trusted_pid);
    int other = s_https_start("other", &other_pid);
    T_ASSERT(trusted > 0 && other > 0);
    char url[128], message[512], data[1024];
    snprintf(url, sizeof url, "https://127.0.0.1:%d/tls.ipynb", trusted);
    T_EQ_INT(s_import(url, "tls.ipynb", false, false, message, sizeof message), 1);
    T_ASSERT(s_read_file("tls.ipynb", data, sizeof data));
    T_EQ_STR(data, s_notebook);
    snprintf(url, sizeof url, "https://127.0.0.1:%d/tls.ipynb", other);
    T_EQ_INT(s_import(url, "tls-other.ipynb", false, false, message, sizeof message), 0);
    T_CONTAINS(message, "certificate");
    T_ASSERT(!s_exists("tls-other.ipynb"));
    if (trusted_pid > 0)
        kill(trusted_pid, SIGTERM);
    if (other_pid > 0)
        kill(other_pid, SIGTERM);
}

//  A repository cloned with git: the remote HEAD into its name, a branch
//  asked for, and the failures.
static void
test_git(void)
{
    T_ASSERT(s_git_start());
    char url[256], message[512], data[256], path[2048];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/gitdemo.git", s_git_port);
    int64_t started = s_now_ms();
    T_EQ_INT(s_import_git(url, NULL, NULL, message, sizeof message), 1);
    fprintf(stderr, "# git clone of 4 files: %lld ms\n",
            (long long) (s_now_ms() - started));
    T_CONTAINS(message, "cloned main at ");
    T_CONTAINS(message, ": 4 files, 1 submodules left out");
    T_ASSERT(s_read_file("gitdemo/run.sh", data, sizeof data));
    T_EQ_STR(data, "#!/bin/sh\necho hello\n");
    T_ASSERT(s_read_file("gitdemo/src/pkg/mod.py", data, sizeof data));
    T_EQ_STR(data, "import sys\n");
    T_ASSERT(s_read_file("gitdemo/README.md", data, sizeof data));
    T_EQ_STR(data, "# gitdemo\n");
    struct stat st;
    snprintf(path, sizeof path, "%s/gitdemo/run.sh", s_folder_dir);
    T_ASSERT(stat(path, &st) == 0 && (st.st_mode & 0777) == 0755);
    snprintf(path, sizeof path, "%s/gitdemo/README.md", s_folder_dir);
    T_ASSERT(stat(path, &st) == 0 && (st.st_mode & 0777) == 0644);
    snprintf(path, sizeof path, "%s/gitdemo/mod-link", s_folder_dir);
    char target[64] = "";
    ssize_t n = readlink(path, target, sizeof target - 1);
    T_ASSERT(n > 0);
    target[n > 0 ? n : 0] = 0;
    T_EQ_STR(target, "src/pkg/mod.py");
    T_ASSERT(!s_exists("gitdemo/dev.txt"));
    T_ASSERT(!s_exists("gitdemo/vendor/sub"));
    T_ASSERT(!s_exists("gitdemo/.git"));
    //  A thousand files in ten directories.
    char big[256];
    snprintf(big, sizeof big, "http://127.0.0.1:%d/bigdemo.git", s_git_port);
    started = s_now_ms();
    T_EQ_INT(s_import_git(big, NULL, NULL, message, sizeof message), 1);
    fprintf(stderr,
            "# git clone of 1000 files: %lld ms (the task is polled every %d ms)\n",
            (long long) (s_now_ms() - started), 500);
    T_CONTAINS(message, ": 1000 files");
    T_ASSERT(s_read_file("bigdemo/d9/f100.txt", data, sizeof data));
    T_EQ_STR(data, "9 100\n");
    //  Another branch, into a path of our own.
    T_EQ_INT(s_import_git(url, "branches/dev", "dev", message, sizeof message), 1);
    T_CONTAINS(message, "cloned dev at ");
    T_ASSERT(s_read_file("branches/dev/dev.txt", data, sizeof data));
    T_EQ_STR(data, "dev");
    //  What exists is not replaced.
    T_EQ_INT(s_import_git(url, NULL, NULL, message, sizeof message), 400);
    T_CONTAINS(message, "already exists");
    //  The failures say why and leave nothing.
    char missing[256], dumb[256];
    snprintf(missing, sizeof missing, "http://127.0.0.1:%d/nothing.git", s_port);
    snprintf(dumb, sizeof dumb, "http://127.0.0.1:%d/dumb.git", s_port);
    const struct {
        const char *url, *path, *ref, *says;
    } cases[] = {
        {missing, "git-missing", NULL, "no git repository at"},
        {dumb, "git-dumb", NULL, "not a git smart-HTTP server"},
        {url, "git-nope", "nope", "no branch or tag nope"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int rc = s_import_git(cases[i].url, cases[i].path, cases[i].ref, message,
                              sizeof message);
        if (rc != 0 || !strstr(message, cases[i].says))
            fprintf(stderr, "# %s: rc=%d message=%s\n", cases[i].url, rc, message);
        T_EQ_INT(rc, 0);
        T_CONTAINS(message, cases[i].says);
        T_ASSERT(!s_exists(cases[i].path));
    }
    //  Wrong types, at once.
    const char *bodies[] = {
        "{\"url\": \"http://x/r.git\", \"git\": \"yes\"}",
        "{\"url\": \"http://x/r.git\", \"git\": true, \"ref\": 5}",
        "{\"url\": \"http://x/r.git\", \"ref\": \"main\"}",
        "{\"url\": \"http://x/r.git\", \"git\": true, \"unzip\": true}",
    };
    for (size_t i = 0; i < sizeof bodies / sizeof *bodies; i++)
        T_EQ_INT(s_as(&s_alice, "POST", "/folders/imports/import", bodies[i], NULL), 400);
    s_scan();
    T_EQ_INT(s_staged, 0);
}

int
main(void)
{
    T_RUN(test_start);
    if (t_failures)
        return T_DONE();
    T_RUN(test_notebook);
    T_RUN(test_repository);
    T_RUN(test_refused_at_once);
    T_RUN(test_failed_tasks);
    T_RUN(test_https);
    T_RUN(test_git);
    int sp = harness_stop(&s_sp, CLIENT_STOP_MS);
    bool clean = client_platform_stop(&s_p) && sp == 0 && !harness_log_has_report(&s_sp);
    if (!clean)
        fprintf(stderr, "# a service did not stop cleanly (storage %d)\n", sp);
    client_platform_end(&s_p, t_failures > 0 || !clean);
    shutdown(s_listener, SHUT_RDWR);
    close(s_listener);
    pthread_join(s_thread, NULL);
    free(s_repo.data);
    free(s_dotdot.data);
    free(s_absolute.data);
    free(s_duplicate.data);
    char command[600];
    snprintf(command, sizeof command, "rm -rf %s", s_tls_dir);
    if (s_tls_dir[strlen(s_tls_dir) - 1] != 'X' && harness_shell(command) != 0)
        fprintf(stderr, "# cannot remove %s\n", s_tls_dir);
    s_git_stop();
    return clean ? T_DONE() : 1;
}
