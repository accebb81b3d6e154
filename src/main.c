/*
 * main.c — swirl's command line: parse, validate, then hand over to the terminal
 * loop, a headless runner or the bench. Bad input gets one line on stderr naming
 * the problem and exit status 2, before anything else happens.
 */
#include "bench.h"
#include "cast.h"
#include "headless.h"
#include "pool.h"
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
    "  --threads N         solver threads, 1-64 (default: the online CPUs, at most 4);\n"
    "                      the results are the same for any N\n"
    "  --preset seed       pbf/cloth: the seed page's setup, units and parameters\n"
    "  --grid WxH          dye: simulation grid instead of the canvas size\n"
    "  --set NAME=VALUE    set a panel parameter of the first scene before it starts\n"
    "                      (repeatable; --set help lists the scene's parameters)\n"
    "  --record FILE.cast  record the session as asciicast v2 (an existing file\n"
    "                      only with --overwrite)\n"
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
    "      R defaults, Ctrl-L repaint; dye: c clear, b burst; pbf: w pour water;\n"
    "      cloth: t tearing\n"
    "mouse: left drag pushes dye / grabs a handful of water / pulls cloth; right\n"
    "      drag: dye swirls the other way, pbf pushes water, cloth is cut; the\n"
    "      wheel zooms (pbf, cloth)\n";

/* Writes s to stderr with control characters (C0, DEL, C1 and bytes that are
 * not UTF-8) shown as \xNN: what the user typed is echoed, never obeyed. */
static void put_escaped(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; u[i];) {
        size_t len = u[i] < 0x80 ? 1 : u[i] >= 0xF0 && u[i] < 0xF5 ? 4 : u[i] >= 0xE0 ? 3
                   : u[i] >= 0xC2 && u[i] < 0xE0 ? 2 : 0;
        for (size_t k = 1; k < len; k++)
            if ((u[i + k] & 0xC0) != 0x80)
                len = 0;
        bool c1 = len == 2 && u[i] == 0xC2 && u[i + 1] < 0xA0;
        if (len == 0 || c1 || u[i] < 0x20 || u[i] == 0x7F) {
            fprintf(stderr, "\\x%02x", u[i]);
            i++;
        } else {
            fwrite(u + i, 1, len, stderr);
            i += len;
        }
    }
}

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fputs("swirl: ", stderr);
    put_escaped(msg);
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
    OPT_EVERY, OPT_SECONDS, OPT_BENCH, OPT_HELP, OPT_VERSION, OPT_SET, OPT_THREADS,
    OPT_OVERWRITE,
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
    {"set", required_argument, 0, OPT_SET},       {"threads", required_argument, 0, OPT_THREADS},
    {"overwrite", no_argument, 0, OPT_OVERWRITE}, {0, 0, 0, 0},
};

/* Can the recording go there? Checked before anything else runs; the file
 * itself is created only once swirl is running. */
static void check_record(const char *path, bool overwrite)
{
    char why[512];
    if (cast_check(path, overwrite, why, sizeof why) != 0)
        die("--record: %s", why);
}

/* What the command line asked for. */
struct cli {
    struct app_opts o;
    bool color_auto, glyphs_auto, headless, bench, size_given, scene_given, overwrite;
    const char *record;
    const char *drawing; /* the first option given that only matters when drawing */
    int cols, rows;
    long steps, every;
    double seconds;
    const char *sets[APP_SETS_MAX]; /* NAME=VALUE, resolved once the scene is known */
    int nsets;
};

