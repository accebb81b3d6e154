/*
 * dye_scene.h — the dye scene's state, shared by its model and control
 * (dye_scene.c) and its drawing (dye_draw.c). Private to the scenes layer.
 */
#ifndef SWIRL_DYE_SCENE_H
#define SWIRL_DYE_SCENE_H

#include "fluid.h"
#include "scene.h"

#include <stdbool.h>
#include <stddef.h>

#define TONE_STEPS 512      /* the tone curve's table: steps up to TONE_TOP */

/* One axis of the picture's map onto the dye grid (dye_draw.c): pixel p takes
 * cells i0 and i1 by weights 1 - t and t (between cells), cells [i0, i0 + the
 * ratio) (over them), or cell i0 (under it). */
struct dye_tap {
    int i0, i1;
    float t;
};

struct dye {
    struct scene_opts opt;
    struct fluid f;     /* f.prm holds the solver's parameters: the panel's too */
    float force;        /* the stroke's push, times FOLLOW x the pointer's velocity */
    float radius;       /* splat radius, canvas pixels */
    int scale;          /* canvas pixels per velocity cell */
    bool shading;       /* draw the dye lit as a relief */
    bool resize_failed; /* the last resize ran out of memory: the old grid stays */
    int w, h;           /* canvas */
    struct rng rng;
    double t;           /* scene time, seconds */
    float hue;          /* the stroke's hue, turns */
    float held;         /* seconds the button has been held still */
    float tone[TONE_STEPS + 1]; /* the tone curve (tone_init) */
    /* Drawing (dye_draw.c), kept from frame to frame: where each column and
     * row of the image takes its dye from, and each band's scratch. */
    struct dye_tap *col, *row; /* col: ntaps of them, row: the rest */
    size_t ntaps;
    float *scratch;
    size_t nscratch;
    /* The relief's light where it is taken up to a finer image (a float a
     * pixel), and the knob that lights every image pixel itself instead (a
     * test's: the two pictures agree). */
    float *light;
    size_t nlight;
    bool every_pixel;
};

/* The tone curve's table (dye_draw.c), made once at creation. */
void dye_tone_init(struct dye *d);
void dye_draw(void *s, struct image *im);

#endif
