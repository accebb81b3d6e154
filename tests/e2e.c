/*
 * e2e.c — driving the real ./swirl in a tmux pane for the end-to-end tests (see
 * e2e.h): one tmux server per test (its own socket, named after the test's
 * process), keys and raw bytes in, captures out, and waits that poll the screen
 * against a deadline. tmux leaves a server's socket behind when it ends, so
 * e2e_stop removes it, and e2e_reap those of a process that ended.
 */
#include "e2e.h"
#include "fit.h"
#include "fixtures.h"
#include "test.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

char e2e_sock[64];
static int starts; /* servers this process started */

/* Seconds on the monotonic clock: the driver's own, whatever the app uses. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void e2e_nap(void) { fx_nap(E2E_NAP); }

int e2e_sh(const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    return system(cmd);
}

/* Output of a tmux command against our server, into a static buffer. */
/* args split into words at blanks, a '...' part kept whole (as sh reads
 * them), into argv[at..max) over copy; the count of argv's entries. */
static int split_words(const char *args, char *copy, size_t cap, char **argv, int at, int max)
{
    size_t k = 0;
    for (const char *s = args; *s && at < max - 1;) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        argv[at++] = copy + k;
        for (; *s && *s != ' ' && k + 1 < cap; s++)
            if (*s == '\'')
                for (s++; *s && *s != '\'' && k + 1 < cap; s++)
                    copy[k++] = *s;
            else
                copy[k++] = *s;
        copy[k++] = 0;
    }
    argv[at] = NULL;
    return at;
}

/* tmux run directly, no shell in between: a capture is what the end-to-end
 * tests do most, and a shell's start costs as much again. */
size_t e2e_read_all(int fd, char *out, size_t n)
{
    size_t len = 0;
    ssize_t got;
    while (len + 1 < n && (got = read(fd, out + len, n - 1 - len)) > 0)
        len += (size_t)got;
    if (n > 0)
        out[len] = 0;
    return len;
}

const char *e2e_tmux(const char *args)
{
    static char out[1 << 20];
    char copy[512], *argv[32] = {"tmux", "-L", e2e_sock};
    split_words(args, copy, sizeof copy, argv, 3, 32);
    int fds[2];
    size_t n = 0;
    if (pipe(fds) == 0) {
        pid_t pid = fork();
        if (pid == 0) {
            int null = open("/dev/null", O_WRONLY);
            dup2(fds[1], STDOUT_FILENO);
            if (null >= 0)
                dup2(null, STDERR_FILENO);
            close(fds[0]), close(fds[1]);
            execvp("tmux", argv);
            _exit(127);
        }
        close(fds[1]);
        if (pid > 0)
            n = e2e_read_all(fds[0], out, sizeof out);
        close(fds[0]);
        if (pid > 0)
            waitpid(pid, NULL, 0);
    }
    out[n] = 0;
    return out;
}

const char *e2e_screen(void) { return e2e_tmux("capture-pane -p -e -t e"); }
const char *e2e_plain(void) { return e2e_tmux("capture-pane -p -t e"); }
/* With trailing blanks kept (-N): every cell of every row. */
const char *e2e_screen_full(void) { return e2e_tmux("capture-pane -p -e -N -t e"); }
const char *e2e_modes(void)
{
    return e2e_tmux("display -p -t e '#{alternate_on} #{cursor_flag} #{mouse_any_flag} "
                    "#{mouse_sgr_flag} #{mouse_button_flag}'");
}

/* The test run's own mark in its sockets' names (E2E_RUN_ENV, which the runner
 * sets), so that a socket another run left is never taken for this one's. */
static const char *run_id(void)
{
    const char *id = getenv(E2E_RUN_ENV);
    return id && *id ? id : "alone";
}

/* Starts `cmd` (run by sh) in a cols x rows pane; the server's options are set
 * before the session (and so `cmd`) starts. */
bool e2e_start_tmux(int cols, int rows, const char *features, const char *cmd)
{
    if (system("command -v tmux >/dev/null 2>&1") != 0)
        test_skip("no tmux");
    snprintf(e2e_sock, sizeof e2e_sock, E2E_SOCK_PREFIX "%s-%d-%d", run_id(), (int)getpgrp(),
             ++starts);
    char opts[256] = "";
    if (features)
        snprintf(opts, sizeof opts, "start-server \\; set -as terminal-features ',%s' \\; ",
                 features);
    return e2e_sh("LANG=C.UTF-8 LC_ALL=C.UTF-8 tmux -L %s -f /dev/null %snew-session -d -s e "
                  "-x %d -y %d \"%s\"", e2e_sock, opts, cols, rows, cmd) == 0;
}

