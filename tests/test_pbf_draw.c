/*
 * test_pbf_draw.c — how the pbf scene draws its water, judged by the pixels it
 * draws (never by timings): water at rest keeps its pixels frame after frame;
 * after a throw the spray is droplets, drawn by the share of a pixel they
 * cover, not full white pixels; a settled body shows no stripes from column to
 * column and no holes; the same run draws the same pixels on any number of
 * threads; a drop is soft (a core and a rim, lighter toward the centre) and
 * every pixel of spray a blue, never a grey, nor above a still surface. The
 * scene is driven as the app drives it (tests/test_pbf_scene.c).
 */
#include "../src/scenes/pbf_scene.h"
#include "fixtures.h"
#include "image.h"
#include "pool.h"
#include "scene.h"
#include "swirl.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BG_R 9 /* the water's background, RGB(9, 11, 18) */
#define BG_G 11
#define BG_B 18

static bool is_bg(rgb_t c) { return rgb_r(c) == BG_R && rgb_g(c) == BG_G && rgb_b(c) == BG_B; }

/* Water, fully there: blue well above the background. */
static bool is_water(rgb_t c)
{
    const int r = rgb_r(c), g = rgb_g(c), b = rgb_b(c);
    return b >= 100 && b > r + 50 && b > g + 20;
}

/* A colour in OKLab: lightness, chroma and hue (degrees). */
struct lch {
    float l, c, h;
};

static float to_linear(int v)
{
    const float u = (float)v / 255.0f;
    return u <= 0.04045f ? u / 12.92f : powf((u + 0.055f) / 1.055f, 2.4f);
}

static struct lch lch_of(rgb_t p)
{
    const float r = to_linear(rgb_r(p)), g = to_linear(rgb_g(p)), b = to_linear(rgb_b(p));
    const float l = cbrtf(0.4122214708f * r + 0.5363325363f * g + 0.0514459929f * b);
    const float m = cbrtf(0.2119034982f * r + 0.6806995451f * g + 0.1073969566f * b);
    const float s = cbrtf(0.0883024619f * r + 0.2817188376f * g + 0.6299787005f * b);
    const float a = 1.9779984951f * l - 2.4285922050f * m + 0.4505937099f * s;
    const float bb = 0.0259040371f * l + 0.7827717662f * m - 0.8086757660f * s;
    return (struct lch){0.2104542553f * l + 0.7936177850f * m - 0.0040720468f * s,
                        hypotf(a, bb), atan2f(bb, a) * 57.29578f};
}

/* Is c, drawn over the background, a blue, not a grey? Lighter than the
 * water's body (its shallow blue, L 0.58) a pale blue or a white may be; any
 * darker, its chroma must be at least 0.3 of the lightness it adds to the
 * background's, at a blue's hue (the water's are -95 to -120 degrees). A pale
 * blue dimmed over the background (a slate, #1B2733) has 0.24. */
static bool blue_not_grey(rgb_t c)
{
    const struct lch p = lch_of(c), bg = lch_of(RGB(BG_R, BG_G, BG_B));
    if (p.l >= 0.58f)
        return true;
    return p.c >= 0.3f * (p.l - bg.l) && p.h > -140.0f && p.h < -70.0f;
}

/* The top row of water in column c (-1: none). */
static int water_top(const struct image *im, int c)
{
    for (int y = 0; y < im->h; y++)
        if (is_water(image_get(im, c, y)))
            return y;
    return -1;
}

static int changed(const rgb_t *a, const rgb_t *b, int n)
{
    int d = 0;
    for (int i = 0; i < n; i++)
        d += a[i] != b[i];
    return d;
}

