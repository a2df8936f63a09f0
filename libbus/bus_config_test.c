/*  =========================================================================
    bus_config_test - defaults, files, every refusal with its line and
    column, --set overrides, and the write_defaults round trip

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "t.h"

typedef struct {
    char *name;
    int workers;
    bool verbose;
    int rpc_timeout_ms;
    int64_t queue_limit;
    char *queue_policy;
    char *endpoint;
    char *db_path;
    bool db_strict;
} test_config_t;

#define GIB (INT64_C(1) << 30)

static const bus_config_option_t s_table[] = {
    {"name", BUS_CFG_STRING, offsetof(test_config_t, name), "backplane", 0, 16, NULL,
     "Name shown in logs"},
    {"workers", BUS_CFG_INT, offsetof(test_config_t, workers), "4", 1, 64, NULL,
     "Worker threads"},
    {"verbose", BUS_CFG_BOOL, offsetof(test_config_t, verbose), "no", 0, 0, NULL,
     "Log at debug level"},
    {"bus.rpc_timeout_ms", BUS_CFG_INT, offsetof(test_config_t, rpc_timeout_ms), "5000",
     100, 600000, NULL, "RPC deadline in milliseconds"},
    {"bus.queue.limit", BUS_CFG_BYTES, offsetof(test_config_t, queue_limit), "64m", 0,
     INT64_C(1) << 40, NULL, "Queue size limit"},
    {"bus.queue.policy", BUS_CFG_ENUM, offsetof(test_config_t, queue_policy), "fifo", 0,
     0, "fifo|lifo|drf", "Queue order"},
    {"bus.endpoint", BUS_CFG_STRING, offsetof(test_config_t, endpoint),
     "tcp://127.0.0.1:5555", 0, 0, NULL, "Where the hub listens"},
    {"db.path", BUS_CFG_STRING, offsetof(test_config_t, db_path), "", 0, 0, NULL,
     "Database file; empty means in memory"},
    {"db.strict", BUS_CFG_BOOL, offsetof(test_config_t, db_strict), "on", 0, 0, NULL,
     "Refuse unknown columns"},
    BUS_CONFIG_END};

static int
s_load(test_config_t *config, const char *yaml, bus_error_t *err)
{
    return bus_config_load_string(s_table, config, yaml, strlen(yaml), "t.yaml", err);
}

//  Writes text to a fresh file under /tmp; returns its path (caller frees and unlinks).
static char *
s_temp_file(const char *text)
{
    char *path = strdup("/tmp/bus_config_test_XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0) {
        free(path);
        return NULL;
    }
    size_t len = strlen(text);
    bool ok = write(fd, text, len) == (ssize_t) len;
    close(fd);
    if (!ok) {
        unlink(path);
        free(path);
        return NULL;
    }
    return path;
}

static void
test_defaults(void)
{
    test_config_t config = {0};
    bus_error_t err = {0};
    T_EQ_INT(bus_config_defaults(s_table, &config, &err), 0);
    T_EQ_STR(config.name, "backplane");
    T_EQ_INT(config.workers, 4);
    T_ASSERT(!config.verbose);
    T_EQ_INT(config.rpc_timeout_ms, 5000);
    T_EQ_INT(config.queue_limit, 64 << 20);
    T_EQ_STR(config.queue_policy, "fifo");
    T_EQ_STR(config.endpoint, "tcp://127.0.0.1:5555");
    T_EQ_STR(config.db_path, "");
    T_ASSERT(config.db_strict);
    //  a second call replaces the strings without leaking them
    T_EQ_INT(bus_config_defaults(s_table, &config, &err), 0);
    T_EQ_STR(config.name, "backplane");
    bus_config_clear(s_table, &config);
    T_ASSERT(config.name == NULL);
    T_ASSERT(config.queue_policy == NULL);
    T_ASSERT(config.endpoint == NULL);
    T_ASSERT(config.db_path == NULL);
    bus_config_clear(s_table, &config);
}

static void
test_good_file(void)
{
    char *path = s_temp_file("# a service config\n"
                             "name: \"edge #1\"\n"
                             "workers: +16\n"
                             "verbose: YES\n"
                             "bus:\n"
                             "  rpc_timeout_ms: 250   # short\n"
                             "  queue:\n"
                             "    limit: 2GiB\n"
                             "    policy: drf\n"
                             "  endpoint: 'ipc:///run/bp.sock'\n"
                             "db.path: ~\n"
                             "db.strict: Off\n");
    T_ASSERT(path);
    test_config_t config = {0};
    bus_error_t err = {0};
    T_EQ_INT(bus_config_defaults(s_table, &config, &err), 0);
    int rc = bus_config_load_file(s_table, &config, path, &err);
    unlink(path);
    free(path);
    T_EQ_INT(rc, 0);
    T_EQ_STR(config.name, "edge #1");
    T_EQ_INT(config.workers, 16);
    T_ASSERT(config.verbose);
    T_EQ_INT(config.rpc_timeout_ms, 250);
    T_EQ_INT(config.queue_limit, 2 * GIB);
    T_EQ_STR(config.queue_policy, "drf");
    T_EQ_STR(config.endpoint, "ipc:///run/bp.sock");
    T_EQ_STR(config.db_path, "");
    T_ASSERT(!config.db_strict);
    bus_config_clear(s_table, &config);
}

static void
test_empty_documents(void)
{
    const char *docs[] = {"",
                          "# only a comment\n\n# and another\n",
                          "---\n",
                          "---\n...\n",
                          "bus:\n  # rpc_timeout_ms: 250\n",
                          "bus:\n  queue: ~\n",
                          "{}\n",
                          NULL};
    for (size_t i = 0; docs[i]; i++) {
        test_config_t config = {0};
        bus_error_t err = {0};
        T_EQ_INT(bus_config_defaults(s_table, &config, &err), 0);
        int rc = s_load(&config, docs[i], &err);
        if (rc != 0)
            fprintf(stderr, "# doc %zu: %s\n", i, err.detail);
        T_EQ_INT(config.rpc_timeout_ms, 5000);
        T_EQ_STR(config.queue_policy, "fifo");
        bus_config_clear(s_table, &config);
        T_EQ_INT(rc, 0);
    }
}

typedef struct {
    const char *yaml;
    const char *where; //  "t.yaml:LINE:COLUMN: "
    const char *what;  //  part of the reason
} error_case_t;

static const error_case_t s_errors[] = {
    //  keys
    {"nope: 1\n", "t.yaml:1:1: ", "unknown option 'nope'"},
    {"workers: 5\nbus:\n  foo: 1\n", "t.yaml:3:3: ", "unknown option 'bus.foo'"},
    {"bus:\n  queue:\n    size: 1\n", "t.yaml:3:5: ", "unknown option 'bus.queue.size'"},
    {"bus.nope: 1\n", "t.yaml:1:1: ", "unknown option 'bus.nope'"},
    {"workers: 5\nverbose: yes\nworkers: 6\n",
     "t.yaml:3:1: ", "duplicate option 'workers' (first at line 1)"},
    {"bus:\n  queue:\n    limit: 1k\n    limit: 2k\n",
     "t.yaml:4:5: ", "duplicate option 'bus.queue.limit' (first at line 3)"},
    {"bus:\n  rpc_timeout_ms: 200\nbus.rpc_timeout_ms: 300\n",
     "t.yaml:3:1: ", "duplicate option 'bus.rpc_timeout_ms' (first at line 2)"},
    {"bus:\n  workers: 1\nbus:\n  queue: ~\n",
     "t.yaml:2:3: ", "unknown option 'bus.workers'"},
    {"bus: ~\nverbose: no\nbus:\n  rpc_timeout_ms: 200\n",
     "t.yaml:3:1: ", "duplicate option 'bus' (first at line 1)"},
    {"[a]: 1\n", "t.yaml:1:1: ", "a key must be a word, not a list"},
    //  shapes
    {"workers:\n  a: 1\n", "t.yaml:2:3: ", "expected a value for 'workers', got a map"},
    {"bus: 5\n", "t.yaml:1:6: ", "expected a map of options under 'bus', got a value"},
    {"bus:\n  queue: fifo\n",
     "t.yaml:2:10: ", "expected a map of options under 'bus.queue', got a value"},
    {"workers: [1, 2]\n", "t.yaml:1:10: ", "lists are not supported for 'workers'"},
    {"bus:\n  - rpc_timeout_ms\n", "t.yaml:2:3: ", "lists are not supported for 'bus'"},
    {"name:\n- a\n", "t.yaml:2:1: ", "lists are not supported for 'name'"},
    {"- workers\n", "t.yaml:1:1: ", "the top level must be a map of options"},
    {"hello\n", "t.yaml:1:1: ", "the top level must be a map of options"},
    {"workers: &w 5\n", "t.yaml:1:10: ", "anchors are not supported (&w)"},
    {"workers: 5\nbus:\n  rpc_timeout_ms: *w\n",
     "t.yaml:3:19: ", "aliases are not supported (*w)"},
    {"workers: !!int 5\n", "t.yaml:1:10: ", "tags are not supported"},
    {"workers: 5\n---\nworkers: 6\n", "t.yaml:2:1: ", "more than one document"},
    //  malformed YAML: libyaml's own words and mark
    {"workers: 5\nname: \"open\n", "t.yaml:3:1: ", "found unexpected end of stream"},
    {"workers: 5\nname: a: b\n",
     "t.yaml:2:8: ", "mapping values are not allowed in this context"},
    {"name: x\n  verbose: no\n",
     "t.yaml:2:10: ", "mapping values are not allowed in this context"},
    {"workers: 5\nname: a\x01z\n", "t.yaml:2:8: ", "control characters are not allowed"},
    {"workers: 5\nname: \xff\n", "t.yaml:2:7: ", "invalid leading UTF-8 octet"},
    {"\xef\xbb\xbfworkers: 5\r\nbus:\r\n  foo: 1\r\n",
     "t.yaml:3:3: ", "unknown option 'bus.foo'"},
    {"name: \"\xc3\xa9t\xc3\xa9\"\nworkers: 0\n",
     "t.yaml:2:10: ", "value 0 out of range [1, 64] for 'workers'"},
    //  values
    {"workers: 5x\n", "t.yaml:1:10: ", "expected an integer for 'workers', got '5x'"},
    {"workers: 0x10\n", "t.yaml:1:10: ", "expected an integer for 'workers', got '0x10'"},
    {"workers: 1.5\n", "t.yaml:1:10: ", "expected an integer for 'workers', got '1.5'"},
    {"workers:\n", "t.yaml:1:9: ", "expected an integer for 'workers', got ''"},
    {"workers: \" 5\"\n", "t.yaml:1:10: ", "expected an integer for 'workers', got ' 5'"},
    {"workers: 65\n", "t.yaml:1:10: ", "value 65 out of range [1, 64] for 'workers'"},
    {"workers: -1\n", "t.yaml:1:10: ", "value -1 out of range [1, 64] for 'workers'"},
    {"bus:\n  rpc_timeout_ms: 7\n",
     "t.yaml:2:19: ", "value 7 out of range [100, 600000] for 'bus.rpc_timeout_ms'"},
    {"workers: 99999999999999999999\n",
     "t.yaml:1:10: ", "value 99999999999999999999 out of range [1, 64] for 'workers'"},
    {"verbose: maybe\n",
     "t.yaml:1:10: ", "expected true/false/yes/no/on/off for 'verbose', got 'maybe'"},
    {"verbose: 1\n", "t.yaml:1:10: ", "expected true/false/yes/no/on/off for 'verbose'"},
    {"bus:\n  queue:\n    limit: 12q\n", "t.yaml:3:12: ",
     "expected a size such as 512, 64k, 256m or 2g for 'bus.queue.limit', got '12q'"},
    {"bus:\n  queue:\n    limit: -1\n", "t.yaml:3:12: ",
     "expected a size such as 512, 64k, 256m or 2g for 'bus.queue.limit', got '-1'"},
    {"bus:\n  queue:\n    limit: 2t\n",
     "t.yaml:3:12: ", "value 2t out of range [0, 1099511627776] for 'bus.queue.limit'"},
    {"bus:\n  queue:\n    limit: 8388608t\n", "t.yaml:3:12: ",
     "value 8388608t out of range [0, 1099511627776] for 'bus.queue.limit'"},
    {"bus:\n  queue:\n    policy: random\n", "t.yaml:3:13: ",
     "expected one of fifo|lifo|drf for 'bus.queue.policy', got 'random'"},
    {"bus:\n  queue:\n    policy: FIFO\n",
     "t.yaml:3:13: ", "expected one of fifo|lifo|drf for 'bus.queue.policy', got 'FIFO'"},
    {"name: abcdefghijklmnopq\n",
     "t.yaml:1:7: ", "value for 'name' is longer than 16 bytes"},
    {"name: \"a\\0b\"\n", "t.yaml:1:7: ", "value for 'name' contains a NUL byte"},
    {NULL, NULL, NULL}};

static void
test_errors(void)
{
    size_t failed = 0;
    for (size_t i = 0; s_errors[i].yaml; i++) {
        test_config_t config = {0};
        bus_error_t err = {0};
        T_EQ_INT(bus_config_defaults(s_table, &config, &err), 0);
        int rc = s_load(&config, s_errors[i].yaml, &err);
        bool good =
            rc == -1 && err.status == BUS_STATUS_INVALID &&
            strncmp(err.detail, s_errors[i].where, strlen(s_errors[i].where)) == 0 &&
            strstr(err.detail, s_errors[i].what);
        if (!good)
            fprintf(stderr, "# case %zu: rc=%d status=%d detail \"%s\", want \"%s%s\"\n",
                    i, rc, err.status, err.detail, s_errors[i].where, s_errors[i].what);
        //  all or nothing: the defaults are still there
        bool unchanged = config.workers == 4 && config.rpc_timeout_ms == 5000 &&
                         config.queue_limit == 64 << 20 && config.name &&
                         strcmp(config.name, "backplane") == 0;
        bus_config_clear(s_table, &config);
        if (!good || !unchanged)
            failed++;
    }
    T_EQ_INT(failed, 0);
}

static void
test_too_large(void)
{
    size_t size = BUS_CONFIG_SIZE_MAX + 1;
    char *yaml = malloc(size);
    T_ASSERT(yaml);
    memset(yaml, '#', size);
    test_config_t config = {0};
    bus_error_t err = {0};
    int rc = bus_config_load_string(s_table, &config, yaml, size, "big.yaml", &err);
    T_EQ_INT(rc, -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "big.yaml: larger than 1048576 bytes");
    //  the same through a file
    yaml[size - 1] = '\0';
    yaml[size - 2] = '\n';
    yaml[size - 3] = '#';
    char *path = s_temp_file(yaml); //  BUS_CONFIG_SIZE_MAX bytes: just allowed
    T_ASSERT(path);
    rc = bus_config_load_file(s_table, &config, path, &err);
    unlink(path);
    free(path);
    T_EQ_INT(rc, 0);
    yaml[size - 1] = '\n';
    char *bigger = malloc(size + 1);
    T_ASSERT(bigger);
    memcpy(bigger, yaml, size);
    bigger[size] = '\0';
    free(yaml);
    path = s_temp_file(bigger);
    free(bigger);
    T_ASSERT(path);
    rc = bus_config_load_file(s_table, &config, path, &err);
    T_EQ_INT(rc, -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_CONTAINS(err.detail, "larger than 1048576 bytes");
    T_ASSERT(strncmp(err.detail, path, strlen(path)) == 0);
    unlink(path);
    free(path);
}

static void
test_missing_file(void)
{
    test_config_t config = {0};
    bus_error_t err = {0};
    const char *path = "/tmp/bus_config_test_no_such_dir/none.yaml";
    T_EQ_INT(bus_config_load_file(s_table, &config, path, &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_NOT_FOUND);
    T_EQ_STR(err.detail, "/tmp/bus_config_test_no_such_dir/none.yaml: No such file or "
                         "directory");
    //  a directory cannot be read either
    T_EQ_INT(bus_config_load_file(s_table, &config, "/tmp", &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_NOT_FOUND);
    T_EQ_STR(err.detail, "/tmp: Is a directory");
}

static void
test_set(void)
{
    test_config_t config = {0};
    bus_error_t err = {0};
    T_EQ_INT(bus_config_defaults(s_table, &config, &err), 0);
    T_EQ_INT(bus_config_set(s_table, &config, "workers", "8", &err), 0);
    T_EQ_INT(config.workers, 8);
    T_EQ_INT(bus_config_set(s_table, &config, "bus.queue.limit", "1GiB", &err), 0);
    T_EQ_INT(config.queue_limit, GIB);
    T_EQ_INT(bus_config_set(s_table, &config, "bus.queue.policy", "lifo", &err), 0);
    T_EQ_STR(config.queue_policy, "lifo");
    T_EQ_INT(bus_config_set(s_table, &config, "name", "~", &err), 0);
    T_EQ_STR(config.name, "~"); //  plain text, not YAML
    T_EQ_INT(bus_config_set(s_table, &config, "db.strict", "FALSE", &err), 0);
    T_ASSERT(!config.db_strict);

    T_EQ_INT(bus_config_set(s_table, &config, "bus.nope", "1", &err), -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_EQ_STR(err.detail, "unknown option 'bus.nope'");
    T_EQ_INT(bus_config_set(s_table, &config, "bus", "1", &err), -1);
    T_EQ_STR(err.detail, "unknown option 'bus'");
    T_EQ_INT(bus_config_set(s_table, &config, "bus.rpc_timeout_ms", "7", &err), -1);
    T_EQ_STR(err.detail, "value 7 out of range [100, 600000] for 'bus.rpc_timeout_ms'");
    T_EQ_INT(bus_config_set(s_table, &config, "bus.queue.policy", "x", &err), -1);
    T_EQ_STR(err.detail, "expected one of fifo|lifo|drf for 'bus.queue.policy', got 'x'");
    T_EQ_INT(bus_config_set(s_table, &config, "name", "far too long for sixteen", &err),
             -1);
    //  refusals change nothing
    T_EQ_INT(config.rpc_timeout_ms, 5000);
    T_EQ_STR(config.queue_policy, "lifo");
    T_EQ_STR(config.name, "~");
    bus_config_clear(s_table, &config);
}

static void
test_value_syntax(void)
{
    test_config_t config = {0};
    bus_error_t err = {0};
    struct {
        const char *text;
        int64_t bytes; //  -1: refused
    } sizes[] = {{"0", 0},
                 {"512", 512},
                 {"64k", 64 << 10},
                 {"64K", 64 << 10},
                 {"64kb", 64 << 10},
                 {"64KiB", 64 << 10},
                 {"1ki", 1024},
                 {"256m", 256 << 20},
                 {"2g", 2 * GIB},
                 {"1T", INT64_C(1) << 40},
                 {"1099511627776", INT64_C(1) << 40},
                 {"", -1},
                 {"k", -1},
                 {"1b", -1},
                 {"1kk", -1},
                 {"1 k", -1},
                 {"1.5k", -1},
                 {"1kbi", -1},
                 {"+1", -1},
                 {"1p", -1},
                 {"1099511627777", -1},
                 {NULL, 0}};
    for (size_t i = 0; sizes[i].text; i++) {
        config.queue_limit = -7;
        int rc = bus_config_set(s_table, &config, "bus.queue.limit", sizes[i].text, &err);
        if (sizes[i].bytes < 0) {
            T_EQ_INT(rc, -1);
            T_EQ_INT(config.queue_limit, -7);
        } else {
            T_EQ_INT(rc, 0);
            T_EQ_INT(config.queue_limit, sizes[i].bytes);
        }
    }
    const char *yes[] = {"true", "True", "YES", "on", "On", NULL};
    const char *no[] = {"false", "FALSE", "no", "No", "off", "OFF", NULL};
    const char *bad[] = {"", "1", "0", "y", "n", "truee", "of", NULL};
    for (size_t i = 0; yes[i]; i++) {
        config.verbose = false;
        T_EQ_INT(bus_config_set(s_table, &config, "verbose", yes[i], &err), 0);
        T_ASSERT(config.verbose);
    }
    for (size_t i = 0; no[i]; i++) {
        config.verbose = true;
        T_EQ_INT(bus_config_set(s_table, &config, "verbose", no[i], &err), 0);
        T_ASSERT(!config.verbose);
    }
    for (size_t i = 0; bad[i]; i++)
        T_EQ_INT(bus_config_set(s_table, &config, "verbose", bad[i], &err), -1);
    const char *ints_bad[] = {"", "+", "-", " 5", "5 ", "05x", "1e3", NULL};
    for (size_t i = 0; ints_bad[i]; i++)
        T_EQ_INT(bus_config_set(s_table, &config, "workers", ints_bad[i], &err), -1);
    T_EQ_INT(bus_config_set(s_table, &config, "workers", "064", &err), 0);
    T_EQ_INT(config.workers, 64);
    T_EQ_INT(bus_config_set(s_table, &config, "workers", "+1", &err), 0);
    T_EQ_INT(config.workers, 1);
    bus_config_clear(s_table, &config);
}

//  Every option set away from its default, so a load that misses one shows.
static void
s_scramble(test_config_t *config)
{
    bus_error_t err;
    bus_config_set(s_table, config, "name", "other", &err);
    bus_config_set(s_table, config, "workers", "63", &err);
    bus_config_set(s_table, config, "verbose", "yes", &err);
    bus_config_set(s_table, config, "bus.rpc_timeout_ms", "101", &err);
    bus_config_set(s_table, config, "bus.queue.limit", "1", &err);
    bus_config_set(s_table, config, "bus.queue.policy", "drf", &err);
    bus_config_set(s_table, config, "bus.endpoint", "x", &err);
    bus_config_set(s_table, config, "db.path", "y", &err);
    bus_config_set(s_table, config, "db.strict", "no", &err);
}

static char *
s_write_defaults(const bus_config_option_t *table, size_t *size)
{
    char *text = NULL;
    FILE *out = open_memstream(&text, size);
    if (!out)
        return NULL;
    bus_config_write_defaults(table, out);
    fclose(out);
    return text;
}

static void
test_write_defaults_round_trip(void)
{
    size_t size = 0;
    char *text = s_write_defaults(s_table, &size);
    T_ASSERT(text);
    const char *expected = "# Name shown in logs\n"
                           "name: backplane\n"
                           "\n"
                           "# Worker threads\n"
                           "workers: 4\n"
                           "\n"
                           "# Log at debug level\n"
                           "verbose: no\n"
                           "\n"
                           "bus:\n"
                           "  # RPC deadline in milliseconds\n"
                           "  rpc_timeout_ms: 5000\n"
                           "\n"
                           "  queue:\n"
                           "    # Queue size limit\n"
                           "    limit: 64m\n"
                           "\n"
                           "    # Queue order\n"
                           "    policy: fifo\n"
                           "\n"
                           "  # Where the hub listens\n"
                           "  endpoint: \"tcp://127.0.0.1:5555\"\n"
                           "\n"
                           "db:\n"
                           "  # Database file; empty means in memory\n"
                           "  path: \"\"\n"
                           "\n"
                           "  # Refuse unknown columns\n"
                           "  strict: on\n";
    bool same = strcmp(text, expected) == 0;
    if (!same)
        fprintf(stderr, "# got:\n%s", text);

    test_config_t defaults = {0}, loaded = {0};
    bus_error_t err = {0};
    int rc_defaults = bus_config_defaults(s_table, &defaults, &err);
    s_scramble(&loaded);
    int rc = bus_config_load_string(s_table, &loaded, text, size, "defaults", &err);
    if (rc != 0)
        fprintf(stderr, "# %s\n", err.detail);
    free(text);
    bool equal = rc == 0 && strcmp(loaded.name, defaults.name) == 0 &&
                 loaded.workers == defaults.workers &&
                 loaded.verbose == defaults.verbose &&
                 loaded.rpc_timeout_ms == defaults.rpc_timeout_ms &&
                 loaded.queue_limit == defaults.queue_limit &&
                 strcmp(loaded.queue_policy, defaults.queue_policy) == 0 &&
                 strcmp(loaded.endpoint, defaults.endpoint) == 0 &&
                 strcmp(loaded.db_path, defaults.db_path) == 0 &&
                 loaded.db_strict == defaults.db_strict;
    bus_config_clear(s_table, &defaults);
    bus_config_clear(s_table, &loaded);
    T_ASSERT(same);
    T_EQ_INT(rc_defaults, 0);
    T_EQ_INT(rc, 0);
    T_ASSERT(equal);
}

//  Strings YAML would misread if written plain.
typedef struct {
    char *s[24];
} tricky_config_t;

#define TRICKY(i, text)                                                                  \
    {                                                                                    \
        "a.b.s" #i, BUS_CFG_STRING, offsetof(tricky_config_t, s) + (i) * sizeof(char *), \
            text, 0, 0, NULL, "help for " #i "\nsecond line"                             \
    }

static const bus_config_option_t s_tricky[] = {
    TRICKY(0, "yes"),        TRICKY(1, "~"),         TRICKY(2, " lead"),
    TRICKY(3, "trail "),     TRICKY(4, "a#b"),       TRICKY(5, "*star"),
    TRICKY(6, "&amp"),       TRICKY(7, "!bang"),     TRICKY(8, "{brace"),
    TRICKY(9, "[bracket"),   TRICKY(10, "\"dq\""),   TRICKY(11, "it's"),
    TRICKY(12, "null"),      TRICKY(13, ""),         TRICKY(14, "tab\there"),
    TRICKY(15, "line\nnew"), TRICKY(16, "back\\sl"), TRICKY(17, "- dash"),
    TRICKY(18, "k: v"),      TRICKY(19, "NULL"),     TRICKY(20, "%pct"),
    TRICKY(21, "-5"),        TRICKY(22, "ctl\x01"),  TRICKY(23, "plain words"),
    BUS_CONFIG_END};

static void
test_write_defaults_tricky(void)
{
    size_t size = 0;
    char *text = s_write_defaults(s_tricky, &size);
    T_ASSERT(text);
    bool quoted = strstr(text, "    s23: plain words\n") &&
                  strstr(text, "    s21: -5\n") && strstr(text, "    s0: \"yes\"\n") &&
                  strstr(text, "    s13: \"\"\n") &&
                  strstr(text, "    # help for 0\n    # second line\n");
    if (!quoted)
        fprintf(stderr, "# got:\n%s", text);
    tricky_config_t loaded = {0};
    bus_error_t err = {0};
    int rc = bus_config_load_string(s_tricky, &loaded, text, size, "tricky", &err);
    if (rc != 0)
        fprintf(stderr, "# %s\n", err.detail);
    free(text);
    size_t wrong = 0;
    for (size_t i = 0; rc == 0 && s_tricky[i].key; i++)
        if (!loaded.s[i] || strcmp(loaded.s[i], s_tricky[i].default_value) != 0) {
            fprintf(stderr, "# %s: \"%s\"\n", s_tricky[i].key, loaded.s[i]);
            wrong++;
        }
    bus_config_clear(s_tricky, &loaded);
    T_ASSERT(quoted);
    T_EQ_INT(rc, 0);
    T_EQ_INT(wrong, 0);
}

static void
test_reload(void)
{
    test_config_t config = {0};
    bus_error_t err = {0};
    T_EQ_INT(bus_config_defaults(s_table, &config, &err), 0);
    T_EQ_INT(s_load(&config, "name: first\nbus:\n  queue:\n    policy: lifo\n", &err), 0);
    T_EQ_STR(config.name, "first");
    T_EQ_INT(s_load(&config, "name: second\nbus:\n  queue:\n    policy: drf\n", &err), 0);
    T_EQ_STR(config.name, "second");
    T_EQ_STR(config.queue_policy, "drf");
    //  a failed load keeps every earlier value, even those it parsed first
    T_EQ_INT(s_load(&config, "name: third\nworkers: 2\nverbose: nah\n", &err), -1);
    T_EQ_STR(err.detail, "t.yaml:3:10: expected true/false/yes/no/on/off for 'verbose', "
                         "got 'nah'");
    T_EQ_STR(config.name, "second");
    T_EQ_INT(config.workers, 4);
    //  a file path too, loaded twice over the same strings
    char *path = s_temp_file("name: from-file\ndb:\n  path: /var/lib/bp.db\n");
    T_ASSERT(path);
    int rc1 = bus_config_load_file(s_table, &config, path, &err);
    int rc2 = bus_config_load_file(s_table, &config, path, &err);
    unlink(path);
    free(path);
    T_EQ_INT(rc1, 0);
    T_EQ_INT(rc2, 0);
    T_EQ_STR(config.name, "from-file");
    T_EQ_STR(config.db_path, "/var/lib/bp.db");
    bus_config_clear(s_table, &config);
}

typedef struct {
    int number;
    char *word;
} small_config_t;

static void
s_expect_bad_table(const bus_config_option_t *table, const char *detail)
{
    small_config_t config = {0};
    bus_error_t err = {0};
    int rc = bus_config_defaults(table, &config, &err);
    if (rc != -1 || strcmp(err.detail, detail) != 0)
        fprintf(stderr, "# rc=%d detail \"%s\", want \"%s\"\n", rc, err.detail, detail);
    bool untouched = config.number == 0 && config.word == NULL;
    bus_config_clear(table, &config);
    T_EQ_INT(rc, -1);
    T_EQ_INT(err.status, BUS_STATUS_INVALID);
    T_EQ_STR(err.detail, detail);
    T_ASSERT(untouched);
}

static void
test_bad_tables(void)
{
    const bus_config_option_t range[] = {
        {"w", BUS_CFG_ENUM, offsetof(small_config_t, word), "a", 0, 0, "a|b", NULL},
        {"x.n", BUS_CFG_INT, offsetof(small_config_t, number), "7", 100, 600000, NULL,
         NULL},
        BUS_CONFIG_END};
    s_expect_bad_table(range,
                       "bad default: value 7 out of range [100, 600000] for 'x.n'");
    const bus_config_option_t choice[] = {
        {"w", BUS_CFG_ENUM, offsetof(small_config_t, word), "c", 0, 0, "a|b", NULL},
        BUS_CONFIG_END};
    s_expect_bad_table(choice, "bad default: expected one of a|b for 'w', got 'c'");
    const bus_config_option_t syntax[] = {
        {"n", BUS_CFG_INT, offsetof(small_config_t, number), NULL, 0, 10, NULL, NULL},
        BUS_CONFIG_END};
    s_expect_bad_table(syntax, "bad default: expected an integer for 'n', got ''");
    const bus_config_option_t key[] = {
        {"a..b", BUS_CFG_INT, offsetof(small_config_t, number), "1", 0, 10, NULL, NULL},
        BUS_CONFIG_END};
    s_expect_bad_table(key, "bad table: malformed key 'a..b'");
    const bus_config_option_t twice[] = {
        {"n", BUS_CFG_INT, offsetof(small_config_t, number), "1", 0, 10, NULL, NULL},
        {"n", BUS_CFG_INT, offsetof(small_config_t, number), "1", 0, 10, NULL, NULL},
        BUS_CONFIG_END};
    s_expect_bad_table(twice, "bad table: duplicate key 'n'");
    const bus_config_option_t both[] = {
        {"a", BUS_CFG_INT, offsetof(small_config_t, number), "1", 0, 10, NULL, NULL},
        {"a.b", BUS_CFG_ENUM, offsetof(small_config_t, word), "x", 0, 0, "x", NULL},
        BUS_CONFIG_END};
    s_expect_bad_table(
        both, "bad table: 'a' and 'a.b' make one key both an option and a group");
    const bus_config_option_t scattered[] = {
        {"a.x", BUS_CFG_INT, offsetof(small_config_t, number), "1", 0, 10, NULL, NULL},
        {"b", BUS_CFG_ENUM, offsetof(small_config_t, word), "x", 0, 0, "x", NULL},
        {"a.y", BUS_CFG_INT, offsetof(small_config_t, number), "1", 0, 10, NULL, NULL},
        BUS_CONFIG_END};
    s_expect_bad_table(scattered,
                       "bad table: 'a.y' is not next to the other options under 'a'");
}

int
main(void)
{
    T_RUN(test_defaults);
    T_RUN(test_good_file);
    T_RUN(test_empty_documents);
    T_RUN(test_errors);
    T_RUN(test_too_large);
    T_RUN(test_missing_file);
    T_RUN(test_set);
    T_RUN(test_value_syntax);
    T_RUN(test_write_defaults_round_trip);
    T_RUN(test_write_defaults_tricky);
    T_RUN(test_reload);
    T_RUN(test_bad_tables);
    return T_DONE();
}
