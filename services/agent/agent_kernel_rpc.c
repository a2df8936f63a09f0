/*  =========================================================================
    agent_kernel_rpc - the kernel.* methods on the agent's bus node

    The handlers but kernel.create's (agent_kernel_create.c), which the
    agent's one table of methods (agent_server.c) registers: destroy and
    restart, whose work runs on the worker and which answer once it is
    done (a detached request, parked on the kernel); hosts; execute, which
    answers from the runner client's collect callback, which fires exactly
    once (with UNAVAILABLE when the kernel goes first); interrupt, logs and
    list, which answer at once.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"

//  A kernel.execute waiting for the runner.
typedef struct {
    agent_kernels_t *self;
    bus_rpc_request_t *req;
} s_exec_t;

//  A restart on its way. The job's fields belong to the worker while it
//  runs; kernel stays on the loop (RESTARTING, in the hash).
typedef struct {
    agent_kernels_t *self;
    agent_kernel_t *kernel;
    agent_container_t *container; //  lent by kernel
    int grace_ms;
    char *startup_command; //  NULL when none
    int exit_code;         //  the stop's
    int seen;              //  a failed restart's release's
    int rc;
    bus_error_t err;
} s_restart_t;

//  The grace period a request asks for, within bounds.
static int
s_grace(uint64_t grace_ms)
{
    return grace_ms > AGENT_KERNELS_GRACE_MAX_MS ? AGENT_KERNELS_GRACE_MAX_MS
                                                 : (int) grace_ms;
}

//  ---------------------------------------------------------------------------
//  kernel.destroy
int
agent_kernel_rpc_on_destroy(void *arg,
                            const proto_kernel_destroy_req_t *in,
                            proto_kernel_destroy_rep_t *out,
                            bus_rpc_request_t *req,
                            bus_error_t *err)
{
    agent_kernels_t *self = arg;
    int rc = BUS_OK;
    agent_kernel_t *kernel = zhashx_lookup(self->kernels, in->kernel_id);
    const char *ended = kernel ? NULL : zhashx_lookup(self->ended, in->kernel_id);
    const char *reason = in->reason ? in->reason : "user-requested";
    if (!agent_bundle_id_valid(in->kernel_id))
        rc = bus_error_set(err, BUS_STATUS_INVALID, "invalid kernel id");
    else if (kernel) {
        //  Answered once its end is over: the same exit code for every one.
        rc = agent_kernel_wait(kernel, req, AGENT_KERNEL_WAIT_DESTROY, err);
        if (rc != BUS_STATUS_PENDING_)
            ;
        else if (kernel->state == AGENT_KERNEL_RUNNING)
            agent_kernels_end(self, kernel, s_grace(in->grace_ms), reason, NULL,
                              AGENT_RUNC_EXIT_UNKNOWN, false);
        else if (kernel->state != AGENT_KERNEL_ENDING && !kernel->end.requested) {
            //  Being made or restarted: it ends once that is done.
            agent_kernel_set_end(kernel, s_grace(in->grace_ms), reason, NULL,
                                 AGENT_RUNC_EXIT_UNKNOWN, false);
            kernel->end.requested = true;
        }
    } else if (ended) {
        //  Already destroyed: the same answer.
        out->exit_code = atoi(ended);
    } else
        rc = bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such kernel");
    return rc;
}

//  ---------------------------------------------------------------------------
//  kernel.restart: stops the kernel's container and runs it again from the
//  same bundle: the overlay (its files), network namespace, image hold and
//  row stay; the runner, its interpreter and every process go. No durable
//  event when it works. When it cannot run again the kernel ends
//  (failed-to-start, with kernel.terminated), then the error is answered.

static void
s_restart_destroy(s_restart_t **restart_p)
{
    s_restart_t *restart = *restart_p;
    if (restart) {
        agent_container_destroy(&restart->container);
        free(restart->startup_command);
        free(restart);
        *restart_p = NULL;
    }
}

//  On the worker: stop and run again; what does not run again is given back.
static void
s_restart_run(void *job, void *context)
{
    s_restart_t *restart = job;
    restart->rc = agent_containers_restart(context, restart->container, restart->grace_ms,
                                           &restart->exit_code, &restart->err);
    if (restart->rc != BUS_OK)
        agent_containers_release(context, restart->container, 0, &restart->seen, NULL);
}

//  A restart that failed: the kernel ends failed-to-start, and the restart
//  is answered once that is over. ended: its job released it already.
static void
s_restart_failed(agent_kernels_t *self,
                 agent_kernel_t *kernel,
                 const bus_error_t *step,
                 bool ended,
                 int seen)
{
    bus_log_warning("kernel restart failed kernel=%s detail=\"%s\"", kernel->id,
                    step->detail);
    bus_error_t why;
    bus_error_set(&why, step->status, "restart failed: %s", step->detail);
    if (ended) {
        kernel->state = AGENT_KERNEL_ENDING;
        agent_kernel_set_end(kernel, 0, "failed-to-start", why.detail,
                             AGENT_RUNC_EXIT_UNKNOWN, false);
        agent_kernels_finish(self, kernel, seen, &why);
    } else {
        agent_kernel_mark(kernel, AGENT_KERNEL_WAIT_RESTART, why.status, why.detail);
        agent_kernels_end(self, kernel, 0, "failed-to-start", why.detail,
                          AGENT_RUNC_EXIT_UNKNOWN, false);
    }
}

//  On the loop: the kernel runs again with a new runner client, or ended.
static void
s_restart_done(void *job, bool ran)
{
    s_restart_t *restart = job;
    agent_kernels_t *self = restart->self;
    agent_kernel_t *kernel = restart->kernel;
    if (!ran) {
        //  The agent stops first: the kernel runs as it did, for the next
        //  agent to adopt; the restart goes unanswered (agent_kernel_drop).
        agent_kernels_give_back(self, kernel, &restart->container);
        kernel->state = AGENT_KERNEL_RUNNING;
        s_restart_destroy(&restart);
        return;
    }
    if (restart->rc != BUS_OK) {
        s_restart_failed(self, kernel, &restart->err, true, restart->seen);
        s_restart_destroy(&restart);
        return;
    }
    agent_kernels_give_back(self, kernel, &restart->container);
    kernel->adopted = false; //  our child now
    kernel->state = AGENT_KERNEL_RUNNING;
    bus_error_t err = {0};
    char *socket = agent_runc_kernel_path(self->runc, kernel->id, "run/runner.sock");
    int rc = socket ? agent_kernels_runner_start(self, kernel, socket, &err)
                    : bus_error_set(&err, BUS_STATUS_INTERNAL, "out of memory");
    zstr_free(&socket);
    if (rc != BUS_OK) {
        s_restart_failed(self, kernel, &err, false, AGENT_RUNC_EXIT_UNKNOWN);
        s_restart_destroy(&restart);
        return;
    }
    bus_log_notice("kernel restarted kernel=%s pid=%d exit_code=%d", kernel->id,
                   kernel->pid, restart->exit_code);
    agent_kernels_started(self, kernel, restart->startup_command,
                          AGENT_KERNEL_WAIT_RESTART);
    s_restart_destroy(&restart);
}

//  Starts restarting a RUNNING kernel whose request is parked.
static void
s_restart_start(agent_kernels_t *self,
                agent_kernel_t *kernel,
                int grace_ms,
                const char *startup_command)
{
    s_restart_t *restart = calloc(1, sizeof *restart);
    if (restart && startup_command && *startup_command &&
        !(restart->startup_command = strdup(startup_command))) {
        free(restart);
        restart = NULL;
    }
    if (!restart) {
        agent_kernel_answer(kernel, AGENT_KERNEL_WAIT_RESTART, BUS_STATUS_INTERNAL,
                            "out of memory");
        return;
    }
    //  The reap timer must not see this stop as the kernel's end: the job
    //  reaps the exit itself, with the kernel's runc entry.
    kernel->state = AGENT_KERNEL_RESTARTING;
    agent_kernels_runner_drop(self, kernel); //  waiters: UNAVAILABLE
    restart->self = self;
    restart->kernel = kernel;
    restart->container = agent_kernels_lend(self, kernel);
    restart->grace_ms = grace_ms;
    restart->exit_code = restart->seen = AGENT_RUNC_EXIT_UNKNOWN;
    agent_kernels_submit(self, s_restart_run, s_restart_done, restart);
}

//  ---------------------------------------------------------------------------
int
agent_kernel_rpc_on_restart(void *arg,
                            const proto_kernel_restart_req_t *in,
                            proto_kernel_restart_rep_t *out,
                            bus_rpc_request_t *req,
                            bus_error_t *err)
{
    (void) out;
    agent_kernels_t *self = arg;
    int rc = BUS_OK;
    agent_kernel_t *kernel = zhashx_lookup(self->kernels, in->kernel_id);
    if (!agent_bundle_id_valid(in->kernel_id))
        rc = bus_error_set(err, BUS_STATUS_INVALID, "invalid kernel id");
    else if (!kernel && zhashx_lookup(self->ended, in->kernel_id))
        rc = bus_error_set(err, BUS_STATUS_CONFLICT, "kernel %s already ended",
                           in->kernel_id);
    else if (!kernel)
        rc = bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such kernel");
    else if (kernel->state == AGENT_KERNEL_CREATING)
        rc = bus_error_set(err, BUS_STATUS_CONFLICT, "kernel %s is being created",
                           in->kernel_id);
    else if (kernel->state != AGENT_KERNEL_RUNNING || kernel->end.requested)
        rc =
            bus_error_set(err, BUS_STATUS_CONFLICT, "kernel %s is ending", in->kernel_id);
    else if ((rc = agent_kernel_wait(kernel, req, AGENT_KERNEL_WAIT_RESTART, err)) ==
             BUS_STATUS_PENDING_)
        s_restart_start(self, kernel, s_grace(in->grace_ms), in->startup_command);
    return rc;
}

//  ---------------------------------------------------------------------------
//  kernel.hosts: the kernel's /etc/hosts rewritten in place (agent_hosts)
int
agent_kernel_rpc_on_hosts(void *arg,
                          const proto_kernel_hosts_req_t *in,
                          proto_kernel_hosts_rep_t *out,
                          bus_rpc_request_t *req,
                          bus_error_t *err)
{
    (void) out, (void) req;
    agent_kernels_t *self = arg;
    int rc = BUS_OK;
    agent_kernel_t *kernel = zhashx_lookup(self->kernels, in->kernel_id);
    const char *state_dir = self->config->node.state_dir;
    char *text = NULL;
    if (!kernel || (kernel->state != AGENT_KERNEL_RUNNING &&
                    kernel->state != AGENT_KERNEL_RESTARTING))
        rc = bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such kernel %.64s",
                           in->kernel_id);
    else if ((rc = agent_hosts_text(kernel->hostname, kernel->ip, in->hosts, &text,
                                    err)) == BUS_OK &&
             (rc = agent_hosts_rewrite(state_dir, kernel->id, text, err)) == BUS_OK)
        bus_log_info("kernel hosts written kernel=%s", kernel->id);
    free(text);
    return rc;
}

//  ---------------------------------------------------------------------------
//  kernel.execute

static void
s_exec_answer(s_exec_t *exec, int status, const char *detail, const char *result)
{
    agent_kernels_t *self = exec->self;
    if (status == BUS_OK) {
        proto_kernel_execute_rep_t out;
        proto_kernel_execute_rep_init(&out);
        out.result = result;
        bus_writer_t *writer = bus_writer_new();
        if (writer && proto_kernel_execute_rep_write(&out, writer) == 0)
            bus_node_reply(self->node, &exec->req, BUS_OK, NULL, bus_writer_data(writer),
                           bus_writer_size(writer));
        else
            bus_node_reply(self->node, &exec->req, BUS_STATUS_INTERNAL,
                           "cannot encode the result", NULL, 0);
        bus_writer_destroy(&writer);
    } else
        bus_node_reply(self->node, &exec->req, status, detail, NULL, 0);
    free(exec);
}

static void
s_on_collect(json_t *result, const bus_error_t *err, void *arg)
{
    s_exec_t *exec = arg;
    if (!result) {
        s_exec_answer(exec, err->status, err->detail, NULL);
        return;
    }
    char *text = json_dumps(result, JSON_COMPACT);
    if (text)
        s_exec_answer(exec, BUS_OK, NULL, text);
    else
        s_exec_answer(exec, BUS_STATUS_INTERNAL, "cannot encode the result", NULL);
    free(text);
}

//  ---------------------------------------------------------------------------
int
agent_kernel_rpc_on_execute(void *arg,
                            const proto_kernel_execute_req_t *in,
                            proto_kernel_execute_rep_t *out,
                            bus_rpc_request_t *req,
                            bus_error_t *err)
{
    agent_kernels_t *self = arg;
    int rc = BUS_OK;
    agent_kernel_t *kernel = zhashx_lookup(self->kernels, in->kernel_id);
    const char *mode = in->mode;
    const char *code = in->code ? in->code : "";
    bool collect = true;
    if (!kernel || !kernel->runner)
        rc = bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such kernel");
    else if (strcmp(mode, "query") == 0)
        rc = agent_runner_client_exec(kernel->runner, in->run_id, code, strlen(code),
                                      err) == 0
                 ? BUS_OK
                 : err->status;
    else if (strcmp(mode, "batch") == 0) {
        json_t *options = in->options && *in->options ? json_loads(in->options, 0, NULL)
                                                      : json_object();
        if (!json_is_object(options))
            rc = bus_error_set(err, BUS_STATUS_INVALID, "options are not a JSON object");
        else
            rc = agent_runner_client_batch(
                     kernel->runner, in->run_id,
                     json_string_value(json_object_get(options, "clean")),
                     json_string_value(json_object_get(options, "build")),
                     json_string_value(json_object_get(options, "exec")), err) == 0
                     ? BUS_OK
                     : err->status;
        json_decref(options);
    } else if (strcmp(mode, "input") == 0)
        rc = agent_runner_client_input(kernel->runner, in->run_id, code, err) == 0
                 ? BUS_OK
                 : err->status;
    else if (strcmp(mode, "continue") == 0)
        rc = BUS_OK;
    else if (strcmp(mode, "complete") == 0) {
        collect = false;
        json_t *result =
            json_pack("{s:s, s:s, s:n, s:[], s:{}, s:[]}", "runId", in->run_id, "status",
                      "finished", "exitCode", "console", "options", "completions");
        char *text = result ? json_dumps(result, JSON_COMPACT) : NULL;
        out->result = text;
        if (!text || proto_arena_adopt(&out->owned_, text) != 0) {
            free(text);
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "cannot encode the result");
        }
        json_decref(result);
    } else
        rc = bus_error_set(err, BUS_STATUS_INVALID, "unknown mode %s", mode);
    if (rc == BUS_OK && kernel &&
        (strcmp(mode, "query") == 0 || strcmp(mode, "batch") == 0)) {
        free(kernel->run_id);
        kernel->run_id = strdup(in->run_id);
    }
    if (rc == BUS_OK && collect) {
        //  The answer comes when the run finishes, waits for input, or wait_ms
        //  passes, but before the caller gives up.
        int wait_ms = in->wait_ms > 600000 ? 600000 : (int) in->wait_ms;
        int left = bus_rpc_request_remaining_ms(req) - 250;
        if (left < wait_ms)
            wait_ms = left > 0 ? left : 0;
        s_exec_t *exec = calloc(1, sizeof *exec);
        if (!exec)
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        else {
            exec->self = self;
            exec->req = bus_rpc_request_detach(req);
            agent_runner_client_collect(kernel->runner, in->run_id, wait_ms, s_on_collect,
                                        exec);
            rc = BUS_STATUS_PENDING_;
        }
    }
    return rc;
}

//  ---------------------------------------------------------------------------
//  kernel.interrupt, kernel.logs, kernel.list
int
agent_kernel_rpc_on_interrupt(void *arg,
                              const proto_kernel_interrupt_req_t *in,
                              proto_kernel_interrupt_rep_t *out,
                              bus_rpc_request_t *req,
                              bus_error_t *err)
{
    (void) out, (void) req;
    agent_kernels_t *self = arg;
    int rc = BUS_OK;
    agent_kernel_t *kernel = zhashx_lookup(self->kernels, in->kernel_id);
    bool wanted =
        kernel && kernel->run_id &&
        (!in->run_id || !*in->run_id || strcmp(in->run_id, kernel->run_id) == 0);
    if (!kernel || !kernel->runner)
        rc = bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such kernel");
    else if (wanted) {
        bus_error_t step;
        //  Nothing going (or another run than the one named) is fine: there
        //  is nothing to interrupt.
        int sent =
            in->force
                ? agent_runner_client_kill(kernel->runner, kernel->run_id, &step)
                : agent_runner_client_interrupt(kernel->runner, kernel->run_id, &step);
        if (sent != 0 && step.status != BUS_STATUS_NOT_FOUND)
            rc = bus_error_set(err, step.status, "%s", step.detail);
        else if (sent == 0 && in->force)
            bus_log_notice("run killed kernel=%s run=%s", kernel->id, kernel->run_id);
    }
    return rc;
}

//  ---------------------------------------------------------------------------
int
agent_kernel_rpc_on_logs(void *arg,
                         const proto_kernel_logs_req_t *in,
                         proto_kernel_logs_rep_t *out,
                         bus_rpc_request_t *req,
                         bus_error_t *err)
{
    (void) req;
    agent_kernels_t *self = arg;
    int rc = BUS_OK;
    agent_kernel_t *kernel = zhashx_lookup(self->kernels, in->kernel_id);
    size_t max = in->max_bytes > AGENT_KERNELS_LOGS_MAX ? AGENT_KERNELS_LOGS_MAX
                                                        : (size_t) in->max_bytes;
    uint8_t *logs = NULL;
    size_t logs_size = 0;
    //  A kernel that ended answers what its end kept (ended_logs).
    if (!kernel || !kernel->recorded) {
        int found = agent_db_ended_log_get(bus_node_db(self->node), in->kernel_id, max,
                                           &logs, &logs_size);
        if (found < 0)
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "cannot read the kept log");
        else if (found > 0)
            rc = bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such kernel");
    } else
        logs = agent_container_log_tail(self->runc, in->kernel_id, max, &logs_size);
    if (rc == BUS_OK && proto_arena_adopt(&out->owned_, logs) != 0)
        rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    if (rc != BUS_OK) {
        free(logs);
        return rc;
    }
    out->logs = logs;
    out->logs_size = logs_size;
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  The kernels the agent has recorded (its table's rows): running,
//  restarting or ending; one being made is not there yet.
int
agent_kernel_rpc_on_list(void *arg,
                         const proto_kernel_list_req_t *in,
                         proto_kernel_list_rep_t *out,
                         bus_rpc_request_t *req,
                         bus_error_t *err)
{
    (void) req;
    agent_kernels_t *self = arg;
    int rc = agent_kernels_check_addressee(self, in->agent_id, err);
    if (rc != BUS_OK)
        return rc;
    size_t count = zhashx_size(self->kernels);
    proto_kernel_state_t *list =
        count ? proto_arena_alloc(&out->owned_, count * sizeof *list) : NULL;
    if (count && !list)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    out->kernels = list;
    for (agent_kernel_t *kernel = zhashx_first(self->kernels); kernel && list;
         kernel = zhashx_next(self->kernels)) {
        if (!kernel->recorded)
            continue;
        proto_kernel_state_t *state = &list[out->kernels_count++];
        proto_kernel_state_init(state);
        state->kernel_id = kernel->id;
        state->session_id = kernel->session_id;
        state->status = "running";
    }
    return BUS_OK;
}
