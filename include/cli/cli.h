/*
 * cli.h — swirl's command line, parsed and checked without side effects on the
 * process (no exit(), no printing): argv in, a struct cli saying what to run
 * and with which app options, or one line naming the problem.
 */
#ifndef SWIRL_CLI_H
#define SWIRL_CLI_H

#include "app.h"
#include "buf.h"

#include <stdbool.h>
#include <stddef.h>

#define CLI_SIZE_MAX_W 4000 /* --size and --grid, at most */
#define CLI_SIZE_MAX_H 2000

enum cli_run {
    CLI_TERM,            /* the terminal loop */
    CLI_STATS,           /* --headless --steps: JSON statistics */
    CLI_RECORD,          /* --headless --record: a recording on a simulated clock */
    CLI_HELP,            /* --help, -h: print cli_usage() */
    CLI_VERSION,         /* --version, -V */
    CLI_LIST_SCENES,     /* --list-scenes: print cli_scene_list() */
    CLI_SET_HELP,        /* --set [SCENE:]help: list a scene's parameters */
};

struct cli {
    enum cli_run run;
    bool no_config;      /* --no-config */
    bool size_given;     /* --size */
    struct app_opts o;   /* o.sets resolved; o.color is COLOR_TRUE headless when auto */
    bool color_auto;     /* no --color (or --color auto): ask the terminal */
    bool glyphs_auto;    /* no --glyphs: the caller picks by the locale */
    bool threads_given;  /* --threads; otherwise o.threads is 1, the caller's to pick */
    const char *record;  /* --record FILE (checked writable), or NULL */
    int cols, rows;      /* --size (headless; default 80x24) */
    long steps, every;   /* CLI_STATS: both set (every defaults to a tenth) */
    double seconds;      /* CLI_RECORD: the length (default 10; --demo: one tour) */
    unsigned set_help;   /* CLI_SET_HELP: the scenes to list, bit i for scenes[i] */
};

/* The text --help prints, appended to out: every option (from the table the
 * parser reads), the config file, the keys and the mouse, in lines of at most
 * 80 columns. */
void cli_usage(struct buf *out);
/* What --list-scenes prints, appended to out: each scene of the table in its
 * order on a line of its own, its name (--scene's word) first, then two
 * blanks at least (the titles line up) and its title. The first word of each
 * line is the name: `swirl --list-scenes | cut -d' ' -f1` gives the names. */
void cli_scene_list(struct buf *out);
/* A completion script for shell, "bash", "zsh" or "fish", from the same table,
 * appended to out. Returns 0, or -1 for another shell. */
int cli_completion(const char *shell, struct buf *out);

/* Parses argv[1..argc). Returns 0 with *c filled, or -1 with the reason in
 * err[0..n) (one line, no "swirl: " in front, no newline; the caller prints it
 * and exits 2). argv is not changed. Numbers are read the C way ("0.5")
 * whatever the locale. Everything that can be judged from the arguments alone
 * is judged here: ranges, repeated options, combinations that would be
 * ignored, --set against its scene's parameters, and whether a --record
 * path can be written. What depends on the process's surroundings (a terminal
 * on stdin/stdout, the locale's glyphs, the number of CPUs) is left to the
 * caller. */
int cli_parse(struct cli *c, int argc, char *const *argv, char *err, size_t n);

/*
 * The config file ($XDG_CONFIG_HOME/swirl/config; finding and reading it is
 * the caller's: config.h): long options one a line, as "NAME = VALUE", "NAME VALUE" or
 * a bare "NAME" for a flag, the whole name (a "--" in front is allowed); blank
 * lines, and '#' to the end of the line where it starts the line or follows a
 * blank. Options of the command line alone (--record, --headless, --size,
 * --steps, --every, --seconds, --overwrite, --no-config, --list-scenes, --help,
 * --version)
 * are refused there.
 *
 * It is read for terminal runs only (cli_wants_config), before argv, so the
 * command line wins: a value given in both is the command line's, and so is a
 * --set of the same parameter; a --scene on the command line ends the config
 * file's --demo or --screensaver, a tour (--demo) drops its --scene and its
 * --set lines, and its --grid is dropped for a scene other than dye, its
 * --preset for dye. A --set may name its scene, SCENE:NAME=VALUE (on the
 * command line too): checked against that scene, applied when it is first built.
 * A bad line is refused as "NAME:LINE: problem", config_name being the file's
 * name as the user should read it.
 */
/* Parses the config file's text, config_len bytes (config NULL: no file), and
 * argv as above. A UTF-8 byte-order mark at its start is skipped; a NUL byte
 * is refused as a problem of its line. */
int cli_parse_config(struct cli *c, int argc, char *const *argv, const char *config,
                     size_t config_len, const char *config_name, char *err, size_t n);
/* --set [SCENE:]help: the parameters of each scene asked for (c->set_help),
 * each with its value (as the other --sets give it, marked "(--set)"), its
 * range and whether it restarts the scene, appended to out. Those sized to the
 * terminal show the value for --size, else for a cols x rows terminal, else
 * (cols 0: not known) say "terminal". Returns 0, or -1 when a scene cannot be
 * created. */
int cli_set_help(const struct cli *c, int cols, int rows, struct buf *out);
/* Whether the run that c describes reads the config file: a terminal run
 * without --no-config. */
bool cli_wants_config(const struct cli *c);

#endif
