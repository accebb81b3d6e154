/*
 * image.h — the RGB canvas a scene draws into.
 *
 * w x h pixels, row-major, px[y*w + x], (0,0) top-left, y down (see swirl.h). The
 * drawing helpers clip to the image and take float pixel coordinates where the
 * centre of pixel (i,j) is (i+0.5, j+0.5); anti-aliased shapes blend by coverage.
 */
#ifndef SWIRL_IMAGE_H
#define SWIRL_IMAGE_H

#include "rgb.h"
#include "swirl.h"

struct image {
    int w, h;
    rgb_t *px;
};

void image_init(struct image *im, int w, int h);
void image_free(struct image *im);
void image_resize(struct image *im, int w, int h);
void image_fill(struct image *im, rgb_t c);

static inline rgb_t image_get(const struct image *im, int x, int y)
{
    return im->px[(size_t)y * (size_t)im->w + (size_t)x];
}

/* A float pixel coordinate clamped to 0..n while it is a float, then an int:
 * no overflow however far off it is (NaN gives 0). For loop bounds. */
static inline int image_clip(float v, int n)
{
    return (int)clampf(v, 0.0f, (float)n);
}

/* Mixes c into pixel (x,y) with weight a in [0,1]. */
void image_blend(struct image *im, int x, int y, rgb_t c, float a);
/* Anti-aliased line from (x0,y0) to (x1,y1), `width` pixels wide (Xiaolin Wu's
 * for a width of 1 or less). */
void image_thick_line(struct image *im, float x0, float y0, float x1, float y1, rgb_t c,
                      float width);
/* Anti-aliased filled disc centred at (cx,cy) with radius r (r may be < 1). */
void image_disc(struct image *im, float cx, float cy, float r, rgb_t c, float a);

/* Filled triangle: every pixel whose centre is inside (top-left rule, so
 * triangles that share an edge leave neither a gap nor an overlap). */
void image_triangle(struct image *im, float x0, float y0, float x1, float y1, float x2,
                    float y2, rgb_t c);

#endif
