/*
 * pbf_solve.c — one step of Position Based Fluids (pbf_step): prediction,
 * neighbour lists, the density-constraint iterations, velocities and the
 * accelerations (XSPH viscosity, vorticity confinement) for the next step.
 *
 * Data and coordinates as in pbf.c; only the water moves (particles 0..nfluid-1).
 *
 * Pairs: the neighbour search (ns: water particles against all particles) runs
 * once per step after the prediction. Its full lists are then halved: each
 * water-water pair is kept once, under its lower index, followed by the
 * particle's boundary neighbours (half_start/half_split/half_nbr). Every pass
 * walks particle i's half list, keeps i's sums in registers and adds the mirrored
 * term into the other particle's slot, so each pair costs one square root per
 * pass. The sums have the seed's terms in another order (the last float bits
 * differ). pair_w/pair_gx/pair_gy cache, per half-list entry, W_ij and
 * grad W_ij from the lambda pass for the correction pass of the same iteration
 * (positions do not move in between), and from the viscosity pass for the
 * vorticity pass. Nothing here allocates once the lists have reached their size.
 */
#include "pbf_internal.h"
#include "sim_common.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>

#define LAMBDA_EPS 1.0e-6f        /* constraint force mixing in lambda's denominator */
#define SEED_ERR_START 1000.0     /* pbf.html starts its error sum here */
#define VORT_MIN_ETA 1.0e-12f     /* below this |grad |omega|| there is no direction */
#define PAIR_BLOCK 8              /* the pair caches come in whole blocks (kernel_many) */
#define CHUNK_PAIRS 512           /* pairs evaluated at a time in the lambda pass */

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* Symplectic Euler prediction with the accelerations of the previous step, then
 * the accelerations are reset to gravity. The grabbed particle goes to the grab
 * point. Predicted positions are kept within the box grown by h: at sane
 * parameters this never binds; at extreme ones it bounds the neighbour grid. */
static void predict(struct pbf *s)
{
    const float dt = s->prm.dt, g = isfinite(s->prm.gravity) ? s->prm.gravity : 0.0f;
    const float lox = s->xmin - s->h, hix = s->xmax + s->h;
    const float loy = s->ymin - s->h, hiy = s->ymax + s->h;
    for (int i = 0; i < s->nfluid; i++) {
        s->xold[i] = s->x[i];
        s->yold[i] = s->y[i];
        s->vx[i] += dt * s->ax[i];
        s->vy[i] += dt * s->ay[i];
        s->x[i] = clampf(s->x[i] + dt * s->vx[i], lox, hix);
        s->y[i] = clampf(s->y[i] + dt * s->vy[i], loy, hiy);
        s->ax[i] = 0.0f;
        s->ay[i] = g;
    }
    if (s->grabbed >= 0)
        held_point(s, &s->x[s->grabbed], &s->y[s->grabbed]);
}

/* Grows the half lists and their pair caches to at least need entries (doubling,
 * so that a slowly growing need settles after a few steps); 0 or -1. */
static int grow_half(struct pbf *s, int need)
{
    if (need <= s->half_cap)
        return 0;
    const int cap = s->half_cap < INT_MAX / 2 && 2 * s->half_cap > need ? 2 * s->half_cap : need;
    if (SIM_RESIZE(s->half_nbr, (size_t)cap) != 0 || SIM_RESIZE(s->pair_w, (size_t)cap) != 0 ||
        SIM_RESIZE(s->pair_gx, (size_t)cap) != 0 || SIM_RESIZE(s->pair_gy, (size_t)cap) != 0)
        return -1;
    s->half_cap = cap;
    return 0;
}

/* Halves ns's full lists (see the top of the file). The compaction is branch-free:
 * every entry is written and the length advances only for a kept one, so the
 * list may be written up to one full list beyond its kept entries; the pair
 * caches also hold the padding to a whole PAIR_BLOCK. */
static int build_half_lists(struct pbf *s)
{
    const int nf = s->nfluid;
    const int *start = s->ns.start, *nbr = s->ns.nbr;
    int longest = 0;
    for (int i = 0; i < nf; i++)
        if (start[i + 1] - start[i] > longest)
            longest = start[i + 1] - start[i];
    long long need = (long long)start[nf] + longest + PAIR_BLOCK;
    if (need > INT_MAX || grow_half(s, (int)need) != 0)
        return -1;

    int *restrict half = s->half_nbr;
    int len = 0;
    for (int i = 0; i < nf; i++) {
        s->half_start[i] = len;
        for (int e = start[i]; e < start[i + 1]; e++) {
            const int j = nbr[e];
            half[len] = j;
            len += (j > i) & (j < nf);
        }
        s->half_split[i] = len;
        for (int e = start[i]; e < start[i + 1]; e++) {
            const int j = nbr[e];
            half[len] = j;
            len += j >= nf;
        }
    }
    s->half_start[nf] = len;
    return 0;
}

