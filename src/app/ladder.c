/*
 * ladder.c — the picture's levels when swirl has to give, and the choice
 * among them (see ladder.h).
 *
 * The rungs, finest first. Their order and floors come from the error each
 * gives against the exact picture for the bytes a second it takes, measured
 * on every scene at 120x40 (make bench; docs/terminals.md): a looser
 * tolerance costs least (a moving picture is judged in motion); then fewer
 * frames, down to a rung's floor, cost less than a coarser picture; the
 * blocks keep their colours exact where 256 colours band and flip.
 */
#include "ladder.h"

#include <math.h>
#include <string.h>

#define LADDER_REF_FPS 30.0 /* the frame rate the floors are given for */

const struct ladder_rung ladder_rungs[] = {
    {"whole", {0, 0, false}, 0, false, 27.0},
    {"tolerance 12", {0, 0, false}, 12, false, 15.0},
    {"tolerance 20", {0, 0, false}, 20, false, 10.0},
    {"2x1 halves", {2, 1, true}, 20, false, 10.0},
    {"2x1", {2, 1, false}, 20, false, 8.0},
    {"4x2", {4, 2, false}, 20, false, 6.0},
    {"6x3", {6, 3, false}, 20, false, 4.0},
    {"8x4", {8, 4, false}, 20, false, 2.0},
    {"8x4, 256 colours", {8, 4, false}, 20, true, 0.0},
};
const int ladder_nrungs = (int)(sizeof ladder_rungs / sizeof ladder_rungs[0]);

void ladder_init(struct ladder *l)
{
    memset(l, 0, sizeof *l);
    l->trial = -1;
    for (int r = 0; r < LADDER_MAX_RUNGS; r++)
        l->step[r] = LADDER_STEP;
    l->wait = LADDER_WAIT0;
    l->down_t = l->quiet_t = l->rose_t = l->changed_t = l->peak_t = l->climb_t = -1.0;
}

/* The frames a second rung r must keep, for fps asked; and what a rise to it
 * must show (a margin above that, or every frame asked for). */
static double floor_of(int r, double fps) { return ladder_rungs[r].floor * fps / LADDER_REF_FPS; }
static double rise_of(int r, double fps)
{
    const double m = LADDER_UP_MARGIN * floor_of(r, fps);
    return m < fps ? m : fps;
}

/* What the steps between rungs a and b save: the bytes a frame at the
 * coarser over the bytes at the finer (1: the same rung). */
static double steps_between(const struct ladder *l, int a, int b)
{
    const int lo = a < b ? a : b, hi = a < b ? b : a;
    double k = 1.0;
    for (int i = lo < 0 ? 0 : lo; i < hi && i < LADDER_MAX_RUNGS; i++)
        k *= l->step[i];
    return k;
}

/* The bytes a frame at rung r, as last measured there if lately, else the
 * rung in force's `base` scaled by what each step between saves (0: unknown). */
static double need_from(const struct ladder *l, int r, double base, double now)
{
    if (r != l->rung && l->need[r] > 0.0 && now - l->need_t[r] <= LADDER_MEMORY)
        return l->need[r];
    const double k = steps_between(l, r, l->rung);
    return r > l->rung ? base * k : base / k;
}

static double need_at(const struct ladder *l, int r, double now)
{
    return need_from(l, r, l->need[l->rung], now);
}

/* The frames a second at avail for frames of n bytes (fps: any, or unknown). */
static double fps_for(double n, double avail, double fps)
{
    return n > 0.0 && avail / n < fps ? avail / n : fps;
}

/* The frames a second rung r would come at. */
static double fps_at(const struct ladder *l, int r, double avail, double fps, double now)
{
    return fps_for(need_at(l, r, now), avail, fps);
}

double ladder_fps(const struct ladder *l, double avail, double fps)
{
    return avail > 0.0 && l->need[l->rung] > 0.0 && avail / l->need[l->rung] < fps
               ? avail / l->need[l->rung] : fps;
}

double ladder_want(const struct ladder *l, double fps, double now)
{
    return need_at(l, 0, now) * fps;
}

int ladder_tolerance_at(int r, int user)
{
    int t = ladder_rungs[r].tolerance;
    return t > user ? t : user;
}

int ladder_tolerance(const struct ladder *l, int user) { return ladder_tolerance_at(l->rung, user); }

