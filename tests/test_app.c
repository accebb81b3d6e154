/*
 * test_app.c — the app without a terminal: keys, the parameter panel, the pointer
 * reaching the scene, pausing, resizing, a window too small, determinism of what
 * it draws.
 */
#include "app.h"
#include "cli.h"
#include "compose.h"
#include "frame.h"
#include "fixtures.h"
#include "test.h"

#include <string.h>

static double fake_now;
static double fake_clock(void) { return fake_now; }

static void init(struct fx_screen *x, int scene, int cols, int rows)
{
    struct app_opts o;
    app_opts_default(&o);
    o.sync = false;
    o.scene = scene;
    fx_screen_open(x, &o, cols, rows);
}

static void resize(struct fx_screen *x, int cols, int rows)
{
    app_resize(&x->a, cols, rows);
    frame_resize(&x->f, cols, rows);
}

static void press(struct app *a, int k)
{
    struct input_event e = fx_key(k);
    app_input(a, &e);
}

static void mouse(struct app *a, enum mouse_action act, int col, int row)
{
    struct input_event e = fx_mouse(act, col, row, 0);
    app_input(a, &e);
}

static void frames(struct app *a, int n)
{
    for (int i = 0; i < n; i++)
        fx_app_advance(a, 1.0 / 30, fake_clock);
}

static bool row_has(struct fx_screen *x, int row, const char *text)
{
    char line[512];
    int n = 0;
    for (int c = 0; c < x->f.cells.cols && n < 511; c++) {
        uint32_t ch = cells_at(&x->f.cells, c, row)->ch;
        line[n++] = ch < 128 ? (char)ch : '#';
    }
    line[n] = 0;
    return strstr(line, text) != NULL;
}

TEST(app_scene_keys_switch_and_keep_state)
{
    struct fx_screen x;
    init(&x, 0, 60, 20);
    press(&x.a, '2');
    CHECK_INT(x.a.cur, 1);
    frames(&x.a, 3);
    long pbf_steps = x.a.steps[1];
    CHECK(pbf_steps > 0);
    /* The last digit shows the table's last scene; Tab wraps from it to the
     * first, Shift-Tab back from the first to it. */
    press(&x.a, '0' + SCENE_COUNT);
    CHECK_INT(x.a.cur, FX_LAST_SCENE);
    press(&x.a, IK_TAB);
    CHECK_INT(x.a.cur, 0);
    press(&x.a, IK_BACKTAB);
    CHECK_INT(x.a.cur, FX_LAST_SCENE);
    press(&x.a, '2');
    CHECK_INT(x.a.steps[1], pbf_steps); /* it kept its state (and its step count) */
    struct input_event e = fx_key('q');
    CHECK(app_input(&x.a, &e) == APP_QUIT && x.a.quit);
    fx_screen_close(&x);
}

TEST(app_panel_changes_parameters_live)
{
    struct fx_screen x;
    init(&x, 0, 80, 24);
    press(&x.a, 'p');
    CHECK(x.a.panel);
    const struct scene_ops *s = app_scene(&x.a);
    /* Select "dye decay" (third) and raise it by one step. */
    struct input_event e = fx_key(IK_DOWN);
    app_input(&x.a, &e);
    app_input(&x.a, &e);
    double before = scene_param_get(s, x.a.st[0], x.a.sel);
    press(&x.a, IK_RIGHT);
    CHECK_NEAR(scene_param_get(s, x.a.st[0], x.a.sel), before + s->params[x.a.sel].step, 1e-6);
    e = fx_key('-');
    app_input(&x.a, &e);
    CHECK_NEAR(scene_param_get(s, x.a.st[0], x.a.sel), before, 1e-6);
    /* The panel shows up in the cells. */
    fx_screen_compose(&x);
    CHECK(row_has(&x, 0, "parameters"));
    CHECK(row_has(&x, 3, "dye decay"));
    /* Values never leave their range. */
    for (int i = 0; i < 200; i++)
        app_input(&x.a, &e);
    CHECK_NEAR(scene_param_get(s, x.a.st[0], x.a.sel), s->params[x.a.sel].min, 1e-6);
    e = fx_key('+');
    for (int i = 0; i < 500; i++)
        app_input(&x.a, &e);
    CHECK_NEAR(scene_param_get(s, x.a.st[0], x.a.sel), s->params[x.a.sel].max, 1e-4);
    /* With the panel closed, - and + change nothing. */
    press(&x.a, 'p');
    CHECK(!x.a.panel);
    press(&x.a, '-');
    CHECK_NEAR(scene_param_get(s, x.a.st[0], x.a.sel), s->params[x.a.sel].max, 1e-4);
    press(&x.a, 'p');
    /* Selection wraps: Up from the first goes to the last. */
    x.a.sel = 0;
    press(&x.a, IK_UP);
    CHECK_INT(x.a.sel, s->nparams - 1);
    press(&x.a, IK_DOWN);
    CHECK_INT(x.a.sel, 0);
    press(&x.a, IK_ESC);
    CHECK(!x.a.panel && !x.a.quit);
    fx_screen_close(&x);
}

