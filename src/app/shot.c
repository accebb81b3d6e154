/*
 * shot.c — the picture as a file (see shot.h). The scene draws any image it
 * is given (the pixel path relies on it too), so the picture is drawn afresh
 * as the terminal's own pixels would show it, whatever the glyphs on screen:
 * k pixels a canvas pixel each way, k the width of a cell in the terminal's
 * pixels (the pty's pixel size, or its answer to CSI 16 t; else SHOT_K), as
 * pixframe.c draws at its finest; a terminal stretches it over the cells'
 * height as it does that picture. The bytes are kitty.c's of a PNG frame:
 * a PNG file (24-bit, each row filtered by its left neighbour), or without
 * zlib the pixels' RGB, written as a PPM.
 * The file is opened with O_EXCL under the first free name, so two swirls
 * saving at once never write one file.
 */
#include "shot_internal.h"
#include "kitty.h"
#include "scene.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void shot_size(const struct app *a, int k, int *w, int *h)
{
    const long long cw = app_canvas_w(a) > 0 ? app_canvas_w(a) : 1;
    const long long ch = app_canvas_h(a) > 0 ? app_canvas_h(a) : 1;
    long long kk = k > 0 ? k : SHOT_K; /* a whole number: the scene fills the picture */
    while (kk > 1 && cw * ch * kk * kk > SHOT_MAX_PX)
        kk--;
    *w = (int)(cw * kk);
    *h = (int)(ch * kk);
}

/* A new file under the first free swirl-NAME-N.EXT; its fd (name in path),
 * or -1 with errno set. */
static int open_free(const char *name, const char *ext, char *path, size_t cap)
{
    for (int i = 1; i <= SHOT_MAX_N; i++) {
        snprintf(path, cap, "swirl-%s-%d.%s", name, i, ext);
        const int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    errno = EEXIST;
    return -1;
}

int shot_save(const struct app *a, int k, char *path, size_t cap)
{
    int w, h;
    shot_size(a, k, &w, &h);
    struct image im;
    image_init(&im, w, h);
    app_scene(a)->draw(a->st[a->cur], &im);
    /* kitty's bytes of a PNG frame: a PNG file; without zlib, its RGB, which
     * a PPM's header makes a file too. */
    struct kitty kt;
    kitty_init(&kt, 0, KITTY_PNG, SHOT_ZLIB_LEVEL);
    const bool png = kt.format == KITTY_PNG;
    const unsigned char *data;
    const size_t n = kitty_payload(&kt, &im, &data);
    char head[48] = "";
    if (!png)
        snprintf(head, sizeof head, "P6\n%d %d\n255\n", w, h);
    image_free(&im);
    const int fd = open_free(app_scene(a)->name, png ? "png" : "ppm", path, cap);
    int err = fd < 0 ? errno : 0;
    if (fd >= 0) {
        if (!buf_write_fd(fd, head, strlen(head), SHOT_WRITE_S) ||
            !buf_write_fd(fd, data, n, SHOT_WRITE_S))
            err = errno;
        if (close(fd) != 0 && !err)
            err = errno;
        if (err)
            unlink(path);
    }
    kitty_free(&kt);
    return err;
}

void shot_take(struct app *a, int k)
{
    char path[48], note[APP_NOTE_COLS];
    const int err = shot_save(a, k, path, sizeof path);
    if (err)
        snprintf(note, sizeof note, "not saved: %s", strerror(err));
    else
        snprintf(note, sizeof note, "saved %s", path);
    app_note(a, note);
}
