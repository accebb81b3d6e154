/*
 * pbf_solve.c — one step of Position Based Fluids (pbf_step): prediction,
 * neighbour lists, the density-constraint iterations, velocities and the
 * accelerations (XSPH viscosity, vorticity confinement) for the next step.
 *
 * Data and coordinates as in pbf.c; only the water moves (slots 0..nfluid-1).
 *
 * Work: the water is cut into groups of PBF_LANES consecutive slots and the
 * groups into PBF_PARTS ranges (pbf_part) of about equal work, cut again each
 * step from the last step's lists (cut_ranges). Every pass runs the ranges
 * through pool_run; a range reads what it likes but writes only its own slots
 * and its own lists, and the one sum a pass makes (the density error) is kept
 * per range and added in range order. So the bits do not depend on how many
 * threads ran the ranges, or in what order.
 *
 * Neighbours: the grid's frame is the box grown by h (where the prediction keeps
 * the water), so the prediction's ranges can place their particles into its
 * cells; only the counting sort of the cells runs on one thread.
 *
 * Pairs: full lists (each pair appears under both particles), so every particle
 * gathers its own sums and nothing is scattered. A group's lists are stored
 * slot-major (entry k of all its lanes side by side, see pbf_part), which turns
 * every per-particle sum into lane-wise vector arithmetic: lane l adds its
 * neighbours' terms in its list order, the same order whatever the machine.
 * The lambda pass gathers a group's distance vectors, evaluates the kernel and
 * sums in one loop (water_sums), leaving W_ij and grad W_ij in the part's
 * caches for the correction pass of the same iteration (positions do not move
 * in between); corrections are Jacobi (from the positions the iteration
 * started with) and land in x at once, as no pass between reads x. The
 * viscosity pass gathers first and then runs the kernel over the flat caches
 * (kernel_many). Nothing here allocates once the lists have reached their size.
 */
#include "pbf_internal.h"
#include "pool.h"
#include "sim_common.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#define LAMBDA_EPS 1.0e-6f        /* constraint force mixing in lambda's denominator */
#define SEED_ERR_START 1000.0     /* pbf.html starts its error sum here */
#define VORT_MIN_ETA 1.0e-12f     /* below this |grad |omega|| there is no direction */
#define INSET_FRAC 1.0e-3f        /* the most a clamp insets a particle, in radii */
#define L PBF_LANES

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif
/*
 * The hot loops come twice: for AVX2 (8 lanes a vector) and for the baseline;
 * the step picks one by what the CPU supports (job.wide). Gathers stay loads
 * and inserts (generic tuning): gather instructions are slower on CPUs with the
 * GDS microcode mitigation, as measured here. Both give the same bits: C11 mode
 * contracts no multiply-add, the lanes' sums are never reassociated, and square
 * roots and divisions are exact either way. TWO_WAYS(f, params, args) defines
 * f_wide and f_base, each the body f_body inlined under its own target.
 */
#if defined(__GNUC__) && defined(__x86_64__) && !defined(SWIRL_NO_AVX2)
#define HAVE_WIDE 1
#define BODY static inline __attribute__((always_inline))
#define TWO_WAYS(f, params, args)                                                        \
    __attribute__((target("avx2"))) NOINLINE static void f##_wide params                  \
    {                                                                                    \
        f##_body args;                                                                   \
    }                                                                                    \
    NOINLINE static void f##_base params { f##_body args; }
#else
#define HAVE_WIDE 0
#define BODY static inline
#define TWO_WAYS(f, params, args)                                                        \
    NOINLINE static void f##_base params { f##_body args; }                              \
    NOINLINE static void f##_wide params { f##_body args; }
#endif

/* Before a loop over the lanes of a group in the hot loops: vectorized as it
 * stands (one or two vectors), not unrolled first and then vectorized across
 * groups, which GCC otherwise does with a pile of shuffles. */
#if defined(__GNUC__)
#define LANE_LOOP _Pragma("GCC unroll 1")
#else
#define LANE_LOOP
#endif

/* One pass over the ranges: the state, the kernel, what the pass reads. */
struct job {
    struct pbf *s;
    struct kernel kn;
    bool wide;           /* the AVX2 loops */
    bool grid;           /* the neighbour grid's frame is laid: predict places */
};

