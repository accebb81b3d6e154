/*
 * test_cloth.c — the PBD cloth (src/sim/cloth.c): the seed's setup, one
 * projection against hand-computed shares, the packed solver against a plain
 * in-order Gauss-Seidel sweep of cloth_project and the sweep by colour
 * (cloth_grid.c) against the same in colour order (on threads too), the
 * vector loops of every width against each other, the seed page's own
 * numbers, iteration dependence, XPBD, tearing, the scissors (cloth_cut) and
 * the surface for drawing. The pointer, statistics, extremes and the scene are
 * in test_cloth_scene.c.
 */
#include "cloth.h"
#include "cloth_internal.h"
#include "fixtures.h"
#include "pool.h"
#include "swirl.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static float mean_strain(const struct cloth *c)
{
    float mean, max;
    cloth_strain(c, &mean, &max);
    return mean;
}

/*
 * The step written out plainly from the public pieces: prediction, `iterations`
 * sweeps of cloth_project over the constraints in order[] (NULL: list order),
 * velocities. The packed solver in cloth_step must give exactly this.
 */
static void reference_step_in(struct cloth *c, const int *order)
{
    const struct cloth_params *p = &c->prm;
    int subs = p->substeps < 1 ? 1 : p->substeps;
    float h = p->dt / (float)subs;
    float at = p->compliance > 0.0f ? p->compliance / (h * h) : 0.0f;
    for (int s = 0; s < subs; s++) {
        for (int i = 0; i < c->n; i++)
            if (c->w[i] > 0.0f) {
                c->xold[i] = c->x[i];
                c->yold[i] = c->y[i];
                c->vy[i] += h * p->gravity;
                c->x[i] += h * c->vx[i];
                c->y[i] += h * c->vy[i];
            }
        for (int k = 0; k < c->nc; k++)
            c->lambda[k] = 0.0f;
        for (int it = 0; it < p->iterations; it++)
            for (int k = 0; k < c->nc; k++)
                cloth_project(c, order ? order[k] : k, at);
        float inv_h = 1.0f / h;
        for (int i = 0; i < c->n; i++)
            if (c->w[i] > 0.0f) {
                c->vx[i] = (c->x[i] - c->xold[i]) * inv_h;
                c->vy[i] = (c->y[i] - c->yold[i]) * inv_h;
            }
    }
    c->time += p->dt;
}

static void reference_step(struct cloth *c) { reference_step_in(c, NULL); }

/*
 * The set of constraint k in by_colour's order (cloth_project), from its
 * particles alone: 0/1 a horizontal one at an even/odd column, 2 a vertical one
 * within a band of rows, 3 one from a band into the next, 4 + parity of the
 * row for the diagonals (i,j)-(i+1,j+1), 6 + for the others.
 */
static int colour_of(const struct cloth *c, int k)
{
    int w = c->prm.w, h = c->prm.h, a = c->c1[k], b = c->c2[k];
    int row = a / w;
    if (b / w == row)
        return a % w % 2;
    if (b - a == w) {
        int bands = cloth_colour_bands(h), lo, hi;
        for (int band = 0; band < bands; band++) {
            pool_span(h, band, bands, &lo, &hi);
            if (row >= lo && row < hi)
                return row + 1 < hi ? 2 : 3;
        }
    }
    return (b - a == w + 1 ? 4 : 6) + row % 2;
}

/* The constraints sorted by set, list order within one (which by_colour's
 * sweep follows only for the vertical ones: within the other sets the order
 * must not matter). */
static void colour_order(const struct cloth *c, int *order)
{
    int n = 0;
    for (int colour = 0; colour < 8; colour++)
        for (int k = 0; k < c->nc; k++)
            if (colour_of(c, k) == colour)
                order[n++] = k;
}

/* reference_step in the colour order. */
static void colour_reference_step(struct cloth *c)
{
    int *order = malloc((size_t)c->nc * sizeof *order + 1);
    colour_order(c, order);
    reference_step_in(c, order);
    free(order);
}

