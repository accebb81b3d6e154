/*
 * test_scene_table.c — the scene table (scene.h's SCENE_TABLE, scenes[]) is
 * the one list of the scenes: the in-app help, --help, --scene's refusals and
 * the completions' words name exactly its scenes, in its order; the digit
 * keys 1..SCENE_COUNT switch to them and no other digit does; the status
 * line's hint says as many keys; and what a scene's flags say (SCENE_GRID,
 * SCENE_SEED_PAGE) is what --grid and --preset seed take; --list-scenes
 * gives each name and title in order. Each expected text is built here from
 * scenes[], never written by hand, so the tests hold for any table and fail
 * when one list is left behind. (The man page and the build's scripts, which
 * take the list from ./swirl --list-scenes, are test_usage.c's.)
 */
#include "app.h"
#include "cli.h"
#include "cli_options.h"
#include "compose.h"
#include "e2e.h"
#include "fixtures.h"
#include "scene.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The text of s between after and the next until (or its end), into out. */
static bool between(const char *s, const char *after, const char *until, char *out, size_t n)
{
    const char *a = strstr(s, after);
    if (!a)
        return false;
    a += strlen(after);
    const char *b = strstr(a, until);
    size_t len = b ? (size_t)(b - a) : strlen(a);
    snprintf(out, n, "%.*s", (int)(len < n ? len : n - 1), a);
    return true;
}

/* argv from line; returns whether cli_parse took it, its error in err. */
static bool parses(const char *line, char *err, size_t n)
{
    char copy[256], *argv[16];
    int argc = fx_argv(line, copy, sizeof copy, argv, 16);
    struct cli c;
    return cli_parse(&c, argc, argv, err, n) == 0;
}

TEST(scene_table_names_are_words_found_by_scene_find)
{
    CHECK(SCENE_COUNT >= 1 && SCENE_COUNT <= 9);
    for (int i = 0; i < SCENE_COUNT; i++) {
        const char *name = scenes[i]->name;
        CHECK_MSG(name && *name && !strpbrk(name, " ,:/="), "scene %d: '%s'", i, name);
        CHECK_INT(scene_find(name), i);
    }
    CHECK_INT(scene_find("nope"), -1);
    char names[256], want[256];
    CHECK_INT(scene_names(names, sizeof names, 0, 0, ", ", " or "), SCENE_COUNT);
    fx_scenes_joined(want, sizeof want, ", ", " or ");
    CHECK_MSG(strcmp(names, want) == 0, "'%s', not '%s'", names, want);
    /* Picked by flags: each scene with SCENE_GRID, and those without. */
    int grid = 0;
    for (int i = 0; i < SCENE_COUNT; i++)
        grid += (scenes[i]->flags & SCENE_GRID) != 0;
    CHECK_INT(scene_names(names, sizeof names, SCENE_GRID, SCENE_GRID, " ", " "), grid);
    CHECK_INT(scene_names(names, sizeof names, SCENE_GRID, 0, " ", " "), SCENE_COUNT - grid);
    /* Cut short, still ended. */
    CHECK_INT(scene_names(names, 3, 0, 0, ", ", " or "), SCENE_COUNT);
    CHECK(strlen(names) <= 2);
}

/* The in-app help's line for the digits: the keys 1..SCENE_COUNT and the
 * names, in order, nothing more. */
TEST(scene_table_in_app_help_lists_every_scene_and_its_key)
{
    char keys[32] = "", names[256], want[APP_HELP_COLS + 256];
    for (int i = 0; i < SCENE_COUNT; i++)
        snprintf(keys + strlen(keys), sizeof keys - strlen(keys), "%s%d", i ? " " : "", i + 1);
    fx_scenes_joined(names, sizeof names, ", ", ", ");
    snprintf(want, sizeof want, "  %-11s %s (each keeps its state)", keys, names);
    char got[32];
    app_scene_keys(got, sizeof got, false);
    CHECK_MSG(strcmp(got, keys) == 0, "'%s', not '%s'", got, keys);
    app_scene_keys(got, sizeof got, true);
    char range[32];
    fx_scene_digits(range, sizeof range);
    CHECK_MSG(strcmp(got, range) == 0, "'%s', not '%s'", got, range);
    for (int sc = 0; sc < SCENE_COUNT; sc++) {
        struct app_opts o;
        app_opts_default(&o);
        o.scene = sc;
        struct fx_screen x;
        fx_screen_open(&x, &o, 80, 24);
        static char lines[APP_HELP_LINES][APP_HELP_COLS];
        int n = app_help(&x.a, NULL, 0, lines, APP_HELP_LINES), found = 0;
        for (int i = 0; i < n; i++) {
            found += strcmp(lines[i], want) == 0;
            /* No other line names the digits. */
            CHECK_MSG(strcmp(lines[i], want) == 0 || strncmp(lines[i], "  1 ", 4) != 0,
                      "'%s'", lines[i]);
        }
        CHECK_MSG(found == 1, "%s: no line '%s'", scenes[sc]->name, want);
        fx_screen_close(&x);
    }
}

