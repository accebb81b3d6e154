/*
 * pixdecode.c — the tests' readers of pixel frames (see pixdecode.h): the
 * kitty protocol's commands and payloads, PNG, and sixel as a VT340-like
 * terminal draws it.
 */
#include "pixdecode.h"
#include "buf.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef SWIRL_ZLIB
#include <zlib.h>
#endif

const char *px_key(const struct px_cmd *c, const char *k)
{
    for (int i = 0; i < c->nkeys; i++)
        if (strcmp(c->key[i], k) == 0)
            return c->val[i];
    return NULL;
}

size_t px_parse_cmd(const char *s, size_t n, struct px_cmd *c)
{
    memset(c, 0, sizeof *c);
    if (n < 3 || memcmp(s, "\x1b_G", 3) != 0)
        return 0;
    size_t i = 3;
    while (i < n && s[i] != ';' && s[i] != '\x1b') { /* key=value,... */
        if (c->nkeys == PX_KEYS)
            return 0;
        size_t k = 0, v = 0;
        while (i < n && s[i] != '=' && k < sizeof c->key[0] - 1)
            c->key[c->nkeys][k++] = s[i++];
        if (i >= n || s[i] != '=')
            return 0;
        i++;
        while (i < n && s[i] != ',' && s[i] != ';' && s[i] != '\x1b' && v < sizeof c->val[0] - 1)
            c->val[c->nkeys][v++] = s[i++];
        c->nkeys++;
        if (i < n && s[i] == ',')
            i++;
    }
    if (i < n && s[i] == ';')
        i++;
    c->payload = s + i;
    while (i + 1 < n && !(s[i] == '\x1b' && s[i + 1] == '\\'))
        i++;
    if (i + 1 >= n)
        return 0;
    c->payload_len = (size_t)(s + i - c->payload);
    return i + 2;
}

static int b64_value(char ch)
{
    if (ch >= 'A' && ch <= 'Z')
        return ch - 'A';
    if (ch >= 'a' && ch <= 'z')
        return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9')
        return ch - '0' + 52;
    return ch == '+' ? 62 : ch == '/' ? 63 : -1;
}

bool px_base64(const char *in, size_t n, unsigned char **out, size_t *len)
{
    if (n % 4)
        return false;
    *out = buf_xrealloc(*out, *len + n / 4 * 3 + 1);
    for (size_t i = 0; i < n; i += 4) {
        int v[4], pad = 0;
        for (int k = 0; k < 4; k++) {
            if (in[i + k] == '=' && i + 4 == n && k >= 2) {
                v[k] = 0, pad++;
                continue;
            }
            if (pad || (v[k] = b64_value(in[i + k])) < 0)
                return false;
        }
        const uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 |
                           (uint32_t)v[3];
        const unsigned char b[3] = {(unsigned char)(w >> 16), (unsigned char)(w >> 8),
                                    (unsigned char)w};
        memcpy(*out + *len, b, (size_t)(3 - pad));
        *len += (size_t)(3 - pad);
    }
    return true;
}

