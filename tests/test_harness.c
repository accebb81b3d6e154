/*
 * test_harness.c — what a test calls (test.h: its registration, its checks,
 * skipping) and the registry the runner (test_main.c) takes the tests from.
 */
#include "runner.h"
#include "test.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct runner_test runner_tests[TEST_MAX];
int runner_ntests;

/* In the test's process: its failures so far and its name. */
static int current_failures;
static const char *current_name;

void test_register(const char *name, test_fn fn, unsigned flags)
{
    if (runner_ntests == TEST_MAX) {
        fprintf(stderr, "test harness: more than %d tests\n", TEST_MAX);
        exit(2);
    }
    runner_tests[runner_ntests++] = (struct runner_test){name, fn, flags};
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

void test_skip(const char *why)
{
    printf("  skipped: %s\n", why);
    fflush(stdout);
    _exit(RUNNER_SKIP_STATUS);
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

void runner_test_run(int t)
{
    current_name = runner_tests[t].name;
    current_failures = 0;
    runner_tests[t].fn();
    fflush(stdout);
    _exit(current_failures > 250 ? 250 : current_failures);
}
