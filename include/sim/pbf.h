/*
 * pbf.h — Position Based Fluids (Macklin & Müller 2013) in 2D, as in pbf.html.
 * Units are the seed's: metres, seconds, kilograms, y up. Particles 0..nfluid-1
 * are water, nfluid..n-1 the static boundary particles of the box.
 */
#ifndef SWIRL_PBF_H
#define SWIRL_PBF_H

#include "nsearch.h"
#include <stdatomic.h>
#include <stdbool.h>

/* Threads: the work is split into PBF_PARTS ranges of particles, cut by the
 * state alone (each step, by the work of the last step's lists), each writing
 * only its own particles' slots, and the few sums are added in range order, so
 * a step gives the same bits whatever the number of threads.
 * Order: every PBF_SORT_EVERY steps the water particles are re-sorted by grid
 * cell (neighbours close in memory); see id[] and slot[] in struct pbf. */
#define PBF_LANES 16      /* particles per group in the neighbour lists */
#define PBF_PARTS 16      /* ranges of groups the passes are split into */
#define PBF_SORT_EVERY 32 /* steps between re-sorts of the water by cell */

struct pool;

struct pbf_params {
    float radius;        /* particle radius r, 0.025 m */
    float density0;      /* rest density, 1000 kg/m^3 */
    float dt;            /* time step, 0.005 s */
    float max_error_pct; /* stop when the mean density error is below this, 0.1 % */
    int max_iter;        /* iteration cap, 100 */
    float viscosity;     /* XSPH coefficient, 0.05 */
    float rest_damping;  /* 1/s: how fast slow water comes to rest; 0 = off (seed) */
    float rest_speed;    /* m/s: below about this speed rest_damping acts in full */
    float gravity;       /* m/s^2 along y, -9.81 */
    bool scorr;          /* tensile instability term (off in the seed) */
    float vorticity;     /* vorticity confinement epsilon; 0 = off (seed) */
    bool seed_quirk;     /* keep pbf.html's running error sum across iterations;
                          * false: the plain mean, and the loop stops as soon as
                          * the positions meet the tolerance */
    const atomic_int *stop; /* read during every step: once *stop is non-zero the
                          * density loop ends after its current correction
                          * (pbf_step); NULL: never */
};

/* The seed page's values (pbf.html with its GUI inputs). */
void pbf_params_seed(struct pbf_params *p);

/* One range of particle groups and its neighbour lists (private). Group g
 * of the range keeps its lists at nbr[gstart[g] ..], slot-major: entry k of
 * lane l (particle PBF_LANES*g + l) at gstart[g] + k*PBF_LANES + l, first gkw[g]
 * water slots, then gkb[g] boundary slots; lanes with fewer neighbours are
 * padded with the dummy particle n (far away: W = 0). pw/pgx/pgy cache W_ij and
 * grad W_ij per entry for the passes of one iteration. */
struct pbf_part {
    int g0, g1;          /* groups [g0, g1) */
    struct nsearch_lanes lists; /* lists.nbr: the groups' lists */
    float *pw, *pgx, *pgy;
    int cache_cap;       /* entries the caches have room for */
    bool fail;           /* out of memory in the last list pass */
    double err;          /* the range's sum of max(rho_i - rho0, 0) */
};

/* Callers read the fields down to grab_y (and may change prm between steps);
 * the ones below "private" are the solver's own. */
