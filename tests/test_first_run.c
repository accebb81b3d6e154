/*
 * test_first_run.c — first run and everyday use through the real ./swirl: a
 * config file found under a fresh HOME or XDG_CONFIG_HOME (and its errors,
 * by file and line, exit 2), the status line's hints at 80 columns and the s
 * key and --no-status that hide it, --screensaver ended by a key or a click,
 * and --set help sized to the terminal it runs in. Every wait polls against
 * a deadline (e2e.h). The parsing itself is test_cli_config.c's, the app's
 * side test_hud.c's.
 */
#include "e2e.h"
#include "fixtures.h"
#include "scene.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* A fresh HOME (mkdtemp) for one test. */
static void fresh_home(char *dir, size_t n)
{
    snprintf(dir, n, "/tmp/swirl-home-XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
}

/* Writes text to dir/sub/swirl/config (the folders made as needed). */
static void write_config(const char *dir, const char *sub, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, sub);
    CHECK(e2e_sh("mkdir -p '%s/swirl'", path) == 0);
    snprintf(path, sizeof path, "%s/%s/swirl/config", dir, sub);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void remove_home(const char *dir) { e2e_sh("rm -rf '%s'", dir); }

struct run {
    int status;
    char out[8192], err[4096];
    int err_lines;
};

/* `env ENV ./swirl ARGS` with no terminal; stdout and stderr kept. */
static void run(struct run *r, const char *env, const char *args)
{
    char out[64], err[64];
    snprintf(out, sizeof out, "/tmp/swirl-first-%d.out", (int)getpid());
    snprintf(err, sizeof err, "/tmp/swirl-first-%d.err", (int)getpid());
    int st = e2e_sh("env %s ./swirl %s </dev/null >%s 2>%s", env, args, out, err);
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    char *o = e2e_slurp(out, NULL), *e = e2e_slurp(err, NULL);
    snprintf(r->out, sizeof r->out, "%s", o ? o : "");
    snprintf(r->err, sizeof r->err, "%s", e ? e : "");
    free(o);
    free(e);
    remove(out);
    remove(err);
    r->err_lines = 0;
    for (const char *p = r->err; *p; p++)
        r->err_lines += *p == '\n';
}

/* Exit 2 with exactly the one line `says` on stderr. */
#define REFUSED(env, args, says)                                                        \
    do {                                                                                \
        struct run r_;                                                                  \
        char says_[1024];                                                               \
        snprintf(says_, sizeof says_, "%s\n", says);                                    \
        run(&r_, env, args);                                                            \
        CHECK_MSG(r_.status == 2 && strcmp(r_.err, says_) == 0,                         \
                  "swirl %s: status %d, stderr '%s' (wanted '%s')", args, r_.status,    \
                  r_.err, says);                                                        \
    } while (0)

TEST_E2E(first_config_errors_name_the_file_and_line)
{
    char home[64], env[256];
    fresh_home(home, sizeof home);
    write_config(home, ".config", "# mine\nfps = 60\ncolr = truecolor\n");
    /* Under HOME (no XDG_CONFIG_HOME, or one that is no absolute path). */
    snprintf(env, sizeof env, "HOME=%s XDG_CONFIG_HOME=", home);
    REFUSED(env, "", "swirl: ~/.config/swirl/config:3: unknown option 'colr' (did you mean "
                     "color?)");
    snprintf(env, sizeof env, "HOME=%s XDG_CONFIG_HOME=relative/dir", home);
    REFUSED(env, "--fps 20", "swirl: ~/.config/swirl/config:3: unknown option 'colr' (did you "
                             "mean color?)");
    /* The command line's own mistake first. */
    snprintf(env, sizeof env, "HOME=%s XDG_CONFIG_HOME=", home);
    REFUSED(env, "--fps 0", "swirl: --fps wants a whole number from 1 to 240, not '0'");
    /* --no-config: not read (here the next problem is that there is no tty). */
    REFUSED(env, "--no-config", "swirl: not a terminal (use --headless for runs without one)");
    /* Runs that read no config: headless, --help, --set help. */
    struct run r;
    run(&r, env, "--headless --steps 2");
    CHECK_MSG(r.status == 0 && r.err_lines == 0, "%d %s", r.status, r.err);
    run(&r, env, "--help");
    CHECK_INT(r.status, 0);
    CHECK(strstr(r.out, "--no-config") && strstr(r.out, "swirl/config"));
    run(&r, env, "--set help");
    CHECK_INT(r.status, 0);
    /* XDG_CONFIG_HOME first; shown with ~ under HOME, else as it is. */
    write_config(home, "xdg", "\n\nfsp = 1\n");
    snprintf(env, sizeof env, "HOME=%s XDG_CONFIG_HOME=%s/xdg", home, home);
    REFUSED(env, "", "swirl: ~/xdg/swirl/config:3: unknown option 'fsp' (did you mean fps?)");
    snprintf(env, sizeof env, "HOME=/nonexistent XDG_CONFIG_HOME=%s/xdg", home);
    char says[256];
    snprintf(says, sizeof says, "swirl: %s/xdg/swirl/config:3: unknown option 'fsp' (did you "
             "mean fps?)\n", home);
    run(&r, env, "");
    CHECK_MSG(r.status == 2 && strcmp(r.err, says) == 0, "%d '%s'", r.status, r.err);
    /* A good file lets the run go on to its next check. */
    write_config(home, "xdg", "fps = 60\nset = viscosity=0.1\nauto\n");
    REFUSED(env, "", "swirl: not a terminal (use --headless for runs without one)");
    write_config(home, "xdg", "set = viscosity=99\n");
    snprintf(says, sizeof says, "swirl: %s/xdg/swirl/config:1: --set viscosity wants 0 to 20, "
             "not '99' (did you mean 20?)\n", home);
    run(&r, env, "");
    CHECK_MSG(r.status == 2 && strcmp(r.err, says) == 0, "%d '%s'", r.status, r.err);
    /* A folder where the file should be; an unreadable file. */
    snprintf(env, sizeof env, "HOME=%s XDG_CONFIG_HOME=%s/dir", home, home);
    CHECK(e2e_sh("mkdir -p '%s/dir/swirl/config'", home) == 0);
    REFUSED(env, "", "swirl: ~/dir/swirl/config: not a regular file");
    if (geteuid() != 0) { /* root reads it anyway */
        snprintf(env, sizeof env, "HOME=%s XDG_CONFIG_HOME=%s/xdg", home, home);
        CHECK(e2e_sh("chmod 000 '%s/xdg/swirl/config'", home) == 0);
        REFUSED(env, "", "swirl: ~/xdg/swirl/config: Permission denied");
    }
    remove_home(home);
}

/* Hostile config files. What is not a regular file at the path (a FIFO nobody
 * writes to, a device, a folder) is refused in one line at once: `timeout`
 * ends a swirl that waits for a writer, which then fails the test with status
 * 124 instead of hanging it. A NUL byte is refused with its line; bytes that
 * are not UTF-8 are shown escaped, never written raw to the terminal (0x9b is
 * CSI to an 8-bit terminal); a byte-order mark at the top is skipped. */
TEST_E2E(first_config_hostile_files_are_refused_in_one_line)
{
    char home[64], env[256], file[128];
    fresh_home(home, sizeof home);
    snprintf(env, sizeof env, "HOME=%s XDG_CONFIG_HOME= timeout -s KILL 20", home);
    snprintf(file, sizeof file, "%s/.config/swirl/config", home);
    CHECK(e2e_sh("mkdir -p '%s/.config/swirl' && mkfifo '%s'", home, file) == 0);
    REFUSED(env, "", "swirl: ~/.config/swirl/config: not a regular file");
    CHECK(e2e_sh("rm -f '%s' && ln -s /dev/null '%s'", file, file) == 0);
    REFUSED(env, "", "swirl: ~/.config/swirl/config: not a regular file");
    CHECK(e2e_sh("rm -f '%s' && mkdir '%s'", file, file) == 0);
    REFUSED(env, "", "swirl: ~/.config/swirl/config: not a regular file");
    CHECK(e2e_sh("rmdir '%s' && printf 'fps = 6\\000 0\\nfps = 0\\n' > '%s'", file, file) == 0);
    REFUSED(env, "", "swirl: ~/.config/swirl/config:1: a NUL byte (is it a text file?)");
    char names[256], says[512]; /* the scenes as the refusals list them: "dye, pbf or cloth" */
    fx_scenes_joined(names, sizeof names, ", ", " or ");
    write_config(home, ".config", "scene = \xff\x9b\x80\n");
    snprintf(says, sizeof says,
             "swirl: ~/.config/swirl/config:1: unknown scene '\\xff\\x9b\\x80' (%s)", names);
    REFUSED(env, "", says);
    write_config(home, ".config", "scene = \xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80 \xc3\xa9\n");
    snprintf(says, sizeof says,
             "swirl: ~/.config/swirl/config:1: unknown scene '\\xc0\\xaf\\xed\\xa0"
             "\\x80\\xf4\\x90\\x80\\x80 \xc3\xa9' (%s)", names);
    REFUSED(env, "", says);
    write_config(home, ".config", "\xef\xbb\xbf" "fps = 60\nfsp = 1\n");
    REFUSED(env, "", "swirl: ~/.config/swirl/config:2: unknown option 'fsp' (did you mean fps?)");
    remove_home(home);
}

/* The last row of the pane (rows tall) holds `needle`. */
struct last_row {
    int rows;
    const char *needle;
    bool want;
    char seen[1024];
};

static bool last_row_is(const char *screen, void *arg)
{
    struct last_row *q = arg;
    e2e_line_of(screen, q->rows - 1, q->seen, sizeof q->seen);
    return (strstr(q->seen, q->needle) != NULL) == q->want;
}

static bool wait_last_row(int rows, const char *needle, bool want, char *seen, size_t n)
{
    struct last_row q = {rows, needle, want, ""};
    bool ok = e2e_wait(e2e_plain, last_row_is, &q, E2E_DEADLINE);
    snprintf(seen, n, "%s", q.seen);
    return ok;
}

/* The status line's two hints that are never cut, ? help and q quit (the
 * others between them where the row has room). */
static bool wait_hints(int rows, char *seen, size_t n)
{
    return wait_last_row(rows, "? help ", true, seen, n) &&
           wait_last_row(rows, "q quit", true, seen, n);
}

/* The status line's background (compose.c's hud_bg) on cells of the last row:
 * all of them while it is shown, none once the scene has the row. */
#define HUD_BG (E2E_RGB | 0x1c1c28)

static bool scene_on_last_row(const char *screen, void *rows_)
{
    int rows = *(int *)rows_, hud = 0;
    static struct e2e_cell cells[80 * 60];
    e2e_cells(screen, cells, 80, rows);
    for (int c = 0; c < 80; c++)
        hud += cells[(rows - 1) * 80 + c].bg == HUD_BG;
    return hud == 0;
}

/* Waits until the scene's pixels fill the last row of an 80-column pane. */
static bool wait_scene_on_last_row(int rows)
{
    return e2e_wait(e2e_screen, scene_on_last_row, &rows, E2E_DEADLINE);
}

TEST_E2E(first_config_file_sets_up_a_terminal_run)
{
    char home[64], env[256], seen[1024];
    fresh_home(home, sizeof home);
    write_config(home, ".config", "scene = cloth   # the one I like\nfps = 20\n");
    snprintf(env, sizeof env, "COLORTERM=truecolor HOME=%s XDG_CONFIG_HOME=", home);
    CHECK(e2e_start_swirl(80, 24, env, ""));
    CHECK_MSG(wait_last_row(24, " cloth ", true, seen, sizeof seen), "'%s'", seen);
    e2e_send_key("q");
    CHECK(e2e_wait_for(e2e_plain, "SWIRL-EXIT=0"));
    e2e_stop();
    /* The command line wins; --no-config leaves it out. */
    CHECK(e2e_start_swirl(80, 24, env, "--scene pbf"));
    CHECK_MSG(wait_last_row(24, " pbf ", true, seen, sizeof seen), "'%s'", seen);
    e2e_send_key("q");
    CHECK(e2e_wait_for(e2e_plain, "SWIRL-EXIT=0"));
    e2e_stop();
    CHECK(e2e_start_swirl(80, 24, env, "--no-config"));
    CHECK_MSG(wait_last_row(24, " dye ", true, seen, sizeof seen), "'%s'", seen);
    e2e_send_key("q");
    CHECK(e2e_wait_for(e2e_plain, "SWIRL-EXIT=0"));
    e2e_stop();
    remove_home(home);
}

/* The help (?) names where the colour depth came from: the config file, the
 * command line, or what swirl found out (here: tmux). */
TEST_E2E(first_help_names_the_source_of_the_colours)
{
    char home[64], env[256];
    fresh_home(home, sizeof home);
    write_config(home, ".config", "color = 256\n");
    snprintf(env, sizeof env, "COLORTERM=truecolor HOME=%s XDG_CONFIG_HOME=", home);
    static const struct {
        const char *args, *says;
    } runs[] = {
        {"", "256 (config file)"},
        {"--color 16", "16 (command line)"},
        {"--no-config", "truecolor (tmux passes RGB)"},
    };
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        CHECK(e2e_start_swirl(100, 40, env, runs[k].args));
        CHECK(e2e_wait_hud());
        e2e_send_key("?");
        CHECK_MSG(e2e_wait_for(e2e_plain, runs[k].says), "swirl %s:\n%s", runs[k].args,
                  e2e_plain());
        e2e_send_key("q");
        e2e_send_key("q");
        CHECK(e2e_wait_for(e2e_plain, "SWIRL-EXIT=0"));
        e2e_stop();
    }
    remove_home(home);
}

