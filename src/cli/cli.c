/*
 * cli.c — swirl's command line (see cli.h): argv in, a struct cli or one line of
 * error out, nothing printed and nothing exited.
 */
#include "cli.h"
#include "cli_options.h"

#include "cast.h"
#include "palette.h"
#include "param.h"
#include "pool.h"
#include "scene.h"
#include "swirl.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The options (cli_options.h), by the name the parser has always used. */
static const struct cli_option *const opts = cli_options;

#define SET_TEXT_MAX 128 /* a --set NAME=VALUE of the config file, at most */

/* A parse in progress: the result, where its error goes, and what only the
 * checks after the options need. What the config file gave is told apart
 * from what the command line gave (the _cfg and _cmd pairs), because the
 * command line wins. */
struct parse {
    struct cli *c;
    char *err;
    size_t n;
    bool headless, size_given, scene_given, overwrite, limit_given;
    const char *drawing; /* the first drawing option given (its name) */
    const char *sets[APP_SETS_MAX]; /* NAME=VALUE, resolved once the scene is known */
    int set_line[APP_SETS_MAX];     /* its line in the config file, 0: the command line */
    int nsets;
    /* The config file: its name for messages, the line being read (0: the
     * command line is being read), and the text of its --set lines. */
    const char *config_name;
    int line;
    char set_text[APP_SETS_MAX][SET_TEXT_MAX];
    bool scene_cfg, demo_cfg, demo_cmd, saver_cfg, saver_cmd;
    bool grid_cfg, grid_cmd, preset_cfg, preset_cmd;
};

static int fail(struct parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct parse *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (p->n > 0)
        vsnprintf(p->err, p->n, fmt, ap);
    va_end(ap);
    return -1;
}

/* Every scene's name, as a message lists them: "dye, pbf or cloth". */
static const char *scene_list(char *out, size_t n)
{
    scene_names(out, n, 0, 0, ", ", " or ");
    return out;
}

/* Does the scene take what flag says (SCENE_GRID, SCENE_SEED_PAGE)? */
static bool scene_takes(int scene, unsigned flag)
{
    return (scenes[scene]->flags & flag) != 0;
}

/* "the dye scene" or "the dye and pbf scenes": those whose flag is as has
 * says, for a refusal; returns how many there are. */
static int scenes_with(unsigned flag, bool has, char *out, size_t n)
{
    char names[256];
    int k = scene_names(names, sizeof names, flag, has ? flag : 0, ", ", " and ");
    if (k == 0)
        snprintf(out, n, "no scene");
    else
        snprintf(out, n, "the %.200s scene%s", names, k == 1 ? "" : "s");
    return k;
}

static int parse_long(struct parse *p, const char *opt, const char *s, long lo, long hi,
                      long *v)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (errno || end == s || *end || x < lo || x > hi)
        return fail(p, "%s wants a whole number from %ld to %ld, not '%s'", opt, lo, hi, s);
    *v = x;
    return 0;
}

static int parse_int(struct parse *p, const char *opt, const char *s, int lo, int hi, int *v)
{
    long x = 0;
    if (parse_long(p, opt, s, lo, hi, &x) != 0)
        return -1;
    *v = (int)x;
    return 0;
}

static int parse_double(struct parse *p, const char *opt, const char *s, double lo, double hi,
                        double *v)
{
    char *end;
    errno = 0;
    double x = param_strtod(s, &end);
    if (errno || end == s || *end || !(x >= lo && x <= hi))
        return fail(p, "%s wants a number from %g to %g, not '%s'", opt, lo, hi, s);
    *v = x;
    return 0;
}

