/*
 * bench.c — swirl-bench, the program `make bench` runs: the figures the issues
 * ask for, each a ratio or a rate measured in this one run on this machine.
 * Nothing here is a test; the tests never look at a clock. It is built beside
 * swirl from the same objects and is never installed.
 */
#include "bench.h"
#include "cloth.h"
#include "fluid.h"
#include "frame.h"
#include "headless.h"
#include "pbf.h"
#include "pool.h"
#include "scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define REPEATS 3 /* timed runs of each case, interleaved; the best one counts */
/* ... and of the cases timed on one thread and on two: the two-thread figure
 * needs the second core free, which on a shared machine comes and goes. */
#define THREAD_REPEATS 7

/* The solvers' threads for the case being timed: NULL (one) or a pool of two. */
static struct pool *bench_pool;

/* The best of THREAD_REPEATS runs of a case on one thread and on two
 * (interleaved). */
static void one_and_two(double (*fn)(const void *), const void *arg, struct pool *two,
                        double *t1, double *t2)
{
    *t1 = *t2 = 1e9;
    for (int r = 0; r < THREAD_REPEATS; r++) {
        bench_pool = NULL;
        *t1 = fmin(*t1, fn(arg));
        bench_pool = two;
        *t2 = fmin(*t2, fn(arg));
    }
    bench_pool = NULL;
}

/* ---- Stam's reference solver (GDC 2003), as the paper writes it ---------- */

struct stam {
    int n;
    float *u, *v, *u0, *v0, *d[3], *d0[3];
};

#define SIX(n, i, j) ((i) + ((n) + 2) * (j))

static void stam_set_bnd(int n, int b, float *x)
{
    for (int i = 1; i <= n; i++) {
        x[SIX(n, 0, i)] = b == 1 ? -x[SIX(n, 1, i)] : x[SIX(n, 1, i)];
        x[SIX(n, n + 1, i)] = b == 1 ? -x[SIX(n, n, i)] : x[SIX(n, n, i)];
        x[SIX(n, i, 0)] = b == 2 ? -x[SIX(n, i, 1)] : x[SIX(n, i, 1)];
        x[SIX(n, i, n + 1)] = b == 2 ? -x[SIX(n, i, n)] : x[SIX(n, i, n)];
    }
    x[SIX(n, 0, 0)] = 0.5f * (x[SIX(n, 1, 0)] + x[SIX(n, 0, 1)]);
    x[SIX(n, 0, n + 1)] = 0.5f * (x[SIX(n, 1, n + 1)] + x[SIX(n, 0, n)]);
    x[SIX(n, n + 1, 0)] = 0.5f * (x[SIX(n, n, 0)] + x[SIX(n, n + 1, 1)]);
    x[SIX(n, n + 1, n + 1)] = 0.5f * (x[SIX(n, n, n + 1)] + x[SIX(n, n + 1, n)]);
}

static void stam_lin_solve(int n, int b, float *x, const float *x0, float a, float c)
{
    for (int k = 0; k < 20; k++) {
        for (int i = 1; i <= n; i++)
            for (int j = 1; j <= n; j++)
                x[SIX(n, i, j)] = (x0[SIX(n, i, j)] +
                                   a * (x[SIX(n, i - 1, j)] + x[SIX(n, i + 1, j)] +
                                        x[SIX(n, i, j - 1)] + x[SIX(n, i, j + 1)])) / c;
        stam_set_bnd(n, b, x);
    }
}

static void stam_diffuse(int n, int b, float *x, const float *x0, float diff, float dt)
{
    float a = dt * diff * (float)n * (float)n;
    stam_lin_solve(n, b, x, x0, a, 1 + 4 * a);
}

static void stam_advect(int n, int b, float *d, const float *d0, const float *u, const float *v,
                        float dt)
{
    float dt0 = dt * (float)n;
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++) {
            float x = (float)i - dt0 * u[SIX(n, i, j)], y = (float)j - dt0 * v[SIX(n, i, j)];
            x = clampf(x, 0.5f, (float)n + 0.5f);
            y = clampf(y, 0.5f, (float)n + 0.5f);
            int i0 = (int)x, j0 = (int)y;
            float s1 = x - (float)i0, s0 = 1 - s1, t1 = y - (float)j0, t0 = 1 - t1;
            d[SIX(n, i, j)] = s0 * (t0 * d0[SIX(n, i0, j0)] + t1 * d0[SIX(n, i0, j0 + 1)]) +
                              s1 * (t0 * d0[SIX(n, i0 + 1, j0)] + t1 * d0[SIX(n, i0 + 1, j0 + 1)]);
        }
    stam_set_bnd(n, b, d);
}

