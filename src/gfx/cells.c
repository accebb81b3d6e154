/*
 * cells.c — the cell grid, text on it, and the blit from pixels to cells
 * (see cells.h).
 *
 * Half-blocks take each pixel's colour (or, in mono, whether it is inked) from
 * palette.c, which decides flat colours and ordered patterns. Luminance for the
 * ASCII ramp is Rec. 601 luma on the sRGB values (cheap, and what a person sees
 * as "brighter" closely enough for glyph choice).
 */
#include "cells.h"
#include "buf.h"
#include "fit.h"
#include "pool.h"

#include <math.h>
#include <stdlib.h>

static const char ascii_ramp[] = " .:-=+*#%@";
#define ASCII_BLACK 28 /* luma at or below this is blank in the ASCII ramp */

void cells_init(struct cells *s, int cols, int rows)
{
    s->cols = s->rows = 0;
    s->c = NULL;
    cells_resize(s, cols, rows);
}

void cells_free(struct cells *s)
{
    free(s->c);
    s->c = NULL;
    s->cols = s->rows = 0;
}

void cells_resize(struct cells *s, int cols, int rows)
{
    if (cols < 1)
        cols = 1;
    if (rows < 1)
        rows = 1;
    if (cols == s->cols && rows == s->rows && s->c)
        return;
    s->c = buf_xrealloc(s->c, (size_t)cols * (size_t)rows * sizeof *s->c);
    s->cols = cols;
    s->rows = rows;
    cells_clear(s, 0, rows, COLOR_DEFAULT);
}

void cells_clear(struct cells *s, int row0, int row1, rgb_t bg)
{
    for (int r = clampi(row0, 0, s->rows); r < clampi(row1, 0, s->rows); r++)
        for (int c = 0; c < s->cols; c++)
            *cells_at(s, c, r) = (struct cell){' ', COLOR_DEFAULT, bg};
}

int cells_text(struct cells *s, int col, int row, const char *text, rgb_t fg, rgb_t bg)
{
    if (row < 0 || row >= s->rows)
        return col;
    for (; *text; text++, col++) {
        if (col < 0 || col >= s->cols)
            continue;
        unsigned char ch = (unsigned char)*text;
        *cells_at(s, col, row) = (struct cell){ch >= 32 && ch < 127 ? ch : '?', fg, bg};
    }
    return col;
}

static int luma(rgb_t c)
{
    return (299 * rgb_r(c) + 587 * rgb_g(c) + 114 * rgb_b(c)) / 1000;
}

const char *cells_glyphs_name(enum glyph_set g)
{
    static const char *const names[] = {"half", "quad", "sextant", "ascii"};
    return g >= GLYPHS_HALF && g <= GLYPHS_ASCII ? names[g] : "?";
}

/* The colour a cell shows on average (for text laid over the picture). */
static rgb_t cell_mean(const struct cell *c)
{
    rgb_t bg = c->bg & COLOR_DEFAULT ? 0 : c->bg;
    if (!fit_is_picture(c->ch) || (c->fg & COLOR_DEFAULT))
        return bg;
    return rgb_mix(c->fg, bg, 1.0f - fit_coverage(c->ch));
}

int cells_text_over(struct cells *s, int col, int row, const char *text, rgb_t fg,
                    float alpha)
{
    if (row < 0 || row >= s->rows)
        return col;
    for (; *text; text++, col++) {
        if (col < 0 || col >= s->cols)
            continue;
        struct cell *c = cells_at(s, col, row);
        rgb_t under = cell_mean(c);
        /* Darken under text a little so it stays readable over bright dye. */
        rgb_t bg = rgb_mix(under, 0, 0.55f * alpha);
        unsigned char ch = (unsigned char)*text;
        *c = (struct cell){ch >= 32 && ch < 127 ? ch : '?', rgb_mix(bg, fg, alpha), bg};
    }
    return col;
}

