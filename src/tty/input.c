/*
 * input.c — the one parser of the terminal's bytes (see input.h): keys, mouse
 * reports, and the terminal's answers, framed here and read by answer.c.
 * Bytes accumulate in a small pending buffer and are parsed from its start,
 * one unit (a key, a mouse report, a sequence, a byte of a control string) at
 * a time; a control string's contents go into a buffer of their own.
 */
#include "input.h"
#include "answer.h"

#include <stdbool.h>
#include <string.h>

/* Why slicing cannot matter: parse_one() decides from the bytes it has seen and
 * never from their count alone, so once it consumes a unit, more bytes would not
 * have changed the answer; a unit it waits for is at most CSI_MAX - 1 bytes, so
 * the pending buffer never fills with one. A CSI that reaches CSI_MAX bytes
 * without its final byte is consumed and the rest of it skipped byte by byte
 * (in->skip), with no limit on its length and no buffer. A control string is
 * taken a byte at a time into in->m.str (an ESC with the byte after it), its
 * contents kept up to INPUT_STRING_MAX bytes, the rest only counted. */
#define CSI_MAX 40 /* bytes, ESC to final byte: a longer CSI is garbage */
_Static_assert(CSI_MAX < sizeof ((struct input *)0)->pend, "a CSI must fit the pending bytes");

enum { NEED_MORE = -1 };
/* What in->skip is inside: nothing, an over-long CSI. */
enum { SKIP_NONE, SKIP_CSI };

void input_init(struct input *in)
{
    memset(in, 0, sizeof *in);
    in->m.str = INPUT_NO_STRING;
}

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
    if (answer_csi(p, n, fin, ev))
        return true;
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
 * (which is then parsed anew, unless it is a continuation byte, which can
 * start nothing), whether or not the rest has arrived. */
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
        if (p[i] < lo || p[i] > hi) /* broken: drop what was read, and the byte
                                     * that broke it if it continues nothing else
                                     * (a C1 byte there is no string's start) */
            return (int)i + (p[i] >= 0x80 && p[i] <= 0xBF);
        cp = (cp << 6) | (p[i] & 0x3F);
        lo = 0x80, hi = 0xBF;
    }
    key_event(ev, cp, 0);
    *got = true;
    return (int)len;
}

/* The control strings: what introduces each, in 7 bits (ESC and a byte) and
 * in 8 (a C1 byte). */
static const struct {
    unsigned char esc, c1;
} intro[] = {
    [INPUT_DCS] = {'P', 0x90}, [INPUT_OSC] = {']', 0x9D}, [INPUT_APC] = {'_', 0x9F},
    [INPUT_PM] = {'^', 0x9E},  [INPUT_SOS] = {'X', 0x98},
};

/* The string a 7-bit introducer (ESC, then c) or an 8-bit one (c) starts, or
 * INPUT_NO_STRING. */
static int string_kind(unsigned char c, bool c1)
{
    for (int k = INPUT_DCS; k <= INPUT_SOS; k++)
        if (c == (c1 ? intro[k].c1 : intro[k].esc))
            return k;
    return INPUT_NO_STRING;
}

/* Does the byte after ESC and a string's letter begin the string? A DCS
 * begins with a parameter byte (as every answer does), the others with any
 * byte that is not a control; otherwise ESC and the letter are the Alt key a
 * person typed, and the byte after them is parsed anew. */
static bool string_begins(int kind, unsigned char c)
{
    if (kind == INPUT_DCS)
        return c >= 0x30 && c <= 0x3F;
    return c >= 0x20 && c != 0x7F;
}

static void string_end(struct input *in)
{
    in->m.str = INPUT_NO_STRING;
    in->m.nstr = 0;
    in->m.over = false;
    in->m.utf8 = 0;
}

/* A string ended by its terminator: what it answers, if swirl asked it. */
static bool string_done(struct input *in, struct input_event *ev)
{
    bool got = false;
    if (!in->m.over && in->m.str == INPUT_DCS)
        got = answer_dcs(in->sbuf, in->m.nstr, ev);
    else if (!in->m.over && in->m.str == INPUT_APC)
        got = answer_apc(in->sbuf, in->m.nstr, ev);
    string_end(in);
    return got;
}

/* The next byte of a control string at p[0..n): kept (up to
 * INPUT_STRING_MAX; past it the string is dropped whole); BEL, ST (ESC \, or
 * 0x9C outside a UTF-8 character) end it; CAN and SUB cancel it; another ESC
 * cuts it off, dropped, and is parsed anew (returns 0). */
