/*
 * nsearch_lanes.c — the neighbour lists of a group of points at once, for code
 * that handles them in the lanes of a vector (nsearch_lanes, nsearch.h): their
 * queries share blocks of cells, each candidate is held against every lane in
 * one vector compare, and the matches are dealt out to the lanes' lists, slot
 * by slot side by side. The same lists, point for point, as one query at a
 * time (nsearch.c), which the tests hold them against.
 */
#include "nsearch.h"
#include "nsearch_internal.h"
#include "simd.h"

#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Grows an int array to at least need entries (doubling); 0 or -1. */
static int grow_doubling(int **p, int *cap, long long need)
{
    if (need > INT_MAX)
        return -1;
    if (need <= *cap)
        return 0;
    const long long twice = 2LL * *cap;
    return nsearch_grow_ints(p, cap, (int)(twice > need && twice <= INT_MAX ? twice : need));
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
 * cell from it, so it never matches): the same lists as nsearch_query's, made
 * with a fraction of its work. A lane in a row of its own, or too far from the
 * others, has a block of its own.
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

/* The widest match_lanes this CPU runs, of at most `most` lanes (0: any). */
static match_fn match_for(int most)
{
#if SIMD_HAVE_8
    if (simd_lanes(most > 0 && most < 8 ? most : 8) >= 8)
        return match_lanes_x8;
#endif
    (void)most;
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
    int *cand;           /* a block's candidates, and what they match (most each, */
    unsigned *mask;      /* and room for a vector more: SLACK) */
    int *row;            /* deal_x16's lane lists (two rows of most + SLACK) */
    int lanes, most, split;
    int nlo[GROUP_MAX], nhi[GROUP_MAX];
};
#define SLACK 16 /* ints a vector reads or writes past a row's last */

/* Each of a block's n candidates j[c] to the lanes of lanes_in its mask[c]
 * has: one below the split to the lane's next slot of lo, another to its row
 * of hi. */
typedef void (*deal_fn)(const int *j, const unsigned *mask, int n, unsigned lanes_in,
                        struct group_out *o);

static void deal_x1(const int *j, const unsigned *mask, int n, unsigned lanes_in,
                    struct group_out *o)
{
    (void)lanes_in; /* (the others match nothing) */
    int nlo[GROUP_MAX];
    memcpy(nlo, o->nlo, sizeof nlo);
    int *restrict lo = o->lo;
    const int lanes = o->lanes;
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

#if SIMD_HAVE_16
/* The same a lane at a time, sixteen candidates at once: those it matches
 * packed into a row (below the split) or another (the rest), the first then
 * laid into its slots. A loop over the lanes a candidate matches, as deal_x1
 * has, mispredicts its end nearly every time. */
SIMD_TARGET_16 static void deal_x16(const int *j, const unsigned *mask, int n,
                                    unsigned lanes_in, struct group_out *o)
{
    int *restrict below_row = o->row, *restrict other_row = o->row + o->most + SLACK;
    for (; lanes_in; lanes_in &= lanes_in - 1) {
        const int l = __builtin_ctz(lanes_in);
        int nb = 0, no = 0;
        for (int c = 0; c < n; c += 16) {
            const unsigned valid = n - c >= 16 ? 0xffffu : (1u << (n - c)) - 1u;
            const i32x16 jc = i32x16_load(j + c);
            const unsigned has = i32x16_has(i32x16_load((const int *)mask + c), 1u << l) & valid;
            const unsigned below = i32x16_below(jc, o->split);
            nb += i32x16_keep(below_row + nb, jc, has & below);
            no += i32x16_keep(other_row + no, jc, has & ~below);
        }
        int *restrict lo = o->lo + (size_t)o->nlo[l] * (size_t)o->lanes + l;
        for (int k = 0; k < nb; k++)
            lo[(size_t)k * (size_t)o->lanes] = below_row[k];
        memcpy(o->hi + l * o->most + o->nhi[l], other_row, (size_t)no * sizeof *other_row);
        o->nlo[l] += nb, o->nhi[l] += no;
    }
}
#endif

/* The widest deal this CPU runs, of at most `most` lanes (0: any). */
static deal_fn deal_for(int most)
{
#if SIMD_HAVE_16
    if (simd_lanes(most) >= 16)
        return deal_x16;
#endif
    (void)most;
    return deal_x1;
}

/* The lanes of mask `lanes_in` (all in cell row cy, cells x0+1 .. x1-1) from
 * their shared block: rows cy-1 .. cy+1, cells x0 .. x1 (clamped): each
 * candidate's mask first (a lane's own point cleared), then each candidate to
 * the lanes it matches. */
static void shared_block(const struct nsearch *ns, unsigned lanes_in, int cy, int x0, int x1,
                         int i0, const float *xi, const float *yi, struct group_out *o,
                         match_fn match, deal_fn deal)
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
    deal(j, mask, n, lanes_in, o);
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
    if (grow_doubling(&ln->scratch, &ln->scratch_cap,
                      (long long)(lanes + 4) * o->most + 4 * SLACK) != 0 ||
        grow_doubling(&ln->nbr, &ln->cap, off + (long long)lanes * o->most) != 0)
        return -1;
    o->lo = ln->nbr + off, o->hi = ln->scratch;
    o->cand = ln->scratch + (size_t)lanes * (size_t)o->most;
    o->mask = (unsigned *)(void *)(o->cand + o->most + SLACK);
    o->row = (int *)(void *)(o->mask + o->most + SLACK);
    memset(o->nlo, 0, sizeof o->nlo);
    memset(o->nhi, 0, sizeof o->nhi);
    const match_fn match = match_for(ln->lanes_most);
    const deal_fn deal = deal_for(ln->lanes_most);
    for (int k = 0; k < nsh; k++)
        shared_block(ns, sh[k].in, sh[k].row, sh[k].lo - 1, sh[k].hi + 1, i0, xi, yi, o, match,
                     deal);
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
