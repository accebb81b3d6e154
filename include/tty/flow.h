/*
 * flow.h — how much swirl may have on its way to the terminal, and how much
 * picture the link can carry.
 *
 * The terminal answers a status request (CSI 5 n) only once it has processed
 * everything before it, so a ping after what we write tells when the screen
 * has caught up. A link has two numbers that must not be confused: its base
 * round trip (distance: what a ping takes with nothing queued before it) and
 * its rate. What a ping takes beyond the base is time spent queued, and that
 * is what a key press waits behind. So the flow control keeps
 *  - the base round trip: the least round trip seen over the last
 *    FLOW_BASE_SLOTS x FLOW_BASE_SLOT seconds (as LEDBAT and BBR keep theirs):
 *    the frames' budgets leave the link idle now and then, and a ping sent
 *    then waits behind nothing but its own piece;
 *  - the rate: what the terminal took in between answers while bytes stood
 *    in the queue all along (the link was the limit), the most of the last
 *    FLOW_RATE_MEMORY seconds (or 8 base round trips); a link that has not
 *    been the limit that long has no known rate;
 *  - a window of bytes in flight: while the link is loaded, the rate x (base
 *    round trip + FLOW_QUEUE), so it stays busy and no more than FLOW_QUEUE
 *    of it is queued; while nothing stands in line and the window is what
 *    holds the frames back, it grows with every answer (by twice what was
 *    acknowledged below the window the last rate gave, a slow start; by what
 *    was acknowledged above it).
 * A frame larger than the room left is written a piece at a time (at most a
 * FLOW_PIECES-th of the window, so many pings measure a round trip), each cut
 * where a ping may follow (before an escape sequence, never inside one or
 * inside a UTF-8 character). Every FLOW_RESYNC s the ping is a position
 * request instead: answers carry no number, and a position answer says which
 * status requests before it went unanswered (lost), so the rest are matched
 * to their own pings again; an answer late by far brings a position request
 * of its own (flow_probe_due). A terminal that answers status requests and
 * not position requests has its answers matched in order, and what was lost
 * is written off all the same (flow_tick); one that answers position requests
 * and not status requests (st) is asked its position at every ping once it
 * has answered one and no status request (it was paced by the position
 * requests alone: 3 frames a second).
 *
 * The plan (flow_plan) turns this into the rate frames are paced to: whole
 * frames, each followed by a pause its bytes take at that rate, keep the
 * link just short of its limit, where no rate is measured: the plan keeps
 * the last one measured, and while the frames want more (a finer picture,
 * more frames: app/ladder.h) it probes a higher rate now and then (see
 * flow_plan_rate).
 *
 * A terminal that has answered nothing FLOW_GIVE_UP s after it was first
 * asked (the start-up questions count) is written to without waiting for
 * answers: FLOW_OFF_WINDOW bytes at once (the first frame goes whole), as
 * many each FLOW_OFF_EVERY while it may yet be only far (a link that is far,
 * not silent, is not flooded before its first answer comes), then once it has
 * been silent FLOW_SILENT, twice as many each FLOW_GIVE_UP; pings still
 * follow, so one that answers late is paced from its first answer on. An
 * answer that never comes is given up after FLOW_LOST (or a few round trips,
 * if longer), and the answers still to come for what was given up are let
 * pass up to the next position answer.
 *
 * All byte counts are cumulative since the start; times are seconds on any
 * monotonic clock, passed in (no clock read here). No I/O: the terminal loop
 * does the writing, and tests drive it on virtual time.
 */
#ifndef SWIRL_FLOW_H
#define SWIRL_FLOW_H

#include <stdbool.h>
#include <stddef.h>

#define FLOW_QUEUE 0.08       /* s of the link's bytes that may stand queued */
#define FLOW_WINDOW0 16384    /* bytes in flight at the start */
#define FLOW_WINDOW_MIN 1024
#define FLOW_WINDOW_MAX (16 << 20)
#define FLOW_GIVE_UP 0.25     /* s without any answer at all: the terminal has no DSR */
#define FLOW_OFF_WINDOW 65536 /* bytes written at once after that, */
#define FLOW_OFF_EVERY 0.5    /* and each this many s, */
#define FLOW_SILENT 3.0       /* until it has been silent this long */
#define FLOW_LOST 3.0         /* s an answer may take before it counts as lost */
#define FLOW_PINGS 64
#define FLOW_RESYNC 0.5       /* s between position requests among the pings */
#define FLOW_BASE_SLOT 2.0    /* s: the base round trip's memory, in slots */
#define FLOW_BASE_SLOTS 5
#define FLOW_PIECES 16        /* a piece is at most this share of the window, */
#define FLOW_PIECE_MIN 1024   /* or this many bytes if more */
#define FLOW_RATE_MEMORY 2.0  /* s a rate measured at the limit is kept */
#define FLOW_RATES 16         /* rate samples kept */
#define FLOW_HIST 32          /* answers kept for them */
#define FLOW_DRAIN_MAX 8.0    /* s, the most leaving waits for answers (it
                               * ends at the fence's answer: only a link that
                               * long waits that long) */
#define FLOW_QUIET 1.5        /* s after the first questions a terminal that
                               * never answered is waited for on leaving */

