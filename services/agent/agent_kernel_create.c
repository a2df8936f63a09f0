/*  =========================================================================
    agent_kernel_create - kernel.create, in three steps

    On the loop, at once: the request is checked (addressee, id, an id that
    ended), the image found, the spec built (agent_spec: its folders are
    looked at before anything else of the kernel is made) and the kernel's
    accelerators taken from the agent's allocator (a create that cannot have
    them does nothing else); the kernel enters the hash, CREATING, with the
    request parked on it, and the create job goes to the worker.

    On the worker: the MPS daemon of a kernel holding a fraction of a GPU
    is started when it does not run yet (agent_accel_mps_start_run, up to
    3 s for its socket); agent_containers_setup unpacks the image, attaches the
    network, writes the hosts file and the bundle, runs runc, waits for the
    runner's socket (an inotify event) and runs the bootstrap script. A
    setup that fails gives back what it took with agent_containers_release,
    the function that gives back an ending kernel.

    On the loop, when the job is done: the runner client is made, the
    kernel's row written and kernel.started emitted in one transaction, and
    the parked requests answered (the first and any repeated create); a
    batch session's task starts. Whatever fails there ends the kernel
    through agent_kernels_end like any other, with no row or event (it
    never had them) and the create answered the failure once it is over;
    a create that failed on the worker is finished by agent_kernels_finish
    alike. A destroy that came meanwhile ends it once it runs.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"

//  A create on its way. The job's fields belong to the worker while it
//  runs; kernel stays on the loop (CREATING, in the hash).
typedef struct {
    agent_kernels_t *self;
    agent_kernel_t *kernel;
    agent_container_t *container; //  lent by kernel
    agent_spec_t *spec;
    char *image;           //  the reference asked for, for the row
    char *session_type;    //  for the row
    char *startup_command; //  a batch session's task, NULL when none
    char *model_service;   //  an inference session's model service, NULL when none
    char *slots_text;      //  the row's slots
    char *accel_text;      //  the row's accelerators
    int64_t begun;         //  the request came (µs)
    int64_t submitted;     //  the job was queued (µs)
    agent_accel_mps_start_t *mps_start; //  its GPU's MPS daemon to start first, or NULL
    agent_container_times_t times;
    int rc;
    bus_error_t err;
} s_create_t;

static void
s_create_destroy(s_create_t **create_p)
{
    s_create_t *create = *create_p;
    if (!create)
        return;
    agent_accel_mps_start_done(&create->mps_start);
    agent_container_destroy(&create->container);
    agent_spec_destroy(&create->spec);
    free(create->image);
    free(create->session_type);
    free(create->startup_command);
    free(create->model_service);
    free(create->slots_text);
    free(create->accel_text);
    free(create);
    *create_p = NULL;
}

//  On the worker: the kernel on the host, or nothing of it.
static void
s_create_run(void *job, void *context)
{
    s_create_t *create = job;
    //  A client that starts before its MPS daemon's socket is there runs
    //  without MPS, and so without its limits: the daemon first.
    if (create->mps_start)
        create->rc = agent_accel_mps_start_run(create->mps_start, &create->err);
    if (create->rc == BUS_OK)
        create->rc = agent_containers_setup(
            context, create->container, &create->spec->image, &create->spec->kernel,
            create->spec->bootstrap, &create->times, &create->err);
    if (create->rc != BUS_OK)
        agent_containers_release(context, create->container, 0, NULL, NULL);
}

//  Writes the kernel's row and emits kernel.started in one transaction.
static int
s_record(agent_kernels_t *self, s_create_t *create, bus_error_t *err)
{
    agent_kernel_t *kernel = create->kernel;
    proto_kernel_started_t event;
    proto_kernel_started_init(&event);
    event.kernel_id = kernel->id;
    event.session_id = kernel->session_id;
    event.agent_id = bus_node_name(self->node);
    event.container_id = kernel->id;
    event.kernel_host = kernel->ip;
    event.at = bus_clock_wall_us();
    agent_db_kernel_t row = {
        .id = kernel->id,
        .session_id = kernel->session_id,
        .image = create->image,
        .digest = kernel->digest,
        .ip = kernel->ip,
        .session_type = create->session_type,
        .created_at = event.at,
        .slots = create->slots_text,
        .accel = create->accel_text,
        .model_service = create->model_service,
    };
    bool done = false;
    if (bus_node_begin(self->node) == 0) {
        done = agent_db_kernel_insert(bus_node_db(self->node), &row) == 0 &&
               agent_events_started(self->node, &event) == 0;
        if (done)
            done = bus_node_commit(self->node) == 0;
        else
            bus_node_rollback(self->node);
    }
    if (!done)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot record kernel %s",
                             kernel->id);
    kernel->recorded = true;
    return BUS_OK;
}

//  On the loop: the kernel recorded and announced, or ended.
static void
s_create_done(void *job, bool ran)
{
    s_create_t *create = job;
    agent_kernels_t *self = create->self;
    agent_kernel_t *kernel = create->kernel;
    agent_accel_mps_start_done(&create->mps_start); //  the daemon is its GPU's now
    if (!ran) {
        //  The agent stops before it began: nothing was made, and the
        //  create goes unanswered, as if still queued (agent_kernel_drop).
        agent_kernel_drop(kernel);
        agent_kernels_finish(self, kernel, AGENT_RUNC_EXIT_UNKNOWN, NULL);
        s_create_destroy(&create);
        return;
    }
    if (create->rc != BUS_OK) {
        agent_kernels_make_spares(self); //  for the next create, in its place
        //  Its job gave back what it took on the host; the rest goes here.
        bus_log_warning("kernel create failed kernel=%s detail=\"%s\"", kernel->id,
                        create->err.detail);
        agent_kernels_finish(self, kernel, AGENT_RUNC_EXIT_UNKNOWN, &create->err);
        s_create_destroy(&create);
        return;
    }
    agent_kernels_give_back(self, kernel, &create->container);
    snprintf(kernel->ip, sizeof kernel->ip, "%s", kernel->container->ip);
    kernel->state = AGENT_KERNEL_RUNNING;
    bus_error_t err = {0};
    char *socket = agent_runc_kernel_path(self->runc, kernel->id, "run/runner.sock");
    int rc = socket ? agent_kernels_runner_start(self, kernel, socket, &err)
                    : bus_error_set(&err, BUS_STATUS_INTERNAL, "out of memory");
    zstr_free(&socket);
    if (rc == BUS_OK)
        rc = s_record(self, create, &err);
    if (rc != BUS_OK) {
        //  Not recorded: ended with nothing to announce, answered once over.
        bus_log_warning("kernel create failed kernel=%s detail=\"%s\"", kernel->id,
                        err.detail);
        agent_kernel_mark(kernel, AGENT_KERNEL_WAIT_CREATE, rc, err.detail);
        agent_kernels_end(self, kernel, 0, "failed-to-start", err.detail,
                          AGENT_RUNC_EXIT_UNKNOWN, false);
        agent_kernels_make_spares(self);
        s_create_destroy(&create);
        return;
    }
    zhashx_delete(self->ended, kernel->id);
    int64_t now = bus_clock_mono_us();
    const agent_container_times_t *t = &create->times;
    bus_log_notice(
        "kernel started kernel=%s session=%s image=%s pid=%d ip=%s accel=\"%s\""
        " queue_ms=%.1f prepare_ms=%.1f net_ms=%.1f runc_ms=%.1f runner_ms=%.1f"
        " record_ms=%.1f",
        kernel->id, kernel->session_id, create->image, kernel->pid, kernel->ip,
        create->accel_text, (t->begun - create->submitted) / 1e3,
        ((create->submitted - create->begun) + (t->prepared - t->begun)) / 1e3,
        (t->net - t->prepared) / 1e3, (t->runc - t->net) / 1e3,
        (t->runner - t->runc) / 1e3, (now - t->runner) / 1e3);
    agent_kernels_started(self, kernel, create->startup_command,
                          AGENT_KERNEL_WAIT_CREATE);
    //  The next create's spare, in this one's place, once this one is
    //  announced: made on the worker, it would otherwise take a core from
    //  the runner's start and the hops that answer the client.
    agent_kernels_make_spares(self);
    if (create->model_service && kernel->state == AGENT_KERNEL_RUNNING && kernel->runner)
        kernel->model = agent_model_start(self, kernel, create->model_service);
    s_create_destroy(&create);
}

//  Takes in's kernel in hand: its record (CREATING, in the hash), spec and
//  accelerators, then queues its job with req parked. Returns
//  BUS_STATUS_PENDING_, or an error with nothing kept.
static int
s_start(agent_kernels_t *self,
        const proto_kernel_create_req_t *in,
        bus_rpc_request_t *req,
        bus_error_t *err)
{
    int64_t begun = bus_clock_mono_us();
    const agent_image_t *image = agent_images_find(self->images, in->image);
    if (!image)
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "no such image: %s", in->image);
    //  The model service as it will run: a runtime variant's takes the
    //  image's own command.
    char *model_service = NULL;
    if (in->model_service &&
        (!(model_service = agent_model_resolve(in->model_service, &image->info, err)) ||
         agent_model_check(model_service, err) != BUS_OK)) {
        free(model_service);
        return err->status;
    }
    agent_spec_t *spec = agent_spec_new(in, image, self->config, err);
    if (!spec) {
        free(model_service);
        return err->status;
    }
    s_create_t *create = calloc(1, sizeof *create);
    agent_kernel_t *kernel =
        create ? agent_kernel_new(self, in->kernel_id, in->session_id, image->info.digest)
               : NULL;
    if (!kernel) {
        agent_spec_destroy(&spec);
        free(create);
        free(model_service);
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    snprintf(kernel->hostname, sizeof kernel->hostname, "%s", spec->hostname);
    zhashx_insert(self->kernels, kernel->id, kernel);
    create->self = self;
    create->kernel = kernel;
    create->spec = spec;
    create->begun = begun;
    //  Its accelerators first: a create that cannot have them does nothing else.
    agent_accel_alloc_t alloc;
    char **accel_env = NULL, **nodes = NULL;
    int rc = agent_accel_allocate(self->accel, kernel->id, in->slots, in->slots_count,
                                  &alloc, err);
    if (rc == BUS_OK) {
        create->accel_text = agent_accel_allocation_format(self->accel, &alloc);
        accel_env = agent_accel_environ(self->accel, &alloc);
        nodes = agent_accel_device_nodes(self->accel, &alloc);
        create->slots_text = agent_spec_slots_json(in);
        create->image = strdup(in->image);
        create->session_type =
            strdup(in->session_type ? in->session_type : "interactive");
        bool batch = in->session_type && strcmp(in->session_type, "batch") == 0 &&
                     in->startup_command && *in->startup_command;
        create->startup_command = batch ? strdup(in->startup_command) : NULL;
        create->model_service = model_service;
        model_service = NULL;
        if (!create->accel_text || !accel_env || !nodes || !create->slots_text ||
            !create->image || !create->session_type ||
            (batch && !create->startup_command))
            rc = bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    }
    free(model_service); //  when the accelerators were refused
    if (rc == BUS_OK)
        rc = agent_kernel_gpu_setup(self, kernel->id, &alloc, in, spec, &accel_env,
                                    &create->mps_start, err);
    if (rc == BUS_OK)
        rc = agent_spec_set_accel(spec, in, accel_env, nodes, err);
    agent_accel_strv_destroy(&accel_env);
    agent_accel_strv_destroy(&nodes);
    if (rc == BUS_OK)
        rc = agent_kernel_wait(kernel, req, AGENT_KERNEL_WAIT_CREATE, err);
    if (rc != BUS_STATUS_PENDING_) {
        bus_log_warning("kernel create failed kernel=%s detail=\"%s\"", kernel->id,
                        err->detail);
        agent_kernels_finish(self, kernel, AGENT_RUNC_EXIT_UNKNOWN, err);
        s_create_destroy(&create);
        return rc;
    }
    create->container = agent_kernels_lend(self, kernel);
    create->submitted = bus_clock_mono_us();
    agent_kernels_submit(self, s_create_run, s_create_done, create);
    return BUS_STATUS_PENDING_;
}

//  ---------------------------------------------------------------------------
//  The kernel.create handler.

int
agent_kernel_create_on_create(void *arg,
                              const proto_kernel_create_req_t *in,
                              proto_kernel_create_rep_t *out,
                              bus_rpc_request_t *req,
                              bus_error_t *err)
{
    agent_kernels_t *self = arg;
    int rc = BUS_OK;
    agent_kernel_t *kernel = NULL;
    if (agent_kernels_check_addressee(self, in->agent_id, err) != BUS_OK)
        rc = BUS_STATUS_UNAVAILABLE; //  meant for another agent
    else if (!agent_bundle_id_valid(in->kernel_id))
        rc = bus_error_set(err, BUS_STATUS_INVALID, "invalid kernel id");
    else if ((kernel = zhashx_lookup(self->kernels, in->kernel_id))) {
        if (kernel->state == AGENT_KERNEL_CREATING)
            //  Sent again while it is being made: answered with the first.
            rc = agent_kernel_wait(kernel, req, AGENT_KERNEL_WAIT_CREATE, err);
        else if (kernel->state == AGENT_KERNEL_ENDING)
            rc = bus_error_set(err, BUS_STATUS_CONFLICT, "kernel %s already ended",
                               in->kernel_id);
        else {
            //  Idempotent: what it has.
            out->kernel_id = kernel->id;
            out->container_id = kernel->id;
            out->kernel_host = kernel->ip;
        }
    } else if (zhashx_lookup(self->ended, in->kernel_id))
        //  A create sent again after the kernel ended (the scheduler's
        //  reconciliation, a retry): a batch task must not run twice.
        rc = bus_error_set(err, BUS_STATUS_CONFLICT, "kernel %s already ended",
                           in->kernel_id);
    else
        rc = s_start(self, in, req, err);
    return rc;
}
