/*  =========================================================================
    bus_main - the main() every service shares

    Each service describes itself in a bus_service_t (name, config table,
    migrations, hooks) and its main.c is one call to bus_main. This module
    does the rest, the same way for all six:
        argv -> config (defaults < file < --set) -> logging -> event loop
        -> node (database, bus) -> service init -> ready -> run -> teardown
    Options:
        -c, --config FILE     read FILE (default: none, built-in defaults)
        --set KEY=VALUE       override one option (repeatable)
        --check-config        validate the configuration and exit
        --print-config        print every option at its default, as YAML
        -v, --verbose         raise the log level to debug
        --version, -h/--help
        COMMAND ARGS...       a service's offline command, after the options

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BUS_MAIN_H_INCLUDED
#define BUS_MAIN_H_INCLUDED

#include "bus_config.h"
#include "bus_db.h"
#include "bus_node.h"

typedef struct {
    const char *name;                   //  "scheduler"
    const char *summary;                //  one line for --help
    const bus_config_option_t *options; //  the config table
    size_t config_size;                 //  sizeof the service's config struct
    size_t node_config_offset;          //  offsetof its bus_node_config_t
    const bus_db_migration_t *migrations;
    size_t migration_count;
    //  Sets up the service on a started node (handlers, subscriptions).
    //  Returns the service's state, or NULL to abort start-up.
    void *(*init)(bus_node_t *node, const void *config, bus_error_t *err);
    //  Tears the service's state down before the node goes.
    void (*fini)(void **state_p);
    //  Runs "backplane-<name> COMMAND ARGS..." instead of the service, with
    //  the loaded config (offline tools for operators). Returns the exit
    //  status. NULL when the service has no commands.
    int (*command)(const void *config, int argc, char **argv);
} bus_service_t;

//  Runs a service to completion. Returns the process exit status: 0 after
//  a clean stop, 1 on a configuration or start-up error, 2 on bad usage.
int bus_main(const bus_service_t *service, int argc, char **argv);

//  Loads a config for service from argv-style options without running it
//  (tests). 0 or -1 with err.
int bus_main_load_config(const bus_service_t *service,
                         void *config,
                         const char *path,
                         bus_error_t *err);

#endif
