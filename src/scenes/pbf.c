/*
 * pbf.c — the pbf scene: Position Based Fluids water in a box (seed 000).
 *
 * The solver works in the seed's units (metres, y up); the view maps them to the
 * canvas. The box is sized to the canvas when the scene starts: about one
 * canvas pixel a particle diameter, coarser where that would make more than
 * WATER_MAX particles, and the water a block over half the width and two thirds
 * of the height (a third of the box) that collapses into a pool. A resize
 * re-fits the view to the box; `r` rebuilds the box for the new canvas, `w`
 * pours more water in from above, up to POUR_CAP times the start. A left press
 * in the water, or a cell or three beside it, holds the handful around the
 * water nearest the pointer; it follows the pointer as a group and is thrown
 * with the pointer's velocity. A right drag pushes.
 *
 * Drawing: the particles are splatted into a smooth field at canvas resolution
 * (splat_water); where it passes a threshold is water, shaded per column by its
 * depth below the surface run it belongs to (a bright line at the top, darker
 * below), whitened to foam where the field's mean speed is high; particles
 * outside the body are drawn one by one as spray. The walls go on top.
 *
 * --preset seed keeps the seed page exactly: its 30x30 block in a 90x90 box,
 * its parameters, its single grabbed particle, drawn as the page draws it
 * (dots in the blue ramp hsl 225, lightness 25..75 % for 0..8 m/s, the grabbed
 * one larger and red, grey walls).
 */
#include "pbf.h"
#include "scene.h"
#include "view.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STEPS_PER_FRAME 8    /* as the seed page */
#define WATER_MAX 10000      /* particles the default start makes at most */
#define POUR_CAP 1.5f        /* the pour key stops at this times the start */
#define POUR_SHARE 0.06f     /* one pour: this share of the start ... */
#define POUR_MIN 40          /* ... and at least this many */
#define POUR_SPEED 1.5f      /* m/s downwards */
#define DEFAULT_ITER 100     /* the default's iteration cap (the seed's) */
#define DEFAULT_ERROR 1.0f   /* and its density error tolerance, % */
#define GRAB_PX 3.0f         /* seed preset: press this close to a particle */
#define GRAB_RADIUS_PX 5.0f  /* default: the handful within this of the water grabbed */
#define GRAB_REACH_PX 5.0f   /* a press this close to water grabs it (3 cells up) */
#define GRAB_MAX 120         /* at most this many held */
#define THROW_MAX 12.0f      /* m/s: the fastest a release throws */
#define PUSH_PX 7.0f         /* radius of the right-drag push */
#define PUSH_GAIN 0.12f      /* share of the pointer's velocity given per step */
#define SPEED_MAX 8.0f       /* seed preset: m/s at the top of the colour ramp */

struct pbf_scene {
    struct scene_opts opt;
    struct pbf sim;      /* sim.prm holds the solver's parameters: the panel's too */
    int block_w, block_h; /* the water block, in particles */
    bool auto_block;     /* the block follows the box (until the panel sets it) */
    int w, h;
    int box_w, box_h;
    int start_water;     /* particles at the start (the pour cap's measure) */
    float pour_x;        /* where the next pour falls (metres; the pointer's x) */
    int pours;           /* pours since the start */
    struct view view;
    float *field, *speed; /* w x h: splatted density and speed (draw scratch) */
    int field_cap;
    int in_x0, in_y0, in_x1, in_y1; /* the pixels inside the walls (draw) */
};

