/*
 * test_wait.c — input that waits: a step cut short by the stop flag (cloth,
 * pbf, the dye between its passes), the app dropping the rest of the frame and
 * saying so, the watcher that raises the flag (it must let the flow control's
 * answers pass) and parses with the loop's parser (each event once, in order,
 * at its read time, whatever the reads' split), and in tmux: keys answered during a step of many seconds (the
 * cloth's extremes, the largest dye grid), Ctrl-S that no longer freezes swirl.
 */
#include "app.h"
#include "buf.h"
#include "compose.h"
#include "e2e.h"
#include "fixtures.h"
#include "../src/scenes/dye_scene.h"
#include "fluid_internal.h"
#include "frame.h"
#include "test.h"
#include "watch.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* s a step may go on once stopped: an iteration and the step's end (a whole
 * step takes seconds); a sanitizer makes each ten times as long */
#define AFTER_STOP (TEST_SANITIZED ? 5.0 : 0.5)

/* Raises a flag after a delay, from a thread of its own (as the watcher does). */
struct raiser {
    atomic_int *flag;
    double after;
    double at; /* when it did */
    pthread_t th;
};

static void *raise_later(void *arg)
{
    struct raiser *r = arg;
    fx_nap(r->after);
    r->at = buf_now();
    atomic_store(r->flag, 1);
    return NULL;
}

static void raise_start(struct raiser *r, atomic_int *flag, double after)
{
    *r = (struct raiser){.flag = flag, .after = after};
    CHECK(pthread_create(&r->th, NULL, raise_later, r) == 0);
}

/* ---- cloth and pbf, through one face ------------------------------------------ */

/* A solver whose step the stop flag cuts short: cloth or pbf water, in one of
 * a few variants of its parameters (what the stop must leave alone in each). */
struct solver {
    bool pbf;
    union {
        struct cloth c;
        struct pbf p;
    } u;
};

#define CLOTH_VARIANTS 8
#define PBF_VARIANTS 3

/* Cloth: the seed's order or by colour, PBD or XPBD, substeps, upright. */
static struct cloth_params cloth_variant(int v)
{
    struct cloth_params p = fx_cloth_params(24, 18, 2);
    p.iterations = 6;
    p.substeps = v & 1 ? 3 : 1;
    p.compliance = v & 2 ? 1e-4f : 0.0f;
    p.by_colour = (v & 4) != 0;
    p.upright = (v & 4) != 0;
    return p;
}

/* Pbf: the seed's water, with its running error (quirk) or the plain mean,
 * and a tolerance tight enough that every step takes several corrections. */
static struct pbf_params pbf_variant(int v)
{
    struct pbf_params p;
    pbf_params_seed(&p);
    p.seed_quirk = v == 0;
    p.max_error_pct = 0.01f;
    p.max_iter = 40;
    p.vorticity = v == 2 ? 0.5f : 0.0f;
    return p;
}

static void solver_init(struct solver *s, bool pbf, int v, const atomic_int *stop)
{
    s->pbf = pbf;
    if (pbf) {
        struct pbf_params p = pbf_variant(v);
        p.stop = stop;
        fx_pbf_init(&s->u.p, &p, 20, 20, 40, 40);
    } else {
        struct cloth_params p = cloth_variant(v);
        p.stop = stop;
        CHECK_INT(cloth_init(&s->u.c, &p), 0);
    }
}

/* The extreme settings, a step of seconds: cloth 300 x 300 with 200 sweeps of
 * 50 substeps (some 20 s); the seed's water in a 200 x 200 block with a
 * tolerance of 0.01 %: all of 500 corrections (a second or more). */
static void solver_init_long(struct solver *s, bool pbf, const atomic_int *stop)
{
    s->pbf = pbf;
    if (pbf) {
        struct pbf_params p;
        pbf_params_seed(&p);
        p.max_iter = 500;
        p.max_error_pct = 0.01f;
        p.stop = stop;
        fx_pbf_init(&s->u.p, &p, 200, 200, 600, 600);
    } else {
        struct cloth_params p = fx_cloth_params(300, 300, 2);
        p.iterations = 200;
        p.substeps = 50;
        p.stop = stop;
        CHECK_INT(cloth_init(&s->u.c, &p), 0);
    }
}

static void solver_step(struct solver *s)
{
    if (s->pbf)
        pbf_step(&s->u.p);
    else
        cloth_step(&s->u.c);
}

static void solver_free(struct solver *s)
{
    if (s->pbf)
        pbf_free(&s->u.p);
    else
        cloth_free(&s->u.c);
}

/* Corrections the last step made (the cloth makes all it is set to). */
static int solver_corrections(const struct solver *s)
{
    return s->pbf ? s->u.p.iter : s->u.c.prm.iterations * s->u.c.prm.substeps;
}

/* Particles that differ between two states of one variant (a time or a count
 * of corrections that differs counts as one). */
