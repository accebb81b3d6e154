/*
 * test_palette.c — colour mapping: exact palette colours map exactly, nearest
 * colours, dithering stability, mode names.
 */
#include "palette.h"
#include "rgb.h"
#include "test.h"

TEST(palette_exact_cube_and_grey_colours_map_exactly)
{
    for (int i = 16; i < 256; i++) {
        rgb_t c = palette_rgb(i);
        int got = palette_index(COLOR_256, c);
        /* Greys that also exist in the cube may map to either; the colour must match. */
        CHECK_MSG(palette_rgb(got) == c, "index %d (%06x) -> %d (%06x)", i, c, got, palette_rgb(got));
    }
    CHECK_INT(palette_index(COLOR_256, RGB(255, 0, 0)), 196);
    CHECK_INT(palette_index(COLOR_256, RGB(0, 0, 0)), 16);
    CHECK_INT(palette_index(COLOR_256, RGB(255, 255, 255)), 231);
    CHECK_INT(palette_index(COLOR_256, RGB(0xd7, 0xd7, 0xd7)), 188);
    CHECK_INT(palette_index(COLOR_256, RGB(128, 128, 128)), 244);
}

TEST(palette_nearest_is_nearest)
{
    /* Cube (95,95,135) = 60 is nearer than any grey; a near-grey goes to the ramp. */
    CHECK_INT(palette_index(COLOR_256, RGB(100, 100, 130)), 60);
    CHECK_INT(palette_index(COLOR_256, RGB(100, 100, 110)), 242);
    CHECK_INT(palette_index(COLOR_16, RGB(250, 10, 10)), 9);
    CHECK_INT(palette_index(COLOR_8, RGB(250, 10, 10)), 1);
    CHECK(palette_nearest(COLOR_TRUE, RGB(1, 2, 3)) == RGB(1, 2, 3));
    CHECK(palette_nearest(COLOR_MONO, RGB(1, 2, 3)) == COLOR_DEFAULT);
}

TEST(palette_dither_is_stable_and_mixes_neighbours)
{
    /* A colour between two cube levels becomes a pattern of both. */
    rgb_t c = RGB(115, 115, 115);
    int lo = 0, hi = 0;
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) {
            rgb_t d = palette_dither(COLOR_256, c, x, y);
            CHECK(d == palette_dither(COLOR_256, c, x + 4, y + 8)); /* tiles */
            if (rgb_r(d) < 115)
                lo++;
            else
                hi++;
        }
    CHECK(lo > 0 && hi > 0);
    /* Truecolor passes through. */
    CHECK(palette_dither(COLOR_TRUE, c, 1, 2) == c);
}

TEST(palette_mode_names_round_trip)
{
    enum color_mode m;
    CHECK(palette_mode_parse("truecolor", &m) == 0 && m == COLOR_TRUE);
    CHECK(palette_mode_parse("256", &m) == 0 && m == COLOR_256);
    CHECK(palette_mode_parse("16", &m) == 0 && m == COLOR_16);
    CHECK(palette_mode_parse("mono", &m) == 0 && m == COLOR_MONO);
    CHECK(palette_mode_parse("bogus", &m) == -1);
}

TEST(palette_hsv_and_hsl)
{
    CHECK(rgb_hsv(0.0f, 1.0f, 1.0f) == RGB(255, 0, 0));
    CHECK(rgb_hsv(1.0f / 3.0f, 1.0f, 1.0f) == RGB(0, 255, 0));
    CHECK(rgb_hsv(0.5f, 0.0f, 0.5f) == RGB(128, 128, 128));
    /* CSS hsl(225, 100%, 25%) = #002080 (rounded). */
    rgb_t c = rgb_hsl(225.0f / 360.0f, 1.0f, 0.25f);
    CHECK_INT(rgb_r(c), 0);
    CHECK_NEAR(rgb_g(c), 32, 1);
    CHECK_INT(rgb_b(c), 128);
}
