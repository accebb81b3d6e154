/*
 * image.c — the RGB canvas and its anti-aliased drawing helpers (see image.h).
 *
 * Coordinates are floats in pixels; pixel (i,j) covers [i,i+1) x [j,j+1) and its
 * centre is (i+0.5, j+0.5). Everything clips silently, so a scene may draw
 * shapes that are partly or wholly outside the canvas, however far (a zoom, a
 * piece of cloth that fell for minutes): coordinates are clipped while they are
 * floats, and only what lies within a pixel or two of the canvas is ever
 * converted to int, so no conversion overflows and no loop runs past the canvas.
 * NaN and infinite coordinates draw nothing.
 */
#include "image.h"
#include "image_internal.h"
#include "buf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void image_init(struct image *im, int w, int h)
{
    *im = (struct image){0, 0, NULL, false, 0, 0};
    image_resize(im, w, h);
}

void image_free(struct image *im)
{
    free(im->px);
    im->px = NULL;
    im->w = im->h = 0;
}

void image_resize(struct image *im, int w, int h)
{
    if (w < 1)
        w = 1;
    if (h < 1)
        h = 1;
    if (w == im->w && h == im->h && im->px)
        return;
    im->px = buf_xrealloc(im->px, (size_t)w * (size_t)h * sizeof *im->px);
    im->w = w;
    im->h = h;
    im->banded = false;
    image_fill(im, 0);
}

bool image_same(const struct image *a, const struct image *b)
{
    return a->w == b->w && a->h == b->h && a->px && b->px &&
           !memcmp(a->px, b->px, (size_t)a->w * (size_t)a->h * sizeof *a->px);
}

void image_copy(struct image *dst, const struct image *src)
{
    image_resize(dst, src->w, src->h);
    memcpy(dst->px, src->px, (size_t)src->w * (size_t)src->h * sizeof *src->px);
}

void image_fill(struct image *im, rgb_t c)
{
    const size_t end = (size_t)image_row1(im) * (size_t)im->w;
    for (size_t i = (size_t)image_row0(im) * (size_t)im->w; i < end; i++)
        im->px[i] = c;
}

void image_blend(struct image *im, int x, int y, rgb_t c, float a)
{
    if (x < 0 || y < image_row0(im) || x >= im->w || y >= image_row1(im) || !(a > 0.0f))
        return;
    rgb_t *p = &im->px[(size_t)y * (size_t)im->w + (size_t)x];
    *p = a >= 1.0f ? c : rgb_mix(*p, c, a);
}

static float fpart(float v) { return v - floorf(v); }

/* Clips the segment to [lo, hi] in both coordinates, in double (Liang-Barsky),
 * so the part left lies where the far-off segment did; false when nothing is
 * left. A segment inside the box is left exactly as it was. */
static bool clip_segment(float *x0, float *y0, float *x1, float *y1, double xlo, double xhi,
                         double ylo, double yhi)
{
    double ax = *x0, ay = *y0, dx = (double)*x1 - ax, dy = (double)*y1 - ay;
    if (ax >= xlo && ax <= xhi && ay >= ylo && ay <= yhi && *x1 >= xlo && *x1 <= xhi &&
        *y1 >= ylo && *y1 <= yhi)
        return true;
    double t0 = 0.0, t1 = 1.0;
    const double p[4] = {-dx, dx, -dy, dy}, q[4] = {ax - xlo, xhi - ax, ay - ylo, yhi - ay};
    for (int k = 0; k < 4; k++) {
        if (p[k] == 0.0) {
            if (q[k] < 0.0)
                return false; /* parallel to this side and outside it */
            continue;
        }
        double r = q[k] / p[k];
        if (p[k] < 0.0)
            t0 = r > t0 ? r : t0;
        else
            t1 = r < t1 ? r : t1;
    }
    if (t0 > t1)
        return false;
    *x0 = (float)(ax + t0 * dx), *y0 = (float)(ay + t0 * dy);
    *x1 = (float)(ax + t1 * dx), *y1 = (float)(ay + t1 * dy);
    return true;
}

void image_line(struct image *im, float x0, float y0, float x1, float y1, rgb_t c)
{
    if (!isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1))
        return;
    /* A margin of a few pixels: what is drawn is the same as unclipped. */
    if (!clip_segment(&x0, &y0, &x1, &y1, -4.0, im->w + 4.0, -4.0, im->h + 4.0))
        return;
    /* Work in pixel-centre coordinates. */
    x0 -= 0.5f, y0 -= 0.5f, x1 -= 0.5f, y1 -= 0.5f;
    bool steep = fabsf(y1 - y0) > fabsf(x1 - x0);
    float t;
    if (steep) {
        t = x0, x0 = y0, y0 = t;
        t = x1, x1 = y1, y1 = t;
    }
    if (x0 > x1) {
        t = x0, x0 = x1, x1 = t;
        t = y0, y0 = y1, y1 = t;
    }
    float dx = x1 - x0, dy = y1 - y0;
    float grad = dx > 1e-6f ? dy / dx : 0.0f;
    /* Limit the walk to the canvas so a huge coordinate costs nothing. */
    float lim = (float)(steep ? im->h : im->w) + 1.0f;
    float xa = fmaxf(x0, -1.0f), xb = fminf(x1, lim);
    if (dx < 1.0f) {
        /* Shorter than a pixel: a dot at the midpoint weighted by length. */
        float mx = 0.5f * (x0 + x1), my = 0.5f * (y0 + y1);
        int ix = (int)lrintf(mx), iy = (int)floorf(my);
        float f = my - (float)iy, w = fmaxf(dx, 0.35f);
        if (steep) {
            image_blend(im, iy, ix, c, (1 - f) * w);
            image_blend(im, iy + 1, ix, c, f * w);
        } else {
            image_blend(im, ix, iy, c, (1 - f) * w);
            image_blend(im, ix, iy + 1, c, f * w);
        }
        return;
    }
    for (int x = (int)ceilf(xa); (float)x <= xb; x++) {
        float y = y0 + grad * ((float)x - x0);
        int iy = (int)floorf(y);
        float f = fpart(y);
        if (steep) {
            image_blend(im, iy, x, c, 1 - f);
            image_blend(im, iy + 1, x, c, f);
        } else {
            image_blend(im, x, iy, c, 1 - f);
            image_blend(im, x, iy + 1, c, f);
        }
    }
}

