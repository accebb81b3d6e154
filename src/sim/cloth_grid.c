/*
 * cloth_grid.c — the cloth's Gauss-Seidel sweep by colour (prm.by_colour), the
 * order the scene uses off the seed preset: the constraints in slots of a grid
 * of their own, swept in passes of constraints that share no particle.
 */
#include "cloth_internal.h"
#include "pool.h"
#include "simd.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The grid's constraints come in four families, each slot named by the
 * particle p at its cell's top left, (i,j): RIGHT (p, p+1), DOWN (p, the one
 * below), DIAG (p, below right) and ANTI (p+1, below p). */
enum { RIGHT, DOWN, DIAG, ANTI, FAMILIES };

/* Rows are padded to whole cache lines (ROW_ALIGN floats): where two bands
 * meet, their threads share no line. */
#define ROW_ALIGN 16
/* Bands of rows (cloth_colour_bands): at least BAND_ROWS rows each, at most
 * BANDS_MAX of them. */
#define BAND_ROWS 16
#define BANDS_MAX 16

/* The sweeps' own copy of the particles and the constraints' slots, every array
 * h rows of `stride` floats, cache-line aligned: particle (i,j) and the slots
 * of its cell at i*stride + j. Within a row a pass's constraints sit at
 * consecutive slots (every other slot for RIGHT), so the projection is a loop
 * over plain arrays, many lanes at a time. A slot's rest length is 0 when it
 * holds no constraint (torn, cut, or off the grid), which the projection
 * skips; con[] maps it to the constraint's index in c1/c2. */
struct cloth_grid {
    int stride;
    size_t size;             /* h * stride */
    float *x, *y, *w;        /* positions and inverse masses during the sweeps */
    float *rest[FAMILIES];   /* rest length, or 0 (no constraint) */
    float *lambda[FAMILIES]; /* the XPBD multipliers of the current substep */
    int *con[FAMILIES];      /* the constraint's index in c1/c2, or -1 */
};

/* ---- building --------------------------------------------------------------- */

void cloth_grid_free(struct cloth *c)
{
    struct cloth_grid *g = c->grid;
    if (!g)
        return;
    free(g->x);
    free(g->y);
    free(g->w);
    for (int f = 0; f < FAMILIES; f++) {
        free(g->rest[f]);
        free(g->lambda[f]);
        free(g->con[f]);
    }
    free(g);
    c->grid = NULL;
}

/* The family and slot (i*stride + j of its cell's top-left particle) of a
 * constraint between particles a < b of a w-wide grid. */
static void slot_of(int w, int stride, int a, int b, int *f, int *p)
{
    int cell = a;
    if (a / w == b / w)
        *f = RIGHT;
    else if (b - a == w)
        *f = DOWN;
    else if (b - a == w + 1)
        *f = DIAG;
    else
        *f = ANTI, cell = a - 1; /* (i, j+1)-(i+1, j) */
    *p = cell / w * stride + cell % w;
}

/* A zeroed array of g->size elements of `each` bytes, cache-line aligned. */
static void *grid_array(const struct cloth_grid *g, size_t each)
{
    size_t bytes = (g->size * each + 63) / 64 * 64;
    void *a = aligned_alloc(64, bytes);
    if (a)
        memset(a, 0, bytes);
    return a;
}

/* Allocates c->grid and fills it from c1/c2/rest. 0 or -1. */
int cloth_grid_build(struct cloth *c)
{
    struct cloth_grid *g = calloc(1, sizeof *g);
    if (!g)
        return -1;
    c->grid = g;
    g->stride = (c->prm.w + ROW_ALIGN - 1) / ROW_ALIGN * ROW_ALIGN;
    g->size = (size_t)c->prm.h * (size_t)g->stride;
    g->x = grid_array(g, sizeof *g->x);
    g->y = grid_array(g, sizeof *g->y);
    g->w = grid_array(g, sizeof *g->w);
    bool ok = g->x && g->y && g->w;
    for (int f = 0; f < FAMILIES && ok; f++) {
        g->rest[f] = grid_array(g, sizeof *g->rest[f]);
        g->lambda[f] = grid_array(g, sizeof *g->lambda[f]);
        g->con[f] = grid_array(g, sizeof *g->con[f]);
        ok = g->rest[f] && g->lambda[f] && g->con[f];
        for (size_t i = 0; ok && i < g->size; i++)
            g->con[f][i] = -1;
    }
    if (!ok) {
        cloth_grid_free(c);
        return -1;
    }
    for (int k = 0; k < c->nc; k++) {
        int f, p;
        slot_of(c->prm.w, g->stride, c->c1[k], c->c2[k], &f, &p);
        g->rest[f][p] = c->rest[k];
        g->con[f][p] = k;
    }
    return 0;
}

