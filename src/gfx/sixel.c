/*
 * sixel.c — frames in sixel (see sixel.h).
 *
 * A band is built once: for each of its image columns, the six (or 6 /
 * scale) pixels' palette indices set a bit in that colour's row of sixels,
 * and each colour's first and last column are kept. Each colour is then
 * written from its first column to its last, the columns before the first
 * skipped with blank sixels ('?', one run), and its row cleared behind it,
 * so a band costs its pixels and the spans of its colours.
 */
#include "sixel.h"

#include <stdlib.h>
#include <string.h>

void sixel_init(struct sixel *s, enum quant_kind palette, int colours)
{
    memset(s, 0, sizeof *s);
    quant_init(&s->q, palette, colours);
    s->scale = 1;
    for (int c = 0; c < QUANT_MAX; c++)
        s->first[c] = -1;
}

void sixel_free(struct sixel *s)
{
    quant_free(&s->q);
    free(s->idx);
    free(s->bits);
    image_free(&s->sent);
    s->idx = s->bits = NULL;
    s->idx_cap = s->bits_cap = 0;
}

/* A run of n sixels of value v (0..63). */
static void put_run(struct buf *out, int n, int v)
{
    const char ch = (char)('?' + v);
    if (n > 3) {
        buf_putc(out, '!');
        buf_putu(out, (unsigned)n);
        buf_putc(out, ch);
    } else {
        for (int i = 0; i < n; i++)
            buf_putc(out, ch);
    }
}

/* The palette, each channel a percentage (0..100, rounded). */
static void put_palette(const struct quant *q, struct buf *out)
{
    for (int i = 0; i < q->n; i++) {
        const rgb_t c = q->pal[i];
        buf_putc(out, '#');
        buf_putu(out, (unsigned)i);
        buf_puts(out, ";2;");
        buf_putu(out, (unsigned)((rgb_r(c) * 200 + 255) / 510));
        buf_putc(out, ';');
        buf_putu(out, (unsigned)((rgb_g(c) * 200 + 255) / 510));
        buf_putc(out, ';');
        buf_putu(out, (unsigned)((rgb_b(c) * 200 + 255) / 510));
    }
}

/* Sets the sixel bits of the band of terminal rows [y0, y0 + 6) of an image
 * w wide and h tall (in image pixels), drawn over H terminal rows; returns
 * the number of colours in it (s->order). */
static int band_bits(struct sixel *s, int w, int h, int H, int y0)
{
    int ncol = 0;
    for (int r = 0; r < 6 && y0 + r < H; r++) {
        const int iy = (int)((long long)(y0 + r) * h / H);
        const uint8_t *row = s->idx + (size_t)iy * (size_t)w;
        const uint8_t *holes = s->holes ? s->holes + (size_t)((long long)(y0 + r) * s->hole_rows / H) *
                                                         (size_t)s->hole_cols
                                        : NULL;
        for (int x = 0; x < w; x++) {
            if (holes && holes[(long long)x * s->hole_cols / w])
                continue; /* a cell of text: not drawn */
            const int c = row[x];
            s->bits[(size_t)c * (size_t)w + (size_t)x] |= (uint8_t)(1u << r);
            if (s->first[c] < 0) {
                s->first[c] = x;
                s->order[ncol++] = (uint8_t)c;
            } else if (x < s->first[c]) {
                s->first[c] = x;
            }
            if (x > s->last[c])
                s->last[c] = x;
        }
    }
    return ncol;
}

/* The terminal columns image columns [a, b) of w span over W: those X whose
 * image column X * w / W is among them (as a row: y * h / H). */
static long long first_column(int a, int w, int W) { return ((long long)a * W + w - 1) / w; }
static int span(int a, int b, int w, int W)
{
    return (int)(first_column(b, w, W) - first_column(a, w, W));
}

/* Writes colour c's sixels in the band (w image columns over W) and clears its row. */
static void put_colour(struct sixel *s, int c, int w, int W, struct buf *out)
{
    uint8_t *bits = s->bits + (size_t)c * (size_t)w;
    const int x1 = s->last[c];
    buf_putc(out, '#');
    buf_putu(out, (unsigned)c);
    if (s->first[c] > 0)
        put_run(out, span(0, s->first[c], w, W), 0);
    for (int x = s->first[c]; x <= x1;) {
        const uint8_t v = bits[x];
        int n = 1;
        while (x + n <= x1 && bits[x + n] == v)
            n++;
        put_run(out, span(x, x + n, w, W), v);
        memset(bits + x, 0, (size_t)n);
        x += n;
    }
    s->first[c] = s->last[c] = -1;
}

static void grow(uint8_t **p, size_t *cap, size_t n)
{
    if (*cap < n) {
        *p = buf_xrealloc(*p, n);
        *cap = n;
    }
}

void sixel_invalidate(struct sixel *s) { s->sent_place[2] = 0; }

bool sixel_frame(struct sixel *s, const struct image *im, int col, int row, struct buf *out)
{
    const int w = im->w, h = im->h, k = s->scale < 1 ? 1 : s->scale;
    const int W = s->width > w * k ? s->width : w * k, H = s->height > h * k ? s->height : h * k;
    const int place[5] = {col, row, k, W, H};
    if (w < 1 || h < 1 || (!memcmp(place, s->sent_place, sizeof place) && image_same(im, &s->sent)))
        return false;
    image_copy(&s->sent, im);
    memcpy(s->sent_place, place, sizeof place);
    s->scale = k;
    grow(&s->idx, &s->idx_cap, (size_t)w * (size_t)h);
    if (s->bits_cap < (size_t)QUANT_MAX * (size_t)w) {
        grow(&s->bits, &s->bits_cap, (size_t)QUANT_MAX * (size_t)w);
        memset(s->bits, 0, s->bits_cap);
    }
    for (int c = 0; c < QUANT_MAX; c++)
        s->last[c] = -1;
    quant_image(&s->q, im, s->idx);
    buf_printf(out, "\x1b" "7\x1b[%d;%dH\x1bP0;1;0q\"1;1;%d;%d", row + 1, col + 1, W, H);
    put_palette(&s->q, out);
    for (int y0 = 0; y0 < H; y0 += 6) {
        const int ncol = band_bits(s, w, h, H, y0);
        for (int i = 0; i < ncol; i++) {
            put_colour(s, s->order[i], w, W, out);
            if (i + 1 < ncol)
                buf_putc(out, '$');
        }
        if (y0 + 6 < H)
            buf_putc(out, '-');
    }
    buf_puts(out, "\x1b\\\x1b" "8");
    return true;
}
