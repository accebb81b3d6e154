/*
 * pixfit.h — how fine a picture in the terminal's pixels can be drawn: the
 * scale k (image pixels a canvas pixel; the image is k times the scene's
 * canvas each way, kitty scales it to the cells) from what frames have cost
 * and what a frame may cost, with hysteresis; and when glyphs instead.
 *
 * A scene draws at whole multiples of its canvas (a canvas pixel is half a
 * cell), so the steps are k = 1, 2, ... up to the most the area's terminal
 * pixels hold (k_max: 8 for cells of 8x17). What a frame costs grows more
 * slowly than its pixels: a finer picture of the same scene is smoother and
 * deflates better; `make bench` (pixels) measured the bytes of a kitty PNG
 * frame as k^1.52..1.61 over k = 1..8 for every scene at 100x30 and 200x60,
 * so a frame measured at k0 is taken to cost (k / k0)^PIXFIT_GROWTH times
 * as much at k. Encoding time grows as the pixels, k^2.
 *
 * Steps down are taken once a frame at k has been over the budget for
 * PIXFIT_DOWN_AFTER seconds (at once when over by PIXFIT_OVER), to the
 * largest k that fits; steps up one at a time, once the next k has fitted
 * with PIXFIT_ROOM to spare for PIXFIT_UP_AFTER seconds, so a cost that
 * wavers about a step does not flip it every frame.
 *
 * Glyphs: byte for byte, pixels showed every scene better than glyphs in
 * the bench at every budget that carries a whole frame at k = 1 (half-blocks
 * cost 2.1-3.9 times the bytes of a k = 1 kitty PNG frame, which shows the
 * same pixels; sextants show a little better than k = 1 at 3 times its
 * bytes, and k = 2 better than sextants at about their bytes). Below that,
 * pixels go on at k = 1 with fewer frames (the flow plan's), each frame
 * whole; the bench's low budgets (100x30, 8 down to 0.125 bytes a cell a
 * frame, glyphs in the encoder's tight frames) found the screen nearer the
 * picture in pixels at every one, the two meeting at 0.125 (dye: 52 against
 * 55), where a k = 1 frame takes 15-27 frames' budgets. So glyphs once a
 * k = 1 frame would take more than PIXFIT_GLYPH_FRAMES frames' budgets (at
 * 30 frames a second, less than a picture a second).
 *
 * Pure: no clock and no I/O; times are seconds on any clock, passed in.
 */
#ifndef SWIRL_PIXFIT_H
#define SWIRL_PIXFIT_H

#include <stdbool.h>

#define PIXFIT_GROWTH 1.6       /* a frame's bytes as k^this (measured; see above) */
/* ... for sixel drawn with each pixel repeated to fill the same area (its
 * bands are the terminal's rows, as many at any k): the dye at 100x30 in
 * xterm took 32, 55 and 100 KB a frame at k = 1, 2 and 8. */
#define PIXFIT_GROWTH_REPEAT 0.6
/* Bytes a cell a frame at k = 1 before any is measured (the most of the
 * scenes': dye, 3.3). */
#define PIXFIT_CELL_BYTES 3.5
#define PIXFIT_OVER 1.5         /* over the budget this much: down at once */
#define PIXFIT_DOWN_AFTER 0.25  /* s over the budget before a step down */
#define PIXFIT_ROOM 0.8         /* a step up must fit in this share of the budget, */
#define PIXFIT_UP_AFTER 1.0     /* for this many s */
#define PIXFIT_GLYPH_FRAMES 30.0 /* glyphs once a k = 1 frame takes this many frames' budgets */
/* ... for sixel: its k = 1 frame is about three times kitty's bytes (each
 * pixel repeated, a band per row of cells), and the bench's low budgets
 * found it level with half-blocks at 8 bytes a cell a frame (dye 5.5 against
 * 6.1 at 11 frames a second, pbf 9.8 against 9.9; the cloth 6.8 against 4.9)
 * and far behind at 2 (20-25 against 13-15 at 3-6 frames a second): glyphs
 * once it would come at fewer than 15 frames a second. */
#define PIXFIT_GLYPH_FRAMES_SIXEL 2.0

struct pixfit_in {
    int area_w, area_h;     /* the picture's area in the terminal's pixels */
    int canvas_w, canvas_h; /* the scene's canvas (the image at k is k times it) */
    int measured_k;         /* the k the last frames were drawn at (0: none yet) */
    double frame_bytes;     /* what they cost, smoothed (0: not known) */
    double frame_ms;        /* and took to encode (0: not known) */
    double budget;          /* bytes a frame may take (the flow plan's; 0: any) */
    double ms_budget;       /* ms encoding may take a frame (0: any) */
    double growth;          /* a frame's bytes as k^this (0: PIXFIT_GROWTH) */
    double glyph_frames;    /* glyphs once a k = 1 frame takes this many frames'
                             * budgets (0: PIXFIT_GLYPH_FRAMES) */
};

struct pixfit {
    int k;                  /* the scale chosen (0: glyphs) */
    double over_t;          /* since when the scale has not fitted (-1: it fits) */
    double room_t;          /* since when the next one up has (-1: it has not) */
    double glyph_t;         /* since when glyphs have been called for, or pixels back
                             * (-1: neither) */
    double k1_bytes;        /* what a frame at k = 1 costs, as last estimated */
};

void pixfit_init(struct pixfit *p);
/* The scale to draw the next frame at (0: glyphs), from what `in` says. */
int pixfit_choose(struct pixfit *p, const struct pixfit_in *in, double now);
/* The most the area holds: k_max (at least 1). */
int pixfit_max(const struct pixfit_in *in);
/* A picture drawn at k repeats each pixel this many times each way to fill
 * the area (sixel, which the terminal does not scale): k_max / k, at least 1. */
int pixfit_repeat(const struct pixfit_in *in, int k);
/* What a frame at k is expected to cost in bytes (the flow plan's `want`
 * for the next frame, before it is drawn). */
double pixfit_bytes(const struct pixfit_in *in, int k);

#endif
