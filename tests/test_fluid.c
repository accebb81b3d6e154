/*
 * test_fluid.c — the Stable Fluids solver: projection, advection, the dye's
 * total, splats, extremes, determinism (run to run, and the same bits with no
 * pool or with 1, 2 or 4 threads), resize.
 */
#include "fixtures.h"
#include "fluid_internal.h"
#include "pool.h"
#include "swirl.h"
#include "test.h"

#include <math.h>
#include <string.h>

static void stir(struct fluid *f, struct rng *r, int n)
{
    for (int k = 0; k < n; k++) {
        float x = rng_float(r) * (float)f->dw, y = rng_float(r) * (float)f->dh;
        float rgb[3] = {rng_float(r), rng_float(r), rng_float(r)};
        fluid_splat(f, x, y, 0.08f * (float)f->dw, (rng_float(r) - 0.5f) * 400.0f,
                    (rng_float(r) - 0.5f) * 400.0f, (rng_float(r) - 0.5f) * 200.0f, rgb);
    }
}

TEST(fluid_projection_reaches_its_target)
{
    struct fluid_params p;
    fluid_params_default(&p);
    p.tolerance = 1e-3f;
    struct fluid f;
    CHECK(fluid_init(&f, &p, 150, 150, 150, 150) == 0);
    struct rng r = {7};
    stir(&f, &r, 12);
    float before = fluid_divergence_norm(&f);
    fluid_project(&f);
    CHECK(f.residual0 > 0.5f); /* a fresh field is far from divergence-free */
    CHECK_MSG(f.residual <= 1e-3f, "residual %g after %d cycles", f.residual, f.cycles);
    CHECK(f.cycles >= 1 && f.cycles <= 8);
    CHECK(fluid_divergence_norm(&f) < 0.01f * before);
    fluid_free(&f);
}

TEST(fluid_residual_below_1e2_every_step)
{
    struct fluid_params p;
    fluid_params_default(&p);
    struct fluid f;
    CHECK(fluid_init(&f, &p, 96, 60, 192, 120) == 0);
    struct rng r = {11};
    float worst = 0.0f;
    for (int s = 0; s < 120; s++) {
        if (s % 10 == 0)
            stir(&f, &r, 3);
        fluid_step(&f);
        worst = fmaxf(worst, f.residual);
    }
    CHECK_MSG(worst <= 1e-2f, "worst residual %g", worst);
    fluid_free(&f);
}

/* A steady vortex filling the box: stream function psi = a sin(pi x/nx)
 * sin(pi y/ny) on the velocity nodes, u = d psi/dy and v = -d psi/dx as
 * differences, so the discrete divergence is exactly 0 and the walls are closed. */
static void set_vortex(struct fluid *f, float a)
{
    const int nx = f->nx, ny = f->ny;
#define PSI(i, j) (a * sinf(3.14159265f * (float)(i) / (float)nx) * \
                   sinf(3.14159265f * (float)(j) / (float)ny))
    for (int j = 0; j < ny; j++)
        for (int i = 0; i <= nx; i++)
            f->u[j * (nx + 1) + i] = PSI(i, j + 1) - PSI(i, j);
    for (int j = 0; j <= ny; j++)
        for (int i = 0; i < nx; i++)
            f->v[j * nx + i] = -(PSI(i + 1, j) - PSI(i, j));
#undef PSI
}

/* Centroid of the red channel, in dye cells. */
static void red_centroid(const struct fluid *f, double *cx, double *cy)
{
    double sx = 0.0, sy = 0.0, w = 0.0;
    for (int j = 0; j < f->dh; j++)
        for (int i = 0; i < f->dw; i++) {
            const double d = f->dye[3 * (j * f->dw + i)];
            sx += d * (i + 0.5);
            sy += d * (j + 0.5);
            w += d;
        }
    *cx = sx / w;
    *cy = sy / w;
}

TEST(fluid_advection_carries_dye_with_the_flow)
{
    /* A small blob of dye a quarter of the way across, on the vortex's
     * horizontal midline, where the flow is straight along y at speed
     * v = -a pi/nx cos(pi/4): after 10 steps its centre has moved by v t, and
     * hardly across. On a dye grid equal to the velocity grid and on a finer one. */
    const int vel = 64;
    const float a = 230.0f;
    for (int fine = 1; fine <= 2; fine++) {
        struct fluid_params p;
        fluid_params_default(&p);
        p.decay = p.dissipation = p.vorticity = 0.0f;
        struct fluid f;
        CHECK(fluid_init(&f, &p, vel, vel, fine * vel, fine * vel) == 0);
        set_vortex(&f, a);
        const float rgb[3] = {1.0f, 0.0f, 0.0f};
        fluid_splat(&f, 0.25f * (float)f.dw, 0.5f * (float)f.dh, 1.5f * (float)fine, 0.0f, 0.0f,
                    0.0f, rgb);
        double x0, y0, x1, y1;
        red_centroid(&f, &x0, &y0);
        const int steps = 10;
        for (int s = 0; s < steps; s++)
            fluid_step(&f);
        red_centroid(&f, &x1, &y1);
        const double speed = -a * 3.14159265 / vel * cos(3.14159265 / 4.0) * fine; /* dye cells/s */
        const double want = speed * steps * p.dt;
        CHECK_MSG(fabs((y1 - y0) - want) <= 0.05 * fabs(want), "dye %dx: moved %g along y, want %g",
                  fine, y1 - y0, want);
        CHECK_MSG(fabs(x1 - x0) <= 0.15 * fabs(want), "dye %dx: moved %g across", fine, x1 - x0);
        fluid_free(&f);
    }
}

