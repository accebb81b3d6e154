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
 *
 * Where the image is finer than both the grid and the canvas (quadrants and
 * sextants once the grid stops growing at the canvas's size), each pixel is
 * still toned from the dye between the cells about it, but the relief's light
 * (a square root and a division a pixel) is worked out at the finer of the
 * two, as half-blocks light it, and taken up to the image bilinearly.
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

/* The map for a w x h image of a gw x gh grid into d->col and d->row;
 * returns its kind. */
static int dye_map(struct dye *d, int w, int h, int gw, int gh)
{
    const int kind = w > gw || h > gh ? DYE_BETWEEN
                     : (w < gw || h < gh) && gw % w == 0 && gh % h == 0 ? DYE_OVER
                                                                      : DYE_UNDER;
    void (*taps)(struct dye_tap *, int, int) = kind == DYE_BETWEEN ? taps_between
                                               : kind == DYE_OVER  ? taps_over
                                                                   : taps_under;
    d->row = d->col + w;
    taps(d->col, w, gw);
    taps(d->row, h, gh);
    return kind;
}

/* A grid of n floats a cell, gw cells a row (the dye, or the light), with
 * the taps that take it to the image's columns and rows (DYE_BETWEEN's). */
struct dye_grid {
    const float *at;
    int gw, n;
    const struct dye_tap *col, *row;
};

/* Two rows of a grid taken across at the image's columns (the horizontal
 * half of the bilinear step, shared by the image rows between the same two
 * grid rows), with the grid rows they hold (-1: none). */
struct dye_across {
    float *row[2];
    int j[2];
};

/* Row j of grid g taken across at every column of a w wide image, from the
 * cache or made in the slot that does not hold row `keep`. */
static const float *across(struct dye_grid g, struct dye_across *a, int j, int keep, int w)
{
    for (int s = 0; s < 2; s++)
        if (a->j[s] == j)
            return a->row[s];
    const int s = a->j[0] == keep ? 1 : 0, n = g.n;
    float *out = a->row[s];
    const float *row = g.at + (size_t)n * (size_t)j * (size_t)g.gw;
    for (int x = 0; x < w; x++) {
        const float *p0 = row + n * g.col[x].i0, *p1 = row + n * g.col[x].i1;
        const float t = g.col[x].t;
        for (int k = 0; k < n; k++)
            out[n * x + k] = (1.0f - t) * p0[k] + t * p1[k];
    }
    a->j[s] = j;
    return out;
}

/* Image row y of grid g, bilinear, n floats a pixel. */
static void between_row(struct dye_grid g, struct dye_across *a, int y, int w, float *out)
{
    const struct dye_tap *r = &g.row[y];
    const float *h0 = across(g, a, r->i0, r->i1, w), *h1 = across(g, a, r->i1, r->i0, w);
    const float t = r->t;
    for (int i = 0; i < g.n * w; i++)
        out[i] = (1.0f - t) * h0[i] + t * h1[i];
}

static const float *dye_cell(const struct fluid *f, int i, int j)
{
    return f->dye + 3 * ((size_t)j * (size_t)f->dw + (size_t)i);
}

/* A band's scratch: the dye of two image rows (three floats a pixel), the
 * brightness of three, and the dye's rows taken across; where the light is
 * taken up (fine_band), the light's two rows taken across and a row's light
 * in the brightness's place. */
#define BAND_FLOATS 15 /* a band's scratch, floats per pixel of a row */
struct dye_band {
    float *dye[2], *lit[3], *shade;
    struct dye_across dyes, light;
};

static struct dye_band band_at(float *at, int w)
{
    return (struct dye_band){{at, at + 3 * w}, {at + 6 * w, at + 7 * w, at + 8 * w}, at + 8 * w,
                             {{at + 9 * w, at + 12 * w}, {-1, -1}},
                             {{at + 6 * w, at + 7 * w}, {-1, -1}}};
}

/* The dye of image row y (of a w x h image), three floats a pixel. */
static void dye_row(const struct dye *d, struct dye_band *b, int kind, int y, int w, int h,
                    float *out)
{
    const struct fluid *f = &d->f;
    const struct dye_tap *r = &d->row[y];
    if (kind == DYE_BETWEEN) {
        between_row((struct dye_grid){f->dye, f->dw, 3, d->col, d->row}, &b->dyes, y, w, out);
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

/* What a band of rows is drawn from, and into: a w x h image, or (light
 * non-NULL) the relief's light of a w x h picture, a float a pixel. */
struct dye_job {
    struct dye *d;
    struct image *im;
    float *light;
    int w, h, kind, nbands;
    bool shading;
    float k;       /* pixels a canvas pixel: the relief's slopes are per canvas pixel */
    struct dye_grid lights; /* fine_band: the light, taken up to the image */
};

/* Row y's dye into slot y % 2 of the band and its brightness into slot y % 3. */
static void take_row(const struct dye_job *j, struct dye_band *b, int y)
{
    const int w = j->w;
    float *c = b->dye[y % 2], *lit = b->lit[y % 3];
    dye_row(j->d, b, j->kind, y, w, j->h, c);
    if (j->shading)
        for (int x = 0; x < w; x++)
            lit[x] = j->k * tone(j->d, brightest(c + 3 * x));
}

/* Rows [y0, y1) of the band `part`: each row's dye taken once, with the
 * brightness of the rows about it for the relief (the band takes the row
 * above and below it too); their pixels, or their light. */
static void draw_band(void *arg, int part, int nparts)
{
    const struct dye_job *j = arg;
    const int w = j->w, h = j->h;
    struct dye_band b = band_at(j->d->scratch + (size_t)part * BAND_FLOATS * (size_t)w, w);
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
        rgb_t *out = j->light ? NULL : j->im->px + (size_t)y * (size_t)w;
        float *light = j->light ? j->light + (size_t)y * (size_t)w : NULL;
        for (int x = 0; x < w; x++) {
            const float shade = j->shading ? shade_of(mid[x - (x > 0)], mid[x + (x + 1 < w)],
                                                      up[x], dn[x])
                                           : 1.0f;
            if (light)
                light[x] = shade;
            else
                out[x] = dye_pixel(j->d, c + 3 * x, shade);
        }
    }
}

/* Rows of the image, the band `part` of them, each pixel toned from its dye
 * and lit by the light taken up to it (j->lights). */
static void fine_band(void *arg, int part, int nparts)
{
    const struct dye_job *j = arg;
    const int w = j->w;
    struct dye_band b = band_at(j->d->scratch + (size_t)part * BAND_FLOATS * (size_t)w, w);
    int y0, y1;
    pool_span(j->h, part, nparts, &y0, &y1);
    for (int y = y0; y < y1; y++) {
        float *c = b.dye[0];
        dye_row(j->d, &b, j->kind, y, w, j->h, c);
        between_row(j->lights, &b.light, y, w, b.shade);
        rgb_t *out = j->im->px + (size_t)y * (size_t)w;
        for (int x = 0; x < w; x++)
            out[x] = dye_pixel(j->d, c + 3 * x, b.shade[x]);
    }
}

/* Bands of rows when there are threads to share them (one else: each band
 * takes the rows about it again for the relief). */
#define DRAW_BANDS 16

/* Room for two maps and the bands' scratch (kept from frame to frame), for
 * images up to w x h, and for the light of n pixels. */
static bool draw_room(struct dye *d, int w, int h, int nbands, size_t n)
{
    const size_t floats = (size_t)nbands * BAND_FLOATS * (size_t)w;
    if (floats > d->nscratch) {
        float *p = realloc(d->scratch, floats * sizeof *p);
        if (!p)
            return false;
        d->scratch = p, d->nscratch = floats;
    }
    const size_t taps = 2 * ((size_t)w + (size_t)h);
    if (taps > d->ntaps) {
        struct dye_tap *t = realloc(d->col, taps * sizeof *t);
        if (!t)
            return false;
        d->col = t, d->ntaps = taps;
    }
    if (n > d->nlight) {
        float *p = realloc(d->light, n * sizeof *p);
        if (!p)
            return false;
        d->light = p, d->nlight = n;
    }
    return true;
}

static int larger(int a, int b) { return a > b ? a : b; }
static int smaller(int a, int b) { return a < b ? a : b; }

void dye_draw(void *s, struct image *im)
{
    struct dye *d = s;
    const struct fluid *f = &d->f;
    const int w = im->w, h = im->h;
    const int nbands = pool_threads(d->opt.pool) > 1 ? DRAW_BANDS : 1;
    /* The light: at the finer of the grid and the canvas, the image's at most. */
    const int lw = smaller(w, larger(f->dw, d->w)), lh = smaller(h, larger(f->dh, d->h));
    const bool up = d->shading && (lw < w || lh < h) && !d->every_pixel;
    if (!draw_room(d, larger(w, f->dw), larger(h, f->dh), nbands,
                   up ? (size_t)lw * (size_t)lh : 0)) {
        image_fill(im, background); /* out of memory: nothing to draw with */
        return;
    }
    struct dye_job j = {d, im, NULL, w, h, 0, nbands, d->shading,
                        (float)scene_image_scale(d->w, im), {NULL, 0, 0, NULL, NULL}};
    if (!up) {
        j.kind = dye_map(d, w, h, f->dw, f->dh);
        pool_run(d->opt.pool, draw_band, &j, nbands);
        return;
    }
    struct dye_job l = {d, NULL, d->light, lw, lh, dye_map(d, lw, lh, f->dw, f->dh), nbands, true,
                        (float)lw / (float)larger(d->w, 1), {NULL, 0, 0, NULL, NULL}};
    pool_run(d->opt.pool, draw_band, &l, nbands);
    j.kind = dye_map(d, w, h, f->dw, f->dh);
    struct dye_tap *lcol = d->col + w + h, *lrow = lcol + w;
    taps_between(lcol, w, lw);
    taps_between(lrow, h, lh);
    j.lights = (struct dye_grid){d->light, lw, 1, lcol, lrow};
    pool_run(d->opt.pool, fine_band, &j, nbands);
}
