/*
 * dye_scene.c — the dye scene: Stable Fluids with swirling coloured dye (seed
 * 004). Setup, parameters, the pointer's strokes, keys, the autopilot and the
 * statistics; the picture is dye_draw.c's. The dye grid is the canvas, one dye
 * cell a pixel; the velocity grid is the canvas divided by `grid scale`.
 */
#include "dye_scene.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define DYE_PEAK 10.0f      /* a stroke's dye at the middle of its ribbon, per channel */
#define DYE_HOLD 20.0f      /* ... added per second at a button held still */
#define DYE_PRESS 3.0f      /* ... and once where the button goes down */
#define HOLD_BELOW 0.2f     /* "still": moving less than this many radii a step */
#define FOLLOW 0.5f         /* the push: this fraction of the pointer's speed ... */
#define PUSH_MAX 0.25f      /* ... up to this many canvas long sides a second */
#define SWIRL 0.1f          /* tangential speed around the stroke / its push */
#define SWIRL_HOLD 12.0f    /* swirl (cells/s) added a step while held still, */
#define SPIN_AFTER 0.3f     /* ... in full once held this long (s) */
#define STAMP_GAP 0.5f      /* stamps this many radii apart */
#define MAX_STAMPS 256
#define HUE_TURN 1.5f       /* stroke per turn of the hue, in canvas long sides */
#define HUE_RATE 0.05f      /* ... and turns per second */
#define BURST_SPLATS 7
#define START_SPLATS 6
#define SPLAT_PEAK 16.0f    /* dye at a burst splat's centre */
#define GOLDEN 0.618034f    /* hue step between splats: never two alike */
#define SQRT_PI 1.7724539f
#define DYE_IDLE 2.5        /* s left alone before the autopilot stirs: while the
                             * start's splats (or a stroke) still show, so the
                             * canvas is never black (they are gone by 4.5 s) */

#define AT(field) offsetof(struct dye, field)
enum { P_SCALE = 8 };
static const struct param_def dye_params[] = {
    PARAM_DEF("viscosity", PARAM_FLOAT, AT(f.prm.viscosity), 0.0f, 20.0f, 0.25f, 0, NULL),
    PARAM_DEF("dye diffusion", PARAM_FLOAT, AT(f.prm.diffusion), 0.0f, 20.0f, 0.25f, 0, NULL),
    PARAM_DEF("dye decay", PARAM_FLOAT, AT(f.prm.decay), 0.0f, 5.0f, 0.05f, 0, "/s"),
    PARAM_DEF("velocity dissipation", PARAM_FLOAT, AT(f.prm.dissipation), 0.0f, 5.0f, 0.05f,
              0, "/s"),
    PARAM_DEF("vorticity", PARAM_FLOAT, AT(f.prm.vorticity), 0.0f, 40.0f, 1.0f, 0, NULL),
    PARAM_DEF("force", PARAM_FLOAT, AT(force), 0.0f, 5.0f, 0.1f, 0, NULL),
    PARAM_DEF("splat radius", PARAM_FLOAT, AT(radius), 1.0f, 30.0f, 0.5f, 0, "px"),
    PARAM_DEF("pressure accuracy", PARAM_FLOAT, AT(f.prm.tolerance), 1e-6f, 1e-1f, 10.0f,
              PARAM_LOG, NULL),
    [P_SCALE] = PARAM_DEF("grid scale", PARAM_INT, AT(scale), 1, 4, 1, 0, NULL),
    PARAM_DEF("shading", PARAM_BOOL, AT(shading), 0, 1, 1, 0, NULL),
};
#define NPARAMS ((int)(sizeof dye_params / sizeof dye_params[0]))

/* Dye cells at most for a picture finer than the canvas (quadrants, sextants):
 * a 250 x 70 terminal's, where the dye's advection still takes a few ms. */
#define DYE_FINE_MAX 140000L
/* Cells at most in either grid (the dye's, the velocity's) at any size: a
 * 600 x 250 terminal's canvas; a step there takes some 40 ms on one thread. */
#define DYE_CELLS_MAX 300000L

