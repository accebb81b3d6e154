/*
 * cloth_link.c — the cloth's constraint projection: one constraint at a time
 * (cloth_project, the definition) and Gauss-Seidel sweeps in the seed's order
 * over the packed records of cloth_internal.h, a record (four constraints) at
 * a time.
 */
#include "cloth_internal.h"
#include "pool.h"
#include "simd.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---- packing ------------------------------------------------------------------ */

/*
 * The records hold the constraints of c1/c2 sorted by level (one more than the
 * highest level of any earlier constraint sharing a particle), each level
 * padded to whole records with empty lanes. So every particle still receives
 * its corrections in the original sequence and a sweep gives bit for bit the
 * in-order result, while the four lanes of a record share no particle. The
 * sweeps work on xy, the positions interleaved (x0 y0 x1 y1 ...), so a
 * particle is one 8-byte load. Only cloth_link_build allocates.
 *
 * Allocates and fills link[]. Levels rise along each particle's sequence of
 * constraints, so constraints of one level touch disjoint particles; sorting
 * stably by level and padding every level to whole records gives records of
 * independent constraints and keeps each particle's order. Returns -1 when out
 * of memory.
 */
int cloth_link_build(struct cloth *c)
{
    int nc = c->nc, top = 0;
    int *last = malloc((size_t)c->n * sizeof *last);
    int *level = malloc((size_t)(nc + 1) * sizeof *level);
    int *first = calloc((size_t)nc + 2, sizeof *first);
    int err = -1;
    if (!last || !level || !first)
        goto out;
    for (int i = 0; i < c->n; i++)
        last[i] = -1;
    for (int k = 0; k < nc; k++) {
        int a = c->c1[k], b = c->c2[k];
        int l = (last[a] > last[b] ? last[a] : last[b]) + 1;
        last[a] = last[b] = level[k] = l;
        if (l > top)
            top = l;
    }
    for (int k = 0; k < nc; k++)
        first[level[k]]++;
    /* first[l] becomes the first slot of level l; each level fills whole records. */
    int records = 0;
    c->level = malloc(((size_t)top + 2) * sizeof *c->level);
    if (!c->level)
        goto out;
    for (int l = 0; l <= top; l++) {
        int m = first[l];
        c->level[l] = records;
        first[l] = records * LANES;
        records += (m + LANES - 1) / LANES;
    }
    c->nlevel = nc > 0 ? top + 1 : 0;
    c->level[c->nlevel] = records;
    c->link = calloc((size_t)records + 1, sizeof *c->link);
    c->link_con = malloc(((size_t)records + 1) * LANES * sizeof *c->link_con);
    if (!c->link || !c->link_con)
        goto out;
    c->nlink = records;
    for (int i = 0; i < (records + 1) * LANES; i++)
        c->link_con[i] = -1;
    for (int k = 0; k < nc; k++) {
        int slot = first[level[k]]++;
        struct cloth_link *l = &c->link[slot / LANES];
        l->a[slot % LANES] = 2 * (uint32_t)c->c1[k];
        l->b[slot % LANES] = 2 * (uint32_t)c->c2[k];
        l->rest[slot % LANES] = c->rest[k];
        c->link_con[slot] = k;
    }
    cloth_link_copy_weights(c);
    err = 0;
out:
    free(last);
    free(level);
    free(first);
    return err;
}

void cloth_link_copy_weights(struct cloth *c)
{
    for (int r = 0; r < c->nlink; r++) {
        struct cloth_link *l = &c->link[r];
        const int *con = &c->link_con[r * LANES];
        for (int i = 0; i < LANES; i++) {
            l->wa[i] = con[i] >= 0 ? c->w[l->a[i] / 2] : 0.0f;
            l->wb[i] = con[i] >= 0 ? c->w[l->b[i] / 2] : 0.0f;
        }
    }
    c->wdirty = false;
}

void cloth_link_reset_lambda(struct cloth *c)
{
    for (int r = 0; r < c->nlink; r++)
        memset(c->link[r].lambda, 0, sizeof c->link[r].lambda);
}

void cloth_link_store_lambda(struct cloth *c)
{
    for (int i = 0; i < c->nlink * LANES; i++)
        if (c->link_con[i] >= 0)
            c->lambda[c->link_con[i]] = c->link[i / LANES].lambda[i % LANES];
}

/* A torn constraint leaves an empty lane (records left empty are dropped): the
 * remaining lanes still meet their particles in order. */
