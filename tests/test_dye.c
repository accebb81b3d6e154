/*
 * test_dye.c — the dye scene as a person sees it: how bright and how saturated
 * its colours are, on the canvas the app draws (unit tests: an app and a frame,
 * driven with mouse events on a fake 30 fps clock, the canvas image read back
 * pixel by pixel) and on a real tmux pane (end-to-end: SGR mouse reports in,
 * capture-pane -e colours out).
 *
 * Coordinates: cells (col,row) 0-based as the app's events take them; cell
 * (c,r) shows canvas pixels (c, 2r) and (c, 2r+1). The terminal's SGR reports
 * are 1-based. "Brightness" is a pixel's brightest channel, "saturation" its
 * (max - min) / max.
 */
#include "../src/scenes/dye_scene.h"
#include "app.h"
#include "buf.h"
#include "compose.h"
#include "e2e.h"
#include "frame.h"
#include "fixtures.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double fake_now;
static double fake_clock(void) { return fake_now; }

static void init(struct fx_screen *x, int cols, int rows)
{
    struct app_opts o;
    app_opts_default(&o);
    o.sync = false;
    o.scene = 0;
    fx_screen_open(x, &o, cols, rows);
}

static void frames(struct fx_screen *x, int n)
{
    for (int i = 0; i < n; i++)
        fx_app_advance(&x->a, 1.0 / APP_REF_FPS, fake_clock);
}

static void key(struct fx_screen *x, int k)
{
    struct input_event e = fx_key(k);
    app_input(&x->a, &e);
}

static void mouse(struct fx_screen *x, enum mouse_action act, int col, int row)
{
    struct input_event e = fx_mouse(act, col, row, 0);
    app_input(&x->a, &e);
}

static int bright(rgb_t c)
{
    int r = rgb_r(c), g = rgb_g(c), b = rgb_b(c);
    return r > g ? (r > b ? r : b) : (g > b ? g : b);
}

static float saturation(rgb_t c)
{
    int r = rgb_r(c), g = rgb_g(c), b = rgb_b(c);
    int lo = r < g ? (r < b ? r : b) : (g < b ? g : b), hi = bright(c);
    return hi > 0 ? (float)(hi - lo) / (float)hi : 0.0f;
}

/* Hue in sixths of a turn (0 red, 1 yellow, ... 5 magenta). */
static int hue_sixth(rgb_t c)
{
    float r = (float)rgb_r(c), g = (float)rgb_g(c), b = (float)rgb_b(c);
    float hi = (float)bright(c), lo = fminf(r, fminf(g, b)), d = hi - lo, h;
    if (d <= 0.0f)
        return 0;
    if (hi == r)
        h = fmodf((g - b) / d + 6.0f, 6.0f);
    else if (hi == g)
        h = (b - r) / d + 2.0f;
    else
        h = (r - g) / d + 4.0f;
    return (int)(h + 0.5f) % 6;
}

/* The scene's total dye, from its statistics. */
static double total_dye(struct fx_screen *x)
{
    struct buf j;
    buf_init(&j);
    app_json(&x->a, &j, 0);
    const char *p = strstr(j.p, "\"dye\":");
    double v = p ? strtod(p + 6, NULL) : -1.0;
    buf_free(&j);
    return v;
}

/* Of the columns c0..c1, how many hold a pixel brighter than `level` within a
 * cell of row `row` (the canvas as last composed). */
static int lit_columns(struct fx_screen *x, int c0, int c1, int row, int level)
{
    const struct image *im = &x->f.img;
    int n = 0;
    for (int c = c0; c <= c1; c++) {
        bool lit = false;
        for (int y = 2 * row - 2; y <= 2 * row + 3 && !lit; y++)
            lit = y >= 0 && y < im->h && bright(image_get(im, c, y)) > level;
        n += lit;
    }
    return n;
}

/* Pixels of the canvas brighter than `level` and at least `sat` saturated. */
static int vivid_pixels(struct fx_screen *x, int level, float sat)
{
    const struct image *im = &x->f.img;
    int n = 0;
    for (int i = 0; i < im->w * im->h; i++)
        n += bright(im->px[i]) > level && saturation(im->px[i]) >= sat;
    return n;
}

