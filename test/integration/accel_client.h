/*  =========================================================================
    accel_client - the accelerator tests' sessions and scheduler checks
    (see accel_client.c)

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef ACCEL_CLIENT_H_INCLUDED
#define ACCEL_CLIENT_H_INCLUDED

#include "gateway_client.h"

//  A signed request as the superadmin; the answer parsed (NULL when none or
//  not JSON), its status into *status.
json_t *accel_request(const client_platform_t *p,
                      const char *method,
                      const char *path,
                      const char *body,
                      int *status);

//  POST /session of an interactive busybox session asking resources (a JSON
//  object's text), with environ (JSON object text, "" for none); waits until
//  it runs unless enqueue. Returns the HTTP status.
int accel_create(const client_platform_t *p,
                 const char *name,
                 const char *resources,
                 const char *environ,
                 bool enqueue);

//  GET /session/{name} as text (caller frees), NULL when it is not found.
char *accel_info(const client_platform_t *p, const char *name);

//  Waits up to timeout_ms for the session's status; status NULL waits until
//  it has ended (TERMINATED or CANCELLED, or no longer found).
bool accel_wait(const client_platform_t *p,
                const char *name,
                const char *status,
                int timeout_ms);

void accel_destroy(const client_platform_t *p, const char *name);

//  What the session's container sees: "V=<CUDA_VISIBLE_DEVICES>
//  M=<BACKPLANE_MOCK_CUDA_VISIBLE_DEVICES> T=<..._THREAD_PERCENTAGE>
//  L=<..._PINNED_DEVICE_MEM_LIMIT>" into out; false when the run failed.
bool accel_env(const client_platform_t *p, const char *name, char *out, size_t size);

//  The device a session's container sees (its CUDA_VISIBLE_DEVICES), -1 when
//  none or several.
int accel_device(const client_platform_t *p, const char *name);

//  The scheduler's offline invariant check (check-ledger): true when it
//  finds nothing, tried for a few seconds.
bool accel_ledger_holds(const client_platform_t *p);

//  What the scheduler keeps in table (agent_reported, agent_placeable) for
//  agent's slot, read with the sqlite3 shell; -2 without that shell, -1
//  when there is no row.
long long accel_row(const client_platform_t *p,
                    const char *table,
                    const char *agent,
                    const char *slot);

//  The same once it says want, or what it says after timeout_ms (a
//  heartbeat trails the ledger by up to one of them).
long long accel_row_soon(const client_platform_t *p,
                         const char *table,
                         const char *agent,
                         const char *slot,
                         long long want,
                         int timeout_ms);

//  Starts an agent of 8 cpus and 2g whose mock plugin is mock (its
//  accelerators.mock text; the cuda plugin off), on bridge_name and the
//  subnet *cidr_p (claimed with harness_subnet at the first start, kept for
//  a restart). True when it runs.
bool accel_agent_up(const client_platform_t *p,
                    harness_proc_t *agent,
                    const char *name,
                    const char *bridge_name,
                    const char **cidr_p,
                    const char *mock);

#endif
