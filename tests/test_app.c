/*
 * test_app.c — the app without a terminal: keys, the parameter panel, the pointer
 * reaching the scene, pausing, resizing, a window too small, determinism of what
 * it draws.
 */
#include "app.h"
#include "test.h"

#include <string.h>

static double fake_now;
static double fake_clock(void) { return fake_now; }

static void init(struct app *a, int scene, int cols, int rows)
{
    struct app_opts o = {.color = COLOR_TRUE, .glyphs = GLYPHS_HALF, .fps = 30, .tolerance = 6,
                         .sync = false, .seed = 1, .scene = scene};
    CHECK(app_init(a, &o, cols, rows) == 0);
    a->sim_clock = true;
}

static struct input_event key_ev(int k)
{
    struct input_event e;
    memset(&e, 0, sizeof e);
    e.type = INPUT_KEY;
    e.key = k;
    return e;
}

static struct input_event mouse_ev(enum mouse_action act, int x, int y)
{
    struct input_event e;
    memset(&e, 0, sizeof e);
    e.type = INPUT_MOUSE;
    e.action = act;
    e.x = x, e.y = y;
    return e;
}

static void frames(struct app *a, int n)
{
    for (int i = 0; i < n; i++)
        app_advance(a, 1.0 / 30, fake_clock);
}

static bool row_has(struct app *a, int row, const char *text)
{
    char line[512];
    int n = 0;
    for (int c = 0; c < a->cells.cols && n < 511; c++) {
        uint32_t ch = cells_at(&a->cells, c, row)->ch;
        line[n++] = ch < 128 ? (char)ch : '#';
    }
    line[n] = 0;
    return strstr(line, text) != NULL;
}

TEST(app_scene_keys_switch_and_keep_state)
{
    struct app a;
    init(&a, 0, 60, 20);
    struct input_event e = key_ev('2');
    app_input(&a, &e);
    CHECK_INT(a.cur, 1);
    frames(&a, 3);
    long pbf_steps = a.steps[1];
    CHECK(pbf_steps > 0);
    e = key_ev('3');
    app_input(&a, &e);
    CHECK_INT(a.cur, 2);
    e = key_ev(IK_TAB);
    app_input(&a, &e);
    CHECK_INT(a.cur, 0);
    e = key_ev(IK_BACKTAB);
    app_input(&a, &e);
    CHECK_INT(a.cur, 2);
    e = key_ev('2');
    app_input(&a, &e);
    CHECK_INT(a.steps[1], pbf_steps); /* it kept its state (and its step count) */
    e = key_ev('q');
    CHECK(app_input(&a, &e) == APP_QUIT && a.quit);
    app_free(&a);
}

TEST(app_panel_changes_parameters_live)
{
    struct app a;
    init(&a, 0, 80, 24);
    struct input_event e = key_ev('p');
    app_input(&a, &e);
    CHECK(a.panel);
    const struct scene_ops *s = app_scene(&a);
    /* Select "dye decay" (third) and raise it by one step. */
    e = key_ev(IK_DOWN);
    app_input(&a, &e);
    app_input(&a, &e);
    float before = *s->param(a.st[0], a.sel);
    e = key_ev(IK_RIGHT);
    app_input(&a, &e);
    CHECK_NEAR(*s->param(a.st[0], a.sel), before + s->params[a.sel].step, 1e-6);
    e = key_ev('-');
    app_input(&a, &e);
    CHECK_NEAR(*s->param(a.st[0], a.sel), before, 1e-6);
    /* The panel shows up in the cells. */
    app_compose(&a);
    CHECK(row_has(&a, 0, "parameters"));
    CHECK(row_has(&a, 3, "dye decay"));
    /* Values never leave their range. */
    for (int i = 0; i < 200; i++)
        app_input(&a, &e);
    CHECK_NEAR(*s->param(a.st[0], a.sel), s->params[a.sel].min, 1e-6);
    e = key_ev('+');
    for (int i = 0; i < 500; i++)
        app_input(&a, &e);
    CHECK_NEAR(*s->param(a.st[0], a.sel), s->params[a.sel].max, 1e-4);
    /* Selection wraps: Up from the first goes to the last. */
    a.sel = 0;
    e = key_ev(IK_UP);
    app_input(&a, &e);
    CHECK_INT(a.sel, s->nparams - 1);
    e = key_ev(IK_DOWN);
    app_input(&a, &e);
    CHECK_INT(a.sel, 0);
    e = key_ev(IK_ESC);
    app_input(&a, &e);
    CHECK(!a.panel && !a.quit);
    app_free(&a);
}

