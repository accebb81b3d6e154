/*
 * pixframe.c — a frame in the terminal's own pixels (see pixframe.h): the
 * scale chosen for the link (pixfit), the scene drawn at it, the picture
 * and the cells over it encoded as one update.
 *
 * What a picture costs is measured on every one sent (its bytes, and the
 * ms drawing and encoding took), smoothed, and given back to pixfit with
 * the k it was drawn at; a new k starts its measurement afresh.
 */
#include "pixframe.h"

#include <stdlib.h>
#include <string.h>

#define BSU "\x1b[?2026h"
#define ESU "\x1b[?2026l"

void pixframe_init(struct pixframe *p)
{
    memset(p, 0, sizeof *p);
    p->proto = APP_PIXELS_OFF;
    image_init(&p->img, 1, 1);
    /* PNG8 (the frame's palette, dithered): a third of PNG's bytes for an
     * error of 1-3 (the bench), so a finer picture over the same link. */
    kitty_init(&p->kt, KITTY_ID, KITTY_PNG8, 1);
    sixel_init(&p->sx, QUANT_MEDIAN, QUANT_MAX);
    pixfit_init(&p->fit);
    p->cell_w = PIXFRAME_CELL_W, p->cell_h = PIXFRAME_CELL_H;
}

void pixframe_start(struct pixframe *p, enum app_pixels proto, int colours, int max_w,
                    int max_h)
{
    p->max_w = max_w > 0 ? max_w : 0, p->max_h = max_h > 0 ? max_h : 0;
    p->proto = proto == APP_PIXELS_KITTY || proto == APP_PIXELS_SIXEL ? proto : APP_PIXELS_OFF;
    if (p->proto == APP_PIXELS_SIXEL && colours > 1 && colours < QUANT_MAX) {
        sixel_free(&p->sx);
        sixel_init(&p->sx, QUANT_MEDIAN, colours);
    }
    pixfit_init(&p->fit);
    p->measured_k = 0;
    pixframe_invalidate(p);
}

void pixframe_free(struct pixframe *p)
{
    free(p->holes);
    p->holes = NULL;
    p->holes_cap = 0;
    image_free(&p->img);
    kitty_free(&p->kt);
    sixel_free(&p->sx);
}

/* The protocol's name for the help. */
static const char *pixframe_name(enum app_pixels proto)
{
    return proto == APP_PIXELS_KITTY ? "kitty graphics" : proto == APP_PIXELS_SIXEL ? "sixel" : "glyphs";
}

void pixframe_cell(struct pixframe *p, int cw, int ch)
{
    p->cell_w = cw > 0 ? cw : PIXFRAME_CELL_W;
    p->cell_h = ch > 0 ? ch : PIXFRAME_CELL_H;
    pixframe_invalidate(p);
}

void pixframe_invalidate(struct pixframe *p)
{
    p->still = false;
    kitty_invalidate(&p->kt);
    sixel_invalidate(&p->sx);
}

/* The rows the picture covers: the canvas's; in sixel, none of the last
 * row of the screen (xterm scrolls when an image reaches it). */
static int area_rows(const struct pixframe *p, const struct app *a)
{
    int rows = app_canvas_rows(a);
    if (p->proto == APP_PIXELS_SIXEL && app_canvas_top(a) + rows > a->rows - 1)
        rows = a->rows - 1 - app_canvas_top(a);
    return rows > 0 ? rows : 0;
}

bool pixframe_too_large(const struct pixframe *p, const struct app *a)
{
    return p->proto == APP_PIXELS_SIXEL && p->max_w > 0 && p->max_h > 0 &&
           (a->cols * p->cell_w > p->max_w || area_rows(p, a) * p->cell_h > p->max_h);
}

/* Is a picture drawn at all (else glyphs, whatever the link)? */
static bool drawn(const struct pixframe *p, const struct app *a)
{
    return pixframe_on(p) && !app_too_small(a) && !pixframe_too_large(p, a);
}

static struct pixfit_in fit_in(const struct pixframe *p, const struct app *a)
{
    return (struct pixfit_in){
        .area_w = a->cols * p->cell_w, .area_h = area_rows(p, a) * p->cell_h,
        .canvas_w = app_canvas_w(a), .canvas_h = app_canvas_h(a),
        .measured_k = p->measured_k, .frame_bytes = p->bytes, .frame_ms = p->ms,
        .budget = p->budget, .ms_budget = PIXFRAME_MS_SHARE * 1000.0 / a->o.fps,
        .growth = p->proto == APP_PIXELS_SIXEL ? PIXFIT_GROWTH_REPEAT : PIXFIT_GROWTH,
        .glyph_frames = p->proto == APP_PIXELS_SIXEL ? PIXFIT_GLYPH_FRAMES_SIXEL : PIXFIT_GLYPH_FRAMES,
    };
}

