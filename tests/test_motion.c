/*
 * test_motion.c — the picture in motion, at the app's level: a scene switch
 * starts clean (the tour's water opens as a fresh scene's does), a dye scene
 * left alone stays alive and gives way to the first real input, a cloth thrown
 * over its pins falls back and hangs, and a moving picture's screen comes to the
 * exact image within a bounded number of frames.
 */
#include "app.h"
#include "cloth.h"
#include "compose.h"
#include "frame.h"
#include "fixtures.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double no_clock(void) { return 0.0; }

static void run_cloth(struct cloth *c, int n)
{
    for (int k = 0; k < n; k++)
        cloth_step(c);
}

static void frames(struct app *a, int n)
{
    for (int i = 0; i < n; i++)
        fx_app_advance(a, 1.0 / APP_REF_FPS, no_clock);
}

/* A number from the current scene's statistics ("ke", "dye", ...). */
static double stat(const struct app *a, const char *name)
{
    struct buf b;
    buf_init(&b);
    app_json(a, &b, 0.0);
    buf_putc(&b, 0);
    char key[64];
    snprintf(key, sizeof key, "\"%s\":", name);
    const char *at = strstr(b.p, key);
    double v = at ? strtod(at + strlen(key), NULL) : NAN;
    buf_free(&b);
    CHECK_MSG(at, "no %s in the statistics", name);
    return v;
}

/* ---- A scene switch starts clean ------------------------------------------ */

#define PBF_SECONDS 4 /* the first seconds of the water, when the static showed */

/* The water's kinetic energy every half second of its first PBF_SECONDS, shown
 * by the tour (after the dye's turn, its pointer held and moving) or started
 * with --auto. */
static void pbf_opening(bool tour, double *ke)
{
    struct app_opts o;
    app_opts_default(&o);
    o.sync = false;
    if (tour) {
        o.demo = true;
    } else {
        o.autopilot = true;
        o.scene = 1;
    }
    struct app a; /* the tour's canvas is below its captions: the fresh one as large */
    CHECK(app_init(&a, &o, 80, tour ? 24 : 24 - APP_CAPTION_ROWS) == 0);
    CHECK_INT(app_canvas_rows(&a), 24 - 1 - APP_CAPTION_ROWS);
    if (tour) {
        while (a.cur != 1)
            frames(&a, 1);
        CHECK_INT(a.steps[1], 8); /* the water's first frame: its own steps */
    } else {
        frames(&a, 1);
    }
    for (int k = 0; k < 2 * PBF_SECONDS; k++) {
        frames(&a, APP_REF_FPS / 2);
        CHECK_INT(a.cur, 1);
        ke[k] = stat(&a, "ke");
    }
    app_free(&a);
}

TEST(motion_tour_water_opens_as_a_fresh_scene_does)
{
    double tour[2 * PBF_SECONDS], fresh[2 * PBF_SECONDS];
    pbf_opening(true, tour);
    pbf_opening(false, fresh);
    double most = 0.0;
    for (int k = 0; k < 2 * PBF_SECONDS; k++)
        most = fresh[k] > most ? fresh[k] : most;
    /* The same scene under the same autopilot: the same water for a while
     * (until a rounding of the autopilot's clock grows into a difference),
     * and never much livelier. With the dye's stroke carried over, the water
     * took a push from across the canvas and held 2-5 times the energy. */
    CHECK_NEAR(tour[0], fresh[0], 1e-3 * fresh[0]);
    CHECK_NEAR(tour[1], fresh[1], 1e-3 * fresh[1]);
    for (int k = 0; k < 2 * PBF_SECONDS; k++)
        CHECK_MSG(tour[k] < 1.3 * most, "%.1f s: ke %g, a fresh scene's at most %g",
                  0.5 * (k + 1), tour[k], most);
}

/* The cloth's centre and lowest point after two seconds; first (held) with a
 * drag going on in the dye when '3' is pressed, and no report after it. */
static void cloth_after_switch(bool held, double out[3])
{
    struct app_opts o;
    app_opts_default(&o);
    o.sync = false;
    struct app a;
    CHECK(app_init(&a, &o, 80, 24) == 0);
    if (held) {
        struct input_event e = fx_mouse(MOUSE_PRESS, 40, 3, 0);
        app_input(&a, &e);
        for (int k = 0; k < 10; k++) { /* a fast stroke along the top row of cells */
            e = fx_mouse(MOUSE_DRAG, 40 - 3 * k, 3, 0);
            app_input(&a, &e);
            frames(&a, 1);
        }
    }
    struct input_event e = fx_key('3');
    app_input(&a, &e);
    CHECK_INT(a.cur, 2);
    frames(&a, 2 * APP_REF_FPS);
    out[0] = stat(&a, "cx"), out[1] = stat(&a, "cy"), out[2] = stat(&a, "ke");
    app_free(&a);
}

