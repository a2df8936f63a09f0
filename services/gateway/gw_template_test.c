/*  =========================================================================
    gw_template_test - session templates without a server: YAML and JSON
    in with their limits, the taskTemplate check, YAML out and back, and
    the merge of a template with a request's overrides

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include "t.h"

static json_t *
s_parse(const char *text, char *detail, size_t size)
{
    return gw_template_parse(text, strlen(text), detail, size);
}

static const char *const s_template =
    "apiVersion: v1\n"
    "kind: task_template\n"
    "metadata: {name: small, tag: t1}\n"
    "spec:\n"
    "  type: batch\n"
    "  kernel:\n"
    "    image: python:3.9\n"
    "    environ: {A: '1', B: \"yes\"}\n"
    "    run: {startupCommand: python x.py, bootstrap: pip install x}\n"
    "  mounts: {data: /home/work/data, models: null, cache: sub/dir}\n"
    "  resources: {cpu: 2, mem: 1g}\n"
    "  scaling_group: sg1\n";

static void
test_scalars(void)
{
    char detail[256];
    json_t *v = s_parse("a: ~\nb: true\nc: no\nd: 12\ne: -3.5\nf: '12'\ng: 1.2.3\n"
                        "h: \"true\"\ni: !!str 7\nj:\nk: [1, x]\n",
                        detail, sizeof detail);
    T_ASSERT(json_is_object(v));
    T_ASSERT(json_is_null(json_object_get(v, "a")));
    T_ASSERT(json_is_true(json_object_get(v, "b")));
    T_ASSERT(json_is_false(json_object_get(v, "c")));
    T_EQ_INT(json_integer_value(json_object_get(v, "d")), 12);
    T_ASSERT(json_real_value(json_object_get(v, "e")) == -3.5);
    T_EQ_STR(json_string_value(json_object_get(v, "f")), "12");
    T_EQ_STR(json_string_value(json_object_get(v, "g")), "1.2.3");
    T_EQ_STR(json_string_value(json_object_get(v, "h")), "true");
    T_EQ_STR(json_string_value(json_object_get(v, "i")), "7");
    T_ASSERT(json_is_null(json_object_get(v, "j")));
    T_EQ_INT(json_array_size(json_object_get(v, "k")), 2);
    json_decref(v);
}

static void
test_limits(void)
{
    char detail[256];
    T_ASSERT(s_parse("a: &x 1\nb: *x\n", detail, sizeof detail) == NULL);
    T_CONTAINS(detail, "aliases");
    T_ASSERT(s_parse("a: 1\n---\nb: 2\n", detail, sizeof detail) == NULL);
    T_CONTAINS(detail, "one YAML document");
    T_ASSERT(s_parse("{a: [b\n", detail, sizeof detail) == NULL);
    T_CONTAINS(detail, "Malformed payload");
    T_ASSERT(s_parse("? [a]\n: b\n", detail, sizeof detail) == NULL);
    T_CONTAINS(detail, "key");
    char deep[128] = "";
    for (int i = 0; i < GW_TEMPLATE_MAX_DEPTH + 1; i++)
        strcat(deep, "[");
    for (int i = 0; i < GW_TEMPLATE_MAX_DEPTH + 1; i++)
        strcat(deep, "]");
    T_ASSERT(s_parse(deep, detail, sizeof detail) == NULL); //  as JSON
    T_CONTAINS(detail, "deeply");
    deep[strlen(deep) - 1] = ' '; //  no longer JSON: as YAML
    T_ASSERT(s_parse(deep, detail, sizeof detail) == NULL);
    T_CONTAINS(detail, "deeply");
    char *many = malloc(GW_TEMPLATE_MAX_NODES * 3 + 8);
    strcpy(many, "[");
    for (int i = 0; i <= GW_TEMPLATE_MAX_NODES; i++)
        strcat(many, "1,");
    strcat(many, "1 ");
    T_ASSERT(s_parse(many, detail, sizeof detail) == NULL);
    T_CONTAINS(detail, "too many nodes");
    free(many);
    char *big = malloc(GW_TEMPLATE_MAX_BYTES + 2);
    memset(big, 'a', GW_TEMPLATE_MAX_BYTES + 1);
    big[GW_TEMPLATE_MAX_BYTES + 1] = 0;
    T_ASSERT(s_parse(big, detail, sizeof detail) == NULL);
    T_CONTAINS(detail, "too large");
    free(big);
}

static json_t *
s_checked(const char *text, char *detail, size_t size)
{
    json_t *doc = s_parse(text, detail, size);
    json_t *out = doc ? gw_template_check(doc, detail, size) : NULL;
    json_decref(doc);
    return out;
}

static void
test_check(void)
{
    char detail[256];
    json_t *t = s_checked(s_template, detail, sizeof detail);
    T_ASSERT(t != NULL);
    json_t *spec = json_object_get(t, "spec");
    T_EQ_STR(json_string_value(json_object_get(t, "api_version")), "v1");
    T_ASSERT(!json_object_get(t, "apiVersion"));
    T_EQ_STR(json_string_value(json_object_get(spec, "session_type")), "batch");
    T_ASSERT(!json_object_get(spec, "type"));
    json_t *kernel = json_object_get(spec, "kernel");
    T_EQ_STR(json_string_value(json_object_get(kernel, "architecture")), "x86_64");
    T_EQ_STR(json_string_value(
                 json_object_get(json_object_get(kernel, "run"), "startup_command")),
             "python x.py");
    T_ASSERT(json_is_null(json_object_get(spec, "agent_list")));
    json_decref(t);
    static const char *const bad[] = {
        "kind: taskTemplate\nmetadata: {name: x}\nspec: {kernel: {image: i}}\n",
        "api_version: v1\nkind: clusterTemplate\nmetadata: {name: x}\n"
        "spec: {kernel: {image: i}}\n",
        "api_version: v1\nkind: taskTemplate\nmetadata: {}\nspec: {kernel: {image: i}}\n",
        "api_version: v1\nkind: taskTemplate\nmetadata: {name: x}\nspec: {}\n",
        "api_version: v1\nkind: taskTemplate\nmetadata: {name: x}\n"
        "spec: {type: service, kernel: {image: i}}\n",
        "api_version: v1\nkind: taskTemplate\nmetadata: {name: x}\n"
        "spec: {kernel: {image: i, environ: {A: 1}}}\n",
        "api_version: v1\nkind: taskTemplate\nmetadata: {name: x}\n"
        "spec: {kernel: {image: i}, resources: [1]}\n",
        NULL};
    for (const char *const *b = bad; *b; b++) {
        t = s_checked(*b, detail, sizeof detail);
        T_ASSERT(t == NULL);
        json_decref(t);
    }
    static const char *const paths[] = {
        "/etc", "/home/work", "/home/work/",   "/home/workx/a",
        "../a", "a/../../b",  "a//b",          "a/./b",
        "a/",   "",           "/home/work/..", NULL};
    for (const char *const *p = paths; *p; p++) {
        char text[256];
        snprintf(text, sizeof text,
                 "api_version: v1\nkind: taskTemplate\nmetadata: {name: x}\n"
                 "spec: {kernel: {image: i}, mounts: {f: '%s'}}\n",
                 *p);
        t = s_checked(text, detail, sizeof detail);
        if (t)
            printf("# accepted mount path %s\n", *p);
        T_ASSERT(t == NULL);
        json_decref(t);
    }
}

static void
test_yaml_round_trip(void)
{
    char detail[256];
    json_t *t = s_checked(s_template, detail, sizeof detail);
    json_object_set_new(t, "odd",
                        json_pack("{s:s, s:s, s:s, s:f, s:s, s:[]}", "n", "12", "b", "no",
                                  "e", "", "r", 2.0, "ml", "two\nlines: x", "empty"));
    char *text = gw_template_yaml(t);
    T_ASSERT(text != NULL);
    json_t *back = s_parse(text, detail, sizeof detail);
    T_ASSERT(json_equal(t, back));
    free(text);
    json_decref(back);
    json_decref(t);
}

static void
test_merge(void)
{
    char detail[256];
    json_t *t = s_checked(s_template, detail, sizeof detail);
    //  Nothing overridden: the template's values.
    json_t *overrides =
        json_pack("{s:s, s:s, s:n}", "template_id", "x", "name", "s1", "image", NULL);
    json_t *p = gw_template_merge(t, "proj", overrides);
    json_t *config = json_object_get(p, "config");
    T_EQ_STR(json_string_value(json_object_get(p, "image")), "python:3.9");
    T_EQ_STR(json_string_value(json_object_get(p, "name")), "s1");
    T_EQ_STR(json_string_value(json_object_get(p, "type")), "batch");
    T_EQ_STR(json_string_value(json_object_get(p, "tag")), "t1");
    T_EQ_STR(json_string_value(json_object_get(p, "group")), "proj");
    T_EQ_STR(json_string_value(json_object_get(p, "startupCommand")), "python x.py");
    T_EQ_STR(json_string_value(json_object_get(p, "bootstrap_script")), "pip install x");
    T_ASSERT(!json_object_get(p, "template_id"));
    T_EQ_INT(json_array_size(json_object_get(config, "mounts")), 3);
    T_EQ_INT(json_object_size(json_object_get(config, "mount_map")), 2);
    T_EQ_STR(json_string_value(json_object_get(config, "scaling_group")), "sg1");
    T_EQ_STR(
        json_string_value(json_object_get(json_object_get(config, "resources"), "mem")),
        "1g");
    json_decref(p);
    json_decref(overrides);
    //  Overrides win, aliases included; a mounts list replaces the folders.
    overrides = json_pack("{s:s, s:s, s:s, s:s, s:{s:[], s:{s:s}, s:s, s:{s:i}}}", "name",
                          "s2", "lang", "busybox", "sessionType", "interactive",
                          "startup_command", "true", "config", "mounts", "environ", "C",
                          "3", "scalingGroup", "sg2", "resources", "cpu", 1);
    p = gw_template_merge(t, NULL, overrides);
    config = json_object_get(p, "config");
    T_EQ_STR(json_string_value(json_object_get(p, "lang")), "busybox");
    T_ASSERT(!json_object_get(p, "image"));
    T_EQ_STR(json_string_value(json_object_get(p, "sessionType")), "interactive");
    T_ASSERT(!json_object_get(p, "type"));
    T_ASSERT(!json_object_get(p, "startupCommand"));
    T_ASSERT(!json_object_get(p, "group"));
    T_EQ_INT(json_array_size(json_object_get(config, "mounts")), 0);
    T_ASSERT(!json_object_get(config, "mount_map"));
    T_ASSERT(!json_object_get(json_object_get(config, "environ"), "A"));
    T_EQ_STR(json_string_value(json_object_get(config, "scalingGroup")), "sg2");
    T_ASSERT(!json_object_get(config, "scaling_group"));
    T_ASSERT(!json_object_get(json_object_get(config, "resources"), "mem"));
    json_decref(p);
    json_decref(overrides);
    json_decref(t);
}

int
main(void)
{
    T_RUN(test_scalars);
    T_RUN(test_limits);
    T_RUN(test_check);
    T_RUN(test_yaml_round_trip);
    T_RUN(test_merge);
    return T_DONE();
}