TEST(cloth_seed_setup)
{
    struct cloth_params p;
    cloth_params_seed(&p);
    CHECK_INT(p.w, 40);
    CHECK_INT(p.h, 30);
    CHECK_INT(p.fixed, 2);
    CHECK(p.spacing == 0.2f);
    CHECK(p.dt == 0.005f);
    CHECK_INT(p.iterations, 2);
    CHECK(p.gravity == -9.81f);
    CHECK(p.mass == 0.5f);
    CHECK(p.compliance == 0.0f);
    CHECK_INT(p.substeps, 1);
    CHECK(!p.tearing);
    CHECK(p.tear_strain > 0.0f);

    struct cloth c;
    CHECK_INT(cloth_init(&c, &p), 0);
    int w = 40, h = 30;
    CHECK_INT(c.n, 1200);
    CHECK_INT(c.nc, 39 * 30 + 40 * 29 + 2 * 39 * 29); /* 4592, as the page shows */
    CHECK_INT(c.grabbed, -1);
    CHECK(c.x[w + 3] == 0.2f * 3.0f && c.y[w + 3] == -0.2f);
    CHECK(c.x[5 * w + 7] == 0.2f * 7.0f && c.y[5 * w + 7] == -0.2f * 5.0f);

    /* Order: rows, then columns, then per cell (i,j)-(i+1,j+1), (i,j+1)-(i+1,j). */
    int hor = (w - 1) * h, ver = w * (h - 1);
    CHECK(c.c1[0] == 0 && c.c2[0] == 1 && c.rest[0] == 0.2f);
    CHECK(c.c1[w - 1] == w && c.c2[w - 1] == w + 1); /* second row starts */
    CHECK(c.c1[hor] == 0 && c.c2[hor] == w);
    CHECK(c.c1[hor + 1] == 1 && c.c2[hor + 1] == w + 1);
    CHECK(c.c1[hor + ver] == 0 && c.c2[hor + ver] == w + 1);
    CHECK(c.c1[hor + ver + 1] == 1 && c.c2[hor + ver + 1] == w);
    CHECK(c.c1[hor + ver + 2] == 1 && c.c2[hor + ver + 2] == w + 2);
    CHECK_NEAR(c.rest[hor + ver], 0.2 * sqrt(2.0), 1e-6);
    CHECK(c.c1[c.nc - 1] == (h - 2) * w + w - 1 && c.c2[c.nc - 1] == (h - 1) * w + w - 2);

    /* Two pins, the top corners; the rest have inverse mass 1/0.5. */
    int pinned = 0;
    for (int i = 0; i < c.n; i++)
        pinned += c.w[i] == 0.0f;
    CHECK_INT(pinned, 2);
    CHECK(c.w[0] == 0.0f && c.w[w - 1] == 0.0f && c.w[1] == 2.0f);
    cloth_free(&c);

    int expect[3][4] = {{0, -1, -1, -1}, {0, 39, -1, -1}, {0, 39, 29 * 40, 30 * 40 - 1}};
    int kinds[3] = {1, 2, 4};
    for (int t = 0; t < 3; t++) {
        p.fixed = kinds[t];
        CHECK_INT(cloth_init(&c, &p), 0);
        pinned = 0;
        for (int i = 0; i < c.n; i++)
            pinned += c.fixed[i];
        CHECK_INT(pinned, kinds[t]);
        for (int k = 0; k < 4; k++)
            if (expect[t][k] >= 0)
                CHECK(c.fixed[expect[t][k]] && c.w[expect[t][k]] == 0.0f);
        cloth_free(&c);
    }
}

TEST(cloth_init_sizes)
{
    struct cloth c;
    struct cloth_params p = fx_cloth_params(0, 5, 2);
    CHECK_INT(cloth_init(&c, &p), -1);
    p = fx_cloth_params(5, -1, 2);
    CHECK_INT(cloth_init(&c, &p), -1);
    p = fx_cloth_params(5, 5, 2);
    p.spacing = 0.0f;
    CHECK_INT(cloth_init(&c, &p), -1);
    p.spacing = NAN;
    CHECK_INT(cloth_init(&c, &p), -1);

    /* Degenerate but valid: a single particle, a single row, a single column. */
    p = fx_cloth_params(1, 1, 2);
    CHECK_INT(cloth_init(&c, &p), 0);
    CHECK_INT(c.nc, 0);
    fx_cloth_steps(&c, 10);
    CHECK(c.x[0] == 0.0f && c.y[0] == 0.0f);
    cloth_free(&c);
    p = fx_cloth_params(6, 1, 1);
    CHECK_INT(cloth_init(&c, &p), 0);
    CHECK_INT(c.nc, 5);
    fx_cloth_steps(&c, 100);
    CHECK(fx_cloth_finite(&c) && c.y[5] < -0.1f);
    cloth_free(&c);
    p = fx_cloth_params(1, 6, 4);
    CHECK_INT(cloth_init(&c, &p), 0);
    CHECK_INT(c.nc, 5);
    CHECK(c.fixed[0] && c.fixed[5]);
    cloth_free(&c);
}

TEST(cloth_projection_mass_weighted)
{
    struct cloth_params p = fx_cloth_params(2, 1, 1);
    p.spacing = 0.25f;
    struct cloth c;
    CHECK_INT(cloth_init(&c, &p), 0);
    CHECK_INT(c.nc, 1);

    /* Stretched from 0.25 to 0.5 along x; inverse masses 1 and 3: C = 0.25,
     * particle 0 takes 1/4 of it, particle 1 takes 3/4 (all exact in binary). */
    c.w[0] = 1.0f;
    c.w[1] = 3.0f;
    c.x[1] = 0.5f;
    cloth_project(&c, 0, 0.0f);
    CHECK(c.x[0] == 0.0625f);
    CHECK(c.x[1] == 0.3125f);
    CHECK(c.y[0] == 0.0f && c.y[1] == 0.0f);
    CHECK(c.x[1] - c.x[0] == 0.25f);

    /* Compressed to 0.125: pushed apart by the same shares. */
    c.x[0] = 0.0f;
    c.x[1] = 0.125f;
    cloth_project(&c, 0, 0.0f);
    CHECK(c.x[0] == -0.03125f);
    CHECK(c.x[1] == 0.21875f);

    /* Along a 3-4-5 diagonal: d = x0 - x1 = (-0.3, -0.4), |d| = 0.5, C = 0.25. */
    c.x[0] = 0.0f;
    c.y[0] = 0.0f;
    c.x[1] = 0.3f;
    c.y[1] = 0.4f;
    cloth_project(&c, 0, 0.0f);
    CHECK_NEAR(c.x[0], 0.0375, 1e-6);
    CHECK_NEAR(c.y[0], 0.05, 1e-6);
    CHECK_NEAR(c.x[1], 0.3 - 0.1125, 1e-6);
    CHECK_NEAR(c.y[1], 0.4 - 0.15, 1e-6);

    /* One immovable end: the other takes the whole correction. */
    c.w[0] = 0.0f;
    c.x[0] = c.y[0] = c.y[1] = 0.0f;
    c.x[1] = 0.5f;
    cloth_project(&c, 0, 0.0f);
    CHECK(c.x[0] == 0.0f);
    CHECK_NEAR(c.x[1], 0.25, 1e-7);

    /* Both immovable: nothing moves. */
    c.w[1] = 0.0f;
    c.x[1] = 0.5f;
    cloth_project(&c, 0, 0.0f);
    CHECK(c.x[0] == 0.0f && c.x[1] == 0.5f);

    /* Shorter than the seed's 1 mm: skipped rather than divided by ~0. */
    c.w[0] = c.w[1] = 1.0f;
    c.x[1] = 0.0001f;
    cloth_project(&c, 0, 0.0f);
    CHECK(c.x[0] == 0.0f && c.x[1] == 0.0001f);

    /* XPBD, alpha_tilde 2: dlambda = -C / (1 + 3 + 2), x += w grad(C) dlambda. */
    c.w[0] = 1.0f;
    c.w[1] = 3.0f;
    c.x[1] = 0.5f;
    c.lambda[0] = 0.0f;
    cloth_project(&c, 0, 2.0f);
    double dlam = -0.25 / 6.0;
    CHECK_NEAR(c.lambda[0], dlam, 1e-7);
    CHECK_NEAR(c.x[0], -1.0 * dlam, 1e-7);
    CHECK_NEAR(c.x[1], 0.5 + 3.0 * dlam, 1e-7);
    /* A second pass accounts for the lambda already there. */
    double C = (c.x[1] - c.x[0]) - 0.25, lam = c.lambda[0];
    double dlam2 = (-C - 2.0 * lam) / 6.0;
    float x1 = c.x[1];
    cloth_project(&c, 0, 2.0f);
    CHECK_NEAR(c.lambda[0], lam + dlam2, 1e-7);
    CHECK_NEAR(c.x[1], x1 + 3.0 * dlam2, 1e-7);
    cloth_free(&c);
}

