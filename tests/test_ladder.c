/*
 * test_ladder.c — the picture's levels when swirl has to give (ladder.h), on
 * virtual time: frames whose bytes at each rung a model gives, at a link of
 * a given rate, planned and paced as the frame loop plans and paces them.
 */
#include "app.h"
#include "frame.h"
#include "ladder.h"
#include "scene.h"
#include "test.h"

#include <string.h>

#define FPS 30.0

/* A model of a scene: the bytes of a whole frame at the top rung, each rung
 * below `step` of the rung above's (256 colours: half); still: nothing. */
struct model {
    double top, step;
    bool still;
};

static double model_bytes(const struct model *m, int r)
{
    if (m->still)
        return 0.0;
    double b = m->top;
    for (int i = 1; i <= r; i++)
        b *= ladder_rungs[i].fewer_colours ? 0.5 : m->step;
    return b;
}

/* What a run saw. */
struct seen {
    int rung;       /* at the end */
    int changes;    /* rung changes after `from` */
    double fps;     /* frames a second after `from` */
    int trials;     /* trials begun after `from` */
};

/* From t0 to t1 at avail bytes a second: a frame whenever the last one's
 * bytes have gone at that rate (and at most FPS a second), planned, sent,
 * and during a trial encoded at the rung on trial too. */
static void drive(struct ladder *l, const struct model *m, double avail, double t0, double t1,
                  double from, bool colours, struct seen *s)
{
    double next = t0;
    long frames = 0;
    int rung = l->rung, trial = l->trial;
    memset(s, 0, sizeof *s);
    for (double t = t0; t < t1; t += 1.0 / 1000.0) {
        if (t < next)
            continue;
        ladder_plan(l, avail, FPS, colours, t);
        if (t >= from && l->rung != rung)
            s->changes++;
        if (t >= from && l->trial >= 0 && l->trial != trial)
            s->trials++;
        rung = l->rung, trial = l->trial;
        double b = model_bytes(m, l->rung);
        if (l->trial >= 0)
            ladder_trial(l, model_bytes(m, l->trial), false);
        ladder_sent(l, b, false, t);
        double gap = avail > 0.0 && b / avail > 1.0 / FPS ? b / avail : 1.0 / FPS;
        next = t + gap;
        frames += t >= from;
    }
    s->rung = l->rung;
    s->fps = (double)frames / (t1 - from);
}

/* No limit known: the picture whole at the frame rate asked for, however
 * costly its frames. */
TEST(ladder_with_no_limit_is_whole)
{
    struct ladder l;
    ladder_init(&l);
    struct model m = {500e3, 0.6, false};
    struct seen s;
    drive(&l, &m, 0.0, 0.0, 5.0, 1.0, true, &s);
    CHECK_INT(s.rung, 0);
    CHECK_INT(s.changes, 0);
    CHECK_NEAR(s.fps, FPS, 1.0);
}

/* At each rate the ladder settles on the finest rung whose frames come at
 * its floor: the rung above it would not have (that is what the model
 * says), and the frames come at least at the floor. A slower link takes a
 * coarser rung. */
TEST(ladder_settles_on_the_finest_rung_that_keeps_its_floor)
{
    static const double rates[] = {2e6, 300e3, 90e3, 18e3};
    struct model m = {30000, 0.6, false};
    int last = -1;
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++) {
        struct ladder l;
        ladder_init(&l);
        struct seen s;
        drive(&l, &m, rates[i], 0.0, 20.0, 10.0, false, &s);
        double at = rates[i] / model_bytes(&m, s.rung);
        CHECK_MSG(s.fps >= 0.95 * ladder_rungs[s.rung].floor, "%.0f B/s: rung %d at %.1f fps",
                  rates[i], s.rung, s.fps);
        if (s.rung > 0) {
            double above = rates[i] / model_bytes(&m, s.rung - 1);
            CHECK_MSG(above < LADDER_UP_MARGIN * ladder_rungs[s.rung - 1].floor,
                      "%.0f B/s: rung %d would have come at %.1f fps", rates[i], s.rung - 1,
                      above);
        }
        CHECK_MSG(at >= ladder_rungs[s.rung].floor || s.rung == ladder_nrungs - 1,
                  "%.0f B/s: rung %d at %.1f", rates[i], s.rung, at);
        CHECK_MSG(s.rung >= last, "%.0f B/s: rung %d after %d", rates[i], s.rung, last);
        CHECK(!ladder_rungs[s.rung].fewer_colours); /* colours were not to be touched */
        last = s.rung;
    }
    CHECK(last > 0);
}

/* At a steady link whose rate lies just where a rung above would almost fit
 * (its trials fail), the level changes at most once in LADDER_WAIT0 s, and
 * the trials come further and further apart. */
