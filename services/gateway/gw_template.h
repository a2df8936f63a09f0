/*  =========================================================================
    gw_template - session templates: /template/session and
    /session/_/create-from-template

    A template is Backend.AI's `kind: taskTemplate` document (image,
    resources, environ, mounts, startup command), sent as YAML or JSON text
    and kept, checked and normalized, in the gateway's session_templates
    table. It is owned by a user and scoped to a project of its domain: the
    owner, the project's members (read only), the domain's admins and the
    superadmins see it; only the owner and the administrators change it.
    create-from-template merges the template's spec with the request's
    overrides into ordinary POST /session parameters and hands them to
    gw_session_handle_create, so both routes create sessions the same way.
    Declared here besides the document's functions (gw_template.c, pure):
    the statements of the session_templates table (gw_template_row.c) and
    the routes, with who may do what (gw_template_api.c).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_TEMPLATE_H_INCLUDED
#define GW_TEMPLATE_H_INCLUDED

#include "bus.h"

typedef struct gw_request_s gw_request_t;

#define GW_TEMPLATE_MAX_BYTES 65536 //  a template's text, YAML or JSON
#define GW_TEMPLATE_MAX_DEPTH 16    //  nesting of mappings and sequences
#define GW_TEMPLATE_MAX_NODES 4096  //  scalars, mappings and sequences
#define GW_TEMPLATE_PATH_MAX  255   //  a mount path
#define GW_TEMPLATE_NAME_MAX  128   //  metadata.name, as Backend.AI's column

//  Parses text (at most GW_TEMPLATE_MAX_BYTES) as JSON, else as one YAML
//  document, within the limits above; YAML aliases are refused, so no
//  document expands past its own size. NULL with detail on bad input.
//  Caller owns return value.
json_t *gw_template_parse(const char *text, size_t size, char *detail, size_t dsize);

//  Checks a parsed document as Backend.AI's task_template_v1 does and
//  returns its normalized form (aliases resolved, defaults filled, mount
//  paths confined to /home/work), or NULL with detail. Caller owns return
//  value.
json_t *gw_template_check(json_t *document, char *detail, size_t dsize);

//  The YAML text of a JSON value, which gw_template_parse reads back as
//  the same value. NULL on failure. Caller owns return value.
char *gw_template_yaml(json_t *value);

//  The request parameters POST /session would get: the template's spec as
//  create parameters, with every non-null member of overrides (and of its
//  config) in place of the template's, aliases included. Caller owns
//  return value.
json_t *
gw_template_merge(json_t *template_doc, const char *group_name, json_t *overrides);

//  ---------------------------------------------------------------------------
//  The rows (gw_template_row.c: session_templates). Who may read or write
//  one is the routes' to decide (gw_template_api.c): these only read and
//  write.

//  A template to insert: its strings borrowed. type is 'task'.
typedef struct {
    const char *id; //  32 hex digits
    const char *created_at;
    const char *domain_name;
    const char *group_id;
    const char *user_uuid;
    const char *name; //  metadata.name, or NULL
    const char *text; //  the checked document as compact JSON
} gw_template_row_t;

//  The active task template id, with user_email, group_name and member
//  (whether user_uuid belongs to its project); NULL when none, *failed
//  set on a database error. Caller owns return value.
json_t *
gw_template_row_find(bus_db_t *db, const char *id, const char *user_uuid, bool *failed);

//  The active task templates, oldest first, of project group_id (NULL or ""
//  for any): every one when all; else user_uuid's own, those of its
//  projects and, for a domain_admin, those of domain's projects. NULL on a
//  database error. Caller owns return value.
json_t *gw_template_row_list(bus_db_t *db,
                             const char *user_uuid,
                             const char *domain,
                             const char *group_id,
                             bool all,
                             bool domain_admin);

//  Inserts row. BUS_OK or INTERNAL with err.
int gw_template_row_insert(bus_db_t *db, const gw_template_row_t *row, bus_error_t *err);

//  Template id's document becomes text, its name name. BUS_OK or INTERNAL.
int gw_template_row_update(
    bus_db_t *db, const char *id, const char *text, const char *name, bus_error_t *err);

//  Template id is deleted (kept inactive, as Backend.AI does). BUS_OK or
//  INTERNAL.
int gw_template_row_deactivate(bus_db_t *db, const char *id, bus_error_t *err);

//  ---------------------------------------------------------------------------
//  The routes (gw_template_api.c)

//  POST /template/session: {payload, group, domain, owner_access_key}.
void gw_template_handle_create(gw_request_t *r);
//  GET /template/session: the caller's, its projects' (all for ?all=true
//  by a superadmin).
void gw_template_handle_list(gw_request_t *r);
//  GET /template/session/{template_id}?format=yaml|json
void gw_template_handle_get(gw_request_t *r);
//  PUT /template/session/{template_id}: {payload}
void gw_template_handle_update(gw_request_t *r);
//  DELETE /template/session/{template_id}
void gw_template_handle_delete(gw_request_t *r);
//  POST /session/_/create-from-template: {template_id, ...overrides}
void gw_template_handle_create_session(gw_request_t *r);

#endif
