/*
 * test_wait.c — input that waits: a step cut short by the stop flag (cloth, pbf),
 * the app dropping the rest of the frame and saying so, the watcher that raises
 * the flag (it must let the flow control's answers pass), and in tmux: keys
 * answered during a step of many seconds, Ctrl-S that no longer freezes swirl.
 */
#include "app.h"
#include "buf.h"
#include "compose.h"
#include "e2e.h"
#include "fixtures.h"
#include "frame.h"
#include "test.h"
#include "watch.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* ---- cloth ----------------------------------------------------------------- */

/* The variants of the step: the seed's order or by colour, PBD or XPBD,
 * substeps, upright. */
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

static void cloth_pair(struct cloth *a, struct cloth *b, const struct cloth_params *pa,
                       const struct cloth_params *pb)
{
    CHECK_INT(cloth_init(a, pa), 0);
    CHECK_INT(cloth_init(b, pb), 0);
}

/* A stop flag that is there but never raised changes no bit of any step. */
TEST(wait_cloth_stop_never_raised_changes_no_bit)
{
    atomic_int never = 0;
    for (int v = 0; v < 8; v++) {
        struct cloth_params p = cloth_variant(v), q = p;
        q.stop = &never;
        struct cloth a, b;
        cloth_pair(&a, &b, &p, &q);
        for (int k = 0; k < 40; k++) {
            cloth_step(&a);
            cloth_step(&b);
        }
        CHECK_MSG(fx_cloth_differences(&a, &b) == 0 && a.time == b.time,
                  "variant %d: %d particles differ", v, fx_cloth_differences(&a, &b));
        cloth_free(&a);
        cloth_free(&b);
    }
}

/* Raised before the step: one sweep of one substep, then the substep's
 * velocities: the same bits as a whole step of one substep of that length
 * with one iteration (a consistent state), and time advances by that much. */
TEST(wait_cloth_raised_stop_ends_after_one_sweep_of_one_substep)
{
    atomic_int raised = 1;
    for (int v = 0; v < 8; v++) {
        struct cloth_params p = cloth_variant(v);
        struct cloth a, b;
        cloth_pair(&a, &b, &p, &p);
        fx_cloth_steps(&a, 10); /* some motion first, the same for both */
        fx_cloth_steps(&b, 10);
        a.prm.dt = p.dt / (float)p.substeps; /* the step reads prm each time */
        a.prm.substeps = 1;
        a.prm.iterations = 1;
        b.prm.stop = &raised;
        cloth_step(&a);
        cloth_step(&b);
        CHECK_MSG(fx_cloth_differences(&a, &b) == 0, "variant %d: %d particles differ", v,
                  fx_cloth_differences(&a, &b));
        CHECK_MSG(a.time == b.time, "variant %d: t %g, not %g", v, (double)b.time,
                  (double)a.time);
        CHECK(fx_cloth_finite(&b));
        cloth_free(&a);
        cloth_free(&b);
    }
}

/* The extreme settings (a step of some 20 s): raised 50 ms in, the step is
 * back at once, part of the way, and finite. */
TEST(wait_cloth_step_of_seconds_returns_once_raised)
{
    atomic_int stop = 0;
    struct cloth_params p = fx_cloth_params(300, 300, 2);
    p.iterations = 200;
    p.substeps = 50;
    p.stop = &stop;
    struct cloth c;
    CHECK_INT(cloth_init(&c, &p), 0);
    struct raiser r;
    raise_start(&r, &stop, 0.05);
    cloth_step(&c);
    double back = buf_now();
    pthread_join(r.th, NULL);
    CHECK_MSG(back > r.at, "the step was over before the stop");
    CHECK_MSG(back - r.at < AFTER_STOP, "the step went on %.3f s after the stop", back - r.at);
    CHECK_MSG(c.time > 0.0f && c.time < p.dt, "t %g after a step cut short (dt %g)",
              (double)c.time, (double)p.dt);
    CHECK(fx_cloth_finite(&c));
    /* And the next step, not stopped, is whole. */
    c.prm.iterations = 1, c.prm.substeps = 2;
    c.prm.stop = NULL;
    float t = c.time;
    cloth_step(&c);
    CHECK(c.time == t + p.dt);
    CHECK(fx_cloth_finite(&c));
    cloth_free(&c);
}

/* ---- pbf -------------------------------------------------------------------- */

