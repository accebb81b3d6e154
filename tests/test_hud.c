/*
 * test_hud.c — the status line and what hides it, without a terminal: the key
 * hints kept at every width (the statistics go first), the s key and
 * --no-status, the canvas taking the freed row; and --screensaver, the tour
 * with nothing written over it that any key or mouse button ends.
 * test_first_run.c drives the same through the real binary in tmux.
 */
#include "app.h"
#include "cli.h"
#include "compose.h"
#include "frame.h"
#include "fixtures.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

static double fake_now;
static double fake_clock(void) { return fake_now; }

static void start_scene(struct fx_screen *x, int scene, int cols, int rows)
{
    struct app_opts o;
    app_opts_default(&o);
    o.scene = scene;
    fx_screen_open(x, &o, cols, rows);
}

static void frames(struct fx_screen *x, int n)
{
    for (int i = 0; i < n; i++)
        fx_app_advance(&x->a, 1.0 / 30, fake_clock);
}

static int key(struct fx_screen *x, int k)
{
    struct input_event e = fx_key(k);
    return app_input(&x->a, &e);
}

static int mouse(struct fx_screen *x, enum mouse_action act, int button, int col, int row)
{
    struct input_event e = fx_mouse(act, col, row, button);
    return app_input(&x->a, &e);
}

static bool row_has(struct fx_screen *x, int row, const char *s) { return strstr(fx_row_text(x, row), s); }

/* No row of the screen says any of the HUD's or the captions' words. */
static bool no_text(struct fx_screen *x, const char *s)
{
    for (int r = 0; r < x->a.rows; r++)
        if (row_has(x, r, s))
            return false;
    return true;
}

/* The status line at a width, with the timings a terminal run shows. */
static const char *status_at(int scene, int cols, bool paused)
{
    static char line[1024];
    struct fx_screen x;
    start_scene(&x, scene, cols, 24);
    x.f.st.simulated = false;
    x.f.st.fps = 30.0;
    frames(&x, 3);
    x.a.paused = paused;
    fx_screen_compose(&x);
    snprintf(line, sizeof line, "%s", fx_row_text(&x, 23));
    fx_screen_close(&x);
    return line;
}

TEST(hud_keeps_help_and_quit_at_every_width)
{
    static const int widths[] = {40, 60, 80, 100, 120, 200};
    for (int sc = 0; sc < SCENE_COUNT; sc++)
        for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
            int w = widths[k];
            const char *line = status_at(sc, w, false);
            const char *name = scenes[sc]->name;
            CHECK_MSG(strncmp(line + 1, name, strlen(name)) == 0, "%s at %d: %s", name, w, line);
            CHECK_MSG(strstr(line, "? help") && strstr(line, "q quit"), "%s at %d: '%s'", name,
                      w, line);
            /* The hints end the row; one blank at least parts them from
             * what is left of the statistics, which end at a whole item. */
            const char *h = strstr(line, "? help");
            CHECK_MSG(h > line + 1 && h[-1] == ' ', "%s at %d: '%s'", name, w, line);
            CHECK_MSG(line[w - 1] == ' ' && line[w - 2] == 't', "%s at %d: '%s'", name, w, line);
            /* From 80 columns the frame rate is there beside them; what a
             * step takes and the solver's iterations are the help's. */
            if (w >= 80)
                CHECK_MSG(strstr(line, " fps"), "%s at %d: no fps: '%s'", name, w, line);
            CHECK_MSG(!strstr(line, "ms/step") && !strstr(line, "iter"),
                      "%s at %d: a solver's figure: '%s'", name, w, line);
        }
    /* 80 and 100 columns of dye: statistics and the short hints; 200: all. */
    CHECK(strstr(status_at(0, 80, false), "grid "));
    CHECK(strstr(status_at(0, 100, false), "  dye "));
    char digits[16], hints[64];
    fx_scene_digits(digits, sizeof digits);
    snprintf(hints, sizeof hints, "p params  %s scene", digits);
    CHECK_MSG(strstr(status_at(0, 200, false), hints), "no '%s'", hints);
    CHECK(strstr(status_at(0, 200, false), "  dye "));
    /* Paused is never cut, and the smallest window still has "? help". */
    CHECK(strstr(status_at(2, 40, true), " paused "));
    const char *tiny = status_at(0, APP_MIN_COLS, false);
    CHECK_MSG(strstr(tiny, "? help") && strncmp(tiny, " dye", 4) == 0, "'%s'", tiny);
}

