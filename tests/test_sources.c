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
 * The same reading gives the calls between the files of src/sim, where no
 * two files may call each other, nor any files call round in a loop: each
 * solver's files call down to the one that holds what they share (pbf_core.c,
 * fluid_core.c), which calls none of them (docs/HACKING.md). And the private
 * headers there are named one way, NAME_internal.h.
 *
 * The reading is a C tokenizer's, no more: comments, strings, character
 * constants and preprocessor lines are skipped; a declaration is a name
 * followed by '(' outside any braces and parentheses, in a statement that is
 * not a typedef, and a definition one whose statement goes on into a body
 * (another file can call it unless it is static); a use is a name inside
 * braces (a function's body, a table's initializer).
 */
#include "buf.h"
#include "srcread.h"
#include "test.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Public functions no product code outside their own file calls, and why. */
static const struct {
    const char *name, *why;
} allowed[] = {
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
 * left out) into decl, those of them with a body and not static (what another
 * file can call) into defined, and the names it has inside braces into used;
 * any of the three may be NULL. */
static void scan(const char *path, struct names *decl, struct names *defined,
                 struct names *used)
{
    char *s = src_slurp(path);
    CHECK_MSG(s != NULL, "cannot read %s", path);
    if (!s)
        return;
    src_blank_noise(s);
    int braces = 0, parens = 0;
    bool in_typedef = false, in_static = false;
    const char *last = NULL; /* the statement's last declaration, if any */
    size_t last_len = 0;
    for (const char *p = s; *p;) {
        if (is_name_char(*p) && !isdigit((unsigned char)*p)) {
            const char *start = p;
            while (is_name_char(*p))
                p++;
            const size_t len = (size_t)(p - start);
            if (braces == 0 && parens == 0 && len == 7 && memcmp(start, "typedef", 7) == 0)
                in_typedef = true;
            if (braces == 0 && parens == 0 && len == 6 && memcmp(start, "static", 6) == 0)
                in_static = true;
            const char *q = p;
            while (isspace((unsigned char)*q))
                q++;
            if (braces > 0 && used)
                names_add(used, start, len);
            else if (braces == 0 && parens == 0 && *q == '(' && !in_typedef &&
                     !keyword(start, len)) {
                if (decl)
                    names_add(decl, start, len);
                last = start, last_len = len;
            }
            continue;
        }
        if (isdigit((unsigned char)*p)) {
            while (is_name_char(*p))
                p++;
            continue;
        }
        if (braces == 0 && parens == 0 && *p == '{' && last && !in_static && defined)
            names_add(defined, last, last_len);
        braces += (*p == '{') - (*p == '}');
        parens += (*p == '(') - (*p == ')');
        if (braces == 0 && parens == 0 && (*p == ';' || *p == '}'))
            in_typedef = false, in_static = false, last = NULL;
        p++;
    }
    free(s);
}


/* What a reading of the tree found: the public functions no product code
 * outside their own file calls, and how much it read. */
#define UNUSED_MAX 64
struct unused {
    int n;
    char name[UNUSED_MAX][64];
    char own[UNUSED_MAX][SRC_PATH_MAX]; /* the file defining it when it calls it there, or "" */
    int headers, sources, functions;
};

/*
 * The functions the headers under inc declare that no product file under src
 * calls but the one defining it, in the order read. Product code is every
 * file under src, the bench's (src/bench) and the build's tools (src/tools)
 * included: they are programs of the tree, built on the public headers alone,
 * so what they call must be public; tests/ is not read. A call is the name
 * inside the braces of a file that does not declare it at the top level
 * itself: the defining file's own calls are none (what its file alone calls
 * is static), nor are those of a file with a static function of the same name.
 */
