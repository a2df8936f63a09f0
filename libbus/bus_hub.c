/*  =========================================================================
    bus_hub - XSUB/XPUB forwarder in a zactor

    The actor binds both sockets itself (sockets stay in the thread that
    uses them) and reports the resolved endpoints over its pipe. The loop
    drains each readable socket in batches before polling again, which is
    what lets one thread forward millions of small frames a second.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"

#define HUB_BATCH 1024

struct _bus_hub_t {
    zactor_t *actor;
    char publish_endpoint[256];
    char subscribe_endpoint[256];
    char local_publish[64]; //  inproc twins, for the node in the hub's process
    char local_subscribe[64];
    uint64_t forwarded;
};

typedef struct {
    const char *publish;
    const char *subscribe;
    const bus_curve_t *curve;
    bus_hub_t *hub;
} hub_args_t;

//  Moves up to HUB_BATCH whole messages from one socket to the other.
//  Returns the number moved; -1 when the context is terminating.
static int
s_forward(void *from, void *to, zmq_msg_t *msg)
{
    int moved = 0;
    while (moved < HUB_BATCH) {
        if (zmq_msg_recv(msg, from, ZMQ_DONTWAIT) < 0)
            return zmq_errno() == EAGAIN ? moved : -1;
        bool more = zmq_msg_more(msg);
        zmq_msg_send(msg, to, more ? ZMQ_SNDMORE : 0);
        while (more) {
            if (zmq_msg_recv(msg, from, 0) < 0)
                return -1;
            more = zmq_msg_more(msg);
            zmq_msg_send(msg, to, more ? ZMQ_SNDMORE : 0);
        }
        moved++;
    }
    return moved;
}

static void
s_hub_actor(zsock_t *pipe, void *arg)
{
    bus_thread_block_signals();
    hub_args_t *args = arg;
    bus_hub_t *hub = args->hub;
    zsock_t *xsub = bus_socket_bind(ZMQ_XSUB, args->publish, args->curve);
    zsock_t *xpub = bus_socket_bind(ZMQ_XPUB, args->subscribe, args->curve);
    if (!xsub || !xpub) {
        zsock_destroy(&xsub);
        zsock_destroy(&xpub);
        zsock_signal(pipe, 1);
        return;
    }
    bus_socket_endpoint(xsub, hub->publish_endpoint, sizeof hub->publish_endpoint);
    bus_socket_endpoint(xpub, hub->subscribe_endpoint, sizeof hub->subscribe_endpoint);
    //  The node of the hub's own process reaches it in memory: over TCP its
    //  every event took two more thread wake-ups and a loopback trip each way
    //  (about 0.3 ms of a kernel.started's 1.2 ms from the agent to the
    //  scheduler). inproc has no handshake, so no CURVE: it never leaves the
    //  process.
    snprintf(hub->local_publish, sizeof hub->local_publish, "inproc://bus-hub-%p-pub",
             (void *) hub);
    snprintf(hub->local_subscribe, sizeof hub->local_subscribe, "inproc://bus-hub-%p-sub",
             (void *) hub);
    if (zsock_bind(xsub, "%s", hub->local_publish) != 0 ||
        zsock_bind(xpub, "%s", hub->local_subscribe) != 0) {
        zsock_destroy(&xsub);
        zsock_destroy(&xpub);
        zsock_signal(pipe, 1);
        return;
    }
    zsock_signal(pipe, 0);

    zmq_msg_t msg;
    zmq_msg_init(&msg);
    zmq_pollitem_t items[] = {
        {zsock_resolve(pipe), 0, ZMQ_POLLIN, 0},
        {zsock_resolve(xsub), 0, ZMQ_POLLIN, 0},
        {zsock_resolve(xpub), 0, ZMQ_POLLIN, 0},
    };
    while (true) {
        if (zmq_poll(items, 3, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (items[0].revents & ZMQ_POLLIN)
            break; //  $TERM is the only command
        if (items[1].revents & ZMQ_POLLIN) {
            int moved = s_forward(items[1].socket, items[2].socket, &msg);
            if (moved < 0)
                break;
            __atomic_add_fetch(&hub->forwarded, (uint64_t) moved, __ATOMIC_RELAXED);
        }
        if ((items[2].revents & ZMQ_POLLIN) &&
            s_forward(items[2].socket, items[1].socket, &msg) < 0)
            break;
    }
    zmq_msg_close(&msg);
    zsock_destroy(&xsub);
    zsock_destroy(&xpub);
}

bus_hub_t *
bus_hub_new(const char *publish_endpoint,
            const char *subscribe_endpoint,
            const bus_curve_t *curve)
{
    bus_hub_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    hub_args_t args = {publish_endpoint, subscribe_endpoint, curve, self};
    //  zactor_new waits for the actor's first signal, so args outlive its use.
    self->actor = zactor_new(s_hub_actor, &args);
    if (!self->actor || !*self->publish_endpoint) {
        bus_hub_destroy(&self);
        return NULL;
    }
    bus_log_notice("bus hub listening publish=%s subscribe=%s", self->publish_endpoint,
                   self->subscribe_endpoint);
    return self;
}

void
bus_hub_destroy(bus_hub_t **self_p)
{
    assert(self_p);
    if (*self_p) {
        zactor_destroy(&(*self_p)->actor);
        free(*self_p);
        *self_p = NULL;
    }
}

const char *
bus_hub_publish_endpoint(bus_hub_t *self)
{
    return self->publish_endpoint;
}

const char *
bus_hub_subscribe_endpoint(bus_hub_t *self)
{
    return self->subscribe_endpoint;
}

const char *
bus_hub_local_publish_endpoint(bus_hub_t *self)
{
    return self->local_publish;
}

const char *
bus_hub_local_subscribe_endpoint(bus_hub_t *self)
{
    return self->local_subscribe;
}

uint64_t
bus_hub_forwarded(bus_hub_t *self)
{
    return __atomic_load_n(&self->forwarded, __ATOMIC_RELAXED);
}
