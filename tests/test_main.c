/*
 * test_main.c — the runner of swirl's test harness (see test.h).
 *
 * Usage: swirl-test [--unit | --e2e] [--threads-only] [-j N] [--e2e-jobs N]
 *                   [--wait-jobs N] [--timeout S] [--quiet S] [--times FILE] [--slowest K]
 *                   [--fail-fast] [--list] [SUBSTRING...]
 *
 * --unit runs the unit tests only, --e2e the end-to-end ones only (TEST_E2E).
 * Each selected test runs in a child process of its own (a crash or a hang fails
 * that test alone), at most N at once (default: the online CPUs), each killed
 * after S seconds (default 120, or SWIRL_TEST_TIMEOUT). A child's output is held
 * and printed whole when it ends, with the test's time. The last line is
 * "N passed, N failed" (", N skipped" when a test said it could not run); exit
 * status is 0 only when nothing failed. With --times, the tests start slowest
 * first by the times FILE kept from the last run (so the run ends together on
 * every job), and FILE is written anew. With --fail-fast the first failure
 * ends the run: the tests still running are stopped (not counted) and no more
 * start, and the last line adds how many did not run (tests/mutants.sh wants
 * only whether something fails, and soon). XDG_CONFIG_HOME points nowhere, so
 * no user's config file reaches the ./swirl the tests run. A test that leaves
 * a tmux server's socket behind (e2e.h: e2e_stop() is each end-to-end test's
 * cleanup) fails for it, and the runner removes it, so a run leaves none.
 *
 * Each test's process has a keeper: the runner forks the keeper, which leads a
 * process group of its own, and the keeper forks the test and passes on how it
 * ended (its exit status, or the signal that killed it). The keeper asks the
 * kernel to be told when the runner dies (PR_SET_PDEATHSIG), however it dies
 * (a CI's time limit, Ctrl-C, SIGKILL): it then ends its group, the test and
 * all it started, and the tmux servers the test left, so no test outlives its
 * runner (a test hung in a spinning pool would keep a core busy for good).
 * A test that starts threads (TEST_THREADS) has a deadline of its own in
 * processor time, which a busy machine does not stretch (SWIRL_TEST_DEADLINE
 * seconds, default TEST_THREADS_DEADLINE, many times what any uses): its
 * keeper ends it there and says so, so a pool spinning in a pass that never
 * ends is reported in seconds, not at the runner's timeout. Any test whose
 * processes (its process group) use no processor time at all for S seconds
 * (--quiet S, default QUIET_SECONDS, or SWIRL_TEST_QUIET; a test with threads
 * its deadline if that is less) is hung, blocked for good (a pool asleep in a
 * pass that never ends, a deadlock, a read nothing answers): the runner ends
 * it then and names it, so a hang costs seconds, not the timeout, whatever
 * the load (a slow test on a loaded machine still uses the processor every
 * second). A test without threads that hangs busy is the timeout's.
 * A fixture (TEST_FIXTURE: a test of the runner itself, such as one that
 * hangs) runs only when its whole name is given.
 * The jobs are of three kinds, each with its own share: unit tests (-j N,
 * busy on the CPU, and so the end-to-end tests that are, TEST_E2E_CPU: headless
 * runs of ./swirl), end-to-end tests in tmux, screen or xterm (TEST_E2E:
 * mostly waiting for frames; --e2e-jobs N, default -j's) and those that
 * spend their time waiting on real time (TEST_E2E_WAITS: a link's delays;
 * --wait-jobs N, default -j's): -j 2 runs two of each at once, so the tests
 * that wait never hold back the unit tests. (Four link tests at once on a
 * loaded machine starve the swirls under them of the CPU, and their
 * latencies show it.) Within a kind the order is the times FILE's, slowest
 * first. --slowest K lists the K slowest tests of the run (default 5 on
 * one line; 0 none) with their kind and CPU seconds, and the "run:" line
 * before the last says when each kind's last test ended (which kind the
 * run waited for).
 */
