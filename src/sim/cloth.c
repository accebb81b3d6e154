/*
 * cloth.c — Position Based Dynamics cloth (pbd.html), with XPBD, substeps,
 * tearing, upright and buckle as options: parameters, setup, the step, the
 * pointer, the scissors and statistics. The projections are in cloth_link.c
 * and cloth_grid.c, the mesh for drawing in cloth_mesh.c.
 */
#include "cloth_internal.h"
#include "sim_internal.h"
#include "swirl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The seed page's values (pbd.html with its GUI inputs). */
#define SEED_W 40
#define SEED_H 30
#define SEED_FIXED 2
#define SEED_SPACING 0.2f
#define SEED_DT 0.005f
#define SEED_ITERATIONS 2
#define SEED_GRAVITY (-9.81f)
#define SEED_MASS 0.5f
#define DEFAULT_TEAR_STRAIN 1.0f

/* Largest grid side accepted by cloth_init (keeps every count in an int). */
#define DIM_MAX 4096
/* Clamps that keep extreme settings finite. */
#define MASS_MIN 1e-6f
#define MASS_MAX 1e6f
#define ITER_MAX 1000
#define SUBSTEP_MAX 1000
#define COORD_MAX 1e6f
/* upright: the least area a cell keeps, a share of its rest area (a cell
 * squeezed flatter, or turned over, is pushed back to it). */
#define UPRIGHT_AREA 0.3f

/* ---- parameters and setup ---------------------------------------------------- */

void cloth_params_seed(struct cloth_params *p)
{
    *p = (struct cloth_params){
        .w = SEED_W, .h = SEED_H, .fixed = SEED_FIXED, .spacing = SEED_SPACING,
        .dt = SEED_DT, .iterations = SEED_ITERATIONS, .gravity = SEED_GRAVITY,
        .mass = SEED_MASS, .compliance = 0.0f, .substeps = 1, .tearing = false,
        .tear_strain = DEFAULT_TEAR_STRAIN, .buckle = false,
    };
}

/* Inverse mass of a free particle for a given prm.mass. */
static float inverse_mass(float mass)
{
    return 1.0f / clampf(mass, MASS_MIN, MASS_MAX);
}

/* w from prm.mass, the pins and the grab; remembers which mass it used. */
static void derive_inverse_masses(struct cloth *c)
{
    float wf = inverse_mass(c->prm.mass);
    for (int i = 0; i < c->n; i++)
        c->w[i] = (c->fixed[i] || i == c->grabbed) ? 0.0f : wf;
    c->wmass = c->prm.mass;
    c->wdirty = true;
}


static void mark_fixed(struct cloth *c)
{
    int w = c->prm.w, h = c->prm.h;
    /* The seed offers 1, 2 or 4: 3 counts as 2, below 1 as 1, above 4 as 4. */
    int nfix = c->prm.fixed <= 1 ? 1 : c->prm.fixed < 4 ? 2 : 4;
    c->fixed[0] = 1;
    if (nfix >= 2)
        c->fixed[w - 1] = 1;
    if (nfix >= 4) {
        c->fixed[(h - 1) * w] = 1;
        c->fixed[h * w - 1] = 1;
    }
}

/*
 * Particles are structure-of-arrays floats indexed i*w + j (row i from the top,
 * column j from the left): position x,y, the position before the step xold,yold,
 * velocity vx,vy and inverse mass w (0 for pinned and grabbed particles, which the
 * step neither integrates nor corrects). Coordinates are the seed's metres with y
 * up: particle (i,j) starts at (spacing*j, -spacing*i), so the cloth hangs below
 * the x axis from its top corners.
 *
 * Where particle i sits in the flat, unstretched grid.
 */
static void grid_position(const struct cloth *c, int i, float *x, float *y)
{
    int cols = clampi(c->prm.w, 1, c->n); /* prm.w is only meant to change by re-init */
    *x = c->prm.spacing * (float)(i % cols);
    *y = -c->prm.spacing * (float)(i / cols);
}

static void add_constraint(struct cloth *c, int a, int b, float rest)
{
    int k = c->nc++;
    c->c1[k] = a;
    c->c2[k] = b;
    c->rest[k] = rest;
    c->lambda[k] = 0.0f;
}

