/*
 * compose.h — the picture of a frame: the scene's pixels, blitted into cells,
 * with the HUD, the hint, the demo's captions, the keyboard pointer, the
 * parameter panel and the help over them.
 *
 * The composer reads the app's state and the frame loop's statistics and writes
 * only the image and the cells it is given: drawing never changes what it shows.
 */
#ifndef SWIRL_COMPOSE_H
#define SWIRL_COMPOSE_H

#include "app.h"

#include <stdbool.h>
#include <stddef.h>

/* What the frame loop measured, for the HUD: the frame loop (frame.h) fills it
 * and the composer only reads it. */
struct frame_stats {
    double fps;          /* frames drawn per second, measured (0 until known) */
    long frames;         /* frames drawn */
    long skipped;        /* frames not drawn while the link was behind */
    size_t bytes;        /* bytes of all frames drawn */
    bool simulated;      /* on a simulated clock (recordings): the HUD shows no timings */
    /* The link, as the terminal loop measures it (all 0 without one). */
    bool fewer_colours;  /* drawn in 256 colours for the link's sake */
    int link_step;       /* the picture's level for the link (ladder.h's rung, 0: whole) */
    const char *link_word; /* that rung's name, for the help (NULL: whole) */
    bool link_start;     /* that rung is a large window's start, sharpening (ladder_start) */
    double link_rtt;     /* s: the base round trip (0: not known) */
    double link_rate;    /* bytes a second the link carries (0: not known) */
    bool link_limit;     /* ... at most: the link is the limit */
    struct cells_block block; /* the picture in blocks of cells (0 x 0: whole) */
    /* Pixels (pixframe.h): the protocol's name while a picture is drawn in
     * them (NULL: glyphs), the picture's size, and its scale of the most. */
    const char *pixels;
    int pixel_w, pixel_h, pixel_k, pixel_kmax;
    bool pixels_big;     /* glyphs: a picture would be larger than the terminal draws, */
    int pixel_max_w, pixel_max_h; /* which is this (pixframe_too_large) */
};

/* Is the picture drawn in blocks coarser than the glyphs' cells? */
static inline bool compose_blocky(const struct frame_stats *fs) { return cells_blocky(&fs->block); }

/* Is the picture coarser than it could be: a level of the link's (ladder.h),
 * or the CPU's detail (tune.h)? The status line says so in a word. */
static inline bool compose_coarse(const struct app *a, const struct frame_stats *fs)
{
    return fs->link_step > 0 || a->detail != TUNE_FULL;
}

/* The colours a frame is drawn in: the app's, or 256 where the link asks for fewer. */
static inline enum color_mode compose_mode(const struct app *a, const struct frame_stats *fs)
{
    return fs->fewer_colours && a->o.color > COLOR_256 ? COLOR_256 : a->o.color;
}


/* A frame's picture in its three parts, as compose_frame runs them (the frame
 * loop times each): the scene drawn into img (sized first to the canvas at the
 * glyphs' scale), img blitted into the cells, and what goes over them. Not for
 * a window too small (app_too_small): compose_frame says so instead. */
void compose_draw(const struct app *a, struct image *img);
void compose_blit(const struct app *a, const struct frame_stats *fs, const struct image *img,
                  struct cells *cells);
void compose_over(const struct app *a, const struct frame_stats *fs, struct cells *cells);

/* How many of the help's lines lie below the window when it is scrolled to
 * its top (0: it fits): the frame loop tells the app (app_help_shown). */
int compose_help_over(const struct app *a, const struct frame_stats *fs);

/* img is the canvas (app_canvas_w x app_canvas_h: resized to it when it is not,
 * as after the status line was hidden or shown), cells the screen (cols x rows). */
void compose_frame(const struct app *a, const struct frame_stats *fs, struct image *img,
                   struct cells *cells);

#endif
