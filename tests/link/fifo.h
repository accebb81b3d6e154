/*
 * fifo.h — bytes on their way, for the link tools (linkpty.c, delayproxy.c):
 * a growable ring of bytes, oldest first, each with a time (when it was
 * queued, or when it arrives). Header-only: each tool is one file.
 */
#ifndef SWIRL_TOOLS_FIFO_H
#define SWIRL_TOOLS_FIFO_H

#include <stdio.h>
#include <stdlib.h>

struct fifo {
    char *b;
    double *t;
    size_t cap, head, n;
};

static inline void fifo_push(struct fifo *f, const char *p, size_t n, double t)
{
    if (f->n + n > f->cap) {
        size_t cap = f->cap ? f->cap : 4096;
        while (cap < f->n + n)
            cap *= 2;
        char *b = malloc(cap);
        double *tt = malloc(cap * sizeof *tt);
        if (!b || !tt) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
        for (size_t i = 0; i < f->n; i++) {
            b[i] = f->b[(f->head + i) % f->cap];
            tt[i] = f->t[(f->head + i) % f->cap];
        }
        free(f->b), free(f->t);
        f->b = b, f->t = tt, f->cap = cap, f->head = 0;
    }
    for (size_t i = 0; i < n; i++) {
        size_t k = (f->head + f->n + i) % f->cap;
        f->b[k] = p[i];
        f->t[k] = t;
    }
    f->n += n;
}

static inline char fifo_pop(struct fifo *f, double *t)
{
    char c = f->b[f->head];
    *t = f->t[f->head];
    f->head = (f->head + 1) % f->cap;
    f->n--;
    return c;
}

static inline double fifo_first(const struct fifo *f) { return f->t[f->head]; }

#endif
