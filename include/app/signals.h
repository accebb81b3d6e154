/*
 * signals.h — the signals that end swirl, for the terminal loop and the
 * headless recorder alike.
 *
 * SIGINT, SIGTERM and SIGHUP only set signals_quit: the loop ends, cleans up
 * (a recording is closed and put in place as usual) and exits with 128 + the
 * signal. Every other signal whose default action ends the process (crashes,
 * SIGQUIT, SIGPIPE, SIGUSR1/2, SIGALRM, SIGXCPU...) gets a handler that runs
 * the caller's restore (the terminal), puts the recording in progress in place
 * (cast_on_signal), puts back the handler that was there before ours (the
 * default, or a sanitizer's, which then reports) and raises the signal again,
 * so the exit status and a core dump stay what they would have been. A signal
 * ignored by whoever started us (nohup) stays ignored.
 */
#ifndef SWIRL_SIGNALS_H
#define SWIRL_SIGNALS_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>

/* The SIGINT, SIGTERM or SIGHUP that asked swirl to stop, 0 if none. */
extern volatile sig_atomic_t signals_quit;

/* A run's exit status: 128 + the signal that asked it to stop (the shell's
 * convention, whatever else went wrong: the status says how it ended, its
 * messages what became of the rest), else `status`. */
int signals_exit_status(int status);

/* restore (or NULL) runs first in the handler of a fatal signal, so it may
 * make only async-signal-safe calls. */
void signals_install(void (*restore)(void));
/*
 * Ctrl-Z. SIGTSTP asks for a stop, which the loop takes when it gets to it
 * (leaving the screen first); a SIGCONT that comes before then cancels it,
 * since nobody would continue a process that stops itself after its SIGCONT.
 * Each handler blocks the other signal, so they run in the order the signals
 * came (the kernel keeps only the later of the two pending).
 */
void signals_install_stop(void);
/* A SIGTSTP came and no SIGCONT since: stop now (raise SIGTSTP by default). */
bool signals_stop_wanted(void);
/* A SIGTSTP came since signals_stop_taken() (whether or not cancelled since). */
bool signals_stop_asked(void);
void signals_stop_taken(void);

/* SIGINT, SIGTERM, SIGHUP and SIGTSTP also raise *flag (NULL: none), so a
 * step under way ends early (the params' stop) and the loop gets to them. */
void signals_set_stop(atomic_int *flag);

/* sigaction with fn and an empty mask; prev (or NULL) gets what was there. */
void signals_set(int sig, void (*fn)(int), struct sigaction *prev);

#endif