TEST(hud_cuts_statistics_at_whole_items)
{
    const char *full = status_at(0, 300, false);
    const char *cut = status_at(0, 80, false);
    char left[1024];
    snprintf(left, sizeof left, "%.*s", (int)(strstr(cut, "? help") - cut), cut);
    size_t n = strlen(left);
    while (n > 0 && left[n - 1] == ' ')
        left[--n] = 0;
    CHECK_MSG(n > 10 && strncmp(full, left, n) == 0, "'%s' is not the start of '%s'", left, full);
    CHECK_MSG(full[n] == ' ' && full[n + 1] == ' ', "cut inside an item: '%s' of '%s'", left,
              full);
}

TEST(hud_s_key_and_no_status_hide_the_status_line)
{
    for (int sc = 0; sc < SCENE_COUNT; sc++) {
        struct fx_screen x;
        start_scene(&x, sc, 80, 24);
        frames(&x, 2);
        fx_screen_compose(&x);
        CHECK(row_has(&x, 23, "? help"));
        CHECK_INT(x.f.img.h, 46);
        unsigned picture = x.a.picture;
        CHECK_INT(key(&x, 's'), APP_NONE);
        frames(&x, 2);
        fx_screen_compose(&x);
        CHECK_MSG(no_text(&x, "? help") && !row_has(&x, 23, scenes[sc]->name), "%s: '%s'",
                  scenes[sc]->name, fx_row_text(&x, 23));
        /* The canvas takes the row, and the scene is sized to it. */
        CHECK_INT(app_canvas_h(&x.a), 48);
        CHECK_INT(x.f.img.h, 48);
        CHECK(x.a.picture != picture); /* sent whole */
        char stats[256];
        app_scene(&x.a)->hud(x.a.st[x.a.cur], stats, sizeof stats);
        if (sc == 0) /* the dye's grid is the canvas's */
            CHECK_MSG(strstr(stats, "grid 80x48"), "%s", stats);
        /* The pointer reaches the last row now. */
        mouse(&x, MOUSE_PRESS, 0, 10, 23);
        CHECK_NEAR(x.a.ptr.y, 47.0, 1e-6);
        mouse(&x, MOUSE_RELEASE, 0, 10, 23);
        CHECK_INT(key(&x, 's'), APP_NONE);
        frames(&x, 2);
        fx_screen_compose(&x);
        CHECK(row_has(&x, 23, "? help"));
        CHECK_INT(x.f.img.h, 46);
        mouse(&x, MOUSE_PRESS, 0, 10, 23);
        CHECK_NEAR(x.a.ptr.y, 45.0, 1e-6); /* the canvas's last row again */
        fx_screen_close(&x);
    }
    /* --no-status: hidden from the first frame; s shows it. */
    struct cli c;
    char *argv[] = {"swirl", "--no-status"}, err[256];
    CHECK_INT(cli_parse(&c, 2, argv, err, sizeof err), 0);
    CHECK(c.o.no_status);
    struct fx_screen x;
    fx_screen_open(&x, &c.o, 80, 24);
    fx_screen_compose(&x);
    CHECK(no_text(&x, "? help"));
    CHECK_INT(x.f.img.h, 48);
    key(&x, 's');
    fx_screen_compose(&x);
    CHECK(row_has(&x, 23, "? help"));
    fx_screen_close(&x);
    /* The help lists the key. */
    char lines[APP_HELP_LINES][APP_HELP_COLS];
    start_scene(&x, 0, 80, 24);
    int n = app_help(&x.a, NULL, 0, lines, APP_HELP_LINES);
    bool listed = false;
    for (int i = 0; i < n; i++)
        listed = listed || (strncmp(lines[i], "  s ", 4) == 0 && strstr(lines[i], "status line"));
    CHECK(listed);
    fx_screen_close(&x);
}

/* The options as the command line gives them. */
static void parsed(struct app_opts *o, int argc, char **argv)
{
    struct cli c;
    char err[256];
    CHECK_MSG(cli_parse(&c, argc, argv, err, sizeof err) == 0, "%s", err);
    *o = c.o;
}

