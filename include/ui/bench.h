/*
 * bench.h — `make bench`: the figures the issues ask for, each a ratio or a rate
 * measured in one run on this machine.
 */
#ifndef SWIRL_BENCH_H
#define SWIRL_BENCH_H

/* Prints the figures; returns the exit status. */
int bench_run(void);

#endif
