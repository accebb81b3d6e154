/*
 * test_runner.c — the test runner itself (tests/test_main.c), run as a program
 * of its own (/proc/self/exe) on fixtures that hang: a runner killed in any way
 * takes its tests with it, and what they started; a test that starts threads
 * and hangs is ended by its own deadline and reported as such, and one that
 * blocks for good (using no processor time) by the runner's watch; fixtures run
 * only when named in full; unit tests, end-to-end tests and tests that wait
 * run side by side, as many of each kind at once as there are jobs.
 *
 * The fixtures say what they are through files in SWIRL_TEST_FIXTURE_DIR:
 * "pids", the hung test's process and the one it started, once both run.
 */
#include "fixtures.h"
#include "test.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FIXTURE_DIR_ENV "SWIRL_TEST_FIXTURE_DIR"
#define WAIT_SECONDS 30.0 /* generous, for a loaded machine: only a failure waits this long */

static double mono_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A test that hangs, spinning as a broken pool does, and a process it started
 * that sleeps for good. Their pids go to the fixture folder's "pids". */
static void hang(void)
{
    const char *dir = getenv(FIXTURE_DIR_ENV);
    pid_t kid = fork();
    if (kid == 0) {
        for (;;)
            pause();
    }
    char path[512], tmp[520];
    snprintf(path, sizeof path, "%s/pids", dir ? dir : "/nonexistent");
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (f) {
        fprintf(f, "%ld %ld\n", (long)getpid(), (long)kid);
        if (fclose(f) == 0)
            rename(tmp, path);
    }
    for (volatile unsigned long spin = 0;; spin++)
        ;
}

TEST_FIXTURE(runner_fixture_hangs, 0u) { hang(); }

/* A test blocked for good without a thread of its own (as one whose pool's
 * pass never ends waits for it): it reads a pipe nothing will write to. */
TEST_FIXTURE(runner_fixture_blocks, 0u)
{
    int p[2];
    char c;
    if (pipe(p) == 0)
        CHECK(read(p[0], &c, 1) == 1);
}

/* A test that keeps the processor busy for half a second of its own time
 * (as long as the quiet seconds the test below gives), as a slow test does,
 * however long that takes on a loaded machine. */
TEST_FIXTURE(runner_fixture_busy, 0u)
{
    struct timespec t;
    volatile unsigned long spin = 0;
    do {
        for (int k = 0; k < 100000; k++)
            spin++;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    } while (t.tv_sec < 1 && t.tv_nsec < 500000000);
}
/* ... the same as a test that starts threads: its deadline ends it. */
TEST_FIXTURE(runner_fixture_threads_hang, TEST_FLAG_THREADS) { hang(); }
/* A test with threads that a busy machine starves: for a second and a half
 * or more it gets a little of a core (5 ms of processor time, then a rest of
 * 45 ms, 30 times): 0.15 s in all, some of it every second. */
TEST_FIXTURE(runner_fixture_threads_starved, TEST_FLAG_THREADS)
{
    const struct timespec rest = {0, 45000000};
    for (int k = 0; k < 30; k++) {
        struct timespec t0, t;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
        do
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 5000000L);
        nanosleep(&rest, NULL);
    }
}
/* ... and one asleep for good (its pool's pass never ends). */
TEST_FIXTURE(runner_fixture_threads_blocked, TEST_FLAG_THREADS)
{
    int p[2];
    char c;
    if (pipe(p) == 0)
        CHECK(read(p[0], &c, 1) == 1);
}

/* A test of a kind ("cpu", "e2e" or "waits") that says what ran beside it:
 * until one of each other kind is seen running (for seconds at most: only a
 * failure waits that long), it counts those of its own kind running with
 * it; then it stays a moment, so that those see it too, and writes
 * "most-of-its-kind saw-both-others" to a file of results. */
