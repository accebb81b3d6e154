/*
 * link.c — swirl-bench's link part: swirl's own frames (each scene's --auto
 * stroke at 120x40, the real app, composer, encoder and flow control) behind
 * the simulated link of the tests (tests/simlink.h) on virtual time, so the
 * figures are the same on any machine: the frames the terminal sees a second,
 * the share of the link's bytes they take, the longest any byte waited in its
 * queue, and the picture's error against the exact frame (the mean over the
 * cells of how far a colour shown is off, 0-255, against the truecolour frame
 * drawn whole) at each frame time. Then a link that clears: how long until
 * the picture is as exact as on a fast link.
 */
#include "bench.h"
#include "encode.h"
#include "frame.h"
#include "scene.h"
#include "simlink.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINK_COLS 120
#define LINK_ROWS 40
#define LINK_SECONDS 10.0 /* virtual s a case runs, */
#define LINK_WARM 4.0     /* the first of them not measured */
#define LINK_GIVE_SECONDS 34.0 /* virtual s a case of bench_give runs */

/* Frames on their way: the screen each leaves behind, in the order sent. */
#define LINK_FLIGHT 64
#define STALE_AFTER 1.0 /* s a cell may show what was the picture that long ago */

/* A frame on its way: the screen it leaves, when it was made, and which of
 * its cells then showed the picture of that moment (at the level in force,
 * within the tolerance there: every cell of a whole frame; a frame cut to a
 * budget leaves some as they were). */
struct link_flight {
    struct cell *screen;
    unsigned char *fresh;
    double t;
};

/* The app and its frames, as the terminal loop has them, and what the
 * terminal shows of them. */
struct link_src {
    struct app a;
    struct frame fr;
    struct buf out;
    struct image exact_img;
    struct cells exact;      /* the frame drawn whole in truecolour */
    struct cells screen;     /* what the terminal shows: the last frame that reached it */
    struct link_flight flight[LINK_FLIGHT]; /* the frames on their way */
    int fhead, fn;
    double *fresh_t;         /* when what each cell shows was last the picture */
    double drawn_t;          /* the frame time `exact` was drawn for (-1: none yet) */
    double err_sum, warm, clear_at, exact_err, exact_t;
    long err_n;
    double stale_sum, stale_max; /* share of cells stale, summed; the oldest seen (s) */
    int level, changes;      /* the level in force; its changes over the span */
};

static double no_clock(void) { return 0.0; }

static void link_shown(void *ctx, double t)
{
    (void)t;
    struct link_src *s = ctx;
    if (s->fn == 0)
        return;
    const struct link_flight *fl = &s->flight[s->fhead];
    size_t n = (size_t)s->screen.cols * (size_t)s->screen.rows;
    memcpy(s->screen.c, fl->screen, n * sizeof *s->screen.c);
    for (size_t i = 0; i < n; i++)
        if (fl->fresh[i] && fl->t > s->fresh_t[i])
            s->fresh_t[i] = fl->t;
    s->fhead = (s->fhead + 1) % LINK_FLIGHT, s->fn--;
}

/* A frame just sent: the screen it leaves once it arrives, and which of its
 * cells show the picture it was made of (the level's: the frame's cells). */
static void link_sent(struct link_src *s, double t)
{
    if (s->fn == LINK_FLIGHT)
        abort(); /* more frames on the way than the flow control lets go: a bug */
    struct link_flight *fl = &s->flight[(s->fhead + s->fn++) % LINK_FLIGHT];
    size_t n = (size_t)s->screen.cols * (size_t)s->screen.rows;
    memcpy(fl->screen, s->fr.enc.shadow, n * sizeof *fl->screen);
    static unsigned short *err;
    static size_t nerr;
    if (nerr < n)
        err = buf_xrealloc(err, (nerr = n) * sizeof *err);
    encode_cells_error(fl->screen, &s->fr.cells, err);
    const int tol = s->fr.enc.tolerance > 0 ? s->fr.enc.tolerance : 0;
    for (size_t i = 0; i < n; i++)
        fl->fresh[i] = err[i] <= tol + 2; /* (a level or two for rounding) */
    fl->t = t;
}

/* What the screen showed until now, against the frame drawn whole at the
 * last frame time (the error), and how long ago what each cell shows was
 * the picture (stale: more than STALE_AFTER). */
