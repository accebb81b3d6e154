/*
 * test.h — swirl's one small test harness.
 *
 * A test is a function declared with TEST(name); it registers itself before main()
 * runs (a constructor), so a test file needs nothing but its TEST blocks. CHECK*
 * macros record a failure with file and line and let the test go on; a test passes
 * when none of its checks failed. The runner (tests/test_main.c) runs every test
 * (or those whose name contains an argument), and its last line is
 * "N passed, N failed". Tests tagged with TEST_E2E drive the real binary in tmux
 * and are skipped by `--unit`. Tests tagged with TEST_THREADS start threads (a
 * pool, a watcher): they have a deadline of their own, TEST_THREADS_DEADLINE
 * seconds of processor time (SWIRL_TEST_DEADLINE), past which the runner ends
 * them as failed, so a pool that hangs spinning is told in seconds (one that
 * hangs asleep is the runner's quiet watch's: test_main.c). TEST_FIXTURE(name, flags) is a test
 * of the runner itself (one that hangs...): run only when named in full.
 * The runner gives each kind jobs of its own: unit tests, TEST_E2E tests
 * and TEST_E2E_WAITS tests (an end-to-end test that mostly waits on real
 * time, a link's delays), so tests that wait never hold back the others.
 * TEST_E2E_CPU marks an end-to-end test that is busy on the CPU all along
 * (headless runs): it takes a unit test's job.
 */
#ifndef SWIRL_TEST_H
#define SWIRL_TEST_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

/* TEST_SANITIZED: built with ASan or TSan (GCC's or clang's), where every step
 * costs ten to fifty times as much; a test may then leave out the largest of
 * its cases, which a plain `make test` runs. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define TEST_SANITIZED 1
#endif
#endif
#ifndef TEST_SANITIZED
#define TEST_SANITIZED 0
#endif

typedef void (*test_fn)(void);

#define TEST_FLAG_E2E 1u
#define TEST_FLAG_THREADS 2u
#define TEST_FLAG_FIXTURE 4u
#define TEST_FLAG_WAITS 8u
#define TEST_FLAG_CPU 16u
/* A unit test runs this much nicer than its runner: it gives way a little
 * to the swirls end-to-end tests drive beside it. Only a little: beside a
 * build (nice 0) a unit test at 5 gets a quarter of a core it shares with
 * the compiler, at 1 it gets 44% (and the swirls meet two unit tests at
 * most: the tests that wait have jobs of their own). */
#define TEST_UNIT_NICE 1
/* Seconds of processor time: many times what any TEST_THREADS test uses, on
 * a loaded machine (which slows a test but adds little to its processor
 * time) or under a sanitizer; only a hang comes near it. */
#define TEST_THREADS_DEADLINE (TEST_SANITIZED ? 300.0 : 15.0)
void test_register(const char *name, test_fn fn, unsigned flags);
/* Ends the running test as skipped, saying why ("no tmux"). */
void test_skip(const char *why) __attribute__((noreturn));
void test_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#define TEST_DEFINE_(name, flags)                                              \
    static void name(void);                                                  \
    __attribute__((constructor)) static void name##_register_(void)         \
    {                                                                        \
        test_register(#name, name, flags);                                   \
    }                                                                        \
    static void name(void)

#define TEST(name) TEST_DEFINE_(name, 0u)
#define TEST_E2E(name) TEST_DEFINE_(name, TEST_FLAG_E2E)
#define TEST_THREADS(name) TEST_DEFINE_(name, TEST_FLAG_THREADS)
#define TEST_FIXTURE(name, flags) TEST_DEFINE_(name, TEST_FLAG_FIXTURE | (flags))
/* An end-to-end test that mostly waits on real time (a delayed link), its
 * processes its own children and light on the CPU: the runner runs
 * --wait-jobs of them (default -j's) beside the unit and end-to-end tests. */
#define TEST_E2E_WAITS(name) TEST_DEFINE_(name, TEST_FLAG_E2E | TEST_FLAG_WAITS)
/* An end-to-end test that keeps the CPU busy (headless runs of ./swirl,
 * nothing waiting on a screen): the runner runs it in the unit tests' jobs,
 * as nice as they are, so it does not crowd them out. */
#define TEST_E2E_CPU(name) TEST_DEFINE_(name, TEST_FLAG_E2E | TEST_FLAG_CPU)

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (!(cond))                                                         \
            test_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);               \
    } while (0)

#define CHECK_MSG(cond, ...)                                                 \
    do {                                                                     \
        if (!(cond))                                                         \
            test_fail(__FILE__, __LINE__, __VA_ARGS__);                      \
    } while (0)

#define CHECK_INT(a, b)                                                      \
    do {                                                                     \
        long long a_ = (long long)(a), b_ = (long long)(b);                  \
        if (a_ != b_)                                                        \
            test_fail(__FILE__, __LINE__, "%s == %s: %lld != %lld", #a, #b,  \
                      a_, b_);                                               \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                \
    do {                                                                     \
        double a_ = (double)(a), b_ = (double)(b);                           \
        if (!(fabs(a_ - b_) <= (double)(tol)))                               \
            test_fail(__FILE__, __LINE__, "%s ~= %s: %g vs %g (tol %g)", #a, \
                      #b, a_, b_, (double)(tol));                            \
    } while (0)

/* Byte-exact comparison of an encoder's output with a golden string. */
#define CHECK_BYTES(got, gotlen, want)                                       \
    test_check_bytes(__FILE__, __LINE__, (const char *)(got), (gotlen),      \
                     (want), sizeof(want) - 1)
void test_check_bytes(const char *file, int line, const char *got, size_t gotlen,
                      const char *want, size_t wantlen);

#endif
