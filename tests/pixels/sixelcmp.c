/*
 * sixelcmp.c — swirl's sixel encoder against libsixel's on the scenes'
 * pictures: bytes, encoding ms and the mean RGB distance of the picture
 * drawn back (tests/pixdecode.c's decoder) from the image, a frame each, at
 * 100x30 and 200x60 cells of 8x17 pixels (the scene drawn at k = 4 and 8
 * image pixels a canvas pixel). What decided that swirl has an encoder of
 * its own (see docs/pixels.md); built by `make build/sixelcmp` where
 * libsixel is installed, never by the tests or the product.
 *
 *   build/sixelcmp [FRAMES]   (FRAMES per case, default 5)
 */
#include "app.h"
#include "frame.h"
#include "pixdecode.h"
#include "scene.h"
#include "sixel.h"

#include <math.h>
#include <sixel/sixel.h> /* libsixel's (sixel.h above is swirl's) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int to_buf(char *data, int size, void *priv)
{
    buf_put(priv, data, (size_t)size);
    return size;
}

/* libsixel: an adaptive palette of 256 (its median cut), with its default
 * diffusion or none, encoded with its default policy or its fast one. */
static void libsixel_frame(const struct image *im, unsigned char *rgb, bool diffuse,
                           struct buf *out)
{
    for (size_t i = 0; i < (size_t)im->w * (size_t)im->h; i++) {
        rgb[3 * i] = (unsigned char)rgb_r(im->px[i]);
        rgb[3 * i + 1] = (unsigned char)rgb_g(im->px[i]);
        rgb[3 * i + 2] = (unsigned char)rgb_b(im->px[i]);
    }
    sixel_output_t *o = NULL;
    sixel_dither_t *d = NULL;
    if (SIXEL_FAILED(sixel_output_new(&o, to_buf, out, NULL)) ||
        SIXEL_FAILED(sixel_dither_new(&d, 256, NULL)))
        abort();
    if (!diffuse)
        sixel_output_set_encode_policy(o, SIXEL_ENCODEPOLICY_FAST);
    sixel_dither_initialize(d, rgb, im->w, im->h, SIXEL_PIXELFORMAT_RGB888, SIXEL_LARGE_AUTO,
                            SIXEL_REP_AUTO, SIXEL_QUALITY_AUTO);
    sixel_dither_set_diffusion_type(d, diffuse ? SIXEL_DIFFUSE_AUTO : SIXEL_DIFFUSE_NONE);
    sixel_encode(rgb, im->w, im->h, 3, d, o);
    sixel_dither_unref(d);
    sixel_output_unref(o);
}

static double error_of(const char *s, size_t n, const struct image *im)
{
    const char *dcs = memchr(s, '\x1b', n);
    while (dcs && dcs + 1 < s + n && dcs[1] != 'P')
        dcs = memchr(dcs + 1, '\x1b', (size_t)(s + n - dcs - 1));
    if (!dcs)
        return -1.0;
    struct image back;
    struct px_sixel info;
    image_init(&back, 1, 1);
    double sum = -1.0;
    if (px_sixel_decode(dcs, (size_t)(s + n - dcs), &back, &info) && back.w >= im->w &&
        back.h >= im->h) {
        sum = 0.0;
        for (int y = 0; y < im->h; y++)
            for (int x = 0; x < im->w; x++) {
                const rgb_t a = im->px[(size_t)y * (size_t)im->w + (size_t)x];
                const rgb_t b = back.px[(size_t)y * (size_t)back.w + (size_t)x];
                const double dr = rgb_r(a) - rgb_r(b), dg = rgb_g(a) - rgb_g(b),
                             db = rgb_b(a) - rgb_b(b);
                sum += sqrt(dr * dr + dg * dg + db * db);
            }
        sum /= (double)im->w * im->h;
    }
    image_free(&back);
    return sum;
}

#define NENC 4
static const char *const names[NENC] = {"swirl median", "swirl cube", "libsixel diffused",
                                        "libsixel fast"};

int main(int argc, char **argv)
{
    const int frames = argc > 1 ? atoi(argv[1]) : 5;
    static const int sizes[2][2] = {{100, 30}, {200, 60}}, ks[2] = {4, 8};
    printf("sixel encoders, a frame of each scene under --auto (the mean of %d, 12 frames "
           "apart), KB / ms / mean RGB distance drawn back:\n", frames);
    for (int z = 0; z < 2; z++)
        for (int sc = 0; sc < SCENE_COUNT; sc++)
            for (int ki = 0; ki < 2; ki++) {
                struct app_opts o;
                app_opts_default(&o);
                o.autopilot = true, o.scene = sc, o.threads = 1;
                struct app a;
                if (app_init(&a, &o, sizes[z][0], sizes[z][1]) != 0)
                    return 1;
                const int k = ks[ki];
                struct image im;
                image_init(&im, k * app_canvas_w(&a), k * app_canvas_h(&a));
                unsigned char *rgb = malloc((size_t)im.w * (size_t)im.h * 3);
                double kb[NENC] = {0}, ms[NENC] = {0}, err[NENC] = {0};
                for (int f = 0; f < 60; f++)
                    app_advance_within(&a, 1.0 / 30, frame_now, 0.0);
                for (int s = 0; s < frames; s++) {
                    for (int f = 0; f < 12; f++)
                        app_advance_within(&a, 1.0 / 30, frame_now, 0.0);
                    app_scene(&a)->draw(a.st[a.cur], &im);
                    for (int e = 0; e < NENC; e++) {
                        struct buf out;
                        buf_init(&out);
                        struct sixel sx;
                        sixel_init(&sx, e == 1 ? QUANT_CUBE : QUANT_MEDIAN, 256);
                        const double t0 = frame_now();
                        if (e < 2)
                            sixel_frame(&sx, &im, 0, 0, &out);
                        else
                            libsixel_frame(&im, rgb, e == 2, &out);
                        ms[e] += (frame_now() - t0) * 1000.0 / frames;
                        kb[e] += (double)out.len / 1000.0 / frames;
                        err[e] += error_of(out.p, out.len, &im) / frames;
                        sixel_free(&sx);
                        buf_free(&out);
                    }
                }
                printf("  %-5s %dx%-3d k=%d %4dx%-4d", scenes[sc]->name, sizes[z][0], sizes[z][1],
                       k, im.w, im.h);
                for (int e = 0; e < NENC; e++)
                    printf(" | %s %6.1f KB %6.1f ms err %4.1f", names[e], kb[e], ms[e], err[e]);
                printf("\n");
                free(rgb);
                image_free(&im);
                app_free(&a);
            }
    return 0;
}
