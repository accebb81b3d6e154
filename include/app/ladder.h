/*
 * ladder.h — what the picture gives when the link or the terminal cannot take
 * every frame whole at the frame rate asked for: a ladder of levels, as a
 * video call's quality scaler has, and the choice among them.
 *
 * Every frame is sent whole, so the screen is always one picture: never half
 * of one frame and half of the next, never a cell left from long ago. What
 * gives is what a frame is, rung by rung down the ladder (ladder_rungs): a
 * looser tolerance first, then the picture in blocks of cells drawn as one
 * (pairs of half-blocks, then blocks of 2x1, 4x2, 6x3 and 8x4 cells, each one
 * colour: a smaller canvas shown larger), and 256 colours only at the very
 * end; and the frame rate, which is what the link carries at the rung in
 * force (the frame loop paces frames by their bytes), down to the rung's
 * floor. The order was chosen by the error each gives for its bytes
 * (docs/terminals.md, "When swirl has to give"; make bench measures it).
 *
 * The ladder holds the finest rung whose frames come at least at its floor:
 *  - down: when the rung in force has stayed under its floor for
 *    LADDER_DOWN_AFTER s (at once when far under it: half its floor), to
 *    the finest rung below whose frames, as
 *    estimated, come at its own floor (the bytes a frame last measured at
 *    that rung, or the rung above's scaled by what a step saved);
 *  - up, by trial: for LADDER_TRIAL_FRAMES frames the frame loop encodes a
 *    finer rung as well, into nothing (ladder_trial): the finest whose frames,
 *    as estimated, would come at its floor with a margin (LADDER_UP_MARGIN)
 *    even at the busiest the picture has lately been (the rung in force's
 *    peak, fading over LADDER_PEAK s: a scene that calms for a moment does
 *    not bring a rise it cannot keep), and the ladder goes up to it only if
 *    those frames show that they would,
 *    and the whole screen at it goes in LADDER_REPAINT s (a rise is a
 *    repaint, which on a slow link would hold the picture still).
 *    A trial further up that fails is followed at once by one nearer (which
 *    knows what the first measured); a trial of the rung just above that
 *    fails, or a rise that has to come down
 *    again within LADDER_HOLD s, doubles the wait before the next trial
 *    (LADDER_WAIT0 s, twice that... up to LADDER_WAIT_MAX), so at a steady
 *    link the level settles and changes at most once in LADDER_WAIT0 s;
 *  - a still picture (its frames have sent next to nothing for LADDER_QUIET s,
 *    paused or not) goes up a rung at a time with no trial and no wait: a
 *    still picture costs only its repaint, and becomes exact as fast as the
 *    link carries those.
 * With no limit known (a fast link, a terminal that keeps up) it is the top
 * rung, the picture whole; but a window so large that its first frame whole
 * would be megabytes (ladder_start) starts at the finest rung whose repaint,
 * as guessed, is at most LADDER_START_BYTES, and climbs a rung every
 * LADDER_CLIMB s while no limit is known, as a video starts coarse and
 * sharpens (a limit found on the way takes over as above). No clock here (times are passed in) and no I/O:
 * tests drive it on virtual time.
 */
#ifndef SWIRL_LADDER_H
#define SWIRL_LADDER_H

#include "cells.h"

#include <stdbool.h>

struct ladder_rung {
    const char *name;         /* for the help and the bench */
    struct cells_block block; /* 0 x 0: the glyphs' own cells */
    int tolerance;            /* at least this (0: the user's, as it is) */
    bool fewer_colours;       /* 256 colours (only where the colours were detected) */
    double floor;             /* frames a second it must keep, at 30 asked for */
};
extern const struct ladder_rung ladder_rungs[];
extern const int ladder_nrungs;
#define LADDER_MAX_RUNGS 12

