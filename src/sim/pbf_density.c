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
 */

/*
 * The hot loops in plain C, for a build without vectors (SIMD_BASE 1; on x86
 * the passes run pbf_density_lanes.h's, which do the same in vectors of 4, 8 or 16
 * lanes, the widest the job allows). Every width gives the same bits: the
 * lanes' sums are never reassociated, and simd.h rules out fused multiply-adds.
 */
#if !SIMD_HAVE_4
/* A group's lanes' positions. */
struct group {
    float xi[L], yi[L];
};


/* The water slots of a group in one loop: per entry the distance vector (a
 * gather), W_ij and grad W_ij (left in the caches for the corrections of the
 * same iteration: positions do not move in between), and the lanes' sums of W,
 * grad W and |grad W|^2 (out[0..3]). Written for the vectorizer: restrict
 * parameters and lane-wise sums, which need no reassociation. */
SIMD_NOINLINE static void water_sums(struct kernel kn, const float *restrict x,
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
SIMD_NOINLINE static void water_moves(const float *restrict lambda, const int *restrict nbr,
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


#endif

/*
 * The passes' work on one group, in vectors (pbf_density_lanes.h, once per width) or
 * in plain C (the functions above): what a group's lambda pass and its
 * corrections read, and the loops of each width, widest first.
 */
struct lane_set {
    float inv_h, k2, gfac, k; /* the kernel's */
    float m, inv_rho0, rho0, eps;
};

struct lambda_args {
    const float *x, *y, *xy, *psi;
    const int *nbr, *gstart, *gkw, *gkb;
    float *pw, *pgx, *pgy;
    struct lane_set c;
};

struct correction_args {
    const float *x, *y, *lambda, *psi;
    const int *nbr, *gstart, *gkw, *gkb;
    const float *pw, *pgx, *pgy;
    float m, inv_rho0, scorr_k, inv_w_dq;
    float lox, hix, loy, hiy;
};

#if SIMD_HAVE_4
#define W 4
#include "pbf_density_lanes.h"
#endif
#if SIMD_HAVE_8
#define W 8
#include "pbf_density_lanes.h"
#endif
#if SIMD_HAVE_16
#define W 16
#include "pbf_density_lanes.h"
#endif

#if !SIMD_HAVE_4
static void lambda_group_plain(const struct lambda_args *a, int g, float *rho, float *lam,
                               float *over);
static void correction_group_plain(const struct correction_args *a, int g, float *nx, float *ny);
#endif

static const struct group_loops {
    int lanes;
    void (*lambda)(const struct lambda_args *a, int g, float *rho, float *lam, float *over);
    void (*correction)(const struct correction_args *a, int g, float *nx, float *ny);
} group_loops[] = {
#if SIMD_HAVE_16
    {16, lambda_group_x16, correction_group_x16},
#endif
#if SIMD_HAVE_8
    {8, lambda_group_x8, correction_group_x8},
#endif
#if SIMD_HAVE_4
    {4, lambda_group_x4, correction_group_x4},
#else
    {1, lambda_group_plain, correction_group_plain},
#endif
};

/* The widest loops of at most `lanes` lanes (the narrowest in any case). */
static const struct group_loops *loops_for(int lanes)
{
    size_t k = 0;
    while (k + 1 < sizeof group_loops / sizeof group_loops[0] && group_loops[k].lanes > lanes)
        k++;
    return &group_loops[k];
}

#if !SIMD_HAVE_4
/* One group of the lambda pass in plain C (see lambda_part). */
static void lambda_group_plain(const struct lambda_args *a, int g, float *rho, float *lam,
                               float *over)
{
    const struct lane_set c = a->c;
    const struct kernel kn = {0.0f, c.inv_h, c.k, c.k2, c.gfac};
    const int off = a->gstart[g], kw = a->gkw[g], kb = a->gkb[g];
    float w[4][L], b[3][L] = {{0}}; /* sums of W, grad W (x, y), |grad W|^2 */
    struct group gr;
    memcpy(gr.xi, a->x + g * L, sizeof gr.xi);
    memcpy(gr.yi, a->y + g * L, sizeof gr.yi);
    water_sums(kn, a->x, a->y, a->nbr + off, a->pw + off, a->pgx + off, a->pgy + off, &gr, kw, w);
    if (kb > 0) {
        const int bo = off + kw * L;
        boundary_sums(kn, a->x, a->y, a->psi, a->nbr + bo, a->pgx + bo, a->pgy + bo, &gr, kb, b);
    }
    const float m = c.m, inv_rho0 = c.inv_rho0;
    for (int l = 0; l < L; l++) {
        rho[l] = m * (c.k + w[0][l]) + b[0][l];
        const float gx = m * w[1][l] + b[1][l], gy = m * w[2][l] + b[2][l];
        const float cc = pos_part(rho[l] * inv_rho0 - 1.0f);
        const float denom = (m * m * w[3][l] + gx * gx + gy * gy) * inv_rho0 * inv_rho0;
        lam[l] = -cc / (denom + c.eps);
        over[l] = pos_part(rho[l] - c.rho0);
    }
}

/* One group's corrections in plain C (see correction_part). */
static void correction_group_plain(const struct correction_args *a, int g, float *nx, float *ny)
{
    const int kw = a->gkw[g], kb = a->gkb[g], off = a->gstart[g];
    const float *pw = a->pw + off, *pgx = a->pgx + off, *pgy = a->pgy + off;
    const int *nbr = a->nbr + off;
    const float *li = a->lambda + g * L;
    float wm[2][L], bx[L] = {0}, by[L] = {0};
    water_moves(a->lambda, nbr, pw, pgx, pgy, li, a->scorr_k, a->inv_w_dq, kw, wm);
    for (int e = kw * L; e < (kw + kb) * L; e += L)
        for (int l = 0; l < L; l++) {
            const float pj = a->psi[nbr[e + l]];
            bx[l] += pj * pgx[e + l];
            by[l] += pj * pgy[e + l];
        }
    const float *xg = a->x + g * L, *yg = a->y + g * L;
    for (int l = 0; l < L; l++) {
        const float dx = a->m * wm[0][l] + li[l] * bx[l], dy = a->m * wm[1][l] + li[l] * by[l];
        nx[l] = clampf(xg[l] + dx * a->inv_rho0, a->lox, a->hix);
        ny[l] = clampf(yg[l] + dy * a->inv_rho0, a->loy, a->hiy);
    }
}
#endif

/* Densities rho_i = sum_j psi_j W_ij (self included) and the Lagrange
 * multipliers lambda_i = -C_i / (sum_j |grad_j C_i|^2 + |grad_i C_i|^2 + eps)
 * with C_i = max(rho_i/rho0 - 1, 0), clamped without a branch (lambda_i = 0
 * then: whether a particle is compressed is a coin toss at the surface);
 * boundary neighbours count in rho_i and grad_i C_i but not in the first sum
 * (as in the seed). The range's error sum is max(rho_i - rho0, 0) over its
 * particles, a float sum a group, in lane order. */
static void lambda_part(struct pbf_job *j, struct pbf_part *pt)
{
    struct pbf *s = j->s;
    const float rho0 = s->prm.density0;
    const struct lambda_args a = {
        s->x, s->y, s->xy, s->psi, pt->lists.nbr, s->gstart, s->gkw, s->gkb, pt->pw, pt->pgx, pt->pgy,
        {j->kn.inv_h, j->kn.k2, j->kn.gfac, j->kn.k, s->mass, 1.0f / rho0, rho0, LAMBDA_EPS}};
    const struct group_loops *run = loops_for(j->lanes);
    double err = 0.0;
    for (int g = pt->g0; g < pt->g1; g++) {
        float rho[L], lam[L], over[L];
        const int count = pbf_group_lanes(s, g);
        run->lambda(&a, g, rho, lam, over);
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
 * reads x. Positions stay inside the box grown by h (see predict), so that
 * every distance the kernel sees is finite. */
static void correction_part(struct pbf_job *j, struct pbf_part *pt)
{
    struct pbf *s = j->s;
    const float dq = SCORR_DQ * j->kn.h;
    float w_dq, g_dq;
    kernel_pair(j->kn, dq * dq, &w_dq, &g_dq);
    const struct correction_args a = {
        s->x, s->y, s->lambda, s->psi, pt->lists.nbr, s->gstart, s->gkw, s->gkb,
        pt->pw, pt->pgx, pt->pgy, s->mass, 1.0f / s->prm.density0,
        s->prm.scorr ? SCORR_K * s->scorr_unit : 0.0f, w_dq > 0.0f ? 1.0f / w_dq : 0.0f,
        s->xmin - s->h, s->xmax + s->h, s->ymin - s->h, s->ymax + s->h};
    const struct group_loops *run = loops_for(j->lanes);
    for (int g = pt->g0; g < pt->g1; g++) {
        float nx[L], ny[L];
        run->correction(&a, g, nx, ny);
        const int count = pbf_group_lanes(s, g);
        for (int l = 0; l < count; l++)
            if (!s->held[g * L + l]) {
                const int i = g * L + l;
                s->x[i] = s->xy[2 * i] = nx[l];
                s->y[i] = s->xy[2 * i + 1] = ny[l];
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
    for (int i = 0; i <= s->n; i++) /* every slot and the dummy, as the lists name them */
        s->xy[2 * i] = s->x[i], s->xy[2 * i + 1] = s->y[i];
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
