/*
 * test_pool.c — the solver threads: every part runs exactly once whatever the
 * part and thread counts, a pool starts and stops cleanly again and again, a
 * thread takes over parts dealt to another that is busy, a NULL pool runs the
 * parts in order on this thread, idle workers sleep (the process's CPU time
 * while it waits) and leave the process's signals to this thread, and
 * pool_span cuts rows into bands that tile them.
 */
#include "pool.h"
#include "test.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

enum { MAX_PARTS = 300 };

struct tally {
    _Atomic int hits[MAX_PARTS];
    _Atomic int wrong_n;  /* calls that saw an nparts other than the job's */
    int nparts;
};

static void count_part(void *arg, int part, int nparts)
{
    struct tally *t = arg;
    if (nparts != t->nparts || part < 0 || part >= nparts)
        atomic_fetch_add(&t->wrong_n, 1);
    else
        atomic_fetch_add(&t->hits[part], 1);
}

/* Runs nparts parts on p and checks each ran exactly once. */
static void check_once(struct pool *p, int nparts)
{
    struct tally t;
    for (int i = 0; i < MAX_PARTS; i++)
        atomic_init(&t.hits[i], 0);
    atomic_init(&t.wrong_n, 0);
    t.nparts = nparts;
    pool_run(p, count_part, &t, nparts);
    int bad = 0;
    for (int i = 0; i < MAX_PARTS; i++)
        bad += atomic_load(&t.hits[i]) != (i < nparts ? 1 : 0);
    CHECK_MSG(bad == 0 && atomic_load(&t.wrong_n) == 0,
              "%d threads, %d parts: %d parts ran other than once, %d bad calls",
              pool_threads(p), nparts, bad, atomic_load(&t.wrong_n));
}

TEST_THREADS(pool_runs_every_part_exactly_once)
{
    static const int threads[] = {1, 2, 3, 4, 8};
    static const int parts[] = {0, 1, 2, 3, 5, 16, 17, 64, 255, MAX_PARTS};
    for (size_t a = 0; a < sizeof threads / sizeof threads[0]; a++) {
        struct pool *p = pool_create(threads[a]);
        CHECK(p != NULL);
        if (!p)
            continue;
        CHECK_INT(pool_threads(p), threads[a]);
        for (int rep = 0; rep < 20; rep++) /* back to back: workers still spinning */
            for (size_t b = 0; b < sizeof parts / sizeof parts[0]; b++)
                check_once(p, parts[b]);
        pool_destroy(p);
    }
}

/* Work that takes a while, so parts overlap on different threads. */
struct sums {
    double out[64];
};

static void slow_part(void *arg, int part, int nparts)
{
    struct sums *s = arg;
    double x = 0.0;
    for (int k = 1; k <= 20000; k++)
        x += 1.0 / ((double)k * (double)(part + 1));
    s->out[part] = x + (double)nparts;
}

TEST_THREADS(pool_results_do_not_depend_on_the_threads)
{
    struct sums ref, got;
    pool_run(NULL, slow_part, &ref, 64);
    for (int n = 1; n <= 4; n++) {
        struct pool *p = pool_create(n);
        CHECK(p != NULL);
        memset(&got, 0, sizeof got);
        pool_run(p, slow_part, &got, 64);
        CHECK_MSG(memcmp(&got, &ref, sizeof ref) == 0, "%d threads", n);
        pool_destroy(p);
    }
}

TEST_THREADS(pool_starts_and_stops_again_and_again)
{
    for (int k = 0; k < 60; k++) {
        struct pool *p = pool_create(1 + k % 4);
        CHECK(p != NULL);
        if (k % 3 == 0)
            check_once(p, 1 + k); /* some used, some never */
        pool_destroy(p);
    }
    pool_destroy(NULL);
    /* Out of range thread counts are brought into range. */
    struct pool *p = pool_create(0);
    CHECK(p && pool_threads(p) == 1);
    pool_destroy(p);
    p = pool_create(POOL_MAX_THREADS + 5);
    CHECK(p && pool_threads(p) == POOL_MAX_THREADS);
    if (p)
        check_once(p, MAX_PARTS);
    pool_destroy(p);
}

