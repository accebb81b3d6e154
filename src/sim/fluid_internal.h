/*
 * fluid_internal.h — what the files of the dye solver share (private to
 * src/sim, and the tests): fluid.c (step, splats, resize, statistics) calls
 * fluid_advect.c (vorticity, advection, diffusion, decay) and fluid_mg.c (the
 * pressure solve); the state they share is fluid_core.c's, which calls none
 * of them.
 */
#ifndef SWIRL_FLUID_INTERNAL_H
#define SWIRL_FLUID_INTERNAL_H

#include "fluid.h"
#include "pool.h"
#include "sim_internal.h"
#include "simd.h"
#include "swirl.h"

#include <stddef.h>

/*
 * Bands: every heavy pass cuts its rows into FLUID_BANDS bands (pool_span) and
 * runs them with pool_run, one part a band. A band writes only its own rows and
 * reads what no band of the same pass writes, and a sum is kept per band and
 * added in band order, so the bits do not depend on the threads that ran the
 * bands, nor on whether a pool ran them at all. Grids too small to be worth
 * waking a thread for run their bands here, in order: the same bands, the same
 * bits.
 */
enum {
    FLUID_BANDS = 16,        /* parts of every pass: fixed, whatever the threads */
    FLUID_PAR_CELLS = 2048,  /* fewer cells than this: the bands run on this thread */
    FLUID_MAX_N = 4096,      /* velocity grid side at most */
    FLUID_MAX_DYE = 8192,    /* dye grid side at most */
};

/* Grids: velocity cell (i,j) spans [i,i+1] x [j,j+1] in velocity cells; u(i,j)
 * sits at (i, j+0.5), v(i,j) at (i+0.5, j), pressure p(i,j) and the curl at
 * the cell centre. Dye cell (i,j) spans [i,i+1] x [j,j+1] in dye cells;
 * sx = nx/dw and sy = ny/dh convert dye cells to velocity cells. Each pass
 * reads the fields of the pass before (u0/v0 for the velocity, dye0 for the
 * dye). */
#define U(f, i, j) ((f)->u[(size_t)(j) * (size_t)((f)->nx + 1) + (size_t)(i)])
#define V(f, i, j) ((f)->v[(size_t)(j) * (size_t)(f)->nx + (size_t)(i)])

/* The pool a pass over `cells` cells runs its bands on (NULL: this thread). */
static inline struct pool *fluid_pool_for(const struct fluid *f, size_t cells)
{
    return cells >= FLUID_PAR_CELLS ? f->pool : NULL;
}

/* Runs fn over the FLUID_BANDS bands of a pass over `cells` cells. */
static inline void fluid_bands(const struct fluid *f, size_t cells,
                               void (*fn)(void *arg, int band, int nbands), void *arg)
{
    pool_run(fluid_pool_for(f, cells), fn, arg, FLUID_BANDS);
}

/* ---- sampling (inline: the advection's inner loops) ----------------------- */

/* v clamped to [lo, hi], NaN to lo; branch-free (maxss, minss). */
static inline float fluid_clamp(float v, float lo, float hi)
{
    v = v > lo ? v : lo;
    return v < hi ? v : hi;
}

/* Bilinear sample of a w x h node grid at fractional node coordinates, clamped
 * to the grid (on the last node the sample is the last cell's s or t = 1). Hot:
 * inline, no divisions, no branches, int offsets (w*h < 2^31: see sizes_ok),
 * so that a loop of them vectorises. */
static inline float fluid_bilerp(const float *restrict a, int w, int h, float fx, float fy)
{
    int imax = w > 1 ? w - 2 : 0, jmax = h > 1 ? h - 2 : 0;
    fx = fluid_clamp(fx, 0.0f, (float)(w - 1));
    fy = fluid_clamp(fy, 0.0f, (float)(h - 1));
    int i = (int)fx, j = (int)fy;
    i = i < imax ? i : imax;
    j = j < jmax ? j : jmax;
    float s = fx - (float)i, t = fy - (float)j;
    int k = j * w + i, di = w > 1, dj = h > 1 ? w : 0;
    float a0 = a[k] + (a[k + di] - a[k]) * s;
    float a1 = a[k + dj] + (a[k + dj + di] - a[k + dj]) * s;
    return a0 + (a1 - a0) * t;
}

/* Where a bilinear sample of the interleaved RGB dye of a dw x dh grid reads:
 * the four nodes around (fx, fy) (dye-node coordinates, clamped to the grid) as
 * the offsets of their first channel, and the fractions s along x and t along y
 * from the first of them. */
struct dye_taps {
    size_t k00, k10, k01, k11;
    float s, t;
};

static inline struct dye_taps fluid_dye_taps(int dw, int dh, float fx, float fy)
{
    struct dye_taps q;
    fx = fluid_clamp(fx, 0.0f, (float)(dw - 1));
    fy = fluid_clamp(fy, 0.0f, (float)(dh - 1));
    int i0 = (int)fx, j0 = (int)fy;
    int i1 = i0 + 1 < dw ? i0 + 1 : i0, j1 = j0 + 1 < dh ? j0 + 1 : j0;
    q.s = fx - (float)i0;
    q.t = fy - (float)j0;
    q.k00 = 3 * ((size_t)j0 * (size_t)dw + (size_t)i0);
    q.k10 = 3 * ((size_t)j0 * (size_t)dw + (size_t)i1);
    q.k01 = 3 * ((size_t)j1 * (size_t)dw + (size_t)i0);
    q.k11 = 3 * ((size_t)j1 * (size_t)dw + (size_t)i1);
    return q;
}

/* ---- between the files ----------------------------------------------------- */

/* fluid_core.c: the grids for f's sizes, zeroed (0, or -1 with nothing
 * allocated when memory runs out), and their release; whether grid sizes are
 * good ones (1 to FLUID_MAX_N velocity cells a side, to FLUID_MAX_DYE dye
 * cells). */
int fluid_grids_alloc(struct fluid *f);
void fluid_grids_free(struct fluid *f);
bool fluid_sizes_ok(int nx, int ny, int dw, int dh);

/* fluid_advect.c: the step's passes before and after the projection. */
void fluid_confine_and_copy(struct fluid *f);  /* u0,v0 = u,v (+ confinement force dt) */
void fluid_advect_velocity(struct fluid *f);   /* u,v from u0,v0 */
/* Implicit diffusion by red-black Gauss-Seidel of a w x h grid of nc interleaved
 * channels (see fluid_advect.c); returns the sweeps taken (none once
 * f->prm.stop is raised: it is read before each). */
int fluid_diffuse(const struct fluid *f, float *x, float *x0, int w, int h, int nc, float a,
                  bool fix_cols, bool fix_rows);
void fluid_advect_dye(struct fluid *f);        /* dye moved, scaled back, decayed */

/* fluid_mg.c: the projection; with `dissipate` the velocity is also scaled by
 * `keep` and bounded by +-vmax in the same pass. */
void fluid_project_with(struct fluid *f, bool dissipate, float keep, float vmax);
/* The divergence the velocity has left, relative: the root mean square of the
 * cells' divergence over that of their speed |u| + |v| (0 at rest; for the
 * tests of the projection). */
float fluid_divergence_norm(const struct fluid *f);

#endif
