/*
 * test_usage.c — --help's text and the shells' completions written from the
 * same option table (cli.h), and the man page beside them: --help's lines fit
 * 80 columns; bash, zsh and fish, each running the script make installs for
 * it, offer exactly the options --help lists, and after an option values that
 * swirl's parser takes; the man page describes every one of them, and its
 * scenes, like the build's loops over them, come from ./swirl --list-scenes.
 * bash runs the completion function itself; fish answers `complete -C`; zsh,
 * which completes only in its line editor, runs the script with a stand-in for
 * _arguments that prints the specifications zsh parsed. A shell that is not
 * installed is skipped. The version's agreement is test_release.c's.
 */
#include "cli.h"
#include "cli_options.h"
#include "e2e.h"
#include "param.h"
#include "scene.h"
#include "fixtures.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WORDS_MAX 128

struct words {
    char w[WORDS_MAX][64];
    int n;
};

static void words_add(struct words *ws, const char *s, size_t len)
{
    for (int i = 0; i < ws->n; i++)
        if (strlen(ws->w[i]) == len && strncmp(ws->w[i], s, len) == 0)
            return;
    CHECK_MSG(ws->n < WORDS_MAX && len < sizeof ws->w[0], "a word too many or too long: %.*s",
              (int)len, s);
    if (ws->n < WORDS_MAX && len < sizeof ws->w[0]) {
        memcpy(ws->w[ws->n], s, len);
        ws->w[ws->n++][len] = 0;
    }
}

static bool words_has(const struct words *ws, const char *s)
{
    for (int i = 0; i < ws->n; i++)
        if (strcmp(ws->w[i], s) == 0)
            return true;
    return false;
}

/* The same words, in any order; the difference is reported. */
static void check_same(const char *what, const struct words *got, const struct words *want)
{
    CHECK_MSG(got->n > 0, "%s: no words at all", what);
    for (int i = 0; i < want->n; i++)
        CHECK_MSG(words_has(got, want->w[i]), "%s: %s is missing", what, want->w[i]);
    for (int i = 0; i < got->n; i++)
        CHECK_MSG(words_has(want, got->w[i]), "%s: %s is not in --help", what, got->w[i]);
}

/* The options --help lists: the words starting with '-' before an option's
 * help, on the lines that start with "  -". */
static struct words help_options(void)
{
    struct words ws = {0};
    char *help = fx_help_text();
    for (char *line = help; *line;) {
        char *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line) : strlen(line);
        for (char *p = line + 2; strncmp(line, "  -", 3) == 0 && *p == '-';) {
            size_t n = strcspn(p, " ,\n");
            words_add(&ws, p, n);
            p += n;
            p += *p == ',' ? 2 : 0; /* "-h, --help" */
        }
        line += len + (eol != NULL);
    }
    free(help);
    return ws;
}

/* One of the install's scripts (make writes them the same way) in a file of
 * its own; the file's name into path. */
static void script(const char *shell, char *path, size_t n)
{
    struct buf b;
    buf_init(&b);
    CHECK_INT(cli_completion(shell, &b), 0);
    snprintf(path, n, "/tmp/swirl-completion-%d.%s", (int)getpid(), shell);
    FILE *f = fopen(path, "w");
    CHECK(f && fwrite(b.p, 1, b.len, f) == b.len);
    if (f)
        fclose(f);
    buf_free(&b);
}

/* What cmd prints (malloc'd), and whether it ran to a zero status. */
static char *run_output(const char *cmd, bool *ok)
{
    struct buf b;
    buf_init(&b);
    FILE *p = popen(cmd, "r");
    char chunk[4096];
    size_t n;
    while (p && (n = fread(chunk, 1, sizeof chunk, p)) > 0)
        buf_put(&b, chunk, n);
    buf_putc(&b, 0);
    *ok = p && pclose(p) == 0;
    return b.p;
}

