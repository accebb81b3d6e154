/*
 * palette.c — xterm palettes, nearest colours and ordered dithering in OKLab
 * (see palette.h for the rules).
 *
 * Data: one table of the 256 xterm colours with their linear RGB and OKLab
 * (built once), and a memo of decisions. A decision is made for a block of
 * 4x4x4 colours (see BLOCK) in a mode: the nearest index, and the pattern
 * (p, q, and the share of q in sixteenths; flat when p = q). It is a pure
 * function of (mode, block), so the memo changes only the cost, never a result:
 * the same image gives the same cells. Memo entries are single 64-bit words
 * holding their own key, read and written atomically, so a torn entry cannot
 * exist and concurrent blits are safe. A colour of the mode's own palette is
 * always shown as itself (exact_index), which is what the encoder relies on.
 *
 * Candidates: 8 and 16 colours try every colour, 256 colours the cube corners
 * around the block (2 levels a channel) and the four greys nearest its
 * lightness; then the pairs among them. Mixing model: a pattern with share t of
 * q shows p + t (q - p) in linear light (what the eye averages), and its error
 * is judged in OKLab. Mono maps lightness and chroma to an ink share.
 *
 * Cost (200x60 cells): a memo hit is a few ns a pixel; a new block costs about
 * a microsecond in 256 colours, a few hundred ns in 8/16.
 */
#include "palette.h"
#include "palette_internal.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

static const int cube_level[6] = {0, 95, 135, 175, 215, 255};

/* xterm's default 16 colours; index 8 is its grey. */
#define ANSI_GREY 8
static const rgb_t ansi16[16] = {
    0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
    0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
};

/* The hue-keeping metric (palette.h), on squared OKLab differences: chroma lost
 * by a chromatic colour weighs the mode's `loss`, hue HUE_WEIGHT; a candidate of
 * chroma must lie within acos(HUE_COS) = 45 degrees of the target's hue (the
 * widest gap between neighbouring ANSI hues in OKLab is 81 degrees, so every hue
 * has one). */
#define HUE_WEIGHT 2.0f
#define HUE_COS 0.7071f
/* What a dither pattern costs, times the mode's weight: its lightness contrast
 * counts half, its hue contrast four times (colour speckle is the worst). */
#define PAIR_L 0.5f
#define PAIR_H 4.0f
/* Mono: the ink share grows from 0 at MONO_BLACK to 1 at MONO_WHITE of
 * lightness plus MONO_CHROMA times chroma: on one bit, being colourful says
 * "something is here" as much as being light does. A narrow band, so shapes
 * stay shapes: the backgrounds (L < 0.16) and the cloth's resting fabric (L
 * 0.30, C 0.06) stay blank; the water at rest (L 0.31, C 0.16), the walls (L
 * 0.63), the threads and dye at full strength are solid. */
#define MONO_BLACK 0.45f
#define MONO_WHITE 0.62f
#define MONO_CHROMA 2.0f

/* 8 colours have two greys, black and xterm's light grey (L 0.92): a grey is
 * either nothing or a light line. Weighed evenly, every grey below L 0.46
 * would be black, and with it whatever a scene draws in mid greys on its dark
 * background (pbf's walls, a pixel or two wide and anti-aliased, are L
 * 0.30-0.47). So a grey shown darker than it is weighs its lost lightness
 * this much, which puts the step at L 0.92 / (1 + sqrt 6) = 0.27: lighter
 * than the scenes' backgrounds (L 0.15-0.24, black), a mid grey on them is
 * drawn light grey. Nor is a grey ever a pattern in 8 colours: black and
 * light grey, 0.92 apart, make a lattice, not a grey. */
#define GREY8_DARK 6.0f

/* Per mode: the weight of chroma lost, the weight of lightness lost by a grey
 * (dark), the weight of a pattern's cost (where
 * the nearest colour is a grey or the colour is one, and where the nearest
 * colour keeps the colour's hue), and the least share (sixteenths) of a
 * pattern's minority colour. 8/16 colours dither sparingly (a mix must be
 * clearly better, and no sparser than one pixel in four) and weigh hue most:
 * their few greys are far apart in lightness, and a colour shown as a grey
 * would have lost the one thing they can show. 256 colours mix freely to give
 * a faint tint its hue back, but a colour whose nearest is of its own hue
 * (the cube's dark blues for deep water, say) has little to gain from a
 * pattern and much to lose: two cube colours around it are far apart (the
 * cube's first steps are 95 and 40 levels), and their checkerboard shows
 * over a whole area. So there a mix must be clearly better, as in 8/16. */
