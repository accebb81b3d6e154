/*
 * nsearch.c — fixed-radius neighbour search with a counting-sort cell grid:
 * exactly the brute-force neighbour sets, as flat lists or interleaved in
 * lanes (see nsearch.h).
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

/* The criterion's absolute slack, as in pbf.html: dist2 - radius2 < 1e-6. */
#define NSEARCH_SLACK 1e-6f
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

/* Resizes *p to n ints unless it already holds that many; 0 or -1. */
static int grow_ints(int **p, int *cap, int n)
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
    return grow_ints(&ns->nbr, &ns->nbr_cap, (int)want);
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
 * appended to out; returns how many, and adds to *below those of them below
 * split. In chunks: first the criterion for every candidate (a loop over
 * contiguous coordinates, vectorized), then a branch-free compaction (always
 * write, advance on a match: out has room for every candidate). */
static int match_run(const float *restrict sx, const float *restrict sy,
                     const int *restrict sorted, int k0, int k1, float xi, float yi,
                     float radius2, int self, int split, int *restrict out, int *below)
{
    int len = 0, lo = 0;
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
            lo += ok[k - c0] & (j < split);
        }
    }
    *below += lo;
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

/* The matches of point i among its runs into out; returns how many, *below
 * getting those below split (cell-scan order: rows bottom to top, cells left
 * to right, then point index). */
static int query_runs(const struct nsearch *ns, const struct runs *r, int i, int split,
                      int *out, int *below)
{
    const int self = ns->rank[i];
    const float xi = ns->sx[self], yi = ns->sy[self], radius2 = ns->radius * ns->radius;
    int len = 0;
    *below = 0;
    for (int m = 0; m < r->nrow; m++)
        len += match_run(ns->sx, ns->sy, ns->sorted, r->k0[m], r->k1[m], xi, yi, radius2, self,
                         split, out + len, below);
    return len;
}

/* A query lists the neighbours of one point in cell-scan order. */
int nsearch_query(const struct nsearch *ns, int i, int *out)
{
    struct runs r;
    int below;
    runs_of(ns, i, &r);
    return query_runs(ns, &r, i, 0, out, &below);
}

/* Grows an int array to at least need entries (doubling); 0 or -1. */
static int grow_doubling(int **p, int *cap, long long need)
{
    if (need > INT_MAX)
        return -1;
    if (need <= *cap)
        return 0;
    const long long twice = 2LL * *cap;
    return grow_ints(p, cap, (int)(twice > need && twice <= INT_MAX ? twice : need));
}

/*
 * A group's queries at once (lanes of consecutive points, mostly in a few
 * neighbouring cells: the caller keeps its points sorted by cell). The lanes
 * whose cells lie in one row of cells, no more than GROUP_SPAN cells apart,
 * share their blocks: the three rows of cells about theirs, from the leftmost
 * lane's left neighbour to the rightmost's right one. Each candidate there is
 * held against all the lanes at once (a vector compare, match_lanes), and a
 * lane takes the ones it matches in the order the block is scanned, which is
 * its own block's order (a candidate outside a lane's 3x3 cells is more than a
 * cell from it, so it never matches): the same lists as query_runs, made with
 * a fraction of its work. Lanes in rows of their own, or too far apart, are
 * queried one by one.
 */
#define GROUP_MAX NSEARCH_MAX_LANES /* lanes the shared blocks test at once */
#define GROUP_SPAN 6         /* lanes share a block across at most this many cells */

/* For candidates [k0, k0 + n) of the sorted points, which of the GROUP_MAX
 * lanes at (xi, yi) each is a neighbour of (bit l: lane l; a lane at NaN
 * matches nothing): the criterion of match_run, the same float expression. */
typedef void (*match_fn)(const float *restrict sx, const float *restrict sy, int k0, int n,
                         const float *xi, const float *yi, float radius2, unsigned *mask);

