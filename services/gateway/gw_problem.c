/*  =========================================================================
    gw_problem - the error slug table and problem+json replies

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

typedef struct {
    const char *slug;
    int status;
    const char *title;
} problem_t;

//  Backend.AI's slugs, statuses and titles (reference §10).
static const problem_t s_problems[] = {
    {"generic-bad-request", 400, "Bad request."},
    {"invalid-api-params", 400, "Missing or invalid API parameters."},
    {"invalid-auth-params", 400, "Missing or invalid authorization parameters."},
    {"auth-failed", 401, "Credential/signature mismatch."},
    {"password-expired", 401, "Password has expired."},
    {"generic-forbidden", 403, "Forbidden operation."},
    {"insufficient-privilege", 403, "Insufficient privilege."},
    {"object-not-found", 404, "No such object."},
    {"url-not-found", 404, "Unknown URL path."},
    {"method-not-allowed", 405, "HTTP Method Not Allowed."},
    {"request-entity-too-large", 413, "Request body is too large."},
    {"session-already-exists", 400,
     "The session already exists but you requested not to reuse existing one."},
    {"quota-exceeded", 412, "You have reached your resource limit."},
    {"rate-limit-exceeded", 429, "You have reached your API query rate limit."},
    {"instance-not-found", 404, "No such instance."},
    {"instance-not-available", 503, "There is no available instance."},
    {"server-frozen", 503, "The server is frozen due to maintenance."},
    {"service-unavailable", 503, "Service unavailable."},
    {"internal-server-error", 500, "Internal server error."},
    {"server-misconfigured", 500, "Service misconfigured."},
    {"graphql-error", 400, "GraphQL-generated error."},
    {"not-implemented", 400, "This API is not implemented."},
    {"deprecated", 400, "This API is deprecated."},
    {"vfolder-creation-failed", 400, "Virtual folder creation has failed."},
    {"vfolder-already-exists", 400,
     "The virtual folder already exists with the same name."},
    {"vfolder-operation-failed", 400, "Virtual folder operation has failed."},
    {"vfolder-permission-error", 400,
     "The virtual folder does not permit the specified permission."},
    {"too-many-vfolders", 404, "There are two or more matching vfolders."},
    {"task-template-not-found", 404, "Task template not found."},
    {NULL, 0, NULL},
};

static const problem_t *
s_find(const char *slug)
{
    for (const problem_t *p = s_problems; p->slug; p++)
        if (strcmp(p->slug, slug) == 0)
            return p;
    return NULL;
}

int
gw_problem_status(const char *slug)
{
    const problem_t *p = s_find(slug);
    return p ? p->status : 500;
}

const char *
gw_problem_title(const char *slug)
{
    const problem_t *p = s_find(slug);
    return p ? p->title : "Internal server error.";
}

const char *
gw_problem_slug_for_status(int status)
{
    switch (status) {
        case BUS_STATUS_INVALID:
        case BUS_STATUS_PROTOCOL:
            return "invalid-api-params";
        case BUS_STATUS_NOT_FOUND:
            return "object-not-found";
        case BUS_STATUS_CONFLICT:
            return "generic-bad-request";
        case BUS_STATUS_FORBIDDEN:
            return "generic-forbidden";
        case BUS_STATUS_QUOTA:
            return "quota-exceeded";
        case BUS_STATUS_TIMEOUT:
        case BUS_STATUS_UNAVAILABLE:
        case BUS_STATUS_REREGISTER:
            return "service-unavailable";
        default:
            return "internal-server-error";
    }
}

void
gw_send_problem(struct evhttp_request *req, const char *slug, const char *detail)
{
    const problem_t *p = s_find(slug);
    if (!p)
        p = s_find("internal-server-error");
    char type[128];
    snprintf(type, sizeof type, "%s%s", GW_PROBLEM_TYPE_BASE, p->slug);
    json_t *body = json_pack("{s:s, s:s, s:i}", "type", type, "title", p->title, "status",
                             p->status);
    if (body && detail) {
        json_object_set_new(body, "msg", json_string(detail));
        json_object_set_new(body, "detail", json_string(detail));
    }
    const char *uri = evhttp_request_get_uri(req);
    if (body && uri)
        json_object_set_new(body, "instance", json_string(uri));
    gw_http_reply_json(req, p->status, body, "application/problem+json");
    bus_log_info("request failed method=%s path=%s status=%d type=%s",
                 gw_http_method_name(req), uri ? uri : "", p->status, p->slug);
}
