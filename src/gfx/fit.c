/*
 * fit.c — glyph fitting for quadrant and sextant cells, and glyph geometry
 * (see fit.h).
 *
 * Two colours can only split a cell's pixels into two groups, and the best
 * two groups of a few colours are, very nearly always, a split of their order
 * along their principal axis (found from the two that lie farthest apart by
 * a few steps of the power iteration, in integers). So the pixels are ranked
 * along it and only the n - 1 splits of the ranking are tried, each priced
 * from its groups' sums, then one step of Lloyd's: no search over the 8
 * (quadrant) or 32 (sextant) glyphs, a few hundred integer operations a cell.
 *
 * A cell's picture comes as 2 x 4 samples, finer than a sextant's rows; two
 * things are then taken from them that its glyph pixels lose. ▀ in sextants
 * is priced on the samples, where an edge across the middle row shows. And
 * each colour moves two of Weiszfeld's steps towards the geometric median of
 * the samples it shows, so that the colour most of its part shows wins over
 * the mix of an edge inside a pixel (the bench: an eighth to a sixth less
 * error in sextants, a few hundredths in quadrants).
 */
#include "fit.h"
#include "fit_internal.h"

#include <math.h>
#include <stdint.h>

/* Quadrant glyph of each mask (bit 0 top left, 1 top right, 2 bottom left,
 * 3 bottom right). */
static const uint32_t quad_glyph[16] = {
    ' ',    0x2598, 0x259D, 0x2580, 0x2596, 0x258C, 0x259E, 0x259B,
    0x2597, 0x259A, 0x2590, 0x259C, 0x2584, 0x2599, 0x259F, 0x2588,
};

uint32_t fit_glyph(unsigned mask, int n, bool *swap)
{
    const unsigned all = (1u << n) - 1u, last = 1u << (n - 1);
    mask &= all;
    /* The form without the bottom right pixel: ▀ rather than ▄, ▌ not ▐. */
    *swap = (mask & last) != 0;
    if (*swap)
        mask ^= all;
    if (n == FIT_QUAD)
        return quad_glyph[mask];
    if (mask == 0)
        return ' ';
    if (mask == 21) /* 1, 3, 5: the left column */
        return 0x258C;
    return 0x1FB00u + mask - 1u - (mask > 21); /* U+1FB00.. skips 21 and 42 */
}

/* The sextant mask of a glyph in U+1FB00..1FB3B (inverse of the above). */
static unsigned sextant_mask(uint32_t ch)
{
    unsigned m = (unsigned)(ch - 0x1FB00u) + 1u;
    m += m >= 21;
    m += m >= 42;
    return m;
}

bool fit_is_picture(uint32_t ch)
{
    return ch == ' ' || (ch >= 0x2580 && ch <= 0x2590 && ch != 0x2589 && ch != 0x258A &&
                         ch != 0x258B && ch != 0x258D && ch != 0x258E && ch != 0x258F) ||
           (ch >= 0x2596 && ch <= 0x259F) || (ch >= 0x1FB00 && ch <= 0x1FB3B);
}

bool fit_inks(uint32_t ch, float fx, float fy)
{
    const bool right = fx >= 0.5f, low = fy >= 0.5f;
    if (ch >= 0x1FB00 && ch <= 0x1FB3B) {
        const int row = fy < 1.0f / 3.0f ? 0 : fy < 2.0f / 3.0f ? 1 : 2;
        return sextant_mask(ch) >> (2 * row + right) & 1u;
    }
    if (ch >= 0x2596 && ch <= 0x259F) {
        for (unsigned m = 0; m < 16; m++)
            if (quad_glyph[m] == ch)
                return m >> (2 * low + right) & 1u;
    }
    switch (ch) {
    case 0x2580: return !low;
    case 0x2584: return low;
    case 0x2588: return true;
    case 0x258C: return !right;
    case 0x2590: return right;
    default: return false;
    }
}