/*
 * Constraints are distance constraints kept twice. c1/c2/rest/lambda hold them in
 * the seed's order (rows, columns, then both diagonals of each cell): the order
 * the Gauss-Seidel sweep is defined by, and the one tearing preserves. link[]
 * (cloth_link.c) or the grid (cloth_grid.c, by colour) holds the same
 * constraints as the solver visits them: in the seed's order each row of
 * constraints is one chain, each correction waiting on the one before; by
 * level or by colour there is independent work everywhere.
 *
 * The seed's constraints, in the seed's order.
 */
static void build_constraints(struct cloth *c)
{
    int w = c->prm.w, h = c->prm.h;
    float s = c->prm.spacing;
    float diag = s * sqrtf(2.0f);
    c->nc = 0;
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w - 1; j++)
            add_constraint(c, i * w + j, i * w + j + 1, s);
    for (int i = 0; i < h - 1; i++)
        for (int j = 0; j < w; j++)
            add_constraint(c, i * w + j, i * w + j + w, s);
    for (int i = 0; i < h - 1; i++)
        for (int j = 0; j < w - 1; j++) {
            add_constraint(c, i * w + j, i * w + j + w + 1, diag);
            add_constraint(c, i * w + j + 1, i * w + j + w, diag);
        }
}


int cloth_init(struct cloth *c, const struct cloth_params *p)
{
    memset(c, 0, sizeof *c);
    c->grabbed = -1;
    c->par_records = PARALLEL_RECORDS;
    if (p->w < 1 || p->h < 1 || p->w > DIM_MAX || p->h > DIM_MAX ||
        !(p->spacing > 0.0f) || !isfinite(p->spacing))
        return -1;
    c->prm = *p;
    int w = p->w, h = p->h;
    c->n = w * h;
    c->nc_cap = (w - 1) * h + w * (h - 1) + 2 * (w - 1) * (h - 1);

    size_t n = (size_t)c->n, nc = (size_t)c->nc_cap + 1; /* never empty */
    c->x = malloc(n * sizeof *c->x);
    c->y = malloc(n * sizeof *c->y);
    c->xold = malloc(n * sizeof *c->xold);
    c->yold = malloc(n * sizeof *c->yold);
    c->vx = calloc(n, sizeof *c->vx);
    c->vy = calloc(n, sizeof *c->vy);
    c->w = malloc(n * sizeof *c->w);
    c->fixed = calloc(n, 1);
    c->xy = malloc(2 * n * sizeof *c->xy);
    c->c1 = malloc(nc * sizeof *c->c1);
    c->c2 = malloc(nc * sizeof *c->c2);
    c->rest = malloc(nc * sizeof *c->rest);
    c->lambda = malloc(nc * sizeof *c->lambda);
    c->scratch = malloc(nc * sizeof *c->scratch);
    c->cell_whole = malloc(n);
    c->cell_nc = -1;
    if (!c->cell_whole || !c->x || !c->y || !c->xold || !c->yold || !c->vx || !c->vy || !c->w ||
        !c->fixed || !c->xy || !c->c1 || !c->c2 || !c->rest || !c->lambda ||
        !c->scratch)
        goto fail;

    for (int i = 0; i < c->n; i++) {
        grid_position(c, i, &c->x[i], &c->y[i]);
        c->xold[i] = c->x[i];
        c->yold[i] = c->y[i];
    }
    mark_fixed(c);
    derive_inverse_masses(c);
    build_constraints(c);
    if ((p->by_colour ? cloth_grid_build(c) : cloth_link_build(c)) == 0)
        return 0;
fail:
    cloth_free(c);
    return -1;
}

void cloth_free(struct cloth *c)
{
    void *arrays[] = {c->x, c->y, c->xold, c->yold, c->vx, c->vy, c->w,
                      c->fixed, c->xy, c->c1, c->c2, c->rest, c->lambda, c->link,
                      c->link_con, c->level, c->scratch, c->cell_whole};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        free(arrays[i]);
    cloth_grid_free(c);
    memset(c, 0, sizeof *c);
    c->grabbed = -1;
}


void cloth_set_pool(struct cloth *c, struct pool *pool) { c->pool = pool; }

/* ---- the step --------------------------------------------------------------- */

