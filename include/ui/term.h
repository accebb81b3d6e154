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

/* What the colour depth is chosen from: the environment and terminfo. */
struct term_env {
    const char *no_color, *colorterm, *term, *sty, *tmux; /* the variables, or NULL */
    bool rgb;            /* terminfo RGB or Tc */
    int colors;          /* terminfo colors (-1: none) */
};
/* NO_COLOR (mono); inside GNU screen (STY unless TERM=tmux*, or TERM=screen*
 * outside tmux) at
 * most 256 colours, whatever COLORTERM says; then COLORTERM truecolor/24bit,
 * terminfo RGB/Tc, terminfo colors (16 for TERM=xterm, whose terminfo says 8). */
enum color_mode term_color_choose(const struct term_env *e);
/* The same from getenv and terminfo (needs setupterm or newterm first). */
enum color_mode term_detect_color(void);

#endif