static int parse_size(struct parse *p, const char *opt, const char *s, int lo_w, int lo_h,
                      int *w, int *h)
{
    char *end;
    errno = 0;
    long a = strtol(s, &end, 10);
    if (errno || end == s || *end != 'x')
        return fail(p, "%s wants WxH (e.g. 120x40), not '%s'", opt, s);
    const char *q = end + 1;
    long b = strtol(q, &end, 10);
    if (errno || end == q || *end)
        return fail(p, "%s wants WxH (e.g. 120x40), not '%s'", opt, s);
    if (a < lo_w || b < lo_h || a > CLI_SIZE_MAX_W || b > CLI_SIZE_MAX_H)
        return fail(p, "%s: %ldx%ld is out of range (at least %dx%d, at most %dx%d)", opt, a, b,
                    lo_w, lo_h, CLI_SIZE_MAX_W, CLI_SIZE_MAX_H);
    *w = (int)a, *h = (int)b;
    return 0;
}

/* The option nearest to the name typed (name[0..n), without dashes), as git and
 * cargo suggest one: at most a third of its letters (rounded up) off; of two
 * as near, the first in the table. NULL when none is that near. */
static const char *nearest_option(const char *name, size_t n)
{
    const char *best = NULL;
    int best_d = (int)(n + 2) / 3 + 1;
    for (int i = 0; i < OPT_COUNT; i++) {
        int d = cli_edit_distance(name, n, opts[i].name);
        if (d < best_d)
            best = opts[i].name, best_d = d;
    }
    return best;
}

/* arg, as typed, is no option: one line, with the nearest option when there
 * is one near (-v: -V, a single letter in the other case). */
static int unknown_option(struct parse *p, const char *arg)
{
    const char *name = arg + strspn(arg, "-");
    size_t n = strcspn(name, "=");
    for (int i = 0; i < OPT_COUNT && arg[1] != '-' && n == 1; i++)
        if (opts[i].letter && (opts[i].letter ^ 0x20) == name[0])
            return fail(p, "unknown option '%s' (did you mean -%c?)", arg, opts[i].letter);
    const char *near = n > 0 ? nearest_option(name, n) : NULL;
    if (near)
        return fail(p, "unknown option '%s' (did you mean --%s?)", arg, near);
    return fail(p, "unknown option '%s' (see --help)", arg);
}

/* The option arg ("--name" or "--name=value") names: len is the name's length.
 * A whole name wins; otherwise the prefix must fit one option only (--sc is
 * --scene; --s could be six), as getopt_long does. */
static int find_option(struct parse *p, const char *arg, size_t len, int *id)
{
    int found = -1, matches = 0;
    for (int i = 0; i < OPT_COUNT && len > 0; i++) {
        if (strncmp(opts[i].name, arg + 2, len) != 0)
            continue;
        if (opts[i].name[len] == 0)
            return *id = i, 0;
        found = i;
        matches++;
    }
    if (matches == 0)
        return unknown_option(p, arg);
    if (matches == 1)
        return *id = found, 0;
    char list[512];
    size_t k = 0;
    for (int i = 0, m = 0; i < OPT_COUNT && k < sizeof list; i++)
        if (strncmp(opts[i].name, arg + 2, len) == 0) {
            k += (size_t)snprintf(list + k, sizeof list - k, "%s--%s",
                                  m == 0 ? "" : m + 1 == matches ? " or " : ", ", opts[i].name);
            m++;
        }
    return fail(p, "ambiguous option '%.*s' (could be %s)", (int)len + 2, arg, list);
}

/* Can the recording go there? The file itself is created only once swirl is
 * running. */
static int check_record(struct parse *p)
{
    char why[512];
    if (cast_check(p->c->record, p->overwrite, why, sizeof why) != 0)
        return fail(p, "--record: %s", why);
    return 0;
}

/* --glyphs: a glyph set, auto, or pixels (the protocol by the terminal's
 * answers, or one by name; the glyphs where pixels give way chosen as for
 * auto). */