#if !SIMD_HAVE_4
static void match_lanes_x1(const float *restrict sx, const float *restrict sy, int k0, int n,
                           const float *xi, const float *yi, float radius2, unsigned *mask)
{
    for (int c = 0; c < n; c++) {
        unsigned m = 0;
        for (int l = 0; l < GROUP_MAX; l++) {
            const float dx = xi[l] - sx[k0 + c], dy = yi[l] - sy[k0 + c];
            m |= (unsigned)(dx * dx + dy * dy - radius2 < NSEARCH_SLACK) << l;
        }
        mask[c] = m;
    }
}
#endif

#if SIMD_HAVE_4
static void match_lanes_x4(const float *restrict sx, const float *restrict sy, int k0, int n,
                           const float *xi, const float *yi, float radius2, unsigned *mask)
{
    f32x4 px[GROUP_MAX / 4], py[GROUP_MAX / 4];
    for (int v = 0; v < GROUP_MAX / 4; v++)
        px[v] = f32x4_load(xi + 4 * v), py[v] = f32x4_load(yi + 4 * v);
    const f32x4 r2 = f32x4_set1(radius2), slack = f32x4_set1(NSEARCH_SLACK);
    for (int c = 0; c < n; c++) {
        const f32x4 cx = f32x4_set1(sx[k0 + c]), cy = f32x4_set1(sy[k0 + c]);
        unsigned m = 0;
        for (int v = 0; v < GROUP_MAX / 4; v++) {
            const f32x4 dx = f32x4_sub(px[v], cx), dy = f32x4_sub(py[v], cy);
            const f32x4 d = f32x4_sub(f32x4_add(f32x4_mul(dx, dx), f32x4_mul(dy, dy)), r2);
            m |= (unsigned)f32x4_mask(f32x4_gt(slack, d)) << (4 * v);
        }
        mask[c] = m;
    }
}
#endif

#if SIMD_HAVE_8
SIMD_TARGET_8 static void match_lanes_x8(const float *restrict sx, const float *restrict sy, int k0,
                                         int n, const float *xi, const float *yi, float radius2,
                                         unsigned *mask)
{
    const f32x8 px0 = f32x8_load(xi), px1 = f32x8_load(xi + 8);
    const f32x8 py0 = f32x8_load(yi), py1 = f32x8_load(yi + 8);
    const f32x8 r2 = f32x8_set1(radius2), slack = f32x8_set1(NSEARCH_SLACK);
    for (int c = 0; c < n; c++) {
        const f32x8 cx = f32x8_set1(sx[k0 + c]), cy = f32x8_set1(sy[k0 + c]);
        const f32x8 dx0 = f32x8_sub(px0, cx), dy0 = f32x8_sub(py0, cy);
        const f32x8 dx1 = f32x8_sub(px1, cx), dy1 = f32x8_sub(py1, cy);
        const f32x8 d0 = f32x8_sub(f32x8_add(f32x8_mul(dx0, dx0), f32x8_mul(dy0, dy0)), r2);
        const f32x8 d1 = f32x8_sub(f32x8_add(f32x8_mul(dx1, dx1), f32x8_mul(dy1, dy1)), r2);
        mask[c] = (unsigned)f32x8_mask(f32x8_gt(slack, d0)) |
                  (unsigned)f32x8_mask(f32x8_gt(slack, d1)) << 8;
    }
}
#endif

/* The widest match_lanes this CPU runs. */
static match_fn match_for(void)
{
#if SIMD_HAVE_8
    if (simd_lanes(8) >= 8)
        return match_lanes_x8;
#endif
#if SIMD_HAVE_4
    return match_lanes_x4;
#else
    return match_lanes_x1;
#endif
}

/* The lists being made, slot-major as nsearch_lanes leaves them: lane l's
 * k-th neighbour below split at lo[k * lanes + l] (room for `most` a lane),
 * the others in the lane's row of hi (hi + l * most), in query order. */
struct group_out {
    int *lo, *hi;
    int *cand;           /* a block's candidates, and what they match (most each) */
    unsigned *mask;
    int lanes, most, split;
    int nlo[GROUP_MAX], nhi[GROUP_MAX];
};

/* The lanes of mask `lanes_in` (all in cell row cy, cells x0+1 .. x1-1) from
 * their shared block: rows cy-1 .. cy+1, cells x0 .. x1 (clamped): each
 * candidate's mask first (a lane's own point cleared), then each candidate to
 * the lanes it matches. */
