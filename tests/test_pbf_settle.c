/*
 * test_pbf_settle.c — the pbf water comes to rest (rest damping, pbf.h): the
 * solver's damping of slow motion alone, and the scene as a terminal shows it
 * after the dam break and after a throw, held by statistics: the kinetic energy
 * of the drift over half a second (what the eye sees: the per-step motion of
 * the density solve averages out), the surface's height per column, how much
 * it moves in half a second and how flat it lies; and the first seconds stay
 * lively. The seed preset has no rest damping.
 *
 * Times are the terminal's: 30 frames a second of 8 steps (APP_REF_FPS, the
 * scene's steps per frame), 240 steps (1.2 s of the solver's time) a second.
 */
#include "fixtures.h"
#include "pbf.h"
#include "pbf_scene.h"
#include "scene.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define STEPS_PER_S 240     /* steps a second of the terminal's stands for */
#define HALF_S (STEPS_PER_S / 2)
#define MAX_WATER 10000
#define MAX_BINS 1024

/* ---- The solver --------------------------------------------------------------- */

/* One particle alone in a large box, weightless and without viscosity, moving
 * at (v, 0) from the middle: its speed after n steps. */
static float lone_speed(float v, float damping, int n)
{
    struct pbf_params p;
    pbf_params_seed(&p);
    p.gravity = 0.0f;
    p.viscosity = 0.0f;
    p.rest_damping = damping;
    p.rest_speed = 0.3f;
    struct pbf s;
    fx_pbf_init(&s, &p, 1, 1, 400, 40);
    s.x[0] = s.xold[0] = 0.5f * (s.xmin + s.xmax) - 0.5f * v * (float)n * p.dt;
    s.y[0] = s.yold[0] = 0.5f * (s.ymin + s.ymax);
    s.vx[0] = v;
    for (int k = 0; k < n; k++)
        pbf_step(&s);
    const float speed = hypotf(s.vx[0], s.vy[0]);
    pbf_free(&s);
    return speed;
}

TEST(pbf_rest_damping_stops_slow_motion_and_spares_fast)
{
    /* 1 s of the solver's time (200 steps) at 2/s: a speed well under the rest
     * speed (0.3 m/s) falls to about e^-2 of itself, one ten times over it
     * keeps all but a trace (the rate falls off with the square of the
     * speed); without damping both keep their speed. */
    const float slow = 0.05f, fast = 3.0f;
    const float slow_left = lone_speed(slow, 2.0f, 200), fast_left = lone_speed(fast, 2.0f, 200);
    CHECK_MSG(slow_left < 0.2f * slow && slow_left > 0.05f * slow, "slow: %.4f of %.4f m/s",
              (double)slow_left, (double)slow);
    CHECK_MSG(fast_left > 0.97f * fast, "fast: %.4f of %.4f m/s", (double)fast_left,
              (double)fast);
    CHECK_NEAR(lone_speed(slow, 0.0f, 200), slow, 1e-6);
    CHECK_NEAR(lone_speed(fast, 0.0f, 200), fast, 1e-5);
}

TEST(pbf_seed_preset_has_no_rest_damping)
{
    struct pbf_params p;
    pbf_params_seed(&p);
    CHECK(p.rest_damping == 0.0f);
    struct fx_pbf x;
    if (fx_pbf_open(&x, 100, 30, true, NULL)) {
        const struct pbf *sim = scene_pbf.member(x.st, "pbf");
        CHECK(sim->prm.rest_damping == 0.0f);
        fx_pbf_close(&x);
    }
    if (fx_pbf_open(&x, 100, 30, false, NULL)) { /* and the default has it */
        const struct pbf *sim = scene_pbf.member(x.st, "pbf");
        CHECK(sim->prm.rest_damping > 0.0f && sim->prm.rest_speed > 0.0f);
        fx_pbf_close(&x);
    }
}

/* ---- The scene ---------------------------------------------------------------- */

/* Where the water is, by particle id, and its surface: per column of the box
 * one diameter wide, the top of its highest particle (metres; -1: none). */
struct shot {
    float x[MAX_WATER], y[MAX_WATER];
    float top[MAX_BINS];
    int n, bins;
};

static void shot_take(const struct pbf *s, struct shot *o)
{
    const float d = 2.0f * s->prm.radius;
    o->n = s->nfluid < MAX_WATER ? s->nfluid : MAX_WATER;
    o->bins = (int)((s->xmax - s->xmin) / d) + 1;
    o->bins = o->bins < MAX_BINS ? o->bins : MAX_BINS;
    for (int b = 0; b < o->bins; b++)
        o->top[b] = -1.0f;
    for (int id = 0; id < o->n; id++) {
        const int i = s->slot[id];
        o->x[id] = s->x[i];
        o->y[id] = s->y[i];
    }
    for (int i = 0; i < s->nfluid; i++) {
        int b = (int)((s->x[i] - s->xmin) / d);
        b = b < 0 ? 0 : b >= o->bins ? o->bins - 1 : b;
        o->top[b] = fmaxf(o->top[b], s->y[i] + s->prm.radius);
    }
}

