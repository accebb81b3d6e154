/*
 * delayproxy.c — a long link for a real ssh, for the bench: an ssh
 * ProxyCommand that connects to HOST:PORT and carries the bytes both ways,
 * each `delay` seconds late (a plain TCP hop far away, with bandwidth to
 * spare; this kernel has no netem).
 *
 *   ssh -o ProxyCommand='delayproxy [-r RATE] 0.05 %h %p' ...
 *
 * Standard input goes to the socket and the socket to standard output, each
 * byte DELAY seconds after it was read; with -r, what comes from the socket
 * (the server's output) goes out at RATE bytes a second at most, as on a
 * slow link. Ends when both ways have closed and everything on the way has
 * been delivered.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "fifo.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int connect_to(const char *host, const char *port)
{
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *res;
    if (getaddrinfo(host, port, &hints, &res) != 0)
        return -1;
    int fd = -1;
    for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    return fd;
}

/* One way: what is read from `from` reaches `to` `delay` s later. */
struct way {
    int from, to;
    bool open;       /* `from` has not reached its end */
    struct fifo q;
};

/* Writes what is due (at most `most` bytes); false when `to` is gone. */
static bool deliver(struct way *w, double delay, double t, size_t most)
{
    char buf[65536];
    size_t n = 0;
    while (w->q.n && n < sizeof buf && n < most && fifo_first(&w->q) + delay <= t) {
        double at;
        buf[n++] = fifo_pop(&w->q, &at);
    }
    for (size_t off = 0; off < n;) {
        ssize_t k = write(w->to, buf + off, n - off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        off += (size_t)k;
    }
    return true;
}

int main(int argc, char **argv)
{
    double rate = 0.0, credit = 0.0, last = now();
    if (argc == 6 && strcmp(argv[1], "-r") == 0) {
        rate = atof(argv[2]);
        argc -= 2, argv += 2;
    }
    if (argc != 4) {
        fprintf(stderr, "usage: delayproxy [-r RATE] DELAY HOST PORT\n");
        return 2;
    }
    double delay = atof(argv[1]);
    int sock = connect_to(argv[2], argv[3]);
    if (sock < 0) {
        fprintf(stderr, "delayproxy: cannot connect to %s:%s\n", argv[2], argv[3]);
        return 1;
    }
    struct way up = {STDIN_FILENO, sock, true, {0}}, down = {sock, STDOUT_FILENO, true, {0}};
    struct way *ways[2] = {&up, &down};
    for (;;) {
        double t = now();
        credit += rate * (t - last);
        last = t;
        if (credit > rate * 0.002)
            credit = rate * 0.002; /* an idle link saves nothing up */
        size_t most = rate > 0.0 ? (size_t)(credit > 0.0 ? credit : 0.0) : (size_t)-1;
        size_t before = down.q.n;
        if (!deliver(&up, delay, t, (size_t)-1) || !deliver(&down, delay, t, most))
            return 0;
        credit -= (double)(before - down.q.n);
        if (!up.open && !up.q.n)
            shutdown(sock, SHUT_WR);
        if (!up.open && !down.open && !up.q.n && !down.q.n)
            return 0;
        struct pollfd pf[2] = {{up.from, up.open ? POLLIN : 0, 0},
                               {down.from, down.open ? POLLIN : 0, 0}};
        poll(pf, 2, 1);
        for (int k = 0; k < 2; k++) {
            if (!(pf[k].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            char buf[65536];
            ssize_t n = read(ways[k]->from, buf, sizeof buf);
            if (n > 0)
                fifo_push(&ways[k]->q, buf, (size_t)n, now());
            else if (n == 0 || errno != EINTR)
                ways[k]->open = false;
        }
    }
}