TEST(ladder_changes_at_most_once_in_ten_seconds_at_a_steady_link)
{
    struct model m = {30000, 0.6, false};
    for (double rate = 40e3; rate <= 400e3; rate *= 1.37) {
        struct ladder l;
        ladder_init(&l);
        struct seen s;
        drive(&l, &m, rate, 0.0, 130.0, 10.0, false, &s);
        CHECK_MSG(s.changes <= 120.0 / LADDER_WAIT0, "%.0f B/s: %d changes in 120 s", rate,
                  s.changes);
        CHECK_MSG(s.trials <= 6, "%.0f B/s: %d trials in 120 s", rate, s.trials);
    }
}

/* A link that slows steps down at once (to the rung its rate allows, not one
 * at a time); one that clears is climbed back by trials within a couple of
 * seconds. */
TEST(ladder_follows_a_link_that_slows_and_clears)
{
    struct model m = {30000, 0.6, false};
    struct ladder l;
    ladder_init(&l);
    struct seen s;
    drive(&l, &m, 5e6, 0.0, 3.0, 0.0, true, &s);
    CHECK_INT(s.rung, 0);
    drive(&l, &m, 30e3, 3.0, 6.0, 3.0, true, &s);
    CHECK_MSG(s.rung >= 4 && s.changes <= 2, "slowed: rung %d after %d changes", s.rung,
              s.changes);
    drive(&l, &m, 5e6, 6.0, 8.0, 6.0, true, &s);
    CHECK_MSG(s.rung == 0, "cleared: rung %d after 2 s", s.rung);
}

/* A trial decides: up only where the rung on trial kept its floor with a
 * margin. A scene whose finer rungs cost far more than the model's step says
 * fails its trials, and the ladder stays; one that costs what was estimated
 * goes up. */
TEST(ladder_goes_up_only_where_a_trial_shows_it_fits)
{
    struct ladder l;
    ladder_init(&l);
    struct model m = {30000, 0.6, false};
    struct seen s;
    drive(&l, &m, 60e3, 0.0, 10.0, 0.0, false, &s);
    int settled = s.rung;
    CHECK(settled > 0);
    /* The scene calms: the rung above now costs a third of what it did. */
    m.top /= 3.0;
    drive(&l, &m, 60e3, 10.0, 30.0, 10.0, false, &s);
    CHECK_MSG(s.rung < settled && s.trials >= 1, "calmer: rung %d (was %d), %d trials", s.rung,
              settled, s.trials);
    /* A rung whose frames would not fit is never taken, however it was estimated. */
    struct ladder k;
    ladder_init(&k);
    struct model steep = {30000, 0.3, false}; /* each rung up costs 3.3 times more */
    drive(&k, &steep, 60e3, 0.0, 60.0, 0.0, false, &s);
    double above = s.rung > 0 ? 60e3 / model_bytes(&steep, s.rung - 1) : 1e9;
    CHECK_MSG(s.rung == 0 || above < LADDER_UP_MARGIN * ladder_rungs[s.rung - 1].floor,
              "rung %d, the one above at %.1f fps", s.rung, above);
}

/* A scene busy for 2 s, then calm for 2 s, over and over (a stroke, then a
 * pause), at a link where its busy frames keep the floor at one rung and its
 * calm ones would at the rung above: the calm moments bring no rise that the
 * busy ones would take back, so the level settles and stays. */
TEST(ladder_calm_moments_bring_no_rise_the_busy_ones_take_back)
{
    /* Rungs a step apart as the ladder guesses (0.6), and further apart than
     * it guesses (0.4: a trial shows it). */
    static const double steps[] = {0.6, 0.4};
    for (int k = 0; k < 2; k++) {
        struct ladder l;
        ladder_init(&l);
        struct model busy = {30000, steps[k], false}, calm = {30000 * 0.3, steps[k], false};
        struct seen s;
        double avail = 60e3;
        int changes = 0, rungs[2] = {-1, -1};
        for (int i = 0; i < 30; i++) {
            double t = 4.0 * i;
            drive(&l, &busy, avail, t, t + 2.0, t >= 20.0 ? t : 1e9, false, &s);
            changes += s.changes;
            rungs[0] = s.rung;
            drive(&l, &calm, avail, t + 2.0, t + 4.0, t >= 20.0 ? t + 2.0 : 1e9, false, &s);
            changes += s.changes;
            rungs[1] = s.rung;
        }
        CHECK_MSG(changes <= 1, "steps of %.1f: %d changes in 100 s", steps[k], changes);
        CHECK_MSG(rungs[0] == rungs[1], "busy at rung %d, calm at %d", rungs[0], rungs[1]);
        double at = avail / model_bytes(&busy, rungs[0]);
        CHECK_MSG(at >= ladder_rungs[rungs[0]].floor, "busy frames at %.1f fps at rung %d", at,
                  rungs[0]);
    }
}

