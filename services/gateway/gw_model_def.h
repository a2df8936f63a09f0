/*  =========================================================================
    gw_model_def - a model folder's model-definition.yaml, read and checked

    Backend.AI's format (its model_definition_iv; reference part 2 §C.6):
        models:
          - name: my-model                 required
            model_path: /models            required, absolute: the service's
                                           directory and BACKEND_MODEL_PATH
            service:                       required here: an endpoint serves it
              start_command: [argv...]     required, a list of strings
              port: 8000                   required, 1..65535, not 2000/2001
              health_check:                optional
                path: /health              required, absolute
                max_retries: 10            default 10
                max_wait_time: 5           seconds, default 5
                expected_status_code: 200  default 200
            metadata: {...}                kept as it is, not checked
    The text is read as gw_template reads documents (YAML within limits,
    aliases refused), so a syntax error names its line. The first model is
    the one served, as Backend.AI's agent serves it. Pre-start actions are
    not run by Backplane's agent: a definition that has them is refused
    rather than half served. Pure: no I/O (gw_model_def_test).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_MODEL_DEF_H_INCLUDED
#define GW_MODEL_DEF_H_INCLUDED

#include "bus.h"

#define GW_MODEL_DEF_MAX_BYTES 65536 //  a definition's text, as templates

//  Reads text (the file called file, for the messages) and returns the
//  first model's service as kernel.create's model_service: {name,
//  model_path, start_command, port, health_check: {path, max_retries,
//  max_wait_time, expected_status_code} when it has one}; or NULL with
//  detail saying what is wrong and where (the line of a syntax error, the
//  member of a bad value). Caller owns return value.
json_t *gw_model_def_parse(
    const char *file, const char *text, size_t size, char *detail, size_t dsize);

//  Reads text as a model store's card does (Backend.AI's model_cards): the
//  document must be a definition (models, a list whose first entry has a
//  name and a model_path; a service is not needed to be listed), and the
//  first model's metadata, when there is one, must have the known members
//  in their types. Returns {name, metadata: {author, title, version,
//  created, last_modified, description, task, category, architecture,
//  license (texts), framework, label (lists of texts), min_resource (a
//  mapping)}} with only the members the file has (a date or a number
//  becomes its text); or NULL with detail (the line of a syntax error, the
//  member of a bad value). Caller owns return value.
json_t *gw_model_def_card(
    const char *file, const char *text, size_t size, char *detail, size_t dsize);

//  The runtime variants a model service may have (GET /services/_/runtimes),
//  in Backend.AI's order: vllm, nim and cmd have no definition file; the
//  agent runs the image's own command (its Entrypoint and Cmd) with the
//  definition each implies (gw_model_def_variant); custom, the default,
//  runs the model folder's definition.
typedef struct {
    const char *name;
    const char *human_readable_name;
    const char *model_name;  //  the definition's models[0].name; NULL for custom
    const char *health_path; //  its health check; NULL: none
    bool any_mount;          //  the model may be mounted elsewhere than /models
} gw_model_variant_t;

#define GW_MODEL_VARIANT_PORT 8000 //  where a variant's server listens

extern const gw_model_variant_t gw_model_variants[];
extern const size_t gw_model_variant_count;

//  The variant called name, or NULL. Pure.
const gw_model_variant_t *gw_model_def_variant_find(const char *name);

//  The model service of a variant that has no definition file, as
//  kernel.create's model_service: {name, model_path, image_command: true,
//  port 8000, health_check {path, max_retries 10, max_wait_time 5,
//  expected_status_code 200} when it has one}; the agent puts the image's
//  command in start_command. NULL for custom. Caller owns return value.
json_t *gw_model_def_variant(const gw_model_variant_t *variant, const char *model_path);

//  A message about a definition (detail, which may quote the file or a
//  storage-proxy's answer, or be cut inside a character) as a JSON
//  string, each byte of an invalid UTF-8 sequence replaced by U+FFFD:
//  json_string would refuse it and the message would be lost. Never NULL
//  but out of memory. Caller owns return value.
json_t *gw_model_def_message(const char *detail);

#endif
