/*
 * cast.c — asciicast v2 writer (see cast.h).
 *
 * Times are written with microsecond precision and never go backwards (a clock
 * that steps back is clamped to the last time written), as players require. The
 * file is written with write(2) a whole line at a time, so a failure can be cut
 * back to the last whole line.
 */
#include "cast.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int cast_check(const char *path, bool overwrite, char *why, size_t n)
{
    if (path[0] == 0)
        return snprintf(why, n, "the file name is empty"), -1;
    struct stat st;
    bool found = stat(path, &st) == 0;
    int stat_err = errno;
    if (found && S_ISDIR(st.st_mode))
        return snprintf(why, n, "%s is a directory", path), -1;
    if (path[strlen(path) - 1] == '/') /* a folder's name, whether or not there is one */
        return snprintf(why, n, "%s ends in '/': that names a folder, not a file", path), -1;
    if (found) {
        if (!S_ISREG(st.st_mode))
            return snprintf(why, n, "%s is not a regular file (a FIFO or a device?)", path), -1;
        if (!overwrite)
            return snprintf(why, n, "%s exists (--overwrite replaces it)", path), -1;
    } else if (stat_err != ENOENT) {
        return snprintf(why, n, "cannot write %s: %s", path, strerror(stat_err)), -1;
    }
    char *dir = strdup(path);
    if (!dir)
        return snprintf(why, n, "out of memory"), -1;
    const char *d = dirname(dir);
    int ok = access(d, W_OK | X_OK);
    int e = errno;
    if (ok != 0)
        snprintf(why, n, "cannot write in %s: %s", d, strerror(e));
    free(dir);
    return ok == 0 ? 0 : -1;
}

/* A temporary name beside path: DIR/.NAME.XXXXXX (malloc'd). */
static char *temp_beside(const char *path)
{
    char *a = strdup(path), *b = strdup(path);
    char *t = NULL;
    if (a && b) {
        size_t n = strlen(path) + 16;
        t = malloc(n);
        if (t)
            snprintf(t, n, "%s/.%s.XXXXXX", dirname(a), basename(b));
    }
    free(a);
    free(b);
    return t;
}

/* Writes a whole line, or stops the recording where the last whole line ended. */
static void put_line(struct cast *c, double t)
{
    if (c->fd < 0)
        return;
    size_t off = 0;
    while (off < c->line.len) {
        ssize_t w = write(c->fd, c->line.p + off, c->line.len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            c->err = w < 0 ? errno : ENOSPC;
            c->stopped_at = t;
            if (ftruncate(c->fd, (off_t)c->good) != 0) { /* keep it valid asciicast */
            }
            close(c->fd);
            c->fd = -1;
            return;
        }
        off += (size_t)w;
    }
    c->good += (long long)c->line.len;
}

int cast_open(struct cast *c, const char *path, int w, int h, const char *term,
              long timestamp, const char *title)
{
    memset(c, 0, sizeof *c);
    c->fd = -1;
    c->path = strdup(path);
    c->tmp = temp_beside(path);
    if (!c->path || !c->tmp || (c->fd = mkstemp(c->tmp)) < 0) {
        int e = c->path && c->tmp ? errno : ENOMEM;
        free(c->path), free(c->tmp);
        errno = e;
        return -1;
    }
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(c->fd, 0666 & ~mask) != 0) { /* as a file created the usual way */
    }
    buf_init(&c->line);
    cast_header(&c->line, w, h, term, timestamp, title);
    put_line(c, 0.0);
    if (c->fd < 0) { /* not even the header fits */
        int e = c->err;
        unlink(c->tmp);
        buf_free(&c->line);
        free(c->path), free(c->tmp);
        errno = e;
        return -1;
    }
    return 0;
}

static void put_event(struct cast *c, double t, char code, const char *data, size_t n)
{
    if (c->fd < 0)
        return;
    if (t < c->last_t)
        t = c->last_t;
    c->last_t = t;
    buf_clear(&c->line);
    cast_event(&c->line, t, code, data, n);
    put_line(c, t);
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
    int rc = c->err ? -1 : 0;
    if (c->fd >= 0 && close(c->fd) != 0)
        rc = -1, c->err = errno;
    c->fd = -1;
    int e = 0;
    if (rename(c->tmp, c->path) != 0) {
        e = errno;
        unlink(c->tmp);
        rc = -1;
    }
    buf_free(&c->line);
    free(c->path), free(c->tmp);
    c->path = c->tmp = NULL;
    errno = e;
    return rc;
}
