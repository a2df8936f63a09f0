/*  =========================================================================
    agent_stats_test - a kernel's I/O counters and the disk under a path

    The io.stat (v2) and blkio.throttle.io_service_bytes (v1) parsers on
    texts written out: several devices summed, the v1 Total row left out,
    and malformed input (no device, bad or signed numbers, overflow, a
    missing newline, empty text) skipped line by line, never counted.
    agent_stats_disk on this machine's root and on /proc (no block device);
    the no-op throttle rules a v1 kernel's config.json gets for its disks.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include "t.h"

static void
test_io_stat(void)
{
    uint64_t r = 1, w = 1;
    const char *text =
        "8:16 rbytes=1459200 wbytes=314773504 rios=192 wios=353 dbytes=0 dios=0\n"
        "8:0 rbytes=3387392 wbytes=176128 rios=103 wios=32 dbytes=0 dios=0\n"
        "254:0 rbytes=10 wbytes=20\n";
    T_EQ_INT(agent_stats_parse_io_stat(text, &r, &w), 3);
    T_EQ_INT(r, 1459200 + 3387392 + 10);
    T_EQ_INT(w, 314773504 + 176128 + 20);
    //  No trailing newline, keys in another order, unknown keys.
    T_EQ_INT(agent_stats_parse_io_stat("8:0 wios=1 wbytes=5 cost.x=7 rbytes=3", &r, &w),
             1);
    T_EQ_INT(r, 3);
    T_EQ_INT(w, 5);
    //  Empty text and blank lines: nothing, zeros.
    T_EQ_INT(agent_stats_parse_io_stat("", &r, &w), 0);
    T_EQ_INT(r, 0);
    T_EQ_INT(w, 0);
    T_EQ_INT(agent_stats_parse_io_stat("\n\n", &r, &w), 0);
}

static void
test_io_stat_malformed(void)
{
    uint64_t r = 0, w = 0;
    const char *text = "rbytes=100 wbytes=100\n"           //  no device
                       "8 rbytes=100 wbytes=100\n"         //  no MAJ:MIN
                       "8:x rbytes=100 wbytes=100\n"       //  bad minor
                       ":0 rbytes=100\n"                   //  no major
                       "8:0 rbytes=-5 wbytes=100\n"        //  a sign
                       "8:0 rbytes=12a wbytes=100\n"       //  trailing junk
                       "8:0 rbytes= wbytes=100\n"          //  empty value
                       "8:0 rbytes=18446744073709551616\n" //  2^64
                       "8:0 rbytes=0x10 wbytes=1\n"        //  hex
                       "8:1 rbytes=7 wbytes=9\n"           //  the good one
                       "garbage\x01\xff\n";
    T_EQ_INT(agent_stats_parse_io_stat(text, &r, &w), 1);
    T_EQ_INT(r, 7);
    T_EQ_INT(w, 9);
    //  Sums saturate rather than wrap.
    T_EQ_INT(agent_stats_parse_io_stat("8:0 rbytes=18446744073709551615\n"
                                       "8:1 rbytes=18446744073709551615 wbytes=1\n",
                                       &r, &w),
             2);
    T_ASSERT(r == UINT64_MAX);
    T_EQ_INT(w, 1);
}

static void
test_net_dev(void)
{
    const char *text =
        "Inter-|   Receive                                                |  Transmit\n"
        " face |bytes    packets errs drop fifo frame compressed multicast|bytes    "
        "packets errs drop fifo colls carrier compressed\n"
        "    lo:    1234      10    0    0    0     0          0         0     1234      "
        "10    0    0    0     0       0          0\n"
        "bpv0123456789ab: 98765 42 0 0 0 0 0 0 4321 17 0 0 0 0 0 0\n"
        "bpv0123456789a: 1 1 0 0 0 0 0 0 2 2 0 0 0 0 0 0\n"
        "  eth0: 5 1 0 0 0 0 0 0 6 1 0 0 0 0 0 0";
    uint64_t rx = 0, tx = 0;
    T_EQ_INT(agent_stats_parse_net_dev(text, "bpv0123456789ab", &rx, &tx), 0);
    T_EQ_INT(rx, 98765);
    T_EQ_INT(tx, 4321);
    //  A name that is a prefix of another is its own line.
    T_EQ_INT(agent_stats_parse_net_dev(text, "bpv0123456789a", &rx, &tx), 0);
    T_EQ_INT(rx, 1);
    T_EQ_INT(tx, 2);
    //  The last line needs no newline; the header is no interface.
    T_EQ_INT(agent_stats_parse_net_dev(text, "eth0", &rx, &tx), 0);
    T_EQ_INT(tx, 6);
    T_EQ_INT(agent_stats_parse_net_dev(text, "bpv", &rx, &tx), -1);
    T_EQ_INT(agent_stats_parse_net_dev(text, "face |bytes", &rx, &tx), -1);
    T_EQ_INT(agent_stats_parse_net_dev("", "eth0", &rx, &tx), -1);
    //  Too few fields, or not numbers: not taken.
    T_EQ_INT(agent_stats_parse_net_dev("x: 1 2 3\n", "x", &rx, &tx), -1);
    T_EQ_INT(agent_stats_parse_net_dev("x: 1 2 3 4 5 6 7 -8 9\n", "x", &rx, &tx), -1);
}

//  The agent's own namespace, as /proc/net/dev shows it: its loopback is
//  there, whatever /sys shows.
static void
test_net_dev_of_this_namespace(void)
{
    FILE *file = fopen("/proc/net/dev", "r");
    T_ASSERT(file);
    static char text[1 << 16];
    size_t size = fread(text, 1, sizeof text - 1, file);
    fclose(file);
    text[size] = '\0';
    uint64_t rx = 0, tx = 0;
    T_EQ_INT(agent_stats_parse_net_dev(text, "lo", &rx, &tx), 0);
}

static void
test_blkio(void)
{
    uint64_t r = 1, w = 1;
    const char *text = "254:0 Read 4096\n"
                       "254:0 Write 20979712\n"
                       "254:0 Sync 20979712\n"
                       "254:0 Async 4096\n"
                       "254:0 Discard 0\n"
                       "254:0 Total 20983808\n"
                       "8:0 Read 100\n"
                       "8:0 Write 200\n"
                       "8:0 Total 300\n"
                       "Total 20984108\n";
    T_EQ_INT(agent_stats_parse_blkio(text, &r, &w), 4);
    T_EQ_INT(r, 4096 + 100);
    T_EQ_INT(w, 20979712 + 200);
    //  A cgroup that did no I/O.
    T_EQ_INT(agent_stats_parse_blkio("Total 0\n", &r, &w), 0);
    T_EQ_INT(r, 0);
    T_EQ_INT(w, 0);
}

static void
test_blkio_malformed(void)
{
    uint64_t r = 0, w = 0;
    const char *text = "Read 100\n"                         //  no device
                       "254:0 Read\n"                       //  no number
                       "254:0 Read 1 2\n"                   //  one field too many
                       "254:0 Write -3\n"                   //  a sign
                       "254:0 Write 99999999999999999999\n" //  overflow
                       "254:x Read 5\n"                     //  bad device
                       "254:0 read 5\n"                     //  case matters
                       "254:0 Write 8";                     //  the good one, no newline
    T_EQ_INT(agent_stats_parse_blkio(text, &r, &w), 1);
    T_EQ_INT(r, 0);
    T_EQ_INT(w, 8);
}

static void
test_disk(void)
{
    int64_t major = -1, minor = -1;
    T_EQ_INT(agent_stats_disk("/proc", &major, &minor), -1);
    T_EQ_INT(agent_stats_disk("/no/such/path", &major, &minor), -1);
    if (agent_stats_disk("/", &major, &minor) != 0) {
        T_SKIP("the root file system is not on a block device here");
        return;
    }
    //  A whole disk: its sysfs directory has no partition file.
    char path[128];
    snprintf(path, sizeof path, "/sys/dev/block/%lld:%lld/partition", (long long) major,
             (long long) minor);
    T_ASSERT(major > 0);
    T_ASSERT(access(path, F_OK) != 0);
}

static void
test_bundle_rules(void)
{
    const char *args[] = {"/bin/sh", NULL};
    agent_kernel_spec_t spec = {.kernel_id = "k1", .image_rootfs = "/r", .args = args};
    bus_error_t err = {0};
    //  None asked: no blockIO at all.
    json_t *config = agent_bundle_config(&spec, "/r", "/run", &err);
    T_ASSERT(config);
    json_t *resources = json_object_get(json_object_get(config, "linux"), "resources");
    T_ASSERT(resources && !json_object_get(resources, "blockIO"));
    json_decref(config);
    spec.io_disks[0] = (agent_bundle_disk_t){254, 0};
    spec.io_disks[1] = (agent_bundle_disk_t){8, 16};
    spec.io_disk_count = 2;
    config = agent_bundle_config(&spec, "/r", "/run", &err);
    T_ASSERT(config);
    resources = json_object_get(json_object_get(config, "linux"), "resources");
    char *text = json_dumps(json_object_get(resources, "blockIO"), JSON_COMPACT);
    json_decref(config);
    T_ASSERT(text);
    T_CONTAINS(text, "\"throttleReadBpsDevice\":[{\"major\":254,\"minor\":0,\"rate\":"
                     "1125899906842624},{\"major\":8,\"minor\":16,\"rate\":"
                     "1125899906842624}]");
    T_CONTAINS(text, "\"throttleWriteBpsDevice\":[{\"major\":254,\"minor\":0,\"rate\":"
                     "1125899906842624},{\"major\":8,");
    free(text);
}

int
main(void)
{
    T_RUN(test_io_stat);
    T_RUN(test_io_stat_malformed);
    T_RUN(test_net_dev);
    T_RUN(test_net_dev_of_this_namespace);
    T_RUN(test_blkio);
    T_RUN(test_blkio_malformed);
    T_RUN(test_disk);
    T_RUN(test_bundle_rules);
    return T_DONE();
}
