//  GENERATED FROM proto/image.yaml BY proto/gen.py - DO NOT EDIT
/*  =========================================================================
    proto_image - container images as agents report them

    Structs and codecs of the image domain. Included by proto.h: include
    bus.h, not this file. proto.h documents the functions every struct type T
    has (init, clear, check, write, writer for requests, encode, read, decode,
    print).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef PROTO_IMAGE_H_INCLUDED
#define PROTO_IMAGE_H_INCLUDED

//  Topics (events) and method names (RPC).
#define PROTO_IMAGE_CATALOG "image.catalog"
#define PROTO_IMAGE_RESCAN  "image.rescan"

//  ---------------------------------------------------------------------------
//  image.info, a nested value: one image on an agent

typedef struct {
    //  Canonical registry/project/name:tag, without the architecture (required, at most
    //  512 bytes)
    const char *reference;
    //  CPU architecture: x86_64 or aarch64 (required, at most 32 bytes)
    const char *architecture;
    //  Content digest, e.g. sha256:... (at most 256 bytes)
    const char *digest;
    //  Size of the image on disk
    uint64_t size_bytes;
    //  The image's labels (ai.backend.*) (at most 1024 pairs, string to string, in wire
    //  order)
    const proto_kv_t *labels;
    size_t labels_count;
    //  False when the agent knows the image but has not pulled it (default true)
    bool installed;
    //  The image's own command: its config's Entrypoint then its Cmd, as a container
    //  engine runs them (what a model service of the vllm, nim or cmd runtime variant
    //  starts); empty when it has neither (at most 256 items)
    const char *const *command;
    size_t command_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_image_info_t;

#define PROTO_IMAGE_INFO_REFERENCE_MAX    512
#define PROTO_IMAGE_INFO_ARCHITECTURE_MAX 32
#define PROTO_IMAGE_INFO_DIGEST_MAX       256
#define PROTO_IMAGE_INFO_LABELS_MAX       1024
#define PROTO_IMAGE_INFO_COMMAND_MAX      256

void proto_image_info_init(proto_image_info_t *self);
void proto_image_info_clear(proto_image_info_t *self);
PROTO_MUST_USE int proto_image_info_check(const proto_image_info_t *self,
                                          bus_error_t *err);
PROTO_MUST_USE int proto_image_info_write(const proto_image_info_t *self,
                                          bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_image_info_encode(const proto_image_info_t *self);
int
proto_image_info_read(proto_image_info_t *self, const bus_value_t *map, bus_error_t *err);
int proto_image_info_decode(proto_image_info_t *self,
                            const void *data,
                            size_t size,
                            bus_error_t *err);
char *proto_image_info_print(const proto_image_info_t *self);

//  ---------------------------------------------------------------------------
//  image.catalog, event (broadcast, durable): the full set of images this agent has now;
//  replaces what it reported before

typedef struct {
    //  The reporting agent (required, at most 128 bytes)
    const char *agent_id;
    //  Every image it has; empty means none (at most 10000 items)
    const proto_image_info_t *images;
    size_t images_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_image_catalog_t;

#define PROTO_IMAGE_CATALOG_AGENT_ID_MAX 128
#define PROTO_IMAGE_CATALOG_IMAGES_MAX   10000

void proto_image_catalog_init(proto_image_catalog_t *self);
void proto_image_catalog_clear(proto_image_catalog_t *self);
PROTO_MUST_USE int proto_image_catalog_check(const proto_image_catalog_t *self,
                                             bus_error_t *err);
PROTO_MUST_USE int proto_image_catalog_write(const proto_image_catalog_t *self,
                                             bus_writer_t *writer);
PROTO_MUST_USE zframe_t *proto_image_catalog_encode(const proto_image_catalog_t *self);
int proto_image_catalog_read(proto_image_catalog_t *self,
                             const bus_value_t *map,
                             bus_error_t *err);
int proto_image_catalog_decode(proto_image_catalog_t *self,
                               const void *data,
                               size_t size,
                               bus_error_t *err);
char *proto_image_catalog_print(const proto_image_catalog_t *self);

//  ---------------------------------------------------------------------------
//  image.rescan request (idempotent): rescan the agent's image store now and answer what
//  it holds (announcing a changed image.catalog as the rescan timer does)

typedef struct {
    //  The agent meant; empty: whoever answers (at most 128 bytes)
    const char *agent_id;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_image_rescan_req_t;

#define PROTO_IMAGE_RESCAN_REQ_AGENT_ID_MAX 128

void proto_image_rescan_req_init(proto_image_rescan_req_t *self);
void proto_image_rescan_req_clear(proto_image_rescan_req_t *self);
PROTO_MUST_USE int proto_image_rescan_req_check(const proto_image_rescan_req_t *self,
                                                bus_error_t *err);
PROTO_MUST_USE int proto_image_rescan_req_write(const proto_image_rescan_req_t *self,
                                                bus_writer_t *writer);
PROTO_MUST_USE bus_writer_t *
proto_image_rescan_req_writer(const proto_image_rescan_req_t *self, bus_error_t *err);
PROTO_MUST_USE zframe_t *
proto_image_rescan_req_encode(const proto_image_rescan_req_t *self);
int proto_image_rescan_req_read(proto_image_rescan_req_t *self,
                                const bus_value_t *map,
                                bus_error_t *err);
int proto_image_rescan_req_decode(proto_image_rescan_req_t *self,
                                  const void *data,
                                  size_t size,
                                  bus_error_t *err);
char *proto_image_rescan_req_print(const proto_image_rescan_req_t *self);

//  ---------------------------------------------------------------------------
//  image.rescan reply (idempotent): rescan the agent's image store now and answer what it
//  holds (announcing a changed image.catalog as the rescan timer does)

typedef struct {
    //  The agent that scanned (required, at most 128 bytes)
    const char *agent_id;
    //  Every image it has now (image.catalog's list); empty means none (at most 10000
    //  items)
    const proto_image_info_t *images;
    size_t images_count;
    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand
} proto_image_rescan_rep_t;

#define PROTO_IMAGE_RESCAN_REP_AGENT_ID_MAX 128
#define PROTO_IMAGE_RESCAN_REP_IMAGES_MAX   10000

void proto_image_rescan_rep_init(proto_image_rescan_rep_t *self);
void proto_image_rescan_rep_clear(proto_image_rescan_rep_t *self);
PROTO_MUST_USE int proto_image_rescan_rep_check(const proto_image_rescan_rep_t *self,
                                                bus_error_t *err);
PROTO_MUST_USE int proto_image_rescan_rep_write(const proto_image_rescan_rep_t *self,
                                                bus_writer_t *writer);
PROTO_MUST_USE zframe_t *
proto_image_rescan_rep_encode(const proto_image_rescan_rep_t *self);
int proto_image_rescan_rep_read(proto_image_rescan_rep_t *self,
                                const bus_value_t *map,
                                bus_error_t *err);
int proto_image_rescan_rep_decode(proto_image_rescan_rep_t *self,
                                  const void *data,
                                  size_t size,
                                  bus_error_t *err);
char *proto_image_rescan_rep_print(const proto_image_rescan_rep_t *self);

#endif
