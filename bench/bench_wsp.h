/*  =========================================================================
    bench_wsp.h - the wsproxy as the proxy benches start it (header-only:
    static inline functions)

    One wsproxy hosting its own hub (no scheduler needed), its token secret
    BENCH_WSP_SECRET written beside it, ten app ports from a free one.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BENCH_WSP_H_INCLUDED
#define BENCH_WSP_H_INCLUDED

#include <stdio.h>
#include <sys/stat.h>

#include "integration/harness.h"

#define BENCH_WSP_SECRET   "bench-secret-0123456789abcdef012"
#define BENCH_WSP_READY_MS 20000

//  Starts the wsproxy in dir (its state in dir/wsproxy) and waits for its
//  ready line, copied to line (its rpc= and url= fields). 0, or -1 with
//  why said on stderr.
static inline int
bench_wsp_start(harness_proc_t *wsp, const char *dir, char *line, size_t size)
{
    char secret_file[600];
    snprintf(secret_file, sizeof secret_file, "%s/apps.secret", dir);
    FILE *file = fopen(secret_file, "w");
    if (!file) {
        fprintf(stderr, "bench: cannot write %s\n", secret_file);
        return -1;
    }
    fputs(BENCH_WSP_SECRET, file);
    fclose(file);
    chmod(secret_file, 0600);
    int low = harness_free_port();
    char state[600], secret[700], ports[64];
    snprintf(state, sizeof state, "node.state_dir=%s/wsproxy", dir);
    snprintf(secret, sizeof secret, "wsproxy.token_secret_file=%s", secret_file);
    snprintf(ports, sizeof ports, "wsproxy.app_ports=%d-%d", low, low + 9);
    const char *args[] = {"--set", state,
                          "--set", secret,
                          "--set", ports,
                          "--set", "wsproxy.listen=127.0.0.1:0",
                          "--set", "bus.hub.host=true",
                          "--set", "bus.hub.publish=tcp://127.0.0.1:*",
                          "--set", "bus.hub.subscribe=tcp://127.0.0.1:*",
                          "--set", "bus.hub.registry=tcp://127.0.0.1:*",
                          NULL};
    if (harness_start(wsp, dir, "wsproxy", "wsproxy", args) != 0 ||
        !harness_wait_line(wsp, "ready ", BENCH_WSP_READY_MS, line, size)) {
        fprintf(stderr, "bench: the wsproxy did not start (see %s/wsproxy.log)\n", dir);
        return -1;
    }
    return 0;
}

#endif
