/*
 * cells.h — the terminal screen as the program means it: cols x rows cells, each
 * a glyph (a Unicode code point of width 1) with a foreground and a background
 * colour (rgb_t, or COLOR_DEFAULT). Row-major, (0,0) top-left.
 *
 * The blit turns an image into cells (▀ with fg = upper pixel, bg = lower); the
 * HUD and overlays write text over them; the encoder turns them into bytes.
 */
#ifndef SWIRL_CELLS_H
#define SWIRL_CELLS_H

#include "image.h"
#include "palette.h"

#define GLYPH_UPPER 0x2580u /* ▀ */
#define GLYPH_LOWER 0x2584u /* ▄ */
#define GLYPH_FULL 0x2588u  /* █ */

struct cell {
    uint32_t ch;
    rgb_t fg, bg;
};

struct cells {
    int cols, rows;
    struct cell *c;
};

/* How a cell shows pixels: half-blocks (1 x 2 a cell), quadrants (2 x 2),
 * sextants (2 x 3), or an ASCII ramp of brightness (1 x 2, averaged). */
enum glyph_set { GLYPHS_HALF, GLYPHS_QUAD, GLYPHS_SEXTANT, GLYPHS_ASCII };

/* The canvas is drawn at this many image pixels a canvas pixel (a canvas
 * pixel is half a cell, as for half-blocks): 2 for quadrants and sextants,
 * whose blit takes a cell's 2 x 4 image pixels. */
static inline int cells_scale(enum glyph_set g)
{
    return g == GLYPHS_QUAD || g == GLYPHS_SEXTANT ? 2 : 1;
}
const char *cells_glyphs_name(enum glyph_set g);

void cells_init(struct cells *s, int cols, int rows);
void cells_free(struct cells *s);
void cells_resize(struct cells *s, int cols, int rows);
static inline struct cell *cells_at(struct cells *s, int col, int row)
{
    return &s->c[(size_t)row * (size_t)s->cols + (size_t)col];
}
static inline bool cells_same(const struct cell *a, const struct cell *b)
{
    return a->ch == b->ch && a->fg == b->fg && a->bg == b->bg;
}
/* How many frames running a cell has been the same (the encoder's cells asked
 * for, the frame's still parts): *still counts them (0: none yet, or `fresh`,
 * the count starting again), *was keeps the last cell to compare with. */
static inline void cells_count_still(unsigned char *still, struct cell *was,
                                     const struct cell *now, bool fresh)
{
    const bool same = !fresh && *still > 0 && cells_same(was, now);
    *still = same ? (unsigned char)(*still < 255 ? *still + 1 : 255) : 1;
    *was = *now;
}
/* Fills a row range with spaces of background bg. */
void cells_clear(struct cells *s, int row0, int row1, rgb_t bg);
/* Writes ASCII text at (col,row), clipped; returns the column after it. */
int cells_text(struct cells *s, int col, int row, const char *text, rgb_t fg, rgb_t bg);
/* Text over whatever is there: keeps each cell's colours as a background (the
 * mean of its two pixels) and blends fg in with weight alpha. */
int cells_text_over(struct cells *s, int col, int row, const char *text, rgb_t fg,
                    float alpha);

/*
 * The blit: an image cells_scale(glyphs) times the canvas becomes the cells,
 * each cell row from 2 cells_scale image rows, for as many rows as both have.
 * Quadrants and sextants: each cell's 2 x 4 image pixels, averaged to the
 * glyphs' 2 x 2 or 2 x 3, fitted (fit.h); in mono each of those pixels inked
 * or not. Half-blocks: image rows 2r and 2r+1 become cell row r. Half-blocks: ▀ with fg = upper, bg = lower, a space when both
 * halves are equal; in mono, each half is inked or not (palette_ink: a dark
 * background stays blank), giving ' ' or ▀, in reverse video (bg
 * COLOR_REVERSE) where the lower half is inked: no █ or ▄, whose outline
 * glyphs fall short of the cell's bottom (a dark line between rows). ASCII: a luminance ramp glyph
 * with the pair's colour as fg. Colours are mapped to what `mode` can show
 * (palette_dither: flat where the nearest colour is close, an ordered mix where
 * it is visibly off).
 */
void cells_blit(const struct image *im, struct cells *s, enum color_mode mode,
                enum glyph_set glyphs);
/*
 * A coarser picture (what a slow link or terminal gets): the cells in blocks
 * of w x h cells on a grid fixed to the screen's top left, each block one
 * colour, the median of its pixels, channel by channel (a space; with
 * `halves` and h 1, a ▀ whose halves are the medians of the block's upper and
 * lower pixels), mapped to
 * `mode` as the blit maps pixels (a dither pattern on the blocks' grid). The
 * image is `scale` image pixels a canvas pixel (cells_scale). Rows [row0,
 * row1) alone, each cell a function of its block's pixels: bands give what
 * the whole gives.
 */
struct cells_block {
    int w, h;
    bool halves;
};
/* Is a picture in blocks b coarser than the cells (halves of 1 x 1: the cells)? */
static inline bool cells_blocky(const struct cells_block *b)
{
    return b->w > 0 && b->h > 0 && (b->w > 1 || b->h > 1 || !b->halves);
}
struct pool;
/* The blit (cells_blit; blk not NULL: blocks, as above) in bands of cell
 * rows on the pool's threads: each cell is a function of its own pixels (its
 * block's) and place, so the bands give what one blit gives. */
void cells_blit_on(struct pool *pool, const struct image *im, struct cells *s,
                   enum color_mode mode, enum glyph_set glyphs, int scale,
                   const struct cells_block *blk);

#endif
