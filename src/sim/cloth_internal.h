/*
 * cloth_internal.h — private to src/sim/cloth*.c (and the tests): the packed
 * constraint records, what the step (cloth.c) asks of the projections
 * (cloth_link.c, in the seed's order, and cloth_grid.c, by colour), and the
 * one-constraint projection and the bands of the sweep by colour, which the
 * tests hold the sweeps to.
 */
#ifndef SWIRL_CLOTH_INTERNAL_H
#define SWIRL_CLOTH_INTERNAL_H

#include "cloth.h"

#include <stdint.h>

/* A record holds four constraints that share no particle, one per lane: where
 * particles a and b sit in xy (2 * index), rest length, the XPBD multiplier of
 * the current substep and the particles' inverse masses. An empty lane has
 * a = b = 0 and weights 0, which the projection skips. link_con[4*r + lane] is
 * the constraint (index into c1/c2) in that lane, or -1. */
#define LANES 4
struct cloth_link {
    uint32_t a[LANES], b[LANES];
    float rest[LANES], lambda[LANES];
    float wa[LANES], wb[LANES];
};

/* Parallel sweeps: the parts a level is cut into (fixed, so nothing depends on
 * the number of threads; the result would not either way), and the fewest
 * records a level must have to be worth handing to the pool (cloth.par_records
 * starts so). A pool_run costs some 4 us here while a record takes some 12 ns,
 * so two threads gain on a level only from about 650 records (2600
 * constraints) up: a cloth some 2600 particles wide. */
#define CLOTH_PARTS 4
#define PARALLEL_RECORDS 768

/* The seed skips a constraint shorter than 0.001 m, i.e. spacing/200. */
#define MIN_LENGTH_PER_SPACING 0.005f
/* Keeps alpha_tilde = compliance / dt^2 finite. */
#define ALPHA_TILDE_MAX 1e30f

/* The squared length below which a constraint is skipped. */
static inline float min_length2(const struct cloth *c)
{
    float m = c->prm.spacing * MIN_LENGTH_PER_SPACING;
    return m * m;
}

/* buckle (prm.buckle): a constraint |d| = dl long that is not longer than
 * rest is slack and skipped, for it only pulls (every sweep's one rule). */
static inline bool cloth_slack(bool buckle, float dl, float rest)
{
    return buckle && !(dl > rest);
}

/* cloth_link.c: projects constraint k once on x, y and w as they are (PBD, or
 * XPBD with alpha_tilde = compliance/dt^2, which also updates lambda[k]).
 * cloth_step does exactly this for k = 0..nc-1 in order, only faster; with
 * by_colour, in this order instead (any order within a set):
 *   the horizontal constraints at even columns, then those at odd columns;
 *   the vertical ones in list order (row after row), first those within each
 *   band of rows, then those from one band into the next;
 *   the diagonals (i,j)-(i+1,j+1) on even rows i, then on odd rows;
 *   the others (i,j+1)-(i+1,j) on even rows, then on odd rows.
 * The rows are cut into cloth_colour_bands(h) bands, band b being the rows
 * pool_span(h, b, bands) (pool.h). */
void cloth_project(struct cloth *c, int k, float alpha_tilde);
/* cloth_grid.c: the bands of rows of an h-row cloth by colour: h/16, from 1
 * to 16. */
int cloth_colour_bands(int h);

/* Allocates and fills link[], link_con[] and level[] from c1/c2/rest; 0 or -1
 * (out of memory). */
int cloth_link_build(struct cloth *c);
/* Copies w into the records' lanes and clears wdirty. */
void cloth_link_copy_weights(struct cloth *c);
/* One Gauss-Seidel sweep over the records on xy: PBD, or XPBD with alpha_tilde
 * at (accumulating the records' lambdas); ml2 is min_length2. With c->pool the
 * larger levels are shared out to its threads, with the same result. */
void cloth_link_sweep_pbd(struct cloth *c, float ml2);
void cloth_link_sweep_xpbd(struct cloth *c, float at, float ml2);
/* The records' XPBD multipliers: zeroed before a substep's sweeps, copied back
 * to lambda[] after the step. */
void cloth_link_reset_lambda(struct cloth *c);
void cloth_link_store_lambda(struct cloth *c);
/* After tearing renumbered the constraints (newk[k]: k's new index or -1 when
 * torn), empties the torn lanes and drops the records left empty (level[]
 * follows). */
void cloth_link_drop_torn(struct cloth *c, const int *newk);

/* cloth_grid.c, the sweep by colour (prm.by_colour): builds c->grid from
 * c1/c2/rest as cloth_init left them (0, or -1 when out of memory), frees it,
 * sweeps, and keeps its multipliers and its torn slots as link[] does. */
int cloth_grid_build(struct cloth *c);
void cloth_grid_free(struct cloth *c);
/* The sweeps work on the grid's own padded copy: x and y into it before a
 * substep's sweeps and back after them; w into it (clearing wdirty) as
 * cloth_link_copy_weights does for link[]. */
void cloth_grid_load(struct cloth *c);
void cloth_grid_store(struct cloth *c);
void cloth_grid_copy_weights(struct cloth *c);
void cloth_grid_sweep(struct cloth *c, float at, float ml2);

void cloth_grid_reset_lambda(struct cloth *c);
void cloth_grid_store_lambda(struct cloth *c);
void cloth_grid_drop_torn(struct cloth *c, const int *newk);

#endif
