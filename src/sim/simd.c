/*
 * simd.c — which vector widths this CPU runs (see simd.h).
 */
#include "simd.h"

/* 16 and 8 lanes as the CPU reports them (__builtin_cpu_supports reads what
 * the runtime found at start-up), 4 wherever the build has SSE2; 1 always. */
int simd_lanes(int most)
{
    if (most <= 0)
        most = 16;
#if SIMD_HAVE_16
    if (most >= 16 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq"))
        return 16;
#endif
#if SIMD_HAVE_8
    if (most >= 8 && __builtin_cpu_supports("avx2"))
        return 8;
#endif
#if SIMD_HAVE_4
    if (most >= 4)
        return 4;
#endif
    return 1;
}
