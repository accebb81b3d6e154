/*
 * dye.c — the dye scene: Stable Fluids with swirling coloured dye (seed 004).
 *
 * The dye grid is the canvas (one dye cell per pixel); the velocity grid is the
 * canvas divided by `grid scale` (both fixed by --grid instead, for headless
 * runs). A drag stamps Gaussian splats along the pointer's path in this step:
 * velocity from the pointer's speed times `force`, a swirl around the pointer and
 * dye whose hue cycles over time; a button held still keeps injecting gently.
 * Drawing maps dye to pixels with a tone curve on the brightest channel, which
 * keeps hue and saturation (no blow-out to white), over a dark background.
 */
#include "fluid.h"
#include "scene.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define DYE_AMOUNT 0.5f      /* dye a stroke lays down per step, per channel at peak */
#define DYE_HOLD 0.15f       /* ... and while the button is held still */
#define SWIRL_SPEED 0.35f    /* tangential speed around the pointer / its speed */
#define SWIRL_HOLD 12.0f     /* swirl (px/s) while held still */
#define HUE_RATE 0.15f       /* hue turns per second */
#define EXPOSURE 1.8f        /* tone curve: 1 - exp(-EXPOSURE * dye) */
#define BURST_SPLATS 7
#define START_SPLATS 5
static const rgb_t background = RGB(6, 6, 12);

struct dye {
    struct scene_opts opt;
    struct fluid f;     /* f.prm holds the solver's parameters: the panel's too */
    float force;        /* the stroke's push, times the pointer's velocity */
    float radius;       /* splat radius, canvas pixels */
    int scale;          /* canvas pixels per velocity cell */
    bool resize_failed; /* the last resize ran out of memory: the old grid stays */
    int w, h;           /* canvas */
    struct rng rng;
    double t;           /* scene time, seconds */
};

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
};
#define NPARAMS ((int)(sizeof dye_params / sizeof dye_params[0]))

static void grid_for(const struct dye *d, int w, int h, int *nx, int *ny, int *dw, int *dh)
{
    if (d->opt.grid_w > 0) {
        *nx = *dw = d->opt.grid_w;
        *ny = *dh = d->opt.grid_h;
        return;
    }
    int s = clampi(d->scale, 1, 4);
    *dw = w, *dh = h;
    *nx = (w + s - 1) / s, *ny = (h + s - 1) / s;
}

/* Canvas pixels to dye cells. */
static float to_dye_x(const struct dye *d, float x) { return x * (float)d->f.dw / (float)d->w; }
static float to_dye_y(const struct dye *d, float y) { return y * (float)d->f.dh / (float)d->h; }