/* A drag along `row` from col c0 to c1: press, `reports` drag reports evenly
 * spread over `seconds`, release, each delivered in the 30 fps frame it falls
 * in, as a terminal would. */
static void drag(struct fx_screen *x, int c0, int c1, int row, int reports, double seconds)
{
    mouse(x, MOUSE_PRESS, c0, row);
    int sent = 0, nframes = (int)(seconds * APP_REF_FPS + 0.5);
    for (int f = 1; f <= nframes; f++) {
        double t = (double)f / APP_REF_FPS;
        for (; sent < reports && (double)(sent + 1) * seconds / reports <= t + 1e-9; sent++)
            mouse(x, MOUSE_DRAG, c0 + (c1 - c0) * (sent + 1) / reports, row);
        frames(x, 1);
    }
    mouse(x, MOUSE_RELEASE, c1, row);
}

TEST(dye_first_frame_shows_bright_saturated_splats)
{
    struct fx_screen x;
    init(&x, 100, 30);
    fx_screen_compose(&x);
    int vivid = vivid_pixels(&x, 200, 0.6f);
    CHECK_MSG(vivid >= 250, "%d vivid pixels in the first frame", vivid);
    /* Half a second on, they are still bright. */
    frames(&x, 15);
    fx_screen_compose(&x);
    vivid = vivid_pixels(&x, 200, 0.6f);
    CHECK_MSG(vivid >= 250, "%d vivid pixels after 0.5 s", vivid);
    fx_screen_close(&x);
}

TEST(dye_burst_is_bright_and_saturated)
{
    struct fx_screen x;
    init(&x, 100, 30);
    frames(&x, 60);
    key(&x, 'c');
    key(&x, 'b');
    frames(&x, 1);
    fx_screen_compose(&x);
    int vivid = vivid_pixels(&x, 200, 0.6f);
    CHECK_MSG(vivid >= 300, "%d vivid pixels after b", vivid);
    fx_screen_close(&x);
}

/* The drag: 40 reports across 80 columns in 0.4 s, looked at 0.3 s
 * after the release. */
TEST(dye_fast_drag_leaves_a_ribbon_along_its_whole_path)
{
    struct fx_screen x;
    init(&x, 100, 30);
    key(&x, 'c');
    frames(&x, 1);
    drag(&x, 9, 89, 4, 40, 0.4);
    frames(&x, 9);
    fx_screen_compose(&x);
    int lit = lit_columns(&x, 9, 89, 4, 160);
    CHECK_MSG(lit >= 81 * 8 / 10, "%d of 81 columns brighter than 160", lit);
    /* The first fifth of the path too, not only its end (its first columns are
     * the ribbon's rounded end, a radius of fading dye). */
    int head = lit_columns(&x, 9, 25, 4, 160);
    CHECK_MSG(head >= 13, "%d of the first 17 columns brighter than 160", head);
    fx_screen_close(&x);
}

/* Reports that arrive in one frame with the release still count: the ribbon
 * reaches where the button went up. */
TEST(dye_stroke_reaches_where_the_button_went_up)
{
    struct fx_screen x;
    init(&x, 100, 30);
    key(&x, 'c');
    frames(&x, 1);
    mouse(&x, MOUSE_PRESS, 10, 10);
    frames(&x, 1);
    mouse(&x, MOUSE_DRAG, 20, 10);
    frames(&x, 1);
    for (int c = 24; c <= 60; c += 4)
        mouse(&x, MOUSE_DRAG, c, 10);
    mouse(&x, MOUSE_RELEASE, 60, 10);
    frames(&x, 2);
    fx_screen_compose(&x);
    int lit = lit_columns(&x, 21, 57, 10, 160);
    CHECK_MSG(lit >= 35, "%d of the last 37 columns brighter than 160", lit);
    fx_screen_close(&x);
}

/* Dye per distance: a stroke across the screen in half a second lays as much
 * dye, as brightly, as the same stroke in three seconds (no decay, so time does
 * not count against the slow one). */
