/*
 * test_hud_link.c — what the screen says of the link, without a terminal: the
 * status line's word while the picture gives to a slow link (and the hints
 * still there), the help's round trip, rate and what the picture gives, and
 * a frame drawn in 256 colours when the link asks for fewer.
 */
#include "app.h"
#include "compose.h"
#include "fixtures.h"
#include "flow.h"
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

TEST(hud_says_in_a_word_what_the_picture_gives_to_the_link)
{
    struct fx_screen x;
    open_at(&x, 100, 30);
    fx_screen_compose(&x);
    CHECK(!strstr(screen_text(&x), "slow link"));
    x.f.st.link_word = flow_step_word(FLOW_FEWER_FRAMES);
    fx_screen_compose(&x);
    const char *t = screen_text(&x);
    const char *last = strrchr(t, '\n');
    while (last > t && last[-1] != '\n')
        last--;
    CHECK_MSG(strstr(last, "[slow link: fewer frames]") && strstr(last, "? help") &&
                  strstr(last, "q quit"),
              "status line: %s", last);
    fx_screen_close(&x);
}

TEST(help_shows_the_round_trip_the_rate_and_the_picture)
{
    struct fx_screen x;
    open_at(&x, 120, 50);
    x.a.help = true;
    fx_screen_compose(&x);
    CHECK_MSG(strstr(screen_text(&x), "round trip not measured") &&
                  strstr(screen_text(&x), "picture     whole"),
              "%s", screen_text(&x));
    x.f.st.link_rtt = 0.102, x.f.st.link_rate = 98000, x.f.st.link_limit = true;
    x.f.st.link_word = flow_step_word(FLOW_FEWER_COLOURS);
    fx_screen_compose(&x);
    CHECK_MSG(strstr(screen_text(&x), "round trip 102 ms, carries at most 98 KB/s") &&
                  strstr(screen_text(&x), "picture     cut to fit the link (256 colours)"),
              "%s", screen_text(&x));
    x.f.st.link_limit = false, x.f.st.link_word = NULL;
    fx_screen_compose(&x);
    CHECK(strstr(screen_text(&x), "round trip 102 ms, carried 98 KB/s") &&
          strstr(screen_text(&x), "picture     whole"));
    CHECK_MSG(strstr(screen_text(&x), "threads     1 of 1 in use"), "%s", screen_text(&x));
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
