/*
 * srcread.c — the sources read as text, for the tests that hold rules about
 * them (test_sources.c, test_rooms.c): a file's text, the same with what is
 * not code blanked, the files of a tree.
 */
#include "srcread.h"
#include "buf.h"
#include "test.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A file's text (malloc'd, NUL-terminated) or NULL. */
char *src_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    struct buf b;
    buf_init(&b);
    char chunk[4096];
    size_t n;
    while (f && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_put(&b, chunk, n);
    if (f)
        fclose(f);
    buf_putc(&b, 0);
    if (!f) {
        buf_free(&b);
        return NULL;
    }
    return b.p;
}

/* The text with comments, strings, character constants and preprocessor lines
 * blanked (newlines kept), in place. */
void src_blank_noise(char *s)
{
    bool line_start = true;
    for (char *p = s; *p;) {
        if (line_start && *p == '#') { /* to the end of the line and its continuations */
            for (bool escaped = false; *p && (*p != '\n' || escaped); p++) {
                escaped = *p == '\\';
                *p = *p == '\n' ? '\n' : ' ';
            }
            continue;
        }
        if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                *p++ = ' ';
        } else if (p[0] == '/' && p[1] == '*') {
            *p++ = ' ', *p++ = ' ';
            while (*p && !(p[0] == '*' && p[1] == '/'))
                *p = *p == '\n' ? '\n' : ' ', p++;
            if (*p)
                *p++ = ' ', *p++ = ' ';
        } else if (*p == '"' || *p == '\'') {
            const char q = *p;
            *p++ = ' ';
            while (*p && *p != q && *p != '\n') {
                if (*p == '\\' && p[1])
                    *p++ = ' ';
                *p++ = ' ';
            }
            if (*p == q)
                *p++ = ' ';
        } else {
            if (*p == '\n')
                line_start = true;
            else if (!isspace((unsigned char)*p))
                line_start = false;
            p++;
            continue;
        }
        line_start = false;
    }
}

/* Whether name ends in ".X" for one of the letters in ends. */
static bool ends_in(const char *name, const char *ends)
{
    const char *dot = strrchr(name, '.');
    return dot && dot != name && dot[1] && !dot[2] && strchr(ends, dot[1]);
}

/* The files in dir and in its folders with a name ending in one of the
 * suffixes (".h", ".c" for "hc"); their number. */
int src_list_files(const char *dir, const char *ends, char paths[][SRC_PATH_MAX], int max)
{
    int n = 0;
    DIR *top = opendir(dir);
    CHECK_MSG(top != NULL, "no %s (the tests run at the top of the tree)", dir);
    for (struct dirent *e; top && (e = readdir(top)) != NULL;) {
        char sub[SRC_PATH_MAX / 2];
        if (e->d_name[0] == '.' ||
            snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name) >= (int)sizeof sub)
            continue;
        DIR *d = opendir(sub);
        if (!d && ends_in(e->d_name, ends) && n < max)
            n += snprintf(paths[n], SRC_PATH_MAX, "%s", sub) < SRC_PATH_MAX;
        for (struct dirent *f; d && (f = readdir(d)) != NULL;)
            if (ends_in(f->d_name, ends) && n < max)
                n += snprintf(paths[n], SRC_PATH_MAX, "%s/%s", sub, f->d_name) < SRC_PATH_MAX;
        if (d)
            closedir(d);
    }
    if (top)
        closedir(top);
    return n;
}
