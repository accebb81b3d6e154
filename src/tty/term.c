/*
 * term.c — swirl in a real terminal (see term.h).
 *
 * The loop of swirl in a terminal. The screen and its modes, and the terminal
 * as it was on every way out (on leaving, on Ctrl-Z, in a fatal signal's
 * handler), are screen.c's: ncursesw sets the terminal up and takes it down,
 * our encoder paints every cell with one write per frame, and nothing is ever
 * drawn through curses after start-up. Every byte the terminal sends is read
 * by the one reader and parsed by the one parser (reader.h, input.h); mouse
 * reporting (1002 button-motion + 1006 SGR) is switched on and off by us,
 * whatever terminfo says.
 *
 * Signals (signals.h): SIGINT, SIGTERM and SIGHUP end the loop, which restores
 * the terminal and exits with 128 + the signal; every other signal that ends
 * the process first restores the terminal (screen.c), then the recording is
 * put in place and the signal goes on.
 * Ctrl-Z leaves the screen and our modes and re-enters them on SIGCONT; a
 * SIGCONT that comes before the loop got to stop (a quick Ctrl-Z and `bg`, or
 * TSTP then CONT from a script) cancels the stop instead of leaving swirl
 * stopped with nobody to continue it.
 *
 * Pacing: frames on an absolute CLOCK_MONOTONIC schedule; between frames the loop
 * sleeps in poll() on stdin, so keys answer at once. Flow control (flow.h):
 * each piece of what is written is followed by a ping (CSI 5 n, now and then
 * CSI 6 n), which the terminal answers only once it has processed everything
 * before it; from the answers the flow control tells the link's base round
 * trip from queueing and measures its rate, keeps what is unanswered within
 * the window those give, and gives the rate the link carries for frames;
 * the picture's level follows that rate (ladder.h: a looser tolerance,
 * blocks of cells, 256 colours at the very end), and every frame is whole,
 * followed by a pause its bytes take at that rate. A frame is composed only
 * when the last is written, the window has room and that pause is over (else
 * skipped: the simulation still runs, and the next frame shows the newest
 * state). So at any round trip the frames keep coming,
 * and a key, q included, waits behind about a tenth of a second of them.
 *
 * Whatever the link and the settings do, q, Esc, Ctrl-C and R answer within a
 * round trip and a few tenths of a second. Frames go out through a
 * non-blocking file description of the tty of our own, queued where the
 * terminal takes no more, so a link that stops draining never blocks the
 * loop; on leaving, what is still queued is flushed (TCOFLUSH), the screen is
 * left at once, and then, while the tty still does not echo, the answers the
 * terminal still owes are read back up to a last DA1 (for as long as the
 * flow control says the link needs, at most FLOW_DRAIN_MAX; not at all once
 * it has stopped), so none reaches the shell. While a frame is made a watcher
 * (watch.h) reads the input, parsing it with the loop's parser (t->in, its
 * own until the frame is made): a key that waits raises the solvers' stop
 * flag, the step under way ends early, and the loop takes the watcher's
 * events, each at the time it was read, before it reads anything newer;
 * SIGINT/TERM/HUP/TSTP raise it too. IXON and IXOFF are off while swirl has
 * the terminal, so Ctrl-S cannot freeze its output.
 *
 * Before the first frame the terminal (and tmux) is asked what it shows
 * (probe.h, ask_terminal below): the colour depth and whether frames are
 * synchronized come from the answers.
 */
#include "term.h"
#include "buf.h"
#include "cast.h"
#include "flow.h"
#include "frame.h"
#include "pixels.h"
#include "probe.h"
#include "reader.h"
#include "screen.h"
#include "signals.h"
#include "watch.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

#define PING "\x1b[5n"    /* the flow control's pings: a status request */
#define WHERE "\x1b[6n"   /* ... or where the cursor is, now and then (flow.h) */
#define FEED_BYTES 64      /* input bytes read at a time (each gives <= 1 event) */
#define BSU "\x1b[?2026h"  /* a synchronized frame's start, */
#define PROBE_WAIT 0.15    /* s: the most the terminal's answers are waited for */
#define TMUX_WAIT 0.5      /* s: the most one tmux command may take */

static atomic_int stop_now; /* raised when a step under way should end early
                             * (watch.h, signals.h) */