static void shared_block(const struct nsearch *ns, unsigned lanes_in, int cy, int x0, int x1, int i0,
                         const float *xi, const float *yi, struct group_out *o, match_fn match)
{
    const int *cs = ns->cell_start;
    const float radius2 = ns->radius * ns->radius;
    float mx[GROUP_MAX], my[GROUP_MAX];
    for (int l = 0; l < GROUP_MAX; l++) { /* the other lanes match nothing */
        const bool in = lanes_in >> l & 1u;
        mx[l] = in ? xi[l] : NAN;
        my[l] = in ? yi[l] : NAN;
    }
    x0 = x0 < 0 ? 0 : x0, x1 = x1 > ns->gw - 1 ? ns->gw - 1 : x1;
    const int y0 = cy > 0 ? cy - 1 : 0, y1 = cy < ns->gh - 1 ? cy + 1 : cy;
    const int lanes = o->lanes;
    int *j = o->cand;
    unsigned *mask = o->mask;
    int n = 0;
    for (int row = y0; row <= y1; row++) {
        const int k0 = cs[row * ns->gw + x0], k1 = cs[row * ns->gw + x1 + 1];
        match(ns->sx, ns->sy, k0, k1 - k0, mx, my, radius2, mask + n);
        for (int k = k0; k < k1; k++, n++) {
            j[n] = ns->sorted[k];
            const unsigned self = (unsigned)(j[n] - i0);
            mask[n] &= ~((unsigned)(self < GROUP_MAX) << (self & 31u));
        }
    }
    int nlo[GROUP_MAX];
    memcpy(nlo, o->nlo, sizeof nlo);
    int *restrict lo = o->lo;
    for (int c = 0; c < n; c++) {
        unsigned m = mask[c];
        const int jc = j[c];
        if (jc < o->split)
            for (; m; m &= m - 1) {
                const int l = __builtin_ctz(m);
                lo[nlo[l]++ * lanes + l] = jc;
            }
        else
            for (; m; m &= m - 1) {
                const int l = __builtin_ctz(m);
                o->hi[l * o->most + o->nhi[l]++] = jc;
            }
    }
    memcpy(o->nlo, nlo, sizeof nlo);
}

/* The cells of the group's lanes below nquery (lanes past it: cy -1). */
static void lane_cells(const struct nsearch *ns, int i0, int lanes, int nquery, int *cx, int *cy)
{
    for (int l = 0; l < lanes; l++) {
        const int i = i0 + l, c = i < nquery ? ns->cell_of[i] : -1;
        cx[l] = c < 0 ? -1 : c % ns->gw;
        cy[l] = c < 0 ? -1 : c / ns->gw;
    }
}

/* The lanes that share a block: all in cell row `row`, their cells lo .. hi. */
struct share {
    unsigned in;
    int row, lo, hi;
};

/* The group's lanes below nquery in shares: each with the first lane left and
 * the others in its row of cells that keep the share within GROUP_SPAN cells;
 * returns how many. */
static int group_shares(int lanes, const int *cx, const int *cy, struct share *sh)
{
    unsigned left = 0; /* the lanes not yet in a share */
    for (int l = 0; l < lanes; l++)
        left |= (unsigned)(cy[l] >= 0) << l;
    int n = 0;
    while (left) {
        const int first = __builtin_ctz(left);
        struct share h = {0, cy[first], cx[first], cx[first]};
        for (int l = first; l < lanes; l++) {
            const int a = cx[l] < h.lo ? cx[l] : h.lo, b = cx[l] > h.hi ? cx[l] : h.hi;
            if ((left >> l & 1u) && cy[l] == h.row && b - a <= GROUP_SPAN)
                h.in |= 1u << l, h.lo = a, h.hi = b;
        }
        left &= ~h.in;
        sh[n++] = h;
    }
    return n;
}

/* The candidates of a share's block: rows row-1 .. row+1, cells lo-1 .. hi+1
 * (clamped to the grid). */
