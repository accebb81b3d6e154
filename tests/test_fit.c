/*
 * test_fit.c — quadrant and sextant cells: the glyph of every mask and back,
 * the fitter's choice on small hand-made blocks, the blit in each colour mode,
 * what auto picks where, and the scenes drawn at twice the canvas showing the
 * same picture as at once it, only finer.
 */
#include "app.h"
#include "cells.h"
#include "encode.h"
#include "fit.h"
#include "fit_internal.h"
#include "fixtures.h"
#include "headless.h"
#include "image_internal.h"
#include "probe.h"
#include "scene.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define RED RGB(220, 30, 30)
#define BLUE RGB(20, 40, 200)
#define BLACK RGB(0, 0, 0)
#define WHITE RGB(255, 255, 255)

/* The mask glyph ch inks at the centres of an n-pixel cell's pixels. */
static unsigned inked(uint32_t ch, int n)
{
    const int rows = n / 2;
    unsigned m = 0;
    for (int i = 0; i < n; i++)
        m |= (unsigned)fit_inks(ch, (float)(i % 2) * 0.5f + 0.25f,
                                ((float)(i / 2) + 0.5f) / (float)rows) << i;
    return m;
}

TEST(fit_every_mask_has_a_glyph_that_inks_it)
{
    const int ns[2] = {FIT_QUAD, FIT_SEXTANT};
    for (int k = 0; k < 2; k++) {
        const int n = ns[k];
        const unsigned all = (1u << n) - 1u;
        for (unsigned m = 0; m <= all; m++) {
            bool swap;
            const uint32_t ch = fit_glyph(m, n, &swap);
            const unsigned shown = inked(ch, n) ^ (swap ? all : 0u);
            CHECK_MSG(shown == m, "n %d mask %u: glyph U+%04X swap %d inks %u", n, m,
                      (unsigned)ch, swap, shown);
            /* Never the form with the bottom right pixel: no ▄, █, ▐ or ▗. */
            CHECK_MSG(!(inked(ch, n) >> (n - 1) & 1u), "n %d mask %u: U+%04X", n, m,
                      (unsigned)ch);
            CHECK(fit_is_picture(ch));
        }
    }
}

TEST(fit_glyphs_are_the_unicode_ones)
{
    bool swap;
    CHECK(fit_glyph(3, FIT_QUAD, &swap) == 0x2580 && !swap);  /* top: ▀ */
    CHECK(fit_glyph(12, FIT_QUAD, &swap) == 0x2580 && swap);  /* bottom: ▀ swapped */
    CHECK(fit_glyph(5, FIT_QUAD, &swap) == 0x258C && !swap);  /* left: ▌ */
    CHECK(fit_glyph(1, FIT_QUAD, &swap) == 0x2598 && !swap);  /* ▘ */
    CHECK(fit_glyph(8, FIT_QUAD, &swap) == 0x259B && swap);   /* ▗ is ▛ swapped */
    CHECK(fit_glyph(6, FIT_QUAD, &swap) == 0x259E && !swap);  /* ▞ */
    CHECK(fit_glyph(1, FIT_SEXTANT, &swap) == 0x1FB00 && !swap);
    CHECK(fit_glyph(20, FIT_SEXTANT, &swap) == 0x1FB13);
    CHECK(fit_glyph(21, FIT_SEXTANT, &swap) == 0x258C && !swap); /* left column: ▌ */
    CHECK(fit_glyph(22, FIT_SEXTANT, &swap) == 0x1FB14);
    CHECK(fit_glyph(42, FIT_SEXTANT, &swap) == 0x258C && swap); /* right column */
    CHECK(fit_glyph(62, FIT_SEXTANT, &swap) == 0x1FB00 && swap);
    CHECK(fit_glyph(0, FIT_SEXTANT, &swap) == ' ' && !swap);
    CHECK(fit_coverage(0x2580) == 0.5f && fit_coverage(' ') == 0.0f);
    CHECK_NEAR(fit_coverage(0x1FB00), 1.0 / 6.0, 1e-6);
    CHECK(!fit_is_picture('a') && !fit_is_picture(0x2589));
}

