/* blas1.cl: the BLAS-1 family on unit-stride vectors: axpy (y = alpha x + y), dot (x . y) and
 * nrm2 (||x||_2). Two flavours of every kernel: `scalar` (one element per work-item in a
 * grid-stride loop; the host's `naive` variant launches one work-item per element) and `vector`
 * (real4 loads, a fixed grid of work-items that each stride over many elements).
 *
 * Reductions are deterministic: the host launches a fixed number of work-groups for a given
 * device, size and variant; each work-item sums its elements in a fixed order, each group reduces
 * through the fixed tree of group_sum (common.cl) and writes one partial, and a second kernel run
 * as ONE work-group reduces the partials in a fixed order. No atomics, so the same bits every run.
 *
 * nrm2 never overflows or underflows where the true norm is representable: the first pass gives
 * each group's max |x_i| and sum of x_i^2 in the working precision; the finishing kernel takes
 * sqrt(sum) when the sum is finite and large enough that no square can have lost accuracy to
 * underflow (sum >= n * MIN / EPS), and otherwise sets a flag with a power-of-two scale 2^e near
 * max |x_i|, and a second pass sums (x_i 2^-e)^2 (exact scaling, terms below 4) and finishes with
 * 2^e sqrt(sum). The second pass is always enqueued and returns at once when the flag is clear,
 * so the host never waits between passes; in the common case x is read once.
 *
 * The `vector` kernels read x and y as real4 arrays: every tessel buffer starts at an OpenCL
 * buffer's base, which devices align far beyond 16 bytes, and the typed pointer lets the compiler
 * emit one 16-byte load where vload4 (which promises only element alignment) may become four.
 *
 * `wide` (dot_wide, nrm2_wide; single precision on a device with fp64 only, the host's choice):
 * the sums run in double. A float's square is exact in double and cannot overflow or underflow
 * there (1e38^2 = 1e76, (1e-45)^2 = 1e-90), so nrm2 needs neither the max nor the scaled pass:
 * one pass over x and one finishing group, like dot. */

