/*
 * e2e.h — helpers for the end-to-end tests: ./swirl (or any command) in a tmux
 * pane, driven with keys and raw bytes and read back with capture-pane. Every
 * wait polls (e2e_wait) against a deadline, E2E_DEADLINE unless a caller says
 * otherwise, so the tests pass on a loaded machine too.
 * Each e2e_start() names a fresh tmux server (e2e_sock); e2e_stop() ends it and
 * removes its socket, as each test's cleanup must (the runner fails a test that
 * leaves one).
 */
#ifndef SWIRL_E2E_H
#define SWIRL_E2E_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define E2E_DEADLINE 15.0 /* seconds: generous, for a loaded machine */
#define E2E_NAP 0.04      /* seconds between looks at first (e2e_nap's) */
#define E2E_NAP_SHARE 0.2 /* then this share of the time waited so far, */
#define E2E_NAP_MOST 0.25 /* at most this long */

extern char e2e_sock[64];
/* A server's name: the prefix, the test run's mark (the runner puts one of its
 * own in E2E_RUN_ENV), the test's process group and a count, joined by '-'. */
#define E2E_SOCK_PREFIX "swirl-e2e-"
#define E2E_RUN_ENV "SWIRL_E2E_RUN"

void e2e_nap(void);
int e2e_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Output of a tmux command against our server (a static buffer). */
const char *e2e_tmux(const char *args);
/* What fd gives until its end, at most n - 1 bytes, into out (NUL-ended);
 * the bytes read. */
size_t e2e_read_all(int fd, char *out, size_t n);
/* Captures of the pane: with colours, plain text, every cell (-N). */
const char *e2e_screen(void);
const char *e2e_plain(void);
const char *e2e_screen_full(void);
/* "alternate cursor mouse-any mouse-sgr mouse-button" flags of the pane. */
const char *e2e_modes(void);
/* Starts `cmd` (run by sh) in a cols x rows pane of a tmux set up as the
 * README says for a truecolor terminal (terminal-features E2E_FEATURES), so
 * tmux passes 24-bit colour on. */
#define E2E_FEATURES "xterm*:RGB"
bool e2e_start(int cols, int rows, const char *cmd);
/* The same with tmux's terminal-features extended by `features` (NULL:
 * tmux's own defaults, which pass no 24-bit colour on). */
bool e2e_start_tmux(int cols, int rows, const char *features, const char *cmd);
void e2e_stop(void);
/* Where tmux keeps the socket of the server called name ($TMUX_TMPDIR or /tmp,
 * then tmux-UID). */
void e2e_socket_path(const char *name, char *path, size_t n);
/* Ends the tmux servers the process group pid of this run started and left running
 * or dead, and removes their sockets; returns how many there were (the
 * runner's check after each test). */
int e2e_reap(long pid);
/* ./swirl with extra environment and arguments in a UTF-8 tmux-256color pane;
 * after it exits the pane shows SWIRL-EXIT=<status>. */
bool e2e_start_swirl(int cols, int rows, const char *env, const char *args);
bool e2e_start_swirl_tmux(int cols, int rows, const char *features, const char *env,
                          const char *args);
/* The ./swirl running in the pane (its process id), 0 when there is none. */
long e2e_swirl_pid(void);
/* The processor time process pid has used so far, its threads' together, in
 * seconds; -1 once it has ended. On a busy machine a process gets less of the
 * processor than it asks for: a bound on the work it does after a key (that
 * it stops the step it is in, not how soon a starved process gets to) holds
 * whatever the load, where a bound on the time it takes does not. */
double e2e_cpu_seconds(long pid);
/* Polls grab() (a capture) until pred(capture, arg) holds or `seconds` pass;
 * true when it held. pred sees every capture, the last included, so it can keep
 * what it found in arg for the caller's checks and messages. Every wait of the
 * e2e tests is this loop. */
