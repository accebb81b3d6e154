/*
 * input.h — the one parser of what the terminal sends: its bytes to events
 * (event.h), a person's keys and mouse reports and the terminal's answers.
 * swirl reads raw bytes (ncurses' keypad off) and parses them itself, so keys
 * and mouse work the same whatever the terminfo entry says. Cells are 0-based.
 */
#ifndef SWIRL_INPUT_H
#define SWIRL_INPUT_H

#include "event.h"

#include <stdbool.h>
#include <stddef.h>

#define INPUT_STRING_MAX 256 /* bytes of a control string kept: a longer one
                              * is dropped whole */
#define INPUT_ESC_DELAY 0.05    /* s: a lone ESC this old is the Esc key */
#define INPUT_STRING_DELAY 0.5  /* s: a control string silent this long ends */

/* The control strings (ECMA-48 8.3.27 and its kin): what they carry is an
 * answer, or nobody's (an OSC colour answer left by a program that asked and
 * exited), never keys. */
enum { INPUT_NO_STRING, INPUT_DCS, INPUT_OSC, INPUT_APC, INPUT_PM, INPUT_SOS };

struct input {
    unsigned char pend[64];
    size_t npend;
    struct input_mode {
        int skip;     /* inside an over-long CSI (dropping it up to its final byte) */
        int str;      /* inside a control string: its kind */
        size_t nstr;  /* its bytes kept in sbuf */
        bool over;    /* it outgrew sbuf: dropped whole at its end */
        int utf8;     /* continuation bytes of a UTF-8 character to come in it */
    } m;
    unsigned char sbuf[INPUT_STRING_MAX];
};

void input_init(struct input *in);
/* Understood: printable UTF-8, Enter/Tab/Backspace/Ctrl-C, arrows (CSI and SS3
 * forms, with or without modifiers), Home/End/PgUp/PgDn/Delete, SGR mouse
 * reports CSI < b ; x ; y M/m (any column), legacy X10 reports CSI M b x y;
 * and the terminal's answers: the DSR answer CSI 0 n and the cursor position
 * answer CSI r ; c R (used to pace output; F3 with a modifier sends the same
 * as the latter, and swirl gives F3 nothing to do), and those of event.h's
 * enum answer_kind (answer.c reads them). Unknown CSI sequences are skipped
 * whole, and so are those longer than 40 bytes (up to their final byte,
 * however long); a malformed one is dropped at the first byte that cannot
 * belong to it, which is then parsed anew.
 * Control strings: DCS (ESC P, or 0x90), OSC (ESC ], 0x9D), APC (ESC _,
 * 0x9F), PM (ESC ^, 0x9E) and SOS (ESC X, 0x98), up to BEL or ST (ESC \, or
 * 0x9C outside a UTF-8 character); CAN or SUB cancels one, any other ESC cuts
 * it off (and is parsed anew), and one of more than INPUT_STRING_MAX bytes is
 * dropped whole, however long. Its bytes are never keys: one swirl asked for
 * gives its answer, every other is dropped. A 7-bit one begins with its
 * introducer and the byte after it (a DCS: a parameter byte 0-9 : ; < = > ?;
 * the others: any byte but a control); ESC and the letter then anything else
 * is the Alt key of the letter, as a person types it. Invalid UTF-8 (overlong
 * forms, surrogates, code points past U+10FFFF, stray or cut-short bytes) is
 * dropped the same way, never decoded. A lone ESC stays pending until more
 * bytes come or input_flush() is called (after input_flush_delay()), when it
 * becomes the Esc key; a control string not ended by then is dropped.
 * The events depend on the bytes alone, not on how reads split them: feeding a
 * stream in any slices (each call with room for as many events as it has
 * bytes) and flushing at the end gives the events of feeding it in one piece.
 * Parses bytes; writes at most max events and returns how many. Bytes that may
 * start an unfinished sequence stay pending. A byte ends at most one event, so
 * with max >= n nothing is ever lost; past that, events wait in the pending
 * bytes, and once those fill up the oldest events are dropped. */
int input_feed(struct input *in, const unsigned char *bytes, size_t n,
               struct input_event *ev, int max);
/* End of a burst: call after ESCDELAY without further input. Gives the events
 * still waiting, then a lone ESC as the Esc key; an unfinished sequence is
 * dropped (an over-long CSI ends). Writes at most max events; with less room
 * than events, the rest stay pending for the next call. */
int input_flush(struct input *in, struct input_event *ev, int max);
/* Something waits for more bytes or for input_flush(). */
static inline bool input_pending(const struct input *in)
{
    return in->npend > 0 || in->m.skip || in->m.str != INPUT_NO_STRING;
}
/* How long after the last byte input_flush() is due while input_pending():
 * a key's sequence ends in INPUT_ESC_DELAY, a control string (which may come
 * in pieces over a slow link) in INPUT_STRING_DELAY. */
static inline double input_flush_delay(const struct input *in)
{
    return in->m.str != INPUT_NO_STRING ? INPUT_STRING_DELAY : INPUT_ESC_DELAY;
}

#endif
