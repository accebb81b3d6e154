/*
 * pbf.c — Position Based Fluids in 2D, the algorithm of pbf.html.
 *
 * Data: structure-of-arrays floats of length n. Particles 0..nfluid-1 are water,
 * nfluid..n-1 the static boundary particles, in the seed's order (per column the
 * bottom then the top wall particle, then per row the left then the right one).
 * Coordinates are metres with y up; the wall particles span [xmin, xmax] x
 * [ymin, ymax] with ymin = 0 and xmin = -box_w*d/2 (d = 2r), and the water is
 * kept inside that box shrunk by r on every side. psi[] holds each particle's
 * mass: m for water, the Akinci pseudo-mass for the boundary.
 *
 * Pairs: the neighbour search (ns: water particles against all particles) runs
 * once per step after the prediction. Its full lists are then halved: each
 * water-water pair is kept once, under its lower index, followed by the
 * particle's boundary neighbours (half_start/half_split/half_nbr). Every pass
 * walks particle i's half list, keeps i's sums in registers and adds the mirrored
 * term into the other particle's slot, so each pair costs one square root per
 * pass. Sums therefore come in a different order than in the seed (floats: the
 * last bits differ), never in a different amount. pair_w/pair_g cache, per half
 * list entry, W_ij and the gradient factor g (grad W_ij = g (x_i - x_j)) from
 * the lambda pass for the correction pass of the same iteration (positions do
 * not move in between), and from the viscosity pass for the vorticity pass.
 *
 * Kernel: the seed's 2D cubic spline with support h = 4r,
 * W(q) = k (6q^3 - 6q^2 + 1) for q = |r|/h <= 1/2, 2k (1-q)^3 for q <= 1,
 * k = 40 / (7 pi h^2); its gradient uses l = 240 / (7 pi h^2) and is zero for
 * |r| <= 1e-6 as in the seed.
 */
#include "pbf.h"
#include "swirl.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The seed page's parameters (pbf.html with its GUI inputs). */
#define SEED_RADIUS 0.025f
#define SEED_DENSITY0 1000.0f
#define SEED_DT 0.005f
#define SEED_MAX_ERROR_PCT 0.1f
#define SEED_MAX_ITER 100
#define SEED_VISCOSITY 0.05f
#define SEED_GRAVITY -9.81f

#define PI_D 3.14159265358979323846
#define SUPPORT_PER_RADIUS 4.0f   /* h = 4r */
#define KERNEL_K_NUM 40.0         /* k = 40 / (7 pi h^2) */
#define KERNEL_L_NUM 240.0        /* l = 240 / (7 pi h^2) */
#define KERNEL_DENOM 7.0
#define KERNEL_MIN_R 1.0e-6f      /* no gradient below this distance (the seed's) */
#define LAMBDA_EPS 1.0e-6f        /* constraint force mixing in lambda's denominator */
#define PCT 0.01f                 /* percent to fraction */
#define SEED_ERR_START 1000.0     /* pbf.html starts its error sum here */

/* s_corr = -k (W(r)/W(dq))^n, n = 4 (Macklin & Mueller eq. 13). */
#define SCORR_K 0.1f
#define SCORR_DQ 0.2f             /* dq as a fraction of h */

#define VORT_MIN_ETA 1.0e-12f     /* below this |grad |omega|| there is no direction */
#define MAX_PARTICLES (1 << 24)

/* Kernel constants for one support radius. */
struct kernel {
    float h, inv_h, h2;
    float k;      /* W's scale, and W(0) */
    float k2;     /* 2k */
    float gfac;   /* -l / h: grad W = gfac (t^2 - 4u^2) / |r| * r */
    float min_r;
};

static struct kernel kernel_make(float h)
{
    struct kernel kn;
    double area = PI_D * (double)h * (double)h;
    kn.h = h;
    kn.inv_h = 1.0f / h;
    kn.h2 = h * h;
    kn.k = (float)(KERNEL_K_NUM / (KERNEL_DENOM * area));
    kn.k2 = 2.0f * kn.k;
    kn.gfac = (float)(-KERNEL_L_NUM / (KERNEL_DENOM * area * (double)h));
    kn.min_r = KERNEL_MIN_R;
    return kn;
}