TEST(app_drag_reaches_the_scene)
{
    struct fx_screen x;
    init(&x, 0, 60, 20);
    press(&x.a, 'c');
    frames(&x.a, 2);
    struct buf j;
    buf_init(&j);
    app_json(&x.a, &j, 0);
    CHECK(strstr(j.p, "\"dye\":0,") != NULL);
    mouse(&x.a, MOUSE_PRESS, 5, 5);
    for (int col = 6; col < 50; col += 3) {
        mouse(&x.a, MOUSE_DRAG, col, 5);
        frames(&x.a, 1);
    }
    mouse(&x.a, MOUSE_RELEASE, 50, 5);
    frames(&x.a, 1);
    buf_clear(&j);
    app_json(&x.a, &j, 0);
    CHECK(strstr(j.p, "\"dye\":0,") == NULL);
    /* The stroke's row is coloured along its length, a far row is not. */
    fx_screen_compose(&x);
    int left = 0, right = 0, far = 0;
    for (int c = 0; c < 60; c++) {
        rgb_t bg = cells_at(&x.f.cells, c, 5)->bg, fbg = cells_at(&x.f.cells, c, 16)->bg;
        bool on = (rgb_r(bg) + rgb_g(bg) + rgb_b(bg)) > 90; /* the background sums to 24 */
        left += on && c < 28;
        right += on && c >= 28;
        far += (rgb_r(fbg) + rgb_g(fbg) + rgb_b(fbg)) > 90;
    }
    CHECK_MSG(left >= 6 && right >= 6, "lit cells on the stroke: %d left, %d right", left, right);
    CHECK_INT(far, 0);
    buf_free(&j);
    fx_screen_close(&x);
}

TEST(app_paused_scene_writes_nothing_after_its_first_frame)
{
    struct fx_screen x;
    init(&x, 1, 60, 20);
    struct buf out;
    buf_init(&out);
    frames(&x.a, 200); /* past the hint's fade */
    press(&x.a, ' ');
    CHECK(x.a.paused);
    CHECK(frame_next(&x.f, &x.a, 1.0 / 30, fake_clock, true, &out) > 0);
    for (int i = 0; i < 10; i++) {
        buf_clear(&out);
        CHECK_INT(frame_next(&x.f, &x.a, 1.0 / 30, fake_clock, false, &out), 0);
    }
    /* '.' advances one frame: something moves. */
    press(&x.a, '.');
    long before = x.a.steps[1];
    frames(&x.a, 1);
    CHECK_INT(x.a.steps[1], before + 8);
    /* Ctrl-L and a resume send the whole picture again: what an encoder that
     * has sent nothing yet sends for the same cells. */
    for (int k = 0; k < 2; k++) {
        buf_clear(&out);
        press(&x.a, k == 0 ? 12 : ' ');
        size_t all = frame_next(&x.f, &x.a, 1.0 / 30, fake_clock, true, &out);
        struct encoder fresh;
        encode_init(&fresh, COLOR_TRUE, APP_DEFAULT_TOLERANCE, false);
        fresh.exact = x.a.paused; /* a paused picture is sent exact */
        struct buf whole;
        buf_init(&whole);
        encode_frame(&fresh, &x.f.cells, &whole);
        CHECK_MSG(all == whole.len && all > 60 * 19, "%s sent %zu bytes, the whole picture %zu",
                  k == 0 ? "Ctrl-L" : "a resume", all, whole.len);
        buf_free(&whole);
        encode_free(&fresh);
    }
    CHECK(!x.a.paused);
    buf_free(&out);
    fx_screen_close(&x);
}

TEST(app_resize_keeps_the_hud_on_the_last_row)
{
    struct fx_screen x;
    init(&x, 0, 60, 20);
    fx_screen_compose(&x);
    CHECK(row_has(&x, 19, "dye"));
    resize(&x, 90, 30);
    frames(&x.a, 1);
    fx_screen_compose(&x);
    CHECK(row_has(&x, 29, "dye"));
    CHECK(!row_has(&x, 19, "dye"));
    CHECK_INT(x.f.img.w, 90);
    CHECK_INT(x.f.img.h, 58);
    /* Too small: a message, and back to normal when it grows. */
    resize(&x, 10, 4);
    fx_screen_compose(&x);
    CHECK(row_has(&x, 1, "too small"));
    resize(&x, 40, 12);
    fx_screen_compose(&x);
    CHECK(row_has(&x, 11, "dye"));
    fx_screen_close(&x);
}

TEST(app_frames_are_deterministic)
{
    struct buf out[2];
    for (int run = 0; run < 2; run++) {
        buf_init(&out[run]);
        struct fx_screen x;
        struct app_opts o;
        app_opts_default(&o);
        o.autopilot = true;
        o.seed = 7;
        fx_screen_open(&x, &o, 50, 16);
        for (int f = 0; f < 40; f++)
            frame_next(&x.f, &x.a, 1.0 / 30, fake_clock, false, &out[run]);
        fx_screen_close(&x);
    }
    CHECK(out[0].len > 0 && out[0].len == out[1].len &&
          memcmp(out[0].p, out[1].p, out[0].len) == 0);
    buf_free(&out[0]);
    buf_free(&out[1]);
}

TEST(app_help_lists_every_key)
{
    struct fx_screen x;
    init(&x, 2, 100, 40);
    press(&x.a, '?');
    fx_screen_compose(&x);
    const char *need[] = {"Tab", "Space", "restart", "parameter", "keyboard pointer", "quit",
                          "tearing", "mouse", "wheel"};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
        bool found = false;
        for (int r = 0; r < 39 && !found; r++)
            found = row_has(&x, r, need[i]);
        CHECK_MSG(found, "help lacks '%s'", need[i]);
    }
    fx_screen_close(&x);
}

