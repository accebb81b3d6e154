/*
 * test_locale.c — swirl under a decimal-comma locale (de_DE.UTF-8, built with
 * localedef into a folder of our own and found through LOCPATH): every number it
 * writes or reads is the C locale's ("t":0.0333, [0.033333, "o", ...],
 * --seconds 0.5), while the text encoding stays the user's (UTF-8 half-blocks).
 * Skipped when localedef or its de_DE source is not installed. The locale
 * is built once, into build/test-locale, and kept for later runs.
 */
#include "cli.h"
#include "e2e.h"
#include "scene.h"
#include "test.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* A digit, a comma, a digit: a decimal comma (JSON's own commas never sit
 * between two digits: "t":0.0333,"grid":...). */
static const char *decimal_comma(const char *s)
{
    for (const char *p = s; p && *p; p++)
        if (p[0] >= '0' && p[0] <= '9' && p[1] == ',' && p[2] >= '0' && p[2] <= '9')
            return p;
    return NULL;
}


/* Runs ./swirl ARGS under the locale in loc, its output in dir; returns its
 * exit status and what it printed on stdout (malloc'd). */
static int swirl_de(const char *loc, const char *dir, const char *args, char **out)
{
    char path[96];
    snprintf(path, sizeof path, "%s/out", dir);
    int st = e2e_sh("env LOCPATH=%s LANG=de_DE.UTF-8 LC_ALL=de_DE.UTF-8 ./swirl %s "
                    "</dev/null >%s 2>%s/err", loc, args, path, dir);
    size_t n;
    *out = e2e_slurp(path, &n);
    if (!*out)
        *out = calloc(1, 1);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        snprintf(path, sizeof path, "%s/err", dir);
        char *err = e2e_slurp(path, &n);
        printf("  swirl %s: status %d, stderr: %s\n", args, st, err ? err : "");
        free(err);
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* Whether the locale folder loc holds a de_DE.UTF-8 that writes a half as
 * "0,5": asked in a child of its own, as the C library keeps what it once
 * found (or did not) of a locale for the rest of the process. */
static bool comma_in(const char *loc)
{
    fflush(stdout);
    pid_t kid = fork();
    if (kid == 0) {
        setenv("LOCPATH", loc, 1);
        locale_t de = newlocale(LC_ALL_MASK, "de_DE.UTF-8", (locale_t)0);
        if (de == (locale_t)0)
            _exit(1);
        uselocale(de);
        char half[16];
        snprintf(half, sizeof half, "%.1f", 0.5);
        _exit(strcmp(half, "0,5") == 0 ? 0 : 1);
    }
    int st;
    return kid > 0 && waitpid(kid, &st, 0) == kid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* A comma-decimal locale (loc: its folder, for LOCPATH), built with localedef
 * the first time (a minute's work for the machine, kept in build/test-locale: built
 * aside and moved in whole, so that two tests at once never see half of
 * one), and a folder of the test's own for what it writes (dir, mkdtemp'd);
 * skips the test where localedef cannot make it. */
static void comma_locale(char *loc, size_t nl, char *dir, size_t n)
{
    char *real = realpath("build", NULL);
    snprintf(loc, nl, "%s/test-locale", real ? real : "build");
    free(real);
    if (!comma_in(loc)) {
        if (e2e_sh("command -v localedef >/dev/null 2>&1") != 0 ||
            access("/usr/share/i18n/locales/de_DE", R_OK) != 0)
            test_skip("no localedef");
        char aside[128];
        snprintf(aside, sizeof aside, "%s.%d", loc, (int)getpid());
        if (e2e_sh("rm -rf %s && mkdir -p %s && localedef -i de_DE -f UTF-8 %s/de_DE.UTF-8 "
                   ">/dev/null 2>&1", aside, aside, aside) != 0) {
            e2e_sh("rm -rf %s", aside);
            test_skip("localedef cannot build de_DE.UTF-8");
        }
        if (rename(aside, loc) != 0) { /* another test's, or a broken one's */
            if (!comma_in(loc))
                e2e_sh("rm -rf %s && mv %s %s", loc, aside, loc);
            e2e_sh("rm -rf %s", aside);
        }
    }
    CHECK_MSG(comma_in(loc), "no comma-decimal locale in %s", loc);
    snprintf(dir, n, "/tmp/swirl-locale-XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
}

TEST(locale_parser_reads_points_under_a_comma_locale)
{
    char loc[512], dir[64];
    comma_locale(loc, sizeof loc, dir, sizeof dir);
    /* The locale is what the test needs: a comma in this very process. */
    setenv("LOCPATH", loc, 1);
    CHECK(setlocale(LC_ALL, "de_DE.UTF-8") != NULL);
    char half[16];
    snprintf(half, sizeof half, "%.1f", 0.5);
    CHECK_MSG(strcmp(half, "0,5") == 0, "de_DE.UTF-8 writes a half as %s", half);
    /* The parser reads numbers the C way whatever the global locale says. */
    struct cli c;
    char err[256], rec[96];
    snprintf(rec, sizeof rec, "%s/parsed.cast", dir);
    char *argv[] = {"swirl", "--headless", "--seconds", "0.5", "--set", "viscosity=0.1",
                    "--record", rec};
    int rc = cli_parse(&c, 8, argv, err, sizeof err);
    setlocale(LC_ALL, "C"); /* (so that failures below print points too) */
    CHECK_MSG(rc == 0, "%s", err);
    CHECK_NEAR(c.seconds, 0.5, 0.0);
    CHECK_INT(c.o.nsets, 1);
    CHECK_NEAR(c.o.sets[0].value, 0.1, 1e-12);
    e2e_sh("rm -rf %s", dir);
}

TEST_E2E_CPU(locale_numbers_stay_c_under_a_comma_locale)
{
    char loc[512], dir[64];
    comma_locale(loc, sizeof loc, dir, sizeof dir);
    /* Statistics: a --set with a point goes in, the JSON comes out with points. */
    char *out;
    CHECK_INT(swirl_de(loc, dir, "--headless --size 40x12 --steps 3 --every 1 --set viscosity=0.1",
                       &out), 0);
    CHECK_MSG(strstr(out, "\"t\":0.0") != NULL && !decimal_comma(out), "stats: %s", out);
    free(out);
    /* A recording of --seconds 0.5: timestamps with points, half-blocks in it
     * (the encoding is still the locale's UTF-8), and its summary with points. */
    char args[160];
    snprintf(args, sizeof args, "--headless --size 40x12 --seconds 0.5 --record %s/a.cast", dir);
    CHECK_INT(swirl_de(loc, dir, args, &out), 0);
    CHECK_MSG(strstr(out, "\"seconds\":0.500") != NULL && !decimal_comma(out), "summary: %s",
              out);
    free(out);
    char rec[96];
    snprintf(rec, sizeof rec, "%s/a.cast", dir);
    size_t n;
    char *cast = e2e_slurp(rec, &n);
    CHECK(cast && strncmp(cast, "{\"version\": 2", 13) == 0);
    int events = 0, good = 0;
    double last = -1.0;
    for (const char *p = cast ? strchr(cast, '\n') : NULL; p && p[1]; p = strchr(p + 1, '\n')) {
        double t;
        char sep[4] = "";
        events++;
        if (sscanf(p + 1, "[%lf%3[^ ]", &t, sep) == 2 && strcmp(sep, ",") == 0 && t >= last) {
            good++;
            last = t;
        }
    }
    CHECK_MSG(events > 3 && good == events, "%d of %d events read as [t, ...]", good, events);
    CHECK_NEAR(last, 0.5, 1e-6);
    CHECK_MSG(cast && strstr(cast, "\xe2\x96\x80") != NULL, "no half-blocks in the recording");
    free(cast);
    e2e_sh("rm -rf %s", dir);
}