TEST(fit_block_picks_the_glyph_a_person_would)
{
    /* Quadrants: pixels row by row, left to right. */
    const rgb_t one[4] = {RED, RED, RED, RED};
    struct fit f = fit_block(one, FIT_QUAD);
    CHECK(f.ch == ' ' && f.bg == RED);

    const rgb_t top[4] = {RED, RED, BLUE, BLUE};
    f = fit_block(top, FIT_QUAD);
    CHECK(f.ch == 0x2580 && f.fg == RED && f.bg == BLUE);

    const rgb_t left[4] = {RED, BLUE, RED, BLUE};
    f = fit_block(left, FIT_QUAD);
    CHECK(f.ch == 0x258C && f.fg == RED && f.bg == BLUE);

    /* A drop in the bottom right corner: ▛ in the background's colour. */
    const rgb_t drop[4] = {BLACK, BLACK, BLACK, WHITE};
    f = fit_block(drop, FIT_QUAD);
    CHECK(f.ch == 0x259B && f.fg == BLACK && f.bg == WHITE);

    const rgb_t diag[4] = {WHITE, BLACK, BLACK, WHITE};
    f = fit_block(diag, FIT_QUAD);
    CHECK(f.ch == 0x259E && f.fg == BLACK && f.bg == WHITE);

    /* Three colours: the two nearest share a side. */
    const rgb_t three[4] = {RGB(200, 0, 0), RGB(190, 0, 0), RGB(0, 0, 200), RGB(0, 0, 120)};
    f = fit_block(three, FIT_QUAD);
    CHECK(f.ch == 0x2580 && f.fg == RGB(195, 0, 0) && f.bg == RGB(0, 0, 160));

    /* A smooth gradient down and a hair across stays a half-block. */
    const rgb_t smooth[4] = {RGB(100, 100, 100), RGB(101, 101, 101), RGB(110, 110, 110),
                             RGB(110, 110, 110)};
    f = fit_block(smooth, FIT_QUAD);
    CHECK(f.ch == 0x2580);

    /* Sextants: the left column, the top row, a lone pixel in the middle. */
    const rgb_t col[6] = {RED, BLUE, RED, BLUE, RED, BLUE};
    f = fit_block(col, FIT_SEXTANT);
    CHECK(f.ch == 0x258C && f.fg == RED && f.bg == BLUE);
    const rgb_t row[6] = {WHITE, WHITE, BLACK, BLACK, BLACK, BLACK};
    f = fit_block(row, FIT_SEXTANT);
    CHECK(f.ch == 0x1FB02 && f.fg == WHITE && f.bg == BLACK);
    const rgb_t mid[6] = {BLACK, BLACK, BLACK, WHITE, BLACK, BLACK};
    f = fit_block(mid, FIT_SEXTANT);
    CHECK(f.ch == 0x1FB07 && f.fg == WHITE && f.bg == BLACK); /* sextant-4 */
    /* A smooth gradient down: ▀, as today. */
    const rgb_t half[6] = {RGB(100, 100, 100), RGB(100, 100, 100), RGB(102, 102, 102),
                           RGB(102, 102, 102), RGB(104, 104, 104), RGB(104, 104, 104)};
    f = fit_block(half, FIT_SEXTANT);
    CHECK(f.ch == 0x2580 && f.fg == RGB(101, 101, 101) && f.bg == RGB(103, 103, 103));
}

