/*
 * shot_internal.h — private to src/app/shot.c (and the tests): the picture's
 * size and the saving itself, beneath shot_take.
 */
#ifndef SWIRL_SHOT_INTERNAL_H
#define SWIRL_SHOT_INTERNAL_H

#include "shot.h"

#include <stddef.h>

#define SHOT_MAX_PX (16 * 1024 * 1024) /* pixels a picture, at most (a smaller k to fit) */
#define SHOT_MAX_N 10000               /* swirl-SCENE-N: the numbers tried */
#define SHOT_K 8                       /* pixels a canvas pixel where the cells' are not known */
#define SHOT_ZLIB_LEVEL 6              /* the PNG's deflate level */
#define SHOT_WRITE_S 5.0               /* s a write may wait (a file never makes it wait) */

/* The size of the picture of a's canvas at k pixels a canvas pixel each way
 * (0: SHOT_K), or at the largest whole number of them within SHOT_MAX_PX
 * (the scene fills a picture a whole number of canvases across). */
void shot_size(const struct app *a, int k, int *w, int *h);
/* The scene shown by a (no status line, help or panel over it) drawn at
 * shot_size, written to swirl-SCENE-N.png (PNG, built with zlib) or .ppm
 * (binary PPM, without) in the current directory, N the first number not
 * taken: nothing is overwritten. Returns 0 with the name in path, or an errno
 * value. */
int shot_save(const struct app *a, int k, char *path, size_t cap);

#endif