TEST_E2E(first_status_line_keeps_its_hints_and_s_hides_it)
{
    char seen[1024];
    CHECK(e2e_start_swirl(80, 24, "COLORTERM=truecolor", ""));
    for (int sc = 0; sc < SCENE_COUNT; sc++) { /* each scene by its digit */
        char key[2] = {(char)('1' + sc), 0}, name[64];
        snprintf(name, sizeof name, " %s ", scenes[sc]->name);
        e2e_send_key(key);
        CHECK_MSG(wait_last_row(24, name, true, seen, sizeof seen), "'%s'", seen);
        CHECK_MSG(wait_last_row(24, " fps", true, seen, sizeof seen), "'%s'", seen);
        CHECK_MSG(wait_hints(24, seen, sizeof seen), "%s: '%s'", name, seen);
    }
    e2e_send_key("s");
    CHECK_MSG(wait_last_row(24, "? help", false, seen, sizeof seen), "'%s'", seen);
    CHECK_MSG(wait_scene_on_last_row(24), "%s", e2e_screen()); /* the scene has the row */
    e2e_send_key("s");
    CHECK_MSG(wait_hints(24, seen, sizeof seen), "'%s'", seen);
    e2e_send_key("q");
    CHECK(e2e_wait_for(e2e_plain, "SWIRL-EXIT=0"));
    e2e_stop();
    /* --no-status: the scene down to the last row, and no hints. */
    CHECK(e2e_start_swirl(80, 24, "COLORTERM=truecolor", "--no-status"));
    CHECK(e2e_wait_for(e2e_plain, "\xe2\x96\x80")); /* drawn */
    CHECK_MSG(wait_scene_on_last_row(24), "%s", e2e_screen());
    CHECK_MSG(!strstr(e2e_plain(), "? help"), "%s", e2e_plain());
    e2e_send_key("s");
    CHECK_MSG(wait_hints(24, seen, sizeof seen), "'%s'", seen);
    e2e_send_key("q");
    CHECK(e2e_wait_for(e2e_plain, "SWIRL-EXIT=0"));
    e2e_stop();
}