TEST(screensaver_draws_only_the_scenes_and_quits_on_a_key)
{
    struct app_opts o;
    char *argv[] = {"swirl", "--screensaver"};
    parsed(&o, 2, argv);
    CHECK(o.screensaver && o.demo);
    struct fx_screen x;
    fx_screen_open(&x, &o, 80, 24);
    bool seen[SCENE_COUNT] = {false};
    /* the whole tour of the table and into the next, and no word on it */
    for (int f = 0; f < (int)(30 * (SCENE_COUNT * APP_DEMO_SCENE_SECONDS + 3)); f++) {
        frames(&x, 1);
        seen[x.a.cur] = true;
        if (f % 45 == 0) {
            fx_screen_compose(&x);
            CHECK_MSG(no_text(&x, "help") && no_text(&x, "any key") &&
                          no_text(&x, app_scene(&x.a)->name) && no_text(&x, "drag"),
                      "frame %d: '%s' / '%s'", f, fx_row_text(&x, 0), fx_row_text(&x, 23));
        }
    }
    for (int i = 0; i < SCENE_COUNT; i++)
        CHECK_MSG(seen[i], "the screensaver never showed %s", scenes[i]->name);
    CHECK_INT(x.f.img.h, 48); /* the scene fills the screen */
    CHECK(!x.a.quit);
    CHECK_INT(key(&x, 'x'), APP_QUIT);
    CHECK(x.a.quit);
    fx_screen_close(&x);
    /* Any key: a space, an arrow, Esc. */
    static const int keys[] = {' ', IK_UP, IK_ESC, 's', '?'};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        fx_screen_open(&x, &o, 80, 24);
        frames(&x, 2);
        CHECK_INT(key(&x, keys[k]), APP_QUIT);
        CHECK(x.a.quit);
        fx_screen_close(&x);
    }
}

TEST(screensaver_quits_on_a_click_not_on_motion)
{
    struct app_opts o;
    char *argv[] = {"swirl", "--screensaver"};
    parsed(&o, 2, argv);
    static const struct {
        enum mouse_action act;
        int button;
        bool quits;
    } ev[] = {
        {MOUSE_MOVE, 0, false}, {MOUSE_PRESS, 0, true}, {MOUSE_PRESS, 2, true},
        {MOUSE_PRESS, 1, true}, {MOUSE_WHEEL, 1, true}, {MOUSE_DRAG, 0, true},
        {MOUSE_RELEASE, 0, true},
    };
    for (size_t k = 0; k < sizeof ev / sizeof ev[0]; k++) {
        struct fx_screen x;
        fx_screen_open(&x, &o, 80, 24);
        frames(&x, 2);
        int rc = mouse(&x, ev[k].act, ev[k].button, 10, 5);
        CHECK_MSG(x.a.quit == ev[k].quits && (rc == APP_QUIT) == ev[k].quits,
                  "event %zu: quit %d", k, x.a.quit);
        frames(&x, 2);
        CHECK_MSG(x.a.quit == ev[k].quits, "event %zu", k);
        fx_screen_close(&x);
    }
}

TEST(screensaver_of_one_scene_and_what_it_does_not_go_with)
{
    struct app_opts o;
    char *argv[] = {"swirl", "--screensaver", "--scene", "pbf"};
    parsed(&o, 4, argv);
    CHECK(o.screensaver && !o.demo && o.autopilot);
    CHECK_INT(o.scene, scene_find("pbf"));
    struct fx_screen x;
    fx_screen_open(&x, &o, 60, 20);
    frames(&x, 30 * 12);
    fx_screen_compose(&x);
    CHECK_INT(x.a.cur, scene_find("pbf")); /* no tour */
    CHECK(x.a.ptr.driven);               /* the autopilot is at work */
    CHECK(no_text(&x, "pbf") && no_text(&x, "drag")); /* no hint either */
    CHECK_INT(key(&x, 'q'), APP_QUIT);
    fx_screen_close(&x);
    struct cli c;
    char err[256];
    char *stats[] = {"swirl", "--headless", "--steps", "5", "--screensaver"};
    CHECK_INT(cli_parse(&c, 5, stats, err, sizeof err), -1);
    CHECK_MSG(strstr(err, "--screensaver is about drawing"), "%s", err);
    char *sets[] = {"swirl", "--screensaver", "--set", "viscosity=1"};
    CHECK_INT(cli_parse(&c, 4, sets, err, sizeof err), -1);
    CHECK_MSG(strstr(err, "--set does not go with the tour"), "%s", err);
    char *rec[] = {"swirl", "--headless", "--demo", "--record", "/tmp/swirl-never-written.cast"};
    CHECK_INT(cli_parse(&c, 5, rec, err, sizeof err), 0);
    CHECK(c.o.recording);
    CHECK_INT(cli_parse(&c, 2, (char *[]){"swirl", "--demo"}, err, sizeof err), 0);
    CHECK(!c.o.recording);
}