TEST(dye_fast_and_slow_strokes_lay_the_same_dye)
{
    double dye[2];
    int lit[2];
    const double secs[2] = {0.5, 3.0};
    for (int k = 0; k < 2; k++) {
        struct fx_screen x;
        init(&x, 100, 30);
        const struct scene_ops *s = app_scene(&x.a);
        int decay = scene_param_find(s, "dye-decay");
        CHECK(decay >= 0 && scene_param_set(s, x.a.st[0], decay, 0.0) == 0);
        key(&x, 'c');
        frames(&x, 1);
        drag(&x, 9, 89, 14, (int)(secs[k] * 100), secs[k]);
        frames(&x, 1);
        fx_screen_compose(&x);
        dye[k] = total_dye(&x);
        lit[k] = lit_columns(&x, 9, 89, 14, 160);
        fx_screen_close(&x);
    }
    CHECK_MSG(dye[0] > 0.0 && dye[0] >= 0.8 * dye[1] && dye[0] <= 1.25 * dye[1],
              "dye laid: %g fast, %g slow", dye[0], dye[1]);
    CHECK_MSG(lit[0] >= 65 && lit[1] >= 65, "columns brighter than 160: %d fast, %d slow", lit[0],
              lit[1]);
}

/* A button held still keeps feeding a bloom that grows. */
TEST(dye_holding_still_grows_a_bloom)
{
    struct fx_screen x;
    init(&x, 100, 30);
    key(&x, 'c');
    frames(&x, 1);
    mouse(&x, MOUSE_PRESS, 50, 14);
    double dye[3];
    int area[3];
    for (int k = 0; k < 3; k++) {
        frames(&x, 20);
        fx_screen_compose(&x);
        dye[k] = total_dye(&x);
        area[k] = vivid_pixels(&x, 160, 0.5f);
    }
    mouse(&x, MOUSE_RELEASE, 50, 14);
    CHECK_MSG(dye[0] > 0.0 && dye[1] > dye[0] && dye[2] > dye[1], "dye %g %g %g", dye[0],
              dye[1], dye[2]);
    CHECK_MSG(area[0] >= 10 && area[1] > area[0] && area[2] > area[1], "bright area %d %d %d",
              area[0], area[1], area[2]);
    fx_screen_close(&x);
}

/* Stirred for a while, with bursts mixing in: what is lit stays coloured. */
TEST(dye_colours_stay_saturated_as_they_mix_and_fade)
{
    struct fx_screen x;
    init(&x, 100, 30);
    x.a.auto_on = true;
    int lit = 0, grey = 0, white = 0;
    for (int k = 0; k < 8; k++) {
        frames(&x, 30);
        if (k % 3 == 1)
            key(&x, 'b');
        fx_screen_compose(&x);
        const struct image *im = &x.f.img;
        for (int i = 0; i < im->w * im->h; i++) {
            rgb_t c = im->px[i];
            if (bright(c) <= 60)
                continue;
            lit++;
            grey += saturation(c) < 0.35f;
            white += rgb_r(c) > 200 && rgb_g(c) > 200 && rgb_b(c) > 200;
        }
    }
    CHECK_MSG(lit > 8000, "%d lit pixels", lit);
    CHECK_MSG(grey * 20 <= lit, "%d of %d lit pixels greyish", grey, lit);
    CHECK_MSG(white * 100 <= lit, "%d of %d lit pixels white", white, lit);
    fx_screen_close(&x);
}

/* One long stroke shows several colours. */
TEST(dye_hue_cycles_along_a_long_stroke)
{
    struct fx_screen x;
    init(&x, 100, 30);
    key(&x, 'c');
    frames(&x, 1);
    drag(&x, 5, 94, 8, 60, 1.0);
    frames(&x, 1);
    fx_screen_compose(&x);
    int bins[6] = {0}, n = 0, used = 0;
    const struct image *im = &x.f.img;
    for (int i = 0; i < im->w * im->h; i++)
        if (bright(im->px[i]) > 160 && saturation(im->px[i]) > 0.5f) {
            bins[hue_sixth(im->px[i])]++;
            n++;
        }
    for (int b = 0; b < 6; b++)
        used += bins[b] * 10 >= n; /* a tenth of the ribbon or more */
    CHECK_MSG(n > 200 && used >= 3, "%d bright pixels, hues %d %d %d %d %d %d", n, bins[0],
              bins[1], bins[2], bins[3], bins[4], bins[5]);
    fx_screen_close(&x);
}

/* Shading is a parameter, on by default; off, the same run draws differently
 * and the solver does the same. */
