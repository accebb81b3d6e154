/*
 * srcread.h — the sources read as text, for the tests that hold rules about
 * them (srcread.c).
 */
#ifndef SWIRL_SRCREAD_H
#define SWIRL_SRCREAD_H

#include <stdbool.h>

#define SRC_PATH_MAX 1024

/* A file's text (malloc'd, NUL-terminated) or NULL. */
char *src_slurp(const char *path);
/* The text with comments, strings, character constants and preprocessor lines
 * blanked (newlines kept), in place. */
void src_blank_noise(char *s);
/* The files in dir and in its folders with a name ending in one of the
 * suffixes (".h", ".c" for "hc"); their number (at most max). */
int src_list_files(const char *dir, const char *ends, char paths[][SRC_PATH_MAX], int max);

#endif