/* The terminal loop's state. */
struct term {
    SCREEN *scr;
    struct app a;
    struct frame fr;
    struct input in;
    struct flow flow;
    struct flow_plan plan; /* the rate the link carries for frames */
    double avail;        /* ... bytes a second of it the frames are paced to (0: no limit known) */
    bool may_reduce_colour; /* the colours were the detection's, not the user's */
    double send_after;   /* no frame before (the last one's bytes at the link's rate) */
    double probe_t0, probe_t1; /* the start-up questions: asked, answered (-1: not) */
    bool sync_late;      /* synchronized frames asked for, the terminal's answer not come */
    bool leaving;        /* on the way out: input is read for its answers alone */
    bool gone;           /* the terminal's input is gone (a hang-up without SIGHUP) */
    struct buf out;      /* the frame being written */
    size_t out_sent;     /* how much of it is queued */
    /* Queued for the terminal: the frame's pieces, each with its ping; written
     * as the terminal takes them, so a stopped link never blocks the loop. */
    struct buf q;
    size_t q_off;        /* how much of q is written */
    long long q_in, q_out; /* bytes queued, written (all along) */
    long long frame_at, frame_end; /* where the frame being sent starts and ends
                                    * among them (LLONG_MAX: not yet known) */
    struct watch watch;  /* input that waits while a frame is made */
    int nwatched;        /* events it parsed meanwhile, not yet dispatched */
    struct cast cast;
    const char *record;  /* the recording's path, or NULL */
    double t0, period, next, last_byte;
    bool dirty;          /* input since the last frame */
    struct input_event typed[64]; /* keys typed while the terminal was being asked */
    int ntyped;
};

/* Events to the app; the terminal's answers to the flow control. */
static void dispatch(struct term *t, const struct input_event *ev, int n, double now)
{
    for (int i = 0; i < n; i++) {
        if (ev[i].type == INPUT_PONG || ev[i].type == INPUT_WHERE) {
            flow_answered(&t->flow, ev[i].type == INPUT_PONG ? FLOW_PING_STATUS : FLOW_PING_WHERE,
                          now);
        } else if (ev[i].type == INPUT_ANSWER && ev[i].answer.kind == ANSWER_MODE) {
            /* The start-up question about synchronized frames, answered late */
            const int *v = ev[i].answer.v;
            if (t->sync_late && v[0] == 2026 && (v[1] == 1 || v[1] == 2))
                t->fr.enc.sync = t->a.o.sync = true;
            t->sync_late = t->sync_late && v[0] != 2026;
        } else if (ev[i].type == INPUT_ANSWER && ev[i].answer.kind == ANSWER_DA1) {
            flow_heard(&t->flow, now); /* the start-up questions' last answer, late */
            screen_owe_fences(1);
            t->sync_late = false;
        } else if (ev[i].type == INPUT_ANSWER) {
            /* another start-up answer come late: nothing to do now */
        } else if (!t->leaving) {
            app_input(&t->a, &ev[i]);
            t->dirty = true;
        }
    }
}

/* First the events the watcher parsed while the last frame was made (at the
 * times their bytes were read), then what the terminal has sent since; what
 * is left pending (a lone ESC, a string cut off) is flushed once it has
 * waited input_flush_delay(). Returns the bytes read and the events taken. */
static size_t read_input(struct term *t, double now)
{
    size_t total = 0, watched = (size_t)t->nwatched;
    for (size_t i = 0; i < watched; i++)
        dispatch(t, &t->watch.got[i].ev, 1, t->watch.got[i].at);
    t->nwatched = 0;
    struct input_event ev[FEED_BYTES];
    for (int k = 0; k < 32; k++) { /* at most 32 reads a turn: frames go on */
        size_t nb;
        int ne = reader_read(STDIN_FILENO, &t->in, 0.0, ev, FEED_BYTES, &nb);
        if (ne == READER_GONE) {
            t->gone = true;
            break;
        }
        dispatch(t, ev, ne, now);
        total += nb;
        if (nb < FEED_BYTES)
            break;
    }
    if (total)
        t->last_byte = now;
    else if (input_pending(&t->in) && now - t->last_byte >= input_flush_delay(&t->in))
        dispatch(t, ev, input_flush(&t->in, ev, FEED_BYTES), now);
    return total + watched;
}

