/*
 * cloth.c — the cloth scene: Position Based Dynamics cloth (seed 002).
 *
 * The solver works in the seed's units (metres, y up, particle (0,0) at the
 * origin); the view fits the cloth, hanging from its top corners, into the
 * canvas. Off the seed preset the cloth's particle count follows the canvas (a
 * particle every ~CLOTH_PX pixels, the seed's 4:3). Drawing: anti-aliased lines
 * between particles coloured by strain over a dim shaded surface (see
 * cloth_draw); pinned particles in yellow, the grabbed one in red.
 */
#include "buf.h"
#include "cloth.h"
#include "scene.h"
#include "view.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLOTH_PX 4.0f       /* canvas pixels between neighbours, off the preset */
#define STEPS_PER_FRAME 8   /* as the seed page */
#define GRAB_PX 4.0f
#define STRAIN_RED 0.25f    /* area stretch drawn fully red */
#define FABRIC RGB(34, 58, 96)
#define THREAD RGB(170, 200, 235)

struct cloth_scene {
    struct scene_opts opt;
    struct cloth c;      /* c.prm holds the solver's parameters: the panel's too */
    bool throw_release;  /* release with the pointer's velocity */
    int w, h;
    struct view view;
    unsigned char *edge_h, *edge_v; /* scratch for drawing: intact edges */
    size_t edges_cap;
};

#define AT(field) offsetof(struct cloth_scene, field)
enum { P_WIDTH, P_HEIGHT, P_FIXED };
static const struct param_def cloth_params[] = {
    [P_WIDTH] = PARAM_DEF("width", PARAM_INT, AT(c.prm.w), 2, 300, 1, PARAM_RESTART, NULL),
    [P_HEIGHT] = PARAM_DEF("height", PARAM_INT, AT(c.prm.h), 2, 300, 1, PARAM_RESTART, NULL),
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
    PARAM_DEF("tear strain", PARAM_FLOAT, AT(c.prm.tear_strain), 0.05f, 5.0f, 0.05f, 0,
              NULL),
    PARAM_DEF("release with velocity", PARAM_BOOL, AT(throw_release), 0, 1, 1, 0, NULL),
};
#define NPARAMS ((int)(sizeof cloth_params / sizeof cloth_params[0]))

/* The view that shows the cloth hanging: its rest rectangle, a little room below. */
static void fit_view(struct cloth_scene *s)
{
    float sp = s->c.prm.spacing;
    float cw = sp * (float)(s->c.prm.w - 1), ch = sp * (float)(s->c.prm.h - 1);
    view_fit(&s->view, -0.25f * cw, -1.25f * ch, 1.25f * cw, 0.1f * ch, s->w, s->h, 1.0f);
}

/* A new cloth from the parameters in s->c.prm; on failure the old one stays. */
static int build(struct cloth_scene *s)
{
    struct cloth fresh;
    if (cloth_init(&fresh, &s->c.prm) != 0)
        return -1;
    cloth_free(&s->c);
    s->c = fresh;
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
    struct cloth_params p;
    cloth_params_seed(&p);
    if (!o->preset_seed) {
        /* 4:3 like the seed, filling about 60 % of the canvas's width. */
        int cw = clampi((int)(0.6f * (float)w / CLOTH_PX) + 1, 6, 160);
        int ch = clampi((int)(0.75f * (float)(cw - 1)) + 1, 4, 120);
        int chmax = clampi((int)(0.75f * (float)h / CLOTH_PX) + 1, 4, 120);
        p.w = cw, p.h = ch < chmax ? ch : chmax;
    }
    s->throw_release = !o->preset_seed;
    if (cloth_init(&s->c, &p) != 0) {
        free(s);
        return NULL;
    }
    fit_view(s);
    return s;
}

static void cloth_destroy(void *p)
{
    struct cloth_scene *s = p;
    cloth_free(&s->c);
    free(s->edge_h);
    free(s->edge_v);
    free(s);
}

static void cloth_resize(void *p, int w, int h)
{
    struct cloth_scene *s = p;
    s->w = w, s->h = h;
    fit_view(s);
}