typedef void (*part_fn)(struct job *j, struct pbf_part *pt);

struct run {
    struct job *job;
    part_fn fn;
};

static void run_part(void *arg, int part, int nparts)
{
    const struct run *r = arg;
    (void)nparts;
    r->fn(r->job, &r->job->s->part[part]);
}

static void run_parts(struct job *j, part_fn fn)
{
    struct run r = {j, fn};
    pool_run(j->s->pool, run_part, &r, PBF_PARTS);
}

/* The slots of a range: [*i0, *i1). */
static void part_slots(const struct pbf *s, const struct pbf_part *pt, int *i0, int *i1)
{
    *i0 = pt->g0 * L;
    *i1 = pt->g1 * L < s->nfluid ? pt->g1 * L : s->nfluid;
}

/* The lanes of group g that hold water. */
static int lanes_of(const struct pbf *s, int g)
{
    const int left = s->nfluid - g * L;
    return left < L ? left : L;
}

/* ---- Prediction and the end of the step ---------------------------------------- */

/* How far inside a clamp's bound particle i stops: a fixed fraction of
 * INSET_FRAC r per particle (from its id, so it follows the particle). Two
 * particles clamped into the same corner would otherwise coincide, and
 * coincident particles, having no gradient between them, never part again. */
static float inset(const struct pbf *s, int i)
{
    const unsigned hash = (unsigned)s->id[i] * 2654435761u;
    return INSET_FRAC * s->prm.radius * (float)(hash >> 8) * (1.0f / 16777216.0f);
}

/* Symplectic Euler prediction with the accelerations of the previous step, then
 * the accelerations are reset to gravity. Predicted positions are kept within
 * the box grown by h: at sane parameters this never binds; it is what the
 * neighbour grid's frame covers. The range's water then goes into the grid's
 * cells, and so does its share of the boundary. */
static void predict_part(struct job *j, struct pbf_part *pt)
{
    struct pbf *s = j->s;
    const float dt = s->prm.dt, g = isfinite(s->prm.gravity) ? s->prm.gravity : 0.0f;
    const float lox = s->xmin - s->h, hix = s->xmax + s->h;
    const float loy = s->ymin - s->h, hiy = s->ymax + s->h;
    int i0, i1;
    part_slots(s, pt, &i0, &i1);
    for (int i = i0; i < i1; i++) {
        const float in = inset(s, i);
        s->xold[i] = s->x[i];
        s->yold[i] = s->y[i];
        s->vx[i] += dt * s->ax[i];
        s->vy[i] += dt * s->ay[i];
        s->x[i] = clampf(s->x[i] + dt * s->vx[i], lox + in, hix - in);
        s->y[i] = clampf(s->y[i] + dt * s->vy[i], loy + in, hiy - in);
        s->ax[i] = 0.0f;
        s->ay[i] = g;
    }
    if (j->grid) {
        int b0, b1;
        nsearch_place(&s->ns, s->x, s->y, i0, i1);
        pool_span(s->n - s->nfluid, (int)(pt - s->part), PBF_PARTS, &b0, &b1);
        nsearch_place(&s->ns, s->x, s->y, s->nfluid + b0, s->nfluid + b1);
    }
}

/* The end of the solve: a particle that went non-finite returns to its old
 * position at rest, the water is clamped into the box (held particles are
 * there already), velocities come from the displacement, and V_i = m/rho_i is
 * kept for the viscosity. */
