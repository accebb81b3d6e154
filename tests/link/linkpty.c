/*
 * linkpty.c — a terminal at the far end of a link, for the tests and the
 * bench: runs a command on a pseudo-terminal and plays the terminal and the
 * link between them.
 *
 * The link has a rate (bytes a second, 0: no limit) and a delay each way. What
 * the command writes is taken off the pty as fast as it comes and queued, as
 * sshd and TCP queue it (so a TCOFLUSH on the command's side cannot reach it;
 * with -p the queue is the pty's own instead: the pty is read at the link's
 * rate, as a slow local terminal reads it). The queue goes out at the rate;
 * each byte reaches the terminal `delay` seconds after it left, and the
 * terminal takes it in at once: it answers a status request (CSI 5 n) with
 * CSI 0 n, a cursor position request (CSI 6 n) with CSI 1 ; 1 R, DA1 (CSI c)
 * with a VT220's answer and DECRQM for mode 2026 with "reset, can be set";
 * what it answers, and the keys it types, reach the command `delay` seconds
 * later. With -n it answers nothing at all (a terminal that knows none of
 * the questions).
 *
 * It counts the frames it has seen (the end of each synchronized update,
 * CSI ? 2026 l), and after QUIT_AFTER seconds it types q and measures how long
 * until the command has left the alternate screen (CSI ? 1049 l) as the
 * terminal sees it: a round trip and what was queued. The pty stays open
 * after the command has gone, as it does for the shell, and the link runs on
 * for a while: answers that arrive then are echoed by the tty and counted
 * (`echoed`: they would reach the shell; "^[[" or an answer as it was sent).
 *
 * -s STALL: the link stops STALL seconds after the start (nothing more of
 * what the command writes goes, and so nothing is answered, until it has
 * ended; then what it wrote is delivered at once; keys still go). -k SIGNAL:
 * the command gets that signal instead of the q.
 * -w COLSxROWS[+CWxCH]: the pane's size (default 100x30) and its cells' pixels
 * (none told by default). -f: QUIT_AFTER counts from
 * the first frame the terminal sees, not from the start (the measured span
 * is then as long however long a starved start-up takes; with no frame by
 * NO_FRAME s, from then).
 *
 *   linkpty [-p] [-n] [-f] [-d DELAY] [-s STALL] [-k SIGNAL] [-w COLSxROWS[+CWxCH]]
 *           RATE QUIT_AFTER COMMAND [ARG...]
 *
 * Prints one JSON line. Its figures over the measured span (from 1 s after the
 * first frame to the q): fps (frames seen a second: the ends of synchronized
 * updates, and kitty pictures, which are not synchronized), util (of the link's bytes,
 * the share that carried the command's output; -1 without a rate), qdelay_max
 * and qdelay_mean (s a byte waited in the queue before it left). Then
 * first_frame (s from the start to the first frame seen), quit_latency (q
 * typed to the screen left, s), bytes_after_quit, left_screen, exit_latency
 * (the q's arrival to the command's exit, s), echoed, drained, sgr256 (how
 * many 256-colour SGRs it was sent: a picture given fewer colours), sync_open
 * (1: a synchronized update was left open), sync_stray (ends of updates
 * never begun) and gap_max (the longest s between two frames before the q). Exit status 0
 * when the command left the screen and ended, 1 otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fifo.h"

#define TICK 0.001      /* s: the loop's step */
#define GIVE_UP 30.0    /* s after q */
#define SETTLE 1.0      /* s the link runs on after the command has gone, beyond a round trip */
#define WARM_UP 1.0     /* s after the first frame before the measured span begins */
#define NO_FRAME 30.0   /* s from the start: -f's QUIT_AFTER counts from here without a frame */
#define BURST 0.002     /* s of the rate the link may send at once */
#define IDLE_MS 10      /* ms the loop sleeps with nothing on the link (the pty's output wakes it) */

/* Raised by SIGCHLD (which also wakes the loop's poll): the command may have
 * ended, for waitpid to see. */
