/*
 * help.c — the help overlay's lines (see app.h's app_help): what swirl chose
 * for this terminal and why, then every key from the one table of bindings
 * (app.c's app_bindings, which also acts on them, so the help never disagrees
 * with a key), the scene's own keys and its mouse.
 */
#include "app.h"

#include <stdio.h>
#include <string.h>

void app_scene_keys(char *out, size_t n, bool range)
{
    if (range && SCENE_COUNT > 1) {
        snprintf(out, n, "1-%d", SCENE_COUNT);
        return;
    }
    size_t at = 0;
    for (int i = 0; i < SCENE_COUNT && at < n; i++) {
        int w = snprintf(out + at, n - at, "%s%d", i ? " " : "", i + 1);
        at += w > 0 ? (size_t)w : 0;
    }
}

/* A binding's line in the help: its keys and what they do, or for the
 * scenes' keys those keys and the scenes' names. */
static void binding_line(const struct app_binding *b, char *line, size_t n)
{
    if (b->key != APP_KEY_SCENES) {
        snprintf(line, n, "  %-11s %s", b->keys, b->help);
        return;
    }
    char keys[32];
    app_scene_keys(keys, sizeof keys, false);
    snprintf(line, n, "  %-11s ", keys);
    size_t at = strlen(line);
    scene_names(line + at, n - at, 0, 0, ", ", ", ");
    at += strlen(line + at);
    snprintf(line + at, n - at, " %s", b->help);
}

/* What swirl chose for this terminal: the colour depth, the glyphs and what
 * chose each, and whether a frame is shown whole (synchronized output, CSI
 * ?2026), said as what it means for the picture. */
static int help_chosen(const struct app *a, char (*lines)[APP_HELP_COLS], int n)
{
    const char *why = a->o.color_why, *gwhy = a->o.glyphs_why;
    snprintf(lines[n++], APP_HELP_COLS, "  %-11s %s%s%s%s", "colour",
             palette_mode_name(a->o.color), why ? " (" : "", why ? why : "", why ? ")" : "");
    snprintf(lines[n++], APP_HELP_COLS, "  %-11s %s%s%s%s", "glyphs",
             cells_glyphs_name(a->o.glyphs), gwhy ? " (" : "", gwhy ? gwhy : "", gwhy ? ")" : "");
    snprintf(lines[n++], APP_HELP_COLS, "  %-11s %s", "frames",
             a->o.sync ? "each shown whole (the terminal holds it until it is all there)"
                       : "may show half drawn while things move (the terminal cannot hold "
                         "a frame until it is all there, or --no-sync)");
    return n;
}

int app_help(const struct app *a, const char *const *extra, int nextra,
             char (*lines)[APP_HELP_COLS], int max)
{
    const struct scene_ops *s = app_scene(a);
    int n = 0;
    snprintf(lines[n++], APP_HELP_COLS, "swirl %s - %s", SWIRL_VERSION, s->title);
    lines[n++][0] = 0;
    n = help_chosen(a, lines, n);
    for (int i = 0; i < nextra && n < max - 6; i++)
        snprintf(lines[n++], APP_HELP_COLS, "%s", extra[i]);
    lines[n++][0] = 0;
    for (int i = 0; i < app_nbindings && n < max - 5; i++)
        if (app_bindings[i].keys || app_bindings[i].key == APP_KEY_SCENES)
            binding_line(&app_bindings[i], lines[n++], APP_HELP_COLS);
    if (s->keys)
        snprintf(lines[n++], APP_HELP_COLS, "  %-11s %s", s->name, s->keys);
    lines[n++][0] = 0;
    snprintf(lines[n++], APP_HELP_COLS, "  %-11s %s", "mouse", s->mouse);
    snprintf(lines[n++], APP_HELP_COLS, "  %-11s %s", "wheel", s->zoom ? "zoom" : "(no zoom here)");
    return n;
}