static void finish_part(struct job *j, struct pbf_part *pt)
{
    struct pbf *s = j->s;
    const float r = s->prm.radius, inv_dt = 1.0f / s->prm.dt;
    const float lox = s->xmin + r, hix = s->xmax - r;
    const float loy = s->ymin + r, hiy = s->ymax - r;
    int i0, i1;
    part_slots(s, pt, &i0, &i1);
    for (int i = i0; i < i1; i++) {
        const float in = s->held[i] ? 0.0f : inset(s, i);
        if (!isfinite(s->x[i]) || !isfinite(s->y[i])) {
            s->x[i] = s->xold[i];
            s->y[i] = s->yold[i];
        }
        s->x[i] = clampf(s->x[i], lox + in, hix - in);
        s->y[i] = clampf(s->y[i], loy + in, hiy - in);
        s->vx[i] = (s->x[i] - s->xold[i]) * inv_dt;
        s->vy[i] = (s->y[i] - s->yold[i]) * inv_dt;
        if (!isfinite(s->vx[i]) || !isfinite(s->vy[i])) {
            s->x[i] = clampf(s->xold[i], lox, hix);
            s->y[i] = clampf(s->yold[i], loy, hiy);
            s->vx[i] = 0.0f;
            s->vy[i] = 0.0f;
        }
        s->vol[i] = s->density[i] > 0.0f ? s->mass / s->density[i] : 0.0f;
    }
}

/* The held particles at their points (at the prediction and after the solve). */
static void place_held(struct pbf *s)
{
    for (int g = 0; g < s->ngrab; g++) {
        const int i = s->grab_i[g];
        held_point(s, g, &s->x[i], &s->y[i]);
    }
}

/* ---- Neighbour lists --------------------------------------------------------- */

/* The caches as large as the lists; 0 or -1. */
static int grow_caches(struct pbf_part *pt)
{
    const int cap = pt->lists.cap;
    if (cap <= pt->cache_cap)
        return 0;
    if (SIM_RESIZE(pt->pw, (size_t)cap) != 0 || SIM_RESIZE(pt->pgx, (size_t)cap) != 0 ||
        SIM_RESIZE(pt->pgy, (size_t)cap) != 0)
        return -1;
    pt->cache_cap = cap;
    return 0;
}

/* The range's groups' lists, one after the other: water slots, then boundary
 * slots, padded with the dummy. */
static void lists_part(struct job *j, struct pbf_part *pt)
{
    struct pbf *s = j->s;
    int off = 0;
    pt->fail = false;
    for (int g = pt->g0; g < pt->g1 && !pt->fail; g++) {
        pt->fail = nsearch_lanes(&s->ns, g * L, L, s->nfluid, s->nfluid, s->n, &pt->lists, off,
                                 &s->gkw[g], &s->gkb[g]) != 0;
        s->gstart[g] = off;
        off += (s->gkw[g] + s->gkb[g]) * L;
    }
    pt->fail = pt->fail || grow_caches(pt) != 0;
}

/* ---- Pair kernels ------------------------------------------------------------ */

/*
 * In place over nblock blocks of L entries: w[e] holds a squared distance and
 * (gx[e], gy[e]) the vector x_i - x_j; they become W_ij and grad W_ij. This is
 * the solver's kernel loop, written for the auto-vectorizer of GCC -O2 (whose
 * "very cheap" model wants no runtime alias check and no scalar remainder): no
 * branches, restrict parameters (which GCC forgets when the function is
 * inlined, hence NOINLINE) and an unsigned trip count that is a multiple of the
 * block. It needs -fno-math-errno to vectorize sqrtf; without it the loop is
 * scalar and gives the same bits.
 */
NOINLINE static void kernel_many(struct kernel kn, float *restrict w, float *restrict gx,
                                 float *restrict gy, int nblock)
{
    const unsigned n = (unsigned)nblock * L;
    for (unsigned e = 0; e < n; e++) {
        float g;
        kernel_pair(kn, w[e], &w[e], &g);
        gx[e] *= g;
        gy[e] *= g;
    }
}

/* W_ij and grad W_ij of the first nslot slots of group g into the caches: the
 * distance vectors first (a gather), then the kernel. */
static void group_kernels(const struct pbf *s, struct pbf_part *pt, const struct kernel *kn,
                          int g, int nslot)
{
    const float *restrict x = s->x, *restrict y = s->y;
    const int off = s->gstart[g];
    const int *restrict nbr = pt->lists.nbr + off;
    float *restrict pw = pt->pw + off, *restrict pgx = pt->pgx + off;
    float *restrict pgy = pt->pgy + off;
    const float *xi = x + g * L, *yi = y + g * L;
    for (int k = 0; k < nslot; k++)
        for (int l = 0; l < L; l++) {
            const int e = k * L + l, jj = nbr[e];
            const float rx = xi[l] - x[jj], ry = yi[l] - y[jj];
            pw[e] = rx * rx + ry * ry;
            pgx[e] = rx;
            pgy[e] = ry;
        }
    kernel_many(*kn, pw, pgx, pgy, nslot);
}

