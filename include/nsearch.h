/*
 * nsearch.h — fixed-radius neighbour search in 2D with a counting-sort cell grid.
 *
 * Points are given as two float arrays (x, y) in any units. The grid's cell size is
 * the search radius, so the neighbours of a point lie in its own cell and the 8
 * around it. nsearch_build() sorts the points into cells (count, prefix sum,
 * scatter: O(n), no hashing) and then writes, for each of the first `nquery`
 * points, the indices of all points j != i with |x_i - x_j|^2 - radius^2 < 1e-6
 * (the criterion of pbf.html) into one flat list: the neighbours of point i are
 * nbr[start[i]] .. nbr[start[i+1]-1], in increasing index order of cell scan.
 * The grid spans the bounding box of the points each build, so points may be
 * anywhere; storage grows as needed and is kept between builds (no allocation
 * once sizes are stable).
 */
#ifndef SWIRL_NSEARCH_H
#define SWIRL_NSEARCH_H

struct nsearch {
    float radius;
    int gw, gh;          /* grid size in cells */
    int ncell_cap;
    int *cell_start;     /* gw*gh+1 prefix sums */
    int *cell_of;        /* cell index of each point */
    int *sorted;         /* point indices sorted by cell */
    int npoint_cap;
    int *start;          /* nquery+1 offsets into nbr */
    int *nbr;            /* neighbour indices */
    int nbr_cap;
};

void nsearch_init(struct nsearch *ns);
void nsearch_free(struct nsearch *ns);
/* Returns 0, or -1 when memory ran out (the lists are then empty). */
int nsearch_build(struct nsearch *ns, const float *x, const float *y, int n, int nquery,
                  float radius);

#endif
