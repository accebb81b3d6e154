/*
 * test_probe.c — asking the terminal (probe.h): the parser fed the answers
 * real terminals gave to PROBE_QUERY (recorded under Xvfb and in tmux, Debian
 * 12 packages), the forms each answer can take, the tmux rule, and the choice
 * of colour depth as a table of environment + answers -> mode; the asking
 * itself on a pseudo-terminal (what it says it asked, and what came back in
 * time); end to end, swirl inside tmux with and without RGB passed on.
 */
#define _XOPEN_SOURCE 700 /* posix_openpt */

#include "e2e.h"
#include "probe.h"
#include "test.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#define CHECK_STR(got, want) CHECK_MSG(strcmp((got), (want)) == 0, "\"%s\", not \"%s\"", (got), (want))

/* ---- recorded answers -------------------------------------------------------- */

struct recorded {
    const char *name, *bytes;
    enum probe_verdict sgr, tcap, sync;
};

/* What each terminal wrote back to PROBE_QUERY, byte for byte. */
static const struct recorded answers[] = {
    {"xterm 379", "\x1bP1$r0;48:2::123:45:67m\x1b\\\x1b[?2026;0$y"
                  "\x1b[?64;1;2;6;9;15;16;17;18;21;22;28c",
     PROBE_YES, PROBE_UNKNOWN, PROBE_NO},
    {"kitty 0.26.5", "\x1bP1$r48:2:123:45:67m\x1b\\\x1bP0+r524742\x1b\\\x1bP0+r5463\x1b\\"
                     "\x1b[?2026;2$y\x1b[?62;c",
     PROBE_YES, PROBE_NO, PROBE_YES},
    {"VTE 0.70 (sakura 3.8)", "\x1bP0$r\x1b\\\x1b[?2026;4$y\x1b[?65;1;9c",
     PROBE_UNKNOWN, PROBE_UNKNOWN, PROBE_NO},
    {"st 0.9", "\x1b[?6c", PROBE_UNKNOWN, PROBE_UNKNOWN, PROBE_UNKNOWN},
    {"urxvt 9.30", "\x1b[?2026;0$y\x1b[?1;2c", PROBE_UNKNOWN, PROBE_UNKNOWN, PROBE_NO},
    {"mlterm 3.9.0", "\x1bP1$r0m\x1b\\\x1bP0+r\x1b\\\x1bP0+r\x1b\\\x1b[?2026;0$y"
                     "\x1b[?63;1;2;3;4;6;7;15;18;22;29c",
     PROBE_UNKNOWN, PROBE_NO, PROBE_NO},
    {"tmux 3.3a", "\x1b[?1;2c", PROBE_UNKNOWN, PROBE_UNKNOWN, PROBE_UNKNOWN},
    {"GNU screen 4.09", "\x1b[?1;2c", PROBE_UNKNOWN, PROBE_UNKNOWN, PROBE_UNKNOWN},
};

/* The bytes through the one parser (input.h), its answers taken: what is
 * left for the app written into keys (a key's character, U for Up, M for a
 * mouse report; at most cap - 1 and a NUL), the parser's pending state in
 * *pending. */
static struct probe_answers parse(const char *s, char *keys, size_t cap, bool *pending)
{
    struct probe_answers a = {.sgr_index = -1};
    struct input in;
    input_init(&in);
    size_t n = strlen(s), nk = 0;
    struct input_event ev[512];
    int ne = input_feed(&in, (const unsigned char *)s, n, ev, (int)(sizeof ev / sizeof ev[0]));
    for (int i = 0; i < ne; i++) {
        if (probe_take(&a, &ev[i]) || nk + 1 >= cap)
            continue;
        keys[nk++] = ev[i].type == INPUT_MOUSE ? 'M' : ev[i].key == IK_UP ? 'U' : (char)ev[i].key;
    }
    if (cap)
        keys[nk] = 0;
    if (pending)
        *pending = input_pending(&in);
    return a;
}