TEST(pbf_draw_water_at_rest_keeps_its_pixels)
{
    /* The block collapses and settles, still by 15 s (450 frames: the rest
     * damping's, pbf_scene_water_settles_after_the_dam_break); its particles go
     * on jittering by a tenth of a pixel and swaying by less. Over each half
     * second after that (13 frames of 8 steps of 5 ms), drawn every frame,
     * fewer than 0.2 % of the pixels may change. (Settling takes minutes under
     * a sanitizer; the drawing's code runs there in the other tests.) */
    if (TEST_SANITIZED)
        test_skip("settling takes minutes under a sanitizer");
    struct fx_pbf x;
    if (!fx_pbf_open(&x, 60, 20, false, NULL))
        return;
    const int n = x.im.w * x.im.h;
    rgb_t *from = malloc((size_t)n * sizeof *from), *last = malloc((size_t)n * sizeof *last);
    if (!from || !last) {
        free(from), free(last), fx_pbf_close(&x);
        CHECK(false);
        return;
    }
    fx_pbf_frames(&x, 450, true);
    int water = 0;
    for (int i = 0; i < n; i++)
        water += is_water(x.im.px[i]);
    CHECK_MSG(water > n / 5, "%d water pixels of %d", water, n); /* a pool is drawn */
    int worst = 0, worst_frame = 0;
    for (int window = 0; window < 8; window++) {
        memcpy(from, x.im.px, (size_t)n * sizeof *from);
        for (int f = 0; f < 13; f++) {
            memcpy(last, x.im.px, (size_t)n * sizeof *last);
            fx_pbf_frames(&x, 1, true);
            const int d = changed(last, x.im.px, n);
            worst_frame = d > worst_frame ? d : worst_frame;
        }
        const int d = changed(from, x.im.px, n);
        worst = d > worst ? d : worst;
    }
    CHECK_MSG(worst * 500 < n, "%d of %d pixels changed in half a second", worst, n);

    CHECK_MSG(worst_frame * 500 < n, "%d of %d pixels changed from one frame to the next",
              worst_frame, n);
    free(from);
    free(last);
    fx_pbf_close(&x);
}

TEST(pbf_draw_of_another_size_between_frames_changes_no_pixel)
{
    /* Paused, a picture saved (the scene drawn at three times the canvas) or
     * the status line hidden a moment (a canvas a row taller), and the canvas
     * drawn again: the same pixels as before, the play kept through it (the
     * water sloshing 2 s after the dam broke: play holds many pixels there). */
    struct fx_pbf x;
    if (!fx_pbf_open(&x, 80, 24, false, NULL))
        return;
    fx_pbf_frames(&x, 60, true);
    const int n = x.im.w * x.im.h;
    rgb_t *before = malloc((size_t)n * sizeof *before);
    CHECK(before != NULL);
    if (!before) {
        fx_pbf_close(&x);
        return;
    }
    memcpy(before, x.im.px, (size_t)n * sizeof *before);
    const int other[][2] = {{3 * x.im.w, 3 * x.im.h}, {x.im.w, x.im.h + 2}};
    for (size_t k = 0; k < sizeof other / sizeof other[0]; k++) {
        struct image between;
        image_init(&between, other[k][0], other[k][1]);
        scene_pbf.draw(x.st, &between);
        image_free(&between);
        scene_pbf.draw(x.st, &x.im);
        CHECK_MSG(changed(before, x.im.px, n) == 0, "%d of %d pixels changed after a draw of "
                  "%dx%d", changed(before, x.im.px, n), n, other[k][0], other[k][1]);
    }
    free(before);
    fx_pbf_close(&x);
}

/* A throw: a press inside the water under column col, a fast drag up over 8
 * steps to row 6 and a release while moving (the pointer's velocity is the
 * drag's). */
static void sc_throw(struct fx_pbf *x, int col)
{
    const float top = (float)water_top(&x->im, col), px = (float)col + 0.5f;
    const float y0 = top + 8.5f, speed = (y0 - 6.0f) / 8.0f * 240.0f;
    fx_pbf_step(x, px, y0, true, true, 0.0f, 0.0f);
    for (int k = 1; k <= 8; k++)
        fx_pbf_step(x, px, y0 - (y0 - 6.0f) * (float)k / 8.0f, true, false, 0.0f, -speed);
    fx_pbf_step(x, px, 6.0f, false, true, 0.0f, -speed);
}

/* Spray pixels of an image inside [x0, x1) x [0, y1): drawn (not background),
 * with at least 6 of their 8 neighbours background. Of those, full white
 * ones (every channel 200 or more) and partly covered ones (a drop covering
 * part of the pixel: blue under 225, as fully covered water is not). */
struct spray {
    int pixels, white, partial;
};