TEST(app_demo_tours_the_scenes_and_hands_over_on_a_key)
{
    struct fx_screen x;
    struct app_opts o;
    app_opts_default(&o);
    o.demo = true;
    fx_screen_open(&x, &o, 80, 24);
    /* One tour of the table and 3 s into the next: every scene was shown. */
    bool seen[SCENE_COUNT] = {false};
    for (int f = 0; f < (int)(30 * (SCENE_COUNT * APP_DEMO_SCENE_SECONDS + 3)); f++) {
        frames(&x.a, 1);
        seen[x.a.cur] = true;
    }
    for (int i = 0; i < SCENE_COUNT; i++)
        CHECK_MSG(seen[i], "the tour never showed %s", scenes[i]->name);
    fx_screen_compose(&x);
    CHECK(row_has(&x, 0, app_scene(&x.a)->name)); /* the caption names the scene */
    /* the tour's pointer is at work (cloth lifts it at times) */
    CHECK(x.a.ptr.down || x.a.cur == scene_find("cloth"));
    int cur = x.a.cur;
    press(&x.a, 'x');
    CHECK(!x.a.demo && !x.a.quit);
    CHECK(!x.a.ptr.down);
    frames(&x.a, 30 * 20);
    CHECK_INT(x.a.cur, cur); /* no more touring */
    fx_screen_close(&x);
}

TEST(app_fast_drag_follows_every_report_between_frames)
{
    /* An L-shaped drag within one frame: the dye must follow the corner, not cut
     * across it. */
    struct fx_screen x;
    init(&x, 0, 60, 24);
    press(&x.a, 'c');
    frames(&x.a, 1);
    mouse(&x.a, MOUSE_PRESS, 5, 3);
    for (int col = 8; col <= 40; col += 4) {
        mouse(&x.a, MOUSE_DRAG, col, 3);
    }
    for (int y = 5; y <= 19; y += 2) {
        mouse(&x.a, MOUSE_DRAG, 40, y);
    }
    frames(&x.a, 1);
    mouse(&x.a, MOUSE_RELEASE, 40, 19);
    fx_screen_compose(&x);
    rgb_t corner = cells_at(&x.f.cells, 38, 3)->bg, chord = cells_at(&x.f.cells, 20, 10)->bg;
    CHECK_MSG(rgb_r(corner) + rgb_g(corner) + rgb_b(corner) > 90, "corner %06x", corner);
    CHECK_MSG(rgb_r(chord) + rgb_g(chord) + rgb_b(chord) < 60, "chord %06x", chord);
    fx_screen_close(&x);
}

TEST(app_panel_in_a_small_terminal_stays_inside_it)
{
    for (int sc = 0; sc < SCENE_COUNT; sc++) {
        struct fx_screen x;
        init(&x, sc, APP_MIN_COLS, APP_MIN_ROWS);
        press(&x.a, 'p');
        struct input_event e = fx_key(IK_UP); /* the last parameter, far below the bottom row */
        for (int i = 0; i < app_scene(&x.a)->nparams; i++) {
            app_input(&x.a, &e);
            fx_screen_compose(&x); /* under ASan, a write outside the cells fails here */
        }
        CHECK(row_has(&x, APP_MIN_ROWS - 1, app_scene(&x.a)->name));
        fx_screen_close(&x);
    }
}

/* Every parameter of every scene at its minimum and at its maximum: the scene
 * runs, draws, and its statistics stay finite. */
TEST(app_parameters_at_their_limits_stay_finite)
{
    for (int sc = 0; sc < SCENE_COUNT; sc++) {
        const struct scene_ops *s = scenes[sc];
        for (int i = 0; i < s->nparams; i++)
            for (int end = 0; end < 2; end++) {
                struct fx_screen x;
                init(&x, sc, 48, 16);
                x.a.auto_on = true; /* keep it stirred */
                double v = end ? s->params[i].max : s->params[i].min;
                if (s->params[i].nchoices)
                    v = s->params[i].choices[end ? s->params[i].nchoices - 1 : 0];
                CHECK_MSG(scene_param_set(s, x.a.st[sc], i, v) == 0, "%s %s=%g refused",
                          s->name, s->params[i].label, v);
                frames(&x.a, 20);
                fx_screen_compose(&x);
                struct buf j;
                buf_init(&j);
                app_json(&x.a, &j, 0);
                CHECK_MSG(!strstr(j.p, "nan") && !strstr(j.p, "inf"), "%s %s=%g: %s", s->name,
                          s->params[i].label, v, j.p);
                CHECK_MSG(row_has(&x, 15, s->name), "%s %s: no HUD", s->name,
                          s->params[i].label);
                buf_free(&j);
                fx_screen_close(&x);
            }
    }
}

TEST(app_simulation_speed_does_not_depend_on_fps)
{
    /* One second of app time is 30 reference frames of steps, at any --fps. */
    const int fps[] = {1, 10, 30, 60, 240};
    for (size_t k = 0; k < sizeof fps / sizeof fps[0]; k++) {
        struct fx_screen x;
        struct app_opts o;
        app_opts_default(&o);
        o.fps = fps[k];
        o.scene = 2;
        fx_screen_open(&x, &o, 40, 12);
        for (int f = 0; f < fps[k]; f++)
            fx_app_advance(&x.a, 1.0 / fps[k], fake_clock);
        CHECK_MSG(x.a.steps[2] == 8 * 30, "--fps %d: %ld steps in a second", fps[k], x.a.steps[2]);
        fx_screen_close(&x);
    }
}

/* Runs a stirred scene for n frames and returns its statistics (JSON) and a
 * hash of the picture it then shows. */
static void stirred_json(struct fx_screen *x, int n, struct buf *out)
{
    x->a.auto_on = true;
    frames(&x->a, n);
    buf_clear(out);
    app_json(&x->a, out, 0);
    fx_screen_compose(x);
    uint64_t h = 1469598103934665603ull; /* FNV-1a over the cells */
    const unsigned char *c = (const unsigned char *)x->f.cells.c;
    size_t len = (size_t)x->f.cells.cols * (size_t)x->f.cells.rows * sizeof *x->f.cells.c;
    for (size_t i = 0; i < len; i++)
        h = (h ^ c[i]) * 1099511628211ull;
    buf_printf(out, " picture %016llx", (unsigned long long)h);
}

