/*
 * buf.h — a growable byte buffer (kilo's abuf, notcurses' fbuf).
 *
 * The encoder and the recorder write into a buf, never to a file descriptor, so a
 * test can read the exact bytes; buf_write_fd puts bytes on one, whole.
 * Allocation failure is fatal (the process aborts, and the crash handler restores
 * the terminal): callers never check.
 */
#ifndef SWIRL_BUF_H
#define SWIRL_BUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

struct buf {
    char *p;
    size_t len, cap;
};

void buf_init(struct buf *b);
void buf_free(struct buf *b);
void buf_reserve(struct buf *b, size_t extra);
void buf_put(struct buf *b, const void *data, size_t n);
void buf_puts(struct buf *b, const char *s);
void buf_putc(struct buf *b, char c);
void buf_putu(struct buf *b, unsigned v); /* decimal */
void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vprintf(struct buf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* Appends s[0..n) with what a terminal could obey shown as \xNN instead: C0
 * controls, DEL, C1 controls and bytes that are not UTF-8. For text from
 * outside (a path, $TERM, an argument) put into a message: shown, never obeyed. */
void buf_put_escaped(struct buf *b, const char *s, size_t n);
/* "swirl: ", the message escaped as buf_put_escaped does, and a newline, on
 * stderr in one write. */
void buf_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same line appended to out instead. */
void buf_vmessage(struct buf *out, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
void buf_vwarn(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
static inline void buf_clear(struct buf *b) { b->len = 0; }

/* Writes p[0..n) to fd, whatever it takes: a write cut short or interrupted
 * goes on, and where fd is non-blocking and full, it waits for room for at most
 * `seconds` in all (0: not at all). True when all of it went; false when fd
 * failed (errno says why) or had no room in time (errno EAGAIN), with what did
 * go gone. Only write, poll and clock_gettime: async-signal-safe, for the
 * restore on the way out and in a signal handler. */
bool buf_write_fd(int fd, const void *p, size_t n, double seconds);
/* Seconds on CLOCK_MONOTONIC, the clock of those deadlines (async-signal-safe). */
double buf_now(void);

/* Checked allocation: aborts with a message when memory runs out. */
void *buf_xrealloc(void *p, size_t n);

#endif
