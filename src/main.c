/*
 * main.c — what runs swirl: the locale, the command line (cli.h) with the
 * config file, and then the terminal loop or a headless runner. Bad input gets
 * one line on stderr naming the problem and exit status 2, before anything
 * else happens.
 *
 * The config file (config.h) is read for terminal runs; a file that is not
 * there is no config, and one that is not a regular file is refused.
 *
 * The locale: the text encoding (LC_CTYPE) is the user's, so a UTF-8 terminal
 * gets half-blocks; every number swirl writes or reads (statistics, recordings,
 * --seconds 0.5) is the C locale's, with a point, whatever LC_NUMERIC says.
 */
#include "buf.h"
#include "cli.h"
#include "config.h"
#include "headless.h"
#include "scene.h"
#include "swirl.h"
#include "term.h"

#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* One line on stderr, what the user typed in it escaped (buf_warn: only valid
 * UTF-8 and no control character passes); exit status 2. */
static int refuse(const char *msg)
{
    buf_warn("%s", msg);
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
/* The exit status once stdout has had what it was given (wrote: the last
 * write took it all): 1, with one line on stderr, when it did not take it
 * (a full disk, a closed stdout; errno was 0 before the write). */
static int stdout_done(bool wrote)
{
    if (wrote && fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    buf_warn("cannot write to stdout: %s", strerror(errno ? errno : EIO));
    return 1;
}

/* out onto stdout, and the buffer freed; the exit status. */
static int print_buf(struct buf *out)
{
    errno = 0;
    bool wrote = fwrite(out->p, 1, out->len, stdout) == out->len;
    buf_free(out);
    return stdout_done(wrote);
}

/* The text that fill() makes, onto stdout; the exit status. */
static int print_text(void (*fill)(struct buf *out))
{
    struct buf out;
    buf_init(&out);
    fill(&out);
    return print_buf(&out);
}

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
    return print_buf(&out);
}

/* A standard descriptor that was closed (swirl >&-) is held by /dev/null
 * opened the other way round, so that no file swirl opens (a recording) takes
 * its number and gets what was meant for it, and a write to a closed stdout
 * or stderr still fails (EBADF) and is told as a failure. */
static void hold_closed_fds(void)
{
    /* Lowest first: open() takes the lowest free number, the one closed. */
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
            open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY) != fd)
            return;
}

int main(int argc, char **argv)
{
    static struct cli c;
    char err[1024];
    hold_closed_fds();
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C"); /* "t":0.005, never 0,005 (see the top) */
    if (cli_parse(&c, argc, argv, err, sizeof err) != 0)
        return refuse(err);
    char path[4096], shown[4096];
    if (cli_wants_config(&c) && config_path(getenv("XDG_CONFIG_HOME"), getenv("HOME"), path,
                                            sizeof path, shown, sizeof shown)) {
        static char text[CONFIG_MAX];
        size_t len;
        int rc = config_read(path, shown, text, sizeof text, &len, err, sizeof err);
        if (rc < 0)
            return refuse(err);
        if (rc == 0 && cli_parse_config(&c, argc, argv, text, len, shown, err, sizeof err) != 0)
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
    }
    switch (c.run) {
    case CLI_HELP:
        return print_text(cli_usage);
    case CLI_VERSION:
        errno = 0;
        return stdout_done(printf("swirl %s\n", SWIRL_VERSION) > 0);
    case CLI_LIST_SCENES:
        return print_text(cli_scene_list);
    case CLI_SET_HELP:
        return print_params(&c);
    case CLI_STATS:
        return headless_stats(&c.o, c.cols, c.rows, c.steps, c.every);
    case CLI_RECORD: {
        struct record_stats st;
        int rc = headless_record(&c.o, c.cols, c.rows, c.seconds, c.record, &st);
        return rc == 0 ? headless_record_summary(&st) : rc;
    }
    case CLI_TERM:
        break;
    }
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
        return refuse("not a terminal (use --headless for runs without one)");
    return term_run(&c.o, c.color_auto, c.glyphs_auto, c.record);
}
