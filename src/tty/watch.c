/*
 * watch.c — the watcher of input that waits (see watch.h).
 *
 * One thread, asleep on a condition variable between frames. Armed, it sleeps
 * in poll() on the wake pipe alone until the frame is WATCH_AFTER old, then on
 * the terminal too: what comes is read and fed to the loop's parser (w->in),
 * and the events go into w->got, each with the time the terminal was found
 * readable (the flow control times its pings' round trips by it); a person's
 * event (not an answer: input_is_answer) raises the flag, and so do a full
 * w->got and a terminal gone. Disarming sets the state and writes a byte into
 * the pipe; the watcher, woken, looks at the state (a byte left from an
 * earlier frame wakes it for nothing) and reports back that it is idle, so the
 * loop and the watcher never read the terminal at the same time, and the
 * parser and w->got change hands under the mutex. Nothing is parsed twice:
 * bytes of a sequence the watcher read in part stay pending in the parser,
 * and the loop's next bytes finish it.
 */
#include "watch.h"
#include "buf.h"
#include "input.h"
#include "pool.h"
#include "reader.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { IDLE, ARMED, QUITTING };
enum { TIMED_OUT, WOKEN, READABLE };


/* Sleeps until the wake pipe has a byte (drained), the terminal has input
 * (when on_fd) or the clock reaches until (< 0: no limit). */
static int wait_for(struct watch *w, bool on_fd, double until)
{
    struct pollfd pf[2] = {{w->wake[0], POLLIN, 0}, {w->fd, POLLIN, 0}};
    for (;;) {
        int ms = -1;
        if (until >= 0.0) {
            double left = until - buf_now();
            if (left <= 0.0)
                return TIMED_OUT;
            ms = (int)(left * 1000.0) + 1;
        }
        int r = poll(pf, on_fd ? 2 : 1, ms);
        if (r < 0 && errno != EINTR) { /* cannot wait: look at the state a while later */
            struct timespec ts = {0, 10 * 1000 * 1000};
            nanosleep(&ts, NULL);
            return WOKEN;
        }
        if (r <= 0)
            continue;
        if (pf[0].revents) {
            char b[64];
            while (read(w->wake[0], b, sizeof b) > 0)
                ;
            return WOKEN;
        }
        return READABLE;
    }
}

static bool still_armed(struct watch *w)
{
    pthread_mutex_lock(&w->mu);
    bool armed = w->state == ARMED;
    pthread_mutex_unlock(&w->mu);
    return armed;
}

/* Bytes from the terminal, readable since `at`, parsed into w->got: true
 * when they hold more than its answers (to pings, to DA1). A byte ends at most
 * one event, so no more are read than w->got has room for: none is lost. */
static bool take_input(struct watch *w, double at, bool *fd_ok)
{
    int room = WATCH_EVENTS - w->ngot;
    struct input_event ev[READER_CHUNK];
    size_t n;
    int ne = reader_read(w->fd, w->in, 0.0, ev, room < READER_CHUNK ? room : READER_CHUNK, &n);
    if (ne == READER_GONE) { /* the terminal is gone: the loop will see it once woken */
        *fd_ok = false;
        return true;
    }
    if (n > 0)
        w->read_at = at;
    bool person = false;
    for (int i = 0; i < ne; i++) {
        w->got[w->ngot++] = (struct watch_event){ev[i], at};
        person = person || !input_is_answer(ev[i].type);
    }
    return person || w->ngot == WATCH_EVENTS; /* full: let the loop read the rest */
}

/* One frame's watch, until disarmed. */
static void watch_frame(struct watch *w, double armed_at, bool waiting)
{
    bool fd_ok = true, raised = false;
    double last_byte = armed_at;
    double until = armed_at + WATCH_AFTER; /* nothing is read before */
    bool look = false;
    for (;;) {
        int r = wait_for(w, look && fd_ok && !raised, raised ? -1.0 : until);
        if (r == WOKEN) {
            if (!still_armed(w))
                return;
            continue;
        }
        bool person = false;
        if (r == TIMED_OUT && !look) {
            look = true; /* the frame is WATCH_AFTER old */
            person = waiting;
        } else if (r == TIMED_OUT) {
            person = true; /* a lone ESC (or a sequence cut short) has waited */
        } else {
            last_byte = buf_now();
            person = take_input(w, last_byte, &fd_ok);
        }
        if (person && !raised) {
            atomic_store(w->stop, 1);
            raised = true;
        }
        until = input_pending(w->in) ? last_byte + input_flush_delay(w->in) : -1.0;
    }
}

static void *watcher(void *arg)
{
    struct watch *w = arg;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (w->state == IDLE)
            pthread_cond_wait(&w->cv, &w->mu);
        if (w->state == QUITTING)
            break;
        double at = w->armed_at;
        bool waiting = w->waiting;
        w->busy = true;
        pthread_mutex_unlock(&w->mu);
        watch_frame(w, at, waiting); /* returns once disarmed */
        pthread_mutex_lock(&w->mu);
        w->busy = false;
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

int watch_start(struct watch *w, int fd, atomic_int *stop)
{
    memset(w, 0, sizeof *w);
    w->fd = fd;
    w->stop = stop;
    w->state = IDLE;
    w->read_at = -1.0;
    if (pipe(w->wake) != 0)
        return -1;
    for (int i = 0; i < 2; i++) {
        fcntl(w->wake[i], F_SETFL, fcntl(w->wake[i], F_GETFL) | O_NONBLOCK);
        fcntl(w->wake[i], F_SETFD, FD_CLOEXEC);
    }
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    /* No signals here but its own faults: the loop's handlers are for its
     * thread. */
    int err = pool_thread_start(&w->thread, watcher, w);
    if (err) {
        pthread_mutex_destroy(&w->mu);
        pthread_cond_destroy(&w->cv);
        close(w->wake[0]);
        close(w->wake[1]);
        return -1;
    }
    w->started = true;
    return 0;
}

void watch_arm(struct watch *w, double now, struct input *in)
{
    if (!w->started)
        return;
    pthread_mutex_lock(&w->mu);
    atomic_store(w->stop, 0);
    w->in = in;
    w->ngot = 0;
    w->read_at = -1.0;
    w->armed_at = now;
    w->waiting = input_pending(in);
    w->state = ARMED;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

/* Into the idle state (or quitting), returning once the watcher is there. */
static void disarm_to(struct watch *w, int state)
{
    pthread_mutex_lock(&w->mu);
    bool was_armed = w->state == ARMED;
    w->state = state;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    if (was_armed) {
        ssize_t r = write(w->wake[1], "", 1);
        (void)r; /* full: a byte is there already */
    }
}

int watch_disarm(struct watch *w)
{
    if (!w->started)
        return 0;
    disarm_to(w, IDLE);
    pthread_mutex_lock(&w->mu);
    while (w->busy) /* it saw the arm: wait for it to be done with it */
        pthread_cond_wait(&w->cv, &w->mu);
    int n = w->in ? w->ngot : 0; /* 0 when disarmed already: no event twice */
    w->in = NULL;
    pthread_mutex_unlock(&w->mu);
    atomic_store(w->stop, 0);
    return n;
}

void watch_end(struct watch *w)
{
    if (!w->started)
        return;
    watch_disarm(w);
    disarm_to(w, QUITTING);
    pthread_join(w->thread, NULL);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    close(w->wake[0]);
    close(w->wake[1]);
    w->started = false;
}