static void link_judge(struct link_src *s)
{
    const double t = s->drawn_t;
    double err = encode_cells_error(s->screen.c, &s->exact, NULL);
    size_t n = (size_t)s->screen.cols * (size_t)s->screen.rows, stale = 0;
    for (size_t i = 0; i < n; i++) {
        double age = t - s->fresh_t[i];
        if (t >= s->warm && age > s->stale_max)
            s->stale_max = age;
        stale += age > STALE_AFTER;
    }
    if (t >= s->warm) {
        s->err_sum += err, s->err_n++;
        s->stale_sum += (double)stale / (double)n;
    }
    if (s->clear_at > 0.0 && t >= s->clear_at && s->exact_t < 0.0 && err <= s->exact_err)
        s->exact_t = t - s->clear_at;
}

static size_t link_frame(void *ctx, double t, bool send, double avail, double pace, double *want)
{
    struct link_src *s = ctx;
    if (s->drawn_t >= 0.0)
        link_judge(s);
    if (send) /* as the terminal loop plans a frame */
        frame_plan(&s->fr, &s->a, avail, pace, true, t);
    buf_clear(&s->out);
    size_t n = frame_next(&s->fr, &s->a, 1.0 / s->a.o.fps, no_clock, false, send ? &s->out : NULL);
    *want = ladder_want(&s->fr.lad, s->a.o.fps, t);
    if (n > 0)
        link_sent(s, t);
    if (s->fr.lad.rung != s->level && t >= s->warm)
        s->changes++;
    if (getenv("LADDBG") && s->fr.lad.rung != s->level)
        fprintf(stderr, "t %.2f rung %d -> %d avail %.0f need %.0f wait %.0f\n", t, s->level, s->fr.lad.rung, avail, s->fr.lad.need[s->level], s->fr.lad.wait);
    s->level = s->fr.lad.rung;
    /* The frame drawn whole, for the error (the status line as the frame's). */
    struct frame_stats st = s->fr.st;
    st.fewer_colours = false;
    st.block = (struct cells_block){0, 0, false};
    compose_frame(&s->a, &st, &s->exact_img, &s->exact);
    s->drawn_t = t;
    return n;
}

/* What a case measured, besides the link's own figures. */
struct link_seen {
    double err;        /* the screen against the frame drawn whole, mean 0-255 */
    double stale;      /* the share of cells stale, on average */
    double stale_max;  /* s: the longest a cell stayed off */
    double changes;    /* level changes a minute */
    int level;         /* the level at the end */
    double exact_t;    /* s from clear_at until the picture was exact (-1: never) */
};

/* One case: scene sc behind the link c at cols x rows. */
static void link_case(int sc, int cols, int rows, struct simlink_cfg *c, struct simlink_result *r,
                      double clear_at, double exact_err, struct link_seen *seen)
{
    static struct link_src s;
    memset(&s, 0, sizeof s);
    memset(seen, 0, sizeof *seen);
    seen->err = seen->exact_t = -1.0;
    struct app_opts o;
    app_opts_default(&o);
    o.autopilot = true;
    o.scene = sc;
    if (app_init(&s.a, &o, cols, rows) != 0)
        return;
    frame_init(&s.fr, &s.a, true);
    buf_init(&s.out);
    image_init(&s.exact_img, 1, 1);
    cells_init(&s.exact, cols, rows);
    cells_init(&s.screen, cols, rows);
    size_t n = (size_t)cols * (size_t)rows;
    for (int i = 0; i < LINK_FLIGHT; i++) {
        s.flight[i].screen = buf_xrealloc(NULL, n * sizeof *s.flight[i].screen);
        s.flight[i].fresh = buf_xrealloc(NULL, n);
    }
    s.fresh_t = buf_xrealloc(NULL, n * sizeof *s.fresh_t);
    for (size_t i = 0; i < n; i++)
        s.fresh_t[i] = 0.0; /* the blank screen was the picture at the start */
    s.warm = c->warm;
    s.drawn_t = -1.0;
    s.clear_at = clear_at, s.exact_err = exact_err, s.exact_t = -1.0;
    struct simlink_source src = {&s, link_frame, link_shown};
    c->source = &src;
    c->fps = o.fps;
    simlink_run(c, r);
    double span = c->seconds - c->warm;
    if (s.err_n) {
        seen->err = s.err_sum / (double)s.err_n;
        seen->stale = s.stale_sum / (double)s.err_n;
    }
    seen->stale_max = s.stale_max;
    seen->changes = span > 0.0 ? 60.0 * s.changes / span : 0.0;
    seen->level = s.level;
    seen->exact_t = s.exact_t;
    app_free(&s.a);
    frame_free(&s.fr);
    buf_free(&s.out);
    image_free(&s.exact_img);
    cells_free(&s.exact);
    cells_free(&s.screen);
    for (int i = 0; i < LINK_FLIGHT; i++) {
        free(s.flight[i].screen);
        free(s.flight[i].fresh);
    }
    free(s.fresh_t);
}

