/*
 * cloth.c — Position Based Dynamics cloth (pbd.html), with XPBD, substeps and
 * tearing as options.
 *
 * Particles are structure-of-arrays floats indexed i*w + j (row i from the top,
 * column j from the left): position x,y, the position before the step xold,yold,
 * velocity vx,vy and inverse mass w (0 for pinned and grabbed particles, which the
 * step neither integrates nor corrects). Coordinates are the seed's metres with y
 * up: particle (i,j) starts at (spacing*j, -spacing*i), so the cloth hangs below
 * the x axis from its top corners. During the constraint sweeps the positions
 * live interleaved in xy (x0 y0 x1 y1 ...), so a particle is one 8-byte load.
 *
 * Constraints are distance constraints kept twice. c1/c2/rest/lambda hold them in
 * the seed's order (rows, columns, then both diagonals of each cell): the order
 * the Gauss-Seidel sweep is defined by, and the one tearing preserves. link[]
 * holds the same constraints as the solver visits them, four to a record with
 * copies of the two inverse masses. That order sorts the constraints by level
 * (one more than the highest level of any earlier constraint sharing a particle)
 * and pads each level to whole records with empty lanes. So every particle still
 * receives its corrections in the original sequence and a sweep gives bit for bit
 * the in-order result, but the four lanes of a record share no particle and are
 * projected at once with SSE (or one after another without it). In the seed's
 * order each row of constraints is one chain, each correction waiting on the one
 * before; by level there is independent work everywhere.
 *
 * Nothing here allocates after cloth_init. The step reads c->prm every time, so
 * the scene may change dt, iterations, gravity, mass and the options live.
 */
#include "cloth.h"
#include "swirl.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Four constraints that share no particle, one per lane: where particles a and b
 * sit in xy (2 * index), rest length, the XPBD multiplier of the current
 * substep and the particles' inverse masses. An empty lane has a = b = 0 and
 * weights 0, which the projection skips. */
#define LANES 4
struct cloth_link {
    uint32_t a[LANES], b[LANES];
    float rest[LANES], lambda[LANES];
    float wa[LANES], wb[LANES];
};

/* The seed page's values (pbd.html with its GUI inputs). */
#define SEED_W 40
#define SEED_H 30
#define SEED_FIXED 2
#define SEED_SPACING 0.2f
#define SEED_DT 0.005f
#define SEED_ITERATIONS 2
#define SEED_GRAVITY (-9.81f)
#define SEED_MASS 0.5f
#define DEFAULT_TEAR_STRAIN 1.0f

/* Largest grid side accepted by cloth_init (keeps every count in an int). */
#define DIM_MAX 4096
/* The seed skips a constraint shorter than 0.001 m, i.e. spacing/200. */
#define MIN_LENGTH_PER_SPACING 0.005f
/* Clamps that keep extreme settings finite. */
#define MASS_MIN 1e-6f
#define MASS_MAX 1e6f
#define ITER_MAX 1000
#define SUBSTEP_MAX 1000
#define ALPHA_TILDE_MAX 1e30f
#define COORD_MAX 1e6f

/* ---- parameters and setup ---------------------------------------------------- */

void cloth_params_seed(struct cloth_params *p)
{
    p->w = SEED_W;
    p->h = SEED_H;
    p->fixed = SEED_FIXED;
    p->spacing = SEED_SPACING;
    p->dt = SEED_DT;
    p->iterations = SEED_ITERATIONS;
    p->gravity = SEED_GRAVITY;
    p->mass = SEED_MASS;
    p->compliance = 0.0f;
    p->substeps = 1;
    p->tearing = false;
    p->tear_strain = DEFAULT_TEAR_STRAIN;
}

/* Inverse mass of a free particle for a given prm.mass. */
static float inverse_mass(float mass)
{
    return 1.0f / clampf(mass, MASS_MIN, MASS_MAX);
}

