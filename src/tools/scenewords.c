/*
 * scenewords.c — swirl-scenewords FORMAT, the build's program that writes
 * each scene's keys and mouse from the scene table (scene_words: each scene's
 * own .keys and .mouse, the words its help shows), for the man page's KEYS
 * and MOUSE (man-keys, man-mouse: roff) and for docs/scenes.md (md: the
 * section "Keys and mouse", which a test holds to the same). Never installed.
 */
#include "buf.h"
#include "scene.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    static const char *const names[] = {"man-keys", "man-mouse", "md"};
    int f = -1;
    for (int i = 0; i < 3 && argc == 2; i++)
        if (strcmp(argv[1], names[i]) == 0)
            f = i;
    if (f < 0) {
        fputs("usage: swirl-scenewords man-keys|man-mouse|md\n", stderr);
        return 2;
    }
    struct buf out;
    buf_init(&out);
    scene_words(&out, (enum scene_words)f);
    bool ok = fwrite(out.p, 1, out.len, stdout) == out.len && fflush(stdout) == 0;
    buf_free(&out);
    return ok ? 0 : 1;
}
