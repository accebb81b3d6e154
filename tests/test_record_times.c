/*
 * test_record_times.c — a recording's event times are seconds from the start
 * of the session it records, wherever it is made: swirl in a terminal (the
 * real loop, term_run, in a child of the test on a pseudo-terminal the test
 * plays the terminal at the far end of, answering its pings) and a headless
 * recording on its simulated clock. A replay then starts at once and lasts as
 * long as the session did, not for the hours the machine has been up.
 */
#define _XOPEN_SOURCE 700 /* posix_openpt, grantpt, unlockpt, ptsname */
#include "app.h"
#include "e2e.h"
#include "fixtures.h"
#include "headless.h"
#include "term.h"
#include "test.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define DEADLINE 20.0 /* seconds: for a hang only */

static double mono_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A recording's events: their times and codes ('o', 'r'), in file order. */
struct events {
    double t[4096];
    char code[4096];
    int n;
};

static void read_events(const char *text, struct events *ev)
{
    ev->n = 0;
    for (const char *line = text ? strchr(text, '\n') : NULL; line && ev->n < 4096;
         line = strchr(line + 1, '\n')) {
        double t;
        char code;
        if (sscanf(line + 1, "[%lf, \"%c\"", &t, &code) == 2)
            ev->t[ev->n] = t, ev->code[ev->n++] = code;
    }
}

/* Counts the occurrences of a question in what the terminal was sent, those
 * split across two reads included (tail: the last bytes of the read before). */
static int count_in(const char *tail, const char *got, size_t n, const char *q)
{
    char joined[8192 + 8];
    size_t lt = strlen(tail), lq = strlen(q);
    memcpy(joined, tail, lt);
    memcpy(joined + lt, got, n);
    int k = 0;
    for (size_t i = 0; i + lq <= lt + n; i++)
        k += memcmp(joined + i, q, lq) == 0 && i + lq > lt;
    return k;
}

/* The child: swirl's terminal loop on the pseudo-terminal's far end, its
 * messages into err. */
static void run_swirl(const char *pty, const char *path, const char *err)
{
    setsid();
    int fd = open(pty, O_RDWR); /* the controlling terminal now */
    if (fd < 0)
        _exit(90);
    dup2(fd, STDIN_FILENO);
    dup2(fd, STDOUT_FILENO);
    int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(e, STDERR_FILENO);
    setenv("TERM", "xterm-256color", 1);
    struct app_opts o;
    app_opts_default(&o);
    o.sync = false; /* with colours given, nothing is asked at the start */
    o.recording = true;
    o.overwrite = true;
    _exit(term_run(&o, false, false, path));
}

