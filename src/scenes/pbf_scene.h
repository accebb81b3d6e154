/*
 * pbf_scene.h — the pbf scene's state, shared by its model and control
 * (pbf_scene.c) and its drawing (pbf_draw.c, which runs the passes of
 * pbf_splat.c, pbf_shade.c and pbf_depth.c). Private to the scenes layer.
 */
#ifndef SWIRL_PBF_SCENE_H
#define SWIRL_PBF_SCENE_H

#include "pbf.h"
#include "scene.h"
#include "view.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#define LIN_STEPS 4095       /* steps of linear light from black to white */
#define PBF_TRAIL 17         /* steps of the held point kept for a throw, and one */

/* What drawing the water keeps (see "Drawing"): w x h fields and the pixels it
 * showed last. */
struct water_draw {
    float *cov;          /* the body's coverage, then its alpha */
    float *vel;          /* three planes: coverage-weighted vx, vy and vx^2 + vy^2; then
                          * in the first, the churn (how far the velocities about a
                          * pixel scatter, rms, m/s) */
    float *grid;         /* the body splatted on the canvas's pixels: four fields as cov
                          * and vel (pbf_draw.c's GRID_KERNEL_PX) */
    float grid_from;     /* kernel width (canvas pixels) from which the grid is used:
                          * 0 for GRID_KERNEL_PX (a test's larger one keeps it off) */
    int grid_f;          /* image pixels a pixel of what the body was last splatted on */
    float *spr;          /* the drops' coverage */
    float *dep, *lit;    /* depth below the surface, two ways (see water_depth) */
    float *coarse;       /* the depth's on the canvas's pixels: coverage, depth, lit
                          * (each a quarter of cap: k is 2 or more there) */
    float *row;          /* five rows of scratch */
    int *stack;          /* scratch: pixels to visit (fill_enclosed_air) */
    float *kept_body, *kept_drop; /* the body's alpha and the drops' coverage drawn last */
    float *share;        /* each particle's share of spray (the rest is the body's) */
    size_t cap, row_cap, share_cap;
    int kept_w, kept_h;
    bool kept_ok;        /* kept_* hold the last frame, of this size and view */
    struct view view;    /* the view it was drawn in */
    bool keeping;        /* this draw is of kept_w x kept_h in view: it uses and
                          * writes kept_* (a draw of another size, a picture
                          * saved, leaves them for the next of this one) */
    int last_w, last_h;  /* the size and view of the draw before this one */
    struct view last;
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
    bool built_smaller;  /* the box was built for opt.smaller (half the water) */
    float pour_x;        /* where the next pour falls (metres; the pointer's x) */
    float ptr_x, ptr_y;  /* the pointer the last step saw (canvas pixels), */
    bool ptr_seen;       /* ... once there was a step */
    int pour_left;       /* particles the stream has still to let out */
    /* Where the handful was held at each of the last steps, oldest first
     * (metres, and the solver's seconds since the hold began: a double, exact
     * enough however long the scene has run): what a release throws it with. */
    float trail_x[PBF_TRAIL], trail_y[PBF_TRAIL];
    double trail_t[PBF_TRAIL];
    int trail_n;
    struct view view;
    struct water_draw draw;
};

/* The water's picture (pbf_draw.c): the seed's dots on --preset seed, else
 * the water by coverage. */
void pbf_draw(void *p, struct image *im);
void water_draw_free(struct water_draw *d);

/* ---- What the drawing's files share ------------------------------------------ */

#define BACKGROUND RGB(9, 11, 18)
#define SCALE_MAX 64.0f      /* px: the body's kernel widens with the particles up to this */
#define KERNEL_PX 1.5f       /* the kernel's scale in particle diameters (at least pixels):
                              * wide enough to close the gaps between particles */
#define DROP_GAIN 3.0f       /* a drop is drawn this much brighter than the area it covers
                              * (a soft drop spreads it over its rim) */

/* 0 up to a, 1 from b on, smooth between. */
static inline float smooth01(float a, float b, float v)
{
    const float t = clampf((v - a) / (b - a), 0.0f, 1.0f);
    return t * t * (3.0f - 2.0f * t);
}

/* Image pixel i's place between the centres of a grid of f image pixels a
 * pixel, along an axis: the two grid pixels (within [lo, hi], the walls'
 * inside, so that nothing outside them bleeds in) and the second's weight. */
struct lerp {
    int a, b;
    float t;
};

static inline struct lerp lerp_at(int i, int f, int lo, int hi)
{
    const float u = ((float)i + 0.5f) / (float)f - 0.5f;
    const int a = (int)floorf(u);
    const float t = u - (float)a;
    return (struct lerp){clampi(a, lo, hi), clampi(a + 1, lo, hi), t};
}

/* A particle's diameter in pixels of the image drawn (draw.at), at least one,
 * at most SCALE_MAX. */
static inline float water_particle_px(const struct pbf_scene *s)
{
    return clampf(2.0f * s->sim.prm.radius * s->draw.at.zoom, 1.0f, SCALE_MAX);
}

/* The fields, in the order pbf_draw runs them (pbf_splat.c), on an image of
 * w x h pixels: each particle's share of spray (water_spray_shares); the body
 * into draw.cov and draw.vel (water_splat_body), its rim along the walls as
 * wet as the water beside it (water_wet_the_rim); the drops into draw.spr
 * (water_splat_spray). */
void water_spray_shares(struct pbf_scene *s);
void water_splat_body(struct pbf_scene *s, int w, int h);
void water_wet_the_rim(struct water_draw *d, int w, int h);
void water_splat_spray(struct pbf_scene *s, int w, int h);
/* The fields made the water's pixels of im (pbf_shade.c). */
void water_shade(struct pbf_scene *s, struct image *im);

/* How deep each pixel lies, two ways, from the body's coverage in d->cov (0..1;
 * pbf_depth.c): d->dep, the water above it along the least deep way up,
 * straight or diagonally (a diagonal step through a pixel counting sqrt 2),
 * never through a wall (a thin stream or the rim of a handful is shallow all
 * along); d->lit, the water straight above it (the bright line is the top's
 * only). above is the depth above the canvas's top row: 0, or with the lid off
 * the canvas (zoomed in) deep enough for no bright line, the water up there not
 * being drawn. A pixel of air passes on AIR_KEEP of the depth above it. Both
 * are averaged over neighbouring columns (DEPTH_BLUR a canvas pixel), so that
 * those agree. d->row is scratch. Where the image is k canvas pixels a pixel
 * each way (k whole, 2 or more), d->dep is the canvas's, interpolated: the
 * body's coverage averaged over each canvas pixel and its depth found there
 * (d->coarse), so that the colour goes by depth as in half-blocks (a notch a
 * few image pixels wide, where the surface meets a wall, made a least deep
 * way up for the water beside it, and lit it in a cone). */
void water_depth(struct water_draw *d, int w, int h, float above);
/* Averages rows dep and lit of w pixels over blur columns either side inside
 * the walls [lo, hi] (within the row), by weights falling off linearly from the
 * pixel's own (blur + 1 - |e|), times the body's coverage a there (plus 1e-3);
 * a pixel counts itself, wall or not. Each pixel's terms are summed in the order
 * of their columns (out: two rows of scratch). */
void water_blur_rows(float *dep, float *lit, const float *a, float *out, int w, int lo, int hi,
                     int blur);

#endif
