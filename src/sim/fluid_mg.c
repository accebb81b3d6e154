/*
 * fluid_mg.c — the dye solver's pressure projection: multigrid V-cycles on the
 * Poisson equation of a closed box (layouts in fluid.h, bands in fluid_internal.h).
 */
#include "fluid_internal.h"

#include <math.h>
#include <string.h>

enum {
    PRE_SWEEPS = 2,
    POST_SWEEPS = 2,
    COARSE_SWEEPS = 40,
};

/* Level l holds p and b on an nx x ny grid of cells, row-major, cell (i,j) at
 * p[j*nx+i]; level l+1 halves each side (rounding up), its cell (I,J) covering
 * the children (2I..2I+1, 2J..2J+1). (A p)_ij = n_ij p_ij - sum of its n_ij
 * neighbours inside the box (closed walls: Neumann), b = -div u; then u -= grad p
 * on the interior faces. A pass over a level is one of these jobs. */
struct mg_job {
    struct fluid *f;
    struct fluid_level *L, *C; /* the level, and the next coarser one */
    int colour;                /* smoothing: cells with (i + j) % 2 == colour */
    float shift;               /* subtracted from every b of the rows first */
    double sum[FLUID_BANDS];   /* per band: sum of r^2, or of b */
    double sum2[FLUID_BANDS];
};

static size_t cells_of(const struct fluid_level *L) { return (size_t)L->nx * (size_t)L->ny; }

/* ---- smoothing -------------------------------------------------------------- */

/* Red-black Gauss-Seidel: the cells of one colour see only the other colour,
 * so a colour's rows can be updated in any order, by any thread. */

/* The Gauss-Seidel value of cell k at (i,j): (b + sum of neighbours) / their
 * number; p itself when it has none (a 1x1 grid). */
static inline float relaxed(const float *p, const float *b, size_t k, int i, int j, int nx,
                            int ny)
{
    float sum = 0.0f;
    int n = 0;
    if (i > 0) sum += p[k - 1], n++;
    if (i < nx - 1) sum += p[k + 1], n++;
    if (j > 0) sum += p[k - (size_t)nx], n++;
    if (j < ny - 1) sum += p[k + (size_t)nx], n++;
    return n ? (b[k] + sum) / (float)n : p[k];
}

static void smooth_band(void *arg, int band, int nbands)
{
    const struct mg_job *m = arg;
    const struct fluid_level *L = m->L;
    int nx = L->nx, ny = L->ny, lo, hi;
    float *p = L->p, *b = L->b;
    pool_span(ny, band, nbands, &lo, &hi);
    for (int j = lo; j < hi; j++) {
        size_t row = (size_t)j * (size_t)nx;
        if (m->shift != 0.0f)
            for (int i = 0; i < nx; i++)
                b[row + (size_t)i] -= m->shift;
        int i = (j + m->colour) & 1;
        if (j == 0 || j == ny - 1 || nx < 3) {
            for (; i < nx; i += 2)
                p[row + (size_t)i] = relaxed(p, b, row + (size_t)i, i, j, nx, ny);
            continue;
        }
        if (i == 0) {
            p[row] = relaxed(p, b, row, 0, j, nx, ny);
            i = 2;
        }
        for (; i < nx - 1; i += 2) { /* inside: four neighbours */
            size_t k = row + (size_t)i;
            p[k] = (b[k] + (p[k - 1] + p[k + 1] + p[k - (size_t)nx] + p[k + (size_t)nx])) * 0.25f;
        }
        if (i == nx - 1)
            p[row + (size_t)i] = relaxed(p, b, row + (size_t)i, i, j, nx, ny);
    }
}

/* `sweeps` red-black sweeps on L; the first pass also subtracts `shift` from b. */
static void smooth(struct fluid *f, struct fluid_level *L, int sweeps, float shift)
{
    struct mg_job m = {.f = f, .L = L, .shift = shift};
    for (int s = 0; s < sweeps; s++)
        for (m.colour = 0; m.colour < 2; m.colour++) {
            fluid_bands(f, cells_of(L), smooth_band, &m);
            m.shift = 0.0f;
        }
}

/* ---- residuals -------------------------------------------------------------- */

/* r = b - A p along a row of n cells: p's row, the rows above and below it (NULL
 * at a wall) and b's. The loops are plain so that they vectorise. */
SIMD_NOINLINE static void residual_row(float *restrict r, const float *restrict p,
                                       const float *restrict up, const float *restrict down,
                                       const float *restrict b, int n)
{
    r[0] = 0.0f;
    if (n > 1) {
        r[0] += p[0] - p[1];
        for (int i = 1; i < n - 1; i++)
            r[i] = (0.0f + (p[i] - p[i - 1])) + (p[i] - p[i + 1]);
        r[n - 1] = 0.0f + (p[n - 1] - p[n - 2]);
    }
    if (up)
        for (int i = 0; i < n; i++)
            r[i] += p[i] - up[i];
    if (down)
        for (int i = 0; i < n; i++)
            r[i] += p[i] - down[i];
    for (int i = 0; i < n; i++)
        r[i] = b[i] - r[i];
}

