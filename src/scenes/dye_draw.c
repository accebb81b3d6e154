/*
 * dye_draw.c — the dye scene's picture: the dye's brightest channel through a
 * tone curve with a toe (faint smears sink into the dark background, dense dye
 * saturates without turning white), the channels keeping their ratios, and an
 * optional relief shading lit from the upper left.
 *
 * The image is w x h pixels, the dye grid f.dw x f.dh cells (the canvas, or
 * finer: see dye_scene.c); pixel (x,y)'s centre is at ((x + 0.5) f.dw / w,
 * (y + 0.5) f.dh / h) in cells. It is drawn row by row in bands of rows on
 * the scene's pool, each pixel a function of the dye alone, so the picture is
 * the same whatever the bands and the threads.
 */
#include "dye_scene.h"
#include "pool.h"

#include <math.h>
#include <stdlib.h>

#define EXPOSURE 1.0f       /* tone curve: (1 - exp(-EXPOSURE * dye))^TOE */
#define TOE 5.5f
#define TONE_TOP 16.0f      /* ... up to this much dye (beyond: as bright) */
#define SAT_MIN 0.8f        /* mixed colours are drawn at least this saturated */
#define SHADE 4.0f          /* relief: slope per unit of brightness per pixel */
static const rgb_t background = RGB(6, 6, 12);

/* The tone curve, tabulated: brightness 0 to 1 of dye whose brightest channel
 * is m, a toe at the dark end, saturating without a knee at the bright end. */
void dye_tone_init(struct dye *d)
{
    for (int i = 0; i <= TONE_STEPS; i++) {
        float m = (float)i * (TONE_TOP / (float)TONE_STEPS);
        d->tone[i] = powf(1.0f - expf(-EXPOSURE * m), TOE);
    }
}

static float tone(const struct dye *d, float m)
{
    float u = clampf(m, 0.0f, TONE_TOP) * ((float)TONE_STEPS / TONE_TOP);
    int i = (int)u;
    if (i >= TONE_STEPS)
        return d->tone[TONE_STEPS];
    return lerpf(d->tone[i], d->tone[i + 1], u - (float)i);
}

/*
 * Where each pixel takes its dye from, worked out once a frame for each
 * column and each row (a pixel is the pair): finer than the dye grid
 * (quadrants and sextants draw at twice the canvas), between the cells about
 * its centre, bilinear; a whole number of times coarser, the mean of the
 * cells it covers; else the cell under its centre.
 */
enum { DYE_UNDER, DYE_BETWEEN, DYE_OVER };

static void taps_between(struct dye_tap *tap, int n, int cells)
{
    for (int p = 0; p < n; p++) {
        const float u = ((float)p + 0.5f) * (float)cells / (float)n - 0.5f;
        const int i0 = clampi((int)floorf(u), 0, cells - 1);
        tap[p] = (struct dye_tap){i0, clampi(i0 + 1, 0, cells - 1),
                                  clampf(u - (float)i0, 0.0f, 1.0f)};
    }
}

static void taps_under(struct dye_tap *tap, int n, int cells)
{
    for (int p = 0; p < n; p++) {
        const int i = cells == n ? p : (int)(((float)p + 0.5f) * (float)cells / (float)n);
        tap[p] = (struct dye_tap){clampi(i, 0, cells - 1), 0, 0.0f};
    }
}

static void taps_over(struct dye_tap *tap, int n, int cells)
{
    for (int p = 0; p < n; p++)
        tap[p] = (struct dye_tap){p * (cells / n), 0, 0.0f};
}

/* The map for a w x h image into d->col and d->row; returns its kind. */
static int dye_map(struct dye *d, int w, int h)
{
    const struct fluid *f = &d->f;
    const int kind = w > f->dw || h > f->dh ? DYE_BETWEEN
                     : (w < f->dw || h < f->dh) && f->dw % w == 0 && f->dh % h == 0 ? DYE_OVER
                                                                                   : DYE_UNDER;
    void (*taps)(struct dye_tap *, int, int) = kind == DYE_BETWEEN ? taps_between
                                               : kind == DYE_OVER  ? taps_over
                                                                   : taps_under;
    taps(d->col, w, f->dw);
    taps(d->row, h, f->dh);
    return kind;
}

static const float *dye_cell(const struct fluid *f, int i, int j)
{
    return f->dye + 3 * ((size_t)j * (size_t)f->dw + (size_t)i);
}

