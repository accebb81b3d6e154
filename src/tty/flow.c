/*
 * flow.c — the window of bytes in flight to the terminal, the link's base
 * round trip and rate, and the plan of what frames may cost (see flow.h).
 *
 * Each answer tells how long its ping took (the round trip) and how much the
 * terminal has processed. The base round trip is the least round trip,
 * kept per slot of FLOW_BASE_SLOT s over FLOW_BASE_SLOTS slots: the frames
 * leave the link idle now and then (their budgets are a little short of its
 * rate), and a ping sent then waits behind nothing but its own piece (at
 * most a FLOW_PIECES-th of the window). What a ping took beyond the base is
 * queueing.
 *
 * A ping that waited q s behind the bytes before it found the link busy for
 * those q s, and the answers that came in the last q s were sent by a busy
 * link: what they acknowledged over the time they took is the link's rate
 * (a rate sample, over at least FLOW_SPAN). Samples are kept for
 * FLOW_RATE_MEMORY s and the rate is their most; answers that came while the
 * link idled now and then measure what swirl sent, not the link, and are not
 * samples. A queue twice FLOW_QUEUE long means the link has slowed: the rate
 * is then the last sample alone.
 *
 * Pieces end just before an ESC: the encoder's output is escape sequences and
 * whole UTF-8 glyphs, so nothing before an ESC is ever left half-sent.
 */
#include "flow.h"
#include "flow_internal.h"

#include <string.h>

#define FLOW_SPAN 0.02                /* s: the least span of a rate sample */

void flow_init(struct flow *f)
{
    memset(f, 0, sizeof *f);
    f->asked = -1.0;
    f->window = FLOW_WINDOW0;
    f->rtt = f->base = -1.0;
    for (int i = 0; i < FLOW_BASE_SLOTS; i++)
        f->base_slot[i] = -1.0;
    f->slot_t = f->full_t = f->where_t = -1.0;
}

static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

/* The base round trip's slots moved on to `now`; the base their least (kept
 * as it was while every slot is empty). */
static void base_age(struct flow *f, double now)
{
    if (f->slot_t < 0.0)
        return;
    for (int k = 0; now - f->slot_t >= FLOW_BASE_SLOT && k < FLOW_BASE_SLOTS; k++) {
        memmove(f->base_slot + 1, f->base_slot, (FLOW_BASE_SLOTS - 1) * sizeof f->base_slot[0]);
        f->base_slot[0] = -1.0;
        f->slot_t += FLOW_BASE_SLOT;
    }
    if (now - f->slot_t >= FLOW_BASE_SLOT)
        f->slot_t = now; /* a long silence: every slot is empty now */
    double least = -1.0;
    for (int i = 0; i < FLOW_BASE_SLOTS; i++)
        if (f->base_slot[i] >= 0.0 && (least < 0.0 || f->base_slot[i] < least))
            least = f->base_slot[i];
    if (least >= 0.0)
        f->base = least;
}

static void base_sample(struct flow *f, double s, double now)
{
    if (f->slot_t < 0.0)
        f->slot_t = now;
    base_age(f, now);
    if (f->base_slot[0] < 0.0 || s < f->base_slot[0])
        f->base_slot[0] = s;
    base_age(f, now);
}

void flow_asked(struct flow *f, double t_asked, double t_answered)
{
    f->asked = t_asked;
    if (t_answered < t_asked)
        return;
    f->answered = true;
    f->rtt = t_answered - t_asked;
    base_sample(f, f->rtt, t_answered);
}

/* The bytes that may be in flight now. */
static double window(const struct flow *f) { return f->off ? f->off_window : f->window; }

bool flow_ready(const struct flow *f) { return (double)flow_in_flight(f) < window(f); }

/* May a piece end before data[i]? Where an escape sequence starts, but for
 * the ST (ESC \\) that ends a string: a ping inside a picture's string (a
 * kitty command, a sixel image) would be taken for its bytes, and never
 * answered. */
static bool cut_at(const char *data, size_t i, size_t n)
{
    return data[i] == '\x1b' && (i + 1 >= n || data[i + 1] != '\\');
}

/* A piece waits for room for a whole one (but the frame's last) and for a
 * free ping: pieces of a few bytes, each freed by an answer and each with
 * its own ping, would fill the ring of pings, and a ping dropped unanswered
 * has its answer taken for the next one's (a round trip too short, a rate
 * too high: a window that floods the link). */
