/*
 * glyphs.c — the bench's glyph figures: how close each glyph set shows a
 * frame of each scene, what the fitter costs, and the bytes a frame.
 *
 * The reference is the scene drawn at REF times the canvas pixels each way.
 * Each glyph set's cells are drawn back at that resolution, each cell's
 * glyph with its geometry (fit_inks) in its two colours, and compared pixel
 * by pixel: the mean distance in 8-bit RGB.
 */
#include "bench.h"
#include "fit.h"
#include "frame.h"
#include "headless.h"
#include "scene.h"

#include <math.h>
#include <stdio.h>
#include <unistd.h>

#define REF 8             /* reference pixels a canvas pixel, each way */
#define COLS 120          /* the frame compared */
#define ROWS 40
#define FRAMES 5          /* frames compared, every STRIDE frames of --auto */
#define STRIDE 90         /* (3 s) */

/* The cells drawn back at REF pixels a canvas pixel (a cell REF x 2 REF). */
static void draw_back(const struct cells *c, struct image *out)
{
    for (int y = 0; y < out->h; y++)
        for (int x = 0; x < out->w; x++) {
            const struct cell *cl = &c->c[(size_t)(y / (2 * REF)) * (size_t)c->cols +
                                          (size_t)(x / REF)];
            const float fx = ((float)(x % REF) + 0.5f) / REF;
            const float fy = ((float)(y % (2 * REF)) + 0.5f) / (2 * REF);
            out->px[(size_t)y * (size_t)out->w + (size_t)x] =
                fit_inks(cl->ch, fx, fy) ? cl->fg : cl->bg;
        }
}

/* The mean distance of a pixel from the reference (8-bit RGB), and into
 * *sq the mean square of it. */
static double mean_error(const struct image *a, const struct image *b, double *sq)
{
    double sum = 0.0, sum2 = 0.0;
    const size_t n = (size_t)a->w * (size_t)a->h;
    for (size_t i = 0; i < n; i++) {
        const double dr = rgb_r(a->px[i]) - rgb_r(b->px[i]);
        const double dg = rgb_g(a->px[i]) - rgb_g(b->px[i]);
        const double db = rgb_b(a->px[i]) - rgb_b(b->px[i]);
        const double d2 = dr * dr + dg * dg + db * db;
        sum += sqrt(d2), sum2 += d2;
    }
    *sq = sum2 / (double)n;
    return sum / (double)n;
}

static const enum glyph_set sets[] = {GLYPHS_HALF, GLYPHS_QUAD, GLYPHS_SEXTANT};
#define NSETS 3

/*
 * The least error two colours a cell could have in a glyph set, for scale:
 * in each cell, of the splits its glyphs can draw (the quadrants' 8, the
 * sextants' 32 and ▀), the BOUND_TRY with the least squared error against
 * the reference are each given the two colours nearest the reference pixels
 * they show (their geometric medians, by Weiszfeld's steps), and the best
 * kept. No fitter sees the reference, so none gets there.
 */
#define BOUND_TRY 3
#define BOUND_STEPS 10
#define CELL_PX (2 * REF * REF)
#define MAX_SPLITS 33

/* Which of a cell's CELL_PX reference pixels glyph ch inks (at their centres,
 * as draw_back shows them). */
static void inks_of(uint32_t ch, bool *inked)
{
    for (int i = 0; i < CELL_PX; i++)
        inked[i] = fit_inks(ch, ((float)(i % REF) + 0.5f) / REF,
                            ((float)(i / REF) + 0.5f) / (2 * REF));
}

/* The splits set g's glyphs draw, as the pixels each inks. */
static int splits_of(enum glyph_set g, bool inked[MAX_SPLITS][CELL_PX])
{
    const int n = g == GLYPHS_QUAD ? 4 : 6;
    int count = 0;
    for (unsigned m = 0; m < 1u << (n - 1); m++) {
        bool swap;
        inks_of(fit_glyph(m, n, &swap), inked[count++]);
    }
    if (g == GLYPHS_SEXTANT) /* ▀, which splits a sextant's middle row */
        inks_of(0x2580, inked[count++]);
    return count;
}

