/*
 * kitty.c — frames in the kitty graphics protocol (see kitty.h).
 *
 * A frame's pixels are packed as bytes (RGB, or PNG's rows each led by its
 * filter byte), deflated by zlib into a stream kept from frame to frame (no
 * allocation once the sizes settle), then written as base64 straight into
 * the output, a command header before every KITTY_CHUNK bytes of it. PNG is
 * written here from its parts (signature, IHDR, one IDAT, IEND, each with
 * zlib's CRC-32): rows filtered by Sub (each byte less the one a pixel to its
 * left), which turns a smooth picture's slow slopes into runs of small
 * numbers that deflate well.
 */
#include "kitty.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef SWIRL_ZLIB
#include <zlib.h>
#endif

void kitty_init(struct kitty *k, unsigned id, enum kitty_format format, int level)
{
    memset(k, 0, sizeof *k);
    k->id[0] = id;
    k->id[1] = id + 1;
    k->format = format;
    k->level = kitty_zlib() ? clampi(level, 0, 9) : 0;
    if (k->level == 0)
        k->format = KITTY_RGB; /* PNG needs deflate */
    if (k->format == KITTY_PNG8)
        quant_init(&k->q, QUANT_MEDIAN, 256);
    k->z = KITTY_Z_UNDER;
}

bool kitty_zlib(void)
{
#ifdef SWIRL_ZLIB
    return true;
#else
    return false;
#endif
}

void kitty_free(struct kitty *k)
{
#ifdef SWIRL_ZLIB
    if (k->zs) {
        deflateEnd(k->zs);
        free(k->zs);
    }
#endif
    if (k->format == KITTY_PNG8)
        quant_free(&k->q);
    free(k->raw);
    free(k->packed);
    free(k->idx);
    k->idx = NULL;
    k->idx_cap = 0;
    image_free(&k->sent);
    k->zs = NULL;
    k->raw = k->packed = NULL;
    k->raw_cap = k->packed_cap = 0;
}

static void grow(unsigned char **p, size_t *cap, size_t n)
{
    if (*cap < n) {
        *p = buf_xrealloc(*p, n);
        *cap = n;
    }
}

/* The pixels as bytes: RGB, or PNG's rows, each its filter byte (1: Sub)
 * and the differences from the pixel to the left. Returns the count. */
static size_t pack(struct kitty *k, const struct image *im, bool png)
{
    const size_t w = (size_t)im->w, n = w * (size_t)im->h * 3 + (png ? (size_t)im->h : 0);
    grow(&k->raw, &k->raw_cap, n);
    unsigned char *o = k->raw;
    for (int y = 0; y < im->h; y++) {
        const rgb_t *row = im->px + (size_t)y * w;
        if (png) {
            *o++ = 1;
            rgb_t left = 0;
            for (size_t x = 0; x < w; x++) {
                const rgb_t c = row[x];
                *o++ = (unsigned char)(rgb_r(c) - rgb_r(left));
                *o++ = (unsigned char)(rgb_g(c) - rgb_g(left));
                *o++ = (unsigned char)(rgb_b(c) - rgb_b(left));
                left = c;
            }
        } else {
            for (size_t x = 0; x < w; x++) {
                const rgb_t c = row[x];
                o[0] = (unsigned char)rgb_r(c), o[1] = (unsigned char)rgb_g(c);
                o[2] = (unsigned char)rgb_b(c);
                o += 3;
            }
        }
    }
    return n;
}

#ifdef SWIRL_ZLIB
/* src[0..n) deflated (a zlib stream) into k->packed at `at`; returns the
 * bytes it took. */
