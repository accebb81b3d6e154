/*
 * pbf_scene.c — the pbf scene: Position Based Fluids water in a box (seed 000).
 * Setup, the pointer (a left press holds a handful, a right drag pushes), the
 * pour, keys, the autopilot and the statistics; the picture is pbf_draw.c's.
 * --preset seed keeps the seed page exactly (its block, box and parameters).
 */
#include "pbf_scene.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STEPS_PER_FRAME 8    /* as the seed page */
#define WATER_MAX 6000       /* particles the default start makes at most: a full
                              * screen's frame on two threads within 33 ms (at 10,000
                              * the steps alone took 24 ms) */
#define POUR_CAP 1.5f        /* the pour key stops at this times the start */
#define POUR_SHARE 0.06f     /* one pour: this share of the start ... */
#define POUR_MIN 40          /* ... and at least this many */
#define POUR_SPEED 4.0f      /* m/s downwards out of the nozzle */
#define NOZZLE_PER 32        /* the nozzle: a particle wide for this many of the box, */
#define NOZZLE_MIN 2         /* ... at least this many */
#define NOZZLE_MAX 8         /* ... and at most this many */
#define DEFAULT_ITER 100     /* the default's iteration cap (the seed's) */
#define DEFAULT_ERROR 0.5f   /* and its density error tolerance, %: at 1 % a pool
                              * at rest breathes (the loop stops after one
                              * correction or none, and the water sinks and is
                              * pushed back by turns), and a throw into it now
                              * and then sets off a burst of speed */
#define DEFAULT_REST 2.0f    /* 1/s: rest damping of slow water (pbf.h), */
#define DEFAULT_REST_SPEED 0.3f /* m/s: ... below about this speed (a dam break's
                              * sloshing is gone by 15 s, a splash keeps its speed) */
#define GRAB_PX 3.0f         /* seed preset: press this close to a particle */
#define GRAB_RADIUS_PX 5.0f  /* default: the handful within this of the water grabbed */
#define GRAB_REACH_PX 5.0f   /* a press this close to water grabs it (3 cells up) */
#define GRAB_MAX 120         /* at most this many held */
#define THROW_MAX 12.0f      /* m/s: the fastest a release throws (the front of it) */
#define THROW_WINDOW 8       /* steps (a frame) a throw's speed is measured over */
#define THROW_STRETCH 0.5f   /* a thrown handful's front this share faster, its back slower, */
#define THROW_SQUEEZE 0.4f   /* its sides this share of the speed inwards (a stream), */
#define THROW_JITTER 0.05f   /* and each particle this share of it its own way (it breaks up) */
#define PUSH_PX 7.0f         /* radius of the right-drag push */
#define PUSH_GAIN 0.12f      /* share of the pointer's velocity given per step */
static int pour_step(struct pbf_scene *s);

#define AT(field) offsetof(struct pbf_scene, field)
static const struct param_def pbf_params[] = {
    PARAM_DEF("block width", PARAM_INT, AT(block_w), 1, 200, 1, PARAM_RESTART, NULL),
    PARAM_DEF("block height", PARAM_INT, AT(block_h), 1, 200, 1, PARAM_RESTART, NULL),
    PARAM_DEF("time step", PARAM_FLOAT, AT(sim.prm.dt), 0.001f, 0.02f, 0.001f, 0, "s"),
    PARAM_DEF("max density error", PARAM_FLOAT, AT(sim.prm.max_error_pct), 0.01f, 10.0f,
              0.05f, 0, "%"),
    PARAM_DEF("max iterations", PARAM_INT, AT(sim.prm.max_iter), 1, 500, 1, 0, NULL),
    PARAM_DEF("viscosity", PARAM_FLOAT, AT(sim.prm.viscosity), 0.0f, 1.0f, 0.01f, 0, NULL),
    PARAM_DEF("rest damping", PARAM_FLOAT, AT(sim.prm.rest_damping), 0.0f, 20.0f, 0.25f, 0,
              "1/s"),
    PARAM_DEF("rest speed", PARAM_FLOAT, AT(sim.prm.rest_speed), 0.0f, 2.0f, 0.05f, 0, "m/s"),
    PARAM_DEF("gravity", PARAM_FLOAT, AT(sim.prm.gravity), -100.0f, 100.0f, 0.5f, 0, NULL),
    PARAM_DEF("tensile s_corr", PARAM_BOOL, AT(sim.prm.scorr), 0, 1, 1, 0, NULL),
    PARAM_DEF("vorticity", PARAM_FLOAT, AT(sim.prm.vorticity), 0.0f, 5.0f, 0.05f, 0, NULL),
};
#define NPARAMS ((int)(sizeof pbf_params / sizeof pbf_params[0]))

/* ---- Setup ------------------------------------------------------------------- */