static void unused_public(const char *inc, const char *src, struct unused *u)
{
    static char headers[FILES_MAX][SRC_PATH_MAX], sources[FILES_MAX][SRC_PATH_MAX];
    static struct names pub, decl[FILES_MAX], defined[FILES_MAX], used[FILES_MAX];
    const int nh = src_list_files(inc, "h", headers, FILES_MAX);
    const int ns = src_list_files(src, "ch", sources, FILES_MAX);
    for (int i = 0; i < nh; i++)
        scan(headers[i], &pub, NULL, NULL);
    for (int f = 0; f < ns; f++)
        scan(sources[f], &decl[f], &defined[f], &used[f]);
    u->n = 0;
    for (int i = 0; i < pub.n; i++) {
        const char *name = pub.name[i];
        bool called = false;
        int own = -1;
        for (int f = 0; f < ns && !called; f++) {
            if (names_has(&defined[f], name) && names_has(&used[f], name))
                own = f;
            called = names_has(&used[f], name) && !names_has(&decl[f], name);
        }
        if (called)
            continue;
        CHECK_MSG(u->n < UNUSED_MAX, "more than %d unused: UNUSED_MAX is too small", UNUSED_MAX);
        if (u->n < UNUSED_MAX) {
            snprintf(u->name[u->n], sizeof u->name[0], "%s", name);
            snprintf(u->own[u->n], sizeof u->own[0], "%s", own >= 0 ? sources[own] : "");
            u->n++;
        }
    }
    u->headers = nh, u->sources = ns, u->functions = pub.n;
    names_free(&pub);
    for (int f = 0; f < ns; f++)
        names_free(&decl[f]), names_free(&defined[f]), names_free(&used[f]);
}

/* Where name is in u, or -1. */
static int unused_at(const struct unused *u, const char *name)
{
    for (int i = 0; i < u->n; i++)
        if (strcmp(u->name[i], name) == 0)
            return i;
    return -1;
}

TEST(sources_every_public_function_has_a_caller_in_the_product)
{
    static struct unused u;
    unused_public("include", "src", &u);
    struct buf bad;
    buf_init(&bad);
    for (int i = 0; i < u.n; i++) {
        bool ok = false;
        for (size_t k = 0; k < sizeof allowed / sizeof allowed[0]; k++)
            ok |= strcmp(allowed[k].name, u.name[i]) == 0;
        if (!ok && u.own[i][0])
            buf_printf(&bad, "\n  %s: only %s calls it (static there, or in the private "
                       "header beside it if a test calls it too)", u.name[i], u.own[i]);
        else if (!ok)
            buf_printf(&bad, "\n  %s: no product code calls it (if a test does, to the private "
                       "header beside its code, src/LAYER/MODULE_internal.h)", u.name[i]);
    }
    buf_putc(&bad, 0);
    CHECK_MSG(bad.len == 1, "public, but no product code outside its own file calls them:%s",
              bad.p);
    buf_free(&bad);
    for (size_t k = 0; k < sizeof allowed / sizeof allowed[0]; k++)
        CHECK_MSG(unused_at(&u, allowed[k].name) >= 0, "%s is allowed (%s), but is called now "
                  "or gone: take it off the list", allowed[k].name, allowed[k].why);
    CHECK_MSG(u.headers > 20 && u.sources > 40 && u.functions > 200, "%d headers, %d sources, "
              "%d functions: not the tree", u.headers, u.sources, u.functions);
}