/* Where a parameter needs others set first to show its effect at all: those
 * sets, as --set would give them. */
static int context(const struct scene_ops *s, int i, struct app_set *out)
{
    static const struct {
        const char *scene, *param, *other;
        double value;
    } need[] = {
        {"cloth", "tear-strain", "tearing", 1},     /* no tearing, no strain limit */
        {"cloth", "tear-strain", "tear-strain", 0.05},
        {"pbf", "max-iterations", "max-iterations", 2}, /* the cap must bite */
    };
    char name[64];
    int n = 0;
    param_name(&s->params[i], name, sizeof name);
    for (size_t k = 0; k < sizeof need / sizeof need[0]; k++)
        if (strcmp(need[k].scene, s->name) == 0 && strcmp(need[k].param, name) == 0)
            out[n++] = (struct app_set){.scene = scene_find(s->name),
                                        .param = scene_param_find(s, need[k].other),
                                        .value = need[k].value};
    return n;
}

static void init_sets(struct fx_screen *x, int sc, const struct app_set *sets, int n)
{
    struct app_opts o;
    app_opts_default(&o);
    o.scene = sc;
    memcpy(o.sets, sets, (size_t)n * sizeof *sets);
    o.nsets = n;
    fx_screen_open(x, &o, 48, 16);
}

/* A --set for a scene by name (SCENE:NAME=VALUE), from the config file or the
 * command line, reaches that scene when it is first built, whichever scene
 * comes first: cloth tears after 1 then 3 as with --scene cloth. A scene
 * without sets starts at its defaults, and R goes back to them. */
TEST(app_sets_reach_their_scene_when_it_is_first_built)
{
    const struct scene_ops *cloth = scenes[scene_find("cloth")], *dye = scenes[0];
    int tearing = scene_param_find(cloth, "tearing"), visc = scene_param_find(dye, "viscosity");
    char *argv[] = {"swirl", "--set", "cloth:tearing=on", "--set", "viscosity=3"};
    for (int from = 0; from < 2; from++) { /* the config file, the command line */
        struct cli c;
        char err[256];
        static const char config[] = "set = cloth:tearing=on\nset = viscosity=3\n";
        int rc = from == 0 ? cli_parse_config(&c, 1, argv, config, sizeof config - 1, "config", err,
                                              sizeof err)
                           : cli_parse(&c, 5, argv, err, sizeof err);
        CHECK_MSG(rc == 0, "%s", err);
        c.o.sync = false;
        struct fx_screen x;
        fx_screen_open(&x, &c.o, 80, 24);
        CHECK_INT(x.a.cur, 0);
        CHECK(scene_param_get(dye, x.a.st[0], visc) == 3.0);
        CHECK(x.a.st[scene_find("cloth")] == NULL); /* not built before it is shown */
        press(&x.a, '3');
        CHECK(scene_param_get(cloth, x.a.st[x.a.cur], tearing) == 1.0);
        fx_screen_compose(&x);
        CHECK(row_has(&x, 23, "tearing"));
        press(&x.a, '2'); /* pbf: defaults */
        press(&x.a, '3'); /* the cloth kept, as it was */
        CHECK(scene_param_get(cloth, x.a.st[x.a.cur], tearing) == 1.0);
        press(&x.a, 'R');
        CHECK(scene_param_get(cloth, x.a.st[x.a.cur], tearing) == 0.0);
        fx_screen_close(&x);
        /* As the first scene, the same. */
        c.o.scene = scene_find("cloth");
        fx_screen_open(&x, &c.o, 80, 24);
        CHECK(scene_param_get(cloth, x.a.st[x.a.cur], tearing) == 1.0);
        press(&x.a, '1');
        CHECK(scene_param_get(dye, x.a.st[0], visc) == 3.0);
        fx_screen_close(&x);
    }
}

/* Every parameter of every scene, stepped through the panel's keys and given by
 * --set (the options the command line fills in), lands in the field the solver
 * reads: both give the same run, and it differs from the run without it. */
