/*
 * flow.h — how much swirl may have on its way to the terminal.
 *
 * The terminal answers a status request (CSI 5 n) only once it has processed
 * everything before it, so a ping after what we write tells us when the screen
 * has caught up. The bytes written but not yet acknowledged are what a key
 * press waits behind (over a slow link, seconds), so they are kept within a
 * window that adapts to the link: it shrinks when an answer comes later than
 * FLOW_LAG and grows while answers come quickly. A frame larger than the window
 * is written a piece at a time, each cut where a ping may follow (before an
 * escape sequence, never inside one or inside a UTF-8 character). A terminal
 * that never answers turns this off (everything is written at once), and an
 * answer that never comes is given up after FLOW_LOST.
 *
 * All byte counts are cumulative since the start; times are seconds on any
 * monotonic clock. No I/O here: the terminal loop does the writing.
 */
#ifndef SWIRL_FLOW_H
#define SWIRL_FLOW_H

#include <stdbool.h>
#include <stddef.h>

#define FLOW_LAG 0.1          /* s: how far the screen may trail what we wrote */
#define FLOW_WINDOW0 4096     /* bytes in flight at the start */
#define FLOW_WINDOW_MIN 1024
#define FLOW_WINDOW_MAX (8 << 20)
#define FLOW_GIVE_UP 1.0      /* s without any answer at all: the terminal has no DSR */
#define FLOW_LOST 3.0         /* s an answer may take before it counts as lost */
#define FLOW_PINGS 64

struct flow {
    bool answered;       /* the terminal has answered at least once */
    bool off;            /* it never does: write without pacing */
    double first_ping;   /* when the first ping went out (-1: none yet) */
    long long sent;      /* bytes written */
    long long acked;     /* of which the terminal has processed, as far as we know */
    double window;       /* bytes that may be unacknowledged */
    int head, n;         /* pings in flight, oldest at head */
    struct {
        long long at;    /* sent when it went out */
        double t;
    } ping[FLOW_PINGS];
};

void flow_init(struct flow *f);
/* How many of the n bytes at data to write now (0: the window is full): all of
 * them when flow control is off or they fit, else the most that fits, cut just
 * before an ESC (or on to the next ESC if none starts within the room). */
size_t flow_chunk(const struct flow *f, const char *data, size_t n);
/* n bytes were written, and then a ping unless flow control is off. */
void flow_wrote(struct flow *f, size_t n, double now);
/* The terminal answered the oldest ping. */
void flow_answered(struct flow *f, double now);
/* Timeouts: no answer ever (off), an answer lost (forgiven). Call each loop. */
void flow_tick(struct flow *f, double now);
/* Bytes written but not yet acknowledged. */
static inline long long flow_in_flight(const struct flow *f) { return f->sent - f->acked; }
/* May a new frame start (nothing of the last left to write, room in the window)? */
static inline bool flow_ready(const struct flow *f)
{
    return f->off || (double)flow_in_flight(f) < f->window;
}

#endif
