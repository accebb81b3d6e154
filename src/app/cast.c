/*
 * cast.c — asciicast v2 writer (see cast.h): the JSON lines, the recording
 * file written a line at a time, and putting it in place at its path, from
 * cast_close() or from a signal handler.
 */
#include "cast.h"
#include "cast_internal.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
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

/* A recording's last event: the terminal's colours and cursor back, and the
 * cursor under the picture on a line of its own, so a shell's prompt after a
 * replay comes below the last frame. A limited recording keeps room for it. */
#define TAIL_EVENT "\x1b[0m\x1b[?25h\x1b[999;1H\r\n"
#define TAIL_ROOM 64
#define BESIDE_MAX 999 /* PATH.1 .. PATH.999 */

static struct cast *volatile live; /* the recording a signal handler puts in place */

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

static char *escaped(const char *s)
{
    struct buf b;
    buf_init(&b);
    buf_put_escaped(&b, s, strlen(s));
    buf_putc(&b, 0);
    return b.p;
}

/* Stops the recording: the file ends at its last whole line. */
static void stop_at(struct cast *c, double t, enum cast_stop why, int err)
{
    if (ftruncate(c->fd, (off_t)atomic_load(&c->good)) != 0) { /* keep it valid asciicast */
    }
    int fd = c->fd;
    c->err = err;
    c->stopped_at = t;
    c->stop = why;
    c->fd = -1;
    close(fd);
}

/* Writes a whole line, or stops the recording where the last whole line ended.
 * The file is written with write(2) a whole line at a time, so a failure can be
 * cut back to the last whole line. */
static void put_line(struct cast *c, double t)
{
    if (c->fd < 0)
        return;
    if (!buf_write_fd(c->fd, c->line.p, c->line.len, 0.0)) {
        stop_at(c, t, CAST_FAILED, errno);
        return;
    }
    atomic_fetch_add(&c->good, (long long)c->line.len);
}

static void free_names(struct cast *c)
{
    free(c->path), free(c->tmp), free(c->beside), free(c->epath), free(c->etmp);
    c->path = c->tmp = c->beside = c->epath = c->etmp = NULL;
}

/* Everything that putting the recording in place needs (its names, escaped
 * ones for messages, the identity of the file that was at its path) is made
 * here, when it starts, so the placing itself (place()) is only stat, link,
 * rename and unlink on ready names: async-signal-safe, the same from
 * cast_close() and from a signal handler (cast_on_signal). */
int cast_open(struct cast *c, const char *path, const struct cast_setup *s)
{
    memset(c, 0, sizeof *c);
    c->fd = c->held = -1;
    c->overwrite = s->overwrite;
    c->limit = s->limit > 0 ? s->limit : 0;
    c->path = strdup(path);
    c->tmp = temp_beside(path);
    c->nbeside = strlen(path) + 1;
    c->beside = malloc(c->nbeside + 8);
    c->epath = escaped(path);
    int fd = -1;
    if (!c->path || !c->tmp || !c->beside || (fd = mkstemp(c->tmp)) < 0) {
        int e = c->path && c->tmp && c->beside ? errno : ENOMEM;
        free_names(c);
        errno = e;
        return -1;
    }
    c->etmp = escaped(c->tmp);
    snprintf(c->beside, c->nbeside + 8, "%s.", path);
    /* The file cast_check let through (--overwrite): it may be replaced. Held
     * open, its inode number cannot go to a file made there meanwhile. */
#ifdef O_PATH
    c->held = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
#else
    c->held = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
#endif
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0) { /* as a file created the usual way */
    }
    c->fd = fd;
    buf_init(&c->line);
    cast_header(&c->line, s->w, s->h, s->term, s->timestamp, s->title);
    int e = 0;
    if (c->limit && (long long)c->line.len + TAIL_ROOM > c->limit)
        e = EFBIG;
    else
        put_line(c, 0.0);
    if (e || c->fd < 0) { /* not even the header fits */
        e = e ? e : c->err;
        if (c->fd >= 0)
            close(c->fd);
        if (c->held >= 0)
            close(c->held);
        unlink(c->tmp);
        buf_free(&c->line);
        free_names(c);
        errno = e;
        return -1;
    }
    atomic_signal_fence(memory_order_seq_cst); /* all of it set before a handler sees it */
    live = c;
    return 0;
}

