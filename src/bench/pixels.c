/*
 * pixels.c — the bench's pixel figures: what a frame of each scene costs in
 * the terminal's own pixels (kitty's protocol: RGB deflated, or PNG; sixel:
 * the frame's palette by median cut, or the cube dithered), in bytes and
 * encoding ms, at 100x30 and 200x60 cells of 8x17 pixels, each scene drawn
 * at k image pixels a canvas pixel (a canvas pixel is half a cell: k = 8 is
 * 8x16 of a cell's 8x17, the most a scene draws there); and how near each
 * shows the picture, against glyphs, byte for byte.
 *
 * The reference is the scene drawn at k = 8. A picture at k < 8 is shown
 * as the terminal scales it (kitty: each pixel repeated, nearest; seen so in
 * kitty 0.26), glyphs as their cells drawn back (each glyph's shape, its two
 * colours), sixel as its palette's colours; the error is the mean RGB
 * distance a reference pixel, as glyphs.c measures it.
 */
#include "bench.h"
#include "encode.h"
#include "fit.h"
#include "kitty.h"
#include "pixfit.h"
#include "scene.h"
#include "sixel.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define CELL_W 8   /* a cell's pixels (DejaVu Sans Mono 10) */
#define CELL_H 17
#define FULL 8     /* k at the terminal's pixels: 8 x 16 of a cell */
#define WARM 60    /* frames of --auto before the first measured */
#define SAMPLES 5  /* frames measured, */
#define STRIDE 12  /* this many apart */
#define NSIZES 2

static const struct {
    int cols, rows;
} sizes[NSIZES] = {{100, 30}, {200, 60}};

/* A scene under --auto at a size, on one thread, its frames advanced. */
struct run {
    struct app a;
    bool ok;
};

static void run_open(struct run *r, int sc, int cols, int rows)
{
    struct app_opts o;
    app_opts_default(&o);
    o.autopilot = true;
    o.scene = sc;
    o.threads = 1;
    r->ok = app_init(&r->a, &o, cols, rows) == 0;
}

static void run_frames(struct run *r, int n)
{
    for (int f = 0; f < n && r->ok; f++)
        app_advance_within(&r->a, 1.0 / 30, frame_now, 0.0);
}

static void run_draw(struct run *r, int k, struct image *im)
{
    image_resize(im, k * app_canvas_w(&r->a), k * app_canvas_h(&r->a));
    app_scene(&r->a)->draw(r->a.st[r->a.cur], im);
}

/* The CPU time of this thread, ms: an encoding's cost, less the waits a
 * machine busy with other work adds to the clock on the wall. */
static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double dist(rgb_t a, rgb_t b)
{
    const double dr = rgb_r(a) - rgb_r(b), dg = rgb_g(a) - rgb_g(b), db = rgb_b(a) - rgb_b(b);
    return sqrt(dr * dr + dg * dg + db * db);
}

/* The mean distance of im, each pixel repeated to the reference's size
 * (nearest), from ref. */
static double scaled_error(const struct image *im, const struct image *ref)
{
    double sum = 0.0;
    for (int y = 0; y < ref->h; y++) {
        const rgb_t *row = im->px + (size_t)(y * im->h / ref->h) * (size_t)im->w;
        for (int x = 0; x < ref->w; x++)
            sum += dist(row[x * im->w / ref->w], ref->px[(size_t)y * (size_t)ref->w + (size_t)x]);
    }
    return sum / ((double)ref->w * (double)ref->h);
}

/* The same for a picture in a palette: each pixel its palette colour. */
static double palette_error(const struct quant *q, const uint8_t *idx, const struct image *im,
                            const struct image *ref)
{
    struct image shown;
    image_init(&shown, im->w, im->h);
    for (size_t i = 0; i < (size_t)im->w * (size_t)im->h; i++)
        shown.px[i] = q->pal[idx[i]];
    const double e = scaled_error(&shown, ref);
    image_free(&shown);
    return e;
}

static double sixel_error(const struct sixel *s, const struct image *im, const struct image *ref)
{
    return palette_error(&s->q, s->idx, im, ref);
}

/* The cells (cols x rows) drawn back at the reference's size, each cell
 * ref->w / cols pixels wide, its glyph's shape in its two colours. */
