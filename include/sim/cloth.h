/*
 * cloth.h — Position Based Dynamics cloth, as in pbd.html.
 * Units are the seed's: metres, seconds, kilograms, y up. A w x h grid of
 * particles, row-major from the top row, held by distance constraints.
 */
#ifndef SWIRL_CLOTH_H
#define SWIRL_CLOTH_H

#include <stdatomic.h>
#include <stdbool.h>

struct cloth_link;
struct cloth_grid;
struct pool;

/* Options beyond the seed (off in the seed preset): XPBD compliance (alpha,
 * m/N; stiffness independent of iterations and dt), substeps, tearing (a
 * constraint stretched beyond tear_strain is removed after the solve, order of
 * the others kept), upright, buckle, by_colour, release with the pointer's velocity
 * (cloth_release) and scissors (cloth_cut). */
struct cloth_params {
    /* w, h, fixed and spacing are read by cloth_init; the rest by every step,
     * so they may be changed live. */
    int w, h;            /* particles across and down (seed 40 x 30) */
    int fixed;           /* 1, 2 or 4 pinned corners (seed 2) */
    float spacing;       /* rest distance between neighbours, 0.2 m */
    float dt;            /* time step, 0.005 s */
    int iterations;      /* Gauss-Seidel sweeps, 2 */
    float gravity;       /* m/s^2 along y, -9.81 */
    float mass;          /* mass of every particle, 0.5 kg */
    float compliance;    /* XPBD alpha; 0 = the seed's PBD */
    int substeps;        /* 1 in the seed */
    bool tearing;        /* off in the seed */
    float tear_strain;   /* |len-rest|/rest beyond which a constraint breaks
                          * (with buckle: (len-rest)/rest) */
    bool upright;        /* no cell turns over: a cell whose area falls below
                          * UPRIGHT_AREA of its rest area (folded flat, or
                          * turned over) is pushed back open once a substep,
                          * so a cloth folded onto itself falls open as one in
                          * three dimensions would (in the plane the fold is a
                          * mirror image the distances alone hold); off in the
                          * seed */
    bool buckle;         /* a constraint only pulls: one no longer than its
                          * rest length is left as it is, as real cloth,
                          * pushed together, buckles out of the plane (the
                          * drawing's folds) instead of pushing back. In the
                          * plane the structural and diagonal distances alone
                          * make a rigid framework, so a cloth hanging from
                          * two corners would stay a rectangle and a slit cut
                          * across it would stay shut; with buckle the top edge
                          * sags between the pins and a slit opens under the
                          * weight below it. Off in the seed */
    bool by_colour;      /* read by cloth_init: sweep the constraints by colour
                          * (cloth_grid.c: the same projections in an order
                          * made for vectors and threads) instead of in the
                          * seed's order; off in the seed */
    const atomic_int *stop; /* read during every step: once *stop is non-zero the
                          * step ends early (cloth_step); NULL: never */
};

void cloth_params_seed(struct cloth_params *p);

struct cloth {
    struct cloth_params prm;
    int n;               /* w*h particles */
    float *x, *y, *xold, *yold, *vx, *vy;
    float *w;            /* inverse mass, 0 for fixed and grabbed; derived from
                          * prm.mass, the pins and the grab. Read only: the step
                          * keeps its own copy (cloth_project reads this one) */
    unsigned char *fixed;
    int nc, nc_cap;      /* constraints alive, and allocated */
    int *c1, *c2;
    float *rest, *lambda;
    double time;         /* seconds simulated: a double (see pbf.h's time) */
    int grabbed;         /* -1 or the kinematic particle */
    int torn;            /* constraints removed by tearing so far */
    int cut;             /* constraints removed by cloth_cut so far */

    /* private: scratch, not for callers (the solver's own, src/sim/cloth*.c).
     * link[] holds the live constraints once more, four to a record, in the
     * order the solver visits them: each particle meets its constraints in the
     * same sequence as in c1/c2 (so a sweep gives bit for bit the in-order
     * Gauss-Seidel result), while the four of a record share no particle and
     * are projected together. */
    struct cloth_link *link;
    int nlink;           /* records */
    int *level;          /* nlevel+1: level l is records level[l] .. level[l+1]-1 */
    int nlevel;
    struct pool *pool;   /* cloth_set_pool: threads for the sweeps, or NULL */
    int par_records;     /* levels this long go to the pool, and by colour a
                          * cloth of 8x as many particles (tests lower it) */
    int *link_con;       /* 4*nlink slots: the constraint in each lane, or -1 */
    float *xy;           /* 2n: positions interleaved, the solver's working copy */
    struct cloth_grid *grid; /* by_colour: the constraints by colour, else NULL
                              * (and then no link[]) */
    int *scratch;        /* nc_cap ints, for tearing without allocating */
    unsigned char *cell_whole; /* per cell (its top-left particle): all six of
                          * its constraints alive (upright holds only those) */
    int cell_nc;         /* the nc cell_whole was made for (-1: not yet) */
    float wmass;         /* the prm.mass that w was derived from */
    bool wdirty;         /* w changed since link[] (or grid) copied it */
    int lanes_max;       /* the widest vector loops the sweeps may use: by
                          * colour 1 (plain C), 4 (SSE2), 8 (AVX2) or 16
                          * (AVX-512), in the seed's order 1 or 4; 0: the
                          * widest the CPU has. The same bits either way
                          * (tests compare) */
};