/* Where swirl has to give: a slow link, a terminal that reads slowly; each
 * scene's level, its changes, the cells left stale and the error. */
static void bench_give(void)
{
    static const struct {
        const char *what;
        double rate, rtt;
    } cases[] = {
        {"link 20 KB/s, rtt 100 ms", 20e3, 0.1},     {"link 100 KB/s, rtt 100 ms", 100e3, 0.1},
        {"terminal reading 1 MB/s", 1e6, 0.0},       {"terminal reading 3 MB/s", 3e6, 0.0},
    };
    printf("  when swirl has to give, %dx%d, %.0f s after %.0f s (fps seen, level at the end, "
           "level changes a minute, cells stale > %.0f s on average and the longest off, error "
           "vs the exact frame 0-255):\n",
           LINK_COLS, LINK_ROWS, LINK_GIVE_SECONDS - LINK_WARM, LINK_WARM, STALE_AFTER);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        printf("    %-26s", cases[i].what);
        for (int sc = 0; sc < SCENE_COUNT; sc++) {
            struct simlink_cfg c = {.rate = cases[i].rate, .down = cases[i].rtt / 2,
                                    .up = cases[i].rtt / 2, .seconds = LINK_GIVE_SECONDS,
                                    .warm = LINK_WARM, .answered_probe = true};
            struct simlink_result r;
            struct link_seen seen;
            link_case(sc, LINK_COLS, LINK_ROWS, &c, &r, 0.0, 0.0, &seen);
            printf("  %s %4.1f fps L%d %3.1f/min stale %4.1f%% %3.1f s err %4.1f", scenes[sc]->name,
                   r.fps, seen.level, seen.changes, 100.0 * seen.stale, seen.stale_max, seen.err);
        }
        printf("\n");
    }
}

void bench_link(void)
{
    static const double rates[] = {0.0, 1e6, 100e3, 20e3}, rtts[] = {0.0, 0.1, 0.3};
    printf("link, virtual time: swirl's frames at %dx%d behind a simulated link (fps seen, "
           "share of the link used, longest queue, error vs the exact frame 0-255):\n",
           LINK_COLS, LINK_ROWS);
    double fast_err[SCENE_COUNT] = {0}; /* no limit, at the round trip of the link that clears */
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++)
        for (size_t k = 0; k < sizeof rtts / sizeof rtts[0]; k++) {
            char rate[32];
            if (rates[i] > 0.0)
                snprintf(rate, sizeof rate, "%.0f KB/s", rates[i] / 1000.0);
            else
                snprintf(rate, sizeof rate, "no limit");
            printf("  %-10s rtt %3.0f ms:", rate, rtts[k] * 1000.0);
            for (int sc = 0; sc < SCENE_COUNT; sc++) {
                struct simlink_cfg c = {.rate = rates[i], .down = rtts[k] / 2, .up = rtts[k] / 2,
                                        .seconds = LINK_SECONDS, .warm = LINK_WARM,
                                        .answered_probe = true};
                struct simlink_result r;
                struct link_seen seen;
                link_case(sc, LINK_COLS, LINK_ROWS, &c, &r, 0.0, 0.0, &seen);
                double err = seen.err;
                if (rates[i] == 0.0 && rtts[k] == 0.1)
                    fast_err[sc] = err;
                char used[16] = "   -";
                if (rates[i] > 0.0)
                    snprintf(used, sizeof used, "%3.0f%%", 100.0 * r.util);
                printf("  %s %4.1f fps %s %4.2f s err %4.1f", scenes[sc]->name, r.fps, used,
                       r.queue_max, err);
            }
            printf("\n");
        }
    printf("  a link that clears (20 KB/s, then 10 MB/s from 6 s, rtt 100 ms): the picture as "
           "exact as on a fast link after");
    for (int sc = 0; sc < SCENE_COUNT; sc++) {
        struct simlink_cfg c = {.rate = 20e3, .rate2 = 10e6, .t_change = 6.0, .down = 0.05,
                                .up = 0.05, .seconds = 12.0, .warm = 7.0, .answered_probe = true};
        struct simlink_result r;
        struct link_seen seen;
        link_case(sc, LINK_COLS, LINK_ROWS, &c, &r, 6.0, fast_err[sc] + 0.5, &seen);
        double t = seen.exact_t;
        if (t >= 0.0)
            printf("  %s %.2f s", scenes[sc]->name, t);
        else
            printf("  %s never", scenes[sc]->name);
    }
    printf(" (target <= 2 s)\n");
    bench_give();
}