/* What cmd prints, as words (split at white space, or at lines with
 * by_line, a tab ending the word there). */
static struct words run_words(const char *cmd, bool by_line)
{
    struct words ws = {0};
    bool ok;
    char *out = run_output(cmd, &ok);
    for (char *s = out; *s;) {
        size_t len = by_line ? strcspn(s, "\t\n") : strcspn(s, " \t\n");
        if (len)
            words_add(&ws, s, len);
        s += len;
        s += by_line ? strcspn(s, "\n") : 0;
        s += strspn(s, " \t\n");
    }
    CHECK_MSG(ok, "%s failed", cmd);
    free(out);
    return ws;
}

static void need(const char *shell)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", shell);
    if (system(cmd) != 0) {
        snprintf(cmd, sizeof cmd, "no %s", shell);
        test_skip(cmd);
    }
}

/* swirl's parser takes "--opt value" (after --scene pbf, so that --preset has
 * its scene). */
static bool swirl_takes(const char *opt, const char *value)
{
    char *argv[] = {"swirl", "--scene", "pbf", (char *)opt, (char *)value};
    bool scene = strcmp(opt, "--scene") == 0;
    struct cli c;
    char err[512];
    return cli_parse(&c, scene ? 3 : 5, scene ? argv + 2 : argv, err, sizeof err) == 0;
}

TEST(cli_help_fits_80_columns_and_lists_every_key)
{
    char *help = fx_help_text();
    int line = 1;
    for (char *s = help; *s; line++) {
        size_t len = strcspn(s, "\n");
        CHECK_MSG(len <= 80, "--help line %d is %zu columns: %.*s", line, len, (int)len, s);
        for (size_t i = 0; i < len; i++)
            CHECK_MSG((unsigned char)s[i] < 0x80, "--help line %d: not ASCII", line);
        s += len + (s[len] == '\n');
    }
    CHECK(line > 40);
    CHECK(strstr(help, "Shift-Tab") != NULL);
    free(help);
    struct words ws = help_options();
    CHECK(words_has(&ws, "--threads") && words_has(&ws, "-h") && words_has(&ws, "--version"));
}

/* A completion in bash: the words of COMP_WORDS after "swirl", the last the
 * one being completed. */
static struct words bash_complete(const char *path, const char *words)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "bash --norc --noprofile -c '. %s && COMP_WORDS=(swirl %s) && "
             "COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) && _swirl && "
             "printf \"%%s\\n\" \"${COMPREPLY[@]}\"'", path, words);
    return run_words(cmd, true);
}

TEST(completion_bash_offers_the_options_of_help_and_values_swirl_takes)
{
    need("bash");
    char path[128];
    script("bash", path, sizeof path);
    struct words want = help_options(), got = bash_complete(path, "\"\"");
    check_same("bash, swirl <Tab>", &got, &want);
    got = bash_complete(path, "--no");
    CHECK_INT(got.n, 3);
    CHECK(words_has(&got, "--no-sync") && words_has(&got, "--no-config"));
    /* Values: each one swirl takes, every scene there; --scene=, as bash
     * splits it, too. */
    got = bash_complete(path, "--scene \"\"");
    CHECK_INT(got.n, SCENE_COUNT);
    for (int i = 0; i < SCENE_COUNT; i++)
        CHECK_MSG(words_has(&got, scenes[i]->name), "no %s", scenes[i]->name);
    struct words eq = bash_complete(path, "--scene = p");
    CHECK(eq.n == 1 && strcmp(eq.w[0], "pbf") == 0);
    const char *valued[] = {"--scene", "--color", "--glyphs", "--preset"};
    for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++) {
        char words[64];
        snprintf(words, sizeof words, "%s \"\"", valued[k]);
        got = bash_complete(path, words);
        CHECK_MSG(got.n > 0, "nothing after %s", valued[k]);
        for (int i = 0; i < got.n; i++)
            CHECK_MSG(swirl_takes(valued[k], got.w[i]), "swirl refuses %s %s", valued[k],
                      got.w[i]);
    }
    got = bash_complete(path, "--color \"\"");
    CHECK(words_has(&got, "truecolor") && words_has(&got, "mono") && words_has(&got, "auto"));
    /* A number: nothing; a recording: files. */
    got = bash_complete(path, "--fps \"\"");
    CHECK_INT(got.n, 0);
    got = bash_complete(path, "--record tests/mutants.t");
    CHECK(got.n == 1 && strcmp(got.w[0], "tests/mutants.txt") == 0);
    remove(path);
}

