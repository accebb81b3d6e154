/*
 * quant.h — an image's colours brought down to a palette of at most
 * QUANT_MAX, each pixel an index into it: what sixel draws with.
 *
 * Two palettes:
 *  - QUANT_CUBE: fixed, L levels a channel (L^3 <= the colours asked; 6 for
 *    256: 216 colours), each pixel ordered-dithered (palette_bayer's 4x4
 *    thresholds) between the two levels around each of its channels. No
 *    work per frame beyond the pixels, and the same colour in the same place
 *    always the same index (a still picture is the same bytes); a channel is
 *    off by less than a level's step, 255 / (L - 1), and a flat area's
 *    pattern averages to its colour.
 *  - QUANT_MEDIAN: the image's own, each frame: its colours counted at 5
 *    bits a channel, the boxes of that histogram split at the median of
 *    their longest side (the box with the most count x side^2 first) until
 *    there are as many as asked, each box's colour the mean of the pixels in
 *    it; then QUANT_REFINE steps of k-means over the bins (each bin to its
 *    nearest colour, each colour the mean of its bins: a full-hue gradient's
 *    error 7 % less for one step, 1 % more for a second). A pixel takes its
 *    bin's nearest colour c1 where that is within QUANT_FLAT levels of it
 *    (flat areas stay flat, and a picture of no more colours than the
 *    palette, each 5-bit bin one colour, is exact); elsewhere (`dither`, on
 *    by default) it is ordered-dithered between c1 and the colour c2 on its
 *    far side (the nearest to it moved as far again from c1), c2 where its
 *    place along c1 -> c2 passes palette_bayer's threshold. Without it a
 *    smooth gradient is a few wide flat steps, bands a person sees in the
 *    dye's dim swirls (fewer runs for sixel: dithering costs the dye 40 %
 *    more bytes, see the bench). (Its sums hold an image of up to 16 M
 *    pixels.)
 */
#ifndef SWIRL_QUANT_H
#define SWIRL_QUANT_H

#include "image.h"

#include <stdint.h>

#define QUANT_MAX 256
#define QUANT_BINS 32768 /* 5 bits a channel */
#define QUANT_REFINE 1   /* k-means steps after the median cut (see above) */
#define QUANT_FLAT 3     /* a pixel this near its colour is not dithered */

enum quant_kind { QUANT_CUBE, QUANT_MEDIAN };

struct quant {
    enum quant_kind kind;
    int colours;           /* asked for, 2..QUANT_MAX */
    int n;                 /* in the palette now */
    rgb_t pal[QUANT_MAX];
    int levels;            /* QUANT_CUBE: levels a channel */
    int refine;            /* QUANT_MEDIAN: steps of k-means after the cut */
    uint32_t *hist;        /* QUANT_MEDIAN: per bin its count and summed r, g, b */
    uint16_t *bins;        /* the bins in use, grouped box by box */
    uint8_t *lut;          /* bin -> palette index */
    void *boxes;           /* the boxes (quant.c) */
    bool dither;           /* QUANT_MEDIAN: ordered dithering where a colour is far */
    uint32_t frame, *stamp; /* the frame, and the one each bin's nearest was found in */
    uint8_t *near;         /* a bin's nearest colour, by its centre */
};

void quant_init(struct quant *q, enum quant_kind kind, int colours);
void quant_free(struct quant *q);
/* The palette for im (q->pal[0..q->n)), and each pixel's index in idx
 * (im->w x im->h, row-major). */
void quant_image(struct quant *q, const struct image *im, uint8_t *idx);

#endif
