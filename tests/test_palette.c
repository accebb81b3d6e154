/*
 * test_palette.c — colour mapping: exact palette colours map exactly, nearest
 * colours, the rules of palette.h (flat where the nearest colour is close, a
 * mix only where it is off, hues kept, greys stay grey, dark stays blank in
 * mono), stability of the patterns, mode names.
 *
 * Hues are judged with the test's own OKLab (double precision, from the
 * published matrices), so the checks do not lean on the code they check.
 */
#include "palette.h"
#include "palette_internal.h"
#include "rgb.h"
#include "test.h"

#include <math.h>

/* ---- an independent OKLab, and what a 4x4 tile of palette_dither shows ---- */

static double lin(int v)
{
    double x = v / 255.0;
    return x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4);
}

struct lab {
    double L, a, b, C, h; /* h in degrees */
};

static struct lab oklab(rgb_t c)
{
    double r = lin(rgb_r(c)), g = lin(rgb_g(c)), b = lin(rgb_b(c));
    double l = cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
    double m = cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
    double s = cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
    struct lab o;
    o.L = 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s;
    o.a = 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s;
    o.b = 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s;
    o.C = hypot(o.a, o.b);
    o.h = atan2(o.b, o.a) * 180.0 / M_PI;
    return o;
}

static double hue_gap(double h1, double h2)
{
    double d = fmod(fabs(h1 - h2), 360.0);
    return d > 180.0 ? 360.0 - d : d;
}

/* The distinct colours of the 4x4 pattern of c (the Bayer tile), with counts. */
struct tile {
    int n;
    rgb_t c[16];
    int count[16];
};

static struct tile tile_of(enum color_mode mode, rgb_t c)
{
    struct tile t = {0, {0}, {0}};
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) {
            rgb_t d = palette_dither(mode, c, x, y);
            int k = 0;
            while (k < t.n && t.c[k] != d)
                k++;
            if (k == t.n)
                t.c[t.n++] = d;
            t.count[k]++;
        }
    return t;
}

/* The index of a colour of the 8/16-colour palette (-1: not one). */
static int ansi_index(rgb_t c)
{
    for (int i = 0; i < 16; i++)
        if (palette_rgb(i) == c)
            return i;
    return -1;
}

/* A splat of dye at strength k over the dye scene's background (as dye_draw.c
 * draws it): the faint colours of a fading stroke. */
static rgb_t faint_dye(float hue, float k)
{
    rgb_t d = rgb_hsv(hue, 0.9f, 1.0f);
    return RGB(6 + (int)lrintf((float)rgb_r(d) * k * 249.0f / 255.0f),
               6 + (int)lrintf((float)rgb_g(d) * k * 249.0f / 255.0f),
               12 + (int)lrintf((float)rgb_b(d) * k * 243.0f / 255.0f));
}

/* ---- exact colours ------------------------------------------------------ */

TEST(palette_exact_cube_and_grey_colours_map_exactly)
{
    for (int i = 16; i < 256; i++) {
        rgb_t c = palette_rgb(i);
        int got = palette_index(COLOR_256, c);
        /* Greys that also exist in the cube may map to either; the colour must match. */
        CHECK_MSG(palette_rgb(got) == c, "index %d (%06x) -> %d (%06x)", i, c, got, palette_rgb(got));
        CHECK_MSG(palette_dither(COLOR_256, c, 1, 2) == c, "index %d is not shown as itself", i);
    }
    for (int i = 0; i < 16; i++)
        CHECK_MSG(palette_index(COLOR_16, palette_rgb(i)) == i, "16 colours: %d", i);
    for (int i = 0; i < 8; i++)
        CHECK_MSG(palette_index(COLOR_8, palette_rgb(i)) == i, "8 colours: %d", i);
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
    CHECK_INT(palette_index(COLOR_256, RGB(100, 100, 110)), 241);
    CHECK_INT(palette_index(COLOR_16, RGB(250, 10, 10)), 9);
    CHECK_INT(palette_index(COLOR_8, RGB(250, 10, 10)), 1);
    CHECK_INT(palette_index(COLOR_16, RGB(0, 0, 255)), 4);
    CHECK(palette_nearest(COLOR_TRUE, RGB(1, 2, 3)) == RGB(1, 2, 3));
    CHECK(palette_nearest(COLOR_MONO, RGB(1, 2, 3)) == COLOR_DEFAULT);
    CHECK(palette_nearest(COLOR_256, COLOR_DEFAULT) == COLOR_DEFAULT);
}

