/*
 * palette.h — colour depths and the mapping of rgb_t onto them.
 *
 * Cells always hold rgb_t (or COLOR_DEFAULT, the terminal's own fg/bg). The blit
 * quantises each pixel to a colour the mode can show and stores that colour's
 * RGB; the encoder maps it back to an index exactly. 256-colour mode uses the
 * xterm cube (levels 0, 95, 135, 175, 215, 255; indices 16..231) and the grey
 * ramp (8, 18, ..., 238; 232..255), never the themable 0..15. 16- and 8-colour
 * modes use xterm's default RGB for the ANSI colours.
 *
 * Colours are compared in OKLab, weighted to keep hue: a colour of visible
 * chroma (PALETTE_CHROMA and up) is matched only by greys and by colours within
 * 45 degrees of its hue, and chroma it loses counts 3 times (256 colours) or 4
 * times (8/16, whose one grey is never used for a tinted colour) as much as
 * chroma it gains; a colour below PALETTE_CHROMA is a grey, matched by greys.
 * Where the nearest such colour is off by more than PALETTE_THRESHOLD, a pixel
 * may instead be an ordered (Bayer 4x4, spatially stable) pattern of two
 * colours, mixed in linear light, when that is nearer by more than a cost for
 * the pattern's contrast; a pattern of two greys never stands for a colour, and
 * in 8/16 colours its minority covers at least 4 pixels of 16. The cost is
 * low in 256 colours where the nearest colour lost the hue (a faint tint shown
 * as a grey), as high as in 8/16 where it kept it (the cube's dark blues for
 * deep water: a checkerboard of two far-apart blues over a whole area). So
 * flat areas stay one colour, and a pattern never hides a hue or adds one. In
 * 8 colours a grey is black or light grey, never a pattern, and lightness it
 * loses weighs 6 times: a mid grey on a dark background (a wall) stays a light
 * line, the backgrounds (L below 0.27) black.
 *
 * Mappings are pure functions of (mode, colour), decided for blocks of 4x4x4
 * colours and memoised; a colour of the mode's palette is always itself.
 */
#ifndef SWIRL_PALETTE_H
#define SWIRL_PALETTE_H

#include "swirl.h"

enum color_mode { COLOR_MONO, COLOR_8, COLOR_16, COLOR_256, COLOR_TRUE };

/* Not a colour: "the terminal's default" (SGR 39 / 49). */
#define COLOR_DEFAULT 0x01000000u
/* Not a colour either, as a cell's background: the cell in reverse video, its
 * glyph in the terminal's default background over its default foreground
 * (mono's ink; only the mono blit makes it). It has COLOR_DEFAULT's bit, so
 * what is not a colour is tested as one. */
#define COLOR_REVERSE 0x03000000u

/* Below this OKLab chroma a colour counts as a grey. */
#define PALETTE_CHROMA 0.03f
/* A nearest colour off by at most this (weighted OKLab distance) is never
 * dithered: about three just-noticeable differences. A smooth gradient then
 * shows as bands of flat colour with patterns only between them (the cloth's
 * shaded blue lies 0.045-0.065 from the cube), while a faint tint shown as a
 * grey (0.1 and more, chroma loss weighted) still gets its hue back. */
#define PALETTE_THRESHOLD 0.065f

/* Nearest index the mode can show: 256 -> 16..255, 16 -> 0..15, 8 -> 0..7. */
int palette_index(enum color_mode mode, rgb_t c);
/* Nearest colour of the mode, no dither (truecolor: c itself). */
rgb_t palette_nearest(enum color_mode mode, rgb_t c);
/* Colour of the mode for pixel (x,y) of an image, ordered-dithered. */
rgb_t palette_dither(enum color_mode mode, rgb_t c, int x, int y);
/* Mono: whether pixel (x,y) of colour c is inked, ordered-dithered. The ink
 * share grows with OKLab lightness plus twice the chroma (so saturated blues
 * and reds count) from 0 at 0.42, so a dark background stays blank. */
bool palette_ink(rgb_t c, int x, int y);
/* The Bayer threshold of (x,y) in (0,1). */
float palette_bayer(int x, int y);

const char *palette_mode_name(enum color_mode mode);
/* "truecolor" (or "24bit"), "256", "16", "8", "mono"; returns 0 or -1. */
int palette_mode_parse(const char *s, enum color_mode *mode);

#endif