#include "e2e.h"
#include "runner.h"
#include "test.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#define SKIP_STATUS RUNNER_SKIP_STATUS
#define DEADLINE_STATUS 254 /* ... for "ended by its own deadline" (checks stop at 250) */
#define KEEPER_SIGNAL SIGTERM /* what a keeper is sent when its runner dies */
/* Seconds a test may go without its processes using any processor time
 * before it is called hung (--quiet, SWIRL_TEST_QUIET): every test, however
 * slow or starved, uses some within a second; only a blocked one uses none. */
#define QUIET_SECONDS 30.0
/* Seconds between two looks at the tests' processor time, at most. */
#define WATCH_EVERY 1.0

/* The tests registered (test_harness.c), by the short names used here. */
#define tests runner_tests
#define ntests runner_ntests

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The kinds of job (kind()): their names, for --slowest and the last lines. */
enum { KIND_UNIT, KIND_E2E, KIND_WAITS, KINDS };
static const char *const kind_name[KINDS] = {"unit", "e2e", "waits"};

/* Which kind of job a test takes: a unit test, an end-to-end test, or one
 * that waits on real time. */
static int kind(int t)
{
    const unsigned f = tests[t].flags;
    return f & TEST_FLAG_WAITS                        ? KIND_WAITS
           : f & TEST_FLAG_E2E && !(f & TEST_FLAG_CPU) ? KIND_E2E
                                                       : KIND_UNIT;
}

struct opts {
    bool unit_only, e2e_only, threads_only, list, fail_fast;
    int jobs;
    int kind_jobs[KINDS]; /* how many of each kind at once (-1: -j's) */
    int slowest;          /* -1: the five slowest on one line */
    double timeout;
    double quiet; /* seconds a test may go using no processor time at all */
    const char *times;
    int nfilters;
    char **filters;
};

static bool selected(int i, const struct opts *o)
{
    if (tests[i].flags & TEST_FLAG_FIXTURE) {
        for (int f = 0; f < o->nfilters; f++)
            if (strcmp(tests[i].name, o->filters[f]) == 0)
                return true;
        return false;
    }
    if (o->unit_only && (tests[i].flags & TEST_FLAG_E2E))
        return false;
    if (o->e2e_only && !(tests[i].flags & TEST_FLAG_E2E))
        return false;
    if (o->threads_only && !(tests[i].flags & TEST_FLAG_THREADS))
        return false;
    if (o->nfilters == 0)
        return true;
    for (int f = 0; f < o->nfilters; f++)
        if (strstr(tests[i].name, o->filters[f]))
            return true;
    return false;
}

/* A running test: its child, the pipe its output comes on, what came so far. */
struct slot {
    int test;
    pid_t pid;
    int fd;
    double t0;
    bool killed;
    bool stopped;        /* killed by --fail-fast: not reported */
    int left;            /* tmux sockets it left behind (e2e_reap) */
    long long ticks;     /* processor time its group has used (runner_watch.h) */
    double busy_at;      /* when that last grew */
    bool hung;           /* ended for using none for o.quiet seconds */
    char *out;
    size_t len, cap;
};

static void slot_read(struct slot *s)
{
    char buf[4096];
    ssize_t n;
    while ((n = read(s->fd, buf, sizeof buf)) > 0) {
        if (s->len + (size_t)n + 1 > s->cap) {
            s->cap = (s->len + (size_t)n + 1) * 2;
            s->out = realloc(s->out, s->cap);
            if (!s->out) {
                perror("test harness");
                exit(2);
            }
        }
        memcpy(s->out + s->len, buf, (size_t)n);
        s->len += (size_t)n;
    }
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
        close(s->fd);
        s->fd = -1;
    }
}

/* The test itself, in the keeper's child. */
static void run_test(int t) __attribute__((noreturn));
static void run_test(int t)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* What a shell ignores in a job it runs in the background, each test has
     * as any program started in a terminal does (SIGPIPE stays ignored: the
     * tests write to pipes that close). */
    signal(SIGINT, SIG_DFL);
    signal(SIGQUIT, SIG_DFL);
    /* A unit test (and an end-to-end test busy on the CPU, TEST_E2E_CPU)
     * gives way a little (TEST_UNIT_NICE) to the swirls the end-to-end tests
     * beside it drive, whose answers a person would wait for (none of its
     * checks looks at a clock): nicer, and so its session, whose share of
     * the CPU Linux weighs against the other sessions' (autogroups) by its
     * own nice. */
    if (kind(t) == KIND_UNIT) {
        if (nice(TEST_UNIT_NICE) == -1) {
        }
        FILE *g = fopen("/proc/self/autogroup", "w");
        if (g) {
            fprintf(g, "%d", TEST_UNIT_NICE);
            fclose(g);
        }
    }
    runner_test_run(t);
}

