/*
 * pbf_splat.c — the water's fields from its particles (pbf_draw.c's first
 * passes): each particle's area spread by a cubic B-spline into the body's
 * coverage and velocities (on the pool in bands of rows, on the image's
 * pixels or the canvas's and interpolated), moving water along the way it
 * came (a streak), folded back at the walls; and a particle's share of spray
 * spread as a soft drop into the drops' coverage.
 */
#include "pbf_scene.h"
#include "pool.h"

#include <math.h>
#include <string.h>

#define TAPS_MAX 260         /* taps along one axis at SCALE_MAX (4 SCALE_MAX + 1) */
#define GRID_KERNEL_PX 3.0f  /* the body is splatted on the canvas's pixels, k image pixels
                              * each, and interpolated to the image where its kernel is
                              * this many canvas pixels and more (a field that smooth is
                              * within a hundredth of the image's: its edge within a tenth
                              * of a pixel; the splat's taps a k-th along each axis) */
#define SPRAY_FROM 0.55f     /* a particle's density (of the rest density): all spray below
                              * this (a lone particle's is 0.4-0.5, a pair's 0.5-0.6) ... */
#define SPRAY_TO 0.75f       /* ... all body above this (the surface's is 0.8 and more) */
#define STREAK_TIME 0.03f    /* s: moving water is drawn along the way it came over this, */
#define STREAK_FROM 0.5f     /* px: less this (what barely moves is drawn where it is) */
#define STREAK_MAX 4.0f      /* px: and no longer than this */
#define STREAK_TAPS 4        /* places along a streak */

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
void water_splat_body(struct pbf_scene *s, int w, int h)
{
    struct water_draw *d = &s->draw;
    const int k = (int)d->k;
    const float sc = KERNEL_PX * water_particle_px(s);
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
void water_wet_the_rim(struct water_draw *d, int w, int h)
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
void water_spray_shares(struct pbf_scene *s)
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
void water_splat_spray(struct pbf_scene *s, int w, int h)
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