size_t flow_chunk(const struct flow *f, const char *data, size_t n)
{
    double room = window(f) - (double)flow_in_flight(f);
    if (room < 1.0 || (!f->off && f->n >= FLOW_PINGS))
        return 0;
    double most = f->window / FLOW_PIECES > FLOW_PIECE_MIN ? f->window / FLOW_PIECES : FLOW_PIECE_MIN;
    room = f->off || room < most ? room : most; /* silent: no ping is answered anyway */
    if ((double)n <= room)
        return n;
    size_t cut = (size_t)room;
    for (size_t i = cut; i > 0; i--)
        if (cut_at(data, i, n))
            return i;
    /* No escape sequence starts within the room: this piece runs on to the
     * next one (what lies between two is at most a row of glyphs, or a
     * picture's string: a sixel image, a chunk of kitty's). */
    for (size_t i = cut + 1; i < n; i++)
        if (cut_at(data, i, n))
            return i;
    return n;
}

/* The oldest ping in flight goes, unanswered. What it was sent after counts
 * as taken in, if it did not already (a terminal given up on has what was
 * sent before its pings counted so: FLOW_GIVE_UP). */
static void drop_oldest(struct flow *f)
{
    f->wheres -= f->ping[f->head].where;
    f->acked = f->ping[f->head].at > f->acked ? f->ping[f->head].at : f->acked;
    f->head = (f->head + 1) % FLOW_PINGS;
    f->n--;
}

enum flow_ping flow_wrote(struct flow *f, size_t n, double now)
{
    if (f->asked < 0.0)
        f->asked = now;
    long long before = flow_in_flight(f);
    f->sent += (long long)n;
    if (f->n == FLOW_PINGS) /* a ping too many in flight: the oldest counts as answered */
        drop_oldest(f);
    bool where = (f->where_ok && !f->status_ok) || f->where_t < 0.0 ||
                 now - f->where_t >= FLOW_RESYNC;
    int i = (f->head + f->n) % FLOW_PINGS;
    f->ping[i].at = f->sent, f->ping[i].before = before;
    f->ping[i].t = now, f->ping[i].where = where;
    f->n++;
    f->wheres += where;
    if (where)
        f->where_t = now;
    if ((double)flow_in_flight(f) >= 0.8 * f->window)
        f->full_t = now;
    return where ? FLOW_PING_WHERE : FLOW_PING_STATUS;
}

/* The most of the rate samples still remembered (0: none). */
static double rate_known(const struct flow *f, double now)
{
    double r = 0.0, memory = f->base * 8.0 > FLOW_RATE_MEMORY ? f->base * 8.0 : FLOW_RATE_MEMORY;
    for (int i = 0; i < f->nrates; i++)
        if (now - f->rates[i].t <= memory && f->rates[i].rate > r)
            r = f->rates[i].rate;
    return r;
}

static void rate_keep(struct flow *f, double rate, double now)
{
    int at = 0;
    if (f->nrates < FLOW_RATES) {
        at = f->nrates++;
    } else {
        for (int i = 1; i < FLOW_RATES; i++) /* the oldest goes */
            if (f->rates[i].t < f->rates[at].t)
                at = i;
    }
    f->rates[at].rate = rate, f->rates[at].t = now;
}

/* What the answers say of the rate (see the top): the answer `at` came now,
 * its ping queued `queued` s. */
static void rate_sample(struct flow *f, long long at, long long before, double queued,
                        double now)
{
    int busy = -1, recent = -1; /* the oldest answers since the queue began, and within a second */
    for (int k = 0; k < f->hist_n; k++) {
        int i = (f->hist_head + k) % FLOW_HIST;
        double age = now - f->hist[i].t;
        if (busy < 0 && age <= queued && age >= FLOW_SPAN)
            busy = i;
        if (recent < 0 && age <= 1.0 && age >= FLOW_SPAN)
            recent = i;
    }
    if (recent >= 0)
        f->delivered = (double)(at - f->hist[recent].at) / (now - f->hist[recent].t);
    if (busy >= 0 && before > 0 && queued > FLOW_BUSY) {
        double r = (double)(at - f->hist[busy].at) / (now - f->hist[busy].t);
        if (queued > 2.0 * FLOW_QUEUE)
            f->nrates = 0; /* the link has slowed: what it carries now is all we know */
        rate_keep(f, r, now);
    }
    f->rate = rate_known(f, now);
    if (f->hist_n == FLOW_HIST)
        f->hist_head = (f->hist_head + 1) % FLOW_HIST, f->hist_n--;
    int i = (f->hist_head + f->hist_n++) % FLOW_HIST;
    f->hist[i].at = at, f->hist[i].t = now;
}

