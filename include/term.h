/*
 * term.h — the terminal side: ncursesw for the terminal's life, our encoder for
 * the picture, signals, pacing and flow control.
 */
#ifndef SWIRL_TERM_H
#define SWIRL_TERM_H

#include "app.h"

/* Runs swirl in the terminal on stdin/stdout until quit. color_auto: detect the
 * colour depth from NO_COLOR, COLORTERM and terminfo. record: a .cast path or
 * NULL. Returns the exit status. */
int term_run(struct app_opts *o, bool color_auto, const char *record);

/* Colour depth from the environment and terminfo: NO_COLOR, COLORTERM, then
 * terminfo RGB/Tc, then colors. (Needs setupterm or newterm first.) */
enum color_mode term_detect_color(void);

#endif
