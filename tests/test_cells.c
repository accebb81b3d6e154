/*
 * test_cells.c — the blit from pixels to cells in every glyph set and colour
 * mode (flat backgrounds stay flat, mono leaves them blank, the cloth keeps its
 * blue, the same picture gives the same cells), text, and the image's drawing
 * helpers, including what they do with NaN, infinite and huge coordinates.
 */
#include "cells.h"
#include "image_internal.h"
#include "palette_internal.h"
#include "test.h"

#include <math.h>
#include <string.h>

TEST(blit_half_blocks_upper_is_fg_lower_is_bg)
{
    struct image im;
    struct cells s;
    image_init(&im, 2, 4);
    cells_init(&s, 2, 3);
    image_put(&im, 0, 0, RGB(255, 0, 0));
    image_put(&im, 0, 1, RGB(0, 0, 255));
    image_put(&im, 1, 0, RGB(9, 9, 9));
    image_put(&im, 1, 1, RGB(9, 9, 9));
    cells_blit(&im, &s, COLOR_TRUE, GLYPHS_HALF);
    struct cell *a = cells_at(&s, 0, 0), *b = cells_at(&s, 1, 0);
    CHECK(a->ch == GLYPH_UPPER && a->fg == RGB(255, 0, 0) && a->bg == RGB(0, 0, 255));
    /* Equal halves: a space showing the colour as background. */
    CHECK(b->ch == ' ' && b->bg == RGB(9, 9, 9));
    /* Row 1 = image rows 2 and 3 (black); row 2 is left alone (the HUD's). */
    CHECK(cells_at(&s, 0, 1)->ch == ' ' && cells_at(&s, 0, 1)->bg == 0);
    CHECK(cells_at(&s, 0, 2)->bg == COLOR_DEFAULT);
    image_free(&im);
    cells_free(&s);
}

/* A coarser picture's block takes each channel's median of its pixels: a 6x3
 * block across an edge (its 6 x 6 pixels, 24 of one colour, 12 of another)
 * is the colour most of it shows, not a blur of both; a block of a gradient
 * its middle; with halves, each half the median of its own pixels; and
 * blocks cut by the screen's edge of what is left of them. */
TEST(blit_blocks_take_the_median_of_their_pixels)
{
    struct image im;
    struct cells s;
    const rgb_t water = RGB(40, 90, 200), air = RGB(10, 12, 20);
    image_init(&im, 14, 6);
    cells_init(&s, 14, 3);
    for (int y = 0; y < 6; y++)
        for (int x = 0; x < 14; x++)
            image_put(&im, x, y, y < 2 ? air : water);      /* the surface 2 pixels down */
    for (int y = 0; y < 6; y++)
        for (int x = 6; x < 12; x++)
            image_put(&im, x, y, RGB(x * 10, y * 10, 100)); /* a gradient */
    const struct cells_block b63 = {6, 3, false};
    cells_blit_on(NULL, &im, &s, COLOR_TRUE, GLYPHS_HALF, 1, &b63);
    CHECK_MSG(cells_at(&s, 0, 0)->ch == ' ' && cells_at(&s, 0, 0)->bg == water,
              "the block across the surface: %06x", (unsigned)cells_at(&s, 0, 0)->bg);
    CHECK(cells_at(&s, 5, 2)->bg == water);
    /* x 60..110, y 0..50: the middle pair's mean (80 + 90) / 2, (20 + 30) / 2 */
    CHECK_MSG(cells_at(&s, 6, 1)->bg == RGB(85, 25, 100), "%06x", (unsigned)cells_at(&s, 6, 1)->bg);
    CHECK(cells_at(&s, 12, 0)->bg == water && cells_at(&s, 13, 2)->bg == water); /* cut: 2 wide */
    const struct cells_block halves = {2, 1, true};
    cells_blit_on(NULL, &im, &s, COLOR_TRUE, GLYPHS_HALF, 1, &halves);
    CHECK(cells_at(&s, 0, 0)->ch == ' ' && cells_at(&s, 0, 0)->bg == air);
    CHECK(cells_at(&s, 0, 1)->bg == water);
    const struct cell *g = cells_at(&s, 6, 1); /* y 2 over y 3, x 60 and 70 */
    CHECK_MSG(g->ch == GLYPH_UPPER && g->fg == RGB(65, 20, 100) && g->bg == RGB(65, 30, 100),
              "%06x over %06x", (unsigned)g->fg, (unsigned)g->bg);
    /* In ASCII a block is drawn as ASCII draws its colour: the dark background
     * blank on the terminal's own, as the cells drawn whole show it, so a
     * picture of blocks and the still cells kept fine in it (frame.c) match. */
    struct cells fine;
    cells_init(&fine, 14, 3);
    image_fill(&im, air);
    for (int x = 0; x < 6; x++)
        image_put(&im, x, 5, water);
    cells_blit_on(NULL, &im, &s, COLOR_TRUE, GLYPHS_ASCII, 1, &b63);
    cells_blit(&im, &fine, COLOR_TRUE, GLYPHS_ASCII);
    CHECK(fine.c[13].ch == ' ' && fine.c[13].bg == COLOR_DEFAULT);
    for (int i = 0; i < 14 * 3; i++)
        CHECK_MSG(s.c[i].ch == ' ' && s.c[i].bg == COLOR_DEFAULT, "cell %d: '%c' on %06x", i,
                  (char)s.c[i].ch, (unsigned)s.c[i].bg);
    image_fill(&im, water);
    cells_blit_on(NULL, &im, &s, COLOR_TRUE, GLYPHS_ASCII, 1, &b63);
    CHECK(s.c[0].ch != ' ' && s.c[0].bg == COLOR_DEFAULT && !(s.c[0].fg & COLOR_DEFAULT));
    cells_free(&fine);
    image_free(&im);
    cells_free(&s);
}