static double cells_error(const struct cell *c, int cols, int rows, const struct image *ref)
{
    const int cw = ref->w / cols, ch = ref->h / rows;
    double sum = 0.0;
    for (int y = 0; y < rows * ch; y++)
        for (int x = 0; x < cols * cw; x++) {
            const struct cell *cl = &c[(size_t)(y / ch) * (size_t)cols + (size_t)(x / cw)];
            const float fx = ((float)(x % cw) + 0.5f) / (float)cw;
            const float fy = ((float)(y % ch) + 0.5f) / (float)ch;
            sum += dist(fit_inks(cl->ch, fx, fy) ? cl->fg : cl->bg,
                        ref->px[(size_t)y * (size_t)ref->w + (size_t)x]);
        }
    return sum / ((double)cols * cw * (double)rows * ch);
}

/* ---- what a frame costs in each protocol -------------------------------- */

enum { ENC_KITTY_RGB, ENC_KITTY_PNG, ENC_KITTY_PNG8, ENC_SIXEL, ENC_SIXEL_CUBE, NENC };
static const char *const enc_name[NENC] = {"kitty rgb+z", "kitty png", "kitty png8",
                                           "sixel median", "sixel cube"};
static const enum kitty_format enc_format[] = {KITTY_RGB, KITTY_PNG, KITTY_PNG8};

struct cost {
    double kb, ms, err; /* means a frame */
};

/* The encoders of one level, kept from frame to frame as the frame loop
 * keeps them (their buffers and zlib's stream grown once: a fresh one's
 * first frame costs its memory's first touch). */
struct encoders {
    struct kitty kt[ENC_SIXEL];
    struct sixel sx[NENC - ENC_SIXEL];
};

static void encoders_init(struct encoders *en)
{
    for (int e = 0; e < ENC_SIXEL; e++)
        kitty_init(&en->kt[e], KITTY_ID, enc_format[e], 1);
    for (int e = ENC_SIXEL; e < NENC; e++)
        sixel_init(&en->sx[e - ENC_SIXEL], e == ENC_SIXEL_CUBE ? QUANT_CUBE : QUANT_MEDIAN, 256);
}

static void encoders_free(struct encoders *en)
{
    for (int e = 0; e < ENC_SIXEL; e++)
        kitty_free(&en->kt[e]);
    for (int e = ENC_SIXEL; e < NENC; e++)
        sixel_free(&en->sx[e - ENC_SIXEL]);
}

/* One frame of im in encoder e: its bytes and ms into c (summed, where c is
 * not NULL), and for a palette's its error against ref. */
static void encode_one(struct encoders *en, int e, const struct image *im,
                       const struct image *ref, int cols, int rows, struct cost *c)
{
    struct buf out;
    buf_init(&out);
    struct kitty *kt = &en->kt[e < ENC_SIXEL ? e : 0];
    struct sixel *sx = &en->sx[e < ENC_SIXEL ? 0 : e - ENC_SIXEL];
    kitty_invalidate(kt);
    sixel_invalidate(sx);
    buf_reserve(&out, 8u << 20);
    const double t0 = cpu_ms();
    if (e < ENC_SIXEL)
        kitty_frame(kt, im, 0, 0, cols, rows, &out);
    else
        sixel_frame(sx, im, 0, 0, &out);
    const double ms = cpu_ms() - t0;
    if (c) {
        c->ms += ms;
        c->kb += (double)out.len / 1000.0;
        if (e >= ENC_SIXEL)
            c->err += sixel_error(sx, im, ref);
        else if (e == ENC_KITTY_PNG8 && kt->format == KITTY_PNG8) /* (without zlib, RGB) */
            c->err += palette_error(&kt->q, kt->idx, im, ref);
    }
    buf_free(&out);
}

static const int levels[] = {2, 4, FULL};
#define NLEVELS 3

