/*
 * test_release.c — one version everywhere a user or a packager reads it: the
 * VERSION file (its one source), ./swirl -V, the version compiled into the
 * program (the help overlay's heading), the man page make builds (its footer,
 * and its date the one of the NEWS entry), and NEWS, whose newest entry, at the
 * top, is this version. The tarball's name is tests/distcheck.sh's to check
 * (make distcheck). And make install installs what was built, never building
 * it again with other flags.
 */
#include "e2e.h"
#include "swirl.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A NEWS heading "swirl X.Y.Z (YYYY-MM-DD)", or "(unreleased)" for the next
 * version's: the version and the date (or "unreleased"). */
static bool news_heading(const char *line, char *version, char *date)
{
    int n = 0;
    return sscanf(line, "swirl %31[0-9.] (%15[0-9a-z-])%n", version, date, &n) == 2 &&
           (line[n] == '\n' || line[n] == 0) &&
           (strcmp(date, "unreleased") == 0 || strspn(date, "0123456789-") == strlen(date));
}

/* Versions in order: a before b, numerically part by part. */
static int version_cmp(const char *a, const char *b)
{
    for (;;) {
        char *ea, *eb;
        long x = strtol(a, &ea, 10), y = strtol(b, &eb, 10);
        if (x != y)
            return x < y ? -1 : 1;
        if (*ea != '.' || *eb != '.')
            return (*ea == '.') - (*eb == '.'); /* 1.0 before 1.0.1 */
        a = ea + 1, b = eb + 1;
    }
}

TEST_E2E(release_version_is_the_same_everywhere)
{
    size_t n;
    char *file = e2e_slurp("VERSION", &n), version[32] = "";
    CHECK(file && sscanf(file, "%31s", version) == 1 && strlen(version) + 1 == n);
    free(file);
    CHECK_MSG(strcmp(version, SWIRL_VERSION) == 0, "VERSION %s, compiled %s", version,
              SWIRL_VERSION);

    char want[64], got[64] = "";
    snprintf(want, sizeof want, "swirl %s\n", version);
    FILE *p = popen("./swirl -V", "r");
    CHECK(p && fgets(got, sizeof got, p));
    CHECK(p && pclose(p) == 0);
    CHECK_MSG(strcmp(got, want) == 0, "./swirl -V says %s", got);

    /* NEWS: its first heading is this version; the others are older. */
    char *news = e2e_slurp("NEWS", &n), date[16] = "";
    int headings = 0;
    char last[32] = "";
    for (char *line = news; line && *line; line += strcspn(line, "\n"), line += *line == '\n') {
        char v[32], d[16];
        if (!news_heading(line, v, d))
            continue;
        if (headings++ == 0) {
            CHECK_MSG(strcmp(v, version) == 0, "NEWS starts with %s, not %s", v, version);
            snprintf(date, sizeof date, "%s", d);
        } else {
            CHECK_MSG(version_cmp(v, last) < 0, "NEWS: %s after %s", v, last);
        }
        snprintf(last, sizeof last, "%s", v);
    }
    CHECK(headings >= 2);
    free(news);

    /* The man page: .TH SWIRL 1 "DATE" "swirl VERSION" ... */
    char *man = e2e_slurp("swirl.1", &n);
    char th[128];
    snprintf(th, sizeof th, ".TH SWIRL 1 \"%s\" \"swirl %s\" ", date, version);
    CHECK_MSG(man && strncmp(man, th, strlen(th)) == 0, "swirl.1 begins %.60s, not %s",
              man ? man : "(none)", th);
    free(man);
    CHECK(version_cmp("0.10.0", "0.9.1") > 0 && version_cmp("1.0", "1.0") == 0 &&
          version_cmp("0.2.0", "0.2.1") < 0 && version_cmp("1.0", "1.0.1") < 0);
}

/* make install after a build with other flags (a packager's `sudo make
 * install` after `make CFLAGS="$(dpkg-buildflags --get CFLAGS)"`, here a
 * make told other CFLAGS) installs what was built: it compiles nothing,
 * leaves the record of the build's flags as it was, and either installs or,
 * when something is older than its sources, says so and stops. */
TEST_E2E_CPU(release_install_builds_nothing_with_other_flags)
{
    size_t n0, n1, n;
    char *before = e2e_slurp("build/flags", &n0);
    if (!before)
        test_skip("no build/flags: the tree was never built");
    if (system("command -v make >/dev/null 2>&1") != 0) {
        free(before);
        test_skip("no make");
    }
    char out[64];
    snprintf(out, sizeof out, "/tmp/swirl-install-%d.log", (int)getpid());
    e2e_sh("env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n install "
           "DESTDIR=/nonexistent/swirl-test CFLAGS='-O0 -DSWIRL_OTHER_FLAGS' >%s 2>&1", out);
    char *after = e2e_slurp("build/flags", &n1), *said = e2e_slurp(out, &n);
    bool kept = after && n0 == n1 && memcmp(before, after, n0) == 0;
    CHECK_MSG(kept, "build/flags was rewritten:\n%s", after ? after : "(gone)");
    if (!kept) { /* as it was, so that the next make does not build it all again */
        FILE *f = fopen("build/flags", "w");
        if (f) {
            fwrite(before, 1, n0, f);
            fclose(f);
        }
    }
    CHECK_MSG(said && !strstr(said, "SWIRL_OTHER_FLAGS") && !strstr(said, " -c -o "),
              "make install builds:\n%.2000s", said ? said : "");
    CHECK_MSG(said && (strstr(said, "install -m 755 swirl /nonexistent/swirl-test") ||
                       strstr(said, "make install: ")), "%s", said ? said : "");
    free(before);
    free(after);
    free(said);
    remove(out);
}

