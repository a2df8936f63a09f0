/*  =========================================================================
    agent_hosts - a kernel's /etc/hosts: <state_dir>/hosts/<kernel_id>

    Each kernel's /etc/hosts is a file of the agent, bound read-only into
    its container (agent_runc makes the kernel's own directory, so the file
    cannot live there before the container starts): localhost and its own
    name at first, the whole cluster's names once the scheduler sends
    kernel.hosts. A bound file pins its inode, so a rename would go unseen:
    it is rewritten in place (the new text over the old, then cut to its
    length, so a reader never sees it empty).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_HOSTS_H_INCLUDED
#define AGENT_HOSTS_H_INCLUDED

#include "bus.h"

//  The directory under the state dir.
#define AGENT_HOSTS_DIR "hosts"
//  The names one kernel.hosts may give.
#define AGENT_HOSTS_MAX 1024
//  The address of a kernel's own name when it has none on a network.
#define AGENT_HOSTS_SELF "127.0.1.1"

//  The file's path. Caller owns return value (NULL when out of memory).
char *agent_hosts_path(const char *state_dir, const char *kernel_id);

//  True when name may go into /etc/hosts and sethostname: 1..63 letters,
//  digits, '-' and '.', not starting with '-' or '.'.
bool agent_hosts_name_valid(const char *name);

//  Writes a kernel's first file, before its container binds it: localhost,
//  and hostname at ip ("": AGENT_HOSTS_SELF). Written whole to a temp file
//  and renamed into place. BUS_OK or INTERNAL with err.
int agent_hosts_create(const char *state_dir,
                       const char *kernel_id,
                       const char *ip,
                       const char *hostname,
                       bus_error_t *err);

//  The text for a kernel named hostname (at ip; "" hostname: an adopted
//  kernel, whose name is not known) from kernel.hosts' JSON object
//  (hostname -> address): localhost, each name in the object's order, and
//  its own name when the object lacks it. Caller frees *text_p. BUS_OK, or
//  INVALID for a bad object, name or address.
int agent_hosts_text(const char *hostname,
                     const char *ip,
                     const char *json,
                     char **text_p,
                     bus_error_t *err);

//  Rewrites a kernel's file in place with text (see above). BUS_OK or
//  INTERNAL with err.
int agent_hosts_rewrite(const char *state_dir,
                        const char *kernel_id,
                        const char *text,
                        bus_error_t *err);

//  Removes a kernel's file (its container has gone); a missing one is fine.
void agent_hosts_remove(const char *state_dir, const char *kernel_id);

//  Removes the file of every kernel keep (ids -> anything) does not hold:
//  what a crash inside a create or an end left.
void agent_hosts_sweep(const char *state_dir, zhashx_t *keep);

#endif