static void stam_project(int n, float *u, float *v, float *p, float *div)
{
    float h = 1.0f / (float)n;
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++) {
            div[SIX(n, i, j)] = -0.5f * h * (u[SIX(n, i + 1, j)] - u[SIX(n, i - 1, j)] +
                                             v[SIX(n, i, j + 1)] - v[SIX(n, i, j - 1)]);
            p[SIX(n, i, j)] = 0;
        }
    stam_set_bnd(n, 0, div);
    stam_set_bnd(n, 0, p);
    stam_lin_solve(n, 0, p, div, 1, 4);
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++) {
            u[SIX(n, i, j)] -= 0.5f * (float)n * (p[SIX(n, i + 1, j)] - p[SIX(n, i - 1, j)]);
            v[SIX(n, i, j)] -= 0.5f * (float)n * (p[SIX(n, i, j + 1)] - p[SIX(n, i, j - 1)]);
        }
    stam_set_bnd(n, 1, u);
    stam_set_bnd(n, 2, v);
}

#define SWAPF(a, b) do { float *t_ = (a); (a) = (b); (b) = t_; } while (0)

static void stam_step(struct stam *s, float visc, float diff, float dt)
{
    int n = s->n;
    size_t size = (size_t)(n + 2) * (size_t)(n + 2);
    /* add_source with a source field: a stirring blob each step */
    for (size_t k = 0; k < size; k++)
        s->u[k] += dt * s->u0[k], s->v[k] += dt * s->v0[k];
    SWAPF(s->u0, s->u); stam_diffuse(n, 1, s->u, s->u0, visc, dt);
    SWAPF(s->v0, s->v); stam_diffuse(n, 2, s->v, s->v0, visc, dt);
    stam_project(n, s->u, s->v, s->u0, s->v0);
    SWAPF(s->u0, s->u); SWAPF(s->v0, s->v);
    stam_advect(n, 1, s->u, s->u0, s->u0, s->v0, dt);
    stam_advect(n, 2, s->v, s->v0, s->u0, s->v0, dt);
    stam_project(n, s->u, s->v, s->u0, s->v0);
    for (int c = 0; c < 3; c++) {
        SWAPF(s->d0[c], s->d[c]); stam_diffuse(n, 0, s->d[c], s->d0[c], diff, dt);
        SWAPF(s->d0[c], s->d[c]); stam_advect(n, 0, s->d[c], s->d0[c], s->u, s->v, dt);
    }
    memset(s->u0, 0, size * sizeof(float));
    memset(s->v0, 0, size * sizeof(float));
}

/* ---- helpers -------------------------------------------------------------- */

static double ms_since(double t0) { return (frame_now() - t0) * 1000.0; }

/* Runs node on the seed page's own code (tests/bench/seedrun.js, from the
 * source tree); returns ms per step or -1. No shell: the paths go as arguments. */
/* Where the bench finds what it runs: only where the command line says, never
 * the current directory or PATH. */
static struct {
    const char *script, *seeds, *node;
} files = {"", "", "/usr/bin/node"};

static double seed_js(const char *seed_file, const char *kind, int steps, int warm, int block)
{
    const char *script = files.script;
    char path[1100], nsteps[16], nwarm[16], nblock[16], line[512];
    snprintf(nwarm, sizeof nwarm, "%d", warm);
    snprintf(nblock, sizeof nblock, "%d", block);
    snprintf(path, sizeof path, "%s/%s", files.seeds, seed_file);
    snprintf(nsteps, sizeof nsteps, "%d", steps);
    if (!*files.seeds || !*script) {
        printf("  (no --seeds and --script: the JavaScript comparison is left out)\n");
        return -1;
    }
    if (access(path, R_OK) != 0) {
        printf("  (seed page %s not found: --seeds names the seeds' folder)\n", path);
        return -1;
    }
    if (access(script, R_OK) != 0) {
        printf("  (seed runner '%s' not found: --script names tests/bench/seedrun.js)\n", script);
        return -1;
    }
    if (access(files.node, X_OK) != 0) {
        printf("  (%s not found: the JavaScript comparison is skipped; --node names "
               "another)\n", files.node);
        return -1;
    }
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], STDOUT_FILENO);
        close(fd[0]);
        close(fd[1]);
        execl(files.node, "node", script, path, kind, nsteps, nwarm, nblock, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    double ms = -1;
    FILE *p = pid > 0 ? fdopen(fd[0], "r") : NULL;
    if (p) {
        while (fgets(line, sizeof line, p)) {
            char *m = strstr(line, "\"ms_per_step\":");
            if (m)
                ms = atof(m + 14);
        }
        fclose(p);
    } else {
        close(fd[0]);
    }
    int status = 0;
    if (pid > 0)
        waitpid(pid, &status, 0);
    if (pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 127)
        printf("  (%s would not run: the JavaScript comparison is skipped)\n", files.node);
    return ms;
}

