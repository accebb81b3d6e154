/*
 * pbf_draw.c — the water's picture, each particle drawn by the area it covers:
 * a coverage field for the body, splatted drops for the spray, colour by depth
 * (pbf_depth.c), and a little play so water at rest keeps its pixels; the
 * walls on the cells' boundaries, straight in every glyph set. The seed
 * preset's dots are draw_seed's.
 */
#include "pbf_scene.h"
#include "pool.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SPEED_MAX 8.0f       /* seed preset: m/s at the top of the colour ramp */

#define BACKGROUND RGB(9, 11, 18)
#define WALL RGB(118, 126, 140)
#define WALL_EDGE RGB(186, 194, 208)
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
#define SCALE_MAX 64.0f      /* px: the body's kernel widens with the particles up to this */
#define KERNEL_PX 1.5f       /* the kernel's scale in particle diameters (at least pixels):
                              * wide enough to close the gaps between particles */
#define TAPS_MAX 260         /* taps along one axis at SCALE_MAX (4 SCALE_MAX + 1) */
#define GRID_KERNEL_PX 3.0f  /* the body is splatted on the canvas's pixels, k image pixels
                              * each, and interpolated to the image where its kernel is
                              * this many canvas pixels and more (a field that smooth is
                              * within a hundredth of the image's: its edge within a tenth
                              * of a pixel; the splat's taps a k-th along each axis) */
#define EDGE_GAIN 1.5f       /* 1 / B(0): the field's slope across an edge made a pixel's */
#define DROP_GAIN 3.0f       /* a drop is drawn this much brighter than the area it covers
                              * (a soft drop spreads it over its rim) */
#define DROP_AREA 0.785398f  /* a drop's area in diameters squared (pi / 4) */
#define SPRAY_FROM 0.55f     /* a particle's density (of the rest density): all spray below
                              * this (a lone particle's is 0.4-0.5, a pair's 0.5-0.6) ... */
#define SPRAY_TO 0.75f       /* ... all body above this (the surface's is 0.8 and more) */
#define STREAK_TIME 0.03f    /* s: moving water is drawn along the way it came over this, */
#define STREAK_FROM 0.5f     /* px: less this (what barely moves is drawn where it is) */
#define STREAK_MAX 4.0f      /* px: and no longer than this */
#define STREAK_TAPS 4        /* places along a streak */
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

static float smooth01(float a, float b, float v)
{
    const float t = clampf((v - a) / (b - a), 0.0f, 1.0f);
    return t * t * (3.0f - 2.0f * t);
}

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

void water_draw_free(struct water_draw *d)
{
    free(d->cov);
    free(d->vel);
    free(d->grid);
    free(d->spr);
    free(d->dep);
    free(d->lit);
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
                  grow((void **)&d->kept_body, m * sizeof(float)) &&
                  grow((void **)&d->kept_drop, m * sizeof(float)) &&
                  grow((void **)&d->stack, m * sizeof(int)) &&
                  grow((void **)&d->row, 5 * r * sizeof(float));
        if (!ok)
            return false;
        d->cap = m, d->row_cap = r;
    }
    if (!d->tables)
        water_tables(d);
    if (w != d->kept_w || h != d->kept_h || v->zoom != d->view.zoom || v->ox != d->view.ox ||
        v->oy != d->view.oy) {
        d->kept_w = w, d->kept_h = h;
        d->view = *v;
        d->kept_ok = false;
    }
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

/* A particle's diameter in pixels, at least one, at most SCALE_MAX. */
static float particle_px(const struct pbf_scene *s)
{
    return clampf(2.0f * s->sim.prm.radius * s->draw.at.zoom, 1.0f, SCALE_MAX);
}

/* The cubic B-spline: 2/3 at 0, 0 from 2 on; its samples a unit apart sum to 1
 * wherever they start. */
static float bspline3(float u)
{
    /* (max(2 - |u|, 0)^3 - 4 max(1 - |u|, 0)^3) / 6, without a branch
     * (max(v, 0) = (v + |v|) / 2, exact). */
    const float a = fabsf(u), t = 2.0f - a, s = 1.0f - a;
    const float t2 = 0.5f * (t + fabsf(t)), s1 = 0.5f * (s + fabsf(s));
    return (t2 * t2 * t2 - 4.0f * s1 * s1 * s1) * (1.0f / 6.0f);
}

/* A particle as drawn: its place on the canvas and, when it moves, the way it
 * came over STREAK_TIME, as n places (x - k dx, y - k dy), k < n. */
struct streak {
    float x, y, dx, dy, vx, vy, speed;
    int n;
};

/* False when particle i is off the canvas (w x h pixels, in view at, k of them
 * a canvas pixel) by more than reach (or not a number). */
static bool streak_of(const struct pbf_scene *s, const struct view *at, float k_px, int i, int w,
                      int h, float reach, struct streak *st)
{
    const struct pbf *sim = &s->sim;
    const float zoom = at->zoom;
    st->x = view_px(at, sim->x[i]), st->y = view_py(at, sim->y[i]);
    if (!(st->x > -reach && st->y > -reach && st->x < (float)w + reach &&
          st->y < (float)h + reach))
        return false;
    const float speed = hypotf(sim->vx[i], sim->vy[i]);
    const bool finite = isfinite(speed);
    const float vx = finite ? sim->vx[i] : 0.0f, vy = finite ? sim->vy[i] : 0.0f;
    st->vx = vx, st->vy = vy, st->speed = finite ? speed : 0.0f;
    /* the streak's lengths are in canvas pixels, k_px of them */
    const float len = clampf(st->speed * zoom * STREAK_TIME - k_px * STREAK_FROM, 0.0f,
                             k_px * STREAK_MAX);
    if (len > 0.0f) {
        const float k = len / (st->speed * (float)(STREAK_TAPS - 1));
        st->dx = vx * k, st->dy = -vy * k, st->n = STREAK_TAPS;
    } else {
        st->dx = st->dy = 0.0f, st->n = 1;
    }
    return true;
}

/* The pixels a place of a streak covers along one axis, and their weights. */
struct taps {
    int n;
    bool run;            /* pixels idx[0], idx[0] + 1, ... in turn (none folded or dropped) */
    int idx[TAPS_MAX];
    float wt[TAPS_MAX];
};

/* Place p's taps from its row of weights wt (k from pixel i0 on, summing to
 * sum): normalised to sum 1; what falls beyond a wall (lo and hi: the first and
 * last pixel inside the walls, a wall off the canvas folding nothing) is
 * mirrored back in, and what falls off the canvas (n pixels) is dropped. */
static void fold_taps(const float (*wt)[STREAK_TAPS], int p, int i0, int k, float sum, int lo,
                      int hi, int n, struct taps *tp)
{
    tp->n = 0, tp->run = false;
    if (!(sum > 0.0f))
        return;
    const float norm = 1.0f / sum;
    if (i0 >= lo && i0 >= 0 && i0 + k - 1 <= hi && i0 + k - 1 < n) { /* nothing to fold or drop */
        for (int t = 0; t < k; t++)
            tp->wt[t] = wt[t][p] * norm, tp->idx[t] = i0 + t;
        tp->n = k, tp->run = true;
        return;
    }
    for (int t = 0; t < k; t++) {
        int i = i0 + t;
        if (lo >= 0 && i < lo)
            i = clampi(2 * lo - 1 - i, lo, hi);
        else if (hi < n && i > hi)
            i = clampi(2 * hi + 1 - i, lo, hi);
        if (i >= 0 && i < n)
            tp->idx[tp->n] = i, tp->wt[tp->n] = wt[t][p] * norm, tp->n++;
    }
}

/* ceilf of v as an int, without a branch (v well within an int); floorf: -ceil_int(-v). */
static int ceil_int(float v)
{
    const int i = (int)v;
    return i + ((float)i < v);
}

/* The taps along one axis of the np places of a streak, centred at c0 - p step:
 * B((i + 0.5 - c) / sc) for pixel i, folded (fold_taps). The places are the
 * lanes of one loop, each summed in the order it would be alone (a lane past
 * its last pixel adds nothing). */
static void streak_taps(float c0, float step, int np, float sc, int lo, int hi, int n,
                        struct taps *out)
{
    const float reach = 2.0f * sc, inv = 1.0f / sc;
    int i0[STREAK_TAPS], k[STREAK_TAPS], most = 0;
    float u0[STREAK_TAPS], sum[STREAK_TAPS] = {0}, wt[TAPS_MAX][STREAK_TAPS];
    for (int p = 0; p < STREAK_TAPS; p++) {
        const float c = c0 - (float)(p < np ? p : 0) * step;
        i0[p] = ceil_int(c - reach - 0.5f);
        k[p] = clampi(-ceil_int(-(c + reach - 0.5f)), i0[p] - 1, i0[p] + TAPS_MAX - 1) - i0[p] + 1;
        u0[p] = ((float)i0[p] + 0.5f - c) * inv;
        most = k[p] > most ? k[p] : most;
    }
    for (int t = 0; t < most; t++)
        for (int p = 0; p < STREAK_TAPS; p++)
            wt[t][p] = bspline3(u0[p] + (float)t * inv);
    for (int p = 0; p < STREAK_TAPS; p++)
        for (int t = k[p]; t < most; t++)
            wt[t][p] = 0.0f;
    for (int t = 0; t < most; t++)
        for (int p = 0; p < STREAK_TAPS; p++)
            sum[p] += wt[t][p];
    for (int p = 0; p < np; p++)
        fold_taps((const float (*)[STREAK_TAPS])wt, p, i0[p], k[p], sum[p], lo, hi, n, out + p);
}

/* Adds weights wx[0..nx) times wa to the pixels of a row in turn, cov[0] on:
 * to cov, and times vx, vy and speed squared to the velocity's planes. A loop
 * of its own, so that it is vectorised along the row (the same sums a pixel). */
static void splat_run(float *restrict cov, float *restrict vx, float *restrict vy,
                      float *restrict v2, const float *restrict wx, int nx, float wa,
                      const struct streak *st)
{
    const float u = st->vx, v = st->vy, speed = st->speed;
    for (int b = 0; b < nx; b++) {
        const float wgt = wa * wx[b];
        cov[b] += wgt;
        vx[b] += wgt * u;
        vy[b] += wgt * v;
        v2[b] += wgt * speed * speed;
    }
}

/* The taps of pixels [lo, hi) alone, in their order (a run stays a run). */
static void taps_within(struct taps *t, int lo, int hi)
{
    int m = 0;
    for (int a = 0; a < t->n; a++)
        if (t->idx[a] >= lo && t->idx[a] < hi)
            t->idx[m] = t->idx[a], t->wt[m] = t->wt[a], m++;
    t->n = m;
}

/* Might a streak's places along y (c0 - p step, p < np) put weight in rows
 * [r0, r1)? Their taps reach 2 sc + 1 rows about them, folded back at the
 * walls (lo and hi) where they cross one: never a row outside the answer. */
static bool streak_meets(float c0, float step, int np, float sc, int lo, int hi, int n, int r0,
                         int r1)
{
    const float c1 = c0 - (float)(np - 1) * step, reach = 2.0f * sc + 1.0f;
    float a = fminf(c0, c1) - reach, b = fmaxf(c0, c1) + reach;
    if (lo >= 0 && a < (float)lo)
        b = fmaxf(b, 2.0f * (float)lo - a);
    if (hi < n && b > (float)hi)
        a = fminf(a, 2.0f * (float)hi + 1.0f - b);
    return !(b < (float)r0 || a >= (float)r1);
}

/* The pixels the body is splatted on: the image's, or the canvas's (k image
 * pixels each, GRID_KERNEL_PX), with the view, the walls (the first and last
 * pixels inside them) and the four fields (cov and vel's planes) in them. */
struct grid {
    float *cov, *vel;
    int w, h, f;         /* f image pixels a grid pixel */
    struct view at;
    float k;             /* grid pixels a canvas pixel */
    int x0, x1, y0, y1;
};

/* The body: every particle's area (a diameter squared: dense water covers its
 * pixels once) spread over the pixels about it by the cubic B-spline, at least
 * a pixel wide, into cov; the velocity and its square times that into vel.
 * Rows [r0, r1) alone: each pixel's sum is the particles' in their order
 * whatever the rows drawn with it (splat_body's bands). */
static void splat_rows(struct pbf_scene *s, const struct grid *g, int r0, int r1)
{
    const struct water_draw *d = &s->draw;
    const struct pbf *sim = &s->sim;
    const int w = g->w, h = g->h;
    const float d_px = 2.0f * sim->prm.radius * g->at.zoom;
    const float sc = fminf(KERNEL_PX * clampf(d_px, 1.0f, SCALE_MAX), SCALE_MAX);
    const float reach = 2.0f * sc + g->k * STREAK_MAX;
    struct taps tx[STREAK_TAPS], ty[STREAK_TAPS];
    const size_t n = (size_t)w * (size_t)h, at = (size_t)r0 * (size_t)w;
    const size_t rows = (size_t)(r1 - r0) * (size_t)w;
    memset(g->cov + at, 0, rows * sizeof *g->cov);
    for (size_t p = 0; p < 3; p++)
        memset(g->vel + p * n + at, 0, rows * sizeof *g->vel);
    const bool whole = r0 == 0 && r1 == h;
    for (int i = 0; i < sim->nfluid; i++) {
        struct streak st;
        if (!streak_of(s, &g->at, g->k, i, w, h, reach, &st) ||
            (!whole && !streak_meets(st.y, st.dy, st.n, sc, g->y0, g->y1, h, r0, r1)))
            continue;
        const float m = d_px * d_px * (1.0f - d->share[i]) / (float)st.n;
        if (!(m > 0.0f))
            continue;
        streak_taps(st.x, st.dx, st.n, sc, g->x0, g->x1, w, tx);
        streak_taps(st.y, st.dy, st.n, sc, g->y0, g->y1, h, ty);
        for (int k = 0; k < st.n && !whole; k++)
            taps_within(&ty[k], r0, r1);
        for (int k = 0; k < st.n; k++) {
            const int *ix = tx[k].idx, nx = tx[k].n;
            const float *wx = tx[k].wt;
            for (int a = 0; a < ty[k].n; a++) {
                float *cov = g->cov + (size_t)ty[k].idx[a] * (size_t)w;
                float *vel = g->vel + (size_t)ty[k].idx[a] * (size_t)w;
                const float wa = m * ty[k].wt[a];
                /* The taps in turn at once, or one by one where the walls fold them. */
                const int runs = tx[k].run ? 1 : nx, len = tx[k].run ? nx : 1;
                for (int b = 0; b < runs; b++)
                    splat_run(cov + ix[b], vel + ix[b], vel + n + ix[b], vel + 2 * n + ix[b],
                              wx + b, len, wa, &st);
            }
        }
    }
}

/* The body's bands: a few a thread, cut where they hold about as many
 * particles (the water lies at the bottom), at rows a multiple of h /
 * SPLAT_ROWS. */
#define SPLAT_ROWS 256

struct splat_job {
    struct pbf_scene *s;
    const struct grid *g;
    int cut[3 * POOL_MAX_THREADS + 1]; /* band b: rows [cut[b], cut[b + 1]) */
};

static void splat_band(void *arg, int part, int nparts)
{
    const struct splat_job *j = arg;
    (void)nparts;
    if (j->cut[part] < j->cut[part + 1])
        splat_rows(j->s, j->g, j->cut[part], j->cut[part + 1]);
}

static void splat_grid(struct pbf_scene *s, const struct grid *g)
{
    const int threads = pool_threads(s->opt.pool), nb = threads > 1 ? 3 * threads : 1;
    const int h = g->h;
    struct splat_job j = {s, g, {0}};
    int count[SPLAT_ROWS] = {0};
    for (int i = 0; i < s->sim.nfluid; i++) {
        const float y = view_py(&g->at, s->sim.y[i]) * (float)SPLAT_ROWS / (float)h;
        count[y > 0.0f ? (int)fminf(y, (float)(SPLAT_ROWS - 1)) : 0]++; /* far off, or NaN: an end */
    }
    int b = 1, run = 0;
    for (int r = 0; r < SPLAT_ROWS && b < nb; r++) {
        run += count[r];
        while (b < nb && (long long)run * nb >= (long long)s->sim.nfluid * b)
            j.cut[b++] = (int)((long long)(r + 1) * h / SPLAT_ROWS);
    }
    while (b <= nb)
        j.cut[b++] = h;
    pool_run(s->opt.pool, splat_band, &j, nb);
}

/* Image pixel i's place between the grid's pixel centres along an axis: the
 * two pixels (within [lo, hi], the walls' inside, so that nothing outside
 * them bleeds in) and the second's weight. */
struct lerp {
    int a, b;
    float t;
};

static struct lerp lerp_at(int i, int f, int lo, int hi)
{
    const float u = ((float)i + 0.5f) / (float)f - 0.5f;
    const int a = (int)floorf(u);
    const float t = u - (float)a;
    return (struct lerp){clampi(a, lo, hi), clampi(a + 1, lo, hi), t};
}

struct up_job {
    struct water_draw *d;
    const struct grid *g;
    int w, h;
    const struct lerp *lx; /* per image column */
};

/* Image rows [y0, y1) of the four fields, bilinear from the grid's. */
static void up_rows(void *arg, int y0, int y1)
{
    const struct up_job *j = arg;
    const struct grid *g = j->g;
    const size_t n = (size_t)j->w * (size_t)j->h, gn = (size_t)g->w * (size_t)g->h;
    const int lo = clampi(g->y0, 0, g->h - 1), hi = clampi(g->y1, lo, g->h - 1);
    for (int y = y0; y < y1; y++) {
        const struct lerp ly = lerp_at(y, g->f, lo, hi);
        for (size_t p = 0; p < 4; p++) {
            const float *src = p ? g->vel + (p - 1) * gn : g->cov;
            const float *ra = src + (size_t)ly.a * (size_t)g->w, *rb = src + (size_t)ly.b * (size_t)g->w;
            float *out = (p ? j->d->vel + (p - 1) * n : j->d->cov) + (size_t)y * (size_t)j->w;
            for (int x = 0; x < j->w; x++) {
                const struct lerp lx = j->lx[x];
                const float top = ra[lx.a] + lx.t * (ra[lx.b] - ra[lx.a]);
                const float bot = rb[lx.a] + lx.t * (rb[lx.b] - rb[lx.a]);
                out[x] = top + ly.t * (bot - top);
            }
        }
    }
}

/* The body into d->cov and d->vel (w x h image pixels): splatted on the image,
 * or where the kernel is wide on the canvas and interpolated (GRID_KERNEL_PX). */
static void splat_body(struct pbf_scene *s, int w, int h)
{
    struct water_draw *d = &s->draw;
    const int k = (int)d->k;
    const float sc = KERNEL_PX * particle_px(s);
    struct grid g = {d->cov, d->vel, w, h, 1, d->at, d->k, d->x0, d->x1, d->y0, d->y1};
    const float from = d->grid_from > 0.0f ? d->grid_from : GRID_KERNEL_PX;
    d->grid_f = 1;
    if (k < 2 || sc < from * (float)k || w % k || h % k) {
        splat_grid(s, &g);
        return;
    }
    d->grid_f = g.f = k, g.w = w / k, g.h = h / k, g.at = s->view, g.k = 1.0f;
    g.cov = d->grid, g.vel = d->grid + (size_t)g.w * (size_t)g.h;
    /* The walls' inner faces lie on the cells' boundaries: on whole canvas pixels. */
    g.x0 = d->x0 < 0 ? d->x0 : d->x0 / k, g.y0 = d->y0 < 0 ? d->y0 : d->y0 / k;
    g.x1 = d->x1 < 0 ? d->x1 : (d->x1 + 1) / k - 1, g.y1 = d->y1 < 0 ? d->y1 : (d->y1 + 1) / k - 1;
    splat_grid(s, &g);
    struct lerp *lx = (struct lerp *)d->row; /* 5 w floats: room for w of these */
    const int lo = clampi(g.x0, 0, g.w - 1), hi = clampi(g.x1, lo, g.w - 1);
    for (int x = 0; x < w; x++)
        lx[x] = lerp_at(x, k, lo, hi);
    struct up_job j = {d, &g, w, h, lx};
    scene_bands(s->opt.pool, h, up_rows, &j);
}

/* Pixel i takes what pixel j has (coverage and velocities) when j has more. */
static void wet_from(struct water_draw *d, size_t n, size_t i, size_t j)
{
    if (d->cov[j] > d->cov[i]) {
        d->cov[i] = d->cov[j];
        for (size_t p = 0; p < 3; p++)
            d->vel[p * n + i] = d->vel[p * n + j];
    }
}

/* The pixels along the walls' inner faces are as wet as their neighbours
 * further in (the faces lie on the cells' boundaries, up to half a cell beyond
 * the band the particles' centres keep to: no centre gets to them, and their
 * coverage would be an edge's). */
static void wet_the_rim(struct water_draw *d, int w, int h)
{
    const size_t n = (size_t)w * (size_t)h, row = (size_t)w;
    for (int y = 0; y < h; y++) {
        const size_t r = (size_t)y * row;
        if (d->x0 >= 0 && d->x0 + 1 < w)
            wet_from(d, n, r + (size_t)d->x0, r + (size_t)d->x0 + 1);
        if (d->x1 >= 1 && d->x1 < w)
            wet_from(d, n, r + (size_t)d->x1, r + (size_t)d->x1 - 1);
    }
    for (int x = 0; x < w; x++) {
        if (d->y0 >= 0 && d->y0 + 1 < h)
            wet_from(d, n, (size_t)d->y0 * row + (size_t)x, (size_t)(d->y0 + 1) * row + (size_t)x);
        if (d->y1 >= 1 && d->y1 < h)
            wet_from(d, n, (size_t)d->y1 * row + (size_t)x, (size_t)(d->y1 - 1) * row + (size_t)x);
    }
}

/* The quadratic B-spline: 3/4 at 0, 0 from 3/2 on; its samples a unit apart
 * sum to 1 wherever they start. */
static float bspline2(float u)
{
    const float a = fabsf(u);
    return a < 0.5f ? 0.75f - a * a : a < 1.5f ? 0.5f * (1.5f - a) * (1.5f - a) : 0.0f;
}

#define DROP_TAPS 8          /* pixels a small drop reaches along an axis, at most */

/* Pixel weights of a small drop (of the drop's area: side 2 half) centred at c
 * along one axis: its length spread by the quadratic B-spline at least a pixel
 * wide, so that a drop is soft-edged (a core and a rim fading into the
 * background), never one hard pixel; what falls off the canvas (n pixels) is
 * dropped. */
static int drop_taps(float c, float half, int n, int *idx, float *wt)
{
    const float sc = fmaxf(2.0f * half, 1.0f), inv = 1.0f / sc;
    const int i0 = (int)floorf(c - 1.5f * sc), i1 = (int)floorf(c + 1.5f * sc);
    float sum = 0.0f, all[DROP_TAPS];
    int m = 0;
    for (int i = i0; i <= i1 && m < DROP_TAPS; i++, m++)
        sum += all[m] = bspline2(((float)i + 0.5f - c) * inv);
    int k = 0;
    for (int t = 0; t < m && sum > 0.0f; t++)
        if (i0 + t >= 0 && i0 + t < n && all[t] > 0.0f)
            idx[k] = i0 + t, wt[k] = 2.0f * half * all[t] / sum, k++;
    return k;
}

/* Adds share times a drop of radius r (pixels) at (x, y) to spr: by the area it
 * covers of each pixel; a square of the disc's area while smaller than a pixel
 * or two, a disc with an anti-aliased rim beyond. */
static void add_drop(float *spr, int w, int h, float x, float y, float r, float share)
{
    if (r < 1.0f) {
        int ix[DROP_TAPS], iy[DROP_TAPS];
        float wx[DROP_TAPS], wy[DROP_TAPS];
        const float half = 0.886227f * r; /* sqrt(pi) / 2 */
        const int nx = drop_taps(x, half, w, ix, wx), ny = drop_taps(y, half, h, iy, wy);
        for (int a = 0; a < ny; a++)
            for (int b = 0; b < nx; b++)
                spr[(size_t)iy[a] * (size_t)w + (size_t)ix[b]] += share * wx[b] * wy[a];
        return;
    }
    const int x0 = clampi((int)floorf(x - r - 0.5f), 0, w), x1 = clampi((int)ceilf(x + r + 0.5f), 0, w);
    const int y0 = clampi((int)floorf(y - r - 0.5f), 0, h), y1 = clampi((int)ceilf(y + r + 0.5f), 0, h);
    for (int py = y0; py < y1; py++)
        for (int px = x0; px < x1; px++) {
            const float dist = hypotf((float)px + 0.5f - x, (float)py + 0.5f - y);
            spr[(size_t)py * (size_t)w + (size_t)px] += share * clampf(r + 0.5f - dist, 0.0f, 1.0f);
        }
}

/* Each particle's share of spray: 1 with little water about it (its density,
 * which the solver weighs its neighbours and itself by, under SPRAY_FROM of the
 * rest density), 0 from SPRAY_TO on, between them a blend. A drop or a few
 * flying together are spray, drawn as drops (soft-edged, by the area they
 * cover), not as the body's sharp edge, which would make each a hard pixel. */
static void spray_shares(struct pbf_scene *s)
{
    const struct pbf *sim = &s->sim;
    const float inv = 1.0f / sim->prm.density0;
    for (int i = 0; i < sim->nfluid; i++) {
        const float f = sim->density[i] * inv;
        s->draw.share[i] = isfinite(f) ? 1.0f - smooth01(SPRAY_FROM, SPRAY_TO, f) : 0.0f;
    }
}

/* Spray: each particle's share of spray (spray_shares) drawn as a drop, by the
 * area it covers of each pixel it overlaps (spr); the rest of it is the
 * body's. */
static void splat_spray(struct pbf_scene *s, int w, int h)
{
    struct water_draw *d = &s->draw;
    const struct pbf *sim = &s->sim;
    const float d_px = 2.0f * sim->prm.radius * s->draw.at.zoom;
    memset(d->spr, 0, (size_t)w * (size_t)h * sizeof *d->spr);
    for (int i = 0; i < sim->nfluid; i++) {
        struct streak st;
        if (!(d->share[i] > 0.0f) || !streak_of(s, &d->at, d->k, i, w, h, 0.0f, &st))
            continue;
        for (int k = 0; k < st.n; k++)
            add_drop(d->spr, w, h, st.x - (float)k * st.dx, st.y - (float)k * st.dy,
                     0.5f * d_px, d->share[i] / (float)st.n);
    }
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

static void play_rows(struct water_draw *d, bool keep, size_t i0, size_t i1)
{
    for (size_t i = i0; i < i1; i++) {
        const float body = d->cov[i], drop = fminf(DROP_GAIN * d->spr[i], 1.0f);
        d->cov[i] = d->kept_body[i] = keep ? with_play(d->kept_body[i], body) : body;
        d->spr[i] = d->kept_drop[i] = keep ? with_play(d->kept_drop[i], drop) : drop;
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

/* The pixels of rows [y0, y1) from the fields (shade_water's last pass). */
struct colour_job {
    struct pbf_scene *s;
    struct image *im;
    float part;          /* particle_px */
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
static void shade_water(struct pbf_scene *s, struct image *im)
{
    struct water_draw *d = &s->draw;
    const int w = im->w, h = im->h;
    const float part = particle_px(s), gain = EDGE_GAIN * fminf(KERNEL_PX * part, SCALE_MAX);
    struct field_job fj = {d, w, h, SHARPEN, gain, d->kept_ok};
    for (fj.pass = SHARPEN; fj.pass <= PLAY_PASS; fj.pass++)
        scene_bands(s->opt.pool, h, field_rows, &fj);
    fill_enclosed_air(d, w, h);
    water_depth(d, w, h, d->y0 < 0 ? d->k * (SURFACE_TO + 1.0f) : 0.0f); /* lid off: no bright line */
    struct colour_job j = {s, im, part};
    scene_bands(s->opt.pool, h, colour_rows, &j);
    d->kept_ok = true;
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
 * inner edge on the water's side when there is room for one. Whole pixels, so
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
    wall(im, b.li - 1.0f, b.ti - 1.0f, b.ri + 1.0f, b.ti, WALL_EDGE);
    wall(im, b.li - 1.0f, b.bi, b.ri + 1.0f, b.bi + 1.0f, WALL_EDGE);
    wall(im, b.li - 1.0f, b.ti - 1.0f, b.li, b.bi + 1.0f, WALL_EDGE);
    wall(im, b.ri, b.ti - 1.0f, b.ri + 1.0f, b.bi + 1.0f, WALL_EDGE);
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
    spray_shares(s);
    splat_body(s, im->w, im->h);
    wet_the_rim(d, im->w, im->h);
    splat_spray(s, im->w, im->h);
    shade_water(s, im);
    draw_walls(s, im, WALL, BACKGROUND, true);
}