/* The kinetic energy of the drift from a to b over t seconds (J): each
 * particle's displacement over t as its velocity. */
static double drift_ke(const struct pbf *s, const struct shot *a, const struct shot *b, float t)
{
    double e = 0.0;
    for (int id = 0; id < a->n && id < b->n; id++) {
        const double vx = (b->x[id] - a->x[id]) / t, vy = (b->y[id] - a->y[id]) / t;
        e += vx * vx + vy * vy;
    }
    return 0.5 * s->mass * e;
}

/* The most any column's surface moved from a to b, and the spread of b's
 * surface over the columns clear of the walls (its highest less its lowest),
 * in canvas pixels (zoom: pixels a metre). */
static void surface_stats(const struct shot *a, const struct shot *b, float zoom, float *moved,
                          float *spread)
{
    float lo = INFINITY, hi = -INFINITY;
    *moved = 0.0f;
    for (int k = 2; k < b->bins - 2; k++) {
        if (a->top[k] < 0.0f || b->top[k] < 0.0f)
            continue;
        *moved = fmaxf(*moved, fabsf(b->top[k] - a->top[k]) * zoom);
        lo = fminf(lo, b->top[k]);
        hi = fmaxf(hi, b->top[k]);
    }
    *spread = hi >= lo ? (hi - lo) * zoom : 0.0f;
}

static void run_idle(struct fx_pbf *x, int steps)
{
    for (int k = 0; k < steps; k++)
        fx_pbf_step(x, 0.0f, 0.0f, false, false, 0.0f, 0.0f);
}

/* What half a second shows from now on: the drift's kinetic energy, the
 * surface's largest move and its spread at the end. */
struct still {
    double ke;
    float moved, spread;
};

static struct still half_second(struct fx_pbf *x, struct shot *a, struct shot *b)
{
    const struct pbf *sim = scene_pbf.member(x->st, "pbf");
    const struct pbf_scene *sc = x->st;
    struct still r;
    shot_take(sim, a);
    run_idle(x, HALF_S);
    shot_take(sim, b);
    r.ke = drift_ke(sim, a, b, (float)HALF_S * sim->prm.dt);
    surface_stats(a, b, sc->view.zoom, &r.moved, &r.spread);
    return r;
}

/* The most kinetic energy any step of the next n had. */
static float peak_ke(struct fx_pbf *x, int n)
{
    const struct pbf *sim = scene_pbf.member(x->st, "pbf");
    float most = 0.0f;
    for (int k = 0; k < n; k++) {
        run_idle(x, 1);
        most = fmaxf(most, pbf_kinetic_energy(sim));
    }
    return most;
}

/* The default scene on a cols x rows terminal, with rest damping as it comes
 * (damping < 0) or set to damping. */
static bool settle_open(struct fx_pbf *x, int cols, int rows, float damping)
{
    if (!fx_pbf_open(x, cols, rows, false, NULL))
        return false;
    struct pbf *sim = scene_pbf.member(x->st, "pbf");
    if (damping >= 0.0f)
        sim->prm.rest_damping = damping;
    return true;
}

TEST(pbf_scene_water_settles_after_the_dam_break)
{
    /* 80 x 24 (the default terminal): the dam break rocks the pool for its first
     * seconds, and by 15 s it lies still: in half a second the drift's energy
     * is under a hundred-thousandth of the splash's peak (6e-8), no column's
     * surface moves half a pixel (0.01) and the surface is flat within a pixel
     * (0.3). Without rest damping the pool still sloshes then (4e-3, 1.9 px,
     * 1.3 px). Under a sanitizer, with rest damping only (the steps
     * cost ten times as much there). */
    static struct shot a, b;
    for (int on = 1; on >= (TEST_SANITIZED ? 1 : 0); on--) {
        struct fx_pbf x;
        if (!settle_open(&x, 80, 24, on ? -1.0f : 0.0f))
            return;
        const float peak = peak_ke(&x, 3 * STEPS_PER_S);
        run_idle(&x, 12 * STEPS_PER_S);
        const struct still r = half_second(&x, &a, &b);
        const bool still = r.ke < 1e-5 * peak && r.moved < 0.5f && r.spread < 1.0f;
        CHECK_MSG(still == (on == 1),
                  "rest damping %s: at 15 s the drift %.3g J of a %.3g J peak, the surface "
                  "moved %.2f px, lies within %.2f px",
                  on ? "on" : "off", r.ke, (double)peak, (double)r.moved, (double)r.spread);
        fx_pbf_close(&x);
    }
}

TEST(pbf_scene_settling_keeps_the_splash)
{
    /* The first three seconds, where the dam break splashes: the water has
     * nearly all the energy it has without rest damping (96 %), and sloshes
     * on after them (its surface moves 6.7 px in the next half second). */
    struct fx_pbf on, off;
    if (!settle_open(&on, 80, 24, -1.0f))
        return;
    if (!settle_open(&off, 80, 24, 0.0f)) {
        fx_pbf_close(&on);
        return;
    }
    const float peak_on = peak_ke(&on, 3 * STEPS_PER_S), peak_off = peak_ke(&off, 3 * STEPS_PER_S);
    CHECK_MSG(peak_on > 0.9f * peak_off, "the splash's peak %.4g J, %.4g J undamped",
              (double)peak_on, (double)peak_off);
    static struct shot a, b;
    const struct still r = half_second(&on, &a, &b);
    CHECK_MSG(r.moved > 1.0f, "at 3 s the surface moved %.2f px in half a second",
              (double)r.moved);
    fx_pbf_close(&on);
    fx_pbf_close(&off);
}

