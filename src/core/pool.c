/*
 * pool.c — worker threads for the solvers (see pool.h): one job at a time,
 * its parts dealt out to the threads in contiguous shares.
 */
#include "pool.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax() __builtin_ia32_pause()
#else
#define cpu_relax() ((void)0)
#endif

/* Between jobs a worker spins a little (a step's passes come back to back),
 * then sleeps on `wake`; the caller, once nothing is left to claim, does the
 * same for the last parts on `finished`. Every sleep is guarded the same way:
 * the sleeper raises a flag under the mutex and then looks again
 * (sequentially consistent), the other side changes the state and then looks
 * at the flag, so one of them always sees the other.
 *
 * Before it sleeps, a thread that waits spins (a pause is about 40 ns on the
 * Xeons we measured: some 100 us). A step's passes follow each other within
 * microseconds; frames are tens of milliseconds apart, so between frames every
 * worker sleeps. No sched_yield: on a core shared with a CPU-bound process it
 * hands that process a whole time slice, where a thread asleep on a futex is
 * woken, and runs, as soon as there is work. */
enum { SPINS = 2500 };

typedef void (*pool_fn)(void *arg, int part, int nparts);

/* pool_run() publishes (fn, arg, nparts) and deals the parts out in contiguous
 * shares, thread t (the caller is 0, worker k is k+1) getting parts
 * [nparts*t/T, nparts*(t+1)/T), each share one word (lo << 32 | hi) on a cache
 * line of its own. Dealt this way, a part a solver runs pass after pass mostly
 * stays on one core, and the data it wrote in one pass is in that core's cache
 * for the next.
 *
 * One thread's share of the current job: parts [lo, hi) not yet claimed. */
struct share {
    _Atomic uint64_t span;      /* lo << 32 | hi */
    char pad[64 - sizeof(uint64_t)];
};

struct pool;

/* What a worker thread starts with. */
struct seat {
    struct pool *pool;
    int self;                   /* its share */
};

struct pool {
    struct share share[POOL_MAX_THREADS]; /* share[0]: the caller's */
    int threads;                /* the caller included */
    _Atomic int active;         /* those that take parts (pool_use): the first ones */
    int started;                /* workers running */
    pthread_t th[POOL_MAX_THREADS];
    struct seat seat[POOL_MAX_THREADS];
    pthread_mutex_t mu;
    pthread_cond_t wake;        /* a worker waits here for parts to claim */
    pthread_cond_t finished;    /* the caller waits here for the last parts */
    _Atomic int done;           /* parts of the current job finished */
    _Atomic int sleepers;       /* workers in (or going into) wait(wake) */
    _Atomic bool caller_waits;  /* the caller is in (or going into) wait(finished) */
    _Atomic bool quit;
    /* The current job: written by the caller before the shares publish it. */
    pool_fn fn;
    void *arg;
    int nparts;
};

static uint32_t span_lo(uint64_t s) { return (uint32_t)(s >> 32); }
static uint32_t span_hi(uint64_t s) { return (uint32_t)(s & 0xffffffffu); }

/* Claims a part of share t, its first one for the share's owner and its last
 * for any other thread (a CAS each, so a slow or sleeping thread's parts get
 * done by the others): the part's index, or -1 when the share is empty. */
static int claim(struct pool *p, int t, bool own)
{
    _Atomic uint64_t *w = &p->share[t].span;
    uint64_t s = atomic_load(w);
    while (span_lo(s) < span_hi(s)) {
        const uint64_t next = own ? s + ((uint64_t)1 << 32) : s - 1;
        if (atomic_compare_exchange_weak(w, &s, next))
            return own ? (int)span_lo(s) : (int)span_hi(s) - 1;
    }
    return -1;
}

/* Runs claimed parts, share self's and then the others' in turn, until none
 * is left; the job is p's current one for as long as a claimed part has not
 * been counted done. A part's job fields are read only after its claim
 * succeeded, and the job cannot end before that part is done, so the caller
 * may overwrite them for the next job as soon as `done` reaches nparts: no
 * worker has to check in, and one that slept through a whole job costs
 * nothing. */
static void work(struct pool *p, int self)
{
    for (int k = 0; k < p->threads; k++) {
        const int t = (self + k) % p->threads;
        int part;
        while (self < atomic_load(&p->active) && (part = claim(p, t, k == 0)) >= 0) {
            pool_fn fn = p->fn;
            void *arg = p->arg;
            int n = p->nparts;
            fn(arg, part, n);
            if (atomic_fetch_add(&p->done, 1) + 1 == n && atomic_load(&p->caller_waits)) {
                pthread_mutex_lock(&p->mu);
                pthread_cond_signal(&p->finished);
                pthread_mutex_unlock(&p->mu);
            }
        }
    }
}

/* Work for thread self: parts left in a share, when self takes parts at all
 * (a thread pool_use leaves out waits, asleep, until it is let in again). */
