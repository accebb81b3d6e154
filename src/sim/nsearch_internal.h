/*
 * nsearch_internal.h — private to src/sim/nsearch*.c (and the tests): one
 * point's neighbours at a time, the query the lists are made of, which the
 * tests hold against a brute-force search; the product takes whole lists
 * (nsearch_build, nsearch_lanes). And what the two files share: the
 * criterion's slack, the growing of an int array.
 */
#ifndef SWIRL_NSEARCH_INTERNAL_H
#define SWIRL_NSEARCH_INTERNAL_H

#include "nsearch.h"

/* The criterion's absolute slack, as in pbf.html: dist2 - radius2 < 1e-6. */
#define NSEARCH_SLACK 1e-6f

/* Resizes *p to n ints unless it already holds that many; 0 or -1. */
int nsearch_grow_ints(int **p, int *cap, int n);

/* After nsearch_grid: an upper bound on the neighbours of point i (the points in
 * the 3x3 cells around it), and the neighbours themselves, written to out (room
 * for nsearch_candidates entries); returns how many. The neighbours are the
 * indices of all points j != i with |x_i - x_j|^2 - radius^2 < 1e-6 (the
 * criterion of pbf.html), in cell-scan order. */
int nsearch_candidates(const struct nsearch *ns, int i);
int nsearch_query(const struct nsearch *ns, int i, int *out);

#endif