static void blit_half(const struct image *im, struct cells *s, enum color_mode mode,
                      int row0, int rows)
{
    for (int r = row0; r < rows; r++) {
        const rgb_t *up = im->px + (size_t)(2 * r) * (size_t)im->w;
        const rgb_t *lo = up + im->w;
        struct cell *out = cells_at(s, 0, r);
        for (int x = 0; x < s->cols; x++) {
            if (x >= im->w) {
                out[x] = (struct cell){' ', COLOR_DEFAULT, COLOR_DEFAULT};
                continue;
            }
            if (mode == COLOR_MONO) {
                /* ▀ or a space, in reverse video where the lower half is
                 * inked: never █ or ▄, which fall short of the cell's bottom
                 * in outline fonts and leave a dark line between rows. */
                bool a = palette_ink(up[x], x, 2 * r);
                bool b = palette_ink(lo[x], x, 2 * r + 1);
                out[x] = (struct cell){a == b ? ' ' : GLYPH_UPPER, COLOR_DEFAULT,
                                       b ? COLOR_REVERSE : COLOR_DEFAULT};
                continue;
            }
            rgb_t fg = palette_dither(mode, up[x], x, 2 * r);
            rgb_t bg = palette_dither(mode, lo[x], x, 2 * r + 1);
            out[x] = fg == bg ? (struct cell){' ', COLOR_DEFAULT, bg}
                              : (struct cell){GLYPH_UPPER, fg, bg};
        }
    }
}

/* The ASCII cell of colour m at cell (x, r): a ramp glyph by brightness
 * (dithered on the cells' grid), its colour the hue. */
static struct cell ascii_cell(enum color_mode mode, rgb_t m, int x, int r)
{
    const int nramp = (int)sizeof ascii_ramp - 1;
    /* Brightness for glyph density: luma alone makes saturated blues and
     * reds (water, dye) nearly vanish, so average it with the value. */
    int mx = rgb_r(m) > rgb_g(m) ? rgb_r(m) : rgb_g(m);
    mx = mx > rgb_b(m) ? mx : rgb_b(m);
    int l = (luma(m) + mx) / 2;
    /* Dither between neighbouring ramp glyphs so gradients keep steps;
     * the darkest shades (a scene's background) stay blank. */
    float v = (float)(l - ASCII_BLACK) / (float)(256 - ASCII_BLACK) * (float)(nramp - 1);
    if (v > 0.0f)
        v += palette_bayer(x, r) - 0.5f;
    int gi = clampi((int)lrintf(v), 0, nramp - 1);
    rgb_t fg = COLOR_DEFAULT;
    if (mode != COLOR_MONO && gi > 0) {
        /* The glyph carries the brightness; the colour carries the hue. */
        fg = palette_nearest(mode, rgb_scale(m, mx > 0 ? 255.0f / (float)mx : 0));
    }
    return (struct cell){(uint32_t)ascii_ramp[gi], fg, COLOR_DEFAULT};
}

static void blit_ascii(const struct image *im, struct cells *s, enum color_mode mode,
                       int row0, int rows)
{
    for (int r = row0; r < rows; r++) {
        struct cell *out = cells_at(s, 0, r);
        for (int x = 0; x < s->cols; x++)
            out[x] = x >= im->w ? (struct cell){' ', COLOR_DEFAULT, COLOR_DEFAULT}
                                : ascii_cell(mode, rgb_mix(image_get(im, x, 2 * r),
                                                           image_get(im, x, 2 * r + 1), 0.5f),
                                             x, r);
    }
}

/* Quadrants or sextants (n glyph pixels a cell), fitted; the two colours
 * mapped to the mode as the half-blocks' are. Mono: each glyph pixel inked or
 * not, in reverse video where the glyph must be the complement's. */
