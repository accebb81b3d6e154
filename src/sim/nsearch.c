/*
 * nsearch.c — fixed-radius neighbour search with a counting-sort cell grid:
 * exactly the brute-force neighbour sets, as flat lists (see nsearch.h; the
 * lists of a group interleaved in lanes are nsearch_lanes.c's).
 */
#include "nsearch.h"
#include "nsearch_internal.h"
#include "sim_internal.h"
#include "simd.h"

#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Relative widening of the cell over the criterion's reach (float rounding). */
#define NSEARCH_CELL_MARGIN 1e-4
/* Grid budget: at most this many cells per point, and never less than the floor. */
#define NSEARCH_CELLS_PER_POINT 4.0
#define NSEARCH_MIN_CELL_BUDGET 65536.0
/* Candidates a query tests at a time (match_run). */
#define NSEARCH_CHUNK 64
/* Growth factor of the neighbour list when it fills up. */
#define NSEARCH_GROWTH 2

void nsearch_init(struct nsearch *ns)
{
    memset(ns, 0, sizeof *ns);
}

void nsearch_free(struct nsearch *ns)
{
    free(ns->cell_start);
    free(ns->cell_of);
    free(ns->sorted);
    free(ns->rank);
    free(ns->sx);
    free(ns->sy);
    free(ns->start);
    free(ns->nbr);
    nsearch_init(ns);
}

int nsearch_grow_ints(int **p, int *cap, int n)
{
    if (n <= *cap)
        return 0;
    if (SIM_RESIZE(*p, (size_t)n) != 0)
        return -1;
    *cap = n;
    return 0;
}

/* Room for n points: cell_of and sorted, and the n+1 list offsets. */
static int grow_points(struct nsearch *ns, int n)
{
    if (n <= ns->npoint_cap)
        return 0;
    if (SIM_RESIZE(ns->cell_of, (size_t)n) != 0 || SIM_RESIZE(ns->sorted, (size_t)n) != 0 ||
        SIM_RESIZE(ns->rank, (size_t)n) != 0 || SIM_RESIZE(ns->sx, (size_t)n) != 0 ||
        SIM_RESIZE(ns->sy, (size_t)n) != 0 || SIM_RESIZE(ns->start, (size_t)n + 1) != 0)
        return -1;
    ns->npoint_cap = n;
    return 0;
}

/* Leaves empty lists behind after a failure (when there is room to say so). */
static int fail(struct nsearch *ns, int nquery)
{
    if (ns->start && nquery >= 0 && nquery < ns->npoint_cap + 1)
        memset(ns->start, 0, ((size_t)nquery + 1) * sizeof *ns->start);
    return -1;
}

/* Each build lays a grid of gw x gh square cells over the bounding box of the
 * finite points (or over the caller's frame, nsearch_frame), cell (cx, cy)
 * having index cy*gw + cx and its lower-left corner at (ox + cx*cell,
 * oy + cy*cell). Placing a point computes its cell (clamped into the grid: a
 * point beyond an edge shares the edge cell with its neighbours there, so the
 * lists stay exact). Points with a NaN or infinite coordinate go to a clamped
 * cell and match nothing (their distances are never below the radius). Cell
 * coordinates are computed in double so that a point's cell is exact to far
 * below the margin. */

/* Cell coordinate along one axis, clamped to [0, ncell-1]; NaN goes to 0. */
static int cell_coord(float v, double lo, double inv_cell, int ncell)
{
    double c = ((double)v - lo) * inv_cell;
    if (!(c >= 0.0))
        return 0;
    if (c >= (double)(ncell - 1))
        return ncell - 1;
    return (int)c;
}

/* The bounding box of the finite points (all 0 when there are none). */
struct bounds {
    double minx, miny, maxx, maxy;
};

static struct bounds finite_bounds(const float *x, const float *y, int n)
{
    struct bounds b = {0.0, 0.0, 0.0, 0.0};
    bool any = false;
    for (int i = 0; i < n; i++) {
        if (!isfinite(x[i]) || !isfinite(y[i]))
            continue;
        if (!any) {
            b.minx = b.maxx = x[i];
            b.miny = b.maxy = y[i];
            any = true;
        }
        b.minx = x[i] < b.minx ? x[i] : b.minx;
        b.maxx = x[i] > b.maxx ? x[i] : b.maxx;
        b.miny = y[i] < b.miny ? y[i] : b.miny;
        b.maxy = y[i] > b.maxy ? y[i] : b.maxy;
    }
    return b;
}

/* The cell is the search radius widened to the reach of the criterion
 * dist2 - radius2 < 1e-6 (plus a relative margin for float rounding), so the
 * result is exactly the brute-force set. If a far-flung point would make the
 * grid huge, the cell doubles until the grid fits a budget proportional to the
 * point count: the lists stay exact, only the scan gets longer. */

