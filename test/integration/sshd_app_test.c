/*  =========================================================================
    sshd_app_test - ssh and scp into a session, as `backend.ai ssh` does

    The python image (Debian's dropbear and its sshd service definition)
    runs in a real runc container. As the official client's `backend.ai ssh`
    and `scp` do: the session lists sshd (tcp, 2200); /home/work/id_container,
    the private half of the key pair the runner made when the kernel
    started, comes through the session download route (a tar whose entry is
    mode 600, owned by work) and matches ~/.ssh/authorized_keys; a local port
    carries each connection through /stream/session/S/tcpproxy?app=sshd;
    Debian's ssh with that key runs a command as work and prints its
    answer, scp (SFTP, OpenSSH 9's default) copies a file in, and a key of
    another pair is refused. Needs root, runc, umoci, tini, and the python
    image (built from Debian's archive the first time: skipped without it);
    the ssh part needs /usr/bin/ssh (openssh-client, deploy/install-deps).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gateway_client.h"
#include "t.h"

#define IMAGE       "local.backplane/library/python:latest"
#define SSH         "/usr/bin/ssh"
#define SSH_TIMEOUT "60" //  seconds, for timeout(1) around ssh and scp
#define TAR_BLOCK   512

static client_platform_t s_p;
static harness_proc_t s_agent;
static char s_bridge[16];
static char *s_images;
static char s_key[512];           //  id_container, downloaded
static char s_authorized[512];    //  the session's ~/.ssh/authorized_keys
static client_tunnel_t *s_tunnel; //  the local end of the sshd app

//  Runs command (through sh) and reads its stdout and stderr; the exit
//  status, or -1.
static int
s_run(const char *command, char *out, size_t size)
{
    char line[4096];
    snprintf(line, sizeof line, "%s 2>&1", command);
    FILE *pipe = popen(line, "r");
    size_t used = 0;
    if (out && size)
        *out = '\0';
    while (pipe && out && used + 1 < size) {
        size_t n = fread(out + used, 1, size - used - 1, pipe);
        if (n == 0)
            break;
        used += n;
        out[used] = '\0';
    }
    int status = pipe ? pclose(pipe) : -1;
    return status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

//  An octal field of a tar header.
static long
s_tar_octal(const char *field, size_t size)
{
    char text[16] = "";
    memcpy(text, field, size < sizeof text - 1 ? size : sizeof text - 1);
    return strtol(text, NULL, 8);
}

static void
test_start(void)
{
    T_ASSERT(client_platform_start(&s_p, "sshd-app", false) == 0);
    snprintf(s_bridge, sizeof s_bridge, "bps%d", (int) (getpid() % 100000));
    T_ASSERT(client_image_agent_start(&s_p, &s_agent, "agent-s", s_bridge, s_images,
                                      "python"));
    T_ASSERT(client_session_running(
        &s_p, &s_p.super,
        "{\"name\": \"sshbox\", \"image\": \"" IMAGE "\","
        " \"enqueueOnly\": true,"
        " \"config\": {\"resources\": {\"cpu\": 1, \"mem\": \"512m\"}}}",
        "sshbox", NULL));
}

//  The session offers sshd as Backend.AI's agent does: tcp, container port 2200.
static void
test_apps(void)
{
    char *text = NULL;
    T_EQ_INT(client_signed(&s_p, &s_p.super, "GET", "/stream/session/sshbox/apps", NULL,
                           NULL, &text, NULL),
             200);
    json_t *apps = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    json_t *sshd = NULL;
    size_t i;
    json_t *app;
    json_array_foreach(apps, i, app)
    {
        if (json_is_string(json_object_get(app, "name")) &&
            strcmp(json_string_value(json_object_get(app, "name")), "sshd") == 0)
            sshd = app;
    }
    T_ASSERT(sshd);
    T_EQ_STR(json_string_value(json_object_get(sshd, "protocol")), "tcp");
    T_EQ_INT(json_integer_value(json_array_get(json_object_get(sshd, "ports"), 0)), 2200);
    json_decref(apps);
}

//  id_container through the download route the official client uses: one
//  tar per file in a multipart/mixed reply; the entry keeps the file's mode
//  and owner, which ssh insists on (a key readable by others is refused).
static void
test_key(void)
{
    char *body = NULL, *headers = NULL;
    size_t size = 0;
    T_EQ_INT(client_signed_bytes(&s_p, &s_p.super, "GET", "/session/sshbox/download",
                                 "{\"files\": [\"id_container\"]}", NULL, &body, &size,
                                 &headers),
             200);
    T_CONTAINS(headers, "multipart/mixed; boundary=");
    //  The first part's body: a tar header block, then the file.
    const char *part = body ? strstr(body, "\r\n\r\n") : NULL;
    T_ASSERT(part);
    const char *tar = part ? part + 4 : NULL;
    bool whole = tar && (size_t) (tar - body) + 2 * TAR_BLOCK <= size;
    T_ASSERT(whole);
    if (whole) {
        T_EQ_STR(tar, "id_container");
        T_EQ_INT(s_tar_octal(tar + 100, 8), 0600); //  mode
        T_EQ_INT(s_tar_octal(tar + 108, 8), 1000); //  uid: work
        long length = s_tar_octal(tar + 124, 12);
        T_ASSERT(length > 64 && (size_t) (tar - body) + TAR_BLOCK + length <= size);
        const char *key = tar + TAR_BLOCK;
        T_ASSERT(strncmp(key, "-----BEGIN OPENSSH PRIVATE KEY-----\n", 36) == 0);
        snprintf(s_key, sizeof s_key, "%s/id_container", s_p.dir);
        FILE *file = fopen(s_key, "w");
        T_ASSERT(file && fwrite(key, 1, (size_t) length, file) == (size_t) length);
        if (file)
            fclose(file);
        T_EQ_INT(chmod(s_key, 0600), 0);
    }
    free(body);
    free(headers);
    //  Its public half is what ~/.ssh/authorized_keys holds.
    char *text = NULL;
    T_EQ_INT(client_signed(&s_p, &s_p.super, "POST",
                           "/session/sshbox/download_single?file=.ssh/authorized_keys",
                           NULL, NULL, &text, NULL),
             200);
    T_ASSERT(text && strncmp(text, "ssh-ed25519 AAAA", 16) == 0);
    snprintf(s_authorized, sizeof s_authorized, "%s", text ? text : "");
    free(text);
    if (access("/usr/bin/ssh-keygen", X_OK) == 0 && *s_key) {
        char command[1024], out[1024];
        snprintf(command, sizeof command, "ssh-keygen -y -f %s", s_key);
        T_EQ_INT(s_run(command, out, sizeof out), 0);
        //  "ssh-ed25519 AAAA..." against "ssh-ed25519 AAAA... comment"
        size_t blob = strcspn(s_authorized, " ");
        blob += strcspn(s_authorized + blob + 1, " \n") + 1;
        T_ASSERT(strncmp(out, s_authorized, blob) == 0);
    }
}

static void
test_ssh(void)
{
    if (access(SSH, X_OK) != 0)
        T_SKIP(SSH " is absent: install openssh-client (deploy/install-deps)");
    T_ASSERT(*s_key); //  test_key downloaded it
    if (!*s_key)
        return;
    s_tunnel =
        client_tunnel_new(&s_p, &s_p.super, "/stream/session/sshbox/tcpproxy?app=sshd");
    T_ASSERT(s_tunnel);
    if (!s_tunnel)
        return;
    int port = client_tunnel_port(s_tunnel);
    const char *opts = "-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null"
                       " -o BatchMode=yes -o ConnectTimeout=30 -o LogLevel=ERROR";
    char command[2048], out[4096];
    //  A command, as `backend.ai ssh SESSION -- CMD` runs it.
    snprintf(command, sizeof command,
             "timeout " SSH_TIMEOUT " ssh %s -i %s -p %d work@127.0.0.1 "
             "'echo $((6*7)) $(id -un) $PWD'",
             opts, s_key, port);
    T_EQ_INT(s_run(command, out, sizeof out), 0);
    T_EQ_STR(out, "42 work /home/work\n");
    //  scp in (SFTP, through the image's sftp-server), and the file is there.
    char local[600];
    snprintf(local, sizeof local, "%s/hello.txt", s_p.dir);
    FILE *file = fopen(local, "w");
    T_ASSERT(file && fputs("copied by scp\n", file) >= 0);
    if (file)
        fclose(file);
    snprintf(command, sizeof command,
             "timeout " SSH_TIMEOUT " scp %s -i %s -P %d %s work@127.0.0.1:scp.txt", opts,
             s_key, port, local);
    T_EQ_INT(s_run(command, out, sizeof out), 0);
    char *text = NULL;
    T_EQ_INT(client_signed(&s_p, &s_p.super, "POST",
                           "/session/sshbox/download_single?file=scp.txt", NULL, NULL,
                           &text, NULL),
             200);
    T_EQ_STR(text, "copied by scp\n");
    free(text);
    //  Another pair's key is refused.
    char wrong[600];
    snprintf(wrong, sizeof wrong, "%s/id_wrong", s_p.dir);
    snprintf(command, sizeof command, "ssh-keygen -q -t ed25519 -N '' -f %s", wrong);
    T_EQ_INT(s_run(command, out, sizeof out), 0);
    snprintf(command, sizeof command,
             "timeout " SSH_TIMEOUT " ssh %s -i %s -p %d work@127.0.0.1 "
             "'echo $((6*7))'",
             opts, wrong, port);
    T_EQ_INT(s_run(command, out, sizeof out), 255);
    T_CONTAINS(out, "Permission denied");
    T_ASSERT(!strstr(out, "42"));
}

static void
test_destroy(void)
{
    T_EQ_INT(client_signed(&s_p, &s_p.super, "DELETE", "/session/sshbox", NULL, NULL,
                           NULL, NULL),
             200);
}

int
main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    signal(SIGPIPE, SIG_IGN);
    if (!harness_can_run_containers()) {
        printf("1..0 # SKIP needs root, runc, umoci and /usr/bin/tini-static\n");
        return 0;
    }
    s_images = harness_tmpdir("sshd-image");
    if (!s_images || harness_debian_image(s_images, "python") != 0) {
        harness_rmdir(s_images);
        free(s_images);
        printf("1..0 # SKIP the python image could not be built (deploy/images/build "
               "python needs mmdebstrap and Debian's archive)\n");
        return 0;
    }
    T_RUN(test_start);
    harness_rmdir(s_images);
    free(s_images);
    if (t_failures)
        return T_DONE();
    T_RUN(test_apps);
    T_RUN(test_key);
    T_RUN(test_ssh);
    T_RUN(test_destroy);
    client_tunnel_destroy(&s_tunnel);
    int agent = harness_stop(&s_agent, CLIENT_STOP_MS);
    bool clean =
        client_platform_stop(&s_p) && agent == 0 && !harness_log_has_report(&s_agent);
    if (!clean)
        fprintf(stderr, "# a service did not stop cleanly (agent %d)\n", agent);
    char command[64];
    snprintf(command, sizeof command, "ip link del %s 2>/dev/null", s_bridge);
    if (system(command) == 0)
        fprintf(stderr, "# the agent left its bridge %s\n", s_bridge);
    client_platform_end(&s_p, t_failures > 0 || !clean);
    return clean ? T_DONE() : 1;
}
