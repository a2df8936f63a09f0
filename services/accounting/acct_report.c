/*  =========================================================================
    acct_report - the operator's offline report, in the spirit of sreport

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "acct_classes.h"
#include <getopt.h> //  getopt_long for the command's options

#define REPORT_GIB  (1024.0 * 1024.0 * 1024.0)
#define REPORT_HOUR 3600.0
#define REPORT_RULE                                                                      \
    "--------------------------------------------------------------------------------"   \
    "--------------------------------------------\n"

static int
s_usage(FILE *out)
{
    fprintf(out, "usage: backplane-accounting [--config FILE] report --by "
                 "project|user|session|domain|resource_group|image --month YYYY-MM "
                 "[--state-dir DIR]\n");
    return out == stdout ? 0 : 2;
}

static void
s_line(FILE *out,
       const char *key,
       const char *domain,
       uint64_t kernels,
       uint64_t sessions,
       const proto_accounting_figures_t *f)
{
    fprintf(out,
            "%-36s %-12s %8" PRIu64 " %8" PRIu64 " %12.3f %12.3f %14.3f %10.3f %10.3f\n",
            key, domain, kernels, sessions, f->cpu_held_s / REPORT_HOUR,
            f->cpu_used_s / REPORT_HOUR, f->mem_held_byte_s / REPORT_GIB / REPORT_HOUR,
            (f->accel_device_s + f->accel_share_s) / REPORT_HOUR,
            (double) (f->io_read_bytes + f->io_write_bytes) / REPORT_GIB);
}

int
acct_report_print(const char *path, const char *by, const char *month, FILE *out)
{
    bus_error_t err = {0};
    proto_accounting_usage_req_t req;
    proto_accounting_usage_req_init(&req);
    if (acct_query_month(month, &req.from, &req.to, &err) != BUS_OK) {
        fprintf(stderr, "backplane-accounting report: %s\n", err.detail);
        proto_accounting_usage_req_clear(&req);
        return 1;
    }
    if (access(path, R_OK) != 0) {
        fprintf(stderr, "backplane-accounting report: %s: %s\n", path, strerror(errno));
        proto_accounting_usage_req_clear(&req);
        return 1;
    }
    bus_db_t *db = bus_db_open(path, acct_db_migrations, ACCT_DB_MIGRATION_COUNT, &err);
    if (!db) {
        fprintf(stderr, "backplane-accounting report: %s: %s\n", path, err.detail);
        proto_accounting_usage_req_clear(&req);
        return 1;
    }
    //  The RPC's grouping and its bounds: a month is within both.
    int which = acct_query_group_by(by);
    req.group_by = by;
    req.with_kernels = false;
    proto_accounting_usage_rep_t rep;
    int rc = acct_query_usage(db, &req, bus_clock_wall_us(), &rep, &err);
    if (rc != BUS_OK)
        fprintf(stderr, "backplane-accounting report: %s\n", err.detail);
    else {
        time_t from = (time_t) (req.from / 1000000), to = (time_t) (req.to / 1000000);
        char a[32], b[32];
        strftime(a, sizeof a, "%Y-%m-%dT%H:%M:%SZ", gmtime(&from));
        strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", gmtime(&to));
        fprintf(out, REPORT_RULE "Usage by %s, %s - %s (UTC), TRES-hours\n" REPORT_RULE,
                by, a, b);
        char title[32];
        snprintf(title, sizeof title, "%s", by);
        title[0] = (char) toupper((unsigned char) title[0]);
        fprintf(out, "%-36s %-12s %8s %8s %12s %12s %14s %10s %10s\n", title, "Domain",
                "Kernels", "Sessions", "CPU-h held", "CPU-h used", "Mem GiB-h held",
                "Accel-h", "IO GiB");
        proto_accounting_figures_t total;
        proto_accounting_figures_init(&total);
        uint64_t kernels = 0, sessions = 0;
        for (size_t i = 0; i < rep.groups_count; i++) {
            const proto_accounting_group_t *g = &rep.groups[i];
            const char *key = acct_query_group_key(g, (acct_query_by_t) which);
            s_line(out, *key ? key : "(none)", g->domain_name, g->kernel_count,
                   g->session_count, &g->usage);
            kernels += g->kernel_count;
            sessions += g->session_count;
            total.cpu_held_s += g->usage.cpu_held_s;
            total.cpu_used_s += g->usage.cpu_used_s;
            total.mem_held_byte_s += g->usage.mem_held_byte_s;
            total.accel_device_s += g->usage.accel_device_s;
            total.accel_share_s += g->usage.accel_share_s;
            total.io_read_bytes += g->usage.io_read_bytes;
            total.io_write_bytes += g->usage.io_write_bytes;
        }
        fprintf(out, REPORT_RULE);
        s_line(out, "TOTAL", "", kernels, sessions, &total);
        proto_accounting_usage_rep_clear(&rep);
    }
    proto_accounting_usage_req_clear(&req);
    bus_db_destroy(&db);
    return rc == BUS_OK ? 0 : 1;
}

int
acct_report_command(const void *config_, int argc, char **argv)
{
    const acct_config_t *config = config_;
    if (argc < 1 || strcmp(argv[0], "report") != 0)
        return s_usage(stderr);
    static const struct option options[] = {
        {"by", required_argument, NULL, 'b'},
        {"month", required_argument, NULL, 'm'},
        {"state-dir", required_argument, NULL, 's'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *by = "project", *month = NULL, *state_dir = config->node.state_dir;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
        if (c == 'b')
            by = optarg;
        else if (c == 'm')
            month = optarg;
        else if (c == 's')
            state_dir = optarg;
        else
            return s_usage(c == 'h' ? stdout : stderr);
    }
    if (!month || optind != argc || acct_query_group_by(by) < 0)
        return s_usage(stderr);
    char path[4096];
    snprintf(path, sizeof path, "%s/accounting.db", state_dir);
    return acct_report_print(path, by, month, stdout);
}