static volatile sig_atomic_t child_changed = 1;
static void on_child(int sig)
{
    (void)sig;
    child_changed = 1;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Finds `pat` across reads: how much of it the bytes so far end with. The
 * patterns start with ESC and hold no other: on a mismatch the match can only
 * start again at this byte. */
struct matcher {
    const char *pat;
    size_t got;
};

static bool match(struct matcher *m, char c)
{
    if (c != m->pat[m->got])
        m->got = 0;
    if (c != m->pat[m->got])
        return false;
    if (m->pat[++m->got] == 0) {
        m->got = 0;
        return true;
    }
    return false;
}

static pid_t spawn(int *master, int cols, int rows, int cw, int ch, char **argv)
{
    struct winsize ws = {.ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols,
                         .ws_xpixel = (unsigned short)(cols * cw),
                         .ws_ypixel = (unsigned short)(rows * ch)};
    pid_t pid = forkpty(master, NULL, NULL, &ws);
    if (pid == 0) {
        setenv("TERM", "xterm-256color", 1);
        setenv("COLORTERM", "truecolor", 1);
        setenv("LANG", "C.UTF-8", 1);
        setenv("LC_ALL", "C.UTF-8", 1);
        execvp(argv[0], argv);
        _exit(127);
    }
    return pid;
}

static void usage(void)
{
    fprintf(stderr, "usage: linkpty [-p] [-n] [-f] [-d DELAY] [-s STALL] [-k SIGNAL] [-w COLSxROWS[+CWxCH]] "
                    "RATE QUIT_AFTER COMMAND [ARG...]\n");
    exit(2);
}

/* The terminal's side: what it does with each byte that arrives. */
struct terminal {
    bool silent;
    struct matcher ping, where, da1, decrqm, sync_begin, sync_end, left;
    struct matcher kitty; /* a kitty picture begins: a frame, which kitty's are not synchronized */
    struct matcher echoes[5]; /* what the tty shows of an answer it echoes */
    struct matcher sgr256[2]; /* a 256-colour foreground or background */
    long long colours256;
    long long frames, frames_in_span, processed, at_quit, at_left, echoed, stray_ends;
    bool in_sync;      /* a synchronized update is open */
    double t_first, t_left;
    double t_frame, gap_max; /* the last frame's end; the longest between two before the q */
};

static void take(struct terminal *tm, struct fifo *up, char c, double t, double t_quit,
                 double span0, bool exited)
{
    static const char da1_answer[] = "\x1b[?62;22c", decrqm_answer[] = "\x1b[?2026;2$y";
    tm->processed++;
    if (match(&tm->ping, c) && !tm->silent)
        fifo_push(up, "\x1b[0n", 4, t);
    if (match(&tm->where, c) && !tm->silent)
        fifo_push(up, "\x1b[1;1R", 6, t);
    if (match(&tm->da1, c) && !tm->silent)
        fifo_push(up, da1_answer, sizeof da1_answer - 1, t);
    if (match(&tm->decrqm, c) && !tm->silent)
        fifo_push(up, decrqm_answer, sizeof decrqm_answer - 1, t);
    if (match(&tm->sync_begin, c))
        tm->in_sync = true;
    const bool picture = match(&tm->kitty, c);
    if (match(&tm->sync_end, c) || picture) {
        tm->stray_ends += !picture && !tm->in_sync; /* an end never begun */
        tm->in_sync = tm->in_sync && picture;
        if (tm->frames++ == 0)
            tm->t_first = t;
        else if (t_quit < 0 && t - tm->t_frame > tm->gap_max)
            tm->gap_max = t - tm->t_frame;
        tm->t_frame = t;
        if (span0 >= 0 && t >= span0 && (t_quit < 0 || t < t_quit))
            tm->frames_in_span++;
    }
    if (t_quit >= 0 && tm->t_left < 0 && match(&tm->left, c))
        tm->t_left = t, tm->at_left = tm->processed;
    for (int k = 0; k < 2; k++)
        tm->colours256 += match(&tm->sgr256[k], c);
    for (int k = 0; k < 5; k++)
        if (match(&tm->echoes[k], c) && exited)
            tm->echoed++;
}

int main(int argc, char **argv)
{
    double delay = 0.0, stall = -1.0;
    int sig = 0, cols = 100, rows = 30, cw = 0, ch = 0; /* a cell's pixels: none told */
    bool pty_queue = false, from_first = false;
    struct terminal tm = {
        .ping = {"\x1b[5n", 0}, .where = {"\x1b[6n", 0}, .da1 = {"\x1b[c", 0},
        .decrqm = {"\x1b[?2026$p", 0}, .sync_begin = {"\x1b[?2026h", 0},
        .sync_end = {"\x1b[?2026l", 0}, .kitty = {"\x1b_Ga=T,", 0},
        .left = {"\x1b[?1049l", 0},
        .echoes = {{"^[[", 0}, {"\x1b[0n", 0}, {"\x1b[1;1R", 0}, {"\x1b[?62;22c", 0},
                   {"\x1b[?2026;2$y", 0}},
        .sgr256 = {{"\x1b[38;5;", 0}, {"\x1b[48;5;", 0}},
        .t_first = -1, .t_left = -1,
    };
    int opt;
    while ((opt = getopt(argc, argv, "+pnfd:s:k:w:")) != -1) {
        if (opt == 'p')
            pty_queue = true;
        else if (opt == 'f')
            from_first = true;
        else if (opt == 'n')
            tm.silent = true;
        else if (opt == 'd')
            delay = atof(optarg);
        else if (opt == 's')
            stall = atof(optarg);
        else if (opt == 'k')
            sig = atoi(optarg);
        else if (opt == 'w' && sscanf(optarg, "%dx%d+%dx%d", &cols, &rows, &cw, &ch) >= 2)
            continue;
        else
            usage();
    }
    if (argc - optind < 3)
        usage();
    double rate = atof(argv[optind]), quit_after = atof(argv[optind + 1]);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_child;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGCHLD, &sa, NULL);
    int master;
    pid_t pid = spawn(&master, cols, rows, cw, ch, argv + optind + 2);
    if (pid < 0) {
        perror("linkpty: forkpty");
        return 1;
    }
    /* The tty outlives the command, its modes as the command left them. */
    int keep = open(ptsname(master), O_RDWR | O_NOCTTY);
    fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
    struct fifo queue = {0}, wire = {0}, up = {0};
    double t0 = now(), t_quit = -1, t_exit = -1, t_end = -1, credit = 0, span0 = -1, span1 = -1;
    double t_prev = t0;
    double qd_sum = 0, qd_max = 0;
    long long sent_in_span = 0, drained = 0;
    int status = 0;
    for (;;) {
        double t = now();
        if (t_exit < 0 && child_changed && (child_changed = 0, waitpid(pid, &status, WNOHANG) == pid)) {
            t_exit = t;
            t_end = t + 2.0 * delay + SETTLE;
        }
        if (t_end >= 0 && t > t_end)
            break;
        bool stalled = stall >= 0 && t - t0 >= stall && t_exit < 0;
        const double from = !from_first ? t0 : tm.t_first >= 0 ? tm.t_first : t0 + NO_FRAME;
        if (t_quit < 0 && t - from >= quit_after) {
            t_quit = t, tm.at_quit = tm.processed;
            if (sig ? kill(pid, sig) != 0 : (fifo_push(&up, "q", 1, t), false))
                break;
        }
        if (t_quit >= 0 && t - t_quit > GIVE_UP)
            break;
        if (span0 < 0 && tm.t_first >= 0)
            span0 = tm.t_first + WARM_UP;
        /* The command's output onto the queue: all of it, or (-p) what the
         * rate lets through, the rest left in the pty. */
        char buf[65536];
        size_t want = sizeof buf;
        if (pty_queue && rate > 0)
            want = credit <= 0 ? 0 : credit < (double)want ? (size_t)credit + 1 : want;
        ssize_t n = want && !stalled ? read(master, buf, want) : 0;
        if (n > 0) {
            fifo_push(&queue, buf, (size_t)n, t);
            drained += n;
        }
        /* The queue onto the wire at the rate (a stalled link sends nothing;
         * once the command has gone after a stall, everything at once). */
        if (rate > 0 && !stalled)
            credit += rate * (t - t_prev); /* by the clock: a turn of the loop may be short */
        t_prev = t;
        bool flood = rate <= 0 || (stall >= 0 && t_exit >= 0);
        while (queue.n && !stalled && (flood || credit >= 1.0)) {
            double tq;
            char c = fifo_pop(&queue, &tq);
            fifo_push(&wire, &c, 1, t + delay);
            double wait = t - tq;
            qd_max = span0 >= 0 && t >= span0 && t_quit < 0 && wait > qd_max ? wait : qd_max;
            if (span0 >= 0 && t >= span0 && t_quit < 0)
                qd_sum += wait, sent_in_span++;
            credit -= 1.0;
        }
        if (credit > rate * BURST)
            credit = rate * BURST; /* an idle link saves nothing up */
        if (span0 >= 0 && t >= span0 && t_quit < 0)
            span1 = t;
        /* What reaches the terminal. */
        while (wire.n && (fifo_first(&wire) <= t || (stall >= 0 && t_exit >= 0))) {
            double ta;
            char c = fifo_pop(&wire, &ta);
            take(&tm, &up, c, t, t_quit, span0, t_exit >= 0);
        }
        /* What reaches the command: answers and keys, in order. */
        while (up.n && fifo_first(&up) + delay <= t) {
            double ta;
            char c = fifo_pop(&up, &ta);
            if (write(master, &c, 1) != 1)
                break;
        }
        /* Wait a millisecond, or less for the command's output, but only
         * when it will be read: with the queue in the pty and no credit, or
         * stalled, output waiting there would wake the loop at once, and
         * spin it. With nothing on the link and the pty read as soon as
         * anything comes, the wait is longer: the output wakes it. */
        const bool reading = want && !stalled;
        const bool idle = reading && !queue.n && !wire.n && !up.n;
        struct pollfd pf = {master, reading ? POLLIN : 0, 0};
        poll(&pf, 1, idle ? IDLE_MS : 1);
    }
    if (t_exit < 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    close(keep);
    double span = span1 > span0 && span0 >= 0 ? span1 - span0 : 0.0;
    printf("{\"rate\":%.0f,\"delay\":%.3f,\"fps\":%.2f,\"frames\":%lld,\"util\":%.3f,"
           "\"qdelay_max\":%.3f,\"qdelay_mean\":%.3f,\"first_frame\":%.3f,"
           "\"quit_latency\":%.3f,\"bytes_after_quit\":%lld,\"left_screen\":%s,"
           "\"exit_latency\":%.3f,\"echoed\":%lld,\"drained\":%lld,\"sgr256\":%lld,\"sync_open\":%d,\"sync_stray\":%lld,"
           "\"gap_max\":%.3f}\n",
           rate, delay, span > 0 ? (double)tm.frames_in_span / span : 0.0, tm.frames,
           rate > 0 && span > 0 ? (double)sent_in_span / (rate * span) : -1.0, qd_max,
           sent_in_span ? qd_sum / (double)sent_in_span : 0.0,
           tm.t_first >= 0 ? tm.t_first - t0 : -1.0, tm.t_left >= 0 ? tm.t_left - t_quit : -1.0,
           tm.t_left >= 0 ? tm.at_left - tm.at_quit : -1LL, tm.t_left >= 0 ? "true" : "false",
           t_exit >= 0 && t_quit >= 0 ? t_exit - t_quit - (sig ? 0.0 : delay) : -1.0, tm.echoed,
           drained, tm.colours256, tm.in_sync, tm.stray_ends, tm.gap_max);
    return tm.t_left >= 0 && t_exit >= 0 ? 0 : 1;
}
