/*
 * cli_usage.c — the table of swirl's options (cli_options.h) and the text
 * `swirl --help` prints from it (cli.h): a heading, each option with its help,
 * then the config file, the keys and the mouse. Every line is at most 80
 * columns; an option's help starts in column HELP_COL, beside it or, when the
 * option is too long, under it. What names the scenes is written from the
 * scene table (scene.h), through the marks cli_text fills in, so that a new
 * scene is in --help, its completions and its messages with nothing here;
 * and the list --list-scenes prints, the scene table's names and titles for
 * scripts and the build (the Makefile's loops, the man page).
 */
#include "cli.h"
#include "cli_options.h"
#include "scene.h"

#include <string.h>

#define HELP_COL 22   /* where an option's help starts */
#define HELP_WIDTH 80 /* columns of --help */
#define HELP_INDENT 6 /* where the keys' and the mouse's lines go on */

const struct cli_option cli_options[OPT_COUNT] = {
    [OPT_SCENE] = {"scene", 0, "NAME", "{words}", false, false, false,
                   "start with {scenes} (default {first})\n"},
    [OPT_COLOR] = {"color", 0, "MODE", "auto truecolor 256 16 8 mono", false, true, false,
                   "auto, truecolor, 256, 16, 8 or mono (default auto:\n"
                   "NO_COLOR, else what the terminal and tmux answer,\n"
                   "else COLORTERM and terminfo)\n"},
    [OPT_GLYPHS] = {"glyphs", 0, "SET", "auto half quad sextant ascii pixels kitty sixel", false,
                    true, false,
                    "auto, half, quad, sextant, ascii, or the terminal's own\n"
                    "pixels: pixels (kitty's protocol, else sixel), kitty or\n"
                    "sixel (default auto: pixels where the terminal shows\n"
                    "them, not in tmux or screen nor with --record, whose\n"
                    "casts hold cells; else ascii outside a UTF-8 locale,\n"
                    "sextant in VTE and kitty, quad in alacritty, konsole\n"
                    "and urxvt, half elsewhere)\n"},
    [OPT_FPS] = {"fps", 0, "N", NULL, false, true, false,
                 "frames per second, 1-240 (default 30)\n"},
    [OPT_TOL] = {"tolerance", 0, "N", NULL, false, true, false,
                 "skip colour changes up to N per channel, 0-255 (default 6)\n"},
    [OPT_NOSYNC] = {"no-sync", 0, NULL, NULL, false, true, false,
                    "do not wrap frames in synchronized-output marks\n"},
    [OPT_AUTO] = {"auto", 0, NULL, NULL, false, false, false,
                  "a scripted pointer keeps the scene moving; a real drag\n"
                  "takes over\n"},
    [OPT_DEMO] = {"demo", 0, NULL, NULL, false, false, false,
                  "a hands-free tour of every scene; any key takes over\n"},
    [OPT_SCREENSAVER] = {"screensaver", 0, NULL, NULL, false, true, false,
                         "the tour without captions or status line (with --scene:\n"
                         "that scene alone); any key or mouse button quits\n"},
    [OPT_NOSTATUS] = {"no-status", 0, NULL, NULL, false, true, false,
                      "start with the status line hidden (s shows it)\n"},
    [OPT_SEED] = {"seed", 0, "X", NULL, false, false, false,
                  "seed for every random choice (default 1)\n"},
    [OPT_THREADS] = {"threads", 0, "N", NULL, false, false, false,
                     "solver threads, 1-64 (default: of the online CPUs, up to\n"
                     "4, as many as run fastest); the same results for any N\n"},
    [OPT_PRESET] = {"preset", 0, "seed", "seed", false, false, false,
                    "{seeded}: the seed page's setup, units and parameters\n"},
    [OPT_GRID] = {"grid", 0, "WxH", NULL, false, false, false,
                  "{grid}: simulation grid instead of the canvas size\n"},
    [OPT_SET] = {"set", 0, "[SCENE:]NAME=VALUE", "help", false, false, false,
                 "set a panel parameter (of SCENE, else of the first scene)\n"
                 "when that scene is first shown, NAME as the panel or --set\n"
                 "help writes it; repeatable; --set [SCENE:]help lists the\n"
                 "parameters with the values the other --sets give\n"},
    [OPT_RECORD] = {"record", 0, "FILE.cast", NULL, true, false, true,
                    "record the session as asciicast v2 (an existing file\n"
                    "only with --overwrite; cells: glyphs while it records)\n"},
    [OPT_OVERWRITE] = {"overwrite", 0, NULL, NULL, false, false, true,
                       "let --record replace an existing file\n"},
    [OPT_RECORD_LIMIT] = {"record-limit", 0, "SIZE", NULL, false, false, true,
                          "stop recording at SIZE: K, M or G (default 256M, 0: none)\n"},
    [OPT_HEADLESS] = {"headless", 0, NULL, NULL, false, false, true,
                      "run without a terminal; needs --steps or --record\n"},
    [OPT_SIZE] = {"size", 0, "COLSxROWS", NULL, false, false, true,
                  "virtual terminal for --headless (default 80x24)\n"},
    [OPT_STEPS] = {"steps", 0, "N", NULL, false, false, true,
                   "headless: simulation steps to run\n"},
    [OPT_EVERY] = {"every", 0, "K", NULL, false, false, true,
                   "headless: print statistics every K steps\n"},
    [OPT_SECONDS] = {"seconds", 0, "S", NULL, false, false, true,
                     "headless --record: length on a simulated clock\n"
                     "(default 10; with --demo, one tour of every scene)\n"},
    [OPT_NOCONFIG] = {"no-config", 0, NULL, NULL, false, false, true,
                      "do not read the config file\n"},
    [OPT_LIST_SCENES] = {"list-scenes", 0, NULL, NULL, false, false, true,
                         "print the scenes, one a line: its name, then what it\n"
                         "is; and exit\n"},
    [OPT_HELP] = {"help", 'h', NULL, NULL, false, false, true, "print this help and exit\n"},
    [OPT_VERSION] = {"version", 'V', NULL, NULL, false, false, true,
                     "print the version and exit\n"},
};