/* ---- flat where the nearest colour is close ----------------------------- */

TEST(palette_flat_dark_backgrounds_are_one_colour)
{
    /* The scenes' backgrounds and the darkest near-greys: one colour, the
     * nearest, in every indexed mode; black in 8 and 16 colours. */
    const rgb_t dark[] = {RGB(12, 12, 18), RGB(6, 6, 12), RGB(10, 12, 20), RGB(0, 0, 0),
                          RGB(20, 20, 24), RGB(16, 16, 26), RGB(28, 28, 40), RGB(3, 5, 9)};
    const enum color_mode modes[] = {COLOR_256, COLOR_16, COLOR_8};
    for (int m = 0; m < 3; m++)
        for (size_t i = 0; i < sizeof dark / sizeof dark[0]; i++) {
            struct tile t = tile_of(modes[m], dark[i]);
            CHECK_MSG(t.n == 1 && t.c[0] == palette_nearest(modes[m], dark[i]),
                      "%s: %06x shows %d colours", palette_mode_name(modes[m]), dark[i], t.n);
            if (modes[m] != COLOR_256)
                CHECK_MSG(t.c[0] == 0, "%06x is not black in %s", dark[i],
                          palette_mode_name(modes[m]));
            else
                CHECK_MSG(palette_error(COLOR_256, dark[i]) <= PALETTE_THRESHOLD,
                          "%06x: %g", dark[i], palette_error(COLOR_256, dark[i]));
        }
}

TEST(palette_dithers_only_where_the_nearest_colour_is_off)
{
    /* Every 11th level of each channel (13824 colours) in each mode: a colour
     * whose nearest is within the threshold is that colour everywhere; a
     * colour shown as a pattern was off by more. Both happen. */
    const enum color_mode modes[] = {COLOR_256, COLOR_16, COLOR_8};
    for (int m = 0; m < 3; m++) {
        int flat = 0, mixed = 0, bad = 0;
        for (int r = 0; r < 256; r += 11)
            for (int g = 0; g < 256; g += 11)
                for (int b = 0; b < 256; b += 11) {
                    rgb_t c = RGB(r, g, b);
                    struct tile t = tile_of(modes[m], c);
                    float e = palette_error(modes[m], c);
                    if (t.n > 1)
                        mixed++;
                    else
                        flat++;
                    if ((t.n > 1 && e <= PALETTE_THRESHOLD) ||
                        (e <= PALETTE_THRESHOLD && t.c[0] != palette_nearest(modes[m], c))) {
                        if (bad++ < 3)
                            CHECK_MSG(0, "%s: %06x error %g, %d colours",
                                      palette_mode_name(modes[m]), c, e, t.n);
                    }
                }
        CHECK_MSG(bad == 0, "%s: %d colours break the rule", palette_mode_name(modes[m]), bad);
        CHECK_MSG(flat > 0 && mixed > 0, "%s: %d flat, %d mixed", palette_mode_name(modes[m]),
                  flat, mixed);
    }
}