static int solver_differences(const struct solver *a, const struct solver *b)
{
    if (a->pbf)
        return fx_pbf_differences(&a->u.p, &b->u.p) + (a->u.p.time != b->u.p.time);
    return fx_cloth_differences(&a->u.c, &b->u.c) + (a->u.c.time != b->u.c.time);
}

static bool solver_finite(const struct solver *s)
{
    return s->pbf ? fx_pbf_nonfinite(&s->u.p) == 0 : fx_cloth_finite(&s->u.c);
}

/* a and b on, the same, to a step worth cutting short: some motion (cloth),
 * a step of several corrections (pbf: a third state takes each step first
 * and says). */
static void solver_warm_up(struct solver *a, struct solver *b, int v)
{
    if (!a->pbf) {
        fx_cloth_steps(&a->u.c, 10);
        fx_cloth_steps(&b->u.c, 10);
        return;
    }
    struct solver ahead;
    solver_init(&ahead, true, v, NULL);
    for (int k = 0; k < 300; k++) {
        solver_step(&ahead);
        if (ahead.u.p.iter >= 3)
            break;
        solver_step(a);
        solver_step(b);
    }
    CHECK_MSG(ahead.u.p.iter >= 3, "variant %d: %d corrections a step", v, ahead.u.p.iter);
    solver_free(&ahead);
}

/* What a step stopped before it began comes to: cloth, one sweep of one
 * substep, then the substep's velocities (a consistent state), and time
 * advances by that much; pbf, one correction, and the step ends as usual. */
static void solver_one_correction(struct solver *s)
{
    if (s->pbf) {
        s->u.p.prm.max_iter = 1;
    } else {
        struct cloth_params *p = &s->u.c.prm; /* the step reads prm each time */
        p->dt /= (float)p->substeps;
        p->substeps = 1;
        p->iterations = 1;
    }
}

static void solver_stop_at(struct solver *s, const atomic_int *stop)
{
    if (s->pbf)
        s->u.p.prm.stop = stop;
    else
        s->u.c.prm.stop = stop;
}

/* A step of solver_init_long cut short: time part of the way (cloth), some
 * but not all of the corrections (pbf). */
static bool solver_part_of_the_way(const struct solver *s)
{
    if (s->pbf)
        return s->u.p.iter >= 1 && s->u.p.iter < s->u.p.prm.max_iter;
    return s->u.c.time > 0.0f && s->u.c.time < s->u.c.prm.dt;
}

/* A stop flag that is there but never raised changes no bit of any step. */
static void check_stop_never_raised(bool pbf, int variants, int steps)
{
    atomic_int never = 0;
    for (int v = 0; v < variants; v++) {
        struct solver a, b;
        solver_init(&a, pbf, v, NULL);
        solver_init(&b, pbf, v, &never);
        int corrections = 0;
        for (int k = 0; k < steps; k++) {
            solver_step(&a);
            solver_step(&b);
            corrections += solver_corrections(&a);
        }
        CHECK_MSG(corrections > steps, "variant %d: %d corrections in %d steps", v,
                  corrections, steps);
        CHECK_MSG(solver_differences(&a, &b) == 0, "variant %d: %d particles differ", v,
                  solver_differences(&a, &b));
        solver_free(&a);
        solver_free(&b);
    }
}

/* Raised before the step: the same bits as a step of one correction. */
static void check_raised_stop(bool pbf, int variants)
{
    atomic_int raised = 1;
    for (int v = 0; v < variants; v++) {
        struct solver a, b;
        solver_init(&a, pbf, v, NULL);
        solver_init(&b, pbf, v, NULL);
        solver_warm_up(&a, &b, v);
        solver_one_correction(&a);
        solver_stop_at(&b, &raised);
        solver_step(&a);
        solver_step(&b);
        CHECK_INT(solver_corrections(&a), 1);
        CHECK_MSG(solver_differences(&a, &b) == 0, "variant %d: %d particles differ", v,
                  solver_differences(&a, &b));
        CHECK(solver_finite(&b));
        solver_free(&a);
        solver_free(&b);
    }
}

/* A step of seconds raised 50 ms in: back at once, part of the way, finite
 * (s stays for the caller to look at and free). */
static void check_step_of_seconds(struct solver *s, bool pbf)
{
    atomic_int stop = 0;
    solver_init_long(s, pbf, &stop);
    struct raiser r;
    raise_start(&r, &stop, 0.05);
    solver_step(s);
    double back = buf_now();
    pthread_join(r.th, NULL);
    CHECK_MSG(back > r.at, "the step was over before the stop");
    CHECK_MSG(back - r.at < AFTER_STOP, "the step went on %.3f s after the stop", back - r.at);
    CHECK_MSG(solver_part_of_the_way(s), "not part of the way: t %g, %d corrections",
              pbf ? (double)s->u.p.time : (double)s->u.c.time, solver_corrections(s));
    CHECK(solver_finite(s));
    solver_stop_at(s, NULL);
}