static void count_spray(const struct image *im, int x0, int x1, int y1, struct spray *sp)
{
    for (int y = 1; y < y1 - 1; y++)
        for (int x = x0 + 1; x < x1 - 1; x++) {
            const rgb_t c = image_get(im, x, y);
            if (is_bg(c))
                continue;
            int bg = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    bg += (dx || dy) && is_bg(image_get(im, x + dx, y + dy));
            if (bg < 6)
                continue;
            sp->pixels++;
            sp->white += rgb_r(c) >= 200 && rgb_g(c) >= 200 && rgb_b(c) >= 200;
            sp->partial += rgb_b(c) < 225;
        }
}

TEST(pbf_draw_a_throw_sprays_droplets)
{
    struct fx_pbf x;
    if (!fx_pbf_open(&x, 100, 30, false, NULL))
        return;
    fx_pbf_frames(&x, 120, false);
    scene_pbf.draw(x.st, &x.im);
    sc_throw(&x, 50);
    /* The frames after the throw: the handful hits the lid and the pool and
     * sprays. Looked at inside the walls (3 pixels in) and above the floor. */
    struct spray sp = {0, 0, 0};
    for (int f = 0; f < 24; f++) {
        fx_pbf_frames(&x, 1, true);
        count_spray(&x.im, 3, x.im.w - 3, x.im.h - 3, &sp);
    }
    CHECK_MSG(sp.pixels >= 200, "%d spray pixels in 24 frames", sp.pixels);
    CHECK_MSG(sp.white * 50 <= sp.pixels, "%d of %d spray pixels full white", sp.white,
              sp.pixels);
    CHECK_MSG(sp.partial * 2 >= sp.pixels, "%d of %d spray pixels partly covered", sp.partial,
              sp.pixels);
    fx_pbf_close(&x);
}

/* Pixels drawn above the surface (the top of the water in each column inside
 * the walls) that are grey; the last in *which. */
static int grey_above(const struct image *im, rgb_t *which)
{
    int grey = 0;
    for (int c = 3; c < im->w - 3; c++)
        for (int y = 3; y < water_top(im, c); y++)
            if (!is_bg(image_get(im, c, y)) && !blue_not_grey(image_get(im, c, y)))
                grey++, *which = image_get(im, c, y);
    return grey;
}

TEST(pbf_draw_nothing_grey_above_a_still_surface)
{
    /* 100x30 from 15 s on (the block has settled: the rest damping stills it
     * by then, pbf_scene_water_settles_after_the_dam_break): the surface's anti-aliased
     * edge, where a particle stands a little higher, is a blue, never a dim
     * slate patch over the water (the bright line dimmed, #1B2F40). */
    if (TEST_SANITIZED)
        test_skip("settling takes minutes under a sanitizer");
    struct fx_pbf x;
    if (!fx_pbf_open(&x, 100, 30, false, NULL))
        return;
    fx_pbf_frames(&x, 450, false);
    int grey = 0;
    rgb_t which = 0;
    for (int f = 0; f < 100; f++) {
        fx_pbf_frames(&x, 1, true);
        grey += f % 10 == 9 ? grey_above(&x.im, &which) : 0;
    }
    CHECK_MSG(grey == 0, "%d grey pixels above the still surface in 10 frames (#%06X)", grey,
              (unsigned)which);
    fx_pbf_close(&x);
}