TEST(fluid_dye_rescale_keeps_the_total)
{
    /* Bilinear back-tracing loses dye; the step scales each channel back to
     * the total it had, so without decay or diffusion hard stirring keeps it. */
    struct fluid_params p;
    fluid_params_default(&p);
    p.decay = 0.0f;
    p.diffusion = 0.0f;
    struct fluid f;
    CHECK(fluid_init(&f, &p, 64, 64, 128, 128) == 0);
    struct rng r = {3};
    stir(&f, &r, 8);
    float total0 = fluid_total_dye(&f);
    float first = f.dye[3 * (64 * 128 + 64)];
    for (int s = 0; s < 100; s++)
        fluid_step(&f);
    float total1 = fluid_total_dye(&f);
    CHECK_MSG(fabsf(total1 - total0) <= 0.01f * total0, "dye %g -> %g", total0, total1);
    /* ... while it really moved. */
    CHECK(fabsf(f.dye[3 * (64 * 128 + 64)] - first) > 1e-3f);
    CHECK(fluid_kinetic_energy(&f) > 0.0f);
    fluid_free(&f);
}

TEST(fluid_splat_adds_what_it_says)
{
    struct fluid_params p;
    fluid_params_default(&p);
    struct fluid f;
    CHECK(fluid_init(&f, &p, 50, 50, 100, 100) == 0);
    float rgb[3] = {1.0f, 0.5f, 0.25f};
    float r = 6.0f;
    fluid_splat(&f, 50.0f, 50.0f, r, 0, 0, 0, rgb);
    /* A Gaussian exp(-d^2/r^2) of peak c holds pi r^2 c; per dye cell of 100x100. */
    float expect = 3.14159265f * r * r * (1.0f + 0.5f + 0.25f) / (100.0f * 100.0f);
    CHECK_NEAR(fluid_total_dye(&f), expect, 0.01f * expect);
    /* The peak sits at the centre. */
    float c = f.dye[3 * (49 * 100 + 49)];
    CHECK(c > 0.9f && c <= 1.0f);
    /* Velocity: a push to the right moves u right near the centre only. */
    fluid_splat(&f, 50.0f, 50.0f, r, 100.0f, 0, 0, NULL);
    CHECK(f.u[25 * 51 + 25] > 40.0f);
    CHECK_NEAR(f.u[2 * 51 + 2], 0.0f, 1e-6);
    fluid_free(&f);
}

static void run_extreme(struct fluid_params *p, int nx, int ny, int dw, int dh, int steps)
{
    struct fluid f;
    CHECK(fluid_init(&f, p, nx, ny, dw, dh) == 0);
    struct rng r = {99};
    for (int s = 0; s < steps; s++) {
        float rgb[3] = {1e6f, 1e6f, 1e6f};
        fluid_splat(&f, rng_float(&r) * (float)dw, rng_float(&r) * (float)dh, 2.0f, 1e7f,
                    -1e7f, 1e7f, rgb);
        fluid_step(&f);
    }
    CHECK_MSG(fx_fluid_finite(&f), "non-finite values on a %dx%d grid", nx, ny);
    fluid_free(&f);
}

TEST(fluid_no_nan_at_extremes)
{
    struct fluid_params p;
    fluid_params_default(&p);
    p.viscosity = 0.0f;
    p.vorticity = 200.0f;
    run_extreme(&p, 4, 4, 4, 4, 1000);
    run_extreme(&p, 1, 1, 1, 1, 50);
    p.viscosity = 50.0f;
    p.diffusion = 50.0f;
    run_extreme(&p, 40, 20, 80, 40, 200);
    p.viscosity = 0.0f;
    p.diffusion = 0.0f;
    run_extreme(&p, 400, 200, 400, 200, 20);
}

TEST(fluid_is_deterministic)
{
    struct fluid_params p;
    fluid_params_default(&p);
    p.viscosity = 0.5f;
    p.diffusion = 0.2f;
    struct fluid a, b;
    CHECK(fluid_init(&a, &p, 40, 30, 80, 60) == 0);
    CHECK(fluid_init(&b, &p, 40, 30, 80, 60) == 0);
    struct rng ra = {5}, rb = {5};
    for (int s = 0; s < 60; s++) {
        if (s % 7 == 0)
            {
            stir(&a, &ra, 2);
            stir(&b, &rb, 2);
        }
        fluid_step(&a);
        fluid_step(&b);
    }
    CHECK(memcmp(a.u, b.u, (size_t)41 * 30 * sizeof(float)) == 0);
    CHECK(memcmp(a.dye, b.dye, (size_t)3 * 80 * 60 * sizeof(float)) == 0);
    fluid_free(&a);
    fluid_free(&b);
}

