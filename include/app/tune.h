/*
 * tune.h — what the frame loop chooses at run time from what its frames
 * cost, in seconds measured by the caller (no clock here: a test drives it
 * with made-up costs).
 *
 * Threads: how many of the pool's threads take part (pool_use). The results
 * are the same for any number, so the count that makes frames cheapest on
 * this machine, loaded as it is now, is kept: from time to time a neighbouring
 * count is tried for a few frames, and taken when it is cheaper by a margin.
 *
 * Detail: when frames cannot be made in time, the scene is drawn at the
 * canvas's resolution (quadrants and sextants draw at twice it: level 1),
 * then simulated smaller too (level 2), before the frame rate drops; once
 * frames have been cheap for a while the finer level is tried again, after
 * longer waits each time it turns out too slow again.
 */
#ifndef SWIRL_TUNE_H
#define SWIRL_TUNE_H

#include <stdbool.h>

#define TUNE_FULL 0    /* every detail */
#define TUNE_COARSE 1  /* drawn at the canvas's resolution */
#define TUNE_SMALLER 2 /* ... and simulated smaller */

#define TUNE_WINDOW 16 /* frames a measure is the mean of */

struct tune {
    int max_threads;     /* the pool's */
    bool auto_threads;   /* choose the count (else all of them, always) */
    bool fine_drawing;   /* the glyphs draw finer than the canvas (level 1 exists) */
    int threads;         /* in use */
    /* the count: a window of frames at `threads` (after `skip` more are left
     * out), the mean of the last one before a trial, the count on trial (0:
     * none) and the one it came from, and the frames until the next trial */
    double sum;
    int n, skip;
    double base;
    int trial, from, wait;
    bool tried_up;       /* the last trial was of one thread more */
    /* the detail: a window of frames at `level`, the mean of the window that
     * made it lower (0 once the next has measured what that saved), each
     * level's saving (the mean cost at the finer level over the mean at it),
     * calm frames so far and how many it takes to try the finer level, and
     * frames since it was tried (-1: none on trial) */
    int level;
    double over_sum;
    int over_n;
    double left;
    double saving[3];
    int calm, raise_after, since_raise;
};

/* All max_threads in use and every detail; auto_threads: the count is chosen
 * (else it stays max_threads); fine_drawing: see above. */
void tune_init(struct tune *t, int max_threads, bool auto_threads, bool fine_drawing);
/* After a frame: cost, what it took (or would have with all its steps), and
 * the period it had. Returns true when threads or level changed (the caller
 * applies them). */
bool tune_frame(struct tune *t, double cost, double period);

#endif