TEST(motion_a_drag_held_over_a_scene_switch_does_not_reach_the_new_scene)
{
    double held[3], fresh[3];
    cloth_after_switch(true, held);
    cloth_after_switch(false, fresh);
    /* Nothing of the dye's stroke (held, where it was, how fast) reaches the
     * cloth: it hangs as it does when the switch came with the button up. */
    for (int k = 0; k < 3; k++)
        CHECK_NEAR(held[k], fresh[k], 1e-6 * (1.0 + fabs(fresh[k])));
}

/* ---- A dye scene left alone stays alive ------------------------------------ */

static int brightest(rgb_t c)
{
    int r = rgb_r(c), g = rgb_g(c), b = rgb_b(c);
    return r > g ? (r > b ? r : b) : (g > b ? g : b);
}

/* The share of the canvas's pixels brighter than 60 (of 255), as drawn. */
static double lit_share(struct app *a, struct frame *f)
{
    compose_frame(a, &f->st, &f->img, &f->cells);
    long lit = 0;
    for (int y = 0; y < f->img.h; y++)
        for (int x = 0; x < f->img.w; x++)
            lit += brightest(image_get(&f->img, x, y)) > 60;
    return (double)lit / ((double)f->img.w * f->img.h);
}

TEST(motion_dye_left_alone_stays_alive_and_a_drag_takes_over_at_once)
{
    struct app_opts o;
    app_opts_default(&o);
    o.sync = false;
    struct app a;
    struct frame f;
    CHECK(app_init(&a, &o, 80, 24) == 0);
    frame_init(&f, &a, true);
    /* Nobody here for 30 s: the opening splats fade within 4.5 s, and before
     * they are gone the dye is the idle autopilot's. It never goes dark. */
    double least_dye = 1e9, least_lit = 1.0;
    for (int s = 1; s <= 30; s++) {
        frames(&a, APP_REF_FPS);
        double dye = stat(&a, "dye"), lit = lit_share(&a, &f);
        if (s >= 1) {
            least_dye = dye < least_dye ? dye : least_dye;
            least_lit = lit < least_lit ? lit : least_lit;
        }
    }
    CHECK_MSG(least_dye > 0.5, "dye down to %g", least_dye);
    CHECK_MSG(least_lit > 0.05, "a share of %g of the canvas lit", least_lit);
    CHECK(a.idle_on && a.ptr.down);

    /* A drag, where the autopilot's pointer is not: from its first frame the
     * pointer is the person's, the dye follows it, and the stroke is not joined
     * to the autopilot's (no dye laid along the way between the two). */
    int col = a.ptr.x < 40 ? 70 : 10, row = a.ptr.y < 23 ? 19 : 3;
    float ax = a.ptr.x, ay = a.ptr.y;
    int before[7];
    (void)lit_share(&a, &f);
    for (int k = 0; k < 7; k++) { /* the way between the two, away from both ends */
        float t = 0.2f + 0.1f * (float)k;
        before[k] = brightest(image_get(&f.img, (int)(ax + t * (col + 0.5f - ax)),
                                        (int)(ay + t * (2 * row + 1 - ay))));
    }
    struct input_event e = fx_mouse(MOUSE_PRESS, col, row, 0);
    app_input(&a, &e);
    frames(&a, 1);
    CHECK(!a.idle_on);
    (void)lit_share(&a, &f);
    int joined = 0;
    for (int k = 0; k < 7; k++) {
        float t = 0.2f + 0.1f * (float)k;
        joined += brightest(image_get(&f.img, (int)(ax + t * (col + 0.5f - ax)),
                                      (int)(ay + t * (2 * row + 1 - ay)))) > before[k] + 40;
    }
    CHECK_MSG(joined <= 1, "%d of 7 pixels between the autopilot's pointer and the press lit up",
              joined);
    CHECK_NEAR(a.ptr.x, col + 0.5, 1e-6);
    CHECK_NEAR(a.ptr.y, 2 * row + 1, 1e-6);
    int step = col < 40 ? 1 : -1;
    for (int k = 1; k <= 10; k++) {
        e = fx_mouse(MOUSE_DRAG, col + step * k, row, 0);
        app_input(&a, &e);
        frames(&a, 1);
        CHECK_NEAR(a.ptr.x, col + step * k + 0.5, 1e-6); /* the autopilot keeps off */
    }
    e = fx_mouse(MOUSE_RELEASE, col + step * 10, row, 0);
    app_input(&a, &e);
    frames(&a, 1);
    CHECK(!a.ptr.down);
    (void)lit_share(&a, &f);
    int on_stroke = 0;
    for (int k = 0; k <= 10; k++)
        on_stroke += brightest(image_get(&f.img, col + step * k, 2 * row + 1)) > 120;
    CHECK_MSG(on_stroke >= 9, "%d of the stroke's 11 pixels bright", on_stroke);
    /* Left alone again, the autopilot waits its few seconds, then comes back. */
    const int idle = (int)(app_scene(&a)->idle_auto * APP_REF_FPS);
    frames(&a, idle - APP_REF_FPS / 2);
    CHECK(!a.idle_on && !a.ptr.down);
    CHECK_NEAR(a.ptr.x, col + step * 10 + 0.5, 1e-6);
    frames(&a, APP_REF_FPS);
    CHECK(a.idle_on && a.ptr.down);
    /* A key that acts on the scene takes it back as much: 'c' clears the dye,
     * and the autopilot lays none after it. */
    e = fx_key('c');
    app_input(&a, &e);
    frames(&a, APP_REF_FPS);
    CHECK(!a.idle_on && !a.ptr.down);
    CHECK_MSG(stat(&a, "dye") < 1e-6, "dye %g a second after c", stat(&a, "dye"));
    frame_free(&f);
    app_free(&a);
}

