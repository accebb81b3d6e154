/*
 * bench.h — the parts of swirl-bench (bench.c runs them in order).
 */
#ifndef SWIRL_BENCH_H
#define SWIRL_BENCH_H

#include "cells.h"

/* ms per frame, step + draw + encode, of scene sc stirred by --auto at cols x
 * rows on `threads` solver threads, drawn in glyph set g (every step runs: no
 * frame budget here); after 15 frames, the mean of `frames`. */
double bench_frame_ms(int sc, int cols, int rows, int threads, int frames, enum glyph_set g);

/* Glyph sets: error against a supersampled reference, fit time, bytes. */
void bench_glyphs(void);

/* The link: swirl's frames behind a simulated link on virtual time (link.c). */
void bench_link(void);

#endif