TEST(palette_patterns_are_sparing_in_8_and_16_colours)
{
    /* 8/16 colours: a pattern's minority colour covers at least 4 of 16 pixels
     * (no lone specks), and most colours are not patterns at all. */
    const enum color_mode modes[] = {COLOR_16, COLOR_8};
    for (int m = 0; m < 2; m++) {
        int mixed = 0, total = 0;
        for (int r = 0; r < 256; r += 15)
            for (int g = 0; g < 256; g += 15)
                for (int b = 0; b < 256; b += 15) {
                    struct tile t = tile_of(modes[m], RGB(r, g, b));
                    total++;
                    if (t.n == 1)
                        continue;
                    mixed++;
                    CHECK_MSG(t.n == 2 && t.count[0] >= 4 && t.count[1] >= 4,
                              "%s: %06x: %d colours, %d/%d", palette_mode_name(modes[m]),
                              RGB(r, g, b), t.n, t.count[0], t.count[1]);
                }
        CHECK_MSG(mixed * 4 < total, "%s: %d of %d colours are patterns",
                  palette_mode_name(modes[m]), mixed, total);
    }
}

/* ---- hues --------------------------------------------------------------- */

TEST(palette_faint_colours_keep_their_hue_in_256)
{
    /* A fading dye stroke of every hue: each shown pixel is a grey or a colour
     * of the stroke's hue family (within 45 degrees), and some pixel shows the
     * hue (no grey checkerboard in its place). */
    const float strength[] = {0.12f, 0.2f, 0.3f, 0.45f};
    for (int h = 0; h < 360; h += 15)
        for (int k = 0; k < 4; k++) {
            rgb_t c = faint_dye((float)h / 360.0f, strength[k]);
            struct lab want = oklab(c);
            if (want.C < PALETTE_CHROMA)
                continue;
            struct tile t = tile_of(COLOR_256, c);
            bool hue_shown = false;
            for (int i = 0; i < t.n; i++) {
                struct lab got = oklab(t.c[i]);
                if (got.C < 0.02)
                    continue;
                CHECK_MSG(hue_gap(got.h, want.h) <= 46.0, "%06x (h %.0f) shows %06x (h %.0f)", c,
                          want.h, t.c[i], got.h);
                hue_shown = true;
            }
            CHECK_MSG(hue_shown, "%06x (C %.3f) shows only greys", c, want.C);
        }
}

TEST(palette_greys_stay_grey)
{
    /* A grey (or a barely tinted one) is shown with greys only, in every mode:
     * no complementary colours mixed into a grey. */
    const enum color_mode modes[] = {COLOR_256, COLOR_16, COLOR_8};
    for (int m = 0; m < 3; m++)
        for (int v = 0; v < 256; v += 5) {
            rgb_t g[] = {RGB(v, v, v), RGB(v, v, clampi(v + 6, 0, 255))};
            for (int k = 0; k < 2; k++) {
                if (oklab(g[k]).C >= 0.02)
                    continue;
                struct tile t = tile_of(modes[m], g[k]);
                for (int i = 0; i < t.n; i++)
                    CHECK_MSG(oklab(t.c[i]).C < 0.01, "%s: grey %06x shows %06x",
                              palette_mode_name(modes[m]), g[k], t.c[i]);
            }
        }
}

/* The cloth scene's colours at rest (scenes/cloth_draw.c): fabric shaded by 0.3 to
 * 1.25, threads, slack threads, and the anti-aliased mixes between them and
 * with the background. */
static int cloth_colours(rgb_t *out)
{
    const rgb_t fabric = RGB(34, 58, 96), thread = RGB(170, 200, 235);
    const rgb_t slack = RGB(90, 120, 190), bg = RGB(12, 12, 18);
    int n = 0;
    for (float s = 0.3f; s <= 1.25f; s += 0.05f) {
        rgb_t f = rgb_scale(fabric, s);
        out[n++] = f;
        for (float a = 0.125f; a < 1.0f; a += 0.125f) {
            out[n++] = rgb_mix(f, thread, a);
            out[n++] = rgb_mix(f, slack, a);
            out[n++] = rgb_mix(bg, f, a);
        }
    }
    for (float a = 0.0f; a <= 1.0f; a += 0.125f) {
        out[n++] = rgb_mix(bg, thread, a);
        out[n++] = rgb_mix(thread, slack, a);
    }
    return n;
}

