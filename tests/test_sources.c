/*
 * test_sources.c — the sources read as text (the tests run at the top of the
 * tree): every function a public header (include/LAYER/NAME.h) declares is
 * called by product code (src/, the bench and the build's tools included,
 * tests/ not) in a file other than the one that defines it. One only a test
 * calls belongs in the module's private header beside its code, one only its
 * own file calls is static (docs/HACKING.md). What is left that way for a
 * reason is in the list below with the reason; an entry that no longer holds
 * (the function is called now, or gone) fails too, so the list stays true.
 *
 * The reading is a C tokenizer's, no more: comments, strings, character
 * constants and preprocessor lines are skipped; a declaration is a name
 * followed by '(' outside any braces and parentheses, in a statement that is
 * not a typedef; a use is a name inside braces (a function's body, a table's
 * initializer).
 */
#include "buf.h"
#include "test.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Public functions no product code outside their own file calls, and why. */
static const struct {
    const char *name, *why;
} allowed[] = {
    {"cloth_colour_bands", "src/sim is being changed (issue 30): to cloth's private header later"},
    {"cloth_project", "src/sim is being changed (issue 30): to cloth's private header later"},
    {"nsearch_candidates", "src/sim is being changed (issue 30): to a private header later"},
    {"nsearch_query", "src/sim is being changed (issue 30): to a private header later"},
    {"fit_block", "src/gfx/fit.c is being changed (issue 30): to a private header later"},
    {"buf_vprintf", "src/core/buf.c is being changed (issue 32): static later"},
    {"buf_vwarn", "src/core/buf.c is being changed (issue 32): static later"},
    {"rng_next", "the generator's step, inline in swirl.h: rng_float, which the product "
                 "calls, is made of it, and the tests draw whole numbers from it"},
};

#define NAMES_MAX 2048
#define FILES_MAX 256

/* A name in a file: a public declaration, or where product code has it. */
struct names {
    char *name[NAMES_MAX];
    int n;
};

static void names_add(struct names *s, const char *p, size_t len)
{
    for (int i = 0; i < s->n; i++)
        if (strlen(s->name[i]) == len && memcmp(s->name[i], p, len) == 0)
            return;
    if (s->n < NAMES_MAX) {
        s->name[s->n] = malloc(len + 1);
        memcpy(s->name[s->n], p, len);
        s->name[s->n++][len] = 0;
    }
}

static bool names_has(const struct names *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->name[i], name) == 0)
            return true;
    return false;
}

static void names_free(struct names *s)
{
    for (int i = 0; i < s->n; i++)
        free(s->name[i]);
    s->n = 0;
}

/* A file's text (malloc'd, NUL-terminated) or NULL. */
static char *slurp(const char *path)
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
static void blank_noise(char *s)
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

static bool is_name_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

static bool keyword(const char *p, size_t len)
{
    static const char *const kw[] = {"if", "while", "for", "switch", "return", "sizeof",
                                     "void", "int", "char", "float", "double", "long",
                                     "unsigned", "__attribute__", "_Alignof", "_Static_assert",
                                     "_Generic", "typeof", "defined"};
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
        if (strlen(kw[i]) == len && memcmp(kw[i], p, len) == 0)
            return true;
    return false;
}

/* A file's declarations (names followed by '(' at the top level, typedefs
 * left out) into decl, and the names it has inside braces into used. */
static void scan(const char *path, struct names *decl, struct names *used)
{
    char *s = slurp(path);
    CHECK_MSG(s != NULL, "cannot read %s", path);
    if (!s)
        return;
    blank_noise(s);
    int braces = 0, parens = 0;
    bool in_typedef = false;
    for (const char *p = s; *p;) {
        if (is_name_char(*p) && !isdigit((unsigned char)*p)) {
            const char *start = p;
            while (is_name_char(*p))
                p++;
            const size_t len = (size_t)(p - start);
            if (braces == 0 && parens == 0 && len == 7 && memcmp(start, "typedef", 7) == 0)
                in_typedef = true;
            const char *q = p;
            while (isspace((unsigned char)*q))
                q++;
            if (braces > 0 && used)
                names_add(used, start, len);
            else if (braces == 0 && parens == 0 && *q == '(' && !in_typedef && decl &&
                     !keyword(start, len))
                names_add(decl, start, len);
            continue;
        }
        if (isdigit((unsigned char)*p)) {
            while (is_name_char(*p))
                p++;
            continue;
        }
        braces += (*p == '{') - (*p == '}');
        parens += (*p == '(') - (*p == ')');
        if (braces == 0 && parens == 0 && (*p == ';' || *p == '}'))
            in_typedef = false;
        p++;
    }
    free(s);
}

#define PATH_MAX_ 1024

/* Whether name ends in ".X" for one of the letters in ends. */
static bool ends_in(const char *name, const char *ends)
{
    const char *dot = strrchr(name, '.');
    return dot && dot != name && dot[1] && !dot[2] && strchr(ends, dot[1]);
}

/* The files in dir and in its folders with a name ending in one of the
 * suffixes (".h", ".c" for "hc"); their number. */