TEST(blit_256_uses_palette_colours)
{
    struct image im;
    struct cells s;
    image_init(&im, 4, 4);
    cells_init(&s, 4, 2);
    image_fill(&im, RGB(200, 60, 30));
    cells_blit(&im, &s, COLOR_256, GLYPHS_HALF);
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 4; c++) {
            struct cell *x = cells_at(&s, c, r);
            CHECK(palette_rgb(palette_index(COLOR_256, x->bg)) == x->bg);
        }
    image_free(&im);
    cells_free(&s);
}

TEST(blit_mono_thresholds_halves)
{
    struct image im;
    struct cells s;
    image_init(&im, 4, 2);
    cells_init(&s, 4, 1);
    image_put(&im, 0, 0, RGB(255, 255, 255));
    image_put(&im, 1, 1, RGB(255, 255, 255));
    image_put(&im, 2, 0, RGB(255, 255, 255));
    image_put(&im, 2, 1, RGB(255, 255, 255));
    cells_blit(&im, &s, COLOR_MONO, GLYPHS_HALF);
    /* Upper, lower, full, blank: ▀ and spaces only (█ and ▄ fall short of the
     * cell's bottom in outline fonts), the lower half inked by reverse video. */
    const struct cell want[4] = {
        {GLYPH_UPPER, COLOR_DEFAULT, COLOR_DEFAULT},
        {GLYPH_UPPER, COLOR_DEFAULT, COLOR_REVERSE},
        {' ', COLOR_DEFAULT, COLOR_REVERSE},
        {' ', COLOR_DEFAULT, COLOR_DEFAULT},
    };
    for (int c = 0; c < 4; c++) {
        const struct cell *x = cells_at(&s, c, 0);
        CHECK_MSG(x->ch == want[c].ch && x->fg == want[c].fg && x->bg == want[c].bg,
                  "cell %d: U+%04X fg %08x bg %08x", c, (unsigned)x->ch, x->fg, x->bg);
    }
    image_free(&im);
    cells_free(&s);
}

/* The pixel (x, y) of a half-block picture as the terminal shows it: the
 * colour (or, in mono, whether it is inked) of its half of the cell. */
