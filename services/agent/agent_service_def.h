/*  =========================================================================
    agent_service_def - an app's service definition, made a shell line

    Backend.AI images describe how to start a service-port app in
    /etc/backend.ai/service-defs/<name>.json: a command (a list of strings
    with Python format placeholders: {runtime_path}, {ports[0]}, and the
    results of earlier prestart actions by their ref), prestart actions
    (write_file, write_tempfile, mkdir, run_command, log), an environment,
    the arguments and environment variables a user may add, default
    arguments, and noop (nothing to start). This module checks such a
    document and renders it as one /bin/sh script for the runner's SERVICE
    frame: the actions in order, the environment exported, then exec of the
    command with its arguments. Every value reaches the shell single-quoted
    (a ref as a shell variable), so nothing the image or the user wrote is
    ever parsed by the shell.

    Images without a definition of their own for jupyter or jupyterlab get
    the built-in one (Backend.AI's python runtime does the same): Jupyter
    on the port with no token and no password, since the platform's proxy
    authenticates in front of it. ttyd, which Backend.AI's agent offers on
    every kernel, is built in too: backplane-ttyd (bound read-only next to
    the runner) on the app's port.

    Pure: no I/O. Copyright (c) the Backplane authors. Licensed under the
    Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_SERVICE_DEF_H_INCLUDED
#define AGENT_SERVICE_DEF_H_INCLUDED

#include <jansson.h>
#include "bus.h"

#define AGENT_SERVICE_DEF_MAX   65536 //  bytes of a definition file
#define AGENT_SERVICE_PORTS_MAX 16    //  container ports of one app
#define AGENT_SERVICE_NAME_MAX  64

//  What a definition is rendered with.
typedef struct {
    const char *runtime_path; //  the image's ai.backend.runtime-path ("" if none)
    const int *ports;         //  the app's container ports
    size_t nports;
    json_t *arguments; //  the user's: option -> null, string or [string]; NULL: none
    json_t *envs;      //  the user's: name -> string; NULL: none
} agent_service_vars_t;

//  True when name is an app name: letters, digits, '_' and '-' (Backend.AI's
//  [\w-]+), at most AGENT_SERVICE_NAME_MAX bytes.
bool agent_service_name_valid(const char *name);

//  The built-in definition of name (jupyter, jupyterlab, ttyd), or NULL.
const char *agent_service_def_builtin(const char *name);

//  Renders the definition (JSON text, size bytes) with vars into a shell
//  script (*script_p, caller frees), or sets *noop_p when it starts nothing
//  (then *script_p is NULL). BUS_OK, or BUS_STATUS_INVALID with err for a
//  malformed definition (an unknown key or action, a placeholder that
//  names nothing) and for an argument or variable the definition does not
//  allow.
int agent_service_def_render(const char *text,
                             size_t size,
                             const agent_service_vars_t *vars,
                             char **script_p,
                             bool *noop_p,
                             bus_error_t *err);

//  Parses "8080,8081" into ports (at most max), each 1..65535. The count,
//  or -1 when malformed.
int agent_service_ports_parse(const char *text, int *ports, size_t max);

#endif
