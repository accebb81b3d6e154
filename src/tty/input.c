/*
 * input.c — the byte-stream parser for keys and mouse reports (see input.h).
 * Bytes accumulate in a small pending buffer and are parsed from its start,
 * one unit (a key, a mouse report, a skipped sequence) at a time.
 */
#include "input.h"

#include <stdbool.h>
#include <string.h>

/* Why slicing cannot matter: parse_one() decides from the bytes it has seen and
 * never from their count alone, so once it consumes a unit, more bytes would not
 * have changed the answer; a unit it waits for is at most CSI_MAX - 1 bytes, so
 * the pending buffer never fills with one. A CSI that reaches CSI_MAX bytes
 * without its final byte is consumed and the rest of it skipped byte by byte
 * (in->skip), with no limit on its length and no buffer. A DCS string (a
 * terminal's late answer) is bounded and skipped the same way, up to its ST. */
#define CSI_MAX 40 /* bytes, ESC to final byte: a longer CSI is garbage */
_Static_assert(CSI_MAX < sizeof ((struct input *)0)->pend, "a CSI must fit the pending bytes");

enum { NEED_MORE = -1 };
/* What in->skip is inside: nothing, an over-long CSI, an over-long DCS string. */
enum { SKIP_NONE, SKIP_CSI, SKIP_DCS };

void input_init(struct input *in) { memset(in, 0, sizeof *in); }

static void key_event(struct input_event *ev, int key, int alt)
{
    memset(ev, 0, sizeof *ev);
    ev->type = INPUT_KEY;
    ev->key = key;
    ev->alt = alt;
}

static int plain_key(unsigned char c)
{
    if (c == '\n')
        return IK_ENTER;
    if (c == 8)
        return IK_BACKSPACE;
    return c;
}

/* Up to 4 decimal parameters separated by ';' in p[0..n); returns the count, or
 * -1 when a parameter is not a number. */
static int parse_params(const unsigned char *p, size_t n, int *v, int max)
{
    int count = 0;
    long cur = -1;
    for (size_t i = 0; i <= n; i++) {
        if (i == n || p[i] == ';') {
            if (count < max)
                v[count] = cur < 0 ? 0 : (int)cur;
            count++;
            cur = -1;
        } else if (p[i] >= '0' && p[i] <= '9') {
            cur = (cur < 0 ? 0 : cur) * 10 + (p[i] - '0');
            if (cur > 100000)
                return -1;
        } else {
            return -1;
        }
    }
    return count;
}

static bool mouse_event(struct input_event *ev, int b, int x, int y, bool release)
{
    memset(ev, 0, sizeof *ev);
    ev->type = INPUT_MOUSE;
    ev->x = x < 0 ? 0 : x;
    ev->y = y < 0 ? 0 : y;
    if ((b & 64) && !(b & 128)) {
        if (release)
            return false; /* wheel "releases" carry nothing */
        ev->action = MOUSE_WHEEL;
        ev->button = (b & 1) ? -1 : 1;
        return true;
    }
    /* Buttons 8-11 (128 + 0..3: back, forward, ...) are other buttons than
     * 0-3, whatever their low bits say. */
    ev->button = b & 128 ? INPUT_BUTTON_EXTRA + (b & 3) : b & 3;
    if (release)
        ev->action = MOUSE_RELEASE;
    else if (b & 32)
        ev->action = ev->button == 3 ? MOUSE_MOVE : MOUSE_DRAG;
    else
        ev->action = ev->button == 3 ? MOUSE_RELEASE : MOUSE_PRESS;
    return true;
}

/* A complete CSI sequence: private marker, parameters and final byte. CSI
 * sequences follow ECMA-48: parameter bytes 0x30-0x3F, intermediates 0x20-0x2F,
 * a final byte 0x40-0x7E; anything else ends a malformed sequence. */