TEST(completion_fish_offers_the_options_of_help_and_values_swirl_takes)
{
    need("fish");
    char path[128], cmd[512];
    script("fish", path, sizeof path);
    struct words want = help_options();
    snprintf(cmd, sizeof cmd, "fish --no-config -c 'source %s; complete -C\"swirl -\"'", path);
    struct words got = run_words(cmd, true);
    check_same("fish, swirl -<Tab>", &got, &want);
    snprintf(cmd, sizeof cmd, "fish --no-config -c 'source %s; complete -C\"swirl --glyphs \"'",
             path);
    got = run_words(cmd, true);
    CHECK_INT(got.n, 8); /* auto, half, quad, sextant, ascii, pixels, kitty, sixel */
    for (int i = 0; i < got.n; i++)
        CHECK_MSG(swirl_takes("--glyphs", got.w[i]), "swirl refuses --glyphs %s", got.w[i]);
    /* Descriptions are --help's own words; a number offers no file. */
    snprintf(cmd, sizeof cmd, "fish --no-config -c 'source %s; complete -C\"swirl --pre\"'",
             path);
    got = run_words(cmd, false);
    char *help = fx_help_text();
    CHECK(words_has(&got, "--preset") && words_has(&got, "page's") && strstr(help, "page's"));
    free(help);
    snprintf(cmd, sizeof cmd, "cd tests && fish --no-config -c 'source %s; "
             "complete -C\"swirl --fps \"'", path);
    got = run_words(cmd, true);
    CHECK_INT(got.n, 0);
    remove(path);
}

/* The words a completion after --set should offer (the first scene being
 * first): help, SCENE:help, NAME= of the first scene's parameters and
 * SCENE:NAME= of every scene's, each as --set help names them. */
static struct words set_words(int first)
{
    struct words ws = {0};
    words_add(&ws, "help", 4);
    for (int i = 0; i < SCENE_COUNT; i++) {
        char w[64];
        int n = snprintf(w, sizeof w, "%s:help", scenes[i]->name);
        words_add(&ws, w, (size_t)n);
        for (int k = 0; k < scenes[i]->nparams; k++) {
            char name[48];
            param_name(&scenes[i]->params[k], name, sizeof name);
            n = snprintf(w, sizeof w, "%s:%s=", scenes[i]->name, name);
            words_add(&ws, w, (size_t)n);
            if (i == first)
                words_add(&ws, w + strlen(scenes[i]->name) + 1, strlen(name) + 1);
        }
    }
    return ws;
}

/* A --set word offered after `--scene first`: help words swirl takes as they
 * are, a NAME= whose parameter its scene has. */
static bool set_word_known(int first, const char *w)
{
    char set[96], *argv[] = {"swirl", "--scene", (char *)scenes[first]->name, "--set", set};
    size_t n = strlen(w);
    if (n > 0 && w[n - 1] != '=') {
        struct cli c;
        char err[512];
        snprintf(set, sizeof set, "%s", w);
        return cli_parse(&c, 5, argv, err, sizeof err) == 0 && c.run == CLI_SET_HELP;
    }
    const char *colon = strchr(w, ':');
    char scene[32] = "";
    if (colon)
        snprintf(scene, sizeof scene, "%.*s", (int)(colon - w), w);
    int s = colon ? scene_find(scene) : first;
    snprintf(set, sizeof set, "%.*s", (int)(n - 1 - (colon ? (size_t)(colon + 1 - w) : 0)),
             colon ? colon + 1 : w);
    return s >= 0 && scene_param_find(scenes[s], set) >= 0;
}

