/*
 * image_internal.h — private to src/gfx/image.c (and the tests): a line one
 * pixel wide, which the product draws only as image_thick_line, and putting a
 * single pixel, which only the tests do.
 */
#ifndef SWIRL_IMAGE_INTERNAL_H
#define SWIRL_IMAGE_INTERNAL_H

#include "image.h"

/* Anti-aliased line of width ~1 pixel from (x0,y0) to (x1,y1) (Xiaolin Wu). */
void image_line(struct image *im, float x0, float y0, float x1, float y1, rgb_t c);

static inline void image_put(struct image *im, int x, int y, rgb_t c)
{
    if (x >= 0 && y >= image_row0(im) && x < im->w && y < image_row1(im))
        im->px[(size_t)y * (size_t)im->w + (size_t)x] = c;
}

#endif
