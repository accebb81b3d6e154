/*
 * test_sixel.c — sixel.c's frames drawn back by the tests' decoder
 * (tests/pixdecode.c) as a terminal with P2 = 1 draws them: the size, every
 * pixel drawn, each within its palette's bound of the image (the cube: less
 * than a level's step in each channel, a flat colour's pattern averaging to
 * it; median cut: a picture of no more colours than the palette exact), the
 * scale's pixel repetition, runs sent as repeats, and an unchanged frame
 * sending nothing.
 */
#include "pixdecode.h"
#include "sixel.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Decodes a frame of out at cell (row, col): DECSC, CUP, the DCS string,
 * DECRC and nothing else. */
static bool decode_frame(const struct buf *out, int row, int col, struct image *back,
                         struct px_sixel *info)
{
    char cup[32];
    const int m = snprintf(cup, sizeof cup, "\x1b" "7\x1b[%d;%dH", row + 1, col + 1);
    CHECK_MSG(out->len > (size_t)m && memcmp(out->p, cup, (size_t)m) == 0,
              "a frame begins with DECSC and CUP to its cell");
    const bool ok = px_sixel_decode(out->p + m, out->len - (size_t)m, back, info);
    CHECK_MSG(ok, "sixel: %s", info->why ? info->why : "?");
    CHECK_MSG(ok && (size_t)m + info->len + 2 == out->len &&
                  memcmp(out->p + out->len - 2, "\x1b" "8", 2) == 0,
              "the string is followed by DECRC alone");
    CHECK_INT(info->p2, 1);
    CHECK_MSG(info->pan == 1 && info->pad == 1, "square pixels");
    return ok;
}

/* The most a channel of b is off from a's, each pixel of b against the pixel
 * of a it falls in (b the same size, k times a's, or stretched over more). */
static int worst_channel(const struct image *a, const struct image *b, long *undrawn)
{
    int worst = 0;
    *undrawn = 0;
    for (int y = 0; y < b->h; y++)
        for (int x = 0; x < b->w; x++) {
            const rgb_t p = b->px[(size_t)y * (size_t)b->w + (size_t)x];
            if (p == PX_UNDRAWN) {
                (*undrawn)++;
                continue;
            }
            const rgb_t q = a->px[(size_t)(y * a->h / b->h) * (size_t)a->w +
                                  (size_t)(x * a->w / b->w)];
            const int d[3] = {abs(rgb_r(p) - rgb_r(q)), abs(rgb_g(p) - rgb_g(q)),
                              abs(rgb_b(p) - rgb_b(q))};
            for (int c = 0; c < 3; c++)
                worst = d[c] > worst ? d[c] : worst;
        }
    return worst;
}

/* Eight colours in stripes and blocks, odd sizes: a height that is not a
 * multiple of six. */
