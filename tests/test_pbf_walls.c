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
#include "image.h"
#include "palette.h"
#include "scene.h"
#include "swirl.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

/* The scene on a cols x rows terminal, n frames on, untouched, zoomed by
 * clicks of the wheel about the canvas's centre. */
static void *scene_at(struct image *im, int cols, int rows, int clicks, int frames)
{
    struct scene_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    image_init(im, cols, 2 * (rows - 1));
    void *st = scene_pbf.create(&o, im->w, im->h);
    CHECK(st != NULL);
    if (!st)
        return NULL;
    if (clicks)
        scene_pbf.zoom(st, 0.5f * (float)im->w, 0.5f * (float)im->h, clicks);
    float path[4] = {0};
    struct pointer p = {.path = path, .npath = 2, .dt = 1.0f / 240.0f};
    for (int f = 0; f < frames; f++)
        for (int k = 0; k < scene_pbf.steps_per_frame(st); k++)
            scene_pbf.step(st, &p);
    scene_pbf.draw(st, im);
    return st;
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
    static const struct {
        int cols, rows, clicks, frames;
    } at[] = {
        {80, 24, 0, 200}, {80, 24, 0, 30}, {60, 20, 0, 200}, {97, 31, 0, 120},
        {120, 40, 0, 120}, {80, 24, -1, 120}, {80, 24, -3, 120}, {100, 30, -2, 120},
    };
    static const enum color_mode modes[] = {COLOR_256, COLOR_16, COLOR_8, COLOR_MONO};
    for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
        struct image im;
        void *st = scene_at(&im, at[k].cols, at[k].rows, at[k].clicks, at[k].frames);
        if (!st) {
            image_free(&im);
            continue;
        }
        for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
            char why[160] = "";
            const bool ok = box_holds(modes[m], &im, why, sizeof why);
            CHECK_MSG(ok, "%dx%d, %d clicks, %d frames, %s: %s", at[k].cols, at[k].rows,
                      at[k].clicks, at[k].frames, palette_mode_name(modes[m]), why);
        }
        scene_pbf.destroy(st);
        image_free(&im);
    }
}
