/*
 * cloth.c — the cloth scene: Position Based Dynamics cloth (seed 002).
 *
 * The solver works in the seed's units (metres, y up, particle (0,0) at the
 * origin); the view hangs the cloth's top edge just under the top of the canvas,
 * its rest height a fixed share of it. Off the seed preset the grid follows the
 * canvas: at least the seed's 40 x 30, more where there is room for a particle
 * every PX_TARGET pixels, always the seed's 7.8 m x 5.8 m of cloth (finer grids
 * take more substeps, to stretch as little), solved by colour (cloth_grid.c:
 * vectors and threads, several times faster than the seed's order). The left
 * button grabs and pulls; the right button cuts (scissors: the constraints the
 * stroke crosses break).
 *
 * Drawing (cloth_draw): by default the cloth as fabric, a surface shaded from its
 * own deformation (see shade_vertex): compressed cloth would buckle out of the
 * plane, so every fibre shorter than at rest tilts the surface as its
 * foreshortening implies, waved into folds; stretch shows as sheen, a triangle
 * turned over as the fabric's back; free edges (the hem, every cut) get a dark
 * line; zoomed in, the weave shows. The panel's "strain colours" draws the net
 * coloured by strain instead (the seed preset starts so). Pins are yellow, the
 * grabbed particle red.
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

#define STEPS_PER_FRAME 8   /* as the seed page */
#define GRAB_PX 4.0f
#define MIN_COLS 40         /* the seed's grid, the least off the preset */
#define MIN_ROWS 30
#define MAX_SIDE 300        /* the panel's largest width or height */
#define PX_TARGET 1.5f      /* canvas pixels between neighbours where there is room */
#define FILL_H 0.74f        /* the rest height as a share of the canvas's height */
#define FILL_W 0.8f         /* ... and the most of its width */
#define TOP_PX 1.5f         /* the pins' distance from the top of the canvas */
#define SEED_WIDTH_M 7.8f   /* the seed's cloth: 39 spacings of 0.2 m */
#define TRAIL 12            /* stroke points the scissors cut along (again: cloth) */
#define ANCHOR_SPACINGS 2.0f /* ... each moving with a particle this near */
#define MEND_SECONDS 2.0f   /* the cloth fallen out of view this long: a whole one
                             * hangs again (torn or cut off its pins) ... */
#define MEND_SCRAP 0.05f    /* ... all but this share of its particles, at most */

/* ---- the look ---------------------------------------------------------------- */
#define BACKGROUND RGB(16, 18, 26)
#define HIGHLIGHT_LUM 0.45f /* brightness above 1 that reaches the highlight */
#define SHEEN 70.0f         /* added to each channel where fully stretched */
#define STRETCH_FULL 0.12f  /* principal stretch beyond rest for full sheen */
#define FOLD_WAVE_M 0.7f    /* wavelength of the folds in the cloth, metres, */
#define FOLD_WAVE_PX 7.0f   /* ... or this many pixels of the fitted view if more */
#define SLOPE_MAX 2.5f      /* steepest fold slope */
#define DEAD_ZONE 0.008f    /* fibre compression ignored (solver noise) */
#define DRAPE_WAVE_M 1.3f   /* the drape's folds across the cloth, metres apart */
#define DRAPE_SLOPE 0.3f    /* ... their steepest slope */
#define DRAPE_FADE_M 1.5f   /* ... reached this far below the top edge */
#define AMBIENT 0.32f
#define DIFFUSE 0.72f
#define FORESHORTEN 0.5f    /* how much an edge-on (shrunk) area darkens */
#define SIDE_BAND 0.3f      /* area ratios -0.3..0.3 blend face and back */
#define WEAVE_PX0 4.0f      /* the weave starts to show at this spacing ... */
#define WEAVE_PX1 10.0f     /* ... and is fully there at this one */
#define WEAVE_DEPTH 0.35f
#define STRAIN_RED 0.25f    /* strain look: area stretch drawn fully red */
#define FABRIC RGB(34, 58, 96)
#define THREAD RGB(170, 200, 235)
#define PIN RGB(255, 210, 60)
#define GRABBED RGB(255, 30, 30)
#define BLADE RGB(235, 235, 240)

