/*
 * cli.h — swirl's command line, parsed and checked without side effects on the
 * process (no exit(), no printing): argv in, a struct cli saying what to run
 * and with which app options, or one line naming the problem.
 */
#ifndef SWIRL_CLI_H
#define SWIRL_CLI_H

#include "app.h"

#include <stdbool.h>
#include <stddef.h>

#define CLI_SIZE_MAX_W 4000 /* --size and --grid, at most */
#define CLI_SIZE_MAX_H 2000

enum cli_run {
    CLI_TERM,            /* the terminal loop */
    CLI_STATS,           /* --headless --steps: JSON statistics */
    CLI_RECORD,          /* --headless --record: a recording on a simulated clock */
    CLI_HELP,            /* --help, -h: print cli_usage */
    CLI_VERSION,         /* --version, -V */
    CLI_SET_HELP,        /* --set help: list the first scene's parameters */
};

struct cli {
    enum cli_run run;
    struct app_opts o;   /* o.sets resolved; o.color is COLOR_TRUE headless when auto */
    bool color_auto;     /* no --color (or --color auto): ask the terminal */
    bool glyphs_auto;    /* no --glyphs: the caller picks by the locale */
    bool threads_given;  /* --threads; otherwise o.threads is 1, the caller's to pick */
    const char *record;  /* --record FILE (checked writable), or NULL */
    int cols, rows;      /* --size (headless; default 80x24) */
    long steps, every;   /* CLI_STATS: both set (every defaults to a tenth) */
    double seconds;      /* CLI_RECORD: the length (default 10) */
};

/* The text --help prints. */
extern const char cli_usage[];

/* Parses argv[1..argc). Returns 0 with *c filled, or -1 with the reason in
 * err[0..n) (one line, no "swirl: " in front, no newline; the caller prints it
 * and exits 2). argv is not changed. Numbers are read the C way ("0.5")
 * whatever the locale. Everything that can be judged from the arguments alone
 * is judged here: ranges, repeated options, combinations that would be
 * ignored, --set against the first scene's parameters, and whether a --record
 * path can be written. What depends on the process's surroundings (a terminal
 * on stdin/stdout, the locale's glyphs, the number of CPUs) is left to the
 * caller. */
int cli_parse(struct cli *c, int argc, char *const *argv, char *err, size_t n);

#endif
