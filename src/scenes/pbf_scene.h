/*
 * pbf_scene.h — the pbf scene's state, shared by its model and control
 * (pbf_scene.c) and its drawing (pbf_draw.c). Private to the scenes layer.
 */
#ifndef SWIRL_PBF_SCENE_H
#define SWIRL_PBF_SCENE_H

#include "pbf.h"
#include "scene.h"
#include "view.h"

#include <stdbool.h>
#include <stddef.h>

#define LIN_STEPS 4095       /* steps of linear light from black to white */

/* What drawing the water keeps (see "Drawing"): w x h fields and the pixels it
 * showed last. */
struct water_draw {
    float *cov;          /* the body's coverage, then its alpha */
    float *vel;          /* three planes: coverage-weighted vx, vy and vx^2 + vy^2; then
                          * in the first, the churn (how far the velocities about a
                          * pixel scatter, rms, m/s) */
    float *spr;          /* the drops' coverage */
    float *dep, *lit;    /* depth below the surface, two ways (see water_depth) */
    float *row;          /* four rows of scratch */
    float *kept_body, *kept_drop; /* the body's alpha and the drops' coverage drawn last */
    size_t cap, row_cap;
    int kept_w, kept_h;
    bool kept_ok;        /* kept_* hold the last frame, of this size and view */
    struct view view;    /* the view it was drawn in */
    struct view at;      /* this frame's view: the scene's, k image pixels a canvas pixel */
    float k;
    int x0, y0, x1, y1;  /* the first and last pixels inside the walls */
    bool tables;         /* lin and srgb are filled in */
    float lin[256];      /* an sRGB channel in linear light */
    unsigned char srgb[LIN_STEPS + 1]; /* linear light (LIN_STEPS a unit) in sRGB */
};


struct pbf_scene {
    struct scene_opts opt;
    struct pbf sim;      /* sim.prm holds the solver's parameters: the panel's too */
    int block_w, block_h; /* the water block, in particles */
    bool auto_block;     /* the block follows the box (until the panel sets it) */
    int w, h;
    int box_w, box_h;
    int start_water;     /* particles at the start (the pour cap's measure) */
    float pour_x;        /* where the next pour falls (metres; the pointer's x) */
    int pour_left;       /* particles the stream has still to let out */
    struct view view;
    struct water_draw draw;
};

/* The water's picture (pbf_draw.c): the seed's dots on --preset seed, else
 * the water by coverage. */
void pbf_draw(void *p, struct image *im);
void water_draw_free(struct water_draw *d);

#endif