TEST(dye_shading_is_a_parameter_that_changes_only_the_picture)
{
    struct fx_screen x[2];
    for (int k = 0; k < 2; k++) {
        init(&x[k], 60, 20);
        const struct scene_ops *s = app_scene(&x[k].a);
        int sh = scene_param_find(s, "shading");
        CHECK(sh >= 0);
        if (sh < 0)
            return;
        CHECK(s->params[sh].type == PARAM_BOOL);
        CHECK(scene_param_get(s, x[k].a.st[0], sh) == 1.0);
        if (k == 1)
            CHECK(scene_param_set(s, x[k].a.st[0], sh, 0.0) == 0);
        x[k].a.auto_on = true;
        frames(&x[k], 30);
        fx_screen_compose(&x[k]);
    }
    CHECK(total_dye(&x[0]) == total_dye(&x[1]));
    size_t np = (size_t)x[0].f.img.w * (size_t)x[0].f.img.h;
    CHECK(memcmp(x[0].f.img.px, x[1].f.img.px, np * sizeof(rgb_t)) != 0);
    fx_screen_close(&x[0]);
    fx_screen_close(&x[1]);
}

/* A dye scene on the canvas of a cols x rows terminal, with its grid (0: the
 * scene's own), drawn at px image pixels a canvas pixel, after `frames`
 * frames of the autopilot's stroke; its image of that size. */
static void *stroked_dye(int cols, int rows, int grid_w, int grid_h, int px, int frames,
                         struct image *im)
{
    const struct scene_opts o = {.seed = 1, .grid_w = grid_w, .grid_h = grid_h, .px_scale = px};
    void *st = fx_scene_create(&scene_dye, &o, cols, rows, im);
    if (!st)
        return NULL;
    const int w = im->w, h = im->h;
    float lx = 0.0f, ly = 0.0f;
    bool was = false;
    for (int f = 0; f < frames; f++) {
        float x, y;
        bool down;
        int button;
        scene_dye.autopilot(st, (double)f / 30.0, w, h, &x, &y, &down, &button);
        float path[4] = {was ? lx : x, was ? ly : y, x, y};
        const struct pointer p = {.down = down, .button = button, .pressed = down && !was,
                                  .released = !down && was, .x0 = path[0], .y0 = path[1],
                                  .x1 = x, .y1 = y, .path = path, .npath = 2,
                                  .vx = (x - path[0]) * 30.0f, .vy = (y - path[1]) * 30.0f,
                                  .dt = 1.0f / 30.0f};
        for (int k = 0; k < scene_dye.steps_per_frame(st); k++)
            scene_dye.step(st, &p);
        lx = x, ly = y, was = down;
    }
    image_resize(im, px * w, px * h);
    return st;
}

/* How two pictures of one size differ: the mean difference a channel, and the
 * pixels where some channel is more than 8 apart. */
static void picture_diff(const struct image *a, const struct image *b, double *mean, int *far)
{
    double sum = 0.0;
    *far = 0;
    const size_t n = (size_t)a->w * (size_t)a->h;
    for (size_t i = 0; i < n; i++) {
        const int d[3] = {abs(rgb_r(a->px[i]) - rgb_r(b->px[i])),
                          abs(rgb_g(a->px[i]) - rgb_g(b->px[i])),
                          abs(rgb_b(a->px[i]) - rgb_b(b->px[i]))};
        sum += d[0] + d[1] + d[2];
        *far += d[0] > 8 || d[1] > 8 || d[2] > 8;
    }
    *mean = sum / (3.0 * (double)n);
}

