/*
 * cloth_scene.c — the cloth scene: Position Based Dynamics cloth (seed 002).
 * Setup (the grid sized to the canvas), the pointer (the left button grabs and
 * pulls, the right one cuts), keys, the autopilot and the statistics; the
 * picture is cloth_draw.c's.
 */
#include "buf.h"
#include "cloth_scene.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STEPS_PER_FRAME 8   /* as the seed page */
#define GRAB_PX 4.0f
#define MIN_COLS 40         /* the seed's grid, the least off the preset */
#define MIN_ROWS 30
#define MAX_SIDE 300        /* the panel's largest width or height */
#define PX_TARGET 1.5f      /* canvas pixels between neighbours where there is room, */
#define POINTS_MAX 12000    /* ... in a grid of at most this many particles (about
                             * 47,000 links; as pbf's water stops at 10,000: the
                             * step's cost grows with the particles times the
                             * substeps the width takes, and a full screen on a large
                             * monitor would be 25,000 of them and 101,000 links) */
#define FILL_H 0.74f        /* the rest height as a share of the canvas's height */
#define FILL_W 0.8f         /* ... and the most of its width */
#define TOP_PX 1.5f         /* the pins' distance from the top of the canvas */
#define SEED_WIDTH_M 7.8f   /* the seed's cloth: 39 spacings of 0.2 m */
#define ANCHOR_SPACINGS 2.0f /* ... each moving with a particle this near */
#define MEND_SECONDS 2.0f   /* the cloth fallen out of view this long: a whole one
                             * hangs again (torn or cut off its pins) ... */
#define MEND_SCRAP 0.05f    /* ... all but this share of its particles, at most */

#define AT(field) offsetof(struct cloth_scene, field)
enum { P_WIDTH, P_HEIGHT, P_FIXED };
static const struct param_def cloth_params[] = {
    [P_WIDTH] = PARAM_DEF("width", PARAM_INT, AT(c.prm.w), 2, MAX_SIDE, 1, PARAM_RESTART, NULL),
    [P_HEIGHT] = PARAM_DEF("height", PARAM_INT, AT(c.prm.h), 2, MAX_SIDE, 1, PARAM_RESTART, NULL),
    [P_FIXED] = {.label = "fixed particles", .type = PARAM_INT, .offset = AT(c.prm.fixed),
                 .min = 1, .max = 4, .step = 1, .flags = PARAM_RESTART,
                 .nchoices = 3, .choices = {1, 2, 4}},
    PARAM_DEF("time step", PARAM_FLOAT, AT(c.prm.dt), 0.001f, 0.05f, 0.001f, 0, "s"),
    PARAM_DEF("iterations", PARAM_INT, AT(c.prm.iterations), 1, 200, 1, 0, NULL),
    PARAM_DEF("gravity", PARAM_FLOAT, AT(c.prm.gravity), -1000.0f, 1000.0f, 0.5f, 0, NULL),
    PARAM_DEF("mass", PARAM_FLOAT, AT(c.prm.mass), 0.01f, 100.0f, 0.05f, 0, "kg"),
    PARAM_DEF("XPBD compliance", PARAM_FLOAT, AT(c.prm.compliance), 1e-8f, 1.0f, 10.0f,
              PARAM_LOG | PARAM_ZERO, NULL),
    PARAM_DEF("substeps", PARAM_INT, AT(c.prm.substeps), 1, 50, 1, 0, NULL),
    PARAM_DEF("tearing", PARAM_BOOL, AT(c.prm.tearing), 0, 1, 1, 0, NULL),
    PARAM_DEF("tear strain", PARAM_FLOAT, AT(c.prm.tear_strain), 0.05f, 5.0f, 0.05f, 0, NULL),
    PARAM_DEF("release with velocity", PARAM_BOOL, AT(throw_release), 0, 1, 1, 0, NULL),
    PARAM_DEF("strain colours", PARAM_BOOL, AT(strain_look), 0, 1, 1, 0, NULL),
    PARAM_DEF("buckle", PARAM_BOOL, AT(c.prm.buckle), 0, 1, 1, 0, NULL),
};
#define NPARAMS ((int)(sizeof cloth_params / sizeof cloth_params[0]))

/* ---- size and view ------------------------------------------------------------ */

/*
 * The solver works in the seed's units (metres, y up, particle (0,0) at the
 * origin); the view hangs the cloth's top edge just under the top of the canvas,
 * its rest height a fixed share of it. Off the seed preset the grid follows the
 * canvas: at least the seed's 40 x 30, more where there is room for a particle
 * every PX_TARGET pixels, always the seed's 7.8 m x 5.8 m of cloth (finer grids
 * take more substeps, to stretch as little), solved by colour (cloth_grid.c:
 * vectors and threads, several times faster than the seed's order). The left
 * button grabs and pulls; the right button cuts (scissors: the constraints the
 * stroke crosses break).
 */

