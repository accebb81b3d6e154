/*
 * signals.c — flags for the signals the loop handles, and a last act for the
 * ones that end the process (see signals.h). The handlers make only
 * async-signal-safe calls: the restore they are given, cast_on_signal (stat,
 * link, rename, unlink, ftruncate, write), sigaction, raise, pthread_self and
 * pthread_kill.
 *
 * A signal sent to the process (kill) goes to any thread that does not block
 * it; the solver's workers block all but their own faults (pool.c), so a kill
 * -SEGV may still land on one, while the main thread goes on writing the
 * recording. Such a signal is passed on to the main thread, whose handler then
 * cuts the recording back and puts it in place with nothing writing under it.
 * A thread's own fault or abort() is handled where it happens.
 */
#include "signals.h"
#include "cast.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

volatile sig_atomic_t signals_quit;

int signals_exit_status(int status) { return signals_quit ? 128 + signals_quit : status; }

static void (*restore_fn)(void);
static pthread_t main_thread; /* the one that installed the handlers: the loop's */

/* Signals that end the process by default, other than the three the loop
 * handles; their handlers in force before ours. */
static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGQUIT,
                                    SIGTRAP, SIGSYS, SIGXCPU, SIGXFSZ, SIGPIPE, SIGUSR1,
                                    SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGIO,
#ifdef SIGPWR
                                    SIGPWR,
#endif
#ifdef SIGSTKFLT
                                    SIGSTKFLT,
#endif
};
#define NFATAL (sizeof fatal_signals / sizeof fatal_signals[0])
static struct sigaction fatal_prev[NFATAL];

/* The steps' "stop now" (signals_set_stop), or NULL. */
static atomic_int *volatile stop_flag;

static void raise_stop(void)
{
    atomic_int *f = stop_flag;
    if (f)
        atomic_store(f, 1); /* lock-free: safe in a handler */
}

void signals_set_stop(atomic_int *flag) { stop_flag = flag; }

static void on_quit(int sig)
{
    signals_quit = sig;
    raise_stop();
}

/* stop_asked: for the loop to look at; stop_pending: no SIGCONT since. */
static volatile sig_atomic_t stop_asked, stop_pending;

static void on_tstp(int sig)
{
    (void)sig;
    stop_pending = 1;
    stop_asked = 1;
    raise_stop();
}

static void on_cont(int sig)
{
    (void)sig;
    stop_pending = 0;
}

/* The handler of one of SIGTSTP and SIGCONT blocks the other: a SIGCONT that
 * came just after a SIGTSTP was taken could otherwise run its handler first,
 * and leave the flags saying stop. */
static void install_blocking(int sig, void (*fn)(int), int other)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, other);
    sigaction(sig, &sa, NULL);
}

void signals_install_stop(void)
{
    install_blocking(SIGTSTP, on_tstp, SIGCONT);
    install_blocking(SIGCONT, on_cont, SIGTSTP);
}

bool signals_stop_wanted(void) { return stop_pending; }
bool signals_stop_asked(void) { return stop_asked; }
void signals_stop_taken(void) { stop_asked = 0; }

static void on_fatal(int sig, siginfo_t *info, void *uc)
{
    (void)uc;
    bool sent = info && (info->si_code == SI_USER || info->si_code == SI_QUEUE);
    if (sent && !pthread_equal(pthread_self(), main_thread)) {
        pthread_kill(main_thread, sig);
        return;
    }
    if (restore_fn)
        restore_fn();
    cast_on_signal();
    for (size_t i = 0; i < NFATAL; i++)
        if (fatal_signals[i] == sig)
            sigaction(sig, &fatal_prev[i], NULL);
    raise(sig); /* delivered once this handler returns, to the handler before ours */
}

void signals_set(int sig, void (*fn)(int), struct sigaction *prev)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, prev);
}

void signals_install(void (*restore)(void))
{
    restore_fn = restore;
    main_thread = pthread_self();
    signals_set(SIGINT, on_quit, NULL);
    signals_set(SIGTERM, on_quit, NULL);
    signals_set(SIGHUP, on_quit, NULL);
    for (size_t i = 0; i < NFATAL; i++) {
        struct sigaction cur;
        sigaction(fatal_signals[i], NULL, &cur);
        if (cur.sa_handler == SIG_IGN ||
            ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == on_fatal))
            continue; /* ignored by whoever started us (nohup): leave it so */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_fatal;
        sa.sa_flags = SA_SIGINFO;
        sigemptyset(&sa.sa_mask);
        sigaction(fatal_signals[i], &sa, &fatal_prev[i]);
    }
}
