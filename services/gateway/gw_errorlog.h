/*  =========================================================================
    gw_errorlog - error logs: /logs/error, and the gateway's own failures

    Backend.AI's error_logs (reference part 2 §B.6): a client posts an
    error it met (POST /logs/error), users list them page by page
    (GET /logs/error; a user sees their own uncleared ones, a domain admin
    those of the users of their domain, a superadmin all, cleared ones
    included, with is_cleared), mark them read (mark_read=true marks the
    page answered) and clear them (POST /logs/error/{id}/clear). The
    gateway adds its own: a request of a known user that it answers with a
    5xx status (an internal error, a service unavailable or timing out) is
    logged at level error and kept here too, source "gateway", with the
    request's path and status, so the user and their admins see it.

    Rows live in the gateway's error_logs table; a timer deletes those older
    than logs.error_retention_days, every logs.error_expire_interval_s and
    at start.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_ERRORLOG_H_INCLUDED
#define GW_ERRORLOG_H_INCLUDED

#include "bus.h"

//  Backend.AI: page_size at most 100 (default 20).
#define GW_ERRORLOG_PAGE_SIZE_DEFAULT 20
#define GW_ERRORLOG_PAGE_SIZE_MAX     100
//  The longest text kept per field; longer input is refused (400).
#define GW_ERRORLOG_SOURCE_MAX    256
#define GW_ERRORLOG_MESSAGE_MAX   65536
#define GW_ERRORLOG_TRACEBACK_MAX 262144
#define GW_ERRORLOG_URL_MAX       4096
#define GW_ERRORLOG_CONTEXT_MAX   65536
//  The longest problem detail a refusal writes.
#define GW_ERRORLOG_DETAIL_MAX 256

typedef struct _gw_errorlog_t gw_errorlog_t;
typedef struct gw_request_s gw_request_t;

//  One row to append. Strings borrowed; NULL user_uuid: no user;
//  request_status 0: none.
typedef struct {
    const char *severity; //  critical, error, warning, info or debug
    const char *source;
    const char *user_uuid;
    const char *message;
    const char *context_lang;
    const char *context_env; //  JSON text
    const char *request_url;
    int request_status;
    const char *traceback;
} gw_errorlog_entry_t;

//  ---------------------------------------------------------------------------
//  Starts the expiry timer on base over db (both borrowed, must outlive the
//  object): rows older than retention_days go at once and every
//  interval_s. NULL when the timer cannot start.
gw_errorlog_t *gw_errorlog_new(bus_db_t *db,
                               struct event_base *base,
                               int retention_days,
                               int interval_s);

//  ---------------------------------------------------------------------------
//  Stops the timer. Safe twice; clears the pointer.
void gw_errorlog_destroy(gw_errorlog_t **self_p);

//  ---------------------------------------------------------------------------
//  Appends one row with a fresh id and the time now. 0, or -1 logged.
int gw_errorlog_append(bus_db_t *db, const gw_errorlog_entry_t *entry);

//  ---------------------------------------------------------------------------
//  Deletes the rows created before (wall µs). The count, or -1 logged.
int64_t gw_errorlog_expire(bus_db_t *db, int64_t before);

//  ---------------------------------------------------------------------------
//  The routes: POST /logs/error, GET /logs/error, POST
//  /logs/error/{log_id}/clear.
void gw_errorlog_handle_create(gw_request_t *r);
void gw_errorlog_handle_list(gw_request_t *r);
void gw_errorlog_handle_clear(gw_request_t *r);

#endif
