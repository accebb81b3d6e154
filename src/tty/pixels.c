/*
 * pixels.c — the terminal's side of pixels (see pixels.h): the choice, a
 * cell's pixels, and the pictures deleted on leaving.
 *
 * kitty keeps an image until it is deleted, and on leaving the alternate
 * screen too where a terminal keeps one image store for both; so the
 * deletion of both ids is written on every way out, a fatal signal's
 * included (one write of bytes made ready at the start). Sixel's pixels are
 * the screen's own: leaving the alternate screen takes them.
 */
#include "pixels_internal.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* What the answers said (pixels_ask), and what leaving writes. */
static int answered_w, answered_h, answered_colours, answered_max_w, answered_max_h;
static char leave_bytes[128];
static volatile sig_atomic_t leave_len;

static bool prefix(const char *s, const char *p) { return s && strncmp(s, p, strlen(p)) == 0; }

const char *pixels_multiplexer(const struct probe_env *e)
{
    if ((e->tmux && *e->tmux) || prefix(e->term, "tmux"))
        return "inside tmux";
    if ((e->sty && *e->sty) || prefix(e->term, "screen") || probe_screen_nearest(e))
        return "inside GNU screen";
    return NULL;
}

enum app_pixels pixels_choose(const struct probe_env *e, enum app_pixels asked,
                              enum color_mode mode, bool recording, const char **why)
{
    if (asked == APP_PIXELS_OFF)
        return asked;
    if (recording) { /* whatever was asked: what is recorded is what is shown */
        *why = "--record: a recording holds cells";
        return APP_PIXELS_OFF;
    }
    if (asked != APP_PIXELS_AUTO)
        return asked;
    const char *no = mode == COLOR_MONO ? "no colour" : pixels_multiplexer(e);
    if (no) {
        *why = no;
        return APP_PIXELS_OFF;
    }
    if (e->ans.kitty == PROBE_YES) {
        *why = "the terminal answered kitty's graphics query";
        return APP_PIXELS_KITTY;
    }
    if (e->ans.sixel) {
        *why = "the terminal's DA1 lists sixel";
        return APP_PIXELS_SIXEL;
    }
    if (e->ans.kitty == PROBE_UNKNOWN && e->kitty_window_id && *e->kitty_window_id &&
        prefix(e->term, "xterm-kitty")) {
        *why = "kitty (KITTY_WINDOW_ID)";
        return APP_PIXELS_KITTY;
    }
    *why = "the terminal shows no pixels";
    return APP_PIXELS_OFF;
}

void pixels_ask(const struct probe_env *e, struct app_opts *o)
{
    o->pixels = pixels_choose(e, o->pixels, o->color, o->recording, &o->pixels_why);
    answered_w = e->ans.cell_w, answered_h = e->ans.cell_h;
    answered_colours = e->ans.sixel_colors;
    answered_max_w = e->ans.sixel_w, answered_max_h = e->ans.sixel_h;
}

/* A cell's pixels (0: not known). */
static void pixels_cell(int fd, int cols, int rows, int *cw, int *ch)
{
    struct winsize ws;
    *cw = answered_w, *ch = answered_h;
    if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_xpixel > 0 && ws.ws_ypixel > 0 && cols > 0 &&
        rows > 0) {
        *cw = ws.ws_xpixel / cols;
        *ch = ws.ws_ypixel / rows;
    }
}

void pixels_start(struct frame *f, const struct app *a, int fd)
{
    pixframe_start(&f->px, a->o.pixels, answered_colours, answered_max_w, answered_max_h);
    pixels_resize(f, a, fd);
    if (a->o.pixels != APP_PIXELS_KITTY)
        return;
    const int n = snprintf(leave_bytes, sizeof leave_bytes,
                           "\x1b_Ga=d,d=I,i=%u,q=2\x1b\\\x1b_Ga=d,d=I,i=%u,q=2\x1b\\",
                           f->px.kt.id[0], f->px.kt.id[1]);
    leave_len = n > 0 && n < (int)sizeof leave_bytes ? n : 0;
}

void pixels_resize(struct frame *f, const struct app *a, int fd)
{
    int cw, ch; /* with glyphs too: a saved picture (P) is drawn at them */
    pixels_cell(fd, a->cols, a->rows, &cw, &ch);
    pixframe_cell(&f->px, cw, ch);
}

void pixels_leave(int fd)
{
    if (leave_len > 0) {
        ssize_t w = write(fd, leave_bytes, (size_t)leave_len);
        (void)w;
    }
}
