/*  =========================================================================
    gw_session_spec_test - a create's body, checked without a server

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include "t.h"

//  Parses text; returns the status and copies the detail into detail.
static int
s_parse(const char *text, gw_session_spec_t *spec, char *detail, size_t size)
{
    json_t *params = json_loads(text, 0, NULL);
    bus_error_t err = {0};
    int rc = gw_session_spec_parse(params, spec, &err);
    snprintf(detail, size, "%s", err.detail);
    gw_session_spec_clear(spec);
    json_decref(params);
    return rc;
}

static void
test_defaults(void)
{
    json_t *params =
        json_loads("{\"name\": \"spec-one\", \"image\": \"python\"}", 0, NULL);
    gw_session_spec_t spec;
    bus_error_t err = {0};
    T_EQ_INT(gw_session_spec_parse(params, &spec, &err), BUS_OK);
    T_EQ_STR(spec.name, "spec-one");
    T_EQ_STR(spec.image, "python");
    T_ASSERT(!spec.batch && !spec.multi_node && spec.reuse && !spec.enqueue_only);
    T_EQ_INT(spec.cluster_size, 1);
    T_EQ_INT(spec.priority, GW_SESSION_PRIORITY);
    T_EQ_STR(spec.preopen, "[]");
    T_ASSERT(!spec.dependencies && !spec.environ && !spec.bootstrap);
    gw_session_spec_clear(&spec);
    gw_session_spec_clear(&spec); //  safe twice
    json_decref(params);
}

static void
test_aliases(void)
{
    json_t *params = json_loads(
        "{\"clientSessionToken\": \"spec-two\", \"lang\": \"python\", \"sessionType\":"
        " \"batch\", \"startup_command\": \"true\", \"clusterSize\": 2, \"clusterMode\":"
        " \"multi-node\", \"dependencies\": [\"spec-one\"], \"config\": "
        "{\"preopenPorts\":"
        " [8080, \"8081\"], \"environ\": {\"A\": \"1\"}}}",
        0, NULL);
    gw_session_spec_t spec;
    bus_error_t err = {0};
    T_EQ_INT(gw_session_spec_parse(params, &spec, &err), BUS_OK);
    T_EQ_STR(spec.name, "spec-two");
    T_ASSERT(spec.batch && spec.multi_node);
    T_EQ_INT(spec.cluster_size, 2);
    T_EQ_STR(spec.preopen, "[8080,8081]");
    T_EQ_STR(spec.dependencies, "[\"spec-one\"]");
    T_ASSERT(json_is_object(spec.environ));
    gw_session_spec_clear(&spec);
    json_decref(params);
}

static void
test_refused(void)
{
    static const struct {
        const char *body;
        const char *detail;
    } cases[] = {
        {"{\"name\": \"abc\", \"image\": \"x\"}", "name"},
        {"{\"name\": \"spec-x\"}", "image"},
        {"{\"name\": \"spec-x\", \"image\": \"x\", \"type\": \"odd\"}", "type"},
        {"{\"name\": \"spec-x\", \"image\": \"x\", \"type\": \"batch\"}",
         "startupCommand"},
        {"{\"name\": \"spec-x\", \"image\": \"x\", \"config\": {\"preopen_ports\": "
         "[2000]}}",
         "preopen_ports"},
        {"{\"name\": \"spec-x\", \"image\": \"x\", \"bootstrap_script\": 5}",
         "bootstrap_script"},
        {"{\"name\": \"spec-x\", \"image\": \"x\", \"cluster_size\": 65}",
         "cluster_size"},
        {"{\"name\": \"spec-x\", \"image\": \"x\", \"priority\": 101}", "priority"},
        {"{\"name\": \"spec-x\", \"image\": \"x\", \"dependencies\": 5}", "dependencies"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gw_session_spec_t spec;
        char detail[256];
        T_EQ_INT(s_parse(cases[i].body, &spec, detail, sizeof detail),
                 BUS_STATUS_INVALID);
        T_CONTAINS(detail, cases[i].detail);
    }
}

//  The schema's limit of environment variables, and one more.
static void
test_environ_limit(void)
{
    for (int extra = 0; extra <= 1; extra++) {
        json_t *environ = json_object();
        for (int i = 0; i < GW_SESSION_ENVIRON_MAX + extra; i++) {
            char key[32];
            snprintf(key, sizeof key, "VAR_%d", i);
            json_object_set_new(environ, key, json_string("value"));
        }
        //  Values that are not strings are ignored, and not counted.
        json_object_set_new(environ, "NUMBER", json_integer(5));
        json_t *params = json_pack("{s:s, s:s, s:{s:o}}", "name", "spec-env", "image",
                                   "x", "config", "environ", environ);
        gw_session_spec_t spec;
        bus_error_t err = {0};
        int rc = gw_session_spec_parse(params, &spec, &err);
        gw_session_spec_clear(&spec);
        json_decref(params);
        if (extra) {
            T_EQ_INT(rc, BUS_STATUS_INVALID);
            T_CONTAINS(err.detail, "environ");
            T_CONTAINS(err.detail, "1024");
        } else
            T_EQ_INT(rc, BUS_OK);
    }
    T_EQ_INT(GW_SESSION_ENVIRON_MAX, 1024);
}

int
main(void)
{
    T_RUN(test_defaults);
    T_RUN(test_aliases);
    T_RUN(test_refused);
    T_RUN(test_environ_limit);
    return T_DONE();
}