/* Off the preset: the grid for a w x h canvas (the seed's 39:29 spacings, at
 * least 40 x 30), its spacing (the seed's width of cloth) and substeps. */
static void size_for_canvas(struct cloth_params *p, int w, int h, bool smaller)
{
    const int most = smaller ? POINTS_MAX / 2 : POINTS_MAX;
    int rows = (int)(FILL_H * (float)h / PX_TARGET) + 1;
    int cols_room = (int)(FILL_W * (float)w / PX_TARGET) + 1;
    rows = clampi(rows, MIN_ROWS, MAX_SIDE);
    int cols = (int)lrintf((float)(rows - 1) * 39.0f / 29.0f) + 1;
    if (cols > cols_room) { /* a tall, narrow canvas: the width decides */
        cols = clampi(cols_room, MIN_COLS, MAX_SIDE);
        rows = clampi((int)lrintf((float)(cols - 1) * 29.0f / 39.0f) + 1, MIN_ROWS, MAX_SIDE);
    }
    cols = clampi(cols, MIN_COLS, MAX_SIDE);
    if (cols * rows > most) { /* both sides shrunk alike: the same shape */
        const float f = sqrtf((float)most / (float)(cols * rows));
        cols = clampi((int)((float)cols * f), MIN_COLS, MAX_SIDE);
        rows = clampi((int)((float)rows * f), MIN_ROWS, MAX_SIDE);
    }
    p->w = cols;
    p->h = rows;
    p->spacing = SEED_WIDTH_M / (float)(p->w - 1);
    p->substeps = (p->w - 2) / (MIN_COLS - 1) + 1; /* 1 up to 40 across, 2 to 79 ... */
}

/* The cloth's rest rectangle FILL_H of the canvas high (FILL_W wide at most),
 * its top TOP_PX down, centred. */
static void fit_view(struct cloth_scene *s)
{
    float sp = s->c.prm.spacing;
    float cw = sp * (float)(s->c.prm.w - 1), ch = sp * (float)(s->c.prm.h - 1);
    float zh = FILL_H * (float)s->h / fmaxf(ch, 1e-6f);
    float zw = FILL_W * (float)s->w / fmaxf(cw, 1e-6f);
    struct view *v = &s->view;
    v->zoom = v->fit = fmaxf(fminf(zh, zw), 1e-6f);
    v->ox = 0.5f * (float)s->w - 0.5f * cw * v->zoom;
    v->oy = TOP_PX;
}

/* A new cloth from the parameters in s->c.prm, solved with the app's threads;
 * on failure the old one stays. */
static int build(struct cloth_scene *s)
{
    struct cloth fresh;
    s->c.prm.by_colour = !s->opt.preset_seed;
    if (cloth_init(&fresh, &s->c.prm) != 0)
        return -1;
    cloth_free(&s->c);
    s->c = fresh;
    cloth_set_pool(&s->c, s->opt.pool);
    s->built_smaller = s->opt.smaller;
    fit_view(s);
    return 0;
}

static void *cloth_create(const struct scene_opts *o, int w, int h)
{
    struct cloth_scene *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->opt = *o;
    s->w = w, s->h = h;
    cloth_params_seed(&s->c.prm);
    s->c.prm.stop = o->stop;
    s->auto_size = !o->preset_seed;
    if (s->auto_size)
        size_for_canvas(&s->c.prm, w, h, o->smaller);
    s->throw_release = !o->preset_seed;
    s->c.prm.upright = !o->preset_seed; /* thrown over its pins, it falls open */
    s->c.prm.buckle = !o->preset_seed;  /* it drapes, and a cut opens under its weight */
    s->strain_look = o->preset_seed;
    if (build(s) != 0) {
        free(s);
        return NULL;
    }
    return s;
}

static void cloth_destroy(void *p)
{
    struct cloth_scene *s = p;
    cloth_free(&s->c);
    free(s->node);
    free(s->edges);
    free(s->tan);
    free(s->tri);
    free(s->uses);
    free(s);
}

static void cloth_resize(void *p, int w, int h)
{
    struct cloth_scene *s = p;
    s->w = w, s->h = h, fit_view(s);
}

static bool cloth_detail(void *p, int px_scale, bool smaller)
{
    struct cloth_scene *s = p;
    (void)px_scale; /* the drawing follows the image it is given */
    s->opt.smaller = smaller;
    return !s->auto_size || s->built_smaller == smaller;
}

/* r: a whole cloth again. Sized to the canvas as it is now, unless the width or
 * height was set by hand (the other parameters stay as they are). */