/* Writes text to dir/name. */
static void write_file(const char *dir, const char *name, const char *text)
{
    char path[SRC_PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CHECK_MSG(f != NULL, "cannot write %s", path);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

TEST(sources_the_reading_finds_public_functions_no_product_code_calls)
{
    /* A tree of its own: m.h declares eight functions, m.c defines them.
     * Called from another file: called (other.c's body), by_table (other.c's
     * table), by_bench and by_tool (the bench's and the tools' programs are
     * product code). Not: own_only (m.c alone calls it), tests_only (nobody:
     * a test would), in_words (named in other.c's comment and string only),
     * shadowed (shadow.c calls a static function of its own by that name). */
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/swirl-public-%d", (int)getpid());
    static const char *const dirs[] = {"", "/include", "/include/l", "/src", "/src/l",
                                       "/src/bench", "/src/tools"};
    static const char *const files[][2] = {
        {"include/l/m.h", "int called(void);\nint own_only(void);\nint tests_only(void);\n"
                          "int in_words(void);\nint by_table(int x);\nint by_bench(void);\n"
                          "int by_tool(void);\nint shadowed(void);\n"},
        {"src/l/m.c", "#include \"m.h\"\nint called(void) { return own_only(); }\n"
                      "int own_only(void) { return 1; }\nint tests_only(void) { return 2; }\n"
                      "int in_words(void) { return 3; }\nint by_table(int x) { return x; }\n"
                      "int by_bench(void) { return 4; }\nint by_tool(void) { return 5; }\n"
                      "int shadowed(void) { return 6; }\n"},
        {"src/l/other.c", "#include \"m.h\"\n/* in_words() */\n"
                          "const char *words = \"in_words()\";\n"
                          "int (*const table[])(int) = {by_table};\n"
                          "int use(void) { return called(); }\n"},
        {"src/l/shadow.c", "static int shadowed(void) { return 0; }\n"
                           "int shadow(void) { return shadowed(); }\n"},
        {"src/bench/b.c", "#include \"m.h\"\nint main(void) { return by_bench(); }\n"},
        {"src/tools/t.c", "#include \"m.h\"\nint main(void) { return by_tool(); }\n"},
    };
    const size_t ndirs = sizeof dirs / sizeof dirs[0], nfiles = sizeof files / sizeof files[0];
    char path[SRC_PATH_MAX], inc[SRC_PATH_MAX], src[SRC_PATH_MAX];
    for (size_t k = 0; k < ndirs; k++) {
        snprintf(path, sizeof path, "%s%s", dir, dirs[k]);
        CHECK_MSG(mkdir(path, 0700) == 0, "cannot make %s", path);
    }
    for (size_t k = 0; k < nfiles; k++)
        write_file(dir, files[k][0], files[k][1]);
    snprintf(inc, sizeof inc, "%s/include", dir);
    snprintf(src, sizeof src, "%s/src", dir);
    static struct unused u;
    unused_public(inc, src, &u);
    struct buf got;
    buf_init(&got);
    for (int i = 0; i < u.n; i++)
        buf_printf(&got, " %s(%s)", u.name[i], u.own[i]);
    buf_putc(&got, 0);
    CHECK_MSG(u.n == 4, "unused:%s", got.p);
    snprintf(path, sizeof path, "%s/src/l/m.c", dir);
    const int own = unused_at(&u, "own_only");
    CHECK_MSG(own >= 0 && strcmp(u.own[own], path) == 0, "own_only: unused:%s", got.p);
    static const char *const nobody[] = {"tests_only", "in_words", "shadowed"};
    for (size_t k = 0; k < sizeof nobody / sizeof nobody[0]; k++) {
        const int i = unused_at(&u, nobody[k]);
        CHECK_MSG(i >= 0 && u.own[i][0] == 0, "%s: unused:%s", nobody[k], got.p);
    }
    CHECK_INT(u.headers, 1);
    CHECK_INT(u.sources, 5);
    CHECK_INT(u.functions, 8);
    buf_free(&got);
    for (size_t k = 0; k < nfiles; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[k][0]);
        remove(path);
    }
    for (size_t k = ndirs; k-- > 0;) {
        snprintf(path, sizeof path, "%s%s", dir, dirs[k]);
        rmdir(path);
    }
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
          "int after_char(void);\n"
          "int body(int x) { return x; }\n",
          f);
    fclose(f);
    struct names decl = {0}, defined = {0}, used = {0};
    scan(path, &decl, &defined, &used);
    CHECK(names_has(&decl, "declared") && names_has(&decl, "inline_one") &&
          names_has(&decl, "after_char"));
    CHECK(names_has(&defined, "body") && defined.n == 1);
    CHECK(!names_has(&decl, "not_a_function") && !names_has(&decl, "clock") &&
          !names_has(&decl, "commented") && !names_has(&decl, "call_in_macro") &&
          !names_has(&decl, "LOOKS_LIKE") && !names_has(&decl, "line_comment") &&
          !names_has(&decl, "continued"));
    CHECK(names_has(&used, "called_here") && names_has(&used, "in_table"));
    CHECK(!names_has(&used, "quoted") && !names_has(&used, "declared"));
    names_free(&decl);
    names_free(&defined);
    names_free(&used);
    remove(path);
}

/* ---- the calls between the files of src/sim ---------------------------------- */

#define GRAPH_MAX 64

/* The .c files of a folder (sorted) and which calls which: calls[a][b] is a
 * function file b defines that file a calls, NULL when a calls none. */
struct graph {
    int n;
    char path[GRAPH_MAX][SRC_PATH_MAX];
    char *calls[GRAPH_MAX][GRAPH_MAX];
};

static int by_path(const void *a, const void *b) { return strcmp(a, b); }

/* The headers' declarations under each of dirs (NULL-terminated) into
 * callable: what one file can call of another (a static function never is). */