TEST(dye_draw_lights_a_fine_image_as_its_canvas)
{
    /* Where the image is finer than the grid and the canvas, the relief's
     * light is worked out at the canvas's pixels and taken up to the image.
     * Against every pixel lit itself, the same scene after a stroke: in
     * quadrants on a grid the size of the canvas (as a large terminal's) and on
     * a coarse --grid (2.5 canvas pixels a cell) the pictures are close (a
     * mean 0.7 of a channel apart, an eighth to a fifth of the lit pixels more
     * than 8 in some channel, at the edges of the relief; the light twice as
     * steep: 1.5-1.7 and a third or more); in half-blocks on that grid (the
     * image no finer than the canvas) they are the same. */
    static const struct {
        int cols, rows, gw, gh, px;
        bool same;
    } cases[] = {{120, 40, 120, 78, 2, false}, {120, 40, 48, 31, 2, false},
                 {120, 40, 48, 31, 1, true}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct image im, every;
        void *st = stroked_dye(cases[c].cols, cases[c].rows, cases[c].gw, cases[c].gh,
                               cases[c].px, 45, &im);
        if (!st)
            return;
        struct dye *d = st;
        image_init(&every, im.w, im.h);
        scene_dye.draw(st, &im);
        d->every_pixel = true;
        scene_dye.draw(st, &every);
        d->every_pixel = false;
        int lit = 0;
        for (int i = 0; i < im.w * im.h; i++)
            lit += bright(every.px[i]) > 60;
        double mean;
        int far;
        picture_diff(&im, &every, &mean, &far);
        CHECK_MSG(lit * 10 > im.w * im.h, "case %zu: %d of %d pixels lit", c, lit, im.w * im.h);
        if (cases[c].same)
            CHECK_MSG(mean == 0.0, "case %zu: the pictures differ by %.2f a channel", c, mean);
        CHECK_MSG(mean <= 1.0, "case %zu: the pictures differ by %.2f a channel", c, mean);
        CHECK_MSG(far * 4 <= lit, "case %zu: %d pixels differ by more than 8 (%d lit)", c, far,
                  lit);
        scene_dye.destroy(st);
        image_free(&im);
        image_free(&every);
    }
}

TEST(dye_draw_lights_a_smooth_field_as_every_pixel)
{
    /* Dye in waves a few canvas pixels long: the light taken up from the
     * canvas's pixels is close to the light of every pixel, in quadrants on a
     * grid the size of the canvas (5 levels apart at most, 334 pixels of
     * 37,440 more than 2; the light taken from the nearest canvas pixel
     * across: 7 and 1,370). On a coarse --grid every pixel's light is the
     * faceted slope of the cells about it, so there it is only as close as
     * 13 and 3,720. */
    static const struct {
        int gw, gh, worst, off; /* off: pixels more than 2 apart, in thousandths */
    } grids[] = {{120, 78, 5, 15}, {48, 31, 14, 110}};
    for (size_t c = 0; c < sizeof grids / sizeof grids[0]; c++) {
        struct image im, every;
        void *st = stroked_dye(120, 40, grids[c].gw, grids[c].gh, 2, 0, &im);
        if (!st)
            return;
        struct dye *d = st;
        const int dw = d->f.dw, dh = d->f.dh;
        for (int j = 0; j < dh; j++)
            for (int i = 0; i < dw; i++) {
                const float x = (float)i * 120.0f / (float)dw, y = (float)j * 78.0f / (float)dh;
                const float a = 1.2f + sinf(x / 5.0f) * cosf(y / 5.0f);
                float *p = d->f.dye + 3 * ((size_t)j * (size_t)dw + (size_t)i);
                p[0] = a, p[1] = 0.4f * a, p[2] = 0.8f + 0.3f * sinf(y / 11.0f);
            }
        image_init(&every, im.w, im.h);
        scene_dye.draw(st, &im);
        d->every_pixel = true;
        scene_dye.draw(st, &every);
        int worst = 0, off = 0;
        for (int y = 2; y < im.h - 2; y++)
            for (int x = 2; x < im.w - 2; x++) {
                const rgb_t p = im.px[y * im.w + x], q = every.px[y * im.w + x];
                const int e = abs(rgb_r(p) - rgb_r(q)) + abs(rgb_g(p) - rgb_g(q)) +
                              abs(rgb_b(p) - rgb_b(q));
                worst = e > worst ? e : worst;
                off += e > 2;
            }
        CHECK_MSG(worst <= grids[c].worst && off * 1000 <= grids[c].off * im.w * im.h,
                  "grid %zu: pixels differ by up to %d, %d by more than 2", c, worst, off);
        scene_dye.destroy(st);
        image_free(&im);
        image_free(&every);
    }
}

/* ---- end to end ------------------------------------------------------------ */

static void sleep_until(double t) { fx_nap(t - buf_now()); }

/* The brightest channel of a captured colour (-1 unless truecolor). */
static int brightest(int colour)
{
    if (colour == E2E_DEFAULT || !(colour & E2E_RGB))
        return -1;
    int r = colour >> 16 & 255, g = colour >> 8 & 255, b = colour & 255;
    return r > g ? (r > b ? r : b) : (g > b ? g : b);
}

