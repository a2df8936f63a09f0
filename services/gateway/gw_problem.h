/*  =========================================================================
    gw_problem - errors as application/problem+json, Backend.AI's way

    One table maps each error slug to its HTTP status and title, as
    Backend.AI's exceptions do (reference §10); the body is
    {"type": "https://api.backend.ai/probs/<slug>", "title", "status",
    "msg", "detail", "instance", "request_id"}: RFC 9457 fields plus the
    "msg" the official client prints.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_PROBLEM_H_INCLUDED
#define GW_PROBLEM_H_INCLUDED

#include "bus.h"

struct evhttp_request;

#define GW_PROBLEM_TYPE_BASE "https://api.backend.ai/probs/"

//  HTTP status of slug (500 for an unknown slug).
int gw_problem_status(const char *slug);

//  Title of slug ("Internal server error." for an unknown slug).
const char *gw_problem_title(const char *slug);

//  The slug that stands for a bus status from another service.
const char *gw_problem_slug_for_status(int status);

//  Replies to req with the problem slug; detail may be NULL. Ends the request.
void gw_send_problem(struct evhttp_request *req, const char *slug, const char *detail);

#endif