static void blocks(struct image *im, int w, int h)
{
    static const rgb_t c[8] = {RGB(0, 0, 0),      RGB(255, 255, 255), RGB(200, 30, 40),
                               RGB(20, 180, 60),  RGB(30, 60, 220),   RGB(250, 200, 10),
                               RGB(128, 128, 128), RGB(90, 10, 120)};
    image_init(im, w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            im->px[(size_t)y * (size_t)w + (size_t)x] = c[(x / 7 + y / 5 + (x * y) % 3) % 8];
}

TEST(sixel_median_frame_of_few_colours_draws_every_pixel_exactly)
{
    struct image im, back;
    blocks(&im, 101, 23);
    image_init(&back, 1, 1);
    struct sixel s;
    sixel_init(&s, QUANT_MEDIAN, 256);
    struct buf out;
    buf_init(&out);
    CHECK(sixel_frame(&s, &im, 3, 7, &out));
    struct px_sixel info;
    if (decode_frame(&out, 7, 3, &back, &info)) {
        CHECK_INT(info.raster_w, 101);
        CHECK_INT(info.raster_h, 23);
        CHECK_MSG(back.w == 101 && back.h == 23, "drawn %dx%d", back.w, back.h);
        long undrawn;
        const int worst = worst_channel(&im, &back, &undrawn);
        CHECK_INT(undrawn, 0);
        /* A percentage per channel: within 255/200 of the colour. */
        CHECK_MSG(worst <= 1, "a channel off by %d", worst);
        CHECK_INT(info.colours, 8);
        CHECK_MSG(info.end_y == 18, "the string ends in its last band (at %d, not 18): no "
                  "line feed after it", info.end_y);
    }
    buf_free(&out);
    sixel_free(&s);
    image_free(&back);
    image_free(&im);
}

/* A smooth picture of every hue, lighter downwards. */
static void gradient(struct image *im, int w, int h)
{
    image_init(im, w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            im->px[(size_t)y * (size_t)w + (size_t)x] =
                rgb_hsl((float)x / (float)w, 0.8f, 0.1f + 0.8f * (float)y / (float)h);
}

TEST(sixel_cube_frame_is_within_a_step_of_the_image_and_flat_areas_average_to_it)
{
    struct image im, back;
    gradient(&im, 160, 50);
    image_init(&back, 1, 1);
    struct sixel s;
    sixel_init(&s, QUANT_CUBE, 256);
    CHECK_INT(s.q.levels, 6);
    struct buf out;
    buf_init(&out);
    CHECK(sixel_frame(&s, &im, 0, 0, &out));
    struct px_sixel info;
    if (decode_frame(&out, 0, 0, &back, &info)) {
        long undrawn;
        const int worst = worst_channel(&im, &back, &undrawn);
        CHECK_INT(undrawn, 0);
        CHECK_MSG(worst < 51 + 2, "a channel off by %d (a step is 51)", worst);
        CHECK_INT(info.colours, 216);
    }
    /* A flat colour between the cube's levels: its 4x4 pattern's mean is
     * the colour. */
    const rgb_t flat = RGB(100, 180, 30);
    image_fill(&im, flat);
    buf_clear(&out);
    CHECK(sixel_frame(&s, &im, 0, 0, &out));
    if (decode_frame(&out, 0, 0, &back, &info)) {
        double sum[3] = {0, 0, 0};
        for (int y = 8; y < 12; y++)
            for (int x = 8; x < 12; x++) {
                const rgb_t p = back.px[(size_t)y * (size_t)back.w + (size_t)x];
                sum[0] += rgb_r(p), sum[1] += rgb_g(p), sum[2] += rgb_b(p);
            }
        CHECK_NEAR(sum[0] / 16, rgb_r(flat), 255.0 / 5 / 16 + 1.5);
        CHECK_NEAR(sum[1] / 16, rgb_g(flat), 255.0 / 5 / 16 + 1.5);
        CHECK_NEAR(sum[2] / 16, rgb_b(flat), 255.0 / 5 / 16 + 1.5);
    }
    buf_free(&out);
    sixel_free(&s);
    image_free(&back);
    image_free(&im);
}

/* The mean distance of b's pixels from a's. */
static double pixel_error(const struct image *a, const struct image *b)
{
    double sum = 0.0;
    for (size_t i = 0; i < (size_t)a->w * (size_t)a->h; i++) {
        const double d[3] = {rgb_r(a->px[i]) - rgb_r(b->px[i]), rgb_g(a->px[i]) - rgb_g(b->px[i]),
                             rgb_b(a->px[i]) - rgb_b(b->px[i])};
        sum += sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    }
    return sum / ((double)a->w * a->h);
}

TEST(sixel_median_frame_of_a_gradient_is_nearer_than_the_cube)
{
    struct image im, back;
    gradient(&im, 200, 60);
    image_init(&back, 1, 1);
    double err[3], pixel[3];
    size_t bytes[3];
    for (int p = 0; p < 3; p++) { /* median cut dithered, not, the cube */
        struct sixel s;
        sixel_init(&s, p == 2 ? QUANT_CUBE : QUANT_MEDIAN, 256);
        s.q.dither = p == 0;
        struct buf out;
        buf_init(&out);
        CHECK(sixel_frame(&s, &im, 0, 0, &out));
        bytes[p] = out.len;
        struct px_sixel info;
        const bool ok = decode_frame(&out, 0, 0, &back, &info);
        err[p] = ok ? px_block_error(&im, &back) : 1e9;
        pixel[p] = ok ? pixel_error(&im, &back) : 1e9;
        /* Undithered, each pixel takes the palette's nearest to its 5-bit
         * bin's pixels: within twice a bin's reach (7 levels a channel) of
         * the nearest to it. */
        if (ok && p == 1)
            CHECK_MSG(px_beyond_nearest(&im, &back) <= 2 * 7 * sqrt(3.0),
                      "a pixel %.1f further than the palette's nearest",
                      px_beyond_nearest(&im, &back));
        buf_free(&out);
        sixel_free(&s);
    }
    /* 256 colours over a picture of every hue and lightness. Pixel by
     * pixel the cube's is the furthest (its pattern of far-apart levels:
     * 35 against 14); 4 x 4 pixels at a time, as the eye takes in a pattern,
     * the median cut's dithered is nearer than its bands (3.9 against 5.3;
     * the cube's 3.0, its thresholds per channel being exact on average). */
    CHECK_MSG(pixel[0] < pixel[2] / 2, "pixels off by %.2f (median cut, dithered), %.2f (the "
              "cube)", pixel[0], pixel[2]);
    CHECK_MSG(err[0] < 0.8 * err[1], "4x4 blocks off by %.2f (median cut, dithered), %.2f "
              "(not)", err[0], err[1]);
    CHECK_MSG(bytes[0] < bytes[2], "bytes: median cut %zu, cube %zu", bytes[0], bytes[2]);
    image_free(&back);
    image_free(&im);
}

TEST(sixel_median_dithers_where_a_colour_is_far_and_nowhere_else)
{
    /* A gradient with a few colours of the palette over it, 30-odd levels
     * apart (bands without dithering), beside a flat colour of its own. */
    struct image im, back;
    image_init(&im, 240, 48);
    for (int y = 0; y < 48; y++)
        for (int x = 0; x < 240; x++)
            im.px[(size_t)y * 240 + (size_t)x] = x < 200 ? RGB(x, x / 2, 60 + y / 8)
                                                         : RGB(200, 100, 50);
    image_init(&back, 1, 1);
    double err[2];
    for (int d = 0; d < 2; d++) {
        struct sixel s;
        sixel_init(&s, QUANT_MEDIAN, 8); /* few colours: far apart */
        s.q.dither = d;
        struct buf out;
        buf_init(&out);
        CHECK(sixel_frame(&s, &im, 0, 0, &out));
        struct px_sixel info;
        if (decode_frame(&out, 0, 0, &back, &info)) {
            err[d] = px_block_error(&im, &back);
            bool flat = true;
            for (int y = 0; y < 48; y++)
                for (int x = 200; x < 240; x++)
                    flat &= back.px[(size_t)y * 240 + (size_t)x] == RGB(199, 99, 51) ||
                            back.px[(size_t)y * 240 + (size_t)x] == RGB(201, 99, 51);
            CHECK_MSG(flat, "the flat colour is one colour (its percentages'), undithered");
        }
        buf_free(&out);
        sixel_free(&s);
    }
    CHECK_MSG(err[1] < 0.5 * err[0], "4x4 blocks off by %.2f dithered, %.2f not", err[1], err[0]);
    image_free(&back);
    image_free(&im);
}

TEST(sixel_scale_draws_each_pixel_as_a_square_of_the_terminals)
{
    struct image im, one, two;
    blocks(&im, 45, 14);
    image_init(&one, 1, 1);
    image_init(&two, 1, 1);
    struct sixel s;
    sixel_init(&s, QUANT_MEDIAN, 256);
    struct buf out;
    buf_init(&out);
    struct px_sixel info;
    CHECK(sixel_frame(&s, &im, 0, 0, &out));
    decode_frame(&out, 0, 0, &one, &info);
    s.scale = 3;
    buf_clear(&out);
    CHECK_MSG(sixel_frame(&s, &im, 0, 0, &out), "a new scale sends the frame again");
    if (decode_frame(&out, 0, 0, &two, &info)) {
        CHECK_INT(info.raster_w, 135);
        CHECK_INT(info.raster_h, 42);
        CHECK(two.w == 135 && two.h == 42);
        CHECK_INT(info.end_y, 36);
        long undrawn;
        CHECK_INT(worst_channel(&one, &two, &undrawn), 0);
        CHECK_INT(undrawn, 0);
    }
    buf_free(&out);
    sixel_free(&s);
    image_free(&two);
    image_free(&one);
    image_free(&im);
}

/* Stretched over a size that is no whole multiple of it (the cells it
 * covers): every terminal pixel drawn, each the image pixel it falls in; a
 * new size sends the frame again. */
TEST(sixel_stretches_over_the_size_it_is_given)
{
    struct image im, one, back;
    blocks(&im, 45, 14);
    image_init(&one, 1, 1);
    image_init(&back, 1, 1);
    struct sixel s;
    sixel_init(&s, QUANT_MEDIAN, 256);
    struct buf out;
    buf_init(&out);
    struct px_sixel info;
    CHECK(sixel_frame(&s, &im, 0, 0, &out));
    decode_frame(&out, 0, 0, &one, &info);
    s.scale = 2, s.width = 101, s.height = 37; /* 90x28 at scale 2 */
    buf_clear(&out);
    CHECK_MSG(sixel_frame(&s, &im, 0, 0, &out), "a new size sends the frame again");
    if (decode_frame(&out, 0, 0, &back, &info)) {
        CHECK(info.raster_w == 101 && info.raster_h == 37);
        CHECK(back.w == 101 && back.h == 37);
        long undrawn;
        const int worst = worst_channel(&one, &back, &undrawn);
        CHECK_INT(undrawn, 0);
        CHECK_MSG(worst == 0, "a pixel %d off the image pixel it falls in", worst);
    }
    buf_clear(&out);
    CHECK_MSG(!sixel_frame(&s, &im, 0, 0, &out), "the same frame at the same size: nothing");
    s.height = 38;
    CHECK_MSG(sixel_frame(&s, &im, 0, 0, &out), "another height: sent");
    buf_free(&out);
    sixel_free(&s);
    image_free(&back);
    image_free(&one);
    image_free(&im);
}

TEST(sixel_runs_go_as_repeats_and_an_unchanged_frame_sends_nothing)
{
    struct image im, back;
    image_init(&im, 600, 12);
    image_fill(&im, RGB(10, 20, 30));
    for (int x = 0; x < 600; x++) /* one more colour in the second band */
        im.px[7 * 600 + (size_t)x] = RGB(240, 240, 240);
    image_init(&back, 1, 1);
    struct sixel s;
    sixel_init(&s, QUANT_MEDIAN, 256);
    struct buf out;
    buf_init(&out);
    CHECK(sixel_frame(&s, &im, 0, 0, &out));
    CHECK_MSG(out.len < 120, "two bands of two colours, each a run: %zu bytes", out.len);
    struct px_sixel info;
    if (decode_frame(&out, 0, 0, &back, &info)) {
        long undrawn;
        CHECK_INT(worst_channel(&im, &back, &undrawn), 1);
        CHECK_INT(undrawn, 0);
    }
    buf_clear(&out);
    CHECK(!sixel_frame(&s, &im, 0, 0, &out));
    CHECK_INT(out.len, 0);
    CHECK_MSG(sixel_frame(&s, &im, 1, 0, &out), "moved: sent again");
    buf_clear(&out);
    sixel_invalidate(&s);
    CHECK_MSG(sixel_frame(&s, &im, 1, 0, &out), "after an invalidate: sent again");
    buf_free(&out);
    sixel_free(&s);
    image_free(&back);
    image_free(&im);
}