/*
 * In place over nblock blocks of PAIR_BLOCK entries: w[e] holds a squared
 * distance and (gx[e], gy[e]) the vector x_i - x_j; they become W_ij and
 * grad W_ij. This is the solver's hot loop, written for the auto-vectorizer of
 * GCC -O2 (whose "very cheap" model wants no runtime alias check and no scalar
 * remainder): no branches, restrict parameters (which GCC forgets when the
 * function is inlined, hence NOINLINE) and an unsigned trip count that is a
 * multiple of the block. It needs -fno-math-errno to vectorize sqrtf; without it
 * the loop is scalar and gives the same bits.
 */
NOINLINE static void kernel_many(struct kernel kn, float *restrict w, float *restrict gx,
                                 float *restrict gy, int nblock)
{
    const unsigned n = (unsigned)nblock * PAIR_BLOCK;
    for (unsigned e = 0; e < n; e++) {
        float g;
        kernel_pair(kn, w[e], &w[e], &g);
        gx[e] *= g;
        gy[e] *= g;
    }
}

/* W_ij and grad W_ij of the half-list entries of particles [i0, i1), into
 * pair_w/pair_gx/pair_gy: the distance vectors first (a gather), then the kernel
 * over the flat arrays. The kernel runs on whole blocks, so up to PAIR_BLOCK - 1
 * entries past the range are zeroed and evaluated too (the caches have room);
 * the next range overwrites them. */
static void pair_kernels(struct pbf *s, const struct kernel *kn, int i0, int i1)
{
    const float *restrict x = s->x, *restrict y = s->y;
    const int *restrict hs = s->half_start, *restrict hn = s->half_nbr;
    float *restrict pw = s->pair_w, *restrict pgx = s->pair_gx, *restrict pgy = s->pair_gy;
    const int e0 = hs[i0], e1 = hs[i1];
    const int nblock = (e1 - e0 + PAIR_BLOCK - 1) / PAIR_BLOCK;

    for (int i = i0; i < i1; i++) {
        const float xi = x[i], yi = y[i];
        for (int e = hs[i]; e < hs[i + 1]; e++) {
            const float rx = xi - x[hn[e]], ry = yi - y[hn[e]];
            pw[e] = rx * rx + ry * ry;
            pgx[e] = rx;
            pgy[e] = ry;
        }
    }
    for (int e = e1; e < e0 + nblock * PAIR_BLOCK; e++)
        pw[e] = pgx[e] = pgy[e] = 0.0f;
    kernel_many(*kn, pw + e0, pgx + e0, pgy + e0, nblock);
}

/* The end of the run of particles from i0 whose half lists hold about
 * CHUNK_PAIRS entries: small enough for the first-level cache, so a pass can
 * evaluate a run's kernels and use them while they are still there. */
static int chunk_end(const struct pbf *s, int i0)
{
    const int *hs = s->half_start;
    int i1 = i0 + 1;
    while (i1 < s->nfluid && hs[i1] - hs[i0] < CHUNK_PAIRS)
        i1++;
    return i1;
}

/* Densities rho_i = sum_j psi_j W_ij (self included), the gradient sums and the
 * Lagrange multipliers lambda_i = -C_i / (sum_j |grad_j C_i|^2 + |grad_i C_i|^2
 * + eps) with C_i = max(rho_i/rho0 - 1, 0); boundary neighbours count in rho_i and
 * grad_i C_i but not in the first sum (as in the seed). Fills the pair caches a
 * run of particles at a time, each run used while it is still in the cache.
 * Returns the sum of max(rho_i - rho0, 0). */
