/*
 * input.c — the byte-stream parser for keys and mouse reports (see input.h).
 *
 * Bytes accumulate in a small pending buffer; parse_one() looks at its start and
 * either consumes a complete unit (with or without an event) or says it needs
 * more bytes. CSI sequences follow ECMA-48: parameter bytes 0x30-0x3F,
 * intermediates 0x20-0x2F, a final byte 0x40-0x7E; anything else ends a
 * malformed sequence.
 */
#include "input.h"

#include <stdbool.h>
#include <string.h>

#define CSI_MAX 40 /* longer CSI input is garbage */

enum { NEED_MORE = -1 };

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
    if (b & 64) {
        if (release)
            return false; /* wheel "releases" carry nothing */
        ev->action = MOUSE_WHEEL;
        ev->button = (b & 1) ? -1 : 1;
        return true;
    }
    ev->button = b & 3;
    if (release)
        ev->action = MOUSE_RELEASE;
    else if (b & 32)
        ev->action = ev->button == 3 ? MOUSE_MOVE : MOUSE_DRAG;
    else
        ev->action = ev->button == 3 ? MOUSE_RELEASE : MOUSE_PRESS;
    return true;
}

/* A complete CSI sequence: private marker, parameters and final byte. */
static bool csi_event(const unsigned char *p, size_t n, unsigned char fin,
                      struct input_event *ev)
{
    int v[4] = {0, 0, 0, 0};
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

/* Parses one unit at p[0..n); returns bytes consumed or NEED_MORE; *got tells
 * whether ev was filled. */
static int parse_one(const unsigned char *p, size_t n, struct input_event *ev, bool *got)
{
    *got = false;
    if (p[0] != 27) {
        if (p[0] < 0x80) {
            key_event(ev, plain_key(p[0]), 0);
            *got = true;
            return 1;
        }
        size_t len = p[0] >= 0xF0 ? 4 : p[0] >= 0xE0 ? 3 : p[0] >= 0xC0 ? 2 : 0;
        if (len == 0 || p[0] >= 0xF8)
            return 1; /* stray continuation or invalid lead byte */
        if (n < len)
            return NEED_MORE;
        int cp = p[0] & (0x3F >> (len - 1));
        for (size_t i = 1; i < len; i++) {
            if ((p[i] & 0xC0) != 0x80)
                return (int)i; /* broken sequence: drop what was read */
            cp = (cp << 6) | (p[i] & 0x3F);
        }
        key_event(ev, cp, 0);
        *got = true;
        return (int)len;
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
            if (c < 0x20 || c > 0x3F || i >= CSI_MAX)
                return (int)i; /* malformed: drop it, reparse from c */
        }
        return n >= CSI_MAX ? (int)n : NEED_MORE;
    }
    if (p[1] == 'O') {
        if (n < 3)
            return NEED_MORE;
        static const char fin[] = "ABCDHF";
        static const int keys[] = {IK_UP, IK_DOWN, IK_RIGHT, IK_LEFT, IK_HOME, IK_END};
        const char *f = p[2] ? strchr(fin, p[2]) : NULL;
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

static int drain(struct input *in, struct input_event *ev, int max)
{
    int count = 0;
    size_t pos = 0;
    while (pos < in->npend && count < max) {
        bool got;
        int used = parse_one(in->pend + pos, in->npend - pos, &ev[count], &got);
        if (used == NEED_MORE)
            break;
        pos += (size_t)used;
        if (got)
            count++;
    }
    memmove(in->pend, in->pend + pos, in->npend - pos);
    in->npend -= pos;
    return count;
}

int input_feed(struct input *in, const unsigned char *bytes, size_t n,
               struct input_event *ev, int max)
{
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        if (in->npend == sizeof in->pend) {
            count += drain(in, ev + count, max - count);
            if (in->npend == sizeof in->pend) { /* stuck: drop the oldest byte */
                memmove(in->pend, in->pend + 1, in->npend - 1);
                in->npend--;
            }
        }
        in->pend[in->npend++] = bytes[i];
    }
    return count + drain(in, ev + count, max - count);
}

int input_flush(struct input *in, struct input_event *ev, int max)
{
    int count = drain(in, ev, max);
    if (in->npend > 0 && count < max && in->pend[0] == 27 && in->npend == 1)
        key_event(&ev[count++], IK_ESC, 0);
    in->npend = 0; /* anything else left is a truncated sequence */
    return count;
}
