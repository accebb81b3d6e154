/*
 * scenewords.c — swirl-scenewords FORMAT, the build's program that writes
 * each scene's keys and mouse, from the scene table (scene.h: each scene's own
 * .keys and .mouse, the words its help shows), for the man page's KEYS and
 * MOUSE (man-keys, man-mouse: roff) and for docs/scenes.md (md: the section
 * "Keys and mouse", which a test holds to this). Never installed.
 */
#include "scene.h"

#include <stdio.h>
#include <string.h>

/* The scene's mouse words, and the wheel's. */
static void mouse_line(const struct scene_ops *s, char *out, size_t n)
{
    snprintf(out, n, "%s; the wheel %s", s->mouse, s->zoom ? "zooms" : "does nothing here");
}

int main(int argc, char **argv)
{
    const char *f = argc == 2 ? argv[1] : "";
    bool keys = strcmp(f, "man-keys") == 0, mouse = strcmp(f, "man-mouse") == 0,
         md = strcmp(f, "md") == 0;
    if (!keys && !mouse && !md) {
        fputs("usage: swirl-scenewords man-keys|man-mouse|md\n", stderr);
        return 2;
    }
    if (md)
        printf("## Keys and mouse\n\nEach scene's own, as its help shows them (from the scene's "
               "file; `make docs` writes this section):\n\n");
    for (int i = 0; i < SCENE_COUNT; i++) {
        const struct scene_ops *s = scenes[i];
        char m[512];
        mouse_line(s, m, sizeof m);
        if (keys && s->keys)
            printf(".TP\n.B %s\n\\&%s.\n", s->name, s->keys);
        else if (mouse)
            printf(".TP\n.B %s\n\\&%s.\n", s->name, m);
        else if (md)
            printf("- **%s**: keys: %s. Mouse: %s.\n", s->name, s->keys ? s->keys : "none", m);
    }
    return fflush(stdout) == 0 ? 0 : 1;
}
