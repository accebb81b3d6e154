/*
 * cli_set.c — --set [SCENE:]NAME=VALUE and --set [SCENE:]help (see cli.h):
 * a parameter taken by its name as --set help lists it or as the panel shows
 * it ("dye diffusion", "Dye Diffusion", "dye-diffusion"), its value as --set
 * help writes it (with its unit or without); what is not known is refused
 * with what was likely meant (the nearest name, a name another scene has,
 * the nearest allowed value); and the lists --set help prints, with the
 * values the other --sets give.
 */
#include "cli.h"
#include "cli_options.h"

#include "param.h"
#include "scene.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define NAME_MAX_LEN 64 /* a parameter's name, at most (a longer one is none) */

int cli_edit_distance(const char *a, size_t n, const char *b)
{
    enum { W = 64 };
    size_t m = strlen(b);
    if (n >= W || m >= W)
        return W;
    int d[W][W];
    for (size_t i = 0; i <= n; i++)
        for (size_t j = 0; j <= m; j++) {
            if (i == 0 || j == 0) {
                d[i][j] = (int)(i + j);
                continue;
            }
            int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            best = d[i - 1][j] + 1 < best ? d[i - 1][j] + 1 : best;
            best = d[i][j - 1] + 1 < best ? d[i][j - 1] + 1 : best;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

/* Whether a typo of n letters is near a word at distance d: at most a third
 * of its letters (rounded up) off, as an option's did-you-mean. */
static bool near(size_t n, int d) { return d <= (int)(n + 2) / 3; }

/* s[0..n) without the blanks around it. */
static void trim(const char **s, size_t *n)
{
    while (*n > 0 && isspace((unsigned char)**s))
        (*s)++, (*n)--;
    while (*n > 0 && isspace((unsigned char)(*s)[*n - 1]))
        (*n)--;
}

/* A name as typed, s[0..n), as --set help writes names: lower case, a run of
 * blanks one '-' ("Dye  Diffusion" is dye-diffusion). False when it does not
 * fit out. */
static bool name_key(const char *s, size_t n, char *out, size_t cap)
{
    size_t k = 0;
    trim(&s, &n);
    for (size_t i = 0; i < n; i++) {
        char ch = (char)tolower((unsigned char)s[i]);
        if (isspace((unsigned char)ch)) {
            if (k > 0 && out[k - 1] == '-')
                continue;
            ch = '-';
        }
        if (k + 1 >= cap)
            return false;
        out[k++] = ch;
    }
    out[k] = 0;
    return k > 0;
}

/* The scene named s[0..n) (any case), or -1. */
static int scene_named(const char *s, size_t n)
{
    char key[32];
    if (!name_key(s, n, key, sizeof key))
        return -1;
    return scene_find(key);
}

/* The nearest scene name to s[0..n), or NULL. */
static const char *nearest_scene(const char *s, size_t n)
{
    const char *best = NULL;
    int best_d = 1 << 20;
    for (int i = 0; i < SCENE_COUNT; i++) {
        int d = cli_edit_distance(s, n, scenes[i]->name);
        if (near(n, d) && d < best_d)
            best = scenes[i]->name, best_d = d;
    }
    return best;
}

/* Appends " or NAME" (", NAME") to a list of names being written. */
static void list_add(char *list, size_t cap, int *count, const char *name)
{
    size_t len = strlen(list);
    snprintf(list + len, cap - len, "%s%s", *count == 0 ? "" : " or ", name);
    (*count)++;
}

/* The parameters of s that key was likely meant for, into list ("tearing or
 * tear-strain"): those it begins (a name cut short) or is near, and of those
 * the ones that take value, if any does. Returns how many. */
static int likely_params(const struct scene_ops *s, const char *key, const char *value,
                         char *list, size_t cap)
{
    size_t n = strlen(key);
    bool fits[64] = {false}, maybe[64] = {false}, any_fits = false;
    for (int i = 0; i < s->nparams && i < 64; i++) {
        char name[NAME_MAX_LEN];
        double v;
        param_name(&s->params[i], name, sizeof name);
        maybe[i] = strncmp(name, key, n) == 0 || near(n, cli_edit_distance(key, n, name));
        fits[i] = maybe[i] && param_parse(&s->params[i], value, &v) == 0;
        any_fits |= fits[i];
    }
    int count = 0;
    list[0] = 0;
    for (int i = 0; i < s->nparams && i < 64 && count < 3; i++)
        if (any_fits ? fits[i] : maybe[i]) {
            char name[NAME_MAX_LEN];
            param_name(&s->params[i], name, sizeof name);
            list_add(list, cap, &count, name);
        }
    return count;
}

/* Another scene that has the parameter key, or -1. */
static int scene_with_param(int not, const char *key)
{
    for (int i = 0; i < SCENE_COUNT; i++)
        if (i != not && scene_param_find(scenes[i], key) >= 0)
            return i;
    return -1;
}

/* A value as typed for d without d's unit after it ("0.005 s" is 0.005, as
 * --set help and the panel write it), into out. */
static void value_text(const struct param_def *d, const char *s, size_t n, char *out, size_t cap)
{
    trim(&s, &n);
    size_t u = d->unit ? strlen(d->unit) : 0;
    if (u && n > u && strncasecmp(s + n - u, d->unit, u) == 0) {
        n -= u;
        trim(&s, &n);
    }
    snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), s);
}

