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
#include <string.h>

#define LINK_COLS 120
#define LINK_ROWS 40
#define LINK_SECONDS 10.0 /* virtual s a case runs, */
#define LINK_WARM 4.0     /* the first of them not measured */

/* The app and its frames, as the terminal loop has them. */
struct link_src {
    struct app a;
    struct frame fr;
    struct buf out;
    struct image exact_img;
    struct cells exact;
    struct frame_stats exact_st;
    double err_sum, warm, clear_at, exact_err, exact_t;
    long err_n;
};

static double no_clock(void) { return 0.0; }

static size_t link_frame(void *ctx, double t, bool send, const struct flow_plan *p, double *want)
{
    struct link_src *s = ctx;
    s->fr.enc.budget = p->budget;
    s->fr.enc.adapt = true;
    s->fr.st.fewer_colours = p->fewer_colours;
    buf_clear(&s->out);
    size_t n = frame_next(&s->fr, &s->a, 1.0 / s->a.o.fps, no_clock, false, send ? &s->out : NULL);
    *want = s->fr.enc.want;
    /* What the screen shows against the frame drawn whole, in truecolour. */
    compose_frame(&s->a, &s->exact_st, &s->exact_img, &s->exact);
    double err = encode_error(&s->fr.enc, &s->exact);
    if (t >= s->warm)
        s->err_sum += err, s->err_n++;
    if (s->clear_at > 0.0 && t >= s->clear_at && s->exact_t < 0.0 && err <= s->exact_err)
        s->exact_t = t - s->clear_at;
    return n;
}

/* One case: scene sc behind the link c; the result and the mean error. */
static double link_case(int sc, struct simlink_cfg *c, struct simlink_result *r, double clear_at,
                        double exact_err, double *exact_t)
{
    static struct link_src s;
    memset(&s, 0, sizeof s);
    struct app_opts o;
    app_opts_default(&o);
    o.autopilot = true;
    o.scene = sc;
    if (app_init(&s.a, &o, LINK_COLS, LINK_ROWS) != 0)
        return -1.0;
    frame_init(&s.fr, &s.a, true);
    buf_init(&s.out);
    image_init(&s.exact_img, 1, 1);
    cells_init(&s.exact, LINK_COLS, LINK_ROWS);
    s.exact_st.simulated = true;
    s.warm = c->warm;
    s.clear_at = clear_at, s.exact_err = exact_err, s.exact_t = -1.0;
    struct simlink_source src = {&s, link_frame};
    c->source = &src;
    c->fps = o.fps;
    simlink_run(c, r);
    if (exact_t)
        *exact_t = s.exact_t;
    app_free(&s.a);
    frame_free(&s.fr);
    buf_free(&s.out);
    image_free(&s.exact_img);
    cells_free(&s.exact);
    return s.err_n ? s.err_sum / (double)s.err_n : -1.0;
}

void bench_link(void)
{
    static const double rates[] = {0.0, 1e6, 100e3, 20e3}, rtts[] = {0.0, 0.1, 0.3};
    printf("link, virtual time: swirl's frames at %dx%d behind a simulated link (fps seen, "
           "share of the link used, longest queue, error vs the exact frame 0-255):\n",
           LINK_COLS, LINK_ROWS);
    double fast_err[SCENE_COUNT] = {0};
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
                double err = link_case(sc, &c, &r, 0.0, 0.0, NULL);
                if (rates[i] == 0.0 && k == 0)
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
        double t = -1.0;
        link_case(sc, &c, &r, 6.0, fast_err[sc] + 0.5, &t);
        if (t >= 0.0)
            printf("  %s %.2f s", scenes[sc]->name, t);
        else
            printf("  %s never", scenes[sc]->name);
    }
    printf(" (target <= 2 s)\n");
}
