/*
 * screens.c — the bench's full-screen figures: whole frames of each scene
 * under --auto at the sizes of a terminal on a large monitor, in each glyph
 * set, on one solver thread and on two, the parts of a frame apart (the
 * steps, the scene's drawing, the blit with its fit, the overlays with the
 * encoding; frame.h's frame_times), each the mean ms of a run of frames.
 *
 * Then the water's own table (issue 43): at each size its particles, the ms
 * and the density loop's iterations of a step, and the whole frame in each
 * glyph set, on two threads (the frames those of the table above).
 *
 * Then how the cost of a picture grows with its pixels: draw + fit in quad
 * and in sextant against half-blocks, as a share of the pixel ratio (both
 * draw their image at twice the canvas each way: four times the pixels).
 */
#include "app.h"
#include "bench.h"
#include "pbf.h"
#include "scene.h"

#include <stdio.h>

#define WARM 12    /* frames before the timed ones (pbf's water falls, the stroke starts) */
#define FRAMES 16  /* timed frames a run */
#define CASE_RUNS 2 /* runs of each case, the one and two threads' in turn: the faster
                     * counts (a machine shared with other work slows some) */
#define NSIZES 5
#define NSETS 3
#define RATIO_RUNS 3 /* runs of each set for the ratios */

static const struct {
    int cols, rows;
} sizes[NSIZES] = {{120, 40}, {200, 60}, {300, 80}, {400, 110}, {500, 140}};

static const enum glyph_set sets[NSETS] = {GLYPHS_HALF, GLYPHS_QUAD, GLYPHS_SEXTANT};

/* The targets on two threads, ms a frame: half-blocks at 400x110 and
 * below 20, every set there 33 (30 fps), 500x140 45. */
static double target_ms(int size, enum glyph_set g)
{
    if (size == NSIZES - 1)
        return 45.0;
    return g == GLYPHS_HALF && size == NSIZES - 2 ? 20.0 : 33.0;
}

static double picture_ms(const struct frame_times *t) { return t->draw + t->fit; }

/* The water's whole frames on two threads, by size and glyph set, as the
 * full-screen table measured them (for the water's own table; water_seen
 * false: not measured, the water's table measures them itself). */
static double water_frame[NSIZES][NSETS];
static bool water_seen;

/* The water at a size on two threads under --auto, after WARM frames: its
 * particles, and over FRAMES frames' steps the ms of a step (the best of
 * CASE_RUNS runs) and the iterations a step; false when it cannot start. */
struct water_steps {
    int particles;
    double ms, iter;
};

static bool water_steps(int sc, int cols, int rows, struct water_steps *out)
{
    out->ms = 1e9;
    for (int r = 0; r < CASE_RUNS; r++) {
        struct app_opts o;
        app_opts_default(&o);
        o.autopilot = true;
        o.scene = sc;
        o.threads = 2;
        struct app a;
        if (app_init(&a, &o, cols, rows) != 0)
            return false;
        const int spf = app_scene(&a)->steps_per_frame(a.st[a.cur]);
        const double dt = 1.0 / APP_REF_FPS / spf;
        for (int k = 0; k < WARM; k++)
            app_run_steps(&a, dt * spf, spf, frame_now);
        long iters = 0;
        double wall = 0.0;
        const struct pbf *sim = NULL; /* looked up again each step: a step may rebuild */
        for (int k = 0; k < FRAMES * spf; k++) {
            wall += app_run_steps(&a, dt, 1, frame_now);
            sim = app_scene(&a)->member(a.st[a.cur], "pbf");
            iters += sim->iter;
        }
        out->particles = sim->nfluid;
        out->iter = (double)iters / (FRAMES * spf);
        const double ms = wall * 1000.0 / (FRAMES * spf);
        out->ms = ms < out->ms ? ms : out->ms;
        app_free(&a);
    }
    return true;
}

/* Issue 43's figures for the water at a size: at least this many particles
 * (0: none asked), and each glyph set's whole frame within this many ms. */
static int water_least(int size) { return size >= 3 ? 20000 : size == 2 ? 12000 : 0; }
static double water_target(int size) { return size == NSIZES - 1 ? 45.0 : 33.0; }

/* The water's whole frame at size z in each glyph set on two threads: the
 * full-screen table's, or the faster of CASE_RUNS runs of its own. */
static void water_frames(int sc, int z, double ms[NSETS])
{
    for (int g = 0; g < NSETS; g++) {
        ms[g] = water_seen ? water_frame[z][g] : 1e9;
        for (int r = 0; r < CASE_RUNS && !water_seen; r++) {
            struct frame_times t;
            const double m = bench_frame_parts(sc, sizes[z].cols, sizes[z].rows, 2, WARM, FRAMES,
                                               sets[g], &t);
            ms[g] = m < ms[g] ? m : ms[g];
        }
    }
}

