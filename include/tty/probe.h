/*
 * probe.h — what the terminal shows, asked of the terminal itself (and of tmux
 * inside it) before the first frame: it chooses the colour depth and whether
 * frames are wrapped in synchronized-output marks. Pure: bytes and strings in,
 * verdicts out (probe_io.c does the asking), so the tests feed recorded answers.
 */
#ifndef SWIRL_PROBE_H
#define SWIRL_PROBE_H

#include "cells.h"
#include "input.h"
#include "palette.h"

#include <stddef.h>

/* The colour set and asked back: none of its channels is a level of the xterm
 * cube or grey ramp, so a terminal that maps it to its palette cannot answer
 * the same three numbers. */
#define PROBE_R 123
#define PROBE_G 45
#define PROBE_B 67
/* The questions, in order: set a 24-bit background and ask for it back
 * (DECRQSS m), ask for the RGB and Tc capabilities (XTGETTCAP) and for mode
 * 2026, synchronized output (DECRQM), and last for the primary device
 * attributes (DA1), which every terminal answers: terminals answer in order, so
 * DA1's answer is the fence after which nothing more is owed. The SGR 0
 * restores the attributes set. */
#define PROBE_QUERY_HEAD                                                      \
    "\x1b[48;2;123;45;67m\x1bP$qm\x1b\\\x1b[0m"                               \
    "\x1bP+q524742\x1b\\\x1bP+q5463\x1b\\"                                    \
    "\x1b[?2026$p"
#define PROBE_QUERY PROBE_QUERY_HEAD "\x1b[c"
/* ... and, where pixels may be drawn (no multiplexer nearer: tmux takes an APC
 * string for a window title), before DA1: kitty's graphics query (a 1x1 RGB
 * image, a=q: checked, never stored, answered only by a terminal with the
 * protocol), the sixel colour registers and the largest sixel picture
 * (XTSMGRAPHICS items 1 and 2) and a cell's size in pixels (CSI 16 t). */