/*
 * The seed's two pieces in one branch-free form: with t = max(1-q, 0) and
 * u = max(1/2-q, 0), W = 2k (t^3 - 4u^3), which is k (6q^3 - 6q^2 + 1) for
 * q <= 1/2 and 2k (1-q)^3 up to q = 1, and dW/dq = -6k (t^2 - 4u^2) with l = 6k.
 * Branch-free matters: which piece a pair falls in is random, and the
 * mispredictions dominated the solver's time. max(v, 0) is (v + |v|)/2, exact.
 */
static inline float pos_part(float v) { return 0.5f * (v + fabsf(v)); }

static inline float kernel_w_q(const struct kernel *kn, float q)
{
    if (!(q <= 1.0f))
        return 0.0f; /* beyond the support, or NaN */
    float t = pos_part(1.0f - q), u = pos_part(0.5f - q);
    return kn->k2 * (t * t * t - 4.0f * u * u * u);
}

/* W and the gradient factor g (grad W = g r) at squared distance r2; both 0 beyond
 * the support or for a non-finite r2, and g is 0 for |r| <= 1e-6 as in the seed. */
static inline void kernel_pair(const struct kernel *kn, float r2, float *w, float *g)
{
    if (!(r2 <= kn->h2)) {
        *w = 0.0f;
        *g = 0.0f;
        return;
    }
    float rl = sqrtf(r2);
    float q = rl * kn->inv_h;
    float t = pos_part(1.0f - q), u = pos_part(0.5f - q);
    float t2 = t * t, u2 = u * u;
    *w = kn->k2 * (t2 * t - 4.0f * u2 * u);
    *g = rl > kn->min_r ? kn->gfac * (t2 - 4.0f * u2) / rl : 0.0f;
}

void pbf_params_seed(struct pbf_params *p)
{
    p->radius = SEED_RADIUS;
    p->density0 = SEED_DENSITY0;
    p->dt = SEED_DT;
    p->max_error_pct = SEED_MAX_ERROR_PCT;
    p->max_iter = SEED_MAX_ITER;
    p->viscosity = SEED_VISCOSITY;
    p->gravity = SEED_GRAVITY;
    p->scorr = false;
    p->vorticity = 0.0f;
    p->seed_quirk = true;
}

float pbf_kernel(const struct pbf *s, float r)
{
    struct kernel kn = kernel_make(s->h);
    return kernel_w_q(&kn, fabsf(r) * kn.inv_h);
}

void pbf_kernel_grad(const struct pbf *s, float rx, float ry, float *gx, float *gy)
{
    struct kernel kn = kernel_make(s->h);
    float w, g;
    kernel_pair(&kn, rx * rx + ry * ry, &w, &g);
    *gx = g * rx;
    *gy = g * ry;
}

/* ---- Lifetime ---------------------------------------------------------------- */

#define FLOAT_ARRAYS 17

/* The per-particle float arrays (all of length n), so that allocation and release
 * are one loop each. */
static void float_arrays(struct pbf *s, float **slot[FLOAT_ARRAYS])
{
    float **list[FLOAT_ARRAYS] = {
        &s->x,  &s->y,       &s->xold,   &s->yold, &s->vx,    &s->vy,
        &s->ax, &s->ay,      &s->dx,     &s->dy,   &s->density, &s->lambda,
        &s->psi, &s->omega,  &s->gcx,    &s->gcy,  &s->gc2,
    };
    memcpy(slot, list, sizeof list);
}

void pbf_free(struct pbf *s)
{
    float **slot[FLOAT_ARRAYS];
    float_arrays(s, slot);
    for (int a = 0; a < FLOAT_ARRAYS; a++)
        free(*slot[a]);
    free(s->half_start);
    free(s->half_split);
    free(s->half_nbr);
    free(s->pair_w);
    free(s->pair_g);
    nsearch_free(&s->ns);
    memset(s, 0, sizeof *s);
    s->grabbed = -1;
}