static bool csi_event(const unsigned char *p, size_t n, unsigned char fin,
                      struct input_event *ev)
{
    int v[4] = {0, 0, 0, 0};
    if (n > 0 && p[0] == '?' && fin == 'c' && parse_params(p + 1, n - 1, v, 4) > 0) {
        memset(ev, 0, sizeof *ev); /* DA1's answer */
        ev->type = INPUT_ANSWER;
        return true;
    }
    if (n > 2 && p[0] == '?' && p[n - 1] == '$' && fin == 'y' &&
        parse_params(p + 1, n - 2, v, 4) == 2) {
        memset(ev, 0, sizeof *ev); /* DECRQM's answer: the mode and its state */
        ev->type = INPUT_ANSWER;
        ev->key = v[0];
        ev->button = v[1];
        return true;
    }
    bool priv = n > 0 && p[0] == '<';
    if (priv) {
        if ((fin != 'M' && fin != 'm') || parse_params(p + 1, n - 1, v, 4) != 3)
            return false;
        return mouse_event(ev, v[0], v[1] - 1, v[2] - 1, fin == 'm');
    }
    int np = parse_params(p, n, v, 4);
    if (np < 0)
        return false;
    switch (fin) {
    case 'A': key_event(ev, IK_UP, 0); return true;
    case 'B': key_event(ev, IK_DOWN, 0); return true;
    case 'C': key_event(ev, IK_RIGHT, 0); return true;
    case 'D': key_event(ev, IK_LEFT, 0); return true;
    case 'H': key_event(ev, IK_HOME, 0); return true;
    case 'F': key_event(ev, IK_END, 0); return true;
    case 'Z': key_event(ev, IK_BACKTAB, 0); return true;
    case 'n':
        if (n == 1 && v[0] == 0) {
            memset(ev, 0, sizeof *ev);
            ev->type = INPUT_PONG;
            return true;
        }
        return false;
    case 'R':
        if (np != 2)
            return false;
        memset(ev, 0, sizeof *ev);
        ev->type = INPUT_WHERE;
        return true;
    case '~':
        switch (v[0]) {
        case 1: case 7: key_event(ev, IK_HOME, 0); return true;
        case 4: case 8: key_event(ev, IK_END, 0); return true;
        case 3: key_event(ev, IK_DELETE, 0); return true;
        case 5: key_event(ev, IK_PGUP, 0); return true;
        case 6: key_event(ev, IK_PGDN, 0); return true;
        default: return false;
        }
    default:
        return false;
    }
}

/* UTF-8 follows RFC 3629: the second byte's range after each lead byte excludes
 * overlong forms, surrogates and code points past U+10FFFF.
 * The length of the UTF-8 sequence led by c and the range [*lo, *hi] of its
 * second byte; 0 for a byte that leads nothing: a continuation byte, C0/C1 (only
 * overlong forms) and F5-FF (past U+10FFFF). */
static size_t utf8_lead(unsigned char c, unsigned char *lo, unsigned char *hi)
{
    *lo = 0x80, *hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        return 2;
    if (c >= 0xE0 && c <= 0xEF) {
        if (c == 0xE0)
            *lo = 0xA0; /* below: overlong */
        if (c == 0xED)
            *hi = 0x9F; /* above: surrogates U+D800-DFFF */
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (c == 0xF0)
            *lo = 0x90; /* below: overlong */
        if (c == 0xF4)
            *hi = 0x8F; /* above: past U+10FFFF */
        return 4;
    }
    return 0;
}

/* A UTF-8 sequence at p[0..n), p[0] >= 0x80. Each byte is checked as it comes,
 * so a broken sequence is dropped at the first byte that cannot continue it
 * (which is then parsed anew), whether or not the rest has arrived. */