TEST(pbf_draw_spray_is_blue_never_grey)
{
    /* Every pixel of spray (drawn, with at least 4 of its 8 neighbours
     * background) in the 24 frames after a throw, in the picture for
     * half-blocks and at twice the canvas (quadrants and sextants): 0.5 % at
     * most grey (a pale blue dimmed over the background was 8 % and 15 %), and
     * a tenth at most pale or white (lightness 0.75 and up: a drop's core;
     * the air between drops drawn as foaming water made two thirds of them
     * hard pale squares). */
    for (int k = 1; k <= 2; k++) {
        struct fx_pbf x;
        if (!fx_pbf_open(&x, 100, 30, false, NULL))
            return;
        fx_pbf_frames(&x, 120, false);
        scene_pbf.draw(x.st, &x.im);
        sc_throw(&x, 50);
        image_resize(&x.im, k * x.im.w, k * x.im.h);
        int spray = 0, grey = 0, pale = 0;
        rgb_t worst = 0;
        for (int f = 0; f < 24; f++) {
            fx_pbf_frames(&x, 1, true);
            for (int y = 1; y < x.im.h - 1; y++)
                for (int xx = 1; xx < x.im.w - 1; xx++) {
                    const rgb_t c = image_get(&x.im, xx, y);
                    if (is_bg(c))
                        continue;
                    int bg = 0;
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++)
                            bg += (dx || dy) && is_bg(image_get(&x.im, xx + dx, y + dy));
                    if (bg < 4)
                        continue;
                    spray++;
                    pale += lch_of(c).l >= 0.75f;
                    if (!blue_not_grey(c))
                        grey++, worst = c;
                }
        }
        CHECK_MSG(spray >= 200, "k %d: %d spray pixels in 24 frames", k, spray);
        CHECK_MSG(grey * 200 <= spray, "k %d: %d of %d spray pixels grey (#%06X)", k, grey,
                  spray, (unsigned)worst);
        CHECK_MSG(pale * 10 <= spray, "k %d: %d of %d spray pixels pale or white", k, pale,
                  spray);
        fx_pbf_close(&x);
    }
}

TEST(pbf_draw_a_drop_is_soft_and_blue)
{
    /* A lone drop in the air, still (no streak), a step after it was let go
     * (so that the solver has weighed its neighbours: none), at several places
     * across a pixel: drawn over more than one pixel (a core and a rim, not one
     * hard pixel), lightest at its core (centred on a pixel, as light as the
     * water's bright line; on a corner, shared by four), the rest darker the
     * farther they lie from it, every pixel a blue. */
    static const float at[][2] = {{50.5f, 12.5f}, {40.2f, 10.8f}, {61.0f, 14.0f}, {30.75f, 9.3f}};
    for (size_t a = 0; a < sizeof at / sizeof at[0]; a++) {
        struct fx_pbf x;
        if (!fx_pbf_open(&x, 100, 30, false, NULL))
            return;
        struct pbf_scene *ps = x.st;
        const float wx = view_wx(&ps->view, at[a][0]), wy = view_wy(&ps->view, at[a][1]);
        CHECK(pbf_add_water(&ps->sim, &wx, &wy, 1, 0.0f, 0.0f) == 0);
        fx_pbf_step(&x, 0.0f, 0.0f, false, false, 0.0f, 0.0f);
        scene_pbf.draw(x.st, &x.im);
        const int cx = (int)at[a][0], cy = (int)at[a][1];
        int drawn = 0, core_x = cx, core_y = cy, not_blue = 0;
        float core = -1.0f;
        for (int y = cy - 4; y <= cy + 4; y++)
            for (int xx = cx - 4; xx <= cx + 4; xx++) {
                const rgb_t c = image_get(&x.im, xx, y);
                if (is_bg(c))
                    continue;
                drawn++;
                not_blue += !blue_not_grey(c);
                const float l = lch_of(c).l;
                if (l > core)
                    core = l, core_x = xx, core_y = y;
            }
        CHECK_MSG(drawn >= 3, "drop at (%.2f, %.2f): %d pixels drawn", (double)at[a][0],
                  (double)at[a][1], drawn);
        CHECK_MSG(not_blue == 0, "drop at (%.2f, %.2f): %d of %d pixels not blue",
                  (double)at[a][0], (double)at[a][1], not_blue, drawn);
        CHECK_MSG(core >= (a == 0 ? 0.7f : 0.45f), "drop at (%.2f, %.2f): its core only L %.3f",
                  (double)at[a][0], (double)at[a][1], (double)core);
        CHECK_MSG(abs(core_x - cx) <= 1 && abs(core_y - cy) <= 1,
                  "drop at (%.2f, %.2f): its lightest pixel at (%d, %d)", (double)at[a][0],
                  (double)at[a][1], core_x, core_y);
        /* Lighter toward the core: a pixel farther (8-neighbour steps) from it
         * never lighter than the lightest one nearer. */
        float ring[5] = {0};
        for (int y = cy - 4; y <= cy + 4; y++)
            for (int xx = cx - 4; xx <= cx + 4; xx++) {
                const int dist = abs(xx - core_x) > abs(y - core_y) ? abs(xx - core_x)
                                                                    : abs(y - core_y);
                const rgb_t c = image_get(&x.im, xx, y);
                const float l = is_bg(c) ? 0.0f : lch_of(c).l;
                if (dist < 5)
                    ring[dist] = fmaxf(ring[dist], l);
            }
        for (int r = 1; r < 5; r++)
            CHECK_MSG(ring[r] <= ring[r - 1],
                      "drop at (%.2f, %.2f): %d pixels from its core as light as L %.3f, "
                      "nearer L %.3f", (double)at[a][0], (double)at[a][1], r, (double)ring[r],
                      (double)ring[r - 1]);
        fx_pbf_close(&x);
    }
}