/* Before leaving: what the terminal has sent already is read and its answers
 * taken (a loop starved of the CPU may have left many unread, and the flow
 * control would take a link that answers for one that has stopped); keys now
 * are nobody's. */
static void absorb_answers(struct term *t)
{
    t->leaving = true;
    for (int k = 0; k < 256 && read_input(t, frame_now()) > 0; k++)
        ;
}

/* The synchronized update of the frame being sent has begun: its CSI ?2026h
 * is written (frame_at is LLONG_MAX until a frame is: q_out minus it is then
 * far below zero, never an overflow). */
static bool sync_begun(const struct term *t)
{
    return t->fr.enc.sync && t->q_out - t->frame_at >= (long long)(sizeof BSU - 1);
}

/* Writes what the terminal takes of the queue now (all of it, where the
 * output is blocking); true when nothing is left. */
static bool q_flush(struct term *t)
{
    while (t->q_off < t->q.len) {
        ssize_t w = write(screen_fd(), t->q.p + t->q_off, t->q.len - t->q_off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && errno == EAGAIN)
            break;
        size_t n = w < 0 ? t->q.len - t->q_off : (size_t)w; /* gone: it is all lost */
        t->q_off += n;
        t->q_out += (long long)n;
    }
    /* A synchronized frame's start is out and its end is not. */
    screen_sync_open(sync_begun(t) && t->q_out < t->frame_end);
    if (t->q_off < t->q.len)
        return false;
    buf_clear(&t->q);
    t->q_off = 0;
    return true;
}

static void q_put(struct term *t, const char *p, size_t n)
{
    buf_put(&t->q, p, n);
    t->q_in += (long long)n;
}

/* A frame cut short (Ctrl-Z, quit): what is queued for the terminal, ours and
 * the tty's, is dropped (a stopped link would keep everything after it
 * waiting), a CAN ends any sequence that stopped in, the synchronized update
 * the frame began is ended, and the rest of it goes (the screen is repainted
 * whole on return). */
static void cut_frame(struct term *t)
{
    bool began = sync_begun(t);
    buf_clear(&t->q);
    t->q_off = 0;
    t->q_in = t->q_out;
    t->frame_at = t->frame_end = LLONG_MAX;
    tcflush(screen_fd(), TCOFLUSH);
    screen_cut(began);
    t->out_sent = t->out.len;
}

static void suspend(struct term *t)
{
    signals_stop_taken();
    if (!signals_stop_wanted()) /* continued before we got here: nothing to stop for */
        return;
    absorb_answers(t);
    t->leaving = false;
    double wait = flow_drain_wait(&t->flow, frame_now());
    cut_frame(t);
    screen_leave(wait);
    signals_set(SIGTSTP, SIG_DFL, NULL);
    if (signals_stop_wanted()) /* the window left: between this test and the stop */
        raise(SIGTSTP);
    /* ... stopped here until SIGCONT ... */
    signals_install_stop();
    screen_enter();
    frame_repaint(&t->fr);
    screen_winch(); /* the size may have changed meanwhile */
    t->next = t->send_after = frame_now();
    flow_init(&t->flow);
    screen_drain(0.0);
}

/* Output into the recording; the HUD's idea of it kept up to date. */
static void rec_output(struct term *t, double now, const char *p, size_t n)
{
    cast_output(&t->cast, now - t->t0, p, n);
    cast_status(&t->cast, &t->a.rec);
}

static void resize(struct term *t, double now)
{
    int cols, rows;
    screen_size(&cols, &rows);
    app_resize(&t->a, cols, rows);
    frame_resize(&t->fr, cols, rows);
    pixels_resize(&t->fr, &t->a, STDOUT_FILENO);
    t->dirty = true;
    if (t->record) {
        cast_resize(&t->cast, now - t->t0, cols, rows);
        cast_status(&t->cast, &t->a.rec);
    }
}

/* As much of the frame being written as the window allows, a ping after
 * each piece, queued and written as far as the terminal takes it now. */
