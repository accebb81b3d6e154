/*
 * test_e2e.c — end-to-end tests: the real ./swirl in a tmux pane, driven the way
 * a person drives it (keys, SGR mouse reports, resizes, signals) and read back
 * with capture-pane -e (colours included) and tmux's own view of the pane's
 * modes. Every wait polls the screen against a deadline; nothing sleeps a fixed
 * time and hopes. Each test uses its own tmux server socket.
 */
#include "e2e.h"
#include "scene.h"
#include "test.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* How many truecolor colours on one captured line are bright (a channel > 60):
 * dye, not the dark background. */
static int bright_colours(const char *text, int row)
{
    static char line[1 << 16];
    e2e_line_of(text, row, line, sizeof line);
    int n = 0;
    for (const char *p = line; (p = strstr(p, ";2;")); p += 3) {
        int r, g, b;
        if (sscanf(p + 3, "%d;%d;%d", &r, &g, &b) == 3 && (r > 60 || g > 60 || b > 60))
            n++;
    }
    return n;
}

/* The colours of the cells of one captured row (capture-pane -e): for a ▀ the
 * upper pixel is fg and the lower bg; for a space both are bg. Returns cells. */
struct px2 {
    int top, bot; /* 0xRRGGBB, or -1 for the default colour */
};

/* capture-pane -e writes each cell's attributes as a change from the cell
 * before it, across line ends too, so the state is carried from the top. */
static int row_pixels(const char *text, int row, struct px2 *out, int max)
{
    int fg = -1, bg = -1, n = 0, r = 0;
    for (const char *p = text; *p && r <= row;) {
        if (*p == '\n') {
            r++;
            p++;
            continue;
        }
        if (*p == 27 && p[1] == '[') {
            int v[32], nv = 0;
            const char *q = p + 2;
            while (*q && *q != 'm' && *q != '\n' && nv < 32) {
                v[nv++] = (int)strtol(q, (char **)&q, 10);
                if (*q == ';')
                    q++;
                else if (*q != 'm')
                    break;
            }
            for (int i = 0; i < nv; i++) {
                if ((v[i] == 38 || v[i] == 48) && i + 4 < nv && v[i + 1] == 2) {
                    int c = (v[i + 2] << 16) | (v[i + 3] << 8) | v[i + 4];
                    if (v[i] == 38)
                        fg = c;
                    else
                        bg = c;
                    i += 4;
                } else if (v[i] == 39) {
                    fg = -1;
                } else if (v[i] == 49) {
                    bg = -1;
                } else if (v[i] == 0) {
                    fg = bg = -1;
                }
            }
            p = *q == 'm' ? q + 1 : q;
            continue;
        }
        bool upper = strncmp(p, "\xe2\x96\x80", 3) == 0;
        if (r == row && n < max) {
            out[n].top = upper ? fg : bg;
            out[n].bot = bg;
            n++;
        }
        p += upper ? 3 : ((unsigned char)*p >= 0xC0 ? ((unsigned char)*p >= 0xE0 ? 3 : 2) : 1);
    }
    return n;
}

static bool is_water(int c)
{
    int r = c >> 16 & 255, g = c >> 8 & 255, b = c & 255;
    return c >= 0 && b >= 100 && b > r + 50 && b > g + 30;
}

/* Cells of rows [r0,r1) whose pixels satisfy pred; the first one found goes to
 * (*col,*row). */
static int find_cells(const char *text, int r0, int r1, bool (*pred)(int), int *col, int *row)
{
    struct px2 px[512];
    int count = 0;
    for (int r = r0; r < r1; r++) {
        int n = row_pixels(text, r, px, 512);
        for (int c = 0; c < n; c++)
            if (pred(px[c].top) || pred(px[c].bot)) {
                if (count++ == 0 && col)
                    *col = c, *row = r;
            }
    }
    return count;
}

/* What e2e_wait() looks for in a capture: at least `want` cells of rows [r0,r1)
 * of a colour (find_cells). It keeps the count and the first cell it saw. */
struct cells_query {
    int r0, r1;
    bool (*colour)(int);
    int want;
    int found, col, row;
};

static bool enough_cells(const char *screen, void *arg)
{
    struct cells_query *q = arg;
    q->found = find_cells(screen, q->r0, q->r1, q->colour, &q->col, &q->row);
    return q->found >= q->want;
}

/* Bright colours on one row (bright_colours) within [lo,hi]; keeps the count. */
struct bright_query {
    int row, lo, hi;
    int seen;
};

static bool bright_in_range(const char *screen, void *arg)
{
    struct bright_query *q = arg;
    q->seen = bright_colours(screen, q->row);
    return q->seen >= q->lo && q->seen <= q->hi;
}

