/*
 * test_kitty.c — kitty.c's frames read back (tests/pixdecode.c): the cursor
 * saved, moved and restored; the commands' keys; base64 chunks of at most
 * 4096 bytes with m=1 on all but the last; the pixels, inflated (zlib) or
 * raw, or as PNG, equal to the image drawn; two ids in turn, the last
 * frame's deleted after the new one is shown; an unchanged frame sends
 * nothing; the clear deletes both.
 */
#include "kitty.h"
#include "pixdecode.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An image no compressor can shrink much (a noise of every channel), or a
 * smooth one. */
static void noise(struct image *im, int w, int h, uint32_t seed)
{
    image_init(im, w, h);
    struct rng r = {seed};
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++)
        im->px[i] = rng_next(&r) & 0xffffff;
}

static void smooth(struct image *im, int w, int h)
{
    image_init(im, w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            im->px[(size_t)y * (size_t)w + (size_t)x] = RGB(x * 255 / w, y * 255 / h, 128);
}

/* A frame read back: its commands, the image data joined and decoded. */
#define MAX_CMDS 64
struct frame {
    int ncmds;
    struct px_cmd cmd[MAX_CMDS];
    unsigned char *data;   /* the transmitted chunks' base64, decoded */
    size_t len;
    bool ok;
};

/* Reads out[0..n): ESC 7, CUP row;col, the commands, ESC 8 (nothing else). */
static void read_frame(const char *s, size_t n, int row, int col, struct frame *f)
{
    memset(f, 0, sizeof *f);
    char cup[32];
    const int m = snprintf(cup, sizeof cup, "\x1b" "7\x1b[%d;%dH", row + 1, col + 1);
    CHECK_MSG(n > (size_t)m + 2 && memcmp(s, cup, (size_t)m) == 0,
              "a frame begins with DECSC and CUP to its cell");
    CHECK_MSG(n >= 2 && memcmp(s + n - 2, "\x1b" "8", 2) == 0, "a frame ends with DECRC");
    size_t at = (size_t)m;
    while (at < n - 2) {
        CHECK(f->ncmds < MAX_CMDS);
        struct px_cmd *c = &f->cmd[f->ncmds];
        const size_t used = px_parse_cmd(s + at, n - 2 - at, c);
        CHECK_MSG(used > 0, "a graphics command at byte %zu", at);
        if (!used || f->ncmds == MAX_CMDS - 1)
            return;
        const char *a = px_key(c, "a");
        if (!a || strcmp(a, "d") != 0) /* a transmission's chunk */
            CHECK(px_base64(c->payload, c->payload_len, &f->data, &f->len));
        f->ncmds++;
        at += used;
    }
    f->ok = true;
}

static void free_frame(struct frame *f) { free(f->data); }

static bool key_is(const struct px_cmd *c, const char *k, const char *v)
{
    const char *got = px_key(c, k);
    return got && strcmp(got, v) == 0;
}

/* The chunks of the transmission that opens f: keys, sizes, m and q. */
static int check_chunks(const struct frame *f)
{
    int n = 0;
    while (n < f->ncmds && !key_is(&f->cmd[n], "a", "d"))
        n++;
    CHECK(n >= 1);
    for (int i = 0; i < n; i++) {
        const struct px_cmd *c = &f->cmd[i];
        CHECK_MSG(c->payload_len <= KITTY_CHUNK && c->payload_len % 4 == 0,
                  "chunk %d: %zu base64 bytes", i, c->payload_len);
        CHECK_MSG(key_is(c, "m", i + 1 < n ? "1" : "0"), "chunk %d of %d: m", i, n);
        CHECK_MSG(key_is(c, "q", "2"), "chunk %d: q=2", i);
        if (i > 0)
            CHECK_MSG(c->nkeys == 2, "chunk %d has m and q alone", i);
        if (i + 1 < n)
            CHECK_INT(c->payload_len, KITTY_CHUNK);
    }
    return n;
}

/* The RGB bytes of im equal data[0..len). */
static bool rgb_equal(const struct image *im, const unsigned char *data, size_t len)
{
    if (len != (size_t)im->w * (size_t)im->h * 3)
        return false;
    for (size_t i = 0; i < (size_t)im->w * (size_t)im->h; i++)
        if (RGB(data[3 * i], data[3 * i + 1], data[3 * i + 2]) != im->px[i])
            return false;
    return true;
}

TEST(kitty_frame_is_chunked_base64_of_the_deflated_pixels_placed_over_its_cells)
{
    if (!kitty_zlib())
        test_skip("built without zlib");
    struct image im;
    noise(&im, 211, 67, 7); /* 42 KB: eleven chunks, the last one short */
    struct kitty k;
    kitty_init(&k, KITTY_ID, KITTY_RGB, 1);
    struct buf out;
    buf_init(&out);
    CHECK(kitty_frame(&k, &im, 4, 2, 60, 20, &out));
    struct frame f;
    read_frame(out.p, out.len, 2, 4, &f);
    CHECK(f.ok);
    const int n = check_chunks(&f);
    CHECK_MSG(n > 10, "%d chunks", n);
    const struct px_cmd *c = &f.cmd[0];
    CHECK(key_is(c, "a", "T") && key_is(c, "f", "24") && key_is(c, "o", "z"));
    CHECK(key_is(c, "s", "211") && key_is(c, "v", "67"));
    CHECK(key_is(c, "c", "60") && key_is(c, "r", "20") && key_is(c, "C", "1"));
    CHECK(key_is(c, "i", "21367")); /* KITTY_ID */
    CHECK_MSG(n == f.ncmds, "a first frame deletes nothing");
    const size_t raw = (size_t)im.w * (size_t)im.h * 3;
    unsigned char *px = malloc(raw + 1);
    const long got = px_inflate(f.data, f.len, px, raw + 1);
    CHECK_INT(got, (long)raw);
    CHECK_MSG(got == (long)raw && rgb_equal(&im, px, raw), "the inflated bytes are the image");
    free(px);
    free_frame(&f);
    buf_free(&out);
    kitty_free(&k);
    image_free(&im);
}

TEST(kitty_base64_ends_as_it_must_whatever_the_bytes_left_over)
{
    if (!kitty_zlib())
        test_skip("built without zlib");
    /* Deflated noise of four levels a channel (it compresses, by an amount
     * that varies), of a few sizes, until the data has left one byte over a
     * multiple of three and two bytes (==, =). */
    bool seen[3] = {false, false, false};
    for (int w = 5; w < 60 && !(seen[1] && seen[2]); w++) {
        struct image im;
        noise(&im, w, 3, (uint32_t)w);
        for (int i = 0; i < 3 * w; i++)
            im.px[i] &= 0x030303;
        struct kitty k;
        kitty_init(&k, KITTY_ID, KITTY_RGB, 1);
        struct buf out;
        buf_init(&out);
        CHECK(kitty_frame(&k, &im, 0, 0, 5, 1, &out));
        struct frame f;
        read_frame(out.p, out.len, 0, 0, &f);
        CHECK(f.ok);
        unsigned char px[60 * 3 * 3 + 1];
        CHECK_MSG(px_inflate(f.data, f.len, px, sizeof px) == w * 9 &&
                      rgb_equal(&im, px, (size_t)w * 9),
                  "%dx3: the data inflates to the image", w);
        seen[f.len % 3] = true;
        free_frame(&f);
        buf_free(&out);
        kitty_free(&k);
        image_free(&im);
    }
    CHECK_MSG(seen[1] && seen[2], "both paddings met");
}

TEST(kitty_frame_without_compression_sends_the_rgb_bytes_themselves)
{
    struct image im;
    noise(&im, 33, 17, 3); /* 1683 bytes: one chunk, padded base64 */
    struct kitty k;
    kitty_init(&k, 100, KITTY_PNG, 0); /* level 0: raw, and PNG is given up */
    struct buf out;
    buf_init(&out);
    CHECK(kitty_frame(&k, &im, 0, 0, 10, 5, &out));
    struct frame f;
    read_frame(out.p, out.len, 0, 0, &f);
    CHECK(f.ok && check_chunks(&f) == 1);
    CHECK(key_is(&f.cmd[0], "f", "24") && !px_key(&f.cmd[0], "o"));
    CHECK(key_is(&f.cmd[0], "i", "100"));
    CHECK_MSG(rgb_equal(&im, f.data, f.len), "the base64 is the image's RGB bytes");
    free_frame(&f);
    buf_free(&out);
    kitty_free(&k);
    image_free(&im);
}

TEST(kitty_png_frame_is_a_png_of_the_image)
{
    if (!kitty_zlib())
        test_skip("built without zlib");
    struct kitty k;
    kitty_init(&k, KITTY_ID, KITTY_PNG, 6);
    struct buf out;
    buf_init(&out);
    for (int pass = 0; pass < 2; pass++) { /* a smooth picture, then noise */
        struct image im, back;
        if (pass == 0)
            smooth(&im, 320, 90);
        else
            noise(&im, 97, 31, 11);
        image_init(&back, 1, 1);
        buf_clear(&out);
        CHECK(kitty_frame(&k, &im, 1, 1, 40, 12, &out));
        struct frame f;
        read_frame(out.p, out.len, 1, 1, &f);
        CHECK(f.ok);
        check_chunks(&f);
        CHECK(key_is(&f.cmd[0], "f", "100") && !px_key(&f.cmd[0], "s") &&
              !px_key(&f.cmd[0], "o"));
        const char *why = "no data";
        CHECK_MSG(f.len && px_png(f.data, f.len, &back, &why), "PNG: %s", why);
        CHECK_MSG(image_same(&im, &back), "the PNG's pixels are the image's");
        if (pass == 0)
            CHECK_MSG(f.len < (size_t)im.w * (size_t)im.h / 4,
                      "a smooth picture's PNG is small: %zu bytes", f.len);
        free_frame(&f);
        image_free(&back);
        image_free(&im);
    }
    buf_free(&out);
    kitty_free(&k);
}

/* Six colours in stripes. */
static void stripes(struct image *im, int w, int h)
{
    static const rgb_t c[6] = {RGB(0, 0, 0), RGB(250, 250, 250), RGB(200, 30, 40),
                               RGB(20, 180, 60), RGB(30, 60, 220), RGB(91, 17, 133)};
    image_init(im, w, h);
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++)
        im->px[i] = c[(i / 7 + i / (size_t)w) % 6];
}