/* w from prm.mass, the pins and the grab; remembers which mass it used. */
static void derive_inverse_masses(struct cloth *c)
{
    float wf = inverse_mass(c->prm.mass);
    for (int i = 0; i < c->n; i++)
        c->w[i] = (c->fixed[i] || i == c->grabbed) ? 0.0f : wf;
    c->wmass = c->prm.mass;
    c->wdirty = true;
}

/* Copies w into the records' lanes. */
static void copy_link_weights(struct cloth *c)
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

static void mark_fixed(struct cloth *c)
{
    int w = c->prm.w, h = c->prm.h;
    /* The seed offers 1, 2 or 4: 3 counts as 2, below 1 as 1, above 4 as 4. */
    int nfix = c->prm.fixed <= 1 ? 1 : c->prm.fixed < 4 ? 2 : 4;
    c->fixed[0] = 1;
    if (nfix >= 2)
        c->fixed[w - 1] = 1;
    if (nfix >= 4) {
        c->fixed[(h - 1) * w] = 1;
        c->fixed[h * w - 1] = 1;
    }
}

/* Where particle i sits in the flat, unstretched grid. */
static void grid_position(const struct cloth *c, int i, float *x, float *y)
{
    int cols = clampi(c->prm.w, 1, c->n); /* prm.w is only meant to change by re-init */
    *x = c->prm.spacing * (float)(i % cols);
    *y = -c->prm.spacing * (float)(i / cols);
}

static void add_constraint(struct cloth *c, int a, int b, float rest)
{
    int k = c->nc++;
    c->c1[k] = a;
    c->c2[k] = b;
    c->rest[k] = rest;
    c->lambda[k] = 0.0f;
}

/* The seed's constraints, in the seed's order. */
static void build_constraints(struct cloth *c)
{
    int w = c->prm.w, h = c->prm.h;
    float s = c->prm.spacing;
    float diag = s * sqrtf(2.0f);
    c->nc = 0;
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w - 1; j++)
            add_constraint(c, i * w + j, i * w + j + 1, s);
    for (int i = 0; i < h - 1; i++)
        for (int j = 0; j < w; j++)
            add_constraint(c, i * w + j, i * w + j + w, s);
    for (int i = 0; i < h - 1; i++)
        for (int j = 0; j < w - 1; j++) {
            add_constraint(c, i * w + j, i * w + j + w + 1, diag);
            add_constraint(c, i * w + j + 1, i * w + j + w, diag);
        }
}

/*
 * Allocates and fills link[]. Levels rise along each particle's sequence of
 * constraints, so constraints of one level touch disjoint particles; sorting
 * stably by level and padding every level to whole records gives records of
 * independent constraints and keeps each particle's order. Returns -1 when out
 * of memory.
 */
static int build_schedule(struct cloth *c)
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
    for (int l = 0; l <= top; l++) {
        int m = first[l];
        first[l] = records * LANES;
        records += (m + LANES - 1) / LANES;
    }
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
    copy_link_weights(c);
    err = 0;
out:
    free(last);
    free(level);
    free(first);
    return err;
}