#define AT(field) offsetof(struct pbf_scene, field)
static const struct param_def pbf_params[] = {
    PARAM_DEF("block width", PARAM_INT, AT(block_w), 1, 200, 1, PARAM_RESTART, NULL),
    PARAM_DEF("block height", PARAM_INT, AT(block_h), 1, 200, 1, PARAM_RESTART, NULL),
    PARAM_DEF("time step", PARAM_FLOAT, AT(sim.prm.dt), 0.001f, 0.02f, 0.001f, 0, "s"),
    PARAM_DEF("max density error", PARAM_FLOAT, AT(sim.prm.max_error_pct), 0.01f, 10.0f,
              0.05f, 0, "%"),
    PARAM_DEF("max iterations", PARAM_INT, AT(sim.prm.max_iter), 1, 500, 1, 0, NULL),
    PARAM_DEF("viscosity", PARAM_FLOAT, AT(sim.prm.viscosity), 0.0f, 1.0f, 0.01f, 0, NULL),
    PARAM_DEF("gravity", PARAM_FLOAT, AT(sim.prm.gravity), -100.0f, 100.0f, 0.5f, 0, NULL),
    PARAM_DEF("tensile s_corr", PARAM_BOOL, AT(sim.prm.scorr), 0, 1, 1, 0, NULL),
    PARAM_DEF("vorticity", PARAM_FLOAT, AT(sim.prm.vorticity), 0.0f, 5.0f, 0.05f, 0, NULL),
};
#define NPARAMS ((int)(sizeof pbf_params / sizeof pbf_params[0]))

/* ---- Setup ------------------------------------------------------------------- */

static void fit_view(struct pbf_scene *s)
{
    float r = s->sim.prm.radius;
    view_fit(&s->view, s->sim.xmin - r, s->sim.ymin - r, s->sim.xmax + r, s->sim.ymax + r, s->w,
             s->h, 0.5f);
}

/* Box for a canvas: one pixel a diameter, coarser when the water would exceed
 * WATER_MAX (a third of the box is water). With the seed preset the box
 * follows the block instead. */
static void size_for_canvas(struct pbf_scene *s)
{
    if (s->opt.preset_seed) {
        s->box_w = 3 * s->block_w;
        s->box_h = 3 * s->block_h;
        return;
    }
    const float area = (float)s->w * (float)s->h;
    const float px = fmaxf(1.0f, sqrtf(area / 3.0f / (float)WATER_MAX));
    s->box_w = clampi((int)((float)s->w / px), 9, 600);
    s->box_h = clampi((int)((float)s->h / px), 9, 600);
}

/* The default block: half the box wide, two thirds high. */
static void block_for_box(struct pbf_scene *s)
{
    s->block_w = clampi(s->box_w / 2, 1, s->box_w - 2);
    s->block_h = clampi(2 * s->box_h / 3, 1, s->box_h - 1);
}

static int build_into(struct pbf_scene *s, struct pbf *sim, const struct pbf_params *p)
{
    if (pbf_init(sim, p, s->block_w, s->block_h, s->box_w, s->box_h) != 0)
        return -1;
    pbf_set_pool(sim, s->opt.pool);
    s->start_water = sim->nfluid;
    s->pours = 0;
    s->pour_x = 0.5f * (sim->xmin + sim->xmax);
    return 0;
}

static void *pbf_create(const struct scene_opts *o, int w, int h)
{
    struct pbf_scene *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->opt = *o;
    s->w = w, s->h = h;
    struct pbf_params p;
    pbf_params_seed(&p);
    s->block_w = s->block_h = 30;
    size_for_canvas(s);
    if (!o->preset_seed) {
        p.seed_quirk = false; /* the mean error, not the seed's running sum */
        p.max_iter = DEFAULT_ITER;
        p.max_error_pct = DEFAULT_ERROR;
        s->auto_block = true;
        block_for_box(s);
    }
    if (build_into(s, &s->sim, &p) != 0) {
        free(s);
        return NULL;
    }
    fit_view(s);
    return s;
}

static void pbf_destroy(void *p)
{
    struct pbf_scene *s = p;
    pbf_free(&s->sim);
    free(s->field);
    free(s->speed);
    free(s);
}

static void pbf_resize(void *p, int w, int h)
{
    struct pbf_scene *s = p;
    s->w = w, s->h = h;
    fit_view(s);
}

/* A new box for the canvas as it is now, with the parameters in s->sim.prm; if
 * that fails, the scene keeps what it had. */