TEST(cloth_buckle_only_pulls)
{
    /* buckle: a constraint shorter than its rest length, or exactly at it, is
     * left alone (PBD and XPBD, lambda kept); a longer one is pulled in as
     * without it. */
    struct cloth_params p = fx_cloth_params(2, 1, 1);
    p.spacing = 0.25f;
    p.buckle = true;
    struct cloth c;
    CHECK_INT(cloth_init(&c, &p), 0);
    c.w[0] = 1.0f;
    c.w[1] = 3.0f;
    const float lengths[3] = {0.125f, 0.25f, 0.5f};
    for (int xpbd = 0; xpbd < 2; xpbd++)
        for (int k = 0; k < 3; k++) {
            c.x[0] = 0.0f, c.x[1] = lengths[k], c.lambda[0] = 0.5f;
            cloth_project(&c, 0, xpbd ? 2.0f : 0.0f);
            if (k < 2) {
                CHECK_MSG(c.x[0] == 0.0f && c.x[1] == lengths[k] && c.lambda[0] == 0.5f,
                          "xpbd %d, length %g: moved to %g..%g", xpbd, lengths[k], c.x[0],
                          c.x[1]);
            } else if (!xpbd) {
                CHECK(c.x[0] == 0.0625f && c.x[1] == 0.3125f); /* as without buckle */
            } else {
                double dlam = (-0.25 - 2.0 * 0.5) / 6.0;
                CHECK_NEAR(c.lambda[0], 0.5 + dlam, 1e-7);
                CHECK_NEAR(c.x[1], 0.5 + 3.0 * dlam, 1e-7);
            }
        }
    /* Pushed together, a constraint neither strains nor tears the cloth. */
    c.x[0] = 0.0f, c.x[1] = 0.05f;
    float mean, max;
    cloth_strain(&c, &mean, &max);
    CHECK(mean == 0.0f && max == 0.0f);
    c.prm.tearing = true, c.prm.tear_strain = 0.5f, c.prm.gravity = 0.0f;
    c.w[0] = c.w[1] = 0.0f, c.wdirty = true;
    cloth_step(&c);
    CHECK_INT(c.torn, 0);
    c.prm.buckle = false;
    cloth_strain(&c, &mean, &max);
    CHECK_NEAR(max, 0.8, 1e-6);
    cloth_step(&c);
    CHECK_INT(c.torn, 1);
    cloth_free(&c);
}

TEST(cloth_packed_solver_equals_in_order_sweep)
{
    /* PBD with 4 pins and a grabbed particle, then XPBD with substeps and an
     * odd mass, each with buckle too: cloth_step and the plain in-order sweep
     * agree exactly. */
    for (int variant = 0; variant < 4; variant++) {
        struct cloth_params p = fx_cloth_params(23, 17, 4);
        p.buckle = variant >= 2;
        if (variant % 2) {
            p.compliance = 1e-5f;
            p.substeps = 3;
            p.iterations = 3;
            p.mass = 1.3f;
        }
        struct cloth a, b;
        CHECK_INT(cloth_init(&a, &p), 0);
        CHECK_INT(cloth_init(&b, &p), 0);
        cloth_grab(&a, 7 * 23 + 11, 2.0f, -1.0f);
        cloth_grab(&b, 7 * 23 + 11, 2.0f, -1.0f);
        int diff = 0;
        for (int s = 0; s < 150; s++) {
            cloth_step(&a);
            reference_step(&b);
            diff += fx_cloth_differences(&a, &b);
        }
        CHECK_MSG(diff == 0, "variant %d: %d particle-steps differ", variant, diff);
        CHECK(a.time == b.time);
        if (variant % 2)
            for (int k = 0; k < a.nc; k++)
                if (a.lambda[k] != b.lambda[k]) {
                    CHECK_MSG(0, "lambda %d differs", k);
                    break;
                }
        cloth_free(&a);
        cloth_free(&b);
    }
}

