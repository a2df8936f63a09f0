/*  =========================================================================
    gw_gql - the GraphQL admin API the official client uses

    POST /admin/gql answers {"data": ..., "errors": [...]} with status 200,
    as Backend.AI does since v6.20210815; the legacy POST /admin/graphql
    answers the bare data, or 400 graphql-error with the messages. The
    document is parsed by gw_graphql (a real parser: operations, variables,
    fragments, nested selections); this module executes it: each root field
    is looked up in a table of resolvers, which call the operations of
    gw_admin, and the result is projected onto the selection set, so only
    the fields asked for are returned. Mutations answer Backend.AI's
    {ok, msg, <item>} shape, with ok false and the reason in msg when the
    operation is refused.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_GQL_H_INCLUDED
#define GW_GQL_H_INCLUDED

#include "gw_request.h"

#define GW_GQL_PAGE_MAX                                                                  \
    1000 //  largest page of a *_list field (Backend.AI has no cap;
         //  its web UI 22.03 asks compute_session_list for 1000)

//  A root field: "query" or "mutation", its name, and its resolver. A
//  resolver returns the field's value (caller owns it) or NULL with err
//  set; a query that finds nothing returns JSON null. Each resource module
//  exports its own table (ending with a NULL name); gw_gql.c lists them.
typedef json_t *(gw_gql_resolver_fn) (gw_request_t *r, json_t *args, bus_error_t *err);
typedef struct {
    const char *kind;
    const char *name;
    gw_gql_resolver_fn *fn;
} gw_gql_root_t;

//  Helpers for resolvers: an argument as a string (NULL if absent); a
//  single object (NOT_FOUND becomes JSON null); a mutation's {ok, msg,
//  <item_key>} result (item stolen); a page {items, total_count} of a list
//  (list stolen) by the limit and offset arguments.
const char *gw_gql_arg(json_t *args, const char *name);
json_t *gw_gql_single(int rc, json_t *out);
json_t *gw_gql_mutation(int rc, const char *item_key, json_t *item, bus_error_t *err);
json_t *gw_gql_page(json_t *all, json_t *args, bus_error_t *err);

//  A *_list field over one of the gateway's own tables, for
//  gw_gql_page_table: the items' fields that are columns (bus_where: the
//  text ones may be filtered on, all of them ordered by), the row query and
//  the count query (each "SELECT ... FROM ..." to which the WHERE is added),
//  the order of the whole list (which ends with a unique key, so that pages
//  cut it where a full listing would), which integer columns are booleans,
//  the fields the rows get after the query (extra, NULL-terminated), the
//  list's own conditions (who may see what, the field's arguments: ANDed
//  to where; BUS_OK or an error with err) and what each row of a page gets
//  after the query (shape, may be NULL).
typedef struct gw_gql_table {
    const bus_where_column_t *columns;
    const char *select;
    const char *count;
    const char *order;
    const char *const *booleans;
    const char *const *extra;
    int (*scope)(gw_ctx_t *ctx, json_t *args, bus_where_t *where, bus_error_t *err);
    void (*shape)(gw_ctx_t *ctx, json_t *row);
} gw_gql_table_t;

//  The {items, total_count} page of such a list, answered by SQL when its
//  filter and order push down whole (gw_minilang_filter_pushdown): the
//  answer gw_gql_page gives over every row the list has, with the same
//  errors in the same order (the list's own first, then limit and offset,
//  the filter, the order). Returns 0 with *out (caller owns it), -1 with
//  err, or 1 when the filter or order needs memory (then page the whole
//  list with gw_gql_page).
int gw_gql_page_table(gw_request_t *r,
                      json_t *args,
                      const gw_gql_table_t *table,
                      json_t **out,
                      bus_error_t *err);

//  Values from the bus as GraphQL shows them: microseconds since the epoch
//  as ISO 8601 (JSON null for 0); a slot map as a JSONString; whether item
//  is one of a comma-separated list's words (status filters such as
//  "PENDING,RUNNING", as the official CLI sends them).
json_t *gw_gql_time(int64_t us);

//  Relay's global id of a node: base64 of "<type>:<id>", as a JSON string.
json_t *gw_gql_global_id(const char *type, const char *id);

//  allowed_vfolder_hosts of a domain, project or keypair policy (node: one
//  object, or an array of them) as the v6.20220315 schema answers it: a list
//  of host names, whichever form is kept (a list, or {host: [permissions]}
//  from newer clients and our UI). The kept document stays readable as
//  allowed_vfolder_host_permissions (a JSON string, Backplane's). Returns node.
json_t *gw_gql_hosts_listed(json_t *node);
json_t *gw_gql_slots(const proto_kv_t *kv, size_t count);
bool gw_gql_in_list(const char *list, const char *item);

//  The root fields of the gateway's own records (gw_gql_admin.c): domains,
//  projects, users, keypairs and resource policies; images (images, image,
//  alias_image, dealias_image, forget_image); resource groups
//  (scaling_group(s), scaling_groups_for_*, create/modify/delete and
//  (dis)associate); presets (resource_preset(s), create/modify/
//  delete_resource_preset); the caller's folders (vfolder_list, a page, and
//  vfolders, a list: what gw_vfolder_list shows, filtered by group_id).
extern const gw_gql_root_t gw_gql_admin_roots[];
extern const gw_gql_root_t gw_image_gql[];
extern const gw_gql_root_t gw_sgroup_gql_roots[];
extern const gw_gql_root_t gw_preset_gql_roots[];
extern const gw_gql_root_t gw_vfolder_gql[];

void gw_gql_handle(gw_request_t *r);
void gw_gql_handle_legacy(gw_request_t *r);

#endif
