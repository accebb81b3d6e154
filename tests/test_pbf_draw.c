/*
 * test_pbf_draw.c — how the pbf scene draws its water, judged by the pixels it
 * draws (never by timings): water at rest keeps its pixels frame after frame;
 * after a throw the spray is droplets, drawn by the share of a pixel they
 * cover, not full white pixels; a settled body shows no stripes from column to
 * column and no holes; the same run draws the same pixels on any number of
 * threads. The scene is driven as the app drives it (tests/test_pbf_scene.c).
 */
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

/* n frames with nothing touching the water, drawn or not. */
static void sc_frames(struct fx_pbf *x, int n, bool draw)
{
    for (int f = 0; f < n; f++) {
        for (int k = 0; k < scene_pbf.steps_per_frame(x->st); k++)
            fx_pbf_step(x, 0.0f, 0.0f, false, false, 0.0f, 0.0f);
        if (draw)
            scene_pbf.draw(x->st, &x->im);
    }
}

static bool is_bg(rgb_t c) { return rgb_r(c) == BG_R && rgb_g(c) == BG_G && rgb_b(c) == BG_B; }

/* Water, fully there: blue well above the background. */
static bool is_water(rgb_t c)
{
    const int r = rgb_r(c), g = rgb_g(c), b = rgb_b(c);
    return b >= 100 && b > r + 50 && b > g + 20;
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
    /* The block collapses and settles in 40 s (1000 frames); its particles go
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
    sc_frames(&x, 1000, true);
    int water = 0;
    for (int i = 0; i < n; i++)
        water += is_water(x.im.px[i]);
    CHECK_MSG(water > n / 5, "%d water pixels of %d", water, n); /* a pool is drawn */
    int worst = 0, worst_frame = 0;
    for (int window = 0; window < 8; window++) {
        memcpy(from, x.im.px, (size_t)n * sizeof *from);
        for (int f = 0; f < 13; f++) {
            memcpy(last, x.im.px, (size_t)n * sizeof *last);
            sc_frames(&x, 1, true);
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
    sc_frames(&x, 120, false);
    scene_pbf.draw(x.st, &x.im);
    sc_throw(&x, 50);
    /* The frames after the throw: the handful hits the lid and the pool and
     * sprays. Looked at inside the walls (3 pixels in) and above the floor. */
    struct spray sp = {0, 0, 0};
    for (int f = 0; f < 24; f++) {
        sc_frames(&x, 1, true);
        count_spray(&x.im, 3, x.im.w - 3, x.im.h - 3, &sp);
    }
    CHECK_MSG(sp.pixels >= 200, "%d spray pixels in 24 frames", sp.pixels);
    CHECK_MSG(sp.white * 50 <= sp.pixels, "%d of %d spray pixels full white", sp.white,
              sp.pixels);
    CHECK_MSG(sp.partial * 2 >= sp.pixels, "%d of %d spray pixels partly covered", sp.partial,
              sp.pixels);
    fx_pbf_close(&x);
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
    sc_frames(&x, 120, true);
    const int x0 = 6, x1 = x.im.w - 6, floor = water_floor(&x.im, x.im.w / 2);
    CHECK(floor > x.im.h / 2);
    /* Thrown: from a second after, while it sloshes about, the water near the
     * floor (the 8 rows above its lowest, which lies on the wall) shows
     * neither. */
    sc_throw(&x, 50);
    sc_frames(&x, 20, true);
    for (int f = 0; f < 4; f++) {
        sc_frames(&x, 10, true);
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
    sc_frames(&x, 400, true);
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
        sc_frames(&a, 1, true);
        sc_frames(&b, 1, true);
    }
    sc_throw(&a, 40);
    sc_throw(&b, 40);
    CHECK(scene_pbf.key(a.st, 'w') && scene_pbf.key(b.st, 'w'));
    for (int f = 0; f < 40; f++) {
        sc_frames(&a, 1, true);
        sc_frames(&b, 1, true);
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
    sc_frames(&x, 10, true);
    for (size_t k = 0; k < sizeof size / sizeof size[0]; k++) {
        image_resize(&x.im, size[k][0], size[k][1]);
        scene_pbf.resize(x.st, x.im.w, x.im.h);
        sc_frames(&x, 2, true);
        int water = 0;
        for (int i = 0; i < x.im.w * x.im.h; i++)
            water += is_water(x.im.px[i]);
        CHECK_MSG(water > 0, "%dx%d: %d water pixels", x.im.w, x.im.h, water);
    }
    fx_pbf_close(&x);
}
