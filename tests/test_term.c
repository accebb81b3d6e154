/*
 * test_term.c — the terminal side's choices: the colour depth from the
 * environment (unit), and swirl inside GNU screen (end to end, in tmux).
 */
#define _XOPEN_SOURCE 700 /* posix_openpt */

#include "e2e.h"
#include "probe.h"
#include "signals.h"
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
#include <unistd.h>

static enum color_mode choose(const char *colorterm, const char *term, const char *sty,
                              const char *tmux, bool rgb, int colors)
{
    struct probe_env e = {.colorterm = colorterm, .term = term, .sty = sty, .tmux = tmux,
                          .rgb = rgb, .colors = colors};
    return probe_choose(&e, NULL);
}

TEST(term_colour_depth_from_the_environment)
{
    struct probe_env mono = {.no_color = "1", .colorterm = "truecolor",
                             .term = "xterm-256color", .rgb = true, .colors = 256};
    CHECK_INT(probe_choose(&mono, NULL), COLOR_MONO);
    CHECK_INT(choose("truecolor", "xterm-256color", NULL, NULL, false, 256), COLOR_TRUE);
    CHECK_INT(choose("24bit", "xterm", NULL, NULL, false, 8), COLOR_TRUE);
    CHECK_INT(choose(NULL, "xterm-direct", NULL, NULL, true, 16777216), COLOR_TRUE);
    CHECK_INT(choose(NULL, "xterm-256color", NULL, NULL, false, 256), COLOR_256);
    CHECK_INT(choose(NULL, "vt100", NULL, NULL, false, -1), COLOR_MONO);
    /* TERM=xterm: terminfo says 8, xterm has 16. */
    CHECK_INT(choose(NULL, "xterm", NULL, NULL, false, 8), COLOR_16);
    CHECK_INT(choose(NULL, "xterm-color", NULL, NULL, false, 8), COLOR_8);
    CHECK_INT(choose(NULL, "linux", NULL, NULL, false, 8), COLOR_8);
    /* tmux, not asked: COLORTERM inherited from outside is not believed (tmux
     * maps 24-bit to 256 itself unless it knows its client has RGB). */
    CHECK_INT(choose("truecolor", "tmux-256color", NULL, "/tmp/tmux-0/default,1,0", false, 256),
              COLOR_256);
    CHECK_INT(choose("truecolor", "screen-256color", NULL, "/tmp/tmux-0/default,1,0", false,
                     256), COLOR_256); /* an old tmux's TERM */
}

TEST(term_gnu_screen_gets_256_colours_whatever_colorterm_says)
{
    CHECK_INT(choose("truecolor", "screen-256color", "1234.pts-0.host", NULL, false, 256),
              COLOR_256);
    CHECK_INT(choose("truecolor", "screen-256color", NULL, NULL, false, 256), COLOR_256);
    CHECK_INT(choose("truecolor", "screen", "1234.pts-0.host", NULL, false, 8), COLOR_8);
    CHECK_INT(choose("truecolor", "screen.xterm-256color", NULL, NULL, true, 256), COLOR_256);
    /* screen inside tmux (STY and TMUX both inherited): TERM says screen is
     * nearest; tmux inside screen: TERM says tmux is. */
    CHECK_INT(choose("truecolor", "screen-256color", "1.pts-0.h", "/tmp/t,1,0", false, 256),
              COLOR_256);
    CHECK_INT(choose("truecolor", "tmux-256color", "1.pts-0.h", "/tmp/t,1,0", false, 256),
              COLOR_256);
}

/* The background colour codes of one capture line. */
static int distinct_bgs(const char *line, char seen[][24], int max)
{
    int n = 0;
    for (const char *p = line; (p = strstr(p, "\x1b[")) != NULL; p++) {
        const char *m = strstr(p, "48;5;");
        const char *end = strchr(p, 'm');
        if (!m || !end || m > end)
            continue;
        char code[24];
        snprintf(code, sizeof code, "%.*s", (int)(end - m), m);
        bool known = false;
        for (int i = 0; i < n && !known; i++)
            known = strcmp(seen[i], code) == 0;
        if (!known && n < max)
            snprintf(seen[n++], 24, "%s", code);
    }
    return n;
}

static bool cleared(const char *screen, void *arg)
{
    (void)arg;
    char line[4096], seen[8][24];
    for (int r = 2; r < 26; r++) {
        e2e_line_of(screen, r, line, sizeof line);
        if (strstr(line, "38;2;") || strstr(line, "48;2;") || distinct_bgs(line, seen, 8) > 1)
            return false;
    }
    return true;
}

