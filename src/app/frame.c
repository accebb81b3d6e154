/*
 * frame.c — advance, compose, encode: one frame for every caller (see frame.h).
 *
 * The encoder sweeps one row a frame exactly (what the tolerance let stand is
 * put right within a second); a new picture from the app (a scene switch) or a
 * repaint sends every cell. A paused picture that nothing changed sends nothing.
 */
#include "compose.h"
#include "frame.h"
#include "shot.h"
#include "pool.h"

#include <stdlib.h>
#include <string.h>

#define FRAME_STEP_BUDGET 0.7 /* share of a frame the steps may take */

void frame_init(struct frame *f, const struct app *a, bool simulated)
{
    memset(f, 0, sizeof *f);
    image_init(&f->img, 1, 1); /* compose_frame sizes it to the canvas, whatever the glyphs */
    cells_init(&f->cells, a->cols, a->rows);
    encode_init(&f->enc, a->o.color, a->o.tolerance, a->o.sync);
    f->enc.sweep = true;
    f->st.simulated = simulated;
    if (simulated)
        f->st.fps = a->o.fps;
    f->picture = a->picture;
    f->fps_t0 = -1.0;
    tune_init(&f->tune, pool_threads(a->so.pool), a->o.threads_auto, cells_scale(a->o.glyphs) > 1);
    ladder_init(&f->lad);
    if (!simulated) /* a recording's frames are the same at any size */
        ladder_start(&f->lad, (long)a->cols * a->rows);
    encode_init(&f->trial_enc, a->o.color, a->o.tolerance, false);
    f->trial_enc.sweep = true;
    cells_init(&f->trial_cells, 1, 1); /* sized at the first trial: most runs have none */
    buf_init(&f->trial_out);
    pixframe_init(&f->px);
    cells_init(&f->fine, 1, 1); /* sized at the first picture of blocks */
    cells_init(&f->fine_was, 1, 1);
}

void frame_free(struct frame *f)
{
    image_free(&f->img);
    cells_free(&f->cells);
    encode_free(&f->enc);
    encode_free(&f->trial_enc);
    cells_free(&f->trial_cells);
    buf_free(&f->trial_out);
    pixframe_free(&f->px);
    cells_free(&f->fine);
    cells_free(&f->fine_was);
    free(f->fine_still);
}

/* The picture at rung r of the ladder, as the composer draws it. */
static void rung_stats(struct frame_stats *st, int r)
{
    st->block = ladder_rungs[r].block;
    st->fewer_colours = ladder_rungs[r].fewer_colours;
    st->link_step = r;
    st->link_word = r > 0 ? ladder_rungs[r].name : NULL;
}

double frame_plan(struct frame *f, const struct app *a, double avail, double pace, bool colours,
                  double now)
{
    const int was = f->lad.rung, trial = f->lad.trial;
    f->plan_t = now;
    if (pixframe_plan(&f->px, a, avail, pace, now) > 0) { /* pixels: the scale is the level */
        rung_stats(&f->st, 0);
        f->enc.pad = 0.0;
        return a->o.fps;
    }
    /* Where the colours change, every cell is repainted: the screen shows
     * another palette, which the shadow does not know. */
    if (ladder_plan(&f->lad, avail, a->o.fps, colours, now) &&
        ladder_rungs[was].fewer_colours != ladder_rungs[f->lad.rung].fewer_colours)
        encode_invalidate(&f->enc);
    if (f->lad.trial >= 0 && f->lad.trial != trial)
        encode_invalidate(&f->trial_enc); /* a trial starts from a repaint, not counted */
    rung_stats(&f->st, f->lad.rung);
    f->st.link_start = f->lad.starting;
    /* A probe of a higher rate: the frame filled up to it with padding. */
    const double fill = pace > avail ? pace / a->o.fps - f->lad.need[f->lad.rung] : 0.0;
    f->enc.pad = fill > 0.0 ? fill : 0.0;
    return ladder_fps(&f->lad, avail, a->o.fps);
}

void frame_resize(struct frame *f, int cols, int rows)
{
    cols = cols < 1 ? 1 : cols;
    rows = rows < 2 ? 2 : rows;
    cells_resize(&f->cells, cols, rows);
    if (!f->st.simulated)
        ladder_start(&f->lad, (long)cols * rows);
    encode_invalidate(&f->enc);
    encode_invalidate(&f->trial_enc);
    pixframe_invalidate(&f->px);
    /* (compose_frame sizes the image to the canvas as it is) */
}

void frame_repaint(struct frame *f)
{
    encode_invalidate(&f->enc);
    pixframe_invalidate(&f->px);
}

