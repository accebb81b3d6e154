/*
 * pbf.c — Position Based Fluids in 2D, the algorithm of pbf.html: parameters,
 * the kernel's public face, setup and release, the pointer and statistics. The
 * step is in pbf_solve.c; what both share in pbf_internal.h.
 *
 * Data: structure-of-arrays floats of length n. Particles 0..nfluid-1 are water,
 * nfluid..n-1 the static boundary particles, in the seed's order (per column the
 * bottom then the top wall particle, then per row the left then the right one).
 * Coordinates are metres with y up; the wall particles span [xmin, xmax] x
 * [ymin, ymax] with ymin = 0 and xmin = -box_w*d/2 (d = 2r), and the water is
 * kept inside that box shrunk by r on every side. psi[] holds each particle's
 * mass: m for water, the Akinci pseudo-mass for the boundary.
 */
#include "pbf_internal.h"
#include "sim_common.h"

#include <math.h>
#include <stdbool.h>
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

#define SUPPORT_PER_RADIUS 4.0f   /* h = 4r */
#define LATTICE_REACH 2           /* the rest lattice within h = 2 diameters */
#define MAX_PARTICLES (1 << 24)

void pbf_params_seed(struct pbf_params *p)
{
    *p = (struct pbf_params){
        .radius = SEED_RADIUS, .density0 = SEED_DENSITY0, .dt = SEED_DT,
        .max_error_pct = SEED_MAX_ERROR_PCT, .max_iter = SEED_MAX_ITER,
        .viscosity = SEED_VISCOSITY, .gravity = SEED_GRAVITY, .scorr = false,
        .vorticity = 0.0f, .seed_quirk = true,
    };
}

float pbf_kernel(const struct pbf *s, float r)
{
    const struct kernel kn = kernel_make(s->h);
    float w, g;
    if (!isfinite(r))
        return 0.0f;
    kernel_pair(kn, r * r, &w, &g);
    return w;
}

void pbf_kernel_grad(const struct pbf *s, float rx, float ry, float *gx, float *gy)
{
    const struct kernel kn = kernel_make(s->h);
    const float r2 = rx * rx + ry * ry;
    float w, g;
    *gx = *gy = 0.0f;
    if (!isfinite(r2))
        return;
    kernel_pair(kn, r2, &w, &g);
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
    free(s->pair_gx);
    free(s->pair_gy);
    nsearch_free(&s->ns);
    memset(s, 0, sizeof *s);
    s->grabbed = -1;
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
            kernel_pair(kn, rx * rx + ry * ry, &w, &g);
            sum += w;
        }
        s->psi[nf + k] = s->prm.density0 / sum;
    }
    return 0;
}

/* The unit of s_corr (see SCORR_K): 1 / sum_j |m/rho0 grad W_ij|^2 over the
 * neighbours of a particle in a square lattice of spacing 2r (the gradient sum at
 * the particle itself is 0 by symmetry). */
static float rest_lattice_unit(const struct pbf *s)
{
    const struct kernel kn = kernel_make(s->h);
    const float d = 2.0f * s->prm.radius, c = s->mass / s->prm.density0;
    double sum = 0.0;
    for (int a = -LATTICE_REACH; a <= LATTICE_REACH; a++)
        for (int b = -LATTICE_REACH; b <= LATTICE_REACH; b++) {
            const float rx = a * d, ry = b * d;
            float w, g;
            kernel_pair(kn, rx * rx + ry * ry, &w, &g);
            sum += (double)(c * g) * (c * g) * (rx * rx + ry * ry);
        }
    return sum > 0.0 ? (float)(1.0 / sum) : 0.0f;
}

/* The arguments pbf_init accepts: a positive finite radius and density, and a
 * box that holds the block with a total of at most MAX_PARTICLES. */
static bool init_args_ok(const struct pbf_params *p, int block_w, int block_h, int box_w,
                         int box_h)
{
    if (!(p->radius > 0.0f) || !isfinite(p->radius) || !(p->density0 > 0.0f) ||
        !isfinite(p->density0))
        return false;
    if (block_w < 1 || block_h < 1 || box_w < block_w + 2 || box_h < block_h + 1)
        return false;
    long long nf = (long long)block_w * block_h;
    long long nb = 2LL * box_w + 2LL * (box_h - 1);
    return nf + nb <= MAX_PARTICLES;
}