struct flow {
    bool answered;       /* the terminal has answered at least once */
    bool off;            /* it has not, long after it was asked: write without pacing */
    double off_window;   /* while off: bytes that may go before the next while (see above) */
    double off_t;        /* when the last of those began */
    double asked;        /* when it was first asked anything (-1: not yet) */
    long long sent;      /* bytes written */
    long long acked;     /* of which the terminal has processed, as far as we know */
    double window;       /* bytes that may be unacknowledged */
    double full_t;       /* when a write last (nearly) filled it */
    int head, n;         /* pings in flight, oldest at head */
    int wheres;          /* of which position requests */
    bool where_ok;       /* it has answered a position request */
    bool status_ok;      /* it has answered a status request */
    bool desync;         /* pings were given up on, their answers may yet come: */
    int stale;           /* the position answers of those, to be let pass */
    double where_t;      /* when the last of those went out */
    struct {
        long long at;    /* sent when it went out */
        long long before; /* in flight before the piece it follows */
        double t;
        bool where;      /* a position request (else a status request) */
    } ping[FLOW_PINGS];
    /* What the answers measured. */
    double rtt;          /* the last round trip (-1: none yet) */
    double base;         /* the base round trip (-1: unknown) */
    double base_slot[FLOW_BASE_SLOTS]; /* the least of each slot (-1: none) */
    double slot_t;       /* when the newest slot began */
    struct {
        long long at;    /* what an answer acknowledged */
        double t;        /* and when it came */
    } hist[FLOW_HIST];   /* the latest answers, oldest at hist_head */
    int hist_head, hist_n;
    double rate;         /* bytes a second the link carries at most (0: not known) */
    double bdp;          /* the window that rate last gave (0: none yet) */
    double delivered;    /* what the terminal took in lately, a second (0: not known) */
    struct {
        double rate, t;
    } rates[FLOW_RATES]; /* measured while the link was the limit */
    int nrates;
};

void flow_init(struct flow *f);
/* The start-up questions went out at t_asked; answered at t_answered (< 0:
 * not within their wait). A round trip to start from, or the clock on the
 * terminal's silence. */
void flow_asked(struct flow *f, double t_asked, double t_answered);
/* How many of the n bytes at data to write now (0: the window is full): all of
 * them when flow control is off or they fit, else the most that fits, cut just
 * before an ESC (or on to the next ESC if none starts within the room). */
size_t flow_chunk(const struct flow *f, const char *data, size_t n);
/* The terminal answered something other than a ping (the start-up
 * questions' last answer, come late): it answers, by this round trip. */
void flow_heard(struct flow *f, double now);
/* What follows a piece: a status request (CSI 5 n, answered CSI 0 n) or,
 * every FLOW_RESYNC s, a cursor position request (CSI 6 n, answered
 * CSI row ; col R). Answers carry no number; the position answers keep them
 * in step: the status pings before one that were not answered were lost. */
enum flow_ping { FLOW_PING_STATUS, FLOW_PING_WHERE };
/* n bytes were written; the ping that must follow them. */
enum flow_ping flow_wrote(struct flow *f, size_t n, double now);
/* The terminal answered a ping of that kind. */
void flow_answered(struct flow *f, enum flow_ping kind, double now);
/* An answer is late, and no position request has gone out since: write one
 * alone (WHERE), then call flow_probed. Its answer tells which of the pings
 * before it were lost, though no frame can go until then. */
bool flow_probe_due(const struct flow *f, double now);
void flow_probed(struct flow *f, double now);
/* Timeouts: no answer ever (off), an answer lost (forgiven), the base round
 * trip's memory. Call each loop. */
void flow_tick(struct flow *f, double now);
/* Bytes written but not yet acknowledged. */
static inline long long flow_in_flight(const struct flow *f) { return f->sent - f->acked; }
/* May a new frame start (room in the window)? */
bool flow_ready(const struct flow *f);
/* On leaving: how long the answers in flight may be waited for (0: none will
 * come), never more than FLOW_DRAIN_MAX; for a terminal that never answered,
 * only until FLOW_QUIET after the first questions (q at once where a terminal
 * is silent). */
double flow_drain_wait(const struct flow *f, double now);

/* The rate the frames are paced to (flow_plan_rate): what the link was
 * measured to carry, and now and then a probe of more. */
#define FLOW_USE 0.9          /* share of the link's rate the frames may take */
#define FLOW_GROW 1.25        /* a probe tries this much more than the rate, */
#define FLOW_GROW_MORE 1.6    /* each one after a probe the link carried this much more, */
#define FLOW_GROW_MOST 4.0    /* up to this */
#define FLOW_PROBE_EVERY 1.0  /* s between probes that found the limit */
#define FLOW_PROBE_ROUNDS 2.0 /* base round trips (at least 0.1 s each) a probe lasts */
#define FLOW_BUSY (0.25 * FLOW_QUEUE) /* s queued: the bytes stood in line */

struct flow_plan {
    double rate;         /* the link's rate the frames are paced to (0: none known) */
    double probe_t;      /* when a probe of a higher rate began (-1: none under way) */
    double probe_rate;   /* that rate */
    long long probe_sent; /* the bytes written when it began */
    double gain;         /* the next probe's, over the rate */
    double next_probe;   /* no probe before */
};

void flow_plan_init(struct flow_plan *p);
/*
 * Before a frame: `want` is the bytes a second the frames would take whole
 * (ladder_want; 0: not known); while that is more than the frames may take,
 * a probe of a higher rate starts now and then.
 */
void flow_plan_rate(struct flow_plan *p, const struct flow *f, double want, double now);
/* Bytes a second the frames may take: FLOW_USE of the rate (0: no limit
 * known); the picture's level follows it (ladder.h). */
double flow_plan_avail(const struct flow_plan *p);
/* The same at the rate on probe, while one runs: the frame loop paces
 * frames by their bytes at this rate (a probe sends more, to see whether
 * the link carries it; the picture waits until it is measured). */
double flow_plan_pace(const struct flow_plan *p);

#endif