double frame_want(const struct frame *f, const struct app *a, double now)
{
    return f->px.k > 0 ? pixframe_want(&f->px, a) : ladder_want(&f->lad, a->o.fps, now);
}

static void count_fps(struct frame *f, double now)
{
    if (f->st.simulated)
        return;
    if (f->fps_t0 < 0.0)
        f->fps_t0 = now;
    f->fps_frames++;
    if (now - f->fps_t0 >= 1.0) {
        f->st.fps = f->fps_frames / (now - f->fps_t0);
        f->fps_t0 = now, f->fps_frames = 0;
    }
}

/* On a real clock, after a frame it sent: what the frame would have cost
 * with all its steps (the steps' time scaled from those that ran), for the
 * threads in use and the detail (tune.h), which change from the next frame. */
static void tune_after(struct frame *f, struct app *a, double dt, int cur, long ran)
{
    if (f->st.simulated || !(dt > 0.0) || a->cur != cur || ran <= 0)
        return;
    const double due = app_scene(a)->steps_per_frame(a->st[cur]) * dt * APP_REF_FPS;
    const double cost = f->t.step * due / (double)ran + f->t.draw + f->t.fit + f->t.encode;
    if (!tune_frame(&f->tune, cost, dt))
        return;
    pool_use(a->so.pool, f->tune.threads);
    if (f->tune.level != a->detail)
        app_set_detail(a, f->tune.level);
}

#define FRAME_FINE_STILL 4 /* frames running a cell is the same before it is kept fine */

/* A picture of blocks keeps its still parts fine: a cell whose own picture
 * (drawn whole) has been the same FRAME_FINE_STILL frames running is shown as it
 * is, not as its block (the box's walls, a settled background, water at rest
 * are sharp, and cost their bytes once; what moves is coarse). The counts are
 * kept while the picture is of blocks and start again when it becomes one. */
static void fine_count(struct frame *f, const struct app *a)
{
    const size_t n = (size_t)f->cells.cols * (size_t)f->cells.rows;
    if (!f->fine_counted || f->fine.cols != f->cells.cols || f->fine.rows != f->cells.rows) {
        cells_resize(&f->fine, f->cells.cols, f->cells.rows);
        cells_resize(&f->fine_was, f->cells.cols, f->cells.rows);
        f->fine_still = buf_xrealloc(f->fine_still, n);
        memset(f->fine_still, 0, n);
    }
    struct frame_stats whole = f->st;
    whole.block = (struct cells_block){0, 0, false};
    compose_blit(a, &whole, &f->img, &f->fine);
    for (size_t i = 0; i < n; i++)
        cells_count_still(&f->fine_still[i], &f->fine_was.c[i], &f->fine.c[i], false);
    f->fine_counted = true;
}

/* The still cells of `cells`, a picture of blocks, fine (see fine_count). */
static void fine_keep(const struct frame *f, struct cells *cells)
{
    if (cells->cols != f->fine.cols || cells->rows != f->fine.rows)
        return;
    const size_t n = (size_t)cells->cols * (size_t)cells->rows;
    for (size_t i = 0; i < n; i++)
        if (f->fine_still[i] >= FRAME_FINE_STILL)
            cells->c[i] = f->fine.c[i];
}

/* A trial (ladder.h): the picture just drawn, at the rung on trial, encoded
 * against the trial's own screen into nothing but its count of bytes. */
static void trial_frame(struct frame *f, const struct app *a)
{
    struct frame_stats st = f->st;
    rung_stats(&st, f->lad.trial);
    if (f->trial_cells.cols != f->cells.cols || f->trial_cells.rows != f->cells.rows) {
        cells_resize(&f->trial_cells, f->cells.cols, f->cells.rows);
        encode_invalidate(&f->trial_enc);
    }
    compose_blit(a, &st, &f->img, &f->trial_cells);
    if (compose_blocky(&st) && f->fine_counted)
        fine_keep(f, &f->trial_cells);
    compose_over(a, &st, &f->trial_cells);
    f->trial_enc.mode = compose_mode(a, &st);
    f->trial_enc.block = st.block;
    f->trial_enc.tolerance = a->o.tolerance_set ? a->o.tolerance
                                                : ladder_tolerance_at(f->lad.trial, a->o.tolerance);
    const bool repaint = !f->trial_enc.valid;
    buf_clear(&f->trial_out);
    encode_frame(&f->trial_enc, &f->trial_cells, &f->trial_out);
    ladder_trial(&f->lad, (double)f->trial_out.len, repaint);
}

