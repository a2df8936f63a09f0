/*  =========================================================================
    wsp_pick_test - how a model service's endpoint picks a replica for each
    request (wsp_route_pick): clients under load stay with one replica each,
    spread evenly, and move when a replica joins or leaves; a lone client's
    requests follow the traffic ratios; a retry goes elsewhere when it can

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "wsp_classes.h"
#include "t.h"

#define REPLICAS_MAX 4
#define CLIENTS      6

typedef struct {
    wsp_route_t route;
    wsp_target_t targets[REPLICAS_MAX];
} endpoint_t;

//  An endpoint of count replicas "r0".. with the given ratios.
static void
s_endpoint(endpoint_t *e, size_t count, const double *ratios)
{
    memset(e, 0, sizeof *e);
    for (size_t i = 0; i < count; i++) {
        wsp_target_t *t = &e->targets[i];
        snprintf(t->route_id, sizeof t->route_id, "r%zu", i);
        t->ratio = ratios[i];
        t->addr_len = sizeof(struct sockaddr_in); //  resolves
    }
    e->route.targets = e->targets;
    e->route.target_count = count;
}

//  A client connection: the replica it uses (-1: none yet), whether a
//  request of its is in flight, and how often it changed replica.
typedef struct {
    int replica;
    bool waiting;
    int moves;
} client_t;

static int
s_index(endpoint_t *e, const wsp_target_t *t)
{
    return t ? (int) (t - e->targets) : -1;
}

//  One step of clients under load: a client whose request is in flight
//  gets its answer; one that waits for none sends its next request (picked
//  and bound as wsp_conn does). Which client moves is random: answers
//  come back in any order.
static void
s_step(endpoint_t *e, client_t *clients, size_t count)
{
    client_t *c = &clients[(size_t) rand() % count];
    if (c->waiting) {
        wsp_route_release(&e->route, e->targets[c->replica].route_id);
        c->waiting = false;
        return;
    }
    const char *stay = c->replica >= 0 ? e->targets[c->replica].route_id : NULL;
    int picked = s_index(e, wsp_route_pick(&e->route, stay, NULL));
    T_ASSERT(picked >= 0);
    if (picked != c->replica) {
        wsp_route_bind(&e->route, stay, e->targets[picked].route_id);
        c->moves += c->replica >= 0;
        c->replica = picked;
    }
    c->waiting = true;
}

static int
s_moves(const client_t *clients, size_t count)
{
    int moves = 0;
    for (size_t i = 0; i < count; i++)
        moves += clients[i].moves;
    return moves;
}

//  Six clients under load on three replicas: two each, from their first
//  requests on, and none moves again; no replica has more than its two
//  clients' requests in flight.
static void
test_clients_spread(void)
{
    endpoint_t e;
    s_endpoint(&e, 3, (double[]){1, 1, 1});
    client_t clients[CLIENTS];
    for (size_t i = 0; i < CLIENTS; i++)
        clients[i] = (client_t){-1, false, 0};
    srand(7);
    for (int step = 0; step < 30000; step++) {
        s_step(&e, clients, CLIENTS);
        for (size_t i = 0; i < 3; i++)
            T_ASSERT(e.targets[i].in_flight <= 2);
    }
    for (size_t i = 0; i < 3; i++) {
        T_EQ_INT(e.targets[i].bound, 2);
        T_ASSERT(e.targets[i].served > 2000);
    }
    T_EQ_INT(s_moves(clients, CLIENTS), 0);
}

//  Six clients on two replicas, three each; a third replica joins: one
//  client of each moves to it, and no more.
static void
test_replica_joins(void)
{
    endpoint_t e;
    s_endpoint(&e, 3, (double[]){1, 1, 1});
    e.route.target_count = 2;
    client_t clients[CLIENTS];
    for (size_t i = 0; i < CLIENTS; i++)
        clients[i] = (client_t){-1, false, 0};
    srand(11);
    for (int step = 0; step < 10000; step++)
        s_step(&e, clients, CLIENTS);
    T_EQ_INT(e.targets[0].bound, 3);
    T_EQ_INT(e.targets[1].bound, 3);
    e.route.target_count = 3;
    for (int step = 0; step < 10000; step++)
        s_step(&e, clients, CLIENTS);
    for (size_t i = 0; i < 3; i++)
        T_EQ_INT(e.targets[i].bound, 2);
    T_EQ_INT(s_moves(clients, CLIENTS), 2);
    //  One taken out (a ratio of 0): its clients go to the two left.
    e.targets[2].ratio = 0;
    for (int step = 0; step < 10000; step++)
        s_step(&e, clients, CLIENTS);
    T_EQ_INT(e.targets[0].bound + e.targets[1].bound, CLIENTS);
    T_ASSERT(e.targets[0].bound == 3 && e.targets[1].bound == 3);
}

//  Four clients on replicas of ratios 1 and 3: one and three.
static void
test_clients_by_ratio(void)
{
    endpoint_t e;
    s_endpoint(&e, 2, (double[]){1, 3});
    client_t clients[4];
    for (size_t i = 0; i < 4; i++)
        clients[i] = (client_t){-1, false, 0};
    srand(3);
    for (int step = 0; step < 20000; step++)
        s_step(&e, clients, 4);
    T_EQ_INT(e.targets[0].bound, 1);
    T_EQ_INT(e.targets[1].bound, 3);
}

//  A lone client's requests, one at a time: the ratios' shares, in runs of
//  at most WSP_ENDPOINT_AFFINITY and a few more on one replica.
static void
test_lone_client_ratios(void)
{
    endpoint_t e;
    s_endpoint(&e, 3, (double[]){1, 1, 2});
    const char *stay = NULL;
    int run = 0, longest = 0;
    for (int i = 0; i < 4000; i++) {
        const wsp_target_t *t = wsp_route_pick(&e.route, stay, NULL);
        T_ASSERT(t != NULL);
        run = stay && strcmp(stay, t->route_id) == 0 ? run + 1 : 1;
        if (run > longest)
            longest = run;
        if (!stay || strcmp(stay, t->route_id) != 0)
            wsp_route_bind(&e.route, stay, t->route_id);
        stay = t->route_id;
        wsp_route_release(&e.route, t->route_id);
    }
    T_ASSERT(e.targets[0].served >= 950 && e.targets[0].served <= 1050);
    T_ASSERT(e.targets[1].served >= 950 && e.targets[1].served <= 1050);
    T_ASSERT(e.targets[2].served >= 1950 && e.targets[2].served <= 2050);
    T_ASSERT(longest > 1 && longest <= 2 * WSP_ENDPOINT_AFFINITY + 2);
    for (size_t i = 0; i < 3; i++)
        T_EQ_INT(e.targets[i].in_flight, 0);
}

//  A retry avoids the replica that failed while another can take it; the
//  one alone is tried again; none usable: NULL.
static void
test_avoid(void)
{
    endpoint_t e;
    s_endpoint(&e, 2, (double[]){1, 1});
    for (int i = 0; i < 20; i++) {
        const wsp_target_t *t = wsp_route_pick(&e.route, "r0", "r0");
        T_EQ_STR(t ? t->route_id : "", "r1");
    }
    e.targets[1].ratio = 0;
    const wsp_target_t *t = wsp_route_pick(&e.route, NULL, "r0");
    T_EQ_STR(t ? t->route_id : "", "r0");
    e.targets[0].addr_len = 0; //  no longer resolves
    T_ASSERT(wsp_route_pick(&e.route, NULL, "r0") == NULL);
    T_ASSERT(wsp_route_pick(&e.route, NULL, NULL) == NULL);
    //  Releases and binds of a replica not (or no longer) there change nothing.
    wsp_route_release(&e.route, "gone");
    wsp_route_bind(&e.route, "gone", NULL);
    T_EQ_INT(e.targets[0].in_flight, 1);
}

int
main(void)
{
    T_RUN(test_clients_spread);
    T_RUN(test_replica_joins);
    T_RUN(test_clients_by_ratio);
    T_RUN(test_lone_client_ratios);
    T_RUN(test_avoid);
    return T_DONE();
}