/* Rows of w floats between the grid's padded layout and the cloth's packed one. */
static void to_grid(const struct cloth *c, float *grid, const float *packed)
{
    int w = c->prm.w, stride = c->grid->stride;
    for (int i = 0; i < c->prm.h; i++)
        memcpy(grid + i * stride, packed + i * w, (size_t)w * sizeof *grid);
}

static void from_grid(const struct cloth *c, float *packed, const float *grid)
{
    int w = c->prm.w, stride = c->grid->stride;
    for (int i = 0; i < c->prm.h; i++)
        memcpy(packed + i * w, grid + i * stride, (size_t)w * sizeof *packed);
}

void cloth_grid_load(struct cloth *c)
{
    to_grid(c, c->grid->x, c->x);
    to_grid(c, c->grid->y, c->y);
}

void cloth_grid_store(struct cloth *c)
{
    from_grid(c, c->x, c->grid->x);
    from_grid(c, c->y, c->grid->y);
}

void cloth_grid_copy_weights(struct cloth *c)
{
    to_grid(c, c->grid->w, c->w);
    c->wdirty = false;
}

void cloth_grid_reset_lambda(struct cloth *c)
{
    for (int f = 0; f < FAMILIES; f++)
        memset(c->grid->lambda[f], 0, c->grid->size * sizeof *c->grid->lambda[f]);
}

void cloth_grid_store_lambda(struct cloth *c)
{
    const struct cloth_grid *g = c->grid;
    for (int f = 0; f < FAMILIES; f++)
        for (size_t p = 0; p < g->size; p++)
            if (g->con[f][p] >= 0)
                c->lambda[g->con[f][p]] = g->lambda[f][p];
}

void cloth_grid_drop_torn(struct cloth *c, const int *newk)
{
    struct cloth_grid *g = c->grid;
    for (int f = 0; f < FAMILIES; f++)
        for (size_t p = 0; p < g->size; p++) {
            int *k = &g->con[f][p];
            if (*k < 0)
                continue;
            *k = newk[*k];
            if (*k < 0)
                g->rest[f][p] = g->lambda[f][p] = 0.0f;
        }
}

/* ---- projection -------------------------------------------------------------- */

/*
 * Constraint t of a run between particles a and b, at offset i = t*stride of
 * every array: the projection of cloth_link.c (PBD, or XPBD when at > 0) with
 * the same operations in the same order, skipped where there is no constraint
 * (rest 0), the two are immovable, or closer than the seed's minimum, and with
 * buckle where they are no farther apart than rest. The
 * vector loops below do the same lane by lane, with selects for the skips.
 */
static inline void project_one(float *restrict xa, float *restrict ya, float *restrict xb,
                               float *restrict yb, const float *restrict wa,
                               const float *restrict wb, const float *restrict rest,
                               float *restrict lam, int i, float at, float ml2, int buckle)
{
    float dx = xa[i] - xb[i], dy = ya[i] - yb[i];
    float d2 = dx * dx + dy * dy;
    float ws = wa[i] + wb[i];
    if (!(d2 > ml2) || !(ws > 0.0f) || !(rest[i] > 0.0f))
        return;
    float dl = sqrtf(d2);
    if (cloth_slack(buckle, dl, rest[i]))
        return;
    float s;
    if (at > 0.0f) {
        s = (rest[i] - dl - at * lam[i]) / ((ws + at) * dl);
        lam[i] += s * dl;
    } else {
        s = (rest[i] - dl) / (dl * ws);
    }
    float sa = wa[i] * s, sb = wb[i] * s;
    xa[i] += sa * dx;
    ya[i] += sa * dy;
    xb[i] -= sb * dx;
    yb[i] -= sb * dy;
}

