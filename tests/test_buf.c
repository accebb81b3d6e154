/*
 * test_buf.c — buf_write_fd, the one loop that writes bytes out whole: on a
 * non-blocking pipe that fills (writes cut short, EAGAIN) it gets everything
 * to a slow reader, or stops at its deadline; it stops at once on an error, and
 * goes on after a write a signal interrupted.
 */
#include "buf.h"
#include "fixtures.h"
#include "test.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#define BIG (256 * 1024) /* bytes: a few times what a pipe holds */

/* What is written (bytes no shift or repeat of a piece of them matches) and
 * what is read back, one more than that so that too much shows. */
static unsigned char data[BIG], got[BIG + 1];

static void pattern(void)
{
    for (size_t i = 0; i < BIG; i++)
        data[i] = (unsigned char)(i * 7 + i / 251);
}

static void nonblocking(int fd, bool on)
{
    int fl = fcntl(fd, F_GETFL);
    CHECK(fl >= 0 && fcntl(fd, F_SETFL, on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK) == 0);
}

/* Reads the pipe into got until end of file, a little at a time after a
 * pause. */
struct reader {
    int fd;
    double pause, chunk_nap;
    size_t n;
    pthread_t th;
};

static void *read_slowly(void *arg)
{
    struct reader *r = arg;
    fx_nap(r->pause);
    while (r->n < sizeof got) {
        size_t want = sizeof got - r->n < 4096 ? sizeof got - r->n : 4096;
        ssize_t k = read(r->fd, got + r->n, want);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        r->n += (size_t)k;
        fx_nap(r->chunk_nap);
    }
    return NULL;
}

static bool reader_start(struct reader *r, int fd, double pause, double chunk_nap)
{
    *r = (struct reader){.fd = fd, .pause = pause, .chunk_nap = chunk_nap};
    bool ok = pthread_create(&r->th, NULL, read_slowly, r) == 0;
    CHECK(ok);
    return ok;
}

/* A reader slower than the writer: every write after the first is cut short
 * or finds the pipe full, and all of it arrives, in order. */
TEST_THREADS(buf_write_fd_gets_everything_to_a_slow_reader)
{
    int fd[2];
    CHECK(pipe(fd) == 0);
    nonblocking(fd[1], true);
    pattern();
    struct reader r;
    if (!reader_start(&r, fd[0], 0.05, 0.001))
        return;
    CHECK(buf_write_fd(fd[1], data, BIG, 30.0));
    close(fd[1]);
    pthread_join(r.th, NULL);
    CHECK_INT(r.n, BIG);
    CHECK(r.n == BIG && memcmp(got, data, BIG) == 0);
    close(fd[0]);
}

/* Nobody reads: what the pipe holds goes, in order, and the rest waits no
 * longer than the deadline (and no shorter); with no time at all it is back
 * at once. */
TEST(buf_write_fd_stops_at_the_deadline_on_a_full_pipe)
{
    int fd[2];
    CHECK(pipe(fd) == 0);
    nonblocking(fd[1], true);
    nonblocking(fd[0], true);
    pattern();
    double t0 = buf_now();
    errno = 0;
    CHECK(!buf_write_fd(fd[1], data, BIG, 0.1));
    CHECK_INT(errno, EAGAIN);
    double took = buf_now() - t0;
    CHECK_MSG(took >= 0.1, "gave up after %.3f s", took);
    CHECK_MSG(took < 5.0, "went on %.3f s", took);
    size_t n = 0;
    ssize_t k;
    while ((k = read(fd[0], got + n, sizeof got - n)) > 0)
        n += (size_t)k;
    CHECK_MSG(n > 0 && n < BIG, "%zu bytes in the pipe", n);
    CHECK(memcmp(got, data, n) == 0);
    /* Full again: nothing more, at once. */
    while (write(fd[1], data, 1) == 1)
        continue;
    CHECK(!buf_write_fd(fd[1], data, 1, 0.0));
    CHECK_INT(errno, EAGAIN);
    CHECK(buf_write_fd(fd[1], data, 0, 0.0)); /* nothing to write: done */
    close(fd[0]);
    close(fd[1]);
}

/* A pipe nobody will ever read (EPIPE): false at once, whatever the deadline. */
TEST(buf_write_fd_stops_at_once_on_an_error)
{
    int fd[2];
    CHECK(pipe(fd) == 0);
    close(fd[0]);
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);
    double t0 = buf_now();
    CHECK(!buf_write_fd(fd[1], "abc", 3, 30.0));
    CHECK_INT(errno, EPIPE);
    CHECK_MSG(buf_now() - t0 < 5.0, "an error waited for the deadline");
    signal(SIGPIPE, old);
    close(fd[1]);
}

static void on_usr1(int sig) { (void)sig; }

struct interrupter {
    pthread_t target;
    struct reader r;
};

/* Interrupts the writer blocked on a full pipe, then drains the pipe. */
static void *interrupt_then_read(void *arg)
{
    struct interrupter *in = arg;
    fx_nap(0.05);
    pthread_kill(in->target, SIGUSR1);
    return read_slowly(&in->r);
}

/* A blocking write on a pipe already full, interrupted by a signal before it
 * wrote a byte (no SA_RESTART: EINTR), is made again, and all arrives. */
TEST_THREADS(buf_write_fd_goes_on_after_an_interrupted_write)
{
    int fd[2];
    CHECK(pipe(fd) == 0);
    pattern();
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sigemptyset(&sa.sa_mask);
    CHECK(sigaction(SIGUSR1, &sa, &old) == 0);
    nonblocking(fd[1], true);
    size_t pre = 0;
    ssize_t k;
    while ((k = write(fd[1], data + pre, BIG - pre)) > 0)
        pre += (size_t)k;
    CHECK(pre > 0 && pre < BIG);
    nonblocking(fd[1], false);
    struct interrupter in = {.target = pthread_self(),
                             .r = {.fd = fd[0], .pause = 0.05, .chunk_nap = 0.001}};
    pthread_t th;
    if (pthread_create(&th, NULL, interrupt_then_read, &in) != 0) {
        CHECK_MSG(false, "no reader thread");
        return;
    }
    CHECK(buf_write_fd(fd[1], data + pre, BIG - pre, 0.0)); /* blocking: no deadline asked */
    close(fd[1]);
    pthread_join(th, NULL);
    sigaction(SIGUSR1, &old, NULL);
    CHECK_INT(in.r.n, BIG);
    CHECK(in.r.n == BIG && memcmp(got, data, BIG) == 0);
    close(fd[0]);
}