static void option(struct cli *c, int opt, const char *arg)
{
    static const char *const drawing[] = {
        [OPT_COLOR - OPT_SCENE] = "--color", [OPT_GLYPHS - OPT_SCENE] = "--glyphs",
        [OPT_FPS - OPT_SCENE] = "--fps", [OPT_TOL - OPT_SCENE] = "--tolerance",
        [OPT_NOSYNC - OPT_SCENE] = "--no-sync",
    };
    if (opt - OPT_SCENE < (int)(sizeof drawing / sizeof drawing[0]) && !c->drawing)
        c->drawing = drawing[opt - OPT_SCENE];
    switch (opt) {
    case OPT_SCENE:
        if (c->scene_given)
            die("--scene given twice");
        if ((c->o.scene = scene_find(arg)) < 0)
            die("unknown scene '%s' (dye, pbf or cloth)", arg);
        c->scene_given = true;
        break;
    case OPT_COLOR:
        if (strcmp(arg, "auto") == 0)
            c->color_auto = true;
        else if (palette_mode_parse(arg, &c->o.color) == 0)
            c->color_auto = false;
        else
            die("unknown colour mode '%s' (auto, truecolor, 256, 16, 8 or mono)", arg);
        break;
    case OPT_GLYPHS:
        if (strcmp(arg, "half") != 0 && strcmp(arg, "ascii") != 0)
            die("unknown glyph set '%s' (half or ascii)", arg);
        c->o.glyphs = arg[0] == 'h' ? GLYPHS_HALF : GLYPHS_ASCII;
        c->glyphs_auto = false;
        break;
    case OPT_FPS: c->o.fps = (int)parse_long("--fps", arg, 1, 240); break;
    case OPT_TOL: c->o.tolerance = (int)parse_long("--tolerance", arg, 0, 255); break;
    case OPT_NOSYNC: c->o.sync = false; break;
    case OPT_AUTO: c->o.autopilot = true; break;
    case OPT_DEMO: c->o.demo = true; break;
    case OPT_SEED: c->o.seed = (uint64_t)parse_long("--seed", arg, 0, 0x7fffffffL); break;
    case OPT_PRESET:
        if (strcmp(arg, "seed") != 0)
            die("unknown preset '%s' (the only preset is 'seed')", arg);
        c->o.preset_seed = true;
        break;
    case OPT_GRID: parse_size("--grid", arg, 4, 4, &c->o.grid_w, &c->o.grid_h); break;
    case OPT_RECORD: c->record = arg; break;
    case OPT_OVERWRITE: c->overwrite = true; break;
    case OPT_HEADLESS: c->headless = true; break;
    case OPT_SIZE:
        parse_size("--size", arg, 1, 2, &c->cols, &c->rows);
        c->size_given = true;
        break;
    case OPT_STEPS: c->steps = parse_long("--steps", arg, 0, 100000000L); break;
    case OPT_EVERY: c->every = parse_long("--every", arg, 1, 100000000L); break;
    case OPT_SECONDS: c->seconds = parse_double("--seconds", arg, 0.0, 86400.0); break;
    case OPT_THREADS:
        c->o.threads = (int)parse_long("--threads", arg, 1, POOL_MAX_THREADS);
        break;
    case OPT_SET:
        if (c->nsets == APP_SETS_MAX)
            die("--set given more than %d times", APP_SETS_MAX);
        c->sets[c->nsets++] = arg;
        break;
    }
}

static void parse_args(struct cli *c, int argc, char **argv)
{
    /* swirl has no short options: anything like one is named as typed (but
     * not the value of an option that takes one: --seed -1). */
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (argv[i][0] == '-' && argv[i][1] && argv[i][1] != '-')
            die("unknown option '%s' (see --help)", argv[i]);
        for (const struct option *o = options; o->name && argv[i][0] == '-'; o++)
            if (o->has_arg == required_argument && strcmp(argv[i] + 2, o->name) == 0) {
                i++;
                break;
            }
    }
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, ":", options, NULL)) != -1) {
        if (opt == OPT_HELP || opt == OPT_VERSION) {
            if (argc != 2)
                die("%s takes no other options", argv[optind - 1]);
            if (opt == OPT_HELP)
                fputs(usage, stdout);
            else
                printf("swirl %s\n", SWIRL_VERSION);
            exit(0);
        } else if (opt == OPT_BENCH) {
            c->bench = true;
        } else if (opt == ':') {
            die("%s needs a value", argv[optind - 1]);
        } else if (opt == '?') {
            die("unknown option '%s' (see --help)", argv[optind - 1]);
        } else {
            option(c, opt, optarg);
        }
    }
    if (optind < argc)
        die("unexpected argument '%s' (see --help)", argv[optind]);
    if (c->bench && argc != 2)
        die("--bench takes no other options");
}

/* Options that the chosen run would ignore are refused. */
static void check_combinations(const struct cli *c)
{
    if (c->headless && c->steps >= 0 && c->drawing)
        die("%s is about drawing; --steps prints statistics and draws nothing", c->drawing);
    if (c->o.demo && c->scene_given)
        die("--demo tours every scene: it takes no --scene");
    if (c->o.grid_w && c->o.scene != 0)
        die("--grid is for the dye scene");
    if (c->o.preset_seed && c->o.scene == 0)
        die("--preset seed is for pbf and cloth (the dye scene has no seed page)");
    if (c->overwrite && !c->record)
        die("--overwrite is for --record FILE");
    if (c->nsets && c->o.demo)
        die("--set is for the first scene: it does not go with --demo");
}