TEST(palette_cloth_stays_blue_in_8_and_16_colours)
{
    /* Blue, cyan, white or black (and 16 colours' bright blue, cyan, white and
     * grey); never red, magenta, green or yellow. The fabric itself is blue. */
    static rgb_t cols[1024];
    int n = cloth_colours(cols);
    const enum color_mode modes[] = {COLOR_8, COLOR_16};
    for (int m = 0; m < 2; m++) {
        for (int i = 0; i < n; i++) {
            struct tile t = tile_of(modes[m], cols[i]);
            for (int k = 0; k < t.n; k++) {
                int a = ansi_index(t.c[k]);
                bool ok = a == 0 || a == 4 || a == 6 || a == 7 || a == 8 || a == 12 ||
                          a == 14 || a == 15;
                CHECK_MSG(ok, "%s: cloth colour %06x shows index %d", palette_mode_name(modes[m]),
                          cols[i], a);
            }
        }
        CHECK_INT(palette_index(modes[m], RGB(34, 58, 96)), 4);
        CHECK_INT(palette_index(modes[m], RGB(12, 12, 18)), 0);
        int th = palette_index(modes[m], RGB(170, 200, 235));
        CHECK_MSG(th == 7 || th == 15 || th == 6 || th == 14, "thread -> %d", th);
    }
}

/* The pbf scene's water as pbf_draw.c shades it: from the shallow blue under
 * the surface to the deep blue at depth, and its walls, anti-aliased over the
 * background (a wall a pixel or two wide covers its pixels in part). */
#define PBF_BACKGROUND RGB(9, 11, 18)
#define PBF_WALL RGB(118, 126, 140)
#define PBF_WALL_EDGE RGB(186, 194, 208)
#define PBF_SHALLOW RGB(38, 122, 214)
#define PBF_DEEP RGB(5, 26, 78)

TEST(palette_deep_water_is_flat_in_256)
{
    /* Every shade of the water, shallow to deep, is one colour of its own hue
     * in 256 colours: the cube has a dark blue of that hue near each, and a
     * pattern of two around it (they lie 95 and 40 levels apart) showed as a
     * checkerboard over the whole body of water. */
    for (int k = 0; k <= 64; k++) {
        rgb_t c = rgb_mix(PBF_SHALLOW, PBF_DEEP, (float)k / 64.0f);
        struct tile t = tile_of(COLOR_256, c);
        CHECK_MSG(t.n == 1, "water %06x (depth %d/64) shows %d colours (%06x, %06x)", c, k, t.n,
                  t.c[0], t.n > 1 ? t.c[1] : 0);
        struct lab want = oklab(c), got = oklab(t.c[0]);
        CHECK_MSG(got.C > 0.05 && hue_gap(got.h, want.h) <= 45.0,
                  "water %06x (h %.0f) shows %06x (C %.2f, h %.0f)", c, want.h, t.c[0], got.C,
                  got.h);
    }
    /* A faint tint whose nearest colour is a grey still gets its hue back. */
    CHECK(tile_of(COLOR_256, RGB(43, 10, 40)).n == 2);
}

TEST(palette_walls_stay_grey_in_8_and_16_colours)
{
    /* The walls and their inner edge, at every coverage from 0.3 of a pixel
     * (the thinnest wall pixels drawn at 100x30 are 0.3 and 0.5 covered) up,
     * are greys other than the background's: light grey in 8 colours (black
     * and it are its only greys), grey or light grey in 16. Before, a wall
     * pixel darker than L 0.46 was black in 8 colours: the box lost its top
     * and bottom walls. */
    const enum color_mode modes[] = {COLOR_8, COLOR_16};
    for (int m = 0; m < 2; m++) {
        int bg = palette_index(modes[m], PBF_BACKGROUND);
        CHECK_INT(bg, 0);
        CHECK(tile_of(modes[m], PBF_BACKGROUND).n == 1);
        for (int k = 6; k <= 20; k++) {
            float a = (float)k / 20.0f;
            const rgb_t wall[] = {rgb_mix(PBF_BACKGROUND, PBF_WALL, a),
                                  rgb_mix(PBF_BACKGROUND, PBF_WALL_EDGE, a),
                                  rgb_mix(PBF_WALL, PBF_WALL_EDGE, a)};
            for (int w = 0; w < 3; w++) {
                struct tile t = tile_of(modes[m], wall[w]);
                for (int i = 0; i < t.n; i++) {
                    int ix = ansi_index(t.c[i]);
                    bool grey = ix == 7 || (modes[m] == COLOR_16 && (ix == 8 || ix == 15));
                    CHECK_MSG(grey && ix != bg, "%s: wall %06x (coverage %.2f) shows index %d",
                              palette_mode_name(modes[m]), wall[w], a, ix);
                }
            }
        }
    }
    /* The darkest backgrounds stay black (palette_flat_dark_backgrounds...),
     * and a grey lighter than them by a visible step is light grey. */
    CHECK_INT(palette_index(COLOR_8, RGB(28, 28, 40)), 0);
    CHECK_INT(palette_index(COLOR_8, RGB(48, 48, 48)), 7);
}