/* Column stripes and holes in the body of water in the image: over the rows
 * from 3 below the lowest top of the water (in columns [x0, x1)) to 3 above
 * the floor row y_floor, each column's mean brightness m (r + g + b); how far
 * each column's stands out from its neighbours', |m[x] - (m[x-1] + m[x+1]) / 2|
 * (a stripe does, a smooth shading across the body does not), on average and
 * at most; and the pixels in those rows that are not water. */
struct stripes {
    float mean_step, max_step;
    int rows, holes;
};

static struct stripes column_stripes_rows(const struct image *im, int x0, int x1, int y0, int y1)
{
    struct stripes st = {0.0f, 0.0f, 0, 0};
    st.rows = y1 - y0;
    if (st.rows < 4 || x1 - x0 < 3)
        return st;
    float *m = malloc((size_t)(x1 - x0) * sizeof *m);
    if (!m)
        return st;
    for (int x = x0; x < x1; x++) {
        m[x - x0] = 0.0f;
        for (int y = y0; y < y1; y++) {
            const rgb_t c = image_get(im, x, y);
            m[x - x0] += (float)(rgb_r(c) + rgb_g(c) + rgb_b(c));
            st.holes += !is_water(c);
        }
        m[x - x0] /= (float)st.rows;
    }
    float sum = 0.0f;
    for (int k = 1; k < x1 - x0 - 1; k++) {
        const float out = fabsf(m[k] - 0.5f * (m[k - 1] + m[k + 1]));
        sum += out;
        st.max_step = fmaxf(st.max_step, out);
    }
    st.mean_step = sum / (float)(x1 - x0 - 2);
    free(m);
    return st;
}

static struct stripes column_stripes(const struct image *im, int x0, int x1, int y_floor)
{
    int top = 0;
    for (int x = x0; x < x1; x++) {
        const int t = water_top(im, x);
        top = t < 0 ? im->h : t > top ? t : top;
    }
    return column_stripes_rows(im, x0, x1, top + 3, y_floor - 3);
}

/* The floor: the lowest row of water in column c. */
static int water_floor(const struct image *im, int c)
{
    for (int y = im->h - 1; y >= 0; y--)
        if (is_water(image_get(im, c, y)))
            return y;
    return -1;
}

TEST(pbf_draw_a_body_has_no_stripes_or_holes)
{
    if (TEST_SANITIZED)
        test_skip("settling takes minutes under a sanitizer");
    struct fx_pbf x;
    if (!fx_pbf_open(&x, 100, 30, false, NULL))
        return;
    fx_pbf_frames(&x, 120, true);
    const int x0 = 6, x1 = x.im.w - 6, floor = water_floor(&x.im, x.im.w / 2);
    CHECK(floor > x.im.h / 2);
    /* Thrown: from a second after, while it sloshes about, the water near the
     * floor (the 8 rows above its lowest, which lies on the wall) shows
     * neither. */
    sc_throw(&x, 50);
    fx_pbf_frames(&x, 20, true);
    for (int f = 0; f < 4; f++) {
        fx_pbf_frames(&x, 10, true);
        const struct stripes mv = column_stripes_rows(&x.im, x0, x1, floor - 9, floor - 1);
        CHECK_MSG(mv.mean_step < 1.0f && mv.max_step < 4.0f,
                  "frame %d after the throw: a column stands out by %.2f on average, %.2f at "
                  "most (r+g+b)",
                  30 + 10 * f, (double)mv.mean_step, (double)mv.max_step);
        CHECK_MSG(mv.holes == 0, "frame %d after the throw: %d pixels in the body not water",
                  30 + 10 * f, mv.holes);
    }
    /* Settled for 16 s more: a body with waves on it, all of it below the
     * waves. */
    fx_pbf_frames(&x, 400, true);
    const struct stripes st = column_stripes(&x.im, x0, x1, floor);
    CHECK_MSG(st.rows >= 8, "%d rows of body", st.rows);
    CHECK_MSG(st.mean_step < 1.0f && st.max_step < 4.0f,
              "settled: a column stands out by %.2f on average, %.2f at most (r+g+b)",
              (double)st.mean_step, (double)st.max_step);
    CHECK_MSG(st.holes == 0, "settled: %d pixels in the body not water", st.holes);
    fx_pbf_close(&x);
}