/* --set help: the starting scene's parameters, with their defaults. */
static int print_params(const struct cli *c)
{
    const struct scene_ops *s = scenes[c->o.scene];
    struct scene_opts so = {c->o.seed, c->o.preset_seed, c->o.grid_w, c->o.grid_h, NULL};
    void *st = s->create(&so, c->cols, 2 * (c->rows - 1));
    if (!st)
        die("cannot create the %s scene", s->name);
    printf("%s parameters (--set NAME=VALUE; * restarts the scene):\n", s->name);
    for (int i = 0; i < s->nparams; i++) {
        char name[64], value[32], range[64];
        const struct param_def *d = &s->params[i];
        param_name(d, name, sizeof name);
        param_format(d, scene_param_get(s, st, i), value, sizeof value);
        param_range(d, range, sizeof range);
        printf("  %-22s %-12s %s%s\n", name, value, range, d->flags & PARAM_RESTART ? "  *" : "");
    }
    s->destroy(st);
    return fflush(stdout) == 0 ? 0 : 1;
}

/* --set NAME=VALUE against the first scene's parameters. */
static void resolve_sets(struct cli *c)
{
    const struct scene_ops *s = scenes[c->o.scene];
    for (int k = 0; k < c->nsets; k++) {
        const char *eq = strchr(c->sets[k], '=');
        char name[64];
        if (!eq || eq == c->sets[k] || (size_t)(eq - c->sets[k]) >= sizeof name)
            die("--set wants NAME=VALUE, not '%s' (--set help lists the names)", c->sets[k]);
        memcpy(name, c->sets[k], (size_t)(eq - c->sets[k]));
        name[eq - c->sets[k]] = 0;
        int i = scene_param_find(s, name);
        if (i < 0)
            die("--set: the %s scene has no parameter '%s' (--scene %s --set help lists them)",
                s->name, name, s->name);
        char range[64];
        param_range(&s->params[i], range, sizeof range);
        if (param_parse(&s->params[i], eq + 1, &c->o.sets[k].value) != 0)
            die("--set %s wants %s, not '%s'", name, range, eq + 1);
        c->o.sets[k].param = i;
    }
    c->o.nsets = c->nsets;
}

static int run_headless(struct cli *c)
{
    if (c->cols < APP_MIN_COLS || c->rows < APP_MIN_ROWS)
        die("--size %dx%d is too small for a scene (at least %dx%d)", c->cols, c->rows,
            APP_MIN_COLS, APP_MIN_ROWS);
    if (c->color_auto)
        c->o.color = COLOR_TRUE; /* no terminal to ask: record what a modern one shows */
    if (c->record) {
        if (c->steps >= 0 || c->every > 0)
            die("--steps and --every are for statistics; a recording takes --seconds");
        check_record(c->record, c->overwrite);
        struct record_stats st;
        int rc = headless_record(&c->o, c->cols, c->rows, c->seconds < 0 ? 10.0 : c->seconds,
                                 c->record, &st);
        if (rc == 0)
            headless_record_summary(&st);
        return rc;
    }
    if (c->seconds >= 0)
        die("--seconds is the length of a recording: it needs --record FILE");
    if (c->steps < 0)
        die("--headless needs --steps N (statistics) or --record FILE (a recording)");
    if (c->every == 0)
        c->every = c->steps >= 10 ? c->steps / 10 : 1;
    return headless_stats(&c->o, c->cols, c->rows, c->steps, c->every);
}

int main(int argc, char **argv)
{
    static struct cli c;
    app_opts_default(&c.o);
    c.color_auto = c.glyphs_auto = true;
    c.cols = 80, c.rows = 24;
    c.steps = -1, c.seconds = -1;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    c.o.threads = cpus < 1 ? 1 : cpus > 4 ? 4 : (int)cpus;
    setlocale(LC_ALL, "");
    parse_args(&c, argc, argv);
    if (c.bench)
        return bench_run();
    check_combinations(&c);
    if (c.nsets == 1 && strcmp(c.sets[0], "help") == 0)
        return print_params(&c);
    resolve_sets(&c);
    if (c.glyphs_auto) {
        const char *cs = nl_langinfo(CODESET);
        c.o.glyphs = cs && strcmp(cs, "UTF-8") == 0 ? GLYPHS_HALF : GLYPHS_ASCII;
    }
    if (c.headless)
        return run_headless(&c);
    if (c.steps >= 0 || c.every > 0 || c.seconds >= 0 || c.size_given)
        die("--steps, --every, --seconds and --size need --headless");
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
        die("not a terminal (use --headless for runs without one)");
    if (c.record)
        check_record(c.record, c.overwrite);
    return term_run(&c.o, c.color_auto, c.record);
}