/* The option's description as a completion should show it: its --help text
 * whole, its lines joined by a blank. */
static void whole_help(int opt, char *out, size_t n)
{
    struct buf b;
    buf_init(&b);
    cli_text(&b, cli_options[opt].help);
    buf_putc(&b, 0);
    size_t k = 0;
    for (const char *p = b.p; *p && k + 1 < n; p++)
        out[k++] = *p == '\n' ? ' ' : *p;
    while (k > 0 && out[k - 1] == ' ')
        k--;
    out[k] = 0;
    buf_free(&b);
}

/* bash with the line typed so far (COMP_LINE, as bash sets it), its words
 * split at blanks: what _swirl offers. */
static struct words bash_line(const char *path, const char *line)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "bash --norc --noprofile -c '. %s && COMP_LINE=\"%s\" && COMP_POINT=${#COMP_LINE} "
             "&& read -ra COMP_WORDS <<<\"$COMP_LINE\" && COMP_WORDS+=(\"\") && "
             "COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) && _swirl && "
             "printf \"%%s\\n\" \"${COMPREPLY[@]}\"'", path, line);
    return run_words(cmd, true);
}

TEST(completion_set_offers_scenes_and_parameters_in_every_shell)
{
    /* After --set: help, SCENE:help, the first scene's NAME= and every
     * scene's SCENE:NAME=, each a word swirl takes; after a part of one,
     * the names it begins (what bash replaces: after the ':'). */
    char path[128], cmd[512];
    int cloth = scene_find("cloth"), pbf = scene_find("pbf");
    struct words want = set_words(0), want_cloth = set_words(cloth), got;
    if (system("command -v bash >/dev/null 2>&1") == 0) {
        script("bash", path, sizeof path);
        got = bash_line(path, "swirl --set ");
        check_same("bash, swirl --set <Tab>", &got, &want);
        for (int i = 0; i < got.n; i++)
            CHECK_MSG(set_word_known(0, got.w[i]), "bash offers --set %s", got.w[i]);
        got = bash_line(path, "swirl --scene cloth --set ");
        check_same("bash, swirl --scene cloth --set <Tab>", &got, &want_cloth);
        got = bash_line(path, "swirl --scene cloth --set tea");
        CHECK(got.n == 2 && words_has(&got, "tearing=") && words_has(&got, "tear-strain="));
        got = bash_line(path, "swirl --set cloth:tea");
        CHECK(got.n == 2 && words_has(&got, "tearing=") && words_has(&got, "tear-strain="));
        got = bash_line(path, "swirl --scene=pbf --set=max-i");
        CHECK(got.n == 1 && words_has(&got, "max-iterations="));
        remove(path);
    }
    if (system("command -v fish >/dev/null 2>&1") == 0) {
        script("fish", path, sizeof path);
        snprintf(cmd, sizeof cmd, "fish --no-config -c 'source %s; complete -C\"swirl --set \"'",
                 path);
        got = run_words(cmd, true);
        check_same("fish, swirl --set <Tab>", &got, &want);
        snprintf(cmd, sizeof cmd, "fish --no-config -c 'source %s; "
                 "complete -C\"swirl --scene cloth --set \"'", path);
        got = run_words(cmd, true);
        check_same("fish, swirl --scene cloth --set <Tab>", &got, &want_cloth);
        snprintf(cmd, sizeof cmd, "fish --no-config -c 'source %s; "
                 "complete -C\"swirl --set pbf:max-i\"'", path);
        got = run_words(cmd, true);
        CHECK(got.n == 1 && words_has(&got, "pbf:max-iterations="));
        remove(path);
    }
    if (system("command -v zsh >/dev/null 2>&1") == 0) {
        /* zsh completes in its line editor alone: its _swirl_set, with a
         * stand-in compadd that prints what it is given. */
        script("zsh", path, sizeof path);
        snprintf(cmd, sizeof cmd, "zsh -f -c '_arguments() { :; }; compadd() { "
                 "[[ $1 == -S ]] && shift 2; [[ $1 == -- ]] && shift; printf \"%%s\\n\" \"$@\"; }; "
                 "source %s; words=(swirl --scene=pbf --set \"\"); _swirl_set'", path);
        got = run_words(cmd, true);
        struct words want_pbf = set_words(pbf);
        check_same("zsh, swirl --scene=pbf --set <Tab>", &got, &want_pbf);
        remove(path);
    }
}

