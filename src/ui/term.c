/*
 * term.c — swirl in a real terminal (see term.h).
 *
 * ncursesw sets the terminal up (locale, newterm, cbreak, no echo, the alternate
 * screen, cursor) and takes it down (endwin); our encoder paints every cell with
 * one write per frame, and nothing is ever drawn through curses after start-up,
 * so curses never repaints over our frame. Input is read as raw bytes (keypad
 * off) and parsed by input.c; mouse reporting (1002 button-motion + 1006 SGR) is
 * switched on and off by us, whatever terminfo says.
 *
 * Signals only set flags (the loop acts on them) — except crash signals, whose
 * handler writes the restore sequence, restores the saved termios and re-raises.
 * Ctrl-Z leaves the screen and our modes and re-enters them on SIGCONT.
 *
 * Pacing: frames on an absolute CLOCK_MONOTONIC schedule; between frames the loop
 * sleeps in poll() on stdin, so keys answer at once. Flow control: each frame is
 * followed by a DSR request (CSI 5 n); the terminal answers CSI 0 n only after it
 * has processed the frame, so while two answers are outstanding the link (e.g.
 * SSH) is behind and the next frame is skipped before it is encoded — the
 * simulation still runs and input stays responsive. A terminal that never
 * answers turns this off after a second.
 */
#include "term.h"
#include "cast.h"

#include <curses.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <term.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define MODES_ON "\x1b[?1002h\x1b[?1006h\x1b[?25l"
#define MODES_OFF "\x1b[?1006l\x1b[?1002l\x1b[?1000l\x1b[?2026l\x1b[0m\x1b[?25h"
#define CRASH_RESTORE MODES_OFF "\x1b[?1049l\r\n"
#define PING "\x1b[5n"
#define ESC_DELAY 0.05     /* a lone ESC this old is the Esc key */
#define MAX_IN_FLIGHT 2    /* frames sent but not yet acknowledged */
#define PING_GIVE_UP 1.0   /* no answer ever: the terminal does not do DSR */
#define PING_LOST 1.0      /* no answer for this long: count the pings as lost */
#define FEED_BYTES 16      /* input bytes parsed at a time (each gives <= 1 event) */
#define DRAIN_WAIT 0.3     /* on leaving, how long to wait for answers in flight */

static volatile sig_atomic_t sig_quit, sig_tstp, sig_winch;
static struct termios saved_tio;
static bool have_tio, screen_active;

double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN) {
                struct pollfd pf = {fd, POLLOUT, 0};
                poll(&pf, 1, 100);
                continue;
            }
            return; /* the terminal is gone (SIGHUP): nothing more to do */
        }
        p += w;
        n -= (size_t)w;
    }
}