static int glyphs_option(struct parse *p, const char *arg)
{
    static const char *const pixels[] = {[APP_PIXELS_AUTO] = "pixels",
                                         [APP_PIXELS_KITTY] = "kitty",
                                         [APP_PIXELS_SIXEL] = "sixel"};
    struct cli *c = p->c;
    const char *where = p->line ? "config file" : "command line";
    c->glyphs_auto = strcmp(arg, "auto") == 0;
    c->o.pixels = c->glyphs_auto ? APP_PIXELS_AUTO : APP_PIXELS_OFF;
    c->o.pixels_why = NULL;
    for (int px = APP_PIXELS_AUTO; px <= APP_PIXELS_SIXEL && !c->glyphs_auto; px++)
        if (strcmp(arg, pixels[px]) == 0) {
            c->o.pixels = (enum app_pixels)px;
            c->o.pixels_why = where;
            c->glyphs_auto = true;
            return 0;
        }
    for (int g = GLYPHS_HALF; g <= GLYPHS_ASCII && !c->glyphs_auto; g++)
        if (strcmp(arg, cells_glyphs_name((enum glyph_set)g)) == 0) {
            c->o.glyphs = (enum glyph_set)g;
            c->o.glyphs_why = where;
            return 0;
        }
    if (!c->glyphs_auto)
        return fail(p, "unknown glyph set '%s' (auto, half, quad, sextant, ascii, pixels, kitty "
                       "or sixel)", arg);
    return 0;
}

/* --scene, --color and --glyphs: words of their own lists. */
static int option_word(struct parse *p, int id, const char *arg)
{
    struct cli *c = p->c;
    const char *from = p->line ? "config file" : "command line";
    switch (id) {
    case OPT_SCENE:
        if (p->scene_given)
            return fail(p, "--scene given twice");
        if ((c->o.scene = scene_find(arg)) < 0) {
            char list[256];
            return fail(p, "unknown scene '%s' (%s)", arg, scene_list(list, sizeof list));
        }
        *(p->line ? &p->scene_cfg : &p->scene_given) = true;
        return 0;
    case OPT_COLOR:
        if (strcmp(arg, "auto") == 0)
            c->color_auto = true;
        else if (palette_mode_parse(arg, &c->o.color) == 0)
            c->color_auto = false, c->o.color_why = from;
        else
            return fail(p, "unknown colour mode '%s' (auto, truecolor, 256, 16, 8 or mono)", arg);
        return 0;
    default: /* OPT_GLYPHS */
        return glyphs_option(p, arg);
    }
}

/* One --set, kept until the scene is known (a config file's line is gone
 * by then: its text is kept). */
static int option_set(struct parse *p, const char *arg)
{
    if (p->nsets == APP_SETS_MAX)
        return fail(p, "--set given more than %d times", APP_SETS_MAX);
    if (p->line) {
        if (cli_set_is_help(arg))
            return fail(p, "--set %s is for the command line", arg);
        if (strlen(arg) >= SET_TEXT_MAX)
            return fail(p, "--set wants NAME=VALUE, not '%.40s...'", arg);
        arg = strcpy(p->set_text[p->nsets], arg);
    }
    p->set_line[p->nsets] = p->line;
    p->sets[p->nsets++] = arg;
    return 0;
}

/* --seed, --record-limit and the headless run's numbers. */
static int option_number(struct parse *p, int id, const char *arg)
{
    struct cli *c = p->c;
    long seed = 0;
    switch (id) {
    case OPT_SEED:
        if (parse_long(p, "--seed", arg, 0, 0x7fffffffL, &seed) != 0)
            return -1;
        c->o.seed = (uint64_t)seed;
        return 0;
    case OPT_RECORD_LIMIT:
        p->limit_given = true;
        /* 0 or at least 4K: a limit under the header's size would stop at once. */
        if (cast_parse_size(arg, &c->o.record_limit) != 0 ||
            (c->o.record_limit != 0 && c->o.record_limit < 4096))
            return fail(p, "--record-limit wants a size such as 256M, 1.5G or 0 (at least 4K), "
                           "not '%s'", arg);
        return 0;
    case OPT_SIZE:
        p->size_given = c->size_given = true;
        return parse_size(p, "--size", arg, APP_MIN_COLS, APP_MIN_ROWS, &c->cols, &c->rows);
    case OPT_STEPS: return parse_long(p, "--steps", arg, 0, 100000000L, &c->steps);
    case OPT_EVERY: return parse_long(p, "--every", arg, 1, 100000000L, &c->every);
    default: /* OPT_SECONDS */
        return parse_double(p, "--seconds", arg, 0.0, 86400.0, &c->seconds);
    }
}

