/*
 * quant.c — palettes for indexed pictures (see quant.h): the fixed cube with
 * ordered dithering, and the image's own by median cut.
 *
 * Median cut works on the histogram's bins in use, not on the pixels: the
 * bins' numbers in one array, each box a slice of it, a split a counting
 * sort of the slice by the 5-bit coordinate of its longest side, cut where
 * half its pixels are on each side. The histogram is cleared bin by bin
 * after use (only the bins in use), so a frame costs its pixels and its
 * bins, never the whole table.
 */
#include "quant.h"
#include "buf.h"
#include "palette.h"

#include <stdlib.h>
#include <string.h>

struct box {
    int lo, hi;        /* its bins: q->bins[lo..hi) */
    uint32_t count;    /* pixels */
    int axis, extent;  /* its longest side (0 r, 1 g, 2 b) and its length, in bins */
};

void quant_init(struct quant *q, enum quant_kind kind, int colours)
{
    memset(q, 0, sizeof *q);
    q->kind = kind;
    q->colours = clampi(colours, 2, QUANT_MAX);
    q->levels = 2;
    q->refine = QUANT_REFINE;
    while ((q->levels + 1) * (q->levels + 1) * (q->levels + 1) <= q->colours)
        q->levels++;
    if (kind == QUANT_MEDIAN) {
        q->hist = buf_xrealloc(NULL, (size_t)QUANT_BINS * 4 * sizeof *q->hist);
        memset(q->hist, 0, (size_t)QUANT_BINS * 4 * sizeof *q->hist);
        q->bins = buf_xrealloc(NULL, 2 * (size_t)QUANT_BINS * sizeof *q->bins);
        q->lut = buf_xrealloc(NULL, QUANT_BINS);
        q->boxes = buf_xrealloc(NULL, QUANT_MAX * sizeof(struct box));
        q->stamp = buf_xrealloc(NULL, QUANT_BINS * sizeof *q->stamp);
        memset(q->stamp, 0, QUANT_BINS * sizeof *q->stamp);
        q->near = buf_xrealloc(NULL, QUANT_BINS);
        q->dither = true;
    }
}

void quant_free(struct quant *q)
{
    free(q->hist);
    free(q->bins);
    free(q->lut);
    free(q->boxes);
    free(q->stamp);
    free(q->near);
    q->boxes = NULL;
    q->stamp = NULL;
    q->near = NULL;
    q->hist = NULL;
    q->bins = NULL;
    q->lut = NULL;
}

/* ---- the cube --------------------------------------------------------- */

/* The level (0..L-1) a channel v takes where the threshold is thr (0..254). */
static inline int cube_level(int v, int steps, int thr)
{
    const int t = v * steps; /* steps = L - 1 */
    return t / 255 + (t % 255 > thr);
}

static void cube_image(struct quant *q, const struct image *im, uint8_t *idx)
{
    const int L = q->levels, steps = L - 1;
    q->n = L * L * L;
    for (int i = 0; i < q->n; i++)
        q->pal[i] = RGB((i / (L * L)) * 255 / steps, (i / L % L) * 255 / steps,
                        (i % L) * 255 / steps);
    int thr[4][4];
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++)
            thr[y][x] = (int)(palette_bayer(x, y) * 255.0f);
    for (int y = 0; y < im->h; y++) {
        const rgb_t *row = im->px + (size_t)y * (size_t)im->w;
        uint8_t *o = idx + (size_t)y * (size_t)im->w;
        const int *t = thr[y & 3];
        for (int x = 0; x < im->w; x++) {
            const rgb_t c = row[x];
            const int th = t[x & 3];
            o[x] = (uint8_t)((cube_level(rgb_r(c), steps, th) * L +
                              cube_level(rgb_g(c), steps, th)) * L +
                             cube_level(rgb_b(c), steps, th));
        }
    }
}

/* ---- median cut ------------------------------------------------------- */

static inline unsigned bin_of(rgb_t c)
{
    return (unsigned)(rgb_r(c) >> 3) << 10 | (unsigned)(rgb_g(c) >> 3) << 5 |
           (unsigned)(rgb_b(c) >> 3);
}

static inline int bin_axis(unsigned bin, int axis) { return (int)(bin >> (10 - 5 * axis)) & 31; }