/* The residual of row j of L into r. */
static void level_residual(const struct fluid_level *L, int j, float *r)
{
    size_t nx = (size_t)L->nx;
    const float *p = L->p + (size_t)j * nx;
    residual_row(r, p, j > 0 ? p - nx : NULL, j < L->ny - 1 ? p + nx : NULL,
                 L->b + (size_t)j * nx, L->nx);
}

/* Sum of r^2 over the band's rows (b shifted first). */
static void norm_band(void *arg, int band, int nbands)
{
    struct mg_job *m = arg;
    const struct fluid_level *L = m->L;
    float r[FLUID_MAX_N];
    int lo, hi;
    pool_span(L->ny, band, nbands, &lo, &hi);
    double s = 0.0;
    for (int j = lo; j < hi; j++) {
        float *b = L->b + (size_t)j * (size_t)L->nx;
        if (m->shift != 0.0f)
            for (int i = 0; i < L->nx; i++)
                b[i] -= m->shift;
        level_residual(L, j, r);
        for (int i = 0; i < L->nx; i++)
            s += (double)r[i] * (double)r[i];
    }
    m->sum[band] = s;
}

static double band_sum(const double *s)
{
    double t = 0.0;
    for (int b = 0; b < FLUID_BANDS; b++)
        t += s[b];
    return t;
}

/* ||b - A p||^2 on L, after b -= shift. */
static double residual_norm2(struct fluid *f, struct fluid_level *L, float shift)
{
    struct mg_job m = {.f = f, .L = L, .shift = shift};
    fluid_bands(f, cells_of(L), norm_band, &m);
    return band_sum(m.sum);
}

/* ---- between levels --------------------------------------------------------- */

/* Restriction sums the children's residuals (the unscaled stencil on a grid
 * twice as coarse) and removes their mean (the problem is singular);
 * prolongation is piecewise constant; the coarsest level gets many sweeps. */

/* A coarse row gets the sum of its children in a fine row of n: cb[I] +=
 * r[2I], then r[2I+1]. */
SIMD_NOINLINE static void restrict_row(float *restrict cb, const float *restrict r, int n)
{
    int half = n / 2;
    for (int i = 0; i < half; i++) {
        cb[i] += r[2 * i];
        cb[i] += r[2 * i + 1];
    }
    if (n & 1)
        cb[half] += r[n - 1];
}

/* A fine row of n gets its parents' correction: p[i] += cp[i / 2]. */
SIMD_NOINLINE static void prolong_row(float *restrict p, const float *restrict cp, int n)
{
    int half = n / 2;
    for (int i = 0; i < half; i++) {
        p[2 * i] += cp[i];
        p[2 * i + 1] += cp[i];
    }
    if (n & 1)
        p[n - 1] += cp[half];
}

/* Coarse rows of the band: C->b = the sum of the children's residuals, C->p = 0;
 * the band's sum of C->b in its slot. */
static void restrict_band(void *arg, int band, int nbands)
{
    struct mg_job *m = arg;
    const struct fluid_level *L = m->L, *C = m->C;
    float r[FLUID_MAX_N];
    int lo, hi;
    pool_span(C->ny, band, nbands, &lo, &hi);
    double s = 0.0;
    for (int jc = lo; jc < hi; jc++) {
        float *cb = C->b + (size_t)jc * (size_t)C->nx;
        memset(cb, 0, (size_t)C->nx * sizeof(float));
        memset(C->p + (size_t)jc * (size_t)C->nx, 0, (size_t)C->nx * sizeof(float));
        for (int j = 2 * jc; j < 2 * jc + 2 && j < L->ny; j++) {
            level_residual(L, j, r);
            restrict_row(cb, r, L->nx);
        }
        for (int i = 0; i < C->nx; i++)
            s += cb[i];
    }
    m->sum[band] = s;
}

static void prolong_band(void *arg, int band, int nbands)
{
    const struct mg_job *m = arg;
    const struct fluid_level *L = m->L, *C = m->C;
    int lo, hi;
    pool_span(L->ny, band, nbands, &lo, &hi);
    for (int j = lo; j < hi; j++) {
        prolong_row(L->p + (size_t)j * (size_t)L->nx, C->p + (size_t)(j >> 1) * (size_t)C->nx,
                    L->nx);
    }
}

/* One V-cycle from level l down; `shift` is taken off level l's b first. */
static void vcycle(struct fluid *f, int l, float shift)
{
    struct fluid_level *L = &f->lv[l];
    if (l == f->nlevels - 1) {
        smooth(f, L, COARSE_SWEEPS, shift);
        return;
    }
    struct fluid_level *C = &f->lv[l + 1];
    smooth(f, L, PRE_SWEEPS, shift);
    struct mg_job m = {.f = f, .L = L, .C = C};
    fluid_bands(f, cells_of(L), restrict_band, &m);
    float mean = (float)(band_sum(m.sum) / (double)cells_of(C));
    vcycle(f, l + 1, mean);
    fluid_bands(f, cells_of(L), prolong_band, &m);
    smooth(f, L, POST_SWEEPS, 0.0f);
}