static void grid_for(const struct dye *d, int w, int h, int *nx, int *ny, int *dw, int *dh)
{
    if (d->opt.grid_w > 0) {
        *nx = *dw = d->opt.grid_w;
        *ny = *dh = d->opt.grid_h;
        return;
    }
    int s = clampi(d->scale, 1, 4), k = clampi(d->opt.px_scale, 1, 4);
    while (k > 1 && (long)k * k * w * h > DYE_FINE_MAX)
        k--;
    *dw = k * w, *dh = k * h; /* the dye as fine as the picture, within reason */
    if (d->opt.smaller) /* half the cells each way, drawn between them */
        *dw = (w + 1) / 2, *dh = (h + 1) / 2, s *= 2;
    /* A window of thousands of columns: at most DYE_CELLS_MAX cells in each
     * grid, the picture drawn between them, so that a step stays a step. */
    const double over = (double)*dw * *dh / (double)DYE_CELLS_MAX;
    if (over > 1.0)
        *dw = (int)floor(*dw / sqrt(over)), *dh = (int)floor(*dh / sqrt(over));
    while ((long)((w + s - 1) / s) * ((h + s - 1) / s) > DYE_CELLS_MAX)
        s++;
    *nx = (w + s - 1) / s, *ny = (h + s - 1) / s;
}

/* Canvas pixels to dye cells. */
static float to_dye_x(const struct dye *d, float x) { return x * (float)d->f.dw / (float)d->w; }
static float to_dye_y(const struct dye *d, float y) { return y * (float)d->f.dh / (float)d->h; }
/* The dye grid's longer side, in dye cells. */
static float dye_size(const struct dye *d)
{
    return (float)(d->f.dw > d->f.dh ? d->f.dw : d->f.dh);
}

/* A fully saturated colour of hue h (turns), times `amount`. */
static void hue_rgb(float h, float amount, float rgb[3])
{
    rgb_t c = rgb_hsv(h, 1.0f, 1.0f);
    rgb[0] = (float)rgb_r(c) / 255.0f * amount;
    rgb[1] = (float)rgb_g(c) / 255.0f * amount;
    rgb[2] = (float)rgb_b(c) / 255.0f * amount;
}

/* Dense splats of hues a golden turn apart, thrown gently in random directions. */
static void random_splats(struct dye *d, int n)
{
    float h = rng_float(&d->rng), size = dye_size(d);
    float small = (float)(d->f.dw < d->f.dh ? d->f.dw : d->f.dh);
    for (int k = 0; k < n; k++) {
        float x = (0.12f + 0.76f * rng_float(&d->rng)) * (float)d->f.dw;
        float y = (0.12f + 0.76f * rng_float(&d->rng)) * (float)d->f.dh;
        float speed = (0.15f + 0.2f * rng_float(&d->rng)) * size;
        float a = 6.2831853f * rng_float(&d->rng), rgb[3];
        hue_rgb(h + GOLDEN * (float)k, SPLAT_PEAK, rgb);
        float r = 0.07f * small + 2.0f;
        fluid_splat(&d->f, x, y, r, speed * cosf(a), speed * sinf(a),
                    (rng_float(&d->rng) - 0.5f) * speed, rgb);
    }
}

static void *dye_create(const struct scene_opts *o, int w, int h)
{
    struct dye *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->opt = *o;
    d->force = 1.0f;
    d->radius = 4.5f;
    d->scale = 1;
    d->shading = true;
    dye_tone_init(d);
    d->w = w, d->h = h;
    struct fluid_params fp;
    fluid_params_default(&fp);
    fp.decay = 0.5f; /* the scene's look: trails that fade within seconds, */
    fp.dissipation = 0.2f;
    fp.vorticity = 12.0f; /* and lively swirls */
    fp.stop = o->stop; /* input waiting ends a step between its passes */
    int nx, ny, dw, dh;
    grid_for(d, w, h, &nx, &ny, &dw, &dh);
    if (fluid_init(&d->f, &fp, nx, ny, dw, dh) != 0) {
        free(d);
        return NULL;
    }
    fluid_set_pool(&d->f, o->pool);
    d->rng.s = o->seed;
    random_splats(d, START_SPLATS);
    return d;
}

static void dye_destroy(void *s)
{
    struct dye *d = s;
    fluid_free(&d->f);
    free(d->col);
    free(d->scratch);
    free(d->light);
    free(d);
}

/* New grids for a w x h canvas; when memory runs out the old grids stay (the
 * drawing maps them onto the canvas) and the HUD says so. */
static int regrid(struct dye *d, int w, int h)
{
    int nx, ny, dw, dh;
    d->w = w, d->h = h;
    grid_for(d, w, h, &nx, &ny, &dw, &dh);
    d->resize_failed = fluid_resize(&d->f, nx, ny, dw, dh) != 0;
    return d->resize_failed ? -1 : 0;
}

static void dye_resize(void *s, int w, int h) { regrid(s, w, h); }