TEST(app_every_parameter_reaches_the_solver_by_panel_and_by_set)
{
    /* The run without a parameter changed is one for all the parameters
     * that need no others set first (the same run each time): made once a
     * scene, in plain. */
    struct buf base, plain, keys, set;
    buf_init(&base), buf_init(&plain), buf_init(&keys), buf_init(&set);
    for (int sc = 0; sc < SCENE_COUNT; sc++) {
        const struct scene_ops *s = scenes[sc];
        int n = sc == 2 ? 130 : 60; /* the cloth's autopilot lets go after 3.6 s */
        bool have_plain = false;
        for (int i = 0; i < s->nparams; i++) {
            struct app_set sets[4];
            int ns = context(s, i, sets);
            struct fx_screen x;
            init_sets(&x, sc, sets, ns);
            double before = scene_param_get(s, x.a.st[sc], i);
            if (ns == 0 && have_plain) {
                buf_clear(&base);
                buf_put(&base, plain.p, plain.len);
                buf_putc(&base, 0);
                base.len--;
            } else {
                stirred_json(&x, n, &base);
            }
            if (ns == 0 && !have_plain) {
                buf_clear(&plain);
                buf_put(&plain, base.p, base.len);
                have_plain = true;
            }
            fx_screen_close(&x);
            /* The panel: p, Down to the parameter, Left (or Right at the bottom). */
            init_sets(&x, sc, sets, ns);
            press(&x.a, 'p');
            for (int k = 0; k < i; k++)
                press(&x.a, IK_DOWN);
            CHECK_INT(x.a.sel, i);
            press(&x.a, IK_LEFT);
            if (scene_param_get(s, x.a.st[sc], i) == before)
                press(&x.a, IK_RIGHT);
            double v = scene_param_get(s, x.a.st[sc], i);
            CHECK_MSG(v != before, "%s %s: the panel did not change it", s->name,
                      s->params[i].label);
            press(&x.a, 'p');
            stirred_json(&x, n, &keys);
            fx_screen_close(&x);
            /* --set: the same value from the options. */
            sets[ns++] = (struct app_set){.scene = sc, .param = i, .value = v};
            init_sets(&x, sc, sets, ns);
            CHECK(scene_param_get(s, x.a.st[sc], i) == v);
            stirred_json(&x, n, &set);
            fx_screen_close(&x);
            CHECK_MSG(strcmp(keys.p, set.p) == 0, "%s %s: panel and --set differ:\n%s\n%s",
                      s->name, s->params[i].label, keys.p, set.p);
            CHECK_MSG(strcmp(keys.p, base.p) != 0, "%s %s=%g changes nothing the solver does",
                      s->name, s->params[i].label, v);
        }
    }
    buf_free(&base), buf_free(&plain), buf_free(&keys), buf_free(&set);
}

static bool alnum_at(struct fx_screen *x, int col, int row)
{
    uint32_t ch = cells_at(&x->f.cells, col, row)->ch;
    return ch < 128 && ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                        (ch >= '0' && ch <= '9'));
}

/* --demo's captions fit the width, down to the smallest window: nothing cut
 * off at either end, the scene's name and the hand-over always said; in a
 * recording, which no key takes over, how to try it instead. */
TEST(app_demo_captions_fit_the_width)
{
    /* Each stop of the tour at each width: the tour's clock is set to a
     * second into the stop, and two frames run there (the captions depend on
     * the scene and the width, not on what the physics did). */
    static const int widths[] = {APP_MIN_COLS, 40, 80, 100, 200};
    for (size_t k = 0; k < 2 * sizeof widths / sizeof widths[0]; k++) {
        struct fx_screen x;
        struct app_opts o;
        app_opts_default(&o);
        o.demo = true;
        o.recording = k % 2 == 1;
        const char *says = o.recording ? "swirl --demo" : "any key";
        fx_screen_open(&x, &o, widths[k / 2], 24);
        for (int stop = 0; stop < 2 * SCENE_COUNT; stop++) {
            x.a.demo_t0 = x.a.now - (stop * APP_DEMO_SCENE_SECONDS + 1.0);
            frames(&x.a, 2);
            CHECK_INT(x.a.cur, stop % SCENE_COUNT);
            fx_screen_compose(&x);
            int w = widths[k / 2];
            CHECK_MSG(row_has(&x, 0, app_scene(&x.a)->name), "%d cols: no scene name", w);
            CHECK_MSG(row_has(&x, 1, says), "%d cols: no '%s'", w, says);
            if (o.recording)
                CHECK_MSG(!row_has(&x, 1, "key"), "%d cols: a recording speaks of keys", w);
            for (int r = 0; r < 2; r++)
                CHECK_MSG(!alnum_at(&x, 0, r) && !alnum_at(&x, w - 1, r),
                          "%d cols, %s: row %d cut at an end", w, app_scene(&x.a)->name, r);
        }
        fx_screen_close(&x);
    }
}

/* The help drawn as the frame loop draws it, which tells the app how far it
 * scrolls. */
static void help_composed(struct fx_screen *x)
{
    fx_screen_compose(x);
    app_help_shown(&x->a, compose_help_over(&x->a, &x->f.st));
}

/* The help's text on screen, its box's rows from the top: each row's
 * characters between the box's margins, blanks at the end dropped. */
static int help_rows_text(struct fx_screen *x, char (*rows)[256], int max)
{
    int n = 0;
    for (int r = 0; r < app_canvas_rows(&x->a) && n < max; r++) {
        int c0 = -1, c1 = -1;
        for (int c = 0; c < x->f.cells.cols; c++)
            if (cells_at(&x->f.cells, c, r)->bg == RGB(16, 16, 26)) { /* the box */
                c0 = c0 < 0 ? c : c0;
                c1 = c;
            }
        if (c0 < 0)
            continue;
        int k = 0;
        for (int c = c0 + 2; c <= c1 - 2 && k < 255; c++) {
            uint32_t ch = cells_at(&x->f.cells, c, r)->ch;
            rows[n][k++] = ch < 128 ? (char)ch : '#';
        }
        while (k > 0 && rows[n][k - 1] == ' ')
            k--;
        rows[n++][k] = 0;
    }
    return n;
}

/* The help fits the window it is shown in, wrapped at words: at 80 columns
 * (xterm's default) no line is cut and every word is whole (the lines a text
 * wraps onto, joined again, give the text), and at 80x24 and 100x30 what
 * swirl chose for the terminal and the link is seen without scrolling. */