/* A band's scratch: the dye of two image rows (three floats a pixel), the
 * brightness of three, and two dye rows taken across at the image's columns
 * (the horizontal half of the bilinear step, shared by the image rows between
 * the same two dye rows), with the dye rows they hold (-1: none). */
#define BAND_FLOATS 15 /* a band's scratch, floats per pixel of a row */
struct dye_band {
    float *dye[2], *lit[3], *across[2];
    int across_j[2];
};

/* Dye row j taken across at every column, from the band's cache or made in
 * the slot that does not hold row `keep`. */
static const float *across(const struct dye *d, struct dye_band *b, int j, int keep, int w)
{
    for (int s = 0; s < 2; s++)
        if (b->across_j[s] == j)
            return b->across[s];
    const int s = b->across_j[0] == keep ? 1 : 0;
    float *out = b->across[s];
    for (int x = 0; x < w; x++) {
        const float *p0 = dye_cell(&d->f, d->col[x].i0, j), *p1 = dye_cell(&d->f, d->col[x].i1, j);
        const float a = d->col[x].t;
        for (int k = 0; k < 3; k++)
            out[3 * x + k] = (1.0f - a) * p0[k] + a * p1[k];
    }
    b->across_j[s] = j;
    return out;
}

/* The dye of image row y (of a w x h image), three floats a pixel. */
static void dye_row(const struct dye *d, struct dye_band *b, int kind, int y, int w, int h,
                    float *out)
{
    const struct fluid *f = &d->f;
    const struct dye_tap *r = &d->row[y];
    if (kind == DYE_BETWEEN) {
        const float *h0 = across(d, b, r->i0, r->i1, w), *h1 = across(d, b, r->i1, r->i0, w);
        const float t = r->t;
        for (int i = 0; i < 3 * w; i++)
            out[i] = (1.0f - t) * h0[i] + t * h1[i];
        return;
    }
    if (kind == DYE_UNDER) {
        for (int x = 0; x < w; x++) {
            const float *c = dye_cell(f, d->col[x].i0, r->i0);
            out[3 * x] = c[0], out[3 * x + 1] = c[1], out[3 * x + 2] = c[2];
        }
        return;
    }
    const int rx = f->dw / w, ry = f->dh / h;
    for (int x = 0; x < w; x++) {
        float *o = out + 3 * x;
        o[0] = o[1] = o[2] = 0.0f;
        for (int j = r->i0; j < r->i0 + ry; j++)
            for (int i = d->col[x].i0; i < d->col[x].i0 + rx; i++)
                for (int k = 0; k < 3; k++)
                    o[k] += dye_cell(f, i, j)[k];
        for (int k = 0; k < 3; k++)
            o[k] /= (float)(rx * ry);
    }
}

/* fmaxf and fminf as C says them (the other where one is NaN), inline:
 * without -ffinite-math-only the compiler calls the library for them. */
static inline float max_of(float a, float b) { return a >= b || b != b ? a : b; }
static inline float min_of(float a, float b) { return a <= b || b != b ? a : b; }

static float brightest(const float *c) { return max_of(c[0], max_of(c[1], c[2])); }

/* Light on the relief of the brightness about a pixel (the rows above, at and
 * below it, and its left and right neighbours in its own): 1 where it is
 * flat, more on slopes that face the light (upper left), less on those turned
 * away. */
static float shade_of(float l, float r, float u, float dn)
{
    float gx = 0.5f * SHADE * (r - l), gy = 0.5f * SHADE * (dn - u);
    const float lx = -0.5f, ly = -0.6f, lz = 0.62f; /* unit, towards the light */
    float lit = (-gx * lx - gy * ly + lz) / sqrtf(gx * gx + gy * gy + 1.0f);
    return clampf(lit / lz, 0.5f, 1.5f);
}

/* The pixel for dye c: hue and saturation kept (and restored where mixing
 * greyed them), brightness toned and shaded, over the background. */