static void overlap(const char *mine)
{
    static const char *const kinds[] = {"cpu", "e2e", "waits"};
    const char *dir = getenv(FIXTURE_DIR_ENV);
    char me[256], res[256];
    snprintf(me, sizeof me, "%s/run-%s-%ld", dir ? dir : "/nonexistent", mine, (long)getpid());
    snprintf(res, sizeof res, "%s/res-%s-%ld", dir ? dir : "/nonexistent", mine, (long)getpid());
    FILE *f = fopen(me, "w");
    if (f)
        fclose(f);
    char pre[3][32];
    for (int k = 0; k < 3; k++)
        snprintf(pre[k], sizeof pre[k], "run-%s-", kinds[k]);
    int most = 0;
    bool saw[3] = {false, false, false}, both = false;
    for (double t0 = mono_now(); !both && mono_now() - t0 < 3.0; fx_nap(0.01)) {
        int same = 0;
        DIR *d = dir ? opendir(dir) : NULL;
        for (struct dirent *e; d && (e = readdir(d)) != NULL;)
            for (int k = 0; k < 3; k++)
                if (strncmp(e->d_name, pre[k], strlen(pre[k])) == 0) {
                    if (strcmp(kinds[k], mine) == 0)
                        same++;
                    else
                        saw[k] = true;
                }
        if (d)
            closedir(d);
        most = same > most ? same : most;
        both = true;
        for (int k = 0; k < 3; k++)
            both &= saw[k] || strcmp(kinds[k], mine) == 0;
    }
    fx_nap(0.3);
    remove(me);
    f = fopen(res, "w");
    if (f) {
        fprintf(f, "%d %d\n", most, both);
        fclose(f);
    }
}

TEST_FIXTURE(runner_fixture_cpu_a, 0u) { overlap("cpu"); }
TEST_FIXTURE(runner_fixture_cpu_b, 0u) { overlap("cpu"); }
TEST_FIXTURE(runner_fixture_e2e_a, TEST_FLAG_E2E) { overlap("e2e"); }
TEST_FIXTURE(runner_fixture_e2e_b, TEST_FLAG_E2E) { overlap("e2e"); }
TEST_FIXTURE(runner_fixture_waits_a, TEST_FLAG_E2E | TEST_FLAG_WAITS) { overlap("waits"); }
TEST_FIXTURE(runner_fixture_waits_b, TEST_FLAG_E2E | TEST_FLAG_WAITS) { overlap("waits"); }

/* Is process pid gone (or a zombie that nothing waits for)? */
static bool gone(long pid)
{
    if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
        return true;
    char path[64], stat[256] = "";
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return true;
    size_t n = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[n] = 0;
    const char *end = strrchr(stat, ')'); /* "pid (name) S ..." */
    return end && end[1] == ' ' && (end[2] == 'Z' || end[2] == 'X');
}

struct runner {
    char dir[64];
    pid_t pid;
    int out; /* the runner's output, read end */
};

/* Starts this binary as a runner of tests (names separated by spaces, six
 * at most), -j 1, with the environment given ("NAME=value", or NULL) and the
 * fixture folder made for it. */
static bool runner_start(struct runner *r, const char *test, const char *env)
{
    char names[256], *argv[12] = {"swirl-test", "-j", "1", "--timeout", "600"};
    int argc = 5;
    snprintf(names, sizeof names, "%s", test);
    for (char *w = strtok(names, " "); w && argc < 11; w = strtok(NULL, " "))
        argv[argc++] = w;
    argv[argc] = NULL;
    snprintf(r->dir, sizeof r->dir, "/tmp/swirl-runner-XXXXXX");
    int p[2];
    if (!mkdtemp(r->dir) || pipe(p) != 0)
        return false;
    fflush(stdout);
    r->pid = fork();
    if (r->pid == 0) {
        /* Whatever a shell running us in the background ignores, the runner
         * takes as a runner started anywhere would. */
        signal(SIGINT, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        setenv(FIXTURE_DIR_ENV, r->dir, 1);
        if (env)
            putenv((char *)env);
        dup2(p[1], STDOUT_FILENO);
        dup2(p[1], STDERR_FILENO);
        close(p[0]);
        close(p[1]);
        execv("/proc/self/exe", argv);
        _exit(127);
    }
    close(p[1]);
    r->out = p[0];
    return r->pid > 0;
}

/* The runner's output until it ends (a static buffer), and its status; or
 * NULL when it has not ended within WAIT_SECONDS (it is killed then). */
static const char *runner_wait(struct runner *r, int *status)
{
    static char text[1 << 16];
    size_t len = 0;
    fcntl(r->out, F_SETFL, O_NONBLOCK);
    double t0 = mono_now();
    for (;;) {
        ssize_t n;
        while (len + 1 < sizeof text && (n = read(r->out, text + len, sizeof text - 1 - len)) > 0)
            len += (size_t)n;
        if (waitpid(r->pid, status, WNOHANG) == r->pid)
            break;
        if (mono_now() - t0 > WAIT_SECONDS) {
            kill(r->pid, SIGKILL);
            waitpid(r->pid, status, 0);
            return NULL;
        }
        fx_nap(0.01);
    }
    ssize_t n;
    while (len + 1 < sizeof text && (n = read(r->out, text + len, sizeof text - 1 - len)) > 0)
        len += (size_t)n;
    text[len] = 0;
    return text;
}

/* The hung test's pids, once it has written them (false: not in time). */
static bool hung_pids(const struct runner *r, long pids[2])
{
    char path[96];
    snprintf(path, sizeof path, "%s/pids", r->dir);
    for (double t0 = mono_now(); mono_now() - t0 < WAIT_SECONDS; fx_nap(0.01)) {
        FILE *f = fopen(path, "r");
        bool ok = f && fscanf(f, "%ld %ld", &pids[0], &pids[1]) == 2;
        if (f)
            fclose(f);
        if (ok)
            return true;
    }
    return false;
}

static void runner_clean(struct runner *r)
{
    char path[512];
    close(r->out);
    DIR *d = opendir(r->dir);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.') {
            snprintf(path, sizeof path, "%s/%s", r->dir, e->d_name);
            remove(path);
        }
    if (d)
        closedir(d);
    rmdir(r->dir);
}