/* The brightest channel of each cell's pixels in rows [r0,r1] of a capture
 * (e2e_cells, e2e_pixels): out[col] is the maximum over those rows, for the
 * first max columns; returns the number of columns seen. */
static int capture_brightness(const char *text, int r0, int r1, int *out, int max)
{
    struct e2e_cell *cells = malloc((size_t)max * (size_t)(r1 + 1) * sizeof *cells);
    int seen = 0;
    memset(out, 0, (size_t)max * sizeof *out);
    if (!cells)
        return 0;
    e2e_cells(text, cells, max, r1 + 1);
    for (int row = r0; row <= r1; row++)
        for (int col = 0; col < max; col++) {
            const struct e2e_cell *c = &cells[row * max + col];
            int top, bot;
            e2e_pixels(c, &top, &bot);
            int m = brightest(top) > brightest(bot) ? brightest(top) : brightest(bot);
            out[col] = m > out[col] ? m : out[col];
            if (c->ch != ' ' || c->bg != E2E_DEFAULT)
                seen = col + 1 > seen ? col + 1 : seen;
        }
    free(cells);
    return seen;
}

/* Columns of rows [r0,r1] with a pixel brighter than level, for e2e_wait:
 * at least `lo` and at most `hi` of them. */
struct lit_query {
    int r0, r1, level, lo, hi;
    int seen;
};

static bool lit_in_range(const char *screen, void *arg)
{
    struct lit_query *q = arg;
    int m[512], n = capture_brightness(screen, q->r0, q->r1, m, 512);
    q->seen = 0;
    for (int c = 0; c < n; c++)
        q->seen += m[c] > q->level;
    return q->seen >= q->lo && q->seen <= q->hi;
}

TEST_E2E(e2e_dye_first_frame_shows_bright_splats)
{
    CHECK(e2e_start_swirl(100, 30, "COLORTERM=truecolor", ""));
    /* As soon as the canvas shows, bright splats are on it (within a second:
     * the first frames, not what stirring makes of them later). */
    CHECK(e2e_wait_for(e2e_screen, "38;2;"));
    struct lit_query q = {.r0 = 0, .r1 = 28, .level = 200, .lo = 30, .hi = 1000};
    CHECK_MSG(e2e_wait(e2e_screen, lit_in_range, &q, 1.0), "%d columns brighter than 200",
              q.seen);
    CHECK(e2e_wait_hud());
    e2e_send_key("q");
    e2e_stop();
}

/* The stroke along row 5 (1-based), columns 10 to 90, as a capture shows it:
 * how many of its columns are brighter than 160, and of its first 16. */
struct path_query {
    int lit, head;
};

static bool path_lit(const char *screen, void *arg)
{
    struct path_query *q = arg;
    int m[512], n = capture_brightness(screen, 3, 5, m, 512);
    q->lit = q->head = 0;
    for (int c = 9; c <= 89 && c < n; c++) {
        q->lit += m[c] > 160;
        q->head += c < 25 && m[c] > 160;
    }
    return q->lit >= 81 * 8 / 10 && q->head >= 12;
}

/* Sends the drag reports due by now as one batch (the driver's own calls take
 * time; a late report goes with the next one, as a busy terminal would send). */
static void send_due(int *sent, int total, double t0, double seconds, int c0, int c1, int row)
{
    char buf[1024];
    size_t n = 0;
    while (*sent < total && t0 + (double)(*sent + 1) * seconds / total <= buf_now() &&
           n + 32 < sizeof buf) {
        (*sent)++;
        n += (size_t)snprintf(buf + n, sizeof buf - n, "\x1b[<32;%d;%dM",
                              c0 + (c1 - c0) * *sent / total, row);
    }
    if (n)
        e2e_send_bytes(buf);
}