TEST_THREADS(pool_sleeps_and_wakes_between_jobs)
{
    /* Gaps longer than the workers' spin: they go to sleep and must wake. */
    struct pool *p = pool_create(3);
    CHECK(p != NULL);
    struct sums s;
    for (int k = 0; k < 5; k++) {
        pool_run(NULL, slow_part, &s, 64); /* ~ms on this thread alone */
        check_once(p, 16);
    }
    pool_destroy(p);
}

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

TEST_THREADS(pool_idle_workers_use_no_cpu)
{
    /* Three workers that spun while this thread sleeps 200 ms would use 600 ms
     * of CPU; sleeping ones use next to nothing (each spins ~0.2 ms first). */
    struct pool *p = pool_create(4);
    CHECK(p != NULL);
    check_once(p, 64);
    double c0 = cpu_seconds();
    struct timespec nap = {0, 200 * 1000 * 1000};
    while (nanosleep(&nap, &nap) != 0)
        ;
    double used = cpu_seconds() - c0;
    CHECK_MSG(used < 0.05, "%.3f s of CPU while idle", used);
    check_once(p, 64); /* and they still answer */
    pool_destroy(p);
}

struct masks {
    pthread_t caller;
    _Atomic int on_workers, sigint_taken, fault_blocked;
};

static void mask_part(void *arg, int part, int nparts)
{
    struct masks *m = arg;
    (void)part, (void)nparts;
    if (pthread_equal(pthread_self(), m->caller)) {
        /* Hold this thread until a worker has run a part (2 s at most). */
        struct timespec ms = {0, 1000 * 1000};
        for (int k = 0; k < 2000 && atomic_load(&m->on_workers) == 0; k++)
            nanosleep(&ms, NULL);
        return;
    }
    sigset_t cur;
    pthread_sigmask(SIG_BLOCK, NULL, &cur);
    atomic_fetch_add(&m->sigint_taken, !sigismember(&cur, SIGINT) || !sigismember(&cur, SIGWINCH));
    atomic_fetch_add(&m->fault_blocked, sigismember(&cur, SIGSEGV) == 1);
    atomic_fetch_add(&m->on_workers, 1);
}

TEST_THREADS(pool_workers_leave_signals_to_the_caller)
{
    struct pool *p = pool_create(3);
    CHECK(p != NULL);
    struct masks m;
    m.caller = pthread_self();
    atomic_init(&m.on_workers, 0);
    atomic_init(&m.sigint_taken, 0);
    atomic_init(&m.fault_blocked, 0);
    pool_run(p, mask_part, &m, 64);
    CHECK(atomic_load(&m.on_workers) > 0);
    CHECK_INT(atomic_load(&m.sigint_taken), 0);
    CHECK_INT(atomic_load(&m.fault_blocked), 0);
    sigset_t cur; /* and the caller's own mask is as it was */
    pthread_sigmask(SIG_BLOCK, NULL, &cur);
    CHECK(!sigismember(&cur, SIGINT) && !sigismember(&cur, SIGWINCH));
    pool_destroy(p);
}

/* Part 2 of 4 (the first of the second thread's share on two threads) waits
 * for part 3 (the last of that share): another thread must take part 3 over. */
struct handover {
    _Atomic int ran[4];
    _Atomic int waited_out;
};

static void handover_part(void *arg, int part, int nparts)
{
    struct handover *h = arg;
    (void)nparts;
    if (part == 2) {
        struct timespec ms = {0, 1000 * 1000};
        int k = 0;
        for (; k < 2000 && atomic_load(&h->ran[3]) == 0; k++)
            nanosleep(&ms, NULL);
        atomic_fetch_add(&h->waited_out, k == 2000);
    }
    atomic_fetch_add(&h->ran[part], 1);
}

TEST_THREADS(pool_threads_take_over_parts_that_wait)
{
    for (int threads = 2; threads <= 4; threads++) {
        struct pool *p = pool_create(threads);
        CHECK(p != NULL);
        struct handover h;
        for (int i = 0; i < 4; i++)
            atomic_init(&h.ran[i], 0);
        atomic_init(&h.waited_out, 0);
        pool_run(p, handover_part, &h, 4);
        CHECK_MSG(atomic_load(&h.waited_out) == 0, "%d threads: part 3 never ran while 2 waited",
                  threads);
        for (int i = 0; i < 4; i++)
            CHECK_INT(atomic_load(&h.ran[i]), 1);
        pool_destroy(p);
    }
}

