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

struct input {
    unsigned char pend[64];
    size_t npend;
    int skip;       /* inside an over-long CSI (dropping it up to its final byte)
                     * or DCS string (up to its ST) */
};

void input_init(struct input *in);
/* Understood: printable UTF-8, Enter/Tab/Backspace/Ctrl-C, arrows (CSI and SS3
 * forms, with or without modifiers), Home/End/PgUp/PgDn/Delete, SGR mouse
 * reports CSI < b ; x ; y M/m (any column), legacy X10 reports CSI M b x y, and
 * the DSR answer CSI 0 n and the cursor position answer CSI r ; c R (used to
 * pace output; F3 with a modifier sends the same as the latter, and swirl
 * gives F3 nothing to do), DA1's answer CSI ? ... c. Unknown CSI sequences are
 * skipped whole, and so are those longer than 40 bytes (up to their final byte,
 * however long); a malformed one is dropped at the first byte that cannot
 * belong to it, which is then parsed anew. A DCS string (ESC P and a parameter
 * byte 0-9 : ; < = > ?) is a terminal's answer, one that came after swirl
 * stopped waiting for it (probe.h): skipped whole up to its ST, however long;
 * ESC P then anything else is Alt-P. Invalid UTF-8 (overlong forms,
 * surrogates, code points past U+10FFFF, stray or cut-short bytes) is dropped
 * the same way, never decoded. A lone ESC stays pending until more bytes come
 * or input_flush() is called (after ESCDELAY), when it becomes the Esc key.
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
static inline int input_pending(const struct input *in) { return in->npend > 0 || in->skip; }

#endif