float fit_coverage(uint32_t ch)
{
    /* Sampled at the centres of a 6 x 6 grid: exact for every glyph here. */
    int in = 0;
    for (int y = 0; y < 6; y++)
        for (int x = 0; x < 6; x++)
            in += fit_inks(ch, ((float)x + 0.5f) / 6.0f, ((float)y + 0.5f) / 6.0f);
    return (float)in / 36.0f;
}

/* Colours as three ints, sums of them, and squared norms. */
struct px3 {
    int32_t c[3];
};

static struct px3 unpack(rgb_t p) { return (struct px3){{rgb_r(p), rgb_g(p), rgb_b(p)}}; }

static int64_t norm2(const int32_t *c)
{
    return (int64_t)c[0] * c[0] + (int64_t)c[1] * c[1] + (int64_t)c[2] * c[2];
}

static rgb_t mean_of(const int32_t *sum, int n)
{
    int ch[3];
    for (int k = 0; k < 3; k++)
        ch[k] = (sum[k] + n / 2) / n;
    return RGB(ch[0], ch[1], ch[2]);
}

/* Two groups of a cell's pixels: those in `mask` (a) and the rest (b), their
 * sums and sizes, and the squared error of each pixel against its group's
 * mean, summed. */
struct split {
    unsigned mask;
    int na;
    int32_t sa[3], sb[3];
    int64_t err;
};

/* |S|^2 / m for a group of m pixels summing to S: in 32 bits, the same
 * quotient as in 64 (at most FIT_SEXTANT pixels: |S|^2 < 2^23) for a
 * fraction of the cost. */
static int64_t group_share(const int32_t *sum, int m)
{
    return (uint32_t)norm2(sum) / (uint32_t)m;
}

static struct split split_of(const struct px3 *p, int n, unsigned mask)
{
    struct split g = {mask, 0, {0, 0, 0}, {0, 0, 0}, 0};
    int64_t q = 0;
    for (int i = 0; i < n; i++) {
        int32_t *s = mask >> i & 1u ? g.sa : g.sb;
        g.na += (int)(mask >> i & 1u);
        for (int k = 0; k < 3; k++)
            s[k] += p[i].c[k];
        q += norm2(p[i].c);
    }
    const int nb = n - g.na;
    /* sum |p - mean|^2 = sum |p|^2 - |S|^2 / m, for each group */
    g.err = q - (g.na ? group_share(g.sa, g.na) : 0) - (nb ? group_share(g.sb, nb) : 0);
    return g;
}

/* *best becomes the split of `mask` where that has less error. */
static void consider(const struct px3 *p, int n, unsigned mask, struct split *best)
{
    const struct split g = split_of(p, n, mask);
    if (g.err < best->err)
        *best = g;
}

/* ▀ over a sextant cell: the top row fg, the bottom bg, the middle row half
 * each; its colours and error. */
static int64_t sextant_half(const struct px3 *p, rgb_t *fg, rgb_t *bg)
{
    int32_t up[3], dn[3];
    for (int k = 0; k < 3; k++) { /* weights 2 and 1 of 3, twice over: 4 + 2 = 6 */
        up[k] = 2 * (p[0].c[k] + p[1].c[k]) + p[2].c[k] + p[3].c[k];
        dn[k] = 2 * (p[4].c[k] + p[5].c[k]) + p[2].c[k] + p[3].c[k];
    }
    *fg = mean_of(up, 6), *bg = mean_of(dn, 6);
    const struct px3 f = unpack(*fg), b = unpack(*bg);
    int64_t e = 0;
    for (int i = 0; i < FIT_SEXTANT; i++)
        for (int k = 0; k < 3; k++) {
            const int64_t df = p[i].c[k] - f.c[k], db = p[i].c[k] - b.c[k];
            e += i < 2 ? 2 * df * df : i >= 4 ? 2 * db * db : df * df + db * db;
        }
    return e / 2;
}

/* fit_block, and into *fg the glyph pixels shown in the fg colour (bit i:
 * pixel i; FIT_HALF_SEXTANT for a sextant cell's ▀, which splits the middle
 * row; 0 for a space). */