/* The squared distance between two colours. */
static int dist2(rgb_t a, rgb_t b)
{
    const int d[3] = {rgb_r(a) - rgb_r(b), rgb_g(a) - rgb_g(b), rgb_b(a) - rgb_b(b)};
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

/* A cell's error, pixel by pixel, against the block it was fitted from. */
static long cell_sse(const struct fit *f, const rgb_t *px, int n)
{
    long e = 0;
    for (int i = 0; i < n; i++) {
        const float fx = (float)(i % 2) * 0.5f + 0.25f;
        const float fy = ((float)(i / 2) + 0.5f) / (float)(n / 2);
        e += dist2(fit_inks(f->ch, fx, fy) ? f->fg : f->bg, px[i]);
    }
    return e;
}

/* Over random blocks of a few levels (noise, the hardest case): never worse
 * than a half-block beyond the margin, and nearly as good as the best of every
 * split (the ranking's line may cut a cluster of noise that a plane would not;
 * on the scenes' pictures the bench finds no cell where it does). */
TEST(fit_block_is_never_worse_than_half_and_matches_the_best_split)
{
    struct rng r = {7};
    long sum_got[2] = {0, 0}, sum_best[2] = {0, 0};
    int off[2] = {0, 0};
    for (int t = 0; t < 4000; t++) {
        const int n = t % 2 ? FIT_SEXTANT : FIT_QUAD;
        rgb_t px[FIT_SEXTANT];
        for (int i = 0; i < n; i++) /* few levels, so that ties and near-ties come up */
            px[i] = RGB(40 * (int)(rng_next(&r) % 7), 40 * (int)(rng_next(&r) % 7),
                        40 * (int)(rng_next(&r) % 7));
        const struct fit f = fit_block(px, n);
        const long got = cell_sse(&f, px, n);
        long best = -1;
        const unsigned all = (1u << n) - 1u;
        for (unsigned m = 0; m < all; m++) {
            long s[2][3] = {{0}}, cnt[2] = {0};
            for (int i = 0; i < n; i++) {
                const int g = (int)(m >> i & 1u);
                cnt[g]++;
                s[g][0] += rgb_r(px[i]), s[g][1] += rgb_g(px[i]), s[g][2] += rgb_b(px[i]);
            }
            long e = 0;
            for (int i = 0; i < n; i++) {
                const int g = (int)(m >> i & 1u);
                const int c[3] = {rgb_r(px[i]), rgb_g(px[i]), rgb_b(px[i])};
                for (int k = 0; k < 3; k++) {
                    const long d = c[k] - (s[g][k] + cnt[g] / 2) / cnt[g];
                    e += d * d;
                }
            }
            if (best < 0 || e < best)
                best = e;
        }
        if (n == FIT_QUAD) {
            const rgb_t top = RGB((rgb_r(px[0]) + rgb_r(px[1]) + 1) / 2,
                                  (rgb_g(px[0]) + rgb_g(px[1]) + 1) / 2,
                                  (rgb_b(px[0]) + rgb_b(px[1]) + 1) / 2);
            const rgb_t bot = RGB((rgb_r(px[2]) + rgb_r(px[3]) + 1) / 2,
                                  (rgb_g(px[2]) + rgb_g(px[3]) + 1) / 2,
                                  (rgb_b(px[2]) + rgb_b(px[3]) + 1) / 2);
            const struct fit h = {0x2580, top, bot};
            CHECK_MSG(got <= cell_sse(&h, px, n) + 16, "block %d: %ld vs half %ld", t, got,
                      cell_sse(&h, px, n));
        }
        /* Rounding of the means aside (half a level a channel a pixel). (A
         * sextant ▀ splits the middle row, which its centres cannot show.) */
        if (n == FIT_QUAD || f.ch != 0x2580) {
            const int q = n == FIT_QUAD ? 0 : 1;
            sum_got[q] += got, sum_best[q] += best;
            off[q] += got > best + best / 100 + FIT_HALF_KEEP + 3L * n;
        }
    }
    for (int q = 0; q < 2; q++) {
        CHECK_MSG(sum_got[q] <= sum_best[q] + sum_best[q] / 200, "%s: %ld against the best %ld",
                  q ? "sextants" : "quadrants", sum_got[q], sum_best[q]);
        CHECK_MSG(off[q] <= (q ? 100 : 20), "%s: %d of 2000 more than 1%% off the best",
                  q ? "sextants" : "quadrants", off[q]);
    }
}

TEST(blit_quad_and_sextant_fit_each_cell)
{
    /* One cell of 2 x 4 image pixels: a thin bright line down its right side. */
    struct image im;
    struct cells s;
    image_init(&im, 4, 4);
    cells_init(&s, 2, 2);
    image_fill(&im, BLACK);
    for (int y = 0; y < 4; y++)
        image_put(&im, 1, y, WHITE);
    image_put(&im, 2, 0, RED), image_put(&im, 3, 0, RED); /* cell 2: red top quarter */
    cells_blit(&im, &s, COLOR_TRUE, GLYPHS_QUAD);
    const struct cell *a = cells_at(&s, 0, 0), *b = cells_at(&s, 1, 0);
    CHECK(a->ch == 0x258C && a->fg == BLACK && a->bg == WHITE); /* ▐'s complement */
    /* quad rows are image rows in pairs: the red quarter is half the top row */
    CHECK(b->ch == 0x2580 && b->fg == RGB(110, 15, 15) && b->bg == BLACK);
    CHECK(cells_at(&s, 0, 1)->bg == COLOR_DEFAULT); /* the row below is the HUD's */
    cells_blit(&im, &s, COLOR_TRUE, GLYPHS_SEXTANT);
    a = cells_at(&s, 0, 0), b = cells_at(&s, 1, 0);
    CHECK(a->ch == 0x258C && a->fg == BLACK && a->bg == WHITE);
    /* sextant rows take the four image rows 3:1, 2:2, 1:3: red is 3/4 of the
     * top row, whose colour the median of its samples keeps red, not the 3:1
     * mix (165, 23, 23) */
    CHECK(b->ch == 0x1FB02 && rgb_r(b->fg) > 205 && b->bg == BLACK);
    /* 256 colours: palette colours; mono: ink and reverse video. */
    cells_blit(&im, &s, COLOR_256, GLYPHS_QUAD);
    a = cells_at(&s, 0, 0);
    CHECK(a->ch == 0x258C && a->fg == palette_nearest(COLOR_256, BLACK) &&
          a->bg == palette_nearest(COLOR_256, WHITE));
    cells_blit(&im, &s, COLOR_MONO, GLYPHS_QUAD);
    a = cells_at(&s, 0, 0);
    CHECK(a->ch == 0x258C && a->fg == COLOR_DEFAULT && a->bg == COLOR_REVERSE);
    image_free(&im);
    cells_free(&s);
}

TEST(fit_pixels_weigh_the_samples_by_area)
{
    /* 2 x 4 samples, row by row: the top quarter white, the rest black. */
    const rgb_t s[FIT_SAMPLES] = {WHITE, WHITE, BLACK, BLACK, BLACK, BLACK, BLACK, BLACK};
    rgb_t px[FIT_SEXTANT];
    fit_pixels(s, FIT_QUAD, px);
    CHECK(px[0] == RGB(128, 128, 128) && px[1] == px[0] && px[2] == BLACK && px[3] == BLACK);
    fit_pixels(s, FIT_SEXTANT, px); /* a sextant's top row is 3/4 the top sample row */
    CHECK(px[0] == RGB(191, 191, 191) && px[1] == px[0] && px[2] == BLACK && px[5] == BLACK);
}

/* A glyph pixel's channel as fit_pixels must make it: the samples' mean by
 * their weights (wsum in all), rounded half up. */
static int weighed(const rgb_t *s, int col, const int *w, int shift)
{
    int sum = 0, wsum = 0;
    for (int y = 0; y < FIT_SAMPLE_ROWS; y++)
        sum += w[y] * (int)((s[2 * y + col] >> shift) & 255u), wsum += w[y];
    return (sum + wsum / 2) / wsum;
}

TEST(fit_pixels_round_each_channel_half_up)
{
    /* Random samples: every channel of every glyph pixel the weighted mean
     * rounded half up (a quarter of a level decides), each channel apart. */
    static const int quad_w[2][4] = {{1, 1, 0, 0}, {0, 0, 1, 1}};
    static const int sext_w[3][4] = {{3, 1, 0, 0}, {0, 2, 2, 0}, {0, 0, 1, 3}};
    struct rng r = {77};
    int bad = 0;
    for (int t = 0; t < 2000; t++) {
        rgb_t s[FIT_SAMPLES], px[FIT_SEXTANT];
        for (int i = 0; i < FIT_SAMPLES; i++) /* small values too: remainders of every kind */
            s[i] = t % 2 ? (rgb_t)(rng_next(&r) & 0xFFFFFFu) : (rgb_t)(rng_next(&r) & 0x030303u);
        fit_pixels(s, FIT_QUAD, px);
        for (int j = 0; j < 4; j++)
            for (int sh = 0; sh < 24; sh += 8)
                bad += (int)((px[j] >> sh) & 255u) != weighed(s, j % 2, quad_w[j / 2], sh);
        fit_pixels(s, FIT_SEXTANT, px);
        for (int j = 0; j < 6; j++)
            for (int sh = 0; sh < 24; sh += 8)
                bad += (int)((px[j] >> sh) & 255u) != weighed(s, j % 2, sext_w[j / 2], sh);
    }
    CHECK_INT(bad, 0);
}

TEST(fit_half_block_gives_way_to_a_split_that_is_better_by_more_than_the_margin)
{
    /* Two columns a little apart: the left/right split is exact, ▀ is off
     * by 10 (more than FIT_HALF_KEEP, less than four times it): not ▀. */
    const rgb_t a = RGB(100, 100, 100), b = RGB(103, 100, 100);
    const rgb_t cols[4] = {a, b, a, b};
    const struct fit f = fit_block(cols, FIT_QUAD);
    CHECK_MSG(f.ch == 0x258C || f.ch == 0x2590, "U+%04X", (unsigned)f.ch);
}

TEST(fit_cell_colours_are_what_most_of_each_part_shows)
{
    /* Two colours split along the glyph pixels: fit_cell is fit_block. */
    const rgb_t two[FIT_SAMPLES] = {RED, BLUE, RED, BLUE, RED, BLUE, RED, BLUE};
    rgb_t px[FIT_SEXTANT];
    for (int n = FIT_QUAD; n <= FIT_SEXTANT; n += 2) {
        fit_pixels(two, n, px);
        const struct fit a = fit_cell(two, n), b = fit_block(px, n);
        CHECK(a.ch == 0x258C && a.ch == b.ch && a.fg == RED && a.bg == BLUE && b.fg == RED);
    }
    /* Red on top, blue below with a white speck: ▀, and its blue is nearer
     * blue than the mean of the four samples below is. */
    const rgb_t speck[FIT_SAMPLES] = {RED, RED, RED, RED, BLUE, BLUE, WHITE, BLUE};
    fit_pixels(speck, FIT_QUAD, px);
    const struct fit m = fit_block(px, FIT_QUAD), f = fit_cell(speck, FIT_QUAD);
    CHECK(m.ch == 0x2580 && f.ch == 0x2580 && f.fg == RED);
    CHECK_MSG(dist2(f.bg, BLUE) * 4 < dist2(m.bg, BLUE), "median %06x, mean %06x",
              (unsigned)f.bg, (unsigned)m.bg);
    /* A bar as high as a quarter of the cell in sextants: the top row is 3/4
     * white; the glyph shows it white, not the grey of the mix. */
    const rgb_t bar[FIT_SAMPLES] = {WHITE, WHITE, BLACK, BLACK, BLACK, BLACK, BLACK, BLACK};
    const struct fit g = fit_cell(bar, FIT_SEXTANT);
    CHECK_MSG(g.ch == 0x1FB02 && rgb_r(g.fg) >= 240 && g.bg == BLACK, "U+%04X %06x %06x",
              (unsigned)g.ch, (unsigned)g.fg, (unsigned)g.bg);
    /* The same bar in quadrants: the top row is half each, a tie the median
     * leaves at the mean. */
    const struct fit q = fit_cell(bar, FIT_QUAD);
    CHECK(q.ch == 0x2580 && q.fg == RGB(128, 128, 128) && q.bg == BLACK);
    /* The top half white: in sextants ▀, which splits the middle row, each
     * colour from the samples of its half alone. */
    const rgb_t halves[FIT_SAMPLES] = {WHITE, WHITE, WHITE, WHITE, BLACK, BLACK, BLACK, BLACK};
    const struct fit h = fit_cell(halves, FIT_SEXTANT);
    CHECK_MSG(h.ch == 0x2580 && h.fg == WHITE && h.bg == BLACK, "U+%04X %06x %06x",
              (unsigned)h.ch, (unsigned)h.fg, (unsigned)h.bg);
    /* Two greys above (a tie for the median, left at their mean), black below. */
    const rgb_t greys[FIT_SAMPLES] = {WHITE, WHITE, RGB(215, 215, 215), RGB(215, 215, 215),
                                      BLACK, BLACK, BLACK, BLACK};
    const struct fit h2 = fit_cell(greys, FIT_SEXTANT);
    CHECK_MSG(h2.ch == 0x2580 && h2.fg == RGB(235, 235, 235) && h2.bg == BLACK,
              "U+%04X %06x %06x", (unsigned)h2.ch, (unsigned)h2.fg, (unsigned)h2.bg);
    /* One colour: a space. */
    const rgb_t one[FIT_SAMPLES] = {RED, RED, RED, RED, RED, RED, RED, RED};
    CHECK(fit_cell(one, FIT_SEXTANT).ch == ' ' && fit_cell(one, FIT_SEXTANT).bg == RED);
}

TEST(glyphs_auto_picks_by_the_terminal)
{
    static const struct {
        const char *name;
        struct probe_env e;
        enum color_mode mode;
        enum glyph_set want;
    } cases[] = {
        {"xterm", {.term = "xterm", .xterm_version = "XTerm(379)"}, COLOR_TRUE, GLYPHS_HALF},
        {"VTE", {.term = "xterm-256color", .vte_version = "7006"}, COLOR_TRUE, GLYPHS_SEXTANT},
        {"kitty", {.term = "xterm-kitty", .kitty_window_id = "1"}, COLOR_TRUE, GLYPHS_SEXTANT},
        {"alacritty", {.term = "alacritty"}, COLOR_TRUE, GLYPHS_QUAD},
        {"konsole", {.term = "xterm-256color", .konsole_version = "221203"}, COLOR_TRUE,
         GLYPHS_QUAD},
        {"xterm started from konsole", {.term = "xterm", .konsole_version = "221203",
                                        .xterm_version = "XTerm(379)"}, COLOR_TRUE, GLYPHS_HALF},
        {"xterm started from VTE", {.term = "xterm", .vte_version = "7006",
                                    .xterm_version = "XTerm(379)"}, COLOR_TRUE, GLYPHS_HALF},
        {"VTE_VERSION but TERM=screen", {.term = "screen", .vte_version = "7006"}, COLOR_256,
         GLYPHS_HALF},
        {"tmux in VTE", {.term = "tmux-256color", .tmux = "/t,1,0", .vte_version = "7006",
                         .tmux_pane = PROBE_YES}, COLOR_256, GLYPHS_HALF},
        {"tmux in alacritty", {.term = "tmux-256color", .tmux = "/t,1,0",
                               .tmux_pane = PROBE_YES}, COLOR_256, GLYPHS_HALF},
        {"screen in VTE", {.term = "screen-256color", .sty = "1.p.h", .vte_version = "7006"},
         COLOR_256, GLYPHS_HALF},
        {"console", {.term = "linux"}, COLOR_16, GLYPHS_HALF},
        {"mono in VTE", {.term = "xterm-256color", .no_color = "1", .vte_version = "7006"},
         COLOR_MONO, GLYPHS_HALF},
        {"st", {.term = "st-256color"}, COLOR_TRUE, GLYPHS_HALF},
        {"urxvt", {.term = "rxvt-unicode-256color"}, COLOR_256, GLYPHS_QUAD},
        {"urxvt started from VTE", {.term = "rxvt-unicode-256color", .vte_version = "7006"},
         COLOR_256, GLYPHS_QUAD},
        {"urxvt started from xterm", {.term = "rxvt-unicode-256color",
                                      .xterm_version = "XTerm(379)"}, COLOR_256, GLYPHS_QUAD},
        {"mlterm", {.term = "mlterm"}, COLOR_TRUE, GLYPHS_HALF},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *why = NULL;
        const enum glyph_set g = probe_glyphs(&cases[i].e, cases[i].mode, &why);
        CHECK_MSG(g == cases[i].want && why && *why, "%s: %s (%s)", cases[i].name,
                  cells_glyphs_name(g), why ? why : "?");
    }
}

static double still_clock(void) { return 0.0; }

/* Scene sc on a cols x rows terminal as glyphs g runs it, stirred for a while,
 * drawn at 1 and at 2 image pixels a canvas pixel; the mean distance between
 * the first and the second averaged 2 x 2 (8-bit RGB). */
static double fine_vs_coarse(int sc, enum glyph_set g)
{
    struct app_opts o;
    app_opts_default(&o);
    o.scene = sc;
    o.autopilot = true;
    o.glyphs = g;
    struct app a;
    if (app_init(&a, &o, 60, 20) != 0)
        return 1e9;
    for (int f = 0; f < 60; f++)
        fx_app_advance(&a, 1.0 / 30, still_clock);
    const int w = app_canvas_w(&a), h = app_canvas_h(&a);
    struct image one, two;
    image_init(&one, w, h);
    image_init(&two, 2 * w, 2 * h);
    app_scene(&a)->draw(a.st[a.cur], &one);
    app_scene(&a)->draw(a.st[a.cur], &two);
    double sum = 0.0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int c[3] = {0, 0, 0};
            for (int j = 0; j < 2; j++)
                for (int i = 0; i < 2; i++) {
                    const rgb_t p = image_get(&two, 2 * x + i, 2 * y + j);
                    c[0] += rgb_r(p), c[1] += rgb_g(p), c[2] += rgb_b(p);
                }
            const rgb_t p = image_get(&one, x, y);
            const double dr = c[0] / 4.0 - rgb_r(p), dg = c[1] / 4.0 - rgb_g(p),
                         db = c[2] / 4.0 - rgb_b(p);
            sum += sqrt(dr * dr + dg * dg + db * db);
        }
    image_free(&one);
    image_free(&two);
    app_free(&a);
    return sum / ((double)w * (double)h);
}

