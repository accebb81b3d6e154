/*
 * test_pbf_depth.c — the water's depth (src/scenes/pbf_depth.c) against
 * straightforward references on small random fields: the blur, which takes its
 * pixels a block at a time where the walls are out of reach, gives each pixel
 * the very bits of a sum over its columns one at a time; the depth, the least
 * deep way up taken a row at a time, the bits of a pixel-by-pixel walk. Fields
 * of every width from one pixel, walls anywhere in the row or off it, and blurs
 * of one to seven columns (k up to 3 and a half).
 */
#include "../src/scenes/pbf_scene.h"
#include "swirl.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define W_MAX 48
#define H_MAX 9

/* Coverage as drawn: some of it air (0), some full (1), the rest between. */
static float coverage(struct rng *r)
{
    const float u = rng_float(r);
    return u < 0.3f ? 0.0f : u < 0.55f ? 1.0f : rng_float(r);
}

/* The blur of one row of v as written first: each pixel's terms one column at
 * a time, weighted (blur + 1 - |e|) (a + 1e-3), within [lo, hi] or itself. */
static void ref_blur(float *v, const float *a, int w, int lo, int hi, int blur)
{
    float tmp[W_MAX];
    for (int x = 0; x < w; x++) {
        float sum = 0.0f, wsum = 0.0f;
        for (int e = -blur; e <= blur; e++) {
            const int q = x + e;
            if (q < 0 || q >= w || ((q < lo || q > hi) && q != x))
                continue;
            const float wgt = (float)(blur + 1 - abs(e)) * (a[q] + 1e-3f);
            sum += wgt * v[q], wsum += wgt;
        }
        tmp[x] = sum / wsum;
    }
    memcpy(v, tmp, (size_t)w * sizeof *v);
}

/* What a pixel of coverage a passes on of the depth above it: a canvas
 * pixel's AIR_KEEP (0.5) of air, an image pixel (1/k of one) its k-th root. */
static float ref_keep(float a, float k)
{
    const float keep = a + (1.0f - a) * 0.5f;
    if (k <= 1.0f || keep >= 1.0f)
        return keep;
    return powf(a <= 0.0f ? 0.5f : keep, 1.0f / k);
}

/* The depth as written first: a pixel at a time, its diagonal neighbours
 * inside the walls looked at in turn; AIR_KEEP 0.5, DEPTH_BLUR 2. */
static void ref_depth(const float *cov, float *dep, float *lit, int w, int h, int x0, int x1,
                      float k, float above)
{
    float top[W_MAX], next[W_MAX], up[W_MAX];
    const int lo = clampi(x0, 0, w - 1), hi = clampi(x1, 0, w - 1);
    const int blur = (int)lrintf(k * 2.0f);
    for (int x = 0; x < w; x++)
        top[x] = up[x] = above;
    for (int y = 0; y < h; y++) {
        const float *a = cov + y * w;
        float *d = dep + y * w, *l = lit + y * w;
        for (int x = 0; x < w; x++)
            d[x] = top[x] + 0.5f * a[x], l[x] = up[x] + 0.5f * a[x];
        for (int x = 0; x < w; x++) {
            const float keep = ref_keep(a[x], k);
            float best = top[x] * keep + a[x];
            for (int e = -1; e <= 1 && x >= lo && x <= hi; e += 2) {
                const int q = x + e;
                if (q < lo || q > hi)
                    continue;
                const float via = top[q] * ref_keep(a[q], k) + 1.41421f * a[q];
                best = via < best ? via : best;
            }
            next[x] = best;
            up[x] = up[x] * keep + a[x];
        }
        memcpy(top, next, sizeof top);
        ref_blur(d, a, w, lo, hi, blur);
        ref_blur(l, a, w, lo, hi, blur);
    }
}

/* The first pixel where a and b differ in their bits, or -1. */
static int first_unlike(const float *a, const float *b, int n)
{
    for (int i = 0; i < n; i++)
        if (memcmp(&a[i], &b[i], sizeof *a) != 0)
            return i;
    return -1;
}

