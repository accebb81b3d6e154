/*
 * test_degrade.c — what a person sees when swirl has to give, on virtual
 * time: each scene's real frames behind a simulated link (simscreen.h), the
 * terminal's screen judged against the picture.
 */
#include "compose.h"
#include "fixtures.h"
#include "frame.h"
#include "scene.h"
#include "simscreen.h"
#include "test.h"

#include <string.h>

static void give(int sc, double rate, double rtt, double seconds, double warm,
                 const struct simscreen_cfg *extra, struct simlink_result *r,
                 struct simscreen_seen *seen)
{
    struct simscreen_cfg s = {.scene = sc, .cols = 80, .rows = 24};
    if (extra)
        s.pause_at = extra->pause_at, s.clear_at = extra->clear_at,
        s.exact_err = extra->exact_err;
    struct simlink_cfg c = {.rate = rate, .down = rtt / 2, .up = rtt / 2, .seconds = seconds,
                            .warm = warm, .answered_probe = true};
    if (extra && extra->clear_at > 0.0)
        c.rate2 = 10e6, c.t_change = extra->clear_at;
    CHECK(simscreen_run(&s, &c, r, seen) == 0);
}

/* At 20 KB/s (80x24, 100 ms away) every scene's picture gets coarser, every
 * frame whole: no cell shows a picture more than a second old, the level
 * settles (at most a change in 10 s), the colours stay 24-bit, and frames
 * keep coming. */
TEST(degrade_a_slow_link_leaves_nothing_stale)
{
    for (int sc = 0; sc < SCENE_COUNT; sc++) {
        struct simlink_result r;
        struct simscreen_seen seen;
        give(sc, 20e3, 0.1, 30.0, 8.0, NULL, &r, &seen);
        CHECK_MSG(seen.stale_max <= SIMSCREEN_STALE && seen.stale == 0.0,
                  "%s: a cell showed a picture %.2f s old", scenes[sc]->name, seen.stale_max);
        CHECK_MSG(seen.level > 0 && !seen.fewer_colours, "%s: level %d%s", scenes[sc]->name,
                  seen.level, seen.fewer_colours ? ", 256 colours" : "");
        CHECK_MSG(seen.changes <= 60.0 / 10.0, "%s: %.1f changes a minute", scenes[sc]->name,
                  seen.changes);
        CHECK_MSG(r.fps >= 5.0, "%s: %.1f fps", scenes[sc]->name, r.fps);
    }
}

/* Paused behind a slow link, the picture (a coarse one) becomes exact within
 * two seconds of the link clearing: the paused picture goes on being sent, a
 * level at a time, as the link carries it. */
TEST(degrade_a_paused_picture_becomes_exact_once_the_link_clears)
{
    for (int sc = 0; sc < SCENE_COUNT; sc++) {
        struct simscreen_cfg x = {.pause_at = 9.0, .clear_at = 10.0, .exact_err = 0.01};
        struct simlink_result r;
        struct simscreen_seen seen;
        give(sc, 20e3, 0.1, 14.0, 8.0, &x, &r, &seen);
        CHECK_MSG(seen.exact_t >= 0.0 && seen.exact_t <= 2.0,
                  "%s: exact %.2f s after the link cleared (error %.2f at the end)",
                  scenes[sc]->name, seen.exact_t, seen.end_err);
        CHECK_MSG(seen.level == 0, "%s: level %d", scenes[sc]->name, seen.level);
    }
}

/* Moving, behind a slow link that clears, the picture is as exact as on a
 * fast link at that round trip within two seconds: the rate is probed, the
 * ladder climbs through the rungs that fit even at the busiest the picture
 * was behind the slow link. (When a failed trial of the top rung was tried
 * again and again, never a rung between, the water stayed coarse.) */
TEST(degrade_a_moving_picture_is_whole_again_once_the_link_clears)
{
    for (int sc = 0; sc < SCENE_COUNT; sc++) {
        struct simlink_result r;
        struct simscreen_seen fast, seen;
        give(sc, 0.0, 0.1, 5.0, 2.0, NULL, &r, &fast);
        struct simscreen_cfg x = {.clear_at = 5.0, .exact_err = fast.err + 0.5};
        give(sc, 20e3, 0.1, 8.0, 4.0, &x, &r, &seen);
        CHECK_MSG(seen.exact_t >= 0.0 && seen.exact_t <= 2.0,
                  "%s: as exact as on a fast link (error %.1f) %.2f s after the link cleared",
                  scenes[sc]->name, fast.err, seen.exact_t);
    }
}

static double no_clock(void) { return 0.0; }

/* A picture of blocks keeps its still parts fine: the water's box, still
 * from the first frame, is drawn exactly as on a fast link once it has been
 * the same four frames running, while what moves (the water, under --auto)
 * is blocks; the first frame of blocks is blocks throughout. */
TEST(degrade_blocks_keep_what_is_still_fine)
{
    struct app_opts o;
    app_opts_default(&o);
    o.autopilot = true;
    o.scene = scene_find("pbf");
    struct fx_screen x;
    fx_screen_open(&x, &o, 60, 20);
    struct buf out;
    buf_init(&out);
    struct cells fine, was, blocks;
    cells_init(&fine, 60, 20);
    cells_init(&was, 60, 20);
    cells_init(&blocks, 60, 20);
    static unsigned char still[60 * 20];
    int kept = 0, coarse = 0;
    for (int k = 0; k < 12; k++) {
        x.f.st.block = (struct cells_block){6, 3, false}; /* as the ladder's 6x3 rung gives */
        buf_clear(&out);
        frame_next(&x.f, &x.a, 1.0 / 30, no_clock, false, &out);
        struct frame_stats st = x.f.st; /* the frame's canvas whole, and in blocks */
        st.block = (struct cells_block){0, 0, false};
        compose_blit(&x.a, &st, &x.f.img, &fine);
        compose_over(&x.a, &st, &fine); /* (the hint over the picture) */
        st.block = x.f.st.block;
        compose_blit(&x.a, &st, &x.f.img, &blocks);
        compose_over(&x.a, &st, &blocks);
        for (int i = 0; i < 60 * 19; i++) { /* (the status line's row aside) */
            const bool same = k > 0 && cells_same(&fine.c[i], &was.c[i]);
            still[i] = same ? (unsigned char)(still[i] + 1) : 0;
            const struct cell *c = &x.f.cells.c[i];
            const struct cell *want = still[i] >= 3 ? &fine.c[i] : &blocks.c[i];
            CHECK_MSG(cells_same(c, want), "frame %d, cell %d (still %d frames): %06x, not %06x", k,
                      i, still[i], (unsigned)c->bg, (unsigned)want->bg);
            if (k == 0)
                continue;
            kept += still[i] >= 3 && (fine.c[i].bg != blocks.c[i].bg || fine.c[i].ch != ' ');
            coarse += still[i] < 3 && fine.c[i].bg != blocks.c[i].bg;
        }
        memcpy(was.c, fine.c, sizeof *fine.c * 60 * 20);
    }
    CHECK_MSG(kept > 100 && coarse > 100, "%d still cells kept fine, %d moving ones coarse", kept,
              coarse);
    cells_free(&fine);
    cells_free(&was);
    cells_free(&blocks);
    buf_free(&out);
    fx_screen_close(&x);
}