static void on_signal(int sig) { (void)sig; }

/* A test that starts threads, past its deadline: ended, and said so. */
static void deadline_passed(int t, pid_t pid) __attribute__((noreturn));
static void deadline_passed(int t, pid_t pid)
{
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    printf("  FAIL %s: not done within its deadline of %.1f s of processor time (a thread "
           "pool's pass that never ends?)\n", tests[t].name, runner_threads_deadline());
    fflush(stdout);
    _exit(DEADLINE_STATUS);
}

/* The keeper of test t (see the top): forks the test, waits for it or for
 * word that the runner is gone, and ends as the test did. */
static void keep(int t, pid_t runner) __attribute__((noreturn));
static void keep(int t, pid_t runner)
{
    sigset_t wake, old;
    sigemptyset(&wake);
    sigaddset(&wake, SIGCHLD);
    sigaddset(&wake, KEEPER_SIGNAL);
    sigprocmask(SIG_BLOCK, &wake, &old);
    struct sigaction sa = {.sa_handler = on_signal};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGCHLD, &sa, NULL); /* pending while blocked, for sigwaitinfo */
    sigaction(KEEPER_SIGNAL, &sa, NULL);
#ifdef PR_SET_PDEATHSIG
    prctl(PR_SET_PDEATHSIG, KEEPER_SIGNAL);
#endif
    bool orphan = getppid() != runner; /* the runner died before the request */
    pid_t pid = orphan ? -1 : fork();
    if (pid == 0) {
        signal(SIGCHLD, SIG_DFL);
        signal(KEEPER_SIGNAL, SIG_DFL);
        sigprocmask(SIG_SETMASK, &old, NULL);
        run_test(t);
    }
    int status = 0;
    const double deadline = tests[t].flags & TEST_FLAG_THREADS ? runner_threads_deadline() : 0.0;
    while (pid > 0 && !orphan) {
        /* The deadline is the test's processor time: looked at again when
         * the test, on every core, could have used what it has left. */
        const double used = deadline > 0.0 ? runner_process_cpu(pid) : 0.0;
        if (deadline > 0.0 && used >= deadline)
            deadline_passed(t, pid);
        const double left = runner_cpu_wait(deadline - (used > 0.0 ? used : 0.0));
        const struct timespec wait = {(time_t)left, (long)((left - (double)(time_t)left) * 1e9)};
        int sig = deadline > 0.0 ? sigtimedwait(&wake, NULL, &wait) : sigwaitinfo(&wake, NULL);
        if (sig == KEEPER_SIGNAL)
            orphan = true;
        else if (sig == SIGCHLD && waitpid(pid, &status, WNOHANG) == pid)
            break;
    }
    if (pid < 0 && !orphan)
        printf("  FAIL %s: cannot fork the test: %s\n", tests[t].name, strerror(errno));
    if (orphan || pid < 0) {
        /* The test first (it starts nothing more), the tmux servers it left,
         * then everything else in the group, the keeper last of all. */
        if (pid > 0)
            kill(pid, SIGKILL);
        e2e_reap(getpgrp());
        kill(0, SIGKILL);
        _exit(2);
    }
    if (WIFSIGNALED(status)) { /* the same signal, without a core of the keeper's */
        int sig = WTERMSIG(status);
#ifdef PR_SET_DUMPABLE
        prctl(PR_SET_DUMPABLE, 0);
#endif
        struct rlimit none = {0, 0};
        setrlimit(RLIMIT_CORE, &none);
        signal(sig, SIG_DFL);
        sigset_t just;
        sigemptyset(&just);
        sigaddset(&just, sig);
        sigprocmask(SIG_UNBLOCK, &just, NULL);
        raise(sig);
        _exit(128 + sig);
    }
    _exit(WEXITSTATUS(status));
}