TEST(runner_killed_takes_its_tests_with_it)
{
    /* However the runner ends (SIGKILL cannot be caught; the others are
     * what a CI's time limit and Ctrl-C send), the hung test and what it
     * started end too. */
    static const int sigs[] = {SIGKILL, SIGTERM, SIGINT, SIGHUP};
    for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
        struct runner r;
        long pids[2] = {0, 0};
        if (!runner_start(&r, "runner_fixture_hangs", NULL)) {
            CHECK_MSG(false, "cannot start a runner");
            return;
        }
        bool hung = hung_pids(&r, pids);
        CHECK_MSG(hung, "%s: the fixture never said it hangs", strsignal(sigs[k]));
        kill(r.pid, sigs[k]);
        int status;
        waitpid(r.pid, &status, 0);
        CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == sigs[k], "%s: the runner ended "
                  "otherwise (status %#x)", strsignal(sigs[k]), (unsigned)status);
        bool both = false;
        for (double t0 = mono_now(); hung && !both && mono_now() - t0 < WAIT_SECONDS;
             fx_nap(0.01))
            both = gone(pids[0]) && gone(pids[1]);
        CHECK_MSG(!hung || both, "%s: the runner is gone, its test (%s) and what that started "
                  "(%s) are not", strsignal(sigs[k]), gone(pids[0]) ? "gone" : "still running",
                  gone(pids[1]) ? "gone" : "still running");
        for (int i = 0; i < 2; i++) /* what a failure left */
            if (pids[i] > 0 && !gone(pids[i]))
                kill((pid_t)pids[i], SIGKILL);
        runner_clean(&r);
        if (!hung || !both)
            break; /* the next signal would say no more */
    }
}

TEST(runner_a_hung_test_with_threads_ends_at_its_deadline)
{
    /* The runner's timeout is ten minutes; the deadline (made short here)
     * ends the test long before, and both the test and the runner say so.
     * It is the test's processor time: one kept waiting past it by a busy
     * machine passes. One asleep for good is named hung as soon (the
     * runner's quiet seconds are 30). */
    struct runner r;
    if (!runner_start(&r,
                      "runner_fixture_threads_hang runner_fixture_threads_starved "
                      "runner_fixture_threads_blocked",
                      "SWIRL_TEST_DEADLINE=0.5")) {
        CHECK_MSG(false, "cannot start a runner");
        return;
    }
    int status = 0;
    const char *out = runner_wait(&r, &status);
    CHECK_MSG(out != NULL, "the runner did not end: no deadline for a test with threads");
    if (out) {
        CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 1, "status %#x:\n%s",
                  (unsigned)status, out);
        CHECK_MSG(strstr(out, "FAIL runner_fixture_threads_hang") &&
                      strstr(out, "deadline of 0.5 s of processor time") &&
                      strstr(out, "ok   runner_fixture_threads_starved") &&
                      strstr(out, "hung: no processor time used for 0.5 s") &&
                      strstr(out, "1 passed, 2 failed"),
                  "%s", out);
    }
    long pids[2];
    if (hung_pids(&r, pids)) /* the one it started goes with its group */
        for (int i = 0; i < 2; i++)
            if (!gone(pids[i]))
                kill((pid_t)pids[i], SIGKILL);
    runner_clean(&r);
}

