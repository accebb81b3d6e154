/*
 * simd.h — private to src/sim: how the solvers write vector code. Attributes
 * for inlining and targets, vectors of 4, 8 and 16 floats and their operations,
 * and simd_lanes(), which says which widths this CPU runs.
 */
#ifndef SWIRL_SIM_SIMD_H
#define SWIRL_SIM_SIMD_H

/*
 * The same bits at every width: an operation on a vector does what the same
 * operation does on each of its floats (square roots and divisions are exact
 * in every width), and nothing fuses a multiply and an add, which would round
 * once instead of twice. GCC in ISO C mode contracts nothing; clang does within
 * an expression wherever the target has FMA (AVX-512 has), so it is told not
 * to for every file that includes this one.
 */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

/* ---- attributes ------------------------------------------------------------ */

/*
 * SIMD_NOINLINE: a function whose loop must stay a loop of its own. Inlined
 * into its caller's loop nest, GCC forgets the restrict of its parameters or
 * no longer vectorises it. SIMD_INLINE: inlined always, even into a function
 * compiled for another target (see SIMD_TARGET_8), which GCC does not do by
 * itself. SIMD_LANE_LOOP, before a loop over the lanes of a group: vectorised
 * as it stands, not unrolled first and then vectorised across iterations of
 * the loop around it (which GCC otherwise does, with a pile of shuffles).
 */
#if defined(__GNUC__)
#define SIMD_NOINLINE __attribute__((noinline))
#define SIMD_INLINE static inline __attribute__((always_inline))
#define SIMD_LANE_LOOP _Pragma("GCC unroll 1")
#else
#define SIMD_NOINLINE
#define SIMD_INLINE static inline
#define SIMD_LANE_LOOP
#endif

/*
 * The widths, by lanes of floats: 1 (plain C), 4 (SSE2, the x86 baseline), 8
 * (AVX2) and 16 (AVX-512 F and DQ). 4 is there when the build's target has
 * SSE2; 8 and 16 are compiled on x86-64 under a target attribute
 * (SIMD_TARGET_8, SIMD_TARGET_16) and run where simd_lanes() says the CPU has
 * them. -DSWIRL_NO_SIMD builds plain C only, as on any other machine.
 */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__SSE2__) && !defined(SWIRL_NO_SIMD)
#define SIMD_HAVE_4 1
#else
#define SIMD_HAVE_4 0
#endif
#if SIMD_HAVE_4 && defined(__GNUC__) && defined(__x86_64__)
#define SIMD_HAVE_8 1
#define SIMD_HAVE_16 1
#else
#define SIMD_HAVE_8 0
#define SIMD_HAVE_16 0
#endif

#define SIMD_TARGET_1
#define SIMD_TARGET_4
#if SIMD_HAVE_8
#define SIMD_TARGET_8 __attribute__((target("avx2")))
#define SIMD_TARGET_16 __attribute__((target("avx512f,avx512dq")))
#endif

/* The widest width the CPU runs of at most `most` lanes (0: any): 16, 8, 4 or
 * 1 (simd.c). The answer does not change while the program runs. */
int simd_lanes(int most);

/* Names for code written once for any width w (a template included once per
 * width, stb style): SIMD_VEC(w) is the vector type, SIMD_OP(w, add) its
 * operation, SIMD_NAME(f, w) the instance f_xW of a function f, SIMD_TARGET(w)
 * its target attribute. */
#define SIMD_PASTE_(a, b) a##b
#define SIMD_PASTE(a, b) SIMD_PASTE_(a, b)
#define SIMD_PASTE3_(a, b, c) a##b##c
#define SIMD_PASTE3(a, b, c) SIMD_PASTE3_(a, b, c)
#define SIMD_VEC(w) SIMD_PASTE(f32x, w)
#define SIMD_OP(w, op) SIMD_PASTE3(f32x, w, _##op)
#define SIMD_NAME(f, w) SIMD_PASTE3(f, _x, w)
#define SIMD_TARGET(w) SIMD_PASTE(SIMD_TARGET_, w)

/* The width of the build's own target: 4 with SSE2, else 1. */
#if SIMD_HAVE_4
#define SIMD_BASE 4
#else
#define SIMD_BASE 1
#endif