struct pbf {
    struct pbf_params prm;
    int nfluid, n;       /* fluid particles first, then boundary */
    int box_w, box_h;    /* box size in diameters */
    float xmin, ymin, xmax, ymax; /* the wall particles' extent (metres) */
    float *x, *y, *vx, *vy;
    float *ax, *ay;      /* the acceleration the next step starts with (gravity
                          * plus XSPH viscosity and vorticity confinement) */
    float *psi;          /* mass of each particle: m for water, the pseudo-mass for
                          * boundary particles (computed once by pbf_init) */
    float *density;      /* rho_i of the last lambda pass */
    float mass;          /* (2r)^2 * rho0 */
    float h;             /* support radius 4r */
    float scorr_unit;    /* s_corr's unit (m^2): 1 / sum_j |grad_j C_i|^2 of a
                          * particle in the rest lattice (see pbf.c) */
    double time;         /* seconds simulated: a double, to which a float dt adds
                          * exactly for some 2^29 steps (26 days at 240 steps a
                          * second), and nearly so for years after; a float
                          * clock stops at 131,072 s (36 hours) */
    int iter;            /* corrections applied in the last step */
    float avg_err;       /* the mean density error the solve stopped at (kg/m^3;
                          * with seed_quirk, pbf.html's running value) */
    int *id;             /* id[slot]: the particle's index at pbf_init */
    int *slot;           /* slot[id]: where that particle is now */
    int grabbed;         /* -1 or the slot of the (first) held particle */
    int ngrab;           /* particles held */
    float grab_x, grab_y; /* where they are held (pbf_grab, pbf_move_grab) */

    /* private: the step's working storage */
    struct pool *pool;
    int lanes_most;      /* the widest vectors the step may use, in lanes (0: any the
                          * CPU runs; the tests try each) */
    int *grab_i;         /* the held slots */
    float *grab_ox, *grab_oy; /* each one's offset from the grab point */
    unsigned char *held; /* per slot: 1 when held */
    int since_sort;      /* steps since the last re-sort */
    float *xold, *yold;  /* positions at the start of the step */
    float *lambda;
    float *omega;        /* vorticity (for vorticity confinement) */
    float *vol;          /* V_j = m / rho_j for the viscosity passes */
    float *xy;           /* x and y of each slot side by side (the lambda pass's
                          * gathers: one load a neighbour), set by the density
                          * loop and its corrections */
    long xy_cap;         /* floats xy has room for */
    int ngroup;          /* ceil(nfluid / PBF_LANES) */
    int *gstart, *gkw, *gkb;
    struct pbf_part part[PBF_PARTS];
    struct nsearch ns;
};

/* Geometry follows the seed: a box of box_w x box_h particle diameters whose
 * bottom-left wall particle sits at (-box_w*d/2, 0), walls one diameter apart;
 * the fluid block of block_w x block_h particles starts one diameter in from the
 * bottom-left corner, at (-box_w*d/2 + d + r, d + r). The boundary particles
 * (Akinci et al. 2012) each get the pseudo-mass psi = rho0 / sum_k W_ik over
 * their boundary neighbours (itself included).
 * Returns 0 or -1 (out of memory, a size below 1, a radius or density0 that is not
 * positive, or a block that does not fit: box_w >= block_w + 2 and
 * box_h >= block_h + 1 are needed). radius and density0 are read here only; the
 * other parameters in s->prm may be changed between steps. Arrays indexed by
 * slot have n + 1 entries: slot n is the dummy neighbour (see pbf_part). */
int pbf_init(struct pbf *s, const struct pbf_params *p, int block_w, int block_h,
             int box_w, int box_h);
void pbf_free(struct pbf *s);
/* Adds k water particles at (x[q], y[q]) (clamped into the box), moving at
 * (vx, vy): new slots and ids from nfluid on; the boundary particles move up.
 * Allocates. 0, or -1 (out of memory, too many particles: nothing changes). */
int pbf_add_water(struct pbf *s, const float *x, const float *y, int k, float vx, float vy);
/* The threads the steps use (NULL: the calling thread); the pool must outlive
 * its use. The result does not depend on it (see PBF_PARTS). */
