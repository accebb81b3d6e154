/*
 * cast.c — asciicast v2 writer (see cast.h).
 *
 * Times are written with microsecond precision and never go backwards (a clock
 * that steps back is clamped to the last time written), as players require.
 */
#include "cast.h"

#include <errno.h>
#include <string.h>

static size_t utf8_len(const unsigned char *s, size_t n)
{
    size_t len = s[0] >= 0xF0 && s[0] < 0xF8 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC2 ? 2 : 0;
    if (len == 0 || len > n)
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    return len;
}

void cast_json_string(struct buf *out, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *u = (const unsigned char *)s;
    buf_reserve(out, n + 2);
    buf_putc(out, '"');
    for (size_t i = 0; i < n;) {
        unsigned char c = u[i];
        if (c == '"' || c == '\\') {
            buf_putc(out, '\\');
            buf_putc(out, (char)c);
            i++;
        } else if (c < 0x20 || c == 0x7F) {
            char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            buf_put(out, e, 6);
            i++;
        } else if (c < 0x80) {
            buf_putc(out, (char)c);
            i++;
        } else {
            size_t len = utf8_len(u + i, n - i);
            if (len) {
                buf_put(out, u + i, len);
                i += len;
            } else {
                buf_puts(out, "\\ufffd");
                i++;
            }
        }
    }
    buf_putc(out, '"');
}

void cast_header(struct buf *out, int w, int h, const char *term, long timestamp,
                 const char *title)
{
    buf_printf(out, "{\"version\": 2, \"width\": %d, \"height\": %d", w, h);
    if (timestamp > 0)
        buf_printf(out, ", \"timestamp\": %ld", timestamp);
    if (title) {
        buf_puts(out, ", \"title\": ");
        cast_json_string(out, title, strlen(title));
    }
    if (term) {
        buf_puts(out, ", \"env\": {\"TERM\": ");
        cast_json_string(out, term, strlen(term));
        buf_putc(out, '}');
    }
    buf_puts(out, "}\n");
}

void cast_event(struct buf *out, double t, char code, const char *data, size_t n)
{
    buf_printf(out, "[%.6f, \"%c\", ", t < 0 ? 0.0 : t, code);
    cast_json_string(out, data, n);
    buf_puts(out, "]\n");
}

int cast_open(struct cast *c, const char *path, int w, int h, const char *term,
              long timestamp, const char *title)
{
    memset(c, 0, sizeof *c);
    c->f = fopen(path, "w");
    if (!c->f)
        return -1;
    buf_init(&c->line);
    cast_header(&c->line, w, h, term, timestamp, title);
    if (fwrite(c->line.p, 1, c->line.len, c->f) != c->line.len) {
        int e = errno;
        fclose(c->f);
        c->f = NULL;
        buf_free(&c->line);
        errno = e;
        return -1;
    }
    return 0;
}

static void put_event(struct cast *c, double t, char code, const char *data, size_t n)
{
    if (!c->f)
        return;
    if (t < c->last_t)
        t = c->last_t;
    c->last_t = t;
    buf_clear(&c->line);
    cast_event(&c->line, t, code, data, n);
    fwrite(c->line.p, 1, c->line.len, c->f);
}

void cast_output(struct cast *c, double t, const char *data, size_t n)
{
    if (n)
        put_event(c, t, 'o', data, n);
}

void cast_resize(struct cast *c, double t, int w, int h)
{
    char sz[32];
    int n = snprintf(sz, sizeof sz, "%dx%d", w, h);
    put_event(c, t, 'r', sz, (size_t)n);
}

int cast_close(struct cast *c)
{
    int rc = 0;
    if (c->f) {
        if (ferror(c->f))
            rc = -1;
        if (fclose(c->f) != 0)
            rc = -1;
        c->f = NULL;
    }
    buf_free(&c->line);
    return rc;
}