/* Grows the half lists and their pair caches to cap entries; 0 or -1. */
static int grow_half(struct pbf *s, int cap)
{
    if (cap <= s->half_cap)
        return 0;
    int *nbr = realloc(s->half_nbr, (size_t)cap * sizeof *nbr);
    if (!nbr)
        return -1;
    s->half_nbr = nbr;
    float *w = realloc(s->pair_w, (size_t)cap * sizeof *w);
    if (!w)
        return -1;
    s->pair_w = w;
    float *g = realloc(s->pair_g, (size_t)cap * sizeof *g);
    if (!g)
        return -1;
    s->pair_g = g;
    s->half_cap = cap;
    return 0;
}

/* Akinci pseudo-masses: psi_k = rho0 / (W(0) + sum over boundary neighbours W). */
static int compute_psi(struct pbf *s)
{
    const struct kernel kn = kernel_make(s->h);
    const int nf = s->nfluid, nb = s->n - s->nfluid;
    const float *bx = s->x + nf, *by = s->y + nf;
    if (nsearch_build(&s->ns, bx, by, nb, nb, s->h) != 0)
        return -1;
    for (int k = 0; k < nb; k++) {
        float sum = kn.k;
        for (int e = s->ns.start[k]; e < s->ns.start[k + 1]; e++) {
            int l = s->ns.nbr[e];
            float rx = bx[k] - bx[l], ry = by[k] - by[l], w, g;
            kernel_pair(&kn, rx * rx + ry * ry, &w, &g);
            sum += w;
        }
        s->psi[nf + k] = s->prm.density0 / sum;
    }
    return 0;
}

int pbf_init(struct pbf *s, const struct pbf_params *p, int block_w, int block_h,
             int box_w, int box_h)
{
    memset(s, 0, sizeof *s);
    s->grabbed = -1;
    nsearch_init(&s->ns);
    if (!(p->radius > 0.0f) || !isfinite(p->radius) || !(p->density0 > 0.0f) ||
        !isfinite(p->density0))
        return -1;
    if (block_w < 1 || block_h < 1 || box_w < block_w + 2 || box_h < block_h + 1)
        return -1;
    long long nf = (long long)block_w * block_h;
    long long nb = 2LL * box_w + 2LL * (box_h - 1);
    if (nf + nb > MAX_PARTICLES)
        return -1;

    s->prm = *p;
    s->nfluid = (int)nf;
    s->n = (int)(nf + nb);
    s->box_w = box_w;
    s->box_h = box_h;
    const double r = p->radius, d = 2.0 * r;
    s->mass = (float)(d * d * p->density0);
    s->h = SUPPORT_PER_RADIUS * p->radius;

    float **slot[FLOAT_ARRAYS];
    float_arrays(s, slot);
    for (int a = 0; a < FLOAT_ARRAYS; a++)
        *slot[a] = calloc((size_t)s->n, sizeof(float));
    s->half_start = calloc((size_t)s->n + 1, sizeof(int));
    s->half_split = calloc((size_t)s->n + 1, sizeof(int));
    bool ok = s->half_start && s->half_split;
    for (int a = 0; a < FLOAT_ARRAYS; a++)
        ok = ok && *slot[a];
    if (!ok) {
        pbf_free(s);
        return -1;
    }

    /* The water block, row by row from the bottom, as in the seed. */
    const double x0 = -0.5 * box_w * d;
    int i = 0;
    for (int row = 0; row < block_h; row++)
        for (int col = 0; col < block_w; col++, i++) {
            s->x[i] = (float)(x0 + col * d + d + r);
            s->y[i] = (float)(row * d + d + r);
        }
    /* The box: bottom and top per column, then left and right per row. */
    for (int col = 0; col < box_w; col++) {
        s->x[i] = (float)(x0 + col * d);
        s->y[i++] = 0.0f;
        s->x[i] = (float)(x0 + col * d);
        s->y[i++] = (float)(box_h * d);
    }
    for (int row = 1; row < box_h; row++) {
        s->x[i] = (float)x0;
        s->y[i++] = (float)(row * d);
        s->x[i] = (float)(x0 + (box_w - 1) * d);
        s->y[i++] = (float)(row * d);
    }
    s->xmin = (float)x0;
    s->xmax = (float)(x0 + (box_w - 1) * d);
    s->ymin = 0.0f;
    s->ymax = (float)(box_h * d);

    /* Water starts at rest with zero acceleration (the seed's first step has no
     * gravity: accelerations are reset to gravity only after the prediction). */
    for (i = 0; i < s->nfluid; i++) {
        s->xold[i] = s->x[i];
        s->yold[i] = s->y[i];
        s->psi[i] = s->mass;
        s->density[i] = p->density0;
    }
    if (compute_psi(s) != 0) {
        pbf_free(s);
        return -1;
    }
    return 0;
}