static const struct {
    float loss, pattern, hue_kept, dark;
    int least;
} mode_rule[] = {
    [COLOR_8] = {16.0f, 0.5f, 0.5f, GREY8_DARK, 4},
    [COLOR_16] = {16.0f, 0.5f, 0.5f, 1.0f, 4},
    [COLOR_256] = {9.0f, 0.1f, 0.5f, 1.0f, 2},
};

struct lab {
    float L, a, b, C;
    float hx, hy; /* unit hue vector (0 for a grey) */
};

struct entry {
    float lin[3];
    struct lab lab;
};

/* A colour to match: its linear RGB, OKLab, the weight of chroma it loses (1
 * for a grey, the mode's `loss` for a chromatic colour) and of lightness it
 * loses (the mode's `dark` for a grey, else 1). */
struct target {
    float lin[3];
    struct lab lab;
    float loss, dark;
};

/* Decisions are made per block of 4x4x4 colours (6 bits a channel), for the
 * block's centre: a channel value v lies in block v >> 2, centred on 4b + 1.5.
 * Nothing a terminal shows changes within 4 levels of sRGB that the palettes
 * could tell apart (their nearest steps are 10 apart), and 2^18 blocks instead
 * of 2^24 colours keep the memo warm while dye keeps making new colours. */
#define BLOCK(c) ((uint32_t)(rgb_r(c) >> 2) << 12 | (uint32_t)(rgb_g(c) >> 2) << 6 | \
                  (uint32_t)(rgb_b(c) >> 2))
static float lin_block[64];     /* block centre -> linear light */
static struct entry pal[256];   /* the xterm palette */
static float grey_L[24];        /* lightness of the grey ramp 232..255 */
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

rgb_t palette_rgb(int index)
{
    if (index < 16)
        return ansi16[clampi(index, 0, 15)];
    if (index < 232) {
        int i = index - 16;
        return RGB(cube_level[i / 36], cube_level[(i / 6) % 6], cube_level[i % 6]);
    }
    int g = 8 + 10 * (clampi(index, 232, 255) - 232);
    return RGB(g, g, g);
}

/* Cube root of x in [0, 1] (cone responses of in-gamut light): a first guess
 * from the float's exponent, then two Newton steps (relative error < 2e-6).
 * Several times faster than cbrtf, and the same answer on every run. */
static float cbrt01(float x)
{
    if (!(x > 1e-12f))
        return 0.0f;
    union {
        float f;
        uint32_t u;
    } v = {x};
    v.u = v.u / 3u + 0x2a514067u;
    float y = v.f;
    y = (2.0f * y + x / (y * y)) * (1.0f / 3.0f);
    y = (2.0f * y + x / (y * y)) * (1.0f / 3.0f);
    return y;
}

/* OKLab (Ottosson 2020) of linear sRGB; the unit hue vector only if `hue`. */
static void lab_of_linear(const float *rgb, struct lab *o, bool hue)
{
    float r = rgb[0], g = rgb[1], b = rgb[2];
    float l = cbrt01(0.4122214708f * r + 0.5363325363f * g + 0.0514459929f * b);
    float m = cbrt01(0.2119034982f * r + 0.6806995451f * g + 0.1073969566f * b);
    float s = cbrt01(0.0883024619f * r + 0.2817188376f * g + 0.6299787005f * b);
    o->L = 0.2104542553f * l + 0.7936177850f * m - 0.0040720468f * s;
    o->a = 1.9779984951f * l - 2.4285922050f * m + 0.4505937099f * s;
    o->b = 0.0259040371f * l + 0.7827717662f * m - 0.8086757660f * s;
    o->C = sqrtf(o->a * o->a + o->b * o->b);
    o->hx = o->hy = 0.0f;
    if (hue && o->C > 1e-6f) {
        o->hx = o->a / o->C;
        o->hy = o->b / o->C;
    }
}

static float linear(double v)
{
    v /= 255.0;
    return (float)(v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4));
}

static void tables_init(void)
{
    for (int b = 0; b < 64; b++)
        lin_block[b] = linear(4.0 * b + 1.5);
    for (int i = 0; i < 256; i++) {
        rgb_t c = palette_rgb(i);
        pal[i].lin[0] = linear(rgb_r(c));
        pal[i].lin[1] = linear(rgb_g(c));
        pal[i].lin[2] = linear(rgb_b(c));
        lab_of_linear(pal[i].lin, &pal[i].lab, true);
    }
    for (int i = 0; i < 24; i++)
        grey_L[i] = pal[232 + i].lab.L;
}

