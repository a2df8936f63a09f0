/*  =========================================================================
    agent_images - the images this agent can run, and the catalogue it
    announces

    Images are OCI image layouts (as umoci and deploy/images/build write
    them) in subdirectories of agent.images_dir: <dir>/<name>/index.json.
    Each tagged manifest of a layout is one image, named on the bus
    local.backplane/library/<name>:<tag>. The store reads the labels and the
    architecture from each image's config blob, and publishes the whole set
    as a durable image.catalog event at start and whenever a rescan finds it
    changed, so the gateway's catalogue follows what is on disk.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_IMAGES_H_INCLUDED
#define AGENT_IMAGES_H_INCLUDED

#include "bus.h"

//  The registry and project of every local image's reference.
#define AGENT_IMAGES_REGISTRY "local.backplane"
#define AGENT_IMAGES_PROJECT  "library"

typedef struct _agent_images_t agent_images_t;

//  One image: the layout it lives in and what the catalogue says of it.
typedef struct {
    char *layout;            //  the OCI layout directory
    char *tag;               //  its tag in that layout (the ref.name annotation)
    proto_image_info_t info; //  reference, architecture, digest, size, labels
    proto_kv_t *env;         //  its config's Env (KEY=value each), in info's arena
    size_t env_count;
} agent_image_t;

//  Creates the store over dir and scans it; rescan_ms > 0 rescans that
//  often (0: only at start). NULL with err set when dir cannot be read.
agent_images_t *
agent_images_new(bus_node_t *node, const char *dir, int rescan_ms, bus_error_t *err);
void agent_images_destroy(agent_images_t **self_p);

//  Rescans the directory; emits image.catalog when the set differs from the
//  last one announced (always on the first scan). Returns the image count.
size_t agent_images_scan(agent_images_t *self);

//  image.rescan (the gateway's rescan_images): scans now, as the timer
//  does (announcing a changed image.catalog), and answers the agent's name
//  and every image it holds. A request meant for another agent is
//  UNAVAILABLE. arg is the agent_images_t.
proto_image_rescan_fn agent_images_on_rescan;

//  The image with this canonical reference, or NULL. Valid until the next
//  scan.
const agent_image_t *agent_images_find(agent_images_t *self, const char *reference);

//  Reads one layout directory into images (appended, at most max); layouts
//  or manifests that are malformed are skipped with a warning naming the
//  file. Returns how many were added. For tests and the offline tools.
size_t agent_images_read_layout(const char *layout,
                                const char *name,
                                agent_image_t *images,
                                size_t max);
void agent_image_clear(agent_image_t *self);

#endif
