/*  =========================================================================
    agent_config - the option table of the agent

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"

const bus_config_option_t agent_config_options[] = {
    BUS_NODE_CONFIG_ROWS(agent_config_t, node, "false", BUS_NODE_HTTP_AGENT),
    {"agent.scaling_group", BUS_CFG_STRING, offsetof(agent_config_t, scaling_group),
     "default", 1, 63, NULL,
     "the resource group (Backend.AI scaling group) this agent serves"},
    {"agent.region", BUS_CFG_STRING, offsetof(agent_config_t, region), "local", 1, 63,
     NULL, "where this agent runs, as the admin API shows it"},
    {"agent.slots.cpu", BUS_CFG_STRING, offsetof(agent_config_t, cpu), "auto", 1, 31,
     NULL,
     "CPU cores offered to sessions: a count (2, 1.5), or auto for every online CPU"},
    {"agent.slots.mem", BUS_CFG_STRING, offsetof(agent_config_t, mem), "auto", 1, 31,
     NULL,
     "memory offered to sessions: bytes with a suffix (8g), or auto for the total RAM"},
    {"agent.images_dir", BUS_CFG_STRING, offsetof(agent_config_t, images_dir),
     "/var/lib/backplane/images", 1, 4095, NULL,
     "the OCI image layouts this agent runs, one per subdirectory (deploy/images/build)"},
    {"agent.images_rescan_ms", BUS_CFG_INT, offsetof(agent_config_t, images_rescan_ms),
     "10000", 0, 86400000, NULL,
     "how often to rescan agent.images_dir and re-announce a changed catalogue; 0: at "
     "start only"},
    {"agent.runc", BUS_CFG_STRING, offsetof(agent_config_t, runc), "runc", 1, 4095, NULL,
     "the runc binary that runs kernels: a path, or a name looked up in PATH"},
    {"agent.runner_path", BUS_CFG_STRING, offsetof(agent_config_t, runner_path), "", 0,
     4095, NULL,
     "host path of the static backplane-runner bound into every kernel; empty: the one "
     "next to this agent's binary"},
    {"agent.tini_path", BUS_CFG_STRING, offsetof(agent_config_t, tini_path),
     "/usr/bin/tini-static", 1, 4095, NULL,
     "host path of the static tini that is every kernel's PID 1"},
    {"agent.scratch_type", BUS_CFG_ENUM, offsetof(agent_config_t, scratch_type),
     AGENT_OVERLAY_SCRATCH_TYPE_DEFAULT, 0, 0, AGENT_OVERLAY_SCRATCH_TYPES,
     "where kernels' writable root layers live: memory (a tmpfs of agent.scratch_size "
     "per kernel, counted in its memory limit) or hostdir (node.state_dir on the "
     "host's disk, no limit)"},
    {"agent.scratch_size", BUS_CFG_BYTES, offsetof(agent_config_t, scratch_size),
     AGENT_OVERLAY_SCRATCH_SIZE_DEFAULT, AGENT_OVERLAY_SCRATCH_SIZE_MIN,
     AGENT_OVERLAY_SCRATCH_SIZE_MAX, NULL,
     "memory scratch: the most a kernel may write to its root before ENOSPC (past "
     "its memory limit it is OOM-killed first)"},
    {"agent.network.mode", BUS_CFG_ENUM, offsetof(agent_config_t, net_mode), "bridge", 0,
     0, "bridge|host|none",
     "kernels' network: bridge (a veth on agent.network.bridge), host (the host's "
     "network) or none (loopback only)"},
    {"agent.network.bridge", BUS_CFG_STRING, offsetof(agent_config_t, net_bridge),
     AGENT_NET_DEFAULT_BRIDGE, 1, AGENT_NET_IFNAME_MAX, NULL,
     "the bridge kernels are attached to in bridge mode (created when missing)"},
    {"agent.network.cidr", BUS_CFG_STRING, offsetof(agent_config_t, net_cidr),
     AGENT_NET_DEFAULT_CIDR, 9, 18, NULL,
     "the kernels' IPv4 subnet in bridge mode; the bridge holds its first address"},
    {"agent.network.routed", BUS_CFG_STRING, offsetof(agent_config_t, net_routed), "", 0,
     255, NULL,
     "IPv4 subnets, comma-separated, of other agents' kernels routed to their hosts: "
     "traffic to them leaves unmasqueraded, so that a kernel sees another host's "
     "kernel by its own address; empty: every packet leaving the bridge is "
     "masqueraded"},
    {"agent.publish.host", BUS_CFG_STRING, offsetof(agent_config_t, publish_host), "", 0,
     63, NULL,
     "an IPv4 address of this host that the proxies (gateway, wsproxy) reach: apps' "
     "ports are published there (nft DNAT) when opened; empty: proxies reach apps at "
     "the kernels' bridge addresses, from this host only"},
    {"agent.publish.ports", BUS_CFG_STRING, offsetof(agent_config_t, publish_ports),
     "30000-30999", 9, 11, NULL, "the host ports apps are published on: LOW-HIGH"},
    {"agent.spares", BUS_CFG_INT, offsetof(agent_config_t, spares), "2", 0,
     AGENT_RUNC_SPARES_MAX, NULL,
     "kernels prepared ahead: a kernel directory with its tmpfs mounts and (bridge mode) "
     "a network namespace and veth pair, which a create takes instead of making them; "
     "0: each is made on its create"},
    {"agent.stats_ms", BUS_CFG_INT, offsetof(agent_config_t, stats_ms), "5000", 0,
     3600000, NULL,
     "how often each running kernel's kernel.stats is published; 0: never"},
    {"agent.ended_log_max_bytes", BUS_CFG_BYTES, offsetof(agent_config_t, ended_log_max),
     "1m", 0, 16777216, NULL,
     "how much of the end of a kernel's container log is kept in the agent's database "
     "when it ends, for GET /session/{id}/logs after the session is gone; 0: none"},
    {"agent.ended_log_retention_s", BUS_CFG_INT,
     offsetof(agent_config_t, ended_log_retention_s), "2592000", 60, 315360000, NULL,
     "how long the kept log of an ended kernel stays (the heartbeat deletes older ones)"},
    {"agent.pids_max", BUS_CFG_INT, offsetof(agent_config_t, pids_max), "4096", 16,
     4194304, NULL, "the most processes and threads one kernel may have"},
    {"accelerators.mock", BUS_CFG_STRING, offsetof(agent_config_t, accel_mock), "", 0,
     AGENT_ACCEL_MOCK_CONFIG_MAX - 1, NULL,
     "fake GPUs for tests, e.g. devices=2,memory=16g,mode=shares; empty: none; "
     "set, it replaces the cuda plugin"},
    {"accelerators.cuda", BUS_CFG_BOOL, offsetof(agent_config_t, accel_cuda), "true", 0,
     0, NULL, "offer the NVIDIA GPUs NVML lists (none without its library or a driver)"},
    {"accelerators.cuda_mode", BUS_CFG_ENUM, offsetof(agent_config_t, accel_cuda_mode),
     "device", 0, 0, "device|shares|both",
     "GPU slots: device (cuda.device, whole GPUs), shares (cuda.shares, fractions "
     "under MPS limits) or both (each GPU given either whole or as shares, never both "
     "at once)"},
    {"accelerators.cuda_nvml_library", BUS_CFG_STRING,
     offsetof(agent_config_t, accel_cuda_nvml_library), AGENT_ACCEL_NVML_LIBRARY, 1,
     PATH_MAX - 1, NULL,
     "the NVML library the cuda plugin opens: a name the dynamic linker looks up, or a "
     "path (tests give a fake one)"},
    {"accelerators.cuda_driver_root", BUS_CFG_STRING,
     offsetof(agent_config_t, accel_cuda_driver_root), "/", 1, 4095, NULL,
     "where the NVIDIA driver's libraries (by ld.so.conf) and binaries are found, to be"
     " bound into the containers of kernels holding GPUs: / on a host"},
    {"accelerators.cuda_mps", BUS_CFG_BOOL, offsetof(agent_config_t, accel_cuda_mps),
     "true", 0, 0, NULL,
     "run one NVIDIA MPS control daemon per GPU held in fractions (cuda.shares), so that"
     " their thread and memory limits are enforced; false: limits are variables only"},
    {"fake.agents", BUS_CFG_INT, offsetof(agent_config_t, fake_agents), "0", 0,
     AGENT_FAKE_AGENTS_MAX, NULL,
     "0: a real agent; N > 0: N fake agents <node.name>-1..N instead, which run no "
     "containers (benches, tests)"},
    {"fake.slots", BUS_CFG_STRING, offsetof(agent_config_t, fake_slots),
     AGENT_FAKE_SLOTS_DEFAULT, 1, 1023, NULL,
     "what each fake agent offers, e.g. cpu=64,mem=256g,cuda.shares=8"},
    BUS_CONFIG_END,
};