/* The HUD (its "fps") on the last row of a pane *rows tall. */
static bool hud_on_last_row(const char *screen, void *rows)
{
    char last[4096];
    e2e_line_of(screen, *(int *)rows - 1, last, sizeof last);
    return strstr(last, "fps") != NULL;
}

/* Resizes the pane and waits for the HUD on its new last row. */
static bool resize_and_wait(int cols, int rows)
{
    e2e_sh("tmux -L %s resize-window -t e -x %d -y %d", e2e_sock, cols, rows);
    return e2e_wait(e2e_plain, hud_on_last_row, &rows, E2E_DEADLINE);
}

/* q, then the shell's report of a clean exit, then the server goes. */
static void quit_and_stop(void)
{
    e2e_send_key("q");
    CHECK(e2e_wait_for(e2e_plain, "SWIRL-EXIT=0"));
    e2e_stop();
}

/* At least `want` copies of a needle in a capture; keeps the count. */
struct count_query {
    const char *needle;
    int want, seen;
};

static bool enough_copies(const char *screen, void *arg)
{
    struct count_query *q = arg;
    q->seen = count(screen, q->needle);
    return q->seen >= q->want;
}

TEST_E2E(e2e_truecolor_half_blocks_and_hud)
{
    CHECK(e2e_start_swirl(100, 30, "COLORTERM=truecolor", ""));
    CHECK(e2e_wait_hud());
    struct count_query blocks = {.needle = "\xe2\x96\x80", .want = 101}; /* ▀ */
    CHECK_MSG(e2e_wait(e2e_screen, enough_copies, &blocks, E2E_DEADLINE), "%d half-blocks",
              blocks.seen);
    CHECK(e2e_wait_for(e2e_screen, "38;2;") && e2e_wait_for(e2e_screen, "48;2;"));
    CHECK(e2e_wait_for(e2e_plain, " fps ")); /* once it is measured */
    char last[4096];
    e2e_line_of(e2e_plain(), 29, last, sizeof last);
    CHECK_MSG(strstr(last, "dye") && strstr(last, "fps"), "last row: %s", last);
    /* The hint fades in the middle of the canvas. */
    CHECK(e2e_wait_for(e2e_plain, "drag to stir"));
    /* The pane runs in the alternate screen with button-motion SGR mouse on. */
    CHECK(e2e_wait_for(e2e_modes, "1 0 1 1 1"));
    e2e_send_key("q");
    e2e_stop();
}

TEST_E2E(e2e_drag_leaves_dye_along_its_path)
{
    CHECK(e2e_start_swirl(100, 30, "COLORTERM=truecolor", ""));
    CHECK(e2e_wait_hud());
    e2e_send_key("c"); /* clear the opening splats */
    struct bright_query dark = {.row = 6, .lo = 0, .hi = 2};
    CHECK_MSG(e2e_wait(e2e_screen, bright_in_range, &dark, E2E_DEADLINE),
              "row 7 still has %d bright colours after c", dark.seen);
    int before = dark.seen, far_before = bright_colours(e2e_screen(), 24);
    /* Press at column 10, row 7 (1-based), drag right along row 7 in steps. */
    e2e_send_bytes("\x1b[<0;10;7M");
    char rep[64];
    for (int x = 14; x <= 90; x += 4) {
        snprintf(rep, sizeof rep, "\x1b[<32;%d;7M", x);
        e2e_send_bytes(rep);
    }
    e2e_send_bytes("\x1b[<0;90;7m");
    struct bright_query lit = {.row = 6, .lo = 30, .hi = 1 << 20};
    CHECK_MSG(e2e_wait(e2e_screen, bright_in_range, &lit, E2E_DEADLINE),
              "bright colours on the stroke's row: %d -> %d", before, lit.seen);
    /* Far from the stroke, the fluid stayed dark. */
    CHECK(bright_colours(e2e_screen(), 24) <= far_before + 2);
    /* The dye spans the stroke: its left and right halves both lit. */
    char line[1 << 16];
    e2e_line_of(e2e_screen(), 6, line, sizeof line);
    size_t half = strlen(line) / 2;
    char left[1 << 15];
    memcpy(left, line, half);
    left[half] = 0;
    CHECK(strstr(left, ";2;") != NULL && strstr(line + half, ";2;") != NULL);
    e2e_send_key("q");
    e2e_stop();
}

static bool no_water_up_high(const char *screen, void *arg)
{
    (void)arg;
    return find_cells(screen, 2, 8, is_water, NULL, NULL) == 0;
}