long px_inflate(const unsigned char *in, size_t n, unsigned char *out, size_t cap)
{
#ifdef SWIRL_ZLIB
    uLongf got = (uLongf)cap;
    if (uncompress(out, &got, in, (uLong)n) != Z_OK)
        return -1;
    return (long)got;
#else
    (void)in, (void)n, (void)out, (void)cap;
    return -1;
#endif
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int paeth(int a, int b, int c)
{
    const int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* PNG's five row filters undone in place: raw holds h rows of 1 + bpp w
 * bytes (bpp: bytes a pixel). */
static bool unfilter(unsigned char *raw, int w, int h, size_t bpp)
{
    const size_t stride = 1 + bpp * (size_t)w;
    for (int y = 0; y < h; y++) {
        unsigned char *r = raw + (size_t)y * stride + 1;
        const unsigned char *up = y ? r - stride : NULL;
        const int f = r[-1];
        if (f > 4)
            return false;
        for (size_t x = 0; x < bpp * (size_t)w; x++) {
            const int a = x >= bpp ? r[x - bpp] : 0, b = up ? up[x] : 0;
            const int c = up && x >= bpp ? up[x - bpp] : 0;
            const int add = f == 1   ? a
                            : f == 2 ? b
                            : f == 3 ? (a + b) / 2
                            : f == 4 ? paeth(a, b, c)
                                     : 0;
            r[x] = (unsigned char)(r[x] + add);
        }
    }
    return true;
}

#define PNG_FAIL(reason)                                                     \
    do {                                                                     \
        *why = reason;                                                       \
        free(idat);                                                          \
        return false;                                                        \
    } while (0)

bool px_png(const unsigned char *p, size_t n, struct image *im, const char **why)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    unsigned char *idat = NULL;
    size_t idat_len = 0, at = 8, bpp = 3;
    int w = 0, h = 0, npal = 0;
    rgb_t pal[256];
    bool end = false;
    if (n < 8 || memcmp(p, sig, 8) != 0)
        PNG_FAIL("no PNG signature");
    while (!end) {
        if (at + 12 > n || be32(p + at) > n - at - 12)
            PNG_FAIL("a chunk runs past the end");
        const size_t len = be32(p + at);
        const unsigned char *type = p + at + 4, *data = p + at + 8;
#ifdef SWIRL_ZLIB
        if (crc32(crc32(0L, Z_NULL, 0), type, (uInt)(len + 4)) != be32(data + len))
            PNG_FAIL("a chunk's CRC is wrong");
#endif
        if (!memcmp(type, "IHDR", 4)) {
            if (len != 13 || data[8] != 8 || (data[9] != 2 && data[9] != 3) ||
                memcmp(data + 10, "\x00\x00\x00", 3) != 0)
                PNG_FAIL("IHDR is not 8-bit RGB or indexed, deflate, filtered, not interlaced");
            w = (int)be32(data), h = (int)be32(data + 4), bpp = data[9] == 2 ? 3 : 1;
        } else if (!memcmp(type, "PLTE", 4)) {
            if (len % 3 || len > 768 || npal)
                PNG_FAIL("PLTE is not up to 256 colours, once");
            for (npal = 0; npal < (int)len / 3; npal++)
                pal[npal] = RGB(data[3 * npal], data[3 * npal + 1], data[3 * npal + 2]);
        } else if (!memcmp(type, "IDAT", 4)) {
            idat = buf_xrealloc(idat, idat_len + len + 1);
            memcpy(idat + idat_len, data, len);
            idat_len += len;
        } else if (!memcmp(type, "IEND", 4)) {
            end = true;
        }
        at += len + 12;
    }
    if (w < 1 || h < 1 || at != n || (bpp == 1 && !npal))
        PNG_FAIL("no IHDR, bytes after IEND, or indexed with no PLTE");
    const size_t want = (size_t)h * (1 + bpp * (size_t)w);
    unsigned char *raw = buf_xrealloc(NULL, want + 1);
    const long got = px_inflate(idat, idat_len, raw, want + 1);
    if (got != (long)want || !unfilter(raw, w, h, bpp)) {
        free(raw);
        PNG_FAIL("IDAT does not inflate to the rows, or a row's filter is unknown");
    }
    image_resize(im, w, h);
    bool in_palette = true;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const unsigned char *q = raw + (size_t)y * (1 + bpp * (size_t)w) + 1 + bpp * (size_t)x;
            in_palette &= bpp == 3 || q[0] < npal;
            im->px[(size_t)y * (size_t)w + (size_t)x] =
                bpp == 3 ? RGB(q[0], q[1], q[2]) : q[0] < npal ? pal[q[0]] : 0;
        }
    free(raw);
    if (!in_palette)
        PNG_FAIL("an index beyond the palette");
    free(idat);
    *why = NULL;
    return true;
}

double px_distance(rgb_t a, rgb_t b)
{
    const double dr = rgb_r(a) - rgb_r(b), dg = rgb_g(a) - rgb_g(b), db = rgb_b(a) - rgb_b(b);
    return sqrt(dr * dr + dg * dg + db * db);
}

double px_block_error(const struct image *a, const struct image *b)
{
    double sum = 0.0;
    int n = 0;
    for (int y = 0; y + 4 <= a->h; y += 4)
        for (int x = 0; x + 4 <= a->w; x += 4, n++) {
            double d[3] = {0, 0, 0};
            for (int j = 0; j < 16; j++) {
                const size_t i = (size_t)(y + j / 4) * (size_t)a->w + (size_t)(x + j % 4);
                d[0] += rgb_r(a->px[i]) - rgb_r(b->px[i]);
                d[1] += rgb_g(a->px[i]) - rgb_g(b->px[i]);
                d[2] += rgb_b(a->px[i]) - rgb_b(b->px[i]);
            }
            sum += sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) / 16;
        }
    return sum / n;
}

int px_colours(const struct image *im, rgb_t *c, int max)
{
    int n = 0;
    for (size_t i = 0; i < (size_t)im->w * (size_t)im->h; i++) {
        int j = 0;
        while (j < n && c[j] != im->px[i])
            j++;
        if (j == n && n++ == max)
            return max + 1;
        c[j] = im->px[i];
    }
    return n;
}

double px_beyond_nearest(const struct image *a, const struct image *b)
{
    rgb_t pal[256];
    const int n = px_colours(b, pal, 256);
    double worst = 0.0;
    for (size_t i = 0; i < (size_t)a->w * (size_t)a->h && n <= 256; i++) {
        double best = 1e9;
        for (int c = 0; c < n; c++)
            best = fmin(best, px_distance(a->px[i], pal[c]));
        worst = fmax(worst, px_distance(a->px[i], b->px[i]) - best);
    }
    return n <= 256 ? worst : 1e9;
}