int pixframe_plan(struct pixframe *p, const struct app *a, double avail, double pace, double now)
{
    if (!drawn(p, a))
        return p->k = 0;
    p->budget = avail > 0.0 ? avail / a->o.fps : 0.0;
    const struct pixfit_in in = fit_in(p, a);
    p->k = pixfit_choose(&p->fit, &in, now);
    p->planned = true;
    /* A probe of a higher rate: the frame filled up to it with padding. */
    const double fill = pace > avail && p->k > 0 ? pace / a->o.fps - pixfit_bytes(&in, p->k) : 0.0;
    p->pad = fill > 0.0 ? fill : 0.0;
    return p->k;
}

bool pixframe_coarse(const struct pixframe *p, const struct app *a)
{
    if (!drawn(p, a) || p->k < 1)
        return false;
    const struct pixfit_in in = fit_in(p, a);
    return p->k < pixfit_max(&in);
}

double pixframe_want(const struct pixframe *p, const struct app *a)
{
    if (!drawn(p, a))
        return 0.0;
    const struct pixfit_in in = fit_in(p, a);
    const int kmax = pixfit_max(&in);
    const int k = p->k < 1 ? 1 : p->k < kmax ? p->k + 1 : kmax;
    return pixfit_bytes(&in, k) * a->o.fps;
}

/* What deletes our pictures (kitty), appended to out: on leaving pixels. */
static void pixframe_clear(struct pixframe *p, struct buf *out)
{
    if (p->proto == APP_PIXELS_KITTY && p->shown)
        kitty_clear(&p->kt, out);
    p->shown = false;
    pixframe_invalidate(p);
}

bool pixframe_still_fits(const struct pixframe *p, const struct app *a)
{
    if (!a->paused || !drawn(p, a))
        return false;
    const struct pixfit_in in = fit_in(p, a);
    return !(p->budget > 0.0) ||
           pixfit_bytes(&in, pixfit_max(&in)) <= p->budget * a->o.fps * PIXFRAME_STILL_S;
}

bool pixframe_pick(struct pixframe *p, const struct app *a, struct encoder *enc, double now,
                   struct buf *out)
{
    if (!p->planned) {
        if (drawn(p, a)) {
            const struct pixfit_in in = fit_in(p, a);
            p->k = pixfit_choose(&p->fit, &in, now);
        } else {
            p->k = 0;
        }
        p->pad = 0.0;
    }
    p->planned = false;
    if (!a->paused)
        p->still = false;
    /* A still picture: at the finest, once (nothing follows it), even where
     * the moving one gave way to glyphs, if it goes within PIXFRAME_STILL_S. */
    const bool pix = drawn(p, a) && (p->k > 0 || pixframe_still_fits(p, a));
    if (pix && a->paused) {
        const struct pixfit_in in = fit_in(p, a);
        p->k = pixfit_max(&in);
    }
    if (!pix && p->shown) { /* glyphs from here: the picture goes, every cell is sent */
        pixframe_clear(p, out);
        encode_invalidate(enc);
    }
    return pix;
}

/* The canvas's rows of the screen's image (the same width: a block of it). */
static struct image canvas_view(const struct pixframe *p, const struct app *a)
{
    const int k = p->img.w / (a->cols > 0 ? a->cols : 1);
    struct image v = p->img;
    v.px += (size_t)(2 * k * app_canvas_top(a)) * (size_t)v.w;
    v.h = k * app_canvas_h(a);
    return v;
}

/* Rows [y0, y1) of the image black. */
static void black_rows(struct image *im, int y0, int y1)
{
    for (size_t i = (size_t)y0 * (size_t)im->w; i < (size_t)y1 * (size_t)im->w; i++)
        im->px[i] = RGB(0, 0, 0);
}

void pixframe_draw(struct pixframe *p, const struct app *a, struct frame_stats *fs,
                   struct cells *cells)
{
    const int k = p->k > 0 ? p->k : 1;
    if (p->img.w != k * a->cols || p->img.h != 2 * k * a->rows)
        image_resize(&p->img, k * a->cols, 2 * k * a->rows);
    struct image v = canvas_view(p, a);
    app_scene(a)->draw(a->st[a->cur], &v);
    const int y0 = 2 * k * app_canvas_top(a);
    black_rows(&p->img, 0, y0);
    black_rows(&p->img, y0 + v.h, p->img.h);
    const struct pixfit_in in = fit_in(p, a);
    fs->pixels = pixframe_name(p->proto);
    fs->pixel_k = k, fs->pixel_kmax = pixfit_max(&in);
    fs->pixel_w = v.w, fs->pixel_h = v.h;
    cells_clear(cells, 0, cells->rows, COLOR_DEFAULT);
}

static bool blank(const struct cell *c)
{
    return c->ch == ' ' && c->bg == COLOR_DEFAULT;
}

/* Sixel: will the cells change any in the picture's area (a space over the
 * picture erases it)? */
static bool area_touched(const struct encoder *enc, const struct cells *cells, int r0, int r1)
{
    if (!enc->valid || enc->cols != cells->cols || enc->rows != cells->rows)
        return true;
    for (size_t i = (size_t)r0 * (size_t)cells->cols; i < (size_t)r1 * (size_t)cells->cols; i++)
        if (memcmp(&enc->shadow[i], &cells->c[i], sizeof cells->c[i]) != 0)
            return true;
    return false;
}