static int list_files(const char *dir, const char *ends, char paths[][PATH_MAX_], int max)
{
    int n = 0;
    DIR *top = opendir(dir);
    CHECK_MSG(top != NULL, "no %s (the tests run at the top of the tree)", dir);
    for (struct dirent *e; top && (e = readdir(top)) != NULL;) {
        char sub[PATH_MAX_ / 2];
        if (e->d_name[0] == '.' ||
            snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name) >= (int)sizeof sub)
            continue;
        DIR *d = opendir(sub);
        if (!d && ends_in(e->d_name, ends) && n < max)
            n += snprintf(paths[n], PATH_MAX_, "%s", sub) < PATH_MAX_;
        for (struct dirent *f; d && (f = readdir(d)) != NULL;)
            if (ends_in(f->d_name, ends) && n < max)
                n += snprintf(paths[n], PATH_MAX_, "%s/%s", sub, f->d_name) < PATH_MAX_;
        if (d)
            closedir(d);
    }
    if (top)
        closedir(top);
    return n;
}

/* The public functions no product file but their own uses, one a line. */
static void unused_public(struct buf *out)
{
    static char headers[FILES_MAX][PATH_MAX_], sources[FILES_MAX][PATH_MAX_];
    const int nh = list_files("include", "h", headers, FILES_MAX);
    const int ns = list_files("src", "ch", sources, FILES_MAX);
    static struct names pub, decl[FILES_MAX], used[FILES_MAX];
    for (int i = 0; i < nh; i++)
        scan(headers[i], &pub, NULL);
    for (int f = 0; f < ns; f++)
        scan(sources[f], &decl[f], &used[f]);
    for (int i = 0; i < pub.n; i++) {
        bool called = false;
        for (int f = 0; f < ns && !called; f++)
            called = names_has(&used[f], pub.name[i]) && !names_has(&decl[f], pub.name[i]);
        if (!called)
            buf_printf(out, "%s\n", pub.name[i]);
    }
    CHECK_MSG(nh > 20 && ns > 40 && pub.n > 200, "%d headers, %d sources, %d functions: not the "
              "tree", nh, ns, pub.n);
    names_free(&pub);
    for (int f = 0; f < ns; f++)
        names_free(&decl[f]), names_free(&used[f]);
}

static bool listed(const char *list, const char *name)
{
    const size_t len = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += len)
        if ((p == list || p[-1] == '\n') && p[len] == '\n')
            return true;
    return false;
}

TEST(sources_every_public_function_has_a_caller_in_the_product)
{
    struct buf list;
    buf_init(&list);
    unused_public(&list);
    buf_putc(&list, 0);
    struct buf bad;
    buf_init(&bad);
    for (const char *p = list.p; *p;) {
        const char *end = strchr(p, '\n');
        bool ok = false;
        for (size_t k = 0; k < sizeof allowed / sizeof allowed[0]; k++)
            ok |= strlen(allowed[k].name) == (size_t)(end - p) &&
                  memcmp(allowed[k].name, p, (size_t)(end - p)) == 0;
        if (!ok)
            buf_printf(&bad, " %.*s", (int)(end - p), p);
        p = end + 1;
    }
    buf_putc(&bad, 0);
    CHECK_MSG(bad.len == 1, "public, but no product code outside its own file calls them (to a "
              "private header, the tests', or static):%s", bad.p);
    buf_free(&bad);
    for (size_t k = 0; k < sizeof allowed / sizeof allowed[0]; k++)
        CHECK_MSG(listed(list.p, allowed[k].name), "%s is allowed (%s), but is called now or "
                  "gone: take it off the list", allowed[k].name, allowed[k].why);
    buf_free(&list);
}

TEST(sources_the_reading_finds_declarations_and_calls)
{
    /* The tokenizer itself, on a file of its own: a declaration, a typedef,
     * a function pointer parameter, a call in a body, names in comments and
     * strings that are neither. */
    char path[64];
    snprintf(path, sizeof path, "/tmp/swirl-sources-%d.c", (int)getpid());
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs("#define LOOKS_LIKE(a) call_in_macro(a) \\\n"
          "    (continued(a))\n"
          "/* commented(1); */ typedef int (*not_a_function)(void);\n"
          "int declared(double (*clock)(void), int x) __attribute__((pure));\n"
          "static inline int inline_one(void) { return called_here(\"quoted(2)\"); }\n"
          "const struct t table[] = {{.f = in_table}};\n"
          "// line_comment(3);\n"
          "char c = '(';\n"
          "int after_char(void);\n",
          f);
    fclose(f);
    struct names decl = {0}, used = {0};
    scan(path, &decl, &used);
    CHECK(names_has(&decl, "declared") && names_has(&decl, "inline_one") &&
          names_has(&decl, "after_char"));
    CHECK(!names_has(&decl, "not_a_function") && !names_has(&decl, "clock") &&
          !names_has(&decl, "commented") && !names_has(&decl, "call_in_macro") &&
          !names_has(&decl, "LOOKS_LIKE") && !names_has(&decl, "line_comment") &&
          !names_has(&decl, "continued"));
    CHECK(names_has(&used, "called_here") && names_has(&used, "in_table"));
    CHECK(!names_has(&used, "quoted") && !names_has(&used, "declared"));
    names_free(&decl);
    names_free(&used);
    remove(path);
}