TEST_E2E(first_screensaver_quits_on_a_key_and_on_a_click)
{
    for (int how = 0; how < 2; how++) {
        CHECK(e2e_start_swirl(80, 24, "COLORTERM=truecolor", "--screensaver"));
        /* A frame down to the last row, and not a word on it. */
        CHECK(e2e_wait_for(e2e_plain, "\xe2\x96\x80")); /* drawn */
        CHECK_MSG(wait_scene_on_last_row(24), "%s", e2e_screen());
        const char *screen = e2e_plain();
        CHECK_MSG(!strstr(screen, "help") && !strstr(screen, "any key") &&
                      !strstr(screen, "dye") && !strstr(screen, "fps"),
                  "%s", screen);
        if (how == 0)
            e2e_send_key("x");
        else
            e2e_send_bytes("\x1b[<0;10;5M"); /* a left press at column 10, row 5 */
        CHECK_MSG(e2e_wait_for(e2e_plain, "SWIRL-EXIT=0"), "%s:\n%s", how ? "click" : "key",
                  e2e_plain());
        CHECK_MSG(e2e_wait_for(e2e_modes, "0 1 0 0 0"), "modes left on: %s", e2e_modes());
        e2e_stop();
    }
}

TEST_E2E(first_set_help_is_sized_to_the_terminal)
{
    /* In a 160x50 pane: the pbf block for 160x50, which is not 80x24's. */
    CHECK(e2e_start(160, 50, "./swirl --scene pbf --set help; sleep 60"));
    CHECK_MSG(e2e_wait_for(e2e_plain, "block-width, block-height: sized to this 160x50 terminal"),
              "%s", e2e_plain());
    CHECK_MSG(strstr(e2e_plain(), "  block-width            80 "), "%s", e2e_plain());
    e2e_stop();
    /* No terminal: it says so. */
    struct run r;
    run(&r, "", "--scene pbf --set help");
    CHECK_INT(r.status, 0);
    CHECK_MSG(strstr(r.out, "  block-width            terminal "), "%s", r.out);
}