/* alpha_tilde = compliance / dt^2, kept finite; 0 for PBD (or a bad value). */
static float alpha_tilde(float compliance, float dt)
{
    if (!(compliance > 0.0f))
        return 0.0f;
    float at = compliance / (dt * dt);
    return at < ALPHA_TILDE_MAX ? at : ALPHA_TILDE_MAX;
}

/* Symplectic Euler prediction of the free particles under gravity, then (for
 * link[]'s sweeps) every position into the solver's interleaved copy xy
 * (x0 y0 x1 y1 ...: a particle is one 8-byte load). */
static void predict(struct cloth *c, float h, float g)
{
    bool interleave = !c->grid;
    int n = c->n;
    float *restrict x = c->x, *restrict y = c->y;
    float *restrict xo = c->xold, *restrict yo = c->yold;
    float *restrict vx = c->vx, *restrict vy = c->vy;
    const float *restrict w = c->w;
    float *restrict xy = c->xy;
    for (int i = 0; i < n; i++) {
        if (w[i] > 0.0f) {
            xo[i] = x[i];
            yo[i] = y[i];
            vy[i] += h * g;
            x[i] += h * vx[i];
            y[i] += h * vy[i];
        }
        if (interleave) {
            xy[2 * i] = x[i];
            xy[2 * i + 1] = y[i];
        }
    }
}

/* Positions back from the interleaved copy (link[]'s sweeps), and
 * v = (x - xold)/h for the free particles. One that went non-finite goes back
 * to where the step started it (or, should that be non-finite too, to its
 * place in the flat grid), at rest. */
static void update_velocities(struct cloth *c, float h)
{
    int n = c->n;
    float inv_h = 1.0f / h;
    float *restrict x = c->x, *restrict y = c->y;
    float *restrict xo = c->xold, *restrict yo = c->yold;
    float *restrict vx = c->vx, *restrict vy = c->vy;
    const float *restrict w = c->w;
    const float *restrict xy = c->xy;
    bool interleaved = !c->grid;
    for (int i = 0; i < n; i++) {
        if (interleaved) {
            x[i] = xy[2 * i];
            y[i] = xy[2 * i + 1];
        }
        if (w[i] > 0.0f) {
            float ux = (x[i] - xo[i]) * inv_h;
            float uy = (y[i] - yo[i]) * inv_h;
            if (isfinite(ux) && isfinite(uy)) {
                vx[i] = ux;
                vy[i] = uy;
                continue;
            }
            if (!isfinite(xo[i]) || !isfinite(yo[i]))
                grid_position(c, i, &xo[i], &yo[i]);
            x[i] = xo[i];
            y[i] = yo[i];
            vx[i] = 0.0f;
            vy[i] = 0.0f;
        }
    }
}

/* |len - rest| / rest; with buckle only a stretch counts (a constraint pushed
 * shorter has buckled, which neither strains nor tears the cloth). */
static float strain_of(const struct cloth *c, int k)
{
    int a = c->c1[k], b = c->c2[k];
    float dx = c->x[a] - c->x[b], dy = c->y[a] - c->y[b];
    float e = (sqrtf(dx * dx + dy * dy) - c->rest[k]) / c->rest[k];
    return c->prm.buckle ? fmaxf(e, 0.0f) : fabsf(e);
}

/* Drops the constraints that mark[k] (scratch) flags with -1, keeping the order
 * of the others, in c1/c2 and in link[]; returns how many went. mark[] ends as
 * each constraint's new index (or -1). */
static int drop_marked(struct cloth *c)
{
    int *newk = c->scratch;
    int kept = 0;
    for (int k = 0; k < c->nc; k++) {
        if (newk[k] < 0)
            continue;
        newk[k] = kept;
        c->c1[kept] = c->c1[k];
        c->c2[kept] = c->c2[k];
        c->rest[kept] = c->rest[k];
        c->lambda[kept] = c->lambda[k];
        kept++;
    }
    int gone = c->nc - kept;
    if (gone == 0)
        return 0;
    if (c->grid)
        cloth_grid_drop_torn(c, newk);
    else
        cloth_link_drop_torn(c, newk);
    c->nc = kept;
    return gone;
}

/* Removes every constraint strained beyond tear_strain. */
static void tear(struct cloth *c)
{
    float limit = c->prm.tear_strain;
    for (int k = 0; k < c->nc; k++)
        c->scratch[k] = strain_of(c, k) > limit ? -1 : 0;
    c->torn += drop_marked(c);
}