/*
 * Loops in plain C that the compiler vectorises, once per width: with f_body a
 * SIMD_INLINE function, SIMD_CLONE(f, w, params, args) defines f_xW, a copy of
 * it compiled under width w's target (none for SIMD_BASE), noinline so that
 * the restrict of its parameters holds (GCC honours restrict on parameters
 * only, and forgets it when it inlines the function).
 */
#define SIMD_CLONE(f, w, params, args)                                                     \
    SIMD_TARGET(w) SIMD_NOINLINE static void SIMD_NAME(f, w) params { f##_body args; }

/*
 * ---- the vectors -------------------------------------------------------------
 *
 * Every width has the same operations: load and store (unaligned), set1, zero,
 * add, sub, mul, div, sqrt, the bitwise and, or, andnot (~a & b), xor, gt, ge
 * and le (a lane of all ones where a > b, a >= b, a <= b, ordered: false for
 * NaN), select (on ? a : b, lane by lane, for a mask from those), gather (the
 * floats base[idx[0]], base[idx[1]] ..., loaded one by one: gather
 * instructions are slower than that on CPUs with the GDS microcode
 * mitigation), and four shuffles for pairs of vectors lo, hi
 * holding 2*W consecutive floats: even and odd take the even and the odd ones,
 * zip_lo and zip_hi put them back. Past 4 lanes the shuffles work within each
 * 128-bit block, so even() holds the even floats in the order 0 2 8 10 4 6 12
 * 14 (8 lanes): the same order for every array split so, which is all a lane
 * by lane computation needs. gather2 loads (x, y) pairs stored side by side
 * (xy[2 idx[l]], xy[2 idx[l] + 1]) into lane l of x and of y: a load a lane
 * where two gathers take two.
 */
#if SIMD_HAVE_4
#include <immintrin.h>

typedef __m128 f32x4;

SIMD_INLINE f32x4 f32x4_load(const float *p) { return _mm_loadu_ps(p); }
SIMD_INLINE void f32x4_store(float *p, f32x4 v) { _mm_storeu_ps(p, v); }
SIMD_INLINE f32x4 f32x4_set1(float f) { return _mm_set1_ps(f); }
SIMD_INLINE f32x4 f32x4_zero(void) { return _mm_setzero_ps(); }
SIMD_INLINE f32x4 f32x4_add(f32x4 a, f32x4 b) { return _mm_add_ps(a, b); }
SIMD_INLINE f32x4 f32x4_sub(f32x4 a, f32x4 b) { return _mm_sub_ps(a, b); }
SIMD_INLINE f32x4 f32x4_mul(f32x4 a, f32x4 b) { return _mm_mul_ps(a, b); }
SIMD_INLINE f32x4 f32x4_div(f32x4 a, f32x4 b) { return _mm_div_ps(a, b); }
SIMD_INLINE f32x4 f32x4_sqrt(f32x4 a) { return _mm_sqrt_ps(a); }
SIMD_INLINE f32x4 f32x4_and(f32x4 a, f32x4 b) { return _mm_and_ps(a, b); }
SIMD_INLINE f32x4 f32x4_or(f32x4 a, f32x4 b) { return _mm_or_ps(a, b); }
SIMD_INLINE f32x4 f32x4_andnot(f32x4 a, f32x4 b) { return _mm_andnot_ps(a, b); }
SIMD_INLINE f32x4 f32x4_xor(f32x4 a, f32x4 b) { return _mm_xor_ps(a, b); }
SIMD_INLINE f32x4 f32x4_gt(f32x4 a, f32x4 b) { return _mm_cmpgt_ps(a, b); }
SIMD_INLINE f32x4 f32x4_ge(f32x4 a, f32x4 b) { return _mm_cmpge_ps(a, b); }
SIMD_INLINE f32x4 f32x4_le(f32x4 a, f32x4 b) { return _mm_cmple_ps(a, b); }
SIMD_INLINE f32x4 f32x4_gather(const float *base, const int *idx)
{
    return _mm_set_ps(base[idx[3]], base[idx[2]], base[idx[1]], base[idx[0]]);
}
SIMD_INLINE f32x4 f32x4_select(f32x4 on, f32x4 a, f32x4 b)
{
    return _mm_or_ps(_mm_and_ps(on, a), _mm_andnot_ps(on, b));
}
SIMD_INLINE f32x4 f32x4_even(f32x4 lo, f32x4 hi)
{
    return _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
}
SIMD_INLINE f32x4 f32x4_odd(f32x4 lo, f32x4 hi)
{
    return _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1));
}
SIMD_INLINE f32x4 f32x4_zip_lo(f32x4 a, f32x4 b) { return _mm_unpacklo_ps(a, b); }
SIMD_INLINE f32x4 f32x4_zip_hi(f32x4 a, f32x4 b) { return _mm_unpackhi_ps(a, b); }

