/*
 * test_flow.c — the flow control (flow.c) on its own and against a simulated
 * link on virtual time (simlink.h): pieces cut only before an escape
 * sequence; the base round trip told apart from queueing; the frame rate the
 * same at any round trip; a slow link kept busy with a short queue; the
 * picture's budget, colours and frame rate following the link and given back
 * when it clears; lost answers, a terminal that never answers and one that
 * answers late; how long leaving waits for answers.
 */
#include "flow.h"
#include "flow_internal.h"
#include "simlink.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

TEST(flow_pieces_end_before_an_escape_sequence)
{
    struct flow f;
    flow_init(&f);
    f.window = 10;
    const char *frame = "\x1b[H\x1b[48;2;1;2;3m  \xe2\x96\x80\xe2\x96\x80\x1b[2;5H ab";
    size_t len = strlen(frame), off = 0;
    int pieces = 0;
    while (off < len) {
        size_t n = flow_chunk(&f, frame + off, len - off);
        CHECK(n > 0);
        off += n;
        CHECK_MSG(off == len || frame[off] == '\x1b', "cut at %zu", off);
        flow_answered(&f, flow_wrote(&f, n, 0.0), 0.001);
        f.window = 10; /* hold it small: many pieces */
        pieces++;
    }
    CHECK(pieces >= 3);
    /* Full window: nothing more until an answer. */
    flow_init(&f);
    f.window = 8;
    CHECK_INT(flow_chunk(&f, frame, len), 3);
    enum flow_ping first = flow_wrote(&f, 3, 0.0);
    flow_wrote(&f, 5, 0.0);
    CHECK_INT(flow_chunk(&f, frame, len), 0);
    CHECK(!flow_ready(&f));
    flow_answered(&f, first, 0.01);
    CHECK_INT(flow_in_flight(&f), 5);
}

/* Every ping's answer is awaited: with the ring of pings full no piece goes
 * (dropping the oldest would have its answer taken for the next one's, a
 * round trip too short and a rate too high, which on a real pty behind a
 * slow link let the window flood it: q was seen after 1.8 s at 20 KB/s);
 * each answer is matched to its own ping. */
TEST(flow_no_ping_is_dropped_while_its_answer_may_come)
{
    struct flow f;
    flow_init(&f);
    f.window = 1e6;
    char piece[16];
    memset(piece, 'x', sizeof piece);
    enum flow_ping kind[FLOW_PINGS];
    for (int i = 0; i < FLOW_PINGS; i++) {
        CHECK(flow_chunk(&f, piece, sizeof piece) == sizeof piece);
        kind[i] = flow_wrote(&f, sizeof piece, i * 0.001);
    }
    CHECK_INT((long long)flow_chunk(&f, piece, sizeof piece), 0);
    CHECK(flow_ready(&f)); /* the window has room: only the pings are full */
    for (int i = 0; i < 3; i++) {
        flow_answered(&f, kind[i], i * 0.001 + 0.2);
        CHECK_NEAR(f.rtt, 0.2, 1e-9);
        CHECK_INT((long long)flow_chunk(&f, piece, sizeof piece), (long long)sizeof piece);
    }
}

/* A piece is at most a FLOW_PIECES-th of a large window: many pings a
 * round trip, so each measures a short stretch of the link. */
TEST(flow_pieces_are_a_share_of_the_window)
{
    static char frame[200000];
    for (size_t i = 0; i < sizeof frame; i++)
        frame[i] = i % 8 == 0 ? '\x1b' : 'x';
    struct flow f;
    flow_init(&f);
    f.window = 160000;
    size_t n = flow_chunk(&f, frame, sizeof frame);
    CHECK_MSG(n <= 160000 / FLOW_PIECES && n + 8 > 160000 / FLOW_PIECES, "piece %zu", n);
    f.window = 4000; /* small windows: at least FLOW_PIECE_MIN */
    CHECK_INT(flow_chunk(&f, frame, sizeof frame), FLOW_PIECE_MIN);
}

/* The base round trip is the least a ping took, not what it took behind a
 * queue: a 100 ms link whose pings wait 300 ms in line keeps a base of 0.1 s,
 * and the window is what the rate carries in a base round trip and
 * FLOW_QUEUE, not in the whole 0.4 s. */
