/*
 * fluid.c — Stable Fluids on a MAC grid with a multigrid pressure solve and RGB
 * dye on a finer grid: one step's order, splats, resize and the statistics.
 * The passes are in fluid_advect.c and fluid_mg.c, the state (its grids,
 * init, free, clear) in fluid_core.c.
 */
#include "fluid_internal.h"

#include <math.h>

/* ---- step ---------------------------------------------------------------- */

/* The passes of a step that follow the confinement, in order. */
static void viscosity_pass(struct fluid *f)
{
    if (!(f->prm.viscosity > 0.0f))
        return;
    float a = f->prm.viscosity * f->prm.dt;
    fluid_diffuse(f, f->u, f->u0, f->nx + 1, f->ny, 1, a, true, false);
    fluid_diffuse(f, f->v, f->v0, f->nx, f->ny + 1, 1, a, false, true);
}

/* Projection, then dissipation and a bound in the same pass: nothing crosses
 * more than the box in one step (a run-away vorticity or force setting
 * saturates instead of overflowing). */
static void projection_pass(struct fluid *f)
{
    const struct fluid_params *p = &f->prm;
    float keep = p->dissipation > 0.0f ? 1.0f / (1.0f + p->dissipation * p->dt) : 1.0f;
    float vmax = (float)(f->nx > f->ny ? f->nx : f->ny) / fmaxf(p->dt, 1e-6f);
    fluid_project_with(f, true, keep, vmax);
}

static void dye_diffusion_pass(struct fluid *f)
{
    f->diffuse_sweeps = 0;
    if (f->prm.diffusion > 0.0f)
        f->diffuse_sweeps = fluid_diffuse(f, f->dye, f->dye0, f->dw, f->dh, 3,
                                          f->prm.diffusion * f->prm.dt, false, false);
}

static void (*const step_passes[])(struct fluid *) = {
    fluid_confine_and_copy, fluid_advect_velocity, viscosity_pass, projection_pass,
    dye_diffusion_pass, fluid_advect_dye,
};

/* The passes in order; between two, a raised stop ends the step (fluid.h). */
void fluid_step(struct fluid *f)
{
    const int n = (int)(sizeof step_passes / sizeof step_passes[0]);
    for (int k = 0; k < n; k++) {
        if (k > 0 && sim_stopped(f->prm.stop))
            return;
        step_passes[k](f);
    }
}

/* ---- splats, resize, statistics ------------------------------------------ */

void fluid_splat(struct fluid *f, float x, float y, float r, float vx, float vy,
                 float swirl, const float rgb[3])
{
    if (!isfinite(x) || !isfinite(y) || !(r > 0.0f) || !isfinite(r))
        return;
    float sx = (float)f->nx / (float)f->dw, sy = (float)f->ny / (float)f->dh;
    /* Velocity, in velocity cells. */
    float cx = x * sx, cy = y * sy, rv = r * 0.5f * (sx + sy);
    float inv = 1.0f / (rv * rv), ext = 3.0f * rv;
    const float swirl_norm = 2.3316f; /* 1 / max of q exp(-q^2) */
    vx = clampf(vx, -1e6f, 1e6f) * sx;
    vy = clampf(vy, -1e6f, 1e6f) * sy;
    swirl = clampf(swirl, -1e6f, 1e6f) * 0.5f * (sx + sy);
    int i0 = clampi((int)floorf(cx - ext), 0, f->nx), i1 = clampi((int)ceilf(cx + ext), 0, f->nx);
    int j0 = clampi((int)floorf(cy - ext), 0, f->ny), j1 = clampi((int)ceilf(cy + ext), 0, f->ny);
    for (int j = j0; j < j1 && j < f->ny; j++)
        for (int i = i0 > 1 ? i0 : 1; i <= i1 && i < f->nx; i++) {
            float dx = (float)i - cx, dy = (float)j + 0.5f - cy, d2 = dx * dx + dy * dy;
            float w = expf(-d2 * inv), d = sqrtf(d2);
            float tang = d > 1e-6f ? swirl * swirl_norm * (d / rv) * w * (dy / d) : 0.0f;
            U(f, i, j) += vx * w + tang;
        }
    for (int j = j0 > 1 ? j0 : 1; j <= j1 && j < f->ny; j++)
        for (int i = i0; i < i1 && i < f->nx; i++) {
            float dx = (float)i + 0.5f - cx, dy = (float)j - cy, d2 = dx * dx + dy * dy;
            float w = expf(-d2 * inv), d = sqrtf(d2);
            float tang = d > 1e-6f ? swirl * swirl_norm * (d / rv) * w * (-dx / d) : 0.0f;
            V(f, i, j) += vy * w + tang;
        }
    if (!rgb)
        return;
    float rinv = 1.0f / (r * r), rext = 3.0f * r;
    int a0 = clampi((int)floorf(x - rext), 0, f->dw), a1 = clampi((int)ceilf(x + rext), 0, f->dw);
    int b0 = clampi((int)floorf(y - rext), 0, f->dh), b1 = clampi((int)ceilf(y + rext), 0, f->dh);
    for (int j = b0; j < b1; j++)
        for (int i = a0; i < a1; i++) {
            float dx = (float)i + 0.5f - x, dy = (float)j + 0.5f - y;
            float w = expf(-(dx * dx + dy * dy) * rinv);
            float *d = f->dye + 3 * ((size_t)j * (size_t)f->dw + (size_t)i);
            d[0] += rgb[0] * w;
            d[1] += rgb[1] * w;
            d[2] += rgb[2] * w;
        }
}

