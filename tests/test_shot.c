/*
 * test_shot.c — the picture saved as a file (P, shot.c): read back, it is the
 * scene drawn afresh as fine as the window's pixels, without the status line; a
 * second picture never overwrites the first; the size is capped at a whole
 * number of pixels a canvas pixel; the status line says what became of it, and a directory that
 * cannot take it is said so. The key reaches it through a frame, which
 * knows the cells' pixels.
 */
#include "app.h"
#include "e2e.h"
#include "fixtures.h"
#include "frame.h"
#include "kitty.h"
#include "pixdecode.h"
#include "shot_internal.h"
#include "test.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static double fake_now;
static double fake_clock(void) { return fake_now; }

/* The cloth at cols x rows, a second in. */
static void open_cloth(struct fx_screen *x, int cols, int rows)
{
    struct app_opts o;
    app_opts_default(&o);
    o.sync = false;
    o.scene = 2;
    fx_screen_open(x, &o, cols, rows);
    for (int i = 0; i < 30; i++)
        fx_app_advance(&x->a, 1.0 / 30, fake_clock);
}

/* A fresh directory to work in (the test's own), entered; the one left in
 * `back`. A failed check where it cannot be. */
static bool enter_temp(char *dir, size_t cap, char *back, size_t back_cap)
{
    snprintf(dir, cap, "/tmp/swirl-shot-%d-XXXXXX", (int)getpid());
    const bool in = getcwd(back, back_cap) != NULL && mkdtemp(dir) != NULL && chdir(dir) == 0;
    CHECK_MSG(in, "no directory of its own to work in (%s)", dir);
    return in;
}

static void leave_temp(const char *dir, const char *back)
{
    CHECK(chdir(back) == 0);
    e2e_sh("rm -rf '%s'", dir);
}

/* The file's bytes (malloc'd), *n of them; NULL if it cannot be read. */
static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *p = malloc(1 << 24);
    *n = p ? fread(p, 1, 1 << 24, f) : 0;
    fclose(f);
    return p;
}

TEST(shot_is_the_scene_drawn_at_the_windows_pixels)
{
    if (!kitty_zlib())
        test_skip("built without zlib: the picture is a PPM");
    char dir[64], back[PATH_MAX];
    if (!enter_temp(dir, sizeof dir, back, sizeof back))
        return;
    struct fx_screen x;
    open_cloth(&x, 60, 20);
    char path[48];
    CHECK_INT(shot_save(&x.a, 7, path, sizeof path), 0);
    CHECK_MSG(strcmp(path, "swirl-cloth-1.png") == 0, "saved as %s", path);
    size_t n = 0;
    unsigned char *file = slurp(path, &n);
    struct image got, want;
    image_init(&got, 1, 1);
    const char *why = "";
    CHECK_MSG(file && px_png(file, n, &got, &why), "not a PNG: %s", why);
    /* 7 pixels a canvas pixel: 60 cells across, and 19 rows (the status
     * line's is not the scene's) of two canvas pixels down. */
    CHECK_INT(got.w, 60 * 7);
    CHECK_INT(got.h, 19 * 2 * 7);
    image_init(&want, got.w, got.h);
    app_scene(&x.a)->draw(x.a.st[x.a.cur], &want);
    CHECK_MSG(image_same(&got, &want), "the picture read back is not the scene drawn at %dx%d",
              got.w, got.h);
    int lit = 0; /* and it is the cloth, not a blank */
    for (int i = 0; i < got.w * got.h; i++)
        lit += rgb_b(got.px[i]) > 120;
    CHECK_MSG(lit > got.w * got.h / 20, "%d bright blue pixels of %d", lit, got.w * got.h);
    /* A second picture goes beside it. */
    CHECK_INT(shot_save(&x.a, 7, path, sizeof path), 0);
    CHECK_MSG(strcmp(path, "swirl-cloth-2.png") == 0, "saved as %s", path);
    size_t n2 = 0;
    unsigned char *again = slurp("swirl-cloth-1.png", &n2);
    CHECK_MSG(again && n2 == n && memcmp(again, file, n) == 0, "the first picture changed");
    free(again);
    free(file);
    image_free(&got);
    image_free(&want);
    fx_screen_close(&x);
    leave_temp(dir, back);
}