static void tables(void) { pthread_once(&tables_once, tables_init); }

static float nonneg(float v) { return v > 0.0f ? v : 0.0f; }

/* Weighted distance from target t to shown colour m (see the top). */
static float dist(const struct target *tg, const struct lab *m)
{
    const struct lab *t = &tg->lab;
    float dL = t->L - m->L, dC = t->C - m->C, da = t->a - m->a, db = t->b - m->b;
    float dH2 = nonneg(da * da + db * db - dC * dC);
    return (dL > 0.0f ? tg->dark : 1.0f) * dL * dL + (dC > 0.0f ? tg->loss : 1.0f) * dC * dC +
           HUE_WEIGHT * dH2;
}

/* The contrast a pattern of p and q shows. */
static float pattern_cost(const struct lab *p, const struct lab *q)
{
    float dL = p->L - q->L, dC = p->C - q->C, da = p->a - q->a, db = p->b - q->b;
    float dH2 = nonneg(da * da + db * db - dC * dC);
    return PAIR_L * dL * dL + dC * dC + PAIR_H * dH2;
}

/* May target t be shown with (or mixed from) palette colour m? */
static bool allowed(const struct lab *t, const struct lab *m)
{
    if (m->C < PALETTE_CHROMA)
        return true;
    return t->C >= PALETTE_CHROMA && t->hx * m->hx + t->hy * m->hy >= HUE_COS;
}

/* Cube levels around block b of a channel: the last at or below its first
 * value, and the first at or above its last. */
static void cube_bracket(int b, int *lo, int *hi)
{
    int i = 0;
    while (i < 5 && cube_level[i + 1] <= 4 * b)
        i++;
    *lo = i;
    *hi = cube_level[i] >= 4 * b + 3 ? i : i + 1;
}

/* 256 colours: the cube corners around a block and the greys around its
 * lightness. */
static int candidates256(uint32_t block, const struct lab *t, int *out)
{
    int lo[3], hi[3], n = 0;
    cube_bracket((int)(block >> 12), &lo[0], &hi[0]);
    cube_bracket((int)(block >> 6 & 63), &lo[1], &hi[1]);
    cube_bracket((int)(block & 63), &lo[2], &hi[2]);
    for (int r = lo[0]; r <= hi[0]; r++)
        for (int g = lo[1]; g <= hi[1]; g++)
            for (int b = lo[2]; b <= hi[2]; b++)
                out[n++] = 16 + 36 * r + 6 * g + b;
    int gi = 0;
    while (gi < 23 && grey_L[gi + 1] <= t->L)
        gi++;
    for (int k = gi - 1; k <= gi + 2; k++)
        if (k >= 0 && k < 24)
            out[n++] = 232 + k;
    return n;
}

/* The allowed candidates for a block in a mode; never empty (black passes). */
static int candidates(enum color_mode mode, uint32_t block, const struct lab *t, int *out)
{
    int all[16], n;
    if (mode == COLOR_256) {
        n = candidates256(block, t, all);
    } else {
        n = mode == COLOR_16 ? 16 : 8;
        for (int i = 0; i < n; i++)
            all[i] = i;
    }
    int k = 0;
    for (int i = 0; i < n; i++) {
        /* xterm's 16-colour grey (index 8, L 0.6) is for greys only: with it a
         * dim tinted colour would become a bright grey shape. A tinted colour
         * is shown by black, white and colours near its hue. */
        if (all[i] == ANSI_GREY && t->C >= PALETTE_CHROMA)
            continue;
        if (allowed(t, &pal[all[i]].lab))
            out[k++] = all[i];
    }
    return k;
}

/* A decision: the nearest index, and the pattern (share t/16 of q, else p). */
struct choice {
    int near, p, q, t;
    float err; /* of the nearest */
};

