/*
 * sixel.h — an image as sixel draws it: one frame's bytes, at the cursor,
 * in a palette of the frame's own.
 *
 * A frame: the cursor saved (DECSC) and moved to the cell where the image's
 * top left goes, DCS P1;P2;P3 q with P2 = 1 (pixels not drawn keep what the
 * screen had, so a frame drawn over the last never shows the background
 * between them: every pixel of the image is drawn), raster attributes with
 * the size and square pixels, the palette (#i;2;r;g;b, each channel a
 * percentage), then the rows six at a time: for each colour in the band, its
 * sixels from the first column it has to its last, runs of one sixel of 4
 * or more sent as !n, a $ before the next colour and a - after the band; the
 * string ended (ST) and the cursor restored (DECRC). Each pixel of the image
 * may be drawn as scale x scale of the terminal's (pixel repetition: a
 * run n pixels long is n x scale sixels, a band covers 6 / scale rows of
 * the image); and it may be stretched to a size a little more than that
 * (`width` x `height`: the cells it covers, which are seldom a whole
 * multiple of its pixels: cells of 17 pixels hold 16 at most, and a scale
 * of 2 at k = 3 fills 6 of 8), each terminal pixel showing the image pixel
 * it falls in, as kitty stretches its picture over the cells. The frame is meant to go inside synchronized output (CSI
 * ?2026 h ... l) as one write, so a terminal that draws as it decodes shows
 * it whole; DECSDM (mode 80) is left alone.
 *
 * The palette is quant.h's: the cube, ordered-dithered, or the frame's own
 * by median cut (the default: fewer runs, so fewer bytes, and a smaller
 * error; see the bench). colours: the terminal's colour registers to use,
 * at most (XTSMGRAPHICS says how many it has; 256 is what xterm and
 * most others give).
 */
#ifndef SWIRL_SIXEL_H
#define SWIRL_SIXEL_H

#include "buf.h"
#include "image.h"
#include "quant.h"

struct sixel {
    struct quant q;
    int scale;             /* terminal pixels an image pixel, each way (1..) */
    int width, height;     /* terminal pixels the picture fills (0: its own x scale;
                            * more: image pixels repeated, some once more, to fill them) */
    uint8_t *idx;          /* each pixel's palette index */
    uint8_t *bits;         /* a band's sixels, QUANT_MAX rows of the image's width */
    size_t idx_cap, bits_cap;
    int first[QUANT_MAX], last[QUANT_MAX]; /* a colour's columns in the band (-1: none) */
    uint8_t order[QUANT_MAX]; /* the band's colours, as first met */
    struct image sent;     /* the last frame sent (an unchanged frame sends nothing), */
    int sent_place[5];     /* and its col, row, scale (0: none), width and height */
    /* Cells the picture leaves undrawn (nonzero), hole_cols x hole_rows over
     * its area, row by row (NULL: none): text there keeps its pixels (P2 = 1
     * leaves a pixel not drawn as it was), so a picture never paints over
     * the help, a panel or the status line, even for a moment. */
    const uint8_t *holes;
    int hole_cols, hole_rows;
};

void sixel_init(struct sixel *s, enum quant_kind palette, int colours);
void sixel_free(struct sixel *s);
/* Appends a frame of im with its top left at cell (col, row) (from 0). A
 * frame the same as the last one sent (its pixels, place and scale)
 * appends nothing, and returns false. */
bool sixel_frame(struct sixel *s, const struct image *im, int col, int row, struct buf *out);
/* The next frame goes whatever it is (the screen was cleared). */
void sixel_invalidate(struct sixel *s);

#endif
