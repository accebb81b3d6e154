/*
 * test_owed.c — the answers the terminal owes (owed.c) on virtual time: what
 * is owed after the start-up questions and the pings and what settles it, how
 * long swirl waits for it on the way out (a far terminal, a silent one, a link
 * that stopped), the longest recent round trip fading, and more pings than the
 * ring keeps. The real thing, a terminal behind a round trip, is test_link.c's.
 */
#include "owed.h"
#include "test.h"

/* Nothing asked, nothing to wait for; the start-up questions unanswered: up
 * to OWED_MAX after they went out (no answer has said how far the terminal
 * is), then nothing (a terminal that answers nothing). */
TEST(owed_unanswered_start_up_questions_are_waited_for_up_to_the_most)
{
    struct owed o;
    owed_init(&o);
    CHECK(!owed_any(&o));
    CHECK_NEAR(owed_wait(&o, 5.0), 0.0, 0.0);
    owed_asked(&o, 1.0);
    CHECK(owed_any(&o));
    CHECK_NEAR(owed_wait(&o, 1.3), OWED_MAX - 0.3, 1e-9);
    owed_pinged(&o, 1.2);
    CHECK_NEAR(owed_wait(&o, 2.0), OWED_MAX - 1.0, 1e-9);
    CHECK_NEAR(owed_wait(&o, 1.0 + OWED_MAX + 0.01), 0.0, 0.0);
    /* DA1's answer: the round trip it took, and the ping still owed. */
    owed_attrs(&o, 1.4);
    CHECK_NEAR(o.rtt, 0.4, 1e-9);
    CHECK(owed_any(&o));
    CHECK_NEAR(owed_wait(&o, 1.5), OWED_SLACK + 0.8, 1e-9);
    owed_pong(&o, 1.5);
    CHECK(!owed_any(&o));
    CHECK_NEAR(owed_wait(&o, 1.5), 0.0, 0.0);
}

/* A terminal that answers pings but not DA1: a ping's answer settles the
 * start-up questions too (they come first, and in order). A stray answer
 * (to a ping from before a reset) settles nothing more. */
TEST(owed_a_ping_answered_settles_what_came_before)
{
    struct owed o;
    owed_init(&o);
    owed_asked(&o, 0.0);
    owed_pinged(&o, 0.2);
    owed_pinged(&o, 0.3);
    owed_pong(&o, 0.5);
    CHECK(!o.probe);
    CHECK_NEAR(o.rtt, 0.3, 1e-9);
    CHECK(owed_any(&o));
    owed_pong(&o, 0.55);
    CHECK(!owed_any(&o));
    owed_pong(&o, 0.6);
    CHECK(!owed_any(&o) && o.pongs == 2);
    owed_pinged(&o, 0.7);
    CHECK(owed_any(&o));
}

/* Round trips known: two of the longest and OWED_SLACK, at most OWED_MAX;
 * nothing once the oldest question owed is overdue by that much (the link
 * has stopped: waiting would only delay the exit). */
TEST(owed_the_wait_follows_the_round_trip_and_a_dead_link_gets_none)
{
    struct owed o;
    owed_init(&o);
    owed_pinged(&o, 0.0);
    owed_pong(&o, 1.0); /* a round trip of a second */
    owed_pinged(&o, 2.0);
    const double patience = OWED_SLACK + 2.0;
    CHECK(patience < OWED_MAX);
    CHECK_NEAR(owed_wait(&o, 2.1), patience, 1e-9);
    CHECK_NEAR(owed_wait(&o, 2.0 + patience - 0.01), patience, 1e-9);
    CHECK_NEAR(owed_wait(&o, 2.0 + patience + 0.01), 0.0, 0.0);
    /* A round trip longer still: the wait at most OWED_MAX. */
    owed_pong(&o, 4.0);
    owed_pinged(&o, 5.0);
    CHECK_NEAR(owed_wait(&o, 5.1), OWED_MAX, 1e-9);
    /* A near terminal: a short wait, none once a ping is that overdue. */
    owed_init(&o);
    owed_pinged(&o, 0.0);
    owed_pong(&o, 0.02);
    owed_pinged(&o, 1.0);
    CHECK_NEAR(owed_wait(&o, 1.01), OWED_SLACK + 0.04, 1e-9);
    CHECK_NEAR(owed_wait(&o, 1.0 + OWED_SLACK + 0.05), 0.0, 0.0);
}

/* One slow answer counts for a while, then fades: the longest recent round
 * trip, not the longest ever. */
TEST(owed_a_slow_answer_fades)
{
    struct owed o;
    owed_init(&o);
    double t = 0.0;
    owed_pinged(&o, t);
    owed_pong(&o, t += 1.0);
    CHECK_NEAR(o.rtt, 1.0, 1e-9);
    for (int k = 0; k < 40; k++) {
        owed_pinged(&o, t);
        owed_pong(&o, t += 0.01);
    }
    CHECK_MSG(o.rtt < 0.02 && o.rtt >= 0.01, "rtt %g", o.rtt);
    /* A slower one takes over at once. */
    owed_pinged(&o, t);
    owed_pong(&o, t += 0.3);
    CHECK_NEAR(o.rtt, 0.3, 1e-9);
}

/* More pings owed than the ring keeps: every one is still owed until
 * answered; the round trips come from those whose times are kept. */
TEST(owed_more_pings_than_the_ring_keeps_stay_owed)
{
    struct owed o;
    owed_init(&o);
    const int n = OWED_RING + 44;
    for (int k = 0; k < n; k++)
        owed_pinged(&o, 0.01 * k);
    CHECK_INT(o.n, OWED_RING);
    for (int k = 0; k < n - OWED_RING; k++) /* those whose times went */
        owed_pong(&o, 10.0);
    CHECK(owed_any(&o) && o.rtt < 0.0);
    owed_pong(&o, 10.0);
    CHECK_NEAR(o.rtt, 10.0 - 0.01 * (n - OWED_RING), 1e-9); /* the oldest kept */
    for (int k = 0; k < OWED_RING - 2; k++)
        owed_pong(&o, 10.0);
    CHECK(owed_any(&o));
    owed_pong(&o, 10.0);
    CHECK(!owed_any(&o));
    CHECK_INT(o.n, 0);
}
