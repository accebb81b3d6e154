/*
 * palette_internal.h — private to src/gfx/palette.c (and the tests): the xterm
 * palette's colours by index and how far a colour is from the nearest of a
 * mode, which the product uses only through palette_nearest and
 * palette_dither (palette.h).
 */
#ifndef SWIRL_PALETTE_INTERNAL_H
#define SWIRL_PALETTE_INTERNAL_H

#include "palette.h"

/* xterm's default RGB of palette index 0..255. */
rgb_t palette_rgb(int index);
/* How far c is from palette_nearest (weighted OKLab; 0 in truecolor and mono). */
float palette_error(enum color_mode mode, rgb_t c);

#endif