TEST(probe_parses_what_real_terminals_answered)
{
    for (size_t i = 0; i < sizeof answers / sizeof answers[0]; i++) {
        const struct recorded *r = &answers[i];
        char keys[64];
        bool pending;
        struct probe_answers a = parse(r->bytes, keys, sizeof keys, &pending);
        CHECK_MSG(a.fence, "%s: no fence", r->name);
        CHECK_MSG(a.sgr == r->sgr && a.tcap == r->tcap && a.sync == r->sync,
                  "%s: sgr %d tcap %d sync %d", r->name, a.sgr, a.tcap, a.sync);
        CHECK_MSG(!*keys && !pending, "%s: \"%s\" left for the keys", r->name, keys);
    }
    /* A silent terminal: no fence, nothing known. */
    struct probe_answers a = parse("", NULL, 0, NULL);
    CHECK(!a.fence && a.sgr == PROBE_UNKNOWN && a.tcap == PROBE_UNKNOWN &&
          a.sync == PROBE_UNKNOWN);
}

/* Keys typed while the answers came are the user's: passed on in order. An
 * answer cut short waits in the parser for its end; a string nobody asked
 * about (XTVERSION's DCS, an OSC colour) and an answer to another question
 * (DA2) are dropped. */
TEST(probe_passes_keys_on_and_keeps_answers_back)
{
    char keys[64];
    bool pending;
    struct probe_answers a = parse("q\x1bP1$r0;48:2::123:45:67m\x1b\\\x1b[A\x1bP>|XTerm(379)\x1b\\x"
                                   "\x1b]11;rgb:1e1e/1e1e/1e1e\x1b\\\x1b[?1;2cz",
                                   keys, sizeof keys, &pending);
    CHECK(a.fence && a.sgr == PROBE_YES);
    CHECK_STR(keys, "qUxz");
    a = parse("\x1b[?2026;2$y\x1bP1$r0;48:2::12", keys, sizeof keys, &pending);
    CHECK(!a.fence && a.sync == PROBE_YES && a.sgr == PROBE_UNKNOWN && pending);
    CHECK_STR(keys, "");
    a = parse("\x1b[>85;95;0c\x1b", keys, sizeof keys, &pending);
    CHECK(!a.fence && pending); /* DA2 is no fence; the ESC may be the user's */
    CHECK_STR(keys, "");
    /* keys never overflow. */
    a = parse("abcdefgh\x1b[?6c", keys, 4, NULL);
    CHECK(a.fence);
    CHECK_STR(keys, "abc");
}

/* The answers about pixels: kitty's graphics query (ours by its id), DA1's
 * sixel attribute, XTSMGRAPHICS' colour registers and largest sixel picture,
 * the cell's size. */
TEST(probe_takes_the_answers_about_pixels)
{
    struct probe_answers a = parse("\x1b_Gi=31;OK\x1b\\\x1b[?1;0;1024S\x1b[6;17;8t"
                                   "\x1b[?63;1;2;4;6;9;15;16;22;28c", NULL, 0, NULL);
    CHECK(a.kitty == PROBE_YES && a.sixel && a.sixel_colors == 1024);
    CHECK(a.cell_w == 8 && a.cell_h == 17 && a.fence);
    /* The largest sixel picture (item 2); an error (status 3) and ReGIS's
     * (item 3) say nothing of it. */
    a = parse("\x1b[?3;0;800;480S\x1b[?2;0;1000;1000S\x1b[?62;4c", NULL, 0, NULL);
    CHECK_MSG(a.sixel_w == 1000 && a.sixel_h == 1000 && a.fence, "%dx%d", a.sixel_w, a.sixel_h);
    a = parse("\x1b[?2;3;0;0S\x1b[?1;0;256S\x1b[?62;4c", NULL, 0, NULL);
    CHECK(a.sixel_w == 0 && a.sixel_h == 0 && a.sixel_colors == 256 && a.fence);
    a = parse("\x1b_Gi=31;ENOENT:no such thing\x1b\\\x1b[?62;22c", NULL, 0, NULL);
    CHECK(a.kitty == PROBE_NO && !a.sixel && a.fence);
    a = parse("\x1b_Gi=7;OK\x1b\\\x1b[?3;1;0S\x1b[?64;1;2;6c", NULL, 0, NULL);
    CHECK(a.kitty == PROBE_UNKNOWN && a.sixel_colors == 0 && !a.sixel); /* not our id; an error */
}

/* The forms a DECRQSS m answer takes: colons with or without the colour space,
 * semicolons; only our three numbers count as kept. */
/* A pseudo-terminal: its master in *master, its slave (the tty swirl would
 * have) returned, with echo and canonical input off as curses leaves them
 * (or on, `cooked`). -1 when there is none to be had. */