/* A rise needs its margin: where the rung above would come at a little more
 * than its floor (but under LADDER_UP_MARGIN times it), the ladder stays; a
 * little more than the margin, it rises, after a trial. Where a trial shows
 * the rung above would not keep up (it costs far more than guessed), the
 * level never changes. */
TEST(ladder_rises_only_with_its_margin_and_a_trial)
{
    struct model m = {30000, 0.6, false};
    const int r = 4;
    const double above = model_bytes(&m, r - 1) * ladder_rungs[r - 1].floor;
    static const double share[] = {1.15, 1.5};
    for (int k = 0; k < 2; k++) {
        struct ladder l;
        ladder_init(&l);
        struct seen s;
        double avail = above * share[k]; /* the rung above at this share of its floor */
        drive(&l, &m, avail / 10.0, 0.0, 10.0, 0.0, false, &s); /* down first, far */
        drive(&l, &m, avail, 10.0, 60.0, 10.0, false, &s);
        CHECK_MSG(k == 0 ? s.rung >= r : s.rung <= r - 1, "at %.2f of the floor above: rung %d",
                  share[k], s.rung);
        CHECK_MSG(k == 0 || s.trials >= 1, "%d trials", s.trials);
    }
    struct ladder l;
    ladder_init(&l);
    struct model steep = {30000, 0.25, false}; /* each rung up costs 4 times more */
    struct seen s;
    drive(&l, &steep, 80e3, 0.0, 5.0, 0.0, false, &s);
    const int settled = s.rung;
    drive(&l, &steep, 80e3, 5.0, 80.0, 5.0, false, &s);
    CHECK_MSG(s.changes == 0 && s.trials >= 1 && settled > 0, "rung %d: %d changes, %d trials",
              settled, s.changes, s.trials);
}

/* One frame that costs three times the others (a burst of dye) is not a
 * reason to leave a rung that keeps its floor with room to spare. */
TEST(ladder_one_costly_frame_is_no_reason_to_go_down)
{
    struct ladder l;
    ladder_init(&l);
    const double avail = 40.0 * 10000; /* 40 frames a second of 10 KB */
    double t = 0.0;
    for (; t < 5.0; t += 1.0 / FPS) {
        ladder_plan(&l, avail, FPS, true, t);
        ladder_sent(&l, 10000.0, false, t);
    }
    CHECK_INT(l.rung, 0);
    ladder_plan(&l, avail, FPS, true, t);
    ladder_sent(&l, 30000.0, false, t); /* the burst */
    for (t += 1.0 / FPS; t < 8.0; t += 1.0 / FPS) {
        ladder_plan(&l, avail, FPS, true, t);
        CHECK_MSG(l.rung == 0, "at %.2f s: rung %d", t, l.rung);
        ladder_sent(&l, 10000.0, false, t);
    }
}

/* A still picture (its frames send nothing) climbs a rung at a time, with no
 * trial, to the top: exact as fast as the link carries the repaints. */
TEST(ladder_still_picture_climbs_to_the_top)
{
    struct ladder l;
    ladder_init(&l);
    struct model m = {30000, 0.6, false};
    struct seen s;
    drive(&l, &m, 20e3, 0.0, 10.0, 0.0, true, &s);
    CHECK(s.rung >= 5);
    m.still = true;
    drive(&l, &m, 20e3, 10.0, 10.0 + (ladder_nrungs + 1) * (LADDER_QUIET + 0.1), 10.0, true, &s);
    CHECK_INT(s.rung, 0);
    CHECK_INT(s.trials, 0);
}

/* 256 colours are the last rung, taken only where colours may be reduced. */
TEST(ladder_takes_fewer_colours_last_and_only_where_allowed)
{
    struct model m = {30000, 0.6, false};
    for (int colours = 0; colours < 2; colours++) {
        struct ladder l;
        ladder_init(&l);
        struct seen s;
        drive(&l, &m, 1500.0, 0.0, 120.0, 60.0, colours, &s); /* the first frame takes 20 s */
        CHECK_INT(s.rung, colours ? ladder_nrungs - 1 : ladder_nrungs - 2);
        CHECK(ladder_rungs[s.rung].fewer_colours == (colours != 0));
    }
    for (int r = 0; r < ladder_nrungs - 1; r++)
        CHECK_MSG(!ladder_rungs[r].fewer_colours, "rung %d", r);
}

/* The tolerance at each rung: the rung's, or the user's where that is looser. */
TEST(ladder_tolerance_is_the_rungs_or_the_users)
{
    struct ladder l;
    ladder_init(&l);
    CHECK_INT(ladder_tolerance(&l, 6), 6);
    CHECK_INT(ladder_tolerance_at(2, 6), ladder_rungs[2].tolerance);
    CHECK_INT(ladder_tolerance_at(2, 200), 200);
}

