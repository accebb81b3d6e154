/*
 * pbf_depth.c — how deep each pixel of the water lies, which its colour goes
 * by (pbf_draw.c draws it): the water above a pixel along the least deep way
 * up and straight above it, each averaged over neighbouring columns by a blur
 * weighted by the body's coverage. The blur takes its pixels a block at a time
 * where the walls are not in reach, with the same sums, in the same order, as
 * one at a time. Drawn finer than the canvas, the least deep way up is found
 * on the canvas's pixels and drawn between them, so the water is shaded alike
 * in every glyph set and in pixels.
 */
#include "pbf_scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define AIR_KEEP 0.5f        /* share of the depth above that a pixel of air passes on */
#define DEPTH_BLUR 2         /* columns either side the depth is averaged over (at k 1) */
#define BLUR_BLOCK 8         /* pixels blurred at once, their sums kept in registers */

/* Pixel x of water_blur_rows, into od and ol. */
static void blur_pixel(const float *dep, const float *lit, const float *a, int w, int lo, int hi,
                       int blur, int x, float *od, float *ol)
{
    float sd = 0.0f, sl = 0.0f, sw = 0.0f;
    for (int e = -blur; e <= blur; e++) {
        const int q = x + e;
        if (q < 0 || q >= w || ((q < lo || q > hi) && q != x))
            continue;
        const float wgt = (float)(blur + 1 - abs(e)) * (a[q] + 1e-3f);
        sd += wgt * dep[q], sl += wgt * lit[q], sw += wgt;
    }
    od[x] = sd / sw, ol[x] = sl / sw;
}

/* BLUR_BLOCK pixels from dep, lit and a on, whose columns either side all lie
 * inside the walls: blur_pixel's sums, a pixel a lane. */
static void blur_block(const float *dep, const float *lit, const float *a, int blur, float *od,
                       float *ol)
{
    float sd[BLUR_BLOCK] = {0}, sl[BLUR_BLOCK] = {0}, sw[BLUR_BLOCK] = {0};
    for (int e = -blur; e <= blur; e++) {
        const float t = (float)(blur + 1 - abs(e));
#pragma GCC unroll 1 /* vectorised along the block, not unrolled and taken across e */
        for (int j = 0; j < BLUR_BLOCK; j++) {
            const float wgt = t * (a[e + j] + 1e-3f);
            sd[j] += wgt * dep[e + j], sl[j] += wgt * lit[e + j], sw[j] += wgt;
        }
    }
    for (int j = 0; j < BLUR_BLOCK; j++)
        od[j] = sd[j] / sw[j], ol[j] = sl[j] / sw[j];
}

void water_blur_rows(float *dep, float *lit, const float *a, float *out, int w, int lo, int hi,
                     int blur)
{
    float *od = out, *ol = out + w;
    for (int x = 0; x < w;) {
        if (x - blur >= lo && x + BLUR_BLOCK - 1 + blur <= hi) {
            blur_block(dep + x, lit + x, a + x, blur, od + x, ol + x);
            x += BLUR_BLOCK;
        } else {
            blur_pixel(dep, lit, a, w, lo, hi, blur, x, od, ol);
            x++;
        }
    }
    memcpy(dep, od, (size_t)w * sizeof *dep);
    memcpy(lit, ol, (size_t)w * sizeof *lit);
}

/* What water_depth finds on one image: coverage cov, depth and lit out, the
 * walls' inner columns x0 and x1, k image pixels a canvas pixel, row scratch. */
struct depth_job {
    const float *cov;
    float *dep, *lit, *row;
    int x0, x1;
    float k;
};