/* Four lanes only, for gathers of (x, y) pairs: the two floats at p into the
 * low or the high half of v (the other half kept), or out of it; and the
 * lanes' sign bits as a 4-bit mask (lane 0 in bit 0). */
SIMD_INLINE f32x4 f32x4_load_lo2(f32x4 v, const float *p)
{
    return _mm_loadl_pi(v, (const __m64 *)(const void *)p);
}
SIMD_INLINE f32x4 f32x4_load_hi2(f32x4 v, const float *p)
{
    return _mm_loadh_pi(v, (const __m64 *)(const void *)p);
}
SIMD_INLINE void f32x4_store_lo2(float *p, f32x4 v) { _mm_storel_pi((__m64 *)(void *)p, v); }
SIMD_INLINE void f32x4_store_hi2(float *p, f32x4 v) { _mm_storeh_pi((__m64 *)(void *)p, v); }
SIMD_INLINE int f32x4_mask(f32x4 v) { return _mm_movemask_ps(v); }
/* The pairs of lanes l and l + 1 in one vector (x y x y). */
SIMD_INLINE f32x4 f32x4_pairs(const float *xy, const int *idx, int l)
{
    return f32x4_load_hi2(f32x4_load_lo2(_mm_setzero_ps(), xy + 2 * idx[l]), xy + 2 * idx[l + 1]);
}
/* Each block of four lanes from the pairs of its lanes 0-1 (lo) and 2-3 (hi):
 * even and odd take x and y back in lane order. */
SIMD_INLINE void f32x4_gather2(const float *xy, const int *idx, f32x4 *x, f32x4 *y)
{
    const f32x4 lo = f32x4_pairs(xy, idx, 0), hi = f32x4_pairs(xy, idx, 2);
    *x = f32x4_even(lo, hi);
    *y = f32x4_odd(lo, hi);
}
#endif

#if SIMD_HAVE_8
#define SIMD_INLINE_8 SIMD_INLINE SIMD_TARGET_8

typedef __m256 f32x8;