int cloth_init(struct cloth *c, const struct cloth_params *p)
{
    memset(c, 0, sizeof *c);
    c->grabbed = -1;
    if (p->w < 1 || p->h < 1 || p->w > DIM_MAX || p->h > DIM_MAX ||
        !(p->spacing > 0.0f) || !isfinite(p->spacing))
        return -1;
    c->prm = *p;
    int w = p->w, h = p->h;
    c->n = w * h;
    c->nc_cap = (w - 1) * h + w * (h - 1) + 2 * (w - 1) * (h - 1);

    size_t n = (size_t)c->n, nc = (size_t)c->nc_cap + 1; /* never empty */
    c->x = malloc(n * sizeof *c->x);
    c->y = malloc(n * sizeof *c->y);
    c->xold = malloc(n * sizeof *c->xold);
    c->yold = malloc(n * sizeof *c->yold);
    c->vx = calloc(n, sizeof *c->vx);
    c->vy = calloc(n, sizeof *c->vy);
    c->w = malloc(n * sizeof *c->w);
    c->fixed = calloc(n, 1);
    c->xy = malloc(2 * n * sizeof *c->xy);
    c->c1 = malloc(nc * sizeof *c->c1);
    c->c2 = malloc(nc * sizeof *c->c2);
    c->rest = malloc(nc * sizeof *c->rest);
    c->lambda = malloc(nc * sizeof *c->lambda);
    c->scratch = malloc(nc * sizeof *c->scratch);
    if (!c->x || !c->y || !c->xold || !c->yold || !c->vx || !c->vy || !c->w ||
        !c->fixed || !c->xy || !c->c1 || !c->c2 || !c->rest || !c->lambda ||
        !c->scratch)
        goto fail;

    for (int i = 0; i < c->n; i++) {
        grid_position(c, i, &c->x[i], &c->y[i]);
        c->xold[i] = c->x[i];
        c->yold[i] = c->y[i];
    }
    mark_fixed(c);
    derive_inverse_masses(c);
    build_constraints(c);
    if (build_schedule(c) == 0)
        return 0;
fail:
    cloth_free(c);
    return -1;
}

void cloth_free(struct cloth *c)
{
    free(c->x);
    free(c->y);
    free(c->xold);
    free(c->yold);
    free(c->vx);
    free(c->vy);
    free(c->w);
    free(c->fixed);
    free(c->xy);
    free(c->c1);
    free(c->c2);
    free(c->rest);
    free(c->lambda);
    free(c->link);
    free(c->link_con);
    free(c->scratch);
    memset(c, 0, sizeof *c);
    c->grabbed = -1;
}

/* ---- the constraint projection --------------------------------------------- */

/*
 * PBD on one constraint between particles at pa and pb (each x then y): moves
 * them along d = pa - pb so that |d| becomes rest, shared by inverse mass:
 * dx_a = -wa/(wa+wb) C d/|d|, dx_b = +wb/(wa+wb) C d/|d|, C = |d| - rest.
 * Skipped below the seed's minimum length and when both are immovable. With
 * equal masses this is the seed's K-doubling rule. The SSE sweeps do the same
 * operations in the same order, lane by lane.
 */
static inline void project_pbd(float *restrict xa, float *restrict ya,
                               float *restrict xb, float *restrict yb, float wa,
                               float wb, float rest, float minlen2)
{
    float dx = *xa - *xb, dy = *ya - *yb;
    float d2 = dx * dx + dy * dy;
    float ws = wa + wb;
    if (d2 > minlen2 && ws > 0.0f) {
        float dl = sqrtf(d2);
        float s = (rest - dl) / (dl * ws);
        float sa = wa * s, sb = wb * s;
        *xa += sa * dx;
        *ya += sa * dy;
        *xb -= sb * dx;
        *yb -= sb * dy;
    }
}

/* XPBD: dlambda = (-C - at*lambda) / (wa + wb + at), x += w grad(C) dlambda, with
 * one division: s = dlambda/|d| first, then dlambda = s |d|. */