/* ---- the projection --------------------------------------------------------- */

/* lv[0].b = -div u over the band's rows; sums of b^2 and of b in the slots. */
static void divergence_band(void *arg, int band, int nbands)
{
    struct mg_job *m = arg;
    const struct fluid *f = m->f;
    int nx = f->nx, lo, hi;
    pool_span(f->ny, band, nbands, &lo, &hi);
    double s2 = 0.0, s = 0.0;
    for (int j = lo; j < hi; j++) {
        float *b = f->lv[0].b + (size_t)j * (size_t)nx;
        for (int i = 0; i < nx; i++) {
            float d = U(f, i + 1, j) - U(f, i, j) + V(f, i, j + 1) - V(f, i, j);
            b[i] = -d;
            s2 += (double)d * (double)d;
            s += (double)b[i];
        }
    }
    m->sum2[band] = s2;
    m->sum[band] = s;
}

struct finish_job {
    struct fluid *f;
    bool dissipate;
    float keep, vmax;
};

/* u -= grad p on the interior faces of the band's rows, then (dissipate) every
 * face scaled by keep and bounded by +-vmax. */
static void finish_band(void *arg, int band, int nbands)
{
    const struct finish_job *job = arg;
    struct fluid *f = job->f;
    int nx = f->nx, ny = f->ny, lo, hi;
    const float *p = f->lv[0].p;
    float keep = job->keep, vmax = job->vmax;
    pool_span(ny, band, nbands, &lo, &hi);
    for (int j = lo; j < hi; j++) {
        float *u = f->u + (size_t)j * (size_t)(nx + 1);
        const float *pr = p + (size_t)j * (size_t)nx;
        for (int i = 1; i < nx; i++)
            u[i] -= pr[i] - pr[i - 1];
        if (job->dissipate)
            for (int i = 0; i <= nx; i++)
                u[i] = clampf(u[i] * keep, -vmax, vmax);
    }
    pool_span(ny + 1, band, nbands, &lo, &hi);
    for (int j = lo; j < hi; j++) {
        float *v = f->v + (size_t)j * (size_t)nx;
        const float *pr = p + (size_t)j * (size_t)nx;
        if (j > 0 && j < ny)
            for (int i = 0; i < nx; i++)
                v[i] -= pr[i] - pr[i - nx];
        if (job->dissipate)
            for (int i = 0; i < nx; i++)
                v[i] = clampf(v[i] * keep, -vmax, vmax);
    }
}

void fluid_project_with(struct fluid *f, bool dissipate, float keep, float vmax)
{
    size_t n = (size_t)f->nx * (size_t)f->ny;
    struct fluid_level *L = &f->lv[0];
    struct mg_job m = {.f = f, .L = L};
    struct finish_job fin = {f, dissipate, keep, vmax};
    fluid_bands(f, n, divergence_band, &m);
    double bb = band_sum(m.sum2);
    f->cycles = 0;
    if (!(bb > 1e-20) || !isfinite(bb)) {
        if (!isfinite(bb)) /* a blown-up field: start again from rest */
            fluid_clear(f);
        f->residual = f->residual0 = 0.0f;
        memset(L->p, 0, n * sizeof(float));
        if (dissipate) /* p = 0: the dissipation alone */
            fluid_bands(f, n, finish_band, &fin);
        return;
    }
    float mean = (float)(band_sum(m.sum) / (double)n);
    double bnorm = sqrt(bb);
    float res = (float)(sqrt(residual_norm2(f, L, mean)) / bnorm);
    if (!isfinite(res)) { /* a stale warm start: forget it */
        memset(L->p, 0, n * sizeof(float));
        res = (float)(sqrt(residual_norm2(f, L, 0.0f)) / bnorm);
    }
    f->residual0 = res;
    /* A raised stop ends it after the V-cycle under way (fluid_step). */
    while (res > f->prm.tolerance && f->cycles < f->prm.max_cycles &&
           !sim_stopped(f->prm.stop)) {
        vcycle(f, 0, 0.0f);
        f->cycles++;
        res = (float)(sqrt(residual_norm2(f, L, 0.0f)) / bnorm);
    }
    f->residual = res;
    fluid_bands(f, n, finish_band, &fin);
}

void fluid_project(struct fluid *f) { fluid_project_with(f, false, 1.0f, 0.0f); }

float fluid_divergence_norm(const struct fluid *f)
{
    int nx = f->nx, ny = f->ny;
    double s = 0.0, m = 0.0;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            float d = U(f, i + 1, j) - U(f, i, j) + V(f, i, j + 1) - V(f, i, j);
            float speed = fabsf(U(f, i, j)) + fabsf(V(f, i, j));
            s += (double)d * (double)d;
            m += (double)speed * (double)speed;
        }
    return m > 0.0 ? (float)sqrt(s / m) : 0.0f;
}