TEST(pbf_depth_blur_matches_the_sum_a_column_at_a_time)
{
    struct rng r = {.s = 7};
    int cases = 0, blocked = 0;
    for (int w = 1; w <= W_MAX; w++)
        for (int c = 0; c < 24; c++) {
            float a[W_MAX], dep[W_MAX], lit[W_MAX], want_d[W_MAX], want_l[W_MAX], out[2 * W_MAX];
            /* Walls: none in the row, one or both in it (a band a few pixels wide). */
            int lo = c % 3 == 0 ? 0 : (int)(rng_float(&r) * (float)w / 3.0f);
            int hi = c % 4 == 0 ? w - 1 : w - 1 - (int)(rng_float(&r) * (float)w / 3.0f);
            hi = hi < lo ? lo : hi;
            const int blur = 1 + c % 7;
            for (int x = 0; x < w; x++) {
                a[x] = coverage(&r);
                want_d[x] = dep[x] = 40.0f * rng_float(&r);
                want_l[x] = lit[x] = 5.0f * rng_float(&r);
            }
            ref_blur(want_d, a, w, lo, hi, blur);
            ref_blur(want_l, a, w, lo, hi, blur);
            water_blur_rows(dep, lit, a, out, w, lo, hi, blur);
            const int bd = first_unlike(dep, want_d, w), bl = first_unlike(lit, want_l, w);
            CHECK_MSG(bd < 0 && bl < 0, "w %d, walls %d..%d, blur %d: dep %d (%.9g, not %.9g), "
                      "lit %d", w, lo, hi, blur, bd, bd < 0 ? 0.0 : (double)dep[bd],
                      bd < 0 ? 0.0 : (double)want_d[bd], bl);
            cases++;
            blocked += hi - lo + 1 >= 8 + 2 * blur; /* room for a block inside the walls */
        }
    CHECK(cases == W_MAX * 24);
    CHECK_MSG(blocked > 200, "only %d cases with a block inside the walls", blocked);
}

TEST(pbf_depth_matches_a_walk_a_pixel_at_a_time)
{
    struct rng r = {.s = 11};
    static float cov[W_MAX * H_MAX], dep[W_MAX * H_MAX], lit[W_MAX * H_MAX];
    static float want_d[W_MAX * H_MAX], want_l[W_MAX * H_MAX], rows[5 * W_MAX];
    for (int w = 1; w <= W_MAX; w += 3)
        for (int c = 0; c < 12; c++) {
            const int h = 1 + c % H_MAX;
            const float k = (float)(1 + c % 3) + (c % 5 == 4 ? 0.5f : 0.0f);
            const float above = c % 2 ? 3.2f * k : 0.0f;
            /* The inner faces anywhere about the row, on it or off it. */
            const int x0 = (int)(rng_float(&r) * (float)(w / 2 + 3)) - 2;
            const int x1 = w + 1 - (int)(rng_float(&r) * (float)(w / 2 + 3));
            for (int i = 0; i < w * h; i++)
                cov[i] = coverage(&r);
            struct water_draw d = {.cov = cov, .dep = dep, .lit = lit, .row = rows, .k = k,
                                   .x0 = x0, .x1 = x1};
            ref_depth(cov, want_d, want_l, w, h, x0, x1, k, above);
            water_depth(&d, w, h, above);
            const int bd = first_unlike(dep, want_d, w * h), bl = first_unlike(lit, want_l, w * h);
            CHECK_MSG(bd < 0 && bl < 0, "%dx%d, walls %d..%d, k %g: dep %d, lit %d", w, h, x0,
                      x1, (double)k, bd, bl);
        }
}

