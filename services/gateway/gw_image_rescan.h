/*  =========================================================================
    gw_image_rescan - GraphQL rescan_images as a background task

    Backend.AI rescans registries; Backplane's images are what the agents
    hold, so a rescan asks every live agent (the registry's peer list) to
    scan its image store now (image.rescan), applies each answer to the
    catalogue as an image.catalog event would be (the event itself follows
    and changes nothing), and reports on the task: one bgtask_updated per
    agent that answered ("agent <name>: <n> images"), then bgtask_done, or
    bgtask_failed naming the agents that did not answer. An image copied
    into an agent's images directory is in the catalogue when the task is
    done, without waiting for agent.images_rescan_ms.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_IMAGE_RESCAN_H_INCLUDED
#define GW_IMAGE_RESCAN_H_INCLUDED

#include "gw_request.h"
#include "gw_bgtask.h"

//  Agents one rescan asks, at most.
#define GW_IMAGE_RESCAN_AGENTS_MAX 4096

//  Starts a rescan for r's caller (superadmins only: FORBIDDEN otherwise)
//  and writes its task id. registry (Backend.AI's argument) names no
//  subset here: an agent's store holds the images of every registry, and
//  every agent is asked. BUS_OK, or a status with err.
int gw_image_rescan_start(gw_request_t *r,
                          const char *registry,
                          char task_id[GW_BGTASK_ID_SIZE],
                          bus_error_t *err);

#endif