static rgb_t half_pixel(const struct cells *s, int x, int y, enum color_mode mode)
{
    const struct cell *c = &s->c[(size_t)(y / 2) * (size_t)s->cols + (size_t)x];
    const bool upper = y % 2 == 0;
    if (mode == COLOR_MONO) /* ▀ inks its upper half, reverse video the rest */
        return (c->ch == GLYPH_UPPER && upper) != (c->bg == COLOR_REVERSE);
    return c->ch == GLYPH_UPPER && upper ? c->fg : c->bg;
}

/* What the palette shows for colour c at pixel (x, y) (mono: inked or not). */
static rgb_t dithered(enum color_mode mode, rgb_t c, int x, int y)
{
    return mode == COLOR_MONO ? (rgb_t)palette_ink(c, x, y) : palette_dither(mode, c, x, y);
}

TEST(blit_half_blocks_dither_each_pixel_at_its_own_place)
{
    /* Flat colours that the ordered pattern dithers differently on a cell's
     * two rows (found among a grid of colours, so the test keeps telling
     * something when the palette's rules change): every pixel, in the upper
     * half of its cell or the lower, shows what the palette gives for its
     * colour at that very pixel (x, y), not at its cell's other pixel. */
    static const enum color_mode modes[] = {COLOR_256, COLOR_16, COLOR_8, COLOR_MONO};
    enum { W = 8, H = 8, PICK = 6 };
    struct image im;
    struct cells s;
    image_init(&im, W, H);
    cells_init(&s, W, H / 2);
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        int picked = 0, wrong = 0;
        for (int v = 0; v < 8 * 8 * 8 && picked < PICK; v++) {
            const rgb_t c = RGB(16 + 32 * (v / 64), 16 + 32 * (v / 8 % 8), 16 + 32 * (v % 8));
            bool rows_differ = false;
            for (int y = 0; y < 4; y++)
                for (int x = 0; x < 4; x++)
                    rows_differ |= dithered(modes[m], c, x, y) != dithered(modes[m], c, x, y ^ 1);
            if (!rows_differ)
                continue;
            picked++;
            image_fill(&im, c);
            cells_blit(&im, &s, modes[m], GLYPHS_HALF);
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++)
                    if (half_pixel(&s, x, y, modes[m]) != dithered(modes[m], c, x, y) &&
                        wrong++ < 3)
                        CHECK_MSG(false, "%s, colour %06x: pixel (%d, %d) shows %08x, not %08x",
                                  palette_mode_name(modes[m]), c, x, y,
                                  half_pixel(&s, x, y, modes[m]), dithered(modes[m], c, x, y));
        }
        CHECK_MSG(picked == PICK, "%s: %d colours dithered by row, of %d wanted",
                  palette_mode_name(modes[m]), picked, PICK);
    }
    image_free(&im);
    cells_free(&s);
}

TEST(blit_flat_dark_image_is_one_colour_in_every_mode)
{
    /* The cloth scene's empty background: one palette colour for every cell
     * in 256, 16 and 8 colours (spaces on that background), blank in mono. */
    struct image im;
    struct cells s;
    image_init(&im, 24, 12);
    cells_init(&s, 24, 6);
    image_fill(&im, RGB(12, 12, 18));
    const enum color_mode modes[] = {COLOR_256, COLOR_16, COLOR_8, COLOR_MONO};
    for (int m = 0; m < 4; m++) {
        cells_blit(&im, &s, modes[m], GLYPHS_HALF);
        rgb_t bg = cells_at(&s, 0, 0)->bg;
        int odd = 0;
        for (int r = 0; r < 6; r++)
            for (int c = 0; c < 24; c++) {
                const struct cell *x = cells_at(&s, c, r);
                odd += x->ch != ' ' || x->bg != bg;
            }
        CHECK_MSG(odd == 0, "%s: %d cells differ", palette_mode_name(modes[m]), odd);
        if (modes[m] == COLOR_MONO)
            CHECK(bg == COLOR_DEFAULT);
        else
            CHECK(bg == palette_nearest(modes[m], RGB(12, 12, 18)));
    }
    image_free(&im);
    cells_free(&s);
}

/* A strip of the cloth as cloth.c draws it at rest: background, then fabric
 * (shaded 0.8) crossed by a horizontal and a vertical thread. */
