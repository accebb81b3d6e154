/*
 * pbf_draw.c — the water's picture, each particle drawn by the area it covers:
 * the fields it is drawn from (the body's coverage and velocities, the drops'
 * coverage) splatted by pbf_splat.c, made pixels by pbf_shade.c (an edge, the
 * holes closed, colour by depth from pbf_depth.c, a little play so water at
 * rest keeps its pixels); here the fields' storage, the order of the passes
 * and the walls on the cells' boundaries, straight in every glyph set. The
 * seed preset's dots are draw_seed's.
 */
#include "pbf_scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SPEED_MAX 8.0f       /* seed preset: m/s at the top of the colour ramp */
#define WALL RGB(118, 126, 140)
#define WALL_EDGE RGB(186, 194, 208)
#define WALL_EDGE_PX 0.125f /* the edge's width, canvas pixels */

void water_draw_free(struct water_draw *d)
{
    free(d->cov);
    free(d->vel);
    free(d->grid);
    free(d->spr);
    free(d->dep);
    free(d->lit);
    free(d->coarse);
    free(d->row);
    free(d->stack);
    free(d->kept_body);
    free(d->kept_drop);
    free(d->share);
    memset(d, 0, sizeof *d);
}

static bool grow(void **p, size_t bytes)
{
    void *q = realloc(*p, bytes);
    if (q)
        *p = q;
    return q != NULL;
}

/* Whether a draw of w x h in view v is one of ow x oh in view o. */
static bool same_draw(int w, int h, const struct view *v, int ow, int oh, const struct view *o)
{
    return w == ow && h == oh && v->zoom == o->zoom && v->ox == o->ox && v->oy == o->oy;
}

/* Room for the fields of a w x h canvas; false when memory ran out. A new size
 * or view forgets what was kept. */
static bool water_fields(struct water_draw *d, int w, int h, const struct view *v)
{
    const size_t n = (size_t)w * (size_t)h;
    if (n > d->cap || (size_t)w > d->row_cap) {
        /* Never smaller than before: a narrower but taller canvas still fits. */
        const size_t m = n > d->cap ? n : d->cap;
        const size_t r = (size_t)w > d->row_cap ? (size_t)w : d->row_cap;
        bool ok = grow((void **)&d->cov, m * sizeof(float)) &&
                  grow((void **)&d->vel, 3 * m * sizeof(float)) &&
                  grow((void **)&d->grid, 4 * m * sizeof(float)) &&
                  grow((void **)&d->spr, m * sizeof(float)) &&
                  grow((void **)&d->dep, m * sizeof(float)) &&
                  grow((void **)&d->lit, m * sizeof(float)) &&
                  grow((void **)&d->coarse, 3 * (m / 4 + 1) * sizeof(float)) &&
                  grow((void **)&d->kept_body, m * sizeof(float)) &&
                  grow((void **)&d->kept_drop, m * sizeof(float)) &&
                  grow((void **)&d->stack, m * sizeof(int)) &&
                  grow((void **)&d->row, 5 * r * sizeof(float));
        if (!ok)
            return false;
        d->cap = m, d->row_cap = r;
    }
    /* What was kept goes on with draws of its size and view; a size drawn
     * twice running (the terminal resized, the status line hidden) takes
     * over, starting afresh; a draw of another size between two of the kept
     * one (a picture saved, a look at the status line's row) leaves it be, so
     * that water at rest shows the same pixels again after it. */
    const bool kept = same_draw(w, h, v, d->kept_w, d->kept_h, &d->view);
    const bool again = same_draw(w, h, v, d->last_w, d->last_h, &d->last);
    d->last_w = w, d->last_h = h, d->last = *v;
    if (!kept && again) {
        d->kept_w = w, d->kept_h = h;
        d->view = *v;
        d->kept_ok = false;
    }
    d->keeping = kept || again;
    return true;
}

