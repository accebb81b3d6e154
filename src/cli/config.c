/*
 * config.c — where the config file is and its bytes (see config.h). The file
 * is opened without blocking (O_NONBLOCK: a FIFO's open returns at once, with
 * or without a writer; a tty's does not become ours, O_NOCTTY) and judged on
 * what was opened (fstat), so what is read is a regular file, whatever the
 * path pointed at when it was looked at.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool config_path(const char *xdg, const char *home, char *path, size_t np, char *shown,
                 size_t ns)
{
    int len;
    if (xdg && xdg[0] == '/')
        len = snprintf(path, np, "%s/swirl/config", xdg);
    else if (home && home[0] == '/')
        len = snprintf(path, np, "%s/.config/swirl/config", home);
    else
        return false;
    if (len < 0 || (size_t)len >= np)
        return false; /* no such path */
    size_t hl = home ? strlen(home) : 0;
    while (hl > 1 && home[hl - 1] == '/')
        hl--;
    if (hl > 1 && strncmp(path, home, hl) == 0 && path[hl] == '/')
        snprintf(shown, ns, "~%s", path + hl);
    else
        snprintf(shown, ns, "%s", path);
    return true;
}

/* One line of error: the file's name and the reason. */
static int refuse(char *err, size_t n, const char *shown, const char *why)
{
    snprintf(err, n, "%.600s: %s", shown, why);
    return -1;
}

/* Reads what fd holds into text[0..cap) and one byte more to see whether
 * there is more; 0, or an errno. */
static int read_all(int fd, char *text, size_t cap, size_t *len, bool *more)
{
    size_t got = 0;
    char extra;
    *more = false;
    for (;;) {
        ssize_t r = got < cap ? read(fd, text + got, cap - got) : read(fd, &extra, 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return errno;
        if (r == 0)
            break;
        if (got == cap) {
            *more = true;
            break;
        }
        got += (size_t)r;
    }
    *len = got;
    return 0;
}

int config_read(const char *path, const char *shown, char *text, size_t cap, size_t *len,
                char *err, size_t n)
{
    struct stat st;
    *len = 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0 && (errno == ENOENT || errno == ENOTDIR))
        return 1;
    if (fd < 0)
        return refuse(err, n, shown, strerror(errno));
    int e = fstat(fd, &st) != 0 ? errno : !S_ISREG(st.st_mode) ? -1 : 0;
    bool more = false;
    if (e == 0)
        e = read_all(fd, text, cap, len, &more);
    close(fd);
    if (e == -1)
        return refuse(err, n, shown, "not a regular file");
    if (e != 0)
        return refuse(err, n, shown, strerror(e));
    if (more) {
        char why[64];
        snprintf(why, sizeof why, "longer than %zu bytes", cap);
        return refuse(err, n, shown, why);
    }
    return 0;
}