/* Sixel: the cells of rows [r0, r1) that are not blank, as holes the picture
 * leaves (text keeps its pixels, never painted over for a moment). */
static void mark_holes(struct pixframe *p, const struct cells *cells, int r0, int r1)
{
    const size_t n = (size_t)(r1 - r0) * (size_t)cells->cols;
    if (n > p->holes_cap) {
        p->holes = buf_xrealloc(p->holes, n);
        p->holes_cap = n;
    }
    for (size_t i = 0; i < n; i++)
        p->holes[i] = !blank(&cells->c[(size_t)r0 * (size_t)cells->cols + i]);
    p->sx.holes = p->holes, p->sx.hole_cols = cells->cols, p->sx.hole_rows = r1 - r0;
}

/* Sixel: the text in the picture's area (its holes, mark_holes: from row r0)
 * is sent again (a terminal may erase the cells a picture lies over, holes or
 * not). */
static void text_again(const struct pixframe *p, struct encoder *enc, const struct cells *cells,
                       int r0, struct buf *out)
{
    bool any = false;
    const size_t n = (size_t)p->sx.hole_rows * (size_t)p->sx.hole_cols;
    for (size_t i = 0; i < n; i++)
        if (p->holes[i]) {
            encode_forget(enc, (int)(i % (size_t)cells->cols), r0 + (int)(i / (size_t)cells->cols));
            any = true;
        }
    if (any)
        encode_frame(enc, cells, out);
}

/* The picture and the cells, in the protocol's order; true when a picture went. */
static bool encode_both(struct pixframe *p, const struct app *a, struct encoder *enc,
                        const struct cells *cells, struct buf *out)
{
    const int top = app_canvas_top(a), rows = area_rows(p, a);
    if (p->proto == APP_PIXELS_KITTY) {
        /* The whole screen: kitty 0.26 (software GL) blended cells of a
         * background of their own outside the picture with what it last
         * drew there (the status line showed its old text, in red). */
        const bool sent = kitty_frame(&p->kt, &p->img, 0, 0, a->cols, a->rows, out);
        encode_frame(enc, cells, out);
        return sent;
    }
    if (area_touched(enc, cells, top, top + rows))
        sixel_invalidate(&p->sx);
    encode_frame(enc, cells, out);
    const struct pixfit_in in = fit_in(p, a); /* (the picture fills its area at any k) */
    p->sx.scale = pixfit_repeat(&in, p->k);
    /* The canvas: k x scale <= the most the area holds (pixfit_max), so it
     * stops above the last row; stretched to the area (cells of 17 pixels
     * hold 16 of a picture, a scale of 2 at k = 3 fills 6 of 8: bands of
     * black beside it, else). */
    p->sx.width = a->cols * p->cell_w, p->sx.height = rows * p->cell_h;
    const struct image canvas = canvas_view(p, a);
    if (canvas.h >= 1)
        mark_holes(p, cells, top, top + rows);
    if (canvas.h < 1 || !sixel_frame(&p->sx, &canvas, 0, top, out))
        return false;
    text_again(p, enc, cells, top, out);
    return true;
}

size_t pixframe_encode(struct pixframe *p, const struct app *a, struct encoder *enc,
                       const struct cells *cells, double t0, double (*clock)(void),
                       struct buf *out)
{
    const size_t start = out->len;
    const bool sync = enc->sync;
    /* Sixel: the picture and the cells in one update (a terminal draws sixel
     * as it decodes). Not kitty's: its picture shows once all of it has
     * come, over the last one, and kitty holds an update's bytes unread
     * (the flow control's pings unanswered) until it ends or 2 s pass: a
     * picture more than the bytes in flight allow stalled for those 2 s. */
    const bool wrap = sync && p->proto == APP_PIXELS_SIXEL;
    enc->sync = false;
    if (wrap)
        buf_puts(out, BSU);
    const size_t body = out->len;
    const bool sent = encode_both(p, a, enc, cells, out);
    enc->sync = sync;
    const struct pixfit_in in = fit_in(p, a); /* a paused picture at the finest on screen */
    p->still = a->paused && (sent || p->shown) && p->k >= pixfit_max(&in);
    if (out->len == body) {
        out->len = start;
        return 0;
    }
    if (wrap)
        buf_puts(out, ESU);
    if (sent) {
        p->shown = true;
        p->last_bytes = out->len - body;
        const double ms = (clock() - t0) * 1000.0;
        if (p->measured_k != p->k)
            p->measured_k = p->k, p->bytes = (double)p->last_bytes, p->ms = ms;
        p->bytes += PIXFRAME_SMOOTH * ((double)p->last_bytes - p->bytes);
        p->ms += PIXFRAME_SMOOTH * (ms - p->ms);
    }
    static const char nul[256]; /* padding: terminals ignore NUL */
    for (size_t left = (size_t)p->pad; left > 0;) {
        const size_t n = left < sizeof nul ? left : sizeof nul;
        buf_put(out, nul, n);
        left -= n;
    }
    p->pad = 0.0;
    return out->len - start;
}
