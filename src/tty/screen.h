/*
 * screen.h — the terminal's screen and modes for swirl's life (private to the
 * tty layer; screen.c): entering and leaving them, the way our bytes go, the
 * window's size, and the terminal as it was on every way out, a fatal
 * signal's included. What a signal handler needs is kept here in flags it can
 * read: how long leaving may wait for answers, how many fences they end with,
 * whether a synchronized update is open.
 */
#ifndef SWIRL_SCREEN_H
#define SWIRL_SCREEN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

/* Before curses: the termios to restore, the signal handlers (stop: the flag
 * they raise for a step under way). */
void screen_install(atomic_int *stop);
/* A window larger than term.h's limit: said in one line; true. */
bool screen_too_large(void);
/* Our own non-blocking way to the terminal (else stdout, blocking), and its
 * closing. */
void screen_output_open(void);
void screen_output_close(void);
int screen_fd(void);
/* curses' program mode as swirl wants it, then the screen entered. */
void screen_program_mode(void);
/* The alternate screen and our modes: entered (again, after Ctrl-Z); left,
 * with the answers on their way swallowed for at most `wait` s. */
void screen_enter(void);
void screen_leave(double wait);
/* Writes to the terminal, waiting a moment at most for room. */
void screen_write(const char *p, size_t n);
/* A sequence cut short: a CAN, and the synchronized update ended if it had
 * begun. */
void screen_cut(bool began);
/* Whether a frame's synchronized update is open (its end not yet out). */
void screen_sync_open(bool open);
/* How long leaving may wait for answers now (s), and how many DA1 answers
 * are owed (the fence's, and the start-up questions' if not come). */
void screen_drain(double wait);
void screen_owe_fences(int n);
/* The window's size changed (SIGWINCH, or a return from Ctrl-Z): taken once. */
bool screen_winched(void);
void screen_winch(void);
/* The window's size, at most term.h's limit. */
void screen_size(int *cols, int *rows);

#endif
