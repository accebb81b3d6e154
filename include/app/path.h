/*
 * path.h — the way the pointer went between two simulation steps, and its pieces.
 *
 * Pointer reports arrive faster than steps run; a path keeps them (canvas pixels,
 * x,y pairs, oldest first) so that each step of a frame gets its share of the
 * stroke by arc length instead of a straight chord, and a fast curve stays a
 * curve. A full path merges its newest reports into the last point.
 */
#ifndef SWIRL_PATH_H
#define SWIRL_PATH_H

#define PATH_POINTS 64 /* reports kept between two steps */

struct path {
    float xy[2 * PATH_POINTS];
    int n;               /* points, at least 1 once started */
};

/* Starts the path afresh at (x,y). */
void path_start(struct path *p, float x, float y);
/* Adds (x,y) unless it is where the path already ends. */
void path_add(struct path *p, float x, float y);
float path_length(const struct path *p);
/* The piece between arc lengths s0 and s1 as points into out (room for
 * PATH_POINTS points); returns how many, at least 2. */
int path_piece(const struct path *p, float s0, float s1, float *out);

#endif