TEST(completion_descriptions_are_whole)
{
    /* zsh's and fish's description of each option is its --help text whole
     * (a wrapped line once cut it: "print the scenes, one a line: its name,
     * then what it"). */
    char path[128], cmd[512];
    if (system("command -v zsh >/dev/null 2>&1") == 0) {
        script("zsh", path, sizeof path);
        snprintf(cmd, sizeof cmd, "zsh -f -c '_arguments() { printf \"%%s\\n\" \"$@\"; }; "
                 "source %s'", path);
        bool ok;
        char *specs = run_output(cmd, &ok);
        CHECK_MSG(ok, "%s", cmd);
        for (int i = 0; i < OPT_COUNT; i++) {
            char want[1024], quoted[1100], at[1200];
            whole_help(i, want, sizeof want);
            size_t k = 0; /* brackets in a specification's description take a backslash */
            for (const char *p = want; *p && k + 2 < sizeof quoted; p++) {
                if (*p == '[' || *p == ']' || *p == '\\')
                    quoted[k++] = '\\';
                quoted[k++] = *p;
            }
            quoted[k] = 0;
            snprintf(at, sizeof at, "--%s%s[%s]", cli_options[i].name,
                     cli_options[i].value ? "=" : "", quoted);
            CHECK_MSG(strstr(specs, at), "zsh lacks %s", at);
        }
        free(specs);
        remove(path);
    }
    if (system("command -v fish >/dev/null 2>&1") == 0) {
        script("fish", path, sizeof path);
        snprintf(cmd, sizeof cmd, "fish --no-config -c 'source %s; complete -C\"swirl --\"'",
                 path);
        bool ok;
        char *got = run_output(cmd, &ok);
        CHECK_MSG(ok, "%s", cmd);
        for (int i = 0; i < OPT_COUNT; i++) {
            char want[1024], line[1100];
            whole_help(i, want, sizeof want);
            snprintf(line, sizeof line, "--%s\t%s\n", cli_options[i].name, want);
            CHECK_MSG(strstr(got, line), "fish: wanted %s, got %s", line, got);
        }
        free(got);
        remove(path);
    }
}

/* zsh: the specifications _arguments gets, one a line, as zsh parsed them. */
TEST(completion_zsh_offers_the_options_of_help_and_values_swirl_takes)
{
    need("zsh");
    char path[128], cmd[512];
    script("zsh", path, sizeof path);
    snprintf(cmd, sizeof cmd, "zsh -f -c '_arguments() { printf \"%%s\\n\" \"$@\"; }; "
             "source %s'", path);
    FILE *p = popen(cmd, "r");
    struct words want = help_options(), got = {0};
    char line[512];
    int specs = 0;
    while (p && fgets(line, sizeof line, p)) {
        char *s = line;
        if (strcmp(s, "-S\n") == 0)
            continue;
        specs++;
        if (strncmp(s, "(- *)", 5) == 0)
            s += 5;
        size_t n = strcspn(s, "=[");
        words_add(&got, s, n);
        char opt[64];
        snprintf(opt, sizeof opt, "%.*s", (int)n, s);
        char *paren = strstr(s, "]:"), *values = paren ? strstr(paren, ":(") : NULL;
        CHECK_MSG(s[n] == '[' || (s[n] == '=' && paren), "%s", line);
        for (char *v = values ? values + 2 : NULL; v && *v && *v != ')';) {
            size_t len = strcspn(v, " )");
            char word[64];
            snprintf(word, sizeof word, "%.*s", (int)len, v);
            CHECK_MSG(swirl_takes(opt, word), "swirl refuses %s %s", opt, word);
            v += len + (v[len] == ' ');
        }
    }
    CHECK_MSG(p && pclose(p) == 0, "%s", cmd);
    CHECK_INT(specs, want.n);
    check_same("zsh's specifications", &got, &want);
    remove(path);
}