TEST(kitty_png8_frame_is_a_palette_png_near_the_image)
{
    if (!kitty_zlib())
        test_skip("built without zlib");
    struct kitty k;
    kitty_init(&k, KITTY_ID, KITTY_PNG8, 1);
    struct buf out;
    buf_init(&out);
    for (int pass = 0; pass < 2; pass++) {
        struct image im, back;
        if (pass == 0)
            stripes(&im, 123, 45);
        else
            smooth(&im, 300, 100);
        image_init(&back, 1, 1);
        buf_clear(&out);
        CHECK(kitty_frame(&k, &im, 0, 0, 30, 10, &out));
        struct frame f;
        read_frame(out.p, out.len, 0, 0, &f);
        CHECK(f.ok && key_is(&f.cmd[0], "f", "100"));
        const char *why = "no data";
        CHECK_MSG(f.len && px_png(f.data, f.len, &back, &why), "PNG: %s", why);
        if (pass == 0) {
            CHECK_MSG(image_same(&im, &back), "six colours: the PNG is the image exactly");
        } else if (back.w == im.w && back.h == im.h) {
            /* 300 x 100 shades of red and green in 256 colours, dithered:
             * each pixel one of the two colours around it, so not far from
             * the palette's nearest to it; and each 4 x 4 block (the
             * thresholds' pattern) on the whole near the image's. */
            rgb_t pal[256];
            const int n = px_colours(&back, pal, 256);
            CHECK_MSG(n > 200 && n <= 256, "%d colours", n);
            const double worst = px_beyond_nearest(&im, &back);
            CHECK_MSG(worst <= 24.0, "a pixel %.1f further than the nearest", worst);
            const double blocks = px_block_error(&im, &back);
            CHECK_MSG(blocks < 2.0, "4x4 blocks off by %.2f on the whole", blocks);
        }
        free_frame(&f);
        image_free(&back);
        image_free(&im);
    }
    buf_free(&out);
    kitty_free(&k);
}

