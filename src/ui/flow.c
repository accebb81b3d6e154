/*
 * flow.c — the window of bytes in flight to the terminal (see flow.h).
 *
 * Each answer tells how long the oldest ping took to come back: the time the
 * bytes before it spent queued on the way. Later than FLOW_LAG, the window
 * shrinks in proportion (never below FLOW_WINDOW_MIN); well within it, the
 * window grows by a quarter, so a fast local terminal soon writes whole frames
 * at once and a 20 KB/s link settles near 2 KB in flight. Pieces end just
 * before an ESC: the encoder's output is escape sequences and whole UTF-8
 * glyphs, so nothing before an ESC is ever left half-sent.
 */
#include "flow.h"

#include <string.h>

void flow_init(struct flow *f)
{
    memset(f, 0, sizeof *f);
    f->first_ping = -1.0;
    f->window = FLOW_WINDOW0;
}

size_t flow_chunk(const struct flow *f, const char *data, size_t n)
{
    if (f->off)
        return n;
    double room = f->window - (double)flow_in_flight(f);
    if (room < 1.0)
        return 0;
    if ((double)n <= room)
        return n;
    size_t cut = (size_t)room;
    for (size_t i = cut; i > 0; i--)
        if (data[i] == '\x1b')
            return i;
    /* No escape sequence starts within the room: this piece runs on to the
     * next one (what lies between two is at most a row of glyphs). */
    for (size_t i = cut + 1; i < n; i++)
        if (data[i] == '\x1b')
            return i;
    return n;
}

void flow_wrote(struct flow *f, size_t n, double now)
{
    f->sent += (long long)n;
    if (f->off)
        return;
    if (f->first_ping < 0.0)
        f->first_ping = now;
    if (f->n == FLOW_PINGS) { /* a ping too many in flight: the oldest counts as answered */
        f->acked = f->ping[f->head].at;
        f->head = (f->head + 1) % FLOW_PINGS;
        f->n--;
    }
    int i = (f->head + f->n) % FLOW_PINGS;
    f->ping[i].at = f->sent, f->ping[i].t = now;
    f->n++;
}

void flow_answered(struct flow *f, double now)
{
    f->answered = true;
    if (f->n == 0)
        return; /* an answer to a ping we gave up on */
    double rtt = now - f->ping[f->head].t;
    f->acked = f->ping[f->head].at;
    f->head = (f->head + 1) % FLOW_PINGS;
    f->n--;
    if (rtt > FLOW_LAG) {
        double k = FLOW_LAG / rtt;
        f->window *= k > 0.5 ? k : 0.5;
    } else if (rtt < 0.5 * FLOW_LAG) {
        f->window *= 1.25;
    }
    f->window = f->window < FLOW_WINDOW_MIN ? FLOW_WINDOW_MIN
              : f->window > FLOW_WINDOW_MAX ? FLOW_WINDOW_MAX : f->window;
}

void flow_tick(struct flow *f, double now)
{
    if (f->off || f->n == 0)
        return;
    if (!f->answered && now - f->first_ping > FLOW_GIVE_UP) {
        f->off = true; /* no DSR here: pace by the clock alone */
        f->n = 0;
        f->acked = f->sent;
    } else if (now - f->ping[f->head].t > FLOW_LOST) {
        f->n = 0; /* an answer got lost: do not wait for it forever */
        f->acked = f->sent;
    }
}