void cloth_link_drop_torn(struct cloth *c, const int *newk)
{
    int records = 0, lv = 0;
    for (int r = 0; r < c->nlink; r++) {
        for (; lv <= c->nlevel && c->level[lv] == r; lv++)
            c->level[lv] = records; /* levels that start at r start where it lands */
        struct cloth_link *l = &c->link[r];
        int *con = &c->link_con[r * LANES];
        int live = 0;
        for (int i = 0; i < LANES; i++) {
            if (con[i] >= 0)
                con[i] = newk[con[i]];
            if (con[i] < 0) {
                l->a[i] = l->b[i] = 0;
                l->rest[i] = l->lambda[i] = l->wa[i] = l->wb[i] = 0.0f;
            }
            live += con[i] >= 0;
        }
        if (live == 0)
            continue;
        c->link[records] = *l;
        memmove(&c->link_con[records * LANES], con, LANES * sizeof *con);
        records++;
    }
    for (; lv <= c->nlevel; lv++)
        c->level[lv] = records;
    c->nlink = records;
}

/* ---- one constraint ------------------------------------------------------------ */

/*
 * PBD on one constraint between particles at pa and pb (each x then y): moves
 * them along d = pa - pb so that |d| becomes rest, shared by inverse mass:
 * dx_a = -wa/(wa+wb) C d/|d|, dx_b = +wb/(wa+wb) C d/|d|, C = |d| - rest.
 * Skipped below the seed's minimum length and when both are immovable, and
 * with buckle (prm.buckle) while |d| is not longer than rest: then it only
 * pulls. With equal masses this is the seed's K-doubling rule. The vector
 * sweeps do the same operations in the same order, lane by lane.
 */
static inline void project_pbd(float *restrict xa, float *restrict ya,
                               float *restrict xb, float *restrict yb, float wa,
                               float wb, float rest, float minlen2, bool buckle)
{
    float dx = *xa - *xb, dy = *ya - *yb;
    float d2 = dx * dx + dy * dy;
    float ws = wa + wb;
    if (d2 > minlen2 && ws > 0.0f) {
        float dl = sqrtf(d2);
        if (cloth_slack(buckle, dl, rest))
            return;
        float s = (rest - dl) / (dl * ws);
        float sa = wa * s, sb = wb * s;
        *xa += sa * dx;
        *ya += sa * dy;
        *xb -= sb * dx;
        *yb -= sb * dy;
    }
}

/* XPBD: dlambda = (-C - at*lambda) / (wa + wb + at), x += w grad(C) dlambda, with
 * one division: s = dlambda/|d| first, then dlambda = s |d|. Skipped as
 * project_pbd is (lambda kept). */
static inline void project_xpbd(float *restrict xa, float *restrict ya,
                                float *restrict xb, float *restrict yb, float wa,
                                float wb, float rest, float *restrict lambda,
                                float at, float minlen2, bool buckle)
{
    float dx = *xa - *xb, dy = *ya - *yb;
    float d2 = dx * dx + dy * dy;
    float ws = wa + wb;
    if (d2 > minlen2 && ws > 0.0f) {
        float dl = sqrtf(d2);
        if (cloth_slack(buckle, dl, rest))
            return;
        float s = (rest - dl - at * *lambda) / ((ws + at) * dl);
        float dlam = s * dl;
        float sa = wa * s, sb = wb * s;
        *lambda += dlam;
        *xa += sa * dx;
        *ya += sa * dy;
        *xb -= sb * dx;
        *yb -= sb * dy;
    }
}

void cloth_project(struct cloth *c, int k, float at)
{
    if (k < 0 || k >= c->nc)
        return;
    int a = c->c1[k], b = c->c2[k];
    float ml2 = min_length2(c);
    if (at > 0.0f)
        project_xpbd(&c->x[a], &c->y[a], &c->x[b], &c->y[b], c->w[a], c->w[b],
                     c->rest[k], &c->lambda[k], at < ALPHA_TILDE_MAX ? at : ALPHA_TILDE_MAX,
                     ml2, c->prm.buckle);
    else
        project_pbd(&c->x[a], &c->y[a], &c->x[b], &c->y[b], c->w[a], c->w[b],
                    c->rest[k], ml2, c->prm.buckle);
}

/* ---- sweeps, one lane at a time -------------------------------------------------- */

/* project_pbd on records [r0, r1), lane after lane (an empty lane has a = b). */
static void records_pbd_x1(struct cloth *c, int r0, int r1, float ml2)
{
    float *xy = c->xy;
    const bool buckle = c->prm.buckle;
    for (int r = r0; r < r1; r++) {
        const struct cloth_link *l = &c->link[r];
        for (int i = 0; i < LANES; i++) {
            float *pa = xy + l->a[i], *pb = xy + l->b[i];
            if (pa != pb)
                project_pbd(pa, pa + 1, pb, pb + 1, l->wa[i], l->wb[i], l->rest[i], ml2,
                            buckle);
        }
    }
}

