/*
 * pixframe.h — a frame in the terminal's own pixels (docs/pixels.md): the
 * scene drawn at the scale pixfit chooses for the link, sent with the kitty
 * graphics protocol or sixel, and the cells (the status line, the help, the
 * panel, the captions) as text over it.
 *
 * The picture covers the canvas's cells. In kitty it lies under the text
 * (KITTY_Z_UNDER) and the canvas's cells are spaces of the default
 * background, through which it shows; each frame goes to one of two image
 * ids in turn and the last is deleted after it (kitty.h). In sixel the
 * pixels are the screen's own: the cells go first (a space written over the
 * picture erases it there, so a frame whose cells touched the picture's area
 * sends the picture again), then the picture, then the text over it once
 * more (the picture drew over it); the picture stops above the last row
 * (xterm scrolls the screen when a sixel image reaches it, DECSDM left
 * alone): its scale is what the rows above it hold. Each pixel of a sixel
 * picture drawn at a small k is repeated (sixel.h's scale), and the picture
 * stretched over its cells exactly, so it fills its area at any k.
 *
 * A frame is whole: the picture and the cells inside one synchronized
 * update. An unchanged picture sends nothing (a paused scene); what the
 * screen lost (a repaint, a resize) makes the next one go whatever it is.
 * When pixfit gives glyphs (k = 0: the link carries less than a picture a
 * second), the frame loop draws glyphs, and the picture is deleted.
 */
#ifndef SWIRL_PIXFRAME_H
#define SWIRL_PIXFRAME_H

#include "app.h"
#include "buf.h"
#include "compose.h"
#include "encode.h"
#include "kitty.h"
#include "pixfit.h"
#include "sixel.h"

/* A cell's pixels where the terminal did not say (DejaVu Sans Mono 10 is 8x17). */
#define PIXFRAME_CELL_W 8
#define PIXFRAME_CELL_H 16
/* A paused picture goes in pixels at the finest if it takes at most this many
 * seconds of the link, even where the moving one gave way to glyphs. */
#define PIXFRAME_STILL_S 1.0
/* Of a frame's time, what drawing and encoding a picture may take. */
#define PIXFRAME_MS_SHARE 0.5
/* The weight of a new frame in what frames are taken to cost. */
#define PIXFRAME_SMOOTH 0.3

struct pixframe {
    enum app_pixels proto;  /* APP_PIXELS_KITTY or _SIXEL; _OFF: glyphs only */
    int cell_w, cell_h;     /* a cell's pixels */
    struct kitty kt;
    struct sixel sx;
    struct pixfit fit;
    struct image img;       /* the scene at k */
    int k;                  /* the frame's scale (0: glyphs) */
    bool planned;           /* k was chosen for the frame being made (pixframe_plan) */
    bool shown;             /* the screen shows a picture of ours */
    bool still;             /* ... a paused one at the finest: nothing more to send */
    double budget;          /* bytes a frame may take (0: any) */
    double pad;             /* bytes of padding the frame adds (a probe of the link) */
    int measured_k;         /* what frames cost at this k (0: nothing yet): */
    double bytes, ms;       /* bytes a picture, and ms to draw and encode it, smoothed */
    size_t last_bytes;      /* the last frame's picture, in bytes */
    int area_rows;          /* the rows the picture covers */
    int max_w, max_h;       /* sixel: the largest picture the terminal draws (0: not told) */
    uint8_t *holes;         /* sixel: the area's cells of text, left undrawn (sixel.h) */
    size_t holes_cap;
};

void pixframe_init(struct pixframe *p);
/* Pixels from now on with proto (APP_PIXELS_OFF: none); colours: sixel's
 * registers (0: 256); max_w x max_h: the largest sixel picture the terminal
 * draws (XTSMGRAPHICS; 0: not told). */
void pixframe_start(struct pixframe *p, enum app_pixels proto, int colours, int max_w,
                    int max_h);
void pixframe_free(struct pixframe *p);
static inline bool pixframe_on(const struct pixframe *p) { return p->proto != APP_PIXELS_OFF; }
/* Is the window too large for the protocol's picture (a sixel picture that
 * fills it would be more pixels than the terminal draws: xterm's default is
 * 1000x1000, and it draws nothing of a larger one)? Then glyphs are drawn. */
bool pixframe_too_large(const struct pixframe *p, const struct app *a);
/* A cell is cw x ch of the terminal's pixels (0: not known). */
void pixframe_cell(struct pixframe *p, int cw, int ch);
/* The screen lost the picture (a resize, Ctrl-L, back from Ctrl-Z): the next
 * frame sends it whatever it is. */
void pixframe_invalidate(struct pixframe *p);
/* Before a frame behind a link: it carries avail bytes a second for frames
 * (0: no limit known), the frames are paced to `pace` while a probe of a
 * higher rate runs. Chooses k; returns it (0: glyphs). */
int pixframe_plan(struct pixframe *p, const struct app *a, double avail, double pace, double now);
/* Paused where the moving picture was glyphs: would one picture at the
 * finest go within PIXFRAME_STILL_S at the link's rate (then it is drawn)? */
bool pixframe_still_fits(const struct pixframe *p, const struct app *a);
/* Is the picture on screen coarser than the finest (a paused one is sent
 * again at the finest)? */
bool pixframe_coarse(const struct pixframe *p, const struct app *a);
/* The bytes a second the pictures would take at the next k up at the frame
 * rate asked for (what the link is probed for), 0 when not known. */
double pixframe_want(const struct pixframe *p, const struct app *a);
/* The frame's k when frame_plan did not choose it; the picture deleted into
 * out and the screen's cells forgotten when it gives way to glyphs. True:
 * this frame is pixels. */
bool pixframe_pick(struct pixframe *p, const struct app *a, struct encoder *enc, double now,
                   struct buf *out);
/* The scene drawn at k, the cells blanked (the composer's overlays go over
 * them next), and what the help says of the picture in fs. */
void pixframe_draw(struct pixframe *p, const struct app *a, struct frame_stats *fs,
                   struct cells *cells);
/* The picture and the cells, as one synchronized update, appended to out;
 * t0: when drawing began on `clock` (what a picture costs is measured).
 * Returns the bytes appended (0: nothing changed). */
size_t pixframe_encode(struct pixframe *p, const struct app *a, struct encoder *enc,
                       const struct cells *cells, double t0, double (*clock)(void),
                       struct buf *out);

#endif