static void depth_rows(const struct depth_job *d, int w, int h, float above)
{
    float *top = d->row, *next = d->row + w, *up = d->row + 2 * w, *sum = d->row + 3 * w;
    const int lo = clampi(d->x0, 0, w - 1), hi = clampi(d->x1, 0, w - 1);
    const int blur = (int)lrintf(d->k * DEPTH_BLUR);
    /* AIR_KEEP is a canvas pixel's: an image pixel of air, 1/k of one, keeps
     * its k-th root, so that air as wide keeps as much at any k. */
    const float inv_k = d->k > 1.0f ? 1.0f / d->k : 1.0f, air = powf(AIR_KEEP, inv_k);
    for (int x = 0; x < w; x++)
        top[x] = up[x] = above;
    for (int y = 0; y < h; y++) {
        const float *a = d->cov + (size_t)y * (size_t)w;
        float *dep = d->dep + (size_t)y * (size_t)w, *lit = d->lit + (size_t)y * (size_t)w;
        for (int x = 0; x < w; x++) {
            dep[x] = top[x] + 0.5f * a[x];
            lit[x] = up[x] + 0.5f * a[x];
        }
        float *via = sum; /* what a diagonal step from each pixel passes on */
        for (int x = 0; x < w; x++) {
            float keep = a[x] + (1.0f - a[x]) * AIR_KEEP;
            if (inv_k != 1.0f && keep < 1.0f) /* (water, the most of it, keeps all) */
                keep = a[x] <= 0.0f ? air : powf(keep, inv_k);
            next[x] = top[x] * keep + a[x];
            via[x] = top[x] * keep + 1.41421f * a[x];
            up[x] = up[x] * keep + a[x];
        }
        for (int x = lo + 1; x <= hi; x++) /* from the left, then from the right */
            next[x] = via[x - 1] < next[x] ? via[x - 1] : next[x];
        for (int x = lo; x < hi; x++)
            next[x] = via[x + 1] < next[x] ? via[x + 1] : next[x];
        float *t = top;
        top = next, next = t;
        water_blur_rows(dep, lit, a, sum, w, lo, hi, blur);
    }
}

/* The depth on the canvas's pixels (k image pixels each way) into d->dep,
 * interpolated and in image pixels: the coverage averaged over each canvas
 * pixel into coarse, its depth found there as at k 1. */
static void depth_on_canvas(struct water_draw *d, int w, int h, int k, float above)
{
    const int cw = w / k, ch = h / k;
    const size_t cn = (size_t)cw * (size_t)ch;
    float *ca = d->coarse, *cd = d->coarse + cn, *cl = d->coarse + 2 * cn;
    const float share = 1.0f / (float)(k * k);
    for (int y = 0; y < ch; y++)
        for (int x = 0; x < cw; x++) {
            float sum = 0.0f;
            for (int yy = y * k; yy < y * k + k; yy++)
                for (int xx = x * k; xx < x * k + k; xx++)
                    sum += d->cov[(size_t)yy * (size_t)w + (size_t)xx];
            ca[(size_t)y * (size_t)cw + (size_t)x] = sum * share;
        }
    /* The walls' inner faces lie on the cells' boundaries: on whole canvas pixels. */
    const int x0 = d->x0 < 0 ? d->x0 : d->x0 / k, x1 = d->x1 < 0 ? d->x1 : (d->x1 + 1) / k - 1;
    const struct depth_job c = {ca, cd, cl, d->row, x0, x1, 1.0f};
    depth_rows(&c, cw, ch, above / (float)k);
    const int lo = clampi(x0, 0, cw - 1), hi = clampi(x1, lo, cw - 1);
    struct lerp *lxs = (struct lerp *)(void *)d->row; /* 5 w floats: room for w of these */
    for (int x = 0; x < w; x++)
        lxs[x] = lerp_at(x, k, lo, hi);
    for (int y = 0; y < h; y++) {
        const struct lerp ly = lerp_at(y, k, 0, ch - 1);
        const float *ra = cd + (size_t)ly.a * (size_t)cw, *rb = cd + (size_t)ly.b * (size_t)cw;
        float *out = d->dep + (size_t)y * (size_t)w;
        for (int x = 0; x < w; x++) {
            const struct lerp lx = lxs[x];
            const float top = ra[lx.a] + lx.t * (ra[lx.b] - ra[lx.a]);
            const float bot = rb[lx.a] + lx.t * (rb[lx.b] - rb[lx.a]);
            out[x] = (float)k * (top + ly.t * (bot - top));
        }
    }
}

void water_depth(struct water_draw *d, int w, int h, float above)
{
    const struct depth_job j = {d->cov, d->dep, d->lit, d->row, d->x0, d->x1, d->k};
    depth_rows(&j, w, h, above);
    const int k = (int)d->k;
    if (k >= 2 && (float)k == d->k && w % k == 0 && h % k == 0 && d->coarse)
        depth_on_canvas(d, w, h, k, above);
}