static void protocol_costs(int sc, int z)
{
    const int cols = sizes[z].cols, rows = sizes[z].rows;
    struct run r;
    run_open(&r, sc, cols, rows);
    struct cost c[NLEVELS][NENC];
    memset(c, 0, sizeof c);
    struct image im, ref;
    image_init(&im, 1, 1);
    image_init(&ref, 1, 1);
    static struct encoders en[NLEVELS];
    for (int l = 0; l < NLEVELS; l++)
        encoders_init(&en[l]);
    run_frames(&r, WARM);
    for (int s = -1; s < SAMPLES && r.ok; s++) { /* -1: the encoders' first frame, untimed */
        run_frames(&r, s < 0 ? 0 : STRIDE);
        run_draw(&r, FULL, &ref);
        for (int l = 0; l < NLEVELS; l++) {
            run_draw(&r, levels[l], &im);
            for (int e = 0; e < NENC; e++)
                encode_one(&en[l], e, &im, &ref, cols, app_canvas_rows(&r.a),
                           s < 0 ? NULL : &c[l][e]);
        }
    }
    for (int l = 0; l < NLEVELS && r.ok; l++) {
        run_draw(&r, levels[l], &im);
        printf("  %-5s %dx%-3d k=%d %4dx%-4d", scenes[sc]->name, cols, rows, levels[l], im.w, im.h);
        for (int e = 0; e < NENC; e++) {
            printf(" | %6.1f KB %5.1f ms", c[l][e].kb / SAMPLES, c[l][e].ms / SAMPLES);
            if (e >= ENC_KITTY_PNG8)
                printf(" err %4.1f", c[l][e].err / SAMPLES);
        }
        printf("\n");
    }
    for (int l = 0; l < NLEVELS; l++)
        encoders_free(&en[l]);
    image_free(&ref);
    image_free(&im);
    if (r.ok)
        app_free(&r.a);
}

/* ---- pixels against glyphs, byte for byte --------------------------------- */

#define GLYPH_FRAMES 30 /* frames in a row: the glyphs' bytes are what changed */
static const int pix_levels[] = {1, 2, 3, 4, 6, FULL};
#define NPIX 6

struct trade {
    double half_kb, half_err, sext_kb, sext_err;
    double pix_kb[NPIX], pix_err[NPIX];   /* kitty PNG at each k */
    double pix8_kb[NPIX], pix8_err[NPIX]; /* kitty PNG8 */
};

/* The glyph set g's frame: the cells blitted and encoded against the last
 * frame's (its bytes), and what the screen then shows against ref. */
static double glyph_frame(struct run *r, enum glyph_set g, struct encoder *e,
                          struct cells *cells, struct image *im, const struct image *ref,
                          double *kb)
{
    run_draw(r, cells_scale(g), im);
    cells_blit(im, cells, COLOR_TRUE, g);
    struct buf out;
    buf_init(&out);
    encode_frame(e, cells, &out);
    *kb += (double)out.len / 1000.0;
    buf_free(&out);
    return ref ? cells_error(e->shadow, cells->cols, cells->rows, ref) : 0.0;
}