static bool dye_detail(void *s, int px_scale, bool smaller)
{
    struct dye *d = s;
    if (d->opt.px_scale != px_scale || d->opt.smaller != smaller) {
        d->opt.px_scale = px_scale, d->opt.smaller = smaller;
        regrid(d, d->w, d->h);
    }
    return true;
}

static void dye_restart(void *s)
{
    struct dye *d = s;
    fluid_clear(&d->f);
    d->rng.s = d->opt.seed;
    d->t = 0.0;
    d->hue = 0.0f;
    random_splats(d, START_SPLATS);
}

static int dye_steps_per_frame(void *s)
{
    (void)s;
    return 1;
}

/* The pointer's path in this step, in dye cells, with the arc length at each
 * point; a cursor walks it. */
#define PIECE_POINTS 64
struct piece {
    float xy[2 * PIECE_POINTS], s[PIECE_POINTS];
    int n, at;          /* points; the segment the cursor is on */
    float len;
};

static bool piece_init(const struct dye *d, const struct pointer *p, struct piece *pc)
{
    pc->n = clampi(p->npath, 1, PIECE_POINTS);
    pc->at = 0;
    pc->len = 0.0f;
    for (int i = 0; i < pc->n; i++) {
        int k = i + 1 == pc->n ? p->npath - 1 : i; /* a longer path keeps its end */
        pc->xy[2 * i] = to_dye_x(d, p->path[2 * k]);
        pc->xy[2 * i + 1] = to_dye_y(d, p->path[2 * k + 1]);
        if (i > 0)
            pc->len += hypotf(pc->xy[2 * i] - pc->xy[2 * i - 2],
                              pc->xy[2 * i + 1] - pc->xy[2 * i - 1]);
        pc->s[i] = pc->len;
    }
    return isfinite(pc->len);
}

/* The point at arc length s (never behind the last one asked for) and the
 * direction of the path there (0,0 where it has none). */
static void piece_point(struct piece *pc, float s, float *x, float *y, float *ux, float *uy)
{
    while (pc->at + 2 < pc->n && pc->s[pc->at + 1] < s)
        pc->at++;
    int k = pc->at, k1 = k + 1 < pc->n ? k + 1 : k;
    float seg = pc->s[k1] - pc->s[k];
    float t = seg > 0.0f ? clampf((s - pc->s[k]) / seg, 0.0f, 1.0f) : 1.0f;
    const float *a = pc->xy + 2 * k, *b = pc->xy + 2 * k1;
    *x = lerpf(a[0], b[0], t), *y = lerpf(a[1], b[1], t);
    *ux = seg > 0.0f ? (b[0] - a[0]) / seg : 0.0f;
    *uy = seg > 0.0f ? (b[1] - a[1]) / seg : 0.0f;
}

/*
 * Stamps along the pointer's path in this step, `gap` apart at the middles of
 * equal pieces. A row of Gaussians of radius r and amplitude a every g adds up
 * to a * sqrt(pi) r / g on its line, so amplitudes proportional to g lay the
 * same dye and push per distance at any speed; a button held still adds its
 * own share per second, and a swirl once it has been held a moment. On a
 * release, the way to where the button went up.
 */
static void stroke(struct dye *d, const struct pointer *p)
{
    struct piece pc;
    if (!piece_init(d, p, &pc) || (!p->down && !(pc.len > 0.0f)))
        return;
    float r = d->radius * (float)d->f.dw / (float)d->w, dt = d->f.prm.dt;
    int n = clampi((int)ceilf(pc.len / (STAMP_GAP * r)), 1, MAX_STAMPS);
    float g = pc.len / (float)n, line = g / (SQRT_PI * r);
    float still = p->down ? clampf(1.0f - pc.len / (HOLD_BELOW * r), 0.0f, 1.0f) : 0.0f;
    d->held = still > 0.0f && !p->pressed ? d->held + still * dt : 0.0f;
    float spin = still * clampf(d->held / SPIN_AFTER, 0.0f, 1.0f);
    float push = d->force * fminf(FOLLOW * pc.len / dt, PUSH_MAX * dye_size(d));
    float amount = DYE_PEAK * line + (still * DYE_HOLD * dt + (p->pressed ? DYE_PRESS : 0.0f))
                                         / (float)n;
    float swirl = d->force * (SWIRL * push * line + spin * SWIRL_HOLD / (float)n);
    if (p->button == 2)
        swirl = -swirl; /* right drag turns the other way */
    float turn = g / (HUE_TURN * dye_size(d)) + HUE_RATE * dt / (float)n;
    for (int k = 0; k < n; k++) {
        float x, y, ux, uy, rgb[3];
        piece_point(&pc, ((float)k + 0.5f) * g, &x, &y, &ux, &uy);
        d->hue = fmodf(d->hue + turn, 1.0f);
        hue_rgb(d->hue, amount, rgb);
        fluid_splat(&d->f, x, y, r, ux * push * line, uy * push * line, swirl, rgb);
    }
}