/* A window whose first frame whole would be megabytes starts lower down the
 * ladder, climbs a rung every LADDER_CLIMB s while no limit is known (each
 * rung only after a frame went at the one below), and ends whole; a window
 * of a usual size starts whole; a start never makes finer a ladder that a
 * slow link took down; a limit found on the way takes over from the climb. */
TEST(ladder_a_large_window_starts_coarse_and_sharpens)
{
    struct ladder l;
    ladder_init(&l);
    ladder_start(&l, 200L * 60);
    CHECK_INT(l.rung, 0);
    CHECK(!l.starting);
    ladder_start(&l, 1500L * 800);
    const int r0 = l.rung;
    CHECK_MSG(r0 >= 3 && !ladder_rungs[r0].fewer_colours, "a 1500x800 start at rung %d", r0);
    CHECK(l.starting);
    int changes = 0, rung = r0;
    double t = 0.0;
    for (; t < 5.0 && l.rung > 0; t += 1.0 / FPS) {
        ladder_plan(&l, 0.0, FPS, true, t);
        CHECK_MSG(l.rung == rung || l.rung == rung - 1, "at %.2f s: rung %d after %d", t, l.rung,
                  rung);
        changes += l.rung != rung, rung = l.rung;
        ladder_sent(&l, 1e6, false, t);
    }
    CHECK_INT(l.rung, 0);
    CHECK_INT(changes, r0);
    CHECK_MSG(t >= r0 * LADDER_CLIMB && t <= r0 * (LADDER_CLIMB + 2.0 / FPS) + 0.1,
              "whole at %.2f s from rung %d", t, r0);
    /* No frame goes (a terminal that takes nothing yet): no climb. */
    ladder_init(&l);
    ladder_start(&l, 1500L * 800);
    for (t = 0.0; t < 2.0; t += 1.0 / FPS)
        ladder_plan(&l, 0.0, FPS, true, t);
    CHECK_INT(l.rung, r0);
    /* Down for a slow link, then a small window: as low as the link has it. */
    struct model m = {30000, 0.6, false};
    struct seen s;
    ladder_init(&l);
    drive(&l, &m, 20e3, 0.0, 10.0, 0.0, true, &s);
    const int slow = l.rung;
    CHECK(slow >= 3);
    ladder_start(&l, 80L * 24);
    CHECK_INT(l.rung, slow);
    /* A limit known on the way: the ladder's own rules, not the climb. */
    ladder_init(&l);
    ladder_start(&l, 1500L * 800);
    drive(&l, &m, 20e3, 0.0, 10.0, 0.0, true, &s);
    CHECK(!l.starting);
    CHECK_MSG(l.rung >= slow - 1, "at 20 KB/s from a start: rung %d, from the top %d", l.rung,
              slow);
}

static double no_time(void) { return 0.0; }

/* The frame loop's part: a live window that large starts coarse (its first
 * frame a fraction of a whole repaint's bytes), and so does one resized to
 * it; a recording (simulated) is the same at any size. */
TEST(ladder_start_is_taken_by_live_frames_only)
{
    const int cols = 600, rows = 400;
    size_t first[2];
    for (int simulated = 0; simulated < 2; simulated++) {
        struct app_opts o;
        app_opts_default(&o);
        o.scene = scene_find("cloth");
        o.color = COLOR_TRUE;
        struct app a;
        CHECK(app_init(&a, &o, cols, rows) == 0);
        struct frame f;
        frame_init(&f, &a, simulated);
        CHECK_MSG((f.lad.rung > 0) == !simulated, "simulated %d: rung %d", simulated, f.lad.rung);
        struct buf out;
        buf_init(&out);
        frame_plan(&f, &a, 0.0, 0.0, true, 0.0);
        first[simulated] = frame_next(&f, &a, 0.0, no_time, true, &out);
        if (!simulated) { /* small, then that large again: a start again */
            app_resize(&a, 100, 30);
            frame_resize(&f, 100, 30);
            for (int k = 1; k < 100 && f.lad.rung > 0; k++) {
                frame_plan(&f, &a, 0.0, 0.0, true, k * 0.05);
                buf_clear(&out);
                frame_next(&f, &a, 0.0, no_time, false, &out);
            }
            CHECK_INT(f.lad.rung, 0);
            app_resize(&a, cols, rows);
            frame_resize(&f, cols, rows);
            CHECK(f.lad.rung > 0 && f.lad.starting);
        }
        buf_free(&out);
        frame_free(&f);
        app_free(&a);
    }
    CHECK_MSG(first[0] < first[1] && first[0] <= LADDER_START_BYTES,
              "first frame live %zu bytes, whole %zu", first[0], first[1]);
}
