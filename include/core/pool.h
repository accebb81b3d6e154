/*
 * pool.h — a small pool of worker threads, started once, for the solvers.
 * The caller splits work into a fixed number of parts, independent of the
 * thread count, so a solver can give the same bits on any number of threads.
 */
#ifndef SWIRL_POOL_H
#define SWIRL_POOL_H

#include <pthread.h>

#define POOL_MAX_THREADS 64

struct pool;

/* pthread_create for a helper thread (a worker, the input watcher): it takes
 * none of the process's signals (their handlers set flags the main thread
 * must wake up for), only those of its own faults. */
int pool_thread_start(pthread_t *th, void *(*fn)(void *), void *arg);

/* threads >= 1 (the caller counts as one); NULL when out of memory or threads
 * cannot start. */
struct pool *pool_create(int threads);
void pool_destroy(struct pool *p);
/* 1 for a NULL pool. */
int pool_threads(const struct pool *p);
/* How many of its threads take parts from the next pool_run on: the caller
 * and the first n - 1 workers (n clamped to 1 .. pool_threads; all at the
 * start); the others sleep until they are let in again. The parts and what
 * they compute are the same, so a solver's bits are too: a frame loop may
 * pick the count that runs fastest on a machine it shares. One thread at a
 * time calls it, between jobs (as pool_run). pool_used: the count (1 for a
 * NULL pool). */
void pool_use(struct pool *p, int n);
int pool_used(const struct pool *p);
/* fn(arg, part, nparts) for part = 0 .. nparts-1, in any order and on any
 * thread; returns when every part has run. Never allocates. A solver that
 * writes each part's results to its own place and combines them in part order
 * gets the same bits whatever the thread count. The parts are dealt out in
 * contiguous shares, one a thread (pool_span), and a thread whose share is done
 * takes over others' last parts: so the same part mostly runs on the same
 * thread job after job (its data stays in that core's cache), and a slow
 * thread's parts are not waited for. Idle workers sleep (a paused swirl uses no
 * CPU). A NULL pool runs the parts in order on the calling thread. One thread
 * at a time calls pool_run() on a pool, and fn never calls it on the same pool. */
void pool_run(struct pool *p, void (*fn)(void *arg, int part, int nparts), void *arg,
              int nparts);

/* The usual way to cut n rows into the parts: part `part` of n items cut into
 * nparts runs as even as can be: items
 * [*lo, *hi), possibly empty; a function of (n, part, nparts) alone. */
static inline void pool_span(int n, int part, int nparts, int *lo, int *hi)
{
    *lo = (int)((long long)n * part / nparts);
    *hi = (int)((long long)n * (part + 1) / nparts);
}

#endif
