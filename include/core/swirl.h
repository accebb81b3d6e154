/*
 * swirl.h — conventions shared by every module, written once:
 *  - Pipeline: terminal bytes -> input -> app -> scene (solver) -> image ->
 *    cells -> encoder -> bytes, one way. Only src/tty touches the terminal;
 *    solvers (src/sim) are pure C: no curses, no clock, no rand().
 *  - Canvas: cols x 2*(rows-1) pixels (the last row is the HUD); (0,0) top-left,
 *    x right, y down; cell (col,row) shows pixels (col,2*row) over (col,2*row+1).
 *  - Colours: rgb_t, 0xRRGGBB, 8 bits a channel, sRGB as sent to the terminal.
 *  - Storage: row-major; structure-of-arrays floats in the solvers.
 *  - Units: each solver's own (in its header); a scene maps them to canvas
 *    pixels. Time steps are fixed: a run is a function of its seed.
 *  - Ownership: _init/_free for storage the caller owns, _create/_destroy for
 *    heap objects. Nothing allocates inside a step.
 *  - Names: every public name carries its module prefix; the rest is static.
 */
#ifndef SWIRL_H
#define SWIRL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The version: the VERSION file's, passed by the Makefile (-DSWIRL_VERSION). */
#ifndef SWIRL_VERSION
#error "SWIRL_VERSION comes from the VERSION file through the Makefile"
#endif

typedef uint32_t rgb_t;

#define RGB(r, g, b) ((rgb_t)(((uint32_t)(r) << 16) | ((uint32_t)(g) << 8) | (uint32_t)(b)))
static inline int rgb_r(rgb_t c) { return (int)((c >> 16) & 255); }
static inline int rgb_g(rgb_t c) { return (int)((c >> 8) & 255); }
static inline int rgb_b(rgb_t c) { return (int)(c & 255); }

static inline int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
static inline float clampf(float v, float lo, float hi)
{
    /* NaN compares false both ways and comes out as lo. */
    return v >= lo ? (v <= hi ? v : hi) : lo;
}
static inline float lerpf(float a, float b, float t) { return a + (b - a) * t; }

/* Deterministic random numbers (splitmix64): every random choice takes a seed. */
struct rng {
    uint64_t s;
};
static inline uint32_t rng_next(struct rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}
/* Uniform in [0, 1). */
static inline float rng_float(struct rng *r) { return (float)(rng_next(r) >> 8) * (1.0f / 16777216.0f); }

#endif