TEST_THREADS(pbf_draw_same_pixels_on_any_number_of_threads)
{
    /* The same throw and pour on one thread and on three: the same pixels,
     * frame after frame (the drawing keeps state: what it showed). */
    struct pool *three = pool_create(3);
    struct fx_pbf a, b;
    if (!fx_pbf_open(&a, 80, 24, false, NULL))
        return;
    if (!fx_pbf_open(&b, 80, 24, false, three)) {
        fx_pbf_close(&a);
        pool_destroy(three);
        return;
    }
    const int n = a.im.w * a.im.h;
    int differ = 0;
    for (int f = 0; f < 60; f++) {
        fx_pbf_frames(&a, 1, true);
        fx_pbf_frames(&b, 1, true);
    }
    sc_throw(&a, 40);
    sc_throw(&b, 40);
    CHECK(scene_pbf.key(a.st, 'w') && scene_pbf.key(b.st, 'w'));
    for (int f = 0; f < 40; f++) {
        fx_pbf_frames(&a, 1, true);
        fx_pbf_frames(&b, 1, true);
        differ += changed(a.im.px, b.im.px, n) > 0;
    }
    CHECK_MSG(differ == 0, "%d of 40 frames differ", differ);
    fx_pbf_close(&a);
    fx_pbf_close(&b);
    pool_destroy(three);
}

TEST(pbf_draw_any_canvas_after_any_other)
{
    /* Tall and narrow, then wide and short (fewer pixels, longer rows), then
     * tall again: the drawing's fields must fit each (under a sanitizer, an
     * overrun is caught here). Each is drawn with water in it. */
    static const int size[][2] = {{60, 80}, {100, 40}, {60, 80}, {30, 12}, {160, 90}, {60, 80}};
    struct fx_pbf x;
    if (!fx_pbf_open(&x, 60, 41, false, NULL))
        return;
    fx_pbf_frames(&x, 10, true);
    for (size_t k = 0; k < sizeof size / sizeof size[0]; k++) {
        image_resize(&x.im, size[k][0], size[k][1]);
        scene_pbf.resize(x.st, x.im.w, x.im.h);
        fx_pbf_frames(&x, 2, true);
        int water = 0;
        for (int i = 0; i < x.im.w * x.im.h; i++)
            water += is_water(x.im.px[i]);
        CHECK_MSG(water > 0, "%dx%d: %d water pixels", x.im.w, x.im.h, water);
    }
    fx_pbf_close(&x);
}

/* The body's splat folds what reaches past a wall back inside it: a settled
 * body lies against both side walls and the floor, and none of its coverage
 * lands in a wall's pixels (a fold taken as a plain run of taps would put it
 * one pixel past the right wall). */
TEST(pbf_draw_a_body_against_the_walls_stays_inside_them)
{
    struct fx_pbf x;
    if (!fx_pbf_open(&x, 100, 30, false, NULL))
        return;
    fx_pbf_frames(&x, 15 * 30, false);
    scene_pbf.draw(x.st, &x.im);
    const struct water_draw *d = &((struct pbf_scene *)x.st)->draw;
    const int w = x.im.w, h = x.im.h;
    float left = 0.0f, right = 0.0f, outside = 0.0f;
    for (int y = 0; y < h; y++)
        for (int xx = 0; xx < w; xx++) {
            const float c = d->cov[(size_t)y * (size_t)w + (size_t)xx];
            if (xx < d->x0 || xx > d->x1 || y > d->y1)
                outside = fmaxf(outside, c);
            left += xx == d->x0 ? c : 0.0f;
            right += xx == d->x1 ? c : 0.0f;
        }
    CHECK_MSG(left > 1.0f && right > 1.0f, "the body does not meet both walls: %g, %g",
              (double)left, (double)right);
    CHECK_MSG(outside == 0.0f, "the body's coverage in a wall: %g", (double)outside);
    fx_pbf_close(&x);
}

