/*  =========================================================================
    gw_vfolder_api - the /folders routes (reference §7)

    gw_vfolder_api.c: the folders themselves (create, list, info, rename,
    options, trash, restore, purge, clone, hosts, quotas);
    gw_vfolder_files.c: the files in them and the upload and download
    tokens; gw_vfolder_share.c: invitations, sharing and leaving.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_VFOLDER_API_H_INCLUDED
#define GW_VFOLDER_API_H_INCLUDED

#include "gw_request.h"

//  gw_vfolder_api.c
void gw_vfolder_handle_create(gw_request_t *r);
void gw_vfolder_handle_list(gw_request_t *r);
void gw_vfolder_handle_info(gw_request_t *r);
void gw_vfolder_handle_delete(gw_request_t *r);    //  DELETE /folders/{name}
void gw_vfolder_handle_delete_id(gw_request_t *r); //  DELETE /folders {"id"}
void gw_vfolder_handle_restore(gw_request_t *r);
void gw_vfolder_handle_purge(gw_request_t *r);
void gw_vfolder_handle_rename(gw_request_t *r);
void gw_vfolder_handle_update_options(gw_request_t *r);
void gw_vfolder_handle_clone(gw_request_t *r);
void gw_vfolder_handle_id(gw_request_t *r);
void gw_vfolder_handle_hosts(gw_request_t *r);
void gw_vfolder_handle_all_hosts(gw_request_t *r);
void gw_vfolder_handle_allowed_types(gw_request_t *r);
void gw_vfolder_handle_quota(gw_request_t *r); //  GET and POST /folders/_/quota
void gw_vfolder_handle_usage(gw_request_t *r);

//  gw_vfolder_files.c
void gw_vfolder_handle_files(gw_request_t *r);
void gw_vfolder_handle_mkdir(gw_request_t *r);
void gw_vfolder_handle_rename_file(gw_request_t *r);
void gw_vfolder_handle_move_file(gw_request_t *r);
void gw_vfolder_handle_delete_files(gw_request_t *r);
void gw_vfolder_handle_request_upload(gw_request_t *r);
void gw_vfolder_handle_request_download(gw_request_t *r);

//  gw_vfolder_share.c
void gw_vfolder_handle_invite(gw_request_t *r);
void gw_vfolder_handle_invitations(gw_request_t *r);
void gw_vfolder_handle_invitations_sent(gw_request_t *r);
void gw_vfolder_handle_accept(gw_request_t *r);
void gw_vfolder_handle_reject(gw_request_t *r); //  /invitations/delete
void gw_vfolder_handle_update_invitation(gw_request_t *r);
void gw_vfolder_handle_share(gw_request_t *r);
void gw_vfolder_handle_unshare(gw_request_t *r);
void gw_vfolder_handle_leave(gw_request_t *r);
void gw_vfolder_handle_shared(gw_request_t *r); //  GET and POST /folders/_/shared

#endif