TEST(wait_cloth_stop_never_raised_changes_no_bit)
{
    check_stop_never_raised(false, CLOTH_VARIANTS, 40);
}

TEST(wait_pbf_stop_never_raised_changes_no_bit)
{
    check_stop_never_raised(true, PBF_VARIANTS, 30);
}

TEST(wait_cloth_raised_stop_ends_after_one_sweep_of_one_substep)
{
    check_raised_stop(false, CLOTH_VARIANTS);
}

TEST(wait_pbf_raised_stop_ends_after_one_correction) { check_raised_stop(true, PBF_VARIANTS); }

/* And the next step, not stopped, is whole. */
TEST(wait_cloth_step_of_seconds_returns_once_raised)
{
    struct solver s;
    check_step_of_seconds(&s, false);
    struct cloth *c = &s.u.c;
    const float dt = c->prm.dt;
    const double t = c->time;
    c->prm.iterations = 1, c->prm.substeps = 2;
    cloth_step(c);
    CHECK(c->time == t + dt);
    CHECK(fx_cloth_finite(c));
    solver_free(&s);
}

TEST(wait_pbf_step_of_seconds_returns_once_raised)
{
    struct solver s;
    check_step_of_seconds(&s, true);
    solver_free(&s);
}

/* ---- the dye, between its passes ----------------------------------------------- */

/* A dye solver on an n x n velocity grid, the dye twice as fine, stirred by a
 * splat; variant 1 has viscosity and dye diffusion, so both sweep loops run. */
static void dye_init(struct fluid *f, int v, int n, const atomic_int *stop)
{
    struct fluid_params p;
    fluid_params_default(&p);
    p.viscosity = v == 1 ? 0.5f : 0.0f;
    p.diffusion = v == 1 ? 0.5f : 0.0f;
    p.stop = stop;
    CHECK_INT(fluid_init(f, &p, n, n, 2 * n, 2 * n), 0);
    const float rgb[3] = {1.0f, 0.5f, 0.25f};
    fluid_splat(f, 1.3f * (float)n, 0.7f * (float)n, 0.3f * (float)n, 3.0f * (float)n,
                -1.0f * (float)n, (float)n, rgb);
}

/* The fields of a and b, bit for bit: the velocity, its copies, the dye. */
static bool dye_same(const struct fluid *a, const struct fluid *b)
{
    size_t nu = (size_t)(a->nx + 1) * (size_t)a->ny, nv = (size_t)a->nx * (size_t)(a->ny + 1);
    size_t nd = 3 * (size_t)a->dw * (size_t)a->dh;
    return memcmp(a->u, b->u, nu * sizeof(float)) == 0 &&
           memcmp(a->v, b->v, nv * sizeof(float)) == 0 &&
           memcmp(a->u0, b->u0, nu * sizeof(float)) == 0 &&
           memcmp(a->v0, b->v0, nv * sizeof(float)) == 0 &&
           memcmp(a->dye, b->dye, nd * sizeof(float)) == 0;
}

TEST(wait_dye_stop_never_raised_changes_no_bit)
{
    atomic_int never = 0;
    for (int v = 0; v < 2; v++) {
        struct fluid a, b;
        dye_init(&a, v, 40, NULL);
        dye_init(&b, v, 40, &never);
        int cycles = 0, sweeps = 0;
        for (int k = 0; k < 20; k++) {
            fluid_step(&a);
            fluid_step(&b);
            cycles += a.cycles, sweeps += a.diffuse_sweeps;
        }
        CHECK_MSG(cycles > 20 && (v == 0 || sweeps > 20), "variant %d: %d V-cycles, %d sweeps",
                  v, cycles, sweeps);
        CHECK_MSG(dye_same(&a, &b), "variant %d: other bits", v);
        fluid_free(&a);
        fluid_free(&b);
    }
}

/* Raised before the step: the confinement alone (the same bits as that pass
 * by itself), the dye as it was; a diffusion makes no sweep. */
TEST(wait_dye_raised_stop_ends_after_the_confinement)
{
    atomic_int raised = 1;
    for (int v = 0; v < 2; v++) {
        struct fluid a, b;
        dye_init(&a, v, 40, NULL);
        dye_init(&b, v, 40, NULL);
        for (int k = 0; k < 5; k++) {
            fluid_step(&a);
            fluid_step(&b);
        }
        b.prm.stop = &raised;
        fluid_confine_and_copy(&a);
        fluid_step(&b);
        CHECK_MSG(dye_same(&a, &b), "variant %d: not the confinement alone", v);
        CHECK(fx_fluid_finite(&b));
        size_t nd = 3 * (size_t)b.dw * (size_t)b.dh;
        float *before = malloc(nd * sizeof(float));
        CHECK(before != NULL);
        if (before) {
            memcpy(before, b.dye, nd * sizeof(float));
            CHECK_INT(fluid_diffuse(&b, b.dye, b.dye0, b.dw, b.dh, 3, 1.0f, false, false), 0);
            CHECK(memcmp(before, b.dye, nd * sizeof(float)) == 0);
            free(before);
        }
        fluid_free(&a);
        fluid_free(&b);
    }
}