int fluid_resize(struct fluid *f, int nx, int ny, int dw, int dh)
{
    if (!fluid_sizes_ok(nx, ny, dw, dh))
        return -1;
    if (nx == f->nx && ny == f->ny && dw == f->dw && dh == f->dh)
        return 0;
    struct fluid old = *f;
    f->nx = nx, f->ny = ny, f->dw = dw, f->dh = dh;
    f->nlevels = 0;
    if (fluid_grids_alloc(f) != 0) { /* out of memory: keep the old grids */
        *f = old;
        return -1;
    }
    float ax = (float)old.nx / (float)nx, ay = (float)old.ny / (float)ny;
    for (int j = 0; j < ny; j++)
        for (int i = 1; i < nx; i++)
            U(f, i, j) = fluid_bilerp(old.u, old.nx + 1, old.ny, (float)i * ax,
                                ((float)j + 0.5f) * ay - 0.5f) / ax;
    for (int j = 1; j < ny; j++)
        for (int i = 0; i < nx; i++)
            V(f, i, j) = fluid_bilerp(old.v, old.nx, old.ny + 1, ((float)i + 0.5f) * ax - 0.5f,
                                (float)j * ay) / ay;
    float bx = (float)old.dw / (float)dw, by = (float)old.dh / (float)dh;
    for (int j = 0; j < dh; j++)
        for (int i = 0; i < dw; i++) {
            const struct dye_taps q = fluid_dye_taps(old.dw, old.dh, ((float)i + 0.5f) * bx - 0.5f,
                                               ((float)j + 0.5f) * by - 0.5f);
            const float *a = old.dye + q.k00, *b = old.dye + q.k10;
            const float *c = old.dye + q.k01, *e = old.dye + q.k11;
            float *out = f->dye + 3 * ((size_t)j * (size_t)dw + (size_t)i);
            for (int ch = 0; ch < 3; ch++) { /* along x, then along y */
                float top = a[ch] + (b[ch] - a[ch]) * q.s;
                float bot = c[ch] + (e[ch] - c[ch]) * q.s;
                out[ch] = top + (bot - top) * q.t;
            }
        }
    fluid_grids_free(&old);
    fluid_project(f);
    return 0;
}

/* The statistics run in bands too (the HUD asks every frame): sums per band,
 * added in band order. */
struct stat_job {
    const struct fluid *f;
    double sum[FLUID_BANDS];
};

static void total_dye_band(void *arg, int band, int nbands)
{
    struct stat_job *job = arg;
    const struct fluid *f = job->f;
    int lo, hi;
    pool_span(f->dh, band, nbands, &lo, &hi);
    double s = 0.0;
    for (size_t k = 3 * (size_t)lo * (size_t)f->dw; k < 3 * (size_t)hi * (size_t)f->dw; k++)
        s += f->dye[k];
    job->sum[band] = s;
}

static double stat_sum(const struct fluid *f, size_t cells,
                       void (*fn)(void *arg, int band, int nbands))
{
    struct stat_job job;
    job.f = f;
    fluid_bands(f, cells, fn, &job);
    double s = 0.0;
    for (int b = 0; b < FLUID_BANDS; b++)
        s += job.sum[b];
    return s;
}

float fluid_total_dye(const struct fluid *f)
{
    size_t cells = (size_t)f->dw * (size_t)f->dh;
    return (float)(stat_sum(f, cells, total_dye_band) / (double)cells);
}

static void kinetic_band(void *arg, int band, int nbands)
{
    struct stat_job *job = arg;
    const struct fluid *f = job->f;
    int nx = f->nx, lo, hi;
    float sx = (float)nx / (float)f->dw, sy = (float)f->ny / (float)f->dh;
    pool_span(f->ny, band, nbands, &lo, &hi);
    double s = 0.0;
    for (int j = lo; j < hi; j++)
        for (int i = 0; i < nx; i++) {
            double uc = 0.5 * ((double)U(f, i, j) + (double)U(f, i + 1, j)) / sx;
            double vc = 0.5 * ((double)V(f, i, j) + (double)V(f, i, j + 1)) / sy;
            s += 0.5 * (uc * uc + vc * vc);
        }
    job->sum[band] = s;
}

float fluid_kinetic_energy(const struct fluid *f)
{
    size_t cells = (size_t)f->nx * (size_t)f->ny;
    return (float)(stat_sum(f, cells, kinetic_band) / (double)cells);
}