/* The loops of every width (cloth_grid_lanes.h): m constraints at consecutive
 * slots (project_slots) or at every other slot (project_alternate, RIGHT).
 * All give the same bits; 1 lane is project_one, constraint after constraint. */
static void project_slots_x1(float *restrict xa, float *restrict ya, float *restrict xb,
                             float *restrict yb, const float *restrict wa,
                             const float *restrict wb, const float *restrict rest,
                             float *restrict lam, int m, int xpbd, float at, float ml2,
                             int buckle)
{
    for (int t = 0; t < m; t++)
        project_one(xa, ya, xb, yb, wa, wb, rest, lam, t, xpbd ? at : 0.0f, ml2, buckle);
}

static void project_alternate_x1(float *restrict x, float *restrict y, const float *restrict w,
                                 const float *restrict rest, float *restrict lam, int m,
                                 int xpbd, float at, float ml2, int buckle)
{
    for (int t = 0; t < m; t++)
        project_one(x, y, x + 1, y + 1, w, w + 1, rest, lam, 2 * t, xpbd ? at : 0.0f, ml2,
                    buckle);
}

#if SIMD_HAVE_4
#define W 4
#include "cloth_grid_lanes.h"
#endif
#if SIMD_HAVE_8
#define W 8
#include "cloth_grid_lanes.h"
#endif
#if SIMD_HAVE_16
#define W 16
#include "cloth_grid_lanes.h"
#endif

static const struct loops {
    int lanes;
    void (*slots)(float *restrict xa, float *restrict ya, float *restrict xb,
                  float *restrict yb, const float *restrict wa, const float *restrict wb,
                  const float *restrict rest, float *restrict lam, int m, int xpbd, float at,
                  float ml2, int buckle);
    void (*alternate)(float *restrict x, float *restrict y, const float *restrict w,
                      const float *restrict rest, float *restrict lam, int m, int xpbd,
                      float at, float ml2, int buckle);
} loops[] = {
#if SIMD_HAVE_16
    {16, project_slots_x16, project_alternate_x16},
#endif
#if SIMD_HAVE_8
    {8, project_slots_x8, project_alternate_x8},
#endif
#if SIMD_HAVE_4
    {4, project_slots_x4, project_alternate_x4},
#endif
    {1, project_slots_x1, project_alternate_x1},
};

/* The widest loops of at most lanes_max lanes (0: any) that the CPU runs. */
static const struct loops *loops_for(int lanes_max)
{
    const int lanes = simd_lanes(lanes_max);
    size_t k = 0;
    while (loops[k].lanes > lanes)
        k++;
    return &loops[k];
}

/* One pass: family f (for DIAG and ANTI, the rows of one parity), what the
 * projection needs, and which loops. */
struct pass {
    struct cloth *c;
    int f, parity;
    bool edge; /* DOWN: the cell rows between bands, not those within */
    float at, ml2;
    const struct loops *run;
};

/* The offsets of a and b from the slot p, per family (rows `stride` apart). */
static void ends(int f, int stride, int *da, int *db)
{
    static const int a[FAMILIES] = {0, 0, 0, 1};
    *da = a[f];
    *db = f == RIGHT ? 1 : f == DOWN ? stride : f == DIAG ? stride + 1 : stride;
}

/* Row `row` of a pass from column j0: m constraints, at every slot (stride 1)
 * or every other (RIGHT). */
static void pass_row(const struct pass *ps, int row, int j0, int stride, int m)
{
    const struct cloth_grid *g = ps->c->grid;
    int da, db;
    if (m <= 0)
        return;
    ends(ps->f, g->stride, &da, &db);
    int p = row * g->stride + j0;
    float *x = g->x + p, *y = g->y + p, *lam = g->lambda[ps->f] + p;
    const float *wt = g->w + p, *rest = g->rest[ps->f] + p;
    int xpbd = ps->at > 0.0f, buckle = ps->c->prm.buckle;
    if (stride == 2)
        ps->run->alternate(x, y, wt, rest, lam, m, xpbd, ps->at, ps->ml2, buckle);
    else
        ps->run->slots(x + da, y + da, x + db, y + db, wt + da, wt + db, rest, lam, m, xpbd,
                       ps->at, ps->ml2, buckle);
}