TEST(flow_base_round_trip_is_told_apart_from_queueing)
{
    struct flow f;
    flow_init(&f);
    flow_asked(&f, 0.0, 0.1);
    CHECK_NEAR(f.base, 0.1, 1e-9);
    /* A link of 50 KB/s, the queue 0.3 s deep: 1 KB pieces, one every 20 ms,
     * each answered 0.4 s after it went. */
    double t = 1.0;
    enum flow_ping kind[200];
    for (int i = 0; i < 200; i++, t += 0.02) {
        f.window = 1e9; /* let everything through: the queue is the link's */
        kind[i] = flow_wrote(&f, 1000, t);
        if (i >= 20)
            flow_answered(&f, kind[i - 20], t);
    }
    CHECK_NEAR(f.base, 0.1, 0.02);
    CHECK_MSG(f.rtt > 0.35, "rtt %g", f.rtt);
    CHECK_MSG(f.rate > 45000 && f.rate < 55000, "rate %g", f.rate);
    CHECK_MSG(f.window < 50000 * (0.1 + FLOW_QUEUE) * 1.1, "window %g", f.window);
    /* The old base is forgotten once FLOW_BASE_SLOTS slots have passed. */
    for (int i = 180; i < 200; i++, t += 0.02) /* the last answers come */
        flow_answered(&f, kind[i], t);
    flow_tick(&f, t + FLOW_BASE_SLOT * (FLOW_BASE_SLOTS + 1));
    flow_answered(&f, flow_wrote(&f, 10, t + 20.0), t + 20.3); /* the link is longer now */
    CHECK_NEAR(f.base, 0.3, 0.05);
}

static void run(struct simlink_cfg c, struct simlink_result *r)
{
    if (c.seconds == 0.0)
        c.seconds = 12.0;
    if (c.warm == 0.0)
        c.warm = 4.0;
    if (c.fps == 0.0)
        c.fps = 30.0;
    c.answered_probe = true;
    simlink_run(&c, r);
}

/* With bandwidth to spare, the frame rate does not depend on the round trip:
 * one way 0 to 300 ms, every frame is seen, and q is seen within a round
 * trip and 0.25 s. */
TEST(flow_full_frame_rate_at_any_round_trip)
{
    static const double delay[] = {0.0, 0.01, 0.035, 0.05, 0.1, 0.15, 0.3};
    for (size_t i = 0; i < sizeof delay / sizeof delay[0]; i++) {
        struct simlink_result r;
        run((struct simlink_cfg){.rate = 10e6, .down = delay[i], .up = delay[i], .frame = 30000,
                                 .quit_at = 11.0},
            &r);
        CHECK_MSG(r.fps >= 27.0, "%.0f ms each way: %.1f fps", delay[i] * 1e3, r.fps);
        CHECK_MSG(r.quit >= 0.0 && r.quit <= 2.0 * delay[i] + 0.25, "%.0f ms: q seen after %.3f s",
                  delay[i] * 1e3, r.quit);
        CHECK_MSG(r.worst_rung == 0, "%.0f ms: rung %d", delay[i] * 1e3, r.worst_rung);
        CHECK_NEAR(r.flow.base, 2.0 * delay[i], 0.01);
    }
}

/* A slow link is used, not left idle, and what stands queued beyond the base
 * round trip is about a tenth of a second of it, whatever the round trip. */
TEST(flow_slow_link_is_kept_busy_with_a_short_queue)
{
    static const double rates[] = {20e3, 100e3, 1e6}, delay[] = {0.0, 0.025, 0.05, 0.1};
    for (size_t i = 0; i < 3; i++)
        for (size_t k = 0; k < sizeof delay / sizeof delay[0]; k++) {
            struct simlink_result r;
            double frame = rates[i] < 1e6 ? 30000 : 80000; /* more than the link carries */
            run((struct simlink_cfg){.rate = rates[i], .down = delay[k], .up = delay[k],
                                     .frame = frame, .quit_at = 11.0},
                &r);
            CHECK_MSG(r.util >= 0.85, "%.0f B/s, %.0f ms each way: %.2f of the link used",
                      rates[i], delay[k] * 1e3, r.util);
            CHECK_MSG(r.queue_max <= 0.15, "%.0f B/s, %.0f ms: %.3f s queued", rates[i],
                      delay[k] * 1e3, r.queue_max);
            CHECK_MSG(r.quit >= 0.0 && r.quit <= 2.0 * delay[k] + 0.25,
                      "%.0f B/s, %.0f ms: q seen after %.3f s", rates[i], delay[k] * 1e3, r.quit);
        }
}

/* Where whole frames do not fit, the picture gives (ladder.h): at 20 KB/s
 * and at 100 KB/s the frames come at least at the floor of the rung they
 * settle on, which is coarser at the slower link; colours last, never where
 * the user chose them; a link that carries whole frames asks nothing of the
 * picture. */
