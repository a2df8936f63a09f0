/*  =========================================================================
    bench_relay.h - a bare TCP relay, the reference of the proxy benches
    (header-only: static inline functions)

    A child process accepts on a loopback port and relays each connection
    to one of its targets (the next one, turn about), one thread per
    direction moving bytes with blocking splice through a pipe, nothing
    parsed, nothing checked. What it costs is what a second loopback TCP
    hop costs on this machine: the floor any proxy in user space stands on.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef BENCH_RELAY_H_INCLUDED
#define BENCH_RELAY_H_INCLUDED

#include <arpa/inet.h>
#include <fcntl.h> //  splice
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define BENCH_RELAY_PIPE    (1 << 20)
#define BENCH_RELAY_TARGETS 16

typedef struct {
    int port; //  where it listens
    pid_t pid;
    int targets[BENCH_RELAY_TARGETS]; //  loopback ports
    int target_count;
} bench_relay_t;

typedef struct {
    int from, to;
} bench_relay_way_t;

//  Moves bytes from one socket to the other until the end, then half-closes.
static inline void *
bench_relay_way(void *arg)
{
    bench_relay_way_t *way = arg;
    int pipe_fds[2];
    if (pipe2(pipe_fds, O_CLOEXEC) == 0) {
        fcntl(pipe_fds[1], F_SETPIPE_SZ, BENCH_RELAY_PIPE);
        for (;;) {
            ssize_t n = splice(way->from, NULL, pipe_fds[1], NULL, BENCH_RELAY_PIPE,
                               SPLICE_F_MOVE);
            if (n <= 0)
                break;
            while (n > 0) {
                ssize_t m =
                    splice(pipe_fds[0], NULL, way->to, NULL, (size_t) n, SPLICE_F_MOVE);
                if (m <= 0)
                    break;
                n -= m;
            }
            if (n > 0)
                break;
        }
        close(pipe_fds[0]);
        close(pipe_fds[1]);
    }
    shutdown(way->to, SHUT_WR);
    return NULL;
}

//  One relayed connection: both directions, then both sockets closed.
static inline void *
bench_relay_conn(void *arg)
{
    bench_relay_way_t *up = arg;
    bench_relay_way_t down = {up->to, up->from};
    pthread_t thread;
    if (pthread_create(&thread, NULL, bench_relay_way, up) == 0) {
        bench_relay_way(&down);
        pthread_join(thread, NULL);
    }
    close(up->from);
    close(up->to);
    free(up);
    return NULL;
}

static inline int
bench_relay_connect(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t) port)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && connect(fd, (struct sockaddr *) &addr, sizeof addr) != 0) {
        close(fd);
        fd = -1;
    }
    int one = 1;
    if (fd >= 0)
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

static inline void
bench_relay_serve(bench_relay_t *self, int listener)
{
    for (int next = 0;; next++) {
        int client = accept(listener, NULL, NULL);
        if (client < 0)
            return;
        int one = 1;
        setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        int app = bench_relay_connect(self->targets[next % self->target_count]);
        bench_relay_way_t *up = app >= 0 ? malloc(sizeof *up) : NULL;
        pthread_t thread;
        if (up)
            *up = (bench_relay_way_t){client, app};
        if (!up || pthread_create(&thread, NULL, bench_relay_conn, up) != 0) {
            close(client);
            if (app >= 0)
                close(app);
            free(up);
            continue;
        }
        pthread_detach(thread);
    }
}

//  Starts the relay to self->targets in a child process, as a proxy is
//  one; fills self->port and self->pid. 0 or -1.
static inline int
bench_relay_start(bench_relay_t *self)
{
    int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (listener < 0 || self->target_count < 1 ||
        bind(listener, (struct sockaddr *) &addr, len) != 0 ||
        listen(listener, 64) != 0 ||
        getsockname(listener, (struct sockaddr *) &addr, &len) != 0)
        return -1;
    self->port = ntohs(addr.sin_port);
    fflush(stdout);
    self->pid = fork();
    if (self->pid < 0)
        return -1;
    if (self->pid == 0) {
        bench_relay_serve(self, listener);
        _exit(0);
    }
    close(listener);
    return 0;
}

static inline void
bench_relay_stop(bench_relay_t *self)
{
    if (self->pid > 0) {
        kill(self->pid, SIGKILL);
        waitpid(self->pid, NULL, 0);
        self->pid = 0;
    }
}

#endif
