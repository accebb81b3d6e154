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
    /* A band (image_band): drawing writes rows [band0, band1) alone, so that
     * bands of one image are drawn apart (on threads), each shape clipped to
     * its band, every pixel written as drawing the whole would write it. */
    bool banded;
    int band0, band1;
};

/* The rows drawing into im writes: [image_row0, image_row1). */
static inline int image_row0(const struct image *im) { return im->banded ? im->band0 : 0; }
static inline int image_row1(const struct image *im) { return im->banded ? im->band1 : im->h; }
/* im (the same pixels) with drawing kept to rows [y0, y1) of what it may write. */
static inline struct image image_band(const struct image *im, int y0, int y1)
{
    struct image b = *im;
    b.banded = true;
    b.band0 = y0 > image_row0(im) ? y0 : image_row0(im);
    b.band1 = y1 < image_row1(im) ? y1 : image_row1(im);
    b.band1 = b.band1 > b.band0 ? b.band1 : b.band0;
    return b;
}

void image_init(struct image *im, int w, int h);
void image_free(struct image *im);
void image_resize(struct image *im, int w, int h);
/* The same size and the same pixels (an encoder's test for an unchanged
 * frame); and dst made a copy of src. */
bool image_same(const struct image *a, const struct image *b);
void image_copy(struct image *dst, const struct image *src);
/* Every pixel it may write (see image_band) to c. */
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

/* The same for a row, clamped to the rows drawing writes (image_band). */
static inline int image_clip_rows(float v, const struct image *im)
{
    return (int)clampf(v, (float)image_row0(im), (float)image_row1(im));
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
