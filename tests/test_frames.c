/*
 * test_frames.c — whole frames (the steps, the scene's drawing, the blit with
 * its fit, the encoding) give the same bits on any number of threads: each
 * scene under --auto in each glyph set, the canvas's pixels and the bytes of
 * every frame compared between one solver thread and three.
 */
#include "test.h"
#include "frame.h"

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
