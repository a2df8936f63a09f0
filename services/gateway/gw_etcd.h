/*  =========================================================================
    gw_etcd - the read-only /config routes of Backend.AI's etcd API

    Backend.AI answers these from etcd; here they come from what the
    platform knows: the slot types the agents report (the scheduler's
    registry, scheduler.agents), the folder ownership types the gateway
    supports and the registries of the images it knows. The raw key-value
    routes (/config/get, set, delete) have no counterpart.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_ETCD_H_INCLUDED
#define GW_ETCD_H_INCLUDED

#include "bus.h"
#include "gw_request.h"

#define GW_ETCD_DOCKER_HUB_URL "https://registry-1.docker.io"

//  GET /config/resource-slots: every slot type an agent reported (cpu and
//  mem always) with its unit, {"cpu": "count", "mem": "bytes", ...}.
void gw_etcd_handle_resource_slots(gw_request_t *r);

//  GET /config/resource-slots/details: display metadata of those of them
//  Backend.AI describes; ?sgroup= keeps the ones the group's ALIVE,
//  schedulable agents have (and cpu, mem).
void gw_etcd_handle_resource_slot_details(gw_request_t *r);

//  GET /config/vfolder-types: the ownership types folders may have.
void gw_etcd_handle_vfolder_types(gw_request_t *r);

//  GET /config/docker-registries (superadmin): registry name -> URL, for the
//  default registry and every registry of a known image.
void gw_etcd_handle_docker_registries(gw_request_t *r);

#endif