SIMD_INLINE_8 f32x8 f32x8_load(const float *p) { return _mm256_loadu_ps(p); }
SIMD_INLINE_8 void f32x8_store(float *p, f32x8 v) { _mm256_storeu_ps(p, v); }
SIMD_INLINE_8 f32x8 f32x8_set1(float f) { return _mm256_set1_ps(f); }
SIMD_INLINE_8 f32x8 f32x8_zero(void) { return _mm256_setzero_ps(); }
SIMD_INLINE_8 f32x8 f32x8_add(f32x8 a, f32x8 b) { return _mm256_add_ps(a, b); }
SIMD_INLINE_8 f32x8 f32x8_sub(f32x8 a, f32x8 b) { return _mm256_sub_ps(a, b); }
SIMD_INLINE_8 f32x8 f32x8_mul(f32x8 a, f32x8 b) { return _mm256_mul_ps(a, b); }
SIMD_INLINE_8 f32x8 f32x8_div(f32x8 a, f32x8 b) { return _mm256_div_ps(a, b); }
SIMD_INLINE_8 f32x8 f32x8_sqrt(f32x8 a) { return _mm256_sqrt_ps(a); }
SIMD_INLINE_8 f32x8 f32x8_and(f32x8 a, f32x8 b) { return _mm256_and_ps(a, b); }
SIMD_INLINE_8 f32x8 f32x8_or(f32x8 a, f32x8 b) { return _mm256_or_ps(a, b); }
SIMD_INLINE_8 f32x8 f32x8_andnot(f32x8 a, f32x8 b) { return _mm256_andnot_ps(a, b); }
SIMD_INLINE_8 f32x8 f32x8_xor(f32x8 a, f32x8 b) { return _mm256_xor_ps(a, b); }
SIMD_INLINE_8 f32x8 f32x8_gt(f32x8 a, f32x8 b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
SIMD_INLINE_8 f32x8 f32x8_ge(f32x8 a, f32x8 b) { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }
SIMD_INLINE_8 f32x8 f32x8_le(f32x8 a, f32x8 b) { return _mm256_cmp_ps(a, b, _CMP_LE_OQ); }
SIMD_INLINE_8 f32x8 f32x8_gather(const float *base, const int *idx)
{
    return _mm256_set_ps(base[idx[7]], base[idx[6]], base[idx[5]], base[idx[4]], base[idx[3]],
                         base[idx[2]], base[idx[1]], base[idx[0]]);
}
SIMD_INLINE_8 f32x8 f32x8_select(f32x8 on, f32x8 a, f32x8 b)
{
    return _mm256_or_ps(_mm256_and_ps(on, a), _mm256_andnot_ps(on, b));
}
SIMD_INLINE_8 f32x8 f32x8_even(f32x8 lo, f32x8 hi)
{
    return _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
}
SIMD_INLINE_8 f32x8 f32x8_odd(f32x8 lo, f32x8 hi)
{
    return _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1));
}
SIMD_INLINE_8 f32x8 f32x8_zip_lo(f32x8 a, f32x8 b) { return _mm256_unpacklo_ps(a, b); }
SIMD_INLINE_8 f32x8 f32x8_zip_hi(f32x8 a, f32x8 b) { return _mm256_unpackhi_ps(a, b); }
/* The lanes' sign bits as an 8-bit mask (lane 0 in bit 0), as f32x4_mask. */
SIMD_INLINE_8 int f32x8_mask(f32x8 v) { return _mm256_movemask_ps(v); }
SIMD_INLINE_8 void f32x8_gather2(const float *xy, const int *idx, f32x8 *x, f32x8 *y)
{
    const f32x8 lo = _mm256_set_m128(f32x4_pairs(xy, idx, 4), f32x4_pairs(xy, idx, 0));
    const f32x8 hi = _mm256_set_m128(f32x4_pairs(xy, idx, 6), f32x4_pairs(xy, idx, 2));
    *x = f32x8_even(lo, hi);
    *y = f32x8_odd(lo, hi);
}
#endif

#if SIMD_HAVE_16
#define SIMD_INLINE_16 SIMD_INLINE SIMD_TARGET_16

typedef __m512 f32x16;

SIMD_INLINE_16 f32x16 f32x16_load(const float *p) { return _mm512_loadu_ps(p); }
SIMD_INLINE_16 void f32x16_store(float *p, f32x16 v) { _mm512_storeu_ps(p, v); }
SIMD_INLINE_16 f32x16 f32x16_set1(float f) { return _mm512_set1_ps(f); }
SIMD_INLINE_16 f32x16 f32x16_zero(void) { return _mm512_setzero_ps(); }
SIMD_INLINE_16 f32x16 f32x16_add(f32x16 a, f32x16 b) { return _mm512_add_ps(a, b); }
SIMD_INLINE_16 f32x16 f32x16_sub(f32x16 a, f32x16 b) { return _mm512_sub_ps(a, b); }
SIMD_INLINE_16 f32x16 f32x16_mul(f32x16 a, f32x16 b) { return _mm512_mul_ps(a, b); }
SIMD_INLINE_16 f32x16 f32x16_div(f32x16 a, f32x16 b) { return _mm512_div_ps(a, b); }
SIMD_INLINE_16 f32x16 f32x16_sqrt(f32x16 a) { return _mm512_sqrt_ps(a); }
SIMD_INLINE_16 f32x16 f32x16_and(f32x16 a, f32x16 b) { return _mm512_and_ps(a, b); }
SIMD_INLINE_16 f32x16 f32x16_or(f32x16 a, f32x16 b) { return _mm512_or_ps(a, b); }
SIMD_INLINE_16 f32x16 f32x16_andnot(f32x16 a, f32x16 b) { return _mm512_andnot_ps(a, b); }
/* A compare gives a mask register; DQ's movm makes it a vector of all-ones
 * lanes, so select is the same bitwise select as at the other widths. */