static void box_measure(const struct quant *q, struct box *b)
{
    int lo[3] = {31, 31, 31}, hi[3] = {0, 0, 0};
    b->count = 0;
    for (int i = b->lo; i < b->hi; i++) {
        const unsigned bin = q->bins[i];
        b->count += q->hist[4 * bin];
        for (int a = 0; a < 3; a++) {
            const int v = bin_axis(bin, a);
            lo[a] = v < lo[a] ? v : lo[a];
            hi[a] = v > hi[a] ? v : hi[a];
        }
    }
    b->axis = 0;
    for (int a = 1; a < 3; a++)
        if (hi[a] - lo[a] > hi[b->axis] - lo[b->axis])
            b->axis = a;
    b->extent = hi[b->axis] - lo[b->axis];
}

/* Splits b in two at the median of its longest side: b keeps the low
 * half, *nb gets the high one. */
static void box_split(struct quant *q, struct box *b, struct box *nb)
{
    uint16_t *tmp = q->bins + QUANT_BINS; /* the second half: scratch */
    int start[33] = {0};
    for (int i = b->lo; i < b->hi; i++)
        start[bin_axis(q->bins[i], b->axis) + 1]++;
    for (int v = 0; v < 32; v++)
        start[v + 1] += start[v];
    for (int i = b->lo; i < b->hi; i++)
        tmp[start[bin_axis(q->bins[i], b->axis)]++] = q->bins[i];
    const int n = b->hi - b->lo;
    memcpy(q->bins + b->lo, tmp, (size_t)n * sizeof *tmp);
    uint32_t below = 0;
    int cut = b->lo;
    while (cut < b->hi - 1 && 2 * (below + q->hist[4 * q->bins[cut]]) <= b->count)
        below += q->hist[4 * q->bins[cut++]];
    if (cut == b->lo)
        cut++;
    *nb = (struct box){cut, b->hi, 0, 0, 0};
    b->hi = cut;
    box_measure(q, b);
    box_measure(q, nb);
}

static double box_weight(const struct box *b)
{
    return b->hi - b->lo < 2 ? -1.0 : (double)b->count * b->extent * b->extent;
}

/* The histogram's bins in use into q->bins; returns their count. */
static int count_bins(struct quant *q, const struct image *im)
{
    int used = 0;
    const size_t n = (size_t)im->w * (size_t)im->h;
    for (size_t i = 0; i < n; i++) {
        const rgb_t c = im->px[i];
        uint32_t *h = q->hist + 4 * bin_of(c);
        if (h[0]++ == 0)
            q->bins[used++] = (uint16_t)bin_of(c);
        h[1] += (uint32_t)rgb_r(c), h[2] += (uint32_t)rgb_g(c), h[3] += (uint32_t)rgb_b(c);
    }
    return used;
}

/* The palette from the boxes: each the mean of its pixels; each bin's
 * index its box's. */
static void box_palette(struct quant *q, const struct box *boxes, int nb)
{
    q->n = nb;
    for (int k = 0; k < nb; k++) {
        uint64_t s[4] = {0, 0, 0, 0};
        for (int i = boxes[k].lo; i < boxes[k].hi; i++) {
            const uint32_t *h = q->hist + 4 * q->bins[i];
            for (int c = 0; c < 4; c++)
                s[c] += h[c];
            q->lut[q->bins[i]] = (uint8_t)k;
        }
        const uint64_t half = s[0] / 2, cnt = s[0] ? s[0] : 1;
        q->pal[k] = RGB((s[1] + half) / cnt, (s[2] + half) / cnt, (s[3] + half) / cnt);
    }
}

/* The palette colour nearest c (squared RGB distance). */
static int nearest(const struct quant *q, int r, int g, int b)
{
    int best = 0, bd = 1 << 30;
    for (int k = 0; k < q->n; k++) {
        const rgb_t p = q->pal[k];
        const int dr = rgb_r(p) - r, dg = rgb_g(p) - g, db = rgb_b(p) - b;
        const int d = dr * dr + dg * dg + db * db;
        if (d < bd)
            bd = d, best = k;
    }
    return best;
}

/* A step of Lloyd's (k-means) over the bins: each bin to its nearest colour
 * (by the mean of its pixels), each colour the mean of its bins' pixels.
 * The bins are left with their nearest colour of the palette it gives. */
static void lloyd_step(struct quant *q, int used)
{
    uint64_t s[QUANT_MAX][4];
    memset(s, 0, sizeof s);
    for (int i = 0; i < used; i++) {
        const uint32_t *h = q->hist + 4 * q->bins[i];
        const int k = nearest(q, (int)(h[1] / h[0]), (int)(h[2] / h[0]), (int)(h[3] / h[0]));
        for (int c = 0; c < 4; c++)
            s[k][c] += h[c];
    }
    for (int k = 0; k < q->n; k++)
        if (s[k][0]) {
            const uint64_t half = s[k][0] / 2;
            q->pal[k] = RGB((s[k][1] + half) / s[k][0], (s[k][2] + half) / s[k][0],
                            (s[k][3] + half) / s[k][0]);
        }
    for (int i = 0; i < used; i++) {
        uint32_t *h = q->hist + 4 * q->bins[i];
        q->lut[q->bins[i]] = (uint8_t)nearest(q, (int)(h[1] / h[0]), (int)(h[2] / h[0]),
                                              (int)(h[3] / h[0]));
    }
}

