/*
 * main.c — swirl's command line: parse, validate, then hand over to the terminal
 * loop, a headless runner or the bench. Bad input gets one line on stderr naming
 * the problem and exit status 2, before anything else happens.
 */
#include "scene.h"
#include "term.h"

#include <errno.h>
#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
    "usage: swirl [options]\n"
    "Real-time physics in the terminal: dye (Stable Fluids), pbf (Position Based\n"
    "Fluids) and cloth (Position Based Dynamics), drawn with truecolor half-blocks.\n"
    "\n"
    "options:\n"
    "  --scene NAME        start with dye, pbf or cloth (default dye)\n"
    "  --color MODE        auto, truecolor, 256, 16, 8 or mono (default auto:\n"
    "                      NO_COLOR, COLORTERM, terminfo RGB/Tc, terminfo colors)\n"
    "  --glyphs SET        half (needs a UTF-8 locale) or ascii (default: by locale)\n"
    "  --fps N             frames per second, 1-240 (default 30)\n"
    "  --tolerance N       skip colour changes up to N per channel, 0-255 (default 6)\n"
    "  --no-sync           do not wrap frames in synchronized-output marks\n"
    "  --auto              a scripted pointer keeps the scene moving (screensaver);\n"
    "                      a real drag takes over\n"
    "  --demo              a hands-free tour of the three scenes; any key takes over\n"
    "  --seed X            seed for every random choice (default 1)\n"
    "  --preset seed       pbf/cloth: the seed page's setup, units and parameters\n"
    "  --grid WxH          dye: simulation grid instead of the canvas size\n"
    "  --record FILE.cast  record the session as asciicast v2\n"
    "  --headless          run without a terminal; needs --steps or --record\n"
    "  --size COLSxROWS    virtual terminal for --headless (default 80x24)\n"
    "  --steps N           headless: simulation steps to run\n"
    "  --every K           headless: print statistics every K steps\n"
    "  --seconds S         headless --record: length on a simulated clock\n"
    "  --bench             print the benchmark figures (make bench)\n"
    "  --help, --version\n"
    "\n"
    "keys: 1 2 3 / Tab scenes, Space pause, . step, r restart, p parameters\n"
    "      (Up/Down select, Left/Right or -/+ change), m keyboard pointer\n"
    "      (arrows move, Space/Enter hold the button), ? help, q / Esc quit;\n"
    "      dye: c clear, b burst; cloth: t tearing\n"
    "mouse: left drag pushes dye / grabs water / pulls cloth; right drag: dye\n"
    "      swirls the other way, pbf pushes water; the wheel zooms (pbf, cloth)\n";

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
    va_list ap;
    fputs("swirl: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(2);
}

static long parse_long(const char *opt, const char *s, long lo, long hi)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        die("%s wants a whole number from %ld to %ld, not '%s'", opt, lo, hi, s);
    return v;
}

static double parse_double(const char *opt, const char *s, double lo, double hi)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= lo && v <= hi))
        die("%s wants a number from %g to %g, not '%s'", opt, lo, hi, s);
    return v;
}

static void parse_size(const char *opt, const char *s, int lo_w, int lo_h, int *w, int *h)
{
    char *end;
    errno = 0;
    long a = strtol(s, &end, 10);
    if (errno || end == s || *end != 'x')
        die("%s wants WxH (e.g. 120x40), not '%s'", opt, s);
    const char *p = end + 1;
    long b = strtol(p, &end, 10);
    if (errno || end == p || *end)
        die("%s wants WxH (e.g. 120x40), not '%s'", opt, s);
    if (a < lo_w || b < lo_h || a > 4000 || b > 2000)
        die("%s: %ldx%ld is out of range (at least %dx%d, at most 4000x2000)", opt, a, b,
            lo_w, lo_h);
    *w = (int)a, *h = (int)b;
}

enum {
    OPT_SCENE = 256, OPT_COLOR, OPT_GLYPHS, OPT_FPS, OPT_TOL, OPT_NOSYNC, OPT_AUTO, OPT_DEMO,
    OPT_SEED, OPT_PRESET, OPT_GRID, OPT_RECORD, OPT_HEADLESS, OPT_SIZE, OPT_STEPS,
    OPT_EVERY, OPT_SECONDS, OPT_BENCH, OPT_HELP, OPT_VERSION,
};

static const struct option options[] = {
    {"scene", required_argument, 0, OPT_SCENE},   {"color", required_argument, 0, OPT_COLOR},
    {"glyphs", required_argument, 0, OPT_GLYPHS}, {"fps", required_argument, 0, OPT_FPS},
    {"tolerance", required_argument, 0, OPT_TOL}, {"no-sync", no_argument, 0, OPT_NOSYNC},
    {"auto", no_argument, 0, OPT_AUTO},           {"demo", no_argument, 0, OPT_DEMO},
    {"seed", required_argument, 0, OPT_SEED},     {"preset", required_argument, 0, OPT_PRESET},
    {"grid", required_argument, 0, OPT_GRID},     {"record", required_argument, 0, OPT_RECORD},
    {"headless", no_argument, 0, OPT_HEADLESS},   {"size", required_argument, 0, OPT_SIZE},
    {"steps", required_argument, 0, OPT_STEPS},   {"every", required_argument, 0, OPT_EVERY},
    {"seconds", required_argument, 0, OPT_SECONDS}, {"bench", no_argument, 0, OPT_BENCH},
    {"help", no_argument, 0, OPT_HELP},           {"version", no_argument, 0, OPT_VERSION},
    {0, 0, 0, 0},
};

