/*
 * test_main.c — the runner of swirl's test harness (see test.h).
 *
 * Usage: swirl-test [--unit] [SUBSTRING...]. Runs each registered test in the
 * order it was registered, prints one line per failure and, last, the line
 * "N passed, N failed". Exit status is 0 only when nothing failed.
 */
#include "test.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEST_MAX 512

static struct {
    const char *name;
    test_fn fn;
    bool e2e;
} tests[TEST_MAX];
static int ntests;
static int current_failures;
static const char *current_name;

void test_register(const char *name, test_fn fn, bool e2e)
{
    if (ntests == TEST_MAX) {
        fprintf(stderr, "test harness: more than %d tests\n", TEST_MAX);
        exit(2);
    }
    tests[ntests].name = name;
    tests[ntests].fn = fn;
    tests[ntests].e2e = e2e;
    ntests++;
}

void test_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    if (current_failures < 8) {
        fprintf(stdout, "  FAIL %s (%s:%d): ", current_name, file, line);
        va_start(ap, fmt);
        vfprintf(stdout, fmt, ap);
        va_end(ap);
        fputc('\n', stdout);
    }
    current_failures++;
}

static void print_escaped(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == 27)
            fputs("\\e", stdout);
        else if (c < 32 || c >= 127)
            fprintf(stdout, "\\x%02x", c);
        else
            fputc(c, stdout);
    }
}

void test_check_bytes(const char *file, int line, const char *got, size_t gotlen,
                      const char *want, size_t wantlen)
{
    if (gotlen == wantlen && memcmp(got, want, gotlen) == 0)
        return;
    test_fail(file, line, "bytes differ");
    fputs("    want: ", stdout);
    print_escaped(want, wantlen);
    fputs("\n    got:  ", stdout);
    print_escaped(got, gotlen);
    fputc('\n', stdout);
}

static bool selected(int i, int argc, char **argv, bool unit_only)
{
    bool any = false;
    if (unit_only && tests[i].e2e)
        return false;
    for (int a = 1; a < argc; a++) {
        if (argv[a][0] == '-')
            continue;
        any = true;
        if (strstr(tests[i].name, argv[a]))
            return true;
    }
    return !any;
}

int main(int argc, char **argv)
{
    bool unit_only = false;
    int passed = 0, failed = 0;

    for (int a = 1; a < argc; a++)
        if (strcmp(argv[a], "--unit") == 0)
            unit_only = true;
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (int i = 0; i < ntests; i++) {
        if (!selected(i, argc, argv, unit_only))
            continue;
        current_name = tests[i].name;
        current_failures = 0;
        tests[i].fn();
        if (current_failures == 0) {
            passed++;
            printf("ok   %s\n", tests[i].name);
        } else {
            failed++;
            printf("FAIL %s (%d check%s)\n", tests[i].name, current_failures,
                   current_failures == 1 ? "" : "s");
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
