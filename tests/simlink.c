/*
 * simlink.c — a link and a terminal on virtual time (see simlink.h).
 *
 * Time advances in ticks of SIM_TICK. What the sender writes becomes a
 * segment in the bottleneck's FIFO (a piece and its ping, or the restore at
 * the end); the bottleneck sends the head segment's bytes at the link's rate;
 * a segment whose last byte has gone reaches the terminal `down` s later,
 * which counts the frames it completes and answers its ping; an answer
 * reaches the sender `up` s after that. The sender follows the terminal
 * loop's order each tick: answers, flow_tick, the rest of the frame being
 * written, then a frame if one is due.
 */
#include "simlink.h"

#include <stdlib.h>
#include <string.h>

#define SIM_TICK 0.001
#define SIM_SEGS 4096
#define SIM_FRAME_MAX (1 << 20)
#define SIM_PROBE_WAIT 0.15 /* as term.c's: how long the start-up questions wait */

struct seg {
    double bytes, left; /* its size, what is still to go out */
    double t_enq, t_arrive;
    bool frame_end, restore;
    enum flow_ping ping; /* what follows the piece */
};

/* A FIFO of segments (a ring). */
struct segq {
    struct seg s[SIM_SEGS];
    int head, n;
};

static struct seg *segq_push(struct segq *q)
{
    if (q->n == SIM_SEGS)
        abort(); /* more pings in flight than FLOW_PINGS allows: a bug */
    struct seg *s = &q->s[(q->head + q->n++) % SIM_SEGS];
    memset(s, 0, sizeof *s);
    return s;
}

static struct seg *segq_front(struct segq *q) { return q->n ? &q->s[q->head] : NULL; }

static void segq_pop(struct segq *q)
{
    q->head = (q->head + 1) % SIM_SEGS;
    q->n--;
}

/* Answers on their way back: their arrival times and kinds, in order. */
struct times {
    double t[SIM_SEGS];
    enum flow_ping kind[SIM_SEGS];
    int head, n;
};

static double rate_at(const struct simlink_cfg *c, double t)
{
    if (c->t_change > 0.0 && t >= c->t_change && (c->t_back <= 0.0 || t < c->t_back))
        return c->rate2;
    return c->rate;
}

/* A synthetic frame's bytes at rung r, over its bytes at the top rung. */
static double rung_cost(int r)
{
    double k = 1.0;
    for (int i = 1; i <= r; i++)
        k *= ladder_rungs[i].fewer_colours ? 0.5 : LADDER_STEP;
    return k;
}

/* The frames' bytes: escape sequences of 16 bytes, as the encoder's output
 * is a run of them (flow_chunk cuts only before an ESC). */
static const char *frame_bytes(void)
{
    static char *b;
    if (!b) {
        b = malloc(SIM_FRAME_MAX);
        if (!b)
            abort();
        for (int i = 0; i < SIM_FRAME_MAX; i++)
            b[i] = i % 16 == 0 ? '\x1b' : 'x';
    }
    return b;
}

/* As much of the frame being written as the window allows, a ping after
 * each piece (term.c's send_pending). */
static void send_pending(struct segq *link, struct flow *f, const char *data, long long *off,
                         long long *left, double t)
{
    while (*left > 0) {
        size_t n = flow_chunk(f, data + *off, (size_t)*left);
        if (n == 0)
            break;
        struct seg *s = segq_push(link);
        s->bytes = s->left = (double)n + 4.0; /* the piece and its ping */
        s->t_enq = t;
        s->frame_end = (long long)n == *left;
        s->ping = flow_wrote(f, n, t);
        *off += (long long)n, *left -= (long long)n;
    }
}