TEST_THREADS(cloth_threads_change_nothing)
{
    /* Every level (seed order) or colour (by_colour) handed to pools of 2 to 4
     * threads (par_records 1), and by colour with 4- and 8-lane loops too
     * (where the CPU has wider ones): the same bits as
     * this thread alone and as the plain sweep in that order, PBD and XPBD,
     * while a grab pulls and tearing and a cut renumber the constraints. */
    for (int variant = 0; variant < 4; variant++) {
        bool colour = variant >= 2;
        struct cloth_params p = fx_cloth_params(23, colour ? 50 : 17, 4);
        p.tearing = true, p.tear_strain = 0.3f, p.by_colour = colour;
        p.compliance = variant % 2 ? 1e-5f : 0.0f;
        p.substeps = 1 + variant % 2, p.iterations = 2 + variant % 2;
        struct cloth c[6];
        struct pool *pools[6] = {NULL, pool_create(2), pool_create(3), pool_create(4), NULL, NULL};
        int diff = 0, g = 7 * 23 + 11, runs = colour ? 6 : 4;
        for (int t = 0; t < runs; t++) {
            CHECK_INT(cloth_init(&c[t], &p), 0);
            cloth_set_pool(&c[t], pools[t]);
            c[t].par_records = 1;
            c[t].lanes_max = t == 4 ? 4 : t == 5 ? 8 : 0;
            for (int s = 0; s < 120; s++) {
                if (s == 10)
                    cloth_grab(&c[t], g, c[t].x[g], c[t].y[g]);
                if (s > 10)
                    cloth_move_grab(&c[t], 2.2f + 0.02f * (float)s, -1.0f - 0.01f * (float)s);
                if (s == 60)
                    fx_cloth_cut(&c[t], 0.9f, 0.5f, 1.7f, -3.9f);
                cloth_step(&c[t]);
            }
            diff += fx_cloth_differences(&c[0], &c[t]) + (c[t].nc != c[0].nc);
            for (int k = 0; k < c[0].nc && k < c[t].nc; k++)
                diff += c[0].lambda[k] != c[t].lambda[k] || c[0].c1[k] != c[t].c1[k];
        }
        CHECK(c[0].torn > 0 && c[0].cut > 0);
        /* ... and go on as the plain sweep. */
        c[0].prm.tearing = c[3].prm.tearing = false;
        for (int s = 0; s < 50; s++) {
            cloth_step(&c[3]);
            if (colour)
                colour_reference_step(&c[0]);
            else
                reference_step(&c[0]);
            diff += fx_cloth_differences(&c[0], &c[3]);
        }
        CHECK_MSG(diff == 0, "variant %d: %d differences", variant, diff);
        for (int t = 0; t < runs; t++)
            cloth_free(&c[t]), pool_destroy(pools[t]);
    }
}

TEST(cloth_colour_sweep_is_the_sweep_in_colour_order)
{
    /* by_colour: PBD with 4 pins, a grab and a cut; XPBD with substeps and an
     * odd mass, each with buckle too: cloth_step equals the plain sweep of
     * cloth_project over the constraints sorted by colour, with the widest
     * loops and with SSE2. */
    for (int variant = 0; variant < 8; variant++) {
        struct cloth_params p = fx_cloth_params(23, 50, 4);
        p.by_colour = true;
        p.buckle = variant >= 4;
        if (variant % 2) {
            p.compliance = 1e-5f, p.substeps = 3, p.iterations = 3, p.mass = 1.3f;
        }
        struct cloth a, b;
        CHECK_INT(cloth_init(&a, &p), 0);
        CHECK_INT(cloth_init(&b, &p), 0);
        a.lanes_max = variant / 2 % 2 ? 4 : 0;
        int g = 7 * 23 + 11, diff = 0, lam = 0;
        for (int s = 0; s < 150; s++) {
            if (s == 5)
                cloth_grab(&a, g, 2.0f, -1.0f), cloth_grab(&b, g, 2.0f, -1.0f);
            if (s > 5) {
                float x = 2.2f + 0.03f * (float)s, y = -1.0f - 0.02f * (float)s;
                cloth_move_grab(&a, x, y), cloth_move_grab(&b, x, y);
            }
            if (s == 70)
                fx_cloth_cut(&a, 0.9f, 0.5f, 1.7f, -3.9f), fx_cloth_cut(&b, 0.9f, 0.5f, 1.7f, -3.9f);
            cloth_step(&a);
            colour_reference_step(&b);
            diff += fx_cloth_differences(&a, &b);
            for (int k = 0; k < a.nc && k < b.nc; k++)
                lam += p.compliance > 0.0f && a.lambda[k] != b.lambda[k];
        }
        CHECK_MSG(diff == 0, "variant %d: %d particle-steps differ", variant, diff);
        CHECK_MSG(lam == 0, "variant %d: %d multipliers differ", variant, lam);
        CHECK(a.cut > 0);
        cloth_free(&a);
        cloth_free(&b);
    }
}

/* A cloth of p swept with loops of at most `lanes` lanes, grabbed, pulled, cut
 * and (p's tearing) torn over 120 steps. */
static void width_run(struct cloth *c, const struct cloth_params *p, int lanes)
{
    const int g = 9 * p->w + 13;
    CHECK_INT(cloth_init(c, p), 0);
    c->lanes_max = lanes;
    for (int s = 0; s < 120; s++) {
        if (s == 10)
            cloth_grab(c, g, c->x[g], c->y[g]);
        if (s > 10)
            cloth_move_grab(c, 2.2f + 0.03f * (float)s, -1.5f - 0.02f * (float)s);
        if (s == 60)
            fx_cloth_cut(c, 0.9f, 0.5f, 1.7f, -3.9f);
        cloth_step(c);
    }
}

