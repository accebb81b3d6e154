/*
 * link.c — swirl-bench's link part: swirl's own frames (each scene's --auto
 * stroke at 120x40, the real app, composer, encoder and flow control) behind
 * the simulated link of the tests (tests/simlink.h) on virtual time, so the
 * figures are the same on any machine: the frames the terminal sees a second,
 * the share of the link's bytes they take, the longest any byte waited in its
 * queue, and the error against the exact frame of what the terminal shows
 * (tests/simscreen.h). Then a link that clears: how long until the picture is
 * as exact as on a fast link. Then where swirl has to give (a slow link, a
 * terminal that reads slowly): the level of the picture it settles on, how
 * often that changes, and the cells that show a picture older than a second.
 */
#include "bench.h"
#include "encode.h"
#include "frame.h"
#include "scene.h"
#include "simscreen.h"

#include <stdio.h>
#include <string.h>

#define LINK_COLS 120
#define LINK_ROWS 40
#define LINK_SECONDS 10.0 /* virtual s a case runs, */
#define LINK_WARM 4.0     /* the first of them not measured */
#define LINK_GIVE_SECONDS 40.0 /* virtual s a case of bench_give runs, */
#define LINK_GIVE_WARM 10.0    /* the first of them not measured (the first frame
                                * at 20 KB/s takes seconds) */

/* One case: scene sc behind the link c at LINK_COLS x LINK_ROWS. */
static void link_case(int sc, struct simlink_cfg *c, struct simlink_result *r, double clear_at,
                      double exact_err, struct simscreen_seen *seen)
{
    struct simscreen_cfg s = {.scene = sc, .cols = LINK_COLS, .rows = LINK_ROWS,
                              .clear_at = clear_at, .exact_err = exact_err};
    simscreen_run(&s, c, r, seen);
}

/* Pixels behind the link: each scene at 100x30 (cells of 8x17) in each
 * protocol, the frames the terminal sees a second and the scale they were
 * drawn at. */
void bench_pixels_link(void)
{
    static const double rates[] = {100e3, 1e6, 10e6};
    static const enum app_pixels protos[] = {APP_PIXELS_KITTY, APP_PIXELS_SIXEL};
    printf("  pixels behind the link, 100x30, rtt 20 ms, %.0f s after %.0f s (fps seen, mean k of 8 "
           "while moving):\n", LINK_SECONDS - LINK_WARM, LINK_WARM);
    for (size_t p = 0; p < sizeof protos / sizeof protos[0]; p++)
        for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++) {
            printf("    %-6s %5.0f KB/s   ", protos[p] == APP_PIXELS_KITTY ? "kitty" : "sixel",
                   rates[i] / 1000.0);
            for (int sc = 0; sc < SCENE_COUNT; sc++) {
                struct simlink_cfg c = {.rate = rates[i], .down = 0.01, .up = 0.01,
                                        .seconds = LINK_SECONDS, .warm = LINK_WARM,
                                        .answered_probe = true};
                struct simscreen_cfg s = {.scene = sc, .cols = 100, .rows = 30,
                                          .pixels = protos[p]};
                struct simlink_result r;
                struct simscreen_seen seen;
                simscreen_run(&s, &c, &r, &seen);
                printf("  %s %4.1f fps k %.1f", scenes[sc]->name, r.fps, seen.pixel_k);
            }
            printf("\n");
            fflush(stdout);
        }
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
           LINK_COLS, LINK_ROWS, LINK_GIVE_SECONDS - LINK_GIVE_WARM, LINK_GIVE_WARM, SIMSCREEN_STALE);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        printf("    %-26s", cases[i].what);
        for (int sc = 0; sc < SCENE_COUNT; sc++) {
            struct simlink_cfg c = {.rate = cases[i].rate, .down = cases[i].rtt / 2,
                                    .up = cases[i].rtt / 2, .seconds = LINK_GIVE_SECONDS,
                                    .warm = LINK_GIVE_WARM, .answered_probe = true};
            struct simlink_result r;
            struct simscreen_seen seen;
            link_case(sc, &c, &r, 0.0, 0.0, &seen);
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
                struct simscreen_seen seen;
                link_case(sc, &c, &r, 0.0, 0.0, &seen);
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
        struct simscreen_seen seen;
        link_case(sc, &c, &r, 6.0, fast_err[sc] + 0.5, &seen);
        double t = seen.exact_t;
        if (t >= 0.0)
            printf("  %s %.2f s", scenes[sc]->name, t);
        else
            printf("  %s never", scenes[sc]->name);
    }
    printf(" (target <= 2 s)\n");
    bench_give();
}
