/*  =========================================================================
    agent_command - running the tools the agent drives (runc, umoci, ip)

    One way to run a child for every module: argv without a shell, stdin
    from /dev/null, no descriptor of ours leaked (close_range), output
    either to a given descriptor or captured in memory files the caller
    reads, and an exit status that says whether the tool ran at all.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_COMMAND_H_INCLUDED
#define AGENT_COMMAND_H_INCLUDED

#include <stddef.h>

//  Runs argv (argv[0] a path, or a name looked up in PATH) and waits for it.
//  With out_fd >= 0 its stdout and stderr go there. Otherwise they are
//  captured: *out_p receives a memory file with stdout, and stderr too when
//  err_p is NULL, else *err_p one with stderr; the caller reads and closes
//  them (they are -1 when nothing could be captured). Returns the exit
//  status (128 + n after signal n), or -1 when the tool could not run
//  (errno ENOENT when exec failed).
int agent_command_run(const char *const *argv, int out_fd, int *out_p, int *err_p);

//  The last size - 1 bytes of what fd holds, NUL-terminated in buf, with
//  trailing white space trimmed. Returns the length.
size_t agent_command_tail(int fd, char *buf, size_t size);

#endif
