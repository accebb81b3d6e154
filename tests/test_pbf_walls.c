/*
 * test_pbf_walls.c — the pbf box's walls as each colour mode shows them (the
 * picture judged pixel by pixel through palette_dither and palette_ink, as the
 * blit does): grey all along in 256, 16 and 8 colours, where they meet water
 * too (a wall blended over water was a greyish blue, and blue at 8 and 16
 * colours); solid lines in mono (a wall a pixel thin, anti-aliased over two,
 * was too dark to ink or a dotted line). Canvases of several sizes, the view
 * zoomed out too (the box then lies anywhere on the pixels), the water
 * collapsing and at rest.
 */
#include "cells.h"
#include "fixtures.h"
#include "image.h"
#include "palette.h"
#include "pbf_scene.h"
#include "scene.h"
#include "swirl.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The scene on a cols x rows terminal (seed 1), untouched. */
static void *scene_open(int cols, int rows)
{
    struct scene_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    void *st = scene_pbf.create(&o, cols, 2 * (rows - 1));
    CHECK(st != NULL);
    return st;
}

/* n frames on, untouched. */
static void scene_frames(void *st, int frames)
{
    float path[4] = {0};
    struct pointer p = {.path = path, .npath = 2, .dt = 1.0f / 240.0f};
    for (int f = 0; f < frames; f++)
        for (int k = 0; k < scene_pbf.steps_per_frame(st); k++)
            scene_pbf.step(st, &p);
}

/* The scene's picture now, zoomed by clicks of the wheel about the canvas's
 * centre, as a scene that was zoomed so from the start and never drew
 * before would draw it (the wheel moves the view alone; the drawing keeps
 * something of the last picture, pbf_shade.c's PLAY, so it draws with a
 * state of its own, fresh, and the view and the state are put back after). */
static void scene_picture(void *st, const struct water_draw *fresh, struct image *im, int cols,
                          int rows, int clicks)
{
    struct pbf_scene *ps = st;
    const struct view v = ps->view;
    const struct water_draw kept = ps->draw;
    image_init(im, cols, 2 * (rows - 1));
    if (clicks)
        scene_pbf.zoom(st, 0.5f * (float)im->w, 0.5f * (float)im->h, clicks);
    ps->draw = *fresh;
    scene_pbf.draw(st, im);
    water_draw_free(&ps->draw);
    ps->draw = kept;
    ps->view = v;
}

/* What a mode shows of each pixel: 0 nothing (black, or not inked in mono),
 * 1 a grey, 2 a colour. */
static int shown(enum color_mode mode, rgb_t c, int x, int y)
{
    if (mode == COLOR_MONO)
        return palette_ink(c, x, y) ? 1 : 0;
    const rgb_t d = palette_dither(mode, c, x, y);
    if (d == 0)
        return 0;
    return rgb_r(d) == rgb_g(d) && rgb_g(d) == rgb_b(d) ? 1 : 2;
}

/* The box in the shown picture: each row and column between the first and
 * last that show anything ([x0, x1] x [y0, y1]) begins and ends with a grey
 * (mono: ink) on the box's outline, and at 8 colours and more the wall is as
 * thick where water meets it as where air does. False and a message at the
 * first that does not. */
