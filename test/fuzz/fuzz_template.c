/*  =========================================================================
    fuzz_template - libFuzzer target for session templates (gw_template)

    A template's payload is user text, JSON or YAML, read by the gateway.
    The input is parsed under the limits; a failure must come with a
    message. A parsed document is checked as a taskTemplate; a checked one
    must have a session_type and an image, must give the same value when
    written as YAML and read back, and must merge into create parameters
    with an image. Any broken promise aborts, so the fuzzer reports it like
    a crash.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "../../services/gateway/gw_template.h"

static void
s_check(bool condition)
{
    if (!condition)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char detail[256] = "";
    json_t *doc = gw_template_parse((const char *) data, size, detail, sizeof detail);
    if (!doc) {
        s_check(*detail != 0);
        return 0;
    }
    json_t *checked = gw_template_check(doc, detail, sizeof detail);
    s_check(checked || *detail);
    char *text = gw_template_yaml(doc);
    s_check(text != NULL);
    char again[256] = "";
    json_t *back = gw_template_parse(text, strlen(text), again, sizeof again);
    //  Written YAML may be longer than the limit; otherwise it reads back.
    s_check(strlen(text) > GW_TEMPLATE_MAX_BYTES || (back && json_equal(doc, back)));
    json_decref(back);
    free(text);
    if (checked) {
        json_t *spec = json_object_get(checked, "spec");
        s_check(json_is_string(json_object_get(spec, "session_type")));
        json_t *overrides = json_pack("{s:s}", "name", "fuzz");
        json_t *params = gw_template_merge(checked, "default", overrides);
        s_check(json_is_string(json_object_get(params, "image")));
        s_check(json_is_object(json_object_get(params, "config")));
        json_decref(params);
        json_decref(overrides);
    }
    json_decref(checked);
    json_decref(doc);
    return 0;
}