static int parse_utf8(const unsigned char *p, size_t n, struct input_event *ev, bool *got)
{
    unsigned char lo, hi;
    size_t len = utf8_lead(p[0], &lo, &hi);
    if (len == 0)
        return 1; /* stray or invalid byte */
    int cp = p[0] & (0x7F >> len);
    for (size_t i = 1; i < len; i++) {
        if (i == n)
            return NEED_MORE;
        if (p[i] < lo || p[i] > hi)
            return (int)i; /* broken: drop what was read */
        cp = (cp << 6) | (p[i] & 0x3F);
        lo = 0x80, hi = 0xBF;
    }
    key_event(ev, cp, 0);
    *got = true;
    return (int)len;
}

/*
 * A DCS string at p[0..n) (ESC P and a parameter byte): a terminal's answer
 * (DECRQSS, XTGETTCAP, XTVERSION), never a key, skipped whole up to its ST
 * (ESC \). A CAN or SUB cancels it; any other ESC ends it and is parsed anew.
 * One of CSI_MAX bytes with no end yet is over-long: *over, and the rest is
 * skipped as it comes.
 */
static int parse_dcs(const unsigned char *p, size_t n, int *over)
{
    for (size_t i = 2; i < n; i++) {
        if (p[i] == 0x18 || p[i] == 0x1a)
            return (int)i + 1;
        if (p[i] == 27) {
            if (i + 1 == n)
                return NEED_MORE;
            return p[i + 1] == '\\' ? (int)i + 2 : (int)i;
        }
        if (i + 1 == CSI_MAX) {
            *over = SKIP_DCS;
            return CSI_MAX;
        }
    }
    return NEED_MORE;
}

/* Looks at the start of the pending bytes and either consumes a complete unit
 * (with or without an event) or says it needs more bytes.
 * Parses one unit at p[0..n); returns bytes consumed or NEED_MORE; *got tells
 * whether ev was filled, *over that the unit is the start of an over-long CSI
 * (SKIP_CSI) or DCS string (SKIP_DCS) whose rest must be skipped. */
static int parse_one(const unsigned char *p, size_t n, struct input_event *ev, bool *got,
                     int *over)
{
    *got = false;
    *over = SKIP_NONE;
    if (p[0] != 27) {
        if (p[0] < 0x80) {
            key_event(ev, plain_key(p[0]), 0);
            *got = true;
            return 1;
        }
        return parse_utf8(p, n, ev, got);
    }
    if (n < 2)
        return NEED_MORE;
    if (p[1] == '[') {
        if (n < 3)
            return NEED_MORE;
        if (p[2] == 'M') { /* legacy X10 mouse: three bytes follow */
            if (n < 6)
                return NEED_MORE;
            *got = mouse_event(ev, p[3] - 32, p[4] - 33, p[5] - 33, (p[3] & 3) == 3 && !(p[3] & 64));
            if (*got && ev->action == MOUSE_RELEASE && ev->button == 3)
                ev->button = 0;
            return 6;
        }
        for (size_t i = 2; i < n; i++) {
            unsigned char c = p[i];
            if (c >= 0x40 && c <= 0x7E) {
                *got = csi_event(p + 2, i - 2, c, ev);
                return (int)i + 1;
            }
            if (c < 0x20 || c > 0x3F)
                return (int)i; /* malformed: drop it, reparse from c */
            if (i + 1 == CSI_MAX) { /* CSI_MAX bytes and no final byte yet */
                *over = SKIP_CSI;
                return CSI_MAX;
            }
        }
        return NEED_MORE;
    }
    if (p[1] == 'P') { /* a DCS string, or Alt-P (ESC P, then anything else) */
        if (n < 3)
            return NEED_MORE;
        if (p[2] >= 0x30 && p[2] <= 0x3F)
            return parse_dcs(p, n, over);
    }
    if (p[1] == 'O') {
        if (n < 3)
            return NEED_MORE;
        if (p[2] < 0x20 || p[2] > 0x7E)
            return 2; /* no SS3 key: drop ESC O, reparse from p[2] (maybe an ESC) */
        static const char fin[] = "ABCDHF";
        static const int keys[] = {IK_UP, IK_DOWN, IK_RIGHT, IK_LEFT, IK_HOME, IK_END};
        const char *f = strchr(fin, p[2]);
        if (f) {
            key_event(ev, keys[f - fin], 0);
            *got = true;
        }
        return 3;
    }
    if (p[1] == 27 || p[1] >= 0x80) {
        key_event(ev, IK_ESC, 0);
        *got = true;
        return 1;
    }
    key_event(ev, plain_key(p[1]), 1);
    *got = true;
    return 2;
}

