/*
 * buf.c — growable byte buffer and checked allocation (see buf.h).
 *
 * The buffer doubles its capacity when it runs out, so appending is amortised
 * O(1); once a frame's size is reached it never allocates again.
 */
#include "buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void buf_printf(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n <= 0)
        return;
    buf_reserve(b, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}
