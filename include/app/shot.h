/*
 * shot.h — the picture as a file (the P key): the scene drawn afresh as fine
 * as the terminal's pixels, saved beside where swirl was started.
 */
#ifndef SWIRL_SHOT_H
#define SWIRL_SHOT_H

#include "app.h"

/* The scene shown by a (no status line, help or panel over it) drawn at k
 * pixels a canvas pixel each way (k: a cell's width in the terminal's
 * pixels; 0: not known), saved as swirl-SCENE-N.png
 * (or .ppm, built without zlib) in the current directory, N the first
 * number not taken; and what became of it on the status line (app_note). */
void shot_take(struct app *a, int k);

#endif
