/*
 * pbf_shade.c — the water's fields made pixels (pbf_draw.c's last pass): the
 * body's coverage sharpened to a one-pixel edge, its holes closed, air it
 * closes in taken as water, a little play so water at rest keeps its pixels,
 * then colour by depth (pbf_depth.c) and churn, mixed over the background in
 * linear light. Each pass a band of rows at a time on the pool.
 */
#include "pbf_scene.h"

#include <math.h>
#include <string.h>

#define SURFACE RGB(118, 196, 255)
#define SHALLOW RGB(38, 122, 214)
#define DEEP RGB(5, 26, 78)
#define FOAM RGB(236, 246, 255)
#define SPRAY RGB(150, 205, 255)
#define SPRAY_RIM RGB(30, 110, 235) /* a drop's faint rim: a clear blue (a pale blue dimmed
                              * over the background is a slate grey) */
#define SPRAY_PALE 0.4f      /* a drop's coverage of a pixel: paler than SPRAY_RIM from
                              * this up, all SPRAY at 1 (its core); below it the
                              * background dims a clear blue */
#define EDGE_GAIN 1.5f       /* 1 / B(0): the field's slope across an edge made a pixel's */
#define SURFACE_FROM 0.6f    /* px of water above: the bright line fades from here ... */
#define SURFACE_TO 2.2f      /* ... to here */
#define DEPTH_SCALE 14.0f    /* diameters below the surface to reach deep colour */
#define FOAM_DEPTH 4.0f      /* diameters: foam fades below the surface over this */
#define FOAM_FROM 0.6f       /* m/s of churn: foam starts */
#define FOAM_FULL 2.5f       /* m/s of churn: all foam */
#define FOAM_MAX 0.7f        /* the most foam whitens the water */
#define AIR_OPEN 0.05f       /* coverage: air this dry joins a pocket to the open air */
#define SPRAY_MIST 0.05f     /* the drops' coverage air only spray closes in is drawn with */
#define TRAPPED_CHURN 1.2f   /* m/s: the churn trapped air is drawn with (some foam) */
#define PLAY 0.25f           /* a pixel's coverage follows the water's once it is off by more
                              * than this (0 and 1 at once) */

/* sRGB's transfer function and its inverse, for the tables. */
static float srgb_to_linear(float v)
{
    return v <= 0.04045f ? v / 12.92f : powf((v + 0.055f) / 1.055f, 2.4f);
}

static float linear_to_srgb(float v)
{
    return v <= 0.0031308f ? 12.92f * v : 1.055f * powf(v, 1.0f / 2.4f) - 0.055f;
}

static void water_tables(struct water_draw *d)
{
    for (int v = 0; v < 256; v++)
        d->lin[v] = srgb_to_linear((float)v / 255.0f);
    for (int i = 0; i <= LIN_STEPS; i++)
        d->srgb[i] = (unsigned char)lrintf(255.0f * linear_to_srgb((float)i / LIN_STEPS));
    d->tables = true;
}

/* c over the background bg with coverage a, mixed in linear light (as light
 * from a pixel part water, part not: a half-covered pixel is not darker than
 * its halves). */
static rgb_t over(const struct water_draw *d, rgb_t bg, rgb_t c, float a)
{
    int ch[3];
    for (int k = 0; k < 3; k++) {
        const int sh = 16 - 8 * k;
        const float l = a * d->lin[(c >> sh) & 255] + (1.0f - a) * d->lin[(bg >> sh) & 255];
        ch[k] = d->srgb[clampi((int)(l * LIN_STEPS + 0.5f), 0, LIN_STEPS)];
    }
    return RGB(ch[0], ch[1], ch[2]);
}

/* The water's colour depth pixels below its surface (lit straight below it),
 * churning at churn (m/s):
 * a bright line on top, darker below, foam where the water about a pixel moves
 * every which way (more of it near the top); water moving as one (a stream, a
 * thrown handful) stays water. */
