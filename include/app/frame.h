/*
 * frame.h — one frame, the same for every caller: advance the app, compose the
 * picture, encode it.
 *
 * The terminal loop, the headless recorder and the bench all call frame_next();
 * a frame owns what it draws into (the canvas image and the cells), the encoder
 * with its shadow of the screen, and the statistics of what it sent, which the
 * composer reads (the HUD's fps, the help's bytes a frame) and nothing else
 * writes.
 */
#ifndef SWIRL_FRAME_H
#define SWIRL_FRAME_H

#include "app.h"
#include "compose.h"
#include "encode.h"
#include "ladder.h"
#include "pixframe.h"
#include "tune.h"

/* Seconds the parts of the last frame took on frame_next's clock: its steps,
 * the scene's drawing, the blit (the fit of quadrants and sextants), and the
 * overlays with the encoding; 0 for a part it did not run. */
struct frame_times {
    double step, draw, fit, encode;
};

struct frame {
    struct image img;    /* the canvas */
    struct cells cells;  /* the screen as composed */
    struct encoder enc;
    struct frame_stats st;
    unsigned picture;    /* the app's picture count at the last frame sent */
    double fps_t0;       /* the fps measurement's window */
    int fps_frames;
    struct frame_times t; /* the last frame's */
    struct tune tune;    /* on a real clock: the threads in use and the detail */
    /* Behind a link (frame_plan): the picture's level, and a trial's encoding
     * of the rung above (ladder.h), into nothing but its count of bytes. */
    struct ladder lad;
    double plan_t;       /* when the frame being made was planned */
    struct encoder trial_enc;
    struct cells trial_cells;
    struct buf trial_out;
    struct pixframe px;  /* pixels where the terminal shows them (off: glyphs) */
    /* A picture of blocks keeps its still parts fine: the cells drawn whole,
     * the last frame's of them, and for how many frames running each has been
     * the same (cells_count_still). */
    struct cells fine, fine_was;
    unsigned char *fine_still;
    bool fine_counted;   /* the counts are of the frames before this */
};

/* Sized for the app's terminal; simulated: see frame_stats. */
void frame_init(struct frame *f, const struct app *a, bool simulated);
void frame_free(struct frame *f);
void frame_resize(struct frame *f, int cols, int rows);
/* The next frame sends every cell (Ctrl-L, a resume, a return from Ctrl-Z). */
void frame_repaint(struct frame *f);
/*
 * Advances the app by dt (clock() times the steps and the fps; dt 0: the app
 * as it is, e.g. a recording's first frame at t = 0). If the picture
 * may have changed (running, `dirty` input since the last frame, or a repaint
 * due) it is composed and its bytes appended to out, and their number returned;
 * with out NULL (the link is behind) it is counted as skipped instead.
 */
size_t frame_next(struct frame *f, struct app *a, double dt, double (*clock)(void), bool dirty,
                  struct buf *out);

/*
 * Behind a link, before a frame that may be sent: the link carries `avail`
 * bytes a second for frames (0: no limit known), and `pace` while a probe of
 * a higher rate runs (the frame is filled up to it with padding, encode.h);
 * `colours` says whether 256 colours may be taken for it. Chooses the
 * picture's level (ladder.h): a new
 * one sends what it changes, as any frame does (every cell, where the
 * colours change: the screen shows another palette). Returns the frame rate
 * the level allows.
 */
double frame_plan(struct frame *f, const struct app *a, double avail, double pace, bool colours,
                  double now);

/* The bytes a second the frames would take whole (the flow plan's `want`):
 * the ladder's, or the pictures' in pixels. */
double frame_want(const struct frame *f, const struct app *a, double now);

/* Seconds on a monotonic clock: what paces and times frames. */
double frame_now(void);

#endif
