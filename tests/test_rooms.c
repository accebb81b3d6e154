/*
 * test_rooms.c — the rooms of the tree (docs/HACKING.md) as rules read from
 * the sources: which folders may include which (and the Makefile's USES_
 * lines, which make the build hold them, say the same), the one reader of
 * the terminal's bytes and the one parser of them, and the sizes: no file of
 * the product over 700 lines, no function over 80.
 */
#include "buf.h"
#include "srcread.h"
#include "test.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FILES 256

/* Which rooms each may include (its own included), as the Makefile's USES_. */
static const struct {
    const char *room, *uses;
} rooms[] = {
    {"core", "core"},
    {"sim", "core sim"},
    {"gfx", "core gfx"},
    {"scenes", "core sim gfx scenes"},
    {"app", "core sim gfx scenes app"},
    {"tty", "core sim gfx scenes app tty"},
    {"cli", "core sim gfx scenes app cli"},
    {"bench", "core sim gfx scenes app tty"},
    {"tools", "core sim gfx scenes app cli"},
};

static const char *uses_of(const char *room)
{
    for (size_t i = 0; i < sizeof rooms / sizeof rooms[0]; i++)
        if (strcmp(rooms[i].room, room) == 0)
            return rooms[i].uses;
    return NULL;
}

/* Is word among the space-separated words of list? */
static bool has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0))
            return true;
    return false;
}

/* The same words in a and b, in any order? */
static bool same_words(const char *a, const char *b)
{
    int na = 0, nb = 0;
    char w[SRC_PATH_MAX];
    for (const char *p = a; *p; p += *p == ' ') {
        size_t n = strcspn(p, " ");
        snprintf(w, sizeof w, "%.*s", (int)n, p);
        if (!has_word(b, w))
            return false;
        na++, p += n;
    }
    for (const char *p = b; *p; p += *p == ' ')
        nb++, p += strcspn(p, " ");
    return na == nb;
}

/* The room of a path: the folder after src/ or include/ (main.c: "main"). */
static void room_of(const char *path, char *room, size_t cap)
{
    const char *p = strncmp(path, "src/", 4) == 0 ? path + 4 : path + 8;
    size_t n = strcspn(p, "/");
    snprintf(room, cap, "%.*s", p[n] ? (int)n : 4, p[n] ? p : "main");
}

/* Which room's public headers hold name, or NULL. */
static const char *header_room(const char *name)
{
    static char found[32];
    for (size_t i = 0; i < sizeof rooms / sizeof rooms[0]; i++) {
        char path[SRC_PATH_MAX];
        snprintf(path, sizeof path, "include/%s/%s", rooms[i].room, name);
        if (access(path, F_OK) == 0) {
            snprintf(found, sizeof found, "%s", rooms[i].room);
            return found;
        }
    }
    return NULL;
}

/* The files of the product: src/ and include/, every .c and .h. */
static int product_files(char (*paths)[SRC_PATH_MAX])
{
    int n = src_list_files("src", "ch", paths, FILES);
    n += src_list_files("include", "h", paths + n, FILES - n);
    return n;
}

/* Every #include "x.h" of a file names a header of its own folder or of a
 * room it may use. */
TEST(rooms_each_folder_includes_only_the_rooms_below_it)
{
    static char paths[FILES][SRC_PATH_MAX];
    int n = product_files(paths), checked = 0;
    for (int i = 0; i < n; i++) {
        char room[32];
        room_of(paths[i], room, sizeof room);
        const char *uses = strcmp(room, "main") == 0 ? "core sim gfx scenes app tty cli"
                                                     : uses_of(room);
        CHECK_MSG(uses != NULL, "%s: a room the rules do not know", paths[i]);
        char *text = src_slurp(paths[i]);
        for (char *p = text; uses && p && (p = strstr(p, "#include \"")) != NULL; p++) {
            char name[128], own[SRC_PATH_MAX + 128];
            size_t len = strcspn(p + 10, "\"");
            snprintf(name, sizeof name, "%.*s", (int)len, p + 10);
            snprintf(own, sizeof own, "%.*s%s", (int)(strrchr(paths[i], '/') - paths[i] + 1),
                     paths[i], name);
            const char *hr = header_room(name);
            bool ok = access(own, F_OK) == 0 || (hr && has_word(uses, hr)) ||
                      (strcmp(room, "bench") == 0 && !hr); /* the tests' simulated link */
            CHECK_MSG(ok, "%s (%s) includes %s, of %s: it may use %s", paths[i], room, name,
                      hr ? hr : "no room", uses);
            checked++;
        }
        free(text);
    }
    CHECK_MSG(checked > 200, "only %d includes read", checked);
}