#define LADDER_DOWN_AFTER 0.5 /* s under its floor before a rung is left */
#define LADDER_TRIAL_FRAMES 6 /* frames a trial measures (after its first, a repaint) */
#define LADDER_UP_MARGIN 1.3  /* a trial must show this share of the floor above, */
#define LADDER_REPAINT 0.5    /* and the screen repainted at it within this many s */
#define LADDER_WAIT0 10.0     /* s before a trial after a failed one, doubling, */
#define LADDER_WAIT_MAX 80.0  /* up to this */
#define LADDER_QUIET 0.3      /* s of frames of next to nothing: a still picture */
#define LADDER_QUIET_BYTES 64 /* ... a frame of at most this many bytes */
#define LADDER_STEP 0.6       /* a rung's bytes a frame over the rung above's, until measured */
#define LADDER_GUESS 0.5      /* a frame's bytes over a repaint's, until a frame is measured */
#define LADDER_MEMORY 10.0    /* s a rung's bytes a frame are trusted after it was left */
#define LADDER_PEAK 30.0      /* s the busiest frame at a rung fades over (a rise must hold then) */
#define LADDER_HOLD 20.0      /* s a rise must hold before it counts as one that did */
#define LADDER_TRIAL_FRESH 1.0 /* s: a rung's bytes measured this lately are its own on a visit */
#define LADDER_START_BYTES 2e6 /* the most a first frame may take, as guessed */
#define LADDER_CELL_GLYPH 1.0  /* ... bytes a cell for its glyph, */
#define LADDER_CELL_COLOURS 9.5 /* and for its colours, shared by a block's cells */
#define LADDER_CLIMB 0.2       /* s at each rung of the start's climb */

struct ladder {
    int rung;            /* in force */
    int trial;           /* the rung on trial (-1: none) */
    int trial_n;         /* its frames measured so far (the first, a repaint, is not) */
    double trial_sum;    /* and their bytes */
    double trial_repaint; /* its first frame's: the whole screen at that rung */
    double trial_main;   /* the bytes of the frames sent beside its frames */
    bool trial_counted;  /* the frame being made has a trial's frame beside it */
    double peak, peak_t; /* the most bytes a frame at the rung in force has lately
                          * taken (fading over LADDER_PEAK s), and when last told */
    double need[LADDER_MAX_RUNGS];   /* bytes a whole frame at each rung, smoothed (0: not known) */
    double need_t[LADDER_MAX_RUNGS]; /* when each was last measured */
    double step[LADDER_MAX_RUNGS];   /* need[r+1] / need[r] as measured (LADDER_STEP until then) */
    double wait;         /* s before a trial after a failed one */
    double next_trial;   /* no trial before */
    double down_t;       /* since when the rung in force is under its floor (-1: it is not) */
    double quiet_t;      /* since when its frames have been next to nothing (-1: they are not) */
    double rose_t;       /* when a trial last took it up (-1: not lately) */
    double changed_t;    /* when the rung last changed (-1: never) */
    int changes;         /* how many times it changed */
    bool fresh;          /* the next frame is the first at a new rung (a repaint) */
    bool guess;          /* need[rung] is a repaint's guess (LADDER_GUESS) */
    bool starting;       /* climbing from a start by size (ladder_start) */
    double climb_t;      /* when the first frame at the climb's rung went (-1: none yet) */
};

void ladder_init(struct ladder *l);
/* A window of `cells` cells: where its first frame whole would cost more
 * than LADDER_START_BYTES, a start lower down the ladder (see above). */
void ladder_start(struct ladder *l, long cells);
/*
 * Before a frame: `avail` bytes a second the link carries for frames (0: no
 * limit known), `fps` the frame rate asked for, `colours` whether the rungs of
 * 256 colours may be taken (the colours were detected, not chosen, and are
 * truecolour). Sets the rung and whether a trial runs. True when the rung
 * changed (the frame loop repaints what changes).
 */
bool ladder_plan(struct ladder *l, double avail, double fps, bool colours, double now);
/* After the frame: its bytes at the rung in force (0: it sent nothing); a
 * repaint's (the first at a rung, a Ctrl-L) are not counted as its need,
 * but where none is known yet a share of them is the guess (LADDER_GUESS):
 * the first frame behind a slow link tells at once that the next must be
 * coarser. */
void ladder_sent(struct ladder *l, double bytes, bool repaint, double now);
/* During a trial: what the same frame cost at the rung on trial. */
void ladder_trial(struct ladder *l, double bytes, bool repaint);
/* The frame rate the rung in force allows (at most fps; fps with no limit). */
double ladder_fps(const struct ladder *l, double avail, double fps);
/* The bytes a second the frames would take whole at the frame rate asked
 * for, as estimated (0: not known): what a link would have to carry for the
 * ladder to give nothing. */
double ladder_want(const struct ladder *l, double fps, double now);
/* The tolerance at the rung in force (at rung r), for a user's: the most of the two. */
int ladder_tolerance(const struct ladder *l, int user);
int ladder_tolerance_at(int r, int user);

#endif
