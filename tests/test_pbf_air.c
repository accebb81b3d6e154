/*
 * test_pbf_air.c — no black holes in the water: air that a breaking wave or
 * the churn closes in on every side is drawn as foaming water, not as the
 * background. The tour's water (the autopilot's sweeps, which trap air in
 * most frames) is drawn frame by frame, and no dark pixel inside the box may
 * be cut off from the air under the lid.
 */
#include "app.h"
#include "fixtures.h"
#include "image.h"
#include "test.h"

#include <stdlib.h>

static double still_clock(void) { return 0.0; }

/* The background, or nearly (what a person sees as a hole). */
static bool dark(rgb_t c) { return rgb_r(c) < 40 && rgb_g(c) < 40 && rgb_b(c) < 40; }
/* Air a person sees through: dark, or a faint drop's dark blue. */
static bool clear(rgb_t c) { return rgb_r(c) < 64 && rgb_g(c) < 64 && rgb_b(c) < 64; }
static bool grey(rgb_t c)
{
    return !dark(c) && abs(rgb_r(c) - rgb_b(c)) < 30 && abs(rgb_g(c) - rgb_b(c)) < 30;
}

/* Dark pixels inside the box that no path of clear pixels joins to the row
 * under the lid. The box is found from the middle row and column: the margin
 * (dark), then the wall (grey), then the inside. -1: no box found. */
static int enclosed_dark(const struct image *im, int *stack, unsigned char *seen)
{
    const int w = im->w, h = im->h, mx = w / 2, my = h / 2;
    int x0 = 0, x1 = w - 1, y0 = 0;
    while (x0 < w && !grey(image_get(im, x0, my)))
        x0++;
    while (x0 < w && grey(image_get(im, x0, my)))
        x0++;
    while (x1 >= 0 && !grey(image_get(im, x1, my)))
        x1--;
    while (x1 >= 0 && grey(image_get(im, x1, my)))
        x1--;
    while (y0 < h && !grey(image_get(im, mx, y0)))
        y0++;
    while (y0 < h && grey(image_get(im, mx, y0)))
        y0++;
    int y1 = h - 1;
    while (y1 >= 0 && !grey(image_get(im, mx, y1)))
        y1--;
    while (y1 >= 0 && grey(image_get(im, mx, y1)))
        y1--;
    if (x1 - x0 < 8 || y1 - y0 < 8)
        return -1;
    for (int i = 0; i < w * h; i++)
        seen[i] = 0;
    int top = 0;
    for (int x = x0; x <= x1; x++)
        if (clear(image_get(im, x, y0)))
            seen[y0 * w + x] = 1, stack[top++] = y0 * w + x;
    while (top > 0) {
        const int i = stack[--top], x = i % w, y = i / w;
        const int next[4] = {x > x0 ? i - 1 : -1, x < x1 ? i + 1 : -1, y > y0 ? i - w : -1,
                             y < y1 ? i + w : -1};
        for (int k = 0; k < 4; k++)
            if (next[k] >= 0 && !seen[next[k]] && clear(im->px[next[k]]))
                seen[next[k]] = 1, stack[top++] = next[k];
    }
    int n = 0;
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++)
            n += dark(image_get(im, x, y)) && !seen[y * w + x];
    return n;
}

TEST(pbf_trapped_air_is_drawn_as_water_not_as_holes)
{
    struct app_opts o;
    app_opts_default(&o);
    o.scene = 1;
    o.autopilot = true;
    struct app a;
    CHECK(app_init(&a, &o, 80, 24) == 0);
    const int w = app_canvas_w(&a), h = app_canvas_h(&a);
    struct image im;
    image_init(&im, w, h);
    int *stack = malloc((size_t)w * (size_t)h * sizeof *stack);
    unsigned char *seen = malloc((size_t)w * (size_t)h);
    CHECK(stack && seen);
    int frames = 0, holes = 0, worst = 0;
    for (int f = 0; f < 270 && stack && seen; f++) { /* the tour's 9 s */
        fx_app_advance(&a, 1.0 / 30, still_clock);
        if (f % 3)
            continue;
        app_scene(&a)->draw(a.st[a.cur], &im);
        const int n = enclosed_dark(&im, stack, seen);
        CHECK_MSG(n >= 0, "frame %d: no box found", f);
        frames++;
        holes += n >= 3; /* a hole, not a speck where a drop's rim meets air */
        worst = n > worst ? n : worst;
    }
    CHECK(frames == 90);
    CHECK_MSG(holes == 0, "%d of %d frames show a dark hole in the water (at most %d px)", holes,
              frames, worst);
    free(stack);
    free(seen);
    image_free(&im);
    app_free(&a);
}