static int pty_open(int *master, bool cooked)
{
    *master = posix_openpt(O_RDWR | O_NOCTTY);
    if (*master < 0 || grantpt(*master) != 0 || unlockpt(*master) != 0)
        return -1;
    int slave = open(ptsname(*master), O_RDWR | O_NOCTTY);
    struct termios tio;
    if (slave < 0 || tcgetattr(slave, &tio) != 0)
        return -1;
    if (!cooked)
        tio.c_lflag &= ~(tcflag_t)(ECHO | ICANON);
    tcsetattr(slave, TCSANOW, &tio);
    return slave;
}

/* What probe_ask_tty says it did: asked (answered in time, DA1 the fence, or
 * not: then its answers are owed, term.c's owed.h), or not asked at all where
 * the tty would echo the answers. */
TEST(probe_ask_tty_says_what_it_asked)
{
    int master, slave = pty_open(&master, false);
    if (slave < 0)
        test_skip("no pseudo-terminal");
    struct probe_answers a = {0};
    struct input in;
    input_init(&in);
    struct input_event rest[16];
    static const char da1[] = "\x1b[?62;22cq";
    CHECK(write(master, da1, sizeof da1 - 1) == (ssize_t)sizeof da1 - 1); /* as if quick */
    int n = probe_ask_tty(slave, slave, 5.0, false, &a, &in, rest, 16);
    CHECK(a.asked && a.fence);
    CHECK(n == 1 && rest[0].type == INPUT_KEY && rest[0].key == 'q');
    char asked[sizeof PROBE_QUERY];
    CHECK(read(master, asked, sizeof asked) == (ssize_t)sizeof PROBE_QUERY - 1);
    /* Nothing comes back within the wait: asked, and owed. */
    a = (struct probe_answers){0};
    n = probe_ask_tty(slave, slave, 0.05, false, &a, &in, rest, 16);
    CHECK(a.asked && !a.fence && n == 0);
    CHECK(read(master, asked, sizeof asked) == (ssize_t)sizeof PROBE_QUERY - 1);
    /* With pixels: kitty's query, XTSMGRAPHICS and CSI 16 t before DA1. */
    a = (struct probe_answers){0};
    n = probe_ask_tty(slave, slave, 0.05, true, &a, &in, rest, 16);
    char asked_px[sizeof PROBE_QUERY_PIXELS];
    CHECK(read(master, asked_px, sizeof asked_px) == (ssize_t)sizeof PROBE_QUERY_PIXELS - 1);
    CHECK(memcmp(asked_px, PROBE_QUERY_PIXELS, sizeof PROBE_QUERY_PIXELS - 1) == 0);
    CHECK(a.asked && !a.fence && n == 0);
    close(slave);
    close(master);
    /* Echo on: not asked. */
    slave = pty_open(&master, true);
    a = (struct probe_answers){0};
    CHECK_INT(probe_ask_tty(slave, slave, 0.05, false, &a, &in, rest, 16), 0);
    CHECK(!a.asked && !a.fence);
    close(slave);
    close(master);
}

TEST(probe_sgr_answer_forms)
{
    static const struct {
        const char *sgr;
        enum probe_verdict want;
        int index;
    } cases[] = {
        {"0;48:2::123:45:67m", PROBE_YES, -1},
        {"48:2:123:45:67m", PROBE_YES, -1},
        {"48:2:0:123:45:67m", PROBE_YES, -1},
        {"0;48;2;123;45;67m", PROBE_YES, -1},
        {"0;48:2::120:45:67m", PROBE_NO, -1},   /* rounded: not exact */
        {"0;48:5:131m", PROBE_NO, 131},         /* mapped onto the palette */
        {"0;48;5;131m", PROBE_NO, 131},
        {"0;45m", PROBE_UNKNOWN, -1},           /* an ANSI background says nothing */
        {"0;38;2;123;45;67m", PROBE_UNKNOWN, -1}, /* a foreground is not ours */
        {"38;2;48;2;1;48:2::123:45:67m", PROBE_YES, -1}, /* fg numbers are not parameters */
        {"0m", PROBE_UNKNOWN, -1},
        {"0;48:2::123:45:67", PROBE_UNKNOWN, -1}, /* no final m: not an SGR */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char s[96];
        snprintf(s, sizeof s, "\x1bP1$r%s\x1b\\", cases[i].sgr);
        struct probe_answers a = parse(s, NULL, 0, NULL);
        CHECK_MSG(a.sgr == cases[i].want && (a.sgr != PROBE_NO || a.sgr_index == cases[i].index),
                  "%s: %d (index %d)", cases[i].sgr, a.sgr, a.sgr_index);
    }
}