/* ---- The density constraint -------------------------------------------------- */

/* Where a group's lists and caches are, and its lanes' positions. */
struct group {
    const int *nbr;
    float *pw, *pgx, *pgy;
    float xi[L], yi[L];
};

static struct group group_at(const struct pbf *s, struct pbf_part *pt, int g, int slot0)
{
    struct group gr;
    const int off = s->gstart[g] + slot0 * L;
    gr.nbr = pt->lists.nbr + off;
    gr.pw = pt->pw + off;
    gr.pgx = pt->pgx + off;
    gr.pgy = pt->pgy + off;
    memcpy(gr.xi, s->x + g * L, sizeof gr.xi);
    memcpy(gr.yi, s->y + g * L, sizeof gr.yi);
    return gr;
}

/* The water slots of a group in one loop: per entry the distance vector (a
 * gather), W_ij and grad W_ij (left in the caches), and the lanes' sums of W,
 * grad W and |grad W|^2 (out[0..3]). Like kernel_many, written for the
 * vectorizer: restrict parameters (GCC honours them on parameters only) and
 * lane-wise sums, which need no reassociation. */
BODY void water_sums_body(struct kernel kn, const float *restrict x, const float *restrict y,
                          const int *restrict nbr, float *restrict pw, float *restrict pgx,
                          float *restrict pgy, const struct group *gr, int nslot,
                          float out[4][L])
{
    float xi[L], yi[L], sw[L] = {0}, sx[L] = {0}, sy[L] = {0}, s2[L] = {0};
    memcpy(xi, gr->xi, sizeof xi);
    memcpy(yi, gr->yi, sizeof yi);
    for (int e = 0; e < nslot * L; e += L)
        LANE_LOOP
        for (int l = 0; l < L; l++) {
            const int jj = nbr[e + l];
            const float rx = xi[l] - x[jj], ry = yi[l] - y[jj];
            float w, gs;
            kernel_pair(kn, rx * rx + ry * ry, &w, &gs);
            const float gx = gs * rx, gy = gs * ry;
            pw[e + l] = w;
            pgx[e + l] = gx;
            pgy[e + l] = gy;
            sw[l] += w;
            sx[l] += gx;
            sy[l] += gy;
            s2[l] += gx * gx + gy * gy;
        }
    memcpy(out[0], sw, sizeof sw);
    memcpy(out[1], sx, sizeof sx);
    memcpy(out[2], sy, sizeof sy);
    memcpy(out[3], s2, sizeof s2);
}

TWO_WAYS(water_sums,
         (struct kernel kn, const float *restrict x, const float *restrict y,
          const int *restrict nbr, float *restrict pw, float *restrict pgx,
          float *restrict pgy, const struct group *gr, int nslot, float out[4][L]),
         (kn, x, y, nbr, pw, pgx, pgy, gr, nslot, out))

/* The same for the boundary slots, each term weighted by the neighbour's psi
 * (out[0..2]: W, grad W). */
NOINLINE static void boundary_sums(struct kernel kn, const float *restrict x,
                                   const float *restrict y, const float *restrict psi,
                                   const int *restrict nbr, float *restrict pgx,
                                   float *restrict pgy, const struct group *gr, int nslot,
                                   float out[3][L])
{
    float xi[L], yi[L], sw[L] = {0}, sx[L] = {0}, sy[L] = {0};
    memcpy(xi, gr->xi, sizeof xi);
    memcpy(yi, gr->yi, sizeof yi);
    for (int e = 0; e < nslot * L; e += L)
        LANE_LOOP
        for (int l = 0; l < L; l++) {
            const int jj = nbr[e + l];
            const float rx = xi[l] - x[jj], ry = yi[l] - y[jj], pj = psi[jj];
            float w, gs;
            kernel_pair(kn, rx * rx + ry * ry, &w, &gs);
            const float gx = gs * rx, gy = gs * ry;
            pgx[e + l] = gx;
            pgy[e + l] = gy;
            sw[l] += pj * w;
            sx[l] += pj * gx;
            sy[l] += pj * gy;
        }
    memcpy(out[0], sw, sizeof sw);
    memcpy(out[1], sx, sizeof sx);
    memcpy(out[2], sy, sizeof sy);
}

