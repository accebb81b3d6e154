/*
 * pbf_density.c — the density constraint of Position Based Fluids: per
 * iteration the densities and lambdas, then the position corrections, until
 * the density error is met (pbf_solve_density, called by pbf_step).
 */
#include "pbf_internal.h"
#include "sim_internal.h"
#include "simd.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define LAMBDA_EPS 1.0e-6f        /* constraint force mixing in lambda's denominator */
#define SEED_ERR_START 1000.0     /* pbf.html starts its error sum here */
#define L PBF_LANES

/*
 * A group's lists are stored slot-major (entry k of all its lanes side by side,
 * see pbf_part), which turns every per-particle sum into lane-wise vector
 * arithmetic: lane l adds its neighbours' terms in its list order, the same
 * order whatever the machine. The lists are full (each pair appears under both
 * particles), so every particle gathers its own sums and nothing is scattered.
 *
 * Where a group's lists and caches are, and its lanes' positions.
 */
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

/*
 * The hot loops, water_sums and water_moves, come once per width (SIMD_CLONE):
 * for AVX2 (8 lanes a vector) and for the build's baseline; the passes take
 * the widest the job allows (loops_for). Gathers stay loads and inserts
 * (generic tuning): gather instructions are slower on CPUs with the GDS
 * microcode mitigation, as measured here. Every width gives the same bits: the
 * lanes' sums are never reassociated, and simd.h rules out fused multiply-adds.
 */

/* The water slots of a group in one loop: per entry the distance vector (a
 * gather), W_ij and grad W_ij (left in the caches for the corrections of the
 * same iteration: positions do not move in between), and the lanes' sums of W,
 * grad W and |grad W|^2 (out[0..3]). Written for the vectorizer: restrict
 * parameters and lane-wise sums, which need no reassociation. */
