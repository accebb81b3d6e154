/*
 * bench.h — the parts of swirl-bench (bench.c runs them in order).
 */
#ifndef SWIRL_BENCH_H
#define SWIRL_BENCH_H

#include "cells.h"
#include "frame.h"

/* ms per frame, step + draw + encode, of scene sc stirred by --auto at cols x
 * rows on `threads` solver threads, drawn in glyph set g (every step runs: no
 * frame budget here); after 15 frames, the mean of `frames`. */
double bench_frame_ms(int sc, int cols, int rows, int threads, int frames, enum glyph_set g);

/* The same after `warm` frames, each part of the frame apart: *mean gets the
 * mean ms of each (frame.h's frame_times, in ms); returns the mean ms of a
 * whole frame, or -1 when the scene cannot start. */
double bench_frame_parts(int sc, int cols, int rows, int threads, int warm, int frames,
                         enum glyph_set g, struct frame_times *mean);

/* Full-screen sizes (screens.c): each scene, size, glyph set and thread
 * count, the parts of a frame apart, against the targets. */
void bench_screens(void);
/* The water's table (screens.c): at each full-screen size its particles, a
 * step's ms and iterations, its whole frame in each glyph set on two threads
 * (bench_screens prints it after its own, from its frames). */
void bench_water(void);
/* How draw + fit grow from half-blocks to quadrants and sextants, against the
 * pixels drawn (screens.c). */
void bench_pictures(void);

/* Glyph sets: error against a supersampled reference, fit time, bytes. */
void bench_glyphs(void);

/* The terminal's own pixels (pixels.c): each protocol's bytes and encoding
 * ms a frame at 100x30 and 200x60, and pixels against glyphs byte for byte. */
void bench_pixels(void);

/* The link: swirl's frames behind a simulated link on virtual time (link.c). */
void bench_link(void);
/* Frames in pixels behind it: the frames seen a second and the scale (link.c,
 * for the pixels part). */
void bench_pixels_link(void);

#endif
