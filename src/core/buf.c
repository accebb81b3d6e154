/*
 * buf.c — growable byte buffer, checked allocation, messages, and the one loop
 * that writes bytes to a file descriptor (see buf.h).
 *
 * The buffer doubles its capacity when it runs out, so appending is amortised
 * O(1); once a frame's size is reached it never allocates again.
 */
#include "buf.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void *buf_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "swirl: out of memory (%zu bytes)\n", n);
        abort();
    }
    return q;
}

void buf_init(struct buf *b)
{
    b->p = NULL;
    b->len = b->cap = 0;
}

void buf_free(struct buf *b)
{
    free(b->p);
    buf_init(b);
}

void buf_reserve(struct buf *b, size_t extra)
{
    if (b->len + extra <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra)
        cap *= 2;
    b->p = buf_xrealloc(b->p, cap);
    b->cap = cap;
}

void buf_put(struct buf *b, const void *data, size_t n)
{
    if (n == 0) /* nothing: and an empty buffer has no storage to copy into */
        return;
    buf_reserve(b, n);
    memcpy(b->p + b->len, data, n);
    b->len += n;
}

void buf_puts(struct buf *b, const char *s) { buf_put(b, s, strlen(s)); }

void buf_putc(struct buf *b, char c)
{
    buf_reserve(b, 1);
    b->p[b->len++] = c;
}

void buf_putu(struct buf *b, unsigned v)
{
    char tmp[12];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    buf_reserve(b, (size_t)n);
    while (n)
        b->p[b->len++] = tmp[--n];
}

void buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (n <= 0)
        return;
    buf_reserve(b, (size_t)n + 1);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(b, fmt, ap);
    va_end(ap);
}

double buf_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A write that takes nothing (EAGAIN, or 0 bytes) waits in poll() for room
 * until the deadline, a second at a time; an interrupted one is made again. */
bool buf_write_fd(int fd, const void *p, size_t n, double seconds)
{
    const char *c = p;
    double end = buf_now() + seconds;
    while (n > 0) {
        ssize_t w = write(fd, c, n);
        if (w > 0) {
            c += w;
            n -= (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && errno != EAGAIN)
            return false;
        double left = end - buf_now();
        if (left <= 0.0) {
            errno = EAGAIN;
            return false;
        }
        struct pollfd pf = {fd, POLLOUT, 0};
        if (poll(&pf, 1, left >= 1.0 ? 1000 : (int)(left * 1000.0) + 1) < 0 && errno != EINTR)
            return false;
    }
    return true;
}

/* Bytes of the UTF-8 sequence at u[0..n) (1 for ASCII), 0 if it is not one. */
static size_t utf8_seq(const unsigned char *u, size_t n)
{
    size_t len = u[0] < 0x80 ? 1 : u[0] >= 0xC2 && u[0] < 0xE0 ? 2 : u[0] >= 0xE0 && u[0] < 0xF0 ? 3
               : u[0] >= 0xF0 && u[0] < 0xF5 ? 4 : 0;
    if (len > n)
        return 0;
    for (size_t k = 1; k < len; k++)
        if ((u[k] & 0xC0) != 0x80)
            return 0;
    /* Overlong forms, surrogates and code points past U+10FFFF are not UTF-8. */
    if ((u[0] == 0xE0 && u[1] < 0xA0) || (u[0] == 0xED && u[1] >= 0xA0) ||
        (u[0] == 0xF0 && u[1] < 0x90) || (u[0] == 0xF4 && u[1] >= 0x90))
        return 0;
    return len;
}

void buf_put_escaped(struct buf *b, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t len = utf8_seq(u + i, n - i);
        bool c1 = len == 2 && u[i] == 0xC2 && u[i + 1] < 0xA0;
        if (len == 0 || c1 || u[i] < 0x20 || u[i] == 0x7F) {
            char e[4] = {'\\', 'x', hex[u[i] >> 4], hex[u[i] & 15]};
            buf_put(b, e, 4);
            i++;
        } else {
            buf_put(b, u + i, len);
            i += len;
        }
    }
}

void buf_vmessage(struct buf *out, const char *fmt, va_list ap)
{
    struct buf text;
    buf_init(&text);
    buf_vprintf(&text, fmt, ap);
    buf_puts(out, "swirl: ");
    buf_put_escaped(out, text.p ? text.p : "", text.len);
    buf_putc(out, '\n');
    buf_free(&text);
}

void buf_vwarn(const char *fmt, va_list ap)
{
    struct buf out;
    buf_init(&out);
    buf_vmessage(&out, fmt, ap);
    fflush(stderr);
    buf_write_fd(STDERR_FILENO, out.p, out.len, 0.0);
    buf_free(&out);
}

void buf_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf_vwarn(fmt, ap);
    va_end(ap);
}
