/*  =========================================================================
    agent_command_test - running a tool: exit status, captured output, the
    descriptors the child gets, a tool that cannot run

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <fcntl.h> //  open flags
#include "t.h"

//  A memory file's whole content into buf.
static const char *
s_text(int fd, char *buf, size_t size)
{
    ssize_t n = fd >= 0 ? pread(fd, buf, size - 1, 0) : -1;
    buf[n > 0 ? n : 0] = '\0';
    return buf;
}

static void
test_status_and_capture(void)
{
    const char *ok[] = {"true", NULL};
    T_EQ_INT(agent_command_run(ok, -1, NULL, NULL), 0);
    const char *three[] = {"sh", "-c", "exit 3", NULL};
    T_EQ_INT(agent_command_run(three, -1, NULL, NULL), 3);
    const char *killed[] = {"sh", "-c", "kill -TERM $$", NULL};
    T_EQ_INT(agent_command_run(killed, -1, NULL, NULL), 128 + SIGTERM);
    //  stdout and stderr apart, then together.
    const char *both[] = {"sh", "-c", "echo out; echo err >&2", NULL};
    int out = -1, err = -1;
    char buf[256];
    T_EQ_INT(agent_command_run(both, -1, &out, &err), 0);
    T_EQ_STR(s_text(out, buf, sizeof buf), "out\n");
    T_EQ_STR(s_text(err, buf, sizeof buf), "err\n");
    close(out);
    close(err);
    T_EQ_INT(agent_command_run(both, -1, &out, NULL), 0);
    T_EQ_STR(s_text(out, buf, sizeof buf), "out\nerr\n");
    close(out);
}

//  With out_fd, both streams go there; stdin is the null device; no other
//  descriptor of ours reaches the child.
static void
test_descriptors(void)
{
    char path[] = "/tmp/agent_command_test.XXXXXX";
    int fd = mkstemp(path);
    T_ASSERT(fd >= 0);
    int extra = open("/dev/null", O_RDONLY); //  not close-on-exec
    T_ASSERT(extra >= 3);
    const char *look[] = {
        "sh", "-c", "echo to-out; echo to-err >&2; cat; ls /proc/self/fd | wc -l", NULL};
    T_EQ_INT(agent_command_run(look, fd, NULL, NULL), 0);
    char buf[256];
    //  0, 1, 2 and the one ls opens to read the directory
    T_EQ_STR(s_text(fd, buf, sizeof buf), "to-out\nto-err\n4\n");
    close(extra);
    close(fd);
    unlink(path);
}

static void
test_cannot_run(void)
{
    const char *missing[] = {"/no/such/tool", NULL};
    errno = 0;
    int out = -2;
    T_EQ_INT(agent_command_run(missing, -1, &out, NULL), -1);
    T_EQ_INT(errno, ENOENT);
    if (out >= 0)
        close(out);
    const char *unknown[] = {"no-such-tool-anywhere", NULL};
    errno = 0;
    T_EQ_INT(agent_command_run(unknown, -1, NULL, NULL), -1);
    T_EQ_INT(errno, ENOENT);
}

int
main(void)
{
    T_RUN(test_status_and_capture);
    T_RUN(test_descriptors);
    T_RUN(test_cannot_run);
    return T_DONE();
}