TEST(flow_picture_adapts_to_the_link)
{
    static const double delay[] = {0.0, 0.05, 0.1};
    for (size_t k = 0; k < sizeof delay / sizeof delay[0]; k++) {
        struct simlink_result slow, fast;
        run((struct simlink_cfg){.rate = 20e3, .down = delay[k], .up = delay[k], .frame = 30000},
            &slow);
        run((struct simlink_cfg){.rate = 100e3, .down = delay[k], .up = delay[k], .frame = 30000},
            &fast);
        const struct simlink_result *rs[] = {&slow, &fast};
        for (int i = 0; i < 2; i++) {
            double floor = ladder_rungs[rs[i]->rung_at_end].floor;
            CHECK_MSG(rs[i]->rung_at_end > 0 && rs[i]->fps >= 0.9 * floor,
                      "%s, %.0f ms: rung %d at %.1f fps", i ? "100 KB/s" : "20 KB/s",
                      delay[k] * 1e3, rs[i]->rung_at_end, rs[i]->fps);
            CHECK_MSG(rs[i]->util >= 0.8, "%.2f of the link used", rs[i]->util);
        }
        CHECK_MSG(slow.rung_at_end > fast.rung_at_end, "rungs %d and %d", slow.rung_at_end,
                  fast.rung_at_end);
        CHECK(!ladder_rungs[fast.rung_at_end].fewer_colours);
    }
    /* The user chose the colours: they stay, the rest gives. */
    struct simlink_result r;
    run((struct simlink_cfg){.rate = 1500, .frame = 30000, .colour_fixed = true, .seconds = 60},
        &r);
    CHECK_MSG(!ladder_rungs[r.worst_rung].fewer_colours, "rung %d", r.worst_rung);
    run((struct simlink_cfg){.rate = 1500, .frame = 30000, .seconds = 60}, &r);
    CHECK_MSG(ladder_rungs[r.worst_rung].fewer_colours, "rung %d", r.worst_rung);
    /* A link that carries whole frames asks nothing of the picture. */
    run((struct simlink_cfg){.rate = 1e6, .frame = 20000}, &r);
    CHECK_MSG(r.worst_rung == 0 && r.fps >= 29.0, "rung %d, %.1f fps", r.worst_rung, r.fps);
}

/* The link slows from 2 MB/s to 50 KB/s at 4 s and clears again at 16 s.
 * What was in flight when it slowed (a window for 2 MB/s) drains at the new
 * rate, as nothing can call it back; from then on the queue is short and
 * frames still come. Within two seconds of the clearing the picture is
 * whole again. */
TEST(flow_follows_a_link_that_slows_and_clears)
{
    struct simlink_cfg c = {.rate = 2e6, .rate2 = 50e3, .t_change = 4.0, .t_back = 16.0,
                            .frame = 30000, .down = 0.03, .up = 0.03};
    struct simlink_result r;
    c.warm = 12.0, c.seconds = 16.0; /* the slow span, once that has drained */
    run(c, &r);
    CHECK_MSG(r.queue_max <= 0.15, "%.3f s queued", r.queue_max);
    CHECK_MSG(r.fps >= 5.0 && r.util >= 0.8, "slow: %.1f fps, %.2f used", r.fps, r.util);
    c.warm = 18.0, c.seconds = 21.0; /* two seconds after it cleared */
    run(c, &r);
    CHECK_MSG(r.fps >= 29.0 && r.worst_rung == 0, "cleared: %.1f fps, rung %d", r.fps,
              r.worst_rung);
}

/* One answer in seven never comes: nothing stops for good, and the link is
 * still mostly used. (An answer taken for another's blurs what the rest
 * measure: the rate measured dips now and then, and whole frames, paced to
 * it, wait for answers the flow control has to write off; a terminal loses
 * no answers, so this is the worst case, not the usual one.) */