static void cloth_restart(void *p) { build(p); }

static int cloth_steps_per_frame(void *p)
{
    (void)p;
    return STEPS_PER_FRAME;
}

static void cloth_scene_step(void *p, const struct pointer *ptr)
{
    struct cloth_scene *s = p;
    const struct view *v = &s->view;
    if (ptr->pressed && s->c.grabbed < 0) {
        float x = view_wx(v, ptr->x0), y = view_wy(v, ptr->y0);
        int i = cloth_nearest(&s->c, x, y, GRAB_PX / v->zoom);
        if (i >= 0)
            cloth_grab(&s->c, i, x, y);
    }
    if (s->c.grabbed >= 0) {
        if (ptr->down)
            cloth_move_grab(&s->c, view_wx(v, ptr->x1), view_wy(v, ptr->y1));
        else
            cloth_release(&s->c, s->throw_release, ptr->vx / v->zoom, -ptr->vy / v->zoom);
    }
    cloth_step(&s->c);
}

/* Which structural edges are alive (tearing removes some): horizontal edge
 * (i,j)-(i,j+1) at h[i*w+j], vertical (i,j)-(i+1,j) at v[i*w+j]. */
static void alive_edges(struct cloth_scene *s)
{
    const struct cloth *c = &s->c;
    size_t n = (size_t)c->n;
    if (s->edges_cap < n) {
        s->edge_h = buf_xrealloc(s->edge_h, n);
        s->edge_v = buf_xrealloc(s->edge_v, n);
        s->edges_cap = n;
    }
    memset(s->edge_h, 0, n);
    memset(s->edge_v, 0, n);
    for (int k = 0; k < c->nc; k++) {
        int a = c->c1[k] < c->c2[k] ? c->c1[k] : c->c2[k];
        int d = abs(c->c1[k] - c->c2[k]);
        if (d == 1)
            s->edge_h[a] = 1;
        else if (d == c->prm.w)
            s->edge_v[a] = 1;
    }
}

static float tri_area(const struct cloth *c, int a, int b, int d)
{
    return 0.5f * fabsf((c->x[b] - c->x[a]) * (c->y[d] - c->y[a]) -
                        (c->y[b] - c->y[a]) * (c->x[d] - c->x[a]));
}

static rgb_t strain_colour(float e)
{
    /* Slack -> pale blue, at rest -> light, stretched -> red. */
    if (e < 0.0f)
        return rgb_mix(THREAD, RGB(90, 120, 190), clampf(-e / STRAIN_RED, 0, 1));
    return rgb_mix(THREAD, RGB(255, 60, 40), clampf(e / STRAIN_RED, 0, 1));
}

static void thread(struct image *im, const struct view *v, const struct cloth *c, int a, int b)
{
    float dx = c->x[a] - c->x[b], dy = c->y[a] - c->y[b];
    float e = (sqrtf(dx * dx + dy * dy) - c->prm.spacing) / c->prm.spacing;
    image_line(im, view_px(v, c->x[a]), view_py(v, c->y[a]), view_px(v, c->x[b]),
               view_py(v, c->y[b]), strain_colour(e));
}

/*
 * The cloth as a filled surface: each grid cell whose four sides are intact is
 * two triangles, shaded by how its area compares with its rest area (folds and
 * compression darker, stretch lighter and redder); over it the threads, the
 * structural constraints as anti-aliased lines coloured by strain.
 */
