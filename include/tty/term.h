/*
 * term.h — the terminal side: ncursesw for the terminal's life, our encoder for
 * the picture, signals, pacing and flow control.
 */
#ifndef SWIRL_TERM_H
#define SWIRL_TERM_H

#include "app.h"

/* The largest window swirl draws: curses keeps several screens of it (at
 * 2000x1000, 462 MB), and a frame of it is megabytes. An 8K display at a
 * 6x12-pixel font is 1280x360. A larger window is refused at start (exit 2,
 * before curses allocates anything); grown larger later, swirl draws its top
 * left TERM_COLS_MAX x TERM_ROWS_MAX. */
#define TERM_COLS_MAX 1500
#define TERM_ROWS_MAX 800

/* Runs swirl in the terminal on stdin/stdout until quit. color_auto: choose
 * the colour depth from the terminal's answers and the environment (probe.h);
 * o->sync ends up on only where the terminal has synchronized output.
 * record: a .cast path or NULL. Returns the exit status (2: a window larger
 * than TERM_COLS_MAX x TERM_ROWS_MAX, or a terminal curses does not know). */
int term_run(struct app_opts *o, bool color_auto, bool glyphs_auto, const char *record);

#endif
