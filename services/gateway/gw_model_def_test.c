/*  =========================================================================
    gw_model_def_test - model-definition.yaml as Backend.AI writes it, and
    what is refused with which words

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include "t.h"

static json_t *
s_parse(const char *text, char *detail, size_t dsize)
{
    return gw_model_def_parse("model-definition.yaml", text, strlen(text), detail, dsize);
}

static void
test_full(void)
{
    char detail[512];
    json_t *service =
        s_parse("models:\n"
                "  - name: echo-model\n"
                "    model_path: /models\n"
                "    service:\n"
                "      start_command: [\"httpd\", \"-f\", \"-p\", \"8000\"]\n"
                "      port: 8000\n"
                "      health_check:\n"
                "        path: /health\n"
                "        max_retries: 3\n"
                "        max_wait_time: 1\n"
                "    metadata:\n"
                "      title: Echo\n",
                detail, sizeof detail);
    T_ASSERT(service != NULL);
    T_EQ_STR(json_string_value(json_object_get(service, "name")), "echo-model");
    T_EQ_STR(json_string_value(json_object_get(service, "model_path")), "/models");
    T_EQ_INT(json_integer_value(json_object_get(service, "port")), 8000);
    T_EQ_INT(json_array_size(json_object_get(service, "start_command")), 4);
    json_t *check = json_object_get(service, "health_check");
    T_EQ_STR(json_string_value(json_object_get(check, "path")), "/health");
    T_EQ_INT(json_integer_value(json_object_get(check, "max_retries")), 3);
    T_EQ_INT(json_integer_value(json_object_get(check, "expected_status_code")), 200);
    T_ASSERT(json_real_value(json_object_get(check, "max_wait_time")) == 1.0);
    json_decref(service);
}

static void
test_defaults(void)
{
    char detail[512];
    json_t *service = s_parse("models:\n"
                              "- name: m\n"
                              "  model_path: /models/m\n"
                              "  service:\n"
                              "    start_command:\n"
                              "    - python3\n"
                              "    - serve.py\n"
                              "    port: 9000\n",
                              detail, sizeof detail);
    T_ASSERT(service != NULL);
    T_ASSERT(json_object_get(service, "health_check") == NULL);
    json_decref(service);
    service = s_parse("models:\n- name: m\n  model_path: /models\n  service:\n"
                      "    start_command: [a]\n    port: 80\n"
                      "    health_check: {path: /ready}\n",
                      detail, sizeof detail);
    json_t *check = json_object_get(service, "health_check");
    T_EQ_INT(json_integer_value(json_object_get(check, "max_retries")), 10);
    T_ASSERT(json_real_value(json_object_get(check, "max_wait_time")) == 5.0);
    json_decref(service);
}

//  A syntax error names the file and its line.
static void
test_bad_yaml(void)
{
    char detail[512];
    json_t *service = s_parse("models:\n"
                              "  - name: m\n"
                              "    model_path: /models\n"
                              "    service: [unclosed\n"
                              "      port: 8000\n",
                              detail, sizeof detail);
    T_ASSERT(service == NULL);
    T_ASSERT(strstr(detail, "model-definition.yaml") != NULL);
    T_ASSERT(strstr(detail, "line 5") != NULL || strstr(detail, "line 4") != NULL);
    service = s_parse("a: &x [1]\nb: *x\n", detail, sizeof detail);
    T_ASSERT(service == NULL);
    T_ASSERT(strstr(detail, "line 2") != NULL);
}

static void
test_refused(void)
{
    static const struct {
        const char *text, *words;
    } cases[] = {
        {"{}", "models: a list"},
        {"models: []", "models: a list"},
        {"models: [{model_path: /m, service: {start_command: [a], port: 1}}]",
         "models[0].name"},
        {"models: [{name: m, model_path: rel, service: {start_command: [a], port: 1}}]",
         "models[0].model_path"},
        {"models: [{name: m, model_path: /m}]", "models[0].service: required"},
        {"models: [{name: m, model_path: /m, service: {port: 1}}]", "start_command"},
        {"models: [{name: m, model_path: /m, service: {start_command: a, port: 1}}]",
         "start_command"},
        {"models: [{name: m, model_path: /m, service: {start_command: [[a]], port: 1}}]",
         "start_command[0]"},
        {"models: [{name: m, model_path: /m, service: {start_command: [a]}}]", "port"},
        {"models: [{name: m, model_path: /m, service: {start_command: [a], port: 2000}}]",
         "port"},
        {"models: [{name: m, model_path: /m, service: {start_command: [a], port: "
         "70000}}]",
         "port"},
        {"models: [{name: m, model_path: /m, service: {start_command: [a], port: '80'}}]",
         "port"},
        {"models: [{name: m, model_path: /m, service: {start_command: [a], port: 80,"
         " health_check: {max_retries: 1}}}]",
         "health_check.path"},
        {"models: [{name: m, model_path: /m, service: {start_command: [a], port: 80,"
         " health_check: {path: /h, max_retries: -1}}}]",
         "max_retries"},
        {"models: [{name: m, model_path: /m, service: {start_command: [a], port: 80,"
         " health_check: {path: /h, expected_status_code: 42}}}]",
         "expected_status_code"},
        {"models: [{name: m, model_path: /m, service: {start_command: [a], port: 80,"
         " pre_start_actions: [{action: run_command}]}}]",
         "pre_start_actions"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char detail[512] = "";
        json_t *service = s_parse(cases[i].text, detail, sizeof detail);
        T_ASSERT(service == NULL);
        if (!strstr(detail, cases[i].words))
            fprintf(stderr, "# case %zu: %s\n", i, detail);
        T_ASSERT(strstr(detail, cases[i].words) != NULL);
        json_decref(service);
    }
}

static json_t *
s_card(const char *text, char *detail, size_t dsize)
{
    return gw_model_def_card("model-definition.yaml", text, strlen(text), detail, dsize);
}

static void
test_card(void)
{
    char detail[512] = "";
    json_t *card = s_card("models:\n"
                          "  - name: llama\n"
                          "    model_path: /models\n"
                          "    metadata:\n"
                          "      title: Llama 3\n"
                          "      version: 1.0\n"
                          "      created: 2024-03-01\n"
                          "      task: text-generation\n"
                          "      framework: vllm\n"
                          "      label: [chat, \"8b\"]\n"
                          "      min_resource: {cpu: 2, mem: 4g}\n",
                          detail, sizeof detail);
    T_ASSERT(card != NULL);
    T_EQ_STR(json_string_value(json_object_get(card, "name")), "llama");
    json_t *meta = json_object_get(card, "metadata");
    T_EQ_STR(json_string_value(json_object_get(meta, "title")), "Llama 3");
    T_EQ_STR(json_string_value(json_object_get(meta, "version")), "1");
    T_EQ_STR(json_string_value(json_object_get(meta, "created")), "2024-03-01");
    T_EQ_INT(json_array_size(json_object_get(meta, "framework")), 1);
    T_EQ_STR(json_string_value(json_array_get(json_object_get(meta, "label"), 1)), "8b");
    T_EQ_INT(
        json_integer_value(json_object_get(json_object_get(meta, "min_resource"), "cpu")),
        2);
    T_ASSERT(json_object_get(meta, "author") == NULL);
    json_decref(card);

    //  No metadata and no service: still a card.
    card = s_card("models: [{name: m, model_path: /models}]", detail, sizeof detail);
    T_ASSERT(card != NULL);
    T_EQ_INT(json_object_size(json_object_get(card, "metadata")), 0);
    json_decref(card);
}

static void
test_card_refused(void)
{
    static const struct {
        const char *text;
        const char *words;
    } cases[] = {
        {"models: [{name: m, model_path: /m\n", "line"},
        {"models: []", "models:"},
        {"models: [{model_path: /m}]", "models[0].name"},
        {"models: [{name: m}]", "model_path"},
        {"models: [{name: m, model_path: /m, metadata: [a]}]", "metadata: a mapping"},
        {"models: [{name: m, model_path: /m, metadata: {title: {a: b}}}]", "title"},
        {"models: [{name: m, model_path: /m, metadata: {label: [{a: b}]}}]", "label[0]"},
        {"models: [{name: m, model_path: /m, metadata: {framework: {a: b}}}]",
         "framework"},
        {"models: [{name: m, model_path: /m, metadata: {min_resource: 4}}]",
         "min_resource"},
        {"a: &x [1]\nb: *x\n", "alias"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char detail[512] = "";
        json_t *card = s_card(cases[i].text, detail, sizeof detail);
        T_ASSERT(card == NULL);
        if (!strstr(detail, cases[i].words))
            fprintf(stderr, "# card case %zu: %s\n", i, detail);
        T_ASSERT(strstr(detail, cases[i].words) != NULL);
        json_decref(card);
    }
}

//  A message with bytes that are no UTF-8 is kept, those bytes replaced:
//  json_string alone would give NULL and the card no error_msg.
static void
test_message(void)
{
    json_t *plain = gw_model_def_message("model-definition.yaml: line 3");
    T_EQ_STR(json_string_value(plain), "model-definition.yaml: line 3");
    json_decref(plain);
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"bad \xff byte", "bad \xEF\xBF\xBD byte"},
        {"cut \xC3", "cut \xEF\xBF\xBD"},           //  cut in a character
        {"\xC3\xA9t\xE9", "\xC3\xA9t\xEF\xBF\xBD"}, //  é kept, Latin-1 é not
        {"\xC0\xAF", "\xEF\xBF\xBD\xEF\xBF\xBD"},   //  overlong '/'
        {"\xED\xA0\x80!", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD!"}, //  a surrogate
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        T_ASSERT(json_string(cases[i].in) == NULL);
        json_t *text = gw_model_def_message(cases[i].in);
        T_ASSERT(text != NULL);
        T_EQ_STR(json_string_value(text), cases[i].out);
        json_decref(text);
    }
}

//  The runtime variants: vllm, nim and cmd imply their definition (the
//  image's command, port 8000, each its health check); custom has none.
static void
test_variants(void)
{
    T_ASSERT(gw_model_def_variant_find("tgi") == NULL);
    T_ASSERT(gw_model_def_variant_find(NULL) == NULL);
    const gw_model_variant_t *vllm = gw_model_def_variant_find("vllm");
    T_ASSERT(vllm && !vllm->any_mount);
    json_t *service = gw_model_def_variant(vllm, "/models");
    T_EQ_STR(json_string_value(json_object_get(service, "name")), "vllm-model");
    T_EQ_STR(json_string_value(json_object_get(service, "model_path")), "/models");
    T_ASSERT(json_is_true(json_object_get(service, "image_command")));
    T_EQ_INT(json_integer_value(json_object_get(service, "port")), 8000);
    T_EQ_STR(json_string_value(
                 json_object_get(json_object_get(service, "health_check"), "path")),
             "/health");
    json_decref(service);
    service = gw_model_def_variant(gw_model_def_variant_find("nim"), "/models");
    T_EQ_STR(json_string_value(
                 json_object_get(json_object_get(service, "health_check"), "path")),
             "/v1/health/ready");
    json_decref(service);
    const gw_model_variant_t *cmd = gw_model_def_variant_find("cmd");
    T_ASSERT(cmd && cmd->any_mount);
    service = gw_model_def_variant(cmd, "/srv/model");
    T_EQ_STR(json_string_value(json_object_get(service, "name")), "image-model");
    T_ASSERT(json_object_get(service, "health_check") == NULL);
    json_decref(service);
    T_ASSERT(gw_model_def_variant(gw_model_def_variant_find("custom"), "/models") ==
             NULL);
}

int
main(void)
{
    T_RUN(test_card);
    T_RUN(test_card_refused);
    T_RUN(test_full);
    T_RUN(test_defaults);
    T_RUN(test_bad_yaml);
    T_RUN(test_refused);
    T_RUN(test_message);
    T_RUN(test_variants);
    return T_DONE();
}