static void trade_of(int sc, int cols, int rows, struct trade *t)
{
    memset(t, 0, sizeof *t);
    struct run r;
    run_open(&r, sc, cols, rows);
    if (!r.ok)
        return;
    struct image im, ref;
    image_init(&im, 1, 1);
    image_init(&ref, 1, 1);
    struct cells half, sext;
    cells_init(&half, cols, app_canvas_rows(&r.a));
    cells_init(&sext, cols, app_canvas_rows(&r.a));
    struct encoder eh, es;
    encode_init(&eh, COLOR_TRUE, APP_DEFAULT_TOLERANCE, false);
    encode_init(&es, COLOR_TRUE, APP_DEFAULT_TOLERANCE, false);
    eh.sweep = es.sweep = true;
    struct kitty kt[NPIX], k8[NPIX];
    for (int l = 0; l < NPIX; l++)
        kitty_init(&kt[l], KITTY_ID, KITTY_PNG, 1), kitty_init(&k8[l], KITTY_ID, KITTY_PNG8, 1);
    run_frames(&r, WARM);
    int measured = 0;
    for (int f = 0; f < GLYPH_FRAMES; f++) {
        run_frames(&r, 1);
        const bool look = f % 6 == 5; /* the error on every 6th frame */
        if (look)
            run_draw(&r, FULL, &ref), measured++;
        const struct image *rf = look ? &ref : NULL;
        t->half_err += glyph_frame(&r, GLYPHS_HALF, &eh, &half, &im, rf, &t->half_kb);
        t->sext_err += glyph_frame(&r, GLYPHS_SEXTANT, &es, &sext, &im, rf, &t->sext_kb);
        for (int l = 0; l < NPIX; l++) {
            struct buf out;
            buf_init(&out);
            run_draw(&r, pix_levels[l], &im);
            kitty_frame(&kt[l], &im, 0, 0, cols, app_canvas_rows(&r.a), &out);
            t->pix_kb[l] += (double)out.len / 1000.0;
            buf_clear(&out);
            kitty_frame(&k8[l], &im, 0, 0, cols, app_canvas_rows(&r.a), &out);
            t->pix8_kb[l] += (double)out.len / 1000.0;
            if (look) {
                t->pix_err[l] += scaled_error(&im, &ref);
                t->pix8_err[l] += k8[l].format == KITTY_PNG8
                                      ? palette_error(&k8[l].q, k8[l].idx, &im, &ref)
                                      : scaled_error(&im, &ref); /* without zlib, RGB */
            }
            buf_free(&out);
        }
    }
    t->half_kb /= GLYPH_FRAMES, t->sext_kb /= GLYPH_FRAMES;
    t->half_err /= measured, t->sext_err /= measured;
    for (int l = 0; l < NPIX; l++) {
        t->pix_kb[l] /= GLYPH_FRAMES, t->pix_err[l] /= measured, kitty_free(&kt[l]);
        t->pix8_kb[l] /= GLYPH_FRAMES, t->pix8_err[l] /= measured, kitty_free(&k8[l]);
    }
    encode_free(&eh);
    encode_free(&es);
    cells_free(&half);
    cells_free(&sext);
    image_free(&ref);
    image_free(&im);
    app_free(&r.a);
}