static void callable_names(const char *const *dirs, struct names *callable)
{
    static char headers[FILES_MAX][SRC_PATH_MAX];
    for (; *dirs; dirs++) {
        const int nh = src_list_files(*dirs, "h", headers, FILES_MAX);
        for (int i = 0; i < nh; i++)
            scan(headers[i], callable, NULL, NULL);
    }
    CHECK_MSG(callable->n < NAMES_MAX, "more than %d functions in the headers", NAMES_MAX - 1);
}

/* The graph of dir's .c files: file a calls file b when it uses a name that it
 * does not declare itself, that b defines and that callable holds. */
static void call_graph(const char *dir, const struct names *callable, struct graph *g)
{
    static struct names decl[GRAPH_MAX], defined[GRAPH_MAX], used[GRAPH_MAX];
    g->n = src_list_files(dir, "c", g->path, GRAPH_MAX);
    CHECK_MSG(g->n < GRAPH_MAX, "%d files or more in %s: GRAPH_MAX is too small", g->n, dir);
    qsort(g->path, (size_t)g->n, sizeof g->path[0], by_path);
    for (int a = 0; a < g->n; a++)
        scan(g->path[a], &decl[a], &defined[a], &used[a]);
    for (int a = 0; a < g->n; a++)
        for (int b = 0; b < g->n; b++) {
            g->calls[a][b] = NULL;
            for (int k = 0; a != b && k < used[a].n && !g->calls[a][b]; k++) {
                const char *name = used[a].name[k];
                if (!names_has(&decl[a], name) && names_has(&defined[b], name) &&
                    names_has(callable, name))
                    g->calls[a][b] = strdup(name);
            }
        }
    for (int a = 0; a < g->n; a++)
        names_free(&decl[a]), names_free(&defined[a]), names_free(&used[a]);
}

static void graph_free(struct graph *g)
{
    for (int a = 0; a < g->n; a++)
        for (int b = 0; b < g->n; b++)
            free(g->calls[a][b]);
    g->n = 0;
}

static int graph_edges(const struct graph *g)
{
    int n = 0;
    for (int a = 0; a < g->n; a++)
        for (int b = 0; b < g->n; b++)
            n += g->calls[a][b] != NULL;
    return n;
}

/* The loops of calls in g, one a line, each the shortest back to a file not
 * yet on a loop told: "A calls B (f), which calls A (g)". */
static void call_loops(const struct graph *g, struct buf *out)
{
    bool told[GRAPH_MAX] = {false};
    for (int a = 0; a < g->n; a++) {
        if (told[a])
            continue;
        int parent[GRAPH_MAX], queue[GRAPH_MAX], head = 0, tail = 0, last = -1;
        for (int i = 0; i < g->n; i++)
            parent[i] = -1;
        queue[tail++] = a;
        while (head < tail && last < 0) { /* breadth first: the shortest way back */
            const int x = queue[head++];
            for (int y = 0; y < g->n && last < 0; y++) {
                if (!g->calls[x][y])
                    continue;
                if (y == a)
                    last = x;
                else if (parent[y] < 0) {
                    parent[y] = x;
                    queue[tail++] = y;
                }
            }
        }
        if (last < 0)
            continue;
        int way[GRAPH_MAX], len = 0; /* last, ..., a: the loop backwards */
        for (int x = last; x != a; x = parent[x])
            way[len++] = x;
        way[len++] = a;
        buf_printf(out, "%s", g->path[a]);
        for (int k = len - 1; k >= 0; k--) {
            const int from = way[k], to = k > 0 ? way[k - 1] : a;
            buf_printf(out, "%s %s (%s)", k == len - 1 ? " calls" : ", which calls",
                       g->path[to], g->calls[from][to]);
            told[from] = true;
        }
        buf_putc(out, '\n');
    }
}

TEST(sources_no_files_of_src_sim_call_each_other)
{
    static const char *const dirs[] = {"include", "src", NULL};
    static struct graph g;
    struct names callable = {0};
    callable_names(dirs, &callable);
    call_graph("src/sim", &callable, &g);
    struct buf loops;
    buf_init(&loops);
    call_loops(&g, &loops);
    buf_putc(&loops, 0);
    CHECK_MSG(loops.len == 1, "files of src/sim that call each other, the shortest way round "
              "(what a solver's files share belongs in the one they all call, NAME_core.c, "
              "which calls none of them):\n%s", loops.p);
    const int edges = graph_edges(&g);
    CHECK_MSG(g.n > 12 && edges > 12 && callable.n > 200, "%d files, %d calls between them, "
              "%d functions in the headers: not the tree", g.n, edges, callable.n);
    buf_free(&loops);
    graph_free(&g);
    names_free(&callable);
}