static int pbf_rebuild(struct pbf_scene *s)
{
    int old[4] = {s->box_w, s->box_h, s->block_w, s->block_h};
    size_for_canvas(s);
    if (s->auto_block)
        block_for_box(s);
    if (!s->opt.preset_seed) { /* the block must fit in the box */
        s->block_w = clampi(s->block_w, 1, s->box_w - 2);
        s->block_h = clampi(s->block_h, 1, s->box_h - 1);
    }
    struct pbf fresh;
    int start = s->start_water;
    if (build_into(s, &fresh, &s->sim.prm) != 0) {
        s->box_w = old[0], s->box_h = old[1], s->block_w = old[2], s->block_h = old[3];
        s->start_water = start;
        return -1;
    }
    pbf_free(&s->sim);
    s->sim = fresh;
    fit_view(s);
    return 0;
}

static void pbf_restart(void *p) { pbf_rebuild(p); }

static int pbf_steps_per_frame(void *p)
{
    (void)p;
    return STEPS_PER_FRAME;
}

/* ---- The pointer and the pour ------------------------------------------------- */

/* A left press at world (x, y): the seed's nearest particle; or the handful
 * around the water nearest the pointer, within GRAB_REACH_PX (a press just
 * above or beside the water takes the water there), held at its offsets from
 * that particle, which goes to the pointer. */
static void grab(struct pbf_scene *s, float x, float y)
{
    const float zoom = s->view.zoom;
    if (s->opt.preset_seed) {
        const int i = pbf_nearest(&s->sim, x, y, GRAB_PX / zoom);
        if (i >= 0)
            pbf_grab(&s->sim, i, x, y);
        return;
    }
    const float radius = fmaxf(GRAB_RADIUS_PX / zoom, 2.5f * 2.0f * s->sim.prm.radius);
    const int i = pbf_nearest(&s->sim, x, y, GRAB_REACH_PX / zoom);
    if (i >= 0 && pbf_grab_near(&s->sim, s->sim.x[i], s->sim.y[i], radius, GRAB_MAX) > 0)
        pbf_move_grab(&s->sim, x, y);
}

static void pbf_scene_step(void *p, const struct pointer *ptr)
{
    struct pbf_scene *s = p;
    const struct view *v = &s->view;
    float wx = view_wx(v, ptr->x1), wy = view_wy(v, ptr->y1);
    float vx = ptr->vx / v->zoom, vy = -ptr->vy / v->zoom;
    if (isfinite(wx))
        s->pour_x = wx;
    if (ptr->pressed && ptr->button == 0)
        grab(s, view_wx(v, ptr->x0), view_wy(v, ptr->y0));
    if (s->sim.grabbed >= 0) {
        if (ptr->down && ptr->button == 0) {
            pbf_move_grab(&s->sim, wx, wy);
        } else {
            const float speed = hypotf(vx, vy);
            const float k = speed > THROW_MAX ? THROW_MAX / speed : 1.0f;
            pbf_release(&s->sim, vx * k, vy * k);
        }
    }
    if (ptr->down && ptr->button == 2)
        pbf_push(&s->sim, wx, wy, PUSH_PX / v->zoom, vx * PUSH_GAIN, vy * PUSH_GAIN);
    pbf_step(&s->sim);
}

/* Whether a point is at least a diameter from all water (a pour never lands on
 * water: overlapping particles blow apart). */
static bool clear_of_water(const struct pbf *sim, float x, float y, float d)
{
    for (int i = 0; i < sim->nfluid; i++) {
        const float dx = sim->x[i] - x, dy = sim->y[i] - y;
        if (dx * dx + dy * dy < d * d)
            return false;
    }
    return true;
}

/* One pour: a block of water a particle diameter apart just under the lid,
 * over pour_x, falling; as much as the cap leaves and the space up there
 * takes. Returns how many were added. */
static int pour(struct pbf_scene *s)
{
    struct pbf *sim = &s->sim;
    const int cap = (int)(POUR_CAP * (float)s->start_water);
    int want = (int)(POUR_SHARE * (float)s->start_water);
    want = want < POUR_MIN ? POUR_MIN : want;
    want = want < cap - sim->nfluid ? want : cap - sim->nfluid;
    if (want <= 0)
        return 0;
    const float d = 2.0f * sim->prm.radius, r = sim->prm.radius;
    const int side = clampi((int)ceilf(sqrtf((float)want)), 1, sim->box_w - 2);
    const float x0 = clampf(s->pour_x - 0.5f * (float)side * d, sim->xmin + d,
                            sim->xmax - d - (float)side * d);
    float *xy = malloc((size_t)want * 2 * sizeof *xy);
    if (!xy)
        return 0;
    int n = 0;
    for (int row = 0; n < want && row < sim->box_h / 3; row++)
        for (int col = 0; col < side && n < want; col++) {
            const float x = x0 + r + (float)col * d, y = sim->ymax - d - r - (float)row * d;
            if (clear_of_water(sim, x, y, d))
                xy[n] = x, xy[want + n] = y, n++;
        }
    if (n > 0 && pbf_add_water(sim, xy, xy + want, n, 0.0f, -POUR_SPEED) != 0)
        n = 0;
    free(xy);
    s->pours += n > 0;
    return n;
}