TEST(flow_survives_lost_answers)
{
    struct simlink_result r;
    run((struct simlink_cfg){.rate = 10e6, .down = 0.05, .up = 0.05, .frame = 30000,
                             .lose_every = 7, .seconds = 30.0},
        &r);
    CHECK_MSG(r.fps >= 8.0 && r.rung_at_end <= 2, "%.1f fps, rung %d", r.fps, r.rung_at_end);
    run((struct simlink_cfg){.rate = 100e3, .down = 0.02, .up = 0.02, .frame = 30000,
                             .lose_every = 7},
        &r);
    CHECK_MSG(r.fps >= ladder_rungs[r.rung_at_end].floor && r.util >= 0.7,
              "%.1f fps at rung %d, %.2f used", r.fps, r.rung_at_end, r.util);
    /* The last answer before a still picture (no frames for longer than
     * FLOW_LOST) is lost, from a terminal that never answers a position
     * request: the ping is written off all the same, and once the picture
     * moves again frames go on (not a window each FLOW_LOST s). */
    for (int no_where = 0; no_where < 2; no_where++) {
        run((struct simlink_cfg){.rate = 10e6, .down = 0.02, .up = 0.02, .frame = 30000,
                                 .lose_at = 2.99, .no_where = no_where, .idle_at = 3.0,
                                 .idle_for = 4.0, .warm = 8.0, .seconds = 12.0},
            &r);
        CHECK_MSG(r.fps >= 27.0, "position answers %s: %.1f fps", no_where ? "none" : "too",
                  r.fps);
    }
}

/* A terminal that answers position requests and not status requests (st
 * 0.9): after its first position answer every ping asks where the cursor is,
 * and the frames come as from one that answers both, near and far (each
 * position request paced it alone: 3 frames a second). */
TEST(flow_a_terminal_answering_positions_alone_keeps_its_frames)
{
    static const double delay[] = {0.0, 0.05};
    for (size_t i = 0; i < sizeof delay / sizeof delay[0]; i++) {
        struct simlink_result r;
        run((struct simlink_cfg){.rate = 10e6, .down = delay[i], .up = delay[i], .frame = 30000,
                                 .no_status = true},
            &r);
        CHECK_MSG(r.fps >= 27.0, "%.0f ms each way: %.1f fps", delay[i] * 1e3, r.fps);
        CHECK(r.flow.where_ok && !r.flow.status_ok && !r.flow.off);
        run((struct simlink_cfg){.rate = 100e3, .down = delay[i], .up = delay[i], .frame = 30000,
                                 .no_status = true},
            &r);
        CHECK_MSG(r.fps >= ladder_rungs[r.rung_at_end].floor && r.util >= 0.8,
                  "%.0f ms each way, 100 KB/s: %.1f fps at rung %d, %.2f used", delay[i] * 1e3,
                  r.fps, r.rung_at_end, r.util);
    }
}

/* A terminal that answers nothing: its first whole frame is out within
 * 0.3 s of the start (the start-up questions went unanswered too), and every
 * frame after it. */
TEST(flow_writes_to_a_silent_terminal_at_once)
{
    struct simlink_result r;
    run((struct simlink_cfg){.rate = 10e6, .frame = 30000, .silent = true}, &r);
    CHECK_MSG(r.first_frame >= 0.0 && r.first_frame <= 0.3, "first frame at %.3f s",
              r.first_frame);
    CHECK_MSG(r.fps >= 29.0, "%.1f fps", r.fps);
    CHECK(r.flow.off && !r.flow.answered);
    /* One far away answers late (after FLOW_GIVE_UP): paced from then on. */
    run((struct simlink_cfg){.rate = 10e6, .down = 0.3, .up = 0.3, .frame = 30000}, &r);
    CHECK(!r.flow.off && r.flow.answered);
    CHECK_MSG(r.fps >= 27.0, "%.1f fps", r.fps);
    CHECK_NEAR(r.flow.base, 0.6, 0.01);
}

/* A terminal given up on (no answer by FLOW_GIVE_UP: what was sent counts as
 * taken in) that answers after all: the answers to the pings sent before take
 * nothing back. They set what was taken in back to their own pings (the
 * bytes in flight grew by the frames sent meanwhile) and shrank the window
 * by what they took back, to its least (1 KB): seen behind a 0.3 s round
 * trip on a busy machine, frames stopped there. */
TEST(flow_late_answers_take_back_nothing_given_up_on)
{
    struct flow f;
    flow_init(&f);
    flow_asked(&f, 0.0, -1.0); /* the start-up questions, unanswered */
    enum flow_ping kind[8];
    int k = 0;
    for (; k < 4; k++) /* a frame in pieces, each with its ping */
        kind[k] = flow_wrote(&f, 4000, 0.05 + 0.01 * k);
    flow_tick(&f, 0.3);
    CHECK(f.off);
    CHECK_INT(flow_in_flight(&f), 0);
    for (; k < 8; k++) /* frames sent to a silent terminal */
        kind[k] = flow_wrote(&f, 12000, 0.31 + 0.03 * (k - 4));
    const double window = f.window;
    long long in_flight = flow_in_flight(&f);
    for (int i = 0; i < 8; i++) { /* each answered 0.3 s after its ping */
        flow_answered(&f, kind[i], (i < 4 ? 0.05 + 0.01 * i : 0.31 + 0.03 * (i - 4)) + 0.3);
        CHECK_MSG(flow_in_flight(&f) <= in_flight, "answer %d: %lld bytes in flight, were %lld",
                  i, flow_in_flight(&f), in_flight);
        CHECK_MSG(f.window >= window, "answer %d: window %.0f, was %.0f", i, f.window, window);
        in_flight = flow_in_flight(&f);
    }
    CHECK_INT(flow_in_flight(&f), 0);
    CHECK(!f.off);
}