static size_t deflate_into(struct kitty *k, const unsigned char *src, size_t n, size_t at)
{
    z_stream *zs = k->zs;
    if (!zs) {
        zs = k->zs = buf_xrealloc(NULL, sizeof *zs);
        memset(zs, 0, sizeof *zs);
        if (deflateInit(zs, k->level) != Z_OK)
            abort(); /* only out of memory */
    } else {
        deflateReset(zs);
    }
    const size_t bound = deflateBound(zs, (uLong)n);
    grow(&k->packed, &k->packed_cap, at + bound + 64);
    zs->next_in = (Bytef *)(uintptr_t)src;
    zs->avail_in = (uInt)n;
    zs->next_out = k->packed + at;
    zs->avail_out = (uInt)bound;
    if (deflate(zs, Z_FINISH) != Z_STREAM_END)
        abort(); /* deflateBound is enough for any input */
    return (size_t)zs->total_out;
}

static void put_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24), p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8), p[3] = (unsigned char)v;
}

/* A PNG chunk whose data (n bytes) already sits at p + 8: its length, its
 * type and, after the data, its CRC. Returns the chunk's whole size. */
static size_t png_chunk(unsigned char *p, const char *type, size_t n)
{
    put_be32(p, (uint32_t)n);
    memcpy(p + 4, type, 4);
    put_be32(p + 8 + n, (uint32_t)crc32(crc32(0L, Z_NULL, 0), p + 4, (uInt)(n + 4)));
    return n + 12;
}

/* PNG8's rows: each its filter byte (0: none) and its pixels' palette
 * indices (the frame's own palette, by median cut). Returns the count. */
static size_t pack_indexed(struct kitty *k, const struct image *im)
{
    const size_t w = (size_t)im->w, h = (size_t)im->h, n = (w + 1) * h;
    grow(&k->idx, &k->idx_cap, w * h);
    grow(&k->raw, &k->raw_cap, n);
    quant_image(&k->q, im, k->idx);
    for (size_t y = 0; y < h; y++) {
        k->raw[y * (w + 1)] = 0;
        memcpy(k->raw + y * (w + 1) + 1, k->idx + y * w, w);
    }
    return n;
}

/* The whole PNG file of im in k->packed; returns its size. */
static size_t png_file(struct kitty *k, const struct image *im)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    const bool indexed = k->format == KITTY_PNG8;
    const size_t n = indexed ? pack_indexed(k, im) : pack(k, im, true);
    const size_t plte = indexed ? 12 + 3 * (size_t)k->q.n : 0;
    const size_t head = 8 + 25 + plte + 8; /* signature, IHDR, PLTE, IDAT's length and type */
    const size_t z = deflate_into(k, k->raw, n, head);
    grow(&k->packed, &k->packed_cap, head + z + 4 + 12);
    unsigned char *p = k->packed;
    memcpy(p, sig, 8);
    put_be32(p + 16, (uint32_t)im->w);
    put_be32(p + 20, (uint32_t)im->h);
    /* 8 bits, RGB or a palette's indices, deflate, rows filtered, none interlaced */
    memcpy(p + 24, indexed ? "\x08\x03\x00\x00\x00" : "\x08\x02\x00\x00\x00", 5);
    size_t at = 8 + png_chunk(p + 8, "IHDR", 13);
    if (indexed) {
        for (int i = 0; i < k->q.n; i++) {
            unsigned char *c = p + at + 8 + 3 * (size_t)i;
            c[0] = (unsigned char)rgb_r(k->q.pal[i]), c[1] = (unsigned char)rgb_g(k->q.pal[i]);
            c[2] = (unsigned char)rgb_b(k->q.pal[i]);
        }
        at += png_chunk(p + at, "PLTE", 3 * (size_t)k->q.n);
    }
    at += png_chunk(p + at, "IDAT", z);
    at += png_chunk(p + at, "IEND", 0);
    return at;
}
#endif

size_t kitty_payload(struct kitty *k, const struct image *im, const unsigned char **data)
{
#ifdef SWIRL_ZLIB
    if (k->format != KITTY_RGB) {
        const size_t n = png_file(k, im);
        *data = k->packed;
        return n;
    }
    if (k->level > 0) {
        const size_t n = deflate_into(k, k->raw, pack(k, im, false), 0);
        *data = k->packed;
        return n;
    }
#endif
    const size_t n = pack(k, im, false);
    *data = k->raw;
    return n;
}

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* base64 of src[0..n) (n a multiple of 3 but for the last piece) to o;
 * returns the end. */
