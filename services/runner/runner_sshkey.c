/*  =========================================================================
    runner_sshkey - the SSH key pair of the sshd app, made at the runner's start

    Backend.AI's runner makes a key pair when it starts, if the user has no
    ~/.ssh/authorized_keys yet: the public half becomes authorized_keys, the
    private half in OpenSSH format is /home/work/id_container, which the
    official client (`backend.ai ssh`, `scp`) and the web UI download before
    they open the sshd app. So the key must exist from the kernel's start, not
    from the app's: it is made here, before the runner listens (the agent
    takes the socket appearing as the kernel being up), and only in images
    that carry dropbear's key tools (Debian's dropbear-bin); elsewhere this
    costs two access() calls. The work is a short shell script run as the
    user in the workdir, with the image's own dropbearkey and dropbearconvert,
    so the files are the user's, mode 600, in the format the sshd app reads.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "runner_classes.h"

//  Run as the user in the workdir: $1 dropbearkey, $2 dropbearconvert. An
//  ed25519 key (dropbear makes an RSA key in seconds, this in a millisecond;
//  OpenSSH reads both). authorized_keys is moved into place last, so a script
//  that fails half-way is tried again at the next start.
static const char s_script[] =
    "set -e\n"
    "umask 077\n"
    "k=$(mktemp -d)\n"
    "trap 'rm -rf \"$k\"' EXIT\n"
    "\"$1\" -t ed25519 -f \"$k/id\" >/dev/null 2>&1\n"
    "\"$1\" -y -f \"$k/id\" 2>/dev/null | sed -n '/^ssh-/p' >\"$k/pub\"\n"
    "test -s \"$k/pub\"\n"
    "rm -f id_container\n"
    "\"$2\" dropbear openssh \"$k/id\" id_container >/dev/null 2>&1\n"
    "chmod 600 id_container\n"
    "mkdir -p .ssh\n"
    "chmod 700 .ssh\n"
    "mv \"$k/pub\" .ssh/authorized_keys\n";

int
runner_sshkey_prepare(const runner_t *r)
{
    assert(r);
    if (access(RUNNER_DROPBEARKEY, X_OK) != 0 ||
        access(RUNNER_DROPBEARCONVERT, X_OK) != 0)
        return 0; //  the image has no dropbear: no sshd app, no key
    char path[PATH_MAX];
    struct stat st;
    int n = snprintf(path, sizeof path, "%s/.ssh/authorized_keys", r->workdir);
    if (n < 0 || (size_t) n >= sizeof path || lstat(path, &st) == 0)
        return 0; //  the user has keys of their own (or had one made before)
    const char *argv[] = {
        RUNNER_SHELL,           "-c", s_script, "sshkey", RUNNER_DROPBEARKEY,
        RUNNER_DROPBEARCONVERT, NULL};
    runner_spawn_t spec = {
        .argv = argv, .fds = {-1, STDERR_FILENO, STDERR_FILENO}, .nfds = 3, .tty = -1};
    pid_t pid = runner_spawn(r, &spec);
    if (pid < 0) {
        runner_log("warning", "ssh key: cannot start: %s", strerror(errno));
        return -1;
    }
    //  Bounded: a runner that never listens would fail the kernel's start.
    int status = 0;
    pid_t done = 0;
    for (int waited = 0; done == 0 && waited < RUNNER_SSHKEY_WAIT_MS;
         waited += RUNNER_SSHKEY_POLL_MS) {
        done = waitpid(pid, &status, WNOHANG);
        if (done == 0)
            nanosleep(&(struct timespec){0, RUNNER_SSHKEY_POLL_MS * 1000000L}, NULL);
    }
    if (done == 0) {
        kill(-pid, SIGKILL);
        waitpid(pid, &status, 0);
        runner_log("warning", "ssh key: not made in %d ms, killed",
                   RUNNER_SSHKEY_WAIT_MS);
        return -1;
    }
    if (done < 0 || runner_exit_code(status) != 0) {
        runner_log("warning", "ssh key: the script failed exit=%d",
                   done < 0 ? -1 : runner_exit_code(status));
        return -1;
    }
    runner_log("notice", "ssh key made: %s/.ssh/authorized_keys and %s/id_container",
               r->workdir, r->workdir);
    return 0;
}