void bench_water(void)
{
    const int sc = scene_find("pbf");
    if (sc < 0)
        return;
    printf("water (pbf) under --auto on two threads: particles, a step (ms, the density loop's "
           "iterations), the whole frame in each glyph set (ms)\n");
    printf("  %-8s %9s %8s %6s | %7s %7s %7s | targets\n", "size", "particles", "ms/step",
           "iter", "half", "quad", "sextant");
    for (int z = 0; z < NSIZES; z++) {
        struct water_steps w;
        if (!water_steps(sc, sizes[z].cols, sizes[z].rows, &w))
            continue;
        double ms[NSETS];
        water_frames(sc, z, ms);
        char size[16];
        snprintf(size, sizeof size, "%dx%d", sizes[z].cols, sizes[z].rows);
        printf("  %-8s %9d %8.2f %6.1f |", size, w.particles, w.ms, w.iter);
        bool ok = w.particles >= water_least(z);
        for (int g = 0; g < NSETS; g++) {
            printf(" %7.1f", ms[g]);
            ok = ok && ms[g] >= 0.0 && ms[g] <= water_target(z);
        }
        printf(" | >= %d particles, frames <= %.0f ms%s\n", water_least(z), water_target(z),
               ok ? "" : "  OVER");
    }
}

static void print_parts(const struct frame_times *t, double total)
{
    printf(" %6.1f %6.1f %5.1f %5.1f = %6.1f", t->step, t->draw, t->fit, t->encode, total);
}

void bench_screens(void)
{
    printf("full screens: --auto, ms a frame (the mean of %d after %d, the faster of %d runs), "
           "step / draw / fit / encode (with the overlays) = whole frame\n", FRAMES, WARM,
           CASE_RUNS);
    printf("  %-5s %-8s %-7s | %-36s | %-36s | target (2 threads)\n", "scene", "size", "glyphs",
           "1 thread:  step   draw   fit   enc   total", "2 threads: step   draw   fit   enc   total");
    struct frame_times one = {0.0, 0.0, 0.0, 0.0};
    int over = 0, cases = 0;
    for (int sc = 0; sc < SCENE_COUNT; sc++)
        for (int z = 0; z < NSIZES; z++)
            for (int g = 0; g < NSETS; g++) {
                struct frame_times two = {0.0, 0.0, 0.0, 0.0};
                double t1 = 1e9, t2 = 1e9;
                for (int r = 0; r < CASE_RUNS; r++) { /* one and two threads in turn */
                    struct frame_times a, b;
                    const double m1 = bench_frame_parts(sc, sizes[z].cols, sizes[z].rows, 1, WARM,
                                                        FRAMES, sets[g], &a);
                    const double m2 = bench_frame_parts(sc, sizes[z].cols, sizes[z].rows, 2, WARM,
                                                        FRAMES, sets[g], &b);
                    if (m1 < t1)
                        t1 = m1, one = a;
                    if (m2 < t2)
                        t2 = m2, two = b;
                }
                char size[16];
                snprintf(size, sizeof size, "%dx%d", sizes[z].cols, sizes[z].rows);
                printf("  %-5s %-8s %-7s |", scenes[sc]->name, size, cells_glyphs_name(sets[g]));
                print_parts(&one, t1);
                printf(" |");
                print_parts(&two, t2);
                const double want = target_ms(z, sets[g]);
                const bool ok = t2 >= 0.0 && t2 <= want;
                if (sc == scene_find("pbf"))
                    water_frame[z][g] = t2;
                printf(" | <= %.0f%s\n", want, ok ? "" : "  OVER");
                over += !ok, cases++;
            }
    printf("  %d of %d cases over their target on two threads\n", over, cases);
    water_seen = true;
    bench_water();
}

void bench_pictures(void)
{
    /* The ratios from runs of their own, the sets interleaved and the least
     * of RATIO_RUNS kept: a machine shared with other work slows some runs. */
    printf("  draw + fit against half-blocks, one thread, the least of %d interleaved runs (4x "
           "the pixels drawn; target <= 1.3x the pixel ratio):\n", RATIO_RUNS);
    static const int at[] = {1, 3}; /* 200x60, 400x110 */
    for (int sc = 0; sc < SCENE_COUNT; sc++)
        for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
            const int z = at[i];
            double best[NSETS] = {1e9, 1e9, 1e9};
            for (int r = 0; r < RATIO_RUNS; r++)
                for (int g = 0; g < NSETS; g++) {
                    struct frame_times t;
                    bench_frame_parts(sc, sizes[z].cols, sizes[z].rows, 1, WARM, FRAMES, sets[g], &t);
                    best[g] = picture_ms(&t) < best[g] ? picture_ms(&t) : best[g];
                }
            printf("  %-5s %dx%-4d half %5.1f ms", scenes[sc]->name, sizes[z].cols, sizes[z].rows,
                   best[0]);
            for (int g = 1; g < NSETS; g++) {
                const double r = best[0] > 0.0 ? best[g] / best[0] : 0.0;
                printf(";  %s %5.1f ms, %4.1fx = %.2f of the pixel ratio%s",
                       cells_glyphs_name(sets[g]), best[g], r, r / 4.0, r / 4.0 <= 1.3 ? "" : " OVER");
            }
            printf("\n");
        }
}
