/*
 * runner_watch.h — the processor time of the test runner's running tests
 * (tests/runner_watch.c), by which it tells a hung test from a slow one.
 */
#ifndef SWIRL_RUNNER_WATCH_H
#define SWIRL_RUNNER_WATCH_H

#include <stdbool.h>

/* The clock ticks used so far by the processes of each process group
 * groups[0..n) (a group <= 0: none), with those of the children they reaped,
 * into ticks[0..n); false where there is no /proc to read (nothing then). */
bool runner_groups_cpu(const long *groups, int n, long long *ticks);

#endif