/* The pass's constraints whose cell's top row lies in rows [r0, r1): RIGHT
 * along each row, its even columns and then its odd ones; DOWN those of the cell
 * rows within the band, top to bottom, or (edge) the cell row from the band's
 * last row into the next band's first; DIAG and ANTI the cell rows of one
 * parity. */
static void pass_rows(const struct pass *ps, int r0, int r1)
{
    int w = ps->c->prm.w, h = ps->c->prm.h;
    if (ps->f == RIGHT) { /* rows share no particle: both colours a row at a time */
        for (int i = r0; i < r1; i++) {
            pass_row(ps, i, 0, 2, w / 2);
            pass_row(ps, i, 1, 2, (w - 1) / 2);
        }
    } else if (ps->f == DOWN) {
        if (ps->edge) {
            if (r1 < h)
                pass_row(ps, r1 - 1, 0, 1, w);
        } else {
            for (int i = r0; i + 1 < r1; i++)
                pass_row(ps, i, 0, 1, w);
        }
    } else {
        for (int i = r0 + (r0 % 2 != ps->parity); i < r1 && i + 1 < h; i += 2)
            pass_row(ps, i, 0, 1, w - 1);
    }
}

/* A part of a pass: one band of rows (cloth_colour_bands). Every pass cuts the
 * rows the same way, so a thread keeps its bands in its own cache from pass to
 * pass, and two threads meet only where bands meet. */
static void pass_part(void *arg, int part, int nparts)
{
    const struct pass *ps = arg;
    int r0, r1;
    pool_span(ps->c->prm.h, part, nparts, &r0, &r1);
    pass_rows(ps, r0, r1);
}

int cloth_colour_bands(int h)
{
    int bands = h / BAND_ROWS;
    return bands < 1 ? 1 : bands > BANDS_MAX ? BANDS_MAX : bands;
}

/*
 * One sweep: XPBD with alpha_tilde at, or PBD when at is 0; ml2 is min_length2.
 * The rows are cut into bands of at least BAND_ROWS rows (cloth_colour_bands,
 * a function of the height alone), and a sweep takes the constraints so:
 *  - RIGHT in two colours, the even columns j and then the odd ones, each a set
 *    of constraints that share no particle;
 *  - DOWN in the seed's own order within each band, row after row from the
 *    top (each column is a chain of its own, so a correction travels down a
 *    whole band in one sweep as on the seed page: by colour, a yanked cloth's
 *    pull would reach a particle or two a sweep, and the cloth would gather
 *    into a rope along the pull), then those from one band into the next;
 *  - DIAG and ANTI, each in two colours, the even rows i and then the odd.
 * Every pass is shared out by bands, the same bands to the same threads pass
 * after pass (pool.c deals the parts out in contiguous shares), so each
 * thread's rows stay in its own cache. Within a colour the order is
 * immaterial, and the bands' DOWN chains share no particle, so the bits are
 * those of one thread. It converges like the seed's in-order sweep (the same
 * projections, Gauss-Seidel), but it is not the seed's order, so the seed
 * preset keeps that.
 */
void cloth_grid_sweep(struct cloth *c, float at, float ml2)
{
    static const struct {
        int f, parity;
        bool edge;
    } order[] = {
        {RIGHT, 0, false}, {DOWN, 0, false}, {DOWN, 0, true},
        {DIAG, 0, false},  {DIAG, 1, false},  {ANTI, 0, false}, {ANTI, 1, false},
    };
    int bands = cloth_colour_bands(c->prm.h);
    const struct loops *run = loops_for(c->lanes_max);
    /* A small cloth stays on this thread: a pool_run costs about as much as a
     * few hundred projections. */
    struct pool *pool = c->prm.w * c->prm.h / 2 >= LANES * c->par_records ? c->pool : NULL;
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        struct pass ps = {c, order[k].f, order[k].parity, order[k].edge, at, ml2, run};
        pool_run(pool, pass_part, &ps, bands);
    }
}
