/*  =========================================================================
    bus_main - argument parsing, configuration and lifecycle of a service

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include <getopt.h> //  getopt_long for the command line

#define MAIN_SETS_MAX 64

static void
s_usage(const bus_service_t *service, FILE *out)
{
    fprintf(
        out,
        "usage: backplane-%s [options]\n"
        "%s\n\n"
        "  -c, --config FILE     read options from FILE (YAML)\n"
        "      --set KEY=VALUE   override one option, e.g. --set log.level=debug\n"
        "      --check-config    validate the configuration and exit\n"
        "      --print-config    print every option at its default (YAML) and exit\n"
        "      --make-cert FILE  write a new CurveZMQ key pair (FILE public, "
        "FILE_secret\n"
        "                        secret, for bus.curve.*), print its public key, exit\n"
        "      --cert-address A  with --make-cert: the host's addresses "
        "(comma-separated)\n"
        "                        its servers' endpoints name, by which clients find it\n"
        "  -v, --verbose         log at debug level\n"
        "      --version         print the version and exit\n"
        "  -h, --help            this text\n",
        service->name, service->summary);
}

int
bus_main_load_config(const bus_service_t *service,
                     void *config,
                     const char *path,
                     bus_error_t *err)
{
    if (bus_config_defaults(service->options, config, err) != 0)
        return -1;
    if (path && bus_config_load_file(service->options, config, path, err) != 0)
        return -1;
    return 0;
}

int
bus_main(const bus_service_t *service, int argc, char **argv)
{
    enum { OPT_SET = 256, OPT_CHECK, OPT_PRINT, OPT_VERSION, OPT_MAKE_CERT, OPT_ADDRESS };
    static const struct option options[] = {
        {"config", required_argument, NULL, 'c'},
        {"set", required_argument, NULL, OPT_SET},
        {"check-config", no_argument, NULL, OPT_CHECK},
        {"print-config", no_argument, NULL, OPT_PRINT},
        {"make-cert", required_argument, NULL, OPT_MAKE_CERT},
        {"cert-address", required_argument, NULL, OPT_ADDRESS},
        {"verbose", no_argument, NULL, 'v'},
        {"version", no_argument, NULL, OPT_VERSION},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *path = NULL;
    const char *sets[MAIN_SETS_MAX];
    int set_count = 0;
    bool check = false, verbose = false;
    const char *make_cert = NULL, *cert_address = NULL;
    int opt;
    while ((opt = getopt_long(argc, argv, "+c:vh", options, NULL)) != -1) {
        switch (opt) {
            case 'c':
                path = optarg;
                break;
            case OPT_SET:
                if (set_count == MAIN_SETS_MAX) {
                    fprintf(stderr, "backplane-%s: too many --set options\n",
                            service->name);
                    return 2;
                }
                sets[set_count++] = optarg;
                break;
            case OPT_CHECK:
                check = true;
                break;
            case OPT_PRINT:
                printf("# backplane-%s configuration: every option at its default.\n",
                       service->name);
                bus_config_write_defaults(service->options, stdout);
                return 0;
            case OPT_MAKE_CERT:
                make_cert = optarg;
                break;
            case OPT_ADDRESS:
                cert_address = optarg;
                break;
            case 'v':
                verbose = true;
                break;
            case OPT_VERSION:
                printf("backplane-%s %s\n", service->name, BACKPLANE_VERSION);
                return 0;
            case 'h':
                s_usage(service, stdout);
                return 0;
            default:
                s_usage(service, stderr);
                return 2;
        }
    }
    if (make_cert) {
        //  Each host its own key pair, made where it stays: no other tool to
        //  install, and the secret never travels. Its addresses let clients
        //  find it as the key of its servers.
        char key[64];
        if (bus_socket_make_host_cert(make_cert, cert_address, key, sizeof key) != 0) {
            fprintf(stderr, "backplane-%s: cannot write %s: %s\n", service->name,
                    make_cert, strerror(errno));
            return 1;
        }
        printf("%s\n", key);
        return 0;
    }
    if (cert_address) {
        fprintf(stderr, "backplane-%s: --cert-address goes with --make-cert\n",
                service->name);
        return 2;
    }
    if (optind < argc && !service->command) {
        fprintf(stderr, "backplane-%s: unexpected argument '%s'\n", service->name,
                argv[optind]);
        return 2;
    }

    void *config = calloc(1, service->config_size);
    if (!config)
        return 1;
    int status = 1;
    bus_error_t err = {0};
    struct event_base *base = NULL;
    bus_node_t *node = NULL;
    void *state = NULL;
    if (bus_main_load_config(service, config, path, &err) != 0)
        goto done;
    for (int i = 0; i < set_count; i++) {
        char key[256];
        const char *eq = strchr(sets[i], '=');
        if (!eq || (size_t) (eq - sets[i]) >= sizeof key) {
            bus_error_set(&err, BUS_STATUS_INVALID, "--set %s: expected KEY=VALUE",
                          sets[i]);
            goto done;
        }
        memcpy(key, sets[i], (size_t) (eq - sets[i]));
        key[eq - sets[i]] = 0;
        if (bus_config_set(service->options, config, key, eq + 1, &err) != 0) {
            char detail[BUS_ERROR_DETAIL_MAX];
            snprintf(detail, sizeof detail, "%s", err.detail);
            bus_error_set(&err, BUS_STATUS_INVALID, "--set: %s", detail);
            goto done;
        }
    }
    if (check) {
        printf("%s: configuration OK\n", path ? path : "(defaults)");
        status = 0;
        goto done;
    }
    if (optind < argc) {
        //  An offline command: the configuration, but no node and no bus.
        bus_node_config_t *command_config =
            (bus_node_config_t *) ((char *) config + service->node_config_offset);
        int command_level = bus_log_level_from_str(command_config->log_level);
        bus_log_init(service->name, command_config->node_name,
                     verbose ? BUS_LOG_DEBUG : command_level);
        status = service->command(config, argc - optind, argv + optind);
        goto done;
    }
    bus_node_config_t *node_config =
        (bus_node_config_t *) ((char *) config + service->node_config_offset);
    int level = bus_log_level_from_str(node_config->log_level);
    bus_log_init(service->name, node_config->node_name, verbose ? BUS_LOG_DEBUG : level);
    bus_log_notice("configuration loaded file=%s", path ? path : "(defaults)");

    base = event_base_new();
    if (!base) {
        bus_error_set(&err, BUS_STATUS_INTERNAL, "cannot create the event loop");
        goto done;
    }
    node = bus_node_new(service->name, node_config, base, service->migrations,
                        service->migration_count, &err);
    if (!node)
        goto done;
    bus_log_init(service->name, bus_node_name(node), verbose ? BUS_LOG_DEBUG : level);
    if (service->init && !(state = service->init(node, config, &err))) {
        if (err.status == BUS_OK)
            bus_error_set(&err, BUS_STATUS_INTERNAL, "%s failed to start", service->name);
        goto done;
    }
    bus_node_start(node);
    bus_node_run(node);
    status = 0;
done:
    if (status != 0 && err.status != BUS_OK) {
        fprintf(stderr, "backplane-%s: %s\n", service->name, err.detail);
        bus_log_error("start-up failed reason=\"%s\"", err.detail);
    }
    if (service->fini && state)
        service->fini(&state);
    bus_node_destroy(&node);
    if (base)
        event_base_free(base);
    bus_config_clear(service->options, config);
    free(config);
    if (status == 0 && !check)
        bus_log_notice("stopped");
    return status;
}
