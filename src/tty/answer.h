/*
 * answer.h — what the terminal's answers say (private to the tty layer: the
 * parser, input.c, frames the bytes; these read what is inside). Each fills
 * ev->answer and returns true for an answer swirl asks for, and returns false
 * for anything else, which is then dropped (an answer to someone else) or,
 * for a CSI sequence, may still be a key.
 */
#ifndef SWIRL_ANSWER_H
#define SWIRL_ANSWER_H

#include "event.h"

#include <stdbool.h>
#include <stddef.h>

/* A piece of a text (an answer, tmux's output): p[0..n). */
struct span {
    const unsigned char *p;
    size_t n;
};
/* Splits s at each sep into at most max pieces; returns how many (pieces
 * beyond max are left out). */
int span_split(struct span s, unsigned char sep, struct span *out, int max);

/* A CSI sequence's parameter and intermediate bytes p[0..n) and its final
 * byte: DA1, DECRQM, XTSMGRAPHICS, the cell's size in pixels. */
bool answer_csi(const unsigned char *p, size_t n, unsigned char fin, struct input_event *ev);
/* A DCS string's contents (between ESC P and ST): DECRQSS m, XTGETTCAP. */
bool answer_dcs(const unsigned char *p, size_t n, struct input_event *ev);
/* An APC string's contents: the kitty graphics protocol's G...;OK. */
bool answer_apc(const unsigned char *p, size_t n, struct input_event *ev);

#endif