/* A projection of seconds (a tolerance no float residual reaches, thousands
 * of V-cycles), raised 50 ms in (0.5 s in a sanitizer's build, where the
 * passes before it take that long): back at once, after some of the V-cycles,
 * the dye's passes left for the next step; finite. On a busy machine the
 * passes before the projection may take longer than that: a step stopped
 * before its first V-cycle (rightly: between its passes) is tried again with
 * the stop twice as late, until the stop lands in the projection. */
TEST(wait_dye_step_of_seconds_returns_once_raised)
{
    atomic_int stop = 0;
    struct fluid f;
    struct raiser r;
    float *before = NULL;
    size_t nd = 0;
    double back = 0.0, after = TEST_SANITIZED ? 0.5 : 0.05;
    for (int attempt = 0; attempt < 6; attempt++, after *= 2) {
        if (attempt > 0) {
            fluid_free(&f);
            free(before);
        }
        atomic_store(&stop, 0);
        dye_init(&f, 0, 384, &stop);
        f.prm.tolerance = 1e-12f;
        f.prm.max_cycles = 5000;
        nd = 3 * (size_t)f.dw * (size_t)f.dh;
        before = malloc(nd * sizeof(float));
        CHECK(before != NULL);
        if (before)
            memcpy(before, f.dye, nd * sizeof(float));
        raise_start(&r, &stop, after);
        fluid_step(&f);
        back = buf_now();
        pthread_join(r.th, NULL);
        if (f.cycles > 0 || back < r.at)
            break;
    }
    CHECK_MSG(back > r.at, "the step was over before the stop");
    CHECK_MSG(back - r.at < AFTER_STOP, "the step went on %.3f s after the stop", back - r.at);
    CHECK_MSG(f.cycles >= 1 && f.cycles < f.prm.max_cycles, "%d V-cycles", f.cycles);
    CHECK_MSG(before && memcmp(before, f.dye, nd * sizeof(float)) == 0, "the dye moved");
    CHECK(fx_fluid_finite(&f));
    free(before);
    /* The next step, not stopped, is whole. */
    atomic_store(&stop, 0);
    f.prm.tolerance = 1e-3f;
    f.prm.max_cycles = 12;
    fluid_step(&f);
    CHECK(f.residual <= 1e-3f || f.cycles == 12);
    CHECK(fx_fluid_finite(&f));
    fluid_free(&f);
}

/* The dye scene hands its stop to the solver: raised, a step leaves the dye
 * as it was (its passes are left for the next step); lowered, it moves. */
TEST(wait_dye_scene_passes_the_stop_to_its_solver)
{
    atomic_int stop = 1;
    struct scene_opts o = {.seed = 1, .stop = &stop};
    struct image im;
    struct dye *d = fx_scene_create(&scene_dye, &o, 40, 12, &im);
    if (!d)
        return;
    size_t nd = 3 * (size_t)d->f.dw * (size_t)d->f.dh;
    float *before = malloc(nd * sizeof(float));
    CHECK(before != NULL);
    const struct pointer still = {.dt = 1.0f / 30.0f};
    if (before) {
        memcpy(before, d->f.dye, nd * sizeof(float));
        scene_dye.step(d, &still);
        CHECK_MSG(memcmp(before, d->f.dye, nd * sizeof(float)) == 0, "stopped, the dye moved");
        atomic_store(&stop, 0);
        scene_dye.step(d, &still);
        CHECK_MSG(memcmp(before, d->f.dye, nd * sizeof(float)) != 0, "the dye stood still");
        free(before);
    }
    scene_dye.destroy(d);
    image_free(&im);
}

/* ---- the app ------------------------------------------------------------------ */

static double fake_now;
static double fake_clock(void) { return fake_now += 0.001; }

static bool hud_has(struct frame *f, const char *text)
{
    char line[512];
    int n = 0, row = f->cells.rows - 1;
    for (int c = 0; c < f->cells.cols && n < 511; c++) {
        uint32_t ch = cells_at(&f->cells, c, row)->ch;
        line[n++] = ch < 128 ? (char)ch : '#';
    }
    line[n] = 0;
    return strstr(line, text) != NULL;
}

/* Raised during a frame: its other steps are dropped and the HUD says the
 * step was cut short; lowered, the frames run whole again; R clears it. */
