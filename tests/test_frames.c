/*
 * test_frames.c — whole frames (the steps, the scene's drawing, the blit with
 * its fit, the encoding) give the same bits on any number of threads: each
 * scene under --auto in each glyph set, the canvas's pixels and the bytes of
 * every frame compared between one solver thread and three. And the detail
 * the frame loop lowers when frames cannot be made in time (tune.h): the
 * picture drawn at the canvas's resolution, then the simulation smaller (the
 * dye at once, the water and the cloth at r), the status line saying so.
 */
#include "test.h"
#include "fixtures.h"
#include "frame.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double no_clock(void) { return 0.0; }

/* A scene under --auto in glyph set g on `threads` threads at cols x rows. */
struct run {
    struct app a;
    struct frame f;
    struct buf out;
};

static bool run_open(struct run *r, int scene, enum glyph_set g, int threads, int cols, int rows)
{
    struct app_opts o;
    app_opts_default(&o);
    o.autopilot = true;
    o.scene = scene;
    o.glyphs = g;
    o.threads = threads;
    if (app_init(&r->a, &o, cols, rows) != 0)
        return false;
    frame_init(&r->f, &r->a, true);
    buf_init(&r->out);
    return true;
}

static void run_close(struct run *r)
{
    buf_free(&r->out);
    frame_free(&r->f);
    app_free(&r->a);
}

static void run_frame(struct run *r)
{
    buf_clear(&r->out);
    frame_next(&r->f, &r->a, 1.0 / APP_REF_FPS, no_clock, true, &r->out);
}

/* Frames at which a and b first differ: in the picture drawn, or in the bytes
 * sent (the cells); -1 where they never do. */
struct differ {
    int pixels, bytes;
};

static struct differ compare_runs(int scene, enum glyph_set g, int cols, int rows, int frames)
{
    struct differ d = {-1, -1};
    struct run one, three;
    if (!run_open(&one, scene, g, 1, cols, rows))
        return (struct differ){0, 0};
    if (!run_open(&three, scene, g, 3, cols, rows)) {
        run_close(&one);
        return (struct differ){0, 0};
    }
    for (int f = 0; f < frames && (d.pixels < 0 || d.bytes < 0); f++) {
        run_frame(&one);
        run_frame(&three);
        const struct image *p = &one.f.img, *q = &three.f.img;
        if (d.pixels < 0 && (p->w != q->w || p->h != q->h ||
                             memcmp(p->px, q->px, (size_t)p->w * (size_t)p->h * sizeof *p->px)))
            d.pixels = f;
        if (d.bytes < 0 && (one.out.len != three.out.len ||
                            memcmp(one.out.p, three.out.p, one.out.len) != 0))
            d.bytes = f;
    }
    run_close(&one);
    run_close(&three);
    return d;
}

TEST_THREADS(frames_same_pictures_and_bytes_on_any_number_of_threads)
{
    static const enum glyph_set sets[] = {GLYPHS_HALF, GLYPHS_QUAD, GLYPHS_SEXTANT};
    const int frames = TEST_SANITIZED ? 6 : 24;
    for (int sc = 0; sc < SCENE_COUNT; sc++)
        for (size_t g = 0; g < sizeof sets / sizeof sets[0]; g++) {
            /* 37 rows: bands of cell rows and of pixel rows that do not divide
             * evenly. */
            const struct differ d = compare_runs(sc, sets[g], 90, 37, frames);
            CHECK_MSG(d.pixels < 0, "%s in %s: the picture differs from frame %d on",
                      scenes[sc]->name, cells_glyphs_name(sets[g]), d.pixels);
            CHECK_MSG(d.bytes < 0, "%s in %s: the bytes differ from frame %d on",
                      scenes[sc]->name, cells_glyphs_name(sets[g]), d.bytes);
        }
}

/* The status line as text (other glyphs as '#'). */
static const char *hud_text(struct fx_screen *x)
{
    static char line[1024];
    int n = 0;
    const int row = x->f.cells.rows - 1;
    for (int c = 0; c < x->f.cells.cols && n < (int)sizeof line - 1; c++) {
        const uint32_t ch = cells_at(&x->f.cells, c, row)->ch;
        line[n++] = ch < 128 ? (char)ch : '#';
    }
    line[n] = 0;
    return line;
}

/* Cells of the picture (every row but the status line's) in a block glyph
 * other than the upper half block (text is ASCII). */
static int finer_glyphs(struct fx_screen *x)
{
    int n = 0;
    for (int r = 0; r + 1 < x->f.cells.rows; r++)
        for (int c = 0; c < x->f.cells.cols; c++) {
            const uint32_t ch = cells_at(&x->f.cells, c, r)->ch;
            n += ch >= 128 && ch != GLYPH_UPPER;
        }
    return n;
}

static void advance(struct fx_screen *x, int frames)
{
    for (int f = 0; f < frames; f++)
        fx_app_advance(&x->a, 1.0 / APP_REF_FPS, no_clock);
}