static bool pbf_key(void *p, int key)
{
    struct pbf_scene *s = p;
    if (key != 'w')
        return false;
    pour(s);
    return true;
}

/* ---- Drawing ------------------------------------------------------------------ */

#define BACKGROUND RGB(9, 11, 18)
#define WALL RGB(118, 126, 140)
#define WALL_EDGE RGB(186, 194, 208)
#define SURFACE RGB(178, 228, 255)
#define SHALLOW RGB(38, 122, 214)
#define DEEP RGB(5, 26, 78)
#define FOAM RGB(236, 246, 255)
#define SPRAY RGB(150, 205, 255)
#define SPLAT_REACH 1.8f     /* splat radius, in particle diameters ... */
#define SPLAT_MIN_PX 1.25f   /* ... and at least this many pixels */
#define WET 0.45f            /* the field at the water's edge (1 inside) */
#define GAP_PX 2             /* dry pixels within a column of water that are filled */
#define FOAM_DEPTH 4.0f      /* diameters: foam fades below the surface over this */
#define DEPTH_SCALE 14.0f    /* diameters below the surface to reach deep colour */
#define FOAM_FROM 1.6f       /* m/s: foam starts */
#define FOAM_FULL 4.5f       /* m/s: all foam */

static float smooth01(float a, float b, float v)
{
    const float t = clampf((v - a) / (b - a), 0.0f, 1.0f);
    return t * t * (3.0f - 2.0f * t);
}

/* Room for the w x h fields; false when memory ran out. */
static bool fields_for(struct pbf_scene *s, int w, int h)
{
    const int need = w * h;
    if (need <= s->field_cap)
        return true;
    float *f = realloc(s->field, (size_t)need * sizeof *f);
    if (f)
        s->field = f;
    float *v = realloc(s->speed, (size_t)need * sizeof *v);
    if (v)
        s->speed = v;
    if (!f || !v)
        return false;
    s->field_cap = need;
    return true;
}

/* Splats every particle into field (density, 1 inside rest water) and speed
 * (density-weighted speed) with the kernel (1 - r^2/R^2)^2, normalised by the
 * rest spacing: its integral pi R^2 / 3 over one particle's d^2. */
static void splat_water(struct pbf_scene *s, int w, int h)
{
    const struct pbf *sim = &s->sim;
    const struct view *v = &s->view;
    const float d_px = 2.0f * sim->prm.radius * v->zoom;
    const float rad = fmaxf(SPLAT_REACH * d_px, SPLAT_MIN_PX), inv_r2 = 1.0f / (rad * rad);
    const float norm = 3.0f * d_px * d_px / (3.14159265f * rad * rad);
    memset(s->field, 0, (size_t)w * (size_t)h * sizeof *s->field);
    memset(s->speed, 0, (size_t)w * (size_t)h * sizeof *s->speed);
    for (int i = 0; i < sim->nfluid; i++) {
        const float cx = view_px(v, sim->x[i]), cy = view_py(v, sim->y[i]);
        const float sp = hypotf(sim->vx[i], sim->vy[i]);
        if (!isfinite(cx) || !isfinite(cy) || cx < -rad || cy < -rad || cx > (float)w + rad ||
            cy > (float)h + rad)
            continue;
        const int x0 = clampi((int)floorf(cx - rad), 0, w - 1);
        const int x1 = clampi((int)ceilf(cx + rad), 0, w - 1);
        const int y0 = clampi((int)floorf(cy - rad), 0, h - 1);
        const int y1 = clampi((int)ceilf(cy + rad), 0, h - 1);
        for (int y = y0; y <= y1; y++)
            for (int x = x0; x <= x1; x++) {
                const float dx = (float)x + 0.5f - cx, dy = (float)y + 0.5f - cy;
                const float t = 1.0f - (dx * dx + dy * dy) * inv_r2;
                if (t <= 0.0f)
                    continue;
                const float wgt = norm * t * t;
                s->field[y * w + x] += wgt;
                s->speed[y * w + x] += wgt * (isfinite(sp) ? sp : 0.0f);
            }
    }
}

