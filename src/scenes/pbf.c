/*
 * pbf.c — the pbf scene: Position Based Fluids water in a box (seed 000).
 *
 * The solver works in the seed's units (metres, y up); the view maps them to the
 * canvas. The box is sized to the canvas's aspect when the scene starts (about
 * PX_PER_DIAM pixels a particle diameter, the water block a third of each side,
 * the seed's fill); a resize re-fits the view to the box, and `r` rebuilds the
 * box for the new aspect. --preset seed builds the seed page's 30x30 block in a
 * 90x90 box with its parameters. Particles are drawn as smooth dots coloured by
 * speed with the seed's blue ramp (hsl 225, lightness 25..75 % for 0..8 m/s),
 * the walls in grey, a grabbed particle in red.
 */
#include "pbf.h"
#include "scene.h"
#include "view.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define PX_PER_DIAM 1.2f     /* canvas pixels per particle diameter at start */
#define STEPS_PER_FRAME 8    /* as the seed page */
#define GRAB_PX 3.0f         /* press this close to a particle to grab it */
#define PUSH_PX 7.0f         /* radius of the right-drag push */
#define PUSH_GAIN 0.12f      /* share of the pointer's velocity given per step */
#define SPEED_MAX 8.0f       /* m/s at the top of the colour ramp */

