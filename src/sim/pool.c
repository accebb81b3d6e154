/*
 * pool.c — worker threads for the solvers (see pool.h).
 *
 * For now every part runs on the calling thread, in order: the interface the
 * solvers are written against, before the threads behind it.
 */
#include "pool.h"

#include <stdlib.h>

struct pool {
    int threads;
};

struct pool *pool_create(int threads)
{
    struct pool *p = calloc(1, sizeof *p);
    if (p)
        p->threads = threads < 1 ? 1 : threads;
    return p;
}

void pool_destroy(struct pool *p) { free(p); }

int pool_threads(const struct pool *p) { return p ? p->threads : 1; }

void pool_run(struct pool *p, void (*fn)(void *arg, int part, int nparts), void *arg,
              int nparts)
{
    (void)p;
    for (int i = 0; i < nparts; i++)
        fn(arg, i, nparts);
}
