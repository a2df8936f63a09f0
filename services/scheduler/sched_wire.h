/*  =========================================================================
    sched_wire - session.create's typed values as the scheduler stores them,
    and back into kernel.create

    The gateway sends the owner's limits, the folders to mount, the
    dotfiles and the dependencies as typed lists (proto/session.yaml). The scheduler keeps
    them as JSON in its sessions and scope_limits rows, because its SQL
    reads into them (json_each over dependencies and mounts,
    json_extract of idle_timeout); this module is the one place that
    turns the wire's values into that JSON, and the stored mounts into
    kernel.create's typed list.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SCHED_WIRE_H_INCLUDED
#define SCHED_WIRE_H_INCLUDED

#include "bus.h"

//  The limits as the object sched_db_sessions stores per scope:
//  {"keypair": {...}, "user": {...}, ...}, each scope {unspecified,
//  total_resource_slots, max_concurrent_sessions, ... } with null for no
//  limit. *text_p gets the JSON text (NULL for no item); caller frees.
//  BUS_STATUS_INVALID with err for a scope that is not keypair, user,
//  project or domain, or that comes twice.
int sched_wire_limits(const proto_session_scope_limits_t *items,
                      size_t count,
                      char **text_p,
                      bus_error_t *err);

//  The folders as the JSON array stored in sessions.mounts, each {name, id,
//  host, host_path, kernel_path, permission} (id and host when given).
//  *text_p gets it (NULL for no item); caller frees. BUS_STATUS_INTERNAL
//  when out of memory.
int sched_wire_mounts(const proto_session_mount_t *items,
                      size_t count,
                      char **text_p,
                      bus_error_t *err);

//  The dotfiles as the JSON array stored in sessions.dotfiles, each {path,
//  permission, data}. As sched_wire_mounts.
int sched_wire_dotfiles(const proto_session_dotfile_t *items,
                        size_t count,
                        char **text_p,
                        bus_error_t *err);

//  Strings as a JSON array text (NULL for none); caller frees.
int sched_wire_strings(const char *const *items,
                       size_t count,
                       char **text_p,
                       bus_error_t *err);

//  A stored mounts array (text) as kernel.create's list, allocated in
//  *arena (the message's owned_). Members that are not strings are sent
//  absent: the encoder refuses what the schema requires. *count gets the
//  number of items (NULL and 0 for none); *ok is false when text holds
//  something that could not all be read (not a JSON array, out of memory),
//  and the create must then not be sent without it.
const proto_kernel_mount_t *
sched_wire_kernel_mounts(const char *text, void **arena, size_t *count, bool *ok);

//  The stored dotfiles (text) as kernel.create's list; as the mounts.
const proto_kernel_dotfile_t *
sched_wire_kernel_dotfiles(const char *text, void **arena, size_t *count, bool *ok);

#endif