/* ---- stability ------------------------------------------------------------ */

TEST(palette_dither_is_stable_and_mixes_neighbours)
{
    /* A faint purple, far from any one colour, becomes a pattern of two, the
     * same at every 4x4 tile, and the same after the memo has seen others. */
    rgb_t c = RGB(43, 10, 40);
    rgb_t before[16];
    for (int i = 0; i < 16; i++)
        before[i] = palette_dither(COLOR_256, c, i % 4, i / 4);
    struct tile t = tile_of(COLOR_256, c);
    CHECK_MSG(t.n == 2, "%d colours", t.n);
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++)
            CHECK(palette_dither(COLOR_256, c, x, y) ==
                  palette_dither(COLOR_256, c, x + 4, y + 8)); /* tiles */
    struct rng r = {7};
    for (int i = 0; i < 200000; i++)
        palette_dither(COLOR_256, rng_next(&r) & 0xffffff, i, i / 7);
    for (int i = 0; i < 16; i++)
        CHECK(palette_dither(COLOR_256, c, i % 4, i / 4) == before[i]);
    /* Truecolor passes through; the terminal's default stays itself. */
    CHECK(palette_dither(COLOR_TRUE, c, 1, 2) == c);
    CHECK(palette_dither(COLOR_256, COLOR_DEFAULT, 1, 2) == COLOR_DEFAULT);
}

/* ---- mono ----------------------------------------------------------------- */

static int ink_of(rgb_t c)
{
    int n = 0;
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++)
            n += palette_ink(c, x, y);
    return n;
}

TEST(palette_mono_leaves_dark_blank_and_inks_features)
{
    /* The backgrounds and the cloth's resting fabric: no ink at all. The
     * threads, the walls, water at rest and bright dye: solid. */
    const rgb_t blank[] = {RGB(12, 12, 18), RGB(6, 6, 12), RGB(10, 12, 20), RGB(27, 46, 77),
                           RGB(60, 60, 60), 0};
    const rgb_t solid[] = {RGB(170, 200, 235), RGB(136, 136, 136), RGB(0, 32, 128),
                           RGB(255, 31, 36), RGB(31, 87, 255), RGB(255, 255, 255)};
    for (size_t i = 0; i < sizeof blank / sizeof blank[0]; i++)
        CHECK_MSG(ink_of(blank[i]) == 0, "%06x: %d of 16 inked", blank[i], ink_of(blank[i]));
    for (size_t i = 0; i < sizeof solid / sizeof solid[0]; i++)
        CHECK_MSG(ink_of(solid[i]) == 16, "%06x: %d of 16 inked", solid[i], ink_of(solid[i]));
    /* In between, an ordered share that grows with lightness. */
    int last = 0;
    for (int v = 0; v < 256; v += 8) {
        int n = ink_of(RGB(v, v, v));
        CHECK_MSG(n >= last, "grey %d: %d after %d", v, n, last);
        last = n;
    }
    CHECK(!palette_ink(COLOR_DEFAULT, 0, 0));
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