TEST(app_help_wraps_at_words_and_shows_the_choices_first)
{
    struct fx_screen x;
    init(&x, 1, 80, 120); /* tall: every line at once */
    frames(&x.a, 2);
    press(&x.a, '?');
    help_composed(&x);
    static char rows[120][256];
    int n = help_rows_text(&x, rows, 120);
    CHECK(n > 20);
    char joined[1024] = "";
    const char *want = app_scene(&x.a)->mouse;
    for (int i = 0; i < n; i++) {
        CHECK_MSG(strlen(rows[i]) <= 76, "'%s' is wider than the box", rows[i]);
        if (strncmp(rows[i], "  mouse", 7) == 0)
            snprintf(joined, sizeof joined, "%s", rows[i] + 14);
        else if (joined[0] && strncmp(rows[i], "              ", 14) == 0 && rows[i][14] != ' ') {
            size_t l = strlen(joined);
            snprintf(joined + l, sizeof joined - l, " %s", rows[i] + 14);
        } else if (joined[0]) /* the next line: the mouse's text is whole */
            break;
    }
    CHECK_MSG(strlen(want) > 62 && strcmp(joined, want) == 0, "wrapped: '%s'", joined);
    fx_screen_close(&x);
    static const int sizes[][2] = {{80, 24}, {100, 30}};
    for (size_t k = 0; k < 2; k++) {
        init(&x, 2, sizes[k][0], sizes[k][1]);
        frames(&x.a, 2);
        x.f.st.frames = 2, x.f.st.link_rtt = 0.07; /* the link's lines come once it was measured */
        press(&x.a, '?');
        help_composed(&x);
        n = help_rows_text(&x, rows, 120);
        const char *need[] = {"colour", "glyphs", "frames", "link", "picture", "threads"};
        for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
            bool seen = false;
            for (int r = 0; r < n; r++)
                seen |= strncmp(rows[r] + 2, need[i], strlen(need[i])) == 0;
            CHECK_MSG(seen, "%dx%d: '%s' not in view", sizes[k][0], sizes[k][1], need[i]);
        }
        fx_screen_close(&x);
    }
}

/* At 40x12 the help and the panel scroll: every line can be reached, and the
 * selected parameter is always in view. */
TEST(app_help_and_panel_scroll_in_a_small_window)
{
    struct fx_screen x;
    init(&x, 2, 40, 12);
    frames(&x.a, 2);
    press(&x.a, '?');
    help_composed(&x);
    CHECK(row_has(&x, 1, "swirl") || row_has(&x, 0, "swirl"));
    const int over = compose_help_over(&x.a, &x.f.st);
    CHECK(over > 20); /* wrapped at 36 columns, it is long */
    bool q = false, wheel = false;
    for (int i = 0; i < over + 20; i++) { /* presses past the end are not kept */
        press(&x.a, IK_DOWN);
        help_composed(&x);
        for (int r = 0; r < 11; r++) {
            q = q || row_has(&x, r, "q Esc");
            wheel = wheel || row_has(&x, r, "wheel");
        }
    }
    CHECK(q && wheel);
    for (int i = 0; i < 10; i++) /* more within one frame: still no further */
        press(&x.a, IK_DOWN);
    CHECK_INT(x.a.help_top, over);
    for (int i = 0; i < over; i++)
        press(&x.a, IK_UP);
    help_composed(&x);
    CHECK(row_has(&x, 1, "swirl") || row_has(&x, 0, "swirl"));
    press(&x.a, '?');
    press(&x.a, 'p');
    const struct scene_ops *s = app_scene(&x.a);
    for (int i = 0; i < 2 * s->nparams; i++) {
        fx_screen_compose(&x);
        bool seen = false;
        for (int r = 0; r < 11; r++)
            seen = seen || row_has(&x, r, s->params[x.a.sel].label);
        CHECK_MSG(seen, "parameter %d (%s) out of view", x.a.sel, s->params[x.a.sel].label);
        press(&x.a, IK_DOWN);
    }
    fx_screen_close(&x);
}

/* The keyboard pointer's button: a held Space (the terminal's autorepeat)
 * counts as one press, whatever number of repeats arrive. */
TEST(app_keyboard_pointer_hold_ignores_autorepeat)
{
    for (int repeats = 1; repeats <= 12; repeats++) {
        struct fx_screen x;
        init(&x, 0, 60, 20);
        press(&x.a, 'm');
        for (int i = 0; i < repeats; i++) {
            press(&x.a, ' ');
            if (i % 3 == 2)
                frames(&x.a, 1); /* repeats ~30 ms apart span frames */
        }
        frames(&x.a, 1);
        CHECK_MSG(x.a.ptr.down, "%d repeats: the button is not held", repeats);
        frames(&x.a, 30); /* let go of the key; a second later, a new press */
        press(&x.a, ' ');
        CHECK_MSG(!x.a.ptr.down, "%d repeats: the next press did not let go", repeats);
        fx_screen_close(&x);
    }
}

/* The keyboard pointer's button under X's autorepeat (the first repeat 660 ms
 * after the press, then one every 40 ms): a hold of two seconds is one press,
 * as the window runs from the key's last repeat, not from its press; a press
 * 1.5 s after the key was let go is a new one; and the other key (Enter after
 * Space) is never the first one's repeat. */
TEST(app_keyboard_pointer_autorepeat_window_runs_from_the_last_repeat)
{
    struct fx_screen x;
    init(&x, 0, 60, 20);
    press(&x.a, 'm');
    for (int hold = 0; hold < 3; hold++) {
        bool want = hold % 2 == 0; /* each hold presses, or lets go */
        press(&x.a, ' ');
        CHECK_MSG(x.a.ptr.down == want, "hold %d: the press did not count", hold);
        fx_app_advance(&x.a, 0.660, fake_clock);
        for (int r = 0; r < 34; r++) { /* 660 ms + 34 x 40 ms: a 2 s hold */
            press(&x.a, ' ');
            CHECK_MSG(x.a.ptr.down == want, "hold %d: the repeat %.2f s after the press counted",
                      hold, 0.660 + 0.040 * r);
            fx_app_advance(&x.a, 0.040, fake_clock);
        }
        fx_app_advance(&x.a, 1.5, fake_clock); /* let go; the next press 1.5 s later */
    }
    press(&x.a, ' ');
    CHECK(!x.a.ptr.down);
    fx_app_advance(&x.a, 0.1, fake_clock);
    press(&x.a, IK_ENTER); /* 0.1 s after Space, but another key */
    CHECK_MSG(x.a.ptr.down, "Enter after Space was taken for Space's repeat");
    fx_screen_close(&x);
}