TEST_E2E(e2e_dye_fast_drag_is_bright_along_its_path)
{
    CHECK(e2e_start_swirl(100, 30, "COLORTERM=truecolor", ""));
    CHECK(e2e_wait_hud());
    e2e_send_key("c");
    struct lit_query dark = {.r0 = 3, .r1 = 5, .level = 160, .lo = 0, .hi = 0};
    CHECK_MSG(e2e_wait(e2e_screen, lit_in_range, &dark, E2E_DEADLINE),
              "%d columns still bright after c", dark.seen);
    /* 40 reports across 80 columns in 0.4 s along row 5 (1-based). */
    e2e_send_bytes("\x1b[<0;10;5M");
    double t0 = buf_now();
    int sent = 0;
    while (sent < 40) {
        sleep_until(t0 + (double)(sent + 1) * 0.01);
        send_due(&sent, 40, t0, 0.4, 10, 90, 5);
    }
    e2e_send_bytes("\x1b[<0;90;5m");
    double released = buf_now();
    /* Paused as soon as the drag ends, so that the stroke is judged as it was
     * laid, whenever a busy machine lets the screen be read (the dye fades
     * while the scene runs: a capture a second late found its head dimmed). */
    e2e_send_key("Space");
    struct path_query q = {0, 0};
    bool bright = e2e_wait(e2e_screen, path_lit, &q, E2E_DEADLINE);
    CHECK_MSG(bright || q.lit >= 81 * 8 / 10,
              "%d of 81 path columns brighter than 160 (a %.2f s drag)", q.lit,
              released - t0);
    CHECK_MSG(bright || q.head >= 12, "%d of the path's first 16 columns brighter than 160",
              q.head);
    e2e_send_key("q");
    e2e_stop();
}

/* The share of the canvas lit (its brightest channel at 48 or more). */
static double lit_share(struct fx_screen *x)
{
    fx_screen_compose(x);
    const struct image *im = &x->f.img;
    int lit = 0;
    for (int i = 0; i < im->w * im->h; i++)
        lit += bright(im->px[i]) >= 48;
    return (double)lit / (double)(im->w * im->h);
}

TEST(dye_is_never_black_while_it_waits_for_a_hand)
{
    /* Left alone from the start, and after a hand's stroke and its release:
     * the start's splats (or the stroke) fade, and the autopilot takes over
     * before they are gone, so a twentieth of the canvas at least stays lit
     * at every quarter second of the next 8 s (at least 14 % alone, 5.7 %
     * after one stroke along a row; it went black from 4.5 to 5 s, 0 %, when
     * the autopilot waited 5 s). */
    for (int hand = 0; hand < 2; hand++) {
        struct fx_screen x;
        init(&x, 100, 30);
        if (hand) {
            frames(&x, 45); /* the start's splats mostly gone, a stroke along row 20 */
            key(&x, 'c');
            drag(&x, 10, 90, 20, 20, 1.0);
        }
        double least = 1.0, at = 0.0;
        for (int f = 0; f <= 8 * APP_REF_FPS; f += APP_REF_FPS / 4) {
            double share = lit_share(&x);
            if (share < least)
                least = share, at = (double)f / APP_REF_FPS;
            frames(&x, APP_REF_FPS / 4);
        }
        CHECK_MSG(least >= 0.05, "%s: %.1f %% lit at %.2f s", hand ? "after a stroke" : "alone",
                  100.0 * least, at);
        fx_screen_close(&x);
    }
}

/* A window of thousands of columns (the largest a terminal may have, 2000 x
 * 1000): neither of the dye's grids takes more than a 600 x 250 terminal's
 * canvas, so a step stays a step and the frames keep coming; the picture is
 * drawn between the cells, whole. Below that size the dye is the canvas. */
TEST(dye_grids_stop_growing_for_a_huge_window)
{
    struct scene_opts so = {.seed = 1};
    void *p = scenes[0]->create(&so, 2000, 1998);
    CHECK(p != NULL);
    if (!p)
        return;
    const struct dye *d = p;
    CHECK_MSG((long)d->f.dw * d->f.dh <= 300000 && (long)d->f.nx * d->f.ny <= 300000,
              "dye %dx%d, velocity %dx%d", d->f.dw, d->f.dh, d->f.nx, d->f.ny);
    CHECK(d->f.dw > 400 && d->f.dh > 400); /* and not coarser than it must be */
    scenes[0]->resize(p, 600, 498);
    CHECK_MSG(d->f.dw == 600 && d->f.dh == 498, "dye %dx%d", d->f.dw, d->f.dh);
    scenes[0]->destroy(p);
}