/* What a value refused for d was likely meant to be ("off" for "of", 20 for
 * 21 where 20 is the most), into out; false when nothing is near. */
static bool likely_value(const struct param_def *d, const char *s, char *out, size_t cap)
{
    static const char *const words[] = {"on", "off", "true", "false", "yes", "no"};
    size_t n = strlen(s);
    int best = -1, best_d = 2; /* a word it begins, else one a letter off */
    for (int k = 0; k < 6 && n > 0; k++) {
        bool on = k % 2 == 0;
        if (d->type != PARAM_BOOL && !(!on && (d->flags & PARAM_ZERO)))
            continue;
        int dist = strncasecmp(s, words[k], n) == 0 ? 0 : cli_edit_distance(s, n, words[k]);
        if (dist < best_d)
            best = k, best_d = dist;
    }
    if (best >= 0) {
        snprintf(out, cap, "%s", best % 2 == 0 ? "on" : "off");
        return true;
    }
    char *end;
    double x = param_strtod(s, &end);
    if (end == s || *end || !isfinite(x) || d->type == PARAM_BOOL)
        return false;
    double v = x < d->min ? d->min : x > d->max ? d->max : x;
    if (d->type == PARAM_INT)
        v = round(v);
    for (int i = 0; i < d->nchoices; i++) /* the nearest of the values it takes */
        if (i == 0 || fabs(d->choices[i] - x) < fabs(v - x))
            v = d->choices[i];
    if ((d->flags & PARAM_ZERO) && x <= 0.0)
        v = 0.0;
    if (!param_valid(d, v))
        return false;
    param_format(d, v, out, cap);
    out[strcspn(out, " ")] = 0; /* the number alone, without its unit */
    return true;
}

/* One line of error into err, as the command line's messages are. */
#define FAIL(...) (snprintf(err, n, __VA_ARGS__), -1)

/* The scene of a set, "SCENE:" before its '=' (or before "help"); *rest is
 * what follows it. */
static int set_scene(const char *set, int first, const char **rest, char *err, size_t n)
{
    const char *eq = strchr(set, '='), *colon = strchr(set, ':');
    *rest = set;
    if (!colon || (eq && colon > eq))
        return first;
    size_t sl = (size_t)(colon - set);
    int scene = scene_named(set, sl);
    *rest = colon + 1;
    if (scene >= 0)
        return scene;
    char list[256];
    const char *near_one = nearest_scene(set, sl);
    if (near_one)
        return FAIL("--set %s: no scene '%.*s' (did you mean %s?)", set, (int)sl, set,
                    near_one);
    scene_names(list, sizeof list, 0, 0, ", ", " or ");
    return FAIL("--set %s: no scene '%.*s' (%s)", set, (int)sl, set, list);
}

