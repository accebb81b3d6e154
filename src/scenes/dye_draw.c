/*
 * dye_draw.c — the dye scene's picture: the dye's brightest channel through a
 * tone curve with a toe (faint smears sink into the dark background, dense dye
 * saturates without turning white), the channels keeping their ratios, and an
 * optional relief shading lit from the upper left.
 */
#include "dye_scene.h"

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

/* The dye cell under pixel (x,y) of a w x h image. */
static const float *dye_under(const struct fluid *f, int x, int y, int w, int h)
{
    int i = f->dw == w ? x : (int)(((float)x + 0.5f) * (float)f->dw / (float)w);
    int j = f->dh == h ? y : (int)(((float)y + 0.5f) * (float)f->dh / (float)h);
    i = clampi(i, 0, f->dw - 1), j = clampi(j, 0, f->dh - 1);
    return f->dye + 3 * ((size_t)j * (size_t)f->dw + (size_t)i);
}

static float brightest(const float *c) { return fmaxf(c[0], fmaxf(c[1], c[2])); }

/* The dye at the centre of pixel (x,y) of a w x h image finer than the dye
 * grid (quadrants and sextants draw at twice the canvas): bilinear. */
static void dye_between(const struct fluid *f, int x, int y, int w, int h, float out[3])
{
    const float u = ((float)x + 0.5f) * (float)f->dw / (float)w - 0.5f;
    const float v = ((float)y + 0.5f) * (float)f->dh / (float)h - 0.5f;
    const int i0 = clampi((int)floorf(u), 0, f->dw - 1), j0 = clampi((int)floorf(v), 0, f->dh - 1);
    const int i1 = clampi(i0 + 1, 0, f->dw - 1), j1 = clampi(j0 + 1, 0, f->dh - 1);
    const float a = clampf(u - (float)i0, 0.0f, 1.0f), b = clampf(v - (float)j0, 0.0f, 1.0f);
    const float *p00 = f->dye + 3 * ((size_t)j0 * (size_t)f->dw + (size_t)i0);
    const float *p10 = f->dye + 3 * ((size_t)j0 * (size_t)f->dw + (size_t)i1);
    const float *p01 = f->dye + 3 * ((size_t)j1 * (size_t)f->dw + (size_t)i0);
    const float *p11 = f->dye + 3 * ((size_t)j1 * (size_t)f->dw + (size_t)i1);
    for (int k = 0; k < 3; k++)
        out[k] = (1.0f - b) * ((1.0f - a) * p00[k] + a * p10[k]) +
                 b * ((1.0f - a) * p01[k] + a * p11[k]);
}

/* The mean dye of the cells under pixel (x,y) of a w x h image a whole
 * number of times coarser than the grid. */
static void dye_over(const struct fluid *f, int x, int y, int rx, int ry, float out[3])
{
    out[0] = out[1] = out[2] = 0.0f;
    for (int j = y * ry; j < (y + 1) * ry; j++)
        for (int i = x * rx; i < (x + 1) * rx; i++)
            for (int k = 0; k < 3; k++)
                out[k] += f->dye[3 * ((size_t)j * (size_t)f->dw + (size_t)i) + (size_t)k];
    for (int k = 0; k < 3; k++)
        out[k] /= (float)(rx * ry);
}

/* The dye pixel (x,y) of a w x h image shows (into tmp where it is not a
 * cell's own): the cell under it; where the image is finer than the grid, the
 * dye between cells; where it is a whole number of times coarser, the mean of
 * the cells it covers. */
static const float *dye_for(const struct fluid *f, int x, int y, int w, int h, float tmp[3])
{
    if (w > f->dw || h > f->dh) {
        dye_between(f, x, y, w, h, tmp);
        return tmp;
    }
    if ((w < f->dw || h < f->dh) && f->dw % w == 0 && f->dh % h == 0) {
        dye_over(f, x, y, f->dw / w, f->dh / h, tmp);
        return tmp;
    }
    return dye_under(f, x, y, w, h);
}

/* Room for the brightness of n pixels (kept from frame to frame). */
static bool lit_room(struct dye *d, size_t n)
{
    if (n <= d->nlit)
        return true;
    float *p = realloc(d->lit, n * sizeof *p);
    if (!p)
        return false; /* out of memory: drawn without shading */
    d->lit = p, d->nlit = n;
    return true;
}

/* Light on the relief of the brightness L around pixel (x,y) of a w x h image:
 * 1 where it is flat, more on slopes that face the light (upper left), less
 * on those turned away. */
static float shade_at(const float *L, int x, int y, int w, int h)
{
    size_t at = (size_t)y * (size_t)w + (size_t)x;
    float l = L[at - (x > 0)], r = L[at + (x + 1 < w)];
    float u = L[at - (y > 0 ? (size_t)w : 0)], dn = L[at + (y + 1 < h ? (size_t)w : 0)];
    float gx = 0.5f * SHADE * (r - l), gy = 0.5f * SHADE * (dn - u);
    const float lx = -0.5f, ly = -0.6f, lz = 0.62f; /* unit, towards the light */
    float lit = (-gx * lx - gy * ly + lz) / sqrtf(gx * gx + gy * gy + 1.0f);
    return clampf(lit / lz, 0.5f, 1.5f);
}

/* The pixel for dye c: hue and saturation kept (and restored where mixing
 * greyed them), brightness toned and shaded, over the background. */
static rgb_t dye_pixel(const struct dye *d, const float *c, float shade)
{
    float r = fmaxf(c[0], 0.0f), g = fmaxf(c[1], 0.0f), b = fmaxf(c[2], 0.0f);
    float m = fmaxf(r, fmaxf(g, b)), lo = fminf(r, fminf(g, b));
    if (!(m > 1e-6f) || !isfinite(m))
        return background;
    float sat = 1.0f - lo / m, v = fminf(tone(d, m) * shade, 1.0f);
    float boost = sat > 1e-3f && sat < SAT_MIN ? fminf(SAT_MIN / sat, 4.0f) : 1.0f;
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

void dye_draw(void *s, struct image *im)
{
    struct dye *d = s;
    const struct fluid *f = &d->f;
    int w = im->w, h = im->h;
    bool shading = d->shading && lit_room(d, (size_t)w * (size_t)h);
    /* The relief's slopes are per canvas pixel however fine the image. */
    const float k = (float)scene_image_scale(d->w, im);
    float tmp[3];
    if (shading)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                d->lit[(size_t)y * (size_t)w + (size_t)x] =
                    k * tone(d, brightest(dye_for(f, x, y, w, h, tmp)));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            im->px[(size_t)y * (size_t)w + (size_t)x] =
                dye_pixel(d, dye_for(f, x, y, w, h, tmp),
                          shading ? shade_at(d->lit, x, y, w, h) : 1.0f);
}
