/*
 * fuzz_input.c — libFuzzer target for the input parser (issue 13: the same bytes
 * must give the same keys, however they arrive). Built and run by `make fuzz`.
 *
 * Each input is parsed once in one piece and again in several slicings, as reads
 * from a pty arrive: byte by byte, in the terminal loop's 16-byte slices with
 * room for 16 events, and in slices of random length (a PRNG seeded from a hash
 * of the input) with room for at least as many events as bytes. input_flush is
 * called only at the very end. Checked, abort() on any failure:
 *  (a) every slicing gives exactly the event list of the one-piece parse;
 *  (b) no event the bytes cannot account for. Every event comes from its own ESC
 *      byte (Esc key, Alt+key, CSI/SS3 keys, mouse reports, pongs, DA1's
 *      answers) or its own key byte, so: for each ASCII key k, the events with
 *      key k are at most the bytes that map to k (the byte k itself; '\r' also
 *      from '\n', Backspace 127 also from 8; no key '\n' or 8 at all); the
 *      ESC-derived events are at most the ESC bytes; a key >= 0x80 is either
 *      an IK_ code from a sequence (never with alt) or a Unicode scalar value
 *      (no surrogate, <= U+10FFFF) whose shortest UTF-8 form is in the input;
 *      mouse fields are in range.
 * A last pass feeds random slices with too little room for events (bytes and
 * events may then be lost, by design) just to exercise those paths under ASan;
 * after every final flush nothing is pending and a fresh report parses intact.
 */
#include "input.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FLUSH_ROOM 64 /* pending bytes give at most this many events */

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_input: %s\n", what);
    abort();
}

static uint64_t prng_next(uint64_t *s) /* splitmix64 */
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static uint64_t hash_bytes(const uint8_t *p, size_t n) /* FNV-1a */
{
    uint64_t h = 0xCBF29CE484222325u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001B3u;
    return h;
}

struct events {
    struct input_event *ev;
    size_t n, cap;
};

static void events_add(struct events *e, const struct input_event *ev, int n)
{
    if (e->n + (size_t)n > e->cap)
        fail("more events than bytes");
    memcpy(e->ev + e->n, ev, (size_t)n * sizeof *ev);
    e->n += (size_t)n;
}

/* Room for one call's events: the last max entries of a heap block, so that
 * ASan sees any write past max. */
static struct input_event *room_block;
static size_t room_cap;

static struct input_event *room(int max)
{
    if ((size_t)max > room_cap)
        fail("room beyond the block");
    return room_block + room_cap - (size_t)max;
}

/* One call of input_feed with room for exactly max events. */
static int feed_exact(struct input *in, const uint8_t *p, size_t n, int max,
                      struct events *out)
{
    struct input_event *ev = room(max);
    int ne = input_feed(in, p, n, ev, max);
    if (ne < 0 || ne > max)
        fail("input_feed returned a count outside [0, max]");
    if (out)
        events_add(out, ev, ne);
    return ne;
}

/* The final flush, then a check that the parser is back at a clean start. */
static void finish(struct input *in, struct events *out)
{
    struct input_event *ev = room(FLUSH_ROOM);
    int ne = input_flush(in, ev, FLUSH_ROOM);
    if (ne < 0 || ne > FLUSH_ROOM)
        fail("input_flush returned a count outside [0, max]");
    if (out)
        events_add(out, ev, ne);
    if (input_pending(in))
        fail("bytes still pending after a flush with room");
    static const uint8_t probe[] = "\x1b[<0;10;5M";
    ne = input_feed(in, probe, sizeof probe - 1, ev, FLUSH_ROOM);
    if (ne != 1 || ev[0].type != INPUT_MOUSE || ev[0].action != MOUSE_PRESS ||
        ev[0].button != 0 || ev[0].x != 9 || ev[0].y != 4 || input_pending(in))
        fail("a report after the flush does not parse intact");
}

static void parse_whole(const uint8_t *p, size_t n, struct events *out)
{
    struct input in;
    input_init(&in);
    feed_exact(&in, p, n, n > INT32_MAX ? INT32_MAX : (int)n, out);
    finish(&in, out);
}

enum slicing { BYTES, TERMINAL, RANDOM, RANDOM_ROOM, STARVED };

static void parse_sliced(const uint8_t *p, size_t n, enum slicing how, uint64_t seed,
                         struct events *out)
{
    struct input in;
    input_init(&in);
    uint64_t s = seed;
    for (size_t off = 0; off < n;) {
        size_t len;
        int extra = 0;
        switch (how) {
        case BYTES: len = 1; break;
        case TERMINAL: len = 16; break;
        default: len = 1 + (size_t)(prng_next(&s) % 100); break;
        }
        if (len > n - off)
            len = n - off;
        if (how == RANDOM_ROOM)
            extra = (int)(prng_next(&s) % 4);
        int max = (int)len + extra;
        if (how == STARVED)
            max = (int)(prng_next(&s) % (len + 1));
        feed_exact(&in, p + off, len, max, how == STARVED ? NULL : out);
        off += len;
    }
    finish(&in, how == STARVED ? NULL : out);
}

static int same_event(const struct input_event *a, const struct input_event *b)
{
    return a->type == b->type && a->key == b->key && a->alt == b->alt &&
           a->action == b->action && a->button == b->button && a->x == b->x &&
           a->y == b->y && (a->type != INPUT_ANSWER || memcmp(&a->answer, &b->answer,
                                                               sizeof a->answer) == 0);
}