static int option(struct parse *p, int id, const char *arg)
{
    struct cli *c = p->c;
    if (opts[id].drawing && !p->drawing)
        p->drawing = opts[id].name;
    switch (id) {
    case OPT_SCENE: case OPT_COLOR: case OPT_GLYPHS: return option_word(p, id, arg);
    case OPT_SEED: case OPT_RECORD_LIMIT: case OPT_SIZE: case OPT_STEPS: case OPT_EVERY:
    case OPT_SECONDS: return option_number(p, id, arg);
    case OPT_SET: return option_set(p, arg);
    case OPT_FPS: return parse_int(p, "--fps", arg, 1, 240, &c->o.fps);
    case OPT_TOL:
        c->o.tolerance_set = true;
        return parse_int(p, "--tolerance", arg, 0, 255, &c->o.tolerance);
    case OPT_NOSYNC: c->o.sync = false; return 0;
    case OPT_AUTO: c->o.autopilot = true; return 0;
    case OPT_DEMO: *(p->line ? &p->demo_cfg : &p->demo_cmd) = true; return 0;
    case OPT_SCREENSAVER: *(p->line ? &p->saver_cfg : &p->saver_cmd) = true; return 0;
    case OPT_NOSTATUS: c->o.no_status = true; return 0;
    case OPT_NOCONFIG: c->no_config = true; return 0;
    case OPT_PRESET:
        if (strcmp(arg, "seed") != 0)
            return fail(p, "unknown preset '%s' (the only preset is 'seed')", arg);
        c->o.preset_seed = true;
        *(p->line ? &p->preset_cfg : &p->preset_cmd) = true;
        return 0;
    case OPT_GRID:
        *(p->line ? &p->grid_cfg : &p->grid_cmd) = true;
        return parse_size(p, "--grid", arg, 4, 4, &c->o.grid_w, &c->o.grid_h);
    case OPT_RECORD: c->record = arg; return 0;
    case OPT_OVERWRITE: p->overwrite = c->o.overwrite = true; return 0;
    case OPT_HEADLESS: p->headless = true; return 0;
    case OPT_THREADS:
        c->threads_given = true;
        return parse_int(p, "--threads", arg, 1, POOL_MAX_THREADS, &c->o.threads);
    }
    return 0;
}

/* Every argument in order, up to the first problem. --help, --version and
 * --list-scenes end the parse at once. A long option's value is either after '=' or the next
 * argument, whatever it looks like (--seed -1). The only short options are -h
 * and -V. */
static int parse_options(struct parse *p, int argc, char *const *argv)
{
    const char *extra = NULL; /* the first argument that is not an option */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = NULL;
        int id = 0;
        if (strcmp(a, "--") == 0) {
            if (!extra && i + 1 < argc)
                extra = argv[i + 1];
            break;
        }
        if (a[0] != '-' || a[1] == 0) {
            if (!extra)
                extra = a;
            continue;
        }
        if (a[1] != '-') {
            for (id = 0; id < OPT_COUNT && !(opts[id].letter == a[1] && a[2] == 0); id++)
                ;
            if (id == OPT_COUNT)
                return unknown_option(p, a);
        } else {
            const char *eq = strchr(a + 2, '=');
            if (find_option(p, a, eq ? (size_t)(eq - a - 2) : strlen(a + 2), &id) != 0)
                return -1;
            if (eq && !opts[id].value)
                return fail(p, "unknown option '%s' (see --help)", a);
            val = eq ? eq + 1 : NULL;
        }
        if (opts[id].value && !val) {
            if (i + 1 == argc)
                return fail(p, "%s needs a value", a);
            val = argv[++i];
        }
        if (id == OPT_HELP || id == OPT_VERSION || id == OPT_LIST_SCENES) {
            if (argc != 2)
                return fail(p, "%s takes no other options", a);
            p->c->run = id == OPT_HELP      ? CLI_HELP
                      : id == OPT_VERSION ? CLI_VERSION
                                          : CLI_LIST_SCENES;
            return 0;
        }
        if (option(p, id, val) != 0)
            return -1;
    }
    if (extra)
        return fail(p, "unexpected argument '%s' (see --help)", extra);
    return 0;
}