static bool box_holds(enum color_mode mode, const struct image *im, char *why, size_t n)
{
    const int w = im->w, h = im->h;
    int x0 = w, x1 = -1, y0 = h, y1 = -1;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if (shown(mode, image_get(im, x, y), x, y)) {
                x0 = x < x0 ? x : x0, x1 = x > x1 ? x : x1;
                y0 = y < y0 ? y : y0, y1 = y > y1 ? y : y1;
            }
    if (x1 - x0 < 4 || y1 - y0 < 4) {
        snprintf(why, n, "no box: [%d, %d] x [%d, %d]", x0, x1, y0, y1);
        return false;
    }
    for (int y = y0; y <= y1; y++) {
        int a = x0, b = x1;
        while (a <= x1 && !shown(mode, image_get(im, a, y), a, y))
            a++;
        while (b >= x0 && !shown(mode, image_get(im, b, y), b, y))
            b--;
        if (a != x0 || b != x1 || shown(mode, image_get(im, a, y), a, y) != 1 ||
            shown(mode, image_get(im, b, y), b, y) != 1) {
            snprintf(why, n, "row %d shows from %d to %d (%d, %d), the box from %d to %d", y,
                     a, b, a <= x1 ? shown(mode, image_get(im, a, y), a, y) : -1,
                     b >= x0 ? shown(mode, image_get(im, b, y), b, y) : -1, x0, x1);
            return false;
        }
    }
    for (int x = x0; x <= x1; x++) {
        int a = y0, b = y1;
        while (a <= y1 && !shown(mode, image_get(im, x, a), x, a))
            a++;
        while (b >= y0 && !shown(mode, image_get(im, x, b), x, b))
            b--;
        if (a != y0 || b != y1 || shown(mode, image_get(im, x, a), x, a) != 1 ||
            shown(mode, image_get(im, x, b), x, b) != 1) {
            snprintf(why, n, "column %d shows from %d to %d, the box from %d to %d", x, a, b,
                     y0, y1);
            return false;
        }
    }
    if (mode == COLOR_MONO)
        return true;
    /* The side walls' greys from the outline in, in the rows where air meets
     * them and where water does (what follows is nothing, or a colour): the
     * thinnest of each alike (foam beside a wall may add a grey, never take
     * one). */
    for (int side = 0; side < 2; side++) {
        int thin[2] = {w, w};
        for (int y = y0 + 1; y < y1; y++) {
            int k = 0, x = side ? x1 : x0;
            while (x >= x0 && x <= x1 && shown(mode, image_get(im, x, y), x, y) == 1)
                k++, x += side ? -1 : 1;
            if (x < x0 || x > x1)
                continue;
            const int next = shown(mode, image_get(im, x, y), x, y);
            thin[next == 2] = k < thin[next == 2] ? k : thin[next == 2];
        }
        if (thin[0] < w && thin[1] < w && thin[0] != thin[1]) {
            snprintf(why, n, "the %s wall is %d px thick beside air, %d beside water",
                     side ? "right" : "left", thin[0], thin[1]);
            return false;
        }
    }
    return true;
}

TEST(pbf_draw_walls_stay_grey_and_solid_in_every_mode)
{
    /* The moments of one canvas come from one run of its water, in the
     * order of their frames (the view zoomed for a picture alone). */
    static const struct {
        int cols, rows, clicks, frames;
    } at[] = {
        {80, 24, 0, 30}, {80, 24, -1, 120}, {80, 24, -3, 120}, {80, 24, 0, 200},
        {60, 20, 0, 200}, {97, 31, 0, 120}, {120, 40, 0, 120}, {100, 30, -2, 120},
    };
    static const enum color_mode modes[] = {COLOR_256, COLOR_16, COLOR_8, COLOR_MONO};
    void *st = NULL;
    struct water_draw fresh;
    memset(&fresh, 0, sizeof fresh);
    int done = 0;
    for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
        if (k == 0 || at[k].cols != at[k - 1].cols || at[k].rows != at[k - 1].rows) {
            if (st)
                scene_pbf.destroy(st);
            st = scene_open(at[k].cols, at[k].rows);
            if (!st)
                continue;
            fresh = ((struct pbf_scene *)st)->draw; /* before any picture */
            done = 0;
        }
        if (!st)
            continue;
        scene_frames(st, at[k].frames - done);
        done = at[k].frames;
        struct image im;
        scene_picture(st, &fresh, &im, at[k].cols, at[k].rows, at[k].clicks);
        for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
            char why[160] = "";
            const bool ok = box_holds(modes[m], &im, why, sizeof why);
            CHECK_MSG(ok, "%dx%d, %d clicks, %d frames, %s: %s", at[k].cols, at[k].rows,
                      at[k].clicks, at[k].frames, palette_mode_name(modes[m]), why);
        }
        image_free(&im);
    }
    if (st)
        scene_pbf.destroy(st);
}

/* Does cell (c, r) of a picture drawn k image pixels a canvas pixel hold any
 * of the wall's own pixels (its colour or its inner edge's)? */
static bool cell_has_wall(const struct image *im, int k, int c, int r)
{
    for (int y = 2 * k * r; y < 2 * k * (r + 1); y++)
        for (int x = k * c; x < k * (c + 1); x++) {
            const rgb_t p = image_get(im, x, y);
            if (p == RGB(118, 126, 140) || p == RGB(186, 194, 208))
                return true;
        }
    return false;
}