/* Whether a tag line of the man page (.B, .BI, .BR) names opt, written the
 * roff way (\-\-record, not a part of \-\-record\-limit). */
static bool man_names(const char *man, const char *opt)
{
    char roff[160] = "";
    for (const char *s = opt; *s; s++)
        snprintf(roff + strlen(roff), sizeof roff - strlen(roff), "%s%c", *s == '-' ? "\\" : "",
                 *s);
    size_t len = strlen(roff);
    for (const char *line = man; *line; line += strcspn(line, "\n"), line += *line == '\n') {
        size_t end = strcspn(line, "\n");
        for (const char *at = strstr(line, roff); strncmp(line, ".B", 2) == 0 && at &&
                                                  at + len <= line + end;
             at = strstr(at + 1, roff)) {
            const char *after = at + len;
            bool longer = (*after >= 'a' && *after <= 'z') || strncmp(after, "\\-", 2) == 0;
            if (at[-1] == ' ' && !longer)
                return true;
        }
    }
    return false;
}

/* The man page make builds (swirl.1) describes each option of --help among its
 * OPTIONS, writes every option's dashes the roff way, keeps its ENVIRONMENT
 * to what a user sets, says how to report a bug, and man finds nothing to
 * warn about in it. */
TEST_E2E(man_page_describes_every_option_of_help)
{
    size_t n;
    char *man = e2e_slurp("swirl.1", &n);
    CHECK_MSG(man != NULL, "no swirl.1 (make builds it)");
    if (!man)
        return;
    /* OPTIONS alone, up to the next section */
    char *options = strstr(man, "\n.SH OPTIONS\n"), *next = options ? strstr(options + 1, "\n.SH ")
                                                                  : NULL;
    CHECK(options && next);
    if (next)
        *next = 0;
    struct words ws = help_options();
    for (int i = 0; i < ws.n && options; i++)
        CHECK_MSG(man_names(options, ws.w[i]), "swirl.1's OPTIONS have no %s", ws.w[i]);
    CHECK(options && man_names(options, "--record") && !man_names(options, "--bogus") &&
          !man_names(options, "--record-lim"));
    if (next)
        *next = '\n';
    /* Every dash of an option written the roff way (a "--" prints as a dash
     * of another kind, and cannot be searched for), outside comments. */
    for (char *line = man; *line; line += strcspn(line, "\n"), line += *line == '\n') {
        size_t len = strcspn(line, "\n");
        char *dd = strstr(line, "--");
        CHECK_MSG(strncmp(line, ".\\\"", 3) == 0 || !dd || dd >= line + len,
                  "swirl.1: an unescaped -- in %.*s", (int)len, line);
    }
    /* ENVIRONMENT is a user's (what swirl reads, no test's or bench's), and
     * BUGS says how to report one. */
    char *env = strstr(man, "\n.SH ENVIRONMENT\n"), *after = env ? strstr(env + 1, "\n.SH ") : NULL;
    CHECK(env && after);
    if (after)
        *after = 0;
    CHECK_MSG(env && !strstr(env, "SWIRL_") && !strstr(env, "make "), "%s", env ? env : "");
    if (after)
        *after = '\n';
    CHECK_MSG(strstr(man, "\n.SH BUGS\n") && strstr(man, "report a bug"), "no BUGS section "
              "saying how to report one");
    free(man);
    if (system("command -v man >/dev/null 2>&1") != 0)
        test_skip("no man");
    bool ok;
    char *warned = run_output("man --warnings -l swirl.1 2>&1 >/dev/null", &ok);
    CHECK_MSG(ok && !*warned, "man warns: %s", warned);
    free(warned);
}