/* The solver works in the seed's units (metres, y up); the view maps them to
 * the canvas. The box is sized to the canvas when the scene starts: about one
 * canvas pixel a particle diameter, coarser where that would make more than
 * WATER_MAX particles, and the water a block over half the width and two
 * thirds of the height that collapses into a pool. A resize re-fits the view;
 * `r` rebuilds the box for the new canvas. */

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
    const int most = s->opt.smaller ? WATER_MAX / 2 : WATER_MAX;
    const float px = fmaxf(1.0f, sqrtf(area / 3.0f / (float)most));
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
    s->built_smaller = s->opt.smaller;
    s->start_water = sim->nfluid;
    s->pour_left = 0;
    s->trail_n = 0;
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
    p.stop = o->stop;
    s->block_w = s->block_h = 30;
    size_for_canvas(s);
    if (!o->preset_seed) {
        p.seed_quirk = false; /* the mean error, not the seed's running sum */
        p.max_iter = DEFAULT_ITER;
        p.max_error_pct = DEFAULT_ERROR;
        p.rest_damping = DEFAULT_REST;
        p.rest_speed = DEFAULT_REST_SPEED;
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
    water_draw_free(&s->draw);
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

static bool pbf_detail(void *p, int px_scale, bool smaller)
{
    struct pbf_scene *s = p;
    (void)px_scale; /* the drawing follows the image it is given */
    s->opt.smaller = smaller;
    return s->opt.preset_seed || s->built_smaller == smaller;
}

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

/* The held point after this step's move, at the end of the trail: inside the
 * box shrunk by r, where the water is held. */
static void trail_add(struct pbf_scene *s)
{
    const struct pbf *sim = &s->sim;
    const float r = sim->prm.radius;
    if (s->trail_n == PBF_TRAIL) {
        memmove(s->trail_x, s->trail_x + 1, (PBF_TRAIL - 1) * sizeof s->trail_x[0]);
        memmove(s->trail_y, s->trail_y + 1, (PBF_TRAIL - 1) * sizeof s->trail_y[0]);
        memmove(s->trail_t, s->trail_t + 1, (PBF_TRAIL - 1) * sizeof s->trail_t[0]);
        s->trail_n--;
    }
    s->trail_x[s->trail_n] = clampf(sim->grab_x, sim->xmin + r, sim->xmax - r);
    s->trail_y[s->trail_n] = clampf(sim->grab_y, sim->ymin + r, sim->ymax - r);
    const int n = s->trail_n;
    s->trail_t[n] = n > 0 ? s->trail_t[n - 1] + (double)sim->prm.dt : 0.0;
    s->trail_n++;
}

/* What a release throws with: the held point's mean velocity over THROW_WINDOW
 * steps, the fastest of the windows that end in the last THROW_WINDOW steps
 * (metres per second of the solver's time: the speed the water had in hand).
 * A release is seen a frame after the button went up, and the frame that saw
 * it may have held the water still; a hand that stopped for longer than that
 * before letting go drops the water rather than throwing it. */
static void throw_velocity(const struct pbf_scene *s, float *vx, float *vy)
{
    const int n = s->trail_n;
    float best = -1.0f;
    *vx = *vy = 0.0f;
    for (int k = n - 1; k >= 1 && k >= n - 1 - THROW_WINDOW; k--) {
        const int j = k >= THROW_WINDOW ? k - THROW_WINDOW : 0;
        const float dt = (float)(s->trail_t[k] - s->trail_t[j]);
        if (!(dt > 0.0f))
            continue;
        const float ux = (s->trail_x[k] - s->trail_x[j]) / dt;
        const float uy = (s->trail_y[k] - s->trail_y[j]) / dt;
        const float speed = hypotf(ux, uy);
        if (isfinite(speed) && speed > best)
            best = speed, *vx = ux, *vy = uy;
        if (j == 0)
            break;
    }
    /* THROW_MAX for the front of the handful, which leaves fastest. */
    const float top = THROW_MAX / (1.0f + THROW_STRETCH);
    if (best > top)
        *vx *= top / best, *vy *= top / best;
}

static void pbf_scene_step(void *p, const struct pointer *ptr)
{
    struct pbf_scene *s = p;
    const struct view *v = &s->view;
    float wx = view_wx(v, ptr->x1), wy = view_wy(v, ptr->y1);
    float vx = ptr->vx / v->zoom, vy = -ptr->vy / v->zoom;
    /* The nozzle follows the pointer where a person put it (a press, a drag, a
     * move the terminal reported), not where the app's pointer sits before any
     * report: terminals report no move without a button, and that place is the
     * canvas's corner, which would pour down the left wall. */
    const bool moved = s->ptr_seen && (ptr->x1 != s->ptr_x || ptr->y1 != s->ptr_y);
    if (isfinite(wx) && (ptr->down || moved))
        s->pour_x = wx;
    s->ptr_seen = true, s->ptr_x = ptr->x1, s->ptr_y = ptr->y1;
    if (ptr->pressed && ptr->button == 0) {
        s->trail_n = 0;
        grab(s, view_wx(v, ptr->x0), view_wy(v, ptr->y0));
    }
    if (s->sim.grabbed >= 0) {
        if (ptr->down && ptr->button == 0) {
            pbf_move_grab(&s->sim, wx, wy);
            trail_add(s);
        } else if (s->opt.preset_seed) { /* the seed's particle, with the pointer's velocity */
            const float speed = hypotf(vx, vy);
            const float k = speed > THROW_MAX ? THROW_MAX / speed : 1.0f;
            pbf_release(&s->sim, vx * k, vy * k);
        } else { /* a handful, thrown as water */
            float tx, ty;
            throw_velocity(s, &tx, &ty);
            pbf_throw(&s->sim, tx, ty, THROW_STRETCH, THROW_SQUEEZE, THROW_JITTER);
            s->trail_n = 0;
        }
    }
    if (ptr->down && ptr->button == 2)
        pbf_push(&s->sim, wx, wy, PUSH_PX / v->zoom, vx * PUSH_GAIN, vy * PUSH_GAIN);
    pour_step(s);
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

/* The pour key: POUR_SHARE of the start (at least POUR_MIN) more for the
 * stream to let out, as much as the cap leaves. Returns how many. */
static int pour(struct pbf_scene *s)
{
    const int cap = (int)(POUR_CAP * (float)s->start_water);
    int want = (int)(POUR_SHARE * (float)s->start_water);
    want = want < POUR_MIN ? POUR_MIN : want;
    const int room = cap - s->sim.nfluid - s->pour_left;
    want = want < room ? want : room;
    if (want <= 0)
        return 0;
    s->pour_left += want;
    return want;
}

/* Where a nozzle slot at x, whose mouth is at height top, lets out its next
 * particle: a diameter over the last one it let out, once that one has fallen
 * a diameter (so the stream leaves it as dense as water at rest); at the
 * mouth when nothing it let out is near. NAN: not yet. */
static float nozzle_room(const struct pbf *sim, float x, float top, float d)
{
    float last = -INFINITY;
    for (int i = 0; i < sim->nfluid; i++)
        if (fabsf(sim->x[i] - x) < 0.5f * d && sim->y[i] > top - 2.0f * d)
            last = fmaxf(last, sim->y[i]);
    const float y = last == -INFINITY ? top : last + d;
    return y <= top && clear_of_water(sim, x, y, 0.999f * d) ? y : NAN;
}

/* The stream, at every step while there is some to let out: a nozzle of a few
 * particles side by side just under the lid over pour_x, each slot letting out
 * a particle falling at POUR_SPEED once the last one has fallen clear of it.
 * Returns how many came out. */
static int pour_step(struct pbf_scene *s)
{
    struct pbf *sim = &s->sim;
    if (s->pour_left <= 0)
        return 0;
    const float d = 2.0f * sim->prm.radius;
    const int nozzle = clampi(sim->box_w / NOZZLE_PER, NOZZLE_MIN, NOZZLE_MAX);
    const float half = 0.5f * (float)(nozzle - 1) * d;
    const float mid = clampf(s->pour_x, sim->xmin + d + half, sim->xmax - d - half);
    float x[NOZZLE_MAX], y[NOZZLE_MAX];
    int n = 0;
    for (int k = 0; k < nozzle && n < s->pour_left; k++) {
        const float xk = mid - half + (float)k * d, yk = nozzle_room(sim, xk, sim->ymax - d, d);
        if (isfinite(yk))
            x[n] = xk, y[n] = yk, n++;
    }
    if (n == 0 || pbf_add_water(sim, x, y, n, 0.0f, -POUR_SPEED) != 0)
        return 0;
    s->pour_left -= n;
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

static void pbf_zoom(void *p, float x, float y, int clicks)
{
    struct pbf_scene *s = p;
    view_zoom(&s->view, x, y, clicks);
}

static void pbf_hud(void *p, char *out, size_t n)
{
    struct pbf_scene *s = p;
    snprintf(out, n, "t %.2fs  particles %d", (double)s->sim.time, s->sim.nfluid);
}

static void pbf_stats(void *p, char *out, size_t n)
{
    struct pbf_scene *s = p;
    snprintf(out, n, "%d particles, %d iterations a step, density error %.2f %%, kinetic energy %.3g",
             s->sim.nfluid, s->sim.iter, (double)pbf_density_err_pct(&s->sim),
             (double)pbf_kinetic_energy(&s->sim));
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
    .detail = pbf_detail,
    .steps_per_frame = pbf_steps_per_frame,
    .step = pbf_scene_step,
    .draw = pbf_draw,
    .zoom = pbf_zoom,
    .key = pbf_key,
    .hud = pbf_hud,
    .stats = pbf_stats,
    .json = pbf_json,
    .autopilot = pbf_autopilot,
    .params = pbf_params,
    .nparams = NPARAMS,
    .param_changed = pbf_param_changed,
    .member = pbf_member,
    .flags = SCENE_SEED_PAGE,
};
