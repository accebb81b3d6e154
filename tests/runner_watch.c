/*
 * runner_watch.c — what the test runner (test_main.c) reads of its tests from
 * outside: the processor time each running test's process group has used,
 * from Linux's /proc, so that a test whose every process sits blocked (a
 * thread pool's pass that never ends, a deadlock, a read that nothing will
 * answer) is told from one that is merely slow: the slow one keeps using the
 * processor, a loaded machine or not, and the blocked one uses none. And
 * the processor time a test has used, which its deadline is counted in.
 */
#include "runner.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* One process's stat line: its group and the clock ticks it and the children
 * it reaped used; false when it is gone or unreadable. */
static bool proc_ticks(const char *pid, long *pgrp, long long *ticks)
{
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%s/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0)
        return false;
    text[n] = 0;
    /* "pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt
     * majflt cmajflt utime stime cutime cstime ...": comm may hold anything,
     * so the fields are counted from its closing parenthesis. */
    const char *p = strrchr(text, ')');
    unsigned long long ut, st;
    long long cut, cst;
    if (!p || sscanf(p + 1, " %*c %*d %ld %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %lld %lld",
                     pgrp, &ut, &st, &cut, &cst) != 5)
        return false;
    *ticks = (long long)(ut + st) + cut + cst;
    return true;
}

bool runner_groups_cpu(const long *groups, int n, long long *ticks)
{
    for (int i = 0; i < n; i++)
        ticks[i] = 0;
    DIR *d = opendir("/proc");
    if (!d)
        return false;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        long pgrp;
        long long t;
        if (!isdigit((unsigned char)e->d_name[0]) || !proc_ticks(e->d_name, &pgrp, &t))
            continue;
        for (int i = 0; i < n; i++)
            if (groups[i] > 0 && groups[i] == pgrp)
                ticks[i] += t;
    }
    closedir(d);
    return true;
}

double runner_process_cpu(long pid)
{
    clockid_t clock;
    struct timespec t;
    if (clock_getcpuclockid((pid_t)pid, &clock) != 0 || clock_gettime(clock, &t) != 0)
        return -1.0;
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double runner_cpu_wait(double cpu_left)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    double wall = cpu_left / (double)(cores > 0 ? cores : 1);
    return wall > 0.01 ? wall : 0.01;
}

double runner_threads_deadline(void)
{
    const char *env = getenv("SWIRL_TEST_DEADLINE");
    double s = env ? atof(env) : 0.0;
    return s > 0.0 ? s : TEST_THREADS_DEADLINE;
}