/* The best pattern of two candidates, if it beats `best` (the flat score). */
static void best_pattern(enum color_mode mode, const struct target *tg, const int *cand,
                         int n, float best, struct choice *ch)
{
    const struct lab *t = &tg->lab;
    bool kept = t->C >= PALETTE_CHROMA && pal[ch->near].lab.C >= PALETTE_CHROMA;
    const float weight = kept ? mode_rule[mode].hue_kept : mode_rule[mode].pattern;
    const int least = mode_rule[mode].least;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            const struct entry *p = &pal[cand[i]], *q = &pal[cand[j]];
            /* Two greys cannot show a hue: no grey noise for a colour. */
            if (t->C >= PALETTE_CHROMA && p->lab.C < PALETTE_CHROMA &&
                q->lab.C < PALETTE_CHROMA)
                continue;
            float cost = weight * pattern_cost(&p->lab, &q->lab);
            if (cost >= best)
                continue;
            float v[3], vv = 0.0f, vw = 0.0f;
            for (int k = 0; k < 3; k++) {
                v[k] = q->lin[k] - p->lin[k];
                vv += v[k] * v[k];
                vw += v[k] * (tg->lin[k] - p->lin[k]);
            }
            /* Only pairs that bracket the colour; identical colours skip. */
            if (!(vw > 0.0f && vw < vv))
                continue;
            int share = clampi((int)lrintf(16.0f * vw / vv), least, 16 - least);
            float mix[3];
            for (int k = 0; k < 3; k++)
                mix[k] = p->lin[k] + (float)share / 16.0f * v[k];
            struct lab m;
            lab_of_linear(mix, &m, false);
            float score = dist(tg, &m) + cost;
            if (score < best) {
                best = score;
                ch->p = cand[i];
                ch->q = cand[j];
                ch->t = share;
            }
        }
}

static void block_linear(uint32_t block, float *lin)
{
    lin[0] = lin_block[block >> 12];
    lin[1] = lin_block[block >> 6 & 63];
    lin[2] = lin_block[block & 63];
}

/* The decision for a block in an indexed mode (8, 16 or 256 colours). */
static struct choice decide(enum color_mode mode, uint32_t block)
{
    tables();
    struct target t;
    block_linear(block, t.lin);
    lab_of_linear(t.lin, &t.lab, true);
    t.loss = t.lab.C >= PALETTE_CHROMA ? mode_rule[mode].loss : 1.0f;
    t.dark = t.lab.C >= PALETTE_CHROMA ? 1.0f : mode_rule[mode].dark;
    int cand[16] = {0}; /* candidates() fills at least one */
    int n = candidates(mode, block, &t.lab, cand);
    struct choice ch = {cand[0], cand[0], cand[0], 0, 0.0f};
    float best = dist(&t, &pal[cand[0]].lab);
    for (int i = 1; i < n; i++) {
        float d = dist(&t, &pal[cand[i]].lab);
        if (d < best) {
            best = d;
            ch.near = ch.p = ch.q = cand[i];
        }
    }
    ch.err = sqrtf(best);
    bool grey8 = mode == COLOR_8 && t.lab.C < PALETTE_CHROMA;
    if (ch.err > PALETTE_THRESHOLD && !grey8)
        best_pattern(mode, &t, cand, n, best, &ch);
    return ch;
}

/* Mono: the ink share of a block in sixteenths. */
static int mono_level(uint32_t block)
{
    tables();
    float lin[3];
    struct lab t;
    block_linear(block, lin);
    lab_of_linear(lin, &t, false);
    float v = (t.L + MONO_CHROMA * t.C - MONO_BLACK) / (MONO_WHITE - MONO_BLACK);
    return clampi((int)lrintf(16.0f * v), 0, 16);
}

/*
 * The memo: 2^16 words, direct-mapped by a hash of (mode, block). A word is
 * block (bits 0-17), mode (18-19), a valid bit (20), the share (21-25), the
 * nearest index (32-39), p (40-47) and q (48-55).
 */
#define MEMO_BITS 16
static _Atomic uint64_t memo[1u << MEMO_BITS];

static struct choice lookup(enum color_mode mode, rgb_t c)
{
    uint32_t block = BLOCK(c);
    uint64_t key = (uint64_t)block | (uint64_t)mode << 18 | 1ull << 20;
    uint32_t h = (uint32_t)(key * 2654435761u) >> (32 - MEMO_BITS);
    uint64_t w = atomic_load_explicit(&memo[h], memory_order_relaxed);
    if ((w & 0x1fffffu) != key) {
        struct choice ch = {0, 0, 0, 0, 0.0f};
        if (mode == COLOR_MONO)
            ch.t = mono_level(block);
        else
            ch = decide(mode, block);
        w = key | (uint64_t)ch.t << 21 | (uint64_t)ch.near << 32 | (uint64_t)ch.p << 40 |
            (uint64_t)ch.q << 48;
        atomic_store_explicit(&memo[h], w, memory_order_relaxed);
    }
    return (struct choice){(int)(w >> 32 & 255), (int)(w >> 40 & 255), (int)(w >> 48 & 255),
                           (int)(w >> 21 & 31), 0.0f};
}