TEST(sources_the_call_graph_finds_a_loop)
{
    /* a calls b (mid) and d (dd), b calls c (low), c calls a (top): one loop of
     * three. d calls a top of its own (a static), which is no call to a. */
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/swirl-calls-%d", (int)getpid());
    CHECK(mkdir(dir, 0700) == 0);
    write_file(dir, "calls.h", "int top(void);\nint mid(int x);\nint low(void);\n"
                               "int other(void);\nint dd(void);\n");
    write_file(dir, "a.c", "#include \"calls.h\"\nint top(void) { return mid(dd()); }\n");
    write_file(dir, "b.c", "int mid(int x) { return x + low(); }\n");
    write_file(dir, "c.c", "int low(void) { return 0; }\nint other(void) { return top(); }\n");
    write_file(dir, "d.c", "static int top(void);\nint dd(void) { return top(); }\n"
                           "static int top(void) { return 3; }\n");
    const char *const dirs[] = {dir, NULL};
    static struct graph g;
    struct names callable = {0};
    callable_names(dirs, &callable);
    call_graph(dir, &callable, &g);
    struct buf loops, want;
    buf_init(&loops);
    buf_init(&want);
    call_loops(&g, &loops);
    buf_putc(&loops, 0);
    buf_printf(&want, "%s/a.c calls %s/b.c (mid), which calls %s/c.c (low), which calls "
               "%s/a.c (top)\n", dir, dir, dir, dir);
    CHECK_MSG(strcmp(loops.p, want.p) == 0, "loops:\n%s", loops.p);
    CHECK_INT(graph_edges(&g), 4);
    graph_free(&g);

    /* c no longer calls a: no loop. */
    write_file(dir, "c.c", "int low(void) { return 0; }\nint other(void) { return 1; }\n");
    call_graph(dir, &callable, &g);
    loops.len = 0;
    call_loops(&g, &loops);
    CHECK_MSG(loops.len == 0, "loops: %.*s", (int)loops.len, loops.p);
    CHECK_INT(graph_edges(&g), 3);
    graph_free(&g);
    buf_free(&loops);
    buf_free(&want);
    names_free(&callable);
    static const char *const files[] = {"calls.h", "a.c", "b.c", "c.c", "d.c"};
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        char path[SRC_PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, files[k]);
        remove(path);
    }
    rmdir(dir);
}

/* The headers of src/sim not named NAME_internal.h, and why. */
static const struct {
    const char *name, *why;
} sim_headers[] = {
    {"simd.h", "the vector layer itself (simd.c beside it), as pool.h is the threads: "
               "not the internals of a module with a public header"},
    {"cloth_grid_lanes.h", "no header but a part of cloth_grid.c, included there once per "
                           "vector width"},
    {"pbf_density_lanes.h", "no header but a part of pbf_density.c, included there once per "
                            "vector width"},
};

TEST(sources_private_headers_of_src_sim_are_named_name_internal)
{
    static char headers[FILES_MAX][SRC_PATH_MAX];
    const int nh = src_list_files("src/sim", "h", headers, FILES_MAX);
    const char *const suffix = "_internal.h";
    bool seen[sizeof sim_headers / sizeof sim_headers[0]] = {false};
    for (int i = 0; i < nh; i++) {
        const char *name = strrchr(headers[i], '/') + 1;
        const size_t len = strlen(name), sl = strlen(suffix);
        bool ok = len > sl && strcmp(name + len - sl, suffix) == 0;
        for (size_t k = 0; k < sizeof sim_headers / sizeof sim_headers[0]; k++)
            if (strcmp(name, sim_headers[k].name) == 0)
                ok = seen[k] = true;
        CHECK_MSG(ok, "%s: a private header of src/sim is named NAME_internal.h (NAME the "
                  "module it belongs to, sim for the layer's own)", headers[i]);
    }
    for (size_t k = 0; k < sizeof sim_headers / sizeof sim_headers[0]; k++)
        CHECK_MSG(seen[k], "src/sim/%s is allowed (%s), but gone: take it off the list",
                  sim_headers[k].name, sim_headers[k].why);
    CHECK_MSG(nh > 4, "%d headers in src/sim: not the tree", nh);
}
