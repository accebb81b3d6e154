/*
 * slowpty.c — a slow link, for the tests and the bench: runs a command on a
 * pseudo-terminal whose output is read (drained) at a fixed number of bytes a
 * second, the way a terminal at the end of a slow SSH connection takes it in,
 * and answers each status request (CSI 5 n) with CSI 0 n, and each cursor
 * position request (CSI 6 n) with CSI 1 ; 1 R, only when the draining reaches
 * it, as a real terminal would. After a while it types `q`
 * and measures how long, and how many bytes of draining, it takes until the
 * command has left the alternate screen (CSI ?1049 l): what a user waits for
 * to get the shell back.
 *
 * With -s STALL_SECONDS the link stops draining that long after the start (a
 * stalled SSH connection, a terminal frozen): nothing more is read or
 * answered until the command has ended, and what is measured is the time from
 * q to its exit (exit_latency); what it wrote is then drained whole, so
 * left_screen says whether it wrote the restore sequence before it went.
 *
 * With -k SIGNAL (a number) the command gets that signal instead of the q, and
 * the pty stays open after it has gone, as a terminal's does for the shell:
 * the link goes on draining (and answering) for SETTLE seconds, and `echoed`
 * counts the answers to status requests that the tty then echoed (^[[0n, or
 * ESC [ 0 n): those that reached the shell.
 *
 *   slowpty [-s STALL_SECONDS] [-k SIGNAL] BYTES_PER_SECOND QUIT_AFTER_SECONDS COMMAND [ARG...]
 *
 * Prints one JSON line: {"rate":..,"quit_latency":..,"bytes_after_quit":..,
 * "left_screen":true|false,"exit_latency":..,"echoed":..,"drained":..}. Exit
 * status 0 when the command left the screen and ended, 1 otherwise. The pane
 * is 100x30, TERM xterm-256color.
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

#define TICK 0.005     /* s between reads */
#define GIVE_UP 30.0   /* s after q */
#define DRAIN_ALL 65536.0 /* bytes a read may take */
#define SETTLE 1.0     /* s the link goes on after the command has gone (-k) */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Finds `pat` across reads: how much of it the bytes so far end with. */
struct matcher {
    const char *pat;
    size_t got;
};

/* The patterns here start with ESC and hold no other: on a mismatch the match
 * can only start again at this byte. */
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

static pid_t spawn(int *master, char **argv)
{
    struct winsize ws = {.ws_row = 30, .ws_col = 100};
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

int main(int argc, char **argv)
{
    double stall = -1.0;
    int sig = 0;
    while (argc > 2 && (strcmp(argv[1], "-s") == 0 || strcmp(argv[1], "-k") == 0)) {
        if (argv[1][1] == 's')
            stall = atof(argv[2]);
        else
            sig = atoi(argv[2]);
        argc -= 2, argv += 2;
    }
    if (argc < 4) {
        fprintf(stderr, "usage: slowpty [-s STALL_SECONDS] [-k SIGNAL] BYTES_PER_SECOND "
                        "QUIT_AFTER_SECONDS COMMAND [ARG...]\n");
        return 2;
    }
    double rate = atof(argv[1]), quit_after = atof(argv[2]);
    int master;
    pid_t pid = spawn(&master, argv + 3);
    if (pid < 0) {
        perror("slowpty: forkpty");
        return 1;
    }
    /* -k: the tty outlives the command, its modes as the command left them. */
    int keep = sig ? open(ptsname(master), O_RDWR | O_NOCTTY) : -1;
    fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
    struct matcher ping = {"\x1b[5n", 0}, where = {"\x1b[6n", 0}, left = {"\x1b[?1049l", 0};
    struct matcher echo_ctl = {"^[[0n", 0}, echo_raw = {"\x1b[0n", 0};
    double t0 = now(), t_quit = -1, t_left = -1, t_exit = -1, credit = 0;
    long long drained = 0, at_quit = 0, at_left = 0, echoed = 0;
    int status = 0;
    for (;;) {
        double t = now();
        if (t_exit < 0 && waitpid(pid, &status, WNOHANG) == pid)
            t_exit = t;
        if (sig && t_exit >= 0 && t - t_exit > SETTLE)
            break;
        /* Answers go back while the command runs, and with -k after it too. */
        bool answer = t_exit < 0 || sig;
        bool stalled = stall >= 0 && t - t0 >= stall && t_exit < 0;
        if (t_quit < 0 && t - t0 >= quit_after) {
            t_quit = t, at_quit = drained;
            if (sig ? kill(pid, sig) != 0 : write(master, "q", 1) != 1)
                break;
        }
        if (t_quit >= 0 && t - t_quit > GIVE_UP)
            break;
        if (stall >= 0 && t_exit >= 0)
            credit = DRAIN_ALL; /* gone: what it left is drained at once */
        else if (stalled)
            credit = 0;
        else
            credit += rate * TICK;
        char buf[65536];
        size_t want = credit < (double)sizeof buf ? (size_t)credit : sizeof buf;
        ssize_t n = want ? read(master, buf, want) : 0;
        if (n < 0 && errno != EAGAIN)
            break; /* EIO: the command has gone and the pty is drained */
        for (ssize_t i = 0; i < n; i++) {
            drained++;
            if (match(&ping, buf[i]) && answer && write(master, "\x1b[0n", 4) != 4)
                break;
            if (match(&where, buf[i]) && answer && write(master, "\x1b[1;1R", 6) != 6)
                break;
            if (t_quit >= 0 && t_left < 0 && match(&left, buf[i]))
                t_left = now(), at_left = drained;
            if (t_left >= 0 && (match(&echo_ctl, buf[i]) || match(&echo_raw, buf[i])))
                echoed++;
        }
        if (n > 0)
            credit -= (double)n;
        if (credit > rate * 0.05 && !(stall >= 0 && t_exit >= 0))
            credit = rate * 0.05; /* idle time is not saved up */
        struct timespec ts = {0, (long)(TICK * 1e9)};
        nanosleep(&ts, NULL);
    }
    if (t_exit < 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    if (keep >= 0)
        close(keep);
    printf("{\"rate\":%.0f,\"quit_latency\":%.3f,\"bytes_after_quit\":%lld,\"left_screen\":%s,"
           "\"exit_latency\":%.3f,\"echoed\":%lld,\"drained\":%lld}\n",
           rate, t_left >= 0 ? t_left - t_quit : -1.0, t_left >= 0 ? at_left - at_quit : -1LL,
           t_left >= 0 ? "true" : "false", t_exit >= 0 && t_quit >= 0 ? t_exit - t_quit : -1.0,
           echoed, drained);
    return t_left >= 0 && t_exit >= 0 ? 0 : 1;
}