/* Densities rho_i = sum_j psi_j W_ij (self included) and the Lagrange
 * multipliers lambda_i = -C_i / (sum_j |grad_j C_i|^2 + |grad_i C_i|^2 + eps)
 * with C_i = max(rho_i/rho0 - 1, 0); boundary neighbours count in rho_i and
 * grad_i C_i but not in the first sum (as in the seed). The range's error sum
 * is max(rho_i - rho0, 0) over its particles. */
static void lambda_part(struct job *j, struct pbf_part *pt)
{
    struct pbf *s = j->s;
    const float m = s->mass, rho0 = s->prm.density0, inv_rho0 = 1.0f / rho0;
    double err = 0.0;
    for (int g = pt->g0; g < pt->g1; g++) {
        float w[4][L], b[3][L] = {{0}}; /* sums of W, grad W (x, y), |grad W|^2 */
        float rho[L], lam[L], over[L];
        const int kb = s->gkb[g], count = lanes_of(s, g);
        const struct group gw = group_at(s, pt, g, 0);
        (j->wide ? water_sums_wide : water_sums_base)(j->kn, s->x, s->y, gw.nbr, gw.pw,
                                                      gw.pgx, gw.pgy, &gw, s->gkw[g], w);
        if (kb > 0) {
            const struct group gb = group_at(s, pt, g, s->gkw[g]);
            boundary_sums(j->kn, s->x, s->y, s->psi, gb.nbr, gb.pgx, gb.pgy, &gb, kb, b);
        }
        for (int l = 0; l < L; l++) { /* every lane, vectorized; count of them kept */
            rho[l] = m * (j->kn.k + w[0][l]) + b[0][l];
            const float gx = m * w[1][l] + b[1][l], gy = m * w[2][l] + b[2][l];
            /* C_i clamped at 0 (lambda_i = 0 then): branch-free, as whether a
             * particle is compressed is a coin toss at the surface. */
            const float c = pos_part(rho[l] * inv_rho0 - 1.0f);
            const float denom = (m * m * w[3][l] + gx * gx + gy * gy) * inv_rho0 * inv_rho0;
            lam[l] = -c / (denom + LAMBDA_EPS);
            over[l] = pos_part(rho[l] - rho0);
        }
        memcpy(s->density + g * L, rho, (size_t)count * sizeof *rho);
        memcpy(s->lambda + g * L, lam, (size_t)count * sizeof *lam);
        float sum = 0.0f; /* the group's part of the error, lane by lane */
        for (int l = 0; l < count; l++)
            sum += over[l];
        err += sum;
    }
    pt->err = err;
}

/* The water part of a group's corrections: per lane the sums of
 * (lambda_i + lambda_j [+ s_corr_ij]) grad W_ij (out[0..1]); s_corr only when
 * scorr_k is not 0 (W_ij is read then). */
BODY void water_moves_body(const float *restrict lambda, const int *restrict nbr,
                           const float *restrict pw, const float *restrict pgx,
                           const float *restrict pgy, const float *li, float scorr_k,
                           float inv_w_dq, int nslot, float out[2][L])
{
    float lam[L], sx[L] = {0}, sy[L] = {0};
    memcpy(lam, li, sizeof lam);
    if (scorr_k != 0.0f)
        for (int e = 0; e < nslot * L; e += L)
            LANE_LOOP
            for (int l = 0; l < L; l++) {
                float t = pw[e + l] * inv_w_dq;
                t *= t;
                const float coef = lam[l] + lambda[nbr[e + l]] - scorr_k * t * t;
                sx[l] += coef * pgx[e + l];
                sy[l] += coef * pgy[e + l];
            }
    else
        for (int e = 0; e < nslot * L; e += L)
            LANE_LOOP
            for (int l = 0; l < L; l++) {
                const float coef = lam[l] + lambda[nbr[e + l]];
                sx[l] += coef * pgx[e + l];
                sy[l] += coef * pgy[e + l];
            }
    memcpy(out[0], sx, sizeof sx);
    memcpy(out[1], sy, sizeof sy);
}

