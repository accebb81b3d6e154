/*
 * runner_times.c — the times a test run keeps for the next (build/test-times),
 * the order they give it (slowest first, so the run ends together on every
 * job) and the slowest tests it names at its end (runner.h).
 */
#include "runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void runner_times_read(const char *path, const char *const *names, int n, double *secs,
                       double *cpu)
{
    FILE *f = path ? fopen(path, "r") : NULL;
    char line[512], name[256];
    double t, c;
    while (f && fgets(line, sizeof line, f)) {
        int got = sscanf(line, "%lf %255s %lf", &t, name, &c);
        for (int i = 0; got >= 2 && i < n; i++)
            if (strcmp(names[i], name) == 0)
                secs[i] = t, cpu[i] = got == 3 ? c : -1;
    }
    if (f)
        fclose(f);
}

void runner_times_write(const char *path, const char *const *names, int n, const double *secs,
                        const double *cpu)
{
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return;
    for (int i = 0; i < n; i++)
        if (secs[i] >= 0)
            fprintf(f, "%.3f %s %.3f\n", secs[i], names[i], cpu[i]);
    if (fclose(f) == 0)
        rename(tmp, path);
}

static const double *by_secs;
static int slower_first(const void *a, const void *b)
{
    double x = by_secs[*(const int *)a], y = by_secs[*(const int *)b];
    return (x < y) - (x > y);
}

void runner_slowest_first(int *order, int n, const double *secs)
{
    by_secs = secs;
    qsort(order, (size_t)n, sizeof *order, slower_first);
}

void runner_print_slowest(const int *order, int n, const char *const *names,
                          const char *const *kinds, const double *secs, const double *cpu,
                          int many)
{
    int *sorted = malloc(((size_t)n + 1) * sizeof *sorted), ran = 0;
    if (!sorted)
        return;
    for (int k = 0; k < n; k++)
        if (secs[order[k]] >= 0)
            sorted[ran++] = order[k];
    runner_slowest_first(sorted, ran, secs);
    if (many < 0) {
        if (ran > 0)
            printf("slowest:");
        for (int k = 0; k < ran && k < 5; k++)
            printf(" %s %.1f s%s", names[sorted[k]], secs[sorted[k]],
                   k + 1 < ran && k + 1 < 5 ? "," : "\n");
    } else {
        if (many > 0 && ran > 0)
            printf("slowest %d (seconds, CPU seconds, kind):\n", many < ran ? many : ran);
        for (int k = 0; k < ran && k < many; k++)
            printf("  %6.2f %6.2f  %-5s  %s\n", secs[sorted[k]], cpu[sorted[k]],
                   kinds[sorted[k]], names[sorted[k]]);
    }
    free(sorted);
}
