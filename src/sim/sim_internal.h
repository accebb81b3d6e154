/*
 * sim_internal.h — private to src/sim: small pieces more than one solver needs
 * (growing storage, a step's stop, the point nearest the pointer).
 */
#ifndef SWIRL_SIM_INTERNAL_H
#define SWIRL_SIM_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The solvers allocate their working storage once and grow it only when a size
 * goes up; callers keep their own capacity. SIM_RESIZE(p, count) reallocates
 * the array that the pointer lvalue p points at to count elements of *p's
 * type; when memory runs out it returns -1 and leaves p, and the array, as
 * they were.
 *
 * Resizes the array whose pointer is stored at slot (an object pointer of any
 * type, read and written as bytes) to count elements of size bytes; 0 or -1. */
static inline int sim_resize(void *slot, size_t count, size_t size)
{
    void *old, *p;
    if (size != 0 && count > SIZE_MAX / size)
        return -1;
    memcpy(&old, slot, sizeof old);
    p = realloc(old, count * size);
    if (!p)
        return -1;
    memcpy(slot, &p, sizeof p);
    return 0;
}

#define SIM_RESIZE(p, count) sim_resize(&(p), (count), sizeof *(p))

/* A step's "stop now" (a params' stop field): raised by another thread or a
 * signal handler; NULL never is. Relaxed: it orders nothing, and a step that
 * sees it late only runs one more iteration. */
static inline bool sim_stopped(const atomic_int *stop)
{
    return stop && atomic_load_explicit(stop, memory_order_relaxed) != 0;
}

/* For the pointer (pbf_nearest, cloth_nearest): the index of the point among
 * structure-of-arrays points (x[i], y[i]), i < n, nearest (px, py) and at most
 * maxdist from it, the lowest index of those equally near; -1 when there is
 * none (or maxdist is negative or NaN). */
static inline int sim_nearest(const float *x, const float *y, int n, float px, float py,
                              float maxdist)
{
    if (!(maxdist >= 0.0f))
        return -1;
    int best = -1;
    float best2 = maxdist * maxdist;
    for (int i = 0; i < n; i++) {
        const float dx = x[i] - px, dy = y[i] - py;
        const float d2 = dx * dx + dy * dy;
        if (d2 < best2 || (best < 0 && d2 == best2)) {
            best = i;
            best2 = d2;
        }
    }
    return best;
}

#endif