static void cloth_strip(struct image *im)
{
    image_fill(im, RGB(12, 12, 18));
    for (int y = 4; y < im->h; y++)
        for (int x = 8; x < im->w; x++)
            image_put(im, x, y, RGB(27, 46, 77));
    for (int x = 8; x < im->w; x++)
        image_put(im, x, 8, RGB(170, 200, 235));
    for (int y = 4; y < im->h; y++)
        image_put(im, 14, y, RGB(170, 200, 235));
}

TEST(blit_mono_cloth_is_a_light_net_on_black)
{
    struct image im;
    struct cells s;
    image_init(&im, 20, 12);
    cells_init(&s, 20, 6);
    cloth_strip(&im);
    cells_blit(&im, &s, COLOR_MONO, GLYPHS_HALF);
    int inked_bg = 0, inked_fabric = 0;
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 20; c++) {
            const struct cell *x = cells_at(&s, c, r);
            bool ink = x->ch != ' ' || x->bg == COLOR_REVERSE;
            bool thread = r == 4 || c == 14;
            CHECK(x->ch == ' ' || x->ch == GLYPH_UPPER);
            if (c < 8 || r < 2)
                inked_bg += ink;
            else if (!thread)
                inked_fabric += ink;
        }
    CHECK_MSG(inked_bg == 0 && inked_fabric == 0, "background %d, fabric %d inked cells",
              inked_bg, inked_fabric);
    /* Row 4 holds image rows 8 (thread) and 9 (fabric): the upper half. */
    CHECK(cells_at(&s, 10, 4)->ch == GLYPH_UPPER);
    CHECK(cells_at(&s, 14, 3)->ch == ' ' && cells_at(&s, 14, 3)->bg == COLOR_REVERSE);
    image_free(&im);
    cells_free(&s);
}

TEST(blit_8_and_16_colours_keep_the_cloth_blue)
{
    struct image im;
    struct cells s;
    image_init(&im, 20, 12);
    cells_init(&s, 20, 6);
    cloth_strip(&im);
    const enum color_mode modes[] = {COLOR_8, COLOR_16};
    for (int m = 0; m < 2; m++) {
        cells_blit(&im, &s, modes[m], GLYPHS_HALF);
        int blue = 0;
        for (int r = 0; r < 6; r++)
            for (int c = 0; c < 20; c++) {
                const struct cell *x = cells_at(&s, c, r);
                rgb_t px[2] = {x->ch == ' ' ? x->bg : x->fg, x->bg};
                for (int k = 0; k < 2; k++) {
                    int i = palette_index(modes[m], px[k]);
                    CHECK_MSG(i != 1 && i != 5 && i != 9 && i != 13, "%s: (%d,%d) shows %d",
                              palette_mode_name(modes[m]), c, r, i);
                    blue += i == 4 || i == 12;
                }
            }
        CHECK_MSG(blue > 40, "%s: %d blue pixels", palette_mode_name(modes[m]), blue);
        CHECK(cells_at(&s, 0, 0)->bg == 0); /* black background */
    }
    image_free(&im);
    cells_free(&s);
}

TEST(blit_is_deterministic)
{
    /* The same picture gives the same cells, whatever was blitted between. */
    struct image im, other;
    struct cells a, b;
    image_init(&im, 64, 32);
    image_init(&other, 64, 32);
    cells_init(&a, 64, 16);
    cells_init(&b, 64, 16);
    for (int y = 0; y < 32; y++)
        for (int x = 0; x < 64; x++)
            image_put(&im, x, y, RGB(x * 4, y * 8, 255 - x * 4));
    struct rng r = {3};
    const enum color_mode modes[] = {COLOR_256, COLOR_16, COLOR_8, COLOR_MONO};
    for (int m = 0; m < 4; m++) {
        cells_blit(&im, &a, modes[m], GLYPHS_HALF);
        for (int k = 0; k < 30; k++) {
            for (int i = 0; i < 64 * 32; i++)
                other.px[i] = rng_next(&r) & 0xffffff;
            cells_blit(&other, &b, modes[m], GLYPHS_HALF);
        }
        cells_blit(&im, &b, modes[m], GLYPHS_HALF);
        CHECK_MSG(memcmp(a.c, b.c, 64 * 16 * sizeof *a.c) == 0, "%s",
                  palette_mode_name(modes[m]));
    }
    image_free(&im);
    image_free(&other);
    cells_free(&a);
    cells_free(&b);
}

