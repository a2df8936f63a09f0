/*  =========================================================================
    runner_service - service-port apps started by SERVICE frames

    SERVICE carries a name and a command line; the runner starts the command
    with /bin/sh -c as the user in the workdir, in its own process group, with
    its output going to the runner's stderr (the container log), and answers
    SERVICE_RESULT "started", "running" (a service of that name already runs:
    nothing is started) or an error text. Exits are logged; the next SERVICE
    of that name starts it again. Whether its port is open is the agent's to
    find out: it reaches the port from the host, as a proxy will.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "runner_classes.h"

static void
s_reply(runner_t *r, uint32_t run_id, const char *text)
{
    runner_send(r, AGENT_RUNNER_SERVICE_RESULT, run_id, text, strlen(text));
}

void
runner_service_on_start(runner_t *r, const agent_runner_frame_t *frame)
{
    const char *payload = (const char *) frame->payload;
    const char *nul = memchr(payload, '\0', frame->size);
    if (!nul || nul == payload || (size_t) (nul - payload) + 1 >= frame->size) {
        s_reply(r, frame->run_id, "invalid service request: want name NUL command");
        return;
    }
    runner_service_t *slot = NULL;
    for (int i = 0; i < RUNNER_SERVICES_MAX; i++) {
        runner_service_t *service = &r->services[i];
        if (service->pid > 0 && strcmp(service->name, payload) == 0) {
            s_reply(r, frame->run_id, "running");
            return;
        }
        if (service->pid == 0 && !slot)
            slot = service;
    }
    if (!slot) {
        s_reply(r, frame->run_id, "too many services");
        return;
    }
    char *name = strdup(payload);
    char *command = strndup(nul + 1, frame->size - (size_t) (nul - payload) - 1);
    const char *argv[] = {RUNNER_SHELL, "-c", command, NULL};
    runner_spawn_t spec = {
        .argv = argv, .fds = {-1, STDERR_FILENO, STDERR_FILENO}, .nfds = 3, .tty = -1};
    pid_t pid = name && command ? runner_spawn(r, &spec) : -1;
    free(command);
    if (pid < 0) {
        char text[256];
        snprintf(text, sizeof text, "cannot start %s: %s", payload, strerror(errno));
        free(name);
        s_reply(r, frame->run_id, text);
        return;
    }
    free(slot->name);
    slot->name = name;
    slot->pid = pid;
    runner_log("info", "service started name=%s pid=%d", name, (int) pid);
    s_reply(r, frame->run_id, "started");
}

bool
runner_service_reaped(runner_t *r, pid_t pid, int status)
{
    for (int i = 0; i < RUNNER_SERVICES_MAX; i++) {
        runner_service_t *service = &r->services[i];
        if (service->pid == pid) {
            runner_log("notice", "service exited name=%s exit=%d", service->name,
                       runner_exit_code(status));
            free(service->name);
            service->name = NULL;
            service->pid = 0;
            return true;
        }
    }
    return false;
}

void
runner_service_stop(runner_t *r)
{
    for (int i = 0; i < RUNNER_SERVICES_MAX; i++) {
        runner_service_t *service = &r->services[i];
        if (service->pid > 0)
            kill(-service->pid, SIGTERM);
        free(service->name);
        service->name = NULL;
        service->pid = 0;
    }
}