struct order {
    int seen[16];
    int n;
};

static void record_part(void *arg, int part, int nparts)
{
    struct order *o = arg;
    (void)nparts;
    o->seen[o->n++] = part;
}

TEST(pool_null_runs_in_order_here)
{
    CHECK_INT(pool_threads(NULL), 1);
    struct order o = {{0}, 0};
    pool_run(NULL, record_part, &o, 16);
    CHECK_INT(o.n, 16);
    for (int i = 0; i < 16; i++)
        CHECK_INT(o.seen[i], i);
    check_once(NULL, 7);
}

TEST(pool_span_tiles_the_rows)
{
    static const int ns[] = {0, 1, 5, 16, 17, 150, 1000};
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
        for (int nparts = 1; nparts <= 20; nparts++) {
            int next = 0, ok = 1;
            for (int part = 0; part < nparts; part++) {
                int lo, hi;
                pool_span(ns[a], part, nparts, &lo, &hi);
                ok &= lo == next && hi >= lo && hi - lo <= ns[a] / nparts + 1;
                next = hi;
            }
            CHECK_MSG(ok && next == ns[a], "n %d in %d parts", ns[a], nparts);
        }
}

/* Which thread ran each part. */
struct who {
    pthread_t by[64];
};

static void note_thread(void *arg, int part, int nparts)
{
    struct who *w = arg;
    (void)nparts;
    for (volatile int k = 0; k < 20000; k++) /* long enough for the others to join in */
        ;
    w->by[part] = pthread_self();
}

TEST_THREADS(pool_use_lets_some_threads_take_parts_and_the_rest_sleep)
{
    /* Fewer threads in use: every part still runs once, with the same
     * results; with one in use only the caller runs them; all of them again
     * afterwards, and the count clamped into range. */
    struct pool *p = pool_create(4);
    CHECK(p != NULL);
    if (!p)
        return;
    CHECK_INT(pool_used(p), 4);
    struct sums ref, got;
    pool_run(NULL, slow_part, &ref, 64);
    for (int n = 4; n >= 1; n--) {
        pool_use(p, n);
        CHECK_INT(pool_used(p), n);
        for (int rep = 0; rep < 10; rep++) {
            check_once(p, 1 + 17 * rep);
            memset(&got, 0, sizeof got);
            pool_run(p, slow_part, &got, 64);
            CHECK_MSG(memcmp(&got, &ref, sizeof ref) == 0, "%d threads in use", n);
        }
    }
    struct who w;
    pool_run(p, note_thread, &w, 64);
    int others = 0;
    for (int i = 0; i < 64; i++)
        others += !pthread_equal(w.by[i], pthread_self());
    CHECK_MSG(others == 0, "one thread in use: %d parts ran on workers", others);
    /* Two of four in use: once a job has run (a worker asleep or waiting
     * then sees the new count), two threads at most run a job's parts. */
    pool_use(p, 2);
    pool_run(p, note_thread, &w, 64);
    int most = 0;
    for (int rep = 0; rep < 20; rep++) {
        pool_run(p, note_thread, &w, 64);
        pthread_t seen[64];
        int nseen = 0;
        for (int i = 0; i < 64; i++) {
            int k = 0;
            while (k < nseen && !pthread_equal(seen[k], w.by[i]))
                k++;
            if (k == nseen)
                seen[nseen++] = w.by[i];
        }
        most = nseen > most ? nseen : most;
    }
    CHECK_MSG(most <= 2, "two threads in use: a job's parts ran on %d", most);
    pool_use(p, 99);
    CHECK_INT(pool_used(p), 4);
    pool_use(p, 0);
    CHECK_INT(pool_used(p), 1);
    pool_use(p, 3);
    for (int rep = 0; rep < 20; rep++)
        check_once(p, 64);
    pool_destroy(p);
    CHECK_INT(pool_used(NULL), 1);
}