static void splat_stir(struct fluid *f, int k)
{
    float a = 0.15f * (float)k;
    float x = (0.5f + 0.3f * cosf(a)) * (float)f->dw, y = (0.5f + 0.3f * sinf(a)) * (float)f->dh;
    float rgb[3] = {0.5f, 0.3f, 0.2f};
    fluid_splat(f, x, y, 4.0f, -60.0f * sinf(a), 60.0f * cosf(a), 20.0f, rgb);
}

/* ---- dye ------------------------------------------------------------------ */

/* Our step vs Stam's reference step at 150x150 with RGB dye (the reference is
 * written above from the paper: every field diffused with 20 Gauss-Seidel
 * sweeps, projection by 20 sweeps before and after self-advection, dye channels
 * advected one by one); the pressure residual; the whole pipeline (step + draw
 * + encode) at 200x60; bytes per frame at 120x40 under --auto against a naive
 * full redraw. */

/* A dye case: our solver at n x n with RGB dye; *worst gets the largest
 * pressure residual seen. */
struct dye_case {
    int n, steps;
    float *worst;
};

/* One timed run of a dye case: ms per step. */
static double dye_ms(const void *arg)
{
    const struct dye_case *dc = arg;
    const int n = dc->n, steps = dc->steps;
    struct fluid_params p;
    fluid_params_default(&p);
    struct fluid f;
    fluid_init(&f, &p, n, n, n, n);
    fluid_set_pool(&f, bench_pool);
    for (int k = 0; k < 10; k++) {
        splat_stir(&f, k);
        fluid_step(&f);
    }
    double t0 = frame_now();
    for (int k = 0; k < steps; k++) {
        splat_stir(&f, k);
        fluid_step(&f);
        *dc->worst = fmaxf(*dc->worst, f.residual);
    }
    double ms = ms_since(t0) / steps;
    fluid_free(&f);
    return ms;
}

/* One timed run of Stam's reference step at n x n: ms per step. */
static double stam_ms(int n, int steps)
{
    struct fluid_params p;
    fluid_params_default(&p);
    struct stam s = {n, 0, 0, 0, 0, {0}, {0}};
    size_t size = (size_t)(n + 2) * (size_t)(n + 2);
    s.u = calloc(size, 4), s.v = calloc(size, 4), s.u0 = calloc(size, 4), s.v0 = calloc(size, 4);
    for (int c = 0; c < 3; c++)
        s.d[c] = calloc(size, 4), s.d0[c] = calloc(size, 4);
    double t0 = frame_now();
    for (int k = 0; k < steps; k++) {
        s.u0[SIX(n, n / 2, n / 2)] = 50.0f;
        stam_step(&s, p.viscosity, p.diffusion, 0.1f);
    }
    double ms = ms_since(t0) / steps;
    free(s.u), free(s.v), free(s.u0), free(s.v0);
    for (int c = 0; c < 3; c++)
        free(s.d[c]), free(s.d0[c]);
    return ms;
}

static void bench_dye(void)
{
    const int n = 150, steps = 60;
    printf("dye (Stable Fluids)\n");
    float worst = 0.0f;
    double ref = 1e9, ours, ours2;
    for (int r = 0; r < REPEATS; r++)
        ref = fmin(ref, stam_ms(n, steps / 3));
    struct pool *two = pool_create(2);
    one_and_two(dye_ms, &(struct dye_case){n, steps, &worst}, two, &ours, &ours2);
    pool_destroy(two);
    printf("  step at 150x150, RGB dye, one thread: %.2f ms; Stam's reference step %.2f ms; "
           "ratio 1/%.1f\n", ours, ref, ref / ours);
    printf("  ... on two threads: %.2f ms; ratio 1/%.1f (target at least 1/15)\n", ours2,
           ref / ours2);
    printf("  pressure solve: worst relative residual %.1e over %d steps (target <= 1e-3; "
           "20 Gauss-Seidel sweeps leave ~0.6)\n", (double)worst, 2 * THREAD_REPEATS * steps);
}

