/*
 * term.h — the terminal side: ncursesw for the terminal's life, our encoder for
 * the picture, signals, pacing and flow control. And the headless runners, which
 * drive the same app without a terminal.
 */
#ifndef SWIRL_TERM_H
#define SWIRL_TERM_H

#include "app.h"

/* Seconds on a monotonic clock. */
double mono_now(void);

/* Runs swirl in the terminal on stdin/stdout until quit. color_auto: detect the
 * colour depth from NO_COLOR, COLORTERM and terminfo. record: a .cast path or
 * NULL. Returns the exit status. */
int term_run(struct app_opts *o, bool color_auto, const char *record);

/* Colour depth from the environment and terminfo: NO_COLOR, COLORTERM, then
 * terminfo RGB/Tc, then colors. (Needs setupterm or newterm first.) */
enum color_mode term_detect_color(void);

/* Headless: prints a JSON line of statistics every `every` steps and a summary. */
int headless_stats(struct app_opts *o, int cols, int rows, long steps, long every);
/* What a headless recording cost. */
struct record_stats {
    const char *scene;   /* the scene on screen at the end */
    long frames;
    double seconds;      /* recorded (simulated) time */
    size_t bytes;        /* frame bytes written */
    size_t naive_bytes;  /* what full redraws of the same frames would have been */
    double wall;         /* seconds it took */
};

/* Headless recording of `seconds` at o->fps on a simulated clock into path.
 * Returns 0, 1 (failed) or 2 (cannot write path). */
int headless_record(struct app_opts *o, int cols, int rows, double seconds, const char *path,
                    struct record_stats *st);
/* The JSON summary line of a recording, on stdout. */
void headless_record_summary(const struct record_stats *st);
/* make bench. */
int bench_run(void);

#endif
