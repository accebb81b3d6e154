/*
 * test_term.c — the terminal side's choices: the colour depth from the
 * environment (unit), and swirl inside GNU screen (end to end, in tmux).
 */
#include "e2e.h"
#include "probe.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static enum color_mode choose(const char *colorterm, const char *term, const char *sty,
                              const char *tmux, bool rgb, int colors)
{
    struct probe_env e = {.colorterm = colorterm, .term = term, .sty = sty, .tmux = tmux,
                          .rgb = rgb, .colors = colors};
    return probe_choose(&e, NULL);
}

TEST(term_colour_depth_from_the_environment)
{
    struct probe_env mono = {.no_color = "1", .colorterm = "truecolor",
                             .term = "xterm-256color", .rgb = true, .colors = 256};
    CHECK_INT(probe_choose(&mono, NULL), COLOR_MONO);
    CHECK_INT(choose("truecolor", "xterm-256color", NULL, NULL, false, 256), COLOR_TRUE);
    CHECK_INT(choose("24bit", "xterm", NULL, NULL, false, 8), COLOR_TRUE);
    CHECK_INT(choose(NULL, "xterm-direct", NULL, NULL, true, 16777216), COLOR_TRUE);
    CHECK_INT(choose(NULL, "xterm-256color", NULL, NULL, false, 256), COLOR_256);
    CHECK_INT(choose(NULL, "vt100", NULL, NULL, false, -1), COLOR_MONO);
    /* TERM=xterm: terminfo says 8, xterm has 16. */
    CHECK_INT(choose(NULL, "xterm", NULL, NULL, false, 8), COLOR_16);
    CHECK_INT(choose(NULL, "xterm-color", NULL, NULL, false, 8), COLOR_8);
    CHECK_INT(choose(NULL, "linux", NULL, NULL, false, 8), COLOR_8);
    /* tmux, not asked: COLORTERM inherited from outside is not believed (tmux
     * maps 24-bit to 256 itself unless it knows its client has RGB). */
    CHECK_INT(choose("truecolor", "tmux-256color", NULL, "/tmp/tmux-0/default,1,0", false, 256),
              COLOR_256);
    CHECK_INT(choose("truecolor", "screen-256color", NULL, "/tmp/tmux-0/default,1,0", false,
                     256), COLOR_256); /* an old tmux's TERM */
}

TEST(term_gnu_screen_gets_256_colours_whatever_colorterm_says)
{
    CHECK_INT(choose("truecolor", "screen-256color", "1234.pts-0.host", NULL, false, 256),
              COLOR_256);
    CHECK_INT(choose("truecolor", "screen-256color", NULL, NULL, false, 256), COLOR_256);
    CHECK_INT(choose("truecolor", "screen", "1234.pts-0.host", NULL, false, 8), COLOR_8);
    CHECK_INT(choose("truecolor", "screen.xterm-256color", NULL, NULL, true, 256), COLOR_256);
    /* screen inside tmux (STY and TMUX both inherited): TERM says screen is
     * nearest; tmux inside screen: TERM says tmux is. */
    CHECK_INT(choose("truecolor", "screen-256color", "1.pts-0.h", "/tmp/t,1,0", false, 256),
              COLOR_256);
    CHECK_INT(choose("truecolor", "tmux-256color", "1.pts-0.h", "/tmp/t,1,0", false, 256),
              COLOR_256);
}

/* The background colour codes of one capture line. */
static int distinct_bgs(const char *line, char seen[][24], int max)
{
    int n = 0;
    for (const char *p = line; (p = strstr(p, "\x1b[")) != NULL; p++) {
        const char *m = strstr(p, "48;5;");
        const char *end = strchr(p, 'm');
        if (!m || !end || m > end)
            continue;
        char code[24];
        snprintf(code, sizeof code, "%.*s", (int)(end - m), m);
        bool known = false;
        for (int i = 0; i < n && !known; i++)
            known = strcmp(seen[i], code) == 0;
        if (!known && n < max)
            snprintf(seen[n++], 24, "%s", code);
    }
    return n;
}

static bool cleared(const char *screen, void *arg)
{
    (void)arg;
    char line[4096], seen[8][24];
    for (int r = 2; r < 26; r++) {
        e2e_line_of(screen, r, line, sizeof line);
        if (strstr(line, "38;2;") || strstr(line, "48;2;") || distinct_bgs(line, seen, 8) > 1)
            return false;
    }
    return true;
}

/* Inside GNU screen 4 with COLORTERM=truecolor inherited from the outer
 * terminal: 256 colours, a clean cleared dye canvas and a readable HUD. */
TEST_E2E(term_swirl_inside_gnu_screen)
{
    if (system("command -v screen >/dev/null 2>&1") != 0)
        test_skip("no GNU screen");
    CHECK(e2e_start(100, 30, "env TERM=xterm-256color COLORTERM=truecolor LANG=C.UTF-8 "
                             "LC_ALL=C.UTF-8 screen -q -c /dev/null -T screen-256color ./swirl; "
                             "sleep 60"));
    CHECK_MSG(e2e_wait_for(e2e_plain, "ms/step"), "no HUD:\n%s", e2e_plain());
    CHECK(e2e_wait_for(e2e_plain, " dye "));
    e2e_send_key("c");
    CHECK_MSG(e2e_wait(e2e_screen, cleared, NULL, E2E_DEADLINE), "not one colour:\n%s",
              e2e_screen());
    e2e_send_key("q");
    e2e_stop();
}