static inline void project_xpbd(float *restrict xa, float *restrict ya,
                                float *restrict xb, float *restrict yb, float wa,
                                float wb, float rest, float *restrict lambda,
                                float at, float minlen2)
{
    float dx = *xa - *xb, dy = *ya - *yb;
    float d2 = dx * dx + dy * dy;
    float ws = wa + wb;
    if (d2 > minlen2 && ws > 0.0f) {
        float dl = sqrtf(d2);
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

static float min_length2(const struct cloth *c)
{
    float m = c->prm.spacing * MIN_LENGTH_PER_SPACING;
    return m * m;
}

/* alpha_tilde = compliance / dt^2, kept finite; 0 for PBD (or a bad value). */
static float alpha_tilde(float compliance, float dt)
{
    if (!(compliance > 0.0f))
        return 0.0f;
    float at = compliance / (dt * dt);
    return at < ALPHA_TILDE_MAX ? at : ALPHA_TILDE_MAX;
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
                     ml2);
    else
        project_pbd(&c->x[a], &c->y[a], &c->x[b], &c->y[b], c->w[a], c->w[b],
                    c->rest[k], ml2);
}

#if defined(__SSE2__)

/* The pair of floats at p, into the low or the high half of v. */
#define LOAD_LO(v, p) _mm_loadl_pi((v), (const __m64 *)(p))
#define LOAD_HI(v, p) _mm_loadh_pi((v), (const __m64 *)(p))
#define STORE_LO(p, v) _mm_storel_pi((__m64 *)(p), (v))
#define STORE_HI(p, v) _mm_storeh_pi((__m64 *)(p), (v))

/* x and y of the four particles at offsets o[] of xy, as two vectors. */
static inline void gather4(const float *xy, const uint32_t *o, __m128 *x, __m128 *y)
{
    __m128 lo = LOAD_HI(LOAD_LO(_mm_setzero_ps(), xy + o[0]), xy + o[1]);
    __m128 hi = LOAD_HI(LOAD_LO(_mm_setzero_ps(), xy + o[2]), xy + o[3]);
    *x = _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
    *y = _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1));
}

/* Writes back the lanes set in mask (all four in the usual case). */
static inline void scatter4(float *xy, const uint32_t *o, __m128 x, __m128 y, int mask)
{
    __m128 lo = _mm_unpacklo_ps(x, y), hi = _mm_unpackhi_ps(x, y);
    if (mask == 0xf) {
        STORE_LO(xy + o[0], lo);
        STORE_HI(xy + o[1], lo);
        STORE_LO(xy + o[2], hi);
        STORE_HI(xy + o[3], hi);
        return;
    }
    if (mask & 1)
        STORE_LO(xy + o[0], lo);
    if (mask & 2)
        STORE_HI(xy + o[1], lo);
    if (mask & 4)
        STORE_LO(xy + o[2], hi);
    if (mask & 8)
        STORE_HI(xy + o[3], hi);
}

/* One Gauss-Seidel sweep: project_pbd on four lanes at a time. */
static void sweep_pbd(struct cloth *c, float ml2)
{
    float *xy = c->xy;
    const struct cloth_link *l = c->link, *end = c->link + c->nlink;
    const __m128 min2 = _mm_set1_ps(ml2), zero = _mm_setzero_ps();
    for (; l < end; l++) {
        /* Offsets in locals: the scatter's stores could alias l, so the compiler
         * would otherwise load them twice. */
        uint32_t a[LANES], b[LANES];
        memcpy(a, l->a, sizeof a);
        memcpy(b, l->b, sizeof b);
        __m128 xa, ya, xb, yb;
        gather4(xy, a, &xa, &ya);
        gather4(xy, b, &xb, &yb);
        __m128 wa = _mm_loadu_ps(l->wa), wb = _mm_loadu_ps(l->wb);
        __m128 dx = _mm_sub_ps(xa, xb), dy = _mm_sub_ps(ya, yb);
        __m128 d2 = _mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy));
        __m128 ws = _mm_add_ps(wa, wb);
        /* The lanes project_pbd would not skip. */
        int on = _mm_movemask_ps(_mm_and_ps(_mm_cmpgt_ps(d2, min2), _mm_cmpgt_ps(ws, zero)));
        if (!on)
            continue;
        __m128 dl = _mm_sqrt_ps(d2);
        __m128 s = _mm_div_ps(_mm_sub_ps(_mm_loadu_ps(l->rest), dl), _mm_mul_ps(dl, ws));
        __m128 sa = _mm_mul_ps(wa, s), sb = _mm_mul_ps(wb, s);
        xa = _mm_add_ps(xa, _mm_mul_ps(sa, dx));
        ya = _mm_add_ps(ya, _mm_mul_ps(sa, dy));
        xb = _mm_sub_ps(xb, _mm_mul_ps(sb, dx));
        yb = _mm_sub_ps(yb, _mm_mul_ps(sb, dy));
        scatter4(xy, a, xa, ya, on);
        scatter4(xy, b, xb, yb, on);
    }
}