static double slow_now;
/* A clock on which every reading is 10 ms after the last: each step "costs"
 * 10 ms. */
static double slow_clock(void) { return slow_now += 0.010; }

/* A scene too costly for the frame runs fewer steps, says so in the HUD, and R
 * brings back its defaults. */
TEST(app_costly_frames_drop_steps_and_say_so)
{
    struct fx_screen x;
    init(&x, 1, 80, 24);
    long before = x.a.steps[1];
    for (int f = 0; f < 10; f++)
        app_advance_within(&x.a, 1.0 / 30, slow_clock, 0.7 / 30);
    long ran = x.a.steps[1] - before;
    CHECK_MSG(ran >= 10 && ran <= 40, "%ld steps in 10 frames of 8 (23 ms budget, 10 ms each)",
              ran);
    fx_screen_compose(&x);
    CHECK(row_has(&x, 23, " slow "));
    /* The help says how slow, and what helps. */
    x.a.help = true;
    fx_screen_compose(&x);
    bool said = false;
    for (int r = 0; r < 23; r++)
        said = said || row_has(&x, r, "slow: 37 % of the steps ran (a smaller window or R helps)");
    CHECK(said);
    x.a.help = false;
    /* With no budget every step runs. */
    before = x.a.steps[1];
    fx_app_advance(&x.a, 1.0 / 30, slow_clock);
    CHECK_INT(x.a.steps[1] - before, 8);
    /* R: the defaults again. */
    const struct scene_ops *s = app_scene(&x.a);
    int g = scene_param_find(s, "gravity");
    double g0 = scene_param_get(s, x.a.st[1], g);
    CHECK(scene_param_set(s, x.a.st[1], g, 100) == 0);
    press(&x.a, 'R');
    CHECK(scene_param_get(s, x.a.st[1], g) == g0);
    frames(&x.a, 40);
    fx_screen_compose(&x);
    CHECK(!row_has(&x, 23, "slow"));
    fx_screen_close(&x);
}

/* Random streams of keys, mouse reports (far outside the window too), wheel
 * events and resizes into each scene: no crash, no NaN, no hang, and the HUD
 * stays on the last row. Deterministic: the stream comes from a seed. */
TEST(app_survives_random_event_streams)
{
    static const int keys[] = {' ', '.', 'r', 'p', 'm', '?', 'h', '-', '+', '=', 'c', 'b', 't',
                               IK_UP, IK_DOWN, IK_LEFT, IK_RIGHT, IK_ENTER, IK_TAB, IK_BACKTAB,
                               IK_ESC, 'L' - 64, '1', '2', '3', 'x', 0x263A};
    for (int sc = 0; sc < SCENE_COUNT; sc++) {
        struct fx_screen x;
        init(&x, sc, 60, 20);
        struct rng r = {(uint64_t)sc + 11};
        struct buf out;
        buf_init(&out);
        for (int k = 0; k < 1500; k++) {
            uint32_t u = rng_next(&r);
            struct input_event e;
            memset(&e, 0, sizeof e);
            if (u % 10 < 4) {
                e.type = INPUT_KEY;
                e.key = keys[(u >> 8) % (sizeof keys / sizeof keys[0])];
                if (e.key == 'q' || e.key == IK_ESC)
                    e.key = 'p';
                app_input(&x.a, &e);
            } else if (u % 10 < 9) {
                e.type = INPUT_MOUSE;
                e.action = (enum mouse_action)((u >> 8) % 5);
                e.button = e.action == MOUSE_WHEEL ? ((u >> 12) & 1 ? 1 : -1) : (int)((u >> 12) % 3);
                bool far = (u >> 16) % 8 == 0;
                e.x = far ? (int)(rng_next(&r) % 200000) - 100000 : (int)(rng_next(&r) % 70);
                e.y = far ? (int)(rng_next(&r) % 200000) - 100000 : (int)(rng_next(&r) % 25);
                app_input(&x.a, &e);
            } else {
                resize(&x, 1 + (int)(rng_next(&r) % 140), 1 + (int)(rng_next(&r) % 50));
            }
            if (x.a.quit)
                x.a.quit = false;
            if (k % 5 == 0) {
                buf_clear(&out);
                frame_next(&x.f, &x.a, 1.0 / 30, fake_clock, true, &out);
            }
        }
        resize(&x, 60, 20);
        frames(&x.a, 10);
        struct buf j;
        buf_init(&j);
        app_json(&x.a, &j, 0);
        CHECK_MSG(!strstr(j.p, "nan") && !strstr(j.p, "inf"), "%s: %s", scenes[sc]->name, j.p);
        fx_screen_compose(&x);
        CHECK(row_has(&x, 19, app_scene(&x.a)->name));
        buf_free(&j);
        buf_free(&out);
        fx_screen_close(&x);
    }
}

/* A press, drag and release of buttons 8-11 move nothing in the scene: the
 * pointer is not down, and a left drag in progress goes on. */
