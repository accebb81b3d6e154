/*
 * test_pbf_clock.c — the water's clock after 10^8 steps (5.8 days of the
 * seed's dt; 4.8 days at 240 steps a second), started there rather than run
 * there: the solver's time and the scene's status line and statistics still
 * move by a step's dt a step, as a screensaver left on for days needs. (A
 * float clock has stopped long before: from 131,072 s a step of 0.005 s
 * rounds away.)
 */
#include "buf.h"
#include "fixtures.h"
#include "pbf.h"
#include "scene.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TEST(pbf_clock_keeps_time_after_1e8_steps)
{
    struct pbf s;
    fx_pbf_seed(&s);
    const double dt = s.prm.dt, start = 1e8 * dt;
    s.time = start;
    for (int k = 1; k <= 40; k++) {
        pbf_step(&s);
        CHECK(s.time == start + k * dt);
    }
    pbf_free(&s);
}

/* The "t" of the scene's statistics, or -1. */
static double json_t(void *st)
{
    struct buf b;
    buf_init(&b);
    scene_pbf.json(st, &b);
    buf_putc(&b, 0);
    const char *at = strstr(b.p, "\"t\":");
    const double t = at ? strtod(at + 4, NULL) : -1.0;
    buf_free(&b);
    return t;
}

TEST(pbf_scene_statistics_keep_time_after_1e8_steps)
{
    struct fx_pbf x;
    CHECK(fx_pbf_open(&x, 60, 20, false, NULL));
    struct pbf *s = scene_pbf.member(x.st, "pbf");
    const double dt = s->prm.dt;
    s->time = 1e8 * dt;
    const double before = json_t(x.st);
    fx_pbf_frames(&x, 5, false);
    const int steps = 5 * scene_pbf.steps_per_frame(x.st);
    CHECK_NEAR(json_t(x.st) - before, steps * dt, 1e-4);
    char hud[128], want[32];
    scene_pbf.hud(x.st, hud, sizeof hud);
    snprintf(want, sizeof want, "t %.2fs", s->time);
    CHECK_MSG(strncmp(hud, want, strlen(want)) == 0, "status: %s", hud);
    fx_pbf_close(&x);
}