/* One Gauss-Seidel sweep: project_xpbd on four lanes at a time. */
static void sweep_xpbd(struct cloth *c, float at, float ml2)
{
    float *xy = c->xy;
    struct cloth_link *l = c->link, *end = c->link + c->nlink;
    const __m128 min2 = _mm_set1_ps(ml2), zero = _mm_setzero_ps();
    const __m128 vat = _mm_set1_ps(at);
    for (; l < end; l++) {
        uint32_t a[LANES], b[LANES];
        memcpy(a, l->a, sizeof a);
        memcpy(b, l->b, sizeof b);
        __m128 xa, ya, xb, yb;
        gather4(xy, a, &xa, &ya);
        gather4(xy, b, &xb, &yb);
        __m128 wa = _mm_loadu_ps(l->wa), wb = _mm_loadu_ps(l->wb);
        __m128 dx = _mm_sub_ps(xa, xb), dy = _mm_sub_ps(ya, yb);
        __m128 d2 = _mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy));
        __m128 ws = _mm_add_ps(wa, wb);
        __m128 onv = _mm_and_ps(_mm_cmpgt_ps(d2, min2), _mm_cmpgt_ps(ws, zero));
        int on = _mm_movemask_ps(onv);
        if (!on)
            continue;
        __m128 lam = _mm_loadu_ps(l->lambda);
        __m128 dl = _mm_sqrt_ps(d2);
        __m128 num = _mm_sub_ps(_mm_sub_ps(_mm_loadu_ps(l->rest), dl), _mm_mul_ps(vat, lam));
        __m128 s = _mm_div_ps(num, _mm_mul_ps(_mm_add_ps(ws, vat), dl));
        __m128 dlam = _mm_mul_ps(s, dl);
        _mm_storeu_ps(l->lambda, _mm_add_ps(lam, _mm_and_ps(dlam, onv)));
        __m128 sa = _mm_mul_ps(wa, s), sb = _mm_mul_ps(wb, s);
        xa = _mm_add_ps(xa, _mm_mul_ps(sa, dx));
        ya = _mm_add_ps(ya, _mm_mul_ps(sa, dy));
        xb = _mm_sub_ps(xb, _mm_mul_ps(sb, dx));
        yb = _mm_sub_ps(yb, _mm_mul_ps(sb, dy));
        scatter4(xy, a, xa, ya, on);
        scatter4(xy, b, xb, yb, on);
    }
}

#else /* no SSE: the same sweeps one lane at a time */

static void sweep_pbd(struct cloth *c, float ml2)
{
    float *xy = c->xy;
    for (int r = 0; r < c->nlink; r++) {
        const struct cloth_link *l = &c->link[r];
        for (int i = 0; i < LANES; i++) {
            float *pa = xy + l->a[i], *pb = xy + l->b[i];
            if (pa != pb)
                project_pbd(pa, pa + 1, pb, pb + 1, l->wa[i], l->wb[i], l->rest[i], ml2);
        }
    }
}

static void sweep_xpbd(struct cloth *c, float at, float ml2)
{
    float *xy = c->xy;
    for (int r = 0; r < c->nlink; r++) {
        struct cloth_link *l = &c->link[r];
        for (int i = 0; i < LANES; i++) {
            float *pa = xy + l->a[i], *pb = xy + l->b[i];
            if (pa != pb)
                project_xpbd(pa, pa + 1, pb, pb + 1, l->wa[i], l->wb[i], l->rest[i],
                             &l->lambda[i], at, ml2);
        }
    }
}

#endif

/* ---- the step --------------------------------------------------------------- */

/* Symplectic Euler prediction of the free particles under gravity, then every
 * position into the solver's interleaved copy. */