TEST_THREADS(record_times_in_a_terminal_run_from_the_session_start)
{
    /* The far end answers the loop's pings (CSI 5 n, CSI 6 n) as a terminal
     * does; once frames have come it changes the window's size, then types q.
     * Every event of the recording lies between the start (its first event,
     * the cursor hidden, at 0 exactly) and the time the whole run took as the
     * test saw it, in order; the resize is among them. */
    char path[64], err[64];
    snprintf(path, sizeof path, "/tmp/swirl-times-%d.cast", (int)getpid());
    snprintf(err, sizeof err, "/tmp/swirl-times-%d.err", (int)getpid());
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    CHECK(master >= 0 && grantpt(master) == 0 && unlockpt(master) == 0);
    if (master < 0)
        return;
    char pty[128];
    snprintf(pty, sizeof pty, "%s", ptsname(master));
    struct winsize ws = {.ws_row = 24, .ws_col = 80};
    ioctl(master, TIOCSWINSZ, &ws);
    fflush(stdout);
    double t0 = mono_now();
    pid_t kid = fork();
    if (kid == 0)
        run_swirl(pty, path, err);
    CHECK(kid > 0);
    fcntl(master, F_SETFL, O_NONBLOCK);
    size_t seen = 0;
    bool resized = false, quit = false, ended = false;
    char tail[8] = "";
    int status = 0;
    while (kid > 0 && !ended && mono_now() - t0 < DEADLINE) {
        struct pollfd pf = {master, POLLIN, 0};
        poll(&pf, 1, 20);
        char buf[8192];
        ssize_t n;
        while ((n = read(master, buf, sizeof buf)) > 0) {
            seen += (size_t)n;
            for (int k = count_in(tail, buf, (size_t)n, "\x1b[5n"); k > 0; k--)
                CHECK(write(master, "\x1b[0n", 4) == 4);
            for (int k = count_in(tail, buf, (size_t)n, "\x1b[6n"); k > 0; k--)
                CHECK(write(master, "\x1b[1;1R", 6) == 6);
            size_t keep = (size_t)n < 4 ? (size_t)n : 4;
            memcpy(tail, buf + n - (ssize_t)keep, keep);
            tail[keep] = 0;
        }
        if (!resized && seen > 20000) { /* a few frames in */
            ws = (struct winsize){.ws_row = 20, .ws_col = 70};
            ioctl(master, TIOCSWINSZ, &ws);
            resized = true;
        } else if (resized && !quit && seen > 60000) {
            CHECK(write(master, "q", 1) == 1);
            quit = true;
        }
        ended = waitpid(kid, &status, WNOHANG) == kid;
    }
    const double took = mono_now() - t0;
    if (kid > 0 && !ended) {
        kill(kid, SIGKILL);
        waitpid(kid, &status, 0);
    }
    close(master);
    size_t len;
    char *said = e2e_slurp(err, &len);
    CHECK_MSG(ended && WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "swirl on the pty: %s, status %#x, %zu bytes seen; it said:\n%s",
              ended ? "ended" : "hung", (unsigned)status, seen, said ? said : "");
    free(said);
    remove(err);
    char *text = e2e_slurp(path, &len);
    CHECK_MSG(e2e_valid_cast(text), "not a whole recording at %s", path);
    static struct events ev;
    read_events(text, &ev);
    int resizes = 0, late = 0;
    for (int i = 0; i < ev.n; i++) {
        resizes += ev.code[i] == 'r';
        late += ev.t[i] < 0.0 || ev.t[i] > took || (i > 0 && ev.t[i] < ev.t[i - 1]);
    }
    CHECK_MSG(ev.n > 3 && ev.t[0] == 0.0 && late == 0, "%d events, the first at %.6f s, the "
              "last at %.6f s, %d out of [0, %.3f s] or out of order", ev.n,
              ev.n ? ev.t[0] : -1.0, ev.n ? ev.t[ev.n - 1] : -1.0, late, took);
    CHECK_MSG(resizes == 1, "%d resizes recorded", resizes);
    free(text);
    remove(path);
}

TEST(record_times_headless_are_the_frames_own)
{
    /* On the simulated clock: the cursor hidden and the first frame at 0,
     * frame k at k / fps, the last event at the recording's length. */
    char path[64];
    snprintf(path, sizeof path, "/tmp/swirl-htimes-%d.cast", (int)getpid());
    struct app_opts o;
    app_opts_default(&o);
    o.fps = 10;
    o.overwrite = true;
    o.recording = true;
    struct record_stats st;
    CHECK_INT(headless_record(&o, 40, 12, 1.0, path, &st), 0);
    size_t len;
    char *text = e2e_slurp(path, &len);
    static struct events ev;
    read_events(text, &ev);
    CHECK_MSG(ev.n == 12, "%d events", ev.n);
    for (int i = 0; i < ev.n && ev.n == 12; i++) {
        const double want = i == 0 ? 0.0 : (double)(i - 1) / 10.0;
        CHECK_MSG(fabs(ev.t[i] - want) < 1e-6, "event %d at %.6f s, not %.6f s", i, ev.t[i], want);
    }
    free(text);
    remove(path);
}