static double rgb_dist(rgb_t p, const double *c)
{
    const double d[3] = {rgb_r(p) - c[0], rgb_g(p) - c[1], rgb_b(p) - c[2]};
    return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

/* The summed distance of the pixels of group `in` of split `ink` from the
 * geometric median of them. */
static double median_cost(const rgb_t *px, const bool *ink, bool in)
{
    double c[3] = {0, 0, 0};
    int cnt = 0;
    for (int i = 0; i < CELL_PX; i++)
        if (ink[i] == in)
            c[0] += rgb_r(px[i]), c[1] += rgb_g(px[i]), c[2] += rgb_b(px[i]), cnt++;
    if (!cnt)
        return 0.0;
    for (int k = 0; k < 3; k++)
        c[k] /= cnt;
    for (int step = 0; step < BOUND_STEPS; step++) {
        double wsum = 0.0, sum[3] = {0, 0, 0};
        for (int i = 0; i < CELL_PX; i++)
            if (ink[i] == in) {
                const double d = rgb_dist(px[i], c), wt = 1.0 / (d > 0.5 ? d : 0.5);
                wsum += wt;
                sum[0] += wt * rgb_r(px[i]), sum[1] += wt * rgb_g(px[i]), sum[2] += wt * rgb_b(px[i]);
            }
        for (int k = 0; k < 3; k++)
            c[k] = sum[k] / wsum;
    }
    double e = 0.0;
    for (int i = 0; i < CELL_PX; i++)
        if (ink[i] == in)
            e += rgb_dist(px[i], c);
    return e;
}

/* The bound above for set g: the mean distance a reference pixel. */
static double bound_error(const struct image *ref, enum glyph_set g)
{
    static bool inked[MAX_SPLITS][CELL_PX];
    const int nsplit = splits_of(g, inked);
    double total = 0.0;
    rgb_t px[CELL_PX];
    for (int cy = 0; cy + 2 * REF <= ref->h; cy += 2 * REF)
        for (int cx = 0; cx + REF <= ref->w; cx += REF) {
            for (int i = 0; i < CELL_PX; i++)
                px[i] = ref->px[(size_t)(cy + i / REF) * (size_t)ref->w + (size_t)(cx + i % REF)];
            double sse[MAX_SPLITS], q = 0.0; /* the pixels' squared norms, summed */
            for (int i = 0; i < CELL_PX; i++)
                q += (double)rgb_r(px[i]) * rgb_r(px[i]) + (double)rgb_g(px[i]) * rgb_g(px[i]) +
                     (double)rgb_b(px[i]) * rgb_b(px[i]);
            for (int s = 0; s < nsplit; s++) {
                double sum[2][4] = {{0}};
                for (int i = 0; i < CELL_PX; i++) {
                    double *t = sum[inked[s][i]];
                    t[0] += rgb_r(px[i]), t[1] += rgb_g(px[i]), t[2] += rgb_b(px[i]), t[3] += 1.0;
                }
                sse[s] = q;
                for (int k = 0; k < 2; k++)
                    if (sum[k][3] > 0)
                        sse[s] -= (sum[k][0] * sum[k][0] + sum[k][1] * sum[k][1] +
                                   sum[k][2] * sum[k][2]) / sum[k][3];
            }
            double best = INFINITY;
            for (int t = 0; t < BOUND_TRY && t < nsplit; t++) {
                int s = 0;
                for (int j = 1; j < nsplit; j++)
                    if (sse[j] < sse[s])
                        s = j;
                sse[s] = INFINITY;
                best = fmin(best, median_cost(px, inked[s], true) + median_cost(px, inked[s], false));
            }
            total += best;
        }
    return total / ((double)ref->w * (double)ref->h);
}

/* Scene sc under --auto as quadrants run it (the dye's grid as fine as
 * their picture); every STRIDE frames, FRAMES times, that one state drawn at
 * REF and in each set. The mean errors (err) and their root mean squares
 * (rms) over the frames, and the blits' mean ms. */
static void scene_errors(int sc, double err[NSETS], double rms[NSETS], double fit_ms[NSETS],
                         double bound[NSETS])
{
    struct app_opts o;
    app_opts_default(&o);
    o.autopilot = true;
    o.scene = sc;
    o.threads = 1;
    o.glyphs = GLYPHS_QUAD;
    struct app a;
    for (int g = 0; g < NSETS; g++)
        err[g] = rms[g] = fit_ms[g] = bound[g] = 0.0;
    if (app_init(&a, &o, COLS, ROWS) != 0)
        return;
    const struct scene_ops *s = app_scene(&a);
    void *st = a.st[a.cur];
    const int w = app_canvas_w(&a), h = app_canvas_h(&a);
    struct image ref, back, img;
    image_init(&ref, REF * w, REF * h);
    image_init(&back, REF * w, REF * h);
    image_init(&img, w, h);
    struct cells cells;
    cells_init(&cells, COLS, h / 2);
    for (int fr = 0; fr < FRAMES; fr++) {
        for (int f = 0; f < STRIDE; f++)
            app_advance_within(&a, 1.0 / 30, frame_now, 0.0);
        s->draw(st, &ref);
        for (int g = 1; g < NSETS; g++)
            bound[g] += bound_error(&ref, sets[g]) / FRAMES;
        for (int g = 0; g < NSETS; g++) {
            const int k = cells_scale(sets[g]);
            image_resize(&img, k * w, k * h);
            s->draw(st, &img);
            double t0 = frame_now();
            cells_blit(&img, &cells, COLOR_TRUE, sets[g]);
            fit_ms[g] += (frame_now() - t0) * 1000.0 / FRAMES;
            draw_back(&cells, &back);
            double sq;
            err[g] += mean_error(&ref, &back, &sq) / FRAMES;
            rms[g] += sq / FRAMES;
        }
    }
    for (int g = 0; g < NSETS; g++)
        rms[g] = sqrt(rms[g]);
    cells_free(&cells);
    image_free(&img);
    image_free(&back);
    image_free(&ref);
    app_free(&a);
}

/* ms to fit a 250 x 70 terminal's cells from a frame of dye in each set. */
static double blit_ms_250x70(enum glyph_set g)
{
    struct app_opts o;
    app_opts_default(&o);
    o.autopilot = true;
    o.threads = 1;
    struct app a;
    if (app_init(&a, &o, 250, 70) != 0)
        return -1.0;
    for (int f = 0; f < 60; f++)
        app_advance_within(&a, 1.0 / 30, frame_now, 0.0);
    const int k = cells_scale(g);
    struct image img;
    image_init(&img, k * app_canvas_w(&a), k * app_canvas_h(&a));
    app_scene(&a)->draw(a.st[a.cur], &img);
    struct cells cells;
    cells_init(&cells, 250, 70);
    double best = 1e9;
    for (int r = 0; r < 5; r++) {
        double t0 = frame_now();
        for (int i = 0; i < 10; i++)
            cells_blit(&img, &cells, COLOR_TRUE, g);
        best = fmin(best, (frame_now() - t0) * 100.0);
    }
    cells_free(&cells);
    image_free(&img);
    app_free(&a);
    return best;
}

/* ms a whole frame (step, draw, blit, encode) of scene sc at 200x60 under
 * --auto on one thread, drawn in g: the best of three runs of 30 frames. */
static double frame_ms_in(int sc, enum glyph_set g)
{
    double best = 1e9;
    for (int r = 0; r < 3; r++)
        best = fmin(best, bench_frame_ms(sc, 200, 60, 1, 30, g));
    return best;
}

/* Bytes a frame at 120x40 under --auto, as the recorder counts them. */
static double kb_per_frame(int sc, enum glyph_set g)
{
    struct app_opts o;
    app_opts_default(&o);
    o.autopilot = true;
    o.scene = sc;
    o.glyphs = g;
    char path[64];
    snprintf(path, sizeof path, "/tmp/swirl-bench-g%d.cast", (int)getpid());
    struct record_stats st;
    double kb = -1.0;
    if (headless_record(&o, COLS, ROWS, 10.0, path, &st) == 0 && st.frames > 0)
        kb = (double)st.bytes / (double)st.frames / 1000.0;
    remove(path);
    return kb;
}

void bench_glyphs(void)
{
    printf("glyphs: %dx%d, %d frames %d s apart of --auto (run as quad runs it), each set against "
           "the scene drawn at %dx the pixels each way\n  (mean RGB distance a pixel, and its "
           "root mean square; target quad <= 0.8x half, sextant <= 0.7x):\n", COLS, ROWS, FRAMES,
           STRIDE / 30, REF);
    double fit_sum[NSETS] = {0};
    for (int sc = 0; sc < SCENE_COUNT; sc++) {
        double err[NSETS], rms[NSETS], ms[NSETS], bound[NSETS];
        scene_errors(sc, err, rms, ms, bound);
        printf("  %-5s error against the reference: half %.2f, quad %.2f, sextant %.2f"
               "  (%.2fx, %.2fx)\n", scenes[sc]->name, err[0], err[1], err[2],
               err[1] / err[0], err[2] / err[0]);
        printf("  %-5s rms error: half %.2f, quad %.2f, sextant %.2f  (%.2fx, %.2fx)\n", "",
               rms[0], rms[1], rms[2], rms[1] / rms[0], rms[2] / rms[0]);
        printf("  %-5s the least two colours a cell could show (see glyphs.c): quad %.2f, "
               "sextant %.2f  (%.2fx, %.2fx)\n", "", bound[1], bound[2], bound[1] / err[0],
               bound[2] / err[0]);
        for (int g = 0; g < NSETS; g++)
            fit_sum[g] += ms[g] / SCENE_COUNT;
    }
    printf("  blit (fit) at %dx%d, ms a frame, mean of the scenes: half %.2f, quad %.2f, "
           "sextant %.2f\n", COLS, ROWS, fit_sum[0], fit_sum[1], fit_sum[2]);
    printf("  blit (fit) at 250x70, dye, ms a frame: half %.2f, quad %.2f, sextant %.2f "
           "(30 fps leaves 33)\n", blit_ms_250x70(GLYPHS_HALF), blit_ms_250x70(GLYPHS_QUAD),
           blit_ms_250x70(GLYPHS_SEXTANT));
    printf("  whole frame at 200x60 --auto, one thread, ms: ");
    for (int sc = 0; sc < SCENE_COUNT; sc++)
        printf("%s%s half %.1f, quad %.1f, sextant %.1f", sc ? ";  " : "", scenes[sc]->name,
               frame_ms_in(sc, GLYPHS_HALF), frame_ms_in(sc, GLYPHS_QUAD),
               frame_ms_in(sc, GLYPHS_SEXTANT));
    printf("\n");
    printf("  bytes a frame at %dx%d --auto, truecolor (target quad <= 1.3x half):\n", COLS,
           ROWS);
    for (int sc = 0; sc < SCENE_COUNT; sc++) {
        double kb[NSETS];
        for (int g = 0; g < NSETS; g++)
            kb[g] = kb_per_frame(sc, sets[g]);
        printf("  %-5s half %.1f KB, quad %.1f KB (%.2fx), sextant %.1f KB (%.2fx)\n",
               scenes[sc]->name, kb[0], kb[1], kb[1] / kb[0], kb[2], kb[2] / kb[0]);
    }
}