/* project_xpbd on records [r0, r1), lane after lane. */
static void records_xpbd_x1(struct cloth *c, int r0, int r1, float at, float ml2)
{
    float *xy = c->xy;
    const bool buckle = c->prm.buckle;
    for (int r = r0; r < r1; r++) {
        struct cloth_link *l = &c->link[r];
        for (int i = 0; i < LANES; i++) {
            float *pa = xy + l->a[i], *pb = xy + l->b[i];
            if (pa != pb)
                project_xpbd(pa, pa + 1, pb, pb + 1, l->wa[i], l->wb[i], l->rest[i],
                             &l->lambda[i], at, ml2, buckle);
        }
    }
}

/* ---- sweeps, a record at a time ---------------------------------------------------- */

#if SIMD_HAVE_4

/* x and y of the four particles at offsets o[] of xy, as two vectors. */
SIMD_INLINE void gather4(const float *xy, const uint32_t *o, f32x4 *x, f32x4 *y)
{
    f32x4 lo = f32x4_load_hi2(f32x4_load_lo2(f32x4_zero(), xy + o[0]), xy + o[1]);
    f32x4 hi = f32x4_load_hi2(f32x4_load_lo2(f32x4_zero(), xy + o[2]), xy + o[3]);
    *x = f32x4_even(lo, hi);
    *y = f32x4_odd(lo, hi);
}

/* Writes back the lanes set in mask (all four in the usual case). */
SIMD_INLINE void scatter4(float *xy, const uint32_t *o, f32x4 x, f32x4 y, int mask)
{
    f32x4 lo = f32x4_zip_lo(x, y), hi = f32x4_zip_hi(x, y);
    if (mask == 0xf) {
        f32x4_store_lo2(xy + o[0], lo);
        f32x4_store_hi2(xy + o[1], lo);
        f32x4_store_lo2(xy + o[2], hi);
        f32x4_store_hi2(xy + o[3], hi);
        return;
    }
    if (mask & 1)
        f32x4_store_lo2(xy + o[0], lo);
    if (mask & 2)
        f32x4_store_hi2(xy + o[1], lo);
    if (mask & 4)
        f32x4_store_lo2(xy + o[2], hi);
    if (mask & 8)
        f32x4_store_hi2(xy + o[3], hi);
}

/* One record's lanes, loaded: the offsets of a and b in xy, their positions
 * and inverse masses, d = a - b, |d|^2, wa + wb, and (all ones) the lanes that
 * the projection does not skip. */
struct lanes {
    uint32_t a[LANES], b[LANES];
    f32x4 xa, ya, xb, yb, wa, wb, dx, dy, d2, ws, on;
};

/* The prologue both sweeps share: gathers record l into v and returns v->on as
 * a bit mask (0: nothing to project). */
SIMD_INLINE int load_lanes(const float *xy, const struct cloth_link *l, f32x4 min2,
                           struct lanes *v)
{
    /* Offsets in locals: the scatter's stores could alias l, so the compiler
     * would otherwise load them twice. */
    memcpy(v->a, l->a, sizeof v->a);
    memcpy(v->b, l->b, sizeof v->b);
    gather4(xy, v->a, &v->xa, &v->ya);
    gather4(xy, v->b, &v->xb, &v->yb);
    v->wa = f32x4_load(l->wa);
    v->wb = f32x4_load(l->wb);
    v->dx = f32x4_sub(v->xa, v->xb);
    v->dy = f32x4_sub(v->ya, v->yb);
    v->d2 = f32x4_add(f32x4_mul(v->dx, v->dx), f32x4_mul(v->dy, v->dy));
    v->ws = f32x4_add(v->wa, v->wb);
    v->on = f32x4_and(f32x4_gt(v->d2, min2), f32x4_gt(v->ws, f32x4_zero()));
    return f32x4_mask(v->on);
}

/* buckle: of the lanes on, those longer than rest (v->on narrowed to them);
 * returns their bit mask. */
SIMD_INLINE int pulling(struct lanes *v, f32x4 dl, f32x4 rest)
{
    v->on = f32x4_and(v->on, f32x4_gt(dl, rest));
    return f32x4_mask(v->on);
}

/* The epilogue: a += wa s d, b -= wb s d, written back in the lanes of mask on. */
SIMD_INLINE void move_lanes(float *xy, const struct lanes *v, f32x4 s, int on)
{
    f32x4 sa = f32x4_mul(v->wa, s), sb = f32x4_mul(v->wb, s);
    f32x4 xa = f32x4_add(v->xa, f32x4_mul(sa, v->dx));
    f32x4 ya = f32x4_add(v->ya, f32x4_mul(sa, v->dy));
    f32x4 xb = f32x4_sub(v->xb, f32x4_mul(sb, v->dx));
    f32x4 yb = f32x4_sub(v->yb, f32x4_mul(sb, v->dy));
    scatter4(xy, v->a, xa, ya, on);
    scatter4(xy, v->b, xb, yb, on);
}