/* The problem already in p->err, with the config file's name and a line in
 * front of it. */
static int at_line(struct parse *p, int line)
{
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", p->n > 0 ? p->err : "");
    return fail(p, "%s:%d: %s", p->config_name, line, msg);
}

static bool blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\r'; }

/* One line of the config file (changed in place): NAME, NAME = VALUE or
 * NAME VALUE, a long option's whole name with or without its "--"; '#' at the
 * start or after a blank begins a comment. */
static int config_line(struct parse *p, char *s)
{
    while (blank(*s))
        s++;
    for (char *q = s; *q; q++)
        if (*q == '#' && (q == s || blank(q[-1]))) {
            *q = 0;
            break;
        }
    size_t n = strlen(s);
    while (n > 0 && blank(s[n - 1]))
        s[--n] = 0;
    if (n == 0)
        return 0;
    if (s[0] == '-' && s[1] == '-')
        s += 2;
    size_t len = strcspn(s, "= \t");
    char *val = s + len;
    while (blank(*val))
        val++;
    bool eq = *val == '=';
    if (eq)
        for (val++; blank(*val); val++)
            ;
    s[len] = 0; /* the name ends where its value (or the '=') has not begun */
    int id = -1;
    for (int i = 0; i < OPT_COUNT && id < 0; i++)
        if (strcmp(opts[i].name, s) == 0)
            id = i;
    const char *near = id < 0 ? nearest_option(s, strlen(s)) : NULL;
    if (id < 0 && near)
        return fail(p, "unknown option '%s' (did you mean %s?)", s, near);
    if (id < 0)
        return fail(p, "unknown option '%s'", s);
    if (opts[id].cmdline)
        return fail(p, "--%s is for the command line, not the config file", s);
    if (!opts[id].value && (eq || *val))
        return fail(p, "%s takes no value", s);
    if (opts[id].value && !eq && !*val)
        return fail(p, "%s needs a value", s);
    return option(p, id, val);
}

/* Every line of the config file's n bytes of text, up to the first problem. A
 * UTF-8 byte-order mark before the first line is not part of it (an editor's
 * mark); a NUL byte anywhere is a problem of its line. */
static int config_lines(struct parse *p, const char *text, size_t n)
{
    static const char bom[] = "\xef\xbb\xbf";
    if (n >= sizeof bom - 1 && memcmp(text, bom, sizeof bom - 1) == 0)
        text += sizeof bom - 1, n -= sizeof bom - 1;
    int line = 0;
    for (size_t at = 0; at < n;) {
        const char *s = text + at, *eol = memchr(s, '\n', n - at);
        size_t len = eol ? (size_t)(eol - s) : n - at;
        char buf[1024];
        line++;
        if (memchr(s, 0, len))
            return fail(p, "%s:%d: a NUL byte (is it a text file?)", p->config_name, line);
        if (len >= sizeof buf)
            return fail(p, "%s:%d: the line is longer than %zu characters", p->config_name,
                        line, sizeof buf - 1);
        memcpy(buf, s, len);
        buf[len] = 0;
        p->line = line;
        int rc = config_line(p, buf);
        p->line = 0;
        if (rc != 0)
            return at_line(p, line);
        at += len + (eol != NULL);
    }
    return 0;
}

