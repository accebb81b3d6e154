/*
 * test_cloth.c — the PBD cloth (src/sim/cloth.c).
 *
 * Covers the seed's setup (positions, constraint order, pins), one projection
 * against hand-computed shares, agreement of the packed solver with a plain
 * in-order Gauss-Seidel sweep built from cloth_project, the seed page's own
 * numbers, pins, iteration dependence, XPBD, tearing, extremes, determinism and
 * the pointer.
 */
#include "cloth.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A cloth from the seed preset with a few fields changed. */
static struct cloth_params seed_params(int w, int h, int fixed)
{
    struct cloth_params p;
    cloth_params_seed(&p);
    p.w = w;
    p.h = h;
    p.fixed = fixed;
    return p;
}

static void steps(struct cloth *c, int n)
{
    for (int i = 0; i < n; i++)
        cloth_step(c);
}

static float mean_strain(const struct cloth *c)
{
    float mean, max;
    cloth_strain(c, &mean, &max);
    return mean;
}

static bool all_finite(const struct cloth *c)
{
    for (int i = 0; i < c->n; i++)
        if (!isfinite(c->x[i]) || !isfinite(c->y[i]) || !isfinite(c->vx[i]) ||
            !isfinite(c->vy[i]))
            return false;
    return true;
}

/*
 * The step written out plainly from the public pieces: prediction, `iterations`
 * sweeps of cloth_project over the constraints in list order, velocities. The
 * packed solver in cloth_step must give exactly this.
 */
static void reference_step(struct cloth *c)
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
                cloth_project(c, k, at);
        float inv_h = 1.0f / h;
        for (int i = 0; i < c->n; i++)
            if (c->w[i] > 0.0f) {
                c->vx[i] = (c->x[i] - c->xold[i]) * inv_h;
                c->vy[i] = (c->y[i] - c->yold[i]) * inv_h;
            }
    }
    c->time += p->dt;
}

/* Number of particles where a and b differ (by value: +0 == -0). */
static int count_differences(const struct cloth *a, const struct cloth *b)
{
    int bad = 0;
    for (int i = 0; i < a->n; i++)
        if (a->x[i] != b->x[i] || a->y[i] != b->y[i] || a->vx[i] != b->vx[i] ||
            a->vy[i] != b->vy[i])
            bad++;
    return bad;
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
    struct cloth_params p = seed_params(0, 5, 2);
    CHECK_INT(cloth_init(&c, &p), -1);
    p = seed_params(5, -1, 2);
    CHECK_INT(cloth_init(&c, &p), -1);
    p = seed_params(5, 5, 2);
    p.spacing = 0.0f;
    CHECK_INT(cloth_init(&c, &p), -1);
    p.spacing = NAN;
    CHECK_INT(cloth_init(&c, &p), -1);

    /* Degenerate but valid: a single particle, a single row, a single column. */
    p = seed_params(1, 1, 2);
    CHECK_INT(cloth_init(&c, &p), 0);
    CHECK_INT(c.nc, 0);
    steps(&c, 10);
    CHECK(c.x[0] == 0.0f && c.y[0] == 0.0f);
    cloth_free(&c);
    p = seed_params(6, 1, 1);
    CHECK_INT(cloth_init(&c, &p), 0);
    CHECK_INT(c.nc, 5);
    steps(&c, 100);
    CHECK(all_finite(&c) && c.y[5] < -0.1f);
    cloth_free(&c);
    p = seed_params(1, 6, 4);
    CHECK_INT(cloth_init(&c, &p), 0);
    CHECK_INT(c.nc, 5);
    CHECK(c.fixed[0] && c.fixed[5]);
    cloth_free(&c);
}

