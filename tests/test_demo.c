/*
 * test_demo.c — the committed demo.cast: a valid asciicast v2 recording (header,
 * JSON events, times that never go back), long enough and small enough, and its
 * bytes, replayed in a tmux pane of the recorded size, show half-block cells and
 * each scene's HUD at its scripted time in the tour, one tour of the scene
 * table long. And it is what `make demo` records today: regenerated headless,
 * it comes out byte for byte the same.
 */
#include "app.h"
#include "e2e.h"
#include "scene.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEMO_PATH "demo.cast"
#define SCENE_SECONDS APP_DEMO_SCENE_SECONDS
/* The Makefile's `demo` recipe, but for its --record FILE: no --seconds, so
 * that it lasts one tour of the scene table, however many scenes it has. */
#define DEMO_ARGS "--headless --demo --size 80x24 --fps 10 --tolerance 8 --seed 1"

struct event {
    double t;
    char code;
    char *data;
    size_t len;
};

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Decodes the JSON string starting at *p (at its opening quote); returns its
 * bytes (UTF-8) or NULL when it is not valid JSON. */
static char *json_string(const char **p, size_t *len)
{
    const char *s = *p;
    if (*s != '"')
        return NULL;
    s++;
    size_t cap = strlen(s) + 1, n = 0;
    char *out = malloc(cap);
    while (*s && *s != '"') {
        unsigned char c = (unsigned char)*s++;
        if (c < 0x20) {
            free(out);
            return NULL; /* raw control characters are not allowed in JSON */
        }
        if (c != '\\') {
            out[n++] = (char)c;
            continue;
        }
        c = (unsigned char)*s++;
        switch (c) {
        case '"': case '\\': case '/': out[n++] = (char)c; break;
        case 'n': out[n++] = '\n'; break;
        case 'r': out[n++] = '\r'; break;
        case 't': out[n++] = '\t'; break;
        case 'b': out[n++] = '\b'; break;
        case 'f': out[n++] = '\f'; break;
        case 'u': {
            int v = 0;
            for (int k = 0; k < 4; k++) {
                int h = hexval(*s++);
                if (h < 0) {
                    free(out);
                    return NULL;
                }
                v = v * 16 + h;
            }
            if (v < 0x80) {
                out[n++] = (char)v;
            } else if (v < 0x800) {
                out[n++] = (char)(0xC0 | (v >> 6));
                out[n++] = (char)(0x80 | (v & 0x3F));
            } else {
                out[n++] = (char)(0xE0 | (v >> 12));
                out[n++] = (char)(0x80 | ((v >> 6) & 0x3F));
                out[n++] = (char)(0x80 | (v & 0x3F));
            }
            break;
        }
        default:
            free(out);
            return NULL;
        }
    }
    if (*s != '"') {
        free(out);
        return NULL;
    }
    *p = s + 1;
    *len = n;
    return out;
}

/* Reads demo.cast; fills the header's size and the events. Returns the event
 * count or -1 with a reason. */
static int load(int *w, int *h, struct event **evs, const char **why)
{
    FILE *f = fopen(DEMO_PATH, "r");
    if (!f) {
        *why = "cannot open demo.cast";
        return -1;
    }
    static char line[1 << 22];
    int n = 0, cap = 0;
    *evs = NULL;
    if (!fgets(line, sizeof line, f) || !strstr(line, "\"version\": 2") ||
        sscanf(strstr(line, "\"width\":") ? strstr(line, "\"width\":") : "", "\"width\": %d", w) != 1 ||
        sscanf(strstr(line, "\"height\":") ? strstr(line, "\"height\":") : "", "\"height\": %d", h) != 1) {
        *why = "bad header";
        fclose(f);
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        struct event e;
        const char *p = line;
        char *end;
        if (*p++ != '[') {
            *why = "an event is not a JSON array";
            n = -1;
            break;
        }
        e.t = strtod(p, &end);
        if (end == p || strncmp(end, ", \"", 3) != 0 || end[4] != '"') {
            *why = "an event has no time or code";
            n = -1;
            break;
        }
        e.code = end[3];
        p = end + 7;
        e.data = json_string(&p, &e.len);
        if (!e.data || strcmp(p, "]\n") != 0) {
            *why = "an event's data is not a valid JSON string";
            free(e.data);
            n = -1;
            break;
        }
        if (n == cap)
            *evs = realloc(*evs, (size_t)(cap = cap ? cap * 2 : 1024) * sizeof **evs);
        (*evs)[n++] = e;
    }
    fclose(f);
    return n;
}