static double lambda_pass(struct pbf *s, const struct kernel *kn)
{
    const int nf = s->nfluid;
    const float m = s->mass, rho0 = s->prm.density0, inv_rho0 = 1.0f / rho0;
    const float *restrict psi = s->psi;
    float *restrict rho = s->density, *restrict lambda = s->lambda;
    float *restrict gcx = s->gcx, *restrict gcy = s->gcy, *restrict gc2 = s->gc2;
    const float *restrict pw = s->pair_w, *restrict pgx = s->pair_gx;
    const float *restrict pgy = s->pair_gy;
    const int *restrict hs = s->half_start, *restrict split = s->half_split;
    const int *restrict hn = s->half_nbr;
    double err = 0.0;

    for (int i = 0; i < nf; i++) {
        rho[i] = m * kn->k;
        gcx[i] = gcy[i] = gc2[i] = 0.0f;
    }
    for (int i = 0, run_end = 0; i < nf; i++) {
        if (i == run_end) {
            run_end = chunk_end(s, i);
            pair_kernels(s, kn, i, run_end);
        }
        float rho_i = rho[i], gx_i = gcx[i], gy_i = gcy[i], g2_i = gc2[i];
        int e = hs[i];
        for (; e < split[i]; e++) { /* water j > i: both sides of the pair */
            const int j = hn[e];
            const float mw = m * pw[e], gx = m * pgx[e], gy = m * pgy[e];
            const float g2 = gx * gx + gy * gy;
            rho_i += mw;
            rho[j] += mw;
            gx_i += gx; /* grad W_ji = -grad W_ij */
            gy_i += gy;
            gcx[j] -= gx;
            gcy[j] -= gy;
            g2_i += g2;
            gc2[j] += g2;
        }
        for (; e < hs[i + 1]; e++) { /* boundary j */
            const float pj = psi[hn[e]];
            rho_i += pj * pw[e];
            gx_i += pj * pgx[e];
            gy_i += pj * pgy[e];
        }
        /* C_i clamped at 0 (lambda_i = 0 then); branch-free, as whether a
         * particle is compressed is a coin toss at the surface. */
        rho[i] = rho_i;
        const float c = pos_part(rho_i * inv_rho0 - 1.0f);
        const float denom = (g2_i + gx_i * gx_i + gy_i * gy_i) * inv_rho0 * inv_rho0;
        lambda[i] = -c / (denom + LAMBDA_EPS);
        err += pos_part(rho_i - rho0);
    }
    return err;
}

/* Position corrections dx_i = 1/rho0 (sum over water j of m (lambda_i + lambda_j
 * [+ s_corr_ij]) grad W_ij + sum over boundary j of psi_j lambda_i grad W_ij),
 * from the cached gradients, then applied to all water but the grabbed particle. */
static void correction_pass(struct pbf *s, const struct kernel *kn)
{
    const int nf = s->nfluid;
    const float m = s->mass, inv_rho0 = 1.0f / s->prm.density0;
    const float *restrict psi = s->psi, *restrict lambda = s->lambda;
    const float *restrict pw = s->pair_w, *restrict pgx = s->pair_gx;
    const float *restrict pgy = s->pair_gy;
    float *restrict dx = s->dx, *restrict dy = s->dy;
    const int *restrict hs = s->half_start, *restrict split = s->half_split;
    const int *restrict hn = s->half_nbr;
    const bool scorr = s->prm.scorr;
    const float scorr_k = SCORR_K * s->scorr_unit;
    const float dq = SCORR_DQ * kn->h;
    float w_dq, g_dq;
    kernel_pair(*kn, dq * dq, &w_dq, &g_dq);
    const float inv_w_dq = w_dq > 0.0f ? 1.0f / w_dq : 0.0f;

    for (int i = 0; i < nf; i++)
        dx[i] = dy[i] = 0.0f;
    for (int i = 0; i < nf; i++) {
        const float li = lambda[i];
        float dx_i = dx[i], dy_i = dy[i];
        int e = hs[i];
        for (; e < split[i]; e++) {
            const int j = hn[e];
            float coef = li + lambda[j];
            if (scorr) {
                float t = pw[e] * inv_w_dq;
                t *= t;
                coef -= scorr_k * t * t;
            }
            coef *= m;
            const float cx = coef * pgx[e], cy = coef * pgy[e];
            dx_i += cx;
            dy_i += cy;
            dx[j] -= cx; /* grad W_ji = -grad W_ij */
            dy[j] -= cy;
        }
        for (; e < hs[i + 1]; e++) {
            const float coef = li * psi[hn[e]];
            dx_i += coef * pgx[e];
            dy_i += coef * pgy[e];
        }
        dx[i] = dx_i;
        dy[i] = dy_i;
    }
    /* Positions stay inside the box grown by h (see predict), so that every
     * distance the kernel sees is finite. */
    const float lox = s->xmin - s->h, hix = s->xmax + s->h;
    const float loy = s->ymin - s->h, hiy = s->ymax + s->h;
    for (int i = 0; i < nf; i++) {
        if (i == s->grabbed)
            continue;
        s->x[i] = clampf(s->x[i] + dx[i] * inv_rho0, lox, hix);
        s->y[i] = clampf(s->y[i] + dy[i] * inv_rho0, loy, hiy);
    }
}

