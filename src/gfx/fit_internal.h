/*
 * fit_internal.h — private to src/gfx/fit.c (and the tests): the fit of a
 * cell's glyph pixels alone, which the product takes only through fit_cell
 * (fit.h), and which the tests check against the glyph a person would pick.
 */
#ifndef SWIRL_FIT_INTERNAL_H
#define SWIRL_FIT_INTERNAL_H

#include "fit.h"

/*
 * The glyph and colours that show n pixels (FIT_QUAD or FIT_SEXTANT) best:
 * the pixels are ranked along the principal axis of their colours, and of the
 * splits of that order into a lower and an upper run the one with the least
 * squared error (bettered by a step of Lloyd's where it can be) is the glyph,
 * the means of the two groups its colours.
 * Where ▀ (the top half one colour, the bottom the other) is within
 * FIT_HALF_KEEP of the best, it is ▀, so smooth pictures stay half-blocks;
 * a block of one colour is a space.
 */
struct fit fit_block(const rgb_t *px, int n);

#endif
