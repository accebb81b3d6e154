/*
 * pixdecode.h — what the tests read pixel frames back with: the kitty
 * graphics protocol's commands (their keys and their base64 payloads), the
 * payload's pixels (zlib through the library, PNG's chunks and row filters),
 * and a small sixel decoder. Written from the protocols' descriptions, not
 * from the encoders: a test compares what these read with the image drawn.
 */
#ifndef SWIRL_PIXDECODE_H
#define SWIRL_PIXDECODE_H

#include "image.h"

#include <stdbool.h>
#include <stddef.h>

/* One APC graphics command, ESC _ G keys ; payload ESC \ . */
#define PX_KEYS 24
struct px_cmd {
    int nkeys;
    char key[PX_KEYS][4];      /* the keys' names */
    char val[PX_KEYS][24];     /* and values, as written */
    const char *payload;       /* the payload (in the input: not a copy) */
    size_t payload_len;
};

/* The value of key k in c (NULL: not there). */
const char *px_key(const struct px_cmd *c, const char *k);
/* The command at s (which must begin ESC _ G); 0 where it is not one or
 * not ended, else the bytes it took. */
size_t px_parse_cmd(const char *s, size_t n, struct px_cmd *c);
/* base64 of in[0..n) (padding allowed only at the end) appended to *out
 * (malloc'd, *len bytes); false on a byte outside the alphabet or a length
 * not a multiple of 4. */
bool px_base64(const char *in, size_t n, unsigned char **out, size_t *len);
/* zlib's stream in[0..n) inflated into out (cap bytes); its length, or -1. */
long px_inflate(const unsigned char *in, size_t n, unsigned char *out, size_t cap);
/* A PNG file (8-bit RGB or indexed, not interlaced) into im (resized);
 * false, with a reason in *why, where it is not one or its CRCs, filters or
 * indices are wrong. */
bool px_png(const unsigned char *p, size_t n, struct image *im, const char **why);

/* The distance of two colours in 8-bit RGB. */
double px_distance(rgb_t a, rgb_t b);
/* The mean distance of b's 4 x 4 blocks' mean colours from a's (what the eye
 * takes in of an ordered pattern); b at least a's size. */
double px_block_error(const struct image *a, const struct image *b);
/* The distinct colours of im, up to max of them, into c; their count (max + 1
 * when there are more). */
int px_colours(const struct image *im, rgb_t *c, int max);
/* The most any pixel of b is further from a's than the colour of b nearest
 * to it (b's colours: its palette, at most 256): 0 where each pixel took
 * its nearest. */
double px_beyond_nearest(const struct image *a, const struct image *b);

/* A sixel image as a terminal draws it with P2 = 1: pixels not drawn keep
 * PX_UNDRAWN. The decoder takes the DCS string at s (ESC P ... q ... ESC \)
 * and reports its parameters. */
#define PX_UNDRAWN 0xff000000u
struct px_sixel {
    int p2;                    /* the DCS's second parameter */
    int raster_w, raster_h;    /* from the raster attributes (" Pan;Pad;Ph;Pv) */
    int pan, pad;
    int colours;               /* registers defined */
    int w, h;                  /* the extent drawn */
    int end_y;                 /* the top row of the band the string ended in */
    size_t len;                /* bytes of the DCS string, ST included */
    const char *why;           /* what was wrong (NULL: nothing) */
};
/* Decodes into im (sized to the raster attributes, every pixel PX_UNDRAWN
 * to begin with; grown if drawing goes beyond). */
bool px_sixel_decode(const char *s, size_t n, struct image *im, struct px_sixel *info);

#endif