double bench_frame_parts(int sc, int cols, int rows, int threads, int warm, int frames,
                         enum glyph_set g, struct frame_times *mean)
{
    struct app_opts o;
    app_opts_default(&o);
    o.autopilot = true;
    o.scene = sc;
    o.threads = threads;
    o.glyphs = g;
    struct app a;
    *mean = (struct frame_times){0.0, 0.0, 0.0, 0.0};
    if (app_init(&a, &o, cols, rows) != 0)
        return -1.0;
    struct frame fr;
    frame_init(&fr, &a, true);
    struct buf out;
    buf_init(&out);
    for (int k = 0; k < warm; k++) {
        buf_clear(&out);
        frame_next(&fr, &a, 1.0 / 30, frame_now, false, &out);
    }
    double t0 = frame_now();
    for (int k = 0; k < frames; k++) {
        buf_clear(&out);
        frame_next(&fr, &a, 1.0 / 30, frame_now, false, &out);
        mean->step += fr.t.step * 1000.0 / frames, mean->draw += fr.t.draw * 1000.0 / frames;
        mean->fit += fr.t.fit * 1000.0 / frames, mean->encode += fr.t.encode * 1000.0 / frames;
    }
    double ms = ms_since(t0) / frames;
    frame_free(&fr);
    app_free(&a);
    buf_free(&out);
    return ms;
}

double bench_frame_ms(int sc, int cols, int rows, int threads, int frames, enum glyph_set g)
{
    struct frame_times parts;
    return bench_frame_parts(sc, cols, rows, threads, 15, frames, g, &parts);
}

static void bench_frames(void)
{
    static const struct {
        int scene, cols, rows;
        const char *target;
    } cases[] = {
        {0, 200, 60, ""}, {0, 250, 70, ""}, {0, 400, 100, "  (target <= 16)"},
        {1, 200, 60, "  (target <= 33: 30 fps)"}, {1, 250, 70, ""},
        {2, 200, 60, ""}, {2, 250, 70, ""},
    };
    printf("whole frame (step + draw + encode), --auto, ms per frame:   1 thread  2 threads\n");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double one = 1e9, two = 1e9;
        for (int r = 0; r < REPEATS; r++) {
            one = fmin(one, bench_frame_ms(cases[i].scene, cases[i].cols, cases[i].rows, 1, 30,
                                           GLYPHS_HALF));
            two = fmin(two, bench_frame_ms(cases[i].scene, cases[i].cols, cases[i].rows, 2, 30,
                                           GLYPHS_HALF));
        }
        printf("  %-5s %dx%-3d %40s %8.2f  %8.2f%s\n", scenes[cases[i].scene]->name,
               cases[i].cols, cases[i].rows, "", one, two, cases[i].target);
    }
}

/* Bytes per frame at 120x40 under --auto: the headless recorder itself, so the
 * figure is the one `swirl --headless --scene dye --size 120x40 --auto
 * --seconds 10 --record out.cast` reports for its recording. */
static void bench_bandwidth(void)
{
    printf("bandwidth, 120x40 truecolor, each scene's --auto stroke, 10 s at 30 fps, default "
           "tolerance:\n");
    for (int sc = 0; sc < SCENE_COUNT; sc++) {
        struct app_opts o;
        app_opts_default(&o);
        o.autopilot = true;
        o.scene = sc;
        char path[64];
        snprintf(path, sizeof path, "/tmp/swirl-bench-%d.cast", (int)getpid());
        struct record_stats st;
        printf("  %-5s ", scenes[sc]->name);
        if (headless_record(&o, 120, 40, 10.0, path, &st) == 0 && st.frames > 0)
            printf("%.1f KB per frame; a naive full redraw %.1f KB (ratio %.2f)%s\n",
                   (double)st.bytes / (double)st.frames / 1000.0,
                   (double)st.naive_bytes / (double)st.frames / 1000.0,
                   (double)st.bytes / (double)st.naive_bytes,
                   sc == 0 ? "; target <= 28 KB" : "");
        else
            printf("(recording failed)\n");
        remove(path);
    }
}

/* ---- pbf -------------------------------------------------------------------- */

/* The seed preset against the seed page's own JavaScript under node (when node
 * and the seed pages are there); cost growth for 10x the particles; the
 * largest block that runs in real time. */

