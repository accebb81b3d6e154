/*
 * tune.c — the thread count and the detail, from what frames cost (see
 * tune.h). Every figure is a mean over TUNE_WINDOW frames: a single frame
 * says little on a machine other work shares.
 */
#include "tune.h"

#define SETTLE 2           /* frames left out after a change (caches, waking threads) */
#define FIRST_TRY 45       /* frames before the first trial of another count, */
#define TRY_EVERY 300      /* ... and between trials (10 s at 30 fps) */
#define MARGIN 0.95        /* a count on trial is kept when it costs less than this of the other */
#define OVER 0.92          /* a window costing more than this of the period: less detail */
#define RAISE 0.75         /* ... and the finer level is tried where it would cost less than this */
#define RAISE_FIRST 90     /* calm frames before that (3 s), */
#define RAISE_MOST 4800    /* ... doubling, up to this, each time it was too slow again */
#define FAILED_WITHIN 150  /* frames: lower again this soon after a raise, it failed */

void tune_init(struct tune *t, int max_threads, bool auto_threads, bool fine_drawing)
{
    *t = (struct tune){0};
    t->max_threads = max_threads < 1 ? 1 : max_threads;
    t->auto_threads = auto_threads;
    t->fine_drawing = fine_drawing;
    t->threads = t->max_threads;
    t->wait = FIRST_TRY;
    t->raise_after = RAISE_FIRST;
    t->since_raise = -1;
    for (int l = 0; l < 3; l++)
        t->saving[l] = 1.0;
}

/* A new window for the count, its first frames left out; a trial under way
 * ends (the count it came from back). */
static void restart_count(struct tune *t)
{
    if (t->trial)
        t->threads = t->from, t->trial = 0;
    t->sum = 0.0, t->n = 0, t->skip = SETTLE, t->base = 0.0;
}

/* The count after a window of mean cost m; true when it changed. */
static bool count_window(struct tune *t, double m)
{
    if (t->trial) { /* the window measured the count on trial */
        const bool keep = m < MARGIN * t->base;
        t->threads = keep ? t->trial : t->from;
        t->trial = 0;
        t->base = keep ? m : t->base;
        t->wait = TRY_EVERY;
        t->skip = keep ? 0 : SETTLE;
        return !keep;
    }
    t->base = m;
    if (!t->auto_threads || t->max_threads < 2 || t->wait > 0)
        return false;
    const bool up = t->threads == 1 || (t->threads < t->max_threads && !t->tried_up);
    t->tried_up = up;
    t->from = t->threads;
    t->trial = t->threads + (up ? 1 : -1);
    t->threads = t->trial;
    t->skip = SETTLE;
    return true;
}

static int coarser(const struct tune *t, int l)
{
    return l == TUNE_FULL && t->fine_drawing ? TUNE_COARSE : TUNE_SMALLER;
}

static int finer(const struct tune *t, int l)
{
    return l == TUNE_SMALLER && t->fine_drawing ? TUNE_COARSE : TUNE_FULL;
}

/* The detail after a window of mean cost m (s) in frames of `period`; true
 * when it changed. */
static bool detail_window(struct tune *t, double m, double period)
{
    if (t->left > 0.0) { /* the first window at a level: what it saved */
        t->saving[t->level] = m > 0.0 && t->left > m ? t->left / m : 1.0;
        t->left = 0.0;
    }
    if (m > OVER * period && t->level < TUNE_SMALLER) {
        if (t->since_raise >= 0 && t->since_raise < FAILED_WITHIN)
            t->raise_after = 2 * t->raise_after < RAISE_MOST ? 2 * t->raise_after : RAISE_MOST;
        t->since_raise = -1;
        t->level = coarser(t, t->level);
        t->left = m;
        t->calm = 0;
        return true;
    }
    if (t->level == TUNE_FULL || m * t->saving[t->level] >= RAISE * period) {
        t->calm = 0;
        return false;
    }
    t->calm += TUNE_WINDOW;
    if (t->calm < t->raise_after)
        return false;
    t->level = finer(t, t->level);
    t->calm = 0;
    t->since_raise = 0;
    return true;
}

bool tune_frame(struct tune *t, double cost, double period)
{
    bool changed = false;
    if (t->since_raise >= 0)
        t->since_raise++;
    t->over_sum += cost;
    if (++t->over_n == TUNE_WINDOW) {
        const double m = t->over_sum / TUNE_WINDOW;
        t->over_sum = 0.0, t->over_n = 0;
        if (detail_window(t, m, period)) {
            restart_count(t); /* the costs are not those the count was measured by */
            return true;
        }
    }
    if (t->wait > 0)
        t->wait--;
    if (t->skip > 0) {
        t->skip--;
        return changed;
    }
    t->sum += cost;
    if (++t->n == TUNE_WINDOW) {
        const double m = t->sum / TUNE_WINDOW;
        t->sum = 0.0, t->n = 0;
        changed = count_window(t, m);
    }
    return changed;
}
