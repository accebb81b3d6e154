/*
 * fixtures.h — what several test files set up and compare the same way, in one
 * place (tests/fixtures.c): solver states built from the seed presets with a
 * few fields changed, runs of steps, and bit-for-bit comparisons of two runs.
 */
#ifndef SWIRL_FIXTURES_H
#define SWIRL_FIXTURES_H

#include "cloth.h"

#include <stdbool.h>

/* The seed preset's cloth at w x h with `fixed` pins. */
struct cloth_params fx_cloth_params(int w, int h, int fixed);
void fx_cloth_steps(struct cloth *c, int n);
/* Every position and velocity finite. */
bool fx_cloth_finite(const struct cloth *c);
/* How many particles differ between a and b in position or velocity (by
 * value: +0 == -0). */
int fx_cloth_differences(const struct cloth *a, const struct cloth *b);

#endif
