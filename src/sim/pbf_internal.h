/*
 * pbf_internal.h — private to src/sim/pbf*.c (and the tests): what the setup
 * (pbf.c) and the step (pbf_solve.c, which calls pbf_density.c) share: the
 * kernel, the s_corr unit, where a held particle is held, and the passes of a
 * step; the re-sort by cell and the runs of the passes are in pbf_core.c,
 * which the step's files call and which calls none of them.
 */
#ifndef SWIRL_PBF_INTERNAL_H
#define SWIRL_PBF_INTERNAL_H

#include "pbf.h"
#include "simd.h"
#include "swirl.h"

#include <math.h>
#include <stdbool.h>

/* The kernel: the seed's 2D cubic spline with support h = 4r,
 * W(q) = k (6q^3 - 6q^2 + 1) for q = |r|/h <= 1/2, 2k (1-q)^3 for q <= 1,
 * k = 40 / (7 pi h^2); its gradient uses l = 240 / (7 pi h^2) (see kernel_pair
 * for the form evaluated and for r -> 0). */
#define PI_D 3.14159265358979323846
#define KERNEL_K_NUM 40.0         /* k = 40 / (7 pi h^2) */
#define KERNEL_L_NUM 240.0        /* l = 240 / (7 pi h^2) */
#define KERNEL_DENOM 7.0
#define PCT 0.01f                 /* percent to fraction */

/*
 * s_corr = -k (W(r)/W(dq))^n, n = 4 (Macklin & Mueller eq. 13), added to
 * lambda_i + lambda_j. The paper's k is tied to its units: taken literally here
 * (lambda is ~1e-6..1e-5 m^2) k = 0.1 outweighs the pressure by orders of
 * magnitude and the water collapses into clumps. So s_corr is measured in the
 * unit of lambda, scorr_unit = 1 / sum_j |grad_j C|^2 of a particle in the rest
 * lattice, which makes k a fraction of the constraint: at the rest spacing
 * s_corr pushes like a 0.09 % compression.
 */
#define SCORR_K 0.1f
#define SCORR_DQ 0.2f             /* dq as a fraction of h */

/* Kernel constants for one support radius. */
struct kernel {
    float h, inv_h;
    float k;      /* W's scale, and W(0) */
    float k2;     /* 2k */
    float gfac;   /* -l / h: grad W = gfac (t^2 - 4u^2) / |r| * r */
};

static inline struct kernel kernel_make(float h)
{
    struct kernel kn;
    double area = PI_D * (double)h * (double)h;
    kn.h = h;
    kn.inv_h = 1.0f / h;
    kn.k = (float)(KERNEL_K_NUM / (KERNEL_DENOM * area));
    kn.k2 = 2.0f * kn.k;
    kn.gfac = (float)(-KERNEL_L_NUM / (KERNEL_DENOM * area * (double)h));
    return kn;
}

/*
 * The seed's two pieces in one branch-free form. With t = max(1-q, 0) and
 * u = max(1/2-q, 0): W = 2k (t^3 - 4u^3), which is k (6q^3 - 6q^2 + 1) for
 * q <= 1/2 and 2k (1-q)^3 up to q = 1 (and 0 beyond); dW/dq = -6k (t^2 - 4u^2)
 * with l = 6k, so grad W = gfac (t^2 - 4u^2) / |r| * r. max(v, 0) is (v + |v|)/2,
 * exact. Near r = 0 the numerator t^2 - 4u^2 = q (2 - 3q) vanishes with r, so
 * the gradient goes to 0 smoothly; the seed instead zeroes it below |r| = 1e-6
 * (a difference below 1e-4 of a typical gradient), and KERNEL_TINY only keeps
 * 0/0 out at r = 0 exactly.
 *
 * No branch and no select: which piece a pair falls in is random (branches
 * mispredict), and straight-line code lets the compiler vectorize kernel_many
 * (4 pairs per instruction with -fno-math-errno). r2 must be finite; the step
 * keeps every position inside the box grown by h.
 */
#define KERNEL_TINY 1.0e-30f

/* SIMD_INLINE: inlined into the loops of every width (pbf_density.c). */
SIMD_INLINE float pos_part(float v) { return 0.5f * (v + fabsf(v)); }

SIMD_INLINE void kernel_pair(struct kernel kn, float r2, float *w, float *g)
{
    const float rl = sqrtf(r2);
    const float q = rl * kn.inv_h;
    const float t = pos_part(1.0f - q), u = pos_part(0.5f - q);
    const float t2 = t * t, u2 = u * u;
    *w = kn.k2 * (t2 * t - 4.0f * u2 * u);
    *g = kn.gfac * (t2 - 4.0f * u2) / (rl + KERNEL_TINY);
}

/* Where held particle g (of grab_i) is held: the grab point plus its offset,
 * inside the box shrunk by r (pbf_move_grab sets grab_x/grab_y unchecked). */
static inline void held_point(const struct pbf *s, int g, float *x, float *y)
{
    const float r = s->prm.radius;
    *x = clampf(s->grab_x + s->grab_ox[g], s->xmin + r, s->xmax - r);
    *y = clampf(s->grab_y + s->grab_oy[g], s->ymin + r, s->ymax - r);
}

/* The dummy neighbour that pads the lane groups' lists (see pbf_part) sits this
 * many support radii beyond the box's top-right corner: every distance to it
 * is over h, so its W and grad W are exactly 0. */
#define DUMMY_REACH 10.0f

/* Re-sorts the water by grid cell (pbf_core.c): slots, id/slot and the held
 * slots follow. */
void pbf_sort_by_cell(struct pbf *s);

/* One pass of the step over the ranges (pbf_solve.c): the state, the kernel,
 * the widest loops the pass may use (simd_lanes), and whether the neighbour
 * grid's frame is laid (the prediction then places the particles). */
struct pbf_job {
    struct pbf *s;
    struct kernel kn;
    int lanes;
    bool grid;
};

typedef void (*pbf_part_fn)(struct pbf_job *j, struct pbf_part *pt);

/* fn on every range, on the pool: each range writes only its own slots and
 * lists (pbf_core.c). */
void pbf_run_parts(struct pbf_job *j, pbf_part_fn fn);

/* The lanes of group g that hold water. */
static inline int pbf_group_lanes(const struct pbf *s, int g)
{
    const int left = s->nfluid - g * PBF_LANES;
    return left < PBF_LANES ? left : PBF_LANES;
}

/* The density constraint's iterations, on the neighbour lists just built; sets
 * s->iter and s->avg_err (pbf_density.c). */
void pbf_solve_density(struct pbf_job *j);

/* The kernel and its gradient at one distance, for support radius s->h, as
 * the step evaluates them (pbf.c; for the tests of the kernel). */
float pbf_kernel(const struct pbf *s, float r);
void pbf_kernel_grad(const struct pbf *s, float rx, float ry, float *gx, float *gy);

#endif