SIMD_INLINE_16 f32x16 f32x16_xor(f32x16 a, f32x16 b) { return _mm512_xor_ps(a, b); }
SIMD_INLINE_16 f32x16 f32x16_gt(f32x16 a, f32x16 b)
{
    return _mm512_castsi512_ps(_mm512_movm_epi32(_mm512_cmp_ps_mask(a, b, _CMP_GT_OQ)));
}
SIMD_INLINE_16 f32x16 f32x16_ge(f32x16 a, f32x16 b)
{
    return _mm512_castsi512_ps(_mm512_movm_epi32(_mm512_cmp_ps_mask(a, b, _CMP_GE_OQ)));
}
SIMD_INLINE_16 f32x16 f32x16_le(f32x16 a, f32x16 b)
{
    return _mm512_castsi512_ps(_mm512_movm_epi32(_mm512_cmp_ps_mask(a, b, _CMP_LE_OQ)));
}
SIMD_INLINE_16 f32x16 f32x16_gather(const float *base, const int *idx)
{
    return _mm512_set_ps(base[idx[15]], base[idx[14]], base[idx[13]], base[idx[12]],
                         base[idx[11]], base[idx[10]], base[idx[9]], base[idx[8]], base[idx[7]],
                         base[idx[6]], base[idx[5]], base[idx[4]], base[idx[3]], base[idx[2]],
                         base[idx[1]], base[idx[0]]);
}
SIMD_INLINE_16 f32x16 f32x16_select(f32x16 on, f32x16 a, f32x16 b)
{
    return _mm512_or_ps(_mm512_and_ps(on, a), _mm512_andnot_ps(on, b));
}
SIMD_INLINE_16 f32x16 f32x16_even(f32x16 lo, f32x16 hi)
{
    return _mm512_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
}
SIMD_INLINE_16 f32x16 f32x16_odd(f32x16 lo, f32x16 hi)
{
    return _mm512_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1));
}
SIMD_INLINE_16 f32x16 f32x16_zip_lo(f32x16 a, f32x16 b) { return _mm512_unpacklo_ps(a, b); }
SIMD_INLINE_16 f32x16 f32x16_zip_hi(f32x16 a, f32x16 b) { return _mm512_unpackhi_ps(a, b); }
/* Four blocks of four lanes (see f32x4_gather2). */
SIMD_INLINE_16 f32x16 f32x16_blocks(f32x4 b0, f32x4 b1, f32x4 b2, f32x4 b3)
{
    const __m256 low = _mm256_set_m128(b1, b0), high = _mm256_set_m128(b3, b2);
    return _mm512_insertf32x8(_mm512_castps256_ps512(low), high, 1);
}
SIMD_INLINE_16 void f32x16_gather2(const float *xy, const int *idx, f32x16 *x, f32x16 *y)
{
    const f32x16 lo = f32x16_blocks(f32x4_pairs(xy, idx, 0), f32x4_pairs(xy, idx, 4),
                                    f32x4_pairs(xy, idx, 8), f32x4_pairs(xy, idx, 12));
    const f32x16 hi = f32x16_blocks(f32x4_pairs(xy, idx, 2), f32x4_pairs(xy, idx, 6),
                                    f32x4_pairs(xy, idx, 10), f32x4_pairs(xy, idx, 14));
    *x = f32x16_even(lo, hi);
    *y = f32x16_odd(lo, hi);
}

/*
 * Sixteen ints, for sorting values out (16 lanes only): load; which lanes are
 * below a value and which have a bit set (a mask of 16 bits, bit l for lane
 * l); keep, which packs the lanes of a mask at dst in lane order and says how
 * many (all 16 are written: room for 16 at dst). Packed in a register and
 * stored whole: a compressing store is many times slower on some CPUs.
 */
typedef __m512i i32x16;

SIMD_INLINE_16 i32x16 i32x16_load(const int *p) { return _mm512_loadu_si512((const void *)p); }
SIMD_INLINE_16 unsigned i32x16_below(i32x16 v, int bound)
{
    return _mm512_cmplt_epi32_mask(v, _mm512_set1_epi32(bound));
}
SIMD_INLINE_16 unsigned i32x16_has(i32x16 v, unsigned bits)
{
    return _mm512_test_epi32_mask(v, _mm512_set1_epi32((int)bits));
}
SIMD_INLINE_16 int i32x16_keep(int *dst, i32x16 v, unsigned mask)
{
    _mm512_storeu_si512((void *)dst, _mm512_maskz_compress_epi32((__mmask16)mask, v));
    return __builtin_popcount(mask & 0xffffu);
}
#endif

#endif