TEST(probe_xtgettcap_and_decrqm_forms)
{
    static const struct {
        const char *s;
        enum probe_verdict tcap, sync;
    } cases[] = {
        {"\x1bP1+r524742\x1b\\", PROBE_YES, PROBE_UNKNOWN},
        {"\x1bP1+r5463\x1b\\", PROBE_YES, PROBE_UNKNOWN},
        {"\x1bP1+r524742=382F382F38\x1b\\", PROBE_YES, PROBE_UNKNOWN}, /* foot: RGB=8/8/8 */
        {"\x1bP1+r436f=323536\x1b\\", PROBE_UNKNOWN, PROBE_UNKNOWN},   /* Co=256: not ours */
        {"\x1bP1+r52474\x1b\\", PROBE_UNKNOWN, PROBE_UNKNOWN},         /* cut short */
        {"\x1bP0+r524742\x1b\\\x1bP1+r5463\x1b\\", PROBE_YES, PROBE_UNKNOWN},
        {"\x1b[?2026;0$y", PROBE_UNKNOWN, PROBE_NO},
        {"\x1b[?2026;1$y", PROBE_UNKNOWN, PROBE_YES},
        {"\x1b[?2026;2$y", PROBE_UNKNOWN, PROBE_YES},
        {"\x1b[?2026;3$y", PROBE_UNKNOWN, PROBE_YES},
        {"\x1b[?2026;4$y", PROBE_UNKNOWN, PROBE_NO},
        {"\x1b[?1049;1$y", PROBE_UNKNOWN, PROBE_UNKNOWN}, /* another mode */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct probe_answers a = parse(cases[i].s, NULL, 0, NULL);
        CHECK_MSG(a.tcap == cases[i].tcap && a.sync == cases[i].sync, "case %zu: tcap %d sync %d",
                  i, a.tcap, a.sync);
    }
}

/* ---- tmux -------------------------------------------------------------------- */

/* tmux 3.3a's terminal-features. */
#define TMUX_DEFAULTS "xterm*:clipboard:ccolour:cstyle:focus:title\nscreen*:title\n"

TEST(probe_tmux_pane_and_rgb_rule)
{
    struct probe_tmux t = {"/dev/pts/3\n", "/dev/pts/3", "", TMUX_DEFAULTS, ""};
    CHECK_INT(probe_tmux_pane(&t), PROBE_YES);
    t.our_tty = "/dev/pts/7"; /* screen's pty inside the pane, or another terminal */
    CHECK_INT(probe_tmux_pane(&t), PROBE_NO);
    t.pane_tty = NULL;
    CHECK_INT(probe_tmux_pane(&t), PROBE_UNKNOWN);
    t.pane_tty = "";
    CHECK_INT(probe_tmux_pane(&t), PROBE_UNKNOWN);

    static const struct {
        const char *clients, *features, *overrides;
        enum probe_verdict want;
    } cases[] = {
        /* tmux not reached */
        {NULL, NULL, NULL, PROBE_UNKNOWN},
        /* clients: tmux >= 3.2 lists what it sends each */
        {"xterm-256color\t256,bpaste,clipboard,focus,title\n", "", "", PROBE_NO},
        {"xterm-256color\tbpaste,ccolour,clipboard,cstyle,focus,RGB,title\n", "", "", PROBE_YES},
        {"xterm-kitty\tRGB,title\nxterm-256color\ttitle\n", "", "", PROBE_NO}, /* one without */
        {"xterm-kitty\tRGB,title\nst-256color\t256,RGB\n", "", "", PROBE_YES},
        {"xterm\tRGBX,title\n", "", "", PROBE_NO}, /* a word, not a substring */
        /* an older tmux: no features; its overrides for the client's TERM */
        {"xterm-256color\t\n", NULL, "xterm-256color:Tc\n", PROBE_YES},
        {"xterm-256color\t\n", NULL, "rxvt*:Tc\n", PROBE_NO},
        {"xterm-256color\t\n", NULL, "xterm*:Tc@\n", PROBE_NO},
        {"xterm-256color\t\n", NULL, "xterm*:RGB=8/8/8\n", PROBE_YES},
        {"xterm-256color\t\n", NULL, "xterm*:Smulx=\\E[4\\:%p1%dm:Tc\n", PROBE_YES},
        /* no client attached: what the configuration grants to any terminal */
        {"", TMUX_DEFAULTS, "", PROBE_NO},
        {"", "xterm*:clipboard:title\nxterm*:RGB\n", "", PROBE_YES},
        {"", TMUX_DEFAULTS, "st*:Tc\n", PROBE_YES},
        {"", "xterm*:RGBA\n", "xterm*:Tcx\n", PROBE_NO},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct probe_tmux c = {NULL, NULL, cases[i].clients, cases[i].features,
                               cases[i].overrides};
        CHECK_MSG(probe_tmux_rgb(&c) == cases[i].want, "case %zu: %d", i, probe_tmux_rgb(&c));
    }
}