/* A pbf case: ms per step of a block x block water in a box three times as
 * wide and high, after `warm` steps; iter > 0 fixes the iterations a step (max
 * error 0), else the seed's stopping rule. avg_iter, if set, gets the mean
 * iterations of the timed steps. */
struct pbf_case {
    int block, warm, steps, iter;
    double *avg_iter;
};

static double pbf_ms(const void *arg)
{
    const struct pbf_case *k = arg;
    struct pbf_params p;
    pbf_params_seed(&p);
    if (k->iter > 0)
        p.max_iter = k->iter, p.max_error_pct = 0.0f;
    struct pbf s;
    if (pbf_init(&s, &p, k->block, k->block, 3 * k->block, 3 * k->block) != 0)
        return -1;
    pbf_set_pool(&s, bench_pool);
    for (int i = 0; i < k->warm; i++)
        pbf_step(&s);
    long iters = 0;
    double t0 = frame_now();
    for (int i = 0; i < k->steps; i++) {
        pbf_step(&s);
        iters += s.iter;
    }
    double ms = ms_since(t0) / k->steps;
    if (k->avg_iter)
        *k->avg_iter = (double)iters / k->steps;
    pbf_free(&s);
    return ms;
}

static void bench_pbf(void)
{
    printf("pbf (Position Based Fluids)\n");
    double it = 0.0;
    double ours = 1e9;
    for (int r = 0; r < REPEATS; r++)
        ours = fmin(ours, pbf_ms(&(struct pbf_case){30, 0, 400, 0, &it}));
    double js = seed_js("000_378ebccb4b3571bb.txt", "pbf", 400, 40, 30);
    printf("  seed preset (900 particles), first 400 steps, one thread: %.3f ms per step (%.1f "
           "iterations)", ours, it);
    if (js > 0)
        printf("; the seed's JavaScript under node %.3f ms: %.1fx faster (target >= 15x)", js, js / ours);
    printf("\n");
    struct pool *two = pool_create(2);
    /* 10,000 particles at a fixed 10 iterations a step: the threads' figure. */
    struct pbf_case fixed = {100, 50, 50, 10, NULL};
    double t1, t2;
    one_and_two(pbf_ms, &fixed, two, &t1, &t2);
    printf("  10,000 particles, 10 iterations a step: %.2f ms on one thread, %.2f ms on two "
           "(%.2fx; targets <= 5 ms on two, >= 1.6x)\n", t1, t2, t1 / t2);
    /* The seed's own setup at a 100x100 block against its JavaScript there. */
    struct pbf_case seed = {100, 20, 20, 0, NULL};
    one_and_two(pbf_ms, &seed, two, &t1, &t2);
    double js100 = seed_js("000_378ebccb4b3571bb.txt", "pbf", 20, 20, 100);
    printf("  the seed's setup at a 100x100 block (its stopping rule), steps 20-40: %.2f ms on "
           "one thread, %.2f on two", t1, t2);
    if (js100 > 0)
        printf("; its JavaScript %.1f ms: %.0fx / %.0fx faster (target >= 60x)", js100,
               js100 / t1, js100 / t2);
    printf("\n");
    /* Growth of the cost of the same work: a fixed 10 iterations a step. */
    double small = 1e9, big = 1e9;
    for (int r = 0; r < 2 * REPEATS; r++) { /* the noisiest figure: more runs */
        small = fmin(small, pbf_ms(&(struct pbf_case){30, 100, 100, 10, NULL}));
        big = fmin(big, pbf_ms(&(struct pbf_case){95, 100, 100, 10, NULL}));
    }
    printf("  10x the particles (900 -> 9025), 10 iterations a step: %.1fx the time per step "
           "(target <= 12x)\n", big / small);
    pool_destroy(two);
}

/* ---- cloth ------------------------------------------------------------------ */

/* The seed preset against the seed's JavaScript; 200x150 at 10 iterations. */

/* A cloth case: ms per step of the seed's cloth at w x h and iter iterations,
 * its constraints swept in the seed's order or by colour (the scene's). */
struct cloth_case {
    int w, h, iter, steps;
    bool by_colour;
};

static double cloth_ms(const void *arg)
{
    const struct cloth_case *k = arg;
    struct cloth_params p;
    cloth_params_seed(&p);
    p.w = k->w, p.h = k->h, p.iterations = k->iter, p.by_colour = k->by_colour;
    struct cloth c;
    if (cloth_init(&c, &p) != 0)
        return -1;
    cloth_set_pool(&c, bench_pool);
    for (int i = 0; i < k->steps / 5; i++) /* warm: memory touched, caches filled */
        cloth_step(&c);
    double t0 = frame_now();
    for (int i = 0; i < k->steps; i++)
        cloth_step(&c);
    double ms = ms_since(t0) / k->steps;
    cloth_free(&c);
    return ms;
}