TEST(runner_a_blocked_test_is_named_hung_soon)
{
    /* The runner's timeout is ten minutes, and the blocked test has no
     * deadline of its own (it starts no threads): it is ended once it has
     * used no processor time for the quiet seconds (made short here), and
     * named; a busy test as long as that is not. */
    struct runner r;
    if (!runner_start(&r, "runner_fixture_blocks runner_fixture_busy",
                      "SWIRL_TEST_QUIET=0.5")) {
        CHECK_MSG(false, "cannot start a runner");
        return;
    }
    int status = 0;
    const char *out = runner_wait(&r, &status);
    CHECK_MSG(out != NULL, "the runner did not end: a blocked test waits for its timeout");
    if (out) {
        CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 1, "status %#x:\n%s",
                  (unsigned)status, out);
        CHECK_MSG(strstr(out, "FAIL runner_fixture_blocks") &&
                      strstr(out, "(hung: no processor time used for 0.5 s)") &&
                      strstr(out, "ok   runner_fixture_busy") &&
                      strstr(out, "1 passed, 1 failed"), "%s", out);
    }
    runner_clean(&r);
}

TEST(runner_fixtures_run_only_when_named)
{
    /* A run of everything, or of a part of the name, leaves them out. */
    static const char *const args[][2] = {{"--list", NULL}, {"--list", "runner_fixture"}};
    for (int k = 0; k < 2; k++) {
        struct runner r;
        snprintf(r.dir, sizeof r.dir, "-");
        int p[2];
        CHECK(pipe(p) == 0);
        fflush(stdout);
        r.pid = fork();
        if (r.pid == 0) {
            dup2(p[1], STDOUT_FILENO);
            close(p[0]);
            close(p[1]);
            execl("/proc/self/exe", "swirl-test", args[k][0], args[k][1], (char *)NULL);
            _exit(127);
        }
        close(p[1]);
        r.out = p[0];
        int status;
        const char *out = runner_wait(&r, &status);
        close(r.out);
        CHECK_MSG(out && WIFEXITED(status) && WEXITSTATUS(status) == 0, "--list failed");
        CHECK_MSG(out && !strstr(out, "runner_fixture_"), "listed:\n%s", out ? out : "");
        if (k == 0)
            CHECK_MSG(out && strstr(out, "runner_fixtures_run_only_when_named\n"),
                      "the run's own tests not listed:\n%s", out ? out : "");
    }
}

TEST(runner_tests_that_wait_run_beside_the_others)
{
    /* On one job: never two tests of a kind at once, and a unit test, an
     * end-to-end test and a test that waits run side by side (some saw both
     * other kinds running). */
    struct runner r;
    if (!runner_start(&r, "runner_fixture_cpu_a runner_fixture_cpu_b runner_fixture_e2e_a "
                          "runner_fixture_e2e_b runner_fixture_waits_a runner_fixture_waits_b",
                      NULL)) {
        CHECK_MSG(false, "cannot start a runner");
        return;
    }
    int status = 0;
    const char *out = runner_wait(&r, &status);
    CHECK_MSG(out && strstr(out, "6 passed, 0 failed"), "%s", out ? out : "the runner hung");
    int results = 0, crowded = 0, beside = 0;
    DIR *d = opendir(r.dir);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        if (strncmp(e->d_name, "res-", 4) != 0)
            continue;
        char path[512];
        int most = 0, saw = 0;
        snprintf(path, sizeof path, "%s/%s", r.dir, e->d_name);
        FILE *f = fopen(path, "r");
        if (f && fscanf(f, "%d %d", &most, &saw) == 2)
            results++, crowded += most != 1, beside += saw;
        if (f)
            fclose(f);
    }
    if (d)
        closedir(d);
    CHECK_INT(results, 6);
    CHECK_MSG(crowded == 0, "%d tests ran with another of their kind on one job", crowded);
    CHECK_MSG(beside >= 3, "only %d tests ran beside one of each other kind", beside);
    runner_clean(&r);
}

TEST(runner_unit_tests_give_way)
{
    /* A unit test runs nicer than the runner (whose own priority is a
     * user's, 0 but where the user chose otherwise). */
    errno = 0;
    const int mine = getpriority(PRIO_PROCESS, 0);
    const int runner = getpriority(PRIO_PROCESS, getppid()); /* the keeper's: the runner's */
    CHECK_MSG(errno == 0 && (mine >= runner + TEST_UNIT_NICE || mine == 19),
              "nice %d, the runner's %d", mine, runner);
    FILE *g = fopen("/proc/self/autogroup", "r"); /* "/autogroup-N nice K" where there are */
    int group_nice = -100;
    if (g) {
        CHECK(fscanf(g, "%*s nice %d", &group_nice) == 1);
        CHECK_MSG(group_nice == TEST_UNIT_NICE, "its session's nice is %d", group_nice);
        fclose(g);
    }
}