/* Drawn twice as fine, each scene is the same picture (the view, the line
 * widths, the water's bright line all scale), not a corner of it. (Walls lie
 * on whole pixels, which twice as fine are half as coarse: the box's edges
 * differ by up to a canvas pixel.) The water's spray, drops a pixel or two
 * across, differs most between the scales, by how much of it is in the air:
 * 18 to 43 over the autopilot's first 4 s; a view not scaled is 95 to 140. */
TEST(scenes_drawn_twice_as_fine_show_the_same_picture)
{
    for (int sc = 0; sc < SCENE_COUNT; sc++) {
        const double d = fine_vs_coarse(sc, sc == 0 ? GLYPHS_QUAD : GLYPHS_HALF);
        const double most = strcmp(scenes[sc]->name, "pbf") == 0 ? 60.0 : 25.0;
        CHECK_MSG(d < most, "%s: the fine picture averaged is %.1f from the coarse one",
                  scenes[sc]->name, d);
    }
}

/* Bytes a frame of scene sc at 120x40 under --auto, 3 s recorded in g. */
static double bytes_a_frame(int sc, enum glyph_set g)
{
    struct app_opts o;
    app_opts_default(&o);
    o.autopilot = true;
    o.scene = sc;
    o.glyphs = g;
    char path[96];
    snprintf(path, sizeof path, "/tmp/swirl-fit-%d-%d-%d.cast", (int)getpid(), sc, (int)g);
    struct record_stats st;
    const int rc = headless_record(&o, 120, 40, TEST_SANITIZED ? 1.0 : 3.0, path, &st);
    remove(path);
    return rc == 0 && st.frames > 0 ? (double)st.bytes / (double)st.frames : -1.0;
}