TEST(wait_app_stop_drops_the_frames_steps_and_says_so)
{
    atomic_int stop = 0;
    struct app_opts o;
    app_opts_default(&o);
    o.scene = 1;
    o.stop = &stop;
    struct app a;
    struct frame f;
    CHECK(app_init(&a, &o, 80, 24) == 0);
    frame_init(&f, &a, true);
    int spf = app_scene(&a)->steps_per_frame(a.st[1]);
    CHECK(spf > 1);
    long before = a.steps[1];
    app_advance_within(&a, 1.0 / 30, fake_clock, 0.7 / 30);
    CHECK_INT(a.steps[1] - before, spf);
    CHECK(!a.step_cut);
    atomic_store(&stop, 1);
    before = a.steps[1];
    app_advance_within(&a, 1.0 / 30, fake_clock, 0.7 / 30);
    CHECK_INT(a.steps[1] - before, 1);
    CHECK(a.step_cut);
    compose_frame(&a, &f.st, &f.img, &f.cells);
    CHECK_MSG(hud_has(&f, " slow "), "no tag on the HUD");
    atomic_store(&stop, 0);
    before = a.steps[1];
    app_advance_within(&a, 1.0 / 30, fake_clock, 0.7 / 30);
    CHECK_INT(a.steps[1] - before, spf);
    struct input_event r = {.type = INPUT_KEY, .key = 'R'};
    app_input(&a, &r);
    CHECK(!a.step_cut);
    compose_frame(&a, &f.st, &f.img, &f.cells);
    CHECK(!hud_has(&f, "slow"));
    frame_free(&f);
    app_free(&a);
}

/* ---- the watcher ------------------------------------------------------------------ */

/* Polls the flag for up to `seconds`; the time it was seen raised, or -1. */
static double raised_by(atomic_int *flag, double seconds)
{
    double end = buf_now() + seconds;
    while (buf_now() < end) {
        if (atomic_load(flag))
            return buf_now();
        fx_nap(0.002);
    }
    return atomic_load(flag) ? buf_now() : -1.0;
}

static void put(int fd, const char *s)
{
    CHECK(write(fd, s, strlen(s)) == (ssize_t)strlen(s));
}

/* Waits up to `seconds` for the watcher to have read everything in the pipe. */
static bool drained_by(int fd, double seconds)
{
    double end = buf_now() + seconds;
    int left = -1;
    while ((ioctl(fd, FIONREAD, &left) != 0 || left > 0) && buf_now() < end)
        fx_nap(0.002);
    return left == 0;
}

/* Event k of what a disarm gave is of this type (and, for a key, this key). */
static bool got_is(const struct watch *w, int n, int k, enum input_type type, int key)
{
    return k < n && w->got[k].ev.type == type && (type != INPUT_KEY || w->got[k].ev.key == key);
}

/* On a pipe for a terminal: its answers (to pings, to DA1) raise nothing; a
 * key, a lone ESC, input that waited before the frame raise the flag, never
 * before the frame is WATCH_AFTER old; what it read comes back parsed, each
 * event once and in order, read once the frame was WATCH_AFTER old. */
TEST_THREADS(wait_watcher_lets_answers_pass_and_raises_for_a_key)
{
    int fd[2];
    CHECK(pipe(fd) == 0);
    atomic_int stop = 0;
    struct input in;
    input_init(&in);
    struct watch w;
    CHECK(watch_start(&w, fd[0], &stop) == 0);

    double t0 = buf_now();
    watch_arm(&w, t0, &in);
    put(fd[1], "\x1b[0n\x1b[0n");
    fx_nap(WATCH_AFTER + 0.15);
    put(fd[1], "\x1b[0n\x1b[?62;22c"); /* and DA1's late answer */
    fx_nap(0.05);
    CHECK_MSG(atomic_load(&stop) == 0, "answers to pings raised the flag");
    put(fd[1], "q");
    double at = raised_by(&stop, 2.0);
    CHECK_MSG(at > 0.0, "a key did not raise the flag");
    int n = watch_disarm(&w);
    CHECK_INT(n, 5);
    CHECK(got_is(&w, n, 0, INPUT_PONG, 0) && got_is(&w, n, 1, INPUT_PONG, 0) &&
          got_is(&w, n, 2, INPUT_PONG, 0) && got_is(&w, n, 3, INPUT_ANSWER, 0) &&
          got_is(&w, n, 4, INPUT_KEY, 'q'));
    for (int k = 0; k < n; k++)
        CHECK_MSG(w.got[k].at >= t0 + WATCH_AFTER && (k == 0 || w.got[k].at >= w.got[k - 1].at),
                  "event %d read at %.3f s, out of order or before the frame was old", k,
                  w.got[k].at - t0);
    CHECK(n == 5 && w.read_at == w.got[4].at);
    CHECK(!input_pending(&in));
    CHECK(atomic_load(&stop) == 0);

    static const char *const keys[] = {"x", "\x1b", "\x1b[<0;3;4M"};
    for (int k = 0; k < 3; k++) {
        t0 = buf_now();
        watch_arm(&w, t0, &in);
        put(fd[1], keys[k]);
        at = raised_by(&stop, 2.0);
        CHECK_MSG(at > 0.0, "key %d did not raise the flag", k);
        CHECK_MSG(at < 0.0 || at - t0 >= WATCH_AFTER - 0.005, "key %d raised it %.3f s in", k,
                  at - t0);
        n = watch_disarm(&w);
        CHECK_INT(n, k == 1 ? 0 : 1); /* the lone ESC waits in the parser */
        CHECK_INT(input_pending(&in), k == 1);
        struct input_event ev[4];
        CHECK_INT(input_flush(&in, ev, 4), k == 1); /* the loop's, once it has waited */
        CHECK(k != 1 || (ev[0].type == INPUT_KEY && ev[0].key == IK_ESC));
    }
    CHECK(w.got[0].ev.type == INPUT_MOUSE && w.got[0].ev.x == 2 && w.got[0].ev.y == 3);
    /* Input waiting already: a lone ESC the loop holds back. */
    struct input_event ev[4];
    CHECK_INT(input_feed(&in, (const unsigned char *)"\x1b", 1, ev, 4), 0);
    t0 = buf_now();
    watch_arm(&w, t0, &in);
    at = raised_by(&stop, 2.0);
    CHECK(at > 0.0 && at - t0 >= WATCH_AFTER - 0.005);
    CHECK_INT(watch_disarm(&w), 0);
    CHECK_INT(input_flush(&in, ev, 4), 1);
    CHECK(ev[0].type == INPUT_KEY && ev[0].key == IK_ESC);
    /* A frame quicker than WATCH_AFTER is never cut, whatever comes. */
    watch_arm(&w, buf_now(), &in);
    put(fd[1], "q");
    fx_nap(0.02);
    CHECK(atomic_load(&stop) == 0);
    CHECK_INT(watch_disarm(&w), 0); /* nothing read: the loop reads it */
    CHECK(w.read_at < 0.0);
    char b[4];
    CHECK(read(fd[0], b, sizeof b) == 1);
    watch_end(&w);
    close(fd[0]);
    close(fd[1]);
}