TEST(frames_coarse_detail_draws_at_the_canvas_resolution)
{
    /* Quadrants, coarse: the canvas's pixels, blitted as half-blocks, and the
     * status line says so; full detail again: twice the pixels, quadrants. */
    struct app_opts o;
    app_opts_default(&o);
    o.autopilot = true;
    o.glyphs = GLYPHS_QUAD;
    struct fx_screen x;
    fx_screen_open(&x, &o, 80, 24);
    advance(&x, 20);
    fx_screen_compose(&x);
    CHECK(x.f.img.w == 160 && x.f.img.h == 2 * 46);
    CHECK(finer_glyphs(&x) > 50);
    CHECK(!strstr(hud_text(&x), "coarse"));
    app_set_detail(&x.a, TUNE_COARSE);
    fx_screen_compose(&x);
    CHECK(x.f.img.w == 80 && x.f.img.h == 46);
    CHECK_INT(finer_glyphs(&x), 0);
    CHECK_MSG(strstr(hud_text(&x), " coarse "), "status line: %s", hud_text(&x));
    app_set_detail(&x.a, TUNE_FULL);
    fx_screen_compose(&x);
    CHECK(x.f.img.w == 160 && finer_glyphs(&x) > 50);
    CHECK(!strstr(hud_text(&x), "coarse"));
    fx_screen_close(&x);
}

/* A number in the scene's statistics (app_json). */
static double stat_of(struct fx_screen *x, const char *field)
{
    struct buf b;
    buf_init(&b);
    app_json(&x->a, &b, 0.0);
    char key[64];
    snprintf(key, sizeof key, "\"%s\":", field);
    const char *at = b.p ? strstr(b.p, key) : NULL;
    const double v = at ? atof(at + strlen(key)) : -1.0;
    buf_free(&b);
    return v;
}

/* The dye grid's cells (its statistics' "dye_grid":"WxH"). */
static double dye_cells(struct fx_screen *x)
{
    struct buf b;
    buf_init(&b);
    app_json(&x->a, &b, 0.0);
    const char *at = b.p ? strstr(b.p, "\"dye_grid\":\"") : NULL;
    int w = 0, h = 0;
    if (!at || sscanf(at + 12, "%dx%d", &w, &h) != 2)
        w = h = 0;
    buf_free(&b);
    return (double)w * (double)h;
}

TEST(frames_smaller_simulation_waits_for_r_where_it_must)
{
    /* A full screen: pbf and the cloth keep their particles until r, the
     * status line saying r makes them smaller; then about half. The dye's
     * grid halves at once. New scenes start smaller. */
    struct app_opts o;
    app_opts_default(&o);
    o.scene = 1;
    struct fx_screen x;
    fx_screen_open(&x, &o, 400, 110);
    const double water = stat_of(&x, "particles");
    CHECK_MSG(water > 5500, "%.0f particles", water);
    app_set_detail(&x.a, TUNE_SMALLER);
    fx_screen_compose(&x);
    CHECK(x.a.smaller_waits);
    CHECK_MSG(strstr(hud_text(&x), " coarse "), "status line: %s", hud_text(&x));
    CHECK(stat_of(&x, "particles") == water);
    app_input(&x.a, &(struct input_event){.type = INPUT_KEY, .key = 'r'});
    fx_screen_compose(&x);
    const double fewer = stat_of(&x, "particles");
    CHECK_MSG(fewer <= 3000 && fewer > 2500, "after r: %.0f particles", fewer);
    CHECK(!x.a.smaller_waits);
    CHECK_MSG(strstr(hud_text(&x), " coarse "), "status line: %s", hud_text(&x));
    /* The cloth, made now: smaller from the start. */
    app_input(&x.a, &(struct input_event){.type = INPUT_KEY, .key = '3'});
    CHECK(!x.a.smaller_waits);
    const double cloth = stat_of(&x, "particles");
    CHECK_MSG(cloth <= 6000 && cloth > 5000, "cloth: %.0f particles", cloth);
    /* Full detail again: the cloth waits for r to grow back. */
    app_set_detail(&x.a, TUNE_FULL);
    CHECK(x.a.smaller_waits);
    app_input(&x.a, &(struct input_event){.type = INPUT_KEY, .key = 'r'});
    CHECK(!x.a.smaller_waits && stat_of(&x, "particles") > 11000);
    fx_screen_close(&x);
    /* The dye: its grid follows at once. */
    o.scene = 0;
    fx_screen_open(&x, &o, 200, 60);
    const double cells = dye_cells(&x);
    app_set_detail(&x.a, TUNE_SMALLER);
    CHECK(!x.a.smaller_waits);
    const double half = dye_cells(&x);
    CHECK_MSG(cells > 0 && half > 0 && half < 0.3 * cells, "dye cells %.0f, then %.0f", cells, half);
    fx_screen_close(&x);
}

/* A clock that runs 25 ms between readings: every frame is too slow. */
static double slow_now;
static double slow_clock(void) { return slow_now += 0.025; }

TEST(frames_too_slow_on_a_real_clock_lower_the_detail)
{
    /* Frames that cannot be made in time: within a second the picture is
     * coarse; on the simulated clock of a recording, never. */
    for (int simulated = 0; simulated < 2; simulated++) {
        struct app_opts o;
        app_opts_default(&o);
        o.glyphs = GLYPHS_SEXTANT;
        struct app a;
        CHECK(app_init(&a, &o, 80, 24) == 0);
        struct frame f;
        frame_init(&f, &a, simulated);
        struct buf out;
        buf_init(&out);
        for (int k = 0; k < 30; k++) {
            buf_clear(&out);
            frame_next(&f, &a, 1.0 / APP_REF_FPS, slow_clock, false, &out);
        }
        CHECK_MSG(simulated ? a.detail == TUNE_FULL : a.detail >= TUNE_COARSE,
                  "simulated %d: detail %d", simulated, a.detail);
        CHECK(simulated || f.img.w == 80);
        buf_free(&out);
        frame_free(&f);
        app_free(&a);
    }
}