/* The code point whose shortest UTF-8 form starts at p[0..n), or -1. Written
 * from the other end than the parser: decode any form, then reject by value. */
static long utf8_at(const uint8_t *p, size_t n)
{
    size_t len = p[0] >= 0xF0 && p[0] < 0xF8 ? 4 : p[0] >= 0xE0 && p[0] < 0xF0 ? 3
               : p[0] >= 0xC0 && p[0] < 0xE0 ? 2 : 0;
    static const long least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (len == 0 || len > n)
        return -1;
    long cp = p[0] & (0xFF >> (len + 1));
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return -1;
        cp = cp << 6 | (p[i] & 0x3F);
    }
    if (cp < least[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return -1;
    return cp;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* Property (b): see the top of the file. */
static void check_sources(const uint8_t *p, size_t n, const struct events *e)
{
    size_t bytes[256] = {0}, keys[128] = {0}, from_esc = 0, ncp = 0;
    long *cps = malloc((n + 1) * sizeof *cps); /* the code points written in p */
    if (!cps)
        abort();
    for (size_t i = 0; i < n; i++) {
        bytes[p[i]]++;
        long cp = utf8_at(p + i, n - i);
        if (cp >= 0)
            cps[ncp++] = cp;
    }
    qsort(cps, ncp, sizeof *cps, cmp_long);
    for (size_t i = 0; i < e->n; i++) {
        const struct input_event *ev = &e->ev[i];
        switch (ev->type) {
        case INPUT_KEY:
            if (ev->alt != 0 && ev->alt != 1)
                fail("alt is neither 0 nor 1");
            from_esc += (size_t)ev->alt;
            if (ev->key >= 0 && ev->key < 128) {
                keys[ev->key]++;
                from_esc += ev->key == IK_ESC && !ev->alt;
            } else if (ev->key >= IK_UP && ev->key <= IK_BACKTAB) {
                if (ev->alt)
                    fail("a sequence key with alt");
                from_esc++;
            } else if (ev->key >= 0x80 && ev->key <= 0x10FFFF &&
                       !(ev->key >= 0xD800 && ev->key <= 0xDFFF)) {
                long cp = ev->key;
                if (ev->alt)
                    fail("a UTF-8 key with alt");
                if (!bsearch(&cp, cps, ncp, sizeof *cps, cmp_long))
                    fail("a code point whose UTF-8 form is not in the input");
            } else {
                fail("a key that is neither a scalar value nor an IK_ code");
            }
            break;
        case INPUT_MOUSE:
            if (ev->x < 0 || ev->y < 0)
                fail("mouse cell below 0");
            if (ev->action == MOUSE_WHEEL ? ev->button != 1 && ev->button != -1
                : ev->action < MOUSE_PRESS || ev->action > MOUSE_MOVE ||
                  ev->button < 0 ||
                  (ev->button > 3 && (ev->button < INPUT_BUTTON_EXTRA ||
                                      ev->button > INPUT_BUTTON_EXTRA + 3)))
                fail("mouse action or button out of range");
            from_esc++;
            break;
        case INPUT_PONG:
        case INPUT_WHERE:
        case INPUT_ANSWER:
            from_esc++;
            break;
        default:
            fail("unknown event type");
        }
    }
    for (int k = 0; k < 128; k++) {
        size_t src = k == '\n' || k == 8 ? 0 : bytes[k];
        if (k == IK_ENTER)
            src += bytes['\n'];
        if (k == IK_BACKSPACE)
            src += bytes[8];
        if (keys[k] > src) {
            fprintf(stderr, "fuzz_input: %zu key events %d from %zu source bytes\n",
                    keys[k], k, src);
            fail("an ASCII key the bytes do not account for");
        }
    }
    /* An answer may come in an 8-bit string too (DCS 0x90, APC 0x9F). */
    if (from_esc > bytes[27] + bytes[0x90] + bytes[0x9F])
        fail("more ESC-derived events than ESC bytes and 8-bit introducers");
    free(cps);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20))
        return -1; /* keep the counts in int */
    struct events whole = {malloc((size + 1) * sizeof *whole.ev), 0, size + 1};
    struct events cut = {malloc((size + 1) * sizeof *cut.ev), 0, size + 1};
    room_cap = size + 128;
    room_block = malloc(room_cap * sizeof *room_block);
    if (!whole.ev || !cut.ev || !room_block)
        abort();
    parse_whole(data, size, &whole);
    check_sources(data, size, &whole);
    uint64_t seed = hash_bytes(data, size);
    static const enum slicing ways[] = {BYTES, TERMINAL, RANDOM, RANDOM_ROOM};
    for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++) {
        cut.n = 0;
        parse_sliced(data, size, ways[w], seed + w, &cut);
        if (cut.n != whole.n)
            fail("a slicing gives a different number of events");
        for (size_t i = 0; i < whole.n; i++)
            if (!same_event(&whole.ev[i], &cut.ev[i]))
                fail("a slicing gives a different event");
    }
    parse_sliced(data, size, STARVED, seed + 99, NULL);
    free(whole.ev);
    free(cut.ev);
    free(room_block);
    return 0;
}
