/*
 * palette.h — colour depths and the mapping of rgb_t onto them.
 *
 * Cells always hold rgb_t (or COLOR_DEFAULT, the terminal's own fg/bg). The blit
 * quantises each pixel to a colour the mode can show, with an ordered (Bayer 4x4,
 * spatially stable) dither, and stores that colour's RGB; the encoder maps it back
 * to an index exactly. 256-colour mode uses the xterm cube (levels 0, 95, 135,
 * 175, 215, 255; indices 16..231) and the grey ramp (8, 18, ..., 238; 232..255),
 * never the themable 0..15. 16- and 8-colour modes use xterm's default RGB for
 * the ANSI colours.
 */
#ifndef SWIRL_PALETTE_H
#define SWIRL_PALETTE_H

#include "swirl.h"

enum color_mode { COLOR_MONO, COLOR_8, COLOR_16, COLOR_256, COLOR_TRUE };

/* Not a colour: "the terminal's default" (SGR 39 / 49). */
#define COLOR_DEFAULT 0x01000000u

/* xterm's default RGB of palette index 0..255. */
rgb_t palette_rgb(int index);
/* Nearest index the mode can show: 256 -> 16..255, 16 -> 0..15, 8 -> 0..7. */
int palette_index(enum color_mode mode, rgb_t c);
/* Nearest colour of the mode, no dither (truecolor: c itself). */
rgb_t palette_nearest(enum color_mode mode, rgb_t c);
/* Colour of the mode for pixel (x,y) of an image, ordered-dithered. */
rgb_t palette_dither(enum color_mode mode, rgb_t c, int x, int y);
/* The Bayer threshold of (x,y) in (0,1). */
float palette_bayer(int x, int y);

const char *palette_mode_name(enum color_mode mode);
/* "truecolor" (or "24bit"), "256", "16", "8", "mono"; returns 0 or -1. */
int palette_mode_parse(const char *s, enum color_mode *mode);

#endif