static void on_quit(int sig) { sig_quit = sig; }
static void on_tstp(int sig)
{
    (void)sig;
    sig_tstp = 1;
}
static void on_winch(int sig)
{
    (void)sig;
    sig_winch = 1;
}
static void on_crash(int sig)
{
    if (screen_active) {
        ssize_t r = write(STDOUT_FILENO, CRASH_RESTORE, sizeof CRASH_RESTORE - 1);
        (void)r;
        if (have_tio)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_tio);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install(int sig, void (*fn)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

static void install_handlers(void)
{
    install(SIGINT, on_quit);
    install(SIGTERM, on_quit);
    install(SIGHUP, on_quit);
    install(SIGTSTP, on_tstp);
    install(SIGWINCH, on_winch);
    static const int crash[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t i = 0; i < sizeof crash / sizeof crash[0]; i++)
        install(crash[i], on_crash);
}

static void screen_leave(void)
{
    if (!screen_active)
        return;
    write_all(STDOUT_FILENO, MODES_OFF, sizeof MODES_OFF - 1);
    endwin();
    screen_active = false;
}

static void at_exit(void) { screen_leave(); }

static void screen_enter(void)
{
    refresh(); /* curses: program mode, alternate screen, cleared */
    write_all(STDOUT_FILENO, MODES_ON, sizeof MODES_ON - 1);
    screen_active = true;
}

static void term_size(int *cols, int *rows)
{
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0) {
        *cols = ws.ws_col;
        *rows = ws.ws_row;
    } else {
        getmaxyx(stdscr, *rows, *cols);
    }
}

enum color_mode term_detect_color(void)
{
    const char *nc = getenv("NO_COLOR");
    if (nc && *nc)
        return COLOR_MONO;
    const char *ct = getenv("COLORTERM");
    if (ct && (strcmp(ct, "truecolor") == 0 || strcmp(ct, "24bit") == 0))
        return COLOR_TRUE;
    if (tigetflag("RGB") > 0 || tigetflag("Tc") > 0)
        return COLOR_TRUE;
    int n = tigetnum("colors");
    if (n >= 256)
        return COLOR_256;
    if (n >= 16)
        return COLOR_16;
    if (n >= 8)
        return COLOR_8;
    return COLOR_MONO;
}

/* Output pacing by DSR round trips (see the top of the file). */
struct flow {
    int in_flight;
    bool answered;     /* the terminal has answered at least once */
    bool off;          /* it never does: pace by the clock alone */
    double first_ping; /* when the very first ping went out */
    double waiting;    /* since when the oldest unanswered ping has waited */
};

static bool flow_can_send(struct flow *f, double now)
{
    if (f->off || f->in_flight < MAX_IN_FLIGHT)
        return true;
    if (!f->answered && now - f->first_ping > PING_GIVE_UP) {
        f->off = true;
        return true;
    }
    if (now - f->waiting > PING_LOST) { /* an answer got lost: do not wait for it forever */
        f->in_flight = 0;
        return true;
    }
    return false;
}

static void flow_sent(struct flow *f, double now)
{
    if (f->first_ping == 0)
        f->first_ping = now;
    if (f->in_flight++ == 0)
        f->waiting = now;
}

static void flow_answered(struct flow *f, double now)
{
    f->in_flight = f->in_flight > 0 ? f->in_flight - 1 : 0;
    f->answered = true;
    f->waiting = now;
}

/*
 * The terminal answers our pings even after we stop reading, and an answer that
 * arrives once the shell has the terminal back is echoed as "^[[0n". So before
 * leaving the screen: ping once more and swallow input up to that last answer
 * (answers come in order), for at most DRAIN_WAIT, then flush what is left.
 */
static void drain_answers(struct flow *f)
{
    if (!f->off && f->answered) {
        write_all(STDOUT_FILENO, PING, sizeof PING - 1);
        int want = f->in_flight + 1, got = 0;
        struct input in;
        input_init(&in);
        double end = mono_now() + DRAIN_WAIT;
        while (got < want) {
            double left = end - mono_now();
            struct pollfd pf = {STDIN_FILENO, POLLIN, 0};
            if (left <= 0 || poll(&pf, 1, (int)(left * 1000.0) + 1) <= 0 || !(pf.revents & POLLIN))
                break;
            unsigned char b[FEED_BYTES];
            ssize_t n = read(STDIN_FILENO, b, sizeof b);
            if (n <= 0)
                break;
            struct input_event ev[FEED_BYTES];
            int ne = input_feed(&in, b, (size_t)n, ev, FEED_BYTES);
            for (int i = 0; i < ne; i++)
                got += ev[i].type == INPUT_PONG;
        }
        f->in_flight = 0;
    }
    tcflush(STDIN_FILENO, TCIFLUSH);
}

/* Events to the app; the terminal's answers to our pings to the flow control. */
static void dispatch(struct app *a, struct flow *f, const struct input_event *ev, int n,
                     double now)
{
    for (int i = 0; i < n; i++) {
        if (ev[i].type == INPUT_PONG)
            flow_answered(f, now);
        else
            app_input(a, &ev[i]);
    }
}

static void suspend(struct app *a, struct flow *f)
{
    drain_answers(f);
    screen_leave();
    install(SIGTSTP, SIG_DFL);
    raise(SIGTSTP);
    /* ... stopped here until SIGCONT ... */
    install(SIGTSTP, on_tstp);
    screen_enter();
    encode_invalidate(&a->enc);
    sig_winch = 1; /* the size may have changed meanwhile */
}

int term_run(struct app_opts *o, bool color_auto, const char *record)
{
    struct cast cast;
    bool recording = false;
    if (record) {
        int cols0 = 80, rows0 = 24;
        struct winsize ws;
        if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
            cols0 = ws.ws_col, rows0 = ws.ws_row;
        const char *t = getenv("TERM");
        if (cast_open(&cast, record, cols0, rows0, t, (long)time(NULL), "swirl") != 0) {
            fprintf(stderr, "swirl: cannot write %s: %s\n", record, strerror(errno));
            return 2;
        }
        recording = true;
    }
    have_tio = tcgetattr(STDIN_FILENO, &saved_tio) == 0;
    install_handlers(); /* before newterm, so ncurses keeps its hands off them */
    SCREEN *scr = newterm(NULL, stdout, stdin);
    if (!scr) {
        const char *t = getenv("TERM");
        fprintf(stderr, "swirl: unknown terminal type '%s'\n", t ? t : "");
        if (recording)
            cast_close(&cast);
        return 2;
    }
    if (color_auto)
        o->color = term_detect_color();
    cbreak();
    noecho();
    nonl();
    intrflush(stdscr, FALSE);
    keypad(stdscr, FALSE);
    nodelay(stdscr, TRUE);
    curs_set(0);
    atexit(at_exit);
    screen_enter();

    int cols, rows;
    term_size(&cols, &rows);
    resize_term(rows, cols);
    struct app a;
    if (app_init(&a, o, cols, rows) != 0) {
        screen_leave();
        delscreen(scr);
        fprintf(stderr, "swirl: cannot start the scene\n");
        return 1;
    }
    struct input in;
    input_init(&in);
    struct buf out;
    buf_init(&out);
    struct flow flow = {0};
    double period = 1.0 / o->fps, t0 = mono_now(), next = t0, last_byte = t0;
    a.fps_t0 = t0;
    if (recording)
        cast_output(&cast, 0.0, "\x1b[?25l", 6);

    while (!a.quit && !sig_quit) {
        double now = mono_now();
        /* Input: raw bytes through our parser. */
        unsigned char bytes[512];
        size_t nb = 0;
        int ch;
        while (nb < sizeof bytes && (ch = getch()) != ERR)
            if (ch >= 0 && ch < 256)
                bytes[nb++] = (unsigned char)ch;
        struct input_event ev[FEED_BYTES];
        for (size_t off = 0; off < nb; off += FEED_BYTES) {
            size_t chunk = nb - off < FEED_BYTES ? nb - off : FEED_BYTES;
            dispatch(&a, &flow, ev, input_feed(&in, bytes + off, chunk, ev, FEED_BYTES), now);
        }
        if (nb)
            last_byte = now;
        else if (input_pending(&in) && now - last_byte >= ESC_DELAY)
            dispatch(&a, &flow, ev, input_flush(&in, ev, FEED_BYTES), now);
        if (a.quit || sig_quit)
            break;
        if (sig_tstp) {
            sig_tstp = 0;
            suspend(&a, &flow);
            now = mono_now();
            next = now;
            flow.in_flight = 0;
        }
        if (sig_winch) {
            sig_winch = 0;
            term_size(&cols, &rows);
            resize_term(rows, cols);
            app_resize(&a, cols, rows);
            a.dirty = true;
            if (recording)
                cast_resize(&cast, now - t0, cols, rows);
        }
        if (now >= next) {
            app_advance(&a, period, mono_now);
            bool changed = !a.paused || a.dirty || !a.enc.valid;
            if (changed && flow_can_send(&flow, now)) {
                if (!a.paused) {
                    a.fps_frames++;
                    if (now - a.fps_t0 >= 1.0) {
                        a.fps = a.fps_frames / (now - a.fps_t0);
                        a.fps_t0 = now, a.fps_frames = 0;
                    }
                }
                app_compose(&a);
                buf_clear(&out);
                size_t n = app_encode(&a, &out);
                a.dirty = false;
                if (n) {
                    if (recording)
                        cast_output(&cast, now - t0, out.p, out.len);
                    if (!flow.off) {
                        buf_puts(&out, PING);
                        flow_sent(&flow, now);
                    }
                    write_all(STDOUT_FILENO, out.p, out.len);
                    a.bytes += n;
                }
                a.frames++;
            } else if (changed) {
                a.frames_skipped++;
            }
            next += period;
            if (now > next + period)
                next = now + period; /* fell behind: drop the schedule, not frames of input */
        }
        double wait = next - mono_now();
        if (input_pending(&in) && wait > ESC_DELAY)
            wait = ESC_DELAY;
        if (wait > 0) {
            struct pollfd pf = {STDIN_FILENO, POLLIN, 0};
            if (poll(&pf, 1, (int)(wait * 1000.0) + 1) > 0 && (pf.revents & (POLLHUP | POLLNVAL)))
                break; /* the terminal is gone (no SIGHUP came): stop, do not spin */
        }
    }

    drain_answers(&flow);
    screen_leave();
    delscreen(scr);
    app_free(&a);
    buf_free(&out);
    if (recording) {
        cast_output(&cast, mono_now() - t0, "\x1b[0m\x1b[?25h", 10);
        if (cast_close(&cast) != 0) {
            fprintf(stderr, "swirl: writing %s failed\n", record);
            return 1;
        }
    }
    return sig_quit ? 128 + sig_quit : 0; /* the shell's convention for a signal */
}