static void predict(struct cloth *c, float h, float g)
{
    int n = c->n;
    float *restrict x = c->x, *restrict y = c->y;
    float *restrict xo = c->xold, *restrict yo = c->yold;
    float *restrict vx = c->vx, *restrict vy = c->vy;
    const float *restrict w = c->w;
    float *restrict xy = c->xy;
    for (int i = 0; i < n; i++) {
        if (w[i] > 0.0f) {
            xo[i] = x[i];
            yo[i] = y[i];
            vy[i] += h * g;
            x[i] += h * vx[i];
            y[i] += h * vy[i];
        }
        xy[2 * i] = x[i];
        xy[2 * i + 1] = y[i];
    }
}

/* Positions back from the interleaved copy, and v = (x - xold)/h for the free
 * particles. One that went non-finite goes back to where the step started it
 * (or, should that be non-finite too, to its place in the flat grid), at rest. */
static void update_velocities(struct cloth *c, float h)
{
    int n = c->n;
    float inv_h = 1.0f / h;
    float *restrict x = c->x, *restrict y = c->y;
    float *restrict xo = c->xold, *restrict yo = c->yold;
    float *restrict vx = c->vx, *restrict vy = c->vy;
    const float *restrict w = c->w;
    const float *restrict xy = c->xy;
    for (int i = 0; i < n; i++) {
        x[i] = xy[2 * i];
        y[i] = xy[2 * i + 1];
        if (w[i] > 0.0f) {
            float ux = (x[i] - xo[i]) * inv_h;
            float uy = (y[i] - yo[i]) * inv_h;
            if (isfinite(ux) && isfinite(uy)) {
                vx[i] = ux;
                vy[i] = uy;
                continue;
            }
            if (!isfinite(xo[i]) || !isfinite(yo[i]))
                grid_position(c, i, &xo[i], &yo[i]);
            x[i] = xo[i];
            y[i] = yo[i];
            vx[i] = 0.0f;
            vy[i] = 0.0f;
        }
    }
}

static float strain_of(const struct cloth *c, int k)
{
    int a = c->c1[k], b = c->c2[k];
    float dx = c->x[a] - c->x[b], dy = c->y[a] - c->y[b];
    return fabsf(sqrtf(dx * dx + dy * dy) - c->rest[k]) / c->rest[k];
}

/* Removes every constraint strained beyond tear_strain, keeping the order of the
 * others. In link[] a torn constraint leaves an empty lane (records left empty
 * are dropped): the remaining lanes still meet their particles in order. */