TEST(app_drag_reaches_the_scene)
{
    struct app a;
    init(&a, 0, 60, 20);
    struct input_event e = key_ev('c');
    app_input(&a, &e);
    frames(&a, 2);
    struct buf j;
    buf_init(&j);
    app_json(&a, &j, 0);
    CHECK(strstr(j.p, "\"dye\":0,") != NULL);
    e = mouse_ev(MOUSE_PRESS, 5, 5);
    app_input(&a, &e);
    for (int x = 6; x < 50; x += 3) {
        e = mouse_ev(MOUSE_DRAG, x, 5);
        app_input(&a, &e);
        frames(&a, 1);
    }
    e = mouse_ev(MOUSE_RELEASE, 50, 5);
    app_input(&a, &e);
    frames(&a, 1);
    buf_clear(&j);
    app_json(&a, &j, 0);
    CHECK(strstr(j.p, "\"dye\":0,") == NULL);
    /* The stroke's row is coloured along its length, a far row is not. */
    app_compose(&a);
    int left = 0, right = 0, far = 0;
    for (int c = 0; c < 60; c++) {
        rgb_t bg = cells_at(&a.cells, c, 5)->bg, fbg = cells_at(&a.cells, c, 16)->bg;
        bool on = (rgb_r(bg) + rgb_g(bg) + rgb_b(bg)) > 90; /* the background sums to 24 */
        left += on && c < 28;
        right += on && c >= 28;
        far += (rgb_r(fbg) + rgb_g(fbg) + rgb_b(fbg)) > 90;
    }
    CHECK_MSG(left >= 6 && right >= 6, "lit cells on the stroke: %d left, %d right", left, right);
    CHECK_INT(far, 0);
    buf_free(&j);
    app_free(&a);
}

TEST(app_paused_scene_writes_nothing_after_its_first_frame)
{
    struct app a;
    init(&a, 1, 60, 20);
    struct buf out;
    buf_init(&out);
    frames(&a, 200); /* past the hint's fade */
    struct input_event e = key_ev(' ');
    app_input(&a, &e);
    CHECK(a.paused);
    app_compose(&a);
    CHECK(app_encode(&a, &out) > 0);
    for (int i = 0; i < 10; i++) {
        buf_clear(&out);
        frames(&a, 1);
        app_compose(&a);
        CHECK_INT(app_encode(&a, &out), 0);
    }
    /* '.' advances one frame: something moves. */
    e = key_ev('.');
    app_input(&a, &e);
    long before = a.steps[1];
    frames(&a, 1);
    CHECK_INT(a.steps[1], before + 8);
    buf_free(&out);
    app_free(&a);
}

TEST(app_resize_keeps_the_hud_on_the_last_row)
{
    struct app a;
    init(&a, 0, 60, 20);
    app_compose(&a);
    CHECK(row_has(&a, 19, "dye"));
    app_resize(&a, 90, 30);
    frames(&a, 1);
    app_compose(&a);
    CHECK(row_has(&a, 29, "dye"));
    CHECK(!row_has(&a, 19, "dye"));
    CHECK_INT(a.img.w, 90);
    CHECK_INT(a.img.h, 58);
    /* Too small: a message, and back to normal when it grows. */
    app_resize(&a, 10, 4);
    app_compose(&a);
    CHECK(row_has(&a, 1, "too small"));
    app_resize(&a, 40, 12);
    app_compose(&a);
    CHECK(row_has(&a, 11, "dye"));
    app_free(&a);
}

TEST(app_frames_are_deterministic)
{
    struct buf x, y;
    buf_init(&x);
    buf_init(&y);
    for (int run = 0; run < 2; run++) {
        struct app a;
        struct app_opts o = {.color = COLOR_TRUE, .glyphs = GLYPHS_HALF, .fps = 30, .tolerance = 6,
                             .sync = true, .autopilot = true, .seed = 7, .scene = 0};
        CHECK(app_init(&a, &o, 50, 16) == 0);
        a.sim_clock = true;
        for (int f = 0; f < 40; f++) {
            frames(&a, 1);
            app_compose(&a);
            app_encode(&a, run ? &y : &x);
        }
        app_free(&a);
    }
    CHECK(x.len > 0 && x.len == y.len && memcmp(x.p, y.p, x.len) == 0);
    buf_free(&x);
    buf_free(&y);
}

TEST(app_help_lists_every_key)
{
    struct app a;
    init(&a, 2, 100, 40);
    struct input_event e = key_ev('?');
    app_input(&a, &e);
    app_compose(&a);
    const char *need[] = {"Tab", "Space", "restart", "parameter", "keyboard pointer", "quit",
                          "tearing", "mouse", "wheel"};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
        bool found = false;
        for (int r = 0; r < 39 && !found; r++)
            found = row_has(&a, r, need[i]);
        CHECK_MSG(found, "help lacks '%s'", need[i]);
    }
    app_free(&a);
}