static void send_pending(struct term *t, double now)
{
    while (q_flush(t) && t->out_sent < t->out.len) {
        const char *p = t->out.p + t->out_sent;
        size_t n = flow_chunk(&t->flow, p, t->out.len - t->out_sent);
        if (n == 0)
            break;
        if (t->out_sent == 0)
            t->frame_at = t->q_in, t->frame_end = LLONG_MAX;
        q_put(t, p, n);
        if (t->out_sent + n == t->out.len)
            t->frame_end = t->q_in;
        if (flow_wrote(&t->flow, n, now) == FLOW_PING_WHERE)
            q_put(t, WHERE, sizeof WHERE - 1);
        else
            q_put(t, PING, sizeof PING - 1);
        t->out_sent += n;
    }
}

/* Before a frame that may be sent: the rate the link carries for frames, the
 * picture's level at that rate (frame_plan), and the link as the help shows it. */
static void plan_frame(struct term *t, double now)
{
    struct frame_stats *st = &t->fr.st;
    const struct flow *f = &t->flow;
    flow_plan_rate(&t->plan, f, frame_want(&t->fr, &t->a, now), now);
    t->avail = flow_plan_pace(&t->plan);
    frame_plan(&t->fr, &t->a, flow_plan_avail(&t->plan), t->avail, t->may_reduce_colour, now);
    st->link_rtt = f->base > 0.0 ? f->base : 0.0;
    st->link_limit = f->rate > 0.0;
    st->link_rate = f->rate > 0.0 ? f->rate : f->delivered;
}

/* A frame when one is due: the app always advances; the picture is composed
 * only once the last one is written and the window has room (else it counts
 * as skipped: the next frame shows the newest state instead). */
static void frame_due(struct term *t, double now)
{
    if (now < t->next)
        return;
    bool send = t->out_sent == t->out.len && t->q_off == t->q.len && flow_ready(&t->flow) &&
                now >= t->send_after - 0.5 * t->period;
    if (send) {
        buf_clear(&t->out);
        t->out_sent = 0;
        plan_frame(t, now);
    }
    /* Input that comes while the frame is made (its steps may take seconds)
     * cuts a long one short; so does a signal the loop handles. */
    watch_arm(&t->watch, now, &t->in); /* the parser is the watcher's meanwhile */
    if (signals_quit || signals_stop_asked())
        atomic_store(&stop_now, 1);
    size_t n = frame_next(&t->fr, &t->a, t->period, frame_now, t->dirty, send ? &t->out : NULL);
    t->nwatched = watch_disarm(&t->watch);
    if (t->watch.read_at > t->last_byte) /* the ESC_DELAY of what it left pending */
        t->last_byte = t->watch.read_at;
    atomic_store(&stop_now, 0);
    if (send)
        t->dirty = false;
    if (n && t->record)
        rec_output(t, now, t->out.p, t->out.len);
    if (n) { /* paced by its bytes at the link's rate, at most the frame rate asked for */
        double gap = 1.0 / t->a.o.fps;
        if (t->avail > 0.0 && (double)n / t->avail > gap)
            gap = (double)n / t->avail;
        t->send_after = t->send_after + gap > now - gap ? t->send_after + gap : now;
    }
    send_pending(t, frame_now()); /* the pings' clock: the frame may have taken long */
    t->next += t->period;
    if (now > t->next + t->period)
        t->next = now + t->period; /* fell behind: drop the schedule, not frames of input */
}

/* Sleeps in poll() until the next frame or input; false when the terminal is
 * gone (a hang-up without SIGHUP): stop, do not spin. */
static bool wait_next(struct term *t)
{
    double wait = t->next - frame_now();
    if (input_pending(&t->in) && wait > input_flush_delay(&t->in))
        wait = input_flush_delay(&t->in);
    if (wait <= 0 || t->nwatched)
        return true;
    /* Also woken when the terminal takes what is queued for it. */
    struct pollfd pf[2] = {{STDIN_FILENO, POLLIN, 0}, {screen_fd(), POLLOUT, 0}};
    int npf = t->q_off < t->q.len ? 2 : 1;
    return !(poll(pf, (nfds_t)npf, (int)(wait * 1000.0) + 1) > 0 &&
             (pf[0].revents & (POLLHUP | POLLNVAL)));
}

static int open_recording(struct term *t, const struct app_opts *o)
{
    struct cast_setup cs = {80, 24, getenv("TERM"), (long)time(NULL), "swirl", o->overwrite,
                            o->record_limit};
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        cs.w = ws.ws_col, cs.h = ws.ws_row;
    if (cast_open(&t->cast, t->record, &cs) != 0) {
        buf_warn("cannot write %s: %s", t->record, strerror(errno));
        return 2;
    }
    return 0;
}

