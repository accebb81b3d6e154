/*
 * owed.c — the answers the terminal owes (see owed.h). The pings owed are
 * counted all along (pings - pongs); the times of the newest OWED_RING of them
 * are kept in a ring, oldest at head, for the round trips and for the age of
 * the oldest question. Each answer is one round trip, taken into the longest
 * recent one with the earlier ones fading by OWED_FORGET an answer, so one
 * slow answer (swirl itself busy for a moment, when it read it) counts for a
 * few answers, not for seconds: it would make a link that stops look alive
 * for that long.
 */
#include "owed.h"

#include <string.h>

void owed_init(struct owed *o)
{
    memset(o, 0, sizeof *o);
    o->rtt = -1.0;
}

void owed_asked(struct owed *o, double now)
{
    o->probe = true;
    o->probe_at = now;
}

void owed_pinged(struct owed *o, double now)
{
    if (o->n == OWED_RING) { /* the oldest time is forgotten; the count is kept */
        o->head = (o->head + 1) % OWED_RING;
        o->n--;
    }
    o->at[(o->head + o->n) % OWED_RING] = now;
    o->n++;
    o->pings++;
}

static void round_trip(struct owed *o, double rtt)
{
    double faded = o->rtt * OWED_FORGET;
    o->rtt = rtt > faded ? rtt : faded;
}

void owed_attrs(struct owed *o, double now)
{
    if (o->probe)
        round_trip(o, now - o->probe_at);
    o->probe = false;
}

void owed_pong(struct owed *o, double now)
{
    o->probe = false; /* asked before any ping: answered, or never will be */
    if (o->pongs == o->pings)
        return; /* the answer to a ping from before the last reset */
    if (o->pings - o->pongs == o->n) { /* the oldest ping owed has its time kept */
        round_trip(o, now - o->at[o->head]);
        o->head = (o->head + 1) % OWED_RING;
        o->n--;
    }
    o->pongs++;
}

bool owed_any(const struct owed *o) { return o->probe || o->pongs < o->pings; }

double owed_wait(const struct owed *o, double now)
{
    if (!owed_any(o))
        return 0.0;
    /* When the oldest question owed went out (a ping whose time was
     * forgotten went out before the oldest kept: this is later than it). */
    double oldest = o->probe ? o->probe_at : o->at[o->head];
    if (o->rtt < 0.0) {
        double left = oldest + OWED_MAX - now;
        return left > 0.0 ? left : 0.0;
    }
    double patience = OWED_SLACK + 2.0 * o->rtt;
    patience = patience < OWED_MAX ? patience : OWED_MAX;
    return now - oldest > patience ? 0.0 : patience;
}
