/* ref.h: CPU reference implementations used for verification (--verify and the tests). GEMM goes
 * through CBLAS (OpenBLAS) in double precision, so a single-precision result is compared with a
 * reference more accurate than itself. Not part of libtessel: the CLI and the tests link it. */
#ifndef TSL_REF_H
#define TSL_REF_H

#include <stddef.h>
#include <stdint.h>

#include "tessel.h"

/* C = alpha op(A) op(B) + beta C in double through cblas_dgemm, full CBLAS semantics. */
void tsl_ref_dgemm(tsl_layout layout, tsl_trans transa, tsl_trans transb, size_t m, size_t n,
                   size_t k, double alpha, const double *a, size_t lda, const double *b,
                   size_t ldb, double beta, double *c, size_t ldc);
/* The same in single precision through cblas_sgemm: the OpenBLAS peer times this one. */
void tsl_ref_sgemm(tsl_layout layout, tsl_trans transa, tsl_trans transb, size_t m, size_t n,
                   size_t k, float alpha, const float *a, size_t lda, const float *b, size_t ldb,
                   float beta, float *c, size_t ldc);

/* Complex GEMM (cblas_zgemm in double, cblas_cgemm in single: the OpenBLAS peer's): every
 * matrix and alpha, beta as interleaved (real, imaginary) pairs, leading dimensions in complex
 * elements; transa, transb may be TSL_CONJ_TRANS. A complex m x n matrix with leading dimension
 * ld is, for tsl_ref_rel_err_*, a real m x 2n one with leading dimension 2 ld (row-major view). */
void tsl_ref_zgemm(tsl_layout layout, tsl_trans transa, tsl_trans transb, size_t m, size_t n,
                   size_t k, const double *alpha, const double *a, size_t lda, const double *b,
                   size_t ldb, const double *beta, double *c, size_t ldc);
void tsl_ref_cgemm(tsl_layout layout, tsl_trans transa, tsl_trans transb, size_t m, size_t n,
                   size_t k, const float *alpha, const float *a, size_t lda, const float *b,
                   size_t ldb, const float *beta, float *c, size_t ldc);

/* ||out - ref||_F / ||ref||_F over a rows x cols matrix stored with leading dimensions ldo and
 * ldr (row-major view: element (i, j) at [i * ld + j]). Computed in double. If ||ref|| == 0 it
 * returns ||out||_F. NaN anywhere in out gives NaN (which never passes a comparison). */
double tsl_ref_rel_err_f(size_t rows, size_t cols, const float *out, size_t ldo,
                         const double *ref, size_t ldr);
double tsl_ref_rel_err_d(size_t rows, size_t cols, const double *out, size_t ldo,
                         const double *ref, size_t ldr);

/* The same for a matrix of halves (binary16 bits, tsl_half_to_float), and of bfloat16s. */
double tsl_ref_rel_err_h(size_t rows, size_t cols, const uint16_t *out, size_t ldo,
                         const double *ref, size_t ldr);
double tsl_ref_rel_err_b(size_t rows, size_t cols, const uint16_t *out, size_t ldo,
                         const double *ref, size_t ldr);

/* The pass threshold for a GEMM of inner dimension k at a precision (tsl_precision; an is_double
 * 0 or 1 is TSL_SINGLE or TSL_DOUBLE): 1e-5 (single) or 1e-12 (double) times
 * max(1, sqrt(k / 64)). Rounding errors of a length-k dot product grow like sqrt(k) for random
 * data; the factor keeps the bound tight at small k and fair at large k. Half storage computes in
 * float and rounds each element of C to half once: that rounding alone moves an element by up to
 * 2^-11 (binary16's unit roundoff) of its value, so ||out - ref|| / ||ref|| may reach 2^-11
 * whatever k is (about 2e-4 on random data), on top of the float term: 2^-11 + 1e-5 times the
 * factor. The reference is computed from the half inputs themselves, so their rounding (up to
 * 2^-11 each as well) is not counted. bfloat16 storage alike, with its unit roundoff 2^-8:
 * 2^-8 + 1e-5 times the factor. (Single precision in TF32 math is checked with the single bound
 * against a reference from the TF32-rounded inputs; in 3xTF32 math against the plain one.) */
double tsl_ref_gemm_tolerance(int precision, size_t k);

/* x rounded to TF32 as the tensor cores' inputs are (PTX cvt.rna.tf32.f32: to nearest, ties away
 * from zero, 10 mantissa bits; NaN and infinity stay), as a float: the operand of a TF32-math GEMM
 * (TSL_MATH_TF32), from which its --verify reference is computed. */
float tsl_ref_round_tf32(float x);

/* Fill n values with uniform random numbers in [-1, 1) from a xorshift generator; *state is the
 * seed and is advanced. Never zero-filled data: tests and --verify use this. */
void tsl_ref_fill_f(float *x, size_t n, unsigned long long *state);
void tsl_ref_fill_d(double *x, size_t n, unsigned long long *state);

/* ---- BLAS-1/2 references (double precision; callers convert single-precision data) ---------
 * dot through cblas_ddot; nrm2 by a scaled two-pass sum in long double (max |x_i| first, so it
 * neither overflows nor underflows); axpy through cblas_daxpy; gemv through cblas_dgemv, except
 * that with m or n == 0 it sets y = beta y (tessel's definition, docs/blas.md; CBLAS leaves y). */
double tsl_ref_ddot(size_t n, const double *x, const double *y);
double tsl_ref_dnrm2(size_t n, const double *x);
void tsl_ref_daxpy(size_t n, double alpha, const double *x, double *y);
void tsl_ref_dgemv(tsl_layout layout, tsl_trans trans, size_t m, size_t n, double alpha,
                   const double *a, size_t lda, const double *x, double beta, double *y);
/* The pass threshold for a reduction of length k (dot, nrm2, a gemv row): the GEMM rule,
 * 1e-5 (single) or 1e-12 (double) times max(1, sqrt(k / 64)); axpy uses k = 1. */
double tsl_ref_blas_tolerance(int is_double, size_t k);

/* The Poisson problem of tsl_[sd]poisson on an n x n grid (border included, h = 1/(n-1),
 * row-major), in double. tsl_ref_jacobi runs `sweeps` Jacobi sweeps on u in place (the border is
 * never written) with the update and operand order of the kernels (src/kernels/poisson.cl), so a
 * double-precision device run matches it to the last bit; returns 0, or -1 when out of memory
 * (u untouched). tsl_ref_poisson_residual: max |f - A_h u| over the interior, with
 * A_h u = (4 u - west - east - north - south) / h^2; NaN anywhere in it gives NaN. */
int tsl_ref_jacobi(size_t n, const double *f, double *u, int sweeps);
double tsl_ref_poisson_residual(size_t n, const double *f, const double *u);

#endif
