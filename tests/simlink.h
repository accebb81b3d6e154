/*
 * simlink.h — a link and a terminal on virtual time, for the flow control's
 * tests: a sender that works as the terminal loop does (term.c: a frame when
 * one is due, the window has room and the plan's frame rate allows, written
 * in the pieces flow_chunk cuts, a ping after each), a bottleneck with a rate
 * and a FIFO queue before it, a delay each way, and a terminal that takes in
 * what arrives at once and answers each ping (or some, or none).
 *
 * The frames are synthetic: a whole frame takes `frame` bytes at the top
 * rung of the ladder (ladder.h), LADDER_STEP of the rung above's at each
 * rung below, and half that in 256 colours; the ladder is driven as the
 * frame loop drives it; or they come from a source (the bench's: swirl's
 * own frames). Everything is deterministic: no clock, no randomness.
 */
#ifndef SWIRL_SIMLINK_H
#define SWIRL_SIMLINK_H

#include "flow.h"
#include "ladder.h"

#include <stdbool.h>

/* Where frames come from, if not the synthetic ones: called at each frame
 * due (every 1/fps s of virtual time t); `send` when one may go, at `avail`
 * bytes a second for frames (0: no limit known), paced at `pace` (more while
 * a probe runs: frame_plan pads). Returns the bytes of the
 * frame (0: none), and in *want the bytes a second the frames would take
 * whole (ladder_want), for the next. */
struct simlink_source {
    void *ctx;
    size_t (*frame)(void *ctx, double t, bool send, double avail, double pace, double *want);
    /* The last byte of the oldest frame not yet shown reached the terminal
     * at t (frames arrive in the order they were sent); NULL: not wanted. */
    void (*shown)(void *ctx, double t);
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
    double lose_at;      /* the first answer after this is lost (0: none) */
    bool no_where;       /* it answers status requests, not position requests */
    bool no_status;      /* it answers position requests, not status requests (st) */
    double idle_at, idle_for; /* no frame goes in this span (a still picture; 0: none) */
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
    int worst_rung;      /* synthetic frames: the coarsest rung taken over the span, */
    int rung_at_end;     /* the rung at the end, */
    int changes;         /* and its changes over the span */
    struct flow flow;    /* as it ended */
    struct flow_plan plan;
    struct ladder lad;   /* synthetic frames' ladder, as it ended */
};

void simlink_run(const struct simlink_cfg *c, struct simlink_result *r);

#endif