/* Max of v (>= 0) over a 1D work-group; the same tree as group_sum. */
real group_max(__local real *buf, real v)
{
    const int lid = get_local_id(0);
    buf[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = (int)get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s) buf[lid] = fmax(buf[lid], buf[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    v = buf[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return v;
}

/* Below this sum of squares an element's square may have underflowed (or been flushed to zero)
 * by more than the rounding of the sum: the scaled pass is needed. */
#if PRECISION == 64
#define NRM2_SAFE_MIN (DBL_MIN / DBL_EPSILON)
#else
#define NRM2_SAFE_MIN (FLT_MIN / FLT_EPSILON)
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_axpy_scalar)
__kernel void axpy_scalar(const long n, const real alpha, __global const real *x,
                          __global real *y)
{
    for (long i = get_global_id(0); i < n; i += get_global_size(0)) y[i] += alpha * x[i];
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_axpy_vector)
/* Vectors of AXPY_W (2, 4 or 8) elements in a grid-stride loop; the n % AXPY_W tail elements go
 * to the first work-items. */
#ifndef AXPY_W
#define AXPY_W 4
#endif
#define AXPY_CAT_(a, b) a##b
#define AXPY_CAT(a, b) AXPY_CAT_(a, b)
typedef AXPY_CAT(REALNAME, AXPY_W) realw;
__kernel void axpy_vector(const long n, const real alpha, __global const real *x,
                          __global real *y)
{
    const long nv = n / AXPY_W;
    __global const realw *xw = (__global const realw *)x;
    __global realw *yw = (__global realw *)y;
    for (long v = get_global_id(0); v < nv; v += get_global_size(0)) yw[v] += alpha * xw[v];
    const long t = nv * AXPY_W + get_global_id(0);
    if (t < n) y[t] += alpha * x[t];
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_dot_scalar)
__kernel void dot_scalar(const long n, __global const real *x, __global const real *y,
                         __global real *partial, __local real *buf)
{
    real acc = ZERO;
    for (long i = get_global_id(0); i < n; i += get_global_size(0)) acc += x[i] * y[i];
    acc = group_sum(buf, acc);
    if (get_local_id(0) == 0) partial[get_group_id(0)] = acc;
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_dot_vector)
__kernel void dot_vector(const long n, __global const real *x, __global const real *y,
                         __global real *partial, __local real *buf)
{
    const long nv = n / 4;
    __global const real4 *x4 = (__global const real4 *)x, *y4 = (__global const real4 *)y;
    real4 acc4 = (real4)(ZERO);
    for (long v = get_global_id(0); v < nv; v += get_global_size(0)) acc4 += x4[v] * y4[v];
    real acc = (acc4.x + acc4.y) + (acc4.z + acc4.w);
    const long t = nv * 4 + get_global_id(0);
    if (t < n) acc += x[t] * y[t];
    acc = group_sum(buf, acc);
    if (get_local_id(0) == 0) partial[get_group_id(0)] = acc;
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_sum_finish)
/* One work-group: out[0] = the sum of count partials, in a fixed order. */
__kernel void sum_finish(const int count, __global const real *partial, __global real *out,
                         __local real *buf)
{
    real acc = ZERO;
    for (int i = get_local_id(0); i < count; i += get_local_size(0)) acc += partial[i];
    acc = group_sum(buf, acc);
    if (get_local_id(0) == 0) out[0] = acc;
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_nrm2_scalar)
/* Pass 1: partial[2g] = max |x_i|, partial[2g + 1] = sum x_i^2 over group g's elements. */
__kernel void nrm2_scalar(const long n, __global const real *x, __global real *partial,
                          __local real *buf)
{
    real mx = ZERO, ss = ZERO;
    for (long i = get_global_id(0); i < n; i += get_global_size(0)) {
        const real a = fabs(x[i]);
        mx = fmax(mx, a);
        ss += a * a;
    }
    mx = group_max(buf, mx);
    ss = group_sum(buf, ss);
    if (get_local_id(0) == 0) {
        partial[2 * get_group_id(0)] = mx;
        partial[2 * get_group_id(0) + 1] = ss;
    }
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_nrm2_vector)
__kernel void nrm2_vector(const long n, __global const real *x, __global real *partial,
                          __local real *buf)
{
    const long nv = n / 4;
    __global const real4 *x4 = (__global const real4 *)x;
    real4 mx4 = (real4)(ZERO), ss4 = (real4)(ZERO);
    for (long v = get_global_id(0); v < nv; v += get_global_size(0)) {
        const real4 a = fabs(x4[v]);
        mx4 = fmax(mx4, a);
        ss4 += a * a;
    }
    real mx = fmax(fmax(mx4.x, mx4.y), fmax(mx4.z, mx4.w));
    real ss = (ss4.x + ss4.y) + (ss4.z + ss4.w);
    const long t = nv * 4 + get_global_id(0);
    if (t < n) {
        const real a = fabs(x[t]);
        mx = fmax(mx, a);
        ss += a * a;
    }
    mx = group_max(buf, mx);
    ss = group_sum(buf, ss);
    if (get_local_id(0) == 0) {
        partial[2 * get_group_id(0)] = mx;
        partial[2 * get_group_id(0) + 1] = ss;
    }
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_nrm2_finish)
/* One work-group. Reduces pass 1's partials; either writes the norm, or (state[0] = 1, state[1]
 * = e) asks the scaled pass for it. NaN anywhere gives NaN, an infinite element infinity. */
__kernel void nrm2_finish(const long n, const int count, __global const real *partial,
                          __global real *out, __global int *state, __local real *buf)
{
    real mx = ZERO, ss = ZERO;
    for (int i = get_local_id(0); i < count; i += get_local_size(0)) {
        mx = fmax(mx, partial[2 * i]);
        ss += partial[2 * i + 1];
    }
    mx = group_max(buf, mx);
    ss = group_sum(buf, ss);
    if (get_local_id(0) != 0) return;
    int scaled = 0;
    if (isnan(ss)) out[0] = ss;
    else if (mx == ZERO) out[0] = ZERO;
    else if (isinf(mx)) out[0] = mx;
    else if (isfinite(ss) && ss >= (real)n * NRM2_SAFE_MIN) out[0] = sqrt(ss);
    else scaled = 1;
    state[0] = scaled;
    state[1] = scaled ? ilogb(mx) : 0;
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_nrm2_scaled_scalar)
/* Pass 2 (only when state[0] is set): partial[g] = sum (x_i 2^-e)^2. ldexp scales exactly. */
__kernel void nrm2_scaled_scalar(const long n, __global const real *x,
                                 __global const int *state, __global real *partial,
                                 __local real *buf)
{
    if (state[0] == 0) return; /* the same for every work-item: no barrier is skipped by half */
    const int e = -state[1];
    real ss = ZERO;
    for (long i = get_global_id(0); i < n; i += get_global_size(0)) {
        const real a = ldexp(x[i], e);
        ss += a * a;
    }
    ss = group_sum(buf, ss);
    if (get_local_id(0) == 0) partial[get_group_id(0)] = ss;
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_nrm2_scaled_vector)
__kernel void nrm2_scaled_vector(const long n, __global const real *x,
                                 __global const int *state, __global real *partial,
                                 __local real *buf)
{
    if (state[0] == 0) return;
    const int e = -state[1];
    const long nv = n / 4;
    real4 ss4 = (real4)(ZERO);
    __global const real4 *x4 = (__global const real4 *)x;
    for (long v = get_global_id(0); v < nv; v += get_global_size(0)) {
        const real4 a = ldexp(x4[v], e);
        ss4 += a * a;
    }
    real ss = (ss4.x + ss4.y) + (ss4.z + ss4.w);
    const long t = nv * 4 + get_global_id(0);
    if (t < n) {
        const real a = ldexp(x[t], e);
        ss += a * a;
    }
    ss = group_sum(buf, ss);
    if (get_local_id(0) == 0) partial[get_group_id(0)] = ss;
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_nrm2_scaled_finish)
/* One work-group, only when state[0] is set: out[0] = 2^e sqrt(sum of the partials). */
__kernel void nrm2_scaled_finish(const int count, __global const real *partial,
                                 __global const int *state, __global real *out,
                                 __local real *buf)
{
    if (state[0] == 0) return;
    real ss = ZERO;
    for (int i = get_local_id(0); i < count; i += get_local_size(0)) ss += partial[i];
    ss = group_sum(buf, ss);
    if (get_local_id(0) == 0) out[0] = ldexp(sqrt(ss), state[1]);
}
#endif

/* ---- wide: single-precision input, double sums ---------------------------------------------- */
#if PRECISION == 32 && (defined(ONLY_dot_wide) || defined(ONLY_nrm2_wide) || \
                        defined(ONLY_wide_finish))
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* group_sum (common.cl) in double: the same fixed tree. */
TSL_GROUP_SUM(group_sum_wide, double)
#endif

#if PRECISION == 32 && defined(ONLY_dot_wide)
__kernel void dot_wide(const long n, __global const float *x, __global const float *y,
                       __global double *partial, __local double *buf)
{
    const long nv = n / 4;
    __global const float4 *x4 = (__global const float4 *)x, *y4 = (__global const float4 *)y;
    double4 acc4 = (double4)(0.0);
    for (long v = get_global_id(0); v < nv; v += get_global_size(0))
        acc4 += convert_double4(x4[v]) * convert_double4(y4[v]);
    double acc = (acc4.x + acc4.y) + (acc4.z + acc4.w);
    const long t = nv * 4 + get_global_id(0);
    if (t < n) acc += (double)x[t] * (double)y[t];
    acc = group_sum_wide(buf, acc);
    if (get_local_id(0) == 0) partial[get_group_id(0)] = acc;
}
#endif

#if PRECISION == 32 && defined(ONLY_nrm2_wide)
/* partial[g] = sum of x_i^2 over group g's elements, in double (exact squares). */
__kernel void nrm2_wide(const long n, __global const float *x, __global double *partial,
                        __local double *buf)
{
    const long nv = n / 4;
    __global const float4 *x4 = (__global const float4 *)x;
    double4 ss4 = (double4)(0.0);
    for (long v = get_global_id(0); v < nv; v += get_global_size(0)) {
        const double4 a = convert_double4(x4[v]);
        ss4 += a * a;
    }
    double ss = (ss4.x + ss4.y) + (ss4.z + ss4.w);
    const long t = nv * 4 + get_global_id(0);
    if (t < n) ss += (double)x[t] * (double)x[t];
    ss = group_sum_wide(buf, ss);
    if (get_local_id(0) == 0) partial[get_group_id(0)] = ss;
}
#endif

#if PRECISION == 32 && defined(ONLY_wide_finish)
/* One work-group: out[0] = the sum of the count double partials (root = 1: its square root),
 * rounded once to float. NaN and infinity come through the sum as they should. */
__kernel void wide_finish(const int count, const int root, __global const double *partial,
                          __global float *out, __local double *buf)
{
    double acc = 0.0;
    for (int i = get_local_id(0); i < count; i += get_local_size(0)) acc += partial[i];
    acc = group_sum_wide(buf, acc);
    if (get_local_id(0) == 0) out[0] = (float)(root ? sqrt(acc) : acc);
}
#endif