static void bench_cloth(void)
{
    printf("cloth (Position Based Dynamics)\n");
    double ours = 1e9;
    for (int r = 0; r < REPEATS; r++)
        ours = fmin(ours, cloth_ms(&(struct cloth_case){40, 30, 2, 2000, false}));
    double js = seed_js("002_09e9ccb6de70aff4.txt", "pbd", 2000, 200, 30);
    printf("  seed preset (40x30, 2 iterations): %.4f ms per step", ours);
    if (js > 0)
        printf("; the seed's JavaScript under node %.4f ms: %.1fx faster (target >= 5x)", js, js / ours);
    printf("\n");
    struct pool *two = pool_create(2);
    double t1, t2;
    for (int by_colour = 1; by_colour >= 0; by_colour--) {
        struct cloth_case big = {200, 150, 10, 200, by_colour};
        one_and_two(cloth_ms, &big, two, &t1, &t2);
        printf("  200x150, 10 iterations, %s: %.2f ms per step on one thread, %.2f on two: "
               "%.1fx / %.1fx real time at dt 0.005%s\n",
               by_colour ? "by colour (the scene's sweep)" : "in the seed's order", t1, t2,
               5.0 / t1, 5.0 / t2, by_colour ? " (target >= 5x)" : "");
    }
    pool_destroy(two);
}

/* An absolute path given for opt, or NULL with a line on stderr. */
static const char *abs_arg(const char *opt, const char *val)
{
    if (!val || val[0] != '/') {
        fprintf(stderr, "swirl-bench: %s wants an absolute path\n", opt);
        return NULL;
    }
    return val;
}

/* The parts, in the order they run. */
static const struct {
    const char *name;
    void (*run)(void);
} parts[] = {
    {"dye", bench_dye},     {"frames", bench_frames}, {"bandwidth", bench_bandwidth},
    {"pbf", bench_pbf},     {"cloth", bench_cloth},   {"glyphs", bench_glyphs},
    {"screens", bench_screens}, {"water", bench_water}, {"pictures", bench_pictures}, {"link", bench_link},
    {"pixels", bench_pixels}, {"pixlink", bench_pixels_link},
};

/* swirl-bench [--seeds DIR] [--script FILE] [--node PATH] [PART...]
 * DIR holds the seed pages, FILE is tests/bench/seedrun.js, PATH the node that
 * runs them (default /usr/bin/node); each an absolute path (make bench passes
 * the tree's). Without them the JavaScript comparisons are left out. PARTs
 * (dye, frames, bandwidth, pbf, cloth, glyphs, screens, water, pictures, link,
 * pixels, pixlink: the pixels' part behind the link alone) run only those;
 * water alone is also part of screens. */
int main(int argc, char **argv)
{
    const int nparts = (int)(sizeof parts / sizeof parts[0]);
    bool only[sizeof parts / sizeof parts[0]] = {false}, some = false;
    for (int i = 1; i < argc; i++) {
        const char **to = strcmp(argv[i], "--seeds") == 0    ? &files.seeds
                          : strcmp(argv[i], "--script") == 0 ? &files.script
                          : strcmp(argv[i], "--node") == 0   ? &files.node
                                                             : NULL;
        if (!to) {
            int p = 0;
            while (p < nparts && strcmp(argv[i], parts[p].name) != 0)
                p++;
            if (p == nparts) {
                fprintf(stderr, "usage: swirl-bench [--seeds DIR] [--script FILE] [--node PATH] "
                                "[dye|frames|bandwidth|pbf|cloth|glyphs|screens|water|pictures|link|"
                                "pixels...]\n");
                return 2;
            }
            only[p] = some = true;
            continue;
        }
        if (!(*to = abs_arg(argv[i], i + 1 < argc ? argv[i + 1] : NULL)))
            return 2;
        i++;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("swirl %s bench (ratios measured in this run)\n", SWIRL_VERSION);
    printf("  the seed pages' JavaScript: %s running %s on %s\n", files.node,
           *files.script ? files.script : "(no --script)", *files.seeds ? files.seeds : "(no --seeds)");
    for (int p = 0; p < nparts; p++)
        if (only[p] || (!some && parts[p].run != bench_water)) /* screens prints the water's */
            parts[p].run();
    return 0;
}
