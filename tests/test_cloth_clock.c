/*
 * test_cloth_clock.c — the cloth's clock after 10^8 steps (started there, not
 * run there): the solver's time and the scene's status line and statistics
 * still move by a step's dt a step (as test_pbf_clock.c for the water).
 */
#include "buf.h"
#include "cloth.h"
#include "scene.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TEST(cloth_clock_keeps_time_after_1e8_steps)
{
    struct cloth_params p;
    cloth_params_seed(&p);
    struct cloth c;
    CHECK_INT(cloth_init(&c, &p), 0);
    const double dt = p.dt, start = 1e8 * dt;
    c.time = start;
    for (int k = 1; k <= 40; k++) {
        cloth_step(&c);
        CHECK(c.time == start + k * dt);
    }
    cloth_free(&c);
}

/* The "t" of the scene's statistics, or -1. */
static double json_t(void *st)
{
    struct buf b;
    buf_init(&b);
    scene_cloth.json(st, &b);
    buf_putc(&b, 0);
    const char *at = strstr(b.p, "\"t\":");
    const double t = at ? strtod(at + 4, NULL) : -1.0;
    buf_free(&b);
    return t;
}

TEST(cloth_scene_statistics_keep_time_after_1e8_steps)
{
    const struct scene_opts o = {.seed = 1};
    void *st = scene_cloth.create(&o, 80, 46);
    CHECK(st != NULL);
    struct cloth *c = scene_cloth.member(st, "cloth");
    const double dt = c->prm.dt;
    c->time = 1e8 * dt;
    const double before = json_t(st);
    const float path[4] = {0};
    const struct pointer none = {.path = path, .npath = 2, .dt = 1.0f / 240.0f};
    for (int k = 0; k < 40; k++)
        scene_cloth.step(st, &none);
    CHECK_NEAR(json_t(st) - before, 40 * dt, 1e-4);
    char hud[128];
    scene_cloth.hud(st, hud, sizeof hud);
    char want[32];
    snprintf(want, sizeof want, "t %.2fs", c->time);
    CHECK_MSG(strncmp(hud, want, strlen(want)) == 0, "status: %s", hud);
    scene_cloth.destroy(st);
}
