/*
 * owed.h — what the terminal owes swirl: the answers to the questions it was
 * asked and has not answered yet, and how long its answers take to come.
 *
 * Two kinds of question go out: the start-up questions (probe.h), whose
 * answers end with DA1's, and the pings after frames (CSI 5 n, flow.h). A
 * terminal answers in order, so an answer settles every question before it:
 * DA1's the start-up questions; a ping's the oldest ping, and the start-up
 * questions too (a terminal that answered a later question has answered the
 * earlier ones, or never will).
 *
 * An answer that arrives once swirl has given the terminal back reaches the
 * shell, which prints it ("^[[0n"). So what swirl asked, it reads back before
 * it leaves, for as long as owed_wait says: with nothing owed, not at all;
 * with answers seen, OWED_SLACK and two of the longest recent round trips (at
 * most OWED_MAX), unless the oldest question owed is overdue by that much
 * already (a link that has stopped answers nothing more); with none seen yet,
 * until OWED_MAX after the first question went out (a terminal too far away
 * to have answered yet cannot be told from one that answers nothing before
 * then). A link that stops answering never stretches the wait: round trips
 * are measured on answers only.
 *
 * Times are seconds on any monotonic clock. No I/O here: the terminal loop
 * asks and reads.
 */
#ifndef SWIRL_OWED_H
#define SWIRL_OWED_H

#include <stdbool.h>

#define OWED_SLACK 0.25   /* s: the wait beyond two round trips */
#define OWED_MAX 2.5      /* s: the wait at most (a satellite's round trip is 0.6 s) */
#define OWED_FORGET 0.5   /* an answer's weight on the longest round trip of those before */
#define OWED_RING 256     /* pings whose times are kept (an older one's is forgotten) */

struct owed {
    bool probe;           /* the start-up questions are owed */
    double probe_at;      /* ... since then */
    long long pings, pongs; /* pings sent, answers to them (all along) */
    int head, n;          /* the times of the newest n pings owed, oldest at head */
    double at[OWED_RING];
    double rtt;           /* the longest recent round trip (-1: no answer yet) */
};

void owed_init(struct owed *o);
/* The start-up questions went out at now. */
void owed_asked(struct owed *o, double now);
/* A ping went out. */
void owed_pinged(struct owed *o, double now);
/* DA1's answer came: the start-up questions are answered. */
void owed_attrs(struct owed *o, double now);
/* A ping's answer came: the oldest ping (and the start-up questions) answered. */
void owed_pong(struct owed *o, double now);
/* Some answer is still to come. */
bool owed_any(const struct owed *o);
/* How long to wait for the answers still to come, from now (0: none to wait
 * for, or none will come). */
double owed_wait(const struct owed *o, double now);

#endif
