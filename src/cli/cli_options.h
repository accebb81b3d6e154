/*
 * cli_options.h — swirl's options as one table, private to the command line's
 * files: cli.c parses by it, cli_usage.c writes --help from it and
 * cli_complete.c the shells' completions, so the three cannot disagree; and
 * what cli.c takes from cli_set.c, the --set parser. The
 * table is in --help's order, which is also the order an ambiguous prefix
 * lists what it could be.
 */
#ifndef SWIRL_CLI_OPTIONS_H
#define SWIRL_CLI_OPTIONS_H

#include "app.h"
#include "buf.h"

#include <stdbool.h>

enum {
    OPT_SCENE, OPT_COLOR, OPT_GLYPHS, OPT_FPS, OPT_TOL, OPT_NOSYNC, OPT_AUTO, OPT_DEMO,
    OPT_SCREENSAVER, OPT_NOSTATUS, OPT_SEED, OPT_THREADS, OPT_PRESET, OPT_GRID, OPT_SET,
    OPT_RECORD, OPT_OVERWRITE, OPT_RECORD_LIMIT, OPT_HEADLESS, OPT_SIZE, OPT_STEPS,
    OPT_EVERY, OPT_SECONDS, OPT_NOCONFIG, OPT_LIST_SCENES, OPT_HELP, OPT_VERSION, OPT_COUNT
};

struct cli_option {
    const char *name;    /* the long name, without its "--" */
    char letter;         /* its short option (-h, -V), or 0 */
    const char *value;   /* the name of its value in --help ("NAME"); NULL: a flag */
    const char *choices; /* the values it takes, for completion ("{words}");
                          * NULL: any (a number, a size...) */
    bool file;           /* its value is a file name (completed as one) */
    bool drawing;        /* only matters when frames are drawn */
    bool cmdline;        /* the command line's only: not in the config file */
    const char *help;    /* --help's lines for it, each ended by '\n'; joined, the
                          * completions' description */
};

extern const struct cli_option cli_options[OPT_COUNT];

/* How many letters must be added, dropped, changed or swapped with their
 * neighbour to turn a[0..n) into b (the optimal string alignment distance);
 * names of 64 letters or more are "far" (64). For the did-you-means. */
int cli_edit_distance(const char *a, size_t n, const char *b);

/* One --set (cli_set.c): [SCENE:]NAME=VALUE against the parameters of SCENE,
 * else of the scene first (its name as --set help or the panel writes it, its
 * value with its unit or without), into *out (its scene, parameter, value);
 * or [SCENE:]help, *help then true and out->scene the scene to list. Returns
 * 0, or -1 with one line in err[0..n) that says what was likely meant. */
int cli_set_resolve(const char *set, int first, struct app_set *out, bool *help, char *err,
                    size_t n);
/* Whether a --set is [SCENE:]help. */
bool cli_set_is_help(const char *set);

/* text (an option's help or choices) into out, with the scene table's words
 * for its marks: {scenes} "dye, pbf or cloth", {words} "dye pbf cloth",
 * {first} the first scene, {grid} the scenes --grid is for ("dye"), {seeded}
 * those with a seed page ("pbf/cloth"), {keys} the scenes' keys ("1 2 3"). */
void cli_text(struct buf *out, const char *text);

#endif