TEST(app_buttons_8_to_11_do_not_press)
{
    struct fx_screen x;
    init(&x, 2, 80, 24); /* the cloth: a press would grab it */
    frames(&x.a, 5);
    for (int b = 0; b < 4; b++) {
        struct input_event e = fx_mouse(MOUSE_PRESS, 40, 8, 0);
        e.button = INPUT_BUTTON_EXTRA + b;
        app_input(&x.a, &e);
        CHECK_MSG(!x.a.ptr.down && !x.a.ptr.pressed, "button %d pressed", 8 + b);
        e.action = MOUSE_DRAG, e.x = 45;
        app_input(&x.a, &e);
        CHECK(!x.a.ptr.down);
        frames(&x.a, 1);
        CHECK(!x.a.ptr.scene_down);
    }
    struct input_event l = fx_mouse(MOUSE_PRESS, 40, 8, 0);
    app_input(&x.a, &l);
    CHECK(x.a.ptr.down && x.a.ptr.button == 0);
    struct input_event r = fx_mouse(MOUSE_RELEASE, 40, 8, 0);
    r.button = INPUT_BUTTON_EXTRA;
    app_input(&x.a, &r);
    CHECK_MSG(x.a.ptr.down, "button 8's release let go of the left drag");
    fx_screen_close(&x);
}

/* The tour's captions never cover the scene: at 80x24 (xterm's default) and
 * 100x30 the scene is laid out below their two rows, which hold nothing but
 * their words on black, all through each stop (the cloth's pins show on the
 * row below them); a key hands the rows back to the scene. */
TEST(app_demo_captions_sit_above_the_scene)
{
    static const int sizes[][2] = {{80, 24}, {100, 30}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        const int cols = sizes[k][0], rows = sizes[k][1];
        struct fx_screen x;
        struct app_opts o;
        app_opts_default(&o);
        o.demo = true;
        fx_screen_open(&x, &o, cols, rows);
        CHECK_INT(app_canvas_rows(&x.a), rows - 1 - APP_CAPTION_ROWS);
        bool pins_below = false;
        for (int f = 0; f < (int)(SCENE_COUNT * APP_DEMO_SCENE_SECONDS * 30); f += 15) {
            frames(&x.a, 15);
            fx_screen_compose(&x);
            for (int r = 0; r < APP_CAPTION_ROWS; r++)
                for (int c = 0; c < cols; c++) {
                    const struct cell *cl = cells_at(&x.f.cells, c, r);
                    CHECK_MSG(cl->bg == RGB(0, 0, 0) && cl->ch < 128,
                              "%dx%d %s: the scene shows at caption cell (%d,%d)", cols, rows,
                              app_scene(&x.a)->name, c, r);
                }
            CHECK(row_has(&x, 0, app_scene(&x.a)->name));
            if (x.a.cur == 2)
                for (int c = 0; c < cols; c++)
                    pins_below |= cells_at(&x.f.cells, c, APP_CAPTION_ROWS)->fg != RGB(0, 0, 0) &&
                                  cells_at(&x.f.cells, c, APP_CAPTION_ROWS)->ch != ' ';
        }
        CHECK_MSG(pins_below, "%dx%d: the cloth's top is not just below the captions", cols, rows);
        press(&x.a, 'x');
        CHECK_INT(app_canvas_rows(&x.a), rows - 1);
        frames(&x.a, 2);
        fx_screen_compose(&x);
        CHECK(!row_has(&x, 0, app_scene(&x.a)->name));
        fx_screen_close(&x);
    }
    /* Too few rows for both: the captions go over the scene. */
    struct fx_screen x;
    struct app_opts o;
    app_opts_default(&o);
    o.demo = true;
    fx_screen_open(&x, &o, 40, APP_MIN_ROWS + 1);
    CHECK_INT(app_canvas_rows(&x.a), APP_MIN_ROWS);
    fx_screen_close(&x);
}

/* No text of the screen but the help's and the panel's holds s. */
static bool screen_has(struct fx_screen *x, const char *s)
{
    for (int r = 0; r < x->a.rows; r++)
        if (row_has(x, r, s))
            return true;
    return false;
}

/* The scene's hint says what to try until it is tried: a press in the scene
 * ends it (it does not stay over a drag), and it never shows beside or under
 * the parameter panel or the help (r then p used to leave it sticking out),
 * nor over a paused scene (it faded out over a picture that stood). */
TEST(app_hint_goes_once_tried_and_under_panels)
{
    for (int way = 0; way < 4; way++) {
        struct fx_screen x;
        init(&x, 1, 100, 30);
        frames(&x.a, 2);
        fx_screen_compose(&x);
        const char *h = app_scene(&x.a)->hint;
        CHECK(h && screen_has(&x, h));
        if (way == 0) {
            press(&x.a, 'r');
            press(&x.a, 'p');
        } else if (way == 1) {
            press(&x.a, '?');
        } else if (way == 3) {
            press(&x.a, ' ');
        } else {
            mouse(&x.a, MOUSE_PRESS, 50, 20);
            frames(&x.a, 2);
            fx_screen_compose(&x);
            CHECK_MSG(!screen_has(&x, h), "the hint stays over a drag");
            mouse(&x.a, MOUSE_RELEASE, 60, 20);
        }
        frames(&x.a, 2);
        fx_screen_compose(&x);
        CHECK_MSG(!screen_has(&x, h), "way %d: the hint still shows", way);
        if (way != 2) { /* closed again within the hint's time, it is back */
            press(&x.a, way == 3 ? ' ' : IK_ESC);
            frames(&x.a, 1);
            fx_screen_compose(&x);
            CHECK_MSG(screen_has(&x, h), "way %d: the hint does not come back", way);
        }
        fx_screen_close(&x);
    }
}