/* Iterates until the mean density error is at most max_error_pct or max_iter
 * corrections were made. With seed_quirk, pbf.html's loop: the error is its
 * running value (starting at 1000, each pass adding its sum and dividing by
 * nfluid), measured before each pass's correction, which is applied regardless.
 * Without, the error is the plain mean at the current positions and the loop
 * stops as soon as it is met, so the positions it leaves are the ones measured. */
static void solve(struct pbf *s, const struct kernel *kn)
{
    const double tol = (double)s->prm.max_error_pct * PCT * s->prm.density0;
    int iter = 0;
    double avg;
    if (s->prm.seed_quirk) {
        avg = SEED_ERR_START;
        while (avg > tol && iter < s->prm.max_iter) {
            avg = (avg + lambda_pass(s, kn)) / s->nfluid;
            correction_pass(s, kn);
            iter++;
        }
    } else {
        for (;;) {
            avg = lambda_pass(s, kn) / s->nfluid;
            if (!(avg > tol) || iter >= s->prm.max_iter)
                break;
            correction_pass(s, kn);
            iter++;
        }
    }
    if (s->prm.seed_quirk && iter == 0)
        lambda_pass(s, kn); /* no pass ran: XSPH still needs the densities */
    s->iter = iter;
    s->avg_err = avg < FLT_MAX ? (float)avg : FLT_MAX;
}

/* The end of the solve: the grabbed particle sits at the grab point, a particle
 * that went non-finite returns to its old position at rest, the water is clamped
 * into the box and velocities come from the displacement. */
static void finish_positions(struct pbf *s)
{
    const float r = s->prm.radius, inv_dt = 1.0f / s->prm.dt;
    const float lox = s->xmin + r, hix = s->xmax - r;
    const float loy = s->ymin + r, hiy = s->ymax - r;
    for (int i = 0; i < s->nfluid; i++) {
        if (i == s->grabbed)
            held_point(s, &s->x[i], &s->y[i]);
        if (!isfinite(s->x[i]) || !isfinite(s->y[i])) {
            s->x[i] = s->xold[i];
            s->y[i] = s->yold[i];
        }
        s->x[i] = clampf(s->x[i], lox, hix);
        s->y[i] = clampf(s->y[i], loy, hiy);
        s->vx[i] = (s->x[i] - s->xold[i]) * inv_dt;
        s->vy[i] = (s->y[i] - s->yold[i]) * inv_dt;
        if (!isfinite(s->vx[i]) || !isfinite(s->vy[i])) {
            s->x[i] = clampf(s->xold[i], lox, hix);
            s->y[i] = clampf(s->yold[i], loy, hiy);
            s->vx[i] = 0.0f;
            s->vy[i] = 0.0f;
        }
    }
}

/* XSPH viscosity a_i += sum_j V_j viscosity/dt W_ij (v_j - v_i) with V_j = m/rho_j,
 * and (when confinement is on) the vorticity
 * omega_i = sum_j V_j grad W_ij x (v_j - v_i), counter-clockwise positive; both
 * over water neighbours at the final positions. Leaves grad W_ij in the pair
 * caches for vorticity_pass. */
static void viscosity_pass(struct pbf *s, const struct kernel *kn, const float *vol)
{
    const int nf = s->nfluid;
    const float visc = s->prm.viscosity / s->prm.dt;
    const bool vort = s->prm.vorticity != 0.0f;
    const float *restrict vx = s->vx, *restrict vy = s->vy;
    const float *restrict pw = s->pair_w, *restrict pgx = s->pair_gx;
    const float *restrict pgy = s->pair_gy;
    float *restrict ax = s->ax, *restrict ay = s->ay, *restrict om = s->omega;
    const int *restrict hs = s->half_start, *restrict split = s->half_split;
    const int *restrict hn = s->half_nbr;

    pair_kernels(s, kn, 0, nf);
    for (int i = 0; i < nf; i++)
        om[i] = 0.0f;
    for (int i = 0; i < nf; i++) {
        const float vxi = vx[i], vyi = vy[i], vol_i = vol[i];
        float ax_i = 0.0f, ay_i = 0.0f, om_i = 0.0f;
        for (int e = hs[i]; e < split[i]; e++) {
            const int j = hn[e];
            const float dvx = vx[j] - vxi, dvy = vy[j] - vyi;
            const float fw = visc * pw[e];
            ax_i += vol[j] * fw * dvx;
            ay_i += vol[j] * fw * dvy;
            ax[j] -= vol_i * fw * dvx;
            ay[j] -= vol_i * fw * dvy;
            if (vort) { /* the same for j: both factors change sign */
                const float cross = pgx[e] * dvy - pgy[e] * dvx;
                om_i += vol[j] * cross;
                om[j] += vol_i * cross;
            }
        }
        ax[i] += ax_i;
        ay[i] += ay_i;
        om[i] += om_i;
    }
}

