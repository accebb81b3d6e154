/*
 * e2e.c — driving the real ./swirl in a tmux pane for the end-to-end tests (see
 * e2e.h): one tmux server per test (its own socket), keys and raw bytes in,
 * captures out, and waits that poll the screen against a deadline.
 */
#include "e2e.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

char e2e_sock[64];

/* Seconds on the monotonic clock: the driver's own, whatever the app uses. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void e2e_nap(void)
{
    struct timespec ts = {0, 40 * 1000 * 1000};
    nanosleep(&ts, NULL);
}

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
const char *e2e_tmux(const char *args)
{
    static char out[1 << 20];
    char cmd[512];
    snprintf(cmd, sizeof cmd, "tmux -L %s %s 2>/dev/null", e2e_sock, args);
    FILE *p = popen(cmd, "r");
    size_t n = 0;
    if (p) {
        n = fread(out, 1, sizeof out - 1, p);
        pclose(p);
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

/* Starts `cmd` (run by sh) in a cols x rows pane. */
bool e2e_start(int cols, int rows, const char *cmd)
{
    snprintf(e2e_sock, sizeof e2e_sock, "swirl-e2e-%d-%ld", (int)getpid(),
             (long)(now() * 1000) % 100000);
    return e2e_sh("LANG=C.UTF-8 LC_ALL=C.UTF-8 tmux -L %s -f /dev/null new-session -d -s e -x %d "
              "-y %d \"%s\"", e2e_sock, cols, rows, cmd) == 0;
}

void e2e_stop(void) { e2e_sh("tmux -L %s kill-server 2>/dev/null", e2e_sock); }

/* Starts swirl with extra arguments and environment, and waits for its HUD. */
bool e2e_start_swirl(int cols, int rows, const char *env, const char *args)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "env TERM=tmux-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 %s ./swirl %s; "
             "echo SWIRL-EXIT=\\$?; sleep 60", env, args);
    return e2e_start(cols, rows, cmd);
}

/* The one polling loop: a capture is judged at least once, and once more after
 * the deadline has passed (a slow capture on a loaded machine still counts). */
bool e2e_wait(const char *(*grab)(void), bool (*pred)(const char *screen, void *arg),
              void *arg, double seconds)
{
    double t0 = now();
    for (;;) {
        bool late = now() - t0 >= seconds;
        if (pred(grab(), arg))
            return true;
        if (late)
            return false;
        e2e_nap();
    }
}

static bool has(const char *screen, void *needle) { return strstr(screen, needle) != NULL; }
static bool lacks(const char *screen, void *needle) { return strstr(screen, needle) == NULL; }

bool e2e_wait_for(const char *(*grab)(void), const char *needle)
{
    return e2e_wait(grab, has, (void *)needle, E2E_DEADLINE);
}

bool e2e_wait_gone(const char *(*grab)(void), const char *needle)
{
    return e2e_wait(grab, lacks, (void *)needle, E2E_DEADLINE);
}

/* Sends bytes as they are (hex, so escapes need no quoting). */
void e2e_send_bytes(const char *s)
{
    char cmd[4096];
    int n = snprintf(cmd, sizeof cmd, "tmux -L %s send-keys -t e -H", e2e_sock);
    for (; *s && n < (int)sizeof cmd - 8; s++)
        n += snprintf(cmd + n, sizeof cmd - (size_t)n, " %02x", (unsigned char)*s);
    system(cmd);
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