/* The Makefile's USES_ lines (what the build enforces) say what the rules
 * above say. */
TEST(rooms_the_makefile_says_the_same)
{
    char *mk = src_slurp("Makefile");
    CHECK(mk != NULL);
    for (size_t i = 0; mk && i < sizeof rooms / sizeof rooms[0]; i++) {
        char key[32], words[256] = "";
        snprintf(key, sizeof key, "\nUSES_%s ", rooms[i].room);
        const char *p = strstr(mk, key);
        CHECK_MSG(p != NULL, "no USES_%s in the Makefile", rooms[i].room);
        if (!p)
            continue;
        p = strchr(p, '=') + 1;
        /* its words, a $(USES_x) standing for x's */
        for (size_t k = 0, line = strcspn(p, "\n"); k < line;) {
            while (k < line && p[k] == ' ')
                k++;
            size_t w = strcspn(p + k, " \n");
            char word[64];
            snprintf(word, sizeof word, "%.*s", (int)w, p + k);
            const char *more = strncmp(word, "$(USES_", 7) == 0 ? word + 7 : NULL;
            if (more) {
                word[strlen(word) - 1] = 0;
                more = uses_of(more);
            }
            if (w)
                snprintf(words + strlen(words), sizeof words - strlen(words), "%s%s",
                         *words ? " " : "", more ? more : word);
            k += w;
        }
        bool same = true;
        for (size_t j = 0; j < sizeof rooms / sizeof rooms[0]; j++)
            same = same && has_word(words, rooms[j].room) == has_word(rooms[i].uses, rooms[j].room);
        CHECK_MSG(same, "USES_%s is \"%s\", the rules say \"%s\"", rooms[i].room, words,
                  rooms[i].uses);
    }
    free(mk);
}

/* Where the code (what is left once comments, strings and preprocessor lines
 * are blanked) calls name( inside a body, as a function of its own (not a
 * part of a longer name); the files, space-separated, into out. */
