/*
 * path.c — the pointer's path between steps, cut into pieces by arc length (see
 * path.h). Coordinates are canvas pixels; nothing here knows about cells.
 */
#include "path.h"

#include <math.h>

void path_start(struct path *p, float x, float y)
{
    p->xy[0] = x, p->xy[1] = y;
    p->n = 1;
}

void path_add(struct path *p, float x, float y)
{
    int n = p->n;
    if (n == 0) {
        path_start(p, x, y);
        return;
    }
    if (p->xy[2 * n - 2] == x && p->xy[2 * n - 1] == y)
        return;
    if (n == PATH_POINTS) /* full: the newest report replaces the last */
        n--;
    p->xy[2 * n] = x, p->xy[2 * n + 1] = y;
    p->n = n + 1;
}

static float seg_len(const float *xy, int i)
{
    return hypotf(xy[2 * i + 2] - xy[2 * i], xy[2 * i + 3] - xy[2 * i + 1]);
}

float path_length(const struct path *p)
{
    float total = 0.0f;
    for (int i = 0; i + 1 < p->n; i++)
        total += seg_len(p->xy, i);
    return total;
}

/* The point at arc length s, and the index of the segment it is on. */
static void point_at(const struct path *p, float s, float *x, float *y, int *seg)
{
    const float *xy = p->xy;
    for (int i = 0; i + 1 < p->n; i++) {
        float dx = xy[2 * i + 2] - xy[2 * i], dy = xy[2 * i + 3] - xy[2 * i + 1];
        float len = sqrtf(dx * dx + dy * dy);
        if (s <= len || i + 2 == p->n) {
            float t = len > 0.0f ? s / len : 1.0f;
            t = t >= 0.0f ? (t <= 1.0f ? t : 1.0f) : 0.0f; /* NaN: 0 */
            *x = xy[2 * i] + dx * t, *y = xy[2 * i + 1] + dy * t;
            *seg = i;
            return;
        }
        s -= len;
    }
    *x = xy[0], *y = xy[1];
    *seg = 0;
}

int path_piece(const struct path *p, float s0, float s1, float *out)
{
    int seg0, seg1, m = 1;
    float ex, ey;
    point_at(p, s0, &out[0], &out[1], &seg0);
    point_at(p, s1, &ex, &ey, &seg1);
    for (int i = seg0 + 1; i <= seg1 && m < PATH_POINTS - 1; i++) {
        out[2 * m] = p->xy[2 * i], out[2 * m + 1] = p->xy[2 * i + 1];
        m++;
    }
    out[2 * m] = ex, out[2 * m + 1] = ey;
    return m + 1;
}