/* Particle (i,j), row i 0..h-1 top to bottom, column j 0..w-1, has index
 * i*w + j and starts at (2s*j, -2s*i) with s = spacing/2 (the seed's s = 0.1,
 * spacing 0.2). Constraints, in this order: horizontal (each row), vertical,
 * then per cell both diagonals ((i,j)-(i+1,j+1) then (i,j+1)-(i+1,j)). Fixed
 * particles: 1 -> particle 0; 2 -> also w-1; 4 -> also (h-1)*w and h*w-1. Fixed
 * and grabbed particles have inverse mass 0: never integrated, never corrected.
 * Returns 0, or -1 (w or h outside 1..4096, spacing not positive, out of
 * memory) with nothing left to free. */
int cloth_init(struct cloth *c, const struct cloth_params *p);
void cloth_free(struct cloth *c);
/* Threads for the constraint sweeps (NULL: this thread alone); the results
 * are the same bits whatever the pool. cloth_init starts with none. */
void cloth_set_pool(struct cloth *c, struct pool *pool);
/* One step: symplectic Euler prediction under gravity; `iterations`
 * Gauss-Seidel sweeps over the constraints in order with mass-weighted
 * corrections; velocity from the displacement. With by_colour the sweeps visit
 * the constraints in sets that share no particle (cloth_internal.h's
 * cloth_project says which): not the seed's order, but several times faster.
 * One time step of prm.dt (a no-op if dt is not positive). Never allocates; a
 * particle that turns non-finite is put back where the step started it.
 * Cut short: once *prm.stop is raised, the substep under way ends after its
 * current sweep (each substep sweeps at least once), takes its velocities from
 * what the sweeps did, and the substeps left are skipped (time advances by
 * those done); tearing runs as usual. A stop never raised changes nothing. */
void cloth_step(struct cloth *c);

/* The particle nearest (x,y) within maxdist, or -1. */
int cloth_nearest(const struct cloth *c, float x, float y, float maxdist);
/* Makes particle i kinematic at (x,y) (a previous grab is released first);
 * move_grab moves it. Pins may be grabbed and stay pinned where they are left. */
void cloth_grab(struct cloth *c, int i, float x, float y);
void cloth_move_grab(struct cloth *c, float x, float y);
/* Lets go; with_velocity gives it (vx,vy), else it keeps its old velocity (seed). */
void cloth_release(struct cloth *c, bool with_velocity, float vx, float vy);

/* Scissors: removes every constraint whose segment between its particles'
 * current positions meets a segment of the stroke of n points xy (x,y pairs;
 * touching counts; one point: whatever passes through it); the others keep
 * their order, so the step still equals the in-order sweep over what is left.
 * Returns how many were removed (also added to c->cut). */
int cloth_cut_path(struct cloth *c, const float *xy, int n);

/* For drawing. The intact constraints of the grid, per particle i a set of
 * bits for those that start there: CLOTH_RIGHT (i, i+1), CLOTH_DOWN (i, i+w),
 * CLOTH_DIAG (i, i+w+1) and CLOTH_ANTI (i+1, i+w), the cell's other diagonal.
 * edges has n bytes. */
enum { CLOTH_RIGHT = 1, CLOTH_DOWN = 2, CLOTH_DIAG = 4, CLOTH_ANTI = 8 };
void cloth_edges(const struct cloth *c, unsigned char *edges);
/* The deformation at each particle as the tangents along its row and down its
 * column, in rest spacings: t[4i..4i+3] = du.x du.y dv.x dv.y, (1,0) and (0,-1)
 * at rest (y up). From the intact neighbours (edges from cloth_edges): central
 * differences, one-sided at an edge or a cut; with one of the two missing it is
 * the other turned a quarter, with both missing the rest frame. smooth, unless
 * NULL, gets them averaged with the intact neighbours' along the row and the
 * column (the particle's own counted twice): the deformation over a wider
 * stencil, without the solver's mesh-scale ripples. */
void cloth_tangents(const struct cloth *c, const unsigned char *edges, float *t, float *smooth);
/* The surface that is left, as triangles of particles, three indices each in
 * tri (room for 2 (w-1)(h-1) triangles): each cell as the two triangles over
 * its diagonal (i,i+w+1) when all their edges are intact, else the two over
 * the other diagonal, else the one triangle left whole, if any. Each is wound
 * as (i,i+1,i+w+1) is, so one whose winding turned has been turned over.
 * uses[4i + k] (4n bytes) counts the triangles along the edge of bit k at i:
 * 1 on the surface's border (its hem, and every cut). Returns the number. */
int cloth_triangles(const struct cloth *c, const unsigned char *edges, int *tri,
                    unsigned char *uses);

/* Mean and largest strain |len - rest| / rest over the live constraints (with
 * buckle the stretch alone, max(len - rest, 0) / rest, as tearing reads it). */
void cloth_strain(const struct cloth *c, float *mean, float *max);
/* Centroid of all particles and the lowest y. */
void cloth_centroid(const struct cloth *c, float *cx, float *cy, float *miny);
/* Sum of m v^2 / 2 over the free particles (not pinned, not grabbed). */
float cloth_kinetic_energy(const struct cloth *c);

#endif