TEST_E2E(e2e_drag_moves_water)
{
    CHECK(e2e_start_swirl(100, 30, "COLORTERM=truecolor", "--scene pbf"));
    CHECK(e2e_wait_hud());
    /* Let the block collapse: water on the floor of the box, none up high. */
    struct cells_query floor = {.r0 = 25, .r1 = 28, .colour = is_water, .want = 20};
    CHECK_MSG(e2e_wait(e2e_screen, enough_cells, &floor, E2E_DEADLINE),
              "%d water cells on the floor", floor.found);
    CHECK_MSG(e2e_wait(e2e_screen, no_water_up_high, NULL, E2E_DEADLINE), "water stays up high");
    CHECK(e2e_wait(e2e_screen, enough_cells, &floor, E2E_DEADLINE));
    int col = floor.col, row = floor.row;
    /* Grab it and lift it to the top of the box, holding on. */
    char rep[64];
    snprintf(rep, sizeof rep, "\x1b[<0;%d;%dM", col + 1, row + 1);
    e2e_send_bytes(rep);
    for (int y = row; y >= 4; y -= 3) {
        snprintf(rep, sizeof rep, "\x1b[<32;%d;%dM", col + 1, y + 1);
        e2e_send_bytes(rep);
    }
    /* A handful of water follows the pointer up there. */
    struct cells_query top = {.r0 = 2, .r1 = 8, .colour = is_water, .want = 12};
    CHECK_MSG(e2e_wait(e2e_screen, enough_cells, &top, E2E_DEADLINE), "%d cells of water at the top",
              top.found);
    snprintf(rep, sizeof rep, "\x1b[<0;%d;5m", col + 1);
    e2e_send_bytes(rep);
    e2e_send_key("q");
    e2e_stop();
}

static bool is_cloth(int c)
{
    int r = c >> 16 & 255, g = c >> 8 & 255, b = c & 255;
    return c >= 0 && b > 90 && b > r + 30 && g > 40;
}

TEST_E2E(e2e_drag_moves_the_cloth)
{
    CHECK(e2e_start_swirl(100, 30, "COLORTERM=truecolor", "--scene cloth"));
    CHECK(e2e_wait_hud());
    /* The cloth hangs in the upper middle; the lower left corner stays clear. */
    struct cells_query hung = {.r0 = 2, .r1 = 20, .colour = is_cloth, .want = 51};
    CHECK_MSG(e2e_wait(e2e_screen, enough_cells, &hung, E2E_DEADLINE), "%d cloth cells", hung.found);
    /* One capture for the checks and the search below. */
    char *s = strdup(e2e_screen());
    CHECK_INT(find_cells(s, 24, 28, is_cloth, NULL, NULL), 0);
    /* Grab the cloth's lowest row near its middle and pull it down and left. */
    int bottom = -1, mid = -1;
    for (int r = 2; r < 24; r++) {
        struct px2 px[512];
        int n = row_pixels(s, r, px, 512);
        for (int c = 30; c < n && c < 70; c++)
            if (is_cloth(px[c].top) || is_cloth(px[c].bot))
                bottom = r, mid = c;
    }
    free(s);
    CHECK(bottom > 0);
    char rep[64];
    snprintf(rep, sizeof rep, "\x1b[<0;%d;%dM", mid + 1, bottom + 1);
    e2e_send_bytes(rep);
    for (int k = 1; k <= 8; k++) {
        snprintf(rep, sizeof rep, "\x1b[<32;%d;%dM", mid + 1 - 3 * k, bottom + 1 + k);
        e2e_send_bytes(rep);
    }
    struct cells_query pulled = {.r0 = 24, .r1 = 28, .colour = is_cloth, .want = 1};
    CHECK_MSG(e2e_wait(e2e_screen, enough_cells, &pulled, E2E_DEADLINE), "the cloth did not follow");
    snprintf(rep, sizeof rep, "\x1b[<0;%d;%dm", mid + 1 - 24, bottom + 9);
    e2e_send_bytes(rep);
    e2e_send_key("q");
    e2e_stop();
}

TEST_E2E(e2e_scene_keys_switch_scenes)
{
    /* 160 columns: the scenes' figures stay on the status line beside any
     * tag a loaded machine brings. */
    double v;
    CHECK(e2e_start_swirl(160, 30, "COLORTERM=truecolor", ""));
    CHECK(e2e_wait_hud());
    e2e_send_key("2");
    CHECK(e2e_wait_for(e2e_plain, " pbf "));
    CHECK(e2e_wait_figure("particles", &v));
    e2e_send_key("3");
    CHECK(e2e_wait_for(e2e_plain, " cloth "));
    CHECK(e2e_wait_figure("constraints", &v));
    /* The last digit shows the table's last scene, and Tab wraps from it to
     * the first (the dye's "grid"). */
    char key[2] = {(char)('0' + SCENE_COUNT), 0}, name[64];
    snprintf(name, sizeof name, " %s ", scenes[SCENE_COUNT - 1]->name);
    e2e_send_key(key);
    CHECK_MSG(e2e_wait_for(e2e_plain, name), "no '%s' after %s", name, key);
    e2e_send_key("Tab");
    CHECK(e2e_wait_for(e2e_plain, " grid "));
    e2e_send_key("?");
    CHECK(e2e_wait_for(e2e_plain, "this help"));
    e2e_send_key("Escape");
    CHECK(e2e_wait_gone(e2e_plain, "this help"));
    e2e_send_key("p");
    CHECK(e2e_wait_for(e2e_plain, "viscosity"));
    quit_and_stop();
}

