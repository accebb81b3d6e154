/*
 * runner.h — the test runner's own parts beside tests/test_main.c: the
 * tests registered and one run in its process (test_harness.c), the
 * processor time of its running tests, by which it tells a hung test from a
 * slow one (runner_watch.c), and the times a run keeps for the next, the
 * order they give and the slowest tests of a run (runner_times.c).
 */
#ifndef SWIRL_RUNNER_H
#define SWIRL_RUNNER_H

#include "test.h"

#include <stdbool.h>

#define TEST_MAX 1024
#define RUNNER_SKIP_STATUS 77 /* a test's exit status for "skipped" (automake's) */

/* The tests, as each registered itself (test_harness.c). */
struct runner_test {
    const char *name;
    test_fn fn;
    unsigned flags;
};
extern struct runner_test runner_tests[TEST_MAX];
extern int runner_ntests;
/* Runs test t in this process (the test's own) and exits with the number
 * of its failed checks (at most 250). */
void runner_test_run(int t) __attribute__((noreturn));

/* The clock ticks used so far by the processes of each process group
 * groups[0..n) (a group <= 0: none), with those of the children they reaped,
 * into ticks[0..n); false where there is no /proc to read (nothing then). */
bool runner_groups_cpu(const long *groups, int n, long long *ticks);

/* The deadline of a test that starts threads, in seconds of processor time
 * (SWIRL_TEST_DEADLINE, or TEST_THREADS_DEADLINE). */
double runner_threads_deadline(void);
/* The processor time process pid (every thread of it) has used so far, in
 * seconds: -1 when it cannot be read (gone, or no such clock). */
double runner_process_cpu(long pid);
/* Wall seconds before a process with cpu_left seconds of processor time left
 * could have used them (all the machine's cores at once), at least 10 ms. */
double runner_cpu_wait(double cpu_left);

/* The last run's times from path ("seconds name cpu-seconds" lines: the time
 * a test took, and the processor time it and the processes it waited for
 * used) into secs[] and cpu[] by the tests' names[0..n); a test not in the
 * file keeps what it had. path NULL: nothing. */
void runner_times_read(const char *path, const char *const *names, int n, double *secs,
                       double *cpu);
/* The times of the tests that ran (secs >= 0) into path, anew. */
void runner_times_write(const char *path, const char *const *names, int n, const double *secs,
                        const double *cpu);
/* order[0..n) (tests by their index) sorted by secs, slowest first. */
void runner_slowest_first(int *order, int n, const double *secs);
/* The five slowest of order[0..n) on one line (many = -1), or the many
 * slowest a line each with their kind and the CPU seconds they used (tests
 * not run, secs < 0, left out). */
void runner_print_slowest(const int *order, int n, const char *const *names,
                          const char *const *kinds, const double *secs, const double *cpu,
                          int many);

#endif
