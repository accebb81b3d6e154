/*
 * view.h — the map between a solver's world (metres, y up) and the canvas
 * (pixels, y down) used by the particle scenes: canvas = origin + zoom * (x, -y).
 */
#ifndef SWIRL_VIEW_H
#define SWIRL_VIEW_H

struct view {
    float ox, oy;    /* canvas position of the world origin */
    float zoom;      /* pixels per metre */
    float fit;       /* the zoom view_fit chose: the wheel stays within a
                      * factor VIEW_ZOOM_RANGE of it */
};

#define VIEW_ZOOM_RANGE 64.0f

/* Fits the world rectangle [x0,x1] x [y0,y1] into a w x h canvas with `margin`
 * pixels to spare on every side, centred. */
void view_fit(struct view *v, float x0, float y0, float x1, float y1, int w, int h,
              float margin);
static inline float view_px(const struct view *v, float x) { return v->ox + x * v->zoom; }
static inline float view_py(const struct view *v, float y) { return v->oy - y * v->zoom; }
static inline float view_wx(const struct view *v, float px) { return (px - v->ox) / v->zoom; }
static inline float view_wy(const struct view *v, float py) { return (v->oy - py) / v->zoom; }
/* The same view on a canvas k times as fine (k image pixels a canvas pixel). */
static inline struct view view_scaled(const struct view *v, float k)
{
    return (struct view){v->ox * k, v->oy * k, v->zoom * k, v->fit * k};
}
/* Zooms by 1.15^clicks keeping the world point under canvas (px,py) in place. */
void view_zoom(struct view *v, float px, float py, int clicks);

#endif