#define PROBE_QUERY_PIXELS                                                    \
    PROBE_QUERY_HEAD "\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\"                \
    "\x1b[?1;1;0S\x1b[?2;1;0S\x1b[16t\x1b[c"

/* The id of the image kitty's graphics query asks about (a=q: nothing is
 * stored), so that its answer is known for ours. */
#define PROBE_KITTY_ID 31

enum probe_verdict { PROBE_UNKNOWN = 0, PROBE_YES, PROBE_NO };

/* What the terminal answered; all zero: nothing. */
struct probe_answers {
    bool asked;                /* the questions went out (probe_ask_tty) */
    bool fence;                /* DA1's answer came: nothing else will */
    enum probe_verdict sgr;    /* DECRQSS m: YES our colour came back exactly,
                                * NO another background came back */
    int sgr_index;             /* NO with an indexed colour (48:5:N): N, else -1 */
    enum probe_verdict tcap;   /* XTGETTCAP: YES RGB or Tc known, NO refused */
    enum probe_verdict sync;   /* DECRQM 2026: YES set or reset, NO unknown */
    /* The terminal's own pixels (docs/pixels.md): */
    enum probe_verdict kitty;  /* kitty graphics query (a=q): YES OK, NO an error */
    bool sixel;                /* DA1 listed attribute 4 */
    int sixel_colors;          /* XTSMGRAPHICS: colour registers, 0 unknown */
    int sixel_w, sixel_h;      /* XTSMGRAPHICS: the largest sixel picture, 0 unknown */
    int cell_w, cell_h;        /* CSI 16 t: a cell in pixels, 0 unknown */
};

/* Takes an answer the parser (input.h) read into *a (the zeroed struct, or
 * one earlier answers filled): true for any of the terminal's answers, false
 * for a person's key or mouse report. */
bool probe_take(struct probe_answers *a, const struct input_event *ev);

/* Inside tmux, tmux is asked too: whether the pane is ours and whether tmux
 * passes 24-bit colour on to its clients. What tmux said (each string as its
 * command printed it, or NULL). */
struct probe_tmux {
    const char *pane_tty;  /* display -p -t $TMUX_PANE '#{pane_tty}' */
    const char *our_tty;   /* ttyname of our input */
    const char *clients;   /* list-clients -F '#{client_termname}<TAB>#{client_termfeatures}' */
    const char *features;  /* show -sv terminal-features: one entry a line */
    const char *overrides; /* show -sv terminal-overrides: one entry a line */
};
/* Is the pane tmux runs ours (YES), someone else's (NO: e.g. GNU screen or a
 * terminal started from the pane), or unknown (tmux not reached)? */
enum probe_verdict probe_tmux_pane(const struct probe_tmux *t);
/* Does tmux pass 24-bit colour on? With clients attached: YES when every one
 * has the RGB feature (tmux >= 3.2 lists what it will send; an older tmux's
 * client gets what terminal-overrides Tc/RGB grants its TERM). With none
 * attached: YES when the configuration grants RGB to some terminal
 * (terminal-features ...:RGB, terminal-overrides ...:Tc or :RGB). UNKNOWN when
 * tmux was not reached. */
enum probe_verdict probe_tmux_rgb(const struct probe_tmux *t);

/* Everything the choice is made from. */
struct probe_env {
    const char *no_color, *colorterm, *term, *sty, *tmux; /* the variables, or NULL */
    bool rgb;            /* terminfo RGB or Tc */
    int colors;          /* terminfo colors (-1: none) */
    /* Variables terminals set about themselves, believed only where TERM agrees. */
    const char *xterm_version, *vte_version, *kitty_window_id, *mlterm;
    const char *konsole_version; /* KONSOLE_VERSION (glyphs only) */
    enum probe_verdict tmux_pane; /* probe_tmux_pane */
    enum probe_verdict tmux_rgb;  /* probe_tmux_rgb */
    struct probe_answers ans;
};

/* GNU screen is the nearest terminal (tmux's pane is not ours, and STY or
 * TERM=screen* say screen): it prints DCS questions as text, so none is asked. */
bool probe_screen_nearest(const struct probe_env *e);
/*
 * The colour depth, and in *why (when not NULL) what decided it:
 *  NO_COLOR: mono.
 *  tmux nearest (the pane is ours; or, tmux unreached, TMUX set and TERM
 *    tmux's): 24-bit when tmux itself answered so or passes RGB on, else at
 *    most 256 (swirl's own mapping, not tmux's), whatever COLORTERM says.
 *  GNU screen nearest (STY unless TERM=tmux*, or TERM=screen* with no tmux
 *    nearest): at most 256.
 *  The terminal's answers: 24-bit when DECRQSS gave our colour back or
 *    XTGETTCAP knows RGB/Tc; when DECRQSS gave another colour, never 24-bit
 *    (256 when it named a palette index from 16 up).
 *  Where it did not answer: COLORTERM truecolor/24bit; XTERM_VERSION >= 331,
 *    VTE_VERSION >= 3600 (TERM=xterm*), KITTY_WINDOW_ID (TERM=xterm-kitty),
 *    MLTERM >= 3.9 (TERM=mlterm*), TERM=st*; terminfo RGB/Tc; terminfo colors
 *    (16 for TERM=xterm, whose terminfo says 8).
 */
enum color_mode probe_choose(const struct probe_env *e, const char **why);

/*
 * The glyphs, for a UTF-8 locale, and in *why what decided it: sextants where
 * the terminal is known to draw block elements itself, sextants included, and
 * no multiplexer is nearer (VTE_VERSION with TERM=xterm*, KITTY_WINDOW_ID with
 * TERM=xterm-kitty); quadrants in alacritty (TERM=alacritty*), konsole
 * (KONSOLE_VERSION with TERM=xterm*) and urxvt (TERM=rxvt-unicode*), which
 * draw them themselves; half-blocks everywhere else: in mono (a quadrant's
 * complement needs reverse video), on a console, in GNU screen and tmux (the
 * terminal outside is unknown), and in terminals that draw blocks from the
 * font (xterm, known by XTERM_VERSION with TERM=xterm*, before any
 * VTE_VERSION it inherited; st, mlterm: an outline font's block glyphs fall up
 * to a pixel short of the cell's foot or top as its metrics round, so every
 * quadrant inked at the bottom leaves a seam; ▀ inks only the top).
 */
enum glyph_set probe_glyphs(const struct probe_env *e, enum color_mode mode, const char **why);

/* Synchronized output only where DECRQM says the terminal has mode 2026. */
bool probe_sync(const struct probe_answers *a);

/* ---- probe_io.c: the asking itself (the tty, the tmux command) ---- */

/* Asks the terminal on fd out and reads its answers from fd in (echo and
 * canonical mode must be off, as curses leaves them: else nothing is asked),
 * (PROBE_QUERY, or PROBE_QUERY_PIXELS when `pixels`), with the parser in
 * (the loop's, which keeps what it left pending), until
 * DA1's answer or `seconds` pass. The events that are not answers (keys typed
 * meanwhile) go to rest, at most cap of them; returns how many. */
int probe_ask_tty(int in, int out, double seconds, bool pixels, struct probe_answers *a,
                  struct input *parser, struct input_event *rest, int cap);
/* Room for what tmux prints. */
struct probe_tmux_text {
    char pane_tty[256], our_tty[256], clients[4096], features[4096], overrides[4096];
};
/* Asks the tmux server in TMUX (each command within `seconds`); a command
 * that fails leaves its string NULL. */
void probe_ask_tmux(struct probe_tmux *t, struct probe_tmux_text *txt, double seconds);

#endif
