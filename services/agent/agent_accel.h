/*  =========================================================================
    agent_accel - accelerator plugins and the device allocator of the agent

    A plugin (cuda, mock) declares the slot types it adds and its devices.
    A slot is either WHOLE (cuda.device: a kernel takes whole devices that
    nothing else uses, 1000 thousandths per device) or SHARES (cuda.shares:
    a kernel takes an exact part of a device's capacity, shares_per_device
    thousandths per device, 1000 by default). Amounts are int64 thousandths,
    as in bus_slots: never floating point.

    Allocation for one kernel is exact and all or nothing, and never
    exceeds a device:
    - WHOLE slots are served first: the amount must be a whole number of
      devices; it takes that many completely free devices, lowest index
      first.
    - SHARES r (a multiple of the plugin's quantum): when r fits one
      device's capacity it goes on one device, best fit (the device with the
      least free that still fits, ties lowest index). Fragmentation is not
      worked around: if no single device has r free, the request is refused
      even when the total free would do. When r exceeds one device, it takes
      r / capacity completely free devices and puts the remainder on one
      more device, best fit.
    - A device taken by a WHOLE slot has nothing left for SHARES, and a
      device with any shares in use cannot be taken whole.
    Slot names with a '.' that no plugin declares ("rocm.device") are
    refused when requested; plain names (cpu, mem) are not ours and ignored.

    The agent keeps one allocator. At start it adds its plugins (mock from
    configuration, cuda from NVML) and logs them; the heartbeat reports
    agent_accel_slots; kernel create calls agent_accel_allocate, stores
    agent_accel_allocation_format's text in the kernel's row and passes
    agent_accel_environ and agent_accel_device_nodes to the container;
    kernel end calls agent_accel_release; after a restart each adopted
    kernel's stored text goes back through agent_accel_restore.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_ACCEL_H_INCLUDED
#define AGENT_ACCEL_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "bus.h"

#define AGENT_ACCEL_NAME_MAX      16   //  plugin name, with its NUL
#define AGENT_ACCEL_PREFIX_MAX    32   //  environment prefix, with its NUL
#define AGENT_ACCEL_SLOT_NAME_MAX 32   //  slot name, with its NUL
#define AGENT_ACCEL_ID_MAX        96   //  device id (NVML UUID buffer), with its NUL
#define AGENT_ACCEL_MODEL_MAX     96   //  device model name, with its NUL
#define AGENT_ACCEL_NODE_MAX      64   //  device node path, with its NUL
#define AGENT_ACCEL_SHARED_NODES  4    //  nodes every kernel with a device gets
#define AGENT_ACCEL_PLUGIN_SLOTS  4    //  slots one plugin declares
#define AGENT_ACCEL_DEVICES_MAX   64   //  devices of one plugin
#define AGENT_ACCEL_PLUGINS_MAX   8    //  plugins of one agent
#define AGENT_ACCEL_ALLOC_MAX     128  //  (slot, device) pairs in one allocation
#define AGENT_ACCEL_TEXT_MAX      4096 //  longest stored allocation text
#define AGENT_ACCEL_DEVICE_UNIT   BUS_SLOTS_COUNT_SCALE            //  one whole device
#define AGENT_ACCEL_SHARES_MAX    (1000LL * BUS_SLOTS_COUNT_SCALE) //  per device

//  The environment names of the CUDA flavour (the mock puts its prefix first).
#define AGENT_ACCEL_ENV_VISIBLE "CUDA_VISIBLE_DEVICES"
#define AGENT_ACCEL_ENV_THREADS "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"
#define AGENT_ACCEL_ENV_MEMORY  "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT"

typedef enum {
    AGENT_ACCEL_WHOLE,  //  whole devices, AGENT_ACCEL_DEVICE_UNIT each
    AGENT_ACCEL_SHARES, //  exact parts of a device
} agent_accel_kind_t;

//  Which slots a plugin declares (configuration "mode").
typedef enum {
    AGENT_ACCEL_MODE_BOTH,   //  cuda.device and cuda.shares
    AGENT_ACCEL_MODE_DEVICE, //  cuda.device only
    AGENT_ACCEL_MODE_SHARES, //  cuda.shares only
} agent_accel_mode_t;

//  One slot type a plugin adds.
typedef struct {
    char name[AGENT_ACCEL_SLOT_NAME_MAX]; //  "cuda.shares"
    bus_slots_unit_t unit;                //  BUS_SLOTS_COUNT
    agent_accel_kind_t kind;
} agent_accel_slot_t;

//  One device a plugin offers.
typedef struct {
    char id[AGENT_ACCEL_ID_MAX];       //  "GPU-8932f937-..." or "mock-0"; unique
    uint32_t index;                    //  the device's index (NVML, CUDA); unique
    int32_t minor;                     //  /dev/nvidia<minor>; -1: no device node
    char model[AGENT_ACCEL_MODEL_MAX]; //  "NVIDIA H100 80GB HBM3"
    int64_t memory_bytes;              //  its memory in bytes
} agent_accel_device_t;

//  What a plugin is, apart from its slots and devices. Strings are copied.
typedef struct {
    const char *name;                //  "cuda", "mock"
    const char *env_prefix;          //  before every variable name; NULL: none
    bool plain_visible;              //  CUDA_VISIBLE_DEVICES also without prefix
    bool visible_by_id;              //  list device ids (GPU UUIDs), not indexes
    const char *node_prefix;         //  each device's node is <prefix><minor>; NULL: none
    const char *const *shared_nodes; //  NULL-terminated; given with any device
    int64_t shares_per_device;       //  a device's SHARES capacity, thousandths
    int64_t quantum;                 //  SHARES amounts are multiples of it
} agent_accel_info_t;

//  One slot's totals over the agent's devices, in thousandths.
typedef struct {
    const char *name; //  borrowed from the allocator
    bus_slots_unit_t unit;
    int64_t capacity;
    int64_t used;
    int64_t placeable; //  the most one kernel could be given now (fragmentation,
                       //  and the other slot's use of the same devices, count)
} agent_accel_slot_state_t;

//  One (slot, device) part of a kernel's allocation.
typedef struct {
    uint8_t plugin; //  the plugin's position in the allocator
    uint8_t slot;   //  the slot's position in the plugin
    uint8_t device; //  the device's position in the plugin
    int64_t amount; //  thousandths: AGENT_ACCEL_DEVICE_UNIT for a WHOLE slot
} agent_accel_part_t;

//  A kernel's allocation, parts sorted by plugin, slot, device.
typedef struct {
    size_t count;
    agent_accel_part_t parts[AGENT_ACCEL_ALLOC_MAX];
} agent_accel_alloc_t;

typedef struct _agent_accel_plugin_t agent_accel_plugin_t;
typedef struct _agent_accel_t agent_accel_t;

//  ---------------------------------------------------------------------------
//  Plugins: built by their constructors (mock, cuda below) from an info,
//  then slots and devices.

//  A plugin with no slots and no devices. Caller owns return value.
agent_accel_plugin_t *agent_accel_plugin_new(const agent_accel_info_t *info);

void agent_accel_plugin_destroy(agent_accel_plugin_t **self_p);

//  Declares slot (a known count slot, bus_slots). 0, or -1 when the plugin
//  has AGENT_ACCEL_PLUGIN_SLOTS already, declares it already, or the unit is
//  not a count.
int agent_accel_plugin_add_slot(agent_accel_plugin_t *self,
                                const char *slot,
                                agent_accel_kind_t kind);

//  Adds a copy of device. 0, or -1 when full or its index or id is taken.
int agent_accel_plugin_add_device(agent_accel_plugin_t *self,
                                  const agent_accel_device_t *device);

//  A plugin's own state (the CUDA plugin's open NVML), destroyed with the
//  plugin by destroy. Set once, by the plugin's constructor.
typedef void(agent_accel_state_destroy_fn)(void *state);
void agent_accel_plugin_set_state(agent_accel_plugin_t *self,
                                  void *state,
                                  agent_accel_state_destroy_fn *destroy);

//  The state set with destroy (which tells whose it is); NULL when the
//  plugin has none, or another plugin's kind. Borrowed.
void *agent_accel_plugin_state(const agent_accel_plugin_t *self,
                               agent_accel_state_destroy_fn *destroy);

//  Borrowed views, valid while the plugin lives.
const char *agent_accel_plugin_name(const agent_accel_plugin_t *self);
size_t agent_accel_plugin_slot_count(const agent_accel_plugin_t *self);
const agent_accel_slot_t *agent_accel_plugin_slot(const agent_accel_plugin_t *self,
                                                  size_t i);
size_t agent_accel_plugin_device_count(const agent_accel_plugin_t *self);
const agent_accel_device_t *agent_accel_plugin_device(const agent_accel_plugin_t *self,
                                                      size_t i);

//  ---------------------------------------------------------------------------
//  The mock plugin: fake devices from configuration, for tests. Its
//  containers get BACKPLANE_MOCK_CUDA_* variables plus CUDA_VISIBLE_DEVICES
//  (indexes) and no device nodes.

#define AGENT_ACCEL_MOCK_PREFIX     "BACKPLANE_MOCK_"
#define AGENT_ACCEL_MOCK_DEVICES    2
#define AGENT_ACCEL_MOCK_MEMORY     (16LL << 30)
#define AGENT_ACCEL_MOCK_MODEL      "Backplane Mock GPU"
#define AGENT_ACCEL_MOCK_CONFIG_MAX 256                   //  longest configuration text
#define AGENT_ACCEL_SHARES_DEFAULT  BUS_SLOTS_COUNT_SCALE //  1.0 per device
#define AGENT_ACCEL_QUANTUM_DEFAULT 1                     //  0.001

typedef struct {
    uint32_t devices;          //  0..AGENT_ACCEL_DEVICES_MAX
    int64_t memory_bytes;      //  per device, > 0
    int64_t shares_per_device; //  thousandths, 1..AGENT_ACCEL_SHARES_MAX
    int64_t quantum;           //  thousandths, divides shares_per_device
    agent_accel_mode_t mode;
} agent_accel_mock_config_t;

//  The defaults: 2 devices of 16 GiB, 1.0 share each, quantum 0.001, both slots.
void agent_accel_mock_config_init(agent_accel_mock_config_t *config);

//  Fills config from text, "devices=2,memory=16g,shares_per_device=1,
//  quantum=0.001,mode=both" (any keys, any order; missing ones keep their
//  defaults; "" is all defaults). BUS_OK, or BUS_STATUS_INVALID with err
//  naming the bad key or value.
int agent_accel_mock_config_parse(const char *text,
                                  agent_accel_mock_config_t *config,
                                  bus_error_t *err);

//  The mock plugin: devices mock-0.. with indexes 0... NULL with err
//  (BUS_STATUS_INVALID) when config is out of range. Caller owns return value.
agent_accel_plugin_t *agent_accel_mock_new(const agent_accel_mock_config_t *config,
                                           bus_error_t *err);

//  ---------------------------------------------------------------------------
//  The CUDA plugin: GPUs found through NVML (dlopen of library). Containers
//  get CUDA_VISIBLE_DEVICES (GPU UUIDs), the MPS limits for fractions and
//  the device nodes /dev/nvidia<minor>, /dev/nvidiactl, /dev/nvidia-uvm.
//  With GPUs it keeps NVML open (initialised once) until it is destroyed,
//  for the driver's version and the live figures below; without, it closes
//  NVML at once.

#define AGENT_ACCEL_NVML_LIBRARY  "libnvidia-ml.so.1"
#define AGENT_ACCEL_DRIVER_MAX    80  //  NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE
#define AGENT_ACCEL_PROCESSES_MAX 256 //  GPU processes one sampling keeps

typedef struct {
    const char *library;       //  default AGENT_ACCEL_NVML_LIBRARY; borrowed
    int64_t shares_per_device; //  as in the mock
    int64_t quantum;
    agent_accel_mode_t mode;
} agent_accel_cuda_config_t;

void agent_accel_cuda_config_init(agent_accel_cuda_config_t *config);

//  Discovers the GPUs and the driver's version (logged). Without the
//  library, or when NVML fails, the plugin has no devices and no slots (one
//  notice is logged) and NVML is shut down again; with GPUs NVML stays
//  initialised until agent_accel_plugin_destroy. NULL only when out of
//  memory or config is out of range. Caller owns return value.
agent_accel_plugin_t *agent_accel_cuda_new(const agent_accel_cuda_config_t *config);

//  The CUDA plugin of accel, NULL when it has none (no GPU, or the mock
//  instead). Borrowed, valid while accel lives.
const agent_accel_plugin_t *agent_accel_cuda_plugin(const agent_accel_t *accel);

//  The NVIDIA driver's version NVML gave at discovery ("550.54.15"), for
//  the driver's files (libcuda.so.<version>); NULL when plugin is not a
//  CUDA plugin with GPUs or NVML did not say. Borrowed, valid while the
//  plugin lives.
const char *agent_accel_cuda_driver_version(const agent_accel_plugin_t *plugin);

//  One GPU's figures now.
typedef struct {
    uint8_t device;           //  the device's position in the plugin
    uint32_t util_pct;        //  busy time over NVML's last sample period, 0..100
    uint64_t mem_used_bytes;  //  its memory in use
    uint64_t mem_total_bytes; //  its memory
} agent_accel_gpu_stats_t;

//  Fills out (room for max) with each GPU's figures; a GPU NVML cannot read
//  now is left out. Returns how many were filled; 0 when plugin is not a
//  CUDA plugin with GPUs.
size_t agent_accel_cuda_gpu_stats(const agent_accel_plugin_t *plugin,
                                  agent_accel_gpu_stats_t *out,
                                  size_t max);

//  One compute process on one GPU.
typedef struct {
    uint32_t pid;         //  as the agent's PID namespace sees it
    uint8_t device;       //  the device's position in the plugin
    uint64_t mem_bytes;   //  the GPU memory it uses there
    uint32_t sm_util_pct; //  its SM use in NVML's latest sample since the
                          //  previous call, 0..100 (0: none)
} agent_accel_gpu_process_t;

//  Fills out (room for max) with the compute processes of every GPU, with
//  their memory and SM use. Keeps a cursor of NVML's sample times per GPU
//  in the plugin's state (so one caller, the stats timer). Returns how many
//  were filled; 0 when plugin is not a CUDA plugin with GPUs.
size_t agent_accel_cuda_processes(const agent_accel_plugin_t *plugin,
                                  agent_accel_gpu_process_t *out,
                                  size_t max);

//  ---------------------------------------------------------------------------
//  The allocator: the agent's plugins and what each kernel holds.

//  An allocator with no plugins. Caller owns return value.
agent_accel_t *agent_accel_new(void);

void agent_accel_destroy(agent_accel_t **self_p);

//  Takes *plugin_p (NULLed) on BUS_OK. BUS_STATUS_CONFLICT when its name or
//  one of its slot names is taken already, or there are AGENT_ACCEL_PLUGINS_MAX
//  plugins; the caller keeps the plugin then.
int
agent_accel_add(agent_accel_t *self, agent_accel_plugin_t **plugin_p, bus_error_t *err);

size_t agent_accel_plugin_count(const agent_accel_t *self);

//  Borrowed, valid while the allocator lives.
const agent_accel_plugin_t *agent_accel_plugin(const agent_accel_t *self, size_t i);

//  One notice per device, for the agent's start.
void agent_accel_log(const agent_accel_t *self);

//  Fills out (room for max) with every slot that has capacity, for the
//  heartbeat's available_slots and placeable_slots (format with
//  bus_slots_format_value) and the invariant check. Returns how many slots
//  there are (may exceed max).
size_t
agent_accel_slots(const agent_accel_t *self, agent_accel_slot_state_t *out, size_t max);

//  Allocates for kernel_id what slots asks (a kernel.create request's map,
//  decimal strings). BUS_OK, with *alloc (may be NULL) a copy of what was
//  taken (count 0 when nothing was asked). BUS_STATUS_INVALID: a malformed
//  amount, a fraction of a WHOLE slot, a SHARES amount off the quantum.
//  BUS_STATUS_CONFLICT: the kernel holds an allocation already, an unknown
//  accelerator slot, or it does not fit; nothing is taken then.
int agent_accel_allocate(agent_accel_t *self,
                         const char *kernel_id,
                         const proto_kv_t *slots,
                         size_t slots_count,
                         agent_accel_alloc_t *alloc,
                         bus_error_t *err);

//  What kernel_id holds; NULL when nothing. Borrowed until the next
//  allocate, release or restore.
const agent_accel_alloc_t *agent_accel_lookup(const agent_accel_t *self,
                                              const char *kernel_id);

//  Gives back what kernel_id holds. True when it held something; safe to call
//  for any kernel, any number of times.
bool agent_accel_release(agent_accel_t *self, const char *kernel_id);

//  Takes again for kernel_id what text (agent_accel_allocation_format) says,
//  after a restart. BUS_OK; BUS_STATUS_INVALID when text is malformed or names
//  a slot or device this agent lacks; BUS_STATUS_CONFLICT when the kernel
//  holds something already or the parts no longer fit. All or nothing.
int agent_accel_restore(agent_accel_t *self,
                        const char *kernel_id,
                        const char *text,
                        bus_error_t *err);

//  The stored form of alloc: groups "<slot>:<index>=<thousandths>,..." joined
//  by ';', e.g. "cuda.shares:0=500,1=1000;cuda.device:2=1000"; "" when empty.
//  Device keys are the devices' indexes. Caller owns return value.
char *agent_accel_allocation_format(const agent_accel_t *self,
                                    const agent_accel_alloc_t *alloc);

//  Parses text into alloc, checking it against this agent's slots and
//  devices (not against what is in use). BUS_OK or BUS_STATUS_INVALID.
int agent_accel_allocation_parse(const agent_accel_t *self,
                                 const char *text,
                                 agent_accel_alloc_t *alloc,
                                 bus_error_t *err);

//  The container's variables for alloc, "KEY=value", NULL-terminated; per
//  plugin: <prefix>CUDA_VISIBLE_DEVICES (indexes or ids, by index order),
//  and when a SHARES part is a fraction of a device
//  <prefix>CUDA_MPS_ACTIVE_THREAD_PERCENTAGE (share of a device in percent,
//  rounded up, the smallest over its SHARES devices) and
//  <prefix>CUDA_MPS_PINNED_DEVICE_MEM_LIMIT ("<ordinal>=<MiB>M,..." per
//  SHARES device: share x memory rounded down, at least 1; ordinals are
//  positions in CUDA_VISIBLE_DEVICES, as CUDA numbers devices after it).
//  The caller's own values for these names must be dropped. NULL when out
//  of memory. Caller owns return value (agent_accel_strv_destroy).
char **agent_accel_environ(const agent_accel_t *self, const agent_accel_alloc_t *alloc);

//  The host device nodes alloc needs, NULL-terminated: each device's node,
//  then the plugin's shared nodes; the caller adds those that exist. NULL
//  when out of memory. Caller owns return value (agent_accel_strv_destroy).
char **agent_accel_device_nodes(const agent_accel_t *self,
                                const agent_accel_alloc_t *alloc);

//  Frees a NULL-terminated list from above; safe twice.
void agent_accel_strv_destroy(char ***strv_p);

//  True when alloc holds any device of the plugin named plugin.
bool agent_accel_alloc_uses(const agent_accel_t *self,
                            const agent_accel_alloc_t *alloc,
                            const char *plugin);

//  The devices of the plugin named plugin on which alloc holds a fraction
//  (a SHARES part smaller than a device's capacity: what MPS limits), into
//  out (room for max, borrowed like agent_accel_plugin_device). Returns
//  how many there are (may exceed max).
size_t agent_accel_fractions(const agent_accel_t *self,
                             const agent_accel_alloc_t *alloc,
                             const char *plugin,
                             const agent_accel_device_t **out,
                             size_t max);

//  The invariant: no device holds more than its capacity, a device taken
//  whole holds no shares, and every device's use equals the sum of the
//  kernels' parts on it. BUS_OK, or BUS_STATUS_INTERNAL with the first
//  breach in err (the debug command prints it).
int agent_accel_check(const agent_accel_t *self, bus_error_t *err);

#endif