void image_disc(struct image *im, float cx, float cy, float r, rgb_t c, float a)
{
    if (!isfinite(cx) || !isfinite(cy) || !(r > 0.0f))
        return;
    /* Coverage falls from 1 to 0 over one pixel around the rim; a disc smaller
     * than a pixel spreads its area over the pixels it touches. */
    float rr = fmaxf(r, 0.5f);
    float area_scale = r < 0.5f ? (r * r) / (0.25f) : 1.0f;
    int x0 = image_clip(floorf(cx - rr - 0.5f), im->w);
    int x1 = image_clip(ceilf(cx + rr + 0.5f), im->w);
    int y0 = image_clip_rows(floorf(cy - rr - 0.5f), im);
    int y1 = image_clip_rows(ceilf(cy + rr + 0.5f), im);
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            float dx = (float)x + 0.5f - cx, dy = (float)y + 0.5f - cy;
            float d = sqrtf(dx * dx + dy * dy);
            float cov = clampf(rr + 0.5f - d, 0.0f, 1.0f) * area_scale;
            image_blend(im, x, y, c, cov * a);
        }
}

/* Edge function: > 0 when (px,py) is left of a->b in y-down pixel space. */
static float edge(float ax, float ay, float bx, float by, float px, float py)
{
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

/* Top-left rule for y down: a top edge is horizontal with the interior below,
 * a left edge goes up. With clockwise-on-screen winding, e > 0 is inside. */
static bool top_left(float ax, float ay, float bx, float by)
{
    return (ay == by && bx > ax) || by < ay;
}

void image_triangle(struct image *im, float x0, float y0, float x1, float y1, float x2,
                    float y2, rgb_t c)
{
    if (!isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1) || !isfinite(x2) ||
        !isfinite(y2))
        return;
    float area = edge(x0, y0, x1, y1, x2, y2);
    if (area == 0.0f)
        return;
    if (area < 0.0f) { /* make it clockwise on screen */
        float t = x1;
        x1 = x2, x2 = t;
        t = y1, y1 = y2, y2 = t;
    }
    int xa = image_clip(floorf(fminf(x0, fminf(x1, x2))), im->w);
    int xb = image_clip(ceilf(fmaxf(x0, fmaxf(x1, x2))), im->w);
    int ya = image_clip_rows(floorf(fminf(y0, fminf(y1, y2))), im);
    int yb = image_clip_rows(ceilf(fmaxf(y0, fmaxf(y1, y2))), im);
    bool t0 = top_left(x1, y1, x2, y2), t1 = top_left(x2, y2, x0, y0);
    bool t2 = top_left(x0, y0, x1, y1);
    for (int y = ya; y < yb; y++)
        for (int x = xa; x < xb; x++) {
            float px = (float)x + 0.5f, py = (float)y + 0.5f;
            float e0 = edge(x1, y1, x2, y2, px, py), e1 = edge(x2, y2, x0, y0, px, py);
            float e2 = edge(x0, y0, x1, y1, px, py);
            if ((e0 > 0 || (e0 == 0 && t0)) && (e1 > 0 || (e1 == 0 && t1)) &&
                (e2 > 0 || (e2 == 0 && t2)))
                im->px[(size_t)y * (size_t)im->w + (size_t)x] = c;
        }
}

void image_thick_line(struct image *im, float x0, float y0, float x1, float y1, rgb_t c,
                      float width)
{
    if (!(width > 1.0f)) {
        image_line(im, x0, y0, x1, y1, c);
        return;
    }
    if (!isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1))
        return;
    const float half = 0.5f * width, m = half + 1.0f;
    if (!clip_segment(&x0, &y0, &x1, &y1, -m, im->w + m, -m, im->h + m))
        return;
    const float dx = x1 - x0, dy = y1 - y0, len2 = dx * dx + dy * dy;
    int xa = image_clip(floorf(fminf(x0, x1) - m), im->w);
    int xb = image_clip(ceilf(fmaxf(x0, x1) + m), im->w);
    int ya = image_clip_rows(floorf(fminf(y0, y1) - m), im);
    int yb = image_clip_rows(ceilf(fmaxf(y0, y1) + m), im);
    for (int y = ya; y < yb; y++)
        for (int x = xa; x < xb; x++) {
            /* Coverage by the distance of the pixel's centre from the segment. */
            const float px = (float)x + 0.5f - x0, py = (float)y + 0.5f - y0;
            const float t = len2 > 1e-12f ? clampf((px * dx + py * dy) / len2, 0.0f, 1.0f) : 0.0f;
            const float d = hypotf(px - t * dx, py - t * dy);
            const float cov = clampf(half + 0.5f - d, 0.0f, 1.0f);
            if (cov > 0.0f)
                image_blend(im, x, y, c, cov);
        }
}