TEST(pbf_depth_of_air_as_wide_is_the_same_at_any_k)
{
    /* A column of water, a canvas pixel of air in it (a pocket), more water
     * below: the depth under the pocket, in canvas pixels, is the same drawn
     * at 1, 2, 4 and 8 image pixels a canvas pixel (each pixel of air at k 8
     * halved it once: 1/256 of it was left, and a pocket lit the water under
     * it far more in pixels than in glyphs). */
    enum { ABOVE = 6, GAP = 1, BELOW = 5, KMAX = 8 };
    static float cov[(ABOVE + GAP + BELOW) * KMAX], dep[(ABOVE + GAP + BELOW) * KMAX];
    static float lit[(ABOVE + GAP + BELOW) * KMAX], rows[5];
    float at_one = -1.0f;
    for (int k = 1; k <= KMAX; k *= 2) {
        const int h = (ABOVE + GAP + BELOW) * k;
        for (int y = 0; y < h; y++)
            cov[y] = y >= ABOVE * k && y < (ABOVE + GAP) * k ? 0.0f : 1.0f;
        struct water_draw d = {.cov = cov, .dep = dep, .lit = lit, .row = rows, .k = (float)k,
                               .x0 = 0, .x1 = 0};
        water_depth(&d, 1, h, 0.0f);
        const float bottom = dep[h - 1] / (float)k; /* canvas pixels of depth */
        if (k == 1)
            at_one = bottom;
        CHECK_MSG(fabsf(bottom - at_one) <= 0.1f * at_one, "k %d: %.2f canvas pixels deep at the "
                  "bottom, %.2f at k 1", k, (double)bottom, (double)at_one);
    }
    CHECK(at_one > (float)BELOW); /* the water above the pocket still counts */
}

TEST(pbf_depth_finer_than_the_canvas_is_the_canvas_s)
{
    /* Drawn at 3 image pixels a canvas pixel, the depth at the middle of each
     * canvas pixel is 3 times the depth at k 1 of the coverage averaged over
     * it, to the bit; what lies straight above (lit) is the image's own. */
    enum { K = 3, CW = 14, CH = 9, W = K * CW, H = K * CH };
    static float cov[W * H], dep[W * H], lit[W * H], dep2[W * H], lit2[W * H];
    static float rows[5 * W], coarse[3 * (W * H / 4 + 1)];
    static float ca[CW * CH], cdep[CW * CH], clit[CW * CH], crows[5 * CW];
    struct rng r = {.s = 5};
    for (int i = 0; i < W * H; i++)
        cov[i] = coverage(&r);
    const int x0 = 2 * K, x1 = (CW - 1) * K - 1; /* walls on canvas pixels' edges */
    struct water_draw d = {.cov = cov, .dep = dep, .lit = lit, .row = rows, .coarse = coarse,
                           .k = (float)K, .x0 = x0, .x1 = x1};
    water_depth(&d, W, H, 0.0f);
    struct water_draw fine = {.cov = cov, .dep = dep2, .lit = lit2, .row = rows, .k = (float)K,
                              .x0 = x0, .x1 = x1};
    water_depth(&fine, W, H, 0.0f);
    CHECK(first_unlike(lit, lit2, W * H) < 0);
    for (int y = 0; y < CH; y++)
        for (int x = 0; x < CW; x++) {
            float sum = 0.0f;
            for (int yy = y * K; yy < y * K + K; yy++)
                for (int xx = x * K; xx < x * K + K; xx++)
                    sum += cov[yy * W + xx];
            ca[y * CW + x] = sum * (1.0f / (float)(K * K));
        }
    struct water_draw c = {.cov = ca, .dep = cdep, .lit = clit, .row = crows, .k = 1.0f,
                           .x0 = x0 / K, .x1 = (x1 + 1) / K - 1};
    water_depth(&c, CW, CH, 0.0f);
    int unlike = 0;
    for (int y = 0; y < CH; y++)
        for (int x = c.x0; x <= c.x1; x++)
            unlike += dep[(K * y + K / 2) * W + K * x + K / 2] != (float)K * cdep[y * CW + x];
    CHECK_MSG(unlike == 0, "%d canvas pixels' depth not the canvas's", unlike);
    CHECK(first_unlike(dep, dep2, W * H) >= 0); /* (the image's own would differ) */
}