/* ---- A thrown cloth hangs again -------------------------------------------- */

#define CLOTH_BACKGROUND RGB(16, 18, 26) /* the cloth scene's (cloth.c) */

/* The canvas pixels the cloth covers, as drawn. */
static long cloth_area(struct app *a, struct frame *f)
{
    compose_frame(a, &f->st, &f->img, &f->cells);
    long n = 0;
    for (int i = 0; i < f->img.w * f->img.h; i++)
        n += f->img.px[i] != CLOTH_BACKGROUND;
    return n;
}

/* Cells turned over (their corners in mirror order): what a fold leaves. */
static int turned_over(const struct cloth *c)
{
    int w = c->prm.w, n = 0;
    for (int a = 0; a + w + 1 < c->n; a++) {
        if (a % w == w - 1)
            continue;
        float ux = c->x[a + w] - c->x[a + 1], uy = c->y[a + w] - c->y[a + 1];
        float vx = c->x[a + w + 1] - c->x[a], vy = c->y[a + w + 1] - c->y[a];
        n += ux * vy - uy * vx < 0.0f;
    }
    return n;
}

TEST(motion_cloth_thrown_over_its_pins_falls_back_and_hangs)
{
    static const int size[][2] = {{80, 24}, {160, 50}};
    for (int k = 0; k < 2; k++) {
        int cols = size[k][0], rows = size[k][1];
        struct app_opts o;
        app_opts_default(&o);
        o.sync = false;
        o.scene = 2;
        struct app a;
        struct frame f;
        CHECK(app_init(&a, &o, cols, rows) == 0);
        frame_init(&f, &a, true);
        frames(&a, 2 * APP_REF_FPS);
        long rest = cloth_area(&a, &f);
        double rest_cy = stat(&a, "cy"), rest_strain = stat(&a, "mean_strain");
        /* The hem's middle, up past the pins to the top row in a third of a
         * second, and let go on the way. */
        int col = cols / 2, row = (int)(0.76 * (rows - 1));
        struct input_event e = fx_mouse(MOUSE_PRESS, col, row, 0);
        app_input(&a, &e);
        frames(&a, 1);
        for (int s = 1; s <= 10; s++) {
            e = fx_mouse(MOUSE_DRAG, col, row - row * s / 10, 0);
            app_input(&a, &e);
            frames(&a, 1);
        }
        e = fx_mouse(MOUSE_RELEASE, col, 0, 0);
        app_input(&a, &e);
        frames(&a, 2);
        long thrown = cloth_area(&a, &f);
        CHECK_MSG(thrown < rest * 6 / 10, "%dx%d: thrown, the cloth still covers %ld of %ld", cols,
                  rows, thrown, rest);
        frames(&a, 12 * APP_REF_FPS);
        /* It fell open and hangs as it did: its area, its centre, its strain.
         * (Folded over and held by its own constraints, it covered some 60 %
         * of that, its centre a metre up.) */
        long later = cloth_area(&a, &f);
        CHECK_MSG(labs(later - rest) < rest / 10, "%dx%d: 12 s after, %ld pixels of %ld at rest",
                  cols, rows, later, rest);
        CHECK_NEAR(stat(&a, "cy"), rest_cy, 0.3);
        CHECK_MSG(stat(&a, "mean_strain") < 3.0 * rest_strain + 0.005,
                  "%dx%d: mean strain %g, %g at rest", cols, rows, stat(&a, "mean_strain"),
                  rest_strain);
        frame_free(&f);
        app_free(&a);
    }
}

