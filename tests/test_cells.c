/*
 * test_cells.c — the blit from pixels to cells in every glyph set and colour
 * mode, text, and the image's drawing helpers.
 */
#include "cells.h"
#include "test.h"

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
    blit_image(&im, &s, COLOR_TRUE, GLYPHS_HALF);
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

TEST(blit_256_uses_palette_colours)
{
    struct image im;
    struct cells s;
    image_init(&im, 4, 4);
    cells_init(&s, 4, 2);
    image_fill(&im, RGB(200, 60, 30));
    blit_image(&im, &s, COLOR_256, GLYPHS_HALF);
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
    blit_image(&im, &s, COLOR_MONO, GLYPHS_HALF);
    CHECK(cells_at(&s, 0, 0)->ch == GLYPH_UPPER);
    CHECK(cells_at(&s, 1, 0)->ch == GLYPH_LOWER);
    CHECK(cells_at(&s, 2, 0)->ch == GLYPH_FULL);
    CHECK(cells_at(&s, 3, 0)->ch == ' ');
    CHECK(cells_at(&s, 0, 0)->fg == COLOR_DEFAULT);
    image_free(&im);
    cells_free(&s);
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
    blit_image(&im, &s, COLOR_TRUE, GLYPHS_ASCII);
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
    /* Way outside, or NaN: nothing drawn, no crash. */
    image_line(&im, -1e9f, -1e9f, 1e9f, 1e9f, RGB(255, 0, 0));
    image_disc(&im, 0.0f / 0.0f, 3.0f, 2.0f, RGB(255, 0, 0), 1.0f);
    image_free(&im);
}