static int string_byte(struct input *in, const unsigned char *p, size_t n,
                       struct input_event *ev, bool *got)
{
    unsigned char c = p[0];
    *got = false;
    if (in->m.utf8 > 0 && c >= 0x80 && c <= 0xBF)
        in->m.utf8--;
    else if (c == 0x07 || c == 0x9C) {
        *got = string_done(in, ev);
        return 1;
    } else if (c == 0x18 || c == 0x1A) {
        string_end(in);
        return 1;
    } else if (c == 27) {
        if (n < 2)
            return NEED_MORE;
        if (p[1] == '\\') {
            *got = string_done(in, ev);
            return 2;
        }
        string_end(in);
        return 0;
    } else {
        unsigned char lo, hi;
        in->m.utf8 = c >= 0x80 ? (int)utf8_lead(c, &lo, &hi) - 1 : 0;
        if (in->m.utf8 < 0)
            in->m.utf8 = 0;
    }
    if (in->m.nstr < sizeof in->sbuf)
        in->sbuf[in->m.nstr++] = c;
    else
        in->m.over = true;
    return 1;
}

/* ESC and a byte at p[0..n) other than CSI and SS3: the start of a control
 * string (consumed: its bytes come next), or the Alt key of that byte. */
static int parse_esc(struct input *in, const unsigned char *p, size_t n,
                     struct input_event *ev, bool *got)
{
    if (p[1] == 27 || p[1] >= 0x80) {
        key_event(ev, IK_ESC, 0);
        *got = true;
        return 1;
    }
    int kind = string_kind(p[1], false);
    if (kind != INPUT_NO_STRING) {
        if (n < 3)
            return NEED_MORE;
        if (string_begins(kind, p[2])) {
            in->m.str = kind;
            return 2;
        }
    }
    key_event(ev, plain_key(p[1]), 1);
    *got = true;
    return 2;
}

/* Looks at the start of the pending bytes and either consumes a complete unit
 * (with or without an event) or says it needs more bytes.
 * Parses one unit at p[0..n); returns bytes consumed or NEED_MORE; *got tells
 * whether ev was filled. The start of an over-long CSI sets in->m.skip, that
 * of a control string in->m.str: their rest comes next. */
static int parse_one(struct input *in, const unsigned char *p, size_t n,
                     struct input_event *ev, bool *got)
{
    *got = false;
    if (p[0] != 27) {
        if (p[0] < 0x80) {
            key_event(ev, plain_key(p[0]), 0);
            *got = true;
            return 1;
        }
        in->m.str = string_kind(p[0], true);
        if (in->m.str != INPUT_NO_STRING)
            return 1;
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
                in->m.skip = SKIP_CSI;
                return CSI_MAX;
            }
        }
        return NEED_MORE;
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
    return parse_esc(in, p, n, ev, got);
}

/* The unit at p[0..n) (see parse_one), inside a control string (its next
 * byte), or after the rest of an over-long CSI: its parameter and
 * intermediate bytes are dropped, its final byte ends it, and any other byte
 * ends it and is parsed anew. */
static int next_unit(struct input *in, const unsigned char *p, size_t n,
                     struct input_event *ev, bool *got)
{
    if (in->m.str != INPUT_NO_STRING) {
        int used = string_byte(in, p, n, ev, got);
        if (used != 0)
            return used;
    }
    if (in->m.skip == SKIP_CSI) {
        if (p[0] >= 0x20 && p[0] <= 0x7E) {
            *got = false;
            in->m.skip = p[0] <= 0x3F ? SKIP_CSI : SKIP_NONE;
            return 1;
        }
        in->m.skip = SKIP_NONE;
    }
    return parse_one(in, p, n, ev, got);
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
        struct input_mode was = in->m;
        int used = next_unit(in, in->pend + pos, in->npend - pos, &e, &got);
        if (used == NEED_MORE || (got && count >= max)) {
            in->m = was; /* parsed again when there is room */
            break;
        }
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
    /* What is left is one unfinished unit: a control string not ended, dropped
     * whole; a lone ESC is the Esc key, ESC and a string's letter alone the
     * Alt key of the letter (it waited to see whether a string followed);
     * anything else a truncated sequence, dropped. */
    if (in->m.str == INPUT_NO_STRING && in->npend == 1 && in->pend[0] == 27)
        key_event(&ev[count++], IK_ESC, 0);
    else if (in->m.str == INPUT_NO_STRING && !in->m.skip && in->npend == 2 &&
             in->pend[0] == 27 && string_kind(in->pend[1], false) != INPUT_NO_STRING)
        key_event(&ev[count++], in->pend[1], 1);
    in->npend = 0;
    string_end(in);
    in->m.skip = SKIP_NONE;
    return count;
}
