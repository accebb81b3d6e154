/*
 * pbf.c — Position Based Fluids in 2D, the algorithm of pbf.html: parameters,
 * the kernel, setup, release and the throw, the pointer and statistics. The
 * step is in pbf_solve.c and pbf_density.c, what both share in pbf_core.c.
 */
#include "pbf_internal.h"
#include "sim_internal.h"

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

/* Data: structure-of-arrays floats of length n. Particles 0..nfluid-1 are water,
 * nfluid..n-1 the static boundary particles, in the seed's order (per column the
 * bottom then the top wall particle, then per row the left then the right one).
 * Coordinates are metres with y up; the wall particles span [xmin, xmax] x
 * [ymin, ymax] with ymin = 0 and xmin = -box_w*d/2 (d = 2r), and the water is
 * kept inside that box shrunk by r on every side. psi[] holds each particle's
 * mass: m for water, the Akinci pseudo-mass for the boundary. */

#define FLOAT_ARRAYS 15
#define INT_ARRAYS 3

/* The per-slot arrays (all of length n + 1), so that allocation and release are
 * one loop each. */
static void float_arrays(struct pbf *s, float **slot[FLOAT_ARRAYS])
{
    float **list[FLOAT_ARRAYS] = {
        &s->x,      &s->y,      &s->xold,   &s->yold,    &s->vx,
        &s->vy,     &s->ax,     &s->ay,     &s->density, &s->lambda,
        &s->psi,    &s->omega,  &s->vol,    &s->grab_ox, &s->grab_oy,
    };
    memcpy(slot, list, sizeof list);
}

static void int_arrays(struct pbf *s, int **slot[INT_ARRAYS])
{
    int **list[INT_ARRAYS] = {&s->id, &s->slot, &s->grab_i};
    memcpy(slot, list, sizeof list);
}

void pbf_free(struct pbf *s)
{
    float **fs[FLOAT_ARRAYS];
    int **is[INT_ARRAYS];
    float_arrays(s, fs);
    int_arrays(s, is);
    for (int a = 0; a < FLOAT_ARRAYS; a++)
        free(*fs[a]);
    for (int a = 0; a < INT_ARRAYS; a++)
        free(*is[a]);
    free(s->held);
    free(s->xy);
    free(s->gstart);
    free(s->gkw);
    free(s->gkb);
    for (int p = 0; p < PBF_PARTS; p++) {
        struct pbf_part *pt = &s->part[p];
        nsearch_lanes_free(&pt->lists);
        free(pt->pw);
        free(pt->pgx);
        free(pt->pgy);
    }
    nsearch_free(&s->ns);
    memset(s, 0, sizeof *s);
    s->grabbed = -1;
}

void pbf_set_pool(struct pbf *s, struct pool *p) { s->pool = p; }

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

/* The group tables for nfluid water particles and the parts' ranges of groups
 * cut evenly (each step cuts them again by work, see cut_ranges); 0 or -1. */
static int set_groups(struct pbf *s)
{
    const int ngroup = (s->nfluid + PBF_LANES - 1) / PBF_LANES;
    if (SIM_RESIZE(s->gstart, (size_t)ngroup + 1) != 0 ||
        SIM_RESIZE(s->gkw, (size_t)ngroup + 1) != 0 || SIM_RESIZE(s->gkb, (size_t)ngroup + 1) != 0)
        return -1;
    s->ngroup = ngroup;
    /* No lists yet: every group weighs the same in the first cut (see cut_ranges). */
    memset(s->gkw, 0, ((size_t)ngroup + 1) * sizeof *s->gkw);
    memset(s->gkb, 0, ((size_t)ngroup + 1) * sizeof *s->gkb);
    for (int p = 0; p < PBF_PARTS; p++) {
        s->part[p].g0 = (int)((long long)ngroup * p / PBF_PARTS);
        s->part[p].g1 = (int)((long long)ngroup * (p + 1) / PBF_PARTS);
    }
    return 0;
}

/* Every per-slot array, zeroed, the group tables and the parts' ranges; 0 or
 * -1 (what was allocated stays, for pbf_free). The arrays reach past the dummy
 * by a group: the lanes of the last group past the water read (never write)
 * there. */