void pbf_set_pool(struct pbf *s, struct pool *p);
/* One step: symplectic Euler prediction with gravity plus the XSPH acceleration
 * of the previous step; neighbour search (nsearch, support radius h = 4r, built
 * once); loop {lambda_i = -C_i / (sum |grad C|^2 + eps) with
 * C_i = max(rho_i/rho0 - 1, 0), eps = 1e-6; symmetric corrections} until the
 * mean density error drops to max_error_pct or max_iter is reached;
 * v = (x - x_old)/dt; XSPH viscosity as an acceleration for the next step.
 * Within an iteration the corrections are Jacobi, as in pbf.html: every
 * particle's correction comes from the positions the iteration started with.
 * Options beyond the seed, off by default: the tensile-instability term s_corr
 * (k = 0.1, n = 4, dq = 0.2h, in units of lambda: see scorr_unit), vorticity
 * confinement, and rest damping: at the prediction each particle's velocity is
 * damped at the rate rest_damping * u^2 / (u^2 + |v|^2), u = rest_speed
 * (implicitly: v / (1 + dt rate)), so slow motion (the sloshing a dam break
 * leaves, a pool's last ripples) dies out within seconds while splashes and
 * throws, many times faster than u, keep their speed; nothing is ever held
 * still, so the water wakes at any disturbance. Safety nets that never act at
 * the seed's parameters: water is clamped into the box shrunk by r after the
 * solve (and into the box grown by h while solving), and a particle whose
 * position or velocity turns non-finite returns to its old position at rest.
 * Cut short: once *prm.stop is raised, the density loop stops after at least
 * one correction (iter says how many were made) and the step ends as usual
 * (velocities, viscosity) from the positions it reached. A stop never raised
 * changes nothing. */
void pbf_step(struct pbf *s);

/* Pointer: these take and give slots, valid until the next step. Held
 * particles are kinematic: pbf_grab holds one at a point (the seed's drag),
 * pbf_grab_near a handful, each at its offset from the point, so they move as a
 * group; both are let go with a velocity.
 * nearest: the fluid particle within maxdist (or -1); grab keeps it at (x,y)
 * until released with velocity (vx,vy); move_grab moves that point (it sets
 * grab_x/grab_y; the step holds the particle there, clamped into the box).
 * grab_near holds the water within radius of (x,y), the nearest max of it at
 * most, each at its offset from the point; it returns how many (0: none, and
 * what was held is let go). A new grab lets go of the old one at rest. */
int pbf_nearest(const struct pbf *s, float x, float y, float maxdist);
void pbf_grab(struct pbf *s, int i, float x, float y);
int pbf_grab_near(struct pbf *s, float x, float y, float radius, int max);
void pbf_move_grab(struct pbf *s, float x, float y);
void pbf_release(struct pbf *s, float vx, float vy);
/* Lets go of the held water as a throw, not as a rigid ball: each held particle
 * leaves with (vx, vy) scaled along the throw by 1 + stretch * a, where a runs
 * from -1 at the back of the handful to +1 at its front, less squeeze * |v| * b
 * across it, b from -1 to +1 across (toward the middle), plus jitter * |v| in a
 * direction fixed per particle by its id. So the front leaves fastest and the
 * sides close in: the handful draws out into a stream, as stretched water
 * does (it keeps its area when squeeze * width = stretch * length), and the
 * jitter breaks the stream up unevenly. The handful's places are its offsets
 * from their mean; the mean velocity is (vx, vy) but for the jitter's. At rest
 * (vx = vy = 0) it is pbf_release. */
void pbf_throw(struct pbf *s, float vx, float vy, float stretch, float squeeze, float jitter);
/* Adds velocity (vx,vy) to fluid particles within radius of (x,y), falling off
 * smoothly (the "push" gesture). */
void pbf_push(struct pbf *s, float x, float y, float radius, float vx, float vy);

/* Statistics at the current state. */
float pbf_density_err_pct(struct pbf *s); /* mean of max(rho-rho0,0)/rho0*100 */
void pbf_centroid(const struct pbf *s, float *cx, float *cy);
float pbf_kinetic_energy(const struct pbf *s);

#endif