#define FIT_HALF_SEXTANT (1u << 31)

/* ▀ in colours hf over hb (a space where they are one), its fg pixels. */
static struct fit half_fit(int n, rgb_t hf, rgb_t hb, unsigned *fg)
{
    if (hf == hb)
        return (struct fit){' ', hf, hb};
    *fg = n == FIT_QUAD ? 3u : FIT_HALF_SEXTANT;
    return (struct fit){0x2580u, hf, hb};
}

/* The two pixels farthest apart, into *a and *b (the first such pair in
 * pixel order), and their squared distance. */
static int64_t farthest_pair(const struct px3 *p, int n, int *a, int *b)
{
    int64_t far = -1;
    *a = 0, *b = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            const int32_t d[3] = {p[i].c[0] - p[j].c[0], p[i].c[1] - p[j].c[1],
                                  p[i].c[2] - p[j].c[2]};
            const int64_t d2 = norm2(d);
            if (d2 > far)
                far = d2, *a = i, *b = j;
        }
    return far;
}

/* ▀ over the cell's pixels: its colours into *hf and *hb, and its error
 * (a quadrant cell's ▀ is the split of its top row; a sextant cell's splits
 * the middle row: sextant_half). */
static int64_t half_of(const struct px3 *p, int n, rgb_t *hf, rgb_t *hb)
{
    if (n != FIT_QUAD)
        return sextant_half(p, hf, hb);
    const struct split h = split_of(p, n, 3u);
    *hf = mean_of(h.sa, 2), *hb = mean_of(h.sb, 2);
    return h.err;
}

/* The pixels' principal axis into v, which comes in as the line from the
 * farthest pair's b to a: a few steps of the power iteration on the pixels'
 * scatter (`all` their sum), in integers kept under 2^20. */
static void principal_axis(const struct px3 *p, int n, const int32_t *all, int64_t *v)
{
    int64_t cov[3][3];
    for (int r = 0; r < 3; r++)
        for (int c = r; c < 3; c++) { /* symmetric: the other half is the same */
            int64_t s2 = 0;
            for (int i = 0; i < n; i++)
                s2 += (int64_t)p[i].c[r] * p[i].c[c];
            cov[r][c] = cov[c][r] = (s2 * n - (int64_t)all[r] * all[c]) >> 8;
        }
    for (int it = 0; it < 3; it++) {
        int64_t u[3];
        for (int r = 0; r < 3; r++)
            u[r] = cov[r][0] * v[0] + cov[r][1] * v[1] + cov[r][2] * v[2];
        int64_t big = 0;
        for (int r = 0; r < 3; r++)
            big = u[r] > big ? u[r] : -u[r] > big ? -u[r] : big;
        if (big == 0)
            break;
        int sh = 0;
        while ((big >> sh) >= (1 << 20))
            sh++;
        for (int r = 0; r < 3; r++)
            v[r] = u[r] >> sh; /* arithmetic: rounds towards minus infinity */
    }
}

/* The pixels ranked along v (measured from pixel b) into order, lowest
 * first; ties keep pixel order. */
static void rank_along(const struct px3 *p, int n, int b, const int64_t *v, int *order)
{
    int64_t t[FIT_SEXTANT];
    for (int i = 0; i < n; i++) {
        t[i] = (p[i].c[0] - p[b].c[0]) * v[0] + (p[i].c[1] - p[b].c[1]) * v[1] +
               (p[i].c[2] - p[b].c[2]) * v[2];
        int j = i;
        for (; j > 0 && t[order[j - 1]] > t[i]; j--) /* ties keep pixel order */
            order[j] = order[j - 1];
        order[j] = i;
    }
}

/* The split of the ranking with the least error: the upper run inked.
 * Each split is the last with one more pixel inked, so its sums follow
 * from the last's (split_of's figures, exactly: integers). */
