/*
 * term.h — the terminal side: ncursesw for the terminal's life, our encoder for
 * the picture, signals, pacing and flow control.
 */
#ifndef SWIRL_TERM_H
#define SWIRL_TERM_H

#include "app.h"

/* Runs swirl in the terminal on stdin/stdout until quit. color_auto: choose
 * the colour depth from the terminal's answers and the environment (probe.h);
 * o->sync ends up on only where the terminal has synchronized output.
 * record: a .cast path or NULL. Returns the exit status. */
int term_run(struct app_opts *o, bool color_auto, bool glyphs_auto, const char *record);

#endif
