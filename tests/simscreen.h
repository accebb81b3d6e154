/*
 * simscreen.h — swirl's own frames behind the simulated link (simlink.h), and
 * what the terminal at its far end shows of them, on virtual time: the real
 * app (a scene stirred by its autopilot), composer, encoder, ladder and flow
 * control, as the terminal loop drives them, for the tests of what a person
 * sees when swirl has to give and for the bench's link part.
 *
 * Each frame sent is remembered with the screen it leaves and when it was
 * made, and reaches the screen when its last byte reaches the terminal. At
 * each frame time the screen is judged against the picture of the last
 * frame time: its error against the frame drawn whole in truecolour (the
 * mean over the cells of how far a colour shown is off, 0-255, as
 * encode_cells_error judges), and how long ago what each cell shows was the
 * picture (at the level in force, within its tolerance): a cell is stale when
 * that was more than SIMSCREEN_STALE s ago.
 */
#ifndef SWIRL_SIMSCREEN_H
#define SWIRL_SIMSCREEN_H

#include "app.h"
#include "simlink.h"

#define SIMSCREEN_STALE 1.0 /* s a cell may show what was the picture that long ago */

struct simscreen_cfg {
    int scene, cols, rows;
    double pause_at;     /* Space pressed then (0: never) */
    double clear_at;     /* from then on, how long until the error is at most exact_err */
    double exact_err;
    enum app_pixels pixels; /* frames in the terminal's pixels (pixframe.h; OFF: glyphs),
                             * cells of 8x17 pixels */
};

struct simscreen_seen {
    double err;          /* the screen against the frame drawn whole, mean 0-255, over the span */
    double stale;        /* the share of cells stale, on average over the span */
    double stale_max;    /* s: the oldest picture a cell showed, over the span */
    double changes;      /* level changes a minute, over the span */
    int level;           /* the level at the end */
    bool fewer_colours;  /* a level of 256 colours was taken over the span */
    double exact_t;      /* s from clear_at until the error was at most exact_err (-1: never) */
    double end_err;      /* the error at the end */
    double pixel_k;      /* pixels: the mean scale of the pictures sent over the span */
    int pixel_k_end;     /* and the scale at the end (0: glyphs) */
};

/* Scene s->scene at s->cols x s->rows behind the link c (its source and fps
 * are set here); warm and seconds are c's. Returns -1 when the scene cannot
 * start. */
int simscreen_run(const struct simscreen_cfg *s, struct simlink_cfg *c, struct simlink_result *r,
                  struct simscreen_seen *seen);

#endif
