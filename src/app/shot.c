/*
 * shot.c — the picture as a file (see shot.h). The scene draws any image it
 * is given (the pixel path relies on it too), so the picture is drawn afresh
 * as the terminal's own pixels would show it, whatever the glyphs on screen:
 * k pixels a canvas pixel each way, k the width of a cell in the terminal's
 * pixels (the pty's pixel size, or its answer to CSI 16 t; else SHOT_K), as
 * pixframe.c draws at its finest; a terminal stretches it over the cells'
 * height as it does that picture. PNG is kitty.c's writer (24-bit, each row
 * filtered by its left neighbour); without zlib, a PPM of the same pixels.
 * The file is opened with O_EXCL under the first free name, so two swirls
 * saving at once never write one file.
 */
#include "shot_internal.h"
#include "kitty.h"
#include "scene.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
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

/* All of p[0..n) to fd; 0 or errno. */
static int write_all(int fd, const unsigned char *p, size_t n)
{
    while (n > 0) {
        const ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return w < 0 ? errno : EIO;
        p += w, n -= (size_t)w;
    }
    return 0;
}

/* The image as a binary PPM in *out (malloc'd); its size, 0 out of memory. */
static size_t ppm(const struct image *im, unsigned char **out)
{
    char head[48];
    const int hn = snprintf(head, sizeof head, "P6\n%d %d\n255\n", im->w, im->h);
    const size_t n = (size_t)hn + (size_t)im->w * (size_t)im->h * 3;
    unsigned char *p = malloc(n);
    if (!p)
        return 0;
    memcpy(p, head, (size_t)hn);
    unsigned char *o = p + hn;
    for (size_t i = 0; i < (size_t)im->w * (size_t)im->h; i++, o += 3)
        o[0] = (unsigned char)rgb_r(im->px[i]), o[1] = (unsigned char)rgb_g(im->px[i]),
        o[2] = (unsigned char)rgb_b(im->px[i]);
    *out = p;
    return n;
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
    struct kitty png;
    kitty_init(&png, 0, KITTY_PNG, 6);
    const unsigned char *data;
    unsigned char *own = NULL;
    size_t n = kitty_png(&png, &im, &data);
    const char *ext = "png";
    if (n == 0) {
        n = ppm(&im, &own);
        data = own, ext = "ppm";
    }
    image_free(&im);
    int err = n == 0 ? ENOMEM : 0;
    const int fd = err ? -1 : open_free(app_scene(a)->name, ext, path, cap);
    if (!err && fd < 0)
        err = errno;
    if (fd >= 0) {
        err = write_all(fd, data, n);
        if (close(fd) != 0 && !err)
            err = errno;
        if (err)
            unlink(path);
    }
    kitty_free(&png);
    free(own);
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