bool e2e_start(int cols, int rows, const char *cmd)
{
    return e2e_start_tmux(cols, rows, E2E_FEATURES, cmd);
}

void e2e_socket_path(const char *name, char *path, size_t n)
{
    const char *dir = getenv("TMUX_TMPDIR");
    snprintf(path, n, "%s/tmux-%ld/%s", dir && *dir ? dir : "/tmp", (long)getuid(), name);
}

void e2e_stop(void)
{
    char path[512];
    e2e_sh("tmux -L %s kill-server 2>/dev/null", e2e_sock);
    e2e_socket_path(e2e_sock, path, sizeof path);
    unlink(path);
}

int e2e_reap(long pid)
{
    char dir[512], prefix[64];
    e2e_socket_path("", dir, sizeof dir);
    snprintf(prefix, sizeof prefix, E2E_SOCK_PREFIX "%s-%ld-", run_id(), pid);
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        if (strncmp(e->d_name, prefix, strlen(prefix)) != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s%s", dir, e->d_name);
        e2e_sh("tmux -S '%s' kill-server 2>/dev/null", path);
        unlink(path);
        n++;
    }
    if (d)
        closedir(d);
    return n;
}

/* Starts swirl with extra arguments and environment. */
bool e2e_start_swirl_tmux(int cols, int rows, const char *features, const char *env,
                          const char *args)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "env TERM=tmux-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 %s ./swirl %s; "
             "echo SWIRL-EXIT=\\$?; sleep 60", env, args);
    return e2e_start_tmux(cols, rows, features, cmd);
}

bool e2e_start_swirl(int cols, int rows, const char *env, const char *args)
{
    return e2e_start_swirl_tmux(cols, rows, E2E_FEATURES, env, args);
}

long e2e_swirl_pid(void)
{
    char cmd[96], out[32] = "";
    long pane = atol(e2e_tmux("display -p -t e '#{pane_pid}'"));
    snprintf(cmd, sizeof cmd, "pgrep -n -P %ld -x swirl 2>/dev/null", pane);
    FILE *p = pane > 0 ? popen(cmd, "r") : NULL;
    if (p) {
        if (!fgets(out, sizeof out, p))
            out[0] = 0;
        pclose(p);
    }
    return atol(out);
}