/* A grab-and-throw as a hand makes it at canvas column col: a press a few
 * pixels down in the water, a third of a second's drag up and across at
 * (vx, vy) pixels a second, a release. */
static void sc_throw(struct fx_pbf *x, float col, float vx, float vy)
{
    const struct pbf *sim = scene_pbf.member(x->st, "pbf");
    const struct pbf_scene *sc = x->st;
    /* The surface under col: the highest water within a pixel of it. */
    float top = -INFINITY;
    for (int i = 0; i < sim->nfluid; i++) {
        const float c = view_px(&sc->view, sim->x[i]);
        if (fabsf(c - col) < 1.0f)
            top = fmaxf(top, sim->y[i]);
    }
    float px = col, py = view_py(&sc->view, top) + 3.0f;
    fx_pbf_step(x, px, py, true, true, 0.0f, 0.0f);
    for (int k = 1; k < 80; k++) {
        px += vx / STEPS_PER_S, py += vy / STEPS_PER_S;
        fx_pbf_step(x, px, py, true, false, vx, vy);
    }
    fx_pbf_step(x, px, py, false, true, vx, vy);
}

/* What a throw from the pool at rest shows (with rest damping or without):
 * the energy before it, its peak, and half a second 10 s after it. */
struct after_throw {
    float before, thrown;
    struct still r;
    int ok; /* 1: measured */
};

static struct after_throw throw_and_wait(struct fx_pbf *x, bool damping)
{
    static struct shot a, b;
    struct pbf *sim = scene_pbf.member(x->st, "pbf");
    sim->prm.rest_damping = damping ? sim->prm.rest_damping : 0.0f;
    struct after_throw t = {.ok = 1};
    t.before = pbf_kinetic_energy(sim);
    sc_throw(x, 0.3f * (float)x->im.w, 120.0f, -150.0f);
    t.thrown = peak_ke(x, STEPS_PER_S / 2);
    run_idle(x, 10 * STEPS_PER_S - STEPS_PER_S / 2 - 80 - HALF_S);
    t.r = half_second(x, &a, &b);
    return t;
}

TEST(pbf_scene_water_settles_after_a_throw)
{
    /* At rest after the dam break, a handful thrown up and across: it splashes
     * back into the pool, and by 10 s after the throw the pool lies still
     * again, as after the dam break (the drift 1e-7 of the throw's peak, the
     * surface moving 0.02 px, flat within 0.3 px); without rest damping it
     * rocks on (7e-5, 1.4 px, 4.5 px). The 15 s to rest are run once: the
     * throw without rest damping goes on from them in a fork of the test
     * (the same state to the bit), which sends back what it measured. */
    struct fx_pbf x;
    if (!settle_open(&x, 80, 24, -1.0f))
        return;
    run_idle(&x, 15 * STEPS_PER_S);
    struct after_throw res[2] = {{0}}; /* [on]: with rest damping or without */
    int p[2] = {-1, -1};
    pid_t kid = -1;
    if (!TEST_SANITIZED && pipe(p) == 0) {
        fflush(stdout);
        kid = fork();
        if (kid == 0) {
            close(p[0]);
            const struct after_throw t = throw_and_wait(&x, false);
            _exit(write(p[1], &t, sizeof t) == (ssize_t)sizeof t ? 0 : 1);
        }
        close(p[1]);
    }
    res[1] = throw_and_wait(&x, true);
    if (kid > 0) {
        if (read(p[0], &res[0], sizeof res[0]) != (ssize_t)sizeof res[0])
            res[0].ok = 0;
        waitpid(kid, NULL, 0);
    }
    if (p[0] >= 0)
        close(p[0]);
    for (int on = 1; on >= (TEST_SANITIZED ? 1 : 0); on--) {
        const struct after_throw *t = &res[on];
        if (!t->ok) {
            CHECK_MSG(false, "the throw without rest damping measured nothing (fork: %d)", kid);
            continue;
        }
        CHECK_MSG(t->thrown > 100.0f * t->before && t->thrown > 50.0f,
                  "thrown: %.3g J, %.3g J before", (double)t->thrown, (double)t->before);
        const bool still = t->r.ke < 1e-5 * t->thrown && t->r.moved < 0.5f && t->r.spread < 1.0f;
        CHECK_MSG(still == (on == 1),
                  "rest damping %s: 10 s after the throw the drift %.3g J of %.3g J "
                  "thrown, the surface moved %.2f px, lies within %.2f px",
                  on ? "on" : "off", t->r.ke, (double)t->thrown, (double)t->r.moved,
                  (double)t->r.spread);
    }
    fx_pbf_close(&x);
}