/* cell_whole from the constraints alive: a cell counts when its top, bottom,
 * both sides and both diagonals are all there (a cut or a tear through it
 * leaves it out, so upright never holds a cut shut). Made in place over
 * cloth_edges' bits, in index order: the cell at a reads the bits at a, a + 1
 * and a + w, none of which an earlier cell has overwritten. */
static void find_whole_cells(struct cloth *c)
{
    unsigned char *e = c->cell_whole;
    const unsigned all = CLOTH_RIGHT | CLOTH_DOWN | CLOTH_DIAG | CLOTH_ANTI;
    int w = c->prm.w;
    cloth_edges(c, e);
    for (int a = 0; a < c->n; a++)
        e[a] = a % w < w - 1 && a + w + 1 < c->n && (e[a] & all) == all &&
               (e[a + 1] & CLOTH_DOWN) && (e[a + w] & CLOTH_RIGHT);
    c->cell_nc = c->nc;
}

/*
 * upright: each whole cell (a, b = a+1, d = a+w, e = a+w+1) keeps its area
 * A = (d - b) x (e - a) / 2 (s^2 at rest, negative turned over) at least
 * UPRIGHT_AREA s^2. A cell below that is projected once, as PBD projects a
 * constraint: every corner moves along its gradient of A by its inverse mass,
 * together just enough to reach the bound. Row after row, in index order, on
 * positions (px[k*stride], py[k*stride]).
 */
static void hold_upright(struct cloth *c, float *px, float *py, int stride)
{
    if (c->cell_nc != c->nc)
        find_whole_cells(c);
    const float s = c->prm.spacing, least = UPRIGHT_AREA * s * s, tiny = 1e-12f * s * s;
    const float *w = c->w;
    for (int a = 0; a < c->n; a++) {
        if (!c->cell_whole[a])
            continue;
        const int q[4] = {a, a + 1, a + c->prm.w, a + c->prm.w + 1}; /* a b d e */
        const size_t at[4] = {(size_t)q[0] * (size_t)stride, (size_t)q[1] * (size_t)stride,
                              (size_t)q[2] * (size_t)stride, (size_t)q[3] * (size_t)stride};
        const float ux = px[at[2]] - px[at[1]], uy = py[at[2]] - py[at[1]]; /* d - b */
        const float vx = px[at[3]] - px[at[0]], vy = py[at[3]] - py[at[0]]; /* e - a */
        const float C = 0.5f * (ux * vy - uy * vx) - least;
        if (!(C < 0.0f))
            continue;
        /* dA/d(d) = -dA/d(b) = (vy, -vx)/2, dA/d(e) = -dA/d(a) = (-uy, ux)/2 */
        const float g[4][2] = {{0.5f * uy, -0.5f * ux}, {-0.5f * vy, 0.5f * vx},
                               {0.5f * vy, -0.5f * vx}, {-0.5f * uy, 0.5f * ux}};
        float sum = 0.0f;
        for (int k = 0; k < 4; k++)
            sum += w[q[k]] * (g[k][0] * g[k][0] + g[k][1] * g[k][1]);
        if (!(sum > tiny))
            continue; /* collapsed to a point, or held still: no way to open it */
        const float lambda = -C / sum;
        for (int k = 0; k < 4; k++) {
            px[at[k]] += lambda * w[q[k]] * g[k][0];
            py[at[k]] += lambda * w[q[k]] * g[k][1];
        }
    }
}

/* Nothing here allocates (only cloth_init does), and the step reads c->prm
 * every time, so the scene may change dt, iterations, gravity, mass and the
 * options live. */