TEST(fluid_resize_keeps_dye_and_shape)
{
    struct fluid_params p;
    fluid_params_default(&p);
    struct fluid f;
    CHECK(fluid_init(&f, &p, 60, 40, 120, 80) == 0);
    struct rng r = {21};
    stir(&f, &r, 6);
    for (int s = 0; s < 20; s++)
        fluid_step(&f);
    float total0 = fluid_total_dye(&f);
    /* Where is the dye? Its centroid in relative coordinates should not move. */
    double cx0 = 0, w0 = 0;
    for (int j = 0; j < 80; j++)
        for (int i = 0; i < 120; i++) {
            float d = f.dye[3 * (j * 120 + i)];
            cx0 += d * (i + 0.5) / 120.0, w0 += d;
        }
    fluid_resize(&f, 90, 35, 180, 70);
    CHECK(f.dw == 180 && f.dh == 70);
    float total1 = fluid_total_dye(&f);
    CHECK_MSG(fabsf(total1 - total0) <= 0.03f * total0, "dye %g -> %g", total0, total1);
    double cx1 = 0, w1 = 0;
    for (int j = 0; j < 70; j++)
        for (int i = 0; i < 180; i++) {
            float d = f.dye[3 * (j * 180 + i)];
            cx1 += d * (i + 0.5) / 180.0, w1 += d;
        }
    CHECK_NEAR(cx1 / w1, cx0 / w0, 0.01);
    CHECK(f.residual <= 1e-2f);
    fluid_free(&f);
}

/* The same splats and steps on a pool of `threads` (0: no pool); a resize half
 * way, so the resampling and its projection run on the pool too. */
static int run_on(int threads, const struct fluid_params *p, int nx, int ny, int dw, int dh,
                  struct fluid *f, float stats[2])
{
    struct pool *pl = threads > 0 ? pool_create(threads) : NULL;
    if ((threads > 0 && !pl) || fluid_init(f, p, nx, ny, dw, dh) != 0) {
        pool_destroy(pl);
        return -1;
    }
    fluid_set_pool(f, pl);
    struct rng r = {17};
    for (int s = 0; s < 40; s++) {
        if (s % 8 == 0)
            stir(f, &r, 3);
        if (s == 20 && fluid_resize(f, nx + 8, ny + 4, dw + 16, dh + 8) != 0)
            break;
        fluid_step(f);
    }
    fluid_project(f);
    stats[0] = fluid_total_dye(f);
    stats[1] = fluid_kinetic_energy(f);
    fluid_set_pool(f, NULL);
    pool_destroy(pl);
    return 0;
}

static bool same_bits(const struct fluid *a, const struct fluid *b)
{
    size_t nu = (size_t)(a->nx + 1) * (size_t)a->ny, nv = (size_t)a->nx * (size_t)(a->ny + 1);
    size_t nd = 3 * (size_t)a->dw * (size_t)a->dh;
    return a->nx == b->nx && a->ny == b->ny && a->dw == b->dw && a->dh == b->dh &&
           memcmp(a->u, b->u, nu * sizeof(float)) == 0 &&
           memcmp(a->v, b->v, nv * sizeof(float)) == 0 &&
           memcmp(a->dye, b->dye, nd * sizeof(float)) == 0 &&
           memcmp(&a->residual, &b->residual, sizeof a->residual) == 0 &&
           a->cycles == b->cycles && a->diffuse_sweeps == b->diffuse_sweeps;
}

TEST_THREADS(fluid_same_bits_whatever_the_threads)
{
    /* Grids big enough for every pass to run on the threads (the coarse
     * multigrid levels stay on the caller), with viscosity and diffusion on so
     * the red-black diffusion runs too; a finer dye grid and an equal one. */
    static const int grids[][4] = {{96, 60, 192, 120}, {80, 80, 80, 80}};
    struct fluid_params p;
    fluid_params_default(&p);
    p.viscosity = 0.5f;
    p.diffusion = 0.2f;
    for (int g = 0; g < 2; g++) {
        const int *d = grids[g];
        struct fluid ref;
        float ref_stats[2], stats[2];
        CHECK(run_on(0, &p, d[0], d[1], d[2], d[3], &ref, ref_stats) == 0);
        CHECK(ref.diffuse_sweeps > 0 && ref.cycles > 0);
        static const int threads[] = {1, 2, 4};
        for (int t = 0; t < 3; t++) {
            struct fluid f;
            CHECK(run_on(threads[t], &p, d[0], d[1], d[2], d[3], &f, stats) == 0);
            CHECK_MSG(same_bits(&f, &ref), "grid %dx%d, dye %dx%d: %d threads differ from none",
                      d[0], d[1], d[2], d[3], threads[t]);
            CHECK(memcmp(stats, ref_stats, sizeof stats) == 0); /* the statistics too */
            fluid_free(&f);
        }
        fluid_free(&ref);
    }
}
