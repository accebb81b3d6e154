/*
 * encode.h — turns cells into the bytes that draw them, against a shadow of the
 * cells already on screen.
 *
 * The encoder keeps the cells as last sent (the shadow), the cursor position and
 * the SGR colours in force. encode_frame() appends to a buffer only what changed:
 * a cell is sent when its glyph differs or a colour it shows differs from the
 * shadow by more than `tolerance` in some channel (the shadow keeps what was
 * sent, so small drifts add up and are sent once they exceed it). Cursor moves
 * are the shortest of CUP and the relative moves (CUF, CUB, CUU, CUD), and only
 * when the next cell to send is not where the cursor already is; fg and bg
 * SGRs are elided when equal to
 * those in force (a space shows no fg: it is sent with the default fg, see
 * below), and a colour
 * within the tolerance of the one in force is shown with that one. Two cells
 * printed one after the other, one of them a block element, get a NUL between
 * them, which ends the terminal's run: xterm with an outline font draws a block
 * a hair wider than its cell, and within a run that overhang stays in the
 * neighbour until the neighbour is repainted (see encode.c). So a cell shows
 * what was last sent to it, whatever was sent around it, and the screen is what
 * a full repaint of the shadow would show. A multiplexer drops the NUL and
 * prints neighbours of equal attributes in one run, so a space never has the
 * attributes of a block: its fg is the default (in mono, it is bold), and
 * neighbours in one run are then the same cell. An unchanged frame
 * appends nothing. With `sweep` on, one row per frame, in turn, is compared with
 * no tolerance, so differences the tolerance let stand (a faded trail a shade
 * off the background, say) are put right within a pass over the rows instead
 * of staying for good, and that while the picture moves: a cell is never
 * further off than the tolerance, nor off at all for longer than a pass (a
 * moving picture costs a row of exact cells a frame more, 2-4 %); and a cell
 * asked for the same ENCODE_SETTLE frames running is compared exactly (the
 * trail a moving thing leaves on a still background is gone once it has
 * passed, not a pass later). With
 * `exact` on (a still picture: the caller sets it while paused), every cell is
 * compared with no tolerance, so the last frame sent leaves the screen exact. A
 * frame that sends something may be wrapped in synchronized-output marks (CSI
 * ?2026 h ... l). After encode_invalidate() (start, resize, return from Ctrl-Z)
 * the next frame resets SGR and sends every cell.
 *
 * A frame is always whole: what a slow link or terminal cannot take is given
 * up before the encoder (fewer frames, a coarser picture: app/ladder.h), so
 * the screen is never half one frame and half another. `pad` bytes more go
 * after the frame's own, whole rows in turn sent again exactly as they are,
 * the screen up to ENCODE_PAD_PASSES times (a probe of a link's rate is
 * filled with them, however coarse the picture it probes for: they cost nothing but the
 * bytes, and leave those cells exact). The tolerance works
 * the same in every mode but mono (where cells have no colours): a
 * 256-colour cell is compared by the palette colours it shows.
 *
 * With `block` set (a coarser picture, blocks of cells of one colour: the
 * ladder's), the cells go block by block: a block that is one colour and
 * changed is sent whole, its rows one under the other, so its colour is set
 * once, not once a row (a 6x3 block costs a third less); a block that is not
 * (the status line over it) goes cell by cell as any cell does.
 */
#ifndef SWIRL_ENCODE_H
#define SWIRL_ENCODE_H

#define ENCODE_PAD_PASSES 8 /* a frame's padding sends the screen at most this many times */

#include "buf.h"
#include "cells.h"

#define ENCODE_SETTLE 3

struct encoder {
    enum color_mode mode;
    int tolerance;       /* per-channel, 0..255, truecolor only */
    bool sync;           /* wrap frames in CSI ?2026 h/l */
    bool sweep;          /* each frame, one row is compared exactly (see above) */
    bool exact;          /* every cell is compared exactly (a still picture, see above) */
    int sweep_row;
    int cols, rows;
    struct cell *shadow;
    struct cell *wanted; /* the cells asked for last frame ... */
    unsigned char *still; /* ... and for how many frames running (up to 255) */
    bool valid;          /* shadow matches the screen */
    double pad;          /* bytes of padding the next frame adds (0: none; see above) */
    int pad_row;         /* where the next padding begins */
    size_t padded;       /* the last frame's padding, in bytes */
    struct cells_block block; /* the picture's blocks (w, h 0: cells) */
    int cur_row, cur_col; /* -1: unknown */
    rgb_t cur_fg, cur_bg; /* SGR in force */
    unsigned cur_attr;    /* mono: bold and reverse video in force (encode.c) */
};

void encode_init(struct encoder *e, enum color_mode mode, int tolerance, bool sync);
void encode_free(struct encoder *e);
void encode_invalidate(struct encoder *e);
/* The cell at (col, row) is not known to be on screen (something drew over
 * it): the next frame sends it. */
void encode_forget(struct encoder *e, int col, int row);
/* Appends the bytes that bring the screen from the shadow to `s`; returns how
 * many cells it sent. */
int encode_frame(struct encoder *e, const struct cells *s, struct buf *out);
/* What redrawing every cell of s would cost, with no shadow and no elision: a CUP
 * per row and a full fg+bg SGR before every cell (the bandwidth baseline). */
void encode_naive(const struct cells *s, enum color_mode mode, struct buf *out);

#endif