static int pbf_differences(const struct pbf *a, const struct pbf *b)
{
    int bad = a->nfluid != b->nfluid || a->iter != b->iter;
    for (int i = 0; i < a->nfluid && !bad; i++)
        bad += a->x[i] != b->x[i] || a->y[i] != b->y[i] || a->vx[i] != b->vx[i] ||
               a->vy[i] != b->vy[i] || a->ax[i] != b->ax[i] || a->ay[i] != b->ay[i];
    return bad;
}

/* The seed's water, with its running error (quirk) or the plain mean, and a
 * tolerance tight enough that every step takes several corrections. */
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

TEST(wait_pbf_stop_never_raised_changes_no_bit)
{
    atomic_int never = 0;
    for (int v = 0; v < 3; v++) {
        struct pbf_params p = pbf_variant(v), q = p;
        q.stop = &never;
        struct pbf a, b;
        fx_pbf_init(&a, &p, 20, 20, 40, 40);
        fx_pbf_init(&b, &q, 20, 20, 40, 40);
        int iters = 0;
        for (int k = 0; k < 30; k++) {
            pbf_step(&a);
            pbf_step(&b);
            iters += a.iter;
        }
        CHECK_MSG(iters > 30, "variant %d: %d corrections in 30 steps", v, iters);
        CHECK_MSG(pbf_differences(&a, &b) == 0, "variant %d differs", v);
        pbf_free(&a);
        pbf_free(&b);
    }
}

/* Raised before the step: one correction, and the step ends as usual: the
 * same bits as a step with an iteration cap of one. */
TEST(wait_pbf_raised_stop_ends_after_one_correction)
{
    atomic_int raised = 1;
    for (int v = 0; v < 3; v++) {
        struct pbf_params p = pbf_variant(v);
        struct pbf a, b, ahead;
        fx_pbf_init(&a, &p, 20, 20, 40, 40);
        fx_pbf_init(&b, &p, 20, 20, 40, 40);
        fx_pbf_init(&ahead, &p, 20, 20, 40, 40);
        /* On to a step that takes several corrections: `ahead` takes each
         * step first and says. */
        for (int k = 0; k < 300; k++) {
            pbf_step(&ahead);
            if (ahead.iter >= 3)
                break;
            pbf_step(&a);
            pbf_step(&b);
        }
        CHECK_MSG(ahead.iter >= 3, "variant %d: %d corrections a step", v, ahead.iter);
        pbf_free(&ahead);
        a.prm.max_iter = 1;
        b.prm.stop = &raised;
        pbf_step(&a);
        pbf_step(&b);
        CHECK_INT(b.iter, 1);
        CHECK_MSG(pbf_differences(&a, &b) == 0, "variant %d differs", v);
        CHECK_INT(fx_pbf_nonfinite(&b), 0);
        pbf_free(&a);
        pbf_free(&b);
    }
}

/* A long step (the seed preset with a 200 x 200 block and a tolerance of
 * 0.01 %: all of 500 iterations, a second or more): raised 50 ms in, back at
 * once with fewer corrections, finite. */