TWO_WAYS(water_moves,
         (const float *restrict lambda, const int *restrict nbr, const float *restrict pw,
          const float *restrict pgx, const float *restrict pgy, const float *li,
          float scorr_k, float inv_w_dq, int nslot, float out[2][L]),
         (lambda, nbr, pw, pgx, pgy, li, scorr_k, inv_w_dq, nslot, out))

/* Position corrections dx_i = 1/rho0 (sum over water j of m (lambda_i + lambda_j
 * [+ s_corr_ij]) grad W_ij + sum over boundary j of psi_j lambda_i grad W_ij),
 * from the cached gradients, applied at once to every particle not held. */
static void correction_part(struct job *j, struct pbf_part *pt)
{
    struct pbf *s = j->s;
    const float m = s->mass, inv_rho0 = 1.0f / s->prm.density0;
    const float *restrict lambda = s->lambda, *restrict psi = s->psi;
    const float scorr_k = s->prm.scorr ? SCORR_K * s->scorr_unit : 0.0f;
    const float dq = SCORR_DQ * j->kn.h;
    float w_dq, g_dq;
    kernel_pair(j->kn, dq * dq, &w_dq, &g_dq);
    const float inv_w_dq = w_dq > 0.0f ? 1.0f / w_dq : 0.0f;
    const float lox = s->xmin - s->h, hix = s->xmax + s->h;
    const float loy = s->ymin - s->h, hiy = s->ymax + s->h;

    for (int g = pt->g0; g < pt->g1; g++) {
        const int kw = s->gkw[g], kb = s->gkb[g], off = s->gstart[g];
        const float *pw = pt->pw + off, *pgx = pt->pgx + off, *pgy = pt->pgy + off;
        const int *nbr = pt->lists.nbr + off;
        const float *li = lambda + g * L;
        float wm[2][L], bx[L] = {0}, by[L] = {0};
        (j->wide ? water_moves_wide : water_moves_base)(lambda, nbr, pw, pgx, pgy, li, scorr_k,
                                                        inv_w_dq, kw, wm);
        for (int e = kw * L; e < (kw + kb) * L; e += L)
            for (int l = 0; l < L; l++) {
                const float pj = psi[nbr[e + l]];
                bx[l] += pj * pgx[e + l];
                by[l] += pj * pgy[e + l];
            }
        /* Positions stay inside the box grown by h (see predict), so that every
         * distance the kernel sees is finite. */
        float nx[L], ny[L];
        const float *xg = s->x + g * L, *yg = s->y + g * L;
        for (int l = 0; l < L; l++) {
            const float dx = m * wm[0][l] + li[l] * bx[l], dy = m * wm[1][l] + li[l] * by[l];
            nx[l] = clampf(xg[l] + dx * inv_rho0, lox, hix);
            ny[l] = clampf(yg[l] + dy * inv_rho0, loy, hiy);
        }
        const int count = lanes_of(s, g);
        for (int l = 0; l < count; l++)
            if (!s->held[g * L + l]) {
                s->x[g * L + l] = nx[l];
                s->y[g * L + l] = ny[l];
            }
    }
}

/* The sum of the ranges' error sums, in range order. */
static double lambda_pass(struct job *j)
{
    double err = 0.0;
    run_parts(j, lambda_part);
    for (int p = 0; p < PBF_PARTS; p++)
        err += j->s->part[p].err;
    return err;
}

/* Iterates until the mean density error is at most max_error_pct or max_iter
 * corrections were made. With seed_quirk, pbf.html's loop: the error is its
 * running value (starting at 1000, each pass adding its sum and dividing by
 * nfluid), measured before each pass's correction, which is applied regardless.
 * Without, the error is the plain mean at the current positions and the loop
 * stops as soon as it is met, so the positions it leaves are the ones measured. */