static void cloth_restart(void *p)
{
    struct cloth_scene *s = p;
    struct cloth_params keep = s->c.prm, want = s->c.prm;
    if (s->auto_size) {
        size_for_canvas(&want, s->w, s->h, s->opt.smaller);
        if (want.w == keep.w && want.h == keep.h)
            want = keep;
    }
    s->c.prm = want;
    if (build(s) != 0)
        s->c.prm = keep;
    s->gone_for = 0.0f;
}

static int cloth_steps_per_frame(void *p) { return (void)p, STEPS_PER_FRAME; }

/* ---- the pointer ---------------------------------------------------------------- */

static void blade_add(struct cloth_scene *s, float px, float py)
{
    if (s->ntrail == TRAIL) {
        memmove(s->trail, s->trail + 1, (TRAIL - 1) * sizeof *s->trail);
        s->ntrail--;
    }
    const struct cloth *c = &s->c;
    float x = view_wx(&s->view, px), y = view_wy(&s->view, py);
    int i = cloth_nearest(c, x, y, ANCHOR_SPACINGS * c->prm.spacing);
    s->trail[s->ntrail++] = i >= 0 ? (struct blade_point){i, x - c->x[i], y - c->y[i]}
                                   : (struct blade_point){-1, x, y};
}

/*
 * Right button: the stroke's last TRAIL points, this step's piece included,
 * cut whatever crosses them. Each point moves with the cloth it was made on,
 * so the cut stays one line through the cloth however the cloth moves while it
 * is made (a fixed line would leave gaps where the cloth moved across it).
 */
static void scissors(struct cloth_scene *s, const struct pointer *ptr)
{
    if (ptr->pressed || s->ntrail == 0) {
        s->ntrail = 0;
        blade_add(s, ptr->path[0], ptr->path[1]);
    }
    for (int k = 1; k < ptr->npath; k++)
        blade_add(s, ptr->path[2 * k], ptr->path[2 * k + 1]);
    float world[2 * TRAIL];
    for (int k = 0; k < s->ntrail; k++) {
        const struct blade_point *b = &s->trail[k];
        world[2 * k] = b->at >= 0 ? s->c.x[b->at] + b->dx : b->dx;
        world[2 * k + 1] = b->at >= 0 ? s->c.y[b->at] + b->dy : b->dy;
    }
    cloth_cut_path(&s->c, world, s->ntrail);
    s->blade_x = ptr->x1, s->blade_y = ptr->y1;
}

/* Whether the cloth has fallen out of view but for a scrap (MEND_SCRAP of its
 * particles: a pin's few): below the canvas in the view as it is and as fitted
 * (zoomed in, the canvas's bottom edge is higher up the world). */
static bool fallen_out_of_view(const struct cloth_scene *s)
{
    const struct view *v = &s->view;
    float bottom = fminf(view_wy(v, (float)s->h), (TOP_PX - (float)s->h) / v->fit);
    int left = 0, scrap = (int)(MEND_SCRAP * (float)s->c.n);
    for (int i = 0; i < s->c.n; i++)
        if (!(s->c.y[i] < bottom) && ++left > scrap)
            return false;
    return true;
}

static void cloth_restart(void *p);

/* A cloth torn or cut off its pins would fall for ever: once it has been out
 * of view for MEND_SECONDS, a whole one hangs again, as after `r`. */
static void mend_when_gone(struct cloth_scene *s, float dt)
{
    s->gone_for = fallen_out_of_view(s) ? s->gone_for + dt : 0.0f;
    if (s->gone_for >= MEND_SECONDS)
        cloth_restart(s);
}

static void cloth_scene_step(void *p, const struct pointer *ptr)
{
    struct cloth_scene *s = p;
    const struct view *v = &s->view;
    s->cutting = ptr->down && ptr->button == 2;
    if (s->cutting)
        scissors(s, ptr);
    else
        s->ntrail = 0;
    if (ptr->pressed && ptr->button == 0 && s->c.grabbed < 0) {
        float x = view_wx(v, ptr->x0), y = view_wy(v, ptr->y0);
        int i = cloth_nearest(&s->c, x, y, GRAB_PX / v->zoom);
        if (i >= 0)
            cloth_grab(&s->c, i, x, y);
    }
    if (s->c.grabbed >= 0) {
        if (ptr->down && ptr->button == 0)
            cloth_move_grab(&s->c, view_wx(v, ptr->x1), view_wy(v, ptr->y1));
        else
            cloth_release(&s->c, s->throw_release, ptr->vx / v->zoom, -ptr->vy / v->zoom);
    }
    cloth_step(&s->c);
    mend_when_gone(s, s->c.prm.dt);
}

/* ---- the rest of the scene ------------------------------------------------------------ */

static void cloth_zoom(void *p, float x, float y, int clicks)
{
    view_zoom(&((struct cloth_scene *)p)->view, x, y, clicks);
}

