/*
 * pixels.h — the terminal's side of pixels (docs/pixels.md): whether the
 * terminal shows them and with which protocol, a cell's pixels, and our
 * pictures deleted on every way out.
 *
 * The frames themselves are the app's (app/pixframe.h); here is what only
 * the terminal knows: its answers and its window's pixels.
 */
#ifndef SWIRL_TTY_PIXELS_H
#define SWIRL_TTY_PIXELS_H

#include "app.h"
#include "frame.h"
#include "probe.h"

/* Why a multiplexer nearer than the terminal keeps its pixels from swirl
 * ("inside tmux", "inside GNU screen"), or NULL: then the terminal is asked
 * about pixels too. */
const char *pixels_multiplexer(const struct probe_env *e);
/* After the terminal was asked: the choice made into o (pixels_internal.h), what the answers
 * said of the cells' pixels and sixel's colours kept for pixels_start. */
void pixels_ask(const struct probe_env *e, struct app_opts *o);
/* The frame loop in pixels where o->pixels says so (after pixels_ask). */
void pixels_start(struct frame *f, const struct app *a, int fd);
/* The window changed: a cell's pixels again: the window's size in pixels
 * (TIOCGWINSZ on fd: kitty, xterm and ssh give it) over its cells, else the
 * answers' (CSI 16 t), else not known. */
void pixels_resize(struct frame *f, const struct app *a, int fd);
/* On leaving (and in a fatal signal's handler: async-signal-safe): what
 * deletes our pictures, written to fd. */
void pixels_leave(int fd);

#endif