/* Room for n particles' shares of spray; false when memory ran out. */
static bool water_shares(struct water_draw *d, int n)
{
    if ((size_t)n > d->share_cap) {
        if (!grow((void **)&d->share, (size_t)n * sizeof *d->share))
            return false;
        d->share_cap = (size_t)n;
    }
    return true;
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

/* The box's faces in image pixels: the inner ones (left, right, top, bottom:
 * the water lies in [li, ri) x [ti, bi)) and the outer ones. The band the
 * boundary particles cover, each inner face moved to the nearest boundary of
 * the cells (a cell is a canvas pixel wide and two high, k image pixels a
 * canvas pixel), and the wall that thick (whole pixels, at least a canvas
 * pixel) outwards from it. So no cell holds both wall and water: the cells a
 * wall crosses hold the wall and, beyond its outer face, the background, the
 * same all along it, and a cell's two colours (the quadrants' and sextants'
 * fit, which must pick two where a cell holds three) show it the same all
 * along: a straight line of one thickness in every glyph set, whatever the
 * water beside it does. */
struct box {
    float li, ri, ti, bi, lo, ro, to, bo;
};

static float snap(float v, float q)
{
    return roundf(v / q) * q;
}

static struct box box_faces(const struct pbf_scene *s)
{
    const struct pbf *sim = &s->sim;
    const struct view *v = &s->draw.at;
    const float r = sim->prm.radius, k = s->draw.k;
    const float t = fmaxf(roundf(2.0f * r * v->zoom), k);
    struct box b;
    b.li = snap(view_px(v, sim->xmin + r), k), b.ri = snap(view_px(v, sim->xmax - r), k);
    b.ti = snap(view_py(v, sim->ymax - r), 2.0f * k);
    b.bi = snap(view_py(v, sim->ymin + r), 2.0f * k);
    b.lo = b.li - t, b.ro = b.ri + t, b.to = b.ti - t, b.bo = b.bi + t;
    return b;
}

/* The box: the walls drawn solid (particles a pixel or two apart would alias
 * into dots) on the faces box_faces puts on whole pixels, with a lighter
 * inner edge on the water's side when there is room for one, WALL_EDGE_PX of a
 * canvas pixel wide at any scale (an image pixel at every scale made it half
 * the wall in quadrants, which then showed the walls further from the finer
 * picture than half-blocks did). Whole pixels, so
 * that no pixel is part wall and part water or background: a wall mixed with
 * water is a greyish blue, which 8 and 16 colours show as blue, and a thin
 * wall mixed with the background is a dark grey, which mono leaves blank or
 * dithers away; the wall's own colour inks in mono and is grey in every mode.
 * Beyond the outer faces is the background (bg), what the water drew there
 * included (its closing at the canvas's edge may fill a row under a wall
 * there). */
static void draw_walls(struct pbf_scene *s, struct image *im, rgb_t c, rgb_t bg, bool edge)
{
    const struct box b = box_faces(s);
    wall(im, b.lo, b.to, b.ro, b.ti, c);
    wall(im, b.lo, b.bi, b.ro, b.bo, c);
    wall(im, b.lo, b.to, b.li, b.bo, c);
    wall(im, b.ri, b.to, b.ro, b.bo, c);
    const float w = (float)im->w, h = (float)im->h;
    wall(im, 0.0f, 0.0f, w, b.to, bg);
    wall(im, 0.0f, b.bo, w, h, bg);
    wall(im, 0.0f, b.to, b.lo, b.bo, bg);
    wall(im, b.ro, b.to, w, b.bo, bg);
    if (!edge || b.li - b.lo < 2.0f)
        return;
    const float e = s->draw.k * WALL_EDGE_PX;
    wall(im, b.li - e, b.ti - e, b.ri + e, b.ti, WALL_EDGE);
    wall(im, b.li - e, b.bi, b.ri + e, b.bi + e, WALL_EDGE);
    wall(im, b.li - e, b.ti - e, b.li, b.bi + e, WALL_EDGE);
    wall(im, b.ri, b.ti - e, b.ri + e, b.bi + e, WALL_EDGE);
}

/* The seed page's picture: dots coloured by speed, the grabbed one red. */
static void draw_seed(struct pbf_scene *s, struct image *im)
{
    const struct pbf *sim = &s->sim;
    const struct view *v = &s->draw.at;
    const rgb_t bg = RGB(10, 12, 20);
    image_fill(im, bg);
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
    draw_walls(s, im, RGB(136, 136, 136), bg, false);
    if (sim->grabbed >= 0)
        image_disc(im, view_px(v, sim->x[sim->grabbed]), view_py(v, sim->y[sim->grabbed]),
                   2.0f * rad, RGB(255, 0, 0), 1.0f);
}

/*
 * Each particle's area is spread into a coverage field at canvas resolution
 * by a smooth kernel (a cubic B-spline a diameter and a half wide, at least a
 * pixel, folded back at the walls), in which dense water is 1 and a lone drop is little; the field
 * sharpened to a one-pixel edge, its holes a pixel or two across closed, is
 * the body, its surface anti-aliased by how much of a pixel is water. A
 * particle with little water about it (by its density) is a drop: its area
 * spread over a core and a rim, so spray reads as soft droplets, not as hard
 * pixels; what covers little of a pixel is a clear blue, never a grey. Fast water is drawn along the last bit of its
 * way (a streak of a few pixels). The colour goes by depth, the water above a
 * pixel along the least deep way up (straight or diagonal), averaged over
 * neighbouring columns: a bright line at the top, darker below, whitened to
 * foam where the water churns; mixed over the background in linear light.
 * Each pixel's coverage has a little play, so water at rest, whose particles
 * jitter and sway by a tenth of a pixel, gives the same pixels frame after
 * frame. The walls go on top, on the cells' boundaries (box_faces).
 */
void pbf_draw(void *p, struct image *im)
{
    struct pbf_scene *s = p;
    const int k = scene_image_scale(s->w, im);
    s->draw.k = (float)k;
    s->draw.at = view_scaled(&s->view, (float)k);
    if (s->opt.preset_seed || !water_fields(&s->draw, im->w, im->h, &s->draw.at) ||
        !water_shares(&s->draw, s->sim.nfluid)) {
        draw_seed(s, im);
        return;
    }
    struct water_draw *d = &s->draw;
    /* Clamped before the conversion: zoomed in, the walls may be far off. */
    const float wf = (float)im->w + 2.0f, hf = (float)im->h + 2.0f;
    const struct box b = box_faces(s);
    d->x0 = (int)clampf(b.li, -2.0f, wf), d->x1 = (int)clampf(b.ri, -2.0f, wf) - 1;
    d->y0 = (int)clampf(b.ti, -2.0f, hf), d->y1 = (int)clampf(b.bi, -2.0f, hf) - 1;
    water_spray_shares(s);
    water_splat_body(s, im->w, im->h);
    water_wet_the_rim(d, im->w, im->h);
    water_splat_spray(s, im->w, im->h);
    water_shade(s, im);
    draw_walls(s, im, WALL, BACKGROUND, true);
}