void simlink_run(const struct simlink_cfg *c, struct simlink_result *r)
{
    static struct segq link, wire;
    static struct times back;
    memset(&link, 0, sizeof link);
    memset(&wire, 0, sizeof wire);
    memset(&back, 0, sizeof back);
    memset(r, 0, sizeof *r);
    r->first_frame = r->quit = -1.0;
    const char *data = frame_bytes();
    struct flow *f = &r->flow;
    struct flow_plan *p = &r->plan;
    struct ladder *lad = &r->lad;
    flow_init(f);
    flow_plan_init(p);
    ladder_init(lad);
    double want = 0.0;
    double rtt = c->down + c->up;
    bool probe_answered = !c->silent && c->answered_probe && rtt <= SIM_PROBE_WAIT;
    flow_asked(f, 0.0, probe_answered ? rtt : -1.0);
    double period = 1.0 / c->fps, t_start = probe_answered ? rtt : SIM_PROBE_WAIT;
    double next = t_start, send_after = t_start, credit = 0.0;
    long long left = 0, off = 0;
    long answers = 0, frames_span = 0;
    double sent_span = 0.0, carried_span = 0.0;
    bool lost_once = false;
    bool quitting = false, quit_seen = false, heard = false;
    long ticks = (long)(c->seconds / SIM_TICK + 0.5);
    for (long k = 1; k <= ticks; k++) {
        double t = (double)k * SIM_TICK;
        bool in_span = t >= c->warm && (c->quit_at <= 0.0 || t < c->quit_at);
        /* The sender: answers, timeouts, the frame being written, a new one. */
        while (back.n && back.t[back.head] <= t) {
            enum flow_ping kind = back.kind[back.head];
            back.head = (back.head + 1) % SIM_SEGS, back.n--;
            flow_answered(f, kind, t);
        }
        if (!c->silent && !probe_answered && !heard && t >= rtt) {
            heard = true; /* the start-up questions' answers, late */
            flow_heard(f, t);
        }
        flow_tick(f, t);
        if (!quitting && flow_probe_due(f, t)) { /* a position request alone */
            struct seg *s = segq_push(&link);
            s->bytes = s->left = 4.0, s->t_enq = t, s->ping = FLOW_PING_WHERE;
            flow_probed(f, t);
        }
        if (c->quit_at > 0.0 && !quitting && t >= c->quit_at + c->up) {
            quitting = true; /* the rest of the frame goes; the restore follows what is queued */
            left = 0;
            struct seg *s = segq_push(&link);
            s->bytes = s->left = 40.0, s->t_enq = t, s->restore = true;
        }
        if (!quitting)
            send_pending(&link, f, data, &off, &left, t);
        if (!quitting && t >= next) {
            next += period;
            bool idle = c->idle_for > 0.0 && t >= c->idle_at && t < c->idle_at + c->idle_for;
            bool send = left == 0 && flow_ready(f) && t >= send_after - 0.5 * period && !idle;
            double size = 0.0;
            if (send)
                flow_plan_rate(p, f, want, t);
            double avail = flow_plan_pace(p);
            if (c->source) {
                size = (double)c->source->frame(c->source->ctx, t, send, flow_plan_avail(p), avail,
                                                &want);
            } else if (send) {
                int was = lad->rung;
                ladder_plan(lad, flow_plan_avail(p), c->fps, !c->colour_fixed, t);
                size = c->frame * rung_cost(lad->rung);
                if (lad->trial >= 0) /* the same frame at the rung on trial */
                    ladder_trial(lad, c->frame * rung_cost(lad->trial), false);
                ladder_sent(lad, size, false, t);
                if (avail > flow_plan_avail(p) && avail / c->fps > size)
                    size = avail / c->fps; /* a probe: padded up to it (frame_plan) */
                want = ladder_want(lad, c->fps, t);
                if (in_span && lad->rung != was)
                    r->changes++;
                if (in_span && lad->rung > r->worst_rung)
                    r->worst_rung = lad->rung;
            }
            if (send && size > 0.0) {
                left = (long long)size < SIM_FRAME_MAX ? (long long)size : SIM_FRAME_MAX;
                off = 0;
                double gap = avail > 0.0 && size / avail > period ? size / avail : period;
                send_after = send_after + gap > t - gap ? send_after + gap : t;
                send_pending(&link, f, data, &off, &left, t); /* at once, as term.c does */
            }
        }
        /* The bottleneck. */
        double rate = rate_at(c, t);
        credit += rate > 0.0 ? rate * SIM_TICK : 1e18;
        if (in_span)
            carried_span += rate * SIM_TICK;
        struct seg *s;
        while ((s = segq_front(&link)) && credit > 0.0) {
            if (s->left == s->bytes && in_span && t - s->t_enq > r->queue_max)
                r->queue_max = t - s->t_enq;
            double go = s->left < credit ? s->left : credit;
            s->left -= go, credit -= go;
            if (in_span && !s->restore)
                sent_span += go;
            if (s->left > 0.0)
                break;
            struct seg *w = segq_push(&wire);
            *w = *s;
            w->t_arrive = t + c->down;
            segq_pop(&link);
        }
        if (!segq_front(&link) || rate <= 0.0)
            credit = 0.0; /* an idle link saves nothing up */
        /* The terminal. */
        while ((s = segq_front(&wire)) && s->t_arrive <= t) {
            if (s->restore && !quit_seen) {
                quit_seen = true;
                r->quit = t - c->quit_at;
            }
            if (s->frame_end) {
                if (c->source && c->source->shown)
                    c->source->shown(c->source->ctx, t);
                if (r->first_frame < 0.0)
                    r->first_frame = t;
                if (in_span)
                    frames_span++;
            }
            bool lose = c->lose_every && ++answers % c->lose_every == 0;
            if (c->lose_at > 0.0 && t >= c->lose_at && !lost_once)
                lose = lost_once = true;
            if (c->no_where && s->ping == FLOW_PING_WHERE)
                lose = true;
            if (c->no_status && s->ping == FLOW_PING_STATUS)
                lose = true;
            if (!s->restore && !c->silent && !lose) {
                int i = (back.head + back.n++) % SIM_SEGS;
                back.t[i] = t + c->up, back.kind[i] = s->ping;
            }
            segq_pop(&wire);
        }
    }
    double end = c->quit_at > 0.0 && c->quit_at < c->seconds ? c->quit_at : c->seconds;
    double span = end - c->warm;
    r->fps = span > 0.0 ? (double)frames_span / span : 0.0;
    r->util = carried_span > 0.0 ? sent_span / carried_span : -1.0;
    r->rung_at_end = lad->rung;
}