/* Has cond held since *since for at least hold s (*since -1 while it does not)? */
static bool held(bool cond, double *since, double now, double hold)
{
    if (!cond) {
        *since = -1.0;
        return false;
    }
    if (*since < 0.0)
        *since = now;
    return now - *since >= hold;
}

static void set_rung(struct ladder *l, int r, double now)
{
    if (r == l->rung)
        return;
    l->rung = r;
    l->trial = -1;
    l->fresh = true;
    l->guess = false;
    if (now - l->need_t[r] > LADDER_TRIAL_FRESH)
        l->need[r] = 0.0; /* measured again at this visit (a trial's is fresh) */
    l->down_t = l->quiet_t = -1.0;
    l->peak = 0.0; /* the busiest at this rung: from this visit on */
    l->changed_t = now;
    l->changes++;
}

/* A repaint's bytes at rung r, as guessed for n cells before any is
 * measured: each cell's glyph, and its colours once a block (the costliest
 * scene's, the cloth's, at 1500x800: 10.5 bytes a cell whole, 1.4 at 6x3). */
static double start_guess(int r, double n)
{
    const struct cells_block *b = &ladder_rungs[r].block;
    const double area = b->w > 0 && b->h > 0 ? (double)b->w * b->h : 1.0;
    return n * (LADDER_CELL_GLYPH + LADDER_CELL_COLOURS / area);
}

void ladder_start(struct ladder *l, long cells)
{
    int r = 0;
    while (r + 1 < ladder_nrungs && !ladder_rungs[r + 1].fewer_colours &&
           start_guess(r, (double)cells) > LADDER_START_BYTES)
        r++;
    if (r <= l->rung)
        return; /* never finer than the link has shown it should be */
    set_rung(l, r, -1.0); /* (before any frame: no time to give) */
    l->need[r] = 0.0;     /* measured again at this size */
    l->starting = true;
    l->climb_t = -1.0;
}

/* A trial over: up, if the rung tried would have kept its floor with a
 * margin at the busiest the rung in force has lately been (its peak, scaled
 * by what the trial cost against the frames sent meanwhile), and the change
 * itself, a repaint, goes quickly. */
static void trial_end(struct ladder *l, double avail, double fps, double now)
{
    const int r = l->trial;
    const double need = l->trial_sum / l->trial_n;
    const double ratio = l->trial_main > 0.0 ? l->trial_sum / l->trial_main : 0.0;
    l->trial = -1;
    l->need[r] = need, l->need_t[r] = now;
    if (r == l->rung - 1 && ratio > 0.0)
        l->step[r] = 1.0 / ratio < 0.1 ? 0.1 : 1.0 / ratio > 1.0 ? 1.0 : 1.0 / ratio;
    const double busy = l->peak * ratio > need ? l->peak * ratio : need;
    const double got = fps_for(busy, avail, fps);
    const bool quick = l->trial_repaint <= LADDER_REPAINT * avail;
    if (quick && got >= rise_of(r, fps)) {
        set_rung(l, r, now);
        l->rose_t = now;
        return;
    }
    if (r < l->rung - 1)
        return; /* a rung further up did not fit: the next trial, at once, knows it */
    l->next_trial = now + l->wait;
    l->wait = l->wait * 2.0 < LADDER_WAIT_MAX ? l->wait * 2.0 : LADDER_WAIT_MAX;
}

/* The bytes a frame at rung r would take at the busiest the rung in force
 * has lately been: its peak scaled by what r costs against it (as a trial
 * judges it), and at least what r was measured at. A rung whose trial
 * failed for the peak is not tried again for it while a coarser one would
 * rise. */
static double busy_at(const struct ladder *l, int r, double now)
{
    const double here = l->need[l->rung], there = need_at(l, r, now);
    const double scaled = here > 0.0 ? l->peak * there / here : need_from(l, r, l->peak, now);
    return scaled > there ? scaled : there;
}

/* A trial of the finest rung that, at the busiest the rung in force has
 * lately been, would keep its floor with a margin: a link that cleared is
 * climbed in a trial or two, not a rung at a time. */
static void trial_start(struct ladder *l, double avail, double fps, double now)
{
    for (int r = 0; r < l->rung; r++)
        if (fps_for(busy_at(l, r, now), avail, fps) >= rise_of(r, fps)) {
            l->trial = r, l->trial_n = 0;
            l->trial_sum = l->trial_main = l->trial_repaint = 0.0;
            return;
        }
}

