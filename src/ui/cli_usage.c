/*
 * cli_usage.c — the table of swirl's options (cli_options.h) and the text
 * `swirl --help` prints from it (cli.h): a heading, each option with its help,
 * then the config file, the keys and the mouse. Every line is at most 80
 * columns; an option's help starts in column HELP_COL, beside it or, when the
 * option is too long, under it.
 */
#include "cli.h"
#include "cli_options.h"

#define HELP_COL 22 /* where an option's help starts */

const struct cli_option cli_options[OPT_COUNT] = {
    [OPT_SCENE] = {"scene", 0, "NAME", "dye pbf cloth", false, false, false,
                   "start with dye, pbf or cloth (default dye)\n"},
    [OPT_COLOR] = {"color", 0, "MODE", "auto truecolor 256 16 8 mono", false, true, false,
                   "auto, truecolor, 256, 16, 8 or mono (default auto:\n"
                   "NO_COLOR, else what the terminal and tmux answer,\n"
                   "else COLORTERM and terminfo)\n"},
    [OPT_GLYPHS] = {"glyphs", 0, "SET", "auto half quad sextant ascii", false, true, false,
                    "auto, half, quad, sextant or ascii (default auto: ascii\n"
                    "outside a UTF-8 locale, sextant in VTE and kitty, quad\n"
                    "in alacritty, konsole and urxvt, half elsewhere)\n"},
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
                  "a hands-free tour of the three scenes; any key takes over\n"},
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
                    "pbf/cloth: the seed page's setup, units and parameters\n"},
    [OPT_GRID] = {"grid", 0, "WxH", NULL, false, false, false,
                  "dye: simulation grid instead of the canvas size\n"},
    [OPT_SET] = {"set", 0, "[SCENE:]NAME=VALUE", "help", false, false, false,
                 "set a panel parameter (of SCENE, else of the first scene)\n"
                 "when that scene is first shown; repeatable; --set help\n"
                 "lists the first scene's parameters\n"},
    [OPT_RECORD] = {"record", 0, "FILE.cast", NULL, true, false, true,
                    "record the session as asciicast v2 (an existing file\n"
                    "only with --overwrite)\n"},
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
                     "headless --record: length on a simulated clock\n"},
    [OPT_NOCONFIG] = {"no-config", 0, NULL, NULL, false, false, true,
                      "do not read the config file\n"},
    [OPT_HELP] = {"help", 'h', NULL, NULL, false, false, true, "print this help and exit\n"},
    [OPT_VERSION] = {"version", 'V', NULL, NULL, false, false, true,
                     "print the version and exit\n"},
};

static const char usage_head[] =
    "usage: swirl [options]\n"
    "Real-time physics in the terminal: dye (Stable Fluids), pbf (Position Based\n"
    "Fluids) and cloth (Position Based Dynamics), drawn with truecolor half-blocks.\n"
    "\n"
    "options:\n";

static const char usage_tail[] =
    "\n"
    "config: $XDG_CONFIG_HOME/swirl/config (default ~/.config/swirl/config), read by\n"
    "      terminal runs: long options one a line, 'fps = 60', 'auto', '# comment',\n"
    "      'set = cloth:tearing=on'; the command line wins\n"
    "\n"
    "keys: 1 2 3 / Tab scenes (Shift-Tab back), Space pause, . step, r restart,\n"
    "      p parameters (Up/Down select, Left/Right or -/+ change), m keyboard\n"
    "      pointer (arrows move, Space/Enter hold the button), ? help, q / Esc\n"
    "      quit; s status line, R defaults, Ctrl-L repaint; dye: c clear, b burst;\n"
    "      pbf: w pour water; cloth: t tearing\n"
    "mouse: left drag pushes dye / grabs a handful of water / pulls cloth; right\n"
    "      drag: dye swirls the other way, pbf pushes water, cloth is cut; the\n"
    "      wheel zooms (pbf, cloth)\n";

void cli_usage(struct buf *out)
{
    buf_puts(out, usage_head);
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
        for (const char *line = o->help; *line;) {
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
    }
    buf_puts(out, usage_tail);
}