static rgb_t water_colour(float depth, float lit, float sc, float churn)
{
    const float deep = 1.0f - expf(-depth / (DEPTH_SCALE * sc));
    rgb_t c = rgb_mix(SHALLOW, DEEP, deep);
    c = rgb_mix(c, SURFACE, 1.0f - smooth01(SURFACE_FROM, SURFACE_TO, lit));
    const float foam = smooth01(FOAM_FROM, FOAM_FULL, churn) *
                       (0.15f + 0.85f * expf(-depth / (FOAM_DEPTH * sc)));
    return rgb_mix(c, FOAM, FOAM_MAX * foam);
}

/* v, or o where o is the larger (most) or the smaller. */
static float pick(float v, float o, bool most)
{
    return (o > v) == most ? o : v;
}

/* out = the largest (most, true) or smallest of in over a pixel either side along
 * x or y (the pixel's, the one before, the one after), within the canvas (h
 * rows); rows [y0, y1) alone. */
static void spread(const float *in, float *out, int w, int h, bool along_x, bool most, int y0,
                   int y1)
{
    for (int y = y0; y < y1; y++) {
        const float *a = in + (size_t)y * (size_t)w;
        const int before = along_x ? -1 : y > 0 ? -w : 0, after = along_x ? 1 : y < h - 1 ? w : 0;
        float *o = out + (size_t)y * (size_t)w;
        for (int x = along_x; x < w - along_x; x++)
            o[x] = pick(pick(a[x], a[x + before], most), a[x + after], most);
        for (int x = 0; x < w && along_x; x += w > 1 ? w - 1 : 1) /* the ends of the row */
            o[x] = pick(pick(a[x], a[x > 0 ? x - 1 : x], most), a[x < w - 1 ? x + 1 : x], most);
    }
}

/* What a pixel shows of a coverage v when it showed kept last frame: kept,
 * moved as little as brings it within PLAY of v (play, as in a loose gear:
 * water at rest jitters and sways by a tenth of a pixel and must not twitch,
 * water moving on is followed as smoothly); none and all at once, so that
 * nothing is left behind. */
static float with_play(float kept, float v)
{
    if (v <= 0.0f || v >= 1.0f)
        return v;
    return clampf(kept, v - PLAY, v + PLAY);
}

/* The passes over the fields pixel by pixel, a band of rows at a time on the
 * pool (each pixel's value is the same whatever the bands). */
struct field_job {
    struct water_draw *d;
    int w, h;
    int pass;            /* SHARPEN, the four spreads, then PLAY */
    float gain;
    bool keep;
};

enum { SHARPEN, GROW_X, GROW_Y, SHRINK_X, SHRINK_Y, PLAY_PASS };

/* The body's velocities to its churn, and its coverage sharpened to an edge a
 * pixel wide. */
static void sharpen_rows(struct water_draw *d, size_t n, float gain, size_t i0, size_t i1)
{
    for (size_t i = i0; i < i1; i++) { /* without a branch, so that the loop is vectorised */
        const float c = d->cov[i], q = c > 1e-6f ? c : 1.0f;
        const float vx = d->vel[i] / q, vy = d->vel[n + i] / q, v2 = d->vel[2 * n + i] / q;
        const float s2 = v2 - vx * vx - vy * vy, churn = sqrtf(s2 > 0.0f ? s2 : 0.0f);
        d->vel[i] = c > 1e-6f ? churn : 0.0f;
        d->cov[i] = clampf(0.5f + gain * (c - 0.5f), 0.0f, 1.0f);
    }
}

/* The coverages with play (keep: kept_* hold the last frame of this size),
 * kept for the next when this draw is of the kept size (d->keeping). */
static void play_rows(struct water_draw *d, bool keep, size_t i0, size_t i1)
{
    for (size_t i = i0; i < i1; i++) {
        const float body = d->cov[i], drop = fminf(DROP_GAIN * d->spr[i], 1.0f);
        d->cov[i] = keep ? with_play(d->kept_body[i], body) : body;
        d->spr[i] = keep ? with_play(d->kept_drop[i], drop) : drop;
        if (d->keeping)
            d->kept_body[i] = d->cov[i], d->kept_drop[i] = d->spr[i];
    }
}