static void blit_fit(const struct image *im, struct cells *s, enum color_mode mode, int row0,
                     int rows, int n)
{
    const int cols = im->w / 2 < s->cols ? im->w / 2 : s->cols;
    for (int r = row0; r < rows; r++) {
        struct cell *out = cells_at(s, 0, r);
        for (int x = cols; x < s->cols; x++)
            out[x] = (struct cell){' ', COLOR_DEFAULT, COLOR_DEFAULT};
        for (int x = 0; x < cols; x++) {
            rgb_t smp[FIT_SAMPLES];
            for (int i = 0; i < FIT_SAMPLES; i++)
                smp[i] = image_get(im, 2 * x + i % 2, FIT_SAMPLE_ROWS * r + i / 2);
            if (mode == COLOR_MONO) {
                rgb_t px[FIT_SEXTANT];
                fit_pixels(smp, n, px);
                const int prow = n == FIT_QUAD ? 2 : 3;
                unsigned mask = 0;
                for (int i = 0; i < n; i++)
                    mask |= (unsigned)palette_ink(px[i], 2 * x + i % 2, prow * r + i / 2) << i;
                bool swap;
                const uint32_t ch = fit_glyph(mask, n, &swap);
                out[x] = (struct cell){ch, COLOR_DEFAULT, swap ? COLOR_REVERSE : COLOR_DEFAULT};
                continue;
            }
            const struct fit f = fit_cell(smp, n);
            const rgb_t bg = palette_dither(mode, f.bg, x, 2 * r + 1);
            const rgb_t fg = f.ch == ' ' ? bg : palette_dither(mode, f.fg, x, 2 * r);
            out[x] = fg == bg ? (struct cell){' ', COLOR_DEFAULT, bg}
                              : (struct cell){f.ch, fg, bg};
        }
    }
}

/* The k-th smallest of v[0..n) (v reordered: those before k are no larger). */
static int kth_of(unsigned char *v, int n, int k)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        const unsigned char p = v[lo + (hi - lo) / 2];
        int i = lo, j = hi;
        while (i <= j) {
            while (v[i] < p)
                i++;
            while (v[j] > p)
                j--;
            if (i <= j) {
                const unsigned char t = v[i];
                v[i++] = v[j], v[j--] = t;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return v[k];
    }
    return v[k];
}

/* The median of v[0..n), n > 0 (of an even n, the mean of the middle two). */
static int median_of(unsigned char *v, int n)
{
    const int hi = kth_of(v, n, n / 2);
    if (n % 2)
        return hi;
    int lo = v[0];
    for (int i = 1; i < n / 2; i++)
        lo = v[i] > lo ? v[i] : lo;
    return (lo + hi + 1) / 2;
}

#define BLOCK_MAX_PIXELS 1024 /* a block's pixels, at most (8x4 sextants: 576) */

/* The colour of image pixels [x0,x1) x [y0,y1) (clipped to the image;
 * COLOR_DEFAULT where none is left): each channel's median, so a block across
 * an edge takes the side most of it is on, not a blur of both (a third less
 * error against the exact picture at 6x3 on the water, and neighbours of the
 * same colour more often the same, which costs no bytes). */
static rgb_t colour_of(const struct image *im, int x0, int x1, int y0, int y1)
{
    unsigned char r[BLOCK_MAX_PIXELS], g[BLOCK_MAX_PIXELS], b[BLOCK_MAX_PIXELS];
    x1 = x1 < im->w ? x1 : im->w;
    y1 = y1 < im->h ? y1 : im->h;
    int n = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1 && n < BLOCK_MAX_PIXELS; x++) {
            const rgb_t c = image_get(im, x, y);
            r[n] = (unsigned char)rgb_r(c), g[n] = (unsigned char)rgb_g(c);
            b[n++] = (unsigned char)rgb_b(c);
        }
    if (!n)
        return COLOR_DEFAULT;
    return RGB(median_of(r, n), median_of(g, n), median_of(b, n));
}