static bool slot_start(struct slot *s, int t)
{
    int p[2];
    if (pipe(p) != 0)
        return false;
    fflush(stdout);
    pid_t runner = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return false;
    }
    if (pid == 0) {
        /* The keeper: a session and process group of its own (a timeout
         * kills what the test started too; the scheduler weighs it as a
         * group of its own, see run_test), output into the pipe, no input. */
        setsid();
        close(p[0]);
        dup2(p[1], STDOUT_FILENO);
        dup2(p[1], STDERR_FILENO);
        close(p[1]);
        if (!freopen("/dev/null", "r", stdin))
            _exit(3);
        keep(t, runner);
    }
    close(p[1]);
    fcntl(p[0], F_SETFL, O_NONBLOCK);
    *s = (struct slot){.test = t, .pid = pid, .fd = p[0], .t0 = now(), .out = s->out,
                       .cap = s->cap};
    s->busy_at = s->t0;
    return true;
}

/* Ends a running test's group; the keeper alone when it has not made it yet
 * (never once the keeper is reaped: its pid may be another's by then). */
static void kill_group(pid_t keeper)
{
    if (kill(-keeper, SIGKILL) != 0)
        kill(keeper, SIGKILL);
}

/* The seconds test t may use no processor time before it is hung: a test
 * with threads at most its deadline (a pool asleep told as soon as spinning). */
static double quiet_for(int t, const struct opts *o)
{
    const double d = runner_threads_deadline();
    return tests[t].flags & TEST_FLAG_THREADS && d < o->quiet ? d : o->quiet;
}

/* Every running test's processor time, read now: a test whose processes
 * have used none for its quiet seconds is hung (blocked for good), ended
 * and said so, long before its timeout. */
static void watch_quiet(struct slot *slots, int nslots, const struct opts *o)
{
    long groups[nslots];
    long long ticks[nslots];
    for (int j = 0; j < nslots; j++)
        groups[j] = slots[j].pid && !slots[j].killed ? (long)slots[j].pid : 0;
    if (!runner_groups_cpu(groups, nslots, ticks))
        return;
    const double t = now();
    for (int j = 0; j < nslots; j++) {
        struct slot *s = &slots[j];
        if (!groups[j])
            continue;
        if (ticks[j] != s->ticks) {
            s->ticks = ticks[j];
            s->busy_at = t;
        }
        if (t - s->busy_at >= quiet_for(s->test, o)) {
            kill_group(s->pid);
            s->killed = s->hung = true;
        }
    }
}

enum outcome { PASSED, FAILED, SKIPPED };

/* Prints the result of a finished test and says what it was. */
static enum outcome slot_report(struct slot *s, int status, const struct opts *o)
{
    double dt = now() - s->t0;
    const char *name = tests[s->test].name;
    enum outcome r;
    char why[96] = "";

