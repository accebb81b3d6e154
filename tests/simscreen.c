/*
 * simscreen.c — swirl's frames behind the simulated link and the screen at
 * its far end (see simscreen.h).
 */
#include "simscreen.h"
#include "app.h"
#include "encode.h"
#include "encode_internal.h"
#include "frame.h"

#include <stdlib.h>
#include <string.h>

#define FLIGHT 64 /* frames on their way, at most */

/* A frame on its way: the screen it leaves, when it was made, and which of
 * its cells then showed the picture of that moment (at the level in force,
 * within the tolerance there: every cell of a whole frame). */
struct flight {
    struct cell *screen;
    unsigned char *fresh;
    double t;
};

struct src {
    const struct simscreen_cfg *cfg;
    struct app a;
    struct frame fr;
    struct buf out;
    struct image exact_img;
    struct cells exact;      /* the frame drawn whole in truecolour */
    struct cells screen;     /* what the terminal shows: the last frame that reached it */
    struct flight flight[FLIGHT];
    int fhead, fn;
    unsigned short *err;
    double *fresh_t;         /* when what each cell shows was last the picture */
    double drawn_t;          /* the frame time `exact` was drawn for (-1: none yet) */
    double warm, err_sum, stale_sum, stale_max, exact_t, last_err;
    long judged, pictures;
    double k_sum;
    int level, changes;
    bool paused, dirty, fewer_colours;
};

static double no_clock(void) { return 0.0; }

static void shown(void *ctx, double t)
{
    (void)t;
    struct src *s = ctx;
    if (s->fn == 0)
        return;
    const struct flight *fl = &s->flight[s->fhead];
    size_t n = (size_t)s->screen.cols * (size_t)s->screen.rows;
    memcpy(s->screen.c, fl->screen, n * sizeof *s->screen.c);
    for (size_t i = 0; i < n; i++)
        if (fl->fresh[i] && fl->t > s->fresh_t[i])
            s->fresh_t[i] = fl->t;
    s->fhead = (s->fhead + 1) % FLIGHT, s->fn--;
}

/* A frame just sent: the screen it leaves once it arrives, and which of its
 * cells show the picture it was made of (the level's: the frame's cells). */
static void sent(struct src *s, double t)
{
    if (s->fn == FLIGHT)
        abort(); /* more frames on the way than the flow control lets go: a bug */
    struct flight *fl = &s->flight[(s->fhead + s->fn++) % FLIGHT];
    size_t n = (size_t)s->screen.cols * (size_t)s->screen.rows;
    memcpy(fl->screen, s->fr.enc.shadow, n * sizeof *fl->screen);
    encode_cells_error(fl->screen, &s->fr.cells, s->err);
    const int tol = s->fr.enc.exact ? 0 : s->fr.enc.tolerance;
    for (size_t i = 0; i < n; i++)
        fl->fresh[i] = s->err[i] <= tol + 2; /* (a level or two for rounding) */
    fl->t = t;
}

/* The screen until now against the pictures of the last frame time. */
static void judge(struct src *s)
{
    const double t = s->drawn_t;
    const double err = encode_cells_error(s->screen.c, &s->exact, NULL);
    size_t n = (size_t)s->screen.cols * (size_t)s->screen.rows, stale = 0;
    for (size_t i = 0; i < n; i++) {
        double age = t - s->fresh_t[i];
        if (t >= s->warm && age > s->stale_max)
            s->stale_max = age;
        stale += age > SIMSCREEN_STALE;
    }
    if (t >= s->warm) {
        s->err_sum += err, s->judged++;
        s->stale_sum += (double)stale / (double)n;
    }
    if (s->cfg->clear_at > 0.0 && t >= s->cfg->clear_at && s->exact_t < 0.0 &&
        err <= s->cfg->exact_err)
        s->exact_t = t - s->cfg->clear_at;
    s->last_err = err;
}