/* The bytes are parsed once, by the loop's parser: a mouse report or a ping's
 * answer the watcher read in part is finished by the loop's next bytes, one
 * event, once; an answer it read whole comes back once, at the time it was
 * read (not when the frame ended), and nothing of a frame comes back again. */
TEST_THREADS(wait_watcher_parses_once_with_the_loops_parser)
{
    int fd[2];
    CHECK(pipe(fd) == 0);
    atomic_int stop = 0;
    struct input in;
    input_init(&in);
    struct watch w;
    CHECK(watch_start(&w, fd[0], &stop) == 0);
    struct input_event ev[16];

    /* A press, then a drag cut after its column: the press now, the drag once
     * the loop has the rest. */
    watch_arm(&w, buf_now(), &in);
    put(fd[1], "\x1b[<0;3;4M\x1b[<32;5");
    CHECK(drained_by(fd[0], 2.0));
    int n = watch_disarm(&w);
    CHECK_INT(n, 1);
    CHECK(n == 1 && w.got[0].ev.type == INPUT_MOUSE && w.got[0].ev.action == MOUSE_PRESS &&
          w.got[0].ev.x == 2 && w.got[0].ev.y == 3);
    CHECK(input_pending(&in));
    CHECK_INT(watch_disarm(&w), 0); /* disarmed already: nothing twice */
    int ne = input_feed(&in, (const unsigned char *)";6M", 3, ev, 16);
    CHECK_INT(ne, 1);
    CHECK(ne == 1 && ev[0].type == INPUT_MOUSE && ev[0].action == MOUSE_DRAG && ev[0].x == 4 &&
          ev[0].y == 5);
    CHECK_INT(input_flush(&in, ev, 16), 0);

    /* A ping's answer whole: once, at its read time; then one cut short. */
    watch_arm(&w, buf_now(), &in);
    fx_nap(WATCH_AFTER + 0.02); /* the watcher looks */
    double before = buf_now();
    put(fd[1], "\x1b[0n\x1b[0");
    CHECK(drained_by(fd[0], 2.0));
    double after = buf_now();
    fx_nap(0.05); /* the frame goes on: its end is not the answer's time */
    n = watch_disarm(&w);
    CHECK_INT(n, 1);
    CHECK(n == 1 && w.got[0].ev.type == INPUT_PONG);
    CHECK_MSG(n == 1 && w.got[0].at >= before && w.got[0].at <= after,
              "the answer's time %.3f s from its write, read by %.3f s", w.got[0].at - before,
              after - before);
    ne = input_feed(&in, (const unsigned char *)"n", 1, ev, 16);
    CHECK_INT(ne, 1);
    CHECK(ne == 1 && ev[0].type == INPUT_PONG);

    /* The next frame gives its own events alone. */
    watch_arm(&w, buf_now(), &in);
    put(fd[1], "z");
    CHECK(raised_by(&stop, 2.0) > 0.0);
    n = watch_disarm(&w);
    CHECK_INT(n, 1);
    CHECK(got_is(&w, n, 0, INPUT_KEY, 'z'));
    CHECK_INT(input_flush(&in, ev, 16), 0);
    watch_end(&w);
    close(fd[0]);
    close(fd[1]);
}

/* More answers than a frame keeps: the watcher parses WATCH_EVENTS of them,
 * raises the flag and leaves the rest to the loop; none lost, none twice. */