bool e2e_wait(const char *(*grab)(void), bool (*pred)(const char *screen, void *arg),
              void *arg, double seconds);
/* e2e_wait() for a substring to appear (or be gone), within E2E_DEADLINE. */
bool e2e_wait_for(const char *(*grab)(void), const char *needle);
/* What shows that swirl has drawn its status line: the hint the row never
 * cuts. e2e_wait_hud() waits for it (e2e_wait_for on the plain screen). */
#define E2E_HUD_SIGN "? help"
bool e2e_wait_hud(void);
bool e2e_wait_gone(const char *(*grab)(void), const char *needle);
/* With the help up (?): true once needle shows in it, within E2E_DEADLINE,
 * scrolling it down (Down, which stops at its end) while it does not: what
 * the help says of this run (its colours, the picture's level) comes first
 * and takes more rows on a loaded machine, so the keys' last lines may be
 * below the pane. */
bool e2e_help_shows(const char *needle);
/* The scene's statistics as a person reads them ("particles" 1900, "grid"
 * 120x34): the figure called name on a plain capture, as its text or as a
 * number (false: not shown), read where swirl shows it, in one place (e2e.c)
 * for every test. A status line cuts its last items to fit: a test that
 * reads one there gives swirl a pane wide enough for every tag of a loaded
 * machine, its timings and its figures. */
bool e2e_figure_text(const char *screen, const char *name, char *text, size_t n);
bool e2e_figure(const char *screen, const char *name, double *value);
/* Waits (E2E_DEADLINE) until the figure is shown (and ok(value, arg) holds,
 * ok NULL: any value), and gives the last value shown (-1 when none was);
 * until it is want; until its text is want. */
bool e2e_wait_figure_until(const char *name, bool (*ok)(double v, void *arg), void *arg,
                           double *last);
bool e2e_wait_figure(const char *name, double *value);
bool e2e_wait_figure_is(const char *name, double want, double *last);
bool e2e_wait_figure_text(const char *name, const char *want);
/* Bytes as they are (sent as hex: escapes need no quoting), or tmux key names. */
void e2e_send_bytes(const char *s);
void e2e_send_key(const char *k);
/* The n-th line (0-based) of a capture, copied into out. */
void e2e_line_of(const char *text, int n, char *out, size_t cap);
/* A capture-pane -e capture as cells: the glyph (a code point) and its colours,
 * each E2E_DEFAULT, a palette index 0..255, or E2E_RGB | 0xRRGGBB. SGR state
 * carries over from cell to cell and line to line, as capture-pane writes it. */
#define E2E_DEFAULT (-1)
#define E2E_RGB 0x1000000
/* Attributes: bold (SGR 1, 22) and reverse video (SGR 7, 27). */
#define E2E_BOLD 1u
#define E2E_REVERSE 2u
/* A pixel of the terminal's default foreground (a default fg that reverse
 * video shows as the background). */
#define E2E_INK (-3)
struct e2e_cell {
    uint32_t ch;
    int fg, bg;
    unsigned attr;
};
/* Fills cols x rows cells (row-major) from a capture; what it lacks stays a
 * blank cell in the default colours. */
void e2e_cells(const char *text, struct e2e_cell *cells, int cols, int rows);
/* A cell's two pixels, upper and lower: a ▀ shows fg over bg, ▄ bg over fg,
 * █ fg twice, a quadrant or sextant fg in a half where it inks any of it, any
 * other glyph bg twice; in reverse video fg and bg trade places (a default fg
 * then shows as E2E_INK). */
void e2e_pixels(const struct e2e_cell *c, int *top, int *bot);

/* A whole file, NUL-terminated (malloc'd; *len without the NUL), or NULL. */
char *e2e_slurp(const char *path, size_t *len);
/* An asciicast v2 recording: the header, then every line a whole event
 * [t, "o" or "r", "..."], and a newline at the end. */
bool e2e_valid_cast(const char *text);

#endif