/* The id frame `f` was sent to and the one it deleted (-1: none). */
static void ids_of(const struct frame *f, long *sent, long *deleted)
{
    *sent = *deleted = -1;
    for (int i = 0; i < f->ncmds; i++) {
        const char *id = px_key(&f->cmd[i], "i");
        if (key_is(&f->cmd[i], "a", "T") && id)
            *sent = atol(id);
        if (key_is(&f->cmd[i], "a", "d") && id) {
            CHECK_MSG(key_is(&f->cmd[i], "d", "I") && key_is(&f->cmd[i], "q", "2"),
                      "a delete frees the data (d=I) and asks no answer");
            CHECK_MSG(i == f->ncmds - 1, "the delete comes after the new frame is shown");
            *deleted = atol(id);
        }
    }
}

TEST(kitty_frames_take_two_ids_in_turn_each_deleting_the_last)
{
    struct image im;
    smooth(&im, 40, 20);
    struct kitty k;
    kitty_init(&k, 500, KITTY_RGB, 1);
    struct buf out;
    buf_init(&out);
    long want_sent[] = {500, 501, 500, 501}, want_deleted[] = {-1, 500, 501, 500};
    for (int fr = 0; fr < 4; fr++) {
        im.px[fr] ^= 0xff; /* each frame a new picture */
        buf_clear(&out);
        CHECK(kitty_frame(&k, &im, 0, 0, 20, 10, &out));
        struct frame f;
        read_frame(out.p, out.len, 0, 0, &f);
        long sent, deleted;
        ids_of(&f, &sent, &deleted);
        CHECK_INT(sent, want_sent[fr]);
        CHECK_INT(deleted, want_deleted[fr]);
        free_frame(&f);
    }
    /* The same picture in the same place: nothing. Moved, or after an
     * invalidate: sent again. */
    buf_clear(&out);
    CHECK(!kitty_frame(&k, &im, 0, 0, 20, 10, &out));
    CHECK_INT(out.len, 0);
    CHECK(kitty_frame(&k, &im, 0, 0, 21, 10, &out));
    CHECK(out.len > 0);
    buf_clear(&out);
    kitty_invalidate(&k);
    CHECK(kitty_frame(&k, &im, 0, 0, 21, 10, &out));
    CHECK(out.len > 0);
    /* Leaving: both ids deleted with their data, and nothing else. */
    buf_clear(&out);
    kitty_clear(&k, &out);
    struct px_cmd c;
    size_t at = 0;
    for (long id = 500; id <= 501; id++) {
        const size_t used = px_parse_cmd(out.p + at, out.len - at, &c);
        CHECK(used > 0 && key_is(&c, "a", "d") && key_is(&c, "d", "I"));
        CHECK_INT(atol(px_key(&c, "i") ? px_key(&c, "i") : "0"), id);
        at += used;
    }
    CHECK_INT(at, out.len);
    buf_free(&out);
    kitty_free(&k);
    image_free(&im);
}