/* The cell size: the criterion's reach, doubled while a grid over b would be
 * over the budget for n points. Sets gw and gh. */
static double choose_cell(struct nsearch *ns, struct bounds b, float radius2, int n)
{
    double cell = sqrt((double)radius2 + NSEARCH_SLACK) * (1.0 + NSEARCH_CELL_MARGIN);
    double budget = NSEARCH_CELLS_PER_POINT * n;
    if (budget < NSEARCH_MIN_CELL_BUDGET)
        budget = NSEARCH_MIN_CELL_BUDGET;
    double fw, fh;
    for (;;) {
        fw = floor((b.maxx - b.minx) / cell) + 1.0;
        fh = floor((b.maxy - b.miny) / cell) + 1.0;
        if (fw * fh <= budget)
            break;
        cell *= 2.0;
    }
    ns->gw = (int)fw;
    ns->gh = (int)fh;
    return cell;
}

void nsearch_place(struct nsearch *ns, const float *x, const float *y, int i0, int i1)
{
    const double ox = ns->ox, oy = ns->oy, inv_cell = ns->inv_cell;
    const int gw = ns->gw, gh = ns->gh;
    int *restrict cell_of = ns->cell_of;
    for (int i = i0; i < i1; i++)
        cell_of[i] = cell_coord(y[i], oy, inv_cell, gh) * gw + cell_coord(x[i], ox, inv_cell, gw);
}

/* Counting sort of the n points, placed, into the gw x gh cells: count per
 * cell, inclusive prefix sum (cell ends), then a backwards scatter that leaves
 * cell_start[c] at the start of cell c and the points of a cell in increasing
 * index: sorted[cell_start[c] .. cell_start[c+1]-1], with their coordinates
 * beside them (sx, sy) and each point's place in rank[]. The cells of one grid
 * row are contiguous in sorted[], so the 3x3 block around a point is three
 * contiguous runs, and a query reads coordinates from them in order. */
void nsearch_sort(struct nsearch *ns, const float *x, const float *y)
{
    const int ncell = ns->gw * ns->gh, n = ns->n;
    int *cs = ns->cell_start;
    memset(cs, 0, ((size_t)ncell + 1) * sizeof *cs);
    for (int i = 0; i < n; i++)
        cs[ns->cell_of[i]]++;
    for (int c = 1; c < ncell; c++)
        cs[c] += cs[c - 1];
    cs[ncell] = n;
    for (int i = n - 1; i >= 0; i--) {
        const int k = --cs[ns->cell_of[i]];
        ns->sorted[k] = i;
        ns->rank[i] = k;
        ns->sx[k] = x[i];
        ns->sy[k] = y[i];
    }
}

/* Room in nbr for len + more entries (growing by NSEARCH_GROWTH); 0 or -1. */
static int reserve_nbr(struct nsearch *ns, int len, int more)
{
    if ((long long)len + more > INT_MAX)
        return -1;
    if (len + more <= ns->nbr_cap)
        return 0;
    long long want = (long long)ns->nbr_cap * NSEARCH_GROWTH;
    if (want < len + more)
        want = len + more;
    if (want > INT_MAX)
        want = INT_MAX;
    return nsearch_grow_ints(&ns->nbr, &ns->nbr_cap, (int)want);
}

/* The cells around point i's own, clamped to the grid. */
struct block {
    int x0, x1, y0, y1;
};

static struct block block_of(const struct nsearch *ns, int i)
{
    const int c = ns->cell_of[i];
    const int cx = c % ns->gw, cy = c / ns->gw;
    return (struct block){cx > 0 ? cx - 1 : 0, cx < ns->gw - 1 ? cx + 1 : cx,
                          cy > 0 ? cy - 1 : 0, cy < ns->gh - 1 ? cy + 1 : cy};
}

int nsearch_candidates(const struct nsearch *ns, int i)
{
    const int *cs = ns->cell_start;
    const struct block b = block_of(ns, i);
    int candidates = 0;
    for (int row = b.y0; row <= b.y1; row++)
        candidates += cs[row * ns->gw + b.x1 + 1] - cs[row * ns->gw + b.x0];
    return candidates;
}

/* The matches among sorted positions [k0, k1) (self: the query's own place),
 * appended to out; returns how many. In chunks: first the criterion for
 * every candidate (a loop over contiguous coordinates, vectorized), then a
 * branch-free compaction (always write, advance on a match: out has room for
 * every candidate). */