TEST(motion_a_press_takes_the_cloth_where_it_went_down)
{
    /* Through the app: a press and a drag reported before the next frame's
     * steps take the cloth where the button went down, the start of the
     * stroke, not where the drag had gone by the time the steps ran, nor
     * where the pointer was before the press (the first stroke's pointer
     * came by the cloth just before: a keyboard pointer's move, a quick
     * release and press). */
    enum { COLS = 80, ROWS = 24 };
    struct app_opts o;
    app_opts_default(&o);
    o.sync = false;
    o.scene = 2;
    struct app a;
    CHECK(app_init(&a, &o, COLS, ROWS) == 0);
    frames(&a, 2 * APP_REF_FPS);
    const struct cloth *c = app_scene(&a)->member(a.st[a.cur], "cloth");
    const int col = COLS / 2, hem = (int)(0.76 * (ROWS - 1)), below = ROWS - 2;
    static const struct {
        bool from_hem;
        const char *what;
    } strokes[] = {{false, "down below the cloth, dragged onto it: it was taken"},
                   {true, "down on the cloth, dragged off it: nothing was taken"}};
    for (int k = 0; k < 2; k++) {
        struct input_event e = fx_mouse(MOUSE_MOVE, col, hem, 0);
        app_input(&a, &e);
        e = fx_mouse(MOUSE_PRESS, col, strokes[k].from_hem ? hem : below, 0);
        app_input(&a, &e);
        e = fx_mouse(MOUSE_DRAG, col, strokes[k].from_hem ? below : hem, 0);
        app_input(&a, &e);
        frames(&a, 1);
        CHECK_MSG((c->grabbed >= 0) == strokes[k].from_hem, "%s", strokes[k].what);
        e = fx_mouse(MOUSE_RELEASE, col, strokes[k].from_hem ? below : hem, 0);
        app_input(&a, &e);
        frames(&a, APP_REF_FPS);
    }
    app_free(&a);
}

TEST(motion_cloth_folded_onto_itself_opens_unless_the_seed_is_kept)
{
    /* The solver alone: the seed preset's cloth (by colour), its hem's middle
     * lifted over the pins and let go. Distances alone hold a fold as well as
     * a flat cloth (a cell turned over is its mirror image); upright opens it. */
    for (int up = 0; up < 2; up++) {
        struct cloth_params p;
        cloth_params_seed(&p);
        p.by_colour = true;
        p.upright = up;
        struct cloth c;
        CHECK_INT(cloth_init(&c, &p), 0);
        run_cloth(&c, 480);
        int g = (p.h - 1) * p.w + p.w / 2;
        float x0 = c.x[g], y0 = c.y[g];
        cloth_grab(&c, g, x0, y0);
        for (int f = 1; f <= 10; f++) {
            cloth_move_grab(&c, x0, y0 + (0.3f - y0) * (float)f / 10.0f);
            run_cloth(&c, 8);
        }
        cloth_release(&c, true, 0.0f, 3.0f * (0.3f - y0));
        run_cloth(&c, 2400);
        int over = turned_over(&c);
        if (up)
            CHECK_MSG(over == 0, "upright: %d cells still turned over", over);
        else
            CHECK_MSG(over > 100, "the seed's cloth: only %d cells turned over", over);
        cloth_free(&c);
    }
}

TEST(motion_torn_off_cloth_hangs_again)
{
    /* --auto with tearing on tears the cloth off both pins, over and over: each
     * time, a whole cloth hangs again a few seconds after the last of it fell
     * out of view (else it fell for ever). */
    struct app_opts o;
    app_opts_default(&o);
    o.sync = false;
    o.scene = 2;
    o.autopilot = true;
    struct app a;
    struct frame f;
    CHECK(app_init(&a, &o, 80, 24) == 0);
    frame_init(&f, &a, true);
    long rest = cloth_area(&a, &f);
    struct input_event e = fx_key('t');
    app_input(&a, &e);
    int gone = 0, longest = 0, falls = 0;
    for (int t = 0; t < 4 * 40; t++) { /* quarter seconds */
        frames(&a, APP_REF_FPS / 4 + (t % 2)); /* 7 and 8 frames: 30 a second */
        bool away = cloth_area(&a, &f) < rest / 20;
        falls += away && gone == 0;
        gone = away ? gone + 1 : 0;
        longest = gone > longest ? gone : longest;
    }
    CHECK_MSG(falls >= 2, "torn off only %d times in 40 s", falls);
    CHECK_MSG(longest <= 4 * 4, "gone for %.2f s", longest / 4.0);
    CHECK_MSG(gone == 0 || falls > 2, "gone at the end");
    frame_free(&f);
    app_free(&a);
}