/* project_pbd on records [r0, r1), four lanes at a time: the same operations
 * in the same order, lane by lane. */
static void records_pbd_x4(struct cloth *c, int r0, int r1, float ml2)
{
    float *xy = c->xy;
    const struct cloth_link *l = c->link + r0, *end = c->link + r1;
    const f32x4 min2 = f32x4_set1(ml2);
    const bool buckle = c->prm.buckle;
    for (; l < end; l++) {
        struct lanes v;
        int on = load_lanes(xy, l, min2, &v);
        if (!on)
            continue;
        f32x4 dl = f32x4_sqrt(v.d2), rest = f32x4_load(l->rest);
        if (buckle && !(on = pulling(&v, dl, rest)))
            continue;
        f32x4 s = f32x4_div(f32x4_sub(rest, dl), f32x4_mul(dl, v.ws));
        move_lanes(xy, &v, s, on);
    }
}

/* project_xpbd on records [r0, r1), four lanes at a time. */
static void records_xpbd_x4(struct cloth *c, int r0, int r1, float at, float ml2)
{
    float *xy = c->xy;
    struct cloth_link *l = c->link + r0, *end = c->link + r1;
    const f32x4 min2 = f32x4_set1(ml2), vat = f32x4_set1(at);
    const bool buckle = c->prm.buckle;
    for (; l < end; l++) {
        struct lanes v;
        int on = load_lanes(xy, l, min2, &v);
        if (!on)
            continue;
        f32x4 lam = f32x4_load(l->lambda);
        f32x4 dl = f32x4_sqrt(v.d2), rest = f32x4_load(l->rest);
        if (buckle && !(on = pulling(&v, dl, rest)))
            continue;
        f32x4 num = f32x4_sub(f32x4_sub(rest, dl), f32x4_mul(vat, lam));
        f32x4 s = f32x4_div(num, f32x4_mul(f32x4_add(v.ws, vat), dl));
        f32x4 dlam = f32x4_mul(s, dl);
        f32x4_store(l->lambda, f32x4_add(lam, f32x4_and(dlam, v.on)));
        move_lanes(xy, &v, s, on);
    }
}

#endif

/* ---- sweeps, by level ---------------------------------------------------------- */

/* Records [r0, r1) in order: PBD when at is 0, else XPBD; a record at a time
 * (vec) or lane after lane. */
static void records(struct cloth *c, int r0, int r1, float at, float ml2, bool vec)
{
    if (r0 >= r1)
        return;
#if SIMD_HAVE_4
    if (vec) {
        if (at > 0.0f)
            records_xpbd_x4(c, r0, r1, at, ml2);
        else
            records_pbd_x4(c, r0, r1, ml2);
        return;
    }
#endif
    (void)vec;
    if (at > 0.0f)
        records_xpbd_x1(c, r0, r1, at, ml2);
    else
        records_pbd_x1(c, r0, r1, ml2);
}

/* One level's records, cut into parts for the pool. */
struct level_job {
    struct cloth *c;
    int r0, r1;
    float at, ml2;
    bool vec;
};

static void level_part(void *arg, int part, int nparts)
{
    const struct level_job *j = arg;
    int lo, hi;
    pool_span(j->r1 - j->r0, part, nparts, &lo, &hi);
    records(j->c, j->r0 + lo, j->r0 + hi, j->at, j->ml2, j->vec);
}

/*
 * One Gauss-Seidel sweep over the records, level after level. The records of
 * a level share no particle, so how a level is cut up and in what order its
 * parts run changes nothing: with a pool every level of at least par_records
 * records is cut into CLOTH_PARTS parts for the workers, the smaller ones
 * between run here in order, and the result is the in-order sweep's, bit for
 * bit, for any number of threads.
 */
static void sweep(struct cloth *c, float at, float ml2)
{
    const bool vec = simd_lanes(c->lanes_max) >= LANES;
    if (pool_threads(c->pool) < 2 || !c->level) {
        records(c, 0, c->nlink, at, ml2, vec);
        return;
    }
    int from = 0; /* the first record not yet projected */
    for (int l = 0; l < c->nlevel; l++) {
        int r0 = c->level[l], r1 = c->level[l + 1];
        if (r1 - r0 < c->par_records)
            continue;
        records(c, from, r0, at, ml2, vec);
        struct level_job job = {c, r0, r1, at, ml2, vec};
        pool_run(c->pool, level_part, &job, CLOTH_PARTS);
        from = r1;
    }
    records(c, from, c->nlink, at, ml2, vec);
}

void cloth_link_sweep_pbd(struct cloth *c, float ml2) { sweep(c, 0.0f, ml2); }

void cloth_link_sweep_xpbd(struct cloth *c, float at, float ml2) { sweep(c, at, ml2); }