/* ---- the choice --------------------------------------------------------------- */

static struct probe_answers answered(const char *s) { return parse(s, NULL, 0, NULL); }

#define XTERM_ANS answers[0].bytes
#define KITTY_ANS answers[1].bytes
#define VTE_ANS answers[2].bytes
#define ST_ANS answers[3].bytes
#define URXVT_ANS answers[4].bytes
#define MLTERM_ANS answers[5].bytes
#define TMUX_ANS answers[6].bytes
#define SCREEN_ANS answers[7].bytes

/* Each terminal as it runs: its answers and the environment it sets. */
TEST(probe_each_terminal_gets_what_it_shows)
{
    /* Not static: the answers are other objects' members (clang wants
     * constants in a static initializer). */
    const struct {
        const char *name;
        struct probe_env e;
        const char *ans;
        enum color_mode want;
        const char *why;
        bool sync;
    } cases[] = {
        {"xterm", {.term = "xterm", .colors = 8, .xterm_version = "XTerm(379)"}, XTERM_ANS,
         COLOR_TRUE, "asked the terminal", false},
        {"kitty", {.term = "xterm-kitty", .colorterm = "truecolor", .rgb = true, .colors = 256,
                   .kitty_window_id = "1"}, KITTY_ANS, COLOR_TRUE, "asked the terminal", true},
        {"VTE", {.term = "xterm-256color", .colorterm = "truecolor", .colors = 256,
                 .vte_version = "7006"}, VTE_ANS, COLOR_TRUE, "COLORTERM", false},
        {"VTE, COLORTERM lost", {.term = "xterm-256color", .colors = 256, .vte_version = "7006"},
         VTE_ANS, COLOR_TRUE, "VTE_VERSION", false},
        {"st", {.term = "st-256color", .colors = 256}, ST_ANS, COLOR_TRUE, "TERM=st", false},
        {"urxvt", {.term = "rxvt-unicode-256color", .colorterm = "rxvt-xpm", .colors = 256},
         URXVT_ANS, COLOR_256, "terminfo colors", false},
        {"mlterm", {.term = "mlterm", .colors = 8, .mlterm = "3.9.0"}, MLTERM_ANS, COLOR_TRUE,
         "MLTERM", false},
        {"tmux, no RGB", {.term = "tmux-256color", .colorterm = "truecolor", .tmux = "/t,1,0",
                          .colors = 256, .tmux_pane = PROBE_YES, .tmux_rgb = PROBE_NO},
         TMUX_ANS, COLOR_256, "tmux passes no RGB", false},
        {"tmux, RGB", {.term = "tmux-256color", .tmux = "/t,1,0", .colors = 256,
                       .tmux_pane = PROBE_YES, .tmux_rgb = PROBE_YES},
         TMUX_ANS, COLOR_TRUE, "tmux passes RGB", false},
        {"screen in xterm", {.term = "screen-256color", .colorterm = "truecolor", .sty = "1.p.h",
                             .colors = 256, .xterm_version = "XTerm(379)"},
         SCREEN_ANS, COLOR_256, "GNU screen", false},
        {"silent, xterm-256color", {.term = "xterm-256color", .colors = 256}, "", COLOR_256,
         "terminfo colors", false},
        {"silent, xterm", {.term = "xterm", .colors = 8}, "", COLOR_16, "terminfo colors", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct probe_env e = cases[i].e;
        e.ans = answered(cases[i].ans);
        const char *why = NULL;
        enum color_mode m = probe_choose(&e, &why);
        CHECK_MSG(m == cases[i].want && why && strcmp(why, cases[i].why) == 0,
                  "%s: %s (%s)", cases[i].name, palette_mode_name(m), why ? why : "?");
        CHECK_MSG(probe_sync(&e.ans) == cases[i].sync, "%s: sync %d", cases[i].name,
                  probe_sync(&e.ans));
    }
}

/* The rules one by one: which wins over which. */
TEST(probe_choice_rules)
{
    static const char *const yes = "\x1bP1$r0;48:2::123:45:67m\x1b\\\x1b[?1c";
    static const char *const no256 = "\x1bP1$r0;48:5:131m\x1b\\\x1b[?1c";
    static const char *const no16 = "\x1bP1$r0;48:5:5m\x1b\\\x1b[?1c";
    static const char *const tcap = "\x1bP1+r524742\x1b\\\x1b[?1c";
    static const struct {
        struct probe_env e;
        const char *ans;
        enum color_mode want;
    } cases[] = {
        /* NO_COLOR wins over every answer */
        {{.no_color = "1", .term = "xterm", .colors = 8}, yes, COLOR_MONO},
        {{.no_color = "", .term = "xterm", .colors = 8}, yes, COLOR_TRUE}, /* empty: unset */
        /* an answer wins over COLORTERM, both ways */
        {{.term = "xterm-256color", .colors = 256}, tcap, COLOR_TRUE},
        {{.term = "xterm-256color", .colorterm = "truecolor", .colors = 256}, no256, COLOR_256},
        {{.term = "xterm", .colors = 8}, no256, COLOR_256}, /* it named a 256-colour index */
        {{.term = "xterm", .colors = 8}, no16, COLOR_16},
        {{.term = "xterm-direct", .rgb = true, .colors = 256}, no256, COLOR_256},
        /* a terminal's own variable counts only where TERM agrees */
        {{.term = "rxvt-unicode-256color", .colors = 256, .xterm_version = "XTerm(379)"}, "",
         COLOR_256},
        {{.term = "xterm", .colors = 8, .xterm_version = "XTerm(330)"}, "", COLOR_16},
        {{.term = "xterm-256color", .colors = 256, .vte_version = "3405"}, "", COLOR_256},
        {{.term = "xterm-256color", .colors = 256, .kitty_window_id = "1"}, "", COLOR_256},
        {{.term = "mlterm", .colors = 8, .mlterm = "3.8.9"}, "", COLOR_8},
        {{.term = "stterm", .colors = 8}, "", COLOR_8}, /* not st's own TERM */
        /* tmux: an inherited COLORTERM is not believed; tmux's own answer is */
        {{.term = "tmux-256color", .tmux = "/t", .colorterm = "truecolor", .colors = 256}, "",
         COLOR_256},
        {{.term = "tmux-256color", .tmux = "/t", .colors = 256, .tmux_pane = PROBE_YES}, yes,
         COLOR_TRUE},
        {{.term = "tmux-256color", .colors = 256}, "", COLOR_256}, /* ssh from a tmux pane */
        /* a pane tmux calls ours makes tmux nearest whatever TERM and STY say */
        {{.term = "xterm-256color", .tmux = "/t", .sty = "1.p.h", .colors = 256,
          .tmux_pane = PROBE_YES, .tmux_rgb = PROBE_YES}, "", COLOR_TRUE},
        {{.term = "xterm-256color", .tmux = "/t", .colorterm = "truecolor", .colors = 256,
          .tmux_pane = PROBE_YES, .tmux_rgb = PROBE_NO}, "", COLOR_256},
        /* not ours (a terminal started from the pane): tmux is not in the way */
        {{.term = "xterm-256color", .tmux = "/t", .colors = 256, .tmux_pane = PROBE_NO}, yes,
         COLOR_TRUE},
        /* screen inside tmux: tmux says the pane is not ours, STY says screen */
        {{.term = "screen-256color", .tmux = "/t", .sty = "1.p.h", .colors = 256,
          .tmux_pane = PROBE_NO, .tmux_rgb = PROBE_YES}, yes, COLOR_256},
        /* a tmux that is TERM=screen (tmux < 2.1) keeps 8 colours of its terminfo */
        {{.term = "screen", .tmux = "/t", .colors = 8, .tmux_rgb = PROBE_NO}, "", COLOR_8},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct probe_env e = cases[i].e;
        e.ans = answered(cases[i].ans);
        enum color_mode m = probe_choose(&e, NULL);
        CHECK_MSG(m == cases[i].want, "case %zu: %s, want %s", i, palette_mode_name(m),
                  palette_mode_name(cases[i].want));
    }
}

/* ---- end to end ------------------------------------------------------------------ */

/* The help's colour line. */
static bool colour_line(const char *screen, void *want)
{
    const char *p = strstr(screen, "colour ");
    return p && strncmp(p + strspn(p + 6, " ") + 6, want, strlen(want)) == 0;
}

/* The colour codes of a capture (-e): 24-bit ones, 256-colour ones. */
static void codes(const char *s, int *rgb, int *indexed)
{
    *rgb = *indexed = 0;
    for (const char *p = s; (p = strstr(p, "8;")) != NULL; p += 2) {
        *rgb += p[2] == '2' && p[3] == ';';
        *indexed += p[2] == '5' && p[3] == ';';
    }
}

static void check_in_tmux(const char *features, const char *want, bool rgb_out)
{
    char rec[64];
    snprintf(rec, sizeof rec, "/tmp/swirl-probe-%d.cast", (int)getpid());
    char args[128];
    snprintf(args, sizeof args, "--record %s --overwrite", rec);
    /* COLORTERM=truecolor as tmux inherits it from the terminal it started in. */
    CHECK(e2e_start_swirl_tmux(100, 30, features, "COLORTERM=truecolor", args));
    CHECK_MSG(e2e_wait_hud(), "no HUD:\n%s", e2e_plain());
    e2e_send_key("?");
    CHECK_MSG(e2e_wait(e2e_plain, colour_line, (void *)want, E2E_DEADLINE), "%s: help:\n%s",
              features ? features : "tmux's defaults", e2e_plain());
    /* tmux 3.3a does not hold frames: the help says what that means. */
    CHECK_MSG(strstr(e2e_plain(), "frames      may show half drawn while things move"),
              "help:\n%s", e2e_plain());
    int rgb, indexed;
    codes(e2e_screen(), &rgb, &indexed);
    CHECK_MSG(rgb_out ? rgb > 20 : rgb == 0 && indexed > 20, "%d 24-bit codes, %d indexed",
              rgb, indexed);
    e2e_send_key("q");
    CHECK(e2e_wait_for(e2e_plain, "SWIRL-EXIT=0"));
    /* Nothing of the questions or the answers was left on the screen. */
    const char *after = e2e_plain();
    CHECK_MSG(!strstr(after, "$q") && !strstr(after, "+q") && !strstr(after, "2026") &&
                  !strstr(after, "$r") && !strstr(after, "1;2c"),
              "the probe shows:\n%s", after);
    e2e_stop();
    /* tmux 3.3a does not answer DECRQM 2026: no synchronized-output mark sent
     * (CSI ? 2026 h or l; a time such as 2.026 s is no mark). */
    size_t n;
    char *cast = e2e_slurp(rec, &n);
    CHECK_MSG(cast && n > 1000 && !strstr(cast, "[?2026"), "the recording %s",
              cast ? "has 2026 marks" : "is missing");
    free(cast);
    remove(rec);
}

/* swirl inside tmux (a pane tmux calls ours) with COLORTERM=truecolor
 * inherited: tmux's defaults pass no RGB on, so 256 colours (swirl's own
 * mapping); with terminal-features ...:RGB, as the README says, 24-bit. */
TEST_E2E(probe_in_tmux_256_without_rgb_truecolor_with_it)
{
    check_in_tmux(NULL, "256 (tmux passes no RGB)", false);
    check_in_tmux("xterm*:RGB", "truecolor (tmux passes RGB)", true);
}

/* GNU screen nearest: asked nothing (screen 4 prints DCS questions as text);
 * a tmux pane that is ours, or a tmux inside screen, is not screen. */
TEST(probe_screen_is_never_asked)
{
    struct probe_env e = {.term = "screen-256color", .sty = "1.pts-0.h"};
    CHECK(probe_screen_nearest(&e));
    e.term = "xterm-256color"; /* STY inherited, TERM not fixed */
    CHECK(probe_screen_nearest(&e));
    e.term = "tmux-256color"; /* a tmux inside screen */
    CHECK(!probe_screen_nearest(&e));
    struct probe_env t = {.term = "screen-256color", .tmux = "/tmp/t,1,0",
                          .tmux_pane = PROBE_YES};
    CHECK(!probe_screen_nearest(&t));
    struct probe_env x = {.term = "xterm-256color"};
    CHECK(!probe_screen_nearest(&x));
}