/* Strings the terminal (or a program before swirl) sends unasked, mid-run:
 * an OSC colour answer, a title report, an APC, a PM and an SOS with keys in
 * them (1 would switch to the dye, r restart, q quit), and one cut off by an
 * arrow key. swirl neither quits nor switches, and the keys after them act. */
TEST_E2E(e2e_unasked_strings_are_not_keys)
{
    CHECK(e2e_start_swirl(100, 30, "COLORTERM=truecolor", "--scene pbf"));
    CHECK(e2e_wait_for(e2e_plain, "particles"));
    e2e_send_bytes("\x1b]11;rgb:1e1e/1e1e/1e1e\x1b\\");
    e2e_send_bytes("\x1b]lq1 title\x1b\\\x1b_Gi=1;q1r\x1b\\\x1b^q1\x1b\\\x1bXq1r\x07");
    /* cut off by an ESC that starts the up arrow (in one write: a pause
     * would end it first) */
    e2e_send_bytes("\x1b]10;rgb:1q1r?\x1b[A");
    e2e_send_key("?");
    CHECK_MSG(e2e_wait_for(e2e_plain, "this help"), "no help after the strings");
    const char *s = e2e_plain();
    CHECK_MSG(strstr(s, " pbf ") != NULL, "the scene changed:\n%s", s);
    e2e_send_key("Escape");
    CHECK(e2e_wait_gone(e2e_plain, "this help"));
    e2e_send_key("3");
    CHECK(e2e_wait_for(e2e_plain, " cloth "));
    quit_and_stop();
}

TEST_E2E(e2e_resize_keeps_hud_on_last_row)
{
    CHECK(e2e_start_swirl(100, 30, "COLORTERM=truecolor", ""));
    CHECK(e2e_wait_hud());
    CHECK_MSG(resize_and_wait(70, 18), "no HUD on the last row after shrinking");
    CHECK_MSG(resize_and_wait(120, 36), "no HUD on the last row after growing");
    /* Nothing stale: the old HUD row is canvas now, and every canvas row is drawn. */
    const char *s = e2e_plain();
    CHECK_INT(count(s, E2E_HUD_SIGN), 1);
    const char *sc = e2e_screen_full();
    for (int r = 0; r < 35; r++) {
        /* A painted row: all 120 cells carry the scene's colours; a stale one
         * (never drawn after growing) would keep the default background. */
        struct px2 px[256];
        int n = row_pixels(sc, r, px, 256), unpainted = 0;
        for (int c = 0; c < n; c++)
            unpainted += px[c].bot < 0;
        CHECK_MSG(n == 120 && unpainted == 0, "row %d: %d cells, %d with the default background",
                  r, n, unpainted);
    }
    e2e_send_key("q");
    e2e_stop();
}

TEST_E2E(e2e_quit_restores_the_terminal)
{
    CHECK(e2e_start_swirl(80, 24, "COLORTERM=truecolor", ""));
    CHECK(e2e_wait_hud());
    CHECK(e2e_wait_for(e2e_modes, "1 0 1 1 1"));
    e2e_send_key("q");
    CHECK(e2e_wait_for(e2e_plain, "SWIRL-EXIT=0"));
    /* Main screen, cursor visible, no mouse reporting. */
    CHECK_MSG(e2e_wait_for(e2e_modes, "0 1 0 0 0"), "e2e_modes: %s", e2e_modes());
    e2e_stop();
}

/* The pane's shell runs swirl: send a signal to that child only. */
static void signal_swirl(const char *sig)
{
    char pid[32];
    snprintf(pid, sizeof pid, "%s", e2e_tmux("display -p -t e '#{pane_pid}'"));
    pid[strcspn(pid, "\n")] = 0;
    e2e_sh("pkill -%s -P %s -x swirl", sig, pid);
}

