/*  =========================================================================
    sp_classes.h - private header of the storage-proxy: its modules and libbus

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef SP_CLASSES_H_INCLUDED
#define SP_CLASSES_H_INCLUDED

#include "bus_classes.h"
#include "bus_tls.h"
#include <zlib.h>           //  sp_zip: inflate and crc32
#include <netdb.h>          //  sp_fetch: getaddrinfo
#include <poll.h>           //  sp_fetch: connect's deadline
#include <netinet/in.h>     //  sp_fetch: the addresses it refuses
#include <sys/socket.h>     //  sp_fetch
#include <openssl/ssl.h>    //  sp_fetch: https
#include <openssl/err.h>    //  sp_fetch
#include <openssl/x509v3.h> //  sp_fetch: the host name checked in the certificate
#include <openssl/evp.h>    //  sp_git_pack: objects' SHA-1
#include "bus_token.h"
#include "sp_config.h"
#include "sp_server.h"
#include "sp_fs.h"
#include "sp_upload.h"
#include "sp_volumes.h"
#include "sp_jobs.h"
#include "sp_db.h"
#include "sp_clone.h"
#include "sp_folders.h"
#include "sp_zip.h"
#include "sp_fetch_http.h"
#include "sp_git_pkt.h"
#include "sp_git_pack.h"
#include "sp_git_checkout.h"
#include "sp_fetch.h"
#include "sp_rpc.h"
#include "sp_http_head.h"
#include "sp_http_conn.h"
#include "sp_http.h"
#include "sp_http_upload.h"
#include "sp_http_download.h"
#include "sp_metrics.h"

#endif