/* The palette's nearest to the centre of bin b, kept for the frame. */
static int bin_nearest(struct quant *q, unsigned b)
{
    if (q->stamp[b] != q->frame) {
        q->stamp[b] = q->frame;
        q->near[b] = (uint8_t)nearest(q, (int)(b >> 10) * 8 + 4, (int)(b >> 5 & 31) * 8 + 4,
                                      (int)(b & 31) * 8 + 4);
    }
    return q->near[b];
}

static inline int clamp255(int v) { return v < 0 ? 0 : v > 255 ? 255 : v; }

/* Each pixel its bin's colour c1 where that is near it (kept: flat areas
 * stay flat, at no cost); else, between c1 and the colour c2 on the far side of the pixel
 * (the palette's nearest to the pixel moved as far again from c1), c2 where
 * the pixel's place along c1 -> c2 is past an ordered threshold
 * (palette_bayer's): a pattern of the two in the share of its place
 * between them, not a band where it changes from one to the other. */
static void dither_image(struct quant *q, const struct image *im, uint8_t *idx)
{
    float thr[4][4];
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++)
            thr[y][x] = palette_bayer(x, y);
    if (++q->frame == 0) { /* the stamps wrapped: none is this frame's */
        memset(q->stamp, 0, QUANT_BINS * sizeof *q->stamp);
        q->frame = 1;
    }
    for (int y = 0; y < im->h; y++) {
        const rgb_t *row = im->px + (size_t)y * (size_t)im->w;
        uint8_t *o = idx + (size_t)y * (size_t)im->w;
        for (int x = 0; x < im->w; x++) {
            const rgb_t c = row[x];
            const int i1 = q->lut[bin_of(c)];
            const rgb_t c1 = q->pal[i1];
            const int er = rgb_r(c) - rgb_r(c1), eg = rgb_g(c) - rgb_g(c1);
            const int eb = rgb_b(c) - rgb_b(c1);
            o[x] = (uint8_t)i1;
            if (er * er + eg * eg + eb * eb <= QUANT_FLAT * QUANT_FLAT)
                continue;
            const int i2 = bin_nearest(q, bin_of(RGB(clamp255(rgb_r(c) + er),
                                                     clamp255(rgb_g(c) + eg),
                                                     clamp255(rgb_b(c) + eb))));
            const rgb_t c2 = q->pal[i2];
            const int dr = rgb_r(c2) - rgb_r(c1), dg = rgb_g(c2) - rgb_g(c1);
            const int db = rgb_b(c2) - rgb_b(c1), len2 = dr * dr + dg * dg + db * db;
            if (len2 > 0 && (float)(er * dr + eg * dg + eb * db) > thr[y & 3][x & 3] * (float)len2)
                o[x] = (uint8_t)i2;
        }
    }
}

static void median_image(struct quant *q, const struct image *im, uint8_t *idx)
{
    struct box *boxes = q->boxes;
    const int used = count_bins(q, im);
    int nb = 1;
    boxes[0] = (struct box){0, used, 0, 0, 0};
    box_measure(q, &boxes[0]);
    while (nb < q->colours) {
        int best = 0;
        for (int i = 1; i < nb; i++)
            if (box_weight(&boxes[i]) > box_weight(&boxes[best]))
                best = i;
        if (box_weight(&boxes[best]) < 0.0)
            break; /* every box one bin */
        box_split(q, &boxes[best], &boxes[nb++]);
    }
    box_palette(q, boxes, nb);
    for (int r = 0; r < q->refine && used > nb; r++)
        lloyd_step(q, used);
    for (int i = 0; i < used; i++)
        memset(q->hist + 4 * q->bins[i], 0, 4 * sizeof *q->hist);
    if (q->dither)
        dither_image(q, im, idx);
    else
        for (size_t i = 0; i < (size_t)im->w * (size_t)im->h; i++)
            idx[i] = q->lut[bin_of(im->px[i])];
}

void quant_image(struct quant *q, const struct image *im, uint8_t *idx)
{
    if (q->kind == QUANT_CUBE)
        cube_image(q, im, idx);
    else
        median_image(q, im, idx);
}