bool cli_set_is_help(const char *set)
{
    const char *colon = strchr(set, ':'), *word = colon ? colon + 1 : set;
    size_t len = strlen(word);
    trim(&word, &len);
    return !strchr(set, '=') && len == 4 && strncasecmp(word, "help", 4) == 0;
}

/* A name refused for scene s: what it was likely meant to be. */
static int unknown_param(const struct scene_ops *s, int scene, const char *key,
                         const char *value, char *err, size_t n)
{
    char list[256];
    if (likely_params(s, key, value, list, sizeof list) > 0)
        return FAIL("--set: the %s scene has no parameter '%s' (did you mean %s?)", s->name,
                    key, list);
    int other = scene_with_param(scene, key);
    if (other >= 0)
        return FAIL("--set: the %s scene has no parameter '%s' (the %s scene has it: --set "
                    "%s:%s=%s)", s->name, key, scenes[other]->name, scenes[other]->name, key,
                    value);
    return FAIL("--set: the %s scene has no parameter '%s' (--set %s:help lists them)",
                s->name, key, s->name);
}

int cli_set_resolve(const char *set, int first, struct app_set *out, bool *help, char *err,
                    size_t n)
{
    const char *rest;
    *help = false;
    int scene = set_scene(set, first, &rest, err, n);
    if (scene < 0)
        return -1;
    const struct scene_ops *s = scenes[scene];
    out->scene = scene;
    if (cli_set_is_help(set))
        return *help = true, 0;
    const char *eq = strchr(rest, '=');
    char key[NAME_MAX_LEN], value[64];
    if (!eq) {
        int i = name_key(rest, strlen(rest), key, sizeof key) ? scene_param_find(s, key) : -1;
        if (i < 0)
            return FAIL("--set wants NAME=VALUE, not '%s' (--set %s:help lists the names)",
                        rest, s->name);
        param_range(&s->params[i], value, sizeof value);
        return FAIL("--set wants NAME=VALUE, not '%s' (%s=%s)", rest, key, value);
    }
    if (!name_key(rest, (size_t)(eq - rest), key, sizeof key))
        return FAIL("--set wants NAME=VALUE, not '%s' (--set %s:help lists the names)", rest,
                    s->name);
    int i = scene_param_find(s, key);
    const char *v = eq + 1;
    if (i < 0) {
        size_t vn = strlen(v);
        trim(&v, &vn);
        snprintf(value, sizeof value, "%.*s", (int)(vn < sizeof value ? vn : 0), v);
        return unknown_param(s, scene, key, value, err, n);
    }
    const struct param_def *d = &s->params[i];
    value_text(d, v, strlen(v), value, sizeof value);
    if (param_parse(d, value, &out->value) != 0) {
        char range[64], meant[32];
        param_range(d, range, sizeof range);
        if (likely_value(d, value, meant, sizeof meant))
            return FAIL("--set %s wants %s, not '%s' (did you mean %s?)", key, range, value,
                        meant);
        return FAIL("--set %s wants %s, not '%s'", key, range, value);
    }
    out->param = i;
    return 0;
}

/* ---- --set help ------------------------------------------------------------ */

/* A scene as --set help shows it, for a cols x rows terminal. */
static void *help_scene(const struct cli *c, int scene, int cols, int rows)
{
    struct scene_opts so = {.seed = c->o.seed, .preset_seed = c->o.preset_seed,
                            .grid_w = c->o.grid_w, .grid_h = c->o.grid_h};
    if (scene != c->o.scene) /* --preset and --grid are the first scene's */
        so.preset_seed = false, so.grid_w = so.grid_h = 0;
    return scenes[scene]->create(&so, cols, 2 * (rows - 1));
}