/* Times are written with microsecond precision and never go backwards (a clock
 * that steps back is clamped to the last time written), as players require. */
static void put_event(struct cast *c, double t, char code, const char *data, size_t n)
{
    if (c->fd < 0)
        return;
    if (t < c->last_t)
        t = c->last_t;
    c->last_t = t;
    buf_clear(&c->line);
    cast_event(&c->line, t, code, data, n);
    if (c->limit && atomic_load(&c->good) + (long long)c->line.len > c->limit - TAIL_ROOM) {
        buf_clear(&c->line); /* at the limit: the tail, and no more */
        cast_event(&c->line, t, 'o', TAIL_EVENT, sizeof TAIL_EVENT - 1);
        put_line(c, t);
        if (c->fd >= 0)
            stop_at(c, t, CAST_LIMIT, 0);
        return;
    }
    put_line(c, t);
}

void cast_finish(struct cast *c, double t) { put_event(c, t, 'o', TAIL_EVENT, sizeof TAIL_EVENT - 1); }

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

void cast_status(const struct cast *c, struct cast_status *s)
{
    s->on = true;
    s->stop = (enum cast_stop)c->stop;
    s->bytes = atomic_load(&c->good);
    s->limit = c->limit;
    s->err = c->err;
}

/* ---- putting it in place: async-signal-safe from here to cast_on_signal ---- */

enum where { AT_PATH, AT_BESIDE, AT_TMP };

/* Puts tmp at dst unless something is there (EEXIST): link() refuses a taken
 * name atomically. Where hard links cannot be had, a rename when nothing is
 * there (a small window). */
static int put_at(const char *tmp, const char *dst)
{
    if (link(tmp, dst) == 0) {
        unlink(tmp);
        return 0;
    }
    if (errno != EPERM && errno != EOPNOTSUPP && errno != ENOSYS && errno != EMLINK)
        return -1;
    struct stat st;
    if (lstat(dst, &st) == 0) {
        errno = EEXIST;
        return -1;
    }
    return errno == ENOENT ? rename(tmp, dst) : -1;
}

/* The file at the path is the one that was there at the start. */
static bool same_as_at_start(const struct cast *c)
{
    struct stat now, then;
    return c->held >= 0 && fstat(c->held, &then) == 0 && lstat(c->path, &now) == 0 &&
           now.st_dev == then.st_dev && now.st_ino == then.st_ino;
}

/* Writes k (1..999) after "PATH.". */
static void number_beside(struct cast *c, int k)
{
    char d[4];
    int n = 0;
    do
        d[n++] = (char)('0' + k % 10);
    while ((k /= 10) > 0);
    size_t at = c->nbeside;
    while (n > 0)
        c->beside[at++] = d[--n];
    c->beside[at] = 0;
}

static enum where place(struct cast *c)
{
    bool whole = c->stop != CAST_FAILED;
    if (whole && (c->overwrite || same_as_at_start(c)))
        return rename(c->tmp, c->path) == 0 ? AT_PATH : AT_TMP;
    if (put_at(c->tmp, c->path) == 0)
        return AT_PATH;
    for (int k = 1; k <= BESIDE_MAX && errno == EEXIST; k++) {
        number_beside(c, k);
        if (put_at(c->tmp, c->beside) == 0)
            return AT_BESIDE;
    }
    return AT_TMP;
}

static void say_raw(const char *s)
{
    ssize_t r = write(STDERR_FILENO, s, strlen(s));
    (void)r;
}

