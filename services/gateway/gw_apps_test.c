/*  =========================================================================
    gw_apps_test - the ai.backend.service-ports label

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include "t.h"

static char *
s_parsed(const char *label)
{
    bus_error_t err = {0};
    json_t *apps = gw_apps_parse(label, &err);
    char *text = apps ? json_dumps(apps, JSON_COMPACT) : NULL;
    json_decref(apps);
    return text;
}

static void
test_examples(void)
{
    char *text = s_parsed("jupyter:http:8080,tensorboard:http:6006");
    T_EQ_STR(text, "[{\"name\":\"jupyter\",\"protocol\":\"http\",\"ports\":[8080]},"
                   "{\"name\":\"tensorboard\",\"protocol\":\"http\",\"ports\":[6006]}]");
    free(text);
    text = s_parsed("vscode:http:[8180,8181],ssh:tcp:2222,term:pty:7681");
    T_EQ_STR(text, "[{\"name\":\"vscode\",\"protocol\":\"http\",\"ports\":[8180,8181]},"
                   "{\"name\":\"ssh\",\"protocol\":\"tcp\",\"ports\":[2222]}]");
    free(text);
    text = s_parsed("");
    T_EQ_STR(text, "[]");
    free(text);
    text = s_parsed(NULL);
    T_EQ_STR(text, "[]");
    free(text);
}

static void
test_refusals(void)
{
    static const char *const bad[] = {
        "jupyter", "jupyter:http", ":http:80", "a:http:0", "a:http:65536", "a:http:80x",
        "a:gopher:80", "a:http:[80", "a:http:[80]x", "a:http:[]",
        "a:http:", "a:http:[80,,81]", "a:http:123456789", "a:http:80,b:tcp:-1",
        "\xff\xfe:http:80",
        //  65 bytes of name
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa:http:80",
        NULL};
    for (const char *const *label = bad; *label; label++) {
        bus_error_t err = {0};
        json_t *apps = gw_apps_parse(*label, &err);
        if (apps)
            fprintf(stderr, "# accepted: %s\n", *label);
        T_ASSERT(apps == NULL);
        T_EQ_INT(err.status, BUS_STATUS_INVALID);
        json_decref(apps);
    }
}

int
main(void)
{
    T_RUN(test_examples);
    T_RUN(test_refusals);
    return T_DONE();
}
