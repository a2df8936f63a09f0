/*  =========================================================================
    agent_model - an inference kernel's model service: started, then
    health-checked from the host

    kernel.create's model_service (the gateway's reading of the model
    folder's model-definition.yaml, Backend.AI's format) names a command,
    the directory it runs in, its port and an optional health check. Once
    the kernel's runner answers, the command is started through the runner
    (SERVICE "model", as apps are), with BACKEND_MODEL_NAME and
    BACKEND_MODEL_PATH exported and model_path its working directory; the
    agent does not wait for the port. Then, every max_wait_time seconds, the
    agent probes the kernel's address from the host, as the app proxies
    reach it: GET health_check.path expecting expected_status_code, or,
    without a health check, a connect to the port. The first pass is
    healthy; more than max_retries failures in a row are unhealthy (as
    Backend.AI's runner counts them). Each change, and every S_REPEAT
    probes the state as it stands, is published as kernel.model_status, so
    a subscriber that missed one learns it soon after.

    The state belongs to the kernel (agent_kernel_t.model) and goes with it.
    The definition is kept in the kernel's row, so that a kernel adopted
    after the agent restarted is checked again (agent_kernel_recover).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_MODEL_H_INCLUDED
#define AGENT_MODEL_H_INCLUDED

typedef struct _agent_model_t agent_model_t;
typedef struct _agent_kernel_t agent_kernel_t;
typedef struct _agent_kernels_t agent_kernels_t;

//  Checks a model_service text (kernel.create's): BUS_OK, or INVALID with
//  err naming what is wrong.
int agent_model_check(const char *text, bus_error_t *err);

//  The model_service to run in a kernel of image: text itself, or, when
//  text says "image_command": true (the vllm, nim and cmd runtime variants,
//  which have no definition file), text with the image's own command as
//  its start_command, as Backend.AI's agent makes it from the image's CMD.
//  NULL with err (INVALID) when the image has no command. Caller frees it.
char *
agent_model_resolve(const char *text, const proto_image_info_t *image, bus_error_t *err);

//  Starts the model service of kernel (RUNNING, with its runner) described
//  by text, and its health checks. NULL when text does not parse (then
//  kernel.model_status says why) or out of memory.
agent_model_t *
agent_model_start(agent_kernels_t *kernels, agent_kernel_t *kernel, const char *text);

//  Stops the checks (the service ends with its kernel). Safe on NULL.
void agent_model_destroy(agent_model_t **self_p);

#endif
