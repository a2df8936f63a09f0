/*  =========================================================================
    agent_config - the agent's options: config/agent.yaml

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_CONFIG_H_INCLUDED
#define AGENT_CONFIG_H_INCLUDED

#include "bus.h"

typedef struct {
    bus_node_config_t node;
    char *scaling_group;   //  the resource group this agent serves
    char *region;          //  where it runs
    char *cpu;             //  cpu slots offered: a count, or "auto" (online CPUs)
    char *mem;             //  mem slots offered: bytes (512m, 8g), or "auto" (total RAM)
    char *images_dir;      //  where the OCI image layouts are, one per subdirectory
    int images_rescan_ms;  //  how often to look for new or removed images
    char *runc;            //  the runc binary (a path, or a name looked up in PATH)
    char *runner_path;     //  host path of backplane-runner; "" = next to the agent
    char *tini_path;       //  host path of a static tini
    char *scratch_type;    //  where kernels' writable layers live: memory or hostdir
    int64_t scratch_size;  //  memory: bytes of each kernel's scratch tmpfs
    char *net_mode;        //  bridge, host or none
    char *net_bridge;      //  the bridge of bridge mode
    char *net_cidr;        //  the kernels' subnet in bridge mode
    char *net_routed;      //  other agents' kernel subnets, not masqueraded ("" none)
    char *publish_host;    //  where apps' ports are published; "" = not published
    char *publish_ports;   //  the host ports they are published on: "LOW-HIGH"
    int spares;            //  kernels prepared ahead (agent.spares)
    int stats_ms;          //  how often kernel.stats is published; 0: never
    int64_t ended_log_max; //  bytes of an ended kernel's log kept; 0: none
    int ended_log_retention_s;     //  how long an ended kernel's log is kept
    int pids_max;                  //  the most tasks one kernel may have
    char *accel_mock;              //  the mock accelerator plugin's text form; "": none
    bool accel_cuda;               //  look for NVIDIA GPUs through NVML
    char *accel_cuda_mode;         //  the CUDA plugin's slots: device, shares or both
    char *accel_cuda_nvml_library; //  the NVML library the CUDA plugin opens
    char *accel_cuda_driver_root;  //  where the driver's user space is found ("/")
    bool accel_cuda_mps;           //  MPS daemons enforce fractions' limits
    int fake_agents;  //  > 0: play this many fake agents instead (agent_fake)
    char *fake_slots; //  what each fake agent offers: "cpu=64,mem=256g"
} agent_config_t;

extern const bus_config_option_t agent_config_options[];

#endif