static void blit_blocks(const struct image *im, struct cells *s, enum color_mode mode,
                        enum glyph_set glyphs, int scale, struct cells_block blk, int row0,
                        int row1)
{
    const int bw = blk.w > 0 ? blk.w : 1, bh = blk.h > 0 ? blk.h : 1;
    const bool ascii = glyphs == GLYPHS_ASCII, halves = blk.halves && bh == 1 && !ascii;
    const int per_row = 2 * scale, rows = im->h / per_row < s->rows ? im->h / per_row : s->rows;
    row0 = row0 < 0 ? 0 : row0;
    row1 = row1 < rows ? row1 : rows;
    for (int r = row0; r < row1; r++) {
        const int br = r / bh, y0 = br * bh * per_row, y1 = (br + 1) * bh * per_row;
        struct cell *out = cells_at(s, 0, r);
        for (int c0 = 0; c0 < s->cols; c0 += bw) {
            const int x0 = c0 * scale, x1 = (c0 + bw) * scale, bc = c0 / bw;
            struct cell cl;
            if (halves) {
                rgb_t up = colour_of(im, x0, x1, y0, y0 + scale);
                rgb_t lo = colour_of(im, x0, x1, y0 + scale, y1);
                if (mode == COLOR_MONO) {
                    bool a = palette_ink(up, bc, 2 * br), b = palette_ink(lo, bc, 2 * br + 1);
                    cl = (struct cell){a == b ? ' ' : GLYPH_UPPER, COLOR_DEFAULT,
                                       b ? COLOR_REVERSE : COLOR_DEFAULT};
                } else {
                    rgb_t fg = up & COLOR_DEFAULT ? up : palette_dither(mode, up, bc, 2 * br);
                    rgb_t bg = lo & COLOR_DEFAULT ? lo : palette_dither(mode, lo, bc, 2 * br + 1);
                    cl = fg == bg ? (struct cell){' ', COLOR_DEFAULT, bg}
                                  : (struct cell){GLYPH_UPPER, fg, bg};
                }
            } else if (ascii) { /* the block as ASCII draws its colour */
                rgb_t m = colour_of(im, x0, x1, y0, y1);
                cl = m & COLOR_DEFAULT ? (struct cell){' ', COLOR_DEFAULT, COLOR_DEFAULT}
                                       : ascii_cell(mode, m, bc, br);
            } else {
                rgb_t m = colour_of(im, x0, x1, y0, y1);
                if (mode == COLOR_MONO)
                    cl = (struct cell){' ', COLOR_DEFAULT,
                                       !(m & COLOR_DEFAULT) && palette_ink(m, bc, br)
                                           ? COLOR_REVERSE : COLOR_DEFAULT};
                else
                    cl = (struct cell){' ', COLOR_DEFAULT,
                                       m & COLOR_DEFAULT ? m : palette_dither(mode, m, bc, br)};
            }
            for (int c = c0; c < c0 + bw && c < s->cols; c++)
                out[c] = cl;
        }
    }
}

static int blit_rows(const struct image *im, const struct cells *s, enum glyph_set glyphs)
{
    const int per_row = 2 * cells_scale(glyphs);
    return im->h / per_row < s->rows ? im->h / per_row : s->rows;
}

/* The blit of cell rows [row0, row1) alone: each cell is a function of its own
 * pixels and place, so bands blitted apart (on threads) give the cells the
 * whole blit gives. */
static void blit_band(const struct image *im, struct cells *s, enum color_mode mode,
                      enum glyph_set glyphs, int row0, int row1)
{
    row0 = row0 < 0 ? 0 : row0;
    const int rows = blit_rows(im, s, glyphs), end = row1 < rows ? row1 : rows;
    if (glyphs == GLYPHS_ASCII)
        blit_ascii(im, s, mode, row0, end);
    else if (glyphs == GLYPHS_QUAD || glyphs == GLYPHS_SEXTANT)
        blit_fit(im, s, mode, row0, end, glyphs == GLYPHS_QUAD ? FIT_QUAD : FIT_SEXTANT);
    else
        blit_half(im, s, mode, row0, end);
}

void cells_blit(const struct image *im, struct cells *s, enum color_mode mode,
                enum glyph_set glyphs)
{
    blit_band(im, s, mode, glyphs, 0, s->rows);
}

/* The blit's bands of cell rows, on the pool's threads when it has more than
 * one. */
#define BLIT_BANDS 16

struct blit_job {
    const struct image *im;
    struct cells *s;
    enum color_mode mode;
    enum glyph_set glyphs;
    int scale;
    const struct cells_block *blk;
    int rows;
};

static void blit_part(void *arg, int part, int nparts)
{
    const struct blit_job *j = arg;
    int r0, r1;
    pool_span(j->rows, part, nparts, &r0, &r1);
    if (j->blk)
        blit_blocks(j->im, j->s, j->mode, j->glyphs, j->scale, *j->blk, r0, r1);
    else
        blit_band(j->im, j->s, j->mode, j->glyphs, r0, r1);
}

void cells_blit_on(struct pool *pool, const struct image *im, struct cells *s,
                   enum color_mode mode, enum glyph_set glyphs, int scale,
                   const struct cells_block *blk)
{
    struct blit_job j = {im, s, mode, glyphs, scale, blk, blit_rows(im, s, glyphs)};
    pool_run(pool, blit_part, &j, pool_threads(pool) > 1 ? BLIT_BANDS : 1);
}