void flow_heard(struct flow *f, double now)
{
    if (f->answered || f->asked < 0.0)
        return;
    f->answered = true;
    f->off = false;
    f->rtt = now - f->asked;
    base_sample(f, f->rtt, now);
}

void flow_answered(struct flow *f, enum flow_ping kind, double now)
{
    f->answered = true;
    f->off = false; /* it answers after all: paced from here on */
    /* Answers come in order: before a WHERE answer, every status ping sent
     * before its own has been answered or lost; a status answer finds the
     * WHERE ping before it answered or lost. */
    if (f->desync) { /* pings were given up on: their answers may still come */
        if (kind != FLOW_PING_WHERE)
            return;
        if (f->stale > 0) {
            f->stale--;
            return;
        }
        f->desync = false; /* the first position answer since is for a ping still kept */
    }
    if (kind == FLOW_PING_WHERE && f->wheres == 0)
        return; /* one we gave up on, or a key that looked like one */
    if (kind == FLOW_PING_WHERE)
        f->where_ok = true;
    else
        f->status_ok = true;
    bool lost = false;
    while (f->n > 0 && f->ping[f->head].where != (kind == FLOW_PING_WHERE))
        drop_oldest(f), lost = true;
    if (f->n == 0)
        return; /* an answer to a ping we gave up on */
    if (lost)
        f->hist_n = 0; /* the answers before were taken for others': no rate from them */
    long long at = f->ping[f->head].at, before = f->ping[f->head].before;
    long long acked = at > f->acked ? at - f->acked : 0; /* newly taken in */
    double sent_t = f->ping[f->head].t;
    drop_oldest(f);
    f->rtt = now - sent_t;
    base_sample(f, f->rtt, now);
    double queued = f->rtt - f->base;
    rate_sample(f, at, before, queued, now);
    bool limited = now - f->full_t <= f->rtt + FLOW_SPAN; /* the window was the limit lately */
    if (f->rate > 0.0)
        f->bdp = f->rate * (f->base + FLOW_QUEUE);
    if (f->rate > 0.0 && queued > FLOW_BUSY) {
        f->window = f->bdp; /* loaded: what the link was measured to carry */
    } else if (queued < 0.5 * FLOW_QUEUE) {
        if (limited) /* nothing stands in line: the link may carry more */
            f->window += (f->window < f->bdp || f->bdp <= 0.0 ? 2.0 : 1.0) * (double)acked;
        if (f->window < f->bdp)
            f->window = f->bdp;
    } else if (queued > FLOW_QUEUE) {
        double k = (f->base + FLOW_QUEUE) / f->rtt;
        f->window *= k > 0.5 ? k : 0.5;
    }
    f->window = clampd(f->window, FLOW_WINDOW_MIN, FLOW_WINDOW_MAX);
}

/* What a ping sent now should take to come back. */
static double expected(const struct flow *f)
{
    double base = f->base >= 0.0 ? f->base : 0.1;
    double queue = f->rate > 0.0 ? (double)flow_in_flight(f) / f->rate : 0.0;
    return base + FLOW_QUEUE + queue;
}

void flow_tick(struct flow *f, double now)
{
    base_age(f, now);
    if (f->rate > 0.0)
        f->rate = rate_known(f, now);
    if (!f->answered && !f->off && f->asked >= 0.0 && now - f->asked > FLOW_GIVE_UP) {
        f->off = true; /* no answer to anything: pace by the clock alone */
        f->off_window = FLOW_OFF_WINDOW;
        f->off_t = now;
        f->acked = f->sent;
    }
    /* What went out counts as taken in, once a while has passed: while the
     * terminal may yet be only far, FLOW_OFF_WINDOW each FLOW_OFF_EVERY;
     * once it has been silent FLOW_SILENT, twice as much each FLOW_GIVE_UP. */
    bool silent = now - f->asked >= FLOW_SILENT;
    if (f->off && now - f->off_t >= (silent ? FLOW_GIVE_UP : FLOW_OFF_EVERY)) {
        f->acked = f->sent;
        if (silent)
            f->off_window = clampd(2.0 * f->off_window, FLOW_OFF_WINDOW, FLOW_WINDOW_MAX);
        f->off_t = now;
    }
    double lost = 4.0 * expected(f);
    if (!f->off && f->n > 0 && now - f->ping[f->head].t > (lost > FLOW_LOST ? lost : FLOW_LOST)) {
        /* An answer got lost: do not wait for it forever. The answers to
         * what is given up may yet come; a terminal that answers position
         * requests tells which by the next (desync); one that does not has
         * the answers matched in order. */
        f->stale = f->where_ok ? f->stale + f->wheres : 0;
        f->desync = f->where_ok;
        f->n = f->wheres = 0;
        f->acked = f->sent;
    }
}