/* The fabric's face and its back (paler, duller): shadow, colour, highlight. */
static const float front_tone[3][3] = {{14, 16, 58}, {58, 104, 206}, {150, 196, 255}};
static const float back_tone[3][3] = {{26, 32, 70}, {104, 128, 196}, {176, 198, 240}};

/* The light: from the upper left and in front (screen x right, y down, z out). */
static const float light[3] = {-0.42f, -0.58f, 0.70f};

/* The kinds of edge, numbered as the bits of cloth_edges (CLOTH_RIGHT = 1 << E_H
 * ...): (i,i+1) (i,i+w) (i,i+w+1) (i+1,i+w). */
enum { E_H, E_V, E_D1, E_D2, EDGE_KINDS };

/* Per particle, per frame: where it is on the canvas and its shading. */
struct node {
    float x, y;          /* canvas pixels */
    float lum;           /* brightness factor */
    float sheen;         /* 0..1, the stretch highlight */
    float back;          /* 0 the fabric's face shows, 1 its back (turned over) */
};

/* A point of the blade's stroke, as the cloth sees it: the particle nearest
 * it when it was made (-1: none near, the point stays put) and the offset
 * from that particle, in metres. */
struct blade_point {
    int at;
    float dx, dy;
};

struct cloth_scene {
    struct scene_opts opt;
    struct cloth c;      /* c.prm holds the solver's parameters: the panel's too */
    bool throw_release;  /* release with the pointer's velocity */
    bool strain_look;    /* draw the net coloured by strain, not the fabric */
    bool auto_size;      /* the grid follows the canvas at a restart */
    int w, h;
    struct view view;
    struct node *node;   /* drawing scratch, one per particle: */
    unsigned char *edges; /* cloth_edges */
    float *tan;          /* cloth_tangents, then smoothed */
    int *tri;            /* cloth_triangles, and their edges' uses */
    unsigned char *uses;
    size_t node_cap;
    bool cutting;        /* the right button is down: draw the blade */
    float blade_x, blade_y;
    struct blade_point trail[TRAIL]; /* the blade's last points (scissors) */
    int ntrail;
    float gone_for;      /* seconds the cloth has been out of view (mend_when_gone) */
};

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
};
#define NPARAMS ((int)(sizeof cloth_params / sizeof cloth_params[0]))

/* ---- size and view ------------------------------------------------------------ */

/* Off the preset: the grid for a w x h canvas (the seed's 39:29 spacings, at
 * least 40 x 30), its spacing (the seed's width of cloth) and substeps. */
