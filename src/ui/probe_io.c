/*
 * probe_io.c — putting the questions of probe.h to the terminal and to tmux.
 *
 * The terminal: the questions are written to the tty and the answers read off
 * it directly, with poll() against a deadline, before curses' input loop has
 * read a byte (so curses holds nothing back, and getch() never sees them).
 * Echo and canonical mode must already be off, as curses leaves them, or the
 * tty would print the answers itself; then nothing is asked at all. Reading
 * stops at DA1's answer, which every terminal gives and gives last.
 *
 * tmux: each question is one `tmux` command run with the caller's
 * environment (TMUX names the server), stdin from /dev/null, stderr dropped,
 * its output read through a pipe within a deadline; a command still running
 * then is killed. Nothing here touches the terminal.
 */
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define ANSWER_BYTES 2048 /* far more than every answer together */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Milliseconds until `end` for poll(), at least 0. */
static int ms_until(double end)
{
    double left = end - now();
    return left <= 0 ? 0 : (int)(left * 1000.0) + 1;
}

static bool write_all(int fd, const char *p, size_t n, double end)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            struct pollfd pf = {fd, POLLOUT, 0};
            if (errno != EAGAIN || poll(&pf, 1, ms_until(end)) <= 0)
                return false;
            continue;
        }
        p += w;
        n -= (size_t)w;
    }
    return true;
}

size_t probe_ask_tty(int in, int out, double seconds, struct probe_answers *a,
                     unsigned char *rest, size_t cap)
{
    struct termios tio;
    if (!isatty(in) || tcgetattr(in, &tio) != 0 || (tio.c_lflag & (ECHO | ICANON)))
        return 0; /* the answers would be echoed, or not be readable yet */
    double end = now() + seconds;
    static const char query[] = PROBE_QUERY;
    if (!write_all(out, query, sizeof query - 1, end))
        return 0;
    unsigned char buf[ANSWER_BYTES];
    size_t n = 0;
    while (n < sizeof buf) {
        struct pollfd pf = {in, POLLIN, 0};
        int r = poll(&pf, 1, ms_until(end));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0 || !(pf.revents & POLLIN))
            break;
        ssize_t got = read(in, buf + n, sizeof buf - n);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (got <= 0)
            break;
        n += (size_t)got;
        struct probe_answers seen = {0};
        unsigned char scratch[ANSWER_BYTES];
        probe_parse(&seen, buf, n, scratch, sizeof scratch);
        if (seen.fence)
            break;
    }
    return probe_parse(a, buf, n, rest, cap);
}

/* Runs tmux with args (NULL-terminated) and keeps its output in out (cap
 * bytes, NUL-terminated); false when it could not run, failed or overran. */
static bool run_tmux(const char *const *args, char *out, size_t cap, double seconds)
{
    int fd[2];
    if (pipe(fd) != 0)
        return false;
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return false;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, STDIN_FILENO);
            dup2(null, STDERR_FILENO);
        }
        dup2(fd[1], STDOUT_FILENO);
        close(fd[0]);
        close(fd[1]);
        execvp("tmux", (char *const *)args);
        _exit(127);
    }
    close(fd[1]);
    double end = now() + seconds;
    size_t n = 0;
    bool whole = false;
    for (;;) {
        struct pollfd pf = {fd[0], POLLIN, 0};
        int r = poll(&pf, 1, ms_until(end));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break; /* overran: killed below */
        char scratch[256];
        bool room = n + 1 < cap;
        ssize_t got = read(fd[0], room ? out + n : scratch, room ? cap - 1 - n : sizeof scratch);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            whole = got == 0;
            break;
        }
        if (room)
            n += (size_t)got;
    }
    close(fd[0]);
    out[n] = 0;
    if (!whole)
        kill(pid, SIGKILL);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return whole && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void probe_ask_tmux(struct probe_tmux *t, struct probe_tmux_text *txt, double seconds)
{
    memset(t, 0, sizeof *t);
    const char *pane = getenv("TMUX_PANE");
    bool has_pane = pane && *pane;
    const char *tty = ttyname(STDIN_FILENO);
    if (tty) {
        snprintf(txt->our_tty, sizeof txt->our_tty, "%s", tty);
        t->our_tty = txt->our_tty;
    }
    if (has_pane) {
        const char *a[] = {"tmux", "display", "-p", "-t", pane, "#{pane_tty}", NULL};
        if (run_tmux(a, txt->pane_tty, sizeof txt->pane_tty, seconds))
            t->pane_tty = txt->pane_tty;
    }
    /* The clients of our session (of every session when the pane is unknown). */
    const char *fmt = "#{client_termname}\t#{client_termfeatures}";
    const char *lc[] = {"tmux", "list-clients", "-F", fmt, has_pane ? "-t" : NULL, pane, NULL};
    if (run_tmux(lc, txt->clients, sizeof txt->clients, seconds))
        t->clients = txt->clients;
    const char *f[] = {"tmux", "show", "-sv", "terminal-features", NULL};
    if (run_tmux(f, txt->features, sizeof txt->features, seconds))
        t->features = txt->features; /* tmux >= 3.2 */
    const char *o[] = {"tmux", "show", "-sv", "terminal-overrides", NULL};
    if (run_tmux(o, txt->overrides, sizeof txt->overrides, seconds))
        t->overrides = txt->overrides;
}