/* The pixels of two drawings of one moment: how many differ in being water,
 * of how many are water in either, and the mean difference of a channel
 * where both are water. */
struct grid_diff {
    int differ, water;
    double mean;
};

static struct grid_diff compare_water(const struct image *a, const struct image *b)
{
    struct grid_diff d = {0, 0, 0.0};
    long both = 0;
    double sum = 0.0;
    for (int y = 0; y < a->h; y++)
        for (int x = 0; x < a->w; x++) {
            const rgb_t p = image_get(a, x, y), q = image_get(b, x, y);
            const bool wp = is_water(p), wq = is_water(q);
            d.water += wp || wq;
            d.differ += wp != wq;
            if (wp && wq) {
                both++;
                sum += abs(rgb_r(p) - rgb_r(q)) + abs(rgb_g(p) - rgb_g(q)) +
                       abs(rgb_b(p) - rgb_b(q));
            }
        }
    d.mean = both ? sum / (3.0 * (double)both) : 0.0;
    return d;
}

TEST(pbf_draw_on_the_canvas_grid_as_on_the_image)
{
    /* Where the body's kernel is wide (zoomed in, in quadrants: k 2), it is
     * splatted on the canvas's pixels and interpolated to the image. Two copies
     * of one scene, drawn one way and the other, during the collapse, once it
     * has settled, and just after a throw: the pixels they call water are the
     * same but for a sliver along the edges (0.15 % of them here; the grid off
     * by half a pixel makes it 1.4-2.8 %), and their colours are close (a mean
     * 0.4 of a channel at most; 2.6-4.2 off by half a pixel). */
    static const int when[] = {20, 150, 160};
    struct fx_pbf a, b;
    if (!fx_pbf_open(&a, 100, 30, false, NULL))
        return;
    if (!fx_pbf_open(&b, 100, 30, false, NULL)) {
        fx_pbf_close(&a);
        return;
    }
    struct fx_pbf *xs[2] = {&a, &b};
    for (int i = 0; i < 2; i++) {
        image_resize(&xs[i]->im, 2 * xs[i]->im.w, 2 * xs[i]->im.h);
        scene_pbf.zoom(xs[i]->st, 50.0f, 39.0f, 6);
    }
    ((struct pbf_scene *)b.st)->draw.grid_from = 1e9f; /* b: on the image */
    int done = 0;
    for (size_t w = 0; w < sizeof when / sizeof when[0]; w++) {
        for (int i = 0; i < 2; i++) {
            fx_pbf_frames(xs[i], when[w] - done, false);
            if (w == 2) { /* a throw up from the pool */
                fx_pbf_step(xs[i], 50.0f, 52.0f, true, true, 0.0f, 0.0f);
                for (int s = 1; s <= 8; s++)
                    fx_pbf_step(xs[i], 50.0f, 52.0f - 5.0f * (float)s, true, false, 0.0f, -1200.0f);
                fx_pbf_step(xs[i], 50.0f, 12.0f, false, true, 0.0f, -1200.0f);
            }
            ((struct pbf_scene *)xs[i]->st)->draw.kept_ok = false;
            scene_pbf.draw(xs[i]->st, &xs[i]->im);
        }
        done = when[w];
        CHECK_INT(((struct pbf_scene *)a.st)->draw.grid_f, 2);
        CHECK_INT(((struct pbf_scene *)b.st)->draw.grid_f, 1);
        const struct grid_diff d = compare_water(&a.im, &b.im);
        CHECK_MSG(d.water > 2000, "frame %d: %d pixels of water", when[w], d.water);
        CHECK_MSG(d.differ * 200 <= d.water, "frame %d: %d of %d pixels water in one drawing alone",
                  when[w], d.differ, d.water);
        CHECK_MSG(d.mean <= 1.5, "frame %d: colours differ by %.2f a channel", when[w], d.mean);
    }
    fx_pbf_close(&a);
    fx_pbf_close(&b);
}
