/*
 * view.c — world-to-canvas mapping for the particle scenes (see view.h).
 */
#include "view.h"
#include "swirl.h"

#include <math.h>

#define ZOOM_STEP 1.15f

void view_fit(struct view *v, float x0, float y0, float x1, float y1, int w, int h,
              float margin)
{
    float ww = fmaxf(x1 - x0, 1e-6f), wh = fmaxf(y1 - y0, 1e-6f);
    float aw = fmaxf((float)w - 2.0f * margin, 1.0f), ah = fmaxf((float)h - 2.0f * margin, 1.0f);
    v->zoom = v->fit = fminf(aw / ww, ah / wh);
    v->ox = 0.5f * (float)w - 0.5f * (x0 + x1) * v->zoom;
    v->oy = 0.5f * (float)h + 0.5f * (y0 + y1) * v->zoom;
}

void view_zoom(struct view *v, float px, float py, int clicks)
{
    float wx = view_wx(v, px), wy = view_wy(v, py);
    float z = v->zoom * powf(ZOOM_STEP, (float)clampi(clicks, -20, 20));
    v->zoom = clampf(z, v->fit / VIEW_ZOOM_RANGE, v->fit * VIEW_ZOOM_RANGE);
    v->ox = px - wx * v->zoom;
    v->oy = py + wy * v->zoom;
}