TEST(cloth_every_width_gives_the_same_bits)
{
    /* The loops of every width the sweeps have (lanes_max 1: plain C, in the
     * seed's order too; 4, 8 and 16 where the CPU has them) against the
     * widest: the same bits in both orders, PBD and XPBD, with a grab, a cut
     * and tearing, with buckle and without, on a cloth 37 wide (a remainder
     * after the vectors at every width). */
    static const int widths[] = {1, 4, 8, 16};
    for (int variant = 0; variant < 8; variant++) {
        struct cloth_params p = fx_cloth_params(37, 29, 2);
        p.by_colour = variant / 2 % 2;
        p.buckle = variant >= 4;
        p.tearing = true, p.tear_strain = 0.3f;
        if (variant % 2)
            p.compliance = 1e-5f, p.substeps = 2, p.iterations = 3;
        struct cloth ref, c;
        width_run(&ref, &p, 0);
        CHECK(ref.cut > 0);
        for (int k = 0; k < 4; k++) {
            width_run(&c, &p, widths[k]);
            int diff = fx_cloth_differences(&ref, &c) + (c.nc != ref.nc);
            for (int q = 0; q < ref.nc && q < c.nc; q++)
                diff += ref.lambda[q] != c.lambda[q] || ref.c1[q] != c.c1[q];
            CHECK_MSG(diff == 0, "variant %d, %d lanes: %d differences", variant, widths[k], diff);
            cloth_free(&c);
        }
        cloth_free(&ref);
    }
}

TEST(cloth_matches_seed_page)
{
    /* pbd.html's own code under node (tests/bench/seedrun.js pbd 2000, i.e.
     * 200 + 2000 steps of the page's preset, in doubles) ends with centroid
     * (3.89919, -3.04543) and lowest particle at -5.95882. */
    struct cloth_params p;
    cloth_params_seed(&p);
    struct cloth c;
    CHECK_INT(cloth_init(&c, &p), 0);
    fx_cloth_steps(&c, 2200);
    float cx, cy, miny;
    cloth_centroid(&c, &cx, &cy, &miny);
    CHECK_NEAR(cx, 3.89919002528859, 2e-4);
    CHECK_NEAR(cy, -3.0454302256226056, 2e-4);
    CHECK_NEAR(miny, -5.958818257491692, 2e-4);
    CHECK_NEAR(c.time, 11.0, 1e-3);
    cloth_free(&c);
}

TEST(cloth_strain_falls_with_iterations)
{
    /* A 10x10 cloth hanging from two corners for 5 s: more Gauss-Seidel sweeps,
     * a stiffer cloth (the seed page's point). */
    int its[3] = {1, 4, 16};
    float strain[3];
    for (int t = 0; t < 3; t++) {
        struct cloth_params p = fx_cloth_params(10, 10, 2);
        p.iterations = its[t];
        struct cloth c;
        CHECK_INT(cloth_init(&c, &p), 0);
        fx_cloth_steps(&c, 1000);
        strain[t] = mean_strain(&c);
        cloth_free(&c);
    }
    CHECK_MSG(strain[0] > 2.0f * strain[1], "1 it %g vs 4 it %g", strain[0], strain[1]);
    CHECK_MSG(strain[1] > 2.0f * strain[2], "4 it %g vs 16 it %g", strain[1], strain[2]);
    CHECK(strain[2] > 0.0f);
}

/* Mean strain of a 10x10 cloth hanging from two corners with 10 substeps,
 * averaged over steps 100..399 (XPBD is undamped and keeps swinging a little,
 * so one instant would depend on the phase). */
static float settled_strain(float compliance, int iterations)
{
    struct cloth_params p = fx_cloth_params(10, 10, 2);
    p.substeps = 10;
    p.iterations = iterations;
    p.compliance = compliance;
    struct cloth c;
    if (cloth_init(&c, &p) != 0)
        return NAN;
    double sum = 0.0;
    for (int s = 0; s < 400; s++) {
        cloth_step(&c);
        if (s >= 100)
            sum += mean_strain(&c);
    }
    bool ok = fx_cloth_finite(&c);
    cloth_free(&c);
    return ok ? (float)(sum / 300.0) : NAN;
}

TEST(cloth_xpbd_stiffness_independent_of_iterations)
{
    /* With compliance the stretch is set by the compliance, not by the number
     * of sweeps; PBD's falls with every sweep. */
    float xpbd1 = settled_strain(1e-5f, 1), xpbd4 = settled_strain(1e-5f, 4);
    float pbd1 = settled_strain(0.0f, 1), pbd4 = settled_strain(0.0f, 4);
    CHECK_MSG(fabsf(xpbd1 - xpbd4) < 0.1f * xpbd4, "xpbd 1 it %g vs 4 it %g", xpbd1, xpbd4);
    CHECK_MSG(pbd1 > 3.0f * pbd4, "pbd 1 it %g vs 4 it %g", pbd1, pbd4);
    /* Small strains are linear in the compliance: ten times softer, ten times
     * the stretch. */
    float soft = settled_strain(1e-4f, 4);
    CHECK_MSG(soft > 7.0f * xpbd4 && soft < 13.0f * xpbd4, "1e-4: %g, 1e-5: %g", soft, xpbd4);
    CHECK(xpbd4 > 10.0f * pbd4);
}

/* 4x3 grid, spacing 1, no gravity, no sweeps, tearing beyond 0.4. */
static struct cloth_params tear_params(void)
{
    struct cloth_params p = fx_cloth_params(4, 3, 1);
    p.spacing = 1.0f;
    p.gravity = 0.0f;
    p.iterations = 0;
    p.tearing = true;
    p.tear_strain = 0.4f;
    return p;
}

/* Particle 5 (row 1, col 1) pulled to (1.9, -1), particle 11 (row 2, col 3)
 * to (3, -2.6), then one step. */
static void pull_apart(struct cloth *c)
{
    c->x[5] = 1.9f;
    c->x[11] = 3.0f;
    c->y[11] = -2.6f;
    cloth_step(c);
}

