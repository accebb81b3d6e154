/*
 * probe_io.c — putting the questions of probe.h to the terminal and to tmux:
 * writing and reading the tty with poll() against a deadline, and running
 * `tmux` commands through a pipe (those never touch the terminal).
 */
#include "probe.h"
#include "buf.h"
#include "reader.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

/* Milliseconds until `end` for poll(), at least 0. */
static int ms_until(double end)
{
    double left = end - buf_now();
    return left <= 0 ? 0 : (int)(left * 1000.0) + 1;
}

/* The questions are written to the tty and the answers read off it by the
 * one reader and parser (reader.h), with poll() against a deadline. Echo and
 * canonical mode must already be off, as curses leaves them, or the tty would
 * print the answers itself; then nothing is asked at all. Reading stops at
 * DA1's answer, which every terminal gives and gives last. */
int probe_ask_tty(int in, int out, double seconds, bool pixels, struct probe_answers *a,
                  struct input *parser, struct input_event *rest, int cap)
{
    struct termios tio;
    if (!isatty(in) || tcgetattr(in, &tio) != 0 || (tio.c_lflag & (ECHO | ICANON)))
        return 0; /* the answers would be echoed, or not be readable yet */
    double end = buf_now() + seconds;
    static const char plain[] = PROBE_QUERY, with_pixels[] = PROBE_QUERY_PIXELS;
    const char *query = pixels ? with_pixels : plain;
    size_t nq = pixels ? sizeof with_pixels - 1 : sizeof plain - 1;
    a->asked = true; /* from here some of it may be out, and answered */
    if (a->sgr == PROBE_UNKNOWN)
        a->sgr_index = -1;
    if (!buf_write_fd(out, query, nq, seconds))
        return 0;
    int nrest = 0;
    while (!a->fence) {
        struct input_event ev[READER_CHUNK];
        double left = end - buf_now();
        if (left <= 0.0)
            break;
        int n = reader_read(in, parser, left, ev, READER_CHUNK, NULL);
        if (n == READER_GONE)
            break;
        for (int k = 0; k < n; k++)
            if (!probe_take(a, &ev[k]) && nrest < cap)
                rest[nrest++] = ev[k];
    }
    return nrest;
}

/* Runs tmux with args (NULL-terminated) and keeps its output in out (cap
 * bytes, NUL-terminated); -1 when it could not run or overran, else its exit
 * status. It runs with the caller's environment (TMUX names the server), stdin
 * from /dev/null, stderr dropped, its output read through a pipe within the
 * deadline; a command still running then is killed. */
static int run_tmux(const char *const *args, char *out, size_t cap, double seconds)
{
    int fd[2];
    out[0] = 0;
    if (pipe(fd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
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
    double end = buf_now() + seconds;
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
    return whole && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Marks between the commands' outputs (no tty, client or option prints one). */
#define MARK_CLIENTS "@@swirl-clients@@"
#define MARK_OVERRIDES "@@swirl-overrides@@"
#define MARK_FEATURES "@@swirl-features@@"

/* The output after the line `mark` up to the next mark (or the end), copied
 * into out; NULL when the mark is not there (the commands stopped before). */
static const char *section(const char *all, const char *mark, char *out, size_t cap)
{
    const char *p = strstr(all, mark);
    if (!p)
        return NULL;
    p += strlen(mark);
    p += *p == '\n';
    const char *end = strstr(p, "@@swirl-");
    size_t n = end ? (size_t)(end - p) : strlen(p);
    snprintf(out, cap, "%.*s", (int)n, p);
    return out;
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
    /* One tmux client for every question (a client costs more than its
     * commands). A command that fails stops the rest: terminal-features, which
     * tmux < 3.2 lacks, comes last. Without TMUX_PANE: every client of the
     * server, no pane. */
    const char *fmt = "#{client_termname}\t#{client_termfeatures}";
    const char *args[40];
    int n = 0;
    args[n++] = "tmux";
#define CMD(...)                                                              \
    do {                                                                      \
        const char *c_[] = {__VA_ARGS__};                                     \
        if (n > 1)                                                            \
            args[n++] = ";";                                                  \
        for (size_t i_ = 0; i_ < sizeof c_ / sizeof c_[0]; i_++)              \
            args[n++] = c_[i_];                                               \
    } while (0)
    if (has_pane) {
        CMD("display", "-p", "-t", pane, "#{pane_tty}");
        CMD("display", "-p", "-t", pane, MARK_CLIENTS);
        CMD("list-clients", "-t", pane, "-F", fmt);
    } else {
        CMD("display", "-p", MARK_CLIENTS);
        CMD("list-clients", "-F", fmt);
    }
    CMD("display", "-p", MARK_OVERRIDES);
    CMD("show", "-sv", "terminal-overrides");
    CMD("display", "-p", MARK_FEATURES);
    CMD("show", "-sv", "terminal-features");
#undef CMD
    args[n] = NULL;
    static char all[sizeof txt->clients + sizeof txt->features + sizeof txt->overrides + 512];
    int status = run_tmux(args, all, sizeof all, seconds);
    if (status < 0)
        return;
    const char *clients = strstr(all, MARK_CLIENTS);
    if (has_pane && clients && clients > all) {
        snprintf(txt->pane_tty, sizeof txt->pane_tty, "%.*s", (int)(clients - all), all);
        t->pane_tty = txt->pane_tty;
    }
    /* A section counts once the mark after it shows that its command ran. */
    if (strstr(all, MARK_OVERRIDES))
        t->clients = section(all, MARK_CLIENTS, txt->clients, sizeof txt->clients);
    if (strstr(all, MARK_FEATURES))
        t->overrides = section(all, MARK_OVERRIDES, txt->overrides, sizeof txt->overrides);
    if (status == 0) /* terminal-features known: tmux >= 3.2 */
        t->features = section(all, MARK_FEATURES, txt->features, sizeof txt->features);
}