    if (s->hung) {
        r = FAILED;
        snprintf(why, sizeof why, "hung: no processor time used for %.3g s",
                 quiet_for(s->test, o));
    } else if (s->killed) {
        r = FAILED;
        snprintf(why, sizeof why, "timed out after %.0f s", o->timeout);
    } else if (WIFSIGNALED(status)) {
        r = FAILED;
        snprintf(why, sizeof why, "killed by signal %d (%s)", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    } else if (WEXITSTATUS(status) == SKIP_STATUS) {
        r = SKIPPED;
    } else if (WEXITSTATUS(status) == DEADLINE_STATUS) {
        r = FAILED;
        snprintf(why, sizeof why, "ended by its deadline of %.3g s of processor time",
                 runner_threads_deadline());
    } else if (WEXITSTATUS(status) != 0) {
        r = FAILED;
        snprintf(why, sizeof why, "%d check%s", WEXITSTATUS(status),
                 WEXITSTATUS(status) == 1 ? "" : "s");
    } else {
        r = PASSED;
    }
    if (r == PASSED && s->left) {
        r = FAILED;
        snprintf(why, sizeof why, "left %d tmux socket%s behind: e2e_stop() in its cleanup",
                 s->left, s->left == 1 ? "" : "s");
    }
    printf("%s %-40s %6.2f s%s%s%s\n", r == PASSED ? "ok  " : r == SKIPPED ? "skip" : "FAIL",
           name, dt, *why ? " (" : "", why, *why ? ")" : "");
    /* A passing test's chatter is kept quiet; a failing or skipped one's is shown. */
    if (r != PASSED && s->len)
        fwrite(s->out, 1, s->len, stdout);
    s->len = 0;
    return r;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    const char *env_to = getenv("SWIRL_TEST_TIMEOUT");
    const char *env_quiet = getenv("SWIRL_TEST_QUIET");
    *o = (struct opts){.jobs = cpus > 0 ? (int)cpus : 1, .timeout = 120, .slowest = -1,
                       .quiet = QUIET_SECONDS, .kind_jobs = {-1, -1, -1}};
    if (env_to && atof(env_to) > 0)
        o->timeout = atof(env_to);
    if (env_quiet && atof(env_quiet) > 0)
        o->quiet = atof(env_quiet);
    o->filters = calloc((size_t)argc, sizeof *o->filters);
    for (int a = 1; a < argc; a++) {
        const char *s = argv[a];
        if (strcmp(s, "--unit") == 0)
            o->unit_only = true;
        else if (strcmp(s, "--e2e") == 0)
            o->e2e_only = true;
        else if (strcmp(s, "--threads-only") == 0)
            o->threads_only = true;
        else if (strcmp(s, "--list") == 0)
            o->list = true;
        else if (strcmp(s, "--fail-fast") == 0)
            o->fail_fast = true;
        else if (strcmp(s, "-j") == 0 && a + 1 < argc)
            o->jobs = atoi(argv[++a]);
        else if (strncmp(s, "-j", 2) == 0 && s[2])
            o->jobs = atoi(s + 2);
        else if (strcmp(s, "--e2e-jobs") == 0 && a + 1 < argc)
            o->kind_jobs[KIND_E2E] = atoi(argv[++a]);
        else if (strcmp(s, "--wait-jobs") == 0 && a + 1 < argc)
            o->kind_jobs[KIND_WAITS] = atoi(argv[++a]);
        else if (strcmp(s, "--slowest") == 0 && a + 1 < argc)
            o->slowest = atoi(argv[++a]);
        else if (strcmp(s, "--timeout") == 0 && a + 1 < argc)
            o->timeout = atof(argv[++a]);
        else if (strcmp(s, "--quiet") == 0 && a + 1 < argc)
            o->quiet = atof(argv[++a]);
        else if (strcmp(s, "--times") == 0 && a + 1 < argc)
            o->times = argv[++a];
        else if (s[0] == '-') {
            fprintf(stderr, "usage: swirl-test [--unit | --e2e] [--threads-only] [-j N] "
                            "[--e2e-jobs N] [--wait-jobs N] [--timeout S] [--quiet S] [--times FILE] "
                            "[--slowest K] [--fail-fast] [--list] [SUBSTRING...]\n");
            return 2;
        } else
            o->filters[o->nfilters++] = argv[a];
    }
    o->kind_jobs[KIND_UNIT] = o->jobs;
    for (int k = 0; k < KINDS; k++)
        if (o->kind_jobs[k] < 0)
            o->kind_jobs[k] = o->jobs;
    if (o->jobs < 1 || o->kind_jobs[KIND_E2E] < 1 || o->kind_jobs[KIND_WAITS] < 1 ||
        o->timeout <= 0 || o->quiet <= 0 || o->slowest < -1) {
        fprintf(stderr, "swirl-test: -j, --e2e-jobs and --wait-jobs want at least 1, "
                        "--timeout and --quiet more than 0, --slowest 0 or more\n");
        return 2;
    }
    return 0;
}

/* The names of the tests and of their kinds, for runner_times.c. */
static const char *names[TEST_MAX], *kinds[TEST_MAX];

/* A run of the selected tests: the jobs, what each kind has running and has
 * left, and the results. */
struct run {
    const struct opts *o;
    int order[TEST_MAX], n;
    double secs[TEST_MAX], cpu[TEST_MAX], t_start, watched;
    struct slot *slots;
    struct pollfd *pfd;
    int nslots;
    bool started[TEST_MAX];
    int unstarted, running, used[KINDS], of_kind[KINDS], count[3], not_run;
    double kind_done[KINDS]; /* when the last test of each kind ended */
    bool stopping;
};

/* The selected tests, slowest first by the last run's times (a test the
 * times lack first of all, as it may be slow, in the order of registration). */
static void run_order(struct run *r)
{
    double last[TEST_MAX];
    r->n = 0;
    for (int i = 0; i < ntests; i++) {
        names[i] = tests[i].name, kinds[i] = kind_name[kind(i)];
        last[i] = r->secs[i] = r->cpu[i] = -1;
        if (selected(i, r->o))
            r->order[r->n++] = i;
    }
    runner_times_read(r->o->times, names, ntests, last, r->cpu);
    if (r->o->times) {
        for (int i = 0; i < ntests; i++)
            r->secs[i] = last[i] < 0 ? 1e9 : last[i];
        runner_slowest_first(r->order, r->n, r->secs);
        for (int i = 0; i < ntests; i++)
            r->secs[i] = last[i];
    }
}

/* The next tests into the free jobs: for each, the first in the order for
 * whose kind a job is free (o.kind_jobs[] of each kind). */
static int run_start(struct run *r)
{
    for (int k = 0, j = 0; k < r->n && r->unstarted > 0 && !r->stopping; k++) {
        const int t = r->order[k];
        if (r->started[k] || r->used[kind(t)] == r->o->kind_jobs[kind(t)])
            continue;
        while (r->slots[j].pid)
            j++;
        if (!slot_start(&r->slots[j], t)) {
            perror("test harness: fork");
            return -1;
        }
        r->started[k] = true;
        r->unstarted--, r->running++, r->used[kind(t)]++;
    }
    return 0;
}

/* The first failure with --fail-fast: what runs is stopped, nothing starts. */
static void run_stop(struct run *r)
{
    r->stopping = true;
    r->not_run = r->unstarted;
    for (int j = 0; j < r->nslots; j++)
        if (r->slots[j].pid) {
            kill_group(r->slots[j].pid);
            r->slots[j].stopped = true;
        }
}

/* A test that ended (its keeper reaped with status and ru): what it left is
 * ended, it is reported, and its job is free. */
static void run_ended(struct run *r, struct slot *s, int status, const struct rusage *ru)
{
    /* What is in the pipe now is all there is: a grandchild that kept it
     * open must not hold up the run. */
    if (s->fd >= 0)
        slot_read(s);
    if (s->fd >= 0) {
        close(s->fd);
        s->fd = -1;
    }
    /* What the test started in its group (a swirl, a shell) goes with it,
     * and so do the tmux servers it left (they are groups of their own). */
    kill(-s->pid, SIGKILL); /* (the keeper itself is gone: reaped) */
    s->left = e2e_reap(s->pid);
    r->secs[s->test] = now() - s->t0;
    r->cpu[s->test] = (double)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) +
                      1e-6 * (double)(ru->ru_utime.tv_usec + ru->ru_stime.tv_usec);
    if (s->stopped) {
        r->not_run++;
        s->len = 0;
    } else {
        r->count[slot_report(s, status, r->o)]++;
    }
    s->pid = 0;
    r->running--, r->used[kind(s->test)]--;
    r->kind_done[kind(s->test)] = now() - r->t_start;
}