static const char usage_head[] = "usage: swirl [options]\n";

static const char usage_tail[] =
    "\n"
    "config: $XDG_CONFIG_HOME/swirl/config (default ~/.config/swirl/config), read by\n"
    "      terminal runs: long options one a line, 'fps = 60', 'auto', '# comment',\n"
    "      'set = cloth:tearing=on'; the command line wins\n"
    "\n";

static const char usage_keys[] =
    "keys: {keys} / Tab scenes (Shift-Tab back), Space pause, . step, r restart, p "
    "parameters (Up/Down select, Left/Right or -/+ change), m keyboard pointer (arrows "
    "move, Space/Enter hold the button), ? help, q / Esc quit; s status line, R "
    "defaults, Ctrl-L repaint; and each scene's own:";

void cli_text(struct buf *out, const char *text)
{
    static const struct {
        const char *mark;
        unsigned mask, want;
        const char *sep, *last;
    } marks[] = {
        {"{scenes}", 0, 0, ", ", " or "},
        {"{words}", 0, 0, " ", " "},
        {"{grid}", SCENE_GRID, SCENE_GRID, "/", "/"},
        {"{seeded}", SCENE_SEED_PAGE, SCENE_SEED_PAGE, "/", "/"},
    };
    while (*text) {
        const char *open = strchr(text, '{');
        if (!open) {
            buf_puts(out, text);
            return;
        }
        buf_put(out, text, (size_t)(open - text));
        text = open;
        char names[256];
        bool done = false;
        for (size_t m = 0; m < sizeof marks / sizeof marks[0] && !done; m++)
            if (strncmp(text, marks[m].mark, strlen(marks[m].mark)) == 0) {
                scene_names(names, sizeof names, marks[m].mask, marks[m].want, marks[m].sep,
                            marks[m].last);
                buf_puts(out, names);
                text += strlen(marks[m].mark), done = true;
            }
        if (!done && strncmp(text, "{first}", 7) == 0)
            buf_puts(out, scenes[0]->name), text += 7, done = true;
        if (!done && strncmp(text, "{keys}", 6) == 0) {
            app_scene_keys(names, sizeof names, false);
            buf_puts(out, names), text += 6, done = true;
        }
        if (!done)
            buf_putc(out, *text++);
    }
}

/* text (one line, its own indentation included) as lines of at most
 * HELP_WIDTH columns, broken at a space, each after the first indented by
 * indent; the spaces between words are kept where the line is not broken. */
