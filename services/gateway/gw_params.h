/*  =========================================================================
    gw_params - a request's parameters, wherever the client put them

    The official client sends parameters as a JSON body on some GETs, in
    the query string on others, and in the query string of some POSTs with
    an empty body (reference §0.4). Like Backend.AI, the gateway reads the
    JSON body when there is one and the query string otherwise; a body that
    is not a JSON object is 400 invalid-api-params "Malformed body".

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_PARAMS_H_INCLUDED
#define GW_PARAMS_H_INCLUDED

#include "bus.h"

struct evhttp_request;

#define GW_PARAMS_MAX_DEPTH 32 //  JSON nesting accepted in a body

//  Parameters of req as a JSON object (query values are strings). NULL
//  with detail filled when the body is malformed. Caller owns the result.
json_t *gw_params_parse(struct evhttp_request *req, char *detail, size_t size);

//  Typed getters with defaults. A present value of the wrong type makes
//  them return false with detail naming the field; absent keys are fine.
bool gw_params_str(
    json_t *params, const char *key, const char **out, char *detail, size_t size);
bool
gw_params_int(json_t *params, const char *key, int64_t *out, char *detail, size_t size);
bool
gw_params_bool(json_t *params, const char *key, bool *out, char *detail, size_t size);

#endif
