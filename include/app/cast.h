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

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

/*
 * A recording on disk is written to a temporary file beside its path
 * (DIR/.NAME.XXXXXX) and put in place when it ends, so a crash or a kill never
 * leaves half a file where a good one was. Lines are written whole; when a write
 * fails (a full disk) the file is cut back to its last whole line and recording
 * stops, and so it does before a line would take it past its size limit: the
 * program goes on, and what was written is valid asciicast.
 *
 * Put in place means: renamed onto its path when it may replace what is there
 * (overwrite, or the very file that was there when it started, which
 * cast_check let through because of --overwrite), and the recording is whole;
 * otherwise linked there (link() fails if a file appeared at the path
 * meanwhile, atomically), and when the path is taken, linked beside it as
 * PATH.1, PATH.2, ... So a file created at the path during the session is never
 * clobbered without overwrite, and an old file is replaced only by a recording
 * written completely. The same placing runs from a signal handler
 * (cast_on_signal), so a recording ended by any catchable signal is kept too.
 */
struct cast_setup {
    int w, h;            /* the terminal's size at the start */
    const char *term;    /* $TERM for the header, or NULL */
    long timestamp;      /* 0: none (reproducible recordings) */
    const char *title;   /* or NULL */
    bool overwrite;      /* --overwrite: whatever is at the path may be replaced */
    long long limit;     /* bytes at most (0: no limit) */
};

enum cast_stop { CAST_RUNNING, CAST_LIMIT, CAST_FAILED };

struct cast {
    volatile sig_atomic_t fd; /* the temporary file; -1 once recording stopped */
    char *path, *tmp;    /* where it goes, and where it is written meanwhile */
    char *beside;        /* "PATH." and room for a number: where it goes when the
                          * path is taken */
    size_t nbeside;      /* where the number goes */
    char *epath, *etmp;  /* path and tmp escaped for messages (buf_put_escaped) */
    struct buf line;
    double last_t;
    atomic_llong good;   /* bytes of whole lines written (a signal handler reads it) */
    long long limit;
    bool overwrite;
    int held;            /* the file at the path when it started, held open so its
                          * identity (device, inode) cannot pass to another; -1: none */
    volatile sig_atomic_t stop; /* enum cast_stop */
    int err;             /* errno of the write that failed, 0 if none */
    double stopped_at;   /* the recording's time when it stopped */
};

/* What the HUD shows of a recording (cast_status). */
struct cast_status {
    bool on;             /* a recording was started */
    enum cast_stop stop;
    long long bytes, limit;
    int err;
};

/* Whether path may be recorded to, checked before anything else happens: a
 * regular file that does not exist yet (or one that does, with overwrite) in a
 * folder we can write to; not an empty name, nor one ending in '/'. Returns 0,
 * or -1 with the reason in why. */
int cast_check(const char *path, bool overwrite, char *why, size_t n);
/* Starts a recording for path (header written); returns 0 or -1 (errno set;
 * EFBIG: the header does not fit in the limit). */
int cast_open(struct cast *c, const char *path, const struct cast_setup *s);
void cast_output(struct cast *c, double t, const char *data, size_t n);
/* The last event: colours and cursor back, the cursor on a line under the
 * picture (a replay leaves its last frame above the shell's next prompt). */
void cast_finish(struct cast *c, double t);
void cast_resize(struct cast *c, double t, int w, int h);
static inline bool cast_running(const struct cast *c) { return c->fd >= 0; }
void cast_status(const struct cast *c, struct cast_status *s);
/* Ends it and puts it in place (see above). Returns 0 when the recording is
 * whole (or stopped at its limit) at its path or beside it (a file appeared
 * at the path meanwhile); -1 when it stopped on a write error or could not be
 * put anywhere but its temporary. Each case but the first is told in msg
 * (when not NULL): whole lines "swirl: ...\n", paths escaped, ready for
 * stderr; nothing when all went as asked. */
int cast_close(struct cast *c, struct buf *msg);
/* From a signal handler (async-signal-safe): the recording in progress, if
 * any, cut back to its whole lines and put in place as cast_close would; what
 * did not go as asked is told on stderr. */
void cast_on_signal(void);

/* "340K", "3.2M", "256M", "1.5G": bytes in binary units (1K = 1024), for the
 * HUD and messages. */
void cast_size_text(long long bytes, char *out, size_t n);
/* A size: a number with an optional K, M or G (binary: 1K = 1024), e.g.
 * "256M", "1.5G", "0" (0: no limit). Returns 0, or -1 for anything else. */
int cast_parse_size(const char *s, long long *bytes);

#endif