static void random_splats(struct dye *d, int n)
{
    for (int k = 0; k < n; k++) {
        float x = (0.1f + 0.8f * rng_float(&d->rng)) * (float)d->f.dw;
        float y = (0.1f + 0.8f * rng_float(&d->rng)) * (float)d->f.dh;
        float speed = 0.6f * (float)(d->f.dw > d->f.dh ? d->f.dw : d->f.dh);
        float a = 6.2831853f * rng_float(&d->rng);
        rgb_t c = rgb_hsv(rng_float(&d->rng), 0.9f, 1.0f);
        float rgb[3] = {(float)rgb_r(c) / 255.0f * 1.5f, (float)rgb_g(c) / 255.0f * 1.5f,
                        (float)rgb_b(c) / 255.0f * 1.5f};
        float r = 0.05f * (float)(d->f.dw < d->f.dh ? d->f.dw : d->f.dh) + 2.0f;
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
    d->radius = 3.5f;
    d->scale = 1;
    d->w = w, d->h = h;
    struct fluid_params fp;
    fluid_params_default(&fp);
    fp.decay = 0.5f; /* the scene's look: trails that fade within seconds, */
    fp.dissipation = 0.2f;
    fp.vorticity = 12.0f; /* and lively swirls */
    int nx, ny, dw, dh;
    grid_for(d, w, h, &nx, &ny, &dw, &dh);
    if (fluid_init(&d->f, &fp, nx, ny, dw, dh) != 0) {
        free(d);
        return NULL;
    }
    d->rng.s = o->seed;
    random_splats(d, START_SPLATS);
    return d;
}

static void dye_destroy(void *s)
{
    struct dye *d = s;
    fluid_free(&d->f);
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

static void dye_restart(void *s)
{
    struct dye *d = s;
    fluid_clear(&d->f);
    d->rng.s = d->opt.seed;
    d->t = 0.0;
    random_splats(d, START_SPLATS);
}

static int dye_steps_per_frame(void *s)
{
    (void)s;
    return 1;
}

/* Splats along the pointer's path in this step, half a radius apart. */
static void stroke(struct dye *d, const struct pointer *p)
{
    float vx = to_dye_x(d, p->vx), vy = to_dye_y(d, p->vy);
    float r = d->radius * (float)d->f.dw / (float)d->w;
    float len = 0.0f, speed = hypotf(vx, vy);
    for (int i = 0; i + 1 < p->npath; i++)
        len += hypotf(to_dye_x(d, p->path[2 * i + 2] - p->path[2 * i]),
                      to_dye_y(d, p->path[2 * i + 3] - p->path[2 * i + 1]));
    if (!isfinite(len) || !isfinite(speed))
        return;
    int n = (int)ceilf(len / (0.5f * r)) + 1;
    if (n > 256)
        n = 256;
    bool still = len < 0.25f;
    rgb_t c = rgb_hsv((float)(d->t * HUE_RATE), 0.85f, 1.0f);
    float amount = (still ? DYE_HOLD : DYE_AMOUNT) / (float)n * (len > r ? len / r : 1.0f);
    float rgb[3] = {(float)rgb_r(c) / 255.0f * amount, (float)rgb_g(c) / 255.0f * amount,
                    (float)rgb_b(c) / 255.0f * amount};
    float force = d->force / (float)n;
    float swirl = (still ? SWIRL_HOLD : SWIRL_SPEED * speed) * d->force / (float)n;
    if (p->button == 2)
        swirl = -swirl; /* right drag turns the other way */
    /* Walk the path, a stamp every len/(n-1). */
    float gap = n > 1 ? len / (float)(n - 1) : 0.0f, next = 0.0f, walked = 0.0f;
    int stamps = 0;
    for (int i = 0; i + 1 < p->npath && stamps < n; i++) {
        float ax = to_dye_x(d, p->path[2 * i]), ay = to_dye_y(d, p->path[2 * i + 1]);
        float bx = to_dye_x(d, p->path[2 * i + 2]), by = to_dye_y(d, p->path[2 * i + 3]);
        float seg = hypotf(bx - ax, by - ay);
        while (stamps < n && (next <= walked + seg || i + 2 == p->npath)) {
            float t = seg > 0.0f ? clampf((next - walked) / seg, 0.0f, 1.0f) : 1.0f;
            fluid_splat(&d->f, lerpf(ax, bx, t), lerpf(ay, by, t), r, vx * force, vy * force,
                        swirl, rgb);
            stamps++;
            next += gap;
            if (gap <= 0.0f && stamps >= n)
                break;
        }
        walked += seg;
    }
}

static void dye_step(void *s, const struct pointer *p)
{
    struct dye *d = s;
    if (p->down)
        stroke(d, p);
    fluid_step(&d->f);
    d->t += d->f.prm.dt;
}

static void dye_draw(void *s, struct image *im)
{
    struct dye *d = s;
    const struct fluid *f = &d->f;
    float br = (float)rgb_r(background), bgc = (float)rgb_g(background),
          bb = (float)rgb_b(background);
    for (int y = 0; y < im->h; y++)
        for (int x = 0; x < im->w; x++) {
            int i = f->dw == im->w ? x : (int)(((float)x + 0.5f) * (float)f->dw / (float)im->w);
            int j = f->dh == im->h ? y : (int)(((float)y + 0.5f) * (float)f->dh / (float)im->h);
            i = clampi(i, 0, f->dw - 1), j = clampi(j, 0, f->dh - 1);
            const float *c = f->dye + 3 * ((size_t)j * (size_t)f->dw + (size_t)i);
            float r = fmaxf(c[0], 0.0f), g = fmaxf(c[1], 0.0f), b = fmaxf(c[2], 0.0f);
            float m = fmaxf(r, fmaxf(g, b));
            float k = m > 1e-6f ? (1.0f - expf(-EXPOSURE * m)) / m : EXPOSURE;
            r *= k, g *= k, b *= k;
            im->px[(size_t)y * (size_t)im->w + (size_t)x] =
                RGB(clampi((int)(br + (255.0f - br) * r + 0.5f), 0, 255),
                    clampi((int)(bgc + (255.0f - bgc) * g + 0.5f), 0, 255),
                    clampi((int)(bb + (255.0f - bb) * b + 0.5f), 0, 255));
        }
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
    snprintf(out, n, "grid %dx%d  dye %.2f  ke %.0f  res %.0e%s", d->f.nx, d->f.ny,
             (double)fluid_total_dye(&d->f), (double)fluid_kinetic_energy(&d->f),
             (double)d->f.residual, d->resize_failed ? "  out of memory: old grid" : "");
}

static void dye_json(void *s, struct buf *out)
{
    struct dye *d = s;
    buf_printf(out,
               "\"t\":%.4f,\"grid\":\"%dx%d\",\"dye_grid\":\"%dx%d\",\"dye\":%.6g,"
               "\"ke\":%.6g,\"residual\":%.3g,\"cycles\":%d",
               d->t, d->f.nx, d->f.ny, d->f.dw, d->f.dh, (double)fluid_total_dye(&d->f),
               (double)fluid_kinetic_energy(&d->f), (double)d->f.residual, d->f.cycles);
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

const struct scene_ops scene_dye = {
    .name = "dye",
    .title = "Stable Fluids: coloured dye swirling in a fluid",
    .hint = "drag to stir",
    .mouse = "drag to push dye (right drag swirls the other way)",
    .keys = "c clear  b burst of splats",
    .create = dye_create,
    .destroy = dye_destroy,
    .resize = dye_resize,
    .restart = dye_restart,
    .steps_per_frame = dye_steps_per_frame,
    .step = dye_step,
    .draw = dye_draw,
    .zoom = NULL,
    .key = dye_key,
    .hud = dye_hud,
    .json = dye_json,
    .autopilot = dye_autopilot,
    .params = dye_params,
    .nparams = NPARAMS,
    .param_changed = dye_param_changed,
};