static void solve(struct job *j)
{
    struct pbf *s = j->s;
    const double tol = (double)s->prm.max_error_pct * PCT * s->prm.density0;
    int iter = 0;
    double avg;
    if (s->prm.seed_quirk) {
        avg = SEED_ERR_START;
        while (avg > tol && iter < s->prm.max_iter) {
            avg = (avg + lambda_pass(j)) / s->nfluid;
            run_parts(j, correction_part);
            iter++;
        }
    } else {
        for (;;) {
            avg = lambda_pass(j) / s->nfluid;
            if (!(avg > tol) || iter >= s->prm.max_iter)
                break;
            run_parts(j, correction_part);
            iter++;
        }
    }
    if (s->prm.seed_quirk && iter == 0)
        lambda_pass(j); /* no pass ran: XSPH still needs the densities */
    s->iter = iter;
    s->avg_err = avg < FLT_MAX ? (float)avg : FLT_MAX;
}

/* ---- Accelerations ----------------------------------------------------------- */

/* A non-finite acceleration of the range's particles falls back to gravity (at
 * the end of the last pass that adds to them: only the particle's own slot is
 * read). */
static void accel_guard(struct pbf *s, const struct pbf_part *pt)
{
    int i0, i1;
    part_slots(s, pt, &i0, &i1);
    for (int i = i0; i < i1; i++)
        if (!isfinite(s->ax[i]) || !isfinite(s->ay[i])) {
            s->ax[i] = 0.0f;
            s->ay[i] = isfinite(s->prm.gravity) ? s->prm.gravity : 0.0f;
        }
}

/* XSPH viscosity a_i += viscosity/dt sum_j V_j W_ij (v_j - v_i) with
 * V_j = m/rho_j, and (when confinement is on) the vorticity
 * omega_i = sum_j V_j grad W_ij x (v_j - v_i), counter-clockwise positive; both
 * over water neighbours at the final positions. Leaves grad W_ij in the caches
 * for the vorticity pass. */
static void viscosity_part(struct job *j, struct pbf_part *pt)
{
    struct pbf *s = j->s;
    const float visc = s->prm.viscosity / s->prm.dt;
    const float *restrict vx = s->vx, *restrict vy = s->vy, *restrict vol = s->vol;
    for (int g = pt->g0; g < pt->g1; g++) {
        const int kw = s->gkw[g], off = s->gstart[g];
        group_kernels(s, pt, &j->kn, g, kw);
        const float *pw = pt->pw + off, *pgx = pt->pgx + off, *pgy = pt->pgy + off;
        const int *nbr = pt->lists.nbr + off;
        const float *vxi = vx + g * L, *vyi = vy + g * L;
        float ax[L] = {0}, ay[L] = {0}, om[L] = {0};
        for (int e = 0; e < kw * L; e += L)
            for (int l = 0; l < L; l++) {
                const int jj = nbr[e + l];
                const float dvx = vx[jj] - vxi[l], dvy = vy[jj] - vyi[l];
                const float vw = vol[jj] * pw[e + l];
                ax[l] += vw * dvx;
                ay[l] += vw * dvy;
                om[l] += vol[jj] * (pgx[e + l] * dvy - pgy[e + l] * dvx);
            }
        for (int l = 0; l < L && g * L + l < s->nfluid; l++) {
            const int i = g * L + l;
            s->ax[i] += visc * ax[l];
            s->ay[i] += visc * ay[l];
            s->omega[i] = om[l];
        }
    }
    if (s->prm.vorticity == 0.0f)
        accel_guard(s, pt);
}

/* Vorticity confinement: eta = grad |omega| (SPH difference form
 * sum_j V_j (|omega_j| - |omega_i|) grad W_ij), N = eta/|eta|,
 * a_i += eps (N_y omega_i, -N_x omega_i). Uses the viscosity pass's gradients. */
