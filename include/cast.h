/*
 * cast.h — asciicast v2 recording (the format `asciinema play` replays).
 *
 * A header line {"version": 2, "width": W, "height": H, ...} then one JSON array
 * per event: [t, "o", "bytes"] for output, [t, "r", "WxH"] for a resize, t in
 * seconds from the start. The formatting functions write into a buf (so tests
 * read the exact text); struct cast appends them to a file.
 */
#ifndef SWIRL_CAST_H
#define SWIRL_CAST_H

#include "buf.h"

#include <stdbool.h>
#include <stdio.h>

/* Appends s[0..n) as a JSON string literal (quotes included). Control bytes,
 * '"' and '\\' are escaped; invalid UTF-8 becomes U+FFFD. */
void cast_json_string(struct buf *out, const char *s, size_t n);
/* timestamp 0 leaves it out (for recordings that must be reproducible). */
void cast_header(struct buf *out, int w, int h, const char *term, long timestamp,
                 const char *title);
void cast_event(struct buf *out, double t, char code, const char *data, size_t n);

struct cast {
    FILE *f;
    struct buf line;
    double last_t;
};

/* Opens path for writing and writes the header; returns 0 or -1 (errno set). */
int cast_open(struct cast *c, const char *path, int w, int h, const char *term,
              long timestamp, const char *title);
void cast_output(struct cast *c, double t, const char *data, size_t n);
void cast_resize(struct cast *c, double t, int w, int h);
/* Returns 0, or -1 when writing failed at any point. */
int cast_close(struct cast *c);

#endif