/* The water's colour at depth (pixels below the top of its run in this
 * column) and mean speed: a bright line on top, darker below, foam where fast
 * (more of it near the surface). */
static rgb_t water_colour(float depth_px, float d_px, float speed)
{
    const float deep = 1.0f - expf(-depth_px / (DEPTH_SCALE * d_px));
    rgb_t c = rgb_mix(SHALLOW, DEEP, deep);
    if (depth_px < 1.0f)
        c = SURFACE;
    else if (depth_px < 2.0f)
        c = rgb_mix(c, SURFACE, 0.3f);
    const float foam = smooth01(FOAM_FROM, FOAM_FULL, speed) *
                       (0.15f + 0.85f * expf(-depth_px / (FOAM_DEPTH * d_px)));
    return rgb_mix(c, FOAM, 0.85f * foam);
}

/* Whether pixel (x, y) is water: the field past WET, half that on the pixels
 * along a wall (whose splats the wall cuts in half). */
static bool wet_at(const struct pbf_scene *s, int w, int x, int y)
{
    const bool rim = x <= s->in_x0 || x >= s->in_x1 - 1 || y <= s->in_y0 || y >= s->in_y1 - 1;
    return s->field[y * w + x] >= (rim ? 0.5f * WET : WET);
}

/* The body, solid (anti-aliasing at a pixel's scale only greys the edge): each
 * column from the top, the depth counted from where its current run of water
 * began; a run goes on over gaps of up to GAP_PX dry pixels, which are filled
 * (splats leave the odd one between particle rows). */
static void shade_water(struct pbf_scene *s, struct image *im)
{
    const int w = im->w, h = im->h;
    const float d_px = fmaxf(2.0f * s->sim.prm.radius * s->view.zoom, 0.25f);
    for (int x = 0; x < w; x++) {
        int top = -1, last = -GAP_PX - 2;
        for (int y = 0; y < h; y++) {
            if (!wet_at(s, w, x, y))
                continue;
            if (y - last > GAP_PX + 1)
                top = y;
            for (int k = y - last > GAP_PX + 1 ? y : last + 1; k <= y; k++) {
                const float f = fmaxf(s->field[k * w + x], WET);
                const float speed = s->speed[k * w + x] / f;
                image_put(im, x, k, water_colour((float)(k - top), d_px, speed));
            }
            last = y;
        }
    }
}

/* Particles outside the body (the field at their pixel below WET): drops and
 * spray, a solid pixel each (a disc when zoomed in), whiter the faster. */
static void draw_spray(struct pbf_scene *s, struct image *im)
{
    const struct pbf *sim = &s->sim;
    const struct view *v = &s->view;
    const float rad = sim->prm.radius * v->zoom;
    for (int i = 0; i < sim->nfluid; i++) {
        const float cx = view_px(v, sim->x[i]), cy = view_py(v, sim->y[i]);
        if (!(cx >= 0.0f && cy >= 0.0f && cx < (float)im->w && cy < (float)im->h))
            continue; /* off the canvas (or not a number) */
        const int x = (int)cx, y = (int)cy;
        if (wet_at(s, im->w, x, y))
            continue;
        const float sp = hypotf(sim->vx[i], sim->vy[i]);
        const rgb_t c = rgb_mix(SPRAY, FOAM, smooth01(0.5f, FOAM_FULL, sp));
        if (rad > 0.75f)
            image_disc(im, cx, cy, rad, c, 1.0f);
        else
            image_put(im, x, y, c);
    }
}

