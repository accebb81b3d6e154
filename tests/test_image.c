/*
 * test_image.c — the canvas's drawing helpers with coordinates far off the
 * canvas (a deep zoom, a piece of cloth that fell for minutes), infinite and
 * NaN: each draw is quick, touches nothing outside the image, and what does
 * cross the canvas is still drawn where it crosses. Built by `make sanitize`
 * with -fsanitize=float-cast-overflow, any float-to-int conversion that
 * overflows fails these tests.
 */
#include "buf.h"
#include "fixtures.h"
#include "image.h"
#include "image_internal.h"
#include "test.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const float far[] = {1e12f, -1e12f, NAN, INFINITY, -INFINITY, 3e9f, -3e9f, 2.2e9f,
                            1e30f, -FLT_MAX, FLT_MAX, 10.25f, 37.5f, -0.5f, 80.0f};
#define NFAR ((int)(sizeof far / sizeof far[0]))

TEST(image_far_off_coordinates_draw_fast_and_only_inside)
{
    struct image im;
    fx_image_guarded(&im, 80, 46);
    const rgb_t c = RGB(200, 100, 50);
    double t0 = buf_now();
    /* Every line between two of the points (far x far x far x far). */
    for (int a = 0; a < NFAR; a++)
        for (int b = 0; b < NFAR; b++)
            for (int d = 0; d < NFAR; d++)
                for (int e = 0; e < NFAR; e++)
                    image_line(&im, far[a], far[b], far[d], far[e], c);
    struct rng r = {7};
    for (int k = 0; k < 20000; k++) {
        float v[6];
        for (int i = 0; i < 6; i++)
            v[i] = far[rng_next(&r) % NFAR];
        image_triangle(&im, v[0], v[1], v[2], v[3], v[4], v[5], c);
        image_disc(&im, v[0], v[1], fabsf(v[2]), c, 0.5f);
    }
    double took = buf_now() - t0;
    /* One such draw took 12-23 s: a generous bound for all of them together. */
    CHECK_MSG(took < 10.0, "%.1f s to draw", took);
    CHECK_MSG(fx_image_guards_intact(&im), "drawn outside the image");
    fx_image_guarded_free(&im);
}

TEST(image_far_off_shapes_still_cross_the_canvas_where_they_should)
{
    struct image im;
    fx_image_guarded(&im, 80, 46);
    const rgb_t c = RGB(255, 255, 255);
    /* A horizontal line through row 10 from far left to far right: all of it. */
    image_line(&im, -1e12f, 10.5f, 1e12f, 10.5f, c);
    int lit = 0;
    for (int x = 0; x < im.w; x++)
        lit += image_get(&im, x, 10) == c;
    CHECK_INT(lit, im.w);
    /* The diagonal y = x, its ends a trillion pixels off: on the diagonal. */
    image_fill(&im, 0);
    image_line(&im, -1e12f, -1e12f, 1e12f, 1e12f, c);
    int on = 0, off = 0;
    for (int y = 0; y < im.h; y++)
        for (int x = 0; x < im.w; x++)
            if (image_get(&im, x, y) != 0) {
                if (abs(x - y) <= 1)
                    on++;
                else
                    off++;
            }
    CHECK_MSG(on >= im.h && off == 0, "%d pixels on the diagonal, %d off it", on, off);
    /* A triangle around the whole canvas fills it; one far away draws nothing. */
    image_fill(&im, 0);
    image_triangle(&im, -1e12f, -1e12f, 1e12f, -1e12f, 0.0f, 1e12f, c);
    CHECK(image_get(&im, 0, 0) == c && image_get(&im, im.w - 1, im.h - 1) == c);
    image_fill(&im, 0);
    image_triangle(&im, 3e9f, 3e9f, 3e9f + 10.0f, 3e9f, 3e9f, 3e9f + 10.0f, c);
    image_disc(&im, -3e9f, 20.0f, 5.0f, c, 1.0f);
    image_line(&im, 5.0f, 3e9f, 9.0f, 3e9f + 1.0f, c); /* short, far below */
    int any = 0;
    for (int i = 0; i < im.w * im.h; i++)
        any += im.px[i] != 0;
    CHECK_INT(any, 0);
    CHECK(fx_image_guards_intact(&im));
    fx_image_guarded_free(&im);
}

/* Blended shapes of every kind, overlapping, some half off the image. */
static void shapes(struct image *im)
{
    image_fill(im, RGB(10, 20, 30));
    image_triangle(im, 3.2f, 1.5f, 40.7f, 12.1f, 9.9f, 33.3f, RGB(200, 40, 40));
    image_disc(im, 20.0f, 18.0f, 7.3f, RGB(40, 200, 90), 0.6f);
    image_disc(im, 44.0f, -2.0f, 5.0f, RGB(250, 250, 0), 1.0f);
    image_line(im, -5.0f, 3.0f, 50.0f, 30.0f, RGB(255, 255, 255));
    image_thick_line(im, 2.0f, 35.0f, 45.0f, 2.5f, RGB(30, 30, 250), 2.6f);
    image_blend(im, 7, 22, RGB(0, 0, 0), 0.5f);
    image_put(im, 9, 23, RGB(1, 2, 3));
}

TEST(image_bands_drawn_apart_make_the_whole)
{
    /* The same shapes drawn band by band (each band's drawing kept to its
     * rows, bands of uneven heights) give the image drawn whole, and a band
     * leaves the rows outside it alone. */
    struct image whole, banded;
    image_init(&whole, 48, 37);
    image_init(&banded, 48, 37);
    shapes(&whole);
    static const int cut[] = {0, 1, 9, 10, 23, 36, 37};
    for (size_t k = 0; k + 1 < sizeof cut / sizeof cut[0]; k++) {
        struct image b = image_band(&banded, cut[k], cut[k + 1]);
        CHECK(image_row0(&b) == cut[k] && image_row1(&b) == cut[k + 1]);
        shapes(&b);
    }
    CHECK(memcmp(whole.px, banded.px, sizeof *whole.px * 48 * 37) == 0);
    /* A band of a band keeps to both; an empty one draws nothing. */
    image_fill(&banded, 0);
    struct image outer = image_band(&banded, 5, 20), inner = image_band(&outer, 15, 30);
    CHECK(image_row0(&inner) == 15 && image_row1(&inner) == 20);
    struct image none = image_band(&banded, 30, 10);
    image_fill(&none, RGB(9, 9, 9));
    image_fill(&inner, RGB(1, 1, 1));
    int lit = 0;
    for (int y = 0; y < 37; y++)
        for (int x = 0; x < 48; x++)
            lit += image_get(&banded, x, y) != 0 && (y < 15 || y >= 20);
    CHECK_INT(lit, 0);
    image_free(&whole);
    image_free(&banded);
}
