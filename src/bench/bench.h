/*
 * bench.h — the parts of swirl-bench (bench.c runs them in order).
 */
#ifndef SWIRL_BENCH_H
#define SWIRL_BENCH_H

/* Glyph sets: error against a supersampled reference, fit time, bytes. */
void bench_glyphs(void);

#endif