/* A wall band [x0,x1) x [y0,y1) in canvas pixels, edges anti-aliased. */
static void wall(struct image *im, float x0, float y0, float x1, float y1, rgb_t c)
{
    /* Clip first: zoomed in, a wall may be millions of pixels long. */
    x0 = clampf(x0, 0.0f, (float)im->w), x1 = clampf(x1, 0.0f, (float)im->w);
    y0 = clampf(y0, 0.0f, (float)im->h), y1 = clampf(y1, 0.0f, (float)im->h);
    for (int y = (int)floorf(y0); (float)y < y1; y++)
        for (int x = (int)floorf(x0); (float)x < x1; x++) {
            float cx = fminf((float)x + 1.0f, x1) - fmaxf((float)x, x0);
            float cy = fminf((float)y + 1.0f, y1) - fmaxf((float)y, y0);
            image_blend(im, x, y, c, clampf(cx, 0, 1) * clampf(cy, 0, 1));
        }
}

/* The box: the band the boundary particles cover, drawn solid (particles a
 * pixel or two apart would alias into dots), with a lighter inner edge on the
 * water's side when there is room for one. */
static void draw_walls(struct pbf_scene *s, struct image *im, rgb_t c, bool edge)
{
    const struct pbf *sim = &s->sim;
    const struct view *v = &s->view;
    const float r = sim->prm.radius;
    const float x0 = view_px(v, sim->xmin - r), x1 = view_px(v, sim->xmax + r);
    const float y0 = view_py(v, sim->ymax + r), y1 = view_py(v, sim->ymin - r);
    const float t = fmaxf(2.0f * r * v->zoom, 1.0f);
    wall(im, x0, y0, x1, y0 + t, c);
    wall(im, x0, y1 - t, x1, y1, c);
    wall(im, x0, y0, x0 + t, y1, c);
    wall(im, x1 - t, y0, x1, y1, c);
    if (!edge || t < 2.0f)
        return;
    const float e = fminf(1.0f, 0.5f * t);
    wall(im, x0 + t - e, y0 + t - e, x1 - t + e, y0 + t, WALL_EDGE);
    wall(im, x0 + t - e, y1 - t, x1 - t + e, y1 - t + e, WALL_EDGE);
    wall(im, x0 + t - e, y0 + t - e, x0 + t, y1 - t + e, WALL_EDGE);
    wall(im, x1 - t, y0 + t - e, x1 - t + e, y1 - t + e, WALL_EDGE);
}

/* The seed page's picture: dots coloured by speed, the grabbed one red. */
static void draw_seed(struct pbf_scene *s, struct image *im)
{
    const struct pbf *sim = &s->sim;
    const struct view *v = &s->view;
    image_fill(im, RGB(10, 12, 20));
    float rad = fmaxf(sim->prm.radius * v->zoom, 0.55f);
    for (int i = 0; i < sim->nfluid; i++) {
        if (i == sim->grabbed)
            continue;
        float speed = fminf(hypotf(sim->vx[i], sim->vy[i]), SPEED_MAX);
        if (!isfinite(speed))
            speed = 0.0f;
        rgb_t c = rgb_hsl(225.0f / 360.0f, 1.0f, 0.25f + 0.5f * speed / SPEED_MAX);
        image_disc(im, view_px(v, sim->x[i]), view_py(v, sim->y[i]), rad * 1.15f, c, 1.0f);
    }
    draw_walls(s, im, RGB(136, 136, 136), false);
    if (sim->grabbed >= 0)
        image_disc(im, view_px(v, sim->x[sim->grabbed]), view_py(v, sim->y[sim->grabbed]),
                   2.0f * rad, RGB(255, 0, 0), 1.0f);
}

static void pbf_draw(void *p, struct image *im)
{
    struct pbf_scene *s = p;
    if (s->opt.preset_seed || !fields_for(s, im->w, im->h)) {
        draw_seed(s, im);
        return;
    }
    image_fill(im, BACKGROUND);
    const struct pbf *sim = &s->sim;
    const float r = sim->prm.radius;
    /* Clamped before the conversion: zoomed in, the walls may be far off. */
    const float wf = (float)im->w + 2.0f, hf = (float)im->h + 2.0f;
    s->in_x0 = (int)clampf(floorf(view_px(&s->view, sim->xmin + r)), -2.0f, wf);
    s->in_x1 = (int)clampf(ceilf(view_px(&s->view, sim->xmax - r)), -2.0f, wf);
    s->in_y0 = (int)clampf(floorf(view_py(&s->view, sim->ymax - r)), -2.0f, hf);
    s->in_y1 = (int)clampf(ceilf(view_py(&s->view, sim->ymin + r)), -2.0f, hf);
    splat_water(s, im->w, im->h);
    shade_water(s, im);
    draw_spray(s, im);
    draw_walls(s, im, WALL, true);
}

