/*
 * headless.h — swirl without a terminal: statistics as JSON lines, and
 * recordings rendered on a simulated clock (the same frames a terminal gets).
 */
#ifndef SWIRL_HEADLESS_H
#define SWIRL_HEADLESS_H

#include "app.h"

/* Prints a JSON line of statistics every `every` steps and a summary. Returns
 * 0, or 1 (the scene could not start, or stdout failed: the run ends at the
 * first line it does not take, with one line on stderr). */
int headless_stats(const struct app_opts *o, int cols, int rows, long steps, long every);

/* What a headless recording cost. */
struct record_stats {
    const char *scene;   /* the scene on screen at the end */
    long frames;
    double seconds;      /* recorded (simulated) time */
    size_t bytes;        /* frame bytes written */
    size_t naive_bytes;  /* what full redraws of the same frames would have been */
    double wall;         /* seconds it took */
};

/* Records `seconds` at o->fps on a simulated clock into path (o->overwrite,
 * o->record_limit as cast.h says; at the limit it ends there). Returns 0, 1
 * (failed, or the recording is not where it was asked), 2 (cannot write path)
 * or 128 + the SIGINT, SIGTERM or SIGHUP that ended it early (kept, valid). */
int headless_record(const struct app_opts *o, int cols, int rows, double seconds,
                    const char *path, struct record_stats *st);
/* The JSON summary line of a recording, on stdout; 0, or 1 with one line on
 * stderr when stdout did not take it. */
int headless_record_summary(const struct record_stats *st);

#endif