static char *base64(char *o, const unsigned char *s, size_t n)
{
    size_t i = 0;
    for (; i + 3 <= n; i += 3, o += 4) {
        const uint32_t v = (uint32_t)s[i] << 16 | (uint32_t)s[i + 1] << 8 | s[i + 2];
        o[0] = b64[v >> 18], o[1] = b64[(v >> 12) & 63], o[2] = b64[(v >> 6) & 63];
        o[3] = b64[v & 63];
    }
    if (i < n) {
        const uint32_t v = (uint32_t)s[i] << 16 | (i + 1 < n ? (uint32_t)s[i + 1] << 8 : 0);
        o[0] = b64[v >> 18], o[1] = b64[(v >> 12) & 63];
        o[2] = i + 1 < n ? b64[(v >> 6) & 63] : '=';
        o[3] = '=';
        o += 4;
    }
    return o;
}

/* The transmit-and-show command with data[0..n) in chunks: the first
 * chunk's header `first` (its keys, without m and q), the others m and q
 * alone. */
static void chunks(struct buf *out, const char *first, const unsigned char *data, size_t n)
{
    const size_t raw_chunk = KITTY_CHUNK / 4 * 3; /* the bytes a chunk's base64 holds */
    const size_t nchunks = n ? (n + raw_chunk - 1) / raw_chunk : 1;
    buf_reserve(out, (n + 2) / 3 * 4 + nchunks * 24 + strlen(first));
    for (size_t c = 0; c < nchunks; c++) {
        const size_t at = c * raw_chunk, len = n - at < raw_chunk ? n - at : raw_chunk;
        const bool more = c + 1 < nchunks;
        if (c == 0)
            buf_printf(out, "\x1b_G%s,q=2,m=%d;", first, more);
        else
            buf_puts(out, more ? "\x1b_Gm=1,q=2;" : "\x1b_Gm=0,q=2;");
        buf_reserve(out, KITTY_CHUNK + 2);
        char *end = base64(out->p + out->len, data + at, len);
        out->len = (size_t)(end - out->p);
        buf_puts(out, "\x1b\\");
    }
}

void kitty_invalidate(struct kitty *k) { k->sent_place[2] = 0; }

bool kitty_frame(struct kitty *k, const struct image *im, int col, int row, int cols, int rows,
                 struct buf *out)
{
    const int place[4] = {col, row, cols, rows};
    if (im->w < 1 || im->h < 1 ||
        (!memcmp(place, k->sent_place, sizeof place) && image_same(im, &k->sent)))
        return false;
    image_copy(&k->sent, im);
    memcpy(k->sent_place, place, sizeof place);
    const unsigned char *data;
    const size_t n = kitty_payload(k, im, &data);
    k->payload = n;
    char first[192];
    if (k->format != KITTY_RGB)
        snprintf(first, sizeof first, "a=T,f=100,i=%u,c=%d,r=%d,C=1,z=%d", k->id[k->turn],
                 cols, rows, k->z);
    else
        snprintf(first, sizeof first, "a=T,f=24,s=%d,v=%d%s,i=%u,c=%d,r=%d,C=1,z=%d", im->w,
                 im->h, k->level > 0 ? ",o=z" : "", k->id[k->turn], cols, rows, k->z);
    buf_printf(out, "\x1b" "7\x1b[%d;%dH", row + 1, col + 1);
    chunks(out, first, data, n);
    if (k->shown)
        buf_printf(out, "\x1b_Ga=d,d=I,i=%u,q=2\x1b\\", k->id[!k->turn]);
    buf_puts(out, "\x1b" "8");
    k->shown = true;
    k->turn = !k->turn;
    return true;
}

void kitty_clear(struct kitty *k, struct buf *out)
{
    for (int i = 0; i < 2; i++)
        buf_printf(out, "\x1b_Ga=d,d=I,i=%u,q=2\x1b\\", k->id[i]);
    k->shown = false;
    kitty_invalidate(k);
}
