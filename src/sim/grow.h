/*
 * grow.h — private to src/sim: growing an array a solver keeps between steps.
 *
 * The solvers allocate their working storage once and grow it only when a size
 * goes up. SIM_RESIZE(p, count) reallocates the array that the pointer lvalue p
 * points at to count elements of *p's type; when memory runs out it returns -1
 * and leaves p, and the array, as they were. Callers keep their own capacity.
 */
#ifndef SWIRL_SIM_GROW_H
#define SWIRL_SIM_GROW_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Resizes the array whose pointer is stored at slot (an object pointer of any
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

#endif