void cast_on_signal(void)
{
    struct cast *c = live;
    if (!c)
        return;
    live = NULL;
    int e = errno;
    if (c->fd >= 0 && ftruncate(c->fd, (off_t)atomic_load(&c->good)) != 0) {
    }
    enum where w = place(c);
    if (w == AT_PATH && c->stop == CAST_FAILED) {
        say_raw("swirl: the recording stopped early on a write error (");
        say_raw(c->epath);
        say_raw(" keeps what was written)\n");
    } else if (w == AT_BESIDE) {
        say_raw("swirl: ");
        say_raw(c->epath);
        say_raw(" is left as it was; the recording is ");
        say_raw(c->epath);
        say_raw(c->beside + c->nbeside - 1); /* ".N": the rest of its name */
        say_raw("\n");
    } else if (w == AT_TMP) {
        say_raw("swirl: the recording could not be put at ");
        say_raw(c->epath);
        say_raw("; it is in ");
        say_raw(c->etmp);
        say_raw("\n");
    }
    errno = e;
}

/* ---- the end ------------------------------------------------------------- */

/* One message line, "swirl: " and the text escaped. */
static void say(struct buf *msg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct buf *msg, const char *fmt, ...)
{
    if (!msg)
        return;
    va_list ap;
    va_start(ap, fmt);
    buf_vmessage(msg, fmt, ap);
    va_end(ap);
}

int cast_close(struct cast *c, struct buf *msg)
{
    if (live == c)
        live = NULL;
    if (c->fd >= 0) {
        int fd = c->fd;
        c->fd = -1;
        if (close(fd) != 0) /* a write the kernel took but could not finish (NFS) */
            c->stop = CAST_FAILED, c->err = errno, c->stopped_at = c->last_t;
    }
    enum where w = place(c);
    char e[256], size[32];
    snprintf(e, sizeof e, "%s", strerror(errno));
    const char *beside = c->beside;
    cast_size_text(c->limit, size, sizeof size);
    if (c->stop == CAST_FAILED) {
        const char *why = strerror(c->err);
        if (w == AT_PATH)
            say(msg, "the recording stopped at %.1f s: %s (%s keeps what was written)",
                c->stopped_at, why, c->path);
        else if (w == AT_BESIDE)
            say(msg, "the recording stopped at %.1f s: %s; %s is left as it was and %s keeps "
                "what was written", c->stopped_at, why, c->path, beside);
        else
            say(msg, "the recording stopped at %.1f s: %s; writing %s failed: %s (%s keeps "
                "what was written)", c->stopped_at, why, c->path, e, c->tmp);
    } else {
        if (c->stop == CAST_LIMIT)
            say(msg, "the recording stopped at %.1f s at its size limit, %s (%s keeps what was "
                "written)", c->stopped_at, size, w == AT_PATH ? c->path : w == AT_BESIDE
                                                    ? beside : c->tmp);
        if (w == AT_BESIDE)
            say(msg, "%s appeared meanwhile and is left as it was; the recording is %s", c->path,
                beside);
        else if (w == AT_TMP)
            say(msg, "writing %s failed: %s (the recording is in %s)", c->path, e, c->tmp);
    }
    /* Whole, under its name or a name beside it (the message says which):
     * done. Cut short by a write error, or left in the temporary file: not. */
    int rc = (w == AT_PATH || w == AT_BESIDE) && c->stop != CAST_FAILED ? 0 : -1;
    if (c->held >= 0)
        close(c->held);
    c->held = -1;
    buf_free(&c->line);
    free_names(c);
    return rc;
}

void cast_size_text(long long bytes, char *out, size_t n)
{
    double m = (double)bytes / 1048576.0;
    if (bytes < 1048576)
        snprintf(out, n, "%lldK", bytes / 1024);
    else if (m < 9.95)
        snprintf(out, n, "%.1fM", m);
    else if (m < 999.5)
        snprintf(out, n, "%.0fM", m);
    else
        snprintf(out, n, "%.1fG", m / 1024.0);
}

int cast_parse_size(const char *s, long long *bytes)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || !(v >= 0.0) || isspace((unsigned char)*s))
        return -1;
    double unit = 1.0;
    if (*end && strchr("kKmMgG", *end)) {
        unit = *end == 'k' || *end == 'K' ? 1024.0 : *end == 'm' || *end == 'M' ? 1048576.0
                                                                              : 1073741824.0;
        end++;
        if (*end == 'i' && end[1] == 'B')
            end += 2;
        else if (*end == 'B')
            end++;
    }
    if (*end || !(v * unit < 4e18))
        return -1;
    *bytes = (long long)(v * unit);
    return 0;
}