/* Can the file be created or overwritten? Checked before anything else runs. */
static void check_writable(const char *path)
{
    FILE *f = fopen(path, "a");
    if (!f)
        die("cannot write %s: %s", path, strerror(errno));
    fclose(f);
}

int main(int argc, char **argv)
{
    struct app_opts o = {
        .color = COLOR_TRUE, .glyphs = GLYPHS_HALF, .fps = 30,
        .tolerance = DEFAULT_TOLERANCE, .sync = true, .seed = 1, .scene = 0,
    };
    bool color_auto = true, glyphs_auto = true, headless = false, bench = false;
    bool size_given = false;
    const char *record = NULL;
    int cols = 80, rows = 24;
    long steps = -1, every = 0;
    double seconds = -1;

    setlocale(LC_ALL, "");
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":", options, NULL)) != -1) {
        switch (c) {
        case OPT_SCENE: {
            const struct scene_ops *s = scene_find(optarg);
            if (!s)
                die("unknown scene '%s' (dye, pbf or cloth)", optarg);
            for (int i = 0; i < SCENE_COUNT; i++)
                if (scenes[i] == s)
                    o.scene = i;
            break;
        }
        case OPT_COLOR:
            if (strcmp(optarg, "auto") == 0)
                color_auto = true;
            else if (palette_mode_parse(optarg, &o.color) == 0)
                color_auto = false;
            else
                die("unknown colour mode '%s' (auto, truecolor, 256, 16, 8 or mono)", optarg);
            break;
        case OPT_GLYPHS:
            if (strcmp(optarg, "half") == 0)
                o.glyphs = GLYPHS_HALF;
            else if (strcmp(optarg, "ascii") == 0)
                o.glyphs = GLYPHS_ASCII;
            else
                die("unknown glyph set '%s' (half or ascii)", optarg);
            glyphs_auto = false;
            break;
        case OPT_FPS: o.fps = (int)parse_long("--fps", optarg, 1, 240); break;
        case OPT_TOL: o.tolerance = (int)parse_long("--tolerance", optarg, 0, 255); break;
        case OPT_NOSYNC: o.sync = false; break;
        case OPT_AUTO: o.autopilot = true; break;
        case OPT_DEMO: o.demo = true; break;
        case OPT_SEED: o.seed = (uint64_t)parse_long("--seed", optarg, 0, 0x7fffffffL); break;
        case OPT_PRESET:
            if (strcmp(optarg, "seed") != 0)
                die("unknown preset '%s' (the only preset is 'seed')", optarg);
            o.preset_seed = true;
            break;
        case OPT_GRID: parse_size("--grid", optarg, 4, 4, &o.grid_w, &o.grid_h); break;
        case OPT_RECORD: record = optarg; break;
        case OPT_HEADLESS: headless = true; break;
        case OPT_SIZE:
            parse_size("--size", optarg, 1, 2, &cols, &rows);
            size_given = true;
            break;
        case OPT_STEPS: steps = parse_long("--steps", optarg, 0, 100000000L); break;
        case OPT_EVERY: every = parse_long("--every", optarg, 1, 100000000L); break;
        case OPT_SECONDS: seconds = parse_double("--seconds", optarg, 0.0, 86400.0); break;
        case OPT_BENCH: bench = true; break;
        case OPT_HELP: fputs(usage, stdout); return 0;
        case OPT_VERSION: printf("swirl %s\n", SWIRL_VERSION); return 0;
        case ':': die("%s needs a value", argv[optind - 1]);
        default:
            if (optopt > ' ' && optopt < 127) /* a short option */
                die("unknown option '-%c' (see --help)", optopt);
            die("unknown option '%s' (see --help)", argv[optind - 1]);
        }
    }
    if (optind < argc)
        die("unexpected argument '%s' (see --help)", argv[optind]);
    if (bench)
        return bench_run();
    if (glyphs_auto) {
        const char *cs = nl_langinfo(CODESET);
        o.glyphs = cs && strcmp(cs, "UTF-8") == 0 ? GLYPHS_HALF : GLYPHS_ASCII;
    }
    if (headless) {
        if (cols < APP_MIN_COLS || rows < APP_MIN_ROWS)
            die("--size %dx%d is too small for a scene (at least %dx%d)", cols, rows,
                APP_MIN_COLS, APP_MIN_ROWS);
        if (color_auto)
            o.color = COLOR_TRUE; /* no terminal to ask: record what a modern one shows */
        if (record) {
            if (steps >= 0 || every > 0)
                die("--steps and --every are for statistics; a recording takes --seconds");
            check_writable(record);
            struct record_stats st;
            int rc = headless_record(&o, cols, rows, seconds < 0 ? 10.0 : seconds, record, &st);
            if (rc == 0)
                headless_record_summary(&st);
            return rc;
        }
        if (seconds >= 0)
            die("--seconds is the length of a recording: it needs --record FILE");
        if (steps < 0)
            die("--headless needs --steps N (statistics) or --record FILE (a recording)");
        if (every == 0)
            every = steps >= 10 ? steps / 10 : 1;
        return headless_stats(&o, cols, rows, steps, every);
    }
    if (steps >= 0 || every > 0 || seconds >= 0 || size_given)
        die("--steps, --every, --seconds and --size need --headless");
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
        die("not a terminal (use --headless for runs without one)");
    if (record)
        check_writable(record);
    return term_run(&o, color_auto, record);
}
