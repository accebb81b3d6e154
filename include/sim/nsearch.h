/*
 * nsearch.h — fixed-radius neighbour search in 2D with a counting-sort cell grid.
 * Points are two float arrays (x, y) in any units; the cell size is the search
 * radius, so a point's neighbours lie in its own cell and the 8 around it.
 */
#ifndef SWIRL_NSEARCH_H
#define SWIRL_NSEARCH_H

/* The grid spans the bounding box of the points each build, so points may be
 * anywhere; storage grows as needed and is kept between builds (no allocation
 * once sizes are stable). Queries only read the grid, so any number may run at
 * once on different threads. */
struct nsearch {
    float radius;
    int n;               /* points in the grid */
    int gw, gh;          /* grid size in cells */
    double ox, oy;       /* the grid's lower-left corner */
    double inv_cell;     /* 1 / the cell's side */
    int ncell_cap;
    int *cell_start;     /* gw*gh+1 prefix sums */
    int *cell_of;        /* cell index of each point */
    int *sorted;         /* point indices sorted by cell */
    int *rank;           /* where each point is in sorted[] */
    float *sx, *sy;      /* the points' coordinates in sorted order */
    int npoint_cap;
    int *start;          /* nquery+1 offsets into nbr */
    int *nbr;            /* neighbour indices */
    int nbr_cap;
};

#define NSEARCH_MAX_LANES 16

/* Storage for lane lists, owned by the caller (zero it to start; one per thread
 * that builds lists). */
struct nsearch_lanes {
    int *nbr;            /* the lists, slot-major */
    int cap;
    int *scratch;        /* one group's query results */
    int scratch_cap;
    int lanes_most;      /* the widest vectors that make them (0: any the CPU runs) */
};

void nsearch_init(struct nsearch *ns);
void nsearch_free(struct nsearch *ns);
/* Sorts n points into cells of the given radius (count, prefix sum, scatter:
 * O(n), no hashing; the lists are left alone);
 * 0, or -1 (bad arguments, out of memory). */
int nsearch_grid(struct nsearch *ns, const float *x, const float *y, int n, float radius);
/* nsearch_grid in steps, for a caller that knows where its points are and
 * wants to place ranges of them on several threads, over a frame it chooses:
 * nsearch_frame lays the cells over [minx, maxx] x [miny, maxy] (the cell the
 * search radius, as in nsearch_grid) and makes room for n points;
 * nsearch_place puts points [i0, i1) into their cells (disjoint ranges may be
 * placed on different threads at once; a point outside the frame goes to the
 * nearest edge cell, which keeps the lists exact, only longer to scan); once
 * all n are placed, nsearch_sort sorts them into the cells, after which the
 * grid is the one nsearch_grid would have laid over that frame. nsearch_frame
 * returns 0, or -1 (bad arguments, out of memory: then neither of the others
 * may be called). */
int nsearch_frame(struct nsearch *ns, int n, float radius, float minx, float miny, float maxx,
                  float maxy);
void nsearch_place(struct nsearch *ns, const float *x, const float *y, int i0, int i1);
void nsearch_sort(struct nsearch *ns, const float *x, const float *y);

/* For code that handles a group of consecutive points in the lanes of a
 * vector: after nsearch_grid, the lists of points i0 .. i0+lanes-1 (those below nquery;
 * lanes <= NSEARCH_MAX_LANES) into ln->nbr from offset off, slot-major: entry k
 * of lane l at off + k*lanes + l. First *klo slots hold each lane's neighbours
 * below split, then *khi slots the others, each lane's in query order, the rest
 * of a lane's slots filled with pad. 0, or -1 when memory ran out. */
int nsearch_lanes(const struct nsearch *ns, int i0, int lanes, int nquery, int split, int pad,
                  struct nsearch_lanes *ln, int off, int *klo, int *khi);
void nsearch_lanes_free(struct nsearch_lanes *ln);
/* The grid and the flat lists of the first nquery points, into one list: the
 * neighbours of point i are nbr[start[i]] .. nbr[start[i+1]-1]. Returns 0, or
 * -1 when memory ran out (the lists are then empty). */
int nsearch_build(struct nsearch *ns, const float *x, const float *y, int n, int nquery,
                  float radius);

#endif
