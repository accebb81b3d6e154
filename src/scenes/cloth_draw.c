/*
 * cloth_draw.c — the cloth's picture: by default fabric shaded from its own
 * deformation (folds, sheen, its back where it turned over, dark hems), else
 * the net coloured by strain; pins yellow, the grabbed particle red.
 */
#include "cloth_scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
    const struct view at = view_scaled(&s->view, s->k);
    for (int i = 0; i < c->n; i++) {
        s->node[i].x = view_px(&at, c->x[i]);
        s->node[i].y = view_py(&at, c->y[i]);
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
            image_thick_line(im, a->x, a->y, b->x, b->y, u == 1 ? hem : THREAD, s->k);
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
    image_thick_line(im, s->node[a].x, s->node[a].y, s->node[b].x, s->node[b].y,
                     strain_colour(e), s->k);
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

/*
 * By default the cloth as fabric, a surface shaded from its
 * own deformation (see shade_vertex): compressed cloth would buckle out of the
 * plane, so every fibre shorter than at rest tilts the surface as its
 * foreshortening implies, waved into folds; stretch shows as sheen, a triangle
 * turned over as the fabric's back; free edges (the hem, every cut) get a dark
 * line; zoomed in, the weave shows. The panel's "strain colours" draws the net
 * coloured by strain instead (the seed preset starts so). Pins are yellow, the
 * grabbed particle red.
 */
void cloth_draw(void *p, struct image *im)
{
    struct cloth_scene *s = p;
    image_fill(im, BACKGROUND);
    const struct cloth *c = &s->c;
    s->k = (float)scene_image_scale(s->w, im);
    mesh_nodes(s);
    if (s->strain_look)
        draw_strain(s, im);
    else
        draw_fabric(s, im);
    for (int i = 0; i < c->n; i++)
        if (c->fixed[i])
            image_disc(im, s->node[i].x, s->node[i].y, 1.2f * s->k, PIN, 1.0f);
    if (c->grabbed >= 0)
        image_disc(im, s->node[c->grabbed].x, s->node[c->grabbed].y, 1.5f * s->k, GRABBED, 1.0f);
    if (s->cutting)
        image_disc(im, s->k * s->blade_x, s->k * s->blade_y, s->k, BLADE, 0.9f);
}