/* Vorticity confinement: eta = grad |omega| (SPH difference form
 * sum_j V_j (|omega_j| - |omega_i|) grad W_ij), N = eta/|eta|,
 * a_i += eps (N_y omega_i, -N_x omega_i). Uses viscosity_pass's gradients. */
static void vorticity_pass(struct pbf *s, const float *vol)
{
    const int nf = s->nfluid;
    const float eps = s->prm.vorticity;
    const float *restrict om = s->omega;
    const float *restrict pgx = s->pair_gx, *restrict pgy = s->pair_gy;
    float *restrict ex = s->gcx, *restrict ey = s->gcy;
    const int *restrict hs = s->half_start, *restrict split = s->half_split;
    const int *restrict hn = s->half_nbr;

    for (int i = 0; i < nf; i++)
        ex[i] = ey[i] = 0.0f;
    for (int i = 0; i < nf; i++) {
        const float ai = fabsf(om[i]), vol_i = vol[i];
        float ex_i = 0.0f, ey_i = 0.0f;
        for (int e = hs[i]; e < split[i]; e++) {
            const int j = hn[e];
            /* (|w_j| - |w_i|) grad W_ij for i; for j both factors change sign. */
            const float f = fabsf(om[j]) - ai;
            const float fx = f * pgx[e], fy = f * pgy[e];
            ex_i += vol[j] * fx;
            ey_i += vol[j] * fy;
            ex[j] += vol_i * fx;
            ey[j] += vol_i * fy;
        }
        ex[i] += ex_i;
        ey[i] += ey_i;
    }
    for (int i = 0; i < nf; i++) {
        const float len2 = ex[i] * ex[i] + ey[i] * ey[i];
        if (!(len2 > VORT_MIN_ETA * VORT_MIN_ETA) || !isfinite(len2))
            continue;
        const float inv_len = 1.0f / sqrtf(len2);
        s->ax[i] += eps * ey[i] * inv_len * om[i];
        s->ay[i] -= eps * ex[i] * inv_len * om[i];
    }
}

/* Accelerations for the next step; a non-finite one falls back to gravity. */
static void accelerations(struct pbf *s, const struct kernel *kn)
{
    const int nf = s->nfluid;
    if (s->prm.viscosity == 0.0f && s->prm.vorticity == 0.0f)
        return;
    float *vol = s->dx; /* the corrections are spent: reuse as V_j = m/rho_j */
    for (int j = 0; j < nf; j++)
        vol[j] = s->density[j] > 0.0f ? s->mass / s->density[j] : 0.0f;
    viscosity_pass(s, kn, vol);
    if (s->prm.vorticity != 0.0f)
        vorticity_pass(s, vol);
    for (int i = 0; i < nf; i++)
        if (!isfinite(s->ax[i]) || !isfinite(s->ay[i])) {
            s->ax[i] = 0.0f;
            s->ay[i] = isfinite(s->prm.gravity) ? s->prm.gravity : 0.0f;
        }
}

void pbf_step(struct pbf *s)
{
    if (s->nfluid < 1 || !(s->prm.dt > 0.0f) || !isfinite(s->prm.dt))
        return;
    const struct kernel kn = kernel_make(s->h);
    if (s->grabbed >= s->nfluid)
        s->grabbed = -1;

    predict(s);
    const bool lists = nsearch_build(&s->ns, s->x, s->y, s->n, s->nfluid, s->h) == 0 &&
                       build_half_lists(s) == 0;
    s->iter = 0;
    if (lists)
        solve(s, &kn);
    finish_positions(s);
    if (lists)
        accelerations(s, &kn);
    s->time += s->prm.dt;
}