/* The --set given for parameter i of scene, or -1. */
static int set_of(const struct cli *c, int scene, int i)
{
    int k = -1;
    for (int j = 0; j < c->o.nsets; j++)
        if (c->o.sets[j].scene == scene && c->o.sets[j].param == i)
            k = j; /* the last one given is the one applied last */
    return k;
}

/* One scene's list: st as the terminal has it, small and large to tell what
 * is sized to the terminal; known: whether the terminal's size is. */
static void help_list(const struct cli *c, int scene, void *st, void *small, void *large,
                      bool known, int cols, int rows, struct buf *out)
{
    const struct scene_ops *s = scenes[scene];
    buf_printf(out, "%s parameters (--set %s%sNAME=VALUE; * restarts the scene):\n", s->name,
               scene == c->o.scene ? "" : s->name, scene == c->o.scene ? "" : ":");
    char sized[256] = "";
    size_t ns = 0;
    for (int i = 0; i < s->nparams; i++) {
        char name[NAME_MAX_LEN], value[32], range[64];
        const struct param_def *d = &s->params[i];
        bool by_size = scene_param_get(s, small, i) != scene_param_get(s, large, i);
        bool set = set_of(c, scene, i) >= 0;
        param_name(d, name, sizeof name);
        if (by_size && !known && !set)
            snprintf(value, sizeof value, "terminal");
        else
            param_format(d, scene_param_get(s, st, i), value, sizeof value);
        if (by_size && !set && ns < sizeof sized)
            ns += (size_t)snprintf(sized + ns, sizeof sized - ns, "%s%s", ns ? ", " : "", name);
        param_range(d, range, sizeof range);
        buf_printf(out, "  %-22s %-12s %s%s%s\n", name, value, range,
                   d->flags & PARAM_RESTART ? "  *" : "", set ? "  (--set)" : "");
    }
    if (ns && !known)
        buf_printf(out, "terminal: sized to the terminal swirl runs in (%s)\n", sized);
    else if (ns)
        buf_printf(out, c->size_given ? "%s: sized to --size %dx%d\n"
                                      : "%s: sized to this %dx%d terminal\n", sized, cols, rows);
}

/* One scene's parameters, with the --sets for it applied; -1 when it cannot
 * be created. */
static int help_one(const struct cli *c, int scene, bool known, int cols, int rows,
                    struct buf *out)
{
    const struct scene_ops *s = scenes[scene];
    /* What is sized to the terminal differs between a small one and a large. */
    void *st = help_scene(c, scene, cols, rows),
         *small = help_scene(c, scene, APP_MIN_COLS, APP_MIN_ROWS),
         *large = help_scene(c, scene, 240, 80);
    int rc = st && small && large ? 0 : -1;
    for (int j = 0; j < c->o.nsets && rc == 0; j++)
        if (c->o.sets[j].scene == scene)
            rc = scene_param_set(s, st, c->o.sets[j].param, c->o.sets[j].value);
    if (rc == 0)
        help_list(c, scene, st, small, large, known, cols, rows, out);
    void *all[] = {st, small, large};
    for (int k = 0; k < 3; k++)
        if (all[k])
            s->destroy(all[k]);
    return rc;
}

int cli_set_help(const struct cli *c, int cols, int rows, struct buf *out)
{
    bool known = c->size_given || (cols > 0 && rows > 0);
    if (c->size_given)
        cols = c->cols, rows = c->rows;
    else if (!known)
        cols = 80, rows = 24;
    cols = cols < APP_MIN_COLS ? APP_MIN_COLS : cols;
    rows = rows < APP_MIN_ROWS ? APP_MIN_ROWS : rows;
    unsigned which = c->set_help ? c->set_help : 1u << c->o.scene;
    for (int i = 0, listed = 0; i < SCENE_COUNT; i++) {
        if (!(which & 1u << i))
            continue;
        if (listed++)
            buf_putc(out, '\n');
        if (help_one(c, i, known, cols, rows, out) != 0)
            return -1;
    }
    return 0;
}
