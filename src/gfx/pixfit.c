/*
 * pixfit.c — the scale of a picture in pixels, fitted to a frame's budget
 * (see pixfit.h).
 *
 * The cost model: a frame measured at k0 costing B bytes and T ms costs
 * B (k / k0)^PIXFIT_GROWTH and T (k / k0)^2 at k. Before any frame at all,
 * B is PIXFIT_CELL_BYTES a cell at k = 1; while glyphs are drawn (no pixel
 * frames to measure), the last estimate of a k = 1 frame stands.
 */
#include "pixfit.h"

#include <math.h>

void pixfit_init(struct pixfit *p) { *p = (struct pixfit){-1, -1.0, -1.0, -1.0, 0.0}; }

int pixfit_max(const struct pixfit_in *in)
{
    if (in->canvas_w < 1 || in->canvas_h < 1)
        return 1;
    const int kx = in->area_w / in->canvas_w, ky = in->area_h / in->canvas_h;
    const int k = kx < ky ? kx : ky;
    return k > 1 ? k : 1;
}

int pixfit_repeat(const struct pixfit_in *in, int k)
{
    const int s = pixfit_max(in) / (k > 0 ? k : 1);
    return s > 1 ? s : 1;
}

/* A frame's bytes as k^this. */
static double growth(const struct pixfit_in *in)
{
    return in->growth > 0.0 ? in->growth : PIXFIT_GROWTH;
}

static bool measured(const struct pixfit_in *in)
{
    return in->measured_k > 0 && in->frame_bytes > 0.0;
}

double pixfit_bytes(const struct pixfit_in *in, int k)
{
    if (measured(in))
        return in->frame_bytes * pow((double)k / in->measured_k, growth(in));
    const double cells = 0.5 * (double)in->canvas_w * (double)in->canvas_h;
    return PIXFIT_CELL_BYTES * cells * pow((double)k, growth(in));
}

/* ... and in encoding ms (0: not known). */
static double pixfit_ms(const struct pixfit_in *in, int k)
{
    if (in->measured_k < 1 || !(in->frame_ms > 0.0))
        return 0.0;
    const double r = (double)k / in->measured_k;
    return in->frame_ms * r * r;
}

/* Glyphs once a k = 1 frame takes this many frames' budgets. */
static double glyph_frames(const struct pixfit_in *in)
{
    return in->glyph_frames > 0.0 ? in->glyph_frames : PIXFIT_GLYPH_FRAMES;
}

/* What a k = 1 frame costs: measured now, or the last estimate while glyphs
 * are drawn, or the prior. */
static double k1_bytes(const struct pixfit *p, const struct pixfit_in *in)
{
    return !measured(in) && p->k1_bytes > 0.0 ? p->k1_bytes : pixfit_bytes(in, 1);
}

/* Does a frame at k fit in `share` of the budgets? */
static bool fits(const struct pixfit *p, const struct pixfit_in *in, int k, double share)
{
    const double bytes = k1_bytes(p, in) * pow((double)k, growth(in));
    return (!(in->budget > 0.0) || bytes <= in->budget * share) &&
           (!(in->ms_budget > 0.0) || pixfit_ms(in, k) <= in->ms_budget * share);
}

/* The largest k up to kmax that fits (1 if none does). */
static int largest_fit(const struct pixfit *p, const struct pixfit_in *in, int kmax)
{
    int k = kmax;
    while (k > 1 && !fits(p, in, k, 1.0))
        k--;
    return k;
}

/* Has `cond` held for `after` seconds? (*since: when it began, -1: not.) */
static bool held(bool cond, double *since, double now, double after)
{
    if (!cond) {
        *since = -1.0;
        return false;
    }
    if (*since < 0.0)
        *since = now;
    return now - *since >= after;
}

/* Glyphs or pixels: true where the mode changed (p->k set). */
static bool glyphs_or_pixels(struct pixfit *p, const struct pixfit_in *in, int kmax, double now)
{
    const double k1 = k1_bytes(p, in), room = in->budget * glyph_frames(in);
    if (p->k == 0) {
        if (held(!(in->budget > 0.0) || k1 <= room * PIXFIT_ROOM, &p->glyph_t, now,
                 PIXFIT_UP_AFTER)) {
            p->k = largest_fit(p, in, kmax);
            p->over_t = p->room_t = p->glyph_t = -1.0;
        }
        return true;
    }
    if (held(in->budget > 0.0 && k1 > room, &p->glyph_t, now, PIXFIT_DOWN_AFTER)) {
        p->k = 0;
        p->glyph_t = -1.0;
        return true;
    }
    return false;
}

int pixfit_choose(struct pixfit *p, const struct pixfit_in *in, double now)
{
    const int kmax = pixfit_max(in);
    if (measured(in))
        p->k1_bytes = pixfit_bytes(in, 1);
    if (p->k < 0) { /* the first frame: no steps yet */
        p->k = in->budget > 0.0 && k1_bytes(p, in) > in->budget * glyph_frames(in)
                   ? 0
                   : largest_fit(p, in, kmax);
        return p->k;
    }
    if (glyphs_or_pixels(p, in, kmax, now))
        return p->k;
    if (p->k > kmax) /* the area shrank */
        p->k = kmax;
    if (held(!fits(p, in, p->k, 1.0), &p->over_t, now, PIXFIT_DOWN_AFTER) ||
        !fits(p, in, p->k, PIXFIT_OVER)) {
        p->k = largest_fit(p, in, kmax);
        p->over_t = p->room_t = -1.0;
    } else if (held(p->k < kmax && fits(p, in, p->k + 1, PIXFIT_ROOM), &p->room_t, now,
                    PIXFIT_UP_AFTER)) {
        p->k++;
        p->room_t = -1.0;
    }
    return p->k;
}
