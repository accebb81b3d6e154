/*
 * pbf_depth.c — how deep each pixel of the water lies, which its colour goes
 * by (pbf_draw.c draws it): the water above a pixel along the least deep way
 * up and straight above it, each averaged over neighbouring columns by a blur
 * weighted by the body's coverage. The blur takes its pixels a block at a time
 * where the walls are not in reach, with the same sums, in the same order, as
 * one at a time.
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

void water_depth(struct water_draw *d, int w, int h, float above)
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
