/*
 * kitty.h — an image as the kitty graphics protocol draws it: one frame's
 * bytes, placed over a rectangle of cells and scaled there by the terminal,
 * replacing the last frame in place.
 *
 * A frame is sent to one of two image ids in turn: transmitted and shown in
 * one command (a=T) at the cursor, over cols x rows cells (c=, r=: the
 * terminal scales a smaller image up), then the other id, the last frame,
 * deleted with its data (a=d,d=I). The terminal shows an image only once
 * all of it has come, and the new one lies over the old one until the old
 * one goes, so no moment shows neither: no flicker, on any terminal of the
 * protocol. (Frames of one id would not do: new data for an id deletes its
 * placements at once, and it shows again only when placed again. The
 * animation commands, a=f, are not in Ghostty.) At most two images are in
 * the terminal's memory.
 *
 * The pixels go as f=24 (RGB), zlib-compressed (o=z) when swirl is built
 * with zlib, or as f=100 (PNG, each row filtered by its left neighbour
 * before the deflate: a smooth picture takes a quarter to a third fewer
 * bytes), or PNG8: f=100 with a palette of the frame's own (quant.h's
 * median cut, 256 colours: sixel's palette), lossy but a half to a third of
 * PNG's bytes (see the bench); without zlib, f=24 uncompressed (PNG asked
 * for is RGB then). The
 * data is base64 in chunks of at most KITTY_CHUNK bytes, m=1 on every chunk
 * but the last (m=0), q=2 on each (no answers). The frame is placed with
 * C=1 (the cursor stays) and wrapped in DECSC / DECRC, so the cursor and the
 * SGR in force are as they were after it (a cell encoder's idea of them
 * holds); z is the placement's z-index: at KITTY_Z_UNDER (the default) the
 * picture lies under the text and under every cell with a background of its
 * own, so text and panels drawn as cells show over it, and it shows through
 * cells of the default background.
 */
#ifndef SWIRL_KITTY_H
#define SWIRL_KITTY_H

#include "buf.h"
#include "image.h"
#include "quant.h"

#include <stddef.h>

#define KITTY_CHUNK 4096 /* base64 bytes a chunk, at most (the protocol's limit) */
/* Under the cells with a background of their own (below INT32_MIN / 2). */
#define KITTY_Z_UNDER (-1073741825)
#define KITTY_ID 0x5377 /* the first of the two ids, by default ("Sw") */

/* The support query (a 1x1 RGB image, i=31, a=q: checked, never stored),
 * followed by DA1 as a sentinel: a terminal of the protocol answers
 * ESC _ G i=31;OK ESC \ before DA1's answer; one without answers DA1 alone. */
#define KITTY_QUERY "\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\\x1b[c"

enum kitty_format { KITTY_RGB, KITTY_PNG, KITTY_PNG8 };

struct kitty {
    unsigned id[2];        /* the two image ids, in turn */
    int turn;              /* the id the next frame goes to */
    bool shown;            /* the other id is on screen */
    enum kitty_format format;
    int level;             /* zlib's level, 1..9; 0: uncompressed f=24 */
    int z;                 /* the placement's z-index */
    size_t payload;        /* the last frame's image bytes, before base64 */
    unsigned char *raw, *packed; /* the pixels as sent, and deflated */
    size_t raw_cap, packed_cap;
    void *zs;              /* zlib's stream, kept from frame to frame */
    struct quant q;        /* KITTY_PNG8: the frame's palette */
    uint8_t *idx;          /* and its pixels' indices */
    size_t idx_cap;
    struct image sent;     /* the last frame sent (an unchanged frame sends nothing), */
    int sent_place[4];     /* and its col, row, cols, rows (cols 0: none) */
};

/* id: the first of the two image ids (KITTY_ID; the other is id + 1);
 * level: zlib's, 1 (fast) .. 9, or 0 for none. */
void kitty_init(struct kitty *k, unsigned id, enum kitty_format format, int level);
void kitty_free(struct kitty *k);
/* Built with zlib: frames can be compressed (and PNG). */
bool kitty_zlib(void);
/* Appends a frame of im at cell (col, row) (from 0) over cols x rows cells:
 * the cursor saved and moved there, im sent to the next id and shown, the
 * last frame deleted, the cursor restored. A frame the same as the last one
 * sent (its pixels and place) appends nothing, and returns false. */
bool kitty_frame(struct kitty *k, const struct image *im, int col, int row, int cols, int rows,
                 struct buf *out);
/* The next frame goes whatever it is (the screen was cleared: a resize,
 * Ctrl-L, back from Ctrl-Z). */
void kitty_invalidate(struct kitty *k);
/* im's bytes as a frame sends them (before base64) into *data (k's, until
 * its next use); their count: a PNG file (KITTY_PNG, KITTY_PNG8), else RGB,
 * deflated at a level above 0 (built without zlib: always RGB, as is). */
size_t kitty_payload(struct kitty *k, const struct image *im, const unsigned char **data);
/* Appends what deletes both ids and their data (on leaving, or when the
 * picture goes: glyphs instead, a resize). */
void kitty_clear(struct kitty *k, struct buf *out);

#endif