void cloth_step(struct cloth *c)
{
    const struct cloth_params *p = &c->prm;
    if (!(p->dt > 0.0f) || !isfinite(p->dt))
        return;
    if (p->mass != c->wmass)
        derive_inverse_masses(c);
    if (c->wdirty && c->grid)
        cloth_grid_copy_weights(c);
    else if (c->wdirty)
        cloth_link_copy_weights(c);
    int subs = clampi(p->substeps, 1, SUBSTEP_MAX);
    int iters = clampi(p->iterations, 0, ITER_MAX);
    float h = p->dt / (float)subs;
    float g = isfinite(p->gravity) ? p->gravity : 0.0f;
    float at = alpha_tilde(p->compliance, h);
    float ml2 = min_length2(c);

    /* A stop cuts the sweeps short after the first of a substep, and the
     * substeps after the one it came in. */
    const atomic_int *stop = p->stop;
    int s = 0;
    while (s < subs) {
        predict(c, h, g);
        if (c->grid) {
            cloth_grid_load(c);
            if (at > 0.0f)
                cloth_grid_reset_lambda(c);
            for (int it = 0; it < iters && (it == 0 || !sim_stopped(stop)); it++)
                cloth_grid_sweep(c, at, ml2);
            cloth_grid_store(c);
            if (p->upright)
                hold_upright(c, c->x, c->y, 1);
        } else {
            if (at > 0.0f) {
                cloth_link_reset_lambda(c);
                for (int it = 0; it < iters && (it == 0 || !sim_stopped(stop)); it++)
                    cloth_link_sweep_xpbd(c, at, ml2);
            } else {
                for (int it = 0; it < iters && (it == 0 || !sim_stopped(stop)); it++)
                    cloth_link_sweep_pbd(c, ml2);
            }
            if (p->upright)
                hold_upright(c, c->xy, c->xy + 1, 2);
        }
        update_velocities(c, h);
        s++;
        if (sim_stopped(stop))
            break;
    }
    if (at > 0.0f && c->grid)
        cloth_grid_store_lambda(c);
    else if (at > 0.0f)
        cloth_link_store_lambda(c);
    c->time += s == subs ? (double)p->dt : (double)(h * (float)s);
    if (p->tearing)
        tear(c);
}

/* ---- pointer ---------------------------------------------------------------- */

int cloth_nearest(const struct cloth *c, float x, float y, float maxdist)
{
    return sim_nearest(c->x, c->y, c->n, x, y, maxdist);
}

/* Places the grabbed particle, the pointer clamped to a sane range. */
static void place_grabbed(struct cloth *c, float x, float y)
{
    int i = c->grabbed;
    if (i < 0 || !isfinite(x) || !isfinite(y))
        return;
    c->x[i] = c->xold[i] = clampf(x, -COORD_MAX, COORD_MAX);
    c->y[i] = c->yold[i] = clampf(y, -COORD_MAX, COORD_MAX);
}

void cloth_grab(struct cloth *c, int i, float x, float y)
{
    if (i < 0 || i >= c->n)
        return;
    if (c->grabbed >= 0 && c->grabbed != i)
        cloth_release(c, false, 0.0f, 0.0f);
    c->grabbed = i;
    c->w[i] = 0.0f;
    c->wdirty = true;
    place_grabbed(c, x, y);
}

void cloth_move_grab(struct cloth *c, float x, float y)
{
    place_grabbed(c, x, y);
}

void cloth_release(struct cloth *c, bool with_velocity, float vx, float vy)
{
    int i = c->grabbed;
    if (i < 0)
        return;
    c->grabbed = -1;
    c->w[i] = c->fixed[i] ? 0.0f : inverse_mass(c->wmass);
    c->wdirty = true;
    if (with_velocity && !c->fixed[i]) {
        c->vx[i] = isfinite(vx) ? vx : 0.0f;
        c->vy[i] = isfinite(vy) ? vy : 0.0f;
    }
}

/* ---- scissors ---------------------------------------------------------------- */

/* Twice the signed area of (a, b, p): > 0 when p is left of a->b. */
static double orient(double ax, double ay, double bx, double by, double px, double py)
{
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

/* p, known to be on the line through a and b, lies within their box. */
static bool within(double ax, double ay, double bx, double by, double px, double py)
{
    return px >= fmin(ax, bx) && px <= fmax(ax, bx) && py >= fmin(ay, by) &&
           py <= fmax(ay, by);
}

/* Whether the closed segments a-b and p-q share a point (touching counts). In
 * double, so for floats of like magnitude only the last subtraction rounds. */
static bool segments_meet(const float *a, const float *b, const float *p, const float *q)
{
    double d1 = orient(p[0], p[1], q[0], q[1], a[0], a[1]);
    double d2 = orient(p[0], p[1], q[0], q[1], b[0], b[1]);
    double d3 = orient(a[0], a[1], b[0], b[1], p[0], p[1]);
    double d4 = orient(a[0], a[1], b[0], b[1], q[0], q[1]);
    if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)))
        return true;
    return (d1 == 0 && within(p[0], p[1], q[0], q[1], a[0], a[1])) ||
           (d2 == 0 && within(p[0], p[1], q[0], q[1], b[0], b[1])) ||
           (d3 == 0 && within(a[0], a[1], b[0], b[1], p[0], p[1])) ||
           (d4 == 0 && within(a[0], a[1], b[0], b[1], q[0], q[1]));
}