/* Inside GNU screen 4 with COLORTERM=truecolor inherited from the outer
 * terminal: 256 colours, a clean cleared dye canvas and a readable HUD. */
TEST_E2E(term_swirl_inside_gnu_screen)
{
    if (system("command -v screen >/dev/null 2>&1") != 0)
        test_skip("no GNU screen");
    CHECK(e2e_start(100, 30, "env TERM=xterm-256color COLORTERM=truecolor LANG=C.UTF-8 "
                             "LC_ALL=C.UTF-8 screen -q -c /dev/null -T screen-256color ./swirl; "
                             "sleep 60"));
    CHECK_MSG(e2e_wait_for(e2e_plain, "ms/step"), "no HUD:\n%s", e2e_plain());
    CHECK(e2e_wait_for(e2e_plain, " dye "));
    e2e_send_key("c");
    CHECK_MSG(e2e_wait(e2e_screen, cleared, NULL, E2E_DEADLINE), "not one colour:\n%s",
              e2e_screen());
    e2e_send_key("q");
    e2e_stop();
}

/* An unknown TERM is named in the error with its control characters escaped:
 * `TERM=$'x\e]0;pwned\a'` must not retitle the window. */
TEST_E2E(term_unknown_terminal_type_is_shown_escaped)
{
    if (system("command -v script >/dev/null 2>&1") != 0)
        test_skip("no script(1)");
    char err[64];
    snprintf(err, sizeof err, "/tmp/swirl-term-%d.err", (int)getpid());
    e2e_sh("TERM=\"$(printf 'x\\033]0;pwned\\007')\" script -qec './swirl 2>%s' /dev/null "
           ">/dev/null 2>&1", err);
    size_t n;
    char *said = e2e_slurp(err, &n);
    CHECK_MSG(said && strstr(said, "unknown terminal type 'x\\x1b]0;pwned\\x07'") &&
                  !strchr(said, 0x1b) && !strchr(said, 0x07), "stderr: %s", said ? said : "");
    free(said);
    remove(err);
}

static char swirl_pid[32];
/* The process state of swirl ("T" when stopped). */
static const char *swirl_stat(void)
{
    static char st[64];
    char cmd[96];
    snprintf(cmd, sizeof cmd, "ps -o stat= -p %s", swirl_pid);
    FILE *p = popen(cmd, "r");
    size_t n = p ? fread(st, 1, sizeof st - 1, p) : 0;
    if (p)
        pclose(p);
    st[n] = 0;
    return st;
}

/* SIGTSTP and at once SIGCONT (a quick Ctrl-Z and bg, or a script): swirl
 * does not stop for good once the loop gets to the stop; it takes keys. (The
 * signals mostly come too close together to land between the handler and
 * the loop's stop, where the bug was: term_sigcont_cancels_a_stop_not_yet_taken
 * checks that part; this checks the whole runs on.) */
TEST_E2E(term_quick_stop_and_continue_does_not_leave_swirl_stopped)
{
    /* swirl in a process group of its own whose parent, in the same session,
     * only waits for it to end (sh -m makes its own group and takes the
     * terminal, then execs swirl; the pane's sh has no job control). In the
     * pane's own group, which is orphaned, the kernel would drop the stop. So
     * a stop comes only from swirl itself, and nobody else continues it. */
    CHECK(e2e_start(100, 30, "env TERM=tmux-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 "
                             "COLORTERM=truecolor sh -mc 'exec ./swirl'; "
                             "echo SWIRL-EXIT=\\$?; sleep 60"));
    CHECK_MSG(e2e_wait_for(e2e_plain, "ms/step"), "no HUD:\n%s", e2e_plain());
    char pane[32];
    snprintf(pane, sizeof pane, "%s", e2e_tmux("display -p -t e '#{pane_pid}'"));
    pane[strcspn(pane, "\n")] = 0;
    char cmd[96];
    snprintf(cmd, sizeof cmd, "pgrep -s %s -x swirl", pane); /* the pane's session */
    FILE *p = popen(cmd, "r");
    size_t n = p ? fread(swirl_pid, 1, sizeof swirl_pid - 1, p) : 0;
    if (p)
        pclose(p);
    swirl_pid[n] = 0;
    swirl_pid[strcspn(swirl_pid, "\n")] = 0;
    CHECK(swirl_pid[0]);
    for (int k = 0; k < 3 && swirl_pid[0]; k++) {
        e2e_sh("kill -TSTP %s; kill -CONT %s", swirl_pid, swirl_pid);
        e2e_send_key("Space"); /* pause, then resume: the HUD says which */
        bool took = e2e_wait_for(e2e_plain, " paused ");
        CHECK_MSG(took, "round %d: no keys taken (state '%s'):\n%s", k, swirl_stat(),
                  e2e_plain());
        if (!took)
            break;
        e2e_send_key("Space");
        CHECK_MSG(e2e_wait_gone(e2e_plain, " paused "), "round %d: state %s", k, swirl_stat());
        CHECK_MSG(!strchr(swirl_stat(), 'T'), "round %d: stopped", k);
    }
    e2e_send_key("q");
    CHECK(e2e_wait_for(e2e_plain, "SWIRL-EXIT=0"));
    if (swirl_pid[0])
        e2e_sh("kill -CONT %s 2>/dev/null", swirl_pid); /* were it left stopped */
    e2e_stop();
}