/* load(), failing the test with the reason when demo.cast is not right. */
static int load_checked(int *w, int *h, struct event **evs)
{
    const char *why = "";
    int n = load(w, h, evs, &why);
    CHECK_MSG(n > 0, "demo.cast: %s", why);
    return n;
}

static void free_events(struct event *evs, int n)
{
    for (int i = 0; i < n; i++)
        free(evs[i].data);
    free(evs);
}

TEST(demo_cast_is_valid_asciicast_v2)
{
    int w = 0, h = 0;
    struct event *evs;
    int n = load_checked(&w, &h, &evs);
    if (n <= 0)
        return;
    CHECK(w >= 40 && h >= 12);
    double last = 0;
    for (int i = 0; i < n; i++) {
        CHECK_MSG(evs[i].t >= last, "time goes back at event %d", i);
        CHECK(evs[i].code == 'o' || evs[i].code == 'r');
        last = evs[i].t;
    }
    /* One tour: each scene of the table its turn, no more. */
    CHECK_MSG(fabs(last - SCENE_COUNT * SCENE_SECONDS) < 0.5, "lasts %.1f s, not %d x %.0f s",
              last, SCENE_COUNT, SCENE_SECONDS);
    /* It ends cleanly: colours and cursor back, the cursor on a line under the
     * last frame, where a shell's prompt after the replay goes. */
    CHECK_MSG(strstr(evs[n - 1].data, "\x1b[0m\x1b[?25h\x1b[999;1H\r\n") != NULL,
              "the last event is not the tail");
    FILE *f = fopen(DEMO_PATH, "r");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    CHECK_MSG(size < 5 * 1024 * 1024, "%ld bytes", size);
    free_events(evs, n);
}

TEST_E2E(demo_cast_replays_each_scene_in_tmux)
{
    int w = 0, h = 0;
    struct event *evs;
    int n = load_checked(&w, &h, &evs);
    if (n <= 0)
        return;
    for (int s = 0; s < SCENE_COUNT; s++) {
        /* Everything written up to the middle of the scene's turn, replayed by
         * cat into a pane of the recorded size. */
        double at = (s + 0.5) * SCENE_SECONDS;
        char path[64], cmd[160], hud[32];
        snprintf(path, sizeof path, "/tmp/swirl-demo-%d-%d", (int)getpid(), s);
        FILE *f = fopen(path, "wb");
        for (int i = 0; i < n && evs[i].t <= at; i++)
            if (evs[i].code == 'o')
                fwrite(evs[i].data, 1, evs[i].len, f);
        fclose(f);
        snprintf(cmd, sizeof cmd, "stty -onlcr; cat %s; sleep 60", path);
        CHECK(e2e_start(w, h, cmd));
        /* The HUD opens the last row with the scene's name. */
        snprintf(hud, sizeof hud, "\n %s ", scenes[s]->name);
        CHECK_MSG(e2e_wait_for(e2e_plain, hud), "no '%s' HUD at %.1f s", scenes[s]->name, at);
        CHECK_MSG(e2e_wait_for(e2e_plain, "\xe2\x96\x80"), "no half-blocks at %.1f s", at);
        e2e_stop();
        remove(path);
    }
    free_events(evs, n);
}