static int share_candidates(const struct nsearch *ns, const struct share *h)
{
    const int *cs = ns->cell_start;
    const int x0 = h->lo > 0 ? h->lo - 1 : 0, x1 = h->hi < ns->gw - 1 ? h->hi + 1 : h->hi;
    int n = 0;
    for (int row = h->row > 0 ? h->row - 1 : 0; row <= h->row + 1 && row < ns->gh; row++)
        n += cs[row * ns->gw + x1 + 1] - cs[row * ns->gw + x0];
    return n;
}

/* The group's lists into o: its water part at ln->nbr + off, the rest in
 * ln->scratch; 0 or -1. */
static int group_lists(const struct nsearch *ns, int i0, int nquery, struct nsearch_lanes *ln,
                       int off, struct group_out *o)
{
    const int lanes = o->lanes;
    int cx[GROUP_MAX], cy[GROUP_MAX];
    float xi[GROUP_MAX], yi[GROUP_MAX];
    struct share sh[GROUP_MAX];
    lane_cells(ns, i0, lanes, nquery, cx, cy);
    for (int l = 0; l < GROUP_MAX; l++) {
        const bool in = l < lanes && cy[l] >= 0;
        xi[l] = in ? ns->sx[ns->rank[i0 + l]] : NAN;
        yi[l] = in ? ns->sy[ns->rank[i0 + l]] : NAN;
    }
    const int nsh = group_shares(lanes, cx, cy, sh);
    /* A lane's lists never exceed its block's candidates: `most` of the
     * largest block, and a row more for the last write. */
    o->most = 1;
    for (int k = 0; k < nsh; k++) {
        const int n = share_candidates(ns, &sh[k]) + 1;
        o->most = n > o->most ? n : o->most;
    }
    if (grow_doubling(&ln->scratch, &ln->scratch_cap, (long long)(lanes + 2) * o->most) != 0 ||
        grow_doubling(&ln->nbr, &ln->cap, off + (long long)lanes * o->most) != 0)
        return -1;
    o->lo = ln->nbr + off, o->hi = ln->scratch;
    o->cand = ln->scratch + (size_t)lanes * (size_t)o->most;
    o->mask = (unsigned *)(void *)(o->cand + o->most);
    memset(o->nlo, 0, sizeof o->nlo);
    memset(o->nhi, 0, sizeof o->nhi);
    const match_fn match = match_for();
    for (int k = 0; k < nsh; k++)
        shared_block(ns, sh[k].in, sh[k].row, sh[k].lo - 1, sh[k].hi + 1, i0, xi, yi, o, match);
    return 0;
}

int nsearch_lanes(const struct nsearch *ns, int i0, int lanes, int nquery, int split, int pad,
                  struct nsearch_lanes *ln, int off, int *klo, int *khi)
{
    struct group_out o;
    o.lanes = lanes, o.split = split;
    int lo = 0, hi = 0;
    *klo = *khi = 0;
    if (lanes < 1 || lanes > GROUP_MAX || group_lists(ns, i0, nquery, ln, off, &o) != 0)
        return -1;
    for (int l = 0; l < lanes; l++) {
        lo = o.nlo[l] > lo ? o.nlo[l] : lo;
        hi = o.nhi[l] > hi ? o.nhi[l] : hi;
    }
    /* The water part is in place (lo <= most); pad it, then the rest after it. */
    if (grow_doubling(&ln->nbr, &ln->cap, off + (long long)(lo + hi) * lanes) != 0)
        return -1;
    int *out = ln->nbr + off;
    for (int l = 0; l < lanes; l++) {
        for (int k = o.nlo[l]; k < lo; k++)
            out[k * lanes + l] = pad;
        for (int k = 0; k < hi; k++)
            out[(lo + k) * lanes + l] = k < o.nhi[l] ? ln->scratch[l * o.most + k] : pad;
    }
    *klo = lo;
    *khi = hi;
    return 0;
}

void nsearch_lanes_free(struct nsearch_lanes *ln)
{
    free(ln->nbr);
    free(ln->scratch);
    memset(ln, 0, sizeof *ln);
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
    if (grow_ints(&ns->cell_start, &ns->ncell_cap, ns->gw * ns->gh + 1) != 0)
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
