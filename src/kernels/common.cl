/* common.cl: the prelude of every tessel program (the host puts it before each family's file).
 * Precision comes from one -DPRECISION=32|64 that sets the type `real`; every kernel is written
 * once in terms of it. */
#ifndef PRECISION
#define PRECISION 32
#endif

#if PRECISION == 64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
#define REALNAME double
typedef double2 real2;
typedef double4 real4;
typedef double8 real8;
typedef double16 real16;
#define ZERO 0.0
#else
typedef float real;
#define REALNAME float
typedef float2 real2;
typedef float4 real4;
typedef float8 real8;
typedef float16 real16;
#define ZERO 0.0f
#endif

/* C = alpha * acc + beta * C, reading C only when beta is not zero (BLAS: beta == 0 means C is
 * output only, so NaN or garbage in C does not propagate). */
#define GEMM_STORE(c, alpha, acc, beta) \
    (c) = ((beta) == ZERO) ? (alpha) * (acc) : (alpha) * (acc) + (beta) * (c)
