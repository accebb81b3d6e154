/*
 * simlink.h — a link and a terminal on virtual time, for the flow control's
 * tests: a sender that works as the terminal loop does (term.c: a frame when
 * one is due, the window has room and the plan's frame rate allows, written
 * in the pieces flow_chunk cuts, a ping after each), a bottleneck with a rate
 * and a FIFO queue before it, a delay each way, and a terminal that takes in
 * what arrives at once and answers each ping (or some, or none).
 *
 * The frames are synthetic: a frame wants `frame` bytes in truecolour and
 * half that in 256 colours, and a budget cuts it to the budget (as the
 * encoder does); or they come from a source (the bench's: swirl's own
 * frames). Everything is deterministic: no clock, no randomness.
 */
#ifndef SWIRL_SIMLINK_H
#define SWIRL_SIMLINK_H

#include "flow.h"

#include <stdbool.h>

/* Where frames come from, if not the synthetic ones: called at each frame
 * due (every 1/fps s of virtual time t); `send` when one may go, with the
 * plan for it. Returns the bytes of the frame (0: none), and in *want what
 * it would have cost whole. */
struct simlink_source {
    void *ctx;
    size_t (*frame)(void *ctx, double t, bool send, const struct flow_plan *p, double *want);
};

struct simlink_cfg {
    double rate;         /* bytes a second at the bottleneck (0: no limit) */
    double down, up;     /* s one way: to the terminal, back */
    double frame;        /* bytes a whole truecolour frame takes */
    double fps;          /* frames a second asked for */
    double seconds;      /* virtual time the run lasts */
    double warm;         /* s before the measured span begins */
    bool silent;         /* the terminal answers nothing */
    int lose_every;      /* every k-th answer is lost (0: none) */
    bool colour_fixed;   /* the user chose the colours: never fewer */
    /* The rate changes to rate2 from t_change until t_back (0: never). */
    double rate2, t_change, t_back;
    double quit_at;      /* when q is pressed at the terminal (0: never) */
    bool answered_probe; /* the start-up questions were answered, by one round trip */
    const struct simlink_source *source; /* NULL: frames of `frame` bytes */
};

struct simlink_result {
    double fps;          /* frames the terminal saw a second, over the span */
    double util;         /* the share of the link's bytes that carried frames, over the span */
    double queue_max;    /* s: the longest any byte waited before the bottleneck, over the span */
    double first_frame;  /* s from the start to the first whole frame seen */
    double quit;         /* s from q at the terminal to the restore seen there (-1: never) */
    double budget_mean;  /* bytes: the frames' budget, on average over the span (0: none) */
    int worst_step;      /* the most reduced step the plan took over the span */
    bool fewer_colours_at_end;
    struct flow flow;    /* as it ended */
    struct flow_plan plan;
};

void simlink_run(const struct simlink_cfg *c, struct simlink_result *r);

#endif
