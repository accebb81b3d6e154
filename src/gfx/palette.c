/*
 * palette.c — xterm palettes, nearest-colour search and ordered dithering
 * (see palette.h). Also rgb_hsv, the one colour-space helper the scenes use.
 *
 * Distances are plain squared RGB distances: the palettes are coarse enough that a
 * perceptual metric changes little, and the cube lookup stays O(1).
 */
#include "palette.h"

#include <math.h>
#include <string.h>

static const int cube_level[6] = {0, 95, 135, 175, 215, 255};

/* xterm's default 16 colours. */
static const rgb_t ansi16[16] = {
    0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
    0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
};

rgb_t palette_rgb(int index)
{
    if (index < 16)
        return ansi16[clampi(index, 0, 15)];
    if (index < 232) {
        int i = index - 16;
        return RGB(cube_level[i / 36], cube_level[(i / 6) % 6], cube_level[i % 6]);
    }
    int g = 8 + 10 * (clampi(index, 232, 255) - 232);
    return RGB(g, g, g);
}

static int dist2(rgb_t a, rgb_t b)
{
    int dr = rgb_r(a) - rgb_r(b), dg = rgb_g(a) - rgb_g(b), db = rgb_b(a) - rgb_b(b);
    return dr * dr + dg * dg + db * db;
}

/* Index of the cube level nearest to v: thresholds halfway between levels. */
static int cube_nearest(int v)
{
    if (v < 48)
        return 0;
    if (v < 115)
        return 1;
    return (v - 115) / 40 + 2 > 5 ? 5 : (v - 115) / 40 + 2;
}

static int nearest256(rgb_t c)
{
    int r = cube_nearest(rgb_r(c)), g = cube_nearest(rgb_g(c)), b = cube_nearest(rgb_b(c));
    int cube = 16 + 36 * r + 6 * g + b;
    int avg = (rgb_r(c) + rgb_g(c) + rgb_b(c)) / 3;
    int gi = clampi((avg - 3) / 10, 0, 23);
    /* The grey below or above may be nearer after rounding: try both. */
    int grey = 232 + gi;
    if (gi < 23 && dist2(c, palette_rgb(grey + 1)) < dist2(c, palette_rgb(grey)))
        grey++;
    return dist2(c, palette_rgb(grey)) < dist2(c, palette_rgb(cube)) ? grey : cube;
}

static int nearest_ansi(rgb_t c, int n)
{
    int best = 0, bd = dist2(c, ansi16[0]);
    for (int i = 1; i < n; i++) {
        int d = dist2(c, ansi16[i]);
        if (d < bd)
            bd = d, best = i;
    }
    return best;
}

int palette_index(enum color_mode mode, rgb_t c)
{
    switch (mode) {
    case COLOR_256:
        return nearest256(c);
    case COLOR_16:
        return nearest_ansi(c, 16);
    case COLOR_8:
        return nearest_ansi(c, 8);
    default:
        return 0;
    }
}

rgb_t palette_nearest(enum color_mode mode, rgb_t c)
{
    if (c & COLOR_DEFAULT)
        return COLOR_DEFAULT;
    switch (mode) {
    case COLOR_TRUE:
        return c;
    case COLOR_MONO:
        return COLOR_DEFAULT;
    default:
        return palette_rgb(palette_index(mode, c));
    }
}

float palette_bayer(int x, int y)
{
    static const unsigned char m[4][4] = {
        {0, 8, 2, 10}, {12, 4, 14, 6}, {3, 11, 1, 9}, {15, 7, 13, 5}};
    return ((float)m[y & 3][x & 3] + 0.5f) / 16.0f;
}

/*
 * Ordered dithering between the two palette colours that bracket c: the nearest
 * one, n0, and the nearest to c's mirror image through n0, n1. The share of n1
 * is how far c lies from n0 towards n1, compared with the Bayer threshold of
 * (x,y). A colour of the palette stays itself, so flat areas of such colours do
 * not shimmer, and the palette's uneven steps (the cube's 0 -> 95 jump, the grey
 * ramp's steps of 10) are handled without a fixed spread.
 */
rgb_t palette_dither(enum color_mode mode, rgb_t c, int x, int y)
{
    if (mode == COLOR_TRUE)
        return c;
    if (mode == COLOR_MONO || (c & COLOR_DEFAULT))
        return COLOR_DEFAULT;
    rgb_t n0 = palette_rgb(palette_index(mode, c));
    if (n0 == c)
        return c;
    int er = rgb_r(c) - rgb_r(n0), eg = rgb_g(c) - rgb_g(n0), eb = rgb_b(c) - rgb_b(n0);
    rgb_t mirror = RGB(clampi(rgb_r(c) + er, 0, 255), clampi(rgb_g(c) + eg, 0, 255),
                       clampi(rgb_b(c) + eb, 0, 255));
    rgb_t n1 = palette_rgb(palette_index(mode, mirror));
    if (n1 == n0)
        return n0;
    int dr = rgb_r(n1) - rgb_r(n0), dg = rgb_g(n1) - rgb_g(n0), db = rgb_b(n1) - rgb_b(n0);
    float f = (float)(er * dr + eg * dg + eb * db) / (float)(dr * dr + dg * dg + db * db);
    return palette_bayer(x, y) < f ? n1 : n0;
}

static const struct {
    const char *name;
    enum color_mode mode;
} mode_names[] = {
    {"truecolor", COLOR_TRUE}, {"24bit", COLOR_TRUE}, {"256", COLOR_256},
    {"16", COLOR_16},          {"8", COLOR_8},        {"mono", COLOR_MONO},
};

const char *palette_mode_name(enum color_mode mode)
{
    for (size_t i = 0; i < sizeof mode_names / sizeof mode_names[0]; i++)
        if (mode_names[i].mode == mode)
            return mode_names[i].name;
    return "?";
}

int palette_mode_parse(const char *s, enum color_mode *mode)
{
    for (size_t i = 0; i < sizeof mode_names / sizeof mode_names[0]; i++)
        if (strcmp(s, mode_names[i].name) == 0) {
            *mode = mode_names[i].mode;
            return 0;
        }
    return -1;
}