/* ./swirl --list-scenes prints cli_scene_list's lines (the scene table's) and
 * exits 0; the man page make builds from that list describes each scene in
 * order (a tag of its name, its title), gives --scene's words, its default
 * and the scenes' keys from it; and the build's own files (the Makefile's
 * loops, the scripts of make shots and make bench, the man page's source)
 * write no list of the scenes by hand: no two names of the table stand
 * side by side there. */
TEST_E2E(man_page_and_build_take_the_scenes_from_list_scenes)
{
    bool ok;
    char *listed = run_output("./swirl --list-scenes", &ok);
    struct buf want;
    buf_init(&want);
    cli_scene_list(&want);
    buf_putc(&want, 0);
    CHECK_MSG(ok && strcmp(listed, want.p) == 0, "./swirl --list-scenes: '%s', not '%s'",
              listed, want.p);
    free(listed);
    buf_free(&want);
    char *man = e2e_slurp("swirl.1", NULL);
    CHECK_MSG(man != NULL, "no swirl.1 (make builds it)");
    if (!man)
        return;
    const char *desc = strstr(man, "\n.SH DESCRIPTION\n"), *opts = strstr(man, "\n.SH OPTIONS\n");
    CHECK(desc && opts && desc < opts);
    for (int i = 0; i < SCENE_COUNT && desc; i++) {
        char tag[256];
        snprintf(tag, sizeof tag, "\n.TP\n.B %s\n\\&%s.\n", scenes[i]->name, scenes[i]->title);
        const char *at = strstr(desc, tag);
        CHECK_MSG(at && at < opts, "swirl.1's DESCRIPTION has no '%s' after the scene before", tag);
        desc = at ? at + 1 : desc;
    }
    char words[256], line[512], keys[64] = "";
    fx_scenes_joined(words, sizeof words, "|", "|");
    snprintf(line, sizeof line, "\n.BI \\-\\-scene \" %s\"\nThe first scene (default %s).\n",
             words, scenes[0]->name);
    CHECK_MSG(strstr(man, line), "swirl.1 has no '%s'", line);
    for (int i = 0; i < SCENE_COUNT; i++)
        snprintf(keys + strlen(keys), sizeof keys - strlen(keys), "%s%d", i ? " " : "", i + 1);
    snprintf(line, sizeof line, "\n.B %s\\fR, \\fBTab\\fR, \\fBShift-Tab\n", keys);
    CHECK_MSG(strstr(man, line), "swirl.1 has no '%s'", line);
    free(man);
    static const char *const files[] = {"Makefile", "tests/shots.sh", "tests/bench/link.sh",
                                        "tests/bench/ssh.sh", "swirl.1.in"};
    static const char *const seps[] = {" ", "|", ", ", "/"};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char *text = e2e_slurp(files[f], NULL);
        CHECK_MSG(text != NULL, "cannot read %s", files[f]);
        for (int i = 0; text && i + 1 < SCENE_COUNT; i++)
            for (size_t k = 0; k < sizeof seps / sizeof seps[0]; k++) {
                char pair[160];
                snprintf(pair, sizeof pair, "%s%s%s", scenes[i]->name, seps[k],
                         scenes[i + 1]->name);
                CHECK_MSG(!strstr(text, pair), "%s lists the scenes by hand: '%s'", files[f], pair);
            }
        free(text);
    }
}