static void cloth_draw(void *p, struct image *im)
{
    struct cloth_scene *s = p;
    image_fill(im, RGB(12, 12, 18));
    const struct cloth *c = &s->c;
    const struct view *v = &s->view;
    int w = c->prm.w, h = c->prm.h;
    float rest = c->prm.spacing * c->prm.spacing;
    alive_edges(s);
    for (int i = 0; i + 1 < h; i++)
        for (int j = 0; j + 1 < w; j++) {
            int a = i * w + j, b = a + 1, d = a + w, e = d + 1;
            if (!s->edge_h[a] || !s->edge_h[d] || !s->edge_v[a] || !s->edge_v[b])
                continue;
            float ratio = (tri_area(c, a, b, e) + tri_area(c, a, e, d)) / rest;
            if (!isfinite(ratio))
                continue;
            float stretch = clampf((ratio - 1.0f) / STRAIN_RED, 0.0f, 1.0f);
            rgb_t col = rgb_mix(FABRIC, RGB(235, 70, 50), stretch);
            col = rgb_scale(col, clampf(0.8f + 0.6f * (ratio - 1.0f), 0.3f, 1.25f));
            float ax = view_px(v, c->x[a]), ay = view_py(v, c->y[a]);
            float bx = view_px(v, c->x[b]), by = view_py(v, c->y[b]);
            float dx = view_px(v, c->x[d]), dy = view_py(v, c->y[d]);
            float ex = view_px(v, c->x[e]), ey = view_py(v, c->y[e]);
            image_triangle(im, ax, ay, bx, by, ex, ey, col);
            image_triangle(im, ax, ay, ex, ey, dx, dy, col);
        }
    /* The threads: anti-aliased lines along every intact structural constraint,
     * coloured by its strain. */
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            int a = i * w + j;
            if (j + 1 < w && s->edge_h[a])
                thread(im, v, c, a, a + 1);
            if (i + 1 < h && s->edge_v[a])
                thread(im, v, c, a, a + w);
        }
    for (int i = 0; i < c->n; i++)
        if (c->fixed[i])
            image_disc(im, view_px(v, c->x[i]), view_py(v, c->y[i]), 1.2f, RGB(255, 210, 60), 1.0f);
    if (c->grabbed >= 0)
        image_disc(im, view_px(v, c->x[c->grabbed]), view_py(v, c->y[c->grabbed]), 1.5f,
                   RGB(255, 30, 30), 1.0f);
}

static void cloth_zoom(void *p, float x, float y, int clicks)
{
    struct cloth_scene *s = p;
    view_zoom(&s->view, x, y, clicks);
}

static bool cloth_key(void *p, int key)
{
    struct cloth_scene *s = p;
    if (key != 't')
        return false;
    s->c.prm.tearing = !s->c.prm.tearing;
    return true;
}

static void cloth_hud(void *p, char *out, size_t n)
{
    struct cloth_scene *s = p;
    snprintf(out, n, "t %.2fs  particles %d  constraints %d%s", (double)s->c.time, s->c.n,
             s->c.nc, s->c.prm.tearing ? "  tearing" : "");
}

static void cloth_json(void *p, struct buf *out)
{
    struct cloth_scene *s = p;
    float cx, cy, miny, mean, max;
    cloth_centroid(&s->c, &cx, &cy, &miny);
    cloth_strain(&s->c, &mean, &max);
    buf_printf(out,
               "\"t\":%.4f,\"particles\":%d,\"constraints\":%d,\"cx\":%.6g,\"cy\":%.6g,"
               "\"miny\":%.6g,\"ke\":%.6g,\"mean_strain\":%.6g,\"max_strain\":%.6g",
               (double)s->c.time, s->c.n, s->c.nc, (double)cx, (double)cy, (double)miny,
               (double)cloth_kinetic_energy(&s->c), (double)mean, (double)max);
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
    if (cloth_params[i].flags & PARAM_RESTART)
        return build(p) == 0 ? 0 : -1;
    return 0; /* the solver reads the rest at every step */
}

const struct scene_ops scene_cloth = {
    .name = "cloth",
    .title = "Position Based Dynamics: a cloth hanging from its corners",
    .hint = "drag the cloth",
    .mouse = "drag grabs the nearest particle and pulls; release lets go",
    .keys = "t tearing on/off",
    .create = cloth_create,
    .destroy = cloth_destroy,
    .resize = cloth_resize,
    .restart = cloth_restart,
    .steps_per_frame = cloth_steps_per_frame,
    .step = cloth_scene_step,
    .draw = cloth_draw,
    .zoom = cloth_zoom,
    .key = cloth_key,
    .hud = cloth_hud,
    .json = cloth_json,
    .autopilot = cloth_autopilot,
    .params = cloth_params,
    .nparams = NPARAMS,
    .param_changed = cloth_param_changed,
};
