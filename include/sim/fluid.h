/*
 * fluid.h — Stam's Stable Fluids on a staggered (MAC) grid, with RGB dye.
 * Velocity on an nx x ny grid of unit cells, x right, y down, in cells per
 * second; dye on its own, usually finer dw x dh grid over the same closed box.
 * Positions given to the API are in dye cells.
 */
#ifndef SWIRL_FLUID_H
#define SWIRL_FLUID_H

#include <stdatomic.h>

#define FLUID_MAX_LEVELS 12

struct fluid_params {
    float dt;          /* seconds per step */
    float viscosity;   /* velocity diffusion, cells^2/s (0: skipped) */
    float diffusion;   /* dye diffusion, dye cells^2/s (0: skipped) */
    float decay;       /* dye decay rate, 1/s */
    float dissipation; /* velocity dissipation rate, 1/s */
    float vorticity;   /* confinement strength (0: off) */
    float tolerance;   /* target relative residual of the pressure solve */
    int max_cycles;    /* V-cycle cap per projection */
    const atomic_int *stop; /* read between the passes of every step: once
                        * *stop is non-zero the step ends (NULL: never) */
};

struct fluid_level {   /* one multigrid level of the pressure solve */
    int nx, ny;
    float *p, *b;      /* pressure (or its correction) and right-hand side */
};

struct pool;

/* Velocity is staggered: u on the vertical faces ((nx+1) x ny, u[j*(nx+1)+i]
 * at (i, j+0.5)), v on the horizontal faces (nx x (ny+1), v[j*nx+i] at
 * (i+0.5, j)); the box is closed: normal velocity is zero on the walls. Dye is
 * RGB, interleaved (dye[3*(j*dw+i)+c]), on a grid spanning the same box, usually
 * the canvas's pixels. */
struct fluid {
    struct fluid_params prm;
    int nx, ny;        /* velocity grid */
    int dw, dh;        /* dye grid */
    float *u, *v, *u0, *v0;
    float *curl;       /* nx*ny scratch: vorticity */
    float *dye, *dye0; /* 3*dw*dh (a step swaps them: read dye after it, never keep it) */
    struct pool *pool; /* NULL: every pass on the calling thread */
    int nlevels;
    struct fluid_level lv[FLUID_MAX_LEVELS];
    float residual;    /* relative residual the last projection reached */
    float residual0;   /* ... and before it started (warm start included) */
    int cycles;        /* V-cycles the last projection took */
    int diffuse_sweeps;/* sweeps the last diffusion took (0 when skipped) */
};

void fluid_params_default(struct fluid_params *p);
/* Returns 0, or -1 on bad sizes or when memory runs out (nothing allocated). */
int fluid_init(struct fluid *f, const struct fluid_params *p, int nx, int ny, int dw, int dh);
void fluid_free(struct fluid *f);
/* New grid sizes; velocity and dye are resampled so the picture keeps its shape.
 * Returns 0, or -1 (bad sizes, or out of memory: the old grids stay). */
int fluid_resize(struct fluid *f, int nx, int ny, int dw, int dh);
void fluid_clear(struct fluid *f);
/* The threads the steps run on from now on (NULL: the calling thread); the
 * pool stays the caller's and must outlive its use here. Every pass of a step
 * runs as a fixed number of row bands on it, so the result is the same to the
 * bit with no pool, one thread or many. One step at a time per pool. */
void fluid_set_pool(struct fluid *f, struct pool *p);
/* One step: vorticity confinement -> self-advection (semi-Lagrangian, RK2
 * back-trace) -> viscosity (implicit, only when non-zero) -> projection
 * (multigrid V-cycles on the pressure Poisson equation until its relative
 * residual is below `tolerance`, warm-started) -> velocity dissipation; then the
 * dye: diffusion (only when non-zero) -> one advection pass that moves all three
 * channels -> decay.
 * Cut short: once *prm.stop is raised the step ends after the pass under way
 * (the confinement at least), where every field is whole: a diffusion after
 * its sweep, the projection after its V-cycle (then its dissipation and bound
 * as usual), the rest of the passes left for the next step. At the largest
 * grids a pass takes a few tenths of a second and a step seconds. A stop never
 * raised changes nothing. */
void fluid_step(struct fluid *f);

/* Velocity only: pressure projection (exposed for tests). Projection on a MAC
 * grid is exact: the discrete divergence left equals the Poisson residual. */
void fluid_project(struct fluid *f);

/*
 * A Gaussian splat at (x,y) in dye cells with radius r (dye cells; weight
 * exp(-d^2/r^2)): adds velocity (vx,vy) (dye cells/s), a swirl of tangential
 * speed `swirl` (dye cells/s, counter-clockwise on screen for > 0) and dye rgb
 * at its centre.
 */
void fluid_splat(struct fluid *f, float x, float y, float r, float vx, float vy,
                 float swirl, const float rgb[3]);

/* Statistics: total dye (sum over channels and cells, per dye cell: the mean
 * concentration, independent of the grid's size) and kinetic energy (mean of
 * 0.5|v|^2 in dye cells/s). */
float fluid_total_dye(const struct fluid *f);
float fluid_kinetic_energy(const struct fluid *f);

#endif