static struct split best_ranked_split(const struct px3 *p, int n, const int32_t *all,
                                      const int *order)
{
    struct split best = {.err = INT64_MAX};
    int64_t q = 0;
    for (int i = 0; i < n; i++)
        q += norm2(p[i].c);
    struct split g = {0, 0, {0, 0, 0}, {all[0], all[1], all[2]}, 0};
    for (int s = n - 1; s >= 1; s--) {
        const int i = order[s];
        g.mask |= 1u << i;
        g.na++;
        for (int k = 0; k < 3; k++)
            g.sa[k] += p[i].c[k], g.sb[k] -= p[i].c[k];
        g.err = q - group_share(g.sa, g.na) - group_share(g.sb, n - g.na);
        if (g.err < best.err)
            best = g;
    }
    return best;
}

/* One step of Lloyd's on *best: each pixel to the nearer of its two means,
 * kept where that is better (the ranking's line may cut a cluster of noise
 * that a plane would not). */
static void lloyd_step(const struct px3 *p, int n, struct split *best)
{
    const int na = best->na, nb = n - na;
    unsigned again = 0;
    for (int i = 0; i < n; i++) {
        int64_t da = 0, db = 0; /* distances to the means, times na and nb squared */
        for (int k = 0; k < 3; k++) {
            const int64_t ea = (int64_t)p[i].c[k] * na - best->sa[k];
            const int64_t eb = (int64_t)p[i].c[k] * nb - best->sb[k];
            da += ea * ea * nb * nb, db += eb * eb * na * na;
        }
        again |= (unsigned)(da < db) << i;
    }
    if (again != 0 && again != (1u << n) - 1u)
        consider(p, n, again, best);
}

/* The glyph of split g and its two colours, the inked group's in fg (the
 * glyph's complement where fit_glyph swaps them); its fg pixels into *fg. */
static struct fit split_fit(const struct split *g, int n, unsigned *fg)
{
    bool swap;
    const uint32_t ch = fit_glyph(g->mask, n, &swap);
    *fg = swap ? g->mask ^ ((1u << n) - 1u) : g->mask;
    const rgb_t in = mean_of(g->sa, g->na), out = mean_of(g->sb, n - g->na);
    return swap ? (struct fit){ch, out, in} : (struct fit){ch, in, out};
}

/* The fit of n glyph pixels: a space for one colour, ▀ where it does about
 * as well as any split, else the best split found along the principal axis
 * (then one step of Lloyd's). */
static struct fit fit_pick(const rgb_t *px, int n, unsigned *fg)
{
    *fg = 0;
    struct px3 p[FIT_SEXTANT];
    int32_t all[3] = {0, 0, 0};
    for (int i = 0; i < n; i++) {
        p[i] = unpack(px[i]);
        for (int k = 0; k < 3; k++)
            all[k] += p[i].c[k];
    }
    int a, b;
    if (farthest_pair(p, n, &a, &b) <= 3) /* one colour, to a level */
        return (struct fit){' ', mean_of(all, n), mean_of(all, n)};
    /* ▀ where it does nearly as well as the best split (below). No split's
     * error is below 0, so where ▀'s is within FIT_HALF_KEEP of 0 it is ▀
     * whatever the search would find, and the search is left out. */
    rgb_t hf, hb;
    const int64_t half = half_of(p, n, &hf, &hb);
    if (half <= FIT_HALF_KEEP)
        return half_fit(n, hf, hb, fg);
    int64_t v[3] = {p[a].c[0] - p[b].c[0], p[a].c[1] - p[b].c[1], p[a].c[2] - p[b].c[2]};
    principal_axis(p, n, all, v);
    int order[FIT_SEXTANT];
    rank_along(p, n, b, v, order);
    struct split best = best_ranked_split(p, n, all, order);
    lloyd_step(p, n, &best);
    if (half <= best.err + FIT_HALF_KEEP)
        return half_fit(n, hf, hb, fg);
    return split_fit(&best, n, fg);
}

struct fit fit_block(const rgb_t *px, int n)
{
    unsigned fg;
    return fit_pick(px, n, &fg);
}

