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
 * With -a it answers the start-up questions too, as a terminal with 24-bit
 * colour and synchronized output does: DECRQSS m with our colour, XTGETTCAP
 * RGB known (Tc not), DECRQM 2026 reset, and DA1.
 *
 * With -d ROUND_TRIP_SECONDS every answer reaches the command that long after
 * the question was drained (a link with a round trip: the answers queue
 * behind one another on the way back, in order).
 *
 * With -k SIGNAL (a number) the command gets that signal instead of the q.
 * With -k or -d the pty stays open after the command has gone, as a
 * terminal's does for the shell: the link goes on draining (and answering)
 * for SETTLE seconds more than the round trip, and `echoed` counts the
 * answers to status requests that the tty then echoed (^[[0n, or ESC [ 0 n),
 * `left` every byte that reached the tty after the command stopped reading
 * it (what the shell would get: answers, echoed or not).
 *
 *   slowpty [-s STALL_SECONDS] [-k SIGNAL] [-d ROUND_TRIP_SECONDS] [-a]
 *           BYTES_PER_SECOND QUIT_AFTER_SECONDS COMMAND [ARG...]
 *
 * Prints one JSON line: {"rate":..,"quit_latency":..,"bytes_after_quit":..,
 * "left_screen":true|false,"exit_latency":..,"echoed":..,"left":..,
 * "answers":..,"sync_begun":..,"sync_ended":..,"drained":..} (the last but
 * one: the synchronized updates begun, CSI ?2026h, and ended, CSI ?2026l). Exit status 0 when the command left the screen
 * and ended, 1 otherwise. The pane is 100x30, TERM xterm-256color.
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
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define TICK 0.005     /* s between reads */
#define GIVE_UP 30.0   /* s after q */
#define DRAIN_ALL 65536.0 /* bytes a read may take */
#define SETTLE 1.0     /* s the link goes on after the command has gone (-k, -d) */
#define QUEUE 4096     /* answers on their way back at most */

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

/* The questions a terminal answers, and its answers: the status and cursor
 * requests always; the start-up questions with -a (a DCS question is known
 * by its start: its ST follows). */
static const struct {
    const char *ask, *answer;
    bool start_up;
} questions[] = {
    {"\x1b[5n", "\x1b[0n", false},
    {"\x1b[6n", "\x1b[1;1R", false},
    {"\x1bP$qm", "\x1bP1$r0;48:2::123:45:67m\x1b\\", true},
    {"\x1bP+q524742", "\x1bP1+r524742=382F382F38\x1b\\", true},
    {"\x1bP+q5463", "\x1bP0+r5463\x1b\\", true},
    {"\x1b[?2026$p", "\x1b[?2026;2$y", true},
    {"\x1b[c", "\x1b[?62;22c", true},
};
#define NQUESTIONS (sizeof questions / sizeof questions[0])

/* Answers on their way back, in order: each reaches the tty at its time. */
static struct {
    const char *bytes;
    double due;
} queue[QUEUE];
static size_t q_head, q_len;

static void answer_later(const char *bytes, double due)
{
    if (q_len == QUEUE)
        return; /* more than a link holds: lost on the way */
    size_t k = (q_head + q_len++) % QUEUE;
    queue[k].bytes = bytes, queue[k].due = due;
}

/* The answers due by t written to the tty; false when it is gone. */
static bool deliver(int master, double t, long long *answers)
{
    while (q_len > 0 && queue[q_head].due <= t) {
        const char *b = queue[q_head].bytes;
        if (write(master, b, strlen(b)) != (ssize_t)strlen(b))
            return false;
        q_head = (q_head + 1) % QUEUE, q_len--;
        (*answers)++;
    }
    return true;
}

/* What waits in the tty for a reader (the shell, once the command has gone),
 * read off it in raw mode: in canonical mode a read would wait for a line. */
static long long unread(int fd)
{
    struct termios tio;
    if (tcgetattr(fd, &tio) != 0)
        return -1;
    tio.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
    tio.c_cc[VMIN] = 0, tio.c_cc[VTIME] = 0;
    if (tcsetattr(fd, TCSANOW, &tio) != 0)
        return -1;
    long long n = 0;
    char buf[4096];
    ssize_t r;
    while ((r = read(fd, buf, sizeof buf)) > 0)
        n += r;
    return n;
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
    double stall = -1.0, delay = 0.0;
    int sig = 0;
    bool start_up = false;
    while (argc > 1 && argv[1][0] == '-' && strchr("skda", argv[1][1]) && argv[1][1] &&
           !argv[1][2]) {
        char o = argv[1][1];
        if (o == 'a') {
            start_up = true;
            argc--, argv++;
            continue;
        }
        if (argc < 3)
            break;
        if (o == 's')
            stall = atof(argv[2]);
        else if (o == 'k')
            sig = atoi(argv[2]);
        else
            delay = atof(argv[2]);
        argc -= 2, argv += 2;
    }
    if (argc < 4) {
        fprintf(stderr, "usage: slowpty [-s STALL_SECONDS] [-k SIGNAL] [-d ROUND_TRIP_SECONDS] "
                        "[-a] BYTES_PER_SECOND QUIT_AFTER_SECONDS COMMAND [ARG...]\n");
        return 2;
    }
    double rate = atof(argv[1]), quit_after = atof(argv[2]);
    int master;
    pid_t pid = spawn(&master, argv + 3);
    if (pid < 0) {
        perror("slowpty: forkpty");
        return 1;
    }
    /* -k, -d: the tty outlives the command, its modes as the command left them. */
    int keep = sig || delay > 0.0 ? open(ptsname(master), O_RDWR | O_NOCTTY) : -1;
    fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
    struct matcher asked[NQUESTIONS];
    for (size_t k = 0; k < NQUESTIONS; k++)
        asked[k] = (struct matcher){questions[k].ask, 0};
    struct matcher left = {"\x1b[?1049l", 0};
    struct matcher bsu = {"\x1b[?2026h", 0}, esu = {"\x1b[?2026l", 0};
    struct matcher echo_ctl = {"^[[0n", 0}, echo_raw = {"\x1b[0n", 0};
    double t0 = now(), t_quit = -1, t_left = -1, t_exit = -1, credit = 0;
    long long drained = 0, at_quit = 0, at_left = 0, echoed = 0, answers = 0;
    long long begun = 0, ended = 0; /* synchronized updates */
    int status = 0;
    for (;;) {
        double t = now();
        if (t_exit < 0 && waitpid(pid, &status, WNOHANG) == pid)
            t_exit = t;
        if (keep >= 0 && t_exit >= 0 && t - t_exit > SETTLE + delay)
            break;
        if (!deliver(master, t, &answers))
            break;
        /* Answers go back while the command runs, and with -k or -d after it too. */
        bool answer = t_exit < 0 || keep >= 0;
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
            for (size_t k = 0; k < NQUESTIONS; k++)
                if (match(&asked[k], buf[i]) && answer && (start_up || !questions[k].start_up))
                    answer_later(questions[k].answer, t + delay);
            begun += match(&bsu, buf[i]);
            ended += match(&esu, buf[i]);
            if (t_quit >= 0 && t_left < 0 && match(&left, buf[i]))
                t_left = now(), at_left = drained;
            if (t_left >= 0 && (match(&echo_ctl, buf[i]) || match(&echo_raw, buf[i])))
                echoed++;
        }
        if (!deliver(master, t, &answers)) /* those with no delay at once */
            break;
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
    long long unread_bytes = keep >= 0 ? unread(keep) : -1;
    if (keep >= 0)
        close(keep);
    printf("{\"rate\":%.0f,\"quit_latency\":%.3f,\"bytes_after_quit\":%lld,\"left_screen\":%s,"
           "\"exit_latency\":%.3f,\"echoed\":%lld,\"left\":%lld,\"answers\":%lld,"
           "\"sync_begun\":%lld,\"sync_ended\":%lld,\"drained\":%lld}\n",
           rate, t_left >= 0 ? t_left - t_quit : -1.0, t_left >= 0 ? at_left - at_quit : -1LL,
           t_left >= 0 ? "true" : "false", t_exit >= 0 && t_quit >= 0 ? t_exit - t_quit : -1.0,
           echoed, unread_bytes, answers, begun, ended, drained);
    return t_left >= 0 && t_exit >= 0 ? 0 : 1;
}
