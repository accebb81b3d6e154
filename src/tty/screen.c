/*
 * screen.c — the terminal's screen and modes for swirl's life (see screen.h):
 * curses' program mode and the alternate screen entered and left, our modes
 * (mouse reporting, the cursor), the way our bytes go to the terminal, the
 * window's size, and the terminal as it was on every way out: on leaving, on
 * Ctrl-Z, and in the handler of a fatal signal (crash_restore), where the
 * answers still on their way are swallowed through the one reader before the
 * tty echoes again.
 */
#include "screen.h"
#include "buf.h"
#include "flow.h"
#include "pixels.h"
#include "reader.h"
#include "signals.h"
#include "term.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>

/* The scrolling region the whole window (CSI r), going in and coming out:
 * curses sets it to the lines it knows, which are the terminal type's
 * (term.c keeps its windows that small), and leaves it so; a region short of
 * the window would scroll a sixel picture within it, and the shell's lines
 * after swirl. (It homes the cursor: both times on the alternate screen.) */
#define MODES_ON "\x1b[r\x1b[?1002h\x1b[?1006h\x1b[?25l"
#define MODES_OFF "\x1b[r\x1b[?1006l\x1b[?1002l\x1b[?1000l\x1b[0m\x1b[?25h"
#define CRASH_RESTORE MODES_OFF "\x1b[?1049l\r\n"
#define FENCE "\x1b[c"    /* on leaving: DA1, answered after every ping before it */
#define FENCE_GRACE 0.02   /* s swallowed after the last fence's answer (a second
                            * DA1 comes with the first) */
#define WRITE_WAIT 0.2     /* s a restore sequence may wait for room on the way */
/* ... and, after a CAN for a sequence cut short, its end: begun once more
 * first, as a flush may have dropped the start (the mode does not nest: an
 * update begun twice ends at once), so the terminal never sees an end it did
 * not see begin. */
#define CUT_SYNC "\x18\x1b[?2026h\x1b[?2026l"

static volatile sig_atomic_t sig_winch;
/* Where our bytes go: the terminal opened once more, non-blocking (a file
 * description of our own, so the shell's stays as it was), or stdout. */
static int out_fd = STDOUT_FILENO;
/* How long answers on their way may be waited for on leaving (ms; 0: none
 * will come), and how many DA1 answers they end with: the fence's, and the
 * start-up questions' if it has not come yet. Kept for a fatal signal's
 * handler, which cannot ask the flow control. */
static volatile sig_atomic_t drain_ms;
static volatile sig_atomic_t fences_due = 1;
static struct termios saved_tio;
static bool have_tio;
static volatile sig_atomic_t screen_active;
/* A frame's CSI ?2026h is out and its l is not: whoever leaves the screen ends
 * the update (only then: kitty complains of an end never begun, st of every
 * mark it does not know). */
static volatile sig_atomic_t sync_open;

/* Writes to the terminal, waiting at most WRITE_WAIT for room: a link that
 * takes nothing that long (stopped) loses what is left, as does one that is
 * gone (SIGHUP). */
void screen_write(const char *p, size_t n) { buf_write_fd(out_fd, p, n, WRITE_WAIT); }

/*
 * The terminal answers our pings even after we stop reading, and an answer that
 * arrives once the shell has the terminal back is echoed as "^[[0n". So before
 * the tty echoes again: ask DA1 (the fence) and swallow input, through the one
 * reader and parser, up to `fences` of its answers (the start-up questions end
 * with one too, and it may not have come yet), for at most `wait` s, or
 * FLOW_DRAIN_MAX once it is seen answering; then a moment more (FENCE_GRACE:
 * a terminal or a multiplexer may answer DA1 twice).
 * Answers come in order, so every ping's that is coming has come by then,
 * however many went out and whatever a flush dropped on the way.
 * Async-signal-safe (write, and the reader: poll, read, the clock, the parser's
 * arithmetic), so a fatal signal's handler swallows the same way.
 */
static void swallow_answers(double wait, int fences)
{
    if (wait <= 0.0 || write(out_fd, FENCE, sizeof FENCE - 1) != (ssize_t)sizeof FENCE - 1)
        return;
    struct input in;
    input_init(&in);
    double start = buf_now(), end = start + wait;
    for (;;) {
        double left = end - buf_now();
        if (left <= 0.0)
            return;
        struct input_event ev[64];
        size_t nb;
        int n = reader_read(STDIN_FILENO, &in, left, ev, 64, &nb);
        if (n == READER_GONE || nb == 0)
            return;
        for (int i = 0; i < n && fences > 0; i++) {
            if (ev[i].type == INPUT_ANSWER && ev[i].answer.kind == ANSWER_DA1 && --fences == 0)
                end = buf_now() + FENCE_GRACE;
            else if (input_is_answer(ev[i].type) && end < start + FLOW_DRAIN_MAX)
                end = start + FLOW_DRAIN_MAX; /* it answers: its fence will come */
        }
    }
}

static void on_winch(int sig)
{
    (void)sig;
    sig_winch = 1;
}

/* In the handler of a fatal signal: the terminal as it was (async-signal-safe).
 * What is queued for the terminal goes (a stopped link would keep the restore
 * behind it); then the answers still on their way are swallowed while the
 * terminal does not echo, and what input is left is dropped, so none of it
 * reaches the shell. TCSANOW: TCSAFLUSH would wait for the output to drain. */