/* The stop's bookkeeping, with the signals raised here (a caught signal's
 * handler runs before raise returns): a SIGCONT after a SIGTSTP cancels the
 * stop the loop has not taken yet; a SIGTSTP after a SIGCONT asks again. */
TEST(term_sigcont_cancels_a_stop_not_yet_taken)
{
    signals_install_stop();
    CHECK(!signals_stop_asked() && !signals_stop_wanted());
    raise(SIGTSTP);
    CHECK(signals_stop_asked() && signals_stop_wanted());
    raise(SIGCONT);
    CHECK_MSG(signals_stop_asked() && !signals_stop_wanted(), "continued, yet a stop is due");
    signals_stop_taken();
    CHECK(!signals_stop_asked() && !signals_stop_wanted());
    raise(SIGCONT);
    raise(SIGTSTP);
    CHECK(signals_stop_asked() && signals_stop_wanted());
    raise(SIGCONT);
    raise(SIGCONT);
    CHECK(!signals_stop_wanted());
}

/* ./swirl on a pseudo-terminal of cols x rows; what it wrote to it (stdout
 * and stderr both) into out, its exit status returned (-1: it did not end
 * within 20 s and was killed). */
static int run_on_pty(int cols, int rows, char *out, size_t cap)
{
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0)
        return -2;
    struct winsize ws = {.ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols};
    ioctl(master, TIOCSWINSZ, &ws);
    char name[128];
    snprintf(name, sizeof name, "%s", ptsname(master));
    fflush(stdout);
    pid_t kid = fork();
    if (kid == 0) {
        setsid();
        int fd = open(name, O_RDWR);
        if (fd < 0)
            _exit(90);
        dup2(fd, 0), dup2(fd, 1), dup2(fd, 2);
        setenv("TERM", "xterm-256color", 1);
        execl("./swirl", "swirl", "--scene", "pbf", (char *)NULL);
        _exit(91);
    }
    size_t n = 0;
    int status = 0;
    bool ended = false;
    for (int k = 0; k < 2000 && !ended; k++) { /* 20 s at most */
        struct pollfd pf = {master, POLLIN, 0};
        if (poll(&pf, 1, 10) > 0 && (pf.revents & POLLIN)) {
            ssize_t r = read(master, out + n, cap - 1 - n);
            n += r > 0 ? (size_t)r : 0;
        }
        ended = waitpid(kid, &status, WNOHANG) == kid;
    }
    struct pollfd pf = {master, POLLIN, 0};
    while (n + 1 < cap && poll(&pf, 1, 50) > 0 && (pf.revents & POLLIN)) {
        ssize_t r = read(master, out + n, cap - 1 - n);
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    out[n] = 0;
    if (!ended) {
        kill(kid, SIGKILL);
        waitpid(kid, &status, 0);
    }
    close(master);
    return ended && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A window too large to draw (30000x30000: curses took 7 GB for it, then
 * failed with the wrong reason) is refused at once in one line, with its
 * size and the limit, exit 2, and nothing written to the terminal but it. */
TEST(term_a_window_too_large_is_refused_before_curses)
{
    if (access("./swirl", X_OK) != 0)
        test_skip("no ./swirl");
    char out[4096];
    int rc = run_on_pty(30000, 30000, out, sizeof out);
    if (rc == -2)
        test_skip("no pseudo-terminal");
    CHECK_INT(rc, 2);
    char want[96];
    snprintf(want, sizeof want, "the window is 30000x30000; swirl draws at most %dx%d",
             TERM_COLS_MAX, TERM_ROWS_MAX);
    CHECK_MSG(strstr(out, want) != NULL, "it said: %s", out);
    CHECK_MSG(strchr(out, 0x1b) == NULL, "it wrote sequences to the terminal: %s", out);
    /* One past the limit in either direction is too large too. */
    CHECK_INT(run_on_pty(TERM_COLS_MAX + 1, 24, out, sizeof out), 2);
    CHECK_INT(run_on_pty(80, TERM_ROWS_MAX + 1, out, sizeof out), 2);
}