static bool has_work(struct pool *p, int self)
{
    if (self >= atomic_load(&p->active))
        return atomic_load(&p->quit);
    for (int t = 0; t < p->threads; t++) {
        const uint64_t s = atomic_load(&p->share[t].span);
        if (span_lo(s) < span_hi(s))
            return true;
    }
    return atomic_load(&p->quit);
}

static void *worker(void *v)
{
    const struct seat *seat = v;
    struct pool *p = seat->pool;
    for (;;) {
        for (int spin = 0; spin < SPINS && !has_work(p, seat->self); spin++)
            cpu_relax();
        if (!has_work(p, seat->self)) {
            pthread_mutex_lock(&p->mu);
            atomic_fetch_add(&p->sleepers, 1);
            while (!has_work(p, seat->self))
                pthread_cond_wait(&p->wake, &p->mu);
            atomic_fetch_sub(&p->sleepers, 1);
            pthread_mutex_unlock(&p->mu);
        }
        if (atomic_load(&p->quit))
            return NULL;
        work(p, seat->self);
    }
}

/* Stops and joins the workers started so far, then frees p. */
static void shut(struct pool *p)
{
    pthread_mutex_lock(&p->mu);
    atomic_store(&p->quit, true);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->started; i++)
        pthread_join(p->th[i], NULL);
    pthread_cond_destroy(&p->finished);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->mu);
    free(p);
}

int pool_thread_start(pthread_t *th, void *(*fn)(void *), void *arg)
{
    static const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS};
    sigset_t all, old;
    sigfillset(&all);
    for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++)
        sigdelset(&all, faults[i]);
    pthread_sigmask(SIG_SETMASK, &all, &old); /* a new thread starts with its maker's mask */
    int err = pthread_create(th, NULL, fn, arg);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return err;
}

struct pool *pool_create(int threads)
{
    if (threads < 1)
        threads = 1;
    if (threads > POOL_MAX_THREADS)
        threads = POOL_MAX_THREADS;
    struct pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->threads = threads;
    atomic_init(&p->active, threads);
    for (int t = 0; t < POOL_MAX_THREADS; t++)
        atomic_init(&p->share[t].span, 0);
    atomic_init(&p->done, 0);
    atomic_init(&p->sleepers, 0);
    atomic_init(&p->caller_waits, false);
    atomic_init(&p->quit, false);
    if (pthread_mutex_init(&p->mu, NULL) != 0) {
        free(p);
        return NULL;
    }
    if (pthread_cond_init(&p->wake, NULL) != 0) {
        pthread_mutex_destroy(&p->mu);
        free(p);
        return NULL;
    }
    if (pthread_cond_init(&p->finished, NULL) != 0) {
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->mu);
        free(p);
        return NULL;
    }
    int err = 0;
    while (!err && p->started < threads - 1) {
        struct seat *seat = &p->seat[p->started];
        *seat = (struct seat){p, p->started + 1};
        if (!(err = pool_thread_start(&p->th[p->started], worker, seat)))
            p->started++;
    }
    if (err) {
        shut(p);
        return NULL;
    }
    return p;
}

void pool_destroy(struct pool *p)
{
    if (p)
        shut(p);
}

int pool_threads(const struct pool *p) { return p ? p->threads : 1; }

void pool_use(struct pool *p, int n)
{
    if (p)
        atomic_store(&p->active, n < 1 ? 1 : n > p->threads ? p->threads : n);
}

int pool_used(const struct pool *p) { return p ? atomic_load(&p->active) : 1; }

/* Waits until every part of the current job (n of them) is done. */
static void wait_done(struct pool *p, int n)
{
    for (int spin = 0; spin < SPINS; spin++) {
        if (atomic_load(&p->done) == n)
            return;
        cpu_relax();
    }
    pthread_mutex_lock(&p->mu);
    atomic_store(&p->caller_waits, true);
    while (atomic_load(&p->done) != n)
        pthread_cond_wait(&p->finished, &p->mu);
    atomic_store(&p->caller_waits, false);
    pthread_mutex_unlock(&p->mu);
}

void pool_run(struct pool *p, void (*fn)(void *arg, int part, int nparts), void *arg,
              int nparts)
{
    const int active = p ? atomic_load(&p->active) : 1;
    if (active == 1 || nparts <= 1) {
        for (int i = 0; i < nparts; i++)
            fn(arg, i, nparts);
        return;
    }
    p->fn = fn;
    p->arg = arg;
    p->nparts = nparts;
    atomic_store(&p->done, 0);
    for (int t = 0; t < p->threads; t++) {
        int lo = 0, hi = 0;
        if (t < active)
            pool_span(nparts, t, active, &lo, &hi);
        atomic_store(&p->share[t].span, (uint64_t)lo << 32 | (uint32_t)hi);
    }
    if (atomic_load(&p->sleepers) > 0) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->mu);
    }
    work(p, 0);
    wait_done(p, nparts);
}