static size_t frame(void *ctx, double t, bool send, double avail, double pace, double *want)
{
    struct src *s = ctx;
    if (s->drawn_t >= 0.0)
        judge(s);
    if (s->cfg->pause_at > 0.0 && t >= s->cfg->pause_at && !s->paused) {
        struct input_event ev = {.type = INPUT_KEY, .key = ' '};
        app_input(&s->a, &ev);
        s->paused = s->dirty = true;
    }
    if (send) /* as the terminal loop plans a frame */
        frame_plan(&s->fr, &s->a, avail, pace, true, t);
    buf_clear(&s->out);
    size_t n = frame_next(&s->fr, &s->a, 1.0 / s->a.o.fps, no_clock, s->dirty, send ? &s->out : NULL);
    s->dirty = s->dirty && !send;
    *want = frame_want(&s->fr, &s->a, t);
    if (n > 0)
        sent(s, t);
    if (n > 0 && t >= s->warm && s->fr.px.k > 0)
        s->k_sum += s->fr.px.k, s->pictures++;
    if (t >= s->warm) {
        s->changes += s->fr.lad.rung != s->level;
        s->fewer_colours = s->fewer_colours || ladder_rungs[s->fr.lad.rung].fewer_colours;
    }
    s->level = s->fr.lad.rung;
    /* The frame drawn whole, for the error (the status line as the frame's). */
    struct frame_stats st = s->fr.st;
    st.fewer_colours = false;
    st.block = (struct cells_block){0, 0, false};
    compose_frame(&s->a, &st, &s->exact_img, &s->exact);
    s->drawn_t = t;
    return n;
}

int simscreen_run(const struct simscreen_cfg *cfg, struct simlink_cfg *c, struct simlink_result *r,
                  struct simscreen_seen *seen)
{
    static struct src s;
    memset(&s, 0, sizeof s);
    memset(seen, 0, sizeof *seen);
    seen->err = seen->exact_t = -1.0;
    struct app_opts o;
    app_opts_default(&o);
    o.autopilot = true;
    o.scene = cfg->scene;
    if (app_init(&s.a, &o, cfg->cols, cfg->rows) != 0)
        return -1;
    s.cfg = cfg;
    frame_init(&s.fr, &s.a, true);
    if (cfg->pixels != APP_PIXELS_OFF) {
        pixframe_start(&s.fr.px, cfg->pixels, 0, 0, 0);
        pixframe_cell(&s.fr.px, 8, 17);
    }
    buf_init(&s.out);
    image_init(&s.exact_img, 1, 1);
    cells_init(&s.exact, cfg->cols, cfg->rows);
    cells_init(&s.screen, cfg->cols, cfg->rows);
    size_t n = (size_t)cfg->cols * (size_t)cfg->rows;
    for (int i = 0; i < FLIGHT; i++) {
        s.flight[i].screen = buf_xrealloc(NULL, n * sizeof *s.flight[i].screen);
        s.flight[i].fresh = buf_xrealloc(NULL, n);
    }
    s.err = buf_xrealloc(NULL, n * sizeof *s.err);
    s.fresh_t = buf_xrealloc(NULL, n * sizeof *s.fresh_t);
    for (size_t i = 0; i < n; i++)
        s.fresh_t[i] = 0.0; /* the blank screen was the picture at the start */
    s.warm = c->warm;
    s.drawn_t = s.exact_t = -1.0;
    struct simlink_source src = {&s, frame, shown};
    c->source = &src;
    c->fps = o.fps;
    simlink_run(c, r);
    c->source = NULL;
    double span = c->seconds - c->warm;
    if (s.judged) {
        seen->err = s.err_sum / (double)s.judged;
        seen->stale = s.stale_sum / (double)s.judged;
    }
    seen->stale_max = s.stale_max;
    seen->changes = span > 0.0 ? 60.0 * s.changes / span : 0.0;
    seen->level = s.level;
    seen->fewer_colours = s.fewer_colours;
    seen->exact_t = s.exact_t;
    seen->end_err = s.last_err;
    seen->pixel_k = s.pictures ? s.k_sum / (double)s.pictures : 0.0;
    seen->pixel_k_end = s.fr.px.k;
    app_free(&s.a);
    frame_free(&s.fr);
    buf_free(&s.out);
    image_free(&s.exact_img);
    cells_free(&s.exact);
    cells_free(&s.screen);
    for (int i = 0; i < FLIGHT; i++) {
        free(s.flight[i].screen);
        free(s.flight[i].fresh);
    }
    free(s.err);
    free(s.fresh_t);
    return 0;
}
