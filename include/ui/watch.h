/*
 * watch.h — input that waits while a frame's steps run.
 *
 * The terminal loop reads input between frames; a step that takes seconds
 * (extreme settings) would keep a key waiting as long. So while a frame is
 * being made, a watcher thread looks at the terminal's input: once the frame
 * has taken WATCH_AFTER and a key or a mouse report waits (or a lone ESC has
 * waited ESC_DELAY, or the caller said input was waiting already), it raises
 * the stop flag, which the solvers read between their iterations (the params'
 * stop), and the step under way ends early. The terminal's answers to the flow
 * control's status requests (CSI 0 n) come all the time and raise nothing.
 *
 * The watcher reads what it looks at (only it could tell an answer from a
 * key), and only while armed, when the loop does not read: what it read is
 * handed back by watch_disarm, for the loop to parse before anything newer.
 * Frames that take less than WATCH_AFTER are never cut short, whatever comes.
 * The thread takes no signals but its own faults.
 */
#ifndef SWIRL_WATCH_H
#define SWIRL_WATCH_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#define WATCH_AFTER 0.1    /* s a frame runs before waiting input cuts it short */
#define WATCH_ESC 0.05     /* s a lone ESC waits before it counts as the Esc key */
#define WATCH_BYTES 4096   /* what it reads in one frame, at most */

struct watch {
    atomic_int *stop;
    int fd;                /* the terminal's input */
    int wake[2];           /* a pipe: a byte ends a watch */
    bool started;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int state;             /* under mu: idle, armed, quitting */
    bool busy;             /* under mu: the watcher took an arm and is not done */
    double armed_at;       /* monotonic seconds */
    bool waiting;          /* input waited already when armed */
    unsigned char got[WATCH_BYTES]; /* read while armed (the watcher's until disarmed) */
    size_t ngot;
};

/* Starts the watcher on fd; stop is what it raises. 0, or -1 when no thread
 * could be started (then arm and disarm do nothing and steps run whole). */
int watch_start(struct watch *w, int fd, atomic_int *stop);
/* A frame starts: *stop is lowered, and the watcher looks from now on. now:
 * monotonic seconds; waiting: input waits already (a lone ESC held back). */
void watch_arm(struct watch *w, double now, bool waiting);
/* The frame is made: the watcher stops looking (returning once it has), *stop
 * is lowered. Returns how many bytes it read meanwhile, at w->got. */
size_t watch_disarm(struct watch *w);
/* Ends the thread (disarmed); a watch never started is left as it is. */
void watch_end(struct watch *w);

#endif