TEST(cloth_tearing_removes_overstretched)
{
    /* The step leaves positions as they are and then tears. Strains by hand:
     *   (4,5) 0.9  (5,6) 0.9  (0,5),(5,8) (sqrt(4.61)-sqrt2)/sqrt2 = 0.518
     *   (7,11) 0.6                                        -> torn
     *   (1,5),(5,9) 0.345  (2,5),(5,10) 0.289  (6,11) 0.334
     *   (10,11) 0.166                                     -> kept */
    struct cloth_params p = tear_params();
    struct cloth c;
    CHECK_INT(cloth_init(&c, &p), 0);
    CHECK_INT(c.nc, 29);
    int before[29][2];
    for (int k = 0; k < 29; k++) {
        before[k][0] = c.c1[k];
        before[k][1] = c.c2[k];
    }
    pull_apart(&c);
    CHECK(c.x[5] == 1.9f && c.y[11] == -2.6f);

    static const int torn[5][2] = {{4, 5}, {5, 6}, {7, 11}, {0, 5}, {5, 8}};
    int expect[29][2], ne = 0;
    for (int k = 0; k < 29; k++) {
        bool gone = false;
        for (int t = 0; t < 5; t++)
            gone |= before[k][0] == torn[t][0] && before[k][1] == torn[t][1];
        if (!gone) {
            expect[ne][0] = before[k][0];
            expect[ne][1] = before[k][1];
            ne++;
        }
    }
    CHECK_INT(ne, 24);
    CHECK_INT(c.nc, 24);
    CHECK_INT(c.torn, 5);
    int mismatch = 0;
    for (int k = 0; k < ne && k < c.nc; k++)
        if (c.c1[k] != expect[k][0] || c.c2[k] != expect[k][1])
            mismatch++;
    CHECK_INT(mismatch, 0);
    float mean, max;
    cloth_strain(&c, &mean, &max);
    CHECK(max <= 0.4f && max > 0.3f);

    /* Nothing more to tear: a second step keeps the list. */
    cloth_step(&c);
    CHECK_INT(c.nc, 24);
    CHECK_INT(c.torn, 5);

    /* With tearing off the same stretch tears nothing. */
    struct cloth d;
    p.tearing = false;
    CHECK_INT(cloth_init(&d, &p), 0);
    d.x[5] = 1.9f;
    cloth_step(&d);
    CHECK_INT(d.nc, 29);
    CHECK_INT(d.torn, 0);
    cloth_free(&d);
    cloth_free(&c);
}

TEST(cloth_torn_cloth_solves_as_the_in_order_sweep)
{
    /* The torn cloth still solves exactly like the in-order sweep. */
    struct cloth_params p = tear_params();
    struct cloth c, e;
    CHECK_INT(cloth_init(&c, &p), 0);
    CHECK_INT(cloth_init(&e, &p), 0);
    pull_apart(&c);
    pull_apart(&e);
    CHECK_INT(e.nc, 24);
    c.prm.tearing = e.prm.tearing = false;
    c.prm.gravity = e.prm.gravity = -9.81f;
    c.prm.iterations = e.prm.iterations = 3;
    int diff = 0;
    for (int s = 0; s < 100; s++) {
        cloth_step(&c);
        reference_step(&e);
        diff += fx_cloth_differences(&c, &e);
    }
    CHECK_INT(diff, 0);
    cloth_free(&e);
    cloth_free(&c);
}

TEST(cloth_tearing_under_a_pull)
{
    struct cloth_params p = fx_cloth_params(12, 10, 2);
    p.tearing = true;
    p.tear_strain = 0.5f;
    p.iterations = 8;
    struct cloth c;
    CHECK_INT(cloth_init(&c, &p), 0);
    int g = 9 * 12 + 6;
    cloth_grab(&c, g, c.x[g], c.y[g]);
    for (int s = 0; s < 300; s++) {
        cloth_move_grab(&c, c.x[g], c.y[g] - 0.05f);
        cloth_step(&c);
    }
    CHECK(c.torn > 0);
    CHECK_INT(c.nc + c.torn, c.nc_cap);
    /* Whatever survived is within the limit after the step that tore. */
    float mean, max;
    cloth_strain(&c, &mean, &max);
    CHECK(max <= 0.5f);
    CHECK(fx_cloth_finite(&c));
    cloth_free(&c);
}

/* ---- scissors ------------------------------------------------------------------ */

/* Whether constraint k of c is still there, by its particles. */
TEST(cloth_cut_by_hand)
{
    /* Spacing 1. A 2x2 cloth, (0,0) (1,0) / (0,-1) (1,-1), constraints H01 H23
     * V02 V13 D03 D12; a row of three, (0,0) (1,0) (2,0). Each cut on a fresh
     * cloth, and what it leaves, in order. */
    static const struct {
        int w, h;
        float cut[4];
        int left, pairs[6][2];
    } cases[] = {
        {2, 2, {0.5f, 0.5f, 0.5f, -1.5f}, 2, {{0, 2}, {1, 3}}}, /* down the middle */
        /* to (0.25,-0.25): across 0-2, ending on 0-3 (touching counts) */
        {2, 2, {-1.0f, -0.25f, 0.25f, -0.25f}, 4, {{0, 1}, {2, 3}, {1, 3}, {1, 2}}},
        /* nothing there, and a NaN: no change */
        {2, 2, {5, 5, 6, 6}, 6, {{0, 1}, {2, 3}, {0, 2}, {1, 3}, {0, 3}, {1, 2}}},
        {2, 2, {NAN, 0.0f, 0.5f, -0.5f}, 6, {{0, 1}, {2, 3}, {0, 2}, {1, 3}, {0, 3}, {1, 2}}},
        /* ending on particle 1 takes both its links; a point on a link that one */
        {3, 1, {1.0f, 1.0f, 1.0f, 0.0f}, 0, {{0}}},
        {3, 1, {1.5f, 0.0f, 1.5f, 0.0f}, 1, {{0, 1}}},
    };
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        struct cloth_params p = fx_cloth_params(cases[t].w, cases[t].h, 1);
        p.spacing = 1.0f;
        struct cloth c;
        CHECK_INT(cloth_init(&c, &p), 0);
        int before = c.nc, left = cases[t].left;
        const float *q = cases[t].cut;
        CHECK_INT(fx_cloth_cut(&c, q[0], q[1], q[2], q[3]), before - left);
        CHECK(c.nc == left && c.cut == before - left && c.torn == 0);
        for (int k = 0; k < left && k < c.nc; k++)
            CHECK_MSG(c.c1[k] == cases[t].pairs[k][0] && c.c2[k] == cases[t].pairs[k][1],
                      "case %zu: constraint %d is %d-%d", t, k, c.c1[k], c.c2[k]);
        cloth_free(&c);
    }
}

