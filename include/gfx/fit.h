/*
 * fit.h — a cell's glyph and two colours for a small block of pixels.
 *
 * A quadrant cell shows 2 x 2 pixels (▘▝▖▗ ▀▄▌▐ ▚▞ ▙▛▜▟), a sextant cell
 * 2 x 3 (U+1FB00..1FB3B, ▌ and ▐): each pixel either the glyph's fg or its bg.
 * Pixels are given row by row, left to right. The geometry half of the module
 * says which part of a cell a glyph inks, for drawing cells back as pixels
 * (the bench's error, the tests) and for text laid over the picture.
 */
#ifndef SWIRL_FIT_H
#define SWIRL_FIT_H

#include "swirl.h"

#define FIT_QUAD 4    /* pixels a quadrant cell shows */
#define FIT_SEXTANT 6 /* pixels a sextant cell shows */
#define FIT_SAMPLE_ROWS 4 /* a cell's image pixels: 2 wide, 4 high, */
#define FIT_SAMPLES 8     /* row by row */

/* The fitted cell: glyph, the colour of the pixels it inks and of the rest. */
struct fit {
    uint32_t ch;
    rgb_t fg, bg;
};

/* A cell's n glyph pixels from its FIT_SAMPLES image pixels: quadrants
 * average the rows in pairs, sextants take each third of the cell's height by
 * the area it covers of the four rows. */
void fit_pixels(const rgb_t *samples, int n, rgb_t *px);

/* The cell for its FIT_SAMPLES image pixels: the glyph and colours that show
 * its glyph pixels best (fit_internal.h's fit_block says how), then each colour taken FIT_MEDIAN_STEPS steps towards the geometric median
 * of the samples it shows (each by the share of it shown), so that an edge
 * inside a glyph pixel or a lone speck does not grey the colours. */
struct fit fit_cell(const rgb_t *samples, int n);
#define FIT_MEDIAN_STEPS 2

/* The glyph whose inked pixels are `mask` (bit i: pixel i), for n pixels.
 * A mask and its complement are the same glyph with the colours swapped: the
 * glyph returned is for the mask or its complement, *swap says which (true:
 * the complement, so fg and bg trade places). */
uint32_t fit_glyph(unsigned mask, int n, bool *swap);

/* Does glyph ch ink the point (fx, fy) of its cell (0..1 from the top left)?
 * For the space, the half and full blocks, the half columns, the quadrants
 * and the sextants; false for any other glyph. */
bool fit_inks(uint32_t ch, float fx, float fy);
/* The share of its cell glyph ch inks (0 for a space or text). */
float fit_coverage(uint32_t ch);
/* Is ch one of the picture's glyphs fit_inks knows (space included)? */
bool fit_is_picture(uint32_t ch);

/* Squared-error margin (summed over the pixels and channels, 8-bit units)
 * within which ▀ is kept over a sharper fit. */
#define FIT_HALF_KEEP 8

#endif