/* What came from the running tests within a poll's time, and those that
 * ended or ran out of time. */
static void run_poll(struct run *r)
{
    int np = 0;
    for (int j = 0; j < r->nslots; j++)
        if (r->slots[j].pid && r->slots[j].fd >= 0)
            r->pfd[np++] = (struct pollfd){.fd = r->slots[j].fd, .events = POLLIN};
    poll(r->pfd, (nfds_t)np, 20);
    for (int j = 0; j < r->nslots; j++) {
        struct slot *s = &r->slots[j];
        if (!s->pid)
            continue;
        for (int q = 0; q < np && s->fd >= 0; q++)
            if (r->pfd[q].fd == s->fd && r->pfd[q].revents)
                slot_read(s);
        int status;
        struct rusage ru;
        if (wait4(s->pid, &status, WNOHANG, &ru) != 0)
            run_ended(r, s, status, &ru);
        else if (!s->killed && now() - s->t0 > r->o->timeout) {
            kill_group(s->pid);
            s->killed = true;
        }
    }
}

/* Every selected test, each kind on its own jobs, until all have ended. */
static int run_all(struct run *r)
{
    const struct opts *o = r->o;
    r->nslots = o->kind_jobs[KIND_UNIT] + o->kind_jobs[KIND_E2E] + o->kind_jobs[KIND_WAITS];
    r->slots = calloc((size_t)r->nslots, sizeof *r->slots);
    r->pfd = calloc((size_t)r->nslots, sizeof *r->pfd);
    r->unstarted = r->n;
    for (int k = 0; k < r->n; k++)
        r->of_kind[kind(r->order[k])]++;
    r->t_start = r->watched = now();
    const double every = o->quiet < 2 * WATCH_EVERY ? o->quiet / 2 : WATCH_EVERY;
    while ((r->unstarted > 0 && !r->stopping) || r->running > 0) {
        if (now() - r->watched >= every) {
            watch_quiet(r->slots, r->nslots, o);
            r->watched = now();
        }
        if (o->fail_fast && r->count[FAILED] && !r->stopping)
            run_stop(r);
        if (run_start(r) != 0)
            return 2;
        run_poll(r);
    }
    return 0;
}