/* Records the demo headless into path; true when swirl exited 0. */
static bool record_demo(const char *path)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "./swirl " DEMO_ARGS " --record %s >/dev/null", path);
    int rc = system(cmd);
    CHECK_MSG(WIFEXITED(rc) && WEXITSTATUS(rc) == 0, "'%s': exit %d", cmd, rc);
    return WIFEXITED(rc) && WEXITSTATUS(rc) == 0;
}

/* Where two texts first differ: the byte offset and the 1-based line. */
static void first_difference(const char *a, size_t na, const char *b, size_t nb, size_t *at,
                             int *line)
{
    size_t i = 0;
    *line = 1;
    while (i < na && i < nb && a[i] == b[i])
        *line += a[i++] == '\n';
    *at = i;
}

TEST_E2E_CPU(demo_cast_regenerates_byte_for_byte)
{
    /* The test records what the Makefile records: same arguments. */
    char *mk = e2e_slurp("Makefile", NULL);
    CHECK_MSG(mk && strstr(mk, "./swirl " DEMO_ARGS " --record demo.cast"),
              "the Makefile's demo recipe is not ./swirl %s --record demo.cast", DEMO_ARGS);
    free(mk);

    char one[64], two[64];
    snprintf(one, sizeof one, "/tmp/swirl-demo-regen-%d-1.cast", (int)getpid());
    snprintf(two, sizeof two, "/tmp/swirl-demo-regen-%d-2.cast", (int)getpid());
    size_t n1 = 0, n2 = 0, nd = 0;
    char *r1 = record_demo(one) ? e2e_slurp(one, &n1) : NULL;
    char *committed = e2e_slurp(DEMO_PATH, &nd);
    /* The same bytes as the committed recording (another run's, on another
     * machine) are the same bytes from run to run; only when they are not is
     * a second run needed, to tell a change of the picture from a run that
     * does not repeat itself. */
    bool same = r1 && committed && n1 == nd && memcmp(r1, committed, n1) == 0;
    char *r2 = same ? NULL : record_demo(two) ? e2e_slurp(two, &n2) : NULL;
    if (same)
        r2 = r1, n2 = n1;
    remove(one);
    remove(two);
    CHECK_MSG(r1 && r2, "no recording");
    CHECK_MSG(committed, "cannot read " DEMO_PATH);
    if (r1 && r2 && committed) {
        /* Reproducible: the header holds no wall-clock timestamp (headless
         * recordings leave it out, as a timestamp of 0 does) ... */
        const char *eol = strchr(r1, '\n');
        size_t hl = eol ? (size_t)(eol - r1) : n1;
        static const char head[] = "{\"version\": 2, \"width\": 80, \"height\": 24,";
        static const char zero[] = "\"timestamp\": 0";
        CHECK_MSG(eol && strncmp(r1, head, sizeof head - 1) == 0, "header: %.*s", (int)hl, r1);
        const char *ts = eol ? strstr(r1, "\"timestamp\"") : NULL;
        CHECK_MSG(!ts || ts > eol ||
                      (strncmp(ts, zero, sizeof zero - 1) == 0 && ts[sizeof zero - 1] &&
                       strchr(",}", ts[sizeof zero - 1])),
                  "header: %.*s", (int)hl, r1);
        /* ... and two runs give the same bytes, */
        size_t at;
        int line;
        first_difference(r1, n1, r2, n2, &at, &line);
        CHECK_MSG(n1 == n2 && at == n1, "two recordings differ at byte %zu (line %d): %zu vs %zu bytes",
                  at, line, n1, n2);
        /* which are those committed (if not: `make demo` and commit it). */
        first_difference(r1, n1, committed, nd, &at, &line);
        CHECK_MSG(n1 == nd && at == n1,
                  DEMO_PATH " is not what `make demo` records now: first difference at byte %zu "
                  "(line %d), %zu bytes recorded vs %zu committed",
                  at, line, n1, nd);
    }
    if (r2 != r1)
        free(r2);
    free(r1);
    free(committed);
}