TEST_THREADS(wait_watcher_full_leaves_the_rest_to_the_loop)
{
    enum { ANSWERS = WATCH_EVENTS + 76 };
    static char all[ANSWERS * 4 + 1];
    for (int k = 0; k < ANSWERS; k++)
        memcpy(all + 4 * k, "\x1b[0n", 4);
    int fd[2];
    CHECK(pipe(fd) == 0);
    atomic_int stop = 0;
    struct input in;
    input_init(&in);
    struct watch w;
    CHECK(watch_start(&w, fd[0], &stop) == 0);
    put(fd[1], all);
    watch_arm(&w, buf_now(), &in);
    CHECK_MSG(raised_by(&stop, 2.0) > 0.0, "a full watcher did not raise the flag");
    int n = watch_disarm(&w);
    CHECK_INT(n, WATCH_EVENTS);
    int pongs = 0;
    for (int k = 0; k < n; k++)
        pongs += w.got[k].ev.type == INPUT_PONG;
    unsigned char b[4 * ANSWERS];
    int left = 0; /* what the watcher left (never a read that waits) */
    CHECK(ioctl(fd[0], FIONREAD, &left) == 0 && left > 0 && left <= (int)sizeof b);
    ssize_t nb = left > 0 && left <= (int)sizeof b ? read(fd[0], b, (size_t)left) : 0;
    struct input_event ev[4 * ANSWERS];
    int ne = nb > 0 ? input_feed(&in, b, (size_t)nb, ev, (int)nb) : 0;
    for (int k = 0; k < ne; k++)
        pongs += ev[k].type == INPUT_PONG;
    CHECK_INT(pongs, ANSWERS);
    CHECK_INT(n + ne, ANSWERS);
    watch_end(&w);
    close(fd[0]);
    close(fd[1]);
}

/* ---- in tmux ---------------------------------------------------------------------- */

#define EXTREME_CLOTH "--scene cloth --preset seed --set width=300 --set height=300 " \
                      "--set iterations=200 --set substeps=50"
#define KEY_DEADLINE 2.0 /* s: generous (0.3 s is the aim) */

/* After a key sent to the swirl in the pane (pid, which had used c0 seconds
 * of the processor when the key was sent), until the pane shows
 * status: at most KEY_DEADLINE seconds of the processor on every core swirl
 * may use (what that many seconds would be on a machine of its own); on a
 * busy machine, where swirl gets a share of a core, as long as it takes to
 * spend that, up to a minute (a swirl that is stuck). *used: the processor
 * time it took, as last seen while it ran (a swirl gone by the next look ended
 * within one, 40 ms); -1 when no swirl was found. True when status showed
 * within the bound. */
static bool answers_within(long pid, double c0, const char *status, double *used)
{
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    const double budget = KEY_DEADLINE * (double)(cpus > 0 ? cpus : 1), t0 = buf_now();
    double c = c0;
    *used = -1.0;
    if (c0 < 0.0) /* no swirl in the pane to judge */
        return false;
    for (;;) {
        bool shown = strstr(e2e_plain(), status) != NULL;
        double now_c = e2e_cpu_seconds(pid);
        c = now_c >= 0.0 ? now_c : c; /* gone: its last figure stands */
        *used = c - c0;
        if (shown)
            return *used <= budget;
        if (*used > budget || buf_now() - t0 > 4 * E2E_DEADLINE)
            return false;
        e2e_nap();
    }
}


/* A key sent while the first step (some 20 s) runs: q, Esc and Ctrl-C end
 * swirl within the deadline. */