/* ---- One step ---------------------------------------------------------------- */

/* Symplectic Euler prediction with the accelerations of the previous step, then
 * the accelerations are reset to gravity. The grabbed particle goes to the grab
 * point. Predicted positions are kept within the box grown by h: at sane
 * parameters this never binds; at extreme ones it bounds the neighbour grid. */
static void predict(struct pbf *s)
{
    const float dt = s->prm.dt, g = s->prm.gravity;
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
    if (s->grabbed >= 0) {
        s->x[s->grabbed] = s->grab_x;
        s->y[s->grabbed] = s->grab_y;
    }
}

/* Halves ns's full lists (see the top of the file). The compaction is branch-free:
 * every entry is written and the length advances only for a kept one, so the
 * list may be written up to one full list beyond its kept entries. */
static int build_half_lists(struct pbf *s)
{
    const int nf = s->nfluid;
    const int *start = s->ns.start, *nbr = s->ns.nbr;
    int longest = 0;
    for (int i = 0; i < nf; i++)
        if (start[i + 1] - start[i] > longest)
            longest = start[i + 1] - start[i];
    long long need = (long long)start[nf] + longest + 1;
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

/* Densities rho_i = sum_j psi_j W_ij (self included), the gradient sums and the
 * Lagrange multipliers lambda_i = -C_i / (sum_j |grad_j C_i|^2 + |grad_i C_i|^2
 * + eps) with C_i = max(rho_i/rho0 - 1, 0); boundary neighbours count in rho_i and
 * grad_i C_i but not in the first sum (as in the seed). Fills the pair caches.
 * Returns the sum of max(rho_i - rho0, 0). */
static double lambda_pass(struct pbf *s, const struct kernel *kn)
{
    const int nf = s->nfluid;
    const float m = s->mass, rho0 = s->prm.density0, inv_rho0 = 1.0f / rho0;
    const float *restrict x = s->x, *restrict y = s->y, *restrict psi = s->psi;
    float *restrict rho = s->density, *restrict lambda = s->lambda;
    float *restrict gcx = s->gcx, *restrict gcy = s->gcy, *restrict gc2 = s->gc2;
    float *restrict pw = s->pair_w, *restrict pg = s->pair_g;
    const int *restrict hs = s->half_start, *restrict split = s->half_split;
    const int *restrict hn = s->half_nbr;
    double err = 0.0;

    for (int i = 0; i < nf; i++) {
        rho[i] = m * kn->k;
        gcx[i] = gcy[i] = gc2[i] = 0.0f;
    }
    for (int i = 0; i < nf; i++) {
        const float xi = x[i], yi = y[i];
        float rho_i = rho[i], gx_i = gcx[i], gy_i = gcy[i], g2_i = gc2[i];
        int e = hs[i];
        for (; e < split[i]; e++) { /* water j > i: both sides of the pair */
            const int j = hn[e];
            const float rx = xi - x[j], ry = yi - y[j];
            float w, g;
            kernel_pair(kn, rx * rx + ry * ry, &w, &g);
            pw[e] = w;
            pg[e] = g;
            const float mw = m * w, gx = m * g * rx, gy = m * g * ry;
            const float g2 = gx * gx + gy * gy;
            rho_i += mw;
            rho[j] += mw;
            gx_i += gx;
            gy_i += gy;
            gcx[j] -= gx;
            gcy[j] -= gy;
            g2_i += g2;
            gc2[j] += g2;
        }
        for (; e < hs[i + 1]; e++) { /* boundary j */
            const int j = hn[e];
            const float rx = xi - x[j], ry = yi - y[j];
            float w, g;
            kernel_pair(kn, rx * rx + ry * ry, &w, &g);
            pw[e] = w;
            pg[e] = g;
            rho_i += psi[j] * w;
            gx_i += psi[j] * g * rx;
            gy_i += psi[j] * g * ry;
        }
        rho[i] = rho_i;
        const float c = rho_i * inv_rho0 - 1.0f;
        if (c > 0.0f) {
            err += (double)(rho_i - rho0);
            const float denom = (g2_i + gx_i * gx_i + gy_i * gy_i) * inv_rho0 * inv_rho0;
            lambda[i] = -c / (denom + LAMBDA_EPS);
        } else {
            lambda[i] = 0.0f;
        }
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
    const float *restrict x = s->x, *restrict y = s->y, *restrict psi = s->psi;
    const float *restrict lambda = s->lambda;
    const float *restrict pw = s->pair_w, *restrict pg = s->pair_g;
    float *restrict dx = s->dx, *restrict dy = s->dy;
    const int *restrict hs = s->half_start, *restrict split = s->half_split;
    const int *restrict hn = s->half_nbr;
    const bool scorr = s->prm.scorr;
    const float w_dq = kernel_w_q(kn, SCORR_DQ);
    const float inv_w_dq = w_dq > 0.0f ? 1.0f / w_dq : 0.0f;

    for (int i = 0; i < nf; i++)
        dx[i] = dy[i] = 0.0f;
    for (int i = 0; i < nf; i++) {
        const float xi = x[i], yi = y[i], li = lambda[i];
        float dx_i = dx[i], dy_i = dy[i];
        int e = hs[i];
        for (; e < split[i]; e++) {
            const int j = hn[e];
            float coef = li + lambda[j];
            if (scorr) {
                float t = pw[e] * inv_w_dq;
                t *= t;
                coef -= SCORR_K * t * t;
            }
            coef *= m * pg[e]; /* 0 beyond the support */
            const float cx = coef * (xi - x[j]), cy = coef * (yi - y[j]);
            dx_i += cx;
            dy_i += cy;
            dx[j] -= cx; /* grad W_ji = -grad W_ij */
            dy[j] -= cy;
        }
        for (; e < hs[i + 1]; e++) {
            const int j = hn[e];
            const float coef = li * psi[j] * pg[e];
            dx_i += coef * (xi - x[j]);
            dy_i += coef * (yi - y[j]);
        }
        dx[i] = dx_i;
        dy[i] = dy_i;
    }
    for (int i = 0; i < nf; i++) {
        if (i == s->grabbed)
            continue;
        s->x[i] += dx[i] * inv_rho0;
        s->y[i] += dy[i] * inv_rho0;
    }
}

/* Iterates until the mean density error is at most max_error_pct or max_iter
 * passes were made. With seed_quirk the error is pbf.html's running value
 * (starting at 1000, each pass adding its sum and dividing by nfluid); without,
 * it is the mean of this pass. Either is measured before the pass's correction. */
static void solve(struct pbf *s, const struct kernel *kn)
{
    const double tol = (double)s->prm.max_error_pct * PCT * s->prm.density0;
    double avg = s->prm.seed_quirk ? SEED_ERR_START : DBL_MAX;
    int iter = 0;
    while (avg > tol && iter < s->prm.max_iter) {
        double err = lambda_pass(s, kn);
        avg = s->prm.seed_quirk ? (avg + err) / s->nfluid : err / s->nfluid;
        correction_pass(s, kn);
        iter++;
    }
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
        if (i == s->grabbed) {
            s->x[i] = s->grab_x;
            s->y[i] = s->grab_y;
        }
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
 * over water neighbours at the final positions. Caches gradient factors for
 * vorticity_pass. */
static void viscosity_pass(struct pbf *s, const struct kernel *kn, const float *vol)
{
    const int nf = s->nfluid;
    const float visc = s->prm.viscosity / s->prm.dt;
    const bool vort = s->prm.vorticity != 0.0f;
    const float *restrict x = s->x, *restrict y = s->y;
    const float *restrict vx = s->vx, *restrict vy = s->vy;
    float *restrict ax = s->ax, *restrict ay = s->ay, *restrict om = s->omega;
    float *restrict pg = s->pair_g;
    const int *restrict hs = s->half_start, *restrict split = s->half_split;
    const int *restrict hn = s->half_nbr;

    for (int i = 0; i < nf; i++)
        om[i] = 0.0f;
    for (int i = 0; i < nf; i++) {
        const float xi = x[i], yi = y[i], vxi = vx[i], vyi = vy[i], vol_i = vol[i];
        float ax_i = 0.0f, ay_i = 0.0f, om_i = 0.0f;
        for (int e = hs[i]; e < split[i]; e++) {
            const int j = hn[e];
            const float rx = xi - x[j], ry = yi - y[j];
            float w, g;
            kernel_pair(kn, rx * rx + ry * ry, &w, &g);
            pg[e] = g;
            const float dvx = vx[j] - vxi, dvy = vy[j] - vyi;
            const float fw = visc * w;
            ax_i += vol[j] * fw * dvx;
            ay_i += vol[j] * fw * dvy;
            ax[j] -= vol_i * fw * dvx;
            ay[j] -= vol_i * fw * dvy;
            if (vort) { /* the same for j: both factors change sign */
                const float cross = g * (rx * dvy - ry * dvx);
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
    const float *restrict x = s->x, *restrict y = s->y, *restrict om = s->omega;
    const float *restrict pg = s->pair_g;
    float *restrict ex = s->gcx, *restrict ey = s->gcy;
    const int *restrict hs = s->half_start, *restrict split = s->half_split;
    const int *restrict hn = s->half_nbr;

    for (int i = 0; i < nf; i++)
        ex[i] = ey[i] = 0.0f;
    for (int i = 0; i < nf; i++) {
        const float xi = x[i], yi = y[i], ai = fabsf(om[i]), vol_i = vol[i];
        float ex_i = 0.0f, ey_i = 0.0f;
        for (int e = hs[i]; e < split[i]; e++) {
            const int j = hn[e];
            /* (|w_j| - |w_i|) grad W_ij for i; for j both factors change sign. */
            const float f = (fabsf(om[j]) - ai) * pg[e];
            const float fx = f * (xi - x[j]), fy = f * (yi - y[j]);
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
    if (s->iter == 0) /* no pass ran: densities are still needed */
        lambda_pass(s, kn);
    float *vol = s->dx; /* the corrections are spent: reuse as V_j = m/rho_j */
    for (int j = 0; j < nf; j++)
        vol[j] = s->density[j] > 0.0f ? s->mass / s->density[j] : 0.0f;
    viscosity_pass(s, kn, vol);
    if (s->prm.vorticity != 0.0f)
        vorticity_pass(s, vol);
    for (int i = 0; i < nf; i++)
        if (!isfinite(s->ax[i]) || !isfinite(s->ay[i])) {
            s->ax[i] = 0.0f;
            s->ay[i] = s->prm.gravity;
        }
}

void pbf_step(struct pbf *s)
{
    if (s->nfluid < 1 || !(s->prm.dt > 0.0f) || !isfinite(s->prm.dt))
        return;
    const struct kernel kn = kernel_make(s->h);

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

/* ---- Pointer ----------------------------------------------------------------- */

int pbf_nearest(const struct pbf *s, float x, float y, float maxdist)
{
    if (!(maxdist >= 0.0f))
        return -1;
    int best = -1;
    float best2 = maxdist * maxdist;
    for (int i = 0; i < s->nfluid; i++) {
        const float dx = s->x[i] - x, dy = s->y[i] - y;
        const float d2 = dx * dx + dy * dy;
        if (d2 <= best2 && (best < 0 || d2 < best2)) {
            best = i;
            best2 = d2;
        }
    }
    return best;
}

void pbf_grab(struct pbf *s, int i, float x, float y)
{
    if (i < 0 || i >= s->nfluid || !isfinite(x) || !isfinite(y))
        return;
    const float r = s->prm.radius;
    s->grabbed = i;
    s->grab_x = clampf(x, s->xmin + r, s->xmax - r);
    s->grab_y = clampf(y, s->ymin + r, s->ymax - r);
}

void pbf_release(struct pbf *s, float vx, float vy)
{
    if (s->grabbed < 0)
        return;
    s->vx[s->grabbed] = isfinite(vx) ? vx : 0.0f;
    s->vy[s->grabbed] = isfinite(vy) ? vy : 0.0f;
    s->grabbed = -1;
}

void pbf_push(struct pbf *s, float x, float y, float radius, float vx, float vy)
{
    if (!(radius > 0.0f) || !isfinite(radius) || !isfinite(x) || !isfinite(y) ||
        !isfinite(vx) || !isfinite(vy))
        return;
    const float inv_r2 = 1.0f / (radius * radius);
    for (int i = 0; i < s->nfluid; i++) {
        const float dx = s->x[i] - x, dy = s->y[i] - y;
        const float t = 1.0f - (dx * dx + dy * dy) * inv_r2;
        if (t <= 0.0f)
            continue;
        const float w = t * t; /* (1 - (d/r)^2)^2: 1 at the centre, flat to 0 at r */
        s->vx[i] += w * vx;
        s->vy[i] += w * vy;
    }
}

/* ---- Statistics -------------------------------------------------------------- */

float pbf_density_err_pct(struct pbf *s)
{
    if (s->nfluid < 1 || nsearch_build(&s->ns, s->x, s->y, s->n, s->nfluid, s->h) != 0)
        return 0.0f;
    const struct kernel kn = kernel_make(s->h);
    const float rho0 = s->prm.density0;
    double err = 0.0;
    for (int i = 0; i < s->nfluid; i++) {
        float rho = s->psi[i] * kn.k;
        for (int e = s->ns.start[i]; e < s->ns.start[i + 1]; e++) {
            const int j = s->ns.nbr[e];
            const float rx = s->x[i] - s->x[j], ry = s->y[i] - s->y[j];
            float w, g;
            kernel_pair(&kn, rx * rx + ry * ry, &w, &g);
            rho += s->psi[j] * w;
        }
        if (rho > rho0)
            err += rho - rho0;
    }
    return (float)(err / s->nfluid / rho0 / PCT);
}

void pbf_centroid(const struct pbf *s, float *cx, float *cy)
{
    double sx = 0.0, sy = 0.0;
    for (int i = 0; i < s->nfluid; i++) {
        sx += s->x[i];
        sy += s->y[i];
    }
    *cx = s->nfluid > 0 ? (float)(sx / s->nfluid) : 0.0f;
    *cy = s->nfluid > 0 ? (float)(sy / s->nfluid) : 0.0f;
}

float pbf_kinetic_energy(const struct pbf *s)
{
    double e = 0.0;
    for (int i = 0; i < s->nfluid; i++)
        e += (double)s->vx[i] * s->vx[i] + (double)s->vy[i] * s->vy[i];
    return (float)(0.5 * s->mass * e);
}