static bool indexed(enum color_mode mode)
{
    return mode == COLOR_8 || mode == COLOR_16 || mode == COLOR_256;
}

/* The cube level index of a channel value, or -1. */
static int cube_index(int v)
{
    switch (v) {
    case 0: return 0;
    case 95: return 1;
    case 135: return 2;
    case 175: return 3;
    case 215: return 4;
    case 255: return 5;
    default: return -1;
    }
}

/* Is v a channel value of some ANSI colour? */
static bool ansi_level(int v)
{
    return v == 0 || v == 0x5c || v == 0x7f || v == 0xcd || v == 0xe5 || v == 0xee ||
           v == 0xff;
}

/* The index of c when it is a colour of the mode's palette, else -1: such a
 * colour is shown as itself, whatever its block decides (the encoder maps the
 * blit's colours back to indices through here). */
static int exact_index(enum color_mode mode, rgb_t c)
{
    int r = rgb_r(c), g = rgb_g(c), b = rgb_b(c);
    if (mode == COLOR_256) {
        int lr = cube_index(r), lg = cube_index(g), lb = cube_index(b);
        if (lr >= 0 && lg >= 0 && lb >= 0)
            return 16 + 36 * lr + 6 * lg + lb;
        if (r == g && g == b && r >= 8 && r <= 238 && (r - 8) % 10 == 0)
            return 232 + (r - 8) / 10;
        return -1;
    }
    if (!(ansi_level(r) && ansi_level(g) && ansi_level(b)))
        return -1;
    for (int i = 0; i < (mode == COLOR_16 ? 16 : 8); i++)
        if (ansi16[i] == (c & 0xffffffu))
            return i;
    return -1;
}

int palette_index(enum color_mode mode, rgb_t c)
{
    if (!indexed(mode))
        return 0;
    int i = exact_index(mode, c);
    return i >= 0 ? i : lookup(mode, c).near;
}

rgb_t palette_nearest(enum color_mode mode, rgb_t c)
{
    if (c & COLOR_DEFAULT)
        return COLOR_DEFAULT;
    if (mode == COLOR_TRUE)
        return c;
    if (!indexed(mode))
        return COLOR_DEFAULT;
    return palette_rgb(palette_index(mode, c));
}

float palette_error(enum color_mode mode, rgb_t c)
{
    if (!indexed(mode) || (c & COLOR_DEFAULT) || exact_index(mode, c) >= 0)
        return 0.0f;
    return decide(mode, BLOCK(c)).err;
}

static const unsigned char bayer4[4][4] = {
    {0, 8, 2, 10}, {12, 4, 14, 6}, {3, 11, 1, 9}, {15, 7, 13, 5}};

float palette_bayer(int x, int y)
{
    return ((float)bayer4[y & 3][x & 3] + 0.5f) / 16.0f;
}

rgb_t palette_dither(enum color_mode mode, rgb_t c, int x, int y)
{
    if (mode == COLOR_TRUE)
        return c;
    if (!indexed(mode) || (c & COLOR_DEFAULT))
        return COLOR_DEFAULT;
    if (exact_index(mode, c) >= 0)
        return c;
    struct choice ch = lookup(mode, c);
    return palette_rgb(bayer4[y & 3][x & 3] < ch.t ? ch.q : ch.p);
}

bool palette_ink(rgb_t c, int x, int y)
{
    if (c & COLOR_DEFAULT)
        return false;
    return bayer4[y & 3][x & 3] < lookup(COLOR_MONO, c).t;
}

static const struct {
    const char *name;
    enum color_mode mode;
} mode_names[] = {
    {"truecolor", COLOR_TRUE}, {"24bit", COLOR_TRUE}, {"256", COLOR_256},
    {"16", COLOR_16},          {"8", COLOR_8},        {"mono", COLOR_MONO},
};

const char *palette_mode_name(enum color_mode mode)
{
    for (size_t i = 0; i < sizeof mode_names / sizeof mode_names[0]; i++)
        if (mode_names[i].mode == mode)
            return mode_names[i].name;
    return "?";
}

int palette_mode_parse(const char *s, enum color_mode *mode)
{
    for (size_t i = 0; i < sizeof mode_names / sizeof mode_names[0]; i++)
        if (strcmp(s, mode_names[i].name) == 0) {
            *mode = mode_names[i].mode;
            return 0;
        }
    return -1;
}