static void vorticity_part(struct job *j, struct pbf_part *pt)
{
    struct pbf *s = j->s;
    const float eps = s->prm.vorticity;
    const float *restrict om = s->omega, *restrict vol = s->vol;
    for (int g = pt->g0; g < pt->g1; g++) {
        const int kw = s->gkw[g], off = s->gstart[g];
        const float *pgx = pt->pgx + off, *pgy = pt->pgy + off;
        const int *nbr = pt->lists.nbr + off;
        const float *omi = om + g * L;
        float ex[L] = {0}, ey[L] = {0};
        for (int e = 0; e < kw * L; e += L)
            for (int l = 0; l < L; l++) {
                const int jj = nbr[e + l];
                const float f = vol[jj] * (fabsf(om[jj]) - fabsf(omi[l]));
                ex[l] += f * pgx[e + l];
                ey[l] += f * pgy[e + l];
            }
        for (int l = 0; l < L && g * L + l < s->nfluid; l++) {
            const int i = g * L + l;
            const float len2 = ex[l] * ex[l] + ey[l] * ey[l];
            if (!(len2 > VORT_MIN_ETA * VORT_MIN_ETA) || !isfinite(len2))
                continue;
            const float inv_len = 1.0f / sqrtf(len2);
            s->ax[i] += eps * ey[l] * inv_len * om[i];
            s->ay[i] -= eps * ex[l] * inv_len * om[i];
        }
    }
    accel_guard(s, pt);
}

static void accelerations(struct job *j)
{
    const struct pbf *s = j->s;
    if (s->prm.viscosity == 0.0f && s->prm.vorticity == 0.0f)
        return;
    run_parts(j, viscosity_part);
    if (s->prm.vorticity != 0.0f)
        run_parts(j, vorticity_part);
}

/* ---- The step ---------------------------------------------------------------- */

/*
 * The ranges for this step: PBF_PARTS runs of groups of about equal work, the
 * work of a group taken to be its list slots in the last step plus one (the
 * passes' cost goes with the slots; a group with none yet counts one). Range p
 * ends at the first group where the running work reaches p+1 PBF_PARTS-ths of
 * the total. Ranges of equal particle counts would not do: the water at the
 * bottom of the box is denser and has more boundary neighbours, so the threads
 * would wait for its ranges at the end of every pass. The cut is a function of
 * the last step's lists alone, so it is the same whatever the thread count.
 */
static void cut_ranges(struct pbf *s)
{
    long long total = 0;
    for (int g = 0; g < s->ngroup; g++)
        total += s->gkw[g] + s->gkb[g] + 1;
    long long run = 0;
    int g = 0;
    for (int p = 0; p < PBF_PARTS; p++) {
        const long long goal = total * (p + 1) / PBF_PARTS;
        s->part[p].g0 = g;
        while (g < s->ngroup && run < goal) {
            run += s->gkw[g] + s->gkb[g] + 1;
            g++;
        }
        s->part[p].g1 = g;
    }
}

/* The grid (its frame laid and the points placed by predict, except where the
 * held ones are now), then the lists. */
static bool build_lists(struct job *j)
{
    struct pbf *s = j->s;
    if (!j->grid)
        return false;
    for (int g = 0; g < s->ngrab; g++)
        nsearch_place(&s->ns, s->x, s->y, s->grab_i[g], s->grab_i[g] + 1);
    nsearch_sort(&s->ns, s->x, s->y);
    cut_ranges(s);
    run_parts(j, lists_part);
    for (int p = 0; p < PBF_PARTS; p++)
        if (s->part[p].fail)
            return false;
    return true;
}

void pbf_step(struct pbf *s)
{
    if (s->nfluid < 1 || !(s->prm.dt > 0.0f) || !isfinite(s->prm.dt))
        return;
    struct job j = {s, kernel_make(s->h), false, false};
#if HAVE_WIDE
    j.wide = !s->narrow && __builtin_cpu_supports("avx2");
#endif
    if (s->since_sort == 0)
        pbf_sort_by_cell(s);
    s->since_sort = (s->since_sort + 1) % PBF_SORT_EVERY;

    /* The grid over the box grown by h, where predict keeps the water. */
    j.grid = nsearch_frame(&s->ns, s->n, s->h, s->xmin - s->h, s->ymin - s->h, s->xmax + s->h,
                           s->ymax + s->h) == 0;
    run_parts(&j, predict_part);
    place_held(s);
    const bool lists = build_lists(&j);
    s->iter = 0;
    if (lists)
        solve(&j);
    place_held(s);
    run_parts(&j, finish_part);
    if (lists)
        accelerations(&j);
    s->time += s->prm.dt;
}