/* How long leaving waits for the answers on their way: about what a ping
 * takes on this link, nothing on a stopped one, never more than
 * FLOW_DRAIN_MAX. */
TEST(flow_leaving_waits_as_long_as_the_link_needs)
{
    struct flow f;
    flow_init(&f);
    flow_asked(&f, 0.0, 0.3);
    enum flow_ping k = flow_wrote(&f, 100, 1.0);
    double w = flow_drain_wait(&f, 1.0);
    CHECK_MSG(w >= 0.3 && w <= 0.3 + FLOW_QUEUE + 0.3, "wait %g", w);
    CHECK(!flow_stalled(&f, 1.5));
    CHECK(flow_stalled(&f, 3.0)); /* 2 s and no answer: the link has stopped */
    CHECK_NEAR(flow_drain_wait(&f, 3.0), 0.0, 1e-9);
    flow_answered(&f, k, 3.1);
    f.base = 3.0; /* a link 3 s long: its answers waited for */
    CHECK_NEAR(flow_drain_wait(&f, 3.2), 3.0 + FLOW_QUEUE + 0.25, 0.01);
    f.base = 20.0; /* a satellite behind a satellite */
    CHECK_NEAR(flow_drain_wait(&f, 3.2), FLOW_DRAIN_MAX, 1e-9);
    /* Never answered: lately asked, until FLOW_QUIET after; later, nothing
     * (q at once where the terminal is silent). */
    flow_init(&f);
    flow_asked(&f, 0.0, -1.0);
    CHECK_NEAR(flow_drain_wait(&f, 0.25), FLOW_QUIET - 0.25, 1e-9);
    CHECK_NEAR(flow_drain_wait(&f, FLOW_QUIET), 0.0, 1e-9);
    CHECK_NEAR(flow_drain_wait(&f, 5.0), 0.0, 1e-9);
}

/* The rate frames are paced to, on its own: none known, none; where the
 * frames want more than it and no queue stands, a probe of FLOW_GROW times
 * it; a probe the frames filled (padding) and the link carried is taken up,
 * and the next is bolder; one the frames did not fill tells nothing of the
 * link and leaves the rate as it was. */
TEST(flow_plan_probes_a_higher_rate_only_with_frames_that_fill_it)
{
    for (int fill = 0; fill < 2; fill++) {
        struct flow f;
        flow_init(&f);
        struct flow_plan p;
        flow_plan_init(&p);
        flow_plan_rate(&p, &f, 1e6, 0.0);
        CHECK(flow_plan_avail(&p) == 0.0 && flow_plan_pace(&p) == 0.0); /* no known limit */
        f.rate = 100e3, f.base = 0.05, f.rtt = 0.0505; /* measured; nothing in line now */
        flow_plan_rate(&p, &f, 50e3, 0.0); /* the frames want less: no probe */
        CHECK_NEAR(flow_plan_avail(&p), 100e3 * FLOW_USE, 1e-6);
        CHECK(p.probe_t < 0.0);
        double t = 2.0;
        f.rate = 0.0; /* its samples forgotten: the plan keeps what it had */
        flow_plan_rate(&p, &f, 1e6, t);
        CHECK_MSG(p.probe_t == t && flow_plan_pace(&p) > flow_plan_avail(&p), "pace %.0f",
                  flow_plan_pace(&p));
        const double pace = flow_plan_pace(&p);
        /* The frames meanwhile: paced at the probe's rate, or small. */
        const double span = FLOW_PROBE_ROUNDS * 0.1 + 0.01;
        f.sent += (long long)((fill ? pace : 20e3) * span);
        flow_plan_rate(&p, &f, 1e6, t + span);
        if (fill) {
            CHECK_NEAR(p.rate, pace / FLOW_USE, 1.0);
            CHECK(p.gain > FLOW_GROW);
        } else {
            CHECK_NEAR(p.rate, 100e3, 1e-6);
        }
    }
}