static void dye_step(void *s, const struct pointer *p)
{
    struct dye *d = s;
    if (p->down || p->released) /* a release ends the stroke where the button went up */
        stroke(d, p);
    fluid_step(&d->f);
    d->t += d->f.prm.dt;
}

static bool dye_key(void *s, int key)
{
    struct dye *d = s;
    switch (key) {
    case 'c':
        fluid_clear(&d->f);
        return true;
    case 'b':
        random_splats(d, BURST_SPLATS);
        return true;
    default:
        return false;
    }
}

static void dye_hud(void *s, char *out, size_t n)
{
    struct dye *d = s;
    snprintf(out, n, "grid %dx%d  dye %.2f%s", d->f.nx, d->f.ny, (double)fluid_total_dye(&d->f),
             d->resize_failed ? "  out of memory: old grid" : "");
}

static void dye_stats(void *s, char *out, size_t n)
{
    struct dye *d = s;
    snprintf(out, n, "grid %dx%d, dye %.2f, kinetic energy %.0f, pressure residual %.0e", d->f.nx,
             d->f.ny, (double)fluid_total_dye(&d->f), (double)fluid_kinetic_energy(&d->f),
             (double)d->f.residual);
}

/* The densest dye anywhere, any channel: what diffusion spreads and a held
 * button piles up (the total alone does not show either). */
static float dye_max(const struct fluid *f)
{
    float m = 0.0f;
    size_t nd = 3 * (size_t)f->dw * (size_t)f->dh;
    for (size_t i = 0; i < nd; i++)
        m = fmaxf(m, f->dye[i]);
    return m;
}

static void dye_json(void *s, struct buf *out)
{
    struct dye *d = s;
    buf_printf(out,
               "\"t\":%.4f,\"grid\":\"%dx%d\",\"dye_grid\":\"%dx%d\",\"dye\":%.6g,"
               "\"dye_max\":%.6g,\"ke\":%.6g,\"residual\":%.3g,\"cycles\":%d,\"shading\":%s",
               d->t, d->f.nx, d->f.ny, d->f.dw, d->f.dh, (double)fluid_total_dye(&d->f),
               (double)dye_max(&d->f), (double)fluid_kinetic_energy(&d->f),
               (double)d->f.residual, d->f.cycles, d->shading ? "true" : "false");
}

static void dye_autopilot(void *s, double t, int w, int h, float *x, float *y, bool *down,
                          int *button)
{
    (void)s;
    /* A Lissajous stroke that never stops, with a change of pace every few seconds. */
    double u = t + 0.6 * sin(t * 0.37);
    *x = (float)(w * (0.5 + 0.36 * sin(u * 1.1)));
    *y = (float)(h * (0.5 + 0.34 * sin(u * 1.7 + 0.8)));
    *down = true;
    *button = 0;
}

static int dye_param_changed(void *s, int i)
{
    struct dye *d = s;
    if (i == P_SCALE)
        return regrid(d, d->w, d->h);
    return 0; /* the solver reads the rest at every step */
}

static void *dye_member(void *s, const char *name)
{
    struct dye *d = s;
    const struct scene_member m[] = {
        {"fluid", &d->f},
        {"force", &d->force},
        {"radius", &d->radius},
        {"scale", &d->scale},
        {"shading", &d->shading},
    };
    return scene_member_pick(m, (int)(sizeof m / sizeof m[0]), name);
}

const struct scene_ops scene_dye = {
    .name = "dye",
    .title = "Stable Fluids: coloured dye swirling in a fluid",
    .hint = "drag to stir",
    .mouse = "drag to push dye (right drag swirls the other way)",
    .keys = "c clear  b burst of splats",
    .create = dye_create,
    .destroy = dye_destroy,
    .resize = dye_resize,
    .detail = dye_detail,
    .restart = dye_restart,
    .steps_per_frame = dye_steps_per_frame,
    .step = dye_step,
    .draw = dye_draw,
    .zoom = NULL,
    .key = dye_key,
    .hud = dye_hud,
    .stats = dye_stats,
    .json = dye_json,
    .autopilot = dye_autopilot,
    .idle_auto = DYE_IDLE,
    .params = dye_params,
    .nparams = NPARAMS,
    .param_changed = dye_param_changed,
    .member = dye_member,
    .flags = SCENE_GRID,
};
