/*
 * screens.c — the bench's full-screen figures: whole frames of each scene
 * under --auto at the sizes of a terminal on a large monitor, in each glyph
 * set, on one solver thread and on two, the parts of a frame apart (the
 * steps, the scene's drawing, the blit with its fit, the overlays with the
 * encoding; frame.h's frame_times), each the mean ms of a run of frames.
 *
 * Then how the cost of a picture grows with its pixels: draw + fit in quad
 * and in sextant against half-blocks, as a share of the pixel ratio (both
 * draw their image at twice the canvas each way: four times the pixels).
 */
#include "bench.h"
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
                printf(" | <= %.0f%s\n", want, ok ? "" : "  OVER");
                over += !ok, cases++;
            }
    printf("  %d of %d cases over their target on two threads\n", over, cases);
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