static void put_wrapped(struct buf *out, const char *text, size_t indent)
{
    size_t col = strspn(text, " ");
    buf_put(out, text, col);
    text += col;
    while (*text) {
        size_t word = strcspn(text, " "), gap = strspn(text + word, " ");
        buf_put(out, text, word);
        col += word;
        text += word + gap;
        size_t next = strcspn(text, " ");
        if (*text && col + gap + next > HELP_WIDTH) {
            buf_putc(out, '\n');
            for (col = 0; col < indent; col++)
                buf_putc(out, ' ');
        } else if (*text) {
            buf_put(out, text - gap, gap);
            col += gap;
        }
    }
    buf_putc(out, '\n');
}

/* What swirl is: each scene by its name and its kind (its title up to the
 * colon). */
static void put_head(struct buf *out)
{
    struct buf t;
    buf_init(&t);
    buf_puts(&t, "Real-time physics in the terminal:");
    for (int i = 0; i < SCENE_COUNT; i++)
        buf_printf(&t, "%s %s (%.*s)", i == 0 ? "" : i + 1 == SCENE_COUNT ? " and" : ",",
                   scenes[i]->name, (int)strcspn(scenes[i]->title, ":"), scenes[i]->title);
    buf_puts(&t, ", drawn with truecolor half-blocks.");
    buf_putc(&t, 0);
    put_wrapped(out, t.p, 0);
    buf_free(&t);
}

/* The keys, then each scene's own; the wheel, then what the pointer does in
 * each scene. */
static void put_keys(struct buf *out)
{
    struct buf t;
    buf_init(&t);
    cli_text(&t, usage_keys);
    buf_putc(&t, 0);
    put_wrapped(out, t.p, HELP_INDENT);
    for (int i = 0; i < SCENE_COUNT; i++) {
        if (!scenes[i]->keys)
            continue;
        buf_clear(&t);
        buf_printf(&t, "%*s%s: %s", HELP_INDENT, "", scenes[i]->name, scenes[i]->keys);
        buf_putc(&t, 0);
        put_wrapped(out, t.p, 2 * HELP_INDENT);
    }
    buf_clear(&t);
    buf_puts(&t, "mouse: the wheel zooms");
    const char *sep = " (";
    for (int i = 0; i < SCENE_COUNT; i++)
        if (scenes[i]->zoom)
            buf_printf(&t, "%s%s", sep, scenes[i]->name), sep = ", ";
    buf_puts(&t, *sep == ',' ? "); a drag, in each scene:" : " in no scene; a drag:");
    buf_putc(&t, 0);
    put_wrapped(out, t.p, HELP_INDENT);
    for (int i = 0; i < SCENE_COUNT; i++) {
        buf_clear(&t);
        buf_printf(&t, "%*s%s: %s", HELP_INDENT, "", scenes[i]->name, scenes[i]->mouse);
        buf_putc(&t, 0);
        put_wrapped(out, t.p, 2 * HELP_INDENT);
    }
    buf_free(&t);
}

void cli_usage(struct buf *out)
{
    buf_puts(out, usage_head);
    put_head(out);
    buf_puts(out, "\noptions:\n");
    for (int i = 0; i < OPT_COUNT; i++) {
        const struct cli_option *o = &cli_options[i];
        size_t start = out->len;
        buf_puts(out, "  ");
        if (o->letter)
            buf_printf(out, "-%c, ", o->letter);
        buf_printf(out, "--%s", o->name);
        if (o->value)
            buf_printf(out, " %s", o->value);
        size_t used = out->len - start;
        struct buf help;
        buf_init(&help);
        cli_text(&help, o->help);
        buf_putc(&help, 0);
        for (const char *line = help.p; *line;) {
            if (used >= HELP_COL) /* too long to have its help beside it */
                buf_putc(out, '\n'), used = 0;
            for (; used < HELP_COL; used++)
                buf_putc(out, ' ');
            const char *eol = line;
            while (*eol && *eol != '\n')
                eol++;
            buf_put(out, line, (size_t)(eol - line));
            buf_putc(out, '\n');
            line = *eol ? eol + 1 : eol;
            used = 0;
        }
        buf_free(&help);
    }
    buf_puts(out, usage_tail);
    put_keys(out);
}

void cli_scene_list(struct buf *out)
{
    int width = 0;
    for (int i = 0; i < SCENE_COUNT; i++) {
        int len = (int)strlen(scenes[i]->name);
        width = len > width ? len : width;
    }
    for (int i = 0; i < SCENE_COUNT; i++)
        buf_printf(out, "%-*s  %s\n", width, scenes[i]->name, scenes[i]->title);
}
