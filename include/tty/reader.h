/*
 * reader.h — the one reader of the terminal's bytes: every byte swirl takes
 * from the terminal, from the first answer at start-up (probe_io.c) through
 * the loop and the watcher of a frame (term.c, watch.c) to the last answer
 * swallowed on leaving, is read here and handed to the one parser (input.h).
 * Async-signal-safe (poll, read, the clock and the parser's plain
 * arithmetic), so a fatal signal's handler reads the same way.
 */
#ifndef SWIRL_READER_H
#define SWIRL_READER_H

#include "input.h"

#include <stddef.h>

#define READER_GONE (-1) /* the terminal is gone (end of file, or an error) */
#define READER_CHUNK 256 /* bytes read at a time, at most */

/* Waits up to `wait` s (0: not at all) for fd to have input, then reads at
 * most max bytes of it (and READER_CHUNK), so that every event they give fits
 * ev (a byte ends at most one event), and parses them with in. Returns the
 * events, or READER_GONE; *nread (if not NULL) is how many bytes were read. */
int reader_read(int fd, struct input *in, double wait, struct input_event *ev, int max,
                size_t *nread);

#endif