TEST_E2E(e2e_ctrl_c_and_signals_restore_the_terminal)
{
    /* Ctrl-C, SIGTERM and SIGHUP: the terminal comes back whole and the exit
     * status is the shell's 128 + signal. */
    static const struct {
        const char *how, *status;
    } cases[] = {{"C-c", "SWIRL-EXIT=130"}, {"TERM", "SWIRL-EXIT=143"}, {"HUP", "SWIRL-EXIT=129"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK(e2e_start_swirl(80, 24, "COLORTERM=truecolor", "--scene cloth"));
        CHECK(e2e_wait_hud());
        CHECK(e2e_wait_for(e2e_modes, "1 0 1 1 1"));
        if (i == 0)
            e2e_send_key(cases[i].how);
        else
            signal_swirl(cases[i].how);
        CHECK_MSG(e2e_wait_for(e2e_plain, cases[i].status), "%s: no %s", cases[i].how, cases[i].status);
        CHECK_MSG(e2e_wait_for(e2e_modes, "0 1 0 0 0"), "after %s: %s", cases[i].how, e2e_modes());
        e2e_stop();
    }
}

/* The pane's terminal is in its cooked state again: echo and line editing on. */
static bool tty_cooked(void)
{
    char tty[64], cmd[256];
    snprintf(tty, sizeof tty, "%s", e2e_tmux("display -p -t e '#{pane_tty}'"));
    tty[strcspn(tty, "\n")] = 0;
    snprintf(cmd, sizeof cmd, "stty -F %s -a | tr ' ' '\\n' | grep -qx echo && "
             "stty -F %s -a | tr ' ' '\\n' | grep -qx icanon", tty, tty);
    return e2e_sh("%s", cmd) == 0;
}

/* Every other signal whose default action ends the process: the terminal is
 * restored first, then the signal is raised again, so the status stays
 * 128 + signal (and SIGQUIT, Ctrl-\\, may still dump core). */
TEST_E2E(e2e_every_terminating_signal_restores_the_terminal)
{
    static const struct {
        const char *how, *status;
    } cases[] = {{"C-\\", "SWIRL-EXIT=131"}, {"QUIT", "SWIRL-EXIT=131"},
                 {"PIPE", "SWIRL-EXIT=141"}, {"USR1", "SWIRL-EXIT=138"},
                 {"USR2", "SWIRL-EXIT=140"}, {"ALRM", "SWIRL-EXIT=142"},
                 {"VTALRM", "SWIRL-EXIT=154"}, {"XCPU", "SWIRL-EXIT=152"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK(e2e_start_swirl(80, 24, "COLORTERM=truecolor", "--scene dye"));
        CHECK(e2e_wait_hud());
        CHECK(e2e_wait_for(e2e_modes, "1 0 1 1 1"));
        if (i == 0)
            e2e_send_key(cases[i].how);
        else
            signal_swirl(cases[i].how);
        CHECK_MSG(e2e_wait_for(e2e_plain, cases[i].status), "%s: no %s:\n%s", cases[i].how,
                  cases[i].status, e2e_plain());
        CHECK_MSG(e2e_wait_for(e2e_modes, "0 1 0 0 0"), "after %s: %s", cases[i].how, e2e_modes());
        CHECK_MSG(tty_cooked(), "after %s: echo or icanon still off", cases[i].how);
        e2e_stop();
    }
}

TEST_E2E(e2e_ctrl_z_and_fg_leave_and_reenter)
{
    CHECK(e2e_start(80, 24, "env TERM=tmux-256color COLORTERM=truecolor PS1=READY: bash --norc --noprofile -i"));
    CHECK(e2e_wait_for(e2e_plain, "READY:"));
    e2e_send_bytes("./swirl\r");
    CHECK(e2e_wait_hud());
    CHECK(e2e_wait_for(e2e_modes, "1 0 1 1 1"));
    e2e_send_key("C-z");
    CHECK_MSG(e2e_wait_for(e2e_modes, "0 1 0 0 0"), "stopped: %s", e2e_modes());
    CHECK(e2e_wait_for(e2e_plain, "Stopped"));
    e2e_send_bytes("fg\r");
    CHECK_MSG(e2e_wait_for(e2e_modes, "1 0 1 1 1"), "resumed: %s", e2e_modes());
    CHECK(e2e_wait_hud());
    e2e_send_key("q");
    CHECK_MSG(e2e_wait_for(e2e_modes, "0 1 0 0 0"), "after quit: %s", e2e_modes());
    e2e_stop();
}

/* The scrolling region of a window taller than the terminal type's lines
 * (xterm-256color says 24) is the whole window while swirl runs, stopped and
 * after it: curses sets it to the lines it knows, and a region of 24 rows
 * of 40 scrolled a sixel picture inside it and left the shell scrolling
 * there after swirl. */
static const char *region(void)
{
    return e2e_tmux("display -p -t e '#{alternate_on} #{scroll_region_upper} "
                    "#{scroll_region_lower}'");
}

TEST_E2E(e2e_the_scrolling_region_is_the_whole_window)
{
    CHECK(e2e_start(100, 40, "env TERM=xterm-256color COLORTERM=truecolor PS1=READY: bash --norc "
                             "--noprofile -i"));
    CHECK(e2e_wait_for(e2e_plain, "READY:"));
    e2e_send_bytes("./swirl --no-config\r");
    CHECK(e2e_wait_hud());
    CHECK_MSG(e2e_wait_for(region, "1 0 39"), "running: %s", region());
    e2e_send_key("C-z");
    CHECK(e2e_wait_for(e2e_plain, "Stopped"));
    CHECK_MSG(e2e_wait_for(region, "0 0 39"), "stopped: %s", region());
    e2e_send_bytes("fg\r");
    CHECK_MSG(e2e_wait_for(region, "1 0 39"), "resumed: %s", region());
    e2e_send_key("q");
    CHECK_MSG(e2e_wait_for(region, "0 0 39"), "after q: %s", region());
    e2e_stop();
}

TEST_E2E(e2e_lang_c_gives_ascii)
{
    CHECK(e2e_start_swirl(80, 24, "LANG=C LC_ALL=C COLORTERM=truecolor", ""));
    CHECK(e2e_wait_hud());
    const char *s = e2e_screen();
    CHECK(strstr(s, "\xe2\x96\x80") == NULL);
    for (const unsigned char *p = (const unsigned char *)e2e_plain(); *p; p++)
        CHECK_MSG(*p < 128, "non-ASCII byte %02x", *p);
    e2e_send_key("q");
    e2e_stop();
}

TEST_E2E(e2e_tiny_window_shows_a_message_and_recovers)
{
    CHECK(e2e_start_swirl(10, 4, "COLORTERM=truecolor", ""));
    CHECK(e2e_wait_for(e2e_plain, "too small"));
    e2e_sh("tmux -L %s resize-window -t e -x 90 -y 26", e2e_sock);
    CHECK(e2e_wait_hud());
    CHECK(e2e_wait_gone(e2e_plain, "too small"));
    quit_and_stop();
}

TEST_E2E(e2e_colour_depth_follows_the_environment)
{
    /* A tmux that passes no RGB on (its defaults): 256 colours. */
    CHECK(e2e_start_swirl_tmux(80, 24, NULL, "COLORTERM=", ""));
    CHECK(e2e_wait_hud());
    CHECK_MSG(e2e_wait_for(e2e_screen, "8;5;"), "no 256-colour cells");
    const char *s = e2e_screen();
    CHECK(strstr(s, "8;2;") == NULL);
    e2e_send_key("q");
    e2e_stop();
    /* NO_COLOR: no colour at all, the picture in glyphs. */
    CHECK(e2e_start_swirl(80, 24, "COLORTERM=truecolor NO_COLOR=1", ""));
    CHECK(e2e_wait_hud());
    CHECK(e2e_wait_for(e2e_screen, "\xe2\x96")); /* half and full blocks */
    s = e2e_screen();
    CHECK(strstr(s, "8;5;") == NULL && strstr(s, "8;2;") == NULL);
    e2e_send_key("q");
    e2e_stop();
}

TEST_E2E(e2e_record_a_session_with_a_resize)
{
    char path[64], args[128];
    snprintf(path, sizeof path, "/tmp/swirl-e2e-%d.cast", (int)getpid());
    snprintf(args, sizeof args, "--record %s", path);
    /* Wide enough that the status line keeps its statistics beside "rec". */
    CHECK(e2e_start_swirl(110, 20, "COLORTERM=truecolor", args));
    CHECK(e2e_wait_hud());
    CHECK(resize_and_wait(120, 18));
    CHECK(e2e_wait_figure_text("grid", "120x34")); /* swirl itself has seen the resize */
    quit_and_stop();
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f)
        return;
    char line[1 << 16];
    int outputs = 0, resizes = 0, header = 0;
    while (fgets(line, sizeof line, f)) {
        header += strstr(line, "\"version\": 2, \"width\": 110, \"height\": 20") != NULL;
        outputs += strstr(line, ", \"o\", \"") != NULL;
        resizes += strstr(line, ", \"r\", \"120x18\"]") != NULL;
        /* What a player replays: frames, not our mouse e2e_modes or pings. */
        CHECK(strstr(line, "?1002h") == NULL && strstr(line, "[5n") == NULL);
    }
    fclose(f);
    remove(path);
    CHECK_INT(header, 1);
    CHECK_MSG(outputs >= 3, "%d output events", outputs); /* hide cursor, frames */
    CHECK_INT(resizes, 1);
}

TEST_E2E(e2e_bad_arguments_exit_2_with_one_line)
{
    struct {
        const char *args, *needle;
    } bad[] = {
        {"--fps 0", "--fps"},
        {"--size 3x", "--size"},
        {"--scene nope", "unknown scene"},
        {"--color rainbow", "colour mode"},
        {"--bogus", "unknown option"},
        {"--headless --seconds 1 --record /nonexistent-dir/x.cast", "cannot write"},
        {"--headless --size 10x4 --steps 1", "at least 20x6"},
        {"--headless --steps 5 --seconds 2", "--seconds"},
        {"", "not a terminal"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "./swirl %s </dev/null >/tmp/swirl-e2e-out 2>/tmp/swirl-e2e-err",
                 bad[i].args);
        int rc = system(cmd);
        CHECK_MSG(WIFEXITED(rc) && WEXITSTATUS(rc) == 2, "'%s' exit %d", bad[i].args, rc);
        FILE *f = fopen("/tmp/swirl-e2e-err", "r");
        char err[512] = "";
        size_t n = f ? fread(err, 1, sizeof err - 1, f) : 0;
        err[n] = 0;
        if (f)
            fclose(f);
        CHECK_MSG(strstr(err, bad[i].needle) != NULL, "'%s': %s", bad[i].args, err);
        CHECK_MSG(count(err, "\n") == 1, "'%s' printed %d lines", bad[i].args, count(err, "\n"));
    }
    remove("/tmp/swirl-e2e-out");
    remove("/tmp/swirl-e2e-err");
}

/* Runs a headless recording with --tolerance tol; returns the summary's "bytes"
 * (-1 when the run or its summary is not right) and the recording in *cast. */
static long record_with_tolerance(int tol, char **cast, size_t *len)
{
    char path[64], out[64], cmd[320];
    snprintf(path, sizeof path, "/tmp/swirl-e2e-tol%d-%d.cast", tol, (int)getpid());
    snprintf(out, sizeof out, "/tmp/swirl-e2e-tol%d-%d.json", tol, (int)getpid());
    snprintf(cmd, sizeof cmd,
             "./swirl --headless --scene dye --auto --size 60x20 --seconds 2 --tolerance %d "
             "--record %s >%s 2>&1", tol, path, out);
    int rc = system(cmd);
    CHECK_MSG(WIFEXITED(rc) && WEXITSTATUS(rc) == 0, "--tolerance %d: exit %d", tol, rc);
    char *summary = e2e_slurp(out, NULL);
    *cast = e2e_slurp(path, len);
    CHECK_MSG(*cast != NULL, "--tolerance %d wrote no %s", tol, path);
    remove(path);
    remove(out);
    long bytes = -1;
    const char *b = summary ? strstr(summary, "\"bytes\":") : NULL;
    CHECK_MSG(b && sscanf(b, "\"bytes\":%ld", &bytes) == 1, "--tolerance %d summary: %s", tol,
              summary ? summary : "(none)");
    CHECK_MSG(summary && strstr(summary, "\"frames\":60,"), "--tolerance %d summary: %s", tol,
              summary ? summary : "(none)");
    free(summary);
    return bytes;
}

TEST_E2E(e2e_tolerance_changes_the_encoder_bytes)
{
    /* The same scripted frames (same scene, seed and simulated clock) encoded
     * with --tolerance 0 and 50: the looser encoder skips small colour changes,
     * so it sends different and fewer bytes. */
    char *exact = NULL, *loose = NULL;
    size_t exact_len = 0, loose_len = 0;
    long exact_bytes = record_with_tolerance(0, &exact, &exact_len);
    long loose_bytes = record_with_tolerance(50, &loose, &loose_len);
    CHECK_MSG(exact_bytes > 0 && loose_bytes > 0, "bytes %ld and %ld", exact_bytes, loose_bytes);
    CHECK_MSG(loose_bytes < exact_bytes, "--tolerance 50 sent %ld bytes, 0 sent %ld", loose_bytes,
              exact_bytes);
    CHECK(exact && loose);
    if (exact && loose) {
        CHECK(exact_len != loose_len || memcmp(exact, loose, exact_len) != 0);
        /* The recordings carry those bytes: the looser one is the shorter. */
        CHECK_MSG(loose_len < exact_len, "recordings of %zu and %zu bytes", loose_len, exact_len);
    }
    free(exact);
    free(loose);
}

/* Both caption rows of --demo are whole: neither starts nor ends in the middle
 * of a word at the window's edges, and they say the scene and the hand-over. */
static bool captions_whole(const char *screen, void *arg)
{
    int cols = *(int *)arg;
    char r0[512], r1[512];
    e2e_line_of(screen, 0, r0, sizeof r0);
    e2e_line_of(screen, 1, r1, sizeof r1);
    if (!strstr(r1, "any key") || (!strstr(r0, "dye") && !strstr(r0, "pbf")))
        return false;
    for (const char *r = r0; r; r = r == r0 ? r1 : NULL) {
        size_t n = strlen(r);
        bool edge = n > 0 && r[0] != ' ' && (unsigned char)r[0] < 128;
        if (edge || ((int)n >= cols && (unsigned char)r[n - 1] < 128 && r[n - 1] != ' '))
            return false;
    }
    return true;
}

TEST_E2E(e2e_demo_captions_fit_80_and_40_columns)
{
    static int widths[] = {80, 40};
    for (int k = 0; k < 2; k++) {
        CHECK(e2e_start_swirl(widths[k], 24, "COLORTERM=truecolor", "--demo"));
        CHECK_MSG(e2e_wait(e2e_plain, captions_whole, &widths[k], E2E_DEADLINE),
                  "%d columns:\n%s", widths[k], e2e_plain());
        quit_and_stop();
    }
}

TEST_E2E(e2e_help_and_panel_reach_their_last_line_at_40x12)
{
    CHECK(e2e_start_swirl(40, 12, "COLORTERM=truecolor", "--scene cloth"));
    /* At 40 columns the status line keeps its hints and drops the figures. */
    CHECK(e2e_wait_for(e2e_plain, "? help  q quit"));
    e2e_send_key("?");
    CHECK(e2e_wait_for(e2e_plain, "swirl 0"));
    /* Wrapped to 36 columns the help is long: Down a few lines at a time
     * until each line shows (Down stops at its end). */
    const char *want[] = {"q Esc", "wheel"};
    for (int w = 0; w < 2; w++) {
        for (int i = 0; i < 40 && !strstr(e2e_plain(), want[w]); i++) {
            e2e_send_key("Down");
            e2e_send_key("Down");
            e2e_nap();
        }
        CHECK_MSG(e2e_wait_for(e2e_plain, want[w]), "help:\n%s", e2e_plain());
    }
    e2e_send_key("?");
    e2e_send_key("p");
    CHECK(e2e_wait_for(e2e_plain, "parameters"));
    for (int i = 0; i < 11; i++)
        e2e_send_key("Down");
    CHECK_MSG(e2e_wait_for(e2e_plain, ">release with velocity"), "panel:\n%s", e2e_plain());
    quit_and_stop();
}

TEST_E2E(e2e_autorepeat_does_not_flip_the_keyboard_pointer)
{
    CHECK(e2e_start_swirl(80, 24, "COLORTERM=truecolor", "--scene cloth"));
    CHECK(e2e_wait_hud());
    e2e_send_key("m");
    CHECK(e2e_wait_for(e2e_plain, "+"));
    /* A held Space: the terminal sends it again and again, 30 ms apart. */
    for (int i = 0; i < 14; i++) {
        e2e_send_bytes(" ");
        struct timespec ts = {0, 30 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    CHECK_MSG(e2e_wait_for(e2e_plain, "#"), "the button is not held:\n%s", e2e_plain());
    quit_and_stop();
}

/* tmux leaves a server's socket behind when the server ends: e2e_stop, every
 * test's cleanup, removes it, and e2e_reap (the runner's, after each test)
 * ends a server a test left running and removes its socket too. */
TEST_E2E(e2e_stop_leaves_no_server_and_no_socket)
{
    char path[512];
    CHECK(e2e_start(40, 10, "sleep 60"));
    e2e_socket_path(e2e_sock, path, sizeof path);
    CHECK_MSG(access(path, F_OK) == 0, "no socket at %s", path);
    e2e_stop();
    CHECK_MSG(access(path, F_OK) != 0, "%s is still there", path);
    CHECK(e2e_sh("tmux -L %s has-session 2>/dev/null", e2e_sock) != 0);
    CHECK_INT(e2e_reap(getpgrp()), 0);
    /* One left running. */
    CHECK(e2e_start(40, 10, "sleep 60"));
    e2e_socket_path(e2e_sock, path, sizeof path);
    CHECK_INT(e2e_reap(getpgrp()), 1);
    CHECK_MSG(access(path, F_OK) != 0, "%s is still there", path);
    CHECK(e2e_sh("tmux -L %s has-session 2>/dev/null", e2e_sock) != 0);
}

/* The figures the end-to-end tests read (e2e.h), from a screen as it is
 * captured: a whole item only, the last one shown; its text where it is no
 * number. */
TEST(e2e_figures_are_read_whole_or_not_at_all)
{
    const char *screen = "  particles 12 left in the title\n"
                         " pbf [coarse] 30 fps  1.20 ms/step  t 1.23s  iter 4  particles 1900  "
                         "? help  q quit\n";
    double v = -1;
    char text[16];
    CHECK(e2e_figure(screen, "particles", &v) && v == 1900);
    CHECK(e2e_figure(screen, "iter", &v) && v == 4);
    CHECK(!e2e_figure(screen, "t", &v) && e2e_figure_text(screen, "t", text, sizeof text) &&
          strcmp(text, "1.23s") == 0);
    CHECK(!e2e_figure(screen, "article", &v) && !e2e_figure(screen, "ms/step", &v));
    CHECK(!e2e_figure(" dye 30 fps  grid 80x46  dye 3.1  ke 1", "grid", &v));
    CHECK(e2e_figure_text(" dye 30 fps  grid 80x46  dye 3.1  ke 1", "grid", text, sizeof text) &&
          strcmp(text, "80x46") == 0);
    CHECK(!e2e_figure(" pbf 30 fps  1.20 ms/step  t 1.23s  iter 4  partic", "particles", &v));
}
