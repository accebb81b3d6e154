/*
 * test_hud_link.c — what the screen says of the link, without a terminal: the
 * status line's words while the picture gives (and the hints still there),
 * the help's round trip, rate, what the picture gives and the statistics,
 * and a frame drawn in 256 colours when the link asks for fewer.
 */
#include "app.h"
#include "compose.h"
#include "fixtures.h"
#include "ladder.h"
#include "frame.h"
#include "palette.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

static double fake_clock(void) { return 0.0; }

/* Every row of the composed cells, as text (non-ASCII glyphs as '#'). */
static const char *screen_text(struct fx_screen *x)
{
    static char text[16384];
    size_t n = 0;
    for (int r = 0; r < x->f.cells.rows; r++) {
        for (int c = 0; c < x->f.cells.cols && n + 2 < sizeof text; c++) {
            uint32_t ch = cells_at(&x->f.cells, c, r)->ch;
            text[n++] = ch < 128 ? (char)ch : '#';
        }
        if (n + 1 < sizeof text)
            text[n++] = '\n';
    }
    text[n] = 0;
    return text;
}

static void open_at(struct fx_screen *x, int cols, int rows)
{
    struct app_opts o;
    app_opts_default(&o);
    fx_screen_open(x, &o, cols, rows);
    x->f.st.simulated = false;
    x->f.st.fps = 7.0;
    x->f.st.frames = 10, x->f.st.bytes = 25000;
    fx_app_advance(&x->a, 1.0 / 30, fake_clock);
}

/* The last row of the composed cells, as text. */
static const char *status_text(struct fx_screen *x)
{
    const char *t = screen_text(x);
    const char *last = strrchr(t, '\n');
    while (last > t && last[-1] != '\n')
        last--;
    return last;
}

/* A coarser picture (a rung of the ladder: the link's; a detail of the
 * CPU's) is said in one word, and the slow motion in another; with both,
 * and paused, the status line still fits 80 columns with "? help" and "q
 * quit" in view. The fps is shown only once measured. */
TEST(hud_says_in_a_word_what_the_picture_gives)
{
    struct fx_screen x;
    open_at(&x, 80, 24);
    fx_screen_compose(&x);
    CHECK_MSG(!strstr(status_text(&x), "coarse") && strstr(status_text(&x), " 7 fps"), "%s",
              status_text(&x));
    x.f.st.link_step = 4, x.f.st.link_word = ladder_rungs[4].name;
    x.a.paused = true;
    x.a.dropped = 3, x.a.dropped_of = 4, x.a.dropped_at = x.a.now; /* slow motion */
    fx_screen_compose(&x);
    const char *last = status_text(&x);
    CHECK_MSG(strncmp(last, " dye ", 5) == 0 && strstr(last, "paused  coarse  slow") &&
                  strstr(last, "? help") && strstr(last, "q quit") && strlen(last) <= 81,
              "status line: %s", last);
    x.f.st.link_step = 0, x.f.st.link_word = NULL;
    x.a.detail = TUNE_COARSE; /* the CPU's: the same word */
    fx_screen_compose(&x);
    CHECK_MSG(strstr(status_text(&x), "coarse"), "%s", status_text(&x));
    x.f.st.fps = 0.0; /* not measured yet */
    fx_screen_compose(&x);
    CHECK_MSG(!strstr(status_text(&x), "fps"), "%s", status_text(&x));
    fx_screen_close(&x);
}

TEST(help_shows_the_round_trip_the_rate_and_the_picture)
{
    struct fx_screen x;
    open_at(&x, 120, 50);
    x.a.help = true;
    fx_screen_compose(&x);
    CHECK_MSG(strstr(screen_text(&x), "round trip not measured") &&
                  strstr(screen_text(&x), "picture     whole, 7 frames a second"),
              "%s", screen_text(&x));
    x.f.st.link_rtt = 0.102, x.f.st.link_rate = 98000, x.f.st.link_limit = true;
    x.f.st.link_step = 5, x.f.st.link_word = ladder_rungs[5].name;
    fx_screen_compose(&x);
    char want[96];
    snprintf(want, sizeof want, "picture     coarser for the link: %s, 7 frames a second",
             ladder_rungs[5].name);
    CHECK_MSG(strstr(screen_text(&x), "round trip 102 ms, carries at most 98 KB/s") &&
                  strstr(screen_text(&x), want),
              "%s", screen_text(&x));
    x.f.st.link_limit = false, x.f.st.link_step = 0, x.f.st.link_word = NULL;
    fx_screen_compose(&x);
    CHECK(strstr(screen_text(&x), "round trip 102 ms, carried 98 KB/s") &&
          strstr(screen_text(&x), "picture     whole"));
    CHECK_MSG(strstr(screen_text(&x), "threads     1 of 1 in use"), "%s", screen_text(&x));
    /* The scene's statistics, with its diagnostics, are in the help. */
    CHECK_MSG(strstr(screen_text(&x), "statistics  grid ") &&
                  strstr(screen_text(&x), "pressure residual") &&
                  strstr(screen_text(&x), "; a step "),
              "%s", screen_text(&x));
    fx_screen_close(&x);
}

/* Where the link asks for fewer colours, the truecolour app's frame is
 * drawn in the 256 the xterm palette has, and back in truecolour after. */
TEST(frame_drawn_in_256_colours_while_the_link_asks)
{
    struct fx_screen x;
    open_at(&x, 80, 24);
    CHECK(x.a.o.color == COLOR_TRUE);
    for (int pass = 0; pass < 2; pass++) {
        x.f.st.fewer_colours = pass == 0;
        fx_screen_compose(&x);
        int off = 0, canvas = app_canvas_rows(&x.a) * 80;
        for (int i = 0; i < canvas; i++) { /* the picture's cells, not the hint's text */
            const struct cell *c = &x.f.cells.c[i];
            if (c->ch == GLYPH_UPPER)
                off += palette_nearest(COLOR_256, c->fg) != c->fg ||
                       palette_nearest(COLOR_256, c->bg) != c->bg;
        }
        CHECK_MSG(pass == 0 ? off == 0 : off > 0, "pass %d: %d cells off the palette", pass, off);
    }
    fx_screen_close(&x);
}