static void crash_restore(void)
{
    if (screen_active) {
        tcflush(out_fd, TCOFLUSH);
        ssize_t c = sync_open ? write(out_fd, CUT_SYNC, sizeof CUT_SYNC - 1)
                              : write(out_fd, "\x18", 1);
        pixels_leave(out_fd);
        ssize_t r = write(out_fd, CRASH_RESTORE, sizeof CRASH_RESTORE - 1);
        (void)c, (void)r;
        swallow_answers(drain_ms / 1000.0, fences_due); /* at most FLOW_DRAIN_MAX */
        if (have_tio)
            tcsetattr(STDIN_FILENO, TCSANOW, &saved_tio);
        tcflush(STDIN_FILENO, TCIFLUSH);
        screen_active = false;
    }
}

static void install_handlers(atomic_int *stop)
{
    signals_install(crash_restore);
    signals_set_stop(stop);
    signals_install_stop();
    signals_set(SIGWINCH, on_winch, NULL);
}

/* Out of our modes and the alternate screen; then, while the tty still does
 * not echo, the answers on their way swallowed (for at most `wait` s); then
 * curses gives the tty back (its own leaving of the alternate screen comes
 * to nothing: it has been left). */
void screen_leave(double wait)
{
    if (!screen_active)
        return;
    if (sync_open)
        screen_write(CUT_SYNC, sizeof CUT_SYNC - 1);
    sync_open = 0;
    const char *rmcup = tigetstr("rmcup");
    pixels_leave(out_fd);
    screen_write(MODES_OFF, sizeof MODES_OFF - 1);
    if (rmcup && rmcup != (char *)-1)
        screen_write(rmcup, strlen(rmcup));
    swallow_answers(wait, fences_due);
    tcflush(STDIN_FILENO, TCIFLUSH);
    endwin();
    screen_active = false;
}

static void at_exit(void) { screen_leave(0.0); }

/* Ctrl-S and Ctrl-Q are keys, not the tty's flow control (IXON would stop our
 * output at Ctrl-S, q and all, until a Ctrl-Q). Kept as curses' program mode,
 * which it puts back after Ctrl-Z; endwin puts the shell's back (the saved
 * termios on a fatal signal). */
static void flow_keys_off(void)
{
    struct termios tio;
    if (tcgetattr(STDIN_FILENO, &tio) == 0 && (tio.c_iflag & (IXON | IXOFF))) {
        tio.c_iflag &= ~(tcflag_t)(IXON | IXOFF);
        tcsetattr(STDIN_FILENO, TCSANOW, &tio);
        def_prog_mode();
    }
}

void screen_enter(void)
{
    refresh(); /* curses: program mode, alternate screen, cleared */
    flow_keys_off();
    screen_write(MODES_ON, sizeof MODES_ON - 1);
    screen_active = true;
}

/* Our own non-blocking way to the terminal (else stdout, blocking). */
void screen_output_open(void)
{
    const char *name = ttyname(STDOUT_FILENO);
    int fd = name ? open(name, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC) : -1;
    if (fd >= 0)
        out_fd = fd;
}

void screen_output_close(void)
{
    int fd = out_fd;
    out_fd = STDOUT_FILENO;
    if (fd != STDOUT_FILENO)
        close(fd);
}

/* The window's size, at most TERM_COLS_MAX x TERM_ROWS_MAX. */
void screen_size(int *cols, int *rows)
{
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0) {
        *cols = ws.ws_col;
        *rows = ws.ws_row;
    } else {
        getmaxyx(stdscr, *rows, *cols);
    }
    *cols = *cols < TERM_COLS_MAX ? *cols : TERM_COLS_MAX;
    *rows = *rows < TERM_ROWS_MAX ? *rows : TERM_ROWS_MAX;
}

/* A window too large to draw, refused before curses allocates its screens. */
bool screen_too_large(void)
{
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0 ||
        (ws.ws_col <= TERM_COLS_MAX && ws.ws_row <= TERM_ROWS_MAX))
        return false;
    buf_warn("the window is %ux%u; swirl draws at most %dx%d (curses keeps screens of it, "
             "and a frame would be megabytes)",
             (unsigned)ws.ws_col, (unsigned)ws.ws_row, TERM_COLS_MAX, TERM_ROWS_MAX);
    return true;
}

int screen_fd(void) { return out_fd; }

void screen_cut(bool began)
{
    screen_write(began ? CUT_SYNC : "\x18", began ? sizeof CUT_SYNC - 1 : 1);
    sync_open = 0;
}

void screen_sync_open(bool open) { sync_open = open; }

void screen_drain(double wait) { drain_ms = (sig_atomic_t)(wait * 1000.0); }

void screen_owe_fences(int n) { fences_due = n; }

bool screen_winched(void)
{
    bool w = sig_winch;
    sig_winch = 0;
    return w;
}

void screen_winch(void) { sig_winch = 1; }

void screen_install(atomic_int *stop)
{
    have_tio = tcgetattr(STDIN_FILENO, &saved_tio) == 0;
    install_handlers(stop); /* before newterm, so ncurses keeps its hands off them */
}

void screen_program_mode(void)
{
    cbreak();
    noecho();
    nonl();
    intrflush(stdscr, FALSE);
    keypad(stdscr, FALSE);
    nodelay(stdscr, TRUE);
    curs_set(0);
    atexit(at_exit);
    screen_enter();
}
