/*
 * pbf_solve.c — one step of Position Based Fluids (pbf_step): prediction,
 * neighbour lists, the density constraint (pbf_density.c), velocities, and the
 * accelerations for the next step (XSPH viscosity, vorticity confinement). The
 * passes run on the ranges through pbf_run_parts (pbf_core.c).
 */
#include "pbf_internal.h"
#include "pool.h"
#include "sim_internal.h"
#include "simd.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#define VORT_MIN_ETA 1.0e-12f     /* below this |grad |omega|| there is no direction */
#define INSET_FRAC 1.0e-3f        /* the most a clamp insets a particle, in radii */
#define L PBF_LANES

/* The slots of a range: [*i0, *i1). */
static void part_slots(const struct pbf *s, const struct pbf_part *pt, int *i0, int *i1)
{
    *i0 = pt->g0 * L;
    *i1 = pt->g1 * L < s->nfluid ? pt->g1 * L : s->nfluid;
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

/* What rest damping leaves of a velocity of squared speed v2 over a step:
 * 1 / (1 + dt k u^2 / (u^2 + v2)), k = rest_damping, u = rest_speed (see pbf.h),
 * given u2 = u^2 and dtk = dt k. */
static inline float rest_keep(float v2, float u2, float dtk)
{
    return 1.0f / (1.0f + dtk * u2 / (u2 + v2));
}

/* Symplectic Euler prediction with the accelerations of the previous step, then
 * the accelerations are reset to gravity; rest damping (pbf.h) first, on the
 * velocity the last step left. Predicted positions are kept within
 * the box grown by h: at sane parameters this never binds; it is what the
 * neighbour grid's frame covers. The range's water then goes into the grid's
 * cells, and so does its share of the boundary. */
static void predict_part(struct pbf_job *j, struct pbf_part *pt)
{
    struct pbf *s = j->s;
    const float dt = s->prm.dt, g = isfinite(s->prm.gravity) ? s->prm.gravity : 0.0f;
    const float lox = s->xmin - s->h, hix = s->xmax + s->h;
    const float loy = s->ymin - s->h, hiy = s->ymax + s->h;
    const float u2 = s->prm.rest_speed * s->prm.rest_speed;
    const bool rest = s->prm.rest_damping > 0.0f && u2 > 0.0f && isfinite(u2) &&
                      isfinite(s->prm.rest_damping);
    const float dtk = rest ? dt * s->prm.rest_damping : 0.0f;
    int i0, i1;
    part_slots(s, pt, &i0, &i1);
    for (int i = i0; i < i1; i++) {
        const float in = inset(s, i);
        s->xold[i] = s->x[i];
        s->yold[i] = s->y[i];
        if (rest) {
            const float keep = rest_keep(s->vx[i] * s->vx[i] + s->vy[i] * s->vy[i], u2, dtk);
            s->vx[i] *= keep;
            s->vy[i] *= keep;
        }
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
static void finish_part(struct pbf_job *j, struct pbf_part *pt)
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
static void lists_part(struct pbf_job *j, struct pbf_part *pt)
{
    struct pbf *s = j->s;
    int off = 0;
    pt->fail = false;
    pt->lists.lanes_most = s->lanes_most;
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
 * inlined, hence SIMD_NOINLINE) and an unsigned trip count that is a multiple
 * of the block. It needs -fno-math-errno to vectorize sqrtf; without it the
 * loop is scalar and gives the same bits.
 */
SIMD_NOINLINE static void kernel_many(struct kernel kn, float *restrict w, float *restrict gx,
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
 * over water neighbours at the final positions. Gathers first and then runs the
 * kernel over the flat caches (group_kernels), and leaves grad W_ij in them
 * for the vorticity pass. */
static void viscosity_part(struct pbf_job *j, struct pbf_part *pt)
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
static void vorticity_part(struct pbf_job *j, struct pbf_part *pt)
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

static void accelerations(struct pbf_job *j)
{
    const struct pbf *s = j->s;
    if (s->prm.viscosity == 0.0f && s->prm.vorticity == 0.0f)
        return;
    pbf_run_parts(j, viscosity_part);
    if (s->prm.vorticity != 0.0f)
        pbf_run_parts(j, vorticity_part);
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
 * held ones are now), then the lists. The grid's frame is the box grown by h,
 * where the prediction keeps the water, so the prediction's ranges can place
 * their particles into its cells; only the counting sort of the cells runs on
 * one thread. */
static bool build_lists(struct pbf_job *j)
{
    struct pbf *s = j->s;
    const long xy = 2 * ((long)s->n + 1);
    if (!j->grid || (s->xy_cap < xy && SIM_RESIZE(s->xy, xy) != 0))
        return false;
    s->xy_cap = s->xy_cap < xy ? xy : s->xy_cap;
    for (int g = 0; g < s->ngrab; g++)
        nsearch_place(&s->ns, s->x, s->y, s->grab_i[g], s->grab_i[g] + 1);
    nsearch_sort(&s->ns, s->x, s->y);
    cut_ranges(s);
    pbf_run_parts(j, lists_part);
    for (int p = 0; p < PBF_PARTS; p++)
        if (s->part[p].fail)
            return false;
    return true;
}

/* Only the water moves (slots 0..nfluid-1). Nothing here allocates once the
 * lists have reached their size. */
void pbf_step(struct pbf *s)
{
    if (s->nfluid < 1 || !(s->prm.dt > 0.0f) || !isfinite(s->prm.dt))
        return;
    struct pbf_job j = {s, kernel_make(s->h), simd_lanes(s->lanes_most), false};
    if (s->since_sort == 0)
        pbf_sort_by_cell(s);
    s->since_sort = (s->since_sort + 1) % PBF_SORT_EVERY;

    /* The grid over the box grown by h, where predict keeps the water. */
    j.grid = nsearch_frame(&s->ns, s->n, s->h, s->xmin - s->h, s->ymin - s->h, s->xmax + s->h,
                           s->ymax + s->h) == 0;
    pbf_run_parts(&j, predict_part);
    place_held(s);
    const bool lists = build_lists(&j);
    s->iter = 0;
    if (lists)
        pbf_solve_density(&j);
    place_held(s);
    pbf_run_parts(&j, finish_part);
    if (lists)
        accelerations(&j);
    s->time += (double)s->prm.dt;
}