static void pbf_zoom(void *p, float x, float y, int clicks)
{
    struct pbf_scene *s = p;
    view_zoom(&s->view, x, y, clicks);
}

static void pbf_hud(void *p, char *out, size_t n)
{
    struct pbf_scene *s = p;
    snprintf(out, n, "t %.2fs  iter %d  particles %d", (double)s->sim.time, s->sim.iter,
             s->sim.nfluid);
}

static void pbf_json(void *p, struct buf *out)
{
    struct pbf_scene *s = p;
    float cx, cy;
    pbf_centroid(&s->sim, &cx, &cy);
    buf_printf(out,
               "\"t\":%.4f,\"iter\":%d,\"particles\":%d,\"density_err_pct\":%.5g,\"cx\":%.6g,"
               "\"cy\":%.6g,\"ke\":%.6g",
               (double)s->sim.time, s->sim.iter, s->sim.nfluid,
               (double)pbf_density_err_pct(&s->sim), (double)cx, (double)cy,
               (double)pbf_kinetic_energy(&s->sim));
}

/* --auto: a push (right drag) sweeps under the water one way, then the other. */
static void pbf_autopilot(void *p, double t, int w, int h, float *x, float *y, bool *down,
                          int *button)
{
    (void)p;
    const double period = 5.0;
    double ph = fmod(t, period) / period;
    *button = 2;
    *down = true;
    if (ph < 0.4) {
        double q = ph / 0.4;
        *x = (float)(w * (0.08 + 0.84 * q));
        *y = (float)(h * (0.9 - 0.35 * q * q));
    } else if (ph >= 0.5 && ph < 0.9) {
        double q = (ph - 0.5) / 0.4;
        *x = (float)(w * (0.92 - 0.84 * q));
        *y = (float)(h * (0.9 - 0.35 * q * q));
    } else {
        *down = false;
        *x = (float)(w * (ph < 0.5 ? 0.92 : 0.08));
        *y = (float)(h * 0.9);
    }
}

static int pbf_param_changed(void *p, int i)
{
    struct pbf_scene *s = p;
    if (pbf_params[i].offset == AT(block_w) || pbf_params[i].offset == AT(block_h))
        s->auto_block = false; /* the block as set, from now on */
    if (pbf_params[i].flags & PARAM_RESTART)
        return pbf_rebuild(p);
    return 0; /* the solver reads the rest at every step */
}

static void *pbf_member(void *p, const char *name)
{
    struct pbf_scene *s = p;
    const struct scene_member m[] = {
        {"pbf", &s->sim},
        {"block_w", &s->block_w},
        {"block_h", &s->block_h},
    };
    return scene_member_pick(m, (int)(sizeof m / sizeof m[0]), name);
}

const struct scene_ops scene_pbf = {
    .name = "pbf",
    .title = "Position Based Fluids: water in a box",
    .hint = "drag the water to throw it",
    .mouse = "left drag grabs a handful of water and throws it; right drag pushes it",
    .keys = "w pour in more water (up to 1.5 times the start), r start again",
    .create = pbf_create,
    .destroy = pbf_destroy,
    .resize = pbf_resize,
    .restart = pbf_restart,
    .steps_per_frame = pbf_steps_per_frame,
    .step = pbf_scene_step,
    .draw = pbf_draw,
    .zoom = pbf_zoom,
    .key = pbf_key,
    .hud = pbf_hud,
    .json = pbf_json,
    .autopilot = pbf_autopilot,
    .params = pbf_params,
    .nparams = NPARAMS,
    .param_changed = pbf_param_changed,
    .member = pbf_member,
};
