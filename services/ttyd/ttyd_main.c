/*  =========================================================================
    ttyd_main - backplane-ttyd's options, then the server until SIGTERM

    backplane-ttyd [--port N] [--bind ADDRESS] [-- PROGRAM ARGS...]
    The program of each terminal is PROGRAM with ARGS, by default the first
    of bash, ash and sh in /bin, interactive (-i). The agent's built-in
    definition of the ttyd app starts it as
    /opt/backplane/bin/backplane-ttyd --port {ports[0]}.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "ttyd_classes.h"

static void
s_usage(FILE *out)
{
    fprintf(out,
            "usage: backplane-ttyd [--port N] [--bind ADDRESS] [-- PROGRAM ARGS...]\n"
            "  a web terminal: the page at /, ttyd's protocol on the WebSocket /ws\n"
            "  --port N         TCP port (default %d; 0: any)\n"
            "  --bind ADDRESS   one IPv4 or IPv6 address (default: all)\n"
            "  PROGRAM ARGS     what each terminal runs (default: the first of\n"
            "                   /bin/bash, /bin/ash, /bin/sh, with -i)\n",
            TTYD_PORT_DEFAULT);
}

int
main(int argc, char **argv)
{
    static const struct option options[] = {
        {"port", required_argument, NULL, 'p'},
        {"bind", required_argument, NULL, 'b'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int port = TTYD_PORT_DEFAULT;
    const char *address = NULL;
    int opt;
    while ((opt = getopt_long(argc, argv, "+p:b:h", options, NULL)) != -1) {
        char *end = NULL;
        switch (opt) {
            case 'p':
                errno = 0;
                long value = strtol(optarg, &end, 10);
                if (errno || !*optarg || *end || value < 0 || value > 65535) {
                    fprintf(stderr, "backplane-ttyd: --port wants 0..65535\n");
                    return 2;
                }
                port = (int) value;
                break;
            case 'b':
                address = optarg;
                break;
            case 'h':
                s_usage(stdout);
                return 0;
            default:
                s_usage(stderr);
                return 2;
        }
    }
    const char *shell_argv[] = {ttyd_pty_shell(), "-i", NULL};
    const char *const *program = (const char *const *) argv + optind;
    if (optind >= argc) {
        if (!shell_argv[0]) {
            fprintf(stderr, "backplane-ttyd: no shell in /bin (bash, ash, sh)\n");
            return 1;
        }
        program = shell_argv;
    }
    ttyd_server_t *server = ttyd_server_new(address, port, program);
    if (!server)
        return 1;
    ttyd_log("notice", "listening port=%d program=%s page=%s", ttyd_server_port(server),
             program[0], ttyd_page_has_xterm() ? "xterm.js" : "plain");
    int rc = ttyd_server_run(server);
    ttyd_server_destroy(&server);
    return rc == 0 ? 0 : 1;
}
