/* pi.cl: 002's "Pi calculation", the midpoint rule for the integral over [0,1] of 4/(1+x^2)
 * with `steps` rectangles, as partial sums that the host adds up (src/ops/pi.c).
 *
 * One kernel serves every variant; the host sets the vector width VW (1: 002's original and
 * massively multithreaded kernels, 2..16: its float2..float16 vectorization) and the launch
 * (global and local size). Work-item g owns a contiguous run of step indices (the first
 * steps % global work-items one more than the others), so any step count and any launch cover
 * every index exactly once. Each step is 002's arithmetic in `real`: x = (i + 0.5) h,
 * 4 / (1 + x x).
 *
 * The summation is where tessel departs from 002's listing, for accuracy only: 002 keeps one float
 * accumulator per work-item, which over millions of terms of ~3 rounds each addition to the
 * sum's coarse spacing: 0.35% off at 002's 1,000,857,600 steps on 200 work-items (docs/pi.md).
 * Here each lane sums at most BLOCK terms, then the block's lanes are added in a fixed tree and
 * the block sum enters a compensated (Kahan) running sum; leftover single terms enter it one by
 * one. Each work-item writes its sum, and the host adds them in double in work-item order (002's
 * host adds per-group partials the same way). The result then has a relative error below 32
 * units of roundoff (1.9e-6) whatever the step count or launch (the bound is worked out in
 * docs/pi.md), and there are no atomics: the same bits on every run. Contraction into fma is off
 * so that the compensation is not undone and the bound holds.
 *
 * The host builds the program with -DONLY_ONE_KERNEL -DONLY_pi_partial. */
#pragma OPENCL FP_CONTRACT OFF

#ifndef VW
#define VW 1
#endif
#ifndef BLOCK
#define BLOCK 16 /* terms per lane before the lanes are folded into the compensated sum */
#endif

#if VW == 1
typedef real realv;
#define LANE_HALF ((real)0.5)
#define HSUM(v) (v)
#elif VW == 2
typedef real2 realv;
#define LANE_HALF ((real2)(0.5, 1.5))
#define HSUM(v) ((v).s0 + (v).s1)
#elif VW == 4
typedef real4 realv;
#define LANE_HALF ((real4)(0.5, 1.5, 2.5, 3.5))
#define HSUM(v) (((v).s0 + (v).s2) + ((v).s1 + (v).s3))
#elif VW == 8
typedef real8 realv;
#define LANE_HALF ((real8)(0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5))
#define HSUM(v) hsum8(v)
#elif VW == 16
typedef real16 realv;
#define LANE_HALF                                                                                  \
    ((real16)(0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5, 13.5, 14.5, 15.5))
#define HSUM(v) hsum8((v).lo + (v).hi)
#else
#error "VW must be 1, 2, 4, 8 or 16"
#endif

#if VW >= 8
/* The lanes of v added as a fixed tree (halves first), three additions deep. */
real hsum8(real8 v)
{
    real4 q = v.lo + v.hi;
    real2 d = q.lo + q.hi;
    return d.s0 + d.s1;
}
#endif

/* sum + value with Kahan's compensation c (the rounding error of the previous additions, to be
 * subtracted): keeps the running sum of many block sums within a few roundoffs. */
#define KAHAN_ADD(sum, c, value)                                                                   \
    do {                                                                                           \
        const real y_ = (value) - (c);                                                             \
        const real t_ = (sum) + y_;                                                                \
        (c) = (t_ - (sum)) - y_;                                                                   \
        (sum) = t_;                                                                                \
    } while (0)

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_pi_partial)
/* partial[g] = the sum of 4 / (1 + x_i^2) over work-item g's step indices; h = 1 / steps in
 * `real`. Any global and local size. */
__kernel void pi_partial(const ulong steps, const real h, __global real *partial)
{
    const ulong items = get_global_size(0), gid = get_global_id(0);
    const ulong per = steps / items, extra = steps % items;
    const ulong begin = gid * per + min(gid, extra);
    const ulong end = begin + per + (gid < extra ? 1 : 0);

    real sum = ZERO, comp = ZERO;
    ulong i = begin;
    /* Blocks of BLOCK vectors; the last one may be shorter. */
    while (end - i >= VW) {
        const ulong vectors = (end - i) / VW;
        const int count = vectors < BLOCK ? (int)vectors : BLOCK;
        const real base = (real)i; /* exact below 2^24; above, one rounding, as in 002 */
        realv acc = (realv)ZERO;
        for (int j = 0; j < count; ++j) {
            const realv x = ((realv)base + (LANE_HALF + (real)(j * VW))) * h;
            acc += (real)4 / ((real)1 + x * x);
        }
        KAHAN_ADD(sum, comp, HSUM(acc));
        i += (ulong)count * VW;
    }
    for (; i < end; ++i) { /* fewer than VW steps left, one term at a time */
        const real x = ((real)i + (real)0.5) * h;
        KAHAN_ADD(sum, comp, (real)4 / ((real)1 + x * x));
    }
    partial[gid] = sum;
}
#endif