static void print_trade(int sc, int cols, int rows, const struct trade *t)
{
    printf("  %-5s %dx%-3d glyphs: half %.1f KB err %.1f, sextant %.1f KB err %.1f; kitty png:",
           scenes[sc]->name, cols, rows, t->half_kb, t->half_err, t->sext_kb, t->sext_err);
    for (int l = 0; l < NPIX; l++)
        printf(" k=%d %.1f KB err %.1f%s", pix_levels[l], t->pix_kb[l], t->pix_err[l],
               l + 1 < NPIX ? "," : "\n");
    printf("  %-5s %12s kitty png8:", "", "");
    for (int l = 0; l < NPIX; l++)
        printf(" k=%d %.1f KB err %.1f%s", pix_levels[l], t->pix8_kb[l], t->pix8_err[l],
               l + 1 < NPIX ? "," : "\n");
    /* pixfit's model of the bytes at each k from those measured at k = 2. */
    const struct pixfit_in in = {cols * CELL_W, (rows - 1) * CELL_H, cols, 2 * (rows - 1), 2,
                                 t->pix_kb[1] * 1000.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    printf("  %-5s %12s pixfit's model from k=2 (k_max %d):", "", "", pixfit_max(&in));
    for (int l = 0; l < NPIX; l++)
        printf(" k=%d %.1f KB%s", pix_levels[l], pixfit_bytes(&in, pix_levels[l]) / 1000.0,
               l + 1 < NPIX ? "," : "\n");
    /* The least pixel level nearer than sextants, and its cost per cell. */
    for (int l = 0; l < NPIX; l++)
        if (t->pix_err[l] < t->sext_err) {
            printf("  %-5s %12s nearer than sextants from k=%d: %.1f KB a frame, %.2f bytes a "
                   "cell (sextants' %.2f)\n", "", "", pix_levels[l], t->pix_kb[l],
                   t->pix_kb[l] * 1000.0 / (cols * (rows - 1)),
                   t->sext_kb * 1000.0 / (cols * (rows - 1)));
            break;
        }
}

/* ---- low budgets: what each shows when whole frames do not fit ---------- */

#define LOW_FRAMES 45 /* frames at each budget, */
#define LOW_LOOK 3    /* the error on every this many */
static const double low_budgets[] = {8.0, 2.0, 0.5, 0.25, 0.125}; /* bytes a cell a frame */
#define NLOW 5

struct low {
    double err[4], kb[4]; /* half, sextant, kitty, sixel: mean error and KB a frame sent */
    double frames[2], k[2]; /* kitty, sixel: frames sent a second, their mean k */
};

/* Pixels at a budget: pixfit's scale from what the frames cost, and a frame
 * sent only when the budget's bytes saved up cover it (the link's pace: the
 * frames between are skipped). */
struct pix_link {
    struct pixfit fit;
    struct pixfit_in in;
    bool sixel;           /* sixel (each pixel repeated to fill the area), else kitty */
    struct kitty kt;
    struct sixel sx;
    struct image shown;   /* what the terminal shows */
    double credit, kb;
    int sent, ksum;
};

static void pix_link_frame(struct pix_link *p, struct run *r, struct image *im, double now)
{
    const int k = pixfit_choose(&p->fit, &p->in, now);
    run_draw(r, k > 0 ? k : 1, im);
    struct buf out;
    buf_init(&out);
    if (p->sixel) {
        p->sx.scale = pixfit_repeat(&p->in, k);
        sixel_frame(&p->sx, im, 0, 0, &out);
    } else {
        kitty_frame(&p->kt, im, 0, 0, r->a.cols, app_canvas_rows(&r->a), &out);
    }
    const double bytes = (double)out.len;
    buf_free(&out);
    p->in.frame_bytes = p->in.measured_k == k ? 0.7 * p->in.frame_bytes + 0.3 * bytes : bytes;
    p->in.measured_k = k;
    p->credit = fmin(p->credit + p->in.budget, fmax(2.0 * p->in.budget, bytes));
    if (p->credit >= bytes) { /* it goes */
        p->credit -= bytes;
        p->kb += bytes / 1000.0;
        p->sent++, p->ksum += k;
        image_copy(&p->shown, im);
    } else { /* not sent: the next is sent whole */
        kitty_invalidate(&p->kt);
        sixel_invalidate(&p->sx);
    }
}

static void low_of(int sc, int cols, int rows, double per_cell, struct low *l)
{
    memset(l, 0, sizeof *l);
    struct run r;
    run_open(&r, sc, cols, rows);
    if (!r.ok)
        return;
    const int crow = app_canvas_rows(&r.a);
    const double budget = per_cell * cols * crow;
    struct image im, ref;
    image_init(&im, 1, 1);
    image_init(&ref, 1, 1);
    struct cells cells[2];
    struct encoder enc[2];
    double credit[2] = {0.0, 0.0}, last[2] = {0.0, 0.0}; /* glyphs: bytes saved up, the last frame's */
    for (int g = 0; g < 2; g++) {
        cells_init(&cells[g], cols, crow);
        encode_init(&enc[g], COLOR_TRUE, APP_DEFAULT_TOLERANCE, false);
        enc[g].sweep = true;
    }
    struct pix_link p[2];
    for (int x = 0; x < 2; x++) {
        p[x] = (struct pix_link){.in = {cols * CELL_W, crow * CELL_H, app_canvas_w(&r.a),
                                        app_canvas_h(&r.a), 0, 0.0, 0.0, budget, 0.0,
                                        x ? PIXFIT_GROWTH_REPEAT : 0.0,
                                        x ? PIXFIT_GLYPH_FRAMES_SIXEL : 0.0},
                                 .sixel = x == 1};
        pixfit_init(&p[x].fit);
        kitty_init(&p[x].kt, KITTY_ID, KITTY_PNG, 1);
        sixel_init(&p[x].sx, QUANT_MEDIAN, QUANT_MAX);
        image_init(&p[x].shown, 1, 1);
    }
    run_frames(&r, WARM);
    int looks = 0;
    for (int f = 0; f < LOW_FRAMES; f++) {
        run_frames(&r, 1);
        double kb[2] = {0.0, 0.0};
        const bool look = f % LOW_LOOK == LOW_LOOK - 1;
        if (look)
            run_draw(&r, FULL, &ref), looks++;
        for (int g = 0; g < 2; g++) {
            /* A whole frame when the budget has saved up what the last took
             * (the frame loop's pace); else the screen stays as it is. */
            credit[g] = fmin(credit[g] + budget, fmax(2.0 * budget, last[g]));
            if (credit[g] >= last[g]) {
                const double e = glyph_frame(&r, g ? GLYPHS_SEXTANT : GLYPHS_HALF, &enc[g],
                                             &cells[g], &im, look ? &ref : NULL, &kb[g]);
                last[g] = 1000.0 * kb[g];
                credit[g] -= last[g];
                l->err[g] += e, l->kb[g] += kb[g];
            } else if (look) {
                l->err[g] += cells_error(enc[g].shadow, cells[g].cols, cells[g].rows, &ref);
            }
        }
        for (int x = 0; x < 2; x++) {
            pix_link_frame(&p[x], &r, &im, (double)f / 30.0);
            if (look)
                l->err[2 + x] += scaled_error(&p[x].shown, &ref);
        }
    }
    for (int g = 0; g < 4; g++)
        l->err[g] /= looks;
    l->kb[0] /= LOW_FRAMES, l->kb[1] /= LOW_FRAMES;
    for (int x = 0; x < 2; x++) {
        l->kb[2 + x] = p[x].kb / LOW_FRAMES;
        l->frames[x] = 30.0 * p[x].sent / LOW_FRAMES;
        l->k[x] = p[x].sent ? (double)p[x].ksum / p[x].sent : 0.0;
        kitty_free(&p[x].kt);
        sixel_free(&p[x].sx);
        image_free(&p[x].shown);
    }
    for (int g = 0; g < 2; g++)
        encode_free(&enc[g]), cells_free(&cells[g]);
    image_free(&ref);
    image_free(&im);
    app_free(&r.a);
}

static void print_low(void)
{
    printf("  low budgets at 100x30, each frame's bytes capped (glyphs: whole frames at full "
           "detail, a frame sent when the budget has saved up its bytes, the ladder's coarser "
           "levels aside; pixels: pixfit's k, the same pace), "
           "the mean RGB distance of what the screen shows from the picture at k=%d now:\n", FULL);
    for (int b = 0; b < NLOW; b++)
        for (int sc = 0; sc < SCENE_COUNT; sc++) {
            struct low l;
            low_of(sc, 100, 30, low_budgets[b], &l);
            printf("  %-5s %5.3g bytes a cell (%5.1f KB): half err %5.1f, sextant err %5.1f; "
                   "kitty err %5.1f (%4.1f frames a second, k %.1f); sixel err %5.1f (%4.1f, k "
                   "%.1f)\n", scenes[sc]->name, low_budgets[b], low_budgets[b] * 100 * 29 / 1000.0,
                   l.err[0], l.err[1], l.err[2], l.frames[0], l.k[0], l.err[3], l.frames[1],
                   l.k[1]);
        }
}

void bench_pixels(void)
{
    printf("pixels: a frame of each scene's --auto picture in the terminal's pixels, cells of "
           "%dx%d, drawn at k image pixels a canvas pixel (k=%d: 8x16 of a cell), the mean of %d "
           "frames; bytes and encoding ms a frame (this thread's CPU time; %s), a palette's "
           "error (mean RGB distance a pixel):\n", CELL_W, CELL_H, FULL, SAMPLES,
           kitty_zlib() ? "zlib level 1" : "built without zlib: kitty uncompressed, no PNG");
    printf("  %-15s %-14s", "", "");
    for (int e = 0; e < NENC; e++)
        printf(" | %-19s%s", enc_name[e], e >= ENC_KITTY_PNG8 ? "         " : "");
    printf("\n");
    for (int z = 0; z < NSIZES; z++)
        for (int sc = 0; sc < SCENE_COUNT; sc++)
            protocol_costs(sc, z);
    printf("  pixels against glyphs (truecolor, tolerance %d, %d frames in a row), bytes a frame "
           "and the mean RGB distance from the picture at k=%d:\n", APP_DEFAULT_TOLERANCE,
           GLYPH_FRAMES, FULL);
    for (int z = 0; z < NSIZES; z++)
        for (int sc = 0; sc < SCENE_COUNT; sc++) {
            struct trade t;
            trade_of(sc, sizes[z].cols, sizes[z].rows, &t);
            print_trade(sc, sizes[z].cols, sizes[z].rows, &t);
        }
    print_low();
    bench_pixels_link();
}