/* --help: what swirl is, --scene's words, the keys, each scene's own keys and
 * its mouse, all from the table. */
TEST(scene_table_help_text_lists_every_scene)
{
    char *help = fx_help_text(), list[512];
    CHECK(between(help, "terminal: ", "\noptions:", list, sizeof list));
    for (char *c = list; *c; c++) /* its lines as one */
        *c = *c == '\n' ? ' ' : *c;
    /* The heading names each scene once, in order, with its kind. */
    const char *at = list;
    for (int i = 0; i < SCENE_COUNT; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s (", scenes[i]->name);
        const char *p = strstr(at, name);
        CHECK_MSG(p != NULL, "the heading has no '%s' after '%s'", name, at);
        at = p ? p + strlen(name) : at;
        CHECK(p && strncmp(at, scenes[i]->title, strcspn(scenes[i]->title, ":")) == 0);
    }
    CHECK(between(help, "--scene NAME        start with ", " (default ", list, sizeof list));
    CHECK_MSG(fx_lists_the_scenes(list), "--scene: '%s'", list);
    char want[128];
    snprintf(want, sizeof want, "(default %s)\n", scenes[0]->name);
    CHECK(between(help, "--scene NAME", "\n", list, sizeof list) && strstr(help, want));
    /* The keys: "keys: 1 2 3 / Tab". */
    CHECK(between(help, "\nkeys: ", " / Tab", list, sizeof list));
    int k = 0;
    for (char *w = strtok(list, " "); w; w = strtok(NULL, " "), k++)
        CHECK_MSG(atoi(w) == k + 1 && strlen(w) == 1, "keys: '%s'", w);
    CHECK_INT(k, SCENE_COUNT);
    /* A line of its own keys (when it has some) and one of its mouse, in
     * order, for each scene: "      NAME: ...". */
    const char *keys = strstr(help, "\nkeys: "), *mouse = strstr(help, "\nmouse: ");
    CHECK(keys && mouse && keys < mouse);
    for (int part = 0; part < 2 && keys && mouse; part++) {
        const char *from = part == 0 ? keys : mouse;
        for (int i = 0; i < SCENE_COUNT; i++) {
            const char *text = part == 0 ? scenes[i]->keys : scenes[i]->mouse;
            if (!text)
                continue;
            char line[128];
            snprintf(line, sizeof line, "\n      %s: %.20s", scenes[i]->name, text);
            const char *p = strstr(from, line);
            CHECK_MSG(p != NULL && (part == 1 || p < mouse), "no '%s'", line + 1);
            from = p ? p + 1 : from;
        }
    }
    /* The wheel: the scenes that zoom, no other. */
    CHECK(mouse && between(mouse, "the wheel zooms (", ")", list, sizeof list));
    for (int i = 0; i < SCENE_COUNT; i++) {
        bool named = false;
        char copy[512];
        snprintf(copy, sizeof copy, "%s", list);
        for (char *w = strtok(copy, ", "); w; w = strtok(NULL, ", "))
            named = named || strcmp(w, scenes[i]->name) == 0;
        CHECK_MSG(named == (scenes[i]->zoom != NULL), "%s: zoom '%s'", scenes[i]->name, list);
    }
    free(help);
}

/* --scene's values for the completions and its description, from the
 * table. */
TEST(scene_table_completions_offer_every_scene)
{
    struct buf b;
    buf_init(&b);
    cli_text(&b, cli_options[OPT_SCENE].choices);
    buf_putc(&b, 0);
    char want[640];
    fx_scenes_joined(want, sizeof want, " ", " ");
    CHECK_MSG(strcmp(b.p, want) == 0, "'%s', not '%s'", b.p, want);
    buf_clear(&b);
    cli_text(&b, "{first}|{scenes}|{keys}|{other}");
    buf_putc(&b, 0);
    char names[256];
    fx_scenes_joined(names, sizeof names, ", ", " or ");
    snprintf(want, sizeof want, "%s|%s|", scenes[0]->name, names);
    CHECK_MSG(strncmp(b.p, want, strlen(want)) == 0, "'%s'", b.p);
    CHECK_MSG(strstr(b.p, "|{other}") != NULL, "an unknown mark is kept: '%s'", b.p);
    buf_free(&b);
}

/* A bad --scene (and a bad SCENE: of --set) is told with the list of the
 * scenes; every name of the table is taken. */
TEST(scene_table_refusals_list_every_scene)
{
    char err[512], list[512], line[128];
    CHECK(!parses("--scene nope", err, sizeof err));
    CHECK_MSG(between(err, "unknown scene 'nope' (", ")", list, sizeof list), "'%s'", err);
    CHECK_MSG(fx_lists_the_scenes(list), "'%s'", err);
    CHECK(!parses("--set nope:x=1", err, sizeof err));
    CHECK_MSG(between(err, "no scene 'nope' (", ")", list, sizeof list), "'%s'", err);
    CHECK_MSG(fx_lists_the_scenes(list), "'%s'", err);
    for (int i = 0; i < SCENE_COUNT; i++) {
        snprintf(line, sizeof line, "--scene %s", scenes[i]->name);
        CHECK_MSG(parses(line, err, sizeof err), "%s: %s", line, err);
    }
}

/* --grid and --preset seed are for the scenes whose flags say so, and the
 * refusals name those. */
TEST(scene_table_flags_decide_grid_and_preset)
{
    char err[512], line[128], names[256], got[256];
    scene_names(names, sizeof names, SCENE_SEED_PAGE, SCENE_SEED_PAGE, ", ", " and ");
    for (int i = 0; i < SCENE_COUNT; i++) {
        bool grid = scenes[i]->flags & SCENE_GRID, seed = scenes[i]->flags & SCENE_SEED_PAGE;
        snprintf(line, sizeof line, "--scene %s --grid 40x30", scenes[i]->name);
        CHECK_MSG(parses(line, err, sizeof err) == grid, "%s: %s", line, err);
        if (!grid)
            CHECK_MSG(strstr(err, "--grid is for the ") && !strstr(err, scenes[i]->name),
                      "%s: %s", line, err);
        snprintf(line, sizeof line, "--scene %s --preset seed", scenes[i]->name);
        CHECK_MSG(parses(line, err, sizeof err) == seed, "%s: %s", line, err);
        if (!seed) {
            CHECK_MSG(between(err, "--preset seed is for ", " (", got, sizeof got) &&
                          strcmp(got, names) == 0, "%s: %s", line, err);
            CHECK_MSG(strstr(err, scenes[i]->name) != NULL, "%s: %s", line, err);
        }
    }
}

/* Each digit from a scene: 1..SCENE_COUNT show their scene from anywhere, 0
 * and the digits past the table leave it; SCENE_COUNT digits in all. */
TEST(scene_table_digit_keys_switch_to_each_scene)
{
    struct app_opts o;
    app_opts_default(&o);
    struct fx_screen x;
    fx_screen_open(&x, &o, 60, 20);
    int switching = 0;
    for (int d = '0'; d <= '9'; d++) {
        bool all = true;
        for (int from = 0; from < SCENE_COUNT; from++) {
            struct input_event e = fx_key(IK_TAB);
            for (int t = 0; t < SCENE_COUNT && x.a.cur != from; t++)
                app_input(&x.a, &e);
            CHECK_INT(x.a.cur, from);
            e = fx_key(d);
            app_input(&x.a, &e);
            int want = d - '1' >= 0 && d - '1' < SCENE_COUNT ? d - '1' : from;
            CHECK_MSG(x.a.cur == want, "'%c' from %s: %s", d, scenes[from]->name,
                      scenes[x.a.cur]->name);
            all = all && x.a.cur == d - '1';
        }
        switching += all;
    }
    CHECK_INT(switching, SCENE_COUNT);
    fx_screen_close(&x);
}

/* The status line's hint gives the scenes' keys, as many as the table. */
TEST(scene_table_status_hint_has_every_scene_key)
{
    struct app_opts o;
    app_opts_default(&o);
    struct fx_screen x;
    fx_screen_open(&x, &o, 200, 24);
    fx_screen_compose(&x);
    char row[256], digits[16], want[32];
    int n = 0;
    for (int c = 0; c < x.f.cells.cols && n < (int)sizeof row - 1; c++) {
        uint32_t ch = cells_at(&x.f.cells, c, 23)->ch;
        row[n++] = ch < 128 ? (char)ch : '#';
    }
    row[n] = 0;
    fx_scene_digits(digits, sizeof digits);
    snprintf(want, sizeof want, "  %s scene  ", digits);
    CHECK_MSG(strstr(row, want) != NULL, "'%s' has no '%s'", row, want);
    fx_screen_close(&x);
}

/* --list-scenes: a line for each scene in the table's order, its name first
 * (the word a script cuts: `cut -d' ' -f1`), then two blanks at least and its
 * title, the titles lined up in one column. */
TEST(scene_table_list_gives_every_name_and_title)
{
    struct buf b;
    buf_init(&b);
    cli_scene_list(&b);
    buf_putc(&b, 0);
    const char *line = b.p;
    int k = 0, col = -1;
    for (; *line; k++) {
        size_t len = strcspn(line, "\n");
        CHECK_MSG(line[len] == '\n', "line %d is not ended: '%s'", k + 1, line);
        CHECK_MSG(k < SCENE_COUNT, "a line past the table: '%.*s'", (int)len, line);
        if (k < SCENE_COUNT) {
            const char *name = scenes[k]->name, *title = scenes[k]->title;
            size_t nl = strlen(name), at = nl + strspn(line + nl, " ");
            CHECK_MSG(strncmp(line, name, nl) == 0 && at >= nl + 2 && at < len &&
                          len - at == strlen(title) && strncmp(line + at, title, len - at) == 0,
                      "line %d: '%.*s', not %s and '%s'", k + 1, (int)len, line, name, title);
            col = col < 0 ? (int)at : col;
            CHECK_MSG((int)at == col, "%s's title at column %zu, not %d", name, at, col);
        }
        line += len + (line[len] == '\n');
    }
    CHECK_INT(k, SCENE_COUNT);
    buf_free(&b);
}

/* One source for each scene's words: its keys and mouse, as its file says
 * them (.keys, .mouse), are in the man page (make writes them there from the
 * scene table) and in docs/scenes.md's "Keys and mouse" (make docs writes
 * it; stale, it fails here). */
TEST(scene_table_words_reach_the_man_page_and_the_docs)
{
    size_t n;
    char *man = e2e_slurp("swirl.1", &n);
    char *doc = e2e_slurp("docs/scenes.md", &n);
    CHECK(man && doc);
    for (int i = 0; man && doc && i < SCENE_COUNT; i++) {
        const struct scene_ops *s = scenes[i];
        char want[600];
        if (s->keys) {
            snprintf(want, sizeof want, ".B %s\n\\&%s.\n", s->name, s->keys);
            CHECK_MSG(strstr(man, want), "the man page lacks %s's keys: %s", s->name, s->keys);
        }
        snprintf(want, sizeof want, ".B %s\n\\&%s; the wheel ", s->name, s->mouse);
        CHECK_MSG(strstr(man, want), "the man page lacks %s's mouse: %s", s->name, s->mouse);
        snprintf(want, sizeof want, "- **%s**: keys: %s. Mouse: %s; the wheel %s.\n", s->name,
                 s->keys ? s->keys : "none", s->mouse, s->zoom ? "zooms" : "does nothing here");
        CHECK_MSG(strstr(doc, want), "docs/scenes.md is stale for %s (make docs): want %s",
                  s->name, want);
    }
    free(man);
    free(doc);
}