/* Closing holes in the body a pixel or two across (a closing: the largest over
 * the 3 x 3 pixels about each, then the smallest of that): where the water
 * churns, its particles leave gaps that are not air. An edge keeps its place
 * and its anti-aliasing. dep and lit are scratch here. */
static void field_rows(void *arg, int y0, int y1)
{
    const struct field_job *j = arg;
    struct water_draw *d = j->d;
    const int w = j->w, h = j->h;
    const size_t i0 = (size_t)y0 * (size_t)w, i1 = (size_t)y1 * (size_t)w;
    switch (j->pass) {
    case SHARPEN:
        sharpen_rows(d, (size_t)w * (size_t)h, j->gain, i0, i1);
        break;
    case GROW_X:
        spread(d->cov, d->dep, w, h, true, true, y0, y1);
        break;
    case GROW_Y:
        spread(d->dep, d->lit, w, h, false, true, y0, y1);
        break;
    case SHRINK_X:
        spread(d->lit, d->dep, w, h, true, false, y0, y1);
        break;
    case SHRINK_Y:
        spread(d->dep, d->cov, w, h, false, false, y0, y1);
        break;
    default:
        play_rows(d, j->keep, i0, i1);
    }
}

/* Air the water closes in on every side (a wave that broke over a pocket, a
 * hole the churn leaves) is not drawn as the background: taken as water, and
 * foaming, as trapped air is. Air is where the body covers less than half a
 * pixel; open air is what a path of nearly dry pixels (under AIR_OPEN) joins
 * to the lid's row (or to the canvas's top, the lid off it). Air that only
 * spray closes in (between the drops of a cloud of them, behind a curtain of
 * spray) is seen through the drops: a blue mist (SPRAY_MIST), never water, so
 * a cloud of drops is not drawn as a cloud of hard pixels of foam. dep and lit
 * are scratch here. */
static bool dry(const struct water_draw *d, size_t i, bool spray_shuts)
{
    return d->cov[i] < AIR_OPEN && (!spray_shuts || d->spr[i] < AIR_OPEN);
}

/* Opens the first pixel of each run of dry pixels not yet open in [l, r] (a
 * row's) and puts it on the stack from top on; returns the new top. */
static int open_runs(struct water_draw *d, float *open, bool spray_shuts, int l, int r, int top)
{
    bool run = false;
    for (int j = l; j <= r; j++) {
        const bool in = open[j] == 0.0f && dry(d, (size_t)j, spray_shuts);
        if (in && !run)
            open[j] = 1.0f, d->stack[top++] = j;
        run = in;
    }
    return top;
}

/* open: 1 where the air inside the box [x0, x1] x [y0, y1] is open, 0 where
 * it is not; spray_shuts: whether drops close a path as the body does. */
static void open_air(struct water_draw *d, float *open, bool spray_shuts, int w, int x0, int x1,
                     int y0, int y1)
{
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++)
            open[(size_t)y * (size_t)w + (size_t)x] = 0.0f;
    /* A run at a time: a pixel off the stack opens the dry pixels either side
     * of it, and the runs above and below those go on the stack (each pixel is
     * opened once, so the stack never holds more than the box's pixels). */
    int top = open_runs(d, open, spray_shuts, y0 * w + x0, y0 * w + x1, 0);
    while (top > 0) {
        const int i = d->stack[--top], y = i / w, row = y * w;
        int l = i, r = i;
        while (l > row + x0 && open[l - 1] == 0.0f && dry(d, (size_t)l - 1, spray_shuts))
            open[--l] = 1.0f;
        while (r < row + x1 && open[r + 1] == 0.0f && dry(d, (size_t)r + 1, spray_shuts))
            open[++r] = 1.0f;
        if (y > y0)
            top = open_runs(d, open, spray_shuts, l - w, r - w, top);
        if (y < y1)
            top = open_runs(d, open, spray_shuts, l + w, r + w, top);
    }
}