/* The walls as cells: the cell rows the wall crosses in the middle column
 * (the lid and the floor) and the columns it crosses in the middle row (the
 * sides) each show the same glyph in the same colours all along, between the
 * walls across them: a straight line of one thickness, whatever the water
 * beside it does. False and a message at the first cell that differs. */
static bool walls_straight(const struct image *im, int k, const struct cells *cs, char *why,
                           size_t n)
{
    const int cm = cs->cols / 2, rm = cs->rows / 2;
    bool wall_row[256] = {false}, wall_col[512] = {false};
    int r0 = cs->rows, r1 = -1, c0 = cs->cols, c1 = -1, nr = 0, nc = 0;
    for (int r = 0; r < cs->rows && r < 256; r++)
        if ((wall_row[r] = cell_has_wall(im, k, cm, r)))
            r0 = r < r0 ? r : r0, r1 = r, nr++;
    for (int c = 0; c < cs->cols && c < 512; c++)
        if ((wall_col[c] = cell_has_wall(im, k, c, rm)))
            c0 = c < c0 ? c : c0, c1 = c, nc++;
    if (nr < 2 || nc < 2 || r1 - r0 < 4 || c1 - c0 < 4) {
        snprintf(why, n, "no box: wall rows %d..%d, columns %d..%d", r0, r1, c0, c1);
        return false;
    }
    struct cells *s = (struct cells *)cs;
    for (int r = r0; r <= r1; r++)
        for (int c = c0; c <= c1 && wall_row[r]; c++)
            if (!wall_col[c] && !cells_same(cells_at(s, c, r), cells_at(s, cm, r))) {
                const struct cell *a = cells_at(s, c, r), *b = cells_at(s, cm, r);
                snprintf(why, n, "wall row %d: column %d shows U+%04X %06X/%06X, column %d "
                         "U+%04X %06X/%06X", r, c, (unsigned)a->ch, (unsigned)a->fg,
                         (unsigned)a->bg, cm, (unsigned)b->ch, (unsigned)b->fg, (unsigned)b->bg);
                return false;
            }
    for (int c = c0; c <= c1; c++)
        for (int r = r0; r <= r1 && wall_col[c]; r++)
            if (!wall_row[r] && !cells_same(cells_at(s, c, r), cells_at(s, c, rm))) {
                const struct cell *a = cells_at(s, c, r), *b = cells_at(s, c, rm);
                snprintf(why, n, "wall column %d: row %d shows U+%04X %06X/%06X, row %d "
                         "U+%04X %06X/%06X", c, r, (unsigned)a->ch, (unsigned)a->fg,
                         (unsigned)a->bg, rm, (unsigned)b->ch, (unsigned)b->fg, (unsigned)b->bg);
                return false;
            }
    return true;
}