/* How much of sample row r (a quarter of the cell's height) each sextant row
 * covers, in thirds of the sample: the rows of a sextant are a third of the
 * cell high. */
static const int sextant_w[3][FIT_SAMPLE_ROWS] = {{3, 1, 0, 0}, {0, 2, 2, 0}, {0, 0, 1, 3}};

/* A colour's channels a 16-bit lane each (r, g, b from the top), so that
 * weighted sums of a few take one multiply-add each; and back. */
#define LANES3 ((uint64_t)1 << 32 | (uint64_t)1 << 16 | 1u)
static uint64_t lanes_of(rgb_t p)
{
    return (uint64_t)rgb_r(p) << 32 | (uint64_t)rgb_g(p) << 16 | (uint64_t)rgb_b(p);
}

static rgb_t rgb_of_lanes(uint64_t v)
{
    return RGB((int)(v >> 32 & 0xFFFFu), (int)(v >> 16 & 0xFFFFu), (int)(v & 0xFFFFu));
}

/* Each channel of v / 2^k rounded down, lane by lane (every lane under
 * 2^14 once shifted: a bit from the lane above is masked away). */
static uint64_t lanes_shift(uint64_t v, int k)
{
    return v >> k & (0x3FFFu * LANES3);
}

void fit_pixels(const rgb_t *s, int n, rgb_t *px)
{
    /* Each glyph pixel the mean of the samples it covers by their weights
     * (sextant_w, in quarters; quadrants: two rows of samples), rounded
     * half up: (sum + 2) / 4, (sum + 1) / 2, in every channel at once. */
    for (int i = 0; i < 2; i++) {
        const uint64_t a = lanes_of(s[i]), b = lanes_of(s[2 + i]);
        const uint64_t c = lanes_of(s[4 + i]), d = lanes_of(s[6 + i]);
        if (n == FIT_QUAD) {
            px[i] = rgb_of_lanes(lanes_shift(a + b + LANES3, 1));
            px[2 + i] = rgb_of_lanes(lanes_shift(c + d + LANES3, 1));
            continue;
        }
        px[i] = rgb_of_lanes(lanes_shift(3 * a + b + 2 * LANES3, 2));
        px[2 + i] = rgb_of_lanes(lanes_shift(2 * b + 2 * c + 2 * LANES3, 2));
        px[4 + i] = rgb_of_lanes(lanes_shift(c + 3 * d + 2 * LANES3, 2));
    }
}

/* The share of sample i (of FIT_SAMPLES) shown in the fg colour, in thirds. */
static int fg_thirds(unsigned fg, int n, int i)
{
    const int row = i / 2, col = i % 2;
    if (fg == FIT_HALF_SEXTANT)
        return row < 2 ? 3 : 0;
    if (n == FIT_QUAD)
        return 3 * (int)(fg >> (2 * (row / 2) + col) & 1u);
    int t = 0;
    for (int j = 0; j < 3; j++)
        t += sextant_w[j][row] * (int)(fg >> (2 * j + col) & 1u);
    return t;
}

/* A sextant cell's pixels cannot show an edge across the middle of its
 * middle row, which ▀ draws exactly; its samples s can. Is ▀ (each half its
 * samples' mean, into *half) within FIT_HALF_KEEP of glyph f, third[i] the
 * share of sample i its fg shows, on the samples (in ninths: a sample is
 * shown in thirds)? */
static bool sextant_half_wins(const struct px3 *s, struct fit f, const int *third,
                              struct fit *half)
{
    const struct px3 a = unpack(f.fg), b = unpack(f.bg);
    int64_t e9 = 0, e = 0;
    int32_t sum[2][3] = {{0, 0, 0}, {0, 0, 0}}; /* the top two sample rows, the bottom two */
    for (int i = 0; i < FIT_SAMPLES; i++) {
        for (int k = 0; k < 3; k++)
            sum[i / (FIT_SAMPLES / 2)][k] += s[i].c[k];
        e += norm2(s[i].c);
        const int t = third[i];
        for (int k = 0; k < 3; k++) {
            const int64_t d = 3 * s[i].c[k] - t * a.c[k] - (3 - t) * b.c[k];
            e9 += d * d;
        }
    }
    e -= norm2(sum[0]) / 4 + norm2(sum[1]) / 4;
    *half = (struct fit){0x2580u, mean_of(sum[0], 4), mean_of(sum[1], 4)};
    return 9 * e <= e9 + 9 * FIT_HALF_KEEP;
}