static bool cloth_key(void *p, int key)
{
    struct cloth_scene *s = p;
    if (key == 't')
        s->c.prm.tearing = !s->c.prm.tearing;
    return key == 't';
}

static void cloth_hud(void *p, char *out, size_t n)
{
    struct cloth_scene *s = p;
    snprintf(out, n, "t %.2fs  particles %d  constraints %d%s", (double)s->c.time, s->c.n,
             s->c.nc, s->c.prm.tearing ? "  tearing" : "");
}

static void cloth_stats(void *p, char *out, size_t n)
{
    struct cloth_scene *s = p;
    float mean, max;
    cloth_strain(&s->c, &mean, &max);
    snprintf(out, n, "%d particles, %d constraints, strain %.3f on average and %.3f at most%s",
             s->c.n, s->c.nc, (double)mean, (double)max, s->c.torn ? ", torn" : "");
}

static void cloth_json(void *p, struct buf *out)
{
    struct cloth_scene *s = p;
    float cx, cy, miny, mean, max;
    cloth_centroid(&s->c, &cx, &cy, &miny);
    cloth_strain(&s->c, &mean, &max);
    buf_printf(out,
               "\"t\":%.4f,\"particles\":%d,\"constraints\":%d,\"cx\":%.6g,\"cy\":%.6g,"
               "\"miny\":%.6g,\"ke\":%.6g,\"mean_strain\":%.6g,\"max_strain\":%.6g,"
               "\"torn\":%d,\"cut\":%d,\"look\":\"%s\",\"sweep\":\"%s\"",
               (double)s->c.time, s->c.n, s->c.nc, (double)cx, (double)cy, (double)miny,
               (double)cloth_kinetic_energy(&s->c), (double)mean, (double)max, s->c.torn,
               s->c.cut, s->strain_look ? "strain" : "fabric", s->c.grid ? "colour" : "seed");
}

/* --auto: grab the middle of the bottom edge, pull it around, let go, repeat. */
static void cloth_autopilot(void *p, double t, int w, int h, float *x, float *y, bool *down,
                            int *button)
{
    struct cloth_scene *s = p;
    const double period = 6.0;
    double ph = fmod(t, period) / period;
    *button = 0;
    *down = false;
    int i = (s->c.prm.h - 1) * s->c.prm.w + s->c.prm.w / 2;
    if (i < 0 || i >= s->c.n) {
        *x = (float)w * 0.5f, *y = (float)h * 0.5f;
        return;
    }
    float px = view_px(&s->view, s->c.x[i]), py = view_py(&s->view, s->c.y[i]);
    if (ph < 0.05 || ph >= 0.6) {
        *x = px, *y = py; /* hover over the particle, then press on it */
        *down = ph < 0.05 && ph > 0.02;
        return;
    }
    double q = (ph - 0.05) / 0.55;
    double a = 2.0 * 3.14159265 * q;
    *down = true;
    *x = (float)(w * (0.5 + 0.3 * sin(a)));
    *y = (float)(h * (0.78 - 0.18 * (1.0 - cos(a))));
}

static int cloth_param_changed(void *p, int i)
{
    struct cloth_scene *s = p;
    if (i == P_WIDTH || i == P_HEIGHT)
        s->auto_size = false;
    if (cloth_params[i].flags & PARAM_RESTART)
        return build(p) == 0 ? 0 : -1;
    return 0; /* the solver reads the rest at every step, the drawing every frame */
}

static void *cloth_member(void *p, const char *name)
{
    struct cloth_scene *s = p;
    const struct scene_member m[] = {
        {"cloth", &s->c},
        {"throw_release", &s->throw_release},
        {"strain_look", &s->strain_look},
    };
    return scene_member_pick(m, (int)(sizeof m / sizeof m[0]), name);
}

const struct scene_ops scene_cloth = {
    .name = "cloth",
    .title = "Position Based Dynamics: a cloth hanging from its corners",
    .hint = "drag the cloth; right-drag cuts",
    .mouse = "left drag grabs the nearest particle and pulls; right drag cuts (scissors)",
    .keys = "t tearing on/off, r a whole cloth again",
    .create = cloth_create,
    .destroy = cloth_destroy,
    .resize = cloth_resize,
    .detail = cloth_detail,
    .restart = cloth_restart,
    .steps_per_frame = cloth_steps_per_frame,
    .step = cloth_scene_step,
    .draw = cloth_draw,
    .zoom = cloth_zoom,
    .key = cloth_key,
    .hud = cloth_hud,
    .stats = cloth_stats,
    .json = cloth_json,
    .autopilot = cloth_autopilot,
    .params = cloth_params,
    .nparams = NPARAMS,
    .param_changed = cloth_param_changed,
    .member = cloth_member,
    .flags = SCENE_SEED_PAGE,
};