/* NEWS's section for a released version in text (from its heading to the
 * next heading, or the end), malloc'd; NULL when it has none. */
static char *news_section(const char *text, const char *heading)
{
    const char *at = text ? strstr(text, heading) : NULL;
    while (at && at != text && at[-1] != '\n')
        at = strstr(at + 1, heading);
    if (!at)
        return NULL;
    const char *end = at + strlen(heading);
    for (const char *line = end; line && *line; line = strchr(line, '\n'), line += line != NULL) {
        char v[32], d[16];
        if (line != end && news_heading(line, v, d)) {
            end = line;
            break;
        }
        end = line + strlen(line);
    }
    return strndup(at, (size_t)(end - at));
}

/* What cmd prints (malloc'd, NUL ended), NULL when it fails. */
static char *output_of(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    char chunk[4096];
    size_t n;
    while (p && mem && (n = fread(chunk, 1, sizeof chunk, p)) > 0)
        fwrite(chunk, 1, n, mem);
    if (mem)
        fclose(mem);
    if (!p || pclose(p) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* A released version's NEWS section is what it was in the commit that
 * released it (the commit that brought its dated heading in): what changed
 * since goes under the next version's heading, "(unreleased)" until its own
 * release. Needs the git history (a tarball has none, a shallow clone may
 * lack a release's commit: those are skipped). */
TEST_E2E(release_a_released_news_section_never_changes)
{
    if (system("git rev-parse --is-inside-work-tree >/dev/null 2>&1") != 0)
        test_skip("not a git checkout");
    size_t n;
    char *news = e2e_slurp("NEWS", &n);
    CHECK(news != NULL);
    int checked = 0;
    for (char *line = news; line && *line; line += strcspn(line, "\n"), line += *line == '\n') {
        char v[32], d[16], heading[64], cmd[256];
        if (!news_heading(line, v, d) || strcmp(d, "unreleased") == 0)
            continue;
        snprintf(heading, sizeof heading, "swirl %s (%s)", v, d);
        snprintf(cmd, sizeof cmd, "git log --reverse --format=%%H -S'%s' -- NEWS 2>/dev/null",
                 heading);
        char *commits = output_of(cmd);
        if (commits && strlen(commits) >= 40) {
            char show[128];
            snprintf(show, sizeof show, "git show %.40s:NEWS 2>/dev/null", commits);
            char *then = output_of(show), *was = news_section(then, heading),
                 *now = news_section(news, heading);
            CHECK_MSG(was && now && strcmp(was, now) == 0,
                      "NEWS: %s changed after the commit that released it (%.12s); what "
                      "changed since goes under the next version's heading", heading, commits);
            checked += was != NULL;
            free(then), free(was), free(now);
        }
        free(commits);
    }
    free(news);
    if (checked == 0)
        test_skip("no release's commit in this history");
}

/* The README stays a page a newcomer reads: under 10 KB (the reference is
 * the man page's and docs/'s). */
TEST(release_readme_is_under_10_kb)
{
    size_t n = 0;
    char *readme = e2e_slurp("README.md", &n);
    CHECK(readme != NULL);
    CHECK_MSG(n < 10 * 1024, "README.md is %zu bytes", n);
    free(readme);
}

/* make clean removes what the build makes and leaves the release tarballs
 * (make dist's, a packager's to keep): asked with make -n, the build's
 * record of its flags kept as it is (KEEP_FLAGS). */
TEST_E2E_CPU(release_clean_leaves_the_tarballs)
{
    if (system("command -v make >/dev/null 2>&1") != 0)
        test_skip("no make");
    char out[64];
    snprintf(out, sizeof out, "/tmp/swirl-clean-%d.log", (int)getpid());
    e2e_sh("env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n clean KEEP_FLAGS=1 >%s 2>&1", out);
    size_t n;
    char *said = e2e_slurp(out, &n);
    CHECK_MSG(said && strstr(said, "rm -rf build ") && !strstr(said, "tar.gz"),
              "make clean: %s", said ? said : "");
    free(said);
    remove(out);
}

/* What .gitignore names is what the build makes: each part of an entry
 * between its slashes and stars is named in the Makefile. */
TEST(release_gitignore_names_only_what_the_build_makes)
{
    size_t n;
    char *ignore = e2e_slurp(".gitignore", &n), *mk = e2e_slurp("Makefile", &n);
    CHECK(ignore && mk);
    for (char *line = ignore; line && *line; line += strcspn(line, "\n"), line += *line == '\n') {
        const size_t len = strcspn(line, "\n");
        for (size_t at = 0; line[0] != '#' && at < len;) {
            size_t part = strcspn(line + at, "/*\n");
            char entry[128];
            snprintf(entry, sizeof entry, "%.*s", (int)part, line + at);
            CHECK_MSG(!part || (mk && strstr(mk, entry)), ".gitignore names %.*s, which the "
                      "Makefile never makes", (int)len, line);
            at += part + 1;
        }
    }
    free(ignore);
    free(mk);
}