/* The box around points xy[0..n-1] (x,y pairs). */
static void box_of(const float *xy, int n, float *box)
{
    box[0] = box[2] = xy[0], box[1] = box[3] = xy[1];
    for (int i = 1; i < n; i++) {
        box[0] = fminf(box[0], xy[2 * i]), box[2] = fmaxf(box[2], xy[2 * i]);
        box[1] = fminf(box[1], xy[2 * i + 1]), box[3] = fmaxf(box[3], xy[2 * i + 1]);
    }
}

/* Whether constraint (a,b) meets one of the stroke's segments. */
static bool stroke_meets(const float *a, const float *b, const float *xy, int n)
{
    for (int s = 0; s + 1 < n; s++) {
        const float *p = &xy[2 * s], *q = &xy[2 * s + 2];
        if (fmaxf(a[0], b[0]) >= fminf(p[0], q[0]) && fminf(a[0], b[0]) <= fmaxf(p[0], q[0]) &&
            fmaxf(a[1], b[1]) >= fminf(p[1], q[1]) && fminf(a[1], b[1]) <= fmaxf(p[1], q[1]) &&
            segments_meet(a, b, p, q))
            return true;
    }
    return false;
}

int cloth_cut_path(struct cloth *c, const float *xy, int n)
{
    if (n < 1 || !xy)
        return 0;
    for (int i = 0; i < 2 * n; i++)
        if (!isfinite(xy[i]))
            return 0;
    if (n == 1)
        return cloth_cut_path(c, (const float[4]){xy[0], xy[1], xy[0], xy[1]}, 2);
    float box[4];
    box_of(xy, n, box);
    int hits = 0;
    for (int k = 0; k < c->nc; k++) {
        int i = c->c1[k], j = c->c2[k];
        const float a[2] = {c->x[i], c->y[i]}, b[2] = {c->x[j], c->y[j]};
        bool near = fmaxf(a[0], b[0]) >= box[0] && fminf(a[0], b[0]) <= box[2] &&
                    fmaxf(a[1], b[1]) >= box[1] && fminf(a[1], b[1]) <= box[3];
        bool cut = near && stroke_meets(a, b, xy, n);
        c->scratch[k] = cut ? -1 : 0;
        hits += cut;
    }
    if (hits == 0)
        return 0;
    int gone = drop_marked(c);
    c->cut += gone;
    return gone;
}

/* ---- statistics ------------------------------------------------------------- */

void cloth_strain(const struct cloth *c, float *mean, float *max)
{
    double sum = 0.0;
    float top = 0.0f;
    for (int k = 0; k < c->nc; k++) {
        float e = strain_of(c, k);
        sum += e;
        if (e > top)
            top = e;
    }
    *mean = c->nc > 0 ? (float)(sum / c->nc) : 0.0f;
    *max = top;
}

void cloth_centroid(const struct cloth *c, float *cx, float *cy, float *miny)
{
    double sx = 0.0, sy = 0.0;
    float lo = INFINITY;
    for (int i = 0; i < c->n; i++) {
        sx += c->x[i];
        sy += c->y[i];
        if (c->y[i] < lo)
            lo = c->y[i];
    }
    *cx = (float)(sx / c->n);
    *cy = (float)(sy / c->n);
    *miny = lo;
}

float cloth_kinetic_energy(const struct cloth *c)
{
    /* Free particles only, each of mass 1/w: a grabbed one has no velocity of
     * its own. */
    double e = 0.0;
    for (int i = 0; i < c->n; i++)
        if (c->w[i] > 0.0f)
            e += ((double)c->vx[i] * c->vx[i] + (double)c->vy[i] * c->vy[i]) / c->w[i];
    return (float)(0.5 * e);
}