/* ---- sixel ---------------------------------------------------------------- */

/* Up to 5 numbers separated by ';' at s[*i]; returns how many. */
static int numbers(const char *s, size_t n, size_t *i, int v[5])
{
    int k = 0;
    for (;;) {
        int x = 0;
        bool any = false;
        while (*i < n && s[*i] >= '0' && s[*i] <= '9')
            x = x * 10 + (s[(*i)++] - '0'), any = true;
        if (k < 5)
            v[k++] = any ? x : 0;
        if (*i < n && s[*i] == ';')
            (*i)++;
        else
            return k;
    }
}

static void grow_to(struct image *im, int w, int h)
{
    if (w <= im->w && h <= im->h)
        return;
    struct image big;
    image_init(&big, w > im->w ? w : im->w, h > im->h ? h : im->h);
    image_fill(&big, PX_UNDRAWN);
    for (int y = 0; y < im->h; y++)
        memcpy(big.px + (size_t)y * (size_t)big.w, im->px + (size_t)y * (size_t)im->w,
               (size_t)im->w * sizeof *im->px);
    image_free(im);
    *im = big;
}

/* Paints sixel value v (bits: rows y..y+5) in colour c at column x, n times. */
static void paint(struct image *im, struct px_sixel *info, int x, int y, int v, rgb_t c, int n)
{
    for (int r = 0; r < 6; r++)
        if (v >> r & 1) {
            grow_to(im, x + n, y + r + 1);
            for (int k = 0; k < n; k++)
                im->px[(size_t)(y + r) * (size_t)im->w + (size_t)(x + k)] = c;
            info->w = x + n > info->w ? x + n : info->w;
            info->h = y + r + 1 > info->h ? y + r + 1 : info->h;
        }
}

#define SIXEL_FAIL(reason)                                                   \
    do {                                                                     \
        info->why = reason;                                                  \
        return false;                                                        \
    } while (0)

bool px_sixel_decode(const char *s, size_t n, struct image *im, struct px_sixel *info)
{
    memset(info, 0, sizeof *info);
    static rgb_t reg[1024];
    bool defined[1024] = {false};
    size_t i = 2;
    int v[5], x = 0, y = 0, cur = 0;
    if (n < 2 || memcmp(s, "\x1bP", 2) != 0)
        SIXEL_FAIL("no DCS");
    if (numbers(s, n, &i, v) >= 2)
        info->p2 = v[1];
    if (i >= n || s[i++] != 'q')
        SIXEL_FAIL("not a sixel string (no q)");
    image_resize(im, 1, 1);
    image_fill(im, PX_UNDRAWN);
    while (i < n) {
        const char ch = s[i++];
        if (ch == '\x1b') {
            if (i >= n || s[i] != '\\')
                SIXEL_FAIL("ESC not followed by \\");
            info->len = i + 1;
            info->end_y = y;
            return true;
        }
        if (ch == '"') {
            if (numbers(s, n, &i, v) != 4)
                SIXEL_FAIL("raster attributes are not four numbers");
            info->pan = v[0], info->pad = v[1], info->raster_w = v[2], info->raster_h = v[3];
            grow_to(im, v[2] > 0 ? v[2] : 1, v[3] > 0 ? v[3] : 1);
        } else if (ch == '#') {
            const int k = numbers(s, n, &i, v);
            if (v[0] < 0 || v[0] >= 1024)
                SIXEL_FAIL("a colour register out of range");
            cur = v[0];
            if (k == 5) {
                if (v[1] != 2 || v[2] > 100 || v[3] > 100 || v[4] > 100)
                    SIXEL_FAIL("a colour not RGB in percent");
                reg[cur] = RGB((v[2] * 255 + 50) / 100, (v[3] * 255 + 50) / 100,
                               (v[4] * 255 + 50) / 100);
                info->colours += !defined[cur];
                defined[cur] = true;
            } else if (k != 1 || !defined[cur]) {
                SIXEL_FAIL("a colour selected before it was defined");
            }
        } else if (ch == '!') {
            numbers(s, n, &i, v);
            if (i >= n || s[i] < '?' || s[i] > '~' || v[0] < 1)
                SIXEL_FAIL("a repeat not followed by a sixel");
            paint(im, info, x, y, s[i++] - '?', reg[cur], v[0]);
            x += v[0];
        } else if (ch == '$') {
            x = 0;
        } else if (ch == '-') {
            x = 0, y += 6;
        } else if (ch >= '?' && ch <= '~') {
            paint(im, info, x++, y, ch - '?', reg[cur], 1);
        } else {
            SIXEL_FAIL("a byte sixel does not know");
        }
    }
    SIXEL_FAIL("no ST");
}
