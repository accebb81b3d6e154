/*
 * main.c — what runs swirl: the locale, the command line (cli.h) and then the
 * terminal loop or a headless runner. Bad input gets one line on
 * stderr naming the problem and exit status 2, before anything else happens.
 *
 * The locale: the text encoding (LC_CTYPE) is the user's, so a UTF-8 terminal
 * gets half-blocks; every number swirl writes or reads (statistics, recordings,
 * --seconds 0.5) is the C locale's, with a point, whatever LC_NUMERIC says.
 */
#include "cli.h"
#include "headless.h"
#include "scene.h"
#include "swirl.h"
#include "term.h"

#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

/* One line on stderr, what the user typed in it escaped; exit status 2. */
static int refuse(const char *msg)
{
    fputs("swirl: ", stderr);
    put_escaped(msg);
    fputc('\n', stderr);
    return 2;
}

/* --set help: the starting scene's parameters, with their defaults. */
static int print_params(const struct cli *c)
{
    const struct scene_ops *s = scenes[c->o.scene];
    struct scene_opts so = {c->o.seed, c->o.preset_seed, c->o.grid_w, c->o.grid_h, NULL, NULL};
    void *st = s->create(&so, c->cols, 2 * (c->rows - 1));
    if (!st) {
        char msg[64];
        snprintf(msg, sizeof msg, "cannot create the %s scene", s->name);
        return refuse(msg);
    }
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

int main(int argc, char **argv)
{
    static struct cli c;
    char err[1024];
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C"); /* "t":0.005, never 0,005 (see the top) */
    if (cli_parse(&c, argc, argv, err, sizeof err) != 0)
        return refuse(err);
    if (!c.threads_given) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        c.o.threads = cpus < 1 ? 1 : cpus > 4 ? 4 : (int)cpus;
    }
    if (c.glyphs_auto) {
        const char *cs = nl_langinfo(CODESET);
        c.o.glyphs = cs && strcmp(cs, "UTF-8") == 0 ? GLYPHS_HALF : GLYPHS_ASCII;
    }
    switch (c.run) {
    case CLI_HELP:
        fputs(cli_usage, stdout);
        return fflush(stdout) == 0 ? 0 : 1;
    case CLI_VERSION:
        printf("swirl %s\n", SWIRL_VERSION);
        return fflush(stdout) == 0 ? 0 : 1;
    case CLI_SET_HELP:
        return print_params(&c);
    case CLI_STATS:
        return headless_stats(&c.o, c.cols, c.rows, c.steps, c.every);
    case CLI_RECORD: {
        struct record_stats st;
        int rc = headless_record(&c.o, c.cols, c.rows, c.seconds, c.record, &st);
        if (rc == 0)
            headless_record_summary(&st);
        return rc;
    }
    case CLI_TERM:
        break;
    }
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
        return refuse("not a terminal (use --headless for runs without one)");
    return term_run(&c.o, c.color_auto, c.record);
}
