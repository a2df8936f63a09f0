/*  =========================================================================
    gw_session_spec - what a POST /session body asks for, checked

    The body of a create (reference §3.1) read into one struct, with every
    check that needs nothing but the body: name rules, type, startup
    command, preopen ports, bootstrap script, cluster and priority, starts_at,
    dependencies and environment. What needs the database (image, resource
    group, limits, slots against the image) is gw_session_create's. Pure:
    no I/O, so the checks are unit-tested (gw_session_spec_test).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_SESSION_SPEC_H_INCLUDED
#define GW_SESSION_SPEC_H_INCLUDED

#include "bus.h"

#define GW_SESSION_NAME_MIN         4
#define GW_SESSION_NAME_MAX         64
#define GW_SESSION_PREOPEN_MAX      16 //  ports a session preopens
#define GW_SESSION_CLUSTER_MAX      64 //  kernels in one session
#define GW_SESSION_PRIORITY_MAX     100
#define GW_SESSION_PRIORITY         10    //  when the body gives none
#define GW_SESSION_BOOTSTRAP_MAX    65536 //  bytes of bootstrap_script
#define GW_SESSION_DEPENDENCIES_MAX 64    //  sessions one waits for
//  Environment variables one session may set: the schema's limit, so that
//  what the gateway accepts always encodes (proto/session.yaml environ).
#define GW_SESSION_ENVIRON_MAX PROTO_SESSION_CREATE_REQ_ENVIRON_MAX
//  The preopen ports as JSON text: 16 ports of at most 5 digits, commas
//  and brackets.
#define GW_SESSION_PREOPEN_TEXT (GW_SESSION_PREOPEN_MAX * 6 + 8)

//  A create, as the body asks for it. The strings and JSON values are
//  borrowed from the body, valid while it is; dependencies is owned.
typedef struct {
    const char *name;
    const char *image;         //  a name or an alias, not resolved
    const char *arch;          //  NULL: the default
    bool batch;                //  else interactive
    const char *group;         //  the project, by name or id (NULL: "default")
    const char *scaling_group; //  NULL: the first the project may use
    const char *startup;
    const char *tag;
    const char *bootstrap;                 //  NULL when none or empty
    char preopen[GW_SESSION_PREOPEN_TEXT]; //  JSON array text, "[]" for none
    uint64_t cluster_size;
    bool multi_node;
    uint64_t priority;
    uint64_t batch_timeout_s;
    int64_t starts_at;  //  µs since the epoch, 0: now
    char *dependencies; //  JSON array text of ids or names, NULL for none
    json_t *environ;    //  the config's environ object, or NULL
    json_t *resources;  //  the config's resources, or NULL
    json_t *opts;       //  the config's resource_opts, or NULL
    bool reuse;         //  reuseIfExists: a live session of that name answers
    bool enqueue_only;  //  answer at once with PENDING
    int64_t max_wait_s; //  how long to wait for the session to settle, 0: ever
} gw_session_spec_t;

//  Reads and checks params (the create body). BUS_OK, or INVALID with the
//  member and the rule in err (the first failing check, in the order the
//  checks are listed above). Free with gw_session_spec_clear in both cases.
int gw_session_spec_parse(json_t *params, gw_session_spec_t *spec, bus_error_t *err);

//  Frees what the spec owns; safe on a zeroed or cleared spec.
void gw_session_spec_clear(gw_session_spec_t *spec);

//  The first of keys present and not null in object (the aliases of §3.1),
//  or NULL.
json_t *gw_session_param(json_t *object, const char *const *keys);

//  True when name is a valid session name: 4-64 letters, digits, '_', '.',
//  '-', starting and ending with a letter, digit or '_'.
bool gw_session_name_valid(const char *name);

#endif