bool flow_probe_due(const struct flow *f, double now)
{
    double late = 2.0 * expected(f) + 0.1;
    return !f->off && f->where_ok && f->n > 0 && now - f->ping[f->head].t > late &&
           now - f->where_t > late;
}

void flow_probed(struct flow *f, double now)
{
    f->where_t = -1.0; /* what follows is a position request */
    flow_wrote(f, 0, now);
}

bool flow_stalled(const struct flow *f, double now)
{
    double age = 2.0 * expected(f) + 0.25;
    return !f->off && f->n > 0 && now - f->ping[f->head].t > (age > 0.5 ? age : 0.5);
}

double flow_drain_wait(const struct flow *f, double now)
{
    if (!f->answered) /* it may yet answer what it was asked, if that was lately */
        return f->asked >= 0.0 && now - f->asked < FLOW_QUIET ? f->asked + FLOW_QUIET - now : 0.0;
    if (flow_stalled(f, now))
        return 0.0;
    return clampd(expected(f) + 0.25, 0.2, FLOW_DRAIN_MAX);
}

void flow_plan_init(struct flow_plan *p)
{
    memset(p, 0, sizeof *p);
    p->probe_t = -1.0;
}

void flow_plan_rate(struct flow_plan *p, const struct flow *f, double want, double now)
{
    const bool wants = p->rate > 0.0 && want > p->rate * FLOW_USE;
    /* The rate the frames are paced to: the link's, where it is loaded (a
     * queue stands) or measured above it. Where the frames want more and
     * nothing stands in line, a probe now and then: FLOW_GROW times the rate
     * for FLOW_PROBE_ROUNDS round trips; if no queue has grown by then, the link carries
     * it, and the next probe follows at once, FLOW_GROW_MORE times bolder
     * (a link that cleared is found within a second); a queue ends the probe
     * at what was measured. */
    bool queue = f->rtt >= 0.0 && f->base >= 0.0 && f->rtt - f->base > FLOW_BUSY;
    double round = f->base > 0.1 ? f->base : 0.1;
    if (f->rate > 0.0 && (queue || p->rate <= 0.0 || f->rate > p->rate)) {
        p->rate = f->rate; /* measured */
        if (p->probe_t >= 0.0 || p->next_probe < now)
            p->next_probe = now + FLOW_PROBE_EVERY;
        p->probe_t = -1.0;
        p->gain = FLOW_GROW;
    } else if (p->probe_t >= 0.0 && now - p->probe_t >= FLOW_PROBE_ROUNDS * round) {
        /* Carried, with nothing in line: as much as the frames sent meanwhile
         * (frames that did not fill the probe tried the link no further). */
        double sent = (double)(f->sent - p->probe_sent) / (now - p->probe_t) / FLOW_USE;
        bool filled = sent >= 0.8 * p->probe_rate;
        if (sent > p->rate)
            p->rate = filled ? p->probe_rate : sent;
        p->probe_t = -1.0;
        p->next_probe = wants && filled ? now : now + FLOW_PROBE_EVERY;
        if (filled)
            p->gain = p->gain * FLOW_GROW_MORE < FLOW_GROW_MOST ? p->gain * FLOW_GROW_MORE : FLOW_GROW_MOST;
    }
    /* The pings come back as fast as on an empty link: there is room now. */
    if (f->rtt >= 0.0 && f->base >= 0.0 && f->rtt - f->base < 0.25 * FLOW_BUSY && p->probe_t < 0.0 &&
        now < p->next_probe) {
        p->next_probe = now;
        p->gain = p->gain > FLOW_GROW_MORE ? p->gain : FLOW_GROW_MORE;
    }
    if (p->rate > 0.0 && p->probe_t < 0.0 && !queue && wants && now >= p->next_probe) {
        p->probe_t = now;
        p->probe_sent = f->sent;
        p->probe_rate = p->rate * (p->gain > FLOW_GROW ? p->gain : FLOW_GROW);
    }
}

double flow_plan_avail(const struct flow_plan *p) { return p->rate * FLOW_USE; }

double flow_plan_pace(const struct flow_plan *p)
{
    return (p->probe_t >= 0.0 ? p->probe_rate : p->rate) * FLOW_USE;
}