/*
 * The colour depth (unless --color gave it) and synchronized output (unless
 * --no-sync), from what the terminal and tmux answer and the environment
 * (probe.h). Asked once curses has the tty in program mode (no echo, no
 * canonical input: the answers are never shown) and the screen is cleared,
 * before the first frame; read through the one reader before the loop reads a byte,
 * so curses keeps none of them back. Keys typed meanwhile wait in t->typed.
 */
static void ask_terminal(struct term *t, struct app_opts *o, bool color_auto, bool glyphs_auto)
{
    struct probe_env e = {
        .no_color = getenv("NO_COLOR"), .colorterm = getenv("COLORTERM"),
        .term = getenv("TERM"), .sty = getenv("STY"), .tmux = getenv("TMUX"),
        .rgb = tigetflag("RGB") > 0 || tigetflag("Tc") > 0, .colors = tigetnum("colors"),
        .xterm_version = getenv("XTERM_VERSION"), .vte_version = getenv("VTE_VERSION"),
        .kitty_window_id = getenv("KITTY_WINDOW_ID"), .mlterm = getenv("MLTERM"),
        .konsole_version = getenv("KONSOLE_VERSION"),
    };
    if (color_auto && e.tmux && *e.tmux) {
        static struct probe_tmux_text txt;
        struct probe_tmux tm;
        probe_ask_tmux(&tm, &txt, TMUX_WAIT);
        e.tmux_pane = probe_tmux_pane(&tm);
        e.tmux_rgb = probe_tmux_rgb(&tm);
    }
    /* The Linux console knows none of the questions (and no DCS string); GNU
     * screen 4 prints them on the screen. */
    bool console = (e.term && strcmp(e.term, "linux") == 0) || probe_screen_nearest(&e);
    t->probe_t0 = t->probe_t1 = -1.0;
    if ((color_auto || o->sync) && !console) {
        double asked = frame_now();
        /* pixels asked about only where no multiplexer is nearer (tmux takes
         * an APC string for a title) */
        bool pixels = pixels_multiplexer(&e) == NULL;
        t->ntyped = probe_ask_tty(STDIN_FILENO, STDOUT_FILENO, PROBE_WAIT, pixels, &e.ans,
                                  &t->in, t->typed, (int)(sizeof t->typed / sizeof t->typed[0]));
        if (e.ans.asked) /* what it did not answer in time, it owes */
            t->probe_t0 = asked;
        if (e.ans.fence)
            t->probe_t1 = frame_now();
        else if (e.ans.asked)
            screen_owe_fences(2); /* its DA1 answer may be on its way */
    }
    t->sync_late = o->sync && t->probe_t0 >= 0.0 && t->probe_t1 < 0.0;
    if (color_auto)
        o->color = probe_choose(&e, &o->color_why);
    if (glyphs_auto)
        o->glyphs = probe_glyphs(&e, o->color, &o->glyphs_why);
    o->sync = o->sync && probe_sync(&e.ans);
    pixels_ask(&e, o);
}

/* The terminal in program mode (curses' setup, our modes, the handlers). */
static int open_screen(struct term *t, struct app_opts *o, bool color_auto, bool glyphs_auto)
{
    if (screen_too_large())
        return 2;
    screen_install(&stop_now);
    /* curses draws nothing here (the encoder writes every cell): its windows
     * stay at the terminal type's own size, not the window's, which at
     * 1500x800 cost 100 MB of cells cleared and half a second to start
     * (where the type gives none, the window's size it is). */
    use_env(FALSE);
    t->scr = newterm(NULL, stdout, stdin);
    if (!t->scr) { /* a type with no size of its own (dumb): the window's */
        use_env(TRUE);
        t->scr = newterm(NULL, stdout, stdin);
    }
    if (t->scr)
        screen_output_open();
    const char *term = getenv("TERM");
    if (!t->scr) {
        buf_warn("unknown terminal type '%s'", term ? term : "");
        return 2;
    }
    const char *cup = tigetstr("cup"); /* nothing is written until this holds */
    if (!cup || cup == (const char *)-1) {
        reset_shell_mode(); /* the modes newterm set (cbreak), by tcsetattr alone */
        delscreen(t->scr);
        screen_output_close();
        t->scr = NULL;
        buf_warn("the terminal type '%s' cannot move the cursor: swirl needs one that "
                 "can (TERM=xterm-256color, say)", term ? term : "");
        return 2;
    }
    if (t->record && open_recording(t, o) != 0) { /* swirl will run: now the file */
        endwin();
        screen_output_close();
        delscreen(t->scr);
        t->scr = NULL;
        return 2;
    }
    screen_program_mode();
    ask_terminal(t, o, color_auto, glyphs_auto);
    return 0;
}

