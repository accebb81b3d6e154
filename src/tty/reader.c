/*
 * reader.c — the one reader of the terminal's bytes (see reader.h): poll()
 * against a deadline, one read(), the parser.
 */
#include "reader.h"
#include "buf.h"

#include <errno.h>
#include <poll.h>
#include <unistd.h>

int reader_read(int fd, struct input *in, double wait, struct input_event *ev, int max,
                size_t *nread)
{
    if (nread)
        *nread = 0;
    if (max <= 0)
        return 0;
    double end = buf_now() + (wait > 0.0 ? wait : 0.0);
    for (;;) {
        struct pollfd pf = {fd, POLLIN, 0};
        double left = end - buf_now();
        int r = poll(&pf, 1, left > 0.0 ? (int)(left * 1000.0) + 1 : 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 || (pf.revents & POLLNVAL))
            return READER_GONE;
        if (r == 0)
            return 0;
        if (!(pf.revents & POLLIN))
            return READER_GONE; /* POLLHUP or POLLERR alone: nothing more will come */
        break;
    }
    unsigned char b[READER_CHUNK];
    size_t want = (size_t)max < sizeof b ? (size_t)max : sizeof b;
    ssize_t n;
    while ((n = read(fd, b, want)) < 0 && errno == EINTR)
        ;
    if (n < 0 && errno == EAGAIN)
        return 0;
    if (n <= 0)
        return READER_GONE;
    if (nread)
        *nread = (size_t)n;
    return input_feed(in, b, (size_t)n, ev, max);
}