TEST(cloth_surface_for_drawing)
{
    /* A 2x2 cloth, spacing 1: its edges and tangents, its two triangles over
     * the diagonal 0-3 (hem 1, diagonal 2), then, that diagonal cut, the two
     * over the other, then, the top edge cut too, the one left. */
    struct cloth_params p = fx_cloth_params(2, 2, 1);
    p.spacing = 1.0f;
    struct cloth c;
    unsigned char e[4], uses[16];
    int tri[6];
    float t[16];
    CHECK_INT(cloth_init(&c, &p), 0);
    cloth_edges(&c, e);
    cloth_tangents(&c, e, t, NULL);
    CHECK(e[0] == 15 && e[1] == CLOTH_DOWN && e[2] == CLOTH_RIGHT && e[3] == 0);
    CHECK(t[12] == 1 && t[13] == 0 && t[14] == 0 && t[15] == -1);
    const float cuts[3][4] = {{0}, {0.1f, -0.3f, 0.3f, -0.1f}, {0.5f, 0.1f, 0.5f, -0.1f}};
    const int want[3][4] = {{0, 1, 3, 2}, {0, 1, 2, 2}, {1, 3, 2, 1}}; /* tri[0..2], count */
    for (int k = 0; k < 3; k++) {
        if (k > 0)
            CHECK_INT(fx_cloth_cut(&c, cuts[k][0], cuts[k][1], cuts[k][2], cuts[k][3]), 1);
        cloth_edges(&c, e);
        CHECK_INT(cloth_triangles(&c, e, tri, uses), want[k][3]);
        CHECK(tri[0] == want[k][0] && tri[1] == want[k][1] && tri[2] == want[k][2]);
    }
    /* Its edges 1-2, 1-3 and 2-3 border it; 0-2, intact, borders nothing now. */
    CHECK(uses[3] == 1 && uses[5] == 1 && uses[8] == 1 && uses[1] == 0 && (e[0] & CLOTH_DOWN));
    cloth_free(&c);
}

/* Not the solver's test: where a + t (b - a) = p + s (q - p), in long double.
 * 1 crossing, 0 not, -1 too close to call (near an end, or parallel). */
static int crosses(const float *a, const float *b, const float *p, const float *q)
{
    long double rx = (long double)b[0] - a[0], ry = (long double)b[1] - a[1];
    long double sx = (long double)q[0] - p[0], sy = (long double)q[1] - p[1];
    long double den = rx * sy - ry * sx, len = sqrtl((rx * rx + ry * ry) * (sx * sx + sy * sy));
    if (fabsl(den) <= 1e-6L * len) /* parallel */
        return -1;
    long double wx = (long double)p[0] - a[0], wy = (long double)p[1] - a[1];
    long double t = (wx * sy - wy * sx) / den, s = (wx * ry - wy * rx) / den;
    const long double m = 1e-4L;
    long double end = fminl(fminl(fabsl(t), fabsl(t - 1)), fminl(fabsl(s), fabsl(s - 1)));
    if (end < m && t > -m && t < 1 + m && s > -m && s < 1 + m)
        return -1;
    return t >= 0 && t <= 1 && s >= 0 && s <= 1;
}