/* Down: the finest rung below whose frames come at its floor, else the last. */
static void go_down(struct ladder *l, int last, double avail, double fps, double now)
{
    int r = l->rung + 1;
    while (r < last && fps_at(l, r, avail, fps, now) < floor_of(r, fps))
        r++;
    if (l->rose_t >= 0.0 && now - l->rose_t < LADDER_HOLD) { /* a rise that did not hold */
        l->next_trial = now + l->wait;
        l->wait = l->wait * 2.0 < LADDER_WAIT_MAX ? l->wait * 2.0 : LADDER_WAIT_MAX;
    }
    l->rose_t = -1.0;
    set_rung(l, r, now);
}

bool ladder_plan(struct ladder *l, double avail, double fps, bool colours, double now)
{
    const int was = l->rung;
    int last = ladder_nrungs - 1;
    while (last > 0 && ladder_rungs[last].fewer_colours && !colours)
        last--;
    if (avail <= 0.0 && l->starting && l->rung > 0) { /* a start by size, climbing */
        if (l->climb_t >= 0.0 && now - l->climb_t >= LADDER_CLIMB) {
            set_rung(l, l->rung - 1, now);
            l->climb_t = -1.0;
        }
        return l->rung != was;
    }
    l->starting = false;
    if (avail <= 0.0) { /* no limit known: the picture whole */
        set_rung(l, 0, now);
        l->trial = -1;
        return l->rung != was;
    }
    const double have = fps_at(l, l->rung, avail, fps, now), floor = floor_of(l->rung, fps);
    bool under = have < floor;
    bool quiet = l->quiet_t >= 0.0 && now - l->quiet_t >= LADDER_QUIET;
    /* Far under (a link that slowed by far: its frames take seconds): now. */
    bool down = held(under, &l->down_t, now, LADDER_DOWN_AFTER) || have < 0.5 * floor;
    if (l->rung > last) {
        set_rung(l, last, now);
    } else if (down && l->rung < last) {
        go_down(l, last, avail, fps, now);
    } else if (quiet && l->rung > 0) { /* still: a repaint is all a finer rung costs */
        set_rung(l, l->rung - 1, now);
    } else if (l->trial >= 0 && l->trial_n >= LADDER_TRIAL_FRAMES) {
        trial_end(l, avail, fps, now);
    } else if (l->trial < 0 && l->rung > 0 && !under && l->quiet_t < 0.0 && now >= l->next_trial &&
               l->peak > 0.0) {
        trial_start(l, avail, fps, now);
    }
    if (l->rose_t >= 0.0 && now - l->rose_t >= LADDER_HOLD) { /* the rise held */
        l->rose_t = -1.0;
        l->wait = LADDER_WAIT0;
    }
    return l->rung != was;
}

void ladder_sent(struct ladder *l, double bytes, bool repaint, double now)
{
    if (l->starting && l->climb_t < 0.0)
        l->climb_t = now;
    held(bytes <= LADDER_QUIET_BYTES, &l->quiet_t, now, 0.0);
    const int r = l->rung;
    if (repaint || l->fresh) {
        l->fresh = false;
        if (l->need[r] <= 0.0) { /* a guess, till the first frame that is no repaint */
            l->need[r] = LADDER_GUESS * bytes, l->need_t[r] = now;
            l->guess = true;
        }
        return;
    }
    l->need[r] = l->need[r] > 0.0 && !l->guess && now - l->need_t[r] <= LADDER_MEMORY
                     ? 0.75 * l->need[r] + 0.25 * bytes : bytes;
    l->guess = false;
    const double fade = l->peak_t >= 0.0 ? exp(-(now - l->peak_t) / LADDER_PEAK) : 0.0;
    l->peak = bytes > l->peak * fade ? bytes : l->peak * fade;
    l->need_t[r] = l->peak_t = now;
    if (l->trial >= 0 && l->trial_counted) /* the frame a trial's frame was measured beside */
        l->trial_main += bytes;
    l->trial_counted = false;
}

void ladder_trial(struct ladder *l, double bytes, bool repaint)
{
    if (l->trial >= 0 && repaint)
        l->trial_repaint = bytes;
    if (l->trial < 0 || repaint)
        return;
    l->trial_sum += bytes;
    l->trial_n++;
    l->trial_counted = true;
}