/* The config file and the command line made one: where they disagree the
 * command line wins, and what the config file says for one kind of run only
 * (a tour, a scene) yields to a command line that asks for another. */
static void settle(struct parse *p)
{
    struct cli *c = p->c;
    bool demo = p->demo_cmd || (p->demo_cfg && !p->scene_given);
    bool saver = p->saver_cmd || (p->saver_cfg && !p->scene_given);
    if (p->scene_cfg && !p->scene_given && demo)
        c->o.scene = 0, p->scene_cfg = false; /* the tour has no first scene */
    c->o.demo = demo || (saver && !p->scene_given && !p->scene_cfg);
    c->o.screensaver = saver;
    if (saver && !c->o.demo)
        c->o.autopilot = true; /* a screensaver of one scene */
    if (p->grid_cfg && !p->grid_cmd && !scene_takes(c->o.scene, SCENE_GRID))
        c->o.grid_w = c->o.grid_h = 0;
    if (p->preset_cfg && !p->preset_cmd && !scene_takes(c->o.scene, SCENE_SEED_PAGE))
        c->o.preset_seed = false;
    if (c->o.demo) { /* the tour shows each scene as it is */
        int k = 0;
        for (int i = 0; i < p->nsets; i++)
            if (p->set_line[i] == 0)
                p->sets[k] = p->sets[i], p->set_line[k++] = 0;
        p->nsets = k;
    }
}

/* Options that the chosen run would ignore are refused. */
static int check_combinations(struct parse *p)
{
    const struct cli *c = p->c;
    if (p->headless && c->steps >= 0 && p->drawing)
        return fail(p, "--%s is about drawing; --steps prints statistics and draws nothing",
                    p->drawing);
    if (c->o.demo && p->scene_given)
        return fail(p, "--demo tours every scene: it takes no --scene");
    char with[256], without[256];
    if (c->o.grid_w && !scene_takes(c->o.scene, SCENE_GRID)) {
        scenes_with(SCENE_GRID, true, with, sizeof with);
        return fail(p, "--grid is for %s", with);
    }
    if (c->o.preset_seed && !scene_takes(c->o.scene, SCENE_SEED_PAGE)) {
        scene_names(with, sizeof with, SCENE_SEED_PAGE, SCENE_SEED_PAGE, ", ", " and ");
        int k = scenes_with(SCENE_SEED_PAGE, false, without, sizeof without);
        return fail(p, "--preset seed is for %s (%s %s no seed page)", with, without,
                    k == 1 ? "has" : "have");
    }
    if (p->overwrite && !c->record)
        return fail(p, "--overwrite is for --record FILE");
    if (p->limit_given && !c->record)
        return fail(p, "--record-limit is for --record FILE");
    if (p->nsets && c->o.demo)
        return fail(p, "--set does not go with the tour (--demo, --screensaver), which "
                    "shows each scene as it is");
    return 0;
}

/* Every --set against its scene's parameters: the first scene's, or those of
 * the scene it names (SCENE:NAME=VALUE); a [SCENE:]help asks for that list
 * (c->set_help). The app applies each when its scene is first built. Of a
 * parameter set by both, the command line's value is kept. */
static int resolve_sets(struct parse *p)
{
    struct cli *c = p->c;
    int line[APP_SETS_MAX], n = 0;
    for (int k = 0; k < p->nsets; k++) {
        struct app_set set;
        bool help;
        if (cli_set_resolve(p->sets[k], c->o.scene, &set, &help, p->err, p->n) != 0)
            return p->set_line[k] ? at_line(p, p->set_line[k]) : -1;
        if (help)
            c->set_help |= 1u << set.scene;
        else
            line[n] = p->set_line[k], c->o.sets[n++] = set;
    }
    c->o.nsets = 0;
    for (int k = 0; k < n; k++) {
        bool beaten = false;
        for (int j = k + 1; j < n && line[k]; j++)
            beaten = beaten || (line[j] == 0 && c->o.sets[j].scene == c->o.sets[k].scene &&
                                c->o.sets[j].param == c->o.sets[k].param);
        if (!beaten)
            c->o.sets[c->o.nsets++] = c->o.sets[k];
    }
    return 0;
}