TEST(cloth_cut_removes_exactly_what_it_crosses)
{
    struct rng rng = {.s = 7};
    int tried = 0, removed = 0;
    for (int variant = 0; variant < 2; variant++) {
        /* Twins of a 17x13 cloth pulled out of shape (variant 1: tearing, XPBD). */
        struct cloth_params prm = fx_cloth_params(17, 13, 2);
        if (variant == 1)
            prm.tearing = true, prm.tear_strain = 0.4f, prm.compliance = 1e-6f, prm.substeps = 2;
        struct cloth a, b, *cs[2] = {&a, &b};
        for (int r = 0, g = 12 * 17 + 4; r < 2; r++) {
            CHECK_INT(cloth_init(cs[r], &prm), 0);
            cloth_grab(cs[r], g, cs[r]->x[g], cs[r]->y[g]);
            for (int s = 0; s < 150; s++) {
                cloth_move_grab(cs[r], cs[r]->x[g] + 0.02f, cs[r]->y[g] + 0.015f);
                cloth_step(cs[r]);
            }
            cloth_release(cs[r], false, 0.0f, 0.0f);
            cs[r]->prm.tearing = false; /* the reference sweep does not tear */
        }
        CHECK(variant == 0 || a.torn > 0);
        int removed_before = removed;
        for (int cut = 0; cut < 12; cut++) {
            float p[2] = {-0.5f + 4.2f * rng_float(&rng), 0.3f - 3.2f * rng_float(&rng)};
            float q[2] = {-0.5f + 4.2f * rng_float(&rng), 0.3f - 3.2f * rng_float(&rng)};
            static int keep[2 * 1024]; /* 17x13: 796 constraints */
            int nk = 0, expect = 0, unclear = 0;
            for (int k = 0; k < a.nc; k++) {
                const float ea[2] = {a.x[a.c1[k]], a.y[a.c1[k]]};
                const float eb[2] = {a.x[a.c2[k]], a.y[a.c2[k]]};
                int x = crosses(ea, eb, p, q);
                unclear += x < 0;
                expect += x > 0;
                if (x == 0)
                    keep[nk++] = a.c1[k], keep[nk++] = a.c2[k];
            }
            if (unclear) /* a cut through a particle's neighbourhood: another */
                continue;
            tried++;
            int gone = fx_cloth_cut(&a, p[0], p[1], q[0], q[1]);
            CHECK_INT(fx_cloth_cut(&b, p[0], p[1], q[0], q[1]), gone);
            CHECK_MSG(gone == expect, "cut %d: removed %d, %d cross it", cut, gone, expect);
            int wrong = a.nc * 2 != nk;
            for (int k = 0; !wrong && k < a.nc; k++)
                wrong = a.c1[k] != keep[2 * k] || a.c2[k] != keep[2 * k + 1];
            CHECK_MSG(!wrong, "cut %d: the constraints left are not the others in order", cut);
            removed += gone;
        }
        CHECK_INT(a.cut, removed - removed_before);
        /* What is left solves exactly as the in-order sweep over it. */
        int diff = 0;
        for (int s = 0; s < 100; s++) {
            cloth_step(&a);
            reference_step(&b);
            diff += fx_cloth_differences(&a, &b);
        }
        CHECK_MSG(diff == 0, "variant %d: %d particle-steps differ after the cuts", variant, diff);
        cloth_free(&a), cloth_free(&b);
    }
    CHECK_MSG(tried >= 16 && removed > 50, "%d cuts tried, %d constraints removed", tried, removed);
}

/* The mean over columns j0..j1 of row i's particles: their distance to the
 * particle below, and their own height and the one below's. */
static void lips(const struct cloth *c, int i, int j0, int j1, double *gap, double *up,
                 double *down)
{
    int w = c->prm.w, n = 0;
    *gap = *up = *down = 0.0;
    for (int j = j0; j <= j1; j++, n++) {
        int a = i * w + j, b = a + w;
        *gap += hypot(c->x[a] - c->x[b], c->y[a] - c->y[b]);
        *up += c->y[a];
        *down += c->y[b];
    }
    *gap /= n, *up /= n, *down /= n;
}

TEST(cloth_slit_opens_under_the_weight_below)
{
    /* Issue 29: the seed's cloth (40 x 30, two pins) as the scene hangs it off
     * the preset (by colour, upright, buckle; and buckle in the seed's order),
     * settled for 2 s, then slit between rows 10 and 11 across the middle two
     * thirds (columns 7..32, a stroke through the midpoints of the particles
     * above and below). Over the next 3 s the slit opens as a real cloth's
     * does: in the middle half of it, the particles above and below end up on
     * average more than 3 rest lengths apart (measured 4.0 and 4.1; the seed's
     * constraints, which also push, hold it at 1.1: with both diagonals the
     * grid is a rigid framework in the plane), and the lower lip sinks more
     * than 2 spacings (measured 3.6 and 3.8; the seed's 0.0). Averaged over
     * the last second, 20 samples. */
    const int R = 10, j0 = 7, j1 = 32, m0 = j0 + (j1 - j0) / 4, m1 = j1 - (j1 - j0) / 4;
    for (int variant = 0; variant < 3; variant++) {
        struct cloth_params p;
        cloth_params_seed(&p);
        p.by_colour = variant != 1;
        p.upright = variant != 1;
        p.buckle = variant < 2;
        struct cloth c;
        CHECK_INT(cloth_init(&c, &p), 0);
        fx_cloth_steps(&c, 400);
        float stroke[2 * 40];
        int n = 0, w = p.w;
        for (int j = j0; j <= j1; j++, n++) {
            int a = R * w + j, b = a + w;
            float past = j == j0 ? -0.3f : j == j1 ? 0.3f : 0.0f; /* beyond the ends */
            stroke[2 * n] = 0.5f * (c.x[a] + c.x[b]) + past * p.spacing;
            stroke[2 * n + 1] = 0.5f * (c.y[a] + c.y[b]);
        }
        /* Every column's vertical and both diagonals, the ends' one diagonal
         * each more or less: some 78. */
        int gone = cloth_cut_path(&c, stroke, n);
        CHECK_MSG(gone >= 3 * (j1 - j0) && gone <= 3 * (j1 - j0 + 2), "variant %d: %d cut",
                  variant, gone);
        double gap0, up0, down0, gap, up, down, sgap = 0, sdrop = 0;
        lips(&c, R, m0, m1, &gap0, &up0, &down0);
        fx_cloth_steps(&c, 400);
        for (int k = 0; k < 20; k++) {
            fx_cloth_steps(&c, 10);
            lips(&c, R, m0, m1, &gap, &up, &down);
            sgap += gap / 20.0 / p.spacing;
            sdrop += (down0 - down) / 20.0 / p.spacing;
        }
        CHECK(fx_cloth_finite(&c));
        if (p.buckle)
            CHECK_MSG(sgap > 3.0 && sdrop > 2.0,
                      "variant %d: the slit %.2f spacings open, its lower lip %.2f down",
                      variant, sgap, sdrop);
        else
            CHECK_MSG(sgap < 2.0 && sdrop < 1.5,
                      "seed: the slit %.2f spacings open, its lower lip %.2f down", sgap, sdrop);
        cloth_free(&c);
    }
}