TEST(pbf_draw_walls_straight_in_every_glyph_set)
{
    /* Half-blocks, quadrants and sextants (drawn at their scale), on canvases
     * of several sizes, the view zoomed out too (the box then lies anywhere
     * on the cells): the water collapsing against the walls, then thrown at
     * the lid from the middle of the pool (its spray hits every wall). One
     * run of the water a canvas, drawn in each glyph set at each moment, each
     * set with a drawing state of its own (swapped in for its draw: the
     * picture keeps some of the last it drew, pbf_shade.c's PLAY), so each
     * set's pictures are those a scene of its own would draw. */
    static const struct {
        int cols, rows, clicks;
    } at[] = {{100, 30, 0}, {80, 24, 0}, {97, 31, 0}, {100, 30, -2}, {81, 25, -3}};
    static const enum glyph_set sets[] = {GLYPHS_HALF, GLYPHS_QUAD, GLYPHS_SEXTANT};
    enum { NSETS = sizeof sets / sizeof sets[0] };
    static const int when[] = {20, 100, 106, 112, 125};
    for (size_t a = 0; a < sizeof at / sizeof at[0]; a++) {
        struct fx_pbf x;
        if (!fx_pbf_open(&x, at[a].cols, at[a].rows, false, NULL))
            return;
        struct pbf_scene *ps = x.st;
        if (at[a].clicks)
            scene_pbf.zoom(x.st, 0.5f * (float)at[a].cols, (float)(at[a].rows - 1),
                           at[a].clicks);
        struct image im[NSETS];
        struct cells cs[NSETS];
        struct water_draw dr[NSETS];
        bool ok[NSETS];
        for (int g = 0; g < NSETS; g++) {
            const int k = cells_scale(sets[g]);
            image_init(&im[g], k * x.im.w, k * x.im.h);
            cells_init(&cs[g], at[a].cols, at[a].rows - 1);
            dr[g] = ps->draw; /* a scene's before its first picture */
            ok[g] = true;
        }
        int done = 0;
        for (size_t w = 0; w < sizeof when / sizeof when[0]; w++) {
            fx_pbf_frames(&x, when[w] - done, false);
            done = when[w];
            for (int g = 0; g < NSETS; g++)
                if (ok[g]) {
                    ps->draw = dr[g];
                    scene_pbf.draw(x.st, &im[g]);
                    dr[g] = ps->draw;
                }
            if (w == 1) { /* a throw up from the pool's middle */
                const float px = 0.5f * (float)at[a].cols, y0 = 2.0f * (float)at[a].rows - 8.0f;
                const float speed = (y0 - 4.0f) / 8.0f * 240.0f;
                fx_pbf_step(&x, px, y0, true, true, 0.0f, 0.0f);
                for (int s = 1; s <= 8; s++)
                    fx_pbf_step(&x, px, y0 - (y0 - 4.0f) * (float)s / 8.0f, true, false, 0.0f,
                                -speed);
                fx_pbf_step(&x, px, 4.0f, false, true, 0.0f, -speed);
            }
            for (int g = 0; g < NSETS; g++) {
                if (!ok[g])
                    continue;
                cells_blit(&im[g], &cs[g], COLOR_TRUE, sets[g]);
                char why[200] = "";
                ok[g] = walls_straight(&im[g], cells_scale(sets[g]), &cs[g], why, sizeof why);
                CHECK_MSG(ok[g], "%dx%d, %d clicks, %s, frame %d: %s", at[a].cols, at[a].rows,
                          at[a].clicks, cells_glyphs_name(sets[g]), when[w], why);
            }
        }
        for (int g = 0; g < NSETS; g++) {
            water_draw_free(&dr[g]);
            cells_free(&cs[g]);
            image_free(&im[g]);
        }
        memset(&ps->draw, 0, sizeof ps->draw); /* each set's freed above */
        fx_pbf_close(&x);
    }
}

/* The mean colour of canvas pixels [x0,x1) x [y0,y1) of a picture drawn k
 * image pixels a canvas pixel. */
static void mean_at(const struct image *im, int k, int x0, int x1, int y0, int y1, double m[3])
{
    double n = 0.0;
    m[0] = m[1] = m[2] = 0.0;
    for (int y = k * y0; y < k * y1; y++)
        for (int x = k * x0; x < k * x1; x++) {
            const rgb_t c = im->px[(size_t)y * (size_t)im->w + (size_t)x];
            m[0] += rgb_r(c), m[1] += rgb_g(c), m[2] += rgb_b(c), n += 1.0;
        }
    for (int i = 0; i < 3; i++)
        m[i] /= n;
}

TEST(pbf_draw_walls_look_alike_at_every_scale)
{
    /* The right wall, in the air beside the block of water (the first
     * picture), drawn 2, 4 and 8 image pixels a canvas pixel (quadrants and
     * sextants draw at 2, the terminal's pixels at several): the strip of
     * canvas pixels around it the same colour on average at each, so the finer
     * glyphs show it as the finest picture does. (Its lighter inner edge was
     * an image pixel at any scale: half the wall at 2, an eighth at 8.) */
    const int cols = 80, rows = 24, w = cols, h = 2 * (rows - 1);
    double m[3][3];
    static const int ks[] = {2, 4, 8};
    for (int i = 0; i < 3; i++) {
        void *st = scene_open(cols, rows);
        if (!st)
            return;
        struct image im;
        image_init(&im, ks[i] * w, ks[i] * h);
        scene_pbf.draw(st, &im);
        mean_at(&im, ks[i], w - 4, w, h / 2 - 3, h / 2 + 3, m[i]);
        image_free(&im);
        scene_pbf.destroy(st);
    }
    for (int i = 0; i < 2; i++)
        for (int c = 0; c < 3; c++)
            CHECK_MSG(fabs(m[i][c] - m[2][c]) < 2.0, "at %d: channel %d %.1f, at 8: %.1f", ks[i], c,
                      m[i][c], m[2][c]);
}
