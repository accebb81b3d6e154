/*
 * test_tune.c — the frame loop's choices from made-up costs (tune.h): the
 * thread count that makes frames cheapest is the one mostly in use, and the
 * detail goes down when frames cannot be made in time, in order, and back up
 * once the finer level would fit again, waiting longer each time it did not.
 */
#include "test.h"
#include "tune.h"

#define PERIOD (1.0 / 30.0)

/* A frame's cost at each thread count (1..4) and level. */
struct load {
    double by_threads[5];
    double by_level[3];  /* times the count's cost */
};

static double cost_of(const struct load *l, const struct tune *t)
{
    return l->by_threads[t->threads] * l->by_level[t->level];
}

/* Frames at each thread count over n frames. */
static void run(struct tune *t, const struct load *l, int n, int *at)
{
    for (int f = 0; f < n; f++) {
        tune_frame(t, cost_of(l, t), PERIOD);
        CHECK(t->threads >= 1 && t->threads <= t->max_threads);
        if (at)
            at[t->threads]++;
    }
}

TEST(tune_keeps_the_thread_count_that_costs_least)
{
    /* Two threads slower than one (a machine others load): one is in use most
     * of the time, the other tried now and then. */
    struct load slow2 = {{0, 0.006, 0.010, 0, 0}, {1, 1, 1}};
    struct tune t;
    tune_init(&t, 2, true, true);
    CHECK_INT(t.threads, 2);
    int at[5] = {0};
    run(&t, &slow2, 3000, at);
    CHECK_MSG(at[1] > 2700, "one thread in %d frames of 3000", at[1]);
    CHECK_INT(t.level, TUNE_FULL);
    /* Two faster: back to two once it is tried, and mostly there. */
    struct load fast2 = {{0, 0.010, 0.006, 0, 0}, {1, 1, 1}};
    int at2[5] = {0};
    run(&t, &fast2, 3000, at2);
    CHECK_MSG(at2[2] > 2500, "two threads in %d frames of 3000", at2[2]);
    /* Four, the best three: three mostly. */
    struct load best3 = {{0, 0.012, 0.008, 0.005, 0.007}, {1, 1, 1}};
    tune_init(&t, 4, true, true);
    int at3[5] = {0};
    run(&t, &best3, 6000, at3);
    CHECK_MSG(at3[3] > 4500, "three threads in %d frames of 6000", at3[3]);
    /* Not chosen (--threads): all of them, always. */
    tune_init(&t, 2, false, true);
    int at4[5] = {0};
    run(&t, &slow2, 1000, at4);
    CHECK_INT(at4[2], 1000);
    /* Costs just a little apart: no change for that alone. */
    struct load close = {{0, 0.0099, 0.0100, 0, 0}, {1, 1, 1}};
    tune_init(&t, 2, true, true);
    int at5[5] = {0};
    run(&t, &close, 3000, at5);
    CHECK_MSG(at5[2] > 2700, "two threads in %d frames of 3000", at5[2]);
}

TEST(tune_lowers_the_drawing_then_the_simulation)
{
    /* 50 ms a frame at full detail, 32 drawn coarse, 20 smaller too: down to
     * the smaller simulation within a second, and it stays there. */
    struct load heavy = {{0, 0.050, 0.050, 0, 0}, {1, 0.64, 0.4}};
    struct tune t;
    tune_init(&t, 2, true, true);
    int first_coarse = -1, first_smaller = -1;
    for (int f = 0; f < 600; f++) {
        tune_frame(&t, cost_of(&heavy, &t), PERIOD);
        if (t.level == TUNE_COARSE && first_coarse < 0)
            first_coarse = f;
        if (t.level == TUNE_SMALLER && first_smaller < 0)
            first_smaller = f;
    }
    CHECK_MSG(first_coarse >= 0 && first_coarse < TUNE_WINDOW, "coarse at frame %d", first_coarse);
    CHECK_MSG(first_smaller > first_coarse && first_smaller < 3 * TUNE_WINDOW,
              "smaller at frame %d", first_smaller);
    CHECK_INT(t.level, TUNE_SMALLER);
    /* Half-blocks draw no finer than the canvas: straight to the smaller
     * simulation. */
    tune_init(&t, 2, true, false);
    run(&t, &heavy, TUNE_WINDOW, NULL);
    CHECK_INT(t.level, TUNE_SMALLER);
    /* Within the period: every detail, always. */
    struct load light = {{0, 0.020, 0.020, 0, 0}, {1, 0.5, 0.3}};
    tune_init(&t, 2, true, true);
    for (int f = 0; f < 2000; f++) {
        tune_frame(&t, cost_of(&light, &t), PERIOD);
        CHECK(t.level == TUNE_FULL);
    }
}

TEST(tune_comes_back_to_full_detail_when_it_fits_again)
{
    /* Loaded: 50 ms at full detail, 25 coarse; then the load goes and full
     * detail is 20 ms: back to it within a few seconds. */
    struct load loaded = {{0, 0.050, 0.050, 0, 0}, {1, 0.5, 0.5}};
    struct tune t;
    tune_init(&t, 1, true, true);
    run(&t, &loaded, 200, NULL);
    CHECK_INT(t.level, TUNE_COARSE);
    struct load quiet = {{0, 0.020, 0, 0, 0}, {1, 0.5, 0.5}};
    int back = -1;
    for (int f = 0; f < 600 && back < 0; f++) {
        tune_frame(&t, cost_of(&quiet, &t), PERIOD);
        if (t.level == TUNE_FULL)
            back = f;
    }
    CHECK_MSG(back >= 0 && back < 150, "full detail again at frame %d", back);
    run(&t, &quiet, 1000, NULL);
    CHECK_INT(t.level, TUNE_FULL);
    /* Where full detail still does not fit, it is not tried. */
    tune_init(&t, 1, true, true);
    run(&t, &loaded, 3000, NULL);
    CHECK_INT(t.level, TUNE_COARSE);
    CHECK_INT(t.raise_after, 90);
}

TEST(tune_waits_longer_each_time_the_finer_level_was_too_slow)
{
    /* Coarse costs little but full detail much more than the first saving
     * said (the load changed meanwhile): the try fails, what coarse saves is
     * measured again, and full detail is not tried while it would not fit;
     * the next try, once it would, waits twice as long. */
    struct load first = {{0, 0.050, 0, 0, 0}, {1, 0.5, 1}};
    struct tune t;
    tune_init(&t, 1, true, true);
    run(&t, &first, 100, NULL);
    CHECK_INT(t.level, TUNE_COARSE);
    struct load tricky = {{0, 0.040, 0, 0, 0}, {1, 0.25, 1}};
    int raises = 0, last = t.level;
    for (int f = 0; f < 20000; f++) {
        tune_frame(&t, cost_of(&tricky, &t), PERIOD);
        raises += t.level < last;
        last = t.level;
    }
    CHECK_INT(raises, 1);
    CHECK_INT(t.level, TUNE_COARSE);
    CHECK_INT(t.raise_after, 180);
    struct load quiet = {{0, 0.020, 0, 0, 0}, {1, 0.25, 1}};
    int back = -1;
    for (int f = 0; f < 1000 && back < 0; f++) {
        tune_frame(&t, cost_of(&quiet, &t), PERIOD);
        if (t.level == TUNE_FULL)
            back = f;
    }
    CHECK_MSG(back >= 180 && back < 180 + 3 * TUNE_WINDOW, "full detail again at frame %d", back);
}