TEST(wait_pbf_step_of_seconds_returns_once_raised)
{
    atomic_int stop = 0;
    struct pbf_params p;
    pbf_params_seed(&p);
    p.max_iter = 500;
    p.max_error_pct = 0.01f;
    p.stop = &stop;
    struct pbf s;
    fx_pbf_init(&s, &p, 200, 200, 600, 600);
    struct raiser r;
    raise_start(&r, &stop, 0.05);
    pbf_step(&s);
    double back = buf_now();
    pthread_join(r.th, NULL);
    CHECK_MSG(back > r.at, "the step was over before the stop");
    CHECK_MSG(back - r.at < AFTER_STOP, "the step went on %.3f s after the stop", back - r.at);
    CHECK_MSG(s.iter >= 1 && s.iter < 500, "%d corrections", s.iter);
    CHECK_INT(fx_pbf_nonfinite(&s), 0);
    pbf_free(&s);
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
    CHECK_MSG(hud_has(&f, "[slow: step cut short, R resets]"), "no tag on the HUD");
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

/* On a pipe for a terminal: the answers to pings raise nothing; a key, a lone
 * ESC, input that waited before the frame raise the flag, never before the
 * frame is WATCH_AFTER old; what it read comes back whole. */
TEST_THREADS(wait_watcher_lets_answers_pass_and_raises_for_a_key)
{
    int fd[2];
    CHECK(pipe(fd) == 0);
    atomic_int stop = 0;
    struct watch w;
    CHECK(watch_start(&w, fd[0], &stop) == 0);

    double t0 = buf_now();
    watch_arm(&w, t0, false);
    put(fd[1], "\x1b[0n\x1b[0n");
    fx_nap(WATCH_AFTER + 0.15);
    put(fd[1], "\x1b[0n");
    fx_nap(0.05);
    CHECK_MSG(atomic_load(&stop) == 0, "answers to pings raised the flag");
    put(fd[1], "q");
    double at = raised_by(&stop, 2.0);
    CHECK_MSG(at > 0.0, "a key did not raise the flag");
    size_t n = watch_disarm(&w);
    CHECK_INT(n, 13);
    CHECK(n == 13 && memcmp(w.got, "\x1b[0n\x1b[0n\x1b[0nq", 13) == 0);
    CHECK(atomic_load(&stop) == 0);

    static const char *const keys[] = {"x", "\x1b", "\x1b[<0;3;4M"};
    for (int k = 0; k < 3; k++) {
        t0 = buf_now();
        watch_arm(&w, t0, false);
        put(fd[1], keys[k]);
        at = raised_by(&stop, 2.0);
        CHECK_MSG(at > 0.0, "key %d did not raise the flag", k);
        CHECK_MSG(at < 0.0 || at - t0 >= WATCH_AFTER - 0.005, "key %d raised it %.3f s in", k,
                  at - t0);
        n = watch_disarm(&w);
        CHECK_INT(n, strlen(keys[k]));
    }
    /* Input waiting already (a lone ESC the loop holds back). */
    t0 = buf_now();
    watch_arm(&w, t0, true);
    at = raised_by(&stop, 2.0);
    CHECK(at > 0.0 && at - t0 >= WATCH_AFTER - 0.005);
    CHECK_INT(watch_disarm(&w), 0);
    /* A frame quicker than WATCH_AFTER is never cut, whatever comes. */
    watch_arm(&w, buf_now(), false);
    put(fd[1], "q");
    fx_nap(0.02);
    CHECK(atomic_load(&stop) == 0);
    CHECK_INT(watch_disarm(&w), 0); /* nothing read: the loop reads it */
    char b[4];
    CHECK(read(fd[0], b, sizeof b) == 1);
    watch_end(&w);
    close(fd[0]);
    close(fd[1]);
}

/* ---- in tmux ---------------------------------------------------------------------- */

#define EXTREME_CLOTH "--scene cloth --preset seed --set width=300 --set height=300 " \
                      "--set iterations=200 --set substeps=50"
#define KEY_DEADLINE 2.0 /* s: generous (0.3 s is the aim) */

static bool shows(const char *screen, void *needle) { return strstr(screen, needle) != NULL; }

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
        double t = buf_now();
        e2e_send_key(cases[i].key);
        bool out = e2e_wait(e2e_plain, shows, (void *)cases[i].status, KEY_DEADLINE);
        CHECK_MSG(out, "%s: no %s within %.1f s", cases[i].key, cases[i].status, KEY_DEADLINE);
        if (out)
            fprintf(stderr, "  %s answered in %.3f s\n", cases[i].key, buf_now() - t);
        e2e_stop();
    }
}

/* R during such a step: the frame is cut short (the HUD says so), then the
 * scene is back at its defaults, and q ends it. */
TEST_E2E(wait_r_resets_during_a_step_of_seconds)
{
    CHECK(e2e_start_swirl(100, 30, "COLORTERM=truecolor", EXTREME_CLOTH));
    fx_nap(1.0);
    e2e_send_key("R");
    CHECK_MSG(e2e_wait(e2e_plain, shows, (void *)" ms/step", KEY_DEADLINE),
              "no frame within %.1f s of R:\n%s", KEY_DEADLINE, e2e_plain());
    CHECK_MSG(e2e_wait_gone(e2e_plain, "particles 90000"), "not reset:\n%s", e2e_plain());
    CHECK(e2e_wait_for(e2e_plain, "particles "));
    e2e_send_key("q");
    CHECK(e2e_wait(e2e_plain, shows, (void *)"SWIRL-EXIT=0", KEY_DEADLINE));
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
    CHECK(e2e_wait_for(e2e_plain, " ms/step"));
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
    e2e_send_bytes("echo SWIRL-EXIT=$?\r");
    CHECK_MSG(e2e_wait_for(e2e_plain, "SWIRL-EXIT=0"), "q after Ctrl-S:\n%s", e2e_plain());
    CHECK_MSG(tty_flag("ixon"), "the shell's flow control is not back");
    e2e_stop();
}