TEST_E2E(wait_keys_answer_during_a_step_of_seconds)
{
    static const struct {
        const char *key, *status;
    } cases[] = {{"q", "SWIRL-EXIT=0"}, {"Escape", "SWIRL-EXIT=0"}, {"C-c", "SWIRL-EXIT=130"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK(e2e_start_swirl(100, 30, "COLORTERM=truecolor", EXTREME_CLOTH));
        fx_nap(1.0); /* well into the first step */
        const long pid = e2e_swirl_pid();
        double t = buf_now(), used, c0 = e2e_cpu_seconds(pid);
        e2e_send_key(cases[i].key);
        bool out = answers_within(pid, c0, cases[i].status, &used);
        CHECK_MSG(out, "%s: no %s within %.1f s of work (%.2f s of the processor used)",
                  cases[i].key, cases[i].status, KEY_DEADLINE, used);
        if (out)
            fprintf(stderr, "  %s answered in %.3f s, %.2f s of the processor\n", cases[i].key,
                    buf_now() - t, used);
        e2e_stop();
    }
}

/* The largest dye grid (--grid 4000x2000 on one thread, every projection its
 * 12 V-cycles, both diffusions at their most: steps of some ten seconds, each
 * pass a few tenths): q sent during the first step ends swirl within the
 * deadline. */
#define EXTREME_DYE "--grid 4000x2000 --threads 1 --set pressure-accuracy=1e-6 " \
                    "--set viscosity=20 --set dye-diffusion=20"
TEST_E2E(wait_q_answers_at_the_largest_dye_grid)
{
    CHECK(e2e_start_swirl(100, 30, "COLORTERM=truecolor", EXTREME_DYE));
    CHECK_MSG(e2e_wait_for(e2e_modes, "1 0 1 1 1"), "not started: modes %s", e2e_modes());
    fx_nap(1.0); /* well into the first step */
    const long pid = e2e_swirl_pid();
    double t = buf_now(), used, c0 = e2e_cpu_seconds(pid);
    e2e_send_key("q");
    bool out = answers_within(pid, c0, "SWIRL-EXIT=0", &used);
    CHECK_MSG(out, "q: no SWIRL-EXIT=0 within %.1f s of work (%.2f s of the processor used)",
              KEY_DEADLINE, used);
    if (out)
        fprintf(stderr, "  q answered in %.3f s, %.2f s of the processor\n", buf_now() - t,
                used);
    e2e_stop();
}

static bool other_than(double v, void *arg) { return v != *(const double *)arg; }

/* R during such a step: the frame is cut short (the HUD says so), then the
 * scene is back at its defaults, and q ends it. */
TEST_E2E(wait_r_resets_during_a_step_of_seconds)
{
    CHECK(e2e_start_swirl(100, 30, "COLORTERM=truecolor", EXTREME_CLOTH));
    fx_nap(1.0);
    const long pid = e2e_swirl_pid();
    double used, c0 = e2e_cpu_seconds(pid);
    e2e_send_key("R");
    CHECK_MSG(answers_within(pid, c0, E2E_HUD_SIGN, &used),
              "no frame within %.1f s of work after R (%.2f s of the processor used):\n%s",
              KEY_DEADLINE, used, e2e_plain());
    double last;
    CHECK_MSG(e2e_wait_figure_until("particles", other_than, &(double){90000}, &last),
              "not reset: %.0f particles:\n%s", last, e2e_plain());
    c0 = e2e_cpu_seconds(pid);
    e2e_send_key("q");
    CHECK_MSG(answers_within(pid, c0, "SWIRL-EXIT=0", &used), "q: no SWIRL-EXIT=0 within %.1f s "
              "of work (%.2f s of the processor used)", KEY_DEADLINE, used);
    e2e_stop();
}

/* The pane's tty flags as stty shows them: "ixon" or "-ixon". */
static bool tty_flag(const char *flag)
{
    char tty[64];
    snprintf(tty, sizeof tty, "%s", e2e_tmux("display -p -t e '#{pane_tty}'"));
    tty[strcspn(tty, "\n")] = 0;
    return e2e_sh("stty -F %s -a | tr ' ' '\\n' | grep -qx -- '%s'", tty, flag) == 0;
}

/* Ctrl-S is a key to swirl, not the tty's XOFF (which would stop its output,
 * the restore included, until a Ctrl-Q): after it, q ends swirl, also after a
 * Ctrl-Z and fg; the shell gets its flow control back. */
TEST_E2E(wait_ctrl_s_does_not_freeze_swirl)
{
    CHECK(e2e_start(80, 24, "env TERM=tmux-256color COLORTERM=truecolor PS1=READY: bash --norc "
                            "--noprofile -i"));
    CHECK(e2e_wait_for(e2e_plain, "READY:"));
    CHECK(tty_flag("ixon"));
    e2e_send_bytes("./swirl\r");
    CHECK(e2e_wait_hud());
    CHECK(tty_flag("-ixon"));
    e2e_send_key("C-s");
    e2e_send_key("C-z");
    CHECK_MSG(e2e_wait_for(e2e_plain, "Stopped"), "Ctrl-Z after Ctrl-S:\n%s", e2e_plain());
    CHECK(tty_flag("ixon"));
    e2e_send_bytes("fg\r");
    CHECK(e2e_wait_for(e2e_modes, "1 0 1 1 1"));
    CHECK(tty_flag("-ixon"));
    e2e_send_key("C-s");
    e2e_send_key("q");
    CHECK_MSG(e2e_wait_for(e2e_modes, "0 1 0 0 0"), "q after Ctrl-S:\n%s", e2e_plain());
    /* The modes are reset before the answers still on their way are swallowed:
     * a command typed in that moment would go to swirl, as it would for a
     * person typing ahead; wait for the shell's prompt, as the person would. */
    CHECK_MSG(e2e_wait_for(e2e_plain, "fg\n./swirl\nREADY:"), "no prompt after q:\n%s",
              e2e_plain());
    e2e_send_bytes("echo SWIRL-EXIT=$?\r");
    CHECK_MSG(e2e_wait_for(e2e_plain, "SWIRL-EXIT=0"), "q after Ctrl-S:\n%s", e2e_plain());
    CHECK_MSG(tty_flag("ixon"), "the shell's flow control is not back");
    e2e_stop();
}
