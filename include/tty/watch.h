/*
 * watch.h — input that waits while a frame's steps run.
 *
 * The terminal loop reads input between frames; a step that takes seconds
 * (extreme settings) would keep a key waiting as long. So while a frame is
 * being made, a watcher thread looks at the terminal's input: once the frame
 * has taken WATCH_AFTER and a key or a mouse report waits (or a lone ESC has
 * waited input_flush_delay(), or the loop's parser held input back already), it raises
 * the stop flag, which the solvers read between their iterations (the params'
 * stop), and the step under way ends early. The terminal's answers to the flow
 * control's status requests (CSI 0 n) come all the time and raise nothing.
 *
 * The bytes are parsed once, by the loop's own parser: watch_arm hands it to
 * the watcher (the loop does not read while a frame is made), which reads and
 * parses only while armed, keeping each event with the time its bytes were
 * read; watch_disarm hands the parser back (an unfinished sequence pending in
 * it, for the loop's next bytes) and the events, which come before anything
 * the loop reads next. Frames that take less than WATCH_AFTER are never cut
 * short, whatever comes. The thread takes no signals but its own faults.
 */
#ifndef SWIRL_WATCH_H
#define SWIRL_WATCH_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "input.h"

#define WATCH_AFTER 0.1    /* s a frame runs before waiting input cuts it short */
#define WATCH_EVENTS 1024  /* what it parses in one frame, at most */

/* An event parsed while armed, and when its bytes were read (monotonic s). */
struct watch_event {
    struct input_event ev;
    double at;
};

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
    /* The watcher's while armed, the loop's once disarmed: */
    struct input *in;      /* the loop's parser */
    struct watch_event got[WATCH_EVENTS]; /* what it gave, in order */
    int ngot;
    double read_at;        /* when bytes were last read (< 0: none this frame) */
};

/* Starts the watcher on fd; stop is what it raises. 0, or -1 when no thread
 * could be started (then arm and disarm do nothing and steps run whole). */
int watch_start(struct watch *w, int fd, atomic_int *stop);
/* A frame starts: *stop is lowered, and the watcher looks from now on, parsing
 * what it reads with in (the loop's parser, left alone by the loop until
 * disarmed; input pending in it already, a lone ESC held back, counts as
 * waiting). now: monotonic seconds. */
void watch_arm(struct watch *w, double now, struct input *in);
/* The frame is made: the watcher stops looking (returning once it has), *stop
 * is lowered, the parser is the loop's again. Returns how many events it
 * parsed meanwhile, at w->got (w->read_at: when it last read, < 0: never). */
int watch_disarm(struct watch *w);
/* Ends the thread (disarmed); a watch never started is left as it is. */
void watch_end(struct watch *w);

#endif
