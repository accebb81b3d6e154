/*
 * pixels_internal.h — what pixels.c has that only the tests call besides
 * it: the choice itself, pure.
 */
#ifndef SWIRL_PIXELS_INTERNAL_H
#define SWIRL_PIXELS_INTERNAL_H

#include "pixels.h"

/*
 * The protocol to draw with, from what was asked (--glyphs) and what the
 * terminal said, and in *why what decided it. None while recording,
 * whatever was asked (a recording holds cells, and shows what the screen
 * showed). Asked by name (kitty, sixel): that one, *why left as it is.
 * Auto (--glyphs auto or pixels): none in mono, inside tmux or GNU screen
 * (the terminal outside is unknown, and a multiplexer keeps cells, not
 * pictures); else kitty's protocol where the terminal answered its query
 * (or, the answers not known, KITTY_WINDOW_ID with TERM=xterm-kitty), sixel
 * where DA1 lists it; else none. Pure.
 */
enum app_pixels pixels_choose(const struct probe_env *e, enum app_pixels asked,
                              enum color_mode mode, bool recording, const char **why);

#endif