/* What runs, once every option is known to be good on its own. */
static int choose_run(struct parse *p)
{
    struct cli *c = p->c;
    settle(p);
    c->o.recording = c->record != NULL;
    if (check_combinations(p) != 0)
        return -1;
    if (resolve_sets(p) != 0)
        return -1;
    if (c->set_help) { /* the lists, with what the other --sets give */
        c->run = CLI_SET_HELP;
        return 0;
    }
    if (!p->headless) {
        if (c->steps >= 0 || c->every > 0 || c->seconds >= 0 || p->size_given)
            return fail(p, "--steps, --every, --seconds and --size need --headless");
        c->run = CLI_TERM;
        return c->record ? check_record(p) : 0;
    }
    if (c->color_auto)
        c->o.color = COLOR_TRUE; /* no terminal to ask: record what a modern one shows */
    if (c->record) {
        if (c->steps >= 0 || c->every > 0)
            return fail(p, "--steps and --every are for statistics; a recording takes --seconds");
        if (c->seconds < 0) /* the tour: each scene of the table once */
            c->seconds = c->o.demo ? SCENE_COUNT * APP_DEMO_SCENE_SECONDS : 10.0;
        c->run = CLI_RECORD;
        return check_record(p);
    }
    if (c->seconds >= 0)
        return fail(p, "--seconds is the length of a recording: it needs --record FILE");
    if (c->steps < 0)
        return fail(p, "--headless needs --steps N (statistics) or --record FILE (a recording)");
    if (c->every == 0)
        c->every = c->steps >= 10 ? c->steps / 10 : 1;
    c->run = CLI_STATS;
    return 0;
}

/* The config file's lines (when given), then argv, then the checks. The parse
 * reads in order and stops at the first problem; the checks that need every
 * option (combinations, --set against its scene, the headless run) come
 * after, in that order, so a given command line always gets the same message. */
static int parse_all(struct cli *c, int argc, char *const *argv, const char *config,
                     size_t config_len, const char *config_name, char *err, size_t n)
{
    struct parse p = {.c = c, .err = err, .n = n,
                      .config_name = config_name ? config_name : "config"};
    memset(c, 0, sizeof *c);
    app_opts_default(&c->o);
    c->run = CLI_TERM;
    c->color_auto = c->glyphs_auto = true;
    c->o.pixels = APP_PIXELS_AUTO;
    c->cols = 80, c->rows = 24;
    c->steps = -1, c->seconds = -1.0;
    if (n > 0)
        err[0] = 0;
    if (config && config_lines(&p, config, config_len) != 0)
        return -1;
    if (parse_options(&p, argc, argv) != 0)
        return -1;
    if (c->run == CLI_HELP || c->run == CLI_VERSION || c->run == CLI_LIST_SCENES)
        return 0;
    return choose_run(&p);
}

int cli_parse_config(struct cli *c, int argc, char *const *argv, const char *config,
                     size_t config_len, const char *config_name, char *err, size_t n)
{
    if (parse_all(c, argc, argv, NULL, 0, NULL, err, n) != 0)
        return -1;
    if (!config || !cli_wants_config(c))
        return 0;
    return parse_all(c, argc, argv, config, config_len, config_name, err, n);
}

bool cli_wants_config(const struct cli *c) { return c->run == CLI_TERM && !c->no_config; }

int cli_parse(struct cli *c, int argc, char *const *argv, char *err, size_t n)
{
    return cli_parse_config(c, argc, argv, NULL, 0, NULL, err, n);
}