TEST(shot_size_is_capped_at_a_whole_scale)
{
    struct fx_screen x;
    open_cloth(&x, 100, 30);
    int w, h;
    shot_size(&x.a, 9, &w, &h);
    CHECK_INT(w, 900);
    CHECK_INT(h, 29 * 2 * 9);
    shot_size(&x.a, 0, &w, &h); /* not told: SHOT_K */
    CHECK_INT(w, 100 * SHOT_K);
    CHECK_INT(h, 29 * 2 * SHOT_K);
    shot_size(&x.a, 400, &w, &h); /* 40,000 x 23,200 asked: the most k within the cap */
    const long long k = w / 100;
    CHECK_MSG(w == 100 * k && h == 58 * k && (long long)w * h <= SHOT_MAX_PX &&
                  5800LL * (k + 1) * (k + 1) > SHOT_MAX_PX,
              "%dx%d", w, h);
    fx_screen_close(&x);
}

TEST(shot_key_saves_through_the_frame_and_says_so)
{
    char dir[64], back[PATH_MAX];
    if (!enter_temp(dir, sizeof dir, back, sizeof back))
        return;
    struct fx_screen x;
    open_cloth(&x, 80, 24);
    pixframe_cell(&x.f.px, 9, 18);
    struct buf out;
    buf_init(&out);
    struct input_event e = fx_key(' ');
    app_input(&x.a, &e);
    frame_next(&x.f, &x.a, 1.0 / 30, fake_clock, true, &out);
    e = fx_key('P');
    app_input(&x.a, &e);
    CHECK(frame_next(&x.f, &x.a, 1.0 / 30, fake_clock, true, &out) > 0);
    const bool png = kitty_zlib();
    const char *name = png ? "swirl-cloth-1.png" : "swirl-cloth-1.ppm";
    CHECK_MSG(access(name, F_OK) == 0, "no %s", name);
    char said[96];
    snprintf(said, sizeof said, "saved %s", name);
    CHECK_MSG(strstr(fx_row_text(&x, 23), said), "status line: %s", fx_row_text(&x, 23));
    size_t n = 0;
    unsigned char *file = slurp(name, &n);
    struct image got;
    image_init(&got, 1, 1);
    const char *why = "";
    if (png)
        CHECK_MSG(file && px_png(file, n, &got, &why) && got.w == 80 * 9 && got.h == 23 * 18,
                  "%s: %s, %dx%d", name, why, got.w, got.h);
    else
        CHECK_MSG(file && n == strlen("P6\n720 414\n255\n") + 720 * 414 * 3 &&
                  memcmp(file, "P6\n720 414\n255\n", 15) == 0, "%s: %zu bytes", name, n);
    free(file);
    image_free(&got);
    /* Paused, the note goes after a while, and the picture is sent again
     * without it. */
    for (int i = 0; i < (int)(APP_NOTE_SHOWN * 30) + 2; i++) {
        buf_clear(&out);
        frame_next(&x.f, &x.a, 1.0 / 30, fake_clock, false, &out);
    }
    CHECK_MSG(!strstr(fx_row_text(&x, 23), "saved"), "status line: %s", fx_row_text(&x, 23));
    /* Where nothing can be written, the status line says why. */
    e2e_sh("rm -rf '%s'", dir); /* the working directory is gone */
    app_input(&x.a, &e);
    frame_next(&x.f, &x.a, 1.0 / 30, fake_clock, true, &out);
    CHECK_MSG(strstr(fx_row_text(&x, 23), "not saved: No such file"), "status line: %s",
              fx_row_text(&x, 23));
    buf_free(&out);
    fx_screen_close(&x);
    leave_temp(dir, back);
}