static void callers(const char *name, char *out, size_t cap)
{
    static char paths[FILES][SRC_PATH_MAX];
    int n = src_list_files("src", "c", paths, FILES);
    size_t len = strlen(name);
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        char *text = src_slurp(paths[i]);
        if (!text)
            continue;
        src_blank_noise(text);
        int depth = 0;
        for (char *p = text; *p; p++) {
            depth += (*p == '{') - (*p == '}');
            if (depth <= 0 || strncmp(p, name, len) != 0 ||
                (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_')))
                continue;
            char *q = p + len;
            while (*q == ' ')
                q++;
            if (*q == '(') { /* a call inside a body: not the definition */
                snprintf(out + strlen(out), cap - strlen(out), "%s%s", *out ? " " : "",
                         paths[i]);
                break;
            }
        }
        free(text);
    }
}

/* One reader: read() is called in the reader alone, but for the pipes and
 * the file named here; curses is never asked for input. One parser: the
 * reader alone feeds it, the loop alone ends a burst, and what the answers
 * say is read in the parser alone. */
TEST(rooms_one_reader_and_one_parser_of_the_terminal)
{
    char got[4096];
    callers("read", got, sizeof got);
    CHECK_MSG(same_words(got, "src/tty/reader.c src/cli/config.c src/tty/probe_io.c "
                              "src/tty/watch.c"),
              "read() in %s: only in the reader (and for the config file, tmux's pipe, the "
              "watcher's wake pipe)", got);
    callers("getch", got, sizeof got);
    CHECK_MSG(!*got, "curses reads input in %s", got);
    callers("wgetch", got, sizeof got);
    CHECK_MSG(!*got, "curses reads input in %s", got);
    callers("input_feed", got, sizeof got);
    CHECK_MSG(strcmp(got, "src/tty/reader.c") == 0, "the parser fed in %s", got);
    callers("input_flush", got, sizeof got);
    CHECK_MSG(strcmp(got, "src/tty/term.c") == 0, "a burst ended in %s", got);
    callers("reader_read", got, sizeof got);
    CHECK_MSG(same_words(got, "src/tty/term.c src/tty/watch.c src/tty/probe_io.c "
                              "src/tty/screen.c"),
              "the reader used in %s (the loop, the watcher, the start-up questions, "
              "the way out)", got);
    static const char *const answers[] = {"answer_csi", "answer_dcs", "answer_apc"};
    for (size_t i = 0; i < 3; i++) {
        callers(answers[i], got, sizeof got);
        CHECK_MSG(strcmp(got, "src/tty/input.c") == 0, "%s called in %s", answers[i], got);
    }
}

/* Files over the sizes, each with why it is left so for now; an entry that
 * no longer holds fails too. */
static const struct {
    const char *path, *why;
} large[] = {
    {"src/cli/cli.c", "cut down on the edges branch (issue 44: --set in cli_set.c), merged next"},
};

static const char *why_large(const char *path)
{
    for (size_t i = 0; i < sizeof large / sizeof large[0]; i++)
        if (strcmp(large[i].path, path) == 0)
            return large[i].why;
    return NULL;
}

/* The longest function body of text (blanked), in lines: from the line of
 * its opening brace to that of its closing one; its first line in *at. */
static int longest_function(const char *text, int *at)
{
    int depth = 0, line = 1, start = 0, most = 0;
    char prev = 0; /* the last character before the brace that was not a space */
    for (const char *p = text; *p; p++) {
        if (*p == '\n')
            line++;
        if (*p == '{' && depth++ == 0 && prev == ')')
            start = line;
        if (*p == '}' && --depth == 0 && start) {
            if (line - start + 1 > most)
                most = line - start + 1, *at = start;
            start = 0;
        }
        if (!isspace((unsigned char)*p))
            prev = *p;
    }
    return most;
}

TEST(rooms_no_file_over_700_lines_no_function_over_80)
{
    static char paths[FILES][SRC_PATH_MAX];
    int n = product_files(paths), read = 0;
    for (int i = 0; i < n; i++) {
        char *text = src_slurp(paths[i]);
        if (!text)
            continue;
        read++;
        int lines = 0;
        for (const char *p = text; *p; p++)
            lines += *p == '\n';
        src_blank_noise(text);
        int at = 0, fn = longest_function(text, &at);
        free(text);
        const char *why = why_large(paths[i]);
        bool over = lines > 700 || fn > 80;
        CHECK_MSG(!over || why, "%s: %d lines, a function of %d at line %d", paths[i], lines,
                  fn, at);
        CHECK_MSG(over || !why, "%s is on the list of large files, and is not: take it off",
                  paths[i]);
    }
    CHECK_MSG(read > 100, "only %d files read", read);
    /* The measure finds a long function. */
    struct buf b;
    buf_init(&b);
    buf_printf(&b, "static int f(void)\n{\n");
    for (int k = 0; k < 85; k++)
        buf_printf(&b, "    x();\n");
    buf_printf(&b, "}\nstruct s { int a; };\n");
    buf_putc(&b, 0);
    int at = 0;
    CHECK_INT(longest_function(b.p, &at), 87);
    CHECK_INT(at, 2);
    buf_free(&b);
}
