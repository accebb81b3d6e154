/*
 * main.c — what runs swirl: the locale, the command line (cli.h) with the
 * config file, and then the terminal loop or a headless runner. Bad input gets
 * one line on stderr naming the problem and exit status 2, before anything
 * else happens.
 *
 * The config file is $XDG_CONFIG_HOME/swirl/config, or ~/.config/swirl/config
 * when XDG_CONFIG_HOME is unset, empty or not an absolute path (the XDG base
 * directory rules); a file that is not there is no config. Messages name it
 * with ~ for the home folder, as the user would type it.
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

#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#define CONFIG_MAX (64 * 1024) /* bytes: a config file is a few lines */

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

/* The size of the terminal on stdout, else on stdin; 0 x 0 when neither is one. */
static void tty_size(int *cols, int *rows)
{
    struct winsize ws;
    *cols = *rows = 0;
    if ((ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0) ||
        (ioctl(STDIN_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0))
        *cols = ws.ws_col, *rows = ws.ws_row;
}

/* --set help: the starting scene's parameters, with their values for this
 * terminal. */
static int print_params(const struct cli *c)
{
    int cols, rows;
    tty_size(&cols, &rows);
    struct buf out;
    buf_init(&out);
    if (cli_set_help(c, cols, rows, &out) != 0) {
        char msg[64];
        snprintf(msg, sizeof msg, "cannot create the %s scene", scenes[c->o.scene]->name);
        buf_free(&out);
        return refuse(msg);
    }
    fwrite(out.p, 1, out.len, stdout);
    buf_free(&out);
    return fflush(stdout) == 0 ? 0 : 1;
}

/* Where the config file is (path), and its name for messages (shown, with ~
 * for $HOME); false when there is no home to look in. */
static bool config_path(char *path, size_t np, char *shown, size_t ns)
{
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    int len;
    if (xdg && xdg[0] == '/')
        len = snprintf(path, np, "%s/swirl/config", xdg);
    else if (home && home[0] == '/')
        len = snprintf(path, np, "%s/.config/swirl/config", home);
    else
        return false;
    if (len < 0 || (size_t)len >= np)
        return false; /* no such path */
    size_t hl = home ? strlen(home) : 0;
    while (hl > 1 && home[hl - 1] == '/')
        hl--;
    if (hl > 1 && strncmp(path, home, hl) == 0 && path[hl] == '/')
        snprintf(shown, ns, "~%s", path + hl);
    else
        snprintf(shown, ns, "%s", path);
    return true;
}

/* Reads the config file into text (NUL-terminated); returns 1 when there is
 * none, 0 when read, -1 with the reason in err. */
static int config_read(const char *path, const char *shown, char *text, size_t cap, char *err,
                       size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f && (errno == ENOENT || errno == ENOTDIR))
        return 1;
    struct stat st;
    if (f && (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode))) {
        fclose(f);
        snprintf(err, n, "%.600s: not a regular file", shown);
        return -1;
    }
    if (!f) {
        snprintf(err, n, "%.600s: %s", shown, strerror(errno));
        return -1;
    }
    size_t len = fread(text, 1, cap - 1, f);
    bool bad = ferror(f), more = !bad && len == cap - 1 && fgetc(f) != EOF;
    int e = errno;
    fclose(f);
    text[len] = 0;
    if (bad)
        snprintf(err, n, "%.600s: %s", shown, strerror(e));
    else if (more)
        snprintf(err, n, "%.600s: longer than %zu bytes", shown, cap - 1);
    return bad || more ? -1 : 0;
}

int main(int argc, char **argv)
{
    static struct cli c;
    char err[1024];
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C"); /* "t":0.005, never 0,005 (see the top) */
    if (cli_parse(&c, argc, argv, err, sizeof err) != 0)
        return refuse(err);
    char path[4096], shown[4096];
    if (cli_wants_config(&c) && config_path(path, sizeof path, shown, sizeof shown)) {
        static char text[CONFIG_MAX + 1];
        int rc = config_read(path, shown, text, sizeof text, err, sizeof err);
        if (rc < 0)
            return refuse(err);
        if (rc == 0 && cli_parse_config(&c, argc, argv, text, shown, err, sizeof err) != 0)
            return refuse(err);
    }
    if (!c.threads_given) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        c.o.threads = cpus < 1 ? 1 : cpus > 4 ? 4 : (int)cpus;
        c.o.threads_auto = true; /* of those, as many as run fastest */
    }
    if (c.glyphs_auto) { /* in a terminal, what it draws decides the rest */
        const char *cs = nl_langinfo(CODESET);
        bool utf8 = cs && strcmp(cs, "UTF-8") == 0;
        c.o.glyphs = utf8 ? GLYPHS_HALF : GLYPHS_ASCII;
        c.o.glyphs_why = utf8 ? NULL : "not a UTF-8 locale";
        c.glyphs_auto = utf8;
    } else {
        c.o.glyphs_why = "--glyphs";
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
    return term_run(&c.o, c.color_auto, c.glyphs_auto, c.record);
}