/* A frame in pixels (pixframe.h): the scene at the scale chosen, the
 * overlays as text, the picture and the cells in one update. */
static size_t pixel_frame(struct frame *f, struct app *a, double dt, double (*clock)(void),
                          int cur, long ran, size_t before, struct buf *out)
{
    const double t1 = clock();
    pixframe_draw(&f->px, a, &f->st, &f->cells);
    const double t2 = clock();
    compose_over(a, &f->st, &f->cells);
    if (a->help)
        app_help_shown(a, compose_help_over(a, &f->st));
    f->enc.exact = true; /* text alone: every change of it exact */
    f->enc.block = (struct cells_block){0, 0, false};
    f->enc.mode = compose_mode(a, &f->st);
    f->enc.tolerance = a->o.tolerance;
    pixframe_encode(&f->px, a, &f->enc, &f->cells, t1, clock, out);
    f->t.draw = t2 - t1, f->t.encode = clock() - t2;
    tune_after(f, a, dt, cur, ran);
    const size_t n = out->len - before;
    f->st.frames++;
    f->st.bytes += n;
    return n;
}

size_t frame_next(struct frame *f, struct app *a, double dt, double (*clock)(void), bool dirty,
                  struct buf *out)
{
    const int cur = a->cur;
    const long steps0 = a->steps[cur];
    double t0 = clock();
    if (dt > 0.0) /* on a real clock, the steps may take most of the frame, no more */
        app_advance_within(a, dt, clock, f->st.simulated ? 0.0 : FRAME_STEP_BUDGET * dt);
    double t1 = clock();
    f->t = (struct frame_times){t1 - t0, 0.0, 0.0, 0.0};
    if (a->shot_asked) { /* P: the scene as it is now, as fine as the cells' pixels */
        a->shot_asked = false;
        shot_take(a, f->px.cell_w);
    }
    if (a->picture != f->picture) {
        f->picture = a->picture;
        encode_invalidate(&f->enc);
    }
    /* A paused picture that is on screen whole sends nothing; one at a
     * coarser level goes on, so the ladder takes it back up as the link
     * allows. */
    if (a->paused && !dirty && f->enc.valid &&
        (f->px.still || (f->px.k > 0 ? !pixframe_coarse(&f->px, a)
                                      : f->lad.rung == 0 && !pixframe_still_fits(&f->px, a))))
        return 0;
    if (!out) {
        f->st.skipped++;
        return 0;
    }
    if (!a->paused)
        count_fps(f, clock());
    const size_t before = out->len;
    f->st.pixels_big = pixframe_too_large(&f->px, a);
    f->st.pixel_max_w = f->px.max_w, f->st.pixel_max_h = f->px.max_h;
    if (pixframe_pick(&f->px, a, &f->enc, clock(), out))
        return pixel_frame(f, a, dt, clock, cur, a->steps[cur] - steps0, before, out);
    f->st.pixels = NULL;
    if (app_too_small(a)) {
        compose_frame(a, &f->st, &f->img, &f->cells);
    } else {
        compose_draw(a, &f->img);
        double t2 = clock();
        compose_blit(a, &f->st, &f->img, &f->cells);
        f->fine_counted = f->fine_counted && compose_blocky(&f->st);
        if (compose_blocky(&f->st)) {
            fine_count(f, a);
            fine_keep(f, &f->cells);
        }
        double t3 = clock();
        compose_over(a, &f->st, &f->cells);
        if (a->help)
            app_help_shown(a, compose_help_over(a, &f->st));
        f->t.draw = t2 - t1, f->t.fit = t3 - t2;
        t1 = t3;
    }
    if (f->lad.trial >= 0 && !app_too_small(a))
        trial_frame(f, a);
    f->enc.exact = a->paused; /* a still picture is left exact, not within the tolerance */
    f->enc.mode = compose_mode(a, &f->st);
    f->enc.block = f->st.block;
    f->enc.tolerance = a->o.tolerance_set ? a->o.tolerance : ladder_tolerance(&f->lad, a->o.tolerance);
    const bool repaint = !f->enc.valid;
    encode_frame(&f->enc, &f->cells, out);
    ladder_sent(&f->lad, (double)(out->len - before - f->enc.padded), repaint, f->plan_t);
    f->enc.pad = 0.0;
    f->t.encode = clock() - t1;
    tune_after(f, a, dt, cur, a->steps[cur] - steps0);
    size_t n = out->len - before;
    f->st.frames++;
    f->st.bytes += n;
    return n;
}

double frame_now(void) { return buf_now(); }