/* Every per-particle array, zeroed; 0 or -1 (what was allocated stays, for
 * pbf_free). */
static int alloc_arrays(struct pbf *s)
{
    float **slot[FLOAT_ARRAYS];
    float_arrays(s, slot);
    for (int a = 0; a < FLOAT_ARRAYS; a++)
        *slot[a] = calloc((size_t)s->n, sizeof(float));
    s->half_start = calloc((size_t)s->n + 1, sizeof(int));
    s->half_split = calloc((size_t)s->n + 1, sizeof(int));
    bool ok = s->half_start && s->half_split;
    for (int a = 0; a < FLOAT_ARRAYS; a++)
        ok = ok && *slot[a];
    return ok ? 0 : -1;
}

/* The box's wall particles (bottom and top per column, then left and right per
 * row), after the water, and its extent. */
static void place_walls(struct pbf *s)
{
    const int box_w = s->box_w, box_h = s->box_h;
    const double d = 2.0 * (double)s->prm.radius, x0 = -0.5 * box_w * d;
    int i = s->nfluid;
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
}

/* The water block, row by row from the bottom as in the seed, one diameter in
 * from the walls (place_walls first: it sets the extent), at rest. */
static void place_water(struct pbf *s, int block_w, int block_h)
{
    const float rf = s->prm.radius;
    const double r = rf, d = 2.0 * r, x0 = -0.5 * s->box_w * d;
    int i = 0;
    for (int row = 0; row < block_h; row++)
        for (int col = 0; col < block_w; col++, i++) {
            s->x[i] = (float)(x0 + col * d + d + r);
            s->y[i] = (float)(row * d + d + r);
        }
    /* Exactly inside the inner region (a block that just fits would otherwise
     * touch its edge give or take a rounding). */
    for (i = 0; i < s->nfluid; i++) {
        s->x[i] = clampf(s->x[i], s->xmin + rf, s->xmax - rf);
        s->y[i] = clampf(s->y[i], s->ymin + rf, s->ymax - rf);
    }
    /* Water starts at rest with zero acceleration (the seed's first step has no
     * gravity: accelerations are reset to gravity only after the prediction). */
    for (i = 0; i < s->nfluid; i++) {
        s->xold[i] = s->x[i];
        s->yold[i] = s->y[i];
        s->psi[i] = s->mass;
        s->density[i] = s->prm.density0;
    }
}

int pbf_init(struct pbf *s, const struct pbf_params *p, int block_w, int block_h,
             int box_w, int box_h)
{
    memset(s, 0, sizeof *s);
    s->grabbed = -1;
    nsearch_init(&s->ns);
    if (!init_args_ok(p, block_w, block_h, box_w, box_h))
        return -1;

    s->prm = *p;
    s->nfluid = block_w * block_h;
    s->n = s->nfluid + 2 * box_w + 2 * (box_h - 1);
    s->box_w = box_w;
    s->box_h = box_h;
    const double d = 2.0 * (double)p->radius;
    s->mass = (float)(d * d * p->density0);
    s->h = SUPPORT_PER_RADIUS * p->radius;
    s->scorr_unit = rest_lattice_unit(s);
    if (alloc_arrays(s) != 0) {
        pbf_free(s);
        return -1;
    }
    place_walls(s);
    place_water(s, block_w, block_h);
    if (compute_psi(s) != 0) {
        pbf_free(s);
        return -1;
    }
    return 0;
}

/* ---- Pointer ----------------------------------------------------------------- */

int pbf_nearest(const struct pbf *s, float x, float y, float maxdist)
{
    return sim_nearest(s->x, s->y, s->nfluid, x, y, maxdist);
}

void pbf_grab(struct pbf *s, int i, float x, float y)
{
    if (i < 0 || i >= s->nfluid || !isfinite(x) || !isfinite(y))
        return;
    s->grabbed = i;
    s->grab_x = x;
    s->grab_y = y;
    held_point(s, &s->grab_x, &s->grab_y);
}

void pbf_move_grab(struct pbf *s, float x, float y)
{
    s->grab_x = x;
    s->grab_y = y;
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
            kernel_pair(kn, rx * rx + ry * ry, &w, &g);
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