TEST(cloth_projection_mass_weighted)
{
    struct cloth_params p = seed_params(2, 1, 1);
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

TEST(cloth_packed_solver_equals_in_order_sweep)
{
    /* PBD with 4 pins and a grabbed particle, then XPBD with substeps and an
     * odd mass: cloth_step and the plain in-order sweep agree exactly. */
    for (int variant = 0; variant < 2; variant++) {
        struct cloth_params p = seed_params(23, 17, 4);
        if (variant == 1) {
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
            diff += count_differences(&a, &b);
        }
        CHECK_MSG(diff == 0, "variant %d: %d particle-steps differ", variant, diff);
        CHECK(a.time == b.time);
        if (variant == 1)
            for (int k = 0; k < a.nc; k++)
                if (a.lambda[k] != b.lambda[k]) {
                    CHECK_MSG(0, "lambda %d differs", k);
                    break;
                }
        cloth_free(&a);
        cloth_free(&b);
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
    steps(&c, 2200);
    float cx, cy, miny;
    cloth_centroid(&c, &cx, &cy, &miny);
    CHECK_NEAR(cx, 3.89919002528859, 2e-4);
    CHECK_NEAR(cy, -3.0454302256226056, 2e-4);
    CHECK_NEAR(miny, -5.958818257491692, 2e-4);
    CHECK_NEAR(c.time, 11.0, 1e-3);
    cloth_free(&c);
}

TEST(cloth_pins_never_move)
{
    struct cloth_params p = seed_params(20, 15, 4);
    p.iterations = 5;
    struct cloth c;
    CHECK_INT(cloth_init(&c, &p), 0);
    int pins[4] = {0, 19, 14 * 20, 15 * 20 - 1};
    float px[4], py[4];
    for (int k = 0; k < 4; k++) {
        px[k] = c.x[pins[k]];
        py[k] = c.y[pins[k]];
    }
    int g = 7 * 20 + 9;
    int moved = 0, off_pointer = 0;
    for (int s = 0; s < 600; s++) {
        if (s == 100)
            cloth_grab(&c, g, c.x[g], c.y[g]);
        float gx = 1.9f + 1.5f * cosf(0.02f * (float)s), gy = -1.4f + 1.5f * sinf(0.02f * (float)s);
        if (s >= 100 && s < 500)
            cloth_move_grab(&c, gx, gy);
        if (s == 500)
            cloth_release(&c, true, 4.0f, 3.0f);
        cloth_step(&c);
        if (s >= 100 && s < 500 && (c.x[g] != gx || c.y[g] != gy))
            off_pointer++;
        for (int k = 0; k < 4; k++)
            if (c.x[pins[k]] != px[k] || c.y[pins[k]] != py[k] || c.vx[pins[k]] != 0.0f ||
                c.vy[pins[k]] != 0.0f)
                moved++;
    }
    CHECK_INT(moved, 0);
    CHECK_INT(off_pointer, 0);
    /* The rest of the cloth did move. */
    CHECK(fabsf(c.y[7 * 20 + 3] - (-1.4f)) > 1e-3f || fabsf(c.x[7 * 20 + 3] - 0.6f) > 1e-3f);
    cloth_free(&c);
}

TEST(cloth_strain_falls_with_iterations)
{
    /* A 10x10 cloth hanging from two corners for 5 s: more Gauss-Seidel sweeps,
     * a stiffer cloth (the seed page's point). */
    int its[3] = {1, 4, 16};
    float strain[3];
    for (int t = 0; t < 3; t++) {
        struct cloth_params p = seed_params(10, 10, 2);
        p.iterations = its[t];
        struct cloth c;
        CHECK_INT(cloth_init(&c, &p), 0);
        steps(&c, 1000);
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
    struct cloth_params p = seed_params(10, 10, 2);
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
    bool ok = all_finite(&c);
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

TEST(cloth_tearing_removes_overstretched)
{
    /* 4x3 grid, spacing 1, no gravity, no sweeps: the step leaves positions as
     * they are and then tears. Particle 5 (row 1, col 1) pulled to (1.9, -1),
     * particle 11 (row 2, col 3) to (3, -2.6). Strains by hand, limit 0.4:
     *   (4,5) 0.9  (5,6) 0.9  (0,5),(5,8) (sqrt(4.61)-sqrt2)/sqrt2 = 0.518
     *   (7,11) 0.6                                        -> torn
     *   (1,5),(5,9) 0.345  (2,5),(5,10) 0.289  (6,11) 0.334
     *   (10,11) 0.166                                     -> kept */
    struct cloth_params p = seed_params(4, 3, 1);
    p.spacing = 1.0f;
    p.gravity = 0.0f;
    p.iterations = 0;
    p.tearing = true;
    p.tear_strain = 0.4f;
    struct cloth c;
    CHECK_INT(cloth_init(&c, &p), 0);
    CHECK_INT(c.nc, 29);
    int before[29][2];
    for (int k = 0; k < 29; k++) {
        before[k][0] = c.c1[k];
        before[k][1] = c.c2[k];
    }
    c.x[5] = 1.9f;
    c.x[11] = 3.0f;
    c.y[11] = -2.6f;
    cloth_step(&c);
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

    /* The torn cloth still solves exactly like the in-order sweep. */
    struct cloth e;
    p.tearing = true;
    CHECK_INT(cloth_init(&e, &p), 0);
    e.x[5] = 1.9f;
    e.x[11] = 3.0f;
    e.y[11] = -2.6f;
    cloth_step(&e);
    CHECK_INT(e.nc, 24);
    c.prm.tearing = e.prm.tearing = false;
    c.prm.gravity = e.prm.gravity = -9.81f;
    c.prm.iterations = e.prm.iterations = 3;
    int diff = 0;
    for (int s = 0; s < 100; s++) {
        cloth_step(&c);
        reference_step(&e);
        diff += count_differences(&c, &e);
    }
    CHECK_INT(diff, 0);
    cloth_free(&e);
    cloth_free(&c);
}

TEST(cloth_tearing_under_a_pull)
{
    struct cloth_params p = seed_params(12, 10, 2);
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
    CHECK(all_finite(&c));
    cloth_free(&c);
}

TEST(cloth_no_nan_at_extremes)
{
    float gravity[2] = {1000.0f, -1000.0f};
    float dts[2] = {0.005f, 0.05f};
    int iters[2] = {1, 100};
    float masses[2] = {1e-3f, 1e3f};
    float comp[3] = {0.0f, 1e-9f, 1e30f};
    int subs[2] = {1, 8};
    int bad = 0;
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
            for (int i = 0; i < 2; i++)
                for (int m = 0; m < 2; m++)
                    for (int k = 0; k < 3; k++)
                        for (int s = 0; s < 2; s++) {
                            struct cloth_params p = seed_params(7, 5, 2);
                            p.gravity = gravity[a];
                            p.dt = dts[b];
                            p.iterations = iters[i];
                            p.mass = masses[m];
                            p.compliance = comp[k];
                            p.substeps = subs[s];
                            p.tearing = (a + k) & 1;
                            struct cloth c;
                            CHECK_INT(cloth_init(&c, &p), 0);
                            cloth_grab(&c, 17, 5.0f, 5.0f);
                            steps(&c, 10);
                            cloth_release(&c, true, 100.0f, -100.0f);
                            steps(&c, 10);
                            float mean, max, cx, cy, miny;
                            cloth_strain(&c, &mean, &max);
                            cloth_centroid(&c, &cx, &cy, &miny);
                            float ke = cloth_kinetic_energy(&c);
                            if (!all_finite(&c) || !isfinite(mean) || !isfinite(max) ||
                                !isfinite(cx) || !isfinite(cy) || !isfinite(miny) ||
                                !isfinite(ke))
                                bad++;
                            cloth_free(&c);
                        }
    CHECK_INT(bad, 0);

    /* The seed size at the harshest single settings. */
    struct cloth_params p;
    cloth_params_seed(&p);
    p.gravity = -1000.0f;
    p.dt = 0.05f;
    p.iterations = 1;
    struct cloth c;
    CHECK_INT(cloth_init(&c, &p), 0);
    steps(&c, 200);
    CHECK(all_finite(&c));
    cloth_free(&c);

    /* Nonsense settings are clamped or ignored, not propagated. */
    cloth_params_seed(&p);
    p.w = 6;
    p.h = 5;
    CHECK_INT(cloth_init(&c, &p), 0);
    c.prm.dt = NAN;
    cloth_step(&c);
    CHECK(c.time == 0.0f);
    c.prm.dt = 0.005f;
    c.prm.mass = NAN;
    c.prm.gravity = INFINITY;
    c.prm.compliance = INFINITY;
    c.prm.iterations = -3;
    c.prm.substeps = 0;
    steps(&c, 10);
    CHECK(all_finite(&c));
    c.prm.mass = 0.0f;
    c.prm.compliance = NAN;
    c.prm.iterations = 3;
    steps(&c, 10);
    CHECK(all_finite(&c));

    /* A particle poisoned from outside is put back, and so are its neighbours. */
    c.x[14] = NAN;
    c.xold[14] = NAN;
    c.vy[15] = INFINITY;
    steps(&c, 3);
    CHECK(all_finite(&c));

    /* A pointer at infinity or NaN does not reach the solver. */
    cloth_grab(&c, 13, NAN, 1.0f);
    cloth_move_grab(&c, 1e30f, -1e30f);
    steps(&c, 5);
    cloth_release(&c, true, NAN, INFINITY);
    steps(&c, 5);
    CHECK(all_finite(&c));
    cloth_free(&c);
}

TEST(cloth_deterministic)
{
    struct cloth_params p;
    cloth_params_seed(&p);
    p.tearing = true;
    p.tear_strain = 0.3f;
    p.iterations = 3;
    struct cloth a, b;
    struct cloth *cs[2] = {&a, &b};
    for (int r = 0; r < 2; r++) {
        struct cloth *c = cs[r];
        CHECK_INT(cloth_init(c, &p), 0);
        for (int s = 0; s < 400; s++) {
            if (s == 50)
                cloth_grab(c, 25 * 40 + 20, c->x[25 * 40 + 20], c->y[25 * 40 + 20]);
            if (s > 50 && s < 300)
                cloth_move_grab(c, 4.0f + 0.02f * (float)(s - 50), -5.0f - 0.02f * (float)(s - 50));
            if (s == 300)
                cloth_release(c, true, 2.0f, 5.0f);
            cloth_step(c);
        }
    }
    CHECK(a.torn > 0);
    CHECK_INT(a.torn, b.torn);
    CHECK_INT(a.nc, b.nc);
    size_t n = (size_t)a.n * sizeof(float);
    CHECK(memcmp(a.x, b.x, n) == 0);
    CHECK(memcmp(a.y, b.y, n) == 0);
    CHECK(memcmp(a.vx, b.vx, n) == 0);
    CHECK(memcmp(a.vy, b.vy, n) == 0);
    CHECK(memcmp(a.c1, b.c1, (size_t)a.nc * sizeof(int)) == 0);
    cloth_free(&a);
    cloth_free(&b);
}

TEST(cloth_grab_and_release)
{
    struct cloth_params p;
    cloth_params_seed(&p);
    struct cloth c;
    CHECK_INT(cloth_init(&c, &p), 0);
    int w = p.w;

    /* Nearest within range, or none. */
    CHECK_INT(cloth_nearest(&c, 0.21f, -0.19f, 0.05f), w + 1);
    CHECK_INT(cloth_nearest(&c, 0.3f, -0.3f, 0.2f) >= 0, 1);
    CHECK_INT(cloth_nearest(&c, 0.1f, -0.1f, 0.01f), -1);
    CHECK_INT(cloth_nearest(&c, -5.0f, 5.0f, 1.0f), -1);
    CHECK_INT(cloth_nearest(&c, 0.0f, 0.0f, -1.0f), -1);

    steps(&c, 100);
    int g = 20 * w + 10;
    float vx0 = c.vx[g], vy0 = c.vy[g];
    CHECK(vy0 != 0.0f);
    cloth_grab(&c, g, 1.0f, -2.0f);
    CHECK_INT(c.grabbed, g);
    CHECK(c.w[g] == 0.0f);
    CHECK(c.x[g] == 1.0f && c.y[g] == -2.0f);
    int nb = g + 1;
    for (int s = 0; s < 200; s++) {
        cloth_move_grab(&c, 1.0f + 0.005f * (float)s, -2.0f);
        cloth_step(&c);
    }
    CHECK(c.x[g] == 1.995f && c.y[g] == -2.0f);
    /* Its neighbour followed: still about a spacing away (the cloth bunches a
     * little where it is dragged), not back where it started. */
    float dx = c.x[nb] - c.x[g], dy = c.y[nb] - c.y[g];
    CHECK(sqrtf(dx * dx + dy * dy) > 0.1f && sqrtf(dx * dx + dy * dy) < 0.25f);
    /* Kinematic: its velocity is left as it was, and it holds no energy. */
    CHECK(c.vx[g] == vx0 && c.vy[g] == vy0);

    /* Released as in the seed: free again, with the velocity it had. */
    cloth_release(&c, false, 9.0f, 9.0f);
    CHECK_INT(c.grabbed, -1);
    CHECK(c.w[g] == 2.0f);
    CHECK(c.vx[g] == vx0 && c.vy[g] == vy0);
    cloth_step(&c);
    CHECK(c.x[g] != 1.995f || c.y[g] != -2.0f);

    /* Released with the pointer's velocity: it flies on further than a twin
     * let go without it. */
    struct cloth a, b;
    CHECK_INT(cloth_init(&a, &p), 0);
    CHECK_INT(cloth_init(&b, &p), 0);
    steps(&a, 100);
    steps(&b, 100);
    cloth_grab(&a, g, a.x[g], a.y[g]);
    cloth_grab(&b, g, b.x[g], b.y[g]);
    cloth_release(&a, true, 60.0f, -10.0f);
    cloth_release(&b, false, 0.0f, 0.0f);
    CHECK(a.vx[g] == 60.0f && a.vy[g] == -10.0f);
    CHECK(b.vx[g] == vx0 && b.vy[g] == vy0);
    cloth_step(&a);
    cloth_step(&b);
    CHECK(a.x[g] > b.x[g] + 0.005f && a.y[g] < b.y[g]);
    CHECK(cloth_kinetic_energy(&a) > cloth_kinetic_energy(&b));
    cloth_free(&a);
    cloth_free(&b);

    /* Grabbing another lets go of the first. */
    cloth_grab(&c, g, 3.0f, -3.0f);
    cloth_grab(&c, g + 2, 3.4f, -3.0f);
    CHECK_INT(c.grabbed, g + 2);
    CHECK(c.w[g] == 2.0f && c.w[g + 2] == 0.0f);
    cloth_release(&c, false, 0.0f, 0.0f);
    cloth_release(&c, false, 0.0f, 0.0f); /* nothing grabbed: no effect */
    CHECK(c.w[g + 2] == 2.0f);

    /* A pin can be dragged (as in the seed) and stays pinned where it is left. */
    cloth_grab(&c, 0, -1.0f, 1.0f);
    cloth_release(&c, true, 5.0f, 5.0f);
    CHECK(c.w[0] == 0.0f);
    steps(&c, 50);
    CHECK(c.x[0] == -1.0f && c.y[0] == 1.0f);
    CHECK(c.vx[0] == 0.0f && c.vy[0] == 0.0f);
    cloth_free(&c);
}

TEST(cloth_statistics)
{
    struct cloth_params p = seed_params(5, 4, 2);
    struct cloth c;
    CHECK_INT(cloth_init(&c, &p), 0);
    float mean, max, cx, cy, miny;
    cloth_strain(&c, &mean, &max);
    CHECK(mean < 1e-6f && max < 1e-6f);
    cloth_centroid(&c, &cx, &cy, &miny);
    CHECK_NEAR(cx, 0.4, 1e-6);
    CHECK_NEAR(cy, -0.3, 1e-6);
    CHECK_NEAR(miny, -0.6, 1e-6);
    CHECK(cloth_kinetic_energy(&c) == 0.0f);

    /* Free particles at (1,2) m/s: 18 * 1/2 * 0.5 kg * 5 m^2/s^2. */
    for (int i = 0; i < c.n; i++) {
        c.vx[i] = 1.0f;
        c.vy[i] = 2.0f;
    }
    CHECK_NEAR(cloth_kinetic_energy(&c), 18 * 0.5 * 0.5 * 5.0, 1e-4);
    cloth_free(&c);

    /* One of one constraint stretched to twice its length: strain 1. */
    p = seed_params(2, 1, 1);
    p.spacing = 0.25f;
    CHECK_INT(cloth_init(&c, &p), 0);
    c.x[1] = 0.5f;
    cloth_strain(&c, &mean, &max);
    CHECK(mean == 1.0f && max == 1.0f);
    cloth_free(&c);

    /* Mean and max over a known pair: a 3x1 cloth, one link at 1.5x, one at rest. */
    p = seed_params(3, 1, 1);
    p.spacing = 0.25f;
    CHECK_INT(cloth_init(&c, &p), 0);
    c.x[1] = 0.375f;
    c.x[2] = 0.625f;
    cloth_strain(&c, &mean, &max);
    CHECK(mean == 0.25f && max == 0.5f);
    cloth_free(&c);
}

TEST(cloth_mass_changes_live)
{
    /* The step re-derives inverse masses when prm.mass changes (the seed's GUI
     * sets sim.mass on the fly); with uniform masses PBD does not depend on
     * it, but the kinetic energy does. */
    struct cloth_params p = seed_params(8, 6, 2);
    struct cloth a, b;
    CHECK_INT(cloth_init(&a, &p), 0);
    CHECK_INT(cloth_init(&b, &p), 0);
    steps(&a, 50);
    steps(&b, 50);
    b.prm.mass = 2.0f;
    steps(&a, 50);
    steps(&b, 50);
    CHECK(b.w[1] == 0.5f && b.w[0] == 0.0f);
    CHECK_INT(count_differences(&a, &b), 0);
    CHECK_NEAR(cloth_kinetic_energy(&b), 4.0 * cloth_kinetic_energy(&a),
               1e-4 * cloth_kinetic_energy(&b) + 1e-9);
    CHECK(cloth_kinetic_energy(&a) > 0.0f);
    cloth_free(&a);
    cloth_free(&b);
}