double e2e_cpu_seconds(long pid)
{
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = pid > 0 ? fopen(path, "r") : NULL;
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = 0;
    const char *p = strrchr(text, ')'); /* the fields after its name, which may hold anything */
    char state = 0;
    unsigned long long ut, st;
    if (!p || sscanf(p + 1, " %c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &state, &ut,
                     &st) != 3 || state == 'Z' || state == 'X')
        return -1.0;
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* The one polling loop: a capture is judged at least once, and once more after
 * the deadline has passed (a slow capture on a loaded machine still counts). */
bool e2e_wait(const char *(*grab)(void), bool (*pred)(const char *screen, void *arg),
              void *arg, double seconds)
{
    double t0 = now();
    for (;;) {
        const double waited = now() - t0;
        if (pred(grab(), arg))
            return true;
        if (waited >= seconds)
            return false;
        /* A look costs a tmux client and a screen rendered: after the first
         * fifth of a second, a look every fifth of the time waited so far
         * (what has not come in 1 s may well take 2), at most E2E_NAP_MOST. */
        const double nap = waited * E2E_NAP_SHARE;
        fx_nap(nap < E2E_NAP ? E2E_NAP : nap > E2E_NAP_MOST ? E2E_NAP_MOST : nap);
    }
}

static bool has(const char *screen, void *needle) { return strstr(screen, needle) != NULL; }
static bool lacks(const char *screen, void *needle) { return strstr(screen, needle) == NULL; }

bool e2e_wait_for(const char *(*grab)(void), const char *needle)
{
    return e2e_wait(grab, has, (void *)needle, E2E_DEADLINE);
}

bool e2e_wait_hud(void) { return e2e_wait_for(e2e_plain, E2E_HUD_SIGN); }

bool e2e_wait_gone(const char *(*grab)(void), const char *needle)
{
    return e2e_wait(grab, lacks, (void *)needle, E2E_DEADLINE);
}

/* The help's lines below the pane come up a line a Down, one Down a look. */
static bool has_or_scroll(const char *screen, void *needle)
{
    if (strstr(screen, needle))
        return true;
    e2e_send_key("Down");
    return false;
}

bool e2e_help_shows(const char *needle)
{
    if (!e2e_wait_for(e2e_plain, "swirl " SWIRL_VERSION " - ")) /* its title, its first line */
        return false;
    return e2e_wait(e2e_plain, has_or_scroll, (void *)needle, E2E_DEADLINE);
}

bool e2e_figure_text(const char *screen, const char *name, char *text, size_t n)
{
    /* Today the status line's "NAME VALUE" items: the last one on the screen
     * (the status line is its last row). Where swirl shows its statistics
     * changes, this changes, and no test. */
    bool found = false;
    size_t len = strlen(name);
    for (const char *at = screen ? strstr(screen, name) : NULL; at; at = strstr(at + 1, name)) {
        const char *v = at + len + 1;
        size_t vn = strcspn(v, " \n");
        if ((at == screen || at[-1] == ' ' || at[-1] == '\n') && at[len] == ' ' && vn > 0 &&
            vn < n) {
            memcpy(text, v, vn);
            text[vn] = 0;
            found = true;
        }
    }
    return found;
}

bool e2e_figure(const char *screen, const char *name, double *value)
{
    char text[64], *end;
    if (!e2e_figure_text(screen, name, text, sizeof text))
        return false;
    double v = strtod(text, &end);
    if (end == text || *end)
        return false;
    *value = v;
    return true;
}

struct figure_query {
    const char *name;
    bool (*ok)(double v, void *arg);
    void *arg;
    double value;
    bool shown;
};

static bool figure_holds(const char *screen, void *arg)
{
    struct figure_query *q = arg;
    double v;
    if (!e2e_figure(screen, q->name, &v))
        return false;
    q->value = v, q->shown = true;
    return !q->ok || q->ok(v, q->arg);
}

bool e2e_wait_figure_until(const char *name, bool (*ok)(double v, void *arg), void *arg,
                           double *last)
{
    struct figure_query q = {.name = name, .ok = ok, .arg = arg};
    bool held = e2e_wait(e2e_plain, figure_holds, &q, E2E_DEADLINE);
    *last = q.shown ? q.value : -1.0;
    return held;
}

bool e2e_wait_figure(const char *name, double *value)
{
    return e2e_wait_figure_until(name, NULL, NULL, value);
}

static bool equals(double v, void *arg) { return v == *(const double *)arg; }

bool e2e_wait_figure_is(const char *name, double want, double *last)
{
    return e2e_wait_figure_until(name, equals, &want, last);
}

struct text_query {
    const char *name, *want;
};

static bool text_is(const char *screen, void *arg)
{
    const struct text_query *q = arg;
    char text[64];
    return e2e_figure_text(screen, q->name, text, sizeof text) && strcmp(text, q->want) == 0;
}

bool e2e_wait_figure_text(const char *name, const char *want)
{
    struct text_query q = {name, want};
    return e2e_wait(e2e_plain, text_is, &q, E2E_DEADLINE);
}

/* Sends bytes as they are (hex, so escapes need no quoting). */
void e2e_send_bytes(const char *s)
{
    char cmd[4096];
    int n = snprintf(cmd, sizeof cmd, "tmux -L %s send-keys -t e -H", e2e_sock);
    for (; *s && n < (int)sizeof cmd - 8; s++)
        n += snprintf(cmd + n, sizeof cmd - (size_t)n, " %02x", (unsigned char)*s);
    if (system(cmd) != 0)
        return; /* the pane may be gone by now: the caller's next wait says so */
}

void e2e_send_key(const char *k) { e2e_sh("tmux -L %s send-keys -t e %s", e2e_sock, k); }

/* The n-th line (0-based) of a capture, copied out. */
void e2e_line_of(const char *text, int n, char *out, size_t cap)
{
    for (int i = 0; i < n && text; i++) {
        text = strchr(text, '\n');
        if (text)
            text++;
    }
    size_t k = 0;
    if (text)
        while (text[k] && text[k] != '\n' && k + 1 < cap)
            k++;
    if (text)
        memcpy(out, text, k);
    out[k] = 0;
}

/* One SGR sequence's parameters applied to (fg, bg, attributes). */
static void apply_sgr(const int *v, int nv, int *fg, int *bg, unsigned *attr)
{
    if (nv == 0)
        *fg = *bg = E2E_DEFAULT, *attr = 0;
    for (int i = 0; i < nv; i++) {
        int p = v[i];
        if ((p == 38 || p == 48) && i + 2 < nv && v[i + 1] == 5) {
            *(p == 38 ? fg : bg) = v[i + 2];
            i += 2;
        } else if ((p == 38 || p == 48) && i + 4 < nv && v[i + 1] == 2) {
            *(p == 38 ? fg : bg) = E2E_RGB | v[i + 2] << 16 | v[i + 3] << 8 | v[i + 4];
            i += 4;
        } else if (p >= 30 && p <= 37) {
            *fg = p - 30;
        } else if (p >= 40 && p <= 47) {
            *bg = p - 40;
        } else if (p >= 90 && p <= 97) {
            *fg = p - 90 + 8;
        } else if (p >= 100 && p <= 107) {
            *bg = p - 100 + 8;
        } else if (p == 39) {
            *fg = E2E_DEFAULT;
        } else if (p == 49) {
            *bg = E2E_DEFAULT;
        } else if (p == 0) {
            *fg = *bg = E2E_DEFAULT;
            *attr = 0;
        } else if (p == 1 || p == 22) {
            *attr = p == 1 ? *attr | E2E_BOLD : *attr & ~E2E_BOLD;
        } else if (p == 7 || p == 27) {
            *attr = p == 7 ? *attr | E2E_REVERSE : *attr & ~E2E_REVERSE;
        }
    }
}

/* Decodes one UTF-8 character at *p (advancing it). */
static uint32_t utf8(const char **p)
{
    const unsigned char *s = (const unsigned char *)*p;
    int n = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC0 ? 2 : 1;
    uint32_t cp = n == 1 ? s[0] : s[0] & (0x7F >> n);
    for (int i = 1; i < n && s[i]; i++)
        cp = cp << 6 | (s[i] & 0x3F);
    *p += n;
    return cp;
}

void e2e_cells(const char *text, struct e2e_cell *cells, int cols, int rows)
{
    for (int i = 0; i < cols * rows; i++)
        cells[i] = (struct e2e_cell){' ', E2E_DEFAULT, E2E_DEFAULT, 0};
    int fg = E2E_DEFAULT, bg = E2E_DEFAULT, row = 0, col = 0;
    unsigned attr = 0;
    for (const char *p = text; *p && row < rows;) {
        if (*p == '\n') {
            row++, col = 0, p++;
            continue;
        }
        if (*p == 27 && p[1] == '[') {
            int v[32], nv = 0;
            const char *q = p + 2;
            while (*q && *q != 'm' && nv < 32) {
                v[nv++] = (int)strtol(q, (char **)&q, 10);
                if (*q != ';')
                    break;
                q++;
            }
            apply_sgr(v, nv, &fg, &bg, &attr);
            p = *q ? q + 1 : q;
            continue;
        }
        uint32_t ch = utf8(&p);
        if (col < cols)
            cells[row * cols + col++] = (struct e2e_cell){ch, fg, bg, attr};
    }
}

void e2e_pixels(const struct e2e_cell *c, int *top, int *bot)
{
    int fg = c->fg, bg = c->bg;
    if (c->attr & E2E_REVERSE)
        fg = c->bg, bg = c->fg == E2E_DEFAULT ? E2E_INK : c->fg;
    /* A half shows fg where the glyph inks any of it (▀ ▄ █ as they are; a
     * quadrant or sextant by what it inks of each half). */
    *top = fit_inks(c->ch, 0.25f, 0.25f) || fit_inks(c->ch, 0.75f, 0.25f) ? fg : bg;
    *bot = fit_inks(c->ch, 0.25f, 0.75f) || fit_inks(c->ch, 0.75f, 0.75f) ? fg : bg;
}

char *e2e_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *p = malloc(cap);
    for (size_t got; p && (got = fread(p + n, 1, cap - n - 1, f)) > 0;) {
        n += got;
        if (cap - n - 1 == 0) {
            char *q = realloc(p, cap *= 2);
            if (!q)
                free(p);
            p = q;
        }
    }
    fclose(f);
    if (p) {
        p[n] = 0;
        if (len)
            *len = n;
    }
    return p;
}

bool e2e_valid_cast(const char *text)
{
    if (!text || strncmp(text, "{\"version\": 2", 13) != 0 || !strchr(text, '\n'))
        return false;
    for (const char *p = strchr(text, '\n'); p && p[1]; p = strchr(p + 1, '\n')) {
        const char *end = strchr(p + 1, '\n');
        char *num;
        strtod(p + 2, &num);
        if (!end || p[1] != '[' || num == p + 2 || end[-1] != ']' ||
            (strncmp(num, ", \"o\", \"", 8) != 0 && strncmp(num, ", \"r\", \"", 8) != 0) ||
            end[-2] != '"')
            return false;
    }
    return text[strlen(text) - 1] == '\n';
}