struct pbf_scene {
    struct scene_opts opt;
    struct pbf sim;      /* sim.prm holds the solver's parameters: the panel's too */
    int block_w, block_h; /* the water block, in particles */
    int w, h;
    int box_w, box_h;
    struct view view;
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

static void fit_view(struct pbf_scene *s)
{
    float r = s->sim.prm.radius;
    view_fit(&s->view, s->sim.xmin - r, s->sim.ymin - r, s->sim.xmax + r, s->sim.ymax + r, s->w,
             s->h, 0.5f);
}

/* Box and block for a canvas: the canvas's aspect, the seed's fill. With the
 * seed preset the box follows the block instead. */
static void size_for_canvas(struct pbf_scene *s)
{
    if (s->opt.preset_seed) {
        s->box_w = 3 * s->block_w;
        s->box_h = 3 * s->block_h;
        return;
    }
    s->box_w = clampi((int)((float)s->w / PX_PER_DIAM), 9, 600);
    s->box_h = clampi((int)((float)s->h / PX_PER_DIAM), 9, 600);
}

static int build_into(struct pbf_scene *s, struct pbf *sim, const struct pbf_params *p)
{
    if (pbf_init(sim, p, s->block_w, s->block_h, s->box_w, s->box_h) != 0)
        return -1;
    fit_view(s);
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
    if (!o->preset_seed)
        p.seed_quirk = false; /* the mean error, not the seed's running sum */
    s->block_w = s->block_h = 30;
    size_for_canvas(s);
    if (!o->preset_seed) { /* the block follows the box: a third of each side */
        s->block_w = s->box_w / 3 > 1 ? s->box_w / 3 : 1;
        s->block_h = s->box_h / 3 > 1 ? s->box_h / 3 : 1;
    }
    if (build_into(s, &s->sim, &p) != 0) {
        free(s);
        return NULL;
    }
    return s;
}

static void pbf_destroy(void *p)
{
    struct pbf_scene *s = p;
    pbf_free(&s->sim);
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
    if (!s->opt.preset_seed) { /* the block must fit in the box */
        s->block_w = clampi(s->block_w, 1, s->box_w - 2);
        s->block_h = clampi(s->block_h, 1, s->box_h - 1);
    }
    struct pbf fresh;
    if (build_into(s, &fresh, &s->sim.prm) != 0) {
        s->box_w = old[0], s->box_h = old[1], s->block_w = old[2], s->block_h = old[3];
        return -1;
    }
    pbf_free(&s->sim);
    s->sim = fresh;
    return 0;
}

static void pbf_restart(void *p) { pbf_rebuild(p); }

static int pbf_steps_per_frame(void *p)
{
    (void)p;
    return STEPS_PER_FRAME;
}

static void pbf_scene_step(void *p, const struct pointer *ptr)
{
    struct pbf_scene *s = p;
    const struct view *v = &s->view;
    float wx = view_wx(v, ptr->x1), wy = view_wy(v, ptr->y1);
    float vx = ptr->vx / v->zoom, vy = -ptr->vy / v->zoom;
    if (ptr->pressed && ptr->button == 0) {
        int i = pbf_nearest(&s->sim, view_wx(v, ptr->x0), view_wy(v, ptr->y0), GRAB_PX / v->zoom);
        if (i >= 0)
            pbf_grab(&s->sim, i, view_wx(v, ptr->x0), view_wy(v, ptr->y0));
    }
    if (s->sim.grabbed >= 0) {
        if (ptr->down && ptr->button == 0)
            pbf_move_grab(&s->sim, wx, wy);
        else
            pbf_release(&s->sim, vx, vy);
    }
    if (ptr->down && ptr->button == 2)
        pbf_push(&s->sim, wx, wy, PUSH_PX / v->zoom, vx * PUSH_GAIN, vy * PUSH_GAIN);
    pbf_step(&s->sim);
}

/* A grey wall band [x0,x1) x [y0,y1) in canvas pixels, edges anti-aliased. */
static void wall(struct image *im, float x0, float y0, float x1, float y1)
{
    /* Clip first: zoomed in, a wall may be millions of pixels long. */
    x0 = clampf(x0, 0.0f, (float)im->w), x1 = clampf(x1, 0.0f, (float)im->w);
    y0 = clampf(y0, 0.0f, (float)im->h), y1 = clampf(y1, 0.0f, (float)im->h);
    for (int y = (int)floorf(y0); (float)y < y1; y++)
        for (int x = (int)floorf(x0); (float)x < x1; x++) {
            float cx = fminf((float)x + 1.0f, x1) - fmaxf((float)x, x0);
            float cy = fminf((float)y + 1.0f, y1) - fmaxf((float)y, y0);
            image_blend(im, x, y, RGB(136, 136, 136), clampf(cx, 0, 1) * clampf(cy, 0, 1));
        }
}

static void pbf_draw(void *p, struct image *im)
{
    struct pbf_scene *s = p;
    image_fill(im, RGB(10, 12, 20));
    const struct pbf *sim = &s->sim;
    const struct view *v = &s->view;
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
    /* The walls, over the water's edge: the band the boundary particles cover,
     * drawn solid (particles a pixel or two apart would alias into dots). */
    float r = sim->prm.radius;
    float x0 = view_px(v, sim->xmin - r), x1 = view_px(v, sim->xmax + r);
    float y0 = view_py(v, sim->ymax + r), y1 = view_py(v, sim->ymin - r);
    float t = fmaxf(2.0f * r * v->zoom, 1.0f);
    wall(im, x0, y0, x1, y0 + t);
    wall(im, x0, y1 - t, x1, y1);
    wall(im, x0, y0, x0 + t, y1);
    wall(im, x1 - t, y0, x1, y1);
    /* The grabbed particle last, in red and larger, as in the seed. */
    if (sim->grabbed >= 0)
        image_disc(im, view_px(v, sim->x[sim->grabbed]), view_py(v, sim->y[sim->grabbed]),
                   2.0f * rad, RGB(255, 0, 0), 1.0f);
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
    if (pbf_params[i].flags & PARAM_RESTART)
        return pbf_rebuild(p);
    return 0; /* the solver reads the rest at every step */
}

const struct scene_ops scene_pbf = {
    .name = "pbf",
    .title = "Position Based Fluids: a block of water in a box",
    .hint = "drag a particle to throw the water",
    .mouse = "left drag grabs and throws water; right drag pushes it",
    .keys = NULL,
    .create = pbf_create,
    .destroy = pbf_destroy,
    .resize = pbf_resize,
    .restart = pbf_restart,
    .steps_per_frame = pbf_steps_per_frame,
    .step = pbf_scene_step,
    .draw = pbf_draw,
    .zoom = pbf_zoom,
    .key = NULL,
    .hud = pbf_hud,
    .json = pbf_json,
    .autopilot = pbf_autopilot,
    .params = pbf_params,
    .nparams = NPARAMS,
    .param_changed = pbf_param_changed,
};