static int alloc_arrays(struct pbf *s)
{
    float **fs[FLOAT_ARRAYS];
    int **is[INT_ARRAYS];
    const size_t len = (size_t)s->n + 1 + PBF_LANES; /* room for a last group's lanes */
    bool ok = true;
    float_arrays(s, fs);
    int_arrays(s, is);
    for (int a = 0; a < FLOAT_ARRAYS; a++)
        ok &= (*fs[a] = calloc(len, sizeof(float))) != NULL;
    for (int a = 0; a < INT_ARRAYS; a++)
        ok &= (*is[a] = calloc(len, sizeof(int))) != NULL;
    ok &= (s->held = calloc(len, 1)) != NULL;
    return ok && set_groups(s) == 0 ? 0 : -1;
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
    /* The dummy neighbour (slot n): far away, massless, at rest. */
    s->x[s->n] = s->xmax + DUMMY_REACH * s->h;
    s->y[s->n] = s->ymax + DUMMY_REACH * s->h;
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
        s->id[i] = s->slot[i] = i;
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

/* Water particle at slot i (a new one): at (x, y) with velocity (vx, vy),
 * falling from the next step on. */
static void new_water(struct pbf *s, int i, float x, float y, float vx, float vy)
{
    const float r = s->prm.radius;
    s->x[i] = s->xold[i] = clampf(x, s->xmin + r, s->xmax - r);
    s->y[i] = s->yold[i] = clampf(y, s->ymin + r, s->ymax - r);
    s->vx[i] = isfinite(vx) ? vx : 0.0f;
    s->vy[i] = isfinite(vy) ? vy : 0.0f;
    s->ax[i] = 0.0f;
    s->ay[i] = isfinite(s->prm.gravity) ? s->prm.gravity : 0.0f;
    s->psi[i] = s->mass;
    s->density[i] = s->prm.density0;
    s->lambda[i] = s->omega[i] = s->vol[i] = 0.0f;
    s->id[i] = s->slot[i] = i;
    s->held[i] = 0;
}

int pbf_add_water(struct pbf *s, const float *x, const float *y, int k, float vx, float vy)
{
    if (k < 1 || (long long)s->n + k > MAX_PARTICLES)
        return k == 0 ? 0 : -1;
    const int nf = s->nfluid, tail = s->n + 1 - nf; /* the boundary and the dummy */
    const size_t len = (size_t)s->n + (size_t)k + 1 + PBF_LANES;
    float **fs[FLOAT_ARRAYS];
    int **is[INT_ARRAYS];
    float_arrays(s, fs);
    int_arrays(s, is);
    bool ok = true;
    for (int a = 0; a < FLOAT_ARRAYS; a++)
        ok = ok && SIM_RESIZE(*fs[a], len) == 0;
    for (int a = 0; a < INT_ARRAYS; a++)
        ok = ok && SIM_RESIZE(*is[a], len) == 0;
    ok = ok && SIM_RESIZE(s->held, len) == 0;
    s->nfluid += k; /* the group tables for the new count, or nothing changes */
    ok = ok && set_groups(s) == 0;
    s->nfluid = nf;
    if (!ok)
        return set_groups(s), -1;
    /* The boundary moves up by k (slot ids and held slots are water only). */
    float *shift[] = {s->x, s->y, s->xold, s->yold, s->vx, s->vy, s->ax, s->ay,
                      s->density, s->lambda, s->psi, s->omega, s->vol};
    for (size_t a = 0; a < sizeof shift / sizeof shift[0]; a++) {
        memmove(shift[a] + nf + k, shift[a] + nf, (size_t)tail * sizeof(float));
        memset(shift[a] + s->n + k + 1, 0, PBF_LANES * sizeof(float));
    }
    s->nfluid += k;
    s->n += k;
    for (int q = 0; q < k; q++)
        new_water(s, nf + q, x[q], y[q], vx, vy);
    s->since_sort = 0; /* the new water goes where it belongs at the next step */
    return 0;
}

/* ---- Pointer ----------------------------------------------------------------- */

int pbf_nearest(const struct pbf *s, float x, float y, float maxdist)
{
    return sim_nearest(s->x, s->y, s->nfluid, x, y, maxdist);
}

/* Lets go of everything held, at rest where it is. */
static void drop_grab(struct pbf *s)
{
    for (int g = 0; g < s->ngrab; g++)
        s->held[s->grab_i[g]] = 0;
    s->ngrab = 0;
    s->grabbed = -1;
}

static void hold(struct pbf *s, int i, float ox, float oy)
{
    s->grab_i[s->ngrab] = i;
    s->grab_ox[s->ngrab] = ox;
    s->grab_oy[s->ngrab] = oy;
    s->held[i] = 1;
    if (s->ngrab++ == 0)
        s->grabbed = i;
}

void pbf_grab(struct pbf *s, int i, float x, float y)
{
    if (i < 0 || i >= s->nfluid || !isfinite(x) || !isfinite(y))
        return;
    drop_grab(s);
    hold(s, i, 0.0f, 0.0f);
    s->grab_x = x;
    s->grab_y = y;
    held_point(s, 0, &s->grab_x, &s->grab_y);
}

int pbf_grab_near(struct pbf *s, float x, float y, float radius, int max)
{
    drop_grab(s);
    if (!isfinite(x) || !isfinite(y) || !(radius >= 0.0f) || max < 1)
        return 0;
    /* The nearest max within radius, nearest first (ties: the lower slot), by
     * repeated selection among those not yet taken: max is a handful. */
    float limit2 = radius * radius;
    for (int n = 0; n < max; n++) {
        int best = -1;
        float best2 = limit2;
        for (int i = 0; i < s->nfluid; i++) {
            const float dx = s->x[i] - x, dy = s->y[i] - y, d2 = dx * dx + dy * dy;
            if (!s->held[i] && (d2 < best2 || (best < 0 && d2 == best2))) {
                best = i;
                best2 = d2;
            }
        }
        if (best < 0)
            break;
        hold(s, best, s->x[best] - x, s->y[best] - y);
    }
    s->grab_x = x;
    s->grab_y = y;
    return s->ngrab;
}

void pbf_move_grab(struct pbf *s, float x, float y)
{
    s->grab_x = x;
    s->grab_y = y;
}

void pbf_release(struct pbf *s, float vx, float vy)
{
    for (int g = 0; g < s->ngrab; g++) {
        s->vx[s->grab_i[g]] = isfinite(vx) ? vx : 0.0f;
        s->vy[s->grab_i[g]] = isfinite(vy) ? vy : 0.0f;
    }
    drop_grab(s);
}

/* Two numbers in [-1, 1) fixed by a particle's id (a multiplicative hash and
 * its remix): the same particle gets the same pair on every run. */
static void id_pair(int id, float *a, float *b)
{
    unsigned h = (unsigned)id * 2654435761u;
    *a = (float)(h >> 8) * (2.0f / 16777216.0f) - 1.0f;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    *b = (float)(h >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

void pbf_throw(struct pbf *s, float vx, float vy, float stretch, float squeeze, float jitter)
{
    const float speed = hypotf(vx, vy);
    if (!(speed > 0.0f) || !isfinite(speed) || s->ngrab < 1) {
        pbf_release(s, vx, vy);
        return;
    }
    /* The throw's direction u and its normal n = (uy, -ux), and the handful's
     * reach along and across it from the mean offset (what scales a and b). */
    const float ux = vx / speed, uy = vy / speed;
    double mx = 0.0, my = 0.0;
    for (int g = 0; g < s->ngrab; g++) {
        mx += s->grab_ox[g];
        my += s->grab_oy[g];
    }
    mx /= s->ngrab;
    my /= s->ngrab;
    float along = 0.0f, across = 0.0f;
    for (int g = 0; g < s->ngrab; g++) {
        const float ox = s->grab_ox[g] - (float)mx, oy = s->grab_oy[g] - (float)my;
        along = fmaxf(along, fabsf(ox * ux + oy * uy));
        across = fmaxf(across, fabsf(ox * uy - oy * ux));
    }
    const float ka = along > 0.0f ? stretch / along : 0.0f;
    const float kb = across > 0.0f ? -squeeze * speed / across : 0.0f;
    const float kj = isfinite(jitter) ? jitter * speed : 0.0f;
    for (int g = 0; g < s->ngrab; g++) {
        const int i = s->grab_i[g];
        const float ox = s->grab_ox[g] - (float)mx, oy = s->grab_oy[g] - (float)my;
        /* a: the share of the speed gained; b: the speed along n (inwards). */
        const float a = (ox * ux + oy * uy) * ka, b = (ox * uy - oy * ux) * kb;
        float jx, jy;
        id_pair(s->id[i], &jx, &jy);
        const float px = vx * (1.0f + a) + b * uy + kj * jx;
        const float py = vy * (1.0f + a) - b * ux + kj * jy;
        s->vx[i] = isfinite(px) ? px : 0.0f;
        s->vy[i] = isfinite(py) ? py : 0.0f;
    }
    drop_grab(s);
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