/* floor(sqrt(v)) for a squared distance of two colours (v < 3 * 256^2 <
 * 2^18): sqrtf rounds correctly, sqrt(k^2) is k and no square root of a v
 * below (k + 1)^2 comes within a float's spacing of k + 1 (the gap is over
 * 1/900, the spacing under 1/16000 there), so the truncation is exact. */
static int64_t isqrt(int64_t v)
{
    return (int64_t)sqrtf((float)v);
}

struct fit fit_cell(const rgb_t *s, int n)
{
    /* One colour: a space, as fit_pick finds it (the glyph pixels' means are
     * that colour), without the search. */
    bool flat = true;
    for (int i = 1; i < FIT_SAMPLES; i++)
        flat &= s[i] == s[0];
    if (flat)
        return (struct fit){' ', s[0], s[0]};
    rgb_t px[FIT_SEXTANT];
    fit_pixels(s, n, px);
    unsigned fg;
    struct fit f = fit_pick(px, n, &fg);
    if (f.ch == ' ')
        return f;
    struct px3 p[FIT_SAMPLES];
    for (int i = 0; i < FIT_SAMPLES; i++)
        p[i] = unpack(s[i]);
    int third[FIT_SAMPLES];
    for (int i = 0; i < FIT_SAMPLES; i++)
        third[i] = fg_thirds(fg, n, i);
    struct fit half;
    if (n == FIT_SEXTANT && fg != FIT_HALF_SEXTANT && sextant_half_wins(p, f, third, &half)) {
        f = half, fg = FIT_HALF_SEXTANT;
        for (int i = 0; i < FIT_SAMPLES; i++)
            third[i] = fg_thirds(fg, n, i);
    }
    /* Each colour moved towards the geometric median of the samples it
     * shows (Weiszfeld's steps, each sample weighed by its share): a speck
     * of the other colour, or the sliver of it a sextant row takes from a
     * sample, no longer greys the colour the rest agree on. */
    rgb_t *col[2] = {&f.fg, &f.bg};
    bool still[2] = {false, false}; /* the last step left it where it was: so would the next */
    for (int step = 0; step < FIT_MEDIAN_STEPS; step++)
        for (int g = 0; g < 2; g++) {
            if (still[g])
                continue;
            const rgb_t before = *col[g];
            const struct px3 c = unpack(before);
            int64_t wsum = 0, sum[3] = {0, 0, 0};
            for (int i = 0; i < FIT_SAMPLES; i++) {
                const int share = g == 0 ? third[i] : 3 - third[i];
                if (!share)
                    continue;
                const int32_t d[3] = {p[i].c[0] - c.c[0], p[i].c[1] - c.c[1], p[i].c[2] - c.c[2]};
                const int64_t dist = isqrt(norm2(d));
                /* in 32 bits (share * 65536 and the distance fit): the same
                 * quotient, at a fraction of a 64-bit division's cost */
                const int64_t w = (uint32_t)share * 65536u / (uint32_t)(dist > 1 ? dist : 1);
                wsum += w;
                for (int k = 0; k < 3; k++)
                    sum[k] += w * p[i].c[k];
            }
            if (wsum > 0) { /* sums under 2^32 (8 samples, weights under 2^18, 255 at most) */
                const uint32_t ws = (uint32_t)wsum, mid = ws / 2;
                *col[g] = RGB((int)(((uint32_t)sum[0] + mid) / ws),
                              (int)(((uint32_t)sum[1] + mid) / ws),
                              (int)(((uint32_t)sum[2] + mid) / ws));
            }
            still[g] = *col[g] == before;
        }
    return f;
}