TEST(blit_ascii_ramp_by_brightness)
{
    struct image im;
    struct cells s;
    image_init(&im, 3, 2);
    cells_init(&s, 3, 1);
    image_put(&im, 1, 0, RGB(120, 120, 120));
    image_put(&im, 1, 1, RGB(120, 120, 120));
    image_put(&im, 2, 0, RGB(255, 255, 255));
    image_put(&im, 2, 1, RGB(255, 255, 255));
    cells_blit(&im, &s, COLOR_TRUE, GLYPHS_ASCII);
    CHECK(cells_at(&s, 0, 0)->ch == ' ');
    CHECK(cells_at(&s, 1, 0)->ch > ' ' && cells_at(&s, 1, 0)->ch < 128);
    CHECK(cells_at(&s, 2, 0)->ch == '@');
    for (int c = 0; c < 3; c++)
        CHECK(cells_at(&s, c, 0)->ch < 128);
    image_free(&im);
    cells_free(&s);
}

TEST(cells_text_clips_and_replaces_non_ascii)
{
    struct cells s;
    cells_init(&s, 5, 1);
    CHECK_INT(cells_text(&s, 3, 0, "ab\x01z", RGB(1, 1, 1), RGB(2, 2, 2)), 7);
    CHECK(cells_at(&s, 3, 0)->ch == 'a' && cells_at(&s, 4, 0)->ch == 'b');
    cells_text(&s, -1, 0, "xy", 0, 0);
    CHECK(cells_at(&s, 0, 0)->ch == 'y');
    cells_text(&s, 0, 0, "\x01", 0, 0);
    CHECK(cells_at(&s, 0, 0)->ch == '?');
    cells_free(&s);
}

TEST(image_line_and_disc_draw_and_clip)
{
    struct image im;
    image_init(&im, 10, 10);
    image_line(&im, 0.5f, 5.5f, 9.5f, 5.5f, RGB(255, 255, 255));
    for (int x = 0; x < 10; x++)
        CHECK_MSG(rgb_r(image_get(&im, x, 5)) > 200, "x=%d", x);
    CHECK(image_get(&im, 5, 2) == 0);
    image_fill(&im, 0);
    image_disc(&im, 5.0f, 5.0f, 2.0f, RGB(0, 255, 0), 1.0f);
    CHECK(image_get(&im, 4, 4) == RGB(0, 255, 0));
    CHECK(image_get(&im, 0, 0) == 0);
    image_free(&im);
}

/* A 10 x 10 image whose pixels sit between two guard bands in one block, so a
 * write out of bounds shows up as a changed guard. */
#define GUARD 256
#define GUARD_PX RGB(1, 2, 3)
static rgb_t guarded[GUARD + 100 + GUARD];

static struct image guarded_image(void)
{
    for (size_t i = 0; i < sizeof guarded / sizeof guarded[0]; i++)
        guarded[i] = GUARD_PX;
    struct image im = {10, 10, guarded + GUARD, false, 0, 0};
    image_fill(&im, RGB(0, 0, 40));
    image_disc(&im, 5.0f, 5.0f, 2.0f, RGB(0, 255, 0), 1.0f); /* something to keep */
    return im;
}

static bool guards_intact(void)
{
    for (int i = 0; i < GUARD; i++)
        if (guarded[i] != GUARD_PX || guarded[GUARD + 100 + i] != GUARD_PX)
            return false;
    return true;
}

/* How many pixels differ from the snapshot. */
static int changed(const struct image *im, const rgb_t *before)
{
    int n = 0;
    for (int i = 0; i < im->w * im->h; i++)
        n += im->px[i] != before[i];
    return n;
}