static rgb_t dye_pixel(const struct dye *d, const float *c, float shade)
{
    float r = max_of(c[0], 0.0f), g = max_of(c[1], 0.0f), b = max_of(c[2], 0.0f);
    float m = max_of(r, max_of(g, b)), lo = min_of(r, min_of(g, b));
    if (!(m > 1e-6f) || !isfinite(m))
        return background;
    float sat = 1.0f - lo / m, v = min_of(tone(d, m) * shade, 1.0f);
    float boost = sat > 1e-3f && sat < SAT_MIN ? min_of(SAT_MIN / sat, 4.0f) : 1.0f;
    float ch[3] = {r / m, g / m, b / m}, bg[3] = {(float)rgb_r(background),
                                                 (float)rgb_g(background),
                                                 (float)rgb_b(background)};
    int out[3];
    for (int k = 0; k < 3; k++) {
        float q = clampf(1.0f - (1.0f - ch[k]) * boost, 0.0f, 1.0f);
        out[k] = clampi((int)(bg[k] * (1.0f - v) + 255.0f * v * q + 0.5f), 0, 255);
    }
    return RGB(out[0], out[1], out[2]);
}

/* What a band of rows is drawn from, and into. */
struct dye_job {
    struct dye *d;
    struct image *im;
    int kind, nbands;
    bool shading;
    float k;       /* image pixels a canvas pixel: the relief's slopes are per canvas pixel */
};

/* Image row y's dye into slot y % 2 of the band and its brightness into
 * slot y % 3. */
static void take_row(const struct dye_job *j, struct dye_band *b, int y)
{
    const int w = j->im->w;
    float *c = b->dye[y % 2], *lit = b->lit[y % 3];
    dye_row(j->d, b, j->kind, y, w, j->im->h, c);
    if (j->shading)
        for (int x = 0; x < w; x++)
            lit[x] = j->k * tone(j->d, brightest(c + 3 * x));
}

/* Rows [y0, y1) of the band `part`: each row's dye taken once, with the
 * brightness of the rows about it for the relief (the band takes the row
 * above and below it too). */
static void draw_band(void *arg, int part, int nparts)
{
    const struct dye_job *j = arg;
    const int w = j->im->w, h = j->im->h;
    float *at = j->d->scratch + (size_t)part * BAND_FLOATS * (size_t)w;
    struct dye_band b = {{at, at + 3 * w}, {at + 6 * w, at + 7 * w, at + 8 * w},
                         {at + 9 * w, at + 12 * w}, {-1, -1}};
    int y0, y1;
    pool_span(h, part, nparts, &y0, &y1);
    if (y0 >= y1)
        return;
    if (j->shading && y0 > 0)
        take_row(j, &b, y0 - 1);
    take_row(j, &b, y0);
    for (int y = y0; y < y1; y++) {
        if (j->shading && y + 1 < h)
            take_row(j, &b, y + 1);
        else if (!j->shading && y > y0)
            take_row(j, &b, y);
        const float *c = b.dye[y % 2], *mid = b.lit[y % 3];
        const float *up = b.lit[(y > 0 ? y - 1 : y) % 3], *dn = b.lit[(y + 1 < h ? y + 1 : y) % 3];
        rgb_t *out = j->im->px + (size_t)y * (size_t)w;
        for (int x = 0; x < w; x++) {
            const float shade = j->shading ? shade_of(mid[x - (x > 0)], mid[x + (x + 1 < w)],
                                                      up[x], dn[x])
                                           : 1.0f;
            out[x] = dye_pixel(j->d, c + 3 * x, shade);
        }
    }
}

/* Bands of rows when there are threads to share them (one else: each band
 * takes the rows about it again for the relief). */
#define DRAW_BANDS 16

/* Room for the map and the bands' scratch (kept from frame to frame). */
static bool draw_room(struct dye *d, int w, int h, int nbands)
{
    const size_t floats = (size_t)nbands * BAND_FLOATS * (size_t)w;
    if (floats > d->nscratch) {
        float *p = realloc(d->scratch, floats * sizeof *p);
        if (!p)
            return false;
        d->scratch = p, d->nscratch = floats;
    }
    const size_t taps = (size_t)w + (size_t)h;
    if (taps > d->ntaps) {
        struct dye_tap *t = realloc(d->col, taps * sizeof *t);
        if (!t)
            return false;
        d->col = t, d->ntaps = taps;
    }
    d->row = d->col + w;
    return true;
}

void dye_draw(void *s, struct image *im)
{
    struct dye *d = s;
    const int nbands = pool_threads(d->opt.pool) > 1 ? DRAW_BANDS : 1;
    if (!draw_room(d, im->w, im->h, nbands)) {
        image_fill(im, background); /* out of memory: nothing to draw with */
        return;
    }
    struct dye_job j = {d, im, dye_map(d, im->w, im->h), nbands, d->shading,
                        (float)scene_image_scale(d->w, im)};
    pool_run(d->opt.pool, draw_band, &j, nbands);
}