static void fill_enclosed_air(struct water_draw *d, int w, int h)
{
    const int x0 = clampi(d->x0, 0, w - 1), x1 = clampi(d->x1, 0, w - 1);
    const int y0 = clampi(d->y0, 0, h - 1), y1 = clampi(d->y1, 0, h - 1);
    if (x1 < x0 || y1 < y0)
        return;
    float *open = d->dep, *past_spray = d->lit;
    open_air(d, open, true, w, x0, x1, y0, y1);
    open_air(d, past_spray, false, w, x0, x1, y0, y1);
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            const size_t i = (size_t)y * (size_t)w + (size_t)x;
            if (d->cov[i] >= 0.5f || open[i] != 0.0f)
                continue;
            if (past_spray[i] == 0.0f)
                d->cov[i] = 1.0f, d->vel[i] = fmaxf(d->vel[i], TRAPPED_CHURN);
            else
                d->spr[i] = fmaxf(d->spr[i], SPRAY_MIST);
        }
}

/* The colour water c covering a pixel by cov is drawn in: c where it covers
 * the pixel (a drop's core, the body), a clear blue where it covers little (a
 * drop's rim, a drop in passing, the body's anti-aliased edge), which the
 * background then dims; never a grey (the water's pale colours, the bright
 * line, spray and foam, dimmed over the background are a slate grey). */
static rgb_t thin_water(rgb_t c, float cov)
{
    return rgb_mix(SPRAY_RIM, c, smooth01(SPRAY_PALE, 1.0f, cov));
}

/* The pixels of rows [y0, y1) from the fields (water_shade's last pass). */
struct colour_job {
    struct pbf_scene *s;
    struct image *im;
    float part;          /* water_particle_px */
};

static void colour_rows(void *arg, int y0, int y1)
{
    const struct colour_job *j = arg;
    const struct water_draw *d = &j->s->draw;
    const size_t end = (size_t)y1 * (size_t)j->im->w;
    for (size_t i = (size_t)y0 * (size_t)j->im->w; i < end; i++) {
        const float body = d->cov[i], drop = d->spr[i];
        const float alpha = body > drop ? body : drop;
        rgb_t out = BACKGROUND;
        if (alpha > 0.0f) {
            rgb_t c = water_colour(d->dep[i], d->lit[i] / d->k, j->part, d->vel[i]);
            if (drop > body)
                c = rgb_mix(c, SPRAY, (drop - body) / drop);
            out = over(d, BACKGROUND, thin_water(c, alpha), alpha);
        }
        j->im->px[i] = out;
    }
}

/* The water's pixels: the body's coverage sharpened to a one-pixel edge (the
 * anti-aliased surface), the drops' coverage where it is more, over the
 * background. Both are kept with play, and all else (depth, the bright line)
 * follows from them, so that water at rest shows the same pixels. (Foam would
 * not, but water at rest does not churn.) */
void water_shade(struct pbf_scene *s, struct image *im)
{
    struct water_draw *d = &s->draw;
    const int w = im->w, h = im->h;
    if (!d->tables)
        water_tables(d);
    const float part = water_particle_px(s), gain = EDGE_GAIN * fminf(KERNEL_PX * part, SCALE_MAX);
    struct field_job fj = {d, w, h, SHARPEN, gain, d->keeping && d->kept_ok};
    for (fj.pass = SHARPEN; fj.pass <= PLAY_PASS; fj.pass++)
        scene_bands(s->opt.pool, h, field_rows, &fj);
    fill_enclosed_air(d, w, h);
    water_depth(d, w, h, d->y0 < 0 ? d->k * (SURFACE_TO + 1.0f) : 0.0f); /* lid off: no bright line */
    struct colour_job j = {s, im, part};
    scene_bands(s->opt.pool, h, colour_rows, &j);
    d->kept_ok = d->kept_ok || d->keeping;
}
