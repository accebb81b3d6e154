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

/*
 * A recording on disk is written to a temporary file beside its path and
 * renamed onto it when it ends, so a crash or a kill never leaves half a file
 * where a good one was. Lines are written whole; when a write fails (a full
 * disk) the file is cut back to its last whole line, recording stops, and the
 * program goes on: cast_close() then says so.
 */
struct cast {
    int fd;              /* the temporary file; -1 once recording stopped */
    char *path, *tmp;    /* where it goes, and where it is written meanwhile */
    struct buf line;
    double last_t;
    long long good;      /* bytes of whole lines written */
    int err;             /* errno of the write that failed, 0 if none */
    double stopped_at;   /* the recording's time when it did */
};

/* Whether path may be recorded to, checked before anything else happens: a
 * regular file that does not exist yet (or one that does, with overwrite) in a
 * folder we can write to; not an empty name, nor one ending in '/'. Returns 0,
 * or -1 with the reason in why. */
int cast_check(const char *path, bool overwrite, char *why, size_t n);
/* Starts a recording for path (header written); returns 0 or -1 (errno set). */
int cast_open(struct cast *c, const char *path, int w, int h, const char *term,
              long timestamp, const char *title);
void cast_output(struct cast *c, double t, const char *data, size_t n);
void cast_resize(struct cast *c, double t, int w, int h);
/* Ends it: the recording is renamed onto its path. Returns 0, or -1 when it
 * stopped early (c->err, c->stopped_at: what was written is kept, valid) or the
 * rename failed (errno). */
int cast_close(struct cast *c);

#endif