SIMD_INLINE void water_sums_body(struct kernel kn, const float *restrict x,
                                 const float *restrict y, const int *restrict nbr,
                                 float *restrict pw, float *restrict pgx, float *restrict pgy,
                                 const struct group *gr, int nslot, float out[4][L])
{
    float xi[L], yi[L], sw[L] = {0}, sx[L] = {0}, sy[L] = {0}, s2[L] = {0};
    memcpy(xi, gr->xi, sizeof xi);
    memcpy(yi, gr->yi, sizeof yi);
    for (int e = 0; e < nslot * L; e += L)
        SIMD_LANE_LOOP
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

/* water_sums_x4 (or _x1) and water_sums_x8. */
#define WATER_SUMS_PARAMS                                                                  \
    (struct kernel kn, const float *restrict x, const float *restrict y,                   \
     const int *restrict nbr, float *restrict pw, float *restrict pgx, float *restrict pgy, \
     const struct group *gr, int nslot, float out[4][L])
#define WATER_SUMS_ARGS (kn, x, y, nbr, pw, pgx, pgy, gr, nslot, out)
SIMD_CLONE(water_sums, SIMD_BASE, WATER_SUMS_PARAMS, WATER_SUMS_ARGS)
#if SIMD_HAVE_8
SIMD_CLONE(water_sums, 8, WATER_SUMS_PARAMS, WATER_SUMS_ARGS)
#endif

/*
 * The same for the boundary slots (out[0..2]: W, grad W), but for one term:
 * no sum of |grad W|^2. In lambda_i's denominator the first sum,
 * sum_j |grad_j C_i|^2, is over the particles the constraint moves, and a
 * wall particle never moves (its inverse mass is 0; the seed leaves it out
 * too), while its grad W counts in grad_i C_i (out[1..2]) all the same. Each
 * term is weighted by the neighbour's psi here, as the pseudo-masses differ
 * from one wall particle to the next (the water's sums are scaled by the one
 * mass m afterwards, in lambda_part), and W is not cached: the corrections
 * read W_ij only for s_corr, a term of water pairs. Folding the two into one
 * function would move that weighting, and so the rounding: not the same bits.
 */
SIMD_NOINLINE static void boundary_sums(struct kernel kn, const float *restrict x,
                                        const float *restrict y, const float *restrict psi,
                                        const int *restrict nbr, float *restrict pgx,
                                        float *restrict pgy, const struct group *gr, int nslot,
                                        float out[3][L])
{
    float xi[L], yi[L], sw[L] = {0}, sx[L] = {0}, sy[L] = {0};
    memcpy(xi, gr->xi, sizeof xi);
    memcpy(yi, gr->yi, sizeof yi);
    for (int e = 0; e < nslot * L; e += L)
        SIMD_LANE_LOOP
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

/* The water part of a group's corrections: per lane the sums of
 * (lambda_i + lambda_j [+ s_corr_ij]) grad W_ij (out[0..1]); s_corr only when
 * scorr_k is not 0 (W_ij is read then). */
SIMD_INLINE void water_moves_body(const float *restrict lambda, const int *restrict nbr,
                                  const float *restrict pw, const float *restrict pgx,
                                  const float *restrict pgy, const float *li, float scorr_k,
                                  float inv_w_dq, int nslot, float out[2][L])
{
    float lam[L], sx[L] = {0}, sy[L] = {0};
    memcpy(lam, li, sizeof lam);
    if (scorr_k != 0.0f)
        for (int e = 0; e < nslot * L; e += L)
            SIMD_LANE_LOOP
            for (int l = 0; l < L; l++) {
                float t = pw[e + l] * inv_w_dq;
                t *= t;
                const float coef = lam[l] + lambda[nbr[e + l]] - scorr_k * t * t;
                sx[l] += coef * pgx[e + l];
                sy[l] += coef * pgy[e + l];
            }
    else
        for (int e = 0; e < nslot * L; e += L)
            SIMD_LANE_LOOP
            for (int l = 0; l < L; l++) {
                const float coef = lam[l] + lambda[nbr[e + l]];
                sx[l] += coef * pgx[e + l];
                sy[l] += coef * pgy[e + l];
            }
    memcpy(out[0], sx, sizeof sx);
    memcpy(out[1], sy, sizeof sy);
}

/* water_moves_x4 (or _x1) and water_moves_x8. */
#define WATER_MOVES_PARAMS                                                                 \
    (const float *restrict lambda, const int *restrict nbr, const float *restrict pw,      \
     const float *restrict pgx, const float *restrict pgy, const float *li, float scorr_k, \
     float inv_w_dq, int nslot, float out[2][L])
#define WATER_MOVES_ARGS (lambda, nbr, pw, pgx, pgy, li, scorr_k, inv_w_dq, nslot, out)
SIMD_CLONE(water_moves, SIMD_BASE, WATER_MOVES_PARAMS, WATER_MOVES_ARGS)
#if SIMD_HAVE_8
SIMD_CLONE(water_moves, 8, WATER_MOVES_PARAMS, WATER_MOVES_ARGS)
#endif

/* The hot loops of each width, widest first. */
static const struct loops {
    int lanes;
    void (*water_sums) WATER_SUMS_PARAMS;
    void (*water_moves) WATER_MOVES_PARAMS;
} loops[] = {
#if SIMD_HAVE_8
    {8, water_sums_x8, water_moves_x8},
#endif
    {SIMD_BASE, SIMD_NAME(water_sums, SIMD_BASE), SIMD_NAME(water_moves, SIMD_BASE)},
};

/* The widest loops of at most `lanes` lanes (the baseline's in any case). */
static const struct loops *loops_for(int lanes)
{
    size_t k = 0;
    while (k + 1 < sizeof loops / sizeof loops[0] && loops[k].lanes > lanes)
        k++;
    return &loops[k];
}

/* Densities rho_i = sum_j psi_j W_ij (self included) and the Lagrange
 * multipliers lambda_i = -C_i / (sum_j |grad_j C_i|^2 + |grad_i C_i|^2 + eps)
 * with C_i = max(rho_i/rho0 - 1, 0); boundary neighbours count in rho_i and
 * grad_i C_i but not in the first sum (as in the seed). The range's error sum
 * is max(rho_i - rho0, 0) over its particles. */
static void lambda_part(struct pbf_job *j, struct pbf_part *pt)
{
    struct pbf *s = j->s;
    const float m = s->mass, rho0 = s->prm.density0, inv_rho0 = 1.0f / rho0;
    const struct loops *run = loops_for(j->lanes);
    double err = 0.0;
    for (int g = pt->g0; g < pt->g1; g++) {
        float w[4][L], b[3][L] = {{0}}; /* sums of W, grad W (x, y), |grad W|^2 */
        float rho[L], lam[L], over[L];
        const int kb = s->gkb[g], count = pbf_group_lanes(s, g);
        const struct group gw = group_at(s, pt, g, 0);
        run->water_sums(j->kn, s->x, s->y, gw.nbr, gw.pw, gw.pgx, gw.pgy, &gw, s->gkw[g], w);
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

/* Position corrections dx_i = 1/rho0 (sum over water j of m (lambda_i + lambda_j
 * [+ s_corr_ij]) grad W_ij + sum over boundary j of psi_j lambda_i grad W_ij),
 * from the cached gradients, applied at once to every particle not held. The
 * corrections are Jacobi (from the positions the iteration started with: the
 * caches were filled from them) and land in x at once, as no pass between
 * reads x. */
static void correction_part(struct pbf_job *j, struct pbf_part *pt)
{
    struct pbf *s = j->s;
    const float m = s->mass, inv_rho0 = 1.0f / s->prm.density0;
    const float *restrict lambda = s->lambda, *restrict psi = s->psi;
    const struct loops *run = loops_for(j->lanes);
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
        run->water_moves(lambda, nbr, pw, pgx, pgy, li, scorr_k, inv_w_dq, kw, wm);
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
        const int count = pbf_group_lanes(s, g);
        for (int l = 0; l < count; l++)
            if (!s->held[g * L + l]) {
                s->x[g * L + l] = nx[l];
                s->y[g * L + l] = ny[l];
            }
    }
}

/* The sum of the ranges' error sums, in range order. */
static double lambda_pass(struct pbf_job *j)
{
    double err = 0.0;
    pbf_run_parts(j, lambda_part);
    for (int p = 0; p < PBF_PARTS; p++)
        err += j->s->part[p].err;
    return err;
}

/* Iterates until the mean density error is at most max_error_pct or max_iter
 * corrections were made. With seed_quirk, pbf.html's loop: the error is its
 * running value (starting at 1000, each pass adding its sum and dividing by
 * nfluid), measured before each pass's correction, which is applied regardless.
 * Without, the error is the plain mean at the current positions and the loop
 * stops as soon as it is met, so the positions it leaves are the ones measured.
 * A raised prm.stop ends the loop once a correction has been made. */
void pbf_solve_density(struct pbf_job *j)
{
    struct pbf *s = j->s;
    const double tol = (double)s->prm.max_error_pct * PCT * s->prm.density0;
    const atomic_int *stop = s->prm.stop; /* cut short: after a correction at least */
    int iter = 0;
    double avg;
    if (s->prm.seed_quirk) {
        avg = SEED_ERR_START;
        while (avg > tol && iter < s->prm.max_iter && (iter == 0 || !sim_stopped(stop))) {
            avg = (avg + lambda_pass(j)) / s->nfluid;
            pbf_run_parts(j, correction_part);
            iter++;
        }
    } else {
        for (;;) {
            avg = lambda_pass(j) / s->nfluid;
            if (!(avg > tol) || iter >= s->prm.max_iter || (iter > 0 && sim_stopped(stop)))
                break;
            pbf_run_parts(j, correction_part);
            iter++;
        }
    }
    if (s->prm.seed_quirk && iter == 0)
        lambda_pass(j); /* no pass ran: XSPH still needs the densities */
    s->iter = iter;
    s->avg_err = avg < FLT_MAX ? (float)avg : FLT_MAX;
}