/* The last lines: the slowest tests, when each kind ended, and the counts. */
static int run_summary(struct run *r)
{
    const struct opts *o = r->o;
    runner_print_slowest(r->order, r->n, names, kinds, r->secs, r->cpu, o->slowest);
    if (o->times)
        runner_times_write(o->times, names, ntests, r->secs, r->cpu);
    printf("run: %.1f s on %d job%s (%d e2e, %d waiting)", now() - r->t_start, o->jobs,
           o->jobs == 1 ? "" : "s", o->kind_jobs[KIND_E2E], o->kind_jobs[KIND_WAITS]);
    for (int k = 0, first = 1; k < KINDS; k++)
        if (r->of_kind[k]) {
            printf("%s%s done at %.1f s", first ? "; " : ", ", kind_name[k], r->kind_done[k]);
            first = 0;
        }
    putchar('\n');
    printf("%d passed, %d failed", r->count[PASSED], r->count[FAILED]);
    if (r->count[SKIPPED])
        printf(", %d skipped", r->count[SKIPPED]);
    if (r->not_run)
        printf(", %d not run (--fail-fast)", r->not_run);
    putchar('\n');
    return r->count[FAILED] ? 1 : 0;
}

int main(int argc, char **argv)
{
    static struct run r;
    struct opts o;
    int rc = parse_opts(argc, argv, &o);
    if (rc)
        return rc;
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* No signal blocked, as a shell starts a program: what started the run
     * may have blocked some (perf record blocks SIGWINCH), and the tests of
     * resizes and of the pool's signal masks would read its mask, not swirl's. */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_IGN);
    /* Every ./swirl a test starts reads no config file of the user's (one that
     * tests config files names its own). */
    setenv("XDG_CONFIG_HOME", "/nonexistent/swirl-test-config", 1);
    /* This run's mark in the names of the tmux servers its tests start
     * (e2e.h), which no other run's sockets carry. */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    char run_id[40];
    snprintf(run_id, sizeof run_id, "%lx%lx", (unsigned long)getpid(),
             (unsigned long)ts.tv_sec * 1000000000ul + (unsigned long)ts.tv_nsec);
    setenv(E2E_RUN_ENV, run_id, 1);

    r.o = &o;
    run_order(&r);
    if (o.list) {
        for (int k = 0; k < r.n; k++)
            printf("%s%s\n", tests[r.order[k]].name,
                   tests[r.order[k]].flags & TEST_FLAG_E2E ? " (e2e)" : "");
    } else {
        rc = run_all(&r);
        rc = rc ? rc : run_summary(&r);
    }
    for (int j = 0; j < r.nslots; j++)
        free(r.slots[j].out);
    free(r.slots);
    free(r.pfd);
    free(o.filters);
    return rc;
}
