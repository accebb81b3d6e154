/*
 * cast_internal.h — private to src/app/cast.c (and the tests): the JSON text of
 * a recording's header and of one event, written into a buf, which struct cast
 * writes to its file a line at a time (cast.h).
 */
#ifndef SWIRL_CAST_INTERNAL_H
#define SWIRL_CAST_INTERNAL_H

#include "buf.h"

#include <stddef.h>

/* Appends s[0..n) as a JSON string literal (quotes included). Control bytes,
 * '"' and '\\' are escaped; invalid UTF-8 becomes U+FFFD. */
void cast_json_string(struct buf *out, const char *s, size_t n);
/* timestamp 0 leaves it out (for recordings that must be reproducible). */
void cast_header(struct buf *out, int w, int h, const char *term, long timestamp,
                 const char *title);
void cast_event(struct buf *out, double t, char code, const char *data, size_t n);

#endif