/* The unit at p[0..n) (see parse_one), after the rest of an over-long CSI: its
 * parameter and intermediate bytes are dropped, its final byte ends it, and any
 * other byte ends it and is parsed anew. In the rest of an over-long DCS
 * string every byte is dropped up to its ST, a CAN or SUB, or another ESC
 * (parsed anew). */
static int next_unit(struct input *in, const unsigned char *p, size_t n,
                     struct input_event *ev, bool *got)
{
    if (in->skip == SKIP_DCS) {
        *got = false;
        if (p[0] == 0x18 || p[0] == 0x1a) {
            in->skip = SKIP_NONE;
            return 1;
        }
        if (p[0] != 27)
            return 1;
        if (n < 2)
            return NEED_MORE;
        in->skip = SKIP_NONE;
        if (p[1] == '\\')
            return 2;
    }
    if (in->skip == SKIP_CSI) {
        if (p[0] >= 0x20 && p[0] <= 0x7E) {
            *got = false;
            in->skip = p[0] <= 0x3F ? SKIP_CSI : SKIP_NONE;
            return 1;
        }
        in->skip = SKIP_NONE;
    }
    int over;
    int used = parse_one(p, n, ev, got, &over);
    if (over)
        in->skip = over;
    return used;
}

static void consume(struct input *in, size_t k)
{
    memmove(in->pend, in->pend + k, in->npend - k);
    in->npend -= k;
}

/* Parses the pending bytes into at most max events. A unit with an event that
 * finds no room stays pending; units without one are always consumed. */
static int drain(struct input *in, struct input_event *ev, int max)
{
    int count = 0;
    size_t pos = 0;
    while (pos < in->npend) {
        struct input_event e;
        bool got;
        int used = next_unit(in, in->pend + pos, in->npend - pos, &e, &got);
        if (used == NEED_MORE || (got && count >= max))
            break;
        if (got)
            ev[count++] = e;
        pos += (size_t)used;
    }
    consume(in, pos);
    return count;
}

int input_feed(struct input *in, const unsigned char *bytes, size_t n,
               struct input_event *ev, int max)
{
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        if (in->npend == sizeof in->pend) {
            count += drain(in, ev + count, max - count);
            if (in->npend == sizeof in->pend) {
                /* Full of units whose events found no room: the oldest is lost.
                 * (A unit still waiting for bytes is shorter than CSI_MAX, so it
                 * cannot fill the buffer; dropping one byte is only a guard.) */
                struct input_event e;
                bool got;
                int used = next_unit(in, in->pend, in->npend, &e, &got);
                consume(in, used == NEED_MORE ? 1 : (size_t)used);
            }
        }
        in->pend[in->npend++] = bytes[i];
    }
    return count + drain(in, ev + count, max - count);
}

int input_flush(struct input *in, struct input_event *ev, int max)
{
    int count = drain(in, ev, max);
    if (count >= max && in->npend > 0)
        return count; /* no room left: the rest waits for the next call */
    /* What is left is one unfinished unit: a lone ESC is the Esc key, ESC P
     * alone is Alt-P (it waited to see whether a DCS string followed), anything
     * else a truncated sequence, dropped. */
    if (in->npend == 1 && in->pend[0] == 27)
        key_event(&ev[count++], IK_ESC, 0);
    else if (in->npend == 2 && in->pend[0] == 27 && in->pend[1] == 'P' && !in->skip)
        key_event(&ev[count++], 'P', 1);
    in->npend = 0;
    in->skip = 0;
    return count;
}