static int term_open(struct term *t, struct app_opts *o, bool color_auto, bool glyphs_auto,
                     const char *record)
{
    memset(t, 0, sizeof *t);
    t->record = record;
    t->frame_at = t->frame_end = LLONG_MAX;
    o->stop = &stop_now;
    input_init(&t->in);
    int rc = open_screen(t, o, color_auto, glyphs_auto);
    if (rc != 0)
        return rc;
    int cols, rows;
    screen_size(&cols, &rows);
    if (app_init(&t->a, o, cols, rows) != 0) {
        screen_leave(0.0);
        screen_output_close();
        delscreen(t->scr);
        if (record)
            cast_close(&t->cast, NULL);
        fprintf(stderr, "swirl: cannot start the scene (out of memory)\n");
        return 1;
    }
    frame_init(&t->fr, &t->a, false);
    pixels_start(&t->fr, &t->a, STDOUT_FILENO);
    flow_init(&t->flow);
    if (t->probe_t0 >= 0.0)
        flow_asked(&t->flow, t->probe_t0, t->probe_t1);
    flow_plan_init(&t->plan);
    t->may_reduce_colour = color_auto && o->color == COLOR_TRUE;
    buf_init(&t->out);
    buf_init(&t->q);
    watch_start(&t->watch, STDIN_FILENO, &stop_now); /* if not: steps run whole */
    dispatch(t, t->typed, t->ntyped, frame_now());
    t->period = 1.0 / o->fps;
    t->t0 = t->next = t->send_after = t->last_byte = frame_now();
    if (record)
        rec_output(t, t->t0, "\x1b[?25l", 6);
    return 0;
}

/* Leaving at once, whatever the link does: what is still queued for the
 * terminal is dropped, the answers that can come are swallowed, the restore
 * sequences go out. */
static int term_close(struct term *t)
{
    watch_end(&t->watch);
    absorb_answers(t);
    double wait = flow_drain_wait(&t->flow, frame_now());
    cut_frame(t);
    screen_leave(wait);
    screen_output_close();
    delscreen(t->scr);
    app_free(&t->a);
    frame_free(&t->fr);
    buf_free(&t->out);
    buf_free(&t->q);
    if (t->record) {
        cast_finish(&t->cast, frame_now() - t->t0);
        struct buf msg;
        buf_init(&msg);
        int rc = cast_close(&t->cast, &msg);
        fwrite(msg.p ? msg.p : "", 1, msg.len, stderr);
        buf_free(&msg);
        return signals_exit_status(rc != 0 ? 1 : 0);
    }
    return signals_exit_status(0);
}

int term_run(struct app_opts *o, bool color_auto, bool glyphs_auto, const char *record)
{
    static struct term t; /* large (the app, the frame): not on the stack */
    int rc = term_open(&t, o, color_auto, glyphs_auto, record);
    if (rc != 0)
        return rc;
    while (!t.a.quit && !signals_quit) {
        double now = frame_now();
        read_input(&t, now);
        if (t.a.quit || signals_quit || t.gone)
            break;
        if (signals_stop_asked()) {
            suspend(&t);
            now = frame_now();
        }
        if (screen_winched())
            resize(&t, now);
        flow_tick(&t.flow, now);
        if (flow_probe_due(&t.flow, now)) { /* an answer is late: was it lost? */
            q_put(&t, WHERE, sizeof WHERE - 1);
            flow_probed(&t.flow, now);
        }
        /* How long leaving may wait for answers: none once they stopped coming (a
         * tty that takes no output for now is no sign: on a fast link it fills
         * for a moment as the terminal draws) */
        screen_drain(flow_drain_wait(&t.flow, now));
        send_pending(&t, now);
        frame_due(&t, now);
        if (!wait_next(&t))
            break;
    }
    return term_close(&t);
}