static void tear(struct cloth *c)
{
    float limit = c->prm.tear_strain;
    int *newk = c->scratch;
    int kept = 0;
    for (int k = 0; k < c->nc; k++) {
        if (strain_of(c, k) > limit) {
            newk[k] = -1;
            continue;
        }
        newk[k] = kept;
        c->c1[kept] = c->c1[k];
        c->c2[kept] = c->c2[k];
        c->rest[kept] = c->rest[k];
        c->lambda[kept] = c->lambda[k];
        kept++;
    }
    if (kept == c->nc)
        return;
    int records = 0;
    for (int r = 0; r < c->nlink; r++) {
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
    c->nlink = records;
    c->torn += c->nc - kept;
    c->nc = kept;
}

void cloth_step(struct cloth *c)
{
    const struct cloth_params *p = &c->prm;
    if (!(p->dt > 0.0f) || !isfinite(p->dt))
        return;
    if (p->mass != c->wmass)
        derive_inverse_masses(c);
    if (c->wdirty)
        copy_link_weights(c);
    int subs = clampi(p->substeps, 1, SUBSTEP_MAX);
    int iters = clampi(p->iterations, 0, ITER_MAX);
    float h = p->dt / (float)subs;
    float g = isfinite(p->gravity) ? p->gravity : 0.0f;
    float at = alpha_tilde(p->compliance, h);
    float ml2 = min_length2(c);

    for (int s = 0; s < subs; s++) {
        predict(c, h, g);
        if (at > 0.0f) {
            for (int r = 0; r < c->nlink; r++)
                memset(c->link[r].lambda, 0, sizeof c->link[r].lambda);
            for (int it = 0; it < iters; it++)
                sweep_xpbd(c, at, ml2);
        } else {
            for (int it = 0; it < iters; it++)
                sweep_pbd(c, ml2);
        }
        update_velocities(c, h);
    }
    if (at > 0.0f)
        for (int i = 0; i < c->nlink * LANES; i++)
            if (c->link_con[i] >= 0)
                c->lambda[c->link_con[i]] = c->link[i / LANES].lambda[i % LANES];
    c->time += p->dt;
    if (p->tearing)
        tear(c);
}

/* ---- pointer ---------------------------------------------------------------- */

int cloth_nearest(const struct cloth *c, float x, float y, float maxdist)
{
    if (!(maxdist >= 0.0f))
        return -1;
    int best = -1;
    float bestd2 = maxdist * maxdist;
    for (int i = 0; i < c->n; i++) {
        float dx = c->x[i] - x, dy = c->y[i] - y;
        float d2 = dx * dx + dy * dy;
        if (d2 < bestd2 || (best < 0 && d2 == bestd2)) {
            best = i;
            bestd2 = d2;
        }
    }
    return best;
}

/* Places the grabbed particle, the pointer clamped to a sane range. */
static void place_grabbed(struct cloth *c, float x, float y)
{
    int i = c->grabbed;
    if (i < 0 || !isfinite(x) || !isfinite(y))
        return;
    c->x[i] = c->xold[i] = clampf(x, -COORD_MAX, COORD_MAX);
    c->y[i] = c->yold[i] = clampf(y, -COORD_MAX, COORD_MAX);
}

void cloth_grab(struct cloth *c, int i, float x, float y)
{
    if (i < 0 || i >= c->n)
        return;
    if (c->grabbed >= 0 && c->grabbed != i)
        cloth_release(c, false, 0.0f, 0.0f);
    c->grabbed = i;
    c->w[i] = 0.0f;
    c->wdirty = true;
    place_grabbed(c, x, y);
}

void cloth_move_grab(struct cloth *c, float x, float y)
{
    place_grabbed(c, x, y);
}

void cloth_release(struct cloth *c, bool with_velocity, float vx, float vy)
{
    int i = c->grabbed;
    if (i < 0)
        return;
    c->grabbed = -1;
    c->w[i] = c->fixed[i] ? 0.0f : inverse_mass(c->wmass);
    c->wdirty = true;
    if (with_velocity && !c->fixed[i]) {
        c->vx[i] = isfinite(vx) ? vx : 0.0f;
        c->vy[i] = isfinite(vy) ? vy : 0.0f;
    }
}

/* ---- statistics ------------------------------------------------------------- */

void cloth_strain(const struct cloth *c, float *mean, float *max)
{
    double sum = 0.0;
    float top = 0.0f;
    for (int k = 0; k < c->nc; k++) {
        float e = strain_of(c, k);
        sum += e;
        if (e > top)
            top = e;
    }
    *mean = c->nc > 0 ? (float)(sum / c->nc) : 0.0f;
    *max = top;
}

void cloth_centroid(const struct cloth *c, float *cx, float *cy, float *miny)
{
    double sx = 0.0, sy = 0.0;
    float lo = INFINITY;
    for (int i = 0; i < c->n; i++) {
        sx += c->x[i];
        sy += c->y[i];
        if (c->y[i] < lo)
            lo = c->y[i];
    }
    *cx = (float)(sx / c->n);
    *cy = (float)(sy / c->n);
    *miny = lo;
}

float cloth_kinetic_energy(const struct cloth *c)
{
    /* Free particles only, each of mass 1/w: a grabbed one has no velocity of
     * its own. */
    double e = 0.0;
    for (int i = 0; i < c->n; i++)
        if (c->w[i] > 0.0f)
            e += ((double)c->vx[i] * c->vx[i] + (double)c->vy[i] * c->vy[i]) / c->w[i];
    return (float)(0.5 * e);
}