static void size_for_canvas(struct cloth_params *p, int w, int h)
{
    int rows = (int)(FILL_H * (float)h / PX_TARGET) + 1;
    int cols_room = (int)(FILL_W * (float)w / PX_TARGET) + 1;
    rows = clampi(rows, MIN_ROWS, MAX_SIDE);
    int cols = (int)lrintf((float)(rows - 1) * 39.0f / 29.0f) + 1;
    if (cols > cols_room) { /* a tall, narrow canvas: the width decides */
        cols = clampi(cols_room, MIN_COLS, MAX_SIDE);
        rows = clampi((int)lrintf((float)(cols - 1) * 29.0f / 39.0f) + 1, MIN_ROWS, MAX_SIDE);
    }
    p->w = clampi(cols, MIN_COLS, MAX_SIDE);
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
    s->auto_size = !o->preset_seed;
    if (s->auto_size)
        size_for_canvas(&s->c.prm, w, h);
    s->throw_release = !o->preset_seed;
    s->c.prm.upright = !o->preset_seed; /* thrown over its pins, it falls open */
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

/* r: a whole cloth again. Sized to the canvas as it is now, unless the width or
 * height was set by hand (the other parameters stay as they are). */
static void cloth_restart(void *p)
{
    struct cloth_scene *s = p;
    struct cloth_params keep = s->c.prm, want = s->c.prm;
    if (s->auto_size) {
        size_for_canvas(&want, s->w, s->h);
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

/* ---- drawing: the mesh ------------------------------------------------------------ */

/* The drawing's scratch for the cloth as it is: canvas positions, s->edges. */
static void mesh_nodes(struct cloth_scene *s)
{
    const struct cloth *c = &s->c;
    size_t n = (size_t)c->n;
    if (s->node_cap < n) {
        s->node = buf_xrealloc(s->node, n * sizeof *s->node);
        s->edges = buf_xrealloc(s->edges, n);
        s->uses = buf_xrealloc(s->uses, 4 * n);
        s->tan = buf_xrealloc(s->tan, 8 * n * sizeof *s->tan); /* and smoothed */
        s->tri = buf_xrealloc(s->tri, 6 * n * sizeof *s->tri);
        s->node_cap = n;
    }
    for (int i = 0; i < c->n; i++) {
        s->node[i].x = view_px(&s->view, c->x[i]);
        s->node[i].y = view_py(&s->view, c->y[i]);
    }
    cloth_edges(c, s->edges);
}

static bool alive(const struct cloth_scene *s, int i, int k) { return s->edges[i] >> k & 1; }

/* Folds from compression: the slope vector (gx, gy) on the canvas at rest
 * position (u, v) (in spacings) for the tangents fu, fv (see shade_vertex). */
static void fold_slopes(const float fu[2], const float fv[2], float u, float v, float k,
                        float *gx, float *gy)
{
    const float r = 0.70710678f;
    const float fib[4][2] = {{fu[0], fu[1]}, {fv[0], fv[1]},
                             {r * (fu[0] + fv[0]), r * (fu[1] + fv[1])},
                             {r * (fu[0] - fv[0]), r * (fu[1] - fv[1])}};
    const float phase[4] = {k * u, k * v + 1.7f, k * r * (u + v) + 0.6f, k * r * (u - v) + 2.9f};
    for (int d = 0; d < 4; d++) {
        float l = sqrtf(fib[d][0] * fib[d][0] + fib[d][1] * fib[d][1]);
        float lc = l / (1.0f - DEAD_ZONE);
        if (!(lc < 1.0f) || !(l > 1e-6f))
            continue;
        float slope = fminf(sqrtf(1.0f / (lc * lc) - 1.0f), SLOPE_MAX) * cosf(phase[d]);
        *gx += slope * fib[d][0] / l;
        *gy += slope * fib[d][1] / l;
    }
}

/* The drape: broad folds running down the cloth from its top edge, a relief in
 * the cloth's own coordinates (so it moves and bends with it), its slope
 * carried to the canvas by F^-T. */
static void drape_slopes(const float fu[2], const float fv[2], float u, float v,
                         const struct cloth_params *p, float *gx, float *gy)
{
    float det = fu[0] * fv[1] - fu[1] * fv[0];
    if (!(fabsf(det) > 0.05f))
        return;
    float k = 6.2831853f * p->spacing / DRAPE_WAVE_M;
    float down = clampf(v * p->spacing / DRAPE_FADE_M, 0.0f, 1.0f);
    float hu = DRAPE_SLOPE * down * cosf(k * u), hv = 0.0f;
    *gx += (fv[1] * hu - fu[1] * hv) / det;
    *gy += (-fv[0] * hu + fu[0] * hv) / det;
}

/*
 * The shading of particle i. F = [fu fv] maps the cloth's rest directions to
 * the canvas. A fibre of direction d that is shorter than at rest (|F d| = l < 1)
 * is, for cloth that does not shrink, tilted out of the canvas by acos(l): slope
 * sqrt(1/l^2 - 1) along F d. Over the four directions (rows, columns, both
 * diagonals) those slopes are waved with the fibre's position in the cloth, so
 * they alternate into folds (fixed directions keep the phase continuous); a
 * gentle drape is added, and the resulting normal is lit by `light`. A shrunk
 * area (|det F| < 1) also looks more edge-on, a stretched one (largest
 * principal stretch > 1) gets sheen, and det F < 0 shows the back.
 */
static void shade_vertex(struct cloth_scene *s, int i)
{
    struct node *nd = &s->node[i];
    const float *f = &s->tan[4 * (size_t)(s->c.n + i)]; /* smoothed; y up, the canvas's down */
    const float fu[2] = {f[0], -f[1]}, fv[2] = {f[2], -f[3]};
    int w = s->c.prm.w;
    float u = (float)(i % w), v = (float)(i / w), gx = 0.0f, gy = 0.0f;
    float wave = fmaxf(FOLD_WAVE_M, FOLD_WAVE_PX / s->view.fit);
    fold_slopes(fu, fv, u, v, 6.2831853f * s->c.prm.spacing / wave, &gx, &gy);
    drape_slopes(fu, fv, u, v, &s->c.prm, &gx, &gy);
    float g2 = gx * gx + gy * gy;
    if (g2 > SLOPE_MAX * SLOPE_MAX) {
        float k = SLOPE_MAX / sqrtf(g2);
        gx *= k, gy *= k, g2 = SLOPE_MAX * SLOPE_MAX;
    }
    float dot = (-gx * light[0] - gy * light[1] + light[2]) / sqrtf(g2 + 1.0f);
    float det = fu[0] * fv[1] - fu[1] * fv[0]; /* < 0: turned over */
    float lum = AMBIENT + DIFFUSE * fmaxf(dot, 0.0f) / light[2];
    nd->lum = lum * (1.0f - FORESHORTEN * (1.0f - fminf(fabsf(det), 1.0f)));
    nd->back = clampf(0.5f - det / (2.0f * SIDE_BAND), 0.0f, 1.0f);
    float c11 = fu[0] * fu[0] + fu[1] * fu[1], c22 = fv[0] * fv[0] + fv[1] * fv[1];
    float c12 = fu[0] * fv[0] + fu[1] * fv[1], tr = 0.5f * (c11 + c22);
    float s1 = sqrtf(tr + sqrtf(fmaxf(tr * tr - (c11 * c22 - c12 * c12), 0.0f)));
    nd->sheen = clampf((s1 - 1.0f) / STRETCH_FULL, 0.0f, 1.0f);
}

/* ---- drawing: the fabric ------------------------------------------------------------ */

/* Edge function: > 0 when (px,py) is left of a->b in y-down pixel space. */
static float edge_fn(float ax, float ay, float bx, float by, float px, float py)
{
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

/* Top-left rule for y down (as image_triangle): shared edges are drawn once. */
static bool top_left(float ax, float ay, float bx, float by)
{
    return (ay == by && bx > ax) || by < ay;
}

/* The colour at brightness lum, from the side's shadow through its colour (at
 * lum 1) towards its highlight, face and back mixed by `back`; sheen on top. */
static rgb_t fabric_colour(float back, float lum, float sheen)
{
    int lo = lum < 1.0f ? 0 : 1;
    float t = clampf(lo == 0 ? lum : (lum - 1.0f) / HIGHLIGHT_LUM, 0.0f, 1.0f);
    float add = SHEEN * sheen, ch[3];
    for (int k = 0; k < 3; k++) {
        float f = front_tone[lo][k] + (front_tone[lo + 1][k] - front_tone[lo][k]) * t;
        float b = back_tone[lo][k] + (back_tone[lo + 1][k] - back_tone[lo][k]) * t;
        ch[k] = clampf(f + (b - f) * back + add, 0.0f, 255.0f);
    }
    return RGB(ch[0], ch[1], ch[2]);
}

/* One fabric pixel at rest coordinates (u, v): with the weave (its share
 * 0..1) the threads along u and v = whole numbers catch the light, the gaps
 * between them are in shadow. */
static rgb_t fabric_pixel(float back, float lum, float sheen, float u, float v, float weave)
{
    if (weave > 0.0f) {
        float fu = u - floorf(u), fv = v - floorf(v);
        float du = fminf(fu, 1.0f - fu), dv = fminf(fv, 1.0f - fv); /* 0..0.5 */
        float on = clampf(1.0f - 4.0f * fminf(du, dv), 0.0f, 1.0f); /* on a thread */
        float gap = 4.0f * du * dv;                                   /* between four */
        lum *= 1.0f + weave * WEAVE_DEPTH * (0.6f * on - gap);
    }
    return fabric_colour(back, lum, sheen);
}

static float min3(float a, float b, float c) { return a < b ? (a < c ? a : c) : (b < c ? b : c); }
static float max3(float a, float b, float c) { return a > b ? (a > c ? a : c) : (b > c ? b : c); }

/* Triangle t (three particles), if it is turned over as `turned` says, filled
 * with the shading interpolated across it (the side as its corners say). */
static void fabric_triangle(struct cloth_scene *s, struct image *im, const int *t, float weave,
                            bool turned)
{
    const struct node *a = &s->node[t[0]], *b = &s->node[t[1]], *c = &s->node[t[2]];
    float area = edge_fn(a->x, a->y, b->x, b->y, c->x, c->y);
    if (!(fabsf(area) > 1e-9f) || !isfinite(area) || (area < 0.0f) != turned)
        return;
    int w = s->c.prm.w, ta = t[0], tb = turned ? t[2] : t[1], tc = turned ? t[1] : t[2];
    if (turned) {
        const struct node *x = b;
        b = c, c = x, area = -area;
    }
    /* Clipped as floats: a corner far off (a piece fallen for minutes, a deep
     * zoom) must not overflow an int. */
    int xa = image_clip(floorf(min3(a->x, b->x, c->x)), im->w);
    int xb = image_clip(ceilf(max3(a->x, b->x, c->x)), im->w);
    int ya = image_clip(floorf(min3(a->y, b->y, c->y)), im->h);
    int yb = image_clip(ceilf(max3(a->y, b->y, c->y)), im->h);
    bool t0 = top_left(b->x, b->y, c->x, c->y), t1 = top_left(c->x, c->y, a->x, a->y);
    bool t2 = top_left(a->x, a->y, b->x, b->y);
    float inv = 1.0f / area;
    float ua = (float)(ta % w), ub = (float)(tb % w), uc = (float)(tc % w);
    float va = (float)(ta / w), vb = (float)(tb / w), vc = (float)(tc / w);
    for (int y = ya; y < yb; y++)
        for (int x = xa; x < xb; x++) {
            float px = (float)x + 0.5f, py = (float)y + 0.5f;
            float e0 = edge_fn(b->x, b->y, c->x, c->y, px, py);
            float e1 = edge_fn(c->x, c->y, a->x, a->y, px, py);
            float e2 = edge_fn(a->x, a->y, b->x, b->y, px, py);
            if (!((e0 > 0 || (e0 == 0 && t0)) && (e1 > 0 || (e1 == 0 && t1)) &&
                  (e2 > 0 || (e2 == 0 && t2))))
                continue;
            float l0 = e0 * inv, l1 = e1 * inv, l2 = e2 * inv;
            float lum = l0 * a->lum + l1 * b->lum + l2 * c->lum;
            float sh = l0 * a->sheen + l1 * b->sheen + l2 * c->sheen;
            float bk = l0 * a->back + l1 * b->back + l2 * c->back;
            float u = l0 * ua + l1 * ub + l2 * uc, v = l0 * va + l1 * vb + l2 * vc;
            im->px[(size_t)y * (size_t)im->w + (size_t)x] = fabric_pixel(bk, lum, sh, u, v, weave);
        }
}

/* Edges along one drawn triangle (the hem, and every cut) get a dark line;
 * structural threads along none (left loose by cuts) a light one. */
static void hems(struct cloth_scene *s, struct image *im)
{
    int w = s->c.prm.w;
    const int from[EDGE_KINDS] = {0, 0, 0, 1}, to[EDGE_KINDS] = {1, w, w + 1, w};
    rgb_t hem = fabric_colour(0.0f, 0.3f, 0.0f);
    for (int i = 0; i < s->c.n; i++)
        for (int k = 0; k < EDGE_KINDS; k++) {
            int u = s->uses[4 * i + k];
            if (!alive(s, i, k) || u > 1 || (u == 0 && k > E_V))
                continue;
            const struct node *a = &s->node[i + from[k]], *b = &s->node[i + to[k]];
            image_line(im, a->x, a->y, b->x, b->y, u == 1 ? hem : THREAD);
        }
}

static void draw_fabric(struct cloth_scene *s, struct image *im)
{
    const struct cloth *c = &s->c;
    cloth_tangents(c, s->edges, s->tan, s->tan + 4 * (size_t)c->n);
    for (int i = 0; i < c->n; i++)
        shade_vertex(s, i);
    float px = c->prm.spacing * s->view.zoom;
    float weave = clampf((px - WEAVE_PX0) / (WEAVE_PX1 - WEAVE_PX0), 0.0f, 1.0f);
    /* What turned over lies on top (a lifted hem folds towards us). */
    int nt = cloth_triangles(c, s->edges, s->tri, s->uses);
    for (int turned = 0; turned < 2; turned++)
        for (int t = 0; t < nt; t++)
            fabric_triangle(s, im, &s->tri[3 * t], weave, turned);
    hems(s, im);
}

/* ---- drawing: the strain look -------------------------------------------------------- */

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

static void thread(struct image *im, const struct cloth_scene *s, int a, int b)
{
    const struct cloth *c = &s->c;
    float dx = c->x[a] - c->x[b], dy = c->y[a] - c->y[b];
    float e = (sqrtf(dx * dx + dy * dy) - c->prm.spacing) / c->prm.spacing;
    image_line(im, s->node[a].x, s->node[a].y, s->node[b].x, s->node[b].y, strain_colour(e));
}

/* Each cell whose four sides are intact as two flat triangles shaded by its
 * area against the rest area (stretch lighter and redder); over them the
 * structural threads coloured by strain. */
static void draw_strain(struct cloth_scene *s, struct image *im)
{
    const struct cloth *c = &s->c;
    int w = c->prm.w, h = c->prm.h;
    float rest = c->prm.spacing * c->prm.spacing;
    const struct node *nd = s->node;
    for (int i = 0; i + 1 < h; i++)
        for (int j = 0; j + 1 < w; j++) {
            int a = i * w + j, b = a + 1, d = a + w, e = d + 1;
            if (!alive(s, a, E_H) || !alive(s, d, E_H) || !alive(s, a, E_V) || !alive(s, b, E_V))
                continue;
            float ratio = (tri_area(c, a, b, e) + tri_area(c, a, e, d)) / rest;
            if (!isfinite(ratio))
                continue;
            float stretch = clampf((ratio - 1.0f) / STRAIN_RED, 0.0f, 1.0f);
            rgb_t col = rgb_mix(FABRIC, RGB(235, 70, 50), stretch);
            col = rgb_scale(col, clampf(0.8f + 0.6f * (ratio - 1.0f), 0.3f, 1.25f));
            image_triangle(im, nd[a].x, nd[a].y, nd[b].x, nd[b].y, nd[e].x, nd[e].y, col);
            image_triangle(im, nd[a].x, nd[a].y, nd[e].x, nd[e].y, nd[d].x, nd[d].y, col);
        }
    for (int i = 0; i < c->n; i++) {
        if (i % w + 1 < w && alive(s, i, E_H))
            thread(im, s, i, i + 1);
        if (i / w + 1 < h && alive(s, i, E_V))
            thread(im, s, i, i + w);
    }
}

static void cloth_draw(void *p, struct image *im)
{
    struct cloth_scene *s = p;
    image_fill(im, BACKGROUND);
    const struct cloth *c = &s->c;
    mesh_nodes(s);
    if (s->strain_look)
        draw_strain(s, im);
    else
        draw_fabric(s, im);
    for (int i = 0; i < c->n; i++)
        if (c->fixed[i])
            image_disc(im, s->node[i].x, s->node[i].y, 1.2f, PIN, 1.0f);
    if (c->grabbed >= 0)
        image_disc(im, s->node[c->grabbed].x, s->node[c->grabbed].y, 1.5f, GRABBED, 1.0f);
    if (s->cutting)
        image_disc(im, s->blade_x, s->blade_y, 1.0f, BLADE, 0.9f);
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
    .member = cloth_member,
};