static int match_run(const float *restrict sx, const float *restrict sy,
                     const int *restrict sorted, int k0, int k1, float xi, float yi,
                     float radius2, int self, int *restrict out)
{
    int len = 0;
    for (int c0 = k0; c0 < k1; c0 += NSEARCH_CHUNK) {
        const int c1 = c0 + NSEARCH_CHUNK < k1 ? c0 + NSEARCH_CHUNK : k1;
        int ok[NSEARCH_CHUNK];
        for (int k = c0; k < c1; k++) {
            const float dx = xi - sx[k], dy = yi - sy[k];
            ok[k - c0] = (k != self) & (dx * dx + dy * dy - radius2 < NSEARCH_SLACK);
        }
        for (int k = c0; k < c1; k++) {
            const int j = sorted[k];
            out[len] = j;
            len += ok[k - c0];
        }
    }
    return len;
}

/* A point's 3x3 block of cells as the runs of sorted positions of its rows
 * (bottom to top; fewer at the grid's edges), and how many they hold. */
struct runs {
    int nrow, total;
    int k0[3], k1[3];
};

static void runs_of(const struct nsearch *ns, int i, struct runs *r)
{
    const int *cs = ns->cell_start;
    const struct block b = block_of(ns, i);
    r->nrow = r->total = 0;
    for (int row = b.y0; row <= b.y1; row++, r->nrow++) {
        r->k0[r->nrow] = cs[row * ns->gw + b.x0];
        r->k1[r->nrow] = cs[row * ns->gw + b.x1 + 1];
        r->total += r->k1[r->nrow] - r->k0[r->nrow];
    }
}

/* The matches of point i among its runs into out; returns how many
 * (cell-scan order: rows bottom to top, cells left to right, then point
 * index). */
static int query_runs(const struct nsearch *ns, const struct runs *r, int i, int *out)
{
    const int self = ns->rank[i];
    const float xi = ns->sx[self], yi = ns->sy[self], radius2 = ns->radius * ns->radius;
    int len = 0;
    for (int m = 0; m < r->nrow; m++)
        len += match_run(ns->sx, ns->sy, ns->sorted, r->k0[m], r->k1[m], xi, yi, radius2, self,
                         out + len);
    return len;
}

/* A query lists the neighbours of one point in cell-scan order. */
int nsearch_query(const struct nsearch *ns, int i, int *out)
{
    struct runs r;
    runs_of(ns, i, &r);
    return query_runs(ns, &r, i, out);
}

/* nsearch_build's flat lists are the queries of the first nquery points one
 * after the other: the neighbours of i are nbr[start[i] .. start[i+1]-1]. Lane
 * lists (nsearch_lanes) interleave the queries of a group of points: slot k of
 * every lane side by side, the lanes padded to the longest. All arrays grow
 * with realloc and are kept. */

/* The neighbour lists of the first nquery points, one query after the other;
 * 0 or -1. */
static int list_neighbours(struct nsearch *ns, int nquery)
{
    int len = 0;
    for (int i = 0; i < nquery; i++) {
        if (reserve_nbr(ns, len, nsearch_candidates(ns, i)) != 0)
            return -1;
        len += nsearch_query(ns, i, ns->nbr + len);
        ns->start[i + 1] = len;
    }
    return 0;
}

/* The grid over b for n points; 0 or -1. */
static int lay_grid(struct nsearch *ns, int n, float radius, struct bounds b)
{
    ns->n = 0;
    if (n < 0 || !(radius > 0.0f) || !isfinite(radius))
        return -1;
    if (grow_points(ns, n < 1 ? 1 : n) != 0)
        return -1;
    ns->radius = radius;
    const double cell = choose_cell(ns, b, radius * radius, n);
    if (nsearch_grow_ints(&ns->cell_start, &ns->ncell_cap, ns->gw * ns->gh + 1) != 0)
        return -1;
    ns->ox = b.minx;
    ns->oy = b.miny;
    ns->inv_cell = 1.0 / cell;
    ns->n = n;
    return 0;
}

int nsearch_frame(struct nsearch *ns, int n, float radius, float minx, float miny, float maxx,
                  float maxy)
{
    if (!isfinite(minx) || !isfinite(miny) || !isfinite(maxx) || !isfinite(maxy) ||
        !(minx <= maxx) || !(miny <= maxy)) {
        ns->n = 0;
        return -1;
    }
    return lay_grid(ns, n, radius, (struct bounds){minx, miny, maxx, maxy});
}

int nsearch_grid(struct nsearch *ns, const float *x, const float *y, int n, float radius)
{
    if (n < 0 || lay_grid(ns, n, radius, finite_bounds(x, y, n)) != 0)
        return -1;
    nsearch_place(ns, x, y, 0, n);
    nsearch_sort(ns, x, y);
    return 0;
}

int nsearch_build(struct nsearch *ns, const float *x, const float *y, int n, int nquery,
                  float radius)
{
    if (n < 0 || nquery < 0 || nquery > n)
        return fail(ns, 0);
    if (nsearch_grid(ns, x, y, n, radius) != 0)
        return fail(ns, nquery);
    ns->start[0] = 0;
    if (list_neighbours(ns, nquery) != 0)
        return fail(ns, nquery);
    return 0;
}