TEST(app_demo_tours_the_scenes_and_hands_over_on_a_key)
{
    struct app a;
    struct app_opts o = {.color = COLOR_TRUE, .glyphs = GLYPHS_HALF, .fps = 30, .tolerance = 6,
                         .sync = false, .demo = true, .seed = 1, .scene = 0};
    CHECK(app_init(&a, &o, 80, 24) == 0);
    a.sim_clock = true;
    bool seen[SCENE_COUNT] = {false, false, false};
    for (int f = 0; f < 30 * 30; f++) {
        frames(&a, 1);
        seen[a.cur] = true;
    }
    CHECK(seen[0] && seen[1] && seen[2]);
    app_compose(&a);
    CHECK(row_has(&a, 0, app_scene(&a)->name)); /* the caption names the scene */
    CHECK(a.ptr.down || a.cur == 2); /* the tour's pointer is at work (cloth lifts it at times) */
    int cur = a.cur;
    struct input_event e = key_ev('x');
    app_input(&a, &e);
    CHECK(!a.demo && !a.quit);
    CHECK(!a.ptr.down);
    frames(&a, 30 * 20);
    CHECK_INT(a.cur, cur); /* no more touring */
    app_free(&a);
}

TEST(app_fast_drag_follows_every_report_between_frames)
{
    /* An L-shaped drag within one frame: the dye must follow the corner, not cut
     * across it. */
    struct app a;
    init(&a, 0, 60, 24);
    struct input_event e = key_ev('c');
    app_input(&a, &e);
    frames(&a, 1);
    e = mouse_ev(MOUSE_PRESS, 5, 3);
    app_input(&a, &e);
    for (int x = 8; x <= 40; x += 4) {
        e = mouse_ev(MOUSE_DRAG, x, 3);
        app_input(&a, &e);
    }
    for (int y = 5; y <= 19; y += 2) {
        e = mouse_ev(MOUSE_DRAG, 40, y);
        app_input(&a, &e);
    }
    frames(&a, 1);
    e = mouse_ev(MOUSE_RELEASE, 40, 19);
    app_input(&a, &e);
    app_compose(&a);
    rgb_t corner = cells_at(&a.cells, 38, 3)->bg, chord = cells_at(&a.cells, 20, 10)->bg;
    CHECK_MSG(rgb_r(corner) + rgb_g(corner) + rgb_b(corner) > 90, "corner %06x", corner);
    CHECK_MSG(rgb_r(chord) + rgb_g(chord) + rgb_b(chord) < 60, "chord %06x", chord);
    app_free(&a);
}

TEST(app_panel_in_a_small_terminal_stays_inside_it)
{
    for (int sc = 0; sc < SCENE_COUNT; sc++) {
        struct app a;
        init(&a, sc, APP_MIN_COLS, APP_MIN_ROWS);
        struct input_event e = key_ev('p');
        app_input(&a, &e);
        e = key_ev(IK_UP); /* the last parameter, far below the bottom row */
        for (int i = 0; i < app_scene(&a)->nparams; i++) {
            app_input(&a, &e);
            app_compose(&a); /* under ASan, a write outside the cells fails here */
        }
        CHECK(row_has(&a, APP_MIN_ROWS - 1, app_scene(&a)->name));
        app_free(&a);
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
                struct app a;
                init(&a, sc, 48, 16);
                a.auto_on = true; /* keep it stirred */
                float *v = s->param(a.st[sc], i);
                *v = end ? s->params[i].max : s->params[i].min;
                s->param_changed(a.st[sc], i);
                frames(&a, 20);
                app_compose(&a);
                struct buf j;
                buf_init(&j);
                app_json(&a, &j, 0);
                CHECK_MSG(!strstr(j.p, "nan") && !strstr(j.p, "inf"), "%s %s=%g: %s", s->name,
                          s->params[i].name, (double)*v, j.p);
                CHECK_MSG(row_has(&a, 15, s->name), "%s %s: no HUD", s->name, s->params[i].name);
                buf_free(&j);
                app_free(&a);
            }
    }
}

TEST(app_simulation_speed_does_not_depend_on_fps)
{
    /* One second of app time is 30 reference frames of steps, at any --fps. */
    const int fps[] = {1, 10, 30, 60, 240};
    for (size_t k = 0; k < sizeof fps / sizeof fps[0]; k++) {
        struct app a;
        struct app_opts o = {.color = COLOR_TRUE, .glyphs = GLYPHS_HALF, .fps = fps[k],
                             .tolerance = 6, .sync = false, .seed = 1, .scene = 2};
        CHECK(app_init(&a, &o, 40, 12) == 0);
        for (int f = 0; f < fps[k]; f++)
            app_advance(&a, 1.0 / fps[k], fake_clock);
        CHECK_MSG(a.steps[2] == 8 * 30, "--fps %d: %ld steps in a second", fps[k], a.steps[2]);
        app_free(&a);
    }
}
