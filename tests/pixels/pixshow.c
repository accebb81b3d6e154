/*
 * pixshow.c — one scene in the terminal's own pixels, for a look in a real
 * terminal (kitty, xterm -ti vt340, mlterm) under Xvfb: the scene under
 * --auto for a number of frames at 30 a second, each drawn at K image
 * pixels a canvas pixel (a canvas pixel is half a cell), encoded by kitty.c
 * or sixel.c and written inside synchronized output; a line of text with a
 * background and one without over the picture; then it waits and leaves
 * the screen as it found it (kitty: every image deleted).
 *
 *   build/pixshow PROTOCOL SCENE COLS ROWS K [SCALE [FRAMES [HOLD]]]
 *
 * PROTOCOL: kitty (RGB, deflated), kitty-png, kitty-png8, sixel (median
 * cut) or sixel-cube; or half, quad, sextant: the same frames in glyphs
 * (the scene drawn at its glyph set's scale, K ignored), for pictures side
 * by side.
 *
 * SCENE "pattern": a test card instead (hues across, light down, a grid).
 * SCALE: sixel's pixel repetition; HOLD: seconds to wait at the end;
 * PIXSHOW_TOP=N in the environment puts the picture's top at row N (from 0);
 * PIXSHOW_8452=1 sets xterm's mode 8452 (after a sixel image the cursor is
 * at its right, on its last row, instead of below it); PIXSHOW_DONE=FILE:
 * FILE is made once the last frame is written (a screenshot's cue). Never
 * installed, and no test runs it: it is for eyes and screenshots.
 */
#include "app.h"
#include "encode.h"
#include "frame.h"
#include "kitty.h"
#include "scene.h"
#include "sixel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A test card: hue across, lighter downwards, a white grid every 16 pixels
 * and a one-pixel checkerboard in the top left corner. */
static void pattern(struct image *im, int f)
{
    for (int y = 0; y < im->h; y++)
        for (int x = 0; x < im->w; x++) {
            rgb_t c = rgb_hsl((float)(x + 2 * f) / (float)im->w, 0.9f,
                              0.15f + 0.7f * (float)y / (float)im->h);
            if (x % 16 == 0 || y % 16 == 0)
                c = RGB(255, 255, 255);
            if (x < 32 && y < 32)
                c = (x + y) % 2 ? RGB(255, 255, 255) : RGB(0, 0, 0);
            im->px[(size_t)y * (size_t)im->w + (size_t)x] = c;
        }
}

static void put_out(struct buf *b)
{
    buf_write_fd(1, b->p, b->len, 5.0);
    buf_clear(b);
}

static void nap(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: pixshow kitty|kitty-png|kitty-png8|sixel|sixel-cube SCENE COLS "
                        "ROWS K [SCALE [FRAMES [HOLD]]]\n");
        return 2;
    }
    const char *proto = argv[1];
    const int cols = atoi(argv[3]), rows = atoi(argv[4]), k = atoi(argv[5]);
    const int repeat = argc > 6 ? atoi(argv[6]) : 1, frames = argc > 7 ? atoi(argv[7]) : 60;
    const double hold = argc > 8 ? atof(argv[8]) : 5.0;
    struct app_opts o;
    app_opts_default(&o);
    o.autopilot = true;
    o.threads = 1;
    const bool card = strcmp(argv[2], "pattern") == 0;
    o.scene = card ? 0 : scene_find(argv[2]);
    if (o.scene < 0 || cols < 20 || rows < 6 || k < 1) {
        fprintf(stderr, "pixshow: bad arguments\n");
        return 2;
    }
    struct app a;
    if (app_init(&a, &o, cols, rows) != 0)
        return 1;
    const bool kitty = strncmp(proto, "kitty", 5) == 0;
    const int glyphs = strcmp(proto, "half") == 0      ? GLYPHS_HALF
                       : strcmp(proto, "quad") == 0    ? GLYPHS_QUAD
                       : strcmp(proto, "sextant") == 0 ? GLYPHS_SEXTANT
                                                       : -1;
    struct encoder enc;
    encode_init(&enc, COLOR_TRUE, 0, false);
    struct cells cells;
    cells_init(&cells, cols, app_canvas_rows(&a));
    struct kitty kt;
    struct sixel sx;
    kitty_init(&kt, KITTY_ID,
               strcmp(proto, "kitty-png") == 0    ? KITTY_PNG
               : strcmp(proto, "kitty-png8") == 0 ? KITTY_PNG8
                                                  : KITTY_RGB,
               1);
    sixel_init(&sx, strcmp(proto, "sixel-cube") == 0 ? QUANT_CUBE : QUANT_MEDIAN, 256);
    sx.scale = repeat;
    struct image im;
    const int scale = glyphs >= 0 ? cells_scale((enum glyph_set)glyphs) : k;
    image_init(&im, scale * app_canvas_w(&a), scale * app_canvas_h(&a));
    struct buf b;
    buf_init(&b);
    buf_puts(&b, "\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J");
    if (getenv("PIXSHOW_8452")) /* sixel: the cursor to the image's right, not below */
        buf_puts(&b, "\x1b[?8452h");
    put_out(&b);
    const int prow = app_canvas_rows(&a); /* the picture's rows */
    const int top = getenv("PIXSHOW_TOP") ? atoi(getenv("PIXSHOW_TOP")) : 0; /* its first */
    for (int f = 0; f < frames; f++) {
        const double t0 = frame_now();
        app_advance_within(&a, 1.0 / 30, frame_now, 0.0);
        if (card)
            pattern(&im, f);
        else
            app_scene(&a)->draw(a.st[a.cur], &im);
        buf_puts(&b, "\x1b[?2026h");
        if (glyphs >= 0) {
            cells_blit(&im, &cells, COLOR_TRUE, (enum glyph_set)glyphs);
            encode_frame(&enc, &cells, &b);
        } else if (kitty) {
            kitty_frame(&kt, &im, 0, top, cols, prow, &b);
        } else {
            sixel_frame(&sx, &im, 0, top, &b);
        }
        buf_printf(&b, "\x1b[2;3H\x1b[48;2;40;40;40m\x1b[38;2;255;255;255m text with a "
                       "background \x1b[0m\x1b[4;3H\x1b[38;2;255;255;0mtext on the default "
                       "background, frame %d, %zu bytes\x1b[0m\x1b[%d;1Hlast row", f, b.len,
                   rows);
        buf_puts(&b, "\x1b[?2026l");
        put_out(&b);
        const double left = 1.0 / 30 - (frame_now() - t0);
        if (left > 0)
            nap(left);
    }
    if (getenv("PIXSHOW_DONE")) { /* a file that says the last frame is out */
        FILE *done = fopen(getenv("PIXSHOW_DONE"), "w");
        if (done)
            fclose(done);
    }
    nap(hold);
    if (kitty)
        kitty_clear(&kt, &b);
    buf_puts(&b, "\x1b[?25h\x1b[?1049l");
    put_out(&b);
    buf_free(&b);
    image_free(&im);
    encode_free(&enc);
    cells_free(&cells);
    kitty_free(&kt);
    sixel_free(&sx);
    app_free(&a);
    return 0;
}