TEST(image_nan_and_infinite_draws_leave_the_image_as_it_was)
{
    /* A NaN or infinite coordinate, radius or weight (a solver blowing up) draws
     * nothing: every pixel keeps its colour and nothing outside is touched. */
    const float qnan = NAN, inf = INFINITY;
    const rgb_t red = RGB(255, 0, 0);
    struct image im = guarded_image();
    rgb_t before[100];
    memcpy(before, im.px, sizeof before);
    image_disc(&im, qnan, 3.0f, 2.0f, red, 1.0f);
    image_disc(&im, 3.0f, qnan, 2.0f, red, 1.0f);
    image_disc(&im, 3.0f, 3.0f, qnan, red, 1.0f);
    image_disc(&im, 3.0f, 3.0f, 2.0f, red, qnan);
    image_disc(&im, inf, 3.0f, 2.0f, red, 1.0f);
    image_disc(&im, 3.0f, -inf, 2.0f, red, 1.0f);
    image_line(&im, qnan, 1.0f, 8.0f, 8.0f, red);
    image_line(&im, 1.0f, 1.0f, 8.0f, qnan, red);
    image_line(&im, -inf, 5.5f, inf, 5.5f, red);
    image_triangle(&im, qnan, 0.0f, 9.0f, 0.0f, 0.0f, 9.0f, red);
    image_triangle(&im, 0.0f, 0.0f, 9.0f, inf, 0.0f, 9.0f, red);
    image_blend(&im, 4, 4, red, qnan);
    CHECK_MSG(changed(&im, before) == 0, "%d pixels changed", changed(&im, before));
    CHECK(guards_intact());
    /* A colour mix or scale by NaN has a defined result: clampf takes NaN to
     * the low end, so no mix (the first colour) and no light (black). */
    CHECK(rgb_mix(RGB(1, 2, 3), RGB(200, 200, 200), qnan) == RGB(1, 2, 3));
    CHECK(rgb_scale(RGB(100, 100, 100), qnan) == 0);
    /* The blit of what is left is the blit of the untouched picture. */
    struct image ref = {10, 10, before, false, 0, 0};
    struct cells a, b;
    cells_init(&a, 10, 5);
    cells_init(&b, 10, 5);
    cells_blit(&im, &a, COLOR_TRUE, GLYPHS_HALF);
    cells_blit(&ref, &b, COLOR_TRUE, GLYPHS_HALF);
    CHECK(memcmp(a.c, b.c, 50 * sizeof *a.c) == 0);
    cells_free(&a);
    cells_free(&b);
}

TEST(image_huge_coordinates_clip_to_the_image)
{
    /* Finite but far outside: a line that misses the image draws nothing, one
     * that crosses it draws only where it crosses, and nothing lands outside. */
    const rgb_t red = RGB(255, 0, 0);
    struct image im = guarded_image();
    rgb_t before[100];
    memcpy(before, im.px, sizeof before);
    image_line(&im, -1e9f, -3.0f, 1e9f, -3.0f, red);
    image_line(&im, 1e9f, -1e9f, 1e9f, 1e9f, red);
    image_disc(&im, -1e9f, 5.0f, 3.0f, red, 1.0f);
    image_disc(&im, 5.0f, 1e9f, 1e6f, red, 1.0f);
    image_triangle(&im, -1e9f, -1e9f, -1e9f + 5.0f, -1e9f, -1e9f, -1e9f + 5.0f, red);
    CHECK_MSG(changed(&im, before) == 0, "%d pixels changed", changed(&im, before));
    CHECK(guards_intact());
    /* Across row 5 from far left to far right: that row, all of it, and only it. */
    image_line(&im, -1e9f, 5.5f, 1e9f, 5.5f, red);
    for (int x = 0; x < 10; x++)
        CHECK_MSG(image_get(&im, x, 5) == red, "x=%d: %06x", x, image_get(&im, x, 5));
    CHECK_INT(changed(&im, before), 10);
    CHECK(guards_intact());
    /* A huge diagonal through the image: whatever float precision leaves of
     * it, it stays inside, and what it draws is the line's colour mixed in. */
    memcpy(im.px, before, sizeof before);
    image_line(&im, -1e9f, -1e9f, 1e9f, 1e9f, red);
    CHECK(guards_intact());
    for (int i = 0; i < 100; i++)
        CHECK(im.px[i] == before[i] || rgb_r(im.px[i]) > rgb_r(before[i]));
}
