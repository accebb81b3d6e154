/*
 * test_pixfit.c — the scale of a picture in pixels fitted to a frame's
 * budget (pixfit.c): the most the area holds, the first choice, steps down
 * once over the budget for a while (at once when far over), steps up one at
 * a time after the next has fitted with room for a while, no flipping on a
 * cost that wavers about a step, the encoding time's limit, glyphs only far
 * below a k = 1 frame and pixels back once it fits again, and a smaller area
 * taken at once.
 */
#include "pixfit.h"
#include "test.h"

#include <math.h>

/* A 100x30 terminal of 8x17 cells: the canvas 100x58, the area 800x493. */
static struct pixfit_in area(void)
{
    return (struct pixfit_in){800, 493, 100, 58, 0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
}

/* What a frame at k costs when one at k0 costs b (pixfit's model). */
static double model(double b, int k0, int k) { return b * pow((double)k / k0, PIXFIT_GROWTH); }

/* n frames at 30 a second from t, each measured at the scale chosen with a
 * k = 1 frame costing b1; returns the last choice, *changes how often it
 * changed. */
static int frames(struct pixfit *p, struct pixfit_in *in, double *t, int n, double b1,
                  int *changes)
{
    int k = p->k;
    for (int i = 0; i < n; i++, *t += 1.0 / 30) {
        if (p->k > 0) /* the frame just sent, at the scale it was drawn at */
            in->measured_k = p->k, in->frame_bytes = model(b1, 1, p->k);
        else
            in->measured_k = 0, in->frame_bytes = 0.0;
        const int now = pixfit_choose(p, in, *t);
        if (changes && now != k)
            (*changes)++;
        k = now;
    }
    return k;
}

TEST(pixfit_most_the_area_holds_and_the_first_choice)
{
    struct pixfit_in in = area();
    CHECK_INT(pixfit_max(&in), 8);
    in.area_h = 200; /* 3 rows' worth of pixels only: 200 / 58 */
    CHECK_INT(pixfit_max(&in), 3);
    in.area_w = 50; /* less than the canvas */
    CHECK_INT(pixfit_max(&in), 1);
    in = area();
    struct pixfit p;
    pixfit_init(&p);
    CHECK_INT(pixfit_choose(&p, &in, 0.0), 8); /* no budget: all of it */
    /* Measured at k = 2, 30 KB; a budget of 100 KB: k = 4 takes 91 KB, 5 130. */
    pixfit_init(&p);
    in.measured_k = 2, in.frame_bytes = 30000.0, in.budget = 100000.0;
    CHECK_NEAR(pixfit_bytes(&in, 4), 30000.0 * pow(2.0, PIXFIT_GROWTH), 1e-6);
    CHECK_INT(pixfit_choose(&p, &in, 0.0), 4);
    /* Nothing measured: the prior, PIXFIT_CELL_BYTES a cell at k = 1 (2900
     * cells: 10.2 KB), k^1.6 (k = 2: 30.8 KB, k = 3: 58.4 KB). */
    pixfit_init(&p);
    in = area();
    in.budget = 40000.0;
    CHECK_NEAR(pixfit_bytes(&in, 1), PIXFIT_CELL_BYTES * 2900.0, 1e-6);
    CHECK_INT(pixfit_choose(&p, &in, 0.0), 2);
}

TEST(pixfit_steps_down_after_a_while_over_and_at_once_far_over)
{
    struct pixfit_in in = area();
    in.budget = 100000.0;
    struct pixfit p;
    pixfit_init(&p);
    double t = 0.0;
    const double b1 = 100000.0 / pow(4.0, PIXFIT_GROWTH) / 1.05; /* k = 4 fits, just */
    CHECK_INT(frames(&p, &in, &t, 30, b1, NULL), 4);
    /* The frames cost 20 % more: k = 4 is over, not far: it stays a while. */
    const double over = b1 * 1.2;
    int changes = 0;
    CHECK_INT(frames(&p, &in, &t, 6, over, &changes), 4); /* 0.2 s */
    CHECK_INT(changes, 0);
    CHECK_INT(frames(&p, &in, &t, 3, over, &changes), 3); /* past PIXFIT_DOWN_AFTER */
    /* Three times the cost: k = 3 takes 1.8 budgets, more than PIXFIT_OVER:
     * down at once, to the largest that fits (k = 2: 0.94). */
    CHECK_INT(frames(&p, &in, &t, 1, b1 * 3.0, NULL), 2);
}

TEST(pixfit_steps_up_one_at_a_time_after_room_for_a_while)
{
    struct pixfit_in in = area();
    in.budget = 100000.0;
    struct pixfit p;
    pixfit_init(&p);
    double t = 0.0;
    const double b1 = 100000.0 / pow(2.0, PIXFIT_GROWTH) / 1.05; /* k = 2 */
    CHECK_INT(frames(&p, &in, &t, 10, b1, NULL), 2);
    /* The cost falls to a tenth: k = 5 would fit at once, but steps go one
     * at a time, each after PIXFIT_UP_AFTER of room. */
    int changes = 0;
    CHECK_INT(frames(&p, &in, &t, 28, b1 / 10, &changes), 2); /* 0.9 s */
    CHECK_INT(changes, 0);
    CHECK_INT(frames(&p, &in, &t, 4, b1 / 10, NULL), 3);
    CHECK_INT(frames(&p, &in, &t, 28, b1 / 10, NULL), 3);
    CHECK_INT(frames(&p, &in, &t, 4, b1 / 10, NULL), 4);
    /* Room that comes and goes: the clock starts again each time it goes. */
    const double b_room = 0.7 * 100000.0 / pow(5.0, PIXFIT_GROWTH); /* k = 5 in 0.7 */
    const double b_none = 0.9 * 100000.0 / pow(5.0, PIXFIT_GROWTH); /* k = 5 in 0.9 */
    changes = 0;
    for (int i = 0; i < 10; i++) {
        frames(&p, &in, &t, 20, b_room, &changes);
        frames(&p, &in, &t, 1, b_none, &changes);
    }
    CHECK_INT(p.k, 4);
    CHECK_INT(changes, 0);
}

TEST(pixfit_a_cost_that_wavers_about_a_step_does_not_flip_it)
{
    struct pixfit_in in = area();
    in.budget = 100000.0;
    struct pixfit p;
    pixfit_init(&p);
    double t = 0.0;
    /* k = 4 costs the budget, give or take 10 % from frame to frame. */
    const double b1 = 100000.0 / pow(4.0, PIXFIT_GROWTH);
    int changes = 0;
    for (int i = 0; i < 300; i++) /* 10 s */
        frames(&p, &in, &t, 1, b1 * (i % 2 ? 1.1 : 0.9), &changes);
    CHECK_MSG(changes <= 1, "%d changes of scale in 10 s", changes);
}

TEST(pixfit_encoding_time_limits_the_scale)
{
    struct pixfit_in in = area();
    in.ms_budget = 12.0;
    in.measured_k = 2, in.frame_bytes = 30000.0, in.frame_ms = 2.0; /* 0.5 ms at k = 1 */
    struct pixfit p;
    pixfit_init(&p);
    CHECK_INT(pixfit_choose(&p, &in, 0.0), 4); /* k^2: 8 ms at 4, 12.5 at 5 */
}

TEST(pixfit_glyphs_only_far_below_a_whole_frame_and_pixels_back_after)
{
    struct pixfit_in in = area();
    const double b1 = 10000.0; /* a k = 1 frame */
    in.budget = b1 / 20; /* a frame in 20 budgets: pixels, fewer frames */
    struct pixfit p;
    pixfit_init(&p);
    double t = 0.0;
    CHECK_INT(frames(&p, &in, &t, 60, b1, NULL), 1);
    in.budget = b1 / 40; /* 40: glyphs, after a while */
    CHECK_INT(frames(&p, &in, &t, 6, b1, NULL), 1);
    CHECK_INT(frames(&p, &in, &t, 3, b1, NULL), 0);
    /* While glyphs are drawn nothing is measured: the last estimate stands. */
    CHECK_INT(frames(&p, &in, &t, 90, b1, NULL), 0);
    in.budget = b1 / 25; /* fits in 30 budgets, but not with room: glyphs still */
    CHECK_INT(frames(&p, &in, &t, 90, b1, NULL), 0);
    in.budget = b1; /* room: pixels after PIXFIT_UP_AFTER */
    CHECK_INT(frames(&p, &in, &t, 25, b1, NULL), 0);
    CHECK_INT(frames(&p, &in, &t, 10, b1, NULL), 1);
}

/* Sixel's line (PIXFIT_GLYPH_FRAMES_SIXEL): a k = 1 frame in 3 budgets is
 * glyphs, where kitty's (the default) keeps pixels; in 1.5, pixels. */
TEST(pixfit_sixel_gives_way_to_glyphs_sooner)
{
    const double b1 = 10000.0;
    for (int sixel = 0; sixel < 2; sixel++) {
        struct pixfit_in in = area();
        in.glyph_frames = sixel ? PIXFIT_GLYPH_FRAMES_SIXEL : 0.0;
        in.budget = b1 / 3;
        struct pixfit p;
        pixfit_init(&p);
        double t = 0.0;
        CHECK_INT(frames(&p, &in, &t, 30, b1, NULL), sixel ? 0 : 1);
        in.budget = b1 / 1.5;
        pixfit_init(&p);
        CHECK_INT(frames(&p, &in, &t, 30, b1, NULL), 1);
    }
}

TEST(pixfit_a_smaller_area_is_taken_at_once)
{
    struct pixfit_in in = area();
    struct pixfit p;
    pixfit_init(&p);
    double t = 0.0;
    CHECK_INT(frames(&p, &in, &t, 3, 5000.0, NULL), 8);
    in.area_w = 400; /* the window half as wide */
    CHECK_INT(frames(&p, &in, &t, 1, 5000.0, NULL), 4);
}