/* The byte budget: quadrants and sextants send at most 1.3 times the bytes
 * half-blocks do, and not fewer than they must (something is drawn). */
TEST(glyphs_quad_and_sextant_keep_within_the_byte_budget)
{
    for (int sc = 0; sc < SCENE_COUNT; sc++) {
        const double half = bytes_a_frame(sc, GLYPHS_HALF);
        const double quad = bytes_a_frame(sc, GLYPHS_QUAD);
        const double sext = bytes_a_frame(sc, GLYPHS_SEXTANT);
        CHECK_MSG(half > 1000.0, "%s: %.0f bytes a frame in half", scenes[sc]->name, half);
        CHECK_MSG(quad > 0.0 && quad <= 1.3 * half, "%s: quad %.0f against half %.0f",
                  scenes[sc]->name, quad, half);
        CHECK_MSG(sext > 0.0 && sext <= 1.3 * half, "%s: sextant %.0f against half %.0f",
                  scenes[sc]->name, sext, half);
    }
}

/* Where the bytes hold needle (n bytes). */
static bool holds(const struct buf *b, const char *needle, size_t n)
{
    for (size_t i = 0; i + n <= b->len; i++)
        if (memcmp(b->p + i, needle, n) == 0)
            return true;
    return false;
}

/* Sextants and quadrants are block elements to the encoder: a NUL parts them
 * from a neighbour in the same run (an outline font spills them over), and a
 * glyph whose two colours are within the tolerance is sent as a space. */
TEST(encode_sends_quadrants_and_sextants_as_blocks)
{
    struct cells s;
    cells_init(&s, 3, 1);
    *cells_at(&s, 0, 0) = (struct cell){0x1FB00, RGB(255, 0, 0), RGB(0, 0, 255)};
    *cells_at(&s, 1, 0) = (struct cell){0x1FB01, RGB(255, 0, 0), RGB(0, 0, 255)};
    *cells_at(&s, 2, 0) = (struct cell){0x1FB00, RGB(100, 100, 100), RGB(102, 102, 102)};
    struct encoder e;
    encode_init(&e, COLOR_TRUE, 6, false);
    struct buf b;
    buf_init(&b);
    encode_frame(&e, &s, &b);
    CHECK(holds(&b, "\xf0\x9f\xac\x80\0\xf0\x9f\xac\x81", 9)); /* U+1FB00, NUL, U+1FB01 */
    CHECK(!holds(&b, "\xf0\x9f\xac\x81\0\xf0\x9f\xac\x80", 9)); /* the third: a space */
    CHECK(holds(&b, "48;2;102;102;102m ", 18) || holds(&b, "48;2;102;102;102;", 17));
    buf_free(&b);
    encode_free(&e);
    cells_free(&s);
}